"""Analysis: exact win rates, best responses and optimal play, with no sampling.

Contract: a :class:`GameModel` is derived from an edition's *reference functions*, named in the
manifest's ``[analysis]`` table, never re-coded here:

* ``update`` is an expression for ``update(num_rolls, score, opponent_score, dice) -> new score``;
* ``extra_turn`` (optional) for ``extra_turn(score, opponent_score) -> bool``, asked after a turn
  that did not reach the goal;
* ``goal`` for the goal score, and ``baseline`` for the strategy results are compared against;
* ``memory`` (optional): what each player carries from one of their turns to the next beyond the
  scores, as ``classes`` whole numbers (a larger value counts as the last class), starting at
  ``start``; ``update`` then takes the mover's memory as a fifth argument ``last``, and
  ``remember`` (same arguments) gives what the mover carries on. Feral Hogs needs this;
* ``after`` (optional) for ``after(score, opponent_score) -> (score, opponent_score)``, both scores
  once a turn's points are in (Swine Swap's swap, Hog Pile's bonus); it may keep their sum or raise
  it, never lower it;
* ``variants`` (optional): other ``update`` expressions, the same game under other rules.

Rolling k six-sided dice is grouped into classes (the sum of the faces, and whether a 1 came up),
whose exact probabilities come from a convolution; the reference's ``update`` is called once per
class with a test die showing one sequence of that class. That assumes only what Hog's dice rules
need: a roll's effect depends on its faces' sum and on whether a 1 came up. Rolls are assumed not
to depend on the opponent's score when k >= 1, and a memory's last class to stand for every larger
value; the model checks both on a sample and refuses (with :class:`AnalysisError`) an edition where
either fails, as it does one whose turn can end without gaining.

Values: ``win[a, b, o, m]`` is the probability that the player about to move, with score ``a``
against ``b``, memory ``m`` against the other's ``o``, wins (without a memory, ``win[a, b]``). Every
turn raises the mover's score and ``after`` never lowers the sum, so the states are solved in order of
decreasing ``a + b``, one anti-diagonal at a time, vectorised with numpy. Strategies see the scores
only; with a memory, the best of them is sought by policy improvement (:func:`score_best_response`)
and bounded by the best play of a player who sees the whole state (:func:`full_best_response`).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graders.core import scratch
from graders.core.errors import AnalysisError
from graders.core.memo import once
from graders.editions.edition import Edition
from graders.games import kinds, reference
from graders.games import messages as games_messages
from graders.games.kinds import AnalysisSettings
from graders.sandboxing.sandbox import Session

if TYPE_CHECKING:
    import ctypes  # loaded only when the C loop is built (see compiled_kernel)

FACES = 6
MOST_DICE = 10


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: it holds arrays
class GameModel:
    goal: int
    size: int  # goal plus the largest overshoot: tables are size x size, zero where a score is past the goal
    nexts: np.ndarray  # (11, memory, goal, classes): the mover's new score for k dice, memory m, score a, roll class c
    probs: np.ndarray  # (11, classes): the probability of each roll class (0 for padding)
    zero: np.ndarray  # (memory, goal, goal): the mover's new score after rolling no dice, at (m, a, b)
    extra: np.ndarray | None  # (size, goal): whether the mover goes again at new scores (a', b) (None: never)
    recalls: np.ndarray | None = None  # like nexts: the memory class the mover carries on (None: one class)
    zero_recall: np.ndarray | None = None  # like zero, for rolling no dice
    after: np.ndarray | None = None  # (size, size, 2): both scores once the turn's points are in (None: kept)
    start: int = 0  # the memory class every player starts with

    @property
    def memory(self) -> int:
        """How many classes a player's memory has (1: the two scores are the whole state)."""
        return self.nexts.shape[1]

    @property
    def plain(self) -> bool:
        """Whether the two scores are the whole state and only the mover's score changes in a turn."""
        return self.memory == 1 and self.after is None

    @property
    def states(self) -> int:
        """How many states the game has below the goal, counting whose move it is."""
        return 2 * self.goal * self.goal * self.memory * self.memory


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
    settings = kinds.dice_settings(edition)
    if settings is None:
        raise AnalysisError(games_messages.no_analysis(edition.name))
    if edition.game.dice != (0, MOST_DICE) or edition.game.sides.strip() != str(FACES):
        # The die and the dice are the edition's to say ([game] sides, dice); the solvers (and
        # kernel.c) are built for these, and refuse rather than answer for another game.
        raise AnalysisError(games_messages.dice_not_modelled(edition.name, edition.game.sides, edition.game.dice,
                                                             FACES, MOST_DICE))
    return settings


def _cache_file(edition: Edition, variant: str = "") -> Path:
    """Where the model of this edition's current reference and manifest is kept between runs."""
    digest = hashlib.sha256()
    for path in (Path(__file__), edition.suite_dir / "edition.toml", edition.solution_dir / edition.submission,
                 *(edition.solution_dir / name for name in edition.support)):
        digest.update(path.read_bytes())
    name = f"{edition.name}-{variant}" if variant else edition.name
    return _cache_base() / f"{name}-{digest.hexdigest()[:16]}.npz"


def _cache_base() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hogkit"


OPTIONAL = ("extra", "recalls", "zero_recall", "after")  # arrays a model may lack, cached as empty arrays


@once(maxsize=8)
def build_model(edition: Edition, variant: str = "") -> GameModel:
    """The edition's game (under its [analysis] variant VARIANT, "" for the rules as declared) as
    arrays: read from the cache, or derived from the reference and cached. Worked out once per
    process, by one thread while any others wait."""
    settings = analysis_settings(edition).variant(variant)
    cache = _cache_file(edition, variant)
    try:
        with np.load(cache) as data:
            optional = {key: data[key] if data[key].size else None for key in OPTIONAL}
            return GameModel(int(data["goal"]), int(data["size"]), data["nexts"], data["probs"], data["zero"],
                             start=int(data["start"]), **optional)
    except (OSError, KeyError, ValueError):
        pass
    model = derive_model(edition, settings)
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        # A name of its own, so another process writing the same model never shares the file.
        handle, tmp = tempfile.mkstemp(dir=cache.parent, prefix=f".{edition.name}-", suffix=".npz")
        os.close(handle)
        empty = np.zeros(0, dtype=np.int64)
        arrays: dict[str, Any] = {key: empty if getattr(model, key) is None else getattr(model, key)
                                  for key in OPTIONAL}
        np.savez(tmp, goal=model.goal, size=model.size, nexts=model.nexts, probs=model.probs, zero=model.zero,
                 start=model.start, **arrays)
        os.replace(tmp, cache)
        stem = cache.name.rsplit("-", 1)[0]
        for old in cache.parent.glob(f"{stem}-*.npz"):  # models of earlier versions are never read
            if old != cache and old.name.rsplit("-", 1)[0] == stem:
                old.unlink(missing_ok=True)
    except OSError:  # a read-only home: the model is simply derived again next time
        pass
    return model


def derive_model(edition: Edition, settings: AnalysisSettings | None = None) -> GameModel:
    """The edition's game as arrays, derived by calling its reference functions (SETTINGS: the
    edition's own [analysis] unless another variant's are given)."""
    settings = settings or analysis_settings(edition)
    memory = settings.memory_classes
    given = reference.evaluate(edition, settings.update)
    # With one memory class the functions take no memory: wrap them so that one code path serves both.
    update = given if memory > 1 else (lambda k, a, b, dice, last: given(k, a, b, dice))
    remember = reference.evaluate(edition, settings.remember) if memory > 1 else None
    extra_turn = reference.evaluate(edition, settings.extra_turn) if settings.extra_turn else None
    after = reference.evaluate(edition, settings.after) if settings.after else None
    goal = int(reference.evaluate(edition, settings.goal))
    make_test_dice = reference.namespace(edition)["make_test_dice"]

    def recall(k: int, a: int, b: int, faces: tuple[int, ...], m: int) -> int:
        return 0 if remember is None else min(int(remember(k, a, b, make_test_dice(*faces), m)), memory - 1)

    classes = {k: roll_classes(k) for k in range(1, MOST_DICE + 1)}
    _check_opponent_free(update, recall, make_test_dice, classes, goal, memory)  # first: it is quick
    columns = {k: _outcomes(update, recall, make_test_dice, k, group, goal, memory) for k, group in classes.items()}
    width = max(len(c) for c in columns.values())
    nexts = np.zeros((MOST_DICE + 1, memory, goal, width), dtype=np.int64)
    recalls = np.zeros((MOST_DICE + 1, memory, goal, width), dtype=np.int64)
    probs = np.zeros((MOST_DICE + 1, width))
    probs[0, 0] = 1.0
    for k, group in columns.items():
        for c, (p, column, kept) in enumerate(group):
            probs[k, c] = p
            nexts[k, :, :, c] = column
            recalls[k, :, :, c] = np.array(kept)[:, None]
    zero = np.array([[[update(0, a, b, make_test_dice(FACES), m) for b in range(goal)] for a in range(goal)]
                     for m in range(memory)], dtype=np.int64)
    zero_recall = np.array([[[recall(0, a, b, (FACES,), m) for b in range(goal)] for a in range(goal)]
                            for m in range(memory)], dtype=np.int64)
    real = probs[1:, None, None, :] > 0  # padding classes have no probability and no next score
    if ((nexts[1:] <= np.arange(goal)[None, None, :, None]) & real).any() or \
            (zero <= np.arange(goal)[None, :, None]).any():
        raise AnalysisError(games_messages.turn_must_gain(edition.name))
    size = int(max(nexts.max(), zero.max())) + 1
    moved = None
    if after is not None:
        moved, size = _moved_scores(edition, after, size, goal)
    extra = None
    if extra_turn is not None:
        extra = np.zeros((size, goal), dtype=bool)
        extra[:goal] = [[bool(extra_turn(a, b)) for b in range(goal)] for a in range(goal)]
    if memory == 1:
        return GameModel(goal, size, nexts, probs, zero, extra, after=moved)
    return GameModel(goal, size, nexts, probs, zero, extra, recalls, zero_recall, moved, settings.memory_start)


def _moved_scores(edition: Edition, after, size: int, goal: int) -> tuple[np.ndarray, int]:
    """(after's two scores at every pair of scores below SIZE, the size the value tables need): a
    bonus may carry the mover past SIZE, so the tables grow to hold every score ``after`` can leave
    while the other is below the goal (where nothing leads, the scores are kept). ``after`` may raise
    the sum of the scores (Hog Pile's bonus) or keep it (a swap), never lower it: the states are
    solved in order of decreasing sum."""
    moved = np.array([[after(a, b) for b in range(size)] for a in range(size)], dtype=np.int64)
    sums = np.add.outer(np.arange(size), np.arange(size))
    if moved.shape != (size, size, 2) or (moved.sum(axis=2) < sums).any() or (moved < 0).any():
        raise AnalysisError(games_messages.after_lowers_sum(edition.name))
    grown = max(size, int(moved[:, :goal].max()) + 1)
    if grown == size:
        return moved, size
    kept = np.stack(np.meshgrid(np.arange(grown), np.arange(grown), indexing="ij"), axis=2).astype(np.int64)
    kept[:size, :size] = moved
    return kept, grown


def _outcomes(update, recall, make_test_dice, k: int, group: list, goal: int, memory: int) -> list:
    """(probability, new scores by memory and score, memory carried on by memory) of each outcome of
    rolling K dice: classes whose rolls lead to the same new score and memory from every state are
    one outcome."""
    merged: dict[tuple, float] = {}
    for p, faces in group:
        column = tuple(tuple(update(k, a, 0, make_test_dice(*faces), m) for a in range(goal)) for m in range(memory))
        kept = tuple(recall(k, 0, 0, faces, m) for m in range(memory))
        merged[column, kept] = merged.get((column, kept), 0.0) + p
    return [(p, [list(c) for c in column], list(kept)) for (column, kept), p in merged.items()]


def _check_opponent_free(update, recall, make_test_dice, classes: dict, goal: int, memory: int) -> None:
    """Rolls must not depend on the opponent's score, and a memory of the last class must stand for
    every larger value: both checked on a spread of states and classes."""
    for k in (1, 3, 6, 10):
        for _p, faces in classes[k][::7]:
            for a in range(0, goal, 13):
                for m in sorted({0, memory - 1}):
                    first = (update(k, a, 0, make_test_dice(*faces), m), recall(k, 0, 0, faces, m))
                    for b in range(0, goal, 17):
                        if (update(k, a, b, make_test_dice(*faces), m), recall(k, a, b, faces, m)) != first:
                            raise AnalysisError(games_messages.roll_depends_on_opponent())
    if memory == 1:
        return
    last = memory - 1
    for k in range(MOST_DICE + 1):
        faces = classes[k][-1][1] if k else (FACES,)
        for a in (0, goal // 2):
            first = update(k, a, 0, make_test_dice(*faces), last)
            if any(update(k, a, 0, make_test_dice(*faces), v) != first for v in (*range(last + 1, last + 5), 99)):
                raise AnalysisError(games_messages.memory_class_too_small(memory))


def _diagonals(goal: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    for total in range(2 * goal - 2, -1, -1):
        a = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
        yield a, total - a


def _moves(model: GameModel, a: np.ndarray, b: np.ndarray, ks: np.ndarray) -> tuple:
    """Where turns from states (a, b) rolling ks dice lead, each (n, mover's memory, class): the
    mover's and the other's scores after the turn, the memory the mover carries on, and whether the
    mover goes again (None: no rule gives extra turns)."""
    m = np.arange(model.memory)
    nexts = model.nexts[ks[:, None], m[None, :], a[:, None], :]
    recall = np.zeros_like(nexts) if model.recalls is None else model.recalls[ks[:, None], m[None, :], a[:, None], :]
    none = ks == 0
    if none.any():
        nexts[none, :, 0] = model.zero[:, a[none], b[none]].T
        if model.zero_recall is not None:
            recall[none, :, 0] = model.zero_recall[:, a[none], b[none]].T
    other = np.broadcast_to(b[:, None, None], nexts.shape)
    mover = nexts
    if model.after is not None:
        mover, other = model.after[nexts, other, 0], model.after[nexts, other, 1]
    again = None
    if model.extra is not None:
        again = model.extra[mover, np.minimum(other, model.goal - 1)] & (other < model.goal)
    return mover, other, recall, again


def _values(model: GameModel, a: np.ndarray, b: np.ndarray, ks: np.ndarray, mine: np.ndarray,
            theirs: np.ndarray) -> np.ndarray:
    """The mover's chance to win at states (a, b) rolling ks dice, given solved later states: an
    array (n, memory, memory) indexed [state, the other's memory, the mover's memory].

    MINE and THEIRS are (size, size, memory, memory) tables (the mover's and the other player's),
    indexed [mover's score, other's score, other's memory, mover's memory]; entries where the other
    is past the goal are 0 and where the mover is, 1, so a turn that ends the game needs no special case.
    """
    mover, other, recall, again = _moves(model, a, b, ks)
    later = 1.0 - theirs[other, mover, recall, :]  # (n, mover's memory, class, other's memory)
    if again is not None:
        later = np.where(again[..., None], mine[mover, other, :, recall], later)
    return (model.probs[ks, None, :, None] * later).sum(axis=2).transpose(0, 2, 1)


def reach(model: GameModel, strategy: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """How likely each state where STRATEGY moves is to come up in a game against OPPONENT, averaged
    over going first and going second: (goal, goal, memory, memory), indexed as the win tables."""
    kernel = _kernel_for(model)
    if kernel is not None:
        shape = (model.goal, model.goal, model.memory, model.memory)
        here, there = np.zeros(shape), np.zeros(shape)
        here[0, 0, model.start, model.start] = there[0, 0, model.start, model.start] = 0.5
        kernel.reach_memory(*_game_arguments(model), _longs(strategy), _longs(opponent), here, there)
        return here
    size, memory = model.size, model.memory
    mine, theirs = (np.zeros((size, size, memory, memory)) for _ in range(2))
    mine[0, 0, model.start, model.start] += 0.5
    theirs[0, 0, model.start, model.start] += 0.5
    for a, b in reversed(list(_diagonals(model.goal))):
        for table, here, there in ((strategy, mine, theirs), (opponent, theirs, mine)):
            mover, other, recall, again = _moves(model, a, b, table[a, b])
            mass = here[a, b].transpose(0, 2, 1)[:, :, None, :] * model.probs[table[a, b], None, :, None]
            live = (mover < model.goal) & (other < model.goal)
            stay = live & again if again is not None else np.zeros_like(live)
            q = np.arange(memory)
            for target, keep, index in ((there, live & ~stay, (other, mover, recall)),
                                        (here, stay, (mover, other))):
                if not keep.any():
                    continue
                shape = mass.shape
                i0, i1 = (np.broadcast_to(x[..., None], shape)[keep] for x in index[:2])
                qq = np.broadcast_to(q[None, None, None, :], shape)[keep]
                rr = np.broadcast_to(recall[..., None], shape)[keep]
                # Moving on: the other player moves with their memory q, remembering ours (rr);
                # going again: we move with rr, the other keeps q.
                spot = (i0, i1, rr, qq) if target is there else (i0, i1, qq, rr)
                np.add.at(target, spot, mass[keep])
    return mine[: model.goal, : model.goal]


def _tables(model: GameModel, count: int) -> list[np.ndarray]:
    tables = [np.zeros((model.size, model.size, model.memory, model.memory)) for _ in range(count)]
    for table in tables:
        table[model.goal:] = 1.0  # a mover already past the goal (put there by a swap) has won
        table[:, model.goal:] = 0.0
    return tables


def _scores(model: GameModel, table: np.ndarray) -> np.ndarray:
    """A (size, size, memory, memory) table at the scores below the goal: the plain (goal, goal)
    table when the scores are the whole state, and the full state otherwise."""
    table = table[: model.goal, : model.goal]
    return table[:, :, 0, 0] if model.memory == 1 else table


def win_tables(model: GameModel, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(win_first, win_second): each player's chance to win from every state where they move,
    indexed [mover's score, other's score] (and, with memory, [other's memory, mover's memory])."""
    compiled = _compiled_tables(model, first, second)
    if compiled is not None:
        return compiled if model.memory > 1 else (compiled[0][:, :, 0, 0], compiled[1][:, :, 0, 0])
    return numpy_win_tables(model, first, second)


def numpy_win_tables(model: GameModel, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`win_tables` in numpy, one anti-diagonal at a time: where no C compiler is found."""
    win_first, win_second = _tables(model, 2)
    for a, b in _diagonals(model.goal):
        win_first[a, b] = _values(model, a, b, first[a, b], win_first, win_second)
        win_second[a, b] = _values(model, a, b, second[a, b], win_second, win_first)
    return _scores(model, win_first), _scores(model, win_second)


def start_values(model: GameModel, table: np.ndarray) -> np.ndarray:
    """A win table from :func:`win_tables` at the memories every game starts with: one value per
    pair of scores (what the picture and the page show)."""
    return table if table.ndim == 2 else table[:, :, model.start, model.start]


def win_rates(model: GameModel, strategy: np.ndarray, opponent: np.ndarray) -> dict[str, float]:
    """STRATEGY's exact chance to beat OPPONENT going first, going second, and their average."""
    mine, theirs = (start_values(model, t) for t in win_tables(model, strategy, opponent))
    first, second = float(mine[0, 0]), float(1.0 - theirs[0, 0])
    return {"first": first, "second": second, "average": (first + second) / 2}


def _best(model: GameModel, a: np.ndarray, b: np.ndarray, mine: np.ndarray, theirs: np.ndarray) -> tuple:
    options = np.stack([_values(model, a, b, np.full(len(a), k), mine, theirs) for k in range(MOST_DICE + 1)])
    return options.argmax(axis=0), options.max(axis=0)


def full_best_response(model: GameModel, opponent: np.ndarray) -> tuple[np.ndarray, dict[str, float]]:
    """The best play against OPPONENT of a player who sees the whole state (memories included):
    its table (goal, goal, memory, memory) and its exact win rates. With memory, no strategy of the
    two scores can do better: it is an upper bound."""
    kernel = _kernel_for(model)
    if kernel is not None:
        mine, _, table = _search(kernel, model, BEST, np.zeros((1, 1)), opponent)
    else:
        table = np.zeros((model.goal, model.goal, model.memory, model.memory), dtype=np.int64)
        mine, theirs = _tables(model, 2)
        for a, b in _diagonals(model.goal):
            table[a, b], mine[a, b] = _best(model, a, b, mine, theirs)
            theirs[a, b] = _values(model, a, b, opponent[a, b], theirs, mine)
    first = float(mine[0, 0, model.start, model.start])
    second = _second_seat(model, table, opponent)
    return table, {"first": first, "second": second, "average": (first + second) / 2}


def _second_seat(model: GameModel, table: np.ndarray, opponent: np.ndarray) -> float:
    """The chance that a full-state TABLE beats OPPONENT moving second (OPPONENT moves first)."""
    kernel = _kernel_for(model)
    if kernel is not None:
        return 1.0 - float(_search(kernel, model, FIXED, opponent, table)[0][0, 0, model.start, model.start])
    mine, theirs = _tables(model, 2)  # mine: OPPONENT's chance when it moves; theirs: TABLE's
    for a, b in _diagonals(model.goal):
        mine[a, b] = _values(model, a, b, opponent[a, b], mine, theirs)
        options = np.stack([_values(model, a, b, np.full(len(a), k), theirs, mine) for k in range(MOST_DICE + 1)])
        theirs[a, b] = np.take_along_axis(options, table[a, b][None], axis=0)[0]
    return 1.0 - float(mine[0, 0, model.start, model.start])


TIE = 1e-12  # gains closer than this are the same, whatever the order of their sums (kernel.c agrees)
IMPROVEMENT_ROUNDS = 30  # rounds of policy improvement at most (each one solves the game about 14 times)


def score_best_response(model: GameModel, opponent: np.ndarray, start: np.ndarray | None = None,
                        rounds: int = IMPROVEMENT_ROUNDS) -> tuple[np.ndarray, dict[str, float], int]:
    """A strategy of the two scores against OPPONENT found by policy improvement, with its exact win
    rates and the rounds it took. With memory, a strategy that sees only the scores faces states it
    cannot tell apart, so no backward pass alone gives its best; each round instead weighs, at every
    pair of scores, the states behind it by how likely the current strategy is to reach them, picks
    the number of dice best on that average (later states already valued under the new choices), and
    keeps the new strategy only if its exact win rate is higher. It stops when a round gains nothing:
    a local best, never above :func:`full_best_response`. START (default: the full-state best
    response, weighed the same way) is where it begins."""
    current = start if start is not None else _projected(model, opponent)
    rates = win_rates(model, current, opponent)
    done = 0
    while done < rounds:
        done += 1
        candidate = _improved(model, opponent, current, reach(model, current, opponent))
        candidate_rates = win_rates(model, candidate, opponent)
        if candidate_rates["average"] <= rates["average"] + 1e-12:
            break
        current, rates = candidate, candidate_rates
    return current, rates, done


def _improved(model: GameModel, opponent: np.ndarray, current: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """One round of improvement (see :func:`score_best_response`): where no state behind a pair of
    scores is ever reached, the current choice stays."""
    kernel = _kernel_for(model)
    if kernel is not None:
        return _search(kernel, model, IMPROVE, current, opponent, weights)[2]
    table = current.copy()
    mine, theirs = _tables(model, 2)
    for a, b in _diagonals(model.goal):
        options = np.stack([_values(model, a, b, np.full(len(a), k), mine, theirs) for k in range(MOST_DICE + 1)])
        gain = (options * weights[a, b][None]).sum(axis=(2, 3))  # (11, n)
        kept = gain[current[a, b], np.arange(len(a))]
        best = (gain >= gain.max(axis=0) - TIE).argmax(axis=0)  # the fewest dice within rounding of the best
        choice = np.where(gain[best, np.arange(len(a))] > kept + TIE, best, current[a, b])
        table[a, b] = choice
        mine[a, b] = options[choice, np.arange(len(a))]
        theirs[a, b] = _values(model, a, b, opponent[a, b], theirs, mine)
    return table


def _projected(model: GameModel, opponent: np.ndarray) -> np.ndarray:
    """The full-state best response brought down to the scores: at each pair of scores, the number of
    dice it chooses most often, weighed by how likely it is to reach each state."""
    full, _ = full_best_response(model, opponent)
    first = full[:, :, model.start, model.start]
    weights = reach(model, first, opponent)
    votes = np.zeros((MOST_DICE + 1, model.goal, model.goal))
    for k in range(MOST_DICE + 1):
        votes[k] = (weights * (full == k)).sum(axis=(2, 3))
    return np.where(votes.sum(axis=0) > 0, votes.argmax(axis=0), first).astype(np.int64)


def best_response(model: GameModel, opponent: np.ndarray) -> np.ndarray:
    """The strategy of the two scores with the highest chance to beat OPPONENT (ties: fewer dice).
    Exact when the scores are the whole state; with memory, see :func:`score_best_response`."""
    if model.memory > 1:
        return score_best_response(model, opponent)[0]
    table = np.zeros((model.goal, model.goal), dtype=np.int64)
    mine, theirs = _tables(model, 2)
    for a, b in _diagonals(model.goal):
        table[a, b], mine[a, b, 0, 0] = (x[:, 0, 0] for x in _best(model, a, b, mine, theirs))
        theirs[a, b] = _values(model, a, b, opponent[a, b], theirs, mine)
    return table


def optimal(model: GameModel) -> np.ndarray:
    """The minimax strategy: the best play against a player who also plays best (the scores must
    be the whole state: with memory, use :func:`full_best_response`)."""
    if model.memory > 1:
        raise AnalysisError(games_messages.minimax_needs_plain_state())
    table = np.zeros((model.goal, model.goal), dtype=np.int64)
    (win,) = _tables(model, 1)
    for a, b in _diagonals(model.goal):
        table[a, b], win[a, b, 0, 0] = (x[:, 0, 0] for x in _best(model, a, b, win, win))
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
        raise AnalysisError(games_messages.reference_strategy_failed(expression, edition.name,
                                                                     f"{type(exc).__name__}: {exc}")) from exc
    bad = next(((a, b, v) for a, row in enumerate(rows) for b, v in enumerate(row)
                if type(v) is not int or not 0 <= v <= MOST_DICE), None)
    if bad is not None:
        raise AnalysisError(games_messages.reference_strategy_failed(
            expression, edition.name, games_messages.strategy_bad_value(bad[0], bad[1], repr(bad[2]))))
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
        return games_messages.strategy_bad_value(int(value[1]), int(value[2]), str(value[3]))
    if isinstance(value, tuple) and value and value[0] == "unsteady" and len(value) == 3:
        return games_messages.strategy_unsteady(int(value[1]), int(value[2]))
    rows = list(value) if isinstance(value, tuple | list) else []
    if len(rows) != goal or not all(isinstance(r, str) and len(r) == goal for r in rows):
        return games_messages.strategy_not_a_table()
    digits = "0123456789X"
    try:
        return np.array([[digits.index(c) for c in row] for row in rows], dtype=np.int64)
    except ValueError:
        return games_messages.strategy_not_a_table()


def session_setup(session: Session) -> str:
    return f"from {session.module} import *"


# -- the compiled loop: every pair of strategies a grade, a contest or a command solves -------------

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
    private = str(scratch.make("hogkit-kernel-"))  # mode 0700: the grader's alone, never left behind
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
        scratch.remove(private)
    pointer = np.ctypeslib.ndpointer
    long_array, real_array = pointer(np.int64, flags="C"), pointer(np.float64, flags="C")
    game: list[Any] = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, long_array, long_array, long_array,
                       real_array, long_array, long_array, ctypes.c_void_p, ctypes.c_void_p]
    kernel.search_memory.restype = ctypes.c_int
    kernel.search_memory.argtypes = [*game, ctypes.c_int, long_array, ctypes.c_void_p, ctypes.c_int, long_array,
                                     real_array, real_array, ctypes.c_void_p]
    kernel.tactic_pair.restype = None
    kernel.tactic_pair.argtypes = [ctypes.c_int, real_array, real_array, real_array, real_array]
    kernel.reach_memory.restype = None
    kernel.reach_memory.argtypes = [*game, long_array, long_array, real_array, real_array]
    return kernel


@once(maxsize=8)
def _memory_arrays(model: GameModel) -> tuple:
    """The model's arrays in the layout the C loop reads, made once per model."""
    def longs(array: np.ndarray | None, like: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(np.zeros_like(like) if array is None else array, dtype=np.int64)

    counts = np.ascontiguousarray((model.probs > 0).sum(axis=1), dtype=np.int64)
    after = None if model.after is None else np.ascontiguousarray(model.after, dtype=np.int64)
    extra = None if model.extra is None else np.ascontiguousarray(model.extra, dtype=np.uint8)
    return (counts, longs(model.nexts, model.nexts), longs(model.recalls, model.nexts),
            np.ascontiguousarray(model.probs), longs(model.zero, model.zero), longs(model.zero_recall, model.zero),
            after, extra)


MOST_MEMORY = 256  # memory classes the C loop takes (kernel.c's buffers)
FIXED, FULL, BEST, IMPROVE = range(4)  # how the first player chooses in kernel.c's search_memory


def _kernel_for(model: GameModel) -> ctypes.CDLL | None:
    kernel = compiled_kernel()
    return kernel if kernel is not None and model.memory <= MOST_MEMORY else None


def _game_arguments(model: GameModel) -> list:
    counts, nexts, recalls, probs, zero, zero_recall, after, extra = _memory_arrays(model)
    return [model.goal, model.size, model.memory, nexts.shape[3], counts, nexts, recalls, probs, zero, zero_recall,
            None if after is None else after.ctypes.data, None if extra is None else extra.ctypes.data]


def _longs(table: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(table, dtype=np.int64)


def _search(kernel: ctypes.CDLL, model: GameModel, mode: int, first: np.ndarray, second: np.ndarray,
            weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One compiled pass over every state (kernel.c's search_memory): both players' win tables
    (goal, goal, memory, memory) and the first player's choices (for BEST and IMPROVE). SECOND is
    a score-only table or a full-state one."""
    shape = (model.goal, model.goal, model.memory, model.memory)
    win_first, win_second = np.empty(shape), np.empty(shape)  # every state below the goal is written
    first, second = _longs(first), _longs(second)
    choice = _longs(first.copy() if mode == IMPROVE else np.zeros(shape if mode == BEST else (1,)))
    held = None if weights is None else np.ascontiguousarray(weights, dtype=np.float64)
    status = kernel.search_memory(*_game_arguments(model), mode, first, None if held is None else held.ctypes.data,
                                  int(second.ndim == 4), second, win_first, win_second, choice.ctypes.data)
    if status != 0:
        raise MemoryError  # the C loop could not allocate its buffer of options
    return win_first, win_second, choice


def _compiled_tables(model: GameModel, first: np.ndarray, second: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray] | None:
    """What :func:`win_tables` computes for two strategies of the scores, in the C loop (None
    without a compiler). The loop releases the interpreter, so threads solve pairs side by side."""
    kernel = _kernel_for(model)
    if kernel is None or first.ndim != 2 or second.ndim != 2:
        return None
    return _search(kernel, model, FIXED, first, second)[:2]


def pair_rate(model: GameModel, first: np.ndarray, second: np.ndarray) -> float:
    """FIRST's exact chance to beat SECOND, averaged over both seats (compiled when it can be)."""
    return win_rates(model, first, second)["average"]
