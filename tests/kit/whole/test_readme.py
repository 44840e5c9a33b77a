"""The examples of the README and of ``docs/``: every command of their ``sh`` blocks that can run
offline runs, and exits as the page says (0: the student's runner while everything it ran passed,
every ``hogkit`` command that succeeds). A synopsis line (``[--json]``, ``a|b``) runs as ``--help`` of
its command. What cannot run here is listed in SKIPPED with the reason, so a new example must be run
or explained. (The docs' ``bash`` blocks are the Slurm script, run on a Slurm cluster by
tests/kit/courses/test_slurm.py; their ``yaml`` blocks, the Kubernetes manifests, are checked by
tests/kit/courses/test_kubernetes.py.) The README stays a front door (at most 150 lines, a link to
every page), and the pages build into a site with no broken link (``mkdocs build --strict``)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders.cli import main as hogkit
from graders.editions.edition import kit_root, load_edition

from ..conftest import unlock_everything

BLOCK = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)

# Commands that cannot run in a test, by how they start, and why.
SKIPPED = {
    "pip install": "installs packages (the test runs inside the installed kit already)",
    "python3 -m build": "builds the sdist and the wheel (.ci/run does, installs it and runs it from an empty folder)",
    "python3 -m pytest": "the test suite itself",
    "python3 hog_gui.py": "a web server that runs until it is stopped (tests/kit/gui/test_webgui.py runs it)",
    "hogkit play": "a web server that runs until it is stopped (tests/kit/gui/test_webgui.py runs it)",
    "hogkit mutants --edition": "minutes of work (tests/kit/authoring/test_mutants.py runs it on a sample)",
    "hogkit mutants -q": "minutes of work (tests/kit/authoring/test_mutants.py runs it on a sample)",
}


def pages() -> list[Path]:
    """The README and every page of docs/, in that order."""
    return [kit_root() / "README.md", *sorted((kit_root() / "docs").glob("*.md"))]


def readme_commands() -> list[tuple[str, str]]:
    """(where, command) for every command of the sh blocks of the README and docs/ (where: the file
    and line), comments left out, ``&&`` split."""
    found = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for block in BLOCK.finditer(text):
            first = text.count("\n", 0, block.start()) + 2
            for k, line in enumerate(block.group(1).splitlines()):
                code = re.sub(r"\s+#\s.*$", "", line).strip()
                found += [(f"{page.relative_to(kit_root())}:{first + k}", part.strip())
                          for part in code.split("&&") if part.strip()]
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
            failures.append(f"{line}: {command} exited {status}: {out.err[-300:]}")
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
            failures.append(f"{line}: {command} exited {done.returncode}: {done.stderr[-300:]}")
    assert not failures, "\n".join(failures)
    assert (project / "hog_submission.zip").is_file()  # the last example packs the hand-in


def test_the_readme_is_a_front_door_with_a_link_to_every_page() -> None:
    """At most 150 lines: what the kit is, the two commands, the three loops, the editions, where
    things live, and a link to every page of docs/, each of which the site's navigation lists."""
    readme = (kit_root() / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    assert readme.count("```sh\npip install") == 2  # the quick start's two commands
    documented = sorted(p.name for p in (kit_root() / "docs").glob("*.md"))
    assert len(documented) >= 10
    assert [name for name in documented if name != "index.md" and f"(docs/{name})" not in readme] == []
    site = (kit_root() / "mkdocs.yml").read_text(encoding="utf-8")
    assert [name for name in documented if f" {name}" not in site] == []


def test_the_docs_build_into_a_site_with_no_broken_link(tmp_path: Path) -> None:
    """``mkdocs build --strict`` (Material theme): a link or an image to a page or file that is not
    there fails the build."""
    pytest.importorskip("mkdocs", reason="the dev extras install mkdocs (pip install -e '.[dev]')")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=kit_root(), capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    site = tmp_path / "site"
    assert (site / "img" / "hog_gui.png").is_file() and (site / "judging" / "index.html").is_file()
