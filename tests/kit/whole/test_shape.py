"""The engine's house: its subpackages, which of them ship to students, and which way imports run.

graders/ holds one folder per part of the work (see the README's "Where things live"). The folders a
student's bundle carries (:data:`graders.authoring.bundle.SHIPPED`) keep to Python 3.9 and the
standard library; the others run only on an instructor's machine. Every import counts here, at a
module's top or inside a function, and so does ``importlib.import_module("graders...")``.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from graders.authoring.bundle import ENGINE, SHIPPED, STUDENT_MODULES

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
    ("cli",),  # graders/cli.py: every command
)

# Shipped code that reaches instructor-only code: none. The instructor's side hands the game in
# (graders.games.game.Game), so a student's copy never loads numpy or the analysis. A reach added
# later fails the test below until it is moved or listed here with its reason.
KNOWN_REACHES: set[tuple[str, str]] = set()


def module_name(path: Path) -> str:
    """graders/scoring/grading.py -> "scoring/grading"; graders/cli.py -> "cli"."""
    return path.relative_to(ENGINE).with_suffix("").as_posix()


def folder(module: str) -> str:
    return module.split("/")[0]


def _target(dotted: str, names: list[str]) -> set[str]:
    """The engine modules `from DOTTED import NAMES` (or `import DOTTED`) reaches."""
    parts = dotted.split(".")[1:]
    if len(parts) >= 2 or (len(parts) == 1 and (ENGINE / f"{parts[0]}.py").is_file()):
        return {"/".join(parts[:2])}
    base = ENGINE.joinpath(*parts)
    found = {"/".join([*parts, n]) for n in names if (base / f"{n}.py").is_file()}
    return found or ({parts[0]} if parts else set())


def imports(path: Path) -> set[str]:
    """Every engine module the file at PATH imports, anywhere in it, importlib's included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "graders":
            found |= _target(node.module or "", [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            found |= {m for a in node.names if a.name.startswith("graders.") for m in _target(a.name, [])}
        elif (isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name))
              and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).startswith("graders.")):
            found |= _target(str(node.args[0].value), [])
    return found


def graph() -> dict[str, set[str]]:
    """Module -> the engine modules it imports (itself left out)."""
    modules = {module_name(p): p for p in sorted(ENGINE.rglob("*.py"))}
    return {m: imports(p) - {m} for m, p in modules.items() if not m.endswith("__init__")}


def layer(package: str) -> int:
    return next(i for i, row in enumerate(LAYERS) if package in row)


def test_every_folder_has_a_place_in_the_layers():
    folders = {p.name for p in ENGINE.iterdir() if (p / "__init__.py").is_file()}
    assert folders | {"cli"} == {name for row in LAYERS for name in row}
    assert {p.name for p in ENGINE.glob("*.py")} == {"__init__.py", "cli.py"}, "a module belongs in a folder"


def test_nothing_shipped_reaches_an_instructor_only_folder_but_the_known_reaches():
    reaches = {(src, dst) for src, targets in graph().items() for dst in targets
               if folder(src) in SHIPPED and folder(dst) not in SHIPPED}
    assert reaches == KNOWN_REACHES, "a reach gone: take it out of KNOWN_REACHES; a new one: move the code"


def test_no_import_runs_back_up_the_layers():
    upward = {(src, dst) for src, targets in graph().items() for dst in targets
              if folder(src) != folder(dst) and layer(folder(dst)) >= layer(folder(src))}
    assert upward - KNOWN_REACHES == set()


def test_no_circle_between_folders():
    edges = {(folder(src), folder(dst)) for src, targets in graph().items() for dst in targets
             if folder(src) != folder(dst)}
    seen: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(node: str, path: list[str]) -> None:
        seen[node] = 1
        for a, b in sorted(edges):
            if a == node:
                assert seen.get(b) != 1, "import circle: " + " -> ".join([*path, b])
                if b not in seen:
                    visit(b, [*path, b])
        seen[node] = 2

    for start in sorted({a for a, _ in edges}):
        if start not in seen:
            visit(start, [start])
    assert ("scoring", "sandboxing") in edges  # the graph is the real one


def test_the_bundle_ships_exactly_the_shipped_folders():
    shipped = {"__init__"} | {module_name(p) for name in SHIPPED for p in (ENGINE / name).glob("*.py")}
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
