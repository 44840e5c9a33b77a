"""Benchmark: exact analysis against the simulation a student would otherwise run.

    python3 benchmarks/bench_analysis.py [--edition NAME] [--repeat N]

Reports, for the edition (targets on a 2-core machine): one strategy pair, both seats, after
tabulation (<= 50 ms); the best response to the baseline and the minimax strategy (<= 0.5 s
each); and, side by side, the time and the error of make_averaged-style simulation with the
reference's own play at 1,000 and 10,000 games per seat. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from graders.editions.edition import load_edition  # noqa: E402
from graders.games import analysis  # noqa: E402


def clock(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edition", default="boar_brawl")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    edition = load_edition(args.edition)
    started = time.perf_counter()
    analysis.build_model.cache_clear()
    model = analysis.derive_model(edition)
    print(f"deriving the game from the reference: {time.perf_counter() - started:.3f} s (cached after)")
    settings = analysis.analysis_settings(edition)
    baseline = analysis.reference_table(edition, settings["baseline"])
    final = analysis.reference_table(edition, "final_strategy")
    pair = clock(lambda: analysis.win_rates(model, final, baseline), args.repeat)
    print(f"one pair, both seats:      {1000 * pair:7.1f} ms   target <= 50 ms")
    best = clock(lambda: analysis.best_response(model, baseline), args.repeat)
    print(f"best response:             {best:7.3f} s    target <= 0.5 s")
    minimax = clock(lambda: analysis.optimal(model), args.repeat)
    print(f"minimax strategy:          {minimax:7.3f} s    target <= 0.5 s")
    compiled = clock(lambda: analysis.pair_rate(model, final, baseline), args.repeat)
    print(f"one pair, compiled loop:   {1000 * compiled:7.1f} ms   (the contest's solver; see bench_contest.py)")
    exact = analysis.win_rates(model, final, baseline)["average"]
    print(f"exact: final_strategy wins {100 * exact:.3f}% against {settings['baseline']}")
    for games in (1000, 10000):
        code = (
            "import random, sys\nfrom hog import *\nrandom.seed(7)\nwins = 0\n"
            f"for _ in range({games}):\n"
            f"    a, b = play(final_strategy, {settings['baseline']}, *PLAY_ARGS)\n    wins += a > b\n"
            f"    a, b = play({settings['baseline']}, final_strategy, *PLAY_ARGS)\n    wins += b > a\n"
            f"print(wins / {2 * games})\n"
        )
        play_args = "(sus_update,)" if "sus_update" in settings["update"] else "()"
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-B", "-c", code.replace("PLAY_ARGS", play_args)],
                              cwd=edition.solution_dir, capture_output=True, text=True)
        elapsed = time.perf_counter() - started
        simulated = float(done.stdout)
        print(f"simulation, {games:>5} games a seat: {elapsed:6.2f} s, {100 * simulated:.3f}% "
              f"(error {100 * abs(simulated - exact):.3f} points)")


if __name__ == "__main__":
    main()
