"""Classroom: grading a whole class folder, in parallel, without losing anything.

Contract: :func:`grade_class` grades every entry :func:`graders.submissions.discover` finds, each in
its own sandboxed children (as an unprivileged user, with the kit hidden, when the grader runs as
root), ``jobs`` at a time. As each submission finishes, its record, Markdown feedback and
Gradescope-style ``results.json`` are written atomically under OUTDIR; a rerun keeps the records of
submissions whose code did not change (unless ``force``). A submission that cannot be graded gets a
row with its status and reason and never stops the batch. At the end the class files are written
from the records: ``grades.csv``, ``records.jsonl``, ``summary.md`` and ``histogram.svg``.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from graders import messages, reports
from graders.edition import Edition, EditionError
from graders.grading import Submission, grade
from graders.sandbox import Limits
from graders.storage import write_atomically
from graders.submissions import Entry, discover

RECORD_VERSION = 1


def sandbox_limits(edition: Edition) -> Limits:
    """Student code runs as ``nobody`` with the kit covered when the grader is root."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return Limits(user="nobody", hide=(str(edition.root),))
    return Limits()


def record_for(entry: Entry, edition: Edition, limits: Limits) -> dict:
    """The record of one entry: its grading report as data, or why it could not be graded."""
    base = {"version": RECORD_VERSION, "student": entry.student, "path": str(entry.path), "digest": entry.digest,
            "edition": edition.name}
    if entry.source is None:
        return {**base, "status": entry.status, "reason": entry.reason, "total": 0, "max": edition.max_points}
    try:
        report = grade(Submission(entry.path, entry.source), edition, limits=limits, workers=1)
    except Exception as exc:  # grading itself must not stop the class; the row says what happened
        return {**base, "status": "error", "reason": f"{type(exc).__name__}: {exc}", "total": 0,
                "max": edition.max_points}
    return {**base, "status": "graded", "reason": "", **report.as_dict()}


def _outputs(out: Path, student: str) -> dict[str, Path]:
    return {
        "record": out / "records" / f"{student}.json",
        "feedback": out / "feedback" / f"{student}.md",
        "gradescope": out / "gradescope" / student / "results.json",
    }


def write_student(out: Path, record: dict) -> None:
    paths = _outputs(out, record["student"])
    write_atomically(paths["feedback"], reports.render_record_markdown(record))
    write_atomically(paths["gradescope"], json.dumps(reports.render_gradescope(record), indent=2))
    write_atomically(paths["record"], json.dumps(record, indent=1))  # last: it marks the student done


def load_record(out: Path, entry: Entry, edition: Edition) -> dict | None:
    """The record of an earlier run for the same code and edition, or None."""
    try:
        record = json.loads(_outputs(out, entry.student)["record"].read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    same = (record.get("version") == RECORD_VERSION and record.get("digest") == entry.digest
            and record.get("edition") == edition.name)
    return record if same else None


def kit_is_readable_by_others(edition: Edition) -> bool:
    mode = edition.root.stat().st_mode
    return bool(mode & stat.S_IROTH and mode & stat.S_IXOTH)


Progress = Callable[[int, int, float], None]


def grade_class(
    folder: Path,
    edition: Edition,
    out: Path,
    *,
    jobs: int | None = None,
    force: bool = False,
    progress: Progress | None = None,
    limits: Limits | None = None,
) -> list[dict]:
    """Grade every submission in FOLDER into OUT; return the records in student order."""
    if not folder.is_dir():
        raise EditionError(messages.no_such_path(str(folder)))
    entries = discover(folder, edition.submission)
    if not entries:
        raise EditionError(messages.empty_class(str(folder)))
    limits = limits or sandbox_limits(edition)
    out.mkdir(parents=True, exist_ok=True)
    records: dict[str, dict] = {}
    todo = []
    for entry in entries:
        old = None if force else load_record(out, entry, edition)
        if old is not None:
            records[entry.student + "\0" + str(entry.path)] = {**old, "reused": True}
        else:
            todo.append(entry)
    started = time.monotonic()
    done = len(records)
    if progress:
        progress(done, len(entries), started)
    with ThreadPoolExecutor(max(1, jobs or os.cpu_count() or 1)) as pool:
        futures = {pool.submit(record_for, entry, edition, limits): entry for entry in todo}
        for future in as_completed(futures):
            entry = futures[future]
            record = future.result()
            if entry.status != "duplicate":  # two entries share the id: neither may overwrite the other
                write_student(out, record)
            records[entry.student + "\0" + str(entry.path)] = record
            done += 1
            if progress:
                progress(done, len(entries), started)
    ordered = [records[k] for k in sorted(records)]
    write_class_files(out, ordered, edition)
    return ordered


def write_class_files(out: Path, records: list[dict], edition: Edition) -> None:
    records = [{k: v for k, v in r.items() if k != "reused"} for r in records]
    write_atomically(out / "grades.csv", reports.render_grades_csv(records, edition))
    write_atomically(out / "records.jsonl", "".join(json.dumps(r) + "\n" for r in records))
    write_atomically(out / "summary.md", reports.render_class_summary(records, edition))
    write_atomically(out / "histogram.svg", reports.render_histogram_svg(records, edition))


def print_progress(done: int, total: int, started: float) -> None:
    """A progress bar with an estimate of the time left, on standard error."""
    elapsed = time.monotonic() - started
    rate = elapsed / done if done else 0.0
    left = rate * (total - done)
    eta = time.strftime("%M:%S", time.gmtime(left)) if done else "--:--"
    line = messages.class_progress(done, total, eta)
    if sys.stderr.isatty():
        print("\r" + line, end="" if done < total else "\n", file=sys.stderr, flush=True)
    elif done == total or done % max(1, total // 10) == 0:
        print(line, file=sys.stderr, flush=True)
