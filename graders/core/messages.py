"""The kit's sentences that more than one folder says, and the text helpers every sentence module uses.

Each function returns text and nothing else; tests call each one and look for the names, numbers
and commands it must carry. A message names the problem and the function, shows expected and
got with whitespace made visible, and says what to run next. The submission's file name is a
parameter (``filename``), never assumed.

A sentence only one folder says lives in that folder's own ``messages.py`` (graders/scoring/,
graders/courses/, graders/cli/, …), which imports from
here the helpers it needs; here stay the helpers (visible, clip, printable, indent, …) and what
several folders say. So the instructor's sentences stay out of the student's bundle.
"""

from __future__ import annotations

MOST_SHOWN = 400  # characters of one expected or got value before it is clipped


# -- the text helpers: making text visible, and numbers and counts as people write them ----------


def visible(text: str | None) -> str:
    """TEXT with its invisible parts shown: trailing spaces as '·', tabs as '→', nothing as '(nothing)',
    other control characters written out (``\\x1b``), so a terminal shows them rather than obeys them."""
    if text is None or text == "":
        return "(nothing)"
    text = clip(text)
    lines = []
    for line in text.split("\n"):
        body = line.rstrip(" ")
        line = printable(body + "·" * (len(line) - len(body)))
        lines.append(line.replace("\t", "→") if line else "⏎")
    return "\n".join(lines)


WHITESPACE_MARKS = (("·", "a space"), ("→", "a tab"), ("⏎", "an empty line"))


def whitespace_legend(shown: str) -> str:
    """What the marks ``visible`` used in SHOWN stand for; '' when it used none."""
    used = [f"{mark} is {meaning}" for mark, meaning in WHITESPACE_MARKS if mark in shown]
    return f"({', '.join(used)})" if used else ""


def printable(text: str, keep: str = "\t ") -> str:
    """TEXT with every control character but those in KEEP (tab and space) written out (``\\x1b``):
    safe to print anywhere."""
    return "".join(c if c.isprintable() or c in keep else f"\\x{ord(c):02x}" for c in text)


def clip(text: str, most: int = MOST_SHOWN) -> str:
    if len(text) <= most:
        return text
    return text[:most] + f"… ({len(text) - most} more characters)"


def indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else prefix.rstrip() for line in text.split("\n"))


def sentence(text: str) -> str:
    """TEXT ending as a sentence ends: Python's own messages sometimes end in '?' or '.' already."""
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


def points_text(points: float | None, signed: bool = False) -> str:
    """A number of points (or days) as people write it: 2, 1.5, +1 when SIGNED."""
    if points is None:
        return ""
    value = round(float(points), 2)
    text = str(int(value)) if value == int(value) else f"{value:g}"
    return f"+{text}" if signed and value >= 0 and not text.startswith("-") else text


def plural(count: float, word: str) -> str:
    return f"{points_text(count)} {word}" + ("" if count == 1 else "s")


# -- labels of the text report -------------------------------------------------------------------

LABEL_NOTE = "note: "
LABEL_NOT_SCORED = "no points (not counted)"


def and_more(n: int) -> str:
    return f"and {n} more"


def total_line(score: int | str, most: int | str) -> str:
    return f"Total: {score}/{most}"


# -- commands ------------------------------------------------------------------------------------


def student_command(label: str, flag: str = "") -> str:
    return f"python3 ok -q {label}{' ' + flag if flag else ''}"


# -- one step ------------------------------------------------------------------------------------


def raised(error: dict, filename: str) -> str:
    where = f" ({filename} line {error['line']})" if error.get("line") else ""
    message = clip(str(error.get("message", "")).strip())
    return f"raised {error.get('type', 'an error')}{': ' + message if message else ''}{where}"


# -- problems ------------------------------------------------------------------------------------


def unreadable_submission(filename: str) -> str:
    return f"{filename} could not be read as Python"


def could_not_load(filename: str) -> str:
    return f"{filename} could not be loaded: every attempt to run its top-level code hung or ended the program"


def advice_case(name: str, reason: str) -> str:
    return f"the case {name!r} " + (f"shows it: {reason}" if reason else "shows it")


def locked(label: str) -> str:
    return f"locked: unlock it first with `{student_command(label, '-u')}`"


def graded_by_the_kit(label: str) -> str:
    return (f"Problem {label} is scored only when you hand in, by the course's grader, against the course's "
            f"own reference, which your copy does not hold: what runs here only previews it, for no points")


# -- submissions and command lines ---------------------------------------------------------------


def no_such_path(path: str) -> str:
    return f"no such file or folder: {path}"


def unreadable_notebook(path: str, why: str) -> str:
    return f"{path} is not a notebook that can be read ({why})"


def unknown_edition(name: str, known: list[str]) -> str:
    return f"unknown edition {name!r} (known editions: {', '.join(known) or 'none'})"


def broken_spec(path: str, why: str) -> str:
    return f"{path} is damaged ({why}); get a fresh copy of the project's tests folder"


def interrupted() -> str:
    return "interrupted; nothing was lost"


# -- failures of the kit (never the student's) ---------------------------------------------------

KIT_LOG_NAME = "kit-errors.log"


def kit_failed_gradescope() -> str:
    return ("This submission could not be graded: the autograder itself failed, not your code. The 0 shown "
            "is a placeholder, not your grade; course staff can see what went wrong and will regrade it.")


def kit_failed_staff(summary: str, attempts: int) -> str:
    tries = "after two attempts" if attempts >= 2 else "on its only attempt"
    return f"Grading failure of the kit (staff only), {tries}: {summary}"


# -- the kit's own data files (graders.core.tables): WHERE is the file and the table -------------


def table_unknown_key(where: str, key: str, known: list[str]) -> str:
    return f"{where}: unknown key {key!r} (known keys: {', '.join(known)})"


def table_missing_key(where: str, key: str, expected: str) -> str:
    return f"{where}: missing key {key!r} ({expected})"


def table_wrong_type(where: str, expected: str, got: str) -> str:
    return f"{where}: should be {expected}, not {got}"


def table_wrong_item(where: str, expected: str, got: str) -> str:
    return f"{where}: every item should be {expected}, not {got}"


def table_not_a_table(where: str, got: str) -> str:
    return f"{where}: should be a table of keys and values, not {got}"


EXPECTED_EXPRESSION = "a Python expression"


# -- hints beside a near miss (an unlock answer, a case's output) --------------------------------

HINTS = {
    "quotes": "Close: check the quotation marks; Python shows strings with quotes.",
    "no_quotes": "Close: that value is not a string, so Python shows it without quotes.",
    "float": "Close: check whether the value is an int or a float (3 versus 3.0).",
    "case": "Close: check upper and lower case (True, False, None, Error, Function ...).",
    "special": "Close: when nothing is displayed, type Nothing; when a line raises, type Error.",
    "tuple": "Close: check the brackets; a tuple is shown with parentheses.",
    "order": "Close: printed lines come before the value, in the order they are printed.",
    "error_name": "Close: when a line raises an error, type just Error, not its name or message.",
    "function": "Close: when the value is a function, type just Function.",
}
