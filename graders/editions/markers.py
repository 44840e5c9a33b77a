"""Markers: the one marked source each edition's solution is, and the skeleton made from it.

Contract: in ``solution/<edition>/hog.py`` every piece a student writes sits between
``# BEGIN PROBLEM N`` and ``# END PROBLEM N`` lines (same indentation). The skeleton keeps both
marker lines and replaces what is between them by the block's ``# STUB:`` lines (made into code)
or, when there are none, by ``"*** YOUR CODE HERE ***"``. Markers that do not pair up raise
:class:`MarkerError` naming the line. ``keep`` leaves chosen problems solved, which is how partly
finished demo submissions are made. The skeleton's stubs are kept as digests (``skeleton.json``);
:func:`untouched_problems` tells, from them, which problems a file or a notebook's code still holds
as the skeleton gave them: the one test of starter code, for grading on every route and for the
student's ``--zip``. Ships in the student bundle: Python 3.9, standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from graders.core.errors import MarkerError
from graders.editions import messages as editions_messages
from graders.editions.edition import SKELETON_DIGESTS, Edition, problem_label

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
                raise MarkerError(editions_messages.marker_nested(lineno, begin["n"], open_block[3]))
            open_block, body = (problem_label(begin["n"]), begin["indent"], lineno, begin["n"]), []
            out.append(line)
        elif end:
            if not open_block or problem_label(end["n"]) != open_block[0]:
                raise MarkerError(editions_messages.marker_unmatched_end(lineno, end["n"]))
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
        raise MarkerError(editions_messages.marker_unclosed(open_block[2], open_block[3]))
    return "\n".join(out)


TRAILING_COMMENT = re.compile(r"\s+#[^'\"]*$")  # "return 6  # Remove this line": a notebook's cell drops it
DEFINITION = re.compile(r"(async\s+def|def|class)\s+(?P<name>\w+)")


def block_copies(source: str) -> dict[str, list[str]]:
    """``{problem's label: [digest, ...]}``: a digest of what SOURCE holds between each problem's
    markers, or from the BEGIN line to the end of its function (blank lines, comments and
    indentation left out, a problem's blocks taken together), for each copy of the problem's code
    SOURCE holds, in order. A copy starts again where a function already holding the problem's
    blocks is defined once more: a notebook gives a function whose blocks belong to several
    problems (``play``) in each of their cells. Lenient: markers that do not pair up are passed
    over, never raised."""
    import hashlib

    copies: dict[str, list[list[str]]] = {}
    places: dict[str, dict[str, int]] = {}  # {problem: {definition holding its blocks in its current copy: which}}
    label: str | None = None
    indent, definition, count = 0, "", 0
    for line in source.split("\n"):
        begin, end = BEGIN.match(line), END.match(line)
        code = line.strip() and not line.strip().startswith("#")
        if code and len(line) - len(line.lstrip()) < indent:  # the block's function ended (no END line
            label = None  # in a notebook's cell, which ends at the function's last statement)
        if code and not line[:1].isspace():  # a top-level statement: the definition holding what follows
            top = DEFINITION.match(line)
            count += 1
            definition = top["name"] if top else ""
        if begin:
            label, indent = problem_label(begin["n"]), len(begin["indent"])
            held = places.setdefault(label, {})
            if label not in copies or held.get(definition, count) != count:  # defined once more: a new copy
                copies.setdefault(label, []).append([])
                held.clear()
            held[definition] = count
            copies[label][-1].append("")
        elif end:
            label = None
        elif label is not None and code:
            copies[label][-1][-1] += TRAILING_COMMENT.sub("", line.strip()) + "\n"
    return {k: [hashlib.sha256("\x00".join(c).encode("utf-8")).hexdigest()[:16] for c in v]
            for k, v in copies.items()}


def block_digests(source: str) -> dict[str, str]:
    """``{problem's label: digest}`` of the last copy of each problem's blocks SOURCE holds (see
    :func:`block_copies`): for the skeleton, its one copy, kept as the stubs' digests."""
    return {k: v[-1] for k, v in block_copies(source).items()}


def untouched_problems(source: str, stubs: dict[str, str]) -> list[str]:
    """The problems of STUBS (labels and the skeleton's digests) whose code SOURCE still holds as the
    skeleton gave them, in every copy it holds (a notebook repeats a function for each problem whose
    blocks it holds): the one rule for "still the starter code", on every route."""
    found = block_copies(source)
    return [label for label, digest in stubs.items() if found.get(label) and set(found[label]) == {digest}]


def starter_digests(edition: Edition) -> dict[str, str]:
    """The skeleton's digests of each problem's stubs: ``tests/skeleton.json`` in a student's copy,
    ``skeleton/<edition>/tests/skeleton.json`` in the kit and in the autograder; none where neither
    can be read (a folder made before they were kept)."""
    import json

    for path in (edition.suite_dir / SKELETON_DIGESTS, edition.skeleton_dir / "tests" / SKELETON_DIGESTS):
        try:
            stubs = json.loads(path.read_text(encoding="utf-8"))["stubs"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if isinstance(stubs, dict):
            return {str(k): str(v) for k, v in stubs.items()}
    return {}
