"""What the attack tests share (tests/kit/*/test_hostile_*.py, one module per route of attack: the
grade route's child and judge, the machine, where courses run, the fork server, the class route,
what staff open, the student's runner).

Every attack test builds a variant of the reference ``hog.py`` (or a class of hand-ins) that attacks
the grader one way and checks, with exact scores, statuses and reasons, that the attack costs only
what it touches and never earns a point. The helpers here read a report, find what a grade left
running, skip where a guarantee needs namespaces, and run a class through every route.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from graders.core.records import Report
from graders.editions.cases import Case, load_problem_cases
from graders.editions.edition import Edition
from graders.sandboxing import isolation

from .conftest import problem


def line_of(source: str, text: str) -> int:
    """The line number (from 1) of the only line of SOURCE whose stripped text is TEXT."""
    hits = [n for n, line in enumerate(source.split("\n"), 1) if line.strip() == text]
    assert len(hits) == 1, f"{text!r} is on lines {hits}"
    return hits[0]


def first_case(edition: Edition, number: int) -> Case:
    """The first case a problem runs: the one a failing stub's reason names."""
    return load_problem_cases(edition, number)[0]


def child_pids() -> set[int]:
    """Live processes whose parent is this test process and that run the sandbox's child, and every
    process the fork server forked that still runs."""
    from graders.sandboxing import forkserver

    found = set(forkserver.forked_processes())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == os.getpid() and fields[0] != "Z" and b"child.py" in cmdline:
            found.add(int(entry.name))
    return found


def assert_untouched(report: Report, *numbers: int) -> None:
    """The reference functions of problems NUMBERS earned all their points in the hostile run."""
    for n in numbers:
        p = problem(report, n)
        assert (p.status, p.score, p.reason) == ("passed", p.max, ""), (n, p.status, p.reason)
        assert p.max > 0


# The deadline of a case that spins until it is killed, where its length is not what the test looks
# at (the honest cases beside it take hundredths of a second): the manifest's 5 s would spin 5 s.
SPIN_DEADLINE = 1.5


def needs_namespaces() -> None:
    """Skip where the machine gives no namespaces. Many guarantees come from the isolation the machine
    gives (graders.sandboxing.isolation): under namespaces they hold for every route, as root and as
    an ordinary user; under limits alone some cannot, and the README says which. A test that needs
    namespaces says so when it is skipped; CI installs bubblewrap, so there it never is."""
    if isolation.policy().level != isolation.NAMESPACES:
        pytest.skip("this guarantee needs namespaces (bubblewrap); this machine gives "
                    + isolation.policy().summary)


def forced_limits(monkeypatch: pytest.MonkeyPatch, confined: bool = True) -> isolation.Policy:
    """The limits level for this test (as if bubblewrap could not start); CONFINED False also takes
    away what the kernel adds there (Landlock and seccomp), as on a kernel without them."""
    real = isolation.policy()
    limits = isolation.Policy(isolation.LIMITS, "", real.root, real.python, real.python_home,
                              "forced by a test" + ("" if confined else ", unconfined"))
    monkeypatch.setattr(isolation, "policy", lambda: limits)
    if not confined:
        monkeypatch.setattr(isolation, "confinement", lambda *args: {})
    return limits



# roll_dice starts five processes that each hold 400 MB: under the limit of one process (1 GB), but
# twice it together.
HOARDER = """
    def roll_dice(num_rolls, dice=six_sided):
        import os, time
        for _ in range(5):
            if os.fork() == 0:
                hoard = bytearray(400 * 1024 * 1024)
                for k in range(0, len(hoard), 4096):
                    hoard[k] = 1
                time.sleep(60)
        time.sleep(60)
    """


# -- a class through every route ------------------------------------------------------------------


def class_routes(folder: Path, out: Path, edition_args: tuple[str, ...] = ("--edition", "boar_brawl"),
                 routes: tuple[str, ...] = ("grade", "report", "contest")) -> dict[str, int]:
    """Run each of ROUTES (``hogkit grade --out``, ``hogkit report``, ``hogkit contest``) on the class
    FOLDER into its own folder under OUT; each route's exit status."""
    from graders.cli import main as hogkit

    return {route: hogkit([route, str(folder), "--out", str(out / route), *edition_args,
                           *(["--jobs", "2"] if route != "report" else [])])
            for route in routes}


def assert_every_output(out: Path, students: set[str],
                        routes: tuple[str, ...] = ("grade", "report", "contest")) -> None:
    """Every output of each route in ROUTES is written under OUT, and each of STUDENTS has its row
    in grades.csv and leaderboard.csv."""
    import csv as csv_module

    expected = {"grade": ("grades.csv", "summary.md", "records.jsonl", "histogram.png", "histogram.svg"),
                "report": ("ta-report.md", "wrong-answers.csv", "unlock.csv", "test-runs.csv", "runs.png", "runs.svg"),
                "contest": ("leaderboard.csv", "contest.html")}
    for route in routes:
        for name in expected[route]:
            assert (out / route / name).is_file(), (route, name)
    if "grade" in routes:
        rows = list(csv_module.DictReader(open(out / "grade" / "grades.csv", encoding="utf-8")))
        assert students <= {r["student"] for r in rows}, rows
    if "contest" in routes:
        text = (out / "contest" / "leaderboard.csv").read_text(encoding="utf-8")
        assert all(s in text for s in students), text
    if "report" in routes:
        assert "students" in (out / "report" / "ta-report.md").read_text(encoding="utf-8")
