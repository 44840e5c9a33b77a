"""Cases of other kinds than transcripts: tests a student writes, and a strategy's exact win rate.

Pig is the edition that declares both (tests/editions/pig/q03.toml, tests/editions/pig/q13.toml); the kinds belong
to no edition, and these tests check how the engine reads and judges them.
"""

from __future__ import annotations

import ast

import pytest

from graders.core.errors import EditionError
from graders.editions import messages as editions_messages
from graders.editions.cases import StudentRun, WinRateCheck, load_problem_cases
from graders.editions.edition import load_edition
from graders.games import messages as games_messages
from graders.scoring import messages as scoring_messages
from graders.scoring import reports
from graders.scoring.checks import carry

from ..conftest import grade_source, problem, replace_function


@pytest.fixture(scope="module")
def pig():
    return load_edition("pig")


@pytest.fixture(scope="module")
def pig_source(pig) -> str:
    return (pig.solution_dir / pig.submission).read_text(encoding="utf-8")


def runs_of(result):
    """The cases of a problem's result that are runs of the student's test (ids qNN.tK)."""
    return [c for c in result.cases if ".t" in c.case_id]


def test_a_student_test_table_is_one_case_per_run(pig):
    previews = [c for c in load_problem_cases(pig, 3) if c.check is None]
    assert len(previews) == 2 and all(c.advice for c in previews)  # what a student's copy can run
    cases = [c for c in load_problem_cases(pig, 3) if c.check is not None]
    runs = [c.check for c in cases]
    assert all(isinstance(r, StudentRun) for r in runs)
    assert runs[0].source == "" and runs[0].must_pass  # the reference's own take_turn first
    assert sum(not r.must_pass for r in runs) == 12  # every variant must be caught, or is advice
    assert all(c.runs_in == "reference" for c in cases)


def test_the_reference_test_earns_the_point(pig, pig_source):
    result = problem(grade_source(pig_source, pig, [3]), 3)
    assert result.score == 1 and all(c.passed for c in result.cases)


def test_a_test_without_asserts_earns_nothing(pig, pig_source):
    source = replace_function(pig_source, "take_turn_test", '''
        def take_turn_test():
            print('Turn score:', take_turn(lambda turn_total: hold, make_test_die(6)))
        ''')
    result = problem(grade_source(source, pig, [3]), 3)
    assert result.score == 0
    assert runs_of(result)[0].passed  # it passes on the reference ...
    missed = [c for c in result.cases if c.reason == scoring_messages.student_test_missed()]
    assert len(missed) >= 10  # ... and on nearly every wrong version (one that always rolls never returns)


def test_a_test_that_fails_the_reference_earns_nothing_and_names_its_line(pig, pig_source):
    source = replace_function(pig_source, "take_turn_test", '''
        def take_turn_test():
            assert take_turn(lambda turn_total: hold, make_test_die(6)) == 6, 'wrong expectation'
        ''')
    result = problem(grade_source(source, pig, [3]), 3)
    first = runs_of(result)[0]
    assert result.score == 0 and not first.passed and first.error_type == "AssertionError"
    line = source.split("\n").index("    assert take_turn(lambda turn_total: hold, make_test_die(6)) == 6, "
                                    "'wrong expectation'") + 1
    assert f"pig.py line {line}" in first.reason
    assert "wrong expectation" not in first.reason  # a message could carry the reference's text


def test_a_test_that_only_loops_on_wrong_versions_catches_them(pig, pig_source):
    """Running out of time counts as failing, which is what a variant must do."""
    source = replace_function(pig_source, "take_turn_test", '''
        def take_turn_test():
            assert take_turn(lambda turn_total: roll if turn_total < 10 else hold, make_test_die(4, 6, 1)) == 10
            while take_turn(lambda turn_total: hold, make_test_die(6)) != 0:
                pass
        ''')
    result = problem(grade_source(source, pig, [3]), 3)
    assert runs_of(result)[0].passed  # the reference returns


def test_the_students_own_helpers_come_along_but_not_their_take_turn(pig, pig_source):
    student = pig_source + "\n\ndef helper():\n    return take_turn(lambda t: hold, make_test_die(6))\n"
    student = replace_function(student, "take_turn_test", "def take_turn_test():\n    assert helper() == 0\n")
    student = replace_function(student, "take_turn", "def take_turn(plan, dice=None, who=None, comments=False):\n"
                                                     "    return 99\n")
    carried = carry(pig_source, student, ast.parse(student), "take_turn_test", ("take_turn", "roll", "hold"))
    assert "def helper" in carried.source and "def take_turn_test" in carried.source
    assert "return 99" not in carried.source
    result = problem(grade_source(student, pig, [3]), 3)
    assert runs_of(result)[0].passed  # the student's broken take_turn is not what the test runs on


def test_the_run_holds_of_the_reference_only_what_it_keeps(pig, pig_source):
    """The rest of the reference (final_strategy above all) never reaches the child: the student's
    own definitions stand for the functions the run does not keep."""
    skeleton = (pig.skeleton_dir / pig.submission).read_text(encoding="utf-8")
    student = replace_function(skeleton, "final_strategy", "def final_strategy(score, opponent_score):\n"
                                                         "    return 'mine'\n")
    student = replace_function(student, "take_turn_test", "def take_turn_test():\n"
                                                          "    assert final_strategy(0, 0) == 'mine'\n")
    (run,) = [c.check for c in load_problem_cases(pig, 3) if c.check is not None][:1]
    assert isinstance(run, StudentRun)
    carried = carry(pig_source, student, ast.parse(student), "take_turn_test", run.keep)
    tree = ast.parse(carried.source)
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert {"take_turn", "roll", "hold", "take_turn_test", "final_strategy"} <= defined
    assert "return 'mine'" in carried.source
    reference = {n.name: ast.get_source_segment(pig_source, n) for n in ast.parse(pig_source).body
                 if isinstance(n, ast.FunctionDef)}
    secret = {name: text for name, text in reference.items() if text not in skeleton}
    assert "final_strategy" in secret and "describe_action" in secret
    for name, text in secret.items():
        assert (text in carried.source) == (name in run.keep), name
    assert problem(grade_source(student, pig, [3]), 3).cases[0].passed


@pytest.mark.slow  # several seconds of processor time: the full run, not the edit loop
def test_a_win_rate_case_reports_the_exact_figure(pig, pig_source):
    (case,) = load_problem_cases(pig, 13)
    assert isinstance(case.check, WinRateCheck) and case.check.at_least == pytest.approx(0.60)
    result = problem(grade_source(pig_source, pig, [13]), 13)
    assert result.score == 2
    assert result.note == scoring_messages.win_rate_figure(0.6664300248181667, 0.6666698445189135, 0.66619020511742,
                                                           "make_roll_until_strategy(20)")


def test_a_weak_strategy_falls_short_with_its_figure(pig, pig_source):
    source = replace_function(pig_source, "final_strategy", '''
        def final_strategy(score, opponent_score):
            return make_roll_until_strategy(10)(score, opponent_score)
        ''')
    result = problem(grade_source(source, pig, [13]), 13)
    assert result.score == 0 and "exact win rate" in result.reason and "at least 60%" in result.reason


def test_a_tactic_that_returns_something_else_is_named(pig, pig_source):
    source = replace_function(pig_source, "final_strategy", '''
        def final_strategy(score, opponent_score):
            return lambda turn_total: 'roll'
        ''')
    result = problem(grade_source(source, pig, [13]), 13)
    assert result.score == 0
    assert games_messages.tactic_bad_value(0, 0, 0, "'roll'", ("roll", "hold")) in result.reason


def test_unknown_keys_in_the_new_tables_are_refused(pig, tmp_path):
    from graders.editions.cases import _win_rate_case, read_case_file

    path = tmp_path / "q13.toml"
    path.write_text('[win_rate]\nstrategy = "final_strategy"\nagainst = "x"\nat_least = 0.6\ntolerance = 1\n')
    with pytest.raises(EditionError, match="unknown key 'tolerance'"):
        _win_rate_case(read_case_file(path)["win_rate"], path, "13")


def test_the_report_also_shows_the_courses_own_total(pig, pig_source):
    """The manifest's course_points (the seed's nominal 15 for 25 points) scales the total in the
    text report, beside the points themselves; editions without it show the points only."""
    from graders.scoring.reports import render_text

    source = replace_function(pig_source, "describe_action", '''
        def describe_action(action):
            return 'did something...'
        ''')
    report = grade_source(source, pig, [1, 5])
    assert (report.total, report.max, report.course_max, report.course_of) == (2, 4, 15, 25)
    assert render_text(report).endswith("Total: 2/4\nIn the course: 1.2 of its 15 points (the project's 25 points "
                                        "count as 15)")
    assert "In the course" not in render_text(grade_source(pig_source, load_edition("boar_brawl"), [1]))


SEED_STYLE_TEST = '''
    def take_turn_test():
        def tactic(turn_total):
            if turn_total < 10:
                return roll
            return hold
        assert take_turn(tactic, make_test_die(4, 6, 1)) == 10, 'rolling 4, 6, 1 should score 10'
        assert take_turn(tactic, make_test_die(1)) == 1, 'a first 1 scores 1'
        assert take_turn(tactic, make_test_die(2, 3, 1)) == 1, 'a later 1 scores 1'
        assert take_turn(tactic, make_test_die(5, 5, 5)) == 10, 'holding at 10'
        assert take_turn(tactic, make_test_die(6, 3, 4, 2)) == 13, 'holding past 10'
    '''


def test_a_test_as_the_seed_asks_earns_the_point(pig, pig_source):
    """The seed asks for the 4, 6, 1 check and other roll sequences with the default tactic: that
    earns Problem 3; what only another tactic or a shared die would catch is advice."""
    result = problem(grade_source(replace_function(pig_source, "take_turn_test", SEED_STYLE_TEST), pig, [3]), 3)
    assert result.score == 1, [(c.name, c.reason) for c in result.cases if not c.passed]
    missed = {c.name for c in result.cases if not c.passed}
    assert missed == {editions_messages.student_test_on_variant("holding does not call the die"),
                      editions_messages.student_test_on_variant("the tactic is ignored: it always rolls until 10, "
                                                                "the default tactic's goal")}
    assert all(c.advice for c in result.cases if not c.passed)
    text = reports.render_text(grade_source(replace_function(pig_source, "take_turn_test", SEED_STYLE_TEST),
                                            pig, [3]))
    assert scoring_messages.LABEL_ADVICE in text and "holding does not call the die" in text
