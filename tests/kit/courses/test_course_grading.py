"""The course through the command line: `hogkit grade --course` on a self-test course of real
submissions (a roster, extensions, partners, overrides, several submissions per student), from a
class folder with times.csv and from a simulated Gradescope export, with the same final scores; and
each policy rule end to end, at and around its deadline."""

from __future__ import annotations

import csv
import io
import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from graders.cli import main as hogkit
from graders.cli import messages as cli_messages
from graders.core import messages
from graders.courses import messages as courses_messages
from graders.courses.classroom import read_record
from graders.courses.course import parse_course
from graders.editions.edition import load_edition

from ..conftest import replace_function

LA = ZoneInfo("America/Los_Angeles")
SECOND = timedelta(seconds=1)
COURSE = """edition = "boar_brawl"
timezone = "America/Los_Angeles"

[deadlines]
checkpoint = 2024-01-30T23:59:00
early = 2024-02-06T23:59:00
due = 2024-02-07T23:59:00

[late]
policy = "per_day"
per_day = 10
unit = "percent"
cap = 30
"""
ROSTER = """id,name,email,extension days,accommodation,partner
alice,Alice Ames,alice@uni.edu,2,,
bob,Bob Birch,bob@uni.edu,2,yes,
carol,Carol Chen,carol@uni.edu,,,dan
dan,Dan Dorn,dan@uni.edu,,,
erin,Erin Eads,erin@uni.edu,,,
frank,Frank Fu,frank@uni.edu,,,
"""
OVERRIDES = """id,problem,points,reason
frank,10,2,the hidden case was wrong for this edition
bob,total,+1,good style
"""
C = parse_course(COURSE)

# The self-test course: (key, time, submitters, which code). "phase1" completes Phase 1 only (12 of 24),
# "full" is the reference (24 of 24).
HANDINS = [
    ("alice-1", C.checkpoint + timedelta(days=1), ["alice"], "phase1"),  # the checkpoint, by her extension
    ("alice-2", C.early + timedelta(hours=1), ["alice"], "full"),  # too late for the bonus: no accommodation
    ("bob-0", C.checkpoint + timedelta(days=2) - SECOND, ["bob"], "phase1"),  # a second inside his extension
    ("bob-1", C.early + timedelta(days=1), ["bob"], "full"),  # the bonus, by his accommodation
    ("carol-1", C.checkpoint - timedelta(hours=1), ["carol"], "phase1"),  # counts for dan, her partner
    ("carol-2", C.due + SECOND, ["carol", "dan"], "full"),  # one second late: a day's penalty, 10% of 24
    ("frank-1", C.due - SECOND, ["frank"], "phase1"),  # on time, Phase 1 after the checkpoint; an override
    ("zed-1", C.due - timedelta(hours=1), ["zed"], "full"),  # not on the roster: listed, never dropped
]
# alice 24 + checkpoint; bob 24 + checkpoint + early + 1 (override); carol and dan 24 - 2.4 + checkpoint;
# erin nothing; frank 12 + 2 (Problem 10 set to 2); zed 24.
EXPECTED = {"alice": "25", "bob": "27", "carol": "22.6", "dan": "22.6", "erin": "0", "frank": "14", "zed": "24"}


@pytest.fixture(scope="module")
def sources() -> dict[str, str]:
    """The reference, and the reference with every Phase 2 function put back to the skeleton's stub."""
    import ast

    edition = load_edition("boar_brawl")
    full = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    skeleton = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    stubs = {n.name: ast.get_source_segment(skeleton, n) for n in ast.parse(skeleton).body
             if isinstance(n, ast.FunctionDef)}
    phase1 = full
    for problem in edition.problems:
        for function in problem.functions if problem.phase == 2 else ():
            phase1 = replace_function(phase1, function, stubs[function]) if function in stubs else phase1
    return {"full": full, "phase1": phase1}


def course_folder(root: Path, course: str = COURSE, roster: str = ROSTER, overrides: str | None = OVERRIDES) -> Path:
    folder = root / "course"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "course.toml").write_text(course, encoding="utf-8")
    (folder / "roster.csv").write_text(roster, encoding="utf-8")
    if overrides is not None:
        (folder / "overrides.csv").write_text(overrides, encoding="utf-8")
    return folder


def class_folder(root: Path, sources: dict[str, str], handins=HANDINS) -> Path:
    """A plain class folder: one file per hand-in and times.csv saying whose it is and when."""
    folder = root / "class"
    folder.mkdir(parents=True)
    rows = ["entry,time,student"]
    for n, (key, when, who, code) in enumerate(handins):
        (folder / f"{key}.py").write_text(sources[code], encoding="utf-8")
        shown = when.astimezone(UTC).isoformat() if n % 2 else when.astimezone(LA).strftime("%Y-%m-%d %H:%M:%S")
        rows.append(f"{key},{shown},{who[0]}")
    (folder / "times.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder


def ruby_time(when: datetime) -> str:
    local = when.astimezone(LA)
    offset = local.strftime("%z")
    return local.strftime("%Y-%m-%d %H:%M:%S.%f") + f"000 {offset[:3]}:{offset[3:]}"


def export_folder(root: Path, sources: dict[str, str]) -> Path:
    """A Gradescope "Export Submissions" download, unzipped: its own folder holding
    submission_metadata.yml and a submission_<id> folder per hand-in (groups named in the metadata)."""
    folder = root / "export" / "assignment_42_export"
    names = {sid: name for sid, name, *_ in csv.reader(io.StringIO(ROSTER))}
    lines = ["---"]
    for number, (_, when, who, code) in enumerate(HANDINS, start=1001):
        (folder / f"submission_{number}").mkdir(parents=True)
        (folder / f"submission_{number}" / "hog.py").write_text(sources[code], encoding="utf-8")
        lines += [f":submission_{number}:", "  :submitters:"]
        for sid in who:
            lines += [f"  - :name: {names.get(sid, 'Zed Zorn')}", f"    :sid: '{sid}'", f"    :email: {sid}@uni.edu"]
        lines += [f"  :created_at: {ruby_time(when)}", "  :score: 0.0", "  :status: processed"]
    (folder / "submission_metadata.yml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder.parent


def read_csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def finals(out: Path) -> dict[str, str]:
    return {row["student"]: row["final"] for row in read_csv(out / "grades.csv")}


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory, sources):
    root = tmp_path_factory.mktemp("course")
    course = course_folder(root)
    folder = class_folder(root, sources)
    (folder / "gina.py").write_bytes(b"\x7fELF\x00\x01")  # a hand-in that cannot be graded
    (course / "roster.csv").write_text(ROSTER + "gina,Gina Gray,gina@uni.edu,,,\n", encoding="utf-8")
    (course / "overrides.csv").write_text(OVERRIDES + "ghost,total,5,nobody\n", encoding="utf-8")
    out = root / "out"
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(course), "--jobs", "2"]) == 0
    return root, folder, course, out


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_self_test_course_from_a_class_folder(graded_class) -> None:
    _, _, _, out = graded_class
    assert finals(out) == {**EXPECTED, "gina": "0"}
    rows = {row["student"]: row for row in read_csv(out / "grades.csv")}
    assert [r for r in rows] == ["alice", "bob", "carol", "dan", "erin", "frank", "gina", "zed"]  # roster order first
    assert rows["alice"]["checkpoint by date"] == "1" and rows["alice"]["early bonus"] == "0"
    assert rows["bob"]["early bonus"] == "1" and rows["bob"]["override"] == "1"
    assert rows["carol"]["late days"] == rows["dan"]["late days"] == "1"
    assert rows["carol"]["penalty"] == rows["dan"]["penalty"] == "2.4" and rows["dan"]["partner"] == "carol"
    assert rows["dan"]["submissions"] == "2"  # carol's two hand-ins count for him, graded once
    assert rows["frank"]["problem 10"] == "2" and rows["frank"]["checkpoint by date"] == "0"
    assert rows["erin"]["score"] == "0" and rows["erin"]["reason"] == courses_messages.course_no_handin()
    assert "could be graded" in rows["gina"]["reason"] and "gina" in rows["gina"]["reason"]
    assert rows["zed"]["on roster"] == "no" and rows["zed"]["name"] == ""
    assert len(list((out / "records").glob("*.json.gz"))) == len(HANDINS) + 1  # each hand-in graded once
    assert {r["student"] for r in read_csv(out / "handins.csv")} == {k for k, *_ in HANDINS} | {"gina"}
    assert "ghost" not in rows  # an override naming no one graded is listed, not made a student
    assert (out / "course-notes.txt").read_text(encoding="utf-8").splitlines() == [
        *costly(8), courses_messages.override_unused("ghost", 4), courses_messages.course_off_roster(["zed"])]


def costly(of: int) -> list[str]:
    """The self-test course's rules that take points from a quarter of its class or more, first in
    course-notes.txt: the checkpoint date (Frank and Zed completed Phase 1 after it) and the late
    penalty (Carol and Dan)."""
    return [courses_messages.course_policy_cost("course.toml", "deadlines.checkpoint", 2, of, "2"),
            courses_messages.course_policy_cost("course.toml", "late.per_day", 2, of, "4.8")]


@pytest.mark.slow  # it grades the course's class (the module's fixture), as the slow tests beside it do
@pytest.mark.timeout(600)
def test_a_student_with_nothing_graded_is_out_of_the_edition_s_points(graded_class) -> None:
    """Students with nothing graded once had max 0 in grades.csv and "the problems: 0/0" in their
    feedback; a student off the roster a nameless row in gradescope-scores.csv."""
    _, _, _, out = graded_class
    rows = {row["student"]: row for row in read_csv(out / "grades.csv")}
    most = str(load_edition().max_points)
    assert rows["erin"]["max"] == rows["gina"]["max"] == most  # nothing handed in; nothing that could be graded
    for student in ("erin", "gina"):
        feedback = (out / "feedback" / f"{student}.md").read_text(encoding="utf-8")
        assert f"the problems: 0/{most}" in feedback and "0/0" not in feedback
    gradescope = {r["SID"]: r for r in read_csv(out / "gradescope-scores.csv")}
    assert all(r["Name"] for r in gradescope.values()) and gradescope["zed"]["Name"] == "zed"


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_imports_and_each_student_s_feedback(graded_class) -> None:
    _, _, _, out = graded_class
    gradescope = read_csv(out / "gradescope-scores.csv")
    assert {r["SID"]: r["Total Score"] for r in gradescope} == {**EXPECTED, "gina": "0"}
    assert next(r for r in gradescope if r["SID"] == "bob") == {"Name": "Bob Birch", "SID": "bob",
                                                                "Email": "bob@uni.edu", "Total Score": "27"}
    canvas = read_csv(out / "canvas-scores.csv")
    assert list(canvas[0]) == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", load_edition().title]
    assert {r["SIS User ID"]: r[load_edition().title] for r in canvas}["carol"] == "22.6"
    dan = (out / "feedback" / "dan.md").read_text(encoding="utf-8")
    assert dan.startswith(f"# {courses_messages.course_feedback_heading(load_edition().title, 'dan')}")
    assert "carol-2" in dan and "| Problem | Status | Score |" in dan  # the counted hand-in's own feedback
    assert f"## {courses_messages.adjustments_heading()}" in dan
    assert "Late: your submission of Wed 07 Feb 2024 23:59:01 PST counts, 1 day after the due date" in dan
    assert "the penalty is -2.4 (10% per day, at most 30%" in dan and "**Final score: 22.6**" in dan
    frank = (out / "feedback" / "frank.md").read_text(encoding="utf-8")
    assert "Adjusted by your instructor: Problem 10 set to 2 (+2). Reason: the hidden case was wrong" in frank
    erin = (out / "feedback" / "erin.md").read_text(encoding="utf-8")
    assert courses_messages.course_no_handin() in erin and "**Final score: 0**" in erin
    alice = (out / "feedback" / "alice.md").read_text(encoding="utf-8")
    assert "Your extension of 2 days moves these deadlines" in alice and "Early bonus: no points" in alice


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_rerun_grades_nothing_again_and_keeps_the_overrides(graded_class, capsys) -> None:
    _, folder, course, out = graded_class
    before = {name: (out / name).read_bytes() for name in ("grades.csv", "gradescope-scores.csv")}
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(course)]) == 0
    assert cli_messages.class_reused(len(HANDINS) + 1) in capsys.readouterr().out
    assert {name: (out / name).read_bytes() for name in before} == before


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_policy_change_runs_no_student_code(graded_class, tmp_path, capsys, monkeypatch) -> None:
    """The due date moves a day later: the course's outputs are worked out again from the records
    alone. Grading is made to fail here, so a submission graded again would show as a kit error."""
    from graders.courses import classroom

    _, folder, course, out = graded_class
    moved, again = tmp_path / "course", tmp_path / "out"
    shutil.copytree(course, moved)
    shutil.copytree(out, again)
    text = (moved / "course.toml").read_text(encoding="utf-8")
    (moved / "course.toml").write_text(text.replace("due = 2024-02-07T23:59:00", "due = 2024-02-08T23:59:00"),
                                       encoding="utf-8")

    def no_student_code(*args: object, **kwargs: object) -> None:
        raise AssertionError("a submission was graded again for a change of policy")

    monkeypatch.setattr(classroom, "grade", no_student_code)
    monkeypatch.setattr(classroom, "regrade", no_student_code)
    capsys.readouterr()
    assert hogkit(["grade", str(folder), "--out", str(again), "--course", str(moved)]) == 0
    assert cli_messages.class_reused(len(HANDINS) + 1) in capsys.readouterr().out
    assert not (again / "kit-errors.log").exists()
    before, after = finals(out), finals(again)
    assert after["carol"] != before["carol"] and after["carol"] == after["dan"]  # one second late no more
    assert {k: v for k, v in after.items() if k not in ("carol", "dan")} == \
        {k: v for k, v in before.items() if k not in ("carol", "dan")}


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_self_test_course_from_a_gradescope_export(tmp_path, sources, graded_class) -> None:
    out = tmp_path / "out"
    export = export_folder(tmp_path, sources)
    assert hogkit(["grade", str(export), "--out", str(out), "--course", str(course_folder(tmp_path))]) == 0
    assert finals(out) == EXPECTED == {k: v for k, v in finals(graded_class[3]).items() if k != "gina"}
    rows = {row["student"]: row for row in read_csv(out / "grades.csv")}
    assert rows["zed"]["name"] == "Zed Zorn" and rows["zed"]["email"] == "zed@uni.edu"
    assert sorted(p.name for p in (out / "records").iterdir()) == [f"submission_{n}.json.gz" for n in range(1001, 1009)]
    assert (out / "course-notes.txt").read_text(encoding="utf-8").splitlines() == costly(7)  # no gina here


# -- each rule end to end, at and around its deadline ------------------------------------------------------


def grade_one(tmp_path: Path, sources: dict[str, str], handins, course: str = COURSE, roster: str = ROSTER,
              overrides: str | None = None) -> dict[str, dict[str, str]]:
    out = tmp_path / "out"
    folder = class_folder(tmp_path, sources, handins)
    assert hogkit(["grade", str(folder), "--out", str(out), "--course",
                   str(course_folder(tmp_path, course, roster, overrides))]) == 0
    return {row["student"]: row for row in read_csv(out / "grades.csv")}


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_checkpoint_by_date_a_second_either_side(tmp_path, sources) -> None:
    rows = grade_one(tmp_path, sources, [("alice-1", C.checkpoint + timedelta(days=2), ["alice"], "phase1"),
                                         ("erin-1", C.checkpoint, ["erin"], "phase1"),
                                         ("frank-1", C.checkpoint + SECOND, ["frank"], "phase1")])
    assert rows["alice"]["checkpoint by date"] == "1"  # her extension of two days moves it
    assert rows["erin"]["checkpoint by date"] == "1" and rows["frank"]["checkpoint by date"] == "0"
    assert rows["erin"]["final"] == "13" and rows["frank"]["final"] == "12"


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_early_bonus_and_the_accommodation(tmp_path, sources) -> None:
    rows = grade_one(tmp_path, sources, [("alice-1", C.early + SECOND, ["alice"], "full"),
                                         ("bob-1", C.early + timedelta(days=2), ["bob"], "full"),
                                         ("erin-1", C.early, ["erin"], "full")])
    assert (rows["alice"]["early bonus"], rows["bob"]["early bonus"], rows["erin"]["early bonus"]) == ("0", "1", "1")
    assert (rows["alice"]["final"], rows["bob"]["final"], rows["erin"]["final"]) == ("24", "25", "25")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_late_days_the_penalty_its_cap_and_no_late_work(tmp_path, sources) -> None:
    handins = [("erin-1", C.due, ["erin"], "full"), ("frank-1", C.due + SECOND, ["frank"], "full"),
               ("alice-1", C.due + timedelta(days=2, seconds=1), ["alice"], "full"),  # 0 days late by her extension
               ("bob-1", C.due + timedelta(days=7), ["bob"], "full")]  # 5 days after his: the cap, 30%
    rows = grade_one(tmp_path, sources, handins)
    assert [rows[s]["late days"] for s in ("erin", "frank", "alice", "bob")] == ["0", "1", "1", "5"]
    assert [rows[s]["penalty"] for s in ("erin", "frank", "alice", "bob")] == ["0", "2.4", "2.4", "7.2"]
    none = grade_one(tmp_path / "none", sources, handins[:2], COURSE.replace('policy = "per_day"', 'policy = "none"'))
    assert none["frank"]["final"] == "0" and "none was made by the due date" in none["frank"]["reason"]
    assert none["erin"]["final"] == "24"


def test_every_error_of_a_course_folder_is_reported_at_once(tmp_path, capsys) -> None:
    """Only the first error of a course folder was reported: fix it, run again, meet the next."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "amy.py").write_text("x = 1\n", encoding="utf-8")
    where = course_folder(tmp_path, COURSE.replace('unit = "percent"', 'unit = "days"'),
                          ROSTER + "zoe,Zoe,z@uni.edu,,maybe,\nyan,Yan,y@uni.edu,-3,,\n",
                          "id,problem,points,reason\namy,total,,why\nbob,total,+1,\n")
    assert hogkit(["grade", str(folder), "--out", str(tmp_path / "out"), "--course", str(where)]) == 2
    err = capsys.readouterr().err
    for needle in ("""course.toml: late.unit: expected "percent" or "points", got 'days'""",
                   "roster.csv row 8: expected yes or no in accommodation", "roster.csv row 9: expected a number",
                   "overrides.csv row 2: the points cell is empty", "overrides.csv row 3: the reason cell"):
        assert needle in err, err
    assert len(err.strip().splitlines()) == 5 and not (tmp_path / "out").exists()


def test_bad_course_files_are_one_line_and_exit_2_before_grading(tmp_path, capsys) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "amy.py").write_text("x = 1\n", encoding="utf-8")
    out = tmp_path / "out"
    cases = [
        (COURSE.replace('unit = "percent"', 'unit = "days"'), ROSTER, None,
         """course.toml: late.unit: expected "percent" or "points", got 'days'"""),
        (COURSE, ROSTER + "zoe,Zoe,z@uni.edu,,maybe,\n", None, "roster.csv row 8: expected yes or no in accommodation"),
        (COURSE, ROSTER, "id,problem,points,reason\namy,99,1,why\n", "overrides.csv row 2: '99' is not a problem"),
        (COURSE.replace('edition = "boar_brawl"', 'edition = "pog"'), ROSTER, None,
         "course.toml: edition: unknown edition 'pog'"),
    ]
    for course, roster, overrides, needle in cases:
        shutil.rmtree(tmp_path / "course", ignore_errors=True)
        where = course_folder(tmp_path, course, roster, overrides)
        assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(where)]) == 2
        err = capsys.readouterr().err
        assert needle in err and len(err.strip().splitlines()) == 1, err
        assert not out.exists()  # nothing graded, nothing written
    (tmp_path / "course" / "course.toml").write_text(COURSE, encoding="utf-8")
    (tmp_path / "course" / "roster.csv").unlink()
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(tmp_path / "course")]) == 2
    assert "roster.csv: " + courses_messages.course_file_missing() in capsys.readouterr().err
    assert hogkit(["grade", str(folder), "--course", str(tmp_path / "course")]) == 2
    assert cli_messages.course_needs_out() in capsys.readouterr().err
    (tmp_path / "course" / "roster.csv").write_text(ROSTER, encoding="utf-8")
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(tmp_path / "course"), "-q", "1"]) == 2
    assert cli_messages.course_whole_project() in capsys.readouterr().err
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(tmp_path / "course"),
                   "--edition", "pig_tail"]) == 2
    assert "course.toml: edition: " + cli_messages.course_edition_differs("boar_brawl", "pig_tail") in \
        capsys.readouterr().err
    (folder / "times.csv").write_text("id,time\namy,soon\n", encoding="utf-8")
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(tmp_path / "course")]) == 2
    assert "times.csv row 2: 'soon' is not a date" in capsys.readouterr().err
    assert not (out / "records").exists()


def test_without_a_course_a_class_folder_s_outputs_are_unchanged(tmp_path, sources) -> None:
    """times.csv in a class folder without --course is a skipped file, as any other non-submission."""
    folder = class_folder(tmp_path, sources, HANDINS[:1])
    out = tmp_path / "out"
    assert hogkit(["grade", str(folder), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir() if p.is_file()) == ["grades.csv", "histogram.png", "histogram.svg",
                                                                  "records.jsonl", "similarity.csv",
                                                                  "similarity.html", "summary.md"]
    assert read_csv(out / "grades.csv")[0]["student"] == "alice-1" and "final" not in read_csv(out / "grades.csv")[0]
    assert read_record(out / "records" / "alice-1.json.gz")["total"] == 12


# -- the autograder: submission_metadata.json, previous submissions, the course shipped in the zip ----------


def test_the_autograder_zip_ships_the_course(tmp_path, capsys) -> None:
    import zipfile

    from graders.courses.gradescope import build_autograder

    course = course_folder(tmp_path)
    with zipfile.ZipFile(build_autograder(load_edition(), tmp_path / "a.zip", course)) as archive:
        names = set(archive.namelist())
        script = archive.read("run_autograder").decode("utf-8")
        assert archive.read("course/overrides.csv").decode("utf-8") == OVERRIDES
    assert {"course/course.toml", "course/roster.csv", "course/overrides.csv"} <= names
    assert "--course course" in script
    with zipfile.ZipFile(build_autograder(load_edition(), tmp_path / "b.zip")) as archive:
        assert "--course" not in archive.read("run_autograder").decode("utf-8")
        assert not any(n.startswith("course/") for n in archive.namelist())
    (course / "course.toml").write_text(COURSE.replace("cap = 30", "cap = -1"), encoding="utf-8")
    assert hogkit(["gradescope", "boar_brawl", "--out", str(tmp_path / "c.zip"), "--course", str(course)]) == 2
    assert "course.toml: late.cap: expected a number of 0 or more, got -1" in capsys.readouterr().err
    (course / "course.toml").write_text(COURSE, encoding="utf-8")
    assert hogkit(["gradescope", "pig_tail", "--out", str(tmp_path / "c.zip"), "--course", str(course)]) == 2
    assert cli_messages.course_edition_differs("boar_brawl", "pig_tail") in capsys.readouterr().err
    assert not (tmp_path / "c.zip").exists()


def run_on_gradescope(root: Path, course: Path, source: str, metadata: dict) -> dict:
    """One run of the autograder on ROOT (its /autograder) for SOURCE, with METADATA as
    submission_metadata.json; the results.json it writes."""
    from graders.courses import gradescope

    for name in ("submission", "results"):
        shutil.rmtree(root / name, ignore_errors=True)
        (root / name).mkdir(parents=True)
    (root / "submission" / "hog.py").write_text(source, encoding="utf-8")
    (root / "submission_metadata.json").write_text(json.dumps(metadata), encoding="utf-8")
    assert gradescope.main(["--edition", "boar_brawl", "--root", str(root), "--course", str(course)]) == 0
    return json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))


def gradescope_metadata(key: str, previous: list[tuple[datetime, dict]]) -> dict:
    """submission_metadata.json as Gradescope writes it while hand-in KEY is graded, PREVIOUS being
    the earlier submissions' (time, results.json)."""
    when, who = next((w, s) for k, w, s, _ in HANDINS if k == key)
    names = {sid: name for sid, name, *_ in csv.reader(io.StringIO(ROSTER))}
    return {"id": 900000 + len(previous), "created_at": when.astimezone(LA).isoformat(),
            "assignment": {"due_date": "2024-02-05T23:59:00.000000-08:00", "title": "Hog", "group_submission": True},
            "users": [{"name": names.get(sid, "Zed Zorn"), "email": f"{sid}@uni.edu", "sid": sid} for sid in who],
            "previous_submissions": [{"submission_time": t.astimezone(UTC).isoformat(), "score": r["score"],
                                      "results": r} for t, r in previous]}


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_self_test_course_through_the_autograder_s_metadata(tmp_path, sources) -> None:
    """Each student's submissions in turn, each run given the results the earlier runs wrote: the same
    final scores as from a class folder and an export (Gradescope's own due date in the file is not used)."""
    course = course_folder(tmp_path)
    chains = {"alice": ["alice-1", "alice-2"], "bob": ["bob-0", "bob-1"], "carol": ["carol-1", "carol-2"],
              "frank": ["frank-1"], "zed": ["zed-1"]}
    code = {k: c for k, _, _, c in HANDINS}
    times = {k: w for k, w, _, _ in HANDINS}
    final: dict[str, str] = {}
    last: dict[str, dict] = {}
    for student, keys in chains.items():
        previous: list[tuple[datetime, dict]] = []
        for key in keys:
            results = run_on_gradescope(tmp_path / student, course, sources[code[key]],
                                        gradescope_metadata(key, previous))
            previous.append((times[key], results))
        last[student] = results
        course_test = next(t for t in results["tests"] if t["number"] == "course")
        assert "checkpoint" not in {t["number"] for t in results["tests"]}  # the date-blind one gives way
        assert courses_messages.adjustments_heading() in results["output"] and "Final score" in course_test["output"]
        assert results["extra_data"]["hogkit"]["total"] == {"phase1": 12, "full": 24}[code[keys[-1]]]
        for sid, cells in results["extra_data"]["course"].items():
            final[sid] = cells["final"]
        assert final[student] == messages.points_text(results["score"])
    assert final == {k: v for k, v in EXPECTED.items() if k != "erin"}  # dan's from the group submission
    carol = last["carol"]
    assert "the penalty is -2.4" in carol["output"] and carol["score"] == 22.6
    assert "(Carol Chen)" in carol["output"] and "(Dan Dorn)" in carol["output"]  # one section per member
    assert "Early bonus: +1" in last["bob"]["output"] and "Reason: good style" in last["bob"]["output"]
    assert "Checkpoint: +1" in last["alice"]["output"]  # from alice-1, her earlier submission


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_autograder_at_and_around_each_deadline(tmp_path, sources) -> None:
    """The checkpoint kept from an earlier submission made before its date, a second late, and a
    broken last submission that leaves the earlier one counting."""
    course = course_folder(tmp_path, overrides=None)
    first = run_on_gradescope(tmp_path / "a", course, sources["phase1"], {
        "created_at": "2024-01-30T23:59:00-08:00", "users": [{"name": "Erin", "email": "erin@uni.edu", "sid": "erin"}]})
    assert first["score"] == 13 and "Checkpoint: +1" in first["output"]
    late = {"created_at": "2024-02-08T07:59:01Z", "users": [{"name": "Erin", "email": "erin@uni.edu", "sid": "erin"}],
            "previous_submissions": [{"submission_time": "2024-01-31T07:59:00Z", "score": 13, "results": first}]}
    second = run_on_gradescope(tmp_path / "a", course, sources["full"], late)
    assert second["score"] == 22.6 and "Checkpoint: +1" in second["output"]  # 24 - 2.4, and the checkpoint kept
    on_time = {**late, "created_at": "2024-02-07T23:00:00-08:00"}
    broken = run_on_gradescope(tmp_path / "a", course, "x = 1\x00\n", on_time)  # not Python: no attempt
    assert broken["score"] == 13 and "hogkit" not in broken.get("extra_data", {})  # the earlier one counts
    assert broken["output"].startswith("Not graded (not python)") and "Final score: 13" in broken["output"]
    empty = run_on_gradescope(tmp_path / "a", course, "def roll_dice(:\n", on_time)  # graded: 0, the last on time
    assert empty["score"] == 1 and empty["extra_data"]["hogkit"]["total"] == 0


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_kit_failure_withholds_the_students_scores_never_a_zero(tmp_path, sources, monkeypatch) -> None:
    from graders.courses import classroom

    real = classroom.grade

    def failing(submission, *args, **kwargs):  # the kit fails on one hand-in, whatever its code
        if "KIT FAILS HERE" in submission.source:
            raise RuntimeError("the kit broke")
        return real(submission, *args, **kwargs)

    monkeypatch.setattr(classroom, "grade", failing)
    handins = [("carol-1", C.checkpoint - timedelta(hours=1), ["carol"], "phase1"),
               ("carol-2", C.due - timedelta(hours=1), ["carol"], "broken"), ("erin-1", C.due, ["erin"], "phase1")]
    folder = class_folder(tmp_path, {**sources, "broken": sources["full"] + "\n# KIT FAILS HERE\n"}, handins)
    out = tmp_path / "out"
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(course_folder(tmp_path))]) == 3
    rows = {row["student"]: row for row in read_csv(out / "grades.csv")}
    for partner in ("carol", "dan"):  # dan is carol's partner: her hand-ins are his too
        assert rows[partner]["final"] == rows[partner]["score"] == "" and "carol-2" in rows[partner]["reason"]
        assert "not the student's fault" in rows[partner]["reason"]
    assert rows["erin"]["final"] == "12"
    dan = (out / "feedback" / "dan.md").read_text(encoding="utf-8")
    assert rows["dan"]["reason"] in dan and "Final score" not in dan
    uploaded = {r["SID"] for r in read_csv(out / "gradescope-scores.csv")}
    assert "carol" not in uploaded and "dan" not in uploaded and "erin" in uploaded
    assert "carol" not in {r["SIS User ID"] for r in read_csv(out / "canvas-scores.csv")}


@pytest.mark.timeout(600)
@pytest.mark.parametrize(("name", "final"), [("pig", "15"), ("swine_swap", "2200")])
def test_an_edition_is_graded_out_of_its_own_total_by_a_course_that_sets_no_points(tmp_path, name, final) -> None:
    """Swine Swap and Pig have no checkpoint: a course file that sets no points adds none (2200 of
    2200, not 2201); Pig's 25 points count as its seed's 15 in every export."""
    edition = load_edition(name)
    text = COURSE.replace('"boar_brawl"', f'"{name}"').replace("early = 2024-02-06T23:59:00\n", "")
    course = course_folder(tmp_path, text,
                           "id,name,email,extension days,accommodation,partner\nann,Ann Abe,ann@uni.edu,,,\n", None)
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ann.py").write_text((edition.solution_dir / edition.submission).read_text(encoding="utf-8"),
                                   encoding="utf-8")
    (folder / "times.csv").write_text(f"entry,time,student\nann,{(C.checkpoint - SECOND).isoformat()},ann\n",
                                      encoding="utf-8")
    out = tmp_path / "out"
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(course), "--edition", name]) == 0
    (row,) = read_csv(out / "grades.csv")
    assert row["checkpoint by date"] == "0" and row["final"] == final
    assert [r["Total Score"] for r in read_csv(out / "gradescope-scores.csv")] == [final]
    assert [r[edition.title] for r in read_csv(out / "canvas-scores.csv")] == [final]
    feedback = (out / "feedback" / "ann.md").read_text(encoding="utf-8")
    assert f"Final score: {final}**" in feedback
    assert ("worth 15/15 in the course" in feedback) == (name == "pig")


@pytest.mark.timeout(600)
def test_a_later_worse_hand_in_of_partners_is_said_to_both_and_to_the_instructor(tmp_path, sources) -> None:
    """Carol's full marks, then her partner Dan's Phase 1 only, later: the later one counts (groups =
    "last"), and course-notes.txt and both partners' feedback say it replaced the better one."""
    course = course_folder(tmp_path, overrides=None)
    folder = class_folder(tmp_path, sources, [("carol-1", C.checkpoint - timedelta(hours=1), ["carol"], "full"),
                                              ("dan-1", C.checkpoint, ["dan"], "phase1")])
    out = tmp_path / "out"
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(course)]) == 0
    notes = (out / "course-notes.txt").read_text(encoding="utf-8")
    for who in ("carol", "dan"):
        feedback = (out / "feedback" / f"{who}.md").read_text(encoding="utf-8")
        assert "Warning" in feedback and "dan-1" in feedback and "carol-1" in feedback
        assert f"{who}: a later, worse hand-in counts: dan-1" in notes  # worded for the instructor
    assert "Ask your instructor" not in notes and "groups column of their roster row" in notes
    best = course_folder(tmp_path / "best", roster=ROSTER.replace("carol,Carol Chen,carol@uni.edu,,,dan",
                                                                  "carol,Carol Chen,carol@uni.edu,,,dan,best")
                         .replace("partner\n", "partner,groups\n", 1), overrides=None)
    assert hogkit(["grade", str(folder), "--out", str(tmp_path / "best-out"), "--course", str(best)]) == 0
    finals_best = finals(tmp_path / "best-out")
    assert finals_best["carol"] == finals_best["dan"] == "26"  # the pair asked: their best hand-in counts
    assert not (tmp_path / "best-out" / "course-notes.txt").exists()


@pytest.mark.timeout(600)
def test_a_rule_that_takes_points_from_many_students_is_said_before_anything_is_uploaded(tmp_path, sources,
                                                                                        capsys) -> None:
    """A Phase 1 due date before Carol (and so Dan) and Erin completed it takes Phase 1's points from 3
    of the roster's 6: the console and course-notes.txt say so with the count, before any upload."""
    phased = COURSE.replace("due = 2024-02-07T23:59:00\n",
                            "due = 2024-02-07T23:59:00\nphases = { 1 = 2024-01-25T23:59:00 }\n")
    course = course_folder(tmp_path, phased, overrides=None)
    folder = class_folder(tmp_path, sources, [("carol-1", C.checkpoint - timedelta(hours=1), ["carol"], "phase1"),
                                              ("erin-1", C.checkpoint, ["erin"], "phase1")])
    out = tmp_path / "out"
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(course)]) == 0
    said = courses_messages.course_policy_cost("course.toml", "deadlines.phases.1", 3, 6, "36")
    assert said in capsys.readouterr().err
    assert (out / "course-notes.txt").read_text(encoding="utf-8").splitlines()[0] == said
    assert finals(out)["carol"] == finals(out)["erin"] == "1"  # the checkpoint alone: Phase 1 came too late


def test_the_gradescope_command_says_what_total_to_set(tmp_path, capsys) -> None:
    """24 for the problems and the checkpoint's 1 (25); a course with an early date adds its bonus (26)."""
    assert hogkit(["gradescope", "boar_brawl", "--out", str(tmp_path / "a.zip")]) == 0
    assert "Set the assignment's total points on Gradescope to 25 (24 for the problems, 1 for the Phase 1 " \
           "checkpoint)" in capsys.readouterr().out
    course = course_folder(tmp_path)
    assert hogkit(["gradescope", "boar_brawl", "--out", str(tmp_path / "b.zip"), "--course", str(course)]) == 0
    assert "Gradescope to 26 (24 for the problems, 1 for the checkpoint, 1 for the early bonus)" \
           in capsys.readouterr().out
