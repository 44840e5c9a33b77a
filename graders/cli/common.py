"""What several ``hogkit`` commands share: the edition a path declares, an output that may be written, progress."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from graders.cli import messages as cli_messages
from graders.core import messages
from graders.core.errors import SubmissionError
from graders.core.records import ProblemResult
from graders.editions.edition import DEFAULT_EDITION, Edition, declared_edition, edition_names, load_edition


def edition_for(args: argparse.Namespace, path: Path | None, class_folder: bool = False) -> Edition:
    """--edition, or else the edition PATH declares (a student's project folder, or most of a
    class's), or else the default edition; a declared edition is said on standard error."""
    if args.edition:
        return load_edition(args.edition)
    from graders.scoring.submissions import declared_by_class

    declared = None
    if path is not None and path.exists():
        declared = declared_by_class(class_root(path)) if class_folder else declared_edition(path)
    if declared and declared in edition_names():
        if declared != DEFAULT_EDITION:  # the default goes without saying
            print(cli_messages.edition_declared(declared, str(path)), file=sys.stderr)
        return load_edition(declared)
    return load_edition(DEFAULT_EDITION)


def class_root(path: Path) -> Path:
    """The folder whose entries are the hand-ins: a Gradescope export's own folder when PATH holds
    one (each submission_<id> is then an entry, never the export as a whole), else PATH."""
    from graders.courses.handins import export_root, is_export

    return export_root(path) if path.is_dir() and is_export(path) else path


def problem_progress(result: ProblemResult) -> None:
    if sys.stderr.isatty():
        print(f"\r  graded problem {result.label} ", end="", file=sys.stderr, flush=True)


def writable_output(text: str, folder: bool, made_later: bool = False) -> Path:
    """The output path TEXT, checked before any work is done, and nothing made of it: the folder it
    is (FOLDER) or is in could be made there (the nearest folder above it that exists takes a file;
    the command makes the output folder itself once its inputs are checked, so a refused command
    writes nothing), but a file is never written into a folder that is not there yet (a mistyped
    path would otherwise be made anywhere); a file path must not be a folder, unless the command makes
    that folder itself (MADE_LATER) and says its own word about it. Bad input otherwise (one line,
    exit status 2)."""
    import errno
    import tempfile

    path = Path(text)
    where = path if folder else path.parent
    if not folder and not made_later and path.is_dir():
        raise SubmissionError(cli_messages.cannot_write(text, cli_messages.REASON_IS_A_FOLDER))
    if not folder and not made_later and not where.is_dir():
        raise SubmissionError(cli_messages.cannot_write(text, cli_messages.reason_no_folder(str(where))))
    here = where
    while not os.path.lexists(here) and here != here.parent:
        here = here.parent
    if not here.is_dir():
        raise SubmissionError(cli_messages.cannot_write(text, os.strerror(errno.ENOTDIR)))
    try:
        with tempfile.TemporaryFile(dir=here):
            pass
    except OSError as exc:
        raise SubmissionError(cli_messages.cannot_write(text, exc.strerror or str(exc))) from exc
    return path


def shown_path(path: Path) -> str:
    """PATH as typed from here: relative when it is below the current folder, else absolute."""
    relative = os.path.relpath(path)
    return path.resolve().as_posix() if relative.startswith("..") else Path(relative).as_posix()


def print_notes(notes: list[str]) -> None:
    """What loading a submission did (a repaired syntax error, a skipped statement), on standard error."""
    for note in notes:
        print(messages.LABEL_NOTE + note, file=sys.stderr)
