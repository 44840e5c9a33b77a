"""Gradescope: the autograder zip, and the entry point it runs on Gradescope's workers.

Contract: :func:`build_autograder` writes a zip with ``setup.sh`` and ``run_autograder`` at its root,
the engine, and the edition's manifest, every case file (hidden ones included) and support files;
never the reference ``hog.py``. ``run_autograder`` calls :func:`main`, which finds the submission
under ``$AUTOGRADER_ROOT/submission`` (``/autograder`` on Gradescope), grades it with the same
engine as ``hogkit grade`` (student code isolated as :mod:`graders.isolation` decides on the
worker, which ``setup.sh`` gives bubblewrap), and writes ``results/results.json`` in Gradescope's format (see
:func:`graders.reports.render_gradescope`). Whatever the submission does, a results file is
written; a missing or unreadable submission gets a score of 0 with the reason.
"""

from __future__ import annotations

import json
import os
import sys
import zipfile
from pathlib import Path

from graders import messages, reports
from graders.edition import Edition, load_edition
from graders.storage import write_atomically

ENGINE = Path(__file__).parent

SETUP_SH = """#!/usr/bin/env bash
# Runs once when Gradescope builds the image: a Python of 3.11 or newer, and a source folder that
# the user running student code cannot read.
set -euo pipefail
if ! command -v python3.11 >/dev/null && ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    apt-get update
    apt-get install -y python3.11
fi
chmod -R go-rwx /autograder/source
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission; it always leaves results/results.json behind.
cd /autograder/source
PYTHON=python3.11
command -v "$PYTHON" >/dev/null || PYTHON=python3
exec "$PYTHON" -m graders.gradescope --edition {edition}
"""


def build_autograder(edition: Edition, out: Path) -> Path:
    """Write the autograder zip for EDITION to OUT."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        _add_text(archive, "setup.sh", SETUP_SH)
        _add_text(archive, "run_autograder", RUN_AUTOGRADER.format(edition=edition.name))
        for path in sorted(ENGINE.glob("*.py")):
            archive.write(path, f"graders/{path.name}")
        for path in sorted(edition.suite_dir.glob("*.toml")):
            archive.write(path, f"tests/{edition.name}/{path.name}")
        for path in _included_files(edition):
            archive.write(path, path.relative_to(edition.root).as_posix())
        for name in edition.support:
            archive.write(edition.support_dir / name, f"solution/{edition.name}/{name}")
    return out


def _included_files(edition: Edition) -> list[Path]:
    """Case files of other editions that this edition's files bring in with [[include]]."""
    from graders.edition import read_toml

    found = set()
    for path in edition.suite_dir.glob("q*.toml"):
        for inc in read_toml(path).get("include", []):
            target = (path.parent / inc["file"]).resolve()
            if target.parent != edition.suite_dir.resolve():
                found.add(target)
    return sorted(found)


def _add_text(archive: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name)
    info.external_attr = 0o755 << 16  # executable, as Gradescope expects
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, text)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="run_autograder", description="Grade one Gradescope submission.")
    parser.add_argument("--edition", required=True)
    args = parser.parse_args(argv)
    root = Path(os.environ.get("AUTOGRADER_ROOT", "/autograder"))
    try:
        record = _grade_submission(root, args.edition)
    except Exception as exc:  # whatever happens, Gradescope gets a results file that says the kit failed
        import traceback

        from graders.grading import KIT_ERROR, describe_failure

        record = {"student": "submission", "status": KIT_ERROR, "traceback": traceback.format_exc(),
                  "reason": messages.kit_failed_row(describe_failure(exc)), "total": 0, "max": 0, "attempts": 1}
    write_atomically(root / "results" / "results.json", json.dumps(reports.render_gradescope(record), indent=2))
    print(record.get("reason") or messages.total_line(record["total"], record["max"]), file=sys.stderr)
    return 0


def _grade_submission(root: Path, edition_name: str) -> dict:
    """The record of the submission under ROOT, the kit's failures retried once."""
    from graders.classroom import record_with_retry
    from graders.sandbox import Limits
    from graders.submissions import Entry, read_entry

    edition = load_edition(edition_name, Path(__file__).resolve().parent.parent)
    folder = root / "submission"
    source, status, reason = read_entry(folder, edition.submission) if folder.is_dir() else (
        None, "missing", messages.no_hog_in_folder(str(folder), edition.submission))
    return record_with_retry(Entry("submission", folder, source, status, reason), edition, Limits())


if __name__ == "__main__":
    sys.exit(main())
