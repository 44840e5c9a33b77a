"""Benchmark: bytes a class grade writes per submission, on every edition.

    python3 benchmarks/bench_outputs.py [--edition NAME ...]

For each edition, grades a class of two with ``grade_class``: the reference (every case passes) and
the skeleton (nearly every case fails, each with its expected and got values, transcript and
reason). For each it prints the bytes of ``records/ID.json.gz`` as written, of its feedback and
``results.json``, and what the same record would take in other forms, so the choice can be checked:

- ``old``: the form before (every field of every case, JSON indented by one: ``records/ID.json``);
- ``old.gz``: that form gzipped;
- ``lean``: cases as :func:`graders.core.records.lean_case` keeps them, compact JSON, not compressed;
- ``lean.gz``: what is written (lean, compact, gzip level 9).

Goal: at most 50 KB per submission. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from graders.core.records import ClassRecord  # noqa: E402
from graders.courses.classroom import grade_class, record_path  # noqa: E402
from graders.editions.edition import edition_names, load_edition  # noqa: E402


def forms(record: ClassRecord) -> dict[str, int]:
    old = json.dumps(record.to_dict(), indent=1).encode("utf-8")
    lean = json.dumps(record.to_dict(lean=True), separators=(",", ":")).encode("utf-8")
    return {"old": len(old), "old.gz": len(gzip.compress(old, 9, mtime=0)), "lean": len(lean),
            "lean.gz": len(gzip.compress(lean, 9, mtime=0))}


def measure(name: str) -> list[tuple[str, str, dict[str, int], int, int, int]]:
    edition = load_edition(name)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder, out = Path(tmp) / "class", Path(tmp) / "out"
        folder.mkdir()
        shutil.copy(edition.solution_dir / edition.submission, folder / "reference.py")
        shutil.copy(edition.skeleton_dir / edition.submission, folder / "skeleton.py")
        for record in grade_class(folder, edition, out, jobs=2):
            student = record.file_id or record.student
            written = record_path(out, student).stat().st_size
            feedback = (out / "feedback" / f"{student}.md").stat().st_size
            results = (out / "gradescope" / student / "results.json").stat().st_size
            failed = sum(1 for p in record.problems for c in p.cases if not c.passed)
            cases = sum(len(p.cases) for p in record.problems)
            rows.append((name, f"{student} ({failed}/{cases} cases fail)", forms(record), written, feedback, results))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edition", action="append", choices=edition_names(), help="(default: every edition)")
    args = parser.parse_args()
    print(f"{'edition':<11} {'submission':<32} {'old':>9} {'old.gz':>8} {'lean':>9} {'lean.gz':>8} "
          f"{'written':>8} {'feedback':>8} {'results':>8}")
    for name in args.edition or edition_names():
        for edition, who, sizes, written, feedback, results in measure(name):
            print(f"{edition:<11} {who:<32} {sizes['old']:>9,} {sizes['old.gz']:>8,} {sizes['lean']:>9,} "
                  f"{sizes['lean.gz']:>8,} {written:>8,} {feedback:>8,} {results:>8,}", flush=True)


if __name__ == "__main__":
    main()
