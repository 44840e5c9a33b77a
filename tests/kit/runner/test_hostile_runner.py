"""Attacks through the student's runner: what ``python3 ok`` checks and writes, brought back to staff.

The runner checks unlock answers against an answer key (in the bundle's pytest route too) and keeps
an activity log in the student's project folder, which travels with the hand-in to ``hogkit report``.
A wrong answer key stops its own question only; a log whose numbers are forged (too large for any
float, negative) is clamped, and the TA report is written with every student.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ..hostile import assert_every_output, class_routes


def test_a_wrong_answer_key_stops_its_own_question_only(edition):
    """Attack (or slip): an unlock question whose answer key is wrong at its first line, checked by
    the pytest plugin. Its remaining replies once reached the next three questions.

    Guarantee: the plugin closes the question's steps when it stops, so the next question starts clean.
    """
    from graders.editions.cases import load_questions
    from graders.runner import pytest_plugin
    from graders.sandboxing.replies import StepReply

    closed: list[bool] = []

    class FakeSession:
        submission = Path("hog.py")

        def steps(self, sources, setup, deadline):
            try:
                for _ in sources:
                    yield StepReply("ok", value=41, value_kind="plain")
            finally:
                closed.append(True)

    question = next(q for n in range(1, 12) for q in load_questions(edition, n)
                    if len(q.steps) > 1 and any(s.expected for s in q.steps))
    with pytest.raises(AssertionError):
        pytest_plugin.check_answers(FakeSession(), question, edition.setup)  # type: ignore[arg-type]
    assert closed == [True]


@pytest.mark.timeout(300)
def test_a_forged_number_in_an_activity_log_is_clamped(edition, reference_source, tmp_path):
    """Attack: an activity log whose chain is intact but whose numbers are forged (``"tries":
    10**400`` on a real unlock prompt, which no float holds): the report's median raised
    OverflowError and hogkit report ended for everyone.

    Guarantee: numbers read from a log are clamped to what a term of work can hold; the report
    is written with every student, the forger's counts within the clamp.
    """
    from graders.courses.tareport import prompt_infos
    from graders.runner import activity

    from ..oddhandins import forged_log, project_folder

    first = prompt_infos(edition)[0]
    folder = tmp_path / "class"
    folder.mkdir()
    project_folder(folder / "alice", reference_source)
    forged_log(project_folder(folder / "mallory", reference_source), 10**400, first.problem, first.question,
               first.prompt)
    forged_log(project_folder(folder / "trudy", reference_source), -10**400, first.problem, first.question,
               first.prompt)
    read = activity.read_activity(folder / "mallory")
    assert read.status == "ok" and read.unlocks[0].tries == activity.MOST_COUNT
    assert read.tests[0].cases == activity.MOST_COUNT
    assert activity.read_activity(folder / "trudy").unlocks[0].tries == 0
    assert class_routes(folder, tmp_path / "out", routes=("report",)) == {"report": 0}
    assert_every_output(tmp_path / "out", set(), routes=("report",))
    text = (tmp_path / "out" / "report" / "ta-report.md").read_text(encoding="utf-8")
    assert f"{activity.MOST_COUNT}" in text.replace(",", "")


def test_a_forged_count_of_tries_cannot_end_the_ta_report(edition, tmp_path):
    """Attack: an activity log whose chain is recomputed around ``"tries": 10**400`` (and a negative
    count): ``hogkit report`` died with OverflowError taking the median.

    Guarantee: numbers from a log are clamped before any arithmetic; the report is written.
    """
    from graders.cli import main as hogkit
    from graders.courses.tareport import prompt_infos
    from graders.runner import activity

    p = prompt_infos(edition)[0]
    for name, tries in (("forged", 10**400), ("negative", -5)):
        project = tmp_path / "class" / name
        project.mkdir(parents=True)
        (project / edition.submission).write_text("", encoding="utf-8")
        activity.unlock_attempt(project, p.problem, p.question, p.prompt, ["9"], tries, True)
    out = tmp_path / "out"
    assert hogkit(["report", str(tmp_path / "class"), "--out", str(out), "--edition", edition.name]) == 0
    assert "1000000 at most" in (out / "ta-report.md").read_text(encoding="utf-8")  # tareport.MOST_TRIES
