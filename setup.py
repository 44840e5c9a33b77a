"""The kit's data in its wheel. The product's top-level folders stay where they are in the
repository (tests/editions, solution, skeleton, handouts); building a wheel copies them into the
package as graders/_kit, so a kit installed with `pip install .` (or from the wheel) finds its
editions in any folder, with no environment variable set (graders.editions.edition.kit_root).
An editable install reads them from the checkout instead."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA = ("tests/editions", "solution", "skeleton", "handouts")
LEFT_OUT = shutil.ignore_patterns("__pycache__", "*.pyc", ".hogkit", ".ipynb_checkpoints")


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # (the checkout is the kit's root)
        here = Path(__file__).resolve().parent
        kit = Path(self.build_lib) / "graders" / "_kit"
        for folder in DATA:
            if (here / folder).is_dir():
                shutil.copytree(here / folder, kit / folder, dirs_exist_ok=True, ignore=LEFT_OUT)


setup(cmdclass={"build_py": BuildWithData})
