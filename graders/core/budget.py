"""Budgets: a deadline for one analysis of one hand-in, checked as the analysis works.

Contract: a :class:`Budget` counts the steps of an analysis the grader makes of a hand-in's code
(:meth:`Budget.step`: a syntax node visited, a token made) and raises :class:`OverBudget` at a step
taken once its deadline has passed; the clock is read once every :data:`CHECK_EVERY` steps, so a
step costs an addition. The clock is the processor time of the thread doing the work (the analyses
only compute): a machine loaded by others slows an analysis down but never makes it run out, so
whether a hand-in is over its budget depends on the hand-in. A budget belongs to one thread.
``steps`` tells how much work was done (the tests assert on it, never on a time).

Each analysis that runs in the grader's own process on what a student wrote (the shape rules of
:mod:`graders.scoring.astrules`, the similarity fingerprints of :mod:`graders.courses.fingerprints`)
takes one and turns :class:`OverBudget` into a labelled result for that hand-in, never a stalled
class. The analyses are linear, so a budget is only ever spent by a hand-in built to spend it.
Standard library only: it ships to students (Python 3.9).
"""

from __future__ import annotations

import math
import time

SHAPE_SECONDS = 20.0  # of processor time: the shape rules of one hand-in, all of them together
FINGERPRINT_SECONDS = 20.0  # of processor time: one hand-in's similarity fingerprints
CHECK_EVERY = 1024  # steps between two readings of the clock


class OverBudget(Exception):
    """An analysis ran past its budget's deadline."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"over its budget of {seconds:g} s")
        self.seconds = seconds


class Budget:
    """SECONDS of this thread's processor time from now for an analysis (None: no deadline, only the
    count of steps)."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds if seconds is not None else math.inf
        self.ends = time.thread_time() + self.seconds
        self.steps = 0
        self._next = CHECK_EVERY

    def step(self, count: int = 1) -> None:
        """COUNT more steps; :class:`OverBudget` when the deadline has passed (read every CHECK_EVERY steps)."""
        self.steps += count
        if self.steps >= self._next:
            self._next = self.steps + CHECK_EVERY
            self.check()

    def check(self) -> None:
        """:class:`OverBudget` when the deadline has passed."""
        if time.thread_time() >= self.ends:
            raise OverBudget(self.seconds)
