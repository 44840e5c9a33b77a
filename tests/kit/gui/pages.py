"""Serving the page in a test: a tiny JSON client, a server over a folder, a student's copy."""

from __future__ import annotations

import http.client
import importlib.util
import json
import random
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from graders.editions.edition import Edition, load_edition
from graders.games.game import DiceGame, game_of
from graders.gui import webgui

from ..conftest import Kept, content_digest


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


def reference_module(edition: Edition, name: str) -> Any:
    """The edition's reference imported in this process as module NAME, beside its own support files
    (another edition's dice.py, already imported, put back after)."""
    spec = importlib.util.spec_from_file_location(name, edition.solution_dir / edition.submission)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    support = [file.removesuffix(".py") for file in edition.support]
    others = {file: sys.modules.pop(file) for file in support if file in sys.modules}
    sys.path.insert(0, str(edition.solution_dir))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(edition.solution_dir))
        for file in support:
            sys.modules.pop(file, None)
        sys.modules.update(others)
    return module


def reference_tactic_play(edition: Edition, players: list, seed: int, moves: list[int]) -> tuple[int, list[int]]:
    """A tactic game (Pig) played by the reference itself, with the page's dice for SEED (one
    generator for every die, in place of the [gui] die functions) and MOVES (action numbers) for the
    people: (the winner play returns, the final scores, added up from its turn function)."""
    settings = webgui.gamelog.gui_settings(edition)
    module = reference_module(edition, f"ref_{edition.name}_tactic")
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


def factory_players(edition: Edition) -> list[str]:
    """Two computer players made by the edition's first strategy factory, with numbers it offers."""
    settings = webgui.gamelog.gui_settings(edition)
    low, high = settings.factory_numbers
    return [f"{settings.factories[0]}({min(max(4, low), high)})", f"{settings.factories[0]}({min(max(6, low), high)})"]


def start(argv: list[str], cwd: Path, env: dict | None = None) -> tuple[subprocess.Popen, Client]:
    """A server started as a person would start it, on a free port; and a client for it."""
    proc = subprocess.Popen([sys.executable, *argv, "--no-browser", "--port", "0"], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert re.match(r"(Hog|Pig) is running at http://localhost:", line), proc.stderr.read() if not line else line
    return proc, Client(int(line.rsplit(":", 1)[1].strip(" /\n")))
