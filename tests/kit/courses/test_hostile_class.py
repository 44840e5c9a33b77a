"""Attacks through the class route: hand-ins graded together, and what reaches a student's feedback.

A class folder goes through ``hogkit grade --out``, ``hogkit report``, ``hogkit contest``, ``--course``
and Gradescope's autograder. A hostile class (links, a FIFO, a device, names no file system likes,
submissions that kill, write, fork and hoard) must grade to the end and harm no one; one hand-in
(a corrupt zip, a folder nested past the recursion limit, a manifest that cannot be read, another
edition declared, a backdated file) must be that student's row alone, never stop nor steer the
class; and no route that shows feedback may carry a hidden case or the reference back to a student.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

from graders.cli import messages as cli_messages
from graders.courses import messages as courses_messages
from graders.editions.cases import load_problem_cases
from graders.editions.edition import Edition
from graders.scoring import messages as scoring_messages
from graders.scoring import reports

from ..conftest import grade_on_gradescope, grade_source, replace_function, with_deadline
from ..hostile import HOARDER, SPIN_DEADLINE, assert_every_output, child_pids, class_routes, needs_namespaces


def files_named(top: Path, pattern: str) -> list[Path]:
    """Files under TOP whose name matches PATTERN, walked without recursion and without following
    links: another test may leave a folder a thousand levels deep in /tmp at the same time."""
    import fnmatch

    found, stack = [], [str(top)]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            if fnmatch.fnmatch(entry.name, pattern):
                found.append(Path(entry.path))
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
            except OSError:
                pass
    return found


# -- 1. a hostile class graded to the end ----------------------------------------------------------

# Found anything of a classmate's (a submission, another child's work folder) or of the output
# folder (a record, the grades)? Then every boar_brawl answer is off by one, and the row shows it.
COPIER = """
import os as _os
_FOUND = []
for _here, _dirs, _names in _os.walk("/"):
    if _here.startswith(("/proc", "/sys", "/dev", "/usr")) or _here.count("/") > 8:
        _dirs[:] = []
        continue
    _FOUND += [_os.path.join(_here, _n) for _n in _names
               if _n in ("alice.py", "hog.py", "alice.json", "grades.csv", "records.jsonl")]
_FOUND = [_p for _p in _FOUND if _p != "/work/hog.py"]
if _FOUND:
    _honest = boar_brawl
    def boar_brawl(player_score, opponent_score):
        return _honest(player_score, opponent_score) + 1
"""


WRITER = """
import os as _os
for _top in ("/", "/tmp", "/dev/shm", "/work", "/root", "/hogkit", "{kit}", "{elsewhere}"):
    for _here, _dirs, _names in _os.walk(_top):
        if _here.startswith(("/proc", "/sys", "/dev/")) and _here != "/dev/shm":
            _dirs[:] = []
            continue
        try:
            with open(_os.path.join(_here, "{marker}"), "w") as _f:
                _f.write("owned")
        except OSError:
            pass
        if _here.count("/") > 3:
            _dirs[:] = []
"""


# What the test tools keep in the kit's folder: other tests running beside this one (pytest-xdist's
# workers) write there while a class is graded (mypy's cache, screenshots, bytecode, a virtual
# environment's). A file a submission writes anywhere is found by its marker instead.
TOOL_FOLDERS = {".git", ".venv", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".artifacts", "__pycache__"}


def kit_files(root: Path) -> dict[Path, int]:
    """The modification time of every file of the kit under ROOT, tool folders aside."""
    found = {}
    for folder, folders, files in os.walk(root):
        folders[:] = [name for name in folders if name not in TOOL_FOLDERS]
        for name in files:
            path = Path(folder) / name
            try:
                if path.is_file():
                    found[path] = path.stat().st_mtime_ns
            except OSError:  # removed between the listing and the look
                continue
    return found


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_hostile_class_grades_to_the_end_and_harms_no_one(edition, reference_source, skeleton_source,
                                                             tmp_path):
    """Attack: a class of hostile entries graded together with honest ones: links (to the solution,
    to a classmate's folder, to /etc/shadow), a FIFO, a device (as root), an id longer than a file
    name may be, an id that is not UTF-8, a submission that kills every process it can (the grader
    and classmates included), one that writes a file into every folder it can reach (the kit, the
    class folder, the output folder, /tmp, /dev/shm), one that fork-bombs, one whose processes hold
    memory together, one that looks for classmates' submissions and the output folder's records,
    one whose error message clears the screen.

    Guarantee: one row per entry, the honest students' full marks, nothing written outside the
    output folder, nothing left running, the same rows on a rerun.

    (Every case has SPIN_DEADLINE seconds here rather than the manifest's 5 or 10: the fork bomb
    and the hoarder spin until the deadline of each problem they reach, on a rerun too, and the
    honest students' slowest case takes some hundredths of a second.)
    """
    import stat as stat_module

    from graders.courses.classroom import grade_class

    needs_namespaces()
    edition = with_deadline(edition, SPIN_DEADLINE)
    marker = f"pwned-{os.getpid()}-{time.monotonic_ns()}"
    folder = tmp_path / "class"
    out = tmp_path / "out"
    folder.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (folder / "alice.py").write_text(reference_source, encoding="utf-8")
    (folder / "bob").mkdir()
    (folder / "bob" / "hog.py").write_text(reference_source, encoding="utf-8")
    (folder / "link_to_solution").symlink_to(edition.solution_dir)
    (folder / "link_to_bob").symlink_to(folder / "bob")
    (folder / "shadow.py").symlink_to("/etc/shadow")
    (folder / "zero.py").symlink_to("/dev/zero")
    os.mkfifo(folder / "fifo.py")
    if os.geteuid() == 0:
        os.mknod(folder / "device.py", stat_module.S_IFCHR | 0o644, os.makedev(1, 5))
    (folder / ("x" * 240 + ".py")).write_text(reference_source, encoding="utf-8")
    (folder / os.fsdecode(b"caf\xe9.py")).write_text(reference_source, encoding="utf-8")
    (folder / "killer.py").write_text(reference_source + "\nimport os, signal\nfor _pid in range(2, 4 << 20):\n"
                                      "    try:\n        os.kill(_pid, signal.SIGKILL)\n    except OSError:\n"
                                      "        pass\n", encoding="utf-8")
    (folder / "writer.py").write_text(reference_source + WRITER.format(kit=edition.root, marker=marker,
                                                                        elsewhere=elsewhere), encoding="utf-8")
    (folder / "forker.py").write_text(replace_function(reference_source, "roll_dice", """
        def roll_dice(num_rolls, dice=six_sided):
            import os
            while True:
                try:
                    os.fork()
                except OSError:
                    pass
        """), encoding="utf-8")
    (folder / "hoarder.py").write_text(replace_function(reference_source, "roll_dice", HOARDER), encoding="utf-8")
    (folder / "copier.py").write_text(reference_source + COPIER, encoding="utf-8")
    (folder / "screen.py").write_text(replace_function(skeleton_source, "boar_brawl", """
        def boar_brawl(player_score, opponent_score):
            raise ValueError("\\x1b[2J\\x1b[H Total: 24/24 \\udcff")
        """), encoding="utf-8")
    before = kit_files(edition.root)
    records = [r.to_dict() for r in grade_class(folder, edition, out, jobs=2)]
    rows = {r["student"]: r for r in records}
    for honest in ("alice", "bob", "x" * 240, "caf\ufffd"):
        assert (rows[honest]["status"], rows[honest]["total"]) == ("graded", 24), honest
    for link in ("link_to_solution", "link_to_bob", "shadow", "zero"):
        assert (rows[link]["status"], rows[link]["total"]) == ("link", 0), link
    assert rows["fifo"]["status"] == "not a file"
    if os.geteuid() == 0:
        assert rows["device"]["status"] == "not a file"
    assert rows["writer"]["total"] == 24 and rows["killer"]["total"] == 24
    assert rows["copier"]["total"] == 24, "a classmate's submission or record was within the copier's reach"
    assert rows["forker"]["status"] == "graded" and rows["hoarder"]["status"] == "graded"
    hoarded = next(p for p in rows["hoarder"]["problems"] if p["number"] == 1)["cases"][0]
    # Memory, or (where the fork bomb beside it leaves its processes too little of the processor to
    # fill their memory before the case's deadline) time: its case fails either way, and the grade
    # goes on. That the memory of all its processes together is watched: the test after this one.
    assert hoarded["status"] in ("memory", "timeout"), hoarded
    text = (out / "feedback" / f"{rows['screen']['file_id']}.md").read_text(encoding="utf-8")
    assert "\x1b" not in text and "\\x1b" in text  # written out (and Markdown-escaped), never sent raw
    assert len(list((out / "records").glob("*.json.gz"))) == len(records) - 0
    written = [p for top in (edition.root, folder, out, elsewhere, Path("/tmp"), Path("/dev/shm"))
               for p in files_named(top, marker)]
    assert written == [], written
    after = kit_files(edition.root)
    assert {p for p in after if before.get(p) != after[p]} == set()
    assert child_pids() == set()  # no sandbox child of this process is left
    again = {r.student: (r.status, r.total) for r in grade_class(folder, edition, out, jobs=2, force=True)}
    assert again == {k: (r["status"], r["total"]) for k, r in rows.items()}


# -- 2. what reaches a student's feedback ----------------------------------------------------------

# A boar_brawl whose error repeats the call it was given and the calling code's constants.
LEAKER = """
def boar_brawl(player_score, opponent_score):
    import sys
    frame = sys._getframe(1)
    raise ValueError("I was called as boar_brawl(%r, %r) from %r" % (player_score, opponent_score,
                                                                   frame.f_code.co_consts))
"""


@pytest.mark.slow
def test_an_error_carrying_a_hidden_case_never_reaches_the_students_feedback(edition, reference_source, tmp_path):
    """Attack: boar_brawl raises an error that repeats the line it was called from (its arguments and
    the calling code's constants), hoping the feedback prints the hidden cases' inputs.

    Guarantee: a hidden case reaches the student's feedback and Gradescope only by what it is about;
    its inputs, its error and its traceback stay in the instructor's record.
    """
    from graders.courses.classroom import grade_class

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "mallory.py").write_text(replace_function(reference_source, "boar_brawl", LEAKER), encoding="utf-8")
    grade_class(folder, edition, tmp_path / "out", jobs=1)
    shown = (tmp_path / "out" / "feedback" / "mallory.md").read_text(encoding="utf-8")
    shown += (tmp_path / "out" / "gradescope" / "mallory" / "results.json").read_text(encoding="utf-8")
    for case in load_problem_cases(edition, 2):
        if case.hidden:
            for step in case.steps:
                assert step.source.split("(", 1)[1] not in shown, step.source


# Pig's take_turn_test (it runs on the kit's take_turn), raising a class named after 90 characters
# of the module it runs in.
CHUNK_READER = '''
def take_turn_test():
    with open(__file__, encoding="utf-8") as f:
        text = f.read()
    at = text.find("def final_strategy(")
    if at < 0:
        at = text.find("def take_turn(")
    chunk = text[at:at + 90]
    raise type(chunk, (Exception,), {})()
'''


def test_a_student_test_never_reads_the_reference_nor_names_what_it_read(tmp_path, monkeypatch):
    """Attack: Pig's take_turn_test, which runs on the kit's take_turn, reads the file of the module
    it runs in (today the whole reference) and raises a class named after the next 90 characters,
    hoping the feedback quotes the exception's type name: a chunk of final_strategy per hand-in.

    Guarantee: the run's module holds none of the reference beyond the functions the test needs,
    and no route that shows feedback (the text report, a class's feedback/ID.md, Gradescope's
    visible test) quotes the name of an exception class the student made.
    """
    from graders.courses.classroom import grade_class
    from graders.editions.edition import load_edition

    pig = load_edition("pig")
    reference = (pig.solution_dir / pig.submission).read_text(encoding="utf-8")
    skeleton = (pig.skeleton_dir / pig.submission).read_text(encoding="utf-8")
    source = replace_function(skeleton, "take_turn_test", CHUNK_READER)
    secret = reference[reference.index("def final_strategy("):][:90]
    report = grade_source(source, pig, [3])
    text = reports.render_text(report, verbose=True)
    assert scoring_messages.AN_EXCEPTION_OF_THEIR_OWN in text
    assert "def take_turn(plan" not in text  # the reference's own line (the student's code may quote its name)
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "mallory.py").write_text(source, encoding="utf-8")
    grade_class(folder, pig, tmp_path / "out", jobs=1)
    shown = text + (tmp_path / "out" / "feedback" / "mallory.md").read_text(encoding="utf-8")
    (tmp_path / "gs").mkdir()
    record = grade_on_gradescope(source, pig, tmp_path / "gs", monkeypatch)
    shown += json.dumps(record) + (tmp_path / "gs" / "results" / "results.json").read_text(encoding="utf-8")
    assert scoring_messages.AN_EXCEPTION_OF_THEIR_OWN in shown
    for piece in (secret[:40], secret[40:], "def take_turn(plan"):
        assert piece not in shown and json.dumps(piece)[1:-1] not in shown, piece


# -- 3. one hand-in never stops, nor steers, the class ---------------------------------------------


def test_a_link_inside_a_zip_is_no_submission(edition, reference_source, tmp_path):
    """Attack: a zip whose hog.py is a symbolic link (to the solution, say), which unpacking would
    recreate on the grader's disk.

    Guarantee: nothing handed in is unpacked, and a member that is a link is never taken for the file.
    """
    import stat as stat_module
    import zipfile

    from graders.scoring.submissions import read_entry

    archive = tmp_path / "mallory.zip"
    with zipfile.ZipFile(archive, "w") as z:
        info = zipfile.ZipInfo("project/hog.py")
        info.external_attr = (stat_module.S_IFLNK | 0o777) << 16
        z.writestr(info, str(edition.solution_dir / "hog.py"))
    source, status, reason = read_entry(archive, "hog.py")
    assert (source, status) == (None, "unreadable") and "holds no hog.py" in reason


COURSE_TOML = 'edition = "boar_brawl"\ntimezone = "UTC"\n\n[deadlines]\ndue = 2030-01-01T00:00:00\n'


@pytest.mark.timeout(300)
@pytest.mark.parametrize("method", ["deflate", "lzma"])
def test_a_zip_whose_stream_is_corrupt_is_that_students_row(edition, reference_source, tmp_path, method,
                                                             monkeypatch):
    """Attack: a hand-in zip whose hog.py has a corrupt deflate or LZMA stream; reading it raises
    the decompressor's own error (``zlib.error``, ``LZMAError``), which zipfile does not wrap.

    Guarantee: through grade --out, report, contest and Gradescope's route, that zip is its own
    row (unreadable, with the decompressor's reason); every other student is graded and every
    output is written.
    """
    import zipfile

    from graders.courses import gradescope
    from graders.scoring.submissions import discover

    from ..oddhandins import corrupt_zip

    kind = zipfile.ZIP_DEFLATED if method == "deflate" else zipfile.ZIP_LZMA
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(reference_source, encoding="utf-8")
    corrupt_zip(folder / "mallory.zip", reference_source, kind)
    rows = {e.student: (e.status, e.reason) for e in discover(folder, "hog.py")}
    assert rows["alice"][0] == "ok" and rows["mallory"][0] == "unreadable"
    assert "mallory.zip" in rows["mallory"][1]
    assert class_routes(folder, tmp_path / "out") == {"grade": 0, "report": 0, "contest": 0}
    assert_every_output(tmp_path / "out", {"alice", "mallory"})
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    corrupt_zip(root / "submission" / "hog.zip", reference_source, kind)
    monkeypatch.setenv("AUTOGRADER_ROOT", str(root))
    assert gradescope.main(["--edition", edition.name]) == 0
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert results["score"] == 0 and "hog.zip" in json.dumps(results)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_folder_nested_past_the_recursion_limit_is_that_students_row(edition, reference_source, tmp_path,
                                                                        monkeypatch):
    """Attack: a hand-in folder nested 1,100 deep (an unzipped hand-in recreates it), hog.py at the
    bottom; a recursive walk (os.walk on Python 3.11, Path.rglob) ends in RecursionError.

    Guarantee: the walks are iterative and capped in depth: that folder is its own row (no hog.py
    within reach), through grade --out, report, contest, grade --course and Gradescope's route;
    every other student is graded and every output is written.
    """
    from ..oddhandins import deep_folder, remove_deep

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(reference_source, encoding="utf-8")
    deep_folder(folder / "mallory", source=reference_source)
    try:
        nested_routes(edition, folder, tmp_path, monkeypatch, reference_source)
    finally:
        remove_deep(folder / "mallory")
        remove_deep(tmp_path / "autograder" / "submission")


def nested_routes(edition: Edition, folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                  reference_source: str) -> None:
    """The routes of the test above, on FOLDER (which holds the deep hand-in)."""
    from graders.cli import main as hogkit
    from graders.courses import gradescope
    from graders.scoring.submissions import discover

    from ..oddhandins import deep_folder

    rows = {e.student: e.status for e in discover(folder, "hog.py")}
    assert rows == {"alice": "ok", "mallory": "missing"}
    assert class_routes(folder, tmp_path / "out", ()) == {"grade": 0, "report": 0, "contest": 0}
    assert_every_output(tmp_path / "out", {"alice", "mallory"})
    course = tmp_path / "course"
    course.mkdir()
    (course / "course.toml").write_text(COURSE_TOML, encoding="utf-8")
    (course / "roster.csv").write_text("id,name,email\nalice,Alice,alice@uni.edu\n", encoding="utf-8")
    assert hogkit(["grade", str(folder), "--out", str(tmp_path / "course-out"), "--course", str(course),
                   "--trust-file-times"]) == 0
    assert "mallory" in (tmp_path / "course-out" / "grades.csv").read_text(encoding="utf-8")
    root = tmp_path / "autograder"
    root.mkdir()
    deep_folder(root / "submission", source=reference_source)
    monkeypatch.setenv("AUTOGRADER_ROOT", str(root))
    assert gradescope.main(["--edition", edition.name]) == 0
    assert json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))["score"] == 0


@pytest.mark.timeout(300)
@pytest.mark.parametrize("manifest", [pytest.param("proc_mem", marks=pytest.mark.slow), "mode_000"])
def test_a_manifest_that_cannot_be_read_is_never_opened_through_a_link(reference_source, tmp_path, manifest):
    """Attack: a project folder whose tests/edition.json is a link to /proc/self/mem (reading it
    fails with EIO) or a file of mode 000 (EACCES, for a grader that is not root); the class's
    edition is looked up in every folder without --edition, and the OSError ended the run.

    Guarantee: a manifest is read without following a link (nor waiting on a FIFO); one that
    cannot be read declares nothing, and grade --out, report and contest grade the class.
    """
    from graders.editions.edition import declared_edition
    from graders.scoring.submissions import declared_by_class

    from ..oddhandins import project_folder

    folder = tmp_path / "class"
    folder.mkdir()
    project_folder(folder / "alice", reference_source, "boar_brawl")
    mallory = project_folder(folder / "mallory", reference_source)
    target = mallory / "tests" / "edition.json"
    if manifest == "proc_mem":
        target.symlink_to("/proc/self/mem")
    else:
        target.write_text('{"name": "more_boar"}', encoding="utf-8")
        target.chmod(0)
    if manifest == "mode_000" and os.geteuid() == 0:  # root reads any mode: look as root without that power
        assert declared_without_dac_override(folder) == "boar_brawl"
        return
    assert declared_by_class(folder) == "boar_brawl"
    assert declared_edition(mallory) is None  # the one project folder given, as `hogkit grade FOLDER` reads it
    assert class_routes(folder, tmp_path / "out", ()) == {"grade": 0, "report": 0, "contest": 0}
    assert_every_output(tmp_path / "out", {"alice", "mallory"})


def declared_without_dac_override(folder: Path) -> str:
    """What :func:`graders.scoring.submissions.declared_by_class` says of FOLDER in a process of root's that
    cannot read past a file's mode (``capsh --drop=cap_dac_override,cap_dac_read_search``)."""
    import shutil as shutil_module
    import subprocess

    if shutil_module.which("capsh") is None:
        pytest.skip("capsh is needed to drop root's power to read any file")
    code = ("import sys; from pathlib import Path; from graders.scoring.submissions import declared_by_class; "
            "print(declared_by_class(Path(sys.argv[1])))")
    command = f"{sys.executable} -c '{code}' {folder}"
    done = subprocess.run(["capsh", "--drop=cap_dac_override,cap_dac_read_search", "--", "-c", command],
                          capture_output=True, text=True, timeout=120, cwd=Path(__file__).parents[3])
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.timeout(300)
def test_one_folder_declaring_another_edition_steers_no_one(reference_source, tmp_path, capsys):
    """Attack: without --edition (the README's usage), one project folder declares more_boar while
    the class is Boar Brawl's; the most common declaration won, and a declaration by one folder
    among bare files decided the edition for everyone (honest students 4/23, the attacker 23/23).

    Guarantee: the class's edition is taken from the class only when every entry agrees; otherwise
    grade --out, report and contest refuse in one line naming the folders that disagree, and
    nothing is graded. With --edition the class is graded as named.
    """
    from graders.core.errors import InputError
    from graders.scoring.submissions import declared_by_class

    from ..oddhandins import project_folder

    folder = tmp_path / "class"
    folder.mkdir()
    for honest in ("alice", "bob", "carol"):
        project_folder(folder / honest, reference_source, "boar_brawl")
    project_folder(folder / "mallory", reference_source, "more_boar")
    with pytest.raises(InputError) as raised:
        declared_by_class(folder)
    assert str(raised.value) == scoring_messages.class_editions_disagree({"boar_brawl": ["alice", "bob", "carol"],
                                                                  "more_boar": ["mallory"]})
    capsys.readouterr()
    assert class_routes(folder, tmp_path / "out", ()) == {"grade": 2, "report": 2, "contest": 2}
    said = capsys.readouterr().err.strip().split("\n")
    assert said == [f"hogkit: {raised.value}"] * 3
    assert not (tmp_path / "out" / "grade" / "grades.csv").exists()
    for honest in ("alice", "bob", "carol"):  # bare files among them: the one declaration still decides nothing
        shutil.rmtree(folder / honest)
        (folder / f"{honest}.py").write_text(reference_source, encoding="utf-8")
    with pytest.raises(InputError, match="mallory"):
        declared_by_class(folder)
    shutil.rmtree(folder / "mallory")
    project_folder(folder / "mallory", reference_source, "boar_brawl")
    assert declared_by_class(folder) == "boar_brawl"
    export = tmp_path / "export" / "assignment_1_export"  # an export's hand-ins are its submission folders
    for number, name in ((1, "boar_brawl"), (2, "boar_brawl"), (3, "more_boar")):
        project_folder(export / f"submission_{number}", reference_source, name)
    (export / "submission_metadata.yml").write_text("---\n", encoding="utf-8")
    capsys.readouterr()
    assert class_routes(tmp_path / "export", tmp_path / "export-out", (), ("report",)) == {"report": 2}
    assert "more_boar: submission_3" in capsys.readouterr().err


@pytest.mark.timeout(300)
def test_a_backdated_hand_in_gets_no_time_it_did_not_prove(reference_source, tmp_path, capsys):
    """Attack: with --course and no times.csv, a hand-in's time was its file's modification time,
    which unzip, cp -p and tar restore from the student's own archive: a late hand-in backdated
    before the deadline escaped the late penalty, and nothing said the times came from files.

    Guarantee: such a class is refused in one line naming the hand-ins, before anything is graded;
    with --trust-file-times it is graded and course-notes.txt, grades.csv's reason column and each
    student's feedback say the times came from files.
    """
    from graders.cli import main as hogkit

    folder = tmp_path / "class"
    folder.mkdir()
    for student in ("alice", "mallory"):
        (folder / f"{student}.py").write_text(reference_source, encoding="utf-8")
    (folder / "carol.py").write_bytes(b"\x7fELF\x00\x01")  # cannot be graded: its time counts for nothing
    os.utime(folder / "mallory.py", (0, 86400.0 * 365))  # 1971: well before any deadline
    course = tmp_path / "course"
    course.mkdir()
    (course / "course.toml").write_text(COURSE_TOML.replace("2030", "2024") + '\n[late]\npolicy = "none"\n',
                                        encoding="utf-8")
    (course / "roster.csv").write_text("id,name,email\nalice,A,a@uni.edu\nmallory,M,m@uni.edu\n", encoding="utf-8")
    out = tmp_path / "out"
    capsys.readouterr()
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(course)]) == 2
    said = capsys.readouterr().err.strip().split("\n")[-1]
    assert said == "hogkit: " + courses_messages.course_file_times_refused(["alice", "mallory"])
    assert not (out / "grades.csv").exists() and not (out / "records").exists()
    assert hogkit(["grade", str(folder), "--out", str(out), "--course", str(course), "--trust-file-times"]) == 0
    notes = (out / "course-notes.txt").read_text(encoding="utf-8")
    assert courses_messages.course_file_times_trusted(["alice", "mallory"]) in notes
    rows = {row["student"]: row for row in csv.DictReader(open(out / "grades.csv", encoding="utf-8"))}
    for student in ("alice", "mallory"):
        assert courses_messages.TIMES_FROM_FILES in rows[student]["reason"], rows[student]
        assert courses_messages.TIMES_FROM_FILES in (out / "feedback" / f"{student}.md").read_text(encoding="utf-8")
    assert hogkit(["grade", str(folder), "--out", str(out), "--trust-file-times"]) == 2
    assert capsys.readouterr().err.strip().endswith(cli_messages.trust_file_times_needs_course())
