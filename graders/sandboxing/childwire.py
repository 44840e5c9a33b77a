"""The child's wire: its capped stdout, the frames it sends and reads, and values as tagged plain data.

Contract: part of the child (see :mod:`graders.sandboxing.child`, which loads it in the runner before any
student code); the standard library only. Values are described from objects whose type is *exactly*
``int``, ``float``, ``bool``, ``str``, ``NoneType``, ``tuple`` or ``list``; anything else is described, never
trusted, and the parent compares everything.
"""

from __future__ import annotations

import io
import json
import os
import types

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
