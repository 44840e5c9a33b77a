"""A class split across machines: ``hogkit grade --shard K/N`` on each, then ``hogkit merge``."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path

import pytest

from graders.cli import main as hogkit
from graders.cli import messages as cli_messages
from graders.core.errors import InputError
from graders.courses import messages as courses_messages
from graders.courses.classroom import grade_class, record_path
from graders.courses.merging import MERGE_FILE, merge
from graders.courses.roster import load_setup
from graders.courses.shards import SHARD_FILE, Shard, parse_shard, select, shard_of
from graders.scoring.submissions import discover

TIMES = re.compile(rb'"(seconds|execution_time)": [0-9.e+-]+')
NOT_PYTHON = b"\x7fELF\x00\x01"  # an entry refused before any child starts: a class that costs nothing to grade


def masked(path: Path) -> bytes:
    data = path.read_bytes()
    if path.suffix == ".gz":  # a class record: compact JSON, gzipped, a case's time left out when it rounds to 0
        return json.dumps(untimed(json.loads(gzip.decompress(data))), sort_keys=True).encode()
    return TIMES.sub(rb'"\1": 0', data)


def untimed(value: object) -> object:
    """VALUE (JSON data) without its times."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in ("seconds", "execution_time")}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def files(folder: Path) -> dict[str, Path]:
    return {p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*")) if p.is_file()}


def cheap_class(folder: Path, names: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / f"{name}.py").write_bytes(NOT_PYTHON)
    return folder


def shards_of(folder: Path, tmp_path: Path, edition, count: int = 3, **kwargs) -> list[Path]:
    outs = []
    for k in range(1, count + 1):
        out = tmp_path / f"shard{k}"
        grade_class(folder, edition, out, jobs=1, shard=Shard(k, count), **kwargs)
        outs.append(out)
    return outs


NAMES = [f"s{n:02d}" for n in range(12)]


@pytest.fixture
def quick_pictures(monkeypatch):
    """Histograms as the text of what they would draw: the same comparison, without matplotlib's seconds."""
    from graders.games import pictures

    def drawn(title, totals, most, fmt):
        return f"{title}|{sorted(totals)}|{most}|{fmt}".encode()

    monkeypatch.setattr(pictures, "score_histogram", drawn)


def test_shards_partition_the_class_exactly_and_a_new_student_moves_nobody(tmp_path):
    entries = discover(cheap_class(tmp_path / "class", NAMES), "hog.py")
    for count in (1, 2, 3, 5):
        shares = [select(entries, Shard(k, count)) for k in range(1, count + 1)]
        chosen = [e.student for share in shares for e in share]
        assert sorted(chosen) == sorted(e.student for e in entries)  # each in exactly one share
    before = {name: shard_of(name, 3) for name in NAMES}
    cheap_class(tmp_path / "class", ["late"])
    assert {name: shard_of(name, 3) for name in NAMES} == before
    assert len({shard_of(name, 3) for name in NAMES}) == 3  # twelve names do fill three shards


@pytest.mark.parametrize("text", ["0/3", "4/3", "a", "3", "1/0", "-1/2", "1/2/3", ""])
def test_a_bad_shard_is_refused_by_argparse(text, capsys, tmp_path):
    with pytest.raises(SystemExit) as stopped:
        hogkit(["grade", str(tmp_path), "--out", str(tmp_path / "out"), f"--shard={text}"])
    assert stopped.value.code == 2
    assert courses_messages.shard_expected(text) in capsys.readouterr().err


def test_good_shards_are_read():
    assert parse_shard("2/3") == Shard(2, 3) and parse_shard("1/1") == Shard(1, 1) and str(Shard(2, 3)) == "2/3"


def test_a_shard_is_never_written_inside_the_class_folder(tmp_path, edition, capsys):
    folder = cheap_class(tmp_path / "class", NAMES)
    with pytest.raises(InputError) as refused:
        grade_class(folder, edition, folder / "out", shard=Shard(1, 2))
    assert str(refused.value) == courses_messages.shard_out_inside_class(str(folder / "out"), str(folder))
    assert hogkit(["grade", str(folder), "--out", str(folder / "out"), "--shard", "1/2"]) == 2
    assert "is inside the class folder" in capsys.readouterr().err
    assert not (folder / "out").exists()


def test_a_shard_needs_an_output_folder(capsys, tmp_path):
    assert hogkit(["grade", str(cheap_class(tmp_path / "class", NAMES)), "--shard", "1/2"]) == 2
    assert cli_messages.shard_needs_out() in capsys.readouterr().err


def test_a_cheap_class_merges_into_what_one_run_writes(tmp_path, edition, capsys, quick_pictures):
    folder = cheap_class(tmp_path / "class", NAMES)
    grade_class(folder, edition, tmp_path / "single", jobs=1)
    outs = shards_of(folder, tmp_path, edition)
    assert all(json.loads((o / SHARD_FILE).read_text())["of"] == 3 for o in outs)
    assert not any((o / "grades.csv").exists() for o in outs)  # the class's tables are the merge's
    assert hogkit(["merge", *map(str, reversed(outs)), "--out", str(tmp_path / "merged")]) == 0
    assert "Merged 12 submissions from 3 shards" in capsys.readouterr().out
    same_as_single(tmp_path / "single", tmp_path / "merged")


def same_as_single(single: Path, merged: Path) -> None:
    one, many = files(single), files(merged)
    assert set(many) - set(one) == {MERGE_FILE}
    assert set(one) <= set(many)
    for name, path in one.items():
        assert masked(path) == masked(many[name]), name


def test_a_missing_shard_is_named(tmp_path, edition):
    outs = shards_of(cheap_class(tmp_path / "class", NAMES), tmp_path, edition)
    with pytest.raises(InputError) as refused:
        merge([outs[0], outs[2]], tmp_path / "merged")
    assert str(refused.value) == courses_messages.shards_missing(["2/3"], 3)
    assert "missing shard 2/3 of the 3" in str(refused.value)


def test_a_shard_given_twice_is_refused(tmp_path, edition):
    outs = shards_of(cheap_class(tmp_path / "class", NAMES), tmp_path, edition)
    with pytest.raises(InputError, match="shard 1/3 is given twice"):
        merge([outs[0], outs[0], outs[1], outs[2]], tmp_path / "merged")


def test_shards_of_another_class_or_another_count_are_refused(tmp_path, edition):
    outs = shards_of(cheap_class(tmp_path / "class", NAMES), tmp_path, edition)
    other = tmp_path / "other"
    other.mkdir()
    others = shards_of(cheap_class(tmp_path / "class2", [*NAMES, "extra"]), other, edition)
    with pytest.raises(InputError) as refused:
        merge([outs[0], others[1], outs[2]], tmp_path / "merged")
    assert "is not a shard of the same class" in str(refused.value) and str(others[1]) in str(refused.value)
    halves = tmp_path / "halves"
    halves.mkdir()
    two = shards_of(tmp_path / "class", halves, edition, count=2)
    with pytest.raises(InputError, match="not a shard of the same class"):
        merge([outs[0], two[1], outs[2]], tmp_path / "merged")
    data = json.loads((outs[1] / SHARD_FILE).read_text(encoding="utf-8"))
    (outs[1] / SHARD_FILE).write_text(json.dumps({**data, "course": "/somewhere/course"}), encoding="utf-8")
    with pytest.raises(InputError, match="whether a course"):  # one shard graded with --course, the others not
        merge(outs, tmp_path / "merged")


def test_a_folder_that_is_no_finished_shard_is_refused(tmp_path, edition):
    outs = shards_of(cheap_class(tmp_path / "class", NAMES), tmp_path, edition)
    (outs[1] / SHARD_FILE).unlink()  # as a shard stopped before its end leaves it
    with pytest.raises(InputError) as refused:
        merge(outs, tmp_path / "merged")
    assert str(refused.value) == courses_messages.not_a_shard(str(outs[1]), SHARD_FILE)
    (outs[1] / SHARD_FILE).write_text("{broken", encoding="utf-8")
    with pytest.raises(InputError, match="cannot be read as a shard's description"):
        merge(outs, tmp_path / "merged")


def test_a_class_that_changed_since_the_shards_is_refused(tmp_path, edition):
    folder = cheap_class(tmp_path / "class", NAMES)
    outs = shards_of(folder, tmp_path, edition)
    cheap_class(folder, ["late"])
    with pytest.raises(InputError) as refused:
        merge(outs, tmp_path / "merged")
    assert str(refused.value) == courses_messages.shard_class_changed(str(folder.resolve()))


def test_a_record_missing_from_its_shard_is_named(tmp_path, edition):
    folder = cheap_class(tmp_path / "class", NAMES)
    outs = shards_of(folder, tmp_path, edition)
    victim = NAMES[0]
    k = shard_of(victim, 3)
    (outs[k - 1] / "records" / f"{victim}.json.gz").unlink()
    with pytest.raises(InputError) as refused:
        merge(outs, tmp_path / "merged")
    assert str(refused.value) == courses_messages.shard_record_missing(victim, f"{k}/3", str(outs[k - 1]))


def test_a_merge_never_overwrites_a_folder_of_something_else(tmp_path, edition, capsys, quick_pictures):
    folder = cheap_class(tmp_path / "class", NAMES)
    outs = shards_of(folder, tmp_path, edition)
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "mine.txt").write_text("keep me", encoding="utf-8")
    assert hogkit(["merge", *map(str, outs), "--out", str(busy)]) == 2
    assert courses_messages.merge_out_not_empty(str(busy)) in capsys.readouterr().err
    assert [p.name for p in busy.iterdir()] == ["mine.txt"]
    with pytest.raises(InputError, match="is not empty and is not an earlier run of this same merge"):
        merge(outs, outs[0])  # a shard's own folder is no merge either
    merge(outs, tmp_path / "merged")
    first = {name: p.read_bytes() for name, p in files(tmp_path / "merged").items()}
    merge(outs, tmp_path / "merged")  # the same merge again: allowed, and the same files
    assert {name: p.read_bytes() for name, p in files(tmp_path / "merged").items()} == first
    halves = tmp_path / "halves"
    halves.mkdir()
    with pytest.raises(InputError, match="not an earlier run of this same merge"):
        merge(shards_of(folder, halves, edition, count=2), tmp_path / "merged")  # the same class, other shards


def test_a_merge_by_another_kit_is_refused(tmp_path, edition):
    outs = shards_of(cheap_class(tmp_path / "class", NAMES), tmp_path, edition)
    for out in outs:
        data = json.loads((out / SHARD_FILE).read_text(encoding="utf-8"))
        data["kit"] = "0" * 16
        (out / SHARD_FILE).write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError) as refused:
        merge(outs, tmp_path / "merged")
    assert str(refused.value) == courses_messages.shard_other_kit(str(outs[0]))


def test_a_merge_needs_shards(tmp_path):
    with pytest.raises(InputError) as refused:
        merge([], tmp_path / "merged")
    assert str(refused.value) == courses_messages.merge_nothing()


def test_merge_and_shard_have_help(capsys):
    for argv in (["merge", "--help"], ["grade", "--help"]):
        with pytest.raises(SystemExit):
            hogkit(argv)
    shown = capsys.readouterr().out
    assert "byte for byte apart from times" in shown and "--shard K/N" in shown


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_three_shards_merge_into_what_one_machine_writes(tmp_path, edition, reference_source, skeleton_source,
                                                         capsys):
    """A small class graded whole and as three shards: the merge's files are the single run's, times
    masked; and a shard run again resumes every record it has."""
    folder = tmp_path / "class"
    (folder / "alice").mkdir(parents=True)
    (folder / "alice" / "hog.py").write_text(reference_source, encoding="utf-8")
    for name in ("bob", "dan", "eve"):
        (folder / f"{name}.py").write_text(skeleton_source, encoding="utf-8")
    (folder / "carol.py").write_text(reference_source.replace("return", "return 1 +", 3), encoding="utf-8")
    (folder / "fred.py").write_text("this is not python ((((", encoding="utf-8")
    (folder / "gus.py").write_bytes(NOT_PYTHON)
    (folder / "dup").mkdir()
    (folder / "dup" / "hog.py").write_text(reference_source, encoding="utf-8")
    (folder / "dup.py").write_text(reference_source, encoding="utf-8")
    grade_class(folder, edition, tmp_path / "single", jobs=2)
    outs = shards_of(folder, tmp_path, edition)
    assert all(select(discover(folder, "hog.py"), Shard(k, 3)) for k in (1, 2, 3))  # no shard is empty here
    merge(outs, tmp_path / "merged")
    same_as_single(tmp_path / "single", tmp_path / "merged")
    assert (tmp_path / "merged" / "similarity.html").is_file()  # across the class: shards write none
    assert not any((o / "similarity.html").exists() for o in outs)
    again = grade_class(folder, edition, outs[0], jobs=1, shard=Shard(1, 3))
    assert again and all(r.reused for r in again if r.status != "duplicate")


def test_a_shard_rerun_resumes_and_its_manifest_lists_its_share(tmp_path, edition):
    folder = cheap_class(tmp_path / "class", NAMES)
    out = tmp_path / "out"
    first = grade_class(folder, edition, out, jobs=1, shard=Shard(2, 3))
    assert first and not any(r.reused for r in first)
    manifest = json.loads((out / SHARD_FILE).read_text(encoding="utf-8"))
    assert manifest["students"] == [r.student for r in first] and (manifest["shard"], manifest["of"]) == (2, 3)
    assert [r.student for r in first] == [n for n in NAMES if shard_of(n, 3) == 2]
    again = grade_class(folder, edition, out, jobs=1, shard=Shard(2, 3))
    assert [r.student for r in again] == [r.student for r in first] and all(r.reused for r in again)


def test_a_course_s_policy_is_applied_at_the_merge_across_every_shard(tmp_path, edition, quick_pictures):
    """The course's files (each student's grade from hand-ins in several shards, the imports, the
    notes, each student's feedback) come from the merge, equal to a single run's."""
    from .test_course_grading import class_folder, course_folder

    course = course_folder(tmp_path)
    folder = class_folder(tmp_path, {"full": "", "phase1": ""})
    for entry in folder.glob("*.py"):
        entry.write_bytes(NOT_PYTHON)
    setup = load_setup(course, [p.label for p in edition.problems])
    grade_class(folder, edition, tmp_path / "single", jobs=1, course=setup)
    outs = shards_of(folder, tmp_path, edition, course=setup)
    assert len({shard_of(p.stem, 3) for p in folder.glob("*.py")}) > 1  # the hand-ins are in several shards
    moved = tmp_path / "elsewhere"
    shutil.copytree(course, moved)
    shutil.rmtree(course)  # the course folder moved: --course says where it is now
    assert hogkit(["merge", *map(str, outs), "--out", str(tmp_path / "merged"), "--course", str(moved)]) == 0
    same_as_single(tmp_path / "single", tmp_path / "merged")
    assert (tmp_path / "merged" / "gradescope-scores.csv").is_file() and (tmp_path / "merged" / "handins.csv").is_file()


def odd_class(folder: Path) -> Path:
    """A cheap class of entries that cannot be graded, each its own way: not Python, a folder without
    hog.py, a corrupt zip, a notebook that is no notebook, a name holding a line break."""
    cheap_class(folder, NAMES)
    (folder / "nohog").mkdir()
    (folder / "nohog" / "notes.txt").write_text("no code here", encoding="utf-8")
    (folder / "broken.zip").write_bytes(b"PK\x03\x04 not a zip at all")
    (folder / "book.ipynb").write_text("{not a notebook", encoding="utf-8")
    (folder / "new\nline.py").write_bytes(NOT_PYTHON)
    return folder


def test_shards_typed_anyhow_from_anywhere_merge_into_what_one_run_writes(tmp_path, monkeypatch, edition, capsys,
                                                                           quick_pictures):
    """The class typed relative (as the README does) and absolute, from other working folders, and
    copied to another path (another machine's mount): its ungradeable entries match their records."""
    work, other, away = tmp_path / "work", tmp_path / "other", tmp_path / "away"
    other.mkdir()
    odd_class(work / "class")
    shutil.copytree(work / "class", away / "moved" / "class")
    monkeypatch.chdir(work)
    grade_class(Path("class"), edition, Path("single"), jobs=1)
    grade_class(Path("class"), edition, Path("s1"), jobs=1, shard=Shard(1, 3))
    monkeypatch.chdir(other)
    grade_class(work / "class", edition, other / "s2", jobs=1, shard=Shard(2, 3))
    monkeypatch.chdir(away)
    grade_class(Path("moved/class"), edition, Path("s3"), jobs=1, shard=Shard(3, 3))
    monkeypatch.chdir(work)
    outs = [str(away / "s3"), "s1", str(other / "s2")]
    assert hogkit(["merge", *outs, "--out", "merged"]) == 0, capsys.readouterr().err
    same_as_single(work / "single", work / "merged")
    (work / "class").rename(work / "gone")  # merged where the class sits elsewhere: --class says where
    assert hogkit(["merge", *outs, "--out", "again"]) == 2
    assert courses_messages.merge_class_elsewhere(str(work / "class")) in capsys.readouterr().err
    assert not (work / "again").exists()
    assert hogkit(["merge", *outs, "--out", "again", "--class", str(away / "moved" / "class")]) == 0
    same_as_single(work / "single", work / "again")


def test_a_failed_merge_writes_nothing_and_its_advice_works(tmp_path, edition, capsys, quick_pictures):
    folder = odd_class(tmp_path / "class")
    outs = shards_of(folder, tmp_path, edition)
    victim = discover(folder, "hog.py")[-1]  # the last one: the others' files would be written before it
    k = shard_of(victim.student, 3)
    lost = record_path(outs[k - 1], victim.files_as)
    kept = lost.read_bytes()
    lost.unlink()
    merged = tmp_path / "merged"
    assert hogkit(["merge", *map(str, outs), "--out", str(merged)]) == 2
    advice = courses_messages.shard_record_missing(victim.student, f"{k}/3", str(outs[k - 1]))
    assert advice in capsys.readouterr().err and f"grade shard {k}/3 again" in advice
    assert not merged.exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    grade_class(folder, edition, outs[k - 1], jobs=1, shard=Shard(k, 3))  # the advice, followed
    assert hogkit(["merge", *map(str, outs), "--out", str(merged)]) == 0
    grade_class(folder, edition, tmp_path / "single", jobs=1)
    same_as_single(tmp_path / "single", merged)
    before = {name: p.read_bytes() for name, p in files(merged).items()}
    lost.write_bytes(b"not a record")  # a merge into an earlier merge that fails leaves that one as it was
    assert hogkit(["merge", *map(str, outs), "--out", str(merged)]) == 2
    assert {name: p.read_bytes() for name, p in files(merged).items()} == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    lost.write_bytes(kept)
    assert hogkit(["merge", *map(str, outs), "--out", str(merged)]) == 0
    assert (merged.stat().st_mode & 0o777) == 0o700  # as a single run's output folder is
