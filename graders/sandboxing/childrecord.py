"""The kit's own child recording the reference's answers to a case's calls, worked out beforehand.

Contract: part of the child (see :mod:`graders.sandboxing.child`); runs only in the kit's own child,
never where student code runs: it keeps plain answers of calls that printed nothing and rolled no die.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable

from graders.sandboxing.childlink import call_key, closed, contents, plain, state_of, watched
from graders.sandboxing.childwire import CappedText

# -- answers worked out beforehand -------------------------------------------------------------

# The kit's own child, asked to "record" while it runs a case's steps on the reference, keeps the
# answers of the calls of the recorded functions that a stub's call could be answered by: plain
# values in (as a stub passes them: every positional parameter in order, a function left to its
# default as KIT_DEFAULT), a plain value out, nothing printed and no die rolled, with the problem
# functions each reached. The kit hands a student's child, for that case only, those that reached
# none of the student's own functions (in a student's case the kit calls the student's); the
# child asks its link for any other call.
_MOST_ANSWERS = 100000
class Recorder:
    """Wraps the RECORDED names of a module's NAMESPACE (every problem function) for one case (see
    above); ``answers``: {key: [value, the recorded names the call reached]}, so that the kit can
    keep, for a student's child, only the calls that reached none of that student's own functions."""

    def __init__(self, namespace: dict, recorded: list, support: dict | None = None) -> None:
        self.support = support or {}  # see support_codes: a die passed is keyed by its state
        self.answers: dict = {}
        self.active: list = []  # one [pure, {names reached}] per recorded call in progress, innermost last
        for name in recorded:
            if callable(namespace.get(name)) and hasattr(namespace[name], "__code__"):
                namespace[name] = self.recording(name, namespace[name])

    def taint(self) -> None:
        for frame in self.active:
            frame[0] = False

    def reach(self, name: str) -> None:
        for frame in self.active:
            frame[1].add(name)

    def recording(self, name: str, function: Callable) -> Callable:
        code = function.__code__
        if code.co_flags & 0x0C:  # *args or **kwargs: no stub's call to match; what reaches it is told
            return watched(function, lambda: self.reach(name))
        names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]

        def recorded(*args: object, **kwargs: object) -> object:
            self.reach(name)
            key = self.key(name, function, names[:code.co_argcount], names[code.co_argcount:], args, kwargs)
            dice = self.dice_left(function, names[:code.co_argcount], code.co_posonlyargcount, len(args), kwargs)
            if key is None or dice is None:
                return function(*args, **kwargs)
            tests = self.test_dice(names[:code.co_argcount], args, kwargs)
            args = tuple(self.guarded(a) for a in args)  # a die of chance passed that rolls makes the call chance
            kwargs = {k: self.guarded(v) for k, v in kwargs.items()}
            reached: set = set()
            frame, out = [True, reached], sys.stdout
            self.active.append(frame)
            sys.stdout = CappedText()
            try:
                value = function(*args, **kwargs, **dice)
            finally:
                printed, sys.stdout = sys.stdout.text(), out
                self.active.pop()
                if printed:
                    out.write(printed)
                    self.taint()
            answer = plain(value)
            if frame[0] and not printed and answer is not NotImplemented and len(self.answers) < _MOST_ANSWERS:
                rolled = [[k, j, plain(now)] for k, die, was in tests
                          for j, now in enumerate(contents(die)) if now is not was[j]]
                if all(r[2] is not NotImplemented for r in rolled):
                    self.answers[key] = [answer, sorted(reached), rolled] if rolled else [answer, sorted(reached)]
            return value

        recorded.__name__ = recorded.__qualname__ = name
        return recorded

    def key(self, name: str, function: Callable, positional: tuple, keywords: tuple, args: tuple,
            kwargs: dict) -> str | None:
        """The key a stub's call of NAME with these arguments has (see Link.call), or None when no
        stub's call could be answered by this one (a function passed, a name no parameter has)."""
        if len(args) > len(positional) or any(k not in positional[len(args):] + keywords for k in kwargs):
            return None
        defaults = function.__defaults__ or ()
        kwdefaults = function.__kwdefaults__ or {}
        given: list = []
        for k, n in enumerate(positional):
            if k < len(args) or n in kwargs:
                given.append(self.keyed(args[k] if k < len(args) else kwargs[n]))
            elif k >= len(positional) - len(defaults):
                given.append(self.default_of(defaults[k - len(positional) + len(defaults)]))
            else:
                return None
        kw = {n: self.keyed(kwargs[n]) if n in kwargs else self.default_of(kwdefaults.get(n, NotImplemented))
              for n in keywords}
        if any(v is NotImplemented for v in [*given, *kw.values()]):
            return None
        return call_key(name, given, kw)

    def dice_left(self, function: Callable, positional: tuple, posonly: int, given: int, kwargs: dict) -> dict | None:
        """{name: the default, watched} for each parameter left to a default that is a function (a
        die: a call that rolls it is chance, never kept); None where one cannot be passed by name."""
        defaults = dict(zip(positional[::-1], (function.__defaults__ or ())[::-1]))
        defaults.update(function.__kwdefaults__ or {})
        order = {n: k for k, n in enumerate(positional)}
        left = {n: watched(v, self.taint) for n, v in defaults.items()
                if callable(v) and n not in kwargs and order.get(n, given) >= given}
        return None if any(order.get(n, posonly) < posonly for n in left) else left

    def test_dice(self, positional: tuple, args: tuple, kwargs: dict) -> list:
        """[(position, die, its state)] of each test die of the kit's files passed (see closed), by
        its parameter's position: where a stub's call finds it (stubs pass every argument by position)."""
        given = [*enumerate(args), *((positional.index(n), v) for n, v in kwargs.items() if n in positional)]
        return [(k, v, contents(v)) for k, v in given if self.die(v) is not None and closed(v)]

    def die(self, value: object) -> tuple[str, str] | None:
        """Where VALUE's code is in the kit's support files, when it is a die a link sends by value."""
        if type(value) is not types.FunctionType or value.__defaults__ or value.__kwdefaults__:
            return None
        return self.support.get(value.__code__)

    def keyed(self, value: object) -> object:
        """VALUE as a stub's call packs it, for a key (see Link.keyed): plain data, or a die's state."""
        where = self.die(value)
        if where is None:
            return plain(value)
        state = state_of(value)  # (a test die's: what it rolls next; a die of chance's: none)
        return NotImplemented if state is None else {"fn": ["die", *where, state]}

    def guarded(self, value: object) -> object:
        """VALUE, or a die of chance (one that reads the random module) watched: a call that rolls it is never kept."""
        chance = self.die(value) is not None and not closed(value)
        return watched(value, self.taint) if chance else value  # type: ignore[arg-type]

    def default_of(self, value: object) -> object:
        """How a stub passes a parameter left to this default: its plain value, or the kit's marker."""
        if value is NotImplemented:
            return NotImplemented
        packed = plain(value)
        return packed if packed is not NotImplemented else {"fn": ["default", 0]}
