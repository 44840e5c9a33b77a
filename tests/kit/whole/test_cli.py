"""``hogkit``: every command has --help, clear errors for bad input, and exit codes that mean something."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders.cli import main
from graders.cli import messages as cli_messages
from graders.core import messages
from graders.courses import messages as courses_messages
from graders.editions.edition import kit_root
from graders.scoring import messages as scoring_messages


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


COMMANDS = ["grade", "answers", "build", "editions", "release", "gradescope", "winrate", "optimal", "picture",
            "contest", "mutants", "similar"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(capsys, command):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    assert "usage: hogkit" in capsys.readouterr().out


def test_every_option_of_every_command_says_what_it_does():
    import argparse

    from graders.cli import build_parser

    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(commands.choices) >= set(COMMANDS) | {"play"}
    silent = [(name, action.dest) for name, sub in commands.choices.items() for action in sub._actions
              if not action.help]
    assert silent == [], silent
    undescribed = [name for name, sub in commands.choices.items() if not sub.description]
    assert undescribed == [], undescribed  # `hogkit NAME --help` says what the command is for


def test_an_extra_word_is_refused_by_the_commands_own_usage(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["editions", "extra"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert err.startswith("usage: hogkit editions") and "unrecognized arguments: extra" in err


def test_grade_reference_text(capsys):
    code, out, _ = run(capsys, "grade", str(kit_root() / "solution" / "boar_brawl"))
    assert code == 0
    assert "Total: 24/24" in out and "Phase 1 checkpoint: 1/1" in out


def test_grade_a_single_file_as_json(capsys):
    code, out, _ = run(capsys, "grade", str(kit_root() / "skeleton" / "boar_brawl" / "hog.py"), "--json")
    data = json.loads(out)
    assert code == 0 and data["total"] == 0 and data["max"] == 24
    assert [ph["max"] for ph in data["phases"]] == [12, 12]


def test_grade_one_problem(capsys):
    code, out, _ = run(capsys, "grade", str(kit_root() / "solution" / "boar_brawl"), "-q", "02")
    assert code == 0 and "Problem 02 boar_brawl" in out and "Problem 01" not in out and "Total: 2/2" in out


def test_verbose_never_asks_to_rerun_with_verbose(capsys):
    skeleton = str(kit_root() / "skeleton" / "boar_brawl" / "hog.py")
    _, short, _ = run(capsys, "grade", skeleton, "-q", "02")
    assert "-q 02 --verbose" in short  # the way to see every failed case
    code, out, _ = run(capsys, "grade", skeleton, "-q", "02", "--verbose")
    assert code == 0 and "Problem 02 boar_brawl" in out and "--verbose" not in out


@pytest.mark.slow  # several seconds of processor time: the full run, not the edit loop
def test_grade_without_path_grades_the_demo_class(capsys):
    code, out, _ = run(capsys, "grade")
    assert code == 0
    lines = out.splitlines()
    assert any(line.startswith("reference") and "total 24/24" in line for line in lines)
    assert any(line.startswith("skeleton") and "total  0/24" in line for line in lines)
    assert any(line.startswith("phase 1 done") and "P1 12/12" in line and "P2  0/12" in line for line in lines)
    assert "Phases: P1 Rules of the Game, P2 Strategies" in lines  # what P1 and P2 stand for
    named = [word for line in lines if "hogkit grade " in line for word in line.split("hogkit grade ")[1:]]
    assert named and all(Path(word.split()[0].rstrip(";")).exists() for word in named), named  # real paths


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["grade", "no/such/place"], "no such file or folder: no/such/place"),
        (["grade", "README.md"], "is not a Python file"),
        (["grade", "graders"], "without hog.py"),
        (["grade", "graders"], "to grade a class folder (one submission per student), add --out OUTDIR"),
        (["grade", "solution/boar_brawl", "--edition", "chess"], "unknown edition 'chess'"),
        (["grade", "solution/boar_brawl", "-q", "99"], "there is no problem 99; problems are 00 to 12"),
        (["grade", "solution/boar_brawl", "-q", "two"], "-q expects a problem number"),
        (["grade", "solution/boar_brawl/hog.py", "--out", "never-made"], "--out is for a class folder"),
        (["answers", "-q", "42"], "there is no problem 42"),
        (["contest", "solution/boar_brawl", "--out", "/tmp/hogkit-never"], "holds hog.py itself"),
        (["grade", "solution/boar_brawl", "--out", "/tmp/hogkit-never"], "not a class folder"),
        (["picture", "--strategy", "final_strategy", "--kind", "dice", "--out", "/proc/no/x.svg"],
         "cannot write /proc/no/x.svg"),
        (["picture", "--strategy", "final_strategy", "--kind", "dice", "--out", "graders"],
         "cannot write graders (it is a folder)"),
        (["optimal", "--table", "/proc/no/best.py"], "cannot write /proc/no/best.py"),
        (["release", "boar_brawl", "--out", "/proc/no/project"], "cannot write /proc/no/project"),
        (["gradescope", "boar_brawl", "--out", "/proc/no/a.zip"], "cannot write /proc/no/a.zip"),
        (["contest", "skeleton", "--out", "/proc/no"], "cannot write /proc/no"),
        (["grade", "tests/kit/submissions", "--out", "/proc/no"], "cannot write /proc/no"),
        (["answers", "--edition", "nope"], "unknown edition 'nope'"),
        (["mutants", "--edition", "chess"], "unknown edition 'chess'"),
        (["mutants", "-q", "99"], "there is no problem 99; problems are 00 to 12"),
        (["mutants", "-q", "two"], "-q expects a problem number"),
        (["mutants", "-q", "06", "--out", "/proc/no"], "cannot write /proc/no"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(capsys, monkeypatch, argv, message):
    monkeypatch.chdir(kit_root())
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err and err.startswith("hogkit: ")
    assert out == ""


def test_binary_and_non_utf8_files_are_not_python(capsys, tmp_path):
    binary = tmp_path / "hog.py"
    binary.write_bytes(b"\x7fELF\x00\x00")
    code, _, err = run(capsys, "grade", str(binary))
    assert code == 2 and "Python refuses to read it" in err and "null bytes" in err
    latin = tmp_path / "latin" / "hog.py"
    latin.parent.mkdir()
    latin.write_bytes("x = 'caf\xe9'".encode("latin-1"))
    code, _, err = run(capsys, "grade", str(latin.parent))
    assert code == 2 and "line 1" in err and "'utf-8' codec can't decode byte 0xe9" in err


def test_answers_prints_the_key(capsys):
    code, out, _ = run(capsys, "answers", "-q", "05")
    assert code == 0
    assert out.startswith("Problem 05: play")
    assert "answer:" in out and ">>> " in out
    assert scoring_messages.grading_rule() in out  # how points are lost: hidden cases test one function


def test_answers_for_every_problem(capsys):
    code, out, _ = run(capsys, "answers")
    assert code == 0
    for n in range(12):
        assert f"Problem {n:02d}:" in out


@pytest.mark.parametrize("edition_name", ["boar_brawl", "more_boar", "pig_tail"])
def test_answers_of_a_phase_as_a_markdown_handout(capsys, edition_name):
    from graders.editions.cases import load_questions
    from graders.editions.edition import load_edition
    from graders.scoring import messages as scoring_messages

    edition = load_edition(edition_name)
    code, out, _ = run(capsys, "answers", "--phase", "1", "--markdown", "--edition", edition_name)
    assert code == 0
    assert out.startswith(f"# {scoring_messages.answer_key_heading(edition.title, 1, edition.phases[0].name)}\n")
    assert scoring_messages.grading_rule() in out
    for problem in edition.problems:
        heading = f"## Problem {problem.label}: {problem.title} ("
        assert (heading in out) == (problem.phase == 1), problem.label
        if problem.phase != 1:
            continue
        section = out.split(heading)[1].split("\n## ")[0]
        for k, q in enumerate(load_questions(edition, problem.label), start=1):
            assert f"### {k}. {q.name}\n" in section
            if q.is_choice:  # the answer marked among the choices, and restated
                assert f"- **{q.answer}** (the answer)" in section
                assert scoring_messages.answer_key_answer(q.answer) in section
                assert all(f"- {c}\n" in section for c in q.choices if c != q.answer)
            else:  # the transcript with every output Python displays
                assert all(f">>> {s.source.splitlines()[0]}" in section for s in q.steps)
                assert all(s.expected in section for s in q.steps if s.expected is not None)
    assert out.count("```pycon") == out.count("```") / 2


def test_answers_of_a_phase_that_does_not_exist_or_with_q(capsys):
    code, _, err = run(capsys, "answers", "--phase", "9")
    assert code == 2 and "no Phase 9" in err
    with pytest.raises(SystemExit) as done:
        main(["answers", "--phase", "1", "-q", "05"])
    assert done.value.code == 2
    code, out, _ = run(capsys, "answers", "--phase", "2")  # without --markdown: the text key of that phase
    assert code == 0 and out.startswith("Problem 06:") and "Problem 05:" not in out


def test_build_check_reports_fresh_files(capsys):
    code, out, _ = run(capsys, "build", "--check")
    assert code == 0 and "everything is up to date" in out


@pytest.mark.slow
def test_build_check_fails_on_a_stale_skeleton(tmp_path, capsys, monkeypatch):
    copy = tmp_path / "kit"
    shutil.copytree(kit_root(), copy, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info"))
    (copy / "skeleton" / "boar_brawl" / "hog.py").write_text("# edited by hand\n", encoding="utf-8")
    monkeypatch.setenv("HOGKIT_ROOT", str(copy))
    code, out, err = run(capsys, "build", "--check")
    assert code == 1
    assert "stale: skeleton/boar_brawl/hog.py" in out and "hogkit build" in err
    code, out, _ = run(capsys, "build")
    assert code == 0 and "written: skeleton/boar_brawl/hog.py" in out
    assert run(capsys, "build", "--check")[0] == 0


def test_editions_lists_the_default(capsys):
    code, out, _ = run(capsys, "editions")
    assert code == 0 and "boar_brawl" in out and "(default)" in out


def test_console_script_runs_as_a_program():
    hogkit = shutil.which("hogkit")
    argv = [hogkit] if hogkit else [sys.executable, "-m", "graders.cli"]
    done = subprocess.run([*argv, "grade", "skeleton/boar_brawl", "-q", "1"], cwd=kit_root(),
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert "Total: 0/2" in done.stdout


@pytest.mark.parametrize("args", [
    ["optimal", "--table", "{out}"],
    ["picture", "--strategy", "sus_strategy", "--out", "{out}"],
])
def test_a_file_output_is_never_written_into_a_folder_that_is_not_there(args, tmp_path, capsys):
    """A mistyped folder (--table tabels/best.py) is refused, as release refuses an unwritable path,
    rather than made wherever the typo points."""
    out = tmp_path / "typo" / "deeper" / ("best.py" if args[0] == "optimal" else "picture.svg")
    assert main([a.replace("{out}", str(out)) for a in args]) == 2
    err = capsys.readouterr().err
    assert cli_messages.cannot_write(str(out), cli_messages.reason_no_folder(str(out.parent))) in err
    assert not (tmp_path / "typo").exists()


def _course(tmp_path: Path) -> Path:
    course = tmp_path / "course"
    course.mkdir()
    (course / "course.toml").write_text('edition = "boar_brawl"\ntimezone = "UTC"\n\n[deadlines]\n'
                                        'due = 2024-02-07T23:59:00\n', encoding="utf-8")
    (course / "roster.csv").write_text("id,name,email\nann,Ann,ann@uni.edu\n", encoding="utf-8")
    return course


@pytest.mark.parametrize("route", ["grade", "contest", "course"])
def test_a_refused_command_writes_nothing(route, tmp_path, capsys, skeleton_source):
    """A missing class folder (grade, contest) and a course refused for hand-in times it cannot know:
    refused before the output folder, or any folder above it, is made."""
    out = tmp_path / "made" / "out"
    folder = tmp_path / ("missing" if route != "course" else "class")
    argv = ["contest" if route == "contest" else "grade", str(folder), "--out", str(out)]
    if route == "course":
        folder.mkdir()
        (folder / "ann.py").write_text(skeleton_source, encoding="utf-8")  # no times.csv: only its file's time
        argv += ["--course", str(_course(tmp_path))]
    code, _, err = run(capsys, *argv)
    assert code == 2
    said = (messages.no_such_path(str(folder)) if route != "course"
            else courses_messages.course_file_times_refused(["ann"]))
    assert said in err
    assert not (tmp_path / "made").exists()


def test_a_class_s_output_folder_is_its_owner_s_alone(tmp_path, capsys):
    """Made 0700 (with the folders above it it makes), so no later child can read the records there."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ann.py").write_bytes(b"\x7fELF\x00\x01")  # refused before any child runs it
    out = tmp_path / "made" / "out"
    code, _, err = run(capsys, "grade", str(folder), "--out", str(out))
    assert code == 0, err
    assert (out.stat().st_mode & 0o777) == 0o700 and ((tmp_path / "made").stat().st_mode & 0o777) == 0o700
    assert (out / "records").is_dir() and (out / "grades.csv").is_file()
