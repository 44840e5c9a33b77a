"""The fork server: one process per grader, inside bubblewrap, that forks each child in namespaces of its own.

Contract (a copy of this file, compiled by the parent, is started once per grader as ``python3 -I -S
-B zygote.pyc CTRL_FD`` under bubblewrap, with the machine's system folders read-only, the runner
folder (this file, the child and the probes, compiled) at /hogkit, nothing else of the kit, and four
capabilities: to build namespaces and mounts, to bound capabilities, and to change user):

* It loads the child's code (:mod:`graders.sandboxing.child`), the probes' code and the standard
  library they import, once. It never reads a submission, a reference or a setting: all it is ever
  given is, per child, the word ``fork`` and the two ends of that child's pipes (CTRL_FD is a
  SOCK_SEQPACKET socket). It answers ``ok`` with a pidfd of the new child, or ``error`` and why.
* Each child is forked into new pid, mount, network, IPC and host-name namespaces (and, for a grader
  that is not root, a user namespace of its own). It is the first process there (pid 1), in a
  session of its own; it closes every descriptor but its pipes, reads its settings from the
  parent, and builds the folders bubblewrap would build for it: a fresh /proc (with /proc/sys and the
  like read-only), /dev/pts, /tmp and /dev/shm, and /work holding the staged files read-only. Then it
  forks the process that runs the submission (:func:`graders.sandboxing.child.serve`, which drops
  every capability and confines itself before any student code, with the seccomp filter every route
  installs: no socket, no key store, no IPC, no memfd, no new namespace; nothing after it needs one,
  the server's control socket being closed in the child) and waits for it, itself with no capability
  left and not traceable. When it exits, the kernel kills everything in its namespace.
* The parent kills a child through its pidfd, never by a number that could be reused.

Python 3.9 and the standard library only (it ships with the student's runner).
"""

import base64
import ctypes
import gc
import marshal
import os
import signal
import socket
import sys
import types

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x1, 0x2, 0x4, 0x8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 0x20, 0x1000, 0x4000, 0x40000
PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER = 4, 36
WORK, TMP = "/work", ("/tmp", "/dev/shm")
PROC_READ_ONLY = ("sys", "sysrq-trigger", "irq", "bus")  # as bubblewrap leaves them
# Loaded here once, so that no child imports them again: what the child, the probes and the course's
# support files (ucb.py) import, beside what the child loads before it changes user (child.PRELOADED).
PRELOAD = ("json", "inspect", "traceback", "resource", "importlib", "code", "signal", "codeop", "__future__")

libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _mount(source, target: str, kind, flags: int, data=None) -> None:
    _check(libc.mount(source and source.encode(), target.encode(), kind and kind.encode(), flags,
                      data and data.encode()), f"mount {target}")


def _read_only(path: str) -> None:
    """PATH (a file or folder) bound onto itself, read-only from now on."""
    _mount(path, path, None, MS_BIND | MS_REC)
    _mount(None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def build_folders(config: dict) -> None:
    """The folders of this child's own mount namespace, as bubblewrap builds them for one child."""
    _mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing done here reaches the fork server's view
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)  # this pid namespace's processes only
    for name in PROC_READ_ONLY:
        if os.path.exists(f"/proc/{name}"):
            _read_only(f"/proc/{name}")
    _mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620")
    sizes = config["sizes"]
    for folder in TMP:
        _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, f"size={sizes['tmp']},mode=1777")
    _mount("tmpfs", WORK, "tmpfs", MS_NOSUID | MS_NODEV, f"size={sizes['work']},mode=1777")
    for name, data in config["files"].items():
        if "/" in name or name in ("", ".", ".."):
            raise OSError(f"file {name!r}")
        path = f"{WORK}/{name}"
        with open(path, "xb") as f:
            f.write(base64.b64decode(data))
        os.chmod(path, 0o644)
        _read_only(path)


def run_child(child: dict, probes: object, in_fd: int, out_fd: int, link: list) -> None:
    """The first process of a child's namespaces (see the contract); never returns. LINK: the ends of
    the pipes between a child and the kit's own child (see graders.sandboxing.child.Link), or none."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()  # a session of its own, as bubblewrap gives each child: the scheduler shares the
        # processor between sessions first, so a child that starts many busy processes slows only itself
        low = 3
        for fd in sorted((in_fd, out_fd, *link)):
            os.closerange(low, fd)
            low = fd + 1
        os.closerange(low, 1 << 20)
        config = child["receive"](in_fd)
        if config is None:
            os._exit(0)
        build_folders(config)
        del config["files"]
        config["link"] = list(link) if link else None  # (as numbered here)
        pid = os.fork()
        if pid == 0:
            try:
                _as_main(child)
                child["serve"](config, in_fd, out_fd, probes)
            finally:
                os._exit(0)
        for fd in (in_fd, out_fd, *link):
            os.close(fd)
        libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # not traceable, its memory not readable, by its own user
        child["drop_capabilities"]()
        code = _wait_for(pid)
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _as_main(child: dict) -> None:
    """Make the child's module (whose namespace CHILD is) this process's ``__main__``, as it is in a
    child started on its own."""
    module = sys.modules.pop("hogkit_child")
    assert module.__dict__ is child
    child["__name__"] = "__main__"
    sys.modules["__main__"] = module


def _wait_for(pid: int) -> int:
    """Reap every process left to this one (the first of its namespace) until PID ends; its exit code."""
    while True:
        try:
            done, status = os.wait()
        except ChildProcessError:
            return 1
        if done == pid:
            return os.waitstatus_to_exitcode(status) & 0xFF


def spawn(child: dict, probes: object, fds: list) -> int:
    """Fork a child into namespaces of its own; its pid (as seen here)."""
    read_end, write_end = os.pipe()
    first = os.fork()
    if first == 0:  # only forks again: the new pid namespace's first process must be a child of this one
        try:
            os.close(read_end)
            if os.getuid() != 0:
                own_user_namespace()
            _check(libc.unshare(CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS), "unshare")
            pid = os.fork()
            if pid == 0:
                os.close(write_end)
                run_child(child, probes, fds[0], fds[1], fds[2:])
            os.write(write_end, str(pid).encode("ascii"))
        finally:
            os._exit(0)
    os.close(write_end)
    try:
        said = b""
        while True:
            chunk = os.read(read_end, 32)
            if not chunk:
                break
            said += chunk
    finally:
        os.close(read_end)
    if not said.isdigit():
        raise OSError("namespaces")
    return int(said)


def own_user_namespace() -> None:
    """A user namespace of this child's own, mapping only its user and group, as bubblewrap gives each
    child of an ordinary user (root gives each child a user id of its own instead): its processes
    are counted apart from every other child's, and the namespaces made next belong to it."""
    uid, gid = os.getuid(), os.getgid()
    _check(libc.unshare(CLONE_NEWUSER), "unshare user")
    for name, text in (("setgroups", "deny"), ("gid_map", f"{gid} {gid} 1"), ("uid_map", f"{uid} {uid} 1")):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(text)


def load(path: str, name: str) -> dict:
    """The namespace of the module compiled at PATH, run as module NAME (kept in sys.modules)."""
    module = types.ModuleType(name)
    sys.modules[name] = module
    with open(path, "rb") as f:
        exec(marshal.loads(f.read()[16:]), module.__dict__)  # a .pyc file: a header, then the code
    return module.__dict__


def main() -> None:
    control = socket.socket(fileno=int(sys.argv[1]))
    runner = os.path.dirname(os.path.abspath(sys.argv[0]))
    child = load(os.path.join(runner, "child.pyc"), "hogkit_child")
    with open(os.path.join(runner, "probes.pyc"), "rb") as f:
        probes = marshal.loads(f.read()[16:])
    for name in (*PRELOAD, *child["PRELOADED"]):
        __import__(name)
    exec(probes, {"__name__": "hogkit_probes"})  # once, so that whatever the probes import is loaded
    gc.collect()
    gc.freeze()  # what is loaded now is never scanned again: a child's collections leave these pages shared
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # each child's first process is left to this one ...
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # ... which the kernel reaps at once
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, 16, 4)
        except OSError:
            return
        if not message:
            return  # the parent is gone
        try:
            if message != b"fork" or len(fds) not in (2, 4):
                raise OSError("request")
            pidfd = os.pidfd_open(spawn(child, probes, fds))
            try:
                socket.send_fds(control, [b"ok"], [pidfd])
            finally:
                os.close(pidfd)
        except OSError as exc:
            control.send(b"error " + str(exc).encode("utf-8", "replace")[:200])
        finally:
            for fd in fds:
                os.close(fd)


if __name__ == "__main__":
    main()
