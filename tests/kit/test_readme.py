"""The README's examples: every command of its ``sh`` blocks that can run offline runs, and exits as
the README says (0: the student's runner while everything it ran passed, every ``hogkit`` command that
succeeds). A synopsis line (``[--json]``, ``a|b``) runs as ``--help`` of its command. What cannot run
here is listed in SKIPPED with the reason, so a new example must be run or explained."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders.cli import main as hogkit
from graders.editions.edition import kit_root, load_edition

from .conftest import unlock_everything

BLOCK = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)

# Commands that cannot run in a test, by how they start, and why.
SKIPPED = {
    "pip install": "installs packages (the test runs inside the installed kit already)",
    "python3 -m pytest": "the test suite itself",
    "python3 hog_gui.py": "a web server that runs until it is stopped (tests/kit/test_webgui.py runs it)",
    "hogkit play": "a web server that runs until it is stopped (tests/kit/test_webgui.py runs it)",
    "hogkit mutants --edition": "minutes of work (tests/kit/test_mutants.py runs it on a sample)",
    "hogkit mutants -q": "minutes of work (tests/kit/test_mutants.py runs it on a sample)",
}


def readme_commands() -> list[tuple[int, str]]:
    """(line, command) for every command of the README's sh blocks, comments left out, ``&&`` split."""
    text = (kit_root() / "README.md").read_text(encoding="utf-8")
    found = []
    for block in BLOCK.finditer(text):
        first = text.count("\n", 0, block.start()) + 2
        for k, line in enumerate(block.group(1).splitlines()):
            code = re.sub(r"\s+#\s.*$", "", line).strip()
            found += [(first + k, part.strip()) for part in code.split("&&") if part.strip()]
    return found


def skipped(command: str) -> str | None:
    return next((why for start, why in SKIPPED.items() if command.startswith(start)), None)


def test_the_readme_has_runnable_examples() -> None:
    commands = readme_commands()
    assert len(commands) >= 20
    assert sum(skipped(c) is None for _line, c in commands) >= 20  # most of them run


@pytest.fixture
def places(tmp_path: Path) -> dict[str, str]:
    """What the README's placeholders stand for: real files, a small class, outputs in TMP_PATH."""
    edition = load_edition()
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copyfile(edition.solution_dir / "hog.py", klass / "ada.py")
    shutil.copyfile(edition.skeleton_dir / "hog.py", klass / "bob.py")
    return {"path/to/hog.py": str(edition.solution_dir / "hog.py"), "path/to/student": str(edition.solution_dir),
            "CLASSDIR": str(klass), "OUTDIR": str(tmp_path / "out"), "EDITION": edition.name,
            "DIR": str(tmp_path / "bundle"), "ZIP": str(tmp_path / "autograder.zip")}


@pytest.mark.slow
def test_every_hogkit_example_runs_and_succeeds(places: dict[str, str], tmp_path: Path, monkeypatch,
                                                capsys) -> None:
    monkeypatch.chdir(tmp_path)  # outputs named in the README (hog-project, autograder.zip) land here
    failures = []
    for line, command in readme_commands():
        if not command.startswith("hogkit") or skipped(command):
            continue
        words = shlex.split(command)[1:]
        if any("[" in w or "|" in w for w in words):  # a synopsis: its command's help
            words = [words[0], "--help"]
        words = [places.get(w, w) for w in words]
        if words[0] == "build":
            monkeypatch.chdir(kit_root())
        try:
            status = hogkit(words)
        except SystemExit as exc:  # --help
            status = exc.code if isinstance(exc.code, int) else 1
        finally:
            monkeypatch.chdir(tmp_path)
        out = capsys.readouterr()
        if status != 0:
            failures.append(f"README line {line}: {command} exited {status}: {out.err[-300:]}")
    assert not failures, "\n".join(failures)


@pytest.mark.slow
def test_every_student_example_runs_in_a_finished_project(tmp_path: Path) -> None:
    """The student loop's commands, in the README's order, in a project whose work is done: each
    exits 0 as the README says of a run where everything passed."""
    edition = load_edition()
    project = tmp_path / "hog"
    shutil.copytree(edition.skeleton_dir, project)
    shutil.copyfile(edition.solution_dir / "hog.py", project / "hog.py")
    unlock_everything(project)
    failures = []
    for line, command in readme_commands():
        if not command.startswith("python3 ok") or skipped(command):
            continue
        done = subprocess.run([sys.executable, *shlex.split(command)[1:]], cwd=project, input="", capture_output=True,
                              text=True, timeout=300, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(kit_root())})
        if done.returncode != 0:
            failures.append(f"README line {line}: {command} exited {done.returncode}: {done.stderr[-300:]}")
    assert not failures, "\n".join(failures)
    assert (project / "hog_submission.zip").is_file()  # the last example packs the hand-in
