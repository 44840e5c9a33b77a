"""Storage: writing files so that nothing is ever half-written.

Contract: :func:`write_atomically` replaces a file in one step and gives it the permissions any
newly created file gets under the process's umask (``0644`` under the usual ``022``), so that a TA
or a web server can read ``grades.csv`` and the feedback when the umask allows it; a temporary
file alone would be ``0600``.
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
