"""Errors: the one family of everything the kit reports as a failure, and how each one ends a command.

Contract: every exception the kit raises on purpose is a :class:`HogkitError`, and its kind says
whose failure it is. A command catches the base class alone and ends with the kind's
``exit_status``: 2 for input that cannot be used (what the user typed, pointed at or wrote), 3 when
the kit itself failed (never anybody's input, never a student's grade). Each message is one line
from a sentence module (:mod:`graders.core.messages` or a folder's own ``messages.py``) that names
what was wrong and where it came from.

The kinds:

* :class:`InputError` (2): an option, a path or a folder given to a command cannot be used;
* :class:`EditionError` (2): an edition is unknown, or one of its data files (manifest, case file,
  a student's copy of them) is broken: the message names the file, the table and the key;
* :class:`SubmissionError` (2): a path given to grade holds nothing gradable;
* :class:`LoadError` (2): nothing of a submission could be loaded (every statement hung or exited);
* :class:`AnalysisError` (2): rules or a strategy cannot be analysed exactly;
* :class:`GenerationError` (2): a case template cannot be filled in with the reference;
* :class:`MarkerError` (2): the solution's problem markers do not pair up;
* :class:`RequestError` (2): a request the browser page sent is not a game this edition can play;
* :class:`CourseError` (2): a course file, roster, overrides or times file cannot be used;
* :class:`KitFailure` (3): the kit failed to grade, twice (``details`` holds the traceback);
* :class:`SandboxError` (3): the sandbox itself failed before any student code ran;
* :class:`IsolationRefused` (3): a sandboxed child could read the kit's secrets, so nothing was graded;
* :class:`MutantError` (3): mutation testing made a mutant Python cannot compile (a kit bug).

This module is shipped to students (the runner catches the base class) and keeps to Python 3.9.
"""

from __future__ import annotations

INPUT_STATUS = 2  # the exit status for input that cannot be used
KIT_STATUS = 3  # the exit status for a failure of the kit's own


class HogkitError(Exception):
    """Anything the kit reports as a failure; ``exit_status`` says how a command ends on it."""

    exit_status = INPUT_STATUS


class InputError(HogkitError):
    """An option, a path or a folder given to a command cannot be used."""


class EditionError(HogkitError):
    """An edition is unknown or one of its data files is broken; the message says which file and key."""


class SubmissionError(InputError):
    """The path given cannot be graded at all; the message says why in the caller's terms."""


class LoadError(HogkitError):
    """The submission could not be loaded at all: every attempt hung or ended the program."""


class AnalysisError(HogkitError):
    """The edition's rules, or a strategy, cannot be analysed exactly; the message says why."""


class GenerationError(HogkitError):
    """A case template could not be filled in with the reference solution."""


class MarkerError(HogkitError):
    """The solution's problem markers are broken; the message names the file line."""


class RequestError(HogkitError):
    """A request the page (or anyone) sent is not a game this edition can play; the message says why."""


class KitFailure(HogkitError):
    """The kit, not the submission, failed to grade it (twice): the message says so in one line,
    ``details`` holds the traceback of the last attempt."""

    exit_status = KIT_STATUS

    def __init__(self, summary: str, details: str = "") -> None:
        super().__init__(summary)
        self.summary = summary
        self.details = details


class SandboxError(HogkitError):
    """The sandbox itself failed: the child died or went silent before any of the submission's code
    ran. Never the submission's fault, so never a grade (see :mod:`graders.scoring.grading`)."""

    exit_status = KIT_STATUS


class IsolationRefused(HogkitError):
    """Grading with hidden cases was refused: a sandboxed child could read the kit's secrets (or,
    with --require-isolation, had less than full isolation). The kit's failure, never a grade."""

    exit_status = KIT_STATUS


class CourseError(InputError):
    """A course file, roster, overrides file or times file that cannot be used, said in one line."""


class MutantError(HogkitError):
    """The generator made a mutant Python cannot compile: a bug of the kit, said with the mutant's id."""

    exit_status = KIT_STATUS
