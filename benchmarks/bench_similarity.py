"""Benchmark: the similarity report on a labelled corpus, beside copydetect, and at scale.

    python3 benchmarks/bench_similarity.py corpus [--honest N] [--seed S] [--top K]
    python3 benchmarks/bench_similarity.py scale [--students N]

``corpus`` builds the labelled corpus of tests/kit/similarity_corpus.py (honest students writing
genuinely different correct functions, one copy per disguise, two copies with every disguise,
partial copies of one function) and prints, for the kit and for copydetect with its default
settings (the skeleton given as boilerplate, as MOSS is given its base file; a notebook handed to
it as the code the kit reads from it, since it reads no notebook itself): precision and recall of the top-K pairs, false
pairs in the top 20, the rank of every copy and of the best honest pair. copydetect is an optional
benchmark-only dependency: ``pip install -e '.[bench]'``.

``scale`` writes N course-style submissions (the corpus above with N - 13 honest students, one in
50 of them broken: a syntax error in ``play``, an empty file, a file that is not Python) and times
``similarity.compare`` on them, then ``hogkit similar`` on them as a process of its own (target:
1,000 in under a minute on 2 cores). Printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from graders.courses import similarity  # noqa: E402
from graders.courses.classroom import print_progress  # noqa: E402
from graders.editions.edition import load_edition  # noqa: E402
from graders.scoring.submissions import notebook_source  # noqa: E402
from tests.kit.similarity_corpus import BROKEN, ROOT, Corpus, break_function, build  # noqa: E402


def kit_ranking(corpus: Corpus) -> list[tuple[str, str, float]]:
    report = similarity.compare(corpus.folder, load_edition("boar_brawl"))
    copies = sum(1 for p in report.listed if corpus.is_copy(p.a, p.b))
    print(f"hogkit similar: the page lists {len(report.listed)} pairs standing out, {copies} of them copies")
    return [(p.a, p.b, p.score) for p in report.pairs]


def copydetect_ranking(corpus: Corpus, work: Path) -> list[tuple[str, str, float]]:
    from copydetect import CopyDetector

    flat = work / "flat"
    flat.mkdir()
    for path in corpus.folder.iterdir():  # a notebook as the kit reads it: its code cells, joined
        if path.suffix == ".ipynb":
            text, _ = notebook_source(path.read_bytes(), path.name)
            (flat / (path.stem + ".py")).write_text(text or "", encoding="utf-8")
        else:
            shutil.copy(path, flat / path.name)
    detector = CopyDetector(test_dirs=[str(flat)], extensions=["py"], display_t=0.0, silent=True, autoopen=False,
                            boilerplate_dirs=[str(ROOT / "skeleton" / "boar_brawl")])
    detector.run()
    pairs = [(Path(f1).stem, Path(f2).stem, max(s1, s2)) for s1, s2, f1, f2, *_ in detector.get_copied_code_list()]
    return sorted(pairs, key=lambda p: -p[2])


def summary(name: str, ranking: list[tuple[str, str, float]], corpus: Corpus, top: int) -> None:
    labels = [corpus.is_copy(a, b) for a, b, _ in ranking]
    copies = len(corpus.copies)
    hits = sum(labels[:top])
    honest_first = next((k + 1 for k, copy in enumerate(labels) if not copy), None)
    print(f"\n{name}: {len(ranking)} pairs ranked")
    print(f"  top {top}: precision {hits / top:.2f}, recall {hits / copies:.2f}; "
          f"false pairs in the top 20: {20 - sum(labels[:20])}")
    print(f"  best honest pair at rank {honest_first}")
    for original, copy, how in corpus.copies:
        rank = next((k + 1 for k, (a, b, _) in enumerate(ranking) if {a, b} == {original, copy}), None)
        ahead = "above" if rank is not None and (honest_first is None or rank < honest_first) else "BELOW"
        print(f"  {how:70.70s} rank {rank}  ({ahead} every honest pair)")


def run_corpus(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        corpus = build(Path(tmp) / "class", honest=args.honest, seed=args.seed)
        print(f"corpus: {args.honest} honest students, {len(corpus.copies)} copies "
              f"({len(list(corpus.folder.iterdir()))} submissions)")
        started = time.monotonic()
        ranking = kit_ranking(corpus)
        summary(f"hogkit similar ({time.monotonic() - started:.1f} s)", ranking, corpus, args.top)
        try:
            started = time.monotonic()
            ranking = copydetect_ranking(corpus, Path(tmp))
            summary(f"copydetect, default settings ({time.monotonic() - started:.1f} s)", ranking, corpus, args.top)
        except ImportError:
            print("\ncopydetect is not installed: pip install -e '.[bench]'")


def _cpu() -> float:
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def run_scale(args: argparse.Namespace) -> None:
    """Time the report of a class of ARGS.students: ``similarity.compare`` in this process, then
    ``hogkit similar`` as an instructor runs it (a process of its own, writing the report)."""
    with tempfile.TemporaryDirectory() as tmp:
        made = time.monotonic()
        corpus = build(Path(tmp) / "class", honest=args.students - 13, seed=args.seed)
        broken: dict[str, str] = {}
        for k, name in enumerate(sorted(corpus.honest)[::args.broken_every]):  # 1 in BROKEN_EVERY broken
            how = broken[name] = BROKEN[k % len(BROKEN)]
            path = corpus.folder / f"{name}.py"
            text = path.read_text(encoding="utf-8")
            path.write_text({"syntax error": break_function(text, "play"), "empty": "",
                             "not Python": "My project is in the attached PDF.\n"}[how], encoding="utf-8")
        count = len(list(corpus.folder.iterdir()))
        print(f"{count} submissions written in {time.monotonic() - made:.1f} s ({len(broken)} broken: a syntax "
              f"error, empty, not Python)", file=sys.stderr)
        started, cpu = time.monotonic(), _cpu()
        report = similarity.compare(corpus.folder, load_edition("boar_brawl"), progress=print_progress)
        seconds, cpu = time.monotonic() - started, _cpu() - cpu
        similarity.write_report(Path(tmp), report)
        written = time.monotonic() - started
        listed = report.listed
        copies = sum(1 for p in listed if corpus.is_copy(p.a, p.b))
        print(f"compare: {count} submissions in {seconds:.1f} s ({written:.1f} s with the report written), "
              f"{cpu:.1f} s of processor time (this process and its workers) on {os.cpu_count()} cores "
              f"with a load average of {os.getloadavg()[0]:.1f}; {len(listed)} pairs stand out "
              f"({copies} of them copies, of {len(corpus.copies)}), {len(report.pairs)} in the CSV; "
              f"{len(report.unreadable)} with nothing to compare")
        out = Path(tmp) / "out"
        started, cpu = time.monotonic(), _cpu()
        done = subprocess.run([sys.executable, "-m", "graders.cli", "similar", str(corpus.folder), "--out", str(out),
                               "--edition", "boar_brawl"], capture_output=True, text=True, check=False)
        seconds, cpu = time.monotonic() - started, _cpu() - cpu
        print(f"hogkit similar: exit {done.returncode} in {seconds:.1f} s of wall time, {cpu:.1f} s of processor "
              f"time (with its workers), load average {os.getloadavg()[0]:.1f}: {done.stdout.strip()}")
        if done.returncode:
            print(done.stderr[-2000:], file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    c = sub.add_parser("corpus")
    c.add_argument("--honest", type=int, default=40)
    c.add_argument("--seed", type=int, default=7)
    c.add_argument("--top", type=int, default=13)
    s = sub.add_parser("scale")
    s.add_argument("--students", type=int, default=1000)
    s.add_argument("--seed", type=int, default=7)
    s.add_argument("--broken-every", type=int, default=50, help="one honest student in this many broken")
    args = parser.parse_args()
    (run_corpus if args.what == "corpus" else run_scale)(args)


if __name__ == "__main__":
    main()
