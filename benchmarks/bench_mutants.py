"""Benchmark: mutation testing, in mutants per second and the time a whole edition takes.

    python3 benchmarks/bench_mutants.py [--edition NAME] [--jobs N] [--sample K] [--repeat R]

Reports the time to generate the edition's mutants (the median of R runs), then grades them the way
`hogkit mutants` does, JOBS at a time (default 2, the cores of the machine the targets are for):
every mutant, or with --sample an evenly spread K of them, from which the whole edition's time is
estimated. It prints mutants per second, the wall time, and how much of the graders' time went to
mutants that timed out (each waits for its case's deadline). Printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from graders.authoring import messages as authoring_messages
from graders.authoring import mutants, mutations  # noqa: E402
from graders.editions.edition import load_edition  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edition", default="boar_brawl")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sample", type=int, default=0, help="grade only this many mutants, evenly spread")
    parser.add_argument("--repeat", type=int, default=5, help="runs of the generator to time")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    times = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        every = mutations.generate(source, edition.problems)
        times.append(time.perf_counter() - started)
    generation = statistics.median(times)
    print(f"{edition.name}: {len(every)} mutants generated in {generation:.3f} s "
          f"({len(every) / generation:.0f} per second)")
    chosen = every
    if args.sample and args.sample < len(every):
        step = len(every) / args.sample
        chosen = tuple(every[int(k * step)] for k in range(args.sample))
    started = time.perf_counter()
    report = mutants.run(edition, mutants=chosen, jobs=args.jobs)
    wall = time.perf_counter() - started
    rate = len(chosen) / wall
    print(f"graded {len(chosen)} mutants with --jobs {args.jobs} in {wall:.1f} s: {rate:.2f} mutants per second")
    waiting = sum(o.seconds for o in report.outcomes if o.status == mutants.TIMED_OUT)
    busy = sum(o.seconds for o in report.outcomes)
    timed_out = sum(o.status == mutants.TIMED_OUT for o in report.outcomes)
    print(f"  {timed_out} timed out, taking {waiting:.0f} s of the graders' {busy:.0f} s "
          f"({100 * waiting / busy if busy else 0:.0f}%)")
    if chosen is not every:
        print(f"  estimated whole edition ({len(every)} mutants): {len(every) / rate:.0f} s")
    else:
        print(f"  whole edition: {wall:.0f} s")
    for t in report.tallies:
        score = authoring_messages.mutants_score(t.killed + t.timed_out, t.counted)
        print(f"  {t.label} {t.title[:40]:40} {t.generated:4} mutants  {score}")


if __name__ == "__main__":
    main()
