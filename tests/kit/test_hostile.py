"""Hostile submissions: the judge never trusts the student's process.

Student code runs in a child process; the parent compares tagged plain values with exact types and
kills the child on a deadline. Every test below builds a variant of the reference ``hog.py`` that
attacks the grader one way (an endless loop, an exit, a forged value, a patched library, a flood
of output, a memory hog ...) and checks, with exact scores, statuses and reasons, that the attack
costs only the problems it touches and never earns a point. Each test grades only the problems it
needs, so the whole file stays fast apart from the loops that must run into a deadline.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.core import messages
from graders.core.records import Report
from graders.courses import cli_messages
from graders.courses import messages as courses_messages
from graders.editions.cases import Case, load_problem_cases
from graders.editions.edition import Edition
from graders.sandboxing import isolation
from graders.sandboxing import messages as sandboxing_messages
from graders.scoring import messages as scoring_messages
from graders.scoring import reports
from graders.scoring.judge import DEBUG_PREFIX

from .conftest import (
    REFERENCE_RUNNER,
    WITHOUT_LANDLOCK,
    grade_on_gradescope,
    grade_source,
    problem,
    replace_function,
    scores,
    with_deadline,
)

# -- helpers -------------------------------------------------------------------------------------


def line_of(source: str, text: str) -> int:
    """The line number (from 1) of the only line of SOURCE whose stripped text is TEXT."""
    hits = [n for n, line in enumerate(source.split("\n"), 1) if line.strip() == text]
    assert len(hits) == 1, f"{text!r} is on lines {hits}"
    return hits[0]


def first_case(edition: Edition, number: int) -> Case:
    """The first case a problem runs: the one a failing stub's reason names."""
    return load_problem_cases(edition, number)[0]


def raised_reason(edition: Edition, number: int, error_type: str, message: str, line: int) -> str:
    error = {"type": error_type, "message": message, "line": line}
    return scoring_messages.case_failed(first_case(edition, number).name, messages.raised(error, "hog.py"))


def files_named(top: Path, pattern: str) -> list[Path]:
    """Files under TOP whose name matches PATTERN, walked without recursion and without following
    links: another test may leave a folder a thousand levels deep in /tmp at the same time."""
    import fnmatch

    found, stack = [], [str(top)]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            if fnmatch.fnmatch(entry.name, pattern):
                found.append(Path(entry.path))
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
            except OSError:
                pass
    return found


def child_pids() -> set[int]:
    """Live processes whose parent is this test process and that run the sandbox's child, and every
    process the fork server forked that still runs."""
    from graders.sandboxing import forkserver

    found = set(forkserver.forked_processes())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == os.getpid() and fields[0] != "Z" and b"child.py" in cmdline:
            found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether PID runs (a zombie waiting to be reaped counts as dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def gone_within(pid: int, seconds: float) -> bool:
    """Whether PID is dead, waiting up to SECONDS for a SIGKILL already sent to take effect."""
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def assert_untouched(report: Report, *numbers: int) -> None:
    """The reference functions of problems NUMBERS earned all their points in the hostile run."""
    for n in numbers:
        p = problem(report, n)
        assert (p.status, p.score, p.reason) == ("passed", p.max, ""), (n, p.status, p.reason)
        assert p.max > 0


# Reference bodies reused by variants that add something hostile around the right answer.
BOAR_BRAWL_BODY = """
    tens = opponent_score // 10 % 10
    ones = player_score % 10
    return max(3 * abs(tens - ones), 1)
"""

ROLL_DICE_TEMPLATE = """
def roll_dice(num_rolls, dice=six_sided):
    {before}
    total, sow_sad = 0, False
    while num_rolls > 0:
        outcome = dice()
        if outcome == 1:
            sow_sad = True
        total = total + outcome
        num_rolls = num_rolls - 1
    if sow_sad:
        return 1
    return total
"""

STUB_BOAR_BRAWL = """
def boar_brawl(player_score, opponent_score):
    return None
"""


# -- 1. endless loops ----------------------------------------------------------------------------

# The deadline of a case that spins until it is killed, where its length is not what the test looks
# at (the honest cases beside it take hundredths of a second): the manifest's 5 s would spin 5 s.
SPIN_DEADLINE = 1.5

ENDLESS_LOOPS = {
    "while_true_pass": """
        def roll_dice(num_rolls, dice=six_sided):
            while True:
                pass
        """,
    "swallows_base_exception": """
        def roll_dice(num_rolls, dice=six_sided):
            while True:
                try:
                    while True:
                        pass
                except BaseException:
                    pass
        """,
}


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize("variant", sorted(ENDLESS_LOOPS))
def test_endless_loop_times_out_and_spares_other_problems(edition, reference_source, variant):
    """Attack: roll_dice never returns, even swallowing every exception (KeyboardInterrupt, SystemExit).

    The parent's deadline does not ask the child to stop, it kills the child's process group, so
    catching BaseException changes nothing. Problem 1 fails at its first case with a timeout and
    runs no more cases; problem 2 (independent) keeps its points; problem 3, whose cases call
    roll_dice, runs its own cases, fails, and says to fix Problem 01 first.
    """
    edition = with_deadline(edition, SPIN_DEADLINE, [1, 3])
    source = replace_function(reference_source, "roll_dice", ENDLESS_LOOPS[variant])
    report = grade_source(source, edition, problems=[1, 2, 3])

    assert scores(report) == {1: 0, 2: 2, 3: 0}
    p1 = problem(report, 1)
    case = first_case(edition, 1)
    assert p1.status == "failed"
    assert p1.cases[0].status == "timeout"
    assert p1.cases[0].got == scoring_messages.still_running(SPIN_DEADLINE)
    assert p1.reason == scoring_messages.case_failed(case.name, scoring_messages.timed_out(case.timeout))
    assert {c.status for c in p1.cases[1:]} == {"not run"}
    assert len(p1.cases) == len(load_problem_cases(edition, 1))
    assert_untouched(report, 2)
    p3 = problem(report, 3)
    assert p3.status == "failed" and p3.hint == scoring_messages.dependency_hint([("01", "roll_dice")])
    assert p3.reason.startswith(p3.hint) and "timeout" in {c.status for c in p3.cases}
    assert child_pids() == set(), "a sandbox child outlived the grading run"


def processes_running(marker: str) -> list[int]:
    """Live processes of this machine whose command line holds MARKER (seen from the grader's side)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and alive(int(entry.name)):
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def settle(marker: str, seconds: float = 5.0) -> list[int]:
    """The processes holding MARKER still running after SECONDS (killed by the test afterwards)."""
    deadline = time.monotonic() + seconds
    while processes_running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = processes_running(marker)
    for pid in left:
        os.kill(pid, 9)  # a process this test started (through the grader), ended by its id
    return left


# A grandchild that outlives its parent shows itself by running `sleep MARKER` (a number no other
# process uses), which the grader's side can see in /proc under every isolation level.
FORKER = """
def roll_dice(num_rolls, dice=six_sided):
    import os
    if os.fork() == 0:
        {leave}
        os.execv("/usr/bin/sleep", ["sleep", "{marker}"])
    while True:
        pass
"""


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize("leave", ["pass", "os.setsid()", "os.setsid(); os.environ.clear()"])
def test_deadline_kills_a_forked_grandchild_even_one_that_leaves(edition, reference_source, leave):
    """Attack: roll_dice forks; the fork becomes `sleep` (after leaving the process group and the
    session, and clearing its environment, in some variants) and the parent loops forever.

    On the deadline every process of the child is killed: under namespaces the child's pid
    namespace ends with it; elsewhere the process group and the reaper (a subreaper that kills the
    orphans carrying the session's token) do it. Nothing the submission started outlives its grading.
    """
    policy = isolation.policy()
    if "environ" in leave and policy.level == isolation.LIMITS and not policy.root:
        pytest.skip("without namespaces or root, a process that clears its environment escapes the reaper "
                    "(the README says so for this level)")
    marker = f"{4000 + os.getpid() % 1000}.{time.monotonic_ns() % 10**6}"
    source = replace_function(reference_source, "roll_dice", FORKER.format(leave=leave, marker=marker))
    before = zombies()
    report = grade_source(source, with_deadline(edition, SPIN_DEADLINE, [1]), problems=[1])
    assert scores(report) == {1: 0}
    assert problem(report, 1).cases[0].status == "timeout"
    assert settle(marker) == [], "a process the submission started outlived its grading"
    assert zombies() - before == set(), "the killed child's processes were left as zombies of the grader"


def zombies() -> set[int]:
    """The grader's children that died and were never reaped (each holds a process id for good)."""
    from graders.sandboxing import reaper

    return {pid for pid in reaper._children() if (reaper.process_stat(pid) or ("?",))[0] == "Z"}


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_files_left_in_the_shared_tmp_are_removed_under_limits_as_root(edition, reference_source, monkeypatch):
    """Attack: without namespaces a child's /tmp and /dev/shm are the machine's: roll_dice leaves a
    file and a folder in each, on every call, until the disk fills.

    Guarantee: as root each child has a user id of its own, and when its session ends whatever
    that id left at the top of /tmp, /var/tmp and /dev/shm is deleted (nothing of anyone else's).
    """
    if os.geteuid() != 0:
        pytest.skip("only root gives each child a user id of its own")
    real = isolation.policy()
    limits = isolation.Policy(isolation.LIMITS, "", True, real.python, real.python_home, "forced by a test")
    monkeypatch.setattr(isolation, "policy", lambda: limits)
    marker = f"left-{os.getpid()}-{time.monotonic_ns()}"
    mine = Path("/tmp") / f"{marker}-grader"
    mine.write_text("the grader's own", encoding="utf-8")
    writer = f"""
    def roll_dice(num_rolls, dice=six_sided):
        import os
        for top in ("/tmp", "/dev/shm"):
            try:
                os.makedirs(top + "/{marker}-dir/inner", exist_ok=True)
                with open(top + "/{marker}-file", "w") as f:
                    f.write("x")
            except OSError:
                pass
        return 1
    """
    try:
        report = grade_source(replace_function(reference_source, "roll_dice", writer), edition, problems=[1])
        assert problem(report, 1).cases, report
        left = [p for top in ("/tmp", "/dev/shm") for p in Path(top).glob(f"{marker}-*")]
        assert left == [mine], left
    finally:
        mine.unlink()


# -- 2. ending the program inside a function -----------------------------------------------------

EXITS = {
    "sys_exit": ("import sys", "sys.exit(0)", "error", "SystemExit", "0"),
    "os_exit": ("import os", "os._exit(0)", "crashed", None, None),
    "keyboard_interrupt": ("pass", "raise KeyboardInterrupt", "error", "KeyboardInterrupt", ""),
}


@pytest.mark.parametrize("variant", sorted(EXITS))
def test_exit_inside_a_function_costs_only_that_problem(edition, reference_source, variant):
    """Attack: boar_brawl ends the program (sys.exit, os._exit) or fakes a Ctrl-C (KeyboardInterrupt).

    sys.exit and KeyboardInterrupt are caught in the child and reported as errors; os._exit kills
    the child, which the parent sees as a crash and replaces with a fresh child. Either way problem 2
    scores 0 with a reason saying what happened, and problem 1 in the same run keeps its points.
    """
    setup, statement, status, error_type, message = EXITS[variant]
    source = replace_function(reference_source, "boar_brawl", f"""
        def boar_brawl(player_score, opponent_score):
            {setup}
            {statement}
        """)
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 0}
    p2 = problem(report, 2)
    assert p2.status == "failed"
    assert p2.cases[0].status == status
    if status == "crashed":
        assert p2.reason == scoring_messages.case_failed(first_case(edition, 2).name, scoring_messages.crashed())
        assert {c.status for c in p2.cases[1:]} == {"not run"}
    else:
        assert p2.reason == raised_reason(edition, 2, error_type, message, line_of(source, statement))
        assert {c.status for c in p2.cases} == {"error"}
    assert not report.notes
    assert_untouched(report, 1)


# -- 3. ending or hanging the program while hog.py loads ----------------------------------------

TOP_LEVEL = {
    "sys_exit": ("import sys\nsys.exit()\n", "sys.exit()", sandboxing_messages.exited_while_loading("sys.exit", "")),
    "os_exit": ("import os\nos._exit(1)\n", "os._exit(1)", sandboxing_messages.skipped_statement("ended the program")),
    "while_true": ("while True:\n    pass\n", "while True:", sandboxing_messages.skipped_statement("never finished")),
}


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize("variant", sorted(TOP_LEVEL))
def test_top_level_exit_or_hang_is_skipped_and_reported(edition, reference_source, variant):
    """Attack: a statement after the functions ends (sys.exit, os._exit) or hangs the import.

    The child imports hog.py one top-level statement at a time, so the statement is skipped (the
    hang after the 10 s import deadline), grading carries on, the reference functions earn their
    points, and the one note names the statement's line.
    """
    statements, marker, wording = TOP_LEVEL[variant]
    source = reference_source.rstrip("\n") + "\n\n" + statements
    line = line_of(source, marker)
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 2}
    assert_untouched(report, 1, 2)
    assert len(report.notes) == 1, report.notes
    assert report.notes[0].startswith(f"hog.py line {line}: ")
    assert wording in report.notes[0]


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_hanging_statement_is_waited_out_once_a_grade(edition, reference_source, monkeypatch):
    """Attack: hog.py ends with a loop that never finishes, and every child of the grade (two for its
    own cases, one for each group of hidden cases that reach other problems) would wait out that
    statement's deadline again, each spinning the processor meanwhile.

    Guarantee: the first child to wait it out tells the grade's other children of the submission's
    statements, which leave it out from their start: one wait a grade, every problem still earns
    its points, and the one note names the line (a grade of the whole edition, two workers)."""
    from graders.sandboxing import sandbox

    waited: list[int] = []
    real = sandbox.Session._spawn_and_import

    def counted(self, budget_ends):
        outcome = real(self, budget_ends)
        if outcome is not None:
            waited.append(outcome[0])
        return outcome

    monkeypatch.setattr(sandbox.Session, "_spawn_and_import", counted)
    source = reference_source.rstrip("\n") + "\n\nwhile True:\n    pass\n"
    limits = sandbox.Limits(import_seconds=1.0)
    report = grade_source(source, edition, limits=limits, workers=2)
    assert report.total == report.max
    assert len(waited) == 1, waited
    line = line_of(source, "while True:")
    assert list(report.notes) == [sandboxing_messages.import_note(
        "hog.py", line, sandboxing_messages.skipped_statement("never finished"))]


def test_top_level_exit_between_functions_keeps_the_later_ones(edition, reference_source):
    """Attack: os._exit(1) before boar_brawl's def; the statements after it are still run."""
    source = reference_source.replace("\ndef boar_brawl(", "\nimport os\nos._exit(1)\n\n\ndef boar_brawl(", 1)
    line = line_of(source, "os._exit(1)")
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 2}
    assert list(report.notes) == [
        sandboxing_messages.import_note(
            "hog.py", line, sandboxing_messages.skipped_statement("ended the program")
        )
    ]


# -- 4. values that pretend to be right ----------------------------------------------------------

ALWAYS_EQUAL_METHODS = """
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __repr__(self):
        return "9"

    def __str__(self):
        return "9"

    def __hash__(self):
        return 9
"""

PRETENDERS = {
    # variant: (code defining boar_brawl, what the first step displays instead of 9)
    "always_equal_object": (
        "class Nine:" + ALWAYS_EQUAL_METHODS + "\n\ndef boar_brawl(player_score, opponent_score):\n    return Nine()",
        scoring_messages.object_value("Nine"),
    ),
    "always_equal_int_subclass": (
        "class Nine(int):" + ALWAYS_EQUAL_METHODS
        + "\n\ndef boar_brawl(player_score, opponent_score):\n    return Nine(0)",
        scoring_messages.object_value("Nine"),
    ),
    "float_for_int": (
        "def boar_brawl(player_score, opponent_score):\n    return 9.0",
        "9.0",
    ),
}


@pytest.mark.parametrize("variant", sorted(PRETENDERS))
def test_value_that_only_claims_to_be_right_scores_nothing(edition, reference_source, variant):
    """Attack: boar_brawl returns something that compares equal to 9, or prints as 9, but is not the int 9.

    The child sends only exact int/float/bool/str/None/tuple/list values; anything else is sent as
    a description. The parent compares what a session would display, so an always-equal object, an
    int subclass with a lying __eq__ and __repr__, and the float 9.0 all fail every case.
    """
    code, shown = PRETENDERS[variant]
    source = replace_function(reference_source, "boar_brawl", code)
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 0}
    p2 = problem(report, 2)
    assert p2.status == "failed"
    assert all(r.passed for r in p2.rules)
    assert p2.cases[0].got == shown
    assert p2.reason == scoring_messages.case_failed(
        first_case(edition, 2).name, scoring_messages.wrong_output("9", shown))
    assert p2.cases_passed == 0


def test_bool_where_an_int_is_expected_fails(edition, reference_source):
    """Attack: boar_brawl returns True (== 1 in Python) where the answer is the int 1."""
    source = replace_function(reference_source, "boar_brawl", """
        def boar_brawl(player_score, opponent_score):
            tens = opponent_score // 10 % 10
            ones = player_score % 10
            return max(3 * abs(tens - ones), True)
        """)
    report = grade_source(source, edition, problems=[2])

    p2 = problem(report, 2)
    assert (p2.status, p2.score) == ("failed", 0)
    # The first step, boar_brawl(21, 46), is 9 and passes; boar_brawl(45, 52) shows True, not 1.
    assert (p2.cases[0].step, p2.cases[0].expected, p2.cases[0].got) == (1, "1", "True")
    assert p2.reason == scoring_messages.case_failed(
        first_case(edition, 2).name, scoring_messages.wrong_output("1", "True"))


def test_play_returning_a_list_instead_of_a_tuple_fails(edition, reference_source):
    """Attack (or slip): play returns [score0, score1], which a lenient == against (a, b) might accept."""
    assert reference_source.count("    return score0, score1\n") == 1
    source = reference_source.replace("    return score0, score1\n", "    return [score0, score1]\n")
    report = grade_source(source, edition, problems=[5])

    p5 = problem(report, 5)
    case = first_case(edition, 5)
    assert (p5.status, p5.score) == ("failed", 0)
    assert (p5.cases[0].expected, p5.cases[0].got) == ("(100, 75)", "[100, 75]")
    assert p5.reason == scoring_messages.case_failed(case.name, scoring_messages.wrong_output("(100, 75)", "[100, 75]"))


# -- 5. patching the tools the grader might use --------------------------------------------------

PATCHES = {
    # variant: (top-level code, what the one import note says, or None for no note)
    "builtins_repr": ("""
        import builtins
        builtins.repr = lambda x: "9"
        """, None),
    "builtins_str": ("""
        import builtins
        builtins.str = lambda x="": "9"
        """, sandboxing_messages.skipped_statement("ended the program")),
    "json_dumps": ("""
        import json
        _forged = '{"op": "step", "value": {"t": "int", "v": 9}, "error": null, "output": ""}'
        json.dumps = lambda *args, **kwargs: _forged
        json.loads = lambda *args, **kwargs: {"op": "step", "value": {"t": "int", "v": 9}}
        """, None),
    "pytest": ("""
        import sys
        import sysconfig
        sys.path.append(sysconfig.get_paths()["purelib"])
        try:
            import _pytest.python
            import pytest
            pytest.main = lambda *args, **kwargs: 0
            _pytest.python.Function.runtest = lambda self: None
            pytest.fail = pytest.skip = lambda *args, **kwargs: None
        except Exception:
            pass
        """, None),
}


@pytest.mark.parametrize("variant", sorted(PATCHES))
def test_monkeypatching_earns_nothing_for_a_stub(edition, reference_source, variant):
    """Attack: a stub boar_brawl plus top-level patches of repr, str, json.dumps/loads or pytest itself.

    The patches land in the child only: it kept its own references to json and never uses repr or
    str of a student value, and the parent, which compares, runs no student code. A patch that
    breaks the child itself (str) is skipped like any statement that ends the program. The stub
    earns no case of problem 2, and roll_dice (reference) keeps its points despite the patches.
    """
    code, note = PATCHES[variant]
    patch = textwrap.dedent(code).strip("\n")
    source = replace_function(reference_source, "boar_brawl", STUB_BOAR_BRAWL) + "\n" + patch + "\n"
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 0}
    if note is None:
        assert not report.notes
    else:
        assert list(report.notes) == [sandboxing_messages.import_note(
            "hog.py", line_of(source, patch.split("\n")[-1]), note)]
    p2 = problem(report, 2)
    assert p2.status == "failed"
    assert p2.cases_passed == 0
    assert p2.reason == scoring_messages.case_failed(
        first_case(edition, 2).name, scoring_messages.wrong_output("9", ""))
    assert_untouched(report, 1)


def test_forged_replies_from_the_child_earn_nothing_for_a_stub(edition, reference_source):
    """Attack: the stub's hog.py rewrites the child's own encoder (``__main__.encode``) to report 9 for everything.

    The child is not trusted, so it may say anything; it just never sees the expected output, which
    stays in the parent. The forged 9 passes the one step whose answer is 9 and fails the next.
    """
    patch = "import __main__\n__main__.encode = lambda value, depth=0: {'t': 'int', 'v': 9}\n"
    source = replace_function(reference_source, "boar_brawl", STUB_BOAR_BRAWL) + "\n" + patch
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 0, 2: 0}  # roll_dice's right values are forged into 9s too
    p2 = problem(report, 2)
    assert p2.status == "failed"
    assert (p2.cases[0].step, p2.cases[0].expected, p2.cases[0].got) == (1, "1", "9")
    assert p2.reason == scoring_messages.case_failed(
        first_case(edition, 2).name, scoring_messages.wrong_output("1", "9"))


KIT_READER = """
def boar_brawl(player_score, opponent_score):
    import os
    {find_kit}
    for folder in folders:
        for name in ("q02.toml", "q02.generated.toml"):
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    lines = f.read().split("\\n")
            except OSError:
                continue
            # The numbers are read out of the text, never written into it: the shape rule stays quiet.
            asked = ""
            for line in lines:
                head, found, args = asked.partition(">>> boar_brawl(")
                if found and not head:
                    first, _, rest = args.partition(", ")
                    second, _, _ = rest.partition(")")
                    if int(first) == player_score and int(second) == opponent_score:
                        return int(line)
                asked = line
    return 1
"""


def test_reading_the_kit_by_relative_path_earns_nothing(edition, reference_source):
    """Attack: a stub boar_brawl that looks its answers up in ../../tests/editions/boar_brawl/q02*.toml.

    The child runs in an empty private folder, so paths relative to it lead nowhere near the kit.
    Without the kit the stub only answers 1, right by chance for a few cases, never for all.
    """
    find_kit = ('folders = ("../../tests/editions/boar_brawl", "../tests/editions/boar_brawl", '
                '"tests/editions/boar_brawl", "/tests/editions/boar_brawl")')
    source = replace_function(reference_source, "boar_brawl", KIT_READER.format(find_kit=find_kit))
    report = grade_source(source, edition, problems=[2])

    p2 = problem(report, 2)
    assert (p2.status, p2.score) == ("failed", 0)
    assert all(r.passed for r in p2.rules)
    assert p2.reason == scoring_messages.case_failed(
        first_case(edition, 2).name, scoring_messages.wrong_output("9", "1"))


def test_reading_the_kit_through_the_graders_path_earns_nothing(edition, reference_source):
    """Attack: a stub boar_brawl finds the kit from the child's own file (``__main__.__file__`` is
    graders/sandboxing/child.py; ``sys.orig_argv`` names graders/sandboxing/probes.py too) and looks its answers up in
    tests/editions/boar_brawl/q02.toml and q02.generated.toml. A stub must not earn points this way.
    """
    find_kit = (
        "import __main__\n"
        "    kit = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__main__.__file__))))\n"
        "    folders = (os.path.join(kit, 'tests', 'editions', 'boar_brawl'),)"
    )
    source = replace_function(reference_source, "boar_brawl", KIT_READER.format(find_kit=find_kit))
    report = grade_source(source, edition, problems=[2])

    p2 = problem(report, 2)
    assert all(r.passed for r in p2.rules)  # the lookup breaks no shape rule: only the cases can stop it
    assert (p2.status, p2.score) == ("failed", 0), f"a stub that reads the kit's files scored {p2.score}"


# -- 6. syntax errors ----------------------------------------------------------------------------


def test_syntax_error_in_one_function_costs_only_that_function(edition, reference_source):
    """Attack (or slip): boar_brawl does not parse. The block is replaced by a stub; the rest is graded."""
    source = replace_function(reference_source, "boar_brawl", """
        def boar_brawl(player_score, opponent_score):
            return (
        """)
    line = line_of(source, "return (")
    report = grade_source(source, edition, problems=[1, 2, 3])

    assert scores(report) == {1: 2, 2: 0, 3: 2}  # take_turn's cases call the kit's boar_brawl
    assert_untouched(report, 1)
    assert_untouched(report, 3)
    assert len(report.notes) == 1
    note = report.notes[0]
    assert note.startswith(f"hog.py line {line}: SyntaxError: ")
    assert "boar_brawl was left out" in note
    p2 = problem(report, 2)
    assert p2.status == "failed"
    assert not p2.cases  # a function left out for a syntax error is not run at all
    assert p2.reason == scoring_messages.removed_for_syntax("boar_brawl", "hog.py", line)
    assert not problem(report, 3).hint


def test_a_file_that_is_not_python_scores_zero_with_a_note(edition):
    """Attack (or slip): hog.py is not Python at all. Every problem scores 0; nothing raises."""
    report = grade_source("this is not python at all ((((", edition)

    assert set(scores(report).values()) == {0}
    assert len(report.problems) == len(edition.problems)
    for p in report.problems:
        assert not p.cases
        assert (p.status, p.reason) == ("failed", messages.unreadable_submission("hog.py")), p.number
    assert len(report.notes) == 1
    assert report.notes[0].startswith("hog.py line 1: SyntaxError: ")
    assert report.notes[0].endswith("Nothing could be graded; fix this line first")
    assert report.checkpoint is not None and report.checkpoint.score == 0
    assert "Nothing could be graded" in reports.render_text(report)


# -- 7. an import that fails ---------------------------------------------------------------------


def test_missing_module_is_reported_and_later_functions_still_work(edition, reference_source):
    """Attack (or slip): ``import numpy_does_not_exist`` on line 1; the functions after it still load."""
    source = "import numpy_does_not_exist\n" + reference_source
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 2}
    assert_untouched(report, 1, 2)
    assert list(report.notes) == [
        sandboxing_messages.import_note("hog.py", 1, "ModuleNotFoundError: No module named 'numpy_does_not_exist'")
    ]


# -- 8. floods of output -------------------------------------------------------------------------


@pytest.mark.slow
def test_ten_megabytes_of_output_is_capped_and_the_case_completes(edition, reference_source):
    """Attack: boar_brawl prints 10 MB (10,000 lines of 1,000 characters) and then returns the right value.

    The child keeps 64 KiB of output and marks it cut, so every case finishes quickly (failed, as
    the extra output is wrong), nothing times out or crashes, and the reply stays small.
    """
    source = replace_function(
        reference_source, "boar_brawl",
        "def boar_brawl(player_score, opponent_score):\n"
        "    for _ in range(10_000):\n"
        "        print('x' * 1000)" + BOAR_BRAWL_BODY,
    )
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 0}
    p2 = problem(report, 2)
    assert {c.status for c in p2.cases} == {"failed"}
    assert len(p2.cases) == len(load_problem_cases(edition, 2))
    got = p2.cases[0].got
    assert got.startswith("x" * 1000 + "\n")
    assert got.endswith("9\n" + scoring_messages.output_cut())
    assert len(got) < 70 * 1024
    assert p2.reason.startswith(first_case(edition, 2).name + ": output line 1 differs: expected 9 but got xxx")
    assert_untouched(report, 1)


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_printing_forever_times_out(edition, reference_source):
    """Attack: boar_brawl prints in an endless loop. Output is capped, the deadline ends it."""
    source = replace_function(reference_source, "boar_brawl", """
        def boar_brawl(player_score, opponent_score):
            while True:
                print("all work and no play makes Jack a dull boy")
        """)
    edition = with_deadline(edition, SPIN_DEADLINE, [2])
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 0}
    p2 = problem(report, 2)
    case = first_case(edition, 2)
    assert p2.cases[0].status == "timeout"
    assert {c.status for c in p2.cases[1:]} == {"not run"}
    assert p2.reason == scoring_messages.case_failed(case.name, scoring_messages.timed_out(case.timeout))
    assert child_pids() == set()


# -- 9. memory -----------------------------------------------------------------------------------


def test_unbounded_memory_fails_only_that_problem(edition, reference_source):
    """Attack: make_averaged allocates far past any limit (10,000 blocks of 10 MB: 100 GB). The
    child's address-space limit stops it.

    Each case ends in MemoryError (or, if the child cannot even report it, a crash); the grader
    and the other problems in the same run are untouched. What is measured is memory, never time,
    so a loaded machine cannot change the outcome: ``bytes(n)`` takes zeroed pages from the system
    without writing them (unlike ``bytearray(n)``, which fills every page), so the limit is reached
    by allocation alone, in about a hundred calls; the loop is bounded, so a limit that failed to
    hold would end the case with a wrong answer, not a hang; and the problems graded here get a
    deadline of a minute per case, a bound on a hang rather than a measure.
    """
    source = replace_function(reference_source, "make_averaged", """
        def make_averaged(original_function, samples_count=1000):
            x = []
            for _ in range(10**4):
                x.append(bytes(10**7))
            return len(x)
        """)
    report = grade_source(source, with_deadline(edition, 60.0, [1, 2, 8]), problems=[1, 2, 8])

    assert scores(report) == {1: 2, 2: 2, 8: 0}
    assert_untouched(report, 1, 2)
    assert not report.notes
    p8 = problem(report, 8)
    assert p8.status == "failed"
    first = p8.cases[0]
    assert first.status in ("error", "crashed")
    if first.status == "error":
        line = line_of(source, "x.append(bytes(10**7))")
        assert p8.reason == raised_reason(edition, 8, "MemoryError", "", line)
    else:
        assert p8.reason == scoring_messages.case_failed(first.name, scoring_messages.crashed())
    assert p8.cases_passed == 0


# -- 10. DEBUG lines -----------------------------------------------------------------------------


def test_debug_lines_never_make_a_case_fail(edition, reference_source):
    """roll_dice prints "DEBUG: rolling" before returning the right value: the lines are kept apart."""
    roll_dice = ROLL_DICE_TEMPLATE.format(before='print("DEBUG: rolling")')
    source = replace_function(reference_source, "roll_dice", roll_dice)
    report = grade_source(source, edition, problems=[1])

    assert_untouched(report, 1)
    debug = problem(report, 1).cases[0].debug
    assert debug and set(debug) == {DEBUG_PREFIX + " rolling"}


def test_debug_lines_never_count_against_the_output_cap(edition, reference_source):
    """roll_dice prints 3,000 DEBUG lines on each call, far past the cap of 2,000 printed lines, and
    returns the right value: every case passes, and a budget of their own keeps the DEBUG lines."""
    before = 'for _k in range(3000): print("DEBUG:", _k)'
    source = replace_function(reference_source, "roll_dice", ROLL_DICE_TEMPLATE.format(before=before))
    report = grade_source(source, edition, problems=[1])

    assert_untouched(report, 1)
    debug = problem(report, 1).cases[0].debug
    steps = len(first_case(edition, 1).steps)  # each step has a budget of its own
    assert 0 < len(debug) <= 2000 * steps < 3000 * steps and debug[0] == DEBUG_PREFIX + " 0"


@pytest.mark.slow  # several seconds of processor time: the full run, not the edit loop
def test_a_stub_finds_no_reference_of_its_own_problem(edition, reference_source):
    """Attack: take_turn searches every object the garbage collector knows for another function
    named take_turn (the reference's, which hidden cases of other problems run with) and hands the
    work to it. The children that run take_turn's cases hold no reference take_turn, so it finds none."""
    stub = """
        def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
            import gc
            for f in gc.get_objects():
                if type(f) is type(take_turn) and f.__name__ == 'take_turn' and f is not take_turn:
                    return f(num_rolls, player_score, opponent_score, dice)
            return 0
    """
    report = grade_source(replace_function(reference_source, "take_turn", stub), edition, problems=[3, 4, 5])
    p3 = problem(report, 3)
    assert (p3.status, p3.score) == ("failed", 0)
    assert all(not c.passed for c in p3.cases if c.hidden), "a hidden case passed with the reference's take_turn"
    assert problem(report, 4).cases and all(c.passed for c in problem(report, 4).cases if c.hidden)


@pytest.mark.timeout(300)
def test_no_reference_leaks_through_the_shared_tmp_under_limits(edition, reference_source, monkeypatch):
    """Attack: without namespaces children share /tmp. In a hidden case of sus_update the kit's
    boar_brawl is in the module (the reference stands in for other problems): sus_update writes its
    code to /tmp for everyone, and the student's boar_brawl runs whatever it finds there.

    Guarantee: where children share /tmp, the children that hold reference code run only once every
    other child of the submission has finished its cases, so boar_brawl never finds it.
    """
    if os.geteuid() != 0:
        pytest.skip("only root gives each child a user id of its own")
    real = isolation.policy()
    limits = isolation.Policy(isolation.LIMITS, "", True, real.python, real.python_home, "forced by a test")
    monkeypatch.setattr(isolation, "policy", lambda: limits)
    leak = f"/tmp/leak-{os.getpid()}-{time.monotonic_ns()}"
    reader = f"""
    def boar_brawl(player_score, opponent_score):
        import marshal, types
        try:
            with open({leak!r}, "rb") as f:
                code = marshal.loads(f.read())
        except OSError:
            return 0
        return types.FunctionType(code, globals())(player_score, opponent_score)
    """
    writer = f"""

_sus_update = sus_update


def sus_update(num_rolls, player_score, opponent_score, dice=six_sided):
    import marshal, os
    try:
        with open({leak!r}, "wb") as f:
            f.write(marshal.dumps(boar_brawl.__code__))
        os.chmod({leak!r}, 0o666)
    except OSError:
        pass
    return _sus_update(num_rolls, player_score, opponent_score, dice)
"""
    try:
        report = grade_source(replace_function(reference_source, "boar_brawl", reader) + writer, edition,
                              problems=[2, 4], workers=2)  # children that could run side by side
        p2 = problem(report, 2)
        assert p2.cases and not any(c.passed for c in p2.cases), "boar_brawl ran the reference from /tmp"
    finally:
        Path(leak).unlink(missing_ok=True)


def test_other_printed_lines_make_a_case_fail(edition, reference_source):
    """roll_dice prints "rolling" (no DEBUG: prefix) before returning the right value: the output is wrong."""
    roll_dice = ROLL_DICE_TEMPLATE.format(before='print("rolling")')
    source = replace_function(reference_source, "roll_dice", roll_dice)
    report = grade_source(source, edition, problems=[1])

    p1 = problem(report, 1)
    case = first_case(edition, 1)
    assert (p1.status, p1.score) == ("failed", 0)
    assert (p1.cases[0].expected, p1.cases[0].got) == ("10", "rolling\n10")
    assert p1.reason == scoring_messages.case_failed(case.name, scoring_messages.wrong_output("10", "rolling\n10"))
    assert "printed 1 extra line(s)" in p1.reason and "DEBUG:" in p1.reason


# -- 11. a hostile submission still gives a report -----------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_hostile_submission_is_graded_and_rendered(edition, reference_source):
    """Attack: many at once, graded over every problem: grade() returns a report and it renders.

    hog.py exits at load, has a syntax error in boar_brawl, an always-equal take_turn, an always_roll
    that calls os._exit, and patches json. Only the reference functions left earn points.
    """
    source = replace_function(reference_source, "take_turn", "class Same:" + ALWAYS_EQUAL_METHODS + """

def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
    return Same()
""")
    source = replace_function(source, "always_roll", "def always_roll(n):\n    import os\n    os._exit(3)")
    source = replace_function(source, "boar_brawl", "def boar_brawl(player_score, opponent_score):\n    return (")
    source = "import sys\nsys.exit('bye')\nimport json\njson.dumps = None\n" + source
    report = grade_source(source, edition)

    assert isinstance(report, Report)
    # roll_dice, make_averaged, max_scoring_num_rolls and boar_strategy are the reference's (the
    # last calls the kit's boar_brawl in place of the one a syntax error removed); everything else
    # fails, on its own cases, and those whose cases call a failing problem say to fix it first.
    assert scores(report) == {0: 0, 1: 2, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 2, 9: 2, 10: 2, 11: 0, 12: 0}
    assert report.total == 8
    assert problem(report, 6).cases[0].status == "crashed"
    assert [p.number for p in report.problems if p.hint] == [3, 4, 5, 7, 11]
    assert len(report.notes) == 3, report.notes
    assert any(note.startswith(f"hog.py line {line_of(source, 'return (')}: SyntaxError") for note in report.notes)
    assert "hog.py line 2: " + sandboxing_messages.exited_while_loading("sys.exit", "bye") in report.notes
    # average_win_rate's default argument calls always_roll, so that def ends the program on load.
    assert any(sandboxing_messages.skipped_statement("ended the program") in note for note in report.notes)
    text = reports.render_text(report)
    assert text.splitlines()[-1] == f"Total: {report.total}/{report.max}"
    for p in report.problems:
        assert f"Problem {p.label}" in text
    assert json.loads(reports.render_json(report))["total"] == report.total


def test_a_submission_cannot_replace_the_probes(edition, reference_source):
    """Attack: hog.py defines its own check_strategy (printing 'valid') and show_strategy (printing a
    forged table), hoping `from hog import *` puts them in the cases' place. The kit's probes win."""
    source = reference_source + (
        "\n\ndef check_strategy(strategy, goal=100):\n    print('valid')\n"
        "\n\ndef show_strategy(strategy, goal=100):\n    print('forged')\n"
    )
    source = replace_function(source, "final_strategy", """
        def final_strategy(score, opponent_score):
            return 11
        """)
    report = grade_source(source, edition, problems=[12])
    p12 = problem(report, 12)
    assert p12.status == "failed"
    assert "strategy(0, 0) returned 11" in p12.cases[0].got


# -- 7. a hostile machine: secrets, integrity and availability around the judge --------------------
#
# These guarantees come from the isolation the machine gives (graders.sandboxing.isolation): under namespaces
# they hold for every route, as root and as an ordinary user; under limits alone some cannot, and
# the README says which. A test that needs namespaces says so when it is skipped; CI installs
# bubblewrap, so there it never is.


def needs_namespaces() -> None:
    if isolation.policy().level != isolation.NAMESPACES:
        pytest.skip("this guarantee needs namespaces (bubblewrap); this machine gives "
                    + isolation.policy().summary)


SEARCHER = """
FOUND = []  # every q02*.toml the search could read, searched once per process


def _search():
    import os
    places = [os.getcwd()]
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            places += ["/proc/%s/cwd" % pid, "/proc/%s/root" % pid]
            for name in ("environ", "cmdline"):
                try:
                    with open("/proc/%s/%s" % (pid, name), "rb") as f:
                        places += [p.decode() for p in f.read().split(b"\\0") if p.startswith(b"/")]
                except (OSError, ValueError):
                    pass
    places += [os.path.dirname(p) for p in (os.__file__,) + tuple(os.environ.values()) if p.startswith("/")]
    places += ["/tmp", "/root", "/home", "/work", "/"]
    seen, files = set(), 0
    # The system's own libraries, headers and documentation hold no copy of the kit's cases, and
    # walking them (a browser's files among them) is what made the search run out of time on a
    # busy machine instead of finishing and finding nothing.
    SKIPPED = ("/proc/self", "/sys", "/usr/share", "/usr/include", "/usr/lib/x86_64-linux-gnu", "/usr/lib/chromium")
    for top in places:
        for here, dirs, names in os.walk(top):
            # (no deeper than 40 levels: a class's hand-in may nest a folder past Python's recursion
            # limit, which os.walk would follow to a RecursionError; no kit keeps its cases that deep)
            if here in seen or files > 200000 or here.startswith(SKIPPED) or here.count("/") > 40:
                dirs[:] = []
                continue
            seen.add(here)
            files += len(names)
            for name in names:
                if name.startswith("q02") and name.endswith(".toml"):
                    try:
                        FOUND.append(open(os.path.join(here, name), encoding="utf-8").read())
                    except OSError:
                        pass
    FOUND.append("")


def boar_brawl(player_score, opponent_score):
    if not FOUND:
        _search()
    wanted = ">>> boar_brawl(%d, %d)\\n" % (player_score, opponent_score)
    for text in FOUND:
        _, found, after = text.partition(wanted)
        if found:
            return int(after.split("\\n")[0])
    return 1
"""


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("route", ["single", "class", "gradescope"])
def test_a_submission_that_searches_the_machine_for_the_cases_finds_none(edition, reference_source, route,
                                                                          tmp_path, monkeypatch):
    """Attack: boar_brawl looks its answers up in any copy of the kit's case files it can find: the
    grader's /proc (cwd, root, cmdline, environ), the interpreter's folder, the environment's paths
    and a walk of the whole file system, which also finds other copies of the kit on the machine.

    Guarantee: under namespaces the child sees no kit at all, from every route and working folder:
    the stub answers 1 and scores 0 on Problem 02. (Its walk gets a minute per case: on a busy
    machine "still running" would score 0 too, but only an answer shows the search found nothing.)
    """
    needs_namespaces()
    edition = with_deadline(edition, 60.0, [2])
    source = replace_function(reference_source, "boar_brawl", SEARCHER)
    if route == "single":  # the same search, run here where nothing isolates it, finds the kit's cases
        namespace: dict = {}
        exec(compile(SEARCHER, "searcher", "exec"), namespace)  # trusted: this test's own code
        assert namespace["boar_brawl"](21, 46) == 9, "the attack should work where nothing isolates it"
    monkeypatch.chdir(edition.root if route == "single" else tmp_path)
    if route == "single":
        p2 = problem(grade_source(source, edition, problems=[2]), 2)
        assert (p2.score, p2.cases[0].got) == (0, "1")
        return
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "mallory.py").write_text(source, encoding="utf-8")
    if route == "class":
        from graders.courses.classroom import grade_class

        (record,) = [r.to_dict() for r in grade_class(folder, edition, tmp_path / "out", jobs=1)]
    else:
        record = grade_on_gradescope(source, edition, tmp_path, monkeypatch)
    p2 = next(p for p in record["problems"] if p["number"] == 2)
    assert (p2["score"], p2["cases"][0]["got"]) == (0, "1")


PEEKER = """
def boar_brawl(player_score, opponent_score):
    import os
    seen = []
    for path in ("/etc/shadow", "/etc/passwd", "/root", "/home", "/proc/1/environ", "/tmp"):
        try:
            seen.append(path + ":" + ("dir %d" % len(os.listdir(path)) if os.path.isdir(path)
                                      else "file %d" % len(open(path, "rb").read())))
        except OSError:
            pass
    return " ".join(seen)
"""


def test_a_child_sees_no_secret_of_the_machine(edition, reference_source):
    """Attack: boar_brawl reports what it can read: /etc/shadow (the child of a root grader once ran
    as root), /etc/passwd, /root, /home, another process's environment, /tmp (where classmates'
    work folders and the runner live).

    Guarantee: under namespaces none of them exists for the child, and its private /tmp is empty.
    """
    needs_namespaces()
    source = replace_function(reference_source, "boar_brawl", PEEKER)
    got = problem(grade_source(source, edition, problems=[2]), 2).cases[0].got
    seen = dict(re.findall(r"(/\S+):(\w+ \d+)", got))
    assert not {"/etc/shadow", "/etc/passwd", "/home"} & set(seen), got
    assert seen["/tmp"] == "dir 0", got
    assert seen.get("/root", "dir 0") in ("dir 0", "dir 1"), got  # only the interpreter's way in
    # pid 1 is the sandbox's own first process, whose environment is the child's cleared one
    assert seen.get("/proc/1/environ", "file 0").startswith("file "), got
    assert int(seen.get("/proc/1/environ", "file 0").split()[1]) < 400, got


PACKAGE_PEEKER = """
def boar_brawl(player_score, opponent_score):
    import os
    seen = 0
    for path in {paths!r}:
        try:
            seen += len(os.listdir(path))
        except OSError:
            pass
    return seen
"""


def test_a_child_finds_no_installed_package(edition, reference_source):
    """Attack: boar_brawl lists the interpreter's site-packages, the system's dist-packages and
    /usr/local, where a copy of the kit (or anything else installed) would be.

    Guarantee: under namespaces every one of them is empty for the child.
    """
    needs_namespaces()
    home = isolation.policy().python_home
    paths = isolation.installed_packages([home, "/usr"])
    paths += [] if isolation.within(home, "/usr/local") else ["/usr/local"]
    assert any(os.listdir(p) for p in paths if os.path.isdir(p))  # the grader itself sees packages
    source = replace_function(reference_source, "boar_brawl", PACKAGE_PEEKER.format(paths=paths))
    assert problem(grade_source(source, edition, problems=[2]), 2).cases[0].got == "0"


# Found anything of a classmate's (a submission, another child's work folder) or of the output
# folder (a record, the grades)? Then every boar_brawl answer is off by one, and the row shows it.
COPIER = """
import os as _os
_FOUND = []
for _here, _dirs, _names in _os.walk("/"):
    if _here.startswith(("/proc", "/sys", "/dev", "/usr")) or _here.count("/") > 8:
        _dirs[:] = []
        continue
    _FOUND += [_os.path.join(_here, _n) for _n in _names
               if _n in ("alice.py", "hog.py", "alice.json", "grades.csv", "records.jsonl")]
_FOUND = [_p for _p in _FOUND if _p != "/work/hog.py"]
if _FOUND:
    _honest = boar_brawl
    def boar_brawl(player_score, opponent_score):
        return _honest(player_score, opponent_score) + 1
"""


WRITER = """
import os as _os
for _top in ("/", "/tmp", "/dev/shm", "/work", "/root", "/hogkit", "{kit}", "{elsewhere}"):
    for _here, _dirs, _names in _os.walk(_top):
        if _here.startswith(("/proc", "/sys", "/dev/")) and _here != "/dev/shm":
            _dirs[:] = []
            continue
        try:
            with open(_os.path.join(_here, "{marker}"), "w") as _f:
                _f.write("owned")
        except OSError:
            pass
        if _here.count("/") > 3:
            _dirs[:] = []
"""


# What the test tools keep in the kit's folder: other tests running beside this one (pytest-xdist's
# workers) write there while a class is graded (mypy's cache, screenshots, bytecode, a virtual
# environment's). A file a submission writes anywhere is found by its marker instead.
TOOL_FOLDERS = {".git", ".venv", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".artifacts", "__pycache__"}


def kit_files(root: Path) -> dict[Path, int]:
    """The modification time of every file of the kit under ROOT, tool folders aside."""
    found = {}
    for folder, folders, files in os.walk(root):
        folders[:] = [name for name in folders if name not in TOOL_FOLDERS]
        for name in files:
            path = Path(folder) / name
            try:
                if path.is_file():
                    found[path] = path.stat().st_mtime_ns
            except OSError:  # removed between the listing and the look
                continue
    return found


HOARDER = """
    def roll_dice(num_rolls, dice=six_sided):
        import os, time
        for _ in range(5):
            if os.fork() == 0:
                hoard = bytearray(400 * 1024 * 1024)
                for k in range(0, len(hoard), 4096):
                    hoard[k] = 1
                time.sleep(60)
        time.sleep(60)
    """


def test_processes_that_hold_memory_together_are_stopped_for_memory(edition, reference_source):
    """Attack: roll_dice starts five processes that each hold 400 MB, under the limit of one process
    (1 GB) but twice it together, and waits.

    Guarantee: the memory of all the child's processes is watched together: the case is stopped with
    status memory (not left to its deadline), costs that problem alone, and the next case runs.
    """
    # (a deadline far past what filling the memory takes, so that only the watch on memory can end
    # the case, however loaded the machine is)
    report = grade_source(replace_function(reference_source, "roll_dice", HOARDER), with_deadline(edition, 60),
                          problems=[1, 2])
    first = problem(report, 1).cases[0]
    assert first.status == "memory", first
    assert problem(report, 2).score == problem(report, 2).max


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_hostile_class_grades_to_the_end_and_harms_no_one(edition, reference_source, skeleton_source,
                                                             tmp_path):
    """Attack: a class of hostile entries graded together with honest ones: links (to the solution,
    to a classmate's folder, to /etc/shadow), a FIFO, a device (as root), an id longer than a file
    name may be, an id that is not UTF-8, a submission that kills every process it can (the grader
    and classmates included), one that writes a file into every folder it can reach (the kit, the
    class folder, the output folder, /tmp, /dev/shm), one that fork-bombs, one whose processes hold
    memory together, one that looks for classmates' submissions and the output folder's records,
    one whose error message clears the screen.

    Guarantee: one row per entry, the honest students' full marks, nothing written outside the
    output folder, nothing left running, the same rows on a rerun.

    (Every case has SPIN_DEADLINE seconds here rather than the manifest's 5 or 10: the fork bomb
    and the hoarder spin until the deadline of each problem they reach, on a rerun too, and the
    honest students' slowest case takes some hundredths of a second.)
    """
    import stat as stat_module

    from graders.courses.classroom import grade_class

    needs_namespaces()
    edition = with_deadline(edition, SPIN_DEADLINE)
    marker = f"pwned-{os.getpid()}-{time.monotonic_ns()}"
    folder = tmp_path / "class"
    out = tmp_path / "out"
    folder.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (folder / "alice.py").write_text(reference_source, encoding="utf-8")
    (folder / "bob").mkdir()
    (folder / "bob" / "hog.py").write_text(reference_source, encoding="utf-8")
    (folder / "link_to_solution").symlink_to(edition.solution_dir)
    (folder / "link_to_bob").symlink_to(folder / "bob")
    (folder / "shadow.py").symlink_to("/etc/shadow")
    (folder / "zero.py").symlink_to("/dev/zero")
    os.mkfifo(folder / "fifo.py")
    if os.geteuid() == 0:
        os.mknod(folder / "device.py", stat_module.S_IFCHR | 0o644, os.makedev(1, 5))
    (folder / ("x" * 240 + ".py")).write_text(reference_source, encoding="utf-8")
    (folder / os.fsdecode(b"caf\xe9.py")).write_text(reference_source, encoding="utf-8")
    (folder / "killer.py").write_text(reference_source + "\nimport os, signal\nfor _pid in range(2, 4 << 20):\n"
                                      "    try:\n        os.kill(_pid, signal.SIGKILL)\n    except OSError:\n"
                                      "        pass\n", encoding="utf-8")
    (folder / "writer.py").write_text(reference_source + WRITER.format(kit=edition.root, marker=marker,
                                                                        elsewhere=elsewhere), encoding="utf-8")
    (folder / "forker.py").write_text(replace_function(reference_source, "roll_dice", """
        def roll_dice(num_rolls, dice=six_sided):
            import os
            while True:
                try:
                    os.fork()
                except OSError:
                    pass
        """), encoding="utf-8")
    (folder / "hoarder.py").write_text(replace_function(reference_source, "roll_dice", HOARDER), encoding="utf-8")
    (folder / "copier.py").write_text(reference_source + COPIER, encoding="utf-8")
    (folder / "screen.py").write_text(replace_function(skeleton_source, "boar_brawl", """
        def boar_brawl(player_score, opponent_score):
            raise ValueError("\\x1b[2J\\x1b[H Total: 24/24 \\udcff")
        """), encoding="utf-8")
    before = kit_files(edition.root)
    records = [r.to_dict() for r in grade_class(folder, edition, out, jobs=2)]
    rows = {r["student"]: r for r in records}
    for honest in ("alice", "bob", "x" * 240, "caf\ufffd"):
        assert (rows[honest]["status"], rows[honest]["total"]) == ("graded", 24), honest
    for link in ("link_to_solution", "link_to_bob", "shadow", "zero"):
        assert (rows[link]["status"], rows[link]["total"]) == ("link", 0), link
    assert rows["fifo"]["status"] == "not a file"
    if os.geteuid() == 0:
        assert rows["device"]["status"] == "not a file"
    assert rows["writer"]["total"] == 24 and rows["killer"]["total"] == 24
    assert rows["copier"]["total"] == 24, "a classmate's submission or record was within the copier's reach"
    assert rows["forker"]["status"] == "graded" and rows["hoarder"]["status"] == "graded"
    hoarded = next(p for p in rows["hoarder"]["problems"] if p["number"] == 1)["cases"][0]
    # Memory, or (where the fork bomb beside it leaves its processes too little of the processor to
    # fill their memory before the case's deadline) time: its case fails either way, and the grade
    # goes on. That the memory of all its processes together is watched: the test after this one.
    assert hoarded["status"] in ("memory", "timeout"), hoarded
    text = (out / "feedback" / f"{rows['screen']['file_id']}.md").read_text(encoding="utf-8")
    assert "\x1b" not in text and "\\x1b" in text  # written out (and Markdown-escaped), never sent raw
    assert len(list((out / "records").glob("*.json.gz"))) == len(records) - 0
    written = [p for top in (edition.root, folder, out, elsewhere, Path("/tmp"), Path("/dev/shm"))
               for p in files_named(top, marker)]
    assert written == [], written
    after = kit_files(edition.root)
    assert {p for p in after if before.get(p) != after[p]} == set()
    assert child_pids() == set()  # no sandbox child of this process is left
    again = {r.student: (r.status, r.total) for r in grade_class(folder, edition, out, jobs=2, force=True)}
    assert again == {k: (r["status"], r["total"]) for k, r in rows.items()}


def test_a_childs_runner_and_probes_are_its_own_only_for_one_case(edition, reference_source):
    """Attack: at import, hog.py rewrites the runner file it was started from (so that the next child,
    started after a time-out, would obey it) and swaps the code of the check_strategy probe for one
    that says 'valid' of anything, so an illegal final_strategy would pass; then roll_dice loops
    forever, which forces that restart.

    Guarantee: the runner is read-only (namespaces) or copied afresh before every start, and the
    probes are put back as they were loaded before every case: the later problems are graded by the
    kit's own code, and the illegal final_strategy fails.
    """
    attack = """
import __main__, gc
try:
    with open(__main__.__file__, "a") as _f:
        _f.write("\\nimport os\\nos._exit(0)\\n")
except OSError:
    pass
for _f in gc.get_objects():
    if getattr(_f, "__name__", "") == "check_strategy" and hasattr(_f, "__code__"):
        _f.__code__ = (lambda strategy, goal=100: print("valid")).__code__
"""
    source = replace_function(reference_source, "roll_dice", """
        def roll_dice(num_rolls, dice=six_sided):
            while True:
                pass
        """)
    source = replace_function(source, "final_strategy", """
        def final_strategy(score, opponent_score):
            return 11
        """) + attack
    report = grade_source(source, with_deadline(edition, SPIN_DEADLINE, [1]), problems=[1, 2, 12])
    assert problem(report, 1).cases[0].status == "timeout"
    assert_untouched(report, 2)
    p12 = problem(report, 12)
    assert p12.status == "failed" and "returned 11" in p12.cases[0].got


FORGER = """
import __main__ as _main
_real_send = _main.send
def _send(fd, message):
    if message.get("op") == "step":
        {forgery}
    return _real_send(fd, message)
_main.send = _send
"""


@pytest.mark.parametrize("variant", ["huge", "nested", "fields"])
def test_forged_frames_cost_only_the_forger(edition, reference_source, variant):
    """Attack: hog.py replaces the child's own sender: every reply becomes 2 MB of output, or JSON
    nested 100,000 deep (which once raised RecursionError in the grader), or a frame whose fields
    have the wrong types.

    Guarantee: the parent caps frames and their depth and decodes every field to its expected type:
    the forger's cases fail, its row is graded (never a failure of the kit), and nothing big is kept.
    """
    forgery = {
        "huge": 'message = dict(message, output="x" * (2 << 20))',
        "nested": 'return _main._write(fd, (lambda d: len(d).to_bytes(4, "big") + d)(b"[" * 100000 + b"]" * 100000))',
        "fields": 'message = {"op": "step", "seq": message.get("seq"), "value": {"t": "int", "v": "9"}, '
                  '"error": {"type": ["x"], "line": "12"}, "output": 7}',
    }[variant]
    source = reference_source + FORGER.format(forgery=forgery)
    report = grade_source(source, edition, problems=[2])
    p2 = problem(report, 2)
    assert p2.status == "failed" and p2.score == 0
    assert len(json.dumps(report.as_dict())) < 2 << 20


def test_announcements_of_statements_buy_no_time(edition, reference_source):
    """Attack: a top-level statement finds the child's reply pipe and forges announcements of new
    statements, again and again, so that each would restart the per-statement clock (it once held a
    grade 180 s past every deadline), then loops forever.

    Guarantee: an announcement that does not move forward is ignored and none moves past the whole
    load's budget: the statement is skipped as one that never finished, and the rest is graded.
    """
    from graders.sandboxing.sandbox import Limits

    attack = """
import __main__ as _main, sys as _sys, time as _time
_frame = _sys._getframe()
while _frame is not None and "out_fd" not in _frame.f_locals:
    _frame = _frame.f_back
for _ in range(1200):
    _main.send(_frame.f_locals["out_fd"], {"op": "stmt", "i": 0, "line": 1})
    _time.sleep(0.05)
while True:
    pass
"""
    source = reference_source.replace("\ndef roll_dice(", attack + "\ndef roll_dice(", 1)
    # The forgeries go on for a minute, twice the whole load's budget (the default, 30 s): were the
    # clock restarted by them, the budget would run out and nothing would load. The statement's own
    # 2 s and the budget leave room for a loaded machine to load every other statement.
    report = grade_source(source, edition, problems=[2], limits=Limits(import_seconds=2.0))
    assert_untouched(report, 2)
    assert any(sandboxing_messages.skipped_statement("never finished") in note for note in report.notes), report.notes


def test_a_library_left_in_a_cache_never_runs_inside_the_grader(tmp_path, monkeypatch):
    """Attack: a submission (or anyone) leaves a shared library where the grader once cached its
    compiled contest kernel, hoping the grader loads it on the next run.

    Guarantee: the grader never loads a library from disk that it did not just build itself, in a
    folder only it can write; nothing in the cache is ever read for it.
    """
    from graders.games import analysis

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    planted = tmp_path / "hogkit"
    planted.mkdir()
    for name in ("kernel.so", "kernel-0123456789abcdef.so"):
        (planted / name).write_bytes(b"\x7fELF not a real library")
    analysis.compiled_kernel.cache_clear()
    try:
        kernel = analysis.compiled_kernel()
    finally:
        analysis.compiled_kernel.cache_clear()
    assert kernel is not None
    loaded = str(kernel._name)  # type: ignore[attr-defined]
    assert "hogkit-kernel-" in loaded and not loaded.startswith(str(tmp_path))
    assert not Path(loaded).exists()  # built, loaded and deleted at once


LEAKER = """
def boar_brawl(player_score, opponent_score):
    import sys
    frame = sys._getframe(1)
    raise ValueError("I was called as boar_brawl(%r, %r) from %r" % (player_score, opponent_score,
                                                                   frame.f_code.co_consts))
"""


@pytest.mark.slow
def test_an_error_carrying_a_hidden_case_never_reaches_the_students_feedback(edition, reference_source, tmp_path):
    """Attack: boar_brawl raises an error that repeats the line it was called from (its arguments and
    the calling code's constants), hoping the feedback prints the hidden cases' inputs.

    Guarantee: a hidden case reaches the student's feedback and Gradescope only by what it is about;
    its inputs, its error and its traceback stay in the instructor's record.
    """
    from graders.courses.classroom import grade_class

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "mallory.py").write_text(replace_function(reference_source, "boar_brawl", LEAKER), encoding="utf-8")
    grade_class(folder, edition, tmp_path / "out", jobs=1)
    shown = (tmp_path / "out" / "feedback" / "mallory.md").read_text(encoding="utf-8")
    shown += (tmp_path / "out" / "gradescope" / "mallory" / "results.json").read_text(encoding="utf-8")
    for case in load_problem_cases(edition, 2):
        if case.hidden:
            for step in case.steps:
                assert step.source.split("(", 1)[1] not in shown, step.source


def test_a_load_that_drips_statements_is_stopped_by_its_budget(edition, reference_source):
    """Attack: hog.py is a long run of top-level statements that each take just under the limit for
    one statement, so that a load would go on far past any deadline (it once stretched a grade to 55 s).

    Guarantee: the whole load has one budget, which no statement resets: once it is spent, the
    submission counts as one that could not be loaded, with a note saying so.
    """
    from graders.sandboxing.sandbox import Limits

    drip = "import time\n" + "time.sleep(0.8)\n" * 40
    report = grade_source(drip + reference_source, edition, problems=[2],
                          limits=Limits(import_seconds=1.0, import_budget=4.0))
    assert messages.could_not_load("hog.py") in report.notes
    assert problem(report, 2).score == 0


def test_a_link_inside_a_zip_is_no_submission(edition, reference_source, tmp_path):
    """Attack: a zip whose hog.py is a symbolic link (to the solution, say), which unpacking would
    recreate on the grader's disk.

    Guarantee: nothing handed in is unpacked, and a member that is a link is never taken for the file.
    """
    import stat as stat_module
    import zipfile

    from graders.scoring.submissions import read_entry

    archive = tmp_path / "mallory.zip"
    with zipfile.ZipFile(archive, "w") as z:
        info = zipfile.ZipInfo("project/hog.py")
        info.external_attr = (stat_module.S_IFLNK | 0o777) << 16
        z.writestr(info, str(edition.solution_dir / "hog.py"))
    source, status, reason = read_entry(archive, "hog.py")
    assert (source, status) == (None, "unreadable") and "holds no hog.py" in reason


def test_a_message_made_of_escape_sequences_is_shown_not_obeyed(edition, reference_source):
    """Attack: boar_brawl raises an error whose message clears the terminal and draws a full-marks
    report, and prints the same to standard output.

    Guarantee: control characters from student code are written out (``\\x1b``) in every report,
    never sent to the terminal as they are.
    """
    escape = "\\x1b[2J\\x1b[H  Total: 24/24\\r"
    source = replace_function(reference_source, "boar_brawl", f"""
        def boar_brawl(player_score, opponent_score):
            print("DEBUG: {escape}")
            print("{escape}")
            raise ValueError("{escape}")
        """)
    report = grade_source(source, edition, problems=[2])
    for text in (reports.render_text(report, verbose=True), reports.render_json(report)):
        assert "\x1b" not in text and "\r" not in text.replace("\r\n", "\n")
    assert "\\x1b[2J" in reports.render_text(report, verbose=True)


def test_a_wrong_answer_key_stops_its_own_question_only(edition):
    """Attack (or slip): an unlock question whose answer key is wrong at its first line, checked by
    the pytest plugin. Its remaining replies once reached the next three questions.

    Guarantee: the plugin closes the question's steps when it stops, so the next question starts clean.
    """
    from graders.editions.cases import load_questions
    from graders.runner import pytest_plugin
    from graders.sandboxing.sandbox import StepReply

    closed: list[bool] = []

    class FakeSession:
        submission = Path("hog.py")

        def steps(self, sources, setup, deadline):
            try:
                for _ in sources:
                    yield StepReply("ok", value=41, value_kind="plain")
            finally:
                closed.append(True)

    question = next(q for n in range(1, 12) for q in load_questions(edition, n)
                    if len(q.steps) > 1 and any(s.expected for s in q.steps))
    with pytest.raises(AssertionError):
        pytest_plugin.check_answers(FakeSession(), question, edition.setup)  # type: ignore[arg-type]
    assert closed == [True]


def test_similarity_report_shows_hostile_code_as_text_and_survives_a_monster(tmp_path: Path) -> None:
    """Attack: a student's code, shown in the TA's similarity report, carries ``</script>``, an
    ``<img onerror>`` and a formula for the CSV, and another's function nests an expression 1,500
    deep so that walking it overflows the stack. The page escapes everything and runs no script,
    the CSV starts no formula, and the monster's function is left out while everyone else is compared."""
    import ast as _ast

    from graders.courses import similarity
    from graders.editions.edition import load_edition

    edition = load_edition("boar_brawl")
    skeleton = (edition.skeleton_dir / "hog.py").read_text(encoding="utf-8")
    hostile = replace_function(skeleton, "num_factors", textwrap.dedent('''
        def num_factors(n):
            tag = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"
            kept = [k for k in range(n, 0, -1) if n % k == 0 and tag]
            return len(kept) + 0 * len(tag)
        '''))
    for name in ("=cmd|' -C calc'!A0", "bob"):
        (tmp_path / f"{name}.py").write_text(hostile, encoding="utf-8")
    monster = replace_function(skeleton, "boar_strategy",
                               "def boar_strategy(score, opponent_score, threshold=11, num_rolls=6):\n"
                               "    return " + " + ".join(["1"] * max(1500, 2 * sys.getrecursionlimit())) + "\n")
    (tmp_path / "eve.py").write_text(monster, encoding="utf-8")
    report = similarity.compare(tmp_path, edition)
    page = similarity.render_html(report)
    assert "<script" not in page and "<img" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "Content-Security-Policy" in page
    assert "\n1,'=cmd|" in similarity.render_csv(report)
    assert [(p.a, p.b) for p in report.pairs] == [("=cmd|' -C calc'!A0", "bob")]
    assert _ast.parse(monster)  # the monster is Python: it would be graded, and is compared as far as it can be
    assert "boar_strategy" not in {u.name for _, u in similarity.holder("eve", monster, edition).units}


# -- one hand-in never stops, nor steers, the class ------------------------------------------------


COURSE_TOML = 'edition = "boar_brawl"\ntimezone = "UTC"\n\n[deadlines]\ndue = 2030-01-01T00:00:00\n'


def class_routes(folder: Path, out: Path, edition_args: tuple[str, ...] = ("--edition", "boar_brawl"),
                 routes: tuple[str, ...] = ("grade", "report", "contest")) -> dict[str, int]:
    """Run each of ROUTES (``hogkit grade --out``, ``hogkit report``, ``hogkit contest``) on the class
    FOLDER into its own folder under OUT; each route's exit status."""
    from graders.cli import main as hogkit

    return {route: hogkit([route, str(folder), "--out", str(out / route), *edition_args,
                           *(["--jobs", "2"] if route != "report" else [])])
            for route in routes}


def assert_every_output(out: Path, students: set[str],
                        routes: tuple[str, ...] = ("grade", "report", "contest")) -> None:
    """Every output of each route in ROUTES is written under OUT, and each of STUDENTS has its row
    in grades.csv and leaderboard.csv."""
    import csv as csv_module

    expected = {"grade": ("grades.csv", "summary.md", "records.jsonl", "histogram.png", "histogram.svg"),
                "report": ("ta-report.md", "wrong-answers.csv", "unlock.csv", "test-runs.csv", "runs.png", "runs.svg"),
                "contest": ("leaderboard.csv", "contest.html")}
    for route in routes:
        for name in expected[route]:
            assert (out / route / name).is_file(), (route, name)
    if "grade" in routes:
        rows = list(csv_module.DictReader(open(out / "grade" / "grades.csv", encoding="utf-8")))
        assert students <= {r["student"] for r in rows}, rows
    if "contest" in routes:
        text = (out / "contest" / "leaderboard.csv").read_text(encoding="utf-8")
        assert all(s in text for s in students), text
    if "report" in routes:
        assert "students" in (out / "report" / "ta-report.md").read_text(encoding="utf-8")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("method", ["deflate", "lzma"])
def test_a_zip_whose_stream_is_corrupt_is_that_students_row(edition, reference_source, tmp_path, method,
                                                             monkeypatch):
    """Attack: a hand-in zip whose hog.py has a corrupt deflate or LZMA stream; reading it raises
    the decompressor's own error (``zlib.error``, ``LZMAError``), which zipfile does not wrap.

    Guarantee: through grade --out, report, contest and Gradescope's route, that zip is its own
    row (unreadable, with the decompressor's reason); every other student is graded and every
    output is written.
    """
    import zipfile

    from graders.courses import gradescope
    from graders.scoring.submissions import discover

    from .oddhandins import corrupt_zip

    kind = zipfile.ZIP_DEFLATED if method == "deflate" else zipfile.ZIP_LZMA
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(reference_source, encoding="utf-8")
    corrupt_zip(folder / "mallory.zip", reference_source, kind)
    rows = {e.student: (e.status, e.reason) for e in discover(folder, "hog.py")}
    assert rows["alice"][0] == "ok" and rows["mallory"][0] == "unreadable"
    assert "mallory.zip" in rows["mallory"][1]
    assert class_routes(folder, tmp_path / "out") == {"grade": 0, "report": 0, "contest": 0}
    assert_every_output(tmp_path / "out", {"alice", "mallory"})
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    corrupt_zip(root / "submission" / "hog.zip", reference_source, kind)
    monkeypatch.setenv("AUTOGRADER_ROOT", str(root))
    assert gradescope.main(["--edition", edition.name]) == 0
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert results["score"] == 0 and "hog.zip" in json.dumps(results)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_folder_nested_past_the_recursion_limit_is_that_students_row(edition, reference_source, tmp_path,
                                                                        monkeypatch):
    """Attack: a hand-in folder nested 1,100 deep (an unzipped hand-in recreates it), hog.py at the
    bottom; a recursive walk (os.walk on Python 3.11, Path.rglob) ends in RecursionError.

    Guarantee: the walks are iterative and capped in depth: that folder is its own row (no hog.py
    within reach), through grade --out, report, contest, grade --course and Gradescope's route;
    every other student is graded and every output is written.
    """
    from .oddhandins import deep_folder, remove_deep

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(reference_source, encoding="utf-8")
    deep_folder(folder / "mallory", source=reference_source)
    try:
        nested_routes(edition, folder, tmp_path, monkeypatch, reference_source)
    finally:
        remove_deep(folder / "mallory")
        remove_deep(tmp_path / "autograder" / "submission")


def nested_routes(edition: Edition, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                  reference_source: str) -> None:
    """The routes of the test above, on FOLDER (which holds the deep hand-in)."""
    from graders.cli import main as hogkit
    from graders.courses import gradescope
    from graders.scoring.submissions import discover

    from .oddhandins import deep_folder

    rows = {e.student: e.status for e in discover(folder, "hog.py")}
    assert rows == {"alice": "ok", "mallory": "missing"}
    assert class_routes(folder, tmp_path / "out", ()) == {"grade": 0, "report": 0, "contest": 0}
    assert_every_output(tmp_path / "out", {"alice", "mallory"})
    course = tmp_path / "course"
    course.mkdir()
    (course / "course.toml").write_text(COURSE_TOML, encoding="utf-8")
    (course / "roster.csv").write_text("id,name,email\nalice,Alice,alice@uni.edu\n", encoding="utf-8")
    assert hogkit(["grade", str(folder), "--out", str(tmp_path / "course-out"), "--course", str(course),
                   "--trust-file-times"]) == 0
    assert "mallory" in (tmp_path / "course-out" / "grades.csv").read_text(encoding="utf-8")
    root = tmp_path / "autograder"
    root.mkdir()
    deep_folder(root / "submission", source=reference_source)
    monkeypatch.setenv("AUTOGRADER_ROOT", str(root))
    assert gradescope.main(["--edition", edition.name]) == 0
    assert json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))["score"] == 0


@pytest.mark.timeout(300)
@pytest.mark.parametrize("manifest", [pytest.param("proc_mem", marks=pytest.mark.slow), "mode_000"])
def test_a_manifest_that_cannot_be_read_is_never_opened_through_a_link(reference_source, tmp_path, manifest):
    """Attack: a project folder whose tests/edition.json is a link to /proc/self/mem (reading it
    fails with EIO) or a file of mode 000 (EACCES, for a grader that is not root); the class's
    edition is looked up in every folder without --edition, and the OSError ended the run.

    Guarantee: a manifest is read without following a link (nor waiting on a FIFO); one that
    cannot be read declares nothing, and grade --out, report and contest grade the class.
    """
    from graders.editions.edition import declared_edition
    from graders.scoring.submissions import declared_by_class

    from .oddhandins import project_folder

    folder = tmp_path / "class"
    folder.mkdir()
    project_folder(folder / "alice", reference_source, "boar_brawl")
    mallory = project_folder(folder / "mallory", reference_source)
    target = mallory / "tests" / "edition.json"
    if manifest == "proc_mem":
        target.symlink_to("/proc/self/mem")
    else:
        target.write_text('{"name": "more_boar"}', encoding="utf-8")
        target.chmod(0)
    if manifest == "mode_000" and os.geteuid() == 0:  # root reads any mode: look as root without that power
        assert declared_without_dac_override(folder) == "boar_brawl"
        return
    assert declared_by_class(folder) == "boar_brawl"
    assert declared_edition(mallory) is None  # the one project folder given, as `hogkit grade FOLDER` reads it
    assert class_routes(folder, tmp_path / "out", ()) == {"grade": 0, "report": 0, "contest": 0}
    assert_every_output(tmp_path / "out", {"alice", "mallory"})


def declared_without_dac_override(folder: Path) -> str:
    """What :func:`graders.scoring.submissions.declared_by_class` says of FOLDER in a process of root's that
    cannot read past a file's mode (``capsh --drop=cap_dac_override,cap_dac_read_search``)."""
    import shutil as shutil_module
    import subprocess
    import sys

    if shutil_module.which("capsh") is None:
        pytest.skip("capsh is needed to drop root's power to read any file")
    code = ("import sys; from pathlib import Path; from graders.scoring.submissions import declared_by_class; "
            "print(declared_by_class(Path(sys.argv[1])))")
    command = f"{sys.executable} -c '{code}' {folder}"
    done = subprocess.run(["capsh", "--drop=cap_dac_override,cap_dac_read_search", "--", "-c", command],
                          capture_output=True, text=True, timeout=120, cwd=Path(__file__).parents[2])
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.timeout(300)
def test_one_folder_declaring_another_edition_steers_no_one(reference_source, tmp_path, capsys):
    """Attack: without --edition (the README's usage), one project folder declares more_boar while
    the class is Boar Brawl's; the most common declaration won, and a declaration by one folder
    among bare files decided the edition for everyone (honest students 4/23, the attacker 23/23).

    Guarantee: the class's edition is taken from the class only when every entry agrees; otherwise
    grade --out, report and contest refuse in one line naming the folders that disagree, and
    nothing is graded. With --edition the class is graded as named.
    """
    from graders.core.errors import InputError
    from graders.scoring.submissions import declared_by_class

    from .oddhandins import project_folder

    folder = tmp_path / "class"
    folder.mkdir()
    for honest in ("alice", "bob", "carol"):
        project_folder(folder / honest, reference_source, "boar_brawl")
    project_folder(folder / "mallory", reference_source, "more_boar")
    with pytest.raises(InputError) as raised:
        declared_by_class(folder)
    assert str(raised.value) == scoring_messages.class_editions_disagree({"boar_brawl": ["alice", "bob", "carol"],
                                                                          "more_boar": ["mallory"]})
    capsys.readouterr()
    assert class_routes(folder, tmp_path / "out", ()) == {"grade": 2, "report": 2, "contest": 2}
    said = capsys.readouterr().err.strip().split("\n")
    assert said == [f"hogkit: {raised.value}"] * 3
    assert not (tmp_path / "out" / "grade" / "grades.csv").exists()
    for honest in ("alice", "bob", "carol"):  # bare files among them: the one declaration still decides nothing
        shutil.rmtree(folder / honest)
        (folder / f"{honest}.py").write_text(reference_source, encoding="utf-8")
    with pytest.raises(InputError, match="mallory"):
        declared_by_class(folder)
    shutil.rmtree(folder / "mallory")
    project_folder(folder / "mallory", reference_source, "boar_brawl")
    assert declared_by_class(folder) == "boar_brawl"
    export = tmp_path / "export" / "assignment_1_export"  # an export's hand-ins are its submission folders
    for number, name in ((1, "boar_brawl"), (2, "boar_brawl"), (3, "more_boar")):
        project_folder(export / f"submission_{number}", reference_source, name)
    (export / "submission_metadata.yml").write_text("---\n", encoding="utf-8")
    capsys.readouterr()
    assert class_routes(tmp_path / "export", tmp_path / "export-out", (), ("report",)) == {"report": 2}
    assert "more_boar: submission_3" in capsys.readouterr().err


@pytest.mark.timeout(300)
def test_a_forged_number_in_an_activity_log_is_clamped(edition, reference_source, tmp_path):
    """Attack: an activity log whose chain is intact but whose numbers are forged (``"tries":
    10**400`` on a real unlock prompt, which no float holds): the report's median raised
    OverflowError and hogkit report ended for everyone.

    Guarantee: numbers read from a log are clamped to what a term of work can hold; the report
    is written with every student, the forger's counts within the clamp.
    """
    from graders.courses.tareport import prompt_infos
    from graders.runner import activity

    from .oddhandins import forged_log, project_folder

    first = prompt_infos(edition)[0]
    folder = tmp_path / "class"
    folder.mkdir()
    project_folder(folder / "alice", reference_source)
    forged_log(project_folder(folder / "mallory", reference_source), 10**400, first.problem, first.question,
               first.prompt)
    forged_log(project_folder(folder / "trudy", reference_source), -10**400, first.problem, first.question,
               first.prompt)
    read = activity.read_activity(folder / "mallory")
    assert read.status == "ok" and read.unlocks[0].tries == activity.MOST_COUNT
    assert read.tests[0].cases == activity.MOST_COUNT
    assert activity.read_activity(folder / "trudy").unlocks[0].tries == 0
    assert class_routes(folder, tmp_path / "out", routes=("report",)) == {"report": 0}
    assert_every_output(tmp_path / "out", set(), routes=("report",))
    text = (tmp_path / "out" / "report" / "ta-report.md").read_text(encoding="utf-8")
    assert f"{activity.MOST_COUNT}" in text.replace(",", "")


@pytest.mark.timeout(300)
def test_a_backdated_hand_in_gets_no_time_it_did_not_prove(reference_source, tmp_path, capsys):
    """Attack: with --course and no times.csv, a hand-in's time was its file's modification time,
    which unzip, cp -p and tar restore from the student's own archive: a late hand-in backdated
    before the deadline escaped the late penalty, and nothing said the times came from files.

    Guarantee: such a class is refused in one line naming the hand-ins, before anything is graded;
    with --trust-file-times it is graded and course-notes.txt, grades.csv's reason column and each
    student's feedback say the times came from files.
    """
    from graders.cli import main as hogkit

    folder = tmp_path / "class"
    folder.mkdir()
    for student in ("alice", "mallory"):
        (folder / f"{student}.py").write_text(reference_source, encoding="utf-8")
    (folder / "carol.py").write_bytes(b"\x7fELF\x00\x01")  # cannot be graded: its time counts for nothing
    os.utime(folder / "mallory.py", (0, 86400.0 * 365))  # 1971: well before any deadline
    course = tmp_path / "course"
    course.mkdir()
    (course / "course.toml").write_text(COURSE_TOML.replace("2030", "2024") + '\n[late]\npolicy = "none"\n',
                                        encoding="utf-8")
    (course / "roster.csv").write_text("id,name,email\nalice,A,a@uni.edu\nmallory,M,m@uni.edu\n", encoding="utf-8")
    out = tmp_path / "out"
    capsys.readouterr()
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(course)]) == 2
    said = capsys.readouterr().err.strip().split("\n")[-1]
    assert said == "hogkit: " + courses_messages.course_file_times_refused(["alice", "mallory"])
    assert not (out / "grades.csv").exists() and not (out / "records").exists()
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(course), "--trust-file-times"]) == 0
    notes = (out / "course-notes.txt").read_text(encoding="utf-8")
    assert courses_messages.course_file_times_trusted(["alice", "mallory"]) in notes
    rows = {row["student"]: row for row in csv.DictReader(open(out / "grades.csv", encoding="utf-8"))}
    for student in ("alice", "mallory"):
        assert courses_messages.TIMES_FROM_FILES in rows[student]["reason"], rows[student]
        assert courses_messages.TIMES_FROM_FILES in (out / "feedback" / f"{student}.md").read_text(encoding="utf-8")
    assert hogkit(["grade", str(folder), "--out", str(out), "--trust-file-times"]) == 2
    assert capsys.readouterr().err.strip().endswith(cli_messages.trust_file_times_needs_course())


CHUNK_READER = '''
def take_turn_test():
    with open(__file__, encoding="utf-8") as f:
        text = f.read()
    at = text.find("def final_strategy(")
    if at < 0:
        at = text.find("def take_turn(")
    chunk = text[at:at + 90]
    raise type(chunk, (Exception,), {})()
'''


def test_a_student_test_never_reads_the_reference_nor_names_what_it_read(tmp_path, monkeypatch):
    """Attack: Pig's take_turn_test, which runs on the kit's take_turn, reads the file of the module
    it runs in (today the whole reference) and raises a class named after the next 90 characters,
    hoping the feedback quotes the exception's type name: a chunk of final_strategy per hand-in.

    Guarantee: the run's module holds none of the reference beyond the functions the test needs,
    and no route that shows feedback (the text report, a class's feedback/ID.md, Gradescope's
    visible test) quotes the name of an exception class the student made.
    """
    from graders.courses.classroom import grade_class
    from graders.editions.edition import load_edition

    pig = load_edition("pig")
    reference = (pig.solution_dir / pig.submission).read_text(encoding="utf-8")
    skeleton = (pig.skeleton_dir / pig.submission).read_text(encoding="utf-8")
    source = replace_function(skeleton, "take_turn_test", CHUNK_READER)
    secret = reference[reference.index("def final_strategy("):][:90]
    report = grade_source(source, pig, [3])
    text = reports.render_text(report, verbose=True)
    assert scoring_messages.AN_EXCEPTION_OF_THEIR_OWN in text
    assert "def take_turn(plan" not in text  # the reference's own line (the student's code may quote its name)
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "mallory.py").write_text(source, encoding="utf-8")
    grade_class(folder, pig, tmp_path / "out", jobs=1)
    shown = text + (tmp_path / "out" / "feedback" / "mallory.md").read_text(encoding="utf-8")
    (tmp_path / "gs").mkdir()
    record = grade_on_gradescope(source, pig, tmp_path / "gs", monkeypatch)
    shown += json.dumps(record) + (tmp_path / "gs" / "results" / "results.json").read_text(encoding="utf-8")
    assert scoring_messages.AN_EXCEPTION_OF_THEIR_OWN in shown
    for piece in (secret[:40], secret[40:], "def take_turn(plan"):
        assert piece not in shown and json.dumps(piece)[1:-1] not in shown, piece


# -- what a hand-in's text can do in the files staff open: one writer per format -------------------

FORMULA_ID = "=HYPERLINK(9)"  # a student id (a folder's name) a spreadsheet would run
HOSTILE_MESSAGE = ('<img src="http://beacon.invalid/b.png"> [log in](http://evil.invalid) ``</code>`` '
                   "![x](http://beacon.invalid/c.png) \u202e")
HOSTILE_ANSWERS = ['=HYPERLINK("http://evil.invalid","click")', "``</code><img src=http://beacon.invalid/a.png>``",
                   "[log in](http://evil.invalid)", "@SUM(1+1)", "tab\u202eevil"]
MATH_NAME = "$\\fo{o$"  # matplotlib's mathtext cannot parse it


def hostile_source(edition: Edition) -> str:
    """The skeleton whose first function raises an error with HOSTILE_MESSAGE (every route quotes it)."""
    skeleton = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    first = edition.problems[1].functions[0]
    return replace_function(skeleton, first, f"""
        def {first}(*args, **kwargs):
            raise ValueError({HOSTILE_MESSAGE!r})
        """)


@pytest.fixture(scope="module")
def hostile_class(tmp_path_factory: pytest.TempPathFactory, edition) -> dict[str, Path]:
    """A class whose only student is named like a formula, hands in code raising HOSTILE_MESSAGE and
    typed HOSTILE_ANSWERS at the unlock questions; graded plainly, with a course, and reported on."""
    import shutil

    from graders.cli import main as hogkit
    from graders.courses.tareport import prompt_infos
    from graders.runner import activity

    root = tmp_path_factory.mktemp("hostile")
    project = root / "class" / FORMULA_ID
    project.mkdir(parents=True)
    (project / edition.submission).write_text(hostile_source(edition), encoding="utf-8")
    for p in prompt_infos(edition)[:2]:
        activity.unlock_attempt(project, p.problem, p.question, p.prompt, HOSTILE_ANSWERS, 6, True)
    assert hogkit(["grade", str(root / "class"), "--out", str(root / "plain"), "--edition", edition.name]) == 0
    course = root / "course"
    course.mkdir()
    (course / "course.toml").write_text('timezone = "UTC"\n[deadlines]\ndue = 2024-02-07T23:59:00\n', encoding="utf-8")
    (course / "roster.csv").write_text(f'id,name,email\n"{FORMULA_ID}",+cmd|x,-2+3@uni.edu\n', encoding="utf-8")
    (root / "class" / "times.csv").write_text(f'entry,time,student\n"{FORMULA_ID}",2024-02-01 10:00:00,'
                                              f'"{FORMULA_ID}"\n', encoding="utf-8")
    shutil.copytree(root / "plain", root / "course-out")  # the records are kept: nothing graded twice
    assert hogkit(["grade", str(root / "class"), "--out", str(root / "course-out"), "--edition", edition.name,
                   "--course", str(course)]) == 0
    assert hogkit(["report", str(root / "class"), "--out", str(root / "report"), "--edition", edition.name]) == 0
    return {"plain": root / "plain", "course": root / "course-out", "report": root / "report"}


def csv_cells(path: Path) -> list[str]:
    import csv
    import io

    return [cell for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8"))) for cell in row]


def runs_as_formula(cell: str) -> bool:
    if cell[:1] == "-":
        try:
            float(cell)
        except ValueError:
            return True
        return False
    return cell[:1] in ("=", "+", "@", "\t", "\r")


def preview(markdown: str) -> str:
    """MARKDOWN as a CommonMark preview with tables shows it (raw HTML allowed, as in most previews)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").render(markdown)


def test_no_cell_of_any_csv_runs_as_a_formula(hostile_class, edition):
    """Attack: a student named ``=HYPERLINK(9)`` (a folder's name), roster cells starting ``+`` and
    ``-``, and unlock answers typed as ``=HYPERLINK(…)`` and ``@SUM(…)`` at ``python3 ok -u``.
    They started cells of grades.csv, handins.csv, wrong-answers.csv and unlock.csv (and of the
    contest's leaderboard.csv, below): a spreadsheet opening them runs the formula.

    Guarantee: every CSV the kit writes goes through one writer, which writes such a cell with a
    leading apostrophe; the text stays readable.
    """
    files = [hostile_class["plain"] / "grades.csv", hostile_class["course"] / "handins.csv",
             hostile_class["course"] / "grades.csv", hostile_class["course"] / "gradescope-scores.csv",
             hostile_class["course"] / "canvas-scores.csv", hostile_class["report"] / "wrong-answers.csv",
             hostile_class["report"] / "unlock.csv", hostile_class["report"] / "test-runs.csv"]
    for path in files:
        cells = csv_cells(path)
        assert cells and not [c for c in cells if runs_as_formula(c)], path
    assert "'" + FORMULA_ID in csv_cells(hostile_class["plain"] / "grades.csv")
    assert "'" + HOSTILE_ANSWERS[0] in csv_cells(hostile_class["report"] / "wrong-answers.csv")


def test_no_markdown_file_loads_an_image_or_shows_a_link(hostile_class, edition):
    """Attack: an exception message holding ``<img src=…>`` (a beacon), ``[log in](…)`` (phishing),
    ``![x](…)`` and a double backtick, and unlock answers holding the same. They reached
    summary.md, the feedback and the TA report raw (the double backtick closing the code span
    around the answer), so a Markdown preview fetched the image or showed the link to staff.

    Guarantee: every Markdown file goes through one escaper: code spans fenced longer than any
    backtick run inside, ``<``, ``[``, ``!`` escaped in free text; the text itself still shows.
    """
    plain, course, report = hostile_class["plain"], hostile_class["course"], hostile_class["report"]
    feedback = [*(plain / "feedback").glob("*.md"), *(course / "feedback").glob("*.md")]
    files = [plain / "summary.md", course / "summary.md", report / "ta-report.md", *feedback]
    assert len(feedback) == 2
    for path in files:
        html = preview(path.read_text(encoding="utf-8"))
        loaded = re.findall(r'<img [^>]*src="([^"]*)"', html)
        assert set(loaded) <= {"histogram.png", "runs.png"} and "<a href" not in html and "\u202e" not in html, path
    summary = preview((plain / "summary.md").read_text(encoding="utf-8"))
    assert "&lt;img src=&quot;http://beacon.invalid/b.png&quot;&gt; [log in](http://evil.invalid)" in summary
    ta = preview((report / "ta-report.md").read_text(encoding="utf-8"))
    assert f"<code>{HOSTILE_ANSWERS[1].replace('<', '&lt;').replace('>', '&gt;')}</code>" in ta


def test_the_gradescope_results_show_no_image_or_link(hostile_class, edition):
    """Attack: the same exception message in the autograder's results.json, whose outputs Gradescope
    renders as Markdown (``output_format: md``) for the student and the staff.

    Guarantee: every Markdown output of results.json goes through the same escaper.
    """
    for out in (hostile_class["plain"], hostile_class["course"]):
        (results,) = (out / "gradescope").glob("*/results.json")
        data = json.loads(results.read_text(encoding="utf-8"))
        outputs = [data["output"]] + [t["output"] for t in data["tests"]]
        assert any("beacon.invalid" in text for text in outputs)
        for text in outputs:
            html = preview(text)
            assert "<img" not in html and "<a href" not in html and "\u202e" not in html, text


def test_json_and_text_output_keep_no_bidirectional_or_control_character(edition, tmp_path, capsys):
    """Attack: an exception message holding U+202E (right-to-left override), which reorders what a
    terminal or editor shows of the rest of the line; ``hogkit grade --json`` and the text report
    printed it raw.

    Guarantee: JSON output escapes every control and bidirectional character (``\\u202e``), and
    reads back to the same text; the text report writes them out.
    """
    from graders.cli import main as hogkit

    path = tmp_path / edition.submission
    path.write_text(hostile_source(edition), encoding="utf-8")
    assert hogkit(["grade", str(path), "--json", "-q", "01", "--edition", edition.name]) in (0, 1)
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\\u202e" in out
    assert "\u202e" in json.dumps(json.loads(out), ensure_ascii=False)  # the same text, escaped
    assert hogkit(["grade", str(path), "-q", "01", "--edition", edition.name]) in (0, 1)
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\\u202e" in out


@pytest.mark.timeout(300)
def test_a_contest_entry_named_like_mathtext_or_a_formula(edition, tmp_path):
    """Attack: contest entries named ``$\\fo{o$.py`` (matplotlib parsed the tick label as mathtext and
    ``hogkit contest`` died with a ParseFatalException) and ``=HYPERLINK(9).py`` (a formula in
    leaderboard.csv).

    Guarantee: pictures draw every label as written (never as mathtext); the leaderboard goes
    through the one CSV writer.
    """
    from graders.cli import main as hogkit

    folder = tmp_path / "class"
    folder.mkdir()
    skeleton = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    for name in (MATH_NAME, FORMULA_ID, "plain"):
        (folder / f"{name}.py").write_text(skeleton, encoding="utf-8")
    out = tmp_path / "out"
    assert hogkit(["contest", str(folder), "--out", str(out), "--edition", edition.name]) == 0
    cells = csv_cells(out / "leaderboard.csv")
    assert MATH_NAME in cells and "'" + FORMULA_ID in cells and not [c for c in cells if runs_as_formula(c)]
    assert (out / "contest.html").stat().st_size > 0


def test_the_autograder_s_results_show_no_image_or_link(edition, tmp_path, monkeypatch):
    """Attack: the exception message of HOSTILE_MESSAGE handed in on Gradescope itself (run_autograder),
    whose results.json outputs Gradescope renders as Markdown for the student and the staff.

    Guarantee: the autograder's results.json goes through the same escaper as the class's.
    """
    grade_on_gradescope(hostile_source(edition), edition, tmp_path, monkeypatch)
    data = json.loads((tmp_path / "results" / "results.json").read_text(encoding="utf-8"))
    outputs = [data["output"]] + [t["output"] for t in data["tests"]]
    assert any("beacon.invalid" in text for text in outputs)
    for text in outputs:
        html = preview(text)
        assert "<img" not in html and "<a href" not in html and "\u202e" not in html, text


def test_an_answer_key_transcript_holding_a_fence_stays_one_block(edition):
    """Attack (or slip): an unlock question whose transcript displays a run of backticks (a string an
    author wrote, or an included case file from elsewhere). ``hogkit answers --markdown`` fenced it
    with three backticks, so the output closed the block and the rest of the page became Markdown.

    Guarantee: a code block's fence is longer than any run of backticks inside it.
    """
    from graders.editions.cases import Question, Step

    problem = edition.problems[1]
    steps = (Step("print('```')", "```\n<img src=http://beacon.invalid/k.png>", 1),)
    question = Question("q01.unlock.x", problem.label, "a fence in the output", steps, "", (), "")
    html = preview(reports.render_answer_key(edition.title, [(problem, [question])]))
    assert html.count("<pre>") == 1 and "<img" not in html


def test_a_forged_count_of_tries_cannot_end_the_ta_report(edition, tmp_path):
    """Attack: an activity log whose chain is recomputed around ``"tries": 10**400`` (and a negative
    count): ``hogkit report`` died with OverflowError taking the median.

    Guarantee: numbers from a log are clamped before any arithmetic; the report is written.
    """
    from graders.cli import main as hogkit
    from graders.courses.tareport import prompt_infos
    from graders.runner import activity

    p = prompt_infos(edition)[0]
    for name, tries in (("forged", 10**400), ("negative", -5)):
        project = tmp_path / "class" / name
        project.mkdir(parents=True)
        (project / edition.submission).write_text("", encoding="utf-8")
        activity.unlock_attempt(project, p.problem, p.question, p.prompt, ["9"], tries, True)
    out = tmp_path / "out"
    assert hogkit(["report", str(tmp_path / "class"), "--out", str(out), "--edition", edition.name]) == 0
    assert "1000000 at most" in (out / "ta-report.md").read_text(encoding="utf-8")  # tareport.MOST_TRIES


# -- 8. where courses run: no namespaces, a non-editable install, an open network ------------------
#
# Gradescope runs the autograder as root without CAP_SYS_ADMIN (Docker's default), where bubblewrap
# cannot start and no mount namespace can be had; `pip install .` puts the package in site-packages
# while tests/ and solution/ stay in the checkout. What a report says is what a child verified
# (graders.sandboxing.guard); where a child could read the kit, nothing is graded.


def forced_limits(monkeypatch: pytest.MonkeyPatch, confined: bool = True) -> isolation.Policy:
    """The limits level for this test (as if bubblewrap could not start); CONFINED False also takes
    away what the kernel adds there (Landlock and seccomp), as on a kernel without them."""
    real = isolation.policy()
    limits = isolation.Policy(isolation.LIMITS, "", real.root, real.python, real.python_home,
                              "forced by a test" + ("" if confined else ", unconfined"))
    monkeypatch.setattr(isolation, "policy", lambda: limits)
    if not confined:
        monkeypatch.setattr(isolation, "confinement", lambda *args: {})
    return limits


def _searchable_by_all(folder: Path) -> bool:
    """Whether every user may pass through FOLDER and each folder above it (o+x all the way up)."""
    try:
        return all(os.stat(p).st_mode & 0o001 for p in (folder, *folder.parents))
    except OSError:
        return False


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A new folder of mode 0755 that every user can reach (every folder above it searchable by all),
    removed afterwards: what a test of "a child could read this" needs, made by the test wherever
    the checkout is (a clone under a home folder of mode 0700 or in a ``mktemp -d`` folder hides
    the checkout itself from every child). Skipped where no such folder can be made."""
    import tempfile

    bases = [Path(tempfile.gettempdir()), Path("/tmp"), Path("/var/tmp"), Path("/dev/shm")]
    base = next((b.resolve() for b in bases if b.is_dir() and _searchable_by_all(b.resolve())), None)
    if base is None:
        pytest.skip("no temporary folder on this machine is searchable by every user")
    folder = Path(tempfile.mkdtemp(prefix="hogkit-test-shared-", dir=base))
    try:
        folder.chmod(0o755)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def readable_copy(source: Path, target: Path) -> None:
    """Copy SOURCE to TARGET, TARGET and the folders made for it readable by every user (whatever the umask)."""
    made = [p for p in reversed(target.parents) if not p.exists()]
    target.parent.mkdir(parents=True, exist_ok=True)
    for folder in made:
        folder.chmod(0o755)
    shutil.copyfile(source, target)
    target.chmod(0o644)


def reference_candidates(edition: Edition, *packages: Path) -> list[str]:
    """Where an attacker looks for the reference: the kit's root, beside every copy of the package."""
    found = [edition.solution_dir / edition.submission, Path.cwd() / "solution" / edition.name / edition.submission]
    found += [p.parent / "solution" / edition.name / edition.submission for p in packages]
    return [str(p) for p in found]


def grade_in_a_process(stub: Path, cwd: Path, site: Path | None = None, drop_admin: bool = False,
                       env: dict | None = None) -> tuple[int, str, str]:
    """`hogkit grade --json -q 2 STUB` run in a process of its own, from CWD; with SITE, the package
    imported from there (as `pip install .` leaves it); with DROP_ADMIN, without CAP_SYS_ADMIN."""
    import subprocess
    import sys

    argv = [sys.executable, "-P", "-m", "graders.cli", "grade", "--json", "-q", "2", str(stub)]
    environment = {k: v for k, v in os.environ.items() if k not in ("HOGKIT_ROOT", "PYTHONPATH")}
    environment.update(env or {})
    # The package this test imported, or the copy SITE holds (-P: the working folder is not on the path).
    environment["PYTHONPATH"] = str(site if site is not None else Path(isolation.__file__).resolve().parents[2])
    if drop_admin:
        argv = ["capsh", "--drop=cap_sys_admin", "--", "-c", 'exec "$@"', "capsh", *argv]
    done = subprocess.run(argv, cwd=cwd, env=environment, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


ROUTES = ["limits", "no_cap_sys_admin", "pip_install", "pip_install_no_cap_sys_admin"]


@pytest.mark.timeout(600)
@pytest.mark.parametrize("route", ROUTES)
def test_a_stub_that_runs_the_kits_reference_earns_nothing(edition, reference_source, route, tmp_path):
    """Attack: boar_brawl finds the kit's reference hog.py (in the kit's root, beside the package,
    beside a non-editable install in site-packages) and answers with it, as a stub `play` would.

    Guarantee: under limits (forced), as root without CAP_SYS_ADMIN (Gradescope's Docker default:
    no bubblewrap, no mount namespace) and with `pip install .`, the stub scores 0 on Problem 02, or
    grading is refused (exit status 3, naming what was readable): never a point from the reference.
    Before the child verified what it could reach, the last three routes gave it full marks.
    """
    import shutil

    if "no_cap_sys_admin" in route and (os.geteuid() != 0 or not shutil.which("capsh")):
        pytest.skip("needs root and capsh to drop CAP_SYS_ADMIN")
    site = None
    if route.startswith("pip_install"):
        site = tmp_path / "site-packages"
        shutil.copytree(Path(isolation.__file__).parents[1], site / "graders",
                        ignore=shutil.ignore_patterns("__pycache__"))
    stub = tmp_path / "stub"
    stub.mkdir()
    code = REFERENCE_RUNNER.format(candidates=reference_candidates(edition, *([site / "graders"] if site else [])))
    (stub / "hog.py").write_text(replace_function(reference_source, "boar_brawl", code), encoding="utf-8")
    env = {"HOGKIT_ISOLATION": "limits"} if route == "limits" else {}
    status, out, err = grade_in_a_process(stub, edition.root, site, "no_cap_sys_admin" in route, env)
    if status == 3:
        assert "nothing was graded" in err and "could read the kit's secrets" in err, err
        return
    assert status == 0, err
    report = json.loads(out)
    (p2,) = report["problems"]
    assert (p2["score"], p2["cases"][0]["got"]) == (0, "1"), report["isolation"]
    assert "verified by the child" in report["isolation"] and "kit hidden" in report["isolation"]


TELLER = """
def boar_brawl(player_score, opponent_score):
    import os, socket
    try:  # open, not os.access: access() asks only the file's modes, never Landlock
        open({reference!r}, "rb").close()
        seen = ["read=1"]
    except OSError:
        seen = ["read=0"]
    try:  # no getaddrinfo: it imports encodings.idna, which a child with a user id of its own may not reach
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            s.connect(("127.0.0.1", {port}))
            s.sendall(b"%d %d\\n" % (player_score, opponent_score))
        seen.append("net=1")
    except OSError:
        seen.append("net=0")
    seen.append("uid=%d" % os.getuid())
    return " ".join(seen)
"""

MODES = ["namespaces", "limits", "limits_unconfined"]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("mode", [pytest.param(m, marks=pytest.mark.slow) if m == "limits_unconfined" else m
                                  for m in MODES])
def test_the_isolation_line_says_what_a_child_could_do(edition, reference_source, mode, monkeypatch):
    """Attack: boar_brawl sends its arguments (hidden cases included) to a listener on 127.0.0.1 (on
    a cloud machine the metadata service is as close) and reports whether it could read the reference.

    Guarantee: in every mode the report's isolation line states what the child could actually do:
    "network off" and nothing delivered, or "network OPEN" and the arguments delivered; "kit hidden"
    and the reference unreadable; "own identity yes" and a user id other than the grader's (or a
    user namespace of its own). Before, the line under limits never mentioned the network.
    """
    import socket

    from graders.core.errors import IsolationRefused

    if mode == "namespaces":
        needs_namespaces()
    elif mode == "limits_unconfined" and os.geteuid() != 0:
        pytest.skip("without root and without Landlock the kit is readable: grading is refused (tested below)")
    if mode != "namespaces":
        forced_limits(monkeypatch, confined=mode == "limits")
    received: list[bytes] = []
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        listener.settimeout(0.2)
        done = threading.Event()

        def serve() -> None:  # every connection taken at once: where the network is open, no case waits
            while not done.is_set():
                try:
                    connection, _ = listener.accept()
                except OSError:  # timeout: look at the stop flag again
                    continue
                with connection:
                    connection.settimeout(2)
                    try:
                        received.append(connection.recv(1000))
                    except OSError:
                        pass

        server = threading.Thread(target=serve, daemon=True)
        server.start()
        code = TELLER.format(reference=str(edition.solution_dir / edition.submission),
                             port=listener.getsockname()[1])
        try:
            report = grade_source(replace_function(reference_source, "boar_brawl", code), edition, problems=[2])
        except IsolationRefused as exc:  # no mount namespace and no Landlock (root without CAP_SYS_ADMIN)
            assert mode == "limits_unconfined" and "kit READABLE" in str(exc), exc
            return
        finally:
            done.set()
            server.join()
        delivered = b"".join(received)
    got = problem(report, 2).cases[0].got
    line = report.isolation
    assert "verified by the child" in line, line
    assert ("read=1" in got) == ("kit READABLE" in line) and "read=0" in got, (got, line)
    assert ("net=1" in got) == bool(delivered) == ("network OPEN" in line), (got, delivered, line)
    assert ("own identity yes" in line) == (f"uid={os.getuid()}" not in got or mode == "namespaces"), (got, line)
    if mode != "limits_unconfined":
        assert "network off" in line and not delivered, (line, delivered)


def test_grading_is_refused_where_a_child_could_read_the_kit(edition, reference_source, monkeypatch,
                                                            shared_folder):
    """Attack: any stub, graded where nothing hides the kit from its child (no namespaces, no Landlock,
    a copy of the reference every user may read, as on an old kernel or as an ordinary user without
    bubblewrap). The test makes that copy itself, so it holds wherever the checkout is (one in a
    folder of mode 0700 is hidden from every child by its modes alone).

    Guarantee: nothing is graded: the kit's failure (IsolationRefused, exit status 3), naming what the
    child could read; never a score computed with the reference open to student code.
    """
    from graders.core.errors import IsolationRefused
    from graders.sandboxing import guard

    forced_limits(monkeypatch, confined=False)
    monkeypatch.setattr(guard, "_KEPT", {})  # no verification of an earlier test answers for this one
    monkeypatch.setattr(isolation, "_DEMANDED", {})
    secret = shared_folder / "solution"
    readable_copy(edition.solution_dir / edition.submission, secret / edition.name / edition.submission)
    monkeypatch.setattr(guard, "secret_paths", lambda editions, extra=(): (str(secret),))
    from graders.sandboxing import sandbox

    monkeypatch.setattr(sandbox, "KIT", Path("/nonexistent-kit"))  # nothing covered, as without a mount namespace
    with pytest.raises(IsolationRefused) as caught:
        grade_source(reference_source, edition, problems=[1])
    assert str(secret) in str(caught.value) and "nothing was graded" in str(caught.value)


XATTRS = """
def boar_brawl(player_score, opponent_score):
    import os
    made = 0
    for folder in (os.environ.get("TMPDIR", "/tmp"), os.getcwd(), "/dev/shm"):
        try:
            path = os.path.join(folder, "x%d" % os.getpid())
            open(path, "w").close()
            os.setxattr(path, b"user.fill", b"x" * 4000)
            made += 1
        except OSError:
            pass
    return made
"""


@pytest.mark.parametrize("mode", ["namespaces", "limits"])
def test_extended_attributes_are_refused(edition, reference_source, mode, monkeypatch):
    """Attack: boar_brawl fills empty files with extended attributes in its size-capped tmpfs mounts
    (and its folder): kernel memory that neither the size cap nor the watch on resident memory sees
    (one child held 1.27 GiB past its 1 GiB limit this way).

    Guarantee: the child's seccomp filter refuses every setxattr call: no attribute is made.
    """
    if mode == "namespaces":
        needs_namespaces()
    else:
        forced_limits(monkeypatch)
    if not isolation.seccomp_program()[0]:
        pytest.skip(isolation.seccomp_program()[1])
    report = grade_source(replace_function(reference_source, "boar_brawl", XATTRS), edition, problems=[2])
    assert problem(report, 2).cases[0].got == "0", problem(report, 2).cases[0]
    assert "extended attributes (kernel memory) refused by seccomp" in report.isolation


INODES = """
def boar_brawl(player_score, opponent_score):
    import os
    made = 0
    try:
        while made < 400000:
            open("/tmp/%d" % made, "w").close()
            made += 1
    except (OSError, MemoryError):
        pass
    return made
"""


@pytest.mark.timeout(300)
def test_empty_files_in_a_tmpfs_are_bounded_by_the_childs_memory_cgroup(edition, reference_source, monkeypatch):
    """Attack: boar_brawl makes hundreds of thousands of empty files in its private /tmp: the tmpfs
    caps bytes, not files, and each file's inode is kernel memory that neither the address-space
    limit nor the watch on resident memory sees (about 1 KiB each: 400,000 files are ~400 MiB).

    Guarantee: where a memory cgroup can be had (as root on this machine), every child runs in one of
    its own, which counts kernel memory: the files stop (or the child is stopped) near its limit
    (128 MiB here), and the isolation line says the cgroup holds it.
    """
    from graders.sandboxing.sandbox import Limits

    needs_namespaces()
    if not isolation.memory_cgroups()[0]:
        pytest.skip(isolation.memory_cgroups()[1])
    monkeypatch.setattr(isolation, "CGROUP_HEADROOM", 0)
    report = grade_source(replace_function(reference_source, "boar_brawl", INODES), edition, problems=[2],
                          limits=Limits(memory_bytes=128 * 1024 * 1024))
    case = problem(report, 2).cases[0]
    assert case.status != "passed" and case.got != "400000", case
    assert "a memory cgroup of its own bounds it all" in report.isolation


REFUSE_LANDLOCK = WITHOUT_LANDLOCK + """
import json, sys
from graders.sandboxing import guard
print(json.dumps(guard.verify(tuple(sys.argv[1:])).summary))
"""


@pytest.mark.timeout(300)
def test_landlock_refused_by_a_containers_seccomp_profile_is_said_so(edition, tmp_path):
    """The Docker corner: a grader started under a seccomp profile that answers ENOSYS to Landlock's
    calls (Docker's default in older releases), on a kernel that has Landlock, under limits.

    Guarantee: the verified line says Landlock was refused by the seccomp filter the grader runs
    under, never that the kernel lacks it; and, with neither namespaces nor Landlock, that only the
    kit's own paths were checked, not a copy of the kit or of a reference elsewhere on the machine
    (which a world-readable copy of hog.py would be: it once scored a stub 20/24 under "kit hidden").
    """
    import ctypes
    import subprocess

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    if libc.syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1)) < 1:
        pytest.skip("this kernel has no Landlock to refuse")
    if not isolation.seccomp_program()[0]:
        pytest.skip(isolation.seccomp_program()[1])
    private = tmp_path / "private"  # closed to other users: hidden from a child with a user id of its own
    private.mkdir(mode=0o700)
    (private / "hog.py").write_text("reference", encoding="utf-8")
    argv = [sys.executable, "-c", REFUSE_LANDLOCK, str(private)]
    if os.geteuid() == 0 and shutil.which("capsh"):  # Gradescope's route: no namespace of any kind
        argv = ["capsh", "--drop=cap_sys_admin", "--", "-c", 'exec "$@"', "capsh", *argv]
    done = subprocess.run(argv, cwd=edition.root,
                          env={**os.environ, "HOGKIT_ISOLATION": "limits"}, capture_output=True, text=True,
                          timeout=240)
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    assert "landlock: refused by the seccomp filter the grader runs under" in line, line
    assert "not in this kernel" not in line and "applied by the child: seccomp" in line, line
    if os.geteuid() == 0:  # a user id of its own: the folder's modes hide it
        assert sandboxing_messages.kit_reach(isolation.LIMITS, (), False, 1) in line, line
        assert "only the kit's own paths (1) checked; NOT checked: a copy of the kit or of a reference" in line
    else:  # the grader's own user: the child reads what the grader can
        assert f"kit READABLE ({private})" in line, line


@pytest.mark.parametrize(("said", "listed", "worded"), [
    ("landlock: unavailable (error 38, seccomp 2)", None, "landlock: refused by the seccomp filter the grader runs"),
    ("landlock: unavailable (error 38, seccomp 2)", False, "landlock: not in this kernel (error 38"),
    ("landlock: unavailable (error 38, seccomp 0)", True, "landlock: not in this kernel (error 38"),
    ("landlock: unavailable (error 1, seccomp 2)", None, "landlock: refused by the seccomp filter the grader runs"),
    ("landlock: the rules were refused (error 22)", None, "landlock: the rules were refused (error 22)"),
])
def test_why_landlock_is_missing_is_worded_from_what_the_child_found(said, listed, worded, monkeypatch):
    """The child reports a failed first Landlock call as its errno and its seccomp mode; the line
    words it: ENOSYS under a filter the grader was started under (a container's profile) is a
    refusal, ENOSYS without one (or where the kernel's security modules do not list Landlock) a
    kernel without it; anything else the child said is kept as it said it."""
    monkeypatch.setattr(isolation, "landlock_listed", lambda: listed)
    policy = isolation.Policy(isolation.LIMITS, "", True, sys.executable, sys.prefix, "test")
    reach = {"readable": [], "network": False, "uid": os.getuid() + 1, "gid": os.getgid() + 1,
             "applied": ["seccomp"], "missing": [said]}
    verified = isolation.verified_from(reach, policy, ("/k",))
    (missing,) = verified.missing
    assert missing.startswith(worded), missing
    assert verified.checked == 1 and "not available: " + missing in verified.summary


def test_require_isolation_refuses_anything_less_than_complete(edition, monkeypatch, capsys):
    """Attack (or a machine's shortfall): a child that could reach the network, graded with
    --require-isolation. Guarantee: nothing is graded (exit status 3), and the line says what was
    missing; without the flag the same machine grades, and the report says the network was open."""
    from graders import cli
    from graders.sandboxing import guard

    open_network = isolation.Verified(isolation.LIMITS, "test", (), True, True, ("landlock ABI 7",), (), "M")
    monkeypatch.setattr(guard, "verify", lambda secrets: open_network)
    monkeypatch.setattr(guard, "summary", lambda: open_network.summary)
    reference = str(edition.solution_dir / edition.submission)
    assert cli.main(["grade", "--require-isolation", "-q", "1", reference]) == 3
    err = capsys.readouterr().err
    assert "--require-isolation" in err and "nothing was graded" in err and "network OPEN" in err, err
    assert cli.main(["grade", "--json", "-q", "1", reference]) == 0
    assert "network OPEN" in json.loads(capsys.readouterr().out)["isolation"]


def test_a_child_that_reaches_a_verified_secret_is_never_graded(edition, reference_source, monkeypatch,
                                                               shared_folder):
    """Attack: after the verification found the kit hidden, one child can read a secret anyway (a
    folder opened to it later, a mount that went away). Guarantee: every child checks the verified
    secrets before its student's code runs; that one is the sandbox failing (SandboxError, the kit's
    failure, retried and then a kit error), never a grade."""
    from graders.core.errors import SandboxError
    from graders.sandboxing.sandbox import open_session

    readable = shared_folder / "secret"
    readable_copy(edition.solution_dir / edition.submission, readable / "hog.py")
    policy = forced_limits(monkeypatch, confined=False)
    monkeypatch.setattr(isolation, "_DEMANDED", {policy: (str(readable),)})
    with pytest.raises(SandboxError) as caught:
        open_session(reference_source, edition).dispose()
    assert str(readable) in str(caught.value)


# -- the fork server: each child forked into namespaces of its own (graders.sandboxing.zygote) ---------


def _values(session, steps: list[str]) -> list:
    """What each of STEPS gave in SESSION (one case), or its error's type, or its status."""
    from graders.games.analysis import session_setup

    replies = list(session.steps(steps, session_setup(session), time.monotonic() + 30))
    return [r.value if r.status == "ok" else (r.error or {}).get("type", r.status) for r in replies]


def test_a_forked_child_sees_only_itself_and_holds_nothing_of_the_fork_server(edition, reference_source):
    """Attack: a submission looks for what the process that forked it left behind: the processes it
    can see, its capabilities, its open descriptors (the fork server's control socket), the memory of
    the first process of its namespace, and whether it can make a namespace of its own or signal that
    first process.

    Guarantee: it sees only itself and its namespace's first process, the leader of a session of its
    own (so that a classmate's busy processes take processor time from their own session, not from
    this child's); every capability set is empty
    (the bounding set too); it holds no descriptor but /dev/null and its two pipes; the first
    process's memory is closed to it, signals to it change nothing, and unshare is refused.
    """
    from graders.sandboxing import forkserver, sandbox

    needs_namespaces()
    session = sandbox.open_session(reference_source, edition)
    try:
        assert isinstance(session._proc, forkserver.ForkedChild), "the fork server is this machine's route"
        _, session_leader, pids, caps, links, mem, signalled, first, unshared = _values(session, [
            "import os, ctypes",
            "os.getsid(0)",
            "sorted(int(p) for p in os.listdir('/proc') if p.isdigit())",
            "sorted({line.split()[1] for line in open('/proc/self/status') if line.startswith('Cap')})",
            "sorted({os.readlink(p).split('[')[0] for p in ['/proc/self/fd/' + f for f in os.listdir('/proc/self/fd')]"
            " if os.path.exists(p)})",
            "open('/proc/1/mem', 'rb').read(1)",
            "[os.kill(1, s) for s in (15, 9)]",
            "os.path.exists('/proc/1/status')",
            "ctypes.CDLL(None, use_errno=True).unshare(0x20000)",
        ])
    finally:
        session.dispose()
    assert session_leader == 1  # a session of its own: the scheduler shares the processor between sessions
    assert pids == [1, 2]
    assert caps == ["0000000000000000"]
    assert not [link for link in links if link not in ("/dev/null", "pipe:") and not link.startswith("/proc/")], links
    assert mem in ("PermissionError", "OSError")
    assert signalled in ([None, None], "PermissionError") and first is True
    assert unshared != 0


def test_children_forked_side_by_side_see_nothing_of_each_other(edition, reference_source):
    """Attack: two submissions forked by the same server at once: the first leaves a file in every
    folder it may write (/work, /tmp, /dev/shm) and looks at the other's processes; the second looks
    for those files.

    Guarantee: each child has folders of its own and a process list of its own: the second finds
    none of the first's files, and neither sees the other's processes.
    """
    from graders.sandboxing import sandbox

    needs_namespaces()
    first = sandbox.open_session(reference_source, edition)
    second = sandbox.open_session(reference_source, edition)
    try:
        written = _values(first, ["import os", "[open(d + '/left-here', 'w').write('x') for d in "
                                  "('/work', '/tmp', '/dev/shm')]"])
        found = _values(second, ["import os", "[d for d in ('/work', '/tmp', '/dev/shm') "
                                 "if os.path.exists(d + '/left-here')]",
                                 "sorted(int(p) for p in os.listdir('/proc') if p.isdigit())"])
    finally:
        first.dispose()
        second.dispose()
    assert written == [None, [1, 1, 1]]
    assert found == [None, [], [1, 2]]


def test_a_child_that_kept_a_capability_is_never_given_student_code(edition, reference_source, tmp_path,
                                                                    monkeypatch):
    """Attack (on the kit): a child whose code forgets to give up its capabilities, as a fork server's
    child would hold them from the server.

    Guarantee: the parent reads what the child reports before any student code and refuses it: the
    kit's failure (SandboxError naming the sets), never a grade.
    """
    from graders.core.errors import SandboxError
    from graders.sandboxing import sandbox

    needs_namespaces()
    forgetful = tmp_path / "child.py"
    source = sandbox.CHILD.read_text(encoding="utf-8")
    forgetful.write_text(source.replace('"""Give up every capability for good', 'return\n    """Give up', 1),
                         encoding="utf-8")
    assert forgetful.read_text(encoding="utf-8") != source
    monkeypatch.setattr(sandbox, "CHILD", forgetful)
    with pytest.raises(SandboxError, match="still held capabilities"):
        sandbox.open_session(reference_source, edition)


def test_the_capability_check_reads_every_set():
    from graders.sandboxing.sandbox import kept_capabilities

    empty = dict.fromkeys(("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"), "0000000000000000")
    assert kept_capabilities(empty, True) == "" and kept_capabilities({}, False) == ""
    assert kept_capabilities({}, True) == "none reported"
    assert kept_capabilities({**empty, "CapBnd": "000001ffffffffff"}, True) == "CapBnd 000001ffffffffff"
    assert kept_capabilities({**empty, "CapBnd": "000001ffffffffff"}, False) == ""
    assert kept_capabilities({**empty, "CapEff": "0000000000200000"}, False) == "CapEff 0000000000200000"
    assert kept_capabilities({**empty, "CapPrm": 7}, False) == "CapPrm "


def test_the_fork_server_is_given_nothing_of_the_kit_and_can_be_turned_off(edition, reference_source,
                                                                         monkeypatch, tmp_path):
    """The fork server's command line names no folder of the kit (only its runner, a copy), and
    HOGKIT_FORKSERVER=off starts every child with bubblewrap instead, which grades the same."""
    from graders.sandboxing import forkserver, sandbox

    needs_namespaces()
    argv = isolation.policy().zygote_command(tmp_path, 5)
    assert not [a for a in argv if str(sandbox.KIT) in a]
    forked = grade_source(reference_source, edition, problems=[1, 2])
    monkeypatch.setenv(forkserver.SWITCH, "off")
    assert not forkserver.usable()
    session = sandbox.open_session(reference_source, edition)
    try:
        assert not isinstance(session._proc, forkserver.ForkedChild)
    finally:
        session.dispose()
    started = grade_source(reference_source, edition, problems=[1, 2])
    assert scores(forked) == scores(started) == {1: problem(forked, 1).max, 2: problem(forked, 2).max}
