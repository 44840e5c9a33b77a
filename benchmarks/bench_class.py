"""Benchmark: grading a class folder, as an instructor would, with every limit in force.

    python3 benchmarks/bench_class.py [--count N] [--jobs J] [--edition NAME]

Builds a class of N generated submissions from the edition's marked solution: finished ones,
skeletons, partly finished ones (each demo stage), and a few hostile ones (a function that loops
forever, a function that exhausts memory), then grades it with ``grade_class`` into a fresh folder
and reports the wall time, the time per submission and the time 1000 submissions would take
(target on a 2-core machine: 1000 in at most 5 minutes, 0.3 s each). Printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from graders.authoring.demo import demo_stages  # noqa: E402
from graders.courses.classroom import class_jobs, grade_class  # noqa: E402
from graders.editions.edition import load_edition  # noqa: E402
from graders.editions.markers import strip_solutions  # noqa: E402
from graders.sandboxing import isolation  # noqa: E402

LOOP = "\n\ndef roll_dice(num_rolls, dice=six_sided):\n    while True:\n        pass\n"
MEMORY = (
    "\n\ndef boar_brawl(player_score, opponent_score):\n"
    "    hoard = []\n    while True:\n        hoard.append(' ' * 10**6)\n"
)


def build_class(folder: Path, edition, count: int) -> dict[str, int]:
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    stages = demo_stages(edition)
    kinds: dict[str, int] = {}
    for k in range(count):
        if k % 50 == 7:  # "a few" hostile ones: two in every hundred
            kind, text = "endless loop", source + LOOP
        elif k % 50 == 13:
            kind, text = "memory", source + MEMORY
        else:
            name, keep = stages[k % len(stages)]
            kind, text = name, strip_solutions(source, keep)
        kinds[kind] = kinds.get(kind, 0) + 1
        (folder / f"student{k:04d}.py").write_text(text + f"\n# submission {k}\n", encoding="utf-8")
    return kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=class_jobs(), help="default: the kit's own (class_jobs)")
    parser.add_argument("--edition", default="boar_brawl")
    args = parser.parse_args()
    edition = load_edition(args.edition)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        kinds = build_class(folder, edition, args.count)
        started = time.monotonic()
        records = grade_class(folder, edition, Path(tmp) / "out", jobs=args.jobs)
        elapsed = time.monotonic() - started
    per = elapsed / len(records)
    print(f"machine: {os.cpu_count()} cores; jobs {args.jobs}")
    print(isolation.policy().summary)
    print("class: " + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())))
    print(f"graded {len(records)} submissions in {elapsed:.1f} s: {per:.3f} s each")
    print(f"1000 submissions would take {1000 * per / 60:.1f} min   target <= 5 min (0.3 s each)")


if __name__ == "__main__":
    main()
