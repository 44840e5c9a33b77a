"""What reading an edition says: its manifest, case files, markers and problem labels; the
sentences only graders/editions/ uses.

Each function returns text and nothing else, and tests/kit/editions/test_messages.py calls each one. The
text helpers (visible, clip, …) and the sentences several folders say are in graders.core.messages.
It ships in the student's bundle: it keeps to Python 3.9 and imports nothing of the kit's but
graders.core.messages.
"""

from __future__ import annotations

# -- problems, editions and the project folder ---------------------------------------------------


def unknown_problem(label: str, first: str, last: str, parts: tuple[str, ...] | list[str] = ()) -> str:
    if parts:
        return (f"problem {label} comes in parts: {' and '.join(parts)}; name one, such as -q {parts[0]} "
                f"(or give -q once for each)")
    return f"there is no problem {label}; problems are {first} to {last}"


def problem_number_expected(text: str) -> str:
    return f"-q expects a problem number such as 01 (or a part such as 05a), not {text!r}"


def not_a_project_folder(folder: str) -> str:
    return f"{folder} has no tests/edition.json; run this from your project folder"


# -- the manifest and the case files -------------------------------------------------------------


def expected_dice_range(most: int) -> str:
    return f"[fewest, most]: two whole numbers from 0 to {most}, fewest first"


def manifest_undeclared_phase(where: str, phase: int) -> str:
    return f"{where}: phase {phase} is not declared in [[phases]]"


def manifest_repeated_problem(where: str, label: str) -> str:
    return f"{where}: problem {label} appears twice"


def manifest_bad_dependency(where: str, label: str, dependency: str) -> str:
    return f"{where}: problem {label} depends on {dependency}, which is not an earlier problem"


def kit_not_found() -> str:
    return ("cannot find the kit's editions (a folder with tests/ and graders/); run hogkit from the kit's "
            "folder, install it with `pip install -e .`, or set HOGKIT_ROOT")


def transcript_text_before_prompt(where: str, line: int, text: str) -> str:
    return f"{where}: line {line} of the transcript comes before any '>>> ' prompt: {text!r}"


def transcript_no_prompt(where: str) -> str:
    return f"{where}: the transcript has no '>>> ' lines"


def include_missing(where: str, file: str) -> str:
    return f"{where}: no such file {file!r}"


def case_rule_unknown(where: str, function: str) -> str:
    return f"{where}: rule {function!r} names no shape rule of this problem"


def unlock_answer_not_a_choice(where: str, answer: str) -> str:
    return f"{where}: the answer {answer!r} is not one of the choices"


def unlock_needs_a_prompt(where: str) -> str:
    return f"{where}: needs either choices or a transcript with at least one output"


def template_one_kind(where: str, given: list[str]) -> str:
    return f"{where}: give one of params, range and random, not {' and '.join(given)}"


# -- the solution's problem markers (graders.editions.markers) ------------------------------------------


def marker_nested(line: int, inner: str, outer: str) -> str:
    return f"line {line}: BEGIN PROBLEM {inner} inside PROBLEM {outer}"


def marker_unmatched_end(line: int, problem: str) -> str:
    return f"line {line}: END PROBLEM {problem} without a matching BEGIN"


def marker_unclosed(line: int, problem: str) -> str:
    return f"line {line}: BEGIN PROBLEM {problem} is never closed"


# -- what a manifest value was expected to be, and other fragments that complete a sentence above ---

EXPECTED_PROBLEM_LABEL = "the label of a problem"
EXPECTED_NUMBER_RANGE = "[low, high]: two whole numbers from 0 to 1000, low first"


def expected_label_of(number: int) -> str:
    return f"a label of problem {number}"


def json_not_an_object() -> str:
    return "the file should hold one JSON object"


# -- cases of other kinds: tests a student writes, and a strategy's exact win rate ---------------


def student_test_on_reference(tests: str) -> str:
    return f"your test, run on the right {tests}"


def student_test_on_version(name: str) -> str:
    return f"your test, run on another right version: {name}"


def student_test_on_variant(name: str) -> str:
    return f"your test, run on a wrong version: {name}"


def win_rate_case(strategy: str, against: str, at_least: float) -> str:
    return f"{strategy} wins at least {at_least:.0%} of games against {against} (exact, both seats)"
