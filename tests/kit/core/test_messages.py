"""The sentences of graders/core/messages.py, each public function called with what it must carry.

Every public function of a sentence module appears in its folder's table: tests/kit/test_messages.py
checks, across the folders, that none is left out.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graders.core import messages

from ..sentences import carries, ids

# (function, arguments, texts the result must contain).
EXPECTATIONS: list[tuple[Callable[..., str], tuple, list[str]]] = [
    (messages.visible, ("3 ",), ["3·"]),
    (messages.plural, (2, "pair"), ["2 pairs"]),
    (messages.plural, (1, "submission"), ["1 submission"]),
    (messages.indent, ("a\nb", "  "), ["  a\n  b"]),
    (messages.student_command, ("05",), ["python3 ok -q 05"]),
    (messages.student_command, ("05", "-u"), ["python3 ok -q 05 -u"]),
    (messages.raised, ({"type": "ZeroDivisionError", "message": "division by zero", "line": 12}, "hog.py"),
     ["ZeroDivisionError", "division by zero", "hog.py line 12"]),
    (messages.unreadable_submission, ("hog.py",), ["hog.py"]),
    (messages.could_not_load, ("pig.py",), ["pig.py", "could not be loaded"]),
    (messages.advice_case, ("take_turn calls roll_dice", "expected (1, 1) but got (0, 1)"),
     ["'take_turn calls roll_dice'", "expected (1, 1) but got (0, 1)"]),
    (messages.clip, ("x" * 1000,), ["more characters"]),
    (messages.total_line, (3, 24), ["Total: 3/24"]),
    (messages.unknown_edition, ("chess", ["boar_brawl"]), ["'chess'", "boar_brawl"]),
    (messages.broken_spec, ("tests/q01.toml", "bad"), ["tests/q01.toml", "damaged", "fresh copy"]),
    (messages.interrupted, (), ["interrupted"]),
    (messages.kit_failed_gradescope, (), ["could not be graded", "autograder itself failed", "not your code",
                                   "placeholder, not your grade", "regrade"]),
    (messages.kit_failed_staff, ("KeyError: 'dice'", 2), ["staff only", "KeyError: 'dice'", "after two attempts"]),
    (messages.kit_failed_staff, ("KeyError: 'dice'", 1), ["on its only attempt"]),
    (messages.printable, ("\x1b[2Jfull\tmarks\u2028",), ["\\x1b[2Jfull\tmarks\\x2028"]),
    (messages.table_unknown_key, ("q.toml [game]", "extra_trun", ["extra_turn", "goal"]),
     ["q.toml [game]", "unknown key 'extra_trun'", "extra_turn, goal"]),
    (messages.table_missing_key, ("q.toml [[case]] #2", "transcript", "text"),
     ["[[case]] #2", "missing key 'transcript'", "text"]),
    (messages.table_wrong_type, ("e.toml [gui] sides", "a whole number", "'6'"),
     ["[gui] sides", "a whole number", "'6'"]),
    (messages.table_wrong_item, ("e.toml functions", "text", "3"), ["functions", "every item", "text", "3"]),
    (messages.table_not_a_table, ("e.toml [analysis]", "str"), ["[analysis]", "a table", "str"]),
    (messages.unreadable_notebook, ("x.ipynb", "bad json"), ["x.ipynb", "notebook", "bad json"]),
    (messages.locked, ("01",), ["python3 ok -q 01 -u", "locked"]),
    (messages.sentence, ("unexpected indent",), ["unexpected indent."]),
    (messages.and_more, (3,), ["and 3 more"]),
    (messages.whitespace_legend, (messages.visible("3 \n\n\tx"),), ["(· is a space, → is a tab, ⏎ is an empty line)"]),
    (messages.no_such_path, ("nowhere/hog.py",), ["nowhere/hog.py"]),
    (messages.points_text, (2.0,), ["2"]),
    (messages.points_text, (1.5, True), ["+1.5"]),
    (messages.graded_by_the_kit, ("03",), ["Problem 03", "course's own reference", "when you hand in"]),
]


@pytest.mark.parametrize(("fn", "args", "needles"), EXPECTATIONS, ids=ids(EXPECTATIONS))
def test_message_carries_what_it_must(fn: Callable[..., str], args: tuple, needles: list[str]) -> None:
    carries(fn, args, needles)
