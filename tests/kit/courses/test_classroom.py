"""Grading a class folder: every kind of entry, nothing lost, reruns skip what did not change."""

from __future__ import annotations

import csv
import io
import json
import shutil
import zipfile

import nbformat
import pytest

from graders.cli import main as hogkit
from graders.core import messages
from graders.core.errors import InputError
from graders.courses import messages as courses_messages
from graders.courses.classroom import grade_class, read_record
from graders.scoring import messages as scoring_messages
from graders.scoring.submissions import discover


@pytest.fixture
def classroom(tmp_path, edition, reference_source, skeleton_source):
    folder = tmp_path / "class"
    (folder / "alice").mkdir(parents=True)
    (folder / "alice" / "hog.py").write_text(reference_source, encoding="utf-8")
    (folder / "bob.py").write_text(skeleton_source, encoding="utf-8")
    (folder / "carol.py").write_text("this is not python ((((", encoding="utf-8")
    (folder / "erin.py").write_bytes(b"\x7fELF\x00\x01")
    (folder / "notes.txt").write_text("hello", encoding="utf-8")
    book = nbformat.v4.new_notebook()
    book.cells = [nbformat.v4.new_markdown_cell("# mine"), nbformat.v4.new_code_cell("%load_ext autoreload"),
                  nbformat.v4.new_code_cell(reference_source)]
    nbformat.write(book, str(folder / "frank.ipynb"))
    (folder / "hank.ipynb").write_text("{not a notebook", encoding="utf-8")
    with zipfile.ZipFile(folder / "gina.zip", "w") as archive:
        archive.writestr("project/hog.py", reference_source)
    with zipfile.ZipFile(folder / "ivan.zip", "w") as archive:
        archive.writestr("readme.txt", "no code here")
    (folder / "judy.py").write_text(reference_source.replace("def roll_dice(", "def roll_dice_(") + "\n"
                                    "while True:\n    pass\n", encoding="utf-8")
    (folder / "dup").mkdir()
    (folder / "dup" / "hog.py").write_text(reference_source, encoding="utf-8")
    (folder / "dup.py").write_text(reference_source, encoding="utf-8")
    return folder


EXPECTED = {
    "alice": ("graded", 24), "bob": ("graded", 0), "carol": ("graded", 0), "erin": ("not python", 0),
"frank": ("graded", 24), "hank": ("unreadable", 0), "gina": ("graded", 24),
    "ivan": ("unreadable", 0), "dup": ("duplicate", 0),
}


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_class_is_graded_into_every_output(classroom, tmp_path, edition):
    out = tmp_path / "out"
    records = grade_class(classroom, edition, out, jobs=2)
    by_student = {}
    for r in records:
        by_student.setdefault(r.student, []).append(r)
    for student, (status, total) in EXPECTED.items():
        assert [(r.status, r.total) for r in by_student[student]][0] == (status, total), student
    assert "notes" not in by_student  # notes.txt is no submission: skipped, and said so
    assert len(by_student["dup"]) == 2
    assert "two submissions have the id 'dup'" in by_student["dup"][0].reason
    judy = by_student["judy"][0]
    assert judy.status == "graded" and 0 < judy.total < 24  # the loop at the end is skipped, not fatal
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))
    assert [r["student"] for r in rows] == sorted(r.student for r in records)
    assert {"phase 1", "phase 2", "problem 05", "checkpoint", "total", "status", "reason"} <= set(rows[0])
    lines = (out / "records.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(records)
    alice_line = next(json.loads(line) for line in lines if json.loads(line)["student"] == "alice")
    alice_full = read_record(out / "records" / "alice.json.gz")
    assert alice_line["total"] == alice_full["total"] == 24
    assert all("cases" not in p and p["cases_passed"] == p["cases_run"] for p in alice_line["problems"])
    assert len(json.dumps(alice_line)) < len(json.dumps(alice_full)) / 10  # a line, not the whole record
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "class summary" in summary
    check_summary(summary, edition)
    histogram = (out / "histogram.svg").read_text(encoding="utf-8")
    assert "Total scores" in histogram and "total score" in histogram and "submissions" in histogram
    assert (out / "histogram.png").read_bytes().startswith(b"\x89PNG")
    assert "![score histogram](histogram.png)" in summary
    feedback = (out / "feedback" / "bob.md").read_text(encoding="utf-8")
    assert "hidden cases failed" in feedback
    results = json.loads((out / "gradescope" / "alice" / "results.json").read_text(encoding="utf-8"))
    assert results["score"] == 25 and isinstance(results["execution_time"], float)
    for test in results["tests"]:
        assert {"name", "number", "score", "max_score", "status", "visibility"} <= set(test)
    assert {t["visibility"] for t in results["tests"]} == {"visible", "after_published"}


@pytest.mark.slow
def test_feedback_never_shows_a_hidden_case_source(classroom, tmp_path, edition):
    from graders.editions.cases import load_problem_cases

    out = tmp_path / "out"
    grade_class(classroom, edition, out, jobs=2)
    feedback = (out / "feedback" / "bob.md").read_text(encoding="utf-8")
    public = (out / "gradescope" / "bob" / "results.json").read_text(encoding="utf-8")
    visible = "\n".join(t["output"] for t in json.loads(public)["tests"] if t["visibility"] == "visible")
    for p in edition.problems:
        for case in load_problem_cases(edition, p.label):
            if case.hidden:
                for step in case.steps:
                    if len(step.source) > 25:
                        assert step.source not in feedback and step.source not in visible, step.source


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_rerun_keeps_unchanged_submissions_and_regrades_changed_ones(classroom, tmp_path, edition, skeleton_source):
    out = tmp_path / "out"
    grade_class(classroom, edition, out, jobs=2)
    first = (out / "records" / "alice.json.gz").stat().st_mtime_ns
    (classroom / "bob.py").write_text(skeleton_source + "\n# changed\n", encoding="utf-8")
    records = grade_class(classroom, edition, out, jobs=2)
    assert (out / "records" / "alice.json.gz").stat().st_mtime_ns == first
    reused = {r.student for r in records if r.reused}
    assert "alice" in reused and "bob" not in reused
    forced = grade_class(classroom, edition, out, jobs=2, force=True)
    assert not any(r.reused for r in forced)
    assert (out / "records" / "alice.json.gz").stat().st_mtime_ns != first


def test_bad_class_folders_get_clear_messages(tmp_path, edition):
    with pytest.raises(InputError, match="no such file or folder"):
        grade_class(tmp_path / "missing", edition, tmp_path / "out")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="holds no submissions"):
        grade_class(tmp_path / "empty", edition, tmp_path / "out")


def test_discovery_reads_each_shape(classroom):
    entries = {e.student: e for e in discover(classroom, "hog.py") if e.student != "dup"}
    assert entries["frank"].source is not None and "# %load_ext autoreload" in entries["frank"].source
    assert entries["gina"].status == "ok" and "def roll_dice" in entries["gina"].source
    assert entries["ivan"].reason == scoring_messages.zip_without(str(classroom / "ivan.zip"), "hog.py")
    assert "notes" not in entries  # a plain file of another kind is no submission
    from graders.scoring.submissions import not_submissions

    assert not_submissions(classroom) == ["notes.txt"]


def test_a_zip_bomb_is_refused_without_unpacking(tmp_path):
    from graders.scoring.submissions import MAX_BYTES, read_entry

    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("hog.py", "#" * (MAX_BYTES * 4))
    source, status, reason = read_entry(bomb, "hog.py")
    assert source is None and "larger than" in reason


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_command_line_grades_a_class(classroom, tmp_path, capsys):
    out = tmp_path / "cli-out"
    shutil.rmtree(classroom / "dup")
    assert hogkit(["grade", str(classroom), "--out", str(out), "--jobs", "2"]) == 0
    printed = capsys.readouterr()
    assert "Graded" in printed.out and str(out) in printed.out
    assert "ETA" in printed.err
    assert hogkit(["grade", str(classroom), "--out", str(out)]) == 0
    assert "kept from the last run" in capsys.readouterr().out
    for bad in ("0", "two"):  # refused by the option's own parser, with grade's usage line
        with pytest.raises(SystemExit) as ended:
            hogkit(["grade", str(classroom), "--out", str(out), "--jobs", bad])
        assert ended.value.code == 2
        err = capsys.readouterr().err
        assert "--jobs needs a whole number" in err and "usage: hogkit grade" in err


def check_summary(summary: str, edition) -> None:
    """Problems worth no points are not counted as passed; a reason is cut only between words; the
    cases that fail most are one row per problem and pass rate (ties grouped)."""
    zero = [p for p in edition.problems if p.points == 0]
    for p in zero:
        assert f"| {p.label} {p.title} | - | {messages.LABEL_NOT_SCORED} |" in summary
    reasons = summary.split("## Most common failure reasons")[1].split("##")[0].strip().splitlines()
    assert reasons and all(len(r) < 220 for r in reasons)
    for line in reasons:  # "- N × Problem NN: reason", the reason at most 160 characters
        assert len(line.split(": ", 1)[1]) <= 160, line
    hardest = summary.split("## Cases that fail most")[1].split("##")[0].strip().splitlines()[2:]
    keys = [(row.split(" | ")[0], row.split(" | ")[-1]) for row in hardest]
    assert hardest and len(keys) == len(set(keys)), hardest


@pytest.mark.slow  # several seconds of processor time: the full run, not the edit loop
def test_an_output_folder_inside_the_class_is_never_graded(tmp_path, edition, reference_source):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(reference_source, encoding="utf-8")
    first = grade_class(folder, edition, folder / "results", jobs=1)
    second = grade_class(folder, edition, folder / "results-again", jobs=1)  # the first output is inside
    assert [r.student for r in first] == [r.student for r in second] == ["alice"]


def test_a_long_reason_is_cut_between_words():
    from graders.scoring.reports import shorten

    text = "expected nothing but the function printed something else entirely " * 5
    cut = shorten(text, 60)
    assert len(cut) <= 60 and cut.endswith(" …")
    assert text.startswith(cut[:-2] + " ")  # what is kept ends where a word ends
    assert shorten("short reason", 60) == "short reason"


@pytest.mark.slow  # a class graded through every output
@pytest.mark.timeout(300)
def test_an_entry_that_cannot_be_rendered_or_tabulated_is_its_own_row(tmp_path, edition, reference_source,
                                                                      monkeypatch):
    """Whatever rendering one student's files or tabulating one strategy raises (not only an OSError
    or the analysis's own refusal) is that entry's row: the others are graded, ranked and written."""
    from graders.courses.contest import run_contest
    from graders.games import game
    from graders.scoring import reports

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(reference_source, encoding="utf-8")
    (folder / "mallory.py").write_text(reference_source + "\nMALLORY = 1\n", encoding="utf-8")
    real_render, real_tabulate = reports.render_record_markdown, game.DiceGame.tabulate_source

    def render(record):
        if record.student == "mallory":
            raise RecursionError("maximum recursion depth exceeded")
        return real_render(record)

    def tabulate(self, source, *args, **kwargs):
        if "MALLORY" in source:
            raise MemoryError()
        return real_tabulate(self, source, *args, **kwargs)

    monkeypatch.setattr(reports, "render_record_markdown", render)
    monkeypatch.setattr(game.DiceGame, "tabulate_source", tabulate)
    rows = {r.student: r for r in grade_class(folder, edition, tmp_path / "out", jobs=2)}
    assert rows["alice"].total == edition.max_points and rows["mallory"].status == "kit error"
    assert "RecursionError" in rows["mallory"].reason
    assert (tmp_path / "out" / "grades.csv").is_file() and (tmp_path / "out" / "feedback" / "alice.md").is_file()
    standings, _invalid = run_contest(folder, edition, tmp_path / "contest", jobs=2)
    assert [s.student for s in standings] == ["alice"]
    board = (tmp_path / "contest" / "leaderboard.csv").read_text(encoding="utf-8")
    assert "mallory" in board and courses_messages.contest_kit_failed("MemoryError") in board


def test_the_summary_groups_generated_cases_by_what_they_check(edition, skeleton_source):
    """"Cases that fail most" once listed generated case names ("random scores (player=113,
    opponent=115); … and 45 more") that no TA can act on: each template is one row now, with how many
    cases it holds."""
    from graders.core.records import ClassRecord, EntryStatus
    from graders.scoring.reports import render_class_summary

    from ..conftest import grade_source

    report = grade_source(skeleton_source, edition, problems=[2])
    generated = [c for p in report.problems for c in p.cases if c.about and c.about != c.name]
    assert len(generated) > 4  # a template with many generated cases
    records = [ClassRecord(s, EntryStatus.GRADED, report=report, max=report.max) for s in ("amy", "bob")]
    summary = render_class_summary(records, edition)
    table = summary.split("## Cases that fail most")[1].split("##")[0]
    about = generated[0].about
    count = sum(c.about == about for c in generated)
    assert scoring_messages.case_group(about, count) in table
    assert not [c.name for c in generated if c.name in table]  # no generated case by its own name


def _outputs(out) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_resumed_run_writes_what_a_fresh_run_wrote_from_its_lean_records(tmp_path, edition, reference_source,
                                                                           skeleton_source):
    """Every output of a rerun that reads all its records back (lean and gzipped) is byte for byte
    the fresh run's; and each feedback file renders again the same from the record read back."""
    from graders.core.records import ClassRecord
    from graders.courses.classroom import kit_fingerprint, load_record, record_path
    from graders.editions.markers import strip_solutions
    from graders.scoring import reports
    from graders.scoring.submissions import discover

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ada.py").write_text(reference_source, encoding="utf-8")
    (folder / "bo.py").write_text(skeleton_source, encoding="utf-8")
    half = {p.label for p in edition.problems[: len(edition.problems) // 2]}
    marked = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    (folder / "cy.py").write_text(strip_solutions(marked, half), encoding="utf-8")
    out = tmp_path / "out"
    fresh = grade_class(folder, edition, out, jobs=2)
    written = _outputs(out)
    assert not any(r.reused for r in fresh) and 0 < fresh[2].total < fresh[2].max
    resumed = grade_class(folder, edition, out, jobs=2)
    assert all(r.reused for r in resumed)
    assert _outputs(out) == written
    for path in ("grades.csv", "records.jsonl", "summary.md", "histogram.svg"):
        (out / path).unlink()  # written again from the records alone
    grade_class(folder, edition, out, jobs=2)
    assert _outputs(out) == written
    for entry in discover(folder, edition.submission):
        kept = load_record(out, entry, edition, kit_fingerprint(edition))
        assert kept is not None and record_path(out, entry.files_as).stat().st_size < 50_000
        assert reports.render_record_markdown(kept).encode() == written[f"feedback/{entry.files_as}.md"]
        full = next(r for r in fresh if r.student == entry.student)
        assert reports.render_gradescope(kept) == reports.render_gradescope(full)
        assert isinstance(kept, ClassRecord) and kept.total == full.total
        assert kept == full  # what the fresh run kept in memory is the record as written and read back
    # A class holds its passing cases once: two students' equal passing cases are one object.
    ada, cy = fresh[0].problems[1].cases[0], fresh[2].problems[1].cases[0]
    assert ada.passed and ada is cy


def test_every_entry_with_a_line_break_in_its_name_gets_its_own_row(tmp_path, edition):
    """A line break in a name is written out, and a name written the same way ("a\\nb" and "a\\\\x0ab")
    is another student, with a row of its own: in grades.csv, with a course too; a file that is no
    submission gets a line saying so."""
    from graders.courses.roster import load_setup

    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("a\nb.py", "a\\x0ab.py", "new\nline.py", "plain.py"):
        (folder / name).write_bytes(b"\x7fELF\x00\x01")
    (folder / "fold\ner").mkdir()
    (folder / "notes\n.txt").write_text("no code", encoding="utf-8")
    entries = discover(folder, edition.submission)
    assert len(entries) == 5 and len({e.student for e in entries}) == 5
    said: list[str] = []
    grade_class(folder, edition, tmp_path / "out", jobs=1, notice=said.append)
    assert courses_messages.files_skipped(["notes\n.txt"]) in said
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out" / "grades.csv").read_text(encoding="utf-8"))))
    assert sorted(r["student"] for r in rows) == sorted(e.student for e in entries)
    assert not any("\n" in r["student"] or "\n" in r["reason"] for r in rows)
    course = tmp_path / "course"
    course.mkdir()
    (course / "course.toml").write_text('edition = "boar_brawl"\ntimezone = "UTC"\n\n[deadlines]\n'
                                        'due = 2024-02-07T23:59:00\n', encoding="utf-8")
    (course / "roster.csv").write_text("id,name,email\nplain,Pat,pat@uni.edu\n", encoding="utf-8")
    setup = load_setup(course, [p.label for p in edition.problems])
    grade_class(folder, edition, tmp_path / "course-out", jobs=1, course=setup)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "course-out" / "grades.csv").read_text(encoding="utf-8"))))
    assert sorted(r["student"] for r in rows) == sorted(e.student for e in entries)


def test_a_class_is_graded_two_submissions_to_a_core_by_default(monkeypatch) -> None:
    """A grade waits on its children part of its time; by default a class keeps two submissions a
    core in flight (one where the machine says nothing of its cores)."""
    from graders.courses import classroom

    monkeypatch.setattr(classroom.os, "cpu_count", lambda: 3)
    assert classroom.class_jobs() == 6
    monkeypatch.setattr(classroom.os, "cpu_count", lambda: None)
    assert classroom.class_jobs() == 2
