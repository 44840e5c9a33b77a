"""Roster: the roster CSV and ``overrides.csv`` read into frozen records, and a course folder read whole
(:func:`load_setup`: the course file, the roster and the overrides, every bad file said at once).

Each reader checks its table with the one table reader here (:func:`read_table`), and a bad file
raises :class:`CourseError` with one line per bad row, naming the file, the row and the column."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from graders.core.errors import CourseError
from graders.courses import messages as courses_messages
from graders.courses.course import (
    CHECKPOINT,
    COURSE_FILE,
    EARLY,
    OVERRIDES_FILE,
    ROSTER_FILE,
    TOTAL,
    Course,
    Override,
    Roster,
    Student,
    load_course,
)


@dataclass(frozen=True)
class Setup:
    """A course folder read whole: the course file, its roster, its overrides (``()`` without a file)."""

    course: Course
    roster: Roster
    overrides: tuple[Override, ...] = ()
    folder: str = ""


def load_setup(folder: Path, labels: Collection[str] = ()) -> Setup:
    """The course folder FOLDER: ``course.toml`` and ``roster.csv`` (both required) and ``overrides.csv``
    (when there is one; its problems checked against LABELS). Missing or bad files raise one
    :class:`CourseError` naming every one (a line each), before anything is graded."""
    if not folder.is_dir():
        raise CourseError(courses_messages.course_error(
            str(folder), "", courses_messages.no_course_folder(COURSE_FILE, ROSTER_FILE)))
    problems = [courses_messages.course_error(str(folder / name), "", courses_messages.course_file_missing())
                for name in (COURSE_FILE, ROSTER_FILE) if not (folder / name).is_file()]
    course = _gather(problems, load_course, folder / COURSE_FILE) if (folder / COURSE_FILE).is_file() else None
    roster = _gather(problems, load_roster, folder / ROSTER_FILE) if (folder / ROSTER_FILE).is_file() else None
    overrides = _gather(problems, lambda path: load_overrides(path, labels), folder / OVERRIDES_FILE) \
        if (folder / OVERRIDES_FILE).exists() else ()
    if problems or course is None or roster is None:
        raise CourseError("\n".join(problems))
    return Setup(course, roster, overrides or (), str(folder))


def _gather(problems: list[str], load: Any, *args: Any) -> Any:
    """LOAD(*ARGS), or None with the CourseError's lines added to PROBLEMS."""
    try:
        return load(*args)
    except CourseError as exc:
        problems += str(exc).split("\n")
        return None


ROSTER_COLUMNS = {
    "id": ("id", "sid", "student id", "student"),
    "name": ("name", "student name", "full name"),
    "email": ("email", "e mail", "email address"),
    "extension": ("extension days", "extension", "extensions", "extra days"),
    "accommodation": ("accommodation", "accommodations", "dsp"),
    "partner": ("partner", "partner id", "partner sid"),
    "groups": ("groups",),
}


GROUPS = ("last", "best")


OVERRIDE_COLUMNS = {
    "id": ("id", "sid", "student id", "student"),
    "target": ("problem", "target", "label", "what"),
    "points": ("points", "score"),
    "reason": ("reason", "comment", "why"),
}


TRUE_WORDS = ("1", "yes", "y", "true", "x")


FALSE_WORDS = ("", "0", "no", "n", "false")


def _header(name: str) -> str:
    return " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def read_table(text: str, where: str, columns: Mapping[str, Sequence[str]],
               needed: Collection[str]) -> list[tuple[int, dict[str, str]]]:
    """The rows of a CSV text as (row number as a spreadsheet shows it, {column: cell}), headers
    matched case-insensitively against COLUMNS' spellings; blank rows skipped."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        raise CourseError(courses_messages.csv_row_error(where, 1, courses_messages.no_header(sorted(needed))))
    found: dict[str, int] = {}
    for index, name in enumerate(rows[0]):
        for column, spellings in columns.items():
            if _header(name) in spellings and column not in found:
                found[column] = index
    missing = [c for c in needed if c not in found]
    if missing:
        raise CourseError(courses_messages.csv_row_error(where, 1, courses_messages.columns_missing(missing)))
    table = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        table.append((number, {c: (row[i].strip() if i < len(row) else "") for c, i in found.items()}))
    return table


def _csv_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CourseError(courses_messages.csv_row_error(
            str(path), 0, courses_messages.unreadable_file(str(exc)))) from exc


def load_roster(path: Path) -> Roster:
    return parse_roster(_csv_text(path), str(path))


def parse_roster(text: str, where: str = "roster.csv") -> Roster:
    """The roster: columns id (required), name, email, extension days, accommodation, partner id."""
    students: list[Student] = []
    seen: dict[str, int] = {}
    problems: list[str] = []  # every bad row is said, not the first alone
    for row, cells in read_table(text, where, ROSTER_COLUMNS, ["id"]):
        _gather(problems, _roster_row, students, seen, cells, where, row)
    if problems:
        raise CourseError("\n".join(problems))
    _check_partners(students, where)
    return Roster(_pair_groups(students, where), where)


def _roster_row(students: list[Student], seen: dict[str, int], cells: Mapping[str, str], where: str,
                row: int) -> None:
    sid = cells["id"]
    if not sid:
        raise CourseError(courses_messages.csv_row_error(where, row, courses_messages.empty_cell("id")))
    if sid in seen:
        raise CourseError(courses_messages.csv_row_error(where, row, courses_messages.duplicate_id(sid, seen[sid])))
    seen[sid] = row
    days = _cell_number(cells.get("extension", ""), where, row, "extension days")
    groups = cells.get("groups", "").lower()
    if groups and groups not in GROUPS:
        raise CourseError(courses_messages.csv_row_error(
            where, row, courses_messages.expected(courses_messages.EXPECTED_GROUPS, groups)))
    students.append(Student(sid, cells.get("name", ""), cells.get("email", ""), days,
                            _flag(cells.get("accommodation", ""), where, row), cells.get("partner", ""), True, row,
                            groups))


def _cell_number(text: str, where: str, row: int, column: str, signed: bool = False) -> float:
    try:
        value = float(text) if text else 0.0
    except ValueError:
        value = math.nan
    if value != value or math.isinf(value) or (value < 0 and not signed):
        kind = "a number" if signed else "a number of 0 or more"
        raise CourseError(courses_messages.csv_row_error(
            where, row, courses_messages.expected(f"{kind} in {column}", text)))
    return value


def _flag(text: str, where: str, row: int) -> bool:
    if text.lower() in TRUE_WORDS:
        return True
    if text.lower() in FALSE_WORDS:
        return False
    raise CourseError(courses_messages.csv_row_error(
        where, row, courses_messages.expected(courses_messages.EXPECTED_FLAG, text)))


def _check_partners(students: Sequence[Student], where: str) -> None:
    """Every partner named is on the roster, is not the student, and names no one else."""
    by_id = {s.id: s for s in students}
    for s in students:
        if not s.partner:
            continue
        other = by_id.get(s.partner)
        if s.partner == s.id or other is None:
            raise CourseError(courses_messages.csv_row_error(where, s.row, courses_messages.partner_unknown(s.partner)))
        if other.partner and other.partner != s.id:
            raise CourseError(courses_messages.csv_row_error(
                where, s.row, courses_messages.partner_conflict(s.id, other.id, other.partner)))
        rivals = [t for t in students if t.partner == other.id and t.id != s.id]
        if rivals:
            raise CourseError(courses_messages.csv_row_error(
                where, rivals[0].row, courses_messages.partner_conflict(rivals[0].id, other.id, s.id)))


def _pair_groups(students: Sequence[Student], where: str) -> tuple[Student, ...]:
    """STUDENTS with a pair's ``groups`` on both rows (one of the two naming it is enough); two
    rows of a pair naming different ones are refused."""
    pairs = {s.id: s.partner for s in students if s.partner} | {s.partner: s.id for s in students if s.partner}
    by_id = {s.id: s for s in students}
    found = []
    for s in students:
        other = by_id.get(pairs.get(s.id, ""))
        if other is not None and s.groups and other.groups and s.groups != other.groups:
            raise CourseError(courses_messages.csv_row_error(
                where, max(s.row, other.row), courses_messages.pair_groups_conflict(s.id, s.groups, other.id,
                                                                                    other.groups)))
        found.append(replace(s, groups=s.groups or (other.groups if other else "")))
    return tuple(found)


def load_overrides(path: Path, labels: Collection[str] = ()) -> tuple[Override, ...]:
    return parse_overrides(_csv_text(path), str(path), labels)


def parse_overrides(text: str, where: str = "overrides.csv", labels: Collection[str] = ()) -> tuple[Override, ...]:
    """``id, problem, points, reason`` rows. PROBLEM is a problem label (``5`` or ``05``; checked
    against LABELS when given), ``checkpoint``, ``early`` or ``total``; POINTS set the value, or
    with a sign (``+1``, ``-2``) change it; the reason is required (the student reads it)."""
    found: list[Override] = []
    seen: dict[tuple[str, str], int] = {}
    problems: list[str] = []  # every bad row is said, not the first alone
    for row, cells in read_table(text, where, OVERRIDE_COLUMNS, ["id", "target", "points", "reason"]):
        _gather(problems, _override_row, found, seen, cells, where, row, labels)
    if problems:
        raise CourseError("\n".join(problems))
    return tuple(found)


def _override_row(found: list[Override], seen: dict[tuple[str, str], int], cells: Mapping[str, str], where: str,
                  row: int, labels: Collection[str]) -> None:
    for column in ("id", "target", "points", "reason"):
        if not cells[column]:
            raise CourseError(courses_messages.csv_row_error(where, row, courses_messages.empty_cell(column)))
    target = override_target(cells["target"])
    if target is None or (labels and target not in labels and target not in (TOTAL, CHECKPOINT, EARLY)):
        raise CourseError(courses_messages.csv_row_error(where, row, courses_messages.unknown_target(cells["target"])))
    key = (cells["id"], target)
    if key in seen:
        raise CourseError(courses_messages.csv_row_error(
            where, row, courses_messages.duplicate_override(*key, seen[key])))
    seen[key] = row
    points = _cell_number(cells["points"], where, row, "points", signed=True)
    relative = cells["points"].startswith(("+", "-"))
    found.append(Override(cells["id"], target, points, relative, cells["reason"], row))


def override_target(text: str) -> str | None:
    """A problem's label (two digits), or total, checkpoint or early; None for anything else."""
    word = text.strip().lower().removeprefix("problem").strip().lstrip("q")
    if word in (TOTAL, CHECKPOINT, EARLY):
        return word
    return f"{int(word):02d}" if word.isdigit() and len(word) <= 3 else None
