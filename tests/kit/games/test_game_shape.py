"""The game seam's shape, checked: only the game modules decide the kind of game, and only the
move kind tells a number of dice from an action.

The engine asks an edition's game through :class:`graders.games.game.Game`, picked once by
:func:`graders.games.game.game_of` from the ``[game]`` table's ``kind``. No other module reads the kind
or imports a kind's model (:mod:`graders.games.analysis`, :mod:`graders.games.tactics`) directly, so a third kind
of game touches the game modules and the editions' data only. On the side shipped to students, what a
move is (:mod:`graders.gui.moves`) is read once, and nothing else branches on it: no test of a
table's ``actions`` for truth, no ``"actions" in turn``, no comparison with the name of a kind or
move, no look at a table's number of dimensions. The page's script (``gui_static/hog.js``) picks its
functions for the move from its ``MOVES`` table once, and branches on the move nowhere else.
"""

from __future__ import annotations

import ast
import re

import pytest

from graders.editions.edition import edition_names, load_edition
from graders.games import game, kinds
from graders.gui import moves

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


# -- the shipped side: what a move is, read once ------------------------------------------------------

MOVE_KIND = "gui/moves"  # the typed move kind: the one shipped module that reads what a move is
NAMES = ("tactic", "dice", "actions")  # the names of a kind of game or of a move, never compared with


def _is_actions(node: ast.AST) -> bool:
    """NODE reads a table's actions: ``x.actions``, ``x["actions"]``, ``x.get("actions")``, or the length of one."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("len", "bool"):
        return any(_is_actions(a) for a in node.args)
    if isinstance(node, ast.Attribute):
        return node.attr == "actions"
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "actions"
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "actions")


def _tested(tree: ast.Module) -> list[ast.AST]:
    """Every expression TREE tests for truth: conditions, the operands of ``and``, ``or`` and ``not``,
    and what ``bool()`` is given."""
    found: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.IfExp, ast.While, ast.Assert)):
            found.append(node.test)
        elif isinstance(node, ast.comprehension):
            found += node.ifs
        elif isinstance(node, ast.BoolOp):
            found += node.values
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            found.append(node.operand)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "bool":
            found += node.args
    return found


def move_branches(tree: ast.Module) -> list[int]:
    """Lines that tell a number of dice from an action outside the move kind: a table's ``actions``
    tested for truth (or their length), ``"actions" in turn``, a comparison with the name of a kind or
    a move, or a table's ``ndim`` compared (a best-play table's shape)."""
    found = [node.lineno for node in _tested(tree) if _is_actions(node)]
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        if any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) and isinstance(node.left, ast.Constant) \
                and node.left.value == "actions":
            found.append(node.lineno)
        elif any(isinstance(s, ast.Constant) and s.value in NAMES for s in sides):
            found.append(node.lineno)
        elif any(isinstance(s, ast.Attribute) and s.attr == "ndim" for s in sides):
            found.append(node.lineno)
    return sorted(found)


def test_nothing_but_the_move_kind_tells_the_moves_apart():
    for module in scanner.modules():
        if module.folder == "games" or module.name == MOVE_KIND:
            continue
        lines = move_branches(module.tree)
        assert not lines, f"{module.name}.py tells the moves apart at lines {lines}: ask graders.gui.moves"


@pytest.mark.parametrize("source", [
    "if settings.actions:\n    pass\n",
    "fewest = 0 if game.actions else 1\n",
    "if not spec.get('actions'):\n    pass\n",
    "shown = [t for t in turns if 'actions' in t]\n",
    "ok = len(self.actions) and True\n",
    "if table.ndim == 3:\n    pass\n",
    "if move.kind == 'dice':\n    pass\n",
    "x = bool(turn['actions'])\n",
])
def test_the_scan_sees_a_move_told_apart_elsewhere(source: str) -> None:
    assert move_branches(ast.parse(source)) == [1]


def test_the_scan_lets_the_move_be_used() -> None:
    """Reading the actions as data, naming a kind in a table of choices, or asking the move, is no branch."""
    tree = ast.parse("names = list(settings.move.actions)\nturn = {'dice': count, 'actions': act}[spec['move']]\n"
                     "for action in turn['actions']:\n    pass\nif settings.move.by_action:\n    pass\n")
    assert move_branches(tree) == []


def test_every_kind_of_game_has_a_kind_of_move():
    """A kind of game's move is one the page knows: the [game] key that says what a move is names a
    move kind of graders.gui.moves (and every move kind is some game's)."""
    assert set(kinds.KIND_MOVES.values()) == {m.kind for m in moves.MOVES}


# -- the page's script --------------------------------------------------------------------------------

HOG_JS = scanner.ENGINE / "gui" / "gui_static" / "hog.js"
MOVES_TABLE = re.compile(r"^  const MOVES = \{\n.*?^  \};\n", re.S | re.M)  # the kinds of move, one entry each
JS_BRANCHES = {
    "a test of the kind": re.compile(r"\b(tactic|tacticTurn|isTactic|dicey?Game)\s*\("),
    "the setup's moves read past the move": re.compile(r"\bsetup\.(actions|dice)\b"),
    "a turn's shape tested": re.compile(r"Array\.isArray\([\w.]*\.actions\)|[\"']actions[\"']\s+in\b"),
    "actions tested for truth": re.compile(r"\b(if|while)\s*\(\s*[\w.]*\.actions(\.length)?\s*\)|"
                                           r"\.actions(\.length)?\s*(\?|&&|\|\|)|(!|Boolean\()\s*[\w.]*\.actions\b"),
    "a comparison with a kind": re.compile(r"[=!]==?\s*[\"'](dice|actions|tactic)[\"']|"
                                           r"[\"'](dice|actions|tactic)[\"']\s*[=!]=|\.kind\s*[=!]="),
}


def js_branches(script: str) -> list[tuple[int, str]]:
    """(line, what) for every place SCRIPT tells the moves apart outside its MOVES table, and (line 0)
    for a table missing or not picked exactly once (``MOVES[``, applySetup's one pick)."""
    table = MOVES_TABLE.search(script)
    blanked = script if table is None else script[:table.start()] + "\n" * table.group().count("\n") + \
        script[table.end():]
    found = [(blanked.count("\n", 0, m.start()) + 1, what) for what, pattern in JS_BRANCHES.items()
             for m in pattern.finditer(blanked)]
    picks = [m.start() for m in re.finditer(r"\bMOVES\[", blanked)]
    if table is None or len(picks) != 1:
        found.append((0, f"the MOVES table picked {len(picks)} times"))
    return sorted(found)


def test_the_page_picks_its_move_once():
    assert js_branches(HOG_JS.read_text(encoding="utf-8")) == []


def test_the_scan_sees_a_move_told_apart_in_the_page():
    script = HOG_JS.read_text(encoding="utf-8")
    planted = script.replace("  function turnLine(turn) {\n",
                             "  function turnLine(turn) {\n    if (tacticTurn(turn)) return null;\n"
                             "    if (game.setup.actions.length) return null;\n", 1)
    assert planted != script
    assert [what for _, what in js_branches(planted)] == ["a test of the kind", "actions tested for truth",
                                                          "the setup's moves read past the move"]
    twice = script.replace("  function finishWaiting(data) {\n",
                           "  function finishWaiting(data) {\n    MOVES[game.setup.move.kind].wait(data);\n", 1)
    assert js_branches(twice) == [(0, "the MOVES table picked 2 times")]
    in_table = script.replace("      key: onCountKey,\n", "      key: (e) => (e.key === \"dice\" ? 1 : 0),\n", 1)
    assert in_table != script and js_branches(in_table) == []  # inside the table, the kind's own
