"""Stress: the reference graded as a class, at one and four jobs, and as a class of forty at forty jobs.

Every row must have full marks (the code is the reference, so anything less is the kit's doing),
and every per-case record must be the same, apart from timings, whatever the number of jobs. The
caches a fresh process starts without (the reference, the game model, the baseline's table) are
emptied before each run, so that their first calls race again as they do in a new process. The same
check run after run, each in a fresh process: ``benchmarks/bench_stress.py --runs 10``.
"""

from __future__ import annotations

import pytest

from graders.courses.classroom import grade_class
from graders.games import analysis, reference

COPIES = 40
# (jobs, copies graded, runs): forty at once, where races show; one and four jobs on fewer copies, which
# is all a comparison with them needs.
RUNS = ((1, 4, 1), (4, 8, 1), (40, COPIES, 1))
# Left out of the comparison: timings, what names the copy, and how many attempts it took with why the
# first failed (a kit failure under load is retried, and the retry's grade must be the same as every
# other copy's: checked below).
TIMINGS = {"seconds", "path", "student", "submission", "reused", "file_id", "title", "attempts", "first_failure"}


def without_timings(value: object) -> object:
    """VALUE with every timing (and what names the copy) left out, recursively."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_reference_as_a_class_gets_full_marks_at_any_jobs(tmp_path, edition, reference_source):
    first = None
    for jobs, copies, runs in RUNS:
        folder = tmp_path / f"class-{copies}"
        if not folder.exists():
            folder.mkdir()
            for k in range(copies):
                (folder / f"student{k:02d}.py").write_text(reference_source, encoding="utf-8")
        for run in range(runs):
            reference._load.cache_clear()
            analysis.build_model.cache_clear()
            analysis.reference_table.cache_clear()
            records = [r.to_dict() for r in grade_class(folder, edition, tmp_path / f"out-{jobs}-{run}", jobs=jobs)]
            assert len(records) == copies
            bad = [(r["student"], r["status"], r["total"], r["reason"]) for r in records
                   if r["status"] != "graded" or r["total"] != r["max"]]
            assert bad == [], f"jobs {jobs}, run {run}"
            assert all(r.get("attempts", 1) in (1, 2) for r in records), f"jobs {jobs}, run {run}"
            for r in records:
                if first is None:
                    first = without_timings(r)
                assert without_timings(r) == first, f"jobs {jobs}, run {run}, {r['student']}"
