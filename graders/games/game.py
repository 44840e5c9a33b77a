"""The game seam: one :class:`Game` interface, with one implementation per kind of game, chosen once.

Contract: an edition's ``[game]`` table (:class:`graders.editions.edition.GameSettings`; the keys of each
kind in :mod:`graders.games.kinds`) names the kind of its game (``kind``). :func:`game_of` reads it,
here and nowhere else, and gives the matching implementation: :class:`DiceGame` (a strategy returns
a number of dice; Hog's shape, modelled by :mod:`graders.games.analysis`) or :class:`TacticGame` (a
strategy returns a tactic of roll-or-hold actions; Pig's shape, modelled by :mod:`graders.games.tactics`).
Everything that needs the game (grading a win rate, ``winrate``, ``optimal``, ``picture``,
``contest``, the page's meter) asks the :class:`Game` it was handed, never the edition's name nor
its kind.

A strategy's *table* is plain numpy data either way: ``table[score, opponent_score]`` dice for a
dice game, ``table[score, opponent_score, turn_total]`` action indexes for a tactic game. The methods
take and give tables, so callers never look inside one.

A third kind of game: a module modelling it (like :mod:`graders.games.tactics`), a class here implementing
:class:`Game` (with a :class:`Chances` for the page's meter to read its best-play table), one entry in
:data:`KINDS`, and its name and keys in :data:`graders.games.kinds.KIND_KEYS`.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from graders.core import messages
from graders.core.errors import AnalysisError, LoadError
from graders.editions.edition import Edition
from graders.games import kinds
from graders.games import messages as games_messages
from graders.sandboxing.sandbox import Limits, Session

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class OptimalPlay:
    """What ``hogkit optimal`` found: the lines to print, and the best response as a module's source."""

    lines: tuple[str, ...]
    module_source: str
    average: float  # the best response's average win rate against the strategy it answers


class Chances(ABC):
    """A best-play table as the page's meter asks it (:meth:`Game.best_play_table`): the mover's exact
    chance to win from one state, each kind of game reading its own table."""

    @abstractmethod
    def chance(self, mine: int, theirs: int, total: int) -> float | None:
        """The chance with scores MINE and THEIRS and TOTAL points of the turn so far (0 where a turn
        is not made of actions), to six places; None for a state the table does not hold."""


@dataclass(frozen=True, eq=False)
class DiceChances(Chances):
    """A dice game's best-play table: ``values[score, opponent_score]`` about to choose a number of dice."""

    values: np.ndarray

    def chance(self, mine: int, theirs: int, total: int) -> float | None:
        if not (0 <= mine < self.values.shape[0] and 0 <= theirs < self.values.shape[1]):
            return None
        return round(float(self.values[mine, theirs]), 6)


@dataclass(frozen=True, eq=False)
class TacticChances(Chances):
    """A tactic game's best-play table: ``values[score, opponent_score, turn_total]`` about to choose
    an action; a turn total that reaches GOAL wins by holding."""

    values: np.ndarray
    goal: int

    def chance(self, mine: int, theirs: int, total: int) -> float | None:
        if not (0 <= mine < self.values.shape[0] and 0 <= theirs < self.values.shape[1]):
            return None
        if mine + total >= self.goal:
            return 1.0  # holding wins now
        return round(float(self.values[mine, theirs, total]), 6) if 0 <= total < self.values.shape[2] else None


class Game(ABC):
    """What the engine asks of an edition's game. A kind of game implements the abstract methods;
    the exact rates of a submission's strategy are worked out here, once, for every kind."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition

    @abstractmethod
    def prepare(self, variant: str = "") -> None:
        """Build the rules model now, so that a game the model cannot take, or a variant it does not
        have, is refused before any other work."""

    @abstractmethod
    def baseline(self) -> str:
        """The reference strategy results are compared against, as an expression."""

    @abstractmethod
    def contest_strategy(self) -> str:
        """The name of the strategy each entry plays in a contest."""

    @abstractmethod
    def reference_table(self, expression: str, variant: str = "") -> np.ndarray:
        """A strategy of the reference solution (an expression) as a table."""

    @abstractmethod
    def modelled(self) -> bool:
        """Whether the edition describes its rules for the exact analysis at all."""

    @abstractmethod
    def tabulation(self, strategy: str) -> tuple[list[str], float]:
        """The steps that tabulate STRATEGY in the sandbox (each reply plain data), and their budget
        of seconds."""

    @abstractmethod
    def parsed_tabulation(self, values: list[object]) -> np.ndarray | str:
        """The table the tabulation's values give, or why they give none."""

    def tabulate(self, session: Session, strategy: str, seconds: float | None = None) -> np.ndarray:
        """STRATEGY (a name or expression in the code SESSION runs) as a table, tabulated in SESSION's
        sandbox within SECONDS (the game's own budget by default). One way for every kind of game:
        a strategy too slow, ended (memory included) or raising is told so in the same words."""
        steps, budget = self.tabulation(strategy)
        seconds = budget if seconds is None else seconds
        replies = list(session.steps(steps, f"from {session.module} import *", time.monotonic() + seconds))
        values: list[object] = []
        for reply in replies:
            if reply.status == "timeout":
                raise AnalysisError(games_messages.strategy_too_slow(strategy, seconds))
            if reply.status in ("crashed", "memory"):
                raise AnalysisError(games_messages.strategy_crashed(strategy))
            if reply.status == "error":
                raise AnalysisError(games_messages.strategy_raised(
                    strategy, reply.error or {}, session.submission.name))
            values.append(reply.value)
        table = self.parsed_tabulation(values)
        if isinstance(table, str):
            raise AnalysisError(f"{strategy}: {table}")
        return table

    def tabulate_source(self, source: str, expressions: list[str], limits: Limits | None = None
                        ) -> tuple[list[np.ndarray], list[str]]:
        """EXPRESSIONS of a submission (SOURCE) as tables, in one sandboxed child loaded as grading
        loads it; with the notes on what loading did (a repaired syntax error, a skipped statement)."""
        from graders.sandboxing.sandbox import open_submission

        try:
            session, notes = open_submission(source, self.edition, limits)
        except LoadError as exc:
            raise AnalysisError(messages.could_not_load(self.edition.submission) + f" ({exc})") from exc
        try:
            return [self.tabulate(session, expression) for expression in expressions], notes
        finally:
            session.dispose()

    @abstractmethod
    def win_rates(self, mine: np.ndarray, theirs: np.ndarray, variant: str = "") -> dict[str, float]:
        """MINE's exact chance to beat THEIRS going first, going second, and their average."""

    @abstractmethod
    def contest_entry(self, table: np.ndarray) -> np.ndarray:
        """What a contest keeps of an entry's TABLE, worked out once per entry."""

    @abstractmethod
    def contest_pair(self, first: np.ndarray, second: np.ndarray) -> float:
        """The first entry's exact chance to beat the second (each from :meth:`contest_entry`),
        averaged over both seats, in the compiled loop where there is one."""

    @abstractmethod
    def start_values(self, table: np.ndarray, opponent: np.ndarray) -> np.ndarray:
        """(goal, goal): TABLE's exact chance to win about to start a turn at each pair of scores."""

    @abstractmethod
    def optimal(self, against: str, variant: str = "") -> OptimalPlay:
        """Best play: the best response to AGAINST (an expression), and what else the kind knows."""

    @abstractmethod
    def table_written(self, path: str) -> str:
        """The line saying a best response's module was written to PATH."""

    @abstractmethod
    def best_play_table(self, opponent: np.ndarray | None) -> Chances:
        """The mover's exact chance to win with best play against OPPONENT's table (None: against
        best play) from every state the page shows (the page's meter), asked state by state."""

    @abstractmethod
    def strategy_picture(self, strategy: str, table: np.ndarray, fmt: str) -> bytes:
        """A picture of what the strategy chooses."""

    def report(self) -> tuple[str, str] | None:
        """(problem, strategy): the problem whose result carries its strategy's exact win rate
        against the baseline as a note; None when the edition reports none."""
        return None

    def pair_rate(self, first: np.ndarray, second: np.ndarray) -> float:
        """FIRST's exact chance to beat SECOND, averaged over both seats."""
        return self.contest_pair(self.contest_entry(first), self.contest_entry(second))

    def rates_against(self, session: Session, strategy: str, against: str, seconds: float) -> dict[str, float]:
        """STRATEGY (a name in the submission, tabulated in SESSION's sandbox) against AGAINST (a
        reference expression): the exact chance to win going first, second, and their average. The
        one way a final strategy's exact rate is computed: for a ``[win_rate]`` case
        (:mod:`graders.scoring.checks`) and for the note on the problem the edition reports (:meth:`report_note`)."""
        self.prepare()
        mine = self.tabulate(session, strategy, seconds)
        return self.win_rates(mine, self.reference_table(against))

    def warm(self) -> None:
        """Build what every exact rate of this game shares (the rules model, the compiled loop, the
        baseline's table), so that a grade running beside it waits only for its own strategy. Never
        raises: whatever fails here is found again, and said, where the rate is worked out."""
        try:
            self.reference_table(self.baseline())
        except Exception:  # noqa: BLE001 - said where it is used, with the kit's message
            return

    def report_note(self, session: Session, strategy: str, seconds: float) -> str:
        """The note on the reported problem: STRATEGY's exact win rate against the baseline, or why
        it could not be worked out."""
        try:
            baseline = self.baseline()
            rates = self.rates_against(session, strategy, baseline, seconds)
        except AnalysisError as exc:
            return str(exc)
        return games_messages.final_strategy_rate(rates["average"], baseline)



class DiceGame(Game):
    """A game whose strategies return a number of dice (Hog's shape): :mod:`graders.games.analysis`."""

    def prepare(self, variant: str = "") -> None:
        from graders.games import analysis

        analysis.build_model(self.edition, variant)

    def baseline(self) -> str:
        from graders.games import analysis

        return analysis.analysis_settings(self.edition).baseline

    def contest_strategy(self) -> str:
        from graders.games import analysis

        return analysis.analysis_settings(self.edition).report_strategy

    @cached_property
    def rules(self) -> kinds.AnalysisSettings | None:
        """The edition's dice rules, read once for this game (every grade asks for its report)."""
        return kinds.dice_settings(self.edition)

    def report(self) -> tuple[str, str] | None:
        settings = self.rules
        if settings is None or settings.report_problem is None:
            return None
        return settings.report_problem, settings.report_strategy

    def reference_table(self, expression: str, variant: str = "") -> np.ndarray:
        from graders.games import analysis

        self.prepare(variant)
        return analysis.reference_table(self.edition, expression)

    def modelled(self) -> bool:
        return self.rules is not None

    def tabulation(self, strategy: str) -> tuple[list[str], float]:
        from graders.games import analysis

        return [f"tabulate({strategy}, {analysis.build_model(self.edition).goal})"], analysis.TABULATE_SECONDS

    def parsed_tabulation(self, values: list[object]) -> np.ndarray | str:
        from graders.games import analysis

        return analysis.parse_table(values[0] if values else None, analysis.build_model(self.edition).goal)

    def win_rates(self, mine: np.ndarray, theirs: np.ndarray, variant: str = "") -> dict[str, float]:
        from graders.games import analysis

        return analysis.win_rates(analysis.build_model(self.edition, variant), mine, theirs)

    def warm(self) -> None:
        from graders.games import analysis

        try:
            analysis.compiled_kernel()  # built once per process, off a grade's critical path
        except Exception:  # noqa: BLE001 - the numpy fallback, or the error, comes where it is used
            pass
        super().warm()

    def contest_entry(self, table: np.ndarray) -> np.ndarray:
        return table

    def contest_pair(self, first: np.ndarray, second: np.ndarray) -> float:
        from graders.games import analysis

        return analysis.pair_rate(analysis.build_model(self.edition), first, second)

    def start_values(self, table: np.ndarray, opponent: np.ndarray) -> np.ndarray:
        from graders.games import analysis

        model = analysis.build_model(self.edition)
        return analysis.start_values(model, analysis.win_tables(model, table, opponent)[0])

    def optimal(self, against: str, variant: str = "") -> OptimalPlay:
        from graders.games import analysis

        model = analysis.build_model(self.edition, variant)
        theirs = analysis.reference_table(self.edition, against)
        if model.memory > 1:  # strategies see the scores only: a best response found by improvement, and a bound
            best, rates, rounds = analysis.score_best_response(model, theirs)
            lines = [games_messages.win_rate_lines(games_messages.improved_response(against, rounds), against, rates),
                     games_messages.win_rate_lines(games_messages.whole_state_bound(), against,
                                                   analysis.full_best_response(model, theirs)[1])]
            heading = games_messages.improved_table_heading(against, self.edition.name, rates["average"])
        else:
            best = analysis.best_response(model, theirs)
            rates = analysis.win_rates(model, best, theirs)
            minimax = analysis.optimal(model)
            lines = [games_messages.win_rate_lines(games_messages.best_response_to(against), against, rates),
                     games_messages.win_rate_lines(
                         games_messages.MINIMAX, against, analysis.win_rates(model, minimax, theirs)),
                     games_messages.win_rate_lines(games_messages.MINIMAX, games_messages.ITSELF,
                                                   analysis.win_rates(model, minimax, minimax))]
            heading = games_messages.table_heading(against, self.edition.name, rates["average"])
        return OptimalPlay(tuple(lines), analysis.strategy_module_source(best, heading), rates["average"])

    def table_written(self, path: str) -> str:
        return games_messages.table_written(path, self.edition.submission)

    def best_play_table(self, opponent: np.ndarray | None) -> Chances:
        from graders.games import analysis

        model = analysis.build_model(self.edition)
        if opponent is None:
            best = analysis.optimal(model)
            return DiceChances(analysis.win_tables(model, best, best)[0])
        return DiceChances(analysis.win_tables(model, analysis.best_response(model, opponent), opponent)[0])

    def strategy_picture(self, strategy: str, table: np.ndarray, fmt: str) -> bytes:
        from graders.games import pictures

        return pictures.strategy_dice(games_messages.picture_dice_title(strategy), table.tolist(),
                                      self.edition.game.dice, fmt)


class TacticGame(Game):
    """A game whose strategies return a tactic of actions (Pig's shape): :mod:`graders.games.tactics`."""

    def prepare(self, variant: str = "") -> None:
        from graders.games import tactics

        if variant:
            raise AnalysisError(games_messages.unknown_variant(variant, []))
        tactics.build_model(self.edition)

    def baseline(self) -> str:
        if not self.edition.game.baseline:
            raise AnalysisError(games_messages.no_game_baseline(self.edition.name))
        return self.edition.game.baseline

    def contest_strategy(self) -> str:
        return str(kinds.check(self.edition.game)["strategy"])

    def reference_table(self, expression: str, variant: str = "") -> np.ndarray:
        from graders.games import tactics

        self.prepare(variant)
        return tactics.reference_table(self.edition, expression)

    def modelled(self) -> bool:
        return True

    def tabulation(self, strategy: str) -> tuple[list[str], float]:
        from graders.games import tactics

        model = tactics.build_model(self.edition)
        actions = "(" + ", ".join(model.actions) + ",)"
        return ([f"tactic_row({strategy}, {actions}, {a}, {model.goal}, {model.totals!r})" for a in range(model.goal)],
                tactics.TABULATE_SECONDS)

    def parsed_tabulation(self, values: list[object]) -> np.ndarray | str:
        from graders.games import tactics

        return tactics.parse_rows(values, tactics.build_model(self.edition))

    def win_rates(self, mine: np.ndarray, theirs: np.ndarray, variant: str = "") -> dict[str, float]:
        from graders.games import tactics

        self.prepare(variant)
        return tactics.win_rates(tactics.build_model(self.edition), mine, theirs)

    def contest_entry(self, table: np.ndarray) -> np.ndarray:
        from graders.games import tactics

        return tactics.turn_gains(tactics.build_model(self.edition), table)

    def contest_pair(self, first: np.ndarray, second: np.ndarray) -> float:
        from graders.games import tactics

        return tactics.rates_of_gains(tactics.build_model(self.edition), first, second)["average"]

    def start_values(self, table: np.ndarray, opponent: np.ndarray) -> np.ndarray:
        from graders.games import tactics

        return tactics.start_values(tactics.build_model(self.edition), table, opponent)

    def optimal(self, against: str, variant: str = "") -> OptimalPlay:
        """The best response to AGAINST and the optimal strategy, both by value iteration, each then
        evaluated exactly."""
        from graders.games import tactics

        self.prepare(variant)
        model = tactics.build_model(self.edition)
        theirs = tactics.reference_table(self.edition, against)
        started = time.monotonic()
        best = tactics.best_response(model, theirs)[0]
        optimal, values = tactics.best_response(model)
        seconds = time.monotonic() - started
        rates = tactics.win_rates(model, best, theirs)
        lines = (games_messages.win_rate_lines(games_messages.best_response_to(against), against, rates),
                 games_messages.win_rate_lines(
                     games_messages.OPTIMAL, against, tactics.win_rates(model, optimal, theirs)),
                 games_messages.win_rate_lines(
                     games_messages.OPTIMAL, games_messages.ITSELF, tactics.win_rates(model, optimal, optimal)),
                 games_messages.optimal_guarantee(float(values[0, 0, 0])), games_messages.solved_in(seconds))
        heading = games_messages.table_heading(against, self.edition.name, rates["average"])
        return OptimalPlay(lines, tactics.strategy_module_source(model, best, heading), rates["average"])

    def table_written(self, path: str) -> str:
        return games_messages.tactic_table_written(path, self.edition.submission)

    def best_play_table(self, opponent: np.ndarray | None) -> Chances:
        from graders.games import tactics

        model = tactics.build_model(self.edition)
        return TacticChances(tactics.best_response(model, opponent)[1], model.goal)

    def strategy_picture(self, strategy: str, table: np.ndarray, fmt: str) -> bytes:
        from graders.games import pictures, tactics

        model = tactics.build_model(self.edition)
        shown = tactics.picture_totals(model)
        return pictures.tactic_map(games_messages.picture_tactic_title(strategy),
                                   [(t, table[:, :, t].tolist()) for t in shown], model.actions, fmt)


KINDS: dict[str, type[Game]] = {"dice": DiceGame, "tactic": TacticGame}


def game_of(edition: Edition) -> Game:
    """The edition's game, by the kind its ``[game]`` table names: the one place the kind is read.
    The table is checked first (:func:`graders.games.kinds.check`): a key of another kind, a typo or
    a kind with no model is an :class:`~graders.core.errors.EditionError` naming the file."""
    kinds.check(edition.game)
    return KINDS[edition.game.kind](edition)
