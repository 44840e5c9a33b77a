"""The web page's game log, as pure functions: the [gui] table, requests, and views of a game's result."""

from __future__ import annotations

import dataclasses

import pytest

from graders.editions.edition import (
    GUI_KEYS,
    Edition,
    EditionError,
    GuiTable,
    edition_names,
    load_edition,
    parse_manifest,
    read_toml,
)
from graders.gui import gamelog
from graders.gui import messages as gui_messages
from graders.gui.gamelog import GameRequest, RequestError, game_view, gui_settings, parse_request
from graders.gui.moves import DiceCount, NamedAction

STRATEGIES = ["always_roll_5", "final_strategy"]


@pytest.fixture(scope="module")
def settings(edition: Edition) -> gamelog.GuiSettings:
    return gui_settings(edition)


def test_every_edition_declares_a_web_game(any_edition: Edition) -> None:
    """Or, without a [gui] table, the page is refused with a message naming the table."""
    if not any_edition.gui:
        with pytest.raises(EditionError, match=r"\[gui\]: missing"):
            gui_settings(any_edition)
        return
    s = gui_settings(any_edition)
    assert s.goal > 0 and s.sides == 6 and s.variants and s.events
    assert "strategy0" in s.play and "strategy1" in s.play
    assert "dice" in s.play or s.die_functions  # the page's dice: given to play, or in place of the module's


@pytest.mark.parametrize(("change", "needle"), [
    ({"colour": "pink"}, "unknown key 'colour'"),
    ({"play": "play(strategy0,"}, "[gui] play"),
    ({"sides": 1}, "sides"),
    ({"goal": "100"}, "goal"),
    ({"factories": ["always roll"]}, "factories"),
    ({"variants": [{"id": "a", "name": "A"}, {"id": "a", "name": "B"}]}, "each with its own id"),
    ({"variants": [{"id": "a"}]}, "variants[0]: missing key 'name'"),
    ({"variants": [{"id": "a", "name": "A", "speed": 3}]}, "unknown key 'speed'"),
    ({"variants": [{"id": "a", "name": "A", "update": "sus_update("}]}, "variants[0] update"),
    ({"numbers": {"tens": "opponent //"}}, "numbers tens"),
    ({"numbers": ["tens"]}, "numbers: should be a table"),
    ({"numbers": {"tens": 10}}, "numbers: every item should be text"),
    ({"opponent": 3}, "opponent: should be text"),
    ({"events": [{"rule": "Boar Brawl", "when": "dice == 0"}]}, "events[0]"),
    ({"events": [{"rule": "B", "when": "dice ==", "text": "x"}]}, "events[0] when"),
    ({"events": [{"rule": "B", "when": "True", "text": "{dice +}"}]}, "events[0] text"),
    ({"commentary": "both("}, "commentary"),
])
def test_a_broken_gui_table_names_the_file_and_key(edition: Edition, change: dict, needle: str) -> None:
    """Read as the manifest is read: a mistake is refused when the edition loads, or at the latest
    when the page compiles its expressions."""
    path = edition.suite_dir / "edition.toml"
    raw = read_toml(path)
    raw["gui"] = {**raw["gui"], **change}
    with pytest.raises(EditionError) as info:
        gui_settings(parse_manifest(raw, edition.name, edition.root, path))
    assert needle in str(info.value) and "edition.toml" in str(info.value)


def test_the_gui_record_has_a_field_per_key(edition: Edition) -> None:
    """Edition.gui is the [gui] table as a record: one field per key the manifest may give, filled in."""
    assert {f.name for f in dataclasses.fields(GuiTable)} == set(GUI_KEYS)
    assert edition.gui is not None and edition.gui.variants[0]["id"] and edition.gui.factory_numbers is None


def test_an_edition_without_a_gui_table_says_so(edition: Edition) -> None:
    with pytest.raises(EditionError, match="does not say how the web page plays"):
        gui_settings(dataclasses.replace(edition, gui=None))


# -- requests ------------------------------------------------------------------------------------


def test_a_good_request(settings: gamelog.GuiSettings) -> None:
    r = parse_request({"players": ["person", "always_roll(6)"], "variant": "simple", "seed": 3, "moves": [0, 10]},
                      settings, STRATEGIES, seed=99)
    assert r == GameRequest(("person", "always_roll(6)"), settings.variant("simple"), 3, (0, 10))
    spec = r.spec(settings)
    assert spec["update"] == "simple_update" and spec["moves"] == [0, 10] and spec["sides"] == 6


def test_a_request_without_a_seed_takes_the_servers(settings: gamelog.GuiSettings) -> None:
    r = parse_request({"players": ["final_strategy", "always_roll_5"]}, settings, STRATEGIES, seed=41)
    assert r.seed == 41 and r.moves == () and r.variant == settings.variants[0]


@pytest.mark.parametrize(("body", "needle"), [
    ([1, 2], "JSON object"),
    ("players", "JSON object"),
    ({"players": ["person"]}, "list of two"),
    ({"players": "person"}, "list of two"),
    ({"players": ["person", 5]}, "list of two"),
    ({"players": ["person", "no_such_strategy"]}, "'no_such_strategy' is not a strategy"),
    ({"players": ["person", "always_roll(11)"]}, "always_roll(0) to always_roll(10)"),
    ({"players": ["__import__('os')", "person"]}, "Player 0"),
    ({"players": ["person", "person"], "variant": "turbo"}, "Unknown rules 'turbo'"),
    ({"players": ["person", "person"], "variant": 3}, "Unknown rules"),
    ({"players": ["person", "person"], "seed": -1}, "seed"),
    ({"players": ["person", "person"], "seed": "7"}, "seed"),
    ({"players": ["person", "person"], "seed": True}, "seed"),
    ({"players": ["person", "person"], "moves": [3, 11]}, "Move 2 is 11"),
    ({"players": ["person", "person"], "moves": [-1]}, "Move 1 is -1"),
    ({"players": ["person", "person"], "moves": ["3"]}, "Move 1 is '3'"),
    ({"players": ["person", "person"], "moves": [2.0]}, "Move 1 is 2.0"),
    ({"players": ["person", "person"], "moves": [True]}, "Move 1 is True"),
    ({"players": ["person", "person"], "moves": 5}, "list of at most"),
    ({"players": ["person", "person"], "moves": [1] * 3000}, "list of at most"),
    ({"players": ["always_roll_5", "final_strategy"], "moves": [4]}, "neither player is a person"),
    ({"players": ["person", "person"], "cheat": 1}, "Unknown field 'cheat'"),
])
def test_a_bad_request_says_what_is_wrong(settings: gamelog.GuiSettings, body: object, needle: str) -> None:
    with pytest.raises(RequestError) as info:
        parse_request(body, settings, STRATEGIES, seed=1)
    assert needle in str(info.value)


# -- views of a result ---------------------------------------------------------------------------


def turn(who: int, score: object, opponent: object, choice: object, rolls: tuple = (), said: str = "",
         printed: str = "", say_error: str = "") -> tuple:
    return (who, score, opponent, choice, rolls, said, printed, say_error)


OPENING = turn(-1, 0, 0, 0)


def request(settings: gamelog.GuiSettings, players: tuple = ("person", "always_roll_5"),
            variant: str = "full") -> GameRequest:
    return GameRequest(players, settings.variant(variant), 7, ())


def test_turns_end_where_the_next_begins(settings: gamelog.GuiSettings) -> None:
    result = ("wait", (turn(0, 0, 0, 2, (3, 4)), turn(1, 0, 7, 0)), None, (0, 7, 1), None, OPENING)
    view = game_view(settings, request(settings), result)
    first, second = view["turns"]
    assert first["before"] == [0, 0] and first["after"] == [7, 0] and first["rolls"] == [3, 4]
    assert second["before"] == [7, 0] and second["after"] == [7, 1]
    assert view["scores"] == [7, 1] and view["next"] == 0 and view["waiting"] and not view["over"]
    assert [e["rule"] for e in second["events"]] == ["Boar Brawl"]
    assert second["events"][0]["text"] == "3 × |0 − 0| = 0, so 1"
    assert first["warnings"] == [] and second["warnings"] == []


def test_the_game_over_view_names_the_winner(settings: gamelog.GuiSettings) -> None:
    result = ("end", (turn(0, 95, 40, 2, (3, 4)),), (102, 40), None, None, OPENING)
    view = game_view(settings, request(settings), result)
    assert view["over"] and view["winner"] == 0 and view["scores"] == [102, 40] and view["next"] is None


def test_sow_sad_and_sus_fuss_are_explained(settings: gamelog.GuiSettings) -> None:
    # 10 + 5 = 15, which has 4 factors: Sus Fuss takes it to 17. Then a 1 comes up: 8 + 1 = 9 -> 11.
    result = ("wait", (turn(0, 10, 0, 1, (5,)), turn(1, 0, 17, 2, (1, 6))), None, (0, 17, 11), None, OPENING)
    view = game_view(settings, request(settings), result)
    fuss, sad = view["turns"]
    assert fuss["events"] == [{"rule": "Sus Fuss", "text": "15 has 4 factors → 17"}]
    assert [e["rule"] for e in sad["events"]] == ["Sow Sad"] and sad["warnings"]  # 0 + 1 = 1, not 11


def test_the_simple_variant_has_no_sus_fuss(settings: gamelog.GuiSettings) -> None:
    result = ("wait", (turn(0, 10, 0, 1, (5,)),), None, (1, 0, 15), None, OPENING)
    view = game_view(settings, request(settings, variant="simple"), result)
    assert view["turns"][0]["events"] == [] and view["turns"][0]["warnings"] == []


def test_a_turn_that_breaks_the_rules_gets_a_warning(settings: gamelog.GuiSettings) -> None:
    result = ("wait", (turn(0, 0, 0, 2, (3, 4)),), None, (1, 0, 9), None, OPENING)
    warning = game_view(settings, request(settings), result)["turns"][0]["warnings"][0]
    assert "ends at 7" in warning and "gave 9" in warning and "Player 0" in warning


EXTRA_TURNS = [n for n in edition_names() if "expected_next" in getattr(load_edition(n).gui, "numbers", {})
               and load_edition(n).game.kind == "dice"]  # a tactic game's: test_a_tactic_turn_that_breaks_the_rules


@pytest.mark.parametrize("name", EXTRA_TURNS)
def test_a_wrong_extra_turn_gets_a_warning(name: str) -> None:
    s = gui_settings(load_edition(name))
    # 0 + 3 = 3 against 0: no extra turn by the rules, but the same player moves again.
    result = ("wait", (turn(0, 0, 0, 1, (3,)),), None, (0, 3, 0), None, OPENING)
    view = game_view(s, GameRequest(("person", "person"), s.variants[0], 1, ()), result)
    assert any("turn is over" in w for w in view["turns"][0]["warnings"])


def test_some_edition_has_extra_turns() -> None:
    assert EXTRA_TURNS, "no edition declares expected_next: the extra-turn check above tests nothing"


@pytest.mark.parametrize(("result", "needle"), [
    ("nonsense", "cannot read"),
    (("end", "turns", None, None, None, OPENING), "cannot read"),
    (("end", ((0, 1),), None, None, None, OPENING), "cannot read"),
    (("end", (), "None", None, None, OPENING), "play returned None"),
    (("end", (), (0, 0), None, None, OPENING), "ended the game at 0 to 0"),
    (("end", (), ("'a'", 100), None, None, OPENING), "play returned"),
    (("long", (turn(0, 0, 0, 0),) * 3, None, None, None, OPENING), "3 turns"),
    (("error", (), None, None, ("ZeroDivisionError", "division by zero", "take_turn", 61, "Traceback"), OPENING),
     "take_turn raised ZeroDivisionError"),
])
def test_a_game_that_goes_wrong_has_an_error(settings: gamelog.GuiSettings, result: object, needle: str) -> None:
    view = game_view(settings, request(settings), result)
    assert needle in view["error"]["title"]
    assert not view["over"] and not view["waiting"]


def test_an_error_keeps_the_turns_before_it(settings: gamelog.GuiSettings) -> None:
    error = ("AssertionError", "Cannot roll more than 10 dice.", "take_turn", 63, "Traceback ...")
    result = ("error", (turn(0, 0, 0, 4, (2, 2, 2, 2)), turn(1, 0, 8, 11)), None, None, error, OPENING)
    view = game_view(settings, request(settings), result)
    assert len(view["turns"]) == 2 and view["turns"][0]["after"] == [8, 0] and view["turns"][1]["after"] is None
    assert view["error"]["function"] == "take_turn" and view["error"]["line"] == 63
    assert view["error"]["detail"] == "Cannot roll more than 10 dice." and "New game" in view["error"]["hint"]
    assert "not a number of dice" in view["turns"][1]["warnings"][0]


@pytest.mark.parametrize(("rows", "needle"), [
    ((turn(0, "'0'", 0, 1, (3,)), turn(1, 0, 3, 1, (2,))), "'0' as its own score"),
    ((turn(0, 0, 0, 3, ()), turn(0, 0, 0, 3, (2, 2, 2))), "twice for this turn"),
    ((turn(0, 0, 0, 3, (2, 2)), turn(1, 0, 4, 1, (2,))), "chose 3 dice, but 2 were rolled"),
    ((turn(0, 0, 0, 1, (3,), say_error="TypeError: 'NoneType' object is not callable"),), "commentary failed"),
])
def test_a_suspicious_turn_gets_a_warning(settings: gamelog.GuiSettings, rows: tuple, needle: str) -> None:
    view = game_view(settings, request(settings, ("person", "person")), ("wait", rows, None, (0, 3, 2), None, OPENING))
    assert any(needle in w for t in view["turns"] for w in t["warnings"])


def test_output_before_the_first_turn_is_kept(settings: gamelog.GuiSettings) -> None:
    opening = turn(-1, 0, 0, 0, printed="DEBUG: starting\n", say_error="NameError: name 'both' is not defined")
    view = game_view(settings, request(settings), ("wait", (), None, (0, 0, 0), None, opening))
    assert view["printed"] == "DEBUG: starting\n" and "both" in view["commentary_error"]
    rows = (turn(0, 0, 0, 1, (3,), printed="DEBUG: rolling\n"),)
    first = game_view(settings, request(settings), ("wait", rows, None, (1, 0, 3), None, opening))["turns"][0]
    assert first["printed"] == "DEBUG: starting\nDEBUG: rolling\n" and "both" in first["warnings"][0]


def test_a_broken_rule_expression_is_a_warning_not_a_failure(edition: Edition) -> None:
    assert edition.gui is not None
    broken = gui_settings(dataclasses.replace(edition, gui=dataclasses.replace(edition.gui,
                                                                              numbers={"tens": "opponent // 0"})))
    result = ("wait", (turn(0, 0, 0, 2, (3, 4)),), None, (1, 0, 7), None, OPENING)
    view = game_view(broken, request(broken), result)
    assert "could not explain this turn" in view["turns"][0]["warnings"][0] and view["error"] is None


@pytest.mark.parametrize(("n", "count"), [(1, 1), (2, 2), (4, 3), (12, 6), (49, 3), (97, 2)])
def test_factors(n: int, count: int) -> None:
    assert gamelog.factors(n) == count


def test_number_helpers() -> None:
    assert gamelog.next_prime(15) == 17 and gamelog.next_prime(2) == 3
    assert gamelog.digits(407) == [4, 0, 7] and gamelog.digits(0) == [0]
    assert not gamelog.is_prime(1) and gamelog.is_prime(2)


@pytest.mark.parametrize(("n", "root"), [(0, 0), (1, 1), (3, 1), (4, 2), (48, 6), (49, 7), (50, 7), (81, 9),
                                         (10**40, 10**20), (10**40 - 1, 10**20 - 1), (-5, 0)])
def test_isqrt_is_the_whole_part_of_the_square_root(n: int, root: int) -> None:
    assert gamelog.isqrt(n) == root and "isqrt" in gamelog.HELPERS


def test_the_call_that_stopped_the_game_ends_the_last_turn(settings: gamelog.GuiSettings) -> None:
    error = ("ZeroDivisionError", "division by zero", "catch_up", 7, "Traceback")
    result = ("error", (turn(0, 0, 0, 2, (3, 4)),), None, (1, 0, 7), error, OPENING)
    view = game_view(settings, request(settings, ("always_roll_5", "catch_up")), result)
    assert view["turns"][0]["after"] == [7, 0] and view["scores"] == [7, 0] and not view["waiting"]


def test_a_computer_player_that_is_not_a_function(settings: gamelog.GuiSettings) -> None:
    result = ("bad_player", (), None, None, (1, "always_roll(6)", "None"), OPENING)
    view = game_view(settings, request(settings), result)
    assert "Player 1 is always_roll(6), but that gave None" in view["error"]["title"] and view["turns"] == []


@pytest.mark.parametrize("error", [None, ("1", "always_roll(6)", "None"), ()])
def test_a_bad_player_record_without_its_player_is_strange(settings: gamelog.GuiSettings, error: object) -> None:
    view = game_view(settings, request(settings), ("bad_player", (), None, None, error, OPENING))
    assert "cannot read" in view["error"]["title"] and "Player" not in view["error"]["title"]


def test_a_wait_without_a_waiting_player_is_strange(settings: gamelog.GuiSettings) -> None:
    view = game_view(settings, request(settings), ("wait", (), None, None, None, OPENING))
    assert "cannot read" in view["error"]["title"] and not view["waiting"]


def test_the_same_commentary_failure_is_said_once(settings: gamelog.GuiSettings) -> None:
    broken = "TypeError: 'NoneType' object is not callable (in say, line 9)"
    rows = tuple(turn(k % 2, 0, 0, 0, say_error=broken) for k in range(4))
    view = game_view(settings, request(settings, ("person", "person")), ("wait", rows, None, (0, 0, 0), None, OPENING))
    assert sum("commentary failed" in w for t in view["turns"] for w in t["warnings"]) == 1


# -- a memory carried from turn to turn: Feral Hogs and Swine Swap (the swine_swap edition) -------


@pytest.fixture(scope="module")
def swine() -> gamelog.GuiSettings:
    return gui_settings(load_edition("swine_swap"))


def test_feral_hogs_is_explained_with_the_previous_turns_points(swine: gamelog.GuiSettings) -> None:
    # The handout's example: (0, 0) -> (7, 0) -> (7, 4) -> (20, 4): 5 dice, 2 away from last turn's 7.
    rows = (turn(0, 0, 0, 3, (2, 2, 3)), turn(1, 4 - 4, 7, 1, (4,)), turn(0, 7, 4, 5, (2, 2, 2, 2, 2)))
    result = ("wait", rows, None, (1, 4, 20), None, OPENING)
    view = game_view(swine, GameRequest(("person", "person"), swine.variant("full"), 1, ()), result)
    first, _, third = view["turns"]
    assert third["last"] == 7 and first["last"] == 0
    assert {"rule": "Feral Hogs", "text": "5 dice, 2 away from last turn's 7 → +3"} in third["events"]
    assert all(t["warnings"] == [] for t in view["turns"]), [t["warnings"] for t in view["turns"]]
    # Without Feral Hogs the same turn ends at 17: a page that expected 20 warns.
    plain = game_view(swine, GameRequest(("person", "person"), swine.variant("no_feral_hogs"), 1, ()), result)
    assert not any(e["rule"] == "Feral Hogs" for e in plain["turns"][2]["events"])
    assert any("ends at 17" in w for w in plain["turns"][2]["warnings"])


def test_the_previous_points_leave_out_the_bonus(swine: gamelog.GuiSettings) -> None:
    # Player 0 rolls 2 dice from 0 (bonus: 6 + 3 = 9), then 8 dice: 2 away from 6 (not 9) -> +3.
    rows = (turn(0, 0, 0, 2, (3, 3)), turn(1, 0, 9, 1, (3,)), turn(0, 9, 3, 8, (3,) * 8))
    result = ("wait", rows, None, (1, 3, 36), None, OPENING)
    view = game_view(swine, GameRequest(("person", "person"), swine.variant("full"), 1, ()), result)
    assert view["turns"][2]["last"] == 6 and view["turns"][2]["warnings"] == []
    assert any(e["rule"] == "Feral Hogs" and "last turn's 6" in e["text"] for e in view["turns"][2]["events"])


def test_swine_swap_is_explained_with_its_numbers(swine: gamelog.GuiSettings) -> None:
    # 19 + 4 = 23 against 4: 3 ** 27 = 7625597484987 starts and ends with 7, so the scores swap.
    result = ("wait", (turn(0, 19, 4, 1, (4,)),), None, (1, 23, 4), None, OPENING)
    view = game_view(swine, GameRequest(("person", "person"), swine.variant("no_feral_hogs"), 1, ()), result)
    only = view["turns"][0]
    assert {"rule": "Swine Swap", "text": "3 ** 27 = 7625597484987 starts and ends with 7 → scores swap"} \
        in only["events"]
    assert only["after"] == [4, 23] and only["warnings"] == []


def test_a_memory_that_names_no_number_is_refused(edition: Edition) -> None:
    data = read_toml(load_edition("swine_swap").suite_dir / "edition.toml")
    data["gui"]["memory"] = "nothing"
    broken = parse_manifest(data, "swine_swap", edition.root, edition.suite_dir / "edition.toml")
    with pytest.raises(EditionError, match=r"\[gui\] memory.*one of \[gui.numbers\]"):
        gui_settings(broken)


# -- a tactic game (Pig's shape): a move is an action, asked before each one ------------------------


@pytest.fixture(scope="module")
def pig() -> gamelog.GuiSettings:
    return gui_settings(load_edition("pig"))


def action(total: object, choice: object, outcomes: tuple = (), sides: tuple = (), remarks: tuple = ("art", "chose."),
           failed: tuple = ()) -> tuple:
    return (total, choice, outcomes, sides, remarks, failed)


def pig_turn(who: int, score: object, opponent: object, actions: tuple, scored: object = "") -> tuple:
    rolls = tuple(o for a in actions if len(a) == 6 for o in a[2] if type(o) is int)
    return (who, score, opponent, len(actions), rolls, "", "", "", actions, scored)


def pig_request(settings: gamelog.GuiSettings, players: tuple = ("person", "final_strategy")) -> GameRequest:
    return GameRequest(players, settings.variants[0], 7, ())


def test_a_tactic_game_declares_its_actions_and_dice(pig: gamelog.GuiSettings) -> None:
    assert pig.move == NamedAction(("roll", "hold")) and dict(pig.die_functions) == {"four_sided": 4, "six_sided": 6}
    assert pig.returns == "winner" and pig.scored_by == "take_turn" and pig.remarks
    spec = pig_request(pig).spec(pig)
    assert spec["move"] == "actions" and spec["actions"] == ["roll", "hold"]
    assert spec["die_functions"] == {"four_sided": 4, "six_sided": 6}
    assert spec["remarks"] == [say for say, _ in pig.remarks]
    boar = gui_settings(load_edition("boar_brawl"))
    spec = request(boar).spec(boar)
    assert spec["move"] == "dice" and "actions" not in spec  # a game of dice counts names no actions


@pytest.mark.parametrize(("body", "needle"), [
    ({"players": ["person", "person"], "moves": [2]}, "Move 1 is 2: a move is the number of an action (0 for roll"),
    ({"players": ["person", "person"], "moves": [-1]}, "Move 1 is -1"),
    ({"players": ["person", "person"], "moves": "roll"}, "at most 2000 actions, each a number: 0 for roll, 1 for hold"),
    ({"players": ["person", "make_roll_until_strategy(4)"]}, "not a strategy in pig.py"),
    ({"players": ["person", "always_roll(4)"]}, "make_roll_until_strategy(0) to make_roll_until_strategy(10)"),
])
def test_a_bad_tactic_request_says_what_is_wrong(pig: gamelog.GuiSettings, body: object, needle: str) -> None:
    with pytest.raises(RequestError) as info:
        parse_request(body, pig, ["final_strategy"], seed=1)
    assert needle in str(info.value)


def test_a_good_tactic_request(pig: gamelog.GuiSettings) -> None:
    body = {"players": ["person", "make_roll_until_strategy(20)"], "moves": [0, 0, 1]}
    assert parse_request(body, pig, ["final_strategy"], seed=1).moves == (0, 0, 1)


def test_a_person_mid_turn_is_the_current_turn(pig: gamelog.GuiSettings) -> None:
    first = pig_turn(0, 0, 0, (action(0, 0, (3,), (4,)), action(3, 1, (2,), (4,))), scored=3)
    second = pig_turn(1, 0, 3, (action(0, 0, (1,), (6,)),), scored=1)
    now = pig_turn(0, 3, 1, (action(0, 0, (5,), (6,)),))
    view = game_view(pig, pig_request(pig), ("wait", (first, second, now), None, (0, 3, 1, 5), None, OPENING))
    assert view["waiting"] and view["next"] == 0 and view["scores"] == [3, 1] and view["error"] is None
    assert view["turn_total"] == 5 and view["die"] == 6
    assert len(view["turns"]) == 2 and view["current"]["actions"][0]["action"] == "roll"
    held, pigged = view["turns"]
    assert held["after"] == [3, 0] and [e["rule"] for e in held["events"]] == ["Hold", "Four-sided die"]
    assert pigged["after"] == [3, 1] and [e["rule"] for e in pigged["events"]] == ["Pig out"]
    assert held["warnings"] == [] and pigged["warnings"] == []
    assert held["actions"][0]["said"] == [{"text": "art", "spoken": False, "kit": False},
                                          {"text": "chose.", "spoken": True, "kit": False}]


def test_a_tactic_game_ends_with_the_winner_play_returns(pig: gamelog.GuiSettings) -> None:
    last = pig_turn(1, 99, 90, (action(0, 0, (4,), (6,)), action(4, 1, (2,), (6,))), scored=4)
    view = game_view(pig, pig_request(pig), ("end", (last,), 1, None, None, OPENING))
    assert view["over"] and view["winner"] == 1 and view["scores"] == [90, 103] and view["error"] is None
    wrong = game_view(pig, pig_request(pig), ("end", (last,), 0, None, None, OPENING))
    assert not wrong["over"] and "by the scores the winner is 1" in wrong["error"]["title"]
    nonsense = game_view(pig, pig_request(pig), ("end", (last,), (90, 103), None, None, OPENING))
    assert "not the winner" in nonsense["error"]["title"]
    unscored = game_view(pig, pig_request(pig), ("end", (last[:9] + ("",),), 1, None, None, OPENING))
    assert "last turn's points are not known" in unscored["error"]["title"]


def test_a_tactic_turn_that_breaks_the_rules_gets_warnings(pig: gamelog.GuiSettings) -> None:
    wrong_die = pig_turn(0, 0, 0, (action(0, 1, (5,), (6,)),), scored=0)  # 0 + 0: the 4-sided die
    no_die = pig_turn(1, 0, 0, (action(0, 1),), scored=0)
    too_many = pig_turn(0, 0, 0, (action(0, 0, (3,), (4,)), action(3, 1, (2,), (4,))), scored=3)
    bad = pig_turn(1, 0, 9, (action(0, "'roll'", (3,), (6,)),))
    again = pig_turn(1, 0, 9, (action(0, 0, (1,), (6,)),), scored=1)  # the same player moves next
    going_on = pig_turn(1, 1, 9, ())  # where the person is asked: the view's current turn
    view = game_view(pig, pig_request(pig), ("wait", (wrong_die, no_die, too_many, bad, again, going_on), None,
                                             (1, 1, 9, 0), None, OPENING))
    assert view["current"]["before"] == [9, 1] and len(view["turns"]) == 5
    assert "used the 6-sided die" in view["turns"][0]["warnings"][0]
    assert "none of the page's dice (four_sided, six_sided)" in view["turns"][1]["warnings"][0]
    assert "turn ends at 3, but your play gave 9" in view["turns"][2]["warnings"][0]
    assert "tactic returned 'roll', not one of the actions roll or hold" in view["turns"][3]["warnings"][0]
    assert "Player 1's turn is over, but your play let Player 1 go again" in view["turns"][4]["warnings"][0]


def test_a_failed_remark_is_said_once_and_in_the_kits_words(pig: gamelog.GuiSettings) -> None:
    broken = ((pig.remarks[1][0], "raised", "KeyError: 9 (in describe_action, line 3)"),)
    rows = tuple(pig_turn(who, 0, 0, (action(0, 1, (2,), (4,), ("art", ""), broken),), scored=0) for who in (0, 1))
    view = game_view(pig, pig_request(pig), ("wait", rows, None, (0, 0, 0, 0), None, OPENING))
    first, second = view["turns"]
    assert len(first["warnings"]) == 1 and "describe_action(action) raised KeyError: 9" in first["warnings"][0]
    assert "in its own words" in first["warnings"][0]
    assert second["warnings"] == []  # the same failure is said once
    assert first["actions"][0]["said"][1] == {"text": "chose to hold.", "spoken": True, "kit": True}
    art = ((pig.remarks[0][0], "returned", "None"),)
    view = game_view(pig, pig_request(pig), ("wait", (pig_turn(0, 0, 0, (action(0, 1, (2,), (4,), ("", "held."), art),),
                                                                scored=0),), None, (1, 0, 0, 0), None, OPENING))
    assert "draw_number(outcome) returned None, not a str" in view["turns"][0]["warnings"][0]
    assert view["turns"][0]["actions"][0]["said"] == [{"text": "held.", "spoken": True, "kit": False}]


@pytest.mark.parametrize("row", [
    pig_turn(0, 0, 0, (("x",),)),
    pig_turn(0, 0, 0, (action(0, 0, ("3",), (4,)),)),
    pig_turn(0, 0, 0, (action(0, 0, (3,), (4,), (3,)),)),
    pig_turn(0, 0, 0, (action(0, 0, failed=(("a", "b"),)),)),
    pig_turn(0, 0, 0, (), scored=1.5),
])
def test_a_tactic_turn_of_the_wrong_shape_is_strange(pig: gamelog.GuiSettings, row: tuple) -> None:
    view = game_view(pig, pig_request(pig), ("wait", (row,), None, (1, 0, 0, 0), None, OPENING))
    # pig's own launcher, never hog_gui.py
    assert view["error"]["title"] == gui_messages.gui_strange_result("pig_gui.py")


def test_the_page_reads_the_die_and_the_dice_from_the_game_table() -> None:
    """The die and the dice range are said once, in [game]: the page rolls the game's die (Pig's
    largest, 6) and offers, and accepts, the dice the game allows."""
    pig = load_edition("pig")
    assert gui_settings(pig).sides == 6  # 4 or 6 by the scores: the page's die has the most faces
    boar = load_edition("boar_brawl")
    narrow = dataclasses.replace(boar, game=dataclasses.replace(boar.game, dice=(1, 6), sides="8"))
    settings = gui_settings(narrow)
    assert settings.sides == 8 and settings.move == DiceCount(1, 6) and settings.factory_numbers == (1, 6)
    assert parse_request({"players": ["person", "always_roll_5"], "moves": [1, 6]}, settings, STRATEGIES, seed=1)
    with pytest.raises(RequestError, match="from 1 to 6"):
        parse_request({"players": ["person", "always_roll_5"], "moves": [0]}, settings, STRATEGIES, seed=1)
    broken = dataclasses.replace(boar, game=dataclasses.replace(boar.game, sides="1"))
    with pytest.raises(EditionError, match=r"\[game\] sides: should be an expression giving a whole number"):
        gui_settings(broken)
