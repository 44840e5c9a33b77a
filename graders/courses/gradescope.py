"""Gradescope: the autograder zip, and the entry point it runs on Gradescope's workers.

Contract: :func:`build_autograder` writes a zip with ``setup.sh`` and ``run_autograder`` at its root,
the engine, and the edition's manifest, every case file (hidden ones included), support files and the
skeleton's digests of its stubs (``skeleton/<edition>/tests/skeleton.json``, so starter code scores as
on every other route);
never the reference ``hog.py`` unless a case is judged against it or runs it (see :func:`needs_reference`:
every edition's hidden cases run it today); ``setup.sh`` closes the unpacked zip to other users.
``run_autograder`` calls :func:`main`, which finds the submission under ``$AUTOGRADER_ROOT/submission``
(``/autograder`` on Gradescope), grades it with the same
engine as ``hogkit grade`` (student code isolated as :mod:`graders.sandboxing.isolation` decides on the
worker, which ``setup.sh`` gives bubblewrap), and writes ``results/results.json`` in Gradescope's format (see
:func:`graders.scoring.reports.render_gradescope`). Whatever the submission does, a results file is
written; a missing or unreadable submission gets a score of 0 with the reason.

With a course (``hogkit gradescope EDITION --course DIR``), the zip also holds the course folder's
``course.toml``, ``roster.csv`` and ``overrides.csv`` under ``course/``, and ``run_autograder`` applies
the course: it reads ``$AUTOGRADER_ROOT/submission_metadata.json`` (this submission's time, its
group, its previous submissions and the results written for them, see :mod:`graders.courses.handins`),
and gives the checkpoint by date, the early bonus, late days and overrides as ``hogkit grade
--course`` does, explained in the student's output (:func:`graders.courses.gradebook.course_results`).
Every results.json holds the kit's own grade in ``extra_data["hogkit"]``, so that a later
submission reads it back exactly.
"""

from __future__ import annotations

import json
import os
import sys
import zipfile
from pathlib import Path

from graders.authoring.mutants import RECORD_FILE
from graders.core import messages
from graders.core.records import ClassRecord
from graders.core.storage import write_atomically
from graders.courses import messages as courses_messages
from graders.courses.course import Course, Outcome, Result, Student
from graders.courses.policy import apply_policy, edition_course, phase_one_labels
from graders.courses.roster import Setup, load_setup
from graders.editions.edition import EDITIONS, SKELETON_DIGESTS, Edition, engine_modules, load_edition
from graders.editions.onefunction import ANSWERS_FILE
from graders.scoring import reports

ENGINE = Path(__file__).resolve().parents[1]

# What the engine imports on the worker: the analysis, notebooks, the children's seccomp filter.
REQUIREMENTS = "numpy>=1.26\nnbformat>=5.9\npyseccomp>=0.1.2\n"

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the image (Ubuntu). It leaves a Python of 3.11
# or newer in a virtual environment beside this file, holding what the engine imports (numpy for
# the strategy analysis, nbformat for notebooks handed in), bubblewrap for the sandbox, and this
# folder closed to every other user.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python=""
for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        python="$candidate"
        break
    fi
done
need=""
[ -n "$python" ] || need="python3.11 python3.11-venv"
command -v bwrap >/dev/null 2>&1 || need="$need bubblewrap"
if [ -n "$need" ]; then
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need
fi
[ -n "$python" ] || python=python3.11
"$python" -m venv "$here/.venv"
"$here/.venv/bin/python" -m pip install -q --disable-pip-version-check -r "$here/requirements.txt"
chmod -R go-rwx "$here"
# /autograder holds the submission, the results and (in source/) the kit: closed to every other user
# too, so that a child with a user id of its own reads none of it where no namespace can be had.
top="$(dirname "$here")"
if [ "$(basename "$top")" = autograder ]; then chmod go-rwx "$top"; fi
"""

# Gradescope copies this to /autograder/run_autograder and runs it for every submission.
RUN_AUTOGRADER = """#!/usr/bin/env bash
# Grades /autograder/submission into /autograder/results/results.json (AUTOGRADER_ROOT moves both).
# A results file is always left behind: when the engine cannot even start, one that says the
# submission could not be graded, which the staff see and regrade.
root="${{AUTOGRADER_ROOT:-/autograder}}"
python="$root/source/.venv/bin/python"
[ -x "$python" ] || python=python3
rm -f "$root/results/results.json"
if cd "$root/source" && "$python" -m graders.courses.gradescope --edition {edition} --root "$root"{course} \\
        && [ -s "$root/results/results.json" ]; then
    exit 0
fi
echo "run_autograder: the grader did not finish; writing a result that says so" >&2
mkdir -p "$root/results"
cat > "$root/results/results.json" <<'RESULTS'
{fallback}
RESULTS
"""


def fallback_results() -> str:
    """results.json for a submission the engine could not even start on: the kit's failure."""
    return json.dumps({
        "score": 0, "output": messages.kit_failed_gradescope(), "output_format": "md", "visibility": "visible",
        "tests": [{"name": messages.kit_failed_staff(courses_messages.grader_did_not_start(), 1), "score": 0,
                   "max_score": 0, "status": "failed", "output": courses_messages.grader_did_not_start(),
                   "visibility": "hidden"}],
        "extra_data": {"kit_error": True},
    }, indent=2)


COURSE_DIR = "course"  # the course folder's files, inside the autograder's source folder


def build_autograder(edition: Edition, out: Path, course: Path | None = None) -> Path:
    """Write the autograder zip for EDITION to OUT; with COURSE, a course folder (already checked),
    its files go in too and run_autograder applies it."""
    from graders.courses.course import COURSE_FILE, OVERRIDES_FILE, ROSTER_FILE

    out.parent.mkdir(parents=True, exist_ok=True)
    flag = f" --course {COURSE_DIR}" if course is not None else ""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        _add_text(archive, "setup.sh", SETUP_SH)
        _add_text(archive, "run_autograder", RUN_AUTOGRADER.format(edition=edition.name, fallback=fallback_results(),
                                                                   course=flag))
        for name in (COURSE_FILE, ROSTER_FILE, OVERRIDES_FILE):
            if course is not None and (course / name).is_file():
                _add_text(archive, f"{COURSE_DIR}/{name}", (course / name).read_text(encoding="utf-8-sig"), False)
        _add_text(archive, "requirements.txt", REQUIREMENTS, executable=False)
        for path in engine_modules(ENGINE):
            _add_file(archive, f"graders/{path.relative_to(ENGINE).as_posix()}", path)
        for path in sorted(edition.suite_dir.glob("*.toml")):
            if path.name != RECORD_FILE:  # the equivalent mutants' record quotes the reference's code
                _add_file(archive, f"{EDITIONS.as_posix()}/{edition.name}/{path.name}", path)
        answers = edition.suite_dir / ANSWERS_FILE  # the kit's answers to hidden cases' calls (values only)
        if answers.is_file():
            _add_file(archive, f"{EDITIONS.as_posix()}/{edition.name}/{ANSWERS_FILE}", answers)
        for path in _included_files(edition):
            _add_file(archive, path.relative_to(edition.root).as_posix(), path)
        for name in edition.support:
            _add_file(archive, f"solution/{edition.name}/{name}", edition.support_dir / name)
        stubs = edition.skeleton_dir / "tests" / SKELETON_DIGESTS  # starter code scores as on every route
        if stubs.is_file():
            _add_file(archive, stubs.relative_to(edition.root).as_posix(), stubs)
        if needs_reference(edition):  # read by the parent, or run beside a student's test in the sandbox
            _add_file(archive, f"solution/{edition.name}/{edition.submission}",
                      edition.solution_dir / edition.submission)
    return out


def assignment_total(edition: Edition, course: Path | None = None) -> list[tuple[str, float]]:
    """What the assignment's total on Gradescope is made of, as (what, points): the problems, the
    checkpoint (the edition's, or the course's points for it) and, with a course that has an early
    date, the early bonus. Their sum is the score of a submission that earns everything."""
    parts: list[tuple[str, float]] = [(courses_messages.TOTAL_PROBLEMS, float(sum(p.points for p in edition.problems)))]
    if course is None:
        if edition.checkpoint is not None and edition.checkpoint.points:
            parts.append((f"the {edition.checkpoint.label}", float(edition.checkpoint.points)))
        return parts
    return course_total(edition_course(load_setup(course, [p.label for p in edition.problems]).course, edition),
                        edition)


def course_total(course: Course, edition: Edition) -> list[tuple[str, float]]:
    """:func:`assignment_total` with COURSE (fitted to EDITION by
    :func:`graders.courses.course.edition_course`): the problems at the course's scale (Pig: 25
    points make 15), the course's checkpoint (the edition's when the file sets none) and its early bonus."""
    parts: list[tuple[str, float]] = [(courses_messages.TOTAL_PROBLEMS, round(edition.max_points * course.scale, 2))]
    if course.checkpoint_points > 0:
        parts.append((courses_messages.TOTAL_CHECKPOINT, course.checkpoint_points))
    if course.early is not None and course.early_points > 0:
        parts.append((courses_messages.TOTAL_EARLY, course.early_points))
    return parts


def needs_reference(edition: Edition) -> bool:
    """Whether some case of EDITION is judged against the reference (a test the student writes, a
    win rate) or runs it (a hidden case that reaches another problem's functions runs the reference's,
    see :mod:`graders.editions.onefunction`): the autograder then carries the reference, which the students
    never see."""
    from graders.editions import onefunction
    from graders.editions.cases import load_problem_cases

    cases = {p.label: load_problem_cases(edition, p.label) for p in edition.problems}
    if any(c.check is not None for its in cases.values() for c in its):
        return True
    ref = onefunction.reference(edition)
    functions = onefunction.problem_functions(edition)
    return ref is not None and any(
        onefunction.reached_problems(hidden, label, functions, ref.uses)
        for label, its in cases.items() if (hidden := [c for c in its if c.hidden]))


def _included_files(edition: Edition) -> list[Path]:
    """Case files of other editions that this edition's files bring in with [[include]]."""
    from graders.editions.cases import read_case_file

    found = set()
    for path in edition.suite_dir.glob("q*.toml"):
        for inc in read_case_file(path)["include"]:
            target = (path.parent / inc["file"]).resolve()
            if target.parent != edition.suite_dir.resolve():
                found.add(target)
    return sorted(found)


ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # every member's time: the same zip from the same kit, whenever it is built


def _add_text(archive: zipfile.ZipFile, name: str, text: str | bytes, executable: bool = True) -> None:
    """NAME in ARCHIVE holding TEXT, dated ZIP_TIME (no member carries a file's own time)."""
    info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    info.external_attr = (0o755 if executable else 0o644) << 16  # scripts executable, as Gradescope expects
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, text)


def _add_file(archive: zipfile.ZipFile, name: str, path: Path) -> None:
    _add_text(archive, name, path.read_bytes(), executable=False)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="run_autograder", description="Grade one Gradescope submission.")
    parser.add_argument("--edition", required=True, help="the edition the autograder was built for")
    parser.add_argument("--root", type=Path, default=Path(os.environ.get("AUTOGRADER_ROOT", "/autograder")),
                        help="the autograder's folder, holding submission/ and results/ "
                             "(default: $AUTOGRADER_ROOT, else /autograder)")
    parser.add_argument("--course", type=Path, metavar="DIR",
                        help="a course folder (course.toml, roster.csv, overrides.csv) to apply, with the times "
                             "in ROOT/submission_metadata.json")
    args = parser.parse_args(argv)
    root = args.root
    try:
        record = _grade_submission(root, args.edition)
        results = _results(record, root, args.edition, args.course)
    except Exception as exc:  # whatever happens, Gradescope gets a results file that says the kit failed
        import traceback

        from graders.core.records import EntryStatus
        from graders.scoring.grading import describe_failure

        record = ClassRecord(student="submission", status=EntryStatus.KIT_ERROR, traceback=traceback.format_exc(),
                             reason=courses_messages.kit_failed_on_gradescope(describe_failure(exc)))
        results = reports.render_gradescope(record)
    write_atomically(root / "results" / "results.json", json.dumps(results, indent=2))
    shown_max = record.report.max if record.report else record.max
    print(record.reason or messages.total_line(record.total, shown_max), file=sys.stderr)
    return 0


def _results(record: ClassRecord, root: Path, edition_name: str, course: Path | None) -> dict:
    """results.json for RECORD: the engine's, with the kit's own grade in ``extra_data["hogkit"]``
    and, with a COURSE folder, the course applied (see :func:`course_outcomes`)."""
    from graders.core.records import EntryStatus
    from graders.courses import gradebook
    from graders.courses.handins import record_result, results_extra

    results = reports.render_gradescope(record)
    if record.status == EntryStatus.KIT_ERROR:
        return results  # the kit's failure is never a grade, with or without a course
    edition = load_edition(edition_name, Path(__file__).resolve().parents[2])
    phase_one = _phase_one(edition)
    current = record_result(record.to_dict(cases="none"), phase_one)  # the record as JSON, as earlier results hold it
    if current is not None:
        results["extra_data"] = {**results.get("extra_data", {}), "hogkit": results_extra(current)}
    if course is None:
        return results
    setup, outcomes = course_outcomes(course, edition, current, root / AUTOGRADER_METADATA)
    bonus = sum(points for _, points in course_total(edition_course(setup.course, edition), edition)[1:])
    return gradebook.course_results(results, outcomes, bonus, current is not None)


AUTOGRADER_METADATA = "submission_metadata.json"


def _phase_one(edition: Edition) -> frozenset[str]:
    phase = edition.checkpoint.phase if edition.checkpoint else 1
    return phase_one_labels([(p.label, p.phase, p.points) for p in edition.problems], phase)


def course_outcomes(course: Path, edition: Edition, current: Result | None, metadata: Path
                    ) -> tuple[Setup, list[Outcome]]:
    """(the course setup, one outcome per submitter) for the submission being graded: its grade
    CURRENT (a :class:`graders.courses.course.Result`, None when it could not be graded: no attempt) at its
    ``created_at``, with every previous submission in METADATA, under the course in COURSE."""
    from graders.courses.handins import Metadata, metadata_attempts, read_submission_metadata

    setup = load_setup(course, [p.label for p in edition.problems])
    meta = read_submission_metadata(metadata, _phase_one(edition)) if metadata.is_file() else \
        Metadata("", None, (), ())
    attempts = metadata_attempts(meta, current) if current is not None else meta.previous
    students = [setup.roster.find(m.sid, m.email) or Student(m.sid or m.email or m.name, m.name, m.email,
                                                                on_roster=False) for m in meta.members]
    students = students or [Student("submission", on_roster=False)]
    fitted = edition_course(setup.course, edition)
    return setup, [apply_policy(fitted, s, attempts, setup.overrides) for s in students]


def _grade_submission(root: Path, edition_name: str) -> ClassRecord:
    """The record of the submission under ROOT, the kit's failures retried once."""
    from graders.courses.classroom import record_with_retry
    from graders.sandboxing import guard
    from graders.sandboxing.sandbox import Limits
    from graders.scoring.submissions import Entry, read_entry_noted

    edition = load_edition(edition_name, Path(__file__).resolve().parents[2])
    guard.require([edition])  # refused (a kit error, never a grade) where a child could read the kit
    folder = root / "submission"
    source, status, reason, notes = read_entry_noted(folder, edition.submission) if folder.is_dir() else (
        None, "missing", "", ())
    if status == "missing":  # said to the student who handed it in, not to an instructor at a terminal
        reason = courses_messages.nothing_handed_in(edition.submission)

    def theirs(text: str) -> str:  # the server's folder is nothing the student knows: their file as handed in
        return text.replace(f"{folder}/", "").replace(str(folder), courses_messages.YOUR_SUBMISSION)

    entry = Entry("submission", folder, source, status, theirs(reason), notes=tuple(theirs(n) for n in notes))
    record = record_with_retry(entry, edition, Limits(), worded=courses_messages.kit_failed_on_gradescope)
    return _in_notebook_terms(record, folder, edition.submission)


def _in_notebook_terms(record: ClassRecord, folder: Path, filename: str) -> ClassRecord:
    """RECORD, where a notebook was handed in, with every "hog.py line N" said as the notebook's
    code cell and line it comes from (the student never saw the hog.py made of its cells)."""
    import re

    from graders.scoring.submissions import cell_of_line, find_in_folder, notebook_cells, read_file

    found = find_in_folder(folder, filename) if folder.is_dir() else None
    if found is None or found.suffix != ".ipynb":
        return record
    try:
        cells = notebook_cells(read_file(found, 1 << 20))
    except OSError:
        return record
    if cells is None:
        return record
    pattern = re.compile(rf"\b{re.escape(filename)} line (\d+)")

    def where(match: re.Match) -> str:
        place = cell_of_line(cells, int(match.group(1)))
        return courses_messages.notebook_place(found.name, *place) if place else match.group(0)

    def walk(value: object) -> object:
        if isinstance(value, str):
            return pattern.sub(where, value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        return value

    data = walk(record.to_dict())
    return ClassRecord.from_dict(data) if isinstance(data, dict) else record


if __name__ == "__main__":
    sys.exit(main())
