"""The Gradescope autograder: built as a zip, run against a simulated /autograder tree."""

from __future__ import annotations

import json
import os
import subprocess
import zipfile

import pytest

from graders.edition import load_edition
from graders.gradescope import build_autograder


@pytest.fixture(scope="module")
def autograder(tmp_path_factory):
    root = tmp_path_factory.mktemp("autograder")
    archive = build_autograder(load_edition(), root / "autograder.zip")
    with zipfile.ZipFile(archive) as z:
        names = z.namelist()
        z.extractall(root / "source")
    return root, names


def test_the_zip_has_the_scripts_at_its_root_and_no_reference(autograder):
    _, names = autograder
    assert "setup.sh" in names and "run_autograder" in names
    assert "solution/boar_brawl/hog.py" not in names
    assert "solution/boar_brawl/dice.py" in names and "graders/gradescope.py" in names
    assert any(n.startswith("tests/boar_brawl/q05.generated") for n in names)


def run_autograder(root, submission_files: dict[str, str]) -> dict:
    submission = root / "submission"
    results = root / "results"
    for folder in (submission, results):
        if folder.exists():
            for p in folder.iterdir():
                p.unlink()
        folder.mkdir(exist_ok=True)
    for name, text in submission_files.items():
        (submission / name).write_text(text, encoding="utf-8")
    script = (root / "source" / "run_autograder").read_text().replace("cd /autograder/source", f"cd {root / 'source'}")
    env = {**os.environ, "AUTOGRADER_ROOT": str(root)}
    done = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads((results / "results.json").read_text(encoding="utf-8"))


def check_format(results: dict) -> None:
    assert isinstance(results["score"], int | float) and isinstance(results["execution_time"], int | float)
    for test in results["tests"]:
        assert isinstance(test["name"], str) and isinstance(test["number"], str)
        assert test["status"] in ("passed", "failed")
        assert test["visibility"] in ("visible", "after_published")
        assert isinstance(test["output"], str)


@pytest.mark.timeout(600)
def test_a_passing_submission(autograder):
    root, _ = autograder
    results = run_autograder(root, {"hog.py": (load_edition().solution_dir / "hog.py").read_text()})
    check_format(results)
    assert results["score"] == 25


@pytest.mark.timeout(600)
def test_a_failing_submission_under_another_name(autograder):
    root, _ = autograder
    results = run_autograder(root, {"my_hog.py": (load_edition().skeleton_dir / "hog.py").read_text()})
    check_format(results)
    assert results["score"] == 0
    hidden = [t for t in results["tests"] if t["visibility"] == "after_published"]
    assert hidden and all(t["max_score"] == 0 for t in hidden)


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


@pytest.mark.timeout(600)
def test_no_submission_still_writes_results(autograder):
    root, _ = autograder
    results = run_autograder(root, {})
    assert results["score"] == 0 and "Not graded" in results["output"]
