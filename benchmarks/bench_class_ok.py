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

    python3 benchmarks/bench_class_ok.py --parts [--runs 3] [--edition NAME]

says where one submission's time goes in a class: a process grades the reference GRADES times as a
class does (one child at a time, the process already warm), and again with the hidden cases' group
children turned off (every hidden case in the submission's own child, as before one-function
cases); the difference is what those children cost. Processor seconds per grade, and the children started per grade.
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

from graders.editions.edition import load_edition  # noqa: E402

CPUACCT = Path("/sys/fs/cgroup/cpuacct")
GRADES = 6

# One process grading the reference as a class does, warm; argv: kit root, edition, way, grades.
PARTS = """
import sys
sys.path.insert(0, sys.argv[1])
from graders.editions import onefunction
from graders.editions.edition import load_edition
from graders.games.game import game_of
from graders.sandboxing import sandbox
from graders.scoring.grading import grade
from graders.scoring.submissions import Submission
edition = load_edition(sys.argv[2])
path = edition.solution_dir / edition.submission
submission = Submission(path, path.read_text(encoding="utf-8"))
if sys.argv[3] == "no groups":
    onefunction.hidden_contexts = lambda *args: []
game = game_of(edition)  # as a class is graded: the edition's game handed in
grade(submission, edition, workers=1, game=game)  # warm: the kit's own files read, the guard's child started
started = [0]
spawn = sandbox.Session._spawn_and_import
def counted(self, budget):
    started[0] += 1
    return spawn(self, budget)
sandbox.Session._spawn_and_import = counted
for _ in range(int(sys.argv[4])):
    grade(submission, edition, workers=1, game=game)
print(started[0])
"""


class Meter:
    """Processor seconds of a command and everything it starts: a cpuacct cgroup of its own where
    one can be made, otherwise this process's waited-for children."""

    def __init__(self) -> None:
        self.last_output_number = 0  # the number the latest command printed last, if any
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
        last = (done.stdout.split() or ["0"])[-1]
        self.last_output_number = int(last) if last.isdigit() else 0
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


def parts(meter: Meter, edition: str, runs: int) -> None:
    """Processor seconds per grade of a warm process, with and without the hidden cases' group children."""
    print(f"where a submission's time goes ({edition}, {GRADES} grades in one warm process, median of {runs})")
    for way in ("as graded", "no groups"):
        per, children = [], 0
        for _ in range(runs):
            cpu = []
            for grades in (0, GRADES):  # the process's own start and warm-up, taken away
                argv = [sys.executable, "-c", PARTS, str(ROOT), edition, way, str(grades)]
                cpu.append(meter.run(argv, ROOT)[0])
            per.append((cpu[1] - cpu[0]) / GRADES)
            children = meter.last_output_number // GRADES
        print(f"  {way:<40} cpu per grade {spread(per)}   children per grade {children}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", action="store_true", help="where one submission's time goes")
    parser.add_argument("--copies", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--edition", default="boar_brawl")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    meter = Meter()
    if args.parts:
        try:
            parts(meter, edition.name, args.runs)
        finally:
            meter.close()
        return
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
