"""Benchmark: what a grade spends on the final strategy's exact win rate, from a cold process.

    python3 benchmarks/bench_exact_rate.py [--repeat 3] [--edition swine_swap]

Each run is a fresh process (as ``hogkit grade`` is) grading the edition's reference, in two ways
side by side: as grading does now (the shared parts of the exact rate, the compiled loop, the
game's arrays and the baseline's table, built by a thread beside the submission's children), and
with that thread turned off (everything built when the rate is asked for, as before). Reported: the
wall seconds the grade waits in the exact-rate step, and the processor seconds of that step (its
own thread's time; the C compiler's, a child process, is counted with the building thread's where
it runs). Goal: at most 0.3 s. Medians of REPEAT runs; printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TIMER = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from graders.scoring import grading
from graders.editions.edition import load_edition
from graders.scoring.submissions import Submission
from graders.games.game import game_of
edition = load_edition(sys.argv[2])
if sys.argv[3] == "off":
    grading.prepare_exact_rate = lambda *args: None
measured = {}
original = grading._report_exact_rate
def timed(*args):
    wall, cpu = time.perf_counter(), time.thread_time()
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        return original(*args)
    finally:
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        measured["wall"] = time.perf_counter() - wall
        measured["cpu"] = time.thread_time() - cpu + (after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime)
grading._report_exact_rate = timed
path = edition.solution_dir / edition.submission
# As hogkit grade does: the instructor's side hands grading the edition's game, which works out the rate.
report = grading.grade(Submission(path, path.read_text(encoding="utf-8")), edition, game=game_of(edition))
if "wall" not in measured:
    sys.exit("the exact-rate step never ran: this edition reports no strategy's rate")
print(json.dumps(measured))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--edition", default="swine_swap")
    args = parser.parse_args()
    figures: dict[str, dict[str, list[float]]] = {"on": {"wall": [], "cpu": []}, "off": {"wall": [], "cpu": []}}
    for _ in range(args.repeat):
        for way in ("on", "off"):  # interleaved: the load of the moment weighs on both
            done = subprocess.run([sys.executable, "-c", TIMER, str(ROOT), args.edition, way],
                                  capture_output=True, text=True, cwd=ROOT)
            if done.returncode != 0:
                raise SystemExit(done.stderr[-2000:])
            data = json.loads(done.stdout.strip().splitlines()[-1])
            for key in ("wall", "cpu"):
                figures[way][key].append(data[key])
    print(f"{args.edition}: the exact-rate step of a grade from a cold process, median of {args.repeat}")
    for way, what in (("on", "shared parts built beside the children"), ("off", "all built when asked")):
        wall, cpu = figures[way]["wall"], figures[way]["cpu"]
        print(f"  {what:<40} wall {statistics.median(wall):6.3f} s ({min(wall):.3f}-{max(wall):.3f})"
              f"   cpu of the step {statistics.median(cpu):6.3f} s   goal <= 0.3 s")


if __name__ == "__main__":
    main()
