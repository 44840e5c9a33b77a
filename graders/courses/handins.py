"""Handins: each hand-in's time and submitters, from where they really are, and whose attempts they are.

Contract. A :class:`Handin` is one thing graded once (a class folder's entry, an export's
``submission_<id>`` folder, the submission the autograder is running on): its key, its time and
its submitters. Three sources give them, each read without trusting its content:

- **Gradescope's autograder**, ``/autograder/submission_metadata.json``, documented by Gradescope
  ("Submission Metadata" in its autograder docs). :func:`parse_submission_metadata` reads exactly
  these fields: ``id`` (the submission), ``created_at`` (its time, ISO 8601 with an offset),
  ``users`` (the group members: each ``name``, ``email``, ``sid``), ``assignment`` (``due_date``,
  ``late_due_date``, ``title``; informational, the course file decides deadlines) and
  ``previous_submissions`` (each ``submission_time``, ``score`` and ``results``: the results.json the
  autograder wrote for it). A previous submission's grade comes from ``results["extra_data"]["hogkit"]``
  when this kit wrote it there (:func:`results_extra`), else from its ``tests`` (a test whose
  ``number`` is a problem label, such as ``"05"``, with its ``score`` and ``max_score``).
- **Gradescope's "export submissions"** folder: ``submission_metadata.yml`` at its root maps each
  ``submission_<id>`` folder to ``:submitters:`` (``:name:``, ``:sid:``, ``:email:``) and
  ``:created_at:``; a ``:history:`` entry (``:id:``, ``:created_at:``) whose folder is in the export
  is a hand-in too. Read by :mod:`graders.courses.yamlsubset`.
- **A plain class folder**: an entry's time is its row in ``times.csv`` (``id``, ``time``, and an
  optional ``student`` when several entries are one student's hand-ins), else the modification time
  of its submission file.

:func:`group_attempts` turns hand-ins and their grading results into each student's attempts: a
hand-in counts for every submitter and, when the course allows partners, for each one's roster
partner; both partners get rows, the hand-in is graded once. Everyone on the roster gets an entry
(with no attempts if they handed in nothing) and a submitter not on the roster is kept, never dropped.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from graders.courses import messages as courses_messages
from graders.courses import yamlsubset
from graders.courses.course import Attempt, CourseError, Result, Roster, Student, parse_timestamp
from graders.courses.policy import result_from_scores
from graders.courses.roster import read_table
from graders.scoring.submissions import walk_files

EXPORT_METADATA = "submission_metadata.yml"
AUTOGRADER_METADATA = "submission_metadata.json"
TIMES_FILE = "times.csv"
MOST_METADATA_BYTES = 64 * 1024 * 1024
_LABEL = re.compile(r"\d{2,3}")


@dataclass(frozen=True)
class Member:
    """A submitter as Gradescope names them."""

    name: str = ""
    email: str = ""
    sid: str = ""


FILE_TIME = "file time"  # a Handin's time taken from its file, which the student's own archive can set


@dataclass(frozen=True)
class Handin:
    key: str  # what was graded once: a class folder's entry, an export's submission_<id>
    time: datetime  # aware
    members: tuple[Member, ...]
    path: Path | None = None  # its files, when they are at hand
    how: str = ""  # where its time came from: created_at, times.csv, FILE_TIME


@dataclass(frozen=True)
class Metadata:
    """``submission_metadata.json`` as the autograder sees it."""

    submission: str
    created_at: datetime | None
    members: tuple[Member, ...]
    previous: tuple[Attempt, ...]
    due_date: datetime | None = None
    late_due_date: datetime | None = None
    title: str = ""


@dataclass(frozen=True)
class Export:
    handins: tuple[Handin, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class StudentAttempts:
    student: Student
    attempts: tuple[Attempt, ...]  # in time order
    shared_with: tuple[str, ...] = ()  # the ids whose hand-ins these also are
    handins: tuple[str, ...] = ()  # the keys of every hand-in that is theirs, graded or not, in time order


# -- Gradescope's autograder ---------------------------------------------------------------------------


def read_submission_metadata(path: Path, phase_one: Collection[str] = ()) -> Metadata:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CourseError(courses_messages.course_error(
            str(path), "", courses_messages.unreadable_file(str(exc)))) from exc
    return parse_submission_metadata(data, phase_one)


def parse_submission_metadata(data: object, phase_one: Collection[str] = ()) -> Metadata:
    """The fields of ``submission_metadata.json`` the course needs; anything missing or of the
    wrong type is left out rather than fatal. PHASE_ONE names the problems Phase 1 needs."""
    data = data if isinstance(data, dict) else {}
    found = data.get("assignment")
    assignment: dict = found if isinstance(found, dict) else {}
    previous: list[Attempt] = []
    for entry in _dicts(data.get("previous_submissions")):
        when = _time(entry.get("submission_time"))
        given = entry.get("results")
        results: dict = given if isinstance(given, dict) else {}
        result = result_from_results(results, phase_one, entry.get("score"))
        if when is not None and result is not None:
            previous.append(result.at(when, f"previous {len(previous) + 1}"))
    return Metadata(str(data.get("id", "")), _time(data.get("created_at")), _members(data.get("users")),
                    tuple(sorted(previous, key=lambda a: a.time.astimezone(UTC))), _time(assignment.get("due_date")),
                    _time(assignment.get("late_due_date")), str(assignment.get("title") or ""))


def metadata_attempts(meta: Metadata, current: Result, now: datetime | None = None) -> tuple[Attempt, ...]:
    """Every attempt the autograder knows of: the previous submissions and the one being graded
    (CURRENT, at ``created_at``, else NOW, else the present moment)."""
    when = meta.created_at or now or datetime.now(UTC)
    return (*meta.previous, current.at(when, meta.submission or "current"))


def results_extra(result: Result) -> dict[str, Any]:
    """What the autograder puts in results.json's ``extra_data["hogkit"]``, so that a later
    submission reads this one's grade back exactly."""
    return {"phase1_complete": result.phase1_complete, "total": result.total, "max": result.max,
            "problems": {label: score for label, score in result.problems}}


def result_from_results(results: Mapping[str, Any], phase_one: Collection[str] = (),
                        score: object = None) -> Result | None:
    """A previous submission's grade, from the results.json the autograder wrote for it; None
    when it holds none (a submission that could not be graded counts as no attempt)."""
    extra = results.get("extra_data")
    mine = extra.get("hogkit") if isinstance(extra, dict) else None
    if isinstance(mine, dict) and isinstance(mine.get("problems"), dict):
        problems = tuple((str(k), _number(v)) for k, v in mine["problems"].items())
        return Result(mine.get("phase1_complete") is True, _number(mine.get("total")), _number(mine.get("max")),
                      problems)
    tests = [t for t in _dicts(results.get("tests")) if _LABEL.fullmatch(str(t.get("number", "")))]
    if not tests:
        return None
    scores = {str(t["number"]): _number(t.get("score")) for t in tests}
    maxima = {str(t["number"]): _number(t.get("max_score")) for t in tests}
    complete = bool(phase_one) and all(label in scores and scores[label] >= maxima[label] for label in phase_one)
    return Result(complete, sum(scores.values()), sum(maxima.values()), tuple(scores.items()))


def _dicts(value: object) -> list[dict]:
    return [x for x in value if isinstance(x, dict)] if isinstance(value, list) else []


def _number(value: object) -> float:
    if isinstance(value, bool):
        return 0.0
    if isinstance(value, (int, float)):
        return float(value) if value == value else 0.0
    try:
        return float(str(value))
    except ValueError:
        return 0.0


def _time(value: object, zone: ZoneInfo | None = None) -> datetime | None:
    return parse_timestamp(value, zone) if isinstance(value, str) else None


def _members(value: object) -> tuple[Member, ...]:
    return tuple(Member(str(u.get("name") or ""), str(u.get("email") or ""), str(u.get("sid") or ""))
                 for u in _dicts(value))


# -- Gradescope's export --------------------------------------------------------------------------------


def read_export(folder: Path, zone: ZoneInfo | None = None) -> Export:
    """Every hand-in of a Gradescope export (FOLDER, or the one folder inside it holding
    ``submission_metadata.yml``). A ``submission_<id>`` folder the metadata does not name is kept,
    with its folder's time and a note; a metadata entry without a time is noted and left out."""
    root = export_root(folder)
    text = _read_small(root / EXPORT_METADATA)
    try:
        data = yamlsubset.load(text)
    except ValueError as exc:
        raise CourseError(courses_messages.course_error(str(root / EXPORT_METADATA), "", str(exc))) from exc
    data = data if isinstance(data, dict) else {}
    handins: dict[str, Handin] = {}
    notes: list[str] = []
    for key, entry in data.items():
        if not (isinstance(entry, dict) and re.fullmatch(r"submission_\d+", str(key))):
            continue
        members = _members(entry.get("submitters"))
        history = [(f"submission_{h.get('id')}", h) for h in _dicts(entry.get("history"))]
        for name, item in [(str(key), entry), *history]:
            when = _time(item.get("created_at") or item.get("submission_time"), zone)
            path = root / name
            if name in handins or not _is_folder(path):
                continue
            if when is None:
                notes.append(courses_messages.export_no_time(name))
                continue
            handins[name] = Handin(name, when, members, path, "created_at")
    for path in sorted(root.iterdir()):
        if re.fullmatch(r"submission_\d+", path.name) and _is_folder(path) and path.name not in handins:
            handins[path.name] = Handin(path.name, _mtime(path), (Member(sid=path.name),), path, FILE_TIME)
            notes.append(courses_messages.export_unlisted(path.name))
    return Export(tuple(sorted(handins.values(), key=lambda h: (h.time.astimezone(UTC), h.key))), tuple(notes))


def is_export(folder: Path) -> bool:
    """Whether FOLDER is a Gradescope export (or holds one): its metadata file is there."""
    try:
        export_root(folder)
    except CourseError:
        return False
    return True


def export_root(folder: Path) -> Path:
    """FOLDER, or its one subfolder that holds ``submission_metadata.yml`` (an unzipped export)."""
    if (folder / EXPORT_METADATA).is_file():
        return folder
    inside = [p for p in sorted(folder.iterdir()) if _is_folder(p) and (p / EXPORT_METADATA).is_file()] \
        if folder.is_dir() else []
    if len(inside) == 1:
        return inside[0]
    raise CourseError(courses_messages.course_error(
        str(folder), "", courses_messages.no_export_metadata(EXPORT_METADATA)))


def _read_small(path: Path) -> str:
    try:
        if path.is_symlink() or path.stat().st_size > MOST_METADATA_BYTES:
            why = courses_messages.unreadable_file(courses_messages.LINK_OR_TOO_LARGE)
            raise CourseError(courses_messages.course_error(str(path), "", why))
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CourseError(courses_messages.course_error(
            str(path), "", courses_messages.unreadable_file(str(exc)))) from exc


def _is_folder(path: Path) -> bool:
    return path.is_dir() and not path.is_symlink()


def _mtime(path: Path) -> datetime:
    return datetime.fromtimestamp(os.lstat(path).st_mtime, UTC)


# -- a plain class folder -------------------------------------------------------------------------------

TIMES_COLUMNS = {"entry": ("id", "entry", "submission", "file"), "time": ("time", "submitted", "submitted at",
                                                                           "created at", "timestamp"),
                 "student": ("student", "student id", "sid")}


def read_times(path: Path, zone: ZoneInfo) -> dict[str, tuple[str, datetime]]:
    """``times.csv``: {entry: (student, time)}; a time without an offset is on the course's clock."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CourseError(courses_messages.csv_row_error(
            str(path), 0, courses_messages.unreadable_file(str(exc)))) from exc
    return parse_times(text, zone, str(path))


def parse_times(text: str, zone: ZoneInfo, where: str = TIMES_FILE) -> dict[str, tuple[str, datetime]]:
    found: dict[str, tuple[str, datetime]] = {}
    rows: dict[str, int] = {}
    for row, cells in read_table(text, where, TIMES_COLUMNS, ["entry", "time"]):
        when = parse_timestamp(cells["time"], zone)
        if when is None:
            raise CourseError(courses_messages.csv_row_error(where, row, courses_messages.not_a_date(cells["time"])))
        if cells["entry"] in rows:
            raise CourseError(courses_messages.csv_row_error(
                where, row, courses_messages.duplicate_id(cells["entry"], rows[cells["entry"]])))
        rows[cells["entry"]] = row
        found[cells["entry"]] = (cells.get("student") or cells["entry"], when)
    return found


def class_handins(folder: Path, entries: Sequence[tuple[str, Path]], zone: ZoneInfo) -> tuple[Handin, ...]:
    """The hand-ins of a class folder's ENTRIES ((id, path), as the class grader finds them):
    each one's time from ``times.csv`` beside them when it lists the entry, else its file's
    modification time (never following a link)."""
    times = read_times(folder / TIMES_FILE, zone) if (folder / TIMES_FILE).is_file() else {}
    handins = []
    for name, path in entries:
        if name in times:
            student, when = times[name]
            handins.append(Handin(name, when, (Member(sid=student),), path, "times.csv"))
        else:
            handins.append(Handin(name, _file_time(path), (Member(sid=name),), path, FILE_TIME))
    return tuple(handins)


def _file_time(path: Path) -> datetime:
    """The modification time of the submission file PATH is, or of the newest .py, .ipynb or .zip
    in the folder PATH (the folder's own time when it holds none)."""
    try:
        info = os.lstat(path)
    except OSError:
        return datetime.fromtimestamp(0, UTC)
    newest = None if stat.S_ISDIR(info.st_mode) else info.st_mtime
    if newest is None:  # a folder's own time changes with anything written in it: its files' times count
        for found in walk_files(path, lambda d: not d.startswith(".")):  # iterative, capped, no link followed
            if found.name.endswith((".py", ".ipynb", ".zip")):
                try:
                    newest = max(newest or 0.0, os.lstat(found).st_mtime)
                except OSError:
                    continue
    return datetime.fromtimestamp(info.st_mtime if newest is None else newest, UTC)


# -- whose attempts they are ----------------------------------------------------------------------------


def group_attempts(handins: Sequence[Handin], graded: Mapping[str, Result], roster: Roster,
                   partners: bool = True) -> tuple[StudentAttempts, ...]:
    """Each student's attempts: every graded hand-in (GRADED by key; a hand-in without a result is
    no attempt, but its submitters still get an entry) for each of its submitters and, when
    PARTNERS, their roster partners. Roster order first, then those not on the roster by id."""
    people: dict[str, Student] = {s.id: s for s in roster.students}
    attempts: dict[str, dict[str, Attempt]] = {}
    shared: dict[str, set[str]] = {}
    keys: dict[str, list[str]] = {}
    for handin in sorted(handins, key=lambda h: (h.time.astimezone(UTC), h.key)):
        group = _group(handin, roster, partners)
        result = graded.get(handin.key)
        for student in group:
            people.setdefault(student.id, student)
            keys.setdefault(student.id, []).append(handin.key)
            shared.setdefault(student.id, set()).update(s.id for s in group if s.id != student.id)
            if result is not None:
                attempts.setdefault(student.id, {})[handin.key] = result.at(handin.time, handin.key)
    order = [s.id for s in roster.students] + sorted(set(people) - {s.id for s in roster.students})
    return tuple(StudentAttempts(people[i], tuple(sorted(attempts.get(i, {}).values(),
                                                         key=lambda a: a.time.astimezone(UTC))),
                                 tuple(sorted(shared.get(i, set()))), tuple(keys.get(i, ()))) for i in order)


def record_result(record: Mapping[str, Any], phase_one: Collection[str]) -> Result | None:
    """What grading gave a hand-in, from the class grader's record of it (the engine's report as
    data): each problem's score and maximum, and whether Phase 1 is complete. None for a record
    that is not a grade (a hand-in that could not be graded, a failure of the kit's)."""
    if record.get("status") != "graded":
        return None
    problems = [p for p in record.get("problems", []) if isinstance(p, dict)]
    scores = {str(p["label"]): float(p.get("score", 0)) for p in problems}
    maxima = {str(p["label"]): float(p.get("max", 0)) for p in problems}
    return result_from_scores(scores, maxima, phase_one)


def _group(handin: Handin, roster: Roster, partners: bool) -> list[Student]:
    """Who HANDIN counts for: its submitters (found on the roster by sid, else email) and, when
    PARTNERS, their roster partners; each once."""
    group: dict[str, Student] = {}
    for member in handin.members or (Member(sid=handin.key),):
        found = roster.find(member.sid, member.email)
        student = found or Student(member.sid or member.email or member.name or handin.key, member.name,
                                   member.email, on_roster=False)
        group.setdefault(student.id, student)
        partner = roster.partner_of(student) if partners and found else None
        if partner is not None:
            group.setdefault(partner.id, partner)
    return list(group.values())
