"""The engine as the shape tests read it: one scanner for every test that walks graders/.

:func:`modules` parses every engine module once per process, keyed by its path under graders/
(``scoring/grading``, ``cli``), so two modules of one name in two folders never hide each other.
:func:`reaches` finds every way a tree reaches an engine module: ``import graders.x``, ``from
graders.x import y`` (at its top or inside a function) and a string naming one, handed to a call
(``importlib.import_module("graders.x")``, ``"-m", "graders.x"``) or standing alone as a dotted name.
:func:`graph` is every module with the modules it reaches, and :func:`circles` every path in a
graph that comes back to where it started. The tests of the layers (whole/test_shape.py), of the
engine's shape (whole/test_engine_shape.py), of the game seam (games/test_game_shape.py), of what
the student bundle reaches (authoring/test_bundle_python.py), of the error family
(core/test_errors.py) and of parsing (core/test_syntax.py) all read the engine through it.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import graders

ENGINE = Path(graders.__file__).resolve().parent
HOWS = ("import", "from", "name")  # every kind of reach: `import graders.x`, `from graders.x import y`, a string
NAMED = re.compile(r"\bgraders\.([A-Za-z_][\w.]*)")


@dataclass(frozen=True)
class Module:
    """One engine module: its file, its name under graders/ and its parsed tree (only read, never changed)."""

    path: Path
    name: str  # "scoring/grading"; "cli/parser"; "core/__init__"
    tree: ast.Module

    @property
    def folder(self) -> str:
        """The folder of graders/ the module is in ("scoring")."""
        return self.name.split("/")[0]

    @property
    def stem(self) -> str:
        return self.path.stem


@functools.cache
def modules() -> tuple[Module, ...]:
    """Every engine module, ``__init__`` files included, in the order of their paths: parsed once
    per process for the several tests that walk them."""
    return tuple(Module(p, p.relative_to(ENGINE).with_suffix("").as_posix(), ast.parse(p.read_text("utf-8"), str(p)))
                 for p in sorted(ENGINE.rglob("*.py")))


def module(name: str) -> Module:
    """The engine module NAME ("scoring/grading")."""
    return next(m for m in modules() if m.name == name)


def target(dotted: str, names: Iterable[str] = ()) -> set[str]:
    """What ``from DOTTED import NAMES`` (or ``import DOTTED``) reaches of the engine: its modules
    ("scoring/grading"), or the folder itself ("scoring") where no module of it is named."""
    parts = [p for p in dotted.split(".")[1:] if p]
    if len(parts) >= 2 or (len(parts) == 1 and (ENGINE / f"{parts[0]}.py").is_file()):
        return {"/".join(parts[:2])}
    base = ENGINE.joinpath(*parts)
    found = {"/".join([*parts, n]) for n in names
             if (base / f"{n}.py").is_file() or (base / n / "__init__.py").is_file()}
    return found or ({parts[0]} if parts else set())


@dataclass(frozen=True)
class Reach:
    """One way a tree reaches an engine module."""

    target: str  # "scoring/grading", or a folder ("scoring") where no module of it is named
    line: int
    how: str  # "import" (import graders.x), "from" (from graders.x import y), "name" (a string naming graders.x)
    top: bool  # made by a statement at the module's top level, not inside a function, class or block


def _strings(node: ast.AST) -> list[str]:
    """The strings that name a module at NODE: a call's string arguments (anywhere in them), and a
    string that is a dotted name of the engine by itself (the rest is prose: docstrings, messages)."""
    if isinstance(node, ast.Call):
        arguments = [*node.args, *(k.value for k in node.keywords)]
        return [m for a in arguments if isinstance(a, ast.Constant) and isinstance(a.value, str)
                for m in NAMED.findall(a.value)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(NAMED.pattern, node.value):
        return NAMED.findall(node.value)
    return []


def reaches(tree: ast.Module) -> list[Reach]:
    """Every way TREE reaches an engine module, anywhere in it."""
    top = {id(n) for n in tree.body}
    found: list[Reach] = []
    for node in ast.walk(tree):
        line, at_top = getattr(node, "lineno", 0), id(node) in top
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "graders":
            found += [Reach(t, line, "from", at_top) for t in target(node.module or "", [a.name for a in node.names])]
        elif isinstance(node, ast.Import):
            found += [Reach(t, line, "import", at_top) for a in node.names if a.name.startswith("graders.")
                      for t in target(a.name)]
        found += [Reach(t, line, "name", at_top) for dotted in _strings(node) for t in target("graders." + dotted)]
    return found


def imports(tree: ast.Module, hows: Iterable[str] = HOWS) -> set[str]:
    """The engine modules (or folders) TREE reaches in any of the ways HOWS."""
    wanted = set(hows)
    return {r.target for r in reaches(tree) if r.how in wanted}


def graph(hows: Iterable[str] = HOWS) -> dict[str, set[str]]:
    """Each engine module ("scoring/grading") -> the engine modules it reaches (itself and the
    ``__init__`` files left out: they hold nothing)."""
    return {m.name: imports(m.tree, hows) - {m.name} for m in modules() if m.stem != "__init__"}


def folders(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """EDGES between modules as edges between their folders (a folder's own imports left out)."""
    found: dict[str, set[str]] = {}
    for source, targets in edges.items():
        here = source.split("/")[0]
        found.setdefault(here, set()).update(t.split("/")[0] for t in targets if t.split("/")[0] != here)
    return found


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every path of EDGES that comes back to where it started, shortest first, once per circle."""
    found: list[list[str]] = []
    for start in sorted(edges):
        paths = [[start]]
        while paths:
            path = paths.pop(0)
            for nxt in sorted(edges.get(path[-1], ())):
                if nxt == start and sorted(path) not in [sorted(c) for c in found]:
                    found.append(path)
                elif nxt not in path and nxt > start:
                    paths.append(path + [nxt])
    return found
