"""Benchmark: a class graded, per submission, against one student's ``python3 ok`` on the same suite.

    python3 benchmarks/bench_class_ok.py [--copies 40] [--jobs 40] [--runs 3] [--edition NAME]

In one run, side by side, each in a fresh process and each RUNS times (medians, min and max):
  * ``python3 ok`` in a copy of the skeleton holding the reference, every prompt unlocked: the
    student's own run of every problem's public cases (the course's ``ok``);
  * ``hogkit grade solution/EDITION``: a full grade of one submission (hidden cases included);
  * ``hogkit grade CLASS --out OUT --jobs JOBS --force`` on COPIES copies of the reference;
and prints the class's processor time per submission divided by one ``ok`` run's (the goal: at
most 0.07). Processor time, not wall time, since the machine is shared: the user and system time
of the process and of everything it started, read from a cpuacct cgroup of the benchmark's own
where one can be made (it counts the sandboxed children that a namespace's init reaps, which
``getrusage(RUSAGE_CHILDREN)`` never sees), otherwise from ``getrusage(RUSAGE_CHILDREN)`` (said in
the output). Wall seconds are printed beside. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_grade import unlock_everything  # noqa: E402  (this folder, first on the path of a script)
from bench_stress import reference_class  # noqa: E402

from graders.edition import load_edition  # noqa: E402

CPUACCT = Path("/sys/fs/cgroup/cpuacct")


class Meter:
    """Processor seconds of a command and everything it starts: a cpuacct cgroup of its own where
    one can be made, otherwise this process's waited-for children."""

    def __init__(self) -> None:
        self.group: Path | None = CPUACCT / f"hogkit-bench-{os.getpid()}"
        try:
            self.group.mkdir(exist_ok=True)
            (self.group / "cpuacct.usage").read_text(encoding="ascii")
        except OSError:
            self.group = None

    @property
    def how(self) -> str:
        return "a cpuacct cgroup (every descendant)" if self.group else "getrusage(RUSAGE_CHILDREN)"

    def _now(self) -> float:
        if self.group is not None:
            return int((self.group / "cpuacct.usage").read_text(encoding="ascii")) / 1e9
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        return used.ru_utime + used.ru_stime

    def _enter(self) -> Callable[[], None] | None:
        group = self.group
        if group is None:
            return None

        def join() -> None:  # in the new process, before it runs anything
            with open(group / "cgroup.procs", "w", encoding="ascii") as f:
                f.write(str(os.getpid()))
        return join

    def run(self, argv: list[str], cwd: Path) -> tuple[float, float]:
        """(processor seconds, wall seconds) of ARGV run to its end in CWD."""
        before, started = self._now(), time.monotonic()
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              preexec_fn=self._enter())
        wall = time.monotonic() - started
        time.sleep(0.2)  # what a namespace's init reaps last is counted by then
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
        return self._now() - before, wall

    def close(self) -> None:
        if self.group is not None:
            for _ in range(50):
                try:
                    self.group.rmdir()
                    return
                except OSError:
                    time.sleep(0.1)


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):7.3f} s  ({min(values):.3f}-{max(values):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--copies", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--edition", default="boar_brawl")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    meter = Meter()
    hogkit = [sys.executable, "-m", "graders.cli"]
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; processor time from {meter.how}; "
          f"median of {args.runs} (min-max)")
    ok: list[tuple[float, float]] = []
    one: list[tuple[float, float]] = []
    whole: list[tuple[float, float]] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            student = Path(tmp) / "student"
            shutil.copytree(edition.skeleton_dir, student)
            shutil.copyfile(edition.solution_dir / edition.submission, student / edition.submission)
            unlock_everything(student)
            folder = reference_class(edition, tmp, args.copies)
            for run in range(args.runs):  # interleaved, so that the load of the moment weighs on all three
                ok.append(meter.run([sys.executable, "ok"], student))
                one.append(meter.run([*hogkit, "grade", str(edition.solution_dir), "--edition", edition.name], ROOT))
                whole.append(meter.run([*hogkit, "grade", str(folder), "--out", str(Path(tmp) / f"out{run}"),
                                        "--edition", edition.name, "--jobs", str(args.jobs), "--force"], ROOT))
    finally:
        meter.close()
    ok_cpu = [c for c, _ in ok]
    per = [c / args.copies for c, _ in whole]
    for name, pairs in (("python3 ok (every problem)", ok), ("hogkit grade, one submission", one),
                        (f"class of {args.copies}, --jobs {args.jobs}", whole)):
        print(f"{name:<38}cpu {spread([c for c, _ in pairs])}  wall {spread([w for _, w in pairs])}")
    print(f"  per submission                      cpu {spread(per)}")
    ratios = [p / o for p, o in zip(per, ok_cpu, strict=True)]
    print(f"  per submission / one ok run (same round)  {statistics.median(ratios):.3f} x  "
          f"({min(ratios):.3f}-{max(ratios):.3f})   goal <= 0.07 x")


if __name__ == "__main__":
    main()
