"""Shared fixtures for the kit's own tests, seen by every folder of tests/kit: the default edition, its
sources and a grading shortcut, a game of tactics' best play solved once per run for the tests that
ask, and the browser the page's tests drive. Pytest's public API only."""

from __future__ import annotations

import ast
import dataclasses
import fcntl
import hashlib
import os
import shutil
import textwrap
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graders.core import syntax
from graders.core.records import Report
from graders.editions.edition import DEFAULT_EDITION, Edition, edition_names, kit_root, load_edition
from graders.games.game import game_of
from graders.scoring.grading import grade
from graders.scoring.submissions import Submission

ROOT = kit_root()


def content_digest(*parts: object) -> str:
    """A content hash of PARTS (numpy arrays by shape, type and bytes; anything else by repr)."""
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, np.ndarray):
            h.update(repr((part.shape, part.dtype.str)).encode() + part.tobytes())
        else:
            h.update(repr(part).encode())
        h.update(b"\0")
    return h.hexdigest()


def model_digest(model: object, *more: object) -> str:
    """The content hash of a game of tactics' model (every array its answers depend on), then MORE."""
    m: Any = model
    return content_digest(m.goal, m.width, m.actions, m.totals, m.sides, m.over, m.gain, m.after, *more)


class Kept:
    """Values worked out once per key, however many threads ask: each key has a lock of its own (a
    slow key holds up only the threads waiting for it), and a failure is never kept."""

    def __init__(self) -> None:
        self._values: dict[str, Any] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, key: str, work: Callable[[], Any]) -> Any:
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._values:
                self._values[key] = work()
            return self._values[key]


@pytest.fixture(autouse=True)
def fork_server_state_kept() -> Iterable[None]:
    """Each test leaves the fork server's state as it found it. Some break the sandbox's child on
    purpose, and the server counts the starts that fail: three in a row turn it off for the rest of
    the process, so every later test in that worker would start each child with bubblewrap instead,
    and the tests of the fork server itself would find it off."""
    from graders.sandboxing import forkserver

    kept = dict(forkserver.STATE)
    yield
    forkserver.STATE.clear()
    forkserver.STATE.update(kept)


@pytest.fixture(autouse=True)
def recursion_limit_kept() -> Iterable[None]:
    """Each test leaves the interpreter's recursion limit as it found it. A test's code that raises
    it (a library run in-process may) would change what later tests in that worker build from it:
    the monster function of the similarity attack is twice the limit deep, and cost half a minute
    of processor time when the limit had been left at 16,384."""
    import sys

    kept = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(kept)


@pytest.fixture(scope="session")
def best_play_store(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Callable[..., tuple]:
    """:func:`graders.games.tactics.best_response`, each answer solved once per test run however many
    tests and workers ask (see :func:`best_play_solved_once`, the tests that use it).

    Value iteration over Pig's states takes seconds for each opponent, and the ``optimal`` command
    and the page ask for the same few. The key is everything the answer depends on: the model's
    arrays, the opponent's table by content, and the iteration's settings (a test that lowers
    MOST_ROUNDS gets a fresh solve, and its error). The first worker to ask solves under a file lock
    and leaves the answer in the run's shared temporary folder; the others wait for it and read it.
    Each caller gets its own copy; a failure is never kept."""
    from graders.games import tactics

    real = tactics.best_response
    shared = tmp_path_factory.getbasetemp()
    shared = (shared.parent if worker_id != "master" else shared) / "best-play"
    shared.mkdir(exist_ok=True)
    solved = Kept()

    def best_response(model, opponent=None):
        key = model_digest(model, opponent, tactics.MOST_ROUNDS, tactics.TOLERANCE)
        return tuple(array.copy() for array in solved.get(key, lambda: solve_or_read(key, model, opponent)))

    def solve_or_read(key: str, model, opponent) -> tuple:
        answer = shared / f"{key}.npz"
        with open(shared / f"{key}.lock", "w") as held:
            fcntl.flock(held, fcntl.LOCK_EX)  # another worker solving the same waits, then reads
            if answer.is_file():
                with np.load(answer) as kept:
                    return kept["table"], kept["values"]
            table, values = real(model, opponent)
            partial = shared / f"{key}.{os.getpid()}.npz"
            np.savez(partial, table=table, values=values)
            os.replace(partial, answer)
            return table, values

    return best_response


@pytest.fixture
def best_play_solved_once(best_play_store: Callable[..., tuple], monkeypatch: pytest.MonkeyPatch) -> None:
    """For a test of what asks a game of tactics' best play (the ``optimal`` command, the page's
    meter), not of the best play itself: during the test, tactics.best_response answers from the
    run's store. The tests of value iteration (games/test_tactics.py's ``pig``) call the real one."""
    from graders.games import tactics

    monkeypatch.setattr(tactics, "best_response", best_play_store)


@pytest.fixture(scope="session")
def edition() -> Edition:
    return load_edition(DEFAULT_EDITION)


@pytest.fixture(scope="session", params=[pytest.param(name, marks=() if name == DEFAULT_EDITION else pytest.mark.slow)
                                         for name in edition_names()])
def any_edition(request: pytest.FixtureRequest) -> Edition:
    """Every edition in turn: the tests that use it hold for all of them, with no edition-specific code.
    The edit loop's lane (``-m "not slow"``) takes the default edition; the full run takes them all."""
    return load_edition(request.param)


@pytest.fixture(scope="session")
def reference_source(edition: Edition) -> str:
    return (edition.solution_dir / edition.submission).read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def skeleton_source(edition: Edition) -> str:
    return (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")


def grade_source(source: str, edition: Edition, problems: list[int] | None = None, **kwargs: object) -> Report:
    """Grade SOURCE as if it were a student's hog.py (every case, hidden ones included)."""
    kwargs.setdefault("game", game_of(edition))  # the instructor's side hands grading the edition's game
    return grade(Submission(Path("hog.py"), source), edition, problems=problems, **kwargs)


def replace_function(source: str, name: str, new_code: str) -> str:
    """SOURCE with the top-level function NAME replaced by NEW_CODE (dedented), other lines kept."""
    tree = syntax.parse_module(source)  # grading threads may be parsing too
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    start = (node.decorator_list[0].lineno if node.decorator_list else node.lineno) - 1
    lines = source.split("\n")
    return "\n".join(lines[:start] + textwrap.dedent(new_code).strip("\n").split("\n") + lines[node.end_lineno:])


def scores(report: Report) -> dict[int, int]:
    return {p.number: p.score for p in report.problems}


def problem(report: Report, key: int | str):
    """The result of the problem KEY names (a number such as 2, or a label such as "05a")."""
    from graders.editions.edition import problem_label

    return next(p for p in report.problems if p.label == problem_label(key))


def unlock_everything(folder: Path) -> None:
    """Mark every question of a student's project folder unlocked, as answering them all would."""
    from graders.editions import locking
    from graders.editions.edition import load_student_edition
    from graders.runner import student

    edition = load_student_edition(folder)
    progress: dict = {"unlocked": [], "answers": {}}
    for p in edition.problems:
        for record in student.locked_records(edition, p.label):
            progress["unlocked"] += [locking.prompt_key(prompt) for prompt in locking.prompts_of(record)]
    locking.save_progress(folder, progress)


# The deadline of a case whose game never ends (a slip that lets a turn score nothing), where the
# deadline's length is not what a test looks at: the manifest's 5 or 10 s would be waited out in full.
ENDLESS_GAME_DEADLINE = 2.0


def with_deadline(edition: Edition, seconds: float, numbers: Iterable[int] | None = None) -> Edition:
    """EDITION with each case of the problems NUMBERS (every problem: None) given SECONDS."""
    wanted = None if numbers is None else set(numbers)
    return dataclasses.replace(edition, problems=tuple(
        dataclasses.replace(p, timeout=seconds) if wanted is None or p.number in wanted else p
        for p in edition.problems))


def grade_on_gradescope(source: str, edition: Edition, folder: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """The record Gradescope's run_autograder renders for SOURCE, run in FOLDER as its /autograder,
    graded with EDITION as given (a test may have changed its problems' deadlines)."""
    from graders.courses import gradescope
    from graders.scoring import reports

    (folder / "submission").mkdir()
    (folder / "submission" / edition.submission).write_text(source, encoding="utf-8")
    monkeypatch.setenv("AUTOGRADER_ROOT", str(folder))
    loaded = gradescope.load_edition
    monkeypatch.setattr(gradescope, "load_edition",
                        lambda name, root: edition if name == edition.name else loaded(name, root))
    seen: list[dict] = []
    real = reports.render_gradescope
    monkeypatch.setattr(reports, "render_gradescope", lambda record: seen.append(record.to_dict()) or real(record))
    assert gradescope.main(["--edition", edition.name]) == 0
    return seen[0]


# A stub's boar_brawl that answers with the first reference among {candidates} it can read and run
# (1 where it reads none): what an attacker who knows where the kit keeps its reference would hand in.
REFERENCE_RUNNER = """
def boar_brawl(player_score, opponent_score):
    import os
    for path in {candidates!r}:
        try:
            with open(path, encoding="utf-8") as f:
                source = f.read()
        except OSError:
            continue
        space = {{"__name__": "reference"}}
        try:
            exec(compile(source, path, "exec"), space)
            return space["boar_brawl"](player_score, opponent_score)
        except Exception:
            continue
    return 1
"""

# The start of a script that then behaves as if in a container whose seccomp profile refuses Landlock
# (answering ENOSYS, as the default profile of older Docker releases does): the filter holds for this
# process and every process it starts, so only files' modes and user ids hide anything from a child.
WITHOUT_LANDLOCK = """
import errno
import pyseccomp as sc
flt = sc.SyscallFilter(sc.ALLOW)
for name in ("landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self"):
    flt.add_rule(sc.ERRNO(errno.ENOSYS), name)
flt.load()
"""


# -- the browser the page's tests drive: headless Chromium (Debian's package) through Playwright ------
# (tests/kit/gui/test_gui_browser.py, the game's page; tests/kit/courses/test_similarity_browser.py,
# similarity.html). Screenshots are kept in .artifacts/gui/ (or $HOGKIT_ARTIFACTS).

CHROMIUM = os.environ.get("HOGKIT_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
ARTIFACTS = Path(os.environ.get("HOGKIT_ARTIFACTS", ROOT / ".artifacts" / "gui"))
WAIT = 30_000  # ms: generous, for a busy machine


def _missing(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install playwright)")
    if CHROMIUM is None:
        _missing("no chromium on PATH (apt-get install chromium)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    context.set_default_timeout(WAIT)
    tab = context.new_page()
    outside: list[str] = []
    tab.on("request", lambda r: outside.append(r.url) if not r.url.startswith("http://127.0.0.1") else None)
    tab.outside = outside  # every request the page made elsewhere (there must be none)
    yield tab
    context.close()


def shoot(tab: object, name: str) -> None:
    tab.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]
