"""Attacks through the grade route, on the child: what one hog.py's code does to the process it runs in.

The grade route is one submission graded (``grade()``, ``hogkit grade FILE``; every other route grades
each hand-in the same way). Student code runs in a sandboxed child process that the parent kills on a
deadline and bounds in memory and output. Every test builds a variant of the reference ``hog.py`` that
spins, forks, ends the program, hangs while loading, floods its output or holds memory, and checks,
with exact scores, statuses and reasons, that the attack costs only the problems it touches, leaves
nothing running and never earns a point. Each test grades only the problems it needs, so the module
stays fast apart from the loops that must run into a deadline. (What the code tells the judge:
scoring/test_hostile_judge.py; what it can find of the machine: test_hostile_machine.py.)
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from graders.core import messages
from graders.editions.cases import load_problem_cases
from graders.editions.edition import Edition
from graders.sandboxing import isolation
from graders.sandboxing import messages as sandboxing_messages
from graders.scoring import messages as scoring_messages

from ..conftest import grade_source, problem, replace_function, scores, with_deadline
from ..hostile import HOARDER, SPIN_DEADLINE, assert_untouched, child_pids, first_case, forced_limits, line_of


def raised_reason(edition: Edition, number: int, error_type: str, message: str, line: int) -> str:
    error = {"type": error_type, "message": message, "line": line}
    return scoring_messages.case_failed(first_case(edition, number).name, messages.raised(error, "hog.py"))


def alive(pid: int) -> bool:
    """Whether PID runs (a zombie waiting to be reaped counts as dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


# -- 1. endless loops, and what they leave running -------------------------------------------------

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
    forced_limits(monkeypatch)  # as root: each child a user id of its own
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


# -- 2. ending the program inside a function -------------------------------------------------------

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


# -- 3. ending or hanging the program while hog.py loads -------------------------------------------

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


# -- 4. floods of output ---------------------------------------------------------------------------

# The reference's boar_brawl body, for a variant that adds something hostile before the right answer.
BOAR_BRAWL_BODY = """
    tens = opponent_score // 10 % 10
    ones = player_score % 10
    return max(3 * abs(tens - ones), 1)
"""


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


# -- 5. memory -------------------------------------------------------------------------------------


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


# -- 6. what one case's child leaves for the next --------------------------------------------------


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
