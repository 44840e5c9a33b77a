"""The engine's types: mypy finds no error in ``graders``, with the settings of pyproject.toml.

CI runs ``mypy`` as a step of its own; this test runs the same check through mypy's API, so that
``python3 -m pytest`` catches a type error too. mypy is a dev dependency (``pip install -e '.[dev]'``):
without it the test is skipped, saying so.
"""

from __future__ import annotations

import pytest

from graders.editions.edition import kit_root

api = pytest.importorskip("mypy.api", reason="mypy is not installed (a dev dependency: pip install -e '.[dev]')")


@pytest.mark.slow
def test_the_engine_type_checks_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    root = kit_root()
    monkeypatch.chdir(root)  # as `mypy` in CI: [tool.mypy] names the files, relative to the kit's root
    stdout, stderr, status = api.run(["--config-file", str(root / "pyproject.toml")])
    assert status == 0, stdout + stderr
    assert stdout.startswith("Success: no issues found"), stdout
