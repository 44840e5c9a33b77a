"""The student's activity log: what the runner writes, that writing never breaks it, the chain that
shows a hand edit, the zip a student hands in, and reading a log from wherever it travelled."""

from __future__ import annotations

import errno
import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from graders.runner import activity
from graders.runner import messages as runner_messages
from graders.runner.activity import HANDIN_NAME, LOG, parse_log, read_activity

from .test_student import answer_lines, run_ok, use_reference


def write_some(folder: Path) -> None:
    activity.unlock_attempt(folder, "01", "q01.unlock.u1", 0, ["9", "8"], 3, True)
    activity.unlock_attempt(folder, "02", "q02.unlock.u1", 1, [], 1, True)
    activity.test_runs(folder, [("01", False, 3, 25), ("02", True, 10, 10)])


def test_entries_are_read_back_as_written(tmp_path: Path) -> None:
    write_some(tmp_path)
    log = read_activity(tmp_path)
    assert log.status == "ok" and log.notes == ()
    first = log.unlocks[0]
    assert (first.problem, first.question, first.prompt, first.wrong, first.tries, first.unlocked) == (
        "01", "q01.unlock.u1", 0, ("9", "8"), 3, True)
    assert [(t.problem, t.passed, t.cases_passed, t.cases) for t in log.tests] == [("01", False, 3, 25),
                                                                                   ("02", True, 10, 10)]
    lines = (tmp_path / LOG).read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["prev"] == activity.START
    assert all(json.loads(b)["prev"] == json.loads(a)["hash"] for a, b in zip(lines, lines[1:], strict=False))


@pytest.mark.parametrize("edit", ["change", "drop", "swap", "garbage"])
def test_a_hand_edit_breaks_the_chain_and_only_the_lines_before_it_count(tmp_path: Path, edit: str) -> None:
    write_some(tmp_path)
    path = tmp_path / LOG
    lines = path.read_text(encoding="utf-8").splitlines()
    if edit == "change":  # pretend problem 01 passed
        lines[2] = lines[2].replace('"passed": false', '"passed": true')
    elif edit == "drop":
        del lines[1]
    elif edit == "swap":
        lines[1], lines[2] = lines[2], lines[1]
    else:
        lines[2] = "{not json"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    log = read_activity(tmp_path)
    assert log.status == "tampered"
    broken = 2 if edit == "drop" or edit == "swap" else 3
    assert log.notes == (runner_messages.activity_tampered(str(tmp_path), broken),)
    assert not any(t.passed and t.problem == "01" for t in log.tests)


def test_writing_goes_on_after_a_damaged_line_and_the_break_stays_visible(tmp_path: Path) -> None:
    write_some(tmp_path)
    with open(tmp_path / LOG, "a", encoding="utf-8") as f:
        f.write("half a line")
    activity.test_runs(tmp_path, [("03", True, 1, 1)])
    assert read_activity(tmp_path).status == "tampered"


def test_writing_never_breaks_the_runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".hogkit").write_text("a file where the folder should be", encoding="utf-8")
    write_some(tmp_path)  # cannot make the folder: nothing happens
    full = tmp_path / "full"
    full.mkdir()

    def no_space(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(activity.os, "write", no_space)
    write_some(full)  # a full disk: nothing happens
    monkeypatch.undo()
    activity.record(tmp_path / "missing" / "deeper", {"kind": "test"})  # no such folder
    big = tmp_path / "big"
    (big / ".hogkit").mkdir(parents=True)
    (big / LOG).write_bytes(b"x" * (activity.MOST_BYTES + 1))
    write_some(big)
    assert (big / LOG).stat().st_size == activity.MOST_BYTES + 1  # past the cap the log stops growing


def test_reading_never_raises_on_what_a_log_holds() -> None:
    samples = ["", "\n\n", "[]", "null", '{"prev": 1}', "\x00\xff", "{" * 10000, json.dumps({"kind": "unlock"})]
    for text in samples:
        log = parse_log(text, "x")
        assert log.unlocks == () and log.tests == ()


def test_a_well_chained_line_of_the_wrong_shape_is_left_out_with_a_note(tmp_path: Path) -> None:
    activity.record(tmp_path, {"kind": "test", "problem": "01", "passed": "yes", "cases_passed": 1, "cases": 1})
    activity.record(tmp_path, {"kind": "mystery"})
    activity.test_runs(tmp_path, [("01", True, 1, 1)])
    log = read_activity(tmp_path)
    assert log.status == "ok" and len(log.tests) == 1 and log.notes == (runner_messages.activity_entries_skipped(
        str(tmp_path), 2),)


def test_a_log_is_found_in_a_folder_beside_hog_py_or_in_a_zip(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    write_some(tmp_path / "project")
    (tmp_path / "project" / "hog.py").write_text("x = 1\n", encoding="utf-8")
    zip_path, with_log = activity.pack_submission(tmp_path / "project", "hog.py")
    assert with_log and sorted(zipfile.ZipFile(zip_path).namelist()) == ["hog.py", HANDIN_NAME]
    gradescope = tmp_path / "submission"  # Gradescope unzips a hand-in: the log lands beside hog.py
    zipfile.ZipFile(zip_path).extractall(gradescope)
    nested = tmp_path / "nested" / "hog-project"
    shutil.copytree(gradescope, nested)
    for where in (tmp_path / "project", zip_path, gradescope, gradescope / "hog.py", tmp_path / "nested"):
        log = read_activity(where)
        assert log.status == "ok" and len(log.unlocks) == 2 and len(log.tests) == 2, where


def test_a_missing_log_a_link_and_a_bare_file_are_notes(tmp_path: Path) -> None:
    (tmp_path / "alone").mkdir()
    assert read_activity(tmp_path / "alone").notes == (runner_messages.activity_missing(str(tmp_path / "alone")),)
    (tmp_path / "real").mkdir()
    write_some(tmp_path / "real")
    (tmp_path / "linked").mkdir()
    os.symlink(tmp_path / "real" / ".hogkit", tmp_path / "linked" / ".hogkit")
    assert read_activity(tmp_path / "linked").status == "missing"  # a link is never followed
    (tmp_path / "ann.py").write_text("x = 1\n", encoding="utf-8")
    assert read_activity(tmp_path / "ann.py").status == "missing"  # a class folder's bare file has no log
    (tmp_path / "bad.zip").write_bytes(b"PK not a zip")
    assert read_activity(tmp_path / "bad.zip").status == "unreadable"


# -- the runner writes it ----------------------------------------------------------------------------------


def test_python3_ok_logs_unlock_tries_and_test_runs(tmp_path: Path, edition) -> None:
    project = tmp_path / "hog"
    shutil.copytree(edition.skeleton_dir, project)
    answers = answer_lines(edition, 1)
    typed = ["banana", "7", "", *answers]  # two wrong answers and an empty line (no try) before the right ones
    done = run_ok(project, "-q", "01", "-u", stdin="\n".join(typed) + "\n")
    assert done.returncode in (0, 1), done.stderr
    use_reference(project, edition)
    assert run_ok(project, "-q", "01").returncode == 0
    log = read_activity(project)
    assert log.status == "ok"
    first = log.unlocks[0]
    assert first.problem == "01" and first.prompt == 0 and first.wrong == ("banana", "7") and first.unlocked
    assert first.tries == 3 and first.question
    assert [(t.problem, t.passed) for t in log.tests] == [("01", False), ("01", True)]


def test_python3_ok_zip_writes_the_hand_in(tmp_path: Path, edition) -> None:
    project = tmp_path / "hog"
    shutil.copytree(edition.skeleton_dir, project)
    use_reference(project, edition)
    done = run_ok(project, "--zip")
    assert done.returncode == 0
    assert runner_messages.zip_written("hog_submission.zip", "hog.py", False, [], False) in done.stdout
    assert zipfile.ZipFile(project / "hog_submission.zip").namelist() == ["hog.py"]
    assert run_ok(project, "--zip", "-q", "01").returncode == 2
    (project / "hog.py").unlink()
    gone = run_ok(project, "--zip")
    assert gone.returncode == 2 and runner_messages.nothing_to_zip("hog.py", str(project)) in gone.stderr
