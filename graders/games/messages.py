"""What the games say: exact analysis, strategies and tactics, pictures and tables; the sentences
only graders/games/ uses (and graders/cli/ with it).

Each function returns text and nothing else, and tests/kit/games/test_messages.py calls each one. The
text helpers (visible, clip, …) and the sentences several folders say are in graders.core.messages.
It runs only on an instructor's machine: none of its text is in the student's bundle.
"""

from __future__ import annotations

from graders.core.messages import raised

# -- the games' exact analysis, strategies, pictures and tables ----------------------------------


def no_analysis(edition: str) -> str:
    return (f"edition {edition!r} describes no game of dice in its manifest ([game] kind = \"dice\"), so it "
            "cannot be analysed exactly")


def dice_not_modelled(edition: str, sides: str, dice: tuple[int, int], faces: int, most: int) -> str:
    return (f"edition {edition!r} plays {dice[0]} to {dice[1]} dice of a die with sides {sides!r} ([game] sides, "
            f"dice); the exact analysis solves 0 to {most} dice of a {faces}-sided die only")


def game_key_of_other_kind(where: str, key: str, kind: str, other: str) -> str:
    return (f"{where} {key}: only a game of kind {other!r} takes this key, and this table says "
            f"kind = {kind!r}")


def no_game_baseline(edition: str) -> str:
    return (f"edition {edition!r} names no baseline in its [game] table, so there is no strategy to compare "
            "against: give one with --against")


def turn_must_gain(edition: str) -> str:
    return (f"edition {edition!r} has a turn that does not raise the mover's score, so its game is not "
            "finite in the scores alone and cannot be analysed exactly")


def roll_depends_on_opponent() -> str:
    return ("a roll's effect depends on the opponent's score in this edition, which the exact analysis "
            "does not model")


def strategy_bad_value(score: int, opponent: int, got: str) -> str:
    return f"strategy({score}, {opponent}) returned {got}; a strategy returns an int from 0 to 10"


def reference_strategy_failed(expression: str, edition: str, why: str) -> str:
    """A strategy expression (``--against``, ``--strategy`` or the manifest's baseline) that the
    reference of EDITION cannot turn into a strategy."""
    return (f"{expression!r} is not a strategy of the {edition} reference ({why}); give the name of a "
            f"strategy the reference defines, such as always_roll(6) or final_strategy")


def strategy_unsteady(score: int, opponent: int) -> str:
    return f"strategy({score}, {opponent}) gave two different answers; a strategy must be deterministic"


def strategy_not_a_table() -> str:
    return "the strategy could not be tabulated"


def strategy_too_slow(expression: str, seconds: float) -> str:
    return f"{expression} did not answer for every pair of scores within {seconds:g} s"


def strategy_crashed(expression: str) -> str:
    return f"{expression} ended the program while it was being tabulated"


def strategy_raised(expression: str, error: dict, filename: str) -> str:
    if error.get("type") == "NameError":  # a name the file does not define: most often a typo
        return (f"{expression} names something {filename} does not define ({error.get('message', '')}): check "
                f"the spelling, or define it in {filename}")
    return f"{expression} {raised(error, filename)}"


def win_rate_lines(strategy: str, against: str, rates: dict) -> str:
    playing = f"{strategy}, playing against it" if strategy == best_response_to(against) else \
        f"{strategy} against {against}"
    return (
        f"{playing}, exactly:\n"
        f"  going first   {100 * rates['first']:.2f}%\n"
        f"  going second  {100 * rates['second']:.2f}%\n"
        f"  average       {100 * rates['average']:.2f}%"
    )


def final_strategy_rate(rate: float, baseline: str) -> str:
    return f"exact win rate against {baseline}: {100 * rate:.2f}% (averaged over going first and second)"


def picture_dice_title(strategy: str) -> str:
    return f"{strategy}: dice rolled for each pair of scores"


def picture_tactic_title(strategy: str) -> str:
    return f"{strategy}: its tactic's choice for each pair of scores, at a few turn totals"


def table_heading(against: str, edition: str, average: float) -> str:
    return (f"The exact best response to {against} in {edition}, written by hogkit optimal: it wins "
            f"{100 * average:.2f}% of games against it on average.")


def table_written(path: str, filename: str) -> str:
    return (f"Wrote the best response to {path}: BEST_RESPONSE (one string per score, one character per "
            f"opponent score, X = 10) and a final_strategy that reads it, to paste into {filename}")


# -- what a [game] value was expected to be, and strategies' names -------------------------------

EXPECTED_PROBLEM_NUMBER = "the number of a problem"
EXPECTED_MEMORY_START = "a class below classes"
EXPECTED_TWO_ACTIONS = "two or more action names"
EXPECTED_UPDATE = "an expression for the mover's new score: update(num_rolls, score, opponent_score, dice)"
MINIMAX = "the minimax strategy"
OPTIMAL = "the optimal strategy"
ITSELF = "itself"


def best_response_to(against: str) -> str:
    return f"the best response to {against}"


# -- variants, memory and the tactic games' best play --------------------------------------------


def unknown_variant(name: str, known: list[str]) -> str:
    return f"unknown variant {name!r} of the exact analysis (known variants: {', '.join(known) or 'none'})"


def after_lowers_sum(edition: str) -> str:
    return (f"edition {edition!r} declares a [game] after that lowers the sum of the scores, so its "
            "game cannot be solved in order of that sum (an after rule may keep or raise it)")


def memory_class_too_small(classes: int) -> str:
    return (f"a memory of {classes - 1} or more does not always act alike in this edition, so "
            f"[analysis] memory classes = {classes} is too few for the exact analysis")


def minimax_needs_plain_state() -> str:
    return ("the minimax strategy is worked out only for games whose state is the two scores; with a "
            "memory, hogkit optimal gives a best response and the bound of a player who sees the whole state")


def improved_response(against: str, rounds: int) -> str:
    return (f"a strategy of the two scores against {against}, found by policy improvement with exact "
            f"evaluation ({rounds} rounds; a local best)")


def optimal_guarantee(first: float) -> str:
    return (f"the optimal strategy is sure of winning at least {100 * first:.2f}% of games going first, "
            "whatever the opponent does (a game that never ends is won by nobody)")


def solved_in(seconds: float) -> str:
    return f"solved in {seconds:.1f} s"


def tactic_table_written(path: str, filename: str) -> str:
    return (f"Wrote the best response to {path}: BEST_RESPONSE (for each pair of scores, the tactic's runs of "
            f"one action over the turn totals) and a final_strategy that plays it, to paste into {filename}")


def whole_state_bound() -> str:
    return ("the bound: best play of a player who also sees the rest of the state (what each player "
            "remembers from their previous turn)")


def improved_table_heading(against: str, edition: str, average: float) -> str:
    return (f"A strategy of the two scores against {against} in {edition}, found by policy improvement and "
            f"written by hogkit optimal: it wins {100 * average:.2f}% of games against it on average.")


# -- a tactic game's strategy and actions, as the analysis finds them ----------------------------


def tactic_bad_value(score: int, opponent: int, total: int, got: str, actions: tuple[str, ...]) -> str:
    return (f"strategy({score}, {opponent}) gave a tactic that returned {got} for a turn total of {total}, "
            f"not {' or '.join(actions)}")


def tactic_not_a_function(score: int, opponent: int, got: str) -> str:
    return f"strategy({score}, {opponent}) returned {got}, not a tactic (a function of the turn total)"


def tactic_unsteady(score: int, opponent: int, total: int) -> str:
    return (f"strategy({score}, {opponent}) gave a tactic that answered a turn total of {total} "
            f"in two different ways")


def game_not_solvable(edition: str, why: str) -> str:
    return f"the exact analysis cannot model the game of {edition}: {why}"


def best_play_unsettled(total: int, rounds: int) -> str:
    return (f"best play did not settle at a score sum of {total} after {rounds} rounds of value iteration: "
            f"the game may go on for ever there")


def action_returned(name: str, total: int, outcome: int, scored: object, after: object, over: object) -> str:
    return (f"{name}({total}, {outcome}) returned {scored!r}, {after!r}, {over!r}, not points scored, "
            f"a turn total and whether the turn is over")


def action_stalls(name: str, total: int, outcome: int) -> str:
    return f"{name}({total}, {outcome}) neither ends the turn nor raises the turn total"
