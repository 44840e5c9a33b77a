"""Classroom: grading a whole class folder, in parallel, without losing anything.

Contract: :func:`grade_class` grades every entry :func:`graders.submissions.discover` finds, each
in its own sandboxed children (isolated as :mod:`graders.isolation` decides), ``jobs`` at a time.
As each submission finishes, its record, Markdown feedback and Gradescope-style ``results.json``
are written atomically under OUTDIR; a rerun keeps the records of submissions whose code did not
change, graded by the same kit (unless ``force``). A submission that cannot be graded gets a row
with its status and reason and never stops the batch. At the end the class files are written from
the records: ``grades.csv``, ``records.jsonl``, ``summary.md``, ``histogram.png`` and ``.svg``, and ``kit-
errors.log`` when the kit failed.

A failure of the kit (anything grading raises, a worker that died, outputs that cannot be written)
is never a student's grade: the submission is graded again once, alone, after the others; if the
kit fails again its row has the status ``kit error``, a reason saying the student is not at fault,
and the traceback in its record and in ``kit-errors.log``. A rerun always regrades such a row.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from graders import messages, reports
from graders.edition import Edition
from graders.errors import InputError
from graders.grading import KIT_ERROR, Submission, describe_failure, grade
from graders.sandbox import Limits
from graders.storage import write_atomically
from graders.submissions import Entry, discover, not_submissions, shown_text

RECORD_VERSION = 2
KIT_LOG = messages.KIT_LOG_NAME
ENGINE = Path(__file__).parent


def kit_fingerprint(edition: Edition) -> str:
    """What identifies the kit that grades: its engine, every case file and manifest, the reference
    and support files. A record made by another kit is regraded, never kept."""
    digest = hashlib.sha256()
    files = sorted(ENGINE.glob("*.py")) + sorted((edition.root / "tests").glob("*/*.toml"))
    files += [edition.solution_dir / edition.submission] + [edition.support_dir / n for n in edition.support]
    for path in files:
        digest.update(path.name.encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"(missing)")
    return digest.hexdigest()[:16]


def _base(entry: Entry, edition: Edition, kit: str) -> dict:
    return {"version": RECORD_VERSION, "kit": kit, "student": entry.student, "file_id": entry.files_as,
            "path": shown_text(str(entry.path)),
            "digest": entry.digest, "edition": edition.name, "title": edition.title}


def record_for(entry: Entry, edition: Edition, limits: Limits, kit: str = "") -> dict:
    """The record of one entry: its grading report as data, why it could not be graded, or (status
    ``kit error``) that the kit failed to grade it. One attempt; see :func:`record_with_retry`."""
    base = _base(entry, edition, kit)
    if entry.source is None:
        return {**base, "status": entry.status, "reason": entry.reason, "total": 0, "max": edition.max_points}
    try:
        report = grade(Submission(entry.path, entry.source), edition, limits=limits, workers=1)
    except Exception as exc:  # anything grading raises is the kit's failure, never the student's
        return kit_error_record(base, edition, exc, traceback.format_exc())
    return {**base, "status": "graded", "reason": "", **report.as_dict()}


def kit_error_record(base: dict, edition: Edition, exc: BaseException, details: str) -> dict:
    return {**base, "status": KIT_ERROR, "reason": messages.kit_failed_row(describe_failure(exc)),
            "traceback": details, "total": 0, "max": edition.max_points}


def record_with_retry(entry: Entry, edition: Edition, limits: Limits, kit: str = "") -> dict:
    """:func:`record_for`, once more when the kit failed (for a route that grades one submission)."""
    record = _attempt(entry, edition, limits, kit)
    if record["status"] == KIT_ERROR:
        record = {**_attempt(entry, edition, limits, kit), "attempts": 2}
    return record


def _outputs(out: Path, student: str) -> dict[str, Path]:
    return {
        "record": out / "records" / f"{student}.json",
        "feedback": out / "feedback" / f"{student}.md",
        "gradescope": out / "gradescope" / student / "results.json",
    }


def write_student(out: Path, record: dict) -> None:
    paths = _outputs(out, record.get("file_id") or record["student"])
    write_atomically(paths["feedback"], reports.render_record_markdown(record))
    write_atomically(paths["gradescope"], json.dumps(reports.render_gradescope(record), indent=2))
    write_atomically(paths["record"], json.dumps(record, indent=1))  # last: it marks the student done


def load_record(out: Path, entry: Entry, edition: Edition, kit: str) -> dict | None:
    """The record of an earlier run for the same code, edition and kit, or None. A row the kit
    failed to grade is never kept: it is graded again."""
    try:
        record = json.loads(_outputs(out, entry.files_as)["record"].read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict):
        return None
    same = (record.get("version") == RECORD_VERSION and record.get("kit") == kit
            and record.get("digest") == entry.digest and record.get("edition") == edition.name)
    return record if same and record.get("status") != KIT_ERROR else None


Progress = Callable[..., None]  # (done, total, started[, what is counted])
Notice = Callable[[str], None]


def check_class_folder(folder: Path, edition: Edition, command: str) -> None:
    """Refuse FOLDER (InputError) unless it is a folder of submissions: not missing, and not one
    student's folder holding the submission file itself. COMMAND names what was being run."""
    if not folder.is_dir():
        raise InputError(messages.no_such_path(str(folder)))
    if (folder / edition.submission).is_file():
        raise InputError(messages.one_submission_not_a_class(str(folder), edition.submission, command))


def grade_class(
    folder: Path,
    edition: Edition,
    out: Path,
    *,
    jobs: int | None = None,
    force: bool = False,
    progress: Progress | None = None,
    limits: Limits | None = None,
    notice: Notice | None = None,
) -> list[dict]:
    """Grade every submission in FOLDER into OUT; return the records in student order. PROGRESS
    hears of each finished submission, NOTICE of anything worth a line (a regrade after a kit failure)."""
    check_class_folder(folder, edition, "grade")
    entries = discover(folder, edition.submission, skip=out)
    if not entries:
        raise InputError(messages.empty_class(str(folder)))
    ignored = not_submissions(folder)
    if ignored and notice:
        notice(messages.files_skipped(ignored))
    limits = limits or Limits()
    kit = kit_fingerprint(edition)
    out.mkdir(parents=True, exist_ok=True)
    records: dict[str, dict] = {}
    todo = []
    for entry in entries:
        old = None if force else load_record(out, entry, edition, kit)
        if old is not None:
            records[_key(entry)] = {**old, "reused": True}
        else:
            todo.append(entry)
    started = time.monotonic()
    if progress:
        progress(len(records), len(entries), started)
    retry = []
    with ThreadPoolExecutor(max(1, jobs or os.cpu_count() or 1)) as pool:
        futures = {pool.submit(_attempt, entry, edition, limits, kit): entry for entry in todo}
        for future in as_completed(futures):
            entry = futures[future]
            record = future.result()
            if record["status"] == KIT_ERROR:
                retry.append(entry)  # graded again below, alone, once the others are done
                continue
            records[_key(entry)] = _finish(out, entry, record, edition)
            if progress:
                progress(len(records), len(entries), started)
    if retry and notice:
        notice(messages.class_retrying(len(retry)))
    for entry in retry:  # alone: whatever load or race made the kit fail is over
        record = {**_attempt(entry, edition, limits, kit), "attempts": 2}
        records[_key(entry)] = _finish(out, entry, record, edition)
        if progress:
            progress(len(records), len(entries), started)
    ordered = [records[k] for k in sorted(records)]
    write_class_files(out, ordered, edition)
    return ordered


def _key(entry: Entry) -> str:
    return entry.student + "\0" + str(entry.path)


def _attempt(entry: Entry, edition: Edition, limits: Limits, kit: str) -> dict:
    """:func:`record_for`, with a worker that died (whatever escaped it) turned into a kit error."""
    try:
        return record_for(entry, edition, limits, kit)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # even SystemExit: one worker's end must not end the batch
        return kit_error_record(_base(entry, edition, kit), edition, exc, traceback.format_exc())


def _finish(out: Path, entry: Entry, record: dict, edition: Edition) -> dict:
    """Write the student's files (not for a shared id: neither may overwrite the other); a record
    whose files cannot be written becomes a kit error, kept in memory only, so a rerun regrades it."""
    if entry.status == "duplicate":
        return record
    try:
        write_student(out, record)
    except OSError as exc:
        return kit_error_record(_base(entry, edition, record.get("kit", "")), edition, exc, traceback.format_exc())
    return record


def kit_errors(records: list[dict]) -> list[dict]:
    return [r for r in records if r["status"] == KIT_ERROR]


def write_class_files(out: Path, records: list[dict], edition: Edition) -> None:
    records = [{k: v for k, v in r.items() if k != "reused"} for r in records]
    write_atomically(out / "grades.csv", reports.render_grades_csv(records, edition))
    write_atomically(out / "records.jsonl", "".join(json.dumps(reports.summary_record(r)) + "\n" for r in records))
    write_atomically(out / "summary.md", reports.render_class_summary(records, edition))
    from graders import pictures

    totals = [r["total"] for r in records if r["status"] == "graded"]
    for fmt in pictures.FORMATS:  # the PNG for summary.md and anything else; the SVG to zoom into
        picture = pictures.score_histogram(messages.histogram_title(len(totals)), totals, edition.max_points, fmt)
        write_atomically(out / f"histogram.{fmt}", picture)
    failed = kit_errors(records)
    if failed:
        write_atomically(out / KIT_LOG, reports.render_kit_log(failed))
    else:
        (out / KIT_LOG).unlink(missing_ok=True)  # from an earlier run whose failures are now regraded


def print_progress(done: int, total: int, started: float, what: str = "") -> None:
    """A progress bar, saying what it counts (WHAT, submissions by default), with an estimate of the
    time left, on standard error."""
    elapsed = time.monotonic() - started
    rate = elapsed / done if done else 0.0
    left = rate * (total - done)
    eta = time.strftime("%M:%S", time.gmtime(left)) if done else "--:--"
    line = messages.class_progress(done, total, eta, what or messages.COUNT_SUBMISSIONS)
    if sys.stderr.isatty():
        print("\r" + line, end="" if done < total else "\n", file=sys.stderr, flush=True)
    elif done == total or done % max(1, total // 10) == 0:
        print(line, file=sys.stderr, flush=True)
