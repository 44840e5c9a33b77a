"""The link between a child and the kit's own child: stubs of the kit's functions, handles, plain values.

Contract: part of the child (see :mod:`graders.sandboxing.child`); the standard library and the child's
wire only. A value crosses as plain data of exact types and a function as a handle its owner keeps;
whatever the other end sends can only lose points, never award them.
"""

from __future__ import annotations

import builtins
import hashlib
import os
import re
import sys
import types
from collections.abc import Callable

from graders.sandboxing.childwire import _MAX_INT_DIGITS, _MAX_TEXT, _dumps, _loads, receive, send, type_name

# -- the kit's functions, served by another process ----------------------------------------------

# A child may hold stubs of functions the kit serves (another problem's function in a hidden case,
# a function a syntax error removed): each stub calls __hogkit_call__, which sends the call to the
# parent; the parent hands it to the kit's own child (started with "serve": the reference, never in
# this process) and relays every frame between the two until the call is answered. Both ends run the
# same Link. A value crosses as plain data of exact types; a function crosses as a handle its owner
# keeps, and calling the handle on the other side sends a call back: arguments in, a plain value out.
_MAX_PASSED = 4000  # of items in all of one value passed
_MOST_LINKED = 64  # functions of the kit's support files (dice) sent by value in one case
_BUILTIN_NAMES = frozenset(vars(builtins))
_ERRORS = {k: v for k, v in vars(builtins).items() if type(v) is type and issubclass(v, BaseException)}


WORDS: dict = {}  # what the link says when it refuses a call ({kind: text}), from the child's settings


def said(kind: str, *values: object) -> str:
    """The text of refusal KIND (see graders.core.messages.link_refusal), VALUES filled in."""
    text = WORDS.get(kind, kind)
    return text.format(*values) if type(text) is str else kind


class KitDefault:
    """What a stub passes where the student's module lacks a default's name: the kit uses its own."""

    def __repr__(self) -> str:
        return "<the kit's default>"


KIT_DEFAULT = KitDefault()
_DEFAULT_KEY = {"fn": ["default", 0]}  # how a call's key holds KIT_DEFAULT
_DEFAULT_TEXT = '{"fn":["default",0]}'  # ... as call_key writes it


class Link:
    """One end of the calls between a child and the kit's own child. NAMED() gives this end's
    functions the other end may call by name ({name: function}, read when asked); THEIRS holds this
    end's stand-ins for the other end's named functions. Handles live for one case (:meth:`reset`)."""

    def __init__(self, fds: object, named: Callable[[], dict], theirs: dict,
                 output: Callable[[], str] | None = None, parent_fd: int | None = None,
                 support: dict | None = None) -> None:
        ends = fds if isinstance(fds, list) and len(fds) == 2 and all(type(fd) is int for fd in fds) else [-1, -1]
        self.in_fd: int = ends[0]
        self.out_fd: int = ends[1]
        self.named, self.theirs, self.output, self.parent_fd = named, theirs, output, parent_fd
        self.support = support or {}  # {code: (module, qualified name)}: see support_codes
        self.code_of = {where: code for code, where in self.support.items()}
        self.opened = False
        # The kit's answers worked out beforehand that the parent sent for this child's cases, kept
        # from case to case (each a pure call's, by its key, and by its fast key where it has one).
        self.told: dict = {}
        self.told_fast: dict = {}
        self.reset()

    def reset(self) -> None:
        self.handles: list = []  # this end's functions the other end holds, by number
        self.proxies: dict = {}  # number -> this end's stand-in for the other end's function
        self.raised: list = []  # exceptions this end raised while answering, by number
        self.fresh = True  # no call made in this case yet
        self.answers: dict = {}  # this case's calls of plain values that the other end said are pure
        self.fast: dict = {}  # the same answers, by a key of the call's own values (see fast_key)
        self.crossed = False  # whether a function crossed in the value packed last
        self.calls = 0  # calls this end made
        self.linked: list = []  # [(what this end's code holds, its closure)] of the dice sent by value
        self.seen: dict = {}  # {k: the objects linked[k]'s cells held when last sent or received}
        self.rolled = False  # whether a die this end received by value was called

    def call(self, target: dict, args: tuple, kwargs: dict) -> object:
        """Call the other end's function TARGET ({"name": N} or {"id": K}) and wait for its answer,
        answering its own calls back meanwhile. A student's child asks the parent for the kit's child
        at its first call, and starts the kit's module afresh at the first call of each case."""
        if self.in_fd < 0:
            raise RuntimeError(said("absent"))
        whole = whole_number_key(target, args, kwargs) if self.parent_fd is not None else None
        if whole is not None:  # (most calls of a hidden case: its key written as call_key would, at once)
            answer = self.answers.get(whole, _UNKNOWN)
            answer = self.told.get(whole, _UNKNOWN) if answer is _UNKNOWN else answer
            if answer is not _UNKNOWN and not (type(answer) is dict and "rolled" in answer):
                return self.unpack(answer, 0)
        fast = self.fast_key(target, args, kwargs) if self.parent_fd is not None else None
        if fast is not None and (fast in self.fast or fast in self.told_fast):
            return self.unpack(self.fast[fast] if fast in self.fast else self.told_fast[fast], 0)
        key = self.key_of(target, args, kwargs) if self.parent_fd is not None else None
        if key is not None and (key in self.answers or key in self.told):  # told beforehand, or answered earlier
            answer = self.answers[key] if key in self.answers else self.told[key]
            if type(answer) is dict and "rolled" in answer:  # (a call that rolled a test die it was given)
                return self.rolled_as_told(args, answer)
            if fast is not None:
                self.fast[fast] = answer
            return self.unpack(answer, 0)
        frame, kept = self.framed(target, args, kwargs)
        key = key if kept else None
        if self.parent_fd is not None:
            if not self.opened:
                send(self.parent_fd, {"op": "kit"})
                self.opened = True
            if self.fresh:
                send(self.out_fd, {"op": "case"})
                self.fresh = False
        self.send(frame)
        return self.awaited(key, fast)

    def key_of(self, target: dict, args: tuple, kwargs: dict) -> str | None:
        """The key of a call of the other end's function TARGET by name, as answers are kept (see
        call_key and Recorder.key): arguments as plain data, a die of the kit's files as its state;
        None for a call that passes anything else (a function of its own: never kept)."""
        name = target.get("name")
        if type(name) is not str:
            return None
        given = [self.keyed(a) for a in args]
        kw = {str(k): self.keyed(v) for k, v in kwargs.items()}
        if any(v is NotImplemented for v in [*given, *kw.values()]):
            return None
        return call_key(name, given, kw)

    def keyed(self, value: object) -> object:
        if value is KIT_DEFAULT:
            return _DEFAULT_KEY
        packed = plain(value)
        if packed is not NotImplemented:
            return packed
        if type(value) is not types.FunctionType or value.__defaults__ or value.__kwdefaults__:
            return NotImplemented
        where = self.support.get(value.__code__)
        state = state_of(value) if where is not None else None
        return NotImplemented if where is None or state is None else {"fn": ["die", *where, state]}

    def rolled_as_told(self, args: tuple, answer: dict) -> object:
        """ANSWER's value, once each test die of ARGS it names ([position, cell, value]) is set where
        the kit's functions left it when the kit worked the answer out (see Recorder.recording)."""
        for told in answer["rolled"] if type(answer["rolled"]) is list else ():
            k, j, value = told if type(told) is list and len(told) == 3 else (-1, -1, None)
            die = args[k] if type(k) is int and 0 <= k < len(args) else None
            closure = getattr(die, "__closure__", None) or ()
            if type(j) is not int or not 0 <= j < len(closure):
                raise ValueError(said("unreadable"))
            closure[j].cell_contents = self.unpack(value, 1)
        return self.unpack(answer.get("value"), 0)

    def framed(self, target: dict, args: tuple, kwargs: dict) -> tuple[dict, bool]:
        """The frame of a call of TARGET, and whether its answer may be kept (under key_of's key)."""
        counter = [0]
        self.crossed, self.calls = False, self.calls + 1
        linked = len(self.linked)
        try:
            packed_args = [self.pack(a, counter) for a in args]
            packed_kw = {str(k): self.pack(v, counter) for k, v in kwargs.items()}
        except BaseException:
            self.unlink_from(linked)  # never sent: the other end must not count them
            raise
        frame = {"op": "call", "to": target, "args": packed_args, "kw": packed_kw}
        # Only a student's child keeps answers, and only the kit's (its own functions may keep state).
        return frame, not self.crossed and self.parent_fd is not None and "name" in target

    def awaited(self, key: str | None, fast: tuple | None) -> object:
        """The answer to the call just sent, the other end's calls back answered meanwhile."""
        while True:
            message = receive(self.in_fd)
            if message is None:
                os._exit(0)  # the parent has gone: nothing is left to answer to
            self.synced(message)
            if type(message.get("output")) is str and message["output"]:
                sys.stdout.write(message["output"])
            op = message.get("op")
            if op == "return":
                if key is not None and message.get("pure") is True and len(self.answers) < 100000:
                    self.answers[key] = message.get("value")
                    if fast is not None:
                        self.fast[fast] = message.get("value")
                return self.unpack(message.get("value"), 0)
            if op == "raise":
                raise self.exception(message)
            if op == "call":
                self.answer(message)

    def prepare(self, answers: dict) -> None:
        """Take ANSWERS ({call key: packed value}) for this case and the next, those of calls of
        plain numbers and text by their fast key too (see fast_key), so that such a call never
        packs its arguments."""
        self.told.update(answers)
        for key, value in answers.items():
            name, bracket, rest = key.partition("[")
            if not bracket or not rest.endswith("]") or "{" in rest.replace(_DEFAULT_TEXT, ""):
                continue  # (keywords, or a die: no fast key)
            if _WHOLE_NUMBERS.fullmatch(rest):
                continue  # (found by whole_number_key, never by a fast key)
            try:
                args = _loads("[" + rest)  # (fails where keywords follow: no fast key for those)
            except ValueError:
                continue
            if type(args) is list and all(type(a) in (int, float, str, bool) or a is None or a == _DEFAULT_KEY
                                          for a in args):
                self.told_fast[(name, *[(type(a), a) if a != _DEFAULT_KEY else (KitDefault, KIT_DEFAULT)
                                        for a in args])] = value

    def fast_key(self, target: dict, args: tuple, kwargs: dict) -> tuple | None:
        """A call's key by its own values, cheaper than packing them (a hidden case may make tens of
        thousands of calls): where every argument is a number, text, None, a default left to the
        kit, or a die whose closure holds only whole numbers and tuples of them. Types are part of
        it (True is not 1). None for any other call."""
        name = target.get("name")
        if type(name) is not str or kwargs:
            return None
        key: list = [name]
        for a in args:
            t = type(a)
            if t is int or t is str or t is float or t is bool or a is None or a is KIT_DEFAULT:
                key.append((t, a))
            elif t is types.FunctionType and a.__code__ in self.support and not a.__defaults__ and not closed(a):
                contents = []
                for cell in a.__closure__ or ():
                    v = cell.cell_contents
                    if not (type(v) is int or (type(v) is tuple and all(type(x) is int for x in v))):
                        return None
                    contents.append(v)
                key.append((a.__code__, tuple(contents)))
            else:
                return None
        return tuple(key)

    def answer(self, message: dict) -> None:
        """Run the call MESSAGE asks of this end, and send back its value or what it raised."""
        linked = len(self.linked)
        try:
            self.synced(message)
            function = self.target(message.get("to"))
            raw_args, raw_kw = message.get("args"), message.get("kw")
            args = [self.unpack(a, 0) for a in (raw_args if type(raw_args) is list else [])]
            kw = {k: self.unpack(v, 0) for k, v in (raw_kw if type(raw_kw) is dict else {}).items() if type(k) is str}
            used: list = []
            args, kw = with_defaults(function, args, kw, lambda: used.append(1))
            calls, self.rolled = self.calls, False
            value = function(*args, **kw)
            self.crossed = False
            linked = len(self.linked)
            reply = {"op": "return", "value": self.pack(value, [0])}
            # plain in, plain out, nothing called back, no die called (one left to a default, or sent)
            reply["pure"] = not self.crossed and self.calls == calls and not used and not self.rolled
        except BaseException as exc:  # SystemExit included: it goes back to the caller
            self.unlink_from(linked)  # (what a failed pack counted was never sent)
            reply = {"op": "raise", **self.described(exc)}
        self.send(reply)

    def send(self, frame: dict) -> None:
        if self.output is not None:
            frame["output"] = self.output()
            if frame["output"]:
                frame["pure"] = False  # a call that printed prints again when it is made again
        if self.linked:  # what changed in the dice sent by value (they roll on either side)
            frame["cells"] = self.changed_cells()
        send(self.out_fd, frame)

    def changed_cells(self) -> list:
        """[[k, j, value]] for each cell j of die k that holds another object than when last sent or
        received (a die's outcomes go once; where it stands, each time it moves)."""
        changes = []
        for k, (_, inner) in enumerate(self.linked):
            seen, now = self.seen.get(k, []), contents(inner)
            for j, value in enumerate(now):
                if j >= len(seen) or value is not seen[j]:
                    packed = plain(value)
                    if packed is not NotImplemented:
                        changes.append([k, j, packed])
            self.seen[k] = now
        return changes

    def synced(self, message: dict) -> None:
        """The dice sent by value set as the other end says they are now (see :meth:`send`)."""
        changes = message.get("cells")
        for change in changes if type(changes) is list else ():
            if type(change) is not list or len(change) != 3 or type(change[0]) is not int or type(change[1]) is not int:
                continue
            k, j, value = change
            inner = self.linked[k][1] if 0 <= k < len(self.linked) else None
            if inner is not None and 0 <= j < len(inner.__closure__ or ()):
                inner.__closure__[j].cell_contents = self.unpack(value, 1)
                self.seen[k] = contents(inner)

    def unlink_from(self, count: int) -> None:
        del self.linked[count:]
        for k in [k for k in self.seen if k >= count]:
            del self.seen[k]

    def target(self, to: object) -> Callable:
        if type(to) is dict and type(to.get("name")) is str:
            named = self.named()
            if to["name"] in named:
                return named[to["name"]]
            raise NameError(f"name {to['name']!r} is not defined")
        if type(to) is dict and type(to.get("id")) is int and 0 <= to["id"] < len(self.handles):
            return self.handles[to["id"]]
        raise TypeError(said("no_function"))

    def described(self, exc: BaseException) -> dict:
        try:
            token = exc.__dict__.get("_hogkit_yours")
        except BaseException:
            token = None
        if type(token) is int:  # the other end's own exception, passing back through this end
            return {"yours": token, "type": "", "message": ""}
        self.raised.append(exc)
        kind = type_name(exc)
        try:
            text = str(exc)[:2000]
        except BaseException:
            text = ""
        return {"token": len(self.raised) - 1, "type": kind, "message": text if type(text) is str else ""}

    def exception(self, message: dict) -> BaseException:
        """What the other end raised, raised here: this end's own exception when it comes back,
        else one of Python's own exceptions of that name (any other: an Exception)."""
        yours = message.get("yours")
        if type(yours) is int and 0 <= yours < len(self.raised):
            return self.raised[yours]
        name = message.get("type")
        kind = _ERRORS.get(name, Exception) if type(name) is str else Exception
        text = message.get("message") if type(message.get("message")) is str else ""
        try:
            exc = kind(text)
        except BaseException:
            exc = Exception(text)
        if type(message.get("token")) is int:
            exc._hogkit_yours = message["token"]  # type: ignore[attr-defined]
        return exc

    def pack(self, value: object, counter: list) -> object:
        """VALUE as plain data for the other end: an int, float, bool, str or None as itself (JSON
        keeps them apart), a tuple or list tagged, a function as a handle; anything else is refused."""
        counter[0] += 1
        t = type(value)
        if t is int:
            if counter[0] > _MAX_PASSED or abs(value).bit_length() > _MAX_INT_DIGITS * 3:  # type: ignore[arg-type]
                raise ValueError(said("too_large"))
            return value
        if t is bool or t is float or value is None:
            return value
        if t is str:
            if len(value) > _MAX_TEXT:  # type: ignore[arg-type]
                raise ValueError(said("too_large"))
            return value
        if counter[0] > _MAX_PASSED:
            raise ValueError(said("too_large"))
        if t is tuple or t is list:
            return {"tuple" if t is tuple else "list": [self.pack(v, counter) for v in value]}  # type: ignore[attr-defined]
        return {"fn": self.function_handle(value)}

    def function_handle(self, value: object) -> list:
        """[whose, name or number] for a function crossing the link (yours or mine, as the sender says)."""
        if value is KIT_DEFAULT:  # a marker, not a function: a call passing it may still be kept
            return ["default", 0]
        crossed, self.crossed = self.crossed, True
        for name, function in self.theirs.items():
            if function is value:
                return ["yours", name]
        for name, function in self.named().items():
            if function is value:
                return ["mine", name]
        for number, proxy in self.proxies.items():
            if proxy is value:
                return ["yours", number]
        if not callable(value):
            raise TypeError(said("not_plain", type_name(value)))
        by_value = self.by_value(value)
        if by_value is not None:  # (a call that rolls it is never kept: the kit's child says it is not pure)
            self.crossed = crossed
            return by_value
        die = self.die(value)  # a die of chance: called back, but a call that never rolls it may be kept
        if die is not None:
            self.crossed = crossed
        for number, function in enumerate(self.handles):
            if function is value:
                return ["mine", number, *(die or ())]
        self.handles.append(value)
        return ["mine", len(self.handles) - 1, *(die or ())]

    def die(self, value: object) -> list | None:
        """[module, name, cells] for a die the kit's support files make (a closure of plain values,
        no defaults), else None."""
        if type(value) is not types.FunctionType:
            return None
        where = self.support.get(value.__code__)
        cells = cells_of(value)
        if where is None or cells is None or value.__defaults__ or value.__kwdefaults__:
            return None
        return [*where, cells]

    def by_value(self, value: object) -> list | None:
        """["support", K, module, name, cells] for a die the kit's support files make whose rolls
        depend on its closure alone (a test die: its code reads no global but Python's builtins;
        a fair die reads the random module, whose state is the case's), sent as its state, so that
        the other end rolls a copy of it instead of calling back at every roll; K numbers it in
        this case on both ends. None for any other function."""
        for k, (outer, inner) in enumerate(self.linked):
            if value is outer or value is inner:  # (its state goes with every frame: see changed_cells)
                return ["support", k, *self.linked_where[k], None]
        die = self.die(value) if len(self.linked) < _MOST_LINKED else None
        if die is None or not closed(value):
            return None
        self.linked.append((value, value))
        self.seen[len(self.linked) - 1] = contents(value)
        return ["support", len(self.linked) - 1, *die]

    @property
    def linked_where(self) -> list:
        return [self.support.get(inner.__code__, ("", "")) if inner is not None else ("", "")
                for _, inner in self.linked]

    def rebuilt(self, handle: list) -> object:
        """This end's copy of the die HANDLE describes (see :meth:`by_value`), its state set."""
        k, module, name, cells = handle[1:]
        if type(k) is int and 0 <= k < len(self.linked):
            outer, inner = self.linked[k]
            if inner is None:
                raise ValueError(said("unreadable"))
            return outer
        if k != len(self.linked):
            raise ValueError(said("unreadable"))
        self.linked.append((None, None))  # (counted as the other end counted it, whatever follows)
        code = self.code_of.get((module, name))
        if code is None or type(cells) is not list or len(cells) != len(code.co_freevars):
            raise ValueError(said("unreadable"))
        values = [self.unpack(c, 1) for c in cells]
        try:
            space = HOMES[module]["globals"] if module in HOMES else vars(sys.modules[module])
            inner = types.FunctionType(code, space, code.co_name, None, tuple(types.CellType(v) for v in values))
        except (TypeError, KeyError):
            raise ValueError(said("unreadable")) from None

        def die(*args: object, **kwargs: object) -> object:
            self.rolled = True
            return inner(*args, **kwargs)

        die.__name__ = die.__qualname__ = code.co_name
        self.linked[k] = (die, inner)
        self.seen[k] = contents(inner)
        return die

    def unpack(self, data: object, depth: int) -> object:
        t = type(data)
        if t is int or t is float or t is str or t is bool or data is None:
            return data
        if not isinstance(data, dict) or t is not dict or len(data) != 1 or depth > 20:
            raise ValueError(said("unreadable"))
        items = data.get("tuple", data.get("list"))
        if type(items) is list:
            unpacked = [self.unpack(item, depth + 1) for item in items]
            return tuple(unpacked) if "tuple" in data else unpacked
        handle = data.get("fn")
        if type(handle) is list and len(handle) == 5 and handle[0] == "support":
            return self.rebuilt(handle)
        if type(handle) is list and len(handle) == 5 and handle[0] == "mine":  # a die of chance, called back
            handle = handle[:2]
        if type(handle) is not list or len(handle) != 2:
            raise ValueError(said("unreadable"))
        return self.function_of(handle[0], handle[1])

    def function_of(self, whose: object, key: object) -> object:
        if whose == "default":
            return KIT_DEFAULT
        if whose == "yours" and type(key) is str and key in self.named():
            return self.named()[key]
        if whose == "yours" and type(key) is int and 0 <= key < len(self.handles):
            return self.handles[key]
        if whose == "mine" and type(key) is str and key in self.theirs:
            return self.theirs[key]
        if whose == "mine" and type(key) is int and key >= 0:
            if key not in self.proxies:
                self.proxies[key] = stand_in(self, {"id": key}, "function")
            return self.proxies[key]
        raise ValueError(said("unreadable"))


def cells_of(function: object) -> list | None:
    """The values FUNCTION's closure holds, as plain data (see :func:`plain`); None when one is not plain."""
    try:
        values = [plain(cell.cell_contents) for cell in function.__closure__ or ()]  # type: ignore[attr-defined]
    except (ValueError, AttributeError):  # an empty cell
        return None
    return None if any(v is NotImplemented for v in values) else values


_DIGESTS: dict = {}  # {id(a long tuple): (it, its digest)}: a test die's outcomes, digested once
_LONG = 16  # items of a tuple in a die's closure from which a key holds its digest instead


def state_of(function: object) -> list | None:
    """FUNCTION's closure as a call's key holds it (see call_key): plain values, a tuple of more
    than _LONG items by its digest (a seeded game's 512 rolls), worked out once per tuple. None
    when a value is not plain."""
    found: list = []
    for value in contents(function):
        memo = _DIGESTS.get(id(value)) if type(value) is tuple and len(value) > _LONG else None
        if memo is not None and memo[0] is value:
            found.append(memo[1])
            continue
        packed = plain(value)
        if packed is NotImplemented:
            return None
        if type(value) is tuple and len(value) > _LONG:
            digest = {"digest": hashlib.sha256(_dumps(packed).encode("utf-8", "surrogatepass")).hexdigest()[:32]}
            if len(_DIGESTS) < 4096:
                _DIGESTS[id(value)] = (value, digest)
            packed = digest
        found.append(packed)
    return found


def closed(function: object) -> bool:
    """Whether FUNCTION's code reads no global but Python's builtins (what it returns then depends
    on its arguments and closure alone)."""
    if type(function) is not types.FunctionType:
        return False
    names, space = function.__code__.co_names, function.__globals__
    return all(name in _BUILTIN_NAMES and name not in space for name in names)


def contents(function: object) -> list:
    """The objects FUNCTION's closure cells hold (None for an empty one, or where it has none)."""
    found = []
    for cell in getattr(function, "__closure__", None) or ():
        try:
            found.append(cell.cell_contents)
        except ValueError:
            found.append(None)
    return found


# {module: {"__code__": its code, "globals": its globals}} for the kit's code that is no module of
# sys.modules (the probes): a die a probe made crosses by value like one of dice.py.
HOMES: dict = {}


def support_codes(sources: dict) -> dict:
    """{code: (module, qualified name)} of every function that SOURCES ({module: text}, the kit's
    support files) and the probes define, nested ones included: what a die is made of. A function
    whose code equals one of these, with plain values in its closure, crosses the link by value."""
    found: dict = {}
    for module, text in sources.items():
        try:
            found.update(codes_within(compile(text, module + ".py", "exec", dont_inherit=True), module))
        except (SyntaxError, ValueError, TypeError):
            continue
    for module, home in HOMES.items():
        found.update(codes_within(home["__code__"], module))
    return found


def codes_within(code: types.CodeType, module: str) -> dict:
    """{code: (MODULE, qualified name)} of every function CODE defines, nested ones included."""
    found: dict = {}
    stack = [code]
    while stack:
        for const in stack.pop().co_consts:
            if isinstance(const, types.CodeType):
                name = getattr(const, "co_qualname", None) or f"{const.co_name}:{const.co_firstlineno}"  # (3.9)
                found[const] = (module, name)
                stack.append(const)
    return found


def stand_in(link: Link, target: dict, name: str) -> Callable:
    """A function that calls TARGET at the other end of LINK (named NAME, as the other end calls it)."""

    def function(*args: object, **kwargs: object) -> object:
        return link.call(target, args, kwargs)

    function.__name__ = function.__qualname__ = name
    function.__code__ = function.__code__.replace(co_name=name)
    return function


def with_defaults(function: Callable, args: list, kw: dict, on_use: Callable[[], object]) -> tuple[list, dict]:
    """ARGS and KW with every KIT_DEFAULT replaced by FUNCTION's own default for that parameter; a
    default that is a function (a die) is passed wrapped, so that calling it calls ON_USE first (a
    call that rolled the kit's dice is not kept: its value is chance)."""
    code, defaults = getattr(function, "__code__", None), getattr(function, "__defaults__", None) or ()
    kwdefaults = getattr(function, "__kwdefaults__", None) or {}
    if code is None:
        return [a for a in args if a is not KIT_DEFAULT], {k: v for k, v in kw.items() if v is not KIT_DEFAULT}
    names = code.co_varnames[:code.co_argcount]
    first_default = len(names) - len(defaults)

    def default(name: str, value: object) -> object:
        return watched(value, on_use) if callable(value) else value

    args = list(args)
    for k, a in enumerate(args):
        if a is KIT_DEFAULT:
            if not first_default <= k < len(names):
                raise TypeError(said("no_default", names[k] if k < len(names) else "?"))
            args[k] = default(names[k], defaults[k - first_default])
    for name, v in list(kw.items()):
        if v is KIT_DEFAULT:
            if name not in kwdefaults:
                raise TypeError(said("no_default", name))
            kw[name] = default(name, kwdefaults[name])
    return args, kw


def watched(function: Callable, on_use: Callable[[], object]) -> Callable:
    """FUNCTION, calling ON_USE first each time it is called."""

    def die(*args: object, **kwargs: object) -> object:
        on_use()
        return function(*args, **kwargs)

    return die


# -- calls as their answers are kept --------------------------------------------------------

_LONGEST_KEY = 200  # of a call's key as it is; a longer one is kept by its digest
_UNKNOWN = object()  # no answer kept for a call
_WHOLE_NUMBERS = re.compile(r"(?:(?:-?[0-9]+|{0})(?:,(?:-?[0-9]+|{0}))*)?\]".format(re.escape(_DEFAULT_TEXT)))
# (the arguments of whole_number_key's keys)
_SMALL = 10 ** 15  # a whole number whose text is the same in every writer of keys


def whole_number_key(target: dict, args: tuple, kwargs: dict) -> str | None:
    """The key call_key gives a call of the other end's function TARGET by name whose arguments are
    all whole numbers of exact type (True is not one) or defaults left to the kit, written without
    packing them; None for any other call."""
    name = target.get("name")
    if type(name) is not str or kwargs:
        return None
    for a in args:
        if a is not KIT_DEFAULT and (type(a) is not int or not -_SMALL < a < _SMALL):
            return None
    key = name + "[" + ",".join([_DEFAULT_TEXT if a is KIT_DEFAULT else str(a) for a in args]) + "]"
    return key if len(key) <= _LONGEST_KEY else None


def call_key(name: str, args: list, kw: dict) -> str:
    """The key of a call of NAME with ARGS and KW packed (see Link.pack), as answers are kept."""
    compact = (",", ":")
    key = name + _dumps(args, separators=compact) + (_dumps(kw, separators=compact, sort_keys=True) if kw else "")
    if len(key) <= _LONGEST_KEY:
        return key
    return name + "[#" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest() + "]"  # (a die's 512 rolls)


def plain(value: object, depth: int = 0) -> object:
    """VALUE as a link packs it when it is plain data (exact types; tuples and lists tagged), else NotImplemented."""
    t = type(value)
    if t is int or t is float or t is bool or t is str or value is None:
        return value
    if (t is tuple or t is list) and depth < 20 and len(value) <= 1000:  # type: ignore[arg-type]
        items = [plain(v, depth + 1) for v in value]  # type: ignore[attr-defined]
        if all(item is not NotImplemented for item in items):
            return {"tuple" if t is tuple else "list": items}
    return NotImplemented
