"""``hogkit answers``, ``build``, ``new-edition``, ``editions``, ``release``, ``gradescope`` and ``mutants``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from graders.cli import messages as cli_messages
from graders.cli.common import writable_output
from graders.cli.grading import check_course_edition
from graders.core.errors import InputError, KitFailure, MutantError
from graders.courses.roster import load_setup
from graders.editions.cases import load_questions
from graders.editions.edition import DEFAULT_EDITION, edition_names, load_edition
from graders.scoring import reports


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
    except MutantError as exc:
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
