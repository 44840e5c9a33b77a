"""Merging shards: the outputs one machine would have written for the whole class.

Contract: :func:`merge` reads each shard folder's ``shard.json`` (:mod:`graders.courses.shards`) and refuses
(InputError, naming what is wrong and what to do) shards of different classes, counts, editions or
kits, a shard given twice, a shard missing, a kit other than the one merging, a class folder that is
not where the shards read it (unless given) or now lists other entries, and a record missing or made
for other code. It grades nothing: each entry's files (``records/ID.json.gz``, ``feedback/ID.md``,
``gradescope/ID/results.json``) are copied from its shard as they are, or written from its record
named as shard 1/N named the class folder when its shard named it otherwise (the same entries, the
class folder typed otherwise or elsewhere: an entry is matched by what is inside the class folder
alone), and the class's own files are then written from those records by the very code a single
run uses (:func:`graders.courses.classroom.finish_class`): the tables, the course's policy, and the
similarity report, computed across the whole class here and never per shard. Everything is written
into a private folder beside the output folder, which takes its place at the end with ``merge.json``
in it: a merge that fails or is stopped writes nothing. An output folder that is not empty is
refused unless it holds the same merge (same class, same number of shards), so a merge run again
writes the same files again.
"""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from graders.core.errors import InputError
from graders.core.records import RECORD_VERSION, ClassRecord
from graders.core.storage import make_private_folder, write_atomically
from graders.courses import messages as courses_messages
from graders.courses import shards
from graders.courses.classroom import (
    Progress,
    _base,
    _key,
    _outputs,
    check_class_folder,
    course_handins,
    finish_class,
    kit_fingerprint,
    read_record,
    write_student,
)
from graders.courses.handins import export_root, is_export
from graders.courses.roster import load_setup
from graders.editions.edition import Edition, load_edition
from graders.scoring.submissions import Entry, discover, located, shown_text

MERGE_FILE = "merge.json"


def merge(outs: Sequence[Path], out: Path, *, folder: Path | None = None, course_dir: Path | None = None,
          progress: Progress | None = None, notice: Callable[[str], None] | None = None) -> list[ClassRecord]:
    """Merge the shard folders OUTS into OUT; return every entry's record in student order. FOLDER
    and COURSE_DIR stand for the class and course folders the shards recorded (moved, or mounted
    elsewhere on this machine). Everything is checked before anything is written, and everything is
    written into a folder beside OUT that takes OUT's place at the end: a merge that fails writes nothing."""
    manifests = sorted(check_shards(outs), key=lambda m: m.manifest.shard.index)
    first = manifests[0].manifest
    edition = load_edition(first.edition)
    kit = kit_fingerprint(edition)
    if first.kit != kit:
        raise InputError(courses_messages.shard_other_kit(str(manifests[0].out)))
    course_path = course_dir or (Path(first.course) if first.course else None)
    course = load_setup(course_path, [p.label for p in edition.problems]) if course_path else None
    where = folder or Path(first.folder)
    if folder is None and not where.is_dir():  # graded on another machine, or the class moved since
        raise InputError(courses_messages.merge_class_elsewhere(first.folder))
    check_class_folder(where, edition, "merge")
    root = export_root(where) if course is not None and is_export(where) else where
    entries = discover(root, edition.submission, skip=out)
    if shards.class_identity(entries, edition.name, kit) != first.identity:
        raise InputError(courses_messages.shard_class_changed(str(where)))
    check_out(out, first)
    handins = course_handins(root, entries, course, first.trust_file_times) if course is not None else ((), ())
    by_index = {m.manifest.shard.index: m.out for m in manifests}
    shown = [located(e, Path(first.typed) / e.path.relative_to(where)) for e in entries]  # as shard 1 named them
    with staged(out) as work:
        records = gather(shown, by_index, first.shard.count, edition, kit, work, progress)
        ordered = finish_class(root, shown, records, edition, work, course, handins, notice)
        summary = {"version": 1, "class": first.identity, "of": first.shard.count,
                   "shards": [str(m.out.resolve()) for m in manifests]}
        write_atomically(work / MERGE_FILE, json.dumps(summary, indent=1) + "\n")
    return ordered


@contextmanager
def staged(out: Path) -> Iterator[Path]:
    """A new private folder beside OUT to write into; when the block ends, it takes OUT's place (OUT's
    earlier content, an empty folder or an earlier run of this same merge, removed). When the block
    fails, it is removed and OUT is as it was."""
    make_private_folder(out.parent)
    work = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}-merging-"))
    try:
        yield work
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    earlier = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}-earlier-"))
    if out.exists():
        os.rename(out, earlier / "out")
    os.rename(work, out)
    shutil.rmtree(earlier, ignore_errors=True)


class Found:
    """A shard folder and what its ``shard.json`` says."""

    def __init__(self, out: Path, manifest: shards.Manifest) -> None:
        self.out, self.manifest = out, manifest


def check_shards(outs: Sequence[Path]) -> list[Found]:
    """Each of OUTS read as a shard of one class, every shard of it there exactly once."""
    found = [Found(out, shards.read_manifest(out)) for out in outs]
    if not found:
        raise InputError(courses_messages.merge_nothing())
    first = found[0]
    for other in found[1:]:
        a, b = first.manifest, other.manifest
        if (a.identity, a.shard.count, a.edition, a.kit, bool(a.course), a.trust_file_times) != \
                (b.identity, b.shard.count, b.edition, b.kit, bool(b.course), b.trust_file_times):
            raise InputError(courses_messages.shard_mismatch(
                str(first.out), str(a.shard), str(other.out), str(b.shard)))
    seen: dict[int, Path] = {}
    for each in found:
        index = each.manifest.shard.index
        if index in seen:
            raise InputError(courses_messages.shard_twice(str(each.manifest.shard), str(seen[index]), str(each.out)))
        seen[index] = each.out
    count = first.manifest.shard.count
    missing = [f"{k}/{count}" for k in range(1, count + 1) if k not in seen]
    if missing:
        raise InputError(courses_messages.shards_missing(missing, count))
    return found


def check_out(out: Path, manifest: shards.Manifest) -> None:
    """Refuse an OUT that holds anything but an earlier run of this same merge (nothing is made here)."""
    if out.exists() and not out.is_dir():
        raise InputError(courses_messages.merge_out_not_empty(str(out)))
    if not out.is_dir() or not any(out.iterdir()):
        return
    try:
        earlier = json.loads((out / MERGE_FILE).read_text(encoding="utf-8"))
        same = earlier["class"] == manifest.identity and earlier["of"] == manifest.shard.count
    except (OSError, ValueError, KeyError, TypeError):
        same = False
    if not same:
        raise InputError(courses_messages.merge_out_not_empty(str(out)))


def gather(entries: list[Entry], by_index: dict[int, Path], count: int, edition: Edition, kit: str, out: Path,
           progress: Progress | None) -> dict[str, ClassRecord]:
    """Every entry's record by key, its files copied from its shard into OUT."""
    started = time.monotonic()
    records: dict[str, ClassRecord] = {}
    for done, entry in enumerate(entries, 1):
        if entry.status == "duplicate":  # never written by a shard: its record says only why
            records[_key(entry)] = _base(entry, edition, kit)
        else:
            records[_key(entry)] = copy_entry(entry, by_index, count, edition, kit, out)
        if progress:  # the bar decides how often it is drawn
            progress(done, len(entries), started, courses_messages.COUNT_MERGED)
    return records


def copy_entry(entry: Entry, by_index: dict[int, Path], count: int, edition: Edition, kit: str, out: Path
               ) -> ClassRecord:
    """ENTRY's record as its shard (of COUNT, folders BY_INDEX) wrote it, and its files in OUT: copied
    as they are, or, when the shard named the entry's path otherwise (its class folder elsewhere or
    typed otherwise), written from the record named as ENTRY is (:func:`relocated`), as a single run
    writes them. InputError, saying which shard to grade again, when the record is missing or was
    made of other code, by another kit or for another edition."""
    index = shards.shard_of(entry.student, count)
    sources = _outputs(by_index[index], entry.files_as)
    try:
        data = read_record(sources["record"])
        if not isinstance(data, dict) or data.get("version") != RECORD_VERSION:
            raise ValueError(data)
        record = ClassRecord.from_dict(data)
    except (OSError, ValueError, KeyError, TypeError):
        record = None
    if record is None or (record.digest, record.kit, record.edition) != (entry.digest, kit, edition.name):
        raise InputError(courses_messages.shard_record_missing(entry.student, f"{index}/{count}", str(by_index[index])))
    moved = relocated(record, entry)
    if moved != record:
        write_student(out, moved)
        return moved
    targets = _outputs(out, entry.files_as)
    for what, source in sources.items():
        if what != "record" and source.is_file():
            write_atomically(targets[what], source.read_bytes())
    write_atomically(targets["record"], sources["record"].read_bytes())  # last, as grading writes it
    return record


def relocated(record: ClassRecord, entry: Entry) -> ClassRecord:
    """RECORD with its entry's path, and every mention of it, named as ENTRY's path is."""
    before, after = record.path, shown_text(str(entry.path))
    if before == after:
        return record
    report = record.report
    if report is not None:
        report = dataclasses.replace(report, submission=str(entry.path),
                                     notes=tuple(n.replace(before, after) for n in report.notes))
    return dataclasses.replace(record, path=after, reason=record.reason.replace(before, after), report=report,
                               traceback=record.traceback.replace(before, after),
                               first_failure=record.first_failure.replace(before, after))
