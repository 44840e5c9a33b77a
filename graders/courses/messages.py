"""What classes and courses say: class runs, shards and merge, Gradescope, course files, the TA
and similarity reports; the sentences only graders/courses/ uses (and graders/cli/ with it).

Each function returns text and nothing else, and tests/kit/courses/test_messages.py calls each one. The
text helpers (visible, clip, …) and the sentences several folders say are in graders.core.messages.
It runs only on an instructor's machine: none of its text is in the student's bundle.
"""

from __future__ import annotations

from collections.abc import Sequence

from graders.core.messages import KIT_LOG_NAME, interrupted, plural, printable

# -- a class run: its folder and its progress ----------------------------------------------------


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


# -- a class split across machines: --shard K/N, then hogkit merge ----------------------------------

COUNT_MERGED = "submissions merged"


def shard_expected(text: str) -> str:
    return (f"--shard needs K/N, this machine's share K of N shards, with whole numbers 1 <= K <= N "
            f"(say 2/3), not {text!r}")


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


# -- stopping a class run, and grading again what failed -----------------------------------------


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


def grader_did_not_start() -> str:
    return ("the grader did not start or did not finish (run_autograder found no results.json): look at "
            "the autograder's output above, then rerun setup.sh or rebuild with hogkit gradescope")


# -- Gradescope: hand-ins and the assignment's points --------------------------------------------

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


# -- pictures of a class and of a contest --------------------------------------------------------


def histogram_title(count: int) -> str:
    return f"Total scores ({count} submission{'s' if count != 1 else ''} graded)"


def matrix_title(title: str) -> str:
    return f"{title}: each entry's chance to beat each other entry"


# -- an interrupted run --------------------------------------------------------------------------


def interrupted_notice(program: str, on_terminal: bool) -> str:
    """The interrupt message on a line of its own: on a terminal, a progress bar (or the ^C) may
    hold the current line."""
    return ("\n" if on_terminal else "") + f"{program}: {interrupted()}"


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


# -- the similarity report -----------------------------------------------------------------------

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
    return f"{plural(submissions, 'submission')} compared, with {references} from past terms."


def similarity_how_listed(listed: int, pairs: int, median: float, scale: float, cutoff: float, floor: float,
                          most: int) -> str:
    """How the page's list was chosen, in a class with a distribution of pair scores."""
    return (f"{plural(listed, 'pair')} of the class's {pairs:,} {'stands' if listed == 1 else 'stand'} out: a "
            f"score at least {cutoff:g} robust deviations above the class's median pair score (a robust z-score; "
            f"the median is {median:.1%}, a robust deviation, 1.4826 times the scores' median absolute deviation "
            f"from it, is {scale:.1%}) and at least {floor:.0%}; {most} at most, best first. similarity.csv "
            f"lists them and the pairs below the line, each with its z-score.")


def similarity_how_listed_small(listed: int, students: int, smallest: int, floor: float) -> str:
    """How the page's list was chosen in a class too small to have a distribution of pair scores."""
    return (f"Only {plural(students, 'student')} {'has' if students == 1 else 'have'} code to compare (fewer than "
            f"{smallest}): too few pairs to tell what stands out from the class, so the {plural(listed, 'pair')} "
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
    return f"{plural(count, 'other student')} {'holds' if count == 1 else 'hold'} most of it"


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


# -- what a course file's value was expected to be, and short reasons a file could not be read -----

EXPECTED_DATETIME = "a date and time"
EXPECTED_FLAG = "yes or no in accommodation"
EXPECTED_GROUPS = "last, best or blank in groups"
EXPECTED_BOOL = "true or false"
EXPECTED_ZONE = "a zone name"
EXPECTED_COUNT = "a number of 0 or more"
EXPECTED_PHASE = "a phase number"
EXPECTED_PERCENT = "a percentage up to 100"
LINK_OR_TOO_LARGE = "a link or too large"
YAML_TOO_DEEP = "the YAML is nested too deeply to read"


def expected_list_of(names: tuple[str, ...] | list[str]) -> str:
    return f"a list of {', '.join(names)}"
