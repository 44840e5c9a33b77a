"""Odd hand-ins, made on demand: corrupt zips, folders nested past any walk's recursion, project
folders whose manifest is a link or cannot be read, forged activity logs, hand-ins built to cost the
grader's own analyses as much as they can. Shared by the attack tests
(tests/kit/courses/test_hostile_class.py, tests/kit/runner/test_hostile_runner.py,
tests/kit/courses/test_attack_bounded.py), the fuzz test (tests/kit/scoring/test_robustness.py) and
benchmarks/bench_bounded.py."""

from __future__ import annotations

import io
import json
import os
import random
import zipfile
from pathlib import Path

from graders.runner import activity

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


# -- a whole class of odd hand-ins, generated -------------------------------------------------------

ODD_NAME_PARTS = ["new\nline", "tab\there", "-rf", "--out", "%s%n", "\u202eexe.py", "caf\u00e9", "a b", "'quote",
                  "<b>html</b>", "=cmd|' /C calc'!A0", "..", "x" * 200, "\U0001f600", "back\\slash", "#hash"]


def _zip(path: Path, members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> None:
    with zipfile.ZipFile(path, "w", method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


def odd_zips(rng: random.Random, folder: Path, source: str) -> None:
    """Zips that cannot be read, or hold no submission, or hold it oddly."""
    corrupt_zip(folder / f"z-deflate-{rng.randrange(99)}.zip", source)
    corrupt_zip(folder / f"z-lzma-{rng.randrange(99)}.zip", source, zipfile.ZIP_LZMA)
    _zip(folder / "z-bzip.zip", {"hog.py": source.encode()}, zipfile.ZIP_BZIP2)
    data = (folder / "z-bzip.zip").read_bytes()
    cut = rng.randrange(len(data) // 3, len(data) - 30)
    (folder / "z-truncated.zip").write_bytes(data[:cut] + data[-22:])  # a directory pointing past the data
    (folder / "z-noise.zip").write_bytes(rng.randbytes(rng.randrange(1, 4096)))
    (folder / "z-empty.zip").write_bytes(b"")
    _zip(folder / "z-deep.zip", {"/".join(["d"] * 300) + "/hog.py": b"x = (((\n"})
    _zip(folder / "z-odd-bytes.zip", {"hog.py": rng.randbytes(2048)})
    _zip(folder / "z-nested.zip", {"inner.zip": (folder / "z-bzip.zip").read_bytes()})
    (folder / "z-bzip.zip").write_bytes(data[:40] + bytes(len(data) - 80) + data[-40:])


def odd_notebooks(rng: random.Random, folder: Path) -> None:
    """Notebooks that are not JSON, not notebooks, too deep to parse, or of the wrong shapes."""
    (folder / "n-noise.ipynb").write_bytes(rng.randbytes(rng.randrange(1, 2048)))
    (folder / "n-deep.ipynb").write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    (folder / "n-cells.ipynb").write_text(json.dumps({"cells": [{"cell_type": "code", "source": {"a": 1}}] * 3,
                                                      "nbformat": 4, "nbformat_minor": 5, "metadata": {}}))
    (folder / "n-number.ipynb").write_text(json.dumps({"nbformat": 10**rng.randrange(300, 400)}))
    (folder / "n-huge-int.ipynb").write_text('{"nbformat": ' + "9" * 5000 + "}", encoding="utf-8")


def odd_folders(rng: random.Random, folder: Path, source: str) -> None:
    """Folders nested past the recursion limit, with links in them, a FIFO for hog.py, a folder
    for hog.py, a manifest that is a link to /proc/self/mem, thousands of files."""
    deep_folder(folder / "f-deep", source=source)
    (folder / "f-loop").mkdir()
    (folder / "f-loop" / "again").symlink_to(folder / "f-loop")
    (folder / "f-loop" / "self").symlink_to("self")
    (folder / "f-fifo").mkdir()
    os.mkfifo(folder / "f-fifo" / "hog.py")
    (folder / "f-dir" / "hog.py").mkdir(parents=True)
    (folder / "f-mem" / "tests").mkdir(parents=True)
    (folder / "f-mem" / "hog.py").write_text(source, encoding="utf-8")
    (folder / "f-mem" / "tests" / "edition.json").symlink_to("/proc/self/mem")
    many = folder / "f-many"
    many.mkdir()
    for k in range(rng.randrange(3000, 4000)):
        (many / f"{k}.txt").write_bytes(b"")
    (folder / "loop.py").symlink_to(folder / "loop.py")


def odd_names(rng: random.Random, folder: Path) -> None:
    """Hand-ins whose names are hostile or odd (no ``$``: the contest's picture is another matter)."""
    for part in rng.sample(ODD_NAME_PARTS, 6):
        name = part.replace("/", "_")
        if name in ("..",):
            name = "dotdot" + name
        (folder / f"{name}.py").write_text("x = (((\n", encoding="utf-8")
    (folder / os.fsdecode(b"bad\xff\xfe.py")).write_text("x = (((\n", encoding="utf-8")


def odd_logs(rng: random.Random, folder: Path, source: str) -> None:
    """Project folders whose activity log is forged, broken, binary, a link, or too large."""
    forged_log(project_folder(folder / "l-forged", source), 10**rng.randrange(300, 400))
    broken = project_folder(folder / "l-broken", "x = (((\n") / ".hogkit"
    broken.mkdir()
    (broken / "activity.jsonl").write_bytes(rng.randbytes(4096))
    linked = project_folder(folder / "l-link", "x = (((\n") / ".hogkit"
    linked.mkdir()
    (linked / "activity.jsonl").symlink_to("/proc/self/mem")
    large = project_folder(folder / "l-large", "x = (((\n") / ".hogkit"
    large.mkdir()
    (large / "activity.jsonl").write_text(chained_log([{"kind": "test", "problem": "01", "passed": False,
                                                         "cases_passed": -1, "cases": 2**70}] * 3)
                                          + '{"deep": ' + "[" * 100_000 + "]" * 100_000 + "}\n", encoding="utf-8")


def odd_class(folder: Path, source: str, seed: int) -> None:
    """FOLDER filled with odd hand-ins of every kind, chosen and shaped by SEED."""
    rng = random.Random(seed)
    folder.mkdir(exist_ok=True)
    odd_zips(rng, folder, source)
    odd_notebooks(rng, folder)
    odd_folders(rng, folder, source)
    odd_names(rng, folder)
    odd_logs(rng, folder, source)


def many_helpers(reference: str, size: int) -> str:
    """REFERENCE with one-line helpers after it up to SIZE bytes, each calling the next, the first
    called by boar_brawl: every one of them is reached by the rule on boar_brawl."""
    head = reference.replace("def boar_brawl(player_score, opponent_score):",
                             "def boar_brawl(player_score, opponent_score):\n    h0()", 1)
    parts, k, total = [head, "\n"], 0, len(head)
    while total < size:
        part = f"def h{k}():return h{k + 1}()\n"
        parts.append(part)
        total += len(part)
        k += 1
    parts.append(f"def h{k}():return 1\n")
    return "".join(parts)


def one_big_helper(reference: str, size: int) -> str:
    """REFERENCE with one helper of about SIZE bytes: calls, then as many assignments never read
    (dead code, which normalising takes out: once one by one, at a cost of n * n)."""
    lines, total, k = [], 0, 0
    while total < size // 2:
        lines.append(f"    g(n,{k})")
        total += len(lines[-1]) + 1
        k += 1
    lines += [f"    a{j}=n" for j in range(k)]
    return reference + "\n\ndef big_helper(n):\n" + "\n".join(lines) + "\n    return n\n"
