"""Scratch folders: the kit's own temporary folders, none of which is left behind when the kit stops.

Contract: :func:`make` makes a new folder in the temporary folder (``$TMPDIR``, as
:func:`tempfile.mkdtemp` does, mode 0700) and :func:`remove` deletes one. A folder's name is
registered *before* the folder is made and forgotten only once it is deleted, so an interrupt that
lands anywhere (Ctrl-C raises in the main thread between any two steps) never leaves one the kit
does not know of. Whatever this process made and has not deleted is deleted when it ends normally
(``atexit``: after Ctrl-C too, once the grading threads are done) and by :func:`remove_all`, which
a stop that cannot wait (a class grade's second Ctrl-C, which ends with ``os._exit``, running no
``atexit``) calls first; after it, :func:`make` makes nothing (:class:`Closed`). The sandbox's
staging and runner folders, the fork server's runner and the grader's compiled loop are made here.
Standard library only: it ships to students (Python 3.9).
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import tempfile
import threading
from pathlib import Path

_LOCK = threading.RLock()  # re-entrant: the second Ctrl-C removes every folder from a signal handler
_LIVE: dict[str, int] = {}  # {folder: the process that made it}: a forked process never deletes its parent's
_CLOSED: list[bool] = []


class Closed(RuntimeError):
    """The process is ending: no scratch folder is made any more."""


def make(prefix: str) -> Path:
    """A new, empty folder of this process's own, named PREFIX and random letters, in the temporary folder."""
    base = tempfile.gettempdir()
    while True:
        path = os.path.join(base, prefix + secrets.token_hex(8))
        with _LOCK:
            if _CLOSED:
                raise Closed(path)
            _LIVE[path] = os.getpid()  # first: whatever happens next, the folder is known
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:  # someone else's: never ours to delete
                del _LIVE[path]
                continue
            except BaseException:
                del _LIVE[path]
                raise
        return Path(path)


def remove(path: Path | str) -> None:
    """Delete PATH (a folder :func:`make` made) and all it holds; nothing when it is gone already."""
    shutil.rmtree(path, ignore_errors=True)
    with _LOCK:
        _LIVE.pop(str(path), None)


def remove_all() -> None:
    """Delete every folder this process made and has not deleted, and make none from now on."""
    with _LOCK:
        _CLOSED.append(True)
        mine = [path for path, pid in _LIVE.items() if pid == os.getpid()]
    for path in mine:
        remove(path)


def live() -> list[str]:
    """The folders this process made and has not deleted (for tests)."""
    with _LOCK:
        return sorted(path for path, pid in _LIVE.items() if pid == os.getpid())


atexit.register(remove_all)
