"""Grading: one submission in, problem and phase records out.

Contract: :func:`grade` never raises for anything a submission does. Bad input the caller gave
(no such path, not Python, unknown edition) raises :class:`SubmissionError` *before* any work, with
a message from :mod:`graders.core.messages`. Everything else the submission does becomes a record: a
problem passes when every case it runs passes, every shape rule holds and its code is no longer the
skeleton's starter code (:func:`starter_code`, the one rule every route applies); it earns all its points
or none, on its own cases alone: its hidden cases run the reference for every other problem's
functions they reach (see :mod:`graders.editions.onefunction`), and a problem whose public cases call
another that fails is still scored, and its reason says which problem to fix first. A shape rule
(or a case that checks one) is required or advice; advice is reported and never costs points.
Rendering lives in :mod:`graders.scoring.reports`; nothing here prints.

Every failure is the submission's or the kit's. Whatever :func:`grade` raises is the kit's (a
sandbox that did not start, a kit file missing, a full disk, a bug): it is never turned into a
score. :func:`grade_reliably` grades again once, and raises :class:`KitFailure` if the kit fails
twice. The verdict of every case depends only on the submission and the cases: not on how many
children share the work, nor on the route (single, class, Gradescope, the student's runner).
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import os
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graders.core import messages
from graders.core.errors import EditionError, KitFailure
from graders.core.memo import once
from graders.core.records import (
    CaseResult,
    CheckpointResult,
    EntryStatus,
    PhaseResult,
    ProblemResult,
    ProblemStatus,
    Report,
    RuleResult,
)
from graders.editions import markers, onefunction
from graders.editions.cases import Case, StudentRun, kit_only, load_problem_cases
from graders.editions.edition import Edition, Problem, edition_names, load_edition
from graders.sandboxing import guard, isolation
from graders.sandboxing.repairs import Removal, repair
from graders.sandboxing.replies import ImportNote
from graders.sandboxing.sandbox import Limits, LoadError, Session, open_session, repair_notes, sorted_notes
from graders.scoring import checks
from graders.scoring import messages as scoring_messages
from graders.scoring.astrules import RuleChecker
from graders.scoring.judge import as_not_run, mark_not_run, run_case
from graders.scoring.submissions import Submission

KIT_ERROR = EntryStatus.KIT_ERROR  # the status of a class record the kit failed to grade


def describe_failure(exc: BaseException) -> str:
    """One line for an exception the kit raised: its type and the first line of its message."""
    text = str(exc).strip().split("\n")[0][:300]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def defined_names(tree: ast.Module | None) -> set[str]:
    if tree is None:
        return set()
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.ImportFrom, ast.Import)):
            names.update((a.asname or a.name) for a in node.names)
    return names


ProgressFn = Callable[[ProblemResult], None]


@once(maxsize=16)
def _functions_by_edition(root: Path) -> dict[str, frozenset[str]]:
    """{edition: the functions its problems ask for}, for every edition of the kit at ROOT."""
    found = {}
    for name in edition_names(root):
        try:
            found[name] = frozenset(f for p in load_edition(name, root).problems for f in p.functions)
        except EditionError:
            continue
    return found


def other_edition_notes(edition: Edition, names: set[str]) -> list[str]:
    """A note when NAMES (what the submission defines) are more another edition's functions than
    this one's: a file written for another edition, graded with the wrong one."""
    editions = _functions_by_edition(edition.root)
    own = editions.get(edition.name, frozenset(f for p in edition.problems for f in p.functions))
    best: tuple[int, str, list[str]] = (0, "", [])
    for name, functions in editions.items():
        theirs = sorted((functions - own) & names)
        mine = (own - functions) & names
        if name != edition.name and len(theirs) >= 2 and len(theirs) > len(mine) and len(theirs) > best[0]:
            best = (len(theirs), name, theirs)
    return [scoring_messages.other_edition(edition.submission, best[1], best[2])] if best[1] else []


def default_workers() -> int:
    """Children per submission: two cores' worth at most, since problems are small."""
    return max(1, min(2, os.cpu_count() or 1))


def grade(
    submission: Submission,
    edition: Edition,
    *,
    problems: Iterable[int | str] | None = None,
    include_hidden: bool = True,
    unlocked: Iterable[int | str] | None = None,
    limits: Limits | None = None,
    on_problem: ProgressFn | None = None,
    workers: int | None = None,
    game: checks.GameRates | None = None,
    trusted: bool = False,
) -> Report:
    """Grade SUBMISSION. ``problems`` limits the run; ``unlocked`` (students) gates each problem.

    Every problem is scored on its own cases, whatever the others score: the problems are handed
    to up to ``workers`` children at once, in order, with no waiting on one another. ``game`` (the
    edition's game, from the instructor's side) works out exact win rates; without it a
    ``[win_rate]`` case is not run and no strategy's rate is reported. ``trusted``: SUBMISSION is
    the kit's own code, never a student's (a mutant of the reference): hidden cases run the
    reference's functions of other problems in its children instead of asking the kit's own child.
    """
    started = time.monotonic()
    plan, results, notes = _graded(submission, edition, problems, unlocked, include_hidden, limits, on_problem,
                                   workers, game, trusted)
    return build_report(edition, submission, plan, with_dependency_hints(results, edition), notes,
                        time.monotonic() - started)


def regrade(submission: Submission, edition: Edition, old: Report, labels: Iterable[str], *,
            limits: Limits | None = None, workers: int | None = None, game: checks.GameRates | None = None
            ) -> Report:
    """OLD, SUBMISSION's report by this kit but for the problems LABELS (whose cases changed since),
    with those problems graded again: what a fresh :func:`grade` of every problem gives, for the
    work of those alone. Every kept result loses its dependency hint, and the hints are worked out
    afresh over the merged results (a kept problem whose reason does not give its hint back is
    graded again instead)."""
    started = time.monotonic()
    kept = {r.label: _without_hint(r) for r in old.problems}
    wanted = set(labels) | {label for label, r in kept.items() if r.hint}  # (a hint it cannot take back)
    plan = plan_grading(submission.source, edition, None, None, old.hidden_included, game)
    _, results, _ = _graded(submission, edition, sorted(wanted), None, old.hidden_included, limits, None,
                            workers, game, False)
    fresh = {r.label: r for r in results}
    merged = [fresh.get(p.label) or kept[p.label] for p in plan.chosen]
    return build_report(edition, submission, plan, with_dependency_hints(merged, edition), old.notes,
                        old.seconds + time.monotonic() - started)


def _without_hint(result: ProblemResult) -> ProblemResult:
    """RESULT without its dependency hint (as :func:`with_dependency_hints` found it); RESULT itself
    when its reason does not give the hint back as expected."""
    if not result.hint:
        return result
    reason = failure_reason(result)
    if scoring_messages.hinted_reason(result.hint, reason) != result.reason:
        return result
    return dataclasses.replace(result, reason=reason, hint="")


def _graded(submission: Submission, edition: Edition, problems: Iterable[int | str] | None,
            unlocked: Iterable[int | str] | None, include_hidden: bool, limits: Limits | None,
            on_problem: ProgressFn | None, workers: int | None, game: checks.GameRates | None, trusted: bool
            ) -> tuple[Plan, list[ProblemResult], tuple[str, ...]]:
    """The plan, each chosen problem's result (no dependency hints yet) and the notes of a grade."""
    started = time.monotonic()
    if include_hidden:  # the student's runner never runs hidden cases
        guard.require([edition])  # never a hidden case where a child could read the kit
    plan = plan_grading(submission.source, edition, problems, unlocked, include_hidden, game)
    prepare_exact_rate(edition, plan, game)
    skips = KnownSkips(len(plan.tree.body) if plan.tree is not None else 0)
    source, kit = onefunction.substitute_removed(plan.source, edition, plan.removed, set(plan.names))
    children = Children(source, edition, limits or Limits(), game=game, skips=skips, kit=kit)
    in_reference = reference_children(plan, edition, limits or Limits(), trusted)
    hidden = hidden_children(plan, edition, limits or Limits(), skips, (source, kit), trusted)
    try:
        results = run_problems(plan, children, max(1, workers or default_workers()), on_problem,
                               deadline=started + edition.run_timeout, others=in_reference,
                               hidden=hidden)  # the run's budget
        notes = submission.notes + plan.notes + tuple(children.notes)
        if children.first is not None and not children.unloadable:
            results = _report_exact_rate(edition, results, children.first, game)
    finally:
        runners = [children, *(r for pairs in in_reference.values() for r, _ in pairs), *hidden.values()]
        for runner in {id(r): r for r in runners}.values():
            runner.dispose()
    return plan, [results[p.label] for p in plan.chosen], notes


@dataclass(frozen=True)
class Plan:
    """What grading a submission needs before any of its code runs: the repaired source and what
    was done to it, the problems chosen and unlocked, each one's rule results and cases."""

    source: str
    tree: ast.Module | None
    removals: tuple[Removal, ...]
    notes: tuple[str, ...]
    names: frozenset[str]  # the functions the submission defines (those removed for syntax left out)
    chosen: tuple[Problem, ...]
    unlocked: frozenset[str] | None
    rules: dict[str, list[RuleResult]]
    cases: dict[str, list[Case]]
    include_hidden: bool
    kit_only: dict[str, str] = dataclasses.field(default_factory=dict)  # {problem: why only the kit grades it}
    game: checks.GameRates | None = None  # the edition's game, handed in by the instructor's side
    starter: frozenset[str] = frozenset()  # the problems whose code is still the skeleton's stubs

    @property
    def removed(self) -> dict[str, int]:
        return {r.name: r.line for r in self.removals}


def plan_grading(source: str, edition: Edition, problems: Iterable[int | str] | None,
                 unlocked: Iterable[int | str] | None, include_hidden: bool,
                 game: checks.GameRates | None = None) -> Plan:
    filename = edition.submission
    wanted = edition.labels(problems)
    chosen = tuple(p for p in edition.problems if wanted is None or p.label in wanted)
    fixed, tree, removals = repair(source, filename)
    removed = {r.name: r.line for r in removals}
    names = defined_names(tree) - set(removed)
    checker = RuleChecker(tree, filename, removed)
    return Plan(
        source=fixed, tree=tree, removals=tuple(removals),
        notes=tuple(repair_notes(filename, tree, removals) + other_edition_notes(edition, names)),
        names=frozenset(names), chosen=chosen,
        unlocked=frozenset(edition.labels(unlocked) or []) if unlocked is not None else None,
        rules={p.label: checker.check_all(p.rules) for p in chosen},
        cases={p.label: [c for c in load_problem_cases(edition, p.label) if include_hidden or not c.hidden]
               for p in chosen},
        include_hidden=include_hidden,
        kit_only={p.label: why for p in chosen if (why := kit_only(edition, p.label))},
        game=game,
        starter=still_starter(edition, source),
    )


def still_starter(edition: Edition, source: str) -> frozenset[str]:
    """The problems SOURCE still holds as the skeleton's stubs (:func:`markers.untouched_problems`),
    but for one whose function holds another problem's block that was written: a problem written
    inside another's function (the commentary call inside play's loop, in play's block) is written
    when that function is, whatever its own block still says."""
    stubs = markers.starter_digests(edition)
    untouched = set(markers.untouched_problems(source, stubs))
    written = [set(p.functions) for p in edition.problems if p.label in stubs and p.label not in untouched]
    return frozenset(p.label for p in edition.problems
                     if p.label in untouched and not any(set(p.functions) & functions for functions in written))


def reference_children(plan: Plan, edition: Edition, limits: Limits, trusted: bool = False
                       ) -> dict[str, list[tuple[Children, list[Case]]]]:
    """{problem: [(children, cases)]} for each chosen problem whose cases run beside the reference (a
    test the student writes): the student's test carried into a module whose tested functions are
    stubs, one pair of children per version of them (the reference, or one wrong version), which
    only the kit's own child holds; the problem's other cases run with the reference's. TRUSTED
    (the submission is the kit's own code: see grade): the version itself in the children's module.
    None without a reference."""
    found: dict[str, list[tuple[Children, list[Case]]]] = {}
    ref = onefunction.reference(edition)
    for problem in plan.chosen:
        cases = plan.cases[problem.label]
        runs = [c.check for c in cases if c.runs_in == "reference" and isinstance(c.check, StudentRun)]
        if not runs or plan.tree is None or ref is None:
            continue
        first = runs[0]
        served = set(first.keep) & set(ref.defines)
        also = {n for f in served for n in ref.uses.get(f, ())}
        versions: dict[str, list[Case]] = {}
        for case in cases:
            versions.setdefault(case.check.source if isinstance(case.check, StudentRun) else "", []).append(case)
        if trusted:
            found[problem.label] = [
                (Children(own.source, edition, limits, own, plan.game), its) for version, its in versions.items()
                for own in [checks.carry(f"{ref.source}\n\n{version}", plan.source, plan.tree, first.function,
                                         first.keep, also)]]
            continue
        stubbed, kit = onefunction.stubbed_reference(edition, ref, served, set(plan.names))
        carried = checks.carry(stubbed, plan.source, plan.tree, first.function, first.keep, also)
        found[problem.label] = [
            (Children(carried.source, edition, limits, carried, plan.game,
                      kit=kit and dataclasses.replace(kit, source=f"{kit.source}\n\n{version}")), its)
            for version, its in versions.items()]
    return found


def hidden_children(plan: Plan, edition: Edition, limits: Limits, skips: KnownSkips | None = None,
                    own: tuple[str, onefunction.KitFunctions | None] | None = None,
                    trusted: bool = False) -> dict[str, Children]:
    """{problem: the children its hidden cases run in}: for each problem whose hidden cases reach
    another problem's functions, the children of its group (see :mod:`graders.editions.onefunction`),
    whose stubs call the kit for every problem outside it; for every other problem, children of the
    submission's OWN (source, kit functions). Hidden cases never run in a child that runs public
    ones, whose output the student sees. The sources start with the submission's statements, so
    they share SKIPS with its children."""
    found: dict[str, Children] = {}
    if not plan.include_hidden:
        return found
    cases = {p.label: plan.cases[p.label] for p in plan.chosen if settle(p, plan, edition.submission) is None}
    for labels, source, kit in onefunction.hidden_contexts(plan.source, plan.tree, set(plan.names), edition, cases,
                                                           trusted):
        runner = Children(source, edition, limits, game=plan.game, skips=skips, kit=kit)
        found.update(dict.fromkeys(labels, runner))
    rest = [label for label, its in cases.items() if label not in found and any(c.hidden for c in its)]
    if rest and own is not None:
        runner = Children(own[0], edition, limits, game=plan.game, skips=skips, kit=own[1])
        found.update(dict.fromkeys(rest, runner))
    return found


def routes(problem: Problem, plan: Plan, children: Children, others: dict[str, list[tuple[Children, list[Case]]]],
           hidden: dict[str, Children]) -> list[tuple[Children, list[Case]]]:
    """Which children run which of PROBLEM's cases: its own (OTHERS) for a test the student writes,
    the hidden cases' children (HIDDEN: its group's, or the submission's own kept apart) for hidden
    cases, the submission's CHILDREN for its public cases."""
    cases = plan.cases[problem.label]
    if problem.label in others:
        return others[problem.label]
    if problem.label not in hidden:
        return [(children, cases)]
    public = [c for c in cases if not c.hidden or c.runs_in == "reference"]
    secret = [c for c in cases if c.hidden and c.runs_in != "reference"]
    return [(r, part) for r, part in ((children, public), (hidden[problem.label], secret)) if part]


def run_problems(plan: Plan, children: Children, pool_size: int, on_problem: ProgressFn | None,
                 deadline: float, others: dict[str, list[tuple[Children, list[Case]]]] | None = None,
                 hidden: dict[str, Children] | None = None) -> dict[str, ProblemResult]:
    """Every chosen problem's result: settled without running code when it can be, otherwise from
    its cases, which a big problem splits so that both children share it, each part in order.
    A problem in OTHERS runs in its own children (the student's test beside stubs of what it
    tests, one pair of children per version); one in HIDDEN runs its hidden cases in its group's
    children (stubs of the other problems' functions). No child of a student's code holds reference
    code (a mutant, the kit's own, may: see grade's ``trusted``)."""
    results: dict[str, ProblemResult] = {}
    with ThreadPoolExecutor(pool_size) as pool:
        work: dict[str, list[tuple[Children, list[Case]]]] = {}
        for problem in plan.chosen:
            settled = settle(problem, plan, children.edition.submission)
            if settled is None:
                work[problem.label] = [(runner, chunk) for runner, part in
                                       routes(problem, plan, children, others or {}, hidden or {})
                                       for chunk in split(part, pool_size)]
            else:
                results[problem.label] = starter_code(settled, plan)
        running = {label: [pool.submit(runner.run, chunk, deadline) for runner, chunk in chunks]
                   for label, chunks in work.items()}
        for problem in plan.chosen:
            if problem.label in running:
                order = {c.id: k for k, c in enumerate(plan.cases[problem.label])}
                ran = sorted((c for f in running[problem.label] for c in f.result()), key=lambda c: order[c.case_id])
                outcomes = stop_at_first_abort(ran)
                results[problem.label] = starter_code(_conclude(problem, plan.rules[problem.label], outcomes,
                                                                plan.cases[problem.label],
                                                                plan.kit_only.get(problem.label, "")), plan)
                if on_problem:
                    on_problem(results[problem.label])
    return results


class KnownSkips:
    """The submission's top-level statements that a child of this grade had to leave out (one that
    never finished, ended the program or used too much memory), shared by the grade's children
    whose source starts with the submission's statements unchanged (its own children, and its hidden
    cases' groups, which only add the reference's definitions after them): a later child leaves them
    out from its start instead of waiting out each again. The grade's first child loads alone: the
    others start once it has loaded (a child start, some hundredths of a second), so that two never
    wait out the same statement side by side. Only the first STATEMENTS indices (the submission's
    own) are shared; grading threads reach it under a lock. The grade's loading budget is shared
    too (:meth:`left`): the time its children spent in the submission's statements comes off it,
    and a child that could not load at all spends what was left, so no child of the grade gets a
    fresh ``import_budget`` of its own."""

    def __init__(self, statements: int) -> None:
        self.statements = statements
        self._found: dict[int, ImportNote] = {}
        self._lock = threading.Lock()
        self._claimed = False
        self._first_loaded = threading.Event()
        self._spent = 0.0  # seconds of the loading budget this grade's children have used

    def left(self, limits: Limits) -> Limits:
        """LIMITS with what is left of the grade's loading budget as the next child's ``import_budget``."""
        with self._lock:
            return dataclasses.replace(limits, import_budget=max(0.0, limits.import_budget - self._spent))

    def spend(self, seconds: float) -> None:
        with self._lock:
            self._spent += seconds

    def claim_first(self) -> bool:
        """True for the grade's first child to start; any other waits here until that one has loaded."""
        with self._lock:
            first, self._claimed = not self._claimed, True
        if not first:
            self._first_loaded.wait()
        return first

    def first_loaded(self) -> None:
        self._first_loaded.set()

    def known(self) -> dict[int, ImportNote]:
        with self._lock:
            return dict(self._found)

    def learn(self, skipped: dict[int, ImportNote]) -> None:
        with self._lock:
            self._found.update({k: note for k, note in skipped.items() if k < self.statements})


class Children:
    """A submission's sandboxed children, shared by the chunks of cases that grading hands out: a
    chunk takes an idle child or starts one. When the submission cannot be loaded at all, every
    chunk is marked not run, once, with the reason among the notes."""

    def __init__(self, source: str, edition: Edition, limits: Limits, carried: checks.Carried | None = None,
                 game: checks.GameRates | None = None, skips: KnownSkips | None = None,
                 kit: onefunction.KitFunctions | None = None) -> None:
        self.source, self.edition, self.limits, self.carried, self.game = source, edition, limits, carried, game
        self.kit = kit  # the kit's functions its stubs call, served by a child of the kit's own
        self.skips = skips  # shared with the grade's other children of the submission's statements
        self.notes: list[str] = []  # the first child's loading notes, or why nothing could load
        self.unloadable = ""
        self.first: Session | None = None
        self._all: list[Session] = []
        self._idle: list[Session] = []
        self._lock = threading.Lock()

    def run(self, chunk: list[Case], deadline: float) -> list[CaseResult]:
        session = self._take()
        if session is None:
            return [mark_not_run(c, self.unloadable) for c in chunk]
        try:
            if self.kit is not None:  # the kit's answers to the calls the reference makes in these cases
                session.prepared = session.kit_answers(
                    [(c.setup, tuple(s.source for s in c.steps)) for c in chunk if c.check is None], deadline)
            return run_cases(session, chunk, deadline, self.edition, self.carried, self.game)
        finally:
            with self._lock:
                self._idle.append(session)

    def _take(self) -> Session | None:
        with self._lock:
            if self.unloadable:
                return None
            if self._idle:
                return self._idle.pop()
        filename = self.edition.submission
        first = self.skips.claim_first() if self.skips is not None else False
        limits = self.skips.left(self.limits) if self.skips is not None else self.limits
        try:
            session = open_session(self.source, self.edition, limits,
                                   self.skips.known() if self.skips is not None else None, kit=self.kit)
            if self.skips is not None:
                self.skips.learn(session.skipped())
                self.skips.spend(session.load_seconds)
        except LoadError:
            if self.skips is not None:
                self.skips.spend(limits.import_budget)  # it could not load: neither can the others
            with self._lock:
                if not self.unloadable:
                    self.unloadable = messages.could_not_load(filename)
                    self.notes.append(self.unloadable)
            return None
        finally:
            if first and self.skips is not None:
                self.skips.first_loaded()
        with self._lock:
            self._all.append(session)
            if self.first is None:
                self.first = session
                self.notes.extend(sorted_notes(filename, session))
        return session

    def dispose(self) -> None:
        for session in self._all:
            session.dispose()


def with_dependency_hints(results: list[ProblemResult], edition: Edition) -> list[ProblemResult]:
    """RESULTS, where a failed problem whose public cases failed and call a problem that failed too
    says so first: the knowledge of ``depends``, which never costs points. Its hidden cases call the
    reference for the other problems, so only its public cases can fail for the other's sake."""
    by_label = {r.label: r for r in results}
    hinted = []
    for r in results:
        failed = [by_label[d] for d in sorted(_needs(edition, r.label))
                  if d in by_label and by_label[d].status == "failed"]
        public = any(not c.passed and not c.hidden for c in r.graded_cases)  # hidden ones call the kit's
        if r.status == "failed" and failed and public:  # only where its own public cases ran and failed
            hint = scoring_messages.dependency_hint([(d.label, d.name) for d in failed])
            r = dataclasses.replace(r, reason=scoring_messages.hinted_reason(hint, r.reason), hint=hint)
        hinted.append(r)
    return hinted


def _needs(edition: Edition, label: str) -> set[str]:
    """Every problem LABEL's cases call, directly or through another (``depends``, followed)."""
    found: set[str] = set()
    todo = list(edition.problem(label).depends)
    while todo:
        d = todo.pop()
        if d not in found:
            found.add(d)
            todo += edition.problem(d).depends
    return found


def grade_reliably(submission: Submission, edition: Edition, **options: Any) -> Report:
    """:func:`grade`, tried a second time when the kit fails; :class:`KitFailure` if it fails again."""
    try:
        return grade(submission, edition, **options)
    except Exception:  # anything grade raises is the kit's failure, never the submission's: once more
        pass
    try:
        return grade(submission, edition, **options)
    except Exception as exc:
        raise KitFailure(describe_failure(exc), traceback.format_exc()) from exc


def prepare_exact_rate(edition: Edition, plan: Plan, game: checks.GameRates | None) -> None:
    """Start, beside the children, what the exact win rate of :func:`_report_exact_rate` needs and
    every grade in this process shares (the compiled loop, the game's arrays, the baseline's table):
    built once by GAME in a thread of its own while the submission's cases run, so a grade waits
    only for its own strategy's pair. Whatever fails here is found again, and said, where it is used."""
    report = game.report() if game is not None else None
    if game is None or report is None or not plan.include_hidden:
        return
    if not any(p.label == report[0] for p in plan.chosen):
        return
    if not (edition.solution_dir / edition.submission).is_file():
        return
    threading.Thread(target=game.warm, name="hogkit-exact-rate", daemon=True).start()


def _report_exact_rate(edition: Edition, results: dict[str, ProblemResult], session: Session,
                       game: checks.GameRates | None) -> dict[str, ProblemResult]:
    """RESULTS, where the edition's chosen strategy problem gets its exact win rate against the
    baseline as a note, as the course's calculator gave it (``report = {problem = N, strategy =
    "NAME"}``), worked out by GAME (none handed in: no note)."""
    report = game.report() if game is not None else None
    result = results.get(report[0]) if report is not None else None
    if game is None or report is None or result is None or result.status not in ("passed", "ungraded"):
        return results
    if not (edition.solution_dir / edition.submission).is_file():
        return results  # a student's own copy has no reference to compare with
    note = game.report_note(session, report[1], float(edition.run_timeout))
    return {**results, result.label: dataclasses.replace(result, note=note)}


def _result(problem: Problem, rules: list[RuleResult], **fields: Any) -> ProblemResult:
    """PROBLEM's result: failed with no score unless FIELDS say otherwise."""
    return ProblemResult(**{
        "number": problem.number, "label": problem.label, "name": problem.title, "phase": problem.phase,
        "score": 0, "max": problem.points, "status": ProblemStatus.FAILED, "rules": tuple(rules),
        "optional": problem.optional, **fields})


def settle(problem: Problem, plan: Plan, filename: str) -> ProblemResult | None:
    """A result that needs no code run (locked, missing function, no cases), or None to run cases."""
    if plan.unlocked is not None and problem.label not in plan.unlocked:
        return _result(problem, [], status=ProblemStatus.LOCKED, reason=messages.locked(problem.label))
    rules = plan.rules[problem.label]
    if plan.tree is None:
        return _result(problem, rules, reason=messages.unreadable_submission(filename))
    missing = [f for f in problem.functions if f not in plan.names]
    removed = plan.removed
    if missing and missing[0] in removed:
        return _result(problem, rules, reason=scoring_messages.removed_for_syntax(
            missing[0], filename, removed[missing[0]]))
    if missing:
        close = difflib.get_close_matches(missing[0], sorted(plan.names), n=2)
        return _result(problem, rules, reason=scoring_messages.missing_function(filename, missing[0], close))
    if not plan.cases[problem.label]:
        return _result(problem, rules, status=ProblemStatus.UNGRADED, reason=plan.kit_only.get(problem.label, ""))
    return None


CHUNK = 60  # cases worth handing to a second child


def split(cases: list[Case], most: int) -> list[list[Case]]:
    count = max(1, min(most, len(cases) // CHUNK))
    size = -(-len(cases) // count)
    return [cases[k:k + size] for k in range(0, len(cases), size)] or [[]]


def run_cases(session: Session, cases: list[Case], deadline: float = float("inf"), edition: Edition | None = None,
              carried: checks.Carried | None = None, game: checks.GameRates | None = None) -> list[CaseResult]:
    """Run CASES in order; stop at the first endless loop or crash, or when the run's DEADLINE passes.
    A case of another kind than a transcript (``check``) runs as :mod:`graders.scoring.checks` says, and
    never stops the others: its failures are what it is looking for."""
    outcomes: list[CaseResult] = []
    for case in cases:
        if time.monotonic() >= deadline:
            return outcomes + [mark_not_run(c, scoring_messages.run_out_of_time()) for c in cases[len(outcomes):]]
        if case.check is not None and edition is not None:
            outcomes.append(checks.run_check(session, case, edition, deadline, carried, game))
            continue
        outcome = run_case(session, case, deadline)
        outcomes.append(outcome)
        if outcome.error_type == "MemoryError":
            session.close()  # a fresh child for what comes next, not one whose memory ran out
        if aborts(outcome):
            # The problem has failed already; more endless loops or exhausted memory would only cost time.
            why = scoring_messages.run_out_of_time() if time.monotonic() >= deadline else ""
            return outcomes + [mark_not_run(c, why) for c in cases[len(outcomes):]]
    return outcomes


def aborts(outcome: CaseResult) -> bool:
    """Whether a case ended its child's run of cases: it hung, crashed or exhausted memory."""
    return outcome.status in ("timeout", "crashed", "memory") or outcome.error_type == "MemoryError"


def stop_at_first_abort(outcomes: list[CaseResult]) -> list[CaseResult]:
    """OUTCOMES (in case order, from however many children) with every case after the first that
    aborted counted as not run, as one child running them all in order would have: so a verdict
    never depends on how the cases were shared out."""
    for k, outcome in enumerate(outcomes):
        if aborts(outcome):
            return outcomes[: k + 1] + [as_not_run(c) for c in outcomes[k + 1:]]
    return outcomes


def _conclude(problem: Problem, rules: list[RuleResult], outcomes: list[CaseResult], cases: list[Case],
              kit_only: str = "") -> ProblemResult:
    """The problem's result from its cases and rules. A rule that is advice, or a case that checks
    an advice rule (``rule = "FUNCTION"`` in its table), is reported but never costs points. In a
    student's copy a problem only the kit can score (KIT_ONLY, why) stays ungraded, whatever ran."""
    advice = {c.id: c.rule for c in cases if c.rule and not is_required(problem, c.rule)}
    advice.update({c.id: c.id for c in cases if c.advice})
    judged = tuple(dataclasses.replace(o, advice=advice[o.case_id]) if o.case_id in advice else o
                   for o in outcomes)
    result = _result(problem, rules, cases=judged, note=next((o.note for o in outcomes if o.note), ""))
    if kit_only:  # a student's copy: what ran here is a preview, the score comes at hand-in
        return dataclasses.replace(result, status=ProblemStatus.UNGRADED, reason=kit_only)
    if not result.broken_rules and all(c.passed for c in result.graded_cases):
        return dataclasses.replace(result, status=ProblemStatus.PASSED, score=problem.points)
    return dataclasses.replace(result, reason=failure_reason(result))


def failure_reason(result: ProblemResult) -> str:
    """Why RESULT (a problem judged on its cases and rules) failed: its first broken rule, else its
    first failed case (hidden ones by their kinds), as its ``reason`` says before any dependency hint."""
    broken = result.broken_rules
    failed = [c for c in result.graded_cases if not c.passed]
    if broken:
        return scoring_messages.rule_broken(broken[0].text, broken[0].detail)
    if failed[0].hidden:
        return scoring_messages.hidden_cases_failed(result.hidden_groups())
    return scoring_messages.case_failed(failed[0].name, failed[0].reason)


def starter_code(result: ProblemResult, plan: Plan) -> ProblemResult:
    """RESULT, unless its problem's code is still the skeleton's stubs (see
    :func:`graders.editions.markers.untouched_problems`) and it would pass or stay ungraded: then
    starter code, no points, its cases left out (a stub such as ``return 6`` can pass a case that
    only checks the kind of value; what it passes says nothing). Starter code that fails fails as
    any code does. One rule, on every route: the student's runner, a single grade, a class, Gradescope.
    (A problem only the kit grades, as in a student's own copy, keeps saying so.)"""
    if result.label not in plan.starter or result.status not in (ProblemStatus.PASSED, ProblemStatus.UNGRADED):
        return result
    if result.label in plan.kit_only:
        return result
    return dataclasses.replace(result, status=ProblemStatus.STARTER, score=0, cases=(), note="",
                               reason=scoring_messages.starter_code(result.label))


def is_required(problem: Problem, function: str) -> bool:
    """The severity of the problem's rule on FUNCTION (a case may check what a rule states)."""
    return any(r.required for r in problem.rules if r.function == function)


def build_report(edition: Edition, submission: Submission, plan: Plan, results: list[ProblemResult],
                 notes: tuple[str, ...], seconds: float) -> Report:
    """The report of RESULTS: phase totals, the checkpoint when the run covered its whole phase,
    and, when grading worked around a syntax error, that Python itself would not run the file."""
    phases = []
    for ph in edition.phases:
        in_phase = [r for r in results if r.phase == ph.number]
        if in_phase:
            phases.append(PhaseResult(ph.number, ph.name, sum(r.score for r in in_phase), sum(r.max for r in in_phase)))
    does_not_run = ""
    if plan.removals:
        first = min(plan.removals, key=lambda r: r.line)
        does_not_run = scoring_messages.does_not_run(edition.submission, first.line, first.message)
    return Report(
        edition=edition.name,
        title=edition.title,
        submission=str(submission.path),
        total=sum(r.score for r in results),
        max=sum(r.max for r in results),
        phases=tuple(phases),
        problems=tuple(results),
        checkpoint=_checkpoint(edition, results),
        notes=notes,
        seconds=seconds,
        hidden_included=plan.include_hidden,
        isolation=_isolation_line(plan.include_hidden),
        does_not_run=does_not_run,
        course_max=edition.course_points,
        course_of=edition.max_points,
    )


def _isolation_line(hidden: bool) -> str:
    """What the child verified (graders.sandboxing.guard) when hidden cases ran; else the policy's own line."""
    if not hidden:
        return isolation.policy().summary
    return guard.summary()


def _checkpoint(edition: Edition, results: list[ProblemResult]) -> CheckpointResult | None:
    cp = edition.checkpoint
    if cp is None:
        return None
    needed = [p.label for p in edition.problems if p.phase == cp.phase and p.points > 0]
    by_label = {r.label: r for r in results}
    if not all(n in by_label for n in needed):  # only a run covering the whole phase can tell
        return None
    earned = all(by_label[n].status == ProblemStatus.PASSED for n in needed)
    return CheckpointResult(cp.label, cp.phase, cp.points if earned else 0, cp.points)
