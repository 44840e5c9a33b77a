"""The parent side of the sandbox: start a child per submission, time every step, kill on deadline.

Contract: :class:`Session` owns one child process (see :mod:`graders.child`) in its own process
group. Every request carries a deadline measured here, in the parent; when it passes, or when the
child dies (``sys.exit`` is caught in the child, ``os._exit`` and crashes are not), the whole
group is killed with SIGKILL and the step is reported as ``timeout`` or ``crashed``. The next
request starts a fresh child transparently. Replies are decoded into plain values of exact types;
nothing from the child is ever compared by the child itself.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from graders import messages, reaper

CHILD = Path(__file__).with_name("child.py")
PROBES = Path(__file__).with_name("probes.py")
MAX_FRAME = 8 * 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Hard limits applied inside the child before any student code runs."""

    cpu_seconds: int = 120
    memory_bytes: int = 1024 * 1024 * 1024
    file_bytes: int = 8 * 1024 * 1024
    processes: int = 64  # a per-user count, enforced for users other than root
    user: str = ""  # run student code as this user (the grader must be root); "" keeps the grader's user
    hide: tuple[str, ...] = ()  # folders the child must not see (the kit), covered when the grader is root
    import_seconds: float = 5.0  # for one top-level statement of the submission
    import_budget: float = 30.0  # for loading the submission, all attempts together
    most_skipped: int = 20  # top-level statements skipped before the submission counts as unloadable

    def as_dict(self) -> dict:
        """The limits the child applies to itself (the others are the parent's)."""
        own = ("cpu_seconds", "memory_bytes", "file_bytes", "processes")
        return {k: v for k, v in dataclasses.asdict(self).items() if k in own}


class LoadError(Exception):
    """The submission could not be loaded at all: every attempt hung or ended the program."""


class SandboxError(Exception):
    """The sandbox itself failed: the child died or went silent before any of the submission's code
    ran. Never the submission's fault, so never a grade (see :mod:`graders.grading`)."""


@dataclass
class StepReply:
    """What one step did, as plain data: ``status`` is ok, error, timeout or crashed."""

    status: str
    output: str = ""
    value: object = None
    value_kind: str = "none"  # none, plain, function, object
    value_note: str = ""
    error: dict | None = None
    truncated: bool = False
    seconds: float = 0.0


@dataclass
class ImportNote:
    line: int
    message: str
    traceback: str = ""


@dataclass
class Session:
    """One submission's child process, restarted as needed, with the submission's work folder."""

    submission: Path  # the (possibly repaired) submission file inside WORKDIR
    module: str
    workdir: Path
    limits: Limits = field(default_factory=Limits)
    notes: list[ImportNote] = field(default_factory=list)
    hidden: bool = False  # whether the child could cover the folders in ``limits.hide``
    _proc: subprocess.Popen | None = None
    _to_child: int = -1
    _from_child: int = -1
    _skip: set[int] = field(default_factory=set)
    _stmt_lines: dict[int, int] = field(default_factory=dict)
    _token: str = field(default_factory=lambda: secrets.token_hex(8))

    # -- life cycle -------------------------------------------------------------------------
    def start(self) -> None:
        """Start the child and import the submission, skipping statements that hang or exit.

        Raises :class:`SandboxError` when the child cannot even start (the kit's failure), and
        :class:`LoadError` after ``most_skipped`` skipped statements or ``import_budget`` seconds.
        """
        budget_ends = time.monotonic() + self.limits.import_budget
        while len(self._skip) <= self.limits.most_skipped and time.monotonic() < budget_ends:
            outcome = self._spawn_and_import()
            if outcome is None:
                return
            index, why = outcome
            self._skip.add(index)
            self.notes.append(ImportNote(self._stmt_lines.get(index, 0), why))
        self.close()
        raise LoadError(f"{len(self._skip)} top-level statements hung or ended the program")

    def _spawn_and_import(self) -> tuple[int, str] | None:
        self.close()
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        # The child runs from copies inside the private folder and learns its settings over the
        # pipe, so neither its own file nor its command line points back at the kit.
        runner = self.workdir / ".hogkit" / "child.py"
        if not runner.exists():
            runner.parent.mkdir(exist_ok=True)
            shutil.copyfile(CHILD, runner)
            shutil.copyfile(PROBES, runner.with_name("probes.py"))
        if self.limits.user:
            share_with_others(self.workdir)
        config = {
            "user": self.limits.user,
            "hide": list(self.limits.hide),
            "workdir": str(self.workdir),
            "submission": str(self.submission),
            "module": self.module,
            "probes": str(runner.with_name("probes.py")),
            "skip": sorted(self._skip),
            "limits": self.limits.as_dict(),
        }
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONHASHSEED": "0",
            "LANG": "C.UTF-8",
            reaper.TOKEN_NAME: self._token,
        }
        reaper.adopt_orphans()
        self._proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-B", str(runner), str(to_child_r), str(from_child_w)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(to_child_r, from_child_w),
            cwd=str(self.workdir),
            env=env,
            start_new_session=True,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._to_child, self._from_child = to_child_w, from_child_r
        self._send(config)
        deadline = time.monotonic() + self.limits.import_seconds
        current = -1
        while True:
            message = self._receive(deadline)
            if isinstance(message, str):  # "timeout" or "crashed"
                if current < 0:  # no statement of the submission had started: the kit failed
                    self.close()
                    raise SandboxError(messages.sandbox_did_not_start(message))
                what = "never finished" if message == "timeout" else "ended the program"
                return current, messages.skipped_statement(what)
            if message.get("op") == "stmt":
                current = int(message["i"])
                self._stmt_lines[current] = int(message.get("line", 0))
                deadline = time.monotonic() + self.limits.import_seconds
            elif message.get("op") == "ready":
                self.hidden = bool(message.get("hidden"))
                for n in message.get("notes", []):
                    err = n.get("error", {}) if isinstance(n.get("error"), dict) else {}
                    self.notes.append(ImportNote(int(n.get("line", 0)), describe_load_error(err),
                                                 str(err.get("traceback", ""))))
                return None

    def _restart(self) -> None:
        """A fresh child after a timeout or crash; the import notes are already known."""
        notes = list(self.notes)
        self.start()
        self.notes = notes

    def close(self) -> None:
        if self._proc is not None:
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self._proc.wait()
            self._proc = None
            reaper.kill_strays(self._token)  # descendants that left the process group
        for fd in (self._to_child, self._from_child):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._to_child = self._from_child = -1

    def dispose(self) -> None:
        """Stop the child and delete the private folder."""
        self.close()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> Session:
        try:
            self.start()
        except BaseException:
            self.dispose()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.dispose()

    # -- requests ---------------------------------------------------------------------------
    def steps(self, sources: list[str], setup: str, deadline: float) -> Iterator[StepReply]:
        """Run SOURCES as one case (fresh namespace, SETUP first), yielding each step's reply as it
        comes; every step together must finish by DEADLINE. Stopping early is safe: the child is
        then stopped, so no stale reply is left for the next case."""
        if self._proc is None:
            try:
                self._restart()
            except LoadError:
                yield StepReply("crashed")
                return
        try:
            self._send({"op": "case", "steps": sources, "setup": setup})
        except OSError:
            self.close()
            yield StepReply("crashed")
            return
        finished = False
        try:
            for _ in sources:
                started = time.monotonic()
                message = self._receive(deadline)
                if isinstance(message, str):
                    self.close()
                    yield StepReply(message, seconds=time.monotonic() - started)
                    return
                yield decode_reply(message, time.monotonic() - started)
            done = self._receive(deadline)
            if isinstance(done, str) or done.get("op") != "done":
                self.close()
            finished = True
        finally:
            if not finished and self._proc is not None:
                self.drain(deadline)

    def drain(self, deadline: float) -> None:
        """Read and drop the replies of the case in progress, up to its "done"; stop the child if
        it does not get there by DEADLINE."""
        while True:
            message = self._receive(deadline)
            if isinstance(message, str):
                self.close()
                return
            if message.get("op") == "done":
                return

    def _send(self, message: dict) -> None:
        data = json.dumps(message).encode("utf-8")
        frame = len(data).to_bytes(4, "big") + data
        while frame:
            frame = frame[os.write(self._to_child, frame):]

    def _receive(self, deadline: float) -> dict | str:
        """The next frame, or "timeout" / "crashed". Never blocks past DEADLINE."""
        header = self._read_exact(4, deadline)
        if isinstance(header, str):
            return header
        size = int.from_bytes(header, "big")
        if size > MAX_FRAME:
            return "crashed"
        body = self._read_exact(size, deadline)
        if isinstance(body, str):
            return body
        try:
            message = json.loads(body.decode("utf-8"))
        except ValueError:
            return "crashed"
        return message if isinstance(message, dict) else "crashed"

    def _read_exact(self, n: int, deadline: float) -> bytes | str:
        chunks: list[bytes] = []
        got = 0
        while got < n:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return "timeout"
            if not wait_readable(self._from_child, remaining):
                return "timeout"
            chunk = os.read(self._from_child, n - got)
            if not chunk:
                return "crashed"
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)


def wait_readable(fd: int, seconds: float) -> bool:
    """Whether FD has something to read (or was closed) within SECONDS. ``poll`` where there is one:
    ``select`` refuses descriptors numbered 1024 or more, which a grader with many children reaches."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(max(0, int(seconds * 1000) + 1)))
    ready, _, _ = select.select([fd], [], [], seconds)
    return bool(ready)


def decode_value(data: object) -> tuple[str, object, str]:
    """(kind, value, note) from the child's tagged data; unknown shapes are 'object'."""
    if not isinstance(data, dict):
        return "none", None, ""
    t = data.get("t")
    if t == "none":
        return "none", None, ""
    if t == "bool" and type(data.get("v")) is bool:
        return "plain", data["v"], ""
    if t == "int" and type(data.get("v")) is int:
        return "plain", data["v"], ""
    if t == "float" and type(data.get("v")) is str:
        try:
            return "plain", float(data["v"]), ""
        except ValueError:
            return "object", None, "float"
    if t == "str" and type(data.get("v")) is str:
        if data.get("cut"):
            return "object", None, f"str ({messages.value_note('long')})"
        return "plain", data["v"], ""
    if t in ("tuple", "list") and isinstance(data.get("v"), list):
        items = []
        for item in data["v"]:
            kind, value, note = decode_value(item)
            if kind != "plain" and kind != "none":
                return "object", None, f"a {t} holding a {note or kind}"
            items.append(value)
        if data.get("cut"):
            return "object", None, f"{t} ({messages.value_note('long')})"
        return "plain", (tuple(items) if t == "tuple" else items), ""
    if t == "function":
        return "function", None, str(data.get("name", "?"))[:80]
    note = f" ({messages.value_note(str(data['note']))})" if data.get("note") else ""
    return "object", None, str(data.get("type", "?"))[:80] + note


def describe_load_error(err: dict) -> str:
    """One line for an error raised by a top-level statement while the submission loaded."""
    kind = str(err.get("type", "Error"))
    raw = err.get("message")
    detail = (raw if isinstance(raw, str) else messages.value_note("no_message")).strip()
    if kind == "SystemExit":
        return messages.exited_while_loading("sys.exit", detail)
    return f"{kind}: {detail}" if detail else kind


def decode_reply(message: dict, elapsed: float) -> StepReply:
    kind, value, note = decode_value(message.get("value"))
    error = message.get("error")
    if error is not None and not isinstance(error, dict):
        error = {"type": "Error", "message": str(error)[:200], "traceback": ""}
    if error is not None and not isinstance(error.get("message"), str):
        error["message"] = messages.value_note("no_message")
    output = message.get("output", "")
    return StepReply(
        status="error" if error else "ok",
        output=output if isinstance(output, str) else "",
        value=value,
        value_kind=kind,
        value_note=note,
        error=error,
        truncated=bool(message.get("truncated")),
        seconds=elapsed,
    )


def share_with_others(folder: Path) -> None:
    """Let another user read FOLDER (and its files) and nothing more: it is the child's working folder."""
    folder.chmod(0o755)
    for path in folder.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)


# PEP 263's coding line, on one of the first two lines of a file.
_CODING = re.compile(r"^([ \t\f]*#.*?coding[:=][ \t]*)([-\w.]+)", re.ASCII)


def as_utf8_file(source: str) -> str:
    """SOURCE as it is written to disk in UTF-8: a coding line naming another encoding names
    UTF-8 instead, so that Python and its tracebacks read the copy as it is written."""
    lines = source.split("\n", 2)
    for k, line in enumerate(lines[:2]):
        match = _CODING.match(line)
        if match:
            lines[k] = match.group(1) + "utf-8" + line[match.end():]
            break
        if line.strip() and not line.lstrip().startswith("#"):
            break  # the coding line must come before any code
    return "\n".join(lines)


def prepare_workdir(submission_source: str, filename: str, support: list[Path]) -> tuple[Path, Path]:
    """An empty private folder holding the submission and the kit's own support files."""
    workdir = Path(tempfile.mkdtemp(prefix="hogkit-"))
    try:
        for f in support:
            shutil.copyfile(f, workdir / f.name)
        target = workdir / filename
        target.write_text(as_utf8_file(submission_source), encoding="utf-8")
    except BaseException:
        shutil.rmtree(workdir, ignore_errors=True)  # a full disk, a missing kit file: nothing left behind
        raise
    return workdir, target
