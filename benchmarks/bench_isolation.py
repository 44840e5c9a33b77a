"""Isolation: what the sandbox's namespaces cost against resource limits alone.

    python3 benchmarks/bench_isolation.py [--repeat 5] [--copies 20] [--edition NAME]

For each isolation level this machine offers (``namespaces`` when bubblewrap works here, and
``limits``, forced with HOGKIT_ISOLATION=limits), each in fresh processes:
  * a child's start: a session opened on the reference and one case run in it, then closed (the
    cost every restart after a time-out or a crash pays);
  * one case in a child already started (the cost every case pays);
  * a full ``hogkit grade`` of the reference, and the same divided by its number of cases;
  * a class of COPIES copies of the reference, graded with ``--jobs`` set to the machine's cores.
Medians of REPEAT runs, with min and max. Timings are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_stress import reference_class  # noqa: E402  (this folder, first on the path of a script)

from graders import isolation  # noqa: E402
from graders.edition import load_edition  # noqa: E402

# Run in a fresh process per level, so that the level is decided there as in any grader.
SESSION_TIMER = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from graders.edition import load_edition
from graders.sandbox import open_session
from graders import isolation
edition = load_edition(sys.argv[2])
source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
repeat = int(sys.argv[3])
starts, cases = [], []
for _ in range(repeat):
    began = time.perf_counter()
    session = open_session(source, edition)
    list(session.steps(["1 + 1"], "", time.monotonic() + 30))
    ready = time.perf_counter()
    for _ in range(20):
        one = time.perf_counter()
        list(session.steps(["1 + 1"], "", time.monotonic() + 30))
        cases.append(time.perf_counter() - one)
    session.dispose()
    starts.append(ready - began)
print(json.dumps({"level": isolation.policy().level, "starts": starts, "cases": cases}))
"""


def spread(times: list[float]) -> str:
    return f"{statistics.median(times) * 1000:8.1f} ms  (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})"


def environment(level: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop(isolation.FORCE, None)
    if level == isolation.LIMITS:
        env[isolation.FORCE] = isolation.LIMITS
    return env


def time_sessions(level: str, edition: str, repeat: int) -> dict:
    done = subprocess.run([sys.executable, "-c", SESSION_TIMER, str(ROOT), edition, str(repeat)],
                          capture_output=True, text=True, env=environment(level), check=True)
    return json.loads(done.stdout)


def time_command(argv: list[str], level: str, repeat: int) -> tuple[list[float], str]:
    times, out = [], ""
    for _ in range(repeat):
        started = time.perf_counter()
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=environment(level),
                              stdin=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({level}):\n{done.stderr}")
        out = done.stdout
    return times, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--edition", default="boar_brawl")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    hogkit = [sys.executable, "-m", "graders.cli"]
    policy = isolation.policy()
    print(policy.summary)
    levels = [isolation.NAMESPACES, isolation.LIMITS] if policy.level == isolation.NAMESPACES else [isolation.LIMITS]
    with tempfile.TemporaryDirectory() as tmp:
        folder = reference_class(edition, tmp, args.copies)
        for level in levels:
            sessions = time_sessions(level, args.edition, args.repeat)
            assert sessions["level"] == level, sessions
            full, out = time_command([*hogkit, "grade", "--edition", args.edition, "--json",
                                      str(edition.solution_dir / edition.submission)], level, args.repeat)
            report = json.loads(out)
            count = sum(len(p["cases"]) for p in report["problems"])
            klass, _ = time_command([*hogkit, "grade", str(folder), "--out", str(Path(tmp) / f"out-{level}"),
                                     "--edition", args.edition, "--jobs", str(os.cpu_count() or 1), "--force"],
                                    level, max(1, args.repeat // 2))
            print(f"\n{level}")
            print(f"  child start + first case     {spread(sessions['starts'])}")
            print(f"  one case in a started child  {spread(sessions['cases'])}")
            print(f"  full grade ({count} cases)     {spread(full)}")
            print(f"  ... per case                 {spread([t / count for t in full])}")
            print(f"  class of {args.copies}, per submission {spread([t / args.copies for t in klass])}")


if __name__ == "__main__":
    main()
