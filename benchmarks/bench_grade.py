"""Benchmark: wall time of grading, including process start-up, as users run it.

    python3 benchmarks/bench_grade.py [--repeat N] [--edition NAME]

Reports, for the edition's reference solution:
  * a full ``hogkit grade`` (target: at most 1 s on a 2-core machine);
  * ``hogkit grade -q NN`` for every problem (target: at most 0.3 s for one problem);
  * a student's ``python3 ok -q 01`` in a copy of the skeleton holding the reference, unlocked.
Each figure is the median of N runs (min and max beside it). Timings are printed, never asserted:
these machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graders.editions import locking  # noqa: E402
from graders.editions.edition import load_edition  # noqa: E402
from graders.runner.student import load_student_edition, locked_records  # noqa: E402


def clock(argv: list[str], cwd: Path, repeat: int) -> tuple[float, float, float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr}")
    return statistics.median(times), min(times), max(times)


def unlock_everything(folder: Path) -> None:
    """Mark every locked prompt as answered, as a student who finished unlocking would have."""
    edition = load_student_edition(folder)
    progress = {"unlocked": [], "answers": {}}
    for p in edition.problems:
        for record in locked_records(edition, p.number):
            progress["unlocked"] += [locking.prompt_key(x) for x in locking.prompts_of(record)]
    locking.save_progress(folder, progress)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--edition", default="boar_brawl")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    hogkit = [sys.executable, "-m", "graders.cli"]
    reference = str(edition.solution_dir)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; median of {args.repeat} (min-max)")
    med, lo, hi = clock([*hogkit, "grade", reference, "--edition", edition.name], ROOT, args.repeat)
    print(f"full grade of the reference        {med:6.3f} s  ({lo:.3f}-{hi:.3f})   target <= 1.0 s")
    singles = []
    for p in edition.problems:
        med, lo, hi = clock([*hogkit, "grade", reference, "--edition", edition.name, "-q", p.label], ROOT, args.repeat)
        singles.append(med)
        print(f"  one problem: -q {p.label} {p.title[:22]:<22} {med:6.3f} s  ({lo:.3f}-{hi:.3f})")
    print(f"one problem, median over problems  {statistics.median(singles):6.3f} s"
          f"  (slowest {max(singles):.3f})   target <= 0.3 s")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "student"
        shutil.copytree(edition.skeleton_dir, folder)
        shutil.copyfile(edition.solution_dir / edition.submission, folder / edition.submission)
        unlock_everything(folder)
        env_path = str(ROOT)
        argv = [sys.executable, "-c", f"import sys; sys.path.insert(0, {env_path!r}); "
                "from graders.runner.student import main; sys.exit(main('.', ['-q', '01']))"]
        med, lo, hi = clock(argv, folder, args.repeat)
        print(f"student: python3 ok -q 01          {med:6.3f} s  ({lo:.3f}-{hi:.3f})")


if __name__ == "__main__":
    main()
