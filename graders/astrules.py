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
    """Every name bound at module level, with the nodes that bind it (defs, classes, assignments,
    imports), including names bound inside top-level ``if``, ``try``, ``with`` and loop blocks."""
    bound: dict[str, list[ast.AST]] = {}

    def bind(name: str, node: ast.AST) -> None:
        bound.setdefault(name, []).append(node)

    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bind(node.name, node)
            continue  # what a def binds inside itself is not module level
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                bind((alias.asname or alias.name).split(".")[0], node)
            continue
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor):
            targets = [node.target]
        elif isinstance(node, ast.With | ast.AsyncWith):
            targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bind(node.name, node)
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    bind(name.id, node)
        for sub in ast.walk(node) if not targets else []:
            if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
                bind(sub.target.id, node)
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            todo.extend(getattr(node, field, []) or [])
    return bound


def text_names(tree: ast.Module) -> set[str]:
    """Module-level names bound to a text constant, so ``FMT % n`` counts as formatting text."""
    return {
        name
        for name, nodes in top_level_bindings(tree).items()
        for node in nodes
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }


def find_reachable(tree: ast.Module, function: str) -> list[ast.AST] | None:
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
    """Every name NODE mentions: names, attributes, and what imports bring in (and from where)."""
    found = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.append((sub.id, sub.lineno))
        elif isinstance(sub, ast.Attribute):
            found.append((sub.attr, sub.lineno))
        elif isinstance(sub, ast.Import | ast.ImportFrom):
            modules = [sub.module or ""] if isinstance(sub, ast.ImportFrom) else []
            for name in modules + [a.name for a in sub.names]:
                found.append((name.split(".")[0], sub.lineno))
    return found


TEXT_ATTRIBUTES = ("str", "format", "__str__", "__repr__", "__format__", "__mod__", "__rmod__")


def _violations(word: str, node: ast.AST, texts: set[str] = frozenset()) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for sub in ast.walk(node):
        line = getattr(sub, "lineno", 0)
        if isinstance(sub, ast.alias) and sub.name == word:
            out.append((getattr(node, "lineno", 0), f"imports {word}"))
        if word == "str":
            if isinstance(sub, ast.Name) and sub.id in ("str", "repr", "format", "ascii"):
                out.append((line, f"uses {sub.id}"))
            elif isinstance(sub, ast.Attribute) and sub.attr in TEXT_ATTRIBUTES:
                out.append((line, f"uses .{sub.attr}"))
            elif isinstance(sub, ast.JoinedStr):
                out.append((line, "uses an f-string"))
            elif isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Mod) and (
                (isinstance(sub.left, ast.Constant) and isinstance(sub.left.value, str))
                or (isinstance(sub.left, ast.Name) and sub.left.id in texts)
            ):
                out.append((line, "formats text with %"))
            elif (
                isinstance(sub, ast.Call) and isinstance(sub.func, ast.Call)
                and isinstance(sub.func.func, ast.Name) and sub.func.func.id == "type"
            ):
                out.append((line, "calls a type it looked up with type(...)"))
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
    nodes = find_reachable(tree, rule.function)
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
    texts = text_names(tree)
    for word in rule.names:
        for node in nodes:
            hits = sorted(_violations(word, node, texts))
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
