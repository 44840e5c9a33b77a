"""Mutants: how strong an edition's cases are, measured by the wrong programs they reject.

Contract: :func:`generate` makes mutants of a marked reference source, one small change each (the
operators in :data:`OPERATORS`), and only in code a problem owns: the statements between its
``# BEGIN PROBLEM N`` and ``# END PROBLEM N`` markers, inside a function the problem names in the
manifest (``functions``). Generation is pure and deterministic: the same source gives the same
mutants in the same order, and each mutant's ``id`` (its problem's label, its function, its operator
and the changed statement as :func:`ast.unparse` prints it) survives reformatting of the source, so
an equivalent recorded by id stays recorded. Problems are known by their labels ("05", "05a")
everywhere: in ids, in records, in reports and in the problems a run is limited to.

:func:`run` grades every mutant in the sandbox with :func:`graders.scoring.grading.grade_reliably`, hidden
cases included, on the cases of the problems that name its function, ``jobs`` at a time; nearly
always that is its own problem alone. A function two problems name (a ``play`` whose commentary a
later problem writes inside the earlier one's block) is graded on both problems' cases, and the
problem with no marked code of its own is measured on that function's mutants by its own cases
alone (:func:`measured_by`). A mutant is *killed* when a case fails (the first one is named, its
own problem's first), *timed out* when that first failure is a case that never finished, and
*survived* when every case passes. Equivalent mutants, which no program can tell apart from the
reference, are recorded with a reason in the edition's ``mutants.toml``; they are listed apart and
never counted, and a record that no longer matches any mutant is reported as stale. A record may be
limited to one problem (``problem = "05b"``): a mutant of a function that problem shares, which
changes only what another problem adds (the commentary call in ``play``, for the Feral Hogs
problem), is then left out of that problem's count alone, and still counts everywhere else. A mutant the
kit failed to grade twice is a *kit error*: counted nowhere, and said. Records are immutable; the
renderers are pure; nothing here prints.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path

from graders.authoring import messages as authoring_messages
from graders.authoring.mutations import Mutant, generate
from graders.core import messages
from graders.core.errors import EditionError
from graders.core.tables import Key, check_table
from graders.core.writers import json_text, md_code, md_line
from graders.editions.edition import Edition, problem_label, read_toml
from graders.games.game import game_of
from graders.sandboxing import isolation
from graders.sandboxing.sandbox import Limits
from graders.scoring.grading import KitFailure, ProblemResult, Submission, grade_reliably

THRESHOLD = 0.98  # the share of counted mutants every scored problem's cases should kill


RECORD_FILE = "mutants.toml"  # in tests/editions/<edition>/: the equivalent mutants, each with its reason


KILLED, TIMED_OUT, SURVIVED, KIT_ERROR = "killed", "timed out", "survived", "kit error"


STATUSES = (KILLED, TIMED_OUT, SURVIVED, KIT_ERROR)


@dataclass(frozen=True)
class Equivalent:
    """A recorded mutant that cannot change behaviour, and why."""

    id: str
    reason: str
    problem: str = ""  # when given, the mutant is equivalent only as far as this problem's cases can tell


@dataclass(frozen=True)
class Verdict:
    """What one problem's cases made of a mutant."""

    problem: str  # its label
    status: str  # killed, timed out or survived
    killer: str = ""  # the first failing case's name, or the shape rule that failed


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    status: str  # one of STATUSES: detected when any problem of its function detects it
    killer: str = ""  # the first failing case's name (its own problem's cases first)
    killer_problem: str | None = None  # the label of the problem whose case it was
    verdicts: tuple[Verdict, ...] = ()  # one per problem in the mutant's graded_with
    equivalent: str = ""  # the recorded reason, when the mutant is recorded as equivalent
    equivalent_for: tuple[tuple[str, str], ...] = ()  # (label, reason): equivalent to those problems' cases alone
    seconds: float = 0.0
    detail: str = ""  # a kit error's summary

    @property
    def counted(self) -> bool:
        """Whether it counts towards its problem's score: neither equivalent nor a kit error."""
        return not self.equivalent and self.status != KIT_ERROR

    @property
    def detected(self) -> bool:
        return self.status in (KILLED, TIMED_OUT)

    def status_for(self, label: str) -> str:
        """What problem LABEL's cases alone made of it (its overall status when they did not judge it)."""
        return next((v.status for v in self.verdicts if v.problem == label), self.status)

    def equivalent_to(self, label: str) -> bool:
        """Whether it is recorded as equivalent, everywhere or for problem LABEL's cases."""
        return bool(self.equivalent) or any(scope == label for scope, _ in self.equivalent_for)


@dataclass(frozen=True)
class Tally:
    """One problem's mutants, counted."""

    label: str
    title: str
    points: int
    generated: int
    killed: int
    timed_out: int
    survived: int
    equivalent: int
    kit_errors: int
    shares: tuple[str, ...] = ()  # the labels of other problems whose cases judge the same functions
    borrowed: bool = False  # measured on the mutants of another problem's block, by its own cases

    @property
    def counted(self) -> int:
        return self.killed + self.timed_out + self.survived

    @property
    def score(self) -> float | None:
        """The share of counted mutants the cases detect; None when there are none to count."""
        return (self.killed + self.timed_out) / self.counted if self.counted else None

    @property
    def scored(self) -> bool:
        return self.points > 0

    def strong(self, threshold: float = THRESHOLD) -> bool:
        return self.score is None or self.score >= threshold


@dataclass(frozen=True)
class MutationReport:
    edition: str
    title: str
    tallies: tuple[Tally, ...]
    outcomes: tuple[Outcome, ...]
    stale: tuple[Equivalent, ...]
    seconds: float
    jobs: int
    isolation: str
    record_file: str  # where equivalents are recorded, relative to the kit
    threshold: float = THRESHOLD

    @property
    def weak(self) -> tuple[Tally, ...]:
        """The scored problems whose cases detect fewer than the threshold's share."""
        return tuple(t for t in self.tallies if t.scored and not t.strong(self.threshold))

    @property
    def wrongly_equivalent(self) -> tuple[Outcome, ...]:
        """Mutants recorded as equivalent that a case tells apart (for a record limited to one problem,
        a case of that problem): the record is wrong."""
        return tuple(o for o in self.outcomes if (o.equivalent and o.detected) or any(
            o.status_for(label) in (KILLED, TIMED_OUT) for label, _ in o.equivalent_for))

    def as_dict(self) -> dict:
        return {
            "edition": self.edition, "title": self.title, "threshold": self.threshold,
            "seconds": round(self.seconds, 2), "jobs": self.jobs, "isolation": self.isolation,
            "record_file": self.record_file, "strong": not self.weak,
            "problems": [_tally_dict(t) for t in self.tallies],
            "mutants": [_outcome_dict(o) for o in self.outcomes],
            "stale": [{"id": e.id, "reason": e.reason, "problem": e.problem} for e in self.stale],
        }


def _tally_dict(t: Tally) -> dict:
    score = t.score
    return {"label": t.label, "title": t.title, "points": t.points, "generated": t.generated,
            "killed": t.killed, "timed_out": t.timed_out, "survived": t.survived, "equivalent": t.equivalent,
            "kit_errors": t.kit_errors, "score": None if score is None else round(score, 4),
            "shares": list(t.shares)}


def _outcome_dict(o: Outcome) -> dict:
    m = o.mutant
    return {"id": m.id, "problem": m.problem, "function": m.function, "operator": m.operator, "line": m.line,
            "before": m.before, "after": m.after, "graded_with": list(m.graded_with), "status": o.status,
            "killer": o.killer, "killer_problem": o.killer_problem,
            "verdicts": [{"problem": v.problem, "status": v.status, "killer": v.killer} for v in o.verdicts],
            "equivalent": o.equivalent,
            "equivalent_for": [{"problem": label, "reason": reason} for label, reason in o.equivalent_for],
            "seconds": round(o.seconds, 3), "detail": o.detail}


def record_path(edition: Edition) -> Path:
    return edition.suite_dir / RECORD_FILE


def _text(value: str) -> str:
    """A CHECK: text that says something."""
    return "" if value.strip() else "text that is not empty"


RECORD_KEYS = {"equivalent": Key(list, default=[], items=dict)}  # the file's one table


EQUIVALENT_KEYS = {"id": Key(str, check=_text), "reason": Key(str, check=_text),  # each [[equivalent]]
                   "problem": Key(str, default="", check=_text)}  # optional: only that problem's cases


def load_equivalents(edition: Edition) -> tuple[Equivalent, ...]:
    """The edition's recorded equivalent mutants (none when it has no record file). Each table is
    checked by :func:`graders.core.tables.check_table`: an unknown key, a missing or empty id or
    reason is refused naming the file, the table and the key; an id listed twice for the same
    problem (or for all), naming it. A ``problem`` is kept as its label ("5b" is "05b")."""
    path = record_path(edition)
    if not path.is_file():
        return ()
    top = check_table(read_toml(path), RECORD_KEYS, str(path))
    found: list[Equivalent] = []
    for k, raw in enumerate(top["equivalent"], start=1):
        values = check_table(raw, EQUIVALENT_KEYS, f"{path} [[equivalent]] #{k}")
        scope = problem_label(values["problem"].strip()) if values["problem"] else ""
        if any(e.id == values["id"] and (e.problem == scope or not e.problem or not scope) for e in found):
            raise EditionError(authoring_messages.mutant_record_broken(
                str(path), authoring_messages.listed_twice(repr(values["id"]))))
        found.append(Equivalent(values["id"], values["reason"].strip(), scope))
    return tuple(found)


Progress = Callable[[int, int, float], None]  # (done, total, started), as graders.courses.classroom.print_progress


def edition_mutants(edition: Edition, problems: Sequence[int | str] | None = None) -> tuple[Mutant, ...]:
    """The mutants of EDITION's reference that PROBLEMS (labels, or numbers) are measured on (all when None)."""
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    found = generate(source, edition.problems, edition.submission)
    labels = edition.labels(problems)
    if labels is None:
        return found
    wanted = {m.id for label in labels for m in measured_by(label, found)}
    return tuple(m for m in found if m.id in wanted)


def grade_mutant(mutant: Mutant, edition: Edition, limits: Limits | None = None) -> Outcome:
    """MUTANT graded in the sandbox on the cases of every problem that names its function, hidden ones
    included: detected when any of them fails, the first failing case named (its own problem's
    first). The kit's failure, twice, is a kit error, never a verdict."""
    started = time.monotonic()
    submission = Submission(Path(edition.submission), mutant.source)
    try:
        report = grade_reliably(submission, edition, problems=mutant.graded_with, include_hidden=True,
                                limits=limits, workers=1, game=game_of(edition), trusted=True)
    except KitFailure as exc:
        return Outcome(mutant, KIT_ERROR, seconds=time.monotonic() - started, detail=exc.summary)
    by_label = {p.label: p for p in report.problems}
    verdicts = tuple(_verdict(by_label[label]) for label in mutant.graded_with)
    order = sorted(verdicts, key=lambda v: v.problem != mutant.problem)  # its own problem's first
    first = next((v for v in order if v.status != SURVIVED), None)
    seconds = time.monotonic() - started
    if first is None:
        return Outcome(mutant, SURVIVED, verdicts=verdicts, seconds=seconds)
    return Outcome(mutant, first.status, first.killer, first.problem, verdicts, seconds=seconds)


def _verdict(result: ProblemResult) -> Verdict:
    """What RESULT's cases made of a mutant. The first graded case that failed is named; a problem
    failed by a shape rule alone names the rule."""
    if result.status != "failed":
        return Verdict(result.label, SURVIVED)
    for case in result.cases:
        if not case.passed and not case.advice and case.status != "not run":
            return Verdict(result.label, TIMED_OUT if case.status == "timeout" else KILLED, case.name)
    broken = [r for r in result.rules if not r.passed and r.required]
    return Verdict(result.label, KILLED,
                   authoring_messages.mutant_killed_by_rule(broken[0].text) if broken else result.reason)


def measured_by(label: str, mutants: Sequence[Mutant]) -> list[Mutant]:
    """The mutants problem LABEL is measured on: those in its own marked code or, when it has
    none (its code is written in another problem's block of a function it names, such as a
    commentary call inside play's loop), the mutants of the functions it names."""
    own = [m for m in mutants if m.problem == label]
    return own or [m for m in mutants if label in m.graded_with]


def run(edition: Edition, problems: Sequence[int | str] | None = None, *, jobs: int | None = None,
        progress: Progress | None = None, limits: Limits | None = None,
        mutants: Sequence[Mutant] | None = None) -> MutationReport:
    """Grade the mutants of EDITION (those PROBLEMS, labels or numbers, are measured on, or the given
    MUTANTS), JOBS at a time (default: the machine's cores), telling PROGRESS after each; the report,
    in mutant order."""
    started = time.monotonic()
    labels = edition.labels(problems)
    chosen = tuple(mutants) if mutants is not None else edition_mutants(edition, labels)
    equivalents = load_equivalents(edition)
    reasons = {e.id: e.reason for e in equivalents if not e.problem}
    scoped: dict[str, tuple[tuple[str, str], ...]] = {}
    for e in equivalents:
        if e.problem:
            scoped[e.id] = (*scoped.get(e.id, ()), (e.problem, e.reason))
    workers = max(1, jobs or os.cpu_count() or 1)
    outcomes: dict[str, Outcome] = {}
    if progress:
        progress(0, len(chosen), started)
    with ThreadPoolExecutor(workers) as pool:
        futures = {pool.submit(grade_mutant, m, edition, limits): m for m in chosen}
        for future in as_completed(futures):
            outcome = future.result()
            outcomes[outcome.mutant.id] = replace(outcome, equivalent=reasons.get(outcome.mutant.id, ""),
                                                  equivalent_for=scoped.get(outcome.mutant.id, ()))
            if progress:
                progress(len(outcomes), len(chosen), started)
    ordered = tuple(outcomes[m.id] for m in chosen)
    every = edition_mutants(edition)
    every_id = {m.id for m in every}
    shared = {(m.id, label) for m in every for label in m.graded_with if label != m.problem}
    wanted = {p.label for p in edition.problems} if labels is None else set(labels)
    return MutationReport(
        edition=edition.name, title=edition.title,
        tallies=tallies(edition, ordered, wanted),
        outcomes=ordered,
        stale=tuple(e for e in equivalents if e.id not in every_id or e.problem and (e.id, e.problem) not in shared),
        seconds=time.monotonic() - started, jobs=workers, isolation=isolation.policy().summary,
        record_file=_relative(record_path(edition), edition.root),
    )


def _relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def tallies(edition: Edition, outcomes: Sequence[Outcome], wanted: set[str]) -> tuple[Tally, ...]:
    """One tally per problem in WANTED that names a function, in problem order (see :func:`measured_by`:
    a problem measured on another block's mutants counts what its own cases made of them)."""
    found = []
    by_id = {o.mutant.id: o for o in outcomes}
    for p in edition.problems:
        if p.label not in wanted or not p.functions:
            continue
        measured = [by_id[m.id] for m in measured_by(p.label, [o.mutant for o in outcomes])]
        borrowed = any(o.mutant.problem != p.label for o in measured)
        status = {o.mutant.id: o.status_for(p.label) if borrowed else o.status for o in measured}
        counted = [status[o.mutant.id] for o in measured if o.counted and not o.equivalent_to(p.label)]
        shares = [q.label for q in edition.problems if q.label != p.label and set(q.functions) & set(p.functions)]
        found.append(Tally(
            label=p.label, title=p.title, points=p.points, generated=len(measured),
            killed=counted.count(KILLED), timed_out=counted.count(TIMED_OUT), survived=counted.count(SURVIVED),
            equivalent=sum(o.equivalent_to(p.label) for o in measured),
            kit_errors=sum(o.status == KIT_ERROR for o in measured),
            shares=tuple(shares), borrowed=borrowed,
        ))
    return tuple(found)


def _problem_name(t: Tally) -> str:
    name = f"{t.label} {t.title}"
    return name if t.scored else f"{name}, {messages.LABEL_NOT_SCORED}"


def _note(t: Tally, report: MutationReport) -> str:
    """What a person needs to know about a problem's row beyond its numbers."""
    functions = sorted({o.mutant.function.split(".")[0] for o in report.outcomes
                        if (t.label in o.mutant.graded_with if t.borrowed else o.mutant.problem == t.label)})
    if t.borrowed:
        return authoring_messages.mutants_none_own(t.label, list(t.shares), functions)
    if t.shares and functions:
        return authoring_messages.mutants_shared(list(t.shares), functions)
    return ""


def _row(t: Tally) -> list[str]:
    return [_problem_name(t), str(t.generated), str(t.killed), str(t.timed_out), str(t.survived),
            str(t.equivalent), authoring_messages.mutants_score(t.killed + t.timed_out, t.counted)]


def render_markdown(report: MutationReport) -> str:
    """The whole report as Markdown: the table per problem, then survivors, equivalents, stale and
    wrong records, kit errors, and which case caught each detected mutant."""
    lines = [f"# {authoring_messages.mutants_heading(report.title, report.edition)}", "", report.isolation, "",
             authoring_messages.mutants_intro(len(report.outcomes), report.jobs, report.seconds), "",
             f"**{authoring_messages.mutants_verdict([t.label for t in report.weak], report.threshold)}**", "",
             "| " + " | ".join(authoring_messages.MUTANT_COLUMNS) + " |",
             "|---|" + "---:|" * (len(authoring_messages.MUTANT_COLUMNS) - 1)]
    lines += ["| " + " | ".join(md_line(c) for c in _row(t)) + " |" for t in report.tallies]
    notes = [f"- {t.label}: {_note(t, report)}" for t in report.tallies if _note(t, report)]
    lines += [""] + notes if notes else []
    lines += ["", f"## {authoring_messages.mutants_survivors_heading()}", "",
              authoring_messages.mutants_survivors_advice(report.record_file), ""]
    survivors = [o for o in report.outcomes if o.status == SURVIVED and not o.equivalent]
    lines += [_md_mutant(o) for o in survivors] or [authoring_messages.mutants_no_survivors()]
    lines += _md_section(authoring_messages.mutants_equivalents_heading(report.record_file),
                         [f"- {md_code(o.mutant.id)}: {md_line(o.equivalent)}" for o in report.outcomes if o.equivalent]
                         + [f"- {md_code(o.mutant.id)} ({authoring_messages.mutant_equivalent_for(label)}): "
                            f"{md_line(reason)}" for o in report.outcomes for label, reason in o.equivalent_for])
    lines += _md_section(authoring_messages.mutants_wrongly_equivalent(report.record_file),
                         [f"- {md_code(o.mutant.id)}: {md_line(o.killer)}" for o in report.wrongly_equivalent])
    lines += _md_section(authoring_messages.mutants_stale(report.record_file),
                         [f"- {md_code(e.id)}: {md_line(e.reason)}" for e in report.stale])
    errors = [o for o in report.outcomes if o.status == KIT_ERROR]
    lines += _md_section(authoring_messages.mutants_kit_errors(len(errors)),
                         [f"- {md_code(o.mutant.id)}: {md_line(o.detail)}" for o in errors])
    lines += ["", f"## {authoring_messages.mutants_killers_heading()}", ""] + _md_killers(report)
    lines += ["", authoring_messages.mutants_how_to_read(report.threshold), ""]
    return "\n".join(lines)


def _md_mutant(o: Outcome) -> str:
    m = o.mutant
    return f"- {md_code(m.id)} ({authoring_messages.mutant_change(m.line, md_code(m.before), md_code(m.after))})"


def _md_section(heading: str, items: list[str]) -> list[str]:
    return ["", f"## {heading}", ""] + items if items else []


def _md_killers(report: MutationReport) -> list[str]:
    lines = []
    for t in report.tallies:
        caught = [o for o in report.outcomes if o.mutant.problem == t.label and o.detected and not o.equivalent]
        if not caught:
            continue
        lines += [f"<details><summary>{t.label} {md_line(t.title)}: {len(caught)}</summary>", ""]
        lines += [f"- {md_code(o.mutant.id)}: {o.status}, {o.killer_problem} {md_line(o.killer)}" for o in caught]
        lines += ["", "</details>", ""]
    return lines


def render_json(report: MutationReport) -> str:
    return json_text(report.as_dict(), indent=2)


def render_text(report: MutationReport) -> str:
    """What the command prints: the verdict, one line per problem, the survivors by id."""
    lines = [authoring_messages.mutants_heading(report.title, report.edition), report.isolation,
             authoring_messages.mutants_intro(len(report.outcomes), report.jobs, report.seconds), ""]
    width = max((len(_problem_name(t)) for t in report.tallies), default=10)
    lines.append("  ".join([authoring_messages.MUTANT_COLUMNS[0].ljust(width)]
                           + [c.rjust(9) for c in authoring_messages.MUTANT_COLUMNS[1:]]))
    for t in report.tallies:
        cells = _row(t)
        lines.append("  ".join([cells[0].ljust(width)] + [c.rjust(9) for c in cells[1:]]))
    lines += [f"  {t.label}: {_note(t, report)}" for t in report.tallies if _note(t, report)]
    lines += ["", authoring_messages.mutants_verdict([t.label for t in report.weak], report.threshold)]
    survivors = [o for o in report.outcomes if o.status == SURVIVED and not o.equivalent]
    if survivors:
        lines += ["", authoring_messages.mutants_survivors_heading() + ":"]
        lines += [f"  {messages.printable(o.mutant.id)}" for o in survivors]
    for heading, ids in ((authoring_messages.mutants_wrongly_equivalent(report.record_file),
                          [o.mutant.id for o in report.wrongly_equivalent]),
                         (authoring_messages.mutants_stale(report.record_file), [e.id for e in report.stale])):
        if ids:
            lines += ["", heading] + [f"  {messages.printable(i)}" for i in ids]
    errors = sum(o.status == KIT_ERROR for o in report.outcomes)
    if errors:
        lines += ["", authoring_messages.mutants_kit_errors(errors)]
    return "\n".join(lines)


def chart(report: MutationReport, fmt: str = "svg") -> bytes:
    """The per-problem bar chart: killed, timed out, survived and equivalent mutants, stacked."""
    from graders.games import pictures

    counts = {kind: [getattr(t, attribute) for t in report.tallies]
              for kind, attribute in zip(authoring_messages.MUTANT_KINDS,
                                         ("killed", "timed_out", "survived", "equivalent"), strict=True)}
    return pictures.mutant_bars(authoring_messages.mutants_chart_title(report.title), [t.label for t in report.tallies],
                                counts, authoring_messages.MUTANT_AXES, marked=authoring_messages.MUTANT_KINDS[2],
                                fmt=fmt)
