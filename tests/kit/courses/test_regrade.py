"""Regrading only what changed: a rerun after one problem's cases changed grades that problem alone
for every submission, and its outputs are a fresh full run's (times of cases apart); anything else
that changed (the engine, the manifest, the reference) means a full grade."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from graders.courses import messages as courses_messages
from graders.courses.classroom import changed_problems, grade_class, kit_fingerprint, problem_files
from graders.editions.edition import kit_root, load_edition
from graders.editions.markers import strip_solutions
from graders.scoring import messages as scoring_messages
from graders.scoring.grading import failure_reason

TIMES = ("seconds", "execution_time")  # what two runs of the same grade never share


def untimed(data: object) -> object:
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if k not in TIMES}
    if isinstance(data, list):
        return [untimed(v) for v in data]
    return data


def outputs(out: Path) -> dict[str, object]:
    """Every file under OUT, JSON (plain or gzipped, or a line each) without its times."""
    found: dict[str, object] = {}
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        raw = path.read_bytes()
        name = path.relative_to(out).as_posix()
        if name.endswith(".gz"):
            raw = gzip.decompress(raw)
        if name.endswith((".json", ".json.gz")):
            found[name] = untimed(json.loads(raw))
        elif name.endswith(".jsonl"):
            found[name] = [untimed(json.loads(line)) for line in raw.decode().splitlines()]
        else:
            found[name] = raw
    return found


@pytest.fixture
def kit_copy(tmp_path: Path, monkeypatch) -> Path:
    copy = tmp_path / "kit"
    shutil.copytree(kit_root(), copy, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info",
                                                                    "skeleton", "handouts", "docs", "benchmarks"))
    shutil.copytree(kit_root() / "skeleton" / "boar_brawl", copy / "skeleton" / "boar_brawl")
    monkeypatch.setenv("HOGKIT_ROOT", str(copy))
    return copy


def a_class(folder: Path) -> None:
    """The reference, the skeleton, Phase 1's first problems done, a slip in Problem 02, a broken entry."""
    marked = (load_edition().solution_dir / "hog.py").read_text(encoding="utf-8")
    folder.mkdir()
    (folder / "ada.py").write_text(marked, encoding="utf-8")
    (folder / "bo.py").write_text(strip_solutions(marked), encoding="utf-8")
    (folder / "cy.py").write_text(strip_solutions(marked, {"01", "02", "03"}), encoding="utf-8")
    slip = marked.replace("return max(3 * abs(tens - ones), 1)", "return max(3 * abs(tens - ones), 2)")
    assert slip != marked
    (folder / "dee.py").write_text(slip, encoding="utf-8")
    (folder / "eve.py").write_bytes(b"\xff\xfe not python")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_one_case_edit_regrades_that_problem_alone_and_writes_what_a_full_run_writes(kit_copy: Path,
                                                                                         tmp_path: Path) -> None:
    folder, out, fresh = tmp_path / "class", tmp_path / "out", tmp_path / "fresh"
    a_class(folder)
    grade_class(folder, load_edition("boar_brawl"), out, jobs=2)
    before = kit_fingerprint(load_edition("boar_brawl"))
    cases = kit_copy / "tests" / "editions" / "boar_brawl" / "q02.toml"
    text = cases.read_text(encoding="utf-8")
    assert ">>> boar_brawl(0, 0)\n1\n" in text
    cases.write_text(text.replace(">>> boar_brawl(0, 0)\n1\n", ">>> boar_brawl(0, 0)\n1\n>>> boar_brawl(1, 0)\n3\n"),
                     encoding="utf-8")
    edition = load_edition("boar_brawl")  # (a public case: neither generated files nor the kit's answers change)
    assert changed_problems(before, kit_fingerprint(edition)) == {"02"}
    said: list[str] = []
    again = grade_class(folder, edition, out, jobs=2, notice=said.append)
    assert courses_messages.class_regrading(["02"], 4) in said  # four graded entries; the broken one needs nothing
    ada = next(r for r in again if r.student == "ada")
    assert ada.report is not None and ada.total == ada.report.max
    hinted = [p for r in again for p in r.problems if p.hint]  # kept without their hints, then hinted afresh
    assert hinted and all(scoring_messages.hinted_reason(p.hint, failure_reason(p)) == p.reason for p in hinted)
    grade_class(folder, edition, fresh, jobs=2)
    assert outputs(out) == outputs(fresh)
    said.clear()
    grade_class(folder, edition, out, jobs=2, notice=said.append)  # and now nothing at all
    assert not any("regrading" in line for line in said)


def test_only_a_change_of_cases_alone_is_regraded_by_problem() -> None:
    kit = kit_fingerprint(load_edition("boar_brawl"))
    base, _, parts = kit.partition(";")
    assert changed_problems(kit, kit) == set()
    other = parts.replace("05=", "05=x", 1)
    assert changed_problems(f"{base};{other}", kit) == {"05"}
    assert changed_problems(f"{'0' * len(base)};{parts}", kit) is None  # engine, manifest or reference
    assert changed_problems(f"{base};{parts},13=abc", kit) is None  # a problem more or fewer
    assert changed_problems("an old kit's fingerprint", kit) is None
    assert kit != kit_fingerprint(load_edition("more_boar"))
    shared = problem_files(load_edition("more_boar"), "01")  # its cases include Boar Brawl's: a change there counts
    assert (kit_root() / "tests" / "editions" / "boar_brawl" / "q01.toml").resolve() in shared
