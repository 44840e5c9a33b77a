"""Isolation: how far every sandboxed child is kept from the machine, decided in one place.

Contract: :func:`policy` works out once per process the strongest isolation this machine allows,
and :meth:`Policy.command` wraps a child's command line in it. Callers never choose: every way
student code runs (grading one submission or a class, Gradescope, the student's runner, the pytest
plugin, generated cases, ``play``, ``winrate``, ``contest``, ``picture``) starts its children
through :class:`graders.sandboxing.sandbox.Session`, which asks this module. Every report says which level
was in force (:attr:`Policy.summary`, or, where hidden cases ran, what a child verified), and
``--require-isolation`` refuses to grade unless the kit is hidden, the network off and the identity
the child's own.

The levels, strongest first:

``namespaces``
    bubblewrap (``bwrap``, from Debian's and Ubuntu's ``bubblewrap`` package) starts the child in
    mount, pid, network, IPC and UTS namespaces of its own (and a user namespace of its own when
    the grader is not root). The child sees the interpreter and its standard library read-only,
    the system's libraries read-only, the submission and the kit's support files read-only in an
    otherwise empty ``/work`` (a small private file system it may write to), the runner read-only
    in ``/hogkit``, a private ``/tmp`` and ``/dev/shm``, and its own ``/proc``: no kit, no other
    copy of the kit, no class folder, no output folder, no other child, no grader, no network.
    Killing the child's outermost process ends every process inside.
``limits``
    Where bubblewrap is missing or the kernel refuses namespaces (a container without
    ``CAP_SYS_ADMIN``, as on Gradescope): resource limits, a process group, a private folder and
    temporary folder of its own, the kit's folder covered when a mount namespace can be had, and
    what the kernel gives unprivileged processes (:func:`confinement`): Landlock (only the
    interpreter, its standard library, the system's libraries and the child's own folders
    readable; TCP denied from ABI 4 on).

At every level, on every route (a child of the fork server, a child started by bubblewrap, a child
under limits), the child installs the same seccomp filter built here with pyseccomp
(:func:`seccomp_program`) before any student code: no socket of any family, no extended attributes,
no io_uring, no mount and no new namespace; and none of the kernel's channels between children,
which no namespace a child gets covers: its key store (the grader's session keyring is inherited on
every route; user keyrings outlive a child), System V IPC and POSIX message queues (the machine's
own under limits, where a child has no IPC namespace), memfds (memory only a memory cgroup counts).
So a child leaves nothing in the kernel for a later child, and reads nothing of the grader's. What
held is never assumed: the child reports what it could actually reach (:class:`Verified`, see
:mod:`graders.sandboxing.guard`), and that is what every report that ran hidden cases states.

Identity: when the grader is root, every child runs as a user id of its own, never root and never
shared with another child, so no child can signal, read or write another. Without root, the
user namespace plays that part. Limits per submission rather than per process: the number of
processes is counted per user id (root) or per user namespace, and the parent watches the memory
of all the child's processes together (see :mod:`graders.sandboxing.sandbox`).
"""

from __future__ import annotations

import errno
import os
import platform
import re
import secrets
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graders.core.memo import once
from graders.sandboxing import messages as sandboxing_messages

NAMESPACES, LIMITS = "namespaces", "limits"
FORCE = "HOGKIT_ISOLATION"  # "limits" turns namespaces off, for comparison or for a machine that needs it
WORK, RUNNER = "/work", "/hogkit"  # where the child sees its folder and its runner, under namespaces
WORK_BYTES, TMP_BYTES = 32 * 1024 * 1024, 16 * 1024 * 1024
SYSTEM = ("/usr", "/lib", "/lib64", "/lib32", "/bin")  # the libraries the interpreter links to
# What the fork server keeps to make each child's namespaces and folders, bound its capabilities and
# give it a user id of its own; every child gives them all up before any student code (child.serve).
ZYGOTE_CAPABILITIES = ("CAP_SYS_ADMIN", "CAP_SETPCAP", "CAP_SETUID", "CAP_SETGID")


@dataclass(frozen=True)
class Policy:
    level: str  # NAMESPACES or LIMITS
    tool: str  # the bwrap executable, under namespaces
    root: bool  # the grader runs as root: each child gets a user id of its own
    python: str  # the interpreter the child runs (the real one, not a virtual environment's link)
    python_home: str  # the folder of its standard library, shown read-only under namespaces
    why: str  # why the level is not namespaces, when it is not

    @property
    def summary(self) -> str:
        """One line for every report: what student code could and could not reach."""
        if self.level == NAMESPACES:
            return sandboxing_messages.isolation_namespaces(self.root)
        return sandboxing_messages.isolation_limits(self.root, self.why)

    def command(self, runner: Path, stage: Path, files: list[str], fds: tuple[int, int],
                script: str = "child.pyc") -> list[str]:
        """The command line that starts the child: ``runner/SCRIPT`` (the child, compiled) with the
        pipe FDS; under namespaces, with STAGE's FILES shown read-only in ``/work``."""
        child = [self.python, "-I", "-S", "-B"]
        if self.level != NAMESPACES:
            return [*child, str(runner / script), *map(str, fds)]
        return [*self.wrapper(runner, stage, files), *child, f"{RUNNER}/{script}", *map(str, fds)]

    def wrapper(self, runner: Path, stage: Path, files: list[str]) -> list[str]:
        """bubblewrap's command line for one child: the system's view (:meth:`view`), with STAGE's
        FILES read-only in a writable ``/work`` and the runner read-only."""
        argv = self.view()
        argv += ["--size", str(WORK_BYTES), "--perms", "1777", "--tmpfs", WORK]
        for name in files:
            argv += ["--ro-bind", str(stage / name), f"{WORK}/{name}"]
        argv += ["--ro-bind", str(runner), RUNNER, "--chdir", WORK, "--"]
        return argv

    def zygote_command(self, runner: Path, fd: int) -> list[str]:
        """The command line that starts the fork server (:mod:`graders.sandboxing.zygote`) with its
        control socket FD: the system's view, the runner read-only, an empty ``/work`` for each child
        to mount its own, and the capabilities it needs to build each child's namespaces."""
        argv = self.view()
        for cap in ZYGOTE_CAPABILITIES:
            argv += ["--cap-add", cap]
        argv += ["--dir", WORK, "--ro-bind", str(runner), RUNNER, "--chdir", "/", "--"]
        return [*argv, self.python, "-I", "-S", "-B", f"{RUNNER}/zygote.pyc", str(fd)]

    def view(self) -> list[str]:
        """bubblewrap's options every child shares: new namespaces, the system read-only, no installed
        package, a fresh /proc, /dev, /tmp and /dev/shm."""
        argv = [self.tool, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-net",
                "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
        if not self.root:
            argv.append("--unshare-user")
        for folder in SYSTEM:  # as on the machine: a merged /usr keeps /bin and /lib as links
            if os.path.islink(folder):
                argv += ["--symlink", os.readlink(folder), folder]
            else:
                argv += ["--ro-bind-try", folder, folder]
        # The folders above the interpreter's are made, empty and searchable, so that a child with
        # its own user id reaches it even where the machine's own are closed (a Python under /root).
        for parent in reversed(Path(self.python_home).parents):
            if str(parent) != "/" and not any(str(parent).startswith(f"{folder}/") or str(parent) == folder
                                              for folder in SYSTEM):
                argv += ["--perms", "0755", "--dir", str(parent)]
        argv += ["--ro-bind", self.python_home, self.python_home]  # again under /usr: no harm
        if os.path.isdir("/usr/local") and not within(self.python_home, "/usr/local"):
            argv += ["--tmpfs", "/usr/local"]  # where a kit or its packages may be installed system-wide
        for packages in installed_packages([self.python_home, "/usr"]):
            argv += ["--tmpfs", packages]  # the child runs with -S and needs no installed package
        argv += ["--proc", "/proc", "--dev", "/dev"]
        argv += ["--size", str(TMP_BYTES), "--perms", "1777", "--tmpfs", "/tmp"]
        argv += ["--size", str(TMP_BYTES), "--perms", "1777", "--tmpfs", "/dev/shm"]
        return argv

    def paths(self, runner: Path, stage: Path) -> tuple[str, str]:
        """(the work folder, the runner folder) as the child sees them."""
        return (WORK, RUNNER) if self.level == NAMESPACES else (str(stage), str(runner))

    def identity(self) -> tuple[int, int] | None:
        """(uid, gid) for a new child when the grader is root (a fresh id, never shared); else None."""
        if not self.root:
            return None
        uid = 1_000_000 + secrets.randbelow(1_000_000_000)
        return uid, uid


def within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def installed_packages(prefixes: list[str]) -> list[str]:
    """The site-packages and dist-packages folders under PREFIXES (real folders, not links)."""
    found: set[str] = set()
    for prefix in prefixes:
        for pattern in ("lib*/python3*/site-packages", "lib*/python3*/dist-packages", "lib*/python3/dist-packages"):
            found |= {str(p) for p in Path(prefix).glob(pattern) if p.is_dir() and not p.is_symlink()}
    return sorted(found)


def _python() -> tuple[str, str]:
    """The real interpreter (a virtual environment's python is a link into the kit's folder) and
    the folder holding its standard library."""
    executable = os.path.realpath(getattr(sys, "_base_executable", "") or sys.executable)
    return executable, os.path.realpath(sys.base_prefix)


@once(maxsize=1)
def policy() -> Policy:
    """The isolation every child gets on this machine, worked out once (by trying it)."""
    python, home = _python()
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    tool = shutil.which("bwrap") or ""
    if os.environ.get(FORCE) == LIMITS:
        return Policy(LIMITS, "", root, python, home, sandboxing_messages.isolation_turned_off(FORCE))
    if not tool or not sys.platform.startswith("linux"):
        return Policy(LIMITS, "", root, python, home, sandboxing_messages.isolation_no_bwrap())
    candidate = Policy(NAMESPACES, tool, root, python, home, "")
    why = _try(candidate)
    if why:
        return Policy(LIMITS, "", root, python, home, sandboxing_messages.isolation_refused(why))
    return candidate


IDENTITY_PROBE = """import os, sys
if len(sys.argv) > 2:
    os.setgroups([])
    os.setgid(int(sys.argv[2]))
    os.setuid(int(sys.argv[1]))
import json, decimal
print(sys.version_info[0])
"""


def _try(candidate: Policy) -> str:
    """'' when CANDIDATE starts a python that prints its version; else what went wrong, in a line."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="hogkit-probe-") as tmp:
        stage = Path(tmp) / "stage"
        runner = Path(tmp) / "runner"
        stage.mkdir()
        runner.mkdir()
        # As the child will: under the identity a root grader gives it, importing from the standard
        # library, so a machine where that identity cannot reach the interpreter is found here, once.
        (runner / "child.py").write_text(IDENTITY_PROBE, encoding="utf-8")
        for folder in (stage, runner):
            folder.chmod(0o755)
        (runner / "child.py").chmod(0o644)
        argv = candidate.command(runner, stage, [], (0, 1), script="child.py")[:-2]
        identity = candidate.identity()
        if identity:
            argv += [str(identity[0]), str(identity[1])]
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return str(exc)
        if done.returncode != 0 or done.stdout.strip() != "3":
            return (done.stderr.strip().split("\n") or ["?"])[-1][:200] or f"exit status {done.returncode}"
    return ""


# -- what the child verified, and the confinement it applies where namespaces are missing ----------


@dataclass(frozen=True)
class Verified:
    """What a child, started as every child is, found it could do after every protection was in
    place and before any student code: the one source of every report's isolation line."""

    level: str  # NAMESPACES or LIMITS
    why: str  # why the level is not namespaces, when it is not
    readable: tuple[str, ...]  # the kit's secrets the child could open (none: the kit is hidden)
    network: bool  # the child reached a listener of the grader's on 127.0.0.1
    own_identity: bool  # a user id, or a user namespace, other than the grader's
    applied: tuple[str, ...]  # what the child applied itself (Landlock, seccomp), as it said
    missing: tuple[str, ...]  # what it could not apply, each with why
    memory: str  # how memory is bounded (the parent's own knowledge)
    channels: str = ""  # whether the kernel's channels between children are closed (see CHANNEL_CALLS)
    checked: int = 0  # how many of the kit's own paths the child was asked about (nothing else was looked for)

    @property
    def kit_hidden(self) -> bool:
        return not self.readable

    @property
    def complete(self) -> bool:
        """Everything --require-isolation asks for: kit hidden, network off, an identity of its own."""
        return self.kit_hidden and not self.network and self.own_identity

    @property
    def summary(self) -> str:
        return sandboxing_messages.isolation_verified(self.level, self.why, self.readable, self.network,
                                                      self.own_identity, self.applied, self.missing, self.memory,
                                                      self.channels, self.checked)


def verified_from(reach: object, level: Policy, secrets_: tuple[str, ...]) -> Verified:
    """The record of what a child said it could do (REACH, its "reach" frame; None when it said
    nothing, which counts as everything readable and the network open)."""
    data = reach if isinstance(reach, dict) else {}
    raw = data.get("readable")
    said: list = raw if isinstance(raw, list) else list(secrets_)
    readable = tuple(p for p in secrets_ if p in said)
    uid, gid, userns = data.get("uid"), data.get("gid"), data.get("userns")
    applied = _texts(data.get("applied"))
    own = (type(uid) is int and uid != os.getuid() and gid != os.getgid()) or (
        type(userns) is int and userns not in (0, _own_userns()))
    seccomp = "seccomp" in applied
    missing = tuple(_worded(text) for text in _texts(data.get("missing")))
    return Verified(level.level, level.why, readable, data.get("network") is not False, own,
                    applied, missing, sandboxing_messages.memory_bound(
                        level.level, seccomp, data.get("cgroup") is True),
                    sandboxing_messages.channels_between_children(level.level, seccomp), len(secrets_))


def _texts(raw: object) -> tuple[str, ...]:
    return tuple(str(t)[:200] for t in raw[:10]) if isinstance(raw, list) else ()


LANDLOCK_UNAVAILABLE = re.compile(r"landlock: unavailable \(error (\d+), seccomp (\S+)\)")


def _worded(text: str) -> str:
    """One thing the child could not apply, as it said it (a failed first Landlock call: worded here,
    with what the machine says of Landlock, see :func:`sandboxing_messages.landlock_unavailable`)."""
    found = LANDLOCK_UNAVAILABLE.fullmatch(text)
    if found is None:
        return text
    why = sandboxing_messages.landlock_unavailable(int(found.group(1)), found.group(2) == "2", landlock_listed(),
                                                   platform.release())
    return f"landlock: {why}"


LSM_LIST = "/sys/kernel/security/lsm"  # the kernel's security modules, in force (securityfs)


def landlock_listed() -> bool | None:
    """Whether the kernel's list of security modules in force names Landlock; None where it cannot be read."""
    try:
        with open(LSM_LIST, encoding="ascii", errors="replace") as lsm:
            return "landlock" in lsm.read().strip().split(",")
    except OSError:
        return None


def _own_userns() -> int:
    try:
        return os.stat("/proc/self/ns/user").st_ino
    except OSError:
        return 0


_DEMAND_LOCK = threading.Lock()
_DEMANDED: dict[Policy, tuple[str, ...]] = {}


def demand(level: Policy, secrets_: tuple[str, ...]) -> None:
    """From now on, every child started under LEVEL checks SECRETS_ too (see :func:`demanded`)."""
    with _DEMAND_LOCK:
        _DEMANDED[level] = tuple(sorted(set(_DEMANDED.get(level, ())) | set(secrets_)))


def demanded(level: Policy) -> tuple[str, ...]:
    """The secrets a child under LEVEL must not reach, once a verification found them hidden: a
    child that reaches one is the sandbox failing (:class:`graders.core.errors.SandboxError`)."""
    with _DEMAND_LOCK:
        return _DEMANDED.get(level, ())


# What the seccomp filter refuses (:func:`seccomp_program`). Every socket, of every family: internet,
# netlink and packet sockets reach the network, and UNIX ones reach the machine's services and the
# grader's own (by path wherever the child shares the grader's files, by abstract name wherever it
# shares its network namespace: under limits, both). Once the filter is on, neither the child nor the
# kit's code in it opens one (its pipes are pipes; the fork server's control socket stays in the server).
SOCKET_CALLS = ("socket", "socketpair")
# Kernel memory that no limit sees, and ways out of the namespaces a child was given: a namespace of
# its own would let it mount a tmpfs of its own (memory no limit sees) whatever its level.
DENIED_CALLS = ("setxattr", "lsetxattr", "fsetxattr", "setxattrat", "io_uring_setup", "io_uring_enter",
                "io_uring_register", "bpf", "perf_event_open", "unshare", "setns", "mount", "userfaultfd",
                "fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr")
# Channels between children, and to the grader, that the kernel keeps outside every namespace a child
# is given (its key store: the grader's session keyring, inherited, and the user keyrings, which outlive
# a child) or, under limits, in the machine's own namespace (System V IPC, POSIX message queues); and
# memfds, memory that only a memory cgroup counts. A child can thus leave nothing in the kernel.
CHANNEL_CALLS = ("add_key", "keyctl", "request_key", "shmget", "shmat", "shmctl", "msgget", "msgsnd", "msgrcv",
                 "msgctl", "semget", "semop", "semtimedop", "semctl", "mq_open", "mq_unlink", "mq_timedsend",
                 "mq_timedreceive", "mq_notify", "mq_getsetattr", "memfd_create", "memfd_secret")
# A child's files are its own user's alone: it makes them under umask 077 and no call may open them
# to other users (where children share the machine's /tmp and /dev/shm, under limits without
# Landlock, each child is a user of its own and reads no other child's files).
MODE_CALLS = ("chmod", "fchmod", "fchmodat", "fchmodat2", "umask")
# Calls some libseccomp is too old to know (2.5 knows neither setxattrat nor, before 2.5.5,
# fchmodat2), refused by their number on the machines the kit runs on (the same on both).
BY_NUMBER = {"setxattrat": 463, "fchmodat2": 452}
NUMBERED_MACHINES = ("x86_64", "aarch64")
# clone's flags that make a namespace (mount, cgroup, UTS, IPC, user, pid, network); clone3, whose
# flags are in memory a filter cannot read, is answered ENOSYS, and the C library falls back to clone.
CLONE_NEW = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000)


@once(maxsize=1)
def seccomp_program() -> tuple[str, str]:
    """(the seccomp filter as BPF, in hex, ''), or ('', why there is none): built with pyseccomp (a
    binding to the system's libseccomp) in the grader, installed by the child, which cannot import
    installed packages. Refused: every socket (EAFNOSUPPORT), the kernel's key store, System V IPC,
    POSIX message queues and memfds (EPERM: channels between children, see CHANNEL_CALLS), a file's
    modes (MODE_CALLS: a child's files are its user's alone), extended
    attributes (kernel memory no limit sees), io_uring, BPF, mounts and new namespaces (EPERM)."""
    try:
        import pyseccomp as sc  # type: ignore[import-untyped]
    except (ImportError, OSError, RuntimeError) as exc:
        return "", sandboxing_messages.seccomp_unavailable(str(exc).split("\n")[0][:120] or type(exc).__name__)
    try:
        flt = sc.SyscallFilter(sc.ALLOW)
        _refuse(flt, sc)
        with tempfile.TemporaryFile() as out:
            flt.export_bpf(out)
            out.seek(0)
            return out.read().hex(), ""
    except (RuntimeError, ValueError, OSError) as exc:
        return "", sandboxing_messages.seccomp_unavailable(str(exc)[:120])


def _refuse(flt: Any, sc: Any) -> None:
    """Add every refusal of :func:`seccomp_program` to the filter FLT (SC: the pyseccomp module)."""
    rules: list[tuple[int, str, tuple]] = [(errno.EAFNOSUPPORT, name, ()) for name in SOCKET_CALLS]
    rules += [(errno.EPERM, name, ()) for name in (*DENIED_CALLS, *CHANNEL_CALLS, *MODE_CALLS)]
    rules += [(errno.EPERM, "clone", (sc.Arg(0, sc.MASKED_EQ, flag, flag),)) for flag in CLONE_NEW]
    rules.append((errno.ENOSYS, "clone3", ()))
    for code, name, args in rules:
        try:
            flt.add_rule(sc.ERRNO(code), name, *args)
        except (RuntimeError, ValueError, OSError):
            if name in BY_NUMBER and platform.machine() in NUMBERED_MACHINES:
                flt.add_rule(sc.ERRNO(code), BY_NUMBER[name], *args)  # (newer than this libseccomp)


@once(maxsize=4)
def system_paths(level: Policy) -> tuple[str, ...]:
    """What a confined child may read beside its own folders: the interpreter, its standard library
    (never site-packages or dist-packages, which may hold the kit), the system's libraries and programs."""
    found = [level.python]
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    found += [str(p) for p in _entries(stdlib) if p.name not in ("site-packages", "dist-packages")]
    found += [str(p) for p in _entries(Path(level.python_home) / "lib") if p.name.startswith("libpython")]
    for folder in ("/usr/lib", "/lib", "/usr/lib64", "/lib64", "/usr/lib32", "/lib32"):
        if os.path.isdir(folder) and not os.path.islink(folder):
            found += [str(p) for p in _entries(Path(folder)) if not p.name.startswith("python")]
    found += [p for p in ("/usr/bin", "/bin", "/etc/ld.so.cache", "/etc/localtime", "/usr/share/zoneinfo")
              if os.path.exists(p) and not os.path.islink(p)]
    return tuple(found)


def _entries(folder: Path) -> list[Path]:
    try:
        return sorted(folder.iterdir())
    except OSError:
        return []


DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")


def confinement(level: Policy, work: str, runner: str, tmp: str) -> dict:
    """What the child applies to itself (see ``graders.sandboxing.child.confine``): the seccomp filter at every
    level; under limits, Landlock too, with only its folders, the interpreter and the system readable."""
    program, _ = seccomp_program()
    spec: dict = {"bpf": program}
    if level.level == LIMITS:
        spec.update(landlock=True, tmp=tmp, read=[*system_paths(level), runner], write=[work, tmp, *DEVICES])
    return spec


# -- a memory cgroup per child, where one can be had: it counts kernel memory (files' inodes and
# attributes in tmpfs, page tables) that neither the address-space limit nor the watch on resident
# memory sees. Made beneath the grader's own cgroup, so whatever bounds the grader bounds it too.

CGROUP_ROOTS = {"v1": "/sys/fs/cgroup/memory", "v2": "/sys/fs/cgroup"}
CGROUP_HEADROOM = 1024 * 1024 * 1024  # above the children's own limit, so the watch on their memory speaks first


def _own_memory_cgroup() -> tuple[Path, str] | None:
    """(this process's memory cgroup folder, the name of its limit file), where the machine has one."""
    try:
        lines = Path("/proc/self/cgroup").read_text(encoding="ascii").splitlines()
    except OSError:
        return None
    for line in lines:
        hierarchy, controllers, path = (line.split(":", 2) + ["", ""])[:3]
        if "memory" in controllers.split(","):
            return Path(CGROUP_ROOTS["v1"] + path.rstrip("/")), "memory.limit_in_bytes"
        if hierarchy == "0" and os.path.isfile(CGROUP_ROOTS["v2"] + "/cgroup.controllers"):
            return Path(CGROUP_ROOTS["v2"] + path.rstrip("/")), "memory.max"
    return None


@once(maxsize=1)
def memory_cgroups() -> tuple[str, str]:
    """(the folder children's memory cgroups are made in, their limit file), or ('', why there are none)."""
    own = _own_memory_cgroup()
    if own is None:
        return "", "no memory cgroup on this machine"
    folder, limit = own
    trial = folder / f"hogkit-probe-{os.getpid()}"
    try:
        trial.mkdir()
    except OSError as exc:
        return "", f"memory cgroup {folder} not writable ({exc.strerror})"
    try:
        if not (trial / limit).is_file():
            return "", f"memory cgroup {folder} does not delegate memory"
        return str(folder), limit
    finally:
        try:
            trial.rmdir()
        except OSError:
            pass


def make_memory_cgroup(name: str, limit: int) -> str:
    """A new memory cgroup NAME limited to LIMIT bytes plus headroom; '' where none can be had."""
    folder, limit_file = memory_cgroups()
    if not folder:
        return ""
    group = Path(folder) / name
    try:
        group.mkdir(exist_ok=True)
        (group / limit_file).write_text(str(limit + CGROUP_HEADROOM), encoding="ascii")
    except OSError:
        remove_cgroup(str(group))
        return ""
    return str(group)


def remove_cgroup(group: str) -> None:
    """Remove GROUP (its processes are gone: a cgroup holding a process cannot be removed; tried briefly)."""
    import time

    for _ in range(20):
        try:
            os.rmdir(group)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.05)


def move_to_cgroup(group: str, pid: int) -> None:
    """Put the process PID (a forked child, before it starts anything) into GROUP ('' : none)."""
    if group:
        (Path(group) / "cgroup.procs").write_text(str(pid), encoding="ascii")


def in_cgroup(group: str, argv: list[str]) -> list[str]:
    """ARGV started inside GROUP: a shell moves itself there, then becomes ARGV (so nothing of the
    child ever runs outside it)."""
    if not group:
        return argv
    return ["/bin/sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', group, *argv]
