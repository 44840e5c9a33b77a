"""Odd hand-ins, made on demand: corrupt zips, folders nested past any walk's recursion, project
folders whose manifest is a link or cannot be read, forged activity logs. Shared by the attack
tests (tests/kit/test_hostile.py) and the fuzz test (tests/kit/test_robustness.py)."""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

from graders import activity

DEEP = 1100  # folders nested one in another: past Python's default recursion limit of 1000


def corrupt_zip(path: Path, source: str, method: int = zipfile.ZIP_DEFLATED, name: str = "hog.py") -> Path:
    """A zip at PATH whose member NAME (SOURCE, compressed with METHOD) has its compressed stream
    overwritten with 0xff bytes: reading it raises the decompressor's own error (``zlib.error``,
    ``lzma.LZMAError``), not zipfile's."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        archive.writestr(name, source)
    data = bytearray(buffer.getvalue())
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).infolist()[0]
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    start += 9 if method == zipfile.ZIP_LZMA else 0  # past LZMA's properties, so the stream itself breaks
    data[start:start + info.compress_size - (9 if method == zipfile.ZIP_LZMA else 0)] = \
        b"\xff" * (info.compress_size - (9 if method == zipfile.ZIP_LZMA else 0))
    path.write_bytes(bytes(data))
    return path


def deep_folder(path: Path, depth: int = DEEP, source: str | None = None) -> Path:
    """PATH holding DEPTH folders one in another (each called ``d``), SOURCE as hog.py at the bottom
    when given; made level by level so that no path handed to the kernel grows with the depth."""
    path.mkdir()
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = inner
        if source is not None:
            out = os.open("hog.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
            os.write(out, source.encode("utf-8"))
            os.close(out)
    finally:
        os.close(fd)
    return path


def remove_deep(path: Path) -> None:
    """Remove a folder made by :func:`deep_folder`, a level at a time (shutil.rmtree recurses)."""
    import shutil

    if not path.is_dir():
        return
    while (path / "d").is_dir():
        spare = path / "spare"
        if (path / "d" / "d").is_dir():
            (path / "d" / "d").rename(spare)
        shutil.rmtree(path / "d")
        if spare.is_dir():
            spare.rename(path / "d")
    shutil.rmtree(path)


def project_folder(path: Path, source: str, edition: str | None = None) -> Path:
    """A student's project folder at PATH: hog.py and, when EDITION is given, the tests/edition.json
    that declares it."""
    (path / "tests").mkdir(parents=True)
    (path / "hog.py").write_text(source, encoding="utf-8")
    if edition is not None:
        (path / "tests" / "edition.json").write_text(json.dumps({"name": edition}), encoding="utf-8")
    return path


def chained_log(bodies: list[dict]) -> str:
    """An activity log holding BODIES as the runner would chain them (a valid hash chain), whatever
    their numbers."""
    lines, prev = [], activity.START
    for body in bodies:
        full = {"v": activity.VERSION, "at": "2024-02-01T18:20:11Z", **body, "prev": prev}
        full["hash"] = activity._digest(prev, full)
        prev = full["hash"]
        lines.append(json.dumps(full, sort_keys=True))
    return "\n".join(lines) + "\n"


def forged_log(folder: Path, tries: int = 10**400, problem: str = "01", question: str = "q", prompt: int = 0
               ) -> Path:
    """FOLDER/.hogkit/activity.jsonl with one unlock line (of PROMPT of QUESTION of PROBLEM) and one
    test line whose numbers are TRIES: chained as the runner writes, so that only the numbers are forged."""
    log = folder / ".hogkit" / "activity.jsonl"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(chained_log([
        {"kind": "unlock", "problem": problem, "question": question, "prompt": prompt, "wrong": ["8"],
         "tries": tries, "unlocked": True},
        {"kind": "test", "problem": problem, "passed": True, "cases_passed": tries, "cases": tries},
    ]), encoding="utf-8")
    return log
