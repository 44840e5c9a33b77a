"""The child side of the sandbox: runs untrusted submission code and reports plain data.

Contract (a copy of this file, compiled by the parent, is started from the submission's private
folder as ``python3 -I -S -B child.pyc IN_FD OUT_FD``, reads its settings as the first frame on
IN_FD, and imports only the standard library, the least it needs: ``_ast``, not ``ast``):

* It applies the resource limits it is given before it reads a byte of student code.
* It imports the submission one top-level statement at a time, announcing each statement first,
  so that the parent can skip a statement that hangs or ends the process and try again.
* It then answers requests, one case at a time with a reply per ``>>>`` step, over a private
  pipe: length-prefixed JSON frames, never stdin/stdout (stdin is /dev/null, so ``input()``
  fails fast and cannot read our requests by accident).
* Values go back as tagged plain data built only from objects whose type is *exactly* ``int``,
  ``float``, ``bool``, ``str``, ``NoneType``, ``tuple`` or ``list``; anything else is described, never
  trusted. The parent does every comparison. Nothing this process says can award points on its own:
  a forged or missing reply only loses them.
"""

from __future__ import annotations

import _ast
import builtins
import hashlib
import io
import json
import marshal
import os
import sys
import types
from collections.abc import Callable

# True only for the type checker: the child imports no more than it needs (not even typing), and
# ctypes only where it mounts folders.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import ctypes

# Keep our own references before student code can replace the module attributes.
_dumps, _loads = json.dumps, json.loads
_write, _read = os.write, os.read
_MAX_TEXT = 64 * 1024
_MAX_LINES = 2000
_MAX_ITEMS = 2000
_MAX_INT_DIGITS = 4000


class CappedText(io.TextIOBase):
    """A stdout stand-in that keeps at most ``_MAX_TEXT`` characters and ``_MAX_LINES`` lines, and
    remembers that it overflowed. Whole lines that start with ``DEBUG:`` have a budget of their
    own: they never count against the cap and never overflow it (past their own budget they are
    left out, and the output is still whole)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size, self.lines, self.truncated = 0, 0, False
        self.debug_size, self.debug_lines = 0, 0
        # The line being written: "" while its start may still be "DEBUG:", "debug" (its pieces
        # are held until it ends) or "plain" (kept as it comes).
        self.kind, self.held, self.held_size = "", [], 0  # type: str, list[str], int

    def write(self, s: str) -> int:
        if type(s) is not str:
            raise TypeError("write() argument must be str")
        if "\n" not in s:  # most writes: a piece of a line (print writes each argument on its own)
            if self.kind == "plain" and self.lines < _MAX_LINES and len(s) <= _MAX_TEXT - self.size:
                self.parts.append(s)  # what keep() does with a piece of a plain line that fits
                self.size += len(s)
            elif s:
                self.piece(s)
            return len(s)
        start = 0
        while start < len(s):
            end = s.find("\n", start)
            piece = s[start:] if end < 0 else s[start:end + 1]
            start += len(piece)
            self.piece(piece)
            if piece.endswith("\n"):
                self.end_line()
        return len(s)

    def piece(self, piece: str) -> None:
        """Part of the line being written (at most one line end, at its end)."""
        if not self.kind:
            piece = "".join(self.held) + piece
            self.held, self.held_size = [], 0
            if piece.startswith("DEBUG:"):
                self.kind = "debug"
            elif "DEBUG:".startswith(piece) and not piece.endswith("\n"):
                self.held, self.held_size = [piece], len(piece)  # too short to tell yet
                return
            else:
                self.kind = "plain"
        if self.kind == "plain":
            self.keep(piece)
            return
        self.held.append(piece)
        self.held_size += len(piece)
        if self.held_size > _MAX_TEXT:  # no DEBUG line this long is kept whole: as any other line
            self.kind = "plain"
            self.keep("".join(self.held))
            self.held, self.held_size = [], 0

    def end_line(self) -> None:
        """The line being written has ended (or the output has): a DEBUG line is kept within the
        budget of DEBUG lines, and one past it left out; any held start of a line is kept."""
        line = "".join(self.held)
        if self.kind == "debug":
            if self.debug_size + len(line) <= _MAX_TEXT and self.debug_lines < _MAX_LINES:
                self.parts.append(line)
                self.debug_size += len(line)
                self.debug_lines += 1
        elif line:
            self.keep(line)
        self.kind, self.held, self.held_size = "", [], 0

    def keep(self, s: str) -> None:
        room = min(_MAX_TEXT - self.size, len(s))
        if self.lines >= _MAX_LINES:
            room = 0
        elif self.lines + s.count("\n", 0, room) > _MAX_LINES:
            cut = -1
            for _ in range(_MAX_LINES - self.lines):
                cut = s.index("\n", cut + 1)
            room = cut + 1
        if room > 0:
            kept = s[:room]
            self.parts.append(kept)
            self.size += len(kept)
            self.lines += kept.count("\n")
        if len(s) > room:
            self.truncated = True

    def writable(self) -> bool:
        return True

    def text(self) -> str:
        self.end_line()
        return "".join(self.parts)


def send(fd: int, message: dict) -> None:
    data = _dumps(message, allow_nan=True).encode("utf-8", "replace")
    frame = len(data).to_bytes(4, "big") + data
    while frame:
        frame = frame[_write(fd, frame):]


def receive(fd: int) -> dict | None:
    header = _read_exact(fd, 4)
    if header is None:
        return None
    body = _read_exact(fd, int.from_bytes(header, "big"))
    return None if body is None else _loads(body.decode("utf-8"))


def _read_exact(fd: int, n: int) -> bytes | None:
    chunks: list[bytes] = []
    got = 0
    while got < n:
        chunk = _read(fd, n - got)
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def type_name(obj: object) -> str:
    try:
        name = type.__getattribute__(type(obj), "__qualname__")
        return name if type(name) is str else "?"
    except BaseException:
        return "?"


def encode(value: object, depth: int = 0) -> dict:
    """Tagged plain data for VALUE. Exact types only: a subclass of int is an 'object'."""
    t = type(value)  # each test below repeats type(VALUE) so that the type checker narrows VALUE too
    if value is None:
        return {"t": "none"}
    if type(value) is bool:
        return {"t": "bool", "v": value}
    if type(value) is int:
        if abs(value).bit_length() > _MAX_INT_DIGITS * 3:
            return {"t": "object", "type": "int", "note": "big_int"}
        return {"t": "int", "v": value}
    if type(value) is float:
        return {"t": "float", "v": float.__repr__(value)}
    if type(value) is str:
        return {"t": "str", "v": value[:_MAX_TEXT], "cut": len(value) > _MAX_TEXT}
    if type(value) is tuple or type(value) is list:
        if depth > 20:
            return {"t": "object", "type": t.__name__, "note": "deep"}
        items = [encode(v, depth + 1) for v in value[:_MAX_ITEMS]]
        return {"t": t.__name__, "v": items, "cut": len(value) > _MAX_ITEMS}
    if callable(value):
        name = "?"
        if isinstance(value, types.FunctionType):  # exact: the function type has no subclasses
            name = value.__code__.co_name
        return {"t": "function", "name": name}
    return {"t": "object", "type": type_name(value)}


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


# -- answers worked out beforehand -------------------------------------------------------------

# The kit's own child, asked to "record" while it runs a case's steps on the reference, keeps the
# answers of the calls of the recorded functions that a stub's call could be answered by: plain
# values in (as a stub passes them: every positional parameter in order, a function left to its
# default as KIT_DEFAULT), a plain value out, nothing printed and no die rolled, with the problem
# functions each reached. The kit hands a student's child, for that case only, those that reached
# none of the student's own functions (in a student's case the kit calls the student's); the
# child asks its link for any other call.
_MOST_ANSWERS = 100000
_LONGEST_KEY = 200  # of a call's key as it is; a longer one is kept by its digest


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


# Filled in from the probes file when the child starts (see main): one way to describe an error,
# shared with the probes that describe errors themselves (a game's commentary, for one).
describe_error: Callable[[BaseException, str], dict]


def apply_limits(limits: dict) -> None:
    try:
        import resource
    except ImportError:  # not on POSIX: the parent's deadline still applies
        return
    pairs = {
        "cpu_seconds": resource.RLIMIT_CPU,
        "memory_bytes": resource.RLIMIT_AS,
        "file_bytes": resource.RLIMIT_FSIZE,
        "processes": resource.RLIMIT_NPROC,
    }
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for key, which in pairs.items():
        value = limits.get(key)
        if value:
            resource.setrlimit(which, (int(value), int(value)))


PRELOADED = ("random", "functools", "math", "itertools", "operator", "string", "collections", "socket", "ctypes",
             "code", "inspect", "signal")  # (the course's ucb.py imports the last three)


CLONE_NEWNS, MS_REC, MS_PRIVATE, MS_RDONLY, MS_BIND = 0x00020000, 0x4000, 0x40000, 0x1, 0x1000


def hide_folders(folders: list, interpreter: str, staging: str) -> bool:
    """In a mount namespace of this process alone: cover FOLDERS with empty read-only file systems,
    so the code that runs next cannot read them, and show the INTERPRETER's folder to the user this
    child becomes even where a folder above it is closed to others (a Python under /root): that
    folder is covered by an empty one, searchable, holding just the interpreter's folder again
    (brought through STAGING). Needs root (Linux); False when not possible."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(CLONE_NEWNS) != 0:
            return False
        if libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
            return False
        for folder in folders:
            if libc.mount(b"tmpfs", os.fsencode(folder), b"tmpfs", MS_RDONLY, None) != 0:
                return False
        return _reopen(libc, interpreter, staging)
    except (OSError, AttributeError):
        return False


def _reopen(libc: ctypes.CDLL, home: str, staging: str) -> bool:
    closed = [p for p in _ancestors(home) if not os.stat(p).st_mode & 0o001]
    if not closed:
        return True
    top = os.fsencode(closed[-1])  # the closed folder nearest the root: covering it covers the rest
    if libc.mount(os.fsencode(home), os.fsencode(staging), None, MS_BIND | MS_REC, None) != 0:
        return False
    if libc.mount(b"tmpfs", top, b"tmpfs", 0, b"mode=0755") != 0:
        return False
    os.makedirs(home, mode=0o755, exist_ok=True)
    return libc.mount(os.fsencode(staging), os.fsencode(home), None, MS_BIND | MS_REC, None) == 0


def _ancestors(path: str) -> list[str]:
    """The folders above PATH, nearest first, the root left out."""
    found: list[str] = []
    while True:
        parent = os.path.dirname(path)
        if parent == path or parent == "/":
            return found
        found.append(parent)
        path = parent


def drop_privileges(uid: int, gid: int) -> None:
    """Become the user UID (and only the group GID) for good: an identity of this child's own, which
    no other child shares. What the submission's files usually import is loaded first, since the
    interpreter's files may not be readable by that user where namespaces are missing."""
    import importlib

    for name in PRELOADED:
        importlib.import_module(name)
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)


_PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
_CAP_VERSION_3 = 0x20080522
CAPABILITIES = ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")  # as /proc/self/status names them


def drop_capabilities(keep_identity: bool = False) -> None:
    """Give up every capability for good: none can be had again, by this process or any it starts
    (bubblewrap does the same; the fork server's children do it here). With KEEP_IDENTITY, the ones
    that let this process become its own user are kept until it does (see drop_privileges, after
    which the kernel clears them). Nothing here raises: what is left is reported (verify_reach)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        for cap in range(64):
            if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
                break  # past the last capability this kernel knows, or none may be dropped (no CAP_SETPCAP)
        libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
        if keep_identity:
            return
        header = (ctypes.c_uint32 * 2)(_CAP_VERSION_3, 0)
        data = (ctypes.c_uint32 * 6)()
        libc.capset(header, data)
    except (OSError, AttributeError):
        return


def capabilities() -> dict:
    """The capability sets of this process, as /proc/self/status shows them (hex)."""
    found = {}
    try:
        with open("/proc/self/status", "rb") as f:  # (no codec: the user this child became may not reach them)
            for line in f.read().decode("utf-8", "replace").splitlines():
                name, _, value = line.partition(":")
                if name in CAPABILITIES:
                    found[name] = value.strip()
    except OSError:
        pass
    return found


# -- confinement where namespaces are missing, and what the child can actually reach -------------------

# Landlock (linux/landlock.h): the system calls, and the access rights by the ABI that brought them.
_LL_CREATE, _LL_ADD_RULE, _LL_RESTRICT = 444, 445, 446
_LL_FILE = 1 | 2 | 4  # execute, write a file, read a file
_LL_DIR_BITS = (8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096)  # read a folder, remove, make ...
_LL_REFER, _LL_TRUNCATE, _LL_IOCTL = 1 << 13, 1 << 14, 1 << 15
_LL_READ = 1 | 4 | 8  # execute, read a file, read a folder
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2


def confine(spec: dict) -> tuple[list, list]:
    """Apply what SPEC asks for to this process and every process it starts: a seccomp filter (the
    BPF program the parent built, as hex) and Landlock rules (only SPEC's "read" and "write" paths
    reachable, TCP denied where the kernel's ABI allows). Returns (what was applied, what could not
    be, each with why); nothing here raises."""
    applied: list = []
    missing: list = []
    if spec.get("tmp"):
        os.environ["TMPDIR"] = spec["tmp"]
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return applied, [f"no_new_privs: error {ctypes.get_errno()}"]
        if spec.get("landlock"):
            _report(_landlock(libc, spec), "landlock", applied, missing)
        if spec.get("bpf"):
            _report(_seccomp(libc, bytes.fromhex(spec["bpf"])), "seccomp", applied, missing)
    except (OSError, AttributeError, ValueError, LookupError) as exc:
        missing.append(f"confinement: {exc}")
    return applied, missing


def _report(outcome: str, name: str, applied: list, missing: list) -> None:
    if outcome.startswith("!"):
        missing.append(f"{name}: {outcome[1:]}")
    else:
        applied.append(outcome)


def _landlock(libc: ctypes.CDLL, spec: dict) -> str:
    """'landlock ABI N' once restricted; '!why' when the kernel has no Landlock or refused a step.
    Where the first call fails, '!unavailable (error E, seccomp M)': its errno and this process's
    seccomp mode before its own filter (2: a filter it was started under, a container's), which the
    parent words (ENOSYS from a container's seccomp profile is not a kernel without Landlock)."""
    import ctypes

    syscall = libc.syscall
    syscall.restype = ctypes.c_long
    abi = syscall(_LL_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    if abi < 1:
        error = ctypes.get_errno()
        return f"!unavailable (error {error}, seccomp {_seccomp_mode()})"
    every = _LL_FILE | sum(_LL_DIR_BITS) | (_LL_REFER if abi >= 2 else 0) | (_LL_TRUNCATE if abi >= 3 else 0)
    every |= _LL_IOCTL if abi >= 5 else 0
    net = 1 | 2 if abi >= 4 else 0  # bind and connect over TCP: no rule allows any port
    scoped = 1 | 2 if abi >= 6 else 0  # abstract UNIX sockets and signals outside this domain
    attr = (ctypes.c_uint64 * 3)(every, net, scoped)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    fd = syscall(_LL_CREATE, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if fd < 0:
        return f"!the rules were refused (error {ctypes.get_errno()})"
    try:
        for paths, rights in ((spec.get("read", []), _LL_READ), (spec.get("write", []), every)):
            for path in paths:
                _landlock_rule(syscall, fd, path, rights)
        if syscall(_LL_RESTRICT, fd, ctypes.c_uint32(0)) != 0:
            return f"!restricting failed (error {ctypes.get_errno()})"
    finally:
        os.close(fd)
    return f"landlock ABI {abi}" + (" with TCP denied" if net else "")


def _seccomp_mode() -> str:
    """This process's seccomp mode as the kernel states it (0 none, 1 strict, 2 a filter), '?' unknown."""
    try:  # read as bytes: no codec to import (the child may not reach the encodings package here)
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(b"Seccomp:"):
                    mode = line.split(b":", 1)[1].strip()
                    return str(int(mode)) if mode.isdigit() else "?"
    except OSError:
        pass
    return "?"


def _landlock_rule(syscall: object, fd: int, path: str, rights: int) -> None:
    """Allow RIGHTS beneath PATH (a file takes only a file's rights); a path that is gone is skipped."""
    import ctypes

    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

    try:
        target = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(path):
            rights &= _LL_FILE | _LL_TRUNCATE | _LL_IOCTL
        rule = PathBeneath(rights, target)
        syscall(_LL_ADD_RULE, fd, 1, ctypes.byref(rule), ctypes.c_uint32(0))  # type: ignore[operator]
    finally:
        os.close(target)


def _seccomp(libc: ctypes.CDLL, program: bytes) -> str:
    import ctypes

    if len(program) % 8 or not program:
        return "!the filter is not a BPF program"

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    code = ctypes.create_string_buffer(program, len(program))
    fprog = Program(len(program) // 8, ctypes.cast(code, ctypes.c_void_p))
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        return f"!the kernel refused the filter (error {ctypes.get_errno()})"
    return "seccomp"


def verify_reach(spec: dict, applied: list, missing: list, caps: dict) -> dict:
    """What this process can actually do, now that every protection is in place and before any
    student code: which of SPEC's "secrets" it can open, whether it reaches the parent's listener
    on 127.0.0.1 (SPEC's "listener" port), and who it is. Plain data for the parent to judge."""
    readable = []
    for path in spec.get("secrets", []):
        try:
            if os.path.isdir(path):
                if not os.listdir(path):
                    continue  # an empty folder (a folder covered by an empty file system) shows nothing
            else:
                os.close(os.open(path, os.O_RDONLY))
            readable.append(path)
        except OSError:
            continue
    try:
        userns = os.stat("/proc/self/ns/user").st_ino
    except OSError:
        userns = 0
    return {"op": "reach", "readable": readable, "network": _connects(spec.get("listener")), "uid": os.getuid(),
            "gid": os.getgid(), "userns": userns, "applied": applied, "missing": missing, "caps": caps}


def _connects(port: object) -> bool:
    """Whether a TCP connection to 127.0.0.1:PORT opens (PORT None: whether an internet socket can be made)."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            if type(port) is not int:
                return True
            s.settimeout(2.0)
            s.connect(("127.0.0.1", port))
            return True
    except OSError:
        return False


def import_submission(config: dict, out_fd: int, preset: dict) -> tuple[types.ModuleType, list[dict]]:
    """Run the submission's top-level statements one by one into a fresh module (holding PRESET
    first); report problems."""
    path, module_name = config["submission"], config["module"]
    skip = set(config.get("skip", []))
    source = (config.get("serve") or {}).get("source")  # the kit's own child: its module never touches a disk
    if type(source) is not str:
        with open(path, encoding="utf-8", errors="replace") as f:
            source = f.read()
    module = types.ModuleType(module_name)
    module.__file__ = path
    module.__dict__.update(preset)
    sys.modules[module_name] = module
    notes: list[dict] = []
    try:  # (ast.parse, without importing ast)
        tree = compile(source, path, "exec", _ast.PyCF_ONLY_AST, dont_inherit=True)
        statements: list = tree.body  # type: ignore[attr-defined]  # (a Module: typeshed says AST)
    except BaseException as exc:  # the parent parsed it already; say so rather than die unexplained
        return module, [{"line": 0, "error": describe_error(exc, path)}]
    features = 0  # the submission's own `from __future__ import ...`, for the statements after it
    for i, node in enumerate(statements):
        send(out_fd, {"op": "stmt", "i": i, "line": node.lineno})
        if i in skip:
            continue
        try:
            code = compile(_ast.Module(body=[node], type_ignores=[]), path, "exec", features, dont_inherit=True)
            exec(code, module.__dict__)
            features |= future_flags(node)
        except BaseException as exc:  # SystemExit and KeyboardInterrupt included: keep going
            info = describe_error(exc, path)
            notes.append({"line": node.lineno, "error": info})
    return module, notes


def future_flags(node: object) -> int:
    """The compiler flags a ``from __future__ import ...`` statement NODE turns on (0 for any other):
    each statement is compiled on its own, so the file's future imports are carried by hand, and
    never this file's own (``dont_inherit``)."""
    if type(node) is not _ast.ImportFrom or getattr(node, "module", None) != "__future__":
        return 0
    import __future__

    flags = 0
    for alias in getattr(node, "names", []):
        feature = getattr(__future__, alias.name, None)
        flags |= getattr(feature, "compiler_flag", 0)
    return flags


def keeper(names: dict) -> Callable[[], None]:
    """A function that puts NAMES (the probes' module) back as it is now: every name bound to the
    same object, and every function with its own code and defaults, whatever was changed in between."""
    kept = dict(names)
    functions = [(f, f.__code__, f.__defaults__, f.__kwdefaults__) for f in kept.values()
                 if type(f) is types.FunctionType]

    def restore() -> None:
        names.clear()
        names.update(kept)
        for f, code, defaults, kwdefaults in functions:
            f.__code__, f.__defaults__, f.__kwdefaults__ = code, defaults, kwdefaults

    return restore


def main() -> None:
    in_fd, out_fd = int(sys.argv[1]), int(sys.argv[2])
    config = receive(in_fd)
    if config is None:
        return
    with open(config["probes"], "rb") as f:  # compiled by the parent: a .pyc file's header, then the code
        probes_code = marshal.loads(f.read()[16:])
    serve(config, in_fd, out_fd, probes_code)


def pin(cpu: object) -> None:
    """Run on processor CPU alone, where the parent gives one: this child and the kit's child it
    calls share it (see graders.sandboxing.sandbox.pair_cpu)."""
    if type(cpu) is int:
        try:
            os.sched_setaffinity(0, {cpu})
        except (AttributeError, OSError, ValueError):
            pass


def serve(config: dict, in_fd: int, out_fd: int, probes_code: types.CodeType) -> None:
    """Everything after the settings are read, in a process started for this child (:func:`main`)
    or forked for it by the fork server (:mod:`graders.sandboxing.zygote`): limits, probes, identity,
    confinement and its verification, then the submission and its cases."""
    drop_capabilities(keep_identity=bool(config.get("identity")))
    apply_limits(config.get("limits", {}))
    pin(config.get("cpu"))
    # The probes (the kit's own code) load first, while the standard library they import is
    # still readable: the user the child drops to may not be able to read the interpreter's files.
    global describe_error
    spec_globals: dict = {"__name__": "hogkit_probes"}
    exec(probes_code, spec_globals)
    probes = {k: spec_globals[k] for k in spec_globals.get("__all__", [])}
    describe_error = spec_globals["describe_error"]
    spec_globals["DICE"] = tuple(config.get("dice") or spec_globals["DICE"])  # the edition's range of dice
    WORDS.update(config.get("words") or {})
    restore_probes = keeper(spec_globals)
    HOMES[spec_globals["__name__"]] = {"__code__": probes_code, "globals": spec_globals}  # (a seeded game's dice)
    if config.get("serve"):  # the kit's own child: its support files load while the interpreter's files
        load_modules(config["serve"].get("modules") or {})  # are still readable (see drop_privileges)
    hidden = hide_folders(config["hide"], *config["interpreter"]) if config.get("hide") else False
    if config.get("identity"):
        drop_privileges(*config["identity"])
    drop_capabilities()
    caps = capabilities()  # (confinement changes none, and may close /proc)
    os.umask(0o077)  # what it makes is its user's alone (the filter then refuses every change of modes)
    applied, missing = confine(config.get("confine") or {})
    if config.get("verify"):
        send(out_fd, verify_reach(config["verify"], applied, missing, caps))
    os.chdir(config["workdir"])
    sys.path[:0] = [config["workdir"]]
    sys.argv = [config["submission"]]
    sys.dont_write_bytecode = True
    if config.get("serve"):
        undumpable()
        if not config["serve"].get("record"):
            serve_kit(config, in_fd, out_fd, hidden)
            return
    real_stdout = sys.stdout
    kit = config.get("kit") or {}  # the stubs of the kit's functions in this module call through LINK
    module_of: list = []
    link = Link(config.get("link"), lambda: {n: module_of[0].__dict__[n] for n in kit.get("proxied", [])
                                             if module_of and n in module_of[0].__dict__}, {}, None, out_fd,
                support_codes((config.get("serve") or {}).get("modules")  # (the kit's recording child)
                              or support_sources(config["workdir"], kit.get("support") or [])))

    def kit_call(name: str, args: tuple, kwargs: dict) -> object:
        return link.call({"name": name}, args, kwargs)

    capture = CappedText()
    sys.stdout = capture
    module, notes = import_submission(config, out_fd, {"__hogkit_call__": kit_call,
                                                       "__hogkit_default__": KIT_DEFAULT})
    sys.stdout = real_stdout
    module_of.append(module)
    link.theirs.update({n: module.__dict__[n] for n in kit.get("offered", []) if n in module.__dict__})
    send(out_fd, {"op": "ready", "notes": notes, "output": capture.text(), "hidden": hidden})

    serve_cases(config, module, link, probes, restore_probes, (in_fd, out_fd), real_stdout)


def serve_cases(config: dict, module: types.ModuleType, link: Link, probes: dict, restore_probes: Callable,
                fds: tuple[int, int], real_stdout: object) -> None:
    """Run each case the parent asks for, until it says "quit" or goes: the module restored first,
    the link's answers reset (and filled with the case's answers worked out beforehand), its steps
    run one by one, one reply each and then "done" (in the kit's own child when asked, with what
    recording the reference's calls kept)."""
    in_fd, out_fd = fds
    snapshot = dict(module.__dict__)
    path = config["submission"]
    while True:
        request = receive(in_fd)
        if request is None or request.get("op") == "quit":
            return
        # A case runs its steps in a fresh namespace (the module restored) and streams one reply per
        # step, then "done".
        module.__dict__.clear()
        module.__dict__.update(snapshot)
        sys.modules[config["module"]] = module
        restore_probes()  # as they were loaded: what the submission changed in them is undone
        link.reset()
        if type(request.get("answers")) is dict:  # the kit's answers to this case's calls, worked out beforehand
            link.prepare(request["answers"])
        recorder = None
        if config.get("serve") and type(request.get("record")) is list:  # (only ever the kit's own child)
            recorder = Recorder(module.__dict__, request["record"], link.support)
        namespace = {"__name__": "__case__", **probes}
        setup = request.get("setup", "")
        seq = request.get("seq")  # every reply names the request it answers
        for source in request.get("steps", []):
            send(out_fd, {**run_step(source, setup, namespace, path, real_stdout, probes), "seq": seq})
            setup = ""
        send(out_fd, {"op": "done", "seq": seq, **({"answers": recorder.answers} if recorder else {})})


def support_sources(folder: str, names: list) -> dict:
    """{name: text} of the kit's support files NAMES as staged in FOLDER (this child's own)."""
    found = {}
    for name in names:
        try:
            with open(os.path.join(folder, str(name) + ".py"), encoding="utf-8") as f:
                found[str(name)] = f.read()
        except (OSError, ValueError):
            pass
    return found


def load_modules(modules: dict) -> None:
    """Run each of MODULES ({name: source}) as the module of that name: the kit's support files, as
    the kit has them, for the kit's own child (it reads no file of a staging folder)."""
    for name, text in modules.items():
        module = types.ModuleType(name)
        module.__file__ = name + ".py"
        sys.modules[name] = module
        exec(compile(text, name + ".py", "exec", dont_inherit=True), module.__dict__)


def undumpable() -> None:
    """This process's memory unreadable by any other of its user (PR_SET_DUMPABLE 0: no
    /proc/PID/mem, no ptrace): the kit's own child holds the reference."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def serve_kit(config: dict, in_fd: int, out_fd: int, hidden: bool) -> None:
    """The kit's own child: load the module the parent sent (the reference, which never touches a
    disk), untraceable and unreadable by any process of the same user, then answer the calls a
    student's child makes of the functions in "offered". The names in "proxied" (the student's own
    functions) call back into the student's child. A "case" request starts every case afresh."""
    spec = config["serve"]
    outputs = [CappedText()]

    def output() -> str:
        text, outputs[0] = outputs[0].text(), CappedText()
        sys.stdout = outputs[0]
        return text

    sys.stdout = outputs[0]
    module, notes = import_submission(config, out_fd, {})
    offered = {n: module.__dict__[n] for n in spec.get("offered", []) if callable(module.__dict__.get(n))}
    link = Link(config.get("link"), lambda: offered, {}, output, None, support_codes(spec.get("modules") or {}))
    snapshot = dict(module.__dict__)

    def afresh() -> None:
        module.__dict__.clear()
        module.__dict__.update(snapshot)
        link.reset()
        link.theirs = {n: stand_in(link, {"name": n}, n) for n in spec.get("proxied", [])}
        module.__dict__.update(link.theirs)

    afresh()
    send(out_fd, {"op": "ready", "notes": notes, "output": output(), "hidden": hidden})
    while link.in_fd >= 0:  # from now on the parent is only ever told nothing: calls come over the link
        request = receive(link.in_fd)
        if request is None:
            return
        if request.get("op") == "case":
            afresh()
        elif request.get("op") == "call":
            link.answer(request)


_SETUP: dict = {}  # a case's setup (the edition's import line, the same in every case) -> its code


def compiled(source: str, name: str, mode: str) -> types.CodeType | None:
    """SOURCE compiled as NAME in MODE; None for a SyntaxError in "eval" mode, which is not kept as
    an error to raise. Only a setup is kept (it comes back in every case); a step's source never
    is, so nothing of an earlier case is left in this process for the code of a later one to find."""
    if name == "<setup>" and source in _SETUP:
        return _SETUP[source]
    try:
        code: types.CodeType | None = compile(source, name, mode)
    except SyntaxError:
        if mode != "eval":
            raise
        code = None
    if name == "<setup>" and len(_SETUP) < 8:
        _SETUP[source] = code
    return code


def run_step(source: str, setup: str, namespace: dict, path: str, real_stdout: object, probes: dict) -> dict:
    """Run one statement (after SETUP, if any) and describe what it did as plain data. The probes
    are put back after SETUP, so a submission's own function of the same name cannot stand in."""
    capture = CappedText()
    sys.stdout = capture
    reply: dict = {"op": "step", "value": None, "error": None}
    try:
        if setup:
            exec(compiled(setup, "<setup>", "exec"), namespace)  # type: ignore[arg-type]  # (exec mode: a code)
            namespace.update(probes)
        code = compiled(source, "<case>", "eval")
        if code is not None:
            reply["value"] = encode(eval(code, namespace))
        else:
            exec(compiled(source + "\n", "<case>", "exec"), namespace)  # type: ignore[arg-type]
    except BaseException as exc:
        reply["error"] = describe_error(exc, path)
    finally:
        sys.stdout = real_stdout
    reply["output"] = capture.text()
    reply["truncated"] = capture.truncated
    return reply


if __name__ == "__main__":
    main()
