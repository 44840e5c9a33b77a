"""A labelled corpus for the similarity report: honest students and disguised copies of Boar Brawl.

Honest students each take, per problem function, one of several genuinely different correct
implementations (the reference's, the course-style submission's, and a third written here), then
their own small correctness-keeping habits (operands in the other order, ``x += 1`` or
``x = x + 1``, their own names), and a final strategy of their own. A copy takes one honest
student's file and disguises it: renamed names, reordered functions, changed comments and
docstrings, dead code and prints, ``for`` turned into ``while``, split expressions, a notebook
instead of ``hog.py``, all of them at once; a partial copy takes one function only.
:func:`build` writes the corpus to a folder and returns the copy pairs (the labels).
"""

from __future__ import annotations

import ast
import json
import random
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EDITION = "boar_brawl"
ASKED = ("roll_dice", "boar_brawl", "take_turn", "num_factors", "sus_points", "sus_update", "play", "always_roll",
         "is_always_roll", "make_averaged", "max_scoring_num_rolls", "boar_strategy", "sus_strategy")
DISGUISES = ("rename", "reorder", "comments", "dead_code", "for_while", "split", "notebook")

THIRD = '''
def roll_dice(num_rolls, dice=six_sided):
    rolls = [dice() for _ in range(num_rolls)]
    if 1 in rolls:
        return 1
    return sum(rolls)

def boar_brawl(player_score, opponent_score):
    tens = opponent_score % 100 // 10
    diff = tens - player_score % 10
    if diff < 0:
        diff = -diff
    return max(1, diff * 3)

def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
    return boar_brawl(player_score, opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)

def num_factors(n):
    return len([d for d in range(1, n + 1) if n % d == 0])

def sus_points(score):
    if num_factors(score) in [3, 4]:
        candidate = score + 1
        while True:
            if is_prime(candidate):
                return candidate
            candidate += 1
    return score

def sus_update(num_rolls, player_score, opponent_score, dice=six_sided):
    new_score = player_score + take_turn(num_rolls, player_score, opponent_score, dice)
    return sus_points(new_score)

def play(strategy0, strategy1, update, score0=0, score1=0, dice=six_sided, goal=GOAL):
    who = 0
    while score0 < goal and score1 < goal:
        if who:
            score1 = update(strategy1(score1, score0), score1, score0, dice)
        else:
            score0 = update(strategy0(score0, score1), score0, score1, dice)
        who = 1 - who
    return score0, score1

def always_roll(n):
    def roller(score, opponent_score):
        return n
    return roller

def is_always_roll(strategy, goal=GOAL):
    first = strategy(0, 0)
    return all(strategy(a, b) == first for a in range(goal) for b in range(goal))

def make_averaged(original_function, samples_count=1000):
    def averaged(*args):
        results = [original_function(*args) for _ in range(samples_count)]
        return sum(results) / len(results)
    return averaged

def max_scoring_num_rolls(dice=six_sided, samples_count=1000):
    averaged = make_averaged(roll_dice, samples_count)
    averages = [averaged(k, dice) for k in range(1, 11)]
    return averages.index(max(averages)) + 1

def boar_strategy(score, opponent_score, threshold=11, num_rolls=6):
    if boar_brawl(score, opponent_score) < threshold:
        return num_rolls
    return 0

def sus_strategy(score, opponent_score, threshold=11, num_rolls=6):
    after = sus_update(0, score, opponent_score)
    if after - score < threshold:
        return num_rolls
    return 0
'''

FINALS = (
    '''def final_strategy(score, opponent_score):
    if sus_update(0, score, opponent_score) >= GOAL:
        return 0
    if score - opponent_score > {a}:
        return {b}
    return sus_strategy(score, opponent_score, {c}, {d})
''',
    '''def final_strategy(score, opponent_score):
    gain = sus_update(0, score, opponent_score) - score
    if gain >= {c} or score + gain >= GOAL:
        return 0
    if opponent_score > score + {a}:
        return {d} + 1
    return {d}
''',
    '''def final_strategy(score, opponent_score):
    zero = sus_update(0, score, opponent_score)
    need = GOAL - score
    if zero >= GOAL or zero - score >= {c}:
        return 0
    if need < {a}:
        return {b}
    return {d}
''',
)


@dataclass(frozen=True)
class Corpus:
    folder: Path
    honest: tuple[str, ...]
    copies: tuple[tuple[str, str, str], ...]  # (original, copy, how it was disguised)

    def is_copy(self, a: str, b: str) -> bool:
        return any({a, b} == {x, y} for x, y, _ in self.copies)


def _functions(source: str) -> dict[str, str]:
    return {n.name: ast.unparse(n) for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)}


def variants() -> dict[str, list[str]]:
    """Per asked function, its independent correct versions (docstrings and the skeleton's asserts kept)."""
    reference = _functions((ROOT / "solution" / EDITION / "hog.py").read_text(encoding="utf-8"))
    other = _functions((ROOT / "tests" / "kit" / "submissions" / EDITION / "other_style_hog.py").read_text("utf-8"))
    third = _functions(THIRD)
    return {name: [reference[name], other[name], third[name]] for name in ASKED}


class _Habits(ast.NodeTransformer):
    """A student's own correctness-keeping habits, drawn once per student."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.swap, self.aug = rng.random(), rng.random() < 0.5

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, (ast.Add, ast.Mult)) and self.rng.random() < self.swap and not _texty(node):
            node.left, node.right = node.right, node.left
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        mirror = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE, ast.Eq: ast.Eq,
                  ast.NotEq: ast.NotEq}
        if len(node.ops) == 1 and type(node.ops[0]) in mirror and self.rng.random() < self.swap:
            return ast.Compare(node.comparators[0], [mirror[type(node.ops[0])]()], [node.left])
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        if self.aug and isinstance(node.target, ast.Name):
            load = ast.Name(node.target.id, ast.Load())
            return ast.Assign([ast.Name(node.target.id, ast.Store())], ast.BinOp(load, node.op, node.value))
        return node


def _texty(node: ast.BinOp) -> bool:
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str) for n in ast.walk(node))


def honest_source(rng: random.Random, versions: dict[str, list[str]], skeleton: str) -> str:
    """One honest student's hog.py: the skeleton with each asked function one of its versions."""
    chosen = {name: rng.choice(options) for name, options in versions.items()}
    habits = _Habits(rng)
    own = {}
    for name, text in chosen.items():
        tree = habits.visit(ast.parse(text))
        own[name] = ast.unparse(ast.fix_missing_locations(tree))
    final = rng.choice(FINALS).format(a=rng.randint(5, 30), b=rng.randint(1, 4), c=rng.randint(7, 13),
                                      d=rng.randint(4, 7))
    own["final_strategy"] = final
    return _replace(skeleton, own)


def _replace(source: str, functions: dict[str, str]) -> str:
    """SOURCE with each top-level function named in FUNCTIONS replaced by its text."""
    tree = ast.parse(source)
    lines = source.splitlines()
    for node in sorted((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in functions),
                       key=lambda n: -n.lineno):
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        lines[first - 1:node.end_lineno] = functions[node.name].splitlines()
    return "\n".join(lines) + "\n"


# -- disguises ----------------------------------------------------------------------------------------

KEEP = {"six_sided", "make_test_dice", "GOAL", "is_prime", "simple_update", "print", "range", "len", "sum", "max",
        "min", "abs", "all", "any", "set", "type", "int", "True", "False", "None", "main", "trace", "interact"}


class _Rename(ast.NodeTransformer):
    def __init__(self, rng: random.Random, skeleton_names: set[str]) -> None:
        self.rng, self.fixed, self.names = rng, KEEP | skeleton_names, {}  # type: ignore[var-annotated]

    def _new(self, name: str) -> str:
        if name in self.fixed or name.startswith("__"):
            return name
        if name not in self.names:
            self.names[name] = f"{self.rng.choice(['val', 'tmp', 'x', 'item', 'acc', 'q'])}_{len(self.names)}"
        return self.names[name]

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self._new(node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self._new(node.arg)
        return node

    def visit_keyword(self, node: ast.keyword) -> ast.AST:
        self.generic_visit(node)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name = self._new(node.name)
        self.generic_visit(node)
        return node


def _skeleton_names(skeleton: str) -> set[str]:
    tree = ast.parse(skeleton)
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def rename(source: str, rng: random.Random, skeleton: str) -> str:
    """Every local name, argument and helper renamed (the asked functions keep their names: the
    kit grades by them). Keyword arguments at call sites go, so renamed parameters still bind."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            node.args += [k.value for k in node.keywords if k.arg is not None]
            node.keywords = [k for k in node.keywords if k.arg is None]
    return ast.unparse(_Rename(rng, _skeleton_names(skeleton)).visit(tree))


def reorder(source: str, rng: random.Random) -> str:
    tree = ast.parse(source)
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef) and not n.decorator_list]
    rest = [n for n in tree.body if n not in functions]
    rng.shuffle(functions)
    tree.body = [n for n in rest if not isinstance(n, ast.FunctionDef)] + functions + \
        [n for n in rest if isinstance(n, ast.FunctionDef)]
    return ast.unparse(tree)


def comments(source: str, rng: random.Random) -> str:
    """Docstrings removed or rewritten, comments added."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and len(node.body) > 1 and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str):
            if rng.random() < 0.5:
                node.body = node.body[1:]
            else:
                node.body[0].value.value = f"My own version of {node.name}."
    out = []
    for line in ast.unparse(tree).splitlines():
        if line.strip() and rng.random() < 0.25:
            out.append(line[:len(line) - len(line.lstrip())] + rng.choice(["# step", "# careful here", "# TODO"]))
        out.append(line)
    return "\n".join(out)


class _Dead(ast.NodeTransformer):
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.generic_visit(node)
        extra = [ast.parse(f"unused_{self.rng.randint(0, 99)} = {self.rng.randint(0, 9)}").body[0],
                 ast.parse("if False:\n    print('never')").body[0],
                 ast.parse(f"print('in {node.name}')").body[0]]
        at = 1 if len(node.body) > 1 else 0
        node.body[at:at] = self.rng.sample(extra, 2)
        return node


def dead_code(source: str, rng: random.Random) -> str:
    return ast.unparse(ast.fix_missing_locations(_Dead(rng).visit(ast.parse(source))))


class _ForWhile(ast.NodeTransformer):
    def visit_For(self, node: ast.For) -> ast.AST | list[ast.stmt]:
        self.generic_visit(node)
        call = node.iter
        if not (isinstance(node.target, ast.Name) and isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == "range" and 1 <= len(call.args) <= 2 and not node.orelse
                and not any(isinstance(n, ast.Continue) for n in ast.walk(node))):
            return node
        name = node.target.id if node.target.id != "_" else "count"
        start, stop = (ast.Constant(0), call.args[0]) if len(call.args) == 1 else call.args
        init = ast.Assign([ast.Name(name, ast.Store())], start)
        step = ast.AugAssign(ast.Name(name, ast.Store()), ast.Add(), ast.Constant(1))
        test = ast.Compare(ast.Name(name, ast.Load()), [ast.Lt()], [stop])
        return [init, ast.While(test, node.body + [step], [])]


def for_while(source: str) -> str:
    return ast.unparse(ast.fix_missing_locations(_ForWhile().visit(ast.parse(source))))


class _Split(ast.NodeTransformer):
    def visit_Return(self, node: ast.Return) -> ast.AST | list[ast.stmt]:
        if isinstance(node.value, (ast.BinOp, ast.Call, ast.IfExp, ast.BoolOp)):
            return [ast.Assign([ast.Name("result", ast.Store())], node.value),
                    ast.Return(ast.Name("result", ast.Load()))]
        return node


def split(source: str) -> str:
    return ast.unparse(ast.fix_missing_locations(_Split().visit(ast.parse(source))))


def notebook(source: str) -> str:
    """SOURCE as a Jupyter notebook: a cell per top-level statement group, with a markdown cell."""
    tree = ast.parse(source)
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# My Hog project\n"]}]
    for node in tree.body:
        text = ast.get_source_segment(source, node) or ast.unparse(node)
        if isinstance(node, ast.FunctionDef) and node.decorator_list:
            text = ast.unparse(node)
        cells.append({"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                      "source": [line + "\n" for line in text.splitlines()]})
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def disguise(source: str, how: tuple[str, ...], rng: random.Random, skeleton: str) -> tuple[str, str]:
    """SOURCE disguised in each way of HOW; the text and the file suffix."""
    if "for_while" in how:
        source = for_while(source)
    if "split" in how:
        source = split(source)
    if "dead_code" in how:
        source = dead_code(source, rng)
    if "rename" in how:
        source = rename(source, rng, skeleton)
    if "reorder" in how:
        source = reorder(source, rng)
    if "comments" in how:
        source = comments(source, rng)
    if "notebook" in how:
        return notebook(source), ".ipynb"
    return source + "\n", ".py"


def partial(own: str, original: str, function: str, rng: random.Random, skeleton: str) -> str:
    """OWN with FUNCTION taken from ORIGINAL, renamed."""
    taken = _functions(rename(original, rng, skeleton))[function]
    return _replace(own, {function: taken})


def build(folder: Path, honest: int = 40, seed: int = 7, partials: tuple[str, ...] = ("play", "final_strategy"),
          ) -> Corpus:
    """Write HONEST honest students, one copy per single disguise, two with every disguise, and a
    partial copy per function in PARTIALS (each from a different original) into FOLDER."""
    rng = random.Random(seed)
    skeleton = (ROOT / "skeleton" / EDITION / "hog.py").read_text(encoding="utf-8")
    versions = variants()
    folder.mkdir(parents=True, exist_ok=True)
    names = [f"honest{i:03d}" for i in range(honest)]
    sources = {}
    for name in names:
        sources[name] = honest_source(rng, versions, skeleton)
        (folder / f"{name}.py").write_text(sources[name], encoding="utf-8")
    originals = iter(rng.sample(names, len(DISGUISES) + 2 + len(partials)))
    copies = []
    plans = [(d,) for d in DISGUISES] + [DISGUISES, DISGUISES]
    for n, how in enumerate(plans):
        original = next(originals)
        text, suffix = disguise(sources[original], how, rng, skeleton)
        copy_name = f"copy{n:02d}_{'all' if len(how) > 1 else how[0]}"
        (folder / f"{copy_name}{suffix}").write_text(text, encoding="utf-8")
        copies.append((original, copy_name, "+".join(how)))
    for function in partials:
        original = next(originals)
        own = honest_source(rng, versions, skeleton)
        name = f"partial_{function}"
        (folder / f"{name}.py").write_text(partial(own, sources[original], function, rng, skeleton), encoding="utf-8")
        copies.append((original, name, f"one function: {function}"))
    return Corpus(folder, tuple(names), tuple(copies))


BROKEN = ("syntax error", "empty", "not Python")


def course_class(folder: Path, size: int, seed: int = 5, broken_every: int = 50) -> dict[str, str]:
    """Write a course-sized class of SIZE hand-ins into FOLDER: honest students (see
    :func:`honest_source`), one in BROKEN_EVERY broken in turn as BROKEN says: a syntax error in one
    function (``play``), an empty file, a file that is not Python. Returns {broken student: how}."""
    rng = random.Random(seed)
    skeleton = (ROOT / "skeleton" / EDITION / "hog.py").read_text(encoding="utf-8")
    versions = variants()
    folder.mkdir(parents=True, exist_ok=True)
    broken: dict[str, str] = {}
    for k in range(size):
        name, source = f"student{k:04d}", honest_source(rng, versions, skeleton)
        if k % broken_every == broken_every - 1:
            how = broken[name] = BROKEN[len(broken) % len(BROKEN)]
            source = {"syntax error": break_function(source, "play"), "empty": "",
                      "not Python": "My project is in the attached PDF.\nThanks, and sorry!\n"}[how]
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
    return broken


def break_function(source: str, function: str) -> str:
    """SOURCE with a syntax error in FUNCTION's last line (an unclosed bracket), the rest as it was."""
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function)
    lines = source.splitlines()
    lines[(node.end_lineno or node.lineno) - 1] += " + ("
    return "\n".join(lines) + "\n"
