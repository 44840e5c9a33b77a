"""The engine parses one thread at a time (graders.core.syntax), working around CPython 3.11's shared
syntax-tree depth counter that made concurrent parses fail with a SystemError."""

from __future__ import annotations

import ast
import threading
import time
from pathlib import Path

import pytest

from graders.core import syntax

from .. import scanner

SOLUTION = Path(__file__).parents[3] / "solution" / "more_boar" / "hog.py"


@pytest.mark.parametrize("text", ["1", " 1", "\t'a'", "[1, -2.5, (None, True)]", "x", "1 +", "",
                                  "{'a': 1}", "1 if 2 else 3", "'\\x00'"])
def test_literal_eval_agrees_with_ast(text):
    def outcome(function):
        try:
            return ("value", function(text))
        except Exception as exc:  # noqa: BLE001 - the kind of error is what is compared
            return ("error", type(exc))

    assert outcome(syntax.literal_eval) == outcome(ast.literal_eval)


def test_parse_agrees_with_ast():
    source = SOLUTION.read_text(encoding="utf-8")
    assert ast.dump(syntax.parse_module(source, "hog.py")) == ast.dump(ast.parse(source, "hog.py"))
    with pytest.raises(SyntaxError) as caught:
        syntax.parse("def f(:\n    pass\n", "hog.py")
    assert caught.value.filename == "hog.py"
    assert isinstance(syntax.parse("1 + 2", mode="eval"), ast.Expression)


def test_no_two_threads_parse_at_once(monkeypatch):
    """A parse that yields the processor midway still has the parser to itself."""
    inside = 0
    most = 0
    guard = threading.Lock()
    real_parse = ast.parse

    def slow_parse(*args, **kwargs):
        nonlocal inside, most
        with guard:
            inside += 1
            most = max(most, inside)
        time.sleep(0.01)  # a thread switch inside the parse, as the garbage collector can cause
        with guard:
            inside -= 1
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(syntax.ast, "parse", slow_parse)
    work = [threading.Thread(target=syntax.parse, args=("x = 1",)) for _ in range(4)]
    work += [threading.Thread(target=syntax.literal_eval, args=("[1]",)) for _ in range(4)]
    for thread in work:
        thread.start()
    for thread in work:
        thread.join()
    assert most == 1


def test_concurrent_parses_with_finalizers_running_succeed():
    """The situation that broke class grading: threads parse while finalizers switch threads."""
    source = SOLUTION.read_text(encoding="utf-8")
    failures: list[BaseException] = []

    class Cycle:
        def __init__(self) -> None:
            self.me = self

        def __del__(self) -> None:
            sum(range(20))

    def parse_many() -> None:
        for _ in range(60):
            try:
                syntax.parse(source)
            except BaseException as exc:  # noqa: BLE001 - any failure is the finding
                failures.append(exc)

    def make_garbage() -> None:
        for _ in range(40_000):
            Cycle()

    work = [threading.Thread(target=parse_many) for _ in range(3)]
    work.append(threading.Thread(target=make_garbage))
    for thread in work:
        thread.start()
    for thread in work:
        thread.join()
    assert failures == []


def test_engine_parses_only_through_syntax():
    """Every engine module but the sandbox's child (a process of one thread) uses graders.core.syntax."""
    direct = []
    for module in scanner.modules():
        if module.name in {"core/syntax", "sandboxing/child"}:
            continue
        for node in ast.walk(module.tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "ast" and node.attr in {"parse", "literal_eval"}):
                direct.append(f"{module.name}.py:{node.lineno} ast.{node.attr}")
    assert direct == []


def test_a_parse_that_meets_the_depth_counters_mismatch_is_made_once_more(monkeypatch):
    """A parse of the standard library's own, outside the lock (a traceback's carets, in a thread the
    kit does not hold), can still set the shared counter askew: that error is about no source, so
    the parse is made again; any other SystemError, or a second mismatch, is raised as it came."""
    real = ast.parse
    raised = []

    def flaky(message, times):
        def parse(*args, **kwargs):
            if len(raised) < times:
                raised.append(message)
                raise SystemError(message)
            return real(*args, **kwargs)
        return parse

    monkeypatch.setattr(ast, "parse", flaky(syntax.MISMATCH + " (before=39, after=42)", 1))
    assert ast.dump(syntax.parse("x = 1")) == ast.dump(real("x = 1"))
    assert len(raised) == 1
    raised.clear()
    monkeypatch.setattr(ast, "parse", flaky(syntax.MISMATCH + " (before=1, after=2)", 2))
    with pytest.raises(SystemError, match="recursion depth mismatch"):
        syntax.parse("x = 1")
    raised.clear()
    monkeypatch.setattr(ast, "parse", flaky("something else", 1))
    with pytest.raises(SystemError, match="something else"):
        syntax.parse("x = 1")
