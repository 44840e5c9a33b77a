"""Benchmark: the floor under a class's grading, the same cases run in one plain process.

    python3 benchmarks/bench_floor.py [--count N] [--edition NAME] [--jobs J]

A benchmark mode, never a grading mode: it trusts the submissions completely. Builds the class
bench_class.py makes, then runs every case of every problem, public and hidden, of each submission
in this one process, with no sandbox, no child and no kit's functions: the submission imported as
the edition's module, each case in a fresh namespace over the module as it was imported, its steps
run with the case's own time limit (an interval timer) and their printed output captured. That is
the least any grader running those cases must spend. Then it grades the same class with the kit
(``grade_class``, JOBS at once) and prints both, their ratio, and the cases that dominate the floor
(by problem and kind), so that a high floor says why.

The cases are those the kit runs: a problem still the skeleton's is settled without any, and a
problem's cases stop at the first that runs out of time or memory. Cases of another kind than a
transcript (a test the student writes, run beside the reference; an exact win rate) have no
plain-process form and are left out of the floor, which only lowers it;
their count is printed. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import signal
import sys
import tempfile
import time
import types
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_class import build_class  # noqa: E402
from graders.courses.classroom import class_jobs, grade_class  # noqa: E402
from graders.editions.cases import Case  # noqa: E402
from graders.editions.edition import Edition, load_edition  # noqa: E402
from graders.scoring.grading import plan_grading, settle  # noqa: E402

MEMORY = 1024 * 1024 * 1024  # this process's own limit, as a child's: a memory hog meets a MemoryError


class TimeUp(BaseException):
    """A case ran out of its time limit (raised from the interval timer's signal)."""


def _time_up(signum: int, frame: object) -> None:
    raise TimeUp


def run_case(case: Case, snapshot: dict, module: types.ModuleType) -> str:
    """Run CASE over MODULE restored to SNAPSHOT: "ok", "error" or "timeout" (what ended it)."""
    module.__dict__.clear()
    module.__dict__.update(snapshot)
    namespace: dict = {"__name__": "__case__"}
    outcome = "ok"
    signal.setitimer(signal.ITIMER_REAL, case.timeout)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            if case.setup:
                exec(compile(case.setup, "<setup>", "exec"), namespace)
            for step in case.steps:
                try:
                    repr(eval(compile(step.source, "<case>", "eval"), namespace))
                except SyntaxError:
                    exec(compile(step.source + "\n", "<case>", "exec"), namespace)
                except TimeUp:
                    raise
                except MemoryError:
                    return "memory"
                except BaseException:
                    outcome = "error"  # as the kit goes on to the next step
    except TimeUp:
        outcome = "timeout"
    except BaseException:
        outcome = "error"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return outcome


def load(source: str, edition: Edition) -> types.ModuleType:
    """SOURCE imported as the edition's module, statement by statement as the kit does (a statement
    that raises or runs out of time is passed over)."""
    import ast

    module = types.ModuleType(edition.module)
    module.__file__ = edition.submission
    sys.modules[edition.module] = module
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return module
    for node in tree.body:
        signal.setitimer(signal.ITIMER_REAL, 5.0)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(ast.Module(body=[node], type_ignores=[]), edition.submission, "exec"), module.__dict__)
        except BaseException:
            pass
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    return module


def chosen_cases(source: str, edition: Edition) -> tuple[list[list[Case]], int]:
    """The cases the kit runs of SOURCE, problem by problem (a problem still the skeleton's, or
    settled without running, has none), and how many of them are of another kind."""
    plan = plan_grading(source, edition, None, None, True)
    runs = [plan.cases[p.label] for p in plan.chosen if settle(p, plan, edition.submission) is None]
    return [[c for c in cases if c.check is None] for cases in runs], sum(c.check is not None for r in runs for c in r)


def floor(folder: Path, edition: Edition) -> tuple[float, Counter, Counter, int]:
    """(seconds, seconds by problem, seconds by outcome, cases left out) of every submission in
    FOLDER run in this process: a problem's cases stop at its first that runs out of time or
    memory, as the kit's do."""
    by_problem: Counter = Counter()
    by_outcome: Counter = Counter()
    left_out = 0
    sys.path.insert(0, str(edition.support_dir))
    signal.signal(signal.SIGALRM, _time_up)
    started = time.monotonic()
    for path in sorted(folder.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        problems, other = chosen_cases(source, edition)
        left_out += other
        module = load(source, edition)
        snapshot = dict(module.__dict__)
        for cases in problems:
            for case in cases:
                began = time.monotonic()
                outcome = run_case(case, snapshot, module)
                spent = time.monotonic() - began
                by_problem[case.problem] += spent
                by_outcome[outcome] += spent
                if outcome in ("timeout", "memory"):
                    break
    return time.monotonic() - started, by_problem, by_outcome, left_out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=class_jobs(), help="default: the kit's own (class_jobs)")
    parser.add_argument("--edition", default="boar_brawl")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, resource.getrlimit(resource.RLIMIT_AS)[1]))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        kinds = build_class(folder, edition, args.count)
        seconds, by_problem, by_outcome, left_out = floor(folder, edition)
        resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        started = time.monotonic()
        records = grade_class(folder, edition, Path(tmp) / "out", jobs=args.jobs)
        graded = time.monotonic() - started
    count = len(records)
    print(f"machine: {os.cpu_count()} cores; the kit with jobs {args.jobs}; the floor in one process")
    print("class: " + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())))
    print(f"floor: {seconds:.1f} s, {seconds / count:.3f} s a submission, on one core "
          f"({left_out} cases of another kind left out of it, in all)")
    print("  where the floor goes, by how cases ended: "
          + ", ".join(f"{k} {v:.1f} s" for k, v in by_outcome.most_common()))
    print("  by problem: " + ", ".join(f"{k} {v:.1f} s" for k, v in by_problem.most_common(6)))
    ratio = graded / max(seconds, 1e-9)
    print(f"the kit: {graded:.1f} s, {graded / count:.3f} s a submission = {ratio:.2f} x the floor"
          f"   target <= 1.3 x, and <= 0.3 s a submission for boar_brawl")


if __name__ == "__main__":
    main()
