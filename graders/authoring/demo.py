"""The demo class: submissions derived from an edition's marked solution, for a first look.

Contract: every submission is made by :func:`graders.editions.markers.strip_solutions` from the reference,
keeping a chosen set of problems solved: the reference itself, the skeleton, each "phases up to
N done" stage and the first half of the first phase. Nothing here names an edition or a problem.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from graders.editions.edition import Edition
from graders.editions.markers import strip_solutions


def demo_stages(edition: Edition) -> list[tuple[str, set[str]]]:
    """(name, labels of the problems kept solved) for each demo submission, from the manifest alone."""
    everything = {p.label for p in edition.problems}
    stages: list[tuple[str, set[str]]] = [("reference", everything), ("skeleton", set())]
    first = [p.label for p in edition.problems if p.phase == edition.phases[0].number]
    half = first[: (len(first) + 1) // 2]
    stages.append((f"problems {half[0]}-{half[-1]} done", set(half)))
    done: set[str] = set()
    for ph in edition.phases[:-1]:
        done |= {p.label for p in edition.problems if p.phase == ph.number}
        stages.append((f"phase {ph.number} done" if ph is edition.phases[0] else f"phases 1-{ph.number} done",
                       set(done)))
    return stages


def build_demo_class(edition: Edition, folder: Path | None = None) -> list[tuple[str, Path]]:
    """Write one folder per demo submission (each holding the submission file); return them in order."""
    folder = folder or Path(tempfile.mkdtemp(prefix="hogkit-demo-"))
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    made = []
    for name, keep in demo_stages(edition):
        target = folder / name.replace(" ", "_")
        target.mkdir(parents=True, exist_ok=True)
        (target / edition.submission).write_text(strip_solutions(source, keep), encoding="utf-8")
        made.append((name, target))
    return made
