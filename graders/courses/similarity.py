"""Similarity: which students share code of their own, ranked, with the evidence a TA can check.

Contract: :func:`compare` fingerprints every submission of a class folder once (and of any
past terms' folders given as references) with :mod:`graders.courses.fingerprints`, one unit per function
the student wrote: each problem's function(s) from the edition's manifest and any helper the
skeleton does not have. The skeleton's own functions, statements and docstrings never count (the
skeleton is made from the marked solution, as ``hogkit build`` makes it). Every k-gram hash is
weighted by how rare it is: a hash held by ``n`` students (this class and the references) weighs
``1 / (n - 1) ** 2``, so code that two students alone share counts fully and a solution many wrote
counts almost nothing; hashes held by more than :func:`common_limit` students are not compared at
all. Pairs are found through an inverted index (hash -> holders), never by comparing all pairs.

A pair's score is the weight of the hashes its two students share; partners on the course's
roster are never paired, nor two past students. The report (:class:`Report`) ranks the pairs and
explains each: per function, both sides' lines with the matched ones marked, how many other
students hold most of that match, and the hand-in times (who handed in first). It is evidence for
a person to weigh: it never changes a grade, and says so. :func:`render_csv` and
:func:`render_html` are pure; :func:`write_report` writes ``similarity.csv`` and ``similarity.html``.

Bounded: fingerprinting is linear in a submission's size, and one submission's fingerprints have a
budget of ``FINGERPRINT_SECONDS`` (:mod:`graders.core.budget`): a submission past it is left out of
the comparison, and one with more than :data:`MOST_HELPERS` helpers is compared on its first ones,
each with a note in the report saying so (:attr:`Report.notes`). A pair is explained from the
index (the hashes both hold), never by comparing every function of one with every function of
the other, and the lines a match marks are found from its spans merged, once each.
"""

from __future__ import annotations

import ast
import dataclasses
import html
import math
import os
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from graders.core import messages
from graders.core.budget import FINGERPRINT_SECONDS, Budget, OverBudget
from graders.core.storage import write_atomically
from graders.core.syntax import parse_module
from graders.core.writers import csv_text
from graders.courses import fingerprints
from graders.courses.course import Roster, Setup, shown_time
from graders.courses.handins import EXPORT_METADATA, class_handins, read_export
from graders.editions.edition import Edition
from graders.editions.markers import strip_solutions
from graders.scoring.submissions import discover

CSV_NAME, HTML_NAME = "similarity.csv", "similarity.html"
MIN_SCORE = 6.0  # a pair below this shares too little rare code to list (about six rare k-grams)
SHOWN = 40  # pairs explained in full in the HTML page (the CSV lists every pair over MIN_SCORE)
HELPER = "helper"
POWER = 2.0  # how steeply a hash's weight falls as more students hold it (measured: 1, 2, 3)
SMALLEST = 20
LISTED = 300  # pairs listed at most, best first
PARALLEL = 64  # from this many submissions on, fingerprinted in a process per core
CHUNK = 25  # submissions sent to a worker at once
MOST_HELPERS = 200  # helpers of one submission compared (a hog.py has a few); the manifest's functions always are
NO_VERDICT = ("This report ranks pairs of students by how much rare code of their own they share and shows "
              "why. It is evidence for a person to weigh, not a finding: it never changes a grade. Code many "
              "students wrote alike, the skeleton's own code and declared partners are left out.")
Progress = Callable[[int, int, float, str], None]  # (done, total, started, what is counted)


@dataclass(frozen=True)
class Holder:
    """One submission's functions, fingerprinted."""

    student: str
    term: str  # "" for this class; the reference folder's name for a past term
    units: tuple[tuple[str, fingerprints.Unit], ...]  # (problem label or HELPER, unit)
    handed_in: datetime | None = None
    note: str = ""  # why it was left out of the comparison, or compared in part only


@dataclass(frozen=True)
class Side:
    function: str
    problem: str
    first: int  # the first line's number
    lines: tuple[tuple[str, bool], ...]  # (line, matched)


@dataclass(frozen=True)
class Match:
    """Shared code of one function of each student."""

    a: Side
    b: Side
    weight: float
    others: int  # other students holding at least half of this match


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    term_b: str  # "" when B is in this class
    score: float
    share_a: float  # how much of A's own code (its k-grams) B shares
    share_b: float
    matches: tuple[Match, ...]
    time_a: str = ""
    time_b: str = ""
    first: str = ""  # who handed in first ("" when not known or at once)


@dataclass(frozen=True)
class Report:
    edition: str
    students: int
    references: int
    unreadable: tuple[str, ...]  # students with nothing that parses
    pairs: tuple[Pair, ...]
    seconds: float
    notes: tuple[str, ...] = ()  # submissions left out, or compared in part, and why (see the module's contract)


COUNTED = "submissions fingerprinted"


@dataclass(frozen=True)
class Plan:
    """What fingerprinting a submission needs to know of the edition, as plain data (it goes to the
    worker processes, where an :class:`~graders.editions.edition.Edition` cannot be sent)."""

    known: frozenset[str]  # the names the skeleton defines
    statements: dict[str, frozenset[str]]  # each skeleton function's own statements
    asked: frozenset[str]  # the functions students write (the manifest's)
    labels: dict[str, str]  # an asked function -> its problem's label


def provided(edition: Edition) -> Plan:
    """What the skeleton gives: the names it defines, each function's own statements, and the
    names of the functions students write (the manifest's), with their problems' labels."""
    solution = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    tree = parse_module(strip_solutions(solution))
    names = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    names |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    names |= {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
    labels = {f: p.label for p in edition.problems for f in p.functions}
    return Plan(frozenset(names), fingerprints.statement_keys(tree, names), frozenset(labels), labels)


def holder(student: str, source: str | None, edition: Edition | Plan, term: str = "",
           seconds: float | None = None) -> Holder:
    """STUDENT's functions of their own in SOURCE: the manifest's and helpers the skeleton lacks
    (the first :data:`MOST_HELPERS` of those; a function a syntax error breaks is left out, and a
    note names it). A source whose fingerprints take more than SECONDS (default
    ``FINGERPRINT_SECONDS``) has none, and a note saying so."""
    plan = edition if isinstance(edition, Plan) else provided(edition)
    known, asked = plan.known, plan.asked
    units = []
    try:
        found = fingerprints.read(source or "", known, plan.statements,
                                  lambda name: name in asked or name not in known,
                                  Budget(FINGERPRINT_SECONDS if seconds is None else seconds))
    except OverBudget as over:
        return Holder(student, term, (), note=messages.similarity_too_long(student, over.seconds))
    helpers = 0
    for unit in found.units:
        if unit.name in asked:
            units.append((plan.labels[unit.name], unit))
        elif unit.name not in known:
            helpers += 1
            units += [(HELPER, unit)] if helpers <= MOST_HELPERS else []
    notes = [messages.similarity_syntax_error(student, found.broken)] if found.broken else []
    notes += [messages.similarity_helpers_cut(student, helpers, MOST_HELPERS)] if helpers > MOST_HELPERS else []
    return Holder(student, term, tuple(units), note=" ".join(notes))


def common_limit(holders: int) -> int:
    """Hashes held by more students than this are common code: never compared."""
    return max(8, min(holders // 3, 40))


def weight(holders_of_hash: int, holders: int) -> float:
    """How much a hash held by HOLDERS_OF_HASH of HOLDERS students weighs: 1 for two, falling with
    the log of how common it is, to nothing for code everyone wrote. A class smaller than
    :data:`SMALLEST` is weighed as one that size: two students alike in a class of three prove little
    about rarity either way."""
    size = max(holders, SMALLEST)
    return max(0.0, math.log(size / max(2, holders_of_hash)) / math.log(size / 2)) ** POWER


class Index:
    """Hash -> (holder, unit) postings, built once; pairs scored by walking it."""

    def __init__(self, holders: Sequence[Holder]) -> None:
        self.holders = list(holders)
        postings: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for i, h in enumerate(self.holders):
            for u, (_, unit) in enumerate(h.units):
                for digest in unit.hashes:
                    postings[digest].append((i, u))
        self.postings = postings
        self.count = {d: len({i for i, _ in p}) for d, p in postings.items()}
        self.limit = common_limit(len(self.holders))

    def scores(self, skip: Callable[[int, int], bool]) -> dict[tuple[int, int], float]:
        """Every pair of holders (i < j) sharing a compared hash, with the weight they share."""
        totals: dict[tuple[int, int], float] = defaultdict(float)
        for digest, post in self.postings.items():
            n = self.count[digest]
            if n < 2 or n > self.limit:
                continue
            w = weight(n, len(self.holders))
            who = sorted({i for i, _ in post})
            for x, i in enumerate(who):
                for j in who[x + 1:]:
                    if not skip(i, j):
                        totals[(i, j)] += w
        return totals


def compare(folder: Path, edition: Edition, references: Sequence[Path] = (), setup: Setup | None = None,
            progress: Progress | None = None, skip: Path | None = None) -> Report:
    """The similarity report of the class in FOLDER (past terms in REFERENCES), partners from SETUP."""
    started = time.monotonic()
    plan = provided(edition)
    entries = discover(folder, edition.submission, skip=skip)
    times = handin_times(folder, entries, setup)
    terms = [("", entries), *((r.name, discover(r, edition.submission)) for r in references)]
    jobs = [(e.student, e.source, term) for term, found in terms for e in found]
    holders = [dataclasses.replace(h, handed_in=times.get(h.student) if not h.term else None)
               for h in fingerprint_all(jobs, plan, progress, started)]
    unreadable = tuple(h.student for h in holders if not h.term and not h.units and not h.note)
    index = Index(holders)
    roster = setup.roster if setup is not None else Roster()
    totals = index.scores(lambda i, j: _not_compared(holders[i], holders[j], roster))
    ranked = sorted(((s, i, j) for (i, j), s in totals.items() if s >= MIN_SCORE),
                    key=lambda t: (-t[0], t[1], t[2]))[:LISTED]
    zone = setup.course.zone if setup is not None else ZoneInfo("UTC")
    pairs = tuple(explain(index, i, j, s, zone) for s, i, j in ranked)
    return Report(edition.name, len(entries), len(holders) - len(entries), unreadable, pairs,
                  time.monotonic() - started, tuple(h.note for h in holders if h.note))


def fingerprint_all(jobs: Sequence[tuple[str, str | None, str]], plan: Plan, progress: Progress | None,
                    started: float, workers: int | None = None) -> list[Holder]:
    """Each (student, source, term) of JOBS fingerprinted, in order: in WORKERS processes (default:
    one per core) when there are :data:`PARALLEL` or more (fingerprinting is pure Python, so threads
    would share one core). Only plain data crosses to the workers: the jobs, the PLAN, the holders."""
    done: list[Holder] = []
    workers = workers or os.cpu_count() or 1
    if len(jobs) < PARALLEL or workers < 2:
        for student, source, term in jobs:
            done.append(holder(student, source, plan, term))
            if progress:
                progress(len(done), len(jobs), started, COUNTED)
        return done
    chunks = [jobs[k:k + CHUNK] for k in range(0, len(jobs), CHUNK)]
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(_fingerprint_chunk, chunks, [plan] * len(chunks)):
            done += part
            if progress:
                progress(len(done), len(jobs), started, COUNTED)
    return done


def _fingerprint_chunk(jobs: Sequence[tuple[str, str | None, str]], plan: Plan) -> list[Holder]:
    return [holder(student, source, plan, term) for student, source, term in jobs]


def _not_compared(a: Holder, b: Holder, roster: Roster) -> bool:
    """Two past students, or partners on the roster: never a pair."""
    if a.term and b.term:
        return True
    if a.term or b.term:
        return False
    return partners(roster, a.student, b.student)


def partners(roster: Roster, a: str, b: str) -> bool:
    found = roster.find(a)
    mate = roster.partner_of(found) if found is not None else None
    return mate is not None and mate.id == b


def handin_times(folder: Path, entries: Sequence, setup: Setup | None) -> dict[str, datetime]:
    """Each entry's hand-in time: an export's metadata, ``times.csv``, else its file's time."""
    zone = setup.course.zone if setup is not None else ZoneInfo("UTC")
    found: dict[str, datetime] = {}
    if (folder / EXPORT_METADATA).is_file():
        found = {h.key: h.time for h in read_export(folder, zone).handins}
    rest = [(e.student, e.path) for e in entries if e.student not in found]
    found.update({h.key: h.time for h in class_handins(folder, rest, zone)})
    return found


def explain(index: Index, i: int, j: int, score: float, zone: ZoneInfo) -> Pair:
    """The evidence for the pair (I, J): each pair of functions sharing compared hashes."""
    a, b = index.holders[i], index.holders[j]
    matches = []
    mine_a, mine_b = (sum(len(u.hashes) for _, u in h.units) for h in (a, b))
    shared_a = shared_b = 0
    for (u, v), common in sorted(shared_units(index, i, j).items()):
        (ua_label, ua), (ub_label, ub) = a.units[u], b.units[v]
        w = math.fsum(weight(index.count[d], len(index.holders)) for d in common)
        shared_a += len(common)
        shared_b += len(common)
        matches.append(Match(_side(ua, ua_label, common), _side(ub, ub_label, common), w,
                             _others(index, common, {i, j})))
    matches.sort(key=lambda m: (-m.weight, m.a.first))
    when_a, when_b = a.handed_in, b.handed_in
    first = ""
    if when_a is not None and when_b is not None and when_a != when_b:
        first = a.student if when_a < when_b else b.student
    return Pair(a.student, b.student, b.term, round(score, 2), min(1.0, shared_a / max(1, mine_a)),
                min(1.0, shared_b / max(1, mine_b)), tuple(m for m in matches if m.weight >= 0.5) or tuple(matches[:1]),
                shown_time(when_a, zone) if when_a else "", shown_time(when_b, zone) if when_b else "", first)


def shared_units(index: Index, i: int, j: int) -> dict[tuple[int, int], list[int]]:
    """{(a function of holder I, a function of holder J): the compared hashes both hold}, from the
    index: each of I's hashes looked up once, never every function of one against every one of the other."""
    found: dict[tuple[int, int], list[int]] = defaultdict(list)
    for u, (_, unit) in enumerate(index.holders[i].units):
        for digest in unit.hashes:
            if 2 <= index.count[digest] <= index.limit:
                for h, v in index.postings[digest]:
                    if h == j:
                        found[(u, v)].append(digest)
    return found


def _side(unit: fingerprints.Unit, label: str, common: Sequence[int]) -> Side:
    """UNIT's lines, each marked when a k-gram of COMMON spans it (and the normal form kept it): the
    spans merged, so each line is looked at once however many spans hold it."""
    marked: set[int] = set()
    done = 0  # every line up to this one is decided
    for low, high in sorted(unit.hashes[d] for d in common):
        marked.update(n for n in range(max(low, done + 1), high + 1) if n in unit.live)
        done = max(done, high)
    lines = tuple((text, unit.first + n in marked) for n, text in enumerate(unit.lines))
    return Side(unit.name, label, unit.first, lines)


def _others(index: Index, common: Sequence[int], pair: set[int]) -> int:
    """How many other students hold at least half of the hashes COMMON."""
    held: dict[int, int] = defaultdict(int)
    for d in common:
        for i in {i for i, _ in index.postings[d]} - pair:
            held[i] += 1
    return sum(1 for i, n in held.items() if 2 * n >= len(common) and not index.holders[i].term)


# -- writing the report ---------------------------------------------------------------------------------

CSV_COLUMNS = ("rank", "student a", "student b", "past term of b", "score", "share of a", "share of b",
               "functions", "most other students sharing a match", "handed in a", "handed in b", "first")


def render_csv(report: Report) -> str:
    rows: list[Sequence[object]] = [CSV_COLUMNS]
    for rank, p in enumerate(report.pairs, 1):
        functions = " ".join(sorted({m.a.function for m in p.matches} | {m.b.function for m in p.matches}))
        rows.append((rank, p.a, p.b, p.term_b, f"{p.score:.2f}", f"{p.share_a:.2f}", f"{p.share_b:.2f}", functions,
                     max((m.others for m in p.matches), default=0), p.time_a, p.time_b, p.first))
    return csv_text(rows)


def write_report(out: Path, report: Report) -> None:
    write_atomically(out / CSV_NAME, render_csv(report))
    write_atomically(out / HTML_NAME, render_html(report))


STYLE = """body{font-family:sans-serif;margin:1.5em;max-width:110em}table{border-collapse:collapse}
td,th{border:1px solid #bbb;padding:.2em .5em;text-align:left;vertical-align:top}.verdict{background:#fff6d5;
padding:.6em;border:1px solid #d9c36a}.sides{display:grid;grid-template-columns:1fr 1fr;gap:1em}
pre{margin:0;font-size:.85em;background:#fafafa;border:1px solid #ddd;padding:.3em;overflow-x:auto}
.m{background:#ffd9d9;display:block}.d{color:#666;display:block}.d::before{content:"\\2260 ";color:#999}
.m::before{content:"= ";color:#a33}section{border-top:2px solid #999;margin-top:1.5em}"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def render_html(report: Report) -> str:
    """The page: the ranked pairs, then each of the first :data:`SHOWN` explained. Everything a
    student wrote is escaped; the page runs no script."""
    head = (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            f"<title>Similarity: {_e(report.edition)}</title><style>{STYLE}</style></head><body>")
    parts = [head, f"<h1>Similarity across the class ({_e(report.edition)})</h1>",
             f"<p class='verdict' id='no-verdict'>{_e(NO_VERDICT)}</p>",
             f"<p>{report.students} submissions compared, with {report.references} from past terms; "
             f"{len(report.pairs)} pairs listed (a score of at least {MIN_SCORE:g}; {LISTED} at most), those "
             f"sharing the most rare code of their own first; the first {SHOWN} are explained below. "
             f"The score adds up each shared fragment by its rarity: one held by these two students alone "
             f"counts 1, one held by three counts 1/4, one many students wrote counts almost nothing.</p>"]
    if report.unreadable:
        parts.append(f"<p>Nothing to compare (no function parses): {_e(', '.join(report.unreadable))}</p>")
    if report.notes:
        parts.append("<ul id='left-out'>" + "".join(f"<li>{_e(note)}</li>" for note in report.notes) + "</ul>")
    parts.append(_ranking(report.pairs))
    parts += [_pair_section(rank, p) for rank, p in enumerate(report.pairs[:SHOWN], 1)]
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _ranking(pairs: Sequence[Pair]) -> str:
    if not pairs:
        return "<p id='none'>No pair shares enough rare code to list.</p>"
    rows = ["<table id='ranking'><tr><th>rank</th><th>student</th><th>student</th><th>score</th>"
            "<th>share of each</th><th>functions</th><th>handed in first</th></tr>"]
    for rank, p in enumerate(pairs, 1):
        b = f"{p.b} ({p.term_b})" if p.term_b else p.b
        link = f"<a href='#pair-{rank}'>{rank}</a>" if rank <= SHOWN else str(rank)
        functions = ", ".join(sorted({m.a.function for m in p.matches}))
        rows.append(f"<tr><td>{link}</td><td>{_e(p.a)}</td><td>{_e(b)}</td><td>{p.score:.1f}</td>"
                    f"<td>{p.share_a:.0%} / {p.share_b:.0%}</td><td>{_e(functions)}</td>"
                    f"<td>{_e(p.first or 'not known')}</td></tr>")
    return "\n".join(rows) + "</table>"


def _pair_section(rank: int, p: Pair) -> str:
    b = f"{p.b} (past term {p.term_b})" if p.term_b else p.b
    times = (f"<p>Handed in: {_e(p.a)} {_e(p.time_a or 'time not known')}; {_e(b)} {_e(p.time_b or 'time not known')}"
             f"{'; first: ' + _e(p.first) if p.first else ''}.</p>")
    parts = [f"<section id='pair-{rank}' class='pair'><h2>{rank}. {_e(p.a)} and {_e(b)}: score {p.score:.1f}</h2>",
             times]
    for m in p.matches:
        where = (f"{m.a.function} (problem {m.a.problem})" if m.a.function == m.b.function
                 else f"{m.a.function} and {m.b.function}")
        others = ("no other student holds most of it" if m.others == 0 else
                  f"{m.others} other students hold most of it" if m.others != 1 else "1 other student holds most of it")
        parts.append(f"<h3>{_e(where)}: weight {m.weight:.1f}; {_e(others)}</h3><div class='sides'>"
                     f"{_side_html(p.a, m.a)}{_side_html(b, m.b)}</div>")
    parts.append("</section>")
    return "\n".join(parts)


def _side_html(student: str, side: Side) -> str:
    lines = "".join(f"<span class='{'m' if matched else 'd'}'>{_e(text) or ' '}</span>"
                    for text, matched in side.lines)
    return (f"<div><p><b>{_e(student)}</b>: {_e(side.function)}, from line {side.first} "
            f"(= matched; &#8800; not matched: it differs, or is the skeleton's own)</p><pre>{lines}</pre></div>")
