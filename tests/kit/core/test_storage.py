"""Files the kit writes: whole or not at all, readable by others as far as the umask allows."""

from __future__ import annotations

import os
import stat

import pytest

from graders.core import storage


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_written_files_get_the_permissions_the_umask_allows(tmp_path, mask, mode):
    """A TA or a web server reads grades.csv and the feedback when the umask lets others read."""
    old = os.umask(mask)
    try:
        assert storage.current_umask() == mask
        storage.write_atomically(tmp_path / "grades.csv", "id,total\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "grades.csv").stat().st_mode) == mode
    assert [p.name for p in tmp_path.iterdir()] == ["grades.csv"]  # no temporary file left


@pytest.mark.slow
def test_a_class_output_folder_is_readable_by_the_group_and_others(tmp_path):
    from graders.authoring.demo import build_demo_class
    from graders.courses.classroom import grade_class
    from graders.editions.edition import load_edition

    old = os.umask(0o022)
    try:
        edition = load_edition()
        build_demo_class(edition, tmp_path / "class")
        grade_class(tmp_path / "class", edition, tmp_path / "out", jobs=2)
    finally:
        os.umask(old)
    written = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert written and all(stat.S_IMODE(p.stat().st_mode) == 0o644 for p in written), written
