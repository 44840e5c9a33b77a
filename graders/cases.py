"""Cases: graded transcripts and unlock questions, read from an edition's ``qNN*.toml`` files.

A case file is TOML with three kinds of tables, all optional:

``[[case]]``      a graded transcript, written like a Python session::

                      name = "worked examples"
                      hidden = false          # hidden cases run only when an instructor grades
                      transcript = '''
                      >>> boar_brawl(21, 46)
                      9
                      '''

``[[unlock]]``    a question a student answers before the problem's tests run: either a
                  what-would-Python-display transcript (every ``>>>`` line followed by output is a
                  prompt) or a multiple-choice question (``question``, ``choices``, ``answer``).

``[[generate]]``  a transcript template whose outputs come from the reference solution; the
                  filled-in cases live in ``qNN.generated.toml`` (see :mod:`graders.templates`).

Expected output may be one of the special answers ``Error`` (the line raises; ``Error: TypeError``
names the type), ``Function``, ``Nothing`` and ``Infinite Loop``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from graders.edition import Edition, EditionError, read_toml

SPECIAL_ANSWERS = ("Error", "Function", "Nothing", "Infinite Loop")
PROMPT, MORE = ">>> ", "... "


@dataclass(frozen=True)
class Step:
    """One ``>>>`` statement (with its ``...`` lines) and the output it should display."""

    source: str
    expected: str | None  # None: nothing should be displayed
    line: int  # line of the ``>>>`` within the transcript, from 1


@dataclass(frozen=True)
class Case:
    id: str  # e.g. "q02.3" or "q05.generated.17"; stable across runs
    problem: int
    name: str
    hidden: bool
    steps: tuple[Step, ...]
    path: Path
    timeout: float
    setup: str  # code run before the first step, e.g. "from hog import *"
    about: str = ""  # what it is about, for students: its name, or a generated case's template name
    rule: str = ""  # the function whose shape rule this case checks too: it takes that rule's severity


@dataclass(frozen=True)
class Question:
    """An unlock question. ``steps`` for what-would-Python-display, ``choices`` for multiple choice."""

    id: str
    problem: int
    name: str
    steps: tuple[Step, ...]  # steps with an expected output are prompts; the rest are shown
    question: str
    choices: tuple[str, ...]
    answer: str  # multiple choice only
    path: Path | None = None  # the case file that holds (or includes) it

    @property
    def is_choice(self) -> bool:
        return bool(self.choices)


@dataclass(frozen=True)
class Template:
    id: str
    problem: int
    name: str
    hidden: bool
    transcript: str
    params: tuple[dict, ...]


def render_steps(steps: tuple[Step, ...] | list[Step], hide_expected: bool = False) -> str:
    out: list[str] = []
    for s in steps:
        lines = s.source.split("\n")
        out.append(PROMPT + lines[0])
        out.extend(MORE + ln for ln in lines[1:])
        if s.expected is not None and not hide_expected:
            out.extend(s.expected.split("\n"))
    return "\n".join(out)


def parse_transcript(text: str, where: str) -> tuple[Step, ...]:
    """Split a ``>>>`` transcript into steps; reject text before the first prompt."""
    steps: list[Step] = []
    source: list[str] = []
    expected: list[str] = []
    start = 0

    def flush() -> None:
        if source:
            while expected and not expected[-1].strip():
                expected.pop()
            steps.append(Step("\n".join(source), "\n".join(expected) if expected else None, start))

    for n, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if line.startswith(PROMPT) or line == PROMPT.rstrip():
            flush()
            source, expected, start = [line[len(PROMPT):]], [], n
        elif (line.startswith(MORE) or line == MORE.rstrip()) and source and not expected:
            source.append(line[len(MORE):])
        elif source:
            expected.append(line)
        elif line.strip():
            raise EditionError(f"{where}: line {n} of the transcript comes before any '>>> ' prompt: {line!r}")
    flush()
    if not steps:
        raise EditionError(f"{where}: the transcript has no '>>> ' lines")
    return tuple(steps)


PREFIX = {"case": "", "unlock": "u", "generate": "g"}
INCLUDE_KEYS = {"file", "tables", "rename"}


def _rename(value: object, renames: dict[str, str]) -> object:
    if isinstance(value, str):
        for old, new in renames.items():
            value = re.sub(rf"\b{re.escape(old)}\b", new, value)
        return value
    if isinstance(value, list):
        return [_rename(v, renames) for v in value]
    if isinstance(value, dict):
        return {k: _rename(v, renames) for k, v in value.items()}
    return value


def _tables(edition: Edition, number: int, kind: str) -> list[tuple[str, Path, dict, str]]:
    """(id, file, table, where) for every ``[[KIND]]`` table of problem NUMBER, in file order.

    An ``[[include]]`` table brings in another file's tables (``file``, relative to the including
    file; ``tables``, default all kinds; ``rename``, whole words to replace in their text), so two
    editions with the same problem share one source of cases instead of two copies.
    """
    found: list[tuple[str, Path, dict, str]] = []
    for path in edition.case_files(number):
        stem = path.name.removesuffix(".toml")
        data = read_toml(path)
        for i, raw in enumerate(data.get(kind, []), start=1):
            found.append((f"{stem}.{PREFIX[kind]}{i}", path, raw, f"{path} [[{kind}]] #{i}"))
        for j, inc in enumerate(data.get("include", []), start=1):
            where = f"{path} [[include]] #{j}"
            unknown = sorted(set(inc) - INCLUDE_KEYS)
            if unknown or "file" not in inc:
                raise EditionError(f"{where}: needs 'file' and allows only {', '.join(sorted(INCLUDE_KEYS))}")
            if kind not in inc.get("tables", list(PREFIX)):
                continue
            source = (path.parent / inc["file"]).resolve()
            if not source.is_file():
                raise EditionError(f"{where}: no such file {inc['file']!r}")
            renames = dict(inc.get("rename", {}))
            for i, raw in enumerate(read_toml(source).get(kind, []), start=1):
                found.append((f"{stem}.i{j}.{PREFIX[kind]}{i}", path, _rename(raw, renames),
                              f"{source} [[{kind}]] #{i} (included by {path.name})"))
    return found


def load_problem_cases(edition: Edition, number: int) -> list[Case]:
    """Every graded case of problem NUMBER, public and hidden, in file order. Parsed once while the
    files stay the same, since a class grades the same cases for every submission."""
    stamps = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in edition.case_files(number))
    return list(_parsed_cases(edition, number, stamps))


@lru_cache(maxsize=256)
def _parsed_cases(edition: Edition, number: int, stamps: tuple) -> tuple[Case, ...]:
    """STAMPS (the files' names, times and sizes) make a changed file a new key."""
    problem = edition.problem(number)
    cases: list[Case] = []
    for case_id, path, raw, where in _tables(edition, number, "case"):
        if "transcript" not in raw:
            raise EditionError(f"{where}: missing key 'transcript'")
        cases.append(
            Case(
                id=str(raw.get("id", case_id)),  # a student's copy keeps the kit's id, so verdicts match
                problem=number,
                name=str(raw.get("name", case_id)),
                hidden=bool(raw.get("hidden", False)),
                steps=parse_transcript(raw["transcript"], where),
                path=path,
                timeout=float(raw.get("timeout", problem.timeout)),
                setup=str(raw.get("setup", edition.setup)),
                about=str(raw.get("about", raw.get("name", case_id))),
                rule=_rule_of(raw, problem.rules, where),
            )
        )
    return tuple(cases)


def _rule_of(raw: dict, rules: tuple, where: str) -> str:
    """The case's ``rule`` key: the function of one of the problem's shape rules, or ""."""
    function = raw.get("rule", "")
    if function and not any(r.function == function for r in rules):
        raise EditionError(f"{where}: rule {function!r} names no shape rule of this problem")
    return str(function)


def load_questions(edition: Edition, number: int) -> list[Question]:
    """The unlock questions of problem NUMBER, checked for shape (a choice answer must be a choice)."""
    questions: list[Question] = []
    for question_id, path, raw, where in _tables(edition, number, "unlock"):
        choices = tuple(str(c) for c in raw.get("choices", []))
        answer = str(raw.get("answer", ""))
        if choices and answer not in choices:
            raise EditionError(f"{where}: the answer {answer!r} is not one of the choices")
        steps = parse_transcript(raw["transcript"], where) if "transcript" in raw else ()
        if not choices and not any(s.expected is not None for s in steps):
            raise EditionError(f"{where}: needs either choices or a transcript with at least one output")
        questions.append(
            Question(
                id=question_id,
                problem=number,
                name=str(raw.get("name", question_id)),
                steps=steps,
                question=str(raw.get("question", "")),
                choices=choices,
                answer=answer,
                path=path,
            )
        )
    return questions


def load_templates(edition: Edition, number: int) -> list[Template]:
    return [
        Template(
            id=template_id,
            problem=number,
            name=str(raw.get("name", template_id)),
            hidden=bool(raw.get("hidden", False)),
            transcript=_need_str(raw, "transcript", where),
            params=tuple(expand_params(raw, where)),
        )
        for template_id, _path, raw, where in _tables(edition, number, "generate")
    ]


def _need_str(raw: dict, key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str):
        raise EditionError(f"{where}: missing text key {key!r}")
    return value


def expand_params(raw: dict, where: str) -> list[dict]:
    """Parameter sets of a template: an explicit ``params`` list, a ``range`` or seeded ``random`` draws.

    ``range = {name = "seed", first = 1, last = 60}`` gives seed = 1..60;
    ``random = {seed = 7, count = 40, a = [0, 150], b = [0, 150]}`` draws COUNT sets with
    ``random.Random(seed)`` (never Python's ``hash``), each value uniform in its inclusive range.
    """
    import random

    if "params" in raw:
        return [dict(p) for p in raw["params"]]
    if "range" in raw:
        r = raw["range"]
        return [{r["name"]: k} for k in range(int(r["first"]), int(r["last"]) + 1)]
    if "random" in raw:
        spec = dict(raw["random"])
        rng = random.Random(int(spec.pop("seed")))
        count = int(spec.pop("count"))
        return [{k: rng.randint(int(lo), int(hi)) for k, (lo, hi) in spec.items()} for _ in range(count)]
    return [{}]
