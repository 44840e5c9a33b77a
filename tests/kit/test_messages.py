"""Every message: each public function of every sentence module is called and carries its names, numbers, commands.

The sentence modules are graders/**/*messages.py: graders.core.messages (the shared sentences and the
text helpers), each folder's own messages.py and graders/cli/messages.py. They are found and
keyed by their path, so two modules of one name never hide each other. Each folder's needle tests
are in tests/kit/<folder>/test_messages.py (its EXPECTATIONS); this module checks that together
they leave no sentence out, and holds the tests of the text helpers and the page's own texts.
"""

from __future__ import annotations

import importlib
import inspect
import string
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

import graders
from graders.cli import messages as cli_messages
from graders.core import messages
from graders.courses import messages as courses_messages
from graders.gui import messages as gui_messages
from graders.runner import messages as runner_messages
from graders.sandboxing import messages as sandboxing_messages
from graders.scoring import messages as scoring_messages

ENGINE = Path(graders.__file__).resolve().parent
LONGEST_MODULE = 800  # lines of one sentence module


def sentence_modules() -> dict[str, ModuleType]:
    """{path, as "graders/courses/messages.py": its module} for every sentence module of the engine."""
    paths = sorted(ENGINE.rglob("*messages.py"))
    return {p.relative_to(ENGINE.parent).as_posix(): importlib.import_module(
        ".".join(p.relative_to(ENGINE.parent).with_suffix("").parts)) for p in paths}


def where(fn: Callable[..., object]) -> tuple[str, str]:
    """(the path of the module that defines FN, its name): one key per function of the engine."""
    return fn.__module__.replace(".", "/") + ".py", fn.__name__


def public_functions() -> set[tuple[str, str]]:
    return {
        (path, name) for path, module in sentence_modules().items()
        for name, fn in inspect.getmembers(module, inspect.isfunction)
        if fn.__module__ == module.__name__ and not name.startswith("_")
    }


def tables() -> dict[str, list[tuple[Callable[..., str], tuple, list[str]]]]:
    """{folder: the EXPECTATIONS of tests/kit/<folder>/test_messages.py} for each folder that has one."""
    found = {}
    for path in sorted(Path(__file__).parent.glob("*/test_messages.py")):
        module = importlib.import_module(f"{__package__}.{path.parent.name}.test_messages")
        found[path.parent.name] = module.EXPECTATIONS
    return found


def test_every_message_function_is_exercised() -> None:
    exercised = {where(fn) for table in tables().values() for fn, _, _ in table}
    missing = public_functions() - exercised
    assert not missing, f"messages without a test in their folder's EXPECTATIONS: {sorted(missing)}"


def test_each_folders_table_holds_its_own_sentences() -> None:
    """A sentence's needle test sits beside the tests of the folder that says it."""
    for folder, table in tables().items():
        strays = {where(fn) for fn, _, _ in table if where(fn)[0] != f"graders/{folder}/messages.py"}
        assert not strays, f"tests/kit/{folder}/test_messages.py tests another folder's sentences: {sorted(strays)}"
    assert set(tables()) == {path.split("/")[1] for path in sentence_modules()}


def test_the_scan_sees_every_sentence_module_by_its_path() -> None:
    found = sentence_modules()
    assert {"graders/core/messages.py", "graders/scoring/messages.py", "graders/courses/messages.py",
            "graders/cli/messages.py"} <= set(found)
    assert len({m.__name__ for m in found.values()}) == len(found)  # nine messages.py, none hiding another
    assert ("graders/core/messages.py", "visible") in public_functions()
    assert ("graders/cli/messages.py", "demo_heading") in public_functions()


def test_no_sentence_module_is_longer_than_800_lines() -> None:
    long = {path: n for path in sentence_modules()
            if (n := len((ENGINE.parent / path).read_text(encoding="utf-8").splitlines())) > LONGEST_MODULE}
    assert long == {}


# -- visible whitespace --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("3 ", "3·"),
        ("3   ", "3···"),
        ("a\tb", "a→b"),
        ("\t3", "→3"),
        ("3\t", "3→"),
        ("", "(nothing)"),
        (None, "(nothing)"),
        ("a\n\nb", "a\n⏎\nb"),
        ("plain", "plain"),
    ],
)
def test_visible(text: str | None, shown: str) -> None:
    assert messages.visible(text) == shown


def test_indent_leaves_blank_lines_without_trailing_spaces() -> None:
    assert messages.indent("a\n\nb") == "    a\n\n    b"


# -- wrong output --------------------------------------------------------------------------------


def test_wrong_output_shows_a_trailing_space() -> None:
    text = scoring_messages.wrong_output("3", "3 ")
    assert "3·" in text
    assert text == "expected 3 but got 3·"


def test_wrong_output_shows_tabs() -> None:
    assert "a→b" in scoring_messages.wrong_output("a b", "a\tb")


@pytest.mark.parametrize("got", ["", None])
def test_wrong_output_says_nothing_was_displayed(got: str | None) -> None:
    text = scoring_messages.wrong_output("10", got)
    assert "nothing was displayed" in text
    assert "10" in text
    assert "None" in text  # the usual cause: a function without a return


@pytest.mark.parametrize(
    ("expected", "got", "line", "exp_shown", "got_shown"),
    [
        ("a\nb\nc", "a\nX\nc", 2, "b", "X"),
        ("asked with 0 10\n(20, 4)", "asked with 0 10\n(20, 5)", 2, "(20, 4)", "(20, 5)"),
        ("a\nb", "a", 2, "b", "(nothing)"),
        ("a", "a\nextra", 2, "(nothing)", "extra"),
        ("x \ny", "x\ny", 1, "x·", "x"),
    ],
)
def test_wrong_output_names_the_differing_line(expected: str, got: str, line: int, exp_shown: str,
                                               got_shown: str) -> None:
    text = scoring_messages.wrong_output(expected, got)
    assert f"line {line}" in text
    assert f"expected {exp_shown} but got {got_shown}" in text


def test_timed_out_mentions_the_seconds() -> None:
    assert "10 s" in scoring_messages.timed_out(10.0)
    assert "2.5 s" in scoring_messages.timed_out(2.5)


def test_raised_without_details() -> None:
    text = messages.raised({}, "hog.py")
    assert text.startswith("raised")
    assert not text.endswith((":", " "))
    assert "line" not in messages.raised({"type": "ValueError", "message": "bad", "line": 0}, "hog.py")


# -- singular and plural -------------------------------------------------------------------------


def test_counts_agree_in_number() -> None:
    assert scoring_messages.hidden_cases_failed([("a game at the goal", 1, 1)]).startswith("1 hidden case failed: ")
    assert scoring_messages.hidden_cases_failed([("big scores", 2, 9)]).startswith("2 hidden cases failed: ")
    assert scoring_messages.debug_lines_note(1).startswith("1 DEBUG line printed")
    assert scoring_messages.debug_lines_note(3).startswith("3 DEBUG lines printed")


def test_import_note_without_a_line() -> None:
    assert sandboxing_messages.import_note("hog.py", 0, "loading took too long") == "hog.py: loading took too long"


def test_interactive_try_without_a_line() -> None:
    assert runner_messages.interactive_try("")


def test_a_dependency_hint_names_each_failing_problem_once() -> None:
    text = scoring_messages.dependency_hint([("03", "take_turn"), ("04", "sus_update")])
    assert text.count("03 (take_turn)") == 1 and text.count("04 (sus_update)") == 1


def test_a_dependency_hint_says_problem_once_however_many_fail() -> None:
    """Three failing problems once read "Problem 01 … and Problem 02 … and Problem 03 … fail too"."""
    text = scoring_messages.dependency_hint([("01", "roll_dice"), ("02", "boar_brawl"),
                                             ("04", "num_factors, sus_points")])
    assert text == ("This problem's public cases call Problems 01 (roll_dice), 02 (boar_brawl) and 04 "
                    "(num_factors, sus_points), which fail too: fix those first (its hidden cases use the kit's own).")
    assert text.count("Problem") == 1 and " and " not in text.replace(") and 04", "")


# -- hints ---------------------------------------------------------------------------------------


def test_hints_are_hints_not_answers() -> None:
    assert set(messages.HINTS) == {"quotes", "no_quotes", "float", "case", "special", "tuple", "order", "error_name",
                            "function"}
    for text in messages.HINTS.values():
        assert text.startswith("Close")


def test_no_legend_without_marks() -> None:
    assert messages.whitespace_legend(messages.visible("3\n4")) == ""


# -- the web page's own texts --------------------------------------------------------------------

# key: (the placeholders hog.js fills, texts the sentence must carry once filled with SAMPLE).
PAGE_EXPECTATIONS: dict[str, tuple[set[str], list[str]]] = {
    "person": (set(), ["Person"]),
    "you": (set(), ["You"]),
    "player": ({"who"}, ["Player 1"]),
    "player_strategy": ({"who", "strategy"}, ["Player 1 (final_strategy)"]),
    "panel_name": ({"who", "label"}, ["Player 1 · You"]),
    "your_strategies": (set(), ["strategies"]),
    "rules": (set(), ["Rules"]),
    "goal": ({"goal"}, ["First to 100 wins"]),
    "one_die": ({"n"}, ["1 die"]),
    "dice": ({"n"}, ["3 dice"]),
    "dice_label": (set(), ["Dice"]),
    "dice_shown": ({"faces"}, ["Dice: 3 4 2"]),
    "no_dice": (set(), ["No dice"]),
    "no_roll_yet": (set(), ["No dice rolled yet"]),
    "rolls": ({"player", "dice"}, ["Player 1 rolls 3 dice"]),
    "rolled": ({"player", "dice"}, ["Player 1 rolled 3 dice"]),
    "and_scored": (set(), ["scored"]),
    "stopped_by_error": (set(), ["stopped", "error"]),
    "turn_head": ({"who", "dice"}, ["Player 1 rolled 3 dice"]),
    "turn_stopped": (set(), ["before the turn ended"]),
    "turn_score": ({"gain", "before", "after"}, ["→ 9 (11 → 20)"]),
    "turn_other": ({"who", "before", "after"}, ["Player 1: 11 → 20"]),
    "rule": (set(), ["Rule"]),
    "printed": ({"file", "text"}, ["hog.py printed: hello"]),
    "printed_label": ({"file"}, ["hog.py printed"]),
    "starting": (set(), ["new game"]),
    "thinking": ({"player"}, ["Player 1 is thinking"]),
    "rolling": ({"dice"}, ["Rolling 3 dice"]),
    "next_turn": ({"player"}, ["Player 1's turn", "Next turn"]),
    "choose": ({"who"}, ["Player 1", "how many dice"]),
    "how_many": (set(), ["How many dice?"]),
    "how_many_player": ({"who"}, ["Player 1", "how many dice?"]),
    "roll": ({"dice"}, ["Roll 3 dice"]),
    "zero_rule": ({"rule"}, ["0 dice", "Boar Brawl"]),
    "zero_rule_unnamed": (set(), ["0 dice", "special rule"]),
    "meter": (set(), ["Your chance to win with best play"]),
    "meter_player": ({"who"}, ["Player 1's chance to win with best play"]),
    "final_score": ({"winner", "loser"}, ["100 to 87"]),
    "you_win": ({"score"}, ["You win 100 to 87"]),
    "wins": ({"player", "score"}, ["Player 1 wins 100 to 87"]),
    "game_over": (set(), ["Game over"]),
    "idle": (set(), ["stopped", "New game"]),
    "stopped": (set(), ["Stopped", "error below"]),
    "not_replayed": (set(), ["could not be replayed"]),
    "in_function": ({"function"}, ["In boar_brawl"]),
    "in_function_line": ({"function", "line"}, ["In boar_brawl, line 12"]),
    "at_line": ({"line"}, ["Line 12"]),
    "turn_head_actions": ({"who", "actions"}, ["Player 1: roll 3, hold 2"]),
    "turn_actions": ({"player", "actions"}, ["Player 1's turn: roll 3, hold 2"]),
    "turn_so_far": ({"player", "actions"}, ["Player 1's turn so far: roll 3, hold 2"]),
    "no_action_yet": (set(), ["No action yet"]),
    "remark": ({"player", "text"}, ["Player 1 hello"]),
    "die_label": ({"sides", "face"}, ["4-sided die showing 3"]),
    "turn_total": ({"total"}, ["Turn total: 12"]),
    "turn_total_player": ({"who", "total"}, ["Player 1", "turn total 12"]),
    "die_sides": ({"sides"}, ["4-sided die"]),
    "choose_action": ({"who", "actions"}, ["Player 1", "choose an action (roll 3, hold 2)"]),
    "acting": ({"player", "action"}, ["Player 1: roll"]),
    "action_keys": ({"keys"}, ["Keys: r roll, h hold"]),
}
SAMPLE = {"who": 1, "strategy": "final_strategy", "label": "You", "goal": 100, "n": 3, "faces": "3 4 2",
          "player": "Player 1", "dice": "3 dice", "gain": 9, "before": 11, "after": 20, "text": "hello",
          "rule": "Boar Brawl", "winner": 100, "loser": 87, "score": "100 to 87", "function": "boar_brawl",
          "line": 12, "file": "hog.py", "actions": "roll 3, hold 2", "sides": 4, "face": 3, "total": 12,
          "action": "roll", "keys": "r roll, h hold"}
SAMPLE_ONE = {**SAMPLE, "n": 1}


def test_every_page_text_is_exercised() -> None:
    assert set(gui_messages.PAGE_TEXT) == set(PAGE_EXPECTATIONS)


@pytest.mark.parametrize("key", sorted(PAGE_EXPECTATIONS))
def test_page_text_has_the_placeholders_the_page_fills(key: str) -> None:
    text = gui_messages.PAGE_TEXT[key]
    placeholders, needles = PAGE_EXPECTATIONS[key]
    assert {name for _, name, _, _ in string.Formatter().parse(text) if name} == placeholders
    filled = text.format(**(SAMPLE_ONE if key == "one_die" else SAMPLE))
    assert "{" not in filled and "}" not in filled
    for needle in needles:
        assert needle in filled, f"PAGE_TEXT[{key!r}] -> {filled!r} lacks {needle!r}"


def test_a_class_graded_in_full_says_nothing_of_what_could_not_be() -> None:
    assert "could not be graded" not in cli_messages.class_summary_line(9, 9, 13, 1.5, "out/")


def test_the_interrupt_notice_starts_a_line_of_its_own_only_on_a_terminal() -> None:
    assert courses_messages.interrupted_notice("hogkit", False) == "hogkit: " + messages.interrupted()


def test_scores_line_up_whatever_the_labels_and_points() -> None:
    """Swine Swap's 05a and 200/200 beside 00 and 0/0: every score ends in one column."""
    from graders.core.records import PhaseResult, ProblemResult, ProblemStatus, Report
    from graders.scoring.reports import render_text

    rows = [("00", "Dice", 0, 0), ("01", "roll_dice", 200, 200), ("05a", "play", 20, 200)]
    problems = tuple(ProblemResult(k, label, name, 1, score, most, ProblemStatus.PASSED)
                     for k, (label, name, score, most) in enumerate(rows))
    report = Report("swine_swap", "Hog", "hog.py", 220, 400, (PhaseResult(1, "Simulator", 220, 400),), problems, None)
    lines = [line for line in render_text(report).splitlines() if "Problem" in line]
    ends = {len(line.rstrip()) for line in lines}
    assert len(ends) == 1, lines


def test_a_long_question_is_wrapped_as_its_choices_are() -> None:
    question = ("Which of these is what play returns once a player's score reaches the goal, and the game "
                "has called the strategies of both players in turn?\n    >>> play(always_roll(5), always_roll(5))")
    shown = runner_messages.question_text(question).split("\n")
    assert len(shown) == 3 and all(len(line) <= 78 for line in shown[:2])
    assert shown[2] == "    >>> play(always_roll(5), always_roll(5))"  # code keeps its line
    assert " ".join(shown[:2]) == question.split("\n")[0]


def test_the_similarity_pages_fixed_texts_say_what_the_score_and_marks_mean() -> None:
    assert "never changes a grade" in courses_messages.SIMILARITY_NO_VERDICT
    assert "stands out" in courses_messages.SIMILARITY_NO_VERDICT
    for needle in ("smaller hand-in's own code", "skeleton's left out", "1/(n - 1)", "more than a third",
                   "100%", "does not depend on how many students"):
        assert needle in courses_messages.SIMILARITY_SCORE
    for needle in ("= matched", "the skeleton's own: provided, left out of the comparison", "\u2260 not matched"):
        assert needle in courses_messages.SIMILARITY_LEGEND
    assert "can change" in courses_messages.SIMILARITY_TIME_FILE
    assert "metadata" in courses_messages.SIMILARITY_TIME_EXPORT
