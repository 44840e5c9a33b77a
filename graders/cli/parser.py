"""The ``hogkit`` command's parser: every command, its arguments and its help, one ``_add_*`` per command."""

from __future__ import annotations

import argparse
from typing import TypeAlias

from graders.cli import messages as cli_messages
from graders.courses.shards import parse_shard
from graders.editions.edition import DEFAULT_EDITION
from graders.gui import serveroptions


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
                   help="submissions graded at once (default: twice the machine's cores)")
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
