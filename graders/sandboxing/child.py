"""The child side of the sandbox: runs untrusted submission code and reports plain data.

Contract (a copy of this file, compiled by the parent with its parts (:data:`PARTS`: the wire, the
link, the recorder, the confinement), is started from the submission's private folder as
``python3 -I -S -B child.pyc IN_FD OUT_FD``, loads its parts from the runner folder beside it, reads
its settings as the first frame on IN_FD, and imports only the standard library, the least it
needs: ``_ast``, not ``ast``):

* It applies the resource limits it is given before it reads a byte of student code.
* It imports the submission one top-level statement at a time, announcing each statement first,
  so that the parent can skip a statement that hangs or ends the process and try again.
* It then answers requests, one case at a time with a reply per ``>>>`` step, over a private
  pipe: length-prefixed JSON frames, never stdin/stdout (stdin is /dev/null, so ``input()``
  fails fast and cannot read our requests by accident).
* Values go back as tagged plain data built only from objects whose type is *exactly* ``int``,
  ``float``, ``bool``, ``str``, ``NoneType``, ``tuple`` or ``list``; anything else is described, never
  trusted. The parent does every comparison. Nothing this process says can award points on its own:
  a forged or missing reply only loses them.
"""

from __future__ import annotations

import _ast
import marshal
import os
import sys
import types
from collections.abc import Callable

# The child's other modules, in the order they import each other. In the runner (this file run as a
# script, or loaded by the fork server) there is no kit to import them from: each was compiled
# beside this one by the parent, and is run here under its name in the kit, before the imports
# below, so that they find it. Imported as part of the kit (its tests, the type checker), they are
# the kit's own modules.
PARTS = ("graders.sandboxing.childwire", "graders.sandboxing.childlink", "graders.sandboxing.childrecord",
         "graders.sandboxing.childconfine")


def _load_parts() -> None:
    folder = os.path.dirname(os.path.abspath(sys.argv[0]))
    for name in PARTS:
        if name in sys.modules:
            continue
        module = types.ModuleType(name)
        sys.modules[name] = module
        with open(os.path.join(folder, name.rsplit(".", 1)[1] + ".pyc"), "rb") as f:  # a header, then the code
            exec(marshal.loads(f.read()[16:]), module.__dict__)


if not __name__.startswith("graders."):
    _load_parts()

from graders.sandboxing.childconfine import (
    PRELOADED,  # noqa: F401 - the fork server preloads what it names
    apply_limits,
    capabilities,
    confine,
    drop_capabilities,
    drop_privileges,
    hide_folders,
    verify_reach,
)
from graders.sandboxing.childlink import HOMES, KIT_DEFAULT, WORDS, Link, stand_in, support_codes
from graders.sandboxing.childrecord import Recorder
from graders.sandboxing.childwire import CappedText, encode, receive, send

# Filled in from the probes file when the child starts (see main): one way to describe an error,
# shared with the probes that describe errors themselves (a game's commentary, for one).
describe_error: Callable[[BaseException, str], dict]


def import_submission(config: dict, out_fd: int, preset: dict) -> tuple[types.ModuleType, list[dict]]:
    """Run the submission's top-level statements one by one into a fresh module (holding PRESET
    first); report problems."""
    path, module_name = config["submission"], config["module"]
    skip = set(config.get("skip", []))
    source = (config.get("serve") or {}).get("source")  # the kit's own child: its module never touches a disk
    if type(source) is not str:
        with open(path, encoding="utf-8", errors="replace") as f:
            source = f.read()
    module = types.ModuleType(module_name)
    module.__file__ = path
    module.__dict__.update(preset)
    sys.modules[module_name] = module
    notes: list[dict] = []
    try:  # (ast.parse, without importing ast)
        tree = compile(source, path, "exec", _ast.PyCF_ONLY_AST, dont_inherit=True)
        statements: list = tree.body  # type: ignore[attr-defined]  # (a Module: typeshed says AST)
    except BaseException as exc:  # the parent parsed it already; say so rather than die unexplained
        return module, [{"line": 0, "error": describe_error(exc, path)}]
    features = 0  # the submission's own `from __future__ import ...`, for the statements after it
    for i, node in enumerate(statements):
        send(out_fd, {"op": "stmt", "i": i, "line": node.lineno})
        if i in skip:
            continue
        try:
            code = compile(_ast.Module(body=[node], type_ignores=[]), path, "exec", features, dont_inherit=True)
            exec(code, module.__dict__)
            features |= future_flags(node)
        except BaseException as exc:  # SystemExit and KeyboardInterrupt included: keep going
            info = describe_error(exc, path)
            notes.append({"line": node.lineno, "error": info})
    return module, notes


def future_flags(node: object) -> int:
    """The compiler flags a ``from __future__ import ...`` statement NODE turns on (0 for any other):
    each statement is compiled on its own, so the file's future imports are carried by hand, and
    never this file's own (``dont_inherit``)."""
    if type(node) is not _ast.ImportFrom or getattr(node, "module", None) != "__future__":
        return 0
    import __future__

    flags = 0
    for alias in getattr(node, "names", []):
        feature = getattr(__future__, alias.name, None)
        flags |= getattr(feature, "compiler_flag", 0)
    return flags


def keeper(names: dict) -> Callable[[], None]:
    """A function that puts NAMES (the probes' module) back as it is now: every name bound to the
    same object, and every function with its own code and defaults, whatever was changed in between."""
    kept = dict(names)
    functions = [(f, f.__code__, f.__defaults__, f.__kwdefaults__) for f in kept.values()
                 if type(f) is types.FunctionType]

    def restore() -> None:
        names.clear()
        names.update(kept)
        for f, code, defaults, kwdefaults in functions:
            f.__code__, f.__defaults__, f.__kwdefaults__ = code, defaults, kwdefaults

    return restore


def main() -> None:
    in_fd, out_fd = int(sys.argv[1]), int(sys.argv[2])
    config = receive(in_fd)
    if config is None:
        return
    with open(config["probes"], "rb") as f:  # compiled by the parent: a .pyc file's header, then the code
        probes_code = marshal.loads(f.read()[16:])
    serve(config, in_fd, out_fd, probes_code)


def pin(cpu: object) -> None:
    """Run on processor CPU alone, where the parent gives one: this child and the kit's child it
    calls share it (see graders.sandboxing.children.pair_cpu)."""
    if type(cpu) is int:
        try:
            os.sched_setaffinity(0, {cpu})
        except (AttributeError, OSError, ValueError):
            pass


def serve(config: dict, in_fd: int, out_fd: int, probes_code: types.CodeType) -> None:
    """Everything after the settings are read, in a process started for this child (:func:`main`)
    or forked for it by the fork server (:mod:`graders.sandboxing.zygote`): limits, probes, identity,
    confinement and its verification, then the submission and its cases."""
    drop_capabilities(keep_identity=bool(config.get("identity")))
    apply_limits(config.get("limits", {}))
    pin(config.get("cpu"))
    # The probes (the kit's own code) load first, while the standard library they import is
    # still readable: the user the child drops to may not be able to read the interpreter's files.
    global describe_error
    spec_globals: dict = {"__name__": "hogkit_probes"}
    exec(probes_code, spec_globals)
    probes = {k: spec_globals[k] for k in spec_globals.get("__all__", [])}
    describe_error = spec_globals["describe_error"]
    spec_globals["DICE"] = tuple(config.get("dice") or spec_globals["DICE"])  # the edition's range of dice
    WORDS.update(config.get("words") or {})
    restore_probes = keeper(spec_globals)
    HOMES[spec_globals["__name__"]] = {"__code__": probes_code, "globals": spec_globals}  # (a seeded game's dice)
    if config.get("serve"):  # the kit's own child: its support files load while the interpreter's files
        load_modules(config["serve"].get("modules") or {})  # are still readable (see drop_privileges)
    hidden = hide_folders(config["hide"], *config["interpreter"]) if config.get("hide") else False
    if config.get("identity"):
        drop_privileges(*config["identity"])
    drop_capabilities()
    caps = capabilities()  # (confinement changes none, and may close /proc)
    os.umask(0o077)  # what it makes is its user's alone (the filter then refuses every change of modes)
    applied, missing = confine(config.get("confine") or {})
    if config.get("verify"):
        send(out_fd, verify_reach(config["verify"], applied, missing, caps))
    os.chdir(config["workdir"])
    sys.path[:0] = [config["workdir"]]
    sys.argv = [config["submission"]]
    sys.dont_write_bytecode = True
    if config.get("serve"):
        undumpable()
        if not config["serve"].get("record"):
            serve_kit(config, in_fd, out_fd, hidden)
            return
    real_stdout = sys.stdout
    kit = config.get("kit") or {}  # the stubs of the kit's functions in this module call through LINK
    module_of: list = []
    link = Link(config.get("link"), lambda: {n: module_of[0].__dict__[n] for n in kit.get("proxied", [])
                                             if module_of and n in module_of[0].__dict__}, {}, None, out_fd,
                support_codes((config.get("serve") or {}).get("modules")  # (the kit's recording child)
                              or support_sources(config["workdir"], kit.get("support") or [])))

    def kit_call(name: str, args: tuple, kwargs: dict) -> object:
        return link.call({"name": name}, args, kwargs)

    capture = CappedText()
    sys.stdout = capture
    module, notes = import_submission(config, out_fd, {"__hogkit_call__": kit_call,
                                                       "__hogkit_default__": KIT_DEFAULT})
    sys.stdout = real_stdout
    module_of.append(module)
    link.theirs.update({n: module.__dict__[n] for n in kit.get("offered", []) if n in module.__dict__})
    send(out_fd, {"op": "ready", "notes": notes, "output": capture.text(), "hidden": hidden})

    serve_cases(config, module, link, probes, restore_probes, (in_fd, out_fd), real_stdout)


def serve_cases(config: dict, module: types.ModuleType, link: Link, probes: dict, restore_probes: Callable,
                fds: tuple[int, int], real_stdout: object) -> None:
    """Run each case the parent asks for, until it says "quit" or goes: the module restored first,
    the link's answers reset (and filled with the case's answers worked out beforehand), its steps
    run one by one, one reply each and then "done" (in the kit's own child when asked, with what
    recording the reference's calls kept)."""
    in_fd, out_fd = fds
    snapshot = dict(module.__dict__)
    path = config["submission"]
    while True:
        request = receive(in_fd)
        if request is None or request.get("op") == "quit":
            return
        # A case runs its steps in a fresh namespace (the module restored) and streams one reply per
        # step, then "done".
        module.__dict__.clear()
        module.__dict__.update(snapshot)
        sys.modules[config["module"]] = module
        restore_probes()  # as they were loaded: what the submission changed in them is undone
        link.reset()
        if type(request.get("answers")) is dict:  # the kit's answers to this case's calls, worked out beforehand
            link.prepare(request["answers"])
        recorder = None
        if config.get("serve") and type(request.get("record")) is list:  # (only ever the kit's own child)
            recorder = Recorder(module.__dict__, request["record"], link.support)
        namespace = {"__name__": "__case__", **probes}
        setup = request.get("setup", "")
        seq = request.get("seq")  # every reply names the request it answers
        for source in request.get("steps", []):
            send(out_fd, {**run_step(source, setup, namespace, path, real_stdout, probes), "seq": seq})
            setup = ""
        send(out_fd, {"op": "done", "seq": seq, **({"answers": recorder.answers} if recorder else {})})


def support_sources(folder: str, names: list) -> dict:
    """{name: text} of the kit's support files NAMES as staged in FOLDER (this child's own)."""
    found = {}
    for name in names:
        try:
            with open(os.path.join(folder, str(name) + ".py"), encoding="utf-8") as f:
                found[str(name)] = f.read()
        except (OSError, ValueError):
            pass
    return found


def load_modules(modules: dict) -> None:
    """Run each of MODULES ({name: source}) as the module of that name: the kit's support files, as
    the kit has them, for the kit's own child (it reads no file of a staging folder)."""
    for name, text in modules.items():
        module = types.ModuleType(name)
        module.__file__ = name + ".py"
        sys.modules[name] = module
        exec(compile(text, name + ".py", "exec", dont_inherit=True), module.__dict__)


def undumpable() -> None:
    """This process's memory unreadable by any other of its user (PR_SET_DUMPABLE 0: no
    /proc/PID/mem, no ptrace): the kit's own child holds the reference."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def serve_kit(config: dict, in_fd: int, out_fd: int, hidden: bool) -> None:
    """The kit's own child: load the module the parent sent (the reference, which never touches a
    disk), untraceable and unreadable by any process of the same user, then answer the calls a
    student's child makes of the functions in "offered". The names in "proxied" (the student's own
    functions) call back into the student's child. A "case" request starts every case afresh."""
    spec = config["serve"]
    outputs = [CappedText()]

    def output() -> str:
        text, outputs[0] = outputs[0].text(), CappedText()
        sys.stdout = outputs[0]
        return text

    sys.stdout = outputs[0]
    module, notes = import_submission(config, out_fd, {})
    offered = {n: module.__dict__[n] for n in spec.get("offered", []) if callable(module.__dict__.get(n))}
    link = Link(config.get("link"), lambda: offered, {}, output, None, support_codes(spec.get("modules") or {}))
    snapshot = dict(module.__dict__)

    def afresh() -> None:
        module.__dict__.clear()
        module.__dict__.update(snapshot)
        link.reset()
        link.theirs = {n: stand_in(link, {"name": n}, n) for n in spec.get("proxied", [])}
        module.__dict__.update(link.theirs)

    afresh()
    send(out_fd, {"op": "ready", "notes": notes, "output": output(), "hidden": hidden})
    while link.in_fd >= 0:  # from now on the parent is only ever told nothing: calls come over the link
        request = receive(link.in_fd)
        if request is None:
            return
        if request.get("op") == "case":
            afresh()
        elif request.get("op") == "call":
            link.answer(request)


_SETUP: dict = {}  # a case's setup (the edition's import line, the same in every case) -> its code


def compiled(source: str, name: str, mode: str) -> types.CodeType | None:
    """SOURCE compiled as NAME in MODE; None for a SyntaxError in "eval" mode, which is not kept as
    an error to raise. Only a setup is kept (it comes back in every case); a step's source never
    is, so nothing of an earlier case is left in this process for the code of a later one to find."""
    if name == "<setup>" and source in _SETUP:
        return _SETUP[source]
    try:
        code: types.CodeType | None = compile(source, name, mode)
    except SyntaxError:
        if mode != "eval":
            raise
        code = None
    if name == "<setup>" and len(_SETUP) < 8:
        _SETUP[source] = code
    return code


def run_step(source: str, setup: str, namespace: dict, path: str, real_stdout: object, probes: dict) -> dict:
    """Run one statement (after SETUP, if any) and describe what it did as plain data. The probes
    are put back after SETUP, so a submission's own function of the same name cannot stand in."""
    capture = CappedText()
    sys.stdout = capture
    reply: dict = {"op": "step", "value": None, "error": None}
    try:
        if setup:
            exec(compiled(setup, "<setup>", "exec"), namespace)  # type: ignore[arg-type]  # (exec mode: a code)
            namespace.update(probes)
        code = compiled(source, "<case>", "eval")
        if code is not None:
            reply["value"] = encode(eval(code, namespace))
        else:
            exec(compiled(source + "\n", "<case>", "exec"), namespace)  # type: ignore[arg-type]
    except BaseException as exc:
        reply["error"] = describe_error(exc, path)
    finally:
        sys.stdout = real_stdout
    reply["output"] = capture.text()
    reply["truncated"] = capture.truncated
    return reply


if __name__ == "__main__":
    main()
