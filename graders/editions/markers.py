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

from graders.core import messages
from graders.core.errors import MarkerError
from graders.editions.edition import problem_label

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


TRAILING_COMMENT = re.compile(r"\s+#[^'\"]*$")  # "return 6  # Remove this line": a notebook's cell drops it


def block_digests(source: str) -> dict[str, str]:
    """``{problem's label: digest}`` of what SOURCE holds between each problem's markers, or from the
    BEGIN line to the end of its function (blank lines,
    comments and indentation left out, a problem's blocks taken together), for telling a student's
    work from the skeleton's stubs. Lenient: markers that do not pair up are passed over, never raised."""
    import hashlib

    bodies: dict[str, list[str]] = {}
    label: str | None = None
    indent = 0
    for line in source.split("\n"):
        begin, end = BEGIN.match(line), END.match(line)
        code = line.strip() and not line.strip().startswith("#")
        if code and len(line) - len(line.lstrip()) < indent:  # the block's function ended (no END line
            label = None  # in a notebook's cell, which ends at the function's last statement)
        if begin:
            label, indent = problem_label(begin["n"]), len(begin["indent"])
            bodies.setdefault(label, []).append("")
        elif end:
            label = None
        elif label is not None and code:
            bodies[label][-1] += TRAILING_COMMENT.sub("", line.strip()) + "\n"
    return {k: hashlib.sha256("\x00".join(v).encode("utf-8")).hexdigest()[:16] for k, v in bodies.items()}


def untouched_problems(source: str, stubs: dict[str, str]) -> list[str]:
    """The problems of STUBS (labels and the skeleton's digests) whose blocks SOURCE still holds as
    the skeleton gave them."""
    found = block_digests(source)
    return [label for label, digest in stubs.items() if found.get(label) == digest]
