"""Rendering: pure functions from grading records to text, JSON and Markdown.

Nothing here runs code or reads files; the same :class:`~graders.grading.Report` always renders
to the same text. Hidden cases are summarised by count unless ``show_hidden`` is asked for.
"""

from __future__ import annotations

import json

from graders import messages
from graders.grading import ProblemResult, Report
from graders.judge import CaseResult

MARK = {"passed": "✓", "failed": "✗", "skipped": "–", "locked": "○", "ungraded": "·"}


def _score(score: int, most: int) -> str:
    return f"{score}/{most}"


def render_text(
    report: Report,
    *,
    verbose: bool = False,
    student: bool = False,
    path: str = "",
    show_hidden: bool = True,
    compact: bool = False,
    default_edition: str = "",
) -> str:
    """The report a person reads: each phase, its problems under it, reasons for every failure.

    ``compact`` keeps only the score lines (what ``python3 ok --score`` prints). Rerun commands
    leave out ``--edition`` when the report's edition is DEFAULT_EDITION.
    """
    lines = [f"{report.title} — {report.submission}"]
    for note in report.notes:
        lines.append(f"  {messages.LABEL_NOTE}{note}")
    edition = None if report.edition == default_edition else report.edition
    for phase in report.phases:
        lines.append("")
        lines.append(f"Phase {phase.number}: {phase.name}  {_score(phase.score, phase.max)}")
        for p in (r for r in report.problems if r.phase == phase.number):
            problem_lines = _problem_lines(p, verbose, student, path or report.submission, edition, show_hidden)
            lines.extend(problem_lines[:1] if compact else problem_lines)
    lines.append("")
    if report.checkpoint is not None:
        cp = report.checkpoint
        lines.append(f"{cp.label}: {_score(cp.score, cp.max)}")
    lines.append(messages.total_line(report.total, report.max))
    return "\n".join(lines)


def _problem_lines(
    p: ProblemResult, verbose: bool, student: bool, path: str, edition: str | None, show_hidden: bool
) -> list[str]:
    mark = MARK.get(p.status, "?")
    counts = f"  ({messages.cases_passed(p.cases_passed, len(p.cases))})" if p.cases else ""
    name = p.name + (messages.LABEL_OPTIONAL if p.optional else "")
    out = [f"  {mark} Problem {p.label} {name:<40} {_score(p.score, p.max):>5}{counts}"]
    for rule in p.rules:
        out.append(f"      {'✓' if rule.passed else '✗'} {rule.text}" + ("" if rule.passed else f": {rule.detail}"))
    if p.status in ("passed", "ungraded"):
        if verbose:
            out.extend(_debug_lines(c) for c in p.cases if c.debug)
        return [line for line in out if line]
    failed = [c for c in p.cases if not c.passed]
    shown = [c for c in (failed if verbose else failed[:1]) if show_hidden or not c.hidden]
    rule_broken = any(not r.passed for r in p.rules)
    # The reason stands alone only when no rule line or case block below already says it.
    if p.reason and not rule_broken and not shown:
        out.append(f"      {p.reason}")
    for case in shown:
        out.extend(render_case(case, verbose))
    if failed or rule_broken:
        hint = messages.rerun_student(p.label) if student else messages.rerun_instructor(path, p.label, edition)
        out.append(f"      {hint}")
    return out


def _debug_lines(case: CaseResult) -> str:
    body = "\n".join(case.debug)
    return messages.indent(messages.debug_lines_note(len(case.debug)) + "\n" + body, "      ")


def render_case(case: CaseResult, verbose: bool) -> list[str]:
    """A failed case: its transcript up to the wrong line, expected vs got, and the traceback."""
    out = [f"      {messages.case_heading(case.name, case.hidden)}"]
    transcript = case.transcript
    if transcript:
        out.append(messages.indent(_clip(transcript), "        "))
    out.append(messages.indent(messages.LABEL_EXPECTED + _expected_text(case.expected), "        "))
    got = messages.visible(case.got).replace("\n", "\n          ")
    out.append(messages.indent(messages.LABEL_GOT + got, "        "))
    out.append(f"        → {case.reason}")
    if case.debug:
        out.append(messages.indent(messages.debug_lines_note(len(case.debug)), "        "))
        out.extend("          " + d for d in case.debug[:20])
    if verbose and case.traceback:
        out.append(messages.indent(case.traceback, "        "))
    return out


def _expected_text(expected: str | None) -> str:
    return messages.visible(expected).replace("\n", "\n          ")


def _clip(transcript: str, most: int = 30) -> str:
    lines = transcript.split("\n")
    if len(lines) <= most:
        return transcript
    return "\n".join(lines[: most // 2] + [f"... ({len(lines) - most} lines not shown) ..."] + lines[-most // 2:])


def render_json(report: Report) -> str:
    """One JSON object: edition, total, max, phases, problems (with cases and rules), checkpoint, notes."""
    return json.dumps(report.as_dict(), indent=2, ensure_ascii=False)


def render_summary_row(name: str, report: Report) -> str:
    """One line per submission of a class: its phase scores, total and checkpoint."""
    phases = "  ".join(f"P{ph.number} {_score(ph.score, ph.max):>5}" for ph in report.phases)
    cp = f"  checkpoint {_score(report.checkpoint.score, report.checkpoint.max)}" if report.checkpoint else ""
    return f"{name:<28} {phases}  total {_score(report.total, report.max):>5}{cp}"


def render_markdown(report: Report, *, show_hidden: bool = False) -> str:
    """Feedback as Markdown: a table of problems, then each failure with its reason."""
    lines = [f"# {report.title}", "", "| Problem | Status | Score |", "|---|---|---|"]
    for p in report.problems:
        lines.append(f"| {p.label} {p.name} | {p.status} | {_score(p.score, p.max)} |")
    lines += ["", f"**Total: {_score(report.total, report.max)}**", ""]
    for p in report.problems:
        if p.status == "failed" and p.reason:
            lines.append(f"- Problem {p.label}: {p.reason}")
    return "\n".join(lines) + "\n"
