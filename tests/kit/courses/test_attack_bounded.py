"""Attacks on the grader's own side: one hand-in built to stall or flood the grading of a whole class.

Each test states the attack and what the kit guarantees. The analyses the grader makes of a hand-in
in its own process (shape rules, similarity fingerprints, reading a notebook) are linear and have a
deadline; a hand-in past the size limit, or past what an analysis can bound, is a labelled row of
its own; loading has one budget for a whole grade; a stopped class leaves nothing behind. Work is
measured by what was done (syntax nodes visited, steps, statements started), never by a timed
assertion: pytest-timeout stops a test that stalls.
"""

from __future__ import annotations

import ast
import json
import os
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from graders.core import messages
from graders.core.budget import Budget, OverBudget
from graders.courses import fingerprints, similarity
from graders.courses import messages as courses_messages
from graders.courses.classroom import grade_class, read_record
from graders.editions.edition import Edition
from graders.sandboxing import sandbox
from graders.sandboxing.sandbox import Limits
from graders.scoring import messages as scoring_messages
from graders.scoring import submissions
from graders.scoring.astrules import RuleChecker
from graders.scoring.submissions import MAX_SOURCE_BYTES, read_entry

from ..conftest import grade_source, problem
from ..oddhandins import many_helpers, one_big_helper
from .test_class_interrupt import hogkit_command, make_class, rest_of_stderr, until_first_graded

ROOT = Path(__file__).resolve().parents[3]
MIB = 1024 * 1024


def all_rules(edition: Edition) -> list:
    return [r for p in edition.problems for r in p.rules]


# -- shape rules ------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_shape_rules_of_a_mebibyte_of_functions_visit_each_node_once(edition, reference_source):
    """Attack: a 1 MiB hog.py of tens of thousands of one-line helpers, each calling the next, all
    reached from boar_brawl, so that every rule walks them all (reachability was quadratic: 36 s of
    the grader's processor for the four rules of Boar Brawl, more for more rules).

    Guarantee: each syntax node is visited once for all the rules together, and a rule asked again
    costs nothing more: the rules hold as they do on the reference."""
    source = many_helpers(reference_source, MIB)
    tree = ast.parse(source)
    nodes = sum(1 for _ in ast.walk(tree))
    checker = RuleChecker(tree, seconds=None)  # the work is counted here; the deadline is tested below
    results = checker.check_all(all_rules(edition))
    assert all(r.passed for r in results), [r.detail for r in results if not r.passed]
    assert checker.visits <= nodes, (checker.visits, nodes)
    before = checker.visits
    assert all(r.passed for r in checker.check_all(all_rules(edition) * 5))
    assert checker.visits == before


def test_the_work_of_the_shape_rules_grows_as_the_hand_in_does(edition, reference_source):
    """Twice the helpers, twice the nodes visited (not four times), however the rules reach them."""
    visits = []
    for size in (32 * 1024, 64 * 1024):
        checker = RuleChecker(ast.parse(many_helpers(reference_source, len(reference_source) + size)))
        checker.check_all(all_rules(edition))
        visits.append(checker.visits)
    assert visits[1] < 2.2 * visits[0], visits


NESTED_WITH = """
def boar_brawl(player_score, opponent_score):
    return max(1, 3 * abs(opponent_score // 10 % 10 - player_score % 10)) + {names}

{blocks}
"""


def test_top_level_blocks_nested_deep_are_walked_once(edition):
    """Attack: top-level ``with`` blocks nested as deep as Python allows, each binding a name
    boar_brawl reads, with a large body at the bottom: walked whole once per block, the bottom was
    walked a hundred times for each rule.

    Guarantee: each node once, and a forbidden construct at the bottom is still found, at its line."""
    depth = 90
    blocks = "\n".join("    " * k + f"with open('x') as w{k}:" for k in range(depth))
    body = "\n".join("    " * depth + f"v{k} = {k}" for k in range(3000)) + "\n" + "    " * depth + "s = str(1)"
    source = NESTED_WITH.format(names=" + ".join(f"w{k}" for k in range(depth)), blocks=blocks + "\n" + body)
    tree = ast.parse(source)
    rule = next(r for r in all_rules(edition) if r.function == "boar_brawl")
    checker = RuleChecker(tree)
    (result,) = checker.check_all([rule])
    assert not result.passed and result.line == len(source.split("\n")) - 1, result
    assert checker.visits <= sum(1 for _ in ast.walk(tree))


def test_shape_rules_past_their_deadline_are_labelled_not_stalled(edition, reference_source):
    """Guarantee: when the shape rules of a hand-in run past their deadline, every rule not yet
    checked fails at once with a sentence saying so (and why): a labelled result, never a wait."""
    tree = ast.parse(many_helpers(reference_source, 64 * 1024))
    results = RuleChecker(tree, seconds=0.0).check_all(all_rules(edition))
    assert results and all(not r.passed for r in results)
    for r in results:
        assert r.detail == scoring_messages.rule_not_checked(r.function, "hog.py", 0.0)


# -- similarity -------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_mebibyte_helper_is_fingerprinted_in_linear_time(edition, reference_source):
    """Attack: one helper of 1 MiB, tens of thousands of calls and then as many assignments never
    read, which the similarity report's normal form removes (one list.remove each: minutes).

    Guarantee: fingerprinting is linear (here: done well inside pytest-timeout), the helper is
    compared like any other, and the report of a class holding it is written."""
    source = one_big_helper(reference_source, MIB)
    held = similarity.holder("mallory", source, edition)
    assert "big_helper" in {u.name for _, u in held.units} and not held.note
    steps = []
    for size in (64 * 1024, 128 * 1024):
        budget = Budget()
        fingerprints.functions_of(one_big_helper("", size), (), {}, budget=budget)
        steps.append(budget.steps)
    assert steps[1] < 2.2 * steps[0], steps


def test_a_hand_in_past_the_fingerprint_deadline_is_left_out_with_a_note(tmp_path, edition, reference_source,
                                                                            monkeypatch):
    """Guarantee: a submission whose fingerprints run past their deadline is left out of the
    similarity report, which says so by name; the others are compared as ever."""
    with pytest.raises(OverBudget):
        fingerprints.functions_of(reference_source, (), {}, budget=Budget(0.0))
    for name in ("ann", "ben"):
        (tmp_path / f"{name}.py").write_text(reference_source, encoding="utf-8")
    monkeypatch.setattr(similarity, "FINGERPRINT_SECONDS", 0.0)
    report = similarity.compare(tmp_path, edition)
    note = courses_messages.similarity_too_long("ann", 0.0)
    assert note in report.notes and "ann" not in report.unreadable
    assert note.replace("'", "&#x27;") in similarity.render_html(report)


def test_a_hand_in_of_thousands_of_helpers_is_compared_on_the_first(edition, skeleton_source):
    source = skeleton_source + "".join(f"\ndef h{k}(x):\n    return x * {k} + {k}\n" for k in range(500))
    held = similarity.holder("mallory", source, edition)
    assert len([u for label, u in held.units if label == similarity.HELPER]) == similarity.MOST_HELPERS
    assert held.note == courses_messages.similarity_helpers_cut("mallory", 500, similarity.MOST_HELPERS)


# -- a notebook whose reading warns thousands of times ----------------------------------------------


def duplicate_ids_notebook(code: str, cells: int) -> str:
    """A notebook of CELLS markdown cells and one code cell holding CODE, every cell with the same id."""
    book = {"nbformat": 4, "nbformat_minor": 5, "metadata": {},
            "cells": [{"cell_type": "code", "id": "same", "metadata": {}, "source": code, "outputs": [],
                       "execution_count": None}]
            + [{"cell_type": "markdown", "id": "same", "metadata": {}, "source": ""} for _ in range(cells)]}
    return json.dumps(book, separators=(",", ":"))


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_notebook_with_one_cell_id_everywhere_is_one_note_not_a_flood(tmp_path, edition, reference_source, capfd):
    """Attack: a notebook whose thousands of cells share one id; nbformat warns once per cell, each
    warning different, so the grader's terminal scrolled with ~16,000 lines.

    Guarantee: nothing reaches the grader's standard error; the hand-in is graded, and its record
    holds one note saying how many warnings reading it gave."""
    folder = tmp_path / "class"
    folder.mkdir()
    text = duplicate_ids_notebook(reference_source, 15_000)
    assert len(text) < submissions.MAX_BYTES
    (folder / "mallory.ipynb").write_text(text, encoding="utf-8")
    capfd.readouterr()
    grade_class(folder, edition, tmp_path / "out", jobs=1)
    err = capfd.readouterr().err
    assert "cell id" not in err and "DuplicateCellId" not in err and len(err.splitlines()) < 5, err[:2000]
    record = read_record(tmp_path / "out" / "records" / "mallory.json.gz")
    assert record["status"] == "graded" and record["total"] == record["max"]
    said = [n for n in record["notes"] if "reading this notebook gave a warning" in n]
    assert len(said) == 1 and "15,000 times" in said[0] and "Non-unique cell id 'same' detected" in said[0], said


def test_a_notebook_read_elsewhere_warns_no_one_either(tmp_path, reference_source, capfd):
    """The same notebook read for the Gradescope route's cell numbers, and for a single grade."""
    data = duplicate_ids_notebook(reference_source, 500).encode("utf-8")
    capfd.readouterr()
    assert submissions.notebook_cells(data) is not None
    source, why, notes = submissions.notebook_read(data, "mallory.ipynb")
    assert source is not None and len(notes) == 1 and "500 times" in notes[0]
    assert capfd.readouterr().err == ""


# -- a class stopped part-way -----------------------------------------------------------------------


def stop_a_class(tmp_path: Path, reference_source: str, skeleton_source: str, env: dict[str, str],
                 twice: bool) -> tuple[int, str, Path]:
    """Grade a class of six in a process of its own (its temporary folder TMPDIR/tmp), stop it once
    its first submission is graded (SIGINT; with TWICE, SIGTERM and then SIGINT at once); (status,
    standard error, the temporary folder)."""
    folder, tmp = tmp_path / "class", tmp_path / "tmp"
    make_class(folder, reference_source, skeleton_source, 6)
    tmp.mkdir()
    proc = subprocess.Popen(hogkit_command(folder, tmp_path / "out"), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp), **env})
    assert proc.stderr is not None
    seen = until_first_graded(proc)
    proc.send_signal(signal.SIGTERM if twice else signal.SIGINT)
    if twice:
        for line in proc.stderr:
            seen.append(line)
            if "stopping" in line:
                proc.send_signal(signal.SIGINT)
                break
    seen.append(rest_of_stderr(proc, 60))
    return proc.returncode, "".join(seen), tmp


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize(("env", "twice"), [({"HOGKIT_FORKSERVER": "off"}, False), ({"HOGKIT_FORKSERVER": "off"}, True),
                                            ({}, True)], ids=["runner-folders-ctrl-c", "runner-folders-at-once",
                                                              "fork-server-at-once"])
def test_a_class_stopped_part_way_leaves_nothing_in_the_temporary_folder(tmp_path, reference_source,
                                                                        skeleton_source, env, twice):
    """Attack (of circumstance): Ctrl-C on a class grade while children run, or a job's time limit
    (SIGTERM) and then Ctrl-C, which ends the process at once.

    Guarantee: no runner, staging, fork server or build folder of the kit's (hogkit-*) is left in
    the temporary folder, whichever way the children were started."""
    code, err, tmp = stop_a_class(tmp_path, reference_source, skeleton_source, env, twice)
    assert code == 130, err
    assert sorted(p.name for p in tmp.iterdir() if p.name.startswith("hogkit-")) == [], err


SCRATCH_THEN = """
import os, sys
from graders.core import scratch
made = scratch.make("hogkit-runner-")
(made / "child.pyc").write_bytes(b"x")
print(made, flush=True)
if sys.argv[1] == "interrupt":
    raise KeyboardInterrupt
scratch.remove_all()
os._exit(130)
"""


@pytest.mark.parametrize("how", ["interrupt", "at-once"])
def test_a_scratch_folder_never_outlives_its_process(tmp_path, how):
    """Ctrl-C that ends the process (atexit), and an end at once (os._exit after remove_all)."""
    done = subprocess.run([sys.executable, "-c", SCRATCH_THEN, how], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)})
    made = Path(done.stdout.strip())
    assert made.parent == tmp_path and made.name.startswith("hogkit-runner-"), done.stderr
    assert not made.exists() and list(tmp_path.iterdir()) == []


# -- loading: one budget for the whole grade --------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_twelve_slow_statements_are_labelled_within_one_budget(edition, reference_source, monkeypatch):
    """Attack: twelve top-level statements just under the limit for one statement (4.5 s of 5), so
    that each of the grade's children (its own and its hidden cases' groups) waited out the whole
    loading budget afresh: 54 s for one grade, 120 s in a class.

    Guarantee: the grade's children share one loading budget; once it is spent the submission is
    labelled as one that could not be loaded, and no other child waits it out again. (Here a
    statement takes 0.45 s of 0.5 and the budget is 2 s: the children start, together, about as many
    statements as one budget holds, not as many again for each child.)"""
    started: list[int] = []
    real = sandbox.Session._await_import

    def counted(self, budget_ends):
        before = len(self._stmt_lines)
        try:
            return real(self, budget_ends)
        finally:
            started.append(len(self._stmt_lines) - before)

    monkeypatch.setattr(sandbox.Session, "_await_import", counted)
    source = "import time\n" + "time.sleep(0.45)\n" * 12 + reference_source
    report = grade_source(source, edition, problems=[2, 3, 5], limits=Limits(import_seconds=0.5, import_budget=2.0),
                          workers=2)
    assert messages.could_not_load("hog.py") in report.notes
    assert problem(report, 2).score == 0
    assert sum(started) <= 2.0 / 0.45 + 3, started  # one budget's worth (and the import), not one per child


# -- size and depth -------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_hand_in_past_the_size_limit_is_its_own_row_and_the_class_goes_on(tmp_path, edition, reference_source,
                                                                           skeleton_source):
    """Attack: a 600 KiB hog.py (a long comment, or generated code) in a class of three.

    Guarantee: its row says it is too large, with its size and the limit, and nothing analyses it;
    the others are graded as ever."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ann.py").write_text(reference_source, encoding="utf-8")
    (folder / "bob.py").write_text(skeleton_source, encoding="utf-8")
    big = reference_source + "# padding\n" * (600 * 1024 // 10)
    (folder / "zed.py").write_text(big, encoding="utf-8")
    records = {r.student: r for r in grade_class(folder, edition, tmp_path / "out", jobs=2)}
    assert str(records["zed"].status) == "too large" and records["zed"].report is None
    size = len(big.encode("utf-8"))
    assert records["zed"].reason == scoring_messages.source_too_large(str(folder / "zed.py"), size, MAX_SOURCE_BYTES)
    assert f"{size / 1024:,.0f} KiB" in records["zed"].reason and "512 KiB" in records["zed"].reason
    assert records["ann"].graded and records["ann"].total == records["ann"].max
    assert records["bob"].graded and records["bob"].total == 0
    grades = (tmp_path / "out" / "grades.csv").read_text(encoding="utf-8")
    assert "zed,too large" in grades


def test_the_size_limit_holds_for_every_kind_of_hand_in(tmp_path, edition, reference_source):
    """A notebook whose code cells together pass the limit, a zip's hog.py, a folder's: each is too
    large by its code, and ``hogkit grade`` of one says so and grades nothing (status 2)."""
    from graders.cli import main as hogkit

    code = reference_source + "# padding\n" * (MAX_SOURCE_BYTES // 10)
    (tmp_path / "nb.ipynb").write_text(json.dumps({"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "source": code, "outputs": [], "execution_count": None}]}),
        encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "z.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("project/hog.py", code)
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "hog.py").write_text(code, encoding="utf-8")
    for name in ("nb.ipynb", "z.zip", "folder"):
        source, status, reason = read_entry(tmp_path / name, "hog.py")
        assert (source, status) == (None, "too large") and "512 KiB a submission may have" in reason, reason
    assert read_entry(tmp_path / "folder", "hog.py")[2] == scoring_messages.source_too_large(
        str(tmp_path / "folder" / "hog.py"), len(code.encode("utf-8")), MAX_SOURCE_BYTES)
    assert hogkit(["grade", str(tmp_path / "folder" / "hog.py"), "-q", "01"]) == 2


def deep_sources(reference: str) -> dict[str, str]:
    """The reference with boar_brawl holding a call chain 2,500 deep (it parses, but walking it
    recursively overflows the stack) or 20,000 deep (Python itself refuses to parse it)."""
    def nested(depth: int) -> str:
        return reference.replace("def boar_brawl(player_score, opponent_score):",
                                 "def boar_brawl(player_score, opponent_score):\n    if player_score < 0:\n"
                                 "        return f" + "()" * depth, 1)
    return {"deep": nested(2500), "deeper": nested(20_000)}


def test_a_hand_in_nested_thousands_deep_never_stops_an_analysis(tmp_path, edition, reference_source):
    """Attack: an expression nested thousands of levels deep, which a recursive walk of its syntax
    tree (or the parser itself) overflows.

    Guarantee: no analysis of the grader's raises for it: the shape rules, the similarity report
    and the plan of a grade each give a labelled result (the function left out, the syntax said)."""
    from graders.scoring.grading import plan_grading

    rule = next(r for r in all_rules(edition) if r.function == "boar_brawl")
    for name, source in deep_sources(reference_source).items():
        (tmp_path / f"{name}.py").write_text(source, encoding="utf-8")
        plan = plan_grading(source, edition, [2], None, True)
        (result,) = plan.rules["02"]
        if plan.tree is not None:  # it parses: the rule is checked, without recursion
            assert result.passed, result.detail
            tree = ast.parse(source)
            assert RuleChecker(tree).check(rule).passed
        else:  # Python refuses it: said, and the rule cannot hold
            assert not result.passed and any("RecursionError" in n or "MemoryError" in n for n in plan.notes)
        held = similarity.holder(name, source, edition)
        assert "boar_brawl" not in {u.name for _, u in held.units}
        assert len(held.units) > 5 if plan.tree is not None else held.units == ()
    (tmp_path / "ann.py").write_text(reference_source, encoding="utf-8")
    report = similarity.compare(tmp_path, edition)
    assert report.students == 3 and set(report.unreadable) <= {"deeper"}


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_class_holding_deep_hand_ins_is_graded_row_by_row(tmp_path, edition, reference_source):
    """The same hand-ins in a class: each gets a row, the others are graded, every file is written."""
    folder = tmp_path / "class"
    folder.mkdir()
    for name, source in deep_sources(reference_source).items():
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
    (folder / "ann.py").write_text(reference_source, encoding="utf-8")
    records = {r.student: r for r in grade_class(folder, edition, tmp_path / "out", jobs=2)}
    assert {str(r.status) for r in records.values()} == {"graded"}, {k: r.reason for k, r in records.items()}
    assert records["ann"].total == records["ann"].max
    assert records["deep"].total < records["deep"].max and records["deeper"].total < records["deeper"].max
    for name in ("grades.csv", "summary.md", "similarity.html"):
        assert (tmp_path / "out" / name).is_file()
