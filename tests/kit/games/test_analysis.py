"""Exact analysis: the published cross-checks, agreement with a large seeded simulation, best
responses and minimax, tabulating untrusted strategies in the sandbox, and the commands."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from graders.cli import main as hogkit
from graders.cli import messages as cli_messages
from graders.core.errors import InputError
from graders.editions.edition import edition_names, kit_root, load_edition, parse_manifest, read_toml
from graders.games import analysis, kinds
from graders.games import messages as games_messages
from graders.games.game import game_of
from graders.sandboxing.replies import StepReply
from graders.sandboxing.sandbox import open_session

from ..conftest import grade_source, problem


@pytest.fixture(scope="module")
def boar():
    edition = load_edition("boar_brawl")
    return edition, analysis.build_model(edition)


# Figures the README and handouts quote, per edition: always_roll(6)'s chance going first against
# itself, and each strategy's average win rate against it (the seeds' "close to 57%", "62%", ...).
PUBLISHED = {
    "boar_brawl": (0.5379, {"boar_strategy": 0.6763, "sus_strategy": 0.6783}),
    "pig_tail": (0.5371, {"tail_strategy": 0.5789, "square_strategy": 0.6275}),
    "swine_swap": (0.5000, {"bacon_strategy": 0.5205, "swap_strategy": 0.5727}),
}

# Each reference final_strategy against its edition's own baseline ([game] baseline): the figures
# the reference's comments and the README quote. An engine change must keep them exactly.
FINAL = {"boar_brawl": 0.7653, "more_boar": 0.7886, "picky_piggy": 0.6239, "pig_tail": 0.7343,
         "swine_swap": 0.8713}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FINAL))
def test_the_reference_final_strategies_keep_their_figures(name):
    edition = load_edition(name)
    model = analysis.build_model(edition)
    baseline = analysis.reference_table(edition, analysis.analysis_settings(edition).baseline)
    final = analysis.reference_table(edition, "final_strategy")
    assert round(analysis.win_rates(model, final, baseline)["average"], 4) == FINAL[name]
    assert round(analysis.pair_rate(model, final, baseline), 4) == FINAL[name]  # compiled or not, the same


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_the_published_cross_checks(name):
    edition = load_edition(name)
    model = analysis.build_model(edition)
    six = analysis.constant(model, 6)
    first, strategies = PUBLISHED[name]
    assert round(analysis.win_rates(model, six, six)["first"], 4) == first
    for strategy, expected in strategies.items():
        rates = analysis.win_rates(model, analysis.reference_table(edition, strategy), six)
        assert round(rates["average"], 4) == expected, strategy


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_exact_values_agree_with_a_large_seeded_simulation(boar):
    """20,000 games of the reference's own play: the exact value lies within four standard errors."""
    edition, model = boar
    exact = analysis.win_rates(model, analysis.reference_table(edition, "sus_strategy"),
                               analysis.constant(model, 6))["first"]
    code = (
        "import random\nfrom hog import *\nrandom.seed(61)\nwins = 0\n"
        "for _ in range(20000):\n"
        "    a, b = play(sus_strategy, always_roll(6), sus_update)\n"
        "    wins += a > b\n"
        "print(wins / 20000)\n"
    )
    done = subprocess.run([sys.executable, "-B", "-c", code], cwd=edition.solution_dir, capture_output=True,
                          text=True, timeout=280)
    simulated = float(done.stdout)
    error = math.sqrt(exact * (1 - exact) / 20000)
    assert abs(simulated - exact) < 4 * error, (simulated, exact)


@pytest.fixture(scope="module")
def boar_best_response(boar):
    """Boar Brawl's always_roll(6) and the exact best response to it, solved once for the tests that
    check it."""
    _edition, model = boar
    six = analysis.constant(model, 6)
    best = analysis.best_response(model, six)
    best.setflags(write=False)
    return six, best


def test_best_response_and_minimax(boar, boar_best_response):
    edition, model = boar
    six, best = boar_best_response
    minimax = analysis.optimal(model)
    best_rate = analysis.win_rates(model, best, six)["average"]
    for name in ("boar_strategy", "sus_strategy", "final_strategy"):
        assert best_rate >= analysis.win_rates(model, analysis.reference_table(edition, name), six)["average"]
    assert analysis.win_rates(model, minimax, minimax)["average"] == pytest.approx(0.5)
    assert analysis.win_rates(model, best, six)["average"] >= analysis.win_rates(model, minimax, six)["average"]
    assert best.min() >= 0 and best.max() <= 10


def analysed(name: str):
    """Edition NAME, or a skip when its [game] is not of kind "dice" (Hog's shape)."""
    edition = load_edition(name)
    if kinds.dice_settings(edition) is None:
        pytest.skip(f"{name} describes no game of dice: its [game] is of another kind (test_tactics.py)")
    return edition


@pytest.mark.slow
@pytest.mark.parametrize("name", edition_names())
def test_every_edition_can_be_analysed(name):
    edition = analysed(name)
    model = analysis.build_model(edition)
    six = analysis.constant(model, 6)
    assert analysis.win_rates(model, six, six)["average"] == pytest.approx(0.5)
    final = analysis.reference_table(edition, "final_strategy")
    assert analysis.win_rates(model, final, six)["average"] > 0.5


def test_roll_classes_are_exact():
    for k in (1, 2, 5, 10):
        classes = analysis.roll_classes(k)
        assert sum(p for p, _ in classes) == pytest.approx(1.0)
        for _p, faces in classes:
            assert len(faces) == k and all(1 <= f <= 6 for f in faces)
    ones = sum(p for p, faces in analysis.roll_classes(3) if 1 in faces)
    assert ones == pytest.approx(1 - (5 / 6) ** 3)


def test_untrusted_strategies_are_tabulated_in_the_sandbox(boar, reference_source):
    edition, model = boar
    extra = (
        "\n\ndef eleven(score, opponent_score):\n    return 11 if score == 3 and opponent_score == 4 else 1\n"
        "\n\nflip = [0]\n\ndef restless(score, opponent_score):\n    flip[0] += 1\n    return flip[0] % 2\n"
        "\n\ndef endless(score, opponent_score):\n    while True:\n        pass\n"
    )
    session = open_session(reference_source + extra, edition)
    try:
        assert (game_of(edition).tabulate(session, "always_roll(3)") == 3).all()
        with pytest.raises(analysis.AnalysisError, match=r"strategy\(3, 4\) returned 11"):
            game_of(edition).tabulate(session, "eleven")
        with pytest.raises(analysis.AnalysisError, match="two different answers"):
            game_of(edition).tabulate(session, "restless")
        with pytest.raises(analysis.AnalysisError, match="no_such_strategy names something hog.py does not define"):
            game_of(edition).tabulate(session, "no_such_strategy")
        # A strategy that never answers is stopped at the deadline the dice game is handed.
        with pytest.raises(analysis.AnalysisError, match=re.escape(games_messages.strategy_too_slow("endless", 0.5))):
            game_of(edition).tabulate(session, "endless", seconds=0.5)
    finally:
        session.dispose()


class Replying:
    """A stand-in for a sandboxed child whose every step ends as STATUS says (no process at all)."""

    module, submission = "hog", Path("hog.py")

    def __init__(self, status: str) -> None:
        self.status = status

    def steps(self, steps: list[str], setup: str, deadline: float) -> list[StepReply]:
        return [StepReply(self.status, error={"type": "ValueError", "message": "no"})] * len(steps)


@pytest.mark.parametrize("name", ["boar_brawl", "pig"])
def test_every_kind_of_game_tells_a_failed_tabulation_in_the_same_words(name):
    """One tabulator for every kind of game (dice, tactics): a strategy whose child ended (out of
    memory included), that ran out of time or that raised is told so in the same words."""
    game = game_of(load_edition(name))
    said = {"memory": games_messages.strategy_crashed("mine"), "crashed": games_messages.strategy_crashed("mine"),
            "timeout": games_messages.strategy_too_slow("mine", 1.0),
            "error": games_messages.strategy_raised("mine", {"type": "ValueError", "message": "no"}, "hog.py")}
    for status, words in said.items():
        with pytest.raises(analysis.AnalysisError) as raised:
            game.tabulate(Replying(status), "mine", seconds=1.0)  # type: ignore[arg-type]
        assert str(raised.value) == words, status


def test_the_final_strategy_is_graded_with_its_exact_win_rate(edition, reference_source):
    report = grade_source(reference_source, edition, problems=[12])
    assert problem(report, 12).note.startswith("exact win rate against always_roll(6): 76.53%")


def test_winrate_command(capsys):
    path = str(kit_root() / "solution" / "boar_brawl")
    assert hogkit(["winrate", path, "--strategy", "boar_strategy", "--json"]) == 0
    rates = json.loads(capsys.readouterr().out)
    assert set(rates) == {"first", "second", "average"} and round(rates["average"], 4) == 0.6763
    assert hogkit(["winrate", path, "--strategy", "lambda s, o: 12"]) == 2
    assert "strategy(0, 0) returned 12" in capsys.readouterr().err
    assert hogkit(["winrate", path, "--strategy", "finel_strategy"]) == 2
    err = capsys.readouterr().err
    assert "finel_strategy names something hog.py does not define" in err and "NameError" not in err.split(":")[1]


def test_optimal_command_writes_a_readable_table(tmp_path, capsys):
    table = tmp_path / "best.py"
    assert hogkit(["optimal", "--edition", "boar_brawl", "--table", str(table)]) == 0
    out = capsys.readouterr().out
    assert "the best response to always_roll(6)" in out and "the minimax strategy" in out
    assert "the best response to always_roll(6) against always_roll(6)" not in out
    text = table.read_text()
    assert text.startswith("# The exact best response to always_roll(6) in boar_brawl")
    names: dict = {}
    exec(compile(text, str(table), "exec"), names)  # a file a student pastes into hog.py
    rows = names[analysis.TABLE_NAME]
    assert len(rows) == 100 and all(len(r) == 100 for r in rows)
    best = np.array([["0123456789X".index(c) for c in r] for r in rows])
    assert names["final_strategy"](3, 97) == best[3, 97]
    model = analysis.build_model(load_edition())
    assert analysis.win_rates(model, best, analysis.constant(model, 6))["average"] > 0.76


def test_a_random_strategy_table_is_never_better_than_the_best_response(boar, boar_best_response):
    _edition, model = boar
    rng = random.Random(5)
    six, response = boar_best_response
    best = analysis.win_rates(model, response, six)["average"]
    for _ in range(3):
        table = np.array([[rng.randint(0, 10) for _ in range(100)] for _ in range(100)])
        assert analysis.win_rates(model, table, six)["average"] <= best


@pytest.mark.slow
def test_pictures_of_a_strategy(tmp_path, capsys):
    """Real axes, a colour bar and a title, as SVG (its text kept as text) or PNG, and small files."""
    import xml.etree.ElementTree as ElementTree

    for kind, words in (("dice", ["sus_strategy: dice rolled", "dice rolled"]),
                        ("win", ["sus_strategy against always_roll(6)", "chance to win"])):
        out = tmp_path / f"{kind}.svg"
        assert hogkit(["picture", "--strategy", "sus_strategy", "--kind", kind, "--out", str(out)]) == 0
        text = out.read_text(encoding="utf-8")
        ElementTree.fromstring(text)  # well-formed
        for word in [*words, "your score", "opponent's score"]:
            assert word in text, word
        assert out.stat().st_size < 200_000
        png = tmp_path / f"{kind}.png"
        assert hogkit(["picture", "--strategy", "sus_strategy", "--kind", kind, "--out", str(png)]) == 0
        assert png.read_bytes().startswith(b"\x89PNG") and png.stat().st_size < 200_000
    against = tmp_path / "against.svg"
    assert hogkit(["picture", "--strategy", "sus_strategy", "--kind", "win", "--against", "always_roll(4)",
                   "--out", str(against)]) == 0
    assert "sus_strategy against always_roll(4)" in against.read_text(encoding="utf-8")
    path = str(kit_root() / "skeleton" / "boar_brawl")
    assert hogkit(["picture", "--strategy", "always_roll", "--path", path, "--out", str(tmp_path / "x.svg")]) == 2
    assert "raised TypeError" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_contest_ranks_exactly_and_lists_invalid_entries(tmp_path, reference_source, capsys):
    start = reference_source.index("def final_strategy(")
    end = reference_source.index("    # END PROBLEM 12", start)

    def entry(body: str) -> str:
        return reference_source[:start] + "def final_strategy(score, opponent_score):\n" + body + "\n" + \
            reference_source[end:]

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "best.py").write_text(reference_source)
    (folder / "sus.py").write_text(entry("    return sus_strategy(score, opponent_score)"))
    (folder / "six.py").write_text(entry("    return 6"))
    (folder / "twin.py").write_text(entry("    return 6"))
    (folder / "bad.py").write_text(entry("    return -1"))
    (folder / "notes.txt").write_text("hello")
    out = tmp_path / "out"
    assert hogkit(["contest", str(folder), "--out", str(out), "--jobs", "2"]) == 0
    printed = capsys.readouterr().out
    assert "1. best" in printed and cli_messages.contest_invalid(["bad"]) in printed
    rows = (out / "leaderboard.csv").read_text().splitlines()
    assert rows[1].startswith("1,best,3,")
    assert rows[2].startswith("2,sus,2,")
    assert {rows[3].split(",")[1], rows[4].split(",")[1]} == {"six", "twin"}  # equal: no match point between them
    assert rows[3].split(",")[0] == rows[4].split(",")[0] == "3"  # and one rank for both
    assert any(r.startswith(",bad,") and "returned -1" in r for r in rows)
    assert not any(",notes," in r for r in rows)  # notes.txt is no entry
    html = (out / "contest.html").read_text()
    assert html.startswith("<!doctype html>") and "http" not in html and html.count("<tr>") == 5
    assert html.count('src="data:image/png;base64,') == 1  # the matrix as a picture, inside the page


@pytest.mark.slow
@pytest.mark.parametrize("name", edition_names())
def test_the_compiled_solver_agrees_with_numpy(name, monkeypatch):
    """Every state's value, both seats, for random strategies and the reference's (with memory, an
    extra turn or a swap where the edition has one): the C loop and the numpy one agree, and so do
    the figures pair_rate gives with a compiler and without one."""
    edition = analysed(name)
    model = analysis.build_model(edition)
    rng = np.random.default_rng(11)
    tables = [rng.integers(0, 11, size=(model.goal, model.goal)) for _ in range(2)]
    tables.append(analysis.reference_table(edition, "final_strategy"))
    assert analysis.compiled_kernel() is not None, "no C compiler found on this machine"
    for first, second in [(tables[0], tables[1]), (tables[2], tables[0]), (tables[1], tables[2])]:
        compiled = analysis.win_tables(model, first, second)
        numpy_only = analysis.numpy_win_tables(model, first, second)
        assert compiled[0].shape == numpy_only[0].shape
        for mine, theirs in zip(compiled, numpy_only, strict=True):
            assert np.abs(mine - theirs).max() < 1e-12
    compiled_rate = analysis.pair_rate(model, tables[2], tables[0])
    monkeypatch.setattr(analysis, "compiled_kernel", lambda: None)  # as on a machine with no C compiler
    assert analysis.pair_rate(model, tables[2], tables[0]) == pytest.approx(compiled_rate, abs=1e-12)


# -- a state beyond the two scores: swine_swap's memory (Feral Hogs) and after rule (Swine Swap) -----


@pytest.fixture(scope="module")
def swine():
    edition = load_edition("swine_swap")
    return edition, analysis.build_model(edition)


def test_the_declared_memory_makes_the_state(swine):
    _, model = swine
    assert model.memory == 14 and model.start == 0 and not model.plain
    assert model.states == 2 * 100 * 100 * 14 * 14
    assert all(not analysis.build_model(load_edition(n)).memory > 1 for n in ("boar_brawl", "more_boar", "pig_tail"))


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "bacon", "swap"), [("", 0.5434, 0.6020), ("no_feral_hogs", 0.5378, 0.5960)])
def test_feral_hogs_on_and_off(swine, variant, bacon, swap):
    edition, _ = swine
    model = analysis.build_model(edition, variant)
    four = analysis.constant(model, 4)
    for strategy, expected in (("bacon_strategy", bacon), ("swap_strategy", swap)):
        rates = analysis.win_rates(model, analysis.reference_table(edition, strategy), four)
        assert round(rates["average"], 4) == expected, strategy


def test_an_unknown_variant_is_refused(swine):
    edition, _ = swine
    with pytest.raises(InputError, match="unknown variant 'no_hogs'.*no_feral_hogs"):
        analysis.build_model(edition, "no_hogs")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_swine_swap_exact_values_agree_with_a_seeded_simulation(swine):
    """20,000 games of the reference's own play, with Feral Hogs and swaps: within four standard errors."""
    edition, model = swine
    exact = analysis.win_rates(model, analysis.reference_table(edition, "swap_strategy"),
                               analysis.constant(model, 4))["first"]
    code = ("import random\nfrom hog import *\nrandom.seed(17)\nwins = 0\n"
            "for _ in range(20000):\n    a, b = play(swap_strategy, always_roll(4))\n    wins += a > b\n"
            "print(wins / 20000)\n")
    done = subprocess.run([sys.executable, "-B", "-c", code], cwd=edition.solution_dir, capture_output=True,
                          text=True, timeout=280)
    simulated = float(done.stdout)
    assert abs(simulated - exact) < 4 * math.sqrt(exact * (1 - exact) / 20000), (simulated, exact)


def _changed(edition, **analysis_keys):
    data = read_toml(edition.suite_dir / "edition.toml")
    data["game"].update(analysis_keys)
    data["game"].pop("variants", None)
    return parse_manifest(data, edition.name, edition.root, edition.suite_dir / "edition.toml")


@pytest.mark.slow
def test_too_few_memory_classes_are_refused(swine):
    edition, _ = swine
    memory = dict(read_toml(edition.suite_dir / "edition.toml")["game"]["memory"], classes=10)
    with pytest.raises(analysis.AnalysisError, match="classes = 10 is too few"):
        analysis.derive_model(edition, kinds.dice_settings(_changed(edition, memory=memory)))


@pytest.mark.slow
def test_an_after_rule_that_lowers_the_sum_is_refused(swine):
    edition, _ = swine
    broken = _changed(edition, after="lambda score, opponent_score: (max(score - 1, 0), opponent_score)")
    with pytest.raises(analysis.AnalysisError, match="lowers the sum of the scores"):
        analysis.derive_model(edition, kinds.dice_settings(broken))


def test_an_after_rule_may_raise_the_sum_as_hog_pile_does():
    """picky_piggy's Hog Pile doubles the mover's total when it ties the opponent's, after the turn's
    points: an after rule that raises the sum. The model's tables grow to hold the doubled totals,
    and always_roll(6)'s exact chance going first against itself is what a plain recursion over the
    card's rules gives."""
    model = analysis.build_model(load_edition("picky_piggy"))
    goal = model.goal
    assert model.size == 2 * (goal - 1) + 1  # a tie at 99 doubles to 198
    sums = {0: 1.0}  # the faces' sums of six dice none of which is a 1
    for _ in range(6):
        rolled: dict[int, float] = {}
        for total, p in sums.items():
            for face in range(2, 7):
                rolled[total + face] = rolled.get(total + face, 0.0) + p / 6
        sums = rolled
    points = {1: 1 - (5 / 6) ** 6, **sums}
    win = np.zeros((goal, goal))  # the mover's chance, at (mover's total, other's total)
    for total in range(2 * goal - 2, -1, -1):
        for a in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
            b = total - a
            for k, p in points.items():
                s = (a + k) * (2 if a + k == b else 1)  # Hog Pile: a tie doubles the mover
                win[a, b] += p * (1.0 if s >= goal else 1.0 - win[b, s])
    six = analysis.constant(model, 6)
    assert analysis.win_rates(model, six, six)["first"] == pytest.approx(win[0, 0], abs=1e-12)


def test_minimax_asks_for_the_plain_state(swine):
    _, model = swine
    with pytest.raises(analysis.AnalysisError, match="two scores"):
        analysis.optimal(model)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_compiled_searches_agree_with_numpy(swine, monkeypatch):
    """Best play of a player who sees the whole state, its second seat, how often a strategy reaches
    each state and a round of improvement: the C loop and numpy give the same tables and figures, on
    swine_swap's rules (memory, swap) cut down to a game to 30 so that numpy's pass stays quick."""
    edition, full_model = swine
    goal = 30
    model = dataclasses.replace(
        full_model, goal=goal, nexts=full_model.nexts[:, :, :goal], zero=full_model.zero[:, :goal, :goal],
        recalls=full_model.recalls[:, :, :goal], zero_recall=full_model.zero_recall[:, :goal, :goal])
    rng = np.random.default_rng(5)
    opponent, mine = (rng.integers(0, 11, size=(goal, goal)) for _ in range(2))

    def searches():
        table, rates = analysis.full_best_response(model, opponent)
        weights = analysis.reach(model, mine, opponent)
        return table, rates, weights, analysis._improved(model, opponent, mine, weights)

    assert analysis.compiled_kernel() is not None
    compiled = searches()
    monkeypatch.setattr(analysis, "compiled_kernel", lambda: None)
    plain = searches()
    assert (compiled[3] == plain[3]).all() and (compiled[3] != mine).any()
    assert compiled[1] == pytest.approx(plain[1], abs=1e-12)
    assert np.abs(compiled[2] - plain[2]).max() < 1e-12 and compiled[2].sum() > 1
    # Where the two best plays differ, both choices are worth the same (a tie within rounding: both
    # win for sure, say), so either is a best play.
    best, later = analysis._tables(model, 2)
    for a, b in analysis._diagonals(goal):
        options = np.stack([analysis._values(model, a, b, np.full(len(a), k), best, later) for k in range(11)])
        best[a, b] = options.max(axis=0)
        later[a, b] = analysis._values(model, a, b, opponent[a, b], later, best)
        for i in range(len(a)):
            differ = compiled[0][a[i], b[i]] != plain[0][a[i], b[i]]
            chosen = np.take_along_axis(options[:, i], compiled[0][a[i], b[i]][None], axis=0)[0]
            assert np.abs(chosen - options[:, i].max(axis=0))[differ].max(initial=0) < 1e-12


@pytest.mark.slow  # Swine Swap's whole state solved, and a round of improvement
def test_the_whole_state_bound_and_one_round_of_improvement(swine):
    """The bound of a player who sees the memories is above every strategy of the scores; a round of
    improvement from swap_strategy keeps only a better strategy."""
    edition, model = swine
    four = analysis.reference_table(edition, "always_roll(4)")
    final = analysis.reference_table(edition, "final_strategy")
    final_rate = analysis.win_rates(model, final, four)["average"]
    full, bound = analysis.full_best_response(model, four)
    assert full.shape == (100, 100, 14, 14) and bound["average"] > final_rate
    weights = analysis.reach(model, final, four)
    assert weights[0, 0, 0, 0] == pytest.approx(0.5) and weights.sum() > 1
    swap = analysis.reference_table(edition, "swap_strategy")
    table, rates, rounds = analysis.score_best_response(model, four, start=swap, rounds=1)
    swap_rate = analysis.win_rates(model, swap, four)["average"]
    assert rounds == 1 and swap_rate < rates["average"] <= bound["average"]
    assert rates == analysis.win_rates(model, table, four) and (table != swap).any()


def test_the_contest_says_how_many_more_stand_below_its_top_ten() -> None:
    from graders.cli import contest_summary
    from graders.core.records import Standing

    board = [Standing(k + 1, f"s{k:02d}", 12 - k, 0.5) for k in range(12)]
    lines = contest_summary(board, [], "out")
    assert len([line for line in lines if "match points" in line]) == 10
    assert cli_messages.leaderboard_more(2) in lines and "s10" not in "\n".join(lines)


def test_the_analysis_reads_the_die_and_the_dice_from_the_game_table():
    """[game] sides and dice are the edition's word: a die or a range of dice the solvers are not
    built for is refused with both named, never answered for the wrong game."""
    edition = load_edition("boar_brawl")
    assert analysis.analysis_settings(edition) == kinds.dice_settings(edition)
    for change in ({"sides": "8"}, {"dice": (1, 10)}):
        other = dataclasses.replace(edition, game=dataclasses.replace(edition.game, **change))
        with pytest.raises(analysis.AnalysisError, match="solves 0 to 10 dice of a 6-sided die only"):
            analysis.analysis_settings(other)


def test_the_probes_show_and_check_a_strategy_in_the_editions_range_of_dice(edition, reference_source):
    """[game] dice reaches the child: a table shows 11 and 12 dice as A and B where the edition
    allows them (anything outside its range as ?), and check_strategy refuses what it does not."""
    from graders.editions.edition import MOST_DICE
    from graders.sandboxing import probes

    assert len(probes.CHOICES) == len(set(probes.CHOICES)) == MOST_DICE + 1  # one character for every choice allowed
    wider = dataclasses.replace(edition, game=dataclasses.replace(edition.game, dice=(1, 12)))
    steps = ["show_strategy(lambda score, opponent: (12, 11, 0)[score], 3)",
             "check_strategy(lambda score, opponent: 12)", "check_strategy(lambda score, opponent: 0)"]
    expected = [(wider, ["  0 BBB\n  1 AAA\n  2 ???\n", "valid\n", "strategy(0, 0) returned 0\n"]),
                (edition, ["  0 ???\n  1 ???\n  2 000\n", "strategy(0, 0) returned 12\n", "valid\n"])]
    for chosen, outputs in expected:
        session = open_session(reference_source, chosen)
        try:
            replies = list(session.steps(steps, analysis.session_setup(session), time.monotonic() + 30))
        finally:
            session.dispose()
        assert [r.output for r in replies] == outputs, chosen.game.dice
