"""Shape rules: declared checks on a submission's source, made with ``ast`` before any code runs.

Contract: a rule names a function and either things it must not use (``forbid``) or functions it
must use (``uses``). Both look at the function *and every module-level helper it reaches*, directly
or not (a rule with ``helpers = false`` looks at the function's own code alone, with what it nests):
a function, lambda, class, import or value bound at the top level of the submission (also inside
top-level ``if``/``try``/``with`` blocks) and named inside the code being checked is checked
too. A forbidden construct cannot be smuggled in through ``eval``, ``exec``, ``getattr``,
``__import__`` and their kin: using any of them in the checked code breaks every ``forbid`` rule.
``print("DEBUG: ...")`` calls are left out of ``forbid`` checks, since debugging output never
decides a result. Each rule yields its own :class:`RuleResult` with a sentence from
:mod:`graders.scoring.messages` and the line that broke it.

Bounded: a :class:`RuleChecker` works out the module's bindings in one pass and walks each top-level
binding's code once, whatever the number of rules (what it finds is kept per binding); a rule's
reach is one walk of the graph of bindings, kept per function. So checking every rule is linear in
the size of the submission, and one :class:`~graders.core.budget.Budget` (``SHAPE_SECONDS`` for all
of a submission's rules) bounds it besides: a rule still unchecked when it runs out fails with a
sentence saying it could not be checked in time, and so does every rule after it.

The forbidden words an edition may declare: ``str``, ``lists``, ``square brackets``, ``for loops``,
or any other name, which then may not appear as a name or attribute.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Optional

from graders.core import messages
from graders.core.budget import SHAPE_SECONDS, Budget, OverBudget
from graders.core.records import RuleResult
from graders.editions.edition import Rule
from graders.scoring import messages as scoring_messages

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
        return scoring_messages.rule_forbids(rule.function, rule.names)
    return scoring_messages.rule_uses(rule.function, rule.names)


def top_level_bindings(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """Every name bound at module level, with the nodes that bind it (defs, classes, assignments,
    imports), including names bound inside top-level ``if``, ``try``, ``with`` and loop blocks.
    One pass: a name an assignment expression (``:=``) binds is bound to the outermost statement
    (without targets of its own) whose code holds it, whose code holds every inner one's too."""
    bound: dict[str, list[ast.AST]] = {}

    def bind(name: str, node: ast.AST) -> None:
        bound.setdefault(name, []).append(node)

    todo: deque[tuple[ast.AST, bool]] = deque((node, False) for node in tree.body)  # (node, walked already)
    while todo:
        node, walked = todo.popleft()
        if isinstance(node, DEFS):
            bind(node.name, node)
            continue  # what a def binds inside itself is not module level
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bind((alias.asname or alias.name).split(".")[0], node)
            continue
        targets = _targets(node)
        if isinstance(node, ast.ExceptHandler) and node.name:
            bind(node.name, node)
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    bind(name.id, node)
        if not targets and not walked:
            for sub in ast.walk(node):
                if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
                    bind(sub.target.id, node)
            walked = True
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            todo.extend((inner, walked) for inner in getattr(node, field, []) or [])
    return bound


def _targets(node: ast.AST) -> list[ast.AST]:
    """What a statement assigns to (the targets of an assignment, a loop or a ``with``), else nothing."""
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        return [node.target]
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    return []


def find_reachable(tree: ast.Module, function: str, bound: dict | None = None) -> list[ast.AST] | None:
    """The nodes of FUNCTION and every top-level binding its code names, transitively."""
    bound = top_level_bindings(tree) if bound is None else bound
    roots = [n for n in bound.get(function, []) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not roots:
        return None
    seen_names = {function}
    seen_nodes: list[ast.AST] = []
    seen: set[int] = set()
    todo: list[ast.AST] = list(roots)
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        seen_nodes.append(node)
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id in bound and sub.id not in seen_names:
                seen_names.add(sub.id)
                todo.extend(bound[sub.id])
    return seen_nodes


def _is_debug_print(node: ast.AST, budget: Budget | None = None) -> bool:
    """``print("DEBUG: ...", ...)`` or ``print(f"DEBUG: ...")``, with no assignment hidden inside
    (looked for only in a print that starts so; each node looked at is a step of BUDGET)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print"):
        return False
    if not node.args:
        return False
    first = node.args[0]
    if isinstance(first, ast.JoinedStr) and first.values:
        first = first.values[0]
    if isinstance(first, ast.BinOp) and isinstance(first.op, ast.Mod):
        first = first.left
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.startswith("DEBUG")):
        return False
    for sub in ast.walk(node):
        if budget is not None:
            budget.step()
        if isinstance(sub, ast.NamedExpr):
            return False
    return True


def _walk(node: ast.AST, skip_debug: bool) -> Iterator[ast.AST]:
    """Like ``ast.walk`` (same order), leaving out DEBUG prints when asked."""
    todo = deque([node])
    while todo:
        current = todo.popleft()
        if skip_debug and _is_debug_print(current):
            continue
        yield current
        todo.extend(ast.iter_child_nodes(current))


def _names(node: ast.AST, skip_debug: bool = False, subs: Iterable[ast.AST] | None = None
           ) -> list[tuple[str, int]]:
    """Every name NODE mentions (or SUBS, NODE's code as walked already): names, attributes, and
    what imports bring in (and from where)."""
    found = []
    for sub in _walk(node, skip_debug) if subs is None else subs:
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


def _violations(word: str, node: ast.AST, texts: set[str], subs: Iterable[ast.AST] | None = None
                ) -> list[tuple[int, str]]:
    """(line, what) for every use of WORD's constructs under NODE (or in SUBS, NODE's code as
    walked already); TEXTS are names bound to text."""
    out: list[tuple[int, str]] = []
    check = WORD_CHECKS.get(word)
    for sub in _walk(node, skip_debug=True) if subs is None else subs:
        if isinstance(sub, ast.alias) and sub.name == word:
            out.append((getattr(node, "lineno", 0), scoring_messages.RULE_FRAGMENTS["imports"].format(word)))
        found = check(sub, node, texts) if check else _named(word, sub)
        if found:
            out.append(found)
    return out


def _imported(sub: ast.AST, node: ast.AST, modules: tuple[str, ...]) -> Use:
    """An import of one of MODULES (an alias is reported at its statement's line)."""
    what = scoring_messages.RULE_FRAGMENTS["imports"]
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
    what, line = scoring_messages.RULE_FRAGMENTS, getattr(sub, "lineno", 0)
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
    what, line = scoring_messages.RULE_FRAGMENTS, getattr(sub, "lineno", 0)
    if isinstance(sub, ast.Name) and sub.id == "list":
        return line, what["uses"].format("list")
    if isinstance(sub, ast.List):
        return line, what["list-display"]
    if isinstance(sub, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return line, what["comprehension"]
    return None


def _bracket_use(sub: ast.AST, node: ast.AST, texts: set[str]) -> Use:
    what, line = scoring_messages.RULE_FRAGMENTS, getattr(sub, "lineno", 0)
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
    what, line = scoring_messages.RULE_FRAGMENTS, getattr(sub, "lineno", 0)
    if isinstance(sub, (ast.For, ast.AsyncFor)):
        return line, what["for"]
    if isinstance(sub, ast.comprehension):
        return getattr(sub.target, "lineno", line), what["for-comprehension"]
    return None


def _named(word: str, sub: ast.AST) -> Use:
    """Any other word: the name itself, or an attribute of that name."""
    uses, line = scoring_messages.RULE_FRAGMENTS["uses"], getattr(sub, "lineno", 0)
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


class _Part:
    """One top-level binding's own code, walked once: its nodes in ``ast.walk`` order (each with
    whether it lies inside a DEBUG print), the bindings nested in it (statements of a top-level
    block that bind names themselves: walked as their own parts), and the module-level names its
    code mentions. What the rules look for in it is kept here too, once found."""

    def __init__(self) -> None:
        self.nodes: list[tuple[ast.AST, bool]] = []
        self.nested: list[ast.AST] = []
        self.mentions: list[str] = []
        self.named: set[str] | None = None  # every name its code mentions, DEBUG prints included
        self.escapes: list[tuple[str, int]] | None = None  # (name, line) of each escape, DEBUG prints left out
        self.hits: dict[str, list[tuple[int, str]]] = {}  # {forbidden word: (line, what) of each use}

    def code(self, skip_debug: bool) -> Iterator[ast.AST]:
        return (node for node, debug in self.nodes if not (skip_debug and debug))


class RuleChecker:
    """Checks rules against one parsed submission; the module's bindings are worked out once.

    ``removed`` maps functions that were left out for a syntax error to that error's line, so
    their rules say so instead of blaming the stub that stands in for them. Each top-level
    binding's code is walked once and what a rule finds there is kept, and the bindings a function
    reaches are found once per function (one walk of the graph of bindings), so checking all the
    rules is linear in the submission's size. ``seconds`` bounds all of it (see the module's
    contract); ``visits`` counts the syntax nodes looked at.
    """

    def __init__(self, tree: ast.Module | None, filename: str = "hog.py", removed: dict[str, int] | None = None,
                 seconds: float | None = SHAPE_SECONDS):
        self.tree, self.filename, self.removed = tree, filename, removed or {}
        self.budget = Budget(seconds)
        self.bound = top_level_bindings(tree) if tree is not None else {}
        self.texts = {
            name
            for name, nodes in self.bound.items()
            for node in nodes
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        }
        self._units = {id(node): node for nodes in self.bound.values() for node in nodes}
        self._parts: dict[int, _Part] = {}
        self._reached: dict[str, list[list[ast.AST]] | None] = {}

    @property
    def visits(self) -> int:
        """How many syntax nodes the checks have looked at so far."""
        return self.budget.steps

    def check(self, rule: Rule) -> RuleResult:
        text = describe(rule)
        if self.tree is None:
            return RuleResult(rule.problem, text, False, messages.unreadable_submission(self.filename))
        if rule.function in self.removed:
            detail = scoring_messages.removed_for_syntax(rule.function, self.filename, self.removed[rule.function])
            return RuleResult(rule.problem, text, False, detail)
        try:
            self.budget.check()
            return self._check(rule, text)
        except OverBudget as over:
            return RuleResult(rule.problem, text, False,
                              scoring_messages.rule_not_checked(rule.function, self.filename, over.seconds))

    def _check(self, rule: Rule, text: str) -> RuleResult:
        groups = self.reach(rule.function)
        if groups is None:
            return RuleResult(rule.problem, text, False, scoring_messages.missing_function(
                self.filename, rule.function, []))
        groups = groups if rule.helpers else groups[:1]  # (the function itself and what it nests come first)
        nodes = [node for group in groups for node in group]

        def where(line: int) -> str:
            return scoring_messages.rule_where(line, _owner(nodes, line), rule.function)

        if rule.kind == "uses":
            named = {name for node in nodes for name in self._named(node)}
            missing = [n for n in rule.names if n not in named]
            if missing:
                return RuleResult(rule.problem, text, False, scoring_messages.rule_missing_calls(
                    rule.function, missing))
            return RuleResult(rule.problem, text, True)
        escape = next((found for node in nodes for found in self._escapes(node)), None)
        if escape is not None:
            name, line = escape
            return RuleResult(rule.problem, text, False, scoring_messages.rule_escape(where(line), name), line)
        for word in rule.names:
            for group in groups:
                first = min((hit for node in group for hit in self._hits(node, word)), default=None)
                if first is not None:
                    line, what = first
                    detail = scoring_messages.rule_violation(where(line), what, rule.function, word)
                    return RuleResult(rule.problem, text, False, detail, line)
        return RuleResult(rule.problem, text, True)

    def _named(self, node: ast.AST) -> set[str]:
        """Every name NODE's own code mentions (DEBUG prints included), found once."""
        part = self._part(node)
        if part.named is None:
            part.named = {name for name, _ in _names(node, subs=part.code(skip_debug=False))}
        return part.named

    def _escapes(self, node: ast.AST) -> list[tuple[str, int]]:
        """(name, line) of every escape in NODE's own code (DEBUG prints left out), found once."""
        part = self._part(node)
        if part.escapes is None:
            part.escapes = [(name, line) for name, line in _names(node, subs=part.code(skip_debug=True))
                            if name in ESCAPES]
        return part.escapes

    def _hits(self, node: ast.AST, word: str) -> list[tuple[int, str]]:
        """(line, what) of every use of WORD's constructs in NODE's own code, found once."""
        part = self._part(node)
        if word not in part.hits:
            part.hits[word] = _violations(word, node, self.texts, subs=part.code(skip_debug=True))
        return part.hits[word]

    def reach(self, function: str) -> list[list[ast.AST]] | None:
        """The top-level bindings FUNCTION's code reaches, directly or not, itself first (None when
        the module defines no such function): in groups, each a binding reached by name and the
        bindings nested in its code (a top-level block's statements). Worked out once per function."""
        if function not in self._reached:
            self._reached[function] = self._walk_reach(function)
        return self._reached[function]

    def _walk_reach(self, function: str) -> list[list[ast.AST]] | None:
        roots = [n for n in self.bound.get(function, []) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not roots:
            return None
        names, seen = {function}, set()
        groups: list[list[ast.AST]] = []
        todo: list[ast.AST] = list(roots)
        while todo:
            node = todo.pop()
            if id(node) in seen:
                continue
            group, inner = [], deque([node])
            while inner:
                unit = inner.popleft()
                if id(unit) not in seen:
                    seen.add(id(unit))
                    group.append(unit)
                    inner.extend(self._part(unit).nested)
            groups.append(group)
            for name in (name for unit in group for name in self._part(unit).mentions):
                if name not in names:
                    names.add(name)
                    todo.extend(self.bound[name])
        return groups

    def _part(self, unit: ast.AST) -> _Part:
        """UNIT's own code (see :class:`_Part`), walked the first time it is asked for."""
        part = self._parts.get(id(unit))
        if part is not None:
            return part
        part = _Part()  # kept once whole: a walk the deadline stopped is never taken for one
        todo: deque[tuple[ast.AST, bool]] = deque([(unit, False)])
        while todo:
            node, debug = todo.popleft()
            self.budget.step()
            debug = debug or _is_debug_print(node, self.budget)
            part.nodes.append((node, debug))
            if isinstance(node, ast.Name) and node.id in self.bound:
                part.mentions.append(node.id)
            for child in ast.iter_child_nodes(node):
                if id(child) in self._units:
                    part.nested.append(child)
                else:
                    todo.append((child, debug))
        self._parts[id(unit)] = part
        return part

    def check_all(self, rules: list[Rule] | tuple[Rule, ...]) -> list[RuleResult]:
        return [replace(self.check(r), required=r.required, function=r.function) for r in rules]


def check_rule(tree: ast.Module | None, rule: Rule) -> RuleResult:
    return RuleChecker(tree).check(rule)


def check_rules(tree: ast.Module | None, rules: list[Rule] | tuple[Rule, ...]) -> list[RuleResult]:
    return RuleChecker(tree).check_all(rules)
