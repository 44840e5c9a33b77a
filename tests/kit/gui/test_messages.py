"""The sentences of graders/gui/messages.py, each public function called with what it must carry.

Every public function of a sentence module appears in its folder's table: tests/kit/test_messages.py
checks, across the folders, that none is left out.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graders.gui import messages as gui_messages

from ..sentences import carries, ids

# (function, arguments, texts the result must contain).
EXPECTATIONS: list[tuple[Callable[..., str], tuple, list[str]]] = [
    (gui_messages.gui_kit_failed, ("the process ended",), ["kit failed", "the process ended", "not your code's fault",
                                                "New game"]),
    (gui_messages.gui_table_missing, ("e.toml [gui]",), ["e.toml [gui]", "missing", "web page"]),
    (gui_messages.gui_variants_needed, ("e.toml [gui] variants",), ["[gui] variants", "at least one", "own id"]),
    (gui_messages.gui_loop, ("take_turn",), ["take_turn did not finish in time", "loop in it"]),
    (gui_messages.gui_loop, ("",), ["Your code did not finish in time"]),
    (gui_messages.port_out_of_range, (70000,), ["--port", "0 to 65535", "70000"]),
    (gui_messages.seed_negative, (-1,), ["--seed", "0 or more", "-1"]),
    (gui_messages.timeout_not_positive, (0.0,), ["--timeout", "more than 0", "not 0"]),
    # the web page
    (gui_messages.gui_error_hint, ("pig.py",), ["Fix pig.py", "New game"]),
    (gui_messages.gui_bad_body, (), ["JSON object", "players", "moves"]),
    (gui_messages.gui_unknown_field, ("cheat",), ["'cheat'", "players, variant, seed and moves"]),
    (gui_messages.gui_bad_players, (), ["two", '"person"']),
    (gui_messages.gui_unknown_strategy, (1, "fast", ["catch_up"], ["always_roll"], "hog.py"),
     ["Player 1", "'fast'", "catch_up", "always_roll(0) to always_roll(10)"]),
    (gui_messages.gui_unknown_strategy, (0, "fast", [], [], "pig.py"), ["none yet", "a strategy in pig.py"]),
    (gui_messages.gui_unknown_variant, ("turbo", ["full", "simple"]), ["'turbo'", "full, simple"]),
    (gui_messages.gui_bad_seed, (), ["seed", "whole number"]),
    (gui_messages.gui_bad_moves, (2000,), ["2000"]),
    (gui_messages.gui_dice_out_of_range, (3, "11", 0, 10), ["Move 3", "11", "0 to 10"]),
    (gui_messages.gui_dice_out_of_range, (3, "0", 1, 6), ["Move 3", "0", "1 to 6"]),
    (gui_messages.gui_moves_without_person, (), ["neither player is a person"]),
    (gui_messages.gui_rule_failed, ("ZeroDivisionError: x",), ["ZeroDivisionError", "not affected"]),
    (gui_messages.gui_turn_differs, (1, 18, 20), ["Player 1", "18", "20", "update"]),
    (gui_messages.gui_next_differs, (0, 0), ["Player 0 should have gone again"]),
    (gui_messages.gui_next_differs, (0, 1), ["Player 0's turn is over", "let Player 0 go again"]),
    (gui_messages.gui_strange_result, ("pig_gui.py",), ["New game", "restart pig_gui.py"]),
    (gui_messages.gui_strange_result, ("",), ["New game", "restart the game"]),
    (gui_messages.gui_play_returned, ("None",), ["play returned None", "(score0, score1)"]),
    (gui_messages.gui_endless, (1000,), ["1000 turns", "goal"]),
    (gui_messages.gui_raised, ("take_turn", "AssertionError"), ["take_turn raised AssertionError"]),
    (gui_messages.gui_raised, ("", ""), ["Your code raised an error"]),
    (gui_messages.gui_commentary_failed, ("TypeError: x",), ["commentary", "TypeError: x", "goes on"]),
    (gui_messages.gui_not_a_number, (0, "score", "'3'"), ["Player 0", "'3'", "its own score", "whole number"]),
    (gui_messages.gui_not_a_number, (1, "opponent", "None"), ["the opponent's score"]),
    (gui_messages.gui_bad_choice, (1, "'5'", 0, 10), ["Player 1", "'5'", "0 to 10"]),
    (gui_messages.gui_asked_twice, (0,), ["Player 0", "twice", "once per turn"]),
    (gui_messages.gui_rolled_other, (0, 5, 3), ["Player 0", "5 dice", "3 were rolled"]),
    (gui_messages.gui_bad_action_moves, (2000, ["roll", "hold"]), ["at most 2000 actions", "0 for roll, 1 for hold"]),
    (gui_messages.gui_action_out_of_range, (3, "7", ["roll", "hold"]), ["Move 3 is 7", "0 for roll, 1 for hold"]),
    (gui_messages.gui_bad_action, (1, "'roll'", ["roll", "hold"]),
     ["Player 1's tactic returned 'roll'", "roll or hold"]),
    (gui_messages.gui_wrong_die, (0, [6], 4, ["four_sided", "six_sided"]),
     ["Player 0", "6-sided die", "the 4-sided die"]),
    (gui_messages.gui_wrong_die, (0, [], 4, ["four_sided", "six_sided"]),
     ["none of the page's dice", "four_sided, six_sided", "4-sided"]),
    (gui_messages.gui_remark_failed, ("describe_action(action)", "raised", "KeyError: 3"),
     ["describe_action(action) raised KeyError: 3"]),
    (gui_messages.gui_remark_failed, ("draw_number(outcome)", "returned", "None"),
     ["draw_number(outcome) returned None", "not a str"]),
    (gui_messages.gui_remark_replaced, ("x raised KeyError",),
     ["commentary failed (x raised KeyError)", "its own words"]),
    (gui_messages.gui_action_said, ("hold",), ["chose to hold."]),
    (gui_messages.gui_play_returned_winner, ("(3, 4)",), ["play returned (3, 4)", "not the winner"]),
    (gui_messages.gui_no_turn_points, ("take_turn",), ["last turn's points", "take_turn"]),
    (gui_messages.gui_winner_differs, ("0", 1), ["returned 0 as the winner", "the winner is 1"]),
    (gui_messages.gui_timed_out, (5.0,), ["5 s", "loop"]),
    (gui_messages.gui_crashed, (), ["ended the program", "os._exit"]),
    (gui_messages.gui_not_loaded, ("hog.py",), ["hog.py", "could not be loaded"]),
    (gui_messages.gui_not_a_project, ("/tmp/x",), ["/tmp/x", "hog.py and tests/", "python3 hog_gui.py"]),
    (gui_messages.gui_not_a_project, ("/tmp/x", "pig_gui.py"),
     ["/tmp/x", "pig.py and tests/", "cd pig && python3 pig_gui.py", "holding a pig.py"]),
    (gui_messages.gui_started, ("http://localhost:31415/",), ["Hog is running at http://localhost:31415/", "Ctrl+C"]),
    (gui_messages.gui_started, ("http://localhost:1/", "Pig: roll or hold"), ["Pig is running at http://localhost:1/"]),
    (gui_messages.gui_stopped, (), ["Stopped"]),
    (gui_messages.gui_port_busy, (31415,), ["31415", "--port"]),
    (gui_messages.gui_not_found, ("/x",), ["/x", "/api/play"]),
    (gui_messages.gui_too_large, (65536,), ["65536 bytes"]),
    (gui_messages.gui_bad_json, ("Expecting value",), ["not valid JSON", "Expecting value"]),
    (gui_messages.gui_syntax_error, ("hog.py", 12, "invalid syntax"), ["hog.py line 12", "invalid syntax", "New game"]),
    (gui_messages.gui_syntax_repaired, ("hog.py", 40, "invalid syntax", "play"),
     ["hog.py line 40", "play was left out"]),
    (gui_messages.gui_ended_early, (0, 0, 100), ["0 to 0", "100", "loop"]),
    (gui_messages.gui_wrong_host, (), ["localhost"]),
    (gui_messages.gui_not_json, (), ["JSON", "application/json"]),
    (gui_messages.gui_unfinished, (["roll_dice", "play"], "pig.py"),
     ["Still to write in pig.py", "roll_dice, play", "do not work yet"]),
    (gui_messages.gui_not_a_strategy, (1, "always_roll(6)", "None"),
     ["Player 1", "always_roll(6)", "gave None", "finished"]),
    (gui_messages.gui_unfinished, ([f"f{k}" for k in range(10)], "hog.py"), ["f7 and 2 more"]),
]


@pytest.mark.parametrize(("fn", "args", "needles"), EXPECTATIONS, ids=ids(EXPECTATIONS))
def test_message_carries_what_it_must(fn: Callable[..., str], args: tuple, needles: list[str]) -> None:
    carries(fn, args, needles)
