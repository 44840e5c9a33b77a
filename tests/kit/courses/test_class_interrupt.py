"""Ctrl-C on a class grade: said at once, over within seconds, what finished kept whole, a rerun
grading the rest to the grades an uninterrupted run gives. (How fast: benchmarks/bench_interrupt.py.)"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from graders.cli import messages as cli_messages
from graders.core import messages
from graders.courses import messages as courses_messages
from graders.courses.classroom import read_record

STOPPING = re.compile(re.escape(courses_messages.class_stopping(0)).replace("0", r"\d+")
                      .replace("submissions", "submissions?"))


def hogkit_command(folder: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "graders.cli", "grade", str(folder), "--out", str(out), "--jobs", "2"]


def make_class(folder: Path, reference_source: str, skeleton_source: str, count: int) -> None:
    folder.mkdir()
    for k in range(count):
        source = skeleton_source if k % 3 == 1 else reference_source
        (folder / f"s{k:02d}.py").write_text(source + f"\n# submission {k}\n", encoding="utf-8")


def until_first_graded(proc: subprocess.Popen) -> list[str]:
    """The lines PROC writes on its standard error up to the first that says a submission is graded."""
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if re.search(r"\b[1-9]\d*/\d+ submissions graded", line):
            break
    return seen


def rest_of_stderr(proc: subprocess.Popen, seconds: float) -> str:
    """What PROC writes on its standard error from here to its end (within SECONDS, else it is killed).
    Read through the same text stream the caller iterated, so lines already in its buffer count too
    (``communicate`` reads the pipe itself and would miss them)."""
    stream = proc.stderr
    assert stream is not None
    rest: list[str] = []
    reader = threading.Thread(target=lambda: rest.append(stream.read()), daemon=True)
    reader.start()
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    reader.join(seconds)
    return "".join(rest)


def interrupt_after_first(folder: Path, out: Path) -> tuple[int, str, float]:
    """Run a class grade, send SIGINT once its first submission is graded; (status, stderr, seconds
    from the signal to the end)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    proc = subprocess.Popen(hogkit_command(folder, out), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=env)
    seen = until_first_graded(proc)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    rest = rest_of_stderr(proc, 30)
    return proc.returncode, "".join(seen) + rest, time.monotonic() - sent


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_ctrl_c_on_a_class_says_so_stops_and_a_rerun_grades_the_rest(tmp_path, reference_source, skeleton_source):
    folder = tmp_path / "class"
    make_class(folder, reference_source, skeleton_source, 8)
    whole = tmp_path / "whole"
    assert subprocess.run(hogkit_command(folder, whole), capture_output=True, text=True).returncode == 0
    out = tmp_path / "out"
    code, err, seconds = interrupt_after_first(folder, out)
    assert code == 130, err
    assert STOPPING.search(err), err
    assert re.search(r"stopped: \d+ graded submissions? kept; \d+ ha(ve|s) no record", err), err
    assert messages.interrupted() in err
    assert seconds < 10, f"{seconds:.1f} s from Ctrl-C to the end"  # generous for a loaded machine (see the benchmark)
    kept = sorted((out / "records").glob("*.json.gz"))
    assert 1 <= len(kept) < 8, kept  # what finished is kept, what was running or waiting is not
    for path in kept:
        record = read_record(path)
        student = path.name.removesuffix(".json.gz")
        assert record["status"] == "graded" and record["total"] in (0, record["max"]), record["status"]
        assert (out / "feedback" / f"{student}.md").is_file()
        assert (out / "gradescope" / student / "results.json").is_file()
    assert not [p for p in out.rglob(".*") if p.is_file()], "a half-written file was left"
    assert not (out / "grades.csv").exists()  # no class table claims the class was graded
    rerun = subprocess.run(hogkit_command(folder, out), capture_output=True, text=True)
    assert rerun.returncode == 0, rerun.stderr
    assert cli_messages.class_reused(len(kept)) in rerun.stdout
    assert (out / "grades.csv").read_text(encoding="utf-8") == (whole / "grades.csv").read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_sigterm_stops_a_class_as_ctrl_c_does_and_a_second_signal_stops_at_once(tmp_path, reference_source,
                                                                                  skeleton_source):
    """A job's time limit (Slurm, Kubernetes) sends SIGTERM: the same stop, said the same way; the
    Ctrl-C that follows the message ends the run at once, with status 130 and nothing half-written."""
    folder = tmp_path / "class"
    make_class(folder, reference_source, skeleton_source, 6)
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    proc = subprocess.Popen(hogkit_command(folder, out), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stderr is not None
    for line in proc.stderr:
        if "submissions graded" in line:
            break
    proc.send_signal(signal.SIGTERM)
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if STOPPING.search(line):
            proc.send_signal(signal.SIGINT)
            break
    else:
        pytest.fail("no stopping line after SIGTERM")
    err = "".join(seen) + rest_of_stderr(proc, 30)
    assert proc.returncode == 130 and messages.interrupted() in err, err
    assert not [p for p in out.rglob(".*") if p.is_file()], "a half-written file was left"
    for path in (out / "records").glob("*.json.gz") if (out / "records").exists() else ():
        assert read_record(path)["status"] == "graded"
