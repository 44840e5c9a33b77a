"""Mutations: where a mutant of the reference may go (a problem's own marked code, in a function the
manifest lists for it), the operators that make one small change each, and their generation:
deterministic, with the standard library's ``ast`` alone. :mod:`graders.authoring.mutants` grades them."""

from __future__ import annotations

import ast
import copy
import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from graders.authoring import messages as authoring_messages
from graders.core import syntax
from graders.core.errors import MutantError
from graders.editions.edition import Problem, problem_label
from graders.editions.markers import BEGIN, END

OPERATORS = ("delete", "arithmetic", "comparison", "bound", "constant", "boolean", "condition", "argument",
             "return", "helper")


ARITHMETIC = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Div,
              ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult}


COMPARISON = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
              ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}


BOUND = {ast.Lt: ast.Sub, ast.LtE: ast.Add, ast.Gt: ast.Add, ast.GtE: ast.Sub}  # the way the swap does not go


OPPOSITE_BUILTINS = {"min": "max", "max": "min"}  # builtins whose wrong twin is a classic slip


HELPERS_TRIED = 2  # for a call to one of the file's functions: this many others, the nearest in the file


@dataclass(frozen=True)
class Mutant:
    id: str  # "LABEL FUNCTION: OPERATOR: the changed statement", stable across runs and reformatting
    problem: str  # the label of the problem whose marked block holds the change
    function: str  # where the change is: "always_roll.strategy" inside always_roll
    operator: str  # one of OPERATORS
    line: int  # where the changed statement starts in the reference, for people (not part of the id)
    before: str  # the statement as the reference has it (a compound statement's first line)
    after: str  # the statement as the mutant has it ("pass" for a deleted one)
    graded_with: tuple[str, ...]  # the labels of the problems whose cases judge it: every one naming its function
    source: str = field(default="", repr=False, compare=False)  # the whole mutated file


@dataclass(frozen=True)
class Block:
    """One marked block: problem LABEL's code between lines BEGIN and END (the marker lines)."""

    label: str
    begin: int
    end: int

    def holds(self, node: ast.stmt) -> bool:
        return self.begin < node.lineno and (node.end_lineno or node.lineno) < self.end


def marked_blocks(source: str) -> list[Block]:
    """Every ``# BEGIN PROBLEM N`` ... ``# END PROBLEM N`` block of SOURCE, in order, each with its
    problem's label (``# BEGIN PROBLEM 5a`` is "05a"; pairs as :mod:`graders.editions.markers` checks them
    when the skeleton is built)."""
    blocks: list[Block] = []
    open_at: tuple[str, int] | None = None
    for lineno, line in enumerate(source.split("\n"), start=1):
        begin, end = BEGIN.match(line), END.match(line)
        if begin:
            open_at = (problem_label(begin["n"]), lineno)
        elif end and open_at and problem_label(end["n"]) == open_at[0]:
            blocks.append(Block(open_at[0], open_at[1], lineno))
            open_at = None
    return blocks


@dataclass(frozen=True)
class Site:
    """Everything a mutation needs to know about where it is."""

    problem: str  # its label
    function: str  # qualified name
    top: str  # the top-level function
    top_lines: tuple[int, int]  # its first and last line
    statement: ast.stmt  # the statement the change is in
    graded_with: tuple[str, ...]
    local_defs: tuple[str, ...]  # functions defined inside the top-level function


def owned_statements(tree: ast.Module, source: str, problems: Sequence[Problem]
                     ) -> Iterator[tuple[ast.FunctionDef, Block, ast.stmt]]:
    """(top-level function, block, statement) for every outermost statement a problem owns: inside
    one of its marked blocks, in a function the problem names. In source order."""
    blocks = marked_blocks(source)
    naming = {p.label: set(p.functions) for p in problems}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for block in blocks:
            if node.name in naming.get(block.label, ()) and node.lineno < block.begin < (node.end_lineno or 0):
                yield from ((node, block, s) for s in _outermost_in(node.body, block))


def _outermost_in(body: list[ast.stmt], block: Block) -> Iterator[ast.stmt]:
    for statement in body:
        if block.holds(statement):
            yield statement
        else:
            for inner in _bodies(statement):
                yield from _outermost_in(inner, block)


def _bodies(statement: ast.stmt) -> list[list[ast.stmt]]:
    return [getattr(statement, name) for name in ("body", "orelse", "finalbody") if
            isinstance(getattr(statement, name, None), list)]


# A change: (operator, the node replaced, its replacement: a node, or None for a deleted statement)
Change = tuple[str, ast.AST, ast.AST | None]


def statement_changes(statement: ast.stmt, site: Site) -> Iterator[Change]:
    """The changes to one statement itself (not to the expressions inside it)."""
    if not _is_docstring(statement) and not isinstance(statement, ast.Pass):
        yield "delete", statement, None
    if isinstance(statement, ast.AugAssign) and type(statement.op) in ARITHMETIC:
        yield "arithmetic", statement, replace_field(statement, op=ARITHMETIC[type(statement.op)]())
    if isinstance(statement, ast.If):
        yield from _condition_changes(statement.test, allow_true=True)
    if isinstance(statement, ast.While):
        yield from _condition_changes(statement.test, allow_true=False)
    if isinstance(statement, ast.Return) and statement.value is not None:
        yield from _return_changes(statement.value, site)


def expression_changes(node: ast.expr, site: Site, functions: dict[str, ast.FunctionDef]) -> Iterator[Change]:
    """The changes to one expression node (each of its own, not its children's)."""
    if isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC:
        yield "arithmetic", node, replace_field(node, op=ARITHMETIC[type(node.op)]())
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield "arithmetic", node, node.operand
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield "condition", node, node.operand
    elif isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            if type(op) in COMPARISON:
                ops = list(node.ops)
                ops[k] = COMPARISON[type(op)]()
                yield "comparison", node, replace_field(node, ops=ops)
        yield from _bound_changes(node)
    elif isinstance(node, ast.BoolOp):
        yield "boolean", node, replace_field(node, op=ast.Or() if isinstance(node.op, ast.And) else ast.And())
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        for delta in (1, -1):
            yield "constant", node, ast.Constant(node.value + delta)
    elif isinstance(node, ast.IfExp):
        yield from _condition_changes(node.test, allow_true=True)
    elif isinstance(node, ast.Call):
        yield from _argument_changes(node)
        yield from _helper_changes(node, site, functions)


def _bound_changes(compare: ast.Compare) -> Iterator[Change]:
    """An order's bound moved by one the way the comparison operator does not already move it:
    ``x < n`` becomes ``x < n - 1`` (``x <= n`` is the comparison swap's). A constant bound is the
    constant operator's to move, both ways."""
    for k, op in enumerate(compare.ops):
        bound = compare.comparators[k]
        if type(op) in BOUND and not (isinstance(bound, ast.Constant) and type(bound.value) is int):
            comparators = list(compare.comparators)
            comparators[k] = ast.BinOp(bound, BOUND[type(op)](), ast.Constant(1))
            yield "bound", compare, replace_field(compare, comparators=comparators)


def _condition_changes(test: ast.expr, allow_true: bool) -> Iterator[Change]:
    """A condition negated, and (where a loop would not then run forever) removed: always true."""
    negated = test.operand if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else ast.UnaryOp(
        ast.Not(), test)
    yield "condition", test, negated
    if allow_true and not (isinstance(test, ast.Constant) and test.value is True):
        yield "condition", test, ast.Constant(True)


def _return_changes(value: ast.expr, site: Site) -> Iterator[Change]:
    """A neighbouring value returned: the other truth value for a condition, one more for a number.
    Values that are plainly not numbers (a local function, a tuple, text) and integer constants
    (the constant operator covers them) are left alone."""
    if isinstance(value, ast.Constant) and type(value.value) is bool:
        yield "return", value, ast.Constant(not value.value)
    elif isinstance(value, (ast.Compare, ast.BoolOp)) or (isinstance(value, ast.UnaryOp)
                                                          and isinstance(value.op, ast.Not)):
        yield "return", value, ast.UnaryOp(ast.Not(), value)
    elif isinstance(value, ast.Name) and value.id in site.local_defs:
        return
    elif not isinstance(value, (ast.Constant, ast.Lambda, ast.Tuple, ast.List, ast.Dict, ast.Set, ast.JoinedStr)):
        yield "return", value, ast.BinOp(value, ast.Add(), ast.Constant(1))


def _argument_changes(call: ast.Call) -> Iterator[Change]:
    """Two neighbouring positional arguments swapped (when they differ)."""
    args = call.args
    for k in range(len(args) - 1):
        if any(isinstance(a, ast.Starred) for a in args[k:k + 2]) or ast.dump(args[k]) == ast.dump(args[k + 1]):
            continue
        swapped = list(args)
        swapped[k], swapped[k + 1] = args[k + 1], args[k]
        yield "argument", call, replace_field(call, args=swapped)


def _helper_changes(call: ast.Call, site: Site, functions: dict[str, ast.FunctionDef]) -> Iterator[Change]:
    """The call made to another function of the file (or a local one) that takes as many arguments,
    the nearest in the file first; ``min`` and ``max`` swapped."""
    if not isinstance(call.func, ast.Name) or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return
    name = call.func.id
    if name in OPPOSITE_BUILTINS and name not in functions:
        yield "helper", call, replace_field(call, func=ast.Name(OPPOSITE_BUILTINS[name], ast.Load()))
        return
    if name not in functions:
        return
    local = name in site.local_defs  # a local function's slip is its sibling; a file function's, another
    order = [other for other in functions if (other in site.local_defs) == local]
    here = order.index(name)
    fitting = [other for other in order if other not in (name, site.top) and _accepts(functions[other],
                                                                                        len(call.args))]
    fitting.sort(key=lambda other: (abs(order.index(other) - here), order.index(other)))
    for other in fitting[:HELPERS_TRIED]:
        yield "helper", call, replace_field(call, func=ast.Name(other, ast.Load()))


def _accepts(function: ast.FunctionDef, count: int) -> bool:
    """Whether FUNCTION can be called with COUNT positional arguments and nothing else."""
    a = function.args
    positional = len(a.posonlyargs) + len(a.args)
    required = positional - len(a.defaults)
    kw_required = any(d is None for d in a.kw_defaults)
    return not kw_required and required <= count and (count <= positional or a.vararg is not None)


def replace_field(node: ast.AST, **fields: object) -> ast.AST:
    """A shallow copy of NODE with FIELDS replaced (the original is never changed)."""
    twin = copy.copy(node)
    for name, value in fields.items():
        setattr(twin, name, value)
    return twin


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(
        statement.value.value, str)


def generate(source: str, problems: Sequence[Problem], filename: str) -> tuple[Mutant, ...]:
    """Every mutant of SOURCE in code PROBLEMS own, in a fixed order: by function as the file has
    them, then statement by statement, each node's changes before its children's. Mutants whose
    file is the same as an earlier one's are left out. Raises :class:`MutantError` for a mutant
    Python cannot compile (a bug of the kit, never of the edition); FILENAME (the edition's
    submission file) is the name the changed code is compiled under."""
    tree = syntax.parse_module(source)
    functions = _callable_functions(tree)
    namers: dict[str, list[str]] = {}
    for p in problems:  # in the edition's order
        for name in p.functions:
            namers.setdefault(name, []).append(p.label)
    found: list[Mutant] = []
    seen_sources = {source}
    counts: dict[str, int] = {}
    splicer = Splicer(source)
    for top, block, statement in owned_statements(tree, source, problems):
        local = {n.name: n for n in ast.walk(top) if isinstance(n, ast.FunctionDef) and n is not top}
        site = Site(block.label, top.name, top.name, (top.lineno, top.end_lineno or top.lineno), statement,
                    tuple(namers[top.name]), tuple(local))
        for where, operator, old, new in _changes_in(statement, site, {**functions, **local}):
            mutant = _make(splicer, where, operator, old, new, counts, filename)
            if mutant.source not in seen_sources:
                seen_sources.add(mutant.source)
                found.append(mutant)
    return tuple(found)


def _callable_functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """The file's own top-level functions a call could be sent to by mistake (not decorated ones,
    which are entry points rather than helpers), in file order."""
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and not n.decorator_list}


def _changes_in(statement: ast.stmt, site: Site, functions: dict[str, ast.FunctionDef]
                ) -> Iterator[tuple[Site, str, ast.AST, ast.AST | None]]:
    """Every change inside STATEMENT (and the statements nested in it), with the site of each."""
    here = replace(site, statement=statement)
    for operator, old, new in statement_changes(statement, here):
        yield here, operator, old, new
    inner_site = here
    if isinstance(statement, ast.FunctionDef):
        inner_site = replace(here, function=f"{here.function}.{statement.name}")
    for name, value in ast.iter_fields(statement):
        if name in ("body", "orelse", "finalbody", "decorator_list", "returns", "type_comment", "args"):
            continue
        for node in _expressions(value):
            for operator, old, new in expression_changes(node, here, functions):
                yield here, operator, old, new
    for body in _bodies(statement):
        for inner in body:
            yield from _changes_in(inner, inner_site, functions)


def _expressions(value: object) -> Iterator[ast.expr]:
    """Every expression node in VALUE (a field of a statement), parents before children, in field
    order; nothing inside an f-string (whose positions older Pythons misreport), nothing written to."""
    roots = value if isinstance(value, list) else [value]
    for root in roots:
        if not isinstance(root, ast.expr) or isinstance(root, ast.JoinedStr):
            continue
        if isinstance(getattr(root, "ctx", None), (ast.Store, ast.Del)):
            continue
        yield root
        for name, child in ast.iter_fields(root):
            if not (isinstance(root, ast.Lambda) and name == "args"):
                yield from _expressions(child)


def _make(splicer: Splicer, site: Site, operator: str, old: ast.AST, new: ast.AST | None,
          counts: dict[str, int], filename: str) -> Mutant:
    statement = site.statement
    before = _first_line(statement)
    if new is None:
        after, text = "pass", "pass"
    else:
        after = _swapped_line(statement, old, new)
        text = ast.unparse(new)
        if isinstance(new, ast.expr) and not isinstance(new, (ast.Name, ast.Constant, ast.Call, ast.Attribute)):
            text = f"({text})"
    mutated = splicer.splice(old, text)
    try:  # the changed function alone: the rest of the file is the reference's, which compiles
        syntax.compile_code(splicer.splice(old, text, within=site.top_lines), filename)
    except SyntaxError as exc:
        raise MutantError(f"{site.problem} {site.function}: {operator}: {after}: {exc}") from exc
    key = f"{site.problem} {site.function}: {operator}: {_short(before if new is None else after)}"
    counts[key] = counts.get(key, 0) + 1
    ident = key if counts[key] == 1 else f"{key} #{counts[key]}"
    return Mutant(ident, site.problem, site.function, operator, statement.lineno, before, after, site.graded_with,
                  mutated)


ID_TEXT = 160  # characters of a statement kept in an id; a longer one ends with a digest of the rest


def _short(text: str) -> str:
    """TEXT, or its start and a digest of all of it when it is long (a table of a hundred strings)."""
    if len(text) <= ID_TEXT:
        return text
    return f"{text[:ID_TEXT]}… {hashlib.sha256(text.encode()).hexdigest()[:10]}"


def _first_line(statement: ast.stmt) -> str:
    return ast.unparse(statement).split("\n")[0]


def _swapped_line(statement: ast.stmt, old: ast.AST, new: ast.AST) -> str:
    """The first line of STATEMENT as it reads with the node OLD replaced by NEW: swapped in place
    just to print it, then put back (the tree is this generation's own)."""
    if old is statement:
        return _first_line(new)  # type: ignore[arg-type]
    for parent in ast.walk(statement):
        for name, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, name, new)
                try:
                    return _first_line(statement)
                finally:
                    setattr(parent, name, old)
            if isinstance(value, list) and any(v is old for v in value):
                k = next(i for i, v in enumerate(value) if v is old)
                value[k] = new
                try:
                    return _first_line(statement)
                finally:
                    value[k] = old
    raise ValueError(authoring_messages.mutant_node_outside(ast.dump(old)))


class Splicer:
    """Replaces one node's text in the source by other text, leaving every other byte as it was
    (``ast`` positions count bytes of UTF-8 within a line)."""

    def __init__(self, source: str) -> None:
        self.data = source.encode("utf-8")
        self.starts = [0]
        for line in self.data.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))

    def splice(self, node: ast.AST, text: str, within: tuple[int, int] | None = None) -> str:
        """The source with NODE's text replaced by TEXT; only the lines WITHIN (first, last) of it when
        given (a top-level function, say, to compile on its own)."""
        # Every node a mutant changes is an expression or a statement parsed from source: it has a place.
        assert isinstance(node, (ast.expr, ast.stmt))
        assert node.end_lineno is not None and node.end_col_offset is not None
        start = self.starts[node.lineno - 1] + node.col_offset
        end = self.starts[node.end_lineno - 1] + node.end_col_offset
        first, last = (self.starts[within[0] - 1], self.starts[within[1]]) if within else (0, len(self.data))
        return (self.data[first:start] + text.encode("utf-8") + self.data[end:last]).decode("utf-8")
