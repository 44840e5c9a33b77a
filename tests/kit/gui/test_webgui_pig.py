"""The web page's server for a tactic game (Pig): a move is an action, asked before each one."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.editions.edition import Edition
from graders.gui import messages as gui_messages

from ..conftest import replace_function
from .pages import Client, factory_players, reference_tactic_play, serving, student_copy, with_gui

# -- a tactic game (Pig): a move is an action, asked before each one ----------------------------------


@pytest.fixture(scope="module")
def pig() -> Edition:
    return with_gui("pig")


@pytest.fixture(scope="module")
def pig_server(pig: Edition) -> Iterator[Client]:
    with serving(pig.solution_dir) as client:
        yield client


def hold_at(total: int) -> object:
    return lambda view: 1 if view["turn_total"] >= total else 0


def act_to_the_end(client: Client, players: list[str], seed: int, choose: object) -> tuple[dict, list[int]]:
    """A whole game through the API, a person's action chosen from each view by CHOOSE."""
    moves: list[int] = []
    for _ in range(3000):
        status, view = client.post({"players": players, "seed": seed, "moves": moves})
        assert status == 200 and view["error"] is None, view["error"]
        if not view["waiting"]:
            return view, moves
        assert view["next"] == players.index("person") or players == ["person", "person"]
        moves.append(choose(view))  # type: ignore[operator]
    pytest.fail("the game did not end")


@pytest.mark.slow
@pytest.mark.usefixtures("best_play_solved_once")
def test_pig_is_played_one_action_at_a_time(pig: Edition, pig_server: Client) -> None:
    status, view = pig_server.post({"players": ["person", "final_strategy"], "seed": 5, "moves": []})
    assert status == 200 and view["waiting"] and view["next"] == 0 and view["turn_total"] == 0
    assert view["die"] == 4 and view["scores"] == [0, 0]  # 0 + 0 is a multiple of 7: the 4-sided die
    rolled = pig_server.post({"players": ["person", "final_strategy"], "seed": 5, "moves": [0]})[1]
    outcome = rolled["current"]["actions"][0]["outcomes"][0] if rolled["current"] else 1
    assert rolled["turn_total"] == (0 if outcome == 1 else outcome)
    view, moves = act_to_the_end(pig_server, ["person", "final_strategy"], 5, hold_at(12))
    assert view["over"] and max(view["scores"]) >= 100
    assert (view["winner"], view["scores"]) == reference_tactic_play(pig, ["person", "final_strategy"], 5, moves)
    assert all(t["warnings"] == [] for t in view["turns"])
    assert {a["action"] for t in view["turns"] for a in t["actions"]} == {"roll", "hold"}
    assert all(set(a["sides"]) <= {4, 6} and len(a["outcomes"]) == 1 for t in view["turns"] for a in t["actions"])


@pytest.mark.slow
@pytest.mark.usefixtures("best_play_solved_once")
def test_two_people_play_pig(pig: Edition, pig_server: Client) -> None:
    view, moves = act_to_the_end(pig_server, ["person", "person"], 8, hold_at(15))
    assert view["over"]
    assert (view["winner"], view["scores"]) == reference_tactic_play(pig, ["person", "person"], 8, moves)


def test_the_setup_offers_the_actions_and_the_file(pig_server: Client) -> None:
    setup = pig_server.get("/api/setup")[1]
    assert setup["move"] == {"kind": "actions", "actions": ["roll", "hold"]} and setup["submission"] == "pig.py"
    assert setup["factories"] == ["make_roll_until_strategy"] and setup["factory_numbers"] == [5, 30]
    assert "final_strategy" in setup["strategies"] and setup["default_opponent"] == "final_strategy"
    # [gui] hidden: a strategy that asks a person at the keyboard is never offered, nor accepted.
    assert "interactive_strategy" not in setup["strategies"]
    status, view = pig_server.post({"players": ["interactive_strategy", "final_strategy"], "seed": 1})
    assert status == 400 and "interactive_strategy" in json.dumps(view)


@pytest.mark.parametrize(("moves", "needle"), [([2], "a move is the number of an action"), ([0.5], "Move 1 is 0.5")])
def test_a_bad_action_is_a_400(pig_server: Client, moves: list, needle: str) -> None:
    status, reply = pig_server.post({"players": ["person", "final_strategy"], "moves": moves})
    assert status == 400 and needle in reply["error"]["title"]


def pig_source(pig: Edition) -> str:
    return (pig.solution_dir / pig.submission).read_text(encoding="utf-8")


def test_a_broken_describe_action_is_said_in_the_kits_words(tmp_path: Path, pig: Edition) -> None:
    broken = replace_function(pig_source(pig), "describe_action", '''
        def describe_action(action):
            return {}[action]
    ''')
    broken = replace_function(broken, "draw_number", '''
        def draw_number(n, dot='*'):
            "*** YOUR CODE HERE ***"
    ''')
    with serving(student_copy(tmp_path, pig, broken)) as client:
        view = client.post({"players": factory_players(pig), "seed": 2})[1]
    assert view["over"] and view["error"] is None
    warnings = [w for t in view["turns"] for w in t["warnings"]]
    assert len(warnings) == 2  # each failure said once a game
    assert any("describe_action(action) raised KeyError" in w and "its own words" in w for w in warnings)
    assert any("draw_number(outcome) returned None, not a str" in w for w in warnings)
    said = [s for t in view["turns"] for a in t["actions"] for s in a["said"]]
    assert said and all(s["kit"] and s["spoken"] for s in said)
    assert {s["text"] for s in said} == {gui_messages.gui_action_said("roll"), gui_messages.gui_action_said("hold")}


def test_a_raising_roll_is_named_and_the_server_goes_on(tmp_path: Path, pig: Edition) -> None:
    broken = replace_function(pig_source(pig), "roll", '''
        def roll(turn_total, outcome):
            return 1 // (outcome - outcome)
    ''')
    folder = student_copy(tmp_path, pig, broken)
    with serving(folder) as client:
        status, view = client.post({"players": ["person", "final_strategy"], "moves": [0]})
        assert status == 200 and view["error"]["title"] == "roll raised ZeroDivisionError"
        assert "pig.py" in view["error"]["hint"]
        (folder / "pig.py").write_text(pig_source(pig), encoding="utf-8")  # fixed
        status, view = client.post({"players": ["person", "final_strategy"], "moves": [0]})
        assert status == 200 and view["error"] is None and view["waiting"]


@pytest.mark.parametrize(("name", "code", "needle"), [
    ("play", '''
        def play(strategy, opponent_strategy):
            import os
            os._exit(3)
    ''', "ended the program"),
    ("take_turn", '''
        def take_turn(plan, dice=six_sided, who=None, comments=False):
            while True:
                pass
    ''', "take_turn did not finish in time"),
    ("play", '''
        def play(strategy, opponent_strategy):
            take_turn(strategy(0, 0), four_sided)
            return 0
    ''', "before either player reached 100"),
    ("play", '''
        def play(strategy, opponent_strategy):
            score = 0
            while score < goal:
                score += take_turn(strategy(score, 0), six_sided)
            return 1
    ''', "by the scores the winner is 0"),
])
def test_a_hostile_or_wrong_pig_py_costs_one_request(tmp_path: Path, pig: Edition, name: str, code: str,
                                                      needle: str) -> None:
    with serving(student_copy(tmp_path, pig, replace_function(pig_source(pig), name, code)), timeout=3.0) as client:
        status, view = client.post({"players": factory_players(pig), "seed": 1})
        assert status == 200 and needle in view["error"]["title"], view["error"]
        assert client.get("/api/setup")[0] == 200  # the server lives


def test_a_take_turn_on_its_own_die_is_flagged(tmp_path: Path, pig: Edition) -> None:
    """The page's dice replace the module's four_sided and six_sided: a turn rolled on another die
    (take_turn's own default) is named, never silently shown."""
    source = replace_function(pig_source(pig), "play", '''
        def play(strategy, opponent_strategy):
            score, opponent_score, who = 0, 0, 0
            while score < goal and opponent_score < goal:
                if who == 0:
                    score += take_turn(strategy(score, opponent_score))
                else:
                    opponent_score += take_turn(opponent_strategy(opponent_score, score))
                who = 1 - who
            return 0 if score >= goal else 1
    ''')
    with serving(student_copy(tmp_path, pig, source)) as client:
        view = client.post({"players": factory_players(pig), "seed": 1})[1]
    assert view["over"]
    assert any("none of the page's dice" in w for w in view["turns"][0]["warnings"])


def test_the_pig_meter_reads_the_best_response_values(monkeypatch: pytest.MonkeyPatch, pig: Edition) -> None:
    """The meter's plumbing for a tactic game: the waiting person's chance is the value
    tactics.best_response gives at (score, opponent's score, turn total), against the opponent's
    strategy as tabulated from pig.py (a stand-in gives the values here: they name their state)."""
    tactics = pytest.importorskip("graders.games.tactics")
    numpy = pytest.importorskip("numpy")
    asked: list[object] = []

    def best_response(model: object, opponent: object) -> tuple:
        asked.append(opponent)
        goal, width = model.goal, model.width  # type: ignore[attr-defined]
        a, b, t = numpy.meshgrid(numpy.arange(goal), numpy.arange(goal), numpy.arange(width), indexing="ij")
        values = (a * 10_000 + b * 100 + t) / 1e6
        return numpy.zeros_like(values, dtype=numpy.int8), values
    monkeypatch.setattr(tactics, "best_response", best_response, raising=False)
    with serving(pig.solution_dir) as client:
        for moves in ([], [0], [0, 0], [0, 0, 1]):
            for _ in range(60):
                view = client.post({"players": ["person", "make_roll_until_strategy(20)"], "seed": 6,
                                    "moves": moves})[1]
                if view["chance"] is not None:
                    break
            me, them = view["scores"][view["next"]], view["scores"][1 - view["next"]]
            assert view["chance"] == pytest.approx((me * 10_000 + them * 100 + view["turn_total"]) / 1e6)
        view = client.post({"players": ["person", "person"], "seed": 6, "moves": []})[1]
        for _ in range(60):
            if view["chance"] is not None:
                break
            view = client.post({"players": ["person", "person"], "seed": 6, "moves": []})[1]
    assert asked[0] is not None and asked[0].shape == (100, 100, 106)  # make_roll_until_strategy(20), tabulated
    assert any(a is None for a in asked)  # two people: best play against best play


@pytest.mark.slow
@pytest.mark.usefixtures("best_play_solved_once")
def test_the_pig_meter_is_the_exact_chance_with_best_play(pig: Edition) -> None:
    """The real figures: a person about to start against make_roll_until_strategy(20) wins 69.24%
    with best play (the best response's own exact figure going first); two people at the start, the
    chance best play is sure of, 50.31%."""
    tactics = pytest.importorskip("graders.games.tactics")
    model = tactics.build_model(pig)
    baseline = tactics.reference_table(pig, "make_roll_until_strategy(20)")
    first = tactics.win_rates(model, tactics.best_response(model, baseline)[0], baseline)["first"]
    with serving(pig.solution_dir) as client:
        for players, figure in ((["person", "make_roll_until_strategy(20)"], first), (["person", "person"], 0.503082)):
            for _ in range(120):
                view = client.post({"players": players, "seed": 6, "moves": []})[1]
                if view["chance"] is not None:
                    break
            assert view["chance"] == pytest.approx(figure, abs=1e-6)
