"""The reference solution's programs run as students run them, and its final strategy is worth having."""

from __future__ import annotations

import ast
import random
import subprocess
import sys

import pytest

from graders.editions.edition import edition_names, load_edition

STUDENT_FILES = ["hog.py", "dice.py", "ucb.py", "hog_ui.py", "hog_gui.py"]
BEGINNER_IMPORTS = {"dice", "ucb", "hog", "random", "argparse", "functools", "sys", "code", "inspect", "signal"}
# The browser launchers: the kit's own server does the work.
ENGINE_IMPORTS = {launcher: {"graders.gui.webgui", "os"} for launcher in ("hog_gui.py", "pig_gui.py")}


def run_in(folder, *argv, stdin=""):
    return subprocess.run([sys.executable, *argv], cwd=folder, input=stdin, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("name", edition_names())
@pytest.mark.parametrize("kind", ["solution", "skeleton"])
def test_student_files_have_no_type_hints_and_plain_imports(name, kind):
    edition = load_edition(name)
    folder = edition.solution_dir if kind == "solution" else edition.skeleton_dir
    for filename in edition.student_files:
        tree = ast.parse((folder / filename).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                assert node.returns is None, f"{filename}:{node.lineno} has a return annotation"
                assert all(a.annotation is None for a in node.args.args), f"{filename}:{node.lineno} annotated"
            assert not isinstance(node, ast.AnnAssign), f"{filename}:{node.lineno} has an annotation"
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                allowed = BEGINNER_IMPORTS | ENGINE_IMPORTS.get(filename, set())
                assert set(names) <= allowed, f"{filename}:{node.lineno} imports {names}"


def test_hog_imports_only_dice_and_ucb_at_top_level():
    tree = ast.parse((load_edition().solution_dir / "hog.py").read_text(encoding="utf-8"))
    top = {n.module for n in tree.body if isinstance(n, ast.ImportFrom)} | {
        a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names
    }
    assert top == {"dice", "ucb"}


@pytest.mark.parametrize("name", edition_names())
def test_text_interface_plays_a_game(name):
    edition = load_edition(name)
    if "hog_ui.py" not in edition.student_files:
        pytest.skip(f"{name} has no text interface of its own (hog_ui.py is not among its files)")
    folder = edition.solution_dir
    done = run_in(folder, "-B", "hog_ui.py")
    assert done.returncode == 0, done.stderr
    assert "The final score is Player 0:" in done.stdout
    assert "Player 0 rolls 5 dice:" in done.stdout
    people = run_in(folder, "-B", "hog_ui.py", "-n", "1", stdin="eleven\n0\n" * 200)
    assert people.returncode == 0, people.stderr
    assert "Please type a whole number from 0 to 10." in people.stdout


def test_text_interface_with_a_person_and_bad_input():
    folder = load_edition().solution_dir
    done = run_in(folder, "-B", "hog_ui.py", "-n", "1", stdin="eleven\n0\n" * 200)
    assert done.returncode == 0, done.stderr
    assert "Please type a whole number from 0 to 10." in done.stdout
    assert "The final score is" in done.stdout
    ended = run_in(folder, "-B", "hog_ui.py", "-n", "2", stdin="3\n")
    assert ended.returncode == 1 and "No more input" in ended.stdout


@pytest.mark.parametrize("name", edition_names())
def test_hog_command_line_help(name):
    """The student's file answers --help with its options (Hog's files name --run_experiments)."""
    edition = load_edition(name)
    done = run_in(edition.solution_dir, "-B", edition.submission, "--help")
    assert done.returncode == 0 and "usage:" in done.stdout and "--" in done.stdout
    if edition.submission == "hog.py":
        assert "--run_experiments" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", edition_names())
@pytest.mark.timeout(900)
def test_the_reference_final_strategy_is_the_exact_best_response_to_the_baseline(name):
    from graders.games import analysis, kinds

    edition = load_edition(name)
    if kinds.dice_settings(edition) is None:
        pytest.skip(f"{name} describes no game of dice; its final_strategy is graded by a [win_rate] case instead")
    model = analysis.build_model(edition)
    baseline = analysis.reference_table(edition, analysis.analysis_settings(edition).baseline)
    final = analysis.reference_table(edition, "final_strategy")
    if model.memory > 1:
        # Strategies see only the scores: the final strategy is where policy improvement stops, so
        # one more round from it finds nothing better (see analysis.score_best_response).
        _, rates, _ = analysis.score_best_response(model, baseline, start=final, rounds=1)
        best = rates["average"]
    else:
        best = analysis.win_rates(model, analysis.best_response(model, baseline), baseline)["average"]
    assert analysis.win_rates(model, final, baseline)["average"] == pytest.approx(best, abs=1e-12)
    strategies = [p.functions[0] for p in edition.problems if p.functions and p.functions[0].endswith("_strategy")]
    for other in strategies:
        assert best >= analysis.win_rates(model, analysis.reference_table(edition, other), baseline)["average"]


def test_dice_module_behaves_as_documented():
    sys.path.insert(0, str(load_edition().solution_dir))
    try:
        import dice
    finally:
        sys.path.pop(0)
    test_dice = dice.make_test_dice(4, 1, 2)
    assert [test_dice() for _ in range(5)] == [4, 1, 2, 4, 1]
    random.seed(3)
    assert {dice.six_sided() for _ in range(500)} == set(range(1, 7))
    assert {dice.four_sided() for _ in range(300)} == set(range(1, 5))
    with pytest.raises(AssertionError):
        dice.make_test_dice()


@pytest.mark.parametrize("name", edition_names())
def test_interact_opens_a_session_and_carries_on_at_the_end_of_input(name):
    """ucb.interact, which the handouts suggest for debugging, runs: it reads the session from
    standard input (here empty, as Ctrl-D) and returns to the program."""
    folder = load_edition(name).solution_dir
    done = run_in(folder, "-c", "import ucb; x = 41; ucb.interact('here'); print('carried on')", stdin="x + 1\n")
    assert done.returncode == 0, done.stderr
    assert "carried on" in done.stdout and "42" in done.stdout
