"""The engine's house: its subpackages, which of them ship to students, and which way imports run.

graders/ holds one folder per part of the work (see the README's "Where things live"). The folders a
student's bundle carries (:data:`graders.authoring.bundle.SHIPPED`) keep to Python 3.9 and the
standard library; the others run only on an instructor's machine. Every reach counts here, as the
shared scanner finds it (tests/kit/scanner.py): an import at a module's top or inside a function, and
a string naming a module (``importlib.import_module("graders...")``).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib

import pytest

from graders.authoring.bundle import ENGINE, SHIPPED, STUDENT_MODULES

from .. import scanner

ROOT = ENGINE.parent

# Bottom to top: a subpackage imports only from its own folder and from the layers below it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core",),  # errors, messages, storage, syntax, records, writers: imports nothing of the engine
    ("editions",),  # an edition's manifest, cases, markers, locking
    ("sandboxing",),  # the child, its isolation and limits
    ("scoring",),  # grading, judge, checks, AST rules, submissions, reports
    ("runner", "gui", "games"),  # the student's commands, the web game, the games' exact analysis
    ("authoring",),  # what `hogkit build` makes; mutants use the games' pictures
    ("courses",),  # class runs and Gradescope; the Gradescope zip carries the mutants' check
    ("cli",),  # graders/cli/: every command, one module per group
)

# Shipped code that reaches instructor-only code: none. The instructor's side hands the game in
# (graders.games.game.Game), so a student's copy never loads numpy or the analysis. A reach added
# later fails the test below until it is moved or listed here with its reason.
KNOWN_REACHES: set[tuple[str, str]] = set()


def folder(module: str) -> str:
    return module.split("/")[0]


def layer(package: str) -> int:
    return next(i for i, row in enumerate(LAYERS) if package in row)


def test_every_folder_has_a_place_in_the_layers():
    folders = {p.name for p in ENGINE.iterdir() if (p / "__init__.py").is_file()}
    assert folders | {"cli"} == {name for row in LAYERS for name in row}
    assert {p.name for p in ENGINE.glob("*.py")} == {"__init__.py"}, "a module belongs in a folder"


def test_nothing_shipped_reaches_an_instructor_only_folder_but_the_known_reaches():
    reaches = {(src, dst) for src, targets in scanner.graph().items() for dst in targets
               if folder(src) in SHIPPED and folder(dst) not in SHIPPED}
    assert reaches == KNOWN_REACHES, "a reach gone: take it out of KNOWN_REACHES; a new one: move the code"


def test_no_import_runs_back_up_the_layers():
    upward = {(src, dst) for src, targets in scanner.graph().items() for dst in targets
              if folder(src) != folder(dst) and layer(folder(dst)) >= layer(folder(src))}
    assert upward - KNOWN_REACHES == set()


def test_no_circle_between_folders():
    edges = scanner.folders(scanner.graph())
    assert scanner.circles(edges) == [], "import circle"
    assert "sandboxing" in edges["scoring"]  # the graph is the real one


def test_the_bundle_ships_exactly_the_shipped_folders():
    shipped = {"__init__"} | {m.name for m in scanner.modules() if m.folder in SHIPPED}
    assert set(STUDENT_MODULES) == shipped and "runner/student" in shipped
    # pyproject's Python 3.9 target names the same folders, not a list of modules.
    targets = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"][
        "per-file-target-version"]
    (folders,) = (re.fullmatch(r"graders/\{(.*)\}/\*\.py", p) for p in targets if "{" in p)
    assert sorted(folders.group(1).split(",")) == sorted(SHIPPED)
    assert targets == {"graders/__init__.py": "py39", folders.group(0): "py39"}
    # The shipped folders sit at the bottom of the house: no instructor-only folder below one of them.
    assert all(layer(name) < layer("authoring") for name in SHIPPED)


@pytest.mark.slow  # a whole collection in a process of its own
def test_every_edition_s_case_files_are_collected_by_the_plugin():
    """The suites are pytest items wherever an edition lives (tests/editions/<edition>/): a move that
    left the plugin looking elsewhere would silently drop thousands of cases from the test command."""
    from graders.editions.edition import edition_names

    found = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                            "-n", "0", "tests/editions"],
                           cwd=ROOT, capture_output=True, text=True, timeout=300).stdout
    for name in edition_names():
        cases = [line for line in found.splitlines() if line.startswith(f"tests/editions/{name}/q")]
        assert len(cases) > 100, (name, found[-2000:])
