"""One function per hidden case: the kit's reference stands in for every other problem's functions.

Contract: in a hidden case of problem N, every function of another problem that the case reaches
is the reference's, and the student's own functions of N stay, so a point lost at grading on a
function that passes its public cases is a bug in that function. :func:`hidden_contexts` groups
the problems whose hidden cases reach another problem's functions (found statically, through the
case sources and the bodies of the student's and the reference's functions) and gives each group
a source and the :class:`KitFunctions` it calls: the student's (repaired) module, then a *stub*
for every problem function outside the group. A stub has the function's signature (the skeleton
shows it too) and one line that calls the kit: no reference code ever reaches a process that runs
student code. The kit's own child (:mod:`graders.sandboxing.sandbox`) holds the reference, sent
over a pipe, and answers each call with a plain value; in it, the functions of the group's own
problems are the student's, called back through the same link (the reference's ``take_turn``
calls the student's ``boar_brawl`` in a hidden case of ``boar_brawl``). A group holds no two
problems one of which reaches the other.

What a student can learn this way is what the case's own calls return: the child may call a stub
with other arguments, and the answer is the reference's value for them, never its code, its
constants or another case's steps. A hidden case's outcome already says whether those values were
right, and the public cases and the handout show the same functions' values. (The answers to the
pure calls the reference makes in a case reach the student's child with that case, worked out
beforehand: see Session.kit_answers.)

:func:`substitute_removed` does the same for functions a syntax error removed, in every case:
their problems have failed already and run no case; the others' cases call the kit for them.
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
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]  # the last top-level definition of each name
    constants: frozenset[str] = frozenset()  # names bound only to a literal (GOAL = 100)


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
    functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return Reference(source, lines, defines, spans, marked, uses_of(tree), functions, _constants(tree))


def _constants(tree: ast.Module) -> frozenset[str]:
    """The names TREE binds at its top level only by assigning a literal to them."""
    literal: set[str] = set()
    other: set[str] = set()
    for node in tree.body:
        constant = isinstance(node, ast.Assign) and len(node.targets) == 1 and _literal(node.value)
        (literal if constant else other).update(_bound(node))
    return frozenset(literal - other)


def _literal(node: ast.expr) -> bool:
    try:
        syntax.literal_eval(ast.unparse(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


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


# The answers the kit's functions give to the calls the reference makes in the hidden cases that
# make thousands of them (a strategy over every pair of scores), worked out by `hogkit build`: a
# child's stub finds its call's answer there instead of asking the kit's own child each time.
ANSWERS_FILE = "kit-answers.json.xz"


def read_answers(path: Path) -> dict | None:
    """An answers file (ANSWERS_FILE) as written by the build: None where it is missing or unreadable."""
    import json
    import lzma  # (here: a student's Python may lack it, and never reads this file)

    try:
        data = json.loads(lzma.decompress(path.read_bytes()))
    except (OSError, lzma.LZMAError, ValueError):
        return None
    return data if type(data) is dict else None


@dataclass(frozen=True)
class KitFunctions:
    """The functions of the kit that a child's stubs call: OFFERED, served by the kit's own child
    from SOURCE (the reference module) with MODULES ((name, source) of the support files) loaded
    first; in it, PROXIED (the student's own functions) call back into the student's child."""

    source: str
    offered: tuple[str, ...]
    proxied: tuple[str, ...]
    modules: tuple[tuple[str, str], ...] = ()
    prepared: str = ""  # the edition's file of answers worked out beforehand (see ANSWERS_FILE), if any


def _stub(ref: Reference, name: str, student_names: set[str]) -> str:
    """A definition of NAME with the reference's signature whose body calls the kit's NAME. A default
    that is neither a literal nor a constant of the student's module (GOAL) is the kit's own
    (``__hogkit_default__``): a die left to its default is the kit's die."""
    node = ref.functions.get(name)
    if node is None:  # bound some other way (an assignment): call whatever it is
        return f"def {name}(*args, **kwargs):\n    return __hogkit_call__({name!r}, args, kwargs)\n"
    a = node.args

    def bare(x: ast.arg) -> ast.arg:
        return ast.arg(x.arg)

    def default(d: ast.expr) -> ast.expr:
        return _default(d, student_names, ref.constants)

    kept = ast.arguments(posonlyargs=[bare(x) for x in a.posonlyargs], args=[bare(x) for x in a.args],
                         vararg=a.vararg and bare(a.vararg), kwonlyargs=[bare(x) for x in a.kwonlyargs],
                         kw_defaults=[default(d) if d is not None else None for d in a.kw_defaults],
                         kwarg=a.kwarg and bare(a.kwarg), defaults=[default(d) for d in a.defaults])
    signature = ast.unparse(kept)
    positional = [x.arg for x in a.posonlyargs + a.args] + ([f"*{a.vararg.arg}"] if a.vararg else [])
    keywords = [f"{x.arg!r}: {x.arg}" for x in a.kwonlyargs] + ([f"**{a.kwarg.arg}"] if a.kwarg else [])
    args = "(" + "".join(f"{x}, " for x in positional) + ")"
    return (f"def {name}({signature}):\n"
            f"    return __hogkit_call__({name!r}, {args}, {{{', '.join(keywords)}}})\n")


def _default(node: ast.expr, student_names: set[str], constants: frozenset[str]) -> ast.expr:
    if isinstance(node, ast.Name) and node.id in student_names and node.id in constants:
        return node  # the student's own constant (GOAL); a function (a die) is the kit's
    return node if _literal(node) else ast.Name("__hogkit_default__", ast.Load())


def with_kit(source: str, edition: Edition, ref: Reference, offered: set[str], student_names: set[str]
             ) -> tuple[str, KitFunctions | None]:
    """SOURCE with a stub after it for each of OFFERED (the functions the kit serves), and what the
    stubs call: every other problem function stays the student's."""
    offered = {f for f in offered if f in ref.defines}
    if not offered:
        return source, None
    stubs = "\n\n".join(_stub(ref, name, student_names) for name in sorted(offered))
    proxied = tuple(sorted(f for f in problem_functions(edition) if f not in offered))
    kit = KitFunctions(ref.source, tuple(sorted(offered)), proxied, support_modules(edition),
                       str(edition.suite_dir / ANSWERS_FILE))
    return f"{source}\n\n\n# The kit's functions for what this case does not test.\n{stubs}", kit


def support_modules(edition: Edition) -> tuple[tuple[str, str], ...]:
    """(module name, source) of the edition's support files that the kit's own child loads first."""
    return tuple((Path(name).stem, (edition.support_dir / name).read_text(encoding="utf-8"))
                 for name in edition.support if name.endswith(".py"))


def recording_kit(edition: Edition) -> KitFunctions | None:
    """The kit's functions as a child that records a case's answers serves them: every problem
    function of the reference (see graders.sandboxing.sandbox.record_answers). None without a reference."""
    ref = reference(edition)
    if ref is None:
        return None
    offered = tuple(sorted(f for f in problem_functions(edition) if f in ref.defines))
    return KitFunctions(ref.source, offered, (), support_modules(edition), str(edition.suite_dir / ANSWERS_FILE))


def stubbed_reference(edition: Edition, ref: Reference, names: Iterable[str], student_names: set[str]
                      ) -> tuple[str, KitFunctions | None]:
    """The reference's top-level statements that define no function (its imports and constants,
    the skeleton's too), then a stub for each of NAMES, and the kit's functions those stubs call:
    the module a student's test runs in (see graders.scoring.checks.carry), no line of the
    reference's solutions in it."""
    tree = syntax.parse_module(ref.source)
    plain = [ref.lines[first - 1:last] for (first, last), node in zip(ref.spans, tree.body)
             if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    return with_kit("\n".join("\n".join(lines) for lines in plain) + "\n", edition, ref, set(names), student_names)


def hidden_contexts(source: str, tree: ast.Module | None, student_names: set[str], edition: Edition,
                    cases: dict[str, list[Case]], trusted: bool = False
                    ) -> list[tuple[frozenset[str], str, KitFunctions | None]]:
    """[(problems, the source their hidden cases run, the kit's functions it calls)]: one per group
    of the problems whose hidden cases (of CASES, {problem: its cases}) reach another problem's
    functions. TRUSTED: SOURCE is the kit's own code (a mutant of the reference), never a student's,
    so the reference's definitions follow it in its own process (see with_reference)."""
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
    contexts: list[tuple[frozenset[str], str, KitFunctions | None]] = []
    for g in group(reaches):
        own = {f for f, labels in functions.items() if labels & g}
        replace = {f for f in functions if f not in own  # (nor one holding a marked block of the group)
                   and not any(ref.marked[k] & g for k in ref.defines.get(f, []))}
        if trusted:
            contexts.append((g, with_reference(source, ref, replace, student_names, g), None))
        else:
            contexts.append((g, *with_kit(source, edition, ref, replace, student_names)))
    return contexts


def with_reference(source: str, ref: Reference, replace: set[str], keep: set[str], avoid: frozenset[str]) -> str:
    """SOURCE with the reference's statements defining REPLACE after it, and the helpers they need
    that KEEP (the source's names) lacks, never one overlapping a marked block of AVOID, in the
    reference's order. Only ever for the kit's own code (hidden_contexts' TRUSTED): a student's
    source gets stubs instead (with_kit)."""
    chosen: set[int] = set()
    todo, seen = sorted(replace), set()
    while todo:
        name = todo.pop()
        if name in seen or name not in ref.defines or (name in keep and name not in replace):
            continue
        seen.add(name)
        for k in ref.defines[name]:
            if not ref.marked[k] & avoid:
                chosen.add(k)
                first, last = ref.spans[k]
                todo += sorted(_names_in("\n".join(ref.lines[first - 1:last]), True) - seen)
    parts = ["\n".join(ref.lines[a - 1:b]) for a, b in (ref.spans[k] for k in sorted(chosen))]
    return f"{source}\n\n\n# The reference's functions for what this case does not test.\n" + "\n\n".join(parts) + "\n"


def substitute_removed(source: str, edition: Edition, removed: Iterable[str], student_names: set[str]
                       ) -> tuple[str, KitFunctions | None]:
    """SOURCE with a stub of the kit's for each problem function in REMOVED (a syntax error's
    stand-ins), so that the cases of other problems that reach it run: its problems score 0 and run
    no case. A helper outside the problems' functions is never brought in."""
    ref = reference(edition)
    functions = problem_functions(edition)
    wanted = {f for f in removed if f in functions}
    if ref is None or not wanted:
        return source, None
    others = frozenset(p.label for p in edition.problems) - {label for f in wanted for label in functions[f]}
    wanted = {f for f in wanted if not any(ref.marked[k] & others for k in ref.defines.get(f, []))}
    return with_kit(source, edition, ref, wanted, student_names)


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
