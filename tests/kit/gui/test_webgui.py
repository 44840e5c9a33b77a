"""The web page's server, without a browser: endpoints, bad requests, broken and hostile hog.py files."""

from __future__ import annotations

import http.client
import importlib.util
import json
import os
import random
import re
import shutil
import string
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from graders.core.errors import InputError
from graders.editions.edition import Edition, edition_names, load_edition
from graders.games.game import DiceGame, game_of
from graders.gui import messages as gui_messages
from graders.gui import webgui
from graders.sandboxing import bytecode

from ..conftest import ROOT, Kept, content_digest, replace_function


class Client:
    """A tiny JSON client for one running server."""

    def __init__(self, port: int) -> None:
        self.port = port

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None) -> tuple[int, str, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            reply = conn.getresponse()
            return reply.status, reply.getheader("Content-Type", ""), reply.read()
        finally:
            conn.close()

    def get(self, path: str) -> tuple[int, dict]:
        status, _, data = self.request("GET", path)
        return status, json.loads(data)

    def post(self, body: object, path: str = "/api/play") -> tuple[int, dict]:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        status, _, data = self.request("POST", path, raw, {"Content-Type": "application/json"})
        return status, json.loads(data)


class SolvedOnce:
    """A dice game as ``hogkit play`` hands it to the page, each best-play table it works out kept
    for the rest of the process: every server of these tests shows the same exact figures, worked
    out once per edition and opponent rather than once per server. (A tactic game's best responses
    are solved once per run for the tests that ask for conftest's best_play_solved_once.)"""

    def __init__(self, game: DiceGame) -> None:
        self.game = game
        self.tables = Kept()

    def modelled(self) -> bool:
        return self.game.modelled()

    def tabulate(self, session: object, strategy: str, seconds: float | None = None) -> object:
        return self.game.tabulate(session, strategy, seconds)

    def best_play_table(self, opponent: object) -> object:
        return self.tables.get(content_digest(opponent), lambda: self.game.best_play_table(opponent))


SOLVED: dict[tuple[str, str], SolvedOnce] = {}


def best_play_of(kit: Edition) -> object:
    """The game the page's meter asks, as ``hogkit play`` hands it in (a dice game's tables kept)."""
    game = game_of(kit)
    if not isinstance(game, DiceGame):
        return game
    key = (kit.name, str(kit.root))
    if key not in SOLVED:
        SOLVED[key] = SolvedOnce(game)
    return SOLVED[key]


@contextmanager
def serving(folder: Path, seed: int | None = 4, timeout: float = 5.0) -> Iterator[Client]:
    edition, kit = webgui.find_edition(folder)
    best_play = best_play_of(kit) if kit is not None else None
    game = webgui.PageGame(folder / edition.submission, edition, kit, seed, timeout, best_play)
    server = webgui.make_server(game, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Client(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
        game.close()


def student_copy(tmp_path: Path, edition: Edition, source: str | None = None) -> Path:
    """A student's folder (the skeleton), with SOURCE as hog.py (the reference's by default)."""
    folder = tmp_path / edition.name
    shutil.copytree(edition.skeleton_dir, folder, ignore=shutil.ignore_patterns(".hogkit", "__pycache__"))
    if source is None:
        source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    (folder / edition.submission).write_text(source, encoding="utf-8")
    return folder


def with_gui(name: str) -> Edition:
    """Edition NAME, or a skip when it declares no [gui] (the page is refused for it: test_gamelog.py)."""
    edition = load_edition(name)
    if not edition.gui:
        pytest.skip(f"{name} declares no [gui]: it offers no browser game")
    return edition


@pytest.fixture(scope="module")
def reference_server(edition: Edition) -> Iterator[Client]:
    with serving(edition.solution_dir) as client:
        yield client


def reference_play(edition: Edition, players: list, seed: int, moves: list[int], variant: str = "") -> tuple:
    """The reference's own play, with the page's dice for SEED and MOVES for the people."""
    spec = importlib.util.spec_from_file_location(f"ref_{edition.name}", edition.solution_dir / "hog.py")
    module = importlib.util.module_from_spec(spec)
    support = [name.removesuffix(".py") for name in edition.support]
    others = {name: sys.modules.pop(name) for name in support if name in sys.modules}  # another edition's dice.py
    sys.path.insert(0, str(edition.solution_dir))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(edition.solution_dir))
        for name in support:
            sys.modules.pop(name, None)
        sys.modules.update(others)
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


def reference_tactic_play(edition: Edition, players: list, seed: int, moves: list[int]) -> tuple[int, list[int]]:
    """A tactic game (Pig) played by the reference itself, with the page's dice for SEED (one
    generator for every die, in place of the [gui] die functions) and MOVES (action numbers) for the
    people: (the winner play returns, the final scores, added up from its turn function)."""
    settings = webgui.gamelog.gui_settings(edition)
    path = edition.solution_dir / edition.submission
    spec = importlib.util.spec_from_file_location(f"ref_{edition.name}_tactic", path)
    module = importlib.util.module_from_spec(spec)
    support = [name.removesuffix(".py") for name in edition.support]
    others = {name: sys.modules.pop(name) for name in support if name in sys.modules}  # another edition's dice.py
    sys.path.insert(0, str(edition.solution_dir))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(edition.solution_dir))
        for name in support:
            sys.modules.pop(name, None)
        sys.modules.update(others)
    rng = random.Random(seed)
    queue = list(moves)
    scores, mover = [0, 0], [0]
    for name, sides in settings.die_functions:
        setattr(module, name, lambda sides=sides: rng.randrange(sides) + 1)
    turn = getattr(module, settings.scored_by)

    def scored(*args: object, **kwargs: object) -> int:
        points = turn(*args, **kwargs)
        scores[mover[0]] += points
        return points
    setattr(module, settings.scored_by, scored)

    def player(who: int, kind: str):  # a strategy
        chosen = None if kind == "person" else eval(kind, vars(module))

        def strategy(score: int, opponent: int):  # a tactic
            mover[0] = who
            if chosen is not None:
                return chosen(score, opponent)
            return lambda total: getattr(module, settings.move.actions[queue.pop(0)])
        return strategy
    names = dict(vars(module), strategy0=player(0, players[0]), strategy1=player(1, players[1]))
    return eval(settings.play, names), scores


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


def factory_players(edition: Edition) -> list[str]:
    """Two computer players made by the edition's first strategy factory, with numbers it offers."""
    settings = webgui.gamelog.gui_settings(edition)
    low, high = settings.factory_numbers
    return [f"{settings.factories[0]}({min(max(4, low), high)})", f"{settings.factories[0]}({min(max(6, low), high)})"]


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


# -- starting the server -------------------------------------------------------------------------------


def test_the_solution_and_skeleton_folders_find_their_edition(any_edition: Edition) -> None:
    for folder in (any_edition.solution_dir, any_edition.skeleton_dir):
        edition, kit = webgui.find_edition(folder)
        assert edition.name == any_edition.name and kit is not None and kit.root == ROOT


def test_a_folder_that_is_not_a_project_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(InputError, match="is not a project folder"):
        webgui.find_edition(tmp_path)
    assert webgui.main(tmp_path, ["--no-browser", "--port", "0"]) == 2
    assert "hog_gui.py from the folder that holds hog.py" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "needle"), [
    (["--port", "70000"], "--port must be from 0 to 65535"),
    (["--seed", "-1"], "--seed must be 0 or more"),
    (["--timeout", "0"], "--timeout must be more than 0"),
    (["--colour"], "unrecognized arguments"),
])
def test_bad_options_are_refused(argv: list[str], needle: str, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as info:
        webgui.parse_args(argv)
    assert info.value.code == 2 and needle in capsys.readouterr().err


def test_a_busy_port_says_so(edition: Edition, capsys: pytest.CaptureFixture) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert webgui.main(edition.solution_dir, ["--no-browser", "--port", str(port)]) == 2
    assert f"Port {port} is in use" in capsys.readouterr().err


def start(argv: list[str], cwd: Path, env: dict | None = None) -> tuple[subprocess.Popen, Client]:
    """A server started as a person would start it, on a free port; and a client for it."""
    proc = subprocess.Popen([sys.executable, *argv, "--no-browser", "--port", "0"], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert re.match(r"(Hog|Pig) is running at http://localhost:", line), proc.stderr.read() if not line else line
    return proc, Client(int(line.rsplit(":", 1)[1].strip(" /\n")))


def test_hog_gui_py_runs_from_a_released_bundle(tmp_path: Path, edition: Edition) -> None:
    """The student's own folder: nothing installed, no kit beside it, no meter, a working game."""
    from graders.authoring.bundle import release

    release(edition, tmp_path / "hog")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    proc, client = start(["hog_gui.py", "--seed", "2"], tmp_path / "hog", env)
    try:
        setup = client.get("/api/setup")[1]
        assert setup["meter"] is False and setup["error"] is None and setup["seed"] == 2
        status, view = client.post({"players": ["person", "person"], "moves": []})
        assert status == 200 and "ended the game at 0 to 0" in view["error"]["title"]  # the skeleton's play
        assert client.request("GET", "/static/hog.js")[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_hogkit_play_serves_any_submission_file(tmp_path: Path, edition: Edition, reference_source: str) -> None:
    """An instructor shows a student's strategy in lecture: a bare file, the kit's support files beside it."""
    entry = tmp_path / "alice.py"
    entry.write_text(reference_source.replace("def catch_up(", "def alice_strategy(score, opponent_score):\n"
                                              "    return 4\n\n\ndef catch_up(", 1), encoding="utf-8")
    proc, client = start(["-m", "graders.cli", "play", str(entry), "--seed", "5"], ROOT)
    try:
        setup = client.get("/api/setup")[1]
        assert "alice_strategy" in setup["strategies"] and setup["meter"] is True
        view = client.post({"players": ["alice_strategy", "final_strategy"]})[1]
        assert view["over"] and view["seed"] == 5 and all(t["dice"] == 4 for t in view["turns"] if t["who"] == 0)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_hogkit_play_serves_a_tactic_game(tmp_path: Path) -> None:
    """hogkit play serves pig's game: a bare pig.py with the kit's support files, its meter from the kit."""
    pig = with_gui("pig")
    entry = tmp_path / "bob.py"
    entry.write_text((pig.solution_dir / pig.submission).read_text(encoding="utf-8"), encoding="utf-8")
    proc, client = start(["-m", "graders.cli", "play", str(entry), "--edition", "pig", "--seed", "5"], ROOT)
    try:
        setup = client.get("/api/setup")[1]
        assert setup["move"] == {"kind": "actions", "actions": ["roll", "hold"]} and setup["submission"] == "pig.py"
        view = client.post({"players": ["person", "final_strategy"], "moves": [0, 0]})[1]
        assert view["error"] is None and view["seed"] == 5 and (view["waiting"] or view["over"])
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_hogkit_play_reads_a_submission_as_grading_does(tmp_path: Path, reference_source: str) -> None:
    """What grading accepts, play accepts (a zip of a project), and what grading refuses, play refuses."""
    archive = tmp_path / "alice.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("project/hog.py", reference_source)
    proc, client = start(["-m", "graders.cli", "play", str(archive), "--seed", "5"], ROOT)
    try:
        setup = client.get("/api/setup")[1]
        assert setup["error"] is None and "final_strategy" in setup["strategies"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    binary = tmp_path / "hog.py"
    binary.write_bytes(b"\x7fELF\x00\x01")
    done = subprocess.run([sys.executable, "-m", "graders.cli", "play", str(binary), "--no-browser"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Python refuses to read it" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("argv", "needle"), [
    (["/no/such/hog.py"], "no such file or folder"),
    (["README.md"], "not a Python file"),
    (["--edition", "nope"], "nope"),
    (["--port", "99999"], "--port must be from 0 to 65535"),
])
def test_hogkit_play_refuses_bad_input(argv: list[str], needle: str) -> None:
    done = subprocess.run([sys.executable, "-m", "graders.cli", "play", *argv, "--no-browser"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and needle in done.stderr


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
    import subprocess
    import sys

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
    import subprocess
    import sys

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


# -- the page's own sentences come from gui_messages.PAGE_TEXT -----------------------------------------

HOG_JS = webgui.STATIC / "hog.js"
FALLBACK = "const OFFLINE_TEXT = {"  # the one place hog.js may hold sentences: the server is not there
REGEX_AFTER = set("(,=:[!&|?{};")  # a '/' after one of these starts a regular expression, not a division


def js_literals(source: str) -> list[tuple[int, str]]:
    """Every string and template literal of the JavaScript SOURCE as (offset, text), comments and
    regular expressions skipped; a template's ``${...}`` parts read as ``{}``, and the literals
    inside them are listed too. Enough for the page's plain code, not a full JavaScript lexer."""
    found: list[tuple[int, str]] = []
    _scan_code(source, 0, found, inside_template=False)
    return found


def _scan_code(src: str, i: int, found: list[tuple[int, str]], inside_template: bool) -> int:
    depth, prev = 0, ""
    while i < len(src):
        c = src[i]
        if src.startswith("//", i):
            i = src.find("\n", i) if "\n" in src[i:] else len(src)
            continue
        if src.startswith("/*", i):
            i = src.index("*/", i) + 2
            continue
        if c in "'\"":
            j = i + 1
            while src[j] != c:
                j += 2 if src[j] == "\\" else 1
            found.append((i, src[i + 1:j]))
            i, prev = j + 1, '"'
            continue
        if c == "`":
            i, prev = _scan_template(src, i, found), '"'
            continue
        if c == "/" and (prev in REGEX_AFTER or prev == ""):
            i, prev = _skip_regex(src, i), '"'
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            if inside_template and depth == 0:
                return i + 1
            depth -= 1
        if not c.isspace():
            prev = c
        i += 1
    return i


def _scan_template(src: str, i: int, found: list[tuple[int, str]]) -> int:
    start, text = i, []
    i += 1
    while src[i] != "`":
        if src[i] == "\\":
            text.append(src[i:i + 2])
            i += 2
        elif src.startswith("${", i):
            text.append("{}")
            i = _scan_code(src, i + 2, found, inside_template=True)
        else:
            text.append(src[i])
            i += 1
    found.append((start, "".join(text)))
    return i + 1


def _skip_regex(src: str, i: int) -> int:
    j, in_class = i + 1, False
    while in_class or src[j] != "/":
        if src[j] == "\\":
            j += 1
        elif src[j] in "[]":
            in_class = src[j] == "["
        j += 1
    j += 1
    while j < len(src) and src[j].isalpha():
        j += 1
    return j


def sentences(source: str) -> list[str]:
    """The literals of SOURCE that read as words to a person: three or more space-separated words
    (a placeholder counts as one), outside the fallback constant."""
    start = source.index(FALLBACK)
    end = source.index("\n  };", start)
    return [text for at, text in js_literals(source) if not start <= at < end
            and len([w for w in text.split() if re.search(r"[A-Za-z]|\{\}", w)]) >= 3]


def say_calls(source: str) -> list[tuple[str, set[str]]]:
    """(key, names of the values filled in) for every ``say("key", { name: ... })`` in SOURCE."""
    calls = []
    for match in re.finditer(r"\bsay\(\s*\"(\w+)\"\s*(,\s*\{)?", source):
        names: set[str] = set()
        if match.group(2):
            i, depth, part, parts = match.end(), 0, "", []
            while depth or source[i] != "}":
                depth += (source[i] in "([{") - (source[i] in ")]}")
                if source[i] == "," and not depth:
                    parts.append(part)
                    part = ""
                else:
                    part += source[i]
                i += 1
            names = {p.split(":")[0].strip() for p in [*parts, part] if p.strip()}  # "name: value" or "name"
        calls.append((match.group(1), names))
    return calls


def test_the_sentence_check_finds_sentences_and_only_them() -> None:
    """The scan below can fail: it finds sentences in strings and templates (placeholders count as
    words), and not in comments, regular expressions, selectors or the fallback constant."""
    sample = ('const OFFLINE_TEXT = {\n  a: "The server is not there",\n  };\n'
              '// a comment of many words here\nconst r = /a b c d/g;\n'
              'say("goal", { goal });\nx.closest("select,input,textarea");\n'
              'f("First to win now");\ng(`You win ${score}!`);\nh(`${a} ${f("die")}`);\n')
    assert sentences(sample) == ["First to win now", "You win {}!"]
    assert say_calls(sample) == [("goal", {"goal"})]


def test_hog_js_takes_every_sentence_from_the_table() -> None:
    source = HOG_JS.read_text(encoding="utf-8")
    assert source.count(FALLBACK) == 1 and source.index(FALLBACK) < source.index("function ")  # at the top
    assert sentences(source) == []
    calls = say_calls(source)
    assert len(calls) == len(re.findall(r"(?<!function )\bsay\((?!\))", source))  # every call names its key
    asked = {key for key, _ in calls}
    assert asked == set(gui_messages.PAGE_TEXT), "keys hog.js asks for and PAGE_TEXT's keys differ"
    for key, names in calls:
        wanted = {name for _, name, _, _ in string.Formatter().parse(gui_messages.PAGE_TEXT[key]) if name}
        assert names == wanted, f"say({key!r}) fills {sorted(names)}, PAGE_TEXT[{key!r}] has {sorted(wanted)}"


def test_setup_carries_the_pages_texts(reference_server: Client) -> None:
    assert reference_server.get("/api/setup")[1]["text"] == gui_messages.PAGE_TEXT


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
