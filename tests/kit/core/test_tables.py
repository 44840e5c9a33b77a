"""Every table of the kit's data files is checked by one helper: a typo in any of them fails loudly,
naming the file, the table and the key, instead of being ignored or ending in a bare KeyError."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import pytest

from graders.core.errors import EditionError
from graders.core.tables import Key, check_table, pair_of_ints, within
from graders.editions.cases import load_problem_cases, load_questions, load_templates
from graders.editions.edition import Edition, load_edition, parse_manifest, read_toml
from graders.games import kinds
from graders.games.game import game_of

# -- the helper itself --------------------------------------------------------------------------

KEYS = {"name": Key(str), "count": Key(int, 3, check=within(1, 9)), "speed": Key(float, 1.0),
        "tags": Key(list, [], items=str), "on": Key(bool, False)}


def test_values_come_back_with_defaults_filled_in():
    assert check_table({"name": "a", "speed": 2}, KEYS, "f.toml [t]") == {
        "name": "a", "count": 3, "speed": 2.0, "tags": [], "on": False}


@pytest.mark.parametrize(("table", "needle"), [
    ({"name": "a", "cuont": 2}, "f.toml [t]: unknown key 'cuont' (known keys: count, name, on, speed, tags)"),
    ({}, "f.toml [t]: missing key 'name' (text)"),
    ({"name": 3}, "f.toml [t] name: should be text, not 3"),
    ({"name": "a", "count": True}, "count: should be a whole number, not True"),  # a bool is no number
    ({"name": "a", "count": 2.0}, "count: should be a whole number, not 2.0"),
    ({"name": "a", "count": 12}, "count: should be a whole number from 1 to 9, not 12"),
    ({"name": "a", "on": 1}, "on: should be true or false, not 1"),
    ({"name": "a", "tags": ["x", 2]}, "tags: every item should be text, not 2"),
    ("name = a", "f.toml [t]: should be a table of keys and values, not str"),
])
def test_each_mistake_is_named_with_where_it_came_from(table, needle):
    with pytest.raises(EditionError) as info:
        check_table(table, KEYS, "f.toml [t]")
    assert str(info.value) == needle or needle in str(info.value)


def test_extra_keys_keep_the_tables_own_order():
    table = {"seed": 1, "b": [0, 1], "a": [2, 3]}
    values = check_table(table, {"seed": Key(int)}, "w", extra=Key(list, check=pair_of_ints))
    assert list(values) == ["seed", "b", "a"]
    with pytest.raises(EditionError, match="two whole numbers"):
        check_table({"seed": 1, "a": [3, 2]}, {"seed": Key(int)}, "w", extra=Key(list, check=pair_of_ints))


# -- every manifest table -----------------------------------------------------------------------


def _manifest(name: str) -> tuple[dict, Path]:
    path = load_edition(name).suite_dir / "edition.toml"
    return read_toml(path), path


@pytest.mark.parametrize(("edition_name", "change", "needle"), [
    # The review's example: a renamed key made every win rate of more_boar wrong, silently.
    ("more_boar", lambda d: d["game"].update(extra_trun=d["game"].pop("extra_turn")),
     "[game]: unknown key 'extra_trun' (known keys: actions, after, baseline, dice, extra_turn, goal, kind, memory, "
     "report, sides, strategy, update, variants)"),
    # One table for every kind of game: a key of another kind, or none of the kind's own, is named with the file.
    ("pig", lambda d: d["game"].update(update="sus_update"),
     "edition.toml [game] update: only a game of kind 'dice' takes this key, and this table says kind = 'tactic'"),
    ("boar_brawl", lambda d: d["game"].update(actions=["roll", "hold"]),
     "[game] actions: only a game of kind 'tactic'"),
    ("boar_brawl", lambda d: d["game"].pop("kind"), "edition.toml [game]: missing key 'kind'"),
    ("boar_brawl", lambda d: d["game"].update(kind="cards"), "edition.toml [game] kind: should be"),
    ("boar_brawl", lambda d: d["game"].pop("update"), "edition.toml [game]: missing key 'update'"),
    ("pig", lambda d: d["game"].update(actions=["roll"]), "edition.toml [game] actions: should be two or more"),
    ("boar_brawl", lambda d: d["game"].update(dice=[3, 1]), "edition.toml [game] dice: should be [fewest, most]"),
    ("boar_brawl", lambda d: d.update(analysis=d.pop("game")), "unknown key 'analysis'"),
    ("more_boar", lambda d: d["game"].update(update="score +"), "[game] update: should be a Python expression"),
    ("boar_brawl", lambda d: d["game"]["report"].update(probelm=12), "[game] report: unknown key 'probelm'"),
    ("boar_brawl", lambda d: d["game"]["report"].update(problem=99), "report problem: should be the number of"),
    ("boar_brawl", lambda d: d["game"].update(baseline=6), "[game] baseline: should be text, not 6"),
    ("swine_swap", lambda d: d["game"]["memory"].update(clases=14), "[game] memory: unknown key 'clases'"),
    ("swine_swap", lambda d: d["game"]["memory"].update(start=14), "[game] memory start: should be a class"),
    ("swine_swap", lambda d: d["game"]["memory"].update(classes="14"), "memory classes: should be a whole number"),
    ("swine_swap", lambda d: d["game"]["memory"].update(remember="take_turn("), "memory remember: should be a"),
    ("swine_swap", lambda d: d["game"].update(after="lambda s, o:"), "[game] after: should be a Python"),
    ("swine_swap", lambda d: d["game"]["variants"].update({"no feral": "1"}), "[game] variants: should be a"),
    ("swine_swap", lambda d: d["game"]["variants"].update(none="lambda ("), "variants none: should be a Python"),
    ("swine_swap", lambda d: d["gui"].update(memory=3), "[gui] memory: should be text, not 3"),
    ("boar_brawl", lambda d: d.update(gaol=100), "unknown key 'gaol'"),
    ("boar_brawl", lambda d: d["phases"][0].update(nmae="x"), "[[phases]] #1: unknown key 'nmae'"),
    ("boar_brawl", lambda d: d["problems"][3].update(depend=[1]), "number=3: unknown key 'depend'"),
    ("boar_brawl", lambda d: d["problems"][3].update(points=2.5), "number=3 points: should be a whole number"),
    ("boar_brawl", lambda d: d["problems"][2]["rules"][0].update(fucntion="x"), "[[problems.rules]] #1: unknown"),
    ("boar_brawl", lambda d: d["problems"][2]["rules"][0].update(required="yes"), "required: should be true or"),
    ("boar_brawl", lambda d: d["checkpoint"].update(ponts=1), "[checkpoint]: unknown key 'ponts'"),
    ("boar_brawl", lambda d: d["gui"].update(colour="pink"), "[gui]: unknown key 'colour'"),
    ("boar_brawl", lambda d: d["gui"]["variants"][0].update(exat=True), "[gui] variants[0]: unknown key 'exat'"),
    ("boar_brawl", lambda d: d["gui"]["events"][0].update(wen="dice"), "[gui] events[0]: unknown key 'wen'"),
    ("boar_brawl", lambda d: d["gui"].update(sides=6), "[gui]: unknown key 'sides'"),  # the die is said in [game]
    ("boar_brawl", lambda d: d["game"].update(sides="6 +"), "[game] sides: should be a Python expression"),
])
def test_a_typo_in_any_manifest_table_fails_when_the_edition_loads(edition_name, change, needle):
    data, path = _manifest(edition_name)
    data = copy.deepcopy(data)
    change(data)
    with pytest.raises(EditionError) as info:
        edition = parse_manifest(data, edition_name, path.parent.parent.parent, path)
        game_of(edition)  # a kind's own keys are checked on the instructor's side, before any model
        kinds.dice_settings(edition)
    assert needle in str(info.value) and str(path) in str(info.value)


def test_a_kinds_own_keys_are_kept_as_written_for_the_instructors_side():
    """The shipped loader checks the keys every kind shares and keeps the rest as written: a typo
    there reaches a student's copy unread, and fails where the game is modelled (game_of)."""
    data, path = _manifest("more_boar")
    data = copy.deepcopy(data)
    data["game"]["extra_trun"] = data["game"].pop("extra_turn")
    edition = parse_manifest(data, "more_boar", path.parent.parent.parent, path)
    assert edition.game.table["extra_trun"] == "more_boar" and edition.game.kind == "dice"
    with pytest.raises(EditionError, match="unknown key 'extra_trun'"):
        game_of(edition)


def test_the_manifests_as_they_are_load_with_typed_analysis_settings():
    more = kinds.dice_settings(load_edition("more_boar"))
    assert more is not None and more.extra_turn == "more_boar"
    assert more.report_problem == "12" and more.report_strategy == "final_strategy"
    assert kinds.dice_settings(load_edition("boar_brawl")).extra_turn == ""
    plain = kinds.dice_settings(load_edition("pig_tail"))  # without the keys, the state is the two scores as before
    assert (plain.memory_classes, plain.remember, plain.after, plain.variants) == (1, "", "", ())
    assert kinds.dice_settings(load_edition("pig")) is None  # a game of another kind
    swine = kinds.dice_settings(load_edition("swine_swap"))
    assert (swine.memory_classes, swine.memory_start, swine.baseline) == (14, 0, "always_roll(4)")
    assert "is_swap" in swine.after and "take_turn" in swine.remember
    assert [name for name, _ in swine.variants] == ["no_feral_hogs"]
    assert swine.variant("no_feral_hogs").update == dict(swine.variants)["no_feral_hogs"]
    assert swine.variant("") is swine


# -- every case-file table ----------------------------------------------------------------------


def _suite(tmp_path: Path, edition: Edition, text: str, number: int = 1) -> Edition:
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / f"q{number:02d}.toml").write_text(text, encoding="utf-8")
    return dataclasses.replace(edition, suite_dir=folder)


CASE_FILE_TYPOS = [
    (load_problem_cases, "[[case]]\nname = 'x'\nhiden = true\ntranscript = '>>> 1\\n1'\n",
     "[[case]] #1: unknown key 'hiden'"),
    (load_problem_cases, "[[case]]\nname = 'x'\n", "[[case]] #1: missing key 'transcript'"),
    (load_problem_cases, "[[case]]\ntranscript = '>>> 1\\n1'\nhidden = 'yes'\n", "hidden: should be true or false"),
    (load_problem_cases, "[[cases]]\ntranscript = '>>> 1'\n", ": unknown key 'cases'"),
    (load_questions, "[[unlock]]\nquestion = 'q'\nchoises = ['a']\nanswer = 'a'\n",
     "[[unlock]] #1: unknown key 'choises'"),
    (load_questions, "[[unlock]]\nquestion = 'q'\nchoices = [1, 2]\nanswer = '1'\n",
     "choices: every item should be text"),
    (load_templates, "[[generate]]\ntrnascript = '>>> 1'\n", "[[generate]] #1: unknown key 'trnascript'"),
    # The review's example: a typo in a template's range ended in a bare KeyError traceback.
    (load_templates, "[[generate]]\ntranscript = '>>> {n}'\nrange = {name = 'n', frist = 1, last = 3}\n",
     "[[generate]] #1 range: unknown key 'frist' (known keys: first, last, name)"),
    (load_templates, "[[generate]]\ntranscript = '>>> {n}'\nrandom = {seed = 1, count = 2, n = [5, 1]}\n",
     "random n: should be two whole numbers"),
    (load_templates, "[[generate]]\ntranscript = '>>> {n}'\nrandom = {sede = 1, count = 2}\n",
     "random: missing key 'seed'"),
    (load_templates, "[[generate]]\ntranscript = '>>> {n}'\nrange = {name = 'n', first = 1, last = 2}\n"
                     "params = [{n = 1}]\n", "give one of params, range and random, not params and range"),
    (load_problem_cases, "[[include]]\nfiel = 'x.toml'\n", "[[include]] #1: unknown key 'fiel'"),
    (load_problem_cases, "[[include]]\nfile = 'x.toml'\ntables = ['cases']\n", "tables: should be a list of"),
]


@pytest.mark.parametrize(("load", "text", "needle"), CASE_FILE_TYPOS)
def test_a_typo_in_any_case_file_table_fails_naming_the_file(tmp_path, edition, load, text, needle):
    broken = _suite(tmp_path, edition, text)
    with pytest.raises(EditionError) as info:
        load(broken, 1)
    assert needle in str(info.value) and "q01.toml" in str(info.value)


def test_the_kits_own_case_files_all_pass_the_checks(any_edition):
    for p in any_edition.problems:
        load_problem_cases(any_edition, p.label)
        load_questions(any_edition, p.label)
        load_templates(any_edition, p.label)
