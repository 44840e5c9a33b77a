"""Hand-ins from where they really are (a class folder, a Gradescope export, the autograder's
metadata), whose they are (partners, groups, students off the roster), and a self-test course graded
from all three sources alike: each policy changes exactly the students it should."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from graders.courses import messages as courses_messages
from graders.courses import yamlsubset
from graders.courses.course import CourseError, Override, Result, local_time, parse_course
from graders.courses.handins import (
    Handin,
    Member,
    class_handins,
    group_attempts,
    metadata_attempts,
    parse_submission_metadata,
    parse_times,
    read_export,
    read_submission_metadata,
    result_from_results,
    results_extra,
)
from graders.courses.policy import apply_policy
from graders.courses.roster import parse_roster

LA = ZoneInfo("America/Los_Angeles")
SECOND = timedelta(seconds=1)
PHASE_ONE = frozenset({"01", "02", "03", "04", "05"})
COURSE = """
timezone = "America/Los_Angeles"
[deadlines]
checkpoint = 2024-01-30T23:59:00
early = 2024-02-06T23:59:00
due = 2024-02-07T23:59:00
[late]
policy = "per_day"
per_day = 10
cap = 30
"""
ROSTER = """id,name,email,extension days,accommodation,partner
alice,Alice Ames,alice@uni.edu,2,,
bob,Bob Birch,bob@uni.edu,2,yes,
carol,Carol Chen,carol@uni.edu,,,dan
dan,Dan Dorn,dan@uni.edu,,,
erin,Erin Eads,erin@uni.edu,,,
frank,Frank Fu,frank@uni.edu,,,
"""
C = parse_course(COURSE)
ROSTER_ = parse_roster(ROSTER)
OVERRIDES = (Override("frank", "05", 2, True, "a case was unfair"),)


def result(total: float, phase1: bool) -> Result:
    """A Boar Brawl-like result: ten problems worth 24, Phase 1 (01 to 05) complete or not."""
    points = {"01": 2, "02": 2, "03": 2, "04": 1, "05": 3, "06": 2, "07": 2, "08": 2, "09": 2, "10": 6}
    scores = dict(points) if phase1 else {k: 0 for k in points}
    left = total - sum(scores.values())
    for label in sorted(points, reverse=True):  # fill (or empty) the Phase 2 problems to reach TOTAL
        if label in PHASE_ONE:
            continue
        change = max(-scores[label], min(points[label] - scores[label], left))
        scores[label] += change
        left -= change
    assert left == 0
    return Result(phase1, float(total), 24.0, tuple((k, float(v)) for k, v in scores.items()))


# The self-test course's hand-ins: (key, local time, submitters, result).
HANDINS = [
    ("alice-1", C.checkpoint + timedelta(days=1), ["alice"], result(10, True)),  # within her extension
    ("alice-2", C.early + timedelta(hours=1), ["alice"], result(24, True)),  # full marks, too late for the bonus
    ("bob-0", C.checkpoint + timedelta(days=2) - SECOND, ["bob"], result(10, True)),
    ("bob-1", C.early + timedelta(days=1), ["bob"], result(24, True)),  # the bonus, by his accommodation
    ("carol-1", C.checkpoint - timedelta(hours=1), ["carol"], result(10, True)),  # counts for dan, her partner
    ("carol-2", C.due + SECOND, ["carol", "dan"], result(24, True)),  # a late group submission
    ("frank-1", C.due - SECOND, ["frank"], result(20, True)),
    ("zed-1", C.due - timedelta(hours=1), ["zed"], result(24, True)),  # not on the roster
]
EXPECTED = {"alice": 25, "bob": 26, "carol": 22.6, "dan": 22.6, "erin": 0, "frank": 22, "zed": 24}


def finals(course, groups, overrides=OVERRIDES) -> dict[str, float]:
    return {g.student.id: apply_policy(course, g.student, g.attempts, overrides).final for g in groups}


def graded() -> dict[str, Result]:
    return {key: r for key, _, _, r in HANDINS}


# -- source 1: a plain class folder with times.csv ---------------------------------------------------------


def make_class(folder: Path) -> list[tuple[str, Path]]:
    folder.mkdir()
    rows = ["entry,time,student"]
    entries = []
    for key, when, who, _ in HANDINS:
        (folder / f"{key}.py").write_text("# a submission\n", encoding="utf-8")
        entries.append((key, folder / f"{key}.py"))
        # half the times in UTC, half on the course's clock without an offset
        shown = when.astimezone(UTC).isoformat() if len(rows) % 2 else when.astimezone(LA).strftime("%Y-%m-%d %H:%M:%S")
        rows.append(f"{key},{shown},{who[0]}")
    (folder / "times.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return entries


def test_the_self_test_course_from_a_class_folder(tmp_path: Path) -> None:
    entries = make_class(tmp_path / "class")
    handins = class_handins(tmp_path / "class", entries, LA)
    assert all(h.how == "times.csv" for h in handins)
    groups = group_attempts(handins, graded(), ROSTER_, partners=C.partners)
    assert finals(C, groups) == EXPECTED
    by_id = {g.student.id: g for g in groups}
    assert [a.key for a in by_id["dan"].attempts] == ["carol-1", "carol-2"] and by_id["dan"].shared_with == ("carol",)
    assert by_id["erin"].attempts == () and not by_id["zed"].student.on_roster


def test_each_policy_changes_exactly_the_students_it_should(tmp_path: Path) -> None:
    handins = class_handins(tmp_path / "class", make_class(tmp_path / "class"), LA)
    groups = group_attempts(handins, graded(), ROSTER_)
    base = finals(C, groups)

    def changed(course_text: str = COURSE, overrides=OVERRIDES) -> set[str]:
        other = finals(parse_course(course_text), groups, overrides)
        return {k for k in base if other[k] != base[k]}

    assert changed(COURSE + "[extensions]\napply_to = []\n") == {"alice", "bob"}
    assert changed(COURSE.replace('policy = "per_day"', 'policy = "none"')) == {"carol", "dan"}
    assert changed(overrides=()) == {"frank"}
    assert changed(COURSE + "[points]\nearly = 0\n") == {"bob"}
    assert changed(COURSE + "[points]\ncheckpoint = 0\n") == {"alice", "bob", "carol", "dan"}
    assert changed(COURSE.replace("cap = 30", "cap = 5")) == {"carol", "dan"}


def test_without_times_csv_a_submission_file_s_modification_time_is_its_time(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    (folder / "amy").mkdir(parents=True)
    (folder / "amy" / "hog.py").write_text("x = 1\n", encoding="utf-8")
    (folder / "ben.py").write_text("x = 1\n", encoding="utf-8")
    stamp = datetime(2024, 2, 7, 23, 59, 30, tzinfo=UTC).timestamp()
    os.utime(folder / "amy" / "hog.py", (stamp, stamp))
    os.utime(folder / "ben.py", (stamp - 60, stamp - 60))
    handins = class_handins(folder, [("amy", folder / "amy"), ("ben", folder / "ben.py")], LA)
    assert [h.time.timestamp() for h in handins] == [stamp, stamp - 60] and handins[1].how == "file time"
    (folder / "amy" / ".hogkit").mkdir()  # the folder's own time moves; the submission's does not
    assert class_handins(folder, [("amy", folder / "amy")], LA)[0].time.timestamp() == stamp


def test_a_bad_times_file_names_its_row() -> None:
    with pytest.raises(CourseError, match=r"times.csv row 3: 'soon' is not a date"):
        parse_times("id,time\na,2024-02-07T10:00:00\nb,soon\n", LA)
    with pytest.raises(CourseError, match=r"times.csv row 3: the id 'a' is already on row 2"):
        parse_times("id,time\na,2024-02-07T10:00:00\na,2024-02-07T11:00:00\n", LA)


# -- source 2: a Gradescope export ------------------------------------------------------------------------


def ruby_time(when: datetime) -> str:
    """A time as Ruby's YAML writes it in an export: nine digits of fraction, a space, the offset."""
    local = when.astimezone(LA)
    offset = local.strftime("%z")
    return local.strftime("%Y-%m-%d %H:%M:%S.%f") + f"000 {offset[:3]}:{offset[3:]}"


def make_export(folder: Path) -> None:
    people = {s.id: s for s in ROSTER_.students}
    lines = ["---"]
    for number, (key, when, who, _) in enumerate(HANDINS, start=1001):
        (folder / f"submission_{number}").mkdir(parents=True)
        (folder / f"submission_{number}" / "hog.py").write_text(f"# {key}\n", encoding="utf-8")
        lines += [f":submission_{number}:", "  :submitters:"]
        for sid in who:
            name = people[sid].name if sid in people else "Zed Zorn"
            lines += [f"  - :name: {name}", f"    :sid: '{sid}'", f"    :email: {sid}@uni.edu"]
        lines += [f"  :created_at: {ruby_time(when)}", "  :score: !ruby/object:BigDecimal 18:0.1e2",
                  "  :status: processed", "  :results:", "    :output: |-", "      Total: 10/24",
                  "      - not a list item", "    :tests: []"]
    (folder / "submission_metadata.yml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_the_self_test_course_from_a_gradescope_export(tmp_path: Path) -> None:
    make_export(tmp_path / "assignment_1_export")
    export = read_export(tmp_path)  # the folder the download unzips to, holding the export's own folder
    assert len(export.handins) == len(HANDINS) and export.notes == ()
    keys = {f"submission_{n}": key for n, (key, *_) in enumerate(HANDINS, start=1001)}
    results = {h.key: graded()[keys[h.key]] for h in export.handins}  # each folder graded once
    groups = group_attempts(export.handins, results, ROSTER_)
    assert finals(C, groups) == EXPECTED
    carol_2 = next(h for h in export.handins if keys[h.key] == "carol-2")
    assert carol_2.members == (Member("Carol Chen", "carol@uni.edu", "carol"), Member("Dan Dorn", "dan@uni.edu", "dan"))
    assert carol_2.time == C.due + SECOND and carol_2.path == tmp_path / "assignment_1_export" / carol_2.key


def test_an_export_s_history_and_unlisted_folders_are_kept(tmp_path: Path) -> None:
    (tmp_path / "submission_7").mkdir()
    (tmp_path / "submission_6").mkdir()
    (tmp_path / "submission_9").mkdir()
    (tmp_path / "submission_metadata.yml").write_text(
        ":submission_7:\n  :submitters:\n  - :name: Amy\n    :sid: '42'\n    :email: amy@uni.edu\n"
        "  :created_at: 2024-02-07 20:00:00.000000000 -08:00\n  :history:\n  - :id: 6\n"
        "    :created_at: 2024-02-05 20:00:00.000000000 -08:00\n  - :id: 5\n"
        "    :created_at: 2024-02-04 20:00:00.000000000 -08:00\n", encoding="utf-8")
    export = read_export(tmp_path)
    assert [h.key for h in export.handins[:2]] == ["submission_6", "submission_7"]
    assert export.handins[0].members == export.handins[1].members  # the history is the same submitter's
    unlisted = export.handins[2]
    assert unlisted.key == "submission_9" and unlisted.how == "file time"
    # submission_5 has no folder: not a hand-in
    assert export.notes == (courses_messages.export_unlisted("submission_9"),)


def test_a_folder_without_export_metadata_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(CourseError) as caught:
        read_export(tmp_path)
    assert str(caught.value) == courses_messages.course_error(
        str(tmp_path), "", courses_messages.no_export_metadata("submission_metadata.yml"))


def test_the_yaml_reader_takes_what_psych_writes_and_skips_what_it_cannot_place() -> None:
    text = ("--- !ruby/hash:ActiveSupport::HashWithIndifferentAccess\n:a: &1\n  :b: 'it''s'\n  :c: \"tab\\there\"\n"
            ":d: *1\n:e:\n- 1\n- -2.5\n- ~\n- true\n:f: >\n  folded\n  text\n:g: \"two\n  lines\"\n"
            "  stray: line\n:h: [x, y]\n:i: :symbol\n# a comment\n:j: plain # a comment\n...\n:k: after the end\n")
    assert yamlsubset.load(text) == {"a": {"b": "it's", "c": "tab\there"}, "d": None, "e": [1, -2.5, None, True],
                                     "f": "folded text\n", "g": "two lines", "h": ["x", "y"], "i": "symbol",
                                     "j": "plain"}
    for garbage in ["", "- - -", ":::", "a: [unclosed", "key: 'unclosed\n  more", "\t\tx: 1", "- a\nb: 2\n  - c"]:
        yamlsubset.load(garbage)  # never an exception for what it reads
    with pytest.raises(ValueError, match="nested too deeply"):
        yamlsubset.load("".join(" " * k + "- a:\n" for k in range(0, 8000, 2)))


# -- source 3: the autograder's submission_metadata.json -------------------------------------------------


def results_json(r: Result, extra: bool) -> dict:
    """A results.json as the autograder writes it: one test per problem, numbered by its label."""
    tests = [{"name": f"Problem {k}", "number": k, "score": v, "max_score": 0} for k, v in r.problems]
    maxima = dict(result(24, True).problems)
    for test in tests:
        test["max_score"] = maxima[test["number"]]
    tests.append({"name": "Phase 1 checkpoint", "number": "checkpoint", "score": 0, "max_score": 1})
    return {"score": r.total, "tests": tests, **({"extra_data": {"hogkit": results_extra(r)}} if extra else {})}


def metadata_for(keys: list[str], extra: bool) -> dict:
    """Gradescope's submission_metadata.json while the last of KEYS is being graded."""
    rows = {key: (when, who, r) for key, when, who, r in HANDINS}
    when, who, _ = rows[keys[-1]]
    people = {s.id: s for s in ROSTER_.students}
    return {
        "id": 5550000 + len(keys), "created_at": when.astimezone(LA).isoformat(),
        "assignment": {"due_date": "2024-02-07T23:59:00.000000-08:00", "late_due_date": None, "title": "Hog",
                       "group_submission": True, "group_size": 2, "total_points": "25.0"},
        "submission_method": "upload",
        "users": [{"email": f"{sid}@uni.edu", "id": 1, "name": people[sid].name if sid in people else sid,
                   "sid": sid} for sid in who],
        "previous_submissions": [{"submission_time": rows[k][0].astimezone(UTC).isoformat(), "score": rows[k][2].total,
                                  "results": results_json(rows[k][2], extra)} for k in keys[:-1]],
    }


@pytest.mark.parametrize("extra", [True, False], ids=["extra_data", "tests"])
def test_the_self_test_course_from_the_autograder_s_metadata(tmp_path: Path, extra: bool) -> None:
    chains = {"alice": ["alice-1", "alice-2"], "bob": ["bob-0", "bob-1"], "carol": ["carol-1", "carol-2"],
              "dan": ["carol-1", "carol-2"], "frank": ["frank-1"], "zed": ["zed-1"]}
    for sid, keys in chains.items():
        path = tmp_path / f"{sid}.json"
        path.write_text(json.dumps(metadata_for(keys, extra)), encoding="utf-8")
        meta = read_submission_metadata(path, PHASE_ONE)
        assert len(meta.previous) == len(keys) - 1 and meta.title == "Hog"
        attempts = metadata_attempts(meta, graded()[keys[-1]])
        student = ROSTER_.find(sid) or group_attempts([Handin("x", attempts[-1].time, meta.members)],
                                                       {"x": graded()[keys[-1]]}, ROSTER_)[-1].student
        out = apply_policy(C, student, attempts, OVERRIDES)
        assert out.final == EXPECTED[sid], sid
        # The checkpoint comes from an earlier submission that completed Phase 1 before the date.
        assert out.checkpoint == (1 if sid in ("alice", "bob", "carol", "dan") else 0)


def test_the_metadata_fields_read_and_nothing_else_trusted() -> None:
    meta = parse_submission_metadata({
        "id": 123, "created_at": "2024-02-07T23:59:59.5-08:00",
        "users": [{"name": "Amy", "email": "amy@uni.edu", "sid": "42"}, "not a user"],
        "assignment": {"due_date": "2024-02-07T23:59:00-08:00", "late_due_date": "2024-02-10T23:59:00-08:00"},
        "previous_submissions": [
            {"submission_time": "2024-02-01T10:00:00-08:00", "score": 3.0, "results": {"tests": []}},  # no grade
            {"submission_time": "garbage", "results": {"tests": [{"number": "01", "score": 2, "max_score": 2}]}},
            {"submission_time": "2024-02-02T10:00:00-08:00",
             "results": {"tests": [{"number": "01", "score": 2, "max_score": 2}, {"number": "02", "score": "x"}]}},
            7,
        ]}, PHASE_ONE)
    assert meta.submission == "123" and meta.members == (Member("Amy", "amy@uni.edu", "42"),)
    assert meta.due_date == datetime.fromisoformat("2024-02-07T23:59:00-08:00") and meta.late_due_date is not None
    assert len(meta.previous) == 1 and meta.previous[0].total == 2 and not meta.previous[0].phase1_complete
    now = datetime(2024, 1, 1, tzinfo=UTC)
    bare = parse_submission_metadata({"users": []})
    assert bare.created_at is None and metadata_attempts(bare, result(5, False), now)[-1].time == now
    assert parse_submission_metadata("not even a dict").members == ()


def test_a_previous_result_reads_back_exactly_what_the_autograder_wrote() -> None:
    r = result(16, True)
    assert result_from_results({"extra_data": {"hogkit": results_extra(r)}}) == r
    from_tests = result_from_results(results_json(r, extra=False), PHASE_ONE)
    assert from_tests == r and from_tests.phase1_complete
    assert result_from_results({"tests": [{"number": "checkpoint", "score": 1, "max_score": 1}]}) is None


# -- whose hand-ins they are ---------------------------------------------------------------------------------


def test_one_submission_grades_both_partners_and_neither_twice() -> None:
    calls: list[str] = []

    def grade(key: str) -> Result:  # the integration grades each hand-in once, by its key
        calls.append(key)
        return graded()[key]

    handins = [Handin(key, when, tuple(Member(sid=s) for s in who)) for key, when, who, _ in HANDINS]
    groups = group_attempts(handins, {h.key: grade(h.key) for h in handins}, ROSTER_)
    assert sorted(calls) == sorted(k for k, *_ in HANDINS)  # one grading per hand-in
    by_id = {g.student.id: g for g in groups}
    assert by_id["carol"].attempts == by_id["dan"].attempts and len(by_id["dan"].attempts) == 2
    assert [g.student.id for g in groups] == ["alice", "bob", "carol", "dan", "erin", "frank", "zed"]


def test_partners_are_grouped_by_email_and_only_when_the_course_allows_them() -> None:
    when = local_time(datetime(2024, 2, 7, 12, 0), LA)
    handin = Handin("s1", when, (Member("Carol", "CAROL@uni.edu", ""),))
    together = {g.student.id: g for g in group_attempts([handin], {"s1": result(24, True)}, ROSTER_)}
    assert len(together["carol"].attempts) == len(together["dan"].attempts) == 1
    apart = {g.student.id: g for g in group_attempts([handin], {"s1": result(24, True)}, ROSTER_, partners=False)}
    assert len(apart["carol"].attempts) == 1 and apart["dan"].attempts == ()


def test_a_hand_in_without_a_result_is_no_attempt_and_a_stranger_is_kept() -> None:
    when = local_time(datetime(2024, 2, 7, 12, 0), LA)
    handins = [Handin("a", when, (Member(sid="alice"),)), Handin("b", when, (Member("Who", "who@x.org", ""),))]
    groups = {g.student.id: g for g in group_attempts(handins, {"b": result(3, False)}, ROSTER_)}
    assert groups["alice"].attempts == ()
    assert groups["who@x.org"].student.name == "Who" and not groups["who@x.org"].student.on_roster
