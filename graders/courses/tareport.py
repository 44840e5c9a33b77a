"""TA report: what a class's activity logs say about the unlock questions and the test runs.

Contract: :func:`summarise` is a pure function from each student's :class:`graders.runner.activity.Activity`
and the edition's questions and problems to a :class:`TaReport`: per unlock question (and per
prompt of a question with several), the wrong answers, ranked by how many students gave each (then
how often), and how many tries unlocking took; per problem, how many test runs students made, how
many runs it took until it first passed (None when nobody passed it), and who never saw it pass;
the problems ranked by runs per student. :func:`misconceptions` ranks each problem's wrong answers,
across its prompts, by how many students share each: the misconceptions to teach in section, first
what most students believe. Renderers turn the report into Markdown and CSV;
:func:`write_report` reads a class folder and writes them with a picture (``hogkit report``).
:func:`graders.scoring.reports.render_answer_key` is the other side for the TAs: the answer key of
a phase (or any problems) as a Markdown handout for section, every unlock question with its answer.

A log handed in twice (a folder and its zip, or two students handing in one log) counts once,
known by its hash chain; ``ok --score`` runs are no tries at a problem and are left
out of the runs. Nothing here reads or writes a grade: the logs are the students' own, easily changed, and they
only ever inform teaching. A missing, unreadable or tampered log is a note.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from graders.core import messages
from graders.core.errors import InputError
from graders.core.writers import csv_text, md_code, md_line
from graders.courses import messages as courses_messages
from graders.editions.edition import Edition
from graders.runner.activity import Activity, read_activity

MOST_WRONG_SHOWN = 10  # wrong answers listed per problem in the Markdown (the CSV has them all)
MOST_TRIES = 10**6  # a log's count of tries is clamped to this: a forged 10**400 is no float


@dataclass(frozen=True)
class PromptInfo:
    """One thing a student types to unlock: a choice question, or one statement of a transcript."""

    problem: str
    question: str  # the question's id
    prompt: int
    name: str
    asked: str  # the question, or the statement whose output is asked for
    answer: str


@dataclass(frozen=True)
class WrongAnswer:
    text: str
    times: int
    students: int


@dataclass(frozen=True)
class QuestionSummary:
    info: PromptInfo
    students: int  # who answered it at least once
    unlocked: int  # who got it right
    tries_median: float
    tries_most: int
    wrong: tuple[WrongAnswer, ...]  # given by the most students first (then most often)


@dataclass(frozen=True)
class Misconception:
    """A wrong answer to one prompt, as a problem's ranking lists it."""

    info: PromptInfo
    wrong: WrongAnswer


@dataclass(frozen=True)
class ProblemSummary:
    problem: str
    title: str
    students: int  # who ran its tests
    runs: int  # all their runs together
    runs_per_student: float
    passed: int  # who saw it pass
    runs_to_pass_median: float | None  # runs up to and including the first that passed; None: nobody passed
    never_passed: int


@dataclass(frozen=True)
class TaReport:
    title: str
    submissions: int
    with_logs: int
    questions: tuple[QuestionSummary, ...]
    problems: tuple[ProblemSummary, ...]  # most runs per student first
    notes: tuple[str, ...] = ()


def prompt_infos(edition: Edition) -> tuple[PromptInfo, ...]:
    """Every unlock prompt of EDITION, with its question, statement and answer, in problem order."""
    from graders.editions.cases import load_questions

    found = []
    for problem in edition.problems:
        for q in load_questions(edition, problem.number):
            if q.is_choice:
                found.append(PromptInfo(problem.label, q.id, 0, q.name, q.question, q.answer))
                continue
            for k, step in enumerate(q.steps):
                if step.expected is not None:
                    found.append(PromptInfo(problem.label, q.id, k, q.name, ">>> " + step.source, step.expected))
    return tuple(found)


def _normal(answer: str) -> str:
    from graders.editions.locking import normalise

    return normalise(answer)


def summarise_prompt(info: PromptInfo, logs: Mapping[str, Activity]) -> QuestionSummary | None:
    """How the class did on one prompt; None when no log mentions it."""
    tries: list[int] = []
    unlocked = 0
    given: Counter[str] = Counter()
    givers: Counter[str] = Counter()
    for activity in logs.values():
        events = [e for e in activity.unlocks
                  if (e.problem, e.question, e.prompt) == (info.problem, info.question, info.prompt)]
        if not events:
            continue
        tries.append(min(max(sum(e.tries for e in events), 0), MOST_TRIES))
        unlocked += any(e.unlocked for e in events)
        mine = [_normal(w) for e in events for w in e.wrong]
        given.update(mine)
        givers.update(set(mine))
    if not tries:
        return None
    wrong = tuple(WrongAnswer(text, n, givers[text]) for text, n in
                  sorted(given.items(), key=lambda item: (-givers[item[0]], -item[1], item[0])))
    return QuestionSummary(info, len(tries), unlocked, float(statistics.median(tries)), max(tries), wrong)


def summarise_problem(label: str, title: str, logs: Mapping[str, Activity]) -> ProblemSummary:
    runs: list[int] = []
    to_pass: list[int] = []
    for activity in logs.values():
        mine = [e for e in activity.tests if e.problem == label and not e.score]  # --score tries no problem
        if not mine:
            continue
        runs.append(len(mine))
        first = next((k for k, e in enumerate(mine, start=1) if e.passed), None)
        if first is not None:
            to_pass.append(first)
    return ProblemSummary(label, title, len(runs), sum(runs), round(sum(runs) / len(runs), 2) if runs else 0.0,
                          len(to_pass), float(statistics.median(to_pass)) if to_pass else None,
                          len(runs) - len(to_pass))


def summarise(title: str, logs: Mapping[str, Activity], prompts: Sequence[PromptInfo],
              problems: Sequence[tuple[str, str]]) -> TaReport:
    """The class's report from each student's log (LOGS by id), the edition's PROMPTS and its
    PROBLEMS as (label, title). A log handed in more than once counts once (see :func:`distinct_logs`)."""
    logs, same = distinct_logs(logs)
    questions = tuple(s for s in (summarise_prompt(p, logs) for p in prompts) if s is not None)
    ran = [summarise_problem(label, name, logs) for label, name in problems]
    ranked = tuple(sorted((p for p in ran if p.students), key=lambda p: (-p.runs_per_student, p.problem)))
    notes = tuple(n for activity in logs.values() for n in activity.notes) + same
    with_logs = sum(1 for a in logs.values() if a.status != "missing")
    return TaReport(title, len(logs) + len(same), with_logs, questions, ranked, notes)


def misconceptions(report: TaReport) -> dict[str, tuple[Misconception, ...]]:
    """Each problem's wrong answers (by label, in problem order), across its prompts, ranked by how
    many students gave each, then how often, then in the answer key's order."""
    found: dict[str, list[tuple[int, Misconception]]] = {}
    for order, q in enumerate(report.questions):
        found.setdefault(q.info.problem, []).extend((order, Misconception(q.info, w)) for w in q.wrong)
    return {problem: tuple(m for _, m in sorted(ranked, key=lambda item: (-item[1].wrong.students,
                                                                          -item[1].wrong.times, item[0])))
            for problem, ranked in found.items()}


def distinct_logs(logs: Mapping[str, Activity]) -> tuple[dict[str, Activity], tuple[str, ...]]:
    """LOGS with each log handed in more than once kept once: a log whose chain ends inside a longer
    (or, on a tie, an earlier by id) log's chain is a copy of it (the same file twice, or an older copy
    of one that grew); and a note per copy left out, naming both."""
    kept: list[str] = []
    seen: dict[str, str] = {}  # a line's hash -> the kept log holding it
    notes = []
    for sid in sorted(logs, key=lambda k: (-len(logs[k].chain), k)):
        chain = logs[sid].chain
        if chain and chain[-1] in seen:
            notes.append(courses_messages.ta_same_log(logs[sid].where, logs[seen[chain[-1]]].where))
            continue
        kept.append(sid)
        seen.update(dict.fromkeys(chain, sid))
    return {sid: logs[sid] for sid in logs if sid in kept}, tuple(sorted(notes))


# -- rendering ----------------------------------------------------------------------------------------


def _code(text: str) -> str:
    """TEXT as a Markdown code span safe inside a table cell."""
    return md_code(text)


def _n(value: float) -> str:
    return messages.points_text(value)


def _until_passed(p: ProblemSummary) -> str:
    return _n(p.runs_to_pass_median) if p.runs_to_pass_median is not None else courses_messages.ta_nobody_passed()


def render_markdown(report: TaReport) -> str:
    lines = [f"# {md_line(report.title)}: what the unlock questions and test runs show", "",
             courses_messages.ta_report_intro(report.submissions, report.with_logs), ""]
    if report.problems:
        lines += ["## Where students ran the tests most", "", "![test runs per problem](runs.png)", "",
                  "| problem | students | runs per student | passed | runs until it passed (median) | never passed |",
                  "|---|---|---|---|---|---|"]
        lines += [f"| {p.problem} {md_line(p.title)} | {p.students} | {_n(p.runs_per_student)} | {p.passed} | "
                  f"{_until_passed(p)} | {p.never_passed} |" for p in report.problems]
        lines.append("")
    lines += [f"## {courses_messages.ta_misconceptions_heading()}", "", courses_messages.ta_misconceptions_intro(), ""]
    ranked = misconceptions(report)
    for problem in dict.fromkeys(q.info.problem for q in report.questions):
        lines += [f"### Problem {problem}", ""] + _ranked_table(ranked.get(problem, ()))
        lines += _tries_list([q for q in report.questions if q.info.problem == problem])
    if not report.questions:
        lines += [courses_messages.ta_no_unlocks(), ""]
    if report.notes:
        lines += ["## Notes", ""] + [f"- {md_line(n)}" for n in report.notes] + [""]
    return "\n".join(lines)


def _tries_list(questions: Sequence[QuestionSummary]) -> list[str]:
    """How unlocking went, per question (its name once) and per prompt: who answered, unlocked, the tries."""
    lines: list[str] = []
    named = ""
    for q in questions:
        if q.info.question != named:
            named = q.info.question
            lines.append(f"- **{md_line(q.info.name)}**")
        lines.append(f"  - {_code(q.info.asked)}, answer {_code(q.info.answer)}: "
                     f"{courses_messages.ta_tries_line(q.students, q.unlocked, _n(q.tries_median), q.tries_most)}")
    return [*lines, ""]


def _ranked_table(ranked: Sequence[Misconception]) -> list[str]:
    """A problem's wrong answers as a table, those most students gave first (at most MOST_WRONG_SHOWN)."""
    if not ranked:
        return [courses_messages.ta_no_wrong_answers(), ""]
    lines = ["| students | wrong answer | times | question | answer |", "|---|---|---|---|---|"]
    lines += [f"| {m.wrong.students} | {_code(m.wrong.text)} | {m.wrong.times} | {md_line(m.info.name)} "
              f"{_code(m.info.asked)} | {_code(m.info.answer)} |" for m in ranked[:MOST_WRONG_SHOWN]]
    more = len(ranked) - MOST_WRONG_SHOWN
    return lines + ([""] + [courses_messages.ta_more_wrong_answers(more)] if more > 0 else []) + [""]


def _csv(rows: Sequence[Sequence[object]]) -> str:
    return csv_text(rows)


def render_wrong_answers_csv(report: TaReport) -> str:
    """Every wrong answer, each problem's ranked as :func:`misconceptions` ranks them: problem, question,
    prompt, name, statement, answer, wrong answer, times, students."""
    rows: list[list[object]] = [["problem", "question", "prompt", "name", "asked", "answer", "wrong answer", "times",
                                 "students"]]
    for ranked in misconceptions(report).values():
        rows += [[m.info.problem, m.info.question, m.info.prompt, m.info.name, m.info.asked, m.info.answer,
                  m.wrong.text, m.wrong.times, m.wrong.students] for m in ranked]
    return _csv(rows)


def render_unlock_csv(report: TaReport) -> str:
    rows: list[list[object]] = [["problem", "question", "prompt", "name", "students", "unlocked", "tries (median)",
                                 "tries (most)", "wrong answer most students gave", "students who gave it", "times"]]
    for q in report.questions:
        top = q.wrong[0] if q.wrong else None
        rows.append([q.info.problem, q.info.question, q.info.prompt, q.info.name, q.students, q.unlocked,
                     _n(q.tries_median), q.tries_most, top.text if top else "", top.students if top else 0,
                     top.times if top else 0])
    return _csv(rows)


def render_runs_csv(report: TaReport) -> str:
    rows: list[list[object]] = [["problem", "title", "students", "runs", "runs per student", "passed",
                                 "runs until it passed (median)", "never passed"]]
    rows += [[p.problem, p.title, p.students, p.runs, _n(p.runs_per_student), p.passed,
              _n(p.runs_to_pass_median) if p.runs_to_pass_median is not None else "", p.never_passed]
             for p in report.problems]  # nobody passed: no number of runs, an empty cell
    return _csv(rows)


# -- a class folder in, files out ----------------------------------------------------------------------


def class_logs(folder: Path, edition: Edition, skip: Path | None = None) -> dict[str, Activity]:
    """Each student's log in a class folder, by id (as class grading names them)."""
    from graders.scoring.submissions import discover

    return {entry.student: read_activity(entry.path, edition.submission)
            for entry in discover(folder, edition.submission, skip=skip)}


def write_report(folder: Path, edition: Edition, out: Path) -> TaReport:
    """Read FOLDER's logs and write OUT/ta-report.md, wrong-answers.csv, unlock.csv, test-runs.csv
    and runs.png with runs.svg."""
    from graders.core.storage import write_atomically
    from graders.games import pictures

    logs = class_logs(folder, edition, skip=out)
    if not logs:
        raise InputError(courses_messages.empty_class(str(folder)))
    report = summarise(edition.title, logs, prompt_infos(edition), [(p.label, p.title) for p in edition.problems])
    write_atomically(out / "ta-report.md", render_markdown(report))
    write_atomically(out / "wrong-answers.csv", render_wrong_answers_csv(report))
    write_atomically(out / "unlock.csv", render_unlock_csv(report))
    write_atomically(out / "test-runs.csv", render_runs_csv(report))
    ordered = sorted(report.problems, key=lambda p: p.problem)
    for fmt in pictures.FORMATS:
        picture = pictures.test_runs(courses_messages.ta_runs_title(edition.title), [p.problem for p in ordered],
                                     [p.runs_per_student for p in ordered],
                                     [p.runs_to_pass_median or 0.0 for p in ordered], fmt)  # nobody passed: no bar
        write_atomically(out / f"runs.{fmt}", picture)
    return report


# -- the answer key as a handout for section ---------------------------------------------------------------
