"""Bundle: the folder (and zip) a student downloads for one edition.

Contract: :func:`release` writes OUT holding the edition's skeleton (``hog.py`` with stubs, the
support files, the text and web interfaces), its ``tests/`` (public cases, unlock answers only as salted
hashes, no hidden case), the runner ``ok`` with the part of the engine it imports (standard
library only, so nothing needs installing to unlock and test), a ``conftest.py`` so that
``python3 -m pytest`` runs the public cases too, ``requirements.txt`` naming pytest and
pytest-timeout for that, the handout as Markdown and as a Jupyter notebook (each problem's text
followed by a code cell holding its stub), and a README. It never copies anything from the
solution folder but the support files a student also gets.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from graders.authoring import messages as authoring_messages
from graders.core import syntax
from graders.editions.edition import LABEL, Edition, problem_label
from graders.games import kinds

ENGINE = Path(__file__).resolve().parents[1]
STUDENT_README = """# {title}

Everything you need for the project is in this folder. You change only `{submission}`.

1. Read `HANDOUT.md` (or open `handout.ipynb` in Jupyter).
2. Unlock a problem's questions: `python3 ok -q 01 -u`
3. Write the code in `{submission}`, then run its tests: `python3 ok -q 01`
4. See your points per phase: `python3 ok --score`
5. Hand in: `python3 ok --zip` writes `{stem}_submission.zip`; upload that zip on Gradescope. It holds
   the code you worked in: `{submission}` or, if you wrote your code in `handout.ipynb`, the
   notebook's code as last saved (save it first). It lists what it holds and its score on the public
   tests, and refuses the untouched starter code.

`python3 ok --help` lists every option. Print debugging lines with `print("DEBUG:", x)`: they are
shown and never make a test fail.{play}

The runner and the game need only Python 3.9 or newer, and nothing installed. To run the public
tests with pytest as well:
`python3 -m pip install -r requirements.txt` then `python3 -m pytest`.
"""


def _play_line(edition: Edition) -> str:
    """How the folder's student plays the game: the browser launcher and the terminal game the
    edition ships (a file ending in ``_gui.py`` and one in ``_ui.py``), if any."""
    browser = next((f for f in edition.student_files if f.endswith("_gui.py")), None)
    terminal = next((f for f in edition.student_files if f.endswith("_ui.py")), None)
    if browser is None:
        return ""
    also = f" (or in the terminal with `python3 {terminal}`)" if terminal else ""
    return f" Once `play` works, play the game in your browser with\n`python3 {browser}`{also}."


REQUIREMENTS = "pytest>=8\npytest-timeout>=2.2\n"
CONFTEST = '''"""Lets `python3 -m pytest` run this project's public cases."""

pytest_plugins = ["graders.runner.pytest_plugin"]
'''


# The engine's folders a student's folder holds: what the runner (runner/student.py), the pytest plugin
# and the web game import, and the sandbox's child and probes, which it starts by file name. They keep
# to Python 3.9 (pyproject.toml's per-file target names the same folders) and import nothing outside
# them at module level (tests/kit/whole/test_shape.py). The other folders run only on an instructor's machine.
SHIPPED = ("core", "editions", "sandboxing", "scoring", "runner", "gui")


def student_modules() -> tuple[str, ...]:
    """The modules a student's folder holds, as paths under graders/ without ".py": every module of the
    shipped folders, their ``__init__`` files included, and the package's own ``__init__``."""
    found = (p.relative_to(ENGINE).with_suffix("").as_posix() for name in SHIPPED for p in (ENGINE / name).glob("*.py"))
    return ("__init__", *sorted(found))


STUDENT_MODULES = student_modules()


def engine_imports(name: str, top_level_only: bool = True) -> set[str]:
    """The engine modules module NAME imports (at its top level only, unless asked for all)."""
    tree = syntax.parse_module((ENGINE / f"{name}.py").read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("graders"):
            folder = "/".join(node.module.split(".")[1:])
            if (ENGINE / f"{folder}.py").is_file():
                found.add(folder)
            else:
                prefix = f"{folder}/" if folder else ""
                found.update(prefix + a.name for a in node.names if (ENGINE / f"{prefix}{a.name}.py").is_file())
    return found


def notebook_check_import() -> str:
    """The notebook's first code cell: it loads the checks, or says plainly that the notebook runs
    outside its project folder (the checks then say so too). Graded as a submission, the whole cell
    is left out (it starts with :data:`graders.scoring.submissions.KIT_CELL`)."""
    from graders.scoring.submissions import KIT_CELL

    return (f"{KIT_CELL}\ntry:\n    from graders.runner.notebook import check\nexcept ImportError:\n"
            f"    def check(label):\n        print({authoring_messages.notebook_outside_folder()!r})\n\n    check('')")


def notebook(edition: Edition, handout: str, skeleton: str) -> str:
    """The handout as a notebook that is also a complete submission: the skeleton's opening lines,
    then each section of the handout, each problem's text followed by a code cell with its stubs
    and a cell that checks it, and the functions the project provides (the command-line entry
    point left out): last, or first where a stub's default argument names them."""
    import nbformat

    tree = syntax.parse_module(skeleton)
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    stubs = {n.name: ast.get_source_segment(skeleton, n, padded=True) or "" for n in defs}
    for n in defs:  # keep decorators with their function
        if n.decorator_list:
            start = n.decorator_list[0].lineno - 1
            stubs[n.name] = "\n".join(skeleton.split("\n")[start:n.end_lineno])
    asked = {f for p in edition.problems for f in p.functions}
    opening = "\n".join(skeleton.split("\n")[: (defs[0].lineno - 1) if defs else None]).strip("\n")
    provided = [n.name for n in defs if n.name not in asked and not n.decorator_list]
    # A provided function that an asked one names in a default argument (say=silence) must be
    # defined before it; the others come last, as they may name asked ones in theirs.
    defaults = {node.id for n in defs if n.name in asked
                for d in [*n.args.defaults, *n.args.kw_defaults] if d is not None
                for node in ast.walk(d) if isinstance(node, ast.Name)}
    early = [stubs[name] for name in provided if name in defaults]
    late = [stubs[name] for name in provided if name not in defaults]
    cells = [nbformat.v4.new_markdown_cell(authoring_messages.notebook_checks_intro(edition.submission)),
             nbformat.v4.new_code_cell(notebook_check_import())]
    cells += [nbformat.v4.new_code_cell(opening)] if opening else []
    if early:
        cells.append(nbformat.v4.new_markdown_cell(authoring_messages.notebook_provided()))
        cells.append(nbformat.v4.new_code_cell("\n\n\n".join(early)))
    section: list[str] = []
    current: str | None = None

    def flush() -> None:
        if section:
            cells.append(nbformat.v4.new_markdown_cell("\n".join(section).strip("\n")))
        if current is not None:
            code = "\n\n\n".join(stubs[f] for f in edition.problem(current).functions if f in stubs)
            if code:
                cells.append(nbformat.v4.new_code_cell(code))
                cells.append(nbformat.v4.new_code_cell(f'check("{edition.problem(current).label}")'))

    for line in handout.split("\n"):
        number = _problem_heading(line)
        if line.startswith("#") and (number is not None or current is not None):
            flush()
            section, current = [], number
        section.append(line)
    flush()
    if late:
        cells.append(nbformat.v4.new_markdown_cell(authoring_messages.notebook_provided()))
        cells.append(nbformat.v4.new_code_cell("\n\n\n".join(late)))
    book = nbformat.v4.new_notebook()
    book.cells = cells
    book.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nbformat.writes(book)


def _problem_heading(line: str) -> str | None:
    """The label of the problem a handout heading such as "## Problem 5a: ..." introduces, or None."""
    words = line.lstrip("#").split()
    if line.startswith("#") and len(words) >= 2 and words[0] == "Problem" and LABEL.fullmatch(words[1].rstrip(":")):
        return problem_label(words[1].rstrip(":"))
    return None


def release(edition: Edition, out: Path) -> Path:
    """Write the student bundle to OUT and OUT.zip; return the zip's path. The edition's [game]
    table is checked first, as a student's copy reads only the keys every kind shares."""
    kinds.check(edition.game)
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(authoring_messages.release_target_not_empty(str(out)))
    out.mkdir(parents=True, exist_ok=True)
    shutil.copytree(edition.skeleton_dir, out, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns(".hogkit", "__pycache__", "*.pyc"))
    (out / "graders").mkdir()
    for name in STUDENT_MODULES:
        (out / "graders" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ENGINE / f"{name}.py", out / "graders" / f"{name}.py")
    shutil.copytree(ENGINE / "gui" / "gui_static", out / "graders" / "gui" / "gui_static")
    handout = (edition.handout_dir / "handout.md").read_text(encoding="utf-8")
    (out / "HANDOUT.md").write_text(handout, encoding="utf-8")
    skeleton = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")
    (out / "handout.ipynb").write_text(notebook(edition, handout, skeleton), encoding="utf-8")
    (out / "README.md").write_text(STUDENT_README.format(title=edition.title, submission=edition.submission,
                                                         stem=Path(edition.submission).stem,
                                                         play=_play_line(edition)),
                                   encoding="utf-8")
    (out / "requirements.txt").write_text(REQUIREMENTS, encoding="utf-8")
    (out / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (out / "ok").chmod(0o755)
    return Path(shutil.make_archive(str(out), "zip", root_dir=out.parent, base_dir=out.name))
