"""The kit's own failures are never a student's grade: each is attributed, retried once, reported
apart, and never kept by a rerun. Each kind of kit failure is injected where it really happens."""

from __future__ import annotations

import csv
import errno
import io
import json
import re
import shutil
import sys
import threading
from pathlib import Path

import pytest

from graders.cli import main as hogkit
from graders.cli import messages as cli_messages
from graders.core import messages
from graders.core.memo import once
from graders.courses import classroom, gradescope
from graders.courses import messages as courses_messages
from graders.courses.gradescope import main as autograder
from graders.games import analysis, reference
from graders.runner import messages as runner_messages
from graders.runner import student
from graders.sandboxing import bytecode, sandbox
from graders.sandboxing import messages as sandboxing_messages
from graders.scoring import grading
from graders.scoring import messages as scoring_messages
from graders.scoring.submissions import Submission

FAULTY = "# (this copy trips the injected fault)\n"


@pytest.fixture
def two_students(tmp_path, reference_source):
    """A class of two reference copies; ``faulty`` is the one a targeted fault hits."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "faulty.py").write_text(reference_source + FAULTY, encoding="utf-8")
    (folder / "honest.py").write_text(reference_source, encoding="utf-8")
    return folder


def grade_class_cli(folder: Path, out: Path, capsys) -> tuple[int, dict[str, dict], str]:
    code = hogkit(["grade", str(folder), "--out", str(out), "--jobs", "2"])
    err = capsys.readouterr().err
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8")))}
    return code, rows, err


def fault_when_faulty(real, exc: BaseException, times: int | None = None):
    """REAL, except that it raises EXC when an argument is a faulty source (at most TIMES times)."""
    count = [0]

    def faulty(*args, **kwargs):
        hit = any(isinstance(a, str) and FAULTY in a for a in args) or any(
            isinstance(a, Submission) and FAULTY in a.source for a in args)
        if hit and (times is None or count[0] < times):
            count[0] += 1
            raise exc
        return real(*args, **kwargs)

    return faulty


def assert_kit_error_row(out: Path, rows: dict[str, dict], code: int, err: str, needle: str) -> None:
    """The faulty student's row says the kit failed and carries no score; the honest one is untouched."""
    assert code == 3
    assert rows["faulty"]["status"] == grading.KIT_ERROR
    assert "not the student's fault" in rows["faulty"]["reason"] and rows["faulty"]["total"] == ""
    assert rows["honest"]["status"] == "graded" and rows["honest"]["total"] == rows["honest"]["max"]
    assert cli_messages.kit_failures_line(1, str(out / messages.KIT_LOG_NAME)) in err
    log = (out / messages.KIT_LOG_NAME).read_text(encoding="utf-8")
    assert "== faulty:" in log and needle in log and "Traceback" in log
    record = classroom.read_record(out / "records" / "faulty.json.gz")
    assert record["attempts"] == 2 and needle in record["traceback"]
    assert "kit failed on 1 submission" in (out / "summary.md").read_text(encoding="utf-8")
    results = json.loads((out / "gradescope" / "faulty" / "results.json").read_text(encoding="utf-8"))
    assert results["output"] == messages.kit_failed_gradescope()
    assert [t["visibility"] for t in results["tests"]] == ["hidden"] and needle in results["tests"][0]["output"]


def assert_no_kept_failure(out: Path, needle: str) -> None:
    """The first run's failure (NEEDLE) is not kept by the rerun. Under load a child may still be slow
    to start and its row be graded on a second attempt: the log then names that, never NEEDLE."""
    log = out / messages.KIT_LOG_NAME
    assert not log.exists() or needle not in log.read_text(encoding="utf-8")


def assert_rerun_heals(folder: Path, out: Path, capsys, needle: str) -> None:
    code, rows, err = grade_class_cli(folder, out, capsys)
    assert code == 0, err
    assert rows["faulty"]["status"] == "graded" and rows["faulty"]["total"] == rows["faulty"]["max"]
    assert_no_kept_failure(out, needle)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_an_exception_in_the_parent_is_the_kits_failure_and_a_rerun_regrades_it(two_students, tmp_path, capsys,
                                                                                  monkeypatch):
    out = tmp_path / "out"
    monkeypatch.setattr(grading, "repair", fault_when_faulty(grading.repair, RuntimeError("injected parent bug")))
    code, rows, err = grade_class_cli(two_students, out, capsys)
    assert_kit_error_row(out, rows, code, err, "injected parent bug")
    assert courses_messages.class_retrying(1) in err
    monkeypatch.undo()
    assert_rerun_heals(two_students, out, capsys, "injected parent bug")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_failure_that_passes_is_healed_by_the_second_try(two_students, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    monkeypatch.setattr(grading, "repair", fault_when_faulty(grading.repair, RuntimeError("once"), times=1))
    code, rows, err = grade_class_cli(two_students, out, capsys)
    assert code == 0, err
    assert rows["faulty"]["status"] == "graded" and rows["faulty"]["total"] == rows["faulty"]["max"]
    record = classroom.read_record(out / "records" / "faulty.json.gz")
    assert record["attempts"] == 2 and "RuntimeError: once" in record["first_failure"]
    log = (out / messages.KIT_LOG_NAME).read_text(encoding="utf-8")  # the first failure, kept for the staff
    assert log.startswith(scoring_messages.kit_log_retried_heading("faulty")) and "honest" not in log
    assert scoring_messages.kit_log_first_attempt() in log and "Traceback" in log and "RuntimeError: once" in log
    assert cli_messages.kit_failures_line(1, str(out / messages.KIT_LOG_NAME)) not in err  # nobody is left ungraded


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_sandbox_that_does_not_start_is_the_kits_failure(two_students, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    broken = tmp_path / "child.py"
    broken.write_text("raise SystemExit(0)\n", encoding="utf-8")  # dies before the submission's first statement
    monkeypatch.setattr(bytecode, "CHILD", broken)
    code = hogkit(["grade", str(two_students), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 3 and cli_messages.kit_failures_line(2, str(out / messages.KIT_LOG_NAME)) in err
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))
    assert {r["status"] for r in rows} == {grading.KIT_ERROR}
    assert "SandboxError" in (out / messages.KIT_LOG_NAME).read_text(encoding="utf-8")
    monkeypatch.undo()
    code = hogkit(["grade", str(two_students), "--out", str(out)])
    capsys.readouterr()
    records = [classroom.read_record(p) for p in sorted((out / "records").glob("*.json.gz"))]
    assert code == 0 and [r["total"] for r in records] == [r["max"] for r in records]


def test_a_child_that_dies_before_any_student_code_raises_sandbox_error(tmp_path, monkeypatch, edition,
                                                                         reference_source):
    broken = tmp_path / "child.py"
    broken.write_text("import os\nos._exit(3)\n", encoding="utf-8")
    monkeypatch.setattr(bytecode, "CHILD", broken)
    with pytest.raises(sandbox.SandboxError, match="before any of its code ran"):
        sandbox.open_session(reference_source, edition)


def test_a_child_that_ends_before_it_reads_its_settings_raises_sandbox_error(monkeypatch, edition, reference_source):
    """Its end of the pipe closed before the settings were written (a broken pipe): the kit's
    failure, said as a child that ended before any code ran, never a traceback of the grader's."""
    real = sandbox.Session._send

    def broken(self: sandbox.Session, message: dict) -> None:
        if "confine" in message:  # the settings, the first frame a child is sent
            raise BrokenPipeError(32, "Broken pipe")
        real(self, message)

    monkeypatch.setattr(sandbox.Session, "_send", broken)
    with pytest.raises(sandbox.SandboxError, match=re.escape(sandboxing_messages.sandbox_did_not_start("crashed"))):
        sandbox.open_session(reference_source, edition)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_missing_kit_file_is_the_kits_failure(two_students, tmp_path, capsys, monkeypatch, edition):
    kit = tmp_path / "kit"
    shutil.copytree(edition.root / "tests", kit / "tests", symlinks=True)
    shutil.copytree(edition.root / "solution", kit / "solution", symlinks=True)
    (kit / "graders").symlink_to(edition.root / "graders")
    (kit / "solution" / edition.name / "dice.py").unlink()  # the support file every child needs
    monkeypatch.setenv("HOGKIT_ROOT", str(kit))
    out = tmp_path / "out"
    code = hogkit(["grade", str(two_students), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 3 and "kit failed on 2 submissions" in err
    assert "dice.py" in (out / messages.KIT_LOG_NAME).read_text(encoding="utf-8")
    shutil.copyfile(edition.solution_dir / "dice.py", kit / "solution" / edition.name / "dice.py")
    code = hogkit(["grade", str(two_students), "--out", str(out)])
    capsys.readouterr()
    records = [classroom.read_record(p) for p in sorted((out / "records").glob("*.json.gz"))]
    assert code == 0 and [r["total"] for r in records] == [r["max"] for r in records]
    assert_no_kept_failure(out, "dice.py")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_full_disk_while_preparing_the_child_is_the_kits_failure(two_students, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    full = OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(sandbox, "prepare_workdir", fault_when_faulty(sandbox.prepare_workdir, full))
    code, rows, err = grade_class_cli(two_students, out, capsys)
    assert_kit_error_row(out, rows, code, err, "No space left on device")
    monkeypatch.undo()
    assert_rerun_heals(two_students, out, capsys, "No space left on device")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_full_disk_while_writing_a_students_files_is_the_kits_failure(two_students, tmp_path, capsys,
                                                                          monkeypatch):
    out = tmp_path / "out"
    real = classroom.write_atomically

    def full_for_faulty(path: Path, text: str) -> None:
        if "faulty" in path.parts[-1] or path.parent.name == "faulty":
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, text)

    monkeypatch.setattr(classroom, "write_atomically", full_for_faulty)
    code, rows, err = grade_class_cli(two_students, out, capsys)
    assert code == 3 and rows["faulty"]["status"] == grading.KIT_ERROR and rows["faulty"]["total"] == ""
    assert "No space left on device" in (out / messages.KIT_LOG_NAME).read_text(encoding="utf-8")
    assert not (out / "records" / "faulty.json.gz").exists()  # nothing half-kept for a rerun to trust
    monkeypatch.undo()
    assert_rerun_heals(two_students, out, capsys, "No space left on device")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_worker_that_died_is_the_kits_failure(two_students, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    real = classroom.record_for

    def dying(entry, *args, **kwargs):
        if entry.student == "faulty":
            raise SystemExit("the worker died")  # not even an Exception: the batch must go on
        return real(entry, *args, **kwargs)

    monkeypatch.setattr(classroom, "record_for", dying)
    code, rows, err = grade_class_cli(two_students, out, capsys)
    assert_kit_error_row(out, rows, code, err, "the worker died")
    monkeypatch.undo()
    assert_rerun_heals(two_students, out, capsys, "the worker died")


def test_an_old_kit_failure_record_is_never_kept(two_students, tmp_path, capsys, edition, monkeypatch):
    out = tmp_path / "out"
    monkeypatch.setattr(grading, "repair", fault_when_faulty(grading.repair, RuntimeError("injected")))
    grade_class_cli(two_students, out, capsys)
    monkeypatch.undo()
    entries = {e.student: e for e in classroom.discover(two_students, edition.submission)}
    kit = classroom.kit_fingerprint(edition)
    assert classroom.load_record(out, entries["faulty"], edition, kit) is None
    assert classroom.load_record(out, entries["honest"], edition, kit) is not None
    assert classroom.load_record(out, entries["honest"], edition, "another kit") is None


# -- the single routes ---------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_single_grading_retries_and_then_says_the_kit_failed(tmp_path, capsys, monkeypatch, reference_source):
    path = tmp_path / "hog.py"
    path.write_text(reference_source + FAULTY, encoding="utf-8")
    monkeypatch.setattr(grading, "repair", fault_when_faulty(grading.repair, RuntimeError("injected"), times=1))
    assert hogkit(["grade", str(path), "-q", "02"]) == 0
    assert "Total: 2/2" in capsys.readouterr().out
    monkeypatch.setattr(grading, "repair", fault_when_faulty(grading.repair, RuntimeError("injected")))
    code = hogkit(["grade", str(path), "-q", "02"])
    captured = capsys.readouterr()
    assert code == 3 and captured.out == ""
    assert cli_messages.kit_failed_single(str(path), "RuntimeError: injected") in captured.err
    assert "Traceback" in captured.err


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_students_runner_says_the_kit_failed_not_their_code(tmp_path, capsys, monkeypatch, edition,
                                                                  reference_source):
    folder = tmp_path / "hog"
    shutil.copytree(edition.skeleton_dir, folder)
    (folder / "hog.py").write_text(reference_source + FAULTY, encoding="utf-8")
    monkeypatch.setattr(grading, "repair", fault_when_faulty(grading.repair, RuntimeError("injected")))
    assert student.main(folder, ["-q", "01"]) == 3
    assert runner_messages.kit_failed_student("RuntimeError: injected") in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_gradescope_shows_the_staff_a_kit_failure_never_a_zero_with_an_exception_name(tmp_path, monkeypatch,
                                                                                     reference_source, capsys):
    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "hog.py").write_text(reference_source + FAULTY, encoding="utf-8")
    monkeypatch.setenv("AUTOGRADER_ROOT", str(tmp_path))
    monkeypatch.setattr(grading, "repair", fault_when_faulty(grading.repair, RuntimeError("injected")))
    assert autograder(["--edition", "boar_brawl"]) == 0
    results = json.loads((tmp_path / "results" / "results.json").read_text(encoding="utf-8"))
    assert results["output"] == messages.kit_failed_gradescope() and "RuntimeError" not in results["output"]
    (staff,) = results["tests"]
    assert staff["visibility"] == "hidden" and "RuntimeError: injected" in staff["output"]
    # What the staff are told to do is what Gradescope offers: no grades.csv, kit-errors.log or hogkit grade there.
    assert staff["name"] == messages.kit_failed_staff(
        courses_messages.kit_failed_on_gradescope("RuntimeError: injected"), 2)
    assert "kit-errors.log" not in staff["name"] and "hogkit grade " not in staff["name"]
    monkeypatch.setattr(gradescope, "load_edition", lambda *a: 1 / 0)  # even outside grading
    assert autograder(["--edition", "boar_brawl"]) == 0
    results = json.loads((tmp_path / "results" / "results.json").read_text(encoding="utf-8"))
    assert results["output"] == messages.kit_failed_gradescope()
    capsys.readouterr()


# -- reference loading and first calls, from many threads at once ---------------------------------------


def clear_reference_caches() -> None:
    reference._load.cache_clear()
    analysis.build_model.cache_clear()
    analysis.reference_table.cache_clear()


def test_the_reference_loads_once_from_many_threads_and_touches_no_process_state(edition, monkeypatch):
    clear_reference_caches()
    loads = []
    real_module = reference._PrivateModules.module

    def counted(self, name):
        loads.append(name)
        return real_module(self, name)

    monkeypatch.setattr(reference._PrivateModules, "module", counted)
    watched = ("hog", "dice", "ucb")
    modules_before = {name: sys.modules.get(name) for name in watched}
    path_before = list(sys.path)
    barrier = threading.Barrier(24)
    seen: list[object] = []
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            barrier.wait()
            if k % 3 == 0:
                seen.append(reference.namespace(edition))
            elif k % 3 == 1:
                seen.append(analysis.reference_table(edition, "always_roll(6)"))
            else:  # ordinary imports beside the loads, as other grading threads make them
                __import__("json")
                __import__("email.utils")
        except BaseException as exc:  # noqa: BLE001 - every failure counts
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(loads) == ["dice", edition.module, "ucb"]  # each file of the reference loaded once
    namespaces = {id(s) for s in seen if isinstance(s, dict)}
    tables = {id(s) for s in seen if not isinstance(s, dict)}
    assert len(namespaces) == 1 and len(tables) == 1
    assert {name: sys.modules.get(name) for name in watched} == modules_before
    assert sys.path == path_before
    ns = reference.namespace(edition)
    assert ns["six_sided"].__module__ == "dice" and callable(ns["boar_strategy"])


def test_a_memo_computes_each_key_once_under_contention_and_keeps_no_exception():
    calls: list[int] = []
    gate = threading.Event()

    @once()
    def slow(k: int) -> int:
        calls.append(k)
        gate.wait(5)
        if k < 0:
            raise ValueError("no")
        return k * 2

    threads = [threading.Thread(target=slow, args=(7,)) for _ in range(10)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join()
    assert calls == [7] and slow(7) == 14
    for _ in range(2):
        with pytest.raises(ValueError):
            slow(-1)
    assert calls == [7, -1, -1]  # a failure is tried again, never remembered
    slow.cache_clear()
    assert slow(7) == 14 and calls[-1] == 7


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_grading_works_with_descriptor_numbers_past_1024(edition, reference_source):
    """A grader with many children holds many descriptors; ``select`` refuses numbers past 1023."""
    import os
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"this machine allows only {hard} open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = []
    try:
        while not held or held[-1] < 1100:
            held.append(os.open(os.devnull, os.O_RDONLY))
        report = grading.grade(Submission(Path("hog.py"), reference_source), edition, problems=[2])
        assert report.total == report.max == 2
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
