"""`hogkit report`: a generated class with activity logs, read back into the wrong answers given most,
the tries unlocking took and the test runs per problem; and nothing in a log can change a score."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from graders.authoring.bundle import engine_imports
from graders.cli import main
from graders.cli import messages as cli_messages
from graders.core import messages
from graders.core.writers import md_code, md_line
from graders.courses import messages as courses_messages
from graders.courses.tareport import prompt_infos, render_markdown, summarise
from graders.runner import activity
from graders.runner import messages as runner_messages
from graders.scoring.grading import grade
from graders.scoring.submissions import load_submission

STUDENTS = [f"s{k:02d}" for k in range(8)]


def wrong_answers(index: int, student: int) -> list[str]:
    """What student number STUDENT typed wrong on prompt INDEX: the top answer comes from five
    students (one of them twice, one with extra spaces), the runner-up from four, a third from one."""
    given = []
    if student < 5:
        given.append(f" top-{index} " if student == 4 else f"top-{index}")
    if student == 0:
        given.append(f"top-{index}")
    if 3 <= student < 7:
        given.append(f"second-{index}")
    if student == 7:
        given += [f"odd-{index}"]
    return given


@pytest.fixture(scope="module")
def generated_class(tmp_path_factory: pytest.TempPathFactory, edition) -> Path:
    folder = tmp_path_factory.mktemp("class")
    prompts = prompt_infos(edition)
    for number, sid in enumerate(STUDENTS):
        project = folder / sid
        (project / ".hogkit").mkdir(parents=True)
        shutil.copyfile(edition.skeleton_dir / edition.submission, project / edition.submission)
        for index, p in enumerate(prompts):
            wrong = wrong_answers(index, number)
            activity.unlock_attempt(project, p.problem, p.question, p.prompt, wrong, len(wrong) + 1, True)
        for run in range(number + 1):  # student k runs problem 01 k + 1 times, passing on the last
            activity.test_runs(project, [("01", run == number, 0, 3)])
        activity.test_runs(project, [("02", False, 0, 5)] * 2)  # nobody passes 02
    # A zip hand-in with its log, a student without one, and one whose log was edited by hand.
    activity.pack_submission(folder / STUDENTS[1], edition.submission)
    shutil.move(folder / STUDENTS[1] / "hog_submission.zip", folder / "zipped.zip")
    (folder / "nolog").mkdir()
    shutil.copyfile(edition.skeleton_dir / edition.submission, folder / "nolog" / edition.submission)
    shutil.copytree(folder / STUDENTS[0], folder / "edited")
    log = folder / "edited" / activity.LOG
    lines = log.read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace('"tries": ', '"tries": 9')
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_the_report_names_each_question_s_most_common_wrong_answer(generated_class: Path, tmp_path: Path,
                                                                 edition, capsys) -> None:
    out = tmp_path / "report"
    assert main(["report", str(generated_class), "--out", str(out), "--edition", edition.name]) == 0
    assert cli_messages.ta_report_written(str(out), 11, 9) in capsys.readouterr().out  # the zip's log counted once
    for name in ("ta-report.md", "wrong-answers.csv", "unlock.csv", "test-runs.csv", "runs.png", "runs.svg"):
        assert (out / name).stat().st_size > 0, name
    picture = (out / "runs.svg").read_text(encoding="utf-8")  # SVG keeps its text: title, axes, legend
    for text in (courses_messages.ta_runs_title(
        edition.title), "test runs", "problem", "runs until it passed (median)"):
        assert text.replace("&", "&amp;") in picture, text
    prompts = prompt_infos(edition)
    rows = list(csv.DictReader(io.StringIO((out / "unlock.csv").read_text(encoding="utf-8"))))
    assert len(rows) == len(prompts)
    for index, (p, row) in enumerate(zip(prompts, rows, strict=True)):
        assert (row["problem"], row["question"], int(row["prompt"])) == (p.problem, p.question, p.prompt)
        # 8 logged students (the zip holds s01's log: counted once); the edited log stops before its first line
        assert row["wrong answer most students gave"] == f"top-{index}", row
        assert (int(row["students who gave it"]), int(row["times"]), int(row["students"])) == (5, 6, 8)
    wrong = list(csv.DictReader(io.StringIO((out / "wrong-answers.csv").read_text(encoding="utf-8"))))
    first = [(r["wrong answer"], int(r["times"]), int(r["students"])) for r in wrong if r["question"] ==
             prompts[0].question and int(r["prompt"]) == prompts[0].prompt]
    assert first == [("top-0", 6, 5), ("second-0", 4, 4), ("odd-0", 1, 1)]
    markdown = (out / "ta-report.md").read_text(encoding="utf-8")
    assert "| 5 | `top-0` | 6 |" in markdown and runner_messages.activity_missing(
        str(generated_class / "nolog")) in markdown
    assert runner_messages.activity_tampered(str(generated_class / "edited"), 1) in markdown
    assert md_line(courses_messages.ta_same_log(
        str(generated_class / "zipped.zip"), str(generated_class / "s01"))) in markdown


def test_the_report_counts_test_runs_until_a_problem_passed(generated_class: Path, edition) -> None:
    from graders.courses.tareport import class_logs

    report = summarise(edition.title, class_logs(generated_class, edition), prompt_infos(edition),
                       [(p.label, p.title) for p in edition.problems])
    by_label = {p.problem: p for p in report.problems}
    one, two = by_label["01"], by_label["02"]
    assert one.students == 8 and one.passed == 8 and one.never_passed == 0  # s01's zip counted once
    assert one.runs == sum(range(1, 9)) and one.runs_to_pass_median == 4.5  # runs 1..8
    assert two.students == 8 and two.passed == 0 and two.never_passed == 8 and two.runs_per_student == 2
    assert two.runs_to_pass_median is None  # nobody passed it: no number of runs
    assert [p.problem for p in report.problems] == ["01", "02"]  # most runs per student first
    markdown = render_markdown(report)
    assert "| 01 " in markdown and f"| 0 | {courses_messages.ta_nobody_passed()} | 8 |" in markdown
    assert "| 0 | 0 | 8 |" not in markdown  # once "0 runs until it passed"
    from graders.courses.tareport import render_runs_csv

    rows = {r["problem"]: r for r in csv.DictReader(io.StringIO(render_runs_csv(report)))}
    assert rows["02"]["runs until it passed (median)"] == "" and rows["01"]["runs until it passed (median)"] == "4.5"


def test_each_problem_s_wrong_answers_are_ranked_by_how_many_students_share_them(tmp_path: Path, edition) -> None:
    """Once listed like an answer key, question by question, each ordered by how often an answer was
    typed: one student typing "7" ten times outranked "8" shared by three. Now each problem's wrong
    answers, across its prompts, are ranked by how many students gave each, the count shown."""
    from graders.courses.tareport import misconceptions, render_wrong_answers_csv

    prompts = prompt_infos(edition)
    problem = prompts[0].problem
    first, second = [p for p in prompts if p.problem == problem][:2]
    logs = {}
    for n, (where, wrong) in enumerate([(first, ["7"] * 10), (second, ["8"]), (second, ["8", "9"]),
                                        (second, ["8"]), (first, ["6"]), (first, ["6"])]):
        project = tmp_path / f"s{n}"
        project.mkdir()
        activity.unlock_attempt(project, where.problem, where.question, where.prompt, wrong, len(wrong) + 1, True)
        logs[f"s{n}"] = activity.read_activity(project)
    report = summarise("T", logs, [first, second], [])
    ranked = misconceptions(report)[problem]
    assert [(m.wrong.text, m.wrong.students, m.wrong.times) for m in ranked] == [
        ("8", 3, 3), ("6", 2, 2), ("7", 1, 10), ("9", 1, 1)]
    assert [m.info for m in ranked] == [second, first, first, second]
    markdown = render_markdown(report)
    rows = [line for line in markdown.splitlines() if line.startswith("| ") and "`" in line]
    assert [row.split(" | ")[:3] for row in rows] == [["| 3", "`8`", "3"], ["| 2", "`6`", "2"], ["| 1", "`7`", "10"],
                                                      ["| 1", "`9`", "1"]]
    assert "| students | wrong answer | times |" in markdown
    table = list(csv.DictReader(io.StringIO(render_wrong_answers_csv(report))))
    assert [(r["wrong answer"], r["students"]) for r in table] == [("8", "3"), ("6", "2"), ("7", "1"), ("9", "1")]


def test_a_student_s_answer_cannot_break_the_markdown(tmp_path: Path, edition) -> None:
    project = tmp_path / "p"
    project.mkdir()
    prompts = prompt_infos(edition)
    activity.unlock_attempt(project, prompts[0].problem, prompts[0].question, prompts[0].prompt,
                            ["a | b", "`x`", "\x1b[2J"], 4, True)
    report = summarise("T", {"p": activity.read_activity(project)}, prompts[:1], [])
    text = render_markdown(report)
    assert "a \\| b" in text and "`` `x` ``" in text and "\\x1b[2J" in text and "\x1b" not in text


def test_nothing_in_a_log_can_raise_a_score(tmp_path: Path, edition) -> None:
    project = tmp_path / "forged"
    shutil.copytree(edition.skeleton_dir, project)
    for p in edition.problems:  # a log that claims every problem passed and every question unlocked at once
        activity.test_runs(project, [(p.label, True, 99, 99)])
    for info in prompt_infos(edition):
        activity.unlock_attempt(project, info.problem, info.question, info.prompt, [], 1, True)
    (project / activity.HANDIN_NAME).write_text((project / activity.LOG).read_text(encoding="utf-8"), encoding="utf-8")
    with_log = grade(load_submission(project, edition), edition, problems=[1])
    shutil.rmtree(project / ".hogkit")
    (project / activity.HANDIN_NAME).unlink()
    without = grade(load_submission(project, edition), edition, problems=[1])
    assert with_log.total == without.total == 0
    assert json.dumps(with_log.as_dict()["problems"][0]["status"]) == '"failed"'
    # And by construction: no module that grades or applies course policy imports the log's module.
    for name in ("scoring/grading", "courses/classroom", "scoring/reports", "courses/gradescope", "courses/course",
                 "courses/handins", "courses/gradebook", "scoring/judge"):
        assert not engine_imports(name, top_level_only=False) & {"runner/activity", "courses/tareport"}, name


def test_report_refuses_a_bad_path_in_one_line(tmp_path: Path, edition, capsys) -> None:
    assert main(["report", str(tmp_path / "nowhere"), "--out", str(tmp_path / "o")]) == 2
    assert messages.no_such_path(str(tmp_path / "nowhere")) in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["report", str(tmp_path / "empty"), "--out", str(tmp_path / "o")]) == 2
    assert courses_messages.empty_class(str(tmp_path / "empty")) in capsys.readouterr().err
    one = tmp_path / "one"
    shutil.copytree(edition.skeleton_dir, one)
    assert main(["report", str(one), "--out", str(tmp_path / "o")]) == 2
    assert "one submission, not a class folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as shown:
        main(["report", "--help"])
    assert shown.value.code == 0 and "CLASSDIR" in capsys.readouterr().out


def test_one_log_handed_in_twice_counts_once(tmp_path: Path, edition) -> None:
    """A student's folder and a copy of it that grew (or a classmate handing in the same log) once
    counted as two students: the log's hash chain says it is one log, counted once, the longer copy."""
    prompts = prompt_infos(edition)
    first, copy = tmp_path / "first", tmp_path / "copy"
    first.mkdir()
    activity.unlock_attempt(first, prompts[0].problem, prompts[0].question, prompts[0].prompt, ["9"], 2, True)
    shutil.copytree(first, copy)
    activity.test_runs(copy, [("01", True, 3, 3)])  # the copy grew
    logs = {"a": activity.read_activity(first), "b": activity.read_activity(copy)}
    report = summarise("T", logs, prompts[:1], [("01", "roll_dice")])
    assert report.questions[0].students == 1 and report.questions[0].wrong[0].times == 1
    assert report.problems[0].students == 1 and report.submissions == 2
    assert courses_messages.ta_same_log(str(first), str(copy)) in report.notes


def test_a_score_run_is_no_try_at_every_problem(tmp_path: Path, edition) -> None:
    """``python3 ok --score`` once logged a test run of every problem: the report counted each as a try."""
    from graders.runner.student import main as ok

    project = tmp_path / "p"
    shutil.copytree(edition.skeleton_dir, project)
    shutil.copyfile(edition.solution_dir / edition.submission, project / edition.submission)  # work to score
    ok(project, ["--score"])
    logged = activity.read_activity(project).tests
    assert logged and all(e.score for e in logged)  # the runner says which runs were --score
    activity.test_runs(project, [("01", True, 3, 3)])
    report = summarise("T", {"p": activity.read_activity(project)}, [], [(p.label, p.title) for p in edition.problems])
    assert [(p.problem, p.runs, p.passed) for p in report.problems] == [("01", 1, 1)]


def test_a_question_s_name_heads_its_prompts_once(tmp_path: Path, edition) -> None:
    """A question with several prompts once repeated its name above each of them."""
    prompts = prompt_infos(edition)
    several = sorted({q for q in (p.question for p in prompts) if sum(p.question == q for p in prompts) > 1})
    assert several, "every edition has a question with several prompts"
    for n, question in enumerate(several):  # every such question, in a fixed order
        mine = [p for p in prompts if p.question == question]
        project = tmp_path / f"p{n}"
        project.mkdir()
        for p in mine:
            activity.unlock_attempt(project, p.problem, p.question, p.prompt, ["9"], 2, True)
        text = render_markdown(summarise("T", {"p": activity.read_activity(project)}, mine, []))
        assert text.count(f"**{md_line(mine[0].name)}**") == 1
        assert all(md_code(p.answer) in text for p in mine)  # each answer as the writer shows it
