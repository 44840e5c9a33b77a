"""Attacks through the fork server: each child forked into namespaces of its own (graders.sandboxing.zygote).

Where the machine gives namespaces, every child is forked by one server rather than started by
bubblewrap. A submission looks for what the process that forked it left behind (other processes,
capabilities, descriptors, the server's memory), or for what a child forked beside it left; the kit
is checked to refuse a child that kept a capability, and to hand the server nothing of the kit.
"""

from __future__ import annotations

import time

import pytest

from graders.sandboxing import isolation

from ..conftest import grade_source, problem, scores
from ..hostile import needs_namespaces


def _values(session, steps: list[str]) -> list:
    """What each of STEPS gave in SESSION (one case), or its error's type, or its status."""
    from graders.games.analysis import session_setup

    replies = list(session.steps(steps, session_setup(session), time.monotonic() + 30))
    return [r.value if r.status == "ok" else (r.error or {}).get("type", r.status) for r in replies]


def test_a_forked_child_sees_only_itself_and_holds_nothing_of_the_fork_server(edition, reference_source):
    """Attack: a submission looks for what the process that forked it left behind: the processes it
    can see, its capabilities, its open descriptors (the fork server's control socket), the memory of
    the first process of its namespace, and whether it can make a namespace of its own or signal that
    first process.

    Guarantee: it sees only itself and its namespace's first process, the leader of a session of its
    own (so that a classmate's busy processes take processor time from their own session, not from
    this child's); every capability set is empty
    (the bounding set too); it holds no descriptor but /dev/null and its two pipes; the first
    process's memory is closed to it, signals to it change nothing, and unshare is refused.
    """
    from graders.sandboxing import forkserver, sandbox

    needs_namespaces()
    session = sandbox.open_session(reference_source, edition)
    try:
        assert isinstance(session._proc, forkserver.ForkedChild), "the fork server is this machine's route"
        _, session_leader, pids, caps, links, mem, signalled, first, unshared = _values(session, [
            "import os, ctypes",
            "os.getsid(0)",
            "sorted(int(p) for p in os.listdir('/proc') if p.isdigit())",
            "sorted({line.split()[1] for line in open('/proc/self/status') if line.startswith('Cap')})",
            "sorted({os.readlink(p).split('[')[0] for p in ['/proc/self/fd/' + f for f in os.listdir('/proc/self/fd')]"
            " if os.path.exists(p)})",
            "open('/proc/1/mem', 'rb').read(1)",
            "[os.kill(1, s) for s in (15, 9)]",
            "os.path.exists('/proc/1/status')",
            "ctypes.CDLL(None, use_errno=True).unshare(0x20000)",
        ])
    finally:
        session.dispose()
    assert session_leader == 1  # a session of its own: the scheduler shares the processor between sessions
    assert pids == [1, 2]
    assert caps == ["0000000000000000"]
    assert not [link for link in links if link not in ("/dev/null", "pipe:") and not link.startswith("/proc/")], links
    assert mem in ("PermissionError", "OSError")
    assert signalled in ([None, None], "PermissionError") and first is True
    assert unshared != 0


def test_children_forked_side_by_side_see_nothing_of_each_other(edition, reference_source):
    """Attack: two submissions forked by the same server at once: the first leaves a file in every
    folder it may write (/work, /tmp, /dev/shm) and looks at the other's processes; the second looks
    for those files.

    Guarantee: each child has folders of its own and a process list of its own: the second finds
    none of the first's files, and neither sees the other's processes.
    """
    from graders.sandboxing import sandbox

    needs_namespaces()
    first = sandbox.open_session(reference_source, edition)
    second = sandbox.open_session(reference_source, edition)
    try:
        written = _values(first, ["import os", "[open(d + '/left-here', 'w').write('x') for d in "
                                  "('/work', '/tmp', '/dev/shm')]"])
        found = _values(second, ["import os", "[d for d in ('/work', '/tmp', '/dev/shm') "
                                 "if os.path.exists(d + '/left-here')]",
                                 "sorted(int(p) for p in os.listdir('/proc') if p.isdigit())"])
    finally:
        first.dispose()
        second.dispose()
    assert written == [None, [1, 1, 1]]
    assert found == [None, [], [1, 2]]


def test_a_child_that_kept_a_capability_is_never_given_student_code(edition, reference_source, tmp_path,
                                                                    monkeypatch):
    """Attack (on the kit): a child whose code forgets to give up its capabilities, as a fork server's
    child would hold them from the server.

    Guarantee: the parent reads what the child reports before any student code and refuses it: the
    kit's failure (SandboxError naming the sets), never a grade.
    """
    from graders.core.errors import SandboxError
    from graders.sandboxing import bytecode, sandbox

    needs_namespaces()
    confine = next(part for part in bytecode.CHILD_PARTS if part.stem == "childconfine")
    forgetful = tmp_path / confine.name
    source = confine.read_text(encoding="utf-8")
    forgetful.write_text(source.replace('"""Give up every capability for good', 'return\n    """Give up', 1),
                         encoding="utf-8")
    assert forgetful.read_text(encoding="utf-8") != source
    monkeypatch.setattr(bytecode, "CHILD_PARTS", tuple(forgetful if p == confine else p for p in bytecode.CHILD_PARTS))
    with pytest.raises(SandboxError, match="still held capabilities"):
        sandbox.open_session(reference_source, edition)


def test_the_capability_check_reads_every_set():
    from graders.sandboxing.sandbox import kept_capabilities

    empty = dict.fromkeys(("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"), "0000000000000000")
    assert kept_capabilities(empty, True) == "" and kept_capabilities({}, False) == ""
    assert kept_capabilities({}, True) == "none reported"
    assert kept_capabilities({**empty, "CapBnd": "000001ffffffffff"}, True) == "CapBnd 000001ffffffffff"
    assert kept_capabilities({**empty, "CapBnd": "000001ffffffffff"}, False) == ""
    assert kept_capabilities({**empty, "CapEff": "0000000000200000"}, False) == "CapEff 0000000000200000"
    assert kept_capabilities({**empty, "CapPrm": 7}, False) == "CapPrm "


def test_the_fork_server_is_given_nothing_of_the_kit_and_can_be_turned_off(edition, reference_source,
                                                                         monkeypatch, tmp_path):
    """The fork server's command line names no folder of the kit (only its runner, a copy), and
    HOGKIT_FORKSERVER=off starts every child with bubblewrap instead, which grades the same."""
    from graders.sandboxing import forkserver, sandbox

    needs_namespaces()
    argv = isolation.policy().zygote_command(tmp_path, 5)
    assert not [a for a in argv if str(sandbox.KIT) in a]
    forked = grade_source(reference_source, edition, problems=[1, 2])
    monkeypatch.setenv(forkserver.SWITCH, "off")
    assert not forkserver.usable()
    session = sandbox.open_session(reference_source, edition)
    try:
        assert not isinstance(session._proc, forkserver.ForkedChild)
    finally:
        session.dispose()
    started = grade_source(reference_source, edition, problems=[1, 2])
    assert scores(forked) == scores(started) == {1: problem(forked, 1).max, 2: problem(forked, 2).max}
