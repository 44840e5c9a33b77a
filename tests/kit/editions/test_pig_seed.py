"""Pig held to its seed (/work/shared/seeds, the Pig handout): what the seed asks for earns the points.

* Problem 4 asks for take_turn's default of comments to become True and Phase 2 suggests setting it
  back to False: a finished pig.py with either default loses nothing, and the one that kept True
  is told so, as advice that names the default.
* Problem 8 says "supply the correct die": a play with dice of its own earns the problem.
* Problem 10's advice rule on eval_strategy_range is what the problem counts.
"""

from __future__ import annotations

import shutil

import pytest

from graders.core import messages
from graders.editions.edition import load_edition
from graders.scoring import messages as scoring_messages
from graders.scoring import reports

from ..conftest import grade_source, problem, replace_function, scores

DEFAULT_FALSE = "def take_turn(plan, dice=six_sided, who=None, comments=False):"
DEFAULT_TRUE = "def take_turn(plan, dice=six_sided, who=None, comments=True):"


@pytest.fixture(scope="module")
def pig():
    return load_edition("pig")


@pytest.fixture(scope="module")
def pig_source(pig) -> str:
    return (pig.solution_dir / pig.submission).read_text(encoding="utf-8")


def test_keeping_comments_true_as_problem_4_asks_costs_nothing_and_is_named(pig, pig_source):
    assert DEFAULT_FALSE in pig_source
    report = grade_source(pig_source.replace(DEFAULT_FALSE, DEFAULT_TRUE), pig)
    assert report.total == report.max == 25, {k: v for k, v in scores(report).items()}
    text = reports.render_text(report)
    (line,) = [ln for ln in text.splitlines() if scoring_messages.LABEL_ADVICE in ln]
    assert "default for comments" in line and "expected False but got True" in line


def test_the_default_of_comments_set_back_to_false_gives_no_advice(pig, pig_source):
    result = problem(grade_source(pig_source, pig, [9]), 9)
    assert result.score == 2 and all(c.passed for c in result.cases)


@pytest.mark.slow  # the experiments it grades simulate thousands of games
def test_problem_10_says_what_it_counts_the_use_of_eval_strategy_range(pig, pig_source):
    """The seed asks run_strategy_experiments to use eval_strategy_range; the rule saying so is
    required, so the line a student reads is the reason the points go."""
    (rule,) = pig.problem(10).rules
    assert rule.required and rule.names == ("eval_strategy_range",)
    source = replace_function(pig_source, "run_strategy_experiments", '''
        def run_strategy_experiments():
            best, best_rate = 0, 0
            for goal in range(15, 26):
                rate = compare_strategies(make_roll_until_strategy(goal))
                if rate > best_rate:
                    best, best_rate = goal, rate
            print('Best turn_goal:', best)
        ''')
    result = problem(grade_source(source, pig, [10]), 10)
    assert result.score == 0 and result.broken_rules
    assert "eval_strategy_range" in result.reason


OWN_DICE = {
    "randint": ("from random import randint", "lambda: randint(1, 4)", "lambda: randint(1, 6)"),
    "choice": ("import random", "lambda: random.choice([1, 2, 3, 4])", "lambda: random.choice(range(1, 7))"),
    "fair die": ("from dice import make_fair_die", "make_fair_die(4)", "make_fair_die(6)"),
}


@pytest.mark.parametrize("kind", sorted(OWN_DICE))
def test_a_play_that_supplies_its_own_correct_dice_earns_problem_8(pig, pig_source, kind):
    """The seed: "you must supply the correct die". A die of the student's own is one."""
    imports, four, six = OWN_DICE[kind]
    source = replace_function(pig_source, "play", f'''
        def play(strategy, opponent_strategy):
            {imports}
            four, six = {four}, {six}
            scores, who = [0, 0], 0
            while max(scores) < goal:
                die = four if sum(scores) % 7 == 0 else six
                plan = (strategy, opponent_strategy)[who]
                scores[who] += take_turn(plan(scores[who], scores[1 - who]), die)
                who = 1 - who
            return 0 if scores[0] >= goal else 1
        ''')
    result = problem(grade_source(source, pig, [8]), 8)
    assert result.score == 3, [(c.name, c.reason) for c in result.cases if not c.passed][:2]


def test_a_play_with_the_wrong_die_still_loses_problem_8(pig, pig_source):
    source = pig_source.replace("            dice = four_sided\n", "            dice = six_sided\n")
    assert source != pig_source
    assert problem(grade_source(source, pig, [8]), 8).score == 0


def test_the_students_own_ok_tells_the_truth_about_problem_3(pig, tmp_path, monkeypatch, capsys):
    """A take_turn_test that checks nothing scores 0 at hand-in: the student's copy never says
    "All passed" for it, and its preview says the test passes on a take_turn that always scores 0."""
    from graders.runner import student

    from ..conftest import unlock_everything

    project = tmp_path / "project"
    shutil.copytree(pig.skeleton_dir, project)
    unlock_everything(project)
    monkeypatch.chdir(project)
    assert student.main(project, ["-q", "03"]) == 0
    said = capsys.readouterr().out
    assert messages.graded_by_the_kit("03") in said
    assert "All passed" not in said
    assert scoring_messages.LABEL_ADVICE in said and "always scores 0" in said
    shutil.copyfile(pig.solution_dir / pig.submission, project / pig.submission)
    assert student.main(project, ["-q", "03"]) == 0
    said = capsys.readouterr().out
    assert scoring_messages.LABEL_ADVICE not in said and "All passed" not in said
