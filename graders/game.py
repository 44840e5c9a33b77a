"""The game seam: what the engine needs to know of an edition's game, in one place.

Contract: an edition's ``[game]`` table (:class:`graders.edition.GameSettings`) says what a
strategy returns. ``turn = "dice"`` (Hog's shape, the default) is modelled by
:mod:`graders.analysis` from the ``[analysis]`` table; ``turn = "tactic"`` (a turn of roll-or-hold
actions, Pig's shape) by :mod:`graders.tactics`. What needs the game (grading a win rate) asks this
module, never the edition's name.
"""

from __future__ import annotations

from graders.edition import Edition
from graders.sandbox import Session


def is_tactic_game(edition: Edition) -> bool:
    return edition.game.turn == "tactic"


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

