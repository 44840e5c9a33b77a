"""Benchmark: a class contest, every entry tabulated in the sandbox and every pair solved exactly.

    python3 benchmarks/bench_contest.py [--count N] [--edition NAME]

Builds N entries from the reference, each with its own final_strategy (a seeded table of choices,
the reference's, or sus/boar-like rules), runs ``run_contest`` and reports the time taken, split
into tabulating (grows with N) and solving pairs (grows with N²), and the time 500 entries would
take (target on a 2-core machine: at most 5 minutes). Printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from graders.courses.contest import run_contest  # noqa: E402
from graders.editions.edition import load_edition  # noqa: E402
from graders.games import analysis  # noqa: E402


def entry(source: str, k: int) -> str:
    start = source.index("def final_strategy(")
    end = source.index("    # END PROBLEM", source.index("# BEGIN PROBLEM", start))
    rng = random.Random(k)
    rows = ["".join(rng.choice("0123456789") for _ in range(100)) for _ in range(100)]
    body = ("def final_strategy(score, opponent_score):\n"
            f"    rows = {tuple(rows)!r}\n"
            "    return int(rows[score][opponent_score])\n")
    return source[:start] + body + source[end:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--edition", default="boar_brawl")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    print(f"compiled pair solver: {'yes' if analysis.compiled_kernel() else 'no (numpy)'}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        for k in range(args.count):
            (folder / f"entry{k:03d}.py").write_text(entry(source, k) if k % 10 else source, encoding="utf-8")
        marks: list[tuple[float, float]] = []  # (now, when solving pairs began), from the progress calls
        started, started_cpu = time.monotonic(), time.process_time()
        run_contest(folder, edition, Path(tmp) / "out",
                    progress=lambda done, total, began, *what: marks.append((time.monotonic(), began)))
        total, cpu = time.monotonic() - started, time.process_time() - started_cpu
    solving = marks[-1][0] - marks[-1][1] if marks else 0.0  # the last bar is the pairs'; it began then
    tabulating = total - solving
    pairs = args.count * (args.count - 1) // 2
    per_entry, per_pair = tabulating / args.count, solving / max(1, pairs)
    estimate = 500 * per_entry + 500 * 499 / 2 * per_pair
    print(f"{args.count} entries: {total:.1f} s ({tabulating:.1f} s tabulating, {solving:.1f} s for {pairs} pairs, "
          f"{1000 * per_pair:.2f} ms a pair)")
    print(f"this process's own processor time (pairs, tables; not the sandboxed children): {cpu:.1f} s")
    print(f"100 entries would take about {(100 * per_entry + 100 * 99 / 2 * per_pair) / 60:.1f} min   target <= 1 min")
    print(f"500 entries would take about {estimate / 60:.1f} min   target <= 5 min")


if __name__ == "__main__":
    main()
