"""Benchmark: exact analysis of the editions beyond Hog's two-score state, compiled against numpy.

    python3 benchmarks/bench_games.py [--repeat N]

Reports, in CPU seconds of this process (so a busy machine does not inflate them) and wall seconds:
Swine Swap's one pair of strategies solved exactly (1.96 M states a mover: scores x memories;
target <= 0.1 s), the same in numpy; its `hogkit optimal` searches (policy improvement and the
whole-state bound; target <= 30 s); a Pig pair from turn gains worked out once per entry (as a
contest does; target <= 0.02 s a pair) against the old way (turn gains again for every pair, numpy).
Printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from graders.editions.edition import load_edition  # noqa: E402
from graders.games import analysis, game, tactics  # noqa: E402


def clock(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(median CPU seconds, median wall seconds) of FN over REPEAT runs."""
    cpu, wall = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started)
    return statistics.median(cpu), statistics.median(wall)


def show(what: str, figures: tuple[float, float], target: str = "") -> None:
    print(f"{what:<58} {figures[0]:8.3f} s CPU {figures[1]:8.3f} s wall  {target}")


def numpy_only(fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        kernel = analysis.compiled_kernel
        analysis.compiled_kernel = lambda: None  # type: ignore[assignment]
        try:
            return fn()
        finally:
            analysis.compiled_kernel = kernel
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"compiled loop: {'yes' if analysis.compiled_kernel() else 'no (numpy)'}")
    swine = load_edition("swine_swap")
    model = analysis.build_model(swine)
    four = analysis.reference_table(swine, "always_roll(4)")
    final = analysis.reference_table(swine, "final_strategy")
    analysis.win_rates(model, final, four)  # the model's arrays in the loop's layout, made once
    show("swine_swap: one pair, both seats, compiled", clock(lambda: analysis.win_rates(model, final, four),
                                                               args.repeat), "target <= 0.1 s")
    pair = numpy_only(lambda: analysis.win_rates(model, final, four))
    show("swine_swap: one pair, both seats, numpy", clock(pair, 1))
    show("swine_swap: optimal (improvement + whole-state bound)",
         clock(lambda: (analysis.score_best_response(model, four), analysis.full_best_response(model, four)), 1),
         "target <= 30 s")
    pig = load_edition("pig")
    pig_game = game.game_of(pig)
    pig_game.prepare()
    tactic = tactics.build_model(pig)
    baseline = tactics.reference_table(pig, pig_game.baseline())
    best = tactics.reference_table(pig, "final_strategy")
    ours, others = pig_game.contest_entry(best), pig_game.contest_entry(baseline)
    show("pig: one entry's turn gains (once per entry in a contest)",
         clock(lambda: pig_game.contest_entry(best), args.repeat))
    show("pig: one pair from kept turn gains, compiled", clock(lambda: pig_game.contest_pair(ours, others),
                                                              args.repeat), "target <= 0.02 s")
    show("pig: one pair as before (turn gains again, numpy)",
         clock(numpy_only(lambda: tactics.win_rates(tactic, best, baseline)), args.repeat))


if __name__ == "__main__":
    main()
