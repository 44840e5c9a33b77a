"""The game seam: what the engine needs to know of an edition's game, in one place.

Contract: an edition's ``[game]`` table (:class:`graders.edition.GameSettings`) says what a
strategy returns. ``turn = "dice"`` (Hog's shape, the default) is modelled by
:mod:`graders.analysis` from the ``[analysis]`` table; ``turn = "tactic"`` (a turn of roll-or-hold
actions, Pig's shape) by :mod:`graders.tactics`. Everything that needs the game (grading a win rate,
``winrate``, ``optimal``, ``picture``, ``contest``) asks this module, never the edition's name.

A strategy's *table* is plain numpy data either way: ``table[score, opponent_score]`` dice for Hog,
``table[score, opponent_score, turn_total]`` action indexes for a tactic game. The functions here
take and give tables, so callers never look inside one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graders import messages
from graders.edition import Edition
from graders.errors import AnalysisError
from graders.sandbox import Limits, Session

if TYPE_CHECKING:
    import numpy as np


def is_tactic_game(edition: Edition) -> bool:
    return edition.game.turn == "tactic"


def baseline(edition: Edition) -> str:
    """The reference strategy results are compared against, as an expression."""
    if is_tactic_game(edition):
        if not edition.game.baseline:
            raise AnalysisError(messages.no_game_baseline(edition.name))
        return edition.game.baseline
    from graders import analysis

    return analysis.analysis_settings(edition).baseline


def contest_strategy(edition: Edition) -> str:
    """The name of the strategy each entry plays in a contest."""
    if is_tactic_game(edition):
        return edition.game.strategy
    from graders import analysis

    return analysis.analysis_settings(edition).report_strategy


def prepare(edition: Edition, variant: str = "") -> None:
    """Build the game's model now, so that a game the analysis cannot model, or a variant it does
    not have (a tactic game has none), is refused before any other work."""
    if is_tactic_game(edition):
        if variant:
            raise AnalysisError(messages.unknown_variant(variant, []))
        from graders import tactics

        tactics.build_model(edition)
        return
    from graders import analysis

    analysis.build_model(edition, variant)


def reference_table(edition: Edition, expression: str, variant: str = "") -> np.ndarray:
    """A strategy of the reference solution (an expression) as a table."""
    prepare(edition, variant)
    if is_tactic_game(edition):
        from graders import tactics

        return tactics.reference_table(edition, expression)
    from graders import analysis

    return analysis.reference_table(edition, expression)


def tabulate_source(source: str, edition: Edition, expressions: list[str], limits: Limits | None = None
                    ) -> tuple[list[np.ndarray], list[str]]:
    """EXPRESSIONS of a submission (SOURCE) as tables, computed in one sandboxed child; with the
    notes on what loading did."""
    if is_tactic_game(edition):
        from graders import tactics

        return tactics.tabulate_source(source, edition, expressions, limits)
    from graders import analysis

    return analysis.tabulate_source(source, edition, expressions, limits)


def win_rates(edition: Edition, mine: np.ndarray, theirs: np.ndarray, variant: str = "") -> dict[str, float]:
    """MINE's exact chance to beat THEIRS going first, going second, and their average."""
    prepare(edition, variant)
    if is_tactic_game(edition):
        from graders import tactics

        return tactics.win_rates(tactics.build_model(edition), mine, theirs)
    from graders import analysis

    return analysis.win_rates(analysis.build_model(edition, variant), mine, theirs)


def pair_rate(edition: Edition, first: np.ndarray, second: np.ndarray) -> float:
    """FIRST's exact chance to beat SECOND, averaged over both seats."""
    return contest_pair(edition, contest_entry(edition, first), contest_entry(edition, second))


def contest_entry(edition: Edition, table: np.ndarray) -> np.ndarray:
    """What a contest keeps of an entry's TABLE, worked out once per entry rather than once per pair:
    for a game of tactics, its distribution of turn gains; for a dice game, the table itself."""
    if is_tactic_game(edition):
        from graders import tactics

        return tactics.turn_gains(tactics.build_model(edition), table)
    return table


def contest_pair(edition: Edition, first: np.ndarray, second: np.ndarray) -> float:
    """The first entry's exact chance to beat the second (each from :func:`contest_entry`), averaged
    over both seats, in the compiled loop where there is one."""
    prepare(edition)
    if is_tactic_game(edition):
        from graders import tactics

        return tactics.rates_of_gains(tactics.build_model(edition), first, second)["average"]
    from graders import analysis

    return analysis.pair_rate(analysis.build_model(edition), first, second)


def start_values(edition: Edition, table: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """(goal, goal): TABLE's exact chance to win about to start a turn at each pair of scores."""
    if is_tactic_game(edition):
        from graders import tactics

        return tactics.start_values(tactics.build_model(edition), table, opponent)
    from graders import analysis

    model = analysis.build_model(edition)
    return analysis.start_values(model, analysis.win_tables(model, table, opponent)[0])


def strategy_picture(edition: Edition, strategy: str, table: np.ndarray, fmt: str) -> bytes:
    """A picture of what the strategy chooses: its dice for every pair of scores (Hog's shape), or
    roll or hold for every pair of scores at a few turn totals (a tactic game)."""
    from graders import pictures

    if is_tactic_game(edition):
        from graders import tactics

        model = tactics.build_model(edition)
        shown = tactics.picture_totals(model)
        return pictures.tactic_map(messages.picture_tactic_title(strategy),
                                   [(t, table[:, :, t].tolist()) for t in shown], model.actions, fmt)
    return pictures.strategy_dice(messages.picture_dice_title(strategy), table.tolist(), fmt)


def rates_against(edition: Edition, session: Session, strategy: str, against: str, seconds: float
                  ) -> dict[str, float]:
    """STRATEGY (a name in the submission, tabulated in SESSION's sandbox) against AGAINST (a
    reference expression): the exact chance to win going first, second, and their average."""
    if is_tactic_game(edition):
        from graders import tactics

        model = tactics.build_model(edition)
        mine = tactics.tabulate(session, strategy, model, seconds)
        return tactics.win_rates(model, mine, tactics.reference_table(edition, against))
    from graders import analysis

    dice_model = analysis.build_model(edition)
    table = analysis.tabulate(session, strategy, dice_model.goal)
    return analysis.win_rates(dice_model, table, analysis.reference_table(edition, against))
