"""Checklist: what an edition still lacks, in the order to do it (``hogkit build --check``).

Contract: :func:`still_to_do` reads an edition's files and returns one line per thing left, in the
order an author does them: the manifest (a ``TODO`` left, the title); the reference (every function
a problem names defined, every scored problem's markers, no ``TODO`` left); the handout (there, no
``TODO`` left); the generated files (stale: ``hogkit build``, and nothing further is checked till
it ran); the cases (every scored problem with a public case and a hidden one, or the kit's own
check; unlock questions somewhere); then, once nothing else is left, the
reference graded on every case, hidden ones included, in the sandbox as a submission is, each
problem it does not earn in full named with its first failing case. An empty list means the edition
is whole (mutation testing is the next step, too slow for a check). Nothing is written.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

from graders.authoring import messages as authoring_messages
from graders.authoring.newedition import TODO
from graders.core import syntax
from graders.core.errors import EditionError, IsolationRefused, MarkerError
from graders.core.records import ProblemStatus, Report
from graders.editions.cases import load_problem_cases, load_questions
from graders.editions.edition import Edition, problem_label
from graders.editions.markers import BEGIN

Grader = Callable[[Edition], Report]


def still_to_do(edition: Edition, stale: list[Path], grade: Grader | None = None) -> list[str]:
    """What EDITION still lacks, in order; STALE are the files a build would change. GRADE (default:
    the sandbox's grading of the reference) is asked only when nothing else is left."""
    steps = _todo_lines(edition, edition.suite_dir / "edition.toml")
    steps += _reference(edition)
    handout = edition.handout_dir / "handout.md"
    steps += (_todo_lines(edition, handout) if handout.is_file()
              else [authoring_messages.todo_no_handout(_shown(edition, handout))])
    if stale:  # the generated cases are part of what the case checks count
        return [*steps, authoring_messages.todo_build(edition.name, len(stale))]
    steps += _cases(edition)
    if steps:
        return steps
    return reference_steps(edition, grade or _grade_reference)


def _shown(edition: Edition, path: Path) -> str:
    return str(path.relative_to(edition.root)) if path.is_relative_to(edition.root) else str(path)


def _todo_lines(edition: Edition, path: Path) -> list[str]:
    """A step per line of PATH that still says TODO."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    return [authoring_messages.todo_left(_shown(edition, path), n, line.strip())
            for n, line in enumerate(lines, start=1) if TODO in line]


def _reference(edition: Edition) -> list[str]:
    path = edition.solution_dir / edition.submission
    try:
        source = path.read_text(encoding="utf-8")
        defined = {n.name for n in ast.walk(syntax.parse_module(source, str(path))) if isinstance(n, ast.FunctionDef)}
    except (OSError, SyntaxError, ValueError) as exc:
        return [authoring_messages.todo_reference_unreadable(_shown(edition, path), str(exc))]
    marked = {problem_label(m["n"]) for m in map(BEGIN.match, source.splitlines()) if m}
    steps = []
    for problem in edition.problems:
        steps += [authoring_messages.todo_function_missing(problem.label, f, _shown(edition, path))
                  for f in problem.functions if f not in defined]
        if problem.points and problem.functions and problem.label not in marked:
            steps.append(authoring_messages.todo_no_markers(problem.label, _shown(edition, path)))
    return steps + _todo_lines(edition, path)


def _cases(edition: Edition) -> list[str]:
    steps, questions = [], 0
    for problem in edition.problems:
        try:
            cases = load_problem_cases(edition, problem.label)
            questions += len(load_questions(edition, problem.label))
        except (EditionError, MarkerError) as exc:
            steps.append(authoring_messages.todo_case_file(problem.label, str(exc)))
            continue
        if problem.points and not any(not c.hidden for c in cases):
            steps.append(authoring_messages.todo_no_cases(problem.label, hidden=False))
        if problem.points and not any(c.hidden or c.check is not None for c in cases):  # (or the kit's own check)
            steps.append(authoring_messages.todo_no_cases(problem.label, hidden=True))
    if not questions:
        steps.append(authoring_messages.todo_no_questions(_shown(edition, edition.suite_dir)))
    return steps + [line for path in sorted(edition.suite_dir.glob("q*.toml")) for line in _todo_lines(edition, path)]


def reference_steps(edition: Edition, grade: Grader) -> list[str]:
    """A step per problem whose cases the reference does not all pass (advice ones too: a wrong
    expectation there misleads students though it costs nothing), naming its first failing case."""
    try:
        report = grade(edition)
    except IsolationRefused as exc:
        return [authoring_messages.todo_cannot_grade(str(exc))]
    steps = []
    for problem in report.problems:
        failed = next((c for c in problem.cases if not c.passed), None)
        if failed is not None:
            steps.append(authoring_messages.todo_reference_fails(problem.label, failed.name, failed.expected or "",
                                                                 failed.got or failed.reason))
        elif problem.status not in (ProblemStatus.PASSED, ProblemStatus.UNGRADED):
            steps.append(authoring_messages.todo_reference_fails(problem.label, problem.reason or problem.status.value,
                                                                 "", ""))
    return steps


def _grade_reference(edition: Edition) -> Report:
    from graders.games.game import game_of
    from graders.scoring.grading import grade
    from graders.scoring.submissions import load_submission

    return grade(load_submission(edition.solution_dir, edition), edition, trusted=True, game=game_of(edition))
