"""What every folder's sentence test does with its table (see tests/kit/<folder>/test_messages.py)."""

from __future__ import annotations

from collections.abc import Callable


def carries(fn: Callable[..., str], args: tuple, needles: list[str]) -> None:
    """FN(*ARGS) is a sentence holding every one of NEEDLES."""
    text = fn(*args)
    assert isinstance(text, str) and text.strip()
    for needle in needles:
        assert needle in text, f"{fn.__name__}{args!r} -> {text!r} lacks {needle!r}"


def ids(table: list[tuple[Callable[..., str], tuple, list[str]]]) -> list[str]:
    """A test id per row of TABLE: the function's name and the row's place."""
    return [f"{fn.__name__}-{k}" for k, (fn, _, _) in enumerate(table)]
