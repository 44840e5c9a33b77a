"""Benchmark: the grader-side analyses of one huge hand-in (shape rules, similarity fingerprint).

    python3 benchmarks/bench_bounded.py [--size BYTES] [--only rules|similarity]

Builds a hand-in of SIZE bytes (default 1 MiB) two ways and times, in processor seconds:

- *rules*: the edition's reference with tens of thousands of one-line helpers after it, each calling the next,
  the first called by ``boar_brawl`` (so every helper is reachable from a ruled function), checked
  against every shape rule of the edition by one :class:`~graders.scoring.astrules.RuleChecker`;
- *similarity*: the reference with one helper of SIZE bytes (calls, then as many assignments never
  read), fingerprinted by :func:`graders.courses.similarity.holder`.

The hand-in is made bigger than any class accepts (see ``MAX_SOURCE_BYTES``) on purpose: the
analyses must be linear whatever reaches them, so they run here without their deadlines. Printed,
never asserted. Measured on a 2-core machine shared at a load average of 17 to 26 (1 MiB, processor
time): the shape rules took 36.3 s before they were made linear and 2.7 s after; the fingerprint
21.5 s before and 2.9 s after.
"""

from __future__ import annotations

import argparse
import ast
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graders.editions.edition import load_edition  # noqa: E402
from tests.kit.oddhandins import many_helpers, one_big_helper  # noqa: E402


def timed(what: str, work) -> None:
    started, wall = time.process_time(), time.monotonic()
    result = work()
    print(f"{what}: {time.process_time() - started:.2f} s of processor time "
          f"({time.monotonic() - wall:.2f} s wall); {result}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=1024 * 1024)
    parser.add_argument("--only", choices=("rules", "similarity"))
    args = parser.parse_args()
    edition = load_edition("boar_brawl")
    reference = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    if args.only in (None, "rules"):
        from graders.scoring.astrules import RuleChecker

        source = many_helpers(reference, args.size)
        tree = ast.parse(source)
        rules = [r for p in edition.problems for r in p.rules]

        def check() -> str:
            checker = RuleChecker(tree, seconds=None)  # no deadline: the work itself is measured
            results = checker.check_all(rules)
            return (f"{len(rules)} rules, {sum(r.passed for r in results)} hold ({len(source)} bytes, "
                    f"{checker.visits} syntax nodes visited)")

        timed("shape rules", check)
    if args.only in (None, "similarity"):
        from graders.courses import similarity

        source = one_big_helper(reference, args.size)

        def fingerprint() -> str:
            held = similarity.holder("big", source, edition, seconds=float("inf"))  # no deadline
            return f"{len(held.units)} functions fingerprinted ({len(source)} bytes)"

        timed("similarity fingerprint", fingerprint)


if __name__ == "__main__":
    main()
