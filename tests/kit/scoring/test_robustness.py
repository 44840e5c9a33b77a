"""What real submissions and real kits throw at the grader: byte-order marks, files that cannot be
loaded at all, debugging prints, printing instead of returning, stale generated files."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from graders.authoring.artifacts import build
from graders.core import messages
from graders.editions.edition import kit_root, load_edition
from graders.sandboxing import messages as sandboxing_messages
from graders.sandboxing.sandbox import Limits
from graders.scoring import messages as scoring_messages

from ..conftest import grade_source, problem, replace_function


def test_a_byte_order_mark_changes_nothing(edition, reference_source, tmp_path):
    from graders.scoring.grading import grade
    from graders.scoring.submissions import load_submission

    path = tmp_path / "hog.py"
    path.write_bytes(b"\xef\xbb\xbf" + reference_source.encode("utf-8"))
    report = grade(load_submission(tmp_path, edition), edition, problems=[1, 2])
    assert report.total == 4 and not report.notes


def test_a_file_that_cannot_be_loaded_still_gets_a_report(edition, reference_source):
    """Every attempt ends the program: after the allowed number of skips the grader gives up on
    loading, says so once, and every problem that needs code fails without an exception."""
    exits = "\n".join(f"import os\nos._exit({k})" for k in range(1, 6))
    report = grade_source(reference_source + "\n" + exits + "\n", edition, problems=[1, 2],
                          limits=Limits(most_skipped=2))
    assert report.total == 0
    assert messages.could_not_load("hog.py") in report.notes
    for n in (1, 2):
        assert {c.status for c in problem(report, n).cases} == {"not run"}
        assert problem(report, n).cases[0].reason == messages.could_not_load("hog.py")


def test_many_skipped_statements_within_the_limit_are_each_noted(edition, reference_source):
    exits = "\n".join(f"import os\nos._exit({k})" for k in range(1, 4))
    report = grade_source(reference_source + "\n" + exits + "\n", edition, problems=[2])
    assert report.total == 2
    assert sum(sandboxing_messages.skipped_statement("ended the program") in n for n in report.notes) == 3
    lines = [int(n.split("line ")[1].split(":")[0]) for n in report.notes]
    assert lines == sorted(lines)


def test_debug_prints_inside_a_shaped_function_keep_the_shape_rule(edition, reference_source):
    source = replace_function(reference_source, "boar_brawl", """
        def boar_brawl(player_score, opponent_score):
            tens = opponent_score // 10 % 10
            print(f"DEBUG: tens is {tens}")
            print("DEBUG: ones is %d" % (player_score % 10))
            return max(3 * abs(tens - player_score % 10), 1)
        """)
    report = grade_source(source, edition, problems=[2])
    assert problem(report, 2).score == 2
    assert all(r.passed for r in problem(report, 2).rules)


def test_a_print_that_is_not_debug_still_counts_for_the_shape_rule(edition, reference_source):
    source = replace_function(reference_source, "boar_brawl", """
        def boar_brawl(player_score, opponent_score):
            print(f"tens is {opponent_score // 10 % 10}")
            return max(3 * abs(opponent_score // 10 % 10 - player_score % 10), 1)
        """)
    rule = problem(grade_source(source, edition, problems=[2]), 2).rules[0]
    assert not rule.passed and "f-string" in rule.detail


def test_printing_instead_of_returning_fails_the_public_cases(edition, reference_source):
    source = replace_function(reference_source, "boar_brawl", """
        def boar_brawl(player_score, opponent_score):
            print(max(3 * abs(opponent_score // 10 % 10 - player_score % 10), 1))
        """)
    report = grade_source(source, edition, problems=[2], include_hidden=False)
    assert problem(report, 2).score == 0
    failed = [c for c in problem(report, 2).cases if not c.passed]
    assert any(c.name == "boar_brawl returns its result instead of printing it" for c in failed)
    assert any(c.reason == scoring_messages.printed_not_returned("9") for c in failed), [c.reason for c in failed]


def test_a_function_with_a_syntax_error_is_named_in_its_rules(edition, reference_source):
    source = replace_function(reference_source, "take_turn", """
        def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
            return roll_dice(num_rolls, dice
        """)
    report = grade_source(source, edition, problems=[1, 2, 3])
    p3 = problem(report, 3)
    line = next(n for n, text in enumerate(source.split("\n"), 1) if "return roll_dice(num_rolls, dice" in text)
    assert p3.rules[0].detail == scoring_messages.removed_for_syntax("take_turn", "hog.py", line)
    assert p3.reason == scoring_messages.removed_for_syntax("take_turn", "hog.py", line)


def test_a_misspelt_function_gets_a_suggestion(edition, reference_source):
    source = reference_source.replace("def roll_dice(", "def rol_dice(")
    report = grade_source(source, edition, problems=[1])
    assert problem(report, 1).reason == scoring_messages.missing_function("hog.py", "roll_dice", ["rol_dice"])


@pytest.mark.slow
def test_build_removes_what_it_would_not_write(tmp_path, monkeypatch):
    copy = tmp_path / "kit"
    shutil.copytree(kit_root(), copy, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info"))
    edition = load_edition("boar_brawl", copy)
    leftover = edition.suite_dir / "q07.generated.toml"
    leftover.write_text("[[case]]\nname = 'old'\ntranscript = '>>> 1\\n1\\n'\n", encoding="utf-8")
    extra = edition.skeleton_dir / "tests" / "q13.json"
    extra.write_text('{"problem": 13}\n', encoding="utf-8")
    stale = build(edition, write=False)
    assert leftover in stale
    changed = build(edition)
    assert leftover in changed and extra in changed
    assert not leftover.exists() and not extra.exists()
    assert build(edition, write=False) == []


def test_answers_into_a_closed_pipe_is_quiet():
    done = subprocess.run(f"{sys.executable} -m graders.cli answers | head -1", shell=True, cwd=kit_root(),
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.startswith("Problem 00")
    assert "Traceback" not in done.stderr



@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("seed", [27])
def test_a_class_of_odd_hand_ins_grades_everyone_else(edition, reference_source, tmp_path, seed):
    """Fuzz: a class holding generated odd hand-ins of every kind (zips with corrupt streams, cut
    short, of noise, nested; notebooks of noise, too deep, of the wrong shapes; folders nested past
    the recursion limit, with link loops, a FIFO or a folder for hog.py, a manifest linked to
    /proc/self/mem, thousands of files; hostile and undecodable names; forged, broken, linked and
    oversized activity logs) beside two honest students.

    Guarantee: grade --out, report and contest each finish and write every output; the honest
    students get full marks and a place on the leaderboard; every entry has its row in grades.csv.
    """
    import csv

    from graders.cli import main as hogkit
    from graders.scoring.submissions import discover

    from ..oddhandins import odd_class, remove_deep

    folder = tmp_path / "class"
    odd_class(folder, reference_source, seed)
    (folder / "alice.py").write_text(reference_source, encoding="utf-8")
    (folder / "bob").mkdir()
    (folder / "bob" / "hog.py").write_text(reference_source, encoding="utf-8")
    out = tmp_path / "out"
    try:
        entries = discover(folder, edition.submission)
        for route in ("grade", "report", "contest"):
            jobs = ["--jobs", "2"] if route != "report" else []
            assert hogkit([route, str(folder), "--out", str(out / route), "--edition", edition.name, *jobs]) == 0
    finally:
        remove_deep(folder / "f-deep")
    for route, names in {"grade": ("grades.csv", "summary.md", "records.jsonl", "histogram.png", "histogram.svg"),
                         "report": ("ta-report.md", "wrong-answers.csv", "unlock.csv", "test-runs.csv", "runs.png"),
                         "contest": ("leaderboard.csv", "contest.html")}.items():
        for name in names:
            assert (out / route / name).is_file(), (route, name)
    with open(out / "grade" / "grades.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(entries)
    totals = {row["student"]: row["total"] for row in rows}
    assert totals["alice"] == totals["bob"] == str(edition.max_points)
    board = (out / "contest" / "leaderboard.csv").read_text(encoding="utf-8")
    assert "alice" in board and "bob" in board


def test_a_walk_is_capped_in_depth_and_names_and_never_follows_a_link(tmp_path):
    """walk_files: breadth first, name order, no link followed (to a file or a folder), no folder
    past the depth cap, no name past the count cap."""
    from graders.scoring.submissions import walk_files

    (tmp_path / "a" / "b" / "c").mkdir(parents=True)
    for path in ("top.py", "a/one.py", "a/b/two.py", "a/b/c/three.py"):
        (tmp_path / path).write_text("", encoding="utf-8")
    (tmp_path / "linked").symlink_to(tmp_path / "a")
    (tmp_path / "link.py").symlink_to(tmp_path / "top.py")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "secret.py").write_text("", encoding="utf-8")
    every = [p.relative_to(tmp_path).as_posix() for p in walk_files(tmp_path, lambda d: not d.startswith("."))]
    assert every == ["top.py", "a/one.py", "a/b/two.py", "a/b/c/three.py"]
    shallow = [p.name for p in walk_files(tmp_path, lambda d: True, most_depth=1)]
    assert shallow == ["top.py", "secret.py", "one.py"]  # breadth first: every folder of a level in name order
    assert [p.name for p in walk_files(tmp_path, lambda d: True, most_walked=5)] == ["top.py"]
