"""The web page end to end, in headless Chromium (Debian's package) driven by Playwright.

Screenshots are kept as artifacts in ``.artifacts/gui/`` (or ``$HOGKIT_ARTIFACTS``). Without a
browser these tests are skipped on a developer's machine and fail under CI, which installs one.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from graders.editions.edition import Edition, edition_names, load_edition
from graders.gui import messages as gui_messages
from graders.gui.gamelog import gui_settings

from ..conftest import WAIT, replace_function, shoot
from .test_webgui import (
    factory_players,
    ready_meter,
    reference_play,
    reference_tactic_play,
    serving,
    stuck_strategy,
    student_copy,
)

pytestmark = pytest.mark.slow  # a browser per worker, and games played out on the page

# The editions that offer the browser game: one that declares no [gui] is refused by it (test_gamelog.py).
GUI_EDITIONS = [name for name in edition_names() if load_edition(name).gui]
# ... of which a move is a number of dice (a chooser of 0 to 10), or an action before each one (buttons).
DICE_EDITIONS = [name for name in GUI_EDITIONS if not gui_settings(load_edition(name)).move.by_action]
TACTIC_EDITIONS = [name for name in GUI_EDITIONS if gui_settings(load_edition(name)).move.by_action]


def state(tab: object) -> str:
    return tab.evaluate("document.body.dataset.state")  # type: ignore[attr-defined]


def settle(tab: object) -> str:
    """Wait until the page waits for a person, shows game over, or shows an error; return which."""
    tab.wait_for_function(  # type: ignore[attr-defined]
        "['waiting', 'over', 'error', 'idle'].includes(document.body.dataset.state)")
    return state(tab)


def open_game(tab: object, port: int, players: tuple[str, str], variant: str | None = None,
              animate: bool = False) -> str:
    """Open the page, pick PLAYERS (and VARIANT), and start a game; the state it settles in. An
    ANIMATED game's timers run on a clock the test moves once the page has its game from the server:
    every shuffle of every turn is drawn, in order, without waiting out its milliseconds."""
    tab.goto(f"http://127.0.0.1:{port}/")  # type: ignore[attr-defined]
    settle(tab)  # the page starts a first game with its default players
    if tab.is_checked("#animate") != animate:  # type: ignore[attr-defined]
        tab.click("#animate")  # type: ignore[attr-defined]
    tab.select_option("#player0", players[0])  # type: ignore[attr-defined]
    tab.select_option("#player1", players[1])  # type: ignore[attr-defined]
    if variant is not None:
        tab.select_option("#variant", variant)  # type: ignore[attr-defined]
    if not animate:
        tab.click("#new-game")  # type: ignore[attr-defined]
        return settle(tab)
    tab.clock.install()  # type: ignore[attr-defined]
    with tab.expect_response(lambda r: r.url.endswith("/api/play")):  # type: ignore[attr-defined]
        tab.click("#new-game")  # type: ignore[attr-defined]
    return played_out(tab)


def played_out(tab: object, step_ms: int = 1000, most_ms: int = 30 * 60 * 1000) -> str:
    """The state an animated game settles in, the page's clock moved STEP_MS at a time (at most
    MOST_MS: half an hour of reveals, far more than any game's). The page has its game from the
    server already, so the clock moves on for the reveal alone: what it moved is the reveal's
    length, to within one step."""
    moved = 0
    while moved <= most_ms:
        now = state(tab)
        if now in ("waiting", "over", "error", "idle"):
            tab.moved_ms = moved  # (how long the reveal took on the page's clock)
            return now
        tab.clock.run_for(step_ms)  # type: ignore[attr-defined]
        moved += step_ms
    raise AssertionError(f"the animated game had not settled after {most_ms // 1000} s of its clock")


def roll(tab: object, dice: int) -> str:
    tab.click(f'#chooser [data-dice="{dice}"]')  # type: ignore[attr-defined]
    tab.click("#roll")  # type: ignore[attr-defined]
    return settle(tab)


def shown_seed(tab: object) -> int:
    return int(tab.text_content("#seed"))  # type: ignore[attr-defined]


def shown_scores(tab: object) -> tuple[int, int]:
    return (int(tab.text_content("#score0")), int(tab.text_content("#score1")))  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", DICE_EDITIONS)
def test_a_full_seeded_game_against_the_computer_matches_the_reference(page: object, name: str) -> None:
    edition = load_edition(name)
    players = ("person", "final_strategy")
    chooser = random.Random(name)
    moves: list[int] = []
    with serving(edition.solution_dir, seed=7) as client:
        now = open_game(page, client.port, players)
        while now == "waiting":
            assert page.is_visible("#chooser")
            moves.append(chooser.choice([0, 0, 2, 4, 5, 6, 8]))
            now = roll(page, moves[-1])
            assert len(moves) < 200
        assert now == "over", page.text_content("#error")
        shoot(page, f"{name}-game-over")
        assert shown_seed(page) == 8  # the page's first game had 7; New game takes the next
        expected = reference_play(edition, list(players), 8, moves)
        assert shown_scores(page) == expected
        winner = 0 if expected[0] > expected[1] else 1
        said = "You win" if winner == 0 else "Player 1 (final_strategy) wins"
        assert f"{said} {max(expected)} to {min(expected)}" in page.text_content("#winner")
        assert page.text_content("#turn-status") == "Game over."  # the winner is said once, above
        assert page.is_visible("#game-over")
        assert page.locator("#log li.turn").count() >= len(moves)
        page.reload()  # a page loaded again starts again from --seed: the same dice as before
        settle(page)
        assert shown_seed(page) == 7
    assert page.outside == []


def find_rules(client: object, rules: list[str]) -> dict[str, tuple[int, list[int]]]:
    """For each of RULES that fires in the games searched, the first seed and person's moves (in
    the search's order) that end on a turn where it fires (found through the API)."""
    found: dict[str, tuple[int, list[int]]] = {}
    for seed in range(1, 60):
        chooser = random.Random(seed)
        moves: list[int] = []
        for _ in range(25):
            view = client.post({"players": ["person", "always_roll(4)"], "seed": seed, "moves": moves})[1]
            fired = {e["rule"] for t in view["turns"] for e in t["events"]}
            for rule in rules:
                if rule in fired and rule not in found:
                    found[rule] = (seed, list(moves))
            if len(found) == len(rules):
                return found
            if not view["waiting"]:
                break
            moves.append(chooser.choice([0, 0, 1, 2, 3]))
    return found


@pytest.mark.parametrize("name", DICE_EDITIONS)
def test_every_special_rule_shows_its_message(page: object, name: str) -> None:
    edition = load_edition(name)
    settings = gui_settings(edition)
    with serving(edition.solution_dir) as finder:
        games = find_rules(finder, [event.rule for event in settings.events])
    for event in settings.events:
        assert event.rule in games, f"no game found where {event.rule} fires"
    for seed in sorted({seed for seed, _ in games.values()}):
        with serving(edition.solution_dir, seed=seed - 1) as client:  # the game after the first
            for event in [event for event in settings.events if games[event.rule][0] == seed]:
                now = open_game(page, client.port, ("person", "always_roll(4)"))  # the page loaded afresh
                assert shown_seed(page) == seed
                for k in games[event.rule][1]:
                    assert now == "waiting"
                    now = roll(page, k)
                log = page.text_content("#log")
                assert event.rule in log, f"{event.rule} is not in the log: {log}"
                lines = [t for t in page.locator("#log li.turn").all_text_contents() if event.rule in t]
                assert lines and all("warning" not in t.lower() for t in lines)
                shoot(page, f"{name}-rule-{event.rule.lower().replace(' ', '-')}")


def test_the_rules_banner_shows_the_numbers(page: object, edition: Edition) -> None:
    with serving(edition.solution_dir, seed=1) as client:
        assert open_game(page, client.port, ("person", "always_roll(4)")) == "waiting"
        roll(page, 0)  # Boar Brawl at 0 to 0: 3 × |0 − 0| = 0, so 1
        banner = page.text_content("#rules")
        assert "Boar Brawl" in banner and "3 × |0 − 0| = 0, so 1" in banner


def test_a_broken_hog_py_shows_the_error_and_the_server_survives(page: object, tmp_path: Path, edition: Edition,
                                                                 reference_source: str) -> None:
    broken = replace_function(reference_source, "boar_brawl", '''
        def boar_brawl(player_score, opponent_score):
            return 1 // (player_score - player_score)
    ''')
    folder = student_copy(tmp_path, edition, broken)
    with serving(folder, seed=3) as client:
        assert open_game(page, client.port, ("person", "always_roll_5")) == "waiting"
        assert roll(page, 0) == "error"
        assert page.is_visible("#error")
        assert "boar_brawl raised ZeroDivisionError" in page.text_content("#error-title")
        assert "division" in page.text_content("#error-detail")
        assert "New game" in page.text_content("#error")
        shoot(page, "broken-hog-py")
        (folder / "hog.py").write_text(reference_source, encoding="utf-8")  # the student fixes it
        page.click("#new-game")
        assert settle(page) == "waiting" and not page.is_visible("#error")
        assert roll(page, 0) == "waiting"
        assert "Boar Brawl" in page.text_content("#log")


def test_an_unloadable_hog_py_is_shown_on_opening(page: object, tmp_path: Path, edition: Edition) -> None:
    with serving(student_copy(tmp_path, edition, "GOAL = (\n")) as client:
        page.goto(f"http://127.0.0.1:{client.port}/")
        page.wait_for_selector("#error", state="visible")
        assert "hog.py line 1 has a syntax error" in page.text_content("#error-title")
        assert state(page) == "idle"
        shoot(page, "unloadable-hog-py")


def test_a_repaired_hog_py_shows_what_was_left_out(page: object, tmp_path: Path, edition: Edition,
                                                   reference_source: str) -> None:
    source = reference_source.replace("def boar_brawl(player_score, opponent_score):",
                                      "def boar_brawl(player_score, opponent_score)", 1)
    with serving(student_copy(tmp_path, edition, source), seed=1) as client:
        assert open_game(page, client.port, ("person", "always_roll_5")) == "waiting"
        assert page.is_visible("#notes") and "boar_brawl was left out" in page.text_content("#notes")
        assert roll(page, 0) == "error"
        assert page.text_content("#error-title") == "boar_brawl raised SyntaxError"  # the stub left in its place
        assert "line" in page.text_content("#error-detail")


def test_the_game_plays_by_keyboard_alone(page: object, edition: Edition) -> None:
    with serving(edition.solution_dir, seed=5) as client:
        assert open_game(page, client.port, ("person", "always_roll_5")) == "waiting"
        page.focus('#chooser [data-dice="5"]')
        page.keyboard.press("3")
        page.keyboard.press("Enter")
        assert settle(page) == "waiting"
        first = page.locator("#log li.turn").first.text_content()
        assert "3 dice" in first
        page.focus("#roll")
        page.keyboard.press("x")  # ten dice
        page.keyboard.press("Enter")
        assert settle(page) == "waiting"
        assert "10 dice" in page.locator("#log li.turn").nth(2).text_content()


def test_the_page_fits_a_phone(browser: object, edition: Edition) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True)
    context.set_default_timeout(WAIT)
    tab = context.new_page()
    try:
        with serving(edition.solution_dir, seed=2) as client:
            assert open_game(tab, client.port, ("person", "final_strategy")) == "waiting"
            assert roll(tab, 4) == "waiting"
            assert tab.evaluate("document.documentElement.scrollWidth") <= 375
            height = tab.locator('#chooser [data-dice="7"]').bounding_box()["height"]
            assert height >= 40
            shoot(tab, "phone")
    finally:
        context.close()


def test_the_meter_shows_the_exact_chance(page: object, edition: Edition) -> None:
    with serving(edition.solution_dir, seed=3) as client:
        ready_meter(client, ["person", "always_roll(6)"])  # worked out once, then kept for the page
        assert open_game(page, client.port, ("person", "always_roll(6)"), variant="full") == "waiting"
        assert page.is_visible("#meter")
        chance = float(page.get_attribute("#meter", "data-chance"))
        view = client.post({"players": ["person", "always_roll(6)"], "seed": shown_seed(page), "moves": []})[1]
        assert chance == pytest.approx(view["chance"])
        assert f"{100 * view['chance']:.1f}%" in page.text_content("#meter-value")
        page.select_option("#variant", "simple")
        page.click("#new-game")
        assert settle(page) == "waiting" and not page.is_visible("#meter")  # the simple rules are not modelled


@pytest.mark.usefixtures("best_play_solved_once")  # Pig's meter
def test_two_strategies_play_with_the_dice_animated(page: object, any_edition: Edition) -> None:
    if not any_edition.gui:
        pytest.skip(f"{any_edition.name} declares no [gui]: it offers no browser game")
    players = ("final_strategy", factory_players(any_edition)[1])
    with serving(any_edition.solution_dir, seed=9) as client:
        assert open_game(page, client.port, players, animate=True) == "over"
        view = client.post({"players": list(players), "seed": shown_seed(page)})[1]
        assert shown_scores(page) == tuple(view["scores"])
        # Each turn was revealed with its shuffle (the page says about 350-600 ms a turn), not shown
        # at once: the page's clock moved on for every one of them.
        assert page.moved_ms >= 300 * len(view["turns"]), (page.moved_ms, len(view["turns"]))
        last = view["turns"][-1]
        faces = [int(v) for v in page.locator("#dice .die").evaluate_all("els => els.map(e => e.dataset.value)")]
        assert faces == last["rolls"]
        assert page.locator("#log li.turn").count() == len(view["turns"])
        # Whatever a rule's message holds (Swine Swap's shows numbers such as 3**124 written out),
        # the page fits its window: nothing scrolls sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        shoot(page, f"{any_edition.name}-watched")


def test_a_lecture_steps_through_a_game_one_turn_at_a_time(page: object, edition: Edition) -> None:
    """With "One turn at a time", a game between strategies waits for Next turn before each turn."""
    with serving(edition.solution_dir, seed=9) as client:
        page.goto(f"http://127.0.0.1:{client.port}/")
        settle(page)
        page.uncheck("#animate")
        page.check("#step")
        page.select_option("#player0", "final_strategy")
        page.select_option("#player1", "always_roll(6)")
        page.click("#new-game")
        page.wait_for_selector("#next-turn", state="visible")
        assert page.locator("#log li.turn").count() == 0
        for shown in (1, 2, 3):
            page.click("#next-turn")
            page.wait_for_function(f"document.querySelectorAll('#log li.turn').length === {shown}")
            page.wait_for_selector("#next-turn", state="visible")
        page.uncheck("#step")  # the rest at once
        page.click("#next-turn")
        assert settle(page) == "over"
        view = client.post({"players": ["final_strategy", "always_roll(6)"], "seed": shown_seed(page)})[1]
        assert page.locator("#log li.turn").count() == len(view["turns"])
        assert shown_scores(page) == tuple(view["scores"])


def test_new_game_reads_the_setup_again(page: object, tmp_path: Path, edition: Edition,
                                        reference_source: str) -> None:
    """A strategy added to hog.py while the page is open can be picked after New game."""
    folder = student_copy(tmp_path, edition, reference_source)
    with serving(folder, seed=1) as client:
        assert open_game(page, client.port, ("person", "catch_up")) == "waiting"
        added = reference_source + "\n\ndef cautious_strategy(score, opponent_score):\n    return 2\n"
        (folder / "hog.py").write_text(added, encoding="utf-8")
        page.click("#new-game")
        assert settle(page) == "waiting"
        assert page.locator('#player1 option[value="cautious_strategy"]').count() == 1
        assert page.input_value("#player1") == "catch_up"  # the choice made is kept
        assert open_game(page, client.port, ("person", "cautious_strategy")) == "waiting"
        assert roll(page, 3) == "waiting"
        assert "Player 1 rolled 2 dice" in page.text_content("#log")
        assert "cautious_strategy" in page.text_content("#name1")


def test_a_replay_that_fails_keeps_the_board(page: object, tmp_path: Path, edition: Edition,
                                             reference_source: str) -> None:
    stuck = stuck_strategy(reference_source, "always_roll_5", 4)
    with serving(student_copy(tmp_path, edition, stuck), seed=1, timeout=1.0) as client:
        assert open_game(page, client.port, ("person", "always_roll_5")) == "waiting"
        before = page.locator("#log li.turn").count()
        for _ in range(12):  # until always_roll_5 is asked with a score of 5 or more
            if roll(page, 6) == "error":
                break
        assert page.text_content("#error-title") == gui_messages.gui_loop("always_roll_5")  # named, as promised
        assert page.locator("#log li.turn").count() > before and shown_scores(page) != (0, 0)


def act(tab: object, action: str) -> str:
    tab.click(f"#action-{action}")  # type: ignore[attr-defined]
    return settle(tab)


def shown_turn_total(tab: object) -> int:
    return int(tab.text_content("#actions-label").rsplit(" ", 1)[1])  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", TACTIC_EDITIONS)
@pytest.mark.usefixtures("best_play_solved_once")
def test_a_tactic_game_is_played_with_its_buttons_to_the_end(page: object, name: str) -> None:
    """Pig in the page: Roll and Hold until the game is over, the turn total and the die's sides shown
    before each action, the dice drawn as faces, the student's commentary; the same game as the
    reference's own play with the same dice and actions."""
    edition = load_edition(name)
    settings = gui_settings(edition)
    players = ("person", "final_strategy")
    moves: list[int] = []
    with serving(edition.solution_dir, seed=7) as client:
        now = open_game(page, client.port, players)
        assert not page.is_visible("#chooser")  # no dice counts in this game
        while now == "waiting":
            assert page.is_visible("#actions") and "sided die" in page.text_content("#die-sides")
            total = shown_turn_total(page)
            moves.append(1 if total >= 12 else 0)
            now = act(page, settings.move.actions[moves[-1]])
            if len(moves) == 3:
                shoot(page, f"{name}-acting")
                dice = page.locator("#dice .die")
                assert dice.count() >= 1 and dice.first.get_attribute("data-sides") in ("4", "6")
            assert len(moves) < 2000
        assert now == "over", page.text_content("#error")
        shoot(page, f"{name}-game-over")
        assert shown_seed(page) == 8
        winner, scores = reference_tactic_play(edition, list(players), 8, moves)
        assert shown_scores(page) == tuple(scores)
        said = "You win" if winner == 0 else "Player 1 (final_strategy) wins"
        assert f"{said} {max(scores)} to {min(scores)}" in page.text_content("#winner")
        log = page.text_content("#log")
        assert "Player 0 chose to roll." in log and "decided to hold." in log  # describe_action's own words
        assert page.text_content("#printed-label") == f"{edition.submission} printed"  # the file, from the edition
        assert page.locator("#log li.turn").count() >= 2
    assert page.outside == []


@pytest.mark.parametrize("name", TACTIC_EDITIONS)
@pytest.mark.usefixtures("best_play_solved_once")
def test_a_tactic_game_plays_by_keyboard(page: object, name: str) -> None:
    settings = gui_settings(load_edition(name))
    with serving(load_edition(name).solution_dir, seed=4) as client:
        assert open_game(page, client.port, ("person", "final_strategy")) == "waiting"
        page.keyboard.press(settings.move.actions[0][0])  # r: roll
        assert settle(page) in ("waiting", "over")
        page.keyboard.press(settings.move.actions[1][0])  # h: hold
        assert settle(page) in ("waiting", "over")
        first = page.locator("#log li.turn").first.text_content()
        assert first.startswith("Player 0: ") and settings.move.actions[0] in first
