"""Records: what grading found, as typed values that never change once made.

Contract: a grading run yields a :class:`Report` of :class:`ProblemResult` (each holding its
:class:`CaseResult` and :class:`RuleResult` values), :class:`PhaseResult` and
:class:`CheckpointResult`; class grading wraps each in a :class:`ClassRecord`. Every record is a
frozen dataclass: a step that adds something (a dependency hint, an exact win rate's note) makes a
new record with :func:`dataclasses.replace`, so whoever saw a record first (a progress callback)
never sees it change. Statuses are enums whose values are the words the JSON and CSV outputs have
always carried (``"passed"``, ``"kit error"``), so a status compares equal to its word and prints as
it. :meth:`ClassRecord.to_dict` and :meth:`ClassRecord.from_dict` are the one way a class record
becomes JSON and comes back; the shape carries :data:`RECORD_VERSION`, and a record of another
version is not read (it is graded again). A class keeps records lean (``to_dict(lean=True)``):
a case's fields are written only where they differ from their defaults, and a passing case without
its time, which nothing renders; every renderer gives the same text for the lean record read back.
What a record means for a student (public failures, hidden groups, cases not run) is decided here,
once, for every renderer. Ships in the student
bundle: Python 3.9, standard library only.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

RECORD_VERSION = 5  # 5: starter code never passes; 4: lean cases (see ClassRecord.to_dict); 3: typed records,
# every field of every case


class Status(str, Enum):
    """A status that is also its word: equal to it, printed as it, written to JSON as it."""

    def __str__(self) -> str:
        return str(self.value)


class ProblemStatus(Status):
    PASSED = "passed"
    FAILED = "failed"
    LOCKED = "locked"  # the student has not unlocked it (``python3 ok`` only)
    UNGRADED = "ungraded"  # no graded cases (Problem 0's questions)
    STARTER = "starter code"  # still the skeleton's stubs: no points, whatever its cases do


class CaseStatus(Status):
    PASSED = "passed"
    FAILED = "failed"  # a wrong value or output
    ERROR = "error"  # an exception where a value was expected
    TIMEOUT = "timeout"
    CRASHED = "crashed"
    MEMORY = "memory"
    NOT_RUN = "not run"  # after a case that hung or crashed, or when the run's time was up


class EntryStatus(Status):
    """What became of one entry of a class folder."""

    GRADED = "graded"
    KIT_ERROR = "kit error"  # the kit failed to grade it: never the student's grade
    OK = "ok"  # read, not yet graded
    MISSING = "missing"
    UNSUPPORTED = "unsupported"
    DUPLICATE = "duplicate"
    NOT_PYTHON = "not python"
    LINK = "link"
    NOT_A_FILE = "not a file"
    UNREADABLE = "unreadable"
    TOO_LARGE = "too large"


DONE = (ProblemStatus.PASSED, ProblemStatus.UNGRADED)  # nothing left to fix


@dataclass(frozen=True)
class RuleResult:
    problem: str  # the label of the problem whose rule it is
    text: str  # the rule in a student's words
    passed: bool
    detail: str = ""  # what broke it and where
    line: int | None = None
    required: bool = True  # False: advice, which never costs points
    function: str = ""  # the function the rule is about


@dataclass(frozen=True)
class CaseResult:
    case_id: str
    name: str
    hidden: bool
    passed: bool
    status: CaseStatus
    step: int | None = None  # index of the first wrong step
    expected: str | None = None
    got: str | None = None
    reason: str = ""
    traceback: str = ""
    debug: tuple[str, ...] = ()
    seconds: float = 0.0
    transcript: str = ""  # the case up to the wrong line, that line's expected output left out
    error_type: str = ""  # the exception the wrong line raised, if it raised one
    about: str = ""  # what the case is about, for students (a generated case: its template's name)
    advice: str = ""  # the function whose advice rule it checks: its failure is reported, never costs points
    note: str = ""  # a figure worth showing whatever the verdict, such as an exact win rate

    @property
    def ran(self) -> bool:
        return self.status != CaseStatus.NOT_RUN


@dataclass(frozen=True)
class ProblemResult:
    number: int
    label: str
    name: str
    phase: int
    score: int
    max: int
    status: ProblemStatus
    reason: str = ""
    cases: tuple[CaseResult, ...] = ()
    rules: tuple[RuleResult, ...] = ()
    optional: bool = False
    note: str = ""  # something worth knowing beyond the score, such as an exact win rate
    hint: str = ""  # which failing problem its cases call, to fix first (the reason starts with it too)

    @property
    def done(self) -> bool:
        return self.status in DONE

    @property
    def graded_cases(self) -> tuple[CaseResult, ...]:
        """The cases that decide the score: all but those that check advice."""
        return tuple(c for c in self.cases if not c.advice)

    @property
    def cases_passed(self) -> int:
        return sum(c.passed for c in self.graded_cases)

    @property
    def broken_rules(self) -> tuple[RuleResult, ...]:
        """The required rules that do not hold: each costs the problem."""
        return tuple(r for r in self.rules if not r.passed and r.required)

    def public_failures(self) -> tuple[CaseResult, ...]:
        """The public graded cases that ran and failed (a case not run after another hung is no
        failure of its own)."""
        return tuple(c for c in self.graded_cases if not c.passed and not c.hidden and c.ran)

    def hidden_groups(self) -> list:
        """(what they are about, how many failed, how many there are) per group of hidden cases with
        a failure: how a student hears of hidden cases, never by their source."""
        return hidden_failures((c.about or c.name, c.passed) for c in self.graded_cases if c.hidden and c.ran)

    def not_run(self) -> int:
        return sum(1 for c in self.cases if not c.ran)


def hidden_failures(hidden: Iterable[tuple[str, bool]]) -> list:
    """(about, failed, total) for each group with a failure, from each hidden case's (about, passed)."""
    groups: dict = {}
    for about, passed in hidden:
        counts = groups.setdefault(about, [0, 0])
        counts[0] += not passed
        counts[1] += 1
    return [(about, failed, total) for about, (failed, total) in groups.items() if failed]


@dataclass(frozen=True)
class PhaseResult:
    number: int
    name: str
    score: int
    max: int


@dataclass(frozen=True)
class CheckpointResult:
    label: str
    phase: int
    score: int
    max: int


@dataclass(frozen=True)
class Report:
    edition: str
    title: str
    submission: str
    total: int
    max: int
    phases: tuple[PhaseResult, ...]
    problems: tuple[ProblemResult, ...]
    checkpoint: CheckpointResult | None
    notes: tuple[str, ...] = ()
    seconds: float = 0.0
    hidden_included: bool = True
    isolation: str = ""  # what student code could reach while it ran (graders.sandboxing.isolation)
    does_not_run: str = ""  # said when the file has a syntax error Python stops at, though the rest was graded
    course_max: int = 0  # the course's own total the points are scaled to (0: none, the points are the grade)
    course_of: int = 0  # the edition's whole points, which course_max stands for

    def as_dict(self, cases: str = "all") -> dict:
        """The report as JSON data, each problem's cases as CASES says: "all" (every field), "lean"
        (see :func:`lean_case`) or "none" (no cases and no rules: what a summary and a course's
        policy read, without the cost of every case)."""
        if cases == "all":
            return plain(self)
        return {name: [problem_dict(p, cases) for p in self.problems] if name == "problems"
                else plain(getattr(self, name)) for name in _field_names(Report) or ()}

    @classmethod
    def from_dict(cls, data: dict) -> Report:
        return Report(**{
            **_known(cls, data),
            "phases": tuple(PhaseResult(**_known(PhaseResult, p)) for p in data.get("phases", ())),
            "problems": tuple(problem_from_dict(p) for p in data.get("problems", ())),
            "checkpoint": CheckpointResult(**_known(CheckpointResult, data["checkpoint"]))
            if data.get("checkpoint") else None,
            "notes": tuple(data.get("notes", ())),
        })


def problem_dict(problem: ProblemResult, cases: str) -> dict:
    """PROBLEM as JSON data, its fields in order, its cases as :meth:`Report.as_dict` says."""
    out: dict = {}
    for name in _field_names(ProblemResult) or ():
        if name == "cases" and cases == "lean":
            out[name] = [lean_case(c) for c in problem.cases]
        elif name not in ("cases", "rules") or cases != "none":
            out[name] = plain(getattr(problem, name))
    return out


def problem_from_dict(data: dict) -> ProblemResult:
    return ProblemResult(**{
        **_known(ProblemResult, data),
        "status": ProblemStatus(data["status"]),
        "cases": tuple(case_from_dict(c) for c in data.get("cases", ())),
        "rules": tuple(_shared(RuleResult, r) for r in data.get("rules", ())),
    })


def case_from_dict(data: dict) -> CaseResult:
    return _shared(CaseResult, data) if data.get("passed") is True else _case(data)


def _case(data: dict) -> CaseResult:
    """The case DATA holds (TypeError when a field it must have is missing). Made as unpickling
    makes a record, its fields set without ``__init__`` (which only sets them, slowly for a frozen
    class): a class's records hold a million cases, most of them read back on every rerun."""
    if not _CASE_REQUIRED <= data.keys():
        raise TypeError(sorted(_CASE_REQUIRED - data.keys()))  # (caught: the record is graded again)
    case = object.__new__(CaseResult)
    fields = vars(case)
    fields.update(_CASE_BLANK)
    fields.update(_known(CaseResult, data))
    for name in _CASE_TEXTS:  # a failing case's long texts, the same for every student who fails it alike
        text = fields[name]
        if type(text) is str and len(text) > 32:
            fields[name] = _shared_text(text)
    fields["status"] = CaseStatus(data["status"])
    fields["debug"] = tuple(data.get("debug", ()))
    return case


_CASE_TEXTS = ("expected", "got", "reason", "traceback", "transcript")
_MOST_TEXTS = 20_000  # distinct texts kept to share


def _shared_text(text: str) -> str:
    """TEXT, as one object for every equal text read back in this process (a class of skeletons
    reads the same failing case's transcript hundreds of times), up to _MOST_TEXTS of them."""
    with _shared_lock:
        found = _shared_texts.get(text)
        if found is None and len(_shared_texts) < _MOST_TEXTS:
            found = _shared_texts[text] = text
    return text if found is None else found


_shared_texts: dict[str, str] = {}
_MOST_SHARED = 100_000  # distinct records kept to share (a class's passing cases and rules are far fewer)
_shared_records: dict = {}  # {(kind, its JSON items): the one frozen record read back from them}
_shared_lock = threading.Lock()


def _shared(kind: type, data: dict) -> Any:
    """The record of KIND read back from DATA, one object for every equal DATA read in this process
    (a class of 1,500 reads the same passing case 1,500 times; a record never changes once made, so
    sharing it is safe). DATA holding a list (a case's debug lines) is read afresh each time."""
    made = _case if kind is CaseResult else lambda d: kind(**_known(kind, d))
    try:
        key = (kind, tuple((k, type(v), v) for k, v in data.items()))  # (True is not 1)
        with _shared_lock:
            found = _shared_records.get(key)
    except TypeError:  # unhashable: not shared
        return made(data)
    if found is None:
        found = made(data)
        with _shared_lock:
            if len(_shared_records) < _MOST_SHARED:
                found = _shared_records.setdefault(key, found)
    return found


@dataclass(frozen=True)
class ClassRecord:
    """One entry of a class: who, what was read, and its report when it was graded."""

    student: str
    status: EntryStatus
    reason: str = ""
    report: Report | None = None
    kit: str = ""  # the fingerprint of the kit that made it (graders.courses.classroom.kit_fingerprint)
    file_id: str = ""  # the student's outputs' file name, when the id cannot be one
    path: str = ""
    digest: str = ""
    edition: str = ""
    title: str = ""
    max: int = 0
    traceback: str = ""  # the kit's own failure, for the staff
    attempts: int = 1
    first_failure: str = ""  # a retried entry: why and where the kit failed on the first attempt, for the staff
    version: int = RECORD_VERSION
    reused: bool = False  # kept from an earlier run for the same code and kit (never written)

    @property
    def graded(self) -> bool:
        return self.status == EntryStatus.GRADED and self.report is not None

    @property
    def total(self) -> int:
        return self.report.total if self.report is not None else 0

    @property
    def problems(self) -> tuple[ProblemResult, ...]:
        return self.report.problems if self.report is not None else ()

    def to_dict(self, lean: bool = False, cases: str = "") -> dict:
        """The record as JSON data: the entry's fields, then the report's (the shape of a class's
        records/ID.json.gz). LEAN: each case as :func:`lean_case` keeps it (read back the same way).
        CASES, when given, says how each problem's cases are written (see :meth:`Report.as_dict`)."""
        cases = cases or ("lean" if lean else "all")
        out: dict = {"version": self.version, "kit": self.kit, "student": self.student, "file_id": self.file_id,
                     "path": self.path, "digest": self.digest, "edition": self.edition, "title": self.title,
                     "status": str(self.status), "reason": self.reason}
        if self.report is not None:
            out.update(self.report.as_dict(cases))
        else:
            out.update(total=0, max=self.max)
        if self.traceback:
            out["traceback"] = self.traceback
        if self.attempts != 1:
            out["attempts"] = self.attempts
        if self.first_failure:
            out["first_failure"] = self.first_failure
        return out

    @classmethod
    def from_dict(cls, data: dict) -> ClassRecord:
        """A record read back; KeyError or ValueError (caught by the caller) when it is not one."""
        student = str(data["student"])
        status = EntryStatus(data["status"])
        report = Report.from_dict(data) if status == EntryStatus.GRADED else None
        fields = {k: data[k] for k in ("kit", "file_id", "path", "digest", "edition", "title", "reason",
                                        "traceback", "attempts", "first_failure", "version") if k in data}
        return ClassRecord(student=student, status=status, report=report,
                           max=int(data.get("max", 0)), **fields)


LEAN_PASSING_DROPS = ("seconds",)  # a passing case's time: nothing renders it, and it is most of its bytes
LEAN_SECONDS = 4  # a failing case's time to a tenth of a millisecond (the digits beyond are noise, and bytes)


def lean_case(case: CaseResult) -> dict:
    """CASE as JSON data holding only the fields that differ from their defaults (read back as the
    same case by :func:`problem_from_dict`), a passing case also without its time, a failing one's
    time to :data:`LEAN_SECONDS` places. A failing case keeps everything else: expected and got, the
    transcript, the reason, the traceback, its debug lines."""
    out: dict = {}
    for name, default in _CASE_DEFAULTS:
        value = getattr(case, name)
        value = round(value, LEAN_SECONDS) if name == "seconds" else value
        dropped = case.passed and name in LEAN_PASSING_DROPS
        if not dropped and (default is dataclasses.MISSING or value != default):
            out[name] = plain(value)
    return out


_CASE_DEFAULTS = tuple((f.name, f.default) for f in dataclasses.fields(CaseResult))
_CASE_BLANK = {name: default for name, default in _CASE_DEFAULTS if default is not dataclasses.MISSING}
_CASE_REQUIRED = frozenset(name for name, default in _CASE_DEFAULTS if default is dataclasses.MISSING)


def lean(record: ClassRecord) -> ClassRecord:
    """RECORD as it reads back from its lean JSON (:meth:`ClassRecord.to_dict` with ``lean=True``)."""
    return ClassRecord.from_dict(record.to_dict(lean=True))


@dataclass(frozen=True)
class Standing:
    """One entry's place in a class contest: its exact average win rate against the others, and
    its match points (opponents it beats more often than not)."""

    rank: int  # entries that tie share a rank (1, 2, 2, 4)
    student: str
    points: int
    average: float


def _known(cls: type[Any], data: dict) -> dict:
    """DATA's items that are fields of CLS (DATA itself when it holds no other)."""
    names = _NAME_SETS.get(cls) or _NAME_SETS.setdefault(cls, frozenset(_field_names(cls) or ()))
    return data if data.keys() <= names else {k: v for k, v in data.items() if k in names}


_NAME_SETS: dict[type, frozenset[str]] = {}


_FIELDS: dict[type, tuple[str, ...] | None] = {}  # a type's field names (None: not a record), found once per type
_LEAVES = (str, int, float, bool, type(None))


def _field_names(kind: type) -> tuple[str, ...] | None:
    """KIND's field names when it is a record class (a dataclass), else None; looked up once."""
    try:
        return _FIELDS[kind]
    except KeyError:
        names = tuple(f.name for f in dataclasses.fields(kind)) if dataclasses.is_dataclass(kind) else None
        return _FIELDS.setdefault(kind, names)  # (the same value whichever thread sets it first)


def plain(value: Any) -> Any:
    """VALUE as JSON data: records as dicts, tuples as lists, statuses as their words."""
    kind = type(value)
    if kind in _LEAVES:  # the exact types: a status is a str subclass and goes on to become its word
        return value
    if kind is tuple or kind is list:
        return [plain(v) for v in value]
    names = _field_names(kind)
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    if isinstance(value, Status):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value
