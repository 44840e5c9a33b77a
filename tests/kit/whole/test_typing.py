"""The engine's types: mypy finds no error in ``graders``, with the settings of pyproject.toml.

CI runs ``mypy`` as a step of its own; this test runs the same check, so that ``python3 -m pytest``
catches a type error too. It runs mypy in a process of its own, as CI does: mypy run in-process
raises the interpreter's recursion limit and keeps its whole program in the worker's memory. mypy is
a dev dependency (``pip install -e '.[dev]'``): without it the test is skipped, saying so.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from graders.editions.edition import kit_root


@pytest.mark.slow
def test_the_engine_type_checks_cleanly() -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (a dev dependency: pip install -e '.[dev]')")
    root = kit_root()
    # As `mypy` in CI, from the kit's root: [tool.mypy] names the files relative to it.
    done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(root / "pyproject.toml")], cwd=root,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Success: no issues found"), done.stdout
