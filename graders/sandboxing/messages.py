"""What the sandbox says: loading a submission, the child and the kit's functions, isolation and
what student code could reach; the sentences only graders/sandboxing/ uses.

Each function returns text and nothing else, and tests/kit/sandboxing/test_messages.py calls each one. The
text helpers (visible, clip, …) and the sentences several folders say are in graders.core.messages.
It ships in the student's bundle: it keeps to Python 3.9 and imports nothing of the kit's but
graders.core.messages.
"""

from __future__ import annotations

from graders.core.messages import sentence

# -- values a student's function returned --------------------------------------------------------

VALUE_NOTES = {
    "big_int": "a whole number too large to show",
    "deep": "nested too deeply to show",
    "long": "too long to show",
    "no_message": "(the error message could not be shown)",
}


def value_note(code: str) -> str:
    return VALUE_NOTES.get(code, code)


# -- loading a submission: its top-level statements and syntax errors ----------------------------


def import_note(filename: str, line: int, message: str) -> str:
    return f"{filename} line {line}: {message}" if line else f"{filename}: {message}"


def skipped_statement(what: str) -> str:
    """WHAT is 'never finished' or 'ended the program'."""
    return f"this top-level statement {what} while the file was loading, so it was skipped"


def exited_while_loading(kind: str, detail: str) -> str:
    code = f"({detail})" if detail else "()"
    return f"{kind}{code} ran while the file was loading; that statement was skipped"


def syntax_repaired(filename: str, line: int, message: str, name: str) -> str:
    return (
        f"{filename} line {line}: SyntaxError: {sentence(message)} So that the rest could run, {name} was "
        f"left out; whatever needs it fails"
    )


def syntax_unrepairable(filename: str, line: int, message: str) -> str:
    return f"{filename} line {line}: SyntaxError: {sentence(message)} Nothing could be graded; fix this line first"


def syntax_stub(name: str, filename: str, line: int, message: str) -> str:
    """What calling a function that was left out for a syntax error raises."""
    return f"{name} has a syntax error at {filename} line {line}: {message}"


# -- the child, the kit's functions and the fork server ------------------------------------------


def sandbox_did_not_start(what: str) -> str:
    """WHAT is "timeout" or "crashed": the child never reached the submission's first statement."""
    return ("the sandboxed Python process that runs the submission "
            + ("did not answer in time" if what == "timeout" else "ended") + " before any of its code ran")


def kit_functions_did_not_start(why: str) -> str:
    """The kit's own child, which answers the stubs of other problems' functions, did not load: the kit's failure."""
    return f"the kit's own process for other problems' functions did not start ({why})"


LINK_REFUSALS = ("absent", "too_large", "not_plain", "unreadable", "no_default", "no_function")


def link_refusal(kind: str) -> str:
    """What a student's child raises when a call of the kit's functions cannot be made (KIND, one of
    LINK_REFUSALS; "not_plain" holds a {} for the value's type). The child imports nothing of the
    kit's: these reach it with its settings."""
    return {
        "absent": "the kit's functions are not available in this run",
        "too_large": "a value too large to pass to the kit's functions (a few thousand items at most)",
        "not_plain": "a value of type {} cannot be passed to the kit's functions: only numbers, strings, "
                     "booleans, None, tuples, lists and functions can",
        "unreadable": "a value the kit's functions sent could not be read",
        "no_default": "the kit's function has no default for {}: pass it a value",
        "no_function": "a function the kit's functions were handed is no longer there",
    }[kind]


FORKSERVER_ENDED = "the server ended"
FORKSERVER_NO_PID = "no pid for the new child"


def forkserver_failed(why: str) -> str:
    """The fork server (graders.sandboxing.forkserver) could not give a child: the kit's failure."""
    return (f"the fork server that starts each sandboxed child did not give one ({why}); "
            "set HOGKIT_FORKSERVER=off to start every child with bubblewrap instead")


def sandbox_kept_capabilities(sets: str) -> str:
    """A child that still held a capability once it was confined: never given student code."""
    return (f"the sandboxed child still held capabilities ({sets}) when student code would have started; "
            "nothing was graded: this is the kit's failure, not the student's")


# -- isolation: what student code could reach, as every report states it --------------------------


def isolation_namespaces(root: bool) -> str:
    who = "a user id of its own" if root else "a user namespace of its own"
    return (f"isolation: namespaces (bubblewrap): student code saw only the interpreter, its own files and a "
            f"private /tmp, with no network, no other process and {who}")


def isolation_limits(root: bool, why: str) -> str:
    return (f"isolation: limits only ({why}): student code ran with resource limits and a folder of its own, "
            + ("as a user id of its own, confined where the kernel allows (not verified: no hidden case ran)"
               if root else "as the grader's user, so it could read what the grader can read unless the kernel "
               "confined it (not verified: no hidden case ran)"))


def isolation_no_bwrap() -> str:
    return "bubblewrap is not installed: apt-get install bubblewrap"


def isolation_refused(why: str) -> str:
    return f"bubblewrap could not start a sandbox here: {why}"


def isolation_turned_off(variable: str) -> str:
    return f"turned off by {variable}=limits"


def isolation_required(summary: str) -> str:
    return ("--require-isolation: student code here would not have the kit hidden, the network off and an "
            f"identity of its own, as the child itself found, so nothing was graded ({summary})")


def isolation_verified(level: str, why: str, readable: tuple[str, ...], network: bool, own_identity: bool,
                       applied: tuple[str, ...], missing: tuple[str, ...], memory: str, channels: str = "",
                       checked: int = 0) -> str:
    """The isolation line of every report that ran hidden cases: what the child itself confirmed (of
    the kit's own CHECKED paths) and what was not checked."""
    how = "namespaces (bubblewrap)" if level == "namespaces" else f"limits only ({why})"
    kit = kit_reach(level, readable, any(a.startswith("landlock") for a in applied), checked)
    parts = [kit, "network off" if not network else "network OPEN (127.0.0.1 was reachable)",
             "own identity yes" if own_identity else "own identity no (the grader's user)",
             *([channels] if channels else []), f"memory: {memory}"]
    extra = (f"; applied by the child: {', '.join(applied)}" if applied else "") + (
        f"; not available: {'; '.join(missing)}" if missing else "")
    return f"isolation: {how}, verified by the child before any student code: {', '.join(parts)}{extra}"


def kit_reach(level: str, readable: tuple[str, ...], landlock: bool, checked: int) -> str:
    """What the child could read of the kit's own CHECKED paths (READABLE), and what that check says
    of the rest of the machine: nothing beyond the system's folders under namespaces or Landlock;
    under limits without Landlock, a copy elsewhere that other users may read was not looked for."""
    if readable:
        return "kit READABLE (" + ", ".join(readable[:3]) + (", ..." if len(readable) > 3 else "") + ")"
    paths = f"the kit's own paths ({checked})" if checked else "the kit's own paths"
    if level == "namespaces":
        return f"kit hidden ({paths} checked; beyond them the child sees only the system's folders and its own)"
    if landlock:
        return f"kit hidden ({paths} checked; beyond them Landlock lets the child open only the system's folders " \
               "and its own)"
    return (f"kit hidden (only {paths} checked; NOT checked: a copy of the kit or of a reference anywhere else on "
            "this machine, which student code can read wherever other users may: without namespaces or Landlock "
            "only files' modes hide the rest of the machine)")


def landlock_unavailable(error: int, filtered: bool, listed: bool | None, release: str) -> str:
    """Why the child could not apply Landlock: the kernel's ERROR (an errno), whether a seccomp filter
    the grader itself runs under was in force (FILTERED), whether the kernel's list of security
    modules names Landlock (LISTED; None where it cannot be read) and the kernel's RELEASE."""
    profile = ("allow landlock_create_ruleset, landlock_add_rule and landlock_restrict_self in the container's "
               "seccomp profile (docker run --security-opt seccomp=PROFILE), or use a Docker that allows them")
    if error == 38 and filtered and listed is not False:
        return (f"refused by the seccomp filter the grader runs under, not missing from the kernel (error 38, "
                f"ENOSYS, is how a container's profile, such as Docker's default in older releases, answers a call "
                f"it does not allow; Linux {release}{', whose security modules list Landlock' if listed else ''}): "
                f"{profile}")
    if error == 38:
        return f"not in this kernel (error 38, ENOSYS; Linux {release}; Landlock came with Linux 5.13)"
    if error == 95:
        return f"built into this kernel but not enabled (error 95; Linux {release}): add landlock to its lsm= list"
    if error == 1:
        by = "the seccomp filter the grader runs under" if filtered else "this machine's security policy"
        return f"refused by {by} (error 1, EPERM; Linux {release})" + (f": {profile}" if filtered else "")
    return f"refused by the kernel (error {error}; Linux {release})"


def memory_bound(level: str, seccomp: bool, cgroup: bool) -> str:
    """How memory is bounded at LEVEL (see graders.sandboxing.sandbox and graders.sandboxing.isolation)."""
    tmpfs = ", its tmpfs mounts capped in bytes" if level == "namespaces" else ""
    xattrs = "refused by seccomp" if seccomp else "NOT bounded (no seccomp filter)"
    kernel = ("a memory cgroup of its own bounds it all, kernel memory included" if cgroup else
              "no memory cgroup could be had, so kernel memory (files' inodes) is NOT bounded")
    return ("an address-space limit per process and the resident memory of all its processes watched"
            f"{tmpfs}; extended attributes (kernel memory) {xattrs}; {kernel}")


def channels_between_children(level: str, seccomp: bool) -> str:
    """What could carry data from one child to a later one, or from the grader to a child, beyond the
    namespaces a child gets (see graders.sandboxing.isolation.CHANNEL_CALLS)."""
    if seccomp:
        return ("channels between children closed (the kernel's key store, System V IPC, POSIX message queues, "
                "memfds, every socket and any change of a file's modes refused by seccomp; a child's files "
                "its user's alone)")
    if level == "namespaces":
        return ("channels between children NOT all closed (no seccomp filter: the kernel's key store, the "
                "grader's session keyring among it, and memfds are open)")
    return ("channels between children OPEN (no seccomp filter: the kernel's key store, System V IPC, POSIX "
            "message queues, memfds and UNIX sockets to the machine's services)")


def seccomp_unavailable(why: str) -> str:
    return f"seccomp: no filter could be built ({why}; pip install pyseccomp, apt-get install libseccomp2)"


def isolation_secrets_readable(readable: tuple[str, ...], summary: str) -> str:
    """Grading with hidden cases refused: a child could read the kit's secrets (the kit's failure)."""
    return ("nothing was graded: a sandboxed child, started as every student's is, could read the kit's "
            f"secrets here ({', '.join(readable[:4])}{', ...' if len(readable) > 4 else ''}), so hidden cases "
            "and the reference would be open to student code. Fix: install bubblewrap and allow it namespaces "
            "(a container needs CAP_SYS_ADMIN or a user namespace), run on a kernel with Landlock, or, as root, "
            f"close the kit's folders to other users (chmod -R go-rwx on them). ({summary})")


def sandbox_reached_secret(path: str) -> str:
    return (f"a sandboxed child could read {path}, which the isolation verified for this run hides: "
            "its submission was not graded")


# -- a submission that would not load ------------------------------------------------------------


def load_hung(count: int) -> str:
    return f"{count} top-level statements hung or ended the program"
