"""Tables: the one way the kit checks a table of its own data files before anything uses it.

Contract: :func:`check_table` takes a table read from TOML or JSON (a manifest's ``[analysis]``, a
case file's ``[[case]]``, a template's ``range``, ...) and a declaration of its keys, and returns
its values with every default filled in, or raises :class:`~graders.core.errors.EditionError` with one
line naming WHERE (the file and the table), the key and what was expected: an unknown key (with
the keys that are known, so a typo shows its fix), a missing key, or a value of the wrong type.
Types are compared exactly (a ``true`` is not a number, a number is not text); a float key accepts
a whole number. A key may declare what its items must be (``items``) and a further condition
(``check``, returning what was expected when the value falls short). Nothing here knows any
particular table: each module that owns a table declares its keys beside the code that reads it.

This module is shipped to students (their copies of the cases are read through it) and keeps to
Python 3.9.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

from graders.core import messages
from graders.core.errors import EditionError

REQUIRED = object()  # the default of a key that must be given
Types = Union[type, tuple[type, ...]]


@dataclass(frozen=True)
class Key:
    """One key of a table: the types its value may have, its default (REQUIRED when it must be
    given), what its items must be when it is a list or table, and a further CHECK returning what
    was expected ("" when the value is fine)."""

    types: Types
    default: Any = REQUIRED
    items: Types | None = None
    check: Callable[[Any], str] | None = None


def _names(types: Types) -> str:
    kinds = types if isinstance(types, tuple) else (types,)
    words = {int: "a whole number", float: "a number", str: "text", bool: "true or false", list: "a list",
             dict: "a table"}
    return " or ".join(words.get(k, k.__name__) for k in kinds)


def is_a(value: object, types: Types) -> bool:
    """Whether VALUE has one of TYPES exactly (a float type accepts a whole number too)."""
    kinds = types if isinstance(types, tuple) else (types,)
    if float in kinds and type(value) is int:
        return True
    return type(value) in kinds


def check_table(table: object, keys: Mapping[str, Key], where: str, *, extra: Key | None = None
                ) -> dict[str, Any]:
    """TABLE's values by key, checked against KEYS, with defaults filled in (a default of None is
    kept as None). EXTRA, when given, declares every key KEYS does not name (a table of names)."""
    if not isinstance(table, dict):
        raise EditionError(messages.table_not_a_table(where, type(table).__name__))
    if extra is None:
        unknown = sorted(set(table) - set(keys))
        if unknown:
            raise EditionError(messages.table_unknown_key(where, unknown[0], sorted(keys)))
    values: dict[str, Any] = {}
    for key, spec in keys.items():
        if key not in table:
            if spec.default is REQUIRED:
                raise EditionError(messages.table_missing_key(where, key, _names(spec.types)))
            values[key] = spec.default
            continue
        values[key] = check_value(table[key], spec, f"{where} {key}")
    if extra is not None:  # without EXTRA, a key KEYS does not name was refused above
        for key in table:  # in the table's own order, which a seeded draw depends on
            if key not in keys:
                values[key] = check_value(table[key], extra, f"{where} {key}")
    return values


def check_value(value: object, spec: Key, where: str) -> Any:
    """VALUE checked against SPEC (see :class:`Key`); WHERE names it in the error."""
    if not is_a(value, spec.types):
        raise EditionError(messages.table_wrong_type(where, _names(spec.types), _shown(value)))
    if spec.items is not None:  # declared for a list or a table only: anything else has no items
        members = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        for item in members:
            if not is_a(item, spec.items):
                raise EditionError(messages.table_wrong_item(where, _names(spec.items), _shown(item)))
    if spec.check is not None:
        expected = spec.check(value)
        if expected:
            raise EditionError(messages.table_wrong_type(where, expected, _shown(value)))
    return float(value) if spec.types is float and isinstance(value, (int, float)) else value


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def within(low: int, high: int) -> Callable[[Any], str]:
    """A CHECK: a whole number from LOW to HIGH."""
    return lambda v: "" if low <= v <= high else f"a whole number from {low} to {high}"


def one_of(*choices: str) -> Callable[[Any], str]:
    """A CHECK: one of CHOICES."""
    return lambda v: "" if v in choices else "one of " + ", ".join(repr(c) for c in choices)


def positive(value: Any) -> str:
    """A CHECK: a number above 0."""
    return "" if value > 0 else "a number above 0"


def pair_of_ints(value: Any) -> str:
    """A CHECK: two whole numbers, the first no larger than the second (an inclusive range)."""
    ok = (isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)
          and value[0] <= value[1])
    return "" if ok else "two whole numbers [low, high] with low <= high"


def share(value: Any) -> str:
    """A CHECK: a number from 0 to 1 (a chance)."""
    return "" if 0 <= value <= 1 else "a number from 0 to 1"
