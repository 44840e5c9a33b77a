"""Policy: a course fitted to the edition graded, each student's deadlines, and the rules that turn a
student's hand-ins into a final score (:func:`apply_policy`, :func:`grade_course`), with what each rule
cost (:func:`policy_costs`). Pure functions of the frozen records of :mod:`graders.courses.course`."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from graders.core import messages
from graders.courses import messages as courses_messages
from graders.courses.course import (
    CHECKPOINT,
    DAY,
    DEADLINE_NAMES,
    EARLY,
    LOWER,
    TOTAL,
    Adjustment,
    Attempt,
    Course,
    Deadlines,
    LatePolicy,
    Outcome,
    Override,
    PolicyCost,
    Result,
    Student,
    local_time,
)
from graders.editions.edition import Edition


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
