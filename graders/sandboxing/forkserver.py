"""The parent's side of the fork server (:mod:`graders.sandboxing.zygote`): one per grader process.

Contract: under namespaces, :func:`spawn` asks the fork server for a new child holding two pipe
ends, and gives it back as a :class:`ForkedChild`: the child's pid as this process sees it, and a
pidfd through which it is watched and killed (never a number that could be reused). The server is
started on the first request, from the thread that starts every child (bubblewrap's
``--die-with-parent`` follows that thread), and again if it has died; a lock keeps requests one at
a time. It holds nothing secret and is given nothing but pipe ends: each child reads its settings
and files from this process over its own pipe, and proves its isolation before any student code
(:func:`graders.sandboxing.child.verify_reach`), as a child started by bubblewrap does.

:func:`usable` says whether children are forked here: not when ``HOGKIT_FORKSERVER=off``, not
without pidfds (Linux 5.3), not under limits, and not once the server failed to give a child
MOST_FAILURES times in a row in this process (a machine where it cannot run; the latest reason is
kept in :data:`STATE`). Where it is not usable every child is started by bubblewrap on its own, as
is a child the server failed to give.
"""

from __future__ import annotations

import atexit
import os
import signal
import socket
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from graders.core import scratch
from graders.core.errors import SandboxError
from graders.sandboxing import isolation
from graders.sandboxing import messages as sandboxing_messages
from graders.sandboxing.bytecode import compiled
from graders.sandboxing.reaper import process_stat, process_tree, wait_readable

SWITCH = "HOGKIT_FORKSERVER"  # "off": one bubblewrap per child
ZYGOTE = Path(__file__).with_name("zygote.py")
ANSWER_SECONDS = 30.0  # for the server to fork a child (it takes milliseconds; more is a server gone wrong)
MOST_FAILURES = 3  # starts in a row that fail before this process stops asking for the server


class ForkedChild:
    """A child of the fork server, watched through a pidfd; the subset of ``subprocess.Popen`` a
    session uses (``pid``, ``poll``, ``wait``) and ``kill``, which kills every process of the
    child's pid namespace (the first process of a namespace takes the rest with it)."""

    def __init__(self, pidfd: int) -> None:
        self._pidfd = pidfd
        self._lock = threading.RLock()  # the pidfd is closed once and never used after (two threads may close);
        # re-entrant, since the second Ctrl-C kills every child from a signal handler, which may interrupt a kill
        self.pid = _pid_of(pidfd)
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """None while the child runs; else -9 (its exit code is the fork server's to collect)."""
        with self._lock:
            if self.returncode is None and (self._pidfd < 0 or wait_readable(self._pidfd, 0)):
                self.returncode = -signal.SIGKILL
            return self.returncode

    def kill(self) -> None:
        with self._lock:
            if self._pidfd >= 0:
                try:
                    signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    def wait(self) -> int:
        """Block until the child has ended (killed, or on its own), then let go of its pidfd."""
        while True:
            with self._lock:  # (let go of between looks, so that another thread may kill it meanwhile)
                if self._pidfd >= 0 and wait_readable(self._pidfd, 0.05):
                    os.close(self._pidfd)
                    self._pidfd = -1
                if self._pidfd < 0:
                    self.returncode = -signal.SIGKILL if self.returncode is None else self.returncode
                    return self.returncode


def _pid_of(pidfd: int) -> int:
    """The process a pidfd refers to, by its number in this process's pid namespace."""
    with open(f"/proc/self/fdinfo/{pidfd}", encoding="ascii") as f:
        for line in f:
            if line.startswith("Pid:"):
                return int(line.split()[1])
    raise SandboxError(sandboxing_messages.forkserver_failed(sandboxing_messages.FORKSERVER_NO_PID))


@dataclass
class _Server:
    lock: threading.Lock
    proc: subprocess.Popen | None = None
    control: socket.socket | None = None
    runner: Path | None = None
    files: tuple[tuple[str, bytes], ...] = ()  # the child's, its parts' and the probes' code the server runs

    def spawn(self, fds: tuple[int, ...], starter: Callable[..., subprocess.Popen], files: tuple[Path, ...]
              ) -> ForkedChild:
        code = tuple((path.stem, compiled(path)) for path in (ZYGOTE, *files))
        with self.lock:
            for _ in range(2):  # a server that died is started again, once
                if self.proc is None or self.proc.poll() is not None or code != self.files:
                    self._start(starter, code)
                assert self.control is not None
                try:
                    socket.send_fds(self.control, [b"fork"], list(fds))
                    answer, got, _, _ = socket.recv_fds(self.control, 256, 1)
                except OSError:
                    self.stop()
                    continue
                if answer == b"ok" and len(got) == 1:
                    STATE.pop("failures", None)
                    return ForkedChild(got[0])
                for fd in got:
                    os.close(fd)
                raise SandboxError(sandboxing_messages.forkserver_failed(
                    answer.decode("utf-8", "replace") or "no answer"))
            raise SandboxError(sandboxing_messages.forkserver_failed(sandboxing_messages.FORKSERVER_ENDED))

    def _start(self, starter: Callable[..., subprocess.Popen], code: tuple[tuple[str, bytes], ...]) -> None:
        self.stop()
        self.runner = scratch.make("hogkit-zygote-")
        self.runner.chmod(0o755)
        for stem, data in code:
            target = self.runner / f"{stem}.pyc"
            with open(target, "xb") as f:
                f.write(data)
            target.chmod(0o644)
        self.files = code
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            argv = isolation.policy().zygote_command(self.runner, theirs.fileno())
            env = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "LANG": "C.UTF-8"}
            self.proc = starter(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, pass_fds=(theirs.fileno(),), cwd="/", env=env,
                                start_new_session=True)
        except BaseException:
            mine.close()
            raise
        finally:
            theirs.close()
        mine.settimeout(ANSWER_SECONDS)
        self.control = mine

    def stop(self) -> None:
        """End the server (it exits when its socket closes; killed if it does not) and remove its runner."""
        if self.control is not None:
            self.control.close()
            self.control = None
        if self.proc is not None:
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        if self.runner is not None:
            scratch.remove(self.runner)
            self.runner = None


SERVER = _Server(threading.Lock())
atexit.register(SERVER.stop)  # the server ends with this process, and its runner folder goes with it
STATE: dict[str, object] = {}  # "failures": starts that failed in a row; "why": the latest reason


def usable() -> bool:
    """Whether this process forks its children from the fork server (see the contract)."""
    failures = STATE.get("failures", 0)
    return (os.environ.get(SWITCH, "").lower() not in ("off", "0", "no") and hasattr(os, "pidfd_open")
            and hasattr(socket, "send_fds") and isolation.policy().level == isolation.NAMESPACES
            and isinstance(failures, int) and failures < MOST_FAILURES)


def spawn(fds: tuple[int, ...], starter: Callable[..., subprocess.Popen], files: tuple[Path, ...]) -> ForkedChild:
    """A new child of the fork server holding FDS (its ends of its pipes, then its link's, if any). STARTER starts the
    server when needed (``subprocess.Popen``, called from the thread that starts children); FILES
    are the child's, its parts' and the probes' source (a server running other code is started again)."""
    return SERVER.spawn(fds, starter, files)


def forked_processes() -> list[int]:
    """Every process the fork server forked that still runs (its children and theirs, as this process
    numbers them): none once every session has closed."""
    proc = SERVER.proc
    if proc is None:
        return []
    tool = os.path.basename(isolation.policy().tool)
    server = next((pid for pid in process_tree(proc.pid) if _program(pid) != tool), 0)  # (past bubblewrap's)
    if not server:
        return []
    return [pid for pid in process_tree(server)[1:] if (process_stat(pid) or ("Z",))[0] not in ("Z", "X")]


def _program(pid: int) -> str:
    """The name of the program PID runs ('' when it is gone)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return os.path.basename(f.read().split(b"\0")[0].decode("utf-8", "replace"))
    except OSError:
        return ""


def failed(why: str) -> None:
    """The server gave no child (WHY): this child is started on its own, and after MOST_FAILURES in a
    row (a machine where the server cannot run) every child of this process is."""
    with SERVER.lock:
        count = STATE.get("failures", 0)
        STATE["failures"] = (count if isinstance(count, int) else 0) + 1
        STATE["why"] = why
        SERVER.stop()
