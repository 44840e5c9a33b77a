"""One way to load a submission, whatever the command, and the edition a student's folder declares."""

from __future__ import annotations

import csv
import io
import shutil
import zipfile

import pytest

from graders.cli import main as hogkit
from graders.cli import messages as cli_messages
from graders.editions.edition import load_edition

from ..conftest import grade_source, replace_function


def project(tmp_path, name: str, edition_name: str):
    """A student's project folder of EDITION_NAME (its skeleton) holding the reference."""
    edition = load_edition(edition_name)
    folder = tmp_path / name
    shutil.copytree(edition.skeleton_dir, folder)
    shutil.copyfile(edition.solution_dir / edition.submission, folder / edition.submission)
    return folder


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_grade_uses_the_edition_a_project_folder_declares(tmp_path, capsys):
    folder = project(tmp_path, "mine", "more_boar")
    for path in (folder, folder / "hog.py"):
        assert hogkit(["grade", str(path), "-q", "07"]) == 0
        out, err = capsys.readouterr()
        assert "Total: 3/3" in out and cli_messages.edition_declared("more_boar", str(path)) in err
    assert hogkit(["grade", str(folder), "-q", "07", "--edition", "more_boar"]) == 0
    assert capsys.readouterr().err == ""  # an edition given is not announced


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_class_of_project_folders_is_graded_with_the_edition_most_declare(tmp_path, capsys):
    folder = tmp_path / "class"
    for name in ("ann", "ben"):
        project(folder, name, "more_boar")
    assert hogkit(["grade", str(folder), "--out", str(tmp_path / "out")]) == 0
    assert cli_messages.edition_declared("more_boar", str(folder)) in capsys.readouterr().err
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out" / "grades.csv").read_text(encoding="utf-8"))))
    assert [(r["student"], r["total"], r["max"]) for r in rows] == [("ann", "23", "23"), ("ben", "23", "23")]


def test_a_file_written_for_another_edition_is_told_which(edition):
    other = load_edition("more_boar")
    source = (other.solution_dir / other.submission).read_text(encoding="utf-8")
    report = grade_source(source, edition, problems=[1])
    (note,) = [n for n in report.notes if "--edition more_boar" in n]
    assert note.startswith("hog.py defines functions of the more_boar edition (")
    own = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    assert not [n for n in grade_source(own, edition, problems=[1]).notes if "--edition" in n]


BROKEN_HELPER = """
def num_factors(n):
    return (
"""


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_winrate_and_picture_load_a_submission_as_grading_does(tmp_path, capsys, reference_source):
    """A syntax error in a function the strategy never calls costs that function only, and is said."""
    path = tmp_path / "alice.py"
    path.write_text(replace_function(reference_source, "num_factors", BROKEN_HELPER), encoding="utf-8")
    assert hogkit(["winrate", str(path), "--strategy", "boar_strategy", "--json", "--edition", "boar_brawl"]) == 0
    out, err = capsys.readouterr()
    assert '"average"' in out and "num_factors was left out" in err
    assert hogkit(["picture", "--strategy", "boar_strategy", "--path", str(path), "--out",
                   str(tmp_path / "b.svg")]) == 0
    assert "num_factors was left out" in capsys.readouterr().err and (tmp_path / "b.svg").is_file()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_contest_entry_with_a_repairable_slip_takes_part(tmp_path, capsys, reference_source):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(replace_function(reference_source, "num_factors", BROKEN_HELPER),
                                     encoding="utf-8")
    (folder / "bob.py").write_text(reference_source, encoding="utf-8")
    with zipfile.ZipFile(folder / "carol.zip", "w") as archive:
        archive.writestr("hog/hog.py", reference_source)
    assert hogkit(["contest", str(folder), "--out", str(tmp_path / "out"), "--edition", "boar_brawl"]) == 0
    capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out" / "leaderboard.csv").read_text(encoding="utf-8"))))
    assert {r["student"]: r["status"] for r in rows}["alice"] == {r["student"]: r["status"] for r in rows}["bob"]
    assert len(rows) == 3 and all("could not" not in r["status"] for r in rows)


def test_annotations_are_evaluated_as_python_does_unless_the_file_postpones_them(edition, reference_source):
    """The submission runs as plain Python runs it: an annotation naming nothing fails where it is
    defined, unless the file itself says ``from __future__ import annotations`` (the kit's own
    future imports never reach it)."""
    from graders.sandboxing import sandbox

    helper = "\n\ndef helper(x: NoSuchType) -> NoSuchType:\n    return x\n"
    session, notes = sandbox.open_submission(reference_source + helper, edition)
    session.dispose()
    assert any("NameError" in note and "NoSuchType" in note for note in notes), notes
    postponed = "from __future__ import annotations\n" + reference_source + helper
    session, notes = sandbox.open_submission(postponed, edition)
    try:
        assert notes == []
        outcome = list(session.steps(["helper(7)"], "from hog import *", float("inf")))
        assert [(r.status, r.value) for r in outcome] == [("ok", 7)]
    finally:
        session.dispose()
