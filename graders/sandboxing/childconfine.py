"""What the child does to itself before student code: limits, identity, capabilities, confinement.

Contract: part of the child (see :mod:`graders.sandboxing.child`); the standard library only (``ctypes``
where it mounts folders or confines). It applies what the parent asks and reports what it could
actually reach (:func:`verify_reach`); the parent, not this process, decides whether that is enough.
"""

from __future__ import annotations

import os

# True only for the type checker: the child imports no more than it needs (not even typing), and
# ctypes only where it mounts folders or confines itself.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import ctypes




def apply_limits(limits: dict) -> None:
    try:
        import resource
    except ImportError:  # not on POSIX: the parent's deadline still applies
        return
    pairs = {
        "cpu_seconds": resource.RLIMIT_CPU,
        "memory_bytes": resource.RLIMIT_AS,
        "file_bytes": resource.RLIMIT_FSIZE,
        "processes": resource.RLIMIT_NPROC,
    }
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for key, which in pairs.items():
        value = limits.get(key)
        if value:
            resource.setrlimit(which, (int(value), int(value)))


PRELOADED = ("random", "functools", "math", "itertools", "operator", "string", "collections", "socket", "ctypes",
             "code", "inspect", "signal")  # (the course's ucb.py imports the last three)


CLONE_NEWNS, MS_REC, MS_PRIVATE, MS_RDONLY, MS_BIND = 0x00020000, 0x4000, 0x40000, 0x1, 0x1000


def hide_folders(folders: list, interpreter: str, staging: str) -> bool:
    """In a mount namespace of this process alone: cover FOLDERS with empty read-only file systems,
    so the code that runs next cannot read them, and show the INTERPRETER's folder to the user this
    child becomes even where a folder above it is closed to others (a Python under /root): that
    folder is covered by an empty one, searchable, holding just the interpreter's folder again
    (brought through STAGING). Needs root (Linux); False when not possible."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(CLONE_NEWNS) != 0:
            return False
        if libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None) != 0:
            return False
        for folder in folders:
            if libc.mount(b"tmpfs", os.fsencode(folder), b"tmpfs", MS_RDONLY, None) != 0:
                return False
        return _reopen(libc, interpreter, staging)
    except (OSError, AttributeError):
        return False


def _reopen(libc: ctypes.CDLL, home: str, staging: str) -> bool:
    closed = [p for p in _ancestors(home) if not os.stat(p).st_mode & 0o001]
    if not closed:
        return True
    top = os.fsencode(closed[-1])  # the closed folder nearest the root: covering it covers the rest
    if libc.mount(os.fsencode(home), os.fsencode(staging), None, MS_BIND | MS_REC, None) != 0:
        return False
    if libc.mount(b"tmpfs", top, b"tmpfs", 0, b"mode=0755") != 0:
        return False
    os.makedirs(home, mode=0o755, exist_ok=True)
    return libc.mount(os.fsencode(staging), os.fsencode(home), None, MS_BIND | MS_REC, None) == 0


def _ancestors(path: str) -> list[str]:
    """The folders above PATH, nearest first, the root left out."""
    found: list[str] = []
    while True:
        parent = os.path.dirname(path)
        if parent == path or parent == "/":
            return found
        found.append(parent)
        path = parent


def drop_privileges(uid: int, gid: int) -> None:
    """Become the user UID (and only the group GID) for good: an identity of this child's own, which
    no other child shares. What the submission's files usually import is loaded first, since the
    interpreter's files may not be readable by that user where namespaces are missing."""
    import importlib

    for name in PRELOADED:
        importlib.import_module(name)
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)


_PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
_CAP_VERSION_3 = 0x20080522
CAPABILITIES = ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")  # as /proc/self/status names them


def drop_capabilities(keep_identity: bool = False) -> None:
    """Give up every capability for good: none can be had again, by this process or any it starts
    (bubblewrap does the same; the fork server's children do it here). With KEEP_IDENTITY, the ones
    that let this process become its own user are kept until it does (see drop_privileges, after
    which the kernel clears them). Nothing here raises: what is left is reported (verify_reach)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        for cap in range(64):
            if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
                break  # past the last capability this kernel knows, or none may be dropped (no CAP_SETPCAP)
        libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
        if keep_identity:
            return
        header = (ctypes.c_uint32 * 2)(_CAP_VERSION_3, 0)
        data = (ctypes.c_uint32 * 6)()
        libc.capset(header, data)
    except (OSError, AttributeError):
        return


def capabilities() -> dict:
    """The capability sets of this process, as /proc/self/status shows them (hex)."""
    found = {}
    try:
        with open("/proc/self/status", "rb") as f:  # (no codec: the user this child became may not reach them)
            for line in f.read().decode("utf-8", "replace").splitlines():
                name, _, value = line.partition(":")
                if name in CAPABILITIES:
                    found[name] = value.strip()
    except OSError:
        pass
    return found


# -- confinement where namespaces are missing, and what the child can actually reach -------------------

# Landlock (linux/landlock.h): the system calls, and the access rights by the ABI that brought them.
_LL_CREATE, _LL_ADD_RULE, _LL_RESTRICT = 444, 445, 446
_LL_FILE = 1 | 2 | 4  # execute, write a file, read a file
_LL_DIR_BITS = (8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096)  # read a folder, remove, make ...
_LL_REFER, _LL_TRUNCATE, _LL_IOCTL = 1 << 13, 1 << 14, 1 << 15
_LL_READ = 1 | 4 | 8  # execute, read a file, read a folder
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2


def confine(spec: dict) -> tuple[list, list]:
    """Apply what SPEC asks for to this process and every process it starts: a seccomp filter (the
    BPF program the parent built, as hex) and Landlock rules (only SPEC's "read" and "write" paths
    reachable, TCP denied where the kernel's ABI allows). Returns (what was applied, what could not
    be, each with why); nothing here raises."""
    applied: list = []
    missing: list = []
    if spec.get("tmp"):
        os.environ["TMPDIR"] = spec["tmp"]
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return applied, [f"no_new_privs: error {ctypes.get_errno()}"]
        if spec.get("landlock"):
            _report(_landlock(libc, spec), "landlock", applied, missing)
        if spec.get("bpf"):
            _report(_seccomp(libc, bytes.fromhex(spec["bpf"])), "seccomp", applied, missing)
    except (OSError, AttributeError, ValueError, LookupError) as exc:
        missing.append(f"confinement: {exc}")
    return applied, missing


def _report(outcome: str, name: str, applied: list, missing: list) -> None:
    if outcome.startswith("!"):
        missing.append(f"{name}: {outcome[1:]}")
    else:
        applied.append(outcome)


def _landlock(libc: ctypes.CDLL, spec: dict) -> str:
    """'landlock ABI N' once restricted; '!why' when the kernel has no Landlock or refused a step.
    Where the first call fails, '!unavailable (error E, seccomp M)': its errno and this process's
    seccomp mode before its own filter (2: a filter it was started under, a container's), which the
    parent words (ENOSYS from a container's seccomp profile is not a kernel without Landlock)."""
    import ctypes

    syscall = libc.syscall
    syscall.restype = ctypes.c_long
    abi = syscall(_LL_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    if abi < 1:
        error = ctypes.get_errno()
        return f"!unavailable (error {error}, seccomp {_seccomp_mode()})"
    every = _LL_FILE | sum(_LL_DIR_BITS) | (_LL_REFER if abi >= 2 else 0) | (_LL_TRUNCATE if abi >= 3 else 0)
    every |= _LL_IOCTL if abi >= 5 else 0
    net = 1 | 2 if abi >= 4 else 0  # bind and connect over TCP: no rule allows any port
    scoped = 1 | 2 if abi >= 6 else 0  # abstract UNIX sockets and signals outside this domain
    attr = (ctypes.c_uint64 * 3)(every, net, scoped)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    fd = syscall(_LL_CREATE, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if fd < 0:
        return f"!the rules were refused (error {ctypes.get_errno()})"
    try:
        for paths, rights in ((spec.get("read", []), _LL_READ), (spec.get("write", []), every)):
            for path in paths:
                _landlock_rule(syscall, fd, path, rights)
        if syscall(_LL_RESTRICT, fd, ctypes.c_uint32(0)) != 0:
            return f"!restricting failed (error {ctypes.get_errno()})"
    finally:
        os.close(fd)
    return f"landlock ABI {abi}" + (" with TCP denied" if net else "")


def _seccomp_mode() -> str:
    """This process's seccomp mode as the kernel states it (0 none, 1 strict, 2 a filter), '?' unknown."""
    try:  # read as bytes: no codec to import (the child may not reach the encodings package here)
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(b"Seccomp:"):
                    mode = line.split(b":", 1)[1].strip()
                    return str(int(mode)) if mode.isdigit() else "?"
    except OSError:
        pass
    return "?"


def _landlock_rule(syscall: object, fd: int, path: str, rights: int) -> None:
    """Allow RIGHTS beneath PATH (a file takes only a file's rights); a path that is gone is skipped."""
    import ctypes

    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

    try:
        target = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(path):
            rights &= _LL_FILE | _LL_TRUNCATE | _LL_IOCTL
        rule = PathBeneath(rights, target)
        syscall(_LL_ADD_RULE, fd, 1, ctypes.byref(rule), ctypes.c_uint32(0))  # type: ignore[operator]
    finally:
        os.close(target)


def _seccomp(libc: ctypes.CDLL, program: bytes) -> str:
    import ctypes

    if len(program) % 8 or not program:
        return "!the filter is not a BPF program"

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    code = ctypes.create_string_buffer(program, len(program))
    fprog = Program(len(program) // 8, ctypes.cast(code, ctypes.c_void_p))
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        return f"!the kernel refused the filter (error {ctypes.get_errno()})"
    return "seccomp"


def verify_reach(spec: dict, applied: list, missing: list, caps: dict) -> dict:
    """What this process can actually do, now that every protection is in place and before any
    student code: which of SPEC's "secrets" it can open, whether it reaches the parent's listener
    on 127.0.0.1 (SPEC's "listener" port), and who it is. Plain data for the parent to judge."""
    readable = []
    for path in spec.get("secrets", []):
        try:
            if os.path.isdir(path):
                if not os.listdir(path):
                    continue  # an empty folder (a folder covered by an empty file system) shows nothing
            else:
                os.close(os.open(path, os.O_RDONLY))
            readable.append(path)
        except OSError:
            continue
    try:
        userns = os.stat("/proc/self/ns/user").st_ino
    except OSError:
        userns = 0
    return {"op": "reach", "readable": readable, "network": _connects(spec.get("listener")), "uid": os.getuid(),
            "gid": os.getgid(), "userns": userns, "applied": applied, "missing": missing, "caps": caps}


def _connects(port: object) -> bool:
    """Whether a TCP connection to 127.0.0.1:PORT opens (PORT None: whether an internet socket can be made)."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            if type(port) is not int:
                return True
            s.settimeout(2.0)
            s.connect(("127.0.0.1", port))
            return True
    except OSError:
        return False
