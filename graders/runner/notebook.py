"""Notebook: a problem's public cases run from inside the handout notebook, as ``python3 ok -q NN``.

Contract: the handout notebook's first code cell runs ``from graders.runner.notebook import check``, and
after each problem's code cell a cell runs ``check("NN")``. :func:`check` grades the code this
notebook has run so far (the cells executed in the kernel, in the order they ran, which is what
the kernel's own functions are), or the saved notebook when there is no kernel history, with the
same engine, sandbox and report as the student's runner, and prints the report (:func:`checked`
also returns whether every case ran and passed). Unlock questions stay in the terminal: a locked problem says which
command unlocks it. Nothing here needs anything installed: it ships in the student bundle and
keeps to Python 3.9.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from graders.scoring.submissions import as_module

NOTEBOOK = "handout.ipynb"


def check(label: str, folder: str | None = None) -> None:
    """Run problem LABEL's public cases on this notebook's code and print the report (nothing is
    returned, so a check cell shows the report alone). FOLDER is the project folder (default: the
    notebook's own)."""
    checked(label, folder)


def checked(label: str, folder: str | None = None) -> bool:
    """:func:`check`, and whether everything ran and passed (for a student's own cells)."""
    from graders.core.errors import HogkitError
    from graders.runner import student

    here = Path(folder or os.getcwd())
    try:
        passed, text = student.check_source(here, notebook_source(here), label)
    except HogkitError as exc:  # a problem that does not exist, a folder that is no project: said plainly
        print(f"check: {exc}")
        return False
    print(text)
    return passed


def notebook_source(folder: Path) -> str:
    """The code this notebook has run, as one hog.py: the kernel's executed cells when it has them,
    otherwise the code cells of the saved notebook in FOLDER."""
    cells = _kernel_cells()
    if cells is None:
        cells = _saved_cells(folder / NOTEBOOK)
    return as_module(cells)


def _kernel_cells() -> list[str] | None:
    try:
        shell = get_ipython()  # type: ignore[name-defined]  # noqa: F821 (IPython's own builtin)
    except NameError:
        return None
    history = shell.user_ns.get("In") if shell is not None else None
    return [cell for cell in history[1:] if isinstance(cell, str)] if isinstance(history, list) else None


def _saved_cells(path: Path) -> list[str]:
    try:
        book = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    cells = book.get("cells", []) if isinstance(book, dict) else []
    out = []
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source", "")
            out.append("".join(source) if isinstance(source, list) else str(source))
    return out
