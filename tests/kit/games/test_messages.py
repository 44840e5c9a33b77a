"""The sentences of graders/games/messages.py, each public function called with what it must carry.

Every public function of a sentence module appears in its folder's table: tests/kit/test_messages.py
checks, across the folders, that none is left out.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graders.games import messages as games_messages

from ..sentences import carries, ids

# (function, arguments, texts the result must contain).
EXPECTATIONS: list[tuple[Callable[..., str], tuple, list[str]]] = [
    (games_messages.reference_strategy_failed, ("nope(3)", "boar_brawl", "NameError: name 'nope' is not defined"),
     ["'nope(3)'", "boar_brawl reference", "NameError", "always_roll(6)"]),
    (games_messages.no_analysis, ("pig",), ["'pig'", "[game] kind = \"dice\""]),
    (games_messages.dice_not_modelled, ("x", "8", (1, 6), 6, 10),
     ["'x'", "1 to 6 dice", "'8'", "0 to 10 dice of a 6-sided"]),
    (games_messages.game_key_of_other_kind, ("e.toml [game]", "update", "tactic", "dice"),
     ["e.toml [game] update", "only a game of kind 'dice'", "kind = 'tactic'"]),
    (games_messages.turn_must_gain, ("pig",), ["'pig'", "does not raise"]),
    (games_messages.unknown_variant, ("no_hogs", ["no_feral_hogs"]), ["'no_hogs'", "known variants: no_feral_hogs"]),
    (games_messages.after_lowers_sum, ("pig",), ["'pig'", "[game] after that lowers", "sum of the scores", "raise"]),
    (games_messages.memory_class_too_small, (14,), ["13 or more", "classes = 14", "too few"]),
    (games_messages.minimax_needs_plain_state, (), ["minimax", "two scores", "hogkit optimal"]),
    (games_messages.improved_response, ("always_roll(4)", 3), ["always_roll(4)", "policy improvement", "3 rounds"]),
    (games_messages.whole_state_bound, (), ["bound", "rest of the state"]),
    (games_messages.improved_table_heading, ("always_roll(4)", "swine_swap", 0.8713),
     ["always_roll(4)", "swine_swap", "policy improvement", "87.13%"]),
    (games_messages.roll_depends_on_opponent, (), ["opponent's score"]),
    (games_messages.strategy_bad_value, (3, 4, "11"), ["strategy(3, 4) returned 11", "0 to 10"]),
    (games_messages.strategy_unsteady, (3, 4), ["strategy(3, 4)", "two different answers"]),
    (games_messages.strategy_not_a_table, (), ["tabulated"]),
    (games_messages.strategy_too_slow, ("final_strategy", 30.0), ["final_strategy", "30 s"]),
    (games_messages.strategy_crashed, ("final_strategy",), ["final_strategy", "ended the program"]),
    (games_messages.strategy_raised, ("f", {"type": "TypeError", "message": "bad"}, "hog.py"),
     ["f raised TypeError: bad"]),
    (games_messages.strategy_raised,
     ("nosuch", {"type": "NameError", "message": "name 'nosuch' is not defined"}, "hog.py"),
     ["nosuch names something hog.py does not define", "check the spelling"]),
    (games_messages.win_rate_lines,
     (games_messages.best_response_to("b"), "b", {"first": 0.5, "second": 0.25, "average": 0.375}),
     ["the best response to b, playing against it, exactly"]),
    (games_messages.win_rate_lines, ("a", "b", {"first": 0.5, "second": 0.25, "average": 0.375}),
     ["a against b", "50.00%", "25.00%", "37.50%"]),
    (games_messages.final_strategy_rate, (0.6985, "always_roll(6)"), ["69.85%", "always_roll(6)"]),
    (games_messages.table_written, ("best.py", "pig.py"), ["best.py", "to paste into pig.py"]),
    (games_messages.table_heading, ("always_roll(6)", "boar_brawl", 0.7712),
     ["best response to always_roll(6)", "boar_brawl", "77.12%"]),
    (games_messages.picture_dice_title, ("final_strategy",), ["final_strategy: dice rolled"]),
    (games_messages.best_response_to, ("always_roll(6)",), ["the best response to always_roll(6)"]),
    (games_messages.tactic_bad_value, (3, 4, 12, "7", ("roll", "hold")),
     ["strategy(3, 4)", "returned 7", "turn total of 12", "roll or hold"]),
    (games_messages.tactic_not_a_function, (3, 4, "None"), ["strategy(3, 4) returned None", "not a tactic"]),
    (games_messages.tactic_unsteady, (3, 4, 12), ["strategy(3, 4)", "turn total of 12", "two different ways"]),
    (games_messages.game_not_solvable, ("pig", "roll(0, 2) neither ends"), ["game of pig", "roll(0, 2) neither ends"]),
    (games_messages.action_returned, ("roll", 3, 2, 0, 5, None),
     ["roll(3, 2) returned 0, 5, None", "whether the turn is over"]),
    (games_messages.action_stalls, ("roll", 3, 2), ["roll(3, 2)", "neither ends the turn"]),
    (games_messages.best_play_unsettled, (12, 500), ["score sum of 12", "500 rounds", "value iteration"]),
    (games_messages.no_game_baseline, ("pig",), ["'pig'", "no baseline", "[game]", "--against"]),
    (games_messages.picture_tactic_title, ("final_strategy",), ["final_strategy", "turn totals"]),
    (games_messages.optimal_guarantee, (0.50308,), ["50.31%", "going first", "won by nobody"]),
    (games_messages.solved_in, (8.04,), ["solved in 8.0 s"]),
    (games_messages.tactic_table_written, ("best.py", "pig.py"), ["best.py", "BEST_RESPONSE", "runs", "final_strategy",
                                                     "paste into pig.py"]),
]


@pytest.mark.parametrize(("fn", "args", "needles"), EXPECTATIONS, ids=ids(EXPECTATIONS))
def test_message_carries_what_it_must(fn: Callable[..., str], args: tuple, needles: list[str]) -> None:
    carries(fn, args, needles)
