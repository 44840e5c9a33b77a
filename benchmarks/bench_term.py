"""Benchmark: a whole term, graded as a course grades it, then again after a case and a date change.

    python3 benchmarks/bench_term.py [--count N] [--jobs J] [--edition NAME]

Builds a class of N hand-ins (default 1,500) from the mix bench_class.py makes (finished, partly
finished, skeletons, an endless loop and a memory hog in every fifty) plus one broken entry in fifty
(not Python), each with a hand-in time in ``times.csv``, some late, and a course folder (due date,
late rule, roster), in a temporary copy of the kit. Then three runs of ``hogkit grade CLASS --out OUT
--course DIR`` in this process (grades, feedback, similarity, course files, exports):

1. the full term, from nothing;
2. after one public case of Problem 02 changed (a rerun grades Problem 02 alone);
3. after the due date moved a day (a rerun grades nothing: the course's outputs from the records).

For each: wall time, and the grader's peak resident memory (its own, beside its children) and the
outputs' size at the end. Targets on 2 cores: the term <= 10 minutes, the one-case regrade <= 10% of
it, the policy change <= 15 s, the grader's peak <= 1 GiB. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import shutil
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_class import build_class  # noqa: E402
from graders.cli import main as hogkit  # noqa: E402
from graders.courses.classroom import class_jobs  # noqa: E402
from graders.editions.edition import load_edition  # noqa: E402
from graders.sandboxing import isolation  # noqa: E402

DUE = datetime(2024, 2, 7, 23, 59)
COURSE = """timezone = "America/Los_Angeles"
edition = "{edition}"

[deadlines]
due = {due}

[late]
policy = "per_day"
per_day = 10
unit = "percent"
cap = 30
"""


def kit_copy(tmp: Path, edition: str) -> Path:
    """A copy of the kit's data (its engine linked, not copied) whose cases the benchmark may change."""
    copy = tmp / "kit"
    shutil.copytree(ROOT / "tests" / "editions", copy / "tests" / "editions")
    for top in ("solution", "skeleton"):
        shutil.copytree(ROOT / top, copy / top, symlinks=True)
    (copy / "graders").symlink_to(ROOT / "graders")
    return copy


def make_term(folder: Path, course: Path, edition_name: str, count: int) -> dict[str, int]:
    kinds = build_class(folder, load_edition(edition_name), count)
    rows, roster = ["entry,time,student"], ["id,name,email,extension days,accommodation,partner"]
    for k in range(count):
        name = f"student{k:04d}"
        if k % 50 == 29:  # one in fifty broken: not Python at all
            (folder / f"{name}.py").write_bytes(b"\x7fELF\x00\x01 not python")
            kinds["broken"] = kinds.get("broken", 0) + 1
        late = timedelta(hours=30) if k % 10 == 3 else -timedelta(hours=k % 48)
        rows.append(f"{name},{(DUE + late).strftime('%Y-%m-%d %H:%M:%S')},{name}")
        roster.append(f"{name},Student {k},{name}@uni.edu,,,")
    (folder / "times.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    course.mkdir()
    (course / "course.toml").write_text(COURSE.format(edition=edition_name, due=DUE.isoformat()), encoding="utf-8")
    (course / "roster.csv").write_text("\n".join(roster) + "\n", encoding="utf-8")
    return kinds


def timed_run(folder: Path, out: Path, course: Path, jobs: int) -> tuple[float, str]:
    said = io.StringIO()
    started = time.monotonic()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        status = hogkit(["grade", str(folder), "--out", str(out), "--course", str(course), "--jobs", str(jobs)])
    elapsed = time.monotonic() - started
    if status != 0:
        sys.exit(f"hogkit grade exited {status}:\n{said.getvalue()[-2000:]}")
    return elapsed, said.getvalue()


def size_of(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def report(what: str, seconds: float, out: Path, said: str) -> None:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    lines = [line for line in said.splitlines() if "regrading" in line or "kept" in line.lower()]
    print(f"{what}: {seconds:.1f} s; grader's peak {peak:.0f} MiB; outputs {size_of(out) / 2**20:.1f} MiB")
    for line in lines[:3]:
        print(f"    {line.strip()[:160]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1500)
    parser.add_argument("--jobs", type=int, default=class_jobs(), help="default: the kit's own (class_jobs)")
    parser.add_argument("--edition", default="boar_brawl")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        os.environ["HOGKIT_ROOT"] = str(kit_copy(tmp, args.edition))
        folder, course, out = tmp / "class", tmp / "course", tmp / "out"
        folder.mkdir()
        kinds = make_term(folder, course, args.edition, args.count)
        print(f"machine: {os.cpu_count()} cores; jobs {args.jobs}; {isolation.policy().summary[:120]}")
        print("term: " + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())))
        full, said = timed_run(folder, out, course, args.jobs)
        report(f"full term, {args.count} hand-ins ({full / args.count:.3f} s each)", full, out, said)
        cases = Path(os.environ["HOGKIT_ROOT"]) / "tests" / "editions" / args.edition / "q02.toml"
        cases.write_text(cases.read_text(encoding="utf-8") + "\n[[case]]\nname = \"one more\"\n"
                         "transcript = '''\n>>> 1 + 1\n2\n'''\n", encoding="utf-8")
        one_case, said = timed_run(folder, out, course, args.jobs)
        report(f"one case of Problem 02 changed ({100 * one_case / full:.0f}% of the term)", one_case, out, said)
        toml = course / "course.toml"
        moved = (DUE + timedelta(days=1)).isoformat()
        toml.write_text(toml.read_text(encoding="utf-8").replace(DUE.isoformat(), moved), encoding="utf-8")
        policy, said = timed_run(folder, out, course, args.jobs)
        report("the due date moved a day", policy, out, said)
    print("targets (2 cores): term <= 600 s; one-case regrade <= 10% of it; policy change <= 15 s; "
          "grader's peak <= 1024 MiB")


if __name__ == "__main__":
    main()
