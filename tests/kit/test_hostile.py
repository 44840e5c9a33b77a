"""Hostile submissions: the judge never trusts the student's process.

Student code runs in a child process; the parent compares tagged plain values with exact types and
kills the child on a deadline. Every test below builds a variant of the reference ``hog.py`` that
attacks the grader one way (an endless loop, an exit, a forged value, a patched library, a flood
of output, a memory hog ...) and checks, with exact scores, statuses and reasons, that the attack
costs only the problems it touches and never earns a point. Each test grades only the problems it
needs, so the whole file stays fast apart from the loops that must run into a deadline.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import textwrap
import time
from pathlib import Path

import pytest

from graders import isolation, messages, reports
from graders.cases import Case, load_problem_cases
from graders.edition import Edition
from graders.judge import DEBUG_PREFIX
from graders.records import Report

from .conftest import grade_on_gradescope, grade_source, problem, replace_function, scores

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
    return messages.case_failed(first_case(edition, number).name, messages.raised(error, "hog.py"))


def child_pids() -> set[int]:
    """Live processes whose parent is this test process and that run the sandbox's child."""
    found = set()
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
    source = replace_function(reference_source, "roll_dice", ENDLESS_LOOPS[variant])
    report = grade_source(source, edition, problems=[1, 2, 3])

    assert scores(report) == {1: 0, 2: 2, 3: 0}
    p1 = problem(report, 1)
    case = first_case(edition, 1)
    assert p1.status == "failed"
    assert p1.cases[0].status == "timeout"
    assert p1.cases[0].got == messages.still_running(5.0)
    assert p1.reason == messages.case_failed(case.name, messages.timed_out(case.timeout))
    assert {c.status for c in p1.cases[1:]} == {"not run"}
    assert len(p1.cases) == len(load_problem_cases(edition, 1))
    assert_untouched(report, 2)
    p3 = problem(report, 3)
    assert p3.status == "failed" and p3.hint == messages.dependency_hint([("01", "roll_dice")])
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
    report = grade_source(source, edition, problems=[1])
    assert scores(report) == {1: 0}
    assert problem(report, 1).cases[0].status == "timeout"
    assert settle(marker) == [], "a process the submission started outlived its grading"
    assert zombies() - before == set(), "the killed child's processes were left as zombies of the grader"


def zombies() -> set[int]:
    """The grader's children that died and were never reaped (each holds a process id for good)."""
    from graders import reaper

    return {pid for pid in reaper._children() if (reaper._stat(pid) or ("?",))[0] == "Z"}


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
        assert p2.reason == messages.case_failed(first_case(edition, 2).name, messages.crashed())
        assert {c.status for c in p2.cases[1:]} == {"not run"}
    else:
        assert p2.reason == raised_reason(edition, 2, error_type, message, line_of(source, statement))
        assert {c.status for c in p2.cases} == {"error"}
    assert not report.notes
    assert_untouched(report, 1)


# -- 3. ending or hanging the program while hog.py loads ----------------------------------------

TOP_LEVEL = {
    "sys_exit": ("import sys\nsys.exit()\n", "sys.exit()", messages.exited_while_loading("sys.exit", "")),
    "os_exit": ("import os\nos._exit(1)\n", "os._exit(1)", messages.skipped_statement("ended the program")),
    "while_true": ("while True:\n    pass\n", "while True:", messages.skipped_statement("never finished")),
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


def test_top_level_exit_between_functions_keeps_the_later_ones(edition, reference_source):
    """Attack: os._exit(1) before boar_brawl's def; the statements after it are still run."""
    source = reference_source.replace("\ndef boar_brawl(", "\nimport os\nos._exit(1)\n\n\ndef boar_brawl(", 1)
    line = line_of(source, "os._exit(1)")
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 2}
    assert list(report.notes) == [
        messages.import_note(
            "hog.py", line, messages.skipped_statement("ended the program")
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
        messages.object_value("Nine"),
    ),
    "always_equal_int_subclass": (
        "class Nine(int):" + ALWAYS_EQUAL_METHODS
        + "\n\ndef boar_brawl(player_score, opponent_score):\n    return Nine(0)",
        messages.object_value("Nine"),
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
    assert p2.reason == messages.case_failed(first_case(edition, 2).name, messages.wrong_output("9", shown))
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
    assert p2.reason == messages.case_failed(first_case(edition, 2).name, messages.wrong_output("1", "True"))


def test_play_returning_a_list_instead_of_a_tuple_fails(edition, reference_source):
    """Attack (or slip): play returns [score0, score1], which a lenient == against (a, b) might accept."""
    assert reference_source.count("    return score0, score1\n") == 1
    source = reference_source.replace("    return score0, score1\n", "    return [score0, score1]\n")
    report = grade_source(source, edition, problems=[5])

    p5 = problem(report, 5)
    case = first_case(edition, 5)
    assert (p5.status, p5.score) == ("failed", 0)
    assert (p5.cases[0].expected, p5.cases[0].got) == ("(100, 75)", "[100, 75]")
    assert p5.reason == messages.case_failed(case.name, messages.wrong_output("(100, 75)", "[100, 75]"))


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
        """, messages.skipped_statement("ended the program")),
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
        assert list(report.notes) == [messages.import_note("hog.py", line_of(source, patch.split("\n")[-1]), note)]
    p2 = problem(report, 2)
    assert p2.status == "failed"
    assert p2.cases_passed == 0
    assert p2.reason == messages.case_failed(first_case(edition, 2).name, messages.wrong_output("9", ""))
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
    assert p2.reason == messages.case_failed(first_case(edition, 2).name, messages.wrong_output("1", "9"))


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
    """Attack: a stub boar_brawl that looks its answers up in ../../tests/boar_brawl/q02*.toml.

    The child runs in an empty private folder, so paths relative to it lead nowhere near the kit.
    Without the kit the stub only answers 1, right by chance for a few cases, never for all.
    """
    find_kit = 'folders = ("../../tests/boar_brawl", "../tests/boar_brawl", "tests/boar_brawl", "/tests/boar_brawl")'
    source = replace_function(reference_source, "boar_brawl", KIT_READER.format(find_kit=find_kit))
    report = grade_source(source, edition, problems=[2])

    p2 = problem(report, 2)
    assert (p2.status, p2.score) == ("failed", 0)
    assert all(r.passed for r in p2.rules)
    assert p2.reason == messages.case_failed(first_case(edition, 2).name, messages.wrong_output("9", "1"))


def test_reading_the_kit_through_the_graders_path_earns_nothing(edition, reference_source):
    """Attack: a stub boar_brawl finds the kit from the child's own file (``__main__.__file__`` is
    graders/child.py; ``sys.orig_argv`` names graders/probes.py too) and looks its answers up in
    tests/boar_brawl/q02.toml and q02.generated.toml. A stub must not earn points this way.
    """
    find_kit = (
        "import __main__\n"
        "    kit = os.path.dirname(os.path.dirname(os.path.abspath(__main__.__file__)))\n"
        "    folders = (os.path.join(kit, 'tests', 'boar_brawl'),)"
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

    assert scores(report) == {1: 2, 2: 0, 3: 0}
    assert_untouched(report, 1)
    assert len(report.notes) == 1
    note = report.notes[0]
    assert note.startswith(f"hog.py line {line}: SyntaxError: ")
    assert "boar_brawl was left out" in note
    p2 = problem(report, 2)
    assert p2.status == "failed"
    assert not p2.cases  # a function left out for a syntax error is not run at all
    assert p2.reason == messages.removed_for_syntax("boar_brawl", "hog.py", line)
    p3 = problem(report, 3)  # its cases call boar_brawl: scored on them, with a hint to fix 02 first
    assert (p3.status, p3.hint) == ("failed", messages.dependency_hint([("02", "boar_brawl")]))


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
        messages.import_note("hog.py", 1, "ModuleNotFoundError: No module named 'numpy_does_not_exist'")
    ]


# -- 8. floods of output -------------------------------------------------------------------------


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
    assert got.endswith("9\n" + messages.output_cut())
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
    report = grade_source(source, edition, problems=[1, 2])

    assert scores(report) == {1: 2, 2: 0}
    p2 = problem(report, 2)
    case = first_case(edition, 2)
    assert p2.cases[0].status == "timeout"
    assert {c.status for c in p2.cases[1:]} == {"not run"}
    assert p2.reason == messages.case_failed(case.name, messages.timed_out(case.timeout))
    assert child_pids() == set()


# -- 9. memory -----------------------------------------------------------------------------------


@pytest.mark.timeout(120)
def test_unbounded_memory_fails_only_that_problem(edition, reference_source):
    """Attack: make_averaged allocates without bound. The child's address-space limit stops it.

    Each case ends in MemoryError (or, if the child cannot even report it, a crash); the grader
    and the other problems in the same run are untouched. (``bytes(n)`` takes zeroed pages from the
    system without writing them, unlike ``bytearray(n)``, which fills every page: the limit is
    reached by allocation alone, in about a hundred calls, however busy the machine is, and never
    a case's deadline.)
    """
    source = replace_function(reference_source, "make_averaged", """
        def make_averaged(original_function, samples_count=1000):
            x = []
            while True:
                x.append(bytes(10**7))
        """)
    report = grade_source(source, edition, problems=[1, 2, 8])

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
        assert p8.reason == messages.case_failed(first.name, messages.crashed())
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


def test_other_printed_lines_make_a_case_fail(edition, reference_source):
    """roll_dice prints "rolling" (no DEBUG: prefix) before returning the right value: the output is wrong."""
    roll_dice = ROLL_DICE_TEMPLATE.format(before='print("rolling")')
    source = replace_function(reference_source, "roll_dice", roll_dice)
    report = grade_source(source, edition, problems=[1])

    p1 = problem(report, 1)
    case = first_case(edition, 1)
    assert (p1.status, p1.score) == ("failed", 0)
    assert (p1.cases[0].expected, p1.cases[0].got) == ("10", "rolling\n10")
    assert p1.reason == messages.case_failed(case.name, messages.wrong_output("10", "rolling\n10"))
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
    # roll_dice, make_averaged and max_scoring_num_rolls are the reference's; everything else
    # fails, on its own cases, and those whose cases call a failing problem say to fix it first.
    assert scores(report) == {0: 0, 1: 2, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 2, 9: 2, 10: 0, 11: 0, 12: 0}
    assert report.total == 6
    assert problem(report, 6).cases[0].status == "crashed"
    assert [p.number for p in report.problems if p.hint] == [3, 4, 5, 7, 10, 11]
    assert len(report.notes) == 3, report.notes
    assert any(note.startswith(f"hog.py line {line_of(source, 'return (')}: SyntaxError") for note in report.notes)
    assert "hog.py line 2: " + messages.exited_while_loading("sys.exit", "bye") in report.notes
    # average_win_rate's default argument calls always_roll, so that def ends the program on load.
    assert any(messages.skipped_statement("ended the program") in note for note in report.notes)
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
# These guarantees come from the isolation the machine gives (graders.isolation): under namespaces
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
            if here in seen or files > 200000 or here.startswith(SKIPPED):
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
    edition = dataclasses.replace(edition, problems=tuple(
        dataclasses.replace(p, timeout=60.0) if p.number == 2 else p for p in edition.problems))
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
        from graders.classroom import grade_class

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
    """
    import stat as stat_module

    from graders.classroom import grade_class

    needs_namespaces()
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
    (folder / "hoarder.py").write_text(replace_function(reference_source, "roll_dice", """
        def roll_dice(num_rolls, dice=six_sided):
            import os, time
            for _ in range(5):
                if os.fork() == 0:
                    hoard = bytearray(400 * 1024 * 1024)
                    for k in range(0, len(hoard), 4096):
                        hoard[k] = 1
                    time.sleep(60)
            time.sleep(60)
        """), encoding="utf-8")
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
    assert hoarded["status"] == "memory", hoarded
    text = (out / "feedback" / f"{rows['screen']['file_id']}.md").read_text(encoding="utf-8")
    assert "\x1b" not in text and "\\x1b[2J" in text
    assert len(list((out / "records").glob("*.json"))) == len(records) - 0
    written = [p for top in (edition.root, folder, out, elsewhere, Path("/tmp"), Path("/dev/shm"))
               for p in top.rglob(marker)]
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
    report = grade_source(source, edition, problems=[1, 2, 12])
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
    from graders.sandbox import Limits

    attack = """
import __main__ as _main, sys as _sys, time as _time
_frame = _sys._getframe()
while _frame is not None and "out_fd" not in _frame.f_locals:
    _frame = _frame.f_back
for _ in range(400):
    _main.send(_frame.f_locals["out_fd"], {"op": "stmt", "i": 0, "line": 1})
    _time.sleep(0.05)
while True:
    pass
"""
    source = reference_source.replace("\ndef roll_dice(", attack + "\ndef roll_dice(", 1)
    report = grade_source(source, edition, problems=[2], limits=Limits(import_seconds=1.0, import_budget=6.0))
    assert_untouched(report, 2)
    assert any(messages.skipped_statement("never finished") in note for note in report.notes), report.notes


def test_a_library_left_in_a_cache_never_runs_inside_the_grader(tmp_path, monkeypatch):
    """Attack: a submission (or anyone) leaves a shared library where the grader once cached its
    compiled contest kernel, hoping the grader loads it on the next run.

    Guarantee: the grader never loads a library from disk that it did not just build itself, in a
    folder only it can write; nothing in the cache is ever read for it.
    """
    from graders import analysis

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
    from graders.classroom import grade_class

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
    from graders.sandbox import Limits

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

    from graders.submissions import read_entry

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
    from graders import pytest_plugin
    from graders.cases import load_questions
    from graders.sandbox import StepReply

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
