"""Probes: small helpers every case transcript may use to watch how submitted code behaves.

Contract: this file runs inside the sandboxed child next to untrusted code, so it imports only
the standard library and prints only values whose type it has checked exactly (``plain``), never
``str()`` of an object the submission made. Every public name is listed in ``__all__`` and is
put into each case's namespace. Nothing here knows about any edition: the probes count calls,
record arguments and build seeded dice and strategies.
"""

from __future__ import annotations

import inspect
import os
import random
import sys
import traceback
from collections.abc import Callable

# True only for the type checker: this file runs in the child, which imports no more than it needs.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FrameType
    from typing import Any

__all__ = ["plain", "counted", "counting_dice", "spy", "seeded_game", "show_strategy", "check_strategy",
           "commentary_log", "tabulate", "tactic_row", "install", "gui_game", "strategy_names"]


RECORD_MOST = 10_000  # calls a probe keeps; a game that loops forever must time out, not fill memory


def _keep(records: list, item: object) -> None:
    """Append ITEM unless RECORD_MOST are kept already: the count still grows, the memory does not."""
    if len(records) < RECORD_MOST:
        records.append(item)


def plain(value: object) -> str:
    """``repr`` of a value of an exact plain type; a placeholder for anything else."""
    if type(value) in (int, bool, float, str) or value is None:
        return repr(value)
    if type(value) is tuple:
        return "(" + ", ".join(plain(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return "<" + type(value).__name__ + " object>"


class counted:
    """Wrap FN and count its calls: ``.calls``, positional arguments in ``.args``, keywords in ``.kwargs``
    (the first RECORD_MOST of them)."""

    def __init__(self, fn: Callable) -> None:
        self.fn, self.calls = fn, 0
        self.args: list[tuple] = []
        self.kwargs: list[dict] = []

    def __call__(self, *args: object, **kwargs: object) -> object:
        self.calls += 1
        _keep(self.args, args)
        _keep(self.kwargs, kwargs)
        return self.fn(*args, **kwargs)


class counting_dice:
    """A test die that cycles through OUTCOMES and counts how often it was rolled (``.calls``)."""

    def __init__(self, *outcomes: int) -> None:
        assert outcomes, "counting_dice needs at least one outcome"
        self.outcomes, self.calls = outcomes, 0

    def __call__(self) -> int:
        outcome = self.outcomes[self.calls % len(self.outcomes)]
        self.calls += 1
        return outcome


def spy(module: object, name: str) -> counted:
    """Replace MODULE.NAME by a counting wrapper and return it (the case's end restores MODULE)."""
    wrapper = counted(getattr(module, name))
    setattr(module, name, wrapper)
    return wrapper


SEEDED_ROLLS = 512  # a seeded game's rolls drawn ahead: the kit's longest takes about 200; then they come round


def _seeded_dice(rng: random.Random) -> Callable[[], int]:
    """Fair-looking dice: SEEDED_ROLLS outcomes drawn from RNG, in the order RNG gives them, then
    the same again. A closure of plain values that reads no global, so that a link to the kit's
    own child sends it as its state, and the kit's functions roll a copy (see
    graders.sandboxing.child.Link.by_value); how often it was rolled is its ``calls`` cell."""
    outcomes = tuple(rng.randrange(6) + 1 for _ in range(SEEDED_ROLLS))
    calls = 0

    def dice() -> int:
        nonlocal calls
        calls += 1
        return outcomes[(calls - 1) % len(outcomes)]

    return dice


def _rolled(dice: object) -> object:
    """How often a die of :func:`_seeded_dice` was rolled (its ``calls`` cell)."""
    code, cells = getattr(dice, "__code__", None), getattr(dice, "__closure__", None) or ()
    names = code.co_freevars if code is not None else ()
    return dict(zip(names, (cell.cell_contents for cell in cells))).get("calls", "?")


def _mix(*numbers: int) -> int:
    """A small deterministic integer hash (never Python's ``hash``, which varies per process)."""
    h = 2166136261
    for n in numbers:
        h = ((h ^ (n & 0xFFFFFFFF)) * 16777619) & 0xFFFFFFFF
    return h


class seeded_game:
    """Dice and two strategies drawn from SEED, recording every strategy call.

    ``strategy0`` and ``strategy1`` choose 0..MOST dice from (seed, player, score, opponent score),
    so a strategy called with the wrong scores makes a different choice and the trace shows it.
    ``trace()`` prints one line per call: which strategy, the two scores it was given, the choice.
    """

    def __init__(self, seed: int, most: int = 8) -> None:
        self.seed, self.most = seed, most
        self.dice = _seeded_dice(random.Random(seed))
        self.calls: list[tuple] = []
        self.strategy0 = self._strategy(0)
        self.strategy1 = self._strategy(1)

    def _strategy(self, who: int) -> Callable[[object, object], int]:
        def strategy(score: object, opponent_score: object) -> int:
            choice = _mix(self.seed, who, score, opponent_score) % (self.most + 1) if (
                type(score) is int and type(opponent_score) is int
            ) else 0
            _keep(self.calls, (who, score, opponent_score, choice))
            return choice
        return strategy

    def trace(self) -> None:
        for who, score, opponent_score, choice in self.calls:
            print("strategy" + str(who), "given", plain(score), plain(opponent_score), "rolls", choice)
        print("dice rolled", plain(_rolled(self.dice)), "times")


# A number of dice shown as one character: 0-9, X for 10, then the other capital letters (11 to 35).
CHOICES = "0123456789X" + "ABCDEFGHIJKLMNOPQRSTUVWYZ"
# The fewest and most dice a strategy may choose: the edition's ([game] dice), set when the child starts.
# A choice is an int (exactly) from DICE[0] to DICE[1]; the loops below test that inline, as they
# run for every pair of scores.
DICE = (0, 10)


def show_strategy(strategy: Callable, goal: int = 100) -> None:
    """Print STRATEGY's choice for every pair of scores below GOAL: one row per score, one
    character per opponent score (see CHOICES: 0-9, X for 10; ? for anything that is not an int
    in the edition's range of dice).
    """
    low, high = DICE
    for score in range(goal):
        row = [strategy(score, opp) for opp in range(goal)]
        print(str(score).rjust(3) + " " + "".join(
            CHOICES[v] if type(v) is int and low <= v <= high else "?" for v in row))


def check_strategy(strategy: Callable, goal: int = 100) -> None:
    """Print the first pair of scores where STRATEGY does not return an int in the edition's range
    of dice, or where asking twice gives two answers; print 'valid' when there is none.
    """
    found = tabulate(strategy, goal)
    if found and found[0] == "bad":
        print("strategy(" + str(found[1]) + ", " + str(found[2]) + ") returned " + found[3])
    elif found and found[0] == "unsteady":
        print("strategy(" + str(found[1]) + ", " + str(found[2]) + ") gave two different answers")
    else:
        print("valid")


class commentary_log:
    """A chain of commentary functions that records every call.

    ``first`` is the commentary to give ``play``; each call records (link, score0, score1) and
    returns the *next* link, so a ``play`` that keeps calling the first commentary instead of the
    one it got back shows up in ``trace()`` as the same link number again and again.
    """

    def __init__(self) -> None:
        self.calls: list[tuple] = []
        self.first = self._link(0)

    def _link(self, k: int) -> Callable[[object, object], Callable]:
        def say(score0: object, score1: object) -> Callable:
            _keep(self.calls, (k, score0, score1))
            return self._link(k + 1)
        return say

    def trace(self) -> None:
        for k, score0, score1 in self.calls:
            print("commentary", k, "given", plain(score0), plain(score1))


def tabulate(strategy: Callable, goal: int = 100) -> tuple:
    """STRATEGY's choice for every pair of scores below GOAL, as GOAL strings of GOAL characters
    (see CHOICES); or ("bad", score, opponent, what it returned) for the first pair where it does
    not return an int in the edition's range of dice, or ("unsteady", score, opponent) where two
    calls disagree."""
    rows = []
    low, high = DICE
    for score in range(goal):
        row = []
        for opp in range(goal):
            first = strategy(score, opp)
            if type(first) is not int or not low <= first <= high:
                return ("bad", score, opp, plain(first))
            again = strategy(score, opp)
            if type(again) is not int or again != first:
                return ("unsteady", score, opp)
            row.append(CHOICES[first])
        rows.append("".join(row))
    return tuple(rows)


def install(module: str, source: str) -> None:
    """Run SOURCE (the kit's own code: a version of a function) in the loaded MODULE, replacing
    what it defines there; the next case finds the module restored."""
    exec(compile(source, "<version>", "exec"), vars(sys.modules[module]))


def tactic_row(strategy: Callable, actions: tuple, score: int, goal: int, totals: tuple) -> object:
    """The tactics STRATEGY gives at SCORE against every opponent score below GOAL, as one text: for
    each opponent score, one digit per turn total in TOTALS, the index in ACTIONS of the action
    its tactic returns (compared by identity). Or, for the first pair that goes wrong, ("bad",
    score, opponent, total, what it returned), ("unsteady", score, opponent, total) where asking
    twice gives two answers, or ("not_a_function", score, opponent, what the strategy returned)."""
    # Each action's digit by the action's identity: two live objects never share an id, so an
    # answer whose id is an action's is that action (this runs about a million times a table).
    digits: dict = {}
    for index, action in enumerate(actions):
        digits.setdefault(id(action), "0123456789"[index])
    out = []
    for opp in range(goal):
        tactic = strategy(score, opp)
        if not callable(tactic):
            return ("not_a_function", score, opp, plain(tactic))
        for total in totals:
            first = tactic(total)
            digit = digits.get(id(first))
            if digit is None:
                return ("bad", score, opp, total, plain(first))
            if tactic(total) is not first:
                return ("unsteady", score, opp, total)
            out.append(digit)
    return "".join(out)


# -- one game for the web page ------------------------------------------------------------------

GAME_MOST_TURNS = 1000  # strategy calls in one game before it counts as endless
GAME_MOST_ROLLS = 100  # outcomes kept per turn (a roll_dice that never stops is cut by the deadline)
GAME_MOST_TEXT = 4000  # characters of printed output and commentary kept per turn
GAME_ALL_TEXT = 64 * 1024  # ... and in the whole game, so the reply stays small
GAME_MOST_VALUE = 80  # characters shown of a value that is not a plain number


class _TimeUp(BaseException):
    """Raised by the game's own alarm a little before the parent's deadline, so that the page can
    name the function that was still running; a BaseException, as _Stop is."""


ALARM_AGAIN = 0.02  # seconds between alarms once the first has gone off


def _time_up(signum: int, frame: object) -> None:
    raise _TimeUp()


class _Stop(BaseException):
    """Raised inside the submission's play to end the replay; a BaseException, so that an
    ``except Exception`` in the submission does not swallow it."""


def _number(value: object) -> int | str:
    """VALUE if it is a plain int of sensible size; otherwise a short text saying what it is."""
    if type(value) is int and -(10**18) < value < 10**18:
        return value
    if type(value) is int:
        return "<a number with " + str(len(str(abs(value))) if abs(value).bit_length() < 10000 else "thousands of") \
            + " digits>"
    text = plain(value)
    return text if len(text) <= GAME_MOST_VALUE else text[:GAME_MOST_VALUE] + "…"


class _Action:
    """One action of a tactic game's turn: the turn total its tactic was given, what it chose (the
    index of the action, or a short text for anything else), each die rolled for it with its
    number of sides, and what the remarks said of it (or why they could not)."""

    def __init__(self, total: object, choice: int | str) -> None:
        self.total, self.choice = total, choice
        self.outcomes: list[int] = []
        self.sides: list[int] = []
        self.remarks: list[str] = []  # one per remark expression, "" for one that failed
        self.failed: list[tuple] = []  # (expression, "raised" or "returned", what it raised or returned)

    def row(self) -> tuple:
        return (_number(self.total), self.choice, tuple(self.outcomes), tuple(self.sides),
                tuple(r[:GAME_MOST_TEXT] for r in self.remarks), tuple(self.failed))


class _Turn:
    """One strategy call of a game whose move is a number of dice (CHOICE), and what happened until
    the next; the opening (who -1) is what happened before the first."""

    def __init__(self, who: int, score: object, opponent: object, choice: object) -> None:
        self.who, self.score, self.opponent, self.choice = who, score, opponent, choice
        self.rolls: list[int | str] = []
        self.said, self.printed, self.say_error = "", "", ""
        self.scored: object = None  # what the spec's ``scored_by`` function returned for this turn

    def rolled(self, outcome: int, sides: int) -> _Action | None:
        """Keep OUTCOME, rolled on a die of SIDES faces; the action it is the first outcome of, to be
        remarked on (None: none)."""
        if len(self.rolls) < GAME_MOST_ROLLS:
            self.rolls.append(outcome)
        return None

    def row(self) -> tuple:
        """(who, score, opponent score, choice, rolls, commentary, printed, commentary error)."""
        return (self.who, _number(self.score), _number(self.opponent), _number(self.choice), tuple(self.rolls),
                self.said[:GAME_MOST_TEXT], self.printed[:GAME_MOST_TEXT], self.say_error)


class _ActionTurn(_Turn):
    """One strategy call of a game whose move is an action: the turn its tactic plays, one action
    after another (its choice, in the row, is how many)."""

    def __init__(self, who: int, score: object, opponent: object) -> None:
        super().__init__(who, score, opponent, 0)
        self.actions: list[_Action] = []
        self.current: _Action | None = None  # the action the dice now rolled are for

    def took(self, action: _Action) -> None:
        self.actions.append(action)
        self.current = action

    def rolled(self, outcome: int, sides: int) -> _Action | None:
        super().rolled(outcome, sides)
        action = self.current
        if action is None or len(action.outcomes) >= GAME_MOST_ROLLS:
            return None
        action.outcomes.append(outcome)
        action.sides.append(sides)
        return action if len(action.outcomes) == 1 else None

    def row(self) -> tuple:
        """A dice turn's row, then the actions' rows and the points ``scored_by`` gave ("" for none)."""
        row = super().row()
        scored = "" if self.scored is None else _number(self.scored)
        return (*row[:3], len(self.actions), *row[4:], tuple(a.row() for a in self.actions), scored)


class _Output:
    """sys.stdout during a game: text goes to the current turn, as commentary while ``say`` runs."""

    def __init__(self, game: _PlayedGame) -> None:
        self.game = game
        self.left = GAME_ALL_TEXT
        self.cut = False

    def write(self, text: object) -> int:
        if type(text) is not str:
            return 0
        size = len(text)
        if self.cut:
            return size
        turn = self.game.turns[-1] if self.game.turns else self.game.opening
        if size > self.left:
            text, self.cut = text[: self.left] + "…", True  # what was left out is marked once, at the cut
        self.left -= size
        if self.game.saying:
            turn.said = (turn.said + text)[: GAME_MOST_TEXT + 1]
        else:
            turn.printed = (turn.printed + text)[: GAME_MOST_TEXT + 1]
        return size

    def flush(self) -> None:
        pass


class _PlayedGame:
    """One game the page asked for (see :func:`gui_game`), played by the submission's own ``play``:
    its turns as they are taken, the people's moves still to come, and where it stopped."""

    def __init__(self, module: object, spec: dict) -> None:
        self.module, self.spec = module, spec
        self.names = dict(vars(module))
        self.rng = random.Random(spec["seed"])
        self.moves = list(spec["moves"])
        self.turns: list[_Turn] = []
        self.opening = _Turn(-1, 0, 0, 0)  # output printed before the first turn
        self.stopped_at: tuple | None = None  # (who, score, opponent) of the call that stopped the game
        self.waiting = False
        self.saying = False
        self.actions = tuple(spec.get("actions", ()))  # a game of actions' actions, by name, in order
        # How a strategy call makes its turn, by the kind of move the spec names (graders.gui.moves): chosen once.
        self.take_turn = {"dice": self.count_turn, "actions": self.action_turn}[spec["move"]]

    def dice(self) -> int:
        return self.die(self.spec["sides"])()

    def die(self, sides: int) -> Callable[[], int]:
        """A die of SIDES faces drawn from the game's seed, each outcome kept with its turn."""
        def roll() -> int:
            if self.stopped_at is not None:  # a play that swallowed the stop rolls on: no more dice
                raise _Stop()
            outcome = self.rng.randrange(sides) + 1
            action = self.turns[-1].rolled(outcome, sides) if self.turns else None
            if action is not None:
                self.remark(action, outcome)
            return outcome
        return roll

    def remark(self, action: _Action, outcome: int) -> None:
        """The submission's own words on ACTION (the spec's ``remarks``, each an expression over
        ``action`` and ``outcome`` that should give a str); a remark that raises or gives anything
        else is kept as such, and the game goes on."""
        chosen = self.names.get(self.actions[action.choice]) if type(action.choice) is int else None
        for source in self.spec.get("remarks") or ():
            self.saying = True  # what a remark prints is commentary too
            try:
                said = eval(source, dict(self.names, action=chosen, outcome=outcome))
            except (_Stop, _TimeUp):
                raise
            except BaseException as exc:
                action.remarks.append("")
                action.failed.append((source, "raised", _short(exc, self.module)))
                continue
            finally:
                self.saying = False
            if type(said) is str:
                action.remarks.append(said)
            else:
                action.remarks.append("")
                action.failed.append((source, "returned", _number(said)))

    def tactic(self, turn: _ActionTurn, here: tuple, plan: Callable | None) -> Callable:
        """Turn TURN's tactic for take_turn: PLAN (the submission's), or a person's moves when None.
        Every call is an action of the turn; a person's tactic out of moves stops the game there."""
        def tactic(turn_total: object) -> object:
            if self.stopped_at is not None:
                raise _Stop()
            if len(turn.actions) >= GAME_MOST_TURNS:
                self.stopped_at = (*here, _number(turn_total))
                raise _Stop("endless")
            if plan is None:
                if not self.moves:
                    self.stopped_at, self.waiting = (*here, _number(turn_total)), True
                    raise _Stop()
                index = self.moves.pop(0)
                turn.took(_Action(turn_total, index))
                return self.names.get(self.actions[index])
            chosen = plan(turn_total)
            index = next((i for i, name in enumerate(self.actions) if self.names.get(name) is chosen), None)
            turn.took(_Action(turn_total, index if index is not None else _number(chosen)))
            return chosen
        return tactic

    def player(self, who: int, choose: Callable | None) -> Callable:
        """Player WHO's strategy for play: CHOOSE (the submission's), or a person's moves when None."""
        def strategy(score: object, opponent_score: object) -> object:
            if self.stopped_at is not None:
                raise _Stop()
            here = (who, _number(score), _number(opponent_score))
            if len(self.turns) >= GAME_MOST_TURNS:
                self.stopped_at = here
                raise _Stop("endless")
            return self.take_turn(here, choose, score, opponent_score)
        return strategy

    def count_turn(self, here: tuple, choose: Callable | None, score: object, opponent_score: object) -> object:
        """A strategy call where a move is a number of dice: a new turn, its choice CHOOSE's answer
        (or a person's next move; none left stops the game there)."""
        if choose is None:
            if not self.moves:
                self.stopped_at, self.waiting = here, True
                raise _Stop()
            self.turns.append(_Turn(here[0], score, opponent_score, self.moves.pop(0)))
            return self.turns[-1].choice
        turn = _Turn(here[0], score, opponent_score, None)
        self.turns.append(turn)  # first, so that what the strategy prints goes with its turn
        try:
            turn.choice = choose(score, opponent_score)
        except BaseException:
            self.no_turn(turn, here)
            raise
        return turn.choice

    def action_turn(self, here: tuple, choose: Callable | None, score: object, opponent_score: object) -> object:
        """A strategy call where a move is an action: a new turn, whose tactic records each action (a
        person's asks for moves)."""
        turn = _ActionTurn(here[0], score, opponent_score)
        self.turns.append(turn)
        if choose is None:
            return self.tactic(turn, here, None)
        try:
            plan = choose(score, opponent_score)
        except BaseException:
            self.no_turn(turn, here)
            raise
        return self.tactic(turn, here, plan) if callable(plan) else plan

    def no_turn(self, turn: _Turn, here: tuple) -> None:
        """A strategy call that raised takes no turn: what it printed is kept on the turn before, and
        the scores it was given (HERE) end that turn."""
        self.turns.pop()
        (self.turns[-1] if self.turns else self.opening).printed += turn.printed
        if self.stopped_at is None:
            self.stopped_at = here

    def commentary(self, say: Any) -> Callable:
        """A commentary function for play that calls the submission's SAY, records what it prints,
        and keeps working (as a note on the turn) when SAY is missing or raises. SAY is whatever the
        submission gave (None, a number, a function): it is called as it is, and what that raises,
        "not callable" included, is the note."""
        def recorder(score0: object, score1: object) -> Callable:
            if self.stopped_at is not None:
                raise _Stop()
            turn = self.turns[-1] if self.turns else self.opening
            following = say
            self.saying = True
            try:
                following = say(score0, score1)
            except _Stop:
                raise
            except BaseException as exc:
                turn.say_error = _short(exc, self.module)
            finally:
                self.saying = False
            return self.commentary(following)
        return recorder

    def swap(self) -> dict:
        """Put the page's dice in place of the module's own die functions (the spec's
        ``die_functions``: name -> sides), and watch its ``scored_by`` function (what it returns is
        the points of the turn in progress), for the length of the game; what to put back."""
        space = vars(self.module)
        saved = {}
        for name, sides in (self.spec.get("die_functions") or {}).items():
            saved[name] = space.get(name)
            space[name] = self.die(sides)
        name = self.spec.get("scored_by") or ""
        if name and callable(space.get(name)):
            saved[name] = space[name]
            space[name] = self.scorer(space[name])
        return saved

    def scorer(self, function: Callable) -> Callable:
        def scored(*args: object, **kwargs: object) -> object:
            points = function(*args, **kwargs)
            if self.turns and self.stopped_at is None:
                self.turns[-1].scored = points
            return points
        return scored

    def play(self) -> tuple:
        spec = self.spec
        status, final, error = "end", None, None
        saved = sys.stdout
        sys.stdout = _Output(self)
        alarm = _set_alarm(spec.get("seconds"))
        swapped = self.swap()
        try:
            random.seed(spec["seed"])  # a submission that rolls the module's own dice replays the same game
            env = dict(self.names)
            env["dice"], env["goal"] = self.dice, spec["goal"]
            for who, kind in enumerate(spec["players"]):
                choose = None if kind == "person" else eval(kind, self.names)  # a name the parent checked
                if kind != "person" and not callable(choose):
                    return ("bad_player", (), None, None, (who, kind, _number(choose)), self.opening.row())
                env["strategy" + str(who)] = self.player(who, choose)
            if spec.get("update"):
                env["update"] = eval(spec["update"], self.names)
            if spec.get("commentary"):
                try:
                    say = eval(spec["commentary"], self.names)
                except BaseException as exc:
                    say = None
                    self.opening.say_error = _short(exc, self.module)
                env["say"] = self.commentary(say)
            result = eval(spec["play"], env)
            final = tuple(_number(v) for v in result) if type(result) in (tuple, list) and len(result) < 10 \
                else _number(result)
        except _Stop as stop:
            status = "long" if stop.args == ("endless",) else "wait"
        except _TimeUp as exc:
            _clear_alarm(alarm)  # first: the alarm repeats until one lands outside the submission's try
            alarm = None
            status, error = "loop", _describe(exc, self.module)  # where it was: the function stuck in a loop
        except BaseException as exc:
            status, error = "error", _describe(exc, self.module)
        finally:
            _clear_alarm(alarm)
            sys.stdout = saved
            for name, value in swapped.items():  # the module as it was, for the next game
                if value is None:
                    vars(self.module).pop(name, None)
                else:
                    vars(self.module)[name] = value
        if self.waiting:  # a play that swallowed the stop still waits for the person
            status, error = "wait", None
        turns = tuple(t.row() for t in self.turns)
        return (status, turns, final, self.stopped_at, error, self.opening.row())


def _set_alarm(seconds: object) -> Callable[[int, FrameType | None], Any] | int | None:
    """Raise _TimeUp after SECONDS, and again every ALARM_AGAIN seconds (a loop inside ``try:
    ... except BaseException`` swallows one), where the platform has alarms; what to restore."""
    import signal

    if not (type(seconds) is int or type(seconds) is float) or seconds <= 0 or not hasattr(signal, "setitimer"):
        return None
    previous = signal.signal(signal.SIGALRM, _time_up)
    signal.setitimer(signal.ITIMER_REAL, float(seconds), ALARM_AGAIN)
    return previous


def _clear_alarm(previous: Callable[[int, FrameType | None], Any] | int | None) -> None:
    import signal

    if previous is not None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _short(exc: BaseException, module: object) -> str:
    """One line for an error in the commentary: its type, message, and where in the submission."""
    kind, message, function, line = _describe(exc, module)[:4]
    where = " (in " + function + ", line " + str(line) + ")" if function else ""
    return (kind + ": " + message)[:300] + where


def describe_error(exc: BaseException, filename: str) -> dict:
    """EXC as plain data: its type, its message (None when it cannot be shown), a traceback trimmed
    to the frames of FILENAME (the submission) and of the case, and the innermost such frame's
    function and line. The child describes every error of a step with this too."""
    try:
        message = str(exc)
    except BaseException:
        message = None  # the parent says the message could not be shown
    if type(message) is not str:
        message = None
    try:
        kind = type.__getattribute__(type(exc), "__qualname__")
    except BaseException:
        kind = "?"
    kind = kind if type(kind) is str else "?"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename in (filename, "<case>")]
    lines = ["Traceback (most recent call last):"]
    for f in frames[-8:]:
        lines.append(f'  File "{os.path.basename(f.filename)}", line {f.lineno}, in {f.name}')
        if f.line:
            lines.append("    " + f.line.strip())
    own = [f for f in frames if f.filename == filename]
    short = message[:2000] if message is not None else None
    lines.append(f"{kind}: {short or ''}")
    return {"type": kind, "message": short, "traceback": "\n".join(lines),
            "line": own[-1].lineno if own else None, "function": own[-1].name if own else None}


def _describe(exc: BaseException, module: object) -> tuple:
    """(type, message, function, line, traceback) of an error the submission raised in a game."""
    info = describe_error(exc, str(getattr(module, "__file__", "")))
    return (info["type"], info["message"] or "", info["function"] or "", info["line"] or 0, info["traceback"])


def gui_game(module: object, spec: dict) -> tuple:
    """Play one game with the submission's own ``play`` for the web page, and describe it as plain data.

    SPEC (checked by the parent) holds ``players`` (``"person"`` or a strategy expression each),
    ``moves`` (the people's choices so far, in turn order), ``seed`` and ``sides`` for the dice,
    ``play`` (the call that starts a game), ``update`` and ``commentary`` (expressions, or "") and
    ``goal``; ``move``, what a move is (``"dice"``: a number of dice; ``"actions"``: one of the
    ``actions``, named, asked for by a tactic before each), and the page's ``die_functions``,
    ``scored_by`` and ``remarks`` (see ``swap`` and ``remark``). A person's strategy (or tactic)
    answers from ``moves`` and, once they run out, stops the game there. Returns (status, turns,
    final, stopped at, error, opening): status is "end", "wait", "error", "long" (endless) or
    "bad_player" (a computer player that is not a function: the error is then (who, its name, what
    it is)); stopped at is (who, score, opponent score) of the strategy call that stopped the game,
    whose choice is awaited when it waits (and the turn total, for an action); each turn (and the
    opening, for what happened before the first turn) is (who, score, opponent score, choice, rolls,
    commentary, printed, commentary error), and a turn of actions has its actions and points too
    (``_ActionTurn.row``).
    """
    return _PlayedGame(module, spec).play()


def strategy_names(module: object) -> list[str]:
    """The names of MODULE's strategies, in the order they are defined: its own functions whose first
    two parameters are ``score`` and ``opponent_score`` and whose other parameters have defaults."""
    found = []
    for name, value in list(vars(module).items()):
        if type(value) is not type(strategy_names) or name.startswith("_"):
            continue
        if getattr(value, "__module__", None) != getattr(module, "__name__", None):
            continue
        try:
            params = list(inspect.signature(value).parameters.values())
        except (TypeError, ValueError):
            continue
        if len(params) < 2 or [p.name for p in params[:2]] != ["score", "opponent_score"]:
            continue
        kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        if params[0].kind in kinds and params[1].kind in kinds and all(
                p.default is not inspect.Parameter.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                for p in params[2:]):
            found.append((value.__code__.co_firstlineno, name))
    return [name for _, name in sorted(found)]
