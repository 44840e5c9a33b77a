"""Build: everything generated from an edition's sources, written or checked for freshness.

Contract: ``generated cases`` come from the solution and the ``[[generate]]`` templates;
``skeleton/<edition>/`` comes from the marked solution, the support files, the manifest and the
case files (public cases only, unlock answers as salted hashes). :func:`stale_files` lists every
file that differs from what a build would write, which is what the freshness test and
``hogkit build --check`` report. Nothing here is edited by hand.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import time
from pathlib import Path

from graders.authoring import messages as authoring_messages
from graders.authoring.templates import generated_files
from graders.core import messages
from graders.editions.cases import load_problem_cases, load_questions, render_steps
from graders.editions.edition import SKELETON_DIGESTS, STUDENT_MANIFEST, Edition, read_toml
from graders.editions.locking import lock_question
from graders.editions.markers import block_digests, strip_solutions
from graders.editions.onefunction import ANSWERS_FILE, read_answers, recording_kit
from graders.sandboxing.answers import answers_key
from graders.sandboxing.sandbox import Limits, record_answers

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

if sys.version_info < (3, 9):  # said in one line, before anything newer is read
    sys.exit({too_old!r} % sys.version.split()[0])

HERE = os.path.dirname(os.path.abspath(__file__))
# The engine ships beside this file in a student bundle, or two folders up inside the kit.
for place in (HERE, os.path.join(HERE, os.pardir, os.pardir)):
    if os.path.isdir(os.path.join(place, "graders")):
        sys.path.insert(0, os.path.abspath(place))
        break

try:
    from graders.runner.student import main
except ImportError:
    sys.exit({missing!r})

sys.exit(main(HERE))
'''

def student_suite(edition: Edition, key: int | str) -> str:
    """Problem KEY's file (KEY a label or a number) in the student copy, as JSON (which every Python
    the bundle supports reads): public cases in the clear, questions locked."""
    cases = []
    for c in load_problem_cases(edition, key):
        if not c.hidden and c.check is None:  # other kinds need the kit's reference: graded by the kit alone
            cases.append({"id": c.id, "name": c.name, "transcript": render_steps(c.steps) + "\n",
                          **({"rule": c.rule} if c.rule else {}), **({"advice": True} if c.advice else {})})
    locked = [lock_question(edition.name, q) for q in load_questions(edition, key)]
    problem = edition.problem(key)
    doc: dict = {"comment": authoring_messages.student_suite_header(problem.label), "problem": problem.number}
    if any(c.check is not None for c in load_problem_cases(edition, key)):
        doc["kit_only"] = messages.graded_by_the_kit(problem.label)
    if cases:
        doc["case"] = cases
    if locked:
        doc["locked"] = locked
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def skeleton_files(edition: Edition) -> dict[str, str]:
    """``{relative path: text}`` of ``skeleton/<edition>/``: its case data as JSON."""
    files: dict[str, str] = {}
    for name in edition.student_files:
        text = (edition.solution_dir / name).read_text(encoding="utf-8")
        files[name] = strip_solutions(text) if name == edition.submission else text
    files["ok"] = (LAUNCHER.replace("{missing!r}", repr(authoring_messages.engine_missing()))
                   .replace("{too_old!r}", repr(authoring_messages.python_too_old("ok"))))
    manifest = {"name": edition.name, **read_toml(edition.suite_dir / "edition.toml")}
    files[f"tests/{STUDENT_MANIFEST}"] = json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"
    for p in edition.problems:
        files[f"tests/q{p.label}.json"] = student_suite(edition, p.label)
    stubs = {"comment": authoring_messages.skeleton_digests_header(edition.submission),
             "stubs": block_digests(files[edition.submission])}
    files[f"tests/{SKELETON_DIGESTS}"] = json.dumps(stubs, indent=1, ensure_ascii=False) + "\n"
    return files


def build(edition: Edition, write: bool = True) -> list[Path]:
    """Regenerate; return the files that were (or, with ``write=False``, would be) changed or removed.

    Files a build would not write (a generated case file whose templates are gone, a skeleton file
    of a removed problem) are removed, so nothing stale is ever graded.
    """
    generated = {edition.suite_dir / name: text for name, text in generated_files(edition).items()}
    changed = [p for path, text in generated.items() for p in _put(path, text, write)]
    changed += _prune(set(edition.suite_dir.glob("q*.generated.toml")) - set(generated), write)
    if not write and changed:
        # The skeleton holds the generated public cases; judge it once they are up to date.
        return changed + [edition.skeleton_dir]
    skeleton = {edition.skeleton_dir / rel: text for rel, text in skeleton_files(edition).items()}
    changed += [p for path, text in skeleton.items() for p in _put(path, text, write)]
    present = {
        p for p in edition.skeleton_dir.rglob("*")
        if p.is_file() and not any(part.startswith(".") or part == "__pycache__"
                                   for part in p.relative_to(edition.skeleton_dir).parts)
    }
    changed += _prune(present - set(skeleton), write)
    return changed + _put_answers(edition.suite_dir / ANSWERS_FILE, kit_answers(edition), write)


RECORDING_SECONDS = 300.0  # for every hidden case of an edition together


def kit_answers(edition: Edition) -> dict | None:
    """The answers the kit's functions give to the calls the reference makes in each hidden case
    ({"kit": what they hold for, "hidden": the digest of every hidden case, "cases": [[setup,
    steps, answers as text]]}, the cases with none left out): a student's child of such a case
    finds them there instead of asking the kit's own child call by call (see
    graders.sandboxing.sandbox.seed_answers). Recorded on the reference in a kit's child, unless
    the edition's file already holds them for this very kit and these very cases. None when no
    case has any."""
    kit = recording_kit(edition)
    if kit is None:
        return None
    cases = list(dict.fromkeys(
        (c.setup, tuple(s.source for s in c.steps)) for problem in edition.problems
        for c in load_problem_cases(edition, problem.label)
        if c.hidden and c.check is None and c.runs_in != "reference"))
    key = answers_key(kit, edition.module, edition.game.dice)
    hidden = hashlib.sha256(json.dumps(cases).encode("utf-8")).hexdigest()
    kept = read_answers(edition.suite_dir / ANSWERS_FILE)
    if kept is not None and kept.get("kit") == key and kept.get("hidden") == hidden:
        return kept
    recorded = record_answers(kit, edition.module, edition.game.dice, Limits(), cases,
                              time.monotonic() + RECORDING_SECONDS)
    compact = (",", ":")
    found = [[setup, list(steps), json.dumps(answers, sort_keys=True, separators=compact, ensure_ascii=False)]
             for (setup, steps), answers in zip(cases, recorded, strict=True) if answers]
    return {"kit": key, "hidden": hidden, "cases": found} if found else None


def _put_answers(path: Path, answers: dict | None, write: bool) -> list[Path]:
    """Write ANSWERS to PATH (compressed), or remove PATH when there are none; [PATH] when it changed."""
    if answers is None:
        return _prune({path}, write) if path.exists() else []
    if read_answers(path) == answers:
        return []
    if write:
        text = json.dumps(answers, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        path.write_bytes(lzma.compress(text.encode("utf-8"), preset=9))
    return [path]


def _prune(extra: set[Path], write: bool) -> list[Path]:
    if write:
        for path in extra:
            path.unlink()
    return sorted(extra)


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
