"""Reaper: make sure no process a submission started outlives its grading.

Contract: killing a child's process group is not enough, because a descendant can leave the group
with ``os.setsid()``. On Linux the grading process therefore becomes a *child subreaper*: orphaned
descendants are re-parented to it instead of to init. Every sandboxed child carries a per-session
token in its environment, which its descendants inherit; after a child is killed,
:func:`kill_strays` finds the orphans holding that token and kills them, repeating until none is
left. Elsewhere (or without ``prctl``) the functions do nothing and the CPU limit still bounds a
stray process. A child under namespaces has a pid namespace of its own, whose processes all die
with its first one: there the sandbox only reaps (see :func:`reap`), and never scans for strays.
The few readings of processes and pipes the sandbox's modules share live here too
(:func:`process_stat`, :func:`process_tree`, :func:`wait_readable`).
"""

from __future__ import annotations

import ctypes
import os
import select
import signal
import sys
import time

TOKEN_NAME = "HOGKIT_SESSION"
PR_SET_CHILD_SUBREAPER = 36
_adopting = False


def adopt_orphans() -> None:
    """Become the subreaper of everything started from here on (once; Linux only)."""
    global _adopting
    if _adopting or not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        _adopting = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _adopting = False


def _children(quick: bool = False) -> list[int]:
    """The processes whose parent is this one (adopted orphans included), read from every process's
    parent. QUICK reads this process's threads' lists of children instead, where the kernel keeps
    them: far less work on a busy machine, but a child exiting at that moment may hide another, so
    only for tidying up (reaping zombies), never for finding what must be killed."""
    me = os.getpid()
    if quick and os.path.exists(f"/proc/{me}/task/{me}/children"):
        found: set[int] = set()
        for task in os.listdir(f"/proc/{me}/task"):
            try:
                with open(f"/proc/{me}/task/{task}/children", encoding="ascii") as f:
                    found.update(int(p) for p in f.read().split())
            except (OSError, ValueError):
                continue  # a thread that has ended
        return sorted(found)
    return [int(entry) for entry in os.listdir("/proc")
            if entry.isdigit() and (process_stat(int(entry)) or ("", 0))[1] == me]


def _carries(pid: int, token: str) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f"{TOKEN_NAME}={token}".encode() in f.read().split(b"\0")
    except OSError:
        return False


def kill_strays(token: str) -> int:
    """Kill and reap the orphans of the session TOKEN; return how many there were."""
    if not _adopting:
        return 0
    killed = 0
    for _round in range(20):  # each round frees the next generation of a chain of forks
        strays = [pid for pid in _children() if _carries(pid, token)]
        if not strays:
            break
        for pid in strays:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                killed += 1
            except (ProcessLookupError, ChildProcessError, PermissionError):
                pass
    return killed


def kill_user(uid: int) -> int:
    """Kill every process running as UID (a child's own user id, which nothing else uses); return
    how many there were. Linux only; elsewhere nothing."""
    killed = 0
    for _round in range(20):
        found = []
        for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
            if entry.isdigit():
                try:
                    if os.stat(f"/proc/{entry}").st_uid == uid:
                        found.append(int(entry))
                except OSError:
                    continue
        if not found:
            break
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                pass
    return killed


SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm")  # where any user may leave files behind


def remove_files_of(uid: int, folders: tuple[str, ...] = SHARED_FOLDERS) -> int:
    """Delete what UID (a child's own user id, which nothing else uses) left at the top of FOLDERS,
    folders included; return how many entries went. Without namespaces a child's ``/tmp`` is the
    machine's, so this is how a submission's files stop piling up there."""
    import shutil

    removed = 0
    for folder in folders:
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        for name in entries:
            path = os.path.join(folder, name)
            try:
                info = os.lstat(path)
                if info.st_uid != uid:
                    continue
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path)  # never follows a link inside: safe on what a submission made
                else:
                    os.unlink(path)
                removed += 1
            except OSError:
                continue
    return removed


def process_stat(pid: int) -> tuple[str, int, int, int] | None:
    """(state, parent pid, process group, start time) of PID from /proc, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        fields = stat[stat.rfind(b")") + 2:].split()
        return fields[0].decode(), int(fields[1]), int(fields[2]), int(fields[19])
    except (OSError, ValueError, IndexError):
        return None


TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_cpu(pid: int) -> float:
    """The processor time PID has used, in seconds (user and system, its own and that of the
    children it has waited for; 0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        fields = stat[stat.rfind(b")") + 2:].split()
        return sum(int(f) for f in fields[11:15]) / TICKS
    except (OSError, ValueError, IndexError):
        return 0.0


def tree_cpu(pid: int) -> float:
    """The processor time of PID and every process descended from it (a forked child is the first
    process of its pid namespace, and its Python one of its descendants), in seconds."""
    return sum(process_cpu(p) for p in process_tree(pid))


def snapshot(pids: list[int]) -> dict[int, int]:
    """PIDS with their start times, so that a pid used again by another process is never mistaken."""
    found = {}
    for pid in pids:
        stat = process_stat(pid)
        if stat is not None:
            found[pid] = stat[3]
    return found


def reap(known: dict[int, int], group: int, seconds: float = 1.0) -> int:
    """Reap the zombies a killed child leaves to the grader: the processes in KNOWN (pid: start time,
    taken before the kill) once they are dead and ours, and any dead child of ours still in the
    process GROUP. Without this, an adopted orphan stays a zombie for the grader's whole life, and
    a long class grading runs out of process ids. Never waits on a process it did not see start."""
    me, reaped, ends = os.getpid(), 0, time.monotonic() + seconds
    pending = dict(known)
    while pending and time.monotonic() < ends:
        for pid, start in list(pending.items()):
            stat = process_stat(pid)
            if stat is None or stat[3] != start or stat[1] != me:  # gone, used again, or not left to us
                del pending[pid]
            elif stat[0] in "ZX":
                reaped += _reap_one(pid)
                del pending[pid]
        if pending:
            time.sleep(0.005)
    for pid in _children(quick=True):
        stat = process_stat(pid)
        if stat is not None and stat[0] == "Z" and stat[2] == group and pid != group:
            reaped += _reap_one(pid)
    return reaped


def _reap_one(pid: int) -> int:
    try:
        return 1 if os.waitpid(pid, os.WNOHANG)[0] == pid else 0
    except ChildProcessError:
        return 0


def process_tree(pid: int) -> list[int]:
    """PID and every process descended from it (Linux; just PID elsewhere)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            tasks = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{current}/task/{task}/children", encoding="ascii") as f:
                    todo += [int(p) for p in f.read().split()]
            except (OSError, ValueError):
                continue
    return found


def wait_readable(fd: int, seconds: float) -> bool:
    """Whether FD has something to read (or was closed) within SECONDS. ``poll`` where there is one:
    ``select`` refuses descriptors numbered 1024 or more, which a grader with many children reaches."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(max(0, int(seconds * 1000) + 1)))
    ready, _, _ = select.select([fd], [], [], seconds)
    return bool(ready)
