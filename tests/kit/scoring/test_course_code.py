"""Code written for the course: correct code in other styles earns every point, and the mistakes
students really make lose exactly the problem they are in, with a reason that points at them."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..conftest import ENDLESS_GAME_DEADLINE, grade_source, problem, replace_function, with_deadline

SUBMISSIONS = Path(__file__).parents[1] / "submissions"


@pytest.mark.parametrize("path", sorted(SUBMISSIONS.glob("*/*_hog.py")), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_correct_code_in_other_styles_earns_every_point(path):
    """Files under submissions/<edition>/ are graded with that edition."""
    from graders.editions.edition import load_edition

    edition = load_edition(path.parent.name)
    report = grade_source(path.read_text(encoding="utf-8"), edition, workers=1)
    failed = {p.number: p.reason for p in report.problems if p.score < p.max}
    assert failed == {}
    assert report.total == edition.max_points


MISTAKES = {
    "stops rolling after a 1": (
        "roll_dice",
        """
        def roll_dice(num_rolls, dice=six_sided):
            total = 0
            while num_rolls > 0:
                outcome = dice()
                if outcome == 1:
                    return 1
                total, num_rolls = total + outcome, num_rolls - 1
            return total
        """,
        1, "dice is rolled exactly num_rolls times",
    ),
    "uses the opponent's ones digit": (
        "boar_brawl",
        """
        def boar_brawl(player_score, opponent_score):
            return max(3 * abs(opponent_score // 10 % 10 - opponent_score % 10), 1)
        """,
        2, "expected",
    ),
    "forgets the minimum of 1": (
        "boar_brawl",
        """
        def boar_brawl(player_score, opponent_score):
            return 3 * abs(opponent_score // 10 % 10 - player_score % 10)
        """,
        2, "expected 1 but got 0",
    ),
    "calls strategy0 for both players": (
        "play",
        """
        def play(strategy0, strategy1, update, score0=0, score1=0, dice=six_sided, goal=GOAL):
            who = 0
            while score0 < goal and score1 < goal:
                if who == 0:
                    score0 = update(strategy0(score0, score1), score0, score1, dice)
                else:
                    score1 = update(strategy0(score1, score0), score1, score0, dice)
                who = 1 - who
            return score0, score1
        """,
        5, "",
    ),
    "passes the scores to the strategy in the wrong order": (
        "play",
        """
        def play(strategy0, strategy1, update, score0=0, score1=0, dice=six_sided, goal=GOAL):
            who = 0
            while score0 < goal and score1 < goal:
                if who == 0:
                    score0 = update(strategy0(score0, score1), score0, score1, dice)
                else:
                    score1 = update(strategy1(score0, score1), score1, score0, dice)
                who = 1 - who
            return score0, score1
        """,
        5, "",
    ),
    "checks only pairs where both scores are equal": (
        "is_always_roll",
        """
        def is_always_roll(strategy, goal=GOAL):
            k = 0
            while k < goal:
                if strategy(k, k) != strategy(0, 0):
                    return False
                k += 1
            return True
        """,
        7, "",
    ),
    "averages over a fixed 1000 samples": (
        "make_averaged",
        """
        def make_averaged(original_function, samples_count=1000):
            def averaged(*args):
                return sum([original_function(*args) for _ in range(1000)]) / 1000
            return averaged
        """,
        8, "",
    ),
    "tries ten dice down to one": (
        "max_scoring_num_rolls",
        """
        def max_scoring_num_rolls(dice=six_sided, samples_count=1000):
            averaged = make_averaged(roll_dice, samples_count)
            best, best_rolls = 0, 10
            for n in range(10, 0, -1):
                value = averaged(n, dice)
                if value >= best:
                    best, best_rolls = value, n
            return best_rolls
        """,
        9, "",
    ),
    "uses > where >= is needed": (
        "boar_strategy",
        """
        def boar_strategy(score, opponent_score, threshold=11, num_rolls=6):
            return 0 if boar_brawl(score, opponent_score) > threshold else num_rolls
        """,
        10, "",
    ),
}


@pytest.mark.parametrize("mistake", list(MISTAKES), ids=list(MISTAKES))
def test_common_mistakes_lose_exactly_their_problem(edition, reference_source, mistake):
    function, code, number, words = MISTAKES[mistake]
    source = replace_function(reference_source, function, code)
    needed = edition.labels({number, *edition.problem(number).depends})
    report = grade_source(source, edition, problems=needed, workers=1)
    wrong = problem(report, number)
    assert wrong.score == 0 and wrong.status == "failed"
    assert words in wrong.reason
    assert all(problem(report, n).score == problem(report, n).max for n in needed if n != edition.problem(number).label)


# -- course-style submissions with one slip each: what each problem scores, alone and together -----


def slips() -> list[tuple[str, str, dict]]:
    """(edition, name, table) for every slip in submissions/<edition>/slips.toml."""
    from graders.editions.edition import read_toml

    return [(path.parent.name, name, table) for path in sorted(SUBMISSIONS.glob("*/slips.toml"))
            for name, table in read_toml(path).items()]


def slipped_source(edition_name: str, table: dict) -> str:
    """The edition's other-style file with the slip's functions in place of its own."""
    import ast

    source = (SUBMISSIONS / edition_name / "other_style_hog.py").read_text(encoding="utf-8")
    code = table["code"]
    for node in ast.parse(code).body:
        assert isinstance(node, ast.FunctionDef)
        source = replace_function(source, node.name, ast.get_source_segment(code, node) or "")
    return f'"""{table["about"]}"""\n' + source.split('"""', 2)[2]


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize(("edition_name", "name", "table"), slips(), ids=[f"{e}/{n}" for e, n, _ in slips()])
def test_each_problem_of_a_slip_scores_on_its_own_cases_alone_and_together(edition_name, name, table):
    """The slip costs exactly the problems whose own cases or required rules it breaks; each problem
    scores the same graded alone (``-q NN``) as in the full grade; advice shows and costs nothing."""
    from graders.editions.edition import load_edition

    edition = load_edition(edition_name)
    # The problems the slip loses run with a short deadline: an endless game fails one at 2 s as
    # surely as at the manifest's 5 or 10 (the slip in Problem 02 makes games that never end), and
    # the problems it must keep keep the manifest's.
    lost_numbers = [p.number for p in edition.problems if p.label in table.get("lost", {})]
    edition = with_deadline(edition, ENDLESS_GAME_DEADLINE, lost_numbers)
    source = slipped_source(edition_name, table)
    assert source != (SUBMISSIONS / edition_name / "other_style_hog.py").read_text(encoding="utf-8")
    report = grade_source(source, edition, workers=1)
    lost = {p.label: p.max - p.score for p in report.problems if p.score < p.max}
    assert lost == table.get("lost", {})
    advised = sorted({p.label for p in report.problems if any(not r.passed and not r.required for r in p.rules)})
    assert advised == sorted(table.get("advice", []))
    for p in report.problems:
        alone = problem(grade_source(source, edition, problems=[p.label], workers=1), p.label)
        assert (alone.score, alone.status) == (p.score, p.status), p.label


def test_a_seeded_game_shows_the_wrong_call_before_the_final_score(edition, reference_source):
    """Player 1's strategy is given the scores the wrong way round: the first thing the failure
    shows is the game's trace, where that call is, not just a final score that differs."""
    play = MISTAKES["passes the scores to the strategy in the wrong order"][1]
    report = grade_source(replace_function(reference_source, "play", play), edition, problems=[5],
                          include_hidden=False)
    seeded = [c for c in problem(report, 5).cases if not c.passed and "seeded_game" in c.transcript]
    assert seeded, [c.name for c in problem(report, 5).cases if not c.passed]
    assert all(c.transcript.rstrip().endswith(">>> game.trace()") for c in seeded), seeded[0].transcript
    assert "strategy1 given" in seeded[0].got and "strategy1 given" in seeded[0].expected
