"""An installed kit finds its editions anywhere: a wheel carries the repository's data in the
package (graders/_kit, mapped by setup.py), and kit_root falls back to it where no checkout, no
$HOGKIT_ROOT and no kit in the current folder is found; that data is never taken for engine code.
(.ci/run builds the sdist and the wheel, installs the wheel and runs the kit from an empty folder.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from graders.editions import edition
from graders.editions.edition import EditionError, engine_modules, kit_root


def fake_install(tmp_path: Path, with_data: bool) -> Path:
    """site-packages/graders/editions/edition.py, with the wheel's data beside it or not."""
    package = tmp_path / "site-packages" / "graders"
    (package / "editions").mkdir(parents=True)
    (package / "editions" / "edition.py").write_text("", encoding="utf-8")
    if with_data:
        (package / "_kit" / "tests" / "editions" / "boar_brawl").mkdir(parents=True)
    return package


@pytest.mark.parametrize("with_data", [True, False])
def test_an_installed_kit_finds_the_data_its_wheel_carries(tmp_path, monkeypatch, with_data):
    package = fake_install(tmp_path, with_data)
    monkeypatch.delenv("HOGKIT_ROOT", raising=False)
    monkeypatch.setattr(edition, "__file__", str(package / "editions" / "edition.py"))
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)
    if with_data:
        assert kit_root() == package / "_kit"
    else:
        with pytest.raises(EditionError, match="cannot find the kit's editions"):
            kit_root()


def test_the_wheels_data_is_never_engine_code(tmp_path):
    package = fake_install(tmp_path, True)
    (package / "cli.py").write_text("", encoding="utf-8")
    (package / "_kit" / "solution").mkdir()
    (package / "_kit" / "solution" / "hog.py").write_text("def boar_brawl(): ...\n", encoding="utf-8")
    assert [p.relative_to(package).as_posix() for p in engine_modules(package)] == ["cli.py", "editions/edition.py"]


def test_setup_maps_every_folder_an_edition_needs():
    tree = ast.parse((Path(__file__).resolve().parents[3] / "setup.py").read_text(encoding="utf-8"))
    data = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                and any(getattr(t, "id", "") == "DATA" for t in node.targets))
    assert set(ast.literal_eval(data)) == {"tests/editions", "solution", "skeleton", "handouts"}
