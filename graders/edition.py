"""Editions: the records an edition's manifest describes, and where its files live.

Contract: an edition named ``NAME`` is the folder ``tests/NAME/`` holding ``edition.toml`` (phases,
problems, points, dependencies, shape rules), the case files ``qNN*.toml``, plus
``solution/NAME/`` (the marked reference), ``skeleton/NAME/`` (generated) and ``handouts/NAME/``.
Loading never guesses: a manifest with an unknown key, an undeclared phase, a repeated problem
number or a dependency on a later problem is rejected with a message naming the file and the key.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from graders import messages
from graders.errors import EditionError

DEFAULT_EDITION = "boar_brawl"
TOP_KEYS = {"name", "title", "submission", "module", "support", "student_files", "setup", "case_timeout",
            "run_timeout", "checkpoint", "phases", "problems", "analysis", "gui"}
PROBLEM_KEYS = {"number", "title", "phase", "points", "functions", "depends", "rules", "case_timeout", "optional"}
RULE_KEYS = {"kind", "function", "names", "required"}
RULE_KINDS = ("forbid", "uses")


@dataclass(frozen=True)
class Rule:
    """One declared shape rule, checked on the submission's source before any code runs."""

    kind: str  # "forbid" or "uses"
    function: str
    names: tuple[str, ...]
    problem: int
    required: bool = True  # False: advice, reported but never costing points


@dataclass(frozen=True)
class Problem:
    number: int
    title: str
    phase: int
    points: int
    functions: tuple[str, ...]
    depends: tuple[int, ...]
    rules: tuple[Rule, ...]
    timeout: float
    optional: bool = False

    @property
    def label(self) -> str:
        return f"{self.number:02d}"


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
    analysis: dict = field(default_factory=dict, compare=False)  # the [analysis] table (see graders.analysis)
    gui: dict = field(default_factory=dict, compare=False)  # the [gui] table (see graders.gamelog)

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

    def problem(self, number: int) -> Problem:
        for p in self.problems:
            if p.number == number:
                return p
        raise EditionError(messages.unknown_problem(number, self.problems[0].label, self.problems[-1].label))

    def case_files(self, number: int) -> list[Path]:
        """The case files of problem NUMBER: ``qNN.toml`` then ``qNN.*.toml`` in name order (in a
        student's copy, ``qNN.json``)."""
        main = [self.suite_dir / f"q{number:02d}.{suffix}" for suffix in ("toml", "json")]
        extra = sorted(self.suite_dir.glob(f"q{number:02d}.*.toml"))
        return [m for m in main if m.exists()] + extra

    def parse_numbers(self, raw: list[str] | None) -> list[int] | None:
        """Problem numbers from ``-q`` values such as ``01``, ``1`` or ``q01``; None for all."""
        if not raw:
            return None
        numbers = []
        for text in raw:
            match = re.fullmatch(r"[qQ]?(\d+)", text.strip())
            if not match:
                raise EditionError(messages.problem_number_expected(text))
            numbers.append(self.problem(int(match.group(1))).number)
        return numbers


def read_toml(path: Path) -> dict:
    """A data file's contents: TOML (the kit's own files) or JSON (a student's copy, which must be
    read on Pythons without tomllib); an :class:`EditionError` naming the file and what is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".json":
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("the file should hold one JSON object")
            return data
        import tomllib  # novm: only the kit reads TOML, and it runs on Python 3.11 or newer

        return tomllib.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:  # TOMLDecodeError and JSONDecodeError are ValueErrors
        raise EditionError(messages.broken_spec(str(path), str(exc))) from exc


def kit_root() -> Path:
    """The folder holding ``tests/`` and ``graders/``: ``$HOGKIT_ROOT``, the package's parent, or cwd."""
    env = os.environ.get("HOGKIT_ROOT")
    candidates = [Path(env)] if env else []
    candidates += [Path(__file__).resolve().parent.parent, Path.cwd()]
    for c in candidates:
        if (c / "tests").is_dir() and (c / "graders").is_dir():
            return c
    raise EditionError(
        "cannot find the kit's editions (a folder with tests/ and graders/); "
        "run hogkit from the kit's folder, install it with `pip install -e .`, or set HOGKIT_ROOT"
    )


def edition_names(root: Path | None = None) -> list[str]:
    root = root or kit_root()
    return sorted(p.parent.name for p in (root / "tests").glob("*/edition.toml"))


def load_edition(name: str = DEFAULT_EDITION, root: Path | None = None) -> Edition:
    """Read ``tests/NAME/edition.toml`` into an :class:`Edition`; reject unknown names clearly."""
    root = root or kit_root()
    path = root / "tests" / name / "edition.toml"
    if not path.is_file():
        raise EditionError(messages.unknown_edition(name, edition_names(root)))
    return parse_manifest(read_toml(path), name, root, path)


STUDENT_MANIFEST = "edition.json"  # in a student's copy: tests/edition.json, the edition's manifest and name


def student_manifest(folder: Path) -> Path | None:
    """FOLDER's ``tests/edition.json`` (a project folder's, or ``tests/edition.toml`` in an older
    one), or None when FOLDER is not a student's project folder."""
    for name in (STUDENT_MANIFEST, "edition.toml"):
        if (folder / "tests" / name).is_file():
            return folder / "tests" / name
    return None


def declared_edition(path: Path) -> str | None:
    """The edition a student's project folder declares in its manifest, for PATH (the folder, or a
    file in it); None when PATH is not in such a folder."""
    marker = student_manifest(path if path.is_dir() else path.parent)
    if marker is None:
        return None
    try:
        name = read_toml(marker).get("name")
    except EditionError:
        return None
    return name if isinstance(name, str) and name else None


def load_student_edition(folder: Path) -> Edition:
    """The edition of a student's project folder: ``FOLDER/tests/edition.json``, support files beside it."""
    path = student_manifest(folder)
    if path is None:
        raise EditionError(messages.not_a_project_folder(str(folder)))
    data = read_toml(path)
    return parse_manifest(data, str(data.get("name", folder.name)), folder, path, folder / "tests", folder)


T = TypeVar("T")


def _need(table: dict, key: str, where: str, kind: type[T]) -> T:
    if key not in table:
        raise EditionError(f"{where}: missing key {key!r}")
    value = table[key]
    if not isinstance(value, kind):
        raise EditionError(f"{where}: key {key!r} should be {kind.__name__}, not {type(value).__name__}")
    return value


def _known(table: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise EditionError(f"{where}: unknown key {unknown[0]!r} (known keys: {', '.join(sorted(allowed))})")


def parse_manifest(
    data: dict, name: str, root: Path, path: Path, suite_dir: Path | None = None, support_dir: Path | None = None
) -> Edition:
    where = str(path)
    _known(data, TOP_KEYS, where)
    phases = tuple(
        Phase(_need(ph, "number", f"{where} [[phases]]", int), _need(ph, "name", f"{where} [[phases]]", str))
        for ph in _need(data, "phases", where, list)
    )
    phase_numbers = {ph.number for ph in phases}
    default_timeout = float(data.get("case_timeout", 5.0))
    problems: list[Problem] = []
    for raw in _need(data, "problems", where, list):
        pwhere = f"{where} [[problems]] number={raw.get('number', '?')}"
        _known(raw, PROBLEM_KEYS, pwhere)
        number = _need(raw, "number", pwhere, int)
        phase = _need(raw, "phase", pwhere, int)
        if phase not in phase_numbers:
            raise EditionError(f"{pwhere}: phase {phase} is not declared in [[phases]]")
        if any(p.number == number for p in problems):
            raise EditionError(f"{pwhere}: problem number {number} appears twice")
        rules = []
        for r in raw.get("rules", []):
            rwhere = f"{pwhere} [[problems.rules]]"
            _known(r, RULE_KEYS, rwhere)
            kind = _need(r, "kind", rwhere, str)
            if kind not in RULE_KINDS:
                raise EditionError(f"{rwhere}: kind must be 'forbid' or 'uses', not {kind!r}")
            # The seed's "must not use" is required; its "you should use" is advice unless declared required.
            required = r.get("required", kind == "forbid")
            if not isinstance(required, bool):
                raise EditionError(f"{rwhere}: key 'required' should be true or false, not {required!r}")
            rules.append(Rule(kind, _need(r, "function", rwhere, str), tuple(_need(r, "names", rwhere, list)), number,
                              required))
        problems.append(
            Problem(
                number=number,
                title=_need(raw, "title", pwhere, str),
                phase=phase,
                points=_need(raw, "points", pwhere, int),
                functions=tuple(raw.get("functions", [])),
                depends=tuple(raw.get("depends", [])),
                rules=tuple(rules),
                timeout=float(raw.get("case_timeout", default_timeout)),
                optional=bool(raw.get("optional", False)),
            )
        )
    numbers = {p.number for p in problems}
    for p in problems:
        for d in p.depends:
            if d not in numbers or d >= p.number:
                raise EditionError(f"{where}: problem {p.number} depends on {d}, which is not an earlier problem")
    cp = data.get("checkpoint")
    checkpoint = None
    if cp is not None:
        _known(cp, {"phase", "points", "label"}, f"{where} [checkpoint]")
        checkpoint = Checkpoint(
            phase=_need(cp, "phase", f"{where} [checkpoint]", int),
            points=_need(cp, "points", f"{where} [checkpoint]", int),
            label=cp.get("label", "Checkpoint"),
        )
    submission = data.get("submission", "hog.py")
    return Edition(
        name=name,
        title=_need(data, "title", where, str),
        root=root,
        submission=submission,
        module=data.get("module", Path(submission).stem),
        support=tuple(data.get("support", [])),
        student_files=tuple(data.get("student_files", [submission])),
        setup=data.get("setup", f"from {Path(submission).stem} import *"),
        phases=phases,
        problems=tuple(sorted(problems, key=lambda p: p.number)),
        checkpoint=checkpoint,
        run_timeout=float(data.get("run_timeout", 120.0)),
        suite_dir=suite_dir or root / "tests" / name,
        support_dir=support_dir or root / "solution" / name,
        analysis=dict(data.get("analysis", {})),
        gui=dict(data.get("gui", {})),
    )
