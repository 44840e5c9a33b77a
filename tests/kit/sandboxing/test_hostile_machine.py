"""Attacks on the machine around the child: what a submission's code can find of the kit's secrets.

The kit's secrets are its case files (hidden cases' inputs and answers) and its reference code. A
submission looks for them from inside its child: by path from its folder or from the child's own
files, among the objects of its process, in the shared /tmp, in a walk of the whole file system
(from a single grade, a class and Gradescope's route), among the machine's own secrets and installed
packages; or it leaves a library where the grader once cached its compiled kernel. Each test checks
that the stub finds nothing and earns nothing. (Machines that give less isolation than namespaces:
test_hostile_isolation.py.)
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from graders.sandboxing import isolation
from graders.scoring import messages as scoring_messages

from ..conftest import grade_on_gradescope, grade_source, problem, replace_function, with_deadline
from ..hostile import first_case, forced_limits, needs_namespaces

# -- 1. the kit's case files and reference, from the child's folder and process --------------------

# A stub's boar_brawl that looks its answers up in the kit's q02 case files, in the folders {find_kit}
# names (1 where it finds none).
KIT_READER = """
def boar_brawl(player_score, opponent_score):
    import os
    {find_kit}
    for folder in folders:
        for name in ("q02.toml", "q02.generated.toml"):
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    lines = f.read().split("\\n")
            except OSError:
                continue
            # The numbers are read out of the text, never written into it: the shape rule stays quiet.
            asked = ""
            for line in lines:
                head, found, args = asked.partition(">>> boar_brawl(")
                if found and not head:
                    first, _, rest = args.partition(", ")
                    second, _, _ = rest.partition(")")
                    if int(first) == player_score and int(second) == opponent_score:
                        return int(line)
                asked = line
    return 1
"""


def test_reading_the_kit_by_relative_path_earns_nothing(edition, reference_source):
    """Attack: a stub boar_brawl that looks its answers up in ../../tests/editions/boar_brawl/q02*.toml.

    The child runs in an empty private folder, so paths relative to it lead nowhere near the kit.
    Without the kit the stub only answers 1, right by chance for a few cases, never for all.
    """
    find_kit = ('folders = ("../../tests/editions/boar_brawl", "../tests/editions/boar_brawl", '
                '"tests/editions/boar_brawl", "/tests/editions/boar_brawl")')
    source = replace_function(reference_source, "boar_brawl", KIT_READER.format(find_kit=find_kit))
    report = grade_source(source, edition, problems=[2])

    p2 = problem(report, 2)
    assert (p2.status, p2.score) == ("failed", 0)
    assert all(r.passed for r in p2.rules)
    assert p2.reason == scoring_messages.case_failed(
        first_case(edition, 2).name, scoring_messages.wrong_output("9", "1"))


def test_reading_the_kit_through_the_graders_path_earns_nothing(edition, reference_source):
    """Attack: a stub boar_brawl finds the kit from the child's own file (``__main__.__file__`` is
    graders/sandboxing/child.py; ``sys.orig_argv`` names graders/sandboxing/probes.py too) and looks its answers up in
    tests/editions/boar_brawl/q02.toml and q02.generated.toml. A stub must not earn points this way.
    """
    find_kit = (
        "import __main__\n"
        "    kit = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__main__.__file__))))\n"
        "    folders = (os.path.join(kit, 'tests', 'editions', 'boar_brawl'),)"
    )
    source = replace_function(reference_source, "boar_brawl", KIT_READER.format(find_kit=find_kit))
    report = grade_source(source, edition, problems=[2])

    p2 = problem(report, 2)
    assert all(r.passed for r in p2.rules)  # the lookup breaks no shape rule: only the cases can stop it
    assert (p2.status, p2.score) == ("failed", 0), f"a stub that reads the kit's files scored {p2.score}"


@pytest.mark.slow  # several seconds of processor time: the full run, not the edit loop
def test_a_stub_finds_no_reference_of_its_own_problem(edition, reference_source):
    """Attack: take_turn searches every object the garbage collector knows for another function
    named take_turn (the reference's, which hidden cases of other problems run with) and hands the
    work to it. The children that run take_turn's cases hold no reference take_turn, so it finds none."""
    stub = """
        def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
            import gc
            for f in gc.get_objects():
                if type(f) is type(take_turn) and f.__name__ == 'take_turn' and f is not take_turn:
                    return f(num_rolls, player_score, opponent_score, dice)
            return 0
    """
    report = grade_source(replace_function(reference_source, "take_turn", stub), edition, problems=[3, 4, 5])
    p3 = problem(report, 3)
    assert (p3.status, p3.score) == ("failed", 0)
    assert all(not c.passed for c in p3.cases if c.hidden), "a hidden case passed with the reference's take_turn"
    assert problem(report, 4).cases and all(c.passed for c in problem(report, 4).cases if c.hidden)


@pytest.mark.timeout(300)
def test_no_reference_leaks_through_the_shared_tmp_under_limits(edition, reference_source, monkeypatch):
    """Attack: without namespaces children share /tmp. In a hidden case of sus_update the kit's
    boar_brawl is in the module (the reference stands in for other problems): sus_update writes its
    code to /tmp for everyone, and the student's boar_brawl runs whatever it finds there.

    Guarantee: where children share /tmp, the children that hold reference code run only once every
    other child of the submission has finished its cases, so boar_brawl never finds it.
    """
    if os.geteuid() != 0:
        pytest.skip("only root gives each child a user id of its own")
    forced_limits(monkeypatch)  # as root: each child a user id of its own
    leak = f"/tmp/leak-{os.getpid()}-{time.monotonic_ns()}"
    reader = f"""
    def boar_brawl(player_score, opponent_score):
        import marshal, types
        try:
            with open({leak!r}, "rb") as f:
                code = marshal.loads(f.read())
        except OSError:
            return 0
        return types.FunctionType(code, globals())(player_score, opponent_score)
    """
    writer = f"""

_sus_update = sus_update


def sus_update(num_rolls, player_score, opponent_score, dice=six_sided):
    import marshal, os
    try:
        with open({leak!r}, "wb") as f:
            f.write(marshal.dumps(boar_brawl.__code__))
        os.chmod({leak!r}, 0o666)
    except OSError:
        pass
    return _sus_update(num_rolls, player_score, opponent_score, dice)
"""
    try:
        report = grade_source(replace_function(reference_source, "boar_brawl", reader) + writer, edition,
                              problems=[2, 4], workers=2)  # children that could run side by side
        p2 = problem(report, 2)
        assert p2.cases and not any(c.passed for c in p2.cases), "boar_brawl ran the reference from /tmp"
    finally:
        Path(leak).unlink(missing_ok=True)


# -- 2. the whole machine: its file system, secrets and packages -----------------------------------

SEARCHER = """
FOUND = []  # every q02*.toml the search could read, searched once per process


def _search():
    import os
    places = [os.getcwd()]
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            places += ["/proc/%s/cwd" % pid, "/proc/%s/root" % pid]
            for name in ("environ", "cmdline"):
                try:
                    with open("/proc/%s/%s" % (pid, name), "rb") as f:
                        places += [p.decode() for p in f.read().split(b"\\0") if p.startswith(b"/")]
                except (OSError, ValueError):
                    pass
    places += [os.path.dirname(p) for p in (os.__file__,) + tuple(os.environ.values()) if p.startswith("/")]
    places += ["/tmp", "/root", "/home", "/work", "/"]
    seen, files = set(), 0
    # The system's own libraries, headers and documentation hold no copy of the kit's cases, and
    # walking them (a browser's files among them) is what made the search run out of time on a
    # busy machine instead of finishing and finding nothing.
    SKIPPED = ("/proc/self", "/sys", "/usr/share", "/usr/include", "/usr/lib/x86_64-linux-gnu", "/usr/lib/chromium")
    for top in places:
        for here, dirs, names in os.walk(top):
            # (no deeper than 40 levels: a class's hand-in may nest a folder past Python's recursion
            # limit, which os.walk would follow to a RecursionError; no kit keeps its cases that deep)
            if here in seen or files > 200000 or here.startswith(SKIPPED) or here.count("/") > 40:
                dirs[:] = []
                continue
            seen.add(here)
            files += len(names)
            for name in names:
                if name.startswith("q02") and name.endswith(".toml"):
                    try:
                        FOUND.append(open(os.path.join(here, name), encoding="utf-8").read())
                    except OSError:
                        pass
    FOUND.append("")


def boar_brawl(player_score, opponent_score):
    if not FOUND:
        _search()
    wanted = ">>> boar_brawl(%d, %d)\\n" % (player_score, opponent_score)
    for text in FOUND:
        _, found, after = text.partition(wanted)
        if found:
            return int(after.split("\\n")[0])
    return 1
"""


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("route", ["single", "class", "gradescope"])
def test_a_submission_that_searches_the_machine_for_the_cases_finds_none(edition, reference_source, route,
                                                                          tmp_path, monkeypatch):
    """Attack: boar_brawl looks its answers up in any copy of the kit's case files it can find: the
    grader's /proc (cwd, root, cmdline, environ), the interpreter's folder, the environment's paths
    and a walk of the whole file system, which also finds other copies of the kit on the machine.

    Guarantee: under namespaces the child sees no kit at all, from every route and working folder:
    the stub answers 1 and scores 0 on Problem 02. (Its walk gets a minute per case: on a busy
    machine "still running" would score 0 too, but only an answer shows the search found nothing.)
    """
    needs_namespaces()
    edition = with_deadline(edition, 60.0, [2])
    source = replace_function(reference_source, "boar_brawl", SEARCHER)
    if route == "single":  # the same search, run here where nothing isolates it, finds the kit's cases
        namespace: dict = {}
        exec(compile(SEARCHER, "searcher", "exec"), namespace)  # trusted: this test's own code
        assert namespace["boar_brawl"](21, 46) == 9, "the attack should work where nothing isolates it"
    monkeypatch.chdir(edition.root if route == "single" else tmp_path)
    if route == "single":
        p2 = problem(grade_source(source, edition, problems=[2]), 2)
        assert (p2.score, p2.cases[0].got) == (0, "1")
        return
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "mallory.py").write_text(source, encoding="utf-8")
    if route == "class":
        from graders.courses.classroom import grade_class

        (record,) = [r.to_dict() for r in grade_class(folder, edition, tmp_path / "out", jobs=1)]
    else:
        record = grade_on_gradescope(source, edition, tmp_path, monkeypatch)
    p2 = next(p for p in record["problems"] if p["number"] == 2)
    assert (p2["score"], p2["cases"][0]["got"]) == (0, "1")


PEEKER = """
def boar_brawl(player_score, opponent_score):
    import os
    seen = []
    for path in ("/etc/shadow", "/etc/passwd", "/root", "/home", "/proc/1/environ", "/tmp"):
        try:
            seen.append(path + ":" + ("dir %d" % len(os.listdir(path)) if os.path.isdir(path)
                                      else "file %d" % len(open(path, "rb").read())))
        except OSError:
            pass
    return " ".join(seen)
"""


def test_a_child_sees_no_secret_of_the_machine(edition, reference_source):
    """Attack: boar_brawl reports what it can read: /etc/shadow (the child of a root grader once ran
    as root), /etc/passwd, /root, /home, another process's environment, /tmp (where classmates'
    work folders and the runner live).

    Guarantee: under namespaces none of them exists for the child, and its private /tmp is empty.
    """
    needs_namespaces()
    source = replace_function(reference_source, "boar_brawl", PEEKER)
    got = problem(grade_source(source, edition, problems=[2]), 2).cases[0].got
    seen = dict(re.findall(r"(/\S+):(\w+ \d+)", got))
    assert not {"/etc/shadow", "/etc/passwd", "/home"} & set(seen), got
    assert seen["/tmp"] == "dir 0", got
    assert seen.get("/root", "dir 0") in ("dir 0", "dir 1"), got  # only the interpreter's way in
    # pid 1 is the sandbox's own first process, whose environment is the child's cleared one
    assert seen.get("/proc/1/environ", "file 0").startswith("file "), got
    assert int(seen.get("/proc/1/environ", "file 0").split()[1]) < 400, got


PACKAGE_PEEKER = """
def boar_brawl(player_score, opponent_score):
    import os
    seen = 0
    for path in {paths!r}:
        try:
            seen += len(os.listdir(path))
        except OSError:
            pass
    return seen
"""


def test_a_child_finds_no_installed_package(edition, reference_source):
    """Attack: boar_brawl lists the interpreter's site-packages, the system's dist-packages and
    /usr/local, where a copy of the kit (or anything else installed) would be.

    Guarantee: under namespaces every one of them is empty for the child.
    """
    needs_namespaces()
    home = isolation.policy().python_home
    paths = isolation.installed_packages([home, "/usr"])
    paths += [] if isolation.within(home, "/usr/local") else ["/usr/local"]
    assert any(os.listdir(p) for p in paths if os.path.isdir(p))  # the grader itself sees packages
    source = replace_function(reference_source, "boar_brawl", PACKAGE_PEEKER.format(paths=paths))
    assert problem(grade_source(source, edition, problems=[2]), 2).cases[0].got == "0"


# -- 3. the grader's own cache ---------------------------------------------------------------------


def test_a_library_left_in_a_cache_never_runs_inside_the_grader(tmp_path, monkeypatch):
    """Attack: a submission (or anyone) leaves a shared library where the grader once cached its
    compiled contest kernel, hoping the grader loads it on the next run.

    Guarantee: the grader never loads a library from disk that it did not just build itself, in a
    folder only it can write; nothing in the cache is ever read for it.
    """
    from graders.games import analysis

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    planted = tmp_path / "hogkit"
    planted.mkdir()
    for name in ("kernel.so", "kernel-0123456789abcdef.so"):
        (planted / name).write_bytes(b"\x7fELF not a real library")
    analysis.compiled_kernel.cache_clear()
    try:
        kernel = analysis.compiled_kernel()
    finally:
        analysis.compiled_kernel.cache_clear()
    assert kernel is not None
    loaded = str(kernel._name)  # type: ignore[attr-defined]
    assert "hogkit-kernel-" in loaded and not loaded.startswith(str(tmp_path))
    assert not Path(loaded).exists()  # built, loaded and deleted at once
