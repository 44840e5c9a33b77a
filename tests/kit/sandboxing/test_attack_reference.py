"""Attacks on the kit's secrets through "a bug costs once": no reference code in a student's process.

A hidden case of problem N calls the kit's version of every other problem's function it reaches,
and a function a syntax error removed is the kit's in the other problems' cases. Those functions
run in the kit's own child, which holds the reference (sent over a pipe, never in a file a child
sees) and answers a stub's call with a plain value; the student's child holds stubs only. Hidden
cases never run in a child whose output the student sees, and no child keeps a step's source.

Each test grades a hand-in that hunts for what it must not find (the reference's lines, hidden
steps) and shows whatever it found where the student would see it (a failing public case), then
checks that nothing was found and nothing was shown. The routes (namespaces, limits, an ordinary
user, a container without CAP_SYS_ADMIN) are whichever this run is on: .ci/run runs this file on each.
"""

from __future__ import annotations

import dataclasses
import json
import lzma
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from graders.core.errors import SandboxError
from graders.core.records import ClassRecord, EntryStatus, Report
from graders.editions import onefunction
from graders.editions.cases import load_problem_cases
from graders.editions.edition import load_edition
from graders.sandboxing import answers, childlink, childrecord, sandbox
from graders.sandboxing.messages import LINK_REFUSALS, link_refusal
from graders.sandboxing.reaper import process_tree
from graders.sandboxing.repairs import repair
from graders.sandboxing.sandbox import LINK_GRACE, Session, open_session
from graders.scoring import checks, reports
from graders.scoring.grading import defined_names
from graders.scoring.messages import RUN_FAILS, RUN_PASSES

from ..conftest import grade_source, replace_function

EDITION = load_edition("boar_brawl")
REFERENCE = (EDITION.solution_dir / EDITION.submission).read_text(encoding="utf-8")


def reference_body_lines(source: str = REFERENCE) -> set[str]:
    """The stripped lines of the reference's solution code (inside its problem markers) long enough
    to be its own: what no student may ever read."""
    lines, inside = set(), False
    for line in source.split("\n"):
        if "# BEGIN PROBLEM" in line:
            inside = True
        elif "# END PROBLEM" in line:
            inside = False
        elif inside and len(line.strip()) >= 16 and not line.strip().startswith("#"):
            lines.add(line.strip())
    return lines


SECRET_LINES = reference_body_lines()

# A hand-in's roll_dice that searches everything its process can reach (every string and code
# object the interpreter holds, every module's source it can read, every file under its folder)
# for a line of the reference (given written backwards, so that it never finds its own source),
# and returns where it found any. It imports only what every route has loaded already (under
# limits, a child's user may not read the interpreter's files).
HUNTER = '''
def roll_dice(num_rolls, dice=six_sided):
    import gc, os, sys
    wanted = set(line[::-1] for line in BACKWARDS)
    inspect = sys.modules.get("inspect")
    found = []

    def look(text, where):
        if isinstance(text, str) and any(line.strip() in wanted for line in text.split("\\n")):
            found.append(where)

    for obj in gc.get_objects():
        if isinstance(obj, str):
            look(obj, "str")
        elif type(obj).__name__ == "code":
            for const in obj.co_consts:
                look(const, "code")
    for name, module in list(sys.modules.items()):
        try:
            look(inspect.getsource(module), "module " + name)
        except Exception:
            pass
    for top in (".", os.path.dirname(os.path.abspath(__file__))):
        for folder, _, files in os.walk(top):
            for f in files:
                try:
                    look(open(os.path.join(folder, f), errors="replace").read(), "file " + f)
                except Exception:
                    pass
    return "found " + repr(sorted(set(found)))
'''


def hunting(source: str, secrets: set[str]) -> str:
    """SOURCE whose roll_dice hunts for SECRETS, lines of the reference (see HUNTER)."""
    backwards = sorted(line[::-1] for line in secrets)
    return replace_function(source, "roll_dice", HUNTER.replace("BACKWARDS", repr(backwards)))


def shown_to_the_student(report: Report) -> str:
    """Everything a student is shown of REPORT: Gradescope's results (every test, visible or shown
    after publishing), the feedback file and the student's own text."""
    record = ClassRecord("student", EntryStatus.GRADED, report=report)
    return (json.dumps(reports.render_gradescope(record)) + reports.render_record_markdown(record)
            + reports.render_text(report, verbose=True, student=True, show_hidden=False))


def with_syntax_error_in(source: str, function: str) -> str:
    """SOURCE whose FUNCTION's body is one line that does not parse."""
    lines = source.split("\n")
    start = next(k for k, line in enumerate(lines) if line.startswith(f"def {function}("))
    end = next(k for k in range(start + 1, len(lines)) if lines[k] and not lines[k].startswith((" ", "\t", ")")))
    head = next(k for k in range(start, end) if lines[k].rstrip().endswith(":"))
    return "\n".join(lines[:head + 1] + ["    return = 1", ""] + lines[end:])


def found_by_the_hunter(report: object) -> list[str]:
    problem = next(p for p in report.problems if p.label == "01")  # type: ignore[attr-defined]
    got = [c.got for c in problem.cases if not c.passed and c.got and "found" in c.got]
    assert got, "the hunting roll_dice never ran in a public case"
    return got


@pytest.mark.slow
def test_attack_a_syntax_error_hands_out_no_line_of_the_reference() -> None:
    """Attack: break play on purpose so the kit stands in for it, then read every string, code
    object, module and file of the process from another function, and show what was found in a
    failing public case. The stand-in is a stub that calls the kit's own child: nothing is found,
    nothing of solution/ is shown, and the syntax error costs play's problem alone."""
    broken = with_syntax_error_in(REFERENCE, "play")
    secrets = {line for line in SECRET_LINES if line not in broken}  # play's own lines, all gone from the hand-in
    assert len(secrets) >= 3
    hand_in = with_syntax_error_in(hunting(REFERENCE, secrets), "play")
    report = grade_source(hand_in, EDITION, workers=1)
    found = found_by_the_hunter(report)
    assert all("found []" in got for got in found), found
    shown = shown_to_the_student(report)
    assert not [line for line in secrets if line in shown]
    scores = {p.label: p.score for p in report.problems}
    assert scores["05"] == 0 and scores["01"] == 0  # play's problem (broken) and the hunter's (wrong)
    others = [c for p in report.problems if p.label not in ("01", "05") for c in p.cases if c.hidden]
    assert others and all(c.passed for c in others)  # hidden cases use the kit's play and roll_dice


def test_the_hunter_finds_the_lines_where_they_are() -> None:
    """The attack's control: a hand-in whose own play holds the lines finds them, in its file, its
    module's source, so an empty finding above means they were not there."""
    secrets = {line for line in SECRET_LINES if line not in with_syntax_error_in(REFERENCE, "play")}
    report = grade_source(hunting(REFERENCE, secrets), EDITION, problems=[1], workers=1)
    found = found_by_the_hunter(report)
    assert all("'file hog.py'" in got and "'module hog'" in got for got in found), found


def test_a_stub_is_the_kits_signature_and_one_call() -> None:
    """The source a child gets for a function the kit serves: the signature (the skeleton shows it
    too) and a call of the kit, no line of the reference; a default the student's module lacks is
    the kit's own."""
    fixed, tree, _ = repair(REFERENCE)
    ref = onefunction.reference(EDITION)
    assert ref is not None
    names = defined_names(tree) - {"six_sided"}
    source, kit = onefunction.with_kit(fixed, EDITION, ref, {"play", "take_turn"}, names)
    added = source[len(fixed):]
    assert kit is not None and kit.offered == ("play", "take_turn") and "boar_brawl" in kit.proxied
    assert "def take_turn(num_rolls, player_score, opponent_score, dice=__hogkit_default__):" in added
    assert "return __hogkit_call__('take_turn', (num_rolls, player_score, opponent_score, dice, ), {})" in added
    assert not [line for line in SECRET_LINES if line in added]
    assert kit.source == REFERENCE and "dice" in dict(kit.modules)
    # A die left to its default is the kit's die, even where the student's module has one; a
    # constant left to its default is the student's own.
    source, kit = onefunction.with_kit(fixed, EDITION, ref, {"play"}, defined_names(tree))
    assert "score0=0, score1=0, dice=__hogkit_default__, goal=GOAL):" in source[len(fixed):]


def stubbed(source: str, offered: set[str]) -> Session:
    """A child of SOURCE (repaired as grading repairs it) whose functions in OFFERED are the kit's."""
    fixed, tree, _ = repair(source)
    ref = onefunction.reference(EDITION)
    assert ref is not None
    with_stubs, kit = onefunction.with_kit(fixed, EDITION, ref, offered, defined_names(tree))
    return open_session(with_stubs, EDITION, kit=kit)


@pytest.fixture(scope="module")
def served() -> object:
    """A child of the skeleton whose play, take_turn, roll_dice and boar_brawl are the kit's."""
    session = stubbed((EDITION.skeleton_dir / EDITION.submission).read_text(encoding="utf-8"),
                      {"play", "take_turn", "roll_dice", "boar_brawl"})
    yield session
    session.dispose()


def run(session: object, *steps: str) -> list[object]:
    replies = session.steps(list(steps), "from hog import *", time.monotonic() + 30)  # type: ignore[attr-defined]
    return list(replies)


def test_the_kits_functions_answer_with_plain_values_and_call_back(served: object) -> None:
    """A stub's call reaches the kit's child and comes back with the reference's value; a function
    passed in (dice, a strategy) is called back in the student's child, in order, keeping its state;
    printing on either side reaches the case's output in the order it happened."""
    got = run(served, "take_turn(2, 10, 20, make_test_dice(3, 4))", "take_turn(0, 21, 46)",
              "d = make_test_dice(2, 3)", "roll_dice(3, d), d()",
              "play(lambda s, o: 1, lambda s, o: 1, lambda n, s, o, d: s + 3, dice=make_test_dice(5), goal=12)")
    assert [r.status for r in got] == ["ok"] * 5, [r.error for r in got]
    assert [r.value for r in got[:2]] == [7, 9]
    assert got[3].value == (7, 3)  # the dice the kit rolled three times go on from where it stopped


WATCHED = ["import sys", "seen = []",
           "sys.setprofile(lambda frame, event, arg: seen.append(frame.f_code.co_name) if event == 'call' else None)"]


def test_a_die_of_the_kits_files_crosses_by_value_and_any_other_function_is_called_back(served: object) -> None:
    """A die that dice.py made (a closure of plain values) crosses as its state: the kit's child
    rolls a copy, and the student's die goes on from where the copy stopped, with no call back at
    each roll (its code never runs in the student's child). A function of the student's, or a die
    whose state is not plain data or is too large to send, is called back instead, with the same
    values."""
    got = run(served, *WATCHED, "d = make_test_dice(2, 3, 4)", "v = roll_dice(2, d)",
              "sys.setprofile(None)", "v, d(), 'dice' in seen",
              *WATCHED, "w = roll_dice(2, lambda: 6)", "sys.setprofile(None)", "w, '<lambda>' in seen",
              "import types",
              "e = make_test_dice(*range(2, 3002))",  # 3,000 outcomes: more than a value carries
              *WATCHED, "x = roll_dice(2, e)", "sys.setprofile(None)", "x, e(), 'dice' in seen",
              "f = make_test_dice(5)", "cells = [types.CellType(c.cell_contents) for c in f.__closure__]",
              "cells[f.__code__.co_freevars.index('outcomes')] = types.CellType((object(),))",
              "forged = types.FunctionType(f.__code__, {}, 'dice', None, tuple(cells))",
              "roll_dice(1, forged)")
    assert [r.status for r in got[:-1]] == ["ok"] * (len(got) - 1), [r.error for r in got]
    assert got[6].value == (5, 4, False)  # rolled by value: 2 + 3, and the student's die went on to 4
    assert got[12].value == (12, True)  # the student's own function: called back at each roll
    assert got[20].value == (5, 4, True)  # too large to send: called back, its state its own
    assert got[-1].status == "error"  # a forged die of no plain state is called back; what it gives is refused


def test_a_die_of_chance_rolls_in_the_students_child_where_the_case_seeded_it(served: object) -> None:
    """A fair die reads the random module, whose state is the case's (random.seed in a step): it is
    called back, never rolled by value in the kit's child, so a seeded case rolls as it would in
    one process."""
    got = run(served, "import random",
              "def rolled(seed):\n    random.seed(seed)\n    faces = [six_sided() for _ in range(3)]\n"
              "    random.seed(seed)\n    return roll_dice(3, six_sided) == (1 if 1 in faces else sum(faces))",
              "[rolled(seed) for seed in range(8)]")
    assert got[-1].status == "ok" and got[-1].value == [True] * 8, got[-1].error


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one processor: every child runs on it anyway")
def test_a_child_and_the_kits_child_it_calls_share_one_processor() -> None:
    """The two children of a link hand each call back and forth and never run at once: both run on
    one processor (pairs take the grader's processors in turn), where a hand-over costs about a
    quarter of one between two processors (benchmarks/bench_link.py)."""
    session = stubbed(REFERENCE, {"boar_brawl"})
    try:
        assert run(session, "boar_brawl(21, 46)")[0].value == 9
        assert session._kit_child is not None and session._proc is not None and session._kit_child._proc is not None
        assert session.cpu is not None
        # (a forked child's Python is a descendant of the first process of its tree: the last one)
        pythons = [process_tree(proc.pid)[-1] for proc in (session._proc, session._kit_child._proc)]
        assert [os.sched_getaffinity(pid) for pid in pythons] == [{session.cpu}] * 2
    finally:
        session.dispose()


def test_a_calls_key_keeps_exact_types_apart() -> None:
    """A call is answered from what the case learned only for the same values of the same types:
    True is not 1, 1.0 is not 1, a fair die is its number of sides."""
    link = childlink.Link(None, dict, {}, None, None, childlink.support_codes(
        {"dice": (EDITION.support_dir / "dice.py").read_text(encoding="utf-8")}))
    keys = [link.fast_key({"name": "f"}, args, {}) for args in ((1, 3), (True, 3), (1.0, 3), ("1", 3))]
    assert None not in keys and len(set(keys)) == 4
    space: dict = {}
    text = (EDITION.support_dir / "dice.py").read_text(encoding="utf-8")
    exec(compile(text, "dice.py", "exec", dont_inherit=True), space)
    six, four = space["make_fair_dice"](6), space["make_fair_dice"](4)
    by_six, by_four = (link.fast_key({"name": "f"}, (die,), {}) for die in (six, four))
    assert by_six is not None and by_four is not None and by_six != by_four  # a fair die is its number of sides
    assert link.fast_key({"name": "f"}, (space["make_fair_dice"](6),), {}) == by_six
    # A test die crosses by value and may be rolled: a call passing one always goes to the kit.
    assert link.fast_key({"name": "f"}, (space["make_test_dice"](1, 2),), {}) is None
    assert link.fast_key({"name": "f"}, (lambda: 1,), {}) is None
    assert link.fast_key({"name": "f"}, (1,), {"a": 1}) is None


def test_a_call_of_whole_numbers_is_keyed_as_call_key_keys_it_and_answered_without_a_word_sent() -> None:
    """Attack: the quick key of a call of whole numbers is call_key's own (so an answer the kit told
    is found), and only for whole numbers of exact type (True, 1.0, text and huge numbers are keyed
    otherwise); a call so answered sends nothing, neither to the parent nor to the kit's child."""
    link = childlink.Link(None, dict, {})
    for args in ((), (0,), (-3, 97), (10 ** 14, -(10 ** 14), 7), (0, 99, childlink.KIT_DEFAULT)):
        keyed = [link.keyed(a) for a in args]
        assert childlink.whole_number_key({"name": "f"}, args, {}) == childlink.call_key("f", keyed, {})
    for args in ((True, 3), (1.0, 3), ("1", 3), (10 ** 15,), (None,)):
        assert childlink.whole_number_key({"name": "f"}, args, {}) is None
    assert childlink.whole_number_key({"name": "f"}, (1,), {"a": 1}) is None
    assert childlink.whole_number_key({"id": 3}, (1,), {}) is None
    assert childlink.whole_number_key({"name": "f"}, tuple(range(100)), {}) is None  # a key kept by its digest
    to_kit, to_parent, back = os.pipe(), os.pipe(), os.pipe()
    try:
        link = childlink.Link([back[0], to_kit[1]], dict, {}, None, to_parent[1])
        link.prepare({"boar_brawl[46,21]": 3, "boar_brawl[True,21]": 9, 'f[2,{"fn":["default",0]}]': 4})
        assert childlink.stand_in(link, {"name": "boar_brawl"}, "boar_brawl")(46, 21) == 3
        assert childlink.stand_in(link, {"name": "f"}, "f")(2, childlink.KIT_DEFAULT) == 4
        for fd in (to_kit[0], to_parent[0]):
            os.set_blocking(fd, False)
            with pytest.raises(BlockingIOError):
                os.read(fd, 1)  # nothing was sent
    finally:
        for fd in (*to_kit, *to_parent, *back):
            os.close(fd)


def test_what_the_kit_raises_and_what_the_student_raises_cross_as_themselves(served: object) -> None:
    """An error the kit's function raises reaches the student as Python's own exception of that
    type; an error of the student's own code, raised in a call back, comes back as the very object."""
    got = run(served, "roll_dice('x')",
              "class Mine(Exception): pass",
              "def bad():\n    raise Mine('mine')",
              "try:\n    roll_dice(2, bad)\nexcept Mine as e:\n    caught = e",
              "type(caught).__name__, str(caught)",
              "def leave():\n    raise SystemExit(3)",
              "roll_dice(1, leave)")
    assert got[0].status == "error" and got[0].error["type"] in ("TypeError", "AssertionError")
    assert got[4].value == ("Mine", "mine")
    assert got[6].status == "error" and got[6].error["type"] == "SystemExit"


def test_only_the_offered_functions_and_plain_values_cross(served: object) -> None:
    """The link carries calls of the functions the kit offers, with values of exact plain types and
    functions: a name it does not offer is refused, and so is any other object."""
    got = run(served, "__hogkit_call__('free_bacon', (1,), {})",
              "__hogkit_call__('__import__', ('os',), {})",
              "roll_dice(2, make_test_dice(1), ) if False else boar_brawl(object(), 1)",
              "boar_brawl(True, 3)")
    assert got[0].status == "error" and got[0].error["type"] == "NameError"
    assert got[1].status == "error" and got[1].error["type"] == "NameError"
    assert got[2].status == "error" and got[2].error["type"] == "TypeError"
    assert got[3].status in ("ok", "error")  # the reference's answer for a bool, whatever it is


def test_the_kits_own_child_reads_no_file_of_the_kit(tmp_path: Path) -> None:
    """The reference reaches the kit's child over its pipe: its staging folder holds an empty file
    in the submission's place and no support file (those come over the pipe too)."""
    session = stubbed(REFERENCE, {"boar_brawl"})
    try:
        assert run(session, "boar_brawl(21, 46)")[0].value == 9
        kit_child = session._kit_child
        assert kit_child is not None and kit_child.serve is session.kit
        staged = {p.name: p.read_text() for p in kit_child.workdir.iterdir() if p.is_file()}
        assert staged == {EDITION.submission: ""}
    finally:
        session.dispose()
    assert kit_child._proc is None and not kit_child.workdir.exists()


def test_a_kit_module_that_does_not_load_is_the_kits_failure() -> None:
    """The kit's own child whose module raises while loading answers nothing: that is the kit's
    failure (a SandboxError, which grading retries and then labels as the kit's), never the student's."""
    fixed, tree, _ = repair(REFERENCE)
    kit = onefunction.KitFunctions("raise ValueError('the kit is broken')\n", ("boar_brawl",), ())
    source = fixed + "\n\ndef boar_brawl(a, b):\n    return __hogkit_call__('boar_brawl', (a, b), {})\n"
    session = open_session(source, EDITION, kit=kit)
    try:
        with pytest.raises(SandboxError, match="the kit's own process for other problems' functions did not start"):
            run(session, "boar_brawl(21, 46)")
    finally:
        session.dispose()


# -- answers worked out beforehand --------------------------------------------------------------

RECORDED = """
def six():
    return 6
def pure(a, b=2):
    return a + b
def rolls(n, dice=six):
    return n * dice() if n else 0
def loud(x):
    print(x)
    return x
def mine(x):
    return x
def reaches_mine(x):
    return mine(x) + 1
def outer(x):
    return rolls(x) + pure(x)
def shaped(pair):
    return [pair, None]
"""


def test_the_answers_kept_beforehand_are_the_pure_calls_as_a_stub_makes_them() -> None:
    """While the kit's child runs a case on the reference it keeps the answers of the calls a stub
    could be answered by: plain values in and out, keyed as a stub's call is (every positional
    parameter in order, a die left to its default as the kit's marker, exact types apart), with the
    problem functions each call reached (the kit hands a student's child only the calls that reached
    none of that student's own functions). Never kept: a call that rolled a die (chance), printed,
    or was passed a function."""
    space: dict = {}
    exec(RECORDED, space)
    recorder = childrecord.Recorder(space, ["pure", "rolls", "loud", "mine", "reaches_mine", "outer", "shaped"])
    calls = ["pure(1)", "pure(1, b=3)", "pure(1.0)", "rolls(0)", "rolls(2)", "loud(5)", "reaches_mine(1)",
             "outer(1)", "rolls(1, lambda: 1)", "shaped((1, 'a'))"]
    assert [eval(c, space) for c in calls] == [3, 4, 3.0, 0, 12, 5, 2, 9, 1, [(1, "a"), None]]
    default = {"fn": ["default", 0]}
    assert recorder.answers == {
        childlink.call_key("pure", [1, 2], {}): [3, []], childlink.call_key("pure", [1, 3], {}): [4, []],
        childlink.call_key("pure", [1.0, 2], {}): [3.0, []], childlink.call_key("rolls", [0, default], {}): [0, []],
        childlink.call_key("mine", [1], {}): [1, []], childlink.call_key("reaches_mine", [1], {}): [2, ["mine"]],
        childlink.call_key("shaped", [{"tuple": [1, "a"]}], {}): [{"list": [{"tuple": [1, "a"]}, None]}, []]}
    # The key is the one the student's end of a link computes for the stub's call.
    link = childlink.Link(None, dict, {})
    packed = [link.pack(v, [0]) for v in (0, childlink.KIT_DEFAULT)]
    assert childlink.call_key("rolls", packed, {}) in recorder.answers


def test_a_call_answered_beforehand_never_reaches_the_kits_child() -> None:
    """A student's child holds the answers the kit worked out for its case (prepared by the
    parent) and answers a stub's call from them: the kit's child starts only for a call they do
    not hold. (The answer planted here is wrong on purpose: it shows where the value came from.)"""
    session = stubbed(REFERENCE, {"boar_brawl"})
    try:
        setup, steps = "from hog import *", ("boar_brawl(21, 46)",)
        session.prepared = {(setup, steps): {childlink.call_key("boar_brawl", [21, 46], {}): 999}}
        assert [r.value for r in session.steps(list(steps), setup, time.monotonic() + 30)] == [999]
        assert session._kit_child is None
        # The child keeps what it was told for its next cases (what its code could have kept
        # itself), and is not told it again.
        assert run(session, "boar_brawl(21, 46) + 0")[0].value == 999 and session._kit_child is None
        assert session._told == {childlink.call_key("boar_brawl", [21, 46], {})}
        session.close()  # a fresh child holds nothing: the kit's child answers
        assert run(session, "boar_brawl(21, 46) + 0")[0].value == 9
        assert session._kit_child is not None and session._told == set()
    finally:
        session.dispose()


def test_a_call_that_rolls_a_test_die_is_told_with_where_the_die_stopped() -> None:
    """A test die that dice.py made rolls as its state says: the kit keeps the answer of a call
    that rolled one it was passed (keyed by the die's state, a seeded game's 512 rolls by their
    digest), with where each of its cells stopped. A child told that answer moves the student's
    die there, so the case goes on as if the kit's function had rolled it, and the kit's child
    never starts. A die of chance (the fair die, which reads the random module) is never kept."""
    skeleton = (EDITION.skeleton_dir / EDITION.submission).read_text(encoding="utf-8")
    session = stubbed(skeleton, {"take_turn", "roll_dice"})
    case = ("from hog import *", ("d = make_test_dice(2, 3, 4, 5)", "take_turn(2, 10, 20, d)", "d(), d()",
                                  "roll_dice(3, d)", "g = make_test_dice(*range(1, 7), *range(1, 60))",
                                  "take_turn(1, 0, 0, g), g()"))
    chance = ("from hog import *", ("roll_dice(1)", "roll_dice(2, make_fair_dice(6))"))
    try:
        answers._HEAVY.update([case, chance])  # (as cases whose calls kept the kit's child busy would be)
        found = session.kit_answers([case, chance], time.monotonic() + 60)
        assert chance not in found  # a die of chance: nothing kept
        told = found[case]
        rolled = {key: answer for key, answer in told.items() if type(answer) is dict}
        # take_turn and the roll_dice it made, for d and for g, and roll_dice(3, d)
        assert len(rolled) == 5 and all(answer["rolled"] for answer in rolled.values())
        assert all(len(key) < 200 for key in told)  # (the 65 outcomes of g by their digest)
        session.close()
        session.prepared = {case: told}
        got = [r.value for r in session.steps(list(case[1]), case[0], time.monotonic() + 30)]
        assert got[1:4] == [5, (4, 5), 9] and got[5] == (1, 2)  # 2+3, then 4, 5, then 2+3+4; g: a 1, then 2
        assert session._kit_child is None
    finally:
        answers._HEAVY.difference_update([case, chance])
        session.dispose()


def test_the_build_works_out_every_hidden_cases_answers_and_a_stale_file_is_passed_over(tmp_path: Path) -> None:
    """`hogkit build` records the kit's answers for every hidden case on the reference (the
    edition's kit-answers.json.xz, checked for freshness with the rest of the build); a process
    takes a file's answers only when it was worked out for this very kit (its module, support
    files and dice), so a stale file is passed over and the kit's child answers instead."""
    data = json.loads(lzma.decompress((EDITION.suite_dir / onefunction.ANSWERS_FILE).read_bytes()))
    kit = onefunction.recording_kit(EDITION)
    assert kit is not None and data["kit"] == answers.answers_key(kit, EDITION.module, EDITION.game.dice)
    hidden = {(c.setup, tuple(s.source for s in c.steps)) for p in EDITION.problems
              for c in load_problem_cases(EDITION, p.label) if c.hidden}
    assert data["cases"] and all((setup, tuple(steps)) in hidden for setup, steps, _ in data["cases"])
    # The file holds what recording the same cases afresh gives (the build trusts it while its
    # kit, its recording code and its hidden cases are unchanged).
    some = data["cases"][::7]
    afresh = sandbox.record_answers(kit, EDITION.module, EDITION.game.dice, sandbox.Limits(),
                                    [(setup, tuple(steps)) for setup, steps, _ in some], time.monotonic() + 120)
    assert afresh == [json.loads(text) for _, _, text in some]
    stale = tmp_path / onefunction.ANSWERS_FILE
    stale.write_bytes(lzma.compress(json.dumps({**data, "kit": "0" * 64}).encode()))
    changed = dataclasses.replace(kit, prepared=str(stale))
    setup, steps, _ = data["cases"][0]
    key = (kit.source, kit.modules, EDITION.module, EDITION.game.dice, (setup, tuple(steps)))
    with answers._ANSWERS_LOCK:
        answers._ANSWERS.pop(key, None)
    answers.seed_answers(changed, EDITION.module, EDITION.game.dice)
    assert key not in answers._ANSWERS
    assert kit.prepared == str(EDITION.suite_dir / onefunction.ANSWERS_FILE)
    with answers._ANSWERS_LOCK:
        answers._SEEDED.discard((kit.prepared, data["kit"]))  # (as in a process that has not read it yet)
    answers.seed_answers(kit, EDITION.module, EDITION.game.dice)
    assert key in answers._ANSWERS


def test_the_kit_works_out_a_heavy_cases_answers_once_on_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """A case whose calls kept the kit's child busy (HEAVY_SECONDS of its processor time) is marked
    heavy; Session.kit_answers then runs each heavy case on the reference in a kit's child of its
    own, recording every problem function's answers, and hands a child only its stubs' calls that
    reached none of its own functions; a second ask is answered from what the process kept."""
    monkeypatch.setattr(answers, "_HEAVY", set())
    skeleton = (EDITION.skeleton_dir / EDITION.submission).read_text(encoding="utf-8")
    session = stubbed(skeleton, {"boar_brawl", "take_turn"})
    try:
        case = ("from hog import *", ("[boar_strategy(s, 46, 5, 3) for s in range(3)]", "take_turn(0, 21, 46)",
                                      "[boar_brawl(s, 46) for s in range(3)]"))
        assert session.kit_answers([case], time.monotonic() + 60) == {}  # not heavy: nothing worked out
        many = ("from hog import *", ("sum(boar_brawl(s, o) for s in range(100) for o in range(100))",))
        list(session.steps(list(many[1]), many[0], time.monotonic() + 60))
        assert many in answers._HEAVY and case not in answers._HEAVY
        answers._HEAVY.add(case)
        first = session.kit_answers([case], time.monotonic() + 60)
        truth = open_session(REFERENCE, EDITION)  # the reference's own values, to compare with
        try:
            brawl = run(truth, case[1][2])[0].value
        finally:
            truth.dispose()
        default = {"fn": ["default", 0]}
        # (boar_strategy is the skeleton's own here: its answers are never handed out)
        assert first[case] == {childlink.call_key("boar_brawl", [s, 46], {}): brawl[s] for s in range(3)} | {
            childlink.call_key("take_turn", [0, 21, 46, default], {}): 9,
            childlink.call_key("boar_brawl", [21, 46], {}): 9}
        assert session.kit_answers([case], time.monotonic() + 60) == first  # kept, not worked out again
        session.prepared = first
        session.close()  # a fresh child, whose kit's child is not started
        # (the skeleton's own boar_strategy rolls NUM_ROLLS; the reference's called the kit's boar_brawl)
        assert [r.value for r in session.steps(list(case[1]), case[0], time.monotonic() + 30)] == [[3, 3, 3], 9, brawl]
        assert session._kit_child is None
    finally:
        session.dispose()


# -- a test the student writes, run beside the reference --------------------------------------

PIG = load_edition("pig")

# A student's take_turn_test that hunts its process (every string and code constant, every module's
# file) for a line of the reference's solutions or of the kit's wrong versions of take_turn (given
# written backwards), after calling take_turn once; it fails when it finds one, and returns otherwise.
PIG_HUNTER = '''
def take_turn_test():
    import gc, sys
    try:
        take_turn(lambda turn_total: roll if turn_total == 0 else hold, make_test_die(4, 1))
    except Exception:
        pass  # (a wrong version may fail here: only what the hunt finds decides)
    wanted = set(line[::-1] for line in BACKWARDS)

    def look(text):
        return isinstance(text, str) and any(line.strip() in wanted for line in text.split("\\n"))

    found = [o for o in gc.get_objects() if look(o)]
    found += [c for o in gc.get_objects() if type(o).__name__ == "code" for c in o.co_consts if look(c)]
    for module in list(sys.modules.values()):
        try:
            found.append(look(open(module.__file__).read()) or None)
        except Exception:
            pass
    assert not [f for f in found if f is not None], "found"
'''


def pig_secrets() -> set[str]:
    """The reference's solution lines and the lines of the kit's wrong versions of take_turn that
    are neither the skeleton's nor the hunter's own."""
    skeleton = (PIG.skeleton_dir / PIG.submission).read_text(encoding="utf-8")
    lines = reference_body_lines((PIG.solution_dir / PIG.submission).read_text(encoding="utf-8"))
    for case in load_problem_cases(PIG, "03"):
        source = getattr(case.check, "source", "") or ""
        lines |= {line.strip() for line in source.split("\n") if len(line.strip()) >= 16}
    return {line for line in lines if line not in skeleton and not line.startswith(("def ", "return "))}


def hunting_test() -> str:
    skeleton = (PIG.skeleton_dir / PIG.submission).read_text(encoding="utf-8")
    hunter = PIG_HUNTER.replace("BACKWARDS", repr(sorted(line[::-1] for line in pig_secrets())))
    return replace_function(skeleton, "take_turn_test", hunter)


@pytest.mark.slow
def test_attack_a_students_test_finds_no_line_of_the_reference_or_its_wrong_versions() -> None:
    """Attack: a take_turn_test (Pig's Problem 3, run beside the reference) that hunts its process
    for the reference's take_turn, roll and hold and for the wrong versions it is run against.
    Guarantee: its module holds stubs of what it tests, and the kit's own child the version of each
    run: the hunter finds nothing in any run, so every run returns (the reference's run passes and
    no wrong version is caught), and take_turn answered it."""
    assert pig_secrets()
    report = grade_source(hunting_test(), PIG, problems=[3], workers=1)
    runs = [c for c in report.problems[0].cases if c.expected in (RUN_PASSES, RUN_FAILS)]
    assert len(runs) >= 5 and {c.got for c in runs} == {RUN_PASSES}, [(c.name, c.got, c.reason) for c in runs]


@pytest.mark.slow
def test_the_pig_hunter_finds_the_lines_where_they_are() -> None:
    """The control: the same hunter, run where the reference's take_turn is in its module (as the
    module of a student's test held it before), finds it and fails."""
    source = hunting_test()
    fixed, tree, _ = repair(source)
    reference = (PIG.solution_dir / PIG.submission).read_text(encoding="utf-8")
    carried = checks.carry(reference, fixed, tree, "take_turn_test", ("take_turn", "roll", "hold"))
    session = open_session(carried.source, PIG)
    try:
        got = session.steps(["take_turn_test()"], "from pig import *", time.monotonic() + 30)
        reply = list(got)[0]
        assert reply.status == "error" and reply.error["message"] == "found", reply.error
    finally:
        session.dispose()


def test_each_refusal_of_the_link_says_what_was_refused(served: object) -> None:
    """Every refusal of a call of the kit's functions, made to fire, with its sentence from
    graders.sandboxing.messages (sent to the child with its settings: it imports nothing of the kit's)."""
    got = run(served, "boar_brawl(object(), 1)", "boar_brawl(list(range(5000)), 1)",
              "import hog; boar_brawl(hog.__hogkit_default__, 1)")
    averaging = stubbed((EDITION.skeleton_dir / EDITION.submission).read_text(encoding="utf-8"), {"make_averaged"})
    try:  # a function the kit handed out in one case, kept for another
        assert run(averaging, "import sys; sys.kept = make_averaged(roll_dice, 1)")[0].status == "ok"
        later = run(averaging, "import sys; sys.kept(1, make_test_dice(2))")
    finally:
        averaging.dispose()
    errors = [(r.error or {}).get("message") for r in got + later]
    assert errors == [link_refusal("not_plain").format("object"), link_refusal("too_large"),
                      link_refusal("no_default").format("player_score"), link_refusal("no_function")]
    plain = open_session("x = 1\n", EDITION)
    try:
        absent = run(plain, "import hog; hog.__hogkit_call__('boar_brawl', (1, 2), {})")[0]
        assert absent.error["message"] == link_refusal("absent")
    finally:
        plain.dispose()
    childlink.WORDS.update({k: link_refusal(k) for k in LINK_REFUSALS})
    with pytest.raises(ValueError, match=link_refusal("unreadable")):
        childlink.Link(None, dict, {}).unpack({"set": [1]}, 0)


def test_a_case_the_kits_child_answers_is_judged_by_processor_time(served: object) -> None:
    """Two processes handing calls back and forth wait for the machine's processors at every call:
    past its deadline, a case whose calls the kit's child answers goes on while both children have
    used less processor time than its budget, up to LINK_GRACE budgets more (here a call back that
    waits 1.5 s without computing, in a case of 1 s). A case that only waits past that ends there.
    The student's child alone is judged so too (see the next test)."""
    slow = "roll_dice(1, lambda: (__import__('time').sleep({}), 3)[1])"
    started = time.monotonic()
    replies = list(served.steps([slow.format(1.5)], "from hog import *", started + 1.0))  # type: ignore[attr-defined]
    assert [(r.status, r.value) for r in replies] == [("ok", 3)]
    started = time.monotonic()
    replies = list(served.steps([slow.format(30)], "from hog import *", started + 1.0))  # type: ignore[attr-defined]
    assert [r.status for r in replies] == ["timeout"] and time.monotonic() - started < 1.0 + LINK_GRACE + 2


def test_a_case_kept_from_the_processor_is_given_its_time_and_an_endless_one_is_not() -> None:
    """Timeout: a class graded several submissions to a core keeps children waiting for a processor.
    A case of 1 s that computes for a moment but is kept off the processors for 1.5 s (its processes
    stopped, as a loaded machine would leave them) still finishes; an endless loop times out when its
    budget of processor time is used, and a case that waits without computing ends LINK_GRACE budgets
    past its deadline."""
    alone = open_session("x = 1\n", EDITION)
    try:
        assert alone._proc is not None
        pids = process_tree(alone._proc.pid)

        def held(seconds: float) -> None:
            time.sleep(0.2)
            for pid in pids:
                os.kill(pid, signal.SIGSTOP)
            time.sleep(seconds)
            for pid in pids:
                os.kill(pid, signal.SIGCONT)

        keeper = threading.Thread(target=held, args=(1.5,))
        keeper.start()
        spin = "import time\ndef spin(s):\n    ends = time.monotonic() + s\n    while time.monotonic() < ends: pass\n" \
               "    return 'done'\n"
        replies = list(alone.steps(["spin(0.5)"], spin, time.monotonic() + 1.0))
        keeper.join()
        assert [(r.status, r.value) for r in replies] == [("ok", "done")]
        started = time.monotonic()
        replies = list(alone.steps(["while True: pass"], "", started + 1.0))
        assert [r.status for r in replies] == ["timeout"] and time.monotonic() - started < 1.0 + LINK_GRACE + 2
        started = time.monotonic()  # (in a child started afresh: the endless one was stopped)
        replies = list(alone.steps(["__import__('time').sleep(30)"], "", started + 1.0))
        assert [r.status for r in replies] == ["timeout"]
        assert 1.0 + LINK_GRACE - 0.5 < time.monotonic() - started < 1.0 + LINK_GRACE + 2
    finally:
        alone.dispose()
