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
                  filled-in cases live in ``qNN.generated.toml`` (see :mod:`graders.authoring.templates`).

``[student_test]`` a test the student writes (a function of theirs, called with no arguments),
                  graded by running it against the reference function it tests (it must pass) and
                  against each ``[[student_test.variant]]``, a plausible wrong version (each must be
                  caught, unless it says ``advice = true``: then missing it costs nothing and is
                  reported as advice); ``[[student_test.also_correct]]`` versions must pass too. A
                  test that asserts nothing passes on every variant, so it earns nothing. ``keep``
                  names the reference's functions the run's module holds besides the one tested.

``[win_rate]``    a strategy graded by its exact chance to win against a baseline, averaged over
                  both seats, worked out by the edition's game (:mod:`graders.games.game`): it must reach
                  ``at_least``; the figure is shown in the report.

A ``[[case]]`` with ``advice = true`` checks what the seed suggests without asking for it: its
failure is reported as advice and never costs points.

Expected output may be one of the special answers ``Error`` (the line raises; ``Error: TypeError``
names the type), ``Function``, ``Nothing`` and ``Infinite Loop``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from graders.core.errors import EditionError
from graders.core.tables import Key, check_table, one_of, pair_of_ints, positive, share, within
from graders.editions import messages as editions_messages
from graders.editions.edition import Edition, read_toml


def _a_name(value: Any) -> str:
    return "" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value) else "a Python name"

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
    problem: str  # its problem's label
    name: str
    hidden: bool
    steps: tuple[Step, ...]
    path: Path
    timeout: float
    setup: str  # code run before the first step, e.g. "from hog import *"
    about: str = ""  # what it is about, for students: its name, or a generated case's template name
    rule: str = ""  # the function whose shape rule this case checks too: it takes that rule's severity
    check: StudentRun | WinRateCheck | None = None  # a case of another kind than a transcript (steps empty)
    runs_in: str = ""  # "reference": beside the reference (stubs the kit answers), the student's function brought in
    advice: bool = False  # a run that reports what a test could also check, never costing points


@dataclass(frozen=True)
class StudentRun:
    """One run of a student's test FUNCTION, the reference's TESTS replaced by SOURCE ("": its own)."""

    function: str
    tests: str
    source: str
    must_pass: bool  # True: the run must return; False: it must fail (the variant is caught)
    keep: tuple[str, ...] = ()  # the reference's functions the run's module holds beside TESTS


@dataclass(frozen=True)
class WinRateCheck:
    """STRATEGY's exact win rate against AGAINST (a reference expression) must be AT_LEAST."""

    strategy: str
    against: str
    at_least: float


@dataclass(frozen=True)
class Question:
    """An unlock question. ``steps`` for what-would-Python-display, ``choices`` for multiple choice."""

    id: str
    problem: str
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
    problem: str
    name: str
    hidden: bool
    transcript: str
    params: tuple[dict, ...]
    passed_on: tuple[tuple[str, object], ...] = ()  # (key, value) of PASSED_ON given, for each case made


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
            raise EditionError(editions_messages.transcript_text_before_prompt(where, n, line))
    flush()
    if not steps:
        raise EditionError(editions_messages.transcript_no_prompt(where))
    return tuple(steps)


PREFIX = {"case": "", "unlock": "u", "generate": "g"}

# Every table of a case file, declared once (see graders.core.tables). A student's copy (JSON) keeps the
# kit's case ids and holds its questions as hashed ``locked`` records (graders.editions.locking).
FILE_KEYS = {"case": Key(list, [], items=dict), "unlock": Key(list, [], items=dict),
             "generate": Key(list, [], items=dict), "include": Key(list, [], items=dict),
             "comment": Key(str, ""), "problem": Key((int, str), None), "locked": Key(list, [], items=dict),
             "student_test": Key(dict, None), "win_rate": Key(dict, None), "kit_only": Key(str, "")}
CASE_KEYS = {"name": Key(str, ""), "transcript": Key(str), "hidden": Key(bool, False), "about": Key(str, ""),
             "rule": Key(str, ""), "timeout": Key(float, None, check=positive), "setup": Key(str, None),
             "id": Key(str, ""), "advice": Key(bool, False)}
UNLOCK_KEYS = {"name": Key(str, ""), "question": Key(str, ""), "choices": Key(list, [], items=str),
               "answer": Key(str, ""), "transcript": Key(str, "")}
GENERATE_KEYS = {"name": Key(str, ""), "hidden": Key(bool, False), "transcript": Key(str),
                 "params": Key(list, None, items=dict), "range": Key(dict, None), "random": Key(dict, None),
                 # passed on to every case the template makes, as a [[case]] table takes them
                 "rule": Key(str, ""), "advice": Key(bool, False), "timeout": Key(float, None, check=positive),
                 "setup": Key(str, None)}
PASSED_ON = ("rule", "advice", "timeout", "setup")  # a template's keys each of its cases carries
STUDENT_TEST_KEYS = {"function": Key(str, check=_a_name), "tests": Key(str, check=_a_name),
                     "runs_in": Key(str, "reference", check=one_of("reference")),
                     "passes": Key(str, "returns", check=one_of("returns")),
                     "timeout": Key(float, None, check=positive),
                     "must_pass": Key(str, "reference", check=one_of("reference")),
                     "variant": Key(list, items=dict), "also_correct": Key(list, [], items=dict),
                     "keep": Key(list, [], items=str)}
VERSION_KEYS = {"name": Key(str), "source": Key(str), "advice": Key(bool, False)}
WIN_RATE_KEYS = {"strategy": Key(str, check=_a_name), "against": Key(str), "at_least": Key(float, check=share),
                 "seats": Key(str, "both", check=one_of("both")), "method": Key(str, "exact", check=one_of("exact")),
                 "reference_rate": Key(float, None, check=share), "timeout": Key(float, None, check=positive)}
RANGE_KEYS = {"name": Key(str), "first": Key(int), "last": Key(int)}
RANDOM_KEYS = {"seed": Key(int), "count": Key(int, check=within(1, 100_000))}
INCLUDE_KEYS = {"file": Key(str), "tables": Key(list, list(PREFIX), items=str,
                                                 check=lambda v: "" if set(v) <= set(PREFIX) else
                                                 "a list of " + ", ".join(repr(k) for k in PREFIX)),
                "rename": Key(dict, {}, items=str)}


def _rename(value: object, renames: dict[str, str]) -> object:
    if isinstance(value, str):
        for old, new in renames.items():
            value = re.sub(rf"\b{re.escape(old)}\b", new, value)
        return value
    if isinstance(value, list):
        return [_rename(v, renames) for v in value]
    if isinstance(value, dict):
        return _rename_table(value, renames)
    return value


def _rename_table(table: dict, renames: dict[str, str]) -> dict:
    return {k: _rename(v, renames) for k, v in table.items()}


def read_case_file(path: Path) -> dict[str, Any]:
    """A case file's tables by kind, its top-level keys checked (an :class:`EditionError` names the file)."""
    return check_table(read_toml(path), FILE_KEYS, str(path))


def _tables(edition: Edition, label: str, kind: str, read: Callable[[Path], dict[str, Any]] = read_case_file
            ) -> list[tuple[str, Path, dict, str]]:
    """(id, file, table, where) for every ``[[KIND]]`` table of problem LABEL, in file order.

    An ``[[include]]`` table brings in another file's tables (``file``, relative to the including
    file; ``tables``, default all kinds; ``rename``, whole words to replace in their text), so two
    editions with the same problem share one source of cases instead of two copies.
    """
    found: list[tuple[str, Path, dict, str]] = []
    for path in edition.case_files(label):
        stem = path.name.removesuffix(".toml")
        data = read(path)
        for i, raw in enumerate(data[kind], start=1):
            found.append((f"{stem}.{PREFIX[kind]}{i}", path, raw, f"{path} [[{kind}]] #{i}"))
        for j, raw_include in enumerate(data["include"], start=1):
            where = f"{path} [[include]] #{j}"
            inc = check_table(raw_include, INCLUDE_KEYS, where)
            if kind not in inc["tables"]:
                continue
            source = (path.parent / inc["file"]).resolve()
            if not source.is_file():
                raise EditionError(editions_messages.include_missing(where, inc["file"]))
            for i, raw in enumerate(read(source)[kind], start=1):
                found.append((f"{stem}.i{j}.{PREFIX[kind]}{i}", path, _rename_table(raw, inc["rename"]),
                              f"{source} [[{kind}]] #{i} (included by {path.name})"))
    return found


def included_files(path: Path) -> list[Path]:
    """The files the ``[[include]]`` tables of the case file PATH bring in (resolved; those that
    exist or not), for what must change when they do; none when PATH cannot be read."""
    try:
        data = read_case_file(path)
    except (OSError, EditionError):
        return []
    return [(path.parent / str(inc.get("file", ""))).resolve() for inc in data["include"] if isinstance(inc, dict)]


def load_problem_cases(edition: Edition, key: int | str) -> list[Case]:
    """Every graded case of problem KEY (a label, or a number), public and hidden, in file order.
    Parsed once while the files stay the same, since a class grades the same cases for every
    submission."""
    label = edition.problem(key).label
    return list(_parsed_cases(edition, label, _stamps(edition, label)))


def _stamps(edition: Edition, label: str) -> tuple[tuple[str, int, int], ...]:
    """The name, time and size of each case file of problem LABEL: what a parse is kept under."""
    return tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in edition.case_files(label))


@lru_cache(maxsize=256)
def _parsed_cases(edition: Edition, label: str, stamps: tuple) -> tuple[Case, ...]:
    """STAMPS (the files' names, times and sizes) make a changed file a new key."""
    problem = edition.problem(label)
    cases: list[Case] = []
    files: dict[Path, dict[str, Any]] = {}  # each file read once here: for its cases, then its other tables

    def read(path: Path) -> dict[str, Any]:
        if path not in files:
            files[path] = read_case_file(path)
        return files[path]

    for case_id, path, raw, where in _tables(edition, label, "case", read):
        values = check_table(raw, CASE_KEYS, where)
        name = values["name"] or case_id
        cases.append(Case(
            id=values["id"] or case_id,  # a student's copy keeps the kit's id, so verdicts match
            problem=label,
            name=name,
            hidden=values["hidden"],
            steps=parse_transcript(values["transcript"], where),
            path=path,
            timeout=values["timeout"] if values["timeout"] is not None else problem.timeout,
            setup=values["setup"] if values["setup"] is not None else edition.setup,
            about=values["about"] or name,
            rule=_rule_of(values["rule"], problem.rules, where),
            advice=values["advice"],
        ))
    for path in edition.case_files(label):
        data = read(path)
        if data["student_test"] is not None:
            cases += _student_test_cases(data["student_test"], path, problem.timeout, label)
        if data["win_rate"] is not None:
            cases.append(_win_rate_case(data["win_rate"], path, label))
    return tuple(cases)


def _student_test_cases(raw: dict, path: Path, timeout: float, label: str) -> list[Case]:
    """A ``[student_test]`` table as one case per run: the reference's own, each also_correct and
    each variant, named as a student reads them."""
    stem, where = path.name.removesuffix(".toml"), f"{path} [student_test]"
    spec = check_table(raw, STUDENT_TEST_KEYS, where)
    runs = [(editions_messages.student_test_on_reference(spec["tests"]), "", True, False)]
    for kind, must_pass in (("also_correct", True), ("variant", False)):
        for k, version in enumerate(spec[kind], start=1):
            v = check_table(version, VERSION_KEYS, f"{where} [[{kind}]] #{k}")
            name = editions_messages.student_test_on_version(v["name"]) if must_pass else \
                editions_messages.student_test_on_variant(v["name"])
            runs.append((name, v["source"], must_pass, v["advice"]))
    keep = (spec["tests"], *spec["keep"])
    return [Case(id=f"{stem}.t{k}", problem=label, name=name, hidden=False, steps=(), path=path,
                 timeout=spec["timeout"] or timeout, setup="", about=name, runs_in=spec["runs_in"],
                 check=StudentRun(spec["function"], spec["tests"], source, must_pass, keep), advice=advice)
            for k, (name, source, must_pass, advice) in enumerate(runs, start=1)]


WIN_RATE_SECONDS = 60.0  # to tabulate a strategy in the sandbox, unless the table says otherwise


def _win_rate_case(raw: dict, path: Path, label: str) -> Case:
    spec = check_table(raw, WIN_RATE_KEYS, f"{path} [win_rate]")
    name = editions_messages.win_rate_case(spec["strategy"], spec["against"], spec["at_least"])
    return Case(id=f"{path.name.removesuffix('.toml')}.w1", problem=label, name=name, hidden=False, steps=(),
                path=path, timeout=spec["timeout"] or WIN_RATE_SECONDS, setup="", about=name,
                check=WinRateCheck(spec["strategy"], spec["against"], spec["at_least"]))


def _rule_of(function: str, rules: tuple, where: str) -> str:
    """The case's ``rule`` key: the function of one of the problem's shape rules, or ""."""
    if function and not any(r.function == function for r in rules):
        raise EditionError(editions_messages.case_rule_unknown(where, function))
    return function


def kit_only(edition: Edition, key: int | str) -> str:
    """Why problem KEY is graded by the kit alone ("" when it is not): a student's copy holds no case
    of another kind than a transcript, since those need the kit's reference. Read once while the
    files stay the same, as the cases are."""
    return _kit_only(tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in edition.case_files(key)))


@lru_cache(maxsize=256)
def _kit_only(stamps: tuple) -> str:
    """STAMPS (the files' names, times and sizes) make a changed file a new key."""
    return next((r for r in (read_case_file(Path(name))["kit_only"] for name, _, _ in stamps) if r), "")


def load_questions(edition: Edition, key: int | str) -> list[Question]:
    """The unlock questions of problem KEY, checked for shape (a choice answer must be a choice).
    Parsed once while the files stay the same, as :func:`load_problem_cases` does."""
    label = edition.problem(key).label
    return list(_parsed_questions(edition, label, _stamps(edition, label)))


@lru_cache(maxsize=256)
def _parsed_questions(edition: Edition, label: str, stamps: tuple) -> tuple[Question, ...]:
    """STAMPS (the files' names, times and sizes) make a changed file a new key."""
    questions: list[Question] = []
    for question_id, path, raw, where in _tables(edition, label, "unlock"):
        values = check_table(raw, UNLOCK_KEYS, where)
        choices = tuple(values["choices"])
        if choices and values["answer"] not in choices:
            raise EditionError(editions_messages.unlock_answer_not_a_choice(where, values["answer"]))
        steps = parse_transcript(values["transcript"], where) if values["transcript"] else ()
        if not choices and not any(s.expected is not None for s in steps):
            raise EditionError(editions_messages.unlock_needs_a_prompt(where))
        questions.append(Question(id=question_id, problem=label, name=values["name"] or question_id, steps=steps,
                                  question=values["question"], choices=choices, answer=values["answer"], path=path))
    return tuple(questions)


def load_templates(edition: Edition, key: int | str) -> list[Template]:
    label = edition.problem(key).label
    templates = []
    for template_id, _path, raw, where in _tables(edition, label, "generate"):
        values = check_table(raw, GENERATE_KEYS, where)
        templates.append(Template(id=template_id, problem=label, name=values["name"] or template_id,
                                  hidden=values["hidden"], transcript=values["transcript"],
                                  params=tuple(expand_params(values, where)),
                                  passed_on=tuple((k, values[k]) for k in PASSED_ON
                                                  if values[k] not in (None, "", False))))
    return templates


def expand_params(raw: dict, where: str) -> list[dict]:
    """Parameter sets of a template: an explicit ``params`` list, a ``range`` or seeded ``random`` draws.

    ``range = {name = "seed", first = 1, last = 60}`` gives seed = 1..60;
    ``random = {seed = 7, count = 40, a = [0, 150], b = [0, 150]}`` draws COUNT sets with
    ``random.Random(seed)`` (never Python's ``hash``), each value uniform in its inclusive range.
    At most one of the three may be given; with none, the template is one case as written.
    """
    import random

    given = [k for k in ("params", "range", "random") if raw.get(k) is not None]
    if len(given) > 1:
        raise EditionError(editions_messages.template_one_kind(where, given))
    if raw.get("params") is not None:
        return [dict(p) for p in raw["params"]]
    if raw.get("range") is not None:
        r = check_table(raw["range"], RANGE_KEYS, f"{where} range")
        return [{r["name"]: k} for k in range(r["first"], r["last"] + 1)]
    if raw.get("random") is not None:
        spec = check_table(raw["random"], RANDOM_KEYS, f"{where} random", extra=Key(list, check=pair_of_ints))
        rng = random.Random(spec.pop("seed"))
        count = spec.pop("count")
        return [{k: rng.randint(lo, hi) for k, (lo, hi) in spec.items()} for _ in range(count)]
    return [{}]
