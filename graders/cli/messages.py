"""What the `hogkit` command says of its own: refused arguments, what a command wrote, and the
summaries it prints; the sentences only graders/cli/ uses.

Each function returns text and nothing else, and tests/kit/cli/test_messages.py calls each one. The
text helpers (visible, clip, …) and the sentences several folders say are in graders.core.messages.
It runs only on an instructor's machine: none of its text is in the student's bundle.
"""

from __future__ import annotations

from graders.core.messages import and_more, plural, points_text

# -- command lines: paths, folders and arguments -------------------------------------------------

REASON_IS_A_FOLDER = "it is a folder"


def reason_no_folder(folder: str) -> str:
    return f"there is no folder {folder}; make it first if that is the place you meant"


def cannot_write(path: str, why: str) -> str:
    return f"cannot write {path} ({why}): choose an output path in a folder you can write; nothing was done"


def unrecognized_arguments(extra: str) -> str:
    return f"unrecognized arguments: {extra}"


def class_folder_hint() -> str:
    return "to grade a class folder (one submission per student), add --out OUTDIR"


# -- grading a class -----------------------------------------------------------------------------


def out_needs_a_class_folder(path: str) -> str:
    return (f"--out is for a class folder (one submission per student), and {path} is a single file: grade it "
            f"alone with hogkit grade {path}, or put it in a folder and grade the folder with --out")


def class_summary_line(graded: int, total: int, problems: int, seconds: float, out: str) -> str:
    missed = f" ({total - graded} could not be graded; see grades.csv)" if graded < total else ""
    return f"Graded {graded} of {total} submissions{missed} in {seconds:.1f} s. Results are in {out}"


# -- a class split across machines: --shard K/N, then hogkit merge ----------------------------------


def shard_needs_out() -> str:
    return "--shard grades a share of a class folder: give the folder to write it to with --out OUTDIR"


def shard_written(shard: str, graded: int, total: int, seconds: float, out: str) -> str:
    count = shard.partition("/")[2]
    return (f"Shard {shard}: graded {graded} of its {total} submissions in {seconds:.1f} s; its files are in {out}. "
            f"Once all {count} shards are done, combine them with `hogkit merge OUTDIR1 ... OUTDIR{count} --out "
            "OUTDIR`, which writes the class's tables")


def merge_summary_line(entries: int, count: int, seconds: float, out: str) -> str:
    return f"Merged {entries} submissions from {count} shards in {seconds:.1f} s. Results are in {out}"


# -- failures of the kit (never the student's), and a class graded again -------------------------


def kit_failures_line(count: int, log: str) -> str:
    """Printed after a class run in which the kit failed on some submissions."""
    return (f"The kit failed on {count} submission{'s' if count != 1 else ''} (not the students' fault; their "
            f"rows say 'kit error' and carry no score). Tracebacks: {log}. Run the same command again to "
            f"regrade them.")


def kit_failed_single(path: str, summary: str) -> str:
    return (f"the kit failed twice while grading {path}, so nothing was scored ({summary}); this is a fault of "
            f"the kit, not of the submission. The traceback follows; run the same command again, and "
            f"report it if it keeps failing.")


def class_reused(count: int) -> str:
    return f"{count} unchanged submission{'s' if count != 1 else ''} kept from the last run (use --force to regrade)"


# -- what a command wrote: the autograder, pictures, the contest, the bundle ---------------------


def autograder_written(path: str, parts: list[tuple[str, float]] | None = None) -> str:
    done = f"Wrote the Gradescope autograder to {path}: upload it as the assignment's autograder zip"
    if not parts:
        return done
    total = points_text(sum(points for _, points in parts))
    made_of = ", ".join(f"{points_text(points)} for {what}" for what, points in parts)
    return f"{done}.\nSet the assignment's total points on Gradescope to {total} ({made_of})."


def picture_win_title(strategy: str, against: str) -> str:
    return f"{strategy} against {against}: chance to win, about to move"


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


def released(path: str, archive: str) -> str:
    return f"Wrote the student bundle to {path} and {archive}"


def jobs_expected(jobs: str) -> str:
    return f"--jobs needs a whole number of 1 or more, not {jobs!r}"


# -- editions, the demo, build and new-edition ---------------------------------------------------


def edition_declared(name: str, path: str) -> str:
    return f"using the edition {name}, which {path} declares (--edition NAME chooses another)"


def os_failure(path: str | None, why: str) -> str:
    """The machine refused something the kit needed (a full disk, a folder it may not write)."""
    return f"{path}: {why}" if path else why


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


def new_edition_written(name: str, source: str, count: int, root: str) -> str:
    return (f"{name}: {count} files written under {root}, started from {source}. Next: change the "
            f"reference and the rules' text, then `hogkit build --edition {name}` and "
            f"`hogkit build --check --edition {name}`, which lists what is still to do, in order.")


def todo_header(name: str, count: int) -> str:
    return f"{name}: {count} thing(s) still to do, in this order:"


def todo_done(name: str) -> str:
    return (f"{name}: nothing missing; the reference earns every point. Next: "
            f"`hogkit mutants --edition {name}` (how strong the cases are).")


def build_fresh() -> str:
    return "everything is up to date"


def build_stale_hint() -> str:
    return "Run `hogkit build` to regenerate them."


# -- mutation testing (hogkit mutants): how strong the cases are ----------------------------------

COUNT_MUTANTS = "mutants graded"


def mutants_written(paths: list[str]) -> str:
    return "The mutation report: " + ", ".join(paths)


# -- the course (hogkit course) ------------------------------------------------------------------


def trust_file_times_needs_course() -> str:
    return "--trust-file-times is about a course's hand-in times: use it with --course DIR and --out OUTDIR"


def course_needs_out() -> str:
    return ("--course grades a class: give the class folder (or Gradescope export) and --out OUTDIR, as in "
            "hogkit grade CLASSDIR --out OUTDIR --course DIR")


def course_whole_project() -> str:
    return "--course grades the whole project (its deadlines need every problem's score): leave out -q"


def course_edition_differs(course: str, given: str) -> str:
    return f"the course is for {course!r}, not {given!r}: use its own edition, or change the file"


# -- the TA and similarity reports ---------------------------------------------------------------


def no_such_phase(phase: int, known: list[int]) -> str:
    return f"there is no Phase {phase} in this edition (its phases: {', '.join(str(n) for n in known)})"


def ta_report_written(path: str, submissions: int, with_logs: int) -> str:
    return (f"Wrote the TA report of {submissions} submissions ({with_logs} with an activity log) to {path} "
            f"(ta-report.md, wrong-answers.csv, unlock.csv, test-runs.csv, runs.png and runs.svg)")


def similarity_written(path: str, submissions: int, pairs: int, seconds: float) -> str:
    return (f"Compared {submissions} submissions in {seconds:.1f} s: {plural(pairs, 'pair')} "
            f"{'stands' if pairs == 1 else 'stand'} out from the class, best first; see {path} (similarity.html, "
            f"similarity.csv). It ranks and explains; no grade is changed.")
