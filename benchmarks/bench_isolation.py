"""Isolation: what the sandbox's namespaces cost against resource limits alone.

    python3 benchmarks/bench_isolation.py [--repeat 5] [--copies 20] [--edition NAME]

For each isolation level this machine offers (``namespaces`` when bubblewrap works here, and
``limits``, forced with HOGKIT_ISOLATION=limits), each in fresh processes:
  * a child's start: a session opened on the reference and one case run in it, then closed (the
    cost every restart after a time-out or a crash pays);
  * one case in a child already started (the cost every case pays);
  * a full ``hogkit grade`` of the reference, and the same divided by its number of cases;
  * a class of COPIES copies of the reference, graded with ``--jobs`` set to the machine's cores.
  * what the kernel's confinement adds to a child's start: Landlock and the seccomp filter (under
    limits), the seccomp filter (under namespaces), a memory cgroup of its own; each taken away in
    turn;
  * the verification every grading with hidden cases starts with (one child reporting what it can reach).
Medians of REPEAT runs, with min and max. Timings are printed, never asserted.

    python3 benchmarks/bench_isolation.py --what-holds

prints, for the route this process runs on (root or not, with or without CAP_SYS_ADMIN, the level
HOGKIT_ISOLATION asks for), what a child verified it could do: the README's table is made of it.
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

from graders.editions.edition import load_edition  # noqa: E402
from graders.sandboxing import isolation  # noqa: E402

# Run in a fresh process per level, so that the level is decided there as in any grader.
SESSION_TIMER = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from graders.editions.edition import load_edition
from graders.sandboxing.sandbox import open_session
from graders.sandboxing import isolation
edition = load_edition(sys.argv[2])
source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
repeat = int(sys.argv[3])
without = sys.argv[4] if len(sys.argv) > 4 else ""
if without == "confinement":
    isolation.confinement = lambda *args: {}
elif without == "cgroup":
    isolation.make_memory_cgroup = lambda *args: ""
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


def time_sessions(level: str, edition: str, repeat: int, without: str = "") -> dict:
    done = subprocess.run([sys.executable, "-c", SESSION_TIMER, str(ROOT), edition, str(repeat), without],
                          capture_output=True, text=True, env=environment(level), check=True)
    return json.loads(done.stdout)


VERIFY_TIMER = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from graders.sandboxing import guard, isolation
from graders.editions.edition import edition_names, load_edition
if sys.argv[2:] == ["confinement"]:
    isolation.confinement = lambda *args: {}  # as on a kernel without Landlock and seccomp
secrets = guard.secret_paths([load_edition(name) for name in edition_names()])
began = time.perf_counter()
verified = guard.verify(secrets)
print(json.dumps({"seconds": time.perf_counter() - began, "summary": verified.summary}))
"""


def what_holds(without: str) -> None:
    """What a child verified it can do on this process's route, and the processes' bound."""
    done = subprocess.run([sys.executable, "-c", VERIFY_TIMER, str(ROOT), *([without] if without else [])],
                          capture_output=True, text=True, env=dict(os.environ), check=True)
    found = json.loads(done.stdout)
    policy = isolation.policy()
    processes = ("per user id of its own" if policy.root else "per user namespace of its own"
                 if policy.level == isolation.NAMESPACES else "per the grader's own user (shared)")
    print(f"uid {os.getuid()}, {isolation.FORCE}={os.environ.get(isolation.FORCE, '')!r}")
    print(found["summary"])
    print(f"processes: 32 {processes}")
    print(f"verification: {found['seconds'] * 1000:.0f} ms")


def confinement_costs(level: str, edition: str, repeat: int) -> None:
    for without in ("confinement", "cgroup"):
        sessions = time_sessions(level, edition, repeat, without)
        print(f"  child start without {without:11s} {spread(sessions['starts'])}")


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
    parser.add_argument("--what-holds", action="store_true",
                        help="print what a child verified it can do on this route, and stop")
    parser.add_argument("--without", choices=["confinement"], default="",
                        help="with --what-holds: as on a kernel without Landlock and seccomp")
    args = parser.parse_args()
    if args.what_holds:
        what_holds(args.without)
        return
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
            confinement_costs(level, args.edition, args.repeat)
            print(f"  full grade ({count} cases)     {spread(full)}")
            print(f"  ... per case                 {spread([t / count for t in full])}")
            print(f"  class of {args.copies}, per submission {spread([t / args.copies for t in klass])}")


if __name__ == "__main__":
    main()
