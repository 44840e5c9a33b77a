"""Web GUI: play Hog in a browser, every game run by the student's own ``hog.py``.

Contract: :func:`main` serves one project folder (``hog_gui.py`` calls it; ``hogkit play`` serves
any submission with the kit's own support files) on localhost with the
standard library's HTTP server: the page (``gui_static/``), ``GET /api/setup`` and
``POST /api/play``. Student code never runs in this process: a sandboxed child (see
:mod:`graders.sandboxing.sandbox`) holds ``hog.py`` and replays each game from the start with the probe
``gui_game``, the people's moves so far and the game's seed, under a deadline; a child that hangs,
raises or ends itself costs that request an error on the page, never the server. The child is
started again whenever ``hog.py`` changes, so the page always plays the latest code. Requests are
checked by :func:`graders.gui.gamelog.parse_request` before anything reaches the child, and what comes
back is plain data turned into the page's view by :func:`graders.gui.gamelog.game_view`. The setup
also carries the game's move, once (:meth:`graders.gui.moves.Move.described`: the page's script picks
its functions by its kind), and the page's own sentences (:data:`graders.gui.messages.PAGE_TEXT`).

Where the kit's exact analysis is at hand (``hogkit play`` hands in the edition's game, with numpy
and the edition's reference solution), a view
waiting for a person carries ``chance``: that person's exact chance to win from there with best
play, against the computer's strategy as tabulated from ``hog.py`` (or against best play, when
the opponent is a person too).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import errno
import hashlib
import importlib.util
import json
import secrets
import signal
import sys
import threading
import time
import webbrowser
from collections.abc import Callable
from concurrent.futures import Future
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Protocol

from graders.core import syntax
from graders.core.errors import EditionError, HogkitError, InputError
from graders.editions.edition import (
    EDITIONS,
    NAME,
    Edition,
    kit_root,
    load_edition,
    load_student_edition,
    student_manifest,
)
from graders.editions.markers import YOUR_CODE
from graders.gui import gamelog
from graders.gui import messages as gui_messages
from graders.gui.gamelog import GameRequest, GuiSettings, RequestError, error_record
from graders.gui.serveroptions import DEFAULT_PORT, DEFAULT_TIMEOUT, add_options, check_options
from graders.sandboxing.repairs import repair
from graders.sandboxing.sandbox import Limits, LoadError, SandboxError, Session, open_session, sorted_notes
from graders.scoring.submissions import read_entry

STATIC = Path(__file__).with_name("gui_static")
PAGES = {"/": "index.html", "/index.html": "index.html", "/static/hog.css": "hog.css", "/static/hog.js": "hog.js"}
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8"}
MOST_BODY = 64 * 1024
LOOPBACK = ("127.0.0.1", "localhost", "::1")
METER_WAIT = 1.0  # seconds a request waits for the meter's table before answering without it
# A long-lived child plays many games: its CPU limit covers them all, each game has its deadline.
GUI_LIMITS = Limits(cpu_seconds=3600)


def launcher_name() -> str:
    """The program the student ran (hog_gui.py, pig_gui.py), for messages; hog_gui.py otherwise."""
    name = Path(sys.argv[0]).name
    return name if name.endswith("_gui.py") else "hog_gui.py"


def find_edition(folder: Path, launcher: str = "hog_gui.py") -> tuple[Edition, Edition | None]:
    """(the folder's edition, the kit's edition when the kit is at hand) for a student copy
    (``tests/edition.json`` inside) or a solution folder of the kit (``solution/<edition>``);
    LAUNCHER names the program for the message when FOLDER is neither."""
    if student_manifest(folder) is not None:
        edition = load_student_edition(folder)
        try:
            kit = load_edition(edition.name, kit_root())
        except EditionError:
            kit = None
        return edition, kit
    root = folder.parent.parent
    if folder.parent.name == "solution" and (root / EDITIONS / folder.name / "edition.toml").is_file():
        kit = load_edition(folder.name, root)
        # The solution folder's own files are the submission and its support files.
        return dataclasses.replace(kit, support_dir=folder), kit
    raise InputError(gui_messages.gui_not_a_project(str(folder), launcher))


def unfinished_functions(tree: ast.Module) -> list[str]:
    """The functions that still hold the skeleton's placeholder line, in the order they appear."""
    placeholder = syntax.literal_eval(YOUR_CODE)
    return [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and any(
        isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and s.value.value == placeholder
        for s in node.body)]


ALARM_SHARE = 0.8  # of a request's deadline, after which the game names the function still running


class Chances(Protocol):
    """A best-play table (:class:`graders.games.game.Chances`): the mover's exact chance to win from
    one state, read by the kind of game that worked it out."""

    def chance(self, mine: int, theirs: int, total: int) -> float | None:
        ...


class BestPlay(Protocol):
    """What the meter asks of the edition's game (:class:`graders.games.game.Game`, handed in by the
    instructor's side: the page's own modules never import the analysis)."""

    def modelled(self) -> bool:
        ...

    def tabulate(self, session: Session, strategy: str, seconds: float | None = None) -> Any:
        ...

    def best_play_table(self, opponent: Any) -> Chances:
        ...


class PageGame:
    """The page's game over one submission: the state its requests share (the submission's child,
    the strategies it offers, the meter's tables), each game replayed in the child from its seed."""

    def __init__(self, submission: Path, edition: Edition, kit: Edition | None, seed: int | None = None,
                 timeout: float = DEFAULT_TIMEOUT, best_play: BestPlay | None = None) -> None:
        self.submission, self.edition, self.kit = submission, edition, kit
        self.best_play = best_play  # the kit's game, handed in by ``hogkit play``: the meter's source
        self.settings: GuiSettings = gamelog.gui_settings(edition)
        self._hint = gamelog.fix_hint(self.settings)
        self.base_seed, self.timeout = seed, timeout
        self._games = 0
        self._lock = threading.Lock()
        self._session: Session | None = None
        self._digest = ""
        self._notes: list[str] = []
        self._error: dict | None = None
        self._strategies: list[str] = []
        self._unfinished: list[str] = []
        self._tables: dict[tuple[str, str], Future[Chances]] = {}
        self._source = ""  # hog.py as loaded into the child (after any syntax repair)
        self._helpers: dict[int, Session] = {}  # children tabulating strategies for the meter, by id
        self._closed = False

    # -- the submission's child ------------------------------------------------------------------
    def _refresh(self) -> None:
        """Start (or restart) the child when hog.py changed since the last request."""
        source, _status, why = read_entry(self.submission, self.edition.submission)  # as grading reads it
        if source is None:
            self._stop_child()
            self._digest, self._notes = "", []
            self._error = error_record(why, hint=self._hint)
            return
        digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
        if digest == self._digest and (self._session is not None or self._error is not None):
            return
        self._stop_child()
        self._digest, self._notes, self._error, self._strategies, self._unfinished = digest, [], None, [], []
        self._tables = {k: job for k, job in self._tables.items() if not k[0]}  # keep tables of no code
        name = self.edition.submission
        fixed, tree, removals = repair(source, name)
        if tree is None:
            r = removals[-1] if removals else None
            title = gui_messages.gui_syntax_error(name, r.line if r else 0, r.message if r else "")
            self._error = error_record(title, hint=self._hint)
            return
        self._notes = [gui_messages.gui_syntax_repaired(name, r.line, r.message, r.name) for r in removals]
        self._source = fixed
        self._unfinished = unfinished_functions(tree)
        if self._unfinished:
            self._notes.append(gui_messages.gui_unfinished(self._unfinished, self.edition.submission))
        try:
            self._session = open_session(fixed, self.edition, GUI_LIMITS)
        except LoadError:
            self._error = error_record(gui_messages.gui_not_loaded(name), hint=self._hint)
            return
        except SandboxError as exc:
            self._error = error_record(gui_messages.gui_kit_failed(str(exc)))
            self._digest = ""  # the kit's failure, not the file's: the next request tries again
            return
        self._notes += sorted_notes(name, self._session)
        reply = self._run("strategy_names(__submission__)")
        if isinstance(reply, list):
            hidden = self.settings.hidden
            self._strategies = [s for s in reply if isinstance(s, str) and NAME.match(s) and s not in hidden]
        elif isinstance(reply, dict):
            self._notes.append(reply["title"])

    def _run(self, expression: str) -> object:
        """EXPRESSION's plain value in the child, or an error dict (timeout, crash, exception)."""
        if self._session is None:
            return self._error or error_record(gui_messages.gui_not_loaded(self.edition.submission), hint=self._hint)
        setup = f"import {self.edition.module} as __submission__"
        try:
            replies = list(self._session.steps([expression], setup, time.monotonic() + self.timeout))
        except SandboxError as exc:  # a fresh child would not start: the kit's failure, said as such
            self._stop_child()
            self._digest = ""  # so that the next request tries again from the start
            return error_record(gui_messages.gui_kit_failed(str(exc)))
        reply = replies[0]
        if reply.status == "timeout":
            return error_record(gui_messages.gui_timed_out(self.timeout), hint=self._hint)
        if reply.status == "crashed":
            return error_record(gui_messages.gui_crashed(), hint=self._hint)
        if reply.status == "error":
            err = reply.error or {}
            return error_record(gui_messages.gui_raised(str(err.get("function") or ""), str(err.get("type", ""))),
                                str(err.get("message", "")), trace=str(err.get("traceback", "")), hint=self._hint)
        return reply.value

    def _stop_child(self) -> None:
        if self._session is not None:
            self._session.dispose()
            self._session = None

    def close(self) -> None:
        """Stop every child: the game's, and any still tabulating a strategy for the meter."""
        with self._lock:
            self._stop_child()
        self._closed = True
        for session in list(self._helpers.values()):
            session.dispose()  # its staging folder too: the process may end before its thread does

    # -- requests ----------------------------------------------------------------------------------
    def setup(self) -> dict:
        with self._lock:
            self._refresh()
            s = self.settings
            return {
                "title": s.title, "goal": s.goal, "sides": s.sides,
                "variants": [{"id": v.id, "name": v.name, "about": v.about} for v in s.variants],
                "strategies": list(self._strategies), "factories": list(s.factories),
                "factory_numbers": list(s.factory_numbers), "submission": s.submission,
                "move": s.move.described(),  # what a person chooses: its kind, and the dice or actions offered
                "default_opponent": s.opponent, "commentary": bool(s.commentary),
                "meter": self._meter_possible(), "seed": self.base_seed,  # a freshly loaded page's first game
                "notes": list(self._notes), "error": self._error,
                "text": dict(gui_messages.PAGE_TEXT),  # the page's own sentences, filled in by hog.js
            }

    def play(self, body: object) -> tuple[int, dict]:
        """(HTTP status, JSON reply) for a ``/api/play`` body."""
        with self._lock:
            self._refresh()
            try:
                request = gamelog.parse_request(body, self.settings, self._strategies, self._next_seed(body))
            except RequestError as exc:
                return HTTPStatus.BAD_REQUEST, {"error": error_record(str(exc))}
            if self._error is not None:
                return HTTPStatus.OK, _stopped(self.settings, request, self._error)
            spec = request.spec(self.settings, seconds=ALARM_SHARE * self.timeout)
            result = self._run(f"gui_game(__submission__, {spec!r})")
            if isinstance(result, dict):  # the whole replay failed: timeout, crash
                return HTTPStatus.OK, _stopped(self.settings, request, result)
            view = gamelog.game_view(self.settings, request, result)
            if view["error"] is not None and self._unfinished:
                unfinished = gui_messages.gui_unfinished(self._unfinished, self.edition.submission)
                view["error"]["hint"] = f"{unfinished} {view['error']['hint'] or ''}".strip()
            if view["waiting"]:
                view["chance"] = self._chance(request, view)
            return HTTPStatus.OK, view

    def _next_seed(self, body: object) -> int:
        """The seed for a request that names none: with --seed, the page's own game number added to
        it (so every page load replays the same dice: its first game --seed, its next --seed + 1,
        ...); otherwise a random one."""
        if isinstance(body, dict) and body.get("seed") is not None:
            return 0  # parse_request reads the body's own seed
        if self.base_seed is None:
            return secrets.randbelow(2**31)
        number = body.get("game") if isinstance(body, dict) else None
        if type(number) is int and 0 <= number < 10**6:
            return self.base_seed + number
        self._games += 1  # a client that does not count its games: the server's own sequence
        return self.base_seed + self._games - 1

    # -- the exact analysis ------------------------------------------------------------------------
    def _meter_possible(self) -> bool:
        if self.kit is None or self.best_play is None or not any(v.exact for v in self.settings.variants):
            return False
        if not self.best_play.modelled():  # a game the exact analysis has no description of
            return False
        if not (self.kit.solution_dir / self.kit.submission).is_file():
            return False
        # The analysis needs numpy (the kit's, not the student bundle's); it is imported by the first
        # table's worker thread, so no request waits for numpy to load.
        return importlib.util.find_spec("numpy") is not None

    def _chance(self, request: GameRequest, view: dict) -> float | None:
        """The waiting person's exact chance to win from the view's state with best play, or None
        while it is being worked out (at most :data:`METER_WAIT` seconds of this request are spent
        waiting for it) or when it cannot be (a strategy the analysis cannot tabulate)."""
        if not request.variant.exact or not self._meter_possible():
            return None
        who = view["next"]
        mine, theirs = view["scores"][who], view["scores"][1 - who]
        total = view.get("turn_total", 0)  # only a view waiting for an action has the points of the turn so far
        if type(mine) is not int or type(theirs) is not int or type(total) is not int:
            return None
        opponent = request.players[1 - who]
        key = ("", opponent) if opponent == gamelog.PERSON else (self._digest, opponent)
        if key not in self._tables:
            self._tables[key] = self._start_table(opponent)
        job = self._tables[key]
        try:
            table = job.result(timeout=METER_WAIT)
        except TimeoutError:
            return None
        except Exception:  # the strategy could not be tabulated: no meter; the game goes on
            return None
        return table.chance(mine, theirs, total)

    def _start_table(self, opponent: str) -> Future[Chances]:
        """Work out, in a thread of its own (and for a strategy, a sandboxed child of its own), the
        table of the chance to win with best play against OPPONENT from every state."""
        job: Future[Chances] = Future()
        source = self._source

        def work() -> None:
            try:
                job.set_result(self._best_play_table(opponent, source))
            except BaseException as exc:  # noqa: BLE001 - whatever went wrong, the meter stays off
                job.set_exception(exc)

        threading.Thread(target=work, daemon=True, name=f"meter {opponent}").start()
        return job

    def _best_play_table(self, opponent: str, source: str) -> Chances:
        """The mover's exact chance to win with best play against OPPONENT (a person: best play
        too) from every state the page shows, worked out by the game handed in."""
        game = self.best_play
        assert game is not None  # the meter is offered only with a game
        theirs = None
        if opponent != gamelog.PERSON:
            theirs = self._tabulated(source, lambda session: game.tabulate(session, opponent))
        return game.best_play_table(theirs)

    def _tabulated(self, source: str, tabulate: Callable[[Session], object]) -> Any:
        """TABULATE's table of a strategy of SOURCE, worked out in a sandboxed child of its own that
        close() can stop while it runs."""
        session = open_session(source, self.edition, GUI_LIMITS)
        self._helpers[id(session)] = session
        try:
            if self._closed:  # the server stopped while this child started
                raise RuntimeError("stopped")
            return tabulate(session)
        finally:
            self._helpers.pop(id(session), None)
            session.dispose()


def _stopped(settings: GuiSettings, request: GameRequest, error: dict) -> dict:
    """A view for a replay that failed as a whole: no turns or scores (the page keeps its own)."""
    return {"seed": request.seed, "goal": settings.goal, "scores": None, "turns": None, "next": None,
            "waiting": False, "over": False, "winner": None, "chance": None, "error": error}


# -- HTTP ------------------------------------------------------------------------------------------


class Handler(BaseHTTPRequestHandler):
    """Serves the page and the two endpoints; every answer is JSON or one of the page's files."""

    game: PageGame  # set on the subclass made by :func:`make_server`
    server: ThreadingHTTPServer  # the server :func:`make_server` made, listening on an IP address
    server_version = "hog_gui"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass  # a quiet terminal: the page shows what matters

    def _from_elsewhere(self) -> bool:
        """Whether a request to a server on this machine only names another host: a web page
        elsewhere that reached it by DNS rebinding. It is refused."""
        bound = str(self.server.server_address[0])
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0].strip("[]").lower()
        return bound in LOOPBACK and host not in LOOPBACK

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        path = self.path.split("?", 1)[0]
        if self._from_elsewhere():
            self._json(HTTPStatus.FORBIDDEN, {"error": error_record(gui_messages.gui_wrong_host())})
        elif path == "/api/setup":
            self._json(HTTPStatus.OK, self.game.setup())
        elif path in PAGES:
            self._file(STATIC / PAGES[path])
        else:
            self._json(HTTPStatus.NOT_FOUND, {"error": error_record(gui_messages.gui_not_found(path[:200]))})

    def do_POST(self) -> None:  # noqa: N802 - the standard library's name
        path = self.path.split("?", 1)[0]
        if self._from_elsewhere():
            self._json(HTTPStatus.FORBIDDEN, {"error": error_record(gui_messages.gui_wrong_host())})
            return
        if path != "/api/play":
            self._json(HTTPStatus.NOT_FOUND, {"error": error_record(gui_messages.gui_not_found(path[:200]))})
            return
        # Only the page's own requests are JSON: a form or a plain-text post from another site is not.
        if (self.headers.get("Content-Type") or "").split(";")[0].strip().lower() != "application/json":
            self.close_connection = True
            self._json(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, {"error": error_record(gui_messages.gui_not_json())})
            return
        try:
            size = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            size = -1
        if size < 0 or size > MOST_BODY:
            self.close_connection = True
            self._json(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                       {"error": error_record(gui_messages.gui_too_large(MOST_BODY))})
            return
        raw = self.rfile.read(size)
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            error = error_record(gui_messages.gui_bad_json(str(exc)[:200]))
            self._json(HTTPStatus.BAD_REQUEST, {"error": error})
            return
        status, reply = self.game.play(body)
        self._json(status, reply)

    def _json(self, status: int, data: dict) -> None:
        payload = json.dumps(data).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(payload)

    def _file(self, path: Path) -> None:
        payload = path.read_bytes()
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", TYPES.get(path.suffix, "application/octet-stream"))
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(payload)


def make_server(game: PageGame, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> ThreadingHTTPServer:
    """A server (not yet serving) for GAME; port 0 picks a free port (``server.server_address``)."""
    handler = type("GameHandler", (Handler,), {"game": game})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(  # its name is the launcher's own: hog_gui.py, pig_gui.py
        description="Play the game in your browser. It runs on your own code (hog.py, pig.py): change it, "
                    "save, and start a new game to see the change.")
    add_options(parser)
    args = parser.parse_args(argv)
    check_options(parser, args)
    return args


def main(folder: str | Path = ".", argv: list[str] | None = None) -> int:
    """Serve FOLDER's game until Ctrl+C, SIGTERM or SIGHUP; 2 for a folder that is not a project or a busy port."""
    args = parse_args(argv)
    try:
        edition, kit = find_edition(Path(folder).resolve(), launcher_name())
        game = PageGame(Path(folder).resolve() / edition.submission, edition, kit, args.seed, args.timeout)
    except HogkitError as exc:
        print(exc, file=sys.stderr)
        return exc.exit_status
    return serve(game, args)


def serve(game: PageGame, args: argparse.Namespace) -> int:
    """Serve GAME with the options in ARGS until Ctrl+C, SIGTERM or SIGHUP (each ends every child and
    removes its folders); 2 for a busy port."""
    try:
        server = make_server(game, args.host, args.port)
    except OSError as exc:
        print(gui_messages.gui_port_busy(args.port) if exc.errno == errno.EADDRINUSE else str(exc), file=sys.stderr)
        return 2
    host, port = str(server.server_address[0]), server.server_port  # an IP address is text already
    url = f"http://{'localhost' if host in ('127.0.0.1', '0.0.0.0') else host}:{port}/"
    print(gui_messages.gui_started(url, game.edition.title), flush=True)
    if not args.no_browser:
        threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
    previous = _stop_on_signals()
    try:
        server.serve_forever()
    except KeyboardInterrupt:  # Ctrl+C, or SIGTERM or SIGHUP (see _raise_stopped)
        print(gui_messages.gui_stopped(), flush=True)
    finally:
        _restore_signals(previous)
        server.server_close()
        game.close()
    return 0


# A process manager's stop, a terminal closed (Windows has no SIGHUP).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


def _raise_stopped(signum: int, _frame: object) -> None:
    """SIGTERM or SIGHUP reached the server: it stops as it does on Ctrl+C, children ended, folders removed."""
    raise KeyboardInterrupt(signum)


def _stop_on_signals() -> dict[int, Any]:
    """Make SIGTERM and SIGHUP stop the server as Ctrl+C does; the handlers they had, to restore.
    Only the main thread may set handlers: a server run in another thread keeps them as they are."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {number: signal.signal(number, _raise_stopped) for number in STOP_SIGNALS}


def _restore_signals(previous: dict[int, Any]) -> None:
    for number, handler in previous.items():
        signal.signal(number, handler)
