"""What the browser game says: the server's refusals, what a game did wrong, and the page's own texts
(PAGE_TEXT, which hog.js shows); the sentences only graders/gui/ uses.

Each function returns text and nothing else, and tests/kit/gui/test_messages.py calls each one. The
text helpers (visible, clip, …) and the sentences several folders say are in graders.core.messages.
It ships in the student's bundle: it keeps to Python 3.9 and imports nothing of the kit's but
graders.core.messages.
"""

from __future__ import annotations

# -- the [gui] table -----------------------------------------------------------------------------


def gui_table_missing(where: str) -> str:
    return f"{where}: missing: this edition does not say how the web page plays a game"


def gui_variants_needed(where: str) -> str:
    return f"{where}: needs at least one, each with its own id"


# -- the web page (hog_gui.py) --------------------------------------------------------------------


def _player(who: int) -> str:
    return f"Player {who}"


def gui_error_hint(filename: str) -> str:
    return f"Fix {filename}, save it and press New game: the page always plays your latest code."


def gui_bad_body() -> str:
    return 'The request should be a JSON object such as {"players": ["person", "always_roll_5"], "moves": []}.'


def gui_unknown_field(name: str) -> str:
    return f"Unknown field {name!r}: a game request has players, variant, seed and moves."


def gui_bad_players() -> str:
    return 'players should be a list of two choices, such as ["person", "always_roll_5"].'


def gui_unknown_strategy(who: int, name: str, strategies: list[str], factories: list[str], filename: str) -> str:
    known = ", ".join(strategies) if strategies else "none yet"
    made = "".join(f", {f}(0) to {f}(10)" for f in factories)
    return (f"{_player(who)}: {name!r} is not a strategy in {filename}. Choose person, one of the strategies "
            f"{filename} defines ({known}){made}.")


def gui_unknown_variant(name: str, known: list[str]) -> str:
    return f"Unknown rules {name!r}: this edition has {', '.join(known)}."


def gui_bad_seed() -> str:
    return "seed should be a whole number from 0 up (or null for a new random game)."


def gui_bad_moves(most: int) -> str:
    return f"moves should be a list of at most {most} numbers of dice."


def gui_dice_out_of_range(position: int, value: str, fewest: int, most: int) -> str:
    return f"Move {position} is {value}: a player rolls a whole number of dice from {fewest} to {most}."


def gui_moves_without_person() -> str:
    return "moves were sent, but neither player is a person: two strategies play without moves."


def gui_rule_failed(detail: str) -> str:
    return f"The kit could not explain this turn ({detail}); the game itself is not affected."


def gui_turn_differs(who: int, expected: int, got: int) -> str:
    return (f"By the rules, {_player(who)}'s turn ends at {expected}, but your play gave {got}. "
            "Check the update and scoring functions.")


def gui_next_differs(who: int, expected: int) -> str:
    if expected == who:
        return f"By the rules, {_player(who)} should have gone again, but your play moved on to the other player."
    return f"By the rules, {_player(who)}'s turn is over, but your play let {_player(who)} go again."


def gui_strange_result(launcher: str) -> str:
    """LAUNCHER: the edition's own program that starts the page (hog_gui.py, pig_gui.py); "" for none."""
    restart = f"restart {launcher}" if launcher else "restart the game"
    return f"The game came back in a shape the page cannot read. Press New game; if it happens again, {restart}."


def gui_play_returned(value: str) -> str:
    return f"play returned {value}, not the two final scores (score0, score1)."


def gui_endless(turns: int) -> str:
    return (f"play asked for {turns} turns without ending the game: do the scores grow, and does the loop "
            "stop once a player reaches the goal?")


def gui_raised(function: str, kind: str) -> str:
    return f"{function or 'Your code'} raised {kind or 'an error'}"


def gui_commentary_failed(detail: str) -> str:
    return f"The commentary failed ({detail}); the game goes on without it."


def gui_not_a_number(who: int, label: str, value: str) -> str:
    what = "its own score" if label == "score" else "the opponent's score"
    return f"play gave {_player(who)}'s strategy {value} as {what}, not a whole number."


def gui_bad_choice(who: int, value: str, fewest: int, most: int) -> str:
    return f"{_player(who)}'s strategy chose {value}, not a number of dice from {fewest} to {most}."


def gui_asked_twice(who: int) -> str:
    return (f"play asked {_player(who)}'s strategy twice for this turn: call each strategy once per turn "
            "and use its answer.")


def gui_rolled_other(who: int, chosen: int, rolled: int) -> str:
    return f"{_player(who)} chose {chosen} dice, but {rolled} were rolled."


def gui_loop(function: str) -> str:
    if not function:
        return "Your code did not finish in time: is a loop in play, take_turn or a strategy never ending?"
    return f"{function} did not finish in time: is a loop in it never ending (or waiting for something)?"


def gui_timed_out(seconds: float) -> str:
    return (f"Your code did not finish within {seconds:g} s: is a loop in play, take_turn or a strategy "
            "never ending?")


def gui_crashed() -> str:
    return "Your code ended the program (for example with exit() or os._exit) in the middle of the game."


def gui_kit_failed(detail: str) -> str:
    return f"The kit failed to start your code ({detail}); this is not your code's fault. Press New game to try again."


def gui_not_loaded(filename: str) -> str:
    return f"{filename} could not be loaded: every attempt hung or ended the program."


def gui_not_a_project(folder: str, launcher: str = "hog_gui.py") -> str:
    """LAUNCHER (hog_gui.py, pig_gui.py) names the project's file: hog.py, pig.py."""
    file = launcher.removesuffix("_gui.py") + ".py"
    project = launcher.removesuffix("_gui.py")
    return (f"{folder} is not a project folder: run {launcher} from the folder that holds {file} and "
            f"tests/ (for example: cd {project} && python3 {launcher}). For any other folder holding a {file} "
            f"(a copy of the kit's solution, say), run hogkit play {folder}.")


def gui_started(url: str, title: str = "Hog") -> str:
    """TITLE: the edition's title, whose part before a colon names the game (Hog, Pig)."""
    return f"{title.split(':')[0]} is running at {url}\nOpen that address in a browser. Press Ctrl+C to stop."


def gui_stopped() -> str:
    return "Stopped."


def gui_port_busy(port: int) -> str:
    return f"Port {port} is in use: pick another with --port, or --port 0 for any free port."


def gui_not_found(path: str) -> str:
    return f"Nothing at {path}: the page lives at / and the game at /api/setup and /api/play."


def gui_too_large(most: int) -> str:
    return f"The request is larger than {most} bytes."


def gui_bad_json(detail: str) -> str:
    return f"The request is not valid JSON ({detail})."


def gui_syntax_error(filename: str, line: int, message: str) -> str:
    return f"{filename} line {line} has a syntax error ({message}): fix it, save, and press New game."


def gui_syntax_repaired(filename: str, line: int, message: str, name: str) -> str:
    return (f"{filename} line {line} has a syntax error ({message}), so {name} was left out; the game stops "
            f"with an error if it needs {name}.")


def gui_ended_early(score0: int, score1: int, goal: int) -> str:
    return (f"play ended the game at {score0} to {score1}, before either player reached {goal}: "
            "does its loop go on until a player reaches the goal?")


def gui_unfinished(names: list[str], filename: str) -> str:
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    return (f"Still to write in {filename}: {shown}. They do not work yet, so the game may stop where it "
            "needs them.")


def gui_not_a_strategy(who: int, name: str, value: str) -> str:
    return (f"{_player(who)} is {name}, but that gave {value}, not a strategy (a function of the two scores). "
            f"Is it finished?")


def gui_wrong_host() -> str:
    return "This game server answers only pages opened from this computer (localhost)."


def gui_not_json() -> str:
    return "A game request must be sent as JSON (Content-Type: application/json)."


# -- the web page of a tactic game (Pig's shape: a move is an action, such as roll or hold) ----------


def _numbered(actions: list[str]) -> str:
    return ", ".join(f"{i} for {a}" for i, a in enumerate(actions))


def gui_bad_action_moves(most: int, actions: list[str]) -> str:
    return f"moves should be a list of at most {most} actions, each a number: {_numbered(actions)}."


def gui_action_out_of_range(position: int, value: str, actions: list[str]) -> str:
    return f"Move {position} is {value}: a move is the number of an action ({_numbered(actions)})."


def gui_bad_action(who: int, value: str, actions: list[str]) -> str:
    return f"{_player(who)}'s tactic returned {value}, not one of the actions {' or '.join(actions)}."


def gui_wrong_die(who: int, used: list[int], expected: int, functions: list[str]) -> str:
    if not used:
        return (f"{_player(who)}'s turn rolled none of the page's dice ({', '.join(functions)}): by the rules it "
                f"uses the {expected}-sided die. Does play give take_turn the die?")
    shown = " and ".join(f"{n}-sided" for n in used)
    return f"{_player(who)}'s turn used the {shown} die, but by the rules this turn uses the {expected}-sided die."


def gui_remark_failed(expression: str, kind: str, detail: str) -> str:
    if kind == "raised":
        return f"{expression} raised {detail}"
    return f"{expression} returned {detail}, not a str"


def gui_remark_replaced(detail: str) -> str:
    return f"The commentary failed ({detail}); the page says what happened in its own words instead."


def gui_action_said(action: str) -> str:
    """The kit's own words for an action, when the submission's commentary cannot say it."""
    return f"chose to {action}."


def gui_play_returned_winner(value: str) -> str:
    return f"play returned {value}, not the winner (0 for the first player, 1 for the second)."


def gui_no_turn_points(function: str) -> str:
    return (f"The game ended, but the last turn's points are not known: did play call {function or 'its turn'} "
            "for the last turn?")


def gui_winner_differs(returned: str, by_scores: int) -> str:
    return (f"play returned {returned} as the winner, but by the scores the winner is {by_scores}: "
            "does play return the player who reached the goal?")


# The page's own texts (graders/gui/gui_static/hog.js), sent with GET /api/setup. The page looks each up
# by its key and fills the {name} placeholders itself: a placeholder's name is part of the contract
# with hog.js. Only the few lines shown when the server cannot be reached at all stay in hog.js.
PAGE_TEXT: dict[str, str] = {
    # players and their panels
    "person": "Person",
    "you": "You",
    "player": "Player {who}",
    "player_strategy": "Player {who} ({strategy})",
    "panel_name": "Player {who} · {label}",
    "your_strategies": "Your strategies",
    "rules": "Rules",
    "goal": "First to {goal} wins",
    # dice
    "one_die": "{n} die",
    "dice": "{n} dice",
    "dice_label": "Dice",
    "dice_shown": "Dice: {faces}",
    "no_dice": "No dice rolled",
    "no_roll_yet": "No dice rolled yet.",
    # one turn, in the latest-roll card and the log
    "rolls": "{player} rolls {dice}…",
    "rolled": "{player} rolled {dice}",
    "and_scored": "and scored",
    "stopped_by_error": "(stopped by an error)",
    "turn_head": "Player {who} rolled {dice}",
    "turn_stopped": "(stopped before the turn ended)",
    "turn_score": "→ {gain} ({before} → {after})",
    "turn_other": "Player {who}: {before} → {after}",
    "rule": "Rule",
    "printed": "{file} printed: {text}",  # file: the edition's submission, from the setup
    "printed_label": "{file} printed",
    # what happens next
    "starting": "Starting a new game…",
    "thinking": "{player} is thinking…",
    "rolling": "Rolling {dice}…",
    "next_turn": "Next: {player}'s turn. Press Next turn.",
    "choose": "Player {who}: choose how many dice to roll",
    "how_many": "How many dice?",
    "how_many_player": "Player {who}: how many dice?",
    "roll": "Roll {dice}",
    "zero_rule": "0 dice scores by {rule}.",
    "zero_rule_unnamed": "0 dice scores by this edition's special rule.",
    "meter": "Your chance to win with best play:",
    "meter_player": "Player {who}'s chance to win with best play:",
    # the end of a game
    "final_score": "{winner} to {loser}",
    "you_win": "You win {score}!",
    "wins": "{player} wins {score}.",
    "game_over": "Game over.",
    "idle": "The game has stopped. Press New game to play again.",
    # errors
    "stopped": "Stopped: see the error below",
    "not_replayed": "The game could not be replayed.",
    "in_function": "In {function}",
    "in_function_line": "In {function}, line {line}",
    "at_line": "Line {line}",
    # a tactic game (the edition's actions, such as roll and hold, are the moves)
    "turn_head_actions": "Player {who}: {actions}",
    "turn_actions": "{player}'s turn: {actions},",
    "turn_so_far": "{player}'s turn so far: {actions}",
    "no_action_yet": "No action yet this turn.",
    "remark": "{player} {text}",
    "die_label": "{sides}-sided die showing {face}",
    "turn_total": "Turn total: {total}",
    "turn_total_player": "Player {who}: turn total {total}",
    "die_sides": "This turn uses the {sides}-sided die.",
    "choose_action": "Player {who}: choose an action ({actions})",
    "acting": "{player}: {action}…",
    "action_keys": "Keys: {keys}.",
}


# -- the server's options, and what a [gui] value was expected to be -----------------------------

EXPECTED_GUI_NUMBER = "the name of one of [gui.numbers]"
EXPECTED_SIDES = "an expression giving a whole number of sides from 2 to 20 at every pair of scores"


def port_out_of_range(port: int) -> str:
    return f"--port must be from 0 to 65535, not {port}"


def seed_negative(seed: int) -> str:
    return f"--seed must be 0 or more, not {seed}"


def timeout_not_positive(timeout: float) -> str:
    return f"--timeout must be more than 0, not {timeout:g}"
