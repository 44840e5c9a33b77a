"""The parent side of the sandbox: start a child per submission, time every step, kill on deadline.

Contract: :class:`Session` owns one child process (see :mod:`graders.sandboxing.child`), started under the
machine's isolation policy (:mod:`graders.sandboxing.isolation`): the caller never chooses it. Every request
carries a deadline measured here, in the parent, that nothing the child sends can extend; when it
passes, or when the child dies (``sys.exit`` is caught in the child, ``os._exit`` and crashes are
not), or when all the child's processes together hold more memory than the limit, every process
of the child is killed and the step is reported as ``timeout``, ``crashed`` or ``memory``. The next
request starts a fresh child transparently, from fresh copies of the runner.

A run that is stopping (Ctrl-C on a class) calls :func:`graders.sandboxing.children.halt_children`:
every live child's process group is killed at once from here, and no child starts again
(:class:`~graders.sandboxing.children.Halted`, a KeyboardInterrupt, rises in the thread that asks)
until ``resume_children``. Staging and runner folders are
scratch folders (:mod:`graders.core.scratch`): a session deletes its own when disposed, and none
outlives the process, however it stops.

The parent trusts nothing it reads: frames are size-capped and depth-capped, replies carry the
number of the request they answer (anything else is dropped), and every value, text and error is
decoded into plain data of exact types, clipped, with surrogates replaced. Nothing from the child
is ever compared by the child itself (:mod:`graders.sandboxing.replies`). A case left early, its
verdict known, gets DRAIN_PATIENCE to finish before its child is stopped. The kit's answers worked
out beforehand are kept in :mod:`graders.sandboxing.answers`.
"""

from __future__ import annotations

import ast
import base64
import dataclasses
import json
import os
import re
import secrets
import shutil
import subprocess
import time
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from graders.core import messages, scratch
from graders.core.errors import LoadError, SandboxError
from graders.editions.edition import Edition, course_secrets
from graders.editions.onefunction import KitFunctions
from graders.sandboxing import answers, children, forkserver, isolation, reaper
from graders.sandboxing import messages as sandboxing_messages
from graders.sandboxing.answers import HEAVY_SECONDS, seed_answers
from graders.sandboxing.bytecode import compiled, runner_files
from graders.sandboxing.children import pair_cpu, tree_memory
from graders.sandboxing.reaper import process_tree, wait_readable
from graders.sandboxing.repairs import Removal, repair
from graders.sandboxing.replies import (
    ImportNote,
    StepReply,
    as_int,
    decode_reply,
    import_notes,
    shown,
)

KIT = Path(__file__).resolve().parents[2]  # covered from the child where namespaces are missing
MAX_FRAME = 1024 * 1024  # the child clips its own replies far below this; a bigger frame is forged
READ_BYTES = 64 * 1024  # asked of the pipe at a time; what is left after a frame waits for the next
WATCH_SECONDS = 0.25  # how often the memory of all the child's processes is checked while it runs
LINK_GRACE = 3.0  # see Session._graced
# How long the rest of a case left early (its verdict known) may take before its child is stopped
# rather than waited for: the next case then starts a fresh child, which costs less than waiting out
# steps that loop or fill memory until the case's own deadline.
DRAIN_PATIENCE = 0.1


@dataclass(frozen=True)
class Limits:
    """Limits for one submission: the first four apply inside the child before any student code runs."""

    cpu_seconds: int = 120  # for each of its processes
    memory_bytes: int = 1024 * 1024 * 1024  # for each process, and for all of them together
    file_bytes: int = 8 * 1024 * 1024
    processes: int = 32  # counted per submission where a user id or user namespace is its own
    import_seconds: float = 5.0  # for one top-level statement of the submission
    import_budget: float = 30.0  # for loading the submission, all attempts together
    most_skipped: int = 20  # top-level statements skipped before the submission counts as unloadable

    def as_dict(self) -> dict:
        """The limits the child applies to itself (the others are the parent's)."""
        own = ("cpu_seconds", "memory_bytes", "file_bytes", "processes")
        return {k: v for k, v in dataclasses.asdict(self).items() if k in own}


@dataclass
class Session:
    """One submission's child process, restarted as needed, with the submission's staging folder."""

    submission: Path  # the (possibly repaired) submission file inside WORKDIR
    module: str
    workdir: Path  # the staging folder the parent wrote: the submission and the kit's support files
    limits: Limits = field(default_factory=Limits)
    dice: tuple[int, int] = (0, 10)  # the fewest and most dice a strategy may choose ([game] dice): the probes' range
    notes: list[ImportNote] = field(default_factory=list)
    _proc: subprocess.Popen | forkserver.ForkedChild | None = None
    _to_child: int = -1
    _from_child: int = -1
    _skipped: dict[int, ImportNote] = field(default_factory=dict)  # {top-level statement left out: its note}
    _stmt_lines: dict[int, int] = field(default_factory=dict)
    _token: str = field(default_factory=lambda: secrets.token_hex(8))
    _seq: int = 0  # the number of the latest request; a reply to any other is stale
    _pending: bytearray = field(default_factory=bytearray)  # read from the child, not yet taken as a frame
    _runner: Path | None = None  # a folder of the parent's holding fresh copies of the runner
    _identity: tuple[int, int] | None = None  # (uid, gid) of this session's children, when the grader is root
    probe: dict | None = None  # what a verifying child checks ({"secrets": [...], "listener": port})
    reach: dict | None = None  # what the latest child found it could do (see graders.sandboxing.child.verify_reach)
    _cgroup: str = ""  # the memory cgroup of the current child, where one can be had
    load_seconds: float = 0.0  # spent in the submission's own statements while loading, every attempt together
    kit: KitFunctions | None = None  # the kit's functions this child's stubs call (served by _kit_child)
    serve: KitFunctions | None = None  # set in the kit's own child: the module it loads and serves
    _kit_child: Session | None = None  # the kit's own child, started at the first call of a stub
    _link: tuple[int, int] | None = None  # this child's ends of its link (to read, to write), until it starts
    _kit_ends: tuple[int, int] | None = None  # the kit's child's ends of that link, until it starts
    record: bool = False  # (the kit's own child serving SERVE) run cases on it, keeping its answers
    prepared: Mapping[tuple[str, tuple[str, ...]], dict] = field(default_factory=dict)  # see kit_answers
    answers: dict = field(default_factory=dict)  # what recording the latest case kept
    _told_to: object = None  # the child process that holds the answers of _told (see steps)
    _told: set[str] = field(default_factory=set)  # the keys of the prepared answers sent to it
    _asked: tuple[float, float] | None = None  # (when the latest case was asked for, the processor time used by then)
    _pids: dict[int, list[int]] = field(default_factory=dict)  # {a child's pid: its processes when first looked at}
    cpu: int | None = None  # the one processor this child and the kit's child it calls run on (see pair_cpu)

    # -- life cycle -------------------------------------------------------------------------
    def start(self, deadline: float = float("inf")) -> None:
        """Start the child and import the submission, skipping statements that hang or exit.

        Raises :class:`SandboxError` when the child cannot even start (the kit's failure), and
        :class:`LoadError` after ``most_skipped`` skipped statements, or when ``import_budget``
        seconds (or DEADLINE) have passed: the budget holds within an attempt too, since no wait
        for the child, its start included, lasts past it.
        """
        budget_ends = min(time.monotonic() + self.limits.import_budget, deadline)
        while len(self._skipped) <= self.limits.most_skipped and time.monotonic() < budget_ends:
            outcome = self._spawn_and_import(budget_ends)
            if outcome is None:
                return
            index, why = outcome
            self.skip(index, ImportNote(self._stmt_lines.get(index, 0), why))
        self.close()
        raise LoadError(sandboxing_messages.load_hung(len(self._skipped)))

    def skip(self, index: int, note: ImportNote) -> None:
        """Leave the top-level statement INDEX out of every start from now on, saying so with NOTE
        (found here, or by another child of the same grade: see graders.scoring.grading.KnownSkips)."""
        if index not in self._skipped:
            self._skipped[index] = note
            self.notes.append(note)

    def skipped(self) -> dict[int, ImportNote]:
        """{statement index: its note} for every top-level statement this session leaves out."""
        return dict(self._skipped)

    def _spawn_and_import(self, budget_ends: float) -> tuple[int, str] | None:
        self.close()
        children.check_running()
        policy = isolation.policy()
        forked = forkserver.usable()
        runner = Path(isolation.RUNNER) if forked else self._fresh_runner()  # (the fork server holds the runner)
        if self._identity is None:
            self._identity = policy.identity()
        work, runner_seen = policy.paths(runner, self.workdir)
        self._prepare_stage(policy)
        # Settings travel over the pipe, so neither the child's command line nor its files point at the kit.
        config: dict[str, object] = {
            "identity": list(self._identity) if self._identity else None,
            "hide": [str(KIT), *map(str, course_secrets())] if policy.level == isolation.LIMITS and policy.root else [],
            "interpreter": [policy.python_home, str(runner / "python")],  # (where a hidden-away Python is shown)
            "workdir": work,
            "submission": f"{work}/{self.submission.name}",
            "module": self.module,
            "dice": list(self.dice),
            "probes": f"{runner_seen}/probes.pyc",
            "skip": sorted(self._skipped),
            "limits": self.limits.as_dict(),
            "confine": isolation.confinement(policy, work, runner_seen, self._private_tmp(policy)),
            "verify": self.probe or {"secrets": list(isolation.demanded(policy))},
        }
        config["words"] = {kind: sandboxing_messages.link_refusal(kind)  # (the child imports no sentence of the
                           for kind in sandboxing_messages.LINK_REFUSALS}  # kit's)
        if self.kit is not None and self.cpu is None:
            self.cpu = pair_cpu()
        if self.cpu is not None:
            config["cpu"] = self.cpu
        if self.kit is not None:
            config["kit"] = {"offered": list(self.kit.offered), "proxied": list(self.kit.proxied),
                             "support": [name for name, _ in self.kit.modules]}  # (dice cross by value)
            self._open_link()
        config["link"] = list(self._link) if self._link else None
        if self.serve is not None:  # the module travels over the pipe, never through a file
            config["serve"] = {"source": self.serve.source, "offered": list(self.serve.offered),
                               "proxied": list(self.serve.proxied), "modules": dict(self.serve.modules),
                               "record": self.record}
        reaper.adopt_orphans()
        self._cgroup = isolation.make_memory_cgroup(f"hogkit-{self._token}", self.limits.memory_bytes)
        if forked and not self._fork(config):
            runner = self._fresh_runner()  # the fork server failed to start here: one bubblewrap per child
            forked = False
        if not forked:
            self._start_child(policy, runner, config)
        try:
            self._send(config)
        except OSError:  # it ended before it read its settings (a broken pipe): the kit failed
            self.close()
            raise SandboxError(sandboxing_messages.sandbox_did_not_start("crashed")) from None
        return self._await_import(budget_ends)

    def _open_link(self) -> None:
        """New pipes between this child and the kit's own child (started at the first call): this
        child's ends, and the kit's child's, which this process keeps until then."""
        self._close_kit_ends()
        call_r, call_w = os.pipe()
        answer_r, answer_w = os.pipe()
        self._link, self._kit_ends = (answer_r, call_w), (call_r, answer_w)

    def _close_link(self) -> None:
        """This process's copy of the link's ends the child now holds."""
        for fd in self._link or ():
            os.close(fd)
        self._link = None

    def _close_kit_ends(self) -> None:
        for fd in self._kit_ends or ():
            os.close(fd)
        self._kit_ends = None

    def _staged_files(self) -> list[str]:
        return sorted(p.name for p in self.workdir.iterdir() if p.is_file())

    def _fork(self, config: dict) -> bool:
        """The child forked by the fork server (see graders.sandboxing.forkserver), in this session's
        memory cgroup, with the staged files in CONFIG for it to show in /work; False when the server
        gave none (this child is then started on its own: see forkserver.failed)."""
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        try:
            self._proc = forkserver.spawn((to_child_r, from_child_w, *(self._link or ())), children.start_process,
                                          runner_files())
        except (SandboxError, OSError) as exc:
            for fd in (to_child_r, to_child_w, from_child_r, from_child_w):
                os.close(fd)
            forkserver.failed(str(exc))
            return False
        finally:
            if self._proc is not None:
                os.close(to_child_r)
                os.close(from_child_w)
                self._close_link()
        children.track(self._proc)
        self._to_child, self._from_child = to_child_w, from_child_r
        isolation.move_to_cgroup(self._cgroup, self._proc.pid)  # before it starts anything: it waits for this
        config["files"] = {name: base64.b64encode((self.workdir / name).read_bytes()).decode("ascii")
                           for name in self._staged_files()}
        config["sizes"] = {"work": isolation.WORK_BYTES, "tmp": isolation.TMP_BYTES}
        return True

    def _start_child(self, policy: isolation.Policy, runner: Path, config: dict) -> None:
        """The child started on its own: bubblewrap (under namespaces) or the interpreter itself."""
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        env = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "LANG": "C.UTF-8", reaper.TOKEN_NAME: self._token}
        try:
            argv = policy.command(runner, self.workdir, self._staged_files(), (to_child_r, from_child_w))
            self._proc = children.start_process(
                isolation.in_cgroup(self._cgroup, argv),
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                pass_fds=(to_child_r, from_child_w, *(self._link or ())), cwd=str(self.workdir), env=env,
                start_new_session=True,
            )
            children.track(self._proc)
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
            self._close_link()
        self._to_child, self._from_child = to_child_w, from_child_r

    def _fresh_runner(self) -> Path:
        """The runner folder with new copies of the child, its parts and the probes, compiled here (see
        :func:`compiled`): whatever a child wrote there (only possible where namespaces are
        missing) is never run again."""
        if self._runner is None:
            self._runner = scratch.make("hogkit-runner-")  # (known before it exists: see graders.core.scratch)
            self._runner.chmod(0o755)
            (self._runner / "python").mkdir(mode=0o755)
        for source in runner_files():
            target = self._runner / (source.stem + ".pyc")
            target.unlink(missing_ok=True)
            with open(target, "xb") as f:
                f.write(compiled(source))
            target.chmod(0o644)
        return self._runner

    def _prepare_stage(self, policy: isolation.Policy) -> None:
        """Let the child's own user read the staged files (and, under limits, write beside them)."""
        if self._identity is None:
            return
        share_with_others(self.workdir)
        if policy.level == isolation.LIMITS:
            os.chown(self.workdir, *self._identity)

    def _private_tmp(self, policy: isolation.Policy) -> str:
        """The child's own temporary folder under limits (where /tmp is the machine's): inside its
        staging folder, writable by the child's user alone."""
        if policy.level != isolation.LIMITS:
            return ""
        tmp = self.workdir / ".tmp"
        tmp.mkdir(mode=0o700, exist_ok=True)
        tmp.chmod(0o700)
        if self._identity is not None:
            os.chown(tmp, *self._identity)
        return str(tmp)

    def _cgroup_holds_child(self) -> bool:
        """Whether every process of the child is in its memory cgroup (seen from here, not said by it)."""
        if not self._cgroup or self._proc is None:
            return False
        try:
            held = set((Path(self._cgroup) / "cgroup.procs").read_text(encoding="ascii").split())
        except OSError:
            return False
        return all(str(pid) in held for pid in process_tree(self._proc.pid))

    def _check_reach(self, message: dict) -> None:
        """Keep what the child found it could do; a secret this run's verification hides that the
        child reached anyway is the sandbox failing: never a grade."""
        self.reach = {**message, "cgroup": self._cgroup_holds_child()}  # the parent's own finding, not the child's
        demanded = isolation.demanded(isolation.policy())
        readable = message.get("readable")
        breached = [p for p in demanded if p in readable] if isinstance(readable, list) else list(demanded)
        if breached and self.probe is None:
            self.close()
            raise SandboxError(sandboxing_messages.sandbox_reached_secret(breached[0]))
        kept = kept_capabilities(message.get("caps"), isolation.policy().level == isolation.NAMESPACES)
        if kept and self.probe is None:
            self.close()
            raise SandboxError(sandboxing_messages.sandbox_kept_capabilities(kept))

    def _await_import(self, budget_ends: float) -> tuple[int, str] | None:
        """Follow the child through the submission's top-level statements: None once it is ready,
        or (the statement, why) to skip when one hangs or ends the child. Every wait ends by
        BUDGET_ENDS, the child's own start's too: no frame buys more time than a statement's
        share of the budget, and a budget spent before the first statement began is a
        :class:`LoadError` (the child's start is not the student's, but the budget is the load's)."""
        ends = min(time.monotonic() + self.limits.import_seconds, budget_ends)
        current, began = -1, 0.0
        try:
            while True:
                message = self._receive(ends)
                if isinstance(message, str):  # "timeout", "crashed" or "memory"
                    if current < 0:  # no statement of the submission had started
                        self.close()
                        if message == "timeout" and time.monotonic() >= budget_ends:  # the budget ran out first
                            raise LoadError(sandboxing_messages.load_hung(len(self._skipped)))
                        raise SandboxError(sandboxing_messages.sandbox_did_not_start(message))  # the kit failed
                    what = {"timeout": "never finished", "memory": "used too much memory"}.get(message,
                                                                                                "ended the program")
                    return current, sandboxing_messages.skipped_statement(what)
                if message.get("op") == "stmt":
                    index = as_int(message.get("i"), -1)
                    if index <= current:
                        continue  # a repeated or forged announcement earns no time
                    began = began if current >= 0 else time.monotonic()
                    current = index
                    self._stmt_lines[current] = as_int(message.get("line"), 0)
                    ends = min(time.monotonic() + self.limits.import_seconds, budget_ends)
                elif message.get("op") == "reach" and current < 0:  # sent before any student code ran
                    self._check_reach(message)
                elif message.get("op") == "ready":
                    self.notes += import_notes(message.get("notes"))
                    return None
        finally:
            self.load_seconds += time.monotonic() - began if current >= 0 else 0.0

    def _restart(self, deadline: float) -> None:
        """A fresh child after a timeout or crash; the import notes are already known."""
        notes = list(self.notes)
        self.start(deadline)
        self.notes = notes

    def close(self) -> None:
        if self._kit_child is not None:  # its handles belong to this child: it goes with it
            self._kit_child.dispose()
            self._kit_child = None
        self._close_kit_ends()
        if self._proc is not None:
            group = self._proc.pid
            forked = isinstance(self._proc, forkserver.ForkedChild)  # (nothing of it is ever left to this process)
            descendants = {} if forked else reaper.snapshot(process_tree(group)[1:])
            children.kill(self._proc)
            self._proc.wait()
            children.forget(self._proc)
            self._proc = None
            if isolation.policy().level != isolation.NAMESPACES:  # (in a pid namespace, all died with it)
                reaper.kill_strays(self._token)  # descendants that left the process group
                if self._identity is not None:
                    reaper.kill_user(self._identity[0])  # and any that cleared their environment, too
            if not forked:
                reaper.reap(descendants, group)  # the dead ones left to the grader, never to pile up
            if self._cgroup:
                isolation.remove_cgroup(self._cgroup)
                self._cgroup = ""
        for fd in (self._to_child, self._from_child):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._to_child = self._from_child = -1
        self._pending.clear()  # nothing of a child that is gone reaches the next one
        self._asked = None  # (nor its case's start: a loading child is held to the clock)
        self._pids.clear()

    def dispose(self) -> None:
        """Stop the child and delete the staging and runner folders, and (as root, where the child's
        /tmp was the machine's) whatever its user id left in the shared temporary folders. The
        folders go whatever stopping the child raises (an interrupt, say)."""
        try:
            self.close()
            if self._identity is not None and isolation.policy().level != isolation.NAMESPACES:
                reaper.remove_files_of(self._identity[0])
        finally:
            scratch.remove(self.workdir)
            if self._runner is not None:
                scratch.remove(self._runner)

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
    def steps(self, sources: list[str], setup: str, deadline: float) -> Generator[StepReply, None, None]:
        """Run SOURCES as one case (fresh namespace, SETUP first), yielding each step's reply as it
        comes; every step together must finish by DEADLINE. Stopping early is safe: the child's
        remaining replies are read and dropped (or the child stopped), so none reaches another case."""
        if self._proc is None:
            try:
                self._restart(deadline)
            except LoadError:
                yield StepReply("crashed")
                return
        self._seq += 1
        seq = self._seq
        request = {"op": "case", "seq": seq, "steps": sources, "setup": setup}
        if self._told_to is not self._proc:  # a child started afresh holds no answer yet
            self._told_to, self._told = self._proc, set()
        told = {k: v for k, v in self.prepared.get((setup, tuple(sources)), {}).items() if k not in self._told}
        if told:  # the kit's answers to this case's calls that the child does not hold yet
            request["answers"] = told
            self._told.update(told)
        if self.record and self.serve is not None:  # every problem function, whoever's it is in a student's case
            request["record"] = sorted({*self.serve.offered, *self.serve.proxied})
        self.answers = {}
        self._asked = (time.monotonic(), self._known_cpu() if self.kit is not None else 0.0)  # (see _graced)
        kit_before = self._kit_cpu()
        try:
            self._send(request)
        except OSError:
            self.close()
            yield StepReply("crashed")
            return
        finished = False
        try:
            for _ in sources:
                started = time.monotonic()
                message = self._reply(seq, deadline)
                if isinstance(message, str) or message.get("op") != "step":
                    self.close()
                    yield StepReply(message if isinstance(message, str) else "crashed",
                                    seconds=time.monotonic() - started)
                    return
                yield decode_reply(message, time.monotonic() - started)
            done = self._reply(seq, deadline)
            if isinstance(done, str) or done.get("op") != "done":
                self.close()
            elif type(done.get("answers")) is dict:
                self.answers = done["answers"]
            finished = True
        finally:
            if not finished and self._proc is not None:  # (the rest of the case is not worth waiting for)
                self.drain(min(deadline, time.monotonic() + DRAIN_PATIENCE))
            if self._kit_cpu() - kit_before >= HEAVY_SECONDS:  # worth answering beforehand next time
                answers.mark_heavy((setup, tuple(sources)))

    def _reply(self, seq: int, deadline: float) -> dict | str:
        """The next frame that answers request SEQ; frames of any other request are dropped. The
        child's first call of a kit's function asks for the kit's own child on the way."""
        while True:
            message = self._receive(deadline)
            if isinstance(message, dict) and message.get("op") == "kit" and self.kit is not None:
                self._kit_session(deadline)  # its first call waits in the link's pipe meanwhile
                continue
            if isinstance(message, str) or message.get("seq") == seq:
                return message

    def _kit_session(self, deadline: float) -> None:
        """Start the kit's own child for this child's stubs, on the other ends of its link: the two
        children then call each other through those pipes alone, never through this process. It is
        the kit's failure (SandboxError), never the student's, when the kit's module does not load."""
        if self._kit_child is None and self.kit is not None and self._kit_ends is not None:
            workdir, target = prepare_workdir("", self.submission.name, [])  # (its modules come over the pipe)
            kit_child = Session(target, self.module, workdir, self.limits, dice=self.dice, serve=self.kit,
                                cpu=self.cpu)
            kit_child._link, self._kit_ends = self._kit_ends, None
            try:
                kit_child.start(deadline)
            except (LoadError, SandboxError) as exc:
                kit_child.dispose()
                raise SandboxError(sandboxing_messages.kit_functions_did_not_start(str(exc))) from exc
            if kit_child.notes:
                kit_child.dispose()
                raise SandboxError(sandboxing_messages.kit_functions_did_not_start(kit_child.notes[0].message))
            self._kit_child = kit_child

    def kit_answers(self, cases: list[tuple[str, tuple[str, ...]]], deadline: float) -> dict:
        """{(setup, steps): answers} for CASES, to be this child's ``prepared``: for each case that
        proves heavy (its calls kept the kit's own child busy: see HEAVY_SECONDS, or the build
        worked its answers out beforehand: see seed_answers), the answers the kit's functions gave
        to the calls the reference made running it (see graders.sandboxing.child.Recorder),
        recorded once per process in a kit's child of their own, and of those only the calls of
        this child's stubs that reached none of its own functions. A case that is not heavy, or
        whose recording did not finish, has none (the kit's child answers)."""
        if self.kit is None:
            return {}
        seed_answers(self.kit, self.module, self.dice)
        wanted, missing = answers.heavy_without_answers(cases, self._recorded)
        found_now = record_answers(self.kit, self.module, self.dice, self.limits, missing, deadline) if missing else []
        for case, recorded in zip(missing, found_now):
            if recorded is not None:
                answers.keep(self._recorded(case), recorded)
        offered, proxied = frozenset(self.kit.offered), frozenset(self.kit.proxied)
        found = {}
        for case in wanted:
            kept = answers.for_stubs(self._recorded(case), offered, proxied)
            if kept:
                found[case] = kept
        return found

    def _recorded(self, case: tuple[str, tuple[str, ...]]) -> tuple:
        """What a case's recorded answers are kept under: the kit's module (whatever its grouping) and the case."""
        assert self.kit is not None
        return (self.kit.source, self.kit.modules, self.module, self.dice, case)

    def drain(self, deadline: float) -> None:
        """Read and drop the replies of the case in progress, up to its "done"; stop the child if
        it does not get there by DEADLINE."""
        message = self._reply(self._seq, deadline)
        while not isinstance(message, str) and message.get("op") != "done":
            message = self._reply(self._seq, deadline)
        if isinstance(message, str):
            self.close()

    def _send(self, message: dict) -> None:
        data = json.dumps(message).encode("utf-8")
        frame = len(data).to_bytes(4, "big") + data
        while frame:
            frame = frame[os.write(self._to_child, frame):]

    def _receive(self, deadline: float) -> dict | str:
        """The next frame, or "timeout", "crashed" or "memory". Never blocks past DEADLINE."""
        shortfall = self._fill(4, deadline)
        if shortfall:
            return shortfall
        size = int.from_bytes(self._pending[:4], "big")
        if size > (MAX_FRAME * 32 if self.record else MAX_FRAME):  # a case's recorded answers: megabytes
            return "crashed"
        shortfall = self._fill(4 + size, deadline)
        if shortfall:
            return shortfall
        body = bytes(self._pending[4:4 + size])
        del self._pending[:4 + size]
        try:
            message = json.loads(body.decode("utf-8", "replace"))
        except (ValueError, RecursionError):  # not JSON, or nested past what the parser takes
            return "crashed"
        return message if isinstance(message, dict) else "crashed"

    def _graced(self, deadline: float) -> float:
        """DEADLINE, or later while the case has not had its budget of processor time: on a loaded
        machine (a class graded several submissions to a core, or two processes handing a kit's
        calls back and forth, each waiting for a processor at every call) the case's processor time
        decides, not the clock. The case is then given until its child (and the kit's own child
        answering its calls) has used the case's budget, and never more than LINK_GRACE times that
        budget past DEADLINE (a case that waits without computing ends there). The time used before
        the case counts only the processes known then (see _known_cpu), so the case's own is never
        undercounted; a child without the kit's reads nothing before a case (all its time since it
        started counts, never less than the case's own), so a case on time reads nothing at all."""
        if self._asked is None or self._proc is None:
            return deadline
        asked_at, before = self._asked
        budget = deadline - asked_at
        unused = budget - (self._cpu() - before)
        return min(deadline + LINK_GRACE * budget, time.monotonic() + unused) if unused > 0 else deadline

    def _kit_cpu(self) -> float:
        kit = self._kit_child._proc if self._kit_child is not None else None
        return self._cpu_of(kit.pid) if kit is not None else 0.0

    def _known_cpu(self) -> float:
        """The processor time of this child's processes and its kit's child's, as far as known: each
        child's processes are found once (see _cpu_of), then only their times are read, at every case."""
        kit = self._kit_child._proc if self._kit_child is not None else None
        return sum(self._cpu_of(proc.pid) for proc in (self._proc, kit) if proc is not None)

    def _cpu_of(self, pid: int) -> float:
        """The processor time of the processes of child PID as they were when first looked at (a
        process started later is not counted, so the time subtracted before a case is only what ran
        before it; one that ended since may leave it larger, and the grace, never past LINK_GRACE)."""
        if pid not in self._pids:
            self._pids[pid] = process_tree(pid)
        return sum(reaper.process_cpu(p) for p in self._pids[pid])

    def _cpu(self) -> float:
        """The processor time this child and the kit's own child have used, in seconds."""
        kit = self._kit_child._proc if self._kit_child is not None else None
        return sum(reaper.tree_cpu(proc.pid) for proc in (self._proc, kit) if proc is not None)

    def _memory(self) -> int:
        """The resident memory of the child's processes, and of the kit's own child that answers its calls."""
        kit = self._kit_child._proc if self._kit_child is not None else None
        return sum(tree_memory(proc.pid) for proc in (self._proc, kit) if proc is not None)

    def _fill(self, n: int, deadline: float) -> str:
        """At least N bytes read from the child and not yet taken (a step's replies often come
        together: one read takes them all); else "timeout", "crashed" or "memory"."""
        asked = deadline
        while len(self._pending) < n:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                deadline = self._graced(asked)
                if deadline <= time.monotonic():
                    return "timeout"
                continue
            if not wait_readable(self._from_child, min(remaining, WATCH_SECONDS)):
                if self._proc is not None and self._memory() > self.limits.memory_bytes:
                    return "memory"
                continue
            chunk = os.read(self._from_child, max(READ_BYTES, n - len(self._pending)))
            if not chunk:
                return "crashed"
            self._pending += chunk
        return ""


def kept_capabilities(caps: object, namespaces: bool) -> str:
    """The capability sets a child reported still holding ('' : none). Under namespaces every set
    must be reported and empty, the bounding set too (bubblewrap and the fork server's children
    empty it); elsewhere the sets a process can use (a user's bounding set stays full, and harmless
    once no_new_privs is set). Where a system shows none (not Linux) there is nothing to judge."""
    if not isinstance(caps, dict) or not caps:
        return "none reported" if namespaces else ""
    names = ("CapInh", "CapPrm", "CapEff", "CapAmb") + (("CapBnd",) if namespaces else ())
    held = []
    for name in names:
        value = caps.get(name)
        if not isinstance(value, str) or not value or value.strip("0") != "":  # all zeros, or held
            held.append(f"{name} {shown(value, 20)}")
    return ", ".join(held)


# -- decoding what the child says: plain data only, clipped ----------------------------------------


def share_with_others(folder: Path) -> None:
    """Let another user read FOLDER (and its files) and nothing more: it is the child's working folder."""
    folder.chmod(0o755)
    for path in folder.rglob("*"):
        if not path.is_symlink():  # a link a child left (under limits) would carry the change elsewhere
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
    workdir = scratch.make("hogkit-")
    try:
        for f in support:
            shutil.copyfile(f, workdir / f.name)
        target = workdir / filename
        target.write_text(as_utf8_file(submission_source), encoding="utf-8")
    except BaseException:
        scratch.remove(workdir)  # a full disk, a missing kit file: nothing left behind
        raise
    return workdir, target


# -- opening a submission the way every command does ------------------------------------------------


def sorted_notes(filename: str, session: Session) -> list[str]:
    """The session's loading notes in line order, as sentences."""
    return [sandboxing_messages.import_note(filename, n.line, n.message)
            for n in sorted(session.notes, key=lambda n: n.line)]


def repair_notes(filename: str, tree: ast.Module | None, removals: list[Removal]) -> list[str]:
    """What repairing a syntax error did, as sentences."""
    return [
        sandboxing_messages.syntax_repaired(filename, r.line, r.message, r.name) if tree is not None
        else sandboxing_messages.syntax_unrepairable(filename, r.line, r.message)
        for r in removals
    ]


def open_submission(source: str, edition: Edition, limits: Limits | None = None) -> tuple[Session, list[str]]:
    """A started child running SOURCE exactly as grading runs it (a syntax error costs only its block,
    a top-level statement that hangs or exits is skipped), and the notes that say what was done:
    the one way every command (winrate, picture, contest, play) loads a submission. Raises
    :class:`~graders.sandboxing.sandbox.LoadError` when nothing of it can be loaded."""
    filename = edition.submission
    fixed, tree, removals = repair(source, filename)
    notes = repair_notes(filename, tree, removals)
    if tree is None:
        raise LoadError(" ".join(notes) or messages.unreadable_submission(filename))
    session = open_session(fixed, edition, limits)
    return session, notes + sorted_notes(filename, session)


def open_session(source: str, edition: Edition, limits: Limits | None = None,
                 skipped: Mapping[int, ImportNote] | None = None, kit: KitFunctions | None = None) -> Session:
    """A started child holding SOURCE as the edition's submission file, next to its support files,
    SKIPPED's top-level statements ({index: note}) left out from the start.

    Raises :class:`~graders.sandboxing.sandbox.LoadError` when the submission cannot be loaded at all, and
    :class:`~graders.sandboxing.sandbox.SandboxError` when the child does not start; either way after cleaning up.
    """
    children.check_running()  # the run is stopping: not even a staging folder
    support = [edition.support_dir / name for name in edition.support]
    workdir, target = prepare_workdir(source, edition.submission, support)
    session = Session(target, edition.module, workdir, limits or Limits(), dice=edition.game.dice, kit=kit)
    for index, note in sorted((skipped or {}).items()):
        session.skip(index, note)
    try:
        session.start()
    except BaseException:
        session.dispose()
        raise
    return session


def record_answers(kit: KitFunctions, module: str, dice: tuple[int, int], limits: Limits,
                   cases: list[tuple[str, tuple[str, ...]]], deadline: float) -> list[dict | None]:
    """For each of CASES ((setup, steps)), the answers the kit's functions gave to the calls the
    reference made running it, {call key: [value, the problem functions the call reached]}, from
    a child of the kit's own serving KIT that runs them in turn; None for a case whose recording
    did not finish (the kit's child then answers each call)."""
    if not cases:
        return []
    workdir, target = prepare_workdir("", module + ".py", [])  # (its modules come over the pipe)
    recorder = Session(target, module, workdir, limits, dice=dice, serve=kit, record=True)
    found: list[dict | None] = []
    try:
        recorder.start(deadline)
        for setup, steps in cases:
            replies = [reply.status for reply in recorder.steps(list(steps), setup, deadline)]
            found.append(recorder.answers if replies and replies[-1] != "timeout" else None)
    except (LoadError, SandboxError):
        pass  # (the kit's child then answers every call)
    finally:
        recorder.dispose()
    return found + [None] * (len(cases) - len(found))


