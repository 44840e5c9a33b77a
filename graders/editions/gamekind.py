"""The kinds of game an edition's ``[game]`` table may describe, and the keys each kind takes.

Contract: one manifest table, ``[game]``, describes an edition's game; its ``kind`` says which
model the engine uses (:mod:`graders.games.game` picks the implementation from it). This module holds the
table's schema, kind by kind, so that the loader (:mod:`graders.editions.edition`) checks every key against
the kind it belongs to and names the file and the key when one is missing or belongs to another
kind. It ships to students (Python 3.9, no numpy): it knows the table's shape, never a model.

* ``kind = "dice"``: a strategy returns a number of dice (Hog's shape); the rules are the
  reference's own functions named by expressions (``update``, ``extra_turn``, ``after``,
  ``memory``, ``variants``), and ``report`` names the problem graded with its strategy's exact rate.
* ``kind = "tactic"``: a strategy returns a tactic of ``actions`` (Pig's shape); ``strategy`` names
  what a contest plays.

Every kind takes ``goal`` (an expression for the goal score), ``baseline`` (the strategy results
are compared against) and ``sides`` (an expression over ``score`` and ``opponent_score`` for the
die a turn uses); a dice game's ``dice`` says the fewest and most dice a strategy may choose
(``[0, 10]``).

A third kind: its name and the keys only it takes in :data:`KIND_KEYS`, and its model in
:mod:`graders.games.game`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graders.core import messages
from graders.core.errors import EditionError
from graders.core.tables import Key, check_table, one_of

# The keys only one kind takes (the others are every kind's: COMMON_KEYS).
KIND_KEYS: dict[str, dict[str, Key]] = {
    "dice": {"dice": Key(list, [0, 10], items=int, check=lambda v: "" if len(v) == 2 and 0 <= v[0] <= v[1] <= 100
                         else messages.EXPECTED_DICE_RANGE),
             "update": Key(str, ""), "extra_turn": Key(str, ""), "report": Key(dict, None),
             "memory": Key(dict, None), "after": Key(str, ""), "variants": Key(dict, {}, items=str)},
    "tactic": {"actions": Key(list, [], items=str), "strategy": Key(str, "final_strategy")},
}


def _dice_needs(values: dict[str, Any], where: str) -> None:
    if not values["update"]:
        raise EditionError(messages.table_missing_key(where, "update", messages.EXPECTED_UPDATE))


def _tactic_needs(values: dict[str, Any], where: str) -> None:
    if len(values["actions"]) < 2:
        raise EditionError(messages.table_wrong_type(f"{where} actions", messages.EXPECTED_TWO_ACTIONS,
                                                     repr(values["actions"])))


# What each kind needs given, checked after every key's own type.
KIND_NEEDS: dict[str, Callable[[dict[str, Any], str], None]] = {"dice": _dice_needs, "tactic": _tactic_needs}
COMMON_KEYS: dict[str, Key] = {
    "kind": Key(str, check=one_of(*KIND_KEYS)), "goal": Key(str, "GOAL"), "baseline": Key(str, ""),
    "sides": Key(str, "6"),
}
GAME_KEYS: dict[str, Key] = {**COMMON_KEYS, **{k: v for keys in KIND_KEYS.values() for k, v in keys.items()}}


def check_game(raw: dict, where: str) -> dict[str, Any]:
    """The ``[game]`` table RAW checked: every key known, of its type, and of the table's kind;
    what the kind needs given. WHERE names the file and table in every error."""
    values = check_table(raw, GAME_KEYS, where)
    kind = values["kind"]
    for other, keys in KIND_KEYS.items():
        for key in keys:
            if other != kind and key in raw:
                raise EditionError(messages.game_key_of_other_kind(where, key, kind, other))
    KIND_NEEDS[kind](values, where)
    return values
