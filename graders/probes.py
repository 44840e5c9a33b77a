"""Probes: small helpers every case transcript may use to watch how submitted code behaves.

Contract: this file runs inside the sandboxed child next to untrusted code, so it imports only
the standard library and prints only values whose type it has checked exactly (``plain``), never
``str()`` of an object the submission made. Every public name is listed in ``__all__`` and is
put into each case's namespace. Nothing here knows about any edition: the probes count calls,
record arguments and build seeded dice and strategies.
"""

from __future__ import annotations

import random
from collections.abc import Callable

__all__ = ["plain", "counted", "counting_dice", "spy", "seeded_game", "show_strategy", "check_strategy",
           "commentary_log", "tabulate"]


def plain(value: object) -> str:
    """``repr`` of a value of an exact plain type; a placeholder for anything else."""
    if type(value) in (int, bool, float, str) or value is None:
        return repr(value)
    if type(value) is tuple:
        return "(" + ", ".join(plain(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return "<" + type(value).__name__ + " object>"


class counted:
    """Wrap FN and count its calls: ``.calls``, positional arguments in ``.args``, keywords in ``.kwargs``."""

    def __init__(self, fn: Callable) -> None:
        self.fn, self.calls = fn, 0
        self.args: list[tuple] = []
        self.kwargs: list[dict] = []

    def __call__(self, *args: object, **kwargs: object) -> object:
        self.calls += 1
        self.args.append(args)
        self.kwargs.append(kwargs)
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


class _seeded_dice:
    """Fair-looking dice drawn one outcome at a time from RNG, counting rolls (``.calls``)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.calls = rng, 0

    def __call__(self) -> int:
        self.calls += 1
        return self.rng.randrange(6) + 1


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
            self.calls.append((who, score, opponent_score, choice))
            return choice
        return strategy

    def trace(self) -> None:
        for who, score, opponent_score, choice in self.calls:
            print("strategy" + str(who), "given", plain(score), plain(opponent_score), "rolls", choice)
        print("dice rolled", self.dice.calls, "times")


def _cell(value: object) -> str:
    if type(value) is int and 0 <= value <= 10:
        return "0123456789X"[value]
    return "?"


def show_strategy(strategy: Callable, goal: int = 100) -> None:
    """Print STRATEGY's choice for every pair of scores below GOAL: one row per score, one
    character per opponent score (0-9, X for 10, ? for anything that is not an int from 0 to 10).
    """
    for score in range(goal):
        print(str(score).rjust(3) + " " + "".join(_cell(strategy(score, opp)) for opp in range(goal)))


def check_strategy(strategy: Callable, goal: int = 100) -> None:
    """Print the first pair of scores where STRATEGY does not return an int from 0 to 10, or where
    asking twice gives two answers; print 'valid' when there is none.
    """
    for score in range(goal):
        for opp in range(goal):
            first = strategy(score, opp)
            if type(first) is not int or not 0 <= first <= 10:
                print("strategy(" + str(score) + ", " + str(opp) + ") returned " + plain(first))
                return
            again = strategy(score, opp)
            if type(again) is not int or again != first:
                print("strategy(" + str(score) + ", " + str(opp) + ") gave two different answers")
                return
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
            self.calls.append((k, score0, score1))
            return self._link(k + 1)
        return say

    def trace(self) -> None:
        for k, score0, score1 in self.calls:
            print("commentary", k, "given", plain(score0), plain(score1))


def tabulate(strategy: Callable, goal: int = 100) -> tuple:
    """STRATEGY's choice for every pair of scores below GOAL, as GOAL strings of GOAL characters
    (0-9, X for 10); or ("bad", score, opponent, what it returned) for the first pair where it does
    not return an int from 0 to 10, or ("unsteady", score, opponent) where two calls disagree."""
    rows = []
    for score in range(goal):
        row = []
        for opp in range(goal):
            first = strategy(score, opp)
            if type(first) is not int or not 0 <= first <= 10:
                return ("bad", score, opp, plain(first))
            again = strategy(score, opp)
            if type(again) is not int or again != first:
                return ("unsteady", score, opp)
            row.append("0123456789X"[first])
        rows.append("".join(row))
    return tuple(rows)
