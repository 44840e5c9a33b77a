"""``hogkit grade``, ``merge``, ``report``, ``similar`` and ``contest``: one file, a class, its shards, its reports."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from graders.cli import messages as cli_messages
from graders.cli.common import edition_for, problem_progress, shown_path, writable_output
from graders.core import messages
from graders.core.errors import HogkitError, InputError, KitFailure, SubmissionError
from graders.core.records import Report
from graders.core.writers import json_text
from graders.courses import messages as courses_messages
from graders.courses.course import CourseError
from graders.courses.roster import Setup, load_setup
from graders.courses.shards import Shard, check_outside
from graders.editions.edition import DEFAULT_EDITION, Edition, edition_names
from graders.games.game import game_of
from graders.sandboxing.isolation import Verified
from graders.scoring import reports
from graders.scoring.grading import grade_reliably
from graders.scoring.submissions import load_submission


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
    edition = edition_for(args, Path(args.path) if args.path else None, class_folder=bool(args.out))
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
        report = grade_reliably(submission, edition, problems=numbers, on_problem=problem_progress,
                                game=game_of(edition))
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
        print("\n" + cli_messages.demo_next(shown_path(edition.skeleton_dir), shown_path(edition.solution_dir),
                                             edition_flag))
    return 0


def cmd_contest(args: argparse.Namespace) -> int:
    from graders.courses.classroom import print_progress
    from graders.courses.contest import run_contest

    writable_output(args.out, folder=True)
    edition = edition_for(args, Path(args.path), class_folder=True)
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

    edition = edition_for(args, Path(args.path), class_folder=True)
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
    edition = edition_for(args, folder, class_folder=True)
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
