"""Game log: what the web page shows of one game, worked out from the submission's own ``play``.

Contract: an edition's ``[gui]`` table (read by :func:`gui_settings`) says how a game starts
(``play``, an expression over ``strategy0``, ``strategy1``, ``dice``, ``update`` and ``say``), the
dice's ``sides``, the ``goal``, the rule ``variants`` a player may pick (each naming the update
function it passes), the strategy ``factories`` (functions of a number of dice), the default
``opponent``, an optional ``commentary`` expression, and how each turn is explained:

* ``[gui.numbers]``: named expressions worked out in order after every turn, from the turn's facts
  (``who``, ``dice``, ``rolls``, ``score`` and ``opponent`` before the turn, ``after`` the mover's
  score after it, ``next`` the player who moves next or -1 at the end, ``goal`` and ``variant``,
  and those the game's move adds, :meth:`graders.gui.moves.Move.facts`: a turn of actions'
  ``actions``, ``outcomes``, ``sides`` and ``scored``).
  Two names are checks: a turn whose ``after`` differs from ``expected``, or whose ``next`` differs
  from ``expected_next``, gets a warning, so a bug in the submission's rules shows on the page.
  ``memory`` may name one of the numbers that a player carries to their next turn: that turn sees
  it as the fact ``last`` (0 before a player's first turn), as Feral Hogs needs the points of the
  mover's previous turn;
* ``[[gui.events]]``: a ``rule`` name, a ``when`` expression and a ``text`` whose ``{braces}`` are
  expressions, shown when ``when`` holds ("Boar Brawl: 3 × |4 − 1| = 9").

Expressions are the kit's own data, compiled once (a broken one is an :class:`EditionError` naming
the file and key) and evaluated with only the facts, the earlier numbers and the helpers in
:data:`HELPERS`. The game itself is played in the sandbox by the probe ``gui_game``; everything here
is a pure function of its plain-data result, so it is tested without a child or a browser. What a
player chooses (a number of dice, or one action at a time) is the game's move, read once into the
settings (:mod:`graders.gui.moves`): a request's moves, the rest of a turn's row and a turn's
warnings are the move's to check; every turn of a view has the shape :func:`turn_record` gives.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import CodeType

from graders.core import messages, syntax
from graders.core.errors import EditionError, RequestError
from graders.editions.edition import Edition
from graders.gui import messages as gui_messages
from graders.gui.moves import DiceCount, Move, move_of

PERSON = "person"
STATUSES = ("end", "wait", "error", "long", "bad_player", "loop")  # how the probe's game ended (probes.gui_game)
MOST_MOVES = 2000


def digits(n: int) -> list[int]:
    """The decimal digits of N, most significant first (``digits(0)`` is ``[0]``)."""
    return [int(c) for c in str(abs(n))]


def factors(n: int) -> int:
    """How many whole numbers divide N evenly (1 and N included)."""
    count, k = 0, 1
    while k * k <= n:
        if n % k == 0:
            count += 1 if k * k == n else 2
        k += 1
    return count


def isqrt(n: int) -> int:
    """The whole part of N's square root (``isqrt(50)`` is 7): N is a perfect square when
    ``isqrt(N) ** 2 == N``. Exact for any size, unlike ``N ** 0.5``; 0 for a negative N."""
    return math.isqrt(n) if n > 0 else 0


def is_prime(n: int) -> bool:
    return n > 1 and factors(n) == 2


def next_prime(n: int) -> int:
    """The smallest prime larger than N."""
    n += 1
    while not is_prime(n):
        n += 1
    return n


HELPERS = {"abs": abs, "min": min, "max": max, "sum": sum, "len": len, "any": any, "all": all,
           "digits": digits, "factors": factors, "is_prime": is_prime, "next_prime": next_prime, "isqrt": isqrt}


@dataclass(frozen=True)
class Variant:
    id: str
    name: str
    about: str
    update: str  # an expression for the update function ``play`` is given, or "" when it takes none
    exact: bool  # the exact analysis models this variant's rules (the page may show its meter)


@dataclass(frozen=True)
class Event:
    rule: str
    when: CodeType
    text: CodeType


@dataclass(frozen=True)
class GuiSettings:
    title: str
    play: str
    sides: int
    goal: int
    factories: tuple[str, ...]
    opponent: str
    commentary: str
    variants: tuple[Variant, ...]
    numbers: tuple[tuple[str, CodeType], ...]
    events: tuple[Event, ...]
    submission: str  # the student's file, as messages name it
    memory: str = ""  # the number a player's next turn sees as ``last`` ("": none, ``last`` is 0)
    move: Move = DiceCount()  # what a player chooses: a number of dice, or one of the game's actions
    die_functions: tuple[tuple[str, int], ...] = ()  # the submission's die functions the page's dice replace
    scored_by: str = ""  # the function whose return value is a turn's points
    returns: str = "scores"  # what play returns: the final "scores", or the "winner"
    remarks: tuple[tuple[str, bool], ...] = ()  # (expression, spoken) said of each action (a turn of actions)
    factory_numbers: tuple[int, int] = (0, 10)  # the numbers a factory is offered with (default: the dice range)
    turn_sides: CodeType | None = None  # the die's sides over ``score`` and ``opponent_score`` (see die_sides)
    hidden: tuple[str, ...] = ()  # strategies never offered as a computer player
    launcher: str = ""  # the student's program that starts the page (hog_gui.py, pig_gui.py), from the edition

    def variant(self, ident: str) -> Variant | None:
        return next((v for v in self.variants if v.id == ident), None)


def _compile(source: str, where: str) -> CodeType:
    """The kit's own expression SOURCE, compiled through :mod:`graders.core.syntax` (one thread at a time)."""
    try:
        return syntax.compile_code(source, where, "eval")
    except SyntaxError as exc:
        shown = f"{source!r} ({exc.msg})"
        raise EditionError(messages.table_wrong_type(where, messages.EXPECTED_EXPRESSION, shown)) from exc


def _text(template: str, where: str) -> CodeType:
    """TEMPLATE as an f-string, so that its ``{braces}`` are expressions."""
    return _compile("f" + repr(template), where)


def gui_settings(edition: Edition) -> GuiSettings:
    """The edition's ``[gui]`` table (:class:`graders.editions.edition.GuiTable`, its keys checked when
    the manifest was read) with every expression compiled; an :class:`EditionError` says what is wrong."""
    data = edition.gui
    where = f"{edition.suite_dir / 'edition.toml'} [gui]"
    if data is None:
        raise EditionError(gui_messages.gui_table_missing(where))
    _compile(data.play, f"{where} play")
    variants = []
    for i, raw in enumerate(data.variants):
        if raw["update"]:
            _compile(raw["update"], f"{where} variants[{i}] update")
        variants.append(Variant(raw["id"], raw["name"], raw["about"], raw["update"], raw["exact"]))
    if len({v.id for v in variants}) != len(variants) or not variants:
        raise EditionError(gui_messages.gui_variants_needed(f"{where} variants"))
    numbers = tuple((key, _compile(source, f"{where}.numbers {key}")) for key, source in data.numbers.items())
    events = tuple(Event(raw["rule"], _compile(raw["when"], f"{where} events[{i}] when"),
                         _text(raw["text"], f"{where} events[{i}] text")) for i, raw in enumerate(data.events))
    if data.commentary:
        _compile(data.commentary, f"{where} commentary")
    if data.memory and data.memory not in data.numbers:
        raise EditionError(messages.table_wrong_type(f"{where} memory", gui_messages.EXPECTED_GUI_NUMBER,
                                                     repr(data.memory)))
    for i, remark in enumerate(data.remarks):
        _compile(remark["say"], f"{where} remarks[{i}] say")
    sides = page_sides(edition, data.goal)
    return GuiSettings(edition.title, data.play, sides, data.goal, data.factories,
                       data.opponent, data.commentary, tuple(variants), numbers, events, edition.submission,
                       data.memory, move_of(edition.game), tuple(data.die_functions.items()),
                       data.scored_by, data.returns, tuple((r["say"], r["spoken"]) for r in data.remarks),
                       data.factory_numbers or edition.game.dice,  # as [gui] says, else the game's dice
                       _compile(edition.game.sides, f"{where} [game] sides"), data.hidden, launcher(edition))


def page_sides(edition: Edition, goal: int) -> int:
    """The die the page rolls: the most sides the game's die has at any pair of scores below GOAL,
    from the ``[game]`` table's ``sides`` (the one place an edition says its die)."""
    where = f"{edition.suite_dir / 'edition.toml'} [game] sides"
    code = _compile(edition.game.sides, where)
    most = 0
    for score in range(goal):
        for opponent in range(goal):
            try:
                sides = eval(code, {"__builtins__": {}, **HELPERS, "score": score, "opponent_score": opponent})
            except Exception as exc:  # the kit's own expression: what is wrong with it, named
                raise EditionError(messages.table_wrong_type(where, gui_messages.EXPECTED_SIDES, repr(exc))) from exc
            if type(sides) is not int or not 2 <= sides <= 20:
                raise EditionError(messages.table_wrong_type(where, gui_messages.EXPECTED_SIDES, repr(sides)))
            most = max(most, sides)
        if code.co_names == () and score == 0:
            return most  # a die that does not depend on the scores: one look is enough
    return most


def launcher(edition: Edition) -> str:
    """The student's file that starts the page: the one of the edition's student files named *_gui.py."""
    return next((f for f in edition.student_files if f.endswith("_gui.py")), "")


# -- requests ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRequest:
    players: tuple[str, str]
    variant: Variant
    seed: int
    moves: tuple[int, ...]

    def spec(self, settings: GuiSettings, seconds: float = 0.0) -> dict:
        """What the probe ``gui_game`` is given: plain values only. SECONDS (when more than 0) is
        when the game's own alarm names the function still running, before the parent's deadline."""
        return {"players": list(self.players), "moves": list(self.moves), "seed": self.seed,
                "sides": settings.sides, "play": settings.play, "update": self.variant.update,
                "commentary": settings.commentary, "goal": settings.goal, "seconds": seconds,
                "die_functions": dict(settings.die_functions), "scored_by": settings.scored_by,
                "remarks": [say for say, _ in settings.remarks], **settings.move.spec()}


def player_choices(settings: GuiSettings, strategies: list[str]) -> list[str]:
    """Every value a player may be: a person, a strategy of the submission, or a factory call."""
    low, high = settings.factory_numbers
    return [PERSON, *strategies, *(f"{f}({n})" for f in settings.factories for n in range(low, high + 1))]


def parse_request(data: object, settings: GuiSettings, strategies: list[str], seed: int) -> GameRequest:
    """A ``/api/play`` body as a :class:`GameRequest`, or a :class:`RequestError` saying what is wrong.

    SEED is used when the body names none. Strategies must be among STRATEGIES (the submission's),
    or a factory call such as ``always_roll(6)``; nothing else ever reaches the sandbox's ``eval``.
    """
    if not isinstance(data, dict):
        raise RequestError(gui_messages.gui_bad_body())
    unknown = sorted(set(data) - {"players", "variant", "seed", "moves", "game"})
    if unknown:
        raise RequestError(gui_messages.gui_unknown_field(unknown[0]))
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) for p in players):
        raise RequestError(gui_messages.gui_bad_players())
    allowed = player_choices(settings, strategies)
    for who, p in enumerate(players):
        if p not in allowed:
            raise RequestError(gui_messages.gui_unknown_strategy(who, p[:80], strategies, list(settings.factories),
                                                                 settings.submission))
    ident = data.get("variant", settings.variants[0].id)
    variant = settings.variant(ident) if isinstance(ident, str) else None
    if variant is None:
        raise RequestError(gui_messages.gui_unknown_variant(str(ident)[:80], [v.id for v in settings.variants]))
    raw_seed = data.get("seed")
    if raw_seed is None:
        raw_seed = seed
    if type(raw_seed) is not int or not 0 <= raw_seed < 2**63:
        raise RequestError(gui_messages.gui_bad_seed())
    moves = data.get("moves", [])
    if not isinstance(moves, list) or len(moves) > MOST_MOVES:
        raise RequestError(settings.move.bad_moves(MOST_MOVES))
    for k, m in enumerate(moves):
        if not settings.move.allows(m):
            raise RequestError(settings.move.bad_move(k + 1, repr(m)[:40]))
    if moves and PERSON not in players:
        raise RequestError(gui_messages.gui_moves_without_person())
    return GameRequest((players[0], players[1]), variant, raw_seed, tuple(moves))


# -- the game's result as a view -----------------------------------------------------------------


def _int(value: object) -> bool:
    return type(value) is int


def _pair(who: int, score: object, opponent: object) -> list:
    return [score, opponent] if who == 0 else [opponent, score]


def error_record(title: str, detail: str = "", function: str = "", line: int = 0, trace: str = "",
                 hint: str = "") -> dict:
    """What the page shows of an error: a title naming what failed, then what it said and where, and
    a HINT of what to do (for errors of the student's code: see :func:`fix_hint`)."""
    return {"title": title, "detail": detail or None, "function": function or None, "line": line or None,
            "traceback": trace or None, "hint": hint or None}


def fix_hint(settings: GuiSettings) -> str:
    return gui_messages.gui_error_hint(settings.submission)


def _check_turn(row: object, move: Move | None) -> tuple | None:
    """A turn row from the child (see ``probes._Turn.row``), if it has the promised shape; None
    otherwise. What it holds after its eight values is MOVE's to check (:meth:`Move.row_fits`: a
    turn of actions has its actions and its points); the opening's row (MOVE None) holds nothing more."""
    if not isinstance(row, tuple) or len(row) < 8:
        return None
    if not (move.row_fits(row[8:]) if move is not None else len(row) == 8):
        return None
    who, score, opponent, choice, rolls, said, printed, say_error = row[:8]
    if who not in (0, 1, -1) or type(who) is not int or not isinstance(rolls, tuple):
        return None
    if not all(isinstance(v, (int, str)) and type(v) is not bool for v in (score, opponent, choice)):
        return None
    if not all(type(r) is int for r in rolls) or not all(type(t) is str for t in (said, printed, say_error)):
        return None
    return row


def describe_turn(settings: GuiSettings, variant: Variant, turn: dict) -> tuple[list[dict], list[str]]:
    """The rule events and warnings of one finished turn (all of its numbers plain ints)."""
    facts = {"who": turn["who"], "dice": turn["dice"], "rolls": tuple(turn["rolls"]),
             "score": turn["before"][turn["who"]], "opponent": turn["before"][1 - turn["who"]],
             "after": turn["after"][turn["who"]], "next": turn["next"], "goal": settings.goal,
             "variant": variant.id, "last": turn.get("last", 0), **settings.move.facts(turn)}
    names = {"__builtins__": {}, **HELPERS, **facts}
    events: list[dict] = []
    warnings: list[str] = []
    try:
        for key, code in settings.numbers:
            names[key] = eval(code, names)  # the kit's own expressions over plain ints
        for e in settings.events:
            if eval(e.when, names):
                events.append({"rule": e.rule, "text": str(eval(e.text, names))})
    except Exception as exc:  # a kit bug: say so on the page rather than fail the request
        warnings.append(gui_messages.gui_rule_failed(f"{type(exc).__name__}: {exc}"))
        return events, warnings
    if settings.memory and _int(names.get(settings.memory)):
        turn["remembered"] = names[settings.memory]  # what the mover's next turn sees as ``last``
    expected = names.get("expected")
    if type(expected) is int and expected != facts["after"]:
        warnings.append(gui_messages.gui_turn_differs(turn["who"], expected, facts["after"]))
    expected_next = names.get("expected_next")
    if type(expected_next) is int and facts["next"] in (0, 1) and expected_next != facts["next"]:
        warnings.append(gui_messages.gui_next_differs(turn["who"], expected_next))
    expected_sides = names.get("expected_sides")
    if type(expected_sides) is int and "sides" in facts and facts["sides"] != (expected_sides,):
        warnings.append(gui_messages.gui_wrong_die(turn["who"], list(facts["sides"]), expected_sides,
                                                   [name for name, _ in settings.die_functions]))
    return events, warnings


def game_view(settings: GuiSettings, request: GameRequest, result: object) -> dict:
    """The page's view of a game from the probe's RESULT (see ``probes.gui_game``), checked for shape.

    Anything the submission got wrong (a score that is not a whole number, a strange return value,
    an error) becomes a warning on its turn or the view's ``error``; a result of the wrong shape
    altogether becomes an error that says so.
    """
    view: dict = {"seed": request.seed, "goal": settings.goal, "scores": [0, 0], "turns": [], "next": None,
                  "waiting": False, "over": False, "winner": None, "chance": None, "error": None}
    if not isinstance(result, tuple) or len(result) != 6 or result[0] not in STATUSES:
        view["error"] = error_record(gui_messages.gui_strange_result(settings.launcher), hint=fix_hint(settings))
        return view
    status, raw_turns, final, stopped_at, error, opening = result
    rows = [_check_turn(r, settings.move) for r in raw_turns] if isinstance(raw_turns, tuple) else [None]
    checked = [r for r in rows if r is not None]
    if len(checked) < len(rows) or _check_turn(opening, None) is None:
        view["error"] = error_record(gui_messages.gui_strange_result(settings.launcher), hint=fix_hint(settings))
        return view
    if status == "bad_player":
        who, kind, value = (list(error) + ["", "", ""])[:3] if isinstance(error, tuple) else ("", "", "")
        if type(who) is not int:  # not the probe's (player, name, value): a result of the wrong shape
            view["error"] = error_record(gui_messages.gui_strange_result(settings.launcher), hint=fix_hint(settings))
            return view
        view["error"] = error_record(gui_messages.gui_not_a_strategy(who, str(kind), str(value)),
                                     hint=fix_hint(settings))
        return view
    turns = _turns(checked, settings)
    if settings.move.by_action:  # a person may be waited for in the middle of a turn
        _open_turn(view, settings, turns, status, stopped_at)
    ending = _link_turns(view, settings, turns, status, final, stopped_at)
    _annotate_all(settings, request.variant, turns)
    if status == "long":
        view["error"] = error_record(gui_messages.gui_endless(len(turns)), hint=fix_hint(settings))
    elif status in ("error", "loop"):
        view["error"] = _failure(settings, status, error)
    known = ending if ending is not None else (turns[-1]["before"] if turns else [0, 0])
    view["scores"] = known
    if status == "end" and view["error"] is None:
        _conclude(view, settings, known)
    if view["over"] and settings.returns == "winner" and final != view["winner"]:
        view["over"], view["winner"] = False, None
        view["error"] = error_record(gui_messages.gui_winner_differs(str(final), 0 if known[0] > known[1] else 1),
                                     hint=fix_hint(settings))
    for turn in turns:
        turn.pop("next")
    view["turns"] = turns
    _opening(view, turns, opening)
    return view


def _annotate_all(settings: GuiSettings, variant: Variant, turns: list[dict]) -> None:
    """Each turn's rule events and warnings, in order, each told what its mover carries from their
    previous turn (``last``: the number a [gui] memory names, 0 before a player's first turn)."""
    memory = {0: 0, 1: 0}
    for i, turn in enumerate(turns):
        turn["last"] = memory.get(turn["who"], 0)
        _annotate(settings, variant, turn, turns[i - 1] if i else None)
        if "remembered" in turn:
            memory[turn["who"]] = turn.pop("remembered")


def turn_record(who: int, before: list, choice: object, rolls: tuple, said: str, printed: str) -> dict:
    """One turn as the view shows it (its ``turns``, and the ``current`` turn of a person waited for
    mid-turn), from a checked row of the child: the one place its shape is made.

    ``who`` moved; ``before`` and ``after`` are both scores, player 0's first, before and after the
    turn (``after`` None where the game stopped in it); ``dice`` is the strategy's choice (for a turn
    of actions, how many it took); ``rolls`` every die rolled; ``next`` the player who moves next, -1
    at the end (worked out, then left out of the view); ``events`` the rule events (``rule`` and
    ``text``) and ``warnings`` what looks wrong; ``commentary`` and ``printed`` what the submission
    said and printed. Then ``last``, what the mover carried from their previous turn
    (:func:`_annotate_all`), and what the game's move adds (:meth:`Move.record`: a turn of actions'
    ``actions`` and ``scored``)."""
    return {"who": who, "dice": choice, "rolls": list(rolls), "before": before, "after": None, "next": None,
            "events": [], "warnings": [], "commentary": said, "printed": printed}


def _turns(rows: list[tuple], settings: GuiSettings) -> list[dict]:
    """A turn record per checked row, each commentary failure said on the first turn it happens."""
    turns: list[dict] = []
    said_wrong = ""
    remarks_wrong: set[str] = set()
    for row in rows:
        who, score, opponent, choice, rolls, said, printed, say_error = row[:8]
        turns.append(turn_record(who, _pair(who, score, opponent), choice, rolls, said, printed))
        if say_error and say_error != said_wrong:  # the same failure every turn is said once
            turns[-1]["warnings"].append(gui_messages.gui_commentary_failed(say_error))
        said_wrong = say_error
        settings.move.record(turns[-1], row[8:], settings.remarks, remarks_wrong)
    return turns


def _link_turns(view: dict, settings: GuiSettings, turns: list[dict], status: str, final: object,
                stopped_at: object) -> list | None:
    """Each turn's scores after it and who moves next; the scores the game stopped at (or None).

    Each turn ends where the next begins: the next strategy call (or the call that stopped the
    game, or play's return) carries the scores after it."""
    ending: list | None = None
    stop = stopped_at if isinstance(stopped_at, tuple) and len(stopped_at) in (3, 4) and stopped_at[0] in (0, 1) \
        else None
    if stop is not None and status != "end":
        ending = _pair(stop[0], stop[1], stop[2])
    if status == "wait" and stop is not None:
        view["next"], view["waiting"] = stop[0], True
    elif status == "wait":
        view["error"] = error_record(gui_messages.gui_strange_result(settings.launcher), hint=fix_hint(settings))
    elif status == "end" and settings.returns == "winner":
        ending = _banked(turns) if final in (0, 1) and type(final) is int else None
        if final not in (0, 1) or type(final) is not int:
            view["error"] = error_record(gui_messages.gui_play_returned_winner(str(final)[:200]),
                                         hint=fix_hint(settings))
        elif ending is None:
            view["error"] = error_record(gui_messages.gui_no_turn_points(settings.scored_by), hint=fix_hint(settings))
    elif status == "end":
        if isinstance(final, tuple) and len(final) == 2:
            ending = list(final)
        else:
            view["error"] = error_record(gui_messages.gui_play_returned(str(final)[:200]), hint=fix_hint(settings))
    for i, turn in enumerate(turns):
        if i + 1 < len(turns):
            turn["after"], turn["next"] = list(turns[i + 1]["before"]), turns[i + 1]["who"]
        elif ending is not None:
            turn["after"] = list(ending)
            turn["next"] = stop[0] if stop is not None and status != "end" else -1
    return ending


def _banked(turns: list[dict]) -> list | None:
    """The scores after the last turn of a game whose play returns the winner: the scores it began
    with, and the points its ``scored_by`` function gave the mover (None when it gave none)."""
    if not turns or type(turns[-1].get("scored")) is not int or not all(_int(v) for v in turns[-1]["before"]):
        return None
    last = turns[-1]
    after = list(last["before"])
    after[last["who"]] += last["scored"]
    return after


def _open_turn(view: dict, settings: GuiSettings, turns: list[dict], status: str, stopped_at: object) -> None:
    """A game of actions waiting for a person in the middle of a turn: that turn, so far, is the view's
    ``current`` (not one of its ``turns``), with the ``turn_total`` the person decides at and the
    ``die`` the rules give the turn (its number of sides, or None)."""
    view.update(current=None, turn_total=None, die=None)
    stop = stopped_at if isinstance(stopped_at, tuple) and len(stopped_at) == 4 and stopped_at[0] in (0, 1) else None
    if status != "wait" or stop is None:
        return
    if turns and turns[-1]["who"] == stop[0]:
        view["current"] = turns.pop()
    view["turn_total"] = stop[3]
    view["die"] = die_sides(settings, stop[1], stop[2])


def die_sides(settings: GuiSettings, score: object, opponent: object) -> int | None:
    """The sides of the die the rules give a turn at SCORE and OPPONENT, or None when unknown."""
    if settings.turn_sides is None or not _int(score) or not _int(opponent):
        return None
    try:
        sides = eval(settings.turn_sides, {"__builtins__": {}, **HELPERS, "score": score, "opponent_score": opponent})
    except Exception:  # the kit's expression; a mistake in it leaves the die unnamed, never the game
        return None
    return sides if type(sides) is int else None


def _failure(settings: GuiSettings, status: str, error: object) -> dict:
    """The view's error for a game stopped by an exception or an endless loop."""
    kind, message, function, line, trace = (list(error) + [""] * 5)[:5] if isinstance(error, tuple) else [""] * 5
    said = (gui_messages.gui_loop(str(function)) if status == "loop"
            else gui_messages.gui_raised(str(function), str(kind)))
    return error_record(said, "" if status == "loop" else str(message), str(function),
                        line if type(line) is int else 0, str(trace), hint=fix_hint(settings))


def _conclude(view: dict, settings: GuiSettings, known: list) -> None:
    """A finished game: over with its winner, or an error when play returned before the goal or nonsense."""
    if all(_int(s) for s in known) and max(known) < settings.goal:
        view["error"] = error_record(gui_messages.gui_ended_early(known[0], known[1], settings.goal),
                                     hint=fix_hint(settings))
    elif all(_int(s) for s in known):
        view["over"] = True
        view["winner"] = 0 if known[0] > known[1] else 1
    else:
        view["error"] = error_record(gui_messages.gui_play_returned(str(tuple(known))[:200]), hint=fix_hint(settings))


def _opening(view: dict, turns: list[dict], opening: tuple) -> None:
    """What happened before the first strategy call is shown with the first turn."""
    if opening[6]:
        view["printed"] = opening[6]
        if turns:
            turns[0]["printed"] = opening[6] + turns[0]["printed"]
    if opening[7]:
        view["commentary_error"] = gui_messages.gui_commentary_failed(opening[7])
        if turns:
            turns[0]["warnings"].insert(0, view["commentary_error"])


def _annotate(settings: GuiSettings, variant: Variant, turn: dict, previous: dict | None) -> None:
    """Add the turn's rule events and warnings: what the rules say happened, and what looks wrong."""
    who = turn["who"]
    for label, value in (("score", turn["before"][who]), ("opponent", turn["before"][1 - who])):
        if not _int(value):
            turn["warnings"].append(gui_messages.gui_not_a_number(who, label, str(value)))
    if settings.move.misfit(turn, previous):
        return
    after = turn["after"]
    if after is None or not all(_int(v) for v in after + turn["before"]) or turn["next"] is None:
        return
    rolled_other = settings.move.rolled_other(turn)
    if rolled_other:
        turn["warnings"].append(rolled_other)
        return
    events, warnings = describe_turn(settings, variant, turn)
    turn["events"].extend(events)
    turn["warnings"].extend(warnings)
