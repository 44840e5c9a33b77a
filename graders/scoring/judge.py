"""The judge: run a case's steps in a session and compare what came back, in the parent.

Contract: comparison happens here and only here, on decoded plain data. A value is display with
``repr`` of an exact-typed copy, so an object that claims to equal everything, or a ``__repr__``
that prints the expected text, never matches. Lines printed that start with ``DEBUG:`` are kept
for the student and left out of the comparison. A case stops at its first wrong step.
"""

from __future__ import annotations

import time

from graders.core import messages
from graders.core.records import CaseResult, CaseStatus
from graders.editions.cases import Case, Step, render_steps
from graders.sandboxing.replies import StepReply
from graders.sandboxing.sandbox import Limits, Session
from graders.scoring import messages as scoring_messages

DEBUG_PREFIX = "DEBUG:"


def split_debug(output: str) -> tuple[str, list[str]]:
    if DEBUG_PREFIX not in output:
        return output, []
    kept: list[str] = []
    debug: list[str] = []
    for line in output.split("\n"):
        (debug if line.startswith(DEBUG_PREFIX) else kept).append(line)
    return "\n".join(kept), debug


def display(reply: StepReply) -> tuple[str, list[str]]:
    """What the step showed, as a Python session would (DEBUG lines apart)."""
    text, debug = split_debug(reply.output)
    if reply.truncated and not text.endswith("\n"):
        text += "\n"  # the cut fell mid-line; keep the value on a line of its own
    if reply.value_kind == "plain":
        text += repr(reply.value) + "\n"
    elif reply.value_kind == "function":
        text += scoring_messages.function_value(reply.value_note) + "\n"
    elif reply.value_kind == "object":
        text += scoring_messages.object_value(reply.value_note) + "\n"
    while text.endswith("\n"):
        text = text[:-1]
    if reply.truncated:
        text += "\n" + scoring_messages.output_cut()
    return text, debug


def judge_step(step: Step, reply: StepReply, timeout: float, filename: str,
               memory_limit: int = Limits().memory_bytes) -> tuple[bool, str, str, list[str]]:
    """(passed, got, reason, DEBUG lines) for one step, from the expected text and the child's reply."""
    expected = step.expected
    got, debug = display(reply) if reply.status in ("ok", "error") else ("", [])
    if expected == "Infinite Loop":
        if reply.status == "timeout":
            return True, "Infinite Loop", "", debug
        return False, got, scoring_messages.expected_loop_but_finished(), debug
    if reply.status == "timeout":
        return False, scoring_messages.still_running(timeout), scoring_messages.timed_out(timeout), debug
    if reply.status == "crashed":
        return False, "", scoring_messages.crashed(), debug
    if reply.status == "memory":
        return False, "", scoring_messages.used_too_much_memory(memory_limit), debug
    if expected is not None and (expected == "Error" or expected.startswith("Error: ")):
        if reply.status != "error":
            return False, got, scoring_messages.expected_error_but_none(got), debug
        wanted = expected[len("Error: "):].strip() if expected.startswith("Error: ") else ""
        if wanted and reply.error and reply.error.get("type") != wanted:
            return False, "Error", scoring_messages.wrong_error_type(wanted, reply.error, filename), debug
        return True, "Error", "", debug
    if reply.status == "error":
        return False, "Error", messages.raised(reply.error or {}, filename), debug
    if expected == "Function":
        ok = reply.value_kind == "function" and got.count("\n") == 0
        return ok, ("Function" if ok else got), "" if ok else scoring_messages.not_a_function(got), debug
    want = "" if expected in (None, "Nothing") else expected
    if got == want:
        return True, got, "", debug
    if not want and reply.value_kind == "none" and reply.output.strip():
        return False, got, scoring_messages.printed_not_returned(got), debug  # print where return was meant
    return False, got, scoring_messages.wrong_output(want, got), debug


def mark_not_run(case: Case, reason: str = "") -> CaseResult:
    return CaseResult(case_id=case.id, name=case.name, hidden=case.hidden, passed=False,
                      status=CaseStatus.NOT_RUN, reason=reason or scoring_messages.not_run(), about=case.about)


def as_not_run(result: CaseResult) -> CaseResult:
    """RESULT's case as not run (a result that says so already is kept, with its reason)."""
    if result.status == CaseStatus.NOT_RUN:
        return result
    return CaseResult(case_id=result.case_id, name=result.name, hidden=result.hidden, passed=False,
                      status=CaseStatus.NOT_RUN, reason=scoring_messages.not_run(), about=result.about)


def run_case(session: Session, case: Case, deadline: float = float("inf")) -> CaseResult:
    """Run CASE's steps in SESSION and judge them in order until the first wrong one, within the
    case's own time limit (``case.timeout`` for all its steps together) and the run's DEADLINE."""
    debug: list[str] = []
    seconds = 0.0
    case_deadline = time.monotonic() + case.timeout
    ends = min(case_deadline, deadline)
    filename = session.submission.name
    replies = session.steps([s.source for s in case.steps], case.setup, ends)
    try:
        for k, (step, reply) in enumerate(zip(case.steps, replies)):
            seconds += reply.seconds
            passed, got, reason, step_debug = judge_step(step, reply, case.timeout, filename,
                                                         session.limits.memory_bytes)
            debug += step_debug
            if reply.status == "timeout" and deadline < case_deadline:
                reason = scoring_messages.run_out_of_time()  # the run's budget ran out, not this case's
            if not passed:
                status = CaseStatus.FAILED if reply.status == "ok" else CaseStatus(reply.status)
                shown = render_steps(case.steps[:k])
                shown += ("\n" if shown else "") + render_steps(case.steps[k : k + 1], hide_expected=True)
                return CaseResult(
                    case_id=case.id, name=case.name, hidden=case.hidden, passed=False, status=status, step=k,
                    expected=step.expected, got=got,
                    reason=reason, traceback=(reply.error or {}).get("traceback", ""), debug=tuple(debug),
                    seconds=seconds, transcript=shown, error_type=str((reply.error or {}).get("type", "")),
                    about=case.about,
                )
    finally:
        replies.close()  # stops the child's remaining steps, if any, before the next case
    return CaseResult(case_id=case.id, name=case.name, hidden=case.hidden, passed=True, status=CaseStatus.PASSED,
                      debug=tuple(debug), seconds=seconds, about=case.about)
