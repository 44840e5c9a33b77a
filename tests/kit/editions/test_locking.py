"""Locking: normalised answers, salted hashes, near-miss hints, the student suites and progress files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from graders.authoring.artifacts import student_suite
from graders.core import messages
from graders.editions import locking
from graders.editions.cases import load_problem_cases, load_questions, render_steps
from graders.editions.edition import DEFAULT_EDITION, load_edition

PROBLEMS = [p.number for p in load_edition(DEFAULT_EDITION).problems]
HEX64 = re.compile(r"^[0-9a-f]{64}$")
HEX16 = re.compile(r"^[0-9a-f]{16}$")
RECORD_KEYS = {"id", "name", "steps", "question", "choices", "salt", "hashes"}
STEP_KEYS = {"source", "salt", "hashes"}


# -- normalise -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        (" 3 ", "3"),
        ("3", "3"),
        ("(1,2)", "(1, 2)"),
        ("( 1 ,  2 )", "(1, 2)"),
        ("[1,2]", "[1, 2]"),
        ('"hi"', "'hi'"),
        ("'hi'", "'hi'"),
        ("error", "Error"),
        ("ERROR", "Error"),
        ("  Error ", "Error"),
        ("infinite loop", "Infinite Loop"),
        ("INFINITE   loop", "Infinite Loop"),
        ("function", "Function"),
        ("nothing", "Nothing"),
        ("True", "True"),
        ("None", "None"),
        ("12.0", "12.0"),
        ("called   with\t5", "called with 5"),
        ("  asked with 0 10  ", "asked with 0 10"),
    ],
)
def test_normalise_gives_one_spelling_per_answer(typed: str, canonical: str) -> None:
    assert locking.normalise(typed) == canonical


def test_normalise_is_idempotent() -> None:
    for text in [" 3 ", "(1,2)", '"hi"', "error", "infinite loop", "free   text here", "[1,2]", "12.0"]:
        once = locking.normalise(text)
        assert locking.normalise(once) == once


def test_normalise_keeps_different_values_apart() -> None:
    assert locking.normalise("12") != locking.normalise("12.0")
    assert locking.normalise("'12'") != locking.normalise("12")
    assert locking.normalise("(1, 2)") != locking.normalise("[1, 2]")
    assert locking.normalise("True") != locking.normalise("true")
    assert locking.normalise("None") != locking.normalise("Nothing")


# -- salts and hashes ----------------------------------------------------------------------------


def test_the_same_answer_under_two_prompts_gets_two_hashes() -> None:
    first = locking.make_salt(DEFAULT_EDITION, "q01.unlock.u1", 0)
    second = locking.make_salt(DEFAULT_EDITION, "q01.unlock.u1", 3)
    other_question = locking.make_salt(DEFAULT_EDITION, "q02.unlock.u1", 0)
    other_edition = locking.make_salt("another_edition", "q01.unlock.u1", 0)
    assert len({first, second, other_question, other_edition}) == 4
    hashes = {locking.hash_answer(s, "12") for s in (first, second, other_question, other_edition)}
    assert len(hashes) == 4


def test_repeated_answers_in_a_real_question_get_different_hashes(edition) -> None:
    question = next(q for q in load_questions(edition, 1) if q.id == "q01.unlock.u1")
    twelves = [k for k, s in enumerate(question.steps) if s.expected == "12"]
    assert len(twelves) >= 2, "q01.unlock.u1 should ask for 12 twice"
    record = locking.lock_question(edition.name, question)
    hashes = [record["steps"][k]["hashes"][0] for k in twelves]
    assert len(set(hashes)) == len(hashes)


def test_salt_is_stable_and_short_hex() -> None:
    assert locking.make_salt("e", "q", 0) == locking.make_salt("e", "q", 0)
    assert HEX16.match(locking.make_salt("e", "q", 0))
    assert HEX64.match(locking.hash_answer("abc", "12"))


@pytest.mark.parametrize(
    ("answer", "typed"),
    [("(1, 2)", "(1,2)"), ("(1, 2)", " ( 1, 2 ) "), ("'hi'", '"hi"'), ("Error", "error"),
     ("Infinite Loop", "infinite loop"), ("Nothing", "NOTHING"), ("12", " 12 "), ("Function", "function")],
)
def test_check_accepts_equivalent_spellings(answer: str, typed: str) -> None:
    s = locking.make_salt(DEFAULT_EDITION, "q99.unlock.u1", 0)
    assert locking.check(s, locking.hash_answer(s, answer), typed)


@pytest.mark.parametrize(
    ("answer", "typed"),
    [("(1, 2)", "(2, 1)"), ("(1, 2)", "[1, 2]"), ("'hi'", "hi"), ("12", "12.0"), ("12", "13"),
     ("True", "true"), ("Nothing", "None"), ("Error", "Function"), ("12", "")],
)
def test_check_rejects_wrong_answers(answer: str, typed: str) -> None:
    s = locking.make_salt(DEFAULT_EDITION, "q99.unlock.u1", 0)
    assert not locking.check(s, locking.hash_answer(s, answer), typed)


def test_check_depends_on_the_salt() -> None:
    s1 = locking.make_salt(DEFAULT_EDITION, "q99.unlock.u1", 0)
    s2 = locking.make_salt(DEFAULT_EDITION, "q99.unlock.u1", 1)
    assert not locking.check(s2, locking.hash_answer(s1, "12"), "12")


# -- near misses ---------------------------------------------------------------------------------

NEAR_MISSES = [
    ("12", "12.0", "float"),
    ("12.0", "12", "float"),
    ("True", "true", "case"),
    ("False", "FALSE", "case"),
    ("'hi'", "hi", "quotes"),
    ("12", "'12'", "no_quotes"),
    ("(1, 2)", "[1, 2]", "tuple"),
    ("Nothing", "None", "special"),
    ("Error", "exception", "special"),
    ("Error", "AssertionError", "error_name"),
    ("Error", "ZeroDivisionError: division by zero", "error_name"),
    ("Error", "Traceback (most recent call last):", "error_name"),
    ("Function", "<function roll_dice at 0x7f3a>", "function"),
    ("Function", "<function make_averaged.<locals>.averaged at 0x1>", "function"),
]


@pytest.mark.parametrize(("answer", "typed", "why"), NEAR_MISSES)
def test_near_miss_names_the_hint(answer: str, typed: str, why: str) -> None:
    s = locking.make_salt(DEFAULT_EDITION, "q99.unlock.u2", 0)
    expected_hash = locking.hash_answer(s, answer)
    assert not locking.check(s, expected_hash, typed)
    assert locking.near_miss(s, expected_hash, typed) == why


@pytest.mark.parametrize(("answer", "typed"), [("12", "7"), ("'hi'", "bye"), ("(1, 2)", "(3, 4)"), ("True", "12")])
def test_near_miss_is_none_for_an_unrelated_answer(answer: str, typed: str) -> None:
    s = locking.make_salt(DEFAULT_EDITION, "q99.unlock.u2", 0)
    assert locking.near_miss(s, locking.hash_answer(s, answer), typed) is None


def test_every_near_miss_has_a_hint_message() -> None:
    # "order" comes from the unlocker itself, when an answer matches a later line of the output.
    assert {why for _, _, why in NEAR_MISSES} | {"order"} == set(messages.HINTS)


# -- the student suites hold no plain answers ----------------------------------------------------


def _suite(edition, number: int) -> dict:
    return json.loads(student_suite(edition, number))


def _keys(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def _answer_lines(question) -> list[str]:
    return [line for s in question.steps if s.expected is not None for line in s.expected.split("\n")]


@pytest.mark.parametrize("number", PROBLEMS)
def test_committed_skeleton_suite_is_the_built_one(edition, number: int) -> None:
    committed = edition.skeleton_dir / "tests" / f"q{number:02d}.json"
    assert committed.read_text(encoding="utf-8") == student_suite(edition, number)


@pytest.mark.parametrize("number", PROBLEMS)
def test_locked_records_hold_only_hashes(edition, number: int) -> None:
    doc = _suite(edition, number)
    questions = load_questions(edition, number)
    records = doc.get("locked", [])
    assert [r["id"] for r in records] == [q.id for q in questions]
    assert not {"answer", "expected", "answers"} & _keys(doc)
    for question, record in zip(questions, records, strict=True):
        assert set(record) <= RECORD_KEYS, record.keys()
        if question.is_choice:
            assert "steps" not in record
            assert record["choices"] == list(question.choices)
            assert HEX16.match(record["salt"])
            assert len(record["hashes"]) == 1 and HEX64.match(record["hashes"][0])
            assert locking.check(record["salt"], record["hashes"][0], question.answer)
            continue
        assert len(record["steps"]) == len(question.steps)
        for step, entry in zip(question.steps, record["steps"], strict=True):
            assert set(entry) <= STEP_KEYS
            assert entry["source"] == step.source
            if step.expected is None:
                assert set(entry) == {"source"}
                continue
            assert HEX16.match(entry["salt"])
            lines = step.expected.split("\n")
            assert len(entry["hashes"]) == len(lines)
            for line, h in zip(lines, entry["hashes"], strict=True):
                assert HEX64.match(h)
                assert locking.check(entry["salt"], h, line), f"{question.id}: the hash does not match {line!r}"


@pytest.mark.parametrize("number", PROBLEMS)
def test_no_plain_answer_appears_in_locked_data(edition, number: int) -> None:
    records = _suite(edition, number).get("locked", [])
    for question, record in zip(load_questions(edition, number), records, strict=True):
        if question.is_choice:
            continue  # the choices are shown to the student, so the answer text is among them
        # Everything but what is shown on purpose (source, choices, question).
        hidden_fields = [record["id"], record["name"]]
        hex_fields = [f for entry in record["steps"] for f in [entry.get("salt", ""), *entry.get("hashes", [])] if f]
        rest = json.dumps(hidden_fields)
        for line in _answer_lines(question):
            for spelling in {line, locking.normalise(line)}:
                assert spelling not in hex_fields
                if len(spelling) >= 2:
                    assert spelling not in rest, f"{question.id}: {spelling!r} appears in {hidden_fields}"


@pytest.mark.parametrize("number", PROBLEMS)
def test_hidden_cases_never_reach_the_student_suite(edition, number: int) -> None:
    doc = _suite(edition, number)
    shown = doc.get("case", [])
    names = {c["name"] for c in shown}
    transcripts = {c["transcript"].strip("\n") for c in shown}
    cases = load_problem_cases(edition, number)
    for case in (c for c in cases if c.hidden):
        assert case.name not in names
        assert render_steps(case.steps) not in transcripts
    public = [c for c in cases if not c.hidden]
    assert [c["name"] for c in shown] == [c.name for c in public]
    assert [c["transcript"] for c in shown] == [render_steps(c.steps) + "\n" for c in public]


def test_salts_and_prompt_keys_are_unique_across_the_edition(edition) -> None:
    salts, keys = [], []
    for number in PROBLEMS:
        for record in _suite(edition, number).get("locked", []):
            for prompt in locking.prompts_of(record):
                salts.append(prompt.salt)
                keys.append(locking.prompt_key(prompt))
    assert salts and len(set(salts)) == len(salts)
    assert len(set(keys)) == len(keys)


def test_choices_of_a_question_never_normalise_to_the_same_answer(edition) -> None:
    for number in PROBLEMS:
        for q in (q for q in load_questions(edition, number) if q.is_choice):
            assert len({locking.normalise(c) for c in q.choices}) == len(q.choices), q.id


def test_unlocking_every_prompt_unlocks_the_record(edition) -> None:
    for q in load_questions(edition, 1):
        record = locking.lock_question(edition.name, q)
        prompts = locking.prompts_of(record)
        assert prompts
        assert not locking.is_unlocked(record, {"unlocked": []})
        keys = [locking.prompt_key(p) for p in prompts]
        assert not locking.is_unlocked(record, {"unlocked": keys[:-1]})
        assert locking.is_unlocked(record, {"unlocked": keys})


# -- progress ------------------------------------------------------------------------------------


def test_progress_round_trip(tmp_path: Path) -> None:
    progress = {"unlocked": ["a" * 64, "b" * 64], "answers": {"a" * 64: "12", "b" * 64: "asked with 0 10\n(20, 4)"}}
    locking.save_progress(tmp_path, progress)
    assert (tmp_path / ".hogkit" / "progress.json").is_file()
    assert locking.load_progress(tmp_path) == progress


def test_missing_progress_is_no_progress(tmp_path: Path) -> None:
    assert locking.load_progress(tmp_path) == {"unlocked": []}


def test_saving_leaves_no_temporary_files(tmp_path: Path) -> None:
    for k in range(3):
        locking.save_progress(tmp_path, {"unlocked": [str(k)]})
    assert sorted(p.name for p in (tmp_path / ".hogkit").iterdir()) == ["progress.json"]
    assert locking.load_progress(tmp_path) == {"unlocked": ["2"]}


def test_a_failed_save_keeps_the_old_progress(tmp_path: Path) -> None:
    locking.save_progress(tmp_path, {"unlocked": ["kept"]})
    with pytest.raises(TypeError):
        locking.save_progress(tmp_path, {"unlocked": [object()]})
    assert locking.load_progress(tmp_path) == {"unlocked": ["kept"]}


def test_a_failed_save_leaves_no_temporary_file(tmp_path: Path) -> None:
    locking.save_progress(tmp_path, {"unlocked": ["kept"]})
    with pytest.raises(TypeError):
        locking.save_progress(tmp_path, {"unlocked": [object()]})
    assert sorted(p.name for p in (tmp_path / ".hogkit").iterdir()) == ["progress.json"]


@pytest.mark.parametrize(
    "text",
    ["", "{", "not json at all", "[1, 2]", "null", "42", '"unlocked"', '{"unlocked": "abc"}', '{"answers": {}}',
     '{"unlocked": {"a": 1}}', "\x00\x01garbage"],
)
def test_corrupt_progress_counts_as_no_progress(tmp_path: Path, text: str) -> None:
    path = tmp_path / ".hogkit" / "progress.json"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    assert locking.load_progress(tmp_path) == {"unlocked": []}


def test_undecodable_progress_counts_as_no_progress(tmp_path: Path) -> None:
    path = tmp_path / ".hogkit" / "progress.json"
    path.parent.mkdir()
    path.write_bytes(b"\xff\xfe\xfa not utf-8")
    assert locking.load_progress(tmp_path) == {"unlocked": []}


@pytest.mark.parametrize("text", ['{"unlocked": [[1]]}', '{"unlocked": [], "answers": []}',
                                  '{"unlocked": [], "answers": "oops"}'])
def test_damaged_progress_entries_are_not_passed_on(tmp_path: Path, text: str) -> None:
    path = tmp_path / ".hogkit" / "progress.json"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    progress = locking.load_progress(tmp_path)
    assert all(isinstance(k, str) for k in progress["unlocked"])
    assert isinstance(progress.get("answers", {}), dict)


# -- sealed progress: no answer in the clear, nothing a classmate's copy can use -----------------------


def test_progress_on_disk_shows_no_answer_and_no_key(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "alice"))
    (tmp_path / "alice").mkdir()
    progress = {"unlocked": ["a" * 64], "answers": {"a" * 64: "asked with 0 10"}, "seed": "s"}
    locking.save_progress(tmp_path, progress)
    text = (tmp_path / ".hogkit" / "progress.json").read_text(encoding="utf-8")
    assert "a" * 64 not in text and "asked with" not in text
    assert locking.load_progress(tmp_path) == progress
    assert ((tmp_path / "alice" / locking.KEY_FILE).stat().st_mode & 0o077) == 0  # the owner's alone


def test_a_classmates_copy_of_the_progress_unlocks_nothing(tmp_path: Path, monkeypatch) -> None:
    for name in ("alice", "bob"):
        (tmp_path / name).mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "alice"))
    locking.save_progress(tmp_path / "project", {"unlocked": ["a" * 64], "answers": {"a" * 64: "12"}})
    monkeypatch.setenv("HOME", str(tmp_path / "bob"))
    assert locking.load_progress(tmp_path / "project") == {"unlocked": []}


def test_a_progress_file_from_before_sealing_is_still_read(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    old = {"unlocked": ["a" * 64], "answers": {"a" * 64: "12"}, "seed": "s"}
    (tmp_path / ".hogkit").mkdir()
    (tmp_path / ".hogkit" / "progress.json").write_text(json.dumps(old), encoding="utf-8")
    assert locking.load_progress(tmp_path) == old


@pytest.mark.parametrize("damage", ["not base64!", "", "QUJD"])
def test_a_damaged_seal_counts_as_no_progress(tmp_path: Path, monkeypatch, damage: str) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".hogkit").mkdir()
    (tmp_path / ".hogkit" / "progress.json").write_text(json.dumps({"format": 2, "sealed": damage}),
                                                        encoding="utf-8")
    assert locking.load_progress(tmp_path) == {"unlocked": []}
