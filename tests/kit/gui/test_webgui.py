"""The web page's server, without a browser: endpoints, bad requests, broken and hostile hog.py files."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.editions.edition import Edition, edition_names, load_edition
from graders.gui import messages as gui_messages
from graders.gui import webgui
from graders.sandboxing import bytecode

from ..conftest import ROOT, replace_function
from .pages import (
    Client,
    factory_players,
    reference_module,
    reference_tactic_play,
    serving,
    start,
    student_copy,
    with_gui,
)


@pytest.fixture(scope="module")
def reference_server(edition: Edition) -> Iterator[Client]:
    with serving(edition.solution_dir) as client:
        yield client


def reference_play(edition: Edition, players: list, seed: int, moves: list[int], variant: str = "") -> tuple:
    """The reference's own play, with the page's dice for SEED and MOVES for the people."""
    module = reference_module(edition, f"ref_{edition.name}")
    rng = random.Random(seed)
    queue = list(moves)

    def person(score: int, opponent: int) -> int:
        return queue.pop(0)

    strategies = [person if p == "person" else eval(p, vars(module)) for p in players]
    names = dict(vars(module), strategy0=strategies[0], strategy1=strategies[1],
                 dice=lambda: rng.randrange(6) + 1, say=module.__dict__.get("silence"))
    settings = webgui.gamelog.gui_settings(edition)
    names["goal"] = settings.goal
    chosen = settings.variant(variant) if variant else settings.variants[0]
    if chosen.update:
        names["update"] = eval(chosen.update, vars(module))
    return tuple(eval(settings.play, names))


def stuck_strategy(source: str, name: str, above: int) -> str:
    """SOURCE with strategy NAME rolling 5, except that it never returns once its score is past ABOVE."""
    return replace_function(source, name, f"def {name}(score, opponent_score):\n"
                                          f"    while score > {above}:\n        pass\n    return 5\n")


# -- endpoints -----------------------------------------------------------------------------------


def test_the_page_and_its_files_are_served(reference_server: Client) -> None:
    for path, kind in [("/", "text/html"), ("/static/hog.js", "text/javascript"), ("/static/hog.css", "text/css")]:
        status, content_type, data = reference_server.request("GET", path)
        assert status == 200 and content_type.startswith(kind) and len(data) > 100
    page = reference_server.request("GET", "/")[2].decode()
    assert "/static/hog.js" in page and "http://" not in page and "https://" not in page  # nothing from elsewhere


def test_setup_lists_what_hog_py_offers(reference_server: Client) -> None:
    status, setup = reference_server.get("/api/setup")
    assert status == 200 and setup["error"] is None and setup["notes"] == []
    assert setup["strategies"] == ["always_roll_5", "catch_up", "boar_strategy", "sus_strategy", "final_strategy"]
    assert setup["factories"] == ["always_roll"] and setup["goal"] == 100 and setup["seed"] == 4
    assert [v["id"] for v in setup["variants"]] == ["full", "simple"] and setup["meter"] is True


@pytest.mark.parametrize("name", edition_names())
def test_a_game_between_strategies_matches_the_reference_play(name: str) -> None:
    edition = with_gui(name)
    players = ["final_strategy", factory_players(edition)[1]]
    tactic = webgui.gamelog.gui_settings(edition).move.by_action
    with serving(edition.solution_dir) as client:
        for seed in (1, 2, 3):
            status, view = client.post({"players": players, "seed": seed, "moves": []})
            assert status == 200 and view["error"] is None and view["over"]
            if tactic:  # play returns the winner; the scores are added up from its turns
                assert (view["winner"], view["scores"]) == reference_tactic_play(edition, players, seed, [])
            else:
                assert tuple(view["scores"]) == reference_play(edition, players, seed, [])
            assert view["winner"] == (0 if view["scores"][0] > view["scores"][1] else 1)
            assert all(t["warnings"] == [] for t in view["turns"])


def test_a_person_plays_one_move_at_a_time(edition: Edition, reference_server: Client) -> None:
    moves: list[int] = []
    chooser = random.Random(5)
    for _ in range(200):
        status, view = reference_server.post({"players": ["person", "always_roll_5"], "seed": 11, "moves": moves,
                                              "variant": "simple"})
        assert status == 200 and view["error"] is None
        if view["over"]:
            break
        assert view["waiting"] and view["next"] == 0 and view["scores"][0] < 100
        assert view["chance"] is None  # the analysis models the full rules only: no meter for the simple ones
        moves.append(chooser.randrange(11))
    else:
        pytest.fail("the game did not end")
    assert tuple(view["scores"]) == reference_play(edition, ["person", "always_roll_5"], 11, moves, "simple")
    assert sum(1 for t in view["turns"] if t["who"] == 0) == len(moves)


def ready_meter(client: Client, players: list[str], seed: int = 3) -> dict:
    """The first move's view once the meter's table is worked out (in the background, so a request
    answers without it until then; on a busy machine that can take a few requests)."""
    for _ in range(120):
        status, view = client.post({"players": players, "seed": seed, "moves": []})
        assert status == 200 and view["waiting"]
        if view["chance"] is not None:
            return view
    pytest.fail("the meter never became ready")


def test_the_meter_is_the_exact_chance_from_the_state(edition: Edition, reference_server: Client) -> None:
    view = ready_meter(reference_server, ["person", "always_roll(6)"])
    analysis = pytest.importorskip("graders.games.analysis")
    model = analysis.build_model(edition)
    always6 = analysis.constant(model, 6)
    first = analysis.win_rates(model, analysis.best_response(model, always6), always6)["first"]
    assert view["chance"] == pytest.approx(first, abs=1e-6) and 0.75 < first < 0.85
    view = ready_meter(reference_server, ["person", "person"])
    assert 0.5 < view["chance"] < 0.6  # going first with best play against best play


def test_a_new_game_without_a_seed_gets_the_next_one(edition: Edition) -> None:
    with serving(edition.solution_dir, seed=20) as client:
        seeds = [client.post({"players": ["always_roll_5", "always_roll_5"], "seed": None})[1]["seed"]
                 for _ in range(3)]
    assert seeds == [20, 21, 22]  # a client that does not number its games: the server's own sequence
    with serving(edition.solution_dir, seed=20) as client:
        pages = [[client.post({"players": ["always_roll_5", "always_roll_5"], "seed": None, "game": k})[1]["seed"]
                  for k in range(3)] for _page in range(2)]
        assert client.get("/api/setup")[1]["seed"] == 20
    assert pages == [[20, 21, 22], [20, 21, 22]]  # every page load replays the same dice
    with serving(edition.solution_dir, seed=None) as client:
        assert client.get("/api/setup")[1]["seed"] is None
        assert type(client.post({"players": ["always_roll_5", "always_roll_5"]})[1]["seed"]) is int


# -- bad requests ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "needle"), [
    (b"{not json", "not valid JSON"),
    (b"\xff\xfe", "not valid JSON"),
    (b"[1, 2]", "JSON object"),
    (json.dumps({"players": ["person", "always_roll_5"], "moves": [12]}).encode(), "Move 1 is 12"),
    (json.dumps({"players": ["person", "always_roll_5"], "moves": [-3]}).encode(), "Move 1 is -3"),
    (json.dumps({"players": ["person", "nothing_strategy"]}).encode(), "'nothing_strategy' is not a strategy"),
    (json.dumps({"players": ["person", "roll_dice"]}).encode(), "'roll_dice' is not a strategy"),
    (json.dumps({"players": ["person", "person"], "variant": "chaos"}).encode(), "Unknown rules 'chaos'"),
])
def test_a_bad_request_is_a_400_that_says_why(reference_server: Client, body: bytes, needle: str) -> None:
    status, reply = reference_server.post(body)
    assert status == 400 and needle in reply["error"]["title"]


def test_unknown_paths_are_404(reference_server: Client) -> None:
    for method, path in [("GET", "/api/nothing"), ("GET", "/../hog.py"), ("POST", "/api/setup")]:
        status, _, data = reference_server.request(method, path, b"{}" if method == "POST" else None)
        assert status == 404 and "Nothing at" in json.loads(data)["error"]["title"]


def test_a_huge_or_unsized_body_is_refused(reference_server: Client) -> None:
    json_type = {"Content-Type": "application/json"}
    status, _, data = reference_server.request("POST", "/api/play", b"x" * 10,
                                               {**json_type, "Content-Length": "999999999"})
    assert status == 413 and "larger than" in json.loads(data)["error"]["title"]
    status, _, data = reference_server.request("POST", "/api/play", b"x", {**json_type, "Content-Length": "lots"})
    assert status == 413


def test_a_deeply_nested_body_is_a_400(reference_server: Client) -> None:
    status, reply = reference_server.post(b"[" * 60000)
    assert status == 400 and "not valid JSON" in reply["error"]["title"]


def test_only_the_pages_own_requests_are_answered(reference_server: Client) -> None:
    """A page elsewhere may post a form or plain text, or reach the server under another host name."""
    body = json.dumps({"players": ["person", "person"]}).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", ""):
        status, _, data = reference_server.request("POST", "/api/play", body, {"Content-Type": kind} if kind else {})
        assert status == 415 and "JSON" in json.loads(data)["error"]["title"]
    for path in ("/api/setup", "/"):
        status, _, data = reference_server.request("GET", path, None, {"Host": "evil.example:31415"})
        assert status == 403 and "localhost" in json.loads(data)["error"]["title"]
    assert reference_server.request("GET", "/api/setup", None, {"Host": "localhost:31415"})[0] == 200


# -- broken and hostile hog.py files --------------------------------------------------------------------


def test_the_skeleton_plays_until_the_unfinished_play_shows(tmp_path: Path, edition: Edition) -> None:
    folder = student_copy(tmp_path, edition, (edition.skeleton_dir / "hog.py").read_text())
    with serving(folder) as client:
        setup = client.get("/api/setup")[1]
        assert setup["error"] is None and "final_strategy" in setup["strategies"]
        assert any(n.startswith("Still to write in hog.py: roll_dice, boar_brawl, take_turn") for n in setup["notes"])
        status, view = client.post({"players": ["person", "always_roll_5"], "moves": []})
        assert status == 200 and "ended the game at 0 to 0" in view["error"]["title"]
        assert "Still to write" in view["error"]["hint"] and "play" in view["error"]["hint"]


def test_an_unfinished_function_is_named_when_the_game_needs_it(tmp_path: Path, edition: Edition,
                                                                 reference_source: str) -> None:
    stub = replace_function(reference_source, "take_turn", '''
        def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
            "*** YOUR CODE HERE ***"
    ''')
    with serving(student_copy(tmp_path, edition, stub)) as client:
        status, view = client.post({"players": ["person", "always_roll_5"], "moves": [3]})
        assert status == 200 and view["error"]["title"] == "simple_update raised TypeError"
        assert "NoneType" in view["error"]["detail"]
        assert view["error"]["hint"].startswith("Still to write in hog.py: take_turn.")


def test_an_error_names_the_function_and_the_server_goes_on(tmp_path: Path, edition: Edition,
                                                            reference_source: str) -> None:
    broken = replace_function(reference_source, "take_turn", '''
        def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
            if num_rolls == 0:
                return boar_brawl(player_score, opponent_score) // 0
            return roll_dice(num_rolls, dice)
    ''')
    with serving(student_copy(tmp_path, edition, broken)) as client:
        status, view = client.post({"players": ["person", "always_roll_5"], "moves": [3, 0]})
        assert status == 200 and not view["over"]
        error = view["error"]
        assert error["title"] == "take_turn raised ZeroDivisionError" and error["function"] == "take_turn"
        assert error["detail"] == "integer division or modulo by zero" and "hog.py" in error["traceback"]
        assert len(view["turns"]) == 3 and view["turns"][-1]["dice"] == 0  # the turns before it are kept
        status, view = client.post({"players": ["person", "always_roll_5"], "moves": [3]})
        assert status == 200 and view["error"] is None and view["waiting"]


@pytest.mark.slow
@pytest.mark.parametrize(("body", "title"), [
    ("while True:\n    pass", "always_roll_5 did not finish in time"),
    ("while True:\n    try:\n        pass\n    except BaseException:\n        pass", "did not finish"),
    ("import os\nos._exit(0)", "ended the program"),
    ("import sys\nsys.exit(3)", "raised SystemExit"),
])
def test_a_hostile_play_costs_one_request_not_the_server(tmp_path: Path, edition: Edition, reference_source: str,
                                                         body: str, title: str) -> None:
    hostile = replace_function(reference_source, "always_roll_5", "def always_roll_5(score, opponent_score):\n"
                               + "\n".join("    " + line for line in body.split("\n")))
    with serving(student_copy(tmp_path, edition, hostile), timeout=1.0) as client:
        status, view = client.post({"players": ["person", "always_roll_5"], "moves": [4]})
        assert status == 200 and title in view["error"]["title"]
        status, view = client.post({"players": ["person", "final_strategy"], "moves": [4]})
        assert status == 200 and view["error"] is None and view["waiting"]


def test_a_syntax_error_is_shown_and_fixing_it_is_picked_up(tmp_path: Path, edition: Edition,
                                                            reference_source: str) -> None:
    folder = student_copy(tmp_path, edition, reference_source.replace("def play(", "def play(:", 1))
    with serving(folder) as client:
        setup = client.get("/api/setup")[1]
        assert any("syntax error" in n and "play was left out" in n for n in setup["notes"])
        status, view = client.post({"players": ["person", "always_roll_5"], "moves": []})
        assert status == 200 and "NameError" in view["error"]["title"] or "play" in view["error"]["title"]
        (folder / "hog.py").write_text(reference_source, encoding="utf-8")  # the student fixes it
        setup = client.get("/api/setup")[1]
        assert setup["notes"] == [] and setup["error"] is None
        status, view = client.post({"players": ["person", "always_roll_5"], "moves": []})
        assert view["error"] is None and view["waiting"]


def test_an_unloadable_file_is_an_error_on_setup(tmp_path: Path, edition: Edition) -> None:
    folder = student_copy(tmp_path, edition, "def (:\n")
    with serving(folder) as client:
        setup = client.get("/api/setup")[1]
        assert "syntax error" in setup["error"]["title"] and "line 1" in setup["error"]["title"]
        status, view = client.post({"players": ["person", "person"], "moves": []})
        assert status == 200 and "syntax error" in view["error"]["title"]
        (folder / "hog.py").write_bytes(b"\xff\xfe\x00")
        assert "Python refuses to read it" in client.get("/api/setup")[1]["error"]["title"]


def test_a_sandbox_that_does_not_start_is_the_kits_failure_and_is_tried_again(
        tmp_path: Path, edition: Edition, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = student_copy(tmp_path, edition)
    broken = tmp_path / "child.py"
    broken.write_text("raise SystemExit(0)\n", encoding="utf-8")
    monkeypatch.setattr(bytecode, "CHILD", broken)
    with serving(folder) as client:
        error = client.get("/api/setup")[1]["error"]
        assert error["title"].startswith("The kit failed to start your code") and "New game" in error["title"]
        monkeypatch.undo()
        setup = client.get("/api/setup")[1]
        assert setup["error"] is None and "final_strategy" in setup["strategies"]


def test_a_strategy_that_returns_nonsense_is_flagged(tmp_path: Path, edition: Edition, reference_source: str) -> None:
    odd = replace_function(reference_source, "catch_up", '''
        def catch_up(score, opponent_score):
            return "5"
    ''')
    with serving(student_copy(tmp_path, edition, odd)) as client:
        status, view = client.post({"players": ["person", "catch_up"], "moves": [2]})
        assert status == 200 and view["error"]["function"] == "take_turn"  # its assert catches the str
        assert "'5', not a number of dice" in view["turns"][-1]["warnings"][0]


def test_printing_is_shown_with_its_turn(tmp_path: Path, edition: Edition, reference_source: str) -> None:
    chatty = replace_function(reference_source, "always_roll_5", '''
        def always_roll_5(score, opponent_score):
            print("DEBUG: my score is", score)
            return 5
    ''')
    with serving(student_copy(tmp_path, edition, chatty)) as client:
        view = client.post({"players": ["always_roll_5", "person"], "moves": []})[1]
        assert view["turns"][0]["printed"] == "DEBUG: my score is 0\n"


def test_commentary_is_shown_when_the_edition_has_it(any_edition: Edition) -> None:
    with_gui(any_edition.name)
    with serving(any_edition.solution_dir) as client:
        setup = client.get("/api/setup")[1]
        view = client.post({"players": factory_players(any_edition), "seed": 1})[1]
    said = "".join(t["commentary"] for t in view["turns"])
    assert setup["commentary"] is bool(said)
    if setup["commentary"]:
        assert "takes the lead" in said
    if setup["move"]["kind"] == "actions":  # a tactic game: the submission's own words on every action
        remarks = [s for t in view["turns"] for a in t["actions"] for s in a["said"]]
        assert remarks and not any(s["kit"] for s in remarks)
        assert {s["text"] for s in remarks if s["spoken"]} == {"chose to roll.", "decided to hold."}


# -- what a review of the page found: each has a test ------------------------------------------------


def test_a_factory_that_is_not_finished_is_not_taken_for_a_person(tmp_path: Path, edition: Edition,
                                                                  reference_source: str) -> None:
    stub = replace_function(reference_source, "always_roll", '''
        def always_roll(n):
            "*** YOUR CODE HERE ***"
    ''')
    with serving(student_copy(tmp_path, edition, stub)) as client:
        for players in (["person", "always_roll(6)"], ["always_roll(4)", "always_roll(6)"]):
            status, view = client.post({"players": players, "moves": []})
            assert status == 200 and not view["waiting"] and not view["over"]
            assert "is always_roll(" in view["error"]["title"] and "gave None, not a strategy" in view["error"]["title"]


def test_setup_tells_the_seed_of_a_new_pages_first_game(edition: Edition) -> None:
    with serving(edition.solution_dir, seed=20) as client:
        assert client.get("/api/setup")[1]["seed"] == 20
        client.post({"players": ["always_roll_5", "always_roll_5"], "seed": None, "game": 0})
        client.post({"players": ["always_roll_5", "always_roll_5"], "seed": 99})  # a seed of its own
        assert client.get("/api/setup")[1]["seed"] == 20  # a page loaded now starts again from --seed


def test_a_strategy_the_meter_cannot_tabulate_does_not_hold_up_the_game(tmp_path: Path, edition: Edition,
                                                                        reference_source: str) -> None:
    slow = stuck_strategy(reference_source, "catch_up", 90)
    with serving(student_copy(tmp_path, edition, slow), seed=1) as client:
        for moves in ([], [3], [3, 4]):
            status, view = client.post({"players": ["person", "catch_up"], "seed": 1, "moves": moves})
            assert status == 200 and view["waiting"] and view["error"] is None and view["chance"] is None
        assert client.get("/api/setup")[1]["error"] is None


def test_a_play_that_swallows_the_stop_does_not_roll_on(tmp_path: Path, edition: Edition,
                                                       reference_source: str) -> None:
    stubborn = replace_function(reference_source, "play", '''
        def play(strategy0, strategy1, update, score0=0, score1=0, dice=six_sided, goal=GOAL):
            who = 0
            while score0 < goal and score1 < goal:
                try:
                    n = (strategy0(score0, score1) if who == 0 else strategy1(score1, score0))
                except BaseException:
                    n = 3
                if who == 0:
                    score0 = update(n, score0, score1, dice)
                else:
                    score1 = update(n, score1, score0, dice)
                who = 1 - who
            return score0, score1
    ''')
    with serving(student_copy(tmp_path, edition, stubborn)) as client:
        status, view = client.post({"players": ["always_roll(2)", "person"], "seed": 4, "moves": []})
        assert status == 200 and view["waiting"] and view["next"] == 1
        assert len(view["turns"]) == 1 and len(view["turns"][0]["rolls"]) == 2 and view["turns"][0]["warnings"] == []


def test_a_strategy_that_raises_keeps_the_scores_it_was_given(tmp_path: Path, edition: Edition,
                                                             reference_source: str) -> None:
    touchy = replace_function(reference_source, "catch_up", '''
        def catch_up(score, opponent_score):
            if score > 20:
                return 1 // 0
            return 5
    ''')
    with serving(student_copy(tmp_path, edition, touchy)) as client:
        status, view = client.post({"players": ["always_roll(3)", "catch_up"], "seed": 2})
        assert view["error"]["title"] == "catch_up raised ZeroDivisionError"
        last = view["turns"][-1]
        assert last["after"] is not None and last["after"][1] > 20 and view["scores"] == last["after"]


def test_a_game_on_the_modules_own_dice_replays_the_same(tmp_path: Path, edition: Edition,
                                                         reference_source: str) -> None:
    """A common bug: take_turn forgets to pass dice on, so six_sided (random) rolls instead."""
    forgetful = reference_source.replace("return roll_dice(num_rolls, dice)", "return roll_dice(num_rolls)", 1)
    assert forgetful != reference_source
    with serving(student_copy(tmp_path, edition, forgetful)) as client:
        short = client.post({"players": ["person", "always_roll_5"], "seed": 6, "moves": [5, 5]})[1]
        longer = client.post({"players": ["person", "always_roll_5"], "seed": 6, "moves": [5, 5, 5]})[1]
        assert longer["turns"][: len(short["turns"])] == short["turns"]


def test_endless_printing_is_cut_and_the_endless_game_named(tmp_path: Path, edition: Edition,
                                                           reference_source: str) -> None:
    chatty = replace_function(reference_source, "play", '''
        def play(strategy0, strategy1, update, score0=0, score1=0, dice=six_sided, goal=GOAL):
            while True:
                print("é" * 5000)
                strategy0(score0, score1)
    ''')
    with serving(student_copy(tmp_path, edition, chatty)) as client:
        status, view = client.post({"players": ["always_roll_5", "always_roll_5"]})
        assert status == 200 and "1000 turns" in view["error"]["title"]
        printed = "".join(t["printed"] for t in view["turns"])
        assert len(printed) <= 64 * 1024 + 1 and printed.count("…") <= 1 and len(view["turns"]) == 1000


def test_a_strategy_choosing_a_huge_number_is_shown_briefly(tmp_path: Path, edition: Edition,
                                                           reference_source: str) -> None:
    greedy = replace_function(reference_source, "catch_up", '''
        def catch_up(score, opponent_score):
            return 10 ** 5000
    ''')
    with serving(student_copy(tmp_path, edition, greedy)) as client:
        view = client.post({"players": ["catch_up", "person"]})[1]
        assert view["error"]["function"] == "take_turn"
        assert view["turns"][0]["warnings"] == ["Player 0's strategy chose <a number with thousands of digits>, "
                                                "not a number of dice from 0 to 10."]


def test_the_page_sets_the_goal_not_the_submission(tmp_path: Path, edition: Edition, reference_source: str) -> None:
    short = reference_source.replace("GOAL = 100", "GOAL = 50", 1)
    with serving(student_copy(tmp_path, edition, short)) as client:
        view = client.post({"players": ["always_roll_5", "final_strategy"], "seed": 1})[1]
        assert view["over"] and max(view["scores"]) >= 100


def test_a_failed_replay_leaves_the_board_to_the_page(tmp_path: Path, edition: Edition, reference_source: str) -> None:
    """A replay that failed as a whole (the program ended) has no turns: the page keeps its own board.
    A loop caught by the game's alarm keeps the turns before it, and names the function."""
    ending = replace_function(reference_source, "always_roll_5", "def always_roll_5(score, opponent_score):\n"
                              "    if score > 10:\n        import os\n        os._exit(0)\n    return 5\n")
    with serving(student_copy(tmp_path / "ends", edition, ending)) as client:
        view = client.post({"players": ["always_roll_5", "person"], "moves": [2, 2, 2, 2, 2, 2]})[1]
        assert "ended the program" in view["error"]["title"] and view["turns"] is None and view["scores"] is None
    stuck = stuck_strategy(reference_source, "always_roll_5", 10)
    # The game's alarm speaks at 80% of the deadline: 3 s leave it 0.6 s to be heard on a loaded machine.
    with serving(student_copy(tmp_path / "loops", edition, stuck), timeout=3.0) as client:
        view = client.post({"players": ["always_roll_5", "person"], "moves": [2, 2, 2, 2, 2, 2]})[1]
        assert view["error"]["title"] == gui_messages.gui_loop("always_roll_5") and view["turns"]


def test_an_unfinished_commentary_is_named_once(tmp_path: Path) -> None:
    edition = load_edition("more_boar")
    source = (edition.solution_dir / "hog.py").read_text(encoding="utf-8")
    stub = replace_function(source, "announce_highest", '''
        def announce_highest(who, last_score=0, running_high=0):
            assert who == 0 or who == 1, 'The who argument should indicate a player.'
            "*** YOUR CODE HERE ***"
    ''')
    with serving(student_copy(tmp_path, edition, stub)) as client:
        view = client.post({"players": ["always_roll(4)", "always_roll(6)"], "seed": 3})[1]
    assert view["over"]
    failures = [w for t in view["turns"] for w in t["warnings"] if "commentary failed" in w]
    assert len(failures) == 1 and "NoneType" in failures[0] and "(in say, line" in failures[0]


@pytest.mark.slow
@pytest.mark.parametrize("name", edition_names())
def test_each_solution_folder_serves_its_own_edition(name: str) -> None:
    edition = with_gui(name)
    launcher = next(f for f in edition.student_files if f.endswith("_gui.py"))  # hog_gui.py, pig_gui.py
    proc, client = start([str(edition.solution_dir / launcher)], ROOT)
    try:
        assert client.get("/api/setup")[1]["title"] == edition.title
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_copy_away_from_the_kit_says_to_use_hogkit_play(tmp_path):
    """A copy of solution/<edition> taken out of the kit cannot find the engine: it says so, and
    names the command that plays any folder."""
    import shutil

    from graders.editions.edition import load_edition

    copy = tmp_path / "mine"
    shutil.copytree(load_edition().solution_dir, copy)
    away = subprocess.run([sys.executable, "-I", "-S", "hog_gui.py", "--no-browser"], cwd=copy, capture_output=True,
                          text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})  # -S: no installed kit either
    assert away.returncode != 0
    assert "cannot find the kit" in away.stderr and "hogkit play PATH" in away.stderr, away.stderr
    found = subprocess.run([sys.executable, "hog_gui.py", "--no-browser"], cwd=copy, capture_output=True,
                           text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})  # the kit installed: not a project
    assert found.returncode != 0 and f"hogkit play {copy}" in found.stderr, found.stderr


def test_a_launcher_outside_a_project_names_its_own_file(tmp_path):
    """pig_gui.py in a folder that is no project: the message names pig.py and pig_gui.py."""
    import shutil

    from graders.editions.edition import load_edition

    copy = tmp_path / "mine"
    shutil.copytree(load_edition("pig").solution_dir, copy)
    found = subprocess.run([sys.executable, "pig_gui.py", "--no-browser"], cwd=copy, capture_output=True,
                           text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert found.returncode != 0
    assert "holds pig.py and tests/" in found.stderr and "python3 pig_gui.py" in found.stderr, found.stderr
    assert "hog.py" not in found.stderr and "hog_gui" not in found.stderr, found.stderr


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_function_stuck_in_a_loop_is_named_on_the_page(tmp_path: Path, edition: Edition,
                                                         reference_source: str) -> None:
    """The README's promise: a function that loops shows on the page with its name, caught by the
    game's own alarm before the request's deadline; the game can go on once it is fixed."""
    stuck = stuck_strategy(reference_source, "always_roll_5", -1)  # never returns at all
    with serving(student_copy(tmp_path, edition, stuck), seed=1, timeout=3.0) as client:
        status, view = client.post({"players": ["always_roll_5", "always_roll_5"], "seed": 1, "moves": []})
    assert status == 200 and view["error"] is not None
    assert view["error"]["title"] == gui_messages.gui_loop("always_roll_5"), view["error"]
    assert view["error"]["function"] == "always_roll_5"


def test_setup_carries_the_pages_texts(reference_server: Client) -> None:
    assert reference_server.get("/api/setup")[1]["text"] == gui_messages.PAGE_TEXT


def descendants(pid: int) -> set[int]:
    """The live processes below PID (children, theirs, ...), zombies left out."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    found, todo = set(), [pid]
    while todo:
        here = todo.pop()
        for child, parent in parents.items():
            if parent == here and child not in found:
                found.add(child)
                todo.append(child)
    return found


def still_running(pids: set[int]) -> set[int]:
    running = set()
    for pid in pids:
        try:
            if (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]) != "Z":
                running.add(pid)
        except OSError:
            pass
    return running


SPINNER = """
import os as _os
if _os.fork() == 0:  # a grandchild of the server that spins until someone ends it
    while True:
        pass
"""


@pytest.mark.timeout(120)
@pytest.mark.parametrize("level", ["limits", "default"])
@pytest.mark.parametrize("stop", ["SIGTERM", "SIGHUP"])
def test_a_stopped_server_ends_its_children_and_removes_its_folders(tmp_path: Path, edition: Edition,
                                                                    reference_source: str, level: str,
                                                                    stop: str) -> None:
    """Attack: hog.py forks a process that spins forever, and the game server is stopped by SIGTERM
    (a process manager) or SIGHUP (its terminal closed) rather than Ctrl+C: the server died at
    once, the spinning child ran on (up to its CPU limit, an hour, under ``limits``) and the
    staging folders stayed in the temporary folder.

    Guarantee: either signal stops the server as Ctrl+C does, under both isolation levels: it
    says it stopped, exits 0, no process it started is left, and its temporary folder is empty.
    """
    import signal as signals
    import time

    entry = tmp_path / "alice.py"
    entry.write_text(reference_source + SPINNER, encoding="utf-8")
    import tempfile

    temporary = Path(tempfile.mkdtemp(prefix="hogkit-stop-"))  # where the child's user may go: not in tmp_path
    temporary.chmod(0o755)
    env = {**os.environ, "TMPDIR": str(temporary)}
    env.pop("HOGKIT_ISOLATION", None)
    if level == "limits":
        env["HOGKIT_ISOLATION"] = "limits"
    proc, client = start(["-m", "graders.cli", "play", str(entry), "--seed", "5"], ROOT, env)
    try:
        status, setup = client.get("/api/setup")  # the child is started, hog.py loaded, the spinner forked
        assert status == 200 and setup["error"] is None, setup
        started = descendants(proc.pid)
        assert started and any(temporary.iterdir())
        proc.send_signal(getattr(signals, stop))
        assert proc.wait(timeout=60) == 0
        assert gui_messages.gui_stopped() in proc.stdout.read()
        deadline = time.monotonic() + 10
        while still_running(started) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert still_running(started) == set()
        assert list(temporary.iterdir()) == []
    finally:
        proc.kill()
        proc.wait(timeout=30)
        proc.stdout.close()
        proc.stderr.close()
        shutil.rmtree(temporary, ignore_errors=True)
