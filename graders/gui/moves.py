"""Moves: what a player chooses on the page, of the kinds of move a game may have.

Contract: a game's move is a number of dice from its fewest to its most (:class:`DiceCount`, Hog's
shape: one choice a turn) or one of its named actions, asked for before each one, so that a turn is
made of actions (:class:`NamedAction`, Pig's shape). :func:`move_of` reads which from the edition's
``[game]`` table, once (the :class:`graders.gui.gamelog.GuiSettings` carry it); nothing else shipped
to students tells the two apart. The page's modules ask the move what they need: the numbers a
request's move may be and what is wrong with one (:mod:`graders.gui.gamelog`), what the child's
probe is told (its ``move``, :func:`graders.sandboxing.probes.gui_game`), the shape of the rest of
a turn row the probe gives back and what the view shows of it, the turn's facts for the rules'
expressions, and the warnings a turn's moves earn. The page's setup carries :meth:`Move.described`
once, and ``gui_static/hog.js`` picks its functions for the move by its ``kind`` there (``MOVES``).

A kind's name is the ``[game]`` key that says what its move is (``dice`` or ``actions``,
:data:`graders.games.kinds.KIND_MOVES`). A new kind of move is a class here, in :data:`MOVES` and in
:func:`move_of`, with its entry in hog.js's ``MOVES`` and its turn in the probe (the table of
``probes._PlayedGame``): docs/authoring.md lists every file.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from graders.editions.edition import GameSettings
from graders.gui import messages as gui_messages

Remarks = tuple[tuple[str, bool], ...]  # [[gui.remarks]]: each expression said of an action, and whether spoken


class Move(ABC):
    """What a player chooses: the numbers a move may be, and what a turn of such moves looks like."""

    kind: ClassVar[str]  # the [game] key that says what a move is: the setup's and the probe's name for it
    by_action: ClassVar[bool]  # a turn is made of actions, each asked for: a person may be waited for mid-turn

    @abstractmethod
    def choices(self) -> range:
        """The numbers a move may be: a number of dice, or the index of an action."""

    def allows(self, move: object) -> bool:
        """Whether MOVE, from a request, is one of :meth:`choices` (an int exactly)."""
        return type(move) is int and move in self.choices()

    @abstractmethod
    def bad_moves(self, most: int) -> str:
        """What is wrong with a request whose moves are not a list of at most MOST."""

    @abstractmethod
    def bad_move(self, position: int, shown: str) -> str:
        """What is wrong with a request's move number POSITION (from 1), SHOWN, not one of the choices."""

    @abstractmethod
    def described(self) -> dict:
        """The move as the page's setup carries it: its ``kind``, and what the page offers a person."""

    @abstractmethod
    def spec(self) -> dict:
        """What the probe ``gui_game`` is told of the move: its ``move`` (the kind) and what it needs."""

    @abstractmethod
    def row_fits(self, extra: tuple) -> bool:
        """Whether EXTRA, what a turn row of the child holds after the eight values every row has,
        is what a turn of these moves gives (see ``probes._Turn.row``)."""

    @abstractmethod
    def record(self, turn: dict, extra: tuple, remarks: Remarks, said_wrong: set[str]) -> None:
        """Add to TURN (a :func:`graders.gui.gamelog.turn_record`) what EXTRA (checked by :meth:`row_fits`)
        says of its moves; REMARKS and SAID_WRONG as :meth:`NamedAction.action` takes them."""

    @abstractmethod
    def facts(self, turn: dict) -> dict:
        """The facts TURN's moves add to those the rules' expressions see (``[gui.numbers]``)."""

    @abstractmethod
    def misfit(self, turn: dict, previous: dict | None) -> bool:
        """Whether TURN's moves are not moves of the game, each said as a warning (on TURN, or on
        PREVIOUS, the turn before); the rules of such a turn are not described."""

    @abstractmethod
    def rolled_other(self, turn: dict) -> str:
        """A warning when TURN rolled other dice than its moves chose; "" when it did not."""


@dataclass(frozen=True)
class DiceCount(Move):
    """A move is a number of dice, from FEWEST to MOST ([game] dice); a turn is one such choice."""

    fewest: int = 0
    most: int = 10

    kind = "dice"
    by_action = False

    def choices(self) -> range:
        return range(self.fewest, self.most + 1)

    def bad_moves(self, most: int) -> str:
        return gui_messages.gui_bad_moves(most)

    def bad_move(self, position: int, shown: str) -> str:
        return gui_messages.gui_dice_out_of_range(position, shown, self.fewest, self.most)

    def described(self) -> dict:
        return {"kind": self.kind, "fewest": self.fewest, "most": self.most}

    def spec(self) -> dict:
        return {"move": self.kind}

    def row_fits(self, extra: tuple) -> bool:
        return extra == ()

    def record(self, turn: dict, extra: tuple, remarks: Remarks, said_wrong: set[str]) -> None:
        return None  # the turn's choice is its ``dice`` already

    def facts(self, turn: dict) -> dict:
        return {}

    def misfit(self, turn: dict, previous: dict | None) -> bool:
        """A choice that is no number of dice is said; so is PREVIOUS when the same strategy was
        asked twice for one turn."""
        who, chosen = turn["who"], turn["dice"]
        if type(chosen) is not int or chosen not in self.choices():
            turn["warnings"].append(gui_messages.gui_bad_choice(who, str(chosen), self.fewest, self.most))
            return True
        if previous is not None and previous["who"] == who and previous["before"] == turn["before"] \
                and previous["dice"] and not previous["rolls"]:
            previous["warnings"].append(gui_messages.gui_asked_twice(who))
        return False

    def rolled_other(self, turn: dict) -> str:
        if turn["dice"] and len(turn["rolls"]) != turn["dice"]:
            return gui_messages.gui_rolled_other(turn["who"], turn["dice"], len(turn["rolls"]))
        return ""


@dataclass(frozen=True)
class NamedAction(Move):
    """A move is one of ACTIONS ([game] actions: roll, hold), by its index; a strategy gives a
    tactic, asked before each action of the turn, and the turn is its actions."""

    actions: tuple[str, ...]

    kind = "actions"
    by_action = True

    def choices(self) -> range:
        return range(len(self.actions))

    def bad_moves(self, most: int) -> str:
        return gui_messages.gui_bad_action_moves(most, list(self.actions))

    def bad_move(self, position: int, shown: str) -> str:
        return gui_messages.gui_action_out_of_range(position, shown, list(self.actions))

    def described(self) -> dict:
        return {"kind": self.kind, "actions": list(self.actions)}

    def spec(self) -> dict:
        return {"move": self.kind, "actions": list(self.actions)}

    def row_fits(self, extra: tuple) -> bool:
        """The turn's actions (each a row of ``probes._Action``) and the points its ``scored_by``
        function gave ("" for none)."""
        return (len(extra) == 2 and isinstance(extra[0], tuple) and all(_action_fits(a) for a in extra[0])
                and _plain(extra[1]))

    def record(self, turn: dict, extra: tuple, remarks: Remarks, said_wrong: set[str]) -> None:
        """The turn's ``actions`` (see :meth:`action`) and ``scored``, the points its ``scored_by``
        function gave (None for none)."""
        actions, scored = extra
        turn["actions"] = [self.action(a, remarks, turn["warnings"], said_wrong) for a in actions]
        turn["scored"] = scored if scored != "" else None

    def action(self, row: tuple, remarks: Remarks, warnings: list[str], said_wrong: set[str]) -> dict:
        """One action of a turn as the page shows it: the turn total it was chosen at, the action
        (its name; what the tactic gave instead, unknown, is a warning), the dice, and what the
        submission said of it (REMARKS: each expression and whether it is spoken). A remark that
        failed is said once a game (SAID_WRONG keeps those said, in WARNINGS), and a spoken one is
        said in the kit's words instead."""
        total, choice, outcomes, sides, texts, failed = row
        known = type(choice) is int and choice in self.choices()
        name = self.actions[choice] if known else str(choice)
        said = []
        failures = {expression: (kind, detail) for expression, kind, detail in failed}
        for (expression, spoken), text in zip(remarks, texts + ("",) * len(remarks)):
            if expression in failures:
                kind, detail = failures[expression]
                wrong = gui_messages.gui_remark_failed(expression, kind, str(detail))
                if expression not in said_wrong:  # the first failure of each remark is said, once a game
                    said_wrong.add(expression)
                    replaced = gui_messages.gui_remark_replaced if spoken else gui_messages.gui_commentary_failed
                    warnings.append(replaced(wrong))
                if spoken and known:
                    said.append({"text": gui_messages.gui_action_said(name), "spoken": True, "kit": True})
            elif text:
                said.append({"text": text, "spoken": spoken, "kit": False})
        return {"total": total, "action": name, "known": known, "outcomes": list(outcomes), "sides": list(sides),
                "said": said}

    def facts(self, turn: dict) -> dict:
        """Its ``actions`` (names, or what a tactic gave instead), each action's first ``outcomes``,
        the ``sides`` of every die it rolled, and ``scored``, the points its ``scored_by`` function
        gave (-1 when it gave none)."""
        actions = turn["actions"]
        return {"actions": tuple(a["action"] for a in actions),
                "outcomes": tuple(a["outcomes"][0] if a["outcomes"] else 0 for a in actions),
                "sides": tuple(sorted({n for a in actions for n in a["sides"]})),
                "scored": turn["scored"] if type(turn["scored"]) is int else -1}

    def misfit(self, turn: dict, previous: dict | None) -> bool:
        unknown = [a["action"] for a in turn["actions"] if not a["known"]]
        if unknown:
            turn["warnings"].append(gui_messages.gui_bad_action(turn["who"], unknown[0], list(self.actions)))
        return bool(unknown)

    def rolled_other(self, turn: dict) -> str:
        return ""  # each action rolls what the rules give it: the turn's facts say what it rolled


MOVES: tuple[type[Move], ...] = (DiceCount, NamedAction)


def move_of(game: GameSettings) -> Move:
    """GAME's move: one of its ``actions`` where the table names them, else a number of its ``dice``."""
    if game.actions:
        return NamedAction(game.actions)
    return DiceCount(game.dice[0], game.dice[1])


def _plain(value: object) -> bool:
    return isinstance(value, (int, str)) and type(value) is not bool


def _action_fits(row: object) -> bool:
    """Whether an action row of a turn has the promised shape (see ``probes._Action``)."""
    if not isinstance(row, tuple) or len(row) != 6:
        return False
    total, choice, outcomes, sides, remarks, failed = row
    return (_plain(total) and _plain(choice) and isinstance(outcomes, tuple) and isinstance(sides, tuple)
            and all(type(v) is int for v in outcomes + sides) and isinstance(remarks, tuple)
            and all(type(r) is str for r in remarks) and isinstance(failed, tuple)
            and all(isinstance(f, tuple) and len(f) == 3 and type(f[0]) is str and type(f[1]) is str
                    and _plain(f[2]) for f in failed))
