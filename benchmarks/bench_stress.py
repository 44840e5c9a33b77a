"""Stress: the reference graded as a whole class, many times over, counting rows that are not full marks.

    python3 benchmarks/bench_stress.py [--copies 40] [--runs 10] [--jobs 1 4 40] [--edition NAME]

Each run is a fresh process running ``hogkit grade CLASS --out OUT --force`` on COPIES copies of the
edition's reference (so every run starts with cold caches, as an instructor's would), at each
``--jobs`` value in turn. A row that is not ``graded`` with full marks is a failure of the kit (the
code is the reference), and is printed with its status and reason. The figures are printed, never
asserted; the suite's ``test_stress.py`` runs a smaller version of the same check.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graders.editions.edition import Edition, load_edition  # noqa: E402


def one_run(folder: Path, out: Path, edition: str, jobs: int) -> tuple[list[dict], int, float]:
    """(rows of grades.csv, exit status, seconds) of one class grading in a fresh process."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "graders.cli", "grade", str(folder), "--out", str(out),
                           "--edition", edition, "--jobs", str(jobs), "--force"],
                          cwd=ROOT, capture_output=True, text=True)
    seconds = time.monotonic() - started
    grades = out / "grades.csv"
    rows = list(csv.DictReader(grades.open(encoding="utf-8"))) if grades.is_file() else []
    return rows, done.returncode, seconds


def reference_class(edition: Edition, tmp: str, copies: int) -> Path:
    """A class folder in TMP holding COPIES copies of EDITION's reference, one per student."""
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    folder = Path(tmp) / "class"
    folder.mkdir()
    for k in range(copies):
        (folder / f"student{k:02d}.py").write_text(source, encoding="utf-8")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, default=40)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 4, 40])
    parser.add_argument("--edition", default="boar_brawl")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    with tempfile.TemporaryDirectory() as tmp:
        folder = reference_class(edition, tmp, args.copies)
        for jobs in args.jobs:
            bad: Counter = Counter()
            total_rows = 0
            times = []
            for run in range(args.runs):
                rows, status, seconds = one_run(folder, Path(tmp) / f"out-{jobs}-{run}", args.edition, jobs)
                times.append(seconds)
                total_rows += len(rows)
                for row in rows:
                    if row["status"] != "graded" or row["total"] != row["max"]:
                        bad[(row["status"], row["reason"][:120])] += 1
                        print(f"  jobs {jobs} run {run}: {row['student']} {row['status']} {row['total']}/"
                              f"{row['max']} {row['reason'][:120]}", flush=True)
                if len(rows) != args.copies or status != 0:
                    print(f"  jobs {jobs} run {run}: {len(rows)} rows, exit status {status}", flush=True)
            failures = sum(bad.values())
            print(f"jobs {jobs:>3}: {args.runs} runs, {total_rows} rows, {failures} not full marks, "
                  f"median run {sorted(times)[len(times) // 2]:.1f} s", flush=True)


if __name__ == "__main__":
    main()
