"""Fingerprints: each function a student wrote, as hashes that survive the usual disguises.

Contract: :func:`read` (and :func:`functions_of`, its units alone) parses a submission's source
with :mod:`ast` (never running it) and returns one :class:`Unit` per top-level function, each
holding the hashes of the k-grams of its *normal form* and, for each hash, the source lines it
came from. The normal form is what stays
when a copy is disguised: every name the kit does not know becomes ``V`` (renamed variables and
helpers), docstrings, bare strings, comments, ``pass``, ``print(...)`` calls, code after a
``return``, ``if False:`` blocks and assignments never read are gone (dead code and prints added),
``x += y`` is ``x = x + y``, a counting ``while`` loop is the ``for ... in range`` it spells out
(``for`` <-> ``while``), and a variable assigned once and read once is replaced by its value
(split or merged expressions). Statements that are the skeleton's own (its asserts, its
``who = 0``) are left out when :func:`read` is given the skeleton's statements. A source with a
syntax error is read function by function, as grading reads it: the top-level block holding the
error is left out, and every other function is fingerprinted.
Nothing here reads a file or keeps state between calls.

Bounded: every step is linear in the size of the function (dead statements are taken out of a block
in one rebuild of it, never one by one; a syntax error's repair parses the source at most
:data:`~graders.sandboxing.repairs.MAX_REPAIRS` times more), and :func:`read` takes a
:class:`~graders.core.budget.Budget` whose deadline, once passed, raises
:class:`~graders.core.budget.OverBudget` out of it (the caller labels that hand-in).
"""

from __future__ import annotations

import ast
import builtins
import zlib
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from graders.core.budget import Budget
from graders.core.syntax import parse_module
from graders.sandboxing.repairs import repair

K = 12  # tokens per k-gram: measured on the labelled corpus (benchmarks/similarity_corpus.py)
KEEP = frozenset(dir(builtins))  # names kept as written: builtins, and the skeleton's own (given)
GIVEN = (ast.Assert, ast.Assign, ast.Return)  # the kinds of statement a skeleton gives inside a stub


@dataclass(frozen=True)
class Unit:
    """One function as a student wrote it."""

    name: str
    first: int  # its first line in the submission (1-based)
    lines: tuple[str, ...]  # its source lines, as written
    hashes: Mapping[int, tuple[int, int]]  # k-gram hash -> (first line, last line) it came from
    tokens: int  # how long its normal form is
    live: frozenset[int] = frozenset()  # the lines its normal form comes from (comments, dead code: none)
    given: frozenset[int] = frozenset()  # the lines that are the skeleton's own (left out of the comparison)


def statement_keys(tree: ast.Module, known: Collection[str] = ()) -> dict[str, frozenset[str]]:
    """For each top-level function of TREE (a skeleton), its statements (docstring aside) as
    :func:`statement_key` writes them: a copy that renamed a parameter in them still gives them."""
    keep = KEEP | frozenset(known)
    keys: dict[str, frozenset[str]] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            keys[node.name] = frozenset(statement_key(s, keep) for s in _without_docstring(node.body))
    return keys


def statement_key(s: ast.stmt, keep: frozenset[str]) -> str:
    return " ".join(t for t, _ in _walk(s, keep, 0))


def _without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    return [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                    and isinstance(s.value.value, str))]


@dataclass(frozen=True)
class Found:
    """What :func:`read` found in a source: its functions, and those a syntax error left out."""

    units: tuple[Unit, ...]
    broken: tuple[tuple[str, int], ...] = ()  # (a wanted function left out for a syntax error, its line)


def functions_of(source: str, known: Collection[str], provided: Mapping[str, frozenset[str]],
                 wanted: Callable[[str], bool] = lambda name: True, budget: Budget | None = None) -> list[Unit]:
    """The units :func:`read` finds."""
    return list(read(source, known, provided, wanted, budget).units)


def read(source: str, known: Collection[str], provided: Mapping[str, frozenset[str]],
         wanted: Callable[[str], bool] = lambda name: True, budget: Budget | None = None) -> Found:
    """The top-level functions of SOURCE that are WANTED (by name), fingerprinted. KNOWN names stay
    as written (the skeleton's functions and globals); PROVIDED maps a function name to the
    statements the skeleton gives it, which are left out of that function. A source with a syntax
    error is read as grading reads it (:func:`~graders.sandboxing.repairs.repair`): the top-level
    block holding the error is left out (a function so left out is named in ``broken``) and the
    rest compared. Each node and token is a step of BUDGET:
    :class:`~graders.core.budget.OverBudget` once its deadline has passed."""
    budget = budget or Budget()
    tree, removed = _parsed(source)
    budget.check()
    if tree is None:  # nothing to compare; never an error
        return Found(())
    lines = source.splitlines()
    keep = KEEP | frozenset(known)
    units: list[Unit] = []
    for node in tree.body:
        if (not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or not wanted(node.name)
                or node.name in removed):
            continue
        budget.check()
        unit = _unit(node, lines, keep, provided.get(node.name), budget)
        if unit is not None:
            units.append(unit)
    return Found(tuple(units), tuple((name, line) for name, line in removed.items() if wanted(name)))


def _parsed(source: str) -> tuple[ast.Module | None, dict[str, int]]:
    """SOURCE's tree, and {a function left out for a syntax error: the error's line}."""
    try:
        return parse_module(source), {}
    except SyntaxError:
        pass
    except (ValueError, RecursionError, MemoryError):
        return None, {}
    _, tree, removals = repair(source)
    return tree, {r.name: r.line for r in removals if r.name.isidentifier()}


def _unit(node: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str], keep: frozenset[str],
          given: frozenset[str] | None, budget: Budget) -> Unit | None:
    """NODE fingerprinted, the statements GIVEN left out (None: the skeleton has no such function);
    None when it is nested past what can be walked."""
    end = node.end_lineno or node.lineno
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    try:
        body = _without_docstring(node.body)
        own = [s for s in body if not given or not isinstance(s, GIVEN) or statement_key(s, keep) not in given]
        theirs: list[ast.AST] = [] if given is None else [node, *(s for s in node.body if s not in own)]
        tokens = list(_tokens(normal_body(own, budget), keep, budget))
    except RecursionError:  # an expression nested past what can be walked: that function is left out
        return None
    return Unit(node.name, first, tuple(lines[first - 1:end]), _kgrams(tokens, budget), len(tokens),
                frozenset(n for _, n in tokens), _lines_of(theirs, node))


def _lines_of(statements: Sequence[ast.AST], node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[int]:
    """The lines of STATEMENTS; for NODE itself, its decorators and header (up to its body)."""
    found: set[int] = set()
    for s in statements:
        if s is node:
            found.update(range(min([node.lineno, *(d.lineno for d in node.decorator_list)]), node.body[0].lineno))
        else:
            found.update(range(getattr(s, "lineno", 0), (getattr(s, "end_lineno", None) or 0) + 1))
    return frozenset(found)


def normal_body(body: list[ast.stmt], budget: Budget | None = None) -> list[ast.stmt]:
    """BODY in normal form (see the module's contract), changed in place; the nodes keep their line
    numbers. Each statement and node looked at is a step of BUDGET."""
    budget = budget or Budget()
    func = ast.FunctionDef(name="f", args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                                        defaults=[]), body=body, decorator_list=[])
    func.body = _normal_block(func.body, budget)
    for _ in range(3):  # each pass may expose more: a read that was the only one goes with its dead assignment
        if not _simplify(func, budget):
            break
    return _normal_block(func.body, budget)  # again: what stood between a counter and its loop may be gone now


BLOCKS = ("body", "orelse", "finalbody")


def _normal_block(block: list[ast.stmt], budget: Budget) -> list[ast.stmt]:
    """Dead code, prints, bare strings, ``+=`` and counting ``while`` loops, statement by statement
    (expressions are never entered: every change here is to a statement)."""
    out: list[ast.stmt] = []
    for s in block:
        budget.step()
        for field in BLOCKS:
            inner = getattr(s, field, None)
            if isinstance(inner, list) and inner:
                setattr(s, field, _normal_block(inner, budget))
        for handler in getattr(s, "handlers", ()):
            handler.body = _normal_block(handler.body, budget)
        out += _normal_statement(s)
    return _live(out)


def _normal_statement(s: ast.stmt) -> list[ast.stmt]:
    if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
        load = ast.copy_location(ast.Name(s.target.id, ast.Load()), s.target)
        value = ast.copy_location(ast.BinOp(load, s.op, s.value), s)
        return [ast.copy_location(ast.Assign([s.target], value), s)]
    if isinstance(s, ast.If) and isinstance(s.test, ast.Constant):
        return s.body if s.test.value else s.orelse
    if isinstance(s, ast.While) and isinstance(s.test, ast.Constant) and not s.test.value:
        return []
    return [s]


def _dead(s: ast.stmt) -> bool:
    """Whether S does nothing worth comparing: pass, a bare constant or name, a print(...)."""
    if isinstance(s, ast.Pass):
        return True
    if isinstance(s, ast.Expr):
        v = s.value
        if isinstance(v, (ast.Constant, ast.Name)):
            return True
        return isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "print"
    return False


def _live(block: list[ast.stmt]) -> list[ast.stmt]:
    """BLOCK without dead statements and what follows a return, raise, break or continue;
    a counting ``i = a; while i < b: ...; i += 1`` becomes ``for i in range(a, b): ...``."""
    out: list[ast.stmt] = []
    for s in block:
        if _dead(s):
            continue
        if isinstance(s, ast.While) and out and (loop := _as_for(out[-1], s)) is not None:
            out[-1] = loop
            continue
        if isinstance(s, ast.Return) and out and (value := _returned(out[-1], s)) is not None:
            out[-1] = ast.copy_location(ast.Return(value), s)  # x = e; return x: return e
            break
        out.append(s)
        if isinstance(s, (ast.Return, ast.Raise, ast.Break, ast.Continue)):
            break
    return out


def _returned(before: ast.stmt, ret: ast.Return) -> ast.expr | None:
    if (isinstance(ret.value, ast.Name) and isinstance(before, ast.Assign) and len(before.targets) == 1
            and isinstance(before.targets[0], ast.Name) and before.targets[0].id == ret.value.id):
        return before.value
    return None


def _as_for(before: ast.stmt, loop: ast.While) -> ast.For | None:
    """``for V in range(start, stop)`` when BEFORE sets V = start and LOOP is ``while V < stop``
    (or ``<=``) ending with V = V + 1; else None."""
    test = loop.test
    if not (isinstance(before, ast.Assign) and len(before.targets) == 1 and isinstance(before.targets[0], ast.Name)
            and isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Lt, ast.LtE))
            and isinstance(test.left, ast.Name) and test.left.id == before.targets[0].id and loop.body
            and not loop.orelse):
        return None
    name, last = test.left.id, loop.body[-1]
    step = (isinstance(last, ast.Assign) and isinstance(last.targets[0], ast.Name) and last.targets[0].id == name
            and isinstance(last.value, ast.BinOp) and isinstance(last.value.op, ast.Add)
            and isinstance(last.value.left, ast.Name) and last.value.left.id == name
            and isinstance(last.value.right, ast.Constant) and last.value.right.value == 1)
    if not step:
        return None
    stop = test.comparators[0]
    if isinstance(test.ops[0], ast.LtE):
        stop = ast.copy_location(ast.BinOp(stop, ast.Add(), ast.Constant(1)), stop)
    start = before.value
    args = [stop] if isinstance(start, ast.Constant) and start.value == 0 else [start, stop]
    call = ast.copy_location(ast.Call(ast.Name("range", ast.Load()), args, []), loop)
    target = ast.copy_location(ast.Name(name, ast.Store()), before)
    return ast.copy_location(ast.For(target, call, loop.body[:-1] or [ast.Pass()], [], None), before)


def _scan(func: ast.AST, budget: Budget) -> tuple[Counter[str], Counter[str],
                                                 list[tuple[list[ast.stmt], ast.Assign, str]]]:
    """One walk of FUNC: how often each name is stored and read, and its simple ``name = value`` statements."""
    stores: Counter[str] = Counter()
    loads: Counter[str] = Counter()
    assigns = []
    for node in ast.walk(func):
        budget.step()
        if isinstance(node, ast.Name):
            (loads if isinstance(node.ctx, ast.Load) else stores)[node.id] += 1
            continue
        if isinstance(node, (ast.Nonlocal, ast.Global)):
            stores.update({n: 2 for n in node.names})  # never dropped nor inlined
        elif isinstance(node, ast.arg):
            stores[node.arg] += 2
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                assigns += [(block, s, s.targets[0].id) for s in block if isinstance(s, ast.Assign)
                            and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)]
    return stores, loads, assigns


def _simplify(func: ast.FunctionDef, budget: Budget) -> bool:
    """Remove assignments to names never read whose value calls nothing (dead code), and replace a
    name assigned once and read once by its value; whether anything changed. The statements
    removed are taken out of each block at once, in one rebuild of it (one by one, a block of n
    dead statements cost n * n)."""
    stores, loads, assigns = _scan(func, budget)
    changed = False
    inline: dict[str, ast.expr] = {}
    removed: dict[int, tuple[list[ast.stmt], set[int]]] = {}  # {id of a block: (it, ids of statements to go)}
    for block, s, name in assigns:
        if loads[name] == 0 and not any(isinstance(n, ast.Call) for n in ast.walk(s.value)):
            removed.setdefault(id(block), (block, set()))[1].add(id(s))
            changed = True
        elif stores[name] == 1 and loads[name] == 1 and not any(
                n.id in inline or n.id == name for n in ast.walk(s.value) if isinstance(n, ast.Name)):
            removed.setdefault(id(block), (block, set()))[1].add(id(s))
            inline[name] = s.value
    for block, gone in removed.values():
        block[:] = [s for s in block if id(s) not in gone]
    if inline:
        _Replace(inline).visit(func)
    return changed or bool(inline)


class _Replace(ast.NodeTransformer):
    def __init__(self, values: dict[str, ast.expr]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self.values.get(node.id, node) if isinstance(node.ctx, ast.Load) else node


def _tokens(body: list[ast.stmt], keep: frozenset[str], budget: Budget | None = None) -> Iterator[tuple[str, int]]:
    """(token, line) in pre-order: node kinds, kept names, ``V`` for any other name, constants
    (each a step of BUDGET)."""
    for s in body:
        for token in _walk(s, keep, getattr(s, "lineno", 0)):
            if budget is not None:
                budget.step()
            yield token


def _walk(node: ast.AST, keep: frozenset[str], line: int) -> Iterator[tuple[str, int]]:
    line = getattr(node, "lineno", line) or line
    if isinstance(node, ast.expr_context):
        return
    if isinstance(node, ast.Name):
        yield (node.id if node.id in keep else "V"), line
        return
    if isinstance(node, ast.arg):
        yield "V", line
        return
    if isinstance(node, ast.keyword):  # f(x, dice=dice) is f(x, dice): a keyword can be dropped
        yield from _walk(node.value, keep, line)
        return
    if isinstance(node, ast.Constant):
        yield ("S" if isinstance(node.value, (str, bytes)) else repr(node.value)), line
        return
    if isinstance(node, (ast.For, ast.While)):
        yield "Loop", line
    else:
        yield type(node).__name__, line
    if isinstance(node, ast.Attribute):
        yield "." + node.attr, line
    for child in ast.iter_child_nodes(node):
        yield from _walk(child, keep, line)
    if isinstance(node, ast.stmt):
        yield "/", line


_CODES: dict[str, int] = {}


def _code(token: str) -> int:
    """A token as a number that is the same in every process (a CRC, not Python's salted hash)."""
    code = _CODES.get(token)
    if code is None:
        code = _CODES[token] = zlib.crc32(token.encode("utf-8", "surrogatepass"))
    return code


def _kgrams(tokens: list[tuple[str, int]], budget: Budget | None = None) -> dict[int, tuple[int, int]]:
    """Every K-gram's hash -> the lines it spans (its first occurrence). A function shorter than K
    tokens is one gram. The hash of a tuple of ints is Python's own, unsalted and the same everywhere."""
    found: dict[int, tuple[int, int]] = {}
    codes = [_code(t) for t, _ in tokens]
    lines = [n for _, n in tokens]
    width = min(K, len(tokens))
    for i in range(len(tokens) - width + 1 if tokens else 0):
        if budget is not None:
            budget.step()
        digest = hash(tuple(codes[i:i + width]))
        if digest not in found:
            span = lines[i:i + width]
            found[digest] = (min(span), max(span))
    return found
