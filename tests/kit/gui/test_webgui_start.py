"""Starting the page's server: which edition a folder is, refused folders and options, `hogkit play`,
and a released bundle's launcher."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from graders.core.errors import InputError
from graders.editions.edition import Edition
from graders.gui import webgui

from ..conftest import ROOT
from .pages import start, with_gui


def test_the_solution_and_skeleton_folders_find_their_edition(any_edition: Edition) -> None:
    for folder in (any_edition.solution_dir, any_edition.skeleton_dir):
        edition, kit = webgui.find_edition(folder)
        assert edition.name == any_edition.name and kit is not None and kit.root == ROOT


def test_a_folder_that_is_not_a_project_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(InputError, match="is not a project folder"):
        webgui.find_edition(tmp_path)
    assert webgui.main(tmp_path, ["--no-browser", "--port", "0"]) == 2
    assert "hog_gui.py from the folder that holds hog.py" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "needle"), [
    (["--port", "70000"], "--port must be from 0 to 65535"),
    (["--seed", "-1"], "--seed must be 0 or more"),
    (["--timeout", "0"], "--timeout must be more than 0"),
    (["--colour"], "unrecognized arguments"),
])
def test_bad_options_are_refused(argv: list[str], needle: str, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as info:
        webgui.parse_args(argv)
    assert info.value.code == 2 and needle in capsys.readouterr().err


def test_a_busy_port_says_so(edition: Edition, capsys: pytest.CaptureFixture) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert webgui.main(edition.solution_dir, ["--no-browser", "--port", str(port)]) == 2
    assert f"Port {port} is in use" in capsys.readouterr().err


def test_hog_gui_py_runs_from_a_released_bundle(tmp_path: Path, edition: Edition) -> None:
    """The student's own folder: nothing installed, no kit beside it, no meter, a working game."""
    from graders.authoring.bundle import release

    release(edition, tmp_path / "hog")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    proc, client = start(["hog_gui.py", "--seed", "2"], tmp_path / "hog", env)
    try:
        setup = client.get("/api/setup")[1]
        assert setup["meter"] is False and setup["error"] is None and setup["seed"] == 2
        status, view = client.post({"players": ["person", "person"], "moves": []})
        assert status == 200 and "ended the game at 0 to 0" in view["error"]["title"]  # the skeleton's play
        assert client.request("GET", "/static/hog.js")[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_hogkit_play_serves_any_submission_file(tmp_path: Path, edition: Edition, reference_source: str) -> None:
    """An instructor shows a student's strategy in lecture: a bare file, the kit's support files beside it."""
    entry = tmp_path / "alice.py"
    entry.write_text(reference_source.replace("def catch_up(", "def alice_strategy(score, opponent_score):\n"
                                              "    return 4\n\n\ndef catch_up(", 1), encoding="utf-8")
    proc, client = start(["-m", "graders.cli", "play", str(entry), "--seed", "5"], ROOT)
    try:
        setup = client.get("/api/setup")[1]
        assert "alice_strategy" in setup["strategies"] and setup["meter"] is True
        view = client.post({"players": ["alice_strategy", "final_strategy"]})[1]
        assert view["over"] and view["seed"] == 5 and all(t["dice"] == 4 for t in view["turns"] if t["who"] == 0)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_hogkit_play_serves_a_tactic_game(tmp_path: Path) -> None:
    """hogkit play serves pig's game: a bare pig.py with the kit's support files, its meter from the kit."""
    pig = with_gui("pig")
    entry = tmp_path / "bob.py"
    entry.write_text((pig.solution_dir / pig.submission).read_text(encoding="utf-8"), encoding="utf-8")
    proc, client = start(["-m", "graders.cli", "play", str(entry), "--edition", "pig", "--seed", "5"], ROOT)
    try:
        setup = client.get("/api/setup")[1]
        assert setup["move"] == {"kind": "actions", "actions": ["roll", "hold"]} and setup["submission"] == "pig.py"
        view = client.post({"players": ["person", "final_strategy"], "moves": [0, 0]})[1]
        assert view["error"] is None and view["seed"] == 5 and (view["waiting"] or view["over"])
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_hogkit_play_reads_a_submission_as_grading_does(tmp_path: Path, reference_source: str) -> None:
    """What grading accepts, play accepts (a zip of a project), and what grading refuses, play refuses."""
    archive = tmp_path / "alice.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("project/hog.py", reference_source)
    proc, client = start(["-m", "graders.cli", "play", str(archive), "--seed", "5"], ROOT)
    try:
        setup = client.get("/api/setup")[1]
        assert setup["error"] is None and "final_strategy" in setup["strategies"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    binary = tmp_path / "hog.py"
    binary.write_bytes(b"\x7fELF\x00\x01")
    done = subprocess.run([sys.executable, "-m", "graders.cli", "play", str(binary), "--no-browser"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Python refuses to read it" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("argv", "needle"), [
    (["/no/such/hog.py"], "no such file or folder"),
    (["README.md"], "not a Python file"),
    (["--edition", "nope"], "nope"),
    (["--port", "99999"], "--port must be from 0 to 65535"),
])
def test_hogkit_play_refuses_bad_input(argv: list[str], needle: str) -> None:
    done = subprocess.run([sys.executable, "-m", "graders.cli", "play", *argv, "--no-browser"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and needle in done.stderr
