"""The exact analysis of a tactic game (Pig's shape): figures pinned, best play by value iteration,
both checked against play, and the analysis commands for it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from graders.cli import main as hogkit
from graders.core.errors import AnalysisError
from graders.editions.edition import edition_names, kit_root, load_edition
from graders.games import reference, tactics
from graders.sandboxing.probes import tactic_row

TACTIC_EDITIONS = [n for n in edition_names() if load_edition(n).game.kind == "tactic"]


@pytest.fixture(scope="module", params=TACTIC_EDITIONS)
def edition(request):
    return load_edition(request.param)


@pytest.mark.slow
def test_pig_figures_are_pinned():
    edition = load_edition("pig")
    model = tactics.build_model(edition)
    baseline = tactics.reference_table(edition, "make_roll_until_strategy(20)")
    final = tactics.reference_table(edition, "final_strategy")
    same = tactics.win_rates(model, baseline, baseline)
    assert same["first"] == pytest.approx(0.49437473289334843, abs=1e-12)
    assert same["first"] + same["second"] == pytest.approx(1.0, abs=1e-12)  # nobody wins an endless game here
    rates = tactics.win_rates(model, final, baseline)
    assert rates["average"] == pytest.approx(0.6664300248181667, abs=1e-12)
    assert rates["first"] == pytest.approx(0.6666698445189135, abs=1e-12)


def test_the_compiled_pair_agrees_with_numpy(edition, monkeypatch):
    """A pair solved from each strategy's turn gains, worked out once (as a contest does): the C loop
    and numpy give the same values at every state, and the same figure as win_rates."""
    from graders.games import analysis, game

    model = tactics.build_model(edition)
    baseline = tactics.reference_table(edition, game.game_of(edition).baseline())
    final = tactics.reference_table(edition, "final_strategy")
    ours, others = tactics.turn_gains(model, final), tactics.turn_gains(model, baseline)
    assert analysis.compiled_kernel() is not None
    compiled = tactics._solve_gains(model, ours, others)
    monkeypatch.setattr(analysis, "compiled_kernel", lambda: None)
    plain = tactics._solve_gains(model, ours, others)
    for mine, theirs in zip(compiled, plain, strict=True):
        assert np.abs(mine - theirs).max() < 1e-12
    assert game.game_of(edition).contest_pair(ours, others) == pytest.approx(
        tactics.win_rates(model, final, baseline)["average"], abs=1e-12)


def test_the_model_reads_the_reference(edition):
    model = tactics.build_model(edition)
    assert 1 not in model.totals and 0 in model.totals  # a 1 ends the turn: no turn total of 1
    assert set(np.unique(model.sides)) <= {4, 6} and model.sides[0, 0] == 4 and model.sides[0, 1] == 6


@pytest.mark.slow
def test_the_exact_rate_agrees_with_seeded_games(edition):
    """The reference's own play, 3000 seeded games: within four standard errors of the exact figure."""
    model = tactics.build_model(edition)
    names = reference.namespace(edition)
    strategy = names["make_roll_until_strategy"](20)
    exact = tactics.win_rates(model, tactics.reference_table(edition, "make_roll_until_strategy(20)"),
                              tactics.reference_table(edition, "make_roll_until_strategy(20)"))["first"]
    random.seed(2024)
    games = 3000
    first_wins = sum(names["play"](strategy, strategy) == 0 for _ in range(games))
    assert abs(first_wins / games - exact) < 4 * (exact * (1 - exact) / games) ** 0.5


def test_a_game_both_players_give_away_is_won_by_nobody(edition):
    model = tactics.build_model(edition)
    hold = model.actions.index("hold")
    always_hold = np.full((model.goal, model.goal, model.width), hold, dtype=np.int8)
    rates = tactics.win_rates(model, always_hold, always_hold)
    assert rates == {"first": 0.0, "second": 0.0, "average": 0.0}


@pytest.mark.slow
def test_holding_at_once_against_a_player_who_rolls_loses(edition):
    model = tactics.build_model(edition)
    always_hold = np.full((model.goal, model.goal, model.width), model.actions.index("hold"), dtype=np.int8)
    baseline = tactics.reference_table(edition, "make_roll_until_strategy(20)")
    assert tactics.win_rates(model, always_hold, baseline)["average"] == pytest.approx(0.0, abs=1e-12)


# -- best play: value iteration, checked by the exact evaluation and by seeded games ---------------

@pytest.fixture(scope="module")
def pig():
    edition = load_edition("pig")
    model = tactics.build_model(edition)
    baseline = tactics.reference_table(edition, "make_roll_until_strategy(20)")
    best, best_values = tactics.best_response(model, baseline)
    optimal, optimal_values = tactics.best_response(model)
    return edition, model, baseline, (best, best_values), (optimal, optimal_values)


@pytest.mark.slow
def test_best_play_figures_are_pinned(pig):
    _edition, model, baseline, (best, best_values), (optimal, optimal_values) = pig
    rates = tactics.win_rates(model, best, baseline)
    assert rates["average"] == pytest.approx(0.6920762315016029, abs=1e-10)
    # Value iteration's own figure and the exact evaluation of the table it chose agree: the
    # best response holds at a turn total of 0 in many states, so this checks the loop's handling.
    assert int((best[:, :, 0] == model.actions.index("hold")).sum()) > 0
    assert best_values[0, 0, 0] == pytest.approx(rates["first"], abs=1e-10)
    assert tactics.win_rates(model, optimal, baseline)["average"] == pytest.approx(0.6700892265187051, abs=1e-10)
    itself = tactics.win_rates(model, optimal, optimal)
    assert itself["first"] == pytest.approx(0.5048255180151787, abs=1e-10)
    assert itself["first"] + itself["second"] == pytest.approx(1.0, abs=1e-12)  # it never plays an endless game
    assert optimal_values[0, 0, 0] == pytest.approx(0.5030823161317154, abs=1e-10)


@pytest.mark.slow
def test_no_strategy_beats_the_best_response(pig):
    edition, model, baseline, (best, _values), (optimal, optimal_values) = pig
    top = tactics.win_rates(model, best, baseline)["average"]
    for expression in ("final_strategy", "make_roll_until_strategy(20)", "make_pride_strategy(5)",
                       "make_die_specific_strategy(9)", "make_roll_until_strategy(25)"):
        other = tactics.reference_table(edition, expression)
        assert tactics.win_rates(model, other, baseline)["average"] < top
        # The optimal strategy is sure of its figure going first, whoever it plays.
        assert tactics.win_rates(model, optimal, other)["first"] >= optimal_values[0, 0, 0] - 1e-12


def _simulate(model, first, second, games: int, seed: int) -> float:
    """The share of GAMES the FIRST table wins against SECOND, played out with a seeded die."""
    rng = random.Random(seed)
    over, gain, after = model.over.tolist(), model.gain.tolist(), model.after.tolist()
    sides, tables = model.sides.tolist(), (first.tolist(), second.tolist())
    wins = 0
    for _ in range(games):
        scores, who, turns = [0, 0], 0, 0
        while max(scores) < model.goal and turns < 10_000:
            a, b = scores[who], scores[1 - who]
            total, choice = 0, tables[who][a][b]
            while True:
                if total >= model.width:  # past every tabulated total: holding wins
                    scores[who] += total
                    break
                action, outcome = choice[total], rng.randint(1, sides[a][b])
                if over[action][total][outcome]:
                    scores[who] += gain[action][total][outcome]
                    break
                total = after[action][total][outcome]
            who, turns = 1 - who, turns + 1
        wins += scores[0] >= model.goal
    return wins / games


@pytest.mark.slow
def test_best_play_agrees_with_seeded_games(pig):
    """The optimal strategy against the baseline, 3000 seeded games: within four standard errors."""
    _edition, model, baseline, _best, (optimal, _values) = pig
    exact = tactics.win_rates(model, optimal, baseline)["first"]
    played = _simulate(model, optimal, baseline, 3000, seed=15)
    assert abs(played - exact) < 4 * (exact * (1 - exact) / 3000) ** 0.5


@pytest.mark.slow
def test_value_iteration_that_does_not_settle_is_refused(pig, monkeypatch):
    _edition, model, baseline, _best, _optimal = pig
    monkeypatch.setattr(tactics, "MOST_ROUNDS", 1)
    with pytest.raises(AnalysisError, match="did not settle at a score sum of 198"):
        tactics.best_response(model, baseline)


# -- the commands ------------------------------------------------------------------------------

PIG = str(kit_root() / "solution" / "pig")


@pytest.mark.slow
def test_winrate_for_a_game_of_tactics(capsys):
    assert hogkit(["winrate", PIG, "--strategy", "final_strategy", "--json"]) == 0
    rates = json.loads(capsys.readouterr().out)
    assert rates["average"] == pytest.approx(0.6664300248181667, abs=1e-10)
    assert hogkit(["winrate", PIG, "--strategy", "final_strategy", "--against", "make_pride_strategy(5)"]) == 0
    assert "final_strategy against make_pride_strategy(5), exactly:" in capsys.readouterr().out
    assert hogkit(["winrate", PIG, "--strategy", "lambda s, o: 5"]) == 2
    assert "strategy(0, 0) returned 5, not a tactic" in capsys.readouterr().err
    assert hogkit(["winrate", PIG, "--strategy", "final_strategy", "--variant", "no_rule"]) == 2
    assert "unknown variant 'no_rule'" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.usefixtures("best_play_solved_once")
def test_optimal_for_a_game_of_tactics(tmp_path, capsys):
    assert hogkit(["optimal", "--edition", "pig"]) == 0
    out = capsys.readouterr().out
    for needle in ("the best response to make_roll_until_strategy(20), playing against it",
                   "average       69.21%", "the optimal strategy against make_roll_until_strategy(20)",
                   "average       67.01%", "the optimal strategy against itself", "going first   50.48%",
                   "at least 50.31% of games going first", "solved in"):
        assert needle in out, needle



@pytest.mark.slow
@pytest.mark.usefixtures("best_play_solved_once")
def test_optimal_writes_the_best_response_as_a_strategy(tmp_path, capsys, pig):
    """The file holds the best response's tactic for every pair of scores, and its final_strategy
    wins exactly as often as the best response itself."""
    edition, model, baseline, (best, _values), _optimal = pig
    path = tmp_path / "best.py"
    assert hogkit(["optimal", "--edition", "pig", "--table", str(path)]) == 0
    assert "paste into pig.py" in capsys.readouterr().out
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# The exact best response to make_roll_until_strategy(20) in pig")
    names = dict(reference.namespace(edition))  # roll and hold, as pig.py defines them
    exec(compile(text, str(path), "exec"), names)
    actions = tuple(names[name] for name in model.actions)
    rows = [tactic_row(names["final_strategy"], actions, a, model.goal, model.totals) for a in range(model.goal)]
    written = tactics.parse_rows(rows, model)
    assert not isinstance(written, str)
    assert tactics.win_rates(model, written, baseline) == pytest.approx(tactics.win_rates(model, best, baseline),
                                                                        abs=1e-12)
    assert names["BEST_RESPONSE"][0][0].startswith("r0 ")  # a turn at 0 to 0 starts by rolling


@pytest.mark.slow
def test_pictures_for_a_game_of_tactics(tmp_path, capsys):
    import xml.etree.ElementTree as ElementTree

    out = tmp_path / "final.svg"
    assert hogkit(["picture", "--edition", "pig", "--strategy", "final_strategy", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    ElementTree.fromstring(text)
    for word in ("final_strategy: its tactic", "turn total 0", "turn total 35", "roll", "hold", "your score",
                 "opponent's score"):
        assert word in text, word
    win = tmp_path / "win.png"
    assert hogkit(["picture", "--edition", "pig", "--strategy", "final_strategy", "--kind", "win",
                   "--out", str(win)]) == 0
    assert win.read_bytes().startswith(b"\x89PNG")
    skeleton = str(kit_root() / "skeleton" / "pig")
    assert hogkit(["picture", "--edition", "pig", "--strategy", "final_strategy", "--path", skeleton,
                   "--out", str(tmp_path / "x.svg")]) == 2
    assert "returned None, not a tactic" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_contest_of_tactics(tmp_path, capsys):
    source = (Path(PIG) / "pig.py").read_text(encoding="utf-8")
    start = source.index("def final_strategy(")

    def entry(body: str) -> str:
        return source[:start] + "def final_strategy(score, opponent_score):\n" + body + "\n\n\n" + \
            source[start:].replace("def final_strategy(", "def _unused(", 1)

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "best.py").write_text(source)
    (folder / "twenty.py").write_text(entry("    return make_roll_until_strategy(20)(score, opponent_score)"))
    (folder / "pride.py").write_text(entry("    return make_pride_strategy(5)(score, opponent_score)"))
    (folder / "five.py").write_text(entry("    return 5"))
    out = tmp_path / "out"
    assert hogkit(["contest", str(folder), "--edition", "pig", "--out", str(out), "--jobs", "2"]) == 0
    assert "1. best" in capsys.readouterr().out
    rows = (out / "leaderboard.csv").read_text().splitlines()
    assert rows[1].startswith("1,best,2,")
    assert [r.split(",")[1] for r in rows[1:4]] == ["best", "pride", "twenty"]
    assert any(r.startswith(",five,") and "returned 5, not a tactic" in r for r in rows)


def test_a_tactic_row_knows_actions_by_identity_and_names_the_first_pair_that_goes_wrong():
    """The probe behind every tactic table: an action is the very function (an equal stand-in is a
    bad value), the first listed wins when one function is listed twice, and a strategy that gives
    no function, or a tactic that answers twice differently, is named at its first pair."""

    def roll(total):
        return total

    def hold(total):
        return total

    class Alike:  # equal to everything, yet not the action itself
        def __eq__(self, other):
            return True

        __hash__ = object.__hash__

    def strategy(score, opponent):
        return lambda total: roll if total < 2 else hold

    assert tactic_row(strategy, (roll, hold), 0, 2, (0, 1, 2)) == "001001"
    assert tactic_row(strategy, (roll, roll, hold), 0, 1, (0, 2)) == "02"
    alike = Alike()
    assert tactic_row(lambda s, o: lambda t: alike if o == 1 else roll, (roll, hold), 3, 2, (0, 1)
                      ) == ("bad", 3, 1, 0, "<Alike object>")
    answers = iter([roll, roll, hold, hold, roll, hold])
    assert tactic_row(lambda s, o: lambda t: next(answers), (roll, hold), 5, 1, (0, 1, 2)) == ("unsteady", 5, 0, 2)
    assert tactic_row(lambda s, o: None if o == 1 else strategy(s, o), (roll, hold), 4, 2, (0,)
                      ) == ("not_a_function", 4, 1, "None")
