"""The sentences of graders/editions/messages.py, each public function called with what it must carry.

Every public function of a sentence module appears in its folder's table: tests/kit/test_messages.py
checks, across the folders, that none is left out.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graders.editions import messages as editions_messages

from ..sentences import carries, ids

# (function, arguments, texts the result must contain).
EXPECTATIONS: list[tuple[Callable[..., str], tuple, list[str]]] = [
    (editions_messages.unknown_problem, ("99", "00", "12"), ["no problem 99", "00 to 12"]),
    (editions_messages.unknown_problem, ("05c", "00", "12"), ["no problem 05c", "00 to 12"]),
    (editions_messages.unknown_problem, ("05", "00", "12", ["05a", "05b"]),
     ["problem 05 comes in parts", "05a and 05b", "-q 05a"]),
    (editions_messages.problem_number_expected, ("two",), ["-q", "'two'", "05a"]),
    (editions_messages.not_a_project_folder, ("/tmp/x",), ["/tmp/x", "tests/edition.json"]),
    (editions_messages.expected_dice_range, (35,), ["[fewest, most]", "from 0 to 35", "fewest first"]),
    (editions_messages.manifest_undeclared_phase, ("e.toml [[problems]] number=3", 4),
     ["number=3", "phase 4", "[[phases]]"]),
    (editions_messages.manifest_repeated_problem, ("e.toml [[problems]] number=3", "03"),
     ["number=3", "problem 03", "twice"]),
    (editions_messages.manifest_bad_dependency, ("e.toml", "05a", "07"), ["e.toml", "problem 05a depends on 07",
                                                          "not an earlier problem"]),
    (editions_messages.kit_not_found, (), ["tests/ and graders/", "pip install -e .", "HOGKIT_ROOT"]),
    (editions_messages.transcript_text_before_prompt, ("q.toml [[case]] #1", 2, "9"),
     ["[[case]] #1", "line 2", "'9'", "'>>> '"]),
    (editions_messages.transcript_no_prompt, ("q.toml [[case]] #1",), ["[[case]] #1", "no '>>> ' lines"]),
    (editions_messages.include_missing, ("q.toml [[include]] #1", "../x.toml"),
     ["[[include]] #1", "no such file '../x.toml'"]),
    (editions_messages.case_rule_unknown, ("q.toml [[case]] #3", "take_turn"),
     ["[[case]] #3", "'take_turn'", "no shape rule"]),
    (editions_messages.unlock_answer_not_a_choice, ("q.toml [[unlock]] #1", "7"),
     ["[[unlock]] #1", "'7'", "not one of the choices"]),
    (editions_messages.unlock_needs_a_prompt, ("q.toml [[unlock]] #2",), ["[[unlock]] #2", "choices", "transcript"]),
    (editions_messages.template_one_kind, ("q.toml [[generate]] #1", ["range", "random"]),
     ["[[generate]] #1", "one of params, range and random", "range and random"]),
    (editions_messages.marker_nested, (7, "6", "5"), ["line 7", "BEGIN PROBLEM 6 inside PROBLEM 5"]),
    (editions_messages.marker_unmatched_end, (9, "5a"), ["line 9", "END PROBLEM 5a without a matching BEGIN"]),
    (editions_messages.marker_unclosed, (3, "12"), ["line 3", "BEGIN PROBLEM 12 is never closed"]),
    (editions_messages.expected_label_of, (5,), ["a label of problem 5"]),
    (editions_messages.json_not_an_object, (), ["one JSON object"]),
    (editions_messages.student_test_on_reference, ("take_turn",), ["your test", "right take_turn"]),
    (editions_messages.student_test_on_version, ("a loop that returns",),
     ["another right version", "a loop that returns"]),
    (editions_messages.student_test_on_variant, ("hold skips the die",), ["a wrong version", "hold skips the die"]),
    (editions_messages.win_rate_case, ("final_strategy", "make_roll_until_strategy(20)", 0.6),
     ["final_strategy", "at least 60%", "make_roll_until_strategy(20)", "both seats"]),
]


@pytest.mark.parametrize(("fn", "args", "needles"), EXPECTATIONS, ids=ids(EXPECTATIONS))
def test_message_carries_what_it_must(fn: Callable[..., str], args: tuple, needles: list[str]) -> None:
    carries(fn, args, needles)
