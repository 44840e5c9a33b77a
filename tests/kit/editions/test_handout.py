"""Every ``>>>`` example in every handout is what the edition's reference really displays."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graders.core import messages
from graders.editions.cases import Case, parse_transcript
from graders.editions.edition import edition_names, load_edition
from graders.sandboxing.repairs import repair
from graders.sandboxing.sandbox import Limits, Session, prepare_workdir
from graders.scoring.judge import run_case

BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.S | re.M)


def handout_blocks(name: str) -> list[tuple[int, str]]:
    text = (load_edition(name).handout_dir / "handout.md").read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in BLOCK.finditer(text)]


@pytest.mark.parametrize("name", edition_names())
def test_handout_exists_and_covers_every_problem(name):
    edition = load_edition(name)
    text = (edition.handout_dir / "handout.md").read_text(encoding="utf-8")
    for p in edition.problems:
        part = p.label.lstrip("0") or "0"  # "05a" is presented as Problem 5a
        assert re.search(rf"Problem {part}\b", text), f"the handout never presents problem {p.label}"
    assert "python3 ok -q 01 -u" in text and "python3 ok --score" in text
    assert len(handout_blocks(name)) >= 10


@pytest.mark.parametrize("name", edition_names())
def test_handout_examples_match_the_reference(name):
    edition = load_edition(name)
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    support = [edition.support_dir / f for f in edition.support]
    workdir, target = prepare_workdir(repair(source)[0], edition.submission, support)
    failures = []
    with Session(target, edition.module, workdir, Limits()) as session:
        for line, block in handout_blocks(name):
            case = Case(f"handout:{line}", 0, f"handout line {line}", False,
                        parse_transcript(block, f"handout line {line}"), edition.handout_dir, 10.0,
                        edition.setup + "\nfrom dice import *")
            result = run_case(session, case)
            if not result.passed:
                failures.append(f"line {line}: {result.transcript}\n  expected {result.expected!r}, got {result.got!r}")
    assert not failures, "\n".join(failures)


# What each handout says a command of `python3 ok` does, in the comment after it: one sentence per
# command, the same in every handout ({submission} is the edition's file). Each is held to what the
# command does by test_every_command_does_what_the_handouts_say.
PROMISES = {
    "python3 ok -q 01": "run the tests of problem 1 (once it is unlocked)",
    "python3 ok": "run the tests of every unlocked problem",
    "python3 ok -q 01 -i": "if a test fails, open Python with {submission} loaded",
    "python3 ok --score": "show your points, phase by phase",
    "python3 ok -v": "show every failed case, not only the first, with its traceback",
}
SAID = re.compile(r"^(python3 ok[^#\n]*?)\s+# (.*)$", re.M)


@pytest.mark.parametrize("name", edition_names())
def test_every_handout_describes_ok_s_commands_as_they_are(name):
    """Each `python3 ok ...  # what it does` line of a handout says what PROMISES holds to be true."""
    edition = load_edition(name)
    text = (edition.handout_dir / "handout.md").read_text(encoding="utf-8")
    said = SAID.findall(text)
    assert said, "the handout describes none of ok's commands"
    for command, description in said:
        assert command in PROMISES, f"{command!r} is described but not held to what it does"
        assert description == PROMISES[command].format(submission=edition.submission), command


def failed_cases(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.lstrip().startswith("→ "))


@pytest.mark.timeout(600)
def test_every_command_does_what_the_handouts_say(tmp_path, monkeypatch, capsys):
    from graders.editions import locking
    from graders.editions.edition import load_student_edition
    from graders.runner import student

    from ..conftest import replace_function, unlock_everything

    edition = load_edition("boar_brawl")
    project = tmp_path / "project"
    import shutil

    shutil.copytree(edition.skeleton_dir, project)
    reference = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    broken = replace_function(reference, "roll_dice", "def roll_dice(num_rolls, dice=six_sided):\n    return 7\n")
    (project / edition.submission).write_text(broken, encoding="utf-8")
    unlock_everything(project)
    monkeypatch.chdir(project)

    def ok(*argv: str) -> str:
        student.main(project, list(argv))
        return capsys.readouterr().out

    one = ok("-q", "01")  # -q 01: problem 1 alone, its first failed case
    assert "Problem 01" in one and "Problem 02" not in one and failed_cases(one) == 1
    every = ok("-q", "01", "-v")  # -v: every failed case, with its traceback ...
    assert failed_cases(every) > 1
    assert ok("-q", "02", "-v").count("→ ") == 0  # ... and no passing one
    score = ok("--score")
    assert "Phase 1" in score and "Phase 2" in score and "Total:" in score
    student.relock(load_student_edition(project), project, locking.load_progress(project), "01")
    capsys.readouterr()
    everything = ok()
    assert "Problem 02" in everything and messages.locked("01") in everything  # every unlocked problem only
    assert student.parse_args(["-q", "01", "-i"]).interactive  # -i: ok's help says the rest


SEEDS = Path("/work/shared/seeds")


def test_the_swine_swap_handout_has_what_its_seed_teaches():
    """The seed's *args example (code and output character for character), Problem 7's hints,
    Problem 12's suggestions and the experiments' baselines are all in the handout."""
    text = (load_edition("swine_swap").handout_dir / "handout.md").read_text(encoding="utf-8")
    example = """>>> def printed(g):
...     def print_and_return(*args):
...         result = g(*args)
...         print('Result:', result)
...         return result
...     return print_and_return
>>> printed_pow = printed(pow)
>>> printed_pow(2, 8)
Result: 256
256
>>> printed_abs = printed(abs)
>>> printed_abs(-10)
Result: 10
10
"""
    assert example in text
    seed = next(SEEDS.glob("001_*.txt"), None)
    if seed is not None:  # the seeds are beside the checkout where the kit is developed
        assert example in seed.read_text(encoding="utf-8")
    for needle in ("announce_lead_changes", "referenced before assignment", "no rule",  # Problem 7's hints
                   "always_roll(6)", "always_roll(8)", "always_roll(4)", "if True:",  # the experiments
                   "swap_strategy`: it is already", "Points past 100", "0, 1 or 2 dice", "`num_rolls` and `margin`"):
        assert needle in text, needle
