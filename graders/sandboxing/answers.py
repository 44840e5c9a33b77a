"""The kit's answers to a case's calls, worked out beforehand on the reference and kept per case.

Contract: a case whose calls kept the kit's own child busy (see :data:`HEAVY_SECONDS`) is "heavy":
the answers the kit's functions gave when the reference ran it are kept here, under the kit's
module, the submission's module name, the dice and the case, at most :data:`_MOST_RECORDED` at
once (the oldest go first). `hogkit build` writes an edition's answers to a file
(:func:`seed_answers` reads it once per process) keyed by :func:`answers_key`: a file worked out
for another kit, or another runner's code, is passed over. The store is shared by every grading
thread, under its lock.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections.abc import Callable
from pathlib import Path

from graders.editions.onefunction import KitFunctions, read_answers
from graders.sandboxing.bytecode import runner_files

_ANSWERS: dict[tuple, dict | str] = {}  # see Session._recorded -> {key: [value, names reached]}, or its text
_HEAVY: set[tuple[str, tuple[str, ...]]] = set()  # (setup, steps) of the cases that kept a kit's child busy
HEAVY_SECONDS = 0.05  # of the kit's child's processor time in one case (some thousands of calls)
_ANSWERS_LOCK = threading.Lock()
_MOST_RECORDED = 1_000_000  # answers kept at once, every case's together (some 100 MB)


@functools.lru_cache(maxsize=64)  # (asked at every chunk of a grade's hidden cases)
def answers_key(kit: KitFunctions, module: str, dice: tuple[int, int]) -> str:
    """What answers worked out beforehand hold for: the kit's module and support files, the
    submission's module name, the dice a strategy may choose, and the code that records and keys
    them (the child and its probes; see seed_answers)."""
    text = json.dumps([kit.source, [list(m) for m in kit.modules], module, list(dice), _recording_code()])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@functools.cache
def _recording_code() -> str:
    return hashlib.sha256(b"".join(path.read_bytes() for path in runner_files())).hexdigest()


_SEEDED: set[tuple[str, str]] = set()  # (file, key) of the answers files already read (see seed_answers)


def seed_answers(kit: KitFunctions, module: str, dice: tuple[int, int]) -> None:
    """Take into this process's store the answers `hogkit build` worked out beforehand for the
    edition's heavy cases (KIT.prepared), once per file, when they were worked out for this very
    kit (see answers_key): a stale or missing file is passed over, and its cases are recorded when
    they prove heavy, as any case an instructor adds."""
    key = answers_key(kit, module, dice)
    with _ANSWERS_LOCK:
        if not kit.prepared or (kit.prepared, key) in _SEEDED:
            return
        _SEEDED.add((kit.prepared, key))
    data = read_answers(Path(kit.prepared))
    if data is None or data.get("kit") != key or type(data.get("cases")) is not list:
        return
    with _ANSWERS_LOCK:
        for setup, steps, answers in data["cases"]:
            case = (setup, tuple(steps))
            _ANSWERS[(kit.source, kit.modules, module, dice, case)] = answers  # (text: read at its case's first use)
            _HEAVY.add(case)


def _size(answers: dict | str) -> int:
    """How many answers ANSWERS holds (of a text not read yet, a guess by its length)."""
    return len(answers) if type(answers) is dict else len(answers) // 40


def answers_of(key: tuple) -> dict:
    """The answers kept under KEY (see Session._recorded), read from their text at their first use."""
    with _ANSWERS_LOCK:
        found = _ANSWERS.get(key, {})
        if isinstance(found, dict):
            return found
        try:
            read = json.loads(found)
        except ValueError:
            read = {}
        _ANSWERS[key] = read = read if type(read) is dict else {}
        return read


def mark_heavy(case: tuple[str, tuple[str, ...]]) -> None:
    """CASE kept a kit's child busy: its answers are worth working out beforehand from now on."""
    with _ANSWERS_LOCK:
        _HEAVY.add(case)


def heavy_without_answers(cases: list[tuple[str, tuple[str, ...]]], key: Callable[[tuple], tuple]
                          ) -> tuple[list[tuple[str, tuple[str, ...]]], list[tuple[str, tuple[str, ...]]]]:
    """(the heavy ones of CASES, those of them with no answers kept under KEY(case) yet)."""
    with _ANSWERS_LOCK:
        wanted = [case for case in cases if case in _HEAVY]
        return wanted, [case for case in wanted if key(case) not in _ANSWERS]


def keep(key: tuple, answers: dict) -> None:
    """ANSWERS kept under KEY, the oldest others let go while all of them would hold too many
    (with what stubs were handed of them: see for_stubs)."""
    with _ANSWERS_LOCK:
        while _ANSWERS and sum(map(_size, _ANSWERS.values())) + len(answers) > _MOST_RECORDED:
            _let_go(next(iter(_ANSWERS)))  # the oldest first
        _let_go(key)
        _ANSWERS[key] = answers


_FOR_STUBS: dict[tuple, tuple[dict, dict]] = {}  # (key, offered, proxied) -> (the answers, what for_stubs gave)
_HANDED = [0]  # answers held in _FOR_STUBS, all together (at most _MOST_RECORDED, the oldest let go first)


def _let_go(key: tuple) -> None:
    """The answers kept under KEY gone, and what stubs were handed of them (under _ANSWERS_LOCK)."""
    _ANSWERS.pop(key, None)
    for memo in [m for m in _FOR_STUBS if m[0] == key]:
        _HANDED[0] -= len(_FOR_STUBS.pop(memo)[1])


def for_stubs(key: tuple, offered: frozenset[str], proxied: frozenset[str]) -> dict:
    """Of the answers kept under KEY, those a child's stubs may be handed: the calls of the OFFERED
    functions that reached none of the PROXIED ones (the child's own), {call key: value, or
    {"rolled": ..., "value": ...} for a call that rolled dice}. Worked out once per (KEY, OFFERED,
    PROXIED) while the answers stay the same: every submission of a class asks the same."""
    recorded = answers_of(key)
    memo = (key, offered, proxied)
    with _ANSWERS_LOCK:
        found = _FOR_STUBS.get(memo)
        if found is not None and found[0] is recorded:
            return found[1]
    kept = {call: answer[0] if len(answer) < 3 else {"rolled": answer[2], "value": answer[0]}
            for call, answer in recorded.items()
            if call.split("[", 1)[0] in offered and proxied.isdisjoint(answer[1])}
    with _ANSWERS_LOCK:
        stale = _FOR_STUBS.pop(memo, None)  # (worked out from answers since let go, or by another thread)
        _HANDED[0] -= len(stale[1]) if stale is not None else 0
        while _FOR_STUBS and _HANDED[0] + len(kept) > _MOST_RECORDED:
            _HANDED[0] -= len(_FOR_STUBS.pop(next(iter(_FOR_STUBS)))[1])  # the oldest first
        _FOR_STUBS[memo] = (recorded, kept)
        _HANDED[0] += len(kept)
    return kept
