"""The student's runner, started as ``python3 ok`` from a project folder.

Contract: it reads ``tests/`` beside ``hog.py`` (public cases and locked questions, never
rewritten), keeps progress in ``.hogkit/progress.json``, and runs a problem's tests only once all
of that problem's questions are unlocked. Tests run in the same sandbox the instructor's grader
uses, so what passes here passes there (hidden cases aside). Flags follow the course's
``ok``: ``-q NN``, ``-u``, ``-i``, ``--score``; ``--lock`` locks a problem again.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from graders.core import messages
from graders.core.errors import HogkitError, InputError, KitFailure, SubmissionError
from graders.core.records import Report
from graders.core.terminal import prepare_streams
from graders.editions import locking, markers
from graders.editions.cases import read_case_file
from graders.editions.edition import Edition, load_student_edition
from graders.runner import activity
from graders.runner import messages as runner_messages
from graders.sandboxing.bytecode import PROBES
from graders.scoring import reports
from graders.scoring.grading import grade_reliably
from graders.scoring.submissions import Submission, load_submission

RULE = "=" * 69
THIN = "-" * 69


def locked_records(edition: Edition, number: int | str) -> list[dict]:
    files = edition.case_files(number)
    return list(read_case_file(files[0])["locked"]) if files else []


def has_cases(edition: Edition, number: int | str) -> bool:
    """Whether problem NUMBER has cases to run (Problem 00 has questions only)."""
    files = edition.case_files(number)
    return any(read_case_file(f)["case"] or read_case_file(f)["generate"] for f in files)


def unlocked_problems(edition: Edition, progress: dict) -> set[str]:
    """The labels of the problems whose questions are all unlocked."""
    return {
        p.label
        for p in edition.problems
        if all(locking.is_unlocked(r, progress) for r in locked_records(edition, p.label))
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python3 ok",
        description="Unlock questions, run tests and check your score for this project.",
        epilog="Examples: python3 ok -q 01 -u   |   python3 ok -q 01   |   python3 ok --score",
    )
    parser.add_argument("-q", "--question", action="append", metavar="NN",
                        help="only this problem (for example 01); may be given more than once")
    parser.add_argument("-u", "--unlock", action="store_true", help="answer the problem's questions to unlock it")
    parser.add_argument("-i", "--interactive", action="store_true",
                        help="open Python with hog.py loaded when a test fails")
    parser.add_argument("--score", action="store_true", help="show points per phase for every problem")
    parser.add_argument("--lock", action="store_true", help="lock the problem's questions again")
    parser.add_argument("-v", "--verbose", action="store_true", help="show every failed case and its traceback")
    parser.add_argument("--zip", action="store_true",
                        help="write the zip to hand in: the code you worked in (hog.py or handout.ipynb) and your "
                             "activity log; it says what the zip holds and its score on the public tests")
    parser.add_argument("--from", dest="source", choices=("file", "notebook"),
                        help="with --zip: hand in hog.py (file) or the notebook's code (notebook), whichever "
                             "you worked in; without it, --zip picks the one that holds your work")
    parser.add_argument("--json", action="store_true",
                        help="print the results as JSON (for your own scripts); the exit status is 1 while "
                             "anything fails, as without it")
    return parser.parse_args(argv)


def main(folder: str | Path = ".", argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    prepare_streams()
    try:
        return run(Path(folder), args)
    except KitFailure as exc:
        print(f"ok: {runner_messages.kit_failed_student(exc.summary)}\n\n{exc.details}", file=sys.stderr)
        return exc.exit_status
    except HogkitError as exc:
        print(f"ok: {exc}", file=sys.stderr)
        return exc.exit_status
    except KeyboardInterrupt:
        print(f"\nok: {messages.interrupted()}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader (say, `| head`) stopped early: nothing went wrong here
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def run(folder: Path, args: argparse.Namespace) -> int:
    edition = load_student_edition(folder)
    numbers = edition.parse_numbers(args.question)
    if args.zip:
        return pack(folder, edition, args)
    if args.source:
        raise InputError(runner_messages.from_needs_zip())
    progress = locking.load_progress(folder)
    stop = lock_or_unlock(folder, edition, progress, numbers, args)
    if stop is not None:
        return stop
    submission = load_submission(folder, edition)
    unlocked = unlocked_problems(edition, progress)
    chosen = None if args.score else numbers
    report = grade_reliably(submission, edition, problems=chosen, include_hidden=False, unlocked=unlocked)
    log_tests(folder, report, score=args.score)
    failed = any(p.status == "failed" for p in report.problems) or bool(report.does_not_run)
    if args.json:
        print(reports.render_json(report))
        return 1 if failed else 0
    print(RULE)
    text = reports.render_text(report, verbose=args.verbose, student=True, show_hidden=False, compact=args.score)
    print(text)
    if work_in_notebook(folder, edition, submission.source):
        print(runner_messages.work_in_notebook(edition.submission))
    if args.score:
        print(runner_messages.score_legend())
    if report.does_not_run:  # never "All passed" for a file Python refuses to run
        print(messages.LABEL_NOTE + report.does_not_run)
        return 1
    if report.problems and all(p.status == "passed" for p in report.problems):  # never for one scored only
        # at hand-in (ungraded here) nor for starter code
        order = [p.label for p in edition.problems]
        last = max(order.index(p.label) for p in report.problems)
        following = edition.problems[last + 1:]
        if following:
            print(runner_messages.next_problem(following[0].label, following[0].label in unlocked))
    if args.interactive:
        interact(folder, report, edition)
    return 1 if failed else 0  # for a student's own scripts: 1 while any case or required rule fails


def lock_or_unlock(folder: Path, edition: Edition, progress: dict, numbers: list[str] | None,
                   args: argparse.Namespace) -> int | None:
    """``--lock`` and ``--unlock``: the exit status when the run ends here, None when the chosen
    problems' tests run next (after ``-q NN -u``, or with neither flag)."""
    if args.lock and args.unlock:
        raise InputError(runner_messages.lock_or_unlock())
    if args.lock:
        if not numbers:
            raise InputError(runner_messages.lock_needs_problem())
        for n in numbers:
            relock(edition, folder, progress, n)
        return 0
    if args.unlock:
        targets = numbers or [p.label for p in edition.problems]
        for n in targets:
            if not unlock(edition, folder, progress, n, quiet=not numbers):
                return 0
        if not numbers:
            return 0
    return None


def check_source(folder: Path, source: str, label: str) -> tuple[bool, str]:
    """(whether everything passed, the runner's report) for problem LABEL's public cases run on
    SOURCE as the project's hog.py: what a check cell of the notebook shows."""
    edition = load_student_edition(folder)
    numbers = edition.parse_numbers([label])
    unlocked = unlocked_problems(edition, locking.load_progress(folder))
    submission = Submission(folder / NOTEBOOK, source)  # the report is headed by the notebook it tested
    report = grade_reliably(submission, edition, problems=numbers, include_hidden=False, unlocked=unlocked)
    log_tests(folder, report)
    text = reports.render_text(report, student=True, show_hidden=False)
    if report.does_not_run:
        text += "\n" + messages.LABEL_NOTE + report.does_not_run
    passed = (not report.does_not_run
              and all(p.status in ("passed", "ungraded") for p in report.problems))
    return passed, text


def work_in_notebook(folder: Path, edition: Edition, source: str) -> bool:
    """Whether the submission file SOURCE is still the skeleton while the saved notebook holds work:
    a student working in the notebook, whose scores here are those of the untouched file."""
    from graders.scoring.submissions import saved_notebook_source

    stubs = markers.starter_digests(edition)
    if not stubs or not untouched(source, stubs) or not (folder / NOTEBOOK).is_file():
        return False
    code = saved_notebook_source(folder / NOTEBOOK)
    return code is not None and not untouched(code, stubs)


def untouched(source: str, stubs: dict[str, str]) -> bool:
    """Whether SOURCE holds nothing but the skeleton's stubs (STUBS: their digests, none for a folder
    made before they were kept, where nothing counts as untouched)."""
    return bool(stubs) and markers.untouched_problems(source, stubs) == list(stubs)


def log_tests(folder: Path, report: Report, score: bool = False) -> None:
    """Each problem whose tests ran, in the activity log (for the TAs; never a score); SCORE when
    the run was ``--score``, which the TA report does not count as a try at each problem."""
    activity.test_runs(folder, [(p.label, p.status == "passed", p.cases_passed, len(p.graded_cases))
                                for p in report.problems if p.status in ("passed", "failed")], score)


def pack(folder: Path, edition: Edition, args: argparse.Namespace) -> int:
    """``--zip``: what the student worked in (``hog.py``, or the notebook's code as ``hog.py`` when
    that is where the work is, the notebook itself beside it) and the activity log in one zip to
    hand in; refused while everything still holds the skeleton's stubs. Says what the zip holds and
    what it scores on the public tests."""
    if args.question or args.unlock or args.lock or args.score or args.interactive or args.json:
        raise InputError(runner_messages.zip_alone())
    versions = handin_versions(folder, edition)
    if not versions:
        raise SubmissionError(runner_messages.nothing_to_zip(edition.submission, str(folder)))
    if args.source and args.source not in versions:
        raise InputError(runner_messages.zip_from_missing(args.source, edition.submission))
    stubs = markers.starter_digests(edition)
    worked = {k: v for k, v in versions.items() if not untouched(v, stubs)}
    if not worked and not args.source:
        raise SubmissionError(runner_messages.zip_untouched(edition.submission, "notebook" in versions))
    chosen, note = choose_handin(folder, edition, versions, worked, args.source)
    extra = {NOTEBOOK: (folder / NOTEBOOK).read_bytes()} if "notebook" in worked else {}
    path, with_log = activity.pack_submission(folder, edition.submission, versions[chosen], extra)
    report = grade_reliably(Submission(path, versions[chosen]), edition, include_hidden=False)
    print(runner_messages.zip_written(path.name, edition.submission, chosen == "notebook", sorted(extra), with_log))
    if note:
        print(note)
    print(runner_messages.zip_score(report.total, report.max, report.does_not_run != ""))
    return 0


NOTEBOOK = "handout.ipynb"


def handin_versions(folder: Path, edition: Edition) -> dict[str, str]:
    """``{"file": hog.py's code, "notebook": the saved notebook's code}``, each one there is."""
    from graders.scoring.submissions import read_entry, saved_notebook_source

    found: dict[str, str] = {}
    if (folder / edition.submission).is_file():
        source, _status, reason = read_entry(folder / edition.submission, edition.submission)
        if source is None:
            raise SubmissionError(reason)
        found["file"] = source
    if (folder / NOTEBOOK).is_file():
        code = saved_notebook_source(folder / NOTEBOOK)
        if code is None:
            raise SubmissionError(messages.unreadable_notebook(NOTEBOOK, runner_messages.not_a_notebook()))
        found["notebook"] = code
    return found


def choose_handin(folder: Path, edition: Edition, versions: dict[str, str], worked: dict[str, str],
                  wanted: str | None) -> tuple[str, str]:
    """Which version goes in the zip as the submission file, and what to tell the student about it:
    the one asked for, else the one worked in, else (both worked in) the one scoring more on the
    public tests, hog.py on a tie."""
    if wanted:
        return wanted, ""
    if len(worked) == 1:
        return next(iter(worked)), ""
    points = {k: grade_reliably(Submission(folder, v), edition, include_hidden=False).total for k, v in worked.items()}
    chosen = "notebook" if points["notebook"] > points["file"] else "file"
    other = "file" if chosen == "notebook" else "notebook"
    return chosen, runner_messages.zip_both_worked(edition.submission, chosen == "notebook", points[chosen],
                                                   points[other], other)


def relock(edition: Edition, folder: Path, progress: dict, number: str) -> None:
    keys = {locking.prompt_key(p) for r in locked_records(edition, number) for p in locking.prompts_of(r)}
    progress["unlocked"] = [k for k in progress["unlocked"] if k not in keys]
    answers = progress.get("answers", {})
    progress["answers"] = {k: v for k, v in answers.items() if k not in keys}
    locking.save_progress(folder, progress)
    print(runner_messages.relocked(edition.problem(number).label))


def _ask(prompt: str) -> str | None:
    try:
        answer = input(prompt)
    except (EOFError, KeyboardInterrupt):
        print()
        return None
    return None if answer.strip() in ("exit()", "quit()") else answer


def unlock(edition: Edition, folder: Path, progress: dict, number: int | str, quiet: bool = False) -> bool:
    """Ask problem NUMBER's locked questions; False if the student stopped. QUIET says nothing
    about a problem that is already unlocked (when going through every problem)."""
    problem = edition.problem(number)
    records = locked_records(edition, number)
    if not records:
        return True
    if all(locking.is_unlocked(r, progress) for r in records):
        if not quiet:
            print(runner_messages.unlock_done(problem.label, has_cases(edition, number), running=not quiet))
        return True
    if "seed" not in progress:  # this student's own order of choices, kept from now on
        import secrets

        progress["seed"] = secrets.token_hex(8)
        locking.save_progress(folder, progress)
    print(RULE)
    print(runner_messages.unlock_intro(f"Problem {problem.label}: {problem.title}"))
    for k, record in enumerate(records, start=1):
        print(THIN)
        print(runner_messages.unlock_question(problem.label, k, len(records), record["name"]))
        if not ask_record(record, progress, folder, problem.label):
            print(runner_messages.unlock_stopped(problem.label))
            return False
    print(runner_messages.unlock_done(problem.label, has_cases(edition, number), running=not quiet))
    return True


def shown_choices(record: dict, progress: dict) -> list[str]:
    """RECORD's choices in the order this student sees them: shuffled, so the right one is not
    always first, and the same on every run (seeded by the student's own progress seed and the
    question's salt)."""
    import random

    choices = list(record["choices"])
    try:  # numbers read best in their own order, which gives nothing away
        return sorted(choices, key=float)
    except ValueError:
        pass
    random.Random(f"{progress.get('seed', '')}|{record.get('salt', '')}").shuffle(choices)
    return choices


def ask_record(record: dict, progress: dict, folder: Path, problem: str = "") -> bool:
    done = set(progress["unlocked"])
    answers = progress.setdefault("answers", {})
    if "choices" in record:
        prompt = locking.prompts_of(record)[0]
        choices = shown_choices(record, progress)
        print(runner_messages.question_text(record["question"]))
        for letter, choice in zip(LETTERS, choices):
            print(runner_messages.choice_prompt(letter, choice))
        if locking.prompt_key(prompt) in done:
            print(f"? {answers.get(locking.prompt_key(prompt), '(unlocked)')}")
            return True
        return _ask_until_right(prompt, progress, folder, choices, (problem, record.get("id", "")))
    for k, step in enumerate(record["steps"]):
        lines = step["source"].split("\n")
        print(">>> " + lines[0])
        for more in lines[1:]:
            print("... " + more)
        if "hashes" not in step:
            continue
        prompt = next(p for p in locking.prompts_of(record) if p.index == k)
        if locking.prompt_key(prompt) in done:
            print(answers.get(locking.prompt_key(prompt), "(unlocked)"))
            continue
        if not _ask_until_right(prompt, progress, folder, None, (problem, record.get("id", ""))):
            return False
    return True


def _ask_until_right(prompt: locking.Prompt, progress: dict, folder: Path, choices: list[str] | None,
                     about: tuple[str, str] = ("", "")) -> bool:
    """Ask PROMPT until every line is right; False if the student stopped. Each try goes to the
    activity log under ABOUT (the problem and the question's id)."""
    typed_lines: list[str] = []
    wrong: list[str] = []
    line = 0
    while line < len(prompt.hashes):
        answer = _ask("? ")
        if answer is None:
            activity.unlock_attempt(folder, about[0], about[1], prompt.index, wrong, len(wrong) + line, False)
            return False
        if not answer.strip():  # an empty line is no try: say what can be typed
            print(runner_messages.empty_answer())
            continue
        if choices is not None:
            picked = pick_choice(answer, choices)
            if picked is None:
                print(runner_messages.not_a_choice(len(choices)))
                continue
            answer = picked
        if locking.check(prompt.salt, prompt.hashes[line], answer):
            typed_lines.append(locking.normalise(answer))
            line += 1
            if line < len(prompt.hashes):
                print(runner_messages.unlock_line_correct(line, len(prompt.hashes)))
            continue
        wrong.append(answer.strip())
        hint = locking.near_miss(prompt.salt, prompt.hashes[line], answer)
        if hint is None and any(locking.check(prompt.salt, h, answer) for h in prompt.hashes[line + 1:]):
            hint = "order"
        print(runner_messages.unlock_wrong())
        if hint:
            print(messages.HINTS[hint])
    print(runner_messages.unlock_correct())
    activity.unlock_attempt(folder, about[0], about[1], prompt.index, wrong, len(wrong) + line, True)
    key = locking.prompt_key(prompt)
    progress["unlocked"].append(key)
    progress.setdefault("answers", {})[key] = "\n".join(typed_lines)
    locking.save_progress(folder, progress)
    return True


LETTERS = "abcdefghij"


def pick_choice(answer: str, choices: list[str]) -> str | None:
    """The choice ANSWER names: its text (compared after normalising) first, else its letter.

    Letters, not numbers, label the choices, so a choice that is itself a number is never ambiguous.
    """
    wanted = locking.normalise(answer)
    for choice in choices:
        if locking.normalise(choice) == wanted:
            return choice
    letter = answer.strip().lower()
    if len(letter) == 1 and letter in LETTERS[: len(choices)]:
        return choices[LETTERS.index(letter)]
    return None


def interact(folder: Path, report: Report, edition: Edition) -> None:
    """Open ``python3 -i`` with hog.py loaded and the first failed case's earlier lines already run."""
    failed = next((c for p in report.problems for c in p.cases if not c.passed and not c.hidden), None)
    if failed is None:
        return
    statements: list[str] = []
    for line in failed.transcript.split("\n"):
        if line.startswith(">>> "):
            statements.append(line[4:])
        elif line.startswith("... ") and statements:
            statements[-1] += "\n" + line[4:]
    earlier, last = statements[:-1], (statements[-1] if statements else "")
    # The probes the case may use, the case's set-up, then each earlier line on its own, so that a
    # line meant to raise does not stop the rest.
    code = f"exec(compile(open({str(PROBES)!r}).read(), 'probes', 'exec'))\n{edition.setup}\n"
    for statement in earlier:
        code += (
            f"try:\n    exec(compile({statement + chr(10)!r}, '<case>', 'single'))\n"
            f"except Exception as error:\n    print(type(error).__name__ + ':', error)\n"
        )
    banner = runner_messages.interactive_banner(failed.name, edition.submission)
    code += f"print({banner!r})\nprint({runner_messages.interactive_try(last)!r})\n"
    subprocess.call([sys.executable, "-i", "-c", code], cwd=folder)
