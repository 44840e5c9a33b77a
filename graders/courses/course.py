"""Course: the course file, the roster, score overrides, and the policy that turns a student's
hand-ins into a final score.

Contract. Everything here is a pure function of plain typed values, and every record is frozen:

- :func:`load_course` reads ``course.toml`` (format in :data:`COURSE_FORMAT`) into a :class:`Course`:
  the checkpoint, early-bonus and due dates in the course's time zone, the points of the checkpoint
  and of the early bonus, the late policy, which deadlines extensions move, and whether partners
  are allowed. Dates are read with the standard library alone (``tomllib`` dates,
  :meth:`datetime.fromisoformat`, :mod:`zoneinfo`).
- :func:`load_roster` reads the roster CSV into a :class:`Roster` of :class:`Student` records;
  :func:`load_overrides` reads ``overrides.csv`` into :class:`Override` records.
- :func:`for_edition` fits a course to the edition graded: the checkpoint's points are the
  edition's unless the file sets them (an edition without a checkpoint gets none), and the edition's
  points count at its ``course_points`` scale (Pig: 25 points make 15).
- :func:`apply_policy` takes one student's roster entry, every :class:`Attempt` that counts for
  them (their own hand-ins and their partner's: see :mod:`graders.courses.handins`) and their overrides,
  and gives an :class:`Outcome`: the checkpoint earned by date, the early bonus, the hand-in whose
  score counts, late days, penalty, overrides, the final score, and one :class:`Adjustment` per
  change, each with the sentence the student reads (from :mod:`graders.courses.messages`), the course
  file's key that made it and what it cost the student. A late penalty is a share of the points
  the late hand-in counts for: with a phase due on its own date, that phase's points (scored from
  the hand-in by its date) are not the late work's and are never reduced by it. A roster row's
  ``groups`` (``last`` or ``best``) sets which hand-in counts for that student and their partner.
- :func:`policy_costs` says which of the course file's rules took points from a quarter of the
  class or more (:class:`PolicyCost`: the key, how many students, the points in all).

A bad file raises :class:`CourseError` with one line per problem naming the file, the key or row,
and what is wrong: every bad row of the roster and the overrides, and every bad file of a course
folder, at once. Nothing a student wrote (their activity log, their code's output) is an input here.
"""

from __future__ import annotations

import csv
import io
import math
import re
import tomllib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from graders.core import messages
from graders.core.errors import CourseError
from graders.courses import messages as courses_messages
from graders.editions.edition import Edition

COURSE_FORMAT = """\
edition = "boar_brawl"             # optional: the edition the course uses
timezone = "America/Los_Angeles"   # required: an IANA zone; deadlines without an offset are in it
partners = true                    # whether a hand-in may count for two partners (default true)
groups = "last"                    # which on-time hand-in counts: "last" (default) or "best" (the
                                   # highest score, so a partner's later, worse one replaces nothing);
                                   # the roster's `groups` column sets it for one pair

[deadlines]                        # TOML dates, or strings datetime.fromisoformat reads
checkpoint = 2024-01-30T23:59:00   # optional; without it Phase 1 is judged at the due date
early = 2024-02-06T23:59:00        # optional: the early bonus
due = 2024-02-07T23:59:00          # required; a date alone means the end of that day
grace_minutes = 0                  # a hand-in this late still counts as on time, for every deadline
# phases = { 1 = 2024-02-02T23:59:00 } # a phase due before `due`: its problems then count only from
                                   # the hand-in by that date (late work earns them nothing)

[points]
checkpoint = 1                     # Phase 1 complete by the checkpoint date
early = 1                          # full marks by the early date

[late]
policy = "none"                    # "none": late hand-ins do not count; "per_day": they do, less a penalty
per_day = 10                       # the penalty for each late day
unit = "percent"                   # "percent" of the points the late hand-in counts for, or "points"
cap = 50                           # the most taken, in the same unit (optional)
round_up = true                    # a started day counts as a whole day (false: exact fractions)
max_days = 3                       # hand-ins later than this many days do not count (optional)

[extensions]
apply_to = ["due", "checkpoint"]   # the deadlines a student's extension days move; "early" moves
                                   # only for students with the accommodation flag, unless listed
"""

COURSE_FILE, ROSTER_FILE, OVERRIDES_FILE = "course.toml", "roster.csv", "overrides.csv"
DEADLINE_NAMES = ("checkpoint", "early", "due")
END_OF_DAY = time(23, 59, 59, 999999)
DAY = timedelta(days=1)
TOTAL, CHECKPOINT, EARLY = "total", "checkpoint", "early"
LOWER = "lower"  # the adjustment kind of the warning that a later hand-in scores less than an earlier one


# -- records --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LatePolicy:
    """What happens to a hand-in after the (extended) due date."""

    policy: str = "none"  # "none": it does not count; "per_day": it counts less a penalty
    per_day: float = 0.0
    unit: str = "percent"  # "percent" of that hand-in's score, or "points"
    cap: float | None = None  # the most taken, in UNIT
    round_up: bool = True  # a started day is a whole day
    max_days: float | None = None  # later than this, a hand-in does not count at all

    @property
    def accepts_late(self) -> bool:
        return self.policy == "per_day"


@dataclass(frozen=True)
class Course:
    """A course's deadlines and policies, from ``course.toml``."""

    source: str  # the file, as errors name it
    zone_name: str
    due: datetime
    checkpoint: datetime | None = None
    early: datetime | None = None
    checkpoint_points: float = 1.0
    early_points: float = 1.0
    grace: timedelta = timedelta(0)
    late: LatePolicy = LatePolicy()
    extended: frozenset[str] = frozenset({"due", "checkpoint"})
    partners: bool = True
    edition: str = ""
    checkpoint_given: bool = False  # whether the file set points.checkpoint (else the edition's own)
    groups: str = "last"  # which hand-in counts: the last on time, or the best ("best")
    phase_dues: tuple[tuple[int, datetime], ...] = ()  # (phase, its own earlier due date)
    phase_of: tuple[tuple[str, int], ...] = ()  # (problem label, its phase): the edition's, by for_edition
    scale: float = 1.0  # what one of the edition's points is worth in the course (Pig: 15/25)

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.zone_name)


@dataclass(frozen=True)
class Student:
    """One row of the roster, or someone who handed in without being on it (``on_roster`` False)."""

    id: str
    name: str = ""
    email: str = ""
    extension_days: float = 0.0
    accommodation: bool = False
    partner: str = ""
    on_roster: bool = True
    row: int = 0  # the roster row (1 is the header), 0 when not on the roster
    groups: str = ""  # "last" or "best" for this student and their partner ("": the course file's)


@dataclass(frozen=True)
class Roster:
    students: tuple[Student, ...] = ()
    source: str = ""
    _by_id: dict[str, Student] = field(default_factory=dict, init=False, repr=False, compare=False)
    _by_email: dict[str, Student] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for s in self.students:  # filled once here; the record stays frozen from then on
            self._by_id.setdefault(s.id, s)
            if s.email:
                self._by_email.setdefault(s.email.lower(), s)

    def find(self, id: str = "", email: str = "") -> Student | None:
        """The student with this id, else with this email (case ignored), else None."""
        found = self._by_id.get(id.strip()) if id.strip() else None
        if found is None and email.strip():
            found = self._by_email.get(email.strip().lower())
        return found

    def partner_of(self, student: Student) -> Student | None:
        """Student's partner as the roster says (either of the two rows naming the other)."""
        if student.partner:
            return self.find(student.partner)
        return next((s for s in self.students if s.partner == student.id), None)


@dataclass(frozen=True)
class Override:
    """An instructor's change to one student's score, kept on every rerun."""

    student: str
    target: str  # a problem label ("05"), "checkpoint", "early" or "total"
    points: float
    relative: bool  # "+1" or "-2" adds to what was there; "3" sets it
    reason: str
    row: int = 0


@dataclass(frozen=True)
class Result:
    """What grading one hand-in gave: whether Phase 1 is complete, the problem scores and total."""

    phase1_complete: bool
    total: float
    max: float
    problems: tuple[tuple[str, float], ...] = ()  # (label, score), in problem order

    @property
    def full_marks(self) -> bool:
        return self.max > 0 and self.total >= self.max

    def at(self, when: datetime, key: str = "") -> Attempt:
        return Attempt(when, self.phase1_complete, self.total, self.max, self.problems, key)


@dataclass(frozen=True)
class Attempt:
    """One hand-in as one student's: when it was made and what grading it gave."""

    time: datetime  # aware
    phase1_complete: bool
    total: float
    max: float
    problems: tuple[tuple[str, float], ...] = ()
    key: str = ""  # the hand-in it is (graded once, shared by partners)

    @property
    def full_marks(self) -> bool:
        return self.max > 0 and self.total >= self.max


@dataclass(frozen=True)
class Deadlines:
    """One student's deadlines, extensions applied."""

    due: datetime
    checkpoint: datetime | None
    early: datetime | None
    extension_days: float = 0.0
    moved: tuple[str, ...] = ()  # which deadlines the extension moved


@dataclass(frozen=True)
class Adjustment:
    kind: str  # extension, checkpoint, early, late, counted, missing, override, lower, phase
    points: float  # what it adds to the final score (0 for a line that only explains)
    line: str  # the sentence the student reads
    cost: float = 0.0  # the course points this rule took from the student (what they had without it)
    rule: str = ""  # the course file's key that made it ("deadlines.phases.1", "late.per_day", "groups")
    note: str = ""  # the line the instructor reads about it, when there is one (course-notes.txt)


@dataclass(frozen=True)
class PolicyCost:
    """A rule of the course file that took points from many students, said before anything is uploaded."""

    rule: str  # the course file's key
    students: int  # how many it took points from
    of: int  # how many students the class has
    points: float  # the course points it took, all together


@dataclass(frozen=True)
class Outcome:
    """One student's course grade."""

    student: Student
    deadlines: Deadlines
    counted: Attempt | None
    problems: tuple[tuple[str, float], ...]  # the counted hand-in's scores, overrides applied
    score: float  # their total
    max: float
    checkpoint: float
    early: float
    late_days: float
    penalty: float
    override: float  # what overrides changed, all together
    final: float
    adjustments: tuple[Adjustment, ...] = ()
    attempts: int = 0
    scale: float = 1.0  # the course's worth of one problem point: final = (score - penalty) x scale + bonuses

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(a.line for a in self.adjustments)


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


# -- reading course.toml ---------------------------------------------------------------------------


def load_course(path: Path) -> Course:
    """The course file at PATH, or :class:`CourseError` naming what is wrong."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise CourseError(courses_messages.course_error(
            str(path), "", courses_messages.unreadable_file(str(exc)))) from exc
    return parse_course(text, str(path))


def parse_course(text: str, where: str = "course.toml") -> Course:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CourseError(courses_messages.course_error(where, "", courses_messages.not_toml(str(exc)))) from exc
    _known(data, {"edition", "timezone", "partners", "groups", "deadlines", "points", "late", "extensions"}, where, "")
    zone = _zone(data, where)
    deadlines = _table(data, "deadlines", where)
    _known(deadlines, {"checkpoint", "early", "due", "grace_minutes", "phases"}, where, "deadlines.")
    if "due" not in deadlines:
        raise CourseError(courses_messages.course_error(where, "deadlines.due", courses_messages.key_missing()))
    when = {name: parse_deadline(deadlines[name], zone, where, f"deadlines.{name}")
            for name in DEADLINE_NAMES if name in deadlines}
    for first, then in (("checkpoint", "due"), ("early", "due")):
        if first in when and when[first] > when[then]:
            raise CourseError(courses_messages.course_error(
                where, f"deadlines.{first}", courses_messages.deadline_after(then)))
    phase_dues = _phase_dues(_table(deadlines, "phases", where), zone, where, when["due"])
    points = _table(data, "points", where)
    _known(points, {"checkpoint", "early"}, where, "points.")
    partners = data.get("partners", True)
    if not isinstance(partners, bool):
        raise CourseError(courses_messages.course_error(
            where, "partners", courses_messages.expected(courses_messages.EXPECTED_BOOL, partners)))
    return Course(
        source=where, zone_name=zone.key, due=when["due"], checkpoint=when.get("checkpoint"), early=when.get("early"),
        checkpoint_points=_number(points, "checkpoint", where, "points.", 1.0), checkpoint_given="checkpoint" in points,
        early_points=_number(points, "early", where, "points.", 1.0),
        grace=timedelta(minutes=_number(deadlines, "grace_minutes", where, "deadlines.", 0.0)),
        late=_late(_table(data, "late", where), where), extended=_extended(data, where),
        partners=partners, edition=_text(data, "edition", where), groups=_groups(data, where),
        phase_dues=phase_dues)


def _phase_dues(table: Mapping[str, Any], zone: ZoneInfo, where: str, due: datetime
                ) -> tuple[tuple[int, datetime], ...]:
    """``deadlines.phases``: {phase number: its due date}, each no later than the due date."""
    found = []
    for key, value in table.items():
        name = f"deadlines.phases.{key}"
        if not str(key).isdigit():
            raise CourseError(courses_messages.course_error(
                where, name, courses_messages.expected(courses_messages.EXPECTED_PHASE, key)))
        when = parse_deadline(value, zone, where, name)
        if when > due:
            raise CourseError(courses_messages.course_error(where, name, courses_messages.deadline_after("due")))
        found.append((int(key), when))
    return tuple(sorted(found))


def _groups(data: Mapping[str, Any], where: str) -> str:
    value = data.get("groups", "last")
    if value not in ("last", "best"):
        raise CourseError(courses_messages.course_error(
            where, "groups", courses_messages.expected('"last" or "best"', value)))
    return str(value)


def _zone(data: Mapping[str, Any], where: str) -> ZoneInfo:
    name = data.get("timezone")
    if name is None:
        raise CourseError(courses_messages.course_error(where, "timezone", courses_messages.key_missing()))
    if not isinstance(name, str) or not name.strip():
        raise CourseError(courses_messages.course_error(
            where, "timezone", courses_messages.expected(courses_messages.EXPECTED_ZONE, name)))
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
        raise CourseError(courses_messages.course_error(
            where, "timezone", courses_messages.unknown_zone(name))) from exc


def _table(data: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise CourseError(courses_messages.course_error(where, key, courses_messages.expected("a table", value)))
    return value


def _known(table: Mapping[str, Any], keys: set[str], where: str, prefix: str) -> None:
    unknown = sorted(set(table) - keys)
    if unknown:
        raise CourseError(courses_messages.course_error(
            where, prefix + unknown[0], courses_messages.unknown_key(sorted(keys))))


def _number(table: Mapping[str, Any], key: str, where: str, prefix: str, default: float) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or value != value:
        raise CourseError(courses_messages.course_error(
            where, prefix + key, courses_messages.expected(courses_messages.EXPECTED_COUNT, value)))
    return float(value)


def _text(table: Mapping[str, Any], key: str, where: str) -> str:
    value = table.get(key, "")
    if not isinstance(value, str):
        raise CourseError(courses_messages.course_error(where, key, courses_messages.expected("text", value)))
    return value


def _late(table: Mapping[str, Any], where: str) -> LatePolicy:
    _known(table, {"policy", "per_day", "unit", "cap", "round_up", "max_days"}, where, "late.")
    policy = table.get("policy", "none")
    if policy not in ("none", "per_day"):
        raise CourseError(courses_messages.course_error(
            where, "late.policy", courses_messages.expected('"none" or "per_day"', policy)))
    unit = table.get("unit", "percent")
    if unit not in ("percent", "points"):
        raise CourseError(courses_messages.course_error(
            where, "late.unit", courses_messages.expected('"percent" or "points"', unit)))
    if policy == "per_day" and "per_day" not in table:
        raise CourseError(courses_messages.course_error(where, "late.per_day", courses_messages.key_missing()))
    round_up = table.get("round_up", True)
    if not isinstance(round_up, bool):
        wrong = courses_messages.expected(courses_messages.EXPECTED_BOOL, round_up)
        raise CourseError(courses_messages.course_error(where, "late.round_up", wrong))
    cap = _number(table, "cap", where, "late.", 0.0) if "cap" in table else None
    if unit == "percent" and cap is not None and cap > 100:
        raise CourseError(courses_messages.course_error(
            where, "late.cap", courses_messages.expected(courses_messages.EXPECTED_PERCENT, cap)))
    most = _number(table, "max_days", where, "late.", 0.0) if "max_days" in table else None
    return LatePolicy(policy, _number(table, "per_day", where, "late.", 0.0), unit, cap, round_up, most)


def _extended(data: Mapping[str, Any], where: str) -> frozenset[str]:
    table = _table(data, "extensions", where)
    _known(table, {"apply_to"}, where, "extensions.")
    names = table.get("apply_to", ["due", "checkpoint"])
    if not isinstance(names, list) or any(n not in DEADLINE_NAMES for n in names):
        raise CourseError(courses_messages.course_error(
            where, "extensions.apply_to", courses_messages.expected(courses_messages.expected_list_of(DEADLINE_NAMES),
                                                                    names)))
    return frozenset(names)


def parse_deadline(value: object, zone: ZoneInfo, where: str, key: str) -> datetime:
    """A deadline as an aware datetime: a TOML date-time or an ISO string; without an offset it is
    local to ZONE; a date alone is the end of that day."""
    if isinstance(value, str):
        text = value.strip()
        try:
            value = datetime.fromisoformat(text) if ("T" in text or " " in text) else date.fromisoformat(text)
        except ValueError as exc:
            raise CourseError(courses_messages.course_error(where, key, courses_messages.not_a_date(text))) from exc
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            return value
        try:
            return local_time(value, zone)
        except ValueError as exc:
            raise CourseError(courses_messages.course_error(where, key, str(exc))) from exc
    if isinstance(value, date):
        return local_time(datetime.combine(value, END_OF_DAY), zone)
    raise CourseError(courses_messages.course_error(
        where, key, courses_messages.expected(courses_messages.EXPECTED_DATETIME, value)))


def local_time(naive: datetime, zone: ZoneInfo) -> datetime:
    """NAIVE read as a wall-clock time in ZONE. A time the clocks skip (spring forward) is refused
    (ValueError); a time they show twice (fall back) is the later of the two, the kinder to students."""
    first, second = naive.replace(tzinfo=zone, fold=0), naive.replace(tzinfo=zone, fold=1)
    real = [t for t in (first, second) if t.astimezone(UTC).astimezone(zone).replace(tzinfo=None) == naive]
    if not real:
        raise ValueError(courses_messages.skipped_local_time(naive.isoformat(sep=" "), zone.key))
    return max(real, key=lambda t: t.astimezone(UTC))


def parse_timestamp(text: str, zone: ZoneInfo | None = None) -> datetime | None:
    """A time stamp as Gradescope, YAML or a spreadsheet writes it (``2024-02-06T21:14:05.12-08:00``,
    ``2024-02-06 21:14:05.123456000 -08:00``, ``...Z``), or None; without an offset it is local
    to ZONE (None without a zone)."""
    text = re.sub(r"\s+(Z|[+-]\d\d(:?\d\d)?)$", r"\1", text.strip())
    text = re.sub(r"(\.\d{6})\d+", r"\1", text)  # Ruby writes nine digits of fraction
    text = re.sub(r"([+-]\d\d)$", r"\1:00", text)
    try:
        found = datetime.fromisoformat(text)
    except ValueError:
        return None
    if found.tzinfo is None:
        if zone is None:
            return None
        try:
            found = local_time(found, zone)
        except ValueError:
            return None
    return found


# -- the roster and overrides ------------------------------------------------------------------------

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


# -- deadlines and the policy ------------------------------------------------------------------------


def for_edition(course: Course, checkpoint: float, course_points: int = 0, max_points: int = 0,
                phase_of: tuple[tuple[str, int], ...] = ()) -> Course:
    """COURSE as it applies to an edition whose checkpoint is worth CHECKPOINT points (0: the edition
    has none) and whose MAX_POINTS count as COURSE_POINTS in the course (0: as themselves). A course
    file that sets no checkpoint points gives the edition's own, so no point the edition lacks is added."""
    points = course.checkpoint_points if course.checkpoint_given else float(checkpoint)
    scale = course_points / max_points if course_points and max_points else 1.0
    return replace(course, checkpoint_points=points, scale=scale, phase_of=phase_of)


def edition_course(course: Course, edition: Edition) -> Course:
    """:func:`for_edition` for EDITION, from its manifest."""
    return for_edition(course, edition.checkpoint.points if edition.checkpoint else 0, edition.course_points,
                       edition.max_points, tuple((p.label, p.phase) for p in edition.problems))


def deadlines_for(course: Course, student: Student) -> Deadlines:
    """STUDENT's deadlines: the course's, moved by their extension days where the course says
    extensions apply (the early date too for a student with the accommodation flag)."""
    days = student.extension_days
    applies = set(course.extended) | ({EARLY} if student.accommodation else set())
    moved = tuple(n for n in DEADLINE_NAMES if days > 0 and n in applies and getattr(course, n) is not None)

    def moved_date(name: str) -> datetime | None:
        when = getattr(course, name)
        if when is None or name not in moved:
            return when
        local = when.astimezone(course.zone).replace(tzinfo=None) + timedelta(days=days)
        return local_time(_off_the_gap(local, course.zone), course.zone)  # the same clock time, days later

    due = moved_date("due")
    assert due is not None
    return Deadlines(due, moved_date(CHECKPOINT), moved_date(EARLY), days, moved)


def _off_the_gap(naive: datetime, zone: ZoneInfo) -> datetime:
    """NAIVE, or an hour later when the clocks skip it (an extension landing on spring forward)."""
    try:
        local_time(naive, zone)
        return naive
    except ValueError:
        return naive + timedelta(hours=1)


def instant(when: datetime) -> datetime:
    """WHEN in UTC: Python compares and subtracts two times of one zone by their clock alone, which
    is wrong across a change of daylight saving."""
    return when.astimezone(UTC)


def on_time(when: datetime, deadline: datetime, course: Course) -> bool:
    return instant(when) <= instant(deadline) + course.grace


def late_days(when: datetime, due: datetime, course: Course) -> float:
    """How many days WHEN is after DUE: 0 when on time; otherwise counted on the course's clock
    (one day late is by the same clock time the next day, across a change of daylight saving),
    and a started day counts as a whole one when the policy rounds up."""
    if on_time(when, due, course):
        return 0.0
    zone = course.zone
    wall = (when.astimezone(zone).replace(tzinfo=None) - due.astimezone(zone).replace(tzinfo=None)) / DAY
    days = wall if wall > 0 else (instant(when) - instant(due)) / DAY
    return float(math.ceil(days)) if course.late.round_up else round(days, 4)


def penalty_for(score: float, days: float, late: LatePolicy) -> float:
    """The points a hand-in DAYS late loses: per day, at most the cap, never more than its SCORE."""
    taken = late.per_day * days
    if late.cap is not None:
        taken = min(taken, late.cap)
    points = score * taken / 100 if late.unit == "percent" else taken
    return round(max(0.0, min(points, score)), 2)


def apply_policy(course: Course, student: Student, attempts: Sequence[Attempt],
                 overrides: Sequence[Override] = ()) -> Outcome:
    """STUDENT's grade from all their ATTEMPTS (their partner's included) under COURSE (the roster's
    ``groups`` for them, when it says one, over the course file's), then OVERRIDES (those with the
    student's id). See the module's contract."""
    course = replace(course, groups=student.groups) if student.groups else course
    dates = deadlines_for(course, student)
    ordered = sorted(attempts, key=lambda a: instant(a.time))
    mine = [o for o in overrides if o.student == student.id]
    zone = course.zone
    adjustments: list[Adjustment] = []
    if dates.moved:
        adjustments.append(Adjustment("extension", 0.0, courses_messages.adj_extension(
            messages.points_text(dates.extension_days),
            [(name, shown_time(getattr(dates, name), zone)) for name in dates.moved])))
    checkpoint, line = _checkpoint(course, dates, ordered)
    adjustments += [line] if line else []
    early, line = _early(course, dates, ordered)
    adjustments += [line] if line else []
    counted, days, penalty, problems, score, lines = _counted(course, dates, ordered, mine)
    adjustments += lines
    if counted is not None and course.phase_dues:
        problems, score, lines = _by_phase_dues(course, dates, ordered, problems, mine)
        adjustments += lines
    values = {CHECKPOINT: checkpoint, EARLY: early}
    for o in mine:
        if o.target in values:
            before = values[o.target]
            values[o.target] = round(before + o.points if o.relative else o.points, 2)
            adjustments.append(_override_line(o, values[o.target] - before))
    final = round((score - penalty) * course.scale + values[CHECKPOINT] + values[EARLY], 2)
    for o in mine:
        if o.target == TOTAL:
            before = final
            final = round(final + o.points if o.relative else o.points, 2)
            adjustments.append(_override_line(o, final - before))
    change = round(sum(a.points for a in adjustments if a.kind == "override"), 2)
    top = counted.max if counted else max((a.max for a in ordered), default=0.0)
    return Outcome(student, dates, counted, problems, score, top, values[CHECKPOINT], values[EARLY], days, penalty,
                   change, final, tuple(adjustments), len(ordered), course.scale)


def _checkpoint(course: Course, dates: Deadlines, attempts: Sequence[Attempt]) -> tuple[float, Adjustment | None]:
    """The checkpoint's points: any hand-in by the (extended) checkpoint date with Phase 1 complete;
    without a checkpoint date, by the due date. Phase 1 completed later costs the points."""
    if course.checkpoint_points <= 0:
        return 0.0, None
    deadline = dates.checkpoint or dates.due
    zone = course.zone
    hit = next((a for a in attempts if a.phase1_complete and on_time(a.time, deadline, course)), None)
    if hit is not None:
        line = courses_messages.adj_checkpoint_earned(messages.points_text(course.checkpoint_points),
                                                      shown_time(deadline, zone), shown_time(hit.time, zone))
        return course.checkpoint_points, Adjustment(CHECKPOINT, course.checkpoint_points, line)
    later = next((a for a in attempts if a.phase1_complete), None)
    return 0.0, Adjustment(CHECKPOINT, 0.0, courses_messages.adj_checkpoint_missed(
        messages.points_text(course.checkpoint_points), shown_time(deadline, zone),
        shown_time(later.time, zone) if later else ""), course.checkpoint_points if later else 0.0,
        "deadlines.checkpoint" if dates.checkpoint else "deadlines.due")


def _early(course: Course, dates: Deadlines, attempts: Sequence[Attempt]) -> tuple[float, Adjustment | None]:
    """The early bonus: any hand-in by the early date with full marks."""
    if dates.early is None or course.early_points <= 0:
        return 0.0, None
    zone = course.zone
    hit = next((a for a in attempts if a.full_marks and on_time(a.time, dates.early, course)), None)
    if hit is not None:
        return course.early_points, Adjustment(EARLY, course.early_points, courses_messages.adj_early_earned(
            messages.points_text(course.early_points), shown_time(dates.early, zone), shown_time(hit.time, zone)))
    later = next((a for a in attempts if a.full_marks), None)
    if later is None:
        return 0.0, None  # no bonus and nothing to explain: full marks never came
    return 0.0, Adjustment(EARLY, 0.0, courses_messages.adj_early_missed(
        messages.points_text(course.early_points), shown_time(dates.early, zone), shown_time(later.time, zone)))


def _scored(attempt: Attempt, overrides: Sequence[Override]) -> tuple[tuple[tuple[str, float], ...], float,
                                                                      list[Adjustment]]:
    """ATTEMPT's problem scores and total with the problem overrides applied, and their lines."""
    scores = dict(attempt.problems)
    lines = []
    for o in overrides:
        if o.target in (TOTAL, CHECKPOINT, EARLY):
            continue
        before = scores.get(o.target, 0.0)
        scores[o.target] = round(before + o.points if o.relative else o.points, 2)
        lines.append(_override_line(o, scores[o.target] - before))
    total = round(attempt.total + sum(a.points for a in lines), 2)
    return tuple(scores.items()), total, lines


def _override_line(o: Override, change: float) -> Adjustment:
    what = courses_messages.override_what(o.target)
    return Adjustment("override", round(change, 2), courses_messages.adj_override(
        what, messages.points_text(o.points, signed=o.relative), o.relative, messages.points_text(change, signed=True),
        o.reason))


def own_phase_labels(course: Course) -> frozenset[str]:
    """The problems of the phases due on their own dates: scored from the hand-in by that date,
    never from late work."""
    phases = {phase for phase, _ in course.phase_dues}
    return frozenset(label for label, phase in course.phase_of if phase in phases)


def late_share(course: Course, problems: Sequence[tuple[str, float]], total: float) -> float:
    """What of TOTAL a hand-in counts for by the due date (and so what a late penalty is a share of):
    all of it, less the problems of phases due on their own dates."""
    own = own_phase_labels(course)
    return round(total - sum(score for label, score in problems if label in own), 2)


Counted = tuple[Attempt | None, float, float, tuple[tuple[str, float], ...], float, list[Adjustment]]


def _counted(course: Course, dates: Deadlines, attempts: Sequence[Attempt], overrides: Sequence[Override]) -> Counted:
    """(the hand-in that counts, its late days, penalty, scores and total, the lines saying why):
    the last on-time hand-in, or the last late one less its penalty when the policy accepts it
    and it is worth more. Late hand-ins the policy refuses are said, with what they would have added."""
    policy = course.late
    punctual: list[Attempt] = []
    allowed: list[Attempt] = []
    refused: list[Attempt] = []
    for a in attempts:
        if on_time(a.time, dates.due, course):
            punctual.append(a)
        elif policy.accepts_late and (policy.max_days is None
                                      or late_days(a.time, dates.due, course) <= policy.max_days):
            allowed.append(a)
        else:
            refused.append(a)
    chosen = _choose(course, dates, punctual, allowed, overrides)
    if refused:
        kept = late_share(course, chosen[3], chosen[4]) - chosen[2] if chosen[0] is not None else 0.0
        lost = max(late_share(course, a.problems, a.total) for a in refused) - kept
        chosen[5].insert(0, Adjustment("late", 0.0, courses_messages.adj_late_not_counted(
            len(refused), shown_time(dates.due, course.zone), policy.accepts_late),
            round(max(lost, 0.0) * course.scale, 2), "late.max_days" if policy.accepts_late else "late.policy"))
    return chosen


def _choose(course: Course, dates: Deadlines, punctual: Sequence[Attempt], allowed: Sequence[Attempt],
            overrides: Sequence[Override]) -> Counted:
    """The hand-in that counts among PUNCTUAL and the ALLOWED late ones (see :func:`_counted`): the
    late one is worth its share by the due date less its penalty (a share of that share)."""
    zone = course.zone
    due_text = shown_time(dates.due, zone)
    best_on = _chosen(punctual, course.groups)
    last_late = _chosen(allowed, course.groups)
    lines: list[Adjustment] = []
    if best_on is None and last_late is None:
        lines.append(Adjustment("missing", 0.0, courses_messages.adj_nothing_counted(due_text)))
        return None, 0.0, 0.0, (), 0.0, lines
    on_scores = _scored(best_on, overrides) if best_on else None
    if last_late is not None:
        problems, total, override_lines = _scored(last_late, overrides)
        days = late_days(last_late.time, dates.due, course)
        share = late_share(course, problems, total)
        penalty = penalty_for(share, days, course.late)
        if on_scores is None or share - penalty > late_share(course, *on_scores[:2]):
            of = messages.points_text(share) if share != total else ""
            lines += override_lines
            lines.append(Adjustment("late", -penalty, courses_messages.adj_late_penalty(
                messages.points_text(days), shown_time(last_late.time, zone), due_text, messages.points_text(penalty),
                _rule_text(course.late), of), round(penalty * course.scale, 2), "late.per_day"))
            return last_late, days, penalty, problems, total, lines
        lines.append(Adjustment("counted", 0.0, courses_messages.adj_on_time_kept(
            messages.points_text(on_scores[1]), messages.points_text(total), messages.points_text(penalty))))
    assert best_on is not None and on_scores is not None
    problems, total, override_lines = on_scores
    return best_on, 0.0, 0.0, problems, total, lines + override_lines + _lower(course, best_on, punctual)


def _by_phase_dues(course: Course, dates: Deadlines, attempts: Sequence[Attempt],
                   problems: tuple[tuple[str, float], ...], overrides: Sequence[Override]
                   ) -> tuple[tuple[tuple[str, float], ...], float, list[Adjustment]]:
    """PROBLEMS (the counted hand-in's) with each phase that has its own due date scored from the
    hand-in that counts by that date (moved by the student's extension as the due date is), the
    problem overrides applied again; the new total and a line for each phase that changed."""
    scores, lines = dict(problems), []
    for phase, due in course.phase_dues:
        if "due" in dates.moved:
            due = local_time(_off_the_gap(due.astimezone(course.zone).replace(tzinfo=None)
                                          + timedelta(days=dates.extension_days), course.zone), course.zone)
        labels = [label for label, p in course.phase_of if p == phase and label in scores]
        chosen = _chosen([a for a in attempts if on_time(a.time, due, course)], course.groups)
        theirs = dict(chosen.problems) if chosen else {}
        new = {label: float(theirs.get(label, 0.0)) for label in labels}
        for o in overrides:
            if o.target in new:
                new[o.target] = round(new[o.target] + o.points if o.relative else o.points, 2)
        before, after = sum(scores[k] for k in labels), sum(new.values())
        scores.update(new)
        if after != before:
            lines.append(Adjustment("phase", round(after - before, 2), courses_messages.adj_phase_due(
                phase, shown_time(due, course.zone), chosen.key if chosen else "", messages.points_text(after),
                messages.points_text(before)), round(max(before - after, 0.0) * course.scale, 2),
                f"deadlines.phases.{phase}"))
    return tuple(scores.items()), round(sum(scores.values()), 2), lines


def _chosen(attempts: Sequence[Attempt], groups: str) -> Attempt | None:
    """The hand-in that counts among ATTEMPTS (in time order): the last, or with "best" the highest
    score (the later of two equal ones)."""
    if not attempts:
        return None
    if groups == "best":
        return max(reversed(attempts), key=lambda a: a.total)
    return attempts[-1]


def _lower(course: Course, counted: Attempt, attempts: Sequence[Attempt]) -> list[Adjustment]:
    """A warning when the COUNTED hand-in scores less than an earlier one of ATTEMPTS (a partner's
    later, worse hand-in replacing finished work): the best earlier one is named, to the student
    and, in the adjustment's note, to the instructor."""
    earlier = [a for a in attempts if instant(a.time) < instant(counted.time) and a.total > counted.total]
    if not earlier:
        return []
    best = max(earlier, key=lambda a: a.total)
    n, zone = messages.points_text, course.zone
    shown = (counted.key, shown_time(counted.time, zone), n(counted.total), best.key, shown_time(best.time, zone),
             n(best.total), n(counted.max))
    return [Adjustment(LOWER, 0.0, courses_messages.adj_later_lower(*shown),
                       round((best.total - counted.total) * course.scale, 2), "groups",
                       courses_messages.course_note_lower(*shown))]


def policy_costs(outcomes: Sequence[Outcome], share: float = 0.25) -> tuple[PolicyCost, ...]:
    """The course file's rules that took points from SHARE of the OUTCOMES' students or more (a
    quarter by default), each with how many and the points in all, in the order of their keys."""
    took: dict[str, list[float]] = {}
    for o in outcomes:
        for rule, cost in {a.rule: a.cost for a in o.adjustments if a.rule and a.cost > 0}.items():
            took.setdefault(rule, []).append(cost)
    return tuple(PolicyCost(rule, len(costs), len(outcomes), round(sum(costs), 2))
                 for rule, costs in sorted(took.items()) if len(costs) >= share * len(outcomes))


def _rule_text(policy: LatePolicy) -> str:
    unit = "%" if policy.unit == "percent" else " points"
    cap = f"{messages.points_text(policy.cap)}{unit}" if policy.cap is not None else ""
    return courses_messages.late_rule(f"{messages.points_text(policy.per_day)}{unit}", cap, policy.round_up)


def shown_time(when: datetime | None, zone: ZoneInfo) -> str:
    """WHEN on the course's clock, as a student reads it: ``Tue 30 Jan 2024 23:59 PST`` (seconds
    shown only when there are some)."""
    if when is None:
        return ""
    local = when.astimezone(zone)
    clock = "%H:%M:%S" if local.second or local.microsecond else "%H:%M"
    return local.strftime(f"%a %d %b %Y {clock} %Z")


def grade_course(course: Course, students: Sequence[tuple[Student, Sequence[Attempt]]],
                 overrides: Sequence[Override] = ()) -> tuple[tuple[Outcome, ...], tuple[str, ...]]:
    """Every student's outcome, and a note for each override naming no one graded (never dropped
    silently)."""
    outcomes = tuple(apply_policy(course, s, attempts, overrides) for s, attempts in students)
    ids = {o.student.id for o in outcomes}
    notes = tuple(courses_messages.override_unused(o.student, o.row) for o in overrides if o.student not in ids)
    return outcomes, notes


def phase_one_labels(problems: Sequence[tuple[str, int, int]], phase: int = 1) -> frozenset[str]:
    """The labels of the problems (label, phase, points) that make Phase PHASE complete: those of
    that phase worth points, as the engine's checkpoint counts them."""
    return frozenset(label for label, in_phase, points in problems if in_phase == phase and points > 0)


def result_from_scores(scores: Mapping[str, float], maxima: Mapping[str, float],
                       phase_one: Collection[str]) -> Result:
    """A :class:`Result` from problem scores and their maxima (labels as keys): Phase 1 is complete
    when every label of PHASE_ONE has its full points."""
    complete = bool(phase_one) and all(label in scores and scores[label] >= maxima.get(label, math.inf)
                                       for label in phase_one)
    problems = tuple((label, float(scores.get(label, 0.0))) for label in maxima)
    return Result(complete, float(sum(scores.get(label, 0.0) for label in maxima)), float(sum(maxima.values())),
                  problems)
