"""Writers: the one place each output format escapes what it must.

Contract: pure functions from plain values to text; nothing here reads or writes a file.

- CSV: :func:`csv_text` renders rows; every text cell passes through :func:`safe_cell`, so a cell a
  spreadsheet would run as a formula (starting ``=``, ``+``, ``@``, a tab or a carriage return, or
  ``-`` and not a number) is written with a leading apostrophe. Numbers stay numbers.
- Markdown: :func:`md_text` escapes free text (a reason, a name, an exception's message) so that
  nothing in it is markup: no HTML (``<``), no link or image (``[``, ``!``), no emphasis, no table
  cell break, no heading; control and bidirectional characters are written out. :func:`md_code`
  makes an inline code span fenced with more backticks than any run inside; :func:`md_block` a
  fenced block whose fence is longer than any run of backticks inside.
- JSON: :func:`json_text` is :func:`json.dumps` with every control, format (bidirectional
  overrides such as U+202E), separator and private character escaped as ``\\uXXXX``.

Every CSV and Markdown file the kit writes is made with these (a test checks that no other module
writes CSV or fences code). Shipped to students (the reports render with it): Python 3.9, standard
library only.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

# -- CSV ------------------------------------------------------------------------------------------

FORMULA_STARTS = ("=", "+", "@", "\t", "\r", "\n")


def safe_cell(text: str) -> str:
    """TEXT as a spreadsheet shows it rather than runs it."""
    if text[:1] in FORMULA_STARTS or (text[:1] == "-" and not _is_number(text)):
        return "'" + text
    return text


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _cell(value: object) -> object:
    if isinstance(value, (int, float)):
        return value
    return safe_cell("" if value is None else str(value))


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """ROWS as CSV text (``\\n`` line ends), every text cell made safe for a spreadsheet."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows([_cell(value) for value in row] for row in rows)
    return buffer.getvalue()


# -- text that must not act -----------------------------------------------------------------------


def _unsafe(c: str) -> bool:
    """A character that moves, hides or reorders text: control, format (bidi), separators, private use."""
    return unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


_PLAIN: dict[str, re.Pattern[str]] = {}  # {keep: what matches text that written_out leaves as it is}


def written_out(text: str, keep: str = "") -> str:
    """TEXT with every character that could move, hide or reorder what is shown written out as
    ``\\xNN`` or ``\\uNNNN`` (or ``\\UNNNNNNNN``), except those in KEEP."""
    plain = _PLAIN.get(keep) or _PLAIN.setdefault(keep, re.compile("[ -~" + re.escape(keep) + "]*"))
    if plain.fullmatch(text):  # printable ASCII (and KEEP) alone, as most text is: nothing to write out
        return text
    out = []
    for c in text:
        if c in keep or not _unsafe(c):
            out.append(c)
        elif ord(c) < 0x100:
            out.append(f"\\x{ord(c):02x}")
        elif ord(c) < 0x10000:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(f"\\U{ord(c):08x}")
    return "".join(out)


# -- Markdown -------------------------------------------------------------------------------------

_MARKUP = re.compile(r"([\\`*<>\[\]!|~]|&(?=#|[A-Za-z0-9]+;)|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|:(?=//)|(?<=\bwww)\.)")
_BULLET = re.compile(r"^(\s*)([-=+#])(?=[\s#=-]|$)", re.MULTILINE)  # a list item, heading or rule
_NUMBERED = re.compile(r"^(\s*\d+)([.)])(?=\s|$)", re.MULTILINE)  # a numbered list item


def md_text(text: str) -> str:
    """TEXT as Markdown that shows it and does nothing else: no HTML, links (nor bare addresses a
    preview would link), images, emphasis, table breaks or headings; line breaks kept; other control
    and bidirectional characters written out."""
    escaped = _MARKUP.sub(r"\\\1", written_out(str(text), keep="\n"))
    escaped = _BULLET.sub(r"\1\\\2", escaped)
    return _NUMBERED.sub(r"\1\\\2", escaped)


def md_line(text: str) -> str:
    """:func:`md_text` on one line (a list item, a table cell): line breaks shown as ``⏎``."""
    return md_text(str(text).replace("\r\n", "\n").replace("\n", " ⏎ "))


def _longest_run(text: str, mark: str) -> int:
    runs = re.findall(f"{re.escape(mark)}+", text)
    return max((len(r) for r in runs), default=0)


def md_code(text: str) -> str:
    """TEXT as an inline code span safe in a table cell: fenced with one backtick more than its longest
    run, padded with a space where it starts or ends with a backtick, ``|`` escaped, line breaks as ``⏎``."""
    shown = written_out(str(text).replace("\r\n", "\n").replace("\n", " ⏎ "), keep="\t").replace("|", "\\|")
    fence = "`" * (_longest_run(shown, "`") + 1)
    if shown.startswith("`") or shown.endswith("`") or (shown.startswith(" ") and shown.endswith(" ")):
        shown = f" {shown} "
    return f"{fence}{shown}{fence}"


def md_block(text: str, language: str = "") -> str:
    """TEXT as a fenced code block (tagged LANGUAGE), its fence longer than any run of backticks inside."""
    fence = "`" * max(3, _longest_run(str(text), "`") + 1)
    return f"{fence}{language}\n{written_out(str(text), keep=chr(9) + chr(10))}\n{fence}"


# -- JSON -----------------------------------------------------------------------------------------


def _escape_json(match: re.Match[str]) -> str:
    c = match.group(0)
    if not _unsafe(c):
        return c
    if ord(c) < 0x10000:
        return f"\\u{ord(c):04x}"
    high, low = divmod(ord(c) - 0x10000, 0x400)
    return f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"


_NOT_PLAIN = re.compile("[^\x20-\x7e\n]")


def json_text(value: Any, indent: int | None = None, sort_keys: bool = False) -> str:
    """VALUE as JSON, readable (not ASCII-only) but with every control, bidirectional or invisible
    character escaped (they can appear only inside strings, where ``\\uXXXX`` means the same)."""
    text = json.dumps(value, indent=indent, ensure_ascii=False, sort_keys=sort_keys)
    return _NOT_PLAIN.sub(_escape_json, text)
