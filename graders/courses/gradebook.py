"""Gradebook: a course's outcomes as the columns, files and lines people read or import.

Contract: pure rendering of :class:`graders.courses.course.Outcome` records, nothing read or written here.

- :data:`COURSE_COLUMNS` and :func:`course_cells`: the columns ``grades.csv`` gains (checkpoint by
  date, early bonus, late days, penalty, override, final); :data:`ROSTER_COLUMNS` and
  :func:`roster_cells` the roster's (name, email, on roster, partner).
- :func:`render_course_grades`: one CSV row per student with both, the hand-in that counted and
  its problem scores: what a course's ``grades.csv`` holds.
- :func:`render_gradescope_scores`: the CSV Gradescope's "Upload scores" takes for an assignment,
  columns ``Name, SID, Email, Total Score`` (Gradescope matches a row by its email or SID).
- :func:`render_canvas_scores`: the CSV Canvas's gradebook import takes, columns
  ``Student, ID, SIS User ID, SIS Login ID, Section, <assignment>``: Canvas matches a row by its
  ``ID`` (Canvas's own number, which the kit does not know and leaves empty) or its ``SIS User ID``
  (the roster id), and reads the assignment's column as the score.
- :func:`render_adjustments` and :func:`adjustment_lines`: the feedback's section explaining each
  adjustment in one line; :func:`render_student_feedback` a student's whole feedback (the hand-in
  that counts, then that section).
- :func:`course_results`: the results.json of Gradescope's autograder with the course applied: the
  final score, the engine's date-blind checkpoint test replaced by one test explaining the
  adjustments (worth what the course adds at most: its checkpoint and early bonus), the problems'
  tests at the course's scale, and the section in the student's output; so the tests' ``max_score``
  values add up to the total ``hogkit gradescope --course`` says to set.
- :func:`student_reason`: why a student's row has no score from a hand-in (nothing handed in, a
  hand-in that could not be graded) or has none at all (the kit failed on one of their hand-ins:
  such a row is *withheld*, its score cells left empty and kept out of the imports, never a 0).

Every CSV is written by :func:`graders.core.writers.csv_text`: a text cell a spreadsheet would run as a
formula is written with a leading apostrophe.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from zoneinfo import ZoneInfo

from graders.core import messages
from graders.core.records import EntryStatus
from graders.core.writers import csv_text, md_line
from graders.courses import messages as courses_messages
from graders.courses.course import Outcome, Student
from graders.courses.policy import shown_time

COURSE_COLUMNS = ("checkpoint by date", "early bonus", "late days", "penalty", "override", "final")
REASON_COLUMN = "reason"
ROSTER_COLUMNS = ("name", "email", "on roster", "partner")
GRADESCOPE_COLUMNS = ("Name", "SID", "Email", "Total Score")
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")


def course_cells(outcome: Outcome) -> tuple[str, ...]:
    """The values of :data:`COURSE_COLUMNS` for one student."""
    n = messages.points_text
    return (n(outcome.checkpoint), n(outcome.early), n(outcome.late_days), n(outcome.penalty), n(outcome.override),
            n(outcome.final))


def roster_cells(student: Student, shared_with: Sequence[str] = ()) -> tuple[str, ...]:
    """The values of :data:`ROSTER_COLUMNS`: the partner is the roster's, else whom hand-ins were shared with."""
    partner = student.partner or " ".join(shared_with)
    return (student.name, student.email, "yes" if student.on_roster else "no", partner)


def render_course_grades(outcomes: Sequence[Outcome], labels: Sequence[str], zone: ZoneInfo,
                         shared: Mapping[str, Sequence[str]] | None = None,
                         reasons: Mapping[str, str] | None = None, withheld: Collection[str] = (),
                         most: float = 0.0) -> str:
    """One row per student: id, the roster's columns, how many hand-ins, the one that counted (its
    time), each problem's score in it (overrides applied), its score and maximum (MOST, the
    edition's, for a student with nothing graded), the course's columns, and the reason (REASONS by
    id) when there is one. A WITHHELD student's score cells are empty."""
    rows: list[list[object]] = [["student", *ROSTER_COLUMNS, "submissions", "counted",
                                 *[f"problem {x}" for x in labels], "score", "max", *COURSE_COLUMNS, REASON_COLUMN]]
    for o in outcomes:
        scores = dict(o.problems)
        counted = shown_time(o.counted.time, zone) if o.counted else ""
        cells = [*[messages.points_text(scores.get(x, 0.0)) for x in labels], messages.points_text(o.score),
                 messages.points_text(o.max or most), *course_cells(o)]
        if o.student.id in withheld:  # no score rather than one someone might upload
            cells = [""] * len(cells)
        rows.append([o.student.id, *roster_cells(o.student, (shared or {}).get(o.student.id, ())),
                     o.attempts, counted, *cells, (reasons or {}).get(o.student.id, "")])
    return csv_text(rows)


def render_gradescope_scores(outcomes: Sequence[Outcome], withheld: Collection[str] = ()) -> str:
    """Gradescope's score upload: ``Name, SID, Email, Total Score``, the final score (WITHHELD
    students left out); a student the roster does not name is named by their id (never a nameless row)."""
    rows: list[Sequence[object]] = [GRADESCOPE_COLUMNS]
    rows += [[o.student.name or o.student.id, o.student.id, o.student.email, messages.points_text(o.final)]
             for o in outcomes if o.student.id not in withheld]
    return csv_text(rows)


def render_canvas_scores(outcomes: Sequence[Outcome], assignment: str, section: str = "",
                         withheld: Collection[str] = ()) -> str:
    """Canvas's gradebook import: ``Student, ID, SIS User ID, SIS Login ID, Section, ASSIGNMENT``
    (WITHHELD students left out)."""
    rows: list[Sequence[object]] = [[*CANVAS_COLUMNS, assignment]]
    rows += [[o.student.name, "", o.student.id, o.student.email, section, messages.points_text(o.final)]
             for o in outcomes if o.student.id not in withheld]
    return csv_text(rows)


def student_reason(outcome: Outcome, handins: Sequence[tuple[str, str, str]]) -> tuple[str, bool]:
    """(the reason of a student's row, whether their score is withheld) from their HANDINS, each
    (key, status, reason) as the class grader recorded it: withheld when the kit failed on one;
    else, when no hand-in counted, why (none handed in, none that could be graded, none in time)."""
    failed = [key for key, status, _ in handins if status == EntryStatus.KIT_ERROR]
    if failed:
        return courses_messages.course_withheld(failed), True
    if outcome.counted is not None:
        return "", False
    if not handins:
        return courses_messages.course_no_handin(), False
    broken = [(key, reason) for key, status, reason in handins if status != "graded"]
    if len(broken) == len(handins):
        return courses_messages.course_none_graded(broken), False
    missing = [a.line for a in outcome.adjustments if a.kind == "missing"]
    return (missing[0] if missing else ""), False


def adjustment_lines(outcome: Outcome) -> tuple[str, ...]:
    """One line per adjustment, in the order they were applied."""
    return outcome.lines


def render_adjustments(outcome: Outcome, most: float = 0.0) -> str:
    """The feedback's Markdown section: each adjustment in one line, then the final score (out of
    MOST, the edition's, when nothing was graded)."""
    lines = [f"## {courses_messages.adjustments_heading()}", ""]
    lines += [f"- {md_line(line)}" for line in adjustment_lines(outcome)] or [f"- {courses_messages.no_adjustments()}"]
    n = messages.points_text
    top = outcome.max or most
    scaled = (n(round(outcome.score * outcome.scale, 2)), n(round(top * outcome.scale, 2))) \
        if outcome.scale != 1 else ("", "")
    lines += ["", courses_messages.final_score_line(n(outcome.final), n(outcome.score), n(top), *scaled)]
    return "\n".join(lines) + "\n"


def render_student_feedback(outcome: Outcome, title: str, zone: ZoneInfo, counted: str = "",
                            reason: str = "", withheld: bool = False, most: float = 0.0) -> str:
    """A student's feedback: a heading naming them, which hand-in counts (COUNTED: that hand-in's own
    feedback, as the class grader rendered it, whose heading is replaced) or REASON when none does,
    then the section "Deadlines and adjustments". A WITHHELD student's is the heading and REASON alone."""
    lines = [f"# {courses_messages.course_feedback_heading(md_line(title), md_line(outcome.student.id))}", ""]
    if withheld:
        return "\n".join([*lines, f"**{md_line(reason)}**", ""])
    if outcome.counted is not None:
        lines += [md_line(courses_messages.course_counted_line(
            outcome.counted.key, shown_time(outcome.counted.time, zone))),
                  ""]
        body = counted.split("\n", 1)[1] if counted.startswith("# ") else counted
        lines += [body.strip("\n"), ""]
    elif reason:
        lines += [md_line(reason), ""]
    return "\n".join(lines) + "\n" + render_adjustments(outcome, most)


COURSE_TEST = "course"  # the number of the autograder's test that explains the adjustments


def course_results(results: Mapping, outcomes: Sequence[Outcome], bonus_points: float,
                   graded: bool = True) -> dict:
    """RESULTS (an autograder's results.json, as data) with the course applied for the OUTCOMES of its
    submitters (one per group member; a group gets one score on Gradescope: the best of theirs). The
    engine's checkpoint test (which counts Phase 1 whatever the date) gives way to a test holding the
    adjustments, whose score is what they add and whose most is BONUS_POINTS (the checkpoint and the
    early bonus); the problems' tests count at the course's scale; the output ends with the section
    for each member."""
    best = max(outcomes, key=lambda o: o.final)
    sections = []
    for o in outcomes:
        section = render_adjustments(o)
        if len(outcomes) > 1:  # say whose section it is
            section = section.replace("\n", f" ({md_line(o.student.name or o.student.id)})\n", 1)
        sections.append(section)
    tests = [_scaled(t, best.scale) for t in results.get("tests", []) if t.get("number") != "checkpoint"]
    tests.append({"name": courses_messages.adjustments_heading(), "number": COURSE_TEST,
                  "score": round(best.final - best.score * best.scale, 2), "max_score": bonus_points,
                  "status": "passed",
                  "output": "\n".join(sections), "output_format": "md", "visibility": "visible"})
    output = messages.total_line(messages.points_text(best.score), messages.points_text(best.max)) if graded \
        else str(results.get("output", ""))
    extra = {**results.get("extra_data", {}), "course": {o.student.id: dict(zip(COURSE_COLUMNS, course_cells(o),
                                                                                  strict=True)) for o in outcomes}}
    return {**results, "score": best.final, "tests": tests, "output": output + "\n\n" + "\n".join(sections),
            "extra_data": extra}


def _scaled(test: Mapping, scale: float) -> dict:
    """TEST with its score and most at the course's SCALE (Pig: each point worth 15/25)."""
    if scale == 1:
        return dict(test)
    return {**test, "score": round(float(test.get("score", 0)) * scale, 4),
            "max_score": round(float(test.get("max_score", 0)) * scale, 4)}
