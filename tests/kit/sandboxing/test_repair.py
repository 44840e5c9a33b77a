"""Repair: a syntax error costs only the top-level block it is in, and later lines keep their numbers."""

from __future__ import annotations

import ast
import textwrap

import pytest

from graders.editions.edition import Edition
from graders.sandboxing.repairs import MAX_REPAIRS, repair
from graders.scoring import messages as scoring_messages

from ..conftest import grade_source, problem


def top_level(tree: ast.Module) -> dict[str, ast.AST]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}


def line_of(source: str, text: str) -> int:
    """The number of the first line of SOURCE that contains TEXT."""
    return next(n for n, line in enumerate(source.split("\n"), start=1) if text in line)


def break_line(source: str, text: str, broken: str) -> tuple[str, int]:
    """SOURCE with the (unique) line holding TEXT replaced by BROKEN, and that line's number."""
    assert source.count(text) == 1
    line = line_of(source, text)
    return source.replace(text, broken), line


def is_stub(node: ast.AST, name: str) -> bool:
    return (
        isinstance(node, ast.FunctionDef) and node.name == name and not node.decorator_list
        and node.args.vararg is not None and node.args.kwarg is not None
        and len(node.body) == 1 and isinstance(node.body[0], ast.Raise)
    )


def call_stub(node: ast.FunctionDef) -> SyntaxError:
    """Run the stub alone and return the SyntaxError it raises when called."""
    namespace: dict = {}
    exec(compile(ast.Module([node], []), "<stub>", "exec"), namespace)  # the kit's own stub
    with pytest.raises(SyntaxError) as info:
        namespace[node.name](1, 2, dice=None)
    return info.value


# -- one broken function ---------------------------------------------------------------------------


def test_error_in_one_function_replaces_just_that_block(reference_source: str) -> None:
    source, line = break_line(reference_source, "    ones = player_score % 10", "    ones = player_score %% 10")
    original = ast.parse(reference_source)
    repaired, tree, removals = repair(source)

    assert tree is not None
    assert [(r.line, r.name) for r in removals] == [(line, "boar_brawl")]
    assert removals[0].message == "invalid syntax"
    defs, before = top_level(tree), top_level(original)
    assert set(defs) == set(before)
    stub = defs["boar_brawl"]
    assert is_stub(stub, "boar_brawl")
    assert stub.lineno == before["boar_brawl"].lineno
    error = call_stub(stub)
    assert f"boar_brawl has a syntax error at hog.py line {line}" in str(error)

    # every other function is the same code at the same line
    for name, node in before.items():
        if name != "boar_brawl":
            assert defs[name].lineno == node.lineno, name
            assert ast.dump(defs[name]) == ast.dump(node), name
    assert defs["take_turn"].lineno == before["take_turn"].lineno
    # the file keeps its length, and every line after the block is untouched
    old_lines, new_lines = source.split("\n"), repaired.split("\n")
    assert len(new_lines) == len(old_lines)
    after = before["take_turn"].lineno - 1
    assert new_lines[after:] == old_lines[after:]
    assert new_lines[:before["boar_brawl"].lineno - 1] == old_lines[:before["boar_brawl"].lineno - 1]


def test_error_on_the_def_line_is_repaired(reference_source: str) -> None:
    source, line = break_line(reference_source, "def sus_points(score):", "def sus_points(score)")
    repaired, tree, removals = repair(source)
    assert tree is not None
    assert [(r.line, r.name) for r in removals] == [(line, "sus_points")]
    assert is_stub(top_level(tree)["sus_points"], "sus_points")
    assert top_level(tree)["sus_update"].lineno == top_level(ast.parse(reference_source))["sus_update"].lineno


def test_two_broken_functions_are_both_removed(reference_source: str) -> None:
    source, first = break_line(reference_source, "    ones = player_score % 10", "    ones = = player_score")
    source, second = break_line(source, "    factors = num_factors(score)", "    factors = num_factors(score")
    repaired, tree, removals = repair(source)
    assert tree is not None
    assert sorted((r.line, r.name) for r in removals) == [(first, "boar_brawl"), (second, "sus_points")]
    defs, before = top_level(tree), top_level(ast.parse(reference_source))
    assert is_stub(defs["boar_brawl"], "boar_brawl") and is_stub(defs["sus_points"], "sus_points")
    for name in ("roll_dice", "take_turn", "num_factors", "sus_update", "play", "final_strategy"):
        assert ast.dump(defs[name]) == ast.dump(before[name]), name
        assert defs[name].lineno == before[name].lineno, name
    assert len(repaired.split("\n")) == len(source.split("\n"))


def test_broken_top_level_statement_is_removed(reference_source: str) -> None:
    source, line = break_line(reference_source, "GOAL = 100  #", "GOAL = = 100  #")
    repaired, tree, removals = repair(source)
    assert tree is not None
    assert [(r.line, r.name) for r in removals] == [(line, "a top-level statement")]
    assert repaired.split("\n")[line - 1] == "pass"
    names = {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    assert "GOAL" not in names
    defs, before = top_level(tree), top_level(ast.parse(reference_source))
    assert set(defs) == set(before)
    assert all(defs[n].lineno == before[n].lineno for n in before)


def test_decorators_go_together_with_their_def() -> None:
    source = textwrap.dedent("""\
        def trace(f):
            return f


        @trace
        @trace
        def broken(x):
            return x +


        def later(x):
            return x
        """)
    repaired, tree, removals = repair(source)
    assert tree is not None
    assert [(r.line, r.name) for r in removals] == [(8, "broken")]
    lines = repaired.split("\n")
    assert lines[4].startswith("def broken(*args, **kwargs): raise SyntaxError(")
    assert lines[5:8] == ["", "", ""]
    assert not any(line.startswith("@") for line in lines)
    defs = top_level(tree)
    assert is_stub(defs["broken"], "broken") and defs["broken"].lineno == 5
    assert defs["later"].lineno == 11


def test_reference_cli_function_keeps_its_decorator_out_of_the_stub(reference_source: str) -> None:
    source, line = break_line(reference_source, "    args = parser.parse_args()", "    args = parser.parse_args(")
    repaired, tree, removals = repair(source)
    assert tree is not None
    assert [(r.line, r.name) for r in removals] == [(line, "run")]
    assert is_stub(top_level(tree)["run"], "run")
    assert "@main" not in repaired


# -- what repair cannot fix ------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["x = (", ")", "x = [1,\n2,\n", "(1,\n2"])
def test_unrepairable_file_returns_no_tree(source: str) -> None:
    repaired, tree, removals = repair(source)
    assert tree is None
    assert removals and removals[-1].line >= 1


def test_repairs_are_bounded() -> None:
    broken = "\n".join(f"def f{k}(:\n    pass\n" for k in range(MAX_REPAIRS + 1))
    repaired, tree, removals = repair(broken)
    assert tree is None
    assert len(removals) == MAX_REPAIRS

    fixable = "\n".join(f"def f{k}(:\n    pass\n" for k in range(MAX_REPAIRS - 1))
    repaired, tree, removals = repair(fixable)
    assert tree is not None
    assert len(removals) == MAX_REPAIRS - 1


@pytest.mark.parametrize(
    "source",
    [
        "x = 1\x00\n",
        "def f():\n    return 1\x00\n\ndef g():\n    return 2\n",
        "x = " + "(" * 500 + ")" * 500,
        "x = " + "[" * 100_000 + "]" * 100_000,
        "x = " + "-" * 100_000 + "1",
        "".join("    " * k + "if x:\n" for k in range(200)) + "    " * 200 + "pass\n",
        "def f():\n" + "".join("    " * (k + 1) + "while x:\n" for k in range(150)) + "    " * 151 + "pass\n",
        "\ufeffdef f(:\n",
        "",
    ],
    ids=["nul", "nul-in-function", "deep-parens", "deep-brackets", "deep-unary", "deep-if", "deep-while",
         "bom", "empty"],
)
def test_hostile_sources_do_not_raise(source: str) -> None:
    repaired, tree, removals = repair(source)
    assert isinstance(repaired, str)
    assert tree is None or isinstance(tree, ast.Module)
    assert tree is not None or removals  # a failure always says why


def test_nul_byte_gives_no_tree(reference_source: str) -> None:
    source = reference_source.replace("    ones = player_score % 10", "    ones = player_score % 10\x00")
    _, tree, removals = repair(source)
    assert tree is None
    assert "null bytes" in removals[0].message


# -- known holes (engine bugs) ---------------------------------------------------------------------


def test_empty_block_at_the_end_of_a_function_costs_only_that_function() -> None:
    source = textwrap.dedent("""\
        def broken(x):
            if x:


        def later(x):
            return x
        """)
    _, tree, removals = repair(source)
    assert tree is not None
    assert [r.name for r in removals] == ["broken"]
    defs = top_level(tree)
    assert is_stub(defs["broken"], "broken")
    assert not is_stub(defs["later"], "later") and defs["later"].lineno == 5


def test_error_in_a_decorator_line_removes_the_decorated_function() -> None:
    source = textwrap.dedent("""\
        def trace(f):
            return f


        @trace(
        def broken(x):
            return x


        def later(x):
            return x
        """)
    _, tree, removals = repair(source)
    assert tree is not None
    assert [r.name for r in removals] == ["broken"]
    assert is_stub(top_level(tree)["broken"], "broken")


# -- end to end --------------------------------------------------------------------------------------


def test_broken_sus_points_costs_only_problem_4(edition: Edition, reference_source: str) -> None:
    source, line = break_line(reference_source, "    if factors == 3 or factors == 4:",
                              "    if factors == 3 or factors == 4")
    report = grade_source(source, edition, problems=[1, 2, 3, 4])
    assert [(p.number, p.status, p.score, p.max) for p in report.problems[:3]] == [
        (1, "passed", 2, 2), (2, "passed", 2, 2), (3, "passed", 2, 2)
    ]
    p4 = problem(report, 4)
    assert (p4.status, p4.score) == ("failed", 0)
    assert p4.reason == scoring_messages.removed_for_syntax("sus_points", "hog.py", line)
    notes = [n for n in report.notes if "sus_points" in n]
    assert len(notes) == 1
    assert f"line {line}" in notes[0]
    assert "SyntaxError" in notes[0]
    assert report.total == 6
