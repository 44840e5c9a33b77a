"""Time limits: each case has its own deadline, and the whole run has one on top of them."""

from __future__ import annotations

import dataclasses

import pytest

from graders.scoring import messages as scoring_messages

from ..conftest import grade_source, problem, replace_function

SLOW_BOAR_BRAWL = """
def boar_brawl(player_score, opponent_score):
    k = 0
    while k < 3000000:
        k += 1
    return max(3 * abs(opponent_score // 10 % 10 - player_score % 10), 1)
"""


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_whole_run_stops_at_its_own_deadline(edition, reference_source):
    """Slow but correct code still cannot keep the grader busy past the run's budget."""
    short = dataclasses.replace(edition, run_timeout=1.5)
    report = grade_source(replace_function(reference_source, "boar_brawl", SLOW_BOAR_BRAWL), short, problems=[2])
    p2 = problem(report, 2)
    assert p2.score == 0
    assert any(c.reason == scoring_messages.run_out_of_time() for c in p2.cases)
    assert p2.cases[-1].status == "not run"


def test_case_timeouts_come_from_the_manifest(edition):
    assert edition.problem(1).timeout == 5.0
    assert edition.problem(5).timeout == 10.0  # case_timeout in the [[problems]] table
    from graders.editions.cases import load_problem_cases

    assert {c.timeout for c in load_problem_cases(edition, 5)} == {10.0}


def test_printed_output_is_capped_by_lines_as_well_as_bytes(edition, reference_source):
    """Many short lines stop being kept after the line cap; the case fails saying so."""
    source = replace_function(reference_source, "boar_brawl", """
        def boar_brawl(player_score, opponent_score):
            k = 0
            while k < 5000:
                print(k)
                k += 1
            return max(3 * abs(opponent_score // 10 % 10 - player_score % 10), 1)
        """)
    report = grade_source(source, edition, problems=[2])
    first = problem(report, 2).cases[0]
    assert not first.passed
    assert first.got.count("\n") < 2100 and scoring_messages.output_cut() in first.got


def test_probes_keep_a_bounded_record_of_calls():
    """A play that never ends calls the probes forever: their records stop at RECORD_MOST (the counts
    go on), so the case ends at its deadline as a time-out rather than as memory used up by the kit."""
    from graders.sandboxing import probes

    spied = probes.counted(lambda *args, **kwargs: 0)
    game = probes.seeded_game(7)
    log = probes.commentary_log()
    say = log.first
    for k in range(probes.RECORD_MOST + 5):
        spied(k, k=k)
        game.strategy0(k, 0)
        say = say(k, 0)
    assert spied.calls == probes.RECORD_MOST + 5
    assert len(spied.args) == len(spied.kwargs) == probes.RECORD_MOST
    assert spied.args[-1] == (probes.RECORD_MOST - 1,)
    assert len(game.calls) == len(log.calls) == probes.RECORD_MOST


def test_output_is_kept_the_same_whether_printed_in_pieces_or_at_once(monkeypatch):
    """print writes each argument, separator and line end on its own: whatever the pieces, the child
    keeps the same text, cut at the same place by the byte cap and the line cap (both lowered here so
    that they fire), with DEBUG lines on their own budget."""
    import random

    from graders.sandboxing import childwire as child

    monkeypatch.setattr(child, "_MAX_TEXT", 300)
    monkeypatch.setattr(child, "_MAX_LINES", 12)
    pieces = ["a", "bb", "D", "DE", "DEBUG:", "DEBUG: x", "\n", "x\n", "\nDEB", "UG:y\n", "z" * 50, "q" * 400, ""]
    rng = random.Random(7)
    cut = 0
    for _ in range(3000):
        written = [rng.choice(pieces) for _ in range(rng.randint(0, 40))]
        apart, whole = child.CappedText(), child.CappedText()
        for piece in written:
            apart.write(piece)
        whole.write("".join(written))
        assert (apart.text(), apart.truncated) == (whole.text(), whole.truncated), written
        assert len(apart.text()) <= 2 * 300 and apart.text().count("\n") <= 2 * 12
        cut += apart.truncated
    assert 100 < cut < 2900  # both sides of the caps were tried


def test_a_child_keeps_a_setups_code_and_never_a_steps(monkeypatch):
    """A case's setup (the edition's import line) is compiled once per child; a step's source is
    never kept, so the code of a later case finds nothing of an earlier one's in the process."""
    from graders.sandboxing import child

    monkeypatch.setattr(child, "_SETUP", {})
    assert child.compiled("import math", "<setup>", "exec") is child.compiled("import math", "<setup>", "exec")
    assert child.compiled("1 + 1", "<case>", "eval") is not child.compiled("1 + 1", "<case>", "eval")
    assert child.compiled("x = 1", "<case>", "eval") is None  # a statement: run in "exec" mode instead
    with pytest.raises(SyntaxError):
        child.compiled("x = = 1\n", "<case>", "exec")
    for k in range(10):
        assert eval(child.compiled(f"{k} * 2", "<case>", "eval")) == 2 * k  # type: ignore[arg-type]
        child.compiled(f"import math  # {k}", "<setup>", "exec")
    assert list(child._SETUP) == ["import math"] + [f"import math  # {k}" for k in range(7)]  # 8 at most


@pytest.mark.timeout(60)
def test_the_rest_of_a_case_left_early_is_not_waited_for(edition, reference_source):
    """A case whose verdict is known at its first step (the judge reads no further) is left early:
    its child is given DRAIN_PATIENCE to finish the rest, then stopped, not waited for until the
    case's own deadline (here two minutes: waiting it out would trip the test's own timeout). The
    next case runs in a fresh child as if nothing happened."""
    import time

    from graders.sandboxing import sandbox

    session = sandbox.open_session(reference_source, edition)
    try:
        replies = session.steps(["6 * 7", "while True: pass"], "", time.monotonic() + 120)
        first = next(replies)
        assert first.status == "ok" and first.value == 42
        replies.close()  # as the judge does once a step has failed
        assert session._proc is None  # stopped after DRAIN_PATIENCE, not drained
        again = list(session.steps(["6 * 7"], "", time.monotonic() + 30))
        assert [(r.status, r.value) for r in again] == [("ok", 42)]
    finally:
        session.dispose()
