"""Activity: the student's log of unlock attempts and test runs, written by the runner, read by TAs.

Contract. Writing (student side; Python 3.9, standard library only): :func:`unlock_attempt` and
:func:`test_runs` append lines to ``.hogkit/activity.jsonl`` in the project folder, one JSON object
per line:

    {"v": 1, "kind": "unlock", "at": "2024-02-01T18:20:11Z", "problem": "01", "question": "<id>",
     "prompt": 0, "wrong": ["8", "9"], "tries": 3, "unlocked": true, "prev": "<hex>", "hash": "<hex>"}
    {"v": 1, "kind": "test", "at": "...", "problem": "01", "passed": false, "cases_passed": 3,
     "cases": 5, "prev": "<hex>", "hash": "<hex>"}

(a test line of ``python3 ok --score`` also holds ``"score": true``.)

``hash`` is the SHA-256 of ``prev``, a newline and the line's other fields as canonical JSON;
``prev`` is the previous line's ``hash`` (64 zeros for the first): a hash chain, so a line edited,
removed or moved by hand shows. It is a check against accidents and casual edits, not against
someone who recomputes the chain with this very code; which is why the log never feeds a score.
Writing never stops the runner: a folder that cannot be written, a full disk or a damaged log
is ignored, and the log stops growing past :data:`MOST_BYTES`. :func:`pack_submission` writes the
zip a student hands in (``python3 ok --zip``): the submission file and the log as
``hogkit-activity.jsonl`` beside it.

Reading (instructor side): :func:`read_activity` finds the log of a hand-in (a project folder, a
``hog.py`` with the log beside it as Gradescope keeps it, or a zip) and returns an
:class:`Activity`: its unlock and test events, and notes when it is missing, damaged or tampered
with, and its ``chain`` of hashes (a log handed in twice, or an older copy of it, ends inside
it). The first line of a log holds a random ``log`` id, so no two students' chains start alike.
It never raises on what it reads, follows no link, and keeps only the lines before the first
break in the chain.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import secrets
import stat
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from graders.core import messages
from graders.runner import messages as runner_messages
from graders.scoring.submissions import read_file, walk_files

LOG = Path(".hogkit") / "activity.jsonl"
HANDIN_NAME = "hogkit-activity.jsonl"
VERSION = 1
START = "0" * 64
MOST_BYTES = 4 * 1024 * 1024
MOST_ZIP_BYTES = 64 * 1024 * 1024  # a hand-in zip bigger than this is no homework
MOST_TEXT = 200  # characters kept of one wrong answer
MOST_WRONG = 20  # wrong answers kept for one prompt
MOST_COUNT = 1_000_000  # what a count read from a log may be (tries, cases): a forged 10**400 holds no float


def _count(value: int) -> int:
    """A count read from a log, clamped to 0 .. MOST_COUNT: the log is the student's, its numbers too."""
    return min(max(value, 0), MOST_COUNT)


# -- writing -----------------------------------------------------------------------------------------


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _digest(prev: str, body: dict) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((prev + "\n" + text).encode("utf-8")).hexdigest()


def _last_hash(path: Path) -> str:
    """The chain's end: the last line's hash (of the raw line when it is damaged); START for none."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 65536))
            tail = f.read().decode("utf-8", "replace").rstrip("\n").split("\n")[-1]
    except OSError:
        return START
    if not tail.strip():
        return START
    try:
        found = json.loads(tail).get("hash")
    except (ValueError, AttributeError):
        found = None
    return found if isinstance(found, str) else hashlib.sha256(tail.encode("utf-8")).hexdigest()


def _append(folder: Path, fields: dict) -> None:
    path = folder / LOG
    path.parent.mkdir(exist_ok=True)
    if path.exists() and path.stat().st_size > MOST_BYTES:
        return
    body = {"v": VERSION, "at": _now(), **fields, "prev": _last_hash(path)}
    if body["prev"] == START:  # a log of its own: two students' first lines never hash alike
        body["log"] = secrets.token_hex(8)
    body["hash"] = _digest(body["prev"], {k: v for k, v in body.items() if k != "hash"})
    line = (json.dumps(body, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")
    fd = os.open(str(path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)  # one write: a line is whole or absent
    finally:
        os.close(fd)


def record(folder: Path, fields: dict) -> None:
    """Append FIELDS as one line of FOLDER's log; whatever goes wrong is ignored, never the student's."""
    try:
        _append(Path(folder), fields)
    except Exception:  # a read-only folder, a full disk, a strange file: the runner goes on regardless
        pass


def unlock_attempt(folder: Path, problem: str, question: str, prompt: int, wrong: list[str], tries: int,
                   unlocked: bool) -> None:
    """A prompt of an unlock question was answered right (UNLOCKED) or given up on, after TRIES
    answers, WRONG being the wrong ones in order."""
    kept = [str(w)[:MOST_TEXT] for w in wrong[:MOST_WRONG]]
    record(folder, {"kind": "unlock", "problem": problem, "question": question, "prompt": prompt, "wrong": kept,
                    "tries": tries, "unlocked": unlocked})


def test_runs(folder: Path, results: list[tuple[str, bool, int, int]], score: bool = False) -> None:
    """Each problem's tests ran: (problem, passed, cases passed, cases); SCORE when the run was
    ``python3 ok --score`` (every problem at once, to see the score, not a try at one problem)."""
    for problem, passed, cases_passed, cases in results:
        body = {"kind": "test", "problem": problem, "passed": passed, "cases_passed": cases_passed, "cases": cases}
        record(folder, {**body, "score": True} if score else body)


def pack_submission(folder: Path, filename: str, source: str | None = None,
                    extra: dict[str, bytes] | None = None) -> tuple[Path, bool]:
    """Write FOLDER/<stem>_submission.zip holding FILENAME (SOURCE as its text when given, else the
    file itself), the files of EXTRA (``{name: bytes}``) and the log (as HANDIN_NAME); the zip's path
    and whether the log was in it. FileNotFoundError when there is no FILENAME and no SOURCE."""
    path = folder / filename
    if source is None and not path.is_file():
        raise FileNotFoundError(str(path))
    out = folder / f"{Path(filename).stem}_submission.zip"
    log = folder / LOG
    with_log = log.is_file() and not log.is_symlink()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        if source is None:
            archive.write(path, filename)
        else:
            archive.writestr(filename, source.encode("utf-8"))
        for name, data in sorted((extra or {}).items()):
            archive.writestr(name, data)
        if with_log:
            archive.write(log, HANDIN_NAME)
    out.write_bytes(buffer.getvalue())
    return out, with_log


# -- reading ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnlockEvent:
    at: str
    problem: str
    question: str
    prompt: int
    wrong: tuple[str, ...]
    tries: int
    unlocked: bool


@dataclass(frozen=True)
class TestEvent:
    at: str
    problem: str
    passed: bool
    cases_passed: int
    cases: int
    score: bool = False  # a run of ``ok --score``: every problem at once, not a try at this one


@dataclass(frozen=True)
class Activity:
    where: str
    status: str  # ok, missing, tampered, unreadable
    unlocks: tuple[UnlockEvent, ...] = ()
    tests: tuple[TestEvent, ...] = ()
    notes: tuple[str, ...] = ()
    chain: tuple[str, ...] = ()  # each kept line's hash: a copy of this log (handed in twice) ends inside it


def _event(body: dict) -> UnlockEvent | TestEvent | None:
    """The event a chained line holds, or None when its fields are not what the runner writes."""
    text = (str,)
    if body.get("kind") == "unlock":
        wrong: Any = body.get("wrong")
        ok = (isinstance(body.get("problem"), text) and isinstance(body.get("question"), text)
              and type(body.get("prompt")) is int and type(body.get("tries")) is int
              and isinstance(body.get("unlocked"), bool) and isinstance(wrong, list)
              and all(isinstance(w, str) for w in wrong))
        return UnlockEvent(str(body.get("at", ""))[:40], body["problem"][:10], body["question"][:200],
                           _count(body["prompt"]), tuple(w[:MOST_TEXT] for w in wrong[:MOST_WRONG]),
                           _count(body["tries"]), body["unlocked"]) if ok else None
    if body.get("kind") == "test":
        ok = (isinstance(body.get("problem"), text) and isinstance(body.get("passed"), bool)
              and type(body.get("cases_passed")) is int and type(body.get("cases")) is int)
        return TestEvent(str(body.get("at", ""))[:40], body["problem"][:10], body["passed"],
                         _count(body["cases_passed"]), _count(body["cases"]), body.get("score") is True) if ok else None
    return None


def parse_log(text: str, where: str) -> Activity:
    """The events of a log's TEXT up to the first line that breaks the chain."""
    unlocks: list[UnlockEvent] = []
    tests: list[TestEvent] = []
    notes: list[str] = []
    prev = START
    status = "ok"
    skipped = 0
    chain: list[str] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            body = json.loads(line)
        except ValueError:
            body = None
        if not (isinstance(body, dict) and body.get("prev") == prev and isinstance(body.get("hash"), str)
                and _digest(prev, {k: v for k, v in body.items() if k != "hash"}) == body["hash"]):
            status = "tampered"
            notes.append(runner_messages.activity_tampered(where, number))
            break
        prev = body["hash"]
        chain.append(prev)
        event = _event(body)
        if isinstance(event, UnlockEvent):
            unlocks.append(event)
        elif isinstance(event, TestEvent):
            tests.append(event)
        else:
            skipped += 1
    if skipped:
        notes.append(runner_messages.activity_entries_skipped(where, skipped))
    return Activity(where, status, tuple(unlocks), tuple(tests), tuple(notes), tuple(chain))


def read_activity(path: Path, filename: str = "hog.py") -> Activity:
    """The log handed in with PATH: a folder (its ``.hogkit/activity.jsonl``, else a
    ``hogkit-activity.jsonl`` at any depth), a FILENAME file (the log beside it) or a zip (either
    name inside). Missing, unreadable or tampered logs come back as notes, never as errors."""
    where = messages.printable(str(path))
    try:
        data = _log_bytes(Path(path), filename)
        if data is None:
            return Activity(where, "missing", notes=(runner_messages.activity_missing(where),))
        if len(data) > MOST_BYTES:
            return Activity(where, "unreadable", notes=(runner_messages.activity_unreadable(where, "too large"),))
        return parse_log(data.decode("utf-8", "replace"), where)
    except Exception as exc:  # whatever a hand-in holds, the report goes on
        return Activity(where, "unreadable", notes=(runner_messages.activity_unreadable(where, type(exc).__name__),))


def _log_bytes(path: Path, filename: str) -> bytes | None:
    if path.is_symlink():
        return None
    if path.is_dir():
        found = _find_in_folder(path)
        return _read_regular(found) if found else None
    if path.suffix == ".zip":
        return _read_from_zip(path)
    if path.name == filename:
        for candidate in (path.parent / LOG, path.parent / HANDIN_NAME):
            if candidate.is_file() and not candidate.is_symlink():
                return _read_regular(candidate)
    return None


def _is_log(relative: str) -> bool:
    return relative == HANDIN_NAME or relative.endswith("/" + HANDIN_NAME) or relative == LOG.as_posix() \
        or relative.endswith("/" + LOG.as_posix())


def _find_in_folder(folder: Path) -> Path | None:
    """The shallowest log in FOLDER (``.hogkit/activity.jsonl`` before ``hogkit-activity.jsonl``),
    walked without following links, iteratively and to a capped depth."""
    found = []
    for full in walk_files(folder, lambda d: d == ".hogkit" or not d.startswith((".", "__"))):
        relative = full.relative_to(folder).as_posix()
        if _is_log(relative):
            found.append((relative.count("/") - (".hogkit/" in "/" + relative), full.name != "activity.jsonl", full))
    return min(found)[2] if found else None


def _read_regular(path: Path, most: int = MOST_BYTES) -> bytes:
    """Up to MOST + 1 bytes of the regular file PATH, opened without following a link (an OSError
    for anything else), read as class folders' submissions are."""
    return read_file(path, most)


def _read_from_zip(path: Path) -> bytes | None:
    data = _read_regular(path, MOST_ZIP_BYTES)
    if len(data) > MOST_ZIP_BYTES:
        raise OSError(runner_messages.ZIP_TOO_LARGE)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = [m for m in archive.infolist() if not m.is_dir() and _is_log(m.filename)
                   and not stat.S_ISLNK(m.external_attr >> 16)]
        if not members:
            return None
        member = min(members, key=lambda m: (m.filename.count("/"), m.filename))
        if member.file_size > MOST_BYTES:
            return b"x" * (MOST_BYTES + 1)
        with archive.open(member) as f:
            return f.read(MOST_BYTES + 1)

