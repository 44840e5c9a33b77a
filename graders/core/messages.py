"""Every sentence the kit shows a student or an instructor, in one place.

Each function returns text and nothing else; tests call each one and look for the names, numbers
and commands it must carry. A message names the problem and the function, shows expected and
got with whitespace made visible, and says what to run next. The submission's file name is a
parameter (``filename``), never assumed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

MOST_SHOWN = 400  # characters of one expected or got value before it is clipped

# -- making text visible -------------------------------------------------------------------------


def visible(text: str | None) -> str:
    """TEXT with its invisible parts shown: trailing spaces as '·', tabs as '→', nothing as '(nothing)',
    other control characters written out (``\\x1b``), so a terminal shows them rather than obeys them."""
    if text is None or text == "":
        return "(nothing)"
    text = clip(text)
    lines = []
    for line in text.split("\n"):
        body = line.rstrip(" ")
        line = printable(body + "·" * (len(line) - len(body)))
        lines.append(line.replace("\t", "→") if line else "⏎")
    return "\n".join(lines)


LABEL_NOT_SCORED = "no points (not counted)"


def case_group(about: str, cases: int) -> str:
    """A kind of case in the class summary: what it checks, and how many cases it holds when several."""
    return f"{about} ({cases} cases)" if cases > 1 else about


def and_more(n: int) -> str:
    return f"and {n} more"


WHITESPACE_MARKS = (("·", "a space"), ("→", "a tab"), ("⏎", "an empty line"))


def whitespace_legend(shown: str) -> str:
    """What the marks ``visible`` used in SHOWN stand for; '' when it used none."""
    used = [f"{mark} is {meaning}" for mark, meaning in WHITESPACE_MARKS if mark in shown]
    return f"({', '.join(used)})" if used else ""


def printable(text: str, keep: str = "\t ") -> str:
    """TEXT with every control character but those in KEEP (tab and space) written out (``\\x1b``):
    safe to print anywhere."""
    return "".join(c if c.isprintable() or c in keep else f"\\x{ord(c):02x}" for c in text)


def clip(text: str, most: int = MOST_SHOWN) -> str:
    if len(text) <= most:
        return text
    return text[:most] + f"… ({len(text) - most} more characters)"


def indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else prefix.rstrip() for line in text.split("\n"))


# -- labels of the text report -------------------------------------------------------------------

LABEL_EXPECTED = "expected: "
LABEL_GOT = "got:      "
LABEL_NOTE = "note: "
LABEL_HIDDEN = " (hidden)"
LABEL_OPTIONAL = " (optional)"
LABEL_ADVICE = "advice, no points lost: "


def total_with_checkpoint(total: int, most: int, label: str, score: int, of: int) -> str:
    return (f"Total: {total}/{most} for the problems, plus {score}/{of} for the {label}: a score of "
            f"{total + score}")


def total_line(score: int | str, most: int | str) -> str:
    return f"Total: {score}/{most}"


def course_points_line(score: int, most: int, course: int) -> str:
    return (f"In the course: {points_text(score * course / most)} of its {course} points "
            f"(the project's {most} points count as {course})")


def case_heading(name: str, hidden: bool) -> str:
    return f"Case {name!r}{LABEL_HIDDEN if hidden else ''}:"


# -- commands ------------------------------------------------------------------------------------


def student_command(label: str, flag: str = "") -> str:
    return f"python3 ok -q {label}{' ' + flag if flag else ''}"


def instructor_command(path: str, label: str, edition: str | None) -> str:
    """EDITION is None for the default edition, so the command stays short."""
    ed = f" --edition {edition}" if edition else ""
    return f"hogkit grade {path}{ed} -q {label} --verbose"


# -- one step ------------------------------------------------------------------------------------


def printed_not_returned(got: str) -> str:
    return (f"expected nothing to be displayed but {visible(got)} was printed: the function prints its result "
            f"instead of returning it (print shows a value on the screen; return gives it back to the code "
            f"that called the function, which is what these cases use)")


def wrong_output(expected: str | None, got: str | None) -> str:
    exp, g = expected or "", got or ""
    if exp and not g:
        return f"expected {visible(exp)} but nothing was displayed (a function without a return gives None)"
    exp_lines, got_lines = exp.split("\n"), g.split("\n")
    if len(got_lines) > len(exp_lines) and got_lines[-len(exp_lines):] == exp_lines:
        return (
            f"printed {len(got_lines) - len(exp_lines)} extra line(s) before the expected {visible(exp)}; "
            "only lines that start with DEBUG: are ignored (remove the print or @trace, or start it with DEBUG:)"
        )
    if g == repr(exp) or g == repr(exp).replace("'", '"'):
        return f"expected {visible(exp)} but got {visible(g)}: the quotes show a str was returned, not a number"
    if "\n" not in exp and "\n" not in g:
        return f"expected {visible(exp)} but got {visible(g)}"
    for n in range(max(len(exp_lines), len(got_lines))):
        e = exp_lines[n] if n < len(exp_lines) else None
        o = got_lines[n] if n < len(got_lines) else None
        if e != o:
            return f"output line {n + 1} differs: expected {visible(e)} but got {visible(o)}"
    return "the output differs"


def raised(error: dict, filename: str) -> str:
    where = f" ({filename} line {error['line']})" if error.get("line") else ""
    message = clip(str(error.get("message", "")).strip())
    return f"raised {error.get('type', 'an error')}{': ' + message if message else ''}{where}"


def expected_error_but_none(got: str | None) -> str:
    return f"expected an error, but the line finished and displayed {visible(got)}"


def wrong_error_type(expected_type: str, error: dict, filename: str) -> str:
    return f"expected {expected_type} but {raised(error, filename)}"


def timed_out(seconds: float) -> str:
    return f"did not finish within {seconds:g} s; look for a loop that never ends"


def still_running(seconds: float) -> str:
    return f"(still running after {seconds:g} s)"


def expected_loop_but_finished() -> str:
    return "expected an endless loop, but the line finished"


def crashed() -> str:
    return "the program ended during this line (os._exit, a crash, or a resource limit), so no value came back"


def not_a_function(got: str) -> str:
    return f"expected a function but got {visible(got)}"


VALUE_NOTES = {
    "big_int": "a whole number too large to show",
    "deep": "nested too deeply to show",
    "long": "too long to show",
    "no_message": "(the error message could not be shown)",
}


def value_note(code: str) -> str:
    return VALUE_NOTES.get(code, code)


def object_value(note: str) -> str:
    return f"<a value of type {note}; only int, float, bool, str, None, tuples and lists are compared>"


def function_value(name: str) -> str:
    return f"<function {name}>"


def output_cut() -> str:
    return "(the output was cut short: too much was printed)"


# -- problems ------------------------------------------------------------------------------------


def not_run() -> str:
    return "not run: an earlier case of this problem never finished or ended the program"


def run_out_of_time() -> str:
    return "the whole grading run reached its time limit"


def unreadable_submission(filename: str) -> str:
    return f"{filename} could not be read as Python"


def could_not_load(filename: str) -> str:
    return f"{filename} could not be loaded: every attempt to run its top-level code hung or ended the program"


def missing_function(filename: str, name: str, close: list[str]) -> str:
    hint = f" (found {', '.join(close)}; names must match exactly)" if close else ""
    return f"{filename} has no function named {name}{hint}"


def removed_for_syntax(name: str, filename: str, line: int) -> str:
    return f"{name} has a syntax error at {filename} line {line}, so it could not be checked"


def dependency_hint(failed: list[tuple[str, str]]) -> str:
    """Said first in the reason of a failed problem whose public cases call problems that fail too
    (its hidden cases call the kit's own functions of other problems, so these cost points here
    only through the public cases)."""
    if len(failed) == 1:
        (label, name), = failed
        return (f"Problem {label} {name} fails too, and this problem's public cases call it: fix {label} "
                f"first (its hidden cases use the kit's own {name}).")
    named = [f"{label} ({name})" for label, name in failed]
    listed = ", ".join(named[:-1]) + " and " + named[-1]
    return (f"This problem's public cases call Problems {listed}, which fail too: fix those first (its hidden "
            f"cases use the kit's own).")


def hinted_reason(hint: str, reason: str) -> str:
    """A problem's REASON after a HINT that ends a sentence: the reason starts one of its own."""
    return f"{hint} {reason[:1].upper()}{reason[1:]}".strip()


def cases_not_run(count: int) -> str:
    return (f"{count} case{'s were' if count != 1 else ' was'} not run, because an earlier case never "
            f"finished or ended the program; fix that one first")


def hidden_only_failed() -> str:
    return ("Only hidden cases failed; they are named, by what they test, in this problem's hidden-case "
            "result once grades are published.")


def advice_case(name: str, reason: str) -> str:
    return f"the case {name!r} " + (f"shows it: {reason}" if reason else "shows it")


def hidden_cases_failed(groups: list[tuple[str, int, int]]) -> str:
    """Hidden cases, each group by what it is about (never by its source): (about, failed, of)."""
    parts = [about + (f" ({failed} of {total})" if total > 1 else "") for about, failed, total in groups]
    count = sum(failed for _, failed, _ in groups)
    return f"{count} hidden case{'s' if count != 1 else ''} failed: " + "; ".join(parts)


def locked(label: str) -> str:
    return f"locked: unlock it first with `{student_command(label, '-u')}`"


def case_failed(case_name: str, reason: str) -> str:
    return f"{case_name}: {reason}"


def rule_broken(rule_text: str, detail: str) -> str:
    return f"{rule_text}: {detail}"


def cases_passed(passed: int, total: int) -> str:
    return f"{passed}/{total} cases passed"


def rerun_student(label: str) -> str:
    return f"Run `{student_command(label)}` to check this problem again (add -i to explore on failure)."


def rerun_instructor(path: str, label: str, edition: str | None) -> str:
    return f"Rerun just this problem with `{instructor_command(path, label, edition)}`."


def import_note(filename: str, line: int, message: str) -> str:
    return f"{filename} line {line}: {message}" if line else f"{filename}: {message}"


def skipped_statement(what: str) -> str:
    """WHAT is 'never finished' or 'ended the program'."""
    return f"this top-level statement {what} while the file was loading, so it was skipped"


def exited_while_loading(kind: str, detail: str) -> str:
    code = f"({detail})" if detail else "()"
    return f"{kind}{code} ran while the file was loading; that statement was skipped"


def sentence(text: str) -> str:
    """TEXT ending as a sentence ends: Python's own messages sometimes end in '?' or '.' already."""
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


def syntax_repaired(filename: str, line: int, message: str, name: str) -> str:
    return (
        f"{filename} line {line}: SyntaxError: {sentence(message)} So that the rest could run, {name} was "
        f"left out; whatever needs it fails"
    )


def does_not_run(filename: str, line: int, message: str) -> str:
    return (f"{filename} does not run as it is: Python stops at line {line} ({message.strip().rstrip('.')}). The rest "
            f"was graded around it, but fix that line first: `python3 {filename}` must run without an error.")


def syntax_unrepairable(filename: str, line: int, message: str) -> str:
    return f"{filename} line {line}: SyntaxError: {sentence(message)} Nothing could be graded; fix this line first"


def syntax_stub(name: str, filename: str, line: int, message: str) -> str:
    """What calling a function that was left out for a syntax error raises."""
    return f"{name} has a syntax error at {filename} line {line}: {message}"


def debug_lines_note(count: int) -> str:
    return f"{count} DEBUG line{'s' if count != 1 else ''} printed (never part of the comparison):"


def debug_lines_of_case(name: str, hidden: bool, count: int) -> str:
    """Above the DEBUG lines a case that passed printed."""
    return f"Case {name!r}{LABEL_HIDDEN if hidden else ''} passed; {debug_lines_note(count)}"


# -- shape rules ---------------------------------------------------------------------------------

FORBIDDEN_WORDS = {
    "str": "str (or another way of turning a number into text: repr, format, an f-string or a string % values; "
           "n % 10 on numbers is fine)",
    "lists": "lists (list(), a list display or a comprehension)",
    "square brackets": "square brackets (indexing, slicing, list displays or list comprehensions)",
    "for loops": "for loops (use a while loop)",
}


RULE_FRAGMENTS = {
    "uses": "uses {0}",
    "imports": "imports {0}",
    "f-string": "uses an f-string",
    "percent": "formats text with %",
    "string-method": "calls .{0} on a string",
    "type-call": "calls a type it looked up with type(...)",
    "list-display": "builds a list",
    "comprehension": "uses a comprehension",
    "subscript": "uses square brackets to index or slice",
    "bracket-list": "uses square brackets to build a list",
    "for": "uses a for loop",
    "for-comprehension": "uses for inside a comprehension",
}


def rule_forbids(function: str, words: tuple[str, ...]) -> str:
    return f"{function} uses no " + ", no ".join(words)


def rule_uses(function: str, names: tuple[str, ...]) -> str:
    return f"{function} uses " + " and ".join(names)


def rule_where(line: int, owner: str | None, function: str) -> str:
    via = "" if owner in (None, function) else f" (in {owner}, which {function} uses)"
    return f"line {line}{via}"


def rule_not_checked(function: str, filename: str, seconds: float) -> str:
    return (f"this rule could not be checked: the checks of {filename}'s shape rules ran past their limit of "
            f"{seconds:g} s of processor time ({filename} is far larger or more deeply nested than any {function} "
            f"needs)")


def rule_escape(where: str, name: str) -> str:
    return f"{where} uses {name}, which could hide code from this check"


def rule_violation(where: str, what: str, function: str, word: str) -> str:
    return f"{where} {what}; {function} must not use {FORBIDDEN_WORDS.get(word, word)}"


def rule_missing_calls(function: str, missing: list[str]) -> str:
    return f"{function} should call {' and '.join(missing)} instead of repeating their work"


# -- submissions and command lines ---------------------------------------------------------------


REASON_IS_A_FOLDER = "it is a folder"


def reason_no_folder(folder: str) -> str:
    return f"there is no folder {folder}; make it first if that is the place you meant"


def cannot_write(path: str, why: str) -> str:
    return f"cannot write {path} ({why}): choose an output path in a folder you can write; nothing was done"


def unrecognized_arguments(extra: str) -> str:
    return f"unrecognized arguments: {extra}"


def no_such_path(path: str) -> str:
    return f"no such file or folder: {path}"


def no_hog_in_folder(path: str, filename: str) -> str:
    return (
        f"{path} is a folder without {filename}; pass the folder that holds {filename} or the file itself"
    )


def class_folder_hint() -> str:
    return "to grade a class folder (one submission per student), add --out OUTDIR"


def not_python(path: str, why: str) -> str:
    return f"{path} is not a Python file ({why})"


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


def used_too_much_memory(limit: int) -> str:
    return f"its processes together used more than {limit // (1024 * 1024)} MiB of memory, so they were stopped"


def python_refuses(path: str, reason: str, line: int | None) -> str:
    """Python itself would not run the file: its own reason, and the line where it gave up."""
    where = f", line {line}" if line else ""
    return not_python(path, f"Python refuses to read it{where}: {reason}")


def too_large(path: str, limit: int) -> str:
    return f"{path} is larger than {limit // 1024} KiB, which no submission needs"


def not_a_notebook() -> str:
    return "it is not a saved Jupyter notebook; open it in Jupyter and save it again, or hand in hog.py"


def source_too_large(path: str, size: int, limit: int) -> str:
    return (f"{path} holds {size / 1024:,.0f} KiB of code, more than the {limit // 1024} KiB a submission may have "
            f"(a finished hog.py is 15 to 40 KB), so it was not graded")


def notebook_warnings(path: str, count: int, first: str) -> str:
    times = "once" if count == 1 else f"{count:,} times"
    return (f"{path}: reading this notebook gave a warning {times} (the first: {first.rstrip('.')}); its code "
            f"cells were graded as they are")


def notebook_invalid(why: str) -> str:
    return f"the notebook does not follow the notebook format ({why})"


def unreadable_notebook(path: str, why: str) -> str:
    return f"{path} is not a notebook that can be read ({why})"


def zip_without(path: str, filename: str) -> str:
    return f"{path} holds no {filename}"


def unreadable_zip(path: str, why: str) -> str:
    return f"{path} is not a zip file that can be read ({why})"


def unsupported_entry(path: str) -> str:
    return f"{path} is not a submission: hand in a folder holding the file, a .py file, a .ipynb notebook or a .zip"


def unreadable_entry(path: str, why: str) -> str:
    return f"{path} could not be read ({why})"


def entry_is_link(path: str) -> str:
    return (f"{path} is a symbolic link, which is never followed (it could point at anything on this "
            f"machine); hand in the file or folder itself")


def entry_not_a_file(path: str) -> str:
    return f"{path} is not a regular file (a FIFO, a device or a socket), so it was not opened"


def duplicate_student(student: str, names: str) -> str:
    return f"two submissions have the id {student!r} ({names}); keep one and grade again"


def out_needs_a_class_folder(path: str) -> str:
    return (f"--out is for a class folder (one submission per student), and {path} is a single file: grade it "
            f"alone with hogkit grade {path}, or put it in a folder and grade the folder with --out")


def one_submission_not_a_class(path: str, filename: str, command: str) -> str:
    alone = f"hogkit grade {path}" if command in ("grade", "report") else f"hogkit winrate {path}"
    return (f"{path} holds {filename} itself, so it is one submission, not a class folder (a folder with one "
            f"submission per student): use {alone} for it alone, or give the folder that holds such folders")


def files_skipped(names: list[str]) -> str:
    shown = ", ".join(printable(n) for n in names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    return f"skipped, not submissions (only folders, .py, .ipynb and .zip files are): {shown}"


def empty_class(path: str) -> str:
    return f"{path} holds no submissions (folders, .py, .ipynb or .zip files)"


COUNT_SUBMISSIONS, COUNT_STRATEGIES, COUNT_PAIRS = "submissions graded", "strategies tabulated", "pairs solved"


def class_progress(done: int, total: int, eta: str, what: str = COUNT_SUBMISSIONS) -> str:
    width = 30
    filled = width * done // total if total else width
    return f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what}  ETA {eta}"


def class_summary_line(graded: int, total: int, problems: int, seconds: float, out: str) -> str:
    missed = f" ({total - graded} could not be graded; see grades.csv)" if graded < total else ""
    return f"Graded {graded} of {total} submissions{missed} in {seconds:.1f} s. Results are in {out}"


# -- a class split across machines: --shard K/N, then hogkit merge ----------------------------------

COUNT_MERGED = "submissions merged"


def shard_expected(text: str) -> str:
    return (f"--shard needs K/N, this machine's share K of N shards, with whole numbers 1 <= K <= N "
            f"(say 2/3), not {text!r}")


def shard_needs_out() -> str:
    return "--shard grades a share of a class folder: give the folder to write it to with --out OUTDIR"


def shard_written(shard: str, graded: int, total: int, seconds: float, out: str) -> str:
    count = shard.partition("/")[2]
    return (f"Shard {shard}: graded {graded} of its {total} submissions in {seconds:.1f} s; its files are in {out}. "
            f"Once all {count} shards are done, combine them with `hogkit merge OUTDIR1 ... OUTDIR{count} --out "
            "OUTDIR`, which writes the class's tables")


def shard_out_inside_class(out: str, folder: str) -> str:
    return (f"{out} is inside the class folder {folder}: the other shards would take it for a submission; "
            "write each shard's output outside the class folder")


def not_a_shard(out: str, manifest: str) -> str:
    return (f"{out} is not the output of a finished shard (it has no {manifest}): grade it with "
            f"`hogkit grade CLASS --out {out} --shard K/N` and let it finish")


def bad_shard_file(path: str) -> str:
    return f"{path} cannot be read as a shard's description: grade that shard again with --shard K/N"


def merge_nothing() -> str:
    return "hogkit merge needs the output folders of the shards to combine"


def shard_mismatch(first: str, first_shard: str, other: str, other_shard: str) -> str:
    return (f"{other} (shard {other_shard}) is not a shard of the same class as {first} (shard {first_shard}): "
            "the class's submissions, the number of shards, the edition, the kit, or whether a course (and "
            "--trust-file-times) was given differ; grade every shard of the class folder as it is now, with "
            "the same N, options and kit")


def shard_twice(shard: str, first: str, other: str) -> str:
    return f"shard {shard} is given twice, in {first} and in {other}: give each shard once"


def shards_missing(missing: Sequence[str], count: int) -> str:
    which = ", ".join(missing)
    return (f"missing shard{'s' if len(missing) != 1 else ''} {which} of the {count}: grade "
            f"{'them' if len(missing) != 1 else 'it'} with --shard and give every shard's output folder to "
            "hogkit merge")


def shard_other_kit(out: str) -> str:
    return (f"the shards in {out} and beside it were graded by another version of the kit than this one: "
            "merge them with the kit that graded them, or grade them again with this one")


def shard_class_changed(folder: str) -> str:
    return (f"{folder} no longer holds the submissions the shards graded (one was added, removed or renamed): "
            "grade every shard again (each resumes what it already graded), then merge; or give the class "
            "folder as it was with --class")


def merge_class_elsewhere(folder: str) -> str:
    return (f"the shards read the class folder at {folder}, which is no folder here (graded on another machine, "
            "or moved since): give the class folder as it is here with --class CLASSDIR")


def shard_record_missing(student: str, shard: str, out: str) -> str:
    return (f"shard {shard} ({out}) has no record of {student}'s submission as the class folder holds it now: "
            f"grade shard {shard} again (it resumes), then merge")


def merge_out_not_empty(out: str) -> str:
    return (f"{out} is not empty and is not an earlier run of this same merge: give an empty or new folder "
            "with --out")


def merge_summary_line(entries: int, count: int, seconds: float, out: str) -> str:
    return f"Merged {entries} submissions from {count} shards in {seconds:.1f} s. Results are in {out}"


def class_stopped(kept: int, left: int) -> str:
    """Said once a stopped class grade has written what it keeps: the submissions that were running
    were ended, not finished, and those and the ones not started have no record."""
    rest = (f"; {left} {'have' if left != 1 else 'has'} no record (ended while running, or not started): run "
            f"the same command again to grade {'them' if left != 1 else 'it'}" if left else "")
    return f"stopped: {kept} graded submission{'s' if kept != 1 else ''} kept{rest}"


def class_stopping(running: int) -> str:
    """Said at once on the first Ctrl-C of a class grade: the running submissions' children are
    ended, what finished before is kept, and a rerun grades the rest."""
    return (f"stopping: finishing {running} running submission{'s' if running != 1 else ''} "
            "(Ctrl-C again to stop at once)")


def class_retrying(count: int) -> str:
    return f"grading {count} submission{'s' if count != 1 else ''} again, one at a time, after a failure of the kit"


def class_regrading(labels: Sequence[str], count: int) -> str:
    """A rerun whose kit changed only in some problems' cases: what it grades again, and what it keeps."""
    if len(labels) == 1:
        problems, changed = f"Problem {labels[0]}", f"Problem {labels[0]}'s cases changed"
    else:
        problems = "Problems " + ", ".join(labels[:-1]) + " and " + labels[-1]
        changed = f"the cases of {problems} changed"
    whose = f"{count:,} submission's" if count == 1 else f"{count:,} submissions'"
    return f"{changed}: regrading {whose} {problems}; every other result kept"


# -- failures of the kit (never the student's) -------------------------------------------------


def contest_kit_failed(summary: str) -> str:
    """Why an entry takes no part in the contest when the kit failed on it."""
    return (f"Not in the contest: the kit failed while tabulating this strategy ({summary}). This is not the "
            f"student's fault; run the same hogkit contest command again.")


def kit_failed_row(summary: str) -> str:
    """The reason of a class row the kit could not grade (after a second try)."""
    return (f"Not graded: the kit failed while grading this submission ({summary}). This is not the "
            f"student's fault and no score was given. Run the same hogkit grade command again to regrade "
            f"it; the traceback is in {KIT_LOG_NAME} beside grades.csv.")


def kit_failed_on_gradescope(summary: str) -> str:
    """The staff's reason, on Gradescope, for a submission the kit could not grade (after a second
    try): Gradescope has no grades.csv, no kit-errors.log and no hogkit command to run again."""
    return (f"Not graded: the kit failed while grading this submission ({summary}). This is not the "
            f"student's fault and no score was given. The traceback is this test's output (staff only). "
            f"Once the cause is fixed (a new autograder zip from hogkit gradescope, if the kit needed one), "
            f"regrade it with Gradescope's Rerun Autograder (or Regrade All Submissions).")


KIT_LOG_NAME = "kit-errors.log"


def kit_failures_line(count: int, log: str) -> str:
    """Printed after a class run in which the kit failed on some submissions."""
    return (f"The kit failed on {count} submission{'s' if count != 1 else ''} (not the students' fault; their "
            f"rows say 'kit error' and carry no score). Tracebacks: {log}. Run the same command again to "
            f"regrade them.")


def kit_failed_single(path: str, summary: str) -> str:
    return (f"the kit failed twice while grading {path}, so nothing was scored ({summary}); this is a fault of "
            f"the kit, not of the submission. The traceback follows; run the same command again, and "
            f"report it if it keeps failing.")


def kit_failed_student(summary: str) -> str:
    return (f"the kit failed while running your tests ({summary}); this is not your code's fault. Run the "
            f"same command again; if it keeps failing, show this message to your course staff.")


def kit_failed_gradescope() -> str:
    return ("This submission could not be graded: the autograder itself failed, not your code. The 0 shown "
            "is a placeholder, not your grade; course staff can see what went wrong and will regrade it.")


def kit_failed_feedback() -> str:
    """What a student reads in their feedback when the kit could not grade their submission."""
    return ("Your submission could not be graded: the grading kit failed, not your code. This is not a grade; "
            "your course staff have been told and will grade it again.")


def grader_did_not_start() -> str:
    return ("the grader did not start or did not finish (run_autograder found no results.json): look at "
            "the autograder's output above, then rerun setup.sh or rebuild with hogkit gradescope")


def kit_failed_staff(summary: str, attempts: int) -> str:
    tries = "after two attempts" if attempts >= 2 else "on its only attempt"
    return f"Grading failure of the kit (staff only), {tries}: {summary}"


def kit_log_heading(student: str, reason: str) -> str:
    return f"== {student}: {reason}"


def kit_log_retried_heading(student: str) -> str:
    return f"== {student}: graded on the second attempt (the kit failed on the first, below; not the student's fault)"


def kit_log_first_attempt() -> str:
    return "-- the first attempt:"


def kit_failures_summary(count: int) -> str:
    return (f"The kit failed on {count} submission{'s' if count != 1 else ''} (status 'kit error'): not the "
            f"students' fault, no score given; see {KIT_LOG_NAME} and rerun to regrade.")


def class_reused(count: int) -> str:
    return f"{count} unchanged submission{'s' if count != 1 else ''} kept from the last run (use --force to regrade)"


def pytest_table_title() -> str:
    return "cases per problem (python3 ok shows the same with points)"


def pytest_problem_line(label: str, passed: int, failed: int, skipped: int) -> str:
    mark = "✗" if failed else ("✓" if passed else "🔒")
    parts = [f"{passed} passed"] + ([f"{failed} failed"] if failed else []) + \
        ([f"{skipped} skipped ({student_command(label, '-u')} unlocks them)"] if skipped else [])
    return f"  {mark} Problem {label}: " + ", ".join(parts)


def notebook_checks_intro(filename: str = "hog.py") -> str:
    stem = filename.rsplit(".", 1)[0]
    return ("Run the next cell first. After each problem's code, a cell `check(\"NN\")` runs that problem's "
            "tests on the code this notebook has run, as `python3 ok -q NN` does in a terminal. Unlock a "
            "problem's questions in a terminal first: `python3 ok -q NN -u`.\n\n"
            f"**Handing in:** save this notebook, then run `python3 ok --zip` in a terminal in this folder. It "
            f"writes `{stem}_submission.zip` holding this notebook's code as `{filename}` (or `{filename}` itself, "
            f"if that is where you worked) and says what it scores on the public tests: upload that zip on "
            f"Gradescope.")


def notebook_outside_folder() -> str:
    return ("The checks cannot be loaded: this notebook is running outside its project folder. Open it from "
            "the folder that holds `ok`, `graders/` and `tests/` (start Jupyter there), then run this cell again.")


def notebook_provided() -> str:
    return "## Provided functions\n\nThese come with the project; leave them as they are and run this cell too."


YOUR_SUBMISSION = "your submission"


def notebook_place(notebook: str, cell: int, line: int) -> str:
    return f"{notebook}, code cell {cell} line {line}"


def nothing_handed_in(filename: str) -> str:
    stem = filename.rsplit(".", 1)[0]
    return (f"your submission holds no {filename}: hand in {filename}, the notebook handout.ipynb, or the zip "
            f"`python3 ok --zip` writes ({stem}_submission.zip)")


TOTAL_PROBLEMS = "the problems"
TOTAL_CHECKPOINT = "the checkpoint"
TOTAL_EARLY = "the early bonus"


def autograder_written(path: str, parts: list[tuple[str, float]] | None = None) -> str:
    done = f"Wrote the Gradescope autograder to {path}: upload it as the assignment's autograder zip"
    if not parts:
        return done
    total = points_text(sum(points for _, points in parts))
    made_of = ", ".join(f"{points_text(points)} for {what}" for what, points in parts)
    return f"{done}.\nSet the assignment's total points on Gradescope to {total} ({made_of})."


def no_analysis(edition: str) -> str:
    return (f"edition {edition!r} describes no game of dice in its manifest ([game] kind = \"dice\"), so it "
            "cannot be analysed exactly")


def dice_not_modelled(edition: str, sides: str, dice: tuple[int, int], faces: int, most: int) -> str:
    return (f"edition {edition!r} plays {dice[0]} to {dice[1]} dice of a die with sides {sides!r} ([game] sides, "
            f"dice); the exact analysis solves 0 to {most} dice of a {faces}-sided die only")


def game_key_of_other_kind(where: str, key: str, kind: str, other: str) -> str:
    return (f"{where} {key}: only a game of kind {other!r} takes this key, and this table says "
            f"kind = {kind!r}")


def no_game_baseline(edition: str) -> str:
    return (f"edition {edition!r} names no baseline in its [game] table, so there is no strategy to compare "
            "against: give one with --against")


def turn_must_gain(edition: str) -> str:
    return (f"edition {edition!r} has a turn that does not raise the mover's score, so its game is not "
            "finite in the scores alone and cannot be analysed exactly")


def roll_depends_on_opponent() -> str:
    return ("a roll's effect depends on the opponent's score in this edition, which the exact analysis "
            "does not model")


def strategy_bad_value(score: int, opponent: int, got: str) -> str:
    return f"strategy({score}, {opponent}) returned {got}; a strategy returns an int from 0 to 10"


def reference_strategy_failed(expression: str, edition: str, why: str) -> str:
    """A strategy expression (``--against``, ``--strategy`` or the manifest's baseline) that the
    reference of EDITION cannot turn into a strategy."""
    return (f"{expression!r} is not a strategy of the {edition} reference ({why}); give the name of a "
            f"strategy the reference defines, such as always_roll(6) or final_strategy")


def strategy_unsteady(score: int, opponent: int) -> str:
    return f"strategy({score}, {opponent}) gave two different answers; a strategy must be deterministic"


def strategy_not_a_table() -> str:
    return "the strategy could not be tabulated"


def strategy_too_slow(expression: str, seconds: float) -> str:
    return f"{expression} did not answer for every pair of scores within {seconds:g} s"


def strategy_crashed(expression: str) -> str:
    return f"{expression} ended the program while it was being tabulated"


def strategy_raised(expression: str, error: dict, filename: str) -> str:
    if error.get("type") == "NameError":  # a name the file does not define: most often a typo
        return (f"{expression} names something {filename} does not define ({error.get('message', '')}): check "
                f"the spelling, or define it in {filename}")
    return f"{expression} {raised(error, filename)}"


def win_rate_lines(strategy: str, against: str, rates: dict) -> str:
    playing = f"{strategy}, playing against it" if strategy == best_response_to(against) else \
        f"{strategy} against {against}"
    return (
        f"{playing}, exactly:\n"
        f"  going first   {100 * rates['first']:.2f}%\n"
        f"  going second  {100 * rates['second']:.2f}%\n"
        f"  average       {100 * rates['average']:.2f}%"
    )


def final_strategy_rate(rate: float, baseline: str) -> str:
    return f"exact win rate against {baseline}: {100 * rate:.2f}% (averaged over going first and second)"


def picture_dice_title(strategy: str) -> str:
    return f"{strategy}: dice rolled for each pair of scores"


def picture_tactic_title(strategy: str) -> str:
    return f"{strategy}: its tactic's choice for each pair of scores, at a few turn totals"


def picture_win_title(strategy: str, against: str) -> str:
    return f"{strategy} against {against}: chance to win, about to move"


def histogram_title(count: int) -> str:
    return f"Total scores ({count} submission{'s' if count != 1 else ''} graded)"


def matrix_title(title: str) -> str:
    return f"{title}: each entry's chance to beat each other entry"


def table_heading(against: str, edition: str, average: float) -> str:
    return (f"The exact best response to {against} in {edition}, written by hogkit optimal: it wins "
            f"{100 * average:.2f}% of games against it on average.")


def table_written(path: str, filename: str) -> str:
    return (f"Wrote the best response to {path}: BEST_RESPONSE (one string per score, one character per "
            f"opponent score, X = 10) and a final_strategy that reads it, to paste into {filename}")


def picture_written(path: str) -> str:
    return f"Wrote the picture to {path}"


def leaderboard_line(rank: int, student: str, points: int, average: float) -> str:
    return f"{rank:>4}. {student:<24} {points:>4} match points   {100 * average:6.2f}% on average"


def leaderboard_more(count: int) -> str:
    return f"      … {and_more(count)} in leaderboard.csv"


def contest_invalid(students: list[str]) -> str:
    shown = ", ".join(students[:5]) + (f", {and_more(len(students) - 5)}" if len(students) > 5 else "")
    return (f"{len(students)} entr{'y' if len(students) == 1 else 'ies'} could not play ({shown}): "
            f"leaderboard.csv and contest.html say why")


def contest_written(path: str) -> str:
    return f"The leaderboard and the win-rate matrix are in {path} (leaderboard.csv, contest.html)"


def release_target_not_empty(path: str) -> str:
    return f"{path} already holds files; choose an empty or new folder for the bundle"


def released(path: str, archive: str) -> str:
    return f"Wrote the student bundle to {path} and {archive}"


def jobs_expected(jobs: str) -> str:
    return f"--jobs needs a whole number of 1 or more, not {jobs!r}"


def unknown_problem(label: str, first: str, last: str, parts: tuple[str, ...] | list[str] = ()) -> str:
    if parts:
        return (f"problem {label} comes in parts: {' and '.join(parts)}; name one, such as -q {parts[0]} "
                f"(or give -q once for each)")
    return f"there is no problem {label}; problems are {first} to {last}"


def problem_number_expected(text: str) -> str:
    return f"-q expects a problem number such as 01 (or a part such as 05a), not {text!r}"


def unknown_edition(name: str, known: list[str]) -> str:
    return f"unknown edition {name!r} (known editions: {', '.join(known) or 'none'})"


def not_a_project_folder(folder: str) -> str:
    return f"{folder} has no tests/edition.json; run this from your project folder"


# -- the kit's own data files (graders.core.tables): WHERE is the file and the table -----------------


def expected_dice_range(most: int) -> str:
    return f"[fewest, most]: two whole numbers from 0 to {most}, fewest first"


def table_unknown_key(where: str, key: str, known: list[str]) -> str:
    return f"{where}: unknown key {key!r} (known keys: {', '.join(known)})"


def table_missing_key(where: str, key: str, expected: str) -> str:
    return f"{where}: missing key {key!r} ({expected})"


def table_wrong_type(where: str, expected: str, got: str) -> str:
    return f"{where}: should be {expected}, not {got}"


def table_wrong_item(where: str, expected: str, got: str) -> str:
    return f"{where}: every item should be {expected}, not {got}"


def table_not_a_table(where: str, got: str) -> str:
    return f"{where}: should be a table of keys and values, not {got}"


def manifest_undeclared_phase(where: str, phase: int) -> str:
    return f"{where}: phase {phase} is not declared in [[phases]]"


def manifest_repeated_problem(where: str, label: str) -> str:
    return f"{where}: problem {label} appears twice"


def manifest_bad_dependency(where: str, label: str, dependency: str) -> str:
    return f"{where}: problem {label} depends on {dependency}, which is not an earlier problem"


def kit_not_found() -> str:
    return ("cannot find the kit's editions (a folder with tests/ and graders/); run hogkit from the kit's "
            "folder, install it with `pip install -e .`, or set HOGKIT_ROOT")


def gui_table_missing(where: str) -> str:
    return f"{where}: missing: this edition does not say how the web page plays a game"


def gui_variants_needed(where: str) -> str:
    return f"{where}: needs at least one, each with its own id"


def transcript_text_before_prompt(where: str, line: int, text: str) -> str:
    return f"{where}: line {line} of the transcript comes before any '>>> ' prompt: {text!r}"


def transcript_no_prompt(where: str) -> str:
    return f"{where}: the transcript has no '>>> ' lines"


def include_missing(where: str, file: str) -> str:
    return f"{where}: no such file {file!r}"


def case_rule_unknown(where: str, function: str) -> str:
    return f"{where}: rule {function!r} names no shape rule of this problem"


def unlock_answer_not_a_choice(where: str, answer: str) -> str:
    return f"{where}: the answer {answer!r} is not one of the choices"


def unlock_needs_a_prompt(where: str) -> str:
    return f"{where}: needs either choices or a transcript with at least one output"


def template_one_kind(where: str, given: list[str]) -> str:
    return f"{where}: give one of params, range and random, not {' and '.join(given)}"


# -- the solution's problem markers (graders.editions.markers) ------------------------------------------


def marker_nested(line: int, inner: str, outer: str) -> str:
    return f"line {line}: BEGIN PROBLEM {inner} inside PROBLEM {outer}"


def marker_unmatched_end(line: int, problem: str) -> str:
    return f"line {line}: END PROBLEM {problem} without a matching BEGIN"


def marker_unclosed(line: int, problem: str) -> str:
    return f"line {line}: BEGIN PROBLEM {problem} is never closed"


def broken_spec(path: str, why: str) -> str:
    return f"{path} is damaged ({why}); get a fresh copy of the project's tests folder"


def lock_needs_problem() -> str:
    return "say which problem to lock again, for example: python3 ok -q 01 --lock"


def lock_or_unlock() -> str:
    return "choose either --lock or -u, not both"


def class_editions_disagree(by_edition: Mapping[str | None, Sequence[str]], most: int = 5) -> str:
    """The class's entries do not agree on an edition: BY_EDITION names the entries declaring each
    (None: those declaring none), at most MOST names each."""
    def names(found: Sequence[str]) -> str:
        more = f" and {len(found) - most} more" if len(found) > most else ""
        return ", ".join(found[:most]) + more

    groups = "; ".join(f"{edition or 'none declared'}: {names(found)}" for edition, found in by_edition.items())
    return f"the class's hand-ins do not agree on an edition ({groups}); say which to grade with --edition NAME"


def edition_declared(name: str, path: str) -> str:
    return f"using the edition {name}, which {path} declares (--edition NAME chooses another)"


def other_edition(filename: str, name: str, functions: list[str]) -> str:
    shown = ", ".join(functions[:4]) + (", …" if len(functions) > 4 else "")
    return (f"{filename} defines functions of the {name} edition ({shown}) rather than this edition's: if it "
            f"was written for {name}, grade it with --edition {name}")


def os_failure(path: str | None, why: str) -> str:
    """The machine refused something the kit needed (a full disk, a folder it may not write)."""
    return f"{path}: {why}" if path else why


def interrupted() -> str:
    return "interrupted; nothing was lost"


def interrupted_notice(program: str, on_terminal: bool) -> str:
    """The interrupt message on a line of its own: on a terminal, a progress bar (or the ^C) may
    hold the current line."""
    return ("\n" if on_terminal else "") + f"{program}: {interrupted()}"


def demo_heading(title: str, count: int) -> str:
    return f"Demo class for {title}: {count} submissions derived from the reference"


def demo_phases(phases: list[tuple[int, str]]) -> str:
    return "Phases: " + ", ".join(f"P{number} {name}" for number, name in phases)


def demo_next(skeleton: str, solution: str, edition: str | None = None) -> str:
    flag = f" --edition {edition}" if edition else ""
    return (f"Grade one submission in detail, say the skeleton: hogkit grade {skeleton}{flag}\n"
            f"(or the reference: hogkit grade {solution}{flag}; or any hog.py, notebook or zip of a student's)")


def edition_line(name: str, title: str, phases: int, points: int, checkpoint: int, default: bool) -> str:
    extra = f" + {checkpoint} checkpoint" if checkpoint else ""
    return f"{name:<14} {title}: {phases} phases, {points} points{extra}{'  (default)' if default else ''}"


def build_changed(verb: str, path: str) -> str:
    return f"{verb}: {path}"


def new_edition_bad_name(name: str) -> str:
    return (f"{name!r} cannot name an edition: use a lower-case Python name of at most 40 characters, "
            "such as picky_piggy")


def new_edition_exists(name: str) -> str:
    return f"an edition named {name!r} already exists (`hogkit editions` lists them): choose another name"


def new_edition_folder_taken(name: str, taken: list[str]) -> str:
    return (f"{', '.join(taken)} already there: {name!r} would overwrite it; move it away or choose "
            "another name (nothing was written)")


def new_edition_bad_rename(pair: str) -> str:
    return f"--rename {pair!r}: expected OLD=NEW, two Python names (such as boar_brawl=hog_pile)"


def new_edition_written(name: str, source: str, count: int, root: str) -> str:
    return (f"{name}: {count} files written under {root}, started from {source}. Next: change the "
            f"reference and the rules' text, then `hogkit build --edition {name}` and "
            f"`hogkit build --check --edition {name}`, which lists what is still to do, in order.")


def todo_header(name: str, count: int) -> str:
    return f"{name}: {count} thing(s) still to do, in this order:"


def todo_done(name: str) -> str:
    return (f"{name}: nothing missing; the reference earns every point. Next: "
            f"`hogkit mutants --edition {name}` (how strong the cases are).")


def todo_left(file: str, line: int, text: str) -> str:
    return f"{file}:{line}: write what this TODO asks: {text}"


def todo_no_handout(file: str) -> str:
    return f"write the handout, {file} (it is the notebook's text too)"


def todo_reference_unreadable(file: str, why: str) -> str:
    return f"{file}: the reference does not parse ({why}); fix it first"


def todo_function_missing(label: str, function: str, file: str) -> str:
    return f"Problem {label} names {function}, which {file} does not define: write it, or change the manifest"


def todo_no_markers(label: str, file: str) -> str:
    return (f"Problem {label}: mark its code in {file} with `# BEGIN PROBLEM {label}` and "
            f"`# END PROBLEM {label}` (the skeleton is made from the markers)")


def todo_case_file(label: str, why: str) -> str:
    return f"Problem {label}: its case files cannot be read: {why}"


def todo_no_cases(label: str, hidden: bool) -> str:
    kind = "hidden" if hidden else "public"
    return (f"Problem {label} has no {kind} case: add a [[case]] or a [[generate]] table"
            f"{' with hidden = true' if hidden else ''} to its qNN.toml")


def todo_no_questions(folder: str) -> str:
    return f"no problem has unlock questions: add [[unlock]] tables (qNN.unlock.toml) in {folder}"


def todo_build(name: str, count: int) -> str:
    return f"{count} generated file(s) are stale: run `hogkit build --edition {name}`"


def todo_cannot_grade(why: str) -> str:
    return f"the reference could not be graded here: {why}"


def todo_reference_fails(label: str, case: str, expected: str, got: str) -> str:
    if not expected and not got:
        return f"Problem {label}: the reference does not earn it ({case}): fix the reference or the cases"
    return (f"Problem {label}: the reference fails {case!r} (expected {visible(expected)!s}, "
            f"got {visible(got)}): fix the case or the reference")


def build_fresh() -> str:
    return "everything is up to date"


def build_stale_hint() -> str:
    return "Run `hogkit build` to regenerate them."


def skeleton_digests_header(filename: str) -> str:
    return (f"What the skeleton's {filename} holds between each problem's markers, as digests: `python3 ok --zip` "
            f"uses them to tell your work from the untouched stubs. Do not edit.")


def student_suite_header(label: str) -> str:
    return (
        f"The tests of problem {label} for your project folder: do not edit.\n"
        f"Unlock the questions with `python3 ok -q {label} -u`, then run `python3 ok -q {label}`."
    )


def generated_header(source: str) -> str:
    return (
        f"Generated by `hogkit build` from the [[generate]] templates in {source}: do not edit.\n"
        "Each expected output is what the reference solution displays."
    )


# -- mutation testing (hogkit mutants): how strong the cases are ----------------------------------

COUNT_MUTANTS = "mutants graded"
MUTANT_COLUMNS = ("problem", "mutants", "killed", "timed out", "survived", "equivalent", "detected")
MUTANT_KINDS = ("killed", "timed out", "survived", "equivalent")  # the chart's stacked bars, in order
MUTANT_AXES = ("problem", "mutants")


def mutants_heading(title: str, edition: str) -> str:
    return f"Mutation testing of {title} ({edition})"


def mutants_intro(count: int, jobs: int, seconds: float) -> str:
    return (f"{count} mutant{'s' if count != 1 else ''} of the reference solution, each one small change inside a "
            f"problem's own code, each graded in the sandbox on that problem's cases (hidden ones included), "
            f"{jobs} at a time, in {seconds:.0f} s.")


def mutants_verdict(weak: list[str], threshold: float) -> str:
    """WEAK: the labels of the scored problems whose cases detect less than THRESHOLD of their mutants."""
    share = f"{threshold:.0%}"
    if not weak:
        return f"Every scored problem's cases detect at least {share} of its mutants (equivalent ones left out)."
    names = ", ".join(weak[:-1]) + (" and " if len(weak) > 1 else "") + weak[-1]
    return (f"Problem{'s' if len(weak) > 1 else ''} {names} detect{'' if len(weak) > 1 else 's'} fewer than "
            f"{share} of {'their' if len(weak) > 1 else 'its'} mutants: each survivor below is a wrong program "
            f"every case accepts.")


def mutants_score(detected: int, counted: int) -> str:
    if not counted:
        return "—"
    return f"{100.0 * detected / counted:.1f}% ({detected}/{counted})"


def mutants_shared(labels: list[str], functions: list[str]) -> str:
    return (f"{', '.join(functions)} {'is' if len(functions) == 1 else 'are'} also {' and '.join(labels)}'s: a "
            f"mutant there is detected when the cases of any problem that names it fail")


def mutants_none_own(label: str, shares: list[str], functions: list[str]) -> str:
    return (f"Problem {label} has no marked code of its own (it is written in {' and '.join(shares)}'s block of "
            f"{', '.join(functions)}): it is measured on {', '.join(functions)}'s mutants, by its own cases alone")


def mutants_survivors_heading() -> str:
    return "Survivors"


def mutants_survivors_advice(record_file: str) -> str:
    return ("Each survivor is a wrong program that every case of its problem accepts. Add a case that tells it "
            "apart from the reference (hidden if it would give the answer away), run `hogkit build`, and run "
            "`hogkit mutants` again. If no program could tell it apart, record it as equivalent in "
            f"{record_file}: its id and a one-line reason.")


def mutants_no_survivors() -> str:
    return "No mutant survived."


def mutants_equivalents_heading(record_file: str) -> str:
    return f"Recorded equivalent mutants ({record_file}), left out of the counts"


def mutants_stale(record_file: str) -> str:
    return (f"Stale records in {record_file}: no mutant has these ids any more (the reference changed); "
            "remove them, or record the mutants they meant under their new ids.")


def mutant_equivalent_for(label: str) -> str:
    """How a record limited to one problem is shown beside its id."""
    return f"equivalent only as far as Problem {label}'s cases can tell"


def mutants_wrongly_equivalent(record_file: str) -> str:
    return (f"Recorded as equivalent in {record_file}, yet a case tells them apart from the reference: they are "
            "not equivalent, so remove their records.")


def mutants_kit_errors(count: int) -> str:
    return (f"The kit failed to grade {count} mutant{'s' if count != 1 else ''}, twice each: not counted "
            "anywhere. Run the same command again.")


def mutant_killed_by_rule(rule: str) -> str:
    return f"the shape rule: {rule}"


def mutant_record_broken(path: str, detail: str) -> str:
    return (f"{path}: {detail} (each [[equivalent]] table holds an id from `hogkit mutants` and a reason, "
            "and may name the one problem it is limited to)")


def mutant_change(line: int, before: str, after: str) -> str:
    """A mutant's change, BEFORE and AFTER already shown as code (Markdown code spans)."""
    return f"line {line}: {before} became {after}"


def mutants_killers_heading() -> str:
    return "Detected mutants and the first case that failed"


def mutants_written(paths: list[str]) -> str:
    return "The mutation report: " + ", ".join(paths)


def mutants_chart_title(title: str) -> str:
    return f"Mutants of {title}, by problem"


def mutants_how_to_read(threshold: float) -> str:
    return (f"How to read this: a mutant is the reference with one small change (an operator swapped, a constant "
            f"off by one, a condition negated, a statement deleted, two arguments swapped, a neighbouring value "
            f"returned, another helper called). *Killed*: a case failed (the first one is named). *Timed out*: "
            f"the first failing case never finished. *Survived*: every case passed, so the cases cannot tell this "
            f"wrong program from the right one. *Equivalent*: recorded as a change no program can notice, left "
            f"out of the counts. *Detected* is killed and timed out over the counted mutants; each scored "
            f"problem should reach {threshold:.0%}.")


# -- unlocking -----------------------------------------------------------------------------------


UNLOCK_INTRO = (
    "Unlocking {title}.\n"
    "At each '?' type what Python would display. Special answers: Error, Function, Nothing, "
    "Infinite Loop.\nFor a multiple-choice question type the choice or its letter.\n"
    "Type exit() to stop; what you have unlocked so far is kept."
)


def unlock_intro(title: str) -> str:
    return UNLOCK_INTRO.format(title=title)


def unlock_question(label: str, number: int, count: int, name: str) -> str:
    return f"Problem {label} > Question {number} of {count}: {name}"


def unlock_correct() -> str:
    return "-- OK! --"


def unlock_line_correct(done: int, total: int) -> str:
    return f"-- line {done} of {total} correct; what comes next? --"


def unlock_wrong() -> str:
    return "-- Not quite. Try again! --"


def unlock_done(label: str, has_cases: bool = True, running: bool = False) -> str:
    if not has_cases:
        return f"-- All questions of problem {label} are unlocked. It has no tests of its own: go on to the next. --"
    if running:
        return (f"-- All questions of problem {label} are unlocked. Its tests run now; to run them again later: "
                f"`{student_command(label)}`. --")
    return f"-- All questions of problem {label} are unlocked. Now run `{student_command(label)}`. --"


def unlock_stopped(label: str) -> str:
    return f"Stopped. Run `{student_command(label, '-u')}` to carry on where you left off."


def starter_code(label: str) -> str:
    """Why a problem whose code is still the skeleton's scores nothing, on every route (a student's
    runner, a grade, a class, Gradescope): worded for whoever reads it."""
    return (f"Problem {label} still holds the starter code: no points until it is written (what the starter "
            f"passes says nothing)")


def score_legend() -> str:
    return ("✓ passed   ✗ a case or a required rule fails   ○ locked: unlock it with `python3 ok -q NN -u`\n"
            "· no test ran (questions only, or still the starter code)")


def next_problem(label: str, unlocked: bool = False) -> str:
    return f"All passed. Next: `{student_command(label) if unlocked else student_command(label, '-u')}`."


def relocked(label: str) -> str:
    return f"Problem {label} is locked again. Run `{student_command(label, '-u')}` to unlock it."


def interactive_banner(case_name: str, filename: str) -> str:
    return f"Case {case_name!r} failed. {filename} is loaded and the lines before the failing one have run."


def interactive_try(line: str) -> str:
    return f"Try the failing line yourself: {line}" if line else "Try your functions here."


def not_a_choice(count: int) -> str:
    return f"Type one of the choices, or its letter from a to {'abcdefghij'[count - 1]}."


def choice_prompt(letter: str, text: str, width: int = 78) -> str:
    """One choice, wrapped at word boundaries, its later lines lined up under its first word."""
    import textwrap

    return textwrap.fill(text, width, initial_indent=f"  {letter}) ", subsequent_indent=" " * (len(letter) + 4),
                         break_long_words=False, break_on_hyphens=False)


def question_text(text: str, width: int = 78) -> str:
    """A multiple-choice question, wrapped at word boundaries as its choices are; its own line
    breaks (and any code lines, indented) are kept."""
    import textwrap

    return "\n".join(line if line.startswith((" ", "\t", ">>>")) or len(line) <= width else
                     textwrap.fill(line, width, break_long_words=False, break_on_hyphens=False)
                     for line in text.split("\n"))


def python_too_old(program: str) -> str:
    """For an interpreter older than the bundle supports; ``%s`` is where its version goes."""
    return (f"{program} needs Python 3.9 or newer, and this is Python %s. Install a newer Python "
            "(python.org) and run it with that one.")


def engine_missing() -> str:
    return (
        "ok: cannot find the kit's engine (the graders package). Run ok from the project folder you were "
        "given, or install the kit."
    )


HINTS = {
    "quotes": "Close: check the quotation marks; Python shows strings with quotes.",
    "no_quotes": "Close: that value is not a string, so Python shows it without quotes.",
    "float": "Close: check whether the value is an int or a float (3 versus 3.0).",
    "case": "Close: check upper and lower case (True, False, None, Error, Function ...).",
    "special": "Close: when nothing is displayed, type Nothing; when a line raises, type Error.",
    "tuple": "Close: check the brackets; a tuple is shown with parentheses.",
    "order": "Close: printed lines come before the value, in the order they are printed.",
    "error_name": "Close: when a line raises an error, type just Error, not its name or message.",
    "function": "Close: when the value is a function, type just Function.",
}


def empty_answer() -> str:
    return ("Type an answer: Nothing when nothing is displayed, Error when the line raises, Function for a "
            "function; or exit() to stop.")


# -- the web page (hog_gui.py) --------------------------------------------------------------------


def _player(who: int) -> str:
    return f"Player {who}"


def gui_error_hint(filename: str) -> str:
    return f"Fix {filename}, save it and press New game: the page always plays your latest code."


def gui_bad_body() -> str:
    return 'The request should be a JSON object such as {"players": ["person", "always_roll_5"], "moves": []}.'


def gui_unknown_field(name: str) -> str:
    return f"Unknown field {name!r}: a game request has players, variant, seed and moves."


def gui_bad_players() -> str:
    return 'players should be a list of two choices, such as ["person", "always_roll_5"].'


def gui_unknown_strategy(who: int, name: str, strategies: list[str], factories: list[str], filename: str) -> str:
    known = ", ".join(strategies) if strategies else "none yet"
    made = "".join(f", {f}(0) to {f}(10)" for f in factories)
    return (f"{_player(who)}: {name!r} is not a strategy in {filename}. Choose person, one of the strategies "
            f"{filename} defines ({known}){made}.")


def gui_unknown_variant(name: str, known: list[str]) -> str:
    return f"Unknown rules {name!r}: this edition has {', '.join(known)}."


def gui_bad_seed() -> str:
    return "seed should be a whole number from 0 up (or null for a new random game)."


def gui_bad_moves(most: int) -> str:
    return f"moves should be a list of at most {most} numbers of dice."


def gui_dice_out_of_range(position: int, value: str, fewest: int, most: int) -> str:
    return f"Move {position} is {value}: a player rolls a whole number of dice from {fewest} to {most}."


def gui_moves_without_person() -> str:
    return "moves were sent, but neither player is a person: two strategies play without moves."


def gui_rule_failed(detail: str) -> str:
    return f"The kit could not explain this turn ({detail}); the game itself is not affected."


def gui_turn_differs(who: int, expected: int, got: int) -> str:
    return (f"By the rules, {_player(who)}'s turn ends at {expected}, but your play gave {got}. "
            "Check the update and scoring functions.")


def gui_next_differs(who: int, expected: int) -> str:
    if expected == who:
        return f"By the rules, {_player(who)} should have gone again, but your play moved on to the other player."
    return f"By the rules, {_player(who)}'s turn is over, but your play let {_player(who)} go again."


def gui_strange_result(launcher: str) -> str:
    """LAUNCHER: the edition's own program that starts the page (hog_gui.py, pig_gui.py); "" for none."""
    restart = f"restart {launcher}" if launcher else "restart the game"
    return f"The game came back in a shape the page cannot read. Press New game; if it happens again, {restart}."


def gui_play_returned(value: str) -> str:
    return f"play returned {value}, not the two final scores (score0, score1)."


def gui_endless(turns: int) -> str:
    return (f"play asked for {turns} turns without ending the game: do the scores grow, and does the loop "
            "stop once a player reaches the goal?")


def gui_raised(function: str, kind: str) -> str:
    return f"{function or 'Your code'} raised {kind or 'an error'}"


def gui_commentary_failed(detail: str) -> str:
    return f"The commentary failed ({detail}); the game goes on without it."


def gui_not_a_number(who: int, label: str, value: str) -> str:
    what = "its own score" if label == "score" else "the opponent's score"
    return f"play gave {_player(who)}'s strategy {value} as {what}, not a whole number."


def gui_bad_choice(who: int, value: str, fewest: int, most: int) -> str:
    return f"{_player(who)}'s strategy chose {value}, not a number of dice from {fewest} to {most}."


def gui_asked_twice(who: int) -> str:
    return (f"play asked {_player(who)}'s strategy twice for this turn: call each strategy once per turn "
            "and use its answer.")


def gui_rolled_other(who: int, chosen: int, rolled: int) -> str:
    return f"{_player(who)} chose {chosen} dice, but {rolled} were rolled."


def gui_loop(function: str) -> str:
    if not function:
        return "Your code did not finish in time: is a loop in play, take_turn or a strategy never ending?"
    return f"{function} did not finish in time: is a loop in it never ending (or waiting for something)?"


def gui_timed_out(seconds: float) -> str:
    return (f"Your code did not finish within {seconds:g} s: is a loop in play, take_turn or a strategy "
            "never ending?")


def gui_crashed() -> str:
    return "Your code ended the program (for example with exit() or os._exit) in the middle of the game."


def gui_kit_failed(detail: str) -> str:
    return f"The kit failed to start your code ({detail}); this is not your code's fault. Press New game to try again."


def gui_not_loaded(filename: str) -> str:
    return f"{filename} could not be loaded: every attempt hung or ended the program."


def gui_not_a_project(folder: str, launcher: str = "hog_gui.py") -> str:
    """LAUNCHER (hog_gui.py, pig_gui.py) names the project's file: hog.py, pig.py."""
    file = launcher.removesuffix("_gui.py") + ".py"
    project = launcher.removesuffix("_gui.py")
    return (f"{folder} is not a project folder: run {launcher} from the folder that holds {file} and "
            f"tests/ (for example: cd {project} && python3 {launcher}). For any other folder holding a {file} "
            f"(a copy of the kit's solution, say), run hogkit play {folder}.")


def gui_started(url: str, title: str = "Hog") -> str:
    """TITLE: the edition's title, whose part before a colon names the game (Hog, Pig)."""
    return f"{title.split(':')[0]} is running at {url}\nOpen that address in a browser. Press Ctrl+C to stop."


def gui_stopped() -> str:
    return "Stopped."


def gui_port_busy(port: int) -> str:
    return f"Port {port} is in use: pick another with --port, or --port 0 for any free port."


def gui_not_found(path: str) -> str:
    return f"Nothing at {path}: the page lives at / and the game at /api/setup and /api/play."


def gui_too_large(most: int) -> str:
    return f"The request is larger than {most} bytes."


def gui_bad_json(detail: str) -> str:
    return f"The request is not valid JSON ({detail})."


def gui_syntax_error(filename: str, line: int, message: str) -> str:
    return f"{filename} line {line} has a syntax error ({message}): fix it, save, and press New game."


def gui_syntax_repaired(filename: str, line: int, message: str, name: str) -> str:
    return (f"{filename} line {line} has a syntax error ({message}), so {name} was left out; the game stops "
            f"with an error if it needs {name}.")


def gui_ended_early(score0: int, score1: int, goal: int) -> str:
    return (f"play ended the game at {score0} to {score1}, before either player reached {goal}: "
            "does its loop go on until a player reaches the goal?")


def gui_unfinished(names: list[str], filename: str) -> str:
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    return (f"Still to write in {filename}: {shown}. They do not work yet, so the game may stop where it "
            "needs them.")


def gui_not_a_strategy(who: int, name: str, value: str) -> str:
    return (f"{_player(who)} is {name}, but that gave {value}, not a strategy (a function of the two scores). "
            f"Is it finished?")


def gui_wrong_host() -> str:
    return "This game server answers only pages opened from this computer (localhost)."


def gui_not_json() -> str:
    return "A game request must be sent as JSON (Content-Type: application/json)."


# -- the web page of a tactic game (Pig's shape: a move is an action, such as roll or hold) ----------


def _numbered(actions: list[str]) -> str:
    return ", ".join(f"{i} for {a}" for i, a in enumerate(actions))


def gui_bad_action_moves(most: int, actions: list[str]) -> str:
    return f"moves should be a list of at most {most} actions, each a number: {_numbered(actions)}."


def gui_action_out_of_range(position: int, value: str, actions: list[str]) -> str:
    return f"Move {position} is {value}: a move is the number of an action ({_numbered(actions)})."


def gui_bad_action(who: int, value: str, actions: list[str]) -> str:
    return f"{_player(who)}'s tactic returned {value}, not one of the actions {' or '.join(actions)}."


def gui_wrong_die(who: int, used: list[int], expected: int, functions: list[str]) -> str:
    if not used:
        return (f"{_player(who)}'s turn rolled none of the page's dice ({', '.join(functions)}): by the rules it "
                f"uses the {expected}-sided die. Does play give take_turn the die?")
    shown = " and ".join(f"{n}-sided" for n in used)
    return f"{_player(who)}'s turn used the {shown} die, but by the rules this turn uses the {expected}-sided die."


def gui_remark_failed(expression: str, kind: str, detail: str) -> str:
    if kind == "raised":
        return f"{expression} raised {detail}"
    return f"{expression} returned {detail}, not a str"


def gui_remark_replaced(detail: str) -> str:
    return f"The commentary failed ({detail}); the page says what happened in its own words instead."


def gui_action_said(action: str) -> str:
    """The kit's own words for an action, when the submission's commentary cannot say it."""
    return f"chose to {action}."


def gui_play_returned_winner(value: str) -> str:
    return f"play returned {value}, not the winner (0 for the first player, 1 for the second)."


def gui_no_turn_points(function: str) -> str:
    return (f"The game ended, but the last turn's points are not known: did play call {function or 'its turn'} "
            "for the last turn?")


def gui_winner_differs(returned: str, by_scores: int) -> str:
    return (f"play returned {returned} as the winner, but by the scores the winner is {by_scores}: "
            "does play return the player who reached the goal?")


# The page's own texts (graders/gui/gui_static/hog.js), sent with GET /api/setup. The page looks each up
# by its key and fills the {name} placeholders itself: a placeholder's name is part of the contract
# with hog.js. Only the few lines shown when the server cannot be reached at all stay in hog.js.
PAGE_TEXT: dict[str, str] = {
    # players and their panels
    "person": "Person",
    "you": "You",
    "player": "Player {who}",
    "player_strategy": "Player {who} ({strategy})",
    "panel_name": "Player {who} · {label}",
    "your_strategies": "Your strategies",
    "rules": "Rules",
    "goal": "First to {goal} wins",
    # dice
    "one_die": "{n} die",
    "dice": "{n} dice",
    "dice_label": "Dice",
    "dice_shown": "Dice: {faces}",
    "no_dice": "No dice rolled",
    "no_roll_yet": "No dice rolled yet.",
    # one turn, in the latest-roll card and the log
    "rolls": "{player} rolls {dice}…",
    "rolled": "{player} rolled {dice}",
    "and_scored": "and scored",
    "stopped_by_error": "(stopped by an error)",
    "turn_head": "Player {who} rolled {dice}",
    "turn_stopped": "(stopped before the turn ended)",
    "turn_score": "→ {gain} ({before} → {after})",
    "turn_other": "Player {who}: {before} → {after}",
    "rule": "Rule",
    "printed": "{file} printed: {text}",  # file: the edition's submission, from the setup
    "printed_label": "{file} printed",
    # what happens next
    "starting": "Starting a new game…",
    "thinking": "{player} is thinking…",
    "rolling": "Rolling {dice}…",
    "next_turn": "Next: {player}'s turn. Press Next turn.",
    "choose": "Player {who}: choose how many dice to roll",
    "how_many": "How many dice?",
    "how_many_player": "Player {who}: how many dice?",
    "roll": "Roll {dice}",
    "zero_rule": "0 dice scores by {rule}.",
    "zero_rule_unnamed": "0 dice scores by this edition's special rule.",
    "meter": "Your chance to win with best play:",
    "meter_player": "Player {who}'s chance to win with best play:",
    # the end of a game
    "final_score": "{winner} to {loser}",
    "you_win": "You win {score}!",
    "wins": "{player} wins {score}.",
    "game_over": "Game over.",
    "idle": "The game has stopped. Press New game to play again.",
    # errors
    "stopped": "Stopped: see the error below",
    "not_replayed": "The game could not be replayed.",
    "in_function": "In {function}",
    "in_function_line": "In {function}, line {line}",
    "at_line": "Line {line}",
    # a tactic game (the edition's actions, such as roll and hold, are the moves)
    "turn_head_actions": "Player {who}: {actions}",
    "turn_actions": "{player}'s turn: {actions},",
    "turn_so_far": "{player}'s turn so far: {actions}",
    "no_action_yet": "No action yet this turn.",
    "remark": "{player} {text}",
    "die_label": "{sides}-sided die showing {face}",
    "turn_total": "Turn total: {total}",
    "turn_total_player": "Player {who}: turn total {total}",
    "die_sides": "This turn uses the {sides}-sided die.",
    "choose_action": "Player {who}: choose an action ({actions})",
    "acting": "{player}: {action}…",
    "action_keys": "Keys: {keys}.",
}


# -- the course: its files, and the lines that explain a student's adjustments --------------------


def course_error(path: str, key: str, what: str) -> str:
    """One line for a course file that cannot be used: the file, the key, what is wrong."""
    return f"{path}: {key}: {what}" if key else f"{path}: {what}"


def csv_row_error(path: str, row: int, what: str) -> str:
    """One line for a CSV file (roster, overrides, times) that cannot be used, naming its row."""
    return f"{path} row {row}: {what}" if row else f"{path}: {what}"


def no_course_folder(course_file: str, roster_file: str) -> str:
    return f"is not a folder; --course names the folder that holds {course_file} and {roster_file}"


def course_file_missing() -> str:
    return "is missing; a course folder needs it (see docs/courses.md, \"Running a course\")"


def unreadable_file(why: str) -> str:
    return f"cannot be read ({why})"


def not_toml(why: str) -> str:
    return f"is not valid TOML ({why})"


def key_missing() -> str:
    return "is required but missing"


def expected(kind: str, got: object) -> str:
    return f"expected {kind}, got {got!r}"


def unknown_key(known: list[str]) -> str:
    return f"is not a key this table takes (it takes {', '.join(known)})"


def unknown_zone(name: object) -> str:
    return f"{name!r} is not a time zone this machine knows (an IANA name such as \"America/Los_Angeles\")"


def not_a_date(text: str) -> str:
    return f"{text!r} is not a date (write 2024-02-07T23:59:00, or 2024-02-07 for the end of that day)"


def skipped_local_time(text: str, zone: str) -> str:
    return f"{text} does not exist in {zone}: the clocks skip it when daylight saving starts; choose another time"


def deadline_after(later: str) -> str:
    return f"comes after deadlines.{later}, which it must not"


def no_header(needed: list[str]) -> str:
    return f"the file is empty; its first row must name the columns ({', '.join(needed)} at least)"


def columns_missing(missing: list[str]) -> str:
    return f"the header row has no column {' or '.join(missing)} (headers are matched ignoring case)"


def empty_cell(column: str) -> str:
    return f"the {column} cell is empty"


def duplicate_id(student: str, first_row: int) -> str:
    return f"the id {student!r} is already on row {first_row}"


def partner_unknown(partner: str) -> str:
    return f"the partner id {partner!r} is not the id of another student on the roster"


def partner_conflict(student: str, partner: str, other: str) -> str:
    return f"{student} names {partner} as partner, but {partner} is partnered with {other}"


def unknown_target(text: str) -> str:
    return f"{text!r} is not a problem label (such as 05), checkpoint, early or total"


def duplicate_override(student: str, target: str, first_row: int) -> str:
    return f"{student} already has an override of {target} on row {first_row}; keep one row per student and problem"


def override_unused(student: str, row: int) -> str:
    return f"the override on row {row} names {student!r}, who is neither on the roster nor among the submissions"


def points_text(points: float | None, signed: bool = False) -> str:
    """A number of points (or days) as people write it: 2, 1.5, +1 when SIGNED."""
    if points is None:
        return ""
    value = round(float(points), 2)
    text = str(int(value)) if value == int(value) else f"{value:g}"
    return f"+{text}" if signed and value >= 0 and not text.startswith("-") else text


def _plural(count: float, word: str) -> str:
    return f"{points_text(count)} {word}" + ("" if count == 1 else "s")


def adj_extension(days: str, moved: list[tuple[str, str]]) -> str:
    shown = "; ".join(f"{name} {when}" for name, when in moved)
    return f"Your extension of {days} day{'' if days == '1' else 's'} moves these deadlines: {shown}."


def adj_checkpoint_earned(points: str, deadline: str, when: str) -> str:
    return (f"Checkpoint: +{points} for Phase 1 complete by {deadline} (your submission of {when}).")


def adj_checkpoint_missed(points: str, deadline: str, completed: str) -> str:
    if completed:
        return (f"Checkpoint: no points. Phase 1 was first complete in your submission of {completed}, after "
                f"the checkpoint deadline {deadline} (worth {points}).")
    return f"Checkpoint: no points. No submission by {deadline} had Phase 1 complete (worth {points})."


def adj_early_earned(points: str, deadline: str, when: str) -> str:
    return f"Early bonus: +{points} for full marks by {deadline} (your submission of {when})."


def adj_early_missed(points: str, deadline: str, when: str) -> str:
    return (f"Early bonus: no points. Full marks came in your submission of {when}, after the early "
            f"deadline {deadline} (worth {points}).")


def late_rule(per_day: str, cap: str, round_up: bool) -> str:
    """The late policy in a few words: '10% per day, at most 50%, a started day counting as a whole'."""
    text = f"{per_day} per day"
    text += f", at most {cap}" if cap else ""
    return text + (", a started day counting as a whole one" if round_up else ", by the hour")


def adj_late_penalty(days: str, when: str, due: str, penalty: str, rule: str, of: str = "") -> str:
    """OF: the points the late hand-in counts for, when a phase due earlier is scored from another."""
    share = f" of the {of} points it counts for (a phase due earlier counts from the submission by its date)" \
        if of else ""
    return (f"Late: your submission of {when} counts, {days} day{'' if days == '1' else 's'} after the due date "
            f"{due}; the penalty is -{penalty} ({rule}{share}).")


def adj_late_not_counted(count: int, due: str, accepts_late: bool) -> str:
    which = "submission" if count == 1 else "submissions"
    why = "later than the course accepts" if accepts_late else "and this course does not accept late work"
    return f"Late: {count} {which} after the due date {due} did not count ({why})."


def adj_on_time_kept(on_time: str, late: str, penalty: str) -> str:
    return (f"Your last on-time submission counts ({on_time} points): your late one scored {late}, less a late "
            f"penalty of {penalty}, which is no more.")


def adj_later_lower(key: str, when: str, score: str, earlier: str, earlier_when: str, earlier_score: str,
                    most: str) -> str:
    return (f"Warning: the submission that counts, {key} ({when}), scored {score}/{most}, less than the earlier "
            f"{earlier} ({earlier_when}, {earlier_score}/{most}), which it replaced: the last on-time submission "
            f"counts (the course file's groups = \"last\"). Ask your instructor if that was not meant.")


def adj_phase_due(phase: int, due: str, key: str, points: str, instead: str) -> str:
    source = f"from {key}, the submission that counts by then" if key else "as none was made by then"
    return (f"Phase {phase} is due {due}: its problems count {points} points {source} "
            f"(the submission that counts for the rest had {instead} for them).")


def course_note_lower(key: str, when: str, score: str, earlier: str, earlier_when: str, earlier_score: str,
                      most: str) -> str:
    """For the instructor (course-notes.txt and the console), after the student's id."""
    return (f"a later, worse hand-in counts: {key} ({when}, {score}/{most}) replaced {earlier} ({earlier_when}, "
            f"{earlier_score}/{most}) under groups = \"last\". If the pair asked for their best hand-in to count, "
            f"write best in the groups column of their roster row and grade again.")


def course_note(student: str, line: str) -> str:
    return f"{student}: {line}"


POLICY_RULES = {
    "deadlines.checkpoint": "the checkpoint date (Phase 1 completed after it)",
    "deadlines.due": "the due date as the checkpoint's (Phase 1 completed after it)",
    "late.per_day": "the late penalty",
    "late.policy": "late work not counting (late.policy = \"none\")",
    "late.max_days": "late work after late.max_days not counting",
    "groups": "groups = \"last\" (a later, worse hand-in of a pair counting)",
}


def course_policy_cost(where: str, rule: str, students: int, of: int, points: str) -> str:
    """A rule of the course file that took points from many students: said before anything is uploaded."""
    phase = rule.removeprefix("deadlines.phases.")
    what = POLICY_RULES.get(rule, f"Phase {phase}'s own due date (its problems count only from hand-ins by then)")
    return (f"{where}: {rule}: {what} took points from {students} of {of} students ({points} points in all). "
            f"Check that it is meant before uploading the scores: each student's feedback says what it took.")


def pair_groups_conflict(student: str, groups: str, partner: str, partner_groups: str) -> str:
    return (f"{student}'s groups is {groups} but their partner {partner}'s is {partner_groups}: a pair has one "
            f"(one of the two rows is enough)")


def adj_nothing_counted(due: str) -> str:
    return f"No submission counts: none was made by the due date {due}, and none later is accepted."


def override_what(target: str) -> str:
    """What an override changes, in words: Problem 05, the checkpoint, the early bonus, the total."""
    named = {"total": "the total", "checkpoint": "the checkpoint", "early": "the early bonus"}
    return named.get(target, f"Problem {target}")


def adj_override(what: str, points: str, relative: bool, change: str, reason: str) -> str:
    how = f"{points} to {what}" if relative else f"{what} set to {points} ({change})"
    return f"Adjusted by your instructor: {how}. Reason: {printable(reason)}"


def no_export_metadata(filename: str) -> str:
    return f"holds no {filename}: give the folder of a Gradescope \"Export Submissions\" download, unzipped"


def export_no_time(name: str) -> str:
    return f"{name}: its entry in submission_metadata.yml has no time (created_at), so it is left out"


def _some(names: Sequence[str], most: int = 5) -> str:
    more = f" and {len(names) - most} more" if len(names) > most else ""
    return ", ".join(names[:most]) + more


def trust_file_times_needs_course() -> str:
    return "--trust-file-times is about a course's hand-in times: use it with --course DIR and --out OUTDIR"


def course_file_times_refused(names: Sequence[str]) -> str:
    return (f"no times.csv nor Gradescope metadata gives the time of {len(names)} hand-in(s) ({_some(names)}); "
            f"a file's modification time is whatever the student's archive says (unzip, cp -p and tar restore it). "
            f"Add times.csv (id,time), grade a Gradescope export, or pass --trust-file-times to use file times")


def course_file_times_trusted(names: Sequence[str]) -> str:
    return (f"the times of {len(names)} hand-in(s) ({_some(names)}) came from their files' modification times "
            f"(--trust-file-times), which a student's archive can set")


TIMES_FROM_FILES = ("Hand-in times came from the files' modification times (--trust-file-times), "
                    "which a student's archive can set.")


def export_unlisted(name: str) -> str:
    return (f"{name} is not in submission_metadata.yml: its time is its folder's modification time and its "
            f"submitter is unknown")


def course_withheld(keys: list[str]) -> str:
    return (f"No score yet: the kit failed while grading {', '.join(printable(k) for k in keys)} (not the "
            f"student's fault); run the same hogkit grade command again to regrade it")


def course_off_roster(ids: list[str]) -> str:
    shown = ", ".join(printable(i) for i in ids)
    return (f"Not on the roster and no email known, so graded by id alone: {shown}. gradescope-scores.csv names "
            f"them by id: Gradescope matches such a row only by its SID, so check that it did.")


def course_no_handin() -> str:
    return "No submission was found for this student: every score is 0."


def course_none_graded(broken: list[tuple[str, str]]) -> str:
    shown = "; ".join(f"{printable(key)}: {printable(reason)}" for key, reason in broken)
    return f"No submission of this student could be graded ({shown}): every score is 0."


def course_feedback_heading(title: str, student: str) -> str:
    return f"{title}: feedback for {printable(student)}"


def course_counted_line(key: str, when: str) -> str:
    return f"The submission that counts is {printable(key)}, of {when}. Its feedback:"


def course_needs_out() -> str:
    return ("--course grades a class: give the class folder (or Gradescope export) and --out OUTDIR, as in "
            "hogkit grade CLASSDIR --out OUTDIR --course DIR")


def course_whole_project() -> str:
    return "--course grades the whole project (its deadlines need every problem's score): leave out -q"


def course_edition_differs(course: str, given: str) -> str:
    return f"the course is for {course!r}, not {given!r}: use its own edition, or change the file"


def adjustments_heading() -> str:
    return "Deadlines and adjustments"


def no_adjustments() -> str:
    return "Nothing changed your score: the submission that counts is scored as graded."


def final_score_line(final: str, score: str, most: str, worth: str = "", course_most: str = "") -> str:
    scaled = f", worth {worth}/{course_most} in the course" if course_most else ""
    return f"**Final score: {final}** (the problems: {score}/{most}{scaled}, with the adjustments above)."


# -- the activity log and the TA report -------------------------------------------------------------


def ta_same_log(dropped: str, kept: str) -> str:
    return f"{printable(dropped)} holds the same activity log as {printable(kept)}: counted once, as {printable(kept)}"


def activity_missing(where: str) -> str:
    return f"{where}: no activity log (no unlock or test history to report; no points depend on it)"


def activity_tampered(where: str, line: int) -> str:
    return (f"{where}: the activity log was changed by hand at line {line}; only the lines before it are "
            f"counted (no points depend on it)")


def activity_unreadable(where: str, why: str) -> str:
    return f"{where}: the activity log cannot be read ({why}); it is left out (no points depend on it)"


def activity_entries_skipped(where: str, count: int) -> str:
    return f"{where}: {count} line{'' if count == 1 else 's'} of the activity log not understood, left out"


def zip_written(path: str, filename: str, from_notebook: bool, extra: list[str], with_log: bool) -> str:
    held = [f"{filename} (the code of handout.ipynb as last saved)" if from_notebook else filename]
    held += [f"{name} (for reference; {filename} is what is graded)" for name in extra]
    held.append("your activity log" if with_log else "no activity log yet (unlock or test something first)")
    lines = "\n".join(f"  - {h}" for h in held)
    return f"Wrote {path}, which holds:\n{lines}"


def zip_score(total: int, most: int, does_not_run: bool) -> str:
    broken = " It does not run as it is: see `python3 ok --score`." if does_not_run else ""
    return (f"On the public tests it scores {total}/{most}; the hidden tests count too when it is graded.{broken}\n"
            f"Hand in this zip on Gradescope.")


def work_in_notebook(filename: str) -> str:
    return (f"Note: {filename} still holds the starter code, and your work is in handout.ipynb: these scores are "
            f"{filename}'s. The notebook's check cells test its code; `python3 ok --zip` hands in the notebook's code.")


def zip_untouched(filename: str, has_notebook: bool) -> str:
    where = f"{filename} and handout.ipynb (as last saved) still hold" if has_notebook else f"{filename} still holds"
    return (f"{where} only the skeleton's stubs, so this zip would score 0: nothing was written. Write your code "
            f"(and save the notebook) first; `python3 ok --zip --from file` packs {filename} anyway")


def zip_both_worked(filename: str, from_notebook: bool, points: int, other_points: int, other: str) -> str:
    chosen = "the notebook's code" if from_notebook else filename
    other_name = "the notebook's code" if other == "notebook" else filename
    return (f"Note: both {filename} and handout.ipynb hold work. The zip's {filename} is {chosen} ({points} points on "
            f"the public tests; {other_name} has {other_points}). To hand in {other_name} instead: "
            f"`python3 ok --zip --from {other}`.")


def zip_from_missing(source: str, filename: str) -> str:
    name = "handout.ipynb" if source == "notebook" else filename
    return f"--from {source} hands in {name}, and there is no {name} in this folder"


def from_needs_zip() -> str:
    return "--from chooses what `python3 ok --zip` hands in; give it with --zip"


def nothing_to_zip(filename: str, folder: str) -> str:
    return f"there is no {filename} in {folder} to put in the zip"


def zip_alone() -> str:
    return "--zip makes the zip to hand in and does nothing else; give it without other options"


def ta_report_intro(submissions: int, with_logs: int) -> str:
    return (f"{submissions} submission{'' if submissions == 1 else 's'}, {with_logs} with an activity log. The logs "
            f"are the students' own and easily changed: they inform teaching and never change a score.")


def ta_tries_line(students: int, unlocked: int, median: str, most: int) -> str:
    return (f"{students} student{'' if students == 1 else 's'} answered, {unlocked} unlocked it; tries: {median} "
            f"(median), {most} at most.")


def ta_no_unlocks() -> str:
    return "No log records an unlock attempt."


def ta_misconceptions_heading() -> str:
    return "Unlock questions: the wrong answers most students share"


def ta_misconceptions_intro() -> str:
    return ("Each problem's wrong answers, across its unlock questions, ranked by how many students gave each "
            "(then how often): the misconceptions to take to section, the most widely held first.")


def ta_no_wrong_answers() -> str:
    return "No wrong answer was given."


def ta_more_wrong_answers(count: int) -> str:
    return f"… and {count} more wrong answer{'' if count == 1 else 's'} in wrong-answers.csv"


def ta_nobody_passed() -> str:
    return "nobody passed it"


def ta_runs_title(title: str) -> str:
    return f"{title}: test runs per problem"


ANSWER_MARK = "the answer"


def answer_key_heading(title: str, phase: int | None, name: str) -> str:
    return f"{title}: answer key, Phase {phase}: {name}" if phase is not None else f"{title}: answer key"


def grading_rule() -> str:
    """How a bug is charged, for the staff: said by ``hogkit answers`` (docs/instructors.md says it too)."""
    return ("How points are lost: a problem's public cases call the student's own functions, as `python3 ok` "
            "shows them before hand-in; its hidden cases call the student's functions of that problem only, "
            "and the kit's own for every other problem. So a point lost at grading on a function that passes "
            "its public cases is a bug in that function, and a syntax error costs only the functions it breaks.")


def answer_key_intro() -> str:
    return ("Every unlock question with its answer, to go through in section. Students must type these "
            "answers to unlock the tests: keep this handout for the staff, or hand it out once the problems "
            "are due. A transcript shows what Python displays after each >>> line (Error, Function, Nothing and "
            "Infinite Loop are typed as they are).")


def answer_key_problem(label: str, title: str, count: int) -> str:
    return f"Problem {label}: {title} ({count} unlock question{'' if count == 1 else 's'})"


def answer_key_answer(answer: str) -> str:
    return f"Answer: {answer}"


def no_such_phase(phase: int, known: list[int]) -> str:
    return f"there is no Phase {phase} in this edition (its phases: {', '.join(str(n) for n in known)})"


def ta_report_written(path: str, submissions: int, with_logs: int) -> str:
    return (f"Wrote the TA report of {submissions} submissions ({with_logs} with an activity log) to {path} "
            f"(ta-report.md, wrong-answers.csv, unlock.csv, test-runs.csv, runs.png and runs.svg)")


def similarity_written(path: str, submissions: int, pairs: int, seconds: float) -> str:
    return (f"Compared {submissions} submissions in {seconds:.1f} s: {_plural(pairs, 'pair')} "
            f"{'stands' if pairs == 1 else 'stand'} out from the class, best first; see {path} (similarity.html, "
            f"similarity.csv). It ranks and explains; no grade is changed.")


SIMILARITY_NO_VERDICT = ("This report lists the pairs of students whose share of rare code of their own stands out "
                         "from the class, and shows why. It is evidence for a person to weigh, not a finding: it "
                         "never changes a grade. Code many students wrote alike, the skeleton's own code and "
                         "declared partners are left out.")
SIMILARITY_SCORE = ("A pair's score is the share of the smaller hand-in's own code (its fragments of 12 tokens, "
                    "the skeleton's left out) that the other hand-in holds too, each fragment counted by how rare "
                    "it is: fully when only these two students hold it, 1/2 when a third does, 1/(n - 1) when n "
                    "students do; fragments held by more than a third of the class (or by more than 40 students) "
                    "count nothing. 100% is two hand-ins alike in all of their own code and unlike everyone "
                    "else's. The score does not depend on how many students the class has.")
SIMILARITY_LEGEND = ("= matched: the other student holds it too; · the skeleton's own: provided, left out of the "
                     "comparison; ≠ not matched: it differs, or is not compared (a comment, dead code)")
SIMILARITY_TIME_EXPORT = "the export's submission metadata"
SIMILARITY_TIME_CSV = "times.csv"
SIMILARITY_TIME_FILE = "the file's modification time, which copying or unzipping can change"


def similarity_compared(submissions: int, references: int) -> str:
    return f"{_plural(submissions, 'submission')} compared, with {references} from past terms."


def similarity_how_listed(listed: int, pairs: int, median: float, scale: float, cutoff: float, floor: float,
                          most: int) -> str:
    """How the page's list was chosen, in a class with a distribution of pair scores."""
    return (f"{_plural(listed, 'pair')} of the class's {pairs:,} {'stands' if listed == 1 else 'stand'} out: a "
            f"score at least {cutoff:g} robust deviations above the class's median pair score (a robust z-score; "
            f"the median is {median:.1%}, a robust deviation, 1.4826 times the scores' median absolute deviation "
            f"from it, is {scale:.1%}) and at least {floor:.0%}; {most} at most, best first. similarity.csv "
            f"lists them and the pairs below the line, each with its z-score.")


def similarity_how_listed_small(listed: int, students: int, smallest: int, floor: float) -> str:
    """How the page's list was chosen in a class too small to have a distribution of pair scores."""
    return (f"Only {_plural(students, 'student')} {'has' if students == 1 else 'have'} code to compare (fewer than "
            f"{smallest}): too few pairs to tell what stands out from the class, so the {_plural(listed, 'pair')} "
            f"listed {'is' if listed == 1 else 'are'} those scoring at least {floor:.0%}.")


def similarity_times(sources: Sequence[tuple[str, int]]) -> str:
    """Where the hand-in times shown came from: (source, how many hand-ins)."""
    found = "; ".join(f"{count:,} from {source}" for source, count in sources) or "none known"
    return f"Hand-in times (to tell who handed in first): {found}. A past term's hand-ins have none."


def similarity_time(shown: str, source: str) -> str:
    return f"{shown} (from {source})"


def similarity_unreadable(students: Sequence[str]) -> str:
    return f"Nothing to compare (no function parses, or the file is empty): {', '.join(students)}"


def similarity_none_listed() -> str:
    return "No pair stands out from the class."


def similarity_pair_title(rank: int, a: str, b: str, score: float, z: float | None) -> str:
    above = "" if z is None else f", {z:.1f} robust deviations above the class's median"
    return f"{rank}. {a} and {b}: score {score:.0%}{above}"


def similarity_handed_in(a: str, time_a: str, b: str, time_b: str, first: str) -> str:
    known = "time not known"
    return (f"Handed in: {a} {time_a or known}; {b} {time_b or known}"
            f"{'; first: ' + first if first else ''}.")


def similarity_others(count: int) -> str:
    """How many other students hold most of a match."""
    if count == 0:
        return "no other student holds most of it"
    return f"{_plural(count, 'other student')} {'holds' if count == 1 else 'hold'} most of it"


def similarity_too_long(student: str, seconds: float) -> str:
    return (f"{student} is left out of this report: fingerprinting their code took longer than the limit of "
            f"{seconds:g} s of processor time (far more code than the project needs); their grade is not affected.")


def similarity_helpers_cut(student: str, count: int, most: int) -> str:
    return (f"{student} wrote {count:,} helper functions: only the first {most} (and every function the project "
            f"asks for) are compared.")


def similarity_syntax_error(student: str, broken: Sequence[tuple[str, int]]) -> str:
    """BROKEN: (function, line) pairs a syntax error left out of STUDENT's comparison."""
    named = ", ".join(f"{name} (line {line})" for name, line in broken)
    return (f"{student}: a syntax error leaves {named} out of the comparison, as grading leaves it out; "
            f"{student}'s other functions are compared.")


def similarity_failed(reason: str) -> str:
    return f"The similarity report could not be made ({reason}); the grades are not affected."

# -- what a manifest value was expected to be, and other fragments that complete a sentence above ---

EXPECTED_EXPRESSION = "a Python expression"
EXPECTED_PROBLEM_LABEL = "the label of a problem"
EXPECTED_PROBLEM_NUMBER = "the number of a problem"
EXPECTED_MEMORY_START = "a class below classes"
EXPECTED_GUI_NUMBER = "the name of one of [gui.numbers]"
EXPECTED_TWO_ACTIONS = "two or more action names"
EXPECTED_SIDES = "an expression giving a whole number of sides from 2 to 20 at every pair of scores"
EXPECTED_UPDATE = "an expression for the mover's new score: update(num_rolls, score, opponent_score, dice)"
EXPECTED_NUMBER_RANGE = "[low, high]: two whole numbers from 0 to 1000, low first"
RUN_PASSES = "the test passes"
RUN_FAILS = "the test fails"
NULL_BYTES = "source code cannot contain null bytes"  # Python's own words for a file with a NUL byte
MINIMAX = "the minimax strategy"
OPTIMAL = "the optimal strategy"
ITSELF = "itself"


def expected_label_of(number: int) -> str:
    return f"a label of problem {number}"


def not_a_python_name() -> str:
    return "its name does not end in .py, .ipynb or .zip"


def json_not_an_object() -> str:
    return "the file should hold one JSON object"


def best_response_to(against: str) -> str:
    return f"the best response to {against}"


def load_hung(count: int) -> str:
    return f"{count} top-level statements hung or ended the program"


def port_out_of_range(port: int) -> str:
    return f"--port must be from 0 to 65535, not {port}"


def seed_negative(seed: int) -> str:
    return f"--seed must be 0 or more, not {seed}"


def timeout_not_positive(timeout: float) -> str:
    return f"--timeout must be more than 0, not {timeout:g}"


def template_reference_failed(template: str, name: str, params: object, why: str) -> str:
    return f"template {template} ({name}) with {params}: the reference failed: {why}"


def mutant_node_outside(node: str) -> str:
    return f"{node} is not inside the statement"


def listed_twice(what: str) -> str:
    return f"{what} is listed twice"


# -- what a course file's value was expected to be, and short reasons a file could not be read -----

EXPECTED_DATETIME = "a date and time"
EXPECTED_FLAG = "yes or no in accommodation"
EXPECTED_GROUPS = "last, best or blank in groups"
EXPECTED_BOOL = "true or false"
EXPECTED_ZONE = "a zone name"
EXPECTED_COUNT = "a number of 0 or more"
EXPECTED_PHASE = "a phase number"
EXPECTED_PERCENT = "a percentage up to 100"
ZIP_TOO_LARGE = "zip too large"
LINK_OR_TOO_LARGE = "a link or too large"
YAML_TOO_DEEP = "the YAML is nested too deeply to read"


def expected_list_of(names: tuple[str, ...] | list[str]) -> str:
    return f"a list of {', '.join(names)}"


def answer_key_problem_line(label: str, title: str, count: int) -> str:
    return f"Problem {label}: {title}  ({count} unlock questions)"


def answer_key_answer_line(answer: str) -> str:
    return f"answer: {answer}"


def unknown_variant(name: str, known: list[str]) -> str:
    return f"unknown variant {name!r} of the exact analysis (known variants: {', '.join(known) or 'none'})"


def after_must_keep_sum(edition: str) -> str:
    return (f"edition {edition!r} declares a [game] after that lowers the sum of the scores, so its "
            "game cannot be solved in order of that sum (an after rule may keep or raise it)")


def memory_class_too_small(classes: int) -> str:
    return (f"a memory of {classes - 1} or more does not always act alike in this edition, so "
            f"[analysis] memory classes = {classes} is too few for the exact analysis")


def minimax_needs_plain_state() -> str:
    return ("the minimax strategy is worked out only for games whose state is the two scores; with a "
            "memory, hogkit optimal gives a best response and the bound of a player who sees the whole state")


def improved_response(against: str, rounds: int) -> str:
    return (f"a strategy of the two scores against {against}, found by policy improvement with exact "
            f"evaluation ({rounds} rounds; a local best)")


def optimal_guarantee(first: float) -> str:
    return (f"the optimal strategy is sure of winning at least {100 * first:.2f}% of games going first, "
            "whatever the opponent does (a game that never ends is won by nobody)")


def solved_in(seconds: float) -> str:
    return f"solved in {seconds:.1f} s"


def tactic_table_written(path: str, filename: str) -> str:
    return (f"Wrote the best response to {path}: BEST_RESPONSE (for each pair of scores, the tactic's runs of "
            f"one action over the turn totals) and a final_strategy that plays it, to paste into {filename}")


def whole_state_bound() -> str:
    return ("the bound: best play of a player who also sees the rest of the state (what each player "
            "remembers from their previous turn)")


def improved_table_heading(against: str, edition: str, average: float) -> str:
    return (f"A strategy of the two scores against {against} in {edition}, found by policy improvement and "
            f"written by hogkit optimal: it wins {100 * average:.2f}% of games against it on average.")
# -- cases of other kinds: tests a student writes, and a strategy's exact win rate ----------------


def student_test_on_reference(tests: str) -> str:
    return f"your test, run on the right {tests}"


def student_test_on_version(name: str) -> str:
    return f"your test, run on another right version: {name}"


def student_test_on_variant(name: str) -> str:
    return f"your test, run on a wrong version: {name}"


def student_test_missed() -> str:
    return "your test passed on this wrong version: add a check that it gets wrong"


AN_EXCEPTION_OF_THEIR_OWN = "an exception of a class of your own"


def student_test_failed_right(kind: str, filename: str, line: int | None) -> str:
    where = f" ({filename} line {line})" if line else ""
    return f"your test failed on a right version with {kind}{where}: check what your test expects"


def student_test_too_slow(seconds: float) -> str:
    return f"your test did not finish on a right version within {seconds:g} s"


def graded_by_the_kit(label: str) -> str:
    return (f"Problem {label} is scored only when you hand in, by the course's grader, against the course's "
            f"own reference, which your copy does not hold: what runs here only previews it, for no points")


def win_rate_case(strategy: str, against: str, at_least: float) -> str:
    return f"{strategy} wins at least {at_least:.0%} of games against {against} (exact, both seats)"


def win_rate_figure(rate: float, first: float, second: float, against: str) -> str:
    return (f"exact win rate against {against}: {rate:.2%} "
            f"({first:.2%} going first, {second:.2%} going second)")


def win_rate_short(figure: str, at_least: float) -> str:
    return f"{figure}; it needs at least {at_least:.0%}"


def win_rate_needed(at_least: float) -> str:
    return f"a win rate of at least {at_least:.0%}"


def win_rate_not_here() -> str:
    return "the exact win rate is worked out only where the kit's reference is at hand"


def tactic_bad_value(score: int, opponent: int, total: int, got: str, actions: tuple[str, ...]) -> str:
    return (f"strategy({score}, {opponent}) gave a tactic that returned {got} for a turn total of {total}, "
            f"not {' or '.join(actions)}")


def tactic_not_a_function(score: int, opponent: int, got: str) -> str:
    return f"strategy({score}, {opponent}) returned {got}, not a tactic (a function of the turn total)"


def tactic_unsteady(score: int, opponent: int, total: int) -> str:
    return (f"strategy({score}, {opponent}) gave a tactic that answered a turn total of {total} "
            f"in two different ways")


def game_not_solvable(edition: str, why: str) -> str:
    return f"the exact analysis cannot model the game of {edition}: {why}"


def best_play_unsettled(total: int, rounds: int) -> str:
    return (f"best play did not settle at a score sum of {total} after {rounds} rounds of value iteration: "
            f"the game may go on for ever there")


def action_returned(name: str, total: int, outcome: int, scored: object, after: object, over: object) -> str:
    return (f"{name}({total}, {outcome}) returned {scored!r}, {after!r}, {over!r}, not points scored, "
            f"a turn total and whether the turn is over")


def action_stalls(name: str, total: int, outcome: int) -> str:
    return f"{name}({total}, {outcome}) neither ends the turn nor raises the turn total"
