"""Repair: keep grading a submission that has a syntax error in one place.

Contract: when the source does not parse, the top-level block holding the error (a ``def``, a
``class`` or any statement starting in column 0) is replaced by a stub that raises ``SyntaxError``
when called, and parsing is tried again, a bounded number of times. Only the problems that need a
removed block lose points; each removal is reported with its line and the function's name.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from graders.core import syntax
from graders.sandboxing import messages as sandboxing_messages

MAX_REPAIRS = 20
_TOP = re.compile(r"^(?:@|async\s+def\s|def\s|class\s|[A-Za-z_])")
_ON_LINE = re.compile(r"on line (\d+)")
_DEF = re.compile(r"^(?:async\s+)?def\s+([A-Za-z_]\w*)|^class\s+([A-Za-z_]\w*)")


@dataclass(frozen=True)
class Removal:
    line: int
    message: str
    name: str  # the function or class left out, or "a top-level statement"


def _block_bounds(lines: list[str], index: int) -> tuple[int, int]:
    """First and last line index of the top-level block holding line INDEX."""
    start = index
    while start > 0 and not _TOP.match(lines[start]):
        start -= 1
    while start > 0 and lines[start - 1].startswith("@"):
        start -= 1
    end = index + 1
    while end < len(lines) and not _TOP.match(lines[end]):
        end += 1
    # A decorator belongs with the def or class under it: take them together.
    while end < len(lines) and all(ln.startswith("@") or not ln.strip() for ln in lines[start:end]):
        end += 1
        while end < len(lines) and not _TOP.match(lines[end]):
            end += 1
    return start, end


def repair(source: str, filename: str = "hog.py") -> tuple[str, ast.Module | None, list[Removal]]:
    """(source that parses, its tree, what was removed); the tree is None if repair failed.

    FILENAME only names the file in the message the stub raises.
    """
    removals: list[Removal] = []
    for _ in range(MAX_REPAIRS):
        try:
            return source, syntax.parse_module(source), removals
        except SyntaxError as exc:
            lines = source.split("\n")
            # "expected an indented block after 'if' statement on line 12" is reported on the line
            # after the empty block; the block to remove is the one holding line 12.
            named = _ON_LINE.search(exc.msg or "")
            line = int(named.group(1)) if named else (exc.lineno or 1)
            line = max(1, min(line, len(lines)))
            start, end = _block_bounds(lines, line - 1)
            header = next((m for m in (_DEF.match(ln) for ln in lines[start:end]) if m), None)
            name = (header.group(1) or header.group(2)) if header else ""
            message = exc.msg
            if name:
                why = sandboxing_messages.syntax_stub(name, filename, line, message)
                stub = f"def {name}(*args, **kwargs): raise SyntaxError({why!r})"
            else:
                stub = "pass"
            if start == 0 and end >= len(lines) and not name:
                return source, None, removals + [Removal(line, message, "a top-level statement")]
            # One line for the stub and blank lines for the rest keep every later line number.
            new_lines = lines[:start] + [stub] + [""] * (end - start - 1)
            new_lines += lines[end:]
            removal = Removal(line, message, name or "a top-level statement")
            if removal in removals or new_lines == lines:  # no progress: stop rather than loop
                return source, None, removals
            removals.append(removal)
            source = "\n".join(new_lines)
        except (RecursionError, MemoryError, ValueError) as exc:
            return source, None, removals + [Removal(0, f"{type(exc).__name__}: {exc}", "everything")]
    return source, None, removals
