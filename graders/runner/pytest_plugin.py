"""pytest plugin: every edition's suites as pytest items, judged in the sandbox.

Contract: with this plugin active (the kit's root ``conftest.py`` loads it), pytest collects each
``tests/editions/<edition>/qNN*.toml`` file as one collector holding

* one item per graded case, run against ``--hog-submission`` (default: the edition's reference
  solution) in the same sandbox ``hogkit grade`` uses, one child per file;
* one item per what-would-Python-display unlock question, checking that its plain-text answers
  are what the reference really displays (``Error``, ``Function``, ``Nothing`` and ``Infinite
  Loop`` included), and one per multiple-choice question checking its answer is a choice.

So ``pytest tests/editions/boar_brawl`` proves the suites and the reference agree, and
``pytest tests/editions/boar_brawl --hog-submission path/to/hog.py`` shows a submission's failures as
pytest failures. pytest runs the suites; it is not the sandbox.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from graders.core import messages
from graders.editions.cases import Case, Question, load_problem_cases, load_questions
from graders.editions.edition import STUDENT_MANIFEST, Edition, load_edition, load_student_edition, problem_label
from graders.runner import messages as runner_messages
from graders.sandboxing.repairs import repair
from graders.sandboxing.sandbox import Session, open_session
from graders.scoring.grading import is_required
from graders.scoring.judge import judge_step, run_case
from graders.scoring.submissions import load_submission

STUDENT_RUN = pytest.StashKey[bool]()  # set when a student's own folder was collected
PROBLEM = re.compile(r"q(\d+[a-z]?)")

LOOP_SECONDS = 2.0  # how long a question with an "Infinite Loop" answer may run: its loop must still be going
LINE_SECONDS = 10.0  # for each line of any other unlock question, run by the reference


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hogkit")
    group.addoption("--hog-submission", default=None, metavar="PATH",
                    help="run the edition suites against this hog.py (default: each edition's reference)")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """``tests/editions/<edition>/qNN*.toml`` in the kit, or ``tests/qNN.json`` in a student's folder."""
    in_kit = (file_path.suffix == ".toml" and (file_path.parent / "edition.toml").is_file()
              and file_path.parent.parent.name == "editions" and file_path.parent.parent.parent.name == "tests")
    in_student_folder = (file_path.suffix == ".json" and file_path.parent.name == "tests"
                         and (file_path.parent / STUDENT_MANIFEST).is_file())
    if file_path.name.startswith("q") and (in_kit or in_student_folder):
        return SuiteFile.from_parent(parent, path=file_path)
    return None


class SuiteFile(pytest.File):
    """One case file; its items share one sandboxed child, started on first use."""

    _edition: Edition | None = None

    @property
    def in_student_folder(self) -> bool:
        return self.path.parent.name == "tests"

    def edition(self) -> Edition:
        if self._edition is None:
            if self.in_student_folder:
                self._edition = load_student_edition(self.path.parent.parent)
            else:
                self._edition = load_edition(self.path.parent.name, self.path.parents[3])
        return self._edition

    _unlocked: set[str] | None = None

    def locked(self, number: str) -> bool:
        """Whether problem NUMBER is still locked in the student's folder (never in the kit); the
        progress is read once per file, not once per case."""
        if not self.in_student_folder:
            return False
        if self._unlocked is None:
            from graders.editions import locking
            from graders.runner import student

            progress = locking.load_progress(self.path.parent.parent)
            self._unlocked = student.unlocked_problems(self.edition(), progress)
        return number not in self._unlocked

    def collect(self) -> Iterator[pytest.Item]:
        edition = self.edition()
        match = re.match(r"q(\d+[a-z]?)(?![a-z])", self.path.name)  # q05.toml, q05a.toml, q05.unlock.toml
        if match is None or problem_label(match.group(1)) not in {p.label for p in edition.problems}:
            return
        label = problem_label(match.group(1))
        if self.in_student_folder:
            self.config.stash[STUDENT_RUN] = True
        for case in load_problem_cases(edition, label):
            if case.path == self.path:
                yield CaseItem.from_parent(self, name=f"{case.id} {case.name}", case=case)
        for q in load_questions(edition, label):
            if q.path == self.path:
                yield QuestionItem.from_parent(self, name=f"{q.id} {q.name}", question=q)

    def child(self, reference: bool = False) -> Session:
        """The child running the submission (or, for unlock answers, always the reference)."""
        attr = "_reference_child" if reference else "_submission_child"
        existing = getattr(self, attr, None)
        if existing is not None:
            return existing
        edition = self.edition()
        option = self.config.getoption("--hog-submission")
        if self.in_student_folder:  # a student's own code, next to its tests
            path = Path(option) if option else self.path.parent.parent
        else:
            path = edition.solution_dir if reference or option is None else Path(option)
        source, _tree, _removed = repair(load_submission(path, edition).source, edition.submission)
        session = open_session(source, edition)
        setattr(self, attr, session)
        return session

    def teardown(self) -> None:
        for attr in ("_reference_child", "_submission_child"):
            session = getattr(self, attr, None)
            if session is not None:
                session.dispose()
                setattr(self, attr, None)


class CaseFailure(Exception):
    pass


class CaseItem(pytest.Item):
    # pytest builds items through from_parent(parent, name=...), and a node's constructor must pass on
    # whatever else pytest gives it (its own arguments, typed there).
    def __init__(self, *, case: Case, name: str, parent: SuiteFile, **kwargs: Any) -> None:
        super().__init__(name, parent, **kwargs)
        self.case = case

    def runtest(self) -> None:
        assert isinstance(self.parent, SuiteFile)
        if self.parent.locked(self.case.problem):  # as the runner: the questions come first
            pytest.skip(messages.locked(self.parent.edition().problem(self.case.problem).label))
        result = run_case(self.parent.child(), self.case)
        problem = self.parent.edition().problem(self.case.problem)
        if not result.passed and self.case.rule and not is_required(problem, self.case.rule):
            pytest.skip(messages.advice_case(self.case.name, result.reason))  # advice: said, never a failure
        if not result.passed:
            raise CaseFailure(f"{result.transcript}\n  expected: {result.expected}\n  got: {result.got}\n"
                              f"  → {result.reason}\n{result.traceback}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: object = None) -> str:
        if isinstance(excinfo.value, CaseFailure):
            return f"{self.case.path.name} {self.case.name}:\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.case.path, 0, f"case {self.case.id}: {self.case.name}"


def check_answers(session: Session, q: Question, setup: str) -> None:
    """Every answer of question Q is what SESSION (the reference) displays; AssertionError at the first
    that is not. The question's steps are closed either way, so no reply of theirs reaches the next."""
    loops = any(step.expected == "Infinite Loop" for step in q.steps)
    timeout = LOOP_SECONDS if loops else LINE_SECONDS * len(q.steps)
    replies = session.steps([step.source for step in q.steps], setup, time.monotonic() + timeout)
    try:
        for step, reply in zip(q.steps, replies):
            # A line the student is not asked about must display nothing: they never see its output.
            passed, got, reason, _debug = judge_step(step, reply, timeout, session.submission.name)
            assert passed, f"{q.id} line {step.line}: >>> {step.source}\n  answer key: {step.expected}\n" \
                           f"  reference: {got}\n  → {reason}"
    finally:
        replies.close()


class QuestionItem(pytest.Item):
    """An unlock question's answers, checked against what the reference really displays."""

    def __init__(self, *, question: Question, name: str, parent: SuiteFile, **kwargs: Any) -> None:
        super().__init__(name, parent, **kwargs)  # as CaseItem's
        self.question = question

    def runtest(self) -> None:
        q = self.question
        if q.is_choice:
            assert q.answer in q.choices, f"{q.id}: answer {q.answer!r} is not among the choices"
            assert len(set(q.choices)) == len(q.choices), f"{q.id}: two choices are the same"
            return
        assert isinstance(self.parent, SuiteFile)
        check_answers(self.parent.child(reference=True), q, self.parent.edition().setup)

    def reportinfo(self) -> tuple[Path, int, str]:
        return Path(self.fspath), 0, f"unlock {self.question.id}: {self.question.name}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """In a student's folder, a short table as the runner prints: each problem's cases passed,
    failed and skipped (a locked problem's are skipped, with the command that unlocks it)."""
    if not terminalreporter.config.stash.get(STUDENT_RUN, False):
        return
    from collections import Counter

    counts: Counter = Counter()  # (problem label, outcome)
    for outcome in ("passed", "failed", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            found = PROBLEM.search(Path(str(getattr(report, "nodeid", "")).split("::")[0]).name)
            if found and getattr(report, "when", "call") in ("call", "setup"):
                counts[(problem_label(found.group(1)), outcome)] += 1
    terminalreporter.write_sep("-", runner_messages.pytest_table_title())
    for label in sorted({label for label, _outcome in counts}):
        terminalreporter.write_line(runner_messages.pytest_problem_line(
            label, counts[(label, "passed")], counts[(label, "failed")], counts[(label, "skipped")]))
