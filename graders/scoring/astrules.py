"""Shape rules: declared checks on a submission's source, made with ``ast`` before any code runs.

Contract: a rule names a function and either things it must not use (``forbid``) or functions it
must use (``uses``). Both look at the function *and every module-level helper it reaches*, directly
or not: a function, lambda, class, import or value bound at the top level of the submission (also
inside top-level ``if``/``try``/``with`` blocks) and named inside the code being checked is checked
too. A forbidden construct cannot be smuggled in through ``eval``, ``exec``, ``getattr``,
``__import__`` and their kin: using any of them in the checked code breaks every ``forbid`` rule.
``print("DEBUG: ...")`` calls are left out of ``forbid`` checks, since debugging output never
decides a result. Each rule yields its own :class:`RuleResult` with a sentence from
:mod:`graders.core.messages` and the line that broke it.

The forbidden words an edition may declare: ``str``, ``lists``, ``square brackets``, ``for loops``,
or any other name, which then may not appear as a name or attribute.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Optional

from graders.core import messages
from graders.core.records import RuleResult
from graders.editions.edition import Rule

ESCAPES = frozenset({
    "eval", "exec", "getattr", "__import__", "compile", "globals", "locals", "vars",
    "__builtins__", "builtins", "importlib", "__dict__", "__getattribute__", "setattr",
})
# Every way found to turn a number into text: the builtins that make text, the methods that format,
# the modules whose functions do it for you, and any method of a string written in the code.
TEXT_NAMES = ("str", "repr", "format", "ascii", "chr", "hex", "oct", "bin", "bytes", "bytearray")
TEXT_ATTRIBUTES = ("str", "format", "format_map", "__str__", "__repr__", "__format__", "__mod__", "__rmod__",
                   "to_bytes", "hex", "__class__")
TEXT_MODULES = ("string", "io", "json", "operator", "pickle", "codecs", "textwrap", "pprint", "reprlib", "decimal")
# Every way found to index without square brackets.
INDEX_ATTRIBUTES = ("__getitem__", "__setitem__", "__delitem__", "__class_getitem__", "pop")
INDEX_MODULES = ("operator",)
DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def describe(rule: Rule) -> str:
    if rule.kind == "forbid":
        return messages.rule_forbids(rule.function, rule.names)
    return messages.rule_uses(rule.function, rule.names)


def top_level_bindings(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """Every name bound at module level, with the nodes that bind it (defs, classes, assignments,
    imports), including names bound inside top-level ``if``, ``try``, ``with`` and loop blocks."""
    bound: dict[str, list[ast.AST]] = {}

    def bind(name: str, node: ast.AST) -> None:
        bound.setdefault(name, []).append(node)

    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, DEFS):
            bind(node.name, node)
            continue  # what a def binds inside itself is not module level
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bind((alias.asname or alias.name).split(".")[0], node)
            continue
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
            targets = [node.target]
        elif isinstance(node, (ast.With, ast.AsyncWith)):
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


def find_reachable(tree: ast.Module, function: str, bound: dict | None = None) -> list[ast.AST] | None:
    """The nodes of FUNCTION and every top-level binding its code names, transitively."""
    bound = top_level_bindings(tree) if bound is None else bound
    roots = [n for n in bound.get(function, []) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
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


def _is_debug_print(node: ast.AST) -> bool:
    """``print("DEBUG: ...", ...)`` or ``print(f"DEBUG: ...")``, with no assignment hidden inside."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"):
        return False
    if not node.args or any(isinstance(sub, ast.NamedExpr) for sub in ast.walk(node)):
        return False
    first = node.args[0]
    if isinstance(first, ast.JoinedStr) and first.values:
        first = first.values[0]
    if isinstance(first, ast.BinOp) and isinstance(first.op, ast.Mod):
        first = first.left
    return isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.startswith("DEBUG")


def _walk(node: ast.AST, skip_debug: bool) -> Iterator[ast.AST]:
    """Like ``ast.walk`` (same order), leaving out DEBUG prints when asked."""
    todo = deque([node])
    while todo:
        current = todo.popleft()
        if skip_debug and _is_debug_print(current):
            continue
        yield current
        todo.extend(ast.iter_child_nodes(current))


def _names(node: ast.AST, skip_debug: bool = False) -> list[tuple[str, int]]:
    """Every name NODE mentions: names, attributes, and what imports bring in (and from where)."""
    found = []
    for sub in _walk(node, skip_debug):
        if isinstance(sub, ast.Name):
            found.append((sub.id, sub.lineno))
        elif isinstance(sub, ast.Attribute):
            found.append((sub.attr, sub.lineno))
        elif isinstance(sub, (ast.Import, ast.ImportFrom)):
            modules = [sub.module or ""] if isinstance(sub, ast.ImportFrom) else []
            for name in modules + [a.name for a in sub.names]:
                found.append((name.split(".")[0], sub.lineno))
    return found


Use = Optional[tuple[int, str]]  # (line, what) of one construct a rule's word forbids, or None


def _violations(word: str, node: ast.AST, texts: set[str]) -> list[tuple[int, str]]:
    """(line, what) for every use of WORD's constructs under NODE; TEXTS are names bound to text."""
    out: list[tuple[int, str]] = []
    check = WORD_CHECKS.get(word)
    for sub in _walk(node, skip_debug=True):
        if isinstance(sub, ast.alias) and sub.name == word:
            out.append((getattr(node, "lineno", 0), messages.RULE_FRAGMENTS["imports"].format(word)))
        found = check(sub, node, texts) if check else _named(word, sub)
        if found:
            out.append(found)
    return out


def _imported(sub: ast.AST, node: ast.AST, modules: tuple[str, ...]) -> Use:
    """An import of one of MODULES (an alias is reported at its statement's line)."""
    what = messages.RULE_FRAGMENTS["imports"]
    if isinstance(sub, ast.alias) and sub.name.split(".")[0] in modules:
        return getattr(node, "lineno", 0), what.format(sub.name)
    if isinstance(sub, ast.ImportFrom) and (sub.module or "").split(".")[0] in modules:
        return sub.lineno, what.format(sub.module)
    return None


def _is_text(expr: ast.expr, texts: set[str], kinds: tuple[type, ...] = (str,)) -> bool:
    """EXPR is a text literal, or a name the module binds to one."""
    return (isinstance(expr, ast.Constant) and isinstance(expr.value, kinds)) or (
        isinstance(expr, ast.Name) and expr.id in texts)


def _text_use(sub: ast.AST, node: ast.AST, texts: set[str]) -> Use:
    """``str`` in its every form: the names and modules of text, string methods, f-strings, % and type()()."""
    what, line = messages.RULE_FRAGMENTS, getattr(sub, "lineno", 0)
    if isinstance(sub, ast.Name) and sub.id in TEXT_NAMES + TEXT_MODULES:
        return line, what["uses"].format(sub.id)
    if isinstance(sub, ast.Attribute) and sub.attr in TEXT_ATTRIBUTES:
        return line, what["uses"].format("." + sub.attr)
    imported = _imported(sub, node, TEXT_MODULES)
    if imported:
        return imported
    if isinstance(sub, ast.Attribute) and _is_text(sub.value, texts, (str, bytes)):
        return line, what["string-method"].format(sub.attr)
    if isinstance(sub, ast.JoinedStr):
        return line, what["f-string"]
    if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Mod) and _is_text(sub.left, texts):
        return line, what["percent"]
    if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Call)
            and isinstance(sub.func.func, ast.Name) and sub.func.func.id == "type"):
        return line, what["type-call"]
    return None


def _list_use(sub: ast.AST, node: ast.AST, texts: set[str]) -> Use:
    what, line = messages.RULE_FRAGMENTS, getattr(sub, "lineno", 0)
    if isinstance(sub, ast.Name) and sub.id == "list":
        return line, what["uses"].format("list")
    if isinstance(sub, ast.List):
        return line, what["list-display"]
    if isinstance(sub, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return line, what["comprehension"]
    return None


def _bracket_use(sub: ast.AST, node: ast.AST, texts: set[str]) -> Use:
    what, line = messages.RULE_FRAGMENTS, getattr(sub, "lineno", 0)
    if isinstance(sub, ast.Subscript):
        return line, what["subscript"]
    if isinstance(sub, (ast.List, ast.ListComp)):
        return line, what["bracket-list"]
    if isinstance(sub, ast.Attribute) and sub.attr in INDEX_ATTRIBUTES:
        return line, what["uses"].format("." + sub.attr)
    if isinstance(sub, ast.Name) and sub.id in INDEX_MODULES:
        return line, what["uses"].format(sub.id)
    return _imported(sub, node, INDEX_MODULES)


def _loop_use(sub: ast.AST, node: ast.AST, texts: set[str]) -> Use:
    what, line = messages.RULE_FRAGMENTS, getattr(sub, "lineno", 0)
    if isinstance(sub, (ast.For, ast.AsyncFor)):
        return line, what["for"]
    if isinstance(sub, ast.comprehension):
        return getattr(sub.target, "lineno", line), what["for-comprehension"]
    return None


def _named(word: str, sub: ast.AST) -> Use:
    """Any other word: the name itself, or an attribute of that name."""
    uses, line = messages.RULE_FRAGMENTS["uses"], getattr(sub, "lineno", 0)
    if isinstance(sub, ast.Name) and sub.id == word:
        return line, uses.format(word)
    if isinstance(sub, ast.Attribute) and sub.attr == word:
        return line, uses.format("." + word)
    return None


# The words a rule may forbid that stand for more than one name, and how each is found.
WORD_CHECKS: dict[str, Callable[[ast.AST, ast.AST, set[str]], Use]] = {
    "str": _text_use, "lists": _list_use, "square brackets": _bracket_use, "for loops": _loop_use,
}


def _owner(nodes: list[ast.AST], line: int) -> str | None:
    best = None
    for n in nodes:
        if isinstance(n, DEFS):
            end = getattr(n, "end_lineno", n.lineno)
            if n.lineno <= line <= end:
                best = n.name
    return best


class RuleChecker:
    """Checks rules against one parsed submission; the module's bindings are worked out once.

    ``removed`` maps functions that were left out for a syntax error to that error's line, so
    their rules say so instead of blaming the stub that stands in for them.
    """

    def __init__(self, tree: ast.Module | None, filename: str = "hog.py", removed: dict[str, int] | None = None):
        self.tree, self.filename, self.removed = tree, filename, removed or {}
        self.bound = top_level_bindings(tree) if tree is not None else {}
        self.texts = {
            name
            for name, nodes in self.bound.items()
            for node in nodes
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        }

    def check(self, rule: Rule) -> RuleResult:
        text = describe(rule)
        if self.tree is None:
            return RuleResult(rule.problem, text, False, messages.unreadable_submission(self.filename))
        if rule.function in self.removed:
            detail = messages.removed_for_syntax(rule.function, self.filename, self.removed[rule.function])
            return RuleResult(rule.problem, text, False, detail)
        nodes = find_reachable(self.tree, rule.function, self.bound)
        if nodes is None:
            return RuleResult(rule.problem, text, False, messages.missing_function(self.filename, rule.function, []))

        def where(line: int) -> str:
            return messages.rule_where(line, _owner(nodes, line), rule.function)

        if rule.kind == "uses":
            named = {name for node in nodes for name, _ in _names(node)}
            missing = [n for n in rule.names if n not in named]
            if missing:
                return RuleResult(rule.problem, text, False, messages.rule_missing_calls(rule.function, missing))
            return RuleResult(rule.problem, text, True)
        for node in nodes:
            for name, line in _names(node, skip_debug=True):
                if name in ESCAPES:
                    return RuleResult(rule.problem, text, False, messages.rule_escape(where(line), name), line)
        for word in rule.names:
            for node in nodes:
                hits = sorted(_violations(word, node, self.texts))
                if hits:
                    line, what = hits[0]
                    detail = messages.rule_violation(where(line), what, rule.function, word)
                    return RuleResult(rule.problem, text, False, detail, line)
        return RuleResult(rule.problem, text, True)

    def check_all(self, rules: list[Rule] | tuple[Rule, ...]) -> list[RuleResult]:
        return [replace(self.check(r), required=r.required, function=r.function) for r in rules]


def check_rule(tree: ast.Module | None, rule: Rule) -> RuleResult:
    return RuleChecker(tree).check(rule)


def check_rules(tree: ast.Module | None, rules: list[Rule] | tuple[Rule, ...]) -> list[RuleResult]:
    return RuleChecker(tree).check_all(rules)
