"""Reference: an edition's reference solution, loaded once into a namespace of its own.

Contract: :func:`namespace` returns the module namespace of the edition's reference submission
file (``solution/NAME/hog.py``), loaded at most once per edition while the process lives, by one
thread while any others that ask wait for it. Loading touches no process-wide state: not
``sys.modules``, not ``sys.path``, not the working folder. The reference's imports of the files
beside it (``dice``, ``ucb``) are answered with private copies loaded the same way, through an
``__import__`` of the namespace's own; every other import (the standard library) is Python's
usual one, which is safe from any thread. The namespace is shared: callers read it, never change
it. The code is the kit's own and trusted; student code never runs here (see :mod:`graders.sandboxing.sandbox`).
"""

from __future__ import annotations

import builtins
import types
from pathlib import Path
from typing import Any

from graders.core import syntax
from graders.core.memo import once
from graders.editions.edition import Edition


class _PrivateModules:
    """The modules of one folder, each loaded once into a fresh module object nobody else sees."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.loaded: dict[str, types.ModuleType] = {}
        self.builtins = dict(vars(builtins), __import__=self.load_import)

    def module(self, name: str) -> types.ModuleType:
        if name in self.loaded:
            return self.loaded[name]
        path = self.folder / f"{name}.py"
        module = types.ModuleType(name)
        module.__file__ = str(path)
        module.__dict__["__builtins__"] = self.builtins
        self.loaded[name] = module  # before running it, as import does, so that a cycle finds it
        code = syntax.compile_code(path.read_text(encoding="utf-8"), str(path))
        exec(code, module.__dict__)  # trusted: the kit's own reference
        return module

    def load_import(self, name: str, globals: Any = None, locals: Any = None, fromlist: Any = (),
                    level: int = 0) -> types.ModuleType:
        """``import NAME``: a file of the folder privately, anything else as Python would."""
        if level == 0 and "." not in name and (self.folder / f"{name}.py").is_file():
            return self.module(name)
        return builtins.__import__(name, globals, locals, fromlist, level)


@once(maxsize=16)
def _load(folder: Path, module: str) -> dict:
    return vars(_PrivateModules(folder).module(module))


def namespace(edition: Edition) -> dict:
    """The reference's module namespace (shared: read it, never change it)."""
    return _load(edition.solution_dir.resolve(), edition.module)


def evaluate(edition: Edition, expression: str) -> Any:
    """An expression of the kit's own (a manifest's, such as ``always_roll(6)``) in the reference."""
    return syntax.evaluate(expression, namespace(edition), f"{edition.name} reference")
