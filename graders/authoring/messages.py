"""What `hogkit build`, `release`, `new-edition`, `todo` and `mutants` say: the sentences only
graders/authoring/ uses.

Each function returns text and nothing else, and tests/kit/authoring/test_messages.py calls each one. The
text helpers (visible, clip, …) and the sentences several folders say are in graders.core.messages.
It runs only on an instructor's machine: none of its text is in the student's bundle.
"""

from __future__ import annotations

from graders.core.messages import visible

# -- the student bundle and its notebook (hogkit release) ----------------------------------------


def notebook_checks_intro(filename: str = "hog.py") -> str:
    stem = filename.rsplit(".", 1)[0]
    return ("Run the next cell first. After each problem's code, a cell `check(\"NN\")` runs that problem's "
            "tests on the code this notebook has run, as `python3 ok -q NN` does in a terminal. Unlock a "
            "problem's questions in a terminal first: `python3 ok -q NN -u`.\n\n"
            f"**Handing in:** save this notebook, then run `python3 ok --zip` in a terminal in this folder. It "
            f"writes `{stem}_submission.zip` holding this notebook's code as `{filename}` (or `{filename}` itself, "
            f"if that is where you worked) and says what it scores on the public tests: upload that zip on "
            f"Gradescope.")


def notebook_outside_folder() -> str:
    return ("The checks cannot be loaded: this notebook is running outside its project folder. Open it from "
            "the folder that holds `ok`, `graders/` and `tests/` (start Jupyter there), then run this cell again.")


def notebook_provided() -> str:
    return "## Provided functions\n\nThese come with the project; leave them as they are and run this cell too."


def release_target_not_empty(path: str) -> str:
    return f"{path} already holds files; choose an empty or new folder for the bundle"


# -- a new edition, its checklist (hogkit todo), and the generated files' headers ----------------


def new_edition_bad_name(name: str) -> str:
    return (f"{name!r} cannot name an edition: use a lower-case Python name of at most 40 characters, "
            "such as spring_hog")


def new_edition_exists(name: str) -> str:
    return f"an edition named {name!r} already exists (`hogkit editions` lists them): choose another name"


def new_edition_folder_taken(name: str, taken: list[str]) -> str:
    return (f"{', '.join(taken)} already there: {name!r} would overwrite it; move it away or choose "
            "another name (nothing was written)")


def new_edition_bad_rename(pair: str) -> str:
    return f"--rename {pair!r}: expected OLD=NEW, two Python names (such as boar_brawl=hog_pile)"


def todo_left(file: str, line: int, text: str) -> str:
    return f"{file}:{line}: write what this TODO asks: {text}"


def todo_no_handout(file: str) -> str:
    return f"write the handout, {file} (it is the notebook's text too)"


def todo_reference_unreadable(file: str, why: str) -> str:
    return f"{file}: the reference does not parse ({why}); fix it first"


def todo_function_missing(label: str, function: str, file: str) -> str:
    return f"Problem {label} names {function}, which {file} does not define: write it, or change the manifest"


def todo_no_markers(label: str, file: str) -> str:
    return (f"Problem {label}: mark its code in {file} with `# BEGIN PROBLEM {label}` and "
            f"`# END PROBLEM {label}` (the skeleton is made from the markers)")


def todo_case_file(label: str, why: str) -> str:
    return f"Problem {label}: its case files cannot be read: {why}"


def todo_no_cases(label: str, hidden: bool) -> str:
    kind = "hidden" if hidden else "public"
    return (f"Problem {label} has no {kind} case: add a [[case]] or a [[generate]] table"
            f"{' with hidden = true' if hidden else ''} to its qNN.toml")


def todo_no_questions(folder: str) -> str:
    return f"no problem has unlock questions: add [[unlock]] tables (qNN.unlock.toml) in {folder}"


def todo_build(name: str, count: int) -> str:
    return f"{count} generated file(s) are stale: run `hogkit build --edition {name}`"


def todo_cannot_grade(why: str) -> str:
    return f"the reference could not be graded here: {why}"


def todo_reference_fails(label: str, case: str, expected: str, got: str) -> str:
    if not expected and not got:
        return f"Problem {label}: the reference does not earn it ({case}): fix the reference or the cases"
    return (f"Problem {label}: the reference fails {case!r} (expected {visible(expected)!s}, "
            f"got {visible(got)}): fix the case or the reference")


def skeleton_digests_header(filename: str) -> str:
    return (f"What the skeleton's {filename} holds between each problem's markers, as digests: `python3 ok --zip` "
            f"uses them to tell your work from the untouched stubs. Do not edit.")


def student_suite_header(label: str) -> str:
    return (
        f"The tests of problem {label} for your project folder: do not edit.\n"
        f"Unlock the questions with `python3 ok -q {label} -u`, then run `python3 ok -q {label}`."
    )


def generated_header(source: str) -> str:
    return (
        f"Generated by `hogkit build` from the [[generate]] templates in {source}: do not edit.\n"
        "Each expected output is what the reference solution displays."
    )


# -- mutation testing (hogkit mutants): how strong the cases are ----------------------------------

MUTANT_COLUMNS = ("problem", "mutants", "killed", "timed out", "survived", "equivalent", "detected")
MUTANT_KINDS = ("killed", "timed out", "survived", "equivalent")  # the chart's stacked bars, in order
MUTANT_AXES = ("problem", "mutants")


def mutants_heading(title: str, edition: str) -> str:
    return f"Mutation testing of {title} ({edition})"


def mutants_intro(count: int, jobs: int, seconds: float) -> str:
    return (f"{count} mutant{'s' if count != 1 else ''} of the reference solution, each one small change inside a "
            f"problem's own code, each graded in the sandbox on that problem's cases (hidden ones included), "
            f"{jobs} at a time, in {seconds:.0f} s.")


def mutants_verdict(weak: list[str], threshold: float) -> str:
    """WEAK: the labels of the scored problems whose cases detect less than THRESHOLD of their mutants."""
    share = f"{threshold:.0%}"
    if not weak:
        return f"Every scored problem's cases detect at least {share} of its mutants (equivalent ones left out)."
    names = ", ".join(weak[:-1]) + (" and " if len(weak) > 1 else "") + weak[-1]
    return (f"Problem{'s' if len(weak) > 1 else ''} {names} detect{'' if len(weak) > 1 else 's'} fewer than "
            f"{share} of {'their' if len(weak) > 1 else 'its'} mutants: each survivor below is a wrong program "
            f"every case accepts.")


def mutants_score(detected: int, counted: int) -> str:
    if not counted:
        return "—"
    return f"{100.0 * detected / counted:.1f}% ({detected}/{counted})"


def mutants_shared(labels: list[str], functions: list[str]) -> str:
    return (f"{', '.join(functions)} {'is' if len(functions) == 1 else 'are'} also {' and '.join(labels)}'s: a "
            f"mutant there is detected when the cases of any problem that names it fail")


def mutants_none_own(label: str, shares: list[str], functions: list[str]) -> str:
    return (f"Problem {label} has no marked code of its own (it is written in {' and '.join(shares)}'s block of "
            f"{', '.join(functions)}): it is measured on {', '.join(functions)}'s mutants, by its own cases alone")


def mutants_survivors_heading() -> str:
    return "Survivors"


def mutants_survivors_advice(record_file: str) -> str:
    return ("Each survivor is a wrong program that every case of its problem accepts. Add a case that tells it "
            "apart from the reference (hidden if it would give the answer away), run `hogkit build`, and run "
            "`hogkit mutants` again. If no program could tell it apart, record it as equivalent in "
            f"{record_file}: its id and a one-line reason.")


def mutants_no_survivors() -> str:
    return "No mutant survived."


def mutants_equivalents_heading(record_file: str) -> str:
    return f"Recorded equivalent mutants ({record_file}), left out of the counts"


def mutants_stale(record_file: str) -> str:
    return (f"Stale records in {record_file}: no mutant has these ids any more (the reference changed); "
            "remove them, or record the mutants they meant under their new ids.")


def mutant_equivalent_for(label: str) -> str:
    """How a record limited to one problem is shown beside its id."""
    return f"equivalent only as far as Problem {label}'s cases can tell"


def mutants_wrongly_equivalent(record_file: str) -> str:
    return (f"Recorded as equivalent in {record_file}, yet a case tells them apart from the reference: they are "
            "not equivalent, so remove their records.")


def mutants_kit_errors(count: int) -> str:
    return (f"The kit failed to grade {count} mutant{'s' if count != 1 else ''}, twice each: not counted "
            "anywhere. Run the same command again.")


def mutant_killed_by_rule(rule: str) -> str:
    return f"the shape rule: {rule}"


def mutant_record_broken(path: str, detail: str) -> str:
    return (f"{path}: {detail} (each [[equivalent]] table holds an id from `hogkit mutants` and a reason, "
            "and may name the one problem it is limited to)")


def mutant_change(line: int, before: str, after: str) -> str:
    """A mutant's change, BEFORE and AFTER already shown as code (Markdown code spans)."""
    return f"line {line}: {before} became {after}"


def mutants_killers_heading() -> str:
    return "Detected mutants and the first case that failed"


def mutants_chart_title(title: str) -> str:
    return f"Mutants of {title}, by problem"


def mutants_how_to_read(threshold: float) -> str:
    return (f"How to read this: a mutant is the reference with one small change (an operator swapped, a constant "
            f"off by one, a condition negated, a statement deleted, two arguments swapped, a neighbouring value "
            f"returned, another helper called). *Killed*: a case failed (the first one is named). *Timed out*: "
            f"the first failing case never finished. *Survived*: every case passed, so the cases cannot tell this "
            f"wrong program from the right one. *Equivalent*: recorded as a change no program can notice, left "
            f"out of the counts. *Detected* is killed and timed out over the counted mutants; each scored "
            f"problem should reach {threshold:.0%}.")


# -- what the runner `ok` says before the engine loads -------------------------------------------


def python_too_old(program: str) -> str:
    """For an interpreter older than the bundle supports; ``%s`` is where its version goes."""
    return (f"{program} needs Python 3.9 or newer, and this is Python %s. Install a newer Python "
            "(python.org) and run it with that one.")


def engine_missing() -> str:
    return (
        "ok: cannot find the kit's engine (the graders package). Run ok from the project folder you were "
        "given, or install the kit."
    )


# -- fragments that complete a sentence above ----------------------------------------------------


def template_reference_failed(template: str, name: str, params: object, why: str) -> str:
    return f"template {template} ({name}) with {params}: the reference failed: {why}"


def mutant_node_outside(node: str) -> str:
    return f"{node} is not inside the statement"


def listed_twice(what: str) -> str:
    return f"{what} is listed twice"
