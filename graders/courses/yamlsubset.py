"""Yamlsubset: reads the block YAML that Gradescope's "export submissions" writes, tolerantly.

Contract: :func:`load` turns YAML text into dicts, lists and scalars (str, int, float, bool,
None). It reads what Ruby's YAML writer (Psych) emits for ``submission_metadata.yml``: block
mappings and sequences (a sequence may sit at its key's own indentation), Ruby symbol keys
(``:sid:`` is read as ``sid``), plain, single- and double-quoted scalars (also over several lines),
``|`` and ``>`` block scalars, empty ``[]`` and ``{}`` and simple one-line flow sequences, comments,
document markers, anchors and tags (dropped: a tagged value is read as its plain value; Ruby's
``!ruby/object:BigDecimal 18:0.24e2`` as 24.0), and aliases (read as None). What it cannot
understand it skips by its indentation rather than failing, so a field the kit does not read
(a submission's whole ``results``) can never stop it. Time stamps stay text: the caller reads
them. It raises ValueError only for nesting too deep to follow.

Why not a YAML package: the kit reads five fields of one file; Psych writes Ruby tags a safe YAML
loader refuses, and the student-side engine installs nothing.
"""

from __future__ import annotations

import re

from graders.courses import messages as courses_messages

_INT = re.compile(r"[-+]?\d+")
_FLOAT = re.compile(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "/": "/", " ": " ", "e": "\x1b",
            "a": "\a", "b": "\b", "N": "\x85", "_": "\xa0"}
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")


def load(text: str) -> object:
    """The document TEXT holds (its first, when it holds several), as plain Python values."""
    reader = _Reader(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    try:
        indent = reader.next_content()
        return None if indent is None else reader.block(indent)
    except RecursionError:
        raise ValueError(courses_messages.YAML_TOO_DEEP) from None


class _Reader:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.i = 0

    def content(self) -> str:
        return self.lines[self.i].strip()

    def indent(self) -> int:
        line = self.lines[self.i]
        return len(line) - len(line.lstrip(" "))

    def next_content(self) -> int | None:
        """Move past blank lines, comments and document markers; the next line's indent, or None."""
        while self.i < len(self.lines):
            text = self.content()
            if text.startswith("..."):
                self.i = len(self.lines)  # the end of the first document
                return None
            if text == "---" or text.startswith("--- "):
                rest = text[3:].strip()
                if rest and not rest.startswith(("!", "&", "#")):
                    self.lines[self.i] = rest  # a document that starts on the marker's line
                    return 0
                self.i += 1
                continue
            if text and not text.startswith("#"):
                return self.indent()
            self.i += 1
        return None

    def block(self, indent: int) -> object:
        text = self.content()
        if text == "-" or text.startswith("- "):
            return self.sequence(indent)
        if _split_key(text) is not None:
            return self.mapping(indent)
        self.i += 1
        return self.value(text, indent)

    def mapping(self, indent: int) -> dict:
        found: dict = {}
        while (here := self.next_content()) is not None and here >= indent:
            pair = _split_key(self.content()) if here == indent else None
            if pair is None:  # a line this reader cannot place: skipped, never fatal
                self.i += 1
                continue
            self.i += 1
            found[pair[0]] = self.value(pair[1], indent)
        return found

    def sequence(self, indent: int) -> list:
        items: list = []
        while (here := self.next_content()) is not None and here == indent:
            text = self.content()
            if not (text == "-" or text.startswith("- ")):
                break
            after = text[1:].lstrip(" ")
            column = indent + len(text) - len(after)
            if not after:
                self.i += 1
                deeper = self.next_content()
                items.append(self.block(deeper) if deeper is not None and deeper > indent else None)
            elif after == "-" or after.startswith("- ") or _split_key(after) is not None:
                self.lines[self.i] = " " * column + after  # the item's block starts on the dash's line
                items.append(self.block(column))
            else:
                self.i += 1
                items.append(self.value(after, indent))
        return items

    def value(self, rest: str, indent: int) -> object:
        """The value after a key (or a dash) at INDENT: REST, and the lines below it when it goes on."""
        rest, tag = _strip_properties(rest)
        if rest.startswith("*"):
            return None  # an alias: the kit never needs what it points to
        if not rest:
            here = self.next_content()
            if here is not None and (here > indent or (here == indent and self.content().startswith("- "))):
                return self.block(here)
            return None
        if rest[0] in "|>":
            return self.block_scalar(rest, indent)
        if rest[0] in "\"'" and not _closed(rest):
            rest = self.continued(rest, indent, quoted=True)
        elif rest[0] not in "\"'":
            rest = self.continued(_uncomment(rest), indent, quoted=False)
        return _scalar(rest, tag)

    def continued(self, first: str, indent: int, quoted: bool) -> str:
        """FIRST and the lines deeper than INDENT that carry on a scalar, folded into one line."""
        parts = [first]
        while self.i < len(self.lines):
            line = self.lines[self.i]
            stripped = line.strip()
            deeper = len(line) - len(line.lstrip(" ")) > indent
            if not (deeper or (quoted and not stripped)):
                break
            if not quoted and stripped.startswith("#"):
                break
            parts.append(stripped if stripped else "\n")
            self.i += 1
            if quoted and _closed(" ".join(parts)):
                break
        return " ".join(parts).replace(" \n ", "\n")

    def block_scalar(self, header: str, indent: int) -> str:
        lines: list[str] = []
        while self.i < len(self.lines):
            line = self.lines[self.i]
            if line.strip() and len(line) - len(line.lstrip(" ")) <= indent:
                break
            lines.append(line)
            self.i += 1
        while lines and not lines[-1].strip():
            lines.pop()
        body = [x for x in lines if x.strip()]
        cut = min((len(x) - len(x.lstrip(" ")) for x in body), default=0)
        rows = [x[cut:] for x in lines]
        text = "\n".join(rows) if header.startswith("|") else " ".join(r for r in rows if r)
        return text if "-" in header else text + "\n"


def _closed(text: str) -> bool:
    """Whether the quoted scalar starting TEXT ends in it."""
    quote = text[0]
    k = 1
    while k < len(text):
        if quote == '"' and text[k] == "\\":
            k += 2
            continue
        if text[k] == quote:
            if quote == "'" and text[k + 1:k + 2] == "'":
                k += 2
                continue
            return True
        k += 1
    return False


def _split_key(text: str) -> tuple[str, str] | None:
    """(key, the rest) when TEXT is ``key: value`` (or ``key:``), else None."""
    if not text or text[0] in "[{#|>" or text.startswith("- "):
        return None
    if text[0] in "\"'":
        if not _closed(text):
            return None
        end = _quote_end(text)
        after = text[end + 1:].lstrip(" ")
        if not after.startswith(":") or after[1:2] not in ("", " "):
            return None
        return str(_scalar(text[:end + 1], "")), after[1:].strip()
    match = re.search(r":( |$)", text)
    if match is None:
        return None
    key = text[:match.start()].strip()
    return (key[1:] if key.startswith(":") and len(key) > 1 else key), text[match.end():].strip()


def _quote_end(text: str) -> int:
    quote, k = text[0], 1
    while k < len(text):
        if quote == '"' and text[k] == "\\":
            k += 2
            continue
        if text[k] == quote and not (quote == "'" and text[k + 1:k + 2] == "'"):
            return k
        k += 1 + (quote == "'" and text[k] == quote)
    return len(text) - 1


def _strip_properties(text: str) -> tuple[str, str]:
    """TEXT without its leading tag and anchor, and the tag (``!ruby/object:BigDecimal``)."""
    tag = ""
    text = text.strip()
    while text[:1] in ("!", "&"):
        word, _, text = text.partition(" ")
        tag = word if word.startswith("!") else tag
        text = text.strip()
    return text, tag


def _uncomment(text: str) -> str:
    at = text.find(" #")
    return text[:at].rstrip() if at >= 0 else text


def _scalar(text: str, tag: str) -> object:
    text = text.strip()
    if text[:1] == '"':
        inner = text[1:_quote_end(text)] if _closed(text) else text[1:]
        return _ESCAPE.sub(_unescape, inner)
    if text[:1] == "'":
        inner = text[1:_quote_end(text)] if _closed(text) else text[1:]
        return inner.replace("''", "'")
    if tag.endswith("BigDecimal") and re.fullmatch(r"\d+:.+", text):
        text = text.split(":", 1)[1]
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE", "false", "False", "FALSE"):
        return text.lower() == "true"
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    if text in ("[]", "{}"):
        return [] if text == "[]" else {}
    if text.startswith("[") and text.endswith("]") and not re.search(r"[\[\]{}\"']", text[1:-1]):
        return [_scalar(part, "") for part in text[1:-1].split(",") if part.strip()]
    if re.fullmatch(r":[A-Za-z_]\w*", text):
        return text[1:]  # a Ruby symbol as a value
    return text


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    if code[0] in "xuU" and len(code) > 1:
        return chr(int(code[1:], 16))
    return _ESCAPES.get(code, code)
