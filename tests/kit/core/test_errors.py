"""One error family: every exception the kit defines is a HogkitError whose kind decides the exit
status, the commands catch the base class alone, and EditionError means an edition's data."""

from __future__ import annotations

import ast
import inspect

import pytest

from graders.cli import main as hogkit
from graders.cli import messages as cli_messages
from graders.core import errors
from graders.core.errors import EditionError, HogkitError, InputError, KitFailure
from graders.games import messages as games_messages

from .. import scanner

# Exceptions the engine defines that are not failures the kit reports: each says why.
NOT_REPORTED = {
    "NotAFile": "an OSError carrying why a class folder's entry was not opened; it becomes a status, never escapes",
    "CaseFailure": "pytest's way of showing a failed case in the bundle's pytest route",
    "_Stop": "control flow inside the child: the browser game's replay stops where the person must move",
    "_TimeUp": "control flow inside the child: the game's own alarm names the function still running",
    "OverBudget": "control flow of an analysis of a hand-in: it becomes that hand-in's labelled result",
    "Closed": "control flow at the process's end: a thread still grading makes no scratch folder after it",
}
# The modules that read an edition's data (manifests, case files, the [gui] table, students' copies).
# mutants.toml and case specs (checks.py) are edition data too.
EDITION_DATA = {"editions/edition.py", "editions/cases.py", "gui/gamelog.py", "core/tables.py",
                "authoring/templates.py", "authoring/mutants.py", "scoring/checks.py", "games/kinds.py"}


def _trees() -> dict[str, ast.Module]:
    """{module's file under graders/ ("core/errors.py"): its tree}, as the shared scanner parsed them."""
    return {f"{m.name}.py": m.tree for m in scanner.modules()}


def test_every_exception_the_engine_defines_belongs_to_the_family():
    defined = {}
    for name, tree in _trees().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(b, ast.Name) and (b.id.endswith(("Error", "Exception", "Failure")))
                    for b in node.bases):
                defined[node.name] = name
    assert defined, "the scan found no exception classes at all"
    outside = {c: where for c, where in defined.items() if c not in NOT_REPORTED
               and not (hasattr(errors, c) and issubclass(getattr(errors, c), HogkitError))}
    assert outside == {}, "define these in graders/core/errors.py as kinds of HogkitError"
    # And every kind lives in errors.py once: no module defines its own copy.
    assert {where for c, where in defined.items() if c not in NOT_REPORTED} == {"core/errors.py"}


def test_each_kind_says_how_a_command_ends():
    kinds = [c for _, c in inspect.getmembers(errors, inspect.isclass) if issubclass(c, HogkitError)]
    assert len(kinds) >= 10
    statuses = {c.__name__: c.exit_status for c in kinds}
    kits = ("KitFailure", "SandboxError", "MutantError", "IsolationRefused")
    assert {statuses[name] for name in kits} == {errors.KIT_STATUS} == {3}
    assert {s for name, s in statuses.items() if name not in kits} == {2}


def test_edition_error_is_raised_only_where_edition_data_is_read():
    raised = set()
    for name, tree in _trees().items():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and isinstance(node.exc.func, ast.Name) and node.exc.func.id == "EditionError"):
                raised.add(name)
    assert raised and raised <= EDITION_DATA, sorted(raised - EDITION_DATA)


@pytest.mark.parametrize("module", ["cli/__init__.py", "runner/student.py", "gui/webgui.py"])
def test_each_entry_point_catches_the_base_class_not_a_list_of_kinds(module):
    tree = scanner.module(module.removesuffix(".py")).tree
    caught = [ast.unparse(h.type) for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler) and h.type is not None]
    assert "HogkitError" in caught
    for text in caught:  # a tuple of the kit's own kinds is what the base class replaces
        names = [n.strip() for n in text.strip("()").split(",")]
        assert sum(hasattr(errors, n) for n in names) <= 1, text


def test_an_error_of_any_kind_ends_the_command_with_its_own_status(monkeypatch, capsys):
    from graders import cli

    for error, status in ((InputError("bad input"), 2), (EditionError("bad file"), 2),
                          (KitFailure("the kit failed", "Traceback: ..."), 3)):
        def fail(args, error=error):
            raise error
        monkeypatch.setitem(cli.COMMANDS, "editions", fail)
        assert hogkit(["editions"]) == status
        err = capsys.readouterr().err
        assert err.startswith("hogkit: ") and str(error) in err
        assert ("Traceback: ..." in err) == (status == 3)  # the details of a kit failure are shown


def test_a_bad_strategy_expression_is_refused_in_one_line_naming_it(capsys):
    assert hogkit(["optimal", "--against", "nope(3)"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "hogkit: " + games_messages.reference_strategy_failed(
        "nope(3)", "boar_brawl", "NameError: name 'nope' is not defined")
    assert hogkit(["optimal", "--against", "lambda score, opponent: 11"]) == 2
    assert "returned 11" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["0", "-3", "two", "1.5"])
def test_jobs_is_validated_by_the_option_parser(bad, capsys):
    for command in (["grade", ".", "--out", "x"], ["contest", ".", "--out", "x"]):
        with pytest.raises(SystemExit) as ended:
            hogkit([*command, "--jobs", bad])
        assert ended.value.code == 2
        err = capsys.readouterr().err
        assert cli_messages.jobs_expected(bad) in err and f"usage: hogkit {command[0]}" in err
