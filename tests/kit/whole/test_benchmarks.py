"""The benchmark scripts still reach the kit: every ``from graders… import …`` they hold, including
those inside the scripts they start as strings, names a module or a name that exists. (A move of
the kit's modules once left three of them importing what was no longer there, unnoticed, since
benchmarks run by hand.) Each script also answers ``--help``."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))
IMPORT = re.compile(r"^\s*from (graders(?:\.\w+)*) import ([\w, ]+)", re.MULTILINE)


def imports_of(text: str) -> list[tuple[str, str]]:
    return [(module, name.split(" as ")[0].strip()) for module, names in IMPORT.findall(text)
            for name in names.split(",")]


def test_the_pattern_finds_the_imports_of_an_embedded_script() -> None:
    text = ('CODE = """\nimport sys\nfrom graders import sandbox, onefunction\n"""\n'
            "from graders.core import messages  # noqa\nfrom graders.authoring import messages as authoring_messages\n")
    assert imports_of(text) == [("graders", "sandbox"), ("graders", "onefunction"), ("graders.core", "messages"),
                                ("graders.authoring", "messages")]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_kit_import_of_a_benchmark_resolves(script: Path) -> None:
    missing = []
    for module, name in imports_of(script.read_text(encoding="utf-8")):
        try:
            found = importlib.import_module(module)
        except ImportError:
            missing.append(module)
            continue
        if not hasattr(found, name):
            try:
                importlib.import_module(f"{module}.{name}")
            except ImportError:
                missing.append(f"{module}.{name}")
    assert missing == [], f"{script.name} imports what the kit no longer has"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_benchmark_answers_help(script: Path) -> None:
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and "usage" in done.stdout.lower(), done.stderr[-2000:]
