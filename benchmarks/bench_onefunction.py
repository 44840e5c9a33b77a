"""Benchmark: what hidden cases that test one function cost per submission.

    python3 benchmarks/bench_onefunction.py [--repeat N] [--edition NAME ...]

For each edition's reference solution, the wall time of a full grade as the kit runs it (the hidden
cases that reach other problems in children of their own groups, whose stubs the kit's own child
answers; the answers of a case's pure calls are worked out once per process on the reference, so
the first grade pays for them and a class's later grades do not) and of the same grade with every
hidden case in the submission's own children (no stub: what the kit did before), with the number
of groups. Each figure is the median of N runs (min and max beside it), the first run apart.
Timings are printed, never asserted: these machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graders.editions import onefunction  # noqa: E402
from graders.editions.edition import edition_names, load_edition  # noqa: E402
from graders.scoring import grading  # noqa: E402
from graders.scoring.submissions import Submission  # noqa: E402


def clock(submission: Submission, name: str, repeat: int, substitute: bool) -> list[float]:
    edition = load_edition(name)
    real = grading.hidden_children
    grading.hidden_children = real if substitute else (lambda *args: {})  # type: ignore[assignment]
    try:
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            grading.grade(submission, edition)
            times.append(time.perf_counter() - started)
        return times
    finally:
        grading.hidden_children = real  # type: ignore[assignment]


def groups(submission: Submission, name: str) -> int:
    edition = load_edition(name)
    plan = grading.plan_grading(submission.source, edition, None, None, True)
    return len(onefunction.hidden_contexts(plan.source, plan.tree, set(plan.names), edition, plan.cases))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--edition", action="append", help="an edition (repeatable; default: every edition)")
    args = parser.parse_args()
    for name in args.edition or edition_names():
        edition = load_edition(name)
        path = edition.solution_dir / edition.submission
        submission = Submission(path, path.read_text(encoding="utf-8"))
        for substitute in (False, True):
            times = clock(submission, name, args.repeat, substitute)
            label = f"one function ({groups(submission, name)} groups)" if substitute else "student's own"
            later = times[1:] or times
            print(f"{name:<12} {label:<36} first {times[0]:.2f} s, then median {statistics.median(later):.2f} s "
                  f"(min {min(later):.2f}, max {max(later):.2f})")


if __name__ == "__main__":
    main()
