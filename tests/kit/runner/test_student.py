"""The student loop end to end: a copy of the skeleton, the launcher `ok` run as a subprocess."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders.authoring import messages as authoring_messages
from graders.core import messages
from graders.editions import locking
from graders.editions import messages as editions_messages
from graders.editions.cases import load_questions
from graders.editions.edition import kit_root
from graders.runner import messages as runner_messages
from graders.runner.student import has_cases
from graders.scoring import messages as scoring_messages

OK_LINE = runner_messages.unlock_correct()
WRONG_LINE = runner_messages.unlock_wrong()

# A roll_dice that stops rolling at the first 1: right on the handout's examples, wrong on how often it rolls.
EARLY_RETURN_ROLL_DICE = '''

def roll_dice(num_rolls, dice=six_sided):
    total = 0
    for _ in range(num_rolls):
        outcome = dice()
        if outcome == 1:
            return 1
        total = total + outcome
    return total
'''

# The reference roll_dice, wrapped so that it prints a DEBUG line every call.
DEBUG_ROLL_DICE = '''

_reference_roll_dice = roll_dice


def roll_dice(num_rolls, dice=six_sided):
    print("DEBUG: x")
    return _reference_roll_dice(num_rolls, dice){extra}
'''


def run_ok(folder: Path, *args: str, stdin: str = "", pythonpath: bool = True,
           flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if pythonpath:
        env["PYTHONPATH"] = str(kit_root())
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run(
        [sys.executable, *flags, "ok", *args],
        cwd=folder, input=stdin, capture_output=True, text=True, timeout=120, env=env,
    )


def answer_lines(edition, number: int, choice: str = "text", project: Path | None = None) -> list[str]:
    """Everything a student types to unlock problem NUMBER: WWPD lines in order, choices as text or
    as the letter PROJECT's student sees beside the answer (after its first unlock fixed the order)."""
    out: list[str] = []
    shown = iter(shown_orders(project, number) if choice == "letter" else [])
    for q in load_questions(edition, number):
        if q.is_choice:
            out.append("abcdefghij"[next(shown).index(q.answer)] if choice == "letter" else q.answer)
        else:
            out += [line for s in q.steps if s.expected is not None for line in s.expected.split("\n")]
    return out


def shown_orders(project: Path | None, number: int) -> list[list[str]]:
    """The choices of problem NUMBER's multiple-choice questions in the order PROJECT shows them."""
    from graders.editions import locking
    from graders.editions.edition import load_student_edition
    from graders.runner.student import locked_records, shown_choices

    assert project is not None, "letters depend on the student's order of choices: pass the project"
    progress = locking.load_progress(project)
    if "seed" not in progress:
        progress["seed"] = "a student's own seed"
        locking.save_progress(project, progress)
    records = locked_records(load_student_edition(project), number)
    return [shown_choices(r, progress) for r in records if "choices" in r]


def prompt_count(edition, number: int) -> int:
    return sum(1 if q.is_choice else sum(s.expected is not None for s in q.steps)
               for q in load_questions(edition, number))


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((folder / "tests").rglob("*")) if p.is_file()}


def problem_line(output: str, label: str) -> str:
    return next(line for line in output.splitlines() if f"Problem {label} " in line and "/" in line)


@pytest.fixture
def project(tmp_path: Path, edition) -> Path:
    folder = tmp_path / "hog"
    shutil.copytree(edition.skeleton_dir, folder)
    return folder


def unlock(project: Path, edition, number: int, choice: str = "text") -> subprocess.CompletedProcess:
    result = run_ok(project, "-q", f"{number:02d}", "-u", stdin="\n".join(answer_lines(edition, number, choice)) + "\n")
    assert result.returncode in (0, 1), result.stderr  # 1: the problem's cases ran after unlocking, and failed
    done = runner_messages.unlock_done(f"{number:02d}", has_cases(edition, number), running=True)
    assert done in result.stdout, result.stdout
    return result


def use_reference(project: Path, edition) -> None:
    shutil.copyfile(edition.solution_dir / "hog.py", project / "hog.py")


@pytest.fixture(scope="module")
def unlocked_once(tmp_path_factory: pytest.TempPathFactory, edition) -> tuple[Path, subprocess.CompletedProcess]:
    """A copy of the skeleton in which a student unlocked problem 01 (`python3 ok -q 01 -u`, every
    answer typed, a choice's as its text), and what that run printed."""
    folder = tmp_path_factory.mktemp("unlocked") / "hog"
    shutil.copytree(edition.skeleton_dir, folder)
    return folder, unlock(folder, edition, 1)


@pytest.fixture
def unlocked_project(tmp_path: Path, unlocked_once: tuple[Path, subprocess.CompletedProcess]) -> Path:
    """A project of the test's own with problem 01 unlocked: a copy of that folder, progress and all."""
    folder = tmp_path / "hog"
    shutil.copytree(unlocked_once[0], folder)
    return folder


@pytest.fixture(scope="module")
def skeleton_score(tmp_path_factory: pytest.TempPathFactory, edition) -> subprocess.CompletedProcess:
    """`python3 ok --score` in an untouched copy of the skeleton."""
    folder = tmp_path_factory.mktemp("skeleton") / "hog"
    shutil.copytree(edition.skeleton_dir, folder)
    return run_ok(folder, "--score")


# -- the launcher --------------------------------------------------------------------------------


def test_launcher_finds_the_engine_through_pythonpath_outside_the_kit(project: Path) -> None:
    # -S keeps site-packages (and so an editable install of the kit) out of the picture.
    without = run_ok(project, "--help", pythonpath=False, flags=("-S",))
    assert without.returncode != 0
    assert authoring_messages.engine_missing() in without.stderr
    with_path = run_ok(project, "--help", flags=("-S",))
    assert with_path.returncode == 0, with_path.stderr


def test_launcher_finds_an_engine_bundled_beside_it(project: Path) -> None:
    shutil.copytree(kit_root() / "graders", project / "graders", ignore=shutil.ignore_patterns("__pycache__"))
    result = run_ok(project, "-q", "01", pythonpath=False, flags=("-S",))
    assert result.returncode == 0, result.stderr
    assert messages.locked("01") in result.stdout


def test_help_mentions_the_flags(project: Path) -> None:
    result = run_ok(project, "--help")
    assert result.returncode == 0
    for flag in ("-q", "-u", "-i", "--score", "--lock"):
        assert flag in result.stdout


@pytest.mark.parametrize("args", [("-q", "99"), ("-q", "abc")])
def test_an_unknown_problem_exits_2_with_a_clear_message(project: Path, args: tuple[str, ...]) -> None:
    result = run_ok(project, *args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert args[1] in result.stderr
    if args[1] == "99":
        assert editions_messages.unknown_problem(99, "00", "12") in result.stderr


def test_lock_needs_a_problem(project: Path) -> None:
    result = run_ok(project, "--lock")
    assert result.returncode == 2
    assert "python3 ok -q 01 --lock" in result.stderr


# -- locked, unlocked, checked -------------------------------------------------------------------


def test_a_problem_is_locked_before_unlocking(project: Path) -> None:
    result = run_ok(project, "-q", "01")
    assert result.returncode == 0, result.stderr
    assert messages.locked("01") in result.stdout
    assert "python3 ok -q 01 -u" in result.stdout
    assert "cases passed" not in result.stdout
    assert "0/2" in problem_line(result.stdout, "01")


def test_lock_unlock_check_round_trip(project: Path, edition) -> None:
    answers = answer_lines(edition, 1)
    # The last choice question is answered by its letter, the others by their text.
    last_choice = max(k for k, q in enumerate(load_questions(edition, 1)) if q.is_choice)
    question = load_questions(edition, 1)[last_choice]
    index = answers.index(question.answer)
    answers[index] = answer_lines(edition, 1, choice="letter", project=project)[index]
    result = run_ok(project, "-q", "01", "-u", stdin="\n".join(answers) + "\n")
    assert result.returncode == 1, result.stderr  # unlocked, then the skeleton's cases ran and failed
    assert result.stdout.count(OK_LINE) == prompt_count(edition, 1)
    assert WRONG_LINE not in result.stdout
    assert runner_messages.unlock_done("01", running=True) in result.stdout
    assert (project / ".hogkit" / "progress.json").is_file()

    stub = run_ok(project, "-q", "01")
    assert stub.returncode == 1, stub.stderr
    assert messages.locked("01") not in stub.stdout
    line = problem_line(stub.stdout, "01")
    assert "0/2" in line and "✗" in line
    assert "Case " in stub.stdout and ">>> roll_dice(" in stub.stdout
    assert "expected:" in stub.stdout and "got:" in stub.stdout
    assert scoring_messages.rerun_student("01") in stub.stdout

    use_reference(project, edition)
    solved = run_ok(project, "-q", "01")
    assert solved.returncode == 0, solved.stderr
    line = problem_line(solved.stdout, "01")
    assert "2/2" in line and "✓" in line
    assert re.search(r"\((\d+)/\1 cases passed\)", line)
    assert "expected:" not in solved.stdout
    # Everything asked for passed, so the runner points at the next problem.
    assert "All passed. Next: `python3 ok -q " in solved.stdout


def test_a_wrong_answer_then_the_right_one(project: Path) -> None:
    # The first prompt of problem 01 is roll_dice(3, make_test_dice(2, 4, 6)), which displays 12.
    result = run_ok(project, "-q", "01", "-u", stdin="7\n12.0\n12\nexit()\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(WRONG_LINE) == 2
    assert result.stdout.count(messages.HINTS["float"]) == 1
    assert result.stdout.count(OK_LINE) == 1
    assert runner_messages.unlock_stopped("01") in result.stdout
    # The hint comes right after the near miss, not after the unrelated answer.
    after_first = result.stdout.split(WRONG_LINE, 2)
    assert messages.HINTS["float"] not in after_first[1]
    assert messages.HINTS["float"] in after_first[2]


def test_exit_keeps_progress_and_never_rewrites_spec_files(project: Path, edition) -> None:
    before = snapshot(project)
    answers = answer_lines(edition, 1)
    first = run_ok(project, "-q", "01", "-u", stdin=f"{answers[0]}\n{answers[1]}\nexit()\n")
    assert first.returncode == 0, first.stderr
    assert first.stdout.count(OK_LINE) == 2
    assert runner_messages.unlock_stopped("01") in first.stdout
    assert "cases passed" not in first.stdout  # stopping does not run the tests
    stored = (project / ".hogkit" / "progress.json").read_text(encoding="utf-8")
    assert '"answers"' not in stored and '"unlocked"' not in stored  # sealed: nothing in the clear
    progress = locking.load_progress(project)
    assert len(progress["unlocked"]) == 2
    # no temporary file left behind: the progress, and the activity log the TAs' report reads
    assert sorted(p.name for p in (project / ".hogkit").iterdir()) == ["activity.jsonl", "progress.json"]

    # Again: the two answered prompts are shown with their answers and not asked.
    second = run_ok(project, "-q", "01", "-u", stdin="\n".join(answers[2:]) + "\n")
    assert second.returncode == 1, second.stderr
    assert second.stdout.count(OK_LINE) == prompt_count(edition, 1) - 2
    assert f">>> roll_dice(3, make_test_dice(2, 4, 6))\n{answers[0]}\n" in second.stdout
    assert WRONG_LINE not in second.stdout
    assert runner_messages.unlock_done("01", running=True) in second.stdout

    # Once everything is unlocked, -u says so and asks nothing.
    third = run_ok(project, "-q", "01", "-u", stdin="")
    assert runner_messages.unlock_done("01", running=True) in third.stdout
    assert OK_LINE not in third.stdout and "Unlocking Problem" not in third.stdout
    assert snapshot(project) == before


def test_end_of_input_stops_the_unlocker_cleanly(project: Path) -> None:
    result = run_ok(project, "-q", "01", "-u", stdin="12\n")
    assert result.returncode == 0
    assert "Traceback" not in result.stderr
    assert runner_messages.unlock_stopped("01") in result.stdout


def test_lock_again(unlocked_project: Path, edition) -> None:
    assert messages.locked("01") not in run_ok(unlocked_project, "-q", "01").stdout
    relock = run_ok(unlocked_project, "-q", "01", "--lock")
    assert relock.returncode == 0, relock.stderr
    assert runner_messages.relocked("01") in relock.stdout
    again = run_ok(unlocked_project, "-q", "01")
    assert messages.locked("01") in again.stdout
    assert "cases passed" not in again.stdout
    progress = locking.load_progress(unlocked_project)
    assert progress["unlocked"] == [] and progress.get("answers", {}) == {}
    # Unlocking asks every question again.
    redo = unlock(unlocked_project, edition, 1)
    assert redo.stdout.count(OK_LINE) == prompt_count(edition, 1)


def test_score_with_the_reference_and_everything_unlocked(project: Path, edition) -> None:
    # Choice questions are answered by letter here; test_typing_a_numeric_choice_as_text types the text.
    everything = [line for p in edition.problems for line in answer_lines(edition, p.number, choice="letter",
                                                                                    project=project)]
    result = run_ok(project, "-u", stdin="\n".join(everything) + "\n")
    assert result.returncode == 0, result.stderr
    assert WRONG_LINE not in result.stdout
    for p in edition.problems:
        if load_questions(edition, p.label):
            assert runner_messages.unlock_done(p.label, has_cases(edition, p.label)) in result.stdout
    use_reference(project, edition)
    score = run_ok(project, "--score")
    assert score.returncode == 0, score.stderr
    out = score.stdout.replace(runner_messages.score_legend(), "")  # the legend names every mark
    assert "🔒" not in out and "✗" not in out
    assert re.search(r"Phase 1: .*\s12/12$", out, re.M), out
    assert re.search(r"Phase 2: .*\s12/12$", out, re.M), out
    assert "Total: 24/24" in out
    assert "Next:" not in out  # nothing is left to unlock
    assert re.search(r"checkpoint: 1/1$", out, re.M | re.I), out


def test_typing_the_answer_text_of_a_choice_works(unlocked_once: tuple[Path, subprocess.CompletedProcess]) -> None:
    _, result = unlocked_once
    assert WRONG_LINE not in result.stdout
    assert runner_messages.unlock_done("01", running=True) in result.stdout


def test_typing_a_numeric_choice_as_text(project: Path, edition) -> None:
    result = run_ok(project, "-q", "00", "-u", stdin="\n".join(answer_lines(edition, 0, choice="text")) + "\n")
    assert WRONG_LINE not in result.stdout
    assert runner_messages.unlock_done("00", has_cases=False) in result.stdout
    assert "python3 ok -q 00`" not in result.stdout  # Problem 00 has questions only: nothing to run


def test_a_unicode_digit_at_a_choice_prompt_does_not_crash(project: Path, edition) -> None:
    first_choice = next(q for q in load_questions(edition, 1) if q.is_choice)
    answers = answer_lines(edition, 1)
    before = answers[: answers.index(first_choice.answer)]
    result = run_ok(project, "-q", "01", "-u", stdin="\n".join([*before, "²", "exit()"]) + "\n")
    assert "Traceback" not in result.stderr
    assert runner_messages.not_a_choice(len(first_choice.choices)) in result.stdout
    assert runner_messages.unlock_stopped("01") in result.stdout


# -- -i and DEBUG --------------------------------------------------------------------------------


def test_interactive_opens_python_after_a_failure(unlocked_project: Path) -> None:
    result = run_ok(unlocked_project, "-q", "01", "-i", stdin="print('hello from -i')\nexit()\n")
    assert result.returncode == 1, result.stderr
    assert "0/2" in problem_line(result.stdout, "01")
    assert runner_messages.interactive_banner("the handout's examples", "hog.py") in result.stdout
    assert runner_messages.interactive_try("roll_dice(2, make_test_dice(4, 6, 1))") in result.stdout
    assert "hello from -i" in result.stdout
    assert "Traceback" not in result.stderr


def test_interactive_does_nothing_when_everything_passes(unlocked_project: Path, edition) -> None:
    use_reference(unlocked_project, edition)
    result = run_ok(unlocked_project, "-q", "01", "-i", stdin="print('hello from -i')\nexit()\n")
    assert result.returncode == 0, result.stderr
    assert "hello from -i" not in result.stdout


def test_interactive_replays_a_case_that_uses_probes(unlocked_project: Path, edition) -> None:
    source = (edition.solution_dir / "hog.py").read_text(encoding="utf-8")
    (unlocked_project / "hog.py").write_text(source + EARLY_RETURN_ROLL_DICE, encoding="utf-8")
    result = run_ok(unlocked_project, "-q", "01", "-i", stdin="print('hello from -i')\nexit()\n")
    assert "counting_dice(" in result.stdout  # the first failed case uses the probe
    assert "hello from -i" in result.stdout
    assert "NameError" not in result.stderr
    case = "dice is rolled exactly num_rolls times, even after a 1"
    assert runner_messages.interactive_banner(case, "hog.py") in result.stdout


def test_debug_lines_never_fail_a_test(unlocked_project: Path, edition) -> None:
    source = (edition.solution_dir / "hog.py").read_text(encoding="utf-8")
    (unlocked_project / "hog.py").write_text(source + DEBUG_ROLL_DICE.format(extra=""), encoding="utf-8")
    plain = run_ok(unlocked_project, "-q", "01")
    assert plain.returncode == 0, plain.stderr
    line = problem_line(plain.stdout, "01")
    assert "2/2" in line and "✓" in line
    assert "expected:" not in plain.stdout
    assert "DEBUG: x" in plain.stdout  # shown on passing cases too, --verbose or not

    verbose = run_ok(unlocked_project, "-q", "01", "-v")
    assert "2/2" in problem_line(verbose.stdout, "01")
    assert "DEBUG: x" in verbose.stdout
    # The handout's examples call roll_dice four times.
    assert scoring_messages.debug_lines_note(4) in verbose.stdout
    assert "expected:" not in verbose.stdout


def test_debug_lines_are_shown_apart_in_a_failure(unlocked_project: Path, edition) -> None:
    source = (edition.solution_dir / "hog.py").read_text(encoding="utf-8")
    broken = DEBUG_ROLL_DICE.format(extra=" + 1")
    (unlocked_project / "hog.py").write_text(source + broken, encoding="utf-8")
    result = run_ok(unlocked_project, "-q", "01")
    assert "0/2" in problem_line(result.stdout, "01")
    got = next(line for line in result.stdout.splitlines() if line.strip().startswith("got:"))
    assert "DEBUG" not in got
    assert got.split("got:")[1].strip() == "11"  # roll_dice(2, make_test_dice(4, 6, 1)) + 1, no DEBUG text
    assert scoring_messages.debug_lines_note(1) in result.stdout
    assert re.search(r"^\s+DEBUG: x$", result.stdout, re.M)


def test_lock_and_unlock_together_is_refused(project: Path) -> None:
    result = run_ok(project, "-q", "01", "--lock", "-u")
    assert result.returncode == 2 and runner_messages.lock_or_unlock() in result.stderr


def test_a_damaged_spec_file_gets_a_clear_message(project: Path) -> None:
    (project / "tests" / "q01.json").write_text('{"locked": [broken', encoding="utf-8")
    result = run_ok(project, "-q", "01", "-u", stdin="exit()\n")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "damaged" in result.stderr and "q01.json" in result.stderr


def test_a_multi_line_answer_is_asked_line_by_line(project: Path, edition) -> None:
    question = next(q for q in load_questions(edition, 8) if any(s.expected and "\n" in s.expected for s in q.steps))
    step = next(s for s in question.steps if s.expected and "\n" in s.expected)
    lines = step.expected.split("\n")
    before = []
    for q in load_questions(edition, 8):
        if q.id == question.id:
            break
        before += [q.answer] if q.is_choice else [x for s in q.steps if s.expected for x in s.expected.split("\n")]
    typed = before + [lines[-1], lines[0], "exit()"]
    result = run_ok(project, "-q", "08", "-u", stdin="\n".join(typed) + "\n")
    assert messages.HINTS["order"] in result.stdout  # the value typed first: printed lines come before it
    assert runner_messages.unlock_line_correct(1, len(lines)) in result.stdout


def test_interrupting_the_runner_is_quiet(monkeypatch, capsys, project: Path) -> None:
    from graders.runner import student

    def interrupt(folder, args):
        raise KeyboardInterrupt

    monkeypatch.setattr(student, "run", interrupt)
    assert student.main(project, ["-q", "01"]) == 130
    assert messages.interrupted() in capsys.readouterr().err


def test_the_exit_status_and_json_are_for_a_students_own_scripts(unlocked_project: Path, edition) -> None:
    """`python3 ok` exits 1 while a case fails and 0 once everything passes; --json prints the same
    results as one JSON object, with the same exit status."""
    failing = run_ok(unlocked_project, "-q", "01", "--json")
    assert failing.returncode == 1, failing.stderr
    record = json.loads(failing.stdout)
    assert [(p["number"], p["status"]) for p in record["problems"]] == [(1, "failed")]
    assert all(not c["hidden"] for p in record["problems"] for c in p["cases"])
    use_reference(unlocked_project, edition)
    passing = run_ok(unlocked_project, "-q", "01", "--json")
    assert passing.returncode == 0, passing.stderr
    assert json.loads(passing.stdout)["total"] == 2
    assert run_ok(unlocked_project, "-q", "01").returncode == 0


def test_next_names_the_following_problem_as_it_stands(unlocked_project: Path, edition) -> None:
    """After a problem passes, Next names the one after it: `-q NN` when it is unlocked already
    (it may still fail), `-q NN -u` when it is not."""
    unlock(unlocked_project, edition, 2)
    use_reference(unlocked_project, edition)
    assert "Next: `python3 ok -q 02`" in run_ok(unlocked_project, "-q", "01").stdout
    assert "Next: `python3 ok -q 03 -u`" in run_ok(unlocked_project, "-q", "02").stdout


def test_choices_are_shuffled_the_same_way_on_every_run(project: Path, edition) -> None:
    """The right answer is not always "a)": each student sees the choices in an order of their own
    (numbers stay in numeric order), and the same order on every run."""
    from graders.editions.edition import load_student_edition
    from graders.runner.student import locked_records, shown_choices

    student = load_student_edition(project)
    records = [r for p in student.problems for r in locked_records(student, p.label) if "choices" in r]
    worded = [r for r in records if not all(c.replace(".", "").lstrip("-").isdigit() for c in r["choices"])]
    firsts = {shown_choices(r, {"seed": "ann"})[0] == r["choices"][0] for r in worded}
    assert firsts == {True, False}  # sometimes first as written, sometimes not
    assert all(shown_choices(r, {"seed": "ann"}) == shown_choices(r, {"seed": "ann"}) for r in records)
    assert any(shown_choices(r, {"seed": "ann"}) != shown_choices(r, {"seed": "bob"}) for r in worded)
    numeric = next(r for r in records if r not in worded)
    assert shown_choices(numeric, {"seed": "ann"}) == sorted(numeric["choices"], key=float)
    first = run_ok(project, "-q", "01", "-u", stdin="exit()\n").stdout
    second = run_ok(project, "-q", "01", "-u", stdin="exit()\n").stdout
    assert first == second


def test_an_empty_line_is_not_a_wrong_try(project: Path, edition) -> None:
    answers = answer_lines(edition, 1)
    result = run_ok(project, "-q", "01", "-u", stdin="\n".join(["", "   ", *answers]) + "\n")
    assert WRONG_LINE not in result.stdout
    assert result.stdout.count(runner_messages.empty_answer()) == 2
    assert runner_messages.unlock_done("01", running=True) in result.stdout


def test_a_student_never_reads_advice_for_instructors(project: Path) -> None:
    (project / "hog.py").rename(project / "my_hog.py")
    (project / "elsewhere").mkdir()
    result = run_ok(project, "-q", "01")
    assert result.returncode == 2
    assert "hog.py" in result.stderr and "--out" not in result.stderr and "class folder" not in result.stderr


def test_output_into_a_closed_pipe_ends_cleanly(unlocked_project: Path) -> None:
    """`python3 ok -v | head` ends without a traceback when head stops reading."""
    child = subprocess.Popen([sys.executable, "ok", "-v"], cwd=unlocked_project, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    child.stdout.close()  # the reader is gone before the first line is written
    err = child.stderr.read()
    assert child.wait(timeout=300) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_a_file_python_would_not_run_is_never_all_passed(unlocked_project: Path, edition) -> None:
    """roll_dice passes its cases, but a syntax error elsewhere stops Python: the runner says the
    file does not run, and where, instead of "All passed"."""
    use_reference(unlocked_project, edition)
    source = (unlocked_project / "hog.py").read_text(encoding="utf-8")
    (unlocked_project / "hog.py").write_text(source + "\ndef broken(:\n    pass\n", encoding="utf-8")
    result = run_ok(unlocked_project, "-q", "01")
    assert "2/2" in problem_line(result.stdout, "01")
    line = source.count("\n") + 2
    assert "hog.py does not run as it is: Python stops at line " + str(line) in result.stdout
    assert "All passed" not in result.stdout and result.returncode == 1


# -- the hand-in check: `python3 ok --zip` ---------------------------------------------------------


def with_notebook(project: Path, edition, functions: dict[str, str] | None = None) -> Path:
    """PROJECT with the bundle's handout.ipynb, each function of FUNCTIONS ({name: code}) written
    in its cell as a student working in the notebook would."""
    from graders.authoring.bundle import notebook

    handout = (edition.handout_dir / "handout.md").read_text(encoding="utf-8")
    book = json.loads(notebook(edition, handout, (edition.skeleton_dir / "hog.py").read_text(encoding="utf-8")))
    for name, code in (functions or {}).items():
        cell = next(c for c in book["cells"] if c["cell_type"] == "code" and f"def {name}(" in "".join(c["source"]))
        cell["source"] = code
    (project / "handout.ipynb").write_text(json.dumps(book), encoding="utf-8")
    return project


def reference_function(edition, name: str) -> str:
    import ast

    source = (edition.solution_dir / "hog.py").read_text(encoding="utf-8")
    node = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == name)
    return ast.get_source_segment(source, node) or ""


def zipped(project: Path) -> dict[str, str]:
    import zipfile

    with zipfile.ZipFile(project / "hog_submission.zip") as archive:
        return {n: archive.read(n).decode("utf-8") for n in archive.namelist()}


def test_zip_refuses_an_untouched_skeleton(project: Path, edition) -> None:
    """Handing in the skeleton scores 0: the runner says so and writes no zip."""
    with_notebook(project, edition)
    result = run_ok(project, "--zip")
    assert result.returncode == 2 and runner_messages.zip_untouched("hog.py", True) in result.stderr
    assert not (project / "hog_submission.zip").exists()


def test_zip_packs_the_notebook_when_the_work_is_there(project: Path, edition) -> None:
    """A student who wrote roll_dice in the notebook hands in the notebook's code as hog.py (the
    untouched hog.py stays out), with the notebook beside it, and sees what the zip holds and scores."""
    roll_dice = reference_function(edition, "roll_dice")
    with_notebook(project, edition, {"roll_dice": roll_dice})
    result = run_ok(project, "--zip")
    assert result.returncode == 0, result.stderr
    assert runner_messages.zip_written("hog_submission.zip", "hog.py", True, ["handout.ipynb"], False) in result.stdout
    files = zipped(project)
    assert sorted(files) == ["handout.ipynb", "hog.py"] and roll_dice in files["hog.py"]
    assert "scores 0/" not in result.stdout and "On the public tests it scores" in result.stdout


def test_the_runner_says_when_the_work_is_in_the_notebook(project: Path, edition, skeleton_score) -> None:
    plain = skeleton_score
    assert runner_messages.work_in_notebook("hog.py") not in plain.stdout
    with_notebook(project, edition, {"roll_dice": reference_function(edition, "roll_dice")})
    assert runner_messages.work_in_notebook("hog.py") in run_ok(project, "--score").stdout


def test_zip_with_work_in_both_takes_the_better_and_says_how_to_take_the_other(project: Path, edition) -> None:
    use_reference(project, edition)
    with_notebook(project, edition, {"roll_dice": reference_function(edition, "roll_dice")})
    result = run_ok(project, "--zip")
    assert result.returncode == 0, result.stderr
    assert "ok --zip --from notebook" in result.stdout
    assert zipped(project)["hog.py"] == (project / "hog.py").read_text(encoding="utf-8")
    chosen = run_ok(project, "--zip", "--from", "notebook")
    assert "the code of handout.ipynb" in chosen.stdout and "def roll_dice" in zipped(project)["hog.py"]
    assert zipped(project)["hog.py"] != (project / "hog.py").read_text(encoding="utf-8")


def test_from_is_for_zip_only_and_needs_what_it_names(project: Path) -> None:
    alone = run_ok(project, "--from", "file")
    assert alone.returncode == 2 and runner_messages.from_needs_zip() in alone.stderr
    missing = run_ok(project, "--zip", "--from", "notebook")
    assert missing.returncode == 2 and runner_messages.zip_from_missing("notebook", "hog.py") in missing.stderr


def test_zip_of_a_file_packs_it_with_its_score(project: Path, edition) -> None:
    use_reference(project, edition)
    result = run_ok(project, "--zip")
    assert result.returncode == 0 and zipped(project) == {"hog.py": (project / "hog.py").read_text(encoding="utf-8")}
    assert "On the public tests it scores 24/24" in result.stdout


def test_score_has_a_legend_and_starter_code_never_shows_as_passed(project: Path, skeleton_score, capsys) -> None:
    """The skeleton's final_strategy (``return 6``) passes its one case; it is still no work done,
    said the same way by ``python3 ok`` and ``hogkit grade``."""
    from graders.cli import main as hogkit

    result = skeleton_score
    assert runner_messages.score_legend() in result.stdout
    line = problem_line(result.stdout, "12")
    assert line.lstrip().startswith("·") and "cases passed" not in line, line
    alone = run_ok(project, "-q", "12")
    assert scoring_messages.starter_code("12") in alone.stdout and "All passed" not in alone.stdout
    assert hogkit(["grade", str(project / "hog.py"), "-q", "12"]) == 0
    graded = capsys.readouterr().out
    assert problem_line(graded, "12").split() == problem_line(alone.stdout, "12").split()
    assert scoring_messages.starter_code("12") in graded and "cases passed" not in graded
    (project / "hog.py").write_text((project / "hog.py").read_text(encoding="utf-8").replace(
        "return 6  # Remove this line once implemented.", "return 5"), encoding="utf-8")
    written = run_ok(project, "-q", "12")
    assert scoring_messages.starter_code("12") not in written.stdout
    assert problem_line(written.stdout, "12").lstrip().startswith("✓")


# -- every edition's hand-in: untouched, the notebook, the file, both --------------------------------


def written_problems(edition) -> list[tuple[str, list[str]]]:
    """Two problems a student can finish alone, each with its functions: scored, calling no other
    problem's function, graded in a student's copy (no test the student writes)."""
    from graders.editions.cases import load_problem_cases

    found = [(p.label, list(p.functions)) for p in edition.problems
             if p.points > 0 and p.functions and not p.depends
             and all(c.check is None for c in load_problem_cases(edition, p.label))]
    assert len(found) >= 2, edition.name
    return found[:2]


def with_written(project: Path, edition, in_file: list[str], in_notebook: list[str]) -> Path:
    """PROJECT (a copy of the skeleton) with the bundle's handout.ipynb, the reference's functions
    IN_FILE written in the submission file and IN_NOTEBOOK in the notebook's cells, as a student would."""
    import ast

    from graders.authoring.bundle import notebook

    def segment(source: str, name: str) -> str:
        node = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == name)
        return ast.get_source_segment(source, node) or ""

    skeleton = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    reference = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    file = skeleton
    for name in in_file:
        file = file.replace(segment(skeleton, name), segment(reference, name))
    (project / edition.submission).write_text(file, encoding="utf-8")
    book = json.loads(notebook(edition, (edition.handout_dir / "handout.md").read_text(encoding="utf-8"), skeleton))
    for cell in book["cells"]:
        for name in in_notebook:
            cell["source"] = "".join(cell["source"]).replace(segment(skeleton, name), segment(reference, name))
    (project / "handout.ipynb").write_text(json.dumps(book), encoding="utf-8")
    return project


def zip_of(project: Path, edition) -> dict[str, str]:
    import zipfile

    with zipfile.ZipFile(project / f"{Path(edition.submission).stem}_submission.zip") as archive:
        return {n: archive.read(n).decode("utf-8") for n in archive.namelist()}


@pytest.mark.parametrize("work", ["nowhere", "notebook", "file", "both"])
def test_every_editions_zip_packs_where_the_work_is(work: str, any_edition, tmp_path: Path) -> None:
    """An untouched bundle's zip is refused and no note says the work is in the notebook; work only
    in the notebook is packed from it; work only in the file is packed with no note; work in both
    packs the one scoring more on the public tests, and says so."""
    edition, sub = any_edition, any_edition.submission
    project = tmp_path / "project"
    shutil.copytree(edition.skeleton_dir, project)
    (first, one), (_, two) = written_problems(edition)
    files = {"nowhere": [], "notebook": [], "file": one, "both": one}[work]
    cells = {"nowhere": [], "notebook": one, "file": [], "both": one + two}[work]
    with_written(project, edition, files, cells)
    result = run_ok(project, "--zip")
    assert runner_messages.work_in_notebook(sub) not in result.stdout
    if work == "nowhere":
        assert result.returncode == 2 and runner_messages.zip_untouched(sub, True) in result.stderr, result.stderr
        assert not list(project.glob("*.zip"))
        told = run_ok(project, "-q", first)  # the student's first command: no word of work in the notebook
        assert runner_messages.work_in_notebook(sub) not in told.stdout, told.stdout
        return
    assert result.returncode == 0, result.stderr
    packed = zip_of(project, edition)
    if work == "file":
        assert packed == {sub: (project / sub).read_text(encoding="utf-8")}
        assert "Note:" not in result.stdout and "--from" not in result.stdout, result.stdout
        return
    assert sorted(packed) == sorted([sub, "handout.ipynb"])
    assert runner_messages.zip_written(f"{Path(sub).stem}_submission.zip", sub, True, ["handout.ipynb"], False) \
        in result.stdout
    notebook = json.loads((project / "handout.ipynb").read_text(encoding="utf-8"))
    assert all(c["source"] in packed[sub] for c in notebook["cells"] if c["cell_type"] == "code"
               and any(f"def {name}(" in c["source"] for name in cells))  # the notebook's code, as the file
    if work == "both":  # the notebook holds more: taken, and said, with the way to take the file instead
        assert "ok --zip --from file" in result.stdout, result.stdout
    else:
        assert "Note:" not in result.stdout, result.stdout
