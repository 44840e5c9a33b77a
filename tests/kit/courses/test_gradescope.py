"""The Gradescope autograder: built as a zip, run against a simulated /autograder tree."""

from __future__ import annotations

import fcntl
import io
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from graders.courses import messages as courses_messages
from graders.courses.gradescope import build_autograder
from graders.editions.edition import load_edition
from graders.scoring import messages as scoring_messages

from ..conftest import REFERENCE_RUNNER, WITHOUT_LANDLOCK


@pytest.fixture(scope="module")
def autograder(tmp_path_factory, worker_id):
    """A simulated /autograder: the zip unpacked into source/ and its own setup.sh run, as Gradescope
    does on a fresh image (here apt-get finds Python and bubblewrap present, and pip fills the
    autograder's own virtual environment). That is done once per test run, under a file lock in the
    run's shared temporary folder, however many workers ask; each module's /autograder has its own
    submission and results folders, and a source/ that leads to the one set up."""
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if worker_id != "master" else base) / "gradescope-source"
    with open(f"{shared}.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # another worker setting it up waits, then uses it
        if not (shared / "names.json").is_file():
            shutil.rmtree(shared, ignore_errors=True)  # what a failed set-up left
            shared.mkdir()
            archive = build_autograder(load_edition(), shared / "autograder.zip")
            with zipfile.ZipFile(archive) as z:
                z.extractall(shared / "source")
                names = z.namelist()
            for script in ("setup.sh", "run_autograder"):
                (shared / "source" / script).chmod(0o755)
            done = subprocess.run(["bash", str(shared / "source" / "setup.sh")], capture_output=True, text=True,
                                  timeout=900, stdin=subprocess.DEVNULL)
            assert done.returncode == 0, done.stdout + done.stderr
            (shared / "names.json").write_text(json.dumps(names), encoding="utf-8")
    root = tmp_path_factory.mktemp("autograder")
    (root / "source").symlink_to(shared / "source")
    return root, json.loads((shared / "names.json").read_text(encoding="utf-8"))


@pytest.mark.slow
def test_the_zip_has_the_scripts_at_its_root_and_the_reference(autograder):
    """The reference comes along: hidden cases run it for the problems they do not test."""
    _, names = autograder
    assert "setup.sh" in names and "run_autograder" in names and "requirements.txt" in names
    assert "solution/boar_brawl/hog.py" in names
    assert "solution/boar_brawl/dice.py" in names and "graders/courses/gradescope.py" in names
    assert any(n.startswith("tests/editions/boar_brawl/q05.generated") for n in names)
    assert "tests/editions/boar_brawl/kit-answers.json.xz" in names  # (the kit's answers: no line of code)
    assert "tests/editions/boar_brawl/mutants.toml" not in names  # its mutant ids quote the reference's code


def run_autograder(root, submission_files: dict[str, str | bytes], command: list[str] | None = None) -> dict:
    """results.json of run_autograder (or COMMAND, which runs it) in the simulated ROOT for SUBMISSION_FILES."""
    submission = root / "submission"
    results = root / "results"
    for folder in (submission, results):
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir()
    for name, content in submission_files.items():
        target = submission / name
        target.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    env = {**os.environ, "AUTOGRADER_ROOT": str(root)}
    done = subprocess.run(command or ["bash", str(root / "source" / "run_autograder")], env=env, capture_output=True,
                          text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return json.loads((results / "results.json").read_text(encoding="utf-8"))


def check_format(results: dict) -> None:
    assert isinstance(results["score"], int | float) and isinstance(results["execution_time"], int | float)
    for test in results["tests"]:
        assert isinstance(test["name"], str) and isinstance(test["number"], str)
        assert test["status"] in ("passed", "failed")
        assert test["visibility"] in ("visible", "after_published")
        assert isinstance(test["output"], str)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_passing_submission(autograder):
    root, _ = autograder
    results = run_autograder(root, {"hog.py": (load_edition().solution_dir / "hog.py").read_text()})
    check_format(results)
    assert results["score"] == 25
    assert results["output"] == scoring_messages.total_with_checkpoint(24, 24, "Phase 1 checkpoint", 1, 1)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_failing_submission_under_another_name(autograder):
    root, _ = autograder
    results = run_autograder(root, {"my_hog.py": (load_edition().skeleton_dir / "hog.py").read_text()})
    check_format(results)
    assert results["score"] == 0
    hidden = [t for t in results["tests"] if t["visibility"] == "after_published"]
    assert hidden and all(t["max_score"] == 0 for t in hidden)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_hostile_submission(autograder):
    root, _ = autograder
    source = (load_edition().solution_dir / "hog.py").read_text()
    source = source.replace("    # BEGIN PROBLEM 2\n", "    # BEGIN PROBLEM 2\n    import os\n    os._exit(0)\n", 1)
    source += "\nimport sys\nsys.exit(3)\n"
    results = run_autograder(root, {"hog.py": source})
    check_format(results)
    two = next(t for t in results["tests"] if t["number"] == "02")
    assert two["score"] == 0 and two["status"] == "failed"
    assert next(t for t in results["tests"] if t["number"] == "01")["score"] == 2


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_no_submission_still_writes_results(autograder):
    root, _ = autograder
    results = run_autograder(root, {})
    assert results["score"] == 0 and "Not graded" in results["output"]
    from graders.core.writers import md_text

    # said to a student, not an instructor
    assert md_text(courses_messages.nothing_handed_in("hog.py")) in results["output"]


def reference_text() -> str:
    return (load_edition().solution_dir / "hog.py").read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_notebook_hand_in_is_graded(autograder):
    """The bundle says a finished notebook can be handed in as is: on Gradescope it is graded."""
    import nbformat

    root, _ = autograder
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("# Hog"), nbformat.v4.new_code_cell(reference_text())]
    results = run_autograder(root, {"hog.ipynb": nbformat.writes(notebook)})
    check_format(results)
    assert results["score"] == 25


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_zip_hand_in_is_graded(autograder):
    root, _ = autograder
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as z:
        z.writestr("project/hog.py", reference_text())
    results = run_autograder(root, {"hog.zip": packed.getvalue()})
    check_format(results)
    assert results["score"] == 25


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("name, content", [("hog.py", b"\x00\x01 not python \xff"),
                                           ("hog.ipynb", "{ not a notebook"),
                                           ("hog.zip", b"PK not a zip")])
def test_a_broken_hand_in_gets_a_result_that_says_why(autograder, name, content):
    root, _ = autograder
    results = run_autograder(root, {name: content})
    assert results["score"] == 0 and results["output"].startswith("Not graded")
    assert name in results["output"] and str(root) not in results["output"]  # never the server's folder


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_an_engine_that_cannot_start_still_leaves_a_result(autograder, tmp_path):
    """Whatever happens, results.json is written: an engine that fails to import (a broken
    autograder build) leaves a result saying the submission could not be graded, not a missing file."""
    root, _ = autograder
    broken = tmp_path / "autograder"
    shutil.copytree(root / "source", broken / "source", symlinks=True, ignore=lambda folder, names:
                    [".venv"] if Path(folder) == root / "source" else [])
    (broken / "source" / ".venv").symlink_to(root / "source" / ".venv")  # the same set-up Python and packages
    (broken / "source" / "graders" / "courses" / "gradescope.py").write_text("raise ImportError('a broken build')\n")
    results = run_autograder(broken, {"hog.py": reference_text()})
    assert results["score"] == 0 and "could not be graded" in results["output"]
    assert results["extra_data"] == {"kit_error": True}
    assert results["tests"][0]["visibility"] == "hidden"


def test_the_autograder_root_is_an_option(tmp_path):
    from graders.courses import gradescope

    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "hog.py").write_text(reference_text(), encoding="utf-8")
    assert gradescope.main(["--edition", "boar_brawl", "--root", str(tmp_path)]) == 0
    results = json.loads((tmp_path / "results" / "results.json").read_text(encoding="utf-8"))
    assert results["score"] == 25


def test_the_reference_comes_along_where_a_case_is_judged_against_it_or_runs_it(tmp_path):
    """Pig grades a test the student writes and a win rate against its reference: its autograder
    carries it (the students never see the autograder); so does an edition whose hidden cases run
    the reference for other problems' functions; an edition with neither does not."""
    import dataclasses

    from graders.courses.gradescope import needs_reference

    assert needs_reference(load_edition())
    lone = load_edition()
    lone = dataclasses.replace(lone, problems=tuple(p for p in lone.problems if p.label in ("01", "02")))
    assert not needs_reference(lone)  # roll_dice's and boar_brawl's cases reach no other problem
    pig = load_edition("pig")
    assert needs_reference(pig)
    with zipfile.ZipFile(build_autograder(pig, tmp_path / "pig.zip")) as z:
        assert "solution/pig/pig.py" in z.namelist()


def test_the_autograder_zip_tells_starter_code_as_every_route_does(tmp_path):
    """The zip carries the skeleton's digests of its stubs where the grading on Gradescope's worker
    reads them, so starter code is starter code there too (tests/kit/scoring/test_verdicts.py compares the routes)."""
    from graders.editions.markers import starter_digests

    edition = load_edition()
    with zipfile.ZipFile(build_autograder(edition, tmp_path / "autograder.zip")) as z:
        z.extractall(tmp_path / "source")
    unpacked = load_edition(edition.name, tmp_path / "source")
    assert starter_digests(unpacked) == starter_digests(edition) != {}
    assert not (unpacked.skeleton_dir / edition.submission).exists()  # the digests only, never the stubs' file


def test_the_autograder_zip_is_the_same_whenever_it_is_built(tmp_path):
    """autograder.zip once mixed 1980 (the scripts) with each file's own time (the engine, the cases):
    every member now has one time, and two builds are the same bytes."""
    edition = load_edition()
    first = build_autograder(edition, tmp_path / "a.zip").read_bytes()
    second = build_autograder(edition, tmp_path / "b.zip").read_bytes()
    assert first == second
    with zipfile.ZipFile(tmp_path / "a.zip") as z:
        assert {info.date_time for info in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        modes = {info.filename: info.external_attr >> 16 for info in z.infolist()}
    assert modes["run_autograder"] == modes["setup.sh"] == 0o755 and modes["graders/courses/gradescope.py"] == 0o644


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_notebooks_errors_name_its_cells_not_a_hog_py_it_never_saw(autograder):
    import nbformat

    root, _ = autograder
    broken = reference_text().replace("def roll_dice(num_rolls, dice=six_sided):",
                                      "def roll_dice(num_rolls, dice=six_sided):\n    return 1 / 0", 1)
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("GOAL = 100"), nbformat.v4.new_markdown_cell("# Hog"),
                      nbformat.v4.new_code_cell(broken)]
    results = run_autograder(root, {"hog.ipynb": nbformat.writes(notebook)})
    line = broken.split("\n").index("    return 1 / 0") + 1
    one = next(t for t in results["tests"] if t["number"] == "01")
    assert courses_messages.notebook_place("hog.ipynb", 2, line) in one["output"], one["output"]
    assert "hog.py line" not in json.dumps(results)


def full_marks(edition) -> object:
    """A record of EDITION with every problem's points (and its checkpoint's), as grading the reference
    gives: what the tests' max_score values are measured against, with no grading run."""
    from graders.core.records import CheckpointResult, ClassRecord, EntryStatus, ProblemResult, ProblemStatus, Report

    problems = tuple(ProblemResult(p.number, p.label, p.title, p.phase, p.points, p.points, ProblemStatus.PASSED)
                     for p in edition.problems)
    cp = edition.checkpoint
    checkpoint = CheckpointResult(cp.label, cp.phase, cp.points, cp.points) if cp is not None else None
    report = Report(edition.name, edition.title, edition.submission, edition.max_points, edition.max_points, (),
                    problems, checkpoint)
    return ClassRecord("submission", EntryStatus.GRADED, report=report, max=edition.max_points)


@pytest.mark.parametrize("name", ["boar_brawl", "pig_tail", "more_boar", "swine_swap", "pig"])
def test_the_tests_max_scores_add_up_to_the_total_the_kit_says_to_set(tmp_path, name) -> None:
    """Every edition, with and without a course (one with an early date): the tests' max_score values
    add up to the total `hogkit gradescope` tells the instructor to set, and a submission earning
    everything scores that total (26 for Boar Brawl with the course; 15 for Pig, whose 25 make 15)."""
    from graders.courses.gradescope import _results, assignment_total

    edition = load_edition(name)
    record = full_marks(edition)
    alone = _results(record, tmp_path, name, None)
    total = sum(points for _, points in assignment_total(edition))
    assert sum(t["max_score"] for t in alone["tests"]) == total == alone["score"]
    course = tmp_path / "course"
    course.mkdir()
    (course / "course.toml").write_text(f'edition = "{name}"\ntimezone = "UTC"\n[deadlines]\n'
                                        'early = 2024-02-06T23:59:00\ndue = 2024-02-07T23:59:00\n', encoding="utf-8")
    (course / "roster.csv").write_text("id,name,email\nann,Ann Lee,ann@uni.edu\n", encoding="utf-8")
    (tmp_path / "submission_metadata.json").write_text(json.dumps({
        "id": 1, "created_at": "2024-02-01T10:00:00Z", "users": [{"name": "Ann Lee", "sid": "ann",
                                                                 "email": "ann@uni.edu"}]}), encoding="utf-8")
    applied = _results(record, tmp_path, name, course)
    parts = assignment_total(edition, course)
    total = sum(points for _, points in parts)
    assert round(sum(t["max_score"] for t in applied["tests"]), 2) == total == applied["score"]
    assert round(sum(t["score"] for t in applied["tests"]), 2) == total
    assert total == {"boar_brawl": 26, "pig_tail": 26, "more_boar": 25, "swine_swap": 2201, "pig": 16}[name]


# Run before run_autograder, in its process, which it then becomes: Landlock refused (see WITHOUT_LANDLOCK).
EXEC_WITHOUT_LANDLOCK = WITHOUT_LANDLOCK + """
import os, sys
os.execvp("bash", ["bash", sys.argv[1]])
"""


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("landlock", ["with_landlock", "without_landlock"])
def test_student_code_on_gradescopes_route_cannot_read_the_zips_reference(autograder, landlock):
    """Attack: the autograder zip ships solution/<edition>/hog.py (hidden cases run it for the problems
    they do not test), so boar_brawl looks for it where the zip was unpacked (by the autograder's
    path and by the real one) and answers with it.

    Guarantee, on Gradescope's route (run_autograder as root without CAP_SYS_ADMIN: no bubblewrap, no
    mount namespace), with Landlock and where a container's seccomp profile refuses Landlock (only
    setup.sh's closed modes and the child's own user id hide the reference then): the submission is
    graded and the stub scores 0 on Problem 02; never a point from the reference.
    """
    import sys

    root, names = autograder
    assert "solution/boar_brawl/hog.py" in names
    if os.geteuid() != 0 or shutil.which("capsh") is None:
        pytest.skip("Gradescope's route needs root and capsh to drop CAP_SYS_ADMIN")
    shipped = [root / "source" / "solution" / "boar_brawl" / "hog.py",
               (root / "source").resolve() / "solution" / "boar_brawl" / "hog.py"]
    assert all(p.is_file() for p in shipped)  # the grader (root) reads it: the stub's paths are right
    reference = reference_text()
    begin = reference.index("def boar_brawl(")
    end = reference.index("\ndef ", begin + 1)
    stub = reference[:begin] + REFERENCE_RUNNER.format(candidates=[str(p) for p in shipped]).strip() + \
        "\n\n" + reference[end:]
    script = str(root / "source" / "run_autograder")
    command = ["bash", script]
    if landlock == "without_landlock":
        command = [sys.executable, "-c", EXEC_WITHOUT_LANDLOCK, script]
    results = run_autograder(root, {"hog.py": stub},
                             ["capsh", "--drop=cap_sys_admin", "--", "-c", 'exec "$@"', "capsh", *command])
    # setup.sh closed the unpacked zip to other users, and root gives each child a user id of its own:
    # the child cannot read the kit, so the submission is graded (never refused) on either route.
    assert not results.get("extra_data", {}).get("kit_error"), json.dumps(results, indent=1)
    two = next(t for t in results["tests"] if t["number"] == "02")
    assert two["score"] == 0, two
    isolation = results["extra_data"]["isolation"]
    assert "limits only" in isolation and "kit hidden" in isolation, isolation
    if landlock == "without_landlock":
        assert "landlock: refused by the seccomp filter the grader runs under" in isolation, isolation
