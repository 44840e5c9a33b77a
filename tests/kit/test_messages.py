"""Every message: each public function of every sentence module is called and carries its names, numbers, commands.

The sentence modules are graders/**/*messages.py: graders.core.messages (the shared sentences and the
text helpers), each folder's own messages.py and graders/cli/messages.py. They are found and
keyed by their path, so two modules of one name never hide each other.
"""

from __future__ import annotations

import importlib
import inspect
import string
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

import graders
from graders.authoring import messages as authoring_messages
from graders.cli import messages as cli_messages
from graders.core import messages
from graders.courses import messages as courses_messages
from graders.editions import messages as editions_messages
from graders.games import messages as games_messages
from graders.gui import messages as gui_messages
from graders.runner import messages as runner_messages
from graders.sandboxing import messages as sandboxing_messages
from graders.scoring import messages as scoring_messages

# (function, arguments, texts the result must contain). Every public function must appear here.
EXPECTATIONS: list[tuple[Callable[..., str], tuple, list[str]]] = [
    (messages.visible, ("3 ",), ["3·"]),
    (messages.plural, (2, "pair"), ["2 pairs"]),
    (messages.plural, (1, "submission"), ["1 submission"]),
    (messages.indent, ("a\nb", "  "), ["  a\n  b"]),
    (messages.student_command, ("05",), ["python3 ok -q 05"]),
    (messages.student_command, ("05", "-u"), ["python3 ok -q 05 -u"]),
    (scoring_messages.instructor_command, ("sub/hog.py", "05", "boar_brawl"),
     ["hogkit grade sub/hog.py", "--edition boar_brawl", "-q 05", "--verbose"]),
    (scoring_messages.wrong_output, ("3", "3 "), ["3·", "expected 3"]),
    (scoring_messages.printed_not_returned, ("9",), ["expected nothing", "9 was printed", "instead of returning"]),
    (messages.raised, ({"type": "ZeroDivisionError", "message": "division by zero", "line": 12}, "hog.py"),
     ["ZeroDivisionError", "division by zero", "hog.py line 12"]),
    (scoring_messages.expected_error_but_none, ("7",), ["expected an error", "7"]),
    (scoring_messages.wrong_error_type, ("TypeError", {"type": "ValueError", "message": "bad"}, "hog.py"),
     ["TypeError", "ValueError", "bad"]),
    (scoring_messages.timed_out, (5.0,), ["5 s"]),
    (scoring_messages.expected_loop_but_finished, (), ["endless loop", "finished"]),
    (scoring_messages.crashed, (), ["ended"]),
    (scoring_messages.not_a_function, ("12",), ["function", "12"]),
    (scoring_messages.object_value, ("Widget",), ["Widget"]),
    (scoring_messages.function_value, ("roll_dice",), ["<function roll_dice>"]),
    (scoring_messages.output_cut, (), ["cut short"]),
    (scoring_messages.not_run, (), ["not run"]),
    (messages.unreadable_submission, ("hog.py",), ["hog.py"]),
    (scoring_messages.missing_function, ("hog.py", "take_turn", []), ["take_turn", "hog.py"]),
    (scoring_messages.missing_function, ("hog.py", "take_turn", ["take_trun"]),
     ["take_turn", "found take_trun", "exactly"]),
    (messages.could_not_load, ("pig.py",), ["pig.py", "could not be loaded"]),
    (scoring_messages.removed_for_syntax, ("take_turn", "hog.py", 40), ["take_turn", "syntax error", "hog.py line 40"]),
    (scoring_messages.dependency_hint, ([("02", "boar_brawl")],),
     ["Problem 02 boar_brawl fails too", "public cases call it", "fix 02 first",
      "hidden cases use the kit's own boar_brawl"]),
    (scoring_messages.case_group, ("random scores", 45), ["random scores (45 cases)"]),
    (courses_messages.course_off_roster, (["zed", "amy"],), ["Not on the roster", "zed, amy", "by its SID"]),
    (scoring_messages.case_group, ("the handout's examples", 1), ["the handout's examples"]),
    (courses_messages.ta_same_log, ("class/a.zip", "class/a"), ["class/a.zip holds the same activity log as class/a",
                                                  "counted once"]),
    (scoring_messages.dependency_hint, ([("01", "roll_dice"), ("02", "boar_brawl")],),
     ["public cases call Problems 01 (roll_dice) and 02 (boar_brawl), which fail too", "fix those first"]),
    (messages.advice_case, ("take_turn calls roll_dice", "expected (1, 1) but got (0, 1)"),
     ["'take_turn calls roll_dice'", "expected (1, 1) but got (0, 1)"]),
    (scoring_messages.hidden_cases_failed,
     ([("a game that starts at the goal", 1, 1), ("scores with four digits", 3, 40)],),
     ["4 hidden cases failed", "a game that starts at the goal;", "scores with four digits (3 of 40)"]),
    (sandboxing_messages.skipped_statement, ("never finished",), ["never finished", "skipped"]),
    (sandboxing_messages.exited_while_loading, ("sys.exit", "3"), ["sys.exit(3)", "loading", "skipped"]),
    (sandboxing_messages.syntax_stub, ("roll_dice", "hog.py", 9, "invalid syntax"),
     ["roll_dice", "hog.py line 9", "invalid syntax"]),
    (scoring_messages.still_running, (5.0,), ["still running", "5 s"]),
    (sandboxing_messages.value_note, ("big_int",), ["too large"]),
    (messages.clip, ("x" * 1000,), ["more characters"]),
    (messages.total_line, (3, 24), ["Total: 3/24"]),
    (scoring_messages.case_heading, ("worked examples", True), ["worked examples", "hidden"]),
    (scoring_messages.rule_forbids, ("boar_brawl", ("str", "lists")), ["boar_brawl uses no str, no lists"]),
    (scoring_messages.rule_uses, ("take_turn", ("roll_dice", "boar_brawl")),
     ["take_turn uses roll_dice and boar_brawl"]),
    (scoring_messages.rule_where, (12, "digits", "boar_brawl"), ["line 12", "in digits, which boar_brawl uses"]),
    (scoring_messages.rule_escape, ("line 3", "eval"), ["line 3 uses eval", "hide code"]),
    (scoring_messages.rule_not_checked, ("boar_brawl", "hog.py", 20.0),
     ["rule could not be checked", "hog.py's shape rules", "limit of 20 s", "boar_brawl"]),
    (scoring_messages.source_too_large, ("class/ann.py", 700 * 1024, 512 * 1024), ["class/ann.py holds 700 KiB of code",
                                                                    "the 512 KiB a submission may have",
                                                                    "not graded"]),
    (scoring_messages.notebook_warnings, ("a.ipynb", 16000, "Non-unique cell id 'x' detected."),
     ["a.ipynb", "a warning 16,000 times", "(the first: Non-unique cell id 'x' detected)", "graded"]),
    (scoring_messages.notebook_warnings, ("a.ipynb", 1, "odd"), ["a warning once (the first: odd)"]),
    (scoring_messages.notebook_invalid, ("'bogus' was unexpected",),
     ["does not follow the notebook format", "'bogus'"]),
    (courses_messages.similarity_too_long, ("eve", 20.0),
     ["eve is left out", "limit of 20 s", "grade is not affected"]),
    (courses_messages.similarity_helpers_cut, ("eve", 5000, 200),
     ["eve wrote 5,000 helper functions", "only the first 200", "every function the project asks for"]),
    (scoring_messages.rule_violation, ("line 3", "uses str", "boar_brawl", "str"),
     ["line 3 uses str", "boar_brawl must not use str"]),
    (scoring_messages.rule_missing_calls, ("take_turn", ["roll_dice"]), ["take_turn should call roll_dice"]),
    (editions_messages.unknown_problem, ("99", "00", "12"), ["no problem 99", "00 to 12"]),
    (editions_messages.unknown_problem, ("05c", "00", "12"), ["no problem 05c", "00 to 12"]),
    (editions_messages.unknown_problem, ("05", "00", "12", ["05a", "05b"]),
     ["problem 05 comes in parts", "05a and 05b", "-q 05a"]),
    (editions_messages.problem_number_expected, ("two",), ["-q", "'two'", "05a"]),
    (messages.unknown_edition, ("chess", ["boar_brawl"]), ["'chess'", "boar_brawl"]),
    (editions_messages.not_a_project_folder, ("/tmp/x",), ["/tmp/x", "tests/edition.json"]),
    (messages.broken_spec, ("tests/q01.toml", "bad"), ["tests/q01.toml", "damaged", "fresh copy"]),
    (runner_messages.lock_needs_problem, (), ["python3 ok -q 01 --lock"]),
    (runner_messages.lock_or_unlock, (), ["--lock", "-u"]),
    (messages.interrupted, (), ["interrupted"]),
    (courses_messages.interrupted_notice, ("hogkit", True), ["\nhogkit: interrupted"]),
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
    (authoring_messages.new_edition_bad_name, ("Toy-Hog",),
     ["'Toy-Hog' cannot name an edition", "lower-case Python name"]),
    (authoring_messages.new_edition_exists, ("pig",), ["'pig' already exists", "hogkit editions"]),
    (authoring_messages.new_edition_folder_taken, ("toy", ["handouts/toy"]),
     ["handouts/toy already there", "nothing was written"]),
    (authoring_messages.new_edition_bad_rename, ("a b=c",), ["--rename 'a b=c'", "OLD=NEW"]),
    (cli_messages.new_edition_written, ("toy", "boar_brawl", 32, "/c"),
     ["toy: 32 files written under /c", "from boar_brawl", "hogkit build --check --edition toy"]),
    (cli_messages.todo_header, ("toy", 3), ["toy: 3 thing(s) still to do, in this order"]),
    (cli_messages.todo_done, ("toy",), ["nothing missing", "hogkit mutants --edition toy"]),
    (authoring_messages.todo_left, ("h.md", 4, "TODO: x"), ["h.md:4", "TODO: x"]),
    (authoring_messages.todo_no_handout, ("handouts/toy/handout.md",),
     ["write the handout, handouts/toy/handout.md", "notebook"]),
    (authoring_messages.todo_reference_unreadable, ("s/hog.py", "bad indent"),
     ["s/hog.py: the reference does not parse (bad indent)"]),
    (authoring_messages.todo_function_missing, ("02", "brawl", "s/hog.py"),
     ["Problem 02 names brawl, which s/hog.py does not define"]),
    (authoring_messages.todo_no_markers, ("02", "s/hog.py"),
     ["Problem 02", "# BEGIN PROBLEM 02", "# END PROBLEM 02", "s/hog.py"]),
    (authoring_messages.todo_case_file, ("02", "bad key"), ["Problem 02: its case files cannot be read: bad key"]),
    (authoring_messages.todo_no_cases, ("02", True), ["Problem 02 has no hidden case", "hidden = true"]),
    (authoring_messages.todo_no_cases, ("02", False), ["Problem 02 has no public case", "[[generate]]"]),
    (authoring_messages.todo_no_questions, ("tests/editions/toy",),
     ["no problem has unlock questions", "tests/editions/toy"]),
    (authoring_messages.todo_build, ("toy", 3), ["3 generated file(s) are stale", "hogkit build --edition toy"]),
    (authoring_messages.todo_cannot_grade, ("a child could read the kit",),
     ["could not be graded here: a child could read the kit"]),
    (authoring_messages.todo_reference_fails, ("02", "examples", "9 ", "13"),
     ["Problem 02", "'examples'", "expected 9·", "got 13"]),
    (authoring_messages.todo_reference_fails, ("02", "starter code", "", ""),
     ["Problem 02: the reference does not earn it (starter code)"]),
    (authoring_messages.student_suite_header, ("03",), ["python3 ok -q 03 -u", "do not edit"]),
    (authoring_messages.generated_header, ("q05.toml",), ["q05.toml", "hogkit build", "reference"]),
    (runner_messages.unlock_question, ("01", 2, 6, "sums"), ["Problem 01 > Question 2 of 6: sums"]),
    (runner_messages.unlock_line_correct, (1, 2), ["line 1 of 2"]),
    (authoring_messages.engine_missing, (), ["graders", "install"]),
    (cli_messages.autograder_written, ("ag.zip",), ["ag.zip", "autograder"]),
    (cli_messages.autograder_written, ("ag.zip", [(courses_messages.TOTAL_PROBLEMS, 24.0),
                                                  (courses_messages.TOTAL_CHECKPOINT, 1.0),
                                                  (courses_messages.TOTAL_EARLY, 1.0)]),
     ["Set the assignment's total points on Gradescope to 26",
      "24 for the problems, 1 for the checkpoint, 1 for the early bonus"]),
    (courses_messages.class_progress, (3, 10, "00:12"), ["3/10 submissions graded", "ETA 00:12", "#"]),
    (courses_messages.class_progress, (5, 6, "00:01", courses_messages.COUNT_PAIRS), ["5/6 pairs solved"]),
    (cli_messages.class_reused, (7,), ["7 unchanged submissions", "--force"]),
    (authoring_messages.python_too_old, ("ok",), ["ok needs Python 3.9 or newer", "this is Python %s", "python.org"]),
    (cli_messages.edition_declared, ("more_boar", "alice/"),
     ["the edition more_boar", "alice/ declares", "--edition NAME"]),
    (scoring_messages.other_edition, ("hog.py", "more_boar", ["piggy_points", "more_boar", "a", "b", "c"]),
     ["hog.py defines functions of the more_boar edition", "piggy_points, more_boar, a, b, …",
      "grade it with --edition more_boar"]),
    (courses_messages.class_retrying, (2,), ["2 submissions again", "one at a time", "failure of the kit"]),
    (courses_messages.class_regrading, (["05"], 1500),
     ["Problem 05's cases changed: regrading 1,500 submissions' Problem 05", "every other result kept"]),
    (courses_messages.class_regrading, (["02", "05", "07"], 1),
     ["the cases of Problems 02, 05 and 07 changed", "regrading 1 submission's Problems 02, 05 and 07"]),
    (courses_messages.class_stopping, (3,),
     ["stopping: finishing 3 running submissions (Ctrl-C again to stop at once)"]),
    (courses_messages.class_stopping, (1,), ["finishing 1 running submission (Ctrl-C"]),
    (courses_messages.class_stopped, (4, 2),
     ["stopped: 4 graded submissions kept; 2 have no record (ended while running, or "
      "not started): run the same command again to grade them"]),
    (courses_messages.class_stopped, (1, 1), ["stopped: 1 graded submission kept; 1 has no record", "to grade it"]),
    (courses_messages.kit_failed_row, ("KeyError: 'dice'",), ["kit failed while grading", "KeyError: 'dice'",
                                               "not the student's fault", "no score", "hogkit grade",
                                               "kit-errors.log"]),
    (courses_messages.kit_failed_on_gradescope, ("KeyError: 'dice'",), ["kit failed while grading", "KeyError: 'dice'",
                                                         "not the student's fault", "this test's output",
                                                         "Rerun Autograder", "hogkit gradescope"]),
    (cli_messages.kit_failures_line, (3, "out/kit-errors.log"),
     ["kit failed on 3 submissions", "not the students' fault", "kit error", "out/kit-errors.log",
      "same command again"]),
    (scoring_messages.kit_failures_summary, (1,),
     ["kit failed on 1 submission ", "kit error", "not the students' fault", "kit-errors.log", "rerun"]),
    (cli_messages.kit_failed_single, ("sub/hog.py", "OSError: disk full"),
     ["kit failed twice", "sub/hog.py", "OSError: disk full", "not of the submission", "traceback follows"]),
    (runner_messages.kit_failed_student, ("OSError: disk full",),
     ["kit failed", "OSError: disk full", "not your code's fault", "same command again", "course staff"]),
    (messages.kit_failed_gradescope, (), ["could not be graded", "autograder itself failed", "not your code",
                                   "placeholder, not your grade", "regrade"]),
    (scoring_messages.kit_failed_feedback, (), ["could not be graded", "kit failed, not your code", "not a grade",
                                 "grade it again"]),
    (messages.kit_failed_staff, ("KeyError: 'dice'", 2), ["staff only", "KeyError: 'dice'", "after two attempts"]),
    (messages.kit_failed_staff, ("KeyError: 'dice'", 1), ["on its only attempt"]),
    (scoring_messages.cases_not_run, (3,),
     ["3 cases were not run", "earlier case never finished", "fix that one first"]),
    (scoring_messages.cases_not_run, (1,), ["1 case was not run"]),
    (scoring_messages.hidden_only_failed, (), ["Only hidden cases failed", "once grades are published"]),
    (sandboxing_messages.isolation_namespaces, (True,),
     ["namespaces (bubblewrap)", "only the interpreter", "no network", "a user id of its own"]),
    (sandboxing_messages.isolation_namespaces, (False,), ["a user namespace of its own"]),
    (sandboxing_messages.isolation_limits, (True, "no bwrap"),
     ["limits only (no bwrap)", "user id of its own", "not verified"]),
    (sandboxing_messages.isolation_limits, (False, "no bwrap"),
     ["as the grader's user", "could read what the grader can read"]),
    (sandboxing_messages.isolation_no_bwrap, (), ["bubblewrap is not installed", "apt-get install bubblewrap"]),
    (sandboxing_messages.isolation_refused, ("setting up uid map: Permission denied",), ["could not start a sandbox",
                                                                       "uid map"]),
    (sandboxing_messages.isolation_turned_off, ("HOGKIT_ISOLATION",), ["HOGKIT_ISOLATION=limits"]),
    (sandboxing_messages.isolation_required, ("isolation: limits only (x)",),
     ["--require-isolation", "nothing was graded", "limits only"]),
    (sandboxing_messages.isolation_verified,
     ("limits", "no bwrap", (), False, True, ("seccomp",), ("landlock: old kernel",), "M"),
     ["limits only (no bwrap)", "verified by the child", "kit hidden", "network off", "own identity yes", "memory: M",
      "applied by the child: seccomp", "not available: landlock: old kernel"]),
    (sandboxing_messages.isolation_verified,
     ("namespaces", "", ("/k", "/k/a", "/k/b", "/k/c"), True, False, (), (), "M"),
     ["namespaces (bubblewrap)", "kit READABLE (/k, /k/a, /k/b, ...)", "network OPEN", "own identity no"]),
    (sandboxing_messages.isolation_verified, ("limits", "x", (), False, True, (), (), "M", "", 9),
     ["kit hidden (only the kit's own paths (9) checked; NOT checked: a copy of the kit or of a reference"]),
    (sandboxing_messages.kit_reach, ("namespaces", (), False, 4), ["kit hidden (the kit's own paths (4) checked",
                                                 "the child sees only the system's folders and its own"]),
    (sandboxing_messages.kit_reach, ("limits", (), True, 0), ["kit hidden (the kit's own paths checked",
                                            "Landlock lets the child open only the system's folders"]),
    (sandboxing_messages.kit_reach, ("limits", (), False, 3), ["only the kit's own paths (3) checked", "NOT checked",
                                             "a copy of the kit or of a reference anywhere else on this machine",
                                             "only files' modes hide the rest"]),
    (sandboxing_messages.kit_reach, ("limits", ("/k",), False, 3), ["kit READABLE (/k)"]),
    (sandboxing_messages.landlock_unavailable, (38, True, None, "5.15.0"),
     ["refused by the seccomp filter the grader runs under", "not missing from the kernel", "error 38, ENOSYS",
      "Linux 5.15.0", "landlock_create_ruleset", "--security-opt seccomp=PROFILE"]),
    (sandboxing_messages.landlock_unavailable, (38, True, True, "6.1"), ["whose security modules list Landlock"]),
    (sandboxing_messages.landlock_unavailable, (38, True, False, "6.1"),
     ["not in this kernel (error 38, ENOSYS; Linux 6.1", "Landlock came with Linux 5.13"]),
    (sandboxing_messages.landlock_unavailable, (38, False, None, "5.4"), ["not in this kernel", "Linux 5.4"]),
    (sandboxing_messages.landlock_unavailable, (95, False, False, "6.1"), ["not enabled (error 95", "lsm= list"]),
    (sandboxing_messages.landlock_unavailable, (1, True, None, "6.1"),
     ["refused by the seccomp filter the grader runs under", "error 1, EPERM", "landlock_restrict_self"]),
    (sandboxing_messages.landlock_unavailable, (1, False, None, "6.1"),
     ["refused by this machine's security policy (error 1"]),
    (sandboxing_messages.landlock_unavailable, (22, False, None, "6.1"),
     ["refused by the kernel (error 22; Linux 6.1)"]),
    (sandboxing_messages.memory_bound, ("namespaces", True, True),
     ["address-space limit", "tmpfs mounts capped", "refused by seccomp", "cgroup of its own",
      "kernel memory included"]),
    (sandboxing_messages.memory_bound, ("limits", False, False), ["NOT bounded (no seccomp filter)", "no memory cgroup",
                                                "(files' inodes) is NOT bounded"]),
    (sandboxing_messages.seccomp_unavailable, ("no libseccomp",),
     ["no filter", "no libseccomp", "pip install pyseccomp"]),
    (sandboxing_messages.isolation_verified, ("limits", "x", (), False, True, ("seccomp",), (), "M", "channels C"),
     ["own identity yes, channels C, memory: M; applied by the child: seccomp"]),
    (sandboxing_messages.channels_between_children, ("limits", True),
     ["channels between children closed", "the kernel's key store", "System V IPC", "POSIX message queues", "memfds",
      "every socket", "a file's modes refused by seccomp", "its user's alone"]),
    (sandboxing_messages.channels_between_children, ("namespaces", False), ["NOT all closed (no seccomp filter",
                                                          "the grader's session keyring", "memfds are open"]),
    (sandboxing_messages.channels_between_children, ("limits", False),
     ["channels between children OPEN (no seccomp filter", "System V IPC", "UNIX sockets to the machine's services"]),
    (sandboxing_messages.isolation_secrets_readable, (("/k/tests", "/k/a", "/k/b", "/k/c", "/k/d"), "isolation: x"),
     ["nothing was graded", "/k/tests", ", ...", "chmod -R go-rwx", "Landlock", "(isolation: x)"]),
    (sandboxing_messages.sandbox_reached_secret, ("/k/solution",), ["could read /k/solution", "not graded"]),
    (scoring_messages.used_too_much_memory, (1024 * 1024 * 1024,), ["more than 1024 MiB", "together", "stopped"]),
    (scoring_messages.kit_log_heading, ("alice", "the kit failed"), ["== alice: the kit failed"]),
    (scoring_messages.kit_log_retried_heading, ("alice",), ["== alice:", "second attempt", "not the student's fault"]),
    (scoring_messages.kit_log_first_attempt, (), ["first attempt"]),
    (cli_messages.os_failure, ("out/grades.csv", "No space left on device"),
     ["out/grades.csv: No space left on device"]),
    (cli_messages.os_failure, (None, "No space left on device"), ["No space left on device"]),
    (sandboxing_messages.sandbox_did_not_start, ("timeout",), ["did not answer in time", "before any of its code ran"]),
    (sandboxing_messages.sandbox_did_not_start, ("crashed",), ["ended before any of its code ran"]),
    (sandboxing_messages.link_refusal, ("absent",), ["kit's functions", "not available"]),
    (sandboxing_messages.link_refusal, ("too_large",), ["too large", "kit's functions"]),
    (sandboxing_messages.link_refusal, ("not_plain",), ["{}", "cannot be passed", "tuples, lists and functions"]),
    (sandboxing_messages.link_refusal, ("unreadable",), ["could not be read"]),
    (sandboxing_messages.link_refusal, ("no_default",), ["no default for {}"]),
    (sandboxing_messages.link_refusal, ("no_function",), ["no longer there"]),
    (sandboxing_messages.kit_functions_did_not_start, ("out of memory",),
     ["kit's own process", "other problems' functions", "(out of memory)"]),
    (scoring_messages.python_refuses, ("a/hog.py", "unknown encoding: klingon", None),
     ["a/hog.py is not a Python file", "Python refuses to read it: unknown encoding: klingon"]),
    (scoring_messages.python_refuses, ("a/hog.py", "'utf-8' codec can't decode byte 0xe9", 4),
     ["Python refuses to read it, line 4: 'utf-8' codec can't decode byte 0xe9"]),
    (gui_messages.gui_kit_failed, ("the process ended",), ["kit failed", "the process ended", "not your code's fault",
                                                "New game"]),
    (cli_messages.class_summary_line, (5, 9, 13, 1.5, "out/"), ["Graded 5 of 9", "4 could not be graded", "out/"]),
    (scoring_messages.duplicate_student, ("gina", "gina.py, gina.zip"), ["'gina'", "gina.py, gina.zip", "keep one"]),
    (courses_messages.empty_class, ("class/",), ["class/", "no submissions"]),
    (courses_messages.grader_did_not_start, (), ["did not start", "results.json", "setup.sh", "hogkit gradescope"]),
    (cli_messages.out_needs_a_class_folder, ("gina/hog.py",), ["--out is for a class folder", "gina/hog.py",
                                                    "hogkit grade gina/hog.py"]),
    (scoring_messages.entry_is_link, ("class/gina.py",), ["class/gina.py", "symbolic link", "never followed",
                                           "hand in the file"]),
    (scoring_messages.entry_not_a_file, ("class/pipe.py",), ["class/pipe.py", "not a regular file", "not opened"]),
    (messages.printable, ("\x1b[2Jfull\tmarks\u2028",), ["\\x1b[2Jfull\tmarks\\x2028"]),
    (games_messages.reference_strategy_failed, ("nope(3)", "boar_brawl", "NameError: name 'nope' is not defined"),
     ["'nope(3)'", "boar_brawl reference", "NameError", "always_roll(6)"]),
    (editions_messages.expected_dice_range, (35,), ["[fewest, most]", "from 0 to 35", "fewest first"]),
    (sandboxing_messages.forkserver_failed, ("no answer",),
     ["fork server", "(no answer)", "HOGKIT_FORKSERVER=off", "bubblewrap"]),
    (sandboxing_messages.sandbox_kept_capabilities, ("CapEff 0000000000200000",),
     ["capabilities (CapEff 0000000000200000)", "nothing was graded", "kit's failure"]),
    (messages.table_unknown_key, ("q.toml [game]", "extra_trun", ["extra_turn", "goal"]),
     ["q.toml [game]", "unknown key 'extra_trun'", "extra_turn, goal"]),
    (messages.table_missing_key, ("q.toml [[case]] #2", "transcript", "text"),
     ["[[case]] #2", "missing key 'transcript'", "text"]),
    (messages.table_wrong_type, ("e.toml [gui] sides", "a whole number", "'6'"),
     ["[gui] sides", "a whole number", "'6'"]),
    (messages.table_wrong_item, ("e.toml functions", "text", "3"), ["functions", "every item", "text", "3"]),
    (messages.table_not_a_table, ("e.toml [analysis]", "str"), ["[analysis]", "a table", "str"]),
    (editions_messages.manifest_undeclared_phase, ("e.toml [[problems]] number=3", 4),
     ["number=3", "phase 4", "[[phases]]"]),
    (editions_messages.manifest_repeated_problem, ("e.toml [[problems]] number=3", "03"),
     ["number=3", "problem 03", "twice"]),
    (editions_messages.manifest_bad_dependency, ("e.toml", "05a", "07"), ["e.toml", "problem 05a depends on 07",
                                                          "not an earlier problem"]),
    (editions_messages.kit_not_found, (), ["tests/ and graders/", "pip install -e .", "HOGKIT_ROOT"]),
    (gui_messages.gui_table_missing, ("e.toml [gui]",), ["e.toml [gui]", "missing", "web page"]),
    (gui_messages.gui_variants_needed, ("e.toml [gui] variants",), ["[gui] variants", "at least one", "own id"]),
    (editions_messages.transcript_text_before_prompt, ("q.toml [[case]] #1", 2, "9"),
     ["[[case]] #1", "line 2", "'9'", "'>>> '"]),
    (editions_messages.transcript_no_prompt, ("q.toml [[case]] #1",), ["[[case]] #1", "no '>>> ' lines"]),
    (editions_messages.include_missing, ("q.toml [[include]] #1", "../x.toml"),
     ["[[include]] #1", "no such file '../x.toml'"]),
    (editions_messages.case_rule_unknown, ("q.toml [[case]] #3", "take_turn"),
     ["[[case]] #3", "'take_turn'", "no shape rule"]),
    (editions_messages.unlock_answer_not_a_choice, ("q.toml [[unlock]] #1", "7"),
     ["[[unlock]] #1", "'7'", "not one of the choices"]),
    (editions_messages.unlock_needs_a_prompt, ("q.toml [[unlock]] #2",), ["[[unlock]] #2", "choices", "transcript"]),
    (editions_messages.template_one_kind, ("q.toml [[generate]] #1", ["range", "random"]),
     ["[[generate]] #1", "one of params, range and random", "range and random"]),
    (editions_messages.marker_nested, (7, "6", "5"), ["line 7", "BEGIN PROBLEM 6 inside PROBLEM 5"]),
    (editions_messages.marker_unmatched_end, (9, "5a"), ["line 9", "END PROBLEM 5a without a matching BEGIN"]),
    (editions_messages.marker_unclosed, (3, "12"), ["line 3", "BEGIN PROBLEM 12 is never closed"]),
    (cli_messages.jobs_expected, ("0",), ["--jobs", "not '0'"]),
    (authoring_messages.notebook_provided, (), ["Provided functions"]),
    (authoring_messages.release_target_not_empty, ("out/",), ["out/", "already holds files"]),
    (cli_messages.released, ("out", "out.zip"), ["out", "out.zip"]),
    (scoring_messages.unreadable_entry, ("x.py", "Permission denied"), ["x.py", "Permission denied"]),
    (messages.unreadable_notebook, ("x.ipynb", "bad json"), ["x.ipynb", "notebook", "bad json"]),
    (scoring_messages.unreadable_zip, ("x.zip", "bad zip"), ["x.zip", "zip", "bad zip"]),
    (scoring_messages.unsupported_entry, ("notes.txt",), ["notes.txt", ".ipynb", ".zip"]),
    (scoring_messages.zip_without, ("x.zip", "hog.py"), ["x.zip", "no hog.py"]),
    (games_messages.no_analysis, ("pig",), ["'pig'", "[game] kind = \"dice\""]),
    (games_messages.dice_not_modelled, ("x", "8", (1, 6), 6, 10),
     ["'x'", "1 to 6 dice", "'8'", "0 to 10 dice of a 6-sided"]),
    (games_messages.game_key_of_other_kind, ("e.toml [game]", "update", "tactic", "dice"),
     ["e.toml [game] update", "only a game of kind 'dice'", "kind = 'tactic'"]),
    (games_messages.turn_must_gain, ("pig",), ["'pig'", "does not raise"]),
    (games_messages.unknown_variant, ("no_hogs", ["no_feral_hogs"]), ["'no_hogs'", "known variants: no_feral_hogs"]),
    (games_messages.after_lowers_sum, ("pig",), ["'pig'", "[game] after that lowers", "sum of the scores", "raise"]),
    (games_messages.memory_class_too_small, (14,), ["13 or more", "classes = 14", "too few"]),
    (games_messages.minimax_needs_plain_state, (), ["minimax", "two scores", "hogkit optimal"]),
    (games_messages.improved_response, ("always_roll(4)", 3), ["always_roll(4)", "policy improvement", "3 rounds"]),
    (games_messages.whole_state_bound, (), ["bound", "rest of the state"]),
    (games_messages.improved_table_heading, ("always_roll(4)", "swine_swap", 0.8713),
     ["always_roll(4)", "swine_swap", "policy improvement", "87.13%"]),
    (games_messages.roll_depends_on_opponent, (), ["opponent's score"]),
    (games_messages.strategy_bad_value, (3, 4, "11"), ["strategy(3, 4) returned 11", "0 to 10"]),
    (games_messages.strategy_unsteady, (3, 4), ["strategy(3, 4)", "two different answers"]),
    (games_messages.strategy_not_a_table, (), ["tabulated"]),
    (games_messages.strategy_too_slow, ("final_strategy", 30.0), ["final_strategy", "30 s"]),
    (games_messages.strategy_crashed, ("final_strategy",), ["final_strategy", "ended the program"]),
    (games_messages.strategy_raised, ("f", {"type": "TypeError", "message": "bad"}, "hog.py"),
     ["f raised TypeError: bad"]),
    (games_messages.strategy_raised,
     ("nosuch", {"type": "NameError", "message": "name 'nosuch' is not defined"}, "hog.py"),
     ["nosuch names something hog.py does not define", "check the spelling"]),
    (games_messages.win_rate_lines,
     (games_messages.best_response_to("b"), "b", {"first": 0.5, "second": 0.25, "average": 0.375}),
     ["the best response to b, playing against it, exactly"]),
    (games_messages.win_rate_lines, ("a", "b", {"first": 0.5, "second": 0.25, "average": 0.375}),
     ["a against b", "50.00%", "25.00%", "37.50%"]),
    (games_messages.final_strategy_rate, (0.6985, "always_roll(6)"), ["69.85%", "always_roll(6)"]),
    (games_messages.table_written, ("best.py", "pig.py"), ["best.py", "to paste into pig.py"]),
    (games_messages.table_heading, ("always_roll(6)", "boar_brawl", 0.7712),
     ["best response to always_roll(6)", "boar_brawl", "77.12%"]),
    (cli_messages.picture_written, ("x.svg",), ["x.svg"]),
    (cli_messages.leaderboard_line, (1, "alice", 3, 0.61), ["1.", "alice", "3 match points", "61.00%"]),
    (cli_messages.contest_written, ("out",), ["out", "leaderboard.csv", "contest.html"]),
    (messages.locked, ("01",), ["python3 ok -q 01 -u", "locked"]),
    (scoring_messages.case_failed, ("the handout's examples", "expected 10 but got 11"),
     ["the handout's examples", "expected 10 but got 11"]),
    (scoring_messages.rule_broken, ("boar_brawl uses no str", "str on line 40"),
     ["boar_brawl uses no str", "str on line 40"]),
    (scoring_messages.cases_passed, (3, 24), ["3/24"]),
    (scoring_messages.rerun_student, ("05",), ["python3 ok -q 05", "-i"]),
    (scoring_messages.rerun_instructor, ("sub/hog.py", "05", "boar_brawl"),
     ["hogkit grade", "-q 05", "sub/hog.py", "boar_brawl"]),
    (sandboxing_messages.import_note, ("hog.py", 7, "print at the top level was skipped"),
     ["hog.py line 7", "print at the top level"]),
    (sandboxing_messages.syntax_repaired, ("hog.py", 14, "invalid syntax", "roll_dice"),
     ["line 14", "SyntaxError", "invalid syntax", "roll_dice"]),
    (sandboxing_messages.syntax_unrepairable, ("hog.py", 3, "unexpected indent"),
     ["line 3", "SyntaxError", "unexpected indent"]),
    (sandboxing_messages.syntax_repaired, ("hog.py", 3, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?",
                         "a top-level statement"),
     ["instead of '='? So that the rest could run, a top-level statement was left out", "whatever needs it fails"]),
    (messages.sentence, ("unexpected indent",), ["unexpected indent."]),
    (messages.and_more, (3,), ["and 3 more"]),
    (gui_messages.gui_loop, ("take_turn",), ["take_turn did not finish in time", "loop in it"]),
    (gui_messages.gui_loop, ("",), ["Your code did not finish in time"]),
    (games_messages.picture_dice_title, ("final_strategy",), ["final_strategy: dice rolled"]),
    (cli_messages.picture_win_title, ("final_strategy", "always_roll(6)"), ["final_strategy against always_roll(6)",
                                                                 "chance to win"]),
    (courses_messages.histogram_title, (1,), ["Total scores (1 submission graded)"]),
    (courses_messages.matrix_title, ("Hog",), ["Hog: each entry's chance to beat"]),
    (runner_messages.pytest_table_title, (), ["cases per problem"]),
    (runner_messages.pytest_problem_line, ("01", 3, 1, 0), ["✗ Problem 01: 3 passed, 1 failed"]),
    (runner_messages.pytest_problem_line, ("02", 0, 0, 5), ["Problem 02: 0 passed, 5 skipped", "python3 ok -q 02 -u"]),
    (authoring_messages.notebook_checks_intro, ("pig.py",),
     ["Run the next cell first", 'check(\"NN\")', "python3 ok -q NN -u", "pig_submission.zip", "python3 ok --zip"]),
    (scoring_messages.does_not_run, ("hog.py", 12, "invalid syntax"),
     ["hog.py does not run", "line 12", "invalid syntax", "fix that line first", "python3 hog.py"]),
    (cli_messages.unrecognized_arguments, ("extra",), ["unrecognized arguments: extra"]),
    (courses_messages.one_submission_not_a_class, ("ann", "hog.py", "grade"),
     ["ann holds hog.py itself", "not a class folder", "hogkit grade ann"]),
    (courses_messages.one_submission_not_a_class, ("ann", "hog.py", "contest"), ["hogkit winrate ann"]),
    (courses_messages.files_skipped, (["README.txt", "notes.pdf"],),
     ["skipped, not submissions", "README.txt, notes.pdf"]),
    (scoring_messages.total_with_checkpoint, (20, 24, "Phase 1 checkpoint", 1, 1),
     ["Total: 20/24 for the problems", "plus 1/1 for the Phase 1 checkpoint", "a score of 21"]),
    (cli_messages.cannot_write, ("/proc/x.svg", "No such file or directory"), ["cannot write /proc/x.svg",
                                                                   "No such file or directory", "nothing was done"]),
    (scoring_messages.hinted_reason, ("fix 06 first.", "the handout's examples: expected 1"),
     ["fix 06 first. The handout's examples: expected 1"]),
    (messages.whitespace_legend, (messages.visible("3 \n\n\tx"),), ["(· is a space, → is a tab, ⏎ is an empty line)"]),
    (scoring_messages.debug_lines_note, (2,), ["2 DEBUG lines", "never part of the comparison"]),
    (scoring_messages.grading_rule, (),
     ["public cases call the student's own functions",
      "hidden cases call the student's functions of that problem only",
      "a syntax error costs only the functions it breaks"]),
    (scoring_messages.debug_lines_of_case, ("the handout's examples", False, 2),
     ["Case \"the handout's examples\" passed", "2 DEBUG lines"]),
    (messages.no_such_path, ("nowhere/hog.py",), ["nowhere/hog.py"]),
    (scoring_messages.no_hog_in_folder, ("student7", "hog.py"), ["student7", "hog.py"]),
    (scoring_messages.not_python, ("notes.txt", "its name does not end in .py"), ["notes.txt", "does not end in .py"]),
    (scoring_messages.too_large, ("big/hog.py", 1024 * 1024), ["big/hog.py", "1024 KiB"]),
    (editions_messages.expected_label_of, (5,), ["a label of problem 5"]),
    (scoring_messages.answer_key_problem_line, ("07", "is_always_roll", 3),
     ["Problem 07: is_always_roll", "(3 unlock questions)"]),
    (scoring_messages.answer_key_answer_line, ("True",), ["answer: True"]),
    (courses_messages.expected_list_of, (("due", "early"),), ["a list of due, early"]),
    (authoring_messages.mutant_node_outside, ("Name(id='x')",), ["Name(id='x') is not inside the statement"]),
    (authoring_messages.listed_twice, ("'05 play: x'",), ["'05 play: x' is listed twice"]),
    (scoring_messages.not_a_python_name, (), [".py, .ipynb or .zip"]),
    (editions_messages.json_not_an_object, (), ["one JSON object"]),
    (games_messages.best_response_to, ("always_roll(6)",), ["the best response to always_roll(6)"]),
    (sandboxing_messages.load_hung, (3,), ["3 top-level statements", "hung or ended the program"]),
    (gui_messages.port_out_of_range, (70000,), ["--port", "0 to 65535", "70000"]),
    (gui_messages.seed_negative, (-1,), ["--seed", "0 or more", "-1"]),
    (gui_messages.timeout_not_positive, (0.0,), ["--timeout", "more than 0", "not 0"]),
    (authoring_messages.template_reference_failed, ("t1", "digits", {"n": 3}, "boom"),
     ["template t1 (digits)", "{'n': 3}", "the reference failed: boom"]),
    (runner_messages.unlock_intro, ("Problem 01: roll_dice",),
     ["Problem 01: roll_dice", "exit()", "Error", "Function", "Nothing", "Infinite Loop"]),
    (runner_messages.unlock_correct, (), ["OK"]),
    (runner_messages.unlock_wrong, (), ["Not quite"]),
    (runner_messages.unlock_done, ("01",), ["01", "unlocked", "python3 ok -q 01"]),
    (runner_messages.unlock_done, ("00", False), ["00", "unlocked", "no tests of its own", "next"]),
    (runner_messages.unlock_done, ("01", True, True),
     ["01", "unlocked", "Its tests run now", "later: `python3 ok -q 01`"]),
    (runner_messages.unlock_stopped, ("01",), ["python3 ok -q 01 -u"]),
    (runner_messages.next_problem, ("02",), ["python3 ok -q 02 -u"]),
    (runner_messages.next_problem, ("06", True), ["Next: `python3 ok -q 06`"]),
    (runner_messages.relocked, ("01",), ["01", "locked again", "python3 ok -q 01 -u"]),
    (runner_messages.interactive_banner, ("the handout's examples", "hog.py"),
     ["the handout's examples", "failed", "hog.py"]),
    (runner_messages.interactive_try, ("roll_dice(2, make_test_dice(4, 6, 1))",),
     ["roll_dice(2, make_test_dice(4, 6, 1))"]),
    (runner_messages.choice_prompt, ("c", "It returns 3"), ["c)", "It returns 3"]),
    (runner_messages.choice_prompt, ("b", "word " * 30), ["  b) word word", "word\n     word word"]),
    (cli_messages.class_folder_hint, (), ["class folder", "--out OUTDIR"]),
    (runner_messages.empty_answer, (), ["Type an answer", "Nothing", "Error", "Function", "exit()"]),
    (scoring_messages.run_out_of_time, (), ["whole grading run", "time limit"]),
    (runner_messages.not_a_choice, (4,), ["letter", "a to d"]),
    # mutation testing (hogkit mutants)
    (authoring_messages.mutants_heading, ("Hog", "boar_brawl"), ["Mutation testing of Hog (boar_brawl)"]),
    (authoring_messages.mutants_intro, (290, 2, 118.4),
     ["290 mutants of the reference", "hidden ones included", "2 at a time", "in 118 s"]),
    (authoring_messages.mutants_intro, (1, 1, 0.2), ["1 mutant of"]),
    (authoring_messages.mutants_verdict, ([], 0.98),
     ["Every scored problem", "at least 98%", "equivalent ones left out"]),
    (authoring_messages.mutants_verdict, (["02"], 0.98),
     ["Problem 02 detects fewer than 98% of its mutants", "survivor"]),
    (authoring_messages.mutants_verdict, (["02", "05", "07"], 0.98),
     ["Problems 02, 05 and 07 detect fewer than 98% of their"]),
    (authoring_messages.mutants_score, (49, 50), ["98.0% (49/50)"]),
    (authoring_messages.mutants_score, (0, 0), ["—"]),
    (authoring_messages.mutants_shared, (["06"], ["play"]),
     ["play is also 06's", "cases of any problem that names it"]),
    (authoring_messages.mutants_none_own, ("06", ["05"], ["play"]),
     ["Problem 06 has no marked code of its own", "05's block of play", "measured on play's mutants",
      "own cases alone"]),
    (authoring_messages.mutants_survivors_heading, (), ["Survivors"]),
    (authoring_messages.mutants_survivors_advice, ("tests/x/mutants.toml",),
     ["every case of its problem accepts", "hidden", "hogkit build", "hogkit mutants", "tests/x/mutants.toml",
      "reason"]),
    (authoring_messages.mutants_no_survivors, (), ["No mutant survived"]),
    (authoring_messages.mutants_equivalents_heading, ("tests/x/mutants.toml",), ["equivalent", "tests/x/mutants.toml",
                                                               "left out of the counts"]),
    (authoring_messages.mutants_stale, ("tests/x/mutants.toml",),
     ["Stale records in tests/x/mutants.toml", "no mutant has these ids", "remove them"]),
    (authoring_messages.mutant_equivalent_for, ("05b",), ["equivalent only", "Problem 05b's cases"]),
    (authoring_messages.mutants_wrongly_equivalent, ("tests/x/mutants.toml",),
     ["tests/x/mutants.toml", "tells them apart", "not equivalent", "remove"]),
    (authoring_messages.mutants_kit_errors, (2,),
     ["kit failed to grade 2 mutants", "not counted", "same command again"]),
    (authoring_messages.mutant_killed_by_rule, ("boar_brawl uses no str",), ["shape rule", "boar_brawl uses no str"]),
    (authoring_messages.mutant_record_broken, ("tests/x/mutants.toml", "bad"),
     ["tests/x/mutants.toml: bad", "[[equivalent]]", "id", "reason"]),
    (authoring_messages.mutant_change, (12, "`k += 1`", "`k -= 1`"), ["line 12", "`k += 1` became `k -= 1`"]),
    (authoring_messages.mutants_killers_heading, (), ["first case that failed"]),
    (cli_messages.mutants_written, (["out/mutants.md", "out/mutants.json"],), ["out/mutants.md, out/mutants.json"]),
    (authoring_messages.mutants_chart_title, ("Hog",), ["Mutants of Hog", "by problem"]),
    (authoring_messages.mutants_how_to_read, (0.98,), ["Killed", "Timed out", "Survived", "Equivalent", "98%"]),
    # the web page
    (gui_messages.gui_error_hint, ("pig.py",), ["Fix pig.py", "New game"]),
    (gui_messages.gui_bad_body, (), ["JSON object", "players", "moves"]),
    (gui_messages.gui_unknown_field, ("cheat",), ["'cheat'", "players, variant, seed and moves"]),
    (gui_messages.gui_bad_players, (), ["two", '"person"']),
    (gui_messages.gui_unknown_strategy, (1, "fast", ["catch_up"], ["always_roll"], "hog.py"),
     ["Player 1", "'fast'", "catch_up", "always_roll(0) to always_roll(10)"]),
    (gui_messages.gui_unknown_strategy, (0, "fast", [], [], "pig.py"), ["none yet", "a strategy in pig.py"]),
    (gui_messages.gui_unknown_variant, ("turbo", ["full", "simple"]), ["'turbo'", "full, simple"]),
    (gui_messages.gui_bad_seed, (), ["seed", "whole number"]),
    (gui_messages.gui_bad_moves, (2000,), ["2000"]),
    (gui_messages.gui_dice_out_of_range, (3, "11", 0, 10), ["Move 3", "11", "0 to 10"]),
    (gui_messages.gui_dice_out_of_range, (3, "0", 1, 6), ["Move 3", "0", "1 to 6"]),
    (gui_messages.gui_moves_without_person, (), ["neither player is a person"]),
    (gui_messages.gui_rule_failed, ("ZeroDivisionError: x",), ["ZeroDivisionError", "not affected"]),
    (gui_messages.gui_turn_differs, (1, 18, 20), ["Player 1", "18", "20", "update"]),
    (gui_messages.gui_next_differs, (0, 0), ["Player 0 should have gone again"]),
    (gui_messages.gui_next_differs, (0, 1), ["Player 0's turn is over", "let Player 0 go again"]),
    (gui_messages.gui_strange_result, ("pig_gui.py",), ["New game", "restart pig_gui.py"]),
    (gui_messages.gui_strange_result, ("",), ["New game", "restart the game"]),
    (gui_messages.gui_play_returned, ("None",), ["play returned None", "(score0, score1)"]),
    (gui_messages.gui_endless, (1000,), ["1000 turns", "goal"]),
    (gui_messages.gui_raised, ("take_turn", "AssertionError"), ["take_turn raised AssertionError"]),
    (gui_messages.gui_raised, ("", ""), ["Your code raised an error"]),
    (gui_messages.gui_commentary_failed, ("TypeError: x",), ["commentary", "TypeError: x", "goes on"]),
    (gui_messages.gui_not_a_number, (0, "score", "'3'"), ["Player 0", "'3'", "its own score", "whole number"]),
    (gui_messages.gui_not_a_number, (1, "opponent", "None"), ["the opponent's score"]),
    (gui_messages.gui_bad_choice, (1, "'5'", 0, 10), ["Player 1", "'5'", "0 to 10"]),
    (gui_messages.gui_asked_twice, (0,), ["Player 0", "twice", "once per turn"]),
    (gui_messages.gui_rolled_other, (0, 5, 3), ["Player 0", "5 dice", "3 were rolled"]),
    (gui_messages.gui_bad_action_moves, (2000, ["roll", "hold"]), ["at most 2000 actions", "0 for roll, 1 for hold"]),
    (gui_messages.gui_action_out_of_range, (3, "7", ["roll", "hold"]), ["Move 3 is 7", "0 for roll, 1 for hold"]),
    (gui_messages.gui_bad_action, (1, "'roll'", ["roll", "hold"]),
     ["Player 1's tactic returned 'roll'", "roll or hold"]),
    (gui_messages.gui_wrong_die, (0, [6], 4, ["four_sided", "six_sided"]),
     ["Player 0", "6-sided die", "the 4-sided die"]),
    (gui_messages.gui_wrong_die, (0, [], 4, ["four_sided", "six_sided"]),
     ["none of the page's dice", "four_sided, six_sided", "4-sided"]),
    (gui_messages.gui_remark_failed, ("describe_action(action)", "raised", "KeyError: 3"),
     ["describe_action(action) raised KeyError: 3"]),
    (gui_messages.gui_remark_failed, ("draw_number(outcome)", "returned", "None"),
     ["draw_number(outcome) returned None", "not a str"]),
    (gui_messages.gui_remark_replaced, ("x raised KeyError",),
     ["commentary failed (x raised KeyError)", "its own words"]),
    (gui_messages.gui_action_said, ("hold",), ["chose to hold."]),
    (gui_messages.gui_play_returned_winner, ("(3, 4)",), ["play returned (3, 4)", "not the winner"]),
    (gui_messages.gui_no_turn_points, ("take_turn",), ["last turn's points", "take_turn"]),
    (gui_messages.gui_winner_differs, ("0", 1), ["returned 0 as the winner", "the winner is 1"]),
    (gui_messages.gui_timed_out, (5.0,), ["5 s", "loop"]),
    (gui_messages.gui_crashed, (), ["ended the program", "os._exit"]),
    (gui_messages.gui_not_loaded, ("hog.py",), ["hog.py", "could not be loaded"]),
    (gui_messages.gui_not_a_project, ("/tmp/x",), ["/tmp/x", "hog.py and tests/", "python3 hog_gui.py"]),
    (gui_messages.gui_not_a_project, ("/tmp/x", "pig_gui.py"),
     ["/tmp/x", "pig.py and tests/", "cd pig && python3 pig_gui.py", "holding a pig.py"]),
    (gui_messages.gui_started, ("http://localhost:31415/",), ["Hog is running at http://localhost:31415/", "Ctrl+C"]),
    (gui_messages.gui_started, ("http://localhost:1/", "Pig: roll or hold"), ["Pig is running at http://localhost:1/"]),
    (gui_messages.gui_stopped, (), ["Stopped"]),
    (gui_messages.gui_port_busy, (31415,), ["31415", "--port"]),
    (gui_messages.gui_not_found, ("/x",), ["/x", "/api/play"]),
    (gui_messages.gui_too_large, (65536,), ["65536 bytes"]),
    (gui_messages.gui_bad_json, ("Expecting value",), ["not valid JSON", "Expecting value"]),
    (gui_messages.gui_syntax_error, ("hog.py", 12, "invalid syntax"), ["hog.py line 12", "invalid syntax", "New game"]),
    (gui_messages.gui_syntax_repaired, ("hog.py", 40, "invalid syntax", "play"),
     ["hog.py line 40", "play was left out"]),
    (gui_messages.gui_ended_early, (0, 0, 100), ["0 to 0", "100", "loop"]),
    (gui_messages.gui_wrong_host, (), ["localhost"]),
    (gui_messages.gui_not_json, (), ["JSON", "application/json"]),
    (gui_messages.gui_unfinished, (["roll_dice", "play"], "pig.py"),
     ["Still to write in pig.py", "roll_dice, play", "do not work yet"]),
    (gui_messages.gui_not_a_strategy, (1, "always_roll(6)", "None"),
     ["Player 1", "always_roll(6)", "gave None", "finished"]),
    (gui_messages.gui_unfinished, ([f"f{k}" for k in range(10)], "hog.py"), ["f7 and 2 more"]),
    # the course: its files, and the lines that explain a student's adjustments
    (courses_messages.course_error, ("course.toml", "late.cap", "too big"), ["course.toml: late.cap: too big"]),
    (courses_messages.course_error, ("course.toml", "", "not TOML"), ["course.toml: not TOML"]),
    (courses_messages.csv_row_error, ("roster.csv", 4, "bad"), ["roster.csv row 4: bad"]),
    (courses_messages.unreadable_file, ("denied",), ["cannot be read", "denied"]),
    (courses_messages.not_toml, ("line 3",), ["not valid TOML", "line 3"]),
    (courses_messages.key_missing, (), ["required"]),
    (courses_messages.expected, ("a number", "ten"), ["expected a number", "'ten'"]),
    (courses_messages.unknown_key, (["due", "early"],), ["due, early"]),
    (courses_messages.unknown_zone, ("Mars/Base",), ["'Mars/Base'", "America/Los_Angeles"]),
    (courses_messages.not_a_date, ("soon",), ["'soon'", "2024-02-07T23:59:00"]),
    (courses_messages.skipped_local_time, ("2024-03-10 02:30:00", "America/Los_Angeles"),
     ["02:30", "skip", "daylight saving"]),
    (courses_messages.deadline_after, ("due",), ["after deadlines.due"]),
    (courses_messages.no_header, (["id"],), ["empty", "id"]),
    (courses_messages.columns_missing, (["id"],), ["no column id", "ignoring case"]),
    (courses_messages.empty_cell, ("reason",), ["reason cell is empty"]),
    (courses_messages.duplicate_id, ("ann", 3), ["'ann'", "row 3"]),
    (courses_messages.partner_unknown, ("zed",), ["'zed'", "roster"]),
    (courses_messages.partner_conflict, ("a", "b", "c"), ["a names b as partner, but b is partnered with c"]),
    (courses_messages.unknown_target, ("bonus",), ["'bonus'", "05", "total"]),
    (courses_messages.duplicate_override, ("ann", "05", 2), ["ann", "05", "row 2"]),
    (courses_messages.override_unused, ("ghost", 5), ["row 5", "'ghost'", "neither on the roster"]),
    (messages.points_text, (2.0,), ["2"]),
    (messages.points_text, (1.5, True), ["+1.5"]),
    (courses_messages.adj_extension, ("2", [("due", "Fri 09 Feb 2024 23:59 PST")]),
     ["2 days", "due Fri 09 Feb 2024 23:59 PST"]),
    (courses_messages.adj_checkpoint_earned, ("1", "Tue 30 Jan", "Mon 29 Jan"),
     ["Checkpoint: +1", "by Tue 30 Jan", "Mon 29 Jan"]),
    (courses_messages.adj_checkpoint_missed, ("1", "Tue 30 Jan", "Wed 31 Jan"),
     ["no points", "Wed 31 Jan", "after", "Tue 30 Jan"]),
    (courses_messages.adj_checkpoint_missed, ("1", "Tue 30 Jan", ""),
     ["No submission by Tue 30 Jan had Phase 1 complete"]),
    (courses_messages.adj_early_earned, ("1", "Tue 06 Feb", "Mon 05 Feb"),
     ["Early bonus: +1", "Tue 06 Feb", "Mon 05 Feb"]),
    (courses_messages.adj_early_missed, ("1", "Tue 06 Feb", "Wed 07 Feb"),
     ["no points", "Wed 07 Feb", "after the early deadline"]),
    (courses_messages.late_rule, ("10%", "30%", True), ["10% per day", "at most 30%", "started day"]),
    (courses_messages.late_rule, ("2 points", "", False), ["2 points per day", "by the hour"]),
    (courses_messages.adj_late_penalty, ("1", "Thu 08 Feb", "Wed 07 Feb", "2.4", "10% per day"),
     ["Thu 08 Feb counts", "1 day after", "Wed 07 Feb", "-2.4", "(10% per day)"]),
    (courses_messages.adj_late_penalty, ("1", "Thu 08 Feb", "Wed 07 Feb", "1.6", "10% per day", "16"),
     ["-1.6 (10% per day of the 16 points it counts for", "a phase due earlier"]),
    (courses_messages.adj_late_not_counted, (2, "Wed 07 Feb", False),
     ["2 submissions", "Wed 07 Feb", "does not accept late"]),
    (courses_messages.adj_late_not_counted, (1, "Wed 07 Feb", True),
     ["1 submission ", "later than the course accepts"]),
    (courses_messages.adj_on_time_kept, ("22", "24", "7.2"), ["on-time", "22 points", "24", "7.2"]),
    (courses_messages.adj_nothing_counted, ("Wed 07 Feb",), ["No submission counts", "Wed 07 Feb"]),
    (courses_messages.override_what, ("05",), ["Problem 05"]),
    (courses_messages.override_what, ("early",), ["the early bonus"]),
    (courses_messages.adj_override, ("Problem 05", "2", False, "+1", "hand regrade"),
     ["your instructor", "Problem 05 set to 2 (+1)", "Reason: hand regrade"]),
    (courses_messages.adj_override, ("the total", "+1", True, "+1", "style\x1b"), ["+1 to the total", "style\\x1b"]),
    (courses_messages.no_export_metadata, ("submission_metadata.yml",),
     ["submission_metadata.yml", "Export Submissions"]),
    (courses_messages.export_no_time, ("submission_5",), ["submission_5", "created_at", "left out"]),
    (courses_messages.export_unlisted, ("submission_9",), ["submission_9", "modification time"]),
    (courses_messages.course_file_times_refused, (["amy", "ben"],),
     ["2 hand-in(s) (amy, ben)", "times.csv", "--trust-file-times"]),
    (courses_messages.course_file_times_refused, ([f"s{k}" for k in range(7)],), ["7 hand-in(s)", "s4 and 2 more"]),
    (courses_messages.course_file_times_trusted, (["amy"],),
     ["1 hand-in(s) (amy)", "modification times", "--trust-file-times"]),
    (cli_messages.trust_file_times_needs_course, (), ["--trust-file-times", "--course DIR"]),
    (courses_messages.contest_kit_failed, ("SandboxError: no child",),
     ["SandboxError: no child", "not the student's fault", "hogkit contest"]),
    (scoring_messages.class_editions_disagree, ({"boar_brawl": ["alice"], "more_boar": ["mallory"]},),
     ["boar_brawl: alice; more_boar: mallory", "--edition NAME"]),
    (scoring_messages.class_editions_disagree, ({"more_boar": ["mallory"], None: [f"s{k}" for k in range(6)]},),
     ["more_boar: mallory; none declared: s0, s1, s2, s3, s4 and 1 more"]),
    (courses_messages.adjustments_heading, (), ["Deadlines"]),
    (courses_messages.no_course_folder, ("course.toml", "roster.csv"),
     ["not a folder", "--course", "course.toml and roster.csv"]),
    (courses_messages.course_file_missing, (), ["missing", "Running a course"]),
    (courses_messages.course_withheld, (["submission_7"],),
     ["No score yet", "submission_7", "not the student's fault", "again"]),
    (courses_messages.course_no_handin, (), ["No submission was found", "0"]),
    (courses_messages.course_none_graded, ([("gina", "not Python")],), ["could be graded", "gina: not Python", "0"]),
    (courses_messages.course_feedback_heading, ("Hog", "ann"), ["Hog: feedback for ann"]),
    (courses_messages.course_counted_line, ("carol-2", "Thu 08 Feb"), ["counts is carol-2", "of Thu 08 Feb"]),
    (cli_messages.course_needs_out, (), ["--out OUTDIR", "--course DIR"]),
    (cli_messages.course_whole_project, (), ["whole project", "leave out -q"]),
    (cli_messages.course_edition_differs, ("boar_brawl", "pig_tail"), ["for 'boar_brawl', not 'pig_tail'"]),
    (courses_messages.no_adjustments, (), ["Nothing changed your score"]),
    (courses_messages.final_score_line, ("25", "24", "24"), ["Final score: 25", "24/24"]),
    (courses_messages.adj_later_lower, ("dan-1", "Fri", "0", "carol-1", "Thu", "24", "24"),
     ["Warning", "dan-1", "0/24", "carol-1", "24/24", 'groups = "last"']),
    (courses_messages.course_note_lower, ("dan-1", "Fri", "0", "carol-1", "Thu", "24", "24"),
     ["a later, worse hand-in counts", "dan-1 (Fri, 0/24) replaced carol-1 (Thu, 24/24)", 'groups = "last"',
      "If the pair asked", "best in the groups column of their roster row"]),
    (courses_messages.course_note, ("dan", "a later ..."), ["dan: a later ..."]),
    (courses_messages.course_policy_cost, ("course/course.toml", "deadlines.phases.1", 8, 14, "96"),
     ["course/course.toml: deadlines.phases.1: Phase 1's own due date", "took points from 8 of 14 students",
      "96 points in all", "before uploading the scores", "feedback says what it took"]),
    (courses_messages.course_policy_cost, ("c.toml", "late.per_day", 4, 8, "9.6"),
     ["c.toml: late.per_day: the late penalty took"]),
    (courses_messages.course_policy_cost, ("c.toml", "groups", 4, 8, "9.6"),
     ['groups = "last" (a later, worse hand-in']),
    (courses_messages.pair_groups_conflict, ("carol", "best", "dan", "last"),
     ["carol's groups is best", "partner dan's is last", "a pair has one"]),
    (courses_messages.adj_phase_due, (1, "Mon 11 Mar 2024 23:59 CST", "ann-1", "600", "1000"),
     ["Phase 1 is due Mon 11 Mar", "600 points from ann-1", "had 1000"]),
    (courses_messages.adj_phase_due, (1, "Mon", "", "0", "1000"), ["0 points as none was made by then"]),
    (courses_messages.final_score_line, ("9.6", "16", "25", "9.6", "15"),
     ["Final score: 9.6", "16/25", "worth 9.6/15 in the course"]),
    # the activity log, the hand-in zip and the TA report
    (scoring_messages.answer_key_heading, ("Hog", 1, "Rules of the Game"),
     ["Hog: answer key, Phase 1: Rules of the Game"]),
    (scoring_messages.answer_key_heading, ("Hog", None, ""), ["Hog: answer key"]),
    (scoring_messages.answer_key_intro, (), ["unlock question", "section", ">>>", "Error, Function, Nothing"]),
    (scoring_messages.answer_key_problem, ("05", "play", 1), ["Problem 05: play (1 unlock question)"]),
    (scoring_messages.answer_key_problem, ("05", "play", 3), ["3 unlock questions"]),
    (scoring_messages.answer_key_answer, ("x // 10 % 10",), ["Answer: x // 10 % 10"]),
    (cli_messages.no_such_phase, (3, [1, 2]), ["no Phase 3", "1, 2"]),
    (runner_messages.activity_missing, ("alice",), ["alice", "no activity log", "no points depend on it"]),
    (runner_messages.activity_tampered, ("alice", 7), ["alice", "changed by hand at line 7", "before it"]),
    (runner_messages.activity_unreadable, ("alice", "too large"), ["alice", "too large", "left out"]),
    (runner_messages.activity_entries_skipped, ("alice", 2), ["alice", "2 lines"]),
    (runner_messages.zip_written, ("hog_submission.zip", "hog.py", False, [], True), ["hog_submission.zip", "hog.py",
                                                                        "your activity log"]),
    (runner_messages.zip_written, ("hog_submission.zip", "hog.py", True, ["handout.ipynb"], False),
     ["the code of handout.ipynb as last saved", "handout.ipynb (for reference; hog.py is what is graded)",
      "no activity log yet"]),
    (runner_messages.zip_score, (7, 24, False), ["scores 7/24", "hidden tests", "Hand in this zip on Gradescope"]),
    (runner_messages.zip_score, (7, 24, True), ["does not run", "python3 ok --score"]),
    (runner_messages.zip_untouched, ("hog.py", True), ["hog.py and handout.ipynb", "score 0", "nothing was written",
                                         "--zip --from file"]),
    (runner_messages.zip_untouched, ("pig.py", False), ["pig.py still holds only the skeleton's stubs"]),
    (runner_messages.zip_both_worked, ("hog.py", True, 9, 3, "file"), ["both hog.py and handout.ipynb hold work",
                                                         "the notebook's code (9 points", "hog.py has 3",
                                                         "python3 ok --zip --from file"]),
    (runner_messages.zip_from_missing, ("notebook", "hog.py"), ["--from notebook", "no handout.ipynb"]),
    (runner_messages.from_needs_zip, (), ["--from", "--zip"]),
    (courses_messages.notebook_place, ("handout.ipynb", 5, 2), ["handout.ipynb, code cell 5 line 2"]),
    (runner_messages.work_in_notebook, ("hog.py",),
     ["hog.py still holds the starter code", "handout.ipynb", "python3 ok --zip"]),
    (runner_messages.question_text, ("Which one?",), ["Which one?"]),
    (cli_messages.leaderboard_more, (7,), ["… and 7 more in leaderboard.csv"]),
    (cli_messages.contest_invalid, (["bad"],), ["1 entry could not play (bad)", "say why"]),
    (cli_messages.contest_invalid, ([f"s{k}" for k in range(7)],),
     ["7 entries could not play (s0, s1, s2, s3, s4, and 2 more)"]),
    (courses_messages.nothing_handed_in, ("pig.py",),
     ["holds no pig.py", "handout.ipynb", "python3 ok --zip", "pig_submission.zip"]),
    (cli_messages.reason_no_folder, ("out/typo",), ["no folder out/typo", "make it first"]),
    (authoring_messages.notebook_outside_folder, (), ["outside its project folder", "`ok`", "run this cell again"]),
    (scoring_messages.starter_code, ("12",),
     ["Problem 12 still holds the starter code", "no points until it is written"]),
    (runner_messages.score_legend, (), ["✓ passed", "✗", "○ locked", "python3 ok -q NN -u", "· no test ran"]),
    (runner_messages.not_a_notebook, (), ["not a saved Jupyter notebook", "hand in hog.py"]),
    (authoring_messages.skeleton_digests_header, ("hog.py",), ["skeleton's hog.py", "python3 ok --zip", "Do not edit"]),
    (runner_messages.nothing_to_zip, ("hog.py", "proj"), ["no hog.py in proj"]),
    (runner_messages.zip_alone, (), ["--zip", "without other options"]),
    (courses_messages.ta_report_intro, (12, 10), ["12 submissions", "10 with an activity log", "never change a score"]),
    (courses_messages.ta_tries_line, (5, 4, "2", 6), ["5 students answered", "4 unlocked", "2 (median)", "6 at most"]),
    (courses_messages.ta_no_unlocks, (), ["No log"]),
    (courses_messages.ta_misconceptions_heading, (), ["wrong answers most students share"]),
    (courses_messages.ta_misconceptions_intro, (), ["ranked by how many students gave each", "most widely held first"]),
    (courses_messages.ta_no_wrong_answers, (), ["No wrong answer"]),
    (courses_messages.ta_more_wrong_answers, (3,), ["… and 3 more wrong answers in wrong-answers.csv"]),
    (courses_messages.ta_more_wrong_answers, (1,), ["1 more wrong answer in"]),
    (courses_messages.ta_nobody_passed, (), ["nobody passed it"]),
    (courses_messages.ta_runs_title, ("Hog",), ["Hog", "test runs per problem"]),
    (cli_messages.ta_report_written, ("out", 12, 10), ["out", "12 submissions", "ta-report.md", "runs.png"]),
    (cli_messages.similarity_written, ("out", 12, 3, 1.25),
     ["12 submissions", "1.2 s", "3 pairs stand out", "similarity.html", "no grade is changed"]),
    (courses_messages.similarity_syntax_error, ("eve", [("play", 12), ("take_turn", 30)]),
     ["eve: a syntax error leaves play (line 12), take_turn (line 30) out", "as grading", "other functions"]),
    (courses_messages.similarity_compared, (35, 0), ["35 submissions compared", "0 from past terms"]),
    (courses_messages.similarity_how_listed, (4, 595, 0.012, 0.0115, 3.5, 0.1, 50),
     ["4 pairs of the class's 595 stand out", "3.5 robust deviations above", "median is 1.2%", "is 1.1%",
      "median absolute deviation", "at least 10%", "50 at most", "similarity.csv", "below the line"]),
    (courses_messages.similarity_how_listed, (1, 595, 0.0, 0.0, 3.5, 0.1, 50),
     ["1 pair of the class's 595 stands out"]),
    (courses_messages.similarity_how_listed_small, (3, 5, 10, 0.1),
     ["Only 5 students have code to compare", "fewer than 10", "the 3 pairs listed are those scoring at least 10%"]),
    (courses_messages.similarity_how_listed_small, (1, 1, 10, 0.1), ["Only 1 student has", "the 1 pair listed is"]),
    (courses_messages.similarity_times, ([("times.csv", 30), ("the file's modification time", 5)],),
     ["Hand-in times", "30 from times.csv; 5 from the file's modification time", "past term"]),
    (courses_messages.similarity_times, ([],), ["none known"]),
    (courses_messages.similarity_time, ("2026-11-01 10:00", "times.csv"), ["2026-11-01 10:00 (from times.csv)"]),
    (courses_messages.similarity_unreadable, (["ann", "bob"],), ["Nothing to compare", "ann, bob"]),
    (courses_messages.similarity_none_listed, (), ["No pair stands out"]),
    (courses_messages.similarity_pair_title, (2, "ann", "bob", 0.42, 8.14),
     ["2. ann and bob: score 42%", "8.1 robust deviations"]),
    (courses_messages.similarity_pair_title, (2, "ann", "bob", 0.42, None), ["2. ann and bob: score 42%"]),
    (courses_messages.similarity_handed_in, ("ann", "11-01 (from times.csv)", "bob", "", "ann"),
     ["Handed in: ann 11-01 (from times.csv)", "bob time not known", "first: ann"]),
    (courses_messages.similarity_others, (0,), ["no other student holds most of it"]),
    (courses_messages.similarity_others, (1,), ["1 other student holds most of it"]),
    (courses_messages.similarity_others, (3,), ["3 other students hold most of it"]),
    (courses_messages.similarity_failed, ("disk full",), ["disk full", "grades are not affected"]),
    (editions_messages.student_test_on_reference, ("take_turn",), ["your test", "right take_turn"]),
    (editions_messages.student_test_on_version, ("a loop that returns",),
     ["another right version", "a loop that returns"]),
    (editions_messages.student_test_on_variant, ("hold skips the die",), ["a wrong version", "hold skips the die"]),
    (scoring_messages.student_test_missed, (), ["passed on this wrong version", "add a check"]),
    (scoring_messages.student_test_failed_right, ("AssertionError", "pig.py", 12),
     ["failed on a right version", "AssertionError", "pig.py line 12"]),
    (scoring_messages.student_test_too_slow, (5.0,), ["did not finish", "5 s"]),
    (messages.graded_by_the_kit, ("03",), ["Problem 03", "course's own reference", "when you hand in"]),
    (editions_messages.win_rate_case, ("final_strategy", "make_roll_until_strategy(20)", 0.6),
     ["final_strategy", "at least 60%", "make_roll_until_strategy(20)", "both seats"]),
    (scoring_messages.win_rate_figure, (0.66643, 0.66667, 0.66619, "baseline"),
     ["66.64%", "66.67% going first", "66.62% going second", "against baseline"]),
    (scoring_messages.win_rate_short, ("exact win rate: 55.00%", 0.6), ["55.00%", "at least 60%"]),
    (scoring_messages.win_rate_needed, (0.6,), ["at least 60%"]),
    (scoring_messages.win_rate_not_here, (), ["kit's reference"]),
    (games_messages.tactic_bad_value, (3, 4, 12, "7", ("roll", "hold")),
     ["strategy(3, 4)", "returned 7", "turn total of 12", "roll or hold"]),
    (games_messages.tactic_not_a_function, (3, 4, "None"), ["strategy(3, 4) returned None", "not a tactic"]),
    (games_messages.tactic_unsteady, (3, 4, 12), ["strategy(3, 4)", "turn total of 12", "two different ways"]),
    (games_messages.game_not_solvable, ("pig", "roll(0, 2) neither ends"), ["game of pig", "roll(0, 2) neither ends"]),
    (games_messages.action_returned, ("roll", 3, 2, 0, 5, None),
     ["roll(3, 2) returned 0, 5, None", "whether the turn is over"]),
    (games_messages.action_stalls, ("roll", 3, 2), ["roll(3, 2)", "neither ends the turn"]),
    (games_messages.best_play_unsettled, (12, 500), ["score sum of 12", "500 rounds", "value iteration"]),
    (games_messages.no_game_baseline, ("pig",), ["'pig'", "no baseline", "[game]", "--against"]),
    (games_messages.picture_tactic_title, ("final_strategy",), ["final_strategy", "turn totals"]),
    (games_messages.optimal_guarantee, (0.50308,), ["50.31%", "going first", "won by nobody"]),
    (games_messages.solved_in, (8.04,), ["solved in 8.0 s"]),
    (scoring_messages.course_points_line, (20, 25, 15),
     ["In the course: 12 of its 15 points", "the project's 25 points count as 15"]),
    (scoring_messages.course_points_line, (0, 25, 15), ["In the course: 0 of its 15 points"]),
    (games_messages.tactic_table_written, ("best.py", "pig.py"), ["best.py", "BEST_RESPONSE", "runs", "final_strategy",
                                                     "paste into pig.py"]),
    (courses_messages.shard_expected, ("4/3",), ["--shard needs K/N", "1 <= K <= N", "'4/3'"]),
    (cli_messages.shard_needs_out, (), ["--shard", "--out OUTDIR"]),
    (cli_messages.shard_written, ("2/3", 4, 5, 1.25, "out2"), ["Shard 2/3", "graded 4 of its 5", "1.2 s", "out2",
                                                  "all 3 shards", "hogkit merge OUTDIR1 ... OUTDIR3 --out OUTDIR"]),
    (courses_messages.not_a_shard, ("out2", "shard.json"),
     ["out2", "no shard.json", "hogkit grade CLASS --out out2 --shard K/N"]),
    (courses_messages.shard_out_inside_class, ("class/out", "class"), ["class/out is inside the class folder class",
                                                         "outside the class folder"]),
    (courses_messages.bad_shard_file, ("out2/shard.json",), ["out2/shard.json", "grade that shard again"]),
    (courses_messages.merge_nothing, (), ["hogkit merge needs", "output folders"]),
    (courses_messages.shard_mismatch, ("a", "1/3", "b", "2/2"),
     ["b (shard 2/2)", "a (shard 1/3)", "not a shard of the same class", "same N, options and kit"]),
    (courses_messages.shard_twice, ("1/3", "a", "b"), ["shard 1/3 is given twice", "in a and in b"]),
    (courses_messages.shards_missing, (["2/3"], 3), ["missing shard 2/3 of the 3", "grade it with --shard"]),
    (courses_messages.shards_missing, (["1/4", "3/4"], 4), ["missing shards 1/4, 3/4 of the 4", "grade them"]),
    (courses_messages.shard_other_kit, ("out1",), ["out1", "another version of the kit"]),
    (courses_messages.shard_class_changed, ("class",),
     ["class no longer holds", "added, removed or renamed", "--class"]),
    (courses_messages.merge_class_elsewhere, ("/nodes/a/class",), ["class folder at /nodes/a/class", "another machine",
                                                    "--class CLASSDIR"]),
    (courses_messages.shard_record_missing, ("alice", "2/3", "out2"), ["shard 2/3 (out2)", "alice's submission",
                                                        "grade shard 2/3 again"]),
    (courses_messages.merge_out_not_empty, ("merged",), ["merged is not empty", "same merge", "--out"]),
    (cli_messages.merge_summary_line, (40, 3, 2.5, "merged"),
     ["Merged 40 submissions from 3 shards in 2.5 s", "merged"]),
]


ENGINE = Path(graders.__file__).resolve().parent
LONGEST_MODULE = 800  # lines of one sentence module


def sentence_modules() -> dict[str, ModuleType]:
    """{path, as "graders/courses/messages.py": its module} for every sentence module of the engine."""
    paths = sorted(ENGINE.rglob("*messages.py"))
    return {p.relative_to(ENGINE.parent).as_posix(): importlib.import_module(
        ".".join(p.relative_to(ENGINE.parent).with_suffix("").parts)) for p in paths}


def where(fn: Callable[..., object]) -> tuple[str, str]:
    """(the path of the module that defines FN, its name): one key per function of the engine."""
    return fn.__module__.replace(".", "/") + ".py", fn.__name__


def public_functions() -> set[tuple[str, str]]:
    return {
        (path, name) for path, module in sentence_modules().items()
        for name, fn in inspect.getmembers(module, inspect.isfunction)
        if fn.__module__ == module.__name__ and not name.startswith("_")
    }


def test_every_message_function_is_exercised() -> None:
    exercised = {where(fn) for fn, _, _ in EXPECTATIONS}
    missing = public_functions() - exercised
    assert not missing, f"messages without a test in EXPECTATIONS: {sorted(missing)}"


def test_the_scan_sees_every_sentence_module_by_its_path() -> None:
    found = sentence_modules()
    assert {"graders/core/messages.py", "graders/scoring/messages.py", "graders/courses/messages.py",
            "graders/cli/messages.py"} <= set(found)
    assert len({m.__name__ for m in found.values()}) == len(found)  # nine messages.py, none hiding another
    assert ("graders/core/messages.py", "visible") in public_functions()
    assert ("graders/cli/messages.py", "demo_heading") in public_functions()


def test_no_sentence_module_is_longer_than_800_lines() -> None:
    long = {path: n for path in sentence_modules()
            if (n := len((ENGINE.parent / path).read_text(encoding="utf-8").splitlines())) > LONGEST_MODULE}
    assert long == {}


@pytest.mark.parametrize(("fn", "args", "needles"), EXPECTATIONS,
                         ids=[f"{fn.__name__}-{k}" for k, (fn, _, _) in enumerate(EXPECTATIONS)])
def test_message_carries_what_it_must(fn: Callable[..., str], args: tuple, needles: list[str]) -> None:
    text = fn(*args)
    assert isinstance(text, str) and text.strip()
    for needle in needles:
        assert needle in text, f"{fn.__name__}{args!r} -> {text!r} lacks {needle!r}"


# -- visible whitespace --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("3 ", "3·"),
        ("3   ", "3···"),
        ("a\tb", "a→b"),
        ("\t3", "→3"),
        ("3\t", "3→"),
        ("", "(nothing)"),
        (None, "(nothing)"),
        ("a\n\nb", "a\n⏎\nb"),
        ("plain", "plain"),
    ],
)
def test_visible(text: str | None, shown: str) -> None:
    assert messages.visible(text) == shown


def test_indent_leaves_blank_lines_without_trailing_spaces() -> None:
    assert messages.indent("a\n\nb") == "    a\n\n    b"


# -- wrong output --------------------------------------------------------------------------------


def test_wrong_output_shows_a_trailing_space() -> None:
    text = scoring_messages.wrong_output("3", "3 ")
    assert "3·" in text
    assert text == "expected 3 but got 3·"


def test_wrong_output_shows_tabs() -> None:
    assert "a→b" in scoring_messages.wrong_output("a b", "a\tb")


@pytest.mark.parametrize("got", ["", None])
def test_wrong_output_says_nothing_was_displayed(got: str | None) -> None:
    text = scoring_messages.wrong_output("10", got)
    assert "nothing was displayed" in text
    assert "10" in text
    assert "None" in text  # the usual cause: a function without a return


@pytest.mark.parametrize(
    ("expected", "got", "line", "exp_shown", "got_shown"),
    [
        ("a\nb\nc", "a\nX\nc", 2, "b", "X"),
        ("asked with 0 10\n(20, 4)", "asked with 0 10\n(20, 5)", 2, "(20, 4)", "(20, 5)"),
        ("a\nb", "a", 2, "b", "(nothing)"),
        ("a", "a\nextra", 2, "(nothing)", "extra"),
        ("x \ny", "x\ny", 1, "x·", "x"),
    ],
)
def test_wrong_output_names_the_differing_line(expected: str, got: str, line: int, exp_shown: str,
                                               got_shown: str) -> None:
    text = scoring_messages.wrong_output(expected, got)
    assert f"line {line}" in text
    assert f"expected {exp_shown} but got {got_shown}" in text


def test_timed_out_mentions_the_seconds() -> None:
    assert "10 s" in scoring_messages.timed_out(10.0)
    assert "2.5 s" in scoring_messages.timed_out(2.5)


def test_raised_without_details() -> None:
    text = messages.raised({}, "hog.py")
    assert text.startswith("raised")
    assert not text.endswith((":", " "))
    assert "line" not in messages.raised({"type": "ValueError", "message": "bad", "line": 0}, "hog.py")


# -- singular and plural -------------------------------------------------------------------------


def test_counts_agree_in_number() -> None:
    assert scoring_messages.hidden_cases_failed([("a game at the goal", 1, 1)]).startswith("1 hidden case failed: ")
    assert scoring_messages.hidden_cases_failed([("big scores", 2, 9)]).startswith("2 hidden cases failed: ")
    assert scoring_messages.debug_lines_note(1).startswith("1 DEBUG line printed")
    assert scoring_messages.debug_lines_note(3).startswith("3 DEBUG lines printed")


def test_import_note_without_a_line() -> None:
    assert sandboxing_messages.import_note("hog.py", 0, "loading took too long") == "hog.py: loading took too long"


def test_interactive_try_without_a_line() -> None:
    assert runner_messages.interactive_try("")


def test_a_dependency_hint_names_each_failing_problem_once() -> None:
    text = scoring_messages.dependency_hint([("03", "take_turn"), ("04", "sus_update")])
    assert text.count("03 (take_turn)") == 1 and text.count("04 (sus_update)") == 1


def test_a_dependency_hint_says_problem_once_however_many_fail() -> None:
    """Three failing problems once read "Problem 01 … and Problem 02 … and Problem 03 … fail too"."""
    text = scoring_messages.dependency_hint([("01", "roll_dice"), ("02", "boar_brawl"),
                                             ("04", "num_factors, sus_points")])
    assert text == ("This problem's public cases call Problems 01 (roll_dice), 02 (boar_brawl) and 04 "
                    "(num_factors, sus_points), which fail too: fix those first (its hidden cases use the kit's own).")
    assert text.count("Problem") == 1 and " and " not in text.replace(") and 04", "")


# -- hints ---------------------------------------------------------------------------------------


def test_hints_are_hints_not_answers() -> None:
    assert set(messages.HINTS) == {"quotes", "no_quotes", "float", "case", "special", "tuple", "order", "error_name",
                            "function"}
    for text in messages.HINTS.values():
        assert text.startswith("Close")


def test_no_legend_without_marks() -> None:
    assert messages.whitespace_legend(messages.visible("3\n4")) == ""


# -- the web page's own texts --------------------------------------------------------------------

# key: (the placeholders hog.js fills, texts the sentence must carry once filled with SAMPLE).
PAGE_EXPECTATIONS: dict[str, tuple[set[str], list[str]]] = {
    "person": (set(), ["Person"]),
    "you": (set(), ["You"]),
    "player": ({"who"}, ["Player 1"]),
    "player_strategy": ({"who", "strategy"}, ["Player 1 (final_strategy)"]),
    "panel_name": ({"who", "label"}, ["Player 1 · You"]),
    "your_strategies": (set(), ["strategies"]),
    "rules": (set(), ["Rules"]),
    "goal": ({"goal"}, ["First to 100 wins"]),
    "one_die": ({"n"}, ["1 die"]),
    "dice": ({"n"}, ["3 dice"]),
    "dice_label": (set(), ["Dice"]),
    "dice_shown": ({"faces"}, ["Dice: 3 4 2"]),
    "no_dice": (set(), ["No dice"]),
    "no_roll_yet": (set(), ["No dice rolled yet"]),
    "rolls": ({"player", "dice"}, ["Player 1 rolls 3 dice"]),
    "rolled": ({"player", "dice"}, ["Player 1 rolled 3 dice"]),
    "and_scored": (set(), ["scored"]),
    "stopped_by_error": (set(), ["stopped", "error"]),
    "turn_head": ({"who", "dice"}, ["Player 1 rolled 3 dice"]),
    "turn_stopped": (set(), ["before the turn ended"]),
    "turn_score": ({"gain", "before", "after"}, ["→ 9 (11 → 20)"]),
    "turn_other": ({"who", "before", "after"}, ["Player 1: 11 → 20"]),
    "rule": (set(), ["Rule"]),
    "printed": ({"file", "text"}, ["hog.py printed: hello"]),
    "printed_label": ({"file"}, ["hog.py printed"]),
    "starting": (set(), ["new game"]),
    "thinking": ({"player"}, ["Player 1 is thinking"]),
    "rolling": ({"dice"}, ["Rolling 3 dice"]),
    "next_turn": ({"player"}, ["Player 1's turn", "Next turn"]),
    "choose": ({"who"}, ["Player 1", "how many dice"]),
    "how_many": (set(), ["How many dice?"]),
    "how_many_player": ({"who"}, ["Player 1", "how many dice?"]),
    "roll": ({"dice"}, ["Roll 3 dice"]),
    "zero_rule": ({"rule"}, ["0 dice", "Boar Brawl"]),
    "zero_rule_unnamed": (set(), ["0 dice", "special rule"]),
    "meter": (set(), ["Your chance to win with best play"]),
    "meter_player": ({"who"}, ["Player 1's chance to win with best play"]),
    "final_score": ({"winner", "loser"}, ["100 to 87"]),
    "you_win": ({"score"}, ["You win 100 to 87"]),
    "wins": ({"player", "score"}, ["Player 1 wins 100 to 87"]),
    "game_over": (set(), ["Game over"]),
    "idle": (set(), ["stopped", "New game"]),
    "stopped": (set(), ["Stopped", "error below"]),
    "not_replayed": (set(), ["could not be replayed"]),
    "in_function": ({"function"}, ["In boar_brawl"]),
    "in_function_line": ({"function", "line"}, ["In boar_brawl, line 12"]),
    "at_line": ({"line"}, ["Line 12"]),
    "turn_head_actions": ({"who", "actions"}, ["Player 1: roll 3, hold 2"]),
    "turn_actions": ({"player", "actions"}, ["Player 1's turn: roll 3, hold 2"]),
    "turn_so_far": ({"player", "actions"}, ["Player 1's turn so far: roll 3, hold 2"]),
    "no_action_yet": (set(), ["No action yet"]),
    "remark": ({"player", "text"}, ["Player 1 hello"]),
    "die_label": ({"sides", "face"}, ["4-sided die showing 3"]),
    "turn_total": ({"total"}, ["Turn total: 12"]),
    "turn_total_player": ({"who", "total"}, ["Player 1", "turn total 12"]),
    "die_sides": ({"sides"}, ["4-sided die"]),
    "choose_action": ({"who", "actions"}, ["Player 1", "choose an action (roll 3, hold 2)"]),
    "acting": ({"player", "action"}, ["Player 1: roll"]),
    "action_keys": ({"keys"}, ["Keys: r roll, h hold"]),
}
SAMPLE = {"who": 1, "strategy": "final_strategy", "label": "You", "goal": 100, "n": 3, "faces": "3 4 2",
          "player": "Player 1", "dice": "3 dice", "gain": 9, "before": 11, "after": 20, "text": "hello",
          "rule": "Boar Brawl", "winner": 100, "loser": 87, "score": "100 to 87", "function": "boar_brawl",
          "line": 12, "file": "hog.py", "actions": "roll 3, hold 2", "sides": 4, "face": 3, "total": 12,
          "action": "roll", "keys": "r roll, h hold"}
SAMPLE_ONE = {**SAMPLE, "n": 1}


def test_every_page_text_is_exercised() -> None:
    assert set(gui_messages.PAGE_TEXT) == set(PAGE_EXPECTATIONS)


@pytest.mark.parametrize("key", sorted(PAGE_EXPECTATIONS))
def test_page_text_has_the_placeholders_the_page_fills(key: str) -> None:
    text = gui_messages.PAGE_TEXT[key]
    placeholders, needles = PAGE_EXPECTATIONS[key]
    assert {name for _, name, _, _ in string.Formatter().parse(text) if name} == placeholders
    filled = text.format(**(SAMPLE_ONE if key == "one_die" else SAMPLE))
    assert "{" not in filled and "}" not in filled
    for needle in needles:
        assert needle in filled, f"PAGE_TEXT[{key!r}] -> {filled!r} lacks {needle!r}"


def test_a_class_graded_in_full_says_nothing_of_what_could_not_be() -> None:
    assert "could not be graded" not in cli_messages.class_summary_line(9, 9, 13, 1.5, "out/")


def test_the_interrupt_notice_starts_a_line_of_its_own_only_on_a_terminal() -> None:
    assert courses_messages.interrupted_notice("hogkit", False) == "hogkit: " + messages.interrupted()


def test_scores_line_up_whatever_the_labels_and_points() -> None:
    """Swine Swap's 05a and 200/200 beside 00 and 0/0: every score ends in one column."""
    from graders.core.records import PhaseResult, ProblemResult, ProblemStatus, Report
    from graders.scoring.reports import render_text

    rows = [("00", "Dice", 0, 0), ("01", "roll_dice", 200, 200), ("05a", "play", 20, 200)]
    problems = tuple(ProblemResult(k, label, name, 1, score, most, ProblemStatus.PASSED)
                     for k, (label, name, score, most) in enumerate(rows))
    report = Report("swine_swap", "Hog", "hog.py", 220, 400, (PhaseResult(1, "Simulator", 220, 400),), problems, None)
    lines = [line for line in render_text(report).splitlines() if "Problem" in line]
    ends = {len(line.rstrip()) for line in lines}
    assert len(ends) == 1, lines


def test_a_long_question_is_wrapped_as_its_choices_are() -> None:
    question = ("Which of these is what play returns once a player's score reaches the goal, and the game "
                "has called the strategies of both players in turn?\n    >>> play(always_roll(5), always_roll(5))")
    shown = runner_messages.question_text(question).split("\n")
    assert len(shown) == 3 and all(len(line) <= 78 for line in shown[:2])
    assert shown[2] == "    >>> play(always_roll(5), always_roll(5))"  # code keeps its line
    assert " ".join(shown[:2]) == question.split("\n")[0]


def test_the_similarity_pages_fixed_texts_say_what_the_score_and_marks_mean() -> None:
    assert "never changes a grade" in courses_messages.SIMILARITY_NO_VERDICT
    assert "stands out" in courses_messages.SIMILARITY_NO_VERDICT
    for needle in ("smaller hand-in's own code", "skeleton's left out", "1/(n - 1)", "more than a third",
                   "100%", "does not depend on how many students"):
        assert needle in courses_messages.SIMILARITY_SCORE
    for needle in ("= matched", "the skeleton's own: provided, left out of the comparison", "\u2260 not matched"):
        assert needle in courses_messages.SIMILARITY_LEGEND
    assert "can change" in courses_messages.SIMILARITY_TIME_FILE
    assert "metadata" in courses_messages.SIMILARITY_TIME_EXPORT
