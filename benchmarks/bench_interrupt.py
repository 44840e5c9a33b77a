"""Benchmark: how long a class grade takes to stop on Ctrl-C, and on a second Ctrl-C.

    python3 benchmarks/bench_interrupt.py [--count N] [--runs R] [--edition NAME]

Starts ``hogkit grade CLASS --out OUT --jobs 2`` on a class of N copies of the edition's reference
(each a little different, so none is reused), sends SIGINT once the first submission is graded
(its children then running), and measures, in wall time (a latency, not a cost): the time until
the "stopping: ..." line appears, and until the process has ended (status 130). Then once more
with a second SIGINT sent right after that line. Goal: the first under 1 s. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graders.editions.edition import load_edition  # noqa: E402


def one_run(folder: Path, out: Path, twice: bool) -> tuple[float, float, int]:
    """(seconds from SIGINT to the stopping line, seconds from SIGINT to the end, exit status)."""
    proc = subprocess.Popen([sys.executable, "-m", "graders.cli", "grade", str(folder), "--out", str(out),
                             "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stderr is not None
    for line in proc.stderr:
        if re.search(r"\b[1-9]\d*/\d+ submissions graded", line):
            break
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    said = float("nan")
    while select.select([proc.stderr], [], [], 30)[0]:
        line = proc.stderr.readline()
        if not line:
            break
        if line.startswith("stopping:") or "\nstopping:" in line:
            said = time.monotonic() - sent
            if twice:
                proc.send_signal(signal.SIGINT)
    status = proc.wait(timeout=60)
    return said, time.monotonic() - sent, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--edition", default="boar_brawl")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        for k in range(args.count):
            (folder / f"s{k:03d}.py").write_text(source + f"\n# submission {k}\n", encoding="utf-8")
        for twice in (False, True):
            for run in range(args.runs):
                said, ended, status = one_run(folder, Path(tmp) / f"out-{twice}-{run}", twice)
                what = "second Ctrl-C" if twice else "first Ctrl-C "
                print(f"{what} run {run + 1}: message after {said:.3f} s, ended after {ended:.3f} s, "
                      f"status {status}", flush=True)


if __name__ == "__main__":
    main()
