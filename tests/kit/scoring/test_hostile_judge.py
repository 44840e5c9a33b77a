"""Attacks through the grade route, on the judge: what one hog.py's code tells the parent that compares.

The grade route is one submission graded (``grade()``, ``hogkit grade FILE``). The judge never trusts
the student's process: the child sends tagged plain values, the parent compares them with exact
types and runs no student code. Every test builds a variant of the reference ``hog.py`` that returns
values that only pretend to be right, patches the tools the grader might use, forges the child's
replies and frames, fails to parse or to import, prints around its answers or tries all of it at
once, and checks, with exact scores, statuses and reasons, that the attack costs only the problems
it touches and never earns a point. (What the code does to its child: sandboxing/test_hostile_grade.py.)
"""

from __future__ import annotations

import json
import textwrap

import pytest

from graders.core import messages
from graders.core.records import Report
from graders.sandboxing import messages as sandboxing_messages
from graders.scoring import messages as scoring_messages
from graders.scoring import reports
from graders.scoring.judge import DEBUG_PREFIX

from ..conftest import grade_source, problem, replace_function, scores
from ..hostile import assert_untouched, first_case, line_of

# -- 1. values that pretend to be right ------------------------------------------------------------

ALWAYS_EQUAL_METHODS = """
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __repr__(self):
        return "9"

    def __str__(self):
        return "9"

    def __hash__(self):
        return 9
"""


PRETENDERS = {
    # variant: (code defining boar_brawl, what the first step displays instead of 9)
    "always_equal_object": (
        "class Nine:" + ALWAYS_EQUAL_METHODS + "\n\ndef boar_brawl(player_score, opponent_score):\n    return Nine()",
        scoring_messages.object_value("Nine"),
    ),
    "always_equal_int_subclass": (
        "class Nine(int):" + ALWAYS_EQUAL_METHODS
        + "\n\ndef boar_brawl(player_score, opponent_score):\n    return Nine(0)",
        scoring_messages.object_value("Nine"),
    ),
    "float_for_int": (
        "def boar_brawl(player_score, opponent_score):\n    return 9.0",
        "9.0",
    ),
}


@pytest.mark.parametrize("variant", sorted(PRETENDERS))
def test_value_that_only_claims_to_be_right_scores_nothing(edition, reference_source, variant):
    """Attack: boar_brawl returns something that compares equal to 9, or prints as 9, but is not the int 9.

    The child sends only exact int/float/bool/str/None/tuple/list values; anything else is sent as
    a description. The parent compares what a session would display, so an always-equal object, an
    int subclass with a lying __eq__ and __repr__, and the float 9.0 all fail every case.
    """
    code, shown = PRETENDERS[variant]
    source = replace_function(reference_source, "boar_brawl", code)
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 0}
    p2 = problem(report, 2)
    assert p2.status == "failed"
    assert all(r.passed for r in p2.rules)
    assert p2.cases[0].got == shown
    assert p2.reason == scoring_messages.case_failed(
        first_case(edition, 2).name, scoring_messages.wrong_output("9", shown))
    assert p2.cases_passed == 0


def test_bool_where_an_int_is_expected_fails(edition, reference_source):
    """Attack: boar_brawl returns True (== 1 in Python) where the answer is the int 1."""
    source = replace_function(reference_source, "boar_brawl", """
        def boar_brawl(player_score, opponent_score):
            tens = opponent_score // 10 % 10
            ones = player_score % 10
            return max(3 * abs(tens - ones), True)
        """)
    report = grade_source(source, edition, problems=[2])

    p2 = problem(report, 2)
    assert (p2.status, p2.score) == ("failed", 0)
    # The first step, boar_brawl(21, 46), is 9 and passes; boar_brawl(45, 52) shows True, not 1.
    assert (p2.cases[0].step, p2.cases[0].expected, p2.cases[0].got) == (1, "1", "True")
    assert p2.reason == scoring_messages.case_failed(
        first_case(edition, 2).name, scoring_messages.wrong_output("1", "True"))


def test_play_returning_a_list_instead_of_a_tuple_fails(edition, reference_source):
    """Attack (or slip): play returns [score0, score1], which a lenient == against (a, b) might accept."""
    assert reference_source.count("    return score0, score1\n") == 1
    source = reference_source.replace("    return score0, score1\n", "    return [score0, score1]\n")
    report = grade_source(source, edition, problems=[5])

    p5 = problem(report, 5)
    case = first_case(edition, 5)
    assert (p5.status, p5.score) == ("failed", 0)
    assert (p5.cases[0].expected, p5.cases[0].got) == ("(100, 75)", "[100, 75]")
    assert p5.reason == scoring_messages.case_failed(case.name, scoring_messages.wrong_output("(100, 75)", "[100, 75]"))


# -- 2. patching the tools the grader might use, forging what the child says -----------------------

# A boar_brawl that earns nothing by itself: whatever a patch around it earns is the attack's.
STUB_BOAR_BRAWL = """
def boar_brawl(player_score, opponent_score):
    return None
"""


PATCHES = {
    # variant: (top-level code, what the one import note says, or None for no note)
    "builtins_repr": ("""
        import builtins
        builtins.repr = lambda x: "9"
        """, None),
    "builtins_str": ("""
        import builtins
        builtins.str = lambda x="": "9"
        """, sandboxing_messages.skipped_statement("ended the program")),
    "json_dumps": ("""
        import json
        _forged = '{"op": "step", "value": {"t": "int", "v": 9}, "error": null, "output": ""}'
        json.dumps = lambda *args, **kwargs: _forged
        json.loads = lambda *args, **kwargs: {"op": "step", "value": {"t": "int", "v": 9}}
        """, None),
    "pytest": ("""
        import sys
        import sysconfig
        sys.path.append(sysconfig.get_paths()["purelib"])
        try:
            import _pytest.python
            import pytest
            pytest.main = lambda *args, **kwargs: 0
            _pytest.python.Function.runtest = lambda self: None
            pytest.fail = pytest.skip = lambda *args, **kwargs: None
        except Exception:
            pass
        """, None),
}


@pytest.mark.parametrize("variant", sorted(PATCHES))
def test_monkeypatching_earns_nothing_for_a_stub(edition, reference_source, variant):
    """Attack: a stub boar_brawl plus top-level patches of repr, str, json.dumps/loads or pytest itself.

    The patches land in the child only: it kept its own references to json and never uses repr or
    str of a student value, and the parent, which compares, runs no student code. A patch that
    breaks the child itself (str) is skipped like any statement that ends the program. The stub
    earns no case of problem 2, and roll_dice (reference) keeps its points despite the patches.
    """
    code, note = PATCHES[variant]
    patch = textwrap.dedent(code).strip("\n")
    source = replace_function(reference_source, "boar_brawl", STUB_BOAR_BRAWL) + "\n" + patch + "\n"
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 0}
    if note is None:
        assert not report.notes
    else:
        assert list(report.notes) == [sandboxing_messages.import_note(
            "hog.py", line_of(source, patch.split("\n")[-1]), note)]
    p2 = problem(report, 2)
    assert p2.status == "failed"
    assert p2.cases_passed == 0
    assert p2.reason == scoring_messages.case_failed(
        first_case(edition, 2).name, scoring_messages.wrong_output("9", ""))
    assert_untouched(report, 1)


def test_forged_replies_from_the_child_earn_nothing_for_a_stub(edition, reference_source):
    """Attack: the stub's hog.py rewrites the child's own encoder (``__main__.encode``) to report 9 for everything.

    The child is not trusted, so it may say anything; it just never sees the expected output, which
    stays in the parent. The forged 9 passes the one step whose answer is 9 and fails the next.
    """
    patch = "import __main__\n__main__.encode = lambda value, depth=0: {'t': 'int', 'v': 9}\n"
    source = replace_function(reference_source, "boar_brawl", STUB_BOAR_BRAWL) + "\n" + patch
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 0, 2: 0}  # roll_dice's right values are forged into 9s too
    p2 = problem(report, 2)
    assert p2.status == "failed"
    assert (p2.cases[0].step, p2.cases[0].expected, p2.cases[0].got) == (1, "1", "9")
    assert p2.reason == scoring_messages.case_failed(
        first_case(edition, 2).name, scoring_messages.wrong_output("1", "9"))


FORGER = """
import __main__ as _main
_real_send = _main.send
def _send(fd, message):
    if message.get("op") == "step":
        {forgery}
    return _real_send(fd, message)
_main.send = _send
"""


@pytest.mark.parametrize("variant", ["huge", "nested", "fields"])
def test_forged_frames_cost_only_the_forger(edition, reference_source, variant):
    """Attack: hog.py replaces the child's own sender: every reply becomes 2 MB of output, or JSON
    nested 100,000 deep (which once raised RecursionError in the grader), or a frame whose fields
    have the wrong types.

    Guarantee: the parent caps frames and their depth and decodes every field to its expected type:
    the forger's cases fail, its row is graded (never a failure of the kit), and nothing big is kept.
    """
    forgery = {
        "huge": 'message = dict(message, output="x" * (2 << 20))',
        "nested": 'return _main._write(fd, (lambda d: len(d).to_bytes(4, "big") + d)(b"[" * 100000 + b"]" * 100000))',
        "fields": 'message = {"op": "step", "seq": message.get("seq"), "value": {"t": "int", "v": "9"}, '
                  '"error": {"type": ["x"], "line": "12"}, "output": 7}',
    }[variant]
    source = reference_source + FORGER.format(forgery=forgery)
    report = grade_source(source, edition, problems=[2])
    p2 = problem(report, 2)
    assert p2.status == "failed" and p2.score == 0
    assert len(json.dumps(report.as_dict())) < 2 << 20


def test_a_submission_cannot_replace_the_probes(edition, reference_source):
    """Attack: hog.py defines its own check_strategy (printing 'valid') and show_strategy (printing a
    forged table), hoping `from hog import *` puts them in the cases' place. The kit's probes win."""
    source = reference_source + (
        "\n\ndef check_strategy(strategy, goal=100):\n    print('valid')\n"
        "\n\ndef show_strategy(strategy, goal=100):\n    print('forged')\n"
    )
    source = replace_function(source, "final_strategy", """
        def final_strategy(score, opponent_score):
            return 11
        """)
    report = grade_source(source, edition, problems=[12])
    p12 = problem(report, 12)
    assert p12.status == "failed"
    assert "strategy(0, 0) returned 11" in p12.cases[0].got


# -- 3. syntax errors, and an import that fails ----------------------------------------------------


def test_syntax_error_in_one_function_costs_only_that_function(edition, reference_source):
    """Attack (or slip): boar_brawl does not parse. The block is replaced by a stub; the rest is graded."""
    source = replace_function(reference_source, "boar_brawl", """
        def boar_brawl(player_score, opponent_score):
            return (
        """)
    line = line_of(source, "return (")
    report = grade_source(source, edition, problems=[1, 2, 3])

    assert scores(report) == {1: 2, 2: 0, 3: 2}  # take_turn's cases call the kit's boar_brawl
    assert_untouched(report, 1)
    assert_untouched(report, 3)
    assert len(report.notes) == 1
    note = report.notes[0]
    assert note.startswith(f"hog.py line {line}: SyntaxError: ")
    assert "boar_brawl was left out" in note
    p2 = problem(report, 2)
    assert p2.status == "failed"
    assert not p2.cases  # a function left out for a syntax error is not run at all
    assert p2.reason == scoring_messages.removed_for_syntax("boar_brawl", "hog.py", line)
    assert not problem(report, 3).hint


def test_a_file_that_is_not_python_scores_zero_with_a_note(edition):
    """Attack (or slip): hog.py is not Python at all. Every problem scores 0; nothing raises."""
    report = grade_source("this is not python at all ((((", edition)

    assert set(scores(report).values()) == {0}
    assert len(report.problems) == len(edition.problems)
    for p in report.problems:
        assert not p.cases
        assert (p.status, p.reason) == ("failed", messages.unreadable_submission("hog.py")), p.number
    assert len(report.notes) == 1
    assert report.notes[0].startswith("hog.py line 1: SyntaxError: ")
    assert report.notes[0].endswith("Nothing could be graded; fix this line first")
    assert report.checkpoint is not None and report.checkpoint.score == 0
    assert "Nothing could be graded" in reports.render_text(report)


def test_missing_module_is_reported_and_later_functions_still_work(edition, reference_source):
    """Attack (or slip): ``import numpy_does_not_exist`` on line 1; the functions after it still load."""
    source = "import numpy_does_not_exist\n" + reference_source
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 2}
    assert_untouched(report, 1, 2)
    assert list(report.notes) == [
        sandboxing_messages.import_note("hog.py", 1, "ModuleNotFoundError: No module named 'numpy_does_not_exist'")
    ]


# -- 4. DEBUG lines, and other printed lines -------------------------------------------------------

# The reference's roll_dice, with a line of a test's own ({before}) at the top of its body.
ROLL_DICE_TEMPLATE = """
def roll_dice(num_rolls, dice=six_sided):
    {before}
    total, sow_sad = 0, False
    while num_rolls > 0:
        outcome = dice()
        if outcome == 1:
            sow_sad = True
        total = total + outcome
        num_rolls = num_rolls - 1
    if sow_sad:
        return 1
    return total
"""


def test_debug_lines_never_make_a_case_fail(edition, reference_source):
    """roll_dice prints "DEBUG: rolling" before returning the right value: the lines are kept apart."""
    roll_dice = ROLL_DICE_TEMPLATE.format(before='print("DEBUG: rolling")')
    source = replace_function(reference_source, "roll_dice", roll_dice)
    report = grade_source(source, edition, problems=[1])

    assert_untouched(report, 1)
    debug = problem(report, 1).cases[0].debug
    assert debug and set(debug) == {DEBUG_PREFIX + " rolling"}


def test_debug_lines_never_count_against_the_output_cap(edition, reference_source):
    """roll_dice prints 3,000 DEBUG lines on each call, far past the cap of 2,000 printed lines, and
    returns the right value: every case passes, and a budget of their own keeps the DEBUG lines."""
    before = 'for _k in range(3000): print("DEBUG:", _k)'
    source = replace_function(reference_source, "roll_dice", ROLL_DICE_TEMPLATE.format(before=before))
    report = grade_source(source, edition, problems=[1])

    assert_untouched(report, 1)
    debug = problem(report, 1).cases[0].debug
    steps = len(first_case(edition, 1).steps)  # each step has a budget of its own
    assert 0 < len(debug) <= 2000 * steps < 3000 * steps and debug[0] == DEBUG_PREFIX + " 0"


def test_other_printed_lines_make_a_case_fail(edition, reference_source):
    """roll_dice prints "rolling" (no DEBUG: prefix) before returning the right value: the output is wrong."""
    roll_dice = ROLL_DICE_TEMPLATE.format(before='print("rolling")')
    source = replace_function(reference_source, "roll_dice", roll_dice)
    report = grade_source(source, edition, problems=[1])

    p1 = problem(report, 1)
    case = first_case(edition, 1)
    assert (p1.status, p1.score) == ("failed", 0)
    assert (p1.cases[0].expected, p1.cases[0].got) == ("10", "rolling\n10")
    assert p1.reason == scoring_messages.case_failed(case.name, scoring_messages.wrong_output("10", "rolling\n10"))
    assert "printed 1 extra line(s)" in p1.reason and "DEBUG:" in p1.reason


# -- 5. a hostile submission still gives a report --------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_hostile_submission_is_graded_and_rendered(edition, reference_source):
    """Attack: many at once, graded over every problem: grade() returns a report and it renders.

    hog.py exits at load, has a syntax error in boar_brawl, an always-equal take_turn, an always_roll
    that calls os._exit, and patches json. Only the reference functions left earn points.
    """
    source = replace_function(reference_source, "take_turn", "class Same:" + ALWAYS_EQUAL_METHODS + """

def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
    return Same()
""")
    source = replace_function(source, "always_roll", "def always_roll(n):\n    import os\n    os._exit(3)")
    source = replace_function(source, "boar_brawl", "def boar_brawl(player_score, opponent_score):\n    return (")
    source = "import sys\nsys.exit('bye')\nimport json\njson.dumps = None\n" + source
    report = grade_source(source, edition)

    assert isinstance(report, Report)
    # roll_dice, make_averaged, max_scoring_num_rolls and boar_strategy are the reference's (the
    # last calls the kit's boar_brawl in place of the one a syntax error removed); everything else
    # fails, on its own cases, and those whose cases call a failing problem say to fix it first.
    assert scores(report) == {0: 0, 1: 2, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 2, 9: 2, 10: 2, 11: 0, 12: 0}
    assert report.total == 8
    assert problem(report, 6).cases[0].status == "crashed"
    assert [p.number for p in report.problems if p.hint] == [3, 4, 5, 7, 11]
    assert len(report.notes) == 3, report.notes
    assert any(note.startswith(f"hog.py line {line_of(source, 'return (')}: SyntaxError") for note in report.notes)
    assert "hog.py line 2: " + sandboxing_messages.exited_while_loading("sys.exit", "bye") in report.notes
    # average_win_rate's default argument calls always_roll, so that def ends the program on load.
    assert any(sandboxing_messages.skipped_statement("ended the program") in note for note in report.notes)
    text = reports.render_text(report)
    assert text.splitlines()[-1] == f"Total: {report.total}/{report.max}"
    for p in report.problems:
        assert f"Problem {p.label}" in text
    assert json.loads(reports.render_json(report))["total"] == report.total
