"""Checks: the cases that are not transcripts, run in the sandbox and judged here, in the parent.

Contract: two kinds, declared in the case files (see :mod:`graders.editions.cases`):

* a run of a test the student wrote (:class:`StudentRun`): the student's function (and the
  top-level helpers of theirs it calls) is carried into a module of the reference's imports and
  constants, called with no arguments in a sandboxed child. The run passes when the call returns
  and fails when it raises, runs out of time or ends the child. The case passes when that is what
  the case asks for. Only the exception's type (when it is one of Python's own: a class's name is
  the student's to choose) and the line within the student's own function are reported, never a
  message, which the student's code could fill with any text. At grading, the functions the case
  keeps (the one tested and the helpers it needs) are stubs in that module: the kit's own child
  holds the reference, or the case's wrong version of it, and answers them (see
  :mod:`graders.editions.onefunction`), so no line of either reaches the child, whatever the
  student's test reads. (Without stubs, as in a student's own module, the version is installed.)
* an exact win rate (:class:`WinRateCheck`): the student's strategy is tabulated in the sandbox
  as plain data and its exact chance to win is worked out by the edition's game, handed in by
  the instructor's side (a :class:`GameRates`, :mod:`graders.games.game`'s ``Game``); it passes at
  ``at_least`` or above, the figure in its note. Where no game is handed in (a student's own copy,
  which has no reference and no numpy), the case is not run.

Nothing the child says is trusted beyond its exact-typed plain data.
"""

from __future__ import annotations

import ast
import builtins
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from graders.core import messages, syntax
from graders.core.errors import AnalysisError, EditionError
from graders.core.records import CaseResult, CaseStatus
from graders.editions.cases import Case, StudentRun, WinRateCheck
from graders.editions.edition import Edition
from graders.sandboxing.sandbox import Session
from graders.scoring import messages as scoring_messages


class GameRates(Protocol):
    """What grading asks of an edition's game (the instructor's side implements it: the student's
    side never imports the game's modules)."""

    def rates_against(self, session: Session, strategy: str, against: str, seconds: float) -> dict[str, float]:
        ...

    def report(self) -> tuple[str, str] | None:
        ...

    def warm(self) -> None:
        ...

    def report_note(self, session: Session, strategy: str, seconds: float) -> str:
        ...


@dataclass(frozen=True)
class Carried:
    """The student's functions put after the reference's source: the composed source, and for
    each function (its first line there, its first line in the submission, its number of lines)."""

    source: str
    lines: tuple[tuple[int, int, int], ...]

    def original_line(self, line: int | None) -> int | None:
        for first, original, count in self.lines:
            if line is not None and first <= line < first + count:
                return original + line - first
        return None


def carry(reference: str, submission: str, tree: ast.Module, function: str, keep: tuple[str, ...] = (),
          also: Iterable[str] = ()) -> Carried:
    """A module for one run of the student's test FUNCTION (from SUBMISSION, parsed as TREE): of
    REFERENCE, only its statements that are no definitions (imports, constants) and the functions in
    KEEP; then FUNCTION and every top-level function of the student's that the code so far calls
    (or ALSO names), directly or not, and that it does not define. Grading passes as REFERENCE the
    reference's statements with stubs for KEEP (see onefunction.stubbed_reference): no line of the
    reference's solutions reaches the child."""
    ref_tree = syntax.parse_module(reference)
    lines = reference.split("\n")
    kept: list[ast.stmt] = [n for n in ref_tree.body if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                            ast.ClassDef)) or n.name in keep]
    own = _bound(kept)
    theirs = _defined(tree)
    wanted: set[str] = set()
    todo = [function, *also] + [n.id for node in kept for n in ast.walk(node) if isinstance(n, ast.Name)]
    while todo:
        name = todo.pop()
        if name in wanted or name not in theirs or (name != function and name in own):
            continue
        wanted.add(name)
        todo += [n.id for n in ast.walk(theirs[name]) if isinstance(n, ast.Name)]
    parts = ["\n".join(lines[_first_line(n) - 1: n.end_lineno]) + "\n\n" for n in kept]
    carried_lines = []
    first = sum(part.count("\n") for part in parts) + 1
    theirs_lines = submission.split("\n")  # once: a submission of many functions is split once, not once each
    for name in sorted(wanted, key=lambda n: theirs[n].lineno):
        node = theirs[name]
        start = _first_line(node)
        text = "\n".join(theirs_lines[start - 1: node.end_lineno]) + "\n\n"
        carried_lines.append((first, start, text.count("\n")))
        parts.append(text)
        first += text.count("\n")
    return Carried("".join(parts), tuple(carried_lines))


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno] + [d.lineno for d in decorators])


def _bound(body: list[ast.stmt]) -> set[str]:
    """The names BODY's top-level statements bind: definitions, imports and assignments."""
    found: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update((a.asname or a.name).split(".")[0] for a in node.names)
        else:
            found.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return found


def _defined(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def reference_file(edition: Edition) -> Path:
    return edition.solution_dir / edition.submission


def run_check(session: Session, case: Case, edition: Edition, deadline: float = float("inf"),
              carried: Carried | None = None, game: GameRates | None = None) -> CaseResult:
    if isinstance(case.check, StudentRun):
        return _student_run(session, case, case.check, min(deadline, time.monotonic() + case.timeout), carried)
    if isinstance(case.check, WinRateCheck):
        return _win_rate(session, case, case.check, edition, deadline, game)
    raise EditionError(messages.broken_spec(str(case.path), case.id))


def _result(case: Case, passed: bool, reason: str = "", *, status: CaseStatus | None = None, got: str = "",
            note: str = "", error_type: str = "", seconds: float = 0.0) -> CaseResult:
    expected = None
    if isinstance(case.check, StudentRun):
        expected = scoring_messages.RUN_PASSES if case.check.must_pass else scoring_messages.RUN_FAILS
    elif isinstance(case.check, WinRateCheck):
        expected = scoring_messages.win_rate_needed(case.check.at_least)
    return CaseResult(case_id=case.id, name=case.name, hidden=case.hidden, passed=passed,
                      status=status or (CaseStatus.PASSED if passed else CaseStatus.FAILED), reason=reason,
                      expected=expected, got=got, note=note, error_type=error_type, seconds=seconds, about=case.about)


def _student_run(session: Session, case: Case, run: StudentRun, ends: float, carried: Carried | None
                 ) -> CaseResult:
    if case.runs_in == "reference" and carried is None:  # no reference at hand: never the student's own module
        return _result(case, False, messages.graded_by_the_kit(case.problem), status=CaseStatus.NOT_RUN)
    # Where the tested functions are stubs, the kit's own child holds the version (the reference, or
    # one wrong version) and nothing of it reaches this child; else it is installed in the module.
    installs = bool(run.source) and session.kit is None
    steps = ([f"install({session.module!r}, {run.source!r})"] if installs else []) + [f"{run.function}()"]
    replies = session.steps(steps, f"from {session.module} import *", ends)
    try:
        got = list(replies)
    finally:
        replies.close()
    if installs and got and got[0].status == "error":  # the kit's own variant does not load
        raise EditionError(messages.broken_spec(str(case.path), str((got[0].error or {}).get("type"))))
    last = got[-1]
    seconds = sum(r.seconds for r in got)
    returned = last.status == "ok"
    if returned == run.must_pass:
        return _result(case, True, got=scoring_messages.RUN_PASSES if returned else scoring_messages.RUN_FAILS,
                       seconds=seconds)
    if returned:
        return _result(case, False, scoring_messages.student_test_missed(), got=scoring_messages.RUN_PASSES,
                       seconds=seconds)
    if last.status == "timeout":
        return _result(case, False, scoring_messages.student_test_too_slow(case.timeout), status=CaseStatus.FAILED,
                       got=scoring_messages.RUN_FAILS, seconds=seconds)
    error = last.error or {}
    filename = session.submission.name
    line = carried.original_line(error.get("line")) if carried else None
    kind = builtin_name(error.get("type")) if error else last.status
    return _result(case, False, scoring_messages.student_test_failed_right(kind, filename, line),
                   got=scoring_messages.RUN_FAILS, error_type=kind, seconds=seconds)


BUILTIN_EXCEPTIONS = frozenset(n for n, v in vars(builtins).items()
                                if isinstance(v, type) and issubclass(v, BaseException))


def builtin_name(name: object) -> str:
    """NAME when it names one of Python's own exceptions; otherwise words of the kit's, since the
    student chooses a class's name and could spell anything with it (the reference included)."""
    return name if isinstance(name, str) and name in BUILTIN_EXCEPTIONS else scoring_messages.AN_EXCEPTION_OF_THEIR_OWN


def _win_rate(session: Session, case: Case, check: WinRateCheck, edition: Edition, deadline: float,
              game: GameRates | None) -> CaseResult:
    if game is None or not reference_file(edition).is_file():
        return _result(case, False, scoring_messages.win_rate_not_here(), status=CaseStatus.NOT_RUN)
    seconds = max(0.0, min(case.timeout, deadline - time.monotonic()))
    try:
        rates = game.rates_against(session, check.strategy, check.against, seconds)
    except AnalysisError as exc:
        return _result(case, False, str(exc))
    figure = scoring_messages.win_rate_figure(rates["average"], rates["first"], rates["second"], check.against)
    if rates["average"] >= check.at_least:
        return _result(case, True, got=figure, note=figure)
    return _result(case, False, scoring_messages.win_rate_short(figure, check.at_least), got=figure, note=figure)
