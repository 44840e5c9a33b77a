"""``hogkit``: a thin command line over the engine's pure functions.

    hogkit grade [PATH] [--edition NAME] [--json] [-q NN] [--verbose] [--out OUTDIR] [--jobs N] [--force]
                 [--course DIR] [--shard K/N]
    hogkit merge SHARDDIR... --out OUTDIR [--class CLASSDIR] [--course DIR]
    hogkit answers [-q NN | --phase N] [--markdown] [--edition NAME]
    hogkit build [--edition NAME | --all] [--check]
    hogkit release EDITION --out DIR
    hogkit gradescope EDITION [--out ZIP] [--course DIR]
    hogkit winrate PATH --strategy EXPR [--against EXPR] [--edition NAME] [--json]
    hogkit optimal [--edition NAME] [--against EXPR] [--table FILE]
    hogkit picture --strategy EXPR --out FILE.svg [--path PATH] [--kind strategy|win] [--edition NAME]
    hogkit contest CLASSDIR --out OUTDIR [--edition NAME] [--jobs N]
    hogkit report CLASSDIR --out OUTDIR [--edition NAME]
    hogkit play [PATH] [--edition NAME] [--port N] [--no-browser] [--seed N] [--host H] [--timeout S]
    hogkit mutants [--edition NAME] [-q NN] [--jobs N] [--out DIR]
    hogkit editions

Exit codes: 0 when the command did its job (whatever the score), 1 when ``build --check`` finds
stale files, 2 for bad input (no such path, not Python, unknown edition or problem), 3 when the kit
itself failed (a submission it could not grade through no fault of its own, a file it could not
write): never a student's fault, and a rerun tries again.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeAlias

from graders.core import messages
from graders.core.errors import HogkitError, InputError, KitFailure, SubmissionError
from graders.core.records import ProblemResult, Report
from graders.core.terminal import prepare_streams
from graders.core.writers import json_text
from graders.courses import cli_messages
from graders.courses import messages as courses_messages
from graders.courses.course import CourseError, Setup, load_setup
from graders.courses.shards import Shard, check_outside, parse_shard
from graders.editions.cases import load_questions
from graders.editions.edition import DEFAULT_EDITION, Edition, declared_edition, edition_names, load_edition
from graders.games import messages as games_messages
from graders.games.game import game_of
from graders.gui import serveroptions
from graders.sandboxing.isolation import Verified
from graders.scoring import reports
from graders.scoring.grading import grade_reliably
from graders.scoring.submissions import load_submission


def positive_int(text: str) -> int:
    """An option's value that must be a whole number of 1 or more (``--jobs``), checked by argparse."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(cli_messages.jobs_expected(text))
    return value


def _add_edition(p: argparse.ArgumentParser, declared: bool = False) -> None:
    default = (f"the edition PATH's project folder declares in tests/edition.json, else {DEFAULT_EDITION}"
               if declared else DEFAULT_EDITION)
    p.add_argument("--edition", default=None if declared else DEFAULT_EDITION, metavar="NAME",
                   help=f"the rules edition (default: {default}; see `hogkit editions`)")


def _edition(args: argparse.Namespace, path: Path | None, class_folder: bool = False) -> Edition:
    """--edition, or else the edition PATH declares (a student's project folder, or most of a
    class's), or else the default edition; a declared edition is said on standard error."""
    if args.edition:
        return load_edition(args.edition)
    from graders.scoring.submissions import declared_by_class

    declared = None
    if path is not None and path.exists():
        declared = declared_by_class(_class_root(path)) if class_folder else declared_edition(path)
    if declared and declared in edition_names():
        if declared != DEFAULT_EDITION:  # the default goes without saying
            print(cli_messages.edition_declared(declared, str(path)), file=sys.stderr)
        return load_edition(declared)
    return load_edition(DEFAULT_EDITION)


def _class_root(path: Path) -> Path:
    """The folder whose entries are the hand-ins: a Gradescope export's own folder when PATH holds
    one (each submission_<id> is then an entry, never the export as a whole), else PATH."""
    from graders.courses.handins import export_root, is_export

    return export_root(path) if path.is_dir() and is_export(path) else path


Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hogkit",
        description="The Hog teaching kit: grade a submission or a class, print answer keys, hand out the "
                    "project, build a Gradescope autograder, and analyse strategies exactly.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    _add_grade(sub)
    _add_merge(sub)
    _add_answers(sub)
    _add_build(sub)
    _add_new_edition(sub)
    _add_release(sub)
    _add_gradescope(sub)
    _add_winrate(sub)
    _add_optimal(sub)
    _add_picture(sub)
    _add_contest(sub)
    _add_report(sub)
    _add_play(sub)
    _add_mutants(sub)
    _add_similar(sub)
    sub.add_parser("editions", help="list the editions this kit has",
                   description="List the editions this kit has: each one's name (what --edition takes), its title, "
                               "its phases, its points and its checkpoint; the default edition is marked.")
    return parser


def _add_grade(sub: Subparsers) -> None:
    g = sub.add_parser(
        "grade", help="grade one submission, a whole class (--out), or the built-in demo class (no PATH)",
        description="Grade a submission (a folder holding hog.py, or a .py file), running every case, hidden "
                    "ones included. With --out, PATH is a class folder holding one submission per student (a "
                    "folder, a .py file, a .ipynb notebook or a .zip, named by the student's id) and the results "
                    "go to OUTDIR: grades.csv, records.jsonl, summary.md, histogram.svg and .png, and per student "
                    "feedback/ID.md and gradescope/ID/results.json, and the similarity report (similarity.html, "
                    "similarity.csv; see `hogkit similar`). Without PATH, grade the built-in demo class.")
    g.add_argument("path", nargs="?", help="a folder holding hog.py, a hog.py file, or (with --out) a class folder")
    _add_edition(g, declared=True)
    g.add_argument("-q", "--question", action="append", metavar="NN", help="only this problem (repeatable)")
    g.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    g.add_argument("--verbose", "-v", action="store_true", help="every failed case, with tracebacks")
    g.add_argument("--out", metavar="OUTDIR", help="grade PATH as a class folder and write the results here")
    g.add_argument("--jobs", type=positive_int, metavar="N",
                   help="submissions graded at once (default: the machine's cores)")
    g.add_argument("--force", action="store_true", help="regrade submissions already graded with the same code")
    g.add_argument("--require-isolation", action="store_true",
                   help="refuse to grade unless a sandboxed child verifies that the kit is hidden from it, the network "
                        "is off and it has an identity of its own (grading is always refused where it "
                        "could read the kit)")
    g.add_argument("--course", metavar="DIR",
                   help="with --out: apply the course in DIR (course.toml, roster.csv, overrides.csv): deadlines, "
                        "checkpoint by date, early bonus, late days, extensions, partners, overrides; PATH may "
                        "then be a Gradescope export")
    g.add_argument("--trust-file-times", action="store_true",
                   help="with --course, when neither times.csv nor a Gradescope export gives a hand-in's time: use "
                        "its file's modification time, which the student's archive can set; every course output "
                        "then says so (without this flag such a class is refused)")
    g.add_argument("--shard", type=parse_shard, metavar="K/N",
                   help="with --out: grade only share K of N of the class (each submission is in exactly one share, "
                        "chosen by a hash of its id) and write shard.json beside it; combine the N output folders "
                        "with `hogkit merge`. A rerun of a shard resumes it")


def _add_merge(sub: Subparsers) -> None:
    m = sub.add_parser("merge", help="combine the output folders of `hogkit grade --shard K/N` into one class's",
                       description="Combine the output folders of every shard of a class (`hogkit grade CLASS "
                                   "--out OUTk --shard k/N`, k = 1..N) into OUTDIR: the same files one `hogkit "
                                   "grade CLASS --out OUTDIR` would have written, byte for byte apart from times, "
                                   "with the course's policy (when the shards had --course) and the similarity "
                                   "report computed across the whole class, plus merge.json. Nothing is graded. "
                                   "Shards of another class, a missing shard or a non-empty OUTDIR (other than "
                                   "this same merge) are refused.")
    m.add_argument("shards", nargs="+", metavar="SHARDDIR", help="the output folder of each shard, in any order")
    m.add_argument("--out", required=True, metavar="OUTDIR", help="where the class's files go (new, empty, or "
                                                                  "an earlier run of this merge)")
    m.add_argument("--class", dest="class_folder", metavar="CLASSDIR",
                   help="the class folder, when it is not where the shards read it (their shard.json says where)")
    m.add_argument("--course", metavar="DIR",
                   help="the course folder, when it is not where the shards read it")


def _add_answers(sub: Subparsers) -> None:
    a = sub.add_parser("answers", help="print the unlock questions of a problem with their answers",
                       description="Print the answer key of the unlock questions, for teaching them in section.")
    which = a.add_mutually_exclusive_group()
    which.add_argument("-q", "--question", action="append", metavar="NN", help="only this problem (repeatable)")
    which.add_argument("--phase", type=int, metavar="N", help="every problem of Phase N")
    a.add_argument("--markdown", action="store_true",
                   help="print the key as a Markdown handout for section (questions, answers, transcripts)")
    _add_edition(a)


def _add_build(sub: Subparsers) -> None:
    b = sub.add_parser("build", help="regenerate generated cases and the skeleton from the marked solution",
                       description="Regenerate qNN.generated.toml files and skeleton/<edition>/ from the "
                                   "solution's markers and the case files. --check only reports stale files.")
    _add_edition(b)
    b.add_argument("--all", action="store_true", help="every edition")
    b.add_argument("--check", action="store_true",
                   help="write nothing; list what is stale or still to do (in order: manifest, reference, "
                        "handout, cases, build, the reference graded on every case); exit 1 if anything is")


def _add_new_edition(sub: Subparsers) -> None:
    n = sub.add_parser("new-edition", help="start next term's edition in this folder, from an edition the kit has",
                       description="Write tests/editions/NAME/, solution/NAME/ and handouts/NAME/ in the current "
                                   "folder (a course's own folder, or the kit's checkout): the starting edition's "
                                   "marked reference, case templates, unlock questions and handout, and a manifest "
                                   "with every key explained. Then change the reference and the rules' text, run "
                                   "`hogkit build --edition NAME`, and `hogkit build --check --edition NAME` lists "
                                   "what is still to do. docs/authoring.md walks through it.")
    n.add_argument("name", metavar="NAME", help="the new edition's name: a lower-case Python name, such as spring_hog")
    n.add_argument("--from", dest="source", default=DEFAULT_EDITION, metavar="EDITION",
                   help=f"the edition to start from (default: {DEFAULT_EDITION}; see `hogkit editions`)")
    n.add_argument("--rename", action="append", default=[], metavar="OLD=NEW",
                   help="rename a function (or any whole word) in every file copied; may be given again")


def _add_release(sub: Subparsers) -> None:
    r = sub.add_parser("release", help="write the folder (and zip) a student downloads for an edition",
                       description="Write the student bundle: the skeleton, public cases with hashed unlock answers "
                                   "(no hidden case, no solution), the runner `python3 ok` with the engine it needs, "
                                   "the handout as Markdown and as a notebook, and a README; then zip it.")
    r.add_argument("edition_name", metavar="EDITION", help="the edition to release (see `hogkit editions`)")
    r.add_argument("--out", default="hog-project", metavar="DIR",
                   help="a new or empty folder; DIR.zip is written beside it (default: %(default)s)")


def _add_gradescope(sub: Subparsers) -> None:
    z = sub.add_parser("gradescope", help="build the Gradescope autograder zip for an edition",
                       description="Build the autograder zip (setup.sh and run_autograder at its root) that runs "
                                   "this engine on Gradescope and writes /autograder/results/results.json. It holds "
                                   "every case, hidden ones included, and the reference where hidden cases need "
                                   "it (student code never reads it: see docs/judging.md).")
    z.add_argument("edition_name", metavar="EDITION", help="the edition to grade (see `hogkit editions`)")
    z.add_argument("--out", default="autograder.zip", metavar="ZIP", help="where to write it (default: %(default)s)")
    z.add_argument("--course", metavar="DIR",
                   help="ship the course in DIR (course.toml, roster.csv, overrides.csv): the autograder then gives "
                        "the checkpoint by date, the early bonus, late penalties and overrides from each "
                        "submission's metadata")


def _add_winrate(sub: Subparsers) -> None:
    w = sub.add_parser("winrate", help="the exact chance one strategy beats another, without sampling",
                       description="Tabulate two strategies of a submission (expressions evaluated in its own "
                                   "file, hog.py or pig.py, in the sandbox) and compute the exact probability "
                                   "that the first wins, going first, going second, and on average.")
    w.add_argument("path", help="a folder holding the submission (hog.py, pig.py), or the file itself")
    w.add_argument("--strategy", required=True, metavar="EXPR", help="for example final_strategy or always_roll(4)")
    w.add_argument("--against", metavar="EXPR", help="the opponent (default: the edition's baseline)")
    _add_edition(w, declared=True)
    w.add_argument("--json", action="store_true", help='print {"first", "second", "average"}')
    w.add_argument("--variant", default="", metavar="NAME", help="the rules of one of the edition's [analysis] "
                   "variants (for example no_feral_hogs)")


def _add_optimal(sub: Subparsers) -> None:
    o = sub.add_parser("optimal", help="the exact best response to a strategy, and the optimal strategy",
                       description="Compute, from the edition's reference rules, the strategy that wins most "
                                   "often against a given one (default: the baseline) and the optimal (minimax) "
                                   "strategy, with their exact win rates. In a game of roll-or-hold tactics both "
                                   "come from value iteration (a game that never ends is won by nobody).")
    _add_edition(o)
    o.add_argument("--against", metavar="EXPR", help="a strategy of the reference (default: the baseline)")
    o.add_argument("--table", metavar="FILE", help="write the best response as a Python table to FILE, with a "
                   "final_strategy that plays it")
    o.add_argument("--variant", default="", metavar="NAME",
                   help="the rules of one of the edition's [analysis] variants")


def _add_picture(sub: Subparsers) -> None:
    v = sub.add_parser("picture", help="draw a strategy: what it chooses, or its chance to win",
                       description="Draw a heat map of a strategy (SVG or PNG, by the --out suffix): what it "
                                   "chooses for every pair of scores (--kind strategy: the number of dice; in a "
                                   "game of tactics, roll or hold, one map per turn total) or its exact chance to "
                                   "win from each of them against the baseline or --against (--kind win).")
    v.add_argument("--strategy", required=True, metavar="EXPR",
                   help="a strategy (of the submission at PATH, or of the reference)")
    v.add_argument("--path", help="a submission whose strategy to draw (default: the reference)")
    v.add_argument("--kind", choices=["strategy", "dice", "win"], default="strategy",
                   help="strategy (or dice): what the strategy chooses for every pair of scores; win: the chance "
                        "to win (default: strategy)")
    v.add_argument("--against", metavar="EXPR",
                   help="for --kind win: the opponent, a strategy of the reference (default: the baseline)")
    v.add_argument("--out", required=True, metavar="FILE.svg", help="the picture to write: .svg or .png")
    _add_edition(v)


def _add_contest(sub: Subparsers) -> None:
    c = sub.add_parser("contest", help="every submission's final strategy against every other, exactly",
                       description="Tabulate each submission's final strategy in the sandbox, solve every pair "
                                   "exactly (both seats), and write OUTDIR/leaderboard.csv and OUTDIR/contest.html "
                                   "(the win-rate matrix as a heat map). Invalid entries are listed with the reason.")
    c.add_argument("path", metavar="CLASSDIR", help="one submission per student, as for `hogkit grade --out`")
    c.add_argument("--out", required=True, metavar="OUTDIR", help="where leaderboard.csv and contest.html go")
    _add_edition(c, declared=True)
    c.add_argument("--jobs", type=positive_int, metavar="N", help="submissions tabulated at once (default: the cores)")


def _add_report(sub: Subparsers) -> None:
    t = sub.add_parser("report", help="what the class's unlock and test logs teach: wrong answers, tries, test runs",
                       description="Read each submission's activity log (its .hogkit/activity.jsonl, a "
                                   "hogkit-activity.jsonl beside hog.py, or either inside a .zip) and write, per "
                                   "problem and unlock question, the wrong answers given most with counts, how many "
                                   "tries unlocking took, how many test runs it took until each problem passed and "
                                   "where students ran the tests most: OUTDIR/ta-report.md, wrong-answers.csv, "
                                   "unlock.csv, test-runs.csv and runs.png with runs.svg. No score is read or changed.")
    t.add_argument("path", metavar="CLASSDIR", help="one submission per student, as for `hogkit grade --out`")
    t.add_argument("--out", required=True, metavar="OUTDIR", help="where the report's files go")
    _add_edition(t, declared=True)


def _add_similar(sub: Subparsers) -> None:
    s = sub.add_parser("similar", help="list the pairs of students whose shared rare code stands out from the class",
                       description="Fingerprint each submission's own functions (the problems' functions and any "
                                   "helpers; never the skeleton's code; a function with a syntax error is left out, "
                                   "the others compared) and score each pair of students by the share of rare code "
                                   "of their own they share, robust to renaming, reordering, comments, dead code, "
                                   "for/while and notebooks. Writes OUTDIR/similarity.html (the pairs that stand "
                                   "out from the class, the evidence side by side) and similarity.csv (the pairs "
                                   "below the line too). It ranks and explains; it never changes a grade.")
    s.add_argument("path", metavar="CLASSDIR", help="one submission per student, as for `hogkit grade --out`")
    s.add_argument("--out", metavar="OUTDIR", help="where the report goes (default: CLASSDIR-similarity beside it)")
    _add_edition(s, declared=True)
    s.add_argument("--course", metavar="DIR", help="a course folder (course.toml, roster.csv): partners on the roster "
                                                   "are never paired, times are on the course's clock")
    s.add_argument("--reference-terms", nargs="+", default=[], metavar="DIR",
                   help="class folders of past terms: their code counts in how rare a match is, and a student "
                        "matching a past one is listed")


def _add_play(sub: Subparsers) -> None:
    y = sub.add_parser("play", help="play a submission's game in the browser (default: the reference)",
                       description="Serve the browser game for PATH (a hog.py file or a folder holding one; "
                                   "default: the edition's reference solution), with the kit's own support "
                                   "files. Each player is a person or any strategy PATH defines.")
    y.add_argument("path", nargs="?", metavar="PATH",
                   help="a hog.py, a folder holding one, or a zip (default: the edition's reference)")
    _add_edition(y, declared=True)
    serveroptions.add_options(y)
    y.set_defaults(parser=y)  # so that a bad option is refused with play's own usage line


def _add_mutants(sub: Subparsers) -> None:
    m = sub.add_parser("mutants", help="how strong the cases are: wrong versions of the reference they must reject",
                       description="Make mutants of the edition's reference solution (one small change each, inside "
                                   "a problem's own marked code), grade each in the sandbox on its problem's cases, "
                                   "hidden ones included, and report per problem how many the cases kill, how many "
                                   "time out and which survive. Equivalent mutants are recorded with a reason in "
                                   "tests/editions/<edition>/mutants.toml. Run it after editing or adding cases.")
    _add_edition(m)
    m.add_argument("-q", "--question", action="append", metavar="NN",
                   help="only the mutants this problem is measured on (a label such as 05 or 05a; repeatable)")
    m.add_argument("--jobs", type=positive_int, metavar="N",
                   help="mutants graded at once (default: the machine's cores)")
    m.add_argument("--out", metavar="DIR", help="write mutants.md, mutants.json and mutants.svg to this folder")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's own parser, so its usage line is the one shown
        _subparser(parser, args.command).error(cli_messages.unrecognized_arguments(" ".join(extra)))
    prepare_streams()
    try:
        return COMMANDS[args.command](args)
    except KitFailure as exc:
        print(f"hogkit: {exc}\n\n{exc.details}", file=sys.stderr)
        return exc.exit_status
    except HogkitError as exc:
        print(f"hogkit: {exc}", file=sys.stderr)
        return exc.exit_status
    except BrokenPipeError:  # the reader (say, `| head`) stopped early: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # a full disk, a folder that cannot be written: the machine's, not the input's
        print(f"hogkit: {cli_messages.os_failure(exc.filename, exc.strerror or str(exc))}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print(courses_messages.interrupted_notice("hogkit", sys.stderr.isatty()), file=sys.stderr)
        # The run is over and ends with 130: a Ctrl-C from now on changes nothing (left to the system's
        # default while the interpreter shuts down, it would end the process by the signal instead).
        if threading.current_thread() is threading.main_thread():  # (only it may set handlers)
            for number in (signal.SIGINT, signal.SIGTERM):
                signal.signal(number, signal.SIG_IGN)
        return 130


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    for action in parser._subparsers._group_actions if parser._subparsers else []:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]
    return parser


def _progress(result: ProblemResult) -> None:
    if sys.stderr.isatty():
        print(f"\r  graded problem {result.label} ", end="", file=sys.stderr, flush=True)


def cmd_play(args: argparse.Namespace) -> int:
    from graders.gui import webgui  # the web server loads only for this command

    edition = _edition(args, Path(args.path) if args.path else None)
    serveroptions.check_options(args.parser, args)
    path = Path(args.path) if args.path else edition.solution_dir / edition.submission
    load_submission(path, edition)  # refused as grading refuses it, before any server starts
    game = webgui.Game(path.resolve(), edition, edition, args.seed, args.timeout, best_play=game_of(edition))
    return webgui.serve(game, args)


def writable_output(text: str, folder: bool, made_later: bool = False) -> Path:
    """The output path TEXT, checked before any work is done, and nothing made of it: the folder it
    is (FOLDER) or is in could be made there (the nearest folder above it that exists takes a file;
    the command makes the output folder itself once its inputs are checked, so a refused command
    writes nothing), but a file is never written into a folder that is not there yet (a mistyped
    path would otherwise be made anywhere); a file path must not be a folder, unless the command makes
    that folder itself (MADE_LATER) and says its own word about it. Bad input otherwise (one line,
    exit status 2)."""
    import errno
    import tempfile

    path = Path(text)
    where = path if folder else path.parent
    if not folder and not made_later and path.is_dir():
        raise SubmissionError(cli_messages.cannot_write(text, cli_messages.REASON_IS_A_FOLDER))
    if not folder and not made_later and not where.is_dir():
        raise SubmissionError(cli_messages.cannot_write(text, cli_messages.reason_no_folder(str(where))))
    here = where
    while not os.path.lexists(here) and here != here.parent:
        here = here.parent
    if not here.is_dir():
        raise SubmissionError(cli_messages.cannot_write(text, os.strerror(errno.ENOTDIR)))
    try:
        with tempfile.TemporaryFile(dir=here):
            pass
    except OSError as exc:
        raise SubmissionError(cli_messages.cannot_write(text, exc.strerror or str(exc))) from exc
    return path


def cmd_grade(args: argparse.Namespace) -> int:
    if args.out and args.path and Path(args.path).is_file():
        raise SubmissionError(cli_messages.out_needs_a_class_folder(args.path))
    if args.shard is not None and not args.out:
        raise InputError(cli_messages.shard_needs_out())
    if args.shard is not None and args.path:
        check_outside(Path(args.path), Path(args.out))  # before OUTDIR is made
    if args.trust_file_times and not args.course:
        raise InputError(cli_messages.trust_file_times_needs_course())
    setup = course_setup(args) if args.course else None  # every course file read before any grading
    edition = _edition(args, Path(args.path) if args.path else None, class_folder=bool(args.out))
    numbers = edition.parse_numbers(args.question)
    if setup is not None:
        setup = load_setup(Path(args.course), [p.label for p in edition.problems])  # overrides' problems checked
    if args.path is None:
        verified_isolation(edition, [], args.require_isolation)
        return grade_demo(edition, numbers, args.json)
    if args.out:
        return grade_a_class(Path(args.path), edition, writable_output(args.out, folder=True), args.jobs, args.force,
                             setup, args.trust_file_times, args.require_isolation, args.shard)
    verified_isolation(edition, [], args.require_isolation)
    try:
        submission = load_submission(Path(args.path), edition)
    except SubmissionError as exc:
        if Path(args.path).is_dir() and not (Path(args.path) / edition.submission).exists():
            raise SubmissionError(f"{exc}; {cli_messages.class_folder_hint()}") from exc  # advice for instructors only
        raise
    try:
        report = grade_reliably(submission, edition, problems=numbers, on_problem=_progress, game=game_of(edition))
    except KitFailure as exc:
        raise KitFailure(cli_messages.kit_failed_single(args.path, exc.summary), exc.details) from exc
    if sys.stderr.isatty():
        print("\r" + " " * 30 + "\r", end="", file=sys.stderr)
    if args.json:
        print(reports.render_json(report))
    else:
        print(reports.render_text(report, verbose=args.verbose, path=args.path, default_edition=DEFAULT_EDITION))
    return 0


def verified_isolation(edition: Edition, folders: list[Path], require_all: bool) -> Verified | None:
    """What a child here verified it can reach, before any hidden case runs: refused (exit status 3)
    when it could read the kit's secrets or FOLDERS, or, with REQUIRE_ALL, had less than full isolation.
    None when no child could even start: each submission is then the kit's failure, as always."""
    from graders.core.errors import SandboxError
    from graders.sandboxing import guard

    try:
        return guard.require([edition], folders, require_all)
    except SandboxError:
        return None


def course_setup(args: argparse.Namespace) -> Setup:
    """The course folder --course names, read whole (a bad file is one line and exit status 2), and
    its edition made the command's when --edition is not given; refused without --out, with -q, or
    with an --edition other than the course file's."""
    if not args.out:
        raise InputError(cli_messages.course_needs_out())
    if args.question:
        raise InputError(cli_messages.course_whole_project())
    setup = load_setup(Path(args.course))
    named = setup.course.edition
    if named and named not in edition_names():
        raise CourseError(courses_messages.course_error(setup.course.source, "edition",
                                                        messages.unknown_edition(named, edition_names())))
    if args.edition:
        check_course_edition(setup, args.edition)
    args.edition = args.edition or named or None
    return setup


def check_course_edition(setup: Setup, edition: str) -> None:
    """Refuse a course whose course.toml names an edition other than EDITION."""
    named = setup.course.edition
    if named and named != edition:
        raise CourseError(courses_messages.course_error(setup.course.source, "edition",
                                                        cli_messages.course_edition_differs(named, edition)))


def grade_a_class(folder: Path, edition: Edition, out: Path, jobs: int | None, force: bool,
                  course: Setup | None = None, trust_file_times: bool = False, require_all: bool = False,
                  shard: Shard | None = None) -> int:
    from graders.core.storage import make_private_folder
    from graders.courses.classroom import check_class_folder, grade_class, kit_errors, print_progress, read_class
    from graders.sandboxing import isolation

    check_class_folder(folder, edition, "grade")  # before any line about the grading to come
    inputs = read_class(folder, edition, out, course, trust_file_times, shard)  # refused before OUTDIR is made
    made = make_private_folder(out)
    try:
        verified = verified_isolation(edition, [folder, out], require_all)
    except HogkitError:
        if made is not None:  # refused: nothing of it stays behind
            shutil.rmtree(made, ignore_errors=True)
        raise
    print(verified.summary if verified else isolation.policy().summary, file=sys.stderr)
    started = time.monotonic()
    records = grade_class(folder, edition, out, jobs=jobs, force=force, progress=print_progress,
                          notice=lambda line: print(line, file=sys.stderr, flush=True), course=course,
                          trust_file_times=trust_file_times, shard=shard, inputs=inputs)
    graded = sum(r.graded for r in records)
    reused = sum(r.reused for r in records)
    if reused:
        print(cli_messages.class_reused(reused))
    seconds = time.monotonic() - started
    if shard is not None:
        print(cli_messages.shard_written(str(shard), graded, len(records), seconds, str(out)))
    else:
        print(cli_messages.class_summary_line(graded, len(records), len(edition.problems), seconds, str(out)))
    failed = kit_errors(records)
    if failed:
        print(cli_messages.kit_failures_line(len(failed), str(out / messages.KIT_LOG_NAME)), file=sys.stderr)
        return 3
    return 0


def _shown_path(path: Path) -> str:
    """PATH as typed from here: relative when it is below the current folder, else absolute."""
    relative = os.path.relpath(path)
    return path.resolve().as_posix() if relative.startswith("..") else Path(relative).as_posix()


def grade_demo(edition: Edition, numbers: list[str] | None, as_json: bool) -> int:
    from graders.authoring.demo import build_demo_class

    made = build_demo_class(edition)
    folder = made[0][1].parent
    try:
        workers = max(1, min(len(made), os.cpu_count() or 1))
        with ThreadPoolExecutor(workers) as pool:
            futures = [
                (name, pool.submit(grade_reliably, load_submission(path, edition), edition, problems=numbers,
                                     game=game_of(edition)))
                for name, path in made
            ]
            graded: list[tuple[str, Report]] = []
            if not as_json:
                print(cli_messages.demo_heading(edition.title, len(made)))
                print(cli_messages.demo_phases([(ph.number, ph.name) for ph in edition.phases]))
            for name, future in futures:
                try:
                    report = future.result()
                except KitFailure as exc:
                    raise KitFailure(cli_messages.kit_failed_single(name, exc.summary), exc.details) from exc
                graded.append((name, report))
                if not as_json:
                    print(reports.render_summary_row(name, report), flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if as_json:
        print(json_text([{"submission": n, **r.as_dict()} for n, r in graded], indent=2))
    else:
        edition_flag = None if edition.name == DEFAULT_EDITION else edition.name
        print("\n" + cli_messages.demo_next(_shown_path(edition.skeleton_dir), _shown_path(edition.solution_dir),
                                             edition_flag))
    return 0


def cmd_answers(args: argparse.Namespace) -> int:
    edition = load_edition(args.edition)
    phase = None
    if args.phase is not None:
        phase = next((ph for ph in edition.phases if ph.number == args.phase), None)
        if phase is None:
            raise InputError(cli_messages.no_such_phase(args.phase, [ph.number for ph in edition.phases]))
        numbers = [p.label for p in edition.problems if p.phase == phase.number]
    else:
        numbers = edition.parse_numbers(args.question) or [p.label for p in edition.problems]
    problems = [(edition.problem(n), load_questions(edition, n)) for n in numbers]
    if args.markdown:
        print(reports.render_answer_key(edition.title, problems, phase), end="")
    else:
        print(reports.render_answer_key_text(problems), end="")
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    from graders.authoring.artifacts import build
    from graders.authoring.checklist import still_to_do

    names = edition_names() if args.all else [args.edition]
    stale = pending = 0
    for name in names:
        edition = load_edition(name)
        changed = build(edition, write=not args.check)
        for path in changed:
            shown = path.relative_to(edition.root) if path.is_relative_to(edition.root) else path
            print(cli_messages.build_changed("stale" if args.check else "written", str(shown)))
        steps = still_to_do(edition, changed) if args.check else []
        if steps:
            print(cli_messages.todo_header(name, len(steps)))
            print("\n".join(f"  {n}. {step}" for n, step in enumerate(steps, start=1)))
        elif args.check and len(names) == 1:
            print(cli_messages.todo_done(name))
        stale += len(changed) if args.check else 0
        pending += len(steps)
    if stale:
        print(cli_messages.build_stale_hint(), file=sys.stderr)
    if stale or pending:
        return 1
    print(cli_messages.build_fresh())
    return 0


def cmd_new_edition(args: argparse.Namespace) -> int:
    from graders.authoring import newedition

    made = newedition.plan(args.name, load_edition(args.source), Path.cwd(), newedition.parse_renames(args.rename))
    written = newedition.write(made)
    print(cli_messages.new_edition_written(args.name, args.source, len(written), str(Path.cwd())))
    return 0


def cmd_editions(args: argparse.Namespace) -> int:
    for name in edition_names():
        ed = load_edition(name)
        checkpoint = ed.checkpoint.points if ed.checkpoint else 0
        print(cli_messages.edition_line(name, ed.title, len(ed.phases), ed.max_points, checkpoint,
                                        name == DEFAULT_EDITION))
    return 0


def cmd_release(args: argparse.Namespace) -> int:
    from graders.authoring.bundle import release

    edition = load_edition(args.edition_name)
    out = writable_output(args.out, folder=False, made_later=True)  # release makes the folder, or refuses
    try:
        archive = release(edition, out)
    except FileExistsError as exc:
        raise InputError(str(exc)) from exc
    print(cli_messages.released(str(out), str(archive)))
    return 0


def cmd_gradescope(args: argparse.Namespace) -> int:
    from graders.courses.gradescope import assignment_total, build_autograder

    edition = load_edition(args.edition_name)
    course = Path(args.course) if args.course else None
    if course is not None:
        check_course_edition(load_setup(course, [p.label for p in edition.problems]), edition.name)
    out = build_autograder(edition, writable_output(args.out, folder=False), course)
    print(cli_messages.autograder_written(str(out), assignment_total(edition, course)))
    return 0


def cmd_winrate(args: argparse.Namespace) -> int:
    edition = _edition(args, Path(args.path))
    submission = load_submission(Path(args.path), edition)
    game = game_of(edition)
    game.prepare(args.variant)
    against = args.against or game.baseline()
    (mine, theirs), notes = game.tabulate_source(submission.source, [args.strategy, against])
    _print_notes(notes)
    rates = game.win_rates(mine, theirs, args.variant)
    print(json.dumps(rates) if args.json else games_messages.win_rate_lines(args.strategy, against, rates))
    return 0


def _print_notes(notes: list[str]) -> None:
    """What loading a submission did (a repaired syntax error, a skipped statement), on standard error."""
    for note in notes:
        print(messages.LABEL_NOTE + note, file=sys.stderr)


def cmd_optimal(args: argparse.Namespace) -> int:
    edition = load_edition(args.edition)
    if args.table:
        writable_output(args.table, folder=False)
    game = game_of(edition)
    game.prepare(args.variant)
    play = game.optimal(args.against or game.baseline(), args.variant)
    for line in play.lines:
        print(line)
    if args.table:
        Path(args.table).write_text(play.module_source, encoding="utf-8")
        print(game.table_written(args.table))
    return 0


def cmd_picture(args: argparse.Namespace) -> int:
    from graders.games import pictures

    edition = load_edition(args.edition)
    writable_output(args.out, folder=False)
    game = game_of(edition)
    game.prepare()
    baseline_text = args.against or (game.baseline() if args.kind == "win" else "")
    if args.path:
        source = load_submission(Path(args.path), edition).source
        (table,), notes = game.tabulate_source(source, [args.strategy])
        _print_notes(notes)
    else:
        table = game.reference_table(args.strategy)
    fmt = pictures.format_of(args.out)
    if args.kind == "win":
        win = game.start_values(table, game.reference_table(baseline_text))
        picture = pictures.win_chances(cli_messages.picture_win_title(args.strategy, baseline_text), win.tolist(), fmt)
    else:
        picture = game.strategy_picture(args.strategy, table, fmt)
    Path(args.out).write_bytes(picture)
    print(cli_messages.picture_written(args.out))
    return 0


def cmd_contest(args: argparse.Namespace) -> int:
    from graders.courses.classroom import print_progress
    from graders.courses.contest import run_contest

    writable_output(args.out, folder=True)
    edition = _edition(args, Path(args.path), class_folder=True)
    board, invalid = run_contest(Path(args.path), edition, Path(args.out), jobs=args.jobs, progress=print_progress)
    print("\n".join(contest_summary(board, invalid, str(Path(args.out)))))
    return 0


SHOWN_STANDINGS = 10


def contest_summary(board: list, invalid: list[tuple[str, str]], out: str) -> list[str]:
    """What ``hogkit contest`` prints: the top of the leaderboard (and how many more there are),
    the entries that could not play, and where the files are."""
    lines = [cli_messages.leaderboard_line(row.rank, row.student, row.points, row.average)
             for row in board[:SHOWN_STANDINGS]]
    if len(board) > SHOWN_STANDINGS:
        lines.append(cli_messages.leaderboard_more(len(board) - SHOWN_STANDINGS))
    if invalid:
        lines.append(cli_messages.contest_invalid([student for student, _why in invalid]))
    lines.append(cli_messages.contest_written(out))
    return lines


def cmd_report(args: argparse.Namespace) -> int:
    from graders.courses.classroom import check_class_folder
    from graders.courses.tareport import write_report

    edition = _edition(args, Path(args.path), class_folder=True)
    check_class_folder(Path(args.path), edition, "report")
    out = writable_output(args.out, folder=True)
    report = write_report(Path(args.path), edition, out)
    print(cli_messages.ta_report_written(str(out), report.submissions, report.with_logs))
    return 0


def cmd_similar(args: argparse.Namespace) -> int:
    from graders.courses import similarity
    from graders.courses.classroom import check_class_folder, print_progress
    from graders.courses.handins import export_root, is_export

    folder = Path(args.path)
    edition = _edition(args, folder, class_folder=True)
    check_class_folder(folder, edition, "similar")
    for reference in args.reference_terms:
        check_class_folder(Path(reference), edition, "similar")
    setup = load_setup(Path(args.course)) if args.course else None
    if setup is not None:
        check_course_edition(setup, edition.name)
    out = writable_output(args.out or str(folder.resolve().parent / f"{folder.resolve().name}-similarity"),
                          folder=True)
    root = export_root(folder) if is_export(folder) else folder  # a Gradescope export, as grade --course reads it
    report = similarity.compare(root, edition, [Path(r) for r in args.reference_terms], setup,
                                progress=print_progress, skip=out)
    similarity.write_report(out, report)
    print(cli_messages.similarity_written(str(out), report.students, len(report.listed), report.seconds))
    return 0


def cmd_mutants(args: argparse.Namespace) -> int:
    import traceback

    from graders.authoring import mutants
    from graders.core import storage
    from graders.courses.classroom import print_progress

    edition = load_edition(args.edition)
    labels = edition.parse_numbers(args.question)
    out = writable_output(args.out, folder=True) if args.out else None
    mutants.load_equivalents(edition)  # a broken record is refused before any work
    try:
        report = mutants.run(edition, labels, jobs=args.jobs,
                             progress=lambda done, total, started: print_progress(done, total, started,
                                                                                  cli_messages.COUNT_MUTANTS))
    except mutants.MutantError as exc:
        raise KitFailure(str(exc), traceback.format_exc()) from exc
    print(mutants.render_text(report))
    if out is not None:
        files: dict[str, str | bytes] = {"mutants.md": mutants.render_markdown(report),
                                         "mutants.json": mutants.render_json(report) + "\n",
                                         "mutants.svg": mutants.chart(report, "svg")}
        for name, content in files.items():
            storage.write_atomically(out / name, content)
        print(cli_messages.mutants_written([str(out / name) for name in files]))
    return 3 if any(o.status == mutants.KIT_ERROR for o in report.outcomes) else 0


def cmd_merge(args: argparse.Namespace) -> int:
    from graders.courses.classroom import kit_errors, print_progress
    from graders.courses.merging import merge

    out = writable_output(args.out, folder=True)
    started = time.monotonic()
    records = merge([Path(p) for p in args.shards], out,
                    folder=Path(args.class_folder) if args.class_folder else None,
                    course_dir=Path(args.course) if args.course else None, progress=print_progress,
                    notice=lambda line: print(line, file=sys.stderr, flush=True))
    print(cli_messages.merge_summary_line(len(records), len(args.shards), time.monotonic() - started, str(out)))
    failed = kit_errors(records)
    if failed:
        print(cli_messages.kit_failures_line(len(failed), str(out / messages.KIT_LOG_NAME)), file=sys.stderr)
        return 3
    return 0


COMMANDS = {"grade": cmd_grade, "merge": cmd_merge, "play": cmd_play,
            "answers": cmd_answers, "build": cmd_build, "new-edition": cmd_new_edition, "editions": cmd_editions,
            "release": cmd_release, "gradescope": cmd_gradescope, "winrate": cmd_winrate, "optimal": cmd_optimal,
            "picture": cmd_picture, "contest": cmd_contest, "report": cmd_report, "mutants": cmd_mutants,
            "similar": cmd_similar}

if __name__ == "__main__":
    sys.exit(main())
