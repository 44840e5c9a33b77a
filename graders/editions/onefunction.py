"""One function per hidden case: the reference stands in for every other problem's functions.

Contract: in a hidden case of problem N, every function of another problem that the case reaches
is the reference's, and the student's own functions of N stay, so a point lost at grading on a
function that passes its public cases is a bug in that function. :func:`hidden_contexts` groups
the problems whose hidden cases reach another problem's functions (found statically, through the
case sources and the bodies of the student's and the reference's functions) and gives each group
a source: the student's (repaired) module, then the reference's definitions of every problem
function outside the group, compiled into the same module, so that they in turn call the names
the module binds (the reference's ``take_turn`` calls the reference's ``boar_brawl`` in a hidden
case of ``play``). A group holds no two problems one of which reaches the other, and its source
holds no reference code of a problem in the group: the child that runs a group's hidden cases
(a child of its own, disposed after the run) never sees the reference of a problem it grades.
The reference's helpers (names its functions use that are no problem's function) come along only
where the student's module does not define them, and never from a marked block of the group.

:func:`substitute_removed` does the same for functions a syntax error removed, in every case:
their problems have failed already and run no case, so no child grading them holds the reference.
:func:`later_calls` is the static check that no case calls a student's function of a later problem.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from graders.core import syntax
from graders.core.memo import once
from graders.editions import markers
from graders.editions.cases import Case
from graders.editions.edition import Edition


@dataclass(frozen=True)
class Reference:
    """The marked reference parsed: its top-level statements by the names they bind, with the
    lines each spans and the problems whose marked blocks they overlap."""

    source: str
    lines: list[str]
    defines: dict[str, list[int]]  # name -> indexes of the statements binding it, in order
    spans: list[tuple[int, int]]  # statement index -> (first line, last line), from 1, decorators in
    marked: list[frozenset[str]]  # statement index -> the labels of the marked blocks it overlaps
    uses: dict[str, frozenset[str]]  # function name -> every name its statement mentions


def _bound(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"}
    return set()


def mentioned(node: ast.AST, stores: bool = True) -> frozenset[str]:
    """Every name NODE mentions: names, attributes, and strings that are names (``spy(hog, "f")``);
    without STORES, a name or attribute only assigned to (``hog.f = stand_in``) is left out."""
    found: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, (ast.Name, ast.Attribute)) and not stores and isinstance(n.ctx, ast.Store):
            continue
        if isinstance(n, ast.Name):
            found.add(n.id)
        elif isinstance(n, ast.Attribute):
            found.add(n.attr)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.isidentifier():
            found.add(n.value)
    return frozenset(found)


def uses_of(tree: ast.Module | None) -> dict[str, frozenset[str]]:
    """{function or class defined at the top of TREE: the names its definition mentions}."""
    found: dict[str, frozenset[str]] = {}
    for node in tree.body if tree is not None else []:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found[node.name] = found.get(node.name, frozenset()) | mentioned(node)
    return found


def _marked_ranges(lines: list[str]) -> list[tuple[str, int, int]]:
    ranges, opened = [], None
    for k, line in enumerate(lines, start=1):
        begin, end = markers.BEGIN.match(line), markers.END.match(line)
        if begin:
            opened = (begin["n"], k)
        elif end and opened:
            ranges.append((markers.problem_label(opened[0]), opened[1], k))
            opened = None
    return ranges


@once(maxsize=16)
def _load_reference(path: Path, stamp: float) -> Reference | None:
    source = path.read_text(encoding="utf-8")
    try:
        tree = syntax.parse_module(source, str(path))
    except SyntaxError:
        return None
    lines = source.split("\n")
    ranges = _marked_ranges(lines)
    defines: dict[str, list[int]] = {}
    spans, marked = [], []
    for k, node in enumerate(tree.body):
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        last = node.end_lineno or node.lineno
        spans.append((first, last))
        marked.append(frozenset(label for label, a, b in ranges if a <= last and first <= b))
        for name in _bound(node):
            defines.setdefault(name, []).append(k)
    return Reference(source, lines, defines, spans, marked, uses_of(tree))


def reference(edition: Edition) -> Reference | None:
    """The edition's marked reference, parsed (None where the kit has none, as in a student's copy)."""
    path = edition.solution_dir / edition.submission
    if not path.is_file():
        return None
    return _load_reference(path.resolve(), path.stat().st_mtime)


def problem_functions(edition: Edition) -> dict[str, frozenset[str]]:
    """{function: the labels of the problems that ask for it}."""
    found: dict[str, set[str]] = {}
    for p in edition.problems:
        for f in p.functions:
            found.setdefault(f, set()).add(p.label)
    return {f: frozenset(labels) for f, labels in found.items()}


def case_names(case: Case, stores: bool = True) -> frozenset[str]:
    """The names CASE's own source mentions (its steps, or the function a check runs); without
    STORES, those it only assigns to are left out."""
    found: set[str] = set()
    sources = [s.source for s in case.steps]
    check = case.check
    if check is not None:
        sources += [getattr(check, a) for a in ("function", "strategy", "against") if hasattr(check, a)]
    for text in sources:
        found |= _names_in(text, stores)
    return frozenset(found)


@once(maxsize=8192)
def _names_in(text: str, stores: bool) -> frozenset[str]:
    """The names the source TEXT mentions (none when it does not parse): worked out once per text,
    since a class runs the same cases for every submission."""
    try:
        return mentioned(syntax.parse(text), stores)
    except SyntaxError:
        return frozenset()


def reach(start: Iterable[str], *uses: dict[str, frozenset[str]]) -> set[str]:
    """START and every name the definitions of USES (one map per module) lead to from it."""
    found: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found.add(name)
        for table in uses:
            todo += table.get(name, ())
    return found


def reached_problems(cases: list[Case], own: str, functions: dict[str, frozenset[str]],
                     *uses: dict[str, frozenset[str]]) -> set[str]:
    """The labels of the problems other than OWN whose functions CASES reach."""
    names: set[str] = set()
    for case in cases:
        names |= case_names(case)
    mine = {f for f, labels in functions.items() if own in labels}
    reached = reach(names | mine, *uses)
    return {label for f in reached - mine for label in functions.get(f, ())} - {own}


def group(reaches: dict[str, set[str]]) -> list[frozenset[str]]:
    """The problems of REACHES ({problem: the problems its hidden cases reach}, in order) put into
    as few groups as a greedy pass makes, where no problem of a group reaches another of it."""
    groups: list[set[str]] = []
    for label, reached in reaches.items():
        for g in groups:
            if not (g & reached) and not any(label in reaches[other] for other in g):
                g.add(label)
                break
        else:
            groups.append({label})
    return [frozenset(g) for g in groups]


def appended(ref: Reference, replace: set[str], keep: set[str], avoid: frozenset[str]) -> str:
    """The reference's statements defining REPLACE, then the helpers they need that KEEP (the
    student's names) lacks, never a statement overlapping a marked block of AVOID: in the
    reference's order, as source to run after the student's module."""
    chosen: set[int] = set()
    todo = sorted(replace)
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in ref.defines or (name in keep and name not in replace):
            continue
        seen.add(name)
        for k in ref.defines[name]:
            if ref.marked[k] & avoid:
                continue
            chosen.add(k)
            first, last = ref.spans[k]
            node_names = _names_in("\n".join(ref.lines[first - 1:last]), True)
            todo += sorted(node_names - seen)
    parts = ["\n".join(ref.lines[a - 1:b]) for a, b in (ref.spans[k] for k in sorted(chosen))]
    return "\n\n".join(parts)


def substituted(source: str, edition: Edition, ref: Reference, replace: set[str], student_names: set[str],
                avoid: frozenset[str]) -> str:
    """SOURCE with the reference's definitions of REPLACE (and the helpers they need) after it."""
    extra = appended(ref, replace, student_names, avoid)
    if not extra:
        return source
    return f"{source}\n\n\n# The kit's reference for the functions this case does not test.\n{extra}\n"


def hidden_contexts(source: str, tree: ast.Module | None, student_names: set[str], edition: Edition,
                    cases: dict[str, list[Case]]) -> list[tuple[frozenset[str], str]]:
    """[(problems, the source their hidden cases run)]: one per group of the problems whose hidden
    cases (of CASES, {problem: its cases}) reach another problem's functions."""
    ref = reference(edition)
    if ref is None or tree is None:
        return []
    functions = problem_functions(edition)
    student_uses = uses_of(tree)
    reaches = {}
    for label, its in cases.items():
        hidden = [c for c in its if c.hidden and c.runs_in != "reference"]
        reached = reached_problems(hidden, label, functions, student_uses, ref.uses) if hidden else set()
        if reached:
            reaches[label] = reached
    contexts = []
    for g in group(reaches):
        own = {f for f, labels in functions.items() if labels & g}
        replace = {f for f in functions if f not in own and f in ref.defines}
        contexts.append((g, substituted(source, edition, ref, replace, student_names, g)))
    return contexts


def substitute_removed(source: str, edition: Edition, removed: Iterable[str], student_names: set[str]) -> str:
    """SOURCE with the reference's definition of each problem function in REMOVED (a syntax error's
    stubs), so that the cases of other problems that reach it run: its problems score 0 and run
    no case. A helper outside the problems' functions is never brought in."""
    ref = reference(edition)
    functions = problem_functions(edition)
    wanted = {f for f in removed if f in functions}
    if ref is None or not wanted:
        return source
    avoid = frozenset(label for f in wanted for label in functions[f])
    others = frozenset(p.label for p in edition.problems) - avoid
    return substituted(source, edition, ref, wanted, student_names, others)


def later_calls(edition: Edition, cases: list[Case], label: str) -> set[str]:
    """The functions of problems after LABEL that CASES name themselves: none should, in public
    cases (they call the student's own); a hidden case that does runs them as the reference's."""
    functions = problem_functions(edition)
    order = [p.label for p in edition.problems]
    later = set(order[order.index(label) + 1:])
    names: set[str] = set()
    for case in cases:
        names |= case_names(case, stores=False)
    return {f for f in names if f in functions and functions[f] <= later}
