"""The game seam's shape, checked: only the game modules decide the kind of game.

The engine asks an edition's game through :class:`graders.game.Game`, picked once by
:func:`graders.game.game_of` from the ``[game]`` table's ``kind``. No other module reads the kind
or imports a kind's model (:mod:`graders.analysis`, :mod:`graders.tactics`) directly, so a third kind
of game touches the game modules and the editions' data only.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from graders import game
from graders.edition import edition_names, load_edition

ENGINE = Path(__file__).resolve().parents[2] / "graders"
GAME_MODULES = {"game", "gamekind"}  # the seam: the interface and factory, and the table's keys kind by kind
MODELS = {"analysis", "tactics"}  # a kind's model: only the seam (and one model, for the other's kernel) imports it
ALLOWED_IMPORTS = {
    # tactics solves its pairs in the compiled loop analysis builds (graders/kernel.c): one model
    # using the other's kernel, not a decision about the kind.
    ("tactics", "analysis"),
}


def kind_reads(tree: ast.Module) -> list[int]:
    """Lines that read a game table's kind: ``<x>.game.kind`` (the settings) or ``<x>["kind"]`` on a
    table named game (the raw manifest)."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr in ("kind", "turn")
                and isinstance(node.value, ast.Attribute) and node.value.attr == "game"):
            found.append(node.lineno)
        elif (isinstance(node, ast.Compare) and any(isinstance(c, ast.Constant) and c.value in ("tactic", "dice")
                                                     for c in node.comparators)):
            found.append(node.lineno)
    return found


def model_imports(tree: ast.Module) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "graders":
                found.update(a.name for a in node.names if a.name in MODELS)
            elif node.module.removeprefix("graders.") in MODELS:
                found.add(node.module.removeprefix("graders."))
        elif isinstance(node, ast.Import):
            names = (a.name.removeprefix("graders.") for a in node.names)
            found.update(n for n in names if n in MODELS)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in {f"graders.{m}"
                                                                                               for m in MODELS}:
            found.add(node.value.removeprefix("graders."))
    return found


def test_nothing_outside_the_game_modules_decides_the_kind_of_game():
    for path in sorted(ENGINE.glob("*.py")):
        name = path.stem
        if name in GAME_MODULES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not kind_reads(tree), f"{name}.py reads the kind of game at lines {kind_reads(tree)}: ask graders.game"
        reached = {m for m in model_imports(tree) if m != name and (name, m) not in ALLOWED_IMPORTS}
        assert not reached, f"{name}.py imports {sorted(reached)}: go through graders.game.game_of"


def test_the_scan_sees_a_kind_decided_elsewhere():
    tree = ast.parse('from graders import tactics\nif edition.game.kind == "tactic":\n    pass\n'
                     'x = importlib.import_module("graders.analysis")\n')
    assert kind_reads(tree) == [2, 2]
    assert model_imports(tree) == {"tactics", "analysis"}


@pytest.mark.parametrize("name", edition_names())
def test_each_edition_gets_the_game_of_its_kind(name):
    edition = load_edition(name)
    chosen = game.game_of(edition)
    assert isinstance(chosen, game.Game) and type(chosen) is game.KINDS[edition.game.kind]
    assert chosen.modelled()


def test_every_kind_implements_the_whole_interface():
    for cls in game.KINDS.values():
        assert not getattr(cls, "__abstractmethods__", None), cls
