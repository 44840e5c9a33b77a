"""The game seam's shape, checked: only the game modules decide the kind of game.

The engine asks an edition's game through :class:`graders.games.game.Game`, picked once by
:func:`graders.games.game.game_of` from the ``[game]`` table's ``kind``. No other module reads the kind
or imports a kind's model (:mod:`graders.games.analysis`, :mod:`graders.games.tactics`) directly, so a third kind
of game touches the game modules and the editions' data only.
"""

from __future__ import annotations

import ast

import pytest

from graders.editions.edition import edition_names, load_edition
from graders.games import game

from .. import scanner

GAME_MODULES = {"game", "kinds"}  # the seam: the interface and factory, and the table's keys kind by kind
MODELS = {"analysis", "tactics"}  # a kind's model: only the seam (and one model, for the other's kernel) imports it
ALLOWED_IMPORTS = {
    # tactics solves its pairs in the compiled loop analysis builds (graders/games/kernel.c): one model
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
    """The kind models TREE reaches in any form, as the shared scanner finds them: ``from graders.games
    import analysis``, ``from graders.games.analysis import x``, ``import graders.games.analysis`` or
    the module's name as a string (``importlib``)."""
    return {target.split("/")[1] for target in scanner.imports(tree) if target in {f"games/{m}" for m in MODELS}}


def test_nothing_outside_the_game_modules_decides_the_kind_of_game():
    for module in scanner.modules():
        name, tree = module.stem, module.tree
        if module.folder == "games" and name in GAME_MODULES:
            continue
        lines = kind_reads(tree)
        assert not lines, f"{name}.py reads the kind of game at lines {lines}: ask graders.games.game"
        reached = {m for m in model_imports(tree) if m != name and (name, m) not in ALLOWED_IMPORTS}
        assert not reached, f"{name}.py imports {sorted(reached)}: go through graders.games.game.game_of"


def test_the_scan_sees_a_kind_decided_elsewhere():
    tree = ast.parse('from graders.games import tactics\nif edition.game.kind == "tactic":\n    pass\n'
                     'x = importlib.import_module("graders.games.analysis")\n')
    assert kind_reads(tree) == [2, 2]
    assert model_imports(tree) == {"tactics", "analysis"}
    assert model_imports(ast.parse("from graders.games.tactics import best_response")) == {"tactics"}
    assert model_imports(ast.parse("import graders.games.analysis")) == {"analysis"}


@pytest.mark.parametrize("name", edition_names())
def test_each_edition_gets_the_game_of_its_kind(name):
    edition = load_edition(name)
    chosen = game.game_of(edition)
    assert isinstance(chosen, game.Game) and type(chosen) is game.KINDS[edition.game.kind]
    assert chosen.modelled()


def test_every_kind_implements_the_whole_interface():
    for cls in game.KINDS.values():
        assert not getattr(cls, "__abstractmethods__", None), cls


def test_a_kind_is_declared_in_the_game_modules_alone():
    """Every kind named in one of the game modules' tables is named in all of them, and the shipped
    loader declares no key that belongs to one kind: a third kind changes nothing a student's copy
    carries."""
    from graders.editions.edition import GAME_KEYS
    from graders.games import kinds

    assert set(kinds.KIND_KEYS) == set(kinds.KIND_MOVES) == set(kinds.KIND_NEEDS) == set(game.KINDS)
    own = {key for keys in kinds.KIND_KEYS.values() for key in keys}
    assert not own & set(GAME_KEYS)
    assert set(kinds.KIND_MOVES.values()) <= set(GAME_KEYS)
