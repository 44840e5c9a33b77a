"""The Pythons students have: everything a student runs keeps to Python 3.9, and says so on older ones.

The student's runner (``python3 ok``), ``hog_gui.py``, the student files and the engine modules the
bundle ships are checked with vermin (a static checker of the minimum Python version), and the
released bundle is run on the oldest interpreter this machine has (Python 3.9 where it is
installed, as under CI). An interpreter older than 3.9 gets one line naming the version needed.
"""

from __future__ import annotations

import ast
import functools
import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders.authoring import bundle
from graders.authoring import messages as authoring_messages
from graders.authoring.bundle import STUDENT_MODULES, engine_imports, release
from graders.editions.edition import edition_names, load_edition

from .. import scanner
from ..conftest import unlock_everything

OLDEST = (3, 9)


@functools.cache
def interpreters() -> dict[tuple[int, int], str]:
    """{(major, minor): a python executable} for every CPython 3 this machine has on PATH or in pyenv
    (each one asked for its version once per test process)."""
    found: dict[tuple[int, int], str] = {}
    candidates = [shutil.which(f"python3.{minor}") for minor in range(6, 14)]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3")))
    for path in filter(None, candidates):
        try:
            done = subprocess.run([path, "-c", "import sys; print(sys.version_info[0], sys.version_info[1])"],
                                  capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0 and done.stdout.split():
            major, minor = (int(x) for x in done.stdout.split())
            found.setdefault((major, minor), path)
    found.setdefault(sys.version_info[:2], sys.executable)
    return found


def student_sources() -> list[Path]:
    files = [bundle.ENGINE / f"{name}.py" for name in STUDENT_MODULES]
    for name in edition_names():
        edition = load_edition(name)
        files += [edition.skeleton_dir / f for f in (*edition.student_files, "ok")]
    return files


def test_what_a_student_runs_keeps_to_python_3_9():
    vermin = shutil.which("vermin") or str(Path(sys.executable).with_name("vermin"))
    assert Path(vermin).exists(), "vermin is a dev dependency: pip install -e '.[dev]'"
    done = subprocess.run([vermin, "-t=3.9-", "--violations", "--no-tips", "--eval-annotations", "-p=1",
                           *map(str, student_sources())], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def imports_at_any_level() -> dict[str, set[str]]:
    """{shipped module: the engine modules it imports, at its top level or inside a function}."""
    return {name: engine_imports(name, top_level_only=False) for name in STUDENT_MODULES}


def test_the_bundle_ships_exactly_its_modules_and_they_import_nothing_else(imports_at_any_level):
    """What the shipped folders import at module level ships too (tests/kit/whole/test_shape.py holds the folders,
    the imports made inside functions and pyproject's Python 3.9 target)."""
    for name in STUDENT_MODULES:
        assert engine_imports(name) <= set(STUDENT_MODULES), name
    # Nothing a student runs reaches an instructor-only module, not even inside a function: the game
    # (exact win rates, the page's meter) is handed in by the instructor's side (graders.games.game).
    beyond = {name: imports_at_any_level[name] - set(STUDENT_MODULES) for name in STUDENT_MODULES}
    assert {k: v for k, v in beyond.items() if v} == {}


def test_no_student_module_reaches_an_instructor_module_at_any_level(imports_at_any_level):
    """Imports at any depth, ``import graders.x``, and strings naming an engine module (importlib's,
    ``__import__``'s), as the shared scanner finds them: a module the bundle ships reaches only modules
    the bundle ships. (Docstrings and comments naming a module are prose, not reach.)"""
    shipped = set(STUDENT_MODULES)
    for name in STUDENT_MODULES:
        reached = imports_at_any_level[name] | scanner.imports(scanner.module(name).tree)
        assert reached <= shipped, (name, sorted(reached - shipped))


def test_the_reach_test_sees_an_importlib_string(tmp_path):
    tree = ast.parse('import importlib\ndef f():\n    return importlib.import_module("graders.games.analysis")\n')
    assert scanner.imports(tree) == {"games/analysis"}
    assert scanner.imports(ast.parse("import graders.games.tactics\n")) == {"games/tactics"}


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_bundle_runs_on_the_oldest_python_at_hand(tmp_path, edition, record_property):
    version, python = min((v, p) for v, p in interpreters().items() if v >= OLDEST)
    record_property("python", f"{version[0]}.{version[1]}")  # the version it ran on, in the test report
    out = tmp_path / "bundle"
    release(edition, out)
    shutil.copyfile(edition.solution_dir / edition.submission, out / edition.submission)
    unlock_everything(out)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    done = subprocess.run([python, "ok", "--score"], cwd=out, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, f"Python {version}: {done.stderr}"
    assert f"Total: {edition.max_points}/{edition.max_points}" in done.stdout, f"Python {version}: {done.stdout}"


@pytest.mark.slow
@pytest.mark.parametrize("program", ["ok", "hog_gui.py"])
def test_an_older_python_gets_one_line_naming_the_version_needed(program, edition):
    older = {v: p for v, p in interpreters().items() if v < OLDEST}
    if not older:
        pytest.skip("no Python older than 3.9 on this machine")
    version, python = max(older.items())
    full = subprocess.run([python, "-c", "import sys; print(sys.version.split()[0])"], capture_output=True,
                          text=True, timeout=60).stdout.strip()
    done = subprocess.run([python, program], cwd=edition.skeleton_dir, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    lines = done.stderr.strip().split("\n")
    assert len(lines) == 1 and "needs Python 3.9 or newer" in lines[0] and f"this is Python {full}" in lines[0]
    if program == "ok":
        assert lines[0] == authoring_messages.python_too_old("ok") % full
