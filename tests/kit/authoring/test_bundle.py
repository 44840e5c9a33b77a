"""The student bundle: what it holds, what it never holds, and that a student can use it as is."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile

import pytest

from graders.authoring import messages as authoring_messages
from graders.authoring.bundle import STUDENT_MODULES, notebook_check_import, release
from graders.cli import main as hogkit
from graders.core import messages
from graders.editions.cases import load_problem_cases, load_questions
from graders.editions.edition import EditionError, edition_names, load_edition
from graders.editions.markers import BEGIN, END
from graders.runner import messages as runner_messages
from graders.scoring import messages as scoring_messages

from ..conftest import unlock_everything


@pytest.fixture(scope="module", params=edition_names())
def bundle(request, tmp_path_factory):
    edition = load_edition(request.param)
    out = tmp_path_factory.mktemp("release") / f"{edition.name}-student"
    archive = release(edition, out)
    return edition, out, archive


@pytest.fixture(scope="module")
def notebook_graded(bundle) -> subprocess.CompletedProcess:
    """The bundle's handout.ipynb, as handed out, graded as a submission: `hogkit grade handout.ipynb
    --edition E --json` run once for each edition's bundle."""
    edition, out, _ = bundle
    return subprocess.run([sys.executable, "-m", "graders.cli", "grade", str(out / "handout.ipynb"), "--edition",
                           edition.name, "--json"], capture_output=True, text=True, timeout=300)


def solution_windows(edition) -> list[str]:
    """Every run of three solution lines (inside a problem's markers), whitespace-trimmed."""
    windows, block = [], []
    for line in (edition.solution_dir / edition.submission).read_text(encoding="utf-8").split("\n"):
        if BEGIN.match(line):
            block = []
        elif END.match(line):
            code = [ln.strip() for ln in block if ln.strip() and not ln.strip().startswith("#")]
            windows += ["\n".join(code[k:k + 3]) for k in range(len(code) - 2)]
        else:
            block.append(line)
    return windows


def bundle_text(out) -> str:
    """Every file of the bundle, each line trimmed (notebook cells decoded), as one text."""
    texts = []
    for p in sorted(out.rglob("*")):
        if p.is_file():
            text = p.read_text(encoding="utf-8", errors="replace")
            if p.suffix == ".ipynb":
                text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"])
            texts.append("\n".join(line.strip() for line in text.split("\n") if line.strip()))
    return "\n".join(texts)


def test_the_bundle_holds_what_a_student_needs(bundle):
    edition, out, archive = bundle
    for name in (*edition.student_files, "ok", "README.md", "HANDOUT.md", "handout.ipynb", "requirements.txt",
                 "conftest.py", "tests/edition.json"):
        assert (out / name).is_file(), name
    assert {m.split("/")[0] if "/" in m else f"{m}.py" for m in STUDENT_MODULES} == {
        p.name for p in (out / "graders").iterdir()}
    assert {p.name for p in (out / "graders" / "gui" / "gui_static").iterdir()} == {"index.html", "hog.css", "hog.js"}
    requirements = (out / "requirements.txt").read_text()
    assert "pytest" in requirements and "pytest-timeout" in requirements
    with zipfile.ZipFile(archive) as z:
        assert f"{out.name}/{edition.submission}" in z.namelist()
        assert f"{out.name}/graders/runner/student.py" in z.namelist()


def test_the_bundle_holds_no_solution_no_hidden_case_and_no_plain_answer(bundle):
    edition, out, _ = bundle
    text = bundle_text(out)
    assert (out / edition.submission).read_text() == (edition.skeleton_dir / edition.submission).read_text()
    leaked = [window for window in solution_windows(edition) if window in text]
    assert leaked == [], leaked
    for p in edition.problems:
        cases = load_problem_cases(edition, p.label)
        shown = {step.source for case in cases if not case.hidden for step in case.steps}  # public lines too
        for case in cases:
            if case.hidden:
                assert case.name not in text or not any(
                    step.source in text for step in case.steps if len(step.source) > 30 and step.source not in shown
                ), case.name
        for q in load_questions(edition, p.label):
            for step in q.steps:
                if step.expected and len(step.expected) > 3 and step.expected not in ("Error", "Nothing", "Function"):
                    data = json.loads((out / "tests" / f"q{p.label}.json").read_text(encoding="utf-8"))
                    for record in data.get("locked", []):
                        for s in record.get("steps", []):
                            assert step.expected not in s.get("hashes", [])
    assert not (out / "graders" / "authoring" / "artifacts.py").exists()  # no tool that could rebuild from a solution


@pytest.mark.slow
def test_the_notebook_is_a_submission(bundle, notebook_graded):
    edition, out, _ = bundle
    book = json.loads((out / "handout.ipynb").read_text(encoding="utf-8"))
    code = [c for c in book["cells"] if c["cell_type"] == "code"]
    assert len(code) >= len([p for p in edition.problems if p.functions])
    for p in edition.problems:
        for f in p.functions:
            assert any(f"def {f}(" in "".join(c["source"]) for c in code), f
    done = notebook_graded
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == 0  # the stubs, as handed out


@pytest.mark.slow
def test_the_notebook_checks_each_problem_in_place(bundle, notebook_graded):
    """The notebook's first code cell loads the checks, and each problem's code cell is followed by
    a cell that checks that problem; graded as a submission, those cells are no code of hog.py."""
    edition, out, _ = bundle
    book = json.loads((out / "handout.ipynb").read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in book["cells"] if c["cell_type"] == "code"]
    assert code[0] == notebook_check_import()
    at = 0
    for p in edition.problems:  # in order: a function asked for twice (play) has a cell each time
        if p.functions:
            at = next(k for k in range(at, len(code)) if f"def {p.functions[0]}(" in code[k])
            assert code[at + 1] == f'check("{p.label}")', p.label
            at += 2
    done = notebook_graded
    assert json.loads(done.stdout)["notes"] == [], done.stdout  # no check cell ran, or failed, as code


# A kernel, as far as the checks can tell: IPython's get_ipython() and the cells it ran (In).
KERNEL = """
import builtins, json, sys
cells = json.loads(sys.argv[1])
class Shell:
    user_ns = {"In": [""] + cells}
builtins.get_ipython = lambda: Shell()
sys.path.insert(0, ".")
from graders.runner.notebook import check, checked
shown = check(sys.argv[2])  # a check cell shows the report alone, never a True or False after it
print("PASSED" if checked(sys.argv[2]) and shown is None else "FAILED")
"""


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_check_cell_runs_the_problems_cases_on_the_kernels_code(bundle, tmp_path):
    import shutil

    edition, out, _ = bundle
    folder = tmp_path / "project"
    shutil.copytree(out, folder)
    unlock_everything(folder)
    reference = (edition.solution_dir / edition.submission).read_text(encoding="utf-8")
    skeleton = (edition.skeleton_dir / edition.submission).read_text(encoding="utf-8")

    def run_cells(cells: list[str], label: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", KERNEL, json.dumps(cells), label], cwd=folder,
                              capture_output=True, text=True, timeout=300, env={"PATH": "/usr/bin:/bin"})

    points = edition.problem("01").points
    stubs = run_cells([notebook_check_import(), skeleton, 'check("01")'], "01")
    assert stubs.stdout.strip().endswith("FAILED") and f"0/{points}" in stubs.stdout, stubs.stdout + stubs.stderr
    assert scoring_messages.rerun_student("01") in stubs.stdout
    assert f"— {folder / 'handout.ipynb'}" in stubs.stdout  # the report names what it tested
    done = run_cells([notebook_check_import(), skeleton, 'check("01")', reference], "01")
    assert done.stdout.strip().endswith("PASSED") and f"{points}/{points}" in done.stdout, done.stdout + done.stderr
    (folder / ".hogkit" / "progress.json").unlink()
    locked = run_cells([reference], "01")
    assert messages.locked("01") in locked.stdout and locked.stdout.strip().endswith("FAILED")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_student_uses_the_bundle_in_a_fresh_virtual_environment(bundle, tmp_path):
    edition, out, _ = bundle
    venv = tmp_path / "venv"  # nothing is installed in it, so it needs no pip either
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    answers = []
    for q in load_questions(edition, 1):
        answers += [q.answer] if q.is_choice else [x for s in q.steps if s.expected for x in s.expected.split("\n")]
    env = {"PATH": "/usr/bin:/bin"}
    unlock = subprocess.run([python, "ok", "-q", "01", "-u"], cwd=out, input="\n".join(answers) + "\n",
                            capture_output=True, text=True, timeout=300, env=env)
    assert unlock.returncode == 1, unlock.stderr  # unlocked, then the skeleton's cases failed
    assert runner_messages.unlock_done("01", running=True) in unlock.stdout
    run = subprocess.run([python, "ok", "-q", "01"], cwd=out, capture_output=True, text=True, timeout=300, env=env)
    assert f"Problem 01 {edition.problem(1).title}" in run.stdout and "0/2" in run.stdout and run.returncode == 1
    score = subprocess.run([python, "ok", "--score"], cwd=out, capture_output=True, text=True, timeout=300, env=env)
    assert score.returncode == 1 and f"Total: 0/{edition.max_points}" in score.stdout
    assert "Phase 1" in score.stdout


def test_release_refuses_a_folder_that_holds_files(tmp_path, capsys):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    assert hogkit(["release", "boar_brawl", "--out", str(tmp_path / "full")]) == 2
    assert "already holds files" in capsys.readouterr().err
    assert hogkit(["release", "chess", "--out", str(tmp_path / "new")]) == 2
    with pytest.raises(EditionError):
        load_edition("chess")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_pytest_route_respects_locking_and_prints_a_table(bundle, tmp_path):
    """`python3 -m pytest` in a student's folder runs only unlocked problems' cases (a locked one's
    are skipped with the command that unlocks it) and ends with a table per problem."""
    import shutil

    from graders.editions import locking
    from graders.editions.edition import load_student_edition
    from graders.runner import student

    edition, out, _ = bundle
    folder = tmp_path / "project"
    shutil.copytree(out, folder)
    shutil.copyfile(edition.solution_dir / edition.submission, folder / edition.submission)
    mine = load_student_edition(folder)
    keys = [locking.prompt_key(p) for r in student.locked_records(mine, 1) for p in locking.prompts_of(r)]
    locking.save_progress(folder, {"unlocked": keys, "answers": {}})
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=folder,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    passed = len([c for c in load_problem_cases(mine, 1) if not c.hidden])
    assert runner_messages.pytest_problem_line("01", passed, 0, 0) in done.stdout, done.stdout
    skipped = len([c for c in load_problem_cases(mine, 2) if not c.hidden])
    assert runner_messages.pytest_problem_line("02", 0, 0, skipped) in done.stdout, done.stdout


def test_the_notebook_run_outside_its_folder_says_so(tmp_path):
    """Jupyter started elsewhere: the first cell says where to open the notebook, and each check cell
    says it again, instead of a ModuleNotFoundError."""
    code = notebook_check_import() + "\ncheck('01')\n"
    done = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, env={"PATH": "/usr/bin:/bin"})  # -S: the kit is not installed
    assert done.returncode == 0 and "Error" not in done.stderr, done.stderr
    assert done.stdout.count(authoring_messages.notebook_outside_folder()) == 2
    installed = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                               timeout=60, env={"PATH": "/usr/bin:/bin"})  # the kit installed, the folder wrong
    assert installed.returncode == 0 and "Traceback" not in installed.stderr, installed.stderr
    assert "check: " in installed.stdout and "run this from your project folder" in installed.stdout
