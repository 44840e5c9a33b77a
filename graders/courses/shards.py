"""Shards: a class split across machines, each grading its own share.

Contract: ``--shard K/N`` (:func:`parse_shard`, 1 <= K <= N) selects the entries whose id hashes to
K (:func:`shard_of`: SHA-256 of the id, modulo N, plus one). Every entry is in exactly one shard, and
an entry's shard depends on its own id and N only, never on the other entries: a student added late
moves nobody, so a shard rerun after the class grew resumes every record it already had. (Sorted
order cut into N runs would balance the shares exactly, but one new name shifts every later entry
into another shard, whose output folder has no record of it.) Two entries with the same id (a
``duplicate``) share their shard.

A shard's output folder holds, beside what grading writes, ``shard.json`` (:class:`Manifest`): which
shard of how many, of which class (:func:`class_identity`: a digest of the sorted ids, the edition
and the kit), where the class folder and the course were (and how the class folder was typed), and
the ids it graded. Neither where the class folder sits nor how it was typed is part of the class's
identity or of an entry's (:attr:`graders.scoring.submissions.Entry.digest`). It is written last,
when every record of the share is on disk, so a shard that was stopped has none and cannot be merged.
This module reads and writes that file and nothing else; :mod:`graders.courses.merging` combines shards.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from graders.core import messages
from graders.core.errors import InputError
from graders.core.storage import write_atomically
from graders.courses import messages as courses_messages
from graders.scoring.submissions import Entry

SHARD_FILE = "shard.json"
MANIFEST_VERSION = 1


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based: K of K/N
    count: int  # N

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


@dataclass(frozen=True)
class Manifest:
    """What a shard's output folder says of itself (``shard.json``)."""

    shard: Shard
    identity: str  # :func:`class_identity` of the whole class the shard is part of
    edition: str
    kit: str
    folder: str  # the class folder as the shard read it (absolute)
    typed: str  # the class folder as it was given (the merge names each entry's path from shard 1/N's)
    course: str  # the course folder (absolute), "" without one
    trust_file_times: bool
    students: tuple[str, ...]  # the ids of this shard's entries, in order

    def to_dict(self) -> dict[str, object]:
        return {"version": MANIFEST_VERSION, "shard": self.shard.index, "of": self.shard.count,
                "class": self.identity, "edition": self.edition, "kit": self.kit, "folder": self.folder,
                "typed": self.typed,
                "course": self.course, "trust_file_times": self.trust_file_times, "students": list(self.students)}


def parse_shard(text: str) -> Shard:
    """``K/N`` with whole numbers 1 <= K <= N, for argparse (``--shard``)."""
    index, slash, count = text.strip().partition("/")
    try:
        shard = Shard(int(index), int(count))
    except ValueError:
        raise argparse.ArgumentTypeError(courses_messages.shard_expected(text)) from None
    if not slash or shard.count < 1 or not 1 <= shard.index <= shard.count:
        raise argparse.ArgumentTypeError(courses_messages.shard_expected(text))
    return shard


def shard_of(student: str, count: int) -> int:
    """The shard (1 to COUNT) the entry with id STUDENT belongs to, whatever else the class holds."""
    number = int.from_bytes(hashlib.sha256(student.encode("utf-8", "surrogatepass")).digest()[:8], "big")
    return number % count + 1


def select(entries: Sequence[Entry], shard: Shard) -> list[Entry]:
    return [e for e in entries if shard_of(e.student, shard.count) == shard.index]


def class_identity(entries: Sequence[Entry], edition: str, kit: str) -> str:
    """What identifies a class as shards see it: its sorted entry ids and paths, the edition, the kit."""
    listing = sorted(f"{e.student}\0{e.path.name}" for e in entries)
    text = json.dumps({"entries": listing, "edition": edition, "kit": kit}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def check_outside(folder: Path, out: Path) -> None:
    """Refuse a shard's OUT inside the class FOLDER: the other shards, reading FOLDER while it is
    being written, would each see another class."""
    inside = out.resolve() == folder.resolve() or folder.resolve() in out.resolve().parents
    if inside:
        raise InputError(courses_messages.shard_out_inside_class(str(out), str(folder)))


def write_manifest(out: Path, manifest: Manifest) -> None:
    write_atomically(out / SHARD_FILE, json.dumps(manifest.to_dict(), indent=1) + "\n")


def read_manifest(out: Path) -> Manifest:
    """OUT's ``shard.json``; InputError when OUT is no finished shard's output."""
    path = out / SHARD_FILE
    if not out.is_dir():
        raise InputError(messages.no_such_path(str(out)))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != MANIFEST_VERSION:
            raise ValueError(data.get("version"))
        return Manifest(Shard(int(data["shard"]), int(data["of"])), str(data["class"]), str(data["edition"]),
                        str(data["kit"]), str(data["folder"]), str(data["typed"]), str(data["course"]),
                        bool(data["trust_file_times"]), tuple(str(s) for s in data["students"]))
    except FileNotFoundError:
        raise InputError(courses_messages.not_a_shard(str(out), SHARD_FILE)) from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise InputError(courses_messages.bad_shard_file(str(path))) from None
