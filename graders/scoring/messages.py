"""What grading one submission says: cases, shape rules, finding and reading submissions, reports
and the answer key; the sentences only graders/scoring/ uses.

Each function returns text and nothing else, and tests/kit/scoring/test_messages.py calls each one. The
text helpers (visible, clip, …) and the sentences several folders say are in graders.core.messages.
It ships in the student's bundle: it keeps to Python 3.9 and imports nothing of the kit's but
graders.core.messages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graders.core.messages import KIT_LOG_NAME, points_text, raised, student_command, visible

# -- kinds of case in the class summary ----------------------------------------------------------


def case_group(about: str, cases: int) -> str:
    """A kind of case in the class summary: what it checks, and how many cases it holds when several."""
    return f"{about} ({cases} cases)" if cases > 1 else about


# -- labels of the text report -------------------------------------------------------------------

LABEL_EXPECTED = "expected: "
LABEL_GOT = "got:      "
LABEL_HIDDEN = " (hidden)"
LABEL_OPTIONAL = " (optional)"
LABEL_ADVICE = "advice, no points lost: "


def total_with_checkpoint(total: int, most: int, label: str, score: int, of: int) -> str:
    return (f"Total: {total}/{most} for the problems, plus {score}/{of} for the {label}: a score of "
            f"{total + score}")


def course_points_line(score: int, most: int, course: int) -> str:
    return (f"In the course: {points_text(score * course / most)} of its {course} points "
            f"(the project's {most} points count as {course})")


def case_heading(name: str, hidden: bool) -> str:
    return f"Case {name!r}{LABEL_HIDDEN if hidden else ''}:"


# -- commands ------------------------------------------------------------------------------------


def instructor_command(path: str, label: str, edition: str | None) -> str:
    """EDITION is None for the default edition, so the command stays short."""
    ed = f" --edition {edition}" if edition else ""
    return f"hogkit grade {path}{ed} -q {label} --verbose"


# -- one step ------------------------------------------------------------------------------------


def printed_not_returned(got: str) -> str:
    return (f"expected nothing to be displayed but {visible(got)} was printed: the function prints its result "
            f"instead of returning it (print shows a value on the screen; return gives it back to the code "
            f"that called the function, which is what these cases use)")


def wrong_output(expected: str | None, got: str | None) -> str:
    exp, g = expected or "", got or ""
    if exp and not g:
        return f"expected {visible(exp)} but nothing was displayed (a function without a return gives None)"
    exp_lines, got_lines = exp.split("\n"), g.split("\n")
    if len(got_lines) > len(exp_lines) and got_lines[-len(exp_lines):] == exp_lines:
        return (
            f"printed {len(got_lines) - len(exp_lines)} extra line(s) before the expected {visible(exp)}; "
            "only lines that start with DEBUG: are ignored (remove the print or @trace, or start it with DEBUG:)"
        )
    if g == repr(exp) or g == repr(exp).replace("'", '"'):
        return f"expected {visible(exp)} but got {visible(g)}: the quotes show a str was returned, not a number"
    if "\n" not in exp and "\n" not in g:
        return f"expected {visible(exp)} but got {visible(g)}"
    for n in range(max(len(exp_lines), len(got_lines))):
        e = exp_lines[n] if n < len(exp_lines) else None
        o = got_lines[n] if n < len(got_lines) else None
        if e != o:
            return f"output line {n + 1} differs: expected {visible(e)} but got {visible(o)}"
    return "the output differs"


def expected_error_but_none(got: str | None) -> str:
    return f"expected an error, but the line finished and displayed {visible(got)}"


def wrong_error_type(expected_type: str, error: dict, filename: str) -> str:
    return f"expected {expected_type} but {raised(error, filename)}"


def timed_out(seconds: float) -> str:
    return f"did not finish within {seconds:g} s; look for a loop that never ends"


def still_running(seconds: float) -> str:
    return f"(still running after {seconds:g} s)"


def expected_loop_but_finished() -> str:
    return "expected an endless loop, but the line finished"


def crashed() -> str:
    return "the program ended during this line (os._exit, a crash, or a resource limit), so no value came back"


def not_a_function(got: str) -> str:
    return f"expected a function but got {visible(got)}"


def object_value(note: str) -> str:
    return f"<a value of type {note}; only int, float, bool, str, None, tuples and lists are compared>"


def function_value(name: str) -> str:
    return f"<function {name}>"


def output_cut() -> str:
    return "(the output was cut short: too much was printed)"


# -- problems ------------------------------------------------------------------------------------


def not_run() -> str:
    return "not run: an earlier case of this problem never finished or ended the program"


def run_out_of_time() -> str:
    return "the whole grading run reached its time limit"


def missing_function(filename: str, name: str, close: list[str]) -> str:
    hint = f" (found {', '.join(close)}; names must match exactly)" if close else ""
    return f"{filename} has no function named {name}{hint}"


def removed_for_syntax(name: str, filename: str, line: int) -> str:
    return f"{name} has a syntax error at {filename} line {line}, so it could not be checked"


def dependency_hint(failed: list[tuple[str, str]]) -> str:
    """Said first in the reason of a failed problem whose public cases call problems that fail too
    (its hidden cases call the kit's own functions of other problems, so these cost points here
    only through the public cases)."""
    if len(failed) == 1:
        (label, name), = failed
        return (f"Problem {label} {name} fails too, and this problem's public cases call it: fix {label} "
                f"first (its hidden cases use the kit's own {name}).")
    named = [f"{label} ({name})" for label, name in failed]
    listed = ", ".join(named[:-1]) + " and " + named[-1]
    return (f"This problem's public cases call Problems {listed}, which fail too: fix those first (its hidden "
            f"cases use the kit's own).")


def hinted_reason(hint: str, reason: str) -> str:
    """A problem's REASON after a HINT that ends a sentence: the reason starts one of its own."""
    return f"{hint} {reason[:1].upper()}{reason[1:]}".strip()


def cases_not_run(count: int) -> str:
    return (f"{count} case{'s were' if count != 1 else ' was'} not run, because an earlier case never "
            f"finished or ended the program; fix that one first")


def hidden_only_failed() -> str:
    return ("Only hidden cases failed; they are named, by what they test, in this problem's hidden-case "
            "result once grades are published.")


def hidden_cases_failed(groups: list[tuple[str, int, int]]) -> str:
    """Hidden cases, each group by what it is about (never by its source): (about, failed, of)."""
    parts = [about + (f" ({failed} of {total})" if total > 1 else "") for about, failed, total in groups]
    count = sum(failed for _, failed, _ in groups)
    return f"{count} hidden case{'s' if count != 1 else ''} failed: " + "; ".join(parts)


def case_failed(case_name: str, reason: str) -> str:
    return f"{case_name}: {reason}"


def rule_broken(rule_text: str, detail: str) -> str:
    return f"{rule_text}: {detail}"


def cases_passed(passed: int, total: int) -> str:
    return f"{passed}/{total} cases passed"


def rerun_student(label: str) -> str:
    return f"Run `{student_command(label)}` to check this problem again (add -i to explore on failure)."


def rerun_instructor(path: str, label: str, edition: str | None) -> str:
    return f"Rerun just this problem with `{instructor_command(path, label, edition)}`."


def does_not_run(filename: str, line: int, message: str) -> str:
    return (f"{filename} does not run as it is: Python stops at line {line} ({message.strip().rstrip('.')}). The rest "
            f"was graded around it, but fix that line first: `python3 {filename}` must run without an error.")


def debug_lines_note(count: int) -> str:
    return f"{count} DEBUG line{'s' if count != 1 else ''} printed (never part of the comparison):"


def debug_lines_of_case(name: str, hidden: bool, count: int) -> str:
    """Above the DEBUG lines a case that passed printed."""
    return f"Case {name!r}{LABEL_HIDDEN if hidden else ''} passed; {debug_lines_note(count)}"


# -- shape rules ---------------------------------------------------------------------------------

FORBIDDEN_WORDS = {
    "str": "str (or another way of turning a number into text: repr, format, an f-string or a string % values; "
           "n % 10 on numbers is fine)",
    "lists": "lists (list(), a list display or a comprehension)",
    "square brackets": "square brackets (indexing, slicing, list displays or list comprehensions)",
    "for loops": "for loops (use a while loop)",
}


RULE_FRAGMENTS = {
    "uses": "uses {0}",
    "imports": "imports {0}",
    "f-string": "uses an f-string",
    "percent": "formats text with %",
    "string-method": "calls .{0} on a string",
    "type-call": "calls a type it looked up with type(...)",
    "list-display": "builds a list",
    "comprehension": "uses a comprehension",
    "subscript": "uses square brackets to index or slice",
    "bracket-list": "uses square brackets to build a list",
    "for": "uses a for loop",
    "for-comprehension": "uses for inside a comprehension",
}


def rule_forbids(function: str, words: tuple[str, ...]) -> str:
    return f"{function} uses no " + ", no ".join(words)


def rule_uses(function: str, names: tuple[str, ...]) -> str:
    return f"{function} uses " + " and ".join(names)


def rule_where(line: int, owner: str | None, function: str) -> str:
    via = "" if owner in (None, function) else f" (in {owner}, which {function} uses)"
    return f"line {line}{via}"


def rule_not_checked(function: str, filename: str, seconds: float) -> str:
    return (f"this rule could not be checked: the checks of {filename}'s shape rules ran past their limit of "
            f"{seconds:g} s of processor time ({filename} is far larger or more deeply nested than any {function} "
            f"needs)")


def rule_escape(where: str, name: str) -> str:
    return f"{where} uses {name}, which could hide code from this check"


def rule_violation(where: str, what: str, function: str, word: str) -> str:
    return f"{where} {what}; {function} must not use {FORBIDDEN_WORDS.get(word, word)}"


def rule_missing_calls(function: str, missing: list[str]) -> str:
    return f"{function} should call {' and '.join(missing)} instead of repeating their work"


# -- submissions and command lines ---------------------------------------------------------------


def no_hog_in_folder(path: str, filename: str) -> str:
    return (
        f"{path} is a folder without {filename}; pass the folder that holds {filename} or the file itself"
    )


def not_python(path: str, why: str) -> str:
    return f"{path} is not a Python file ({why})"


# -- reading a submission: its size, notebook and zip --------------------------------------------


def used_too_much_memory(limit: int) -> str:
    return f"its processes together used more than {limit // (1024 * 1024)} MiB of memory, so they were stopped"


def python_refuses(path: str, reason: str, line: int | None) -> str:
    """Python itself would not run the file: its own reason, and the line where it gave up."""
    where = f", line {line}" if line else ""
    return not_python(path, f"Python refuses to read it{where}: {reason}")


def too_large(path: str, limit: int) -> str:
    return f"{path} is larger than {limit // 1024} KiB, which no submission needs"


def source_too_large(path: str, size: int, limit: int) -> str:
    return (f"{path} holds {size / 1024:,.0f} KiB of code, more than the {limit // 1024} KiB a submission may have "
            f"(a finished hog.py is 15 to 40 KB), so it was not graded")


def notebook_warnings(path: str, count: int, first: str) -> str:
    times = "once" if count == 1 else f"{count:,} times"
    return (f"{path}: reading this notebook gave a warning {times} (the first: {first.rstrip('.')}); its code "
            f"cells were graded as they are")


def notebook_invalid(why: str) -> str:
    return f"the notebook does not follow the notebook format ({why})"


def zip_without(path: str, filename: str) -> str:
    return f"{path} holds no {filename}"


def unreadable_zip(path: str, why: str) -> str:
    return f"{path} is not a zip file that can be read ({why})"


def unsupported_entry(path: str) -> str:
    return f"{path} is not a submission: hand in a folder holding the file, a .py file, a .ipynb notebook or a .zip"


def unreadable_entry(path: str, why: str) -> str:
    return f"{path} could not be read ({why})"


def entry_is_link(path: str) -> str:
    return (f"{path} is a symbolic link, which is never followed (it could point at anything on this "
            f"machine); hand in the file or folder itself")


def entry_not_a_file(path: str) -> str:
    return f"{path} is not a regular file (a FIFO, a device or a socket), so it was not opened"


def duplicate_student(student: str, names: str) -> str:
    return f"two submissions have the id {student!r} ({names}); keep one and grade again"


# -- failures of the kit (never the student's) -------------------------------------------------


def kit_failed_feedback() -> str:
    """What a student reads in their feedback when the kit could not grade their submission."""
    return ("Your submission could not be graded: the grading kit failed, not your code. This is not a grade; "
            "your course staff have been told and will grade it again.")


def kit_log_heading(student: str, reason: str) -> str:
    return f"== {student}: {reason}"


def kit_log_retried_heading(student: str) -> str:
    return f"== {student}: graded on the second attempt (the kit failed on the first, below; not the student's fault)"


def kit_log_first_attempt() -> str:
    return "-- the first attempt:"


def kit_failures_summary(count: int) -> str:
    return (f"The kit failed on {count} submission{'s' if count != 1 else ''} (status 'kit error'): not the "
            f"students' fault, no score given; see {KIT_LOG_NAME} and rerun to regrade.")


# -- editions a submission names -----------------------------------------------------------------


def class_editions_disagree(by_edition: Mapping[str | None, Sequence[str]], most: int = 5) -> str:
    """The class's entries do not agree on an edition: BY_EDITION names the entries declaring each
    (None: those declaring none), at most MOST names each."""
    def names(found: Sequence[str]) -> str:
        more = f" and {len(found) - most} more" if len(found) > most else ""
        return ", ".join(found[:most]) + more

    groups = "; ".join(f"{edition or 'none declared'}: {names(found)}" for edition, found in by_edition.items())
    return f"the class's hand-ins do not agree on an edition ({groups}); say which to grade with --edition NAME"


def other_edition(filename: str, name: str, functions: list[str]) -> str:
    shown = ", ".join(functions[:4]) + (", …" if len(functions) > 4 else "")
    return (f"{filename} defines functions of the {name} edition ({shown}) rather than this edition's: if it "
            f"was written for {name}, grade it with --edition {name}")


# -- the starter code ----------------------------------------------------------------------------


def starter_code(label: str) -> str:
    """Why a problem whose code is still the skeleton's scores nothing, on every route (a student's
    runner, a grade, a class, Gradescope): worded for whoever reads it."""
    return (f"Problem {label} still holds the starter code: no points until it is written (what the starter "
            f"passes says nothing)")


# -- the answer key ------------------------------------------------------------------------------

ANSWER_MARK = "the answer"


def answer_key_heading(title: str, phase: int | None, name: str) -> str:
    return f"{title}: answer key, Phase {phase}: {name}" if phase is not None else f"{title}: answer key"


def grading_rule() -> str:
    """How a bug is charged, for the staff: said by ``hogkit answers`` (docs/instructors.md says it too)."""
    return ("How points are lost: a problem's public cases call the student's own functions, as `python3 ok` "
            "shows them before hand-in; its hidden cases call the student's functions of that problem only, "
            "and the kit's own for every other problem. So a point lost at grading on a function that passes "
            "its public cases is a bug in that function, and a syntax error costs only the functions it breaks.")


def answer_key_intro() -> str:
    return ("Every unlock question with its answer, to go through in section. Students must type these "
            "answers to unlock the tests: keep this handout for the staff, or hand it out once the problems "
            "are due. A transcript shows what Python displays after each >>> line (Error, Function, Nothing and "
            "Infinite Loop are typed as they are).")


def answer_key_problem(label: str, title: str, count: int) -> str:
    return f"Problem {label}: {title} ({count} unlock question{'' if count == 1 else 's'})"


def answer_key_answer(answer: str) -> str:
    return f"Answer: {answer}"


# -- fragments that complete a sentence above ----------------------------------------------------

RUN_PASSES = "the test passes"
RUN_FAILS = "the test fails"
NULL_BYTES = "source code cannot contain null bytes"  # Python's own words for a file with a NUL byte


def not_a_python_name() -> str:
    return "its name does not end in .py, .ipynb or .zip"


def answer_key_problem_line(label: str, title: str, count: int) -> str:
    return f"Problem {label}: {title}  ({count} unlock questions)"


def answer_key_answer_line(answer: str) -> str:
    return f"answer: {answer}"


# -- cases of other kinds: tests a student writes, and a strategy's exact win rate ----------------


def student_test_missed() -> str:
    return "your test passed on this wrong version: add a check that it gets wrong"


AN_EXCEPTION_OF_THEIR_OWN = "an exception of a class of your own"


def student_test_failed_right(kind: str, filename: str, line: int | None) -> str:
    where = f" ({filename} line {line})" if line else ""
    return f"your test failed on a right version with {kind}{where}: check what your test expects"


def student_test_too_slow(seconds: float) -> str:
    return f"your test did not finish on a right version within {seconds:g} s"


def win_rate_figure(rate: float, first: float, second: float, against: str) -> str:
    return (f"exact win rate against {against}: {rate:.2%} "
            f"({first:.2%} going first, {second:.2%} going second)")


def win_rate_short(figure: str, at_least: float) -> str:
    return f"{figure}; it needs at least {at_least:.0%}"


def win_rate_needed(at_least: float) -> str:
    return f"a win rate of at least {at_least:.0%}"


def win_rate_not_here() -> str:
    return "the exact win rate is worked out only where the kit's reference is at hand"
