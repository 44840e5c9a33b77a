"""Markers: the one marked source each edition's solution is, and the skeleton made from it.

Contract: in ``solution/<edition>/hog.py`` every piece a student writes sits between
``# BEGIN PROBLEM N`` and ``# END PROBLEM N`` lines (same indentation). The skeleton keeps both
marker lines and replaces what is between them by the block's ``# STUB:`` lines (made into code)
or, when there are none, by ``"*** YOUR CODE HERE ***"``. Markers that do not pair up raise
:class:`MarkerError` naming the line. ``keep`` leaves chosen problems solved, which is how partly
finished demo submissions are made.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from graders.errors import MarkerError

BEGIN = re.compile(r"^(?P<indent>\s*)# BEGIN PROBLEM (?P<n>\d+)\s*$")
END = re.compile(r"^(?P<indent>\s*)# END PROBLEM (?P<n>\d+)\s*$")
STUB = re.compile(r"^(?P<indent>\s*)# STUB: ?(?P<code>.*)$")
YOUR_CODE = '"*** YOUR CODE HERE ***"'


def problems_marked(source: str) -> list[int]:
    return sorted({int(m["n"]) for m in map(BEGIN.match, source.split("\n")) if m})


def strip_solutions(source: str, keep: Collection[int] = ()) -> str:
    """SOURCE with every marked block not in KEEP replaced by its stub."""
    out: list[str] = []
    open_block: tuple[int, str, int] | None = None  # (problem, indent, line)
    body: list[str] = []
    for lineno, line in enumerate(source.split("\n"), start=1):
        begin, end = BEGIN.match(line), END.match(line)
        if begin:
            if open_block:
                raise MarkerError(f"line {lineno}: BEGIN PROBLEM {begin['n']} inside PROBLEM {open_block[0]}")
            open_block, body = (int(begin["n"]), begin["indent"], lineno), []
            out.append(line)
        elif end:
            if not open_block or int(end["n"]) != open_block[0]:
                raise MarkerError(f"line {lineno}: END PROBLEM {end['n']} without a matching BEGIN")
            number, indent, _ = open_block
            if number in keep:
                out.extend(b for b in body if not STUB.match(b))
            else:
                stubs = [m for m in map(STUB.match, body) if m]
                out.extend(m["indent"] + m["code"] for m in stubs)
                if not stubs:
                    out.append(indent + YOUR_CODE)
            out.append(line)
            open_block = None
        elif open_block:
            body.append(line)
        else:
            out.append(line)
    if open_block:
        raise MarkerError(f"line {open_block[2]}: BEGIN PROBLEM {open_block[0]} is never closed")
    return "\n".join(out)
