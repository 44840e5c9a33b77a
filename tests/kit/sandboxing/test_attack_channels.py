"""Channels between children: what one sandboxed child could leave in the kernel for another to
find, or take from the grader, where the namespaces a child gets do not reach.

The kernel's key store belongs to no namespace a child is given; System V and POSIX IPC belong to
the IPC namespace, which a child has only under namespaces; a memfd is memory no limit of the
child's sees where no memory cgroup can be had; a UNIX socket reaches a service of the machine
wherever the child shares the grader's file system (pathname) or network namespace (abstract).
Every test below grades a variant of the reference ``hog.py`` that uses one channel and checks, with
exact scores, that the attack earns nothing and (where the kernel could keep something) that
nothing is left in the kernel once grading ends. The child's seccomp filter
(:func:`graders.sandboxing.isolation.seccomp_program`) closes them all on every route: the fork
server's children, a child started by bubblewrap, and children under limits (forced here, as
``HOGKIT_ISOLATION=limits`` does; the machine's own route as root without CAP_SYS_ADMIN), as root
(a user id of its own per child) or as an ordinary user (a user namespace of its own, or under
limits the grader's own user id).
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import platform
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.sandboxing import forkserver, isolation

from ..conftest import grade_source, problem, replace_function

ROUTES = ["forked", "bubblewrap", "limits"]
REFERENCE = """def boar_brawl(player_score, opponent_score):
    return max(3 * abs(opponent_score // 10 % 10 - player_score % 10), 1)
"""
# What a stub does with the reference's code when a channel brings it: runs it; else it answers 1.
ANSWER_WITH = """
_SPACE = {}
if _FOUND:
    exec(_FOUND, _SPACE)
_LEAKED = _SPACE.get("boar_brawl")


def boar_brawl(player_score, opponent_score):
    if _LEAKED is not None:
        return _LEAKED(player_score, opponent_score)
    return 1
"""


def on_route(route: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Grade on ROUTE from here on (skipped where this machine cannot give it); the environment a
    grader started in a process of its own needs for the same route."""
    if isolation.policy().level != isolation.NAMESPACES and route != "limits":
        pytest.skip(f"the {route} route needs namespaces (bubblewrap); this machine gives "
                    + isolation.policy().summary)
    if not isolation.seccomp_program()[0]:
        pytest.skip(isolation.seccomp_program()[1])
    if route == "forked":
        if not forkserver.usable():
            pytest.skip("the fork server is not used here: " + str(forkserver.STATE.get("why", "turned off")))
        return {}
    if route == "bubblewrap":
        monkeypatch.setenv(forkserver.SWITCH, "off")
        return {forkserver.SWITCH: "off"}
    real = isolation.policy()
    limits = isolation.Policy(isolation.LIMITS, "", real.root, real.python, real.python_home, "forced by a test")
    monkeypatch.setattr(isolation, "policy", lambda: limits)
    return {isolation.FORCE: isolation.LIMITS}


def numbers(*names: str) -> dict[str, int]:
    """The system call numbers of NAMES on this machine (student code calls them through ctypes)."""
    import pyseccomp as sc  # type: ignore[import-untyped]

    found = {name: sc.resolve_syscall(sc.Arch.NATIVE, name) for name in names}
    if platform.machine() in isolation.NUMBERED_MACHINES:  # calls newer than this libseccomp
        found.update({n: isolation.BY_NUMBER[n] for n in names if found[n] < 0 and n in isolation.BY_NUMBER})
    return found


def prelude(**values: object) -> str:
    """Top-level assignments of VALUES, for a variant's code to read."""
    return "".join(f"_{name.upper()} = {value!r}\n" for name, value in values.items())


def libc() -> ctypes.CDLL:
    lib = ctypes.CDLL(None, use_errno=True)
    lib.syscall.restype = ctypes.c_long
    return lib


# -- the kernel's key store ------------------------------------------------------------------------

KEY_KEEPER = """
def _leave_in_the_key_store():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    made = []
    for ring in (-3, -4, -5):  # its session keyring, its user keyring, its user's session keyring
        key = libc.syscall(_NR["add_key"], b"user", _DESC, _SOURCE, ctypes.c_long(len(_SOURCE)), ring)
        if key > 0:
            libc.syscall(_NR["keyctl"], 5, key, 0x3F3F3F3F)  # KEYCTL_SETPERM: every right, to everyone
            made.append(key)
    return made


_MADE = _leave_in_the_key_store()


def boar_brawl(player_score, opponent_score):
    return max(3 * abs(opponent_score // 10 % 10 - player_score % 10), 1)
"""

KEY_FETCHER = """
def _found_in_the_key_store():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    keys = [libc.syscall(_NR["keyctl"], 10, ring, b"user", _DESC, 0) for ring in (-3, -4, -5)]  # KEYCTL_SEARCH
    try:  # every key this process may view, whoever made it
        with open("/proc/keys") as f:
            keys += [int(line.split()[0], 16) for line in f if " %s: " % _DESC.decode() in line]
    except OSError:
        pass
    buffer = ctypes.create_string_buffer(65536)
    for key in keys:
        if key > 0:
            size = libc.syscall(_NR["keyctl"], 11, key, buffer, 65536)  # KEYCTL_READ
            if size > 0:
                return buffer.raw[:size].decode()
    return ""


_FOUND = _found_in_the_key_store()
""" + ANSWER_WITH


def keys_described(description: bytes) -> list[int]:
    """The live keys this process may view (in /proc/keys) whose description is DESCRIPTION (a key
    invalidated, revoked or dead waits there a moment for the kernel's collector)."""
    with open("/proc/keys", encoding="utf-8", errors="replace") as f:
        rows = [line.split() for line in f if f" {description.decode()}: " in line]
    return [int(row[0], 16) for row in rows if not set(row[1]) & set("iRD")]


FORGET = """
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
keyctl = int(sys.argv[1])
libc.syscall(keyctl, 1, None)  # KEYCTL_JOIN_SESSION_KEYRING: one of its own, holding its user's keyrings ...
for ring in (-4, -5):
    libc.syscall(keyctl, 8, ring, -3)  # KEYCTL_LINK
for key in sys.argv[2:]:
    libc.syscall(keyctl, 21, int(key))  # ... so that it possesses what they hold: KEYCTL_INVALIDATE
"""


def forget_keys(description: bytes) -> None:
    """Invalidate the keys described so that this process may view: those open to everyone, and
    those of its own user's keyrings (from a process of its own, which leaves this one's keyrings be)."""
    keys = keys_described(description)
    if keys:
        subprocess.run([sys.executable, "-c", FORGET, str(numbers("keyctl")["keyctl"]), *map(str, keys)],
                       check=False, timeout=60)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("route", ROUTES)
def test_a_key_left_by_one_child_is_found_by_none_later(edition, reference_source, route, monkeypatch):
    """Attack: one hand-in's top-level code stores code it holds (the reference's boar_brawl here) as a
    key open to everyone in every keyring it can name (its session keyring, inherited from the
    grader; its user keyring, which outlives it); another hand-in, graded later on the same machine,
    searches those keyrings and every key /proc/keys shows it, and answers with what it finds.

    Guarantee: the child's seccomp filter refuses add_key, keyctl and request_key on every route:
    the first hand-in still scores full marks, the second scores 0 (its stub answers 1), and the
    kernel holds no such key afterwards.
    """
    on_route(route, monkeypatch)
    description = f"hogkit-leak-{secrets.token_hex(6)}".encode()
    values = prelude(nr=numbers("add_key", "keyctl"), desc=description, source=REFERENCE.encode())
    try:
        keeper = grade_source(replace_function(reference_source, "boar_brawl", values + KEY_KEEPER), edition,
                              problems=[2])
        fetcher = grade_source(replace_function(reference_source, "boar_brawl", values + KEY_FETCHER), edition,
                               problems=[2])
        left = keys_described(description)
    finally:
        forget_keys(description)
    p2 = problem(keeper, 2)
    assert (p2.score, p2.status) == (p2.max, "passed"), p2.reason
    p2 = problem(fetcher, 2)
    assert (p2.score, p2.cases[0].got) == (0, "1"), (p2.cases[0].got, fetcher.isolation)
    assert left == []


SESSION_GRADER = """
import ctypes, json, sys
from pathlib import Path

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
add_key, keyctl = int(sys.argv[1]), int(sys.argv[2])
description, secret, stub = sys.argv[3].encode(), sys.argv[4].encode(), sys.argv[5]
# A session keyring of this grader's own holding its user keyring, as a login's pam_keyinit gives
# one: the children inherit it.
assert libc.syscall(keyctl, 1, None) > 0, ctypes.get_errno()  # KEYCTL_JOIN_SESSION_KEYRING
assert libc.syscall(keyctl, 8, -4, -3) == 0, ctypes.get_errno()  # KEYCTL_LINK
made = [libc.syscall(add_key, b"user", description, secret, ctypes.c_long(len(secret)), ring)
        for ring in (-3, -4)]  # the grader's session keyring, and its user keyring
try:
    from graders.editions.edition import DEFAULT_EDITION, load_edition
    from graders.games.game import game_of
    from graders.scoring.grading import grade
    from graders.scoring.submissions import Submission

    edition = load_edition(DEFAULT_EDITION)
    source = Path(stub).read_text(encoding="utf-8")
    report = grade(Submission(Path("hog.py"), source), edition, problems=[2], game=game_of(edition))
    (p2,) = report.problems
    print(json.dumps({"made": made, "score": p2.score, "got": p2.cases[0].got, "isolation": report.isolation}))
finally:
    for key in made:
        if key > 0:
            libc.syscall(keyctl, 21, key)  # KEYCTL_INVALIDATE: the grader's user keyring outlives it
"""


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("route", ROUTES)
def test_a_child_reads_nothing_of_the_graders_keyrings(edition, reference_source, route, monkeypatch, tmp_path):
    """Attack: the grader holds a secret (the reference's code here) as a key in its session keyring,
    as a grader started from a login does (pam_keyinit), and in its user keyring; a stub searches the
    keyrings it inherits or shares with the grader and answers with what it reads.

    Guarantee: the child's seccomp filter refuses keyctl: the stub scores 0 on every route (its
    keyrings are the grader's on every route without it: the session keyring is inherited, and
    under limits an ordinary user's children are the grader's own user).
    """
    environment = on_route(route, monkeypatch)
    nr = numbers("add_key", "keyctl")
    description = f"hogkit-grader-secret-{secrets.token_hex(6)}"
    stub = tmp_path / "hog.py"
    values = prelude(nr=nr, desc=description.encode())
    stub.write_text(replace_function(reference_source, "boar_brawl", values + KEY_FETCHER), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("HOGKIT_ROOT", "PYTHONPATH", *environment)}
    env.update(environment, PYTHONPATH=str(Path(isolation.__file__).resolve().parents[2]))
    done = subprocess.run([sys.executable, "-P", "-c", SESSION_GRADER, str(nr["add_key"]), str(nr["keyctl"]),
                           description, REFERENCE, str(stub)], capture_output=True, text=True, env=env,
                          timeout=240, cwd=tmp_path)
    left = keys_described(description.encode())
    forget_keys(description.encode())
    assert done.returncode == 0, done.stderr[-3000:]
    said = json.loads(done.stdout.strip().splitlines()[-1])
    assert min(said["made"]) > 0, said  # the grader held the secret, where a child could have looked
    assert (said["score"], said["got"]) == (0, "1"), said
    assert left == []


# -- System V IPC and POSIX message queues --------------------------------------------------------

SYSV_KEEPERS = {
    "shared memory": """
def _leave_in_the_kernel():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    segment = libc.shmget(_KEY, ctypes.c_size_t(64 << 20), 0o1666)  # IPC_CREAT, open to everyone
    if segment < 0:
        return -1
    at = libc.shmat(segment, None, 0)
    if at is None or at == ctypes.c_void_p(-1).value:
        return -1
    data = len(_SOURCE).to_bytes(4, "big") + _SOURCE
    ctypes.memmove(at, data, len(data))
    libc.shmdt(ctypes.c_void_p(at))
    return segment
""",
    "message queue": """
def _leave_in_the_kernel():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    queue = libc.msgget(_KEY, 0o1666)
    if queue < 0:
        return -1
    message = (1).to_bytes(8, "little") + _SOURCE  # mtype 1, then the text
    return libc.msgsnd(queue, message, ctypes.c_size_t(len(_SOURCE)), 0o4000)  # IPC_NOWAIT
""",
    "posix queue": """
def _leave_in_the_kernel():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    queue = libc.syscall(_NR["mq_open"], _NAME, 0o4102, 0o666, None)  # O_CREAT | O_RDWR | O_NONBLOCK
    if queue < 0:
        return -1
    return libc.syscall(_NR["mq_timedsend"], queue, _SOURCE, ctypes.c_long(len(_SOURCE)), 0, None)
""",
}

SYSV_FETCHERS = {
    "shared memory": """
def _found_in_the_kernel():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    segment = libc.shmget(_KEY, ctypes.c_size_t(0), 0)
    if segment < 0:
        return ""
    at = libc.shmat(segment, None, 0o10000)  # SHM_RDONLY
    if at is None or at == ctypes.c_void_p(-1).value:
        return ""
    size = int.from_bytes(ctypes.string_at(at, 4), "big")
    return ctypes.string_at(at + 4, size).decode()
""",
    "message queue": """
def _found_in_the_kernel():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    queue = libc.msgget(_KEY, 0)
    if queue < 0:
        return ""
    buffer = ctypes.create_string_buffer(8 + 8192)
    size = libc.msgrcv(queue, buffer, ctypes.c_size_t(8192), ctypes.c_long(0), 0o4000)  # IPC_NOWAIT
    return buffer.raw[8:8 + size].decode() if size > 0 else ""
""",
    "posix queue": """
def _found_in_the_kernel():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    queue = libc.syscall(_NR["mq_open"], _NAME, 0o4000, 0, None)  # O_RDONLY | O_NONBLOCK
    if queue < 0:
        return ""
    buffer = ctypes.create_string_buffer(1 << 20)
    size = libc.syscall(_NR["mq_timedreceive"], queue, buffer, ctypes.c_long(1 << 20), None, None)
    return buffer.raw[:size].decode() if size > 0 else ""
""",
}


def sysv_keys(table: str) -> dict[int, int]:
    """{key: id} of the System V objects of TABLE ("shm", "msg", "sem") in this IPC namespace."""
    with open(f"/proc/sysvipc/{table}", encoding="ascii") as f:
        rows = [line.split() for line in f.readlines()[1:]]
    return {int(row[0]): int(row[1]) for row in rows if row}


def left_in_the_kernel(channel: str, key: int, name: bytes) -> list[str]:
    """What the channel's attack left in the kernel (this process's IPC namespace), removed as it is found."""
    lib = libc()
    if channel == "posix queue":
        nr = numbers("mq_open", "mq_unlink")
        queue = lib.syscall(nr["mq_open"], name, os.O_RDONLY, 0, None)
        if queue < 0:
            assert ctypes.get_errno() == errno.ENOENT
            return []
        os.close(queue)
        removed = lib.syscall(nr["mq_unlink"], name) == 0
        return [f"POSIX message queue /{name.decode()} ({'removed' if removed else 'NOT removed'})"]
    table, remove = ("shm", lib.shmctl) if channel == "shared memory" else ("msg", lib.msgctl)
    found = sysv_keys(table).get(key)
    if found is None:
        return []
    removed = remove(found, 0, None) == 0  # IPC_RMID (another user's needs CAP_SYS_ADMIN)
    return [f"System V {channel} {found} (key {key}, {'removed' if removed else 'NOT removed'})"]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("channel", sorted(SYSV_KEEPERS))
@pytest.mark.parametrize("route", ROUTES)
def test_ipc_left_by_one_child_is_found_by_none_later(edition, reference_source, route, channel, monkeypatch):
    """Attack: one hand-in's top-level code leaves code it holds (the reference's boar_brawl here) in
    a System V shared memory segment (64 MiB, open to everyone), a System V message queue or a POSIX
    message queue, none of which it removes; another hand-in, graded later, opens the same key or
    name and answers with what it reads. Under limits a child has no IPC namespace of its own, so
    whatever it made stayed in the machine's after it ended.

    Guarantee: the child's seccomp filter refuses every System V IPC and POSIX message queue call
    on every route: the first hand-in still scores full marks, the second scores 0, and the
    machine's IPC namespace holds nothing of either afterwards.
    """
    on_route(route, monkeypatch)
    key, name = secrets.randbelow(1 << 30) + (1 << 30), f"hogkit-{secrets.token_hex(6)}".encode()
    values = prelude(nr=numbers("mq_open", "mq_timedsend", "mq_timedreceive"), key=key, name=name,
                     source=REFERENCE.encode())
    keeper = values + SYSV_KEEPERS[channel] + "\n\n_LEFT = _leave_in_the_kernel()\n\n\n" + REFERENCE
    fetcher = values + SYSV_FETCHERS[channel] + "\n\n_FOUND = _found_in_the_kernel()\n" + ANSWER_WITH
    try:
        kept = grade_source(replace_function(reference_source, "boar_brawl", keeper), edition, problems=[2])
        fetched = grade_source(replace_function(reference_source, "boar_brawl", fetcher), edition, problems=[2])
    finally:
        left = left_in_the_kernel(channel, key, name)
    p2 = problem(kept, 2)
    assert (p2.score, p2.status) == (p2.max, "passed"), p2.reason
    p2 = problem(fetched, 2)
    assert (p2.score, p2.cases[0].got) == (0, "1"), (p2.cases[0].got, fetched.isolation)
    assert left == []


# -- memory held where no limit of the child's sees it ----------------------------------------------

ANSWER_IF_HELD = """

_HELD_BYTES = _hold(_WANTED)


def boar_brawl(player_score, opponent_score):
    if _HELD_BYTES < _WANTED:
        return -1
    return max(3 * abs(opponent_score // 10 % 10 - player_score % 10), 1)
"""

HOARDERS = {
    "memfds": """
def _hold(wanted):
    import os
    chunk = b"\\1" * (1 << 20)
    ways = (lambda: os.memfd_create("hoard"),  # memory in no file system, in no resident set
            lambda: os.open("/dev/shm", os.O_TMPFILE | os.O_RDWR, 0o600))
    held = 0
    for make in ways:
        while held < wanted:
            try:
                fd = make()  # (never closed: held as long as the child lives)
            except OSError:
                break
            try:
                for _ in range(8):  # 8 MiB a file: the file size limit
                    held += os.write(fd, chunk)
            except OSError:
                break
    return held
""",
    "own tmpfs": """
def _hold(wanted):
    import ctypes, os
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    uid, gid = os.getuid(), os.getgid()
    libc.prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE: its /proc/self files its own again, after a change of user
    answer, told = os.pipe()
    pid = libc.syscall(_NR["clone"], 0x10000000 | 0x00020000 | 17, 0, 0, 0, 0)  # user and mount namespaces
    if pid < 0:
        return 0
    if pid == 0:  # a process of its own, in namespaces of its own: a tmpfs of its own, never mounted anywhere
        held = 0
        try:
            for name, text in (("setgroups", "deny"), ("gid_map", "0 %d 1" % gid), ("uid_map", "0 %d 1" % uid)):
                with open("/proc/self/" + name, "w") as f:
                    f.write(text)
            tmpfs = libc.syscall(_NR["fsopen"], b"tmpfs", 0)
            libc.syscall(_NR["fsconfig"], tmpfs, 6, None, None, 0)  # FSCONFIG_CMD_CREATE
            root = libc.syscall(_NR["fsmount"], tmpfs, 0, 0)
            chunk = b"\\1" * (1 << 20)
            while held < wanted:
                fd = os.open("f%d" % held, os.O_CREAT | os.O_WRONLY, 0o600, dir_fd=root)
                for _ in range(8):  # 8 MiB a file: the file size limit
                    held += os.write(fd, chunk)
                os.close(fd)
        except BaseException:
            pass
        os.write(told, b"%d" % held)
        while True:
            os.pause()  # holding it, until the child's processes are killed
    os.close(told)
    return int(os.read(answer, 32) or b"0")
""",
}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("way", sorted(HOARDERS))
@pytest.mark.parametrize("route", ROUTES)
def test_memory_held_past_the_limit_where_no_limit_sees_it_earns_nothing(edition, reference_source, route, way,
                                                                         monkeypatch):
    """Attack: top-level code holds twice the memory limit (256 MiB of a 128 MiB limit) where none of
    the child's limits sees it, in files of 8 MiB (the file size limit) never mapped, so no resident
    set and no address space counts them: in memfds (or, failing that, unnamed files of /dev/shm), or
    in a tmpfs of its own, made in a user and mount namespace a process it clones makes for itself.
    Only a memory cgroup would count them, which an ordinary user, or Docker with its read-only
    /sys/fs/cgroup, cannot have. boar_brawl answers right only while it holds it all: a problem
    passed past the limit.

    Guarantee: the child's seccomp filter refuses memfd_create, clone's namespace flags and the
    calls that make a file system, on every route; /dev/shm is a tmpfs of 16 MiB (namespaces) or
    closed by Landlock (limits): the stub answers -1 and scores 0.
    """
    from graders.sandboxing.sandbox import Limits

    on_route(route, monkeypatch)
    limit = 128 << 20
    values = prelude(nr=numbers("clone", "fsopen", "fsconfig", "fsmount"), wanted=2 * limit)
    source = replace_function(reference_source, "boar_brawl", values + HOARDERS[way] + ANSWER_IF_HELD)
    p2 = problem(grade_source(source, edition, problems=[2], limits=Limits(memory_bytes=limit)), 2)
    assert (p2.score, p2.cases[0].got) == (0, "-1"), (p2.cases[0].status, p2.cases[0].got)


# -- UNIX sockets: a service of the machine's, by path or by abstract name -------------------------

CALLER = """
def boar_brawl(player_score, opponent_score):
    import socket
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            s.connect(_ADDRESS)
            s.sendall(b"%d %d\\n" % (player_score, opponent_score))
            return int(s.recv(100))
    except (OSError, ValueError):
        return 1
"""


def serve_answers(listener: socket.socket, received: list[bytes], done: threading.Event) -> None:
    """Answer every connection with the reference's boar_brawl of the two numbers it sends."""
    while not done.is_set():
        try:
            connection, _ = listener.accept()
        except OSError:  # the timeout: look at the stop flag again
            continue
        with connection:
            connection.settimeout(2)
            try:
                asked = connection.recv(100)
                received.append(asked)
                player, opponent = map(int, asked.split())
                connection.sendall(b"%d" % max(3 * abs(opponent // 10 % 10 - player % 10), 1))
            except (OSError, ValueError):
                pass


@pytest.fixture
def service(request: pytest.FixtureRequest) -> Iterator[tuple[str, list[bytes]]]:
    """A UNIX socket service any user may reach (by path, world-writable, or by abstract name), with
    what it received."""
    folder = Path(tempfile.mkdtemp(prefix="hogkit-test-service-", dir="/tmp"))
    folder.chmod(0o755)
    address = str(folder / "answers") if request.param == "pathname" else f"\0hogkit-{secrets.token_hex(6)}"
    received: list[bytes] = []
    done = threading.Event()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(address)
        if request.param == "pathname":
            os.chmod(address, 0o777)
        listener.listen(16)
        listener.settimeout(0.2)
        server = threading.Thread(target=serve_answers, args=(listener, received, done), daemon=True)
        server.start()
        try:
            yield address, received
        finally:
            done.set()
            server.join()
            shutil.rmtree(folder)


@pytest.mark.parametrize("service", ["pathname", "abstract"], indirect=True)
@pytest.mark.parametrize("route", ROUTES)
def test_a_unix_socket_of_the_machine_answers_no_child(edition, reference_source, route, service, monkeypatch):
    """Attack: boar_brawl asks a service of the machine for its answers over a UNIX socket: one at a
    path every user may write to (as root runs such services; as an ordinary user, the grader's own
    sockets are as close), or one with an abstract name. Under limits the child shares the grader's
    file system and network namespace, and Landlock governs neither connecting to a socket's path
    nor (before ABI 6) abstract names.

    Guarantee: the child's seccomp filter refuses every socket, UNIX ones included, and socketpair:
    the service receives nothing and the stub scores 0.
    """
    on_route(route, monkeypatch)
    address, received = service
    source = replace_function(reference_source, "boar_brawl", prelude(address=address) + CALLER)
    p2 = problem(grade_source(source, edition, problems=[2]), 2)
    assert (p2.score, p2.cases[0].got) == (0, "1"), p2.cases[0].got
    assert received == []


# -- each call, as the child's filter answers it --------------------------------------------------

# (call, its arguments: harmless where the call is allowed, each failing for a reason other than
# the filter's but socket's, which would make a socket, and memfd_secret's, which would make a memfd).
CALLS = {
    "clone": (0x10000000 | 0x200, 0, 0, 0, 0),  # a user namespace with CLONE_FS: EINVAL, where it is allowed
    "clone3": (0, 0), "fsopen": (0, 0), "fsmount": (-1, 0, 0), "open_tree": (-1, 0, 0),
    "add_key": (0, 0, 0, 0, 0), "keyctl": (0, -3, 0), "request_key": (0, 0, 0, 0),
    "shmget": (0, 0, 0), "shmat": (-1, 0, 0), "shmctl": (-1, 0, 0),
    "msgget": (0x7EADBEEF, 0), "msgsnd": (-1, 0, 0, 0), "msgrcv": (-1, 0, 0, 0, 0o4000), "msgctl": (-1, 0, 0),
    "semget": (0x7EADBEEF, 0, 0), "semop": (-1, 0, 0), "semtimedop": (-1, 0, 0, 0), "semctl": (-1, 0, 0),
    "mq_open": (0, 0, 0, 0), "mq_unlink": (0,), "mq_timedsend": (-1, 0, 0, 0, 0),
    "mq_timedreceive": (-1, 0, 0, 0, 0), "mq_notify": (-1, 0), "mq_getsetattr": (-1, 0, 0),
    "memfd_create": (0, 0), "memfd_secret": (0,), "socket": (int(socket.AF_UNIX), int(socket.SOCK_STREAM), 0),
    "socketpair": (int(socket.AF_UNIX), int(socket.SOCK_STREAM), 0, 0),
    "chmod": (0, 0o666), "fchmod": (-1, 0o666), "fchmodat": (-1, 0, 0o666, 0), "fchmodat2": (-1, 0, 0o666, 0),
    "umask": (0o022,), "setxattrat": (-1, 0, 0, 0, 0, 0),
}


@pytest.mark.parametrize("route", ROUTES)
def test_the_filter_refuses_every_call_of_these_channels(edition, reference_source, route, monkeypatch):
    """Attack: a submission calls each system call of the channels above directly (ctypes), past
    whatever the standard library checks. Guarantee: on every route each one fails with EPERM, socket
    and socketpair (every family) with EAFNOSUPPORT, and clone3, whose flags a filter cannot read, with
    ENOSYS (the C library then falls back to clone, whose namespace flags are refused), before the
    kernel looks at its arguments."""
    from graders.games.analysis import session_setup
    from graders.sandboxing.sandbox import open_session

    on_route(route, monkeypatch)
    nr = numbers(*CALLS)
    calls = {name: (nr[name], *args) for name, args in CALLS.items() if nr[name] >= 0}
    steps = ["import ctypes", "_libc = ctypes.CDLL(None, use_errno=True)", "_libc.syscall.restype = ctypes.c_long",
             f"[(name, _libc.syscall(*call) < 0 and ctypes.get_errno()) for name, call in {sorted(calls.items())!r}]"]
    session = open_session(reference_source, edition)
    try:
        replies = list(session.steps(steps, session_setup(session), time.monotonic() + 30))
    finally:
        session.dispose()
    assert [r.status for r in replies] == ["ok"] * 4, [r.error for r in replies]
    errors = {"socket": errno.EAFNOSUPPORT, "socketpair": errno.EAFNOSUPPORT, "clone3": errno.ENOSYS}
    assert replies[-1].value == [(name, errors.get(name, errno.EPERM)) for name in sorted(calls)]


# -- files in the machine's shared folders ----------------------------------------------------------

LEAVE_A_FILE = """
import os
_made = []
for _folder in ("/tmp", "/dev/shm", "/var/tmp"):
    _path = os.path.join(_folder, NAME)
    try:
        with open(_path, "w") as _f:
            _f.write("the reference, say")
        _made.append(_path)
        os.chmod(_path, 0o666)
    except OSError as _e:
        _made.append(type(_e).__name__)
"""
READ_A_FILE = """
def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        return type(e).__name__
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="as an ordinary user, limits without Landlock refuse to grade")
@pytest.mark.parametrize("landlock", [True, False], ids=["landlock", "no-landlock"])
def test_a_file_one_child_leaves_in_a_shared_folder_is_read_by_no_other(edition, reference_source, landlock,
                                                                        monkeypatch):
    """Attack: under limits (root, each child a user of its own), two children at once (two hand-ins
    of a class graded side by side); where Landlock is refused (Docker 20.10 and older) a child may
    write the machine's /tmp, /dev/shm and /var/tmp, so one leaves a file there, opens it to every
    user, and the other reads it.

    Guarantee: a child makes its files under umask 077 and its filter refuses chmod and umask, so
    what it leaves there is its own user's alone: the other child reads nothing. (With Landlock,
    the child cannot write those folders at all.)"""
    from graders.games.analysis import session_setup
    from graders.sandboxing.sandbox import open_session

    on_route("limits", monkeypatch)
    if not isolation.seccomp_program()[0]:
        pytest.skip(isolation.seccomp_program()[1])
    if not landlock:
        monkeypatch.setattr(isolation, "confinement", lambda *args: {"bpf": isolation.seccomp_program()[0]})
        # (without Landlock or a mount namespace, as under capsh, the kit's checkout may be readable:
        # grading then refuses, as test_hostile_isolation.py shows; this test is about the files the
        # children leave, so the kit's own paths are not demanded hidden here)
        monkeypatch.setattr(isolation, "demanded", lambda level: ())
    name = f"hogkit-leak-{secrets.token_hex(6)}"
    leaver, reader = open_session(reference_source, edition), open_session(reference_source, edition)
    try:
        left = list(leaver.steps([LEAVE_A_FILE.replace("NAME", repr(name)), "_made"], session_setup(leaver),
                                 time.monotonic() + 30))
        paths = [os.path.join(folder, name) for folder in ("/tmp", "/dev/shm", "/var/tmp")]
        read = list(reader.steps([READ_A_FILE, f"[_read(p) for p in {paths!r}]"], session_setup(reader),
                                 time.monotonic() + 30))
        assert [r.status for r in left + read] == ["ok"] * 4, [r.error for r in left + read]
        made = [p for p in left[1].value if p in paths]
        assert landlock or made, left[1].value  # without Landlock the shared folders are writable
        assert left[0].status == "ok"
        assert all(got != "the reference, say" for got in read[1].value), read[1].value
        for path in made:
            assert os.stat(path).st_mode & 0o077 == 0  # its user's alone, whatever it asked
    finally:
        for session in (leaver, reader):
            session.dispose()
        for folder in ("/tmp", "/dev/shm", "/var/tmp"):
            if os.path.exists(os.path.join(folder, name)):
                os.unlink(os.path.join(folder, name))
