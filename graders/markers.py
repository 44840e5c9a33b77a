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

from graders import messages
from graders.edition import problem_label
from graders.errors import MarkerError

BEGIN = re.compile(r"^(?P<indent>\s*)# BEGIN PROBLEM (?P<n>\d+[a-z]?)\s*$")
END = re.compile(r"^(?P<indent>\s*)# END PROBLEM (?P<n>\d+[a-z]?)\s*$")
STUB = re.compile(r"^(?P<indent>\s*)# STUB: ?(?P<code>.*)$")
YOUR_CODE = '"*** YOUR CODE HERE ***"'


def problems_marked(source: str) -> list[str]:
    """The labels of the problems SOURCE marks ("01", "05a"), in order."""
    return sorted({problem_label(m["n"]) for m in map(BEGIN.match, source.split("\n")) if m},
                  key=lambda label: (int(label.rstrip("abcdefghijklmnopqrstuvwxyz")), label))


def strip_solutions(source: str, keep: Collection[int | str] = ()) -> str:
    """SOURCE with every marked block not in KEEP (problems' labels or numbers) replaced by its stub."""
    kept = {problem_label(k) for k in keep}
    out: list[str] = []
    open_block: tuple[str, str, int, str] | None = None  # (problem's label, indent, line, as marked)
    body: list[str] = []
    for lineno, line in enumerate(source.split("\n"), start=1):
        begin, end = BEGIN.match(line), END.match(line)
        if begin:
            if open_block:
                raise MarkerError(messages.marker_nested(lineno, begin["n"], open_block[3]))
            open_block, body = (problem_label(begin["n"]), begin["indent"], lineno, begin["n"]), []
            out.append(line)
        elif end:
            if not open_block or problem_label(end["n"]) != open_block[0]:
                raise MarkerError(messages.marker_unmatched_end(lineno, end["n"]))
            number, indent, _, _ = open_block
            if number in kept:
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
        raise MarkerError(messages.marker_unclosed(open_block[2], open_block[3]))
    return "\n".join(out)
