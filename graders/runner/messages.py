"""What the student's commands say: `python3 ok`, unlocking, the pytest table, the activity log and
`--zip`; the sentences only graders/runner/ uses.

Each function returns text and nothing else, and tests/kit/runner/test_messages.py calls each one. The
text helpers (visible, clip, …) and the sentences several folders say are in graders.core.messages.
It ships in the student's bundle: it keeps to Python 3.9 and imports nothing of the kit's but
graders.core.messages.
"""

from __future__ import annotations

from graders.core.messages import student_command

# -- notebooks -----------------------------------------------------------------------------------


def not_a_notebook() -> str:
    return "it is not a saved Jupyter notebook; open it in Jupyter and save it again, or hand in hog.py"


# -- failures of the kit (never the student's), and the pytest table -----------------------------


def kit_failed_student(summary: str) -> str:
    return (f"the kit failed while running your tests ({summary}); this is not your code's fault. Run the "
            f"same command again; if it keeps failing, show this message to your course staff.")


def pytest_table_title() -> str:
    return "cases per problem (python3 ok shows the same with points)"


def pytest_problem_line(label: str, passed: int, failed: int, skipped: int) -> str:
    mark = "✗" if failed else ("✓" if passed else "🔒")
    parts = [f"{passed} passed"] + ([f"{failed} failed"] if failed else []) + \
        ([f"{skipped} skipped ({student_command(label, '-u')} unlocks them)"] if skipped else [])
    return f"  {mark} Problem {label}: " + ", ".join(parts)


# -- --lock and -u -------------------------------------------------------------------------------


def lock_needs_problem() -> str:
    return "say which problem to lock again, for example: python3 ok -q 01 --lock"


def lock_or_unlock() -> str:
    return "choose either --lock or -u, not both"


# -- unlocking -----------------------------------------------------------------------------------

UNLOCK_INTRO = (
    "Unlocking {title}.\n"
    "At each '?' type what Python would display. Special answers: Error, Function, Nothing, "
    "Infinite Loop.\nFor a multiple-choice question type the choice or its letter.\n"
    "Type exit() to stop; what you have unlocked so far is kept."
)


def unlock_intro(title: str) -> str:
    return UNLOCK_INTRO.format(title=title)


def unlock_question(label: str, number: int, count: int, name: str) -> str:
    return f"Problem {label} > Question {number} of {count}: {name}"


def unlock_correct() -> str:
    return "-- OK! --"


def unlock_line_correct(done: int, total: int) -> str:
    return f"-- line {done} of {total} correct; what comes next? --"


def unlock_wrong() -> str:
    return "-- Not quite. Try again! --"


def unlock_done(label: str, has_cases: bool = True, running: bool = False) -> str:
    if not has_cases:
        return f"-- All questions of problem {label} are unlocked. It has no tests of its own: go on to the next. --"
    if running:
        return (f"-- All questions of problem {label} are unlocked. Its tests run now; to run them again later: "
                f"`{student_command(label)}`. --")
    return f"-- All questions of problem {label} are unlocked. Now run `{student_command(label)}`. --"


def unlock_stopped(label: str) -> str:
    return f"Stopped. Run `{student_command(label, '-u')}` to carry on where you left off."


def score_legend() -> str:
    return ("✓ passed   ✗ a case or a required rule fails   ○ locked: unlock it with `python3 ok -q NN -u`\n"
            "· no test ran (questions only, or still the starter code)")


def next_problem(label: str, unlocked: bool = False) -> str:
    return f"All passed. Next: `{student_command(label) if unlocked else student_command(label, '-u')}`."


def relocked(label: str) -> str:
    return f"Problem {label} is locked again. Run `{student_command(label, '-u')}` to unlock it."


def interactive_banner(case_name: str, filename: str) -> str:
    return f"Case {case_name!r} failed. {filename} is loaded and the lines before the failing one have run."


def interactive_try(line: str) -> str:
    return f"Try the failing line yourself: {line}" if line else "Try your functions here."


def not_a_choice(count: int) -> str:
    return f"Type one of the choices, or its letter from a to {'abcdefghij'[count - 1]}."


def choice_prompt(letter: str, text: str, width: int = 78) -> str:
    """One choice, wrapped at word boundaries, its later lines lined up under its first word."""
    import textwrap

    return textwrap.fill(text, width, initial_indent=f"  {letter}) ", subsequent_indent=" " * (len(letter) + 4),
                         break_long_words=False, break_on_hyphens=False)


def question_text(text: str, width: int = 78) -> str:
    """A multiple-choice question, wrapped at word boundaries as its choices are; its own line
    breaks (and any code lines, indented) are kept."""
    import textwrap

    return "\n".join(line if line.startswith((" ", "\t", ">>>")) or len(line) <= width else
                     textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False)
                     for line in text.split("\n"))


def empty_answer() -> str:
    return ("Type an answer: Nothing when nothing is displayed, Error when the line raises, Function for a "
            "function; or exit() to stop.")


# -- the activity log, and handing in (--zip) ----------------------------------------------------


def activity_missing(where: str) -> str:
    return f"{where}: no activity log (no unlock or test history to report; no points depend on it)"


def activity_tampered(where: str, line: int) -> str:
    return (f"{where}: the activity log was changed by hand at line {line}; only the lines before it are "
            f"counted (no points depend on it)")


def activity_unreadable(where: str, why: str) -> str:
    return f"{where}: the activity log cannot be read ({why}); it is left out (no points depend on it)"


def activity_entries_skipped(where: str, count: int) -> str:
    return f"{where}: {count} line{'' if count == 1 else 's'} of the activity log not understood, left out"


def zip_written(path: str, filename: str, from_notebook: bool, extra: list[str], with_log: bool) -> str:
    held = [f"{filename} (the code of handout.ipynb as last saved)" if from_notebook else filename]
    held += [f"{name} (for reference; {filename} is what is graded)" for name in extra]
    held.append("your activity log" if with_log else "no activity log yet (unlock or test something first)")
    lines = "\n".join(f"  - {h}" for h in held)
    return f"Wrote {path}, which holds:\n{lines}"


def zip_score(total: int, most: int, does_not_run: bool) -> str:
    broken = " It does not run as it is: see `python3 ok --score`." if does_not_run else ""
    return (f"On the public tests it scores {total}/{most}; the hidden tests count too when it is graded.{broken}\n"
            f"Hand in this zip on Gradescope.")


def work_in_notebook(filename: str) -> str:
    return (f"Note: {filename} still holds the starter code, and your work is in handout.ipynb: these scores are "
            f"{filename}'s. The notebook's check cells test its code; `python3 ok --zip` hands in the notebook's code.")


def zip_untouched(filename: str, has_notebook: bool) -> str:
    where = f"{filename} and handout.ipynb (as last saved) still hold" if has_notebook else f"{filename} still holds"
    return (f"{where} only the skeleton's stubs, so this zip would score 0: nothing was written. Write your code "
            f"(and save the notebook) first; `python3 ok --zip --from file` packs {filename} anyway")


def zip_both_worked(filename: str, from_notebook: bool, points: int, other_points: int, other: str) -> str:
    chosen = "the notebook's code" if from_notebook else filename
    other_name = "the notebook's code" if other == "notebook" else filename
    return (f"Note: both {filename} and handout.ipynb hold work. The zip's {filename} is {chosen} ({points} points on "
            f"the public tests; {other_name} has {other_points}). To hand in {other_name} instead: "
            f"`python3 ok --zip --from {other}`.")


def zip_from_missing(source: str, filename: str) -> str:
    name = "handout.ipynb" if source == "notebook" else filename
    return f"--from {source} hands in {name}, and there is no {name} in this folder"


def from_needs_zip() -> str:
    return "--from chooses what `python3 ok --zip` hands in; give it with --zip"


def nothing_to_zip(filename: str, folder: str) -> str:
    return f"there is no {filename} in {folder} to put in the zip"


def zip_alone() -> str:
    return "--zip makes the zip to hand in and does nothing else; give it without other options"


ZIP_TOO_LARGE = "zip too large"
