"""Storage: writing files so that nothing is ever half-written.

Contract: :func:`write_atomically` replaces a file in one step and gives it the permissions any
newly created file gets under the process's umask (``0644`` under the usual ``022``), so that a TA
or a web server can read ``grades.csv`` and the feedback when the umask allows it; a temporary
file alone would be ``0600``. :func:`make_private_folder` makes an output folder that holds records
(and every missing parent) ``0700``: its owner's alone, whatever the umask, so that no other user,
nor a sandboxed child running as one, can list or read it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _umask_at_start() -> int:
    mask = os.umask(0o022)  # while the module loads, before any grading thread exists
    os.umask(mask)
    return mask


UMASK_AT_START = _umask_at_start()


def current_umask() -> int:
    """The process's umask, read without changing it where Linux shows it (``os.umask`` would set it
    for every thread at once); elsewhere the one it had when this module loaded."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return UMASK_AT_START


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write TEXT (UTF-8 text, or bytes as they are) to PATH so that a reader sees the old file or
    the new one, never half of one; a failed write leaves no temporary file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        os.fchmod(fd, 0o666 & ~current_umask())
        with os.fdopen(fd, "wb") as f:
            f.write(text if isinstance(text, bytes) else text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def make_private_folder(path: Path) -> Path | None:
    """PATH as a folder; what is made of it (PATH and its missing parents) is ``0700`` from the moment it
    exists, whatever the umask. A folder already there is left as it is. Returns the outermost folder
    made (to remove, when what it was made for is refused), or None."""
    missing = []
    here = path
    while not os.path.lexists(here) and here != here.parent:
        missing.append(here)
        here = here.parent
    made = None
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)  # never wider than 0700, whatever the umask
        except FileExistsError:  # made meanwhile by someone else: theirs to keep as it is
            continue
        os.chmod(folder, 0o700)  # nor narrower: its owner writes into it
        made = made or folder
    if not path.is_dir():
        path.mkdir()  # raises as mkdir does (a file there, a link to nothing)
    return made
