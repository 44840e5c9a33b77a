"""The reference earns every point, the skeleton none, and the records add up."""

from __future__ import annotations

import functools
import json

import pytest

from graders.authoring.artifacts import stale_files
from graders.authoring.demo import demo_stages
from graders.core.records import ClassRecord, EntryStatus
from graders.editions.cases import load_problem_cases
from graders.editions.edition import edition_names, load_edition
from graders.scoring import messages as scoring_messages
from graders.scoring import reports
from graders.scoring.grading import grade
from graders.scoring.submissions import Submission

from ..conftest import grade_source, problem, scores


def source_of(edition, folder: str) -> str:
    return (getattr(edition, folder) / edition.submission).read_text(encoding="utf-8")


@functools.cache
def reference_report(name: str):
    """The reference of edition NAME graded whole, hidden cases included: once per process, for
    every test here that reads that one report (a report is frozen; grading it again is the
    business of test_grading_is_repeatable)."""
    edition = load_edition(name)
    return grade_source(source_of(edition, "solution_dir"), edition)


def test_default_reference_scores_24_in_two_phases_of_12(edition):
    report = reference_report(edition.name)
    assert (report.total, report.max) == (24, 24)
    assert [(ph.name, ph.score, ph.max) for ph in report.phases] == [
        ("Rules of the Game", 12, 12),
        ("Strategies", 12, 12),
    ]


def test_reference_scores_full_marks(any_edition):
    edition = any_edition
    report = reference_report(edition.name)
    assert (report.total, report.max) == (edition.max_points, edition.max_points)
    assert [(ph.number, ph.score) for ph in report.phases] == [(ph.number, ph.max) for ph in report.phases]
    assert len(report.phases) == len(edition.phases)
    assert (report.checkpoint is not None) == (edition.checkpoint is not None)  # swine_swap has none
    assert report.checkpoint is None or report.checkpoint.score == report.checkpoint.max
    for p in report.problems:
        assert p.status in ("passed", "ungraded"), (p.number, p.reason)
        assert all(c.passed for c in p.cases)
    assert problem(report, 0).status == "ungraded"  # Problem 0 is unlock questions only
    assert not report.notes


def test_every_scored_problem_has_hidden_and_public_cases(any_edition):
    """Of every problem graded by transcripts: a case of another kind (a test the student writes, a
    win rate) is the same for everyone, so it has nothing to hide."""
    report = reference_report(any_edition.name)
    for p in report.problems:
        # (a case that only gives advice, such as a preview of the student's own test, scores nothing)
        if p.max > 0 and any(c.check is None and not c.advice for c in load_problem_cases(any_edition, p.label)):
            assert any(c.hidden for c in p.cases), f"problem {p.number} has no hidden case"
            assert any(not c.hidden for c in p.cases), f"problem {p.number} has no public case"


def test_skeleton_scores_zero_on_every_scored_problem(any_edition):
    report = grade_source(source_of(any_edition, "skeleton_dir"), any_edition)
    assert report.total == 0
    assert all(score == 0 for score in scores(report).values())
    assert (report.checkpoint is not None) == (any_edition.checkpoint is not None)
    assert report.checkpoint is None or report.checkpoint.score == 0
    for p in report.problems:
        if p.max > 0:
            assert p.status in ("failed", "skipped"), p.number
            assert p.reason


def test_students_do_not_run_hidden_cases(any_edition):
    report = grade_source(source_of(any_edition, "solution_dir"), any_edition, include_hidden=False)
    assert report.total == any_edition.max_points
    assert not any(c.hidden for p in report.problems for c in p.cases)


def test_each_problem_is_scored_on_its_own_cases_alone_or_together(edition, reference_source):
    from ..conftest import replace_function

    stub = "def roll_dice(num_rolls, dice=six_sided):\n    return 0\n"
    broken = replace_function(reference_source, "roll_dice", stub)
    report = grade_source(broken, edition, problems=[1, 2, 3, 4, 8])
    assert problem(report, 1).status == "failed"
    assert problem(report, 2).status == "passed"
    p3 = problem(report, 3)  # its cases call roll_dice: they run, fail, and the reason says to fix 01 first
    assert p3.status == "failed" and p3.cases
    assert p3.reason.startswith(scoring_messages.dependency_hint([("01", "roll_dice")]))
    for n in (3, 4, 8):  # the same score as when the problem is graded alone
        assert problem(report, n).score == problem(grade_source(broken, edition, problems=[n]), n).score, n


def test_checkpoint_needs_the_whole_phase_in_the_run(edition, reference_source):
    report = grade_source(reference_source, edition, problems=[1, 2])
    assert report.checkpoint is None
    assert (report.total, report.max) == (4, 4)


def test_text_report_lists_phases_problems_and_denominators(edition, skeleton_source):
    report = grade_source(skeleton_source, edition, problems=[1, 2, 3])
    out = reports.render_text(report, path="sub/hog.py")
    assert "Phase 1: Rules of the Game  0/6" in out
    assert "Problem 01 roll_dice" in out and "0/2" in out
    assert "boar_brawl uses no str, no lists, no square brackets" in out
    assert scoring_messages.dependency_hint([("01", "roll_dice"), ("02", "boar_brawl")]) in out
    assert "hogkit grade sub/hog.py --edition boar_brawl -q 01 --verbose" in out
    assert "Total: 0/6" in out


def test_json_report_follows_the_contract(any_edition):
    edition = any_edition
    data = json.loads(reports.render_json(reference_report(edition.name)))
    assert {"edition", "total", "max", "phases", "problems"} <= set(data)
    assert data["edition"] == edition.name and data["total"] == data["max"] == edition.max_points
    assert all({"name", "score", "max"} <= set(ph) for ph in data["phases"])
    assert all({"number", "name", "phase", "score", "max"} <= set(p) for p in data["problems"])
    assert [p["number"] for p in data["problems"]] == [p.number for p in edition.problems]


def test_markdown_feedback_is_pure_and_hides_hidden_case_sources(edition, skeleton_source):
    report = grade_source(skeleton_source, edition, problems=[1])
    record = ClassRecord(student="sam", status=EntryStatus.GRADED, report=report)
    md = reports.render_record_markdown(record)
    assert md == reports.render_record_markdown(record)
    assert "| 01 roll_dice | failed | 0/2 |" in md
    assert "hidden cases failed" in md


@pytest.mark.slow
def test_generated_files_and_skeletons_are_fresh():
    for name in edition_names():
        stale = stale_files(load_edition(name))
        assert stale == [], f"stale generated files; run `hogkit build --edition {name}`: {stale}"


def test_demo_stages_come_from_the_manifest(any_edition):
    edition = any_edition
    stages = dict(demo_stages(edition))
    assert stages["reference"] == {p.label for p in edition.problems}
    assert stages["skeleton"] == set()
    assert stages["phase 1 done"] == {p.label for p in edition.problems if p.phase == 1}


def test_grading_is_repeatable(edition, reference_source):
    sub = Submission(edition.solution_dir / "hog.py", reference_source)
    first = grade(sub, edition, problems=[5], workers=1)
    second = grade(sub, edition, problems=[5], workers=2)
    assert [c.passed for c in first.problems[0].cases] == [c.passed for c in second.problems[0].cases]
