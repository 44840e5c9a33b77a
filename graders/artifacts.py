"""Build: everything generated from an edition's sources, written or checked for freshness.

Contract: ``generated cases`` come from the solution and the ``[[generate]]`` templates;
``skeleton/<edition>/`` comes from the marked solution, the support files, the manifest and the
case files (public cases only, unlock answers as salted hashes). :func:`stale_files` lists every
file that differs from what a build would write, which is what the freshness test and
``hogkit build --check`` report. Nothing here is edited by hand.
"""

from __future__ import annotations

from pathlib import Path

from graders import tomlw
from graders.cases import load_problem_cases, load_questions, render_steps
from graders.edition import Edition
from graders.locking import lock_question
from graders.markers import strip_solutions
from graders.templates import generated_files

LAUNCHER = '''#!/usr/bin/env python3
"""Unlock questions, run tests and check your score for this project.

    python3 ok -q 01 -u     unlock problem 01's questions
    python3 ok -q 01        run problem 01's tests
    python3 ok -q 01 -i     ... and explore in Python when a test fails
    python3 ok --score      points per phase
    python3 ok --help       everything else
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The engine ships beside this file in a student bundle, or two folders up inside the kit.
for place in (HERE, os.path.join(HERE, os.pardir, os.pardir)):
    if os.path.isdir(os.path.join(place, "graders")):
        sys.path.insert(0, os.path.abspath(place))
        break

from graders.student import main  # noqa: E402

sys.exit(main(HERE))
'''

STUDENT_HEADER = (
    "The tests of problem {label} for your project folder: do not edit.\n"
    "Unlock the questions with `python3 ok -q {label} -u`, then run `python3 ok -q {label}`."
)


def student_suite(edition: Edition, number: int) -> str:
    """Problem NUMBER's file in the student copy: public cases in the clear, questions locked."""
    cases = [
        {"name": c.name, "transcript": render_steps(c.steps) + "\n"}
        for c in load_problem_cases(edition, number)
        if not c.hidden
    ]
    locked = [lock_question(edition.name, q) for q in load_questions(edition, number)]
    doc: dict = {"problem": number}
    if cases:
        doc["case"] = cases
    if locked:
        doc["locked"] = locked
    return tomlw.dumps(doc, STUDENT_HEADER.format(label=f"{number:02d}"))


def skeleton_files(edition: Edition) -> dict[str, str]:
    """``{relative path: text}`` of ``skeleton/<edition>/``."""
    files: dict[str, str] = {}
    for name in edition.extra.get("student_files", [edition.submission]):
        text = (edition.solution_dir / name).read_text(encoding="utf-8")
        files[name] = strip_solutions(text) if name == edition.submission else text
    files["ok"] = LAUNCHER
    manifest = (edition.suite_dir / "edition.toml").read_text(encoding="utf-8")
    files["tests/edition.toml"] = f'name = "{edition.name}"\n' + manifest
    for p in edition.problems:
        files[f"tests/q{p.number:02d}.toml"] = student_suite(edition, p.number)
    return files


def expected_files(edition: Edition) -> dict[Path, str]:
    out = {edition.suite_dir / name: text for name, text in generated_files(edition).items()}
    # The skeleton's suites include the generated public cases, so write those first (see build).
    return out


def build(edition: Edition, write: bool = True) -> list[Path]:
    """Regenerate; return the files that were (or, with ``write=False``, would be) changed."""
    changed: list[Path] = []
    for path, text in expected_files(edition).items():
        changed += _put(path, text, write)
    if not write and changed:
        # The skeleton depends on the generated cases; judge it against the files as they should be.
        return changed + [edition.skeleton_dir]
    for rel, text in skeleton_files(edition).items():
        changed += _put(edition.skeleton_dir / rel, text, write)
    return changed


def stale_files(edition: Edition) -> list[Path]:
    return build(edition, write=False)


def _put(path: Path, text: str, write: bool) -> list[Path]:
    try:
        if path.read_text(encoding="utf-8") == text:
            return []
    except OSError:
        pass
    if write:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if path.name == "ok":
            path.chmod(0o755)
    return [path]
