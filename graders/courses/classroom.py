"""Classroom: grading a whole class folder, in parallel, without losing anything.

Contract: :func:`grade_class` grades every entry :func:`graders.scoring.submissions.discover` finds, each
in its own sandboxed children (isolated as :mod:`graders.sandboxing.isolation` decides), ``jobs`` at a time.
As each submission finishes, its record (lean and gzipped: ``records/ID.json.gz``, see
:func:`write_record`), Markdown feedback and Gradescope-style ``results.json`` are written atomically
under OUTDIR; a rerun keeps the records of submissions whose code did not
change, graded by the same kit (unless ``force``), and where the kit differs in some problems'
cases alone (:func:`kit_fingerprint`, :func:`changed_problems`) grades those problems again and
keeps the rest (:func:`graders.scoring.grading.regrade`). A submission that cannot be graded gets a row
with its status and reason and never stops the batch. At the end the class files are written from
the records: ``grades.csv``, ``records.jsonl``, ``summary.md``, ``histogram.png`` and ``.svg``, and ``kit-
errors.log`` when the kit failed.

A failure of the kit (anything grading raises, a worker that died, outputs that cannot be written)
is never a student's grade: the submission is graded again once, alone, after the others; if the
kit fails again its row has the status ``kit error``, a reason saying the student is not at fault,
and the traceback in its record and in ``kit-errors.log``. A rerun always regrades such a row.

A grade stopped part-way (Ctrl-C, SIGTERM or SIGHUP, once or twice) leaves nothing of the kit's in
the temporary folder: every staging, runner and build folder is a scratch folder
(:mod:`graders.core.scratch`), deleted when its session ends or, at the latest, with the process.

Every input is checked (:func:`read_class`: the class folder, a shard's output outside it, a course's
hand-in times) before OUTDIR is made, so a refused grade writes nothing; OUTDIR, when made here, and
its missing parents are ``0700`` (:func:`graders.core.storage.make_private_folder`): no other user,
nor a child running as one, can read the records written there.

With a shard (``--shard K/N``, :mod:`graders.courses.shards`) only that share is graded, and its folder gets
``shard.json`` instead of the class files; :mod:`graders.courses.merging` writes those, through
:func:`finish_class`, from every shard's records.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
import os
import signal
import sys
import threading
import time
import traceback
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from graders.core import messages, scratch
from graders.core.errors import InputError
from graders.core.records import RECORD_VERSION, ClassRecord, EntryStatus
from graders.core.storage import make_private_folder, write_atomically
from graders.courses import gradebook, shards
from graders.courses import messages as courses_messages
from graders.courses.course import COURSE_FILE, LOWER, Outcome
from graders.courses.handins import (
    EXPORT_METADATA,
    FILE_TIME,
    TIMES_FILE,
    Handin,
    class_handins,
    export_root,
    group_attempts,
    is_export,
    read_export,
    record_result,
)
from graders.courses.policy import edition_course, grade_course, phase_one_labels, policy_costs
from graders.courses.roster import Setup
from graders.courses.shards import Shard
from graders.editions.cases import included_files
from graders.editions.edition import Edition, engine_modules
from graders.games.game import game_of
from graders.sandboxing import children
from graders.sandboxing.sandbox import Limits
from graders.scoring import reports
from graders.scoring.grading import describe_failure, grade, regrade
from graders.scoring.submissions import Entry, Submission, discover, file_id, not_submissions, shown_text

if TYPE_CHECKING:
    from graders.courses.similarity import Report as SimilarityReport

HANDINS_TABLE = "handins.csv"  # with a course: the engine's grades.csv, one row per hand-in
GRADESCOPE_SCORES, CANVAS_SCORES, COURSE_NOTES = "gradescope-scores.csv", "canvas-scores.csv", "course-notes.txt"
COURSE_INPUTS = (TIMES_FILE, EXPORT_METADATA)  # a course's own files in a class folder: no submissions
KIT_LOG = messages.KIT_LOG_NAME
ENGINE = Path(__file__).resolve().parents[1]


def kit_fingerprint(edition: Edition) -> str:
    """What identifies the kit that grades: ``BASE;LABEL=DIGEST,...``. BASE covers its engine, the
    edition's manifest, the reference and support files; each problem's digest covers its case
    files and the files they include. A record made by another kit is regraded, never kept; one
    whose BASE is this kit's is regraded for the problems whose digest changed alone
    (:func:`changed_problems`)."""
    files = engine_modules(ENGINE) + [edition.suite_dir / "edition.toml", edition.solution_dir / edition.submission]
    base = _digest(files + [edition.support_dir / n for n in edition.support])
    parts = ",".join(f"{p.label}={_digest(problem_files(edition, p.label))[:12]}" for p in edition.problems)
    return f"{base};{parts}"


def problem_files(edition: Edition, label: str) -> list[Path]:
    """Problem LABEL's case files, and the files they include (another edition's shared cases)."""
    files = edition.case_files(label)
    return files + [inc for path in files for inc in included_files(path)]


def _digest(files: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"(missing)")
    return digest.hexdigest()[:16]


def changed_problems(made_by: str, kit: str) -> set[str] | None:
    """The problems whose cases differ between the kit that made a record (MADE_BY) and KIT, both
    :func:`kit_fingerprint` values; None when anything else differs (the engine, the manifest,
    the reference, the problems themselves), which only a full grade answers."""
    old_base, _, old_parts = made_by.partition(";")
    base, _, parts = kit.partition(";")
    old = dict(part.partition("=")[::2] for part in old_parts.split(",") if part)
    new = dict(part.partition("=")[::2] for part in parts.split(",") if part)
    if old_base != base or not new or old.keys() != new.keys():
        return None
    return {label for label in new if old[label] != new[label]}


def _base(entry: Entry, edition: Edition, kit: str) -> ClassRecord:
    """ENTRY's record before grading: who, what was read, and why it cannot be graded if it cannot."""
    return ClassRecord(student=entry.student, status=EntryStatus(entry.status), reason=entry.reason, kit=kit,
                       file_id=entry.files_as, path=shown_text(str(entry.path)), digest=entry.digest,
                       edition=edition.name, title=edition.title, max=edition.max_points)


def record_for(entry: Entry, edition: Edition, limits: Limits, kit: str = "",
               worded: Callable[[str], str] = courses_messages.kit_failed_row,
               earlier: tuple[ClassRecord, set[str]] | None = None) -> ClassRecord:
    """The record of one entry: its grading report, why it could not be graded, or (status
    ``kit error``, its reason WORDED from the failure for the route) that the kit failed to grade
    it. One attempt; see :func:`record_with_retry`. EARLIER: a record by this kit but for some
    problems' cases (:func:`partial_of`), whose other results are kept and those problems
    graded again."""
    base = _base(entry, edition, kit)
    if entry.source is None:
        return base
    if earlier is not None and (earlier[0].report is None or not earlier[1]):
        return earlier[0]
    try:
        submission = Submission(entry.path, entry.source, entry.notes)
        if earlier is not None and earlier[0].report is not None:
            report = regrade(submission, edition, earlier[0].report, earlier[1], limits=limits, workers=1,
                             game=game_of(edition))
        else:
            report = grade(submission, edition, limits=limits, workers=1, game=game_of(edition))
    except Exception as exc:  # anything grading raises is the kit's failure, never the student's
        return kit_error_record(base, exc, traceback.format_exc(), worded)
    return dataclasses.replace(base, status=EntryStatus.GRADED, reason="", report=report, max=report.max)


def kit_error_record(base: ClassRecord, exc: BaseException, details: str,
                     worded: Callable[[str], str] = courses_messages.kit_failed_row) -> ClassRecord:
    reason = worded(describe_failure(exc))
    return dataclasses.replace(base, status=EntryStatus.KIT_ERROR, reason=reason, traceback=details, report=None)


def record_with_retry(entry: Entry, edition: Edition, limits: Limits, kit: str = "",
                      worded: Callable[[str], str] = courses_messages.kit_failed_row) -> ClassRecord:
    """:func:`record_for`, once more when the kit failed (for a route that grades one submission;
    WORDED: the reason of a kit error, as the route tells its staff what to do)."""
    record = _attempt(entry, edition, limits, kit, worded)
    if record.status == EntryStatus.KIT_ERROR:
        record = second_attempt(entry, edition, limits, kit, record, worded)
    return record


def second_attempt(entry: Entry, edition: Edition, limits: Limits, kit: str, first: ClassRecord,
                   worded: Callable[[str], str] = courses_messages.kit_failed_row) -> ClassRecord:
    """ENTRY graded once more after the kit failed on it (FIRST): the record of this attempt, which
    keeps the first failure for the staff's log (kit-errors.log), whatever this one gives."""
    record = _attempt(entry, edition, limits, kit, worded)
    return dataclasses.replace(record, attempts=2, first_failure=f"{first.reason}\n{first.traceback}".strip())


RECORD_SUFFIX = ".json.gz"
OLD_RECORD_SUFFIX = ".json"  # records of version 3 and before: made by another kit, so always graded again


def _outputs(out: Path, student: str) -> dict[str, Path]:
    return {
        "record": out / "records" / f"{student}{RECORD_SUFFIX}",
        "feedback": out / "feedback" / f"{student}.md",
        "gradescope": out / "gradescope" / student / "results.json",
    }


def write_student(out: Path, record: ClassRecord) -> dict:
    """RECORD's files under OUT (feedback, Gradescope's results, the record last); the record's lean
    JSON data as written."""
    paths = _outputs(out, record.file_id or record.student)
    write_atomically(paths["feedback"], reports.render_record_markdown(record))
    write_atomically(paths["gradescope"], json.dumps(reports.render_gradescope(record), indent=2))
    data = write_record(paths["record"], record)  # last: it marks the student done
    paths["record"].with_name(paths["record"].name.removesuffix(RECORD_SUFFIX) + OLD_RECORD_SUFFIX).unlink(
        missing_ok=True)  # an older form's record of the same id, never read again
    return data


def write_record(path: Path, record: ClassRecord) -> dict:
    """RECORD at PATH: lean JSON (a passing case by its fields that are not defaults; a failing one
    whole), gzipped. Both halve or better what the other does alone; see benchmarks/bench_outputs.py.
    The JSON data written."""
    data = record.to_dict(lean=True)
    text = json.dumps(data, separators=(",", ":"))
    write_atomically(path, gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0))
    return data


def read_record(path: Path) -> Any:
    """A record written by :func:`write_record`, as JSON data (OSError, ValueError when it is not one)."""
    try:
        return json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise ValueError(str(path)) from exc


def record_path(out: Path, student: str) -> Path:
    """Where the record of the student whose outputs are named STUDENT is kept under OUT."""
    return _outputs(out, student)["record"]


def earlier_record(out: Path, entry: Entry, edition: Edition) -> ClassRecord | None:
    """The record an earlier run left for ENTRY's very code and EDITION, by whatever kit; None when
    there is none, it is of another version, or the kit failed on it (such a row is graded again)."""
    try:
        data = read_record(record_path(out, entry.files_as))
        if not isinstance(data, dict) or data.get("version") != RECORD_VERSION:
            return None
        record = ClassRecord.from_dict(data)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    same = record.digest == entry.digest and record.edition == edition.name
    return record if same and record.status != EntryStatus.KIT_ERROR else None


def load_record(out: Path, entry: Entry, edition: Edition, kit: str) -> ClassRecord | None:
    """The record of an earlier run for the same code, edition and kit, or None."""
    record = earlier_record(out, entry, edition)
    return record if record is not None and record.kit == kit else None


def partial_of(record: ClassRecord, kit: str) -> tuple[ClassRecord, set[str]] | None:
    """RECORD (an earlier run's, of the same code: :func:`earlier_record`) made by a kit that differs
    from KIT in some problems' cases alone (:func:`changed_problems`), with those problems' labels:
    none for an entry that was not graded, whose record holds for this kit too. None when a full
    grade is needed, or when RECORD is this kit's already."""
    labels = changed_problems(record.kit, kit)
    if labels is None or record.kit == kit:
        return None
    return dataclasses.replace(record, kit=kit), (labels if record.report is not None else set())


Progress = Callable[..., None]  # (done, total, started[, what is counted])
Notice = Callable[[str], None]


def check_class_folder(folder: Path, edition: Edition, command: str) -> None:
    """Refuse FOLDER (InputError) unless it is a folder of submissions: not missing, and not one
    student's folder holding the submission file itself. COMMAND names what was being run."""
    if not folder.is_dir():
        raise InputError(messages.no_such_path(str(folder)))
    if (folder / edition.submission).is_file():
        raise InputError(courses_messages.one_submission_not_a_class(str(folder), edition.submission, command))


@dataclass(frozen=True)
class ClassInputs:
    """A class folder read and checked (:func:`read_class`), before anything is written."""

    root: Path  # the folder whose entries are the hand-ins (a Gradescope export's own folder, with a course)
    entries: tuple[Entry, ...]
    handins: tuple[Handin, ...]  # with a course: each entry as a hand-in
    notes: tuple[str, ...]  # with a course: what reading the hand-ins' times said


def read_class(folder: Path, edition: Edition, out: Path, course: Setup | None = None, trust_file_times: bool = False,
               shard: Shard | None = None) -> ClassInputs:
    """FOLDER's entries (and, with COURSE, hand-ins), every refusal :func:`grade_class` makes of its
    inputs made here (InputError), before OUT is made or anything is written."""
    check_class_folder(folder, edition, "grade")
    if shard is not None:
        shards.check_outside(folder, out)
    root = export_root(folder) if course is not None and is_export(folder) else folder
    entries = discover(root, edition.submission, skip=out)
    if not entries:
        raise InputError(courses_messages.empty_class(str(root)))
    handins, notes = course_handins(root, entries, course, trust_file_times) if course is not None else ((), ())
    return ClassInputs(root, tuple(entries), handins, notes)


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
    course: Setup | None = None,
    trust_file_times: bool = False,
    shard: Shard | None = None,
    inputs: ClassInputs | None = None,
) -> list[ClassRecord]:
    """Grade every submission in FOLDER into OUT; return the records in student order. PROGRESS
    hears of each finished submission, NOTICE of anything worth a line (a regrade after a kit failure).
    With COURSE, FOLDER may also be a Gradescope export; each hand-in is graded once, then the
    course's policy is applied per student (see :func:`write_course_files`). A hand-in whose time
    would be its file's (which unzip, cp -p and tar restore from the student's own archive) is refused
    (InputError) unless TRUST_FILE_TIMES, and then every course output says so. With SHARD, only
    that share of the entries is graded (see :mod:`graders.courses.shards`): each one's files, then
    ``shard.json``; the tables, the course's policy and the similarity report wait for ``hogkit merge``.
    INPUTS: FOLDER as :func:`read_class` read it already. Every refusal comes before OUT is made;
    OUT, when made here, is its owner's alone (``0700``)."""
    read = inputs or read_class(folder, edition, out, course, trust_file_times, shard)
    entries = list(read.entries)
    ignored = [n for n in not_submissions(read.root) if course is None or n not in COURSE_INPUTS]
    if ignored and notice:
        notice(courses_messages.files_skipped(ignored))
    mine = shards.select(entries, shard) if shard is not None else entries
    records = _grade_entries(mine, edition, out, limits or Limits(), jobs, force, progress, notice)
    if shard is not None:  # the class's own files wait for the merge: they are of the whole class
        shards.write_manifest(out, shard_manifest(shard, entries, mine, edition, folder, course, trust_file_times))
        return [records[k] for k in sorted(records)]
    return finish_class(read.root, entries, records, edition, out, course, (read.handins, read.notes), notice)


def finish_class(root: Path, entries: list[Entry], records: Mapping[str, ClassRecord], edition: Edition, out: Path,
                 course: Setup | None, handins: tuple[Sequence[Handin], Sequence[str]],
                 notice: Notice | None) -> list[ClassRecord]:
    """Write the class's own files from every entry's record (RECORDS by :func:`_key`): the tables,
    the course's (with COURSE: HANDINS, its hand-ins and notes) and the similarity report of ROOT."""
    ordered = [records[k] for k in sorted(records)]
    with ThreadPoolExecutor(1) as aside:  # the similarity report's fingerprints (other processes) meanwhile
        compared = aside.submit(_compared, root, edition, out, course)
        write_class_files(out, ordered, edition, "grades.csv" if course is None else HANDINS_TABLE)
        if course is not None:
            by_key = {entry.student: records[_key(entry)] for entry in entries}
            write_course_files(out, course, edition, handins[0], by_key, handins[1], notice)
        write_similarity(root, edition, out, course, notice, compared)
    return ordered


def shard_manifest(shard: Shard, entries: list[Entry], mine: list[Entry], edition: Edition, folder: Path,
                   course: Setup | None, trust_file_times: bool) -> shards.Manifest:
    kit = kit_fingerprint(edition)
    return shards.Manifest(shard, shards.class_identity(entries, edition.name, kit), edition.name, kit,
                           str(folder.resolve()), str(folder), str(Path(course.folder).resolve()) if course else "",
                           trust_file_times, tuple(e.student for e in mine))


def write_similarity(root: Path, edition: Edition, out: Path, course: Setup | None, notice: Notice | None,
                     compared: Future[SimilarityReport] | None = None) -> None:
    """``similarity.html`` and ``.csv`` beside the grades, from the comparison COMPARED worked out
    (or, without it, one worked out here); whatever goes wrong there never touches a grade."""
    from graders.courses import similarity

    try:
        report = compared.result() if compared is not None else _compared(root, edition, out, course)
        similarity.write_report(out, report)
    except Exception as exc:  # the report is an aid: the grades written above stand
        if notice:
            notice(courses_messages.similarity_failed(describe_failure(exc)))


def _compared(root: Path, edition: Edition, out: Path, course: Setup | None) -> SimilarityReport:
    from graders.courses import similarity

    return similarity.compare(root, edition, setup=course, skip=out)


JOBS_PER_CORE = 2  # submissions graded at once per core, by default: see class_jobs


def class_jobs() -> int:
    """Submissions graded at once by default: JOBS_PER_CORE to a core. A grade waits on its children
    (starting, loading, a case's reply) part of its time, which another submission's grade fills;
    a case is judged by its processor time, not the clock, so the wait for a processor this adds
    never costs a case (see graders.sandboxing.sandbox.Session._graced)."""
    return JOBS_PER_CORE * max(1, os.cpu_count() or 1)


def _grade_entries(entries: list[Entry], edition: Edition, out: Path, limits: Limits, jobs: int | None, force: bool,
                   progress: Progress | None, notice: Notice | None) -> dict[str, ClassRecord]:
    """Every entry's record by :func:`_key`: an earlier run's when it still holds (unless FORCE),
    else graded now, JOBS at a time, the kit's failures graded again alone at the end. Ctrl-C (or
    SIGTERM, SIGHUP) stops the run as :func:`_stop` says, then rises as KeyboardInterrupt."""
    kit = kit_fingerprint(edition)
    make_private_folder(out)
    records: dict[str, ClassRecord] = {}
    todo, earlier = [], {}
    for entry in entries:
        old = None if force else earlier_record(out, entry, edition)  # read once, whichever kit made it
        if old is not None and old.kit == kit:
            records[_key(entry)] = dataclasses.replace(old, reused=True)
            continue
        todo.append(entry)
        partial = partial_of(old, kit) if old is not None else None
        if partial is not None:
            earlier[_key(entry)] = partial
    _say_regrading(earlier.values(), notice)
    started = time.monotonic()

    def keep(entry: Entry, record: ClassRecord) -> None:
        records[_key(entry)] = _finish(out, entry, record, edition)
        if progress:
            progress(len(records), len(entries), started)

    retry: list[tuple[Entry, ClassRecord]] = []
    with _stop_signals():
        pool = ThreadPoolExecutor(jobs or class_jobs())
        futures: dict[Future, Entry] = {}
        handled: set[Future] = set()
        try:
            if progress:
                progress(len(records), len(entries), started)
            for entry in todo:
                futures[pool.submit(_attempt, entry, edition, limits, kit, courses_messages.kit_failed_row,
                                    earlier.pop(_key(entry), None))] = entry  # (the old record held no longer)
            for future in as_completed(futures):
                record = future.result()
                if record.status == EntryStatus.KIT_ERROR:
                    retry.append((futures[future], record))  # graded again below, alone, once the others are done
                else:
                    keep(futures[future], record)
                handled.add(future)
        except KeyboardInterrupt:
            _stop(pool, futures, handled, keep, notice)
            if notice:  # every record in OUT now, and how many of this run's were ended without one
                notice(courses_messages.class_stopped(len(records), len(entries) - len(records)))
            raise
        pool.shutdown()
        if retry and notice:
            notice(courses_messages.class_retrying(len(retry)))
        for entry, first in retry:  # alone: whatever load or race made the kit fail is over
            keep(entry, second_attempt(entry, edition, limits, kit, first))
    return records


def _stop(pool: ThreadPoolExecutor, futures: dict[Future, Entry], handled: set[Future],
          keep: Callable[[Entry, ClassRecord], None], notice: Notice | None) -> None:
    """The first Ctrl-C of a class grade: say so at once, start no other submission, kill the running
    submissions' children (graders.sandboxing.children.halt_children), keep what finished before (written
    atomically, the record last) and drop what was running: no record, so a rerun grades it. A
    second Ctrl-C stops at once (:func:`_at_once`)."""
    finished = [f for f in futures if f.done() and f not in handled]  # before any child is killed
    running = sum(1 for f in futures if f.running())
    line = courses_messages.class_stopping(running)
    if notice:
        notice(("\n" if sys.stderr.isatty() else "") + line)
    pool.shutdown(wait=False, cancel_futures=True)
    children.halt_children()
    try:
        for future in finished:
            record = future.result() if future.exception() is None else None
            if record is not None and record.status != EntryStatus.KIT_ERROR:
                keep(futures[future], record)
        # each running one ends as its children did (its record is dropped); a cancelled one never
        # counts as done for wait()
        wait([f for f in futures if not f.cancelled()])
    finally:
        children.resume_children()


STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def _stop_signals() -> Iterator[None]:
    """While a class is graded: SIGTERM and SIGHUP (a job's time limit, a closed terminal) stop it as
    Ctrl-C does, and a second of any of them stops at once, until the process ends (the handlers
    are put back only when none came). Only the main thread can set handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    seen: list[int] = []

    def stopped(signum: int, frame: object) -> None:
        if seen:
            _at_once()
        seen.append(signum)
        raise KeyboardInterrupt(signum)

    before = {number: signal.signal(number, stopped) for number in (signal.SIGINT, *STOP_SIGNALS)}
    try:
        yield
    finally:
        for number, handler in before.items() if not seen else ():
            signal.signal(number, handler)


def _at_once() -> NoReturn:
    """The second interrupt: every child killed, the kit's scratch folders deleted (os._exit runs no
    atexit), and the process ends here (status 130). Whatever was written is whole (every write is
    atomic); a rerun grades whatever has no record."""
    children.halt_children()
    scratch.remove_all()
    print(courses_messages.interrupted_notice("hogkit", sys.stderr.isatty()), file=sys.stderr, flush=True)
    os._exit(130)


def _say_regrading(earlier: Iterable[tuple[ClassRecord, set[str]]], notice: Notice | None) -> None:
    """Tell, per set of problems whose cases changed, how many submissions have them graded again."""
    counts: dict[tuple[str, ...], int] = {}
    for record, changed in earlier:
        if record.report is not None and changed:
            key = tuple(sorted(changed))
            counts[key] = counts.get(key, 0) + 1
    for labels, count in sorted(counts.items()):
        if notice:
            notice(courses_messages.class_regrading(list(labels), count))


def _key(entry: Entry) -> str:
    return entry.student + "\0" + str(entry.path)


def _attempt(entry: Entry, edition: Edition, limits: Limits, kit: str,
             worded: Callable[[str], str] = courses_messages.kit_failed_row,
             earlier: tuple[ClassRecord, set[str]] | None = None) -> ClassRecord:
    """:func:`record_for`, with a worker that died (whatever escaped it) turned into a kit error."""
    try:
        return record_for(entry, edition, limits, kit, worded, earlier)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # even SystemExit: one worker's end must not end the batch
        return kit_error_record(_base(entry, edition, kit), exc, traceback.format_exc(), worded)


def _finish(out: Path, entry: Entry, record: ClassRecord, edition: Edition) -> ClassRecord:
    """Write the student's files (not for a shared id: neither may overwrite the other) and keep the
    record as written (lean, as a rerun reads it back, its passing cases one object for the whole
    class); a record whose files cannot be rendered or written becomes a kit error, kept in memory
    only, so a rerun regrades it."""
    if entry.status == "duplicate":
        return record
    try:
        return ClassRecord.from_dict(write_student(out, record))  # kept as a rerun reads it: passing cases shared
    except Exception as exc:  # a disk that refuses, a record that cannot be rendered: that entry's row alone
        return kit_error_record(_base(entry, edition, record.kit), exc, traceback.format_exc())


def kit_errors(records: list[ClassRecord]) -> list[ClassRecord]:
    return [r for r in records if r.status == EntryStatus.KIT_ERROR]


def kit_log_records(records: list[ClassRecord]) -> list[ClassRecord]:
    """What kit-errors.log lists: the kit's failures, and the rows it graded only on a second attempt."""
    return [r for r in records if r.status == EntryStatus.KIT_ERROR or r.first_failure]


def write_class_files(out: Path, records: list[ClassRecord], edition: Edition, grades: str = "grades.csv") -> None:
    write_atomically(out / grades, reports.render_grades_csv(records, edition))
    write_atomically(out / "records.jsonl", "".join(json.dumps(reports.summary_record(r)) + "\n" for r in records))
    write_atomically(out / "summary.md", reports.render_class_summary(records, edition))
    from graders.games import pictures

    totals = [r.total for r in records if r.graded]
    for fmt in pictures.FORMATS:  # the PNG for summary.md and anything else; the SVG to zoom into
        picture = pictures.score_histogram(courses_messages.histogram_title(len(totals)), totals, edition.max_points,
                                           fmt)
        write_atomically(out / f"histogram.{fmt}", picture)
    failed = kit_log_records(records)
    if failed:
        write_atomically(out / KIT_LOG, reports.render_kit_log(failed))
    else:
        (out / KIT_LOG).unlink(missing_ok=True)  # from an earlier run whose failures are now regraded


# -- a course: hand-ins, then each student's grade under its policy ------------------------------------


def course_handins(root: Path, entries: list[Entry], setup: Setup, trust_file_times: bool = False
                   ) -> tuple[tuple[Handin, ...], tuple[str, ...]]:
    """Each entry of ROOT as a hand-in (its time and submitters) and the notes reading them gave:
    from the export's metadata when ROOT is a Gradescope export, else from ``times.csv`` or file
    times. An entry the export does not list is a hand-in with its file time (and a note). A file's
    time can be forged: a hand-in that can be graded with no other time is refused (InputError naming
    them) unless TRUST_FILE_TIMES, and then noted."""
    zone = setup.course.zone
    notes: tuple[str, ...] = ()
    if not (root / EXPORT_METADATA).is_file():
        handins, notes = class_handins(root, [(e.student, e.path) for e in entries], zone), ()
    else:
        export = read_export(root, zone)
        listed = {h.key for h in export.handins}
        strays = [(e.student, e.path) for e in entries if e.student not in listed]
        notes = tuple(export.notes) + tuple(courses_messages.export_unlisted(name) for name, _ in strays)
        handins = export.handins + class_handins(root, strays, zone)
    gradable = {e.student for e in entries if e.source is not None}  # one that cannot be graded counts no time
    from_files = [shown_text(h.key) for h in handins if h.how == FILE_TIME and h.key in gradable]
    if from_files and not trust_file_times:
        raise InputError(courses_messages.course_file_times_refused(from_files))
    return handins, notes + ((courses_messages.course_file_times_trusted(from_files),) if from_files else ())


def write_course_files(out: Path, setup: Setup, edition: Edition, handins: Sequence[Handin],
                       records: Mapping[str, ClassRecord], notes: Sequence[str] = (), notice: Notice | None = None
                       ) -> tuple[Outcome, ...]:
    """Apply SETUP's policy to each student's hand-ins (RECORDS by hand-in key, each graded once) and
    write ``grades.csv`` (one row per student), ``gradescope-scores.csv``, ``canvas-scores.csv``,
    each student's ``feedback/ID.md`` and, when there are any, ``course-notes.txt``."""
    course = edition_course(setup.course, edition)
    phase = edition.checkpoint.phase if edition.checkpoint else 1
    phase_one = phase_one_labels([(p.label, p.phase, p.points) for p in edition.problems], phase)
    graded = {k: r for k, record in records.items()
              if (r := record_result(record.to_dict(cases="none"), phase_one)) is not None}  # as JSON, as Gradescope
    groups = group_attempts(handins, graded, setup.roster, course.partners)
    from_files = {h.key for h in handins if h.how == FILE_TIME and h.key in graded}  # only with --trust-file-times
    outcomes, unused = grade_course(course, [(g.student, g.attempts) for g in groups], setup.overrides)
    reasons: dict[str, str] = {}
    withheld: set[str] = set()
    for group, outcome in zip(groups, outcomes, strict=True):
        mine = [(k, str(records[k].status), records[k].reason) for k in group.handins if k in records]
        reasons[group.student.id], held = gradebook.student_reason(outcome, mine)
        if any(h in from_files for h in group.handins):  # a time that can be forged is said to be one
            reasons[group.student.id] = " ".join(filter(None, [reasons[group.student.id],
                                                               courses_messages.TIMES_FROM_FILES]))
        withheld.update([group.student.id] if held else [])
        counted = records.get(outcome.counted.key) if outcome.counted else None
        text = gradebook.render_student_feedback(outcome, edition.title, course.zone,
                                                 reports.render_record_markdown(counted) if counted else "",
                                                 reasons[group.student.id], held, edition.max_points)
        if any(h in from_files for h in group.handins) and not held:
            text += f"\n{courses_messages.TIMES_FROM_FILES}\n"
        student = shown_text(group.student.id)
        write_atomically(out / "feedback" / f"{file_id(student, group.student.id)}.md", text)
    shared = {g.student.id: g.shared_with for g in groups}
    labels = [p.label for p in edition.problems]
    write_atomically(out / "grades.csv", gradebook.render_course_grades(outcomes, labels, course.zone, shared,
                                                                        reasons, withheld, edition.max_points))
    write_atomically(out / GRADESCOPE_SCORES, gradebook.render_gradescope_scores(outcomes, withheld))
    write_atomically(out / CANVAS_SCORES, gradebook.render_canvas_scores(outcomes, edition.title, "", withheld))
    said = course_notes(outcomes, COURSE_FILE, [*notes, *unused])  # the file's name: the same wherever it is
    if said:
        write_atomically(out / COURSE_NOTES, "".join(f"{line}\n" for line in said))
    else:
        (out / COURSE_NOTES).unlink(missing_ok=True)
    if notice is not None:
        for line in said:
            notice(line)
    return outcomes


def course_notes(outcomes: Sequence[Outcome], where: str, notes: Sequence[str]) -> list[str]:
    """What the instructor reads in ``course-notes.txt`` and on the console, first what matters most:
    each rule of the course file (WHERE) that took points from a quarter of the class or more, with
    its count; then NOTES, each later, worse hand-in that counted, and the students off the roster."""
    costly = [courses_messages.course_policy_cost(where, c.rule, c.students, c.of, messages.points_text(c.points))
              for c in policy_costs(outcomes)]
    lower = [courses_messages.course_note(shown_text(o.student.id), a.note) for o in outcomes for a in o.adjustments
             if a.kind == LOWER and a.note]
    strangers = [o.student.id for o in outcomes if not o.student.on_roster and not o.student.email]
    return [*costly, *notes, *lower, *([courses_messages.course_off_roster(strangers)] if strangers else [])]


def print_progress(done: int, total: int, started: float, what: str = "") -> None:
    """A progress bar, saying what it counts (WHAT, submissions by default), with an estimate of the
    time left, on standard error."""
    elapsed = time.monotonic() - started
    rate = elapsed / done if done else 0.0
    left = rate * (total - done)
    eta = time.strftime("%M:%S", time.gmtime(left)) if done else "--:--"
    line = courses_messages.class_progress(done, total, eta, what or courses_messages.COUNT_SUBMISSIONS)
    if sys.stderr.isatty():
        print("\r" + line, end="" if done < total else "\n", file=sys.stderr, flush=True)
    elif done == total or done % max(1, total // 10) == 0:
        print(line, file=sys.stderr, flush=True)
