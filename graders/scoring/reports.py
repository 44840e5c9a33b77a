"""Rendering: pure functions from grading records to text, JSON and Markdown.

Nothing here runs code or reads files; the same records (:mod:`graders.core.records`) always render to
the same text. Every renderer takes typed records: a :class:`~graders.core.records.Report` for one
submission, :class:`~graders.core.records.ClassRecord` values for a class, the contest's standings and
an edition's answer key. What a failure means for a student (public failures, hidden groups) is
asked of the records, never worked out here. Hidden cases are summarised by count unless
``show_hidden`` is asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graders.core import messages
from graders.core.records import (
    CaseResult,
    ClassRecord,
    EntryStatus,
    ProblemResult,
    Report,
    RuleResult,
    Standing,
    plain,
)
from graders.core.writers import csv_text, json_text, md_block, md_code, md_line, written_out
from graders.editions.cases import Question, render_steps
from graders.editions.edition import Edition, Phase, Problem
from graders.scoring import messages as scoring_messages

MARK = {"passed": "✓", "failed": "✗", "locked": "○", "ungraded": "·", "starter code": "·"}


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
    if report.isolation and not student:
        lines.append(f"  {report.isolation}")
    for note in report.notes:
        lines.append(f"  {messages.LABEL_NOTE}{note}")
    edition = None if report.edition == default_edition else report.edition
    columns = _columns(report.problems)
    for phase in report.phases:
        lines.append("")
        lines.append(f"Phase {phase.number}: {phase.name}  {_score(phase.score, phase.max)}")
        for p in (r for r in report.problems if r.phase == phase.number):
            problem_lines = _problem_lines(p, verbose, student, path or report.submission, edition, show_hidden,
                                           columns)
            lines.extend(problem_lines[:1] if compact else problem_lines)
    lines.append("")
    if report.checkpoint is not None:
        cp = report.checkpoint
        lines.append(f"{cp.label}: {_score(cp.score, cp.max)}")
    lines.append(messages.total_line(report.total, report.max))
    if report.course_max and report.course_of:
        lines.append(scoring_messages.course_points_line(report.total, report.course_of, report.course_max))
    return written_out("\n".join(lines), keep="\n\t")  # no character a student chose moves or hides text


def _columns(problems: tuple[ProblemResult, ...]) -> tuple[int, int]:
    """The widths of the label and score columns, so that every problem's score lines up (labels such
    as 05a, scores such as 200/200)."""
    labels = max((len(p.label) for p in problems), default=2)
    scores = max((len(_score(p.max, p.max)) for p in problems), default=5)
    return labels, max(scores, 5)


def _problem_lines(
    p: ProblemResult, verbose: bool, student: bool, path: str, edition: str | None, show_hidden: bool,
    columns: tuple[int, int] = (2, 5),
) -> list[str]:
    mark = MARK.get(p.status, "?")
    counts = f"  ({scoring_messages.cases_passed(p.cases_passed, len(p.graded_cases))})" if p.graded_cases else ""
    name = p.name + (scoring_messages.LABEL_OPTIONAL if p.optional else "")
    width = 40 + columns[0] - len(p.label)  # a longer label (05a) takes its room from the name's column
    out = [f"  {mark} Problem {p.label} {name:<{width}} {_score(p.score, p.max):>{columns[1]}}{counts}"]
    out += [f"      {rule_line(r.text, r.passed, r.required, r.detail)}" for r in p.rules if r.passed or r.required]
    out += [f"      {line}" for line in advice_lines(p.rules, p.cases)]
    if p.note:
        out.append(f"      {p.note}")
    if p.done:
        if p.status == "ungraded" and p.reason:  # why no case ran here: graded elsewhere
            out.append(f"      {p.reason}")
        out.extend(_passing_debug(p.cases, verbose, show_hidden))
        return [line for line in out if line]
    failed = [c for c in p.cases if not c.passed and not c.advice]
    shown = [c for c in (failed if verbose else failed[:1]) if show_hidden or not c.hidden]
    rule_broken = any(not r.passed and r.required for r in p.rules)
    # The reason stands alone only when no rule line or case block below already says it.
    if p.reason and not rule_broken and not shown:
        out.append(f"      {p.reason}")
    elif p.hint:
        out.append(f"      {p.hint}")
    for case in shown:
        out.extend(render_case(case, verbose))
    out.extend(_passing_debug(p.cases, verbose, show_hidden))
    if (failed or rule_broken) and (student or not verbose):  # --verbose already shows what its rerun would
        hint = (scoring_messages.rerun_student(p.label) if student
                else scoring_messages.rerun_instructor(path, p.label, edition))
        out.append(f"      {hint}")
    return out


def rule_line(text: str, passed: bool, required: bool, detail: str) -> str:
    """A shape rule's line: ✓ kept, ✗ broken (it costs the problem), ! advice not followed (it costs nothing)."""
    if passed:
        return f"✓ {text}"
    if required:
        return f"✗ {text}: {detail}"
    return f"! {scoring_messages.LABEL_ADVICE}{text}: {detail}"


def advice_lines(rules: tuple[RuleResult, ...], cases: tuple[CaseResult, ...]) -> list[str]:
    """Advice not followed, once each: an advice rule that does not hold, and a case that checks an
    advice rule the syntax check could not fault (a hidden one by its name only)."""
    unheeded = [r for r in rules if not r.passed and not r.required]
    said = {r.function for r in unheeded}
    lines = [rule_line(r.text, False, False, r.detail) for r in unheeded]
    for c in cases:
        if c.advice and not c.passed and c.advice not in said:
            lines.append(f"! {scoring_messages.LABEL_ADVICE}" + messages.advice_case(
                c.name, "" if c.hidden else c.reason))
    return lines


def _debug_lines(case: CaseResult, most: int | None = None) -> str:
    body = "\n".join(messages.printable(d) for d in case.debug[:most])
    heading = scoring_messages.debug_lines_of_case(case.name, case.hidden, len(case.debug))
    return messages.indent(heading + "\n" + body, "      ")


DEBUG_SHOWN = 20  # DEBUG lines shown per case without --verbose


def _passing_debug(cases: tuple[CaseResult, ...], verbose: bool, show_hidden: bool) -> list[str]:
    """The DEBUG lines of the cases that passed (a failed case shows its own), the first
    ``DEBUG_SHOWN`` of each unless VERBOSE; a hidden case's only where hidden cases are shown."""
    return [_debug_lines(c, None if verbose else DEBUG_SHOWN) for c in cases
            if c.passed and c.debug and (show_hidden or not c.hidden)]


def render_case(case: CaseResult, verbose: bool) -> list[str]:
    """A failed case: its transcript up to the wrong line, expected vs got, and the traceback."""
    out = [f"      {scoring_messages.case_heading(case.name, case.hidden)}"]
    transcript = case.transcript
    if transcript:
        out.append(messages.indent(_clip(transcript), "        "))
    expected = _expected_text(case.expected)
    out.append(messages.indent(scoring_messages.LABEL_EXPECTED + expected, "        "))
    got = messages.visible(case.got).replace("\n", "\n          ")
    out.append(messages.indent(scoring_messages.LABEL_GOT + got, "        "))
    legend = messages.whitespace_legend(expected + got)
    if legend:
        out.append(f"        {legend}")
    out.append(f"        → {case.reason}")
    if case.debug:
        out.append(messages.indent(scoring_messages.debug_lines_note(len(case.debug)), "        "))
        out.extend("          " + messages.printable(d) for d in case.debug[:20])
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
    return json_text(plain(report), indent=2)


def render_summary_row(name: str, report: Report) -> str:
    """One line per submission of a class: its phase scores, total and checkpoint."""
    phases = "  ".join(f"P{ph.number} {_score(ph.score, ph.max):>5}" for ph in report.phases)
    cp = f"  checkpoint {_score(report.checkpoint.score, report.checkpoint.max)}" if report.checkpoint else ""
    return f"{name:<28} {phases}  total {_score(report.total, report.max):>5}{cp}"


# -- class grading: one ClassRecord per entry of the class folder ---------------------------------


SUMMARY_DROPS = ("cases", "traceback", "rules")  # kept in records/ID.json, too big for one line per student


def summary_record(record: ClassRecord) -> dict:
    """RECORD for records.jsonl: everything but each case, each rule and the traceback, with the
    number of cases passed per problem instead (the full record stays in records/ID.json)."""
    data = record.to_dict(cases="none")
    out = {k: v for k, v in data.items() if k not in SUMMARY_DROPS and k != "problems"}
    if record.report is not None:
        out["problems"] = [
            {**{k: v for k, v in written.items() if k not in SUMMARY_DROPS},
             "cases_passed": sum(1 for c in p.cases if c.passed),
             "cases_run": sum(1 for c in p.cases if c.ran)}
            for written, p in zip(data["problems"], record.problems)]
    return out


def render_kit_log(records: list[ClassRecord]) -> str:
    """Every record the kit failed to grade (the student, the reason and the traceback), then every
    record it graded on a second attempt; each with the first attempt's failure when it was retried."""
    blocks = []
    for r in sorted(records, key=lambda r: r.status != EntryStatus.KIT_ERROR):
        if r.status == EntryStatus.KIT_ERROR:
            block = scoring_messages.kit_log_heading(r.student, r.reason) + "\n" + r.traceback.rstrip()
        else:
            block = scoring_messages.kit_log_retried_heading(r.student)
        if r.first_failure:
            block += "\n" + scoring_messages.kit_log_first_attempt() + "\n" + r.first_failure.rstrip()
        blocks.append(written_out(block, keep="\n"))  # a log read in a terminal: nothing in it moves the cursor
    return "\n\n".join(blocks) + "\n"


def render_record_markdown(record: ClassRecord) -> str:
    """A student's feedback: scores per phase and problem, and each public failure with its
    transcript; hidden cases only as a count, never their source."""
    lines = [f"# {md_line(record.title or record.edition)}: feedback for {md_line(record.student)}", ""]
    if record.status == EntryStatus.KIT_ERROR:  # the reason and traceback are for the staff (kit-errors.log)
        return "\n".join(lines + [f"**{scoring_messages.kit_failed_feedback()}**", ""])
    report = record.report
    if report is None:
        lines += [f"**Not graded ({record.status}):** {md_line(record.reason)}", "",
                  messages.total_line(0, record.max), ""]
        return "\n".join(lines)
    lines += [f"> {md_line(note)}" for note in report.notes] + ([""] if report.notes else [])
    lines += ["| Problem | Status | Score |", "|---|---|---|"]
    lines += [f"| {p.label} {md_line(p.name)} | {p.status} | {p.score}/{p.max} |" for p in report.problems]
    lines.append("")
    lines += [f"- Problem {p.label}: {md_line(p.note)}" for p in report.problems if p.note]
    lines += [f"- Phase {ph.number}, {md_line(ph.name)}: {ph.score}/{ph.max}" for ph in report.phases]
    if report.checkpoint:
        cp = report.checkpoint
        lines.append(f"- {md_line(cp.label)}: {cp.score}/{cp.max}")
    lines += ["", f"**{messages.total_line(report.total, report.max)}**", ""]
    for p in report.problems:
        lines += _problem_markdown(p)
    return "\n".join(lines)


def _problem_markdown(p: ProblemResult) -> list[str]:
    """A problem's section of the feedback: what failed (the first public case in full, hidden
    cases by what they are about, once) and the advice not followed; nothing for a clean pass."""
    advice = advice_lines(p.rules, p.cases)
    if p.done and not advice:
        return []
    lines = [f"## Problem {p.label}: {md_line(p.name)}", ""]
    lines += [f"- {md_line(r.text)}: {md_line(r.detail)}" for r in p.broken_rules]
    lines += [f"- {md_line(line)}" for line in advice]
    if p.done:
        return lines + [""]
    failures = p.public_failures()
    hidden = p.hidden_groups()
    if not failures and not p.broken_rules:
        lines.append(f"- {md_line(p.reason)}")  # it names the hidden cases that failed, if they are the reason
    else:
        lines += [f"- {md_line(p.hint)}"] if p.hint else []
        lines += [f"- {md_line(scoring_messages.hidden_cases_failed(hidden))}"] if hidden else []
    lines += [f"- {scoring_messages.cases_not_run(n)}"] if (n := p.not_run()) else []
    for case in failures[:1]:
        lines += ["", md_line(scoring_messages.case_heading(case.name, False)), "",
                  md_block(case.transcript, "pycon"), "",
                  f"- {scoring_messages.LABEL_EXPECTED.strip()} {md_code(messages.visible(case.expected))}",
                  f"- {scoring_messages.LABEL_GOT.strip()} {md_code(messages.visible(case.got))}",
                  f"- {md_line(case.reason)}"]
    return lines + [""]


def render_gradescope(record: ClassRecord) -> dict:
    """Gradescope's results.json for one record: a test per problem (public failures in its
    output), a test per problem's hidden cases shown only after publishing, and the checkpoint."""
    report = record.report
    out: dict = {"score": record.total, "execution_time": round(report.seconds if report else 0.0, 3),
                 "output_format": "md", "visibility": "visible", "stdout_visibility": "hidden"}
    if record.status == EntryStatus.KIT_ERROR:  # the student sees that the grader failed; the staff see why
        out["output"] = messages.kit_failed_gradescope()
        out["tests"] = [{"name": messages.kit_failed_staff(record.reason, record.attempts),
                         "score": 0, "max_score": 0, "status": "failed", "output": md_block(record.traceback),
                         "output_format": "md", "visibility": "hidden"}]
        out["extra_data"] = {"kit_error": True}
        return out
    if report is None:
        out["output"] = f"Not graded ({record.status}): {md_line(record.reason)}"
        out["tests"] = []
        return out
    out["tests"] = [test for p in report.problems for test in _gradescope_tests(p)]
    out["output"] = messages.total_line(report.total, report.max)
    if report.checkpoint:  # say where the extra point of the score comes from
        cp = report.checkpoint
        out["tests"].append({"name": cp.label, "number": "checkpoint", "score": cp.score, "max_score": cp.max,
                             "status": "passed" if cp.score == cp.max else "failed",
                             "output": f"{cp.label}: {cp.score}/{cp.max}", "visibility": "visible"})
        out["score"] = report.total + cp.score
        out["output"] = scoring_messages.total_with_checkpoint(report.total, report.max, cp.label, cp.score, cp.max)
    out["extra_data"] = {"isolation": report.isolation}
    return out


def _gradescope_tests(p: ProblemResult) -> list[dict]:
    """A problem's tests on Gradescope: its own, and one for its hidden cases shown after publishing."""
    public = [c for c in p.cases if not c.hidden]
    hidden = [c for c in p.cases if c.hidden]
    failures = p.public_failures()
    body = [md_line(f"{r.text}: {r.detail}") for r in p.broken_rules] + [md_line(line) for line in
                                                                          advice_lines(p.rules, p.cases)]
    for case in failures[:1]:
        body += [md_block(case.transcript, "pycon"), md_line(case.reason)]
    if not p.done and p.hint:
        body.append(md_line(p.hint))
    if not p.done and not failures and not p.broken_rules:  # hidden cases are named in their own test
        body.append(scoring_messages.hidden_only_failed() if p.hidden_groups() else md_line(p.reason))
    if p.note:
        body.append(md_line(p.note))
    tests = [{"name": f"Problem {p.label}: {p.name}", "number": p.label, "score": p.score, "max_score": p.max,
              "status": "passed" if p.done else "failed",
              "output": "\n\n".join(body) or scoring_messages.cases_passed(sum(c.passed for c in public), len(public)),
              "output_format": "md", "visibility": "visible"}]
    if hidden:
        groups = p.hidden_groups()
        tests.append({"name": f"Problem {p.label}: hidden cases", "number": f"{p.label}.hidden", "score": 0,
                      "max_score": 0, "status": "failed" if groups else "passed",
                      "output": md_line(scoring_messages.hidden_cases_failed(groups)) if groups
                      else scoring_messages.cases_passed(len(hidden), len(hidden)),
                      "output_format": "md", "visibility": "after_published"})
    return tests


def render_grades_csv(records: list[ClassRecord], edition: Edition) -> str:
    """One row per submission: id, status, each phase, each problem, checkpoint, total, reason."""
    phases = [ph.number for ph in edition.phases]
    problems = [p.label for p in edition.problems]
    rows: list[list[object]] = [["student", "status", *[f"phase {n}" for n in phases],
                                 *[f"problem {p}" for p in problems], "checkpoint", "total", "max", "reason"]]
    for r in records:
        if r.status == EntryStatus.KIT_ERROR:  # no score at all, rather than a 0 someone might upload
            rows.append([r.student, str(r.status), *[""] * (len(phases) + len(problems) + 2), r.max, r.reason])
            continue
        report = r.report
        phase_scores = {ph.number: ph.score for ph in report.phases} if report else {}
        problem_scores = {p.label: p.score for p in report.problems} if report else {}
        checkpoint = report.checkpoint.score if report and report.checkpoint else ""
        rows.append([r.student, str(r.status), *[phase_scores.get(n, 0) for n in phases],
                     *[problem_scores.get(p, 0) for p in problems], checkpoint, r.total,
                     report.max if report else r.max, r.reason])
    return csv_text(rows)


def render_class_summary(records: list[ClassRecord], edition: Edition) -> str:
    """The class at a glance: pass rate per problem and per case, common failure reasons, scores."""
    from collections import Counter

    graded = [r.report for r in records if r.report is not None and r.status == EntryStatus.GRADED]
    lines = [f"# {md_line(edition.title)}: class summary", "",
             f"{len(graded)} of {len(records)} submissions graded.", ""]
    isolations = sorted({r.isolation for r in graded if r.isolation})
    lines += [f"- {md_line(line)}" for line in isolations] + ([""] if isolations else [])
    failed_kit = sum(r.status == EntryStatus.KIT_ERROR for r in records)
    if failed_kit:
        lines += [f"**{scoring_messages.kit_failures_summary(failed_kit)}**", ""]
    not_graded = Counter(str(r.status) for r in records if r.status not in (EntryStatus.GRADED, EntryStatus.KIT_ERROR))
    if not_graded:
        lines += ["Not graded (the students' submissions): " + ", ".join(f"{n} {s}" for s, n in
                                                                         sorted(not_graded.items())), ""]
    lines += ["## Problems", "", "| Problem | Passed | Rate |", "|---|---|---|"]
    cases: Counter = Counter()
    case_passed: Counter = Counter()
    reasons: Counter = Counter()
    names: dict[tuple[str, str], set[str]] = {}
    for p in edition.problems:
        results = [q for r in graded for q in r.problems if q.label == p.label]
        passed = sum(q.done for q in results)
        if p.points == 0:  # Problem 00's questions, an optional contest entry: nothing to pass for points
            lines.append(f"| {p.label} {md_line(p.title)} | - | {messages.LABEL_NOT_SCORED} |")
        else:
            rate = f"{100 * passed / len(results):.0f}%" if results else "-"
            lines.append(f"| {p.label} {md_line(p.title)} | {passed}/{len(results)} | {rate} |")
        for q in results:
            for c in q.cases:  # generated cases by their template: what a TA can act on
                cases[(p.label, c.about or c.name)] += 1
                case_passed[(p.label, c.about or c.name)] += c.passed
                names.setdefault((p.label, c.about or c.name), set()).add(c.name)
            if q.status in ("failed", "starter code") and q.reason:
                reasons[f"Problem {q.label}: {shorten(q.reason, 160)}"] += 1
    lines += ["", "## Cases that fail most", "", "| Problem | What the cases check | Pass rate |", "|---|---|---|"]
    shown = {key: scoring_messages.case_group(key[1], len(found)) for key, found in names.items()}
    lines += [f"| {label} | {md_line(what)} | {rate}% |" for label, what, rate in _hardest(cases, case_passed, shown)]
    lines += ["", "## Most common failure reasons", ""]
    lines += [f"- {n} × {md_line(reason)}" for reason, n in reasons.most_common(10)] or ["- none"]
    lines += ["", "## Scores", "", "![score histogram](histogram.png)", ""]
    return "\n".join(lines)


def shorten(text: str, most: int) -> str:
    """TEXT cut to MOST characters at a word boundary, with an ellipsis where it was cut."""
    import textwrap

    return textwrap.shorten(text, most, placeholder=" …")


def _hardest(cases: dict, passed: dict, shown: dict, groups: int = 15, names: int = 4) -> list[tuple[str, str, int]]:
    """(problem, what its cases check, pass rate) of the kinds of case (a template's generated cases
    together; SHOWN says each kind) passed least, kinds of one problem with the same rate grouped on
    one row (a problem nobody solved fails all its cases alike)."""
    from collections import defaultdict

    rows: dict[tuple[int, str], list[str]] = defaultdict(list)
    for label, name in sorted(cases):
        rows[(round(100 * passed[(label, name)] / cases[(label, name)]), label)].append(shown[(label, name)])
    out = []
    for (rate, label), found in sorted(rows.items())[:groups]:
        text = "; ".join(found[:names]) + (f"; {messages.and_more(len(found) - names)}" if len(found) > names else "")
        out.append((label, text, rate))
    return out


# -- the contest page's colours ---------------------------------------------------------------------


def heat_colour(value: float) -> str:
    """A colour from light yellow (0) to dark blue (1)."""
    v = min(max(value, 0.0), 1.0)
    low, high = (255, 248, 196), (22, 62, 140)
    red, green, blue = (round(lo + (hi - lo) * v) for lo, hi in zip(low, high))
    return f"#{red:02x}{green:02x}{blue:02x}"


# -- the class contest ------------------------------------------------------------------------------


def render_leaderboard_csv(board: list[Standing], invalid: list[tuple[str, str]]) -> str:
    """The contest's standings, best first, then the entries that could not take part and why."""
    rows: list[list[object]] = [["rank", "student", "match points", "average win rate", "status"]]
    rows += [[row.rank, row.student, row.points, f"{row.average:.6f}", "valid"] for row in board]
    rows += [["", student, "", "", f"invalid: {reason}"] for student, reason in invalid]
    return csv_text(rows)


def render_contest_html(title: str, board: list[Standing], rates: Any, invalid: list[tuple[str, str]],
                        png: bytes = b"") -> str:
    """One page, no outside files: the leaderboard, the win-rate matrix as a heat map (and PNG, the
    matrix drawn by :func:`graders.games.pictures.win_matrix`, when given), invalid entries."""
    import base64
    from html import escape

    names = [escape(row.student) for row in board]
    head = "".join(f'<th title="{n}">{k + 1}</th>' for k, n in enumerate(names))
    body = []
    for i, row in enumerate(board):
        cells = "".join(
            f'<td style="background:{heat_colour(rates[i, j])}" title="{names[i]} vs {names[j]}: '
            f'{100 * rates[i, j]:.2f}%"></td>' if i != j else "<td></td>"
            for j in range(len(board))
        )
        body.append(f"<tr><th>{row.rank}</th><td>{names[i]}</td><td>{row.points}</td>"
                    f"<td>{100 * row.average:.2f}%</td>{cells}</tr>")
    bad = "".join(f"<li>{escape(s)}: {escape(r)}</li>" for s, r in invalid) or "<li>none</li>"
    picture = (f'<p><img alt="the win-rate matrix" src="data:image/png;base64,'
               f'{base64.b64encode(png).decode("ascii")}"></p>') if png else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}: contest</title>
<style>
body {{ font-family: sans-serif; margin: 1em; }}
table {{ border-collapse: collapse; font-size: 12px; }}
td, th {{ padding: 2px 4px; }}
td[title] {{ width: 12px; height: 12px; padding: 0; }}
</style></head><body>
<h1>{escape(title)}: contest</h1>
<p>Each cell is the row entry's exact chance to beat the column entry, averaged over going first and
second (dark: the row wins). A match point is a win rate above 50.0001%.</p>
{picture}
<table><tr><th>rank</th><th>entry</th><th>points</th><th>average</th>{head}</tr>
{chr(10).join(body)}
</table>
<h2>Entries that could not take part</h2><ul>{bad}</ul>
</body></html>
"""


# -- the answer key of the unlock questions -----------------------------------------------------------


def render_answer_key_text(problems: Sequence[tuple[Problem, Sequence[Question]]]) -> str:
    """The answer key in the terminal: each problem's unlock questions, the right choice starred."""
    lines = []
    for problem, questions in problems:
        lines.append(scoring_messages.answer_key_problem_line(problem.label, problem.title, len(questions)))
        for k, q in enumerate(questions, start=1):
            lines.append(f"  Q{k}. {q.name}")
            if q.is_choice:
                lines.append(f"      {q.question}")
                lines += [f"      {'*' if c == q.answer else ' '} {c}" for c in q.choices]
                lines.append(f"      {scoring_messages.answer_key_answer_line(q.answer)}")
            else:
                lines += [f"      {line}" for line in render_steps(q.steps).split("\n")]
        lines.append("")
    if lines:
        lines += [scoring_messages.grading_rule(), ""]
    return "\n".join(lines) + ("\n" if lines else "")


def render_answer_key(title: str, problems: Sequence[tuple[Problem, Sequence[Question]]],
                      phase: Phase | None = None) -> str:
    """A Markdown handout of the answer key: for each of PROBLEMS (with its unlock questions), each
    question by its name (which says what it teaches, or asks why), its transcript with the output
    Python displays, or its choices with the answer marked and restated."""
    heading = scoring_messages.answer_key_heading(title, phase.number if phase else None, phase.name if phase else "")
    lines = [f"# {heading}", "", scoring_messages.answer_key_intro(), "", scoring_messages.grading_rule(), ""]
    for problem, questions in problems:
        lines += [f"## {scoring_messages.answer_key_problem(problem.label, problem.title, len(questions))}", ""]
        for k, q in enumerate(questions, start=1):
            lines += [f"### {k}. {q.name}", ""]
            if q.is_choice:
                lines += [q.question, ""]
                lines += [f"- **{c}** ({scoring_messages.ANSWER_MARK})" if c == q.answer else f"- {c}"
                          for c in q.choices]
                lines += ["", scoring_messages.answer_key_answer(q.answer), ""]
            else:
                lines += [md_block(render_steps(q.steps), "pycon"), ""]
    return "\n".join(lines).rstrip("\n") + "\n"
