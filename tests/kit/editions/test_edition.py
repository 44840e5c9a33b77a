"""Manifests: editions load from data, and a broken manifest is rejected naming the file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.core.errors import InputError
from graders.editions.edition import EditionError, edition_names, load_edition, parse_manifest

GOOD = {
    "title": "T",
    "phases": [{"number": 1, "name": "One"}],
    "problems": [
        {"number": 1, "title": "a", "phase": 1, "points": 2},
        {"number": 2, "title": "b", "phase": 1, "points": 3, "depends": [1],
         "rules": [{"kind": "uses", "function": "b", "names": ["a"]}]},
    ],
    "checkpoint": {"phase": 1, "points": 1},
}


def test_default_edition_loads_from_its_manifest():
    ed = load_edition()
    assert ed.name == "boar_brawl" and ed.max_points == 24
    assert [p.number for p in ed.problems] == list(range(13))
    assert [ph.name for ph in ed.phases] == ["Rules of the Game", "Strategies"]
    assert ed.checkpoint is not None and ed.checkpoint.points == 1
    assert sum(p.points for p in ed.problems if p.phase == 1) == 12
    assert ed.problem(2).rules[0].names == ("str", "lists", "square brackets")
    assert "boar_brawl" in edition_names()


def test_unknown_edition_names_the_known_ones():
    with pytest.raises(EditionError, match=r"unknown edition 'nope' \(known editions: .*boar_brawl"):
        load_edition("nope")


def test_manifest_parses():
    ed = parse_manifest(GOOD, "x", Path("/k"), Path("/k/tests/editions/x/edition.toml"))
    assert ed.max_points == 5 and ed.problem(2).depends == ("01",) and ed.problem("02").label == "02"
    assert ed.suite_dir == Path("/k/tests/editions/x") and ed.support_dir == Path("/k/solution/x")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("title"), "missing key 'title'"),
        (lambda d: d["problems"][0].update(phase=9), "phase 9 is not declared"),
        (lambda d: d["problems"][1].update(number=1), "problem 01 appears twice"),
        (lambda d: d["problems"][1].update(depends=[5]), "depends on 05"),
        (lambda d: d["problems"][1]["rules"][0].update(kind="maybe"), "kind: should be one of 'forbid', 'uses'"),
        (lambda d: d["problems"][0].update(points="two"), "points: should be a whole number, not 'two'"),
    ],
)
def test_broken_manifests_are_rejected_clearly(change, message):
    import copy

    data = copy.deepcopy(GOOD)
    change(data)
    with pytest.raises(EditionError, match=message) as info:
        parse_manifest(data, "x", Path("/k"), Path("/k/tests/editions/x/edition.toml"))
    assert "/k/tests/editions/x/edition.toml" in str(info.value)


def test_unknown_problem_is_a_clear_error():
    with pytest.raises(InputError, match="there is no problem 42; problems are 00 to 12"):
        load_edition().problem(42)
    with pytest.raises(InputError, match="there is no problem 05a; problems are 00 to 12"):
        load_edition().problem("5a")


def test_a_problem_in_parts_is_named_by_its_parts():
    """Swine Swap's Problem 5 is 05a and 05b: `-q 5` names both rather than saying there is no 05."""
    with pytest.raises(InputError, match="problem 05 comes in parts: 05a and 05b; name one, such as -q 05a"):
        load_edition("swine_swap").problem(5)


def test_unknown_keys_are_rejected_not_ignored():
    import copy

    data = copy.deepcopy(GOOD)
    data["problems"][1]["depend"] = [1]
    with pytest.raises(EditionError, match="unknown key 'depend'"):
        parse_manifest(data, "x", Path("/k"), Path("/k/tests/editions/x/edition.toml"))
    data = copy.deepcopy(GOOD)
    data["goal"] = 100
    with pytest.raises(EditionError, match="unknown key 'goal'"):
        parse_manifest(data, "x", Path("/k"), Path("/k/tests/editions/x/edition.toml"))


def test_problem_numbers_are_read_the_way_people_type_them():
    ed = load_edition()
    assert ed.parse_numbers(["01", "2", "q03", "Q04"]) == ["01", "02", "03", "04"]
    assert ed.parse_numbers(None) is None
    for bad in ("one", "5ab", "-1"):
        with pytest.raises(InputError, match="-q expects a problem number"):
            ed.parse_numbers([bad])


def test_a_problem_in_parts_has_a_label_of_its_own_per_part():
    """Two parts of one problem (05a and 05b) share its number and are told apart by their labels, in
    -q, in depends, in the case files' names and in the solution's markers."""
    import copy

    data = copy.deepcopy(GOOD)
    data["problems"] += [
        {"number": 3, "label": "03a", "title": "c", "phase": 1, "points": 2, "depends": [2]},
        {"number": 3, "label": "03b", "title": "d", "phase": 1, "points": 1, "depends": ["3a", 1]},
    ]
    ed = parse_manifest(data, "x", Path("/k"), Path("/k/tests/editions/x/edition.toml"))
    assert [p.label for p in ed.problems] == ["01", "02", "03a", "03b"]
    assert ed.problem("03b").depends == ("03a", "01") and ed.problem("q3b").number == 3
    assert ed.parse_numbers(["3a", "03b"]) == ["03a", "03b"]
    assert ed.case_files("3a") == [] and ed.labels([2, "03b"]) == ["02", "03b"]
    for change, needle in (({"label": "04a"}, "a label of problem 3"), ({"label": "3-a"}, "a label such as"),
                           ({"depends": ["03b"]}, "depends on 03b")):
        broken = copy.deepcopy(data)
        broken["problems"][2].update(change)
        with pytest.raises(EditionError, match=needle):
            parse_manifest(broken, "x", Path("/k"), Path("/k/tests/editions/x/edition.toml"))


def test_optional_problems_are_marked():
    assert load_edition().problem(12).optional
    assert not load_edition().problem(11).optional


def test_a_kit_solution_folder_declares_its_edition(tmp_path):
    """`hogkit winrate solution/more_boar` needs no --edition: the folder is that edition's reference."""
    from graders.editions.edition import declared_edition

    root = Path(__file__).resolve().parents[3]
    for name in edition_names():
        assert declared_edition(root / "solution" / name) == name
        assert declared_edition(root / "solution" / name / "dice.py") == name
    stray = tmp_path / "solution" / "more_boar"
    stray.mkdir(parents=True)
    assert declared_edition(stray) is None  # a folder of that name away from a kit is no edition's


def test_swine_swaps_question_on_a_swap_that_wins_holds_for_the_reference(monkeypatch):
    """The unlock question's premise is the game's: at 63 against 95, rolling zero gives 10 (Free
    Bacon), 73, and 73 + 95 triggers a swap that puts the player ahead."""
    import runpy

    from graders.editions.cases import load_questions

    edition = load_edition("swine_swap")
    (question,) = [q for q in load_questions(edition, 12) if q.name == "a swap that wins"]
    assert "63 points and the opponent 95" in question.question and "gives you 10" in question.question
    monkeypatch.syspath_prepend(str(edition.solution_dir))
    hog = runpy.run_path(str(edition.solution_dir / edition.submission))
    assert hog["free_bacon"](95) == 10 and hog["is_swap"](73, 95)
    assert question.answer.startswith("It gives you the opponent's 95")
