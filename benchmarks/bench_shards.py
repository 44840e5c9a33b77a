"""Benchmark: a class graded as N shards, then merged, as a cluster would (here, one after another).

    python3 benchmarks/bench_shards.py [--count 40] [--shards 3] [--jobs J] [--edition NAME] [--compare]

Builds the class ``bench_class.py`` builds, grades each shard with ``grade_class(..., shard=K/N)``
into its own folder, then merges them with :func:`graders.courses.merging.merge`, and prints each shard's
size and time and the merge's wall and CPU time (this process's: the merge starts no child) split
into copying the records and writing the class's files (tables, histograms, similarity report).
With ``--compare`` the class is also graded in one run and every file compared with the merge's,
times masked (on a loaded machine the submissions that loop or exhaust memory may meet a different
limit first in any two runs, sharded or not). Printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_class import build_class  # noqa: E402

from graders.courses import merging  # noqa: E402
from graders.courses.classroom import grade_class  # noqa: E402
from graders.courses.shards import Shard  # noqa: E402
from graders.editions.edition import load_edition  # noqa: E402

TIMES = re.compile(rb'"(seconds|execution_time)": [0-9.e+-]+')


def differing(one: Path, other: Path) -> list[str]:
    names = {p.relative_to(one).as_posix() for p in one.rglob("*") if p.is_file()}
    theirs = {p.relative_to(other).as_posix() for p in other.rglob("*") if p.is_file()} - {merging.MERGE_FILE}
    bad = sorted(names ^ theirs)
    for name in sorted(names & theirs):
        if TIMES.sub(b"", (one / name).read_bytes()) != TIMES.sub(b"", (other / name).read_bytes()):
            bad.append(name)
    return bad


def timed_merge(outs: list[Path], out: Path) -> tuple[float, float, float]:
    """(wall, CPU, CPU spent gathering) of one merge."""
    gathered = [0.0]
    original = merging.gather

    def gather(*args, **kwargs):  # type: ignore[no-untyped-def]
        started = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            gathered[0] = time.process_time() - started

    merging.gather = gather  # type: ignore[assignment]
    try:
        wall, cpu = time.monotonic(), time.process_time()
        merging.merge(outs, out)
        return time.monotonic() - wall, time.process_time() - cpu, gathered[0]
    finally:
        merging.gather = original  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--shards", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--edition", default="boar_brawl")
    parser.add_argument("--compare", action="store_true", help="also grade the class in one run and compare")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        build_class(folder, edition, args.count)
        outs = []
        for k in range(1, args.shards + 1):
            out = Path(tmp) / f"shard-{k}"
            started = time.monotonic()
            records = grade_class(folder, edition, out, jobs=args.jobs, shard=Shard(k, args.shards))
            size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
            print(f"shard {k}/{args.shards}: {len(records)} submissions, {time.monotonic() - started:.1f} s wall, "
                  f"{size / 1e6:.1f} MB written")
            outs.append(out)
        wall, cpu, gathered = timed_merge(outs, Path(tmp) / "merged")
        print(f"merge of {args.count} submissions from {args.shards} shards: {wall:.2f} s wall, {cpu:.2f} s CPU "
              f"({gathered:.2f} s copying records, {cpu - gathered:.2f} s class files and similarity)")
        wall, cpu, _ = timed_merge(outs, Path(tmp) / "merged")
        print(f"the same merge again (idempotent): {wall:.2f} s wall, {cpu:.2f} s CPU")
        if args.compare:
            grade_class(folder, edition, Path(tmp) / "single", jobs=args.jobs)
            bad = differing(Path(tmp) / "single", Path(tmp) / "merged")
            print("merge equals the single run, times masked" if not bad else f"files that differ: {bad}")


if __name__ == "__main__":
    main()
