"""The fenced code blocks of a page of docs/, by section and language: what the docs show is what a
test runs (tests/kit/courses/test_slurm.py, the ``bash`` blocks) or checks
(tests/kit/courses/test_kubernetes.py, the ``yaml`` blocks), word for word."""

from __future__ import annotations

import re
from pathlib import Path

from graders.editions.edition import kit_root

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
HEADING = re.compile(r"#{1,6} ")


def page(name: str) -> str:
    return (kit_root() / "docs" / name).read_text(encoding="utf-8")


def pages() -> list[Path]:
    """The README and every page of docs/."""
    return [kit_root() / "README.md", *sorted((kit_root() / "docs").glob("*.md"))]


def section(text: str, heading: str) -> str:
    """The part of TEXT under the heading line HEADING (``### On Slurm``), up to the next heading of
    any level; a ``#`` line inside a fenced block is no heading."""
    lines = text.splitlines(keepends=True)
    start = lines.index(heading + "\n") + 1
    fenced = False
    for end in range(start, len(lines)):
        if lines[end].startswith("```"):
            fenced = not fenced
        elif not fenced and HEADING.match(lines[end]):
            return "".join(lines[start:end])
    return "".join(lines[start:])


def blocks(text: str, language: str) -> list[str]:
    """The text of every block of TEXT fenced as LANGUAGE (```bash), in order."""
    return [match.group(2) for match in FENCE.finditer(text) if match.group(1) == language]


def everywhere(language: str) -> int:
    """How many blocks of the README and docs/ are fenced as LANGUAGE."""
    return sum(len(blocks(p.read_text(encoding="utf-8"), language)) for p in pages())
