"""The Slurm script of docs/instructors.md ("On Slurm"), run word for word on a real scheduler: a
one-node Slurm cluster started here from Debian's packages (slurmctld, slurmd, munge; sbatch,
scontrol and sinfo from slurm-client: .ci/run installs them). The page's first ``bash`` block is
written to ``grade.sbatch`` and its second is run with bash, from a folder holding a class of 200 in
``class/``: a job array of four shards, then the merge as a job that depends on it. The merge's files
are those of one plain ``hogkit grade class --out single`` run, byte for byte apart from times.

Where the cluster cannot be had (not root, Slurm or munge not installed, the daemons not up in time)
the test is skipped, saying why; under CI, which installs them and runs as root, that is a failure.

It runs in a step of its own (``HOGKIT_SLURM=1``, as ``.ci/run`` sets it), not in the README's test
command: grading a class of 200 twice costs about 2.5 minutes of 2 cores (0.8 s of processor time a
submission, measured), which the command's 10 minutes do not hold; the command says so as it skips."""

from __future__ import annotations

import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

from ..docblocks import blocks, everywhere, page, section
from ..similarity_corpus import course_class
from .test_shards import same_as_single

NEEDED = ("slurmctld", "slurmd", "sbatch", "scontrol", "sinfo", "squeue", "scancel", "munged", "munge", "runuser")
SEARCHED = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
UP_WITHIN = 60.0  # seconds for the daemons to start and the node to say it is idle
GRADED_WITHIN = 1200.0  # seconds for the four shards and the merge, on a busy machine
OWN_STEP = "HOGKIT_SLURM"  # set to 1 to run the cluster's test (CI's own step)
UNFINISHED = {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING"}


@dataclass(frozen=True)
class Cluster:
    env: dict[str, str]  # the environment that reaches it: SLURM_CONF, and hogkit and Slurm's commands on PATH
    folder: Path  # its configuration, state and logs
    started_in: float  # seconds, from nothing to an idle node


def cannot_run(why: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(f"CI installs Slurm and runs as root, so the Slurm test must run there: {why}")
    pytest.skip(why)


def slurm_script() -> tuple[str, str]:
    """The page's Slurm blocks: the batch script, and the commands that submit it and the merge."""
    script, submit = blocks(section(page("instructors.md"), "### On Slurm"), "bash")
    return script, submit


def test_the_docs_bash_blocks_are_the_slurm_script_run_here() -> None:
    """Every ``bash`` block of the README and docs/ is one of the two the slow test below runs."""
    script, submit = slurm_script()
    assert everywhere("bash") == 2
    assert script.startswith("#!/bin/bash\n#SBATCH") and "--shard \"$SLURM_ARRAY_TASK_ID/" in script
    assert submit.startswith("jid=$(sbatch --parsable grade.sbatch)\n") and "afterany:$jid" in submit


def free_ports(count: int) -> list[int]:
    """COUNT distinct TCP ports free on this machine now."""
    held = [socket.socket() for _ in range(count)]
    try:
        for s in held:
            s.bind(("", 0))
        return [s.getsockname()[1] for s in held]
    finally:
        for s in held:
            s.close()


def configuration(folder: Path, host: str) -> str:
    """A one-node cluster of HOST, its state in FOLDER, on ports free now (its daemons, run in the
    foreground, log to their standard output)."""
    ctld, node = free_ports(2)
    return "\n".join([
        "ClusterName=hogkit", f"SlurmctldHost={host}(127.0.0.1)", "SlurmUser=root", "AuthType=auth/munge",
        "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none", f"SlurmctldPort={ctld}", f"SlurmdPort={node}",
        f"StateSaveLocation={folder / 'state'}", f"SlurmdSpoolDir={folder / 'spool'}",
        f"SlurmctldPidFile={folder / 'slurmctld.pid'}", f"SlurmdPidFile={folder / 'slurmd.pid'}",
        "ReturnToService=2", f"NodeName={host} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN",
        "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP", ""])


def munge_answers() -> bool:
    return subprocess.run(["munge", "-n"], capture_output=True).returncode == 0


def start_munged() -> int | None:
    """Start munge's daemon, which Slurm's daemons and commands authenticate with, unless one runs:
    the id of the daemon started, or None."""
    if munge_answers():
        return None
    if not Path("/etc/munge/munge.key").exists():
        subprocess.run(["runuser", "-u", "munge", "--", "mungekey", "--create"], check=True, capture_output=True)
    Path("/run/munge").mkdir(exist_ok=True)
    shutil.chown("/run/munge", "munge", "munge")
    started = subprocess.run(["runuser", "-u", "munge", "--", "munged"], capture_output=True, text=True)
    deadline = time.monotonic() + 10
    while not munge_answers():
        if started.returncode != 0 or time.monotonic() > deadline:
            cannot_run(f"munged did not start (status {started.returncode}): {started.stderr[-500:]}")
        time.sleep(0.1)
    return int(Path("/run/munge/munged.pid").read_text())


def idle(env: dict[str, str]) -> bool:
    said = subprocess.run(["sinfo", "--noheader", "--Node", "--format=%T"], env=env, capture_output=True, text=True)
    return said.stdout.strip() == "idle"


def tails(folder: Path, *names: str) -> str:
    return "\n".join(f"--- the end of {name}:\n{(folder / name).read_text(errors='replace')[-1500:]}"
                     for name in names if (folder / name).exists())


def stop(daemons: list[subprocess.Popen[bytes]], env: dict[str, str]) -> None:
    """Cancel what is left of the cluster's jobs, then stop its daemons, the node first."""
    if daemons:
        subprocess.run(["scancel", f"--user={pwd.getpwuid(os.geteuid()).pw_name}"], env=env, capture_output=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and subprocess.run(
                ["squeue", "--noheader"], env=env, capture_output=True, text=True).stdout.strip():
            time.sleep(0.5)
    for daemon in reversed(daemons):
        daemon.send_signal(signal.SIGTERM)
        try:
            daemon.wait(timeout=30)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()


@pytest.fixture(scope="module")
def slurm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A one-node Slurm cluster of this machine, for this module; munged too, unless one runs."""
    if os.environ.get(OWN_STEP) != "1":
        pytest.skip(f"the Slurm cluster's test runs in a step of its own ({OWN_STEP}=1 python3 -m pytest "
                    "tests/kit/courses/test_slurm.py, as .ci/run does): grading a class of 200 twice would take "
                    "about 2.5 of the test command's 10 minutes on 2 cores")
    if os.geteuid() != 0:
        pytest.skip("Slurm's daemons are started here as root: run the test as root (CI does)")
    missing = [name for name in NEEDED if shutil.which(name, path=SEARCHED) is None]
    if missing:
        cannot_run(f"not installed: {', '.join(missing)} (apt-get install slurmctld slurmd munge slurm-client)")
    folder = tmp_path_factory.mktemp("slurm")
    (folder / "slurm.conf").write_text(configuration(folder, socket.gethostname().split(".")[0]), encoding="utf-8")
    env = {**os.environ, "SLURM_CONF": str(folder / "slurm.conf"), "PATH": SEARCHED}
    began = time.monotonic()
    munged = start_munged()
    daemons: list[subprocess.Popen[bytes]] = []
    try:
        for name in ("slurmctld", "slurmd"):
            with open(folder / f"{name}.out", "wb") as out:  # its log
                daemons.append(subprocess.Popen([name, "-D"], env=env, stdout=out, stderr=subprocess.STDOUT))
        while not idle(env):
            if time.monotonic() - began > UP_WITHIN or any(d.poll() is not None for d in daemons):
                cannot_run(f"the cluster's node was not idle within {UP_WITHIN:.0f} s:\n"
                           + tails(folder, "slurmctld.out", "slurmd.out"))
            time.sleep(0.2)
        yield Cluster(env, folder, time.monotonic() - began)
    finally:
        stop(daemons, env)
        if munged is not None:
            os.kill(munged, signal.SIGTERM)


def job_state(env: dict[str, str], job: str) -> dict[str, str]:
    """JOB's fields as ``scontrol show job`` says them (JobState, ExitCode...)."""
    said = subprocess.run(["scontrol", "--oneliner", "show", "job", job], env=env, capture_output=True, text=True)
    return dict(re.findall(r"(\w+)=(\S*)", said.stdout))


def finished(env: dict[str, str], job: str) -> dict[str, str]:
    """JOB's fields once it has ended (or GRADED_WITHIN has passed)."""
    deadline = time.monotonic() + GRADED_WITHIN
    while (state := job_state(env, job)).get("JobState") in UNFINISHED and time.monotonic() < deadline:
        time.sleep(1)
    return state


@pytest.mark.slow
@pytest.mark.timeout(2400)
def test_the_docs_slurm_script_grades_a_class_in_shards_as_one_run_does(slurm: Cluster, tmp_path: Path) -> None:
    script, submit = slurm_script()
    course_class(tmp_path / "class", 200)
    (tmp_path / "grade.sbatch").write_text(script, encoding="utf-8")
    began = time.monotonic()
    done = subprocess.run(["bash", "-c", submit], cwd=tmp_path, env=slurm.env, capture_output=True, text=True,
                          timeout=120)
    merge = re.fullmatch(r"Submitted batch job (\d+)\n", done.stdout)
    assert done.returncode == 0 and merge is not None, done.stdout + done.stderr
    state = finished(slurm.env, merge.group(1))
    sharded = time.monotonic() - began
    said = {path.name: path.read_text(errors="replace") for path in sorted(tmp_path.glob("slurm-*.out"))}
    assert (state.get("JobState"), state.get("ExitCode")) == ("COMPLETED", "0:0"), (state, said)
    shards = re.findall(r"^Shard (\d+)/(\d+): graded (\d+) of its \3 submissions", "".join(said.values()), re.M)
    assert sorted((k, n) for k, n, _graded in shards) == [(str(k), "4") for k in range(1, 5)], said
    assert sum(int(graded) for *_shard, graded in shards) == 200
    assert len([name for name in said if "_" in name]) == 4  # each task of the array: slurm-JOB_K.out
    assert "Merged 200 submissions from 4 shards" in said[f"slurm-{merge.group(1)}.out"]
    began = time.monotonic()
    single = subprocess.run(["hogkit", "grade", "class", "--out", "single"], cwd=tmp_path, env=slurm.env,
                            capture_output=True, text=True, timeout=900)
    alone = time.monotonic() - began
    assert single.returncode == 0, single.stderr[-2000:]
    same_as_single(tmp_path / "single", tmp_path / "grades")
    assert len((tmp_path / "grades" / "grades.csv").read_text(encoding="utf-8").splitlines()) == 1 + 200
    print(f"Slurm: the cluster up in {slurm.started_in:.1f} s, four shards and the merge in {sharded:.1f} s;"
          f" one run in {alone:.1f} s")
