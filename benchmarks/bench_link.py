"""Benchmark: what one call across the link between a student's child and the kit's child costs.

    python3 benchmarks/bench_link.py [--calls N]

Two processes joined by two pipes, each end a ``graders.sandboxing.child.Link`` as the children
hold them (no sandbox: this measures the hand-over, not the confinement): a call of a plain value,
and a call whose function calls a function of the caller back once. Each is timed with the two
processes free to run on any processor and with both on one processor (what
graders.sandboxing.children.pair_cpu gives a linked pair). Timings are printed, never asserted:
these machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graders.sandboxing import child  # noqa: E402


def kit_end(ends: tuple[int, int]) -> None:
    """The kit's side: answer calls of ``f`` until the other end goes."""

    def f(x: int, back: object = None) -> object:
        return x + 1 if back is None else back(x)  # type: ignore[operator]

    link = child.Link(list(ends), lambda: {"f": f}, {}, lambda: "")
    while True:
        message = child.receive(ends[0])
        if message is None:
            os._exit(0)
        link.answer(message)


def measure(calls: int, cpu: int | None) -> tuple[float, float]:
    """Microseconds per plain call and per call with one call back, the pair pinned to CPU (or not)."""
    to_kit_r, to_kit_w = os.pipe()
    to_me_r, to_me_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(to_kit_w)
        os.close(to_me_r)
        if cpu is not None:
            os.sched_setaffinity(0, {cpu})
        kit_end((to_kit_r, to_me_w))
    os.close(to_kit_r)
    os.close(to_me_w)
    before = os.sched_getaffinity(0)
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    link = child.Link([to_me_r, to_kit_w], dict, {})
    try:
        started = time.perf_counter()
        for k in range(calls):
            link.call({"name": "f"}, (k,), {})
        plain = time.perf_counter() - started
        started = time.perf_counter()
        for k in range(calls):
            link.call({"name": "f"}, (k, abs), {})
        back = time.perf_counter() - started
    finally:
        os.sched_setaffinity(0, before)
        os.close(to_kit_w)
        os.close(to_me_r)
        os.waitpid(pid, 0)
    return plain / calls * 1e6, back / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=5000)
    args = parser.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    for label, cpu in (("any processor", None), (f"one processor ({cpus[0]})", cpus[0])):
        plain, back = measure(args.calls, cpu)
        print(f"{label:<22} a plain call {plain:6.1f} µs; a call with one call back {back:6.1f} µs")


if __name__ == "__main__":
    main()
