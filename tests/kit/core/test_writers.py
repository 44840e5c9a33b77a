"""The one writer per format (graders/core/writers.py): what each escapes, and that the text survives."""

from __future__ import annotations

import csv
import io
import json

import pytest
from markdown_it import MarkdownIt

from graders.core.writers import csv_text, json_text, md_block, md_code, md_line, md_text, safe_cell


def preview(text: str) -> str:
    return MarkdownIt("commonmark").enable("table").render(text)


@pytest.mark.parametrize(("cell", "written"), [
    ("=1+1", "'=1+1"), ("+cmd", "'+cmd"), ("@SUM(A1)", "'@SUM(A1)"), ("-x", "'-x"), ("\tx", "'\tx"),
    ("\rx", "'\rx"), ("-2.5", "-2.5"), ("alice", "alice"), ("", ""), ("'=x", "'=x"),
])
def test_a_cell_a_spreadsheet_would_run_gets_an_apostrophe(cell: str, written: str) -> None:
    assert safe_cell(cell) == written


def test_csv_keeps_numbers_and_reads_back() -> None:
    text = csv_text([["id", "score"], ["=HYPERLINK(1)", 3], ["bob", -1.5], [None, "a,b"]])
    assert list(csv.reader(io.StringIO(text))) == [["id", "score"], ["'=HYPERLINK(1)", "3"], ["bob", "-1.5"],
                                                    ["", "a,b"]]


@pytest.mark.parametrize(("text", "shown"), [
    ("x", "x"), ("`", "`"), ("a``b", "a``b"), ("``</code><img src=x>``", "``</code><img src=x>``"),
    ("`x`", "`x`"), ("a|b", "a|b"), ("line\nnext", "line ⏎ next"), ("a\u202eb", "a\\u202eb"),
])
def test_a_code_span_holds_its_text_whole(text: str, shown: str) -> None:
    from html import unescape

    html = preview(f"| a |\n|---|\n| {md_code(text)} |")
    assert html.count("<code>") == 1 and "<img" not in html
    assert unescape(html.split("<code>")[1].split("</code>")[0]) == shown


def test_free_text_is_shown_not_obeyed() -> None:
    hostile = '<img src="http://x/b.png"> [a](http://e) ![i](http://x/c.png) *b* _c_ # h &#x202E; https://e.x'
    html = preview(md_text(hostile))
    assert "<img" not in html and "<a " not in html and "<em>" not in html and "&amp;#x202E;" in html
    assert preview(md_line("# heading\n1. item")).startswith("<p>")
    assert md_line("take_turn and 50.0%") == "take_turn and 50.0%"  # ordinary text stays as it is


def test_a_block_is_fenced_past_its_longest_run() -> None:
    html = preview(md_block("print('````')\n<img src=x>", "pycon"))
    assert html.count("<pre>") == 1 and "<img" not in html


def test_json_escapes_what_moves_text_and_reads_back() -> None:
    value = {"a": "x\u202ey\x07\u200b\U000e0001é✓", "b\u2066": [1, None]}
    text = json_text(value, indent=1)
    assert all(c not in text for c in "\u202e\x07\u200b\U000e0001\u2066") and "é✓" in text
    assert json.loads(text) == value


@pytest.mark.parametrize(("text", "keep", "written"), [
    ("plain words (1 + 2) ~!", "", "plain words (1 + 2) ~!"),
    ("two\nlines", "\n", "two\nlines"),
    ("two\nlines", "", "two\\x0alines"),
    ("tab\there", "\n", "tab\\x09here"),
    ("\x1b[2Jclear", "", "\\x1b[2Jclear"),
    ("del\x7f", "", "del\\x7f"),
    ("caf\u00e9 \u2014 ok", "", "caf\u00e9 \u2014 ok"),
    ("a\u202eb", "\n", "a\\u202eb"),
    ("line\u2028sep", "", "line\\u2028sep"),
])
def test_written_out_leaves_plain_text_as_it_is_and_writes_out_what_acts(text: str, keep: str, written: str) -> None:
    """Attack: printable ASCII (and what KEEP names) is returned as it is, by the quick check and by
    the character-by-character one alike; a control, bidi or separator character is written out
    whichever of the two sees it first."""
    from graders.core.writers import written_out

    assert written_out(text, keep=keep) == written
