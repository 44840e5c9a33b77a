"""Similarity: which students share code of their own, ranked, with the evidence a TA can check.

Contract: :func:`compare` fingerprints every submission of a class folder once (and of any
past terms' folders given as references) with :mod:`graders.courses.fingerprints`, one unit per
function the student wrote: each problem's function(s) from the edition's manifest and any helper the
skeleton does not have; a file with a syntax error is read function by function, as grading reads
it (the functions the error breaks are left out, and a note names them). The skeleton's own
functions, statements and docstrings never count (the skeleton is made from the marked solution,
as ``hogkit build`` makes it). Every k-gram hash is weighted by how rare it is: a hash held by
``n`` students (this class and the references) weighs ``1 / (n - 1)`` (:func:`weight`), so code
that two students alone share counts fully and a solution many wrote counts little; hashes held
by more than :func:`common_limit` students are not compared at all. Pairs are found through an
inverted index (hash -> holders), never by comparing all pairs.

A pair's score is the weight of the hashes its two students share over the number of distinct
hashes of the smaller hand-in (the one with fewer): 0 to 1, a rarity-weighted share of that
hand-in's own code, which depends on how many students hold each hash, not on how many the class
has (but for the common code :func:`common_limit` leaves out). Partners on the course's roster are never paired,
nor two past students. A pair stands out (:func:`stands_out`) when its score is at least
:data:`MIN_SHARE` and its robust z-score against every pair of this class with code to compare
(:class:`Spread`: the median, and 1.4826 times the median absolute deviation, or 1.2533 times
the mean one when that is 0) is at least :data:`CUTOFF`; in a class of fewer than
:data:`SMALLEST` such students there is no spread and the score alone decides. The report
(:class:`Report`) ranks the pairs, and the page lists those that stand out (:data:`SHORT` at
most) and says how they were chosen and what the score means; each is explained: per function,
both sides' lines with the matched ones marked and the skeleton's own shown as left out, how many
other students hold most of that match, and the hand-in times with where each came from (who
handed in first). It is evidence for a person to weigh: it never changes a grade, and says so.
:func:`render_csv` (every ranked pair, :data:`LISTED` at most, those below the line marked) and
:func:`render_html` are pure; :func:`write_report` writes ``similarity.csv`` and ``similarity.html``.

Bounded: fingerprinting is linear in a submission's size, and one submission's fingerprints have a
budget of ``FINGERPRINT_SECONDS`` (:mod:`graders.core.budget`): a submission past it is left out of
the comparison, and one with more than :data:`MOST_HELPERS` helpers is compared on its first ones,
each with a note in the report saying so (:attr:`Report.notes`). A pair is explained from the
index (the hashes both hold), never by comparing every function of one with every function of
the other, and the lines a match marks are found from its spans merged, once each. From
:data:`PARALLEL` submissions on, fingerprints are made in a process per core; only plain data
(the sources and a :class:`Plan`, never the edition) goes to them.
"""

from __future__ import annotations

import ast
import dataclasses
import html
import math
import os
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from graders.core.budget import FINGERPRINT_SECONDS, Budget, OverBudget
from graders.core.storage import write_atomically
from graders.core.syntax import parse_module
from graders.core.writers import csv_text
from graders.courses import fingerprints
from graders.courses import messages as courses_messages
from graders.courses.course import Roster
from graders.courses.handins import EXPORT_METADATA, FILE_TIME, class_handins, read_export
from graders.courses.policy import shown_time
from graders.courses.roster import Setup
from graders.editions.edition import Edition
from graders.editions.markers import strip_solutions
from graders.scoring.submissions import discover

CSV_NAME, HTML_NAME = "similarity.csv", "similarity.html"
CUTOFF = 3.5  # robust z-score from which a pair stands out (Iglewicz and Hoaglin's outlier rule)
MIN_SHARE = 0.10  # and a score of at least this: a pair sharing less is never listed however odd the class
SMALLEST = 10  # students with code to compare: fewer make no distribution; a pair is listed by MIN_SHARE alone
SHORT = 50  # pairs standing out listed on the page at most, best first
SHOWN = 40  # pairs explained in full in the HTML page
LISTED = 200  # pairs in the CSV at most, best first (those below the line too, marked)
HELPER = "helper"
PARALLEL = 64  # from this many submissions on, fingerprinted in a process per core
CHUNK = 25  # submissions sent to a worker at once
MOST_HELPERS = 200  # helpers of one submission compared (a hog.py has a few); the manifest's functions always are
NO_VERDICT = courses_messages.SIMILARITY_NO_VERDICT
Progress = Callable[[int, int, float, str], None]  # (done, total, started, what is counted)
MATCHED, GIVEN, OTHER = "m", "p", "d"  # how a line of a side is shown: matched, the skeleton's own, the rest


@dataclass(frozen=True)
class Holder:
    """One submission's functions, fingerprinted."""

    student: str
    term: str  # "" for this class; the reference folder's name for a past term
    units: tuple[tuple[str, fingerprints.Unit], ...]  # (problem label or HELPER, unit)
    handed_in: datetime | None = None
    note: str = ""  # why it was left out of the comparison, or compared in part only
    time_from: str = ""  # where HANDED_IN came from (a Handin's ``how``)


@dataclass(frozen=True)
class Side:
    function: str
    problem: str
    first: int  # the first line's number
    lines: tuple[tuple[str, str], ...]  # (line, MATCHED, GIVEN or OTHER)


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
    score: float  # 0 to 1: the rarity-weighted share of the smaller hand-in's own code that both hold
    z: float  # robust z-score of SCORE against the class's pairs (0 when the class is too small for one)
    stands_out: bool  # listed on the page (see :func:`stands_out`)
    share_a: float  # how much of A's own code (its k-grams) B holds too, whatever its rarity
    share_b: float
    matches: tuple[Match, ...]
    time_a: str = ""
    time_b: str = ""
    first: str = ""  # who handed in first ("" when not known or at once)


@dataclass(frozen=True)
class Spread:
    """The class's pair scores: their median and robust spread, over every pair of this class with
    code to compare (a pair sharing nothing scores 0)."""

    pairs: int
    median: float
    scale: float  # 1.4826 * the median absolute deviation (1.2533 * the mean one when that is 0); 0: none


@dataclass(frozen=True)
class Report:
    edition: str
    students: int
    references: int
    unreadable: tuple[str, ...]  # students with nothing that parses
    pairs: tuple[Pair, ...]  # best first: those standing out, then the next ones (at most LISTED in all)
    seconds: float
    notes: tuple[str, ...] = ()  # submissions left out, or compared in part, and why (see the module's contract)
    spread: Spread | None = None  # None: fewer than SMALLEST students with code to compare
    times: tuple[tuple[str, int], ...] = ()  # (where hand-in times came from, how many)
    comparable: int = 0  # students of this class with code to compare

    @property
    def listed(self) -> tuple[Pair, ...]:
        """The page's list: the pairs that stand out, at most SHORT."""
        return tuple(p for p in self.pairs if p.stands_out)[:SHORT]


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
        return Holder(student, term, (), note=courses_messages.similarity_too_long(student, over.seconds))
    helpers = 0
    for unit in found.units:
        if unit.name in asked:
            units.append((plan.labels[unit.name], unit))
        elif unit.name not in known:
            helpers += 1
            units += [(HELPER, unit)] if helpers <= MOST_HELPERS else []
    notes = [courses_messages.similarity_syntax_error(student, found.broken)] if found.broken else []
    notes += [courses_messages.similarity_helpers_cut(student, helpers, MOST_HELPERS)] if helpers > MOST_HELPERS else []
    return Holder(student, term, tuple(units), note=" ".join(notes))


def common_limit(holders: int) -> int:
    """Hashes held by more students than this are common code: never compared."""
    return max(8, min(holders // 3, 40))


def weight(holders_of_hash: int) -> float:
    """How much a hash held by HOLDERS_OF_HASH students weighs: ``1 / (n - 1)``, 1 when two students
    alone hold it, 1/2 for three, falling as more wrote it; the same in a class of any size."""
    return 1.0 / max(1, holders_of_hash - 1)


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
        self.own = [len({d for _, unit in h.units for d in unit.hashes}) for h in self.holders]

    def compared(self, digest: int) -> bool:
        return 2 <= self.count[digest] <= self.limit

    def scores(self, skip: Callable[[int, int], bool]) -> dict[tuple[int, int], float]:
        """Every pair of holders (i < j) sharing a compared hash, with its score: the weight they
        share over the smaller one's own hashes (0 to 1)."""
        totals: dict[tuple[int, int], float] = defaultdict(float)
        for digest, post in self.postings.items():
            n = self.count[digest]
            if n < 2 or n > self.limit:
                continue
            w = weight(n)
            who = sorted({i for i, _ in post})
            for x, i in enumerate(who):
                for j in who[x + 1:]:
                    if not skip(i, j):
                        totals[(i, j)] += w
        own = self.own
        return {(i, j): min(1.0, total / max(1, min(own[i], own[j]))) for (i, j), total in totals.items()}


def spread(scores: dict[tuple[int, int], float], holders: Sequence[Holder], roster: Roster) -> Spread | None:
    """The spread of the pair scores of this class's students with code to compare (past terms
    aside; partners are no pair); None when fewer than :data:`SMALLEST` have code to compare."""
    mine = [i for i, h in enumerate(holders) if not h.term and h.units]
    if len(mine) < SMALLEST:
        return None
    present = {holders[i].student for i in mine}
    mates = sum(1 for i in mine if (m := _mate(roster, holders[i].student)) is not None and m in present) // 2
    count = len(mine) * (len(mine) - 1) // 2 - mates
    values = [s for (i, j), s in scores.items() if not holders[i].term and not holders[j].term]
    values += [0.0] * max(0, count - len(values))
    middle = statistics.median(values)
    deviations = [abs(v - middle) for v in values]
    scale = 1.4826 * statistics.median(deviations) or 1.2533 * statistics.fmean(deviations)
    return Spread(count, middle, scale)


def stands_out(score: float, z: float, spread: Spread | None) -> bool:
    """Whether a pair is on the page's list: a score of at least :data:`MIN_SHARE` and, in a class
    with a spread, a robust z-score of at least :data:`CUTOFF`."""
    return score >= MIN_SHARE and (spread is None or z >= CUTOFF)


def z_score(score: float, spread: Spread | None) -> float:
    if spread is None:
        return 0.0
    if spread.scale == 0:  # every pair alike: none stands out, unless above them all
        return math.inf if score > spread.median else 0.0
    return (score - spread.median) / spread.scale


def compare(folder: Path, edition: Edition, references: Sequence[Path] = (), setup: Setup | None = None,
            progress: Progress | None = None, skip: Path | None = None, workers: int | None = None) -> Report:
    """The similarity report of the class in FOLDER (past terms in REFERENCES), partners from SETUP,
    fingerprinted in WORKERS processes (see :func:`fingerprint_all`)."""
    started = time.monotonic()
    plan = provided(edition)
    entries = discover(folder, edition.submission, skip=skip)
    times = handin_times(folder, entries, setup)
    terms = [("", entries), *((r.name, discover(r, edition.submission)) for r in references)]
    jobs = [(e.student, e.source, term) for term, found in terms for e in found]
    holders = [_timed(h, times) for h in fingerprint_all(jobs, plan, progress, started, workers)]
    unreadable = tuple(h.student for h in holders if not h.term and not h.units and not h.note)
    index = Index(holders)
    roster = setup.roster if setup is not None else Roster()
    scores = index.scores(lambda i, j: _not_compared(holders[i], holders[j], roster))
    found = spread(scores, holders, roster)
    ranked = sorted(((s, i, j) for (i, j), s in scores.items()), key=lambda t: (-t[0], t[1], t[2]))[:LISTED]
    zone = setup.course.zone if setup is not None else ZoneInfo("UTC")
    pairs = tuple(explain(index, i, j, s, found, zone) for s, i, j in ranked)
    sources = Counter(h.time_from for h in holders if not h.term)
    return Report(edition.name, len(entries), len(holders) - len(entries), unreadable, pairs,
                  time.monotonic() - started, tuple(h.note for h in holders if h.note), found,
                  tuple(sorted(sources.items(), key=lambda t: -t[1])),
                  sum(1 for h in holders if h.units and not h.term))


def _timed(h: Holder, times: dict[str, tuple[datetime, str]]) -> Holder:
    """H with its hand-in time and where that came from (a past term's: none)."""
    when, how = times.get(h.student, (None, "")) if not h.term else (None, "")
    return dataclasses.replace(h, handed_in=when, time_from=how)


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
    return _mate(roster, a) == b


def _mate(roster: Roster, student: str) -> str | None:
    found = roster.find(student)
    mate = roster.partner_of(found) if found is not None else None
    return mate.id if mate is not None else None


def handin_times(folder: Path, entries: Sequence, setup: Setup | None) -> dict[str, tuple[datetime, str]]:
    """Each entry's hand-in time and where it came from (a Handin's ``how``): an export's metadata,
    ``times.csv``, else its file's time."""
    zone = setup.course.zone if setup is not None else ZoneInfo("UTC")
    found: dict[str, tuple[datetime, str]] = {}
    if (folder / EXPORT_METADATA).is_file():
        found = {h.key: (h.time, h.how) for h in read_export(folder, zone).handins}
    rest = [(e.student, e.path) for e in entries if e.student not in found]
    found.update({h.key: (h.time, h.how) for h in class_handins(folder, rest, zone)})
    return found


def explain(index: Index, i: int, j: int, score: float, found: Spread | None, zone: ZoneInfo) -> Pair:
    """The evidence for the pair (I, J): each pair of functions sharing compared hashes."""
    a, b = index.holders[i], index.holders[j]
    matches = []
    shared = 0
    for (u, v), common in sorted(shared_units(index, i, j).items()):
        (ua_label, ua), (ub_label, ub) = a.units[u], b.units[v]
        shared += len(common)
        matches.append(Match(_side(ua, ua_label, common), _side(ub, ub_label, common),
                             math.fsum(weight(index.count[d]) for d in common), _others(index, common, {i, j})))
    matches.sort(key=lambda m: (-m.weight, m.a.first))
    when_a, when_b = a.handed_in, b.handed_in
    first = ""
    if when_a is not None and when_b is not None and when_a != when_b:
        first = a.student if when_a < when_b else b.student
    z = z_score(score, found)
    return Pair(a.student, b.student, b.term, score, z, stands_out(score, z, found),
                min(1.0, shared / max(1, index.own[i])), min(1.0, shared / max(1, index.own[j])),
                tuple(m for m in matches if m.weight >= 0.5) or tuple(matches[:1]),
                _when(when_a, a.time_from, zone), _when(when_b, b.time_from, zone), first)


def _when(when: datetime | None, how: str, zone: ZoneInfo) -> str:
    return courses_messages.similarity_time(shown_time(when, zone), _TIME_FROM.get(how, how)) if when else ""


_TIME_FROM = {"created_at": courses_messages.SIMILARITY_TIME_EXPORT, "times.csv": courses_messages.SIMILARITY_TIME_CSV,
              FILE_TIME: courses_messages.SIMILARITY_TIME_FILE}


def shared_units(index: Index, i: int, j: int) -> dict[tuple[int, int], list[int]]:
    """{(a function of holder I, a function of holder J): the compared hashes both hold}: J's hashes
    gathered once, then each of I's looked up, never every function of one against every one of the other."""
    theirs: dict[int, list[int]] = defaultdict(list)
    for v, (_, unit) in enumerate(index.holders[j].units):
        for digest in unit.hashes:
            theirs[digest].append(v)
    found: dict[tuple[int, int], list[int]] = defaultdict(list)
    for u, (_, unit) in enumerate(index.holders[i].units):
        for digest in unit.hashes:
            if digest in theirs and index.compared(digest):
                for v in theirs[digest]:
                    found[(u, v)].append(digest)
    return found


def _side(unit: fingerprints.Unit, label: str, common: Sequence[int]) -> Side:
    """UNIT's lines, each MATCHED when a k-gram of COMMON spans it (and the normal form kept it),
    GIVEN when it is the skeleton's own, else OTHER: the spans merged, so each line is looked at
    once however many spans hold it."""
    marked: set[int] = set()
    done = 0  # every line up to this one is decided
    for low, high in sorted(unit.hashes[d] for d in common):
        marked.update(n for n in range(max(low, done + 1), high + 1) if n in unit.live)
        done = max(done, high)
    lines = tuple((text, MATCHED if unit.first + n in marked else GIVEN if unit.first + n in unit.given else OTHER)
                  for n, text in enumerate(unit.lines))
    return Side(unit.name, label, unit.first, lines)


def _others(index: Index, common: Sequence[int], pair: set[int]) -> int:
    """How many other students hold at least half of the hashes COMMON."""
    held: dict[int, int] = defaultdict(int)
    for d in common:
        for i in {i for i, _ in index.postings[d]} - pair:
            held[i] += 1
    return sum(1 for i, n in held.items() if 2 * n >= len(common) and not index.holders[i].term)


# -- writing the report ---------------------------------------------------------------------------------

CSV_COLUMNS = ("rank", "student a", "student b", "past term of b", "score", "robust z-score", "stands out",
               "share of a", "share of b", "functions", "most other students sharing a match", "handed in a",
               "handed in b", "first")


def render_csv(report: Report) -> str:
    """Every pair of the report, best first: those standing out (the page's list), then the next ones."""
    rows: list[Sequence[object]] = [CSV_COLUMNS]
    listed = set(map(id, report.listed))
    for rank, p in enumerate(report.pairs, 1):
        functions = " ".join(sorted({m.a.function for m in p.matches} | {m.b.function for m in p.matches}))
        z = f"{p.z:.1f}" if report.spread is not None else ""
        rows.append((rank, p.a, p.b, p.term_b, f"{p.score:.3f}", z, "yes" if id(p) in listed else "no",
                     f"{p.share_a:.2f}", f"{p.share_b:.2f}", functions,
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
.p{color:#999;background:#eee;font-style:italic;display:block}.p::before{content:"\\b7 ";color:#999}
.m::before{content:"= ";color:#a33}section{border-top:2px solid #999;margin-top:1.5em}"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def render_html(report: Report) -> str:
    """The page: how its list was chosen and what the score means, the pairs that stand out, then
    each of the first :data:`SHOWN` explained. Everything a student wrote is escaped; the page runs
    no script."""
    head = (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'\">"
            f"<title>Similarity: {_e(report.edition)}</title><style>{STYLE}</style></head><body>")
    listed = report.listed
    parts = [head, f"<h1>Similarity across the class ({_e(report.edition)})</h1>",
             f"<p class='verdict' id='no-verdict'>{_e(NO_VERDICT)}</p>",
             f"<p id='compared'>{_e(courses_messages.similarity_compared(report.students, report.references))}</p>",
             f"<p id='how-listed'>{_e(_how_listed(report, len(listed)))}</p>",
             f"<p id='score'>{_e(courses_messages.SIMILARITY_SCORE)}</p>",
             f"<p id='times'>{_e(courses_messages.similarity_times(_time_sources(report)))}</p>"]
    if report.unreadable:
        parts.append(f"<p id='unreadable'>{_e(courses_messages.similarity_unreadable(report.unreadable))}</p>")
    if report.notes:
        parts.append("<ul id='left-out'>" + "".join(f"<li>{_e(note)}</li>" for note in report.notes) + "</ul>")
    parts.append(_ranking(listed))
    parts += [_pair_section(rank, p, report.spread is not None) for rank, p in enumerate(listed[:SHOWN], 1)]
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _how_listed(report: Report, listed: int) -> str:
    if report.spread is None:
        return courses_messages.similarity_how_listed_small(listed, report.comparable, SMALLEST, MIN_SHARE)
    s = report.spread
    return courses_messages.similarity_how_listed(listed, s.pairs, s.median, s.scale, CUTOFF, MIN_SHARE, SHORT)


def _time_sources(report: Report) -> list[tuple[str, int]]:
    return [(_TIME_FROM.get(how, how), count) for how, count in report.times if how]


def _ranking(pairs: Sequence[Pair]) -> str:
    if not pairs:
        return f"<p id='none'>{_e(courses_messages.similarity_none_listed())}</p>"
    rows = ["<table id='ranking'><tr><th>rank</th><th>student</th><th>student</th><th>score</th>"
            "<th>robust z-score</th><th>share of each</th><th>functions</th><th>handed in first</th></tr>"]
    for rank, p in enumerate(pairs, 1):
        b = f"{p.b} ({p.term_b})" if p.term_b else p.b
        link = f"<a href='#pair-{rank}'>{rank}</a>" if rank <= SHOWN else str(rank)
        functions = ", ".join(sorted({m.a.function for m in p.matches}))
        z = f"{p.z:.1f}" if p.z else ""
        rows.append(f"<tr><td>{link}</td><td>{_e(p.a)}</td><td>{_e(b)}</td><td>{p.score:.0%}</td><td>{z}</td>"
                    f"<td>{p.share_a:.0%} / {p.share_b:.0%}</td><td>{_e(functions)}</td>"
                    f"<td>{_e(p.first or 'not known')}</td></tr>")
    return "\n".join(rows) + "</table>"


def _pair_section(rank: int, p: Pair, spread: bool) -> str:
    b = f"{p.b} (past term {p.term_b})" if p.term_b else p.b
    title = courses_messages.similarity_pair_title(rank, p.a, b, p.score, p.z if spread else None)
    parts = [f"<section id='pair-{rank}' class='pair'><h2>{_e(title)}</h2>",
             f"<p>{_e(courses_messages.similarity_handed_in(p.a, p.time_a, b, p.time_b, p.first))}</p>"]
    for m in p.matches:
        where = (f"{m.a.function} (problem {m.a.problem})" if m.a.function == m.b.function
                 else f"{m.a.function} and {m.b.function}")
        parts.append(f"<h3>{_e(where)}: weight {m.weight:.1f}; {_e(courses_messages.similarity_others(m.others))}</h3>"
                     f"<div class='sides'>{_side_html(p.a, m.a)}{_side_html(b, m.b)}</div>")
    parts.append("</section>")
    return "\n".join(parts)


def _side_html(student: str, side: Side) -> str:
    lines = "".join(f"<span class='{kind}'>{_e(text) or ' '}</span>" for text, kind in side.lines)
    return (f"<div><p><b>{_e(student)}</b>: {_e(side.function)}, from line {side.first} "
            f"({_e(courses_messages.SIMILARITY_LEGEND)})</p><pre>{lines}</pre></div>")
