"""The sentences of graders/runner/messages.py, each public function called with what it must carry.

Every public function of a sentence module appears in its folder's table: tests/kit/test_messages.py
checks, across the folders, that none is left out.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graders.runner import messages as runner_messages

from ..sentences import carries, ids

# (function, arguments, texts the result must contain).
EXPECTATIONS: list[tuple[Callable[..., str], tuple, list[str]]] = [
    (runner_messages.lock_needs_problem, (), ["python3 ok -q 01 --lock"]),
    (runner_messages.lock_or_unlock, (), ["--lock", "-u"]),
    (runner_messages.unlock_question, ("01", 2, 6, "sums"), ["Problem 01 > Question 2 of 6: sums"]),
    (runner_messages.unlock_line_correct, (1, 2), ["line 1 of 2"]),
    (runner_messages.kit_failed_student, ("OSError: disk full",),
     ["kit failed", "OSError: disk full", "not your code's fault", "same command again", "course staff"]),
    (runner_messages.pytest_table_title, (), ["cases per problem"]),
    (runner_messages.pytest_problem_line, ("01", 3, 1, 0), ["✗ Problem 01: 3 passed, 1 failed"]),
    (runner_messages.pytest_problem_line, ("02", 0, 0, 5), ["Problem 02: 0 passed, 5 skipped", "python3 ok -q 02 -u"]),
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
    (runner_messages.empty_answer, (), ["Type an answer", "Nothing", "Error", "Function", "exit()"]),
    (runner_messages.not_a_choice, (4,), ["letter", "a to d"]),
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
    (runner_messages.work_in_notebook, ("hog.py",),
     ["hog.py still holds the starter code", "handout.ipynb", "python3 ok --zip"]),
    (runner_messages.question_text, ("Which one?",), ["Which one?"]),
    (runner_messages.score_legend, (), ["✓ passed", "✗", "○ locked", "python3 ok -q NN -u", "· no test ran"]),
    (runner_messages.not_a_notebook, (), ["not a saved Jupyter notebook", "hand in hog.py"]),
    (runner_messages.nothing_to_zip, ("hog.py", "proj"), ["no hog.py in proj"]),
    (runner_messages.zip_alone, (), ["--zip", "without other options"]),
]


@pytest.mark.parametrize(("fn", "args", "needles"), EXPECTATIONS, ids=ids(EXPECTATIONS))
def test_message_carries_what_it_must(fn: Callable[..., str], args: tuple, needles: list[str]) -> None:
    carries(fn, args, needles)
