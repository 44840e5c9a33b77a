"""Analysis: exact win rates, best responses and optimal play, with no sampling.

Contract: a :class:`GameModel` is derived from an edition's *reference functions*, named in the
manifest's ``[analysis]`` table, never re-coded here:

* ``update`` is an expression for ``update(num_rolls, score, opponent_score, dice) -> new score``;
* ``extra_turn`` (optional) for ``extra_turn(score, opponent_score) -> bool``, asked after a turn
  that did not reach the goal;
* ``goal`` for the goal score, and ``baseline`` for the strategy results are compared against.

Rolling k six-sided dice is grouped into classes (the sum of the faces, and whether a 1 came up),
whose exact probabilities come from a convolution; the reference's ``update`` is called once per
class with a test die showing one sequence of that class. That assumes only what Hog's dice rules
need: a roll's effect depends on its faces' sum and on whether a 1 came up. Rolls are assumed not
to depend on the opponent's score when k >= 1; the model checks this on a sample and refuses (with
:class:`AnalysisError`) an edition where it fails, as it does one whose rules need state the two
scores do not carry (a turn that can lower a score or end without gaining).

Values: ``win[a, b]`` is the probability that the player about to move, with score ``a`` against
``b``, wins. Every turn raises the mover's score, so the states are solved in order of decreasing
``a + b``, one anti-diagonal at a time, vectorised with numpy.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from graders import messages, reference
from graders.edition import AnalysisSettings, Edition
from graders.errors import AnalysisError
from graders.memo import once
from graders.sandbox import Limits, LoadError, Session

if TYPE_CHECKING:
    import ctypes  # loaded only when the C loop is built (see compiled_kernel)

FACES = 6
MOST_DICE = 10


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: it holds arrays
class GameModel:
    goal: int
    size: int  # goal plus the largest overshoot: tables are size x size, zero where a score is past the goal
    nexts: np.ndarray  # (11, goal, classes): the mover's new score for k dice, score a, roll class c
    probs: np.ndarray  # (11, classes): the probability of each roll class (0 for padding)
    zero: np.ndarray  # (goal, goal): the mover's new score after rolling no dice, at (a, b)
    extra: np.ndarray | None  # (size, goal): whether the mover goes again at new score a' (None: never)


def roll_classes(k: int) -> list[tuple[float, tuple[int, ...]]]:
    """(probability, one face sequence) for each (sum, a 1 came up) class of k fair dice."""
    counts: dict[tuple[int, bool], int] = {(0, False): 1}
    for _ in range(k):
        following: dict[tuple[int, bool], int] = {}
        for (total, one), n in counts.items():
            for face in range(1, FACES + 1):
                key = (total + face, one or face == 1)
                following[key] = following.get(key, 0) + n
        counts = following
    classes = []
    for (total, one), n in sorted(counts.items()):
        classes.append((n / FACES**k, _sequence(k, total, one)))
    return classes


def _sequence(k: int, total: int, one: bool) -> tuple[int, ...]:
    """K faces with this TOTAL, holding a 1 exactly when ONE is asked for (the class is realisable)."""
    low = 1 if one else 2
    faces = [low] * k
    rest = total - low * k
    for i in range(1 if one else 0, k):  # with a 1 asked for, the first face stays 1
        add = min(FACES - low, rest)
        faces[i] += add
        rest -= add
    return tuple(faces)


def analysis_settings(edition: Edition) -> AnalysisSettings:
    """The edition's ``[analysis]`` table; an :class:`AnalysisError` when it has none."""
    if edition.analysis is None:
        raise AnalysisError(messages.no_analysis(edition.name))
    return edition.analysis


def _cache_file(edition: Edition) -> Path:
    """Where the model of this edition's current reference and manifest is kept between runs."""
    digest = hashlib.sha256()
    for path in (Path(__file__), edition.suite_dir / "edition.toml", edition.solution_dir / edition.submission,
                 *(edition.solution_dir / name for name in edition.support)):
        digest.update(path.read_bytes())
    return _cache_base() / f"{edition.name}-{digest.hexdigest()[:16]}.npz"


def _cache_base() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hogkit"


@once(maxsize=8)
def build_model(edition: Edition) -> GameModel:
    """The edition's game as arrays: read from the cache, or derived from the reference and cached.
    Worked out once per process, by one thread while any others wait."""
    cache = _cache_file(edition)
    try:
        with np.load(cache) as data:
            extra = data["extra"] if data["extra"].size else None
            return GameModel(int(data["goal"]), int(data["size"]), data["nexts"], data["probs"], data["zero"], extra)
    except (OSError, KeyError, ValueError):
        pass
    model = derive_model(edition)
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        # A name of its own, so another process writing the same model never shares the file.
        handle, tmp = tempfile.mkstemp(dir=cache.parent, prefix=f".{edition.name}-", suffix=".npz")
        os.close(handle)
        np.savez(tmp, goal=model.goal, size=model.size, nexts=model.nexts, probs=model.probs, zero=model.zero,
                 extra=model.extra if model.extra is not None else np.zeros(0, dtype=bool))
        os.replace(tmp, cache)
        for old in cache.parent.glob(f"{edition.name}-*.npz"):  # models of earlier versions are never read
            if old != cache:
                old.unlink(missing_ok=True)
    except OSError:  # a read-only home: the model is simply derived again next time
        pass
    return model


def derive_model(edition: Edition) -> GameModel:
    """The edition's game as arrays, derived by calling its reference functions."""
    settings = analysis_settings(edition)
    update = reference.evaluate(edition, settings.update)
    extra_turn = reference.evaluate(edition, settings.extra_turn) if settings.extra_turn else None
    goal = int(reference.evaluate(edition, settings.goal))
    make_test_dice = reference.namespace(edition)["make_test_dice"]
    classes = {k: roll_classes(k) for k in range(1, MOST_DICE + 1)}
    columns: dict[int, list[tuple[float, list[int]]]] = {}
    for k, group in classes.items():
        # Classes whose rolls lead to the same new score from every score are one outcome.
        merged: dict[tuple[int, ...], float] = {}
        for p, faces in group:
            column = tuple(update(k, a, 0, make_test_dice(*faces)) for a in range(goal))
            merged[column] = merged.get(column, 0.0) + p
        columns[k] = [(p, list(column)) for column, p in merged.items()]
    width = max(len(c) for c in columns.values())
    nexts = np.zeros((MOST_DICE + 1, goal, width), dtype=np.int64)
    probs = np.zeros((MOST_DICE + 1, width))
    probs[0, 0] = 1.0
    for k, outcomes in columns.items():
        for c, (p, new_scores) in enumerate(outcomes):
            probs[k, c] = p
            nexts[k, :, c] = new_scores
    _check_opponent_free(update, make_test_dice, classes, goal)
    zero = np.array([[update(0, a, b, make_test_dice(FACES)) for b in range(goal)] for a in range(goal)])
    real = probs[1:, None, :] > 0  # padding classes have no probability and no next score
    if ((nexts[1:] <= np.arange(goal)[None, :, None]) & real).any() or (zero <= np.arange(goal)[:, None]).any():
        raise AnalysisError(messages.turn_must_gain(edition.name))
    size = int(max(nexts.max(), zero.max())) + 1
    extra = None
    if extra_turn is not None:
        extra = np.zeros((size, goal), dtype=bool)
        extra[:goal] = [[bool(extra_turn(a, b)) for b in range(goal)] for a in range(goal)]
    return GameModel(goal, size, nexts, probs, zero, extra)


def _check_opponent_free(update, make_test_dice, classes: dict, goal: int) -> None:
    """Rolls must not depend on the opponent's score: checked on a spread of states and classes."""
    for k in (1, 3, 6, 10):
        for _p, faces in classes[k][::7]:
            for a in range(0, goal, 13):
                first = update(k, a, 0, make_test_dice(*faces))
                for b in range(1, goal, 17):
                    if update(k, a, b, make_test_dice(*faces)) != first:
                        raise AnalysisError(messages.roll_depends_on_opponent())


def _diagonals(goal: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    for total in range(2 * goal - 2, -1, -1):
        a = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
        yield a, total - a


def _values(model: GameModel, a: np.ndarray, b: np.ndarray, ks: np.ndarray, mine: np.ndarray,
            theirs: np.ndarray) -> np.ndarray:
    """The mover's chance to win at states (a, b) rolling ks dice, given solved later states.

    MINE and THEIRS are size x size tables (the mover's and the other player's); their entries past
    the goal are 0, so a roll that reaches the goal counts as a win with no special case.
    """
    nexts = model.nexts[ks, a, :]
    none = ks == 0
    if none.any():
        nexts[none, 0] = model.zero[a[none], b[none]]
    bb = b[:, None]
    later = 1.0 - theirs[bb, nexts]
    if model.extra is not None:
        later = np.where(model.extra[nexts, bb], mine[nexts, bb], later)
    return (model.probs[ks, :] * later).sum(axis=1)


def _tables(model: GameModel, count: int) -> list[np.ndarray]:
    return [np.zeros((model.size, model.size)) for _ in range(count)]


def win_tables(model: GameModel, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(win_first, win_second): each player's chance to win from every state where they move."""
    win_first, win_second = _tables(model, 2)
    for a, b in _diagonals(model.goal):
        win_first[a, b] = _values(model, a, b, first[a, b], win_first, win_second)
        win_second[a, b] = _values(model, a, b, second[a, b], win_second, win_first)
    return win_first[: model.goal, : model.goal], win_second[: model.goal, : model.goal]


def win_rates(model: GameModel, strategy: np.ndarray, opponent: np.ndarray) -> dict[str, float]:
    """STRATEGY's exact chance to beat OPPONENT going first, going second, and their average."""
    mine, theirs = win_tables(model, strategy, opponent)
    first, second = float(mine[0, 0]), float(1.0 - theirs[0, 0])
    return {"first": first, "second": second, "average": (first + second) / 2}


def _best(model: GameModel, a: np.ndarray, b: np.ndarray, mine: np.ndarray, theirs: np.ndarray) -> tuple:
    options = np.stack([_values(model, a, b, np.full(len(a), k), mine, theirs) for k in range(MOST_DICE + 1)])
    return options.argmax(axis=0), options.max(axis=0)


def best_response(model: GameModel, opponent: np.ndarray) -> np.ndarray:
    """The strategy with the highest chance to beat OPPONENT from every state (ties: fewer dice)."""
    table = np.zeros((model.goal, model.goal), dtype=np.int64)
    mine, theirs = _tables(model, 2)
    for a, b in _diagonals(model.goal):
        table[a, b], mine[a, b] = _best(model, a, b, mine, theirs)
        theirs[a, b] = _values(model, a, b, opponent[a, b], theirs, mine)
    return table


def optimal(model: GameModel) -> np.ndarray:
    """The minimax strategy: the best play against a player who also plays best."""
    table = np.zeros((model.goal, model.goal), dtype=np.int64)
    (win,) = _tables(model, 1)
    for a, b in _diagonals(model.goal):
        table[a, b], win[a, b] = _best(model, a, b, win, win)
    return table


def constant(model: GameModel, k: int) -> np.ndarray:
    return np.full((model.goal, model.goal), k, dtype=np.int64)


@once(maxsize=32)
def reference_table(edition: Edition, expression: str) -> np.ndarray:
    """A strategy of the reference solution (an expression such as ``always_roll(6)``) as a table,
    worked out once per edition and expression (read-only: it is shared)."""
    goal = build_model(edition).goal
    try:  # an expression a user typed (--against, --strategy) as much as the manifest's own
        strategy = reference.evaluate(edition, expression)
        rows = [[strategy(a, b) for b in range(goal)] for a in range(goal)]
    except Exception as exc:
        raise AnalysisError(messages.reference_strategy_failed(expression, edition.name,
                                                               f"{type(exc).__name__}: {exc}")) from exc
    bad = next(((a, b, v) for a, row in enumerate(rows) for b, v in enumerate(row)
                if type(v) is not int or not 0 <= v <= MOST_DICE), None)
    if bad is not None:
        raise AnalysisError(messages.reference_strategy_failed(
            expression, edition.name, messages.strategy_bad_value(bad[0], bad[1], repr(bad[2]))))
    table = np.array(rows, dtype=np.int64)
    table.setflags(write=False)
    return table


def table_source(table: np.ndarray) -> str:
    """A table as a Python literal, one row per score: what a readable final_strategy can hold."""
    rows = ["    " + repr("".join("0123456789X"[v] for v in row)) + "," for row in table.tolist()]
    return "(\n" + "\n".join(rows) + "\n)"


TABLE_NAME = "BEST_RESPONSE"


def strategy_module_source(table: np.ndarray, heading: str) -> str:
    """A file a student can paste into hog.py: TABLE under a name, with what it is (HEADING) and how
    to read it, and a final_strategy that rolls as it says."""
    import textwrap

    return ("\n".join(textwrap.wrap(heading, 97, initial_indent="# ", subsequent_indent="# ")) + "\n"
            f"# Row: your score; column: the opponent's score; the character: how many dice to roll\n"
            f"# (X means 10). Paste this into hog.py in place of final_strategy.\n"
            f"{TABLE_NAME} = {table_source(table)}\n\n\n"
            f"def final_strategy(score, opponent_score):\n"
            f'    """Roll as {TABLE_NAME} says for these two scores."""\n'
            f'    return "0123456789X".index({TABLE_NAME}[score][opponent_score])\n')



TABULATE_SECONDS = 30.0  # for one strategy's 10,000 choices, twice over, in the sandbox


def parse_table(value: object, goal: int) -> np.ndarray | str:
    """A tabulated strategy from the child's plain data, or what is wrong with it as a sentence."""
    if isinstance(value, tuple) and value and value[0] == "bad" and len(value) == 4:
        return messages.strategy_bad_value(int(value[1]), int(value[2]), str(value[3]))
    if isinstance(value, tuple) and value and value[0] == "unsteady" and len(value) == 3:
        return messages.strategy_unsteady(int(value[1]), int(value[2]))
    rows = list(value) if isinstance(value, tuple | list) else []
    if len(rows) != goal or not all(isinstance(r, str) and len(r) == goal for r in rows):
        return messages.strategy_not_a_table()
    digits = "0123456789X"
    try:
        return np.array([[digits.index(c) for c in row] for row in rows], dtype=np.int64)
    except ValueError:
        return messages.strategy_not_a_table()


def tabulate(session: Session, expression: str, goal: int) -> np.ndarray:
    """EXPRESSION (evaluated in the submission's namespace) as a table, computed in the sandbox."""
    replies = list(session.steps([f"tabulate({expression}, {goal})"], session_setup(session),
                                 time.monotonic() + TABULATE_SECONDS))
    reply = replies[0]
    if reply.status == "timeout":
        raise AnalysisError(messages.strategy_too_slow(expression, TABULATE_SECONDS))
    if reply.status == "crashed":
        raise AnalysisError(messages.strategy_crashed(expression))
    if reply.status == "error":
        raise AnalysisError(messages.strategy_raised(expression, reply.error or {}, session.submission.name))
    table = parse_table(reply.value, goal)
    if isinstance(table, str):
        raise AnalysisError(f"{expression}: {table}")
    return table


def tabulate_source(source: str, edition: Edition, expressions: list[str], limits: Limits | None = None
                    ) -> tuple[list[np.ndarray], list[str]]:
    """EXPRESSIONS tabulated in one sandboxed child running SOURCE as the edition's submission,
    loaded as grading loads it; with the notes on what loading did (a repaired syntax error, a
    skipped statement)."""
    from graders.sandbox import open_submission

    try:
        session, notes = open_submission(source, edition, limits)
    except LoadError as exc:
        raise AnalysisError(messages.could_not_load(edition.submission) + f" ({exc})") from exc
    try:
        goal = build_model(edition).goal
        return [tabulate(session, expression, goal) for expression in expressions], notes
    finally:
        session.dispose()


def session_setup(session: Session) -> str:
    return f"from {session.module} import *"


# -- a compiled loop for the contest's many pairs ------------------------------------------------

KERNEL = Path(__file__).with_name("kernel.c")


@once(maxsize=1)
def compiled_kernel() -> ctypes.CDLL | None:
    """The C loop of ``kernel.c``, built by this process with the system's C compiler (about 0.1 s)
    into a folder only it can write, loaded, and deleted: no library on disk is ever trusted, so no
    submission can slip code into the grader by leaving one in a cache. None when there is no
    compiler (the numpy solver then does the same work, more slowly). Threads that ask at once wait
    for one build."""
    import ctypes
    import shutil
    import subprocess

    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    private = tempfile.mkdtemp(prefix="hogkit-kernel-")  # mode 0700: the grader's alone
    try:
        library = os.path.join(private, "kernel.so")
        done = subprocess.run([compiler, "-O3", "-shared", "-fPIC", "-o", library, str(KERNEL)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            return None
        kernel = ctypes.CDLL(library)  # mapped now: the file itself is no longer needed
    except OSError:
        return None
    finally:
        shutil.rmtree(private, ignore_errors=True)
    pointer = np.ctypeslib.ndpointer
    kernel.win_pair.restype = None
    kernel.win_pair.argtypes = [
        ctypes.c_int, ctypes.c_int, ctypes.c_int, pointer(np.int64, flags="C"),
        pointer(np.int64, flags="C"), pointer(np.float64, flags="C"), pointer(np.int64, flags="C"),
        ctypes.c_void_p, pointer(np.int64, flags="C"), pointer(np.int64, flags="C"),
        pointer(np.float64, flags="C"), pointer(np.float64, flags="C"),
    ]
    return kernel


@once(maxsize=8)
def _kernel_arrays(model: GameModel) -> tuple:
    """The model's arrays in the exact layout the C loop reads, made once per model."""
    extra = None if model.extra is None else np.ascontiguousarray(model.extra, dtype=np.uint8)
    counts = np.ascontiguousarray((model.probs > 0).sum(axis=1), dtype=np.int64)
    return (counts, np.ascontiguousarray(model.nexts, dtype=np.int64), np.ascontiguousarray(model.probs),
            np.ascontiguousarray(model.zero, dtype=np.int64), extra)


def pair_rate(model: GameModel, first: np.ndarray, second: np.ndarray) -> float:
    """FIRST's exact chance to beat SECOND, averaged over both seats: compiled when possible.
    The compiled loop releases the interpreter, so threads solve pairs side by side."""
    kernel = compiled_kernel()
    if kernel is None:
        return win_rates(model, first, second)["average"]
    counts, nexts, probs, zero, extra = _kernel_arrays(model)
    mine, theirs = np.zeros((model.size, model.size)), np.zeros((model.size, model.size))
    kernel.win_pair(model.goal, model.size, nexts.shape[2], counts, nexts, probs, zero,
                    None if extra is None else extra.ctypes.data,
                    np.ascontiguousarray(first, dtype=np.int64), np.ascontiguousarray(second, dtype=np.int64),
                    mine, theirs)
    return (float(mine[0, 0]) + 1.0 - float(theirs[0, 0])) / 2
