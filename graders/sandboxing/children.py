"""Every live child of this grader: started from one thread, counted, and killed at once when a run stops.

Contract: a child process is started with :func:`start_process` (from the one thread that starts
them all) or by the fork server, then :func:`track`-ed until its session lets it go
(:func:`forget`). :func:`halt_children` kills every live child's process group at once and starts
none until :func:`resume_children`: a child that starts meanwhile is killed as it is tracked, and
:class:`Halted` (a KeyboardInterrupt) rises where one would start (:func:`check_running`). The
memory of a child is what all of its processes hold together (:func:`tree_memory`).
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

from graders.sandboxing import forkserver
from graders.sandboxing.reaper import process_tree

# Children are started from one thread that lives as long as the grader: under namespaces a child
# dies with the thread that started it (bubblewrap's --die-with-parent follows the thread, not the
# process), and a grading thread of a pool ends long before the session it started.
_SPAWNER = ThreadPoolExecutor(1, thread_name_prefix="hogkit-spawner")
_LIVE: set[subprocess.Popen | forkserver.ForkedChild] = set()  # every running child (under _LIVE_LOCK)
_LIVE_LOCK = threading.RLock()  # re-entrant: halt_children runs in a signal handler too
_HALTED = threading.Event()
_PAIRS = itertools.count()  # children linked to a kit's child so far (see pair_cpu)


class Halted(KeyboardInterrupt):
    """The run is stopping: no child starts (raised where one would)."""


def halt_children() -> int:
    """Kill every live child's process group now, and start no child until :func:`resume_children`;
    how many were live. Each session still cleans up after its own child (strays, zombies, folders)."""
    with _LIVE_LOCK:
        _HALTED.set()
        live = list(_LIVE)
    for proc in live:
        kill(proc)
    return len(live)


def resume_children() -> None:
    _HALTED.clear()


def kill(proc: subprocess.Popen | forkserver.ForkedChild) -> None:
    """Kill PROC and every process of its own: a forked child's pid namespace, or a started child's
    process group (under namespaces, bubblewrap's: every process inside dies with it)."""
    if isinstance(proc, forkserver.ForkedChild):
        proc.kill()
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def start_process(*args: object, **kwargs: object) -> subprocess.Popen:
    """``subprocess.Popen`` from the thread that starts every child (see _SPAWNER)."""
    return _SPAWNER.submit(subprocess.Popen, *args, **kwargs).result()  # type: ignore[arg-type]


def pair_cpu() -> int | None:
    """The processor for the next child whose stubs call a kit's child, and for that kit's child:
    the two hand each call back and forth and never run at once, and a hand-over between two
    processes on one processor costs about a quarter of one between two (benchmarks/bench_link.py).
    Pairs take this process's processors in turn; None with only one."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return None
    return cpus[next(_PAIRS) % len(cpus)] if len(cpus) > 1 else None


def track(proc: subprocess.Popen | forkserver.ForkedChild) -> None:
    """PROC among the live children, or killed at once when the run stopped while it started."""
    with _LIVE_LOCK:
        _LIVE.add(proc)
        halted = _HALTED.is_set()
    if halted:
        kill(proc)


PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def tree_memory(pid: int) -> int:
    """The resident memory of PID and all its descendants together, in bytes (0 where unknown)."""
    total = 0
    for p in process_tree(pid):
        try:
            with open(f"/proc/{p}/statm", encoding="ascii") as f:
                total += int(f.read().split()[1]) * PAGE
        except (OSError, ValueError, IndexError):
            continue
    return total


def forget(proc: subprocess.Popen | forkserver.ForkedChild) -> None:
    """PROC no longer among the live children (its session has ended it)."""
    with _LIVE_LOCK:
        _LIVE.discard(proc)


def check_running() -> None:
    """Raise Halted when the run is stopping (see halt_children)."""
    if _HALTED.is_set():
        raise Halted
