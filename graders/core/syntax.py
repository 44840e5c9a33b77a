"""Syntax: turning source text into syntax trees and literal values, one thread at a time.

Contract: :func:`parse`, :func:`literal_eval` and :func:`compile_code` behave exactly as
:func:`ast.parse`, :func:`ast.literal_eval` and :func:`compile`, except that no two threads of this
process run them at once. Every engine module parses and compiles the kit's own code (the reference,
the manifest's expressions) through here, never through :mod:`ast` or :func:`compile` directly.

Why: CPython 3.11 (before 3.11.8) keeps the depth counter of its syntax-tree builder in state shared
by every thread. When a thread switch lands inside a parse, say because the garbage collector runs
a ``__del__`` while the tree is being built, and another thread parses meanwhile, the first parse
fails with ``SystemError: AST constructor recursion depth mismatch``. Class grading parses
submissions on a thread pool and the web server parses on its request threads, so without the lock
a grading run could, now and then, lose one submission's grade to that error.
"""

from __future__ import annotations

import ast
import threading
from types import CodeType
from typing import Any

_LOCK = threading.Lock()
MISMATCH = "AST constructor recursion depth mismatch"


def parse(source: str, filename: str = "<unknown>", mode: str = "exec") -> ast.AST:
    """The syntax tree of SOURCE, as :func:`ast.parse` gives it. A parse that fails with the shared
    depth counter's mismatch is made once more: the lock keeps the kit's own parses apart, but the
    standard library parses too (a traceback's carets, in a thread the kit does not hold), and the
    error says nothing of SOURCE."""
    with _LOCK:
        try:
            return ast.parse(source, filename, mode)
        except SystemError as exc:
            if MISMATCH not in str(exc):
                raise
            return ast.parse(source, filename, mode)


def parse_module(source: str, filename: str = "<unknown>") -> ast.Module:
    """The syntax tree of a whole file."""
    tree = parse(source, filename)
    assert isinstance(tree, ast.Module)
    return tree


def literal_eval(text: str) -> Any:
    """The Python literal TEXT spells, as :func:`ast.literal_eval` gives it."""
    # literal_eval parses a str argument itself; parse it under the lock and pass it the tree.
    return ast.literal_eval(parse(text.lstrip(" \t"), mode="eval"))


def compile_code(source: str | bytes, filename: str = "<unknown>", mode: str = "exec") -> CodeType:
    """SOURCE compiled, as :func:`compile` gives it (a file for "exec", an expression for "eval")."""
    with _LOCK:
        return compile(source, filename, mode)


def evaluate(expression: str, namespace: dict, where: str = "<expression>") -> Any:
    """The value of the kit's own EXPRESSION (a manifest's, say) in NAMESPACE."""
    return eval(compile_code(expression, where, "eval"), namespace)  # trusted: the kit's own text
