"""Hostile submissions: the judge never trusts the student's process.

Student code runs in a child process; the parent compares tagged plain values with exact types and
kills the child on a deadline. Every test below builds a variant of the reference ``hog.py`` that
attacks the grader one way (an endless loop, an exit, a forged value, a patched library, a flood
of output, a memory hog ...) and checks, with exact scores, statuses and reasons, that the attack
costs only the problems it touches and never earns a point. Each test grades only the problems it
needs, so the whole file stays fast apart from the loops that must run into a deadline.
"""

from __future__ import annotations

import json
import os
import textwrap
import time
from pathlib import Path

import pytest

from graders import isolation, messages, reports
from graders.cases import Case, load_problem_cases
from graders.edition import Edition
from graders.grading import Report
from graders.judge import DEBUG_PREFIX

from .conftest import grade_source, problem, replace_function, scores

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
    report = grade_source(source, edition, problems=[1])
    assert scores(report) == {1: 0}
    assert problem(report, 1).cases[0].status == "timeout"
    assert settle(marker) == [], "a process the submission started outlived its grading"


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
    assert report.notes == []
    assert_untouched(report, 1)


# -- 3. ending or hanging the program while hog.py loads ----------------------------------------

TOP_LEVEL = {
    "sys_exit": ("import sys\nsys.exit()\n", "sys.exit()", messages.exited_while_loading("sys.exit", "")),
    "os_exit": ("import os\nos._exit(1)\n", "os._exit(1)", messages.skipped_statement("ended the program")),
    "while_true": ("while True:\n    pass\n", "while True:", messages.skipped_statement("never finished")),
}


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
    assert report.notes == [
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
        assert report.notes == []
    else:
        assert report.notes == [messages.import_note("hog.py", line_of(source, patch.split("\n")[-1]), note)]
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
    import json
    import os
    {find_kit}
    wanted = ">>> boar_brawl(" + json.dumps(player_score) + ", " + json.dumps(opponent_score) + ")\\n"
    for folder in folders:
        for name in ("q02.toml", "q02.generated.toml"):
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    text = f.read()
            except OSError:
                continue
            _, found, after = text.partition(wanted)
            if found:
                answer, _, _ = after.partition("\\n")
                return int(answer)
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
    assert p2.cases == []  # a function left out for a syntax error is not run at all
    assert p2.reason == messages.removed_for_syntax("boar_brawl", "hog.py", line)
    p3 = problem(report, 3)  # its cases call boar_brawl: scored on them, with a hint to fix 02 first
    assert (p3.status, p3.hint) == ("failed", messages.dependency_hint([("02", "boar_brawl")]))


def test_a_file_that_is_not_python_scores_zero_with_a_note(edition):
    """Attack (or slip): hog.py is not Python at all. Every problem scores 0; nothing raises."""
    report = grade_source("this is not python at all ((((", edition)

    assert set(scores(report).values()) == {0}
    assert len(report.problems) == len(edition.problems)
    for p in report.problems:
        assert p.cases == []
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
    assert report.notes == [
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
    and the other problems in the same run are untouched.
    """
    source = replace_function(reference_source, "make_averaged", """
        def make_averaged(original_function, samples_count=1000):
            x = []
            while True:
                x.append(' ' * 10**6)
        """)
    report = grade_source(source, edition, problems=[1, 2, 8])

    assert scores(report) == {1: 2, 2: 2, 8: 0}
    assert_untouched(report, 1, 2)
    assert report.notes == []
    p8 = problem(report, 8)
    assert p8.status == "failed"
    first = p8.cases[0]
    assert first.status in ("error", "crashed")
    if first.status == "error":
        line = line_of(source, "x.append(' ' * 10**6)")
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
