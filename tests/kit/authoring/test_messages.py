"""The sentences of graders/authoring/messages.py, each public function called with what it must carry.

Every public function of a sentence module appears in its folder's table: tests/kit/test_messages.py
checks, across the folders, that none is left out.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graders.authoring import messages as authoring_messages

from ..sentences import carries, ids

# (function, arguments, texts the result must contain).
EXPECTATIONS: list[tuple[Callable[..., str], tuple, list[str]]] = [
    (authoring_messages.new_edition_bad_name, ("Toy-Hog",),
     ["'Toy-Hog' cannot name an edition", "lower-case Python name"]),
    (authoring_messages.new_edition_exists, ("pig",), ["'pig' already exists", "hogkit editions"]),
    (authoring_messages.new_edition_folder_taken, ("toy", ["handouts/toy"]),
     ["handouts/toy already there", "nothing was written"]),
    (authoring_messages.new_edition_bad_rename, ("a b=c",), ["--rename 'a b=c'", "OLD=NEW"]),
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
    (authoring_messages.engine_missing, (), ["graders", "install"]),
    (authoring_messages.python_too_old, ("ok",), ["ok needs Python 3.9 or newer", "this is Python %s", "python.org"]),
    (authoring_messages.notebook_provided, (), ["Provided functions"]),
    (authoring_messages.release_target_not_empty, ("out/",), ["out/", "already holds files"]),
    (authoring_messages.notebook_checks_intro, ("pig.py",),
     ["Run the next cell first", 'check(\"NN\")', "python3 ok -q NN -u", "pig_submission.zip", "python3 ok --zip"]),
    (authoring_messages.mutant_node_outside, ("Name(id='x')",), ["Name(id='x') is not inside the statement"]),
    (authoring_messages.listed_twice, ("'05 play: x'",), ["'05 play: x' is listed twice"]),
    (authoring_messages.template_reference_failed, ("t1", "digits", {"n": 3}, "boom"),
     ["template t1 (digits)", "{'n': 3}", "the reference failed: boom"]),
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
    (authoring_messages.mutants_chart_title, ("Hog",), ["Mutants of Hog", "by problem"]),
    (authoring_messages.mutants_how_to_read, (0.98,), ["Killed", "Timed out", "Survived", "Equivalent", "98%"]),
    (authoring_messages.notebook_outside_folder, (), ["outside its project folder", "`ok`", "run this cell again"]),
    (authoring_messages.skeleton_digests_header, ("hog.py",), ["skeleton's hog.py", "python3 ok --zip", "Do not edit"]),
]


@pytest.mark.parametrize(("fn", "args", "needles"), EXPECTATIONS, ids=ids(EXPECTATIONS))
def test_message_carries_what_it_must(fn: Callable[..., str], args: tuple, needles: list[str]) -> None:
    carries(fn, args, needles)
