"""A bug costs the problem it is in, once: hidden cases test one function, on every edition.

A hidden case of problem N runs the reference for every other problem's functions it reaches, so
a bug planted in a problem's functions costs that problem alone in hidden cases; a function a
syntax error removed is the reference's in the cases of other problems, so it costs its own
problem alone; and no case of a problem calls a student's function of a later problem.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from graders.editions import onefunction
from graders.editions.cases import load_problem_cases
from graders.editions.edition import DEFAULT_EDITION, Edition, edition_names, load_edition
from graders.sandboxing.repairs import repair
from graders.scoring.grading import defined_names

from ..conftest import grade_source

# What these tests claim is which cases a bug costs, whatever runs them: one child for the
# submission's own cases (the run already fills every core with tests), not two.
ONE = 1
# The default edition's problems run in the edit loop's lane; every other edition's (a whole grade
# each, about a hundred of them) only in the full run.
PROBLEMS = [pytest.param(name, p.label, marks=() if name == DEFAULT_EDITION else pytest.mark.slow)
            for name in edition_names() for p in load_edition(name).problems if p.functions]


def sharing(edition: Edition, label: str) -> set[str]:
    """LABEL, every problem that asks for one of its functions too, and every problem whose marked
    code lies inside one of them (Pig's experiments function holds Problems 10, 11 and 12)."""
    mine = set(edition.problem(label).functions)
    ref = onefunction.reference(edition)
    inside = {m for f in mine for k in (ref.defines.get(f, []) if ref else []) for m in ref.marked[k]}
    return {p.label for p in edition.problems if mine & set(p.functions)} | inside


def planted(source: str, functions: tuple[str, ...]) -> str:
    """SOURCE where each of FUNCTIONS raises, whatever it is given: a bug in those functions alone."""
    stubs = [f"def {f}(*args, **kwargs):\n    raise ArithmeticError('a planted bug')\n" for f in functions]
    return source + "\n\n" + "\n".join(stubs)


def broken_syntax(source: str, functions: tuple[str, ...]) -> str:
    """SOURCE with a line that does not parse at the end of each of FUNCTIONS."""
    tree = ast.parse(source)
    ends = sorted((n.end_lineno or n.lineno for n in tree.body
                   if isinstance(n, ast.FunctionDef) and n.name in functions), reverse=True)
    lines = source.split("\n")
    for end in ends:
        lines.insert(end, "    x = = 1")
    return "\n".join(lines)


@pytest.mark.parametrize(("name", "label"), PROBLEMS)
def test_a_bug_costs_its_own_problem_alone_in_hidden_cases(name: str, label: str) -> None:
    edition = load_edition(name)
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    report = grade_source(planted(source, edition.problem(label).functions), edition, workers=ONE)
    own = sharing(edition, label)
    lost = {p.label: [c.about or c.name for c in p.cases if c.hidden and not c.passed]
            for p in report.problems if p.label not in own}
    assert not any(lost.values()), f"a bug in {label} cost other problems' hidden cases: {lost}"
    mine = [p for p in report.problems if p.label == label][0]
    if mine.max and mine.cases:
        assert mine.score == 0, f"the bug planted in {label} cost it nothing"


@pytest.mark.parametrize(("name", "label"), PROBLEMS)
def test_a_syntax_error_costs_only_the_functions_it_breaks(name: str, label: str) -> None:
    edition = load_edition(name)
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    functions = edition.problem(label).functions
    report = grade_source(broken_syntax(source, functions), edition, workers=ONE)
    own = sharing(edition, label)
    lost = {p.label: p.reason for p in report.problems if p.label not in own and p.score < p.max}
    assert not lost, f"a syntax error in {label} cost other problems: {lost}"
    assert {r.name for r in repair(broken_syntax(source, functions))[2]} == set(functions)
    assert all(p.score == 0 for p in report.problems if p.label in own)


@pytest.mark.parametrize("name", edition_names())
def test_no_case_calls_a_students_function_of_a_later_problem(name: str) -> None:
    """Public cases call the student's own functions: never one of a later problem (a checkpoint
    hand-in has none yet). Hidden cases call the reference's for every problem but their own."""
    edition = load_edition(name)
    later = {}
    for p in edition.problems:
        public = [c for c in load_problem_cases(edition, p.label) if not c.hidden]
        found = onefunction.later_calls(edition, public, p.label)
        if found:
            later[p.label] = sorted(found)
    assert not later, f"public cases that call a later problem's function: {later}"


@pytest.mark.parametrize("name", [pytest.param(name, marks=() if name == DEFAULT_EDITION else pytest.mark.slow)
                                  for name in edition_names()])
def test_a_hand_in_finished_up_to_a_problem_earns_it(name: str) -> None:
    """The reference with every function of the later problems still raising (a checkpoint
    hand-in, whatever its stubs return) earns each problem, through whatever its cases reach."""
    edition = load_edition(name)
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    short = {}
    for k, p in enumerate(edition.problems):
        done = {f for q in edition.problems[:k + 1] for f in q.functions}
        later = tuple(sorted({f for q in edition.problems[k + 1:] for f in q.functions} - done))
        if not p.functions or not p.points or not later:
            continue
        result = grade_source(planted(source, later), edition, problems=[p.label], workers=ONE).problems[0]
        if result.score < result.max:
            short[p.label] = result.reason
    assert not short, f"problems that need a later problem's function: {short}"


@pytest.mark.parametrize("name", edition_names())
def test_hidden_cases_that_reach_other_problems_call_the_kit_for_them(name: str) -> None:
    """Every problem whose hidden cases reach another's functions has a group; a group's source
    adds a stub for every problem function outside it (the kit serves those from its own child)
    and nothing else: no line of the reference, no stub of its own problems."""
    edition = load_edition(name)
    source = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    fixed, tree, _ = repair(source)
    cases = {p.label: load_problem_cases(edition, p.label) for p in edition.problems}
    contexts = onefunction.hidden_contexts(fixed, tree, defined_names(tree), edition, cases)
    grouped = {label for labels, _, _ in contexts for label in labels}
    ref = onefunction.reference(edition)
    assert ref is not None
    functions = onefunction.problem_functions(edition)
    uses = (onefunction.uses_of(tree), ref.uses)
    for p in edition.problems:
        hidden = [c for c in cases[p.label] if c.hidden and c.runs_in != "reference"]
        if hidden and onefunction.reached_problems(hidden, p.label, functions, *uses):
            assert p.label in grouped, p.label
    reference_lines = {line.strip() for line in ref.source.split("\n") if len(line.strip()) > 12}
    for labels, text, kit in contexts:
        extra = text[len(fixed):]
        assert kit is not None and extra.strip(), labels
        added = ast.parse(textwrap.dedent(extra)).body
        assert all(isinstance(n, ast.FunctionDef) and len(n.body) == 1 for n in added), labels
        assert all("__hogkit_call__" in ast.unparse(n.body[0]) for n in added), labels
        body_lines = {ast.unparse(n.body[0]).strip() for n in added}
        assert not body_lines & reference_lines, labels  # no line of the reference's bodies
        others = {f for f, owners in functions.items() if not owners & labels and f in ref.defines
                  and not any(ref.marked[k] & labels for k in ref.defines[f])}
        assert {n.name for n in added} == others == set(kit.offered), labels
        assert not set(kit.offered) & set(kit.proxied) and set(kit.proxied) >= {
            f for f, owners in functions.items() if owners & labels}


@pytest.mark.slow
def test_a_feral_hogs_slip_costs_problem_05b_alone() -> None:
    """Swine Swap's play holds Problems 5a, 5b (Feral Hogs) and 6 (commentary). A slip inside 5b's
    block (the rule's test off by one) costs 5b and nothing else: 5a's and 6's cases all play with
    feral_hogs=False (the seed's Problem 6 does not depend on Feral Hogs)."""
    edition = load_edition("swine_swap")
    source = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    slipped = source.replace("abs(num_rolls - last0) == 2", "abs(num_rolls - last0) == 3")
    slipped = slipped.replace("abs(num_rolls - last1) == 2", "abs(num_rolls - last1) == 3")
    assert slipped.count("== 3") >= 2 + source.count("== 3")
    report = grade_source(slipped, edition, problems=["05a", "05b", 6], workers=ONE)
    assert {p.label: p.score == p.max for p in report.problems} == {"05a": True, "05b": False, "06": True}


# (edition, problem, another problem's function that no example of the seed's problem calls)
BEYOND_THE_SEEDS_EXAMPLES = [("pig", "07", "take_turn"), ("pig", "09", "take_turn"),
                             ("boar_brawl", "08", "roll_dice"), ("pig_tail", "08", "roll_dice"),
                             ("swine_swap", "08", "roll_dice"), ("more_boar", "08", "roll_dice"),
                             ("boar_brawl", "11", "boar_strategy"), ("pig_tail", "11", "tail_strategy")]


@pytest.mark.parametrize(("name", "label", "beyond"), BEYOND_THE_SEEDS_EXAMPLES)
def test_a_public_case_reaches_no_further_than_the_seeds_example(name: str, label: str, beyond: str) -> None:
    """A public case reaches what the seed's own example of its problem reaches: Pig's examples of
    make_roll_until_strategy and make_average call no take_turn (they name roll and hold, which a
    tactic returns); no edition's example of make_averaged calls roll_dice (the handout shows it
    with pow and abs); none of the Problem 11 strategy's calls the Problem 10 one. The cases that do
    are hidden, where those functions are the kit's, so a bug in one never fails another's public
    case. (An advice case costs nothing, whatever it calls.)"""
    edition = load_edition(name)
    ref = onefunction.reference(edition)
    assert ref is not None
    functions = onefunction.problem_functions(edition)
    other = sorted(functions[beyond])
    assert other and label not in other
    cases = load_problem_cases(edition, label)
    public = [c for c in cases if not c.hidden and not c.advice and c.check is None]
    assert public and not set(other) & onefunction.reached_problems(public, label, functions, ref.uses, ref.uses)
    hidden = [c for c in cases if c.hidden]
    assert set(other) <= onefunction.reached_problems(hidden, label, functions, ref.uses, ref.uses), label
