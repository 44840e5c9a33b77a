"""Attacks where courses run: no namespaces, a non-editable install, an open network.

Gradescope runs the autograder as root without CAP_SYS_ADMIN (Docker's default), where bubblewrap
cannot start and no mount namespace can be had; ``pip install .`` puts the package in site-packages
while tests/ and solution/ stay in the checkout; a container's seccomp profile may refuse Landlock.
What a report says is what a child verified (graders.sandboxing.guard); where a child could read the
kit, nothing is graded. Each test forces the isolation level it needs (or is skipped where the
machine cannot give it) and checks what a stub could reach, what the isolation line says of it, and
that kernel memory no limit sees is refused or bounded.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from graders.editions.edition import Edition
from graders.sandboxing import isolation
from graders.sandboxing import messages as sandboxing_messages

from ..conftest import REFERENCE_RUNNER, WITHOUT_LANDLOCK, grade_source, problem, replace_function
from ..hostile import forced_limits, needs_namespaces


def _searchable_by_all(folder: Path) -> bool:
    """Whether every user may pass through FOLDER and each folder above it (o+x all the way up)."""
    try:
        return all(os.stat(p).st_mode & 0o001 for p in (folder, *folder.parents))
    except OSError:
        return False


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A new folder of mode 0755 that every user can reach (every folder above it searchable by all),
    removed afterwards: what a test of "a child could read this" needs, made by the test wherever
    the checkout is (a clone under a home folder of mode 0700 or in a ``mktemp -d`` folder hides
    the checkout itself from every child). Skipped where no such folder can be made."""
    import tempfile

    bases = [Path(tempfile.gettempdir()), Path("/tmp"), Path("/var/tmp"), Path("/dev/shm")]
    base = next((b.resolve() for b in bases if b.is_dir() and _searchable_by_all(b.resolve())), None)
    if base is None:
        pytest.skip("no temporary folder on this machine is searchable by every user")
    folder = Path(tempfile.mkdtemp(prefix="hogkit-test-shared-", dir=base))
    try:
        folder.chmod(0o755)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def readable_copy(source: Path, target: Path) -> None:
    """Copy SOURCE to TARGET, TARGET and the folders made for it readable by every user (whatever the umask)."""
    made = [p for p in reversed(target.parents) if not p.exists()]
    target.parent.mkdir(parents=True, exist_ok=True)
    for folder in made:
        folder.chmod(0o755)
    shutil.copyfile(source, target)
    target.chmod(0o644)


def reference_candidates(edition: Edition, *packages: Path) -> list[str]:
    """Where an attacker looks for the reference: the kit's root, beside every copy of the package."""
    found = [edition.solution_dir / edition.submission, Path.cwd() / "solution" / edition.name / edition.submission]
    found += [p.parent / "solution" / edition.name / edition.submission for p in packages]
    return [str(p) for p in found]


def grade_in_a_process(stub: Path, cwd: Path, site: Path | None = None, drop_admin: bool = False,
                       env: dict | None = None) -> tuple[int, str, str]:
    """`hogkit grade --json -q 2 STUB` run in a process of its own, from CWD; with SITE, the package
    imported from there (as `pip install .` leaves it); with DROP_ADMIN, without CAP_SYS_ADMIN."""
    import subprocess
    import sys

    argv = [sys.executable, "-P", "-m", "graders.cli", "grade", "--json", "-q", "2", str(stub)]
    environment = {k: v for k, v in os.environ.items() if k not in ("HOGKIT_ROOT", "PYTHONPATH")}
    environment.update(env or {})
    # The package this test imported, or the copy SITE holds (-P: the working folder is not on the path).
    environment["PYTHONPATH"] = str(site if site is not None else Path(isolation.__file__).resolve().parents[2])
    if drop_admin:
        argv = ["capsh", "--drop=cap_sys_admin", "--", "-c", 'exec "$@"', "capsh", *argv]
    done = subprocess.run(argv, cwd=cwd, env=environment, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


# -- 1. the kit's reference within a child's reach -------------------------------------------------

ROUTES = ["limits", "no_cap_sys_admin", "pip_install", "pip_install_no_cap_sys_admin"]


@pytest.mark.timeout(600)
@pytest.mark.parametrize("route", ROUTES)
def test_a_stub_that_runs_the_kits_reference_earns_nothing(edition, reference_source, route, tmp_path):
    """Attack: boar_brawl finds the kit's reference hog.py (in the kit's root, beside the package,
    beside a non-editable install in site-packages) and answers with it, as a stub `play` would.

    Guarantee: under limits (forced), as root without CAP_SYS_ADMIN (Gradescope's Docker default:
    no bubblewrap, no mount namespace) and with `pip install .`, the stub scores 0 on Problem 02, or
    grading is refused (exit status 3, naming what was readable): never a point from the reference.
    Before the child verified what it could reach, the last three routes gave it full marks.
    """
    import shutil

    if "no_cap_sys_admin" in route and (os.geteuid() != 0 or not shutil.which("capsh")):
        pytest.skip("needs root and capsh to drop CAP_SYS_ADMIN")
    site = None
    if route.startswith("pip_install"):
        site = tmp_path / "site-packages"
        shutil.copytree(Path(isolation.__file__).parents[1], site / "graders",
                        ignore=shutil.ignore_patterns("__pycache__"))
    stub = tmp_path / "stub"
    stub.mkdir()
    code = REFERENCE_RUNNER.format(candidates=reference_candidates(edition, *([site / "graders"] if site else [])))
    (stub / "hog.py").write_text(replace_function(reference_source, "boar_brawl", code), encoding="utf-8")
    env = {"HOGKIT_ISOLATION": "limits"} if route == "limits" else {}
    status, out, err = grade_in_a_process(stub, edition.root, site, "no_cap_sys_admin" in route, env)
    if status == 3:
        assert "nothing was graded" in err and "could read the kit's secrets" in err, err
        return
    assert status == 0, err
    report = json.loads(out)
    (p2,) = report["problems"]
    assert (p2["score"], p2["cases"][0]["got"]) == (0, "1"), report["isolation"]
    assert "verified by the child" in report["isolation"] and "kit hidden" in report["isolation"]


def test_grading_is_refused_where_a_child_could_read_the_kit(edition, reference_source, monkeypatch,
                                                            shared_folder):
    """Attack: any stub, graded where nothing hides the kit from its child (no namespaces, no Landlock,
    a copy of the reference every user may read, as on an old kernel or as an ordinary user without
    bubblewrap). The test makes that copy itself, so it holds wherever the checkout is (one in a
    folder of mode 0700 is hidden from every child by its modes alone).

    Guarantee: nothing is graded: the kit's failure (IsolationRefused, exit status 3), naming what the
    child could read; never a score computed with the reference open to student code.
    """
    from graders.core.errors import IsolationRefused
    from graders.sandboxing import guard

    forced_limits(monkeypatch, confined=False)
    monkeypatch.setattr(guard, "_KEPT", {})  # no verification of an earlier test answers for this one
    monkeypatch.setattr(isolation, "_DEMANDED", {})
    secret = shared_folder / "solution"
    readable_copy(edition.solution_dir / edition.submission, secret / edition.name / edition.submission)
    monkeypatch.setattr(guard, "secret_paths", lambda editions, extra=(): (str(secret),))
    from graders.sandboxing import sandbox

    monkeypatch.setattr(sandbox, "KIT", Path("/nonexistent-kit"))  # nothing covered, as without a mount namespace
    with pytest.raises(IsolationRefused) as caught:
        grade_source(reference_source, edition, problems=[1])
    assert str(secret) in str(caught.value) and "nothing was graded" in str(caught.value)


def test_a_child_that_reaches_a_verified_secret_is_never_graded(edition, reference_source, monkeypatch,
                                                               shared_folder):
    """Attack: after the verification found the kit hidden, one child can read a secret anyway (a
    folder opened to it later, a mount that went away). Guarantee: every child checks the verified
    secrets before its student's code runs; that one is the sandbox failing (SandboxError, the kit's
    failure, retried and then a kit error), never a grade."""
    from graders.core.errors import SandboxError
    from graders.sandboxing.sandbox import open_session

    readable = shared_folder / "secret"
    readable_copy(edition.solution_dir / edition.submission, readable / "hog.py")
    policy = forced_limits(monkeypatch, confined=False)
    monkeypatch.setattr(isolation, "_DEMANDED", {policy: (str(readable),)})
    with pytest.raises(SandboxError) as caught:
        open_session(reference_source, edition).dispose()
    assert str(readable) in str(caught.value)


# -- 2. what the isolation line says a child could do ----------------------------------------------

TELLER = """
def boar_brawl(player_score, opponent_score):
    import os, socket
    try:  # open, not os.access: access() asks only the file's modes, never Landlock
        open({reference!r}, "rb").close()
        seen = ["read=1"]
    except OSError:
        seen = ["read=0"]
    try:  # no getaddrinfo: it imports encodings.idna, which a child with a user id of its own may not reach
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            s.connect(("127.0.0.1", {port}))
            s.sendall(b"%d %d\\n" % (player_score, opponent_score))
        seen.append("net=1")
    except OSError:
        seen.append("net=0")
    seen.append("uid=%d" % os.getuid())
    return " ".join(seen)
"""


MODES = ["namespaces", "limits", "limits_unconfined"]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("mode", [pytest.param(m, marks=pytest.mark.slow) if m == "limits_unconfined" else m
                                  for m in MODES])
def test_the_isolation_line_says_what_a_child_could_do(edition, reference_source, mode, monkeypatch):
    """Attack: boar_brawl sends its arguments (hidden cases included) to a listener on 127.0.0.1 (on
    a cloud machine the metadata service is as close) and reports whether it could read the reference.

    Guarantee: in every mode the report's isolation line states what the child could actually do:
    "network off" and nothing delivered, or "network OPEN" and the arguments delivered; "kit hidden"
    and the reference unreadable; "own identity yes" and a user id other than the grader's (or a
    user namespace of its own). Before, the line under limits never mentioned the network.
    """
    import socket

    from graders.core.errors import IsolationRefused

    if mode == "namespaces":
        needs_namespaces()
    elif mode == "limits_unconfined" and os.geteuid() != 0:
        pytest.skip("without root and without Landlock the kit is readable: grading is refused (tested below)")
    if mode != "namespaces":
        forced_limits(monkeypatch, confined=mode == "limits")
    received: list[bytes] = []
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        listener.settimeout(0.2)
        done = threading.Event()

        def serve() -> None:  # every connection taken at once: where the network is open, no case waits
            while not done.is_set():
                try:
                    connection, _ = listener.accept()
                except OSError:  # timeout: look at the stop flag again
                    continue
                with connection:
                    connection.settimeout(2)
                    try:
                        received.append(connection.recv(1000))
                    except OSError:
                        pass

        server = threading.Thread(target=serve, daemon=True)
        server.start()
        code = TELLER.format(reference=str(edition.solution_dir / edition.submission),
                             port=listener.getsockname()[1])
        try:
            report = grade_source(replace_function(reference_source, "boar_brawl", code), edition, problems=[2])
        except IsolationRefused as exc:  # no mount namespace and no Landlock (root without CAP_SYS_ADMIN)
            assert mode == "limits_unconfined" and "kit READABLE" in str(exc), exc
            return
        finally:
            done.set()
            server.join()
        delivered = b"".join(received)
    got = problem(report, 2).cases[0].got
    line = report.isolation
    assert "verified by the child" in line, line
    assert ("read=1" in got) == ("kit READABLE" in line) and "read=0" in got, (got, line)
    assert ("net=1" in got) == bool(delivered) == ("network OPEN" in line), (got, delivered, line)
    assert ("own identity yes" in line) == (f"uid={os.getuid()}" not in got or mode == "namespaces"), (got, line)
    if mode != "limits_unconfined":
        assert "network off" in line and not delivered, (line, delivered)


REFUSE_LANDLOCK = WITHOUT_LANDLOCK + """
import json, sys
from graders.sandboxing import guard
print(json.dumps(guard.verify(tuple(sys.argv[1:])).summary))
"""


@pytest.mark.timeout(300)
def test_landlock_refused_by_a_containers_seccomp_profile_is_said_so(edition, tmp_path):
    """The Docker corner: a grader started under a seccomp profile that answers ENOSYS to Landlock's
    calls (Docker's default in older releases), on a kernel that has Landlock, under limits.

    Guarantee: the verified line says Landlock was refused by the seccomp filter the grader runs
    under, never that the kernel lacks it; and, with neither namespaces nor Landlock, that only the
    kit's own paths were checked, not a copy of the kit or of a reference elsewhere on the machine
    (which a world-readable copy of hog.py would be: it once scored a stub 20/24 under "kit hidden").
    """
    import ctypes
    import subprocess

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    if libc.syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1)) < 1:
        pytest.skip("this kernel has no Landlock to refuse")
    if not isolation.seccomp_program()[0]:
        pytest.skip(isolation.seccomp_program()[1])
    private = tmp_path / "private"  # closed to other users: hidden from a child with a user id of its own
    private.mkdir(mode=0o700)
    (private / "hog.py").write_text("reference", encoding="utf-8")
    argv = [sys.executable, "-c", REFUSE_LANDLOCK, str(private)]
    if os.geteuid() == 0 and shutil.which("capsh"):  # Gradescope's route: no namespace of any kind
        argv = ["capsh", "--drop=cap_sys_admin", "--", "-c", 'exec "$@"', "capsh", *argv]
    done = subprocess.run(argv, cwd=edition.root,
                          env={**os.environ, "HOGKIT_ISOLATION": "limits"}, capture_output=True, text=True,
                          timeout=240)
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    assert "landlock: refused by the seccomp filter the grader runs under" in line, line
    assert "not in this kernel" not in line and "applied by the child: seccomp" in line, line
    if os.geteuid() == 0:  # a user id of its own: the folder's modes hide it
        assert sandboxing_messages.kit_reach(isolation.LIMITS, (), False, 1) in line, line
        assert "only the kit's own paths (1) checked; NOT checked: a copy of the kit or of a reference" in line
    else:  # the grader's own user: the child reads what the grader can
        assert f"kit READABLE ({private})" in line, line


@pytest.mark.parametrize(("said", "listed", "worded"), [
    ("landlock: unavailable (error 38, seccomp 2)", None, "landlock: refused by the seccomp filter the grader runs"),
    ("landlock: unavailable (error 38, seccomp 2)", False, "landlock: not in this kernel (error 38"),
    ("landlock: unavailable (error 38, seccomp 0)", True, "landlock: not in this kernel (error 38"),
    ("landlock: unavailable (error 1, seccomp 2)", None, "landlock: refused by the seccomp filter the grader runs"),
    ("landlock: the rules were refused (error 22)", None, "landlock: the rules were refused (error 22)"),
])
def test_why_landlock_is_missing_is_worded_from_what_the_child_found(said, listed, worded, monkeypatch):
    """The child reports a failed first Landlock call as its errno and its seccomp mode; the line
    words it: ENOSYS under a filter the grader was started under (a container's profile) is a
    refusal, ENOSYS without one (or where the kernel's security modules do not list Landlock) a
    kernel without it; anything else the child said is kept as it said it."""
    monkeypatch.setattr(isolation, "landlock_listed", lambda: listed)
    policy = isolation.Policy(isolation.LIMITS, "", True, sys.executable, sys.prefix, "test")
    reach = {"readable": [], "network": False, "uid": os.getuid() + 1, "gid": os.getgid() + 1,
             "applied": ["seccomp"], "missing": [said]}
    verified = isolation.verified_from(reach, policy, ("/k",))
    (missing,) = verified.missing
    assert missing.startswith(worded), missing
    assert verified.checked == 1 and "not available: " + missing in verified.summary


def test_require_isolation_refuses_anything_less_than_complete(edition, monkeypatch, capsys):
    """Attack (or a machine's shortfall): a child that could reach the network, graded with
    --require-isolation. Guarantee: nothing is graded (exit status 3), and the line says what was
    missing; without the flag the same machine grades, and the report says the network was open."""
    from graders import cli
    from graders.sandboxing import guard

    open_network = isolation.Verified(isolation.LIMITS, "test", (), True, True, ("landlock ABI 7",), (), "M")
    monkeypatch.setattr(guard, "verify", lambda secrets: open_network)
    monkeypatch.setattr(guard, "summary", lambda: open_network.summary)
    reference = str(edition.solution_dir / edition.submission)
    assert cli.main(["grade", "--require-isolation", "-q", "1", reference]) == 3
    err = capsys.readouterr().err
    assert "--require-isolation" in err and "nothing was graded" in err and "network OPEN" in err, err
    assert cli.main(["grade", "--json", "-q", "1", reference]) == 0
    assert "network OPEN" in json.loads(capsys.readouterr().out)["isolation"]


# -- 3. kernel memory that no limit on the child's own memory sees ---------------------------------

XATTRS = """
def boar_brawl(player_score, opponent_score):
    import os
    made = 0
    for folder in (os.environ.get("TMPDIR", "/tmp"), os.getcwd(), "/dev/shm"):
        try:
            path = os.path.join(folder, "x%d" % os.getpid())
            open(path, "w").close()
            os.setxattr(path, b"user.fill", b"x" * 4000)
            made += 1
        except OSError:
            pass
    return made
"""


@pytest.mark.parametrize("mode", ["namespaces", "limits"])
def test_extended_attributes_are_refused(edition, reference_source, mode, monkeypatch):
    """Attack: boar_brawl fills empty files with extended attributes in its size-capped tmpfs mounts
    (and its folder): kernel memory that neither the size cap nor the watch on resident memory sees
    (one child held 1.27 GiB past its 1 GiB limit this way).

    Guarantee: the child's seccomp filter refuses every setxattr call: no attribute is made.
    """
    if mode == "namespaces":
        needs_namespaces()
    else:
        forced_limits(monkeypatch)
    if not isolation.seccomp_program()[0]:
        pytest.skip(isolation.seccomp_program()[1])
    report = grade_source(replace_function(reference_source, "boar_brawl", XATTRS), edition, problems=[2])
    assert problem(report, 2).cases[0].got == "0", problem(report, 2).cases[0]
    assert "extended attributes (kernel memory) refused by seccomp" in report.isolation


INODES = """
def boar_brawl(player_score, opponent_score):
    import os
    made = 0
    try:
        while made < 400000:
            open("/tmp/%d" % made, "w").close()
            made += 1
    except (OSError, MemoryError):
        pass
    return made
"""


@pytest.mark.timeout(300)
def test_empty_files_in_a_tmpfs_are_bounded_by_the_childs_memory_cgroup(edition, reference_source, monkeypatch):
    """Attack: boar_brawl makes hundreds of thousands of empty files in its private /tmp: the tmpfs
    caps bytes, not files, and each file's inode is kernel memory that neither the address-space
    limit nor the watch on resident memory sees (about 1 KiB each: 400,000 files are ~400 MiB).

    Guarantee: where a memory cgroup can be had (as root on this machine), every child runs in one of
    its own, which counts kernel memory: the files stop (or the child is stopped) near its limit
    (128 MiB here), and the isolation line says the cgroup holds it.
    """
    from graders.sandboxing.sandbox import Limits

    needs_namespaces()
    if not isolation.memory_cgroups()[0]:
        pytest.skip(isolation.memory_cgroups()[1])
    monkeypatch.setattr(isolation, "CGROUP_HEADROOM", 0)
    report = grade_source(replace_function(reference_source, "boar_brawl", INODES), edition, problems=[2],
                          limits=Limits(memory_bytes=128 * 1024 * 1024))
    case = problem(report, 2).cases[0]
    assert case.status != "passed" and case.got != "400000", case
    assert "a memory cgroup of its own bounds it all" in report.isolation
