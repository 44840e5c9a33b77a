"""Authoring an edition: `hogkit new-edition` and `hogkit build --check`, and the guide that walks a
course's staff from an empty folder to an edition on Gradescope, run as written.

The guide's ``shell`` blocks (docs/authoring.md) run in order as one script in an empty temporary
folder, on a made-up rule: the toy edition is built, checked, graded (the reference full marks, the
skeleton none), measured by mutants, handed out and graded by its Gradescope zip as Gradescope runs
it. Refusals write nothing; every manifest key is explained in the manifest it writes; the
checklist names what is missing in order, and that the reference fails a wrong case.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from graders.authoring import checklist, newedition
from graders.cli import main as hogkit
from graders.editions import edition as editions
from graders.editions.edition import kit_root, load_edition
from graders.games import kinds

SHELL = re.compile(r"^```shell\n(.*?)^```", re.S | re.M)


def guide_script() -> str:
    text = (kit_root() / "docs" / "authoring.md").read_text(encoding="utf-8")
    return "\n".join(block.group(1) for block in SHELL.finditer(text))


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_authoring_guide_runs_from_an_empty_folder_to_gradescope(tmp_path: Path) -> None:
    script = guide_script()
    assert "hogkit new-edition" in script and "hogkit gradescope" in script
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("HOGKIT_ROOT", None)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=850, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout
    assert "toy_hog: nothing missing; the reference earns every point" in out
    assert "Total: 24/24" in out and "Total: 0/24" in out
    assert re.search(r"^02 toy_bonus +\d+ .* 100\.0% ", out, re.M)  # every mutant of the toy rule detected
    course = tmp_path / "my-course"
    results = json.loads((course / "gs" / "results" / "results.json").read_text(encoding="utf-8"))
    assert results["score"] == 25
    generated = (course / "tests" / "editions" / "toy_hog" / "q02.generated.toml").read_text(encoding="utf-8")
    assert ">>> toy_bonus(21, 46)\n13\n" in generated  # worked out from the toy reference, not Boar Brawl's 9
    assert (course / "toy-project" / "handout.ipynb").is_file()
    assert not (kit_root() / "tests" / "editions" / "toy_hog").exists()  # the kit's own folders untouched


def test_new_edition_refuses_bad_names_and_existing_editions_writing_nothing(tmp_path: Path, monkeypatch,
                                                                             capsys) -> None:
    monkeypatch.chdir(tmp_path)
    for name, needle in (("Toy-Hog", "cannot name an edition"), ("9lives", "cannot name an edition"),
                         ("more_boar", "already exists")):
        assert hogkit(["new-edition", name]) == 2
        assert needle in capsys.readouterr().err
    (tmp_path / "handouts" / "toy").mkdir(parents=True)
    assert hogkit(["new-edition", "toy"]) == 2
    assert "handouts/toy already there" in capsys.readouterr().err
    assert hogkit(["new-edition", "toy", "--rename", "boar brawl=x"]) == 2
    assert "expected OLD=NEW" in capsys.readouterr().err
    assert hogkit(["new-edition", "toy2", "--from", "no_such"]) == 2
    assert "unknown edition 'no_such'" in capsys.readouterr().err
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == ["handouts", "handouts/toy"]


def explained_keys() -> set[tuple[str, str]]:
    found = set()
    for entry in newedition.KEY_GUIDE:
        table, _, names = entry.rpartition("] ")
        for key in (names if table else entry).split(", "):
            found.add(((table + "]") if table else "", key))
    return found


def test_the_new_manifest_explains_every_key_the_loader_knows() -> None:
    tables = {"": editions.TOP_KEYS, "[checkpoint]": editions.CHECKPOINT_KEYS, "[[phases]]": editions.PHASE_KEYS,
              "[[problems]]": editions.PROBLEM_KEYS, "[[problems.rules]]": editions.RULE_KEYS,
              "[game]": {**editions.GAME_KEYS, **{k: v for keys in kinds.KIND_KEYS.values() for k, v in keys.items()}},
              "[gui]": editions.GUI_KEYS}
    explained = explained_keys()
    nested = {"checkpoint", "phases", "problems", "gui", "game", "rules"}
    missing = [f"{t} {k}" for t, keys in tables.items() for k in keys if (t, k) not in explained and k not in nested]
    assert missing == []
    text = newedition.manifest_text(load_edition("boar_brawl"), "toy", {})
    assert all(f"#   {entry}: " in text for entry in newedition.KEY_GUIDE)
    assert text.count('title = "TODO') == 1 and 'title = "roll_dice"' in text  # the edition's title alone


def test_copied_cases_become_templates_and_keep_what_a_template_cannot_hold(tmp_path: Path) -> None:
    source = load_edition("boar_brawl")
    made = newedition.plan("toy", source, tmp_path, {"boar_brawl": "toy_bonus"})
    suite = tmp_path / "tests" / "editions" / "toy"
    q02 = made.texts[suite / "q02.toml"]
    assert "\n[[case]]\n" not in q02 and ">>> toy_bonus(21, 46)\n>>> toy_bonus(45, 52)" in q02
    q03 = newedition.plan("toy", load_edition("more_boar"), tmp_path, {}).texts[suite / "q03.toml"]
    kept = q03[q03.index("\n[[case]]\n"):]
    assert "\nError\n" in kept.split("[[generate]]")[0]  # an expected error is no template's: kept as written
    assert (suite / "seed.toml") not in made.texts and not any(p.name.endswith(".generated.toml") for p in made.texts)
    assert all(made.texts[p].startswith("# TODO") for p in made.texts if ".unlock." in p.name)
    assert not any(tmp_path.iterdir())  # a plan writes nothing


def test_an_edition_outside_the_kit_carries_the_files_it_includes(tmp_path: Path) -> None:
    made = newedition.plan("toy", load_edition("more_boar"), tmp_path, {})
    suite = tmp_path / "tests" / "editions" / "toy"
    assert 'file = "from-boar_brawl-q01.toml"' in made.texts[suite / "q01.toml"]
    assert (suite / "from-boar_brawl-q01.toml") in made.texts
    assert not made.links  # the support files are copies, not links into the kit


def test_the_checklist_says_what_is_missing_in_order_and_what_the_reference_fails(tmp_path: Path,
                                                                                  monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    newedition.write(newedition.plan("toy", load_edition("boar_brawl"), tmp_path, {}))
    edition = load_edition("toy")
    assert edition.root == tmp_path.resolve() and "toy" in editions.edition_names()
    steps = checklist.still_to_do(edition, [tmp_path / "stale"])
    assert "edition.toml:" in steps[0] and "TODO" in steps[0]
    assert "handout.md:1" in steps[1] and "generated file(s) are stale" in steps[-1]
    reference = edition.solution_dir / "hog.py"
    reference.write_text(reference.read_text(encoding="utf-8").replace("def boar_brawl(", "def brawl("), "utf-8")
    assert any("names boar_brawl, which solution/toy/hog.py does not define" in s
               for s in checklist.still_to_do(edition, []))


def test_a_case_the_reference_fails_is_named_with_what_it_expected() -> None:
    from graders.core.records import CaseResult, CaseStatus, ProblemResult, ProblemStatus, Report

    case = CaseResult("q02.1", "the worked examples", False, False, CaseStatus.FAILED, expected="9", got="13")
    problem = ProblemResult(2, "02", "boar_brawl", 1, 0, 1, ProblemStatus.FAILED, cases=(case,))
    report = Report("toy", "Toy", "hog.py", 0, 1, (), (problem,), None)
    steps = checklist.reference_steps(load_edition(), lambda _: report)
    assert steps == ["Problem 02: the reference fails 'the worked examples' (expected 9, got 13): "
                     "fix the case or the reference"]


@pytest.mark.slow
@pytest.mark.parametrize("isolation", ["default", "limits"])
def test_attack_a_hand_in_cannot_read_the_reference_of_a_courses_own_edition(tmp_path: Path, monkeypatch, capsys,
                                                                             isolation: str) -> None:
    """Attack: the course's reference sits outside the kit, in the course's folder; a hand-in that
    reads it and runs it (a walking stub) scores nothing, with namespaces and without."""
    if isolation == "limits":
        monkeypatch.setenv("HOGKIT_ISOLATION", "limits")
    monkeypatch.chdir(tmp_path)
    newedition.write(newedition.plan("toy", load_edition("boar_brawl"), tmp_path, {}))
    assert hogkit(["build", "--edition", "toy"]) == 0
    reference = tmp_path.resolve() / "solution" / "toy" / "hog.py"
    stub = tmp_path / "stub.py"
    stub.write_text(f"exec(open({str(reference)!r}).read())\n", encoding="utf-8")
    capsys.readouterr()
    assert hogkit(["grade", str(stub), "--edition", "toy", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 0
    assert hogkit(["grade", str(reference), "--edition", "toy", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 24
