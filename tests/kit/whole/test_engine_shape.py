"""The engine's shape, checked: short functions, no import circle, records that never change once
made, statuses as values, class records that survive JSON. Each test fails on the engine as it
was before these rules were held (a 107-line parser builder, grading ↔ analysis importing each
other, records mutated after a progress callback saw them, statuses read as bare strings)."""

from __future__ import annotations

import ast
import dataclasses
import json
import re
from pathlib import Path

import pytest

from graders.core import records
from graders.core.records import (
    RECORD_VERSION,
    CaseResult,
    CaseStatus,
    ClassRecord,
    EntryStatus,
    ProblemResult,
    ProblemStatus,
    Report,
)
from graders.scoring.grading import grade
from graders.scoring.submissions import Submission

from .. import scanner

LONGEST = 60  # lines, decorators and docstring included


def engine_trees() -> dict[str, ast.Module]:
    """{module's path under graders/ ("scoring/grading"): its tree} for every engine module, as the
    shared scanner parsed them once per process (the tests here only read the trees)."""
    return {m.name: m.tree for m in scanner.modules()}


def stem(name: str) -> str:
    """"scoring/grading" -> "grading"."""
    return name.rsplit("/", 1)[-1]


def is_sentence_module(name: str) -> bool:
    """graders/**/*messages.py: graders.core.messages, a folder's messages.py, graders/cli/messages.py."""
    return stem(name).endswith("messages")


def test_no_engine_function_is_longer_than_sixty_lines():
    long = [f"{name}.py:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for name, tree in engine_trees().items() for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > LONGEST]
    assert long == []


def test_circles_are_found_where_there_are_some():
    assert scanner.circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert scanner.circles({"a": {"b"}, "b": set()}) == []


def test_no_engine_module_imports_itself_back_through_others():
    assert scanner.circles(scanner.graph()) == []


def test_the_modules_that_open_a_submission_do_not_need_grading():
    """The browser game, templates and the pytest route open sessions through the sandbox module."""
    for name in ("gui/webgui", "authoring/templates", "games/analysis"):
        assert "scoring/grading" not in scanner.imports(scanner.module(name).tree), name


def test_case_results_are_built_by_keyword_everywhere():
    positional = [f"{name}.py:{node.lineno}" for name, tree in engine_trees().items() for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "CaseResult" and node.args]
    assert positional == []


@pytest.fixture(scope="module")
def report(edition, reference_source) -> Report:
    return grade(Submission(Path("hog.py"), reference_source), edition, problems=[1, 2, 11])


def test_records_never_change_once_made(report):
    problem = report.problems[0]
    for record, field in ((report, "total"), (problem, "note"), (problem.cases[0], "passed"),
                          (report.phases[0], "score")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, field, 0)
    assert isinstance(report.problems, tuple) and isinstance(problem.cases, tuple)


def test_what_a_progress_callback_saw_is_what_the_report_holds_or_was_replaced(edition, reference_source):
    seen: list[ProblemResult] = []
    report = grade(Submission(Path("hog.py"), reference_source), edition, problems=[1, 11],
                   on_problem=seen.append)
    by_label = {p.label: p for p in report.problems}
    for early in seen:  # an exact rate's note is added by a new record; the one seen is unchanged
        assert early.note == "" and dataclasses.replace(by_label[early.label], note="", hint="") == early


def test_statuses_are_values_that_read_as_their_words(report):
    for p in report.problems:
        assert type(p.status) is ProblemStatus and p.status == "passed" and str(p.status) == "passed"
        assert all(type(c.status) is CaseStatus for c in p.cases)
    assert f"{ProblemStatus.UNGRADED}" == "ungraded" and str(EntryStatus.KIT_ERROR) == "kit error"
    assert json.loads(json.dumps(records.plain(report)))["problems"][0]["status"] == "passed"


def test_a_class_record_survives_json_and_carries_its_version(report):
    record = ClassRecord(student="ada", status=EntryStatus.GRADED, report=report, kit="k1", digest="d",
                         edition="boar_brawl", title=report.title, max=report.max)
    data = json.loads(json.dumps(record.to_dict()))
    assert data["version"] == RECORD_VERSION and data["status"] == "graded" and data["total"] == report.total
    back = ClassRecord.from_dict(data)
    assert back == record
    failed = ClassRecord(student="bo", status=EntryStatus.KIT_ERROR, reason="r", traceback="t", attempts=2, max=24)
    assert ClassRecord.from_dict(json.loads(json.dumps(failed.to_dict()))) == failed


def test_a_record_of_another_kind_is_refused():
    with pytest.raises(ValueError):
        ClassRecord.from_dict({"student": "ada", "status": "splendid"})
    with pytest.raises(KeyError):
        ClassRecord.from_dict({"status": "graded"})


def _one_entry(tmp_path, edition, reference_source):
    """A class of one (ada, the reference), its output folder, entry, kit fingerprint and a record of it."""
    from graders.courses import classroom
    from graders.scoring.submissions import discover

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ada.py").write_text(reference_source, encoding="utf-8")
    (entry,) = discover(folder, edition.submission)
    kit = classroom.kit_fingerprint(edition)
    record = ClassRecord(student="ada", status=EntryStatus.MISSING, kit=kit, digest=entry.digest,
                         edition=edition.name, file_id=entry.files_as)
    return tmp_path / "out", entry, kit, record


def test_a_record_of_another_version_is_graded_again(tmp_path, edition, reference_source):
    from graders.courses import classroom

    out, entry, kit, record = _one_entry(tmp_path, edition, reference_source)
    classroom.write_student(out, record)
    assert classroom.load_record(out, entry, edition, kit) == record
    path = classroom.record_path(out, entry.files_as)
    classroom.write_record(path, dataclasses.replace(record, version=RECORD_VERSION - 1))
    assert classroom.load_record(out, entry, edition, kit) is None
    path.write_bytes(b"{not gzipped")
    assert classroom.load_record(out, entry, edition, kit) is None


def test_a_record_of_the_old_uncompressed_form_is_graded_again_and_removed(tmp_path, edition, reference_source):
    """Records before version 4 were records/ID.json, every field of every case: never read (their
    kit is another), and gone once the student's record is written anew."""
    from graders.courses import classroom

    out, entry, kit, record = _one_entry(tmp_path, edition, reference_source)
    old = out / "records" / f"{entry.files_as}.json"
    old.parent.mkdir(parents=True)
    old.write_text(json.dumps({**record.to_dict(), "version": 3}, indent=1), encoding="utf-8")
    assert classroom.load_record(out, entry, edition, kit) is None
    classroom.write_student(out, record)
    assert not old.exists() and classroom.load_record(out, entry, edition, kit) == record


def test_a_lean_record_keeps_every_failing_case_whole_and_renders_as_the_full_one(edition, skeleton_source,
                                                                                  report):
    from graders.scoring import reports

    failing = grade(Submission(Path("hog.py"), skeleton_source), edition, workers=1)
    for graded in (report, failing):
        record = ClassRecord(student="ada", status=EntryStatus.GRADED, report=graded, kit="k", digest="d",
                             edition=edition.name, title=graded.title, max=graded.max)
        back = records.lean(record)
        assert back.report is not None
        for full, kept in zip((c for p in graded.problems for c in p.cases),
                              (c for p in back.report.problems for c in p.cases), strict=True):
            assert kept == dataclasses.replace(full, seconds=0.0 if full.passed else round(full.seconds, 4))
        assert reports.render_record_markdown(back) == reports.render_record_markdown(record)
        assert reports.render_gradescope(back) == reports.render_gradescope(record)
        assert reports.summary_record(back) == reports.summary_record(record)
        assert reports.render_class_summary([back], edition) == reports.render_class_summary([record], edition)
    assert any(not c.passed and c.transcript and c.expected for p in failing.problems for c in p.cases)
    lean = json.dumps(ClassRecord(student="b", status=EntryStatus.GRADED, report=failing).to_dict(lean=True))
    assert not re.search(r'"seconds": 0\.0[,}]', lean) and '"traceback": ""' not in lean


def test_a_record_written_without_its_cases_is_the_full_one_less_them(edition, skeleton_source, report):
    """What a summary and a course's policy read (``cases="none"``) is the full JSON without each
    problem's cases and rules, its keys in the same order; a lean one differs from the full one in
    its cases alone; records.jsonl's summary is the full record's less what it drops."""
    from graders.scoring import reports

    failing = grade(Submission(Path("hog.py"), skeleton_source), edition, workers=1)
    for graded in (report, failing):
        record = ClassRecord(student="ada", status=EntryStatus.GRADED, report=graded, kit="k", digest="d",
                             edition=edition.name, title=graded.title, max=graded.max)
        full, bare, lean = record.to_dict(), record.to_dict(cases="none"), record.to_dict(lean=True)
        less = [{k: v for k, v in p.items() if k not in ("cases", "rules")} for p in full["problems"]]
        assert bare == {**full, "problems": less} and list(bare) == list(full)
        assert [list(p) for p in bare["problems"]] == [list(p) for p in less]
        assert lean == {**full, "problems": [{**p, "cases": [records.lean_case(c) for c in q.cases]}
                                             for p, q in zip(full["problems"], graded.problems, strict=True)]}
        summary = {k: v for k, v in full.items() if k not in ("cases", "traceback", "rules", "problems")}
        summary["problems"] = [{**p, "cases_passed": sum(c.passed for c in q.cases),
                                "cases_run": sum(c.ran for c in q.cases)}
                               for p, q in zip(less, graded.problems, strict=True)]
        assert reports.summary_record(record) == summary


def test_passing_cases_read_back_are_shared_and_nothing_else_is_conflated():
    """A class reads the same passing case once per student: read back, equal ones are one object
    (records never change, so sharing is safe); a case whose field differs only in type (1 for
    True) is not taken for it, a case with debug lines (a list) is read afresh, and a case missing a
    field it must have is refused (TypeError: the record is graded again)."""
    data = {"case_id": "q01-1", "name": "one", "hidden": False, "passed": True, "status": "passed"}
    first, second = records.case_from_dict(dict(data)), records.case_from_dict(dict(data))
    assert first is second and first == CaseResult(case_id="q01-1", name="one", hidden=False, passed=True,
                                                   status=CaseStatus.PASSED)
    other = records.case_from_dict({**data, "hidden": 0})
    assert other is not first and type(other.hidden) is int
    with_debug = {**data, "debug": ["a line"]}
    assert records.case_from_dict(with_debug) is not records.case_from_dict(with_debug)
    assert records.case_from_dict(with_debug).debug == ("a line",)
    failing = {**data, "passed": False, "status": "failed", "got": "3", "seconds": 0.5}
    assert records.case_from_dict(failing) == CaseResult(case_id="q01-1", name="one", hidden=False, passed=False,
                                                         status=CaseStatus.FAILED, got="3", seconds=0.5)
    assert records.case_from_dict(failing).status is CaseStatus.FAILED
    long = {**failing, "transcript": ">>> play(always_roll(5), always_roll(5))\n" * 3}
    again = json.loads(json.dumps({**long, "seconds": 0.7}))  # another student's, read from another file
    assert records.case_from_dict(long).transcript is records.case_from_dict(again).transcript  # one text
    with pytest.raises(TypeError):
        records.case_from_dict({k: v for k, v in failing.items() if k != "name"})
    with pytest.raises(ValueError):
        records.case_from_dict({**failing, "status": "no such status"})


def test_a_case_result_knows_whether_it_ran():
    ran = CaseResult(case_id="a", name="a", hidden=False, passed=False, status=CaseStatus.TIMEOUT)
    skipped = dataclasses.replace(ran, status=CaseStatus.NOT_RUN)
    assert ran.ran and not skipped.ran


SENTENCE = re.compile(r"[A-Za-z]+(?: +[A-Za-z'()]+){2,}")  # three words or more: a sentence, or part of one
# Sentences that stay where they are, each for a reason:
ALLOWED_SENTENCES = {
    # Python's own words, imitated by the child's capped stdout so that student code sees what Python says.
    ("sandboxing/childwire.py", "write() argument must be str"),
    # A name the kit's functions do not offer: Python's NameError, as Python words it.
    ("sandboxing/childlink.py", " is not defined"),
    # What check_strategy prints in the child is a case's output, compared with the case files' text.
    ("sandboxing/probes.py", ") gave two different answers"),
}


def sentences_outside_messages() -> set[tuple[str, str]]:
    """(module, text) of every sentence raised, printed or given to parser.error outside the sentence
    modules (graders/**/*messages.py)."""
    found = set()
    for name, tree in engine_trees().items():
        if is_sentence_module(name):
            continue
        for node in ast.walk(tree):
            said = None
            if isinstance(node, ast.Raise) and node.exc is not None:
                said = node.exc
            elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                    "print", "error", "exit", "warn"):
                said = node
            for sub in ast.walk(said) if said is not None else ():
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and SENTENCE.search(sub.value):
                    found.add((f"{name}.py", sub.value))
    return found


def test_every_sentence_the_engine_says_comes_from_messages():
    assert sentences_outside_messages() - ALLOWED_SENTENCES == set()


def test_the_sentence_scan_finds_an_inline_sentence(monkeypatch):
    tree = ast.parse('def f(x):\n    raise ValueError(f"the value {x} is not a number")\n')
    monkeypatch.setattr(__import__(__name__, fromlist=["engine_trees"]), "engine_trees", lambda: {"fake": tree})
    assert sentences_outside_messages() == {("fake.py", " is not a number")}


def test_the_allowed_sentences_are_all_still_there():
    assert ALLOWED_SENTENCES <= sentences_outside_messages()


def test_every_renderer_lives_in_reports():
    """Text, CSV, HTML and Markdown made from grading's records (the contest's standings and the
    answer key included) come from reports.py; the modules that compute them only call it. (The TA
    report renders activity logs, not grading records, in tareport.py.)"""
    computing = ("courses/contest", "cli/grading", "cli/authoring", "cli/analysis", "courses/classroom",
                 "scoring/grading", "courses/gradescope")
    elsewhere = [f"{name}.py:{node.lineno} {node.name}" for name, tree in engine_trees().items() if name in computing
                 for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("render_")]
    assert elsewhere == []
    from graders.scoring import reports

    for name in ("render_leaderboard_csv", "render_contest_html", "render_answer_key", "render_answer_key_text",
                 "render_gradescope", "render_grades_csv", "render_class_summary", "render_record_markdown"):
        assert callable(getattr(reports, name)), name


def test_the_contest_standings_are_typed_and_share_ranks_on_ties():
    import numpy as np

    from graders.core.records import Standing
    from graders.courses.contest import _standings

    rates = np.array([[0.5, 0.6, 0.6], [0.4, 0.5, 0.5], [0.4, 0.5, 0.5]])
    board = _standings(["ada", "bo", "cy"], rates)
    assert [s for _i, s in board] == [Standing(1, "ada", 2, 0.6), Standing(2, "bo", 0, 0.45),
                                      Standing(2, "cy", 0, 0.45)]
    from graders.scoring import reports

    assert reports.render_leaderboard_csv([s for _i, s in board], [("dee", "no final_strategy")]).splitlines() == [
        "rank,student,match points,average win rate,status", "1,ada,2,0.600000,valid", "2,bo,0,0.450000,valid",
        "2,cy,0,0.450000,valid", ",dee,,,invalid: no final_strategy"]


# -- one writer per output format ----------------------------------------------------------------

JSON_RAW_ALLOWED = {  # modules that may write JSON with raw non-ASCII text, and why
    "core/writers": "the one JSON writer for output people read",
    "runner/activity": "the student's log: its hash chain is computed over this exact text",
    "authoring/artifacts": "the kit's own manifests, written from the edition's data",
    "authoring/tomlw": "TOML strings, from the edition's data",
}


def plain_text(name: str) -> bool:
    """Whether the module NAME says plain text only (the sentences, the bundle's files): no Markdown."""
    return is_sentence_module(name) or name == "authoring/bundle"


def _strings(tree: ast.Module) -> list[tuple[int, str]]:
    """Every string constant of TREE, and the constant parts of its f-strings, with their lines."""
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def test_every_csv_and_markdown_file_is_written_through_the_writers():
    """Formulas in CSV and HTML in Markdown are escaped in one place (graders/core/writers.py): no other
    module makes a CSV writer, fences a code block, puts a value in a code span of an f-string,
    or writes JSON with raw control characters; a module rendering Markdown imports the writers."""
    found = []
    for name, tree in engine_trees().items():
        if name == "core/writers":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "csv" \
                    and node.attr in ("writer", "DictWriter"):
                found.append(f"{name}.py:{node.lineno}: csv.{node.attr} (use writers.csv_text)")
            if isinstance(node, ast.keyword) and node.arg == "ensure_ascii" and name not in JSON_RAW_ALLOWED:
                found.append(f"{name}.py:{node.lineno}: ensure_ascii (use writers.json_text)")
            if isinstance(node, ast.JoinedStr) and not plain_text(name):
                parts = node.values
                found += [f"{name}.py:{node.lineno}: a value in a `code span` (use writers.md_code)"
                          for a, b in zip(parts, parts[1:], strict=False)
                          if isinstance(a, ast.Constant) and str(a.value).endswith("`")
                          and isinstance(b, ast.FormattedValue)]
        strings = _strings(tree)
        found += [f"{name}.py:{line}: a code fence (use writers.md_block)" for line, s in strings if "```" in s]
        renders_markdown = any("|---|" in s or s.startswith("## ") for _, s in strings)
        if renders_markdown and not is_sentence_module(name) and "core/writers" not in scanner.imports(tree):
            found.append(f"{name}.py: renders Markdown without graders.core.writers")
    assert not found, "\n".join(found)
