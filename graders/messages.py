"""Every sentence the kit shows a student or an instructor, in one place.

Each function returns text and nothing else; tests call each one and look for the names, numbers
and commands it must carry. A message names the problem and the function, shows expected and
got with whitespace made visible, and says what to run next.
"""

from __future__ import annotations

# -- making text visible -------------------------------------------------------------------------


def visible(text: str | None) -> str:
    """TEXT with its invisible parts shown: trailing spaces as '·', tabs as '→', nothing as '(nothing)'."""
    if text is None or text == "":
        return "(nothing)"
    lines = []
    for line in text.split("\n"):
        body = line.rstrip(" ")
        line = body + "·" * (len(line) - len(body))
        lines.append(line.replace("\t", "→") if line else "⏎")
    return "\n".join(lines)


def indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else prefix.rstrip() for line in text.split("\n"))


# -- commands ------------------------------------------------------------------------------------


def student_command(label: str, flag: str = "") -> str:
    return f"python3 ok -q {label}{' ' + flag if flag else ''}"


def instructor_command(path: str, label: str, edition: str) -> str:
    return f"hogkit grade {path} --edition {edition} -q {label} --verbose"


# -- one step ------------------------------------------------------------------------------------


def wrong_output(expected: str | None, got: str | None) -> str:
    exp, g = expected or "", got or ""
    if exp and not g:
        return f"expected {visible(exp)} but nothing was displayed (a function without a return gives None)"
    if "\n" not in exp and "\n" not in g:
        return f"expected {visible(exp)} but got {visible(g)}"
    exp_lines, got_lines = exp.split("\n"), g.split("\n")
    for n in range(max(len(exp_lines), len(got_lines))):
        e = exp_lines[n] if n < len(exp_lines) else None
        o = got_lines[n] if n < len(got_lines) else None
        if e != o:
            return f"output line {n + 1} differs: expected {visible(e)} but got {visible(o)}"
    return "the output differs"


def raised(error: dict) -> str:
    where = f" (hog.py line {error['line']})" if error.get("line") else ""
    message = str(error.get("message", "")).strip()
    return f"raised {error.get('type', 'an error')}{': ' + message if message else ''}{where}"


def expected_error_but_none(got: str | None) -> str:
    return f"expected an error, but the line finished and displayed {visible(got)}"


def wrong_error_type(expected_type: str, error: dict) -> str:
    return f"expected {expected_type} but {raised(error)}"


def timed_out(seconds: float) -> str:
    return f"did not finish within {seconds:g} s; look for a loop that never ends"


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


def unreadable_submission() -> str:
    return "hog.py could not be read as Python"


def missing_function(name: str) -> str:
    return f"hog.py has no function named {name}"


def skipped_for(dependencies: list[str]) -> str:
    return f"skipped: needs {', '.join(dependencies)} to pass first"


def locked(label: str) -> str:
    return f"locked: unlock it first with `{student_command(label, '-u')}`"


def case_failed(case_name: str, reason: str) -> str:
    return f"{case_name}: {reason}"


def hidden_case_failed(count: int) -> str:
    return f"{count} hidden case{'s' if count != 1 else ''} failed"


def rule_broken(rule_text: str, detail: str) -> str:
    return f"{rule_text}: {detail}"


def cases_passed(passed: int, total: int) -> str:
    return f"{passed}/{total} cases passed"


def rerun_student(label: str) -> str:
    return f"Run `{student_command(label)}` to check this problem again (add -i to explore on failure)."


def rerun_instructor(path: str, label: str, edition: str) -> str:
    return f"Rerun just this problem with `{instructor_command(path, label, edition)}`."


def import_note(line: int, message: str) -> str:
    return f"hog.py line {line}: {message}" if line else f"hog.py: {message}"


def syntax_repaired(line: int, message: str, name: str) -> str:
    return (
        f"hog.py line {line}: SyntaxError: {message}. {name} was left out so that the rest could be graded; "
        f"problems that need it fail"
    )


def syntax_unrepairable(line: int, message: str) -> str:
    return f"hog.py line {line}: SyntaxError: {message}. Nothing could be graded; fix this line first"


def debug_lines_note(count: int) -> str:
    return f"{count} DEBUG line{'s' if count != 1 else ''} printed (never part of the comparison):"


# -- submissions ---------------------------------------------------------------------------------


def no_such_path(path: str) -> str:
    return f"no such file or folder: {path}"


def no_hog_in_folder(path: str, filename: str) -> str:
    return f"{path} is a folder without {filename}; pass the folder that holds {filename}, or the file itself"


def not_python(path: str, why: str) -> str:
    return f"{path} is not a Python file ({why})"


def too_large(path: str, limit: int) -> str:
    return f"{path} is larger than {limit // 1024} KiB, which no hog.py needs"


# -- unlocking -----------------------------------------------------------------------------------


UNLOCK_INTRO = (
    "Unlocking {title}.\n"
    "At each '?' type what Python would display. Special answers: Error, Function, Nothing, "
    "Infinite Loop.\nFor a multiple-choice question type the choice or its letter.\n"
    "Type exit() to stop; what you have unlocked so far is kept."
)


def unlock_intro(title: str) -> str:
    return UNLOCK_INTRO.format(title=title)


def unlock_correct() -> str:
    return "-- OK! --"


def unlock_wrong() -> str:
    return "-- Not quite. Try again! --"


def unlock_done(label: str) -> str:
    return f"-- All questions of problem {label} are unlocked. Now run `{student_command(label)}`. --"


def unlock_stopped(label: str) -> str:
    return f"Stopped. Run `{student_command(label, '-u')}` to carry on where you left off."


def next_problem(label: str) -> str:
    return f"All passed. Next: `{student_command(label, '-u')}`."


def relocked(label: str) -> str:
    return f"Problem {label} is locked again. Run `{student_command(label, '-u')}` to unlock it."


def interactive_banner(case_name: str) -> str:
    return f"Case {case_name!r} failed. hog.py is loaded and the lines before the failing one have run."


def interactive_try(line: str) -> str:
    return f"Try the failing line yourself: {line}" if line else "Try your functions here."


def not_a_choice(count: int) -> str:
    return f"Type one of the choices, or its letter from a to {'abcdefghij'[count - 1]}."


def choice_prompt(letter: str, text: str) -> str:
    return f"  {letter}) {text}"


HINTS = {
    "quotes": "Close: check the quotation marks; Python shows strings with quotes.",
    "no_quotes": "Close: that value is not a string, so Python shows it without quotes.",
    "float": "Close: check whether the value is an int or a float (3 versus 3.0).",
    "case": "Close: check upper and lower case (True, False, None, Error, Function ...).",
    "special": "Close: when nothing is displayed, type Nothing; when a line raises, type Error.",
    "tuple": "Close: check the brackets; a tuple is shown with parentheses.",
}
