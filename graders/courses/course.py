"""Course: the course file and the frozen records of a course. Three rooms share this contract: this
module reads ``course.toml`` and holds the records; :mod:`graders.courses.roster` reads the roster,
the overrides and a course folder whole; :mod:`graders.courses.policy` fits a course to an edition
and applies it.

Contract. Everything is a pure function of plain typed values, and every record is frozen:

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

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from graders.core.errors import CourseError
from graders.courses import messages as courses_messages

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
