"""The course around the kit: course.toml, the roster, overrides and the policy, rule by rule, at
and around each deadline (one second before and after, daylight saving, offsets other than the course's)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from graders.courses import messages as courses_messages
from graders.courses.course import (
    Attempt,
    CourseError,
    Override,
    Result,
    Student,
    local_time,
    parse_course,
    parse_timestamp,
)
from graders.courses.policy import (
    apply_policy,
    deadlines_for,
    grade_course,
    late_days,
    penalty_for,
    phase_one_labels,
    result_from_scores,
)
from graders.courses.roster import parse_overrides, parse_roster

LA = ZoneInfo("America/Los_Angeles")
SECOND = timedelta(seconds=1)

COURSE = """
edition = "boar_brawl"
timezone = "America/Los_Angeles"

[deadlines]
checkpoint = 2024-01-30T23:59:00
early = 2024-02-06T23:59:00
due = 2024-02-07T23:59:00

[points]
checkpoint = 1
early = 1

[late]
policy = "per_day"
per_day = 10
unit = "percent"
cap = 30
"""


def course(text: str = COURSE, **late: object):
    """The course above, with [late] keys replaced by LATE."""
    if late:
        head = text.split("[late]")[0]
        body = "\n".join(f"{k} = {v!r}".replace("'", '"').replace("True", "true").replace("False", "false")
                         for k, v in late.items())
        text = f"{head}[late]\n{body}\n"
    return parse_course(text, "course.toml")


def at(text: str) -> datetime:
    """A wall-clock time in Los Angeles, or any ISO time with its own offset."""
    when = datetime.fromisoformat(text)
    return when if when.tzinfo else local_time(when, LA)


def attempt(when: datetime | str, phase1: bool = True, total: float = 24, most: float = 24, key: str = "") -> Attempt:
    when = at(when) if isinstance(when, str) else when
    return Attempt(when, phase1, total, most, (("01", 2.0), ("05", total - 2)), key or when.isoformat())


PLAIN = Student("s1", "Sam")
C = course()
CHECKPOINT, EARLY, DUE = C.checkpoint, C.early, C.due


# -- the course file ---------------------------------------------------------------------------------


def test_the_course_file_reads_dates_in_the_course_zone() -> None:
    assert C.zone_name == "America/Los_Angeles" and C.edition == "boar_brawl"
    assert DUE == datetime(2024, 2, 7, 23, 59, tzinfo=LA) and DUE.utcoffset() == timedelta(hours=-8)
    assert CHECKPOINT < EARLY < DUE
    assert C.late.policy == "per_day" and C.late.per_day == 10 and C.late.cap == 30 and C.late.round_up
    assert C.extended == {"due", "checkpoint"} and C.partners


def test_dates_as_strings_a_date_alone_and_an_explicit_offset() -> None:
    text = COURSE.replace("due = 2024-02-07T23:59:00", 'due = "2024-02-07"') \
                 .replace("checkpoint = 2024-01-30T23:59:00", 'checkpoint = "2024-01-30T23:59:00+00:00"')
    c = parse_course(text)
    assert c.due.astimezone(LA).replace(tzinfo=None) == datetime(2024, 2, 7, 23, 59, 59, 999999)
    assert c.checkpoint == datetime.fromisoformat("2024-01-30T23:59:00+00:00")  # its own offset is kept


def test_a_time_shown_twice_at_fall_back_is_the_later_one_and_a_skipped_time_is_refused() -> None:
    twice = local_time(datetime(2024, 11, 3, 1, 30), LA)
    assert twice.utcoffset() == timedelta(hours=-8)  # 01:30 PST, the second 01:30 of the night
    with pytest.raises(ValueError, match="does not exist"):
        local_time(datetime(2024, 3, 10, 2, 30), LA)


BAD_FILES = [
    ("timezone = 'America/Los_Angeles'\n[deadlines]\nearly = 2024-01-01T00:00:00", "deadlines.due", "required"),
    ("[deadlines]\ndue = 2024-02-07T23:59:00", "timezone", "required"),
    ("timezone = 'Mars/Olympus'\n[deadlines]\ndue = 2024-02-07T23:59:00", "timezone", "Mars/Olympus"),
    ("timezone = 'America/Los_Angeles'\n[deadlines]\ndue = 2024-03-10T02:30:00", "deadlines.due", "skip"),
    ("timezone = 'America/Los_Angeles'\n[deadlines]\ndue = 'next friday'", "deadlines.due", "'next friday'"),
    ("timezone = 'America/Los_Angeles'\n[deadlines]\ndue = 2024-02-07T23:59:00\ncheckpoint = 2024-03-01",
     "deadlines.checkpoint", "after deadlines.due"),
    ("timezone = 'America/Los_Angeles'\n[deadlines]\ndue = 2024-02-07T23:59:00\nlate = 3", "deadlines.late",
     "not a key"),
    ("timezone = 'America/Los_Angeles'\n[deadlines]\ndue = 2024-02-07T23:59:00\n[late]\npolicy = 'harsh'",
     "late.policy", "'harsh'"),
    ("timezone = 'America/Los_Angeles'\n[deadlines]\ndue = 2024-02-07T23:59:00\n[late]\npolicy = 'per_day'",
     "late.per_day", "required"),
    ("timezone = 'America/Los_Angeles'\n[deadlines]\ndue = 2024-02-07T23:59:00\n[late]\nper_day = -1",
     "late.per_day", "0 or more"),
    ("timezone = 'America/Los_Angeles'\n[deadlines]\ndue = 2024-02-07T23:59:00\n[late]\nunit = 'days'",
     "late.unit", "'days'"),
    ("timezone = 'America/Los_Angeles'\n[deadlines]\ndue = 2024-02-07T23:59:00\n[late]\ncap = 150", "late.cap",
     "up to 100"),
    ("timezone = 'America/Los_Angeles'\n[deadlines]\ndue = 2024-02-07T23:59:00\n[late]\nround_up = 'yes'",
     "late.round_up", "true or false"),
    ("timezone = 'America/Los_Angeles'\n[deadlines]\ndue = 2024-02-07T23:59:00\n[extensions]\napply_to = ['all']",
     "extensions.apply_to", "['all']"),
    ("timezone = 'America/Los_Angeles'\n[deadlines]\ndue = 2024-02-07T23:59:00\n[points]\nearly = true",
     "points.early", "True"),
    ("timezone = 'America/Los_Angeles'\npartners = 'both'\n[deadlines]\ndue = 2024-02-07T23:59:00", "partners",
     "'both'"),
    ("timezone = 'America/Los_Angeles'\ndeadlines = 3", "deadlines", "a table"),
    ("timezone = [", "", "not valid TOML"),
]


@pytest.mark.parametrize(("text", "key", "needle"), BAD_FILES, ids=[k or "toml" for _, k, _ in BAD_FILES])
def test_a_bad_course_file_gets_one_line_naming_the_file_the_key_and_what_is_wrong(text, key, needle) -> None:
    with pytest.raises(CourseError) as caught:
        parse_course(text, "my/course.toml")
    line = str(caught.value)
    assert "\n" not in line and line.startswith("my/course.toml: ") and needle in line
    assert f": {key}: " in line if key else True


# -- the roster and overrides -------------------------------------------------------------------------

ROSTER = """Student ID,NAME,E-mail,Extension_Days,Accommodation,Partner ID
alice,Alice Ames,alice@uni.edu,2,,
bob,Bob Birch,bob@uni.edu,2,yes,
carol,Carol Chen,carol@uni.edu,,,dan
dan,Dan Dorn,DAN@uni.edu,,no,
erin,Erin Eads,erin@uni.edu,,,

frank,Frank Fu,frank@uni.edu,0,0,
"""


def test_the_roster_reads_headers_in_any_case_and_spelling() -> None:
    roster = parse_roster(ROSTER)
    assert [s.id for s in roster.students] == ["alice", "bob", "carol", "dan", "erin", "frank"]
    alice, bob = roster.find("alice"), roster.find(email="BOB@UNI.EDU")
    assert alice.extension_days == 2 and not alice.accommodation and alice.name == "Alice Ames"
    assert bob.id == "bob" and bob.accommodation
    assert roster.partner_of(roster.find("dan")).id == "carol" and roster.partner_of(roster.find("carol")).id == "dan"
    assert roster.find("frank").row == 8  # rows as a spreadsheet numbers them, the blank one included
    assert roster.find("zed") is None


BAD_ROSTERS = [
    ("name,email\nAl,a@x\n", 1, "no column id"),
    ("id,name\na,A\na,B\n", 3, "already on row 2"),
    ("id,accommodation\na,maybe\n", 2, "'maybe'"),
    ("id,extension days\na,two\n", 2, "extension days"),
    ("id,extension days\na,-1\n", 2, "0 or more"),
    ("id,partner\na,zed\n", 2, "'zed' is not the id"),
    ("id,partner\na,a\n", 2, "'a' is not the id"),
    ("id,partner\na,b\nb,c\nc,\n", 2, "a names b as partner, but b is partnered with c"),
    ("id,partner\na,c\nb,c\nc,\n", 3, "b names c as partner, but c is partnered with a"),
    ("id,name\n,Al\n", 2, "the id cell is empty"),
    ("", 1, "empty"),
]


@pytest.mark.parametrize(("text", "row", "needle"), BAD_ROSTERS)
def test_a_bad_roster_gets_one_line_with_the_row(text: str, row: int, needle: str) -> None:
    with pytest.raises(CourseError) as caught:
        parse_roster(text, "roster.csv")
    assert str(caught.value).startswith(f"roster.csv row {row}: ") and needle in str(caught.value)
    assert "\n" not in str(caught.value)


def test_overrides_set_or_change_a_problem_the_checkpoint_the_bonus_or_the_total() -> None:
    found = parse_overrides("ID,Problem,Points,Reason\nalice,5,2,regraded by hand\nbob,q07,+1,typo in a case\n"
                            "carol,total,20,agreed\ndan,Checkpoint,1,server was down\n", labels={"05", "07"})
    assert [(o.student, o.target, o.points, o.relative) for o in found] == [
        ("alice", "05", 2, False), ("bob", "07", 1, True), ("carol", "total", 20, False),
        ("dan", "checkpoint", 1, False)]
    assert found[0].reason == "regraded by hand" and found[1].row == 3


@pytest.mark.parametrize(("text", "needle"), [
    ("id,problem,points,reason\na,99,1,x\n", "'99' is not a problem label"),
    ("id,problem,points,reason\na,bonus,1,x\n", "'bonus'"),
    ("id,problem,points,reason\na,05,1,\n", "reason cell is empty"),
    ("id,problem,points,reason\na,05,lots,x\n", "'lots'"),
    ("id,problem,points,reason\na,05,1,x\na,5,2,y\n", "already has an override of 05 on row 2"),
    ("id,problem,points\na,05,1\n", "no column reason"),
])
def test_a_bad_overrides_file_gets_one_line_with_the_row(text: str, needle: str) -> None:
    with pytest.raises(CourseError, match="overrides.csv row") as caught:
        parse_overrides(text, labels={"05"})
    assert needle in str(caught.value)


# -- the checkpoint by date --------------------------------------------------------------------------


@pytest.mark.parametrize(("offset", "earned"), [(-SECOND, True), (timedelta(0), True), (SECOND, False)])
def test_the_checkpoint_needs_phase_1_complete_by_its_date(offset: timedelta, earned: bool) -> None:
    out = apply_policy(C, PLAIN, [attempt(CHECKPOINT + offset, phase1=True, total=10)])
    assert out.checkpoint == (1 if earned else 0)
    assert out.adjustments[0].kind == "checkpoint" and ("+1" in out.lines[0]) == earned


def test_the_checkpoint_looks_at_every_submission_before_its_date() -> None:
    early_complete = attempt(CHECKPOINT - timedelta(days=2), phase1=True, total=10)
    later_broken = attempt(CHECKPOINT - timedelta(hours=1), phase1=False, total=4)
    assert apply_policy(C, PLAIN, [later_broken, early_complete]).checkpoint == 1
    late_complete = attempt(CHECKPOINT + SECOND, phase1=True, total=10)
    out = apply_policy(C, PLAIN, [later_broken, late_complete])
    assert out.checkpoint == 0 and "Tue 30 Jan 2024 23:59:01 PST" in out.lines[0]


def test_a_submission_in_utc_or_another_zone_is_compared_as_the_same_instant() -> None:
    # 23:59 PST on 30 January is 07:59 UTC on the 31st, and 16:59 in Tokyo.
    assert apply_policy(C, PLAIN, [attempt("2024-01-31T07:58:59+00:00")]).checkpoint == 1
    assert apply_policy(C, PLAIN, [attempt("2024-01-31T07:59:01Z")]).checkpoint == 0
    assert apply_policy(C, PLAIN, [attempt("2024-01-31T16:59:00+09:00")]).checkpoint == 1
    # Read as a course-time stamp, the same digits would have been 8 hours later, and late.
    assert apply_policy(C, PLAIN, [attempt("2024-01-31T07:58:59")]).checkpoint == 0


# -- the early bonus ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("offset", "bonus"), [(-SECOND, 1), (timedelta(0), 1), (SECOND, 0)])
def test_the_early_bonus_needs_full_marks_by_the_early_date(offset: timedelta, bonus: int) -> None:
    out = apply_policy(C, PLAIN, [attempt(EARLY + offset, total=24)])
    assert out.early == bonus
    line = next(a.line for a in out.adjustments if a.kind == "early")
    assert ("+1" in line) == bool(bonus) and "Early bonus" in line


def test_no_early_bonus_without_full_marks_and_nothing_to_explain() -> None:
    out = apply_policy(C, PLAIN, [attempt(EARLY - timedelta(days=1), total=23)])
    assert out.early == 0 and not [a for a in out.adjustments if a.kind == "early"]


def test_full_marks_before_the_early_date_count_even_when_a_later_submission_is_worse() -> None:
    out = apply_policy(C, PLAIN, [attempt(EARLY - timedelta(days=1), total=24), attempt(DUE - SECOND, total=20)])
    assert out.early == 1 and out.score == 20 and out.final == 20 + 1


# -- extensions ------------------------------------------------------------------------------------------


def test_extensions_move_the_due_date_and_the_checkpoint_but_not_the_early_date() -> None:
    alice = Student("alice", extension_days=2)
    dates = deadlines_for(C, alice)
    assert dates.due == DUE + timedelta(days=2) and dates.checkpoint == CHECKPOINT + timedelta(days=2)
    assert dates.early == EARLY and dates.moved == ("checkpoint", "due")
    out = apply_policy(C, alice, [attempt(CHECKPOINT + timedelta(days=2) - SECOND, total=10),
                                  attempt(EARLY + SECOND, total=24), attempt(DUE + timedelta(days=2), total=24)])
    assert out.checkpoint == 1 and out.early == 0 and out.late_days == 0 and out.penalty == 0
    assert out.adjustments[0].kind == "extension" and "2 days" in out.lines[0]
    assert apply_policy(C, alice, [attempt(DUE + timedelta(days=2) + SECOND)]).late_days == 1


def test_an_accommodation_moves_the_early_date_too() -> None:
    bob = Student("bob", extension_days=2, accommodation=True)
    assert deadlines_for(C, bob).early == EARLY + timedelta(days=2)
    assert apply_policy(C, bob, [attempt(EARLY + timedelta(days=2) - SECOND)]).early == 1
    assert apply_policy(C, bob, [attempt(EARLY + timedelta(days=2) + SECOND)]).early == 0
    assert deadlines_for(C, Student("x", accommodation=True)).moved == ()  # no days, nothing moves


def test_a_course_may_extend_the_early_date_for_everyone_or_the_due_date_only() -> None:
    every = parse_course(COURSE + '\n[extensions]\napply_to = ["due", "checkpoint", "early"]\n')
    assert deadlines_for(every, Student("a", extension_days=1)).early == EARLY + timedelta(days=1)
    due_only = parse_course(COURSE + '\n[extensions]\napply_to = ["due"]\n')
    assert deadlines_for(due_only, Student("a", extension_days=1)).checkpoint == CHECKPOINT


def test_an_extension_keeps_the_clock_time_across_daylight_saving() -> None:
    spring = parse_course('timezone = "America/Los_Angeles"\n[deadlines]\ndue = 2024-03-09T23:59:00\n')
    moved = deadlines_for(spring, Student("a", extension_days=1)).due
    assert moved.astimezone(LA).replace(tzinfo=None) == datetime(2024, 3, 10, 23, 59)
    assert moved.astimezone(UTC) - spring.due.astimezone(UTC) == timedelta(hours=23)  # the clocks went forward
    gap = parse_course('timezone = "America/Los_Angeles"\n[deadlines]\ndue = 2024-03-09T02:30:00\n')
    landed = deadlines_for(gap, Student("a", extension_days=1)).due  # 02:30 does not exist on the 10th
    assert landed.astimezone(LA).replace(tzinfo=None) == datetime(2024, 3, 10, 3, 30)


# -- the due date and the late policy -------------------------------------------------------------------


@pytest.mark.parametrize(("offset", "days"), [
    (-SECOND, 0), (timedelta(0), 0), (SECOND, 1), (timedelta(days=1), 1), (timedelta(days=1) + SECOND, 2),
    (timedelta(days=5), 5)])
def test_late_days_count_a_started_day_as_a_whole_one(offset: timedelta, days: int) -> None:
    assert late_days(DUE + offset, DUE, C) == days


def test_late_days_by_the_hour_when_the_policy_does_not_round_up() -> None:
    exact = course(policy="per_day", per_day=10, round_up=False)
    assert late_days(DUE + timedelta(hours=6), DUE, exact) == 0.25
    out = apply_policy(exact, PLAIN, [attempt(DUE + timedelta(hours=12), total=20)])
    assert out.late_days == 0.5 and out.penalty == 1.0 and "by the hour" in out.lines[-1]


def test_a_late_day_is_a_day_on_the_course_clock_across_daylight_saving() -> None:
    fall = parse_course('timezone = "America/Los_Angeles"\n[deadlines]\ndue = 2024-11-02T23:59:00\n'
                        '[late]\npolicy = "per_day"\nper_day = 1\nunit = "points"\n')
    next_evening = at("2024-11-03T23:59:00")  # 25 hours later, the same clock time
    assert late_days(next_evening, fall.due, fall) == 1
    assert late_days(next_evening + SECOND, fall.due, fall) == 2


def test_the_penalty_is_per_day_in_percent_or_points_up_to_the_cap() -> None:
    percent = course(policy="per_day", per_day=10, unit="percent", cap=30)
    assert penalty_for(20, 1, percent.late) == 2 and penalty_for(20, 5, percent.late) == 6
    points = course(policy="per_day", per_day=3, unit="points", cap=5)
    assert penalty_for(20, 1, points.late) == 3 and penalty_for(20, 4, points.late) == 5
    assert penalty_for(2, 4, points.late) == 2  # never more than the score
    uncapped = course(policy="per_day", per_day=3, unit="points")
    assert penalty_for(20, 4, uncapped.late) == 12


def test_the_late_submission_counts_less_its_penalty_when_it_is_worth_more() -> None:
    out = apply_policy(C, PLAIN, [attempt(DUE - SECOND, total=12), attempt(DUE + SECOND, total=24)])
    assert out.counted.time == DUE + SECOND and out.late_days == 1 and out.penalty == 2.4
    assert out.final == round(24 - 2.4, 2) and out.checkpoint == 0  # both came after the checkpoint date
    assert any(a.kind == "late" and a.points == -2.4 and "-2.4" in a.line for a in out.adjustments)


def test_the_last_on_time_submission_counts_when_the_late_one_is_worth_less() -> None:
    out = apply_policy(C, PLAIN, [attempt(DUE - SECOND, total=22), attempt(DUE + timedelta(days=3), total=24)])
    assert out.counted.time == DUE - SECOND and out.penalty == 0 and out.late_days == 0 and out.score == 22
    assert any(a.kind == "counted" and "on-time" in a.line for a in out.adjustments)


def test_the_last_on_time_submission_counts_not_the_best() -> None:
    out = apply_policy(C, PLAIN, [attempt(DUE - timedelta(days=1), total=24), attempt(DUE, total=18)])
    assert out.score == 18 and out.counted.time == DUE


def test_without_a_late_policy_late_submissions_do_not_count() -> None:
    strict = course(policy="none")
    out = apply_policy(strict, PLAIN, [attempt(DUE - SECOND, total=10), attempt(DUE + SECOND, total=24)])
    assert out.score == 10 and out.penalty == 0 and out.counted.time == DUE - SECOND
    assert any("does not accept late work" in line for line in out.lines)
    nothing = apply_policy(strict, PLAIN, [attempt(DUE + SECOND, total=24)])
    assert nothing.counted is None and nothing.score == 0 and nothing.final == 0
    assert any(a.kind == "missing" for a in nothing.adjustments)


def test_submissions_later_than_max_days_do_not_count() -> None:
    limited = course(policy="per_day", per_day=10, max_days=2)
    out = apply_policy(limited, PLAIN, [attempt(DUE + timedelta(days=1), total=20),
                                        attempt(DUE + timedelta(days=3), total=24)])
    assert out.score == 20 and out.late_days == 1 and out.penalty == 2
    assert any("later than the course accepts" in line for line in out.lines)


def test_grace_minutes_keep_a_submission_on_time_for_every_deadline() -> None:
    graced = parse_course(COURSE.replace("[deadlines]", "[deadlines]\ngrace_minutes = 5"))
    out = apply_policy(graced, PLAIN, [attempt(CHECKPOINT + timedelta(minutes=5), total=10),
                                       attempt(DUE + timedelta(minutes=5), total=24)])
    assert out.checkpoint == 1 and out.late_days == 0
    assert late_days(DUE + timedelta(minutes=5, seconds=1), DUE, graced) == 1


def test_a_student_with_no_submission_gets_a_row_of_zeros_saying_why() -> None:
    out = apply_policy(C, PLAIN, [])
    assert out.final == 0 and out.counted is None and out.attempts == 0
    assert [a.kind for a in out.adjustments] == ["checkpoint", "missing"]


# -- overrides ----------------------------------------------------------------------------------------------


def test_overrides_apply_after_grading_and_say_their_reason() -> None:
    base = [attempt(CHECKPOINT - SECOND, total=10), attempt(DUE - SECOND, total=20)]
    o = [Override("s1", "05", 22, False, "the case was wrong"), Override("s1", "total", 2, True, "good style"),
         Override("other", "total", 0, False, "not this student")]
    out = apply_policy(C, PLAIN, base, o)
    assert dict(out.problems)["05"] == 22 and out.score == 24 and out.override == 6
    assert out.final == 24 + 1 + 2
    lines = [a.line for a in out.adjustments if a.kind == "override"]
    assert len(lines) == 2 and "Reason: the case was wrong" in lines[0] and "Problem 05 set to 22 (+4)" in lines[0]
    assert "+2 to the total" in lines[1]


def test_overrides_are_kept_on_every_rerun_whatever_the_new_grading_gives() -> None:
    o = [Override("s1", "05", 18, False, "hand regrade"), Override("s1", "checkpoint", 1, False, "server down")]
    first = apply_policy(C, PLAIN, [attempt(DUE - SECOND, phase1=False, total=10)], o)
    rerun = apply_policy(C, PLAIN, [attempt(DUE - SECOND, phase1=False, total=14)], o)  # the kit improved a case
    assert dict(first.problems)["05"] == dict(rerun.problems)["05"] == 18
    assert first.checkpoint == rerun.checkpoint == 1 and rerun.final == 2 + 18 + 1


def test_an_override_for_someone_nobody_graded_is_listed() -> None:
    outcomes, notes = grade_course(C, [(PLAIN, [attempt(DUE)])], [Override("ghost", "total", 3, False, "x", 4)])
    assert len(outcomes) == 1 and notes == (courses_messages.override_unused("ghost", 4),)


# -- results of grading --------------------------------------------------------------------------------------


def test_phase_1_is_complete_when_every_phase_1_problem_worth_points_has_them(edition) -> None:
    labels = phase_one_labels([(p.label, p.phase, p.points) for p in edition.problems])
    assert labels and "00" not in labels  # Problem 00 is worth no points
    maxima = {p.label: float(p.points) for p in edition.problems}
    full = result_from_scores(maxima, maxima, labels)
    assert full.phase1_complete and full.full_marks and full.total == edition.max_points
    missing_one = result_from_scores({**maxima, sorted(labels)[-1]: 0.0}, maxima, labels)
    assert not missing_one.phase1_complete and not missing_one.full_marks
    assert Result(False, 0, 0).full_marks is False  # nothing graded is never full marks


def test_time_stamps_as_gradescope_yaml_and_spreadsheets_write_them() -> None:
    want = datetime.fromisoformat("2024-02-06T21:14:05.123456-08:00")
    assert parse_timestamp("2024-02-06 21:14:05.123456000 -08:00") == want
    assert parse_timestamp("2024-02-06T21:14:05.123456-08:00") == want
    assert parse_timestamp("2024-02-07T05:14:05.123456Z") == want
    assert parse_timestamp("2024-02-06 21:14:05.123456 -08") == want
    assert parse_timestamp("2024-02-06 21:14:05.123456", LA) == want
    assert parse_timestamp("2024-02-06 21:14:05") is None  # no offset and no zone: unknown, not guessed
    assert parse_timestamp("yesterday", LA) is None


def test_in_the_hour_shown_twice_the_real_instant_decides() -> None:
    night = parse_course('timezone = "America/Los_Angeles"\n[deadlines]\ndue = 2024-11-03T01:30:00\n')
    # the later 01:30 (compared in UTC: Python never finds a time of the repeated hour equal to another zone's)
    assert night.due.astimezone(UTC) == datetime.fromisoformat("2024-11-03T01:30:00-08:00")
    first_0145 = datetime(2024, 11, 3, 1, 45, tzinfo=LA, fold=0)  # 01:45 PDT, before 01:30 PST
    assert apply_policy(night, PLAIN, [attempt(first_0145)]).counted is not None
    assert apply_policy(night, PLAIN, [attempt(datetime(2024, 11, 3, 1, 45, tzinfo=LA, fold=1))]).counted is None


def test_a_course_fits_the_edition_graded_its_checkpoint_and_its_scale() -> None:
    """No checkpoint point for an edition that has none unless the file sets one; Pig's 25 count as 15."""
    from graders.courses.course import parse_course
    from graders.courses.policy import for_edition

    plain = parse_course('timezone = "UTC"\n[deadlines]\ndue = 2024-02-07T23:59:00\n')
    assert for_edition(plain, 0).checkpoint_points == 0 and for_edition(plain, 1).checkpoint_points == 1
    given = parse_course('timezone = "UTC"\n[deadlines]\ndue = 2024-02-07T23:59:00\n[points]\ncheckpoint = 2\n')
    assert for_edition(given, 0).checkpoint_points == 2
    pig = for_edition(plain, 0, 15, 25)
    assert pig.scale == pytest.approx(0.6)
    from datetime import UTC, datetime

    from graders.courses.course import Student
    from graders.courses.policy import apply_policy
    on_time = Attempt(datetime(2024, 2, 1, tzinfo=UTC), True, 20.0, 25.0, (), "ann-1")
    outcome = apply_policy(pig, Student("ann"), [on_time])
    assert (outcome.checkpoint, outcome.final) == (0.0, 12.0)


def test_a_later_worse_hand_in_of_a_group_is_said_and_best_keeps_the_finished_work() -> None:
    """Carol hands in 24/24, then her partner Dan 0/24: with groups = "last" the 0 counts and both
    partners read a warning naming the earlier hand-in; with groups = "best" the 24 counts."""
    from datetime import UTC, datetime

    from graders.courses.course import LOWER, Student, parse_course
    from graders.courses.policy import apply_policy

    text = 'timezone = "UTC"\n[deadlines]\ndue = 2024-02-07T23:59:00\n'
    finished = Attempt(datetime(2024, 2, 1, tzinfo=UTC), True, 24.0, 24.0, (), "carol-1")
    worse = Attempt(datetime(2024, 2, 2, tzinfo=UTC), False, 0.0, 24.0, (), "dan-1")
    for who in ("carol", "dan"):
        last = apply_policy(parse_course(text), Student(who), [finished, worse])
        assert last.score == 0 and last.counted == worse
        (warning,) = [a for a in last.adjustments if a.kind == LOWER]
        assert "dan-1" in warning.line and "carol-1" in warning.line and "24/24" in warning.line
        best = apply_policy(parse_course(text.replace('timezone', 'groups = "best"\ntimezone')), Student(who),
                            [finished, worse])
        assert best.score == 24 and best.counted == finished and not [a for a in best.adjustments if a.kind == LOWER]
    with pytest.raises(CourseError, match="groups"):
        parse_course(text.replace('timezone', 'groups = "first"\ntimezone'))


def test_a_phase_due_earlier_is_scored_from_the_hand_in_by_its_date() -> None:
    """Swine Swap's seed: Phase 1 within ten days, Phases 2 and 3 five days later. Phase 1's problems
    count from the hand-in by its own date; the later one counts for the rest."""
    from datetime import UTC, datetime

    from graders.courses.course import Student, parse_course
    from graders.courses.policy import apply_policy, for_edition

    text = ('timezone = "Asia/Shanghai"\n[deadlines]\ndue = 2024-03-16T23:59:00\n'
            'phases = { 1 = 2024-03-11T23:59:00 }\n')
    course = for_edition(parse_course(text), 0, phase_of=(("01", 1), ("02", 1), ("03", 2)))
    first = Attempt(datetime(2024, 3, 10, tzinfo=UTC), False, 2.0, 7.0, (("01", 2.0), ("02", 0.0), ("03", 0.0)), "a-1")
    later = Attempt(datetime(2024, 3, 14, tzinfo=UTC), True, 7.0, 7.0, (("01", 2.0), ("02", 2.0), ("03", 3.0)), "a-2")
    outcome = apply_policy(course, Student("ann"), [first, later])
    assert outcome.counted == later and outcome.score == 5 and dict(outcome.problems)["02"] == 0
    (line,) = [a for a in outcome.adjustments if a.kind == "phase"]
    assert "Phase 1 is due" in line.line and "a-1" in line.line and line.points == -2
    on_time = apply_policy(course, Student("bo"), [Attempt(datetime(2024, 3, 11, tzinfo=UTC), True, 7.0, 7.0,
                                                            later.problems, "b-1")])
    assert on_time.score == 7 and not [a for a in on_time.adjustments if a.kind == "phase"]
    with pytest.raises(CourseError, match="phases.1"):
        parse_course(text.replace("2024-03-11", "2024-03-20"))


# -- policies that take points from many students, the late penalty's share, a pair's groups -------------


def readme_course_sample() -> str:
    """The course file the docs print under "The course file", as an instructor copies it."""
    from graders.editions.edition import kit_root

    text = (kit_root() / "docs" / "courses.md").read_text(encoding="utf-8")
    return text.split("## The course file", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]


def boar_class(course_text: str) -> list[float]:
    """The finals of a class of 14 under COURSE_TEXT fitted to Boar Brawl: each student hands in Phase 1
    complete at one of 14 times from two weeks before the due date to two days after, then everything
    an hour before the due date."""
    from graders.courses.policy import edition_course
    from graders.editions.edition import load_edition

    edition = load_edition("boar_brawl")
    course = edition_course(parse_course(course_text), edition)
    maxima = {p.label: float(p.points) for p in edition.problems}
    phase_one = phase_one_labels([(p.label, p.phase, p.points) for p in edition.problems])
    first = result_from_scores({k: v for k, v in maxima.items() if k in phase_one}, maxima, phase_one)
    full = result_from_scores(maxima, maxima, phase_one)
    return [apply_policy(course, Student(f"s{k}"), [first.at(DUE - timedelta(days=14 - k), f"s{k}-1"),
                                                    full.at(DUE - timedelta(hours=1), f"s{k}-2")]).final
            for k in range(14)]


def test_the_readme_s_sample_course_file_changes_no_grade_its_text_does_not_say() -> None:
    """Copied as printed, the sample once zeroed Phase 1 for most of a class through a live phase date
    commented "optional". It grades as the handout's own dates (the README's table) with the late rule
    its text states; the phase date is left commented out, and its text says what it would take."""
    sample = readme_course_sample()
    late = "[late]" + sample.split("[late]", 1)[1].split("[extensions]", 1)[0]
    handout = ('timezone = "America/Los_Angeles"\n[deadlines]\ncheckpoint = 2024-01-30T23:59:00\n'
               f'early = 2024-02-06T23:59:00\ndue = 2024-02-07T23:59:00\n{late}')
    assert boar_class(sample) == boar_class(handout)
    (line,) = [line for line in sample.splitlines() if "phases" in line]
    assert line.startswith("# ") and "count only from hand-ins by then" in line
    assert boar_class(sample.replace(line, line[2:])) != boar_class(handout)  # what it says is what it does


def test_a_rule_that_takes_points_from_a_quarter_of_the_class_or_more_is_counted() -> None:
    """A Phase 1 due date before 8 of 14 students completed it takes Phase 1's points from those 8:
    policy_costs names the key, the count and the points in all; a rule costing fewer than a quarter
    of the class is not listed, one costing a quarter is."""
    from graders.courses.course import PolicyCost
    from graders.courses.policy import edition_course, policy_costs
    from graders.editions.edition import load_edition

    edition = load_edition("boar_brawl")
    phased = COURSE.replace("due = 2024-02-07T23:59:00\n",
                            "due = 2024-02-07T23:59:00\nphases = { 1 = 2024-01-30T00:00:00 }\n")
    course = edition_course(parse_course(phased), edition)
    maxima = {p.label: float(p.points) for p in edition.problems}
    phase_one = phase_one_labels([(p.label, p.phase, p.points) for p in edition.problems])
    full = result_from_scores(maxima, maxima, phase_one)
    phase_points = sum(maxima[k] for k in phase_one)
    due = dict(course.phase_dues)[1]
    outcomes = [apply_policy(course, Student(f"s{k}"), [full.at(due + timedelta(hours=k - 6, seconds=1), f"s{k}")])
                for k in range(14)]  # s0..s5 on time for Phase 1, s6..s13 after its date
    assert [o.final for o in outcomes] == [26.0] * 6 + [26.0 - phase_points] * 8
    assert policy_costs(outcomes) == (PolicyCost("deadlines.phases.1", 8, 14, 8 * phase_points),)
    assert policy_costs(outcomes[:6] + outcomes[6:7]) == ()  # 1 of 7
    assert policy_costs(outcomes[:3] + outcomes[6:7]) == (PolicyCost("deadlines.phases.1", 1, 4, phase_points),)


def test_a_late_penalty_is_a_share_of_the_points_the_late_hand_in_counts_for() -> None:
    """Phase 1 (01, 02) is due on its own date and scored from the hand-in by then (4 points); the late
    hand-in, a day after the due date, counts for Phase 2 (03: 16 points). 10% per day is 1.6 (10% of
    16), not 2.0 (10% of the late hand-in's 20): final 4 + 16 - 1.6 = 18.4. In points, the penalty is
    never more than those 16."""
    from graders.courses.policy import for_edition

    text = ('timezone = "UTC"\n[deadlines]\ndue = 2024-03-16T23:59:00\nphases = { 1 = 2024-03-11T23:59:00 }\n'
            '[late]\npolicy = "per_day"\nper_day = 10\nunit = "percent"\n')
    course = for_edition(parse_course(text), 0, phase_of=(("01", 1), ("02", 1), ("03", 2)))
    first = Attempt(datetime(2024, 3, 10, tzinfo=UTC), True, 4.0, 20.0, (("01", 2.0), ("02", 2.0), ("03", 0.0)), "a-1")
    late = Attempt(datetime(2024, 3, 17, 12, tzinfo=UTC), True, 20.0, 20.0, (("01", 2.0), ("02", 2.0), ("03", 16.0)),
                   "a-2")
    out = apply_policy(course, PLAIN, [first, late])
    assert out.counted == late and out.late_days == 1 and out.penalty == 1.6 and out.final == 18.4
    (line,) = [a for a in out.adjustments if a.kind == "late"]
    assert line.points == -1.6 and "of the 16 points it counts for" in line.line
    assert (line.rule, line.cost) == ("late.per_day", 1.6)
    points = for_edition(parse_course(text.replace('per_day = 10\nunit = "percent"', 'per_day = 20\nunit = "points"')),
                         0, phase_of=course.phase_of)
    assert apply_policy(points, PLAIN, [first, late]).final == 4  # 20 points a day, at most the 16 it counts for
    # the same hand-ins without a phase date: 10% of all 20
    whole = for_edition(parse_course(text.replace("phases = { 1 = 2024-03-11T23:59:00 }\n", "")), 0,
                        phase_of=course.phase_of)
    plain = apply_policy(whole, PLAIN, [first, late])
    assert plain.penalty == 2 and plain.final == 18


def test_a_pair_s_roster_row_sets_which_of_their_hand_ins_counts() -> None:
    """groups = "best" for one pair: Carol's row says best, so Carol and Dan keep her finished 24 though
    his later hand-in scores 0; Erin and Finn keep the course file's "last". A pair naming two is refused."""
    roster = parse_roster("id,partner,groups\ncarol,dan,best\ndan,,\nerin,finn,\nfinn,,\n")
    by_id = {s.id: s for s in roster.students}
    assert (by_id["carol"].groups, by_id["dan"].groups, by_id["erin"].groups) == ("best", "best", "")
    finished = attempt(DUE - timedelta(days=2), total=24, key="carol-1")
    worse = attempt(DUE - timedelta(days=1), phase1=False, total=2, key="dan-1")
    for who in ("carol", "dan"):
        out = apply_policy(C, by_id[who], [finished, worse])
        assert out.counted == finished and out.score == 24
    last = apply_policy(C, by_id["erin"], [finished, worse])
    assert last.counted == worse and last.score == 2
    (warning,) = [a for a in last.adjustments if a.kind == "lower"]
    assert (warning.rule, warning.cost) == ("groups", 22)
    assert warning.note == courses_messages.course_note_lower("dan-1", shown(worse), "2", "carol-1", shown(finished),
                                                              "24", "24")
    assert "Ask your instructor" not in warning.note and "roster row" in warning.note  # the instructor's words
    with pytest.raises(CourseError, match="row 3: carol's groups is best but their partner dan's is last"):
        parse_roster("id,partner,groups\ncarol,dan,best\ndan,,last\n")
    with pytest.raises(CourseError, match="row 2: .*last, best or blank in groups"):
        parse_roster("id,groups\ncarol,first\n")


def shown(a: Attempt) -> str:
    from graders.courses.policy import shown_time

    return shown_time(a.time, LA)
