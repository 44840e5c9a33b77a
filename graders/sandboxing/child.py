"""The child side of the sandbox: runs untrusted submission code and reports plain data.

Contract (a copy of this file, compiled by the parent, is started from the submission's private
folder as ``python3 -I -S -B child.pyc IN_FD OUT_FD``, reads its settings as the first frame on
IN_FD, and imports only the standard library, the least it needs: ``_ast``, not ``ast``):

* It applies the resource limits it is given before it reads a byte of student code.
* It imports the submission one top-level statement at a time, announcing each statement first,
  so that the parent can skip a statement that hangs or ends the process and try again.
* It then answers requests, one case at a time with a reply per ``>>>`` step, over a private
  pipe: length-prefixed JSON frames, never stdin/stdout (stdin is /dev/null, so ``input()``
  fails fast and cannot read our requests by accident).
* Values go back as tagged plain data built only from objects whose type is *exactly* ``int``,
  ``float``, ``bool``, ``str``, ``NoneType``, ``tuple`` or ``list``; anything else is described, never
  trusted. The parent does every comparison. Nothing this process says can award points on its own:
  a forged or missing reply only loses them.
"""

from __future__ import annotations

import _ast
import io
import json
import marshal
import os
import sys
import types
from collections.abc import Callable

# True only for the type checker: the child imports no more than it needs (not even typing), and
# ctypes only where it mounts folders.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import ctypes

# Keep our own references before student code can replace the module attributes.
_dumps, _loads = json.dumps, json.loads
_write, _read = os.write, os.read
_MAX_TEXT = 64 * 1024
_MAX_LINES = 2000
_MAX_ITEMS = 2000
_MAX_INT_DIGITS = 4000


class CappedText(io.TextIOBase):
    """A stdout stand-in that keeps at most ``_MAX_TEXT`` characters and ``_MAX_LINES`` lines, and
    remembers that it overflowed. Whole lines that start with ``DEBUG:`` have a budget of their
    own: they never count against the cap and never overflow it (past their own budget they are
    left out, and the output is still whole)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size, self.lines, self.truncated = 0, 0, False
        self.debug_size, self.debug_lines = 0, 0
        # The line being written: "" while its start may still be "DEBUG:", "debug" (its pieces
        # are held until it ends) or "plain" (kept as it comes).
        self.kind, self.held, self.held_size = "", [], 0  # type: str, list[str], int

    def write(self, s: str) -> int:
        if type(s) is not str:
            raise TypeError("write() argument must be str")
        if "\n" not in s:  # most writes: a piece of a line (print writes each argument on its own)
            if self.kind == "plain" and self.lines < _MAX_LINES and len(s) <= _MAX_TEXT - self.size:
                self.parts.append(s)  # what keep() does with a piece of a plain line that fits
                self.size += len(s)
            elif s:
                self.piece(s)
            return len(s)
        start = 0
        while start < len(s):
            end = s.find("\n", start)
            piece = s[start:] if end < 0 else s[start:end + 1]
            start += len(piece)
            self.piece(piece)
            if piece.endswith("\n"):
                self.end_line()
        return len(s)

    def piece(self, piece: str) -> None:
        """Part of the line being written (at most one line end, at its end)."""
        if not self.kind:
            piece = "".join(self.held) + piece
            self.held, self.held_size = [], 0
            if piece.startswith("DEBUG:"):
                self.kind = "debug"
            elif "DEBUG:".startswith(piece) and not piece.endswith("\n"):
                self.held, self.held_size = [piece], len(piece)  # too short to tell yet
                return
            else:
                self.kind = "plain"
        if self.kind == "plain":
            self.keep(piece)
            return
        self.held.append(piece)
        self.held_size += len(piece)
        if self.held_size > _MAX_TEXT:  # no DEBUG line this long is kept whole: as any other line
            self.kind = "plain"
            self.keep("".join(self.held))
            self.held, self.held_size = [], 0

    def end_line(self) -> None:
        """The line being written has ended (or the output has): a DEBUG line is kept within the
        budget of DEBUG lines, and one past it left out; any held start of a line is kept."""
        line = "".join(self.held)
        if self.kind == "debug":
            if self.debug_size + len(line) <= _MAX_TEXT and self.debug_lines < _MAX_LINES:
                self.parts.append(line)
                self.debug_size += len(line)
                self.debug_lines += 1
        elif line:
            self.keep(line)
        self.kind, self.held, self.held_size = "", [], 0

    def keep(self, s: str) -> None:
        room = min(_MAX_TEXT - self.size, len(s))
        if self.lines >= _MAX_LINES:
            room = 0
        elif self.lines + s.count("\n", 0, room) > _MAX_LINES:
            cut = -1
            for _ in range(_MAX_LINES - self.lines):
                cut = s.index("\n", cut + 1)
            room = cut + 1
        if room > 0:
            kept = s[:room]
            self.parts.append(kept)
            self.size += len(kept)
            self.lines += kept.count("\n")
        if len(s) > room:
            self.truncated = True

    def writable(self) -> bool:
        return True

    def text(self) -> str:
        self.end_line()
        return "".join(self.parts)


def send(fd: int, message: dict) -> None:
    data = _dumps(message, allow_nan=True).encode("utf-8", "replace")
    frame = len(data).to_bytes(4, "big") + data
    while frame:
        frame = frame[_write(fd, frame):]


def receive(fd: int) -> dict | None:
    header = _read_exact(fd, 4)
    if header is None:
        return None
    body = _read_exact(fd, int.from_bytes(header, "big"))
    return None if body is None else _loads(body.decode("utf-8"))


def _read_exact(fd: int, n: int) -> bytes | None:
    chunks: list[bytes] = []
    got = 0
    while got < n:
        chunk = _read(fd, n - got)
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def type_name(obj: object) -> str:
    try:
        name = type.__getattribute__(type(obj), "__qualname__")
        return name if type(name) is str else "?"
    except BaseException:
        return "?"


def encode(value: object, depth: int = 0) -> dict:
    """Tagged plain data for VALUE. Exact types only: a subclass of int is an 'object'."""
    t = type(value)  # each test below repeats type(VALUE) so that the type checker narrows VALUE too
    if value is None:
        return {"t": "none"}
    if type(value) is bool:
        return {"t": "bool", "v": value}
    if type(value) is int:
        if abs(value).bit_length() > _MAX_INT_DIGITS * 3:
            return {"t": "object", "type": "int", "note": "big_int"}
        return {"t": "int", "v": value}
    if type(value) is float:
        return {"t": "float", "v": float.__repr__(value)}
    if type(value) is str:
        return {"t": "str", "v": value[:_MAX_TEXT], "cut": len(value) > _MAX_TEXT}
    if type(value) is tuple or type(value) is list:
        if depth > 20:
            return {"t": "object", "type": t.__name__, "note": "deep"}
        items = [encode(v, depth + 1) for v in value[:_MAX_ITEMS]]
        return {"t": t.__name__, "v": items, "cut": len(value) > _MAX_ITEMS}
    if callable(value):
        name = "?"
        if isinstance(value, types.FunctionType):  # exact: the function type has no subclasses
            name = value.__code__.co_name
        return {"t": "function", "name": name}
    return {"t": "object", "type": type_name(value)}


# Filled in from the probes file when the child starts (see main): one way to describe an error,
# shared with the probes that describe errors themselves (a game's commentary, for one).
describe_error: Callable[[BaseException, str], dict]


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


def import_submission(config: dict, out_fd: int) -> tuple[types.ModuleType, list[dict]]:
    """Run the submission's top-level statements one by one into a fresh module; report problems."""
    path, module_name = config["submission"], config["module"]
    skip = set(config.get("skip", []))
    with open(path, encoding="utf-8", errors="replace") as f:
        source = f.read()
    module = types.ModuleType(module_name)
    module.__file__ = path
    sys.modules[module_name] = module
    notes: list[dict] = []
    try:  # (ast.parse, without importing ast)
        tree = compile(source, path, "exec", _ast.PyCF_ONLY_AST, dont_inherit=True)
        statements: list = tree.body  # type: ignore[attr-defined]  # (a Module: typeshed says AST)
    except BaseException as exc:  # the parent parsed it already; say so rather than die unexplained
        return module, [{"line": 0, "error": describe_error(exc, path)}]
    features = 0  # the submission's own `from __future__ import ...`, for the statements after it
    for i, node in enumerate(statements):
        send(out_fd, {"op": "stmt", "i": i, "line": node.lineno})
        if i in skip:
            continue
        try:
            code = compile(_ast.Module(body=[node], type_ignores=[]), path, "exec", features, dont_inherit=True)
            exec(code, module.__dict__)
            features |= future_flags(node)
        except BaseException as exc:  # SystemExit and KeyboardInterrupt included: keep going
            info = describe_error(exc, path)
            notes.append({"line": node.lineno, "error": info})
    return module, notes


def future_flags(node: object) -> int:
    """The compiler flags a ``from __future__ import ...`` statement NODE turns on (0 for any other):
    each statement is compiled on its own, so the file's future imports are carried by hand, and
    never this file's own (``dont_inherit``)."""
    if type(node) is not _ast.ImportFrom or getattr(node, "module", None) != "__future__":
        return 0
    import __future__

    flags = 0
    for alias in getattr(node, "names", []):
        feature = getattr(__future__, alias.name, None)
        flags |= getattr(feature, "compiler_flag", 0)
    return flags


def keeper(names: dict) -> Callable[[], None]:
    """A function that puts NAMES (the probes' module) back as it is now: every name bound to the
    same object, and every function with its own code and defaults, whatever was changed in between."""
    kept = dict(names)
    functions = [(f, f.__code__, f.__defaults__, f.__kwdefaults__) for f in kept.values()
                 if type(f) is types.FunctionType]

    def restore() -> None:
        names.clear()
        names.update(kept)
        for f, code, defaults, kwdefaults in functions:
            f.__code__, f.__defaults__, f.__kwdefaults__ = code, defaults, kwdefaults

    return restore


def main() -> None:
    in_fd, out_fd = int(sys.argv[1]), int(sys.argv[2])
    config = receive(in_fd)
    if config is None:
        return
    with open(config["probes"], "rb") as f:  # compiled by the parent: a .pyc file's header, then the code
        probes_code = marshal.loads(f.read()[16:])
    serve(config, in_fd, out_fd, probes_code)


def serve(config: dict, in_fd: int, out_fd: int, probes_code: types.CodeType) -> None:
    """Everything after the settings are read, in a process started for this child (:func:`main`)
    or forked for it by the fork server (:mod:`graders.sandboxing.zygote`): limits, probes, identity,
    confinement and its verification, then the submission and its cases."""
    drop_capabilities(keep_identity=bool(config.get("identity")))
    apply_limits(config.get("limits", {}))
    # The probes (the kit's own code) load first, while the standard library they import is
    # still readable: the user the child drops to may not be able to read the interpreter's files.
    global describe_error
    spec_globals: dict = {"__name__": "hogkit_probes"}
    exec(probes_code, spec_globals)
    probes = {k: spec_globals[k] for k in spec_globals.get("__all__", [])}
    describe_error = spec_globals["describe_error"]
    spec_globals["DICE"] = tuple(config.get("dice") or spec_globals["DICE"])  # the edition's range of dice
    restore_probes = keeper(spec_globals)
    hidden = hide_folders(config["hide"], *config["interpreter"]) if config.get("hide") else False
    if config.get("identity"):
        drop_privileges(*config["identity"])
    drop_capabilities()
    caps = capabilities()  # (confinement changes none, and may close /proc)
    os.umask(0o077)  # what it makes is its user's alone (the filter then refuses every change of modes)
    applied, missing = confine(config.get("confine") or {})
    if config.get("verify"):
        send(out_fd, verify_reach(config["verify"], applied, missing, caps))
    os.chdir(config["workdir"])
    sys.path[:0] = [config["workdir"]]
    sys.argv = [config["submission"]]
    sys.dont_write_bytecode = True
    real_stdout = sys.stdout

    capture = CappedText()
    sys.stdout = capture
    module, notes = import_submission(config, out_fd)
    sys.stdout = real_stdout
    snapshot = dict(module.__dict__)
    send(out_fd, {"op": "ready", "notes": notes, "output": capture.text(), "hidden": hidden})

    path = config["submission"]
    while True:
        request = receive(in_fd)
        if request is None or request.get("op") == "quit":
            return
        # A case runs its steps in a fresh namespace (the module restored) and streams one reply per
        # step, then "done".
        module.__dict__.clear()
        module.__dict__.update(snapshot)
        sys.modules[config["module"]] = module
        restore_probes()  # as they were loaded: what the submission changed in them is undone
        namespace = {"__name__": "__case__", **probes}
        setup = request.get("setup", "")
        seq = request.get("seq")  # every reply names the request it answers
        for source in request.get("steps", []):
            send(out_fd, {**run_step(source, setup, namespace, path, real_stdout, probes), "seq": seq})
            setup = ""
        send(out_fd, {"op": "done", "seq": seq})


_SETUP: dict = {}  # a case's setup (the edition's import line, the same in every case) -> its code


def compiled(source: str, name: str, mode: str) -> types.CodeType | None:
    """SOURCE compiled as NAME in MODE; None for a SyntaxError in "eval" mode, which is not kept as
    an error to raise. Only a setup is kept (it comes back in every case); a step's source never
    is, so nothing of an earlier case is left in this process for the code of a later one to find."""
    if name == "<setup>" and source in _SETUP:
        return _SETUP[source]
    try:
        code: types.CodeType | None = compile(source, name, mode)
    except SyntaxError:
        if mode != "eval":
            raise
        code = None
    if name == "<setup>" and len(_SETUP) < 8:
        _SETUP[source] = code
    return code


def run_step(source: str, setup: str, namespace: dict, path: str, real_stdout: object, probes: dict) -> dict:
    """Run one statement (after SETUP, if any) and describe what it did as plain data. The probes
    are put back after SETUP, so a submission's own function of the same name cannot stand in."""
    capture = CappedText()
    sys.stdout = capture
    reply: dict = {"op": "step", "value": None, "error": None}
    try:
        if setup:
            exec(compiled(setup, "<setup>", "exec"), namespace)  # type: ignore[arg-type]  # (exec mode: a code)
            namespace.update(probes)
        code = compiled(source, "<case>", "eval")
        if code is not None:
            reply["value"] = encode(eval(code, namespace))
        else:
            exec(compiled(source + "\n", "<case>", "exec"), namespace)  # type: ignore[arg-type]
    except BaseException as exc:
        reply["error"] = describe_error(exc, path)
    finally:
        sys.stdout = real_stdout
    reply["output"] = capture.text()
    reply["truncated"] = capture.truncated
    return reply


if __name__ == "__main__":
    main()
