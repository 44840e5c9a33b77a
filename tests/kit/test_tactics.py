"""The exact analysis of a tactic game (Pig's shape): figures pinned, and checked against play."""

from __future__ import annotations

import random

import numpy as np
import pytest

from graders import reference, tactics
from graders.edition import edition_names, load_edition

TACTIC_EDITIONS = [n for n in edition_names() if load_edition(n).game.turn == "tactic"]


@pytest.fixture(scope="module", params=TACTIC_EDITIONS)
def edition(request):
    return load_edition(request.param)


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


def test_the_model_reads_the_reference(edition):
    model = tactics.build_model(edition)
    assert 1 not in model.totals and 0 in model.totals  # a 1 ends the turn: no turn total of 1
    assert set(np.unique(model.sides)) <= {4, 6} and model.sides[0, 0] == 4 and model.sides[0, 1] == 6


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


def test_holding_at_once_against_a_player_who_rolls_loses(edition):
    model = tactics.build_model(edition)
    always_hold = np.full((model.goal, model.goal, model.width), model.actions.index("hold"), dtype=np.int8)
    baseline = tactics.reference_table(edition, "make_roll_until_strategy(20)")
    assert tactics.win_rates(model, always_hold, baseline)["average"] == pytest.approx(0.0, abs=1e-12)
