"""The sentences of graders/cli/messages.py, each public function called with what it must carry.

Every public function of a sentence module appears in its folder's table: tests/kit/test_messages.py
checks, across the folders, that none is left out.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graders.cli import messages as cli_messages
from graders.courses import messages as courses_messages

from ..sentences import carries, ids

# (function, arguments, texts the result must contain).
EXPECTATIONS: list[tuple[Callable[..., str], tuple, list[str]]] = [
    (cli_messages.demo_heading, ("Hog", 4), ["Hog", "4 submissions"]),
    (cli_messages.demo_next, ("skeleton/boar_brawl", "solution/boar_brawl"), ["hogkit grade skeleton/boar_brawl\n",
                                                                   "hogkit grade solution/boar_brawl;"]),
    (cli_messages.demo_next, ("skeleton/pig", "solution/pig", "pig"), ["hogkit grade skeleton/pig --edition pig"]),
    (cli_messages.demo_phases, ([(1, "Rules of the Game"), (2, "Strategies")],),
     ["Phases: P1 Rules of the Game, P2 Strategies"]),
    (cli_messages.edition_line, ("boar_brawl", "Hog", 2, 24, 1, True),
     ["boar_brawl", "24 points + 1 checkpoint", "(default)"]),
    (cli_messages.build_changed, ("stale", "skeleton/x/hog.py"), ["stale: skeleton/x/hog.py"]),
    (cli_messages.build_fresh, (), ["up to date"]),
    (cli_messages.build_stale_hint, (), ["hogkit build"]),
    (cli_messages.new_edition_written, ("toy", "boar_brawl", 32, "/c"),
     ["toy: 32 files written under /c", "from boar_brawl", "hogkit build --check --edition toy"]),
    (cli_messages.todo_header, ("toy", 3), ["toy: 3 thing(s) still to do, in this order"]),
    (cli_messages.todo_done, ("toy",), ["nothing missing", "hogkit mutants --edition toy"]),
    (cli_messages.autograder_written, ("ag.zip",), ["ag.zip", "autograder"]),
    (cli_messages.autograder_written, ("ag.zip", [(courses_messages.TOTAL_PROBLEMS, 24.0),
                                                  (courses_messages.TOTAL_CHECKPOINT, 1.0),
                                                  (courses_messages.TOTAL_EARLY, 1.0)]),
     ["Set the assignment's total points on Gradescope to 26",
      "24 for the problems, 1 for the checkpoint, 1 for the early bonus"]),
    (cli_messages.class_reused, (7,), ["7 unchanged submissions", "--force"]),
    (cli_messages.edition_declared, ("more_boar", "alice/"),
     ["the edition more_boar", "alice/ declares", "--edition NAME"]),
    (cli_messages.kit_failures_line, (3, "out/kit-errors.log"),
     ["kit failed on 3 submissions", "not the students' fault", "kit error", "out/kit-errors.log",
      "same command again"]),
    (cli_messages.kit_failed_single, ("sub/hog.py", "OSError: disk full"),
     ["kit failed twice", "sub/hog.py", "OSError: disk full", "not of the submission", "traceback follows"]),
    (cli_messages.os_failure, ("out/grades.csv", "No space left on device"),
     ["out/grades.csv: No space left on device"]),
    (cli_messages.os_failure, (None, "No space left on device"), ["No space left on device"]),
    (cli_messages.class_summary_line, (5, 9, 13, 1.5, "out/"), ["Graded 5 of 9", "4 could not be graded", "out/"]),
    (cli_messages.out_needs_a_class_folder, ("gina/hog.py",), ["--out is for a class folder", "gina/hog.py",
                                                    "hogkit grade gina/hog.py"]),
    (cli_messages.jobs_expected, ("0",), ["--jobs", "not '0'"]),
    (cli_messages.released, ("out", "out.zip"), ["out", "out.zip"]),
    (cli_messages.picture_written, ("x.svg",), ["x.svg"]),
    (cli_messages.leaderboard_line, (1, "alice", 3, 0.61), ["1.", "alice", "3 match points", "61.00%"]),
    (cli_messages.contest_written, ("out",), ["out", "leaderboard.csv", "contest.html"]),
    (cli_messages.picture_win_title, ("final_strategy", "always_roll(6)"), ["final_strategy against always_roll(6)",
                                                                 "chance to win"]),
    (cli_messages.unrecognized_arguments, ("extra",), ["unrecognized arguments: extra"]),
    (cli_messages.cannot_write, ("/proc/x.svg", "No such file or directory"), ["cannot write /proc/x.svg",
                                                                   "No such file or directory", "nothing was done"]),
    (cli_messages.class_folder_hint, (), ["class folder", "--out OUTDIR"]),
    (cli_messages.mutants_written, (["out/mutants.md", "out/mutants.json"],), ["out/mutants.md, out/mutants.json"]),
    (cli_messages.trust_file_times_needs_course, (), ["--trust-file-times", "--course DIR"]),
    (cli_messages.course_needs_out, (), ["--out OUTDIR", "--course DIR"]),
    (cli_messages.course_whole_project, (), ["whole project", "leave out -q"]),
    (cli_messages.course_edition_differs, ("boar_brawl", "pig_tail"), ["for 'boar_brawl', not 'pig_tail'"]),
    (cli_messages.no_such_phase, (3, [1, 2]), ["no Phase 3", "1, 2"]),
    (cli_messages.leaderboard_more, (7,), ["… and 7 more in leaderboard.csv"]),
    (cli_messages.contest_invalid, (["bad"],), ["1 entry could not play (bad)", "say why"]),
    (cli_messages.contest_invalid, ([f"s{k}" for k in range(7)],),
     ["7 entries could not play (s0, s1, s2, s3, s4, and 2 more)"]),
    (cli_messages.reason_no_folder, ("out/typo",), ["no folder out/typo", "make it first"]),
    (cli_messages.ta_report_written, ("out", 12, 10), ["out", "12 submissions", "ta-report.md", "runs.png"]),
    (cli_messages.similarity_written, ("out", 12, 3, 1.25),
     ["12 submissions", "1.2 s", "3 pairs stand out", "similarity.html", "no grade is changed"]),
    (cli_messages.shard_needs_out, (), ["--shard", "--out OUTDIR"]),
    (cli_messages.shard_written, ("2/3", 4, 5, 1.25, "out2"), ["Shard 2/3", "graded 4 of its 5", "1.2 s", "out2",
                                                  "all 3 shards", "hogkit merge OUTDIR1 ... OUTDIR3 --out OUTDIR"]),
    (cli_messages.merge_summary_line, (40, 3, 2.5, "merged"),
     ["Merged 40 submissions from 3 shards in 2.5 s", "merged"]),
]


@pytest.mark.parametrize(("fn", "args", "needles"), EXPECTATIONS, ids=ids(EXPECTATIONS))
def test_message_carries_what_it_must(fn: Callable[..., str], args: tuple, needles: list[str]) -> None:
    carries(fn, args, needles)
