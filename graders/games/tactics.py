"""Tactic games: exact win rates for a game whose turn is a series of actions (Pig's shape).

Contract: a :class:`TacticModel` is derived from the edition's ``[game]`` table (see
:class:`graders.editions.edition.GameSettings`) and its reference functions, never re-coded here: every
action is called with every turn total and outcome, giving (points scored, new turn total, whether
the turn is over); the die a turn uses comes from the ``sides`` expression over both scores. The
model assumes only that points count when a turn is over and that a turn that goes on raises the
turn total; it refuses (:class:`AnalysisError`) a game where that fails.

A strategy is a table ``act[score, opponent_score, turn_total]`` of action indexes, for every turn
total below ``width`` (the goal plus the die's largest face: from there on a player who holds has
won, so a turn total of ``width`` or more counts as banked and won).

Solving: a strategy's tactic at a pair of scores gives a distribution of what the turn scores,
worked out forward over the turn total for every pair at once. A turn can score nothing (holding at
a turn total of 0), which gives the turn back with both scores unchanged, so a game can come back
to a state: the states are solved in order of decreasing score sum, and on each sum the loop
between "I move at (a, b)" and "you move at (a, b)" is solved exactly as the two-unknown linear
system it is (an endless game, both players always giving the turn back, is won by nobody).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from graders.core.errors import AnalysisError
from graders.core.memo import once
from graders.editions.edition import Edition
from graders.games import messages as games_messages
from graders.games import reference
from graders.sandboxing.probes import tactic_row

TABULATE_SECONDS = 60.0  # for one strategy's tactics at every pair of scores and turn total


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: it holds arrays
class TacticModel:
    goal: int
    width: int  # turn totals tabulated: 0 .. width - 1
    actions: tuple[str, ...]
    totals: tuple[int, ...]  # the turn totals a turn can reach, below width
    sides: np.ndarray  # (goal, goal): the die's number of faces for a turn at (score, opponent_score)
    over: np.ndarray  # (actions, width, faces + 1): whether the turn ends
    gain: np.ndarray  # ... the points it scores when it ends
    after: np.ndarray  # ... the new turn total when it goes on


@once(maxsize=8)
def build_model(edition: Edition) -> TacticModel:
    """The edition's game as arrays, derived by calling its reference functions once per process."""
    game = edition.game
    namespace = reference.namespace(edition)
    goal = int(reference.evaluate(edition, game.goal))
    sides = np.array([[int(eval(game.sides, {**namespace, "score": a, "opponent_score": b}))  # noqa: S307
                       for b in range(goal)] for a in range(goal)], dtype=np.int64)
    faces = int(sides.max())
    width = goal + faces
    shape = (len(game.actions), width, faces + 1)
    over, gain, after = np.zeros(shape, dtype=bool), np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    for i, name in enumerate(game.actions):
        action = namespace[name]
        for t in range(width):
            for o in range(1, faces + 1):
                over[i, t, o], gain[i, t, o], after[i, t, o] = _transition(edition, action, name, t, o)
    return TacticModel(goal, width, game.actions, _reachable(over, after, width), sides, over, gain, after)


def _transition(edition: Edition, action: Callable, name: str, t: int, o: int) -> tuple[bool, int, int]:
    scored, total, ends = action(t, o)
    if type(ends) is not bool or type(scored) is not int or type(total) is not int or scored < 0:
        raise AnalysisError(games_messages.game_not_solvable(
            edition.name, games_messages.action_returned(name, t, o, scored, total, ends)))
    if not ends and (scored != 0 or total <= t):
        raise AnalysisError(games_messages.game_not_solvable(edition.name, games_messages.action_stalls(name, t, o)))
    return ends, scored, total


def _reachable(over: np.ndarray, after: np.ndarray, width: int) -> tuple[int, ...]:
    seen, todo = {0}, [0]
    while todo:
        t = todo.pop()
        for nxt in after[:, t, :][~over[:, t, :]].tolist():
            if nxt < width and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return tuple(sorted(seen))


def parse_rows(rows: Sequence[object], model: TacticModel) -> np.ndarray | str:
    """A strategy's tactics from the child's plain data (one text per score), or what is wrong."""
    table = np.zeros((model.goal, model.goal, model.width), dtype=np.int8)
    columns = np.array(model.totals)
    for a, row in enumerate(rows):
        if isinstance(row, tuple) and row and row[0] == "bad" and len(row) == 5:
            return games_messages.tactic_bad_value(int(row[1]), int(row[2]), int(row[3]), str(row[4]), model.actions)
        if isinstance(row, tuple) and row and row[0] == "unsteady" and len(row) == 4:
            return games_messages.tactic_unsteady(int(row[1]), int(row[2]), int(row[3]))
        if isinstance(row, tuple) and row and row[0] == "not_a_function" and len(row) == 4:
            return games_messages.tactic_not_a_function(int(row[1]), int(row[2]), str(row[3]))
        if not isinstance(row, str) or len(row) != model.goal * len(columns) or not row.isdigit():
            return games_messages.strategy_not_a_table()
        choices = np.frombuffer(row.encode("ascii"), dtype=np.uint8).astype(np.int8) - ord("0")
        if choices.max() >= len(model.actions):
            return games_messages.strategy_not_a_table()
        table[a][:, columns] = choices.reshape(model.goal, len(columns))
    return table


@once(maxsize=32)
def reference_table(edition: Edition, expression: str) -> np.ndarray:
    """A reference strategy (an expression such as ``make_roll_until_strategy(20)``) as a table."""
    model = build_model(edition)
    namespace = reference.namespace(edition)
    actions = tuple(namespace[name] for name in model.actions)
    try:  # the same row the sandboxed child computes for a submission's strategy
        strategy = reference.evaluate(edition, expression)
        rows = [tactic_row(strategy, actions, a, model.goal, model.totals) for a in range(model.goal)]
    except Exception as exc:
        raise AnalysisError(games_messages.reference_strategy_failed(expression, edition.name,
                                                                     f"{type(exc).__name__}: {exc}")) from exc
    table = parse_rows(rows, model)
    if isinstance(table, str):
        raise AnalysisError(games_messages.reference_strategy_failed(expression, edition.name, table))
    table.setflags(write=False)
    return table


def turn_gains(model: TacticModel, table: np.ndarray) -> np.ndarray:
    """(goal, goal, goal + 1): the chance that the mover's turn at (score, opponent) scores k points,
    for k below the goal; the last column holds every turn that scores the goal or more."""
    goal, width = model.goal, model.width
    count = goal * goal
    act = table.reshape(count, width)
    faces = model.over.shape[2] - 1
    chance = _chances(model, *np.divmod(np.arange(count), goal))  # every pair of scores, row by row
    reach = np.zeros((count, width))
    reach[:, 0] = 1.0
    gains = np.zeros((count, goal + 1))
    for t in range(width):
        here = reach[:, t]
        if not here.any():
            continue
        for i in range(len(model.actions)):
            mine = np.where(act[:, t] == i, here, 0.0)
            if not mine.any():
                continue
            for o in range(1, faces + 1):
                weight = mine * chance[:, o - 1]
                if model.over[i, t, o]:
                    gains[:, min(int(model.gain[i, t, o]), goal)] += weight
                elif model.after[i, t, o] >= width:
                    gains[:, goal] += weight  # past every tabulated total: banked, and the goal reached
                else:
                    reach[:, model.after[i, t, o]] += weight
    return gains.reshape(goal, goal, goal + 1)


def win_rates(model: TacticModel, mine: np.ndarray, theirs: np.ndarray) -> dict[str, float]:
    """MINE's exact chance to beat THEIRS going first, going second, and their average."""
    return rates_of_gains(model, turn_gains(model, mine), turn_gains(model, theirs))


def rates_of_gains(model: TacticModel, ours: np.ndarray, others: np.ndarray) -> dict[str, float]:
    """:func:`win_rates` from the two strategies' :func:`turn_gains`: what a contest, which works
    each entry's out once, solves for every pair."""
    v, x = _solve_gains(model, ours, others)
    first, second = float(v[0, 0]), float(x[0, 0])
    return {"first": first, "second": second, "average": (first + second) / 2}


def start_values(model: TacticModel, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """(goal, goal): MINE's exact chance to beat THEIRS about to start a turn at each pair of scores."""
    return _solve_gains(model, turn_gains(model, mine), turn_gains(model, theirs))[0][:, :model.goal]


def _solve_gains(model: TacticModel, ours: np.ndarray, others: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(v, x): v[s, o] my chance to win when I move with s against o; x[s, o] the same when they move.
    Padded: a score at or past the goal is a game already won (mine) or lost (theirs). Compiled
    (kernel.c's tactic_pair) where a C compiler is found."""
    from graders.games.analysis import compiled_kernel

    goal = model.goal
    x = np.ones((2 * goal + 1, goal))
    v = np.zeros((goal, 2 * goal + 1))
    kernel = compiled_kernel()
    if kernel is not None:
        kernel.tactic_pair(goal, np.ascontiguousarray(ours, dtype=np.float64),
                           np.ascontiguousarray(others, dtype=np.float64), v, x)
        return v, x
    steps = np.arange(1, goal + 1)
    for total in range(2 * goal - 2, -1, -1):
        s = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
        o = total - s
        c_me = (ours[s, o, 1:] * x[s[:, None] + steps, o[:, None]]).sum(axis=1)
        c_them = (others[o, s, 1:] * v[s[:, None], o[:, None] + steps]).sum(axis=1)
        p_me, p_them = ours[s, o, 0], others[o, s, 0]
        loop = 1.0 - p_me * p_them  # both give the turn back with nothing scored: the same state again
        safe = np.where(loop > 0, loop, 1.0)
        v[s, o] = np.where(loop > 0, (c_me + p_me * c_them) / safe, 0.0)
        x[s, o] = c_them + p_them * v[s, o]
    return v, x


TABLE_NAME = "BEST_RESPONSE"


def table_runs(model: TacticModel, table: np.ndarray) -> list[list[str]]:
    """TABLE as text: for each pair of scores, its runs of one action over the turn totals a turn
    can reach, each the action's letter and the total it starts at ("r0 h20": roll below 20, then
    hold). A total no turn reaches takes the action before it, so it starts no run; the runs stop at
    the total that reaches the goal, where holding wins (the last run goes on from there)."""
    letters = _letters(model.actions)
    reachable = np.zeros(model.width, dtype=bool)
    reachable[list(model.totals)] = True
    rows = []
    for a in range(model.goal):
        row = []
        for b in range(model.goal):
            runs, last = [], -1
            for t in range(min(model.goal - a, model.width - 1) + 1):
                if reachable[t] and table[a, b, t] != last:
                    last = int(table[a, b, t])
                    runs.append(f"{letters[last]}{t}")
            row.append(" ".join(runs))
        rows.append(row)
    return rows


def _letters(actions: tuple[str, ...]) -> str:
    """One letter per action: its first, or its index when two actions share a first letter."""
    firsts = [name[0] for name in actions]
    return "".join(firsts) if len(set(firsts)) == len(firsts) else "".join(str(i) for i in range(len(actions)))


def strategy_module_source(model: TacticModel, table: np.ndarray, heading: str) -> str:
    """A file a student can paste into their file: TABLE's runs under a name, with what it is
    (HEADING) and how to read it, and a final_strategy whose tactic plays as it says."""
    import textwrap

    letters = _letters(model.actions)
    body = "\n".join("    (" + ", ".join(repr(cell) for cell in row) + ")," for row in table_runs(model, table))
    chosen = ", ".join(f"{letter!r}: {name}" for letter, name in zip(letters, model.actions, strict=True))
    return ("\n".join(textwrap.wrap(heading, 97, initial_indent="# ", subsequent_indent="# ")) + "\n"
            f"# Row: your score; column: the opponent's score; each string: the tactic's runs, an action's\n"
            f"# letter and the turn total it starts at (\"r0 h20\": roll below 20, then hold).\n"
            f"{TABLE_NAME} = (\n{body}\n)\nACTIONS = {{{chosen}}}\n\n\n"
            f"def final_strategy(score, opponent_score):\n"
            f'    """Play the tactic {TABLE_NAME} gives for these two scores."""\n'
            f"    runs = [(int(run[1:]), ACTIONS[run[0]]) for run in {TABLE_NAME}[score][opponent_score].split()]\n\n"
            f"    def tactic(turn_total):\n"
            f"        chosen = runs[0][1]\n"
            f"        for start, action in runs:  # in the order of the turn totals they start at\n"
            f"            if start > turn_total:\n"
            f"                break\n"
            f"            chosen = action\n"
            f"        return chosen\n"
            f"    return tactic\n")


PICTURE_TOTALS = range(0, 40, 5)  # the turn totals a picture of a strategy shows, where a turn reaches them


def picture_totals(model: TacticModel) -> list[int]:
    return [t for t in PICTURE_TOTALS if t in model.totals]


# -- best play ------------------------------------------------------------------------------------

TOLERANCE = 1e-13  # a score sum's values are final when a round changes none of them by more
MOST_ROUNDS = 500  # rounds of value iteration on one score sum before the game is declared unsolvable


def best_response(model: TacticModel, opponent: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(table, values): the strategy with the highest chance to beat OPPONENT's table, and
    ``values[score, opponent_score, turn_total]``, the mover's exact chance to win about to act
    there, playing it. With no OPPONENT: the optimal strategy, the one whose chance to win is the
    highest a player can be sure of whatever the other does (its values are that chance).

    An endless game is won by nobody. Value iteration, one score sum at a time from the highest:
    every state of a sum depends on higher sums only, except through a turn that ends scoring
    nothing, which gives the same scores back to the other player. A sum's values start from 0 and
    rise to the least fixed point (what a game that may go on for ever is worth to a player who
    must win it), until no round changes any by more than :data:`TOLERANCE`. Ties go to the first
    action listed (roll: the game moves on)."""
    goal, width = model.goal, model.width
    values = np.zeros((goal, goal, width))
    table = np.zeros((goal, goal, width), dtype=np.int8)
    start = np.zeros((goal, goal + width))  # start[a, b]: my chance about to start a turn at (a, b) (padded: lost)
    waiting = np.ones((2 * goal + width, goal))  # waiting[a, b]: mine as the other starts theirs (padded: won)
    theirs = None if opponent is None else turn_gains(model, opponent)
    plans, points = _plans(model), _points(model)
    for total in range(2 * goal - 2, -1, -1):
        a = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
        b = total - a
        mine, yours = _chances(model, a, b), _chances(model, b, a)
        for _round in range(MOST_ROUNDS):
            before = start[a, b].copy()
            if theirs is None:  # the other plays to keep my chance lowest
                waiting[a, b] = _turn(plans, yours, start[a[:, None], b[:, None] + points], np.argmin)[0][:, 0]
            else:
                waiting[a, b] = _waiting(start, theirs, a, b)
            vals, acts = _turn(plans, mine, waiting[a[:, None] + points, b[:, None]], np.argmax)
            start[a, b] = vals[:, 0]
            if float(np.max(np.abs(vals[:, 0] - before))) < TOLERANCE:
                break
        else:
            raise AnalysisError(games_messages.best_play_unsettled(total, MOST_ROUNDS))
        values[a, b], table[a, b] = vals, acts
    return table, values


def _plans(model: TacticModel) -> list[list[tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    """For each action and turn total, over the die's faces: whether the turn ends, the points it
    then scores, and otherwise the new turn total (``width`` for any total past the table: banked)."""
    return [[(model.over[i, t, 1:], model.gain[i, t, 1:], np.minimum(model.after[i, t, 1:], model.width))
             for t in range(model.width)] for i in range(len(model.actions))]


def _points(model: TacticModel) -> np.ndarray:
    """Every number of points a turn can score."""
    return np.arange(int(model.gain.max()) + 1)


def _chances(model: TacticModel, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(pairs, faces): the chance of each face of the die the mover uses at scores (a, b)."""
    faces = model.over.shape[2] - 1
    sides = model.sides[a, b][:, None]
    return np.where(np.arange(1, faces + 1)[None, :] <= sides, 1.0 / sides, 0.0)


def _waiting(start: np.ndarray, theirs: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """My chance to win as the other player, playing the table of gains THEIRS, starts a turn with
    B against my A."""
    goal = start.shape[0]
    gains = theirs[b, a, :goal]  # the chance their turn scores h, for h below the goal (more: they win)
    return (gains * start[a[:, None], b[:, None] + np.arange(goal)]).sum(axis=1)


def _turn(plans: list, chance: np.ndarray, after_turn: np.ndarray, pick: Callable
          ) -> tuple[np.ndarray, np.ndarray]:
    """At every turn total, from the highest down, the action PICK (np.argmax or np.argmin) takes
    of my chances after each (AFTER_TURN[pair, points]: mine once the turn ends scoring that many),
    and that chance."""
    pairs, width = chance.shape[0], len(plans[0])
    vals = np.full((pairs, width + 1), 1.0 if pick is np.argmax else 0.0)  # past the table: the mover won
    acts = np.zeros((pairs, width), dtype=np.int8)
    rows = np.arange(pairs)
    for t in range(width - 1, -1, -1):
        choices = np.stack([(chance * np.where(over[None, :], after_turn[:, gain], vals[:, after])).sum(axis=1)
                            for over, gain, after in (plan[t] for plan in plans)])
        acts[:, t] = pick(choices, axis=0)
        vals[:, t] = choices[acts[:, t], rows]
    return vals[:, :width], acts
