"""The kit's promises, checked for every edition with no edition-specific code: each declared shape
rule fires on a violating variant (directly and through a helper) and holds for the reference;
the student loop (unlock with piped answers, then --score) reaches full marks; the demo class and
the answer key work."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys

import pytest

from graders.cli import main as hogkit
from graders.core import messages
from graders.editions.cases import load_problem_cases, load_questions
from graders.editions.edition import Edition, edition_names, kit_root, load_edition
from graders.runner import messages as runner_messages
from graders.scoring.astrules import check_rules

# One statement per forbidden word that uses exactly that construct; any other word is a name the
# function may not mention (a call it must not make, such as final_strategy's max_scoring_num_rolls).
VIOLATIONS = {
    "str": "_probe = str(1)",
    "lists": "_probe = list()",
    "square brackets": "_probe = (1, 2)[0]",
    "for loops": "for _probe in ():\n    pass",
}


def violation(word: str) -> str:
    return VIOLATIONS.get(word, f"_probe = {word}")


def declared_rules() -> list[tuple[str, object]]:
    return [(name, rule) for name in edition_names() for p in load_edition(name).problems for rule in p.rules]


def reference(edition: Edition) -> str:
    return (edition.solution_dir / edition.submission).read_text(encoding="utf-8")


def insert_into(source: str, function: str, statement: str) -> str:
    """SOURCE with STATEMENT as the first line of FUNCTION's body (after its docstring)."""
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function)
    first = node.body[1] if isinstance(node.body[0], ast.Expr) and isinstance(
        getattr(node.body[0], "value", None), ast.Constant) and len(node.body) > 1 else node.body[0]
    lines = source.split("\n")
    indent = " " * first.col_offset
    block = [indent + line for line in statement.split("\n")]
    return "\n".join(lines[: first.lineno - 1] + block + lines[first.lineno - 1:])


def ids(item: tuple[str, object]) -> str:
    name, rule = item
    return f"{name}:{rule.function}:{rule.kind}"


@pytest.mark.parametrize("item", declared_rules(), ids=ids)
def test_every_rule_holds_for_the_reference(item):
    name, rule = item
    results = check_rules(ast.parse(reference(load_edition(name))), [rule])
    assert results[0].passed, results[0].detail


@pytest.mark.parametrize("item", [i for i in declared_rules() if i[1].kind == "forbid"], ids=ids)
def test_every_forbidden_word_fires_directly_and_through_a_helper_unless_the_rule_says_not(item):
    name, rule = item
    source = reference(load_edition(name))
    for word in rule.names:
        direct = insert_into(source, rule.function, violation(word))
        assert not check_rules(ast.parse(direct), [rule])[0].passed, f"{word} used directly was not caught"
        helper = insert_into(source, rule.function, "_probe = _shape_helper()")
        helper += "\n\ndef _shape_helper():\n" + "\n".join("    " + ln for ln in violation(word).split("\n"))
        helper += "\n    return 0\n"
        result = check_rules(ast.parse(helper), [rule])[0]
        if rule.helpers:
            assert not result.passed and "_shape_helper" in result.detail, f"{word} in a helper was not caught"
        else:  # the rule is of the function's own code (helpers = false): a helper's use is not its business
            assert result.passed, f"{word} in a helper was caught by a rule of {rule.function}'s own code"


@pytest.mark.parametrize("item", [i for i in declared_rules() if i[1].kind == "uses"], ids=ids)
def test_every_uses_rule_fires_when_the_function_does_its_own_work(item):
    name, rule = item
    tree = ast.parse(reference(load_edition(name)))
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == rule.function)
    node.body = [ast.Return(ast.Constant(0))]
    result = check_rules(ast.parse(ast.unparse(tree)), [rule])[0]
    assert not result.passed and rule.function in result.detail


def answer_lines(edition: Edition) -> list[str]:
    lines = []
    for p in edition.problems:
        for q in load_questions(edition, p.label):
            if q.is_choice:
                lines.append(q.answer)
            else:
                lines += [x for s in q.steps if s.expected is not None for x in s.expected.split("\n")]
    return lines


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_student_loop_reaches_full_marks(any_edition, tmp_path):
    """Unlock every problem with the answers piped in, put the reference in place, check the score."""
    edition = any_edition
    project = tmp_path / "project"
    shutil.copytree(edition.skeleton_dir, project)
    env = {"PYTHONPATH": str(kit_root()), "PATH": "/usr/bin:/bin"}
    unlock = subprocess.run([sys.executable, "ok", "-u"], cwd=project, input="\n".join(answer_lines(edition)) + "\n",
                            capture_output=True, text=True, timeout=240, env=env)
    assert unlock.returncode == 0, unlock.stderr
    assert "Not quite" not in unlock.stdout
    shutil.copyfile(edition.solution_dir / edition.submission, project / edition.submission)
    score = subprocess.run([sys.executable, "ok", "--score"], cwd=project, capture_output=True, text=True,
                           timeout=240, env=env, stdin=subprocess.DEVNULL)
    assert score.returncode == 0, score.stderr
    # A problem graded against the kit's reference (a test the student writes, a win rate) is scored
    # when the student hands in: the copy says so, and the rest reach full marks.
    by_kit = [p for p in edition.problems if any(c.check is not None for c in load_problem_cases(edition, p.label))]
    reachable = edition.max_points - sum(p.points for p in by_kit)
    assert f"Total: {reachable}/{edition.max_points}" in score.stdout
    assert "locked" not in score.stdout.replace(runner_messages.score_legend(), "")  # the legend names every mark
    for p in by_kit[:1]:
        said = subprocess.run([sys.executable, "ok", "-q", p.label], cwd=project, capture_output=True, text=True,
                              timeout=240, env=env, stdin=subprocess.DEVNULL)
        assert messages.graded_by_the_kit(p.label) in said.stdout


@pytest.mark.slow
def test_demo_class_and_answer_key(any_edition, capsys):
    assert hogkit(["grade", "--edition", any_edition.name]) == 0
    out = capsys.readouterr().out
    assert f"total {any_edition.max_points}/{any_edition.max_points}" in out
    assert hogkit(["answers", "--edition", any_edition.name]) == 0
    key = capsys.readouterr().out
    assert all(f"Problem {p.label}:" in key for p in any_edition.problems)
