"""Reaper: make sure no process a submission started outlives its grading.

Contract: killing a child's process group is not enough, because a descendant can leave the group
with ``os.setsid()``. On Linux the grading process therefore becomes a *child subreaper*: orphaned
descendants are re-parented to it instead of to init. Every sandboxed child carries a per-session
token in its environment, which its descendants inherit; after a child is killed,
:func:`kill_strays` finds the orphans holding that token and kills them, repeating until none is
left. Elsewhere (or without ``prctl``) the functions do nothing and the CPU limit still bounds a
stray process.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

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


def _children() -> list[int]:
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1 and int(fields[1]) == me:
            found.append(int(entry))
    return found


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
