"""What Python runs, the kit grades: source files are read the way Python reads them.

For each way a student's editor may have saved ``hog.py``, Python's own verdict (does ``import
hog`` work?) is taken from a real interpreter, and the kit's must be the same: graded when Python
runs it, refused with Python's own reason when Python refuses it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from graders.core.errors import SubmissionError
from graders.sandboxing.sandbox import as_utf8_file
from graders.scoring.grading import grade
from graders.scoring.submissions import load_submission, python_source


def variants(reference: str) -> dict[str, bytes]:
    body = reference.encode("utf-8")
    return {
        "a Latin-1 comment (an older Windows editor)": b"# \xc9crit par Jos\xe9, \xe0 Montr\xe9al\n" + body,
        "a Latin-1 comment after code": body.replace(b"\ndef boar_brawl(", b"\nX = 1  # caf\xe9\ndef boar_brawl(", 1),
        "a GBK coding line, comment and string": "# -*- coding: gbk -*-\n# 作业：猪\nGREETING = '你好'\n".encode("gbk")
        + body,
        "a byte-order mark": b"\xef\xbb\xbf" + body,
        "UTF-16": reference.encode("utf-16"),
        "Latin-1 inside a string": body + b"\nNAME = 'Jos\xe9'\n",
        "an unknown encoding": b"# -*- coding: klingon -*-\n" + body,
        "a byte-order mark and a Latin-1 coding line": b"\xef\xbb\xbf# coding: latin-1\n" + body,
        "a byte-order mark and a latin1 coding line": b"\xef\xbb\xbf# coding: latin1\n" + body,
        "a byte-order mark and a utf-8-sig coding line": b"\xef\xbb\xbf# coding: utf-8-sig\n" + body,
        "Windows line ends": body.replace(b"\n", b"\r\n"),
        "old Mac line ends, a Latin-1 comment": body.replace(b"\n", b"\r") + b"# caf\xe9\r",
        "old Mac line ends, Latin-1 inside a string": body.replace(b"\n", b"\r") + b"NAME = 'Jos\xe9'\r",
    }


def python_verdict(data: bytes, support: list[Path], folder: Path) -> tuple[bool, str]:
    """(imports, Python's reason when it does not) for DATA saved as hog.py beside the support files."""
    folder.mkdir()
    for f in support:
        shutil.copyfile(f, folder / f.name)
    (folder / "hog.py").write_bytes(data)
    done = subprocess.run([sys.executable, "-c", "import hog"], cwd=folder, capture_output=True, text=True,
                          timeout=60)
    last = done.stderr.strip().split("\n")[-1] if done.stderr.strip() else ""
    return done.returncode == 0, last.split(": ", 1)[-1]


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("variant", list(variants("")))
def test_the_kits_verdict_on_a_files_encoding_is_pythons(variant, edition, reference_source, tmp_path):
    data = variants(reference_source)[variant]
    support = [edition.support_dir / name for name in edition.support]
    runs, reason = python_verdict(data, support, tmp_path / "python")
    path = tmp_path / "kit" / "hog.py"
    path.parent.mkdir()
    path.write_bytes(data)
    if runs:
        submission = load_submission(path, edition)
        report = grade(submission, edition, problems=[2, 5])
        assert report.total == report.max, variant
        assert not report.notes, report.notes  # read whole: nothing repaired, nothing skipped
    else:
        with pytest.raises(SubmissionError) as refused:
            load_submission(path, edition)
        assert "is not a Python file (Python refuses to read it" in str(refused.value)
        assert reason and reason in str(refused.value), (reason, str(refused.value))


def test_a_comment_the_kit_tolerates_is_read_as_a_replacement_character():
    text, why = python_source(b"x = 1  # caf\xe9\n", "hog.py")
    assert why == "" and text == "x = 1  # caf\ufffd\n"


def test_a_file_declaring_another_encoding_is_copied_for_the_child_as_utf8():
    text, _ = python_source("# -*- coding: gbk -*-\nS = '你好'\n".encode("gbk"), "hog.py")
    assert text is not None
    copy = as_utf8_file(text)
    assert copy == "# -*- coding: utf-8 -*-\nS = '你好'\n"
    namespace: dict = {}
    exec(compile(copy.encode("utf-8"), "hog.py", "exec"), namespace)  # as Python reads the file on disk
    assert namespace["S"] == "你好"
    assert as_utf8_file("x = 1\n# coding: latin-1\n") == "x = 1\n# coding: latin-1\n"  # not a coding line there
