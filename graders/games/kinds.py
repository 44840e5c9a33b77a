"""The kinds of game, and the keys of the ``[game]`` table that only one kind takes.

Contract: the shipped loader (:mod:`graders.editions.edition`) checks the keys every kind shares
(``kind``, ``goal``, ``baseline``, ``sides`` and what a move is: ``dice`` or ``actions``) and keeps
the table as written (:attr:`~graders.editions.edition.GameSettings.table`). This module, on the
instructor's side only, checks the rest against the kind the table names: every key known, of its
type and of that kind, and what the kind needs given. An error names the file, the table and the
key. :func:`graders.games.game.game_of` calls :func:`check` before it picks a kind's
implementation, so no game is modelled from a table that was not checked.

* ``kind = "dice"``: a strategy returns a number of dice, from ``dice[0]`` to ``dice[1]`` (Hog's
  shape). The rules are the reference's own functions, named by expressions (``update``,
  ``extra_turn``, ``after``, ``memory``, ``variants``), read as :class:`AnalysisSettings`;
  ``report`` names the problem graded with its strategy's exact rate.
* ``kind = "tactic"``: a strategy returns a tactic of ``actions`` (Pig's shape); ``strategy``
  names what a contest plays.

A third kind: its name, its keys in :data:`KIND_KEYS`, the shared key that says what its move is in
:data:`KIND_MOVES` and what it needs given in :data:`KIND_NEEDS`. Then its model and a
:class:`graders.games.game.Game` for it. Nothing shipped to students changes, unless its move is
neither a number of dice nor an action (a new kind of move: :mod:`graders.gui.moves`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from graders.core import messages
from graders.core.errors import EditionError, InputError
from graders.core.tables import Key, check_table, check_value, within
from graders.editions.edition import GAME_KEYS, Edition, GameSettings, a_name, check_expression, problem_label
from graders.games import messages as games_messages

DICE_BASELINE = "always_roll(6)"  # what a dice game compares against when its [game] names no baseline

# [game] memory (a dice game): what each player carries from turn to turn beyond the scores (Feral Hogs' previous
# points), as CLASSES whole numbers 0..CLASSES-1 (a larger value counts as the last class).
MEMORY_KEYS = {"classes": Key(int, check=within(1, 64)), "start": Key(int, 0, check=within(0, 63)),
               "remember": Key(str)}
REPORT_KEYS = {"problem": Key((int, str)), "strategy": Key(str, check=a_name)}
# The keys only one kind takes (every kind's own are the shipped loader's: GAME_KEYS).
KIND_KEYS: dict[str, dict[str, Key]] = {
    "dice": {"update": Key(str, ""), "extra_turn": Key(str, ""), "report": Key(dict, None),
             "memory": Key(dict, None), "after": Key(str, ""), "variants": Key(dict, {}, items=str)},
    "tactic": {"strategy": Key(str, "final_strategy")},
}
# Which of the shared keys says what a kind's move is: a table of another kind may not give it.
KIND_MOVES: dict[str, str] = {"dice": "dice", "tactic": "actions"}


def _dice_needs(game: GameSettings) -> None:
    if not game.table.get("update"):
        raise EditionError(messages.table_missing_key(game.where, "update", games_messages.EXPECTED_UPDATE))


def _tactic_needs(game: GameSettings) -> None:
    if len(game.actions) < 2:
        raise EditionError(messages.table_wrong_type(f"{game.where} actions", games_messages.EXPECTED_TWO_ACTIONS,
                                                     repr(list(game.actions))))


# What each kind needs given, checked after every key's own type.
KIND_NEEDS: dict[str, Callable[[GameSettings], None]] = {"dice": _dice_needs, "tactic": _tactic_needs}


def check(game: GameSettings) -> dict[str, Any]:
    """GAME's own keys (those of its kind) checked, with defaults filled in: every key of the table
    known, and of the table's kind; what the kind needs given. Errors name the file and the table."""
    kind, where = game.kind, game.where
    if kind not in KIND_KEYS:
        raise EditionError(messages.table_wrong_type(f"{where} kind", " or ".join(map(repr, KIND_KEYS)), repr(kind)))
    known = sorted(set(GAME_KEYS) | {k for keys in KIND_KEYS.values() for k in keys})
    for key in game.table:
        owner = next((o for o, keys in KIND_KEYS.items() if key in keys), None)
        owner = owner or next((o for o, move in KIND_MOVES.items() if move == key), None)
        if owner is not None and owner != kind:
            raise EditionError(games_messages.game_key_of_other_kind(where, key, kind, owner))
        if owner is None and key not in GAME_KEYS:
            raise EditionError(messages.table_unknown_key(where, key, known))
    values = check_table({k: v for k, v in game.table.items() if k in KIND_KEYS[kind]}, KIND_KEYS[kind], where)
    if game.table:  # an edition without a [game] table has no game to model, and needs nothing
        KIND_NEEDS[kind](game)
    return values


@dataclass(frozen=True)
class AnalysisSettings:
    """A dice game's ``[game]`` keys: expressions over the reference's names (see :mod:`graders.games.analysis`)."""

    update: str  # update(num_rolls, score, opponent_score, dice[, last]) -> the mover's new score
    extra_turn: str  # extra_turn(score, opponent_score) -> bool, asked after a turn short of the goal ("": none)
    goal: str  # the goal score
    baseline: str  # the strategy results are compared against
    report_problem: str | None  # the problem graded with its strategy's exact win rate (None: none)
    report_strategy: str  # that strategy's name
    # A player's memory: with more than one class, update and remember get the mover's (last) and
    # remember(num_rolls, score, opponent_score, dice, last) gives what the mover carries to their next turn.
    memory_classes: int = 1
    memory_start: int = 0
    remember: str = ""
    after: str = ""  # after(score, opponent_score) -> both scores once the turn's points are in ("": unchanged)
    variants: tuple[tuple[str, str], ...] = ()  # (name, update) of the same game under other rules

    def variant(self, name: str) -> AnalysisSettings:
        """These settings with the update of variant NAME ("" : these settings themselves)."""
        if not name:
            return self
        updates = dict(self.variants)
        if name not in updates:
            raise InputError(games_messages.unknown_variant(name, sorted(updates)))
        return dataclasses.replace(self, update=updates[name], variants=())


def dice_settings(edition: Edition) -> AnalysisSettings | None:
    """A dice game's rules, from EDITION's ``[game]`` table (None for a game of another kind)."""
    game = edition.game
    values = check(game)
    if game.kind != "dice" or not values["update"]:
        return None
    where = game.where
    for key in ("update", "extra_turn", "after"):
        if values[key]:
            check_expression(values[key], f"{where} {key}")
    memory = check_table(values["memory"], MEMORY_KEYS, f"{where} memory") if values["memory"] is not None else None
    if memory is not None:
        check_expression(memory["remember"], f"{where} memory remember")
        if memory["start"] >= memory["classes"]:
            raise EditionError(messages.table_wrong_type(f"{where} memory start", games_messages.EXPECTED_MEMORY_START,
                                                         str(memory["start"])))
    for name, source in values["variants"].items():
        check_value(name, Key(str, check=a_name), f"{where} variants")
        check_expression(source, f"{where} variants {name}")
    report = check_table(values["report"], REPORT_KEYS, f"{where} report") if values["report"] is not None else None
    if report is not None and problem_label(report["problem"]) not in {p.label for p in edition.problems}:
        raise EditionError(messages.table_wrong_type(f"{where} report problem", games_messages.EXPECTED_PROBLEM_NUMBER,
                                                     str(report["problem"])))
    return AnalysisSettings(values["update"], values["extra_turn"], game.goal, game.baseline or DICE_BASELINE,
                            problem_label(report["problem"]) if report else None, report["strategy"] if report else "",
                            memory["classes"] if memory else 1, memory["start"] if memory else 0,
                            memory["remember"] if memory else "", values["after"], tuple(values["variants"].items()))
