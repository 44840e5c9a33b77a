"""The game seam: what the engine needs to know of an edition's game, in one place.

Contract: an edition's ``[game]`` table (:class:`graders.edition.GameSettings`) says what a
strategy returns. ``turn = "dice"`` (Hog's shape, the default) is modelled by
:mod:`graders.analysis` from the ``[analysis]`` table; ``turn = "tactic"`` (a turn of roll-or-hold
actions, Pig's shape) by :mod:`graders.tactics`. Everything else (grading a win rate, the wording
of a choice) asks this module, never the edition's name.
"""

from __future__ import annotations

from graders import messages
from graders.edition import Edition
from graders.sandbox import Session

DICE_CHOICE = "a number of dice from 0 to 10"


def is_tactic_game(edition: Edition) -> bool:
    return edition.game.turn == "tactic"


def choice_words(edition: Edition) -> str:
    """How a sentence names what a strategy chooses: the manifest's words, or the shape's."""
    if edition.game.choice:
        return edition.game.choice
    return " or ".join(edition.game.actions) if is_tactic_game(edition) else DICE_CHOICE


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


def refuse_without(edition: Edition, command: str, declared: object) -> str:
    """"" when the edition declares what COMMAND needs (DECLARED), else the sentence saying why not."""
    return "" if declared else messages.no_game_command(edition.name, command)
