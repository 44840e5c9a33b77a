"""The kit's runner files (what a child runs) and their ``.pyc`` bytes, compiled once per process.

Contract: :func:`runner_files` names the files a child runs (the child, its parts, the probes); the
fork server (zygote.py) runs beside them. :func:`compiled` gives a runner file as a
``.pyc`` file's bytes: the interpreter's magic number, a header and the code, compiled without this
module's own future flags. Children run the same interpreter as the grader, so they run these as
they are and compile nothing of the kit's (``-B`` keeps them from writing any cache). The result is
kept per file, path, modification time and size.
"""

from __future__ import annotations

import importlib.util
import marshal
from pathlib import Path

from graders.core.memo import once
from graders.sandboxing.child import PARTS

CHILD = Path(__file__).with_name("child.py")
CHILD_PARTS = tuple(Path(__file__).with_name(part.rsplit(".", 1)[1] + ".py") for part in PARTS)  # the child loads them
PROBES = Path(__file__).with_name("probes.py")


def runner_files() -> tuple[Path, ...]:
    """The files a child runs, copied into its runner folder: the child, its parts, the probes."""
    return (CHILD, *CHILD_PARTS, PROBES)


def compiled(source: Path) -> bytes:
    """SOURCE (one of the kit's runner files) as a ``.pyc`` file's bytes: the interpreter's magic
    number, a header and the code. The child runs the same interpreter as this process, so it runs
    these as they are and compiles nothing of the kit's (``-B`` keeps it from writing any cache)."""
    stat = source.stat()
    return _compiled(str(source), stat.st_mtime_ns, stat.st_size)


@once(maxsize=16)
def _compiled(path: str, mtime_ns: int, size: int) -> bytes:
    with open(path, encoding="utf-8") as f:
        code = compile(f.read(), Path(path).name, "exec", dont_inherit=True)
    header = importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little")  # PEP 552: checked by time and size
    stamp = ((mtime_ns // 1_000_000_000) & 0xFFFFFFFF).to_bytes(4, "little") + (size & 0xFFFFFFFF).to_bytes(4, "little")
    return header + stamp + marshal.dumps(code)
