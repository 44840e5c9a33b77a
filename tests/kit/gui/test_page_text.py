"""The page's own sentences: hog.js takes every one from gui_messages.PAGE_TEXT, with the placeholders it fills."""

from __future__ import annotations

import re
import string

from graders.gui import messages as gui_messages
from graders.gui import webgui

# -- the page's own sentences come from gui_messages.PAGE_TEXT -----------------------------------------

HOG_JS = webgui.STATIC / "hog.js"
FALLBACK = "const OFFLINE_TEXT = {"  # the one place hog.js may hold sentences: the server is not there
REGEX_AFTER = set("(,=:[!&|?{};")  # a '/' after one of these starts a regular expression, not a division


def js_literals(source: str) -> list[tuple[int, str]]:
    """Every string and template literal of the JavaScript SOURCE as (offset, text), comments and
    regular expressions skipped; a template's ``${...}`` parts read as ``{}``, and the literals
    inside them are listed too. Enough for the page's plain code, not a full JavaScript lexer."""
    found: list[tuple[int, str]] = []
    _scan_code(source, 0, found, inside_template=False)
    return found


def _scan_code(src: str, i: int, found: list[tuple[int, str]], inside_template: bool) -> int:
    depth, prev = 0, ""
    while i < len(src):
        c = src[i]
        if src.startswith("//", i):
            i = src.find("\n", i) if "\n" in src[i:] else len(src)
            continue
        if src.startswith("/*", i):
            i = src.index("*/", i) + 2
            continue
        if c in "'\"":
            j = i + 1
            while src[j] != c:
                j += 2 if src[j] == "\\" else 1
            found.append((i, src[i + 1:j]))
            i, prev = j + 1, '"'
            continue
        if c == "`":
            i, prev = _scan_template(src, i, found), '"'
            continue
        if c == "/" and (prev in REGEX_AFTER or prev == ""):
            i, prev = _skip_regex(src, i), '"'
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            if inside_template and depth == 0:
                return i + 1
            depth -= 1
        if not c.isspace():
            prev = c
        i += 1
    return i


def _scan_template(src: str, i: int, found: list[tuple[int, str]]) -> int:
    start, text = i, []
    i += 1
    while src[i] != "`":
        if src[i] == "\\":
            text.append(src[i:i + 2])
            i += 2
        elif src.startswith("${", i):
            text.append("{}")
            i = _scan_code(src, i + 2, found, inside_template=True)
        else:
            text.append(src[i])
            i += 1
    found.append((start, "".join(text)))
    return i + 1


def _skip_regex(src: str, i: int) -> int:
    j, in_class = i + 1, False
    while in_class or src[j] != "/":
        if src[j] == "\\":
            j += 1
        elif src[j] in "[]":
            in_class = src[j] == "["
        j += 1
    j += 1
    while j < len(src) and src[j].isalpha():
        j += 1
    return j


def sentences(source: str) -> list[str]:
    """The literals of SOURCE that read as words to a person: three or more space-separated words
    (a placeholder counts as one), outside the fallback constant."""
    start = source.index(FALLBACK)
    end = source.index("\n  };", start)
    return [text for at, text in js_literals(source) if not start <= at < end
            and len([w for w in text.split() if re.search(r"[A-Za-z]|\{\}", w)]) >= 3]


def say_calls(source: str) -> list[tuple[str, set[str]]]:
    """(key, names of the values filled in) for every ``say("key", { name: ... })`` in SOURCE."""
    calls = []
    for match in re.finditer(r"\bsay\(\s*\"(\w+)\"\s*(,\s*\{)?", source):
        names: set[str] = set()
        if match.group(2):
            i, depth, part, parts = match.end(), 0, "", []
            while depth or source[i] != "}":
                depth += (source[i] in "([{") - (source[i] in ")]}")
                if source[i] == "," and not depth:
                    parts.append(part)
                    part = ""
                else:
                    part += source[i]
                i += 1
            names = {p.split(":")[0].strip() for p in [*parts, part] if p.strip()}  # "name: value" or "name"
        calls.append((match.group(1), names))
    return calls


def test_the_sentence_check_finds_sentences_and_only_them() -> None:
    """The scan below can fail: it finds sentences in strings and templates (placeholders count as
    words), and not in comments, regular expressions, selectors or the fallback constant."""
    sample = ('const OFFLINE_TEXT = {\n  a: "The server is not there",\n  };\n'
              '// a comment of many words here\nconst r = /a b c d/g;\n'
              'say("goal", { goal });\nx.closest("select,input,textarea");\n'
              'f("First to win now");\ng(`You win ${score}!`);\nh(`${a} ${f("die")}`);\n')
    assert sentences(sample) == ["First to win now", "You win {}!"]
    assert say_calls(sample) == [("goal", {"goal"})]


def test_hog_js_takes_every_sentence_from_the_table() -> None:
    source = HOG_JS.read_text(encoding="utf-8")
    assert source.count(FALLBACK) == 1 and source.index(FALLBACK) < source.index("function ")  # at the top
    assert sentences(source) == []
    calls = say_calls(source)
    assert len(calls) == len(re.findall(r"(?<!function )\bsay\((?!\))", source))  # every call names its key
    asked = {key for key, _ in calls}
    assert asked == set(gui_messages.PAGE_TEXT), "keys hog.js asks for and PAGE_TEXT's keys differ"
    for key, names in calls:
        wanted = {name for _, name, _, _ in string.Formatter().parse(gui_messages.PAGE_TEXT[key]) if name}
        assert names == wanted, f"say({key!r}) fills {sorted(names)}, PAGE_TEXT[{key!r}] has {sorted(wanted)}"
