"""Shape rules: declared checks on a submission's source, made with ``ast`` before any code runs.

Contract: a rule names a function and either things it must not use (``forbid``) or functions it
must use (``uses``). Both look at the function *and every module-level helper it reaches*, directly
or not: a function, lambda, class or value bound at the top level of the submission and named
inside the code being checked is checked too. A forbidden construct cannot be smuggled in through
``eval``, ``exec``, ``getattr``, ``__import__`` and their kin: using any of them in the checked code
breaks every ``forbid`` rule. Each rule yields its own :class:`RuleResult` with a sentence a
student can act on and the line that broke it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from graders.edition import Rule

# What each forbidden word means, as node tests. Names cover aliases such as ``s = str``.
ESCAPES = frozenset({
    "eval", "exec", "getattr", "__import__", "compile", "globals", "locals", "vars",
    "__builtins__", "builtins", "importlib", "__dict__", "__getattribute__", "setattr",
})
FORBIDDEN_WORDS = {
    "str": "str (or another way of turning a number into text: repr, format, an f-string or %)",
    "lists": "lists (list(), a list display or a comprehension)",
    "square brackets": "square brackets (indexing, slicing, list displays or list comprehensions)",
}


@dataclass(frozen=True)
class RuleResult:
    problem: int
    text: str  # the rule in a student's words
    passed: bool
    detail: str = ""  # what broke it and where
    line: int | None = None


def describe(rule: Rule) -> str:
    if rule.kind == "forbid":
        return f"{rule.function} uses no " + ", no ".join(rule.names)
    return f"{rule.function} uses " + " and ".join(rule.names)


def top_level_bindings(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """Every name bound at module level, with the nodes that bind it (defs, classes, assignments)."""
    bound: dict[str, list[ast.AST]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        bound.setdefault(name.id, []).append(node)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                bound.setdefault((alias.asname or alias.name).split(".")[0], []).append(node)
    return bound


def reachable(tree: ast.Module, function: str) -> list[ast.AST] | None:
    """The nodes of FUNCTION and every top-level binding its code names, transitively."""
    bound = top_level_bindings(tree)
    roots = [n for n in bound.get(function, []) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    if not roots:
        return None
    seen_names = {function}
    seen_nodes: list[ast.AST] = []
    todo: list[ast.AST] = list(roots)
    while todo:
        node = todo.pop()
        if any(node is s for s in seen_nodes):
            continue
        seen_nodes.append(node)
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id in bound and sub.id not in seen_names:
                seen_names.add(sub.id)
                todo.extend(bound[sub.id])
    return seen_nodes


def _names(node: ast.AST) -> list[tuple[str, int]]:
    found = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.append((sub.id, sub.lineno))
        elif isinstance(sub, ast.Attribute):
            found.append((sub.attr, sub.lineno))
    return found


def _violations(word: str, node: ast.AST) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for sub in ast.walk(node):
        line = getattr(sub, "lineno", 0)
        if word == "str":
            if isinstance(sub, ast.Name) and sub.id in ("str", "repr", "format", "ascii"):
                out.append((line, f"uses {sub.id}"))
            elif isinstance(sub, ast.Attribute) and sub.attr in ("str", "format", "__str__", "__repr__"):
                out.append((line, f"uses .{sub.attr}"))
            elif isinstance(sub, ast.JoinedStr):
                out.append((line, "uses an f-string"))
            elif isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Mod) and (
                isinstance(sub.left, ast.Constant) and isinstance(sub.left.value, str)
            ):
                out.append((line, "formats text with %"))
        elif word == "lists":
            if isinstance(sub, ast.Name) and sub.id == "list":
                out.append((line, "uses list"))
            elif isinstance(sub, ast.List):
                out.append((line, "builds a list"))
            elif isinstance(sub, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
                out.append((line, "uses a comprehension"))
        elif word == "square brackets":
            if isinstance(sub, ast.Subscript):
                out.append((line, "uses square brackets to index or slice"))
            elif isinstance(sub, ast.List | ast.ListComp):
                out.append((line, "uses square brackets to build a list"))
        else:
            if isinstance(sub, ast.Name) and sub.id == word:
                out.append((line, f"uses {word}"))
            elif isinstance(sub, ast.Attribute) and sub.attr == word:
                out.append((line, f"uses .{word}"))
    return out


def check_rule(tree: ast.Module | None, rule: Rule) -> RuleResult:
    text = describe(rule)
    if tree is None:
        return RuleResult(rule.problem, text, False, "hog.py could not be read as Python")
    nodes = reachable(tree, rule.function)
    if nodes is None:
        return RuleResult(rule.problem, text, False, f"hog.py has no function named {rule.function}")

    def where(line: int) -> str:
        owner = _owner(nodes, line)
        via = "" if owner in (None, rule.function) else f" (in {owner}, which {rule.function} uses)"
        return f"line {line}{via}"

    if rule.kind == "uses":
        named = {name for node in nodes for name, _ in _names(node)}
        missing = [n for n in rule.names if n not in named]
        if missing:
            return RuleResult(
                rule.problem, text, False,
                f"{rule.function} should call {' and '.join(missing)} instead of repeating their work",
            )
        return RuleResult(rule.problem, text, True)
    for node in nodes:
        for name, line in _names(node):
            if name in ESCAPES:
                return RuleResult(
                    rule.problem, text, False,
                    f"{where(line)} uses {name}, which could hide code from this check", line,
                )
    for word in rule.names:
        for node in nodes:
            hits = sorted(_violations(word, node))
            if hits:
                line, what = hits[0]
                meaning = FORBIDDEN_WORDS.get(word, word)
                return RuleResult(
                    rule.problem, text, False, f"{where(line)} {what}; {rule.function} must not use {meaning}", line
                )
    return RuleResult(rule.problem, text, True)


def _owner(nodes: list[ast.AST], line: int) -> str | None:
    best = None
    for n in nodes:
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            end = getattr(n, "end_lineno", n.lineno)
            if n.lineno <= line <= end:
                best = n.name
    return best


def check_rules(tree: ast.Module | None, rules: list[Rule] | tuple[Rule, ...]) -> list[RuleResult]:
    return [check_rule(tree, r) for r in rules]
