"""Memo: results worked out once per process, safely when many threads ask at once.

Contract: a function decorated with :func:`once` runs at most once per distinct argument tuple
while its result is kept: a caller that asks while another thread is computing the same key waits
for that result instead of computing it a second time beside it. Keys are computed independently
of one another (a lock per key), an exception is never kept (the next call tries again), and
``cache_clear()`` forgets everything. ``functools.lru_cache`` gives none of this: two first calls
run side by side, which is harmless for a pure function and wrong for one whose first call has
side effects (loading code, writing a cache file, compiling a library).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

R = TypeVar("R")


class Once(Generic[R]):
    """The memoised function: call it as the original; ``cache_clear()`` forgets every result."""

    def __init__(self, fn: Callable[..., R], maxsize: int) -> None:
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._maxsize = maxsize
        self._results: dict[Hashable, Any] = {}
        self._locks: dict[Hashable, threading.Lock] = {}
        self._guard = threading.Lock()

    def __call__(self, *args: Any, **kwargs: Any) -> R:
        key = (args, tuple(sorted(kwargs.items())))
        try:
            return self._results[key]
        except KeyError:
            pass
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key in self._results:
                return self._results[key]
            value = self._fn(*args, **kwargs)
            with self._guard:
                if len(self._results) >= self._maxsize:  # the oldest result goes first
                    oldest = next(iter(self._results))
                    del self._results[oldest]
                    self._locks.pop(oldest, None)
                self._results[key] = value
            return value

    def cache_clear(self) -> None:
        with self._guard:
            self._results.clear()
            self._locks.clear()


def once(maxsize: int = 64) -> Callable[[Callable[..., R]], Once[R]]:
    """Decorator: keep up to MAXSIZE results, each computed by one thread while the others wait."""

    def decorate(fn: Callable[..., R]) -> Once[R]:
        return Once(fn, maxsize)

    return decorate
