"""The sentences of graders/sandboxing/messages.py, each public function called with what it must carry.

Every public function of a sentence module appears in its folder's table: tests/kit/test_messages.py
checks, across the folders, that none is left out.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graders.sandboxing import messages as sandboxing_messages

from ..sentences import carries, ids

# (function, arguments, texts the result must contain).
EXPECTATIONS: list[tuple[Callable[..., str], tuple, list[str]]] = [
    (sandboxing_messages.skipped_statement, ("never finished",), ["never finished", "skipped"]),
    (sandboxing_messages.exited_while_loading, ("sys.exit", "3"), ["sys.exit(3)", "loading", "skipped"]),
    (sandboxing_messages.syntax_stub, ("roll_dice", "hog.py", 9, "invalid syntax"),
     ["roll_dice", "hog.py line 9", "invalid syntax"]),
    (sandboxing_messages.value_note, ("big_int",), ["too large"]),
    (sandboxing_messages.isolation_namespaces, (True,),
     ["namespaces (bubblewrap)", "only the interpreter", "no network", "a user id of its own"]),
    (sandboxing_messages.isolation_namespaces, (False,), ["a user namespace of its own"]),
    (sandboxing_messages.isolation_limits, (True, "no bwrap"),
     ["limits only (no bwrap)", "user id of its own", "not verified"]),
    (sandboxing_messages.isolation_limits, (False, "no bwrap"),
     ["as the grader's user", "could read what the grader can read"]),
    (sandboxing_messages.isolation_no_bwrap, (), ["bubblewrap is not installed", "apt-get install bubblewrap"]),
    (sandboxing_messages.isolation_refused, ("setting up uid map: Permission denied",), ["could not start a sandbox",
                                                                       "uid map"]),
    (sandboxing_messages.isolation_turned_off, ("HOGKIT_ISOLATION",), ["HOGKIT_ISOLATION=limits"]),
    (sandboxing_messages.isolation_required, ("isolation: limits only (x)",),
     ["--require-isolation", "nothing was graded", "limits only"]),
    (sandboxing_messages.isolation_verified,
     ("limits", "no bwrap", (), False, True, ("seccomp",), ("landlock: old kernel",), "M"),
     ["limits only (no bwrap)", "verified by the child", "kit hidden", "network off", "own identity yes", "memory: M",
      "applied by the child: seccomp", "not available: landlock: old kernel"]),
    (sandboxing_messages.isolation_verified,
     ("namespaces", "", ("/k", "/k/a", "/k/b", "/k/c"), True, False, (), (), "M"),
     ["namespaces (bubblewrap)", "kit READABLE (/k, /k/a, /k/b, ...)", "network OPEN", "own identity no"]),
    (sandboxing_messages.isolation_verified, ("limits", "x", (), False, True, (), (), "M", "", 9),
     ["kit hidden (only the kit's own paths (9) checked; NOT checked: a copy of the kit or of a reference"]),
    (sandboxing_messages.kit_reach, ("namespaces", (), False, 4), ["kit hidden (the kit's own paths (4) checked",
                                                 "the child sees only the system's folders and its own"]),
    (sandboxing_messages.kit_reach, ("limits", (), True, 0), ["kit hidden (the kit's own paths checked",
                                            "Landlock lets the child open only the system's folders"]),
    (sandboxing_messages.kit_reach, ("limits", (), False, 3), ["only the kit's own paths (3) checked", "NOT checked",
                                             "a copy of the kit or of a reference anywhere else on this machine",
                                             "only files' modes hide the rest"]),
    (sandboxing_messages.kit_reach, ("limits", ("/k",), False, 3), ["kit READABLE (/k)"]),
    (sandboxing_messages.landlock_unavailable, (38, True, None, "5.15.0"),
     ["refused by the seccomp filter the grader runs under", "not missing from the kernel", "error 38, ENOSYS",
      "Linux 5.15.0", "landlock_create_ruleset", "--security-opt seccomp=PROFILE"]),
    (sandboxing_messages.landlock_unavailable, (38, True, True, "6.1"), ["whose security modules list Landlock"]),
    (sandboxing_messages.landlock_unavailable, (38, True, False, "6.1"),
     ["not in this kernel (error 38, ENOSYS; Linux 6.1", "Landlock came with Linux 5.13"]),
    (sandboxing_messages.landlock_unavailable, (38, False, None, "5.4"), ["not in this kernel", "Linux 5.4"]),
    (sandboxing_messages.landlock_unavailable, (95, False, False, "6.1"), ["not enabled (error 95", "lsm= list"]),
    (sandboxing_messages.landlock_unavailable, (1, True, None, "6.1"),
     ["refused by the seccomp filter the grader runs under", "error 1, EPERM", "landlock_restrict_self"]),
    (sandboxing_messages.landlock_unavailable, (1, False, None, "6.1"),
     ["refused by this machine's security policy (error 1"]),
    (sandboxing_messages.landlock_unavailable, (22, False, None, "6.1"),
     ["refused by the kernel (error 22; Linux 6.1)"]),
    (sandboxing_messages.memory_bound, ("namespaces", True, True),
     ["address-space limit", "tmpfs mounts capped", "refused by seccomp", "cgroup of its own",
      "kernel memory included"]),
    (sandboxing_messages.memory_bound, ("limits", False, False), ["NOT bounded (no seccomp filter)", "no memory cgroup",
                                                "(files' inodes) is NOT bounded"]),
    (sandboxing_messages.seccomp_unavailable, ("no libseccomp",),
     ["no filter", "no libseccomp", "pip install pyseccomp"]),
    (sandboxing_messages.isolation_verified, ("limits", "x", (), False, True, ("seccomp",), (), "M", "channels C"),
     ["own identity yes, channels C, memory: M; applied by the child: seccomp"]),
    (sandboxing_messages.channels_between_children, ("limits", True),
     ["channels between children closed", "the kernel's key store", "System V IPC", "POSIX message queues", "memfds",
      "every socket", "a file's modes refused by seccomp", "its user's alone"]),
    (sandboxing_messages.channels_between_children, ("namespaces", False), ["NOT all closed (no seccomp filter",
                                                          "the grader's session keyring", "memfds are open"]),
    (sandboxing_messages.channels_between_children, ("limits", False),
     ["channels between children OPEN (no seccomp filter", "System V IPC", "UNIX sockets to the machine's services"]),
    (sandboxing_messages.isolation_secrets_readable, (("/k/tests", "/k/a", "/k/b", "/k/c", "/k/d"), "isolation: x"),
     ["nothing was graded", "/k/tests", ", ...", "chmod -R go-rwx", "Landlock", "(isolation: x)"]),
    (sandboxing_messages.sandbox_reached_secret, ("/k/solution",), ["could read /k/solution", "not graded"]),
    (sandboxing_messages.sandbox_did_not_start, ("timeout",), ["did not answer in time", "before any of its code ran"]),
    (sandboxing_messages.sandbox_did_not_start, ("crashed",), ["ended before any of its code ran"]),
    (sandboxing_messages.link_refusal, ("absent",), ["kit's functions", "not available"]),
    (sandboxing_messages.link_refusal, ("too_large",), ["too large", "kit's functions"]),
    (sandboxing_messages.link_refusal, ("not_plain",), ["{}", "cannot be passed", "tuples, lists and functions"]),
    (sandboxing_messages.link_refusal, ("unreadable",), ["could not be read"]),
    (sandboxing_messages.link_refusal, ("no_default",), ["no default for {}"]),
    (sandboxing_messages.link_refusal, ("no_function",), ["no longer there"]),
    (sandboxing_messages.kit_functions_did_not_start, ("out of memory",),
     ["kit's own process", "other problems' functions", "(out of memory)"]),
    (sandboxing_messages.forkserver_failed, ("no answer",),
     ["fork server", "(no answer)", "HOGKIT_FORKSERVER=off", "bubblewrap"]),
    (sandboxing_messages.sandbox_kept_capabilities, ("CapEff 0000000000200000",),
     ["capabilities (CapEff 0000000000200000)", "nothing was graded", "kit's failure"]),
    (sandboxing_messages.import_note, ("hog.py", 7, "print at the top level was skipped"),
     ["hog.py line 7", "print at the top level"]),
    (sandboxing_messages.syntax_repaired, ("hog.py", 14, "invalid syntax", "roll_dice"),
     ["line 14", "SyntaxError", "invalid syntax", "roll_dice"]),
    (sandboxing_messages.syntax_unrepairable, ("hog.py", 3, "unexpected indent"),
     ["line 3", "SyntaxError", "unexpected indent"]),
    (sandboxing_messages.syntax_repaired, ("hog.py", 3, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?",
                         "a top-level statement"),
     ["instead of '='? So that the rest could run, a top-level statement was left out", "whatever needs it fails"]),
    (sandboxing_messages.load_hung, (3,), ["3 top-level statements", "hung or ended the program"]),
]


@pytest.mark.parametrize(("fn", "args", "needles"), EXPECTATIONS, ids=ids(EXPECTATIONS))
def test_message_carries_what_it_must(fn: Callable[..., str], args: tuple, needles: list[str]) -> None:
    carries(fn, args, needles)
