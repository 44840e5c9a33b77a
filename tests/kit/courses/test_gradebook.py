"""What a course's outcomes become: grades.csv's new columns, the imports Gradescope and Canvas take,
and the feedback's one line per adjustment."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from graders.courses import gradebook
from graders.courses import messages as courses_messages
from graders.courses.course import Attempt, Override, Student, parse_course
from graders.courses.policy import apply_policy

from .test_course import COURSE

C = parse_course(COURSE)


def outcome(student: Student, total: float = 20, late: bool = False, overrides=()):
    when = C.due + timedelta(hours=2) if late else C.checkpoint - timedelta(hours=1)
    return apply_policy(C, student, [Attempt(when, True, total, 24, (("01", 2.0), ("05", total - 2)))], overrides)


ANN = Student("ann", "Ann Lee", "ann@uni.edu")
EVIL = Student("=HYPERLINK(1)", "+cmd", "@x", partner="bob")


def test_grades_csv_gains_the_course_columns() -> None:
    late = outcome(ANN, 24, late=True, overrides=[Override("ann", "total", 1, True, "style")])
    assert gradebook.course_cells(late) == ("0", "0", "1", "2.4", "1", "22.6")
    text = gradebook.render_course_grades([late, outcome(EVIL)], ["01", "05"], C.zone, {"ann": ["cat"]})
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["student", "name", "email", "on roster", "partner", "submissions", "counted", "problem 01",
                       "problem 05", "score", "max", *gradebook.COURSE_COLUMNS, "reason"]
    assert rows[1][:5] == ["ann", "Ann Lee", "ann@uni.edu", "yes", "cat"] and rows[1][-2:] == ["22.6", ""]
    assert rows[1][6] == "Thu 08 Feb 2024 01:59 PST" and rows[1][7:11] == ["2", "22", "24", "24"]
    assert rows[2][:5] == ["'=HYPERLINK(1)", "'+cmd", "'@x", "yes", "bob"]  # shown, never run as formulas


def test_the_gradescope_and_canvas_imports_have_their_columns() -> None:
    done = [outcome(ANN, 24), outcome(Student("zed", on_roster=False), 10)]
    gradescope = list(csv.reader(io.StringIO(gradebook.render_gradescope_scores(done))))
    assert gradescope == [["Name", "SID", "Email", "Total Score"], ["Ann Lee", "ann", "ann@uni.edu", "26"],
                          ["zed", "zed", "", "11"]]  # off the roster: named by id, never a nameless row
    canvas = list(csv.reader(io.StringIO(gradebook.render_canvas_scores(done, "Hog (1234)", "101"))))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Hog (1234)"]
    assert canvas[1] == ["Ann Lee", "", "ann", "ann@uni.edu", "101", "26"]  # 24, the checkpoint and the bonus


def test_the_feedback_explains_each_adjustment_in_one_line() -> None:
    late = outcome(ANN, 24, late=True, overrides=[Override("ann", "05", 20, False, "a hand regrade")])
    section = gradebook.render_adjustments(late)
    assert section.startswith(f"## {courses_messages.adjustments_heading()}\n")
    bullets = [line for line in section.splitlines() if line.startswith("- ")]
    assert bullets == [f"- {line}" for line in gradebook.adjustment_lines(late)] and len(bullets) == 4
    assert "Checkpoint: no points" in bullets[0] and "Early bonus: no points" in bullets[1]
    assert "Reason: a hand regrade" in bullets[2] and "-2.2" in bullets[3]
    assert courses_messages.final_score_line("19.8", "22", "24") in section
    plain = gradebook.render_adjustments(outcome(ANN, 10))
    assert "Checkpoint: +1" in plain and "Final score: 11" in plain
