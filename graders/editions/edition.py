"""Editions: the records an edition's manifest describes, and where its files live.

Contract: an edition named ``NAME`` is the folder ``tests/editions/NAME/`` holding ``edition.toml`` (phases,
problems, points, dependencies, shape rules), the case files ``qNN*.toml``, plus
``solution/NAME/`` (the marked reference), ``skeleton/NAME/`` (generated) and ``handouts/NAME/``.
Loading never guesses: a manifest with an unknown key, an undeclared phase, a repeated problem
number or a dependency on a later problem is rejected with a message naming the file and the key.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from graders.core import messages
from graders.core.errors import EditionError, InputError
from graders.core.tables import Key, check_table, check_value, one_of, positive, within
from graders.editions import messages as editions_messages

DEFAULT_EDITION = "boar_brawl"
RULE_KINDS = ("forbid", "uses")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# The most dice a strategy may be asked to choose: a strategy's table shows each choice as one character
# (graders.sandboxing.probes.CHOICES: 0-9, X for 10, then the other capital letters).
MOST_DICE = 35
EDITIONS = Path("tests", "editions")  # under the kit root: one folder per edition (manifest, cases, questions)


def a_name(value: Any) -> str:
    return "" if NAME.match(value) else "a Python name"


# Every table of a manifest, declared once: what each key holds and its default (see graders.core.tables).
TOP_KEYS = {
    "name": Key(str, ""), "title": Key(str), "submission": Key(str, "hog.py"), "module": Key(str, ""),
    "support": Key(list, [], items=str), "student_files": Key(list, None, items=str), "setup": Key(str, ""),
    "case_timeout": Key(float, 5.0, check=positive), "run_timeout": Key(float, 120.0, check=positive),
    "checkpoint": Key(dict, None), "phases": Key(list, items=dict), "problems": Key(list, items=dict),
    "gui": Key(dict, None), "game": Key(dict, None),
    "course_points": Key(int, 0, check=within(0, 10_000)),
}
PHASE_KEYS = {"number": Key(int), "name": Key(str)}
PROBLEM_KEYS = {
    "number": Key(int), "label": Key(str, "", check=lambda v: "" if LABEL.fullmatch(v) else "a label such as '05a'"),
    "title": Key(str), "phase": Key(int), "points": Key(int, check=within(0, 10_000)),
    "functions": Key(list, [], items=str), "depends": Key(list, [], items=(int, str)),
    "rules": Key(list, [], items=dict),
    "case_timeout": Key(float, None, check=positive), "optional": Key(bool, False),
}
RULE_KEYS = {"kind": Key(str, check=one_of(*RULE_KINDS)), "function": Key(str), "names": Key(list, items=str),
             "required": Key(bool, None), "helpers": Key(bool, True)}
CHECKPOINT_KEYS = {"phase": Key(int), "points": Key(int), "label": Key(str, "Checkpoint")}
# [game]: the game, one table whatever its kind. These are the keys every kind shares: which kind, the goal
# and baseline strategy as expressions, the die a turn uses, and what a move is (a number of dice from
# dice[0] to dice[1], or one of ACTIONS). Every other key belongs to a kind and is kept as written
# (GameSettings.table); the instructor's side checks it (graders.games.kinds) before modelling the game.
GAME_KEYS = {
    "kind": Key(str, check=lambda v: "" if NAME.match(v) else "the name of a kind of game"),
    "goal": Key(str, "GOAL"), "baseline": Key(str, ""), "sides": Key(str, "6"),
    "dice": Key(list, [0, 10], items=int, check=lambda v: "" if len(v) == 2 and 0 <= v[0] <= v[1] <= MOST_DICE
                else editions_messages.expected_dice_range(MOST_DICE)),
    "actions": Key(list, [], items=str),
}
ANY_VALUE = Key((str, int, float, bool, list, dict))  # a kind's own key: its type is the kind's to check
# [gui]: how the web page plays a game and explains each turn (graders.gui.gamelog).
GUI_KEYS = {
    "play": Key(str), "goal": Key(int, 100, check=within(1, 1000)),
    "factories": Key(list, [], items=str), "opponent": Key(str, ""), "commentary": Key(str, ""),
    "variants": Key(list, [{"id": "standard", "name": "Standard rules"}], items=dict),
    "numbers": Key(dict, {}, items=str), "events": Key(list, [], items=dict), "memory": Key(str, ""),
    # Functions shaped like a strategy that a computer player must not be offered (one that asks a
    # person at the keyboard, say).
    "hidden": Key(list, [], items=str),
    # A game that does not take the page's dice as an argument: its die functions (name -> sides) are
    # swapped for the page's while a game runs; ``scored_by`` names the function whose return value is
    # a turn's points; ``returns`` says what play returns; ``remarks`` are the submission's own words
    # on each action of a tactic game (see REMARK_KEYS).
    "die_functions": Key(dict, {}, items=int), "scored_by": Key(str, "", check=lambda v: v and a_name(v)),
    "returns": Key(str, "scores", check=one_of("scores", "winner")), "remarks": Key(list, [], items=dict),
    "factory_numbers": Key(list, None, items=int, check=lambda v: "" if len(v) == 2 and 0 <= v[0] <= v[1] <= 1000
                           else editions_messages.EXPECTED_NUMBER_RANGE),
}
VARIANT_KEYS = {"id": Key(str, check=a_name), "name": Key(str), "about": Key(str, ""), "update": Key(str, ""),
                "exact": Key(bool, False)}
EVENT_KEYS = {"rule": Key(str), "when": Key(str), "text": Key(str)}
# [[gui.remarks]]: what the submission says of each action: SAY an expression over ``action`` and
# ``outcome`` giving a str, SPOKEN when the page puts the player's name before it (a sentence, not art).
REMARK_KEYS = {"say": Key(str), "spoken": Key(bool, False)}


@dataclass(frozen=True)
class Rule:
    """One declared shape rule, checked on the submission's source before any code runs."""

    kind: str  # "forbid" or "uses"
    function: str
    names: tuple[str, ...]
    problem: str  # the label of the problem it belongs to
    required: bool = True  # False: advice, reported but never costing points
    helpers: bool = True  # False: the function's own code alone (what it nests), not the helpers it calls


@dataclass(frozen=True)
class Problem:
    """One problem. Its LABEL ("02", or "05a" for a part) names it everywhere: in ``-q``, in the case
    files (``q05a.toml``), in the solution's markers (``# BEGIN PROBLEM 5a``) and in every report;
    NUMBER orders problems and is shared by the parts of one problem."""

    number: int
    label: str
    title: str
    phase: int
    points: int
    functions: tuple[str, ...]
    depends: tuple[str, ...]  # the labels of the problems whose functions its cases call
    rules: tuple[Rule, ...]
    timeout: float
    optional: bool = False


@dataclass(frozen=True)
class Phase:
    number: int
    name: str


@dataclass(frozen=True)
class Checkpoint:
    phase: int
    points: int
    label: str


@dataclass(frozen=True)
class GameSettings:
    """The ``[game]`` table: the keys every kind shares, and the whole table as written (``table``),
    whose other keys belong to its kind (checked and read by :mod:`graders.games.kinds`, on the
    instructor's side; :mod:`graders.games.game` picks the game's model by ``kind``).

    A move is a number of dice from ``dice[0]`` to ``dice[1]`` or, where the table names
    ``actions``, one of them: a tactic, called with the turn total before each action, returns one
    (the reference's functions ``action(turn_total, outcome) -> (points scored, new turn total,
    whether the turn is over)``). ``sides`` is an expression over ``score`` and ``opponent_score``
    for the die a turn uses, ``goal`` one for the goal score; ``baseline`` the reference strategy
    results are compared against ("": the kind's own). ``where`` names the file and table.
    """

    kind: str = "dice"
    actions: tuple[str, ...] = ()
    sides: str = "6"
    goal: str = "GOAL"
    baseline: str = ""
    dice: tuple[int, int] = (0, 10)  # the fewest and most dice a strategy may choose
    where: str = "[game]"
    table: Mapping[str, Any] = field(default_factory=dict, compare=False)  # every key, as written


@dataclass(frozen=True)
class GuiTable:
    """The ``[gui]`` table: how the web page plays the game and explains each turn, one field per
    key of :data:`GUI_KEYS`, every key checked and its default filled in. Its expressions are
    compiled, and its variants and events made records, by :func:`graders.gui.gamelog.gui_settings`."""

    play: str  # the call that starts a game
    goal: int
    factories: tuple[str, ...]  # strategy factories a computer player may be made with
    opponent: str  # the computer player offered first
    commentary: str  # an expression for the commentary play is given ("": none)
    variants: tuple[Mapping[str, Any], ...]  # the rules a player may pick: each a table of VARIANT_KEYS
    numbers: Mapping[str, str]  # [gui.numbers]: name -> expression, in order
    events: tuple[Mapping[str, str], ...]  # [[gui.events]]: each a table of EVENT_KEYS
    memory: str  # the number a player's next turn sees as ``last`` ("": none)
    hidden: tuple[str, ...]
    die_functions: Mapping[str, int]
    scored_by: str
    returns: str
    remarks: tuple[Mapping[str, Any], ...]  # [[gui.remarks]]: each a table of REMARK_KEYS
    factory_numbers: tuple[int, int] | None  # None: the game's dice range


@dataclass(frozen=True)
class Edition:
    name: str
    title: str
    root: Path  # the kit's root folder (a student's project folder for a student copy)
    submission: str  # the one file a student changes, e.g. "hog.py"
    module: str  # its module name, e.g. "hog"
    support: tuple[str, ...]  # files copied next to the submission from SUPPORT_DIR
    student_files: tuple[str, ...]  # what a student's folder holds besides tests/ and the runner
    setup: str  # code run before every case
    phases: tuple[Phase, ...]
    problems: tuple[Problem, ...]
    checkpoint: Checkpoint | None
    run_timeout: float
    suite_dir: Path  # where edition.toml and the case files are
    support_dir: Path  # where the support files (dice.py, ucb.py) are taken from
    gui: GuiTable | None = field(default=None, compare=False)  # [gui], checked (None: the edition has none)
    game: GameSettings = field(default_factory=GameSettings, compare=False)  # [game] (graders.games.game)
    course_points: int = 0  # what the points are worth in the course's own total (0: the points themselves)

    @property
    def solution_dir(self) -> Path:
        return self.root / "solution" / self.name

    @property
    def skeleton_dir(self) -> Path:
        return self.root / "skeleton" / self.name

    @property
    def handout_dir(self) -> Path:
        return self.root / "handouts" / self.name

    @property
    def max_points(self) -> int:
        return sum(p.points for p in self.problems)

    def problem(self, key: int | str) -> Problem:
        """The problem KEY names: a label ("05a", "q05a", "5a") or a number (2 for "02")."""
        label = problem_label(key)
        for p in self.problems:
            if p.label == label:
                return p
        parts = [p.label for p in self.problems if p.label[:-1] == label and not p.label[-1].isdigit()]
        raise InputError(editions_messages.unknown_problem(
            label, self.problems[0].label, self.problems[-1].label, parts))

    def labels(self, keys: Iterable[int | str] | None) -> list[str] | None:
        """The labels of the problems KEYS name, in the edition's order; None for None (all)."""
        if keys is None:
            return None
        wanted = {self.problem(k).label for k in keys}
        return [p.label for p in self.problems if p.label in wanted]

    def case_files(self, key: int | str) -> list[Path]:
        """The case files of problem KEY: ``qNN.toml`` then ``qNN.*.toml`` in name order (in a
        student's copy, ``qNN.json``)."""
        label = problem_label(key)
        main = [self.suite_dir / f"q{label}.{suffix}" for suffix in ("toml", "json")]
        extra = sorted(self.suite_dir.glob(f"q{label}.*.toml"))
        return [m for m in main if m.exists()] + extra

    def parse_numbers(self, raw: list[str] | None) -> list[str] | None:
        """Problem labels from ``-q`` values such as ``01``, ``1``, ``q01`` or ``05a``; None for all."""
        if not raw:
            return None
        return [self.problem(text).label for text in raw]


LABEL: re.Pattern[str] = re.compile(r"[qQ]?(\d+)([a-z]?)\Z")  # typed: PROBLEM_KEYS above uses it first


def problem_label(key: int | str) -> str:
    """The label a problem is known by: 2, "2", "02" and "q02" are "02"; "5a" and "q05a" are "05a".
    Text that names no problem that way is refused (an :class:`InputError`, as ``-q two`` is)."""
    if type(key) is int:
        return f"{key:02d}"
    match = LABEL.fullmatch(str(key).strip())
    if not match:
        raise InputError(editions_messages.problem_number_expected(str(key)))
    return f"{int(match.group(1)):02d}{match.group(2)}"


def read_toml(path: Path) -> dict:
    """A data file's contents: TOML (the kit's own files) or JSON (a student's copy, which must be
    read on Pythons without tomllib); an :class:`EditionError` naming the file and what is wrong."""
    return parse_toml(_read_text(path), path)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise EditionError(messages.broken_spec(str(path), str(exc))) from exc


def parse_toml(text: str, path: Path) -> dict:
    """TEXT, the contents of PATH, as :func:`read_toml` reads it."""
    try:
        if path.suffix == ".json":
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError(editions_messages.json_not_an_object())
            return data
        import tomllib  # novm: only the kit reads TOML, and it runs on Python 3.11 or newer

        return tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError and JSONDecodeError are ValueErrors
        raise EditionError(messages.broken_spec(str(path), str(exc))) from exc


PACKAGED = "_kit"  # the package's folder where a wheel carries the kit's data (see setup.py and kit_root)


def engine_modules(engine: Path) -> list[Path]:
    """The engine's Python modules under ENGINE (the graders/ folder), never the data a wheel carries there."""
    return [p for p in sorted(engine.rglob("*.py")) if PACKAGED not in p.relative_to(engine).parts]


def kit_root() -> Path:
    """The folder holding ``tests/`` and ``graders/``: ``$HOGKIT_ROOT``, the package's parent (a
    checkout), the current folder, or else the data an installed wheel carries in the package
    (``graders/_kit``, see setup.py)."""
    env = os.environ.get("HOGKIT_ROOT")
    candidates = [Path(env)] if env else []
    candidates += [Path(__file__).resolve().parents[2], Path.cwd()]
    for c in candidates:
        if (c / "tests").is_dir() and (c / "graders").is_dir():
            return c
    packaged = Path(__file__).resolve().parents[1] / PACKAGED
    if (packaged / EDITIONS).is_dir():
        return packaged
    raise EditionError(editions_messages.kit_not_found())


def course_root() -> Path | None:
    """A course's own folder of editions: the current folder when it holds ``tests/editions/`` and
    is no kit's checkout (where ``hogkit new-edition`` writes and a course keeps next term's
    edition); None otherwise. Its editions are listed beside the kit's, and a name is looked up
    there first."""
    here = Path.cwd()
    try:
        if not (here / EDITIONS).is_dir() or (here / "graders").is_dir() or here.resolve() == kit_root().resolve():
            return None  # (a kit's checkout, this one or another, is no course's folder)
    except (OSError, EditionError):
        return None
    return here.resolve()


def edition_roots() -> list[Path]:
    """Where editions are looked up, in order: the course's folder (:func:`course_root`), then the kit."""
    course = course_root()
    return ([course] if course else []) + [kit_root()]


def course_secrets() -> list[Path]:
    """The course's folders that hold its editions' cases and references (see :func:`course_root`):
    hidden from student code as the kit's own are."""
    course = course_root()
    return [f for f in (course / "tests", course / "solution") if f.is_dir()] if course else []


def edition_names(root: Path | None = None) -> list[str]:
    roots = [root] if root else edition_roots()
    return sorted({p.parent.name for r in roots for p in (r / EDITIONS).glob("*/edition.toml")})


def edition_home(name: str) -> Path | None:
    """The root (:func:`edition_roots`) that holds edition NAME, or None when none does."""
    return next((r for r in edition_roots() if (r / EDITIONS / name / "edition.toml").is_file()), None)


def load_edition(name: str = DEFAULT_EDITION, root: Path | None = None) -> Edition:
    """Read ``tests/editions/NAME/edition.toml`` into an :class:`Edition`; reject unknown names clearly."""
    given = root
    root = root or edition_home(name) or kit_root()
    path = root / EDITIONS / name / "edition.toml"
    if not path.is_file():
        raise EditionError(messages.unknown_edition(name, edition_names(given)))
    return _edition_of(name, root, path, _read_text(path))


@lru_cache(maxsize=64)
def _edition_of(name: str, root: Path, path: Path, text: str) -> Edition:
    """The edition a manifest's TEXT describes, parsed once while the text stays the same (an
    Edition is frozen, so every caller may share it)."""
    return parse_manifest(parse_toml(text, path), name, root, path)


STUDENT_MANIFEST = "edition.json"  # in a student's copy: tests/edition.json, the edition's manifest and name
SKELETON_DIGESTS = "skeleton.json"  # in a student's copy: what the stubs hold, to tell work from the skeleton


def student_manifest(folder: Path) -> Path | None:
    """FOLDER's ``tests/edition.json`` (a project folder's, or ``tests/edition.toml`` in an older
    one), or None when FOLDER is not a student's project folder."""
    for name in (STUDENT_MANIFEST, "edition.toml"):
        if (folder / "tests" / name).is_file():
            return folder / "tests" / name
    return None


def declared_edition(path: Path) -> str | None:
    """The edition a student's project folder declares in its manifest, for PATH (the folder, or a
    file in it), or the edition a kit's ``solution/NAME`` folder is the reference of; None when
    PATH is in neither."""
    folder = (path if path.is_dir() else path.parent).resolve()
    if folder.parent.name == "solution" and (folder.parent.parent / EDITIONS / folder.name / "edition.toml").is_file():
        return folder.name
    marker = student_manifest(folder)
    if marker is None or marker.is_symlink():  # a hand-in's link is never followed, not even to its manifest
        return None
    try:
        name = read_toml(marker).get("name")
    except (EditionError, OSError):  # one that cannot be read declares nothing
        return None
    return name if isinstance(name, str) and name else None


def load_student_edition(folder: Path) -> Edition:
    """The edition of a student's project folder: ``FOLDER/tests/edition.json``, support files beside it."""
    path = student_manifest(folder)
    if path is None:
        raise EditionError(editions_messages.not_a_project_folder(str(folder)))
    data = read_toml(path)
    return parse_manifest(data, str(data.get("name", folder.name)), folder, path, folder / "tests", folder)


def parse_manifest(
    data: dict, name: str, root: Path, path: Path, suite_dir: Path | None = None, support_dir: Path | None = None
) -> Edition:
    """DATA (a manifest's tables) as an :class:`Edition`, every table checked against its declared
    keys; an :class:`EditionError` names PATH, the table and the key of the first mistake."""
    where = str(path)
    top = check_table(data, TOP_KEYS, where)
    phases = tuple(Phase(**check_table(ph, PHASE_KEYS, f"{where} [[phases]] #{k}"))
                   for k, ph in enumerate(top["phases"], start=1))
    problems = _problems(top["problems"], {ph.number for ph in phases}, top["case_timeout"], where)
    submission = top["submission"]
    stem = Path(submission).stem
    return Edition(
        name=name,
        title=top["title"],
        root=root,
        submission=submission,
        module=top["module"] or stem,
        support=tuple(top["support"]),
        student_files=tuple(top["student_files"] if top["student_files"] is not None else [submission]),
        setup=top["setup"] or f"from {stem} import *",
        phases=phases,
        problems=problems,
        checkpoint=_checkpoint(top["checkpoint"], where),
        run_timeout=top["run_timeout"],
        suite_dir=suite_dir or root / EDITIONS / name,
        support_dir=support_dir or root / "solution" / name,
        gui=_gui(top["gui"], where),
        game=_game(top["game"], where),
        course_points=top["course_points"],
    )


def _problems(tables: list[dict], phase_numbers: set[int], default_timeout: float, where: str
              ) -> tuple[Problem, ...]:
    problems: list[Problem] = []
    for raw in tables:
        pwhere = f"{where} [[problems]] number={raw.get('label') or raw.get('number', '?')}"
        values = check_table(raw, PROBLEM_KEYS, pwhere)
        label = problem_label(values["label"] or values["number"])
        if int(label.rstrip("abcdefghijklmnopqrstuvwxyz")) != values["number"]:
            raise EditionError(messages.table_wrong_type(
                f"{pwhere} label", editions_messages.expected_label_of(values["number"]), repr(values["label"])))
        if values["phase"] not in phase_numbers:
            raise EditionError(editions_messages.manifest_undeclared_phase(pwhere, values["phase"]))
        if any(p.label == label for p in problems):
            raise EditionError(editions_messages.manifest_repeated_problem(pwhere, label))
        timeout = values["case_timeout"] if values["case_timeout"] is not None else default_timeout
        rules = tuple(_rule(r, label, f"{pwhere} [[problems.rules]] #{k}")
                      for k, r in enumerate(values["rules"], start=1))
        depends = tuple(_label_in(d, f"{pwhere} depends") for d in values["depends"])
        problems.append(Problem(values["number"], label, values["title"], values["phase"], values["points"],
                                tuple(values["functions"]), depends, rules, timeout, values["optional"]))
    problems.sort(key=lambda p: (p.number, p.label))
    order = {p.label: k for k, p in enumerate(problems)}
    for p in problems:
        for d in p.depends:
            if order.get(d, len(problems)) >= order[p.label]:
                raise EditionError(editions_messages.manifest_bad_dependency(where, p.label, d))
    return tuple(problems)


def _label_in(key: int | str, where: str) -> str:
    try:
        return problem_label(key)
    except InputError as exc:
        raise EditionError(messages.table_wrong_type(
            where, editions_messages.EXPECTED_PROBLEM_LABEL, repr(key))) from exc


def _rule(raw: dict, problem: str, where: str) -> Rule:
    values = check_table(raw, RULE_KEYS, where)
    # The seed's "must not use" is required; its "you should use" is advice unless declared required.
    required = values["required"] if values["required"] is not None else values["kind"] == "forbid"
    return Rule(values["kind"], values["function"], tuple(values["names"]), problem, required, values["helpers"])


def _checkpoint(raw: dict | None, where: str) -> Checkpoint | None:
    if raw is None:
        return None
    return Checkpoint(**check_table(raw, CHECKPOINT_KEYS, f"{where} [checkpoint]"))


def _gui(raw: dict | None, where: str) -> GuiTable | None:
    """The ``[gui]`` table with every key checked and defaults filled in (None when there is none)."""
    if raw is None:
        return None
    gwhere = f"{where} [gui]"
    values = check_table(raw, GUI_KEYS, gwhere)
    for f in values["factories"]:
        check_value(f, Key(str, check=a_name), f"{gwhere} factories")
    tables = {name: tuple(MappingProxyType(check_table(t, keys, f"{gwhere} {name}[{i}]"))
                          for i, t in enumerate(values[name]))
              for name, keys in (("variants", VARIANT_KEYS), ("events", EVENT_KEYS), ("remarks", REMARK_KEYS))}
    for key in values["numbers"]:
        check_value(key, Key(str, check=a_name), f"{gwhere}.numbers")
    for key, sides in values["die_functions"].items():
        check_value(key, Key(str, check=a_name), f"{gwhere} die_functions")
        check_value(sides, Key(int, check=within(2, 20)), f"{gwhere} die_functions {key}")
    given = values["factory_numbers"]
    return GuiTable(**{**values, **tables, "factories": tuple(values["factories"]), "hidden": tuple(values["hidden"]),
                       "numbers": MappingProxyType(values["numbers"]),
                       "die_functions": MappingProxyType(values["die_functions"]),
                       "factory_numbers": (given[0], given[1]) if given is not None else None})


def _game(raw: dict | None, where: str) -> GameSettings:
    if raw is None:
        return GameSettings()
    gwhere = f"{where} [game]"
    values = check_table(raw, GAME_KEYS, gwhere, extra=ANY_VALUE)
    for key in ("sides", "goal", "baseline"):
        if values[key]:
            check_expression(values[key], f"{gwhere} {key}")
    for name in values["actions"]:
        check_value(name, Key(str, check=a_name), f"{gwhere} actions")
    return GameSettings(values["kind"], tuple(values["actions"]), values["sides"], values["goal"], values["baseline"],
                        (values["dice"][0], values["dice"][1]), gwhere, MappingProxyType(copy.deepcopy(raw)))


def check_expression(source: str, where: str) -> None:
    """SOURCE must be a Python expression (it is evaluated in the reference's namespace later)."""
    from graders.core import syntax

    try:
        syntax.parse(source, where, "eval")
    except SyntaxError as exc:
        shown = f"{source!r} ({exc.msg})"
        raise EditionError(messages.table_wrong_type(where, messages.EXPECTED_EXPRESSION, shown)) from exc
