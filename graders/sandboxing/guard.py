"""Guard: what isolation actually holds, as a child found it, and no hidden case without it.

Contract: before anything that runs hidden cases (``hogkit grade``, a class, Gradescope, mutation
testing), :func:`require` starts one child exactly as every student's child is started (same policy,
same limits, same confinement), with an empty submission, and reads what that child found it could
do after every protection was in place: which of the kit's secrets (:func:`secret_paths`: the
package, the kit's root and its ``tests/`` and ``solution/``, each edition's manifest, a case file
and the reference, and the ``tests/`` and ``solution/`` of the folder holding it (a course's own),
any class or output folder named) it could open, whether it reached a listener of the grader's on
127.0.0.1, and who it was. The result is a frozen
:class:`graders.sandboxing.isolation.Verified`, kept once per policy and set of secrets; every report's
isolation line is its summary, which says how many of the kit's own paths were checked and that
nothing else was looked for: a copy of the kit or of a reference elsewhere on the machine is hidden
only by namespaces or Landlock, and where neither holds the line says it was not checked. When a
secret is readable, grading is refused (:class:`graders.core.errors.IsolationRefused`, the kit's
failure, never a student's grade); with ``require_all`` (``--require-isolation``) anything less than
the kit hidden, the network off and an identity of its own is refused too. From then on every child
checks the same secrets before any student code runs, and one that reaches a secret is the sandbox
failing (:class:`graders.core.errors.SandboxError`). The student's own runner (no hidden cases)
never asks.
"""

from __future__ import annotations

import dataclasses
import socket
import threading
from collections.abc import Iterable
from pathlib import Path

from graders.core.errors import EditionError, IsolationRefused
from graders.editions.edition import Edition, kit_root
from graders.sandboxing import isolation
from graders.sandboxing import messages as sandboxing_messages
from graders.sandboxing.sandbox import Session, prepare_workdir

_LOCK = threading.Lock()
_KEPT: dict[tuple[isolation.Policy, tuple[str, ...]], isolation.Verified] = {}


def secret_paths(editions: Iterable[Edition], extra: Iterable[Path] = ()) -> tuple[str, ...]:
    """What no student code may read: the kit's package, the kit's root (with ``pip install .``, the
    checkout or ``$HOGKIT_ROOT``, not the package's parent) and its tests/ and solution/, and for
    each edition its manifest, its first case file and its reference; then EXTRA (class, output)."""
    found = [Path(isolation.__file__).resolve().parents[1]]
    try:
        root = kit_root()
        found += [root, root / "tests", root / "solution"]
    except EditionError:
        pass
    for edition in editions:
        cases = sorted(edition.suite_dir.glob("q*.toml")) + sorted(edition.suite_dir.glob("q*.json"))
        found += [edition.suite_dir / "edition.toml", *cases[:1], edition.solution_dir / edition.submission,
                  edition.root / "tests", edition.root / "solution"]  # (a course's own folder too)
    found += list(extra)
    return tuple(sorted({str(p.resolve()) for p in found if p.exists()}))


def verify(secrets: tuple[str, ...]) -> isolation.Verified:
    """What a child under this machine's policy can reach of SECRETS (kept once per policy and SECRETS;
    a verification of more secrets answers for fewer, with their record)."""
    policy = isolation.policy()
    with _LOCK:
        key = (policy, secrets)
        wider = [v for (p, checked), v in _KEPT.items() if p == policy and set(secrets) <= set(checked)]
        if key not in _KEPT and wider:  # a verification of more secrets already answers for these
            return dataclasses.replace(wider[-1], readable=tuple(p for p in wider[-1].readable if p in secrets))
        if key not in _KEPT:
            _KEPT[key] = _run_probe(policy, secrets)
            if _KEPT[key].kit_hidden:
                isolation.demand(policy, secrets)  # every later child checks them too
        return _KEPT[key]


def _run_probe(policy: isolation.Policy, secrets: tuple[str, ...]) -> isolation.Verified:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        workdir, target = prepare_workdir("", "probe.py", [])
        session = Session(target, "probe", workdir, probe={"secrets": list(secrets),
                                                           "listener": listener.getsockname()[1]})
        try:
            session.start()
            reach = session.reach
        finally:
            session.dispose()
    return isolation.verified_from(reach, policy, secrets)


def require(editions: Iterable[Edition], extra: Iterable[Path] = (), require_all: bool = False
            ) -> isolation.Verified:
    """The verified isolation for grading EDITIONS with hidden cases; :class:`IsolationRefused` when a
    child could read a secret (or, with REQUIRE_ALL, when anything is less than complete)."""
    verified = verify(secret_paths(editions, extra))
    if not verified.kit_hidden:
        raise IsolationRefused(sandboxing_messages.isolation_secrets_readable(verified.readable, verified.summary))
    if require_all and not verified.complete:
        raise IsolationRefused(sandboxing_messages.isolation_required(verified.summary))
    return verified


def summary() -> str:
    """The isolation line for a report: the latest verification under this machine's policy, else
    the policy's own (unverified) line, as the student's runner states it."""
    policy = isolation.policy()
    with _LOCK:
        kept = [v for (p, _), v in _KEPT.items() if p == policy]
    return kept[-1].summary if kept else policy.summary
