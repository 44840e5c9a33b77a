"""Benchmark: the similarity report on a labelled corpus, beside copydetect and Dolos, and at scale.

    python3 benchmarks/bench_similarity.py corpus [--honest N] [--seed S] [--top K] [--dolos-prefix DIR]
    python3 benchmarks/bench_similarity.py scale [--students N]

``corpus`` builds the labelled corpus of tests/kit/similarity_corpus.py (honest students writing
genuinely different correct functions, one copy per disguise, two copies with every disguise,
partial copies of one function) and prints, for the kit, for copydetect and for Dolos, each at its
default settings (the skeleton given to copydetect as boilerplate, as MOSS is given its base file,
and to Dolos as its template code; a notebook handed to both as the code the kit reads from it,
since neither reads a notebook itself): precision and recall of the top-K pairs, false pairs in the
top 20, the rank of every copy and of the best honest pair; last, a table of each copy's rank per
tool by how it was disguised, and whether the kit ranks every copy at least as high as each other
tool. Both are optional and left out, with the reason printed, where they cannot run. copydetect is
a benchmark-only dependency: ``pip install -e '.[bench]'``. Dolos runs on Node.js: the benchmark
installs @dodona/dolos-lib (DOLOS below) with npm into a temporary folder, or uses the folder
``--dolos-prefix`` names, and runs it through benchmarks/dolos_pairs.mjs, Dolos ranking pairs by its
similarity (the share of both files' fingerprints the two have in common).

``scale`` writes N course-style submissions (the corpus above with N - 13 honest students, one in
50 of them broken: a syntax error in ``play``, an empty file, a file that is not Python) and times
``similarity.compare`` on them, then ``hogkit similar`` on them as a process of its own (target:
1,000 in under a minute on 2 cores). Printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
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
from tests.kit.similarity_corpus import (  # noqa: E402
    BROKEN,
    DISGUISES,
    EDITION,
    ROOT,
    Corpus,
    break_function,
    build,
)

SKELETON = ROOT / "skeleton" / EDITION / "hog.py"
DOLOS = "@dodona/dolos-lib@3.5.1"  # the library behind the Dolos command line, as the benchmark measured it
Ranking = list[tuple[str, str, float]]  # (a, b, score), best first


def kit_ranking(corpus: Corpus) -> Ranking:
    report = similarity.compare(corpus.folder, load_edition("boar_brawl"))
    copies = sum(1 for p in report.listed if corpus.is_copy(p.a, p.b))
    print(f"hogkit similar: the page lists {len(report.listed)} pairs standing out, {copies} of them copies")
    return [(p.a, p.b, p.score) for p in report.pairs]


class Unavailable(Exception):
    """A tool compared with the kit cannot run here; the message says why."""


def flat_copy(corpus: Corpus, flat: Path) -> Path:
    """The corpus in FLAT as .py files, a notebook as the kit reads it: its code cells, joined
    (copydetect and Dolos read no notebook themselves)."""
    flat.mkdir()
    for path in corpus.folder.iterdir():
        if path.suffix == ".ipynb":
            text, _ = notebook_source(path.read_bytes(), path.name)
            (flat / (path.stem + ".py")).write_text(text or "", encoding="utf-8")
        else:
            shutil.copy(path, flat / path.name)
    return flat


def copydetect_ranking(flat: Path, args: argparse.Namespace) -> tuple[Ranking, float]:
    """copydetect's pairs by the larger of its two scores, and the seconds it ran."""
    try:
        from copydetect import CopyDetector
    except ImportError as missing:
        raise Unavailable("copydetect is not installed: pip install -e '.[bench]'") from missing
    started = time.monotonic()
    detector = CopyDetector(test_dirs=[str(flat)], extensions=["py"], display_t=0.0, silent=True, autoopen=False,
                            boilerplate_dirs=[str(SKELETON.parent)])
    detector.run()
    pairs = [(Path(f1).stem, Path(f2).stem, max(s1, s2)) for s1, s2, f1, f2, *_ in detector.get_copied_code_list()]
    return sorted(pairs, key=lambda p: -p[2]), time.monotonic() - started


def dolos_install(work: Path, prefix: Path | None) -> Path:
    """The npm prefix holding DOLOS: PREFIX as given, or a folder of WORK it is installed into."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        raise Unavailable(f"{' and '.join(missing)} not found (Dolos runs on Node.js)")
    if prefix is None:
        prefix, started = work / "dolos", time.monotonic()
        done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(prefix), DOLOS],
                              capture_output=True, text=True, check=False)
        if done.returncode:
            raise Unavailable(f"npm install {DOLOS} failed (exit {done.returncode}): {_last_line(done.stderr)}")
        print(f"\nDolos: {DOLOS} installed into a temporary folder in {time.monotonic() - started:.0f} s")
    if not (prefix / "node_modules" / DOLOS.rpartition("@")[0]).is_dir():
        raise Unavailable(f"{DOLOS.rpartition('@')[0]} is not installed in {prefix}")
    return prefix


def _last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def dolos_ranking(flat: Path, args: argparse.Namespace) -> tuple[Ranking, float]:
    """Dolos' pairs by its similarity, through dolos_pairs.mjs (default settings, the language set
    to Python, the skeleton given as its template code), and the seconds it ran (not installed)."""
    prefix = dolos_install(flat.parent, args.dolos_prefix)
    started = time.monotonic()
    files = sorted(str(path) for path in flat.iterdir())
    done = subprocess.run(["node", str(Path(__file__).with_name("dolos_pairs.mjs")), str(prefix), str(SKELETON),
                           *files], capture_output=True, text=True, check=False)
    if done.returncode:
        raise Unavailable(f"Dolos failed (exit {done.returncode}): {_last_line(done.stderr)}")
    found = json.loads(done.stdout)
    for warning in found["warnings"]:
        print(f"Dolos warns: {warning}")
    pairs = [(Path(p["left"]).stem, Path(p["right"]).stem, float(p["similarity"])) for p in found["pairs"]]
    return sorted(pairs, key=lambda p: -p[2]), time.monotonic() - started


Placed = tuple[int, int] | None  # a copy's rank in a ranking and the honest pairs above it; None: not ranked


def summary(name: str, ranking: Ranking, corpus: Corpus, top: int) -> list[Placed]:
    """Print NAME's RANKING against the labels; where each copy of the corpus stands in it, in its order."""
    labels = [corpus.is_copy(a, b) for a, b, _ in ranking]
    copies = len(corpus.copies)
    hits = sum(labels[:top])
    honest_first = next((k + 1 for k, copy in enumerate(labels) if not copy), None)
    print(f"\n{name}: {len(ranking)} pairs ranked")
    print(f"  top {top}: precision {hits / top:.2f}, recall {hits / copies:.2f}; "
          f"false pairs in the top 20: {20 - sum(labels[:20])}")
    print(f"  best honest pair at rank {honest_first}")
    placed: list[Placed] = []
    for original, copy, how in corpus.copies:
        rank = next((k + 1 for k, (a, b, _) in enumerate(ranking) if {a, b} == {original, copy}), None)
        ahead = "above" if rank is not None and (honest_first is None or rank < honest_first) else "BELOW"
        print(f"  {how:70.70s} rank {rank}  ({ahead} every honest pair)")
        placed.append(None if rank is None else (rank, labels[:rank - 1].count(False)))
    return placed


def by_disguise(corpus: Corpus, placed: dict[str, list[Placed]]) -> None:
    """Print each copy's rank per tool by how it was disguised, with the honest pairs ranked above it,
    and where the kit (the first tool) places a copy lower than another tool does."""
    tools = list(placed)
    print("\nrank of each copy by its disguise (1 is the top; in brackets the honest pairs ranked above it; "
          "- not ranked at all)")
    print(f"  {'disguise':32s}" + "".join(f"{tool:>16s}" for tool in tools))
    for k, (_, _, how) in enumerate(corpus.copies):
        cells = "".join(f"{_cell(p[k]):>16}" for p in placed.values())
        print(f"  {_short(how):32s}{cells}")
    kit = placed[tools[0]]
    for tool in tools[1:]:
        for what, at in (("at least as high as", 0), ("below no more honest pairs than", 1)):
            worse = [f"{_short(how)} ({_text(kit[k], at)} against {_text(placed[tool][k], at)})"
                     for k, (_, _, how) in enumerate(corpus.copies) if _after(kit[k], placed[tool][k], at)]
            print(f"  {tools[0]} ranks every copy {what} {tool}: "
                  + ("yes" if not worse else f"NO, not at: {', '.join(worse)}"))


def _short(how: str) -> str:
    return "every disguise at once" if how == "+".join(DISGUISES) else how


def _cell(place: Placed) -> str:
    return "-" if place is None else f"{place[0]} ({place[1]})"


def _text(place: Placed, at: int) -> str:
    return "not ranked" if place is None else str(place[at])


def _after(place: Placed, other: Placed, at: int) -> bool:
    """PLACE is worse than OTHER by its element AT (not ranked is worst)."""
    return other is not None and (place is None or place[at] > other[at])


def run_corpus(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        corpus = build(Path(tmp) / "class", honest=args.honest, seed=args.seed)
        print(f"corpus (seed {args.seed}): {args.honest} honest students, {len(corpus.copies)} copies "
              f"({len(list(corpus.folder.iterdir()))} submissions)")
        started = time.monotonic()
        ranking = kit_ranking(corpus)
        placed = {"hogkit similar": summary(f"hogkit similar ({time.monotonic() - started:.1f} s)", ranking, corpus,
                                           args.top)}
        flat = flat_copy(corpus, Path(tmp) / "flat")
        others = [("copydetect", "default settings, the skeleton as boilerplate", copydetect_ranking),
                  ("Dolos", "default settings, language python, the skeleton as template", dolos_ranking)]
        for tool, settings, ranker in others:
            try:
                ranking, seconds = ranker(flat, args)
                placed[tool] = summary(f"{tool}, {settings} ({seconds:.1f} s)", ranking, corpus, args.top)
            except Unavailable as why:
                print(f"\n{tool} left out: {why}")
        by_disguise(corpus, placed)
        print(f"\n{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")


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
    c.add_argument("--dolos-prefix", type=Path, metavar="DIR",
                   help=f"a folder where `npm install --prefix DIR {DOLOS}` was run (default: install it anew "
                        "into a temporary folder)")
    s = sub.add_parser("scale")
    s.add_argument("--students", type=int, default=1000)
    s.add_argument("--seed", type=int, default=7)
    s.add_argument("--broken-every", type=int, default=50, help="one honest student in this many broken")
    args = parser.parse_args()
    (run_corpus if args.what == "corpus" else run_scale)(args)


if __name__ == "__main__":
    main()
