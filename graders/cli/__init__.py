"""``hogkit``: a thin command line over the engine's pure functions, one module per group of commands
(``parser``: every command's arguments; ``grading``, ``authoring``, ``analysis``: what each does;
``common``: what they share); this module runs one and turns every failure into its exit status.

    hogkit grade [PATH] [--edition NAME] [--json] [-q NN] [--verbose] [--out OUTDIR] [--jobs N] [--force]
                 [--course DIR] [--shard K/N]
    hogkit merge SHARDDIR... --out OUTDIR [--class CLASSDIR] [--course DIR]
    hogkit answers [-q NN | --phase N] [--markdown] [--edition NAME]
    hogkit build [--edition NAME | --all] [--check]
    hogkit new-edition NAME [--from EDITION] [--rename OLD=NEW]
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
import os
import signal
import sys
import threading

from graders.cli import messages as cli_messages
from graders.cli.analysis import cmd_optimal, cmd_picture, cmd_play, cmd_winrate
from graders.cli.authoring import (
    cmd_answers,
    cmd_build,
    cmd_editions,
    cmd_gradescope,
    cmd_mutants,
    cmd_new_edition,
    cmd_release,
)
from graders.cli.grading import cmd_contest, cmd_grade, cmd_merge, cmd_report, cmd_similar, contest_summary
from graders.cli.parser import build_parser
from graders.core.errors import HogkitError, KitFailure
from graders.core.terminal import prepare_streams
from graders.courses import messages as courses_messages

__all__ = ["COMMANDS", "build_parser", "contest_summary", "main"]


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's own parser, so its usage line is the one shown
        subparser_of(parser, args.command).error(cli_messages.unrecognized_arguments(" ".join(extra)))
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


def subparser_of(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    for action in parser._subparsers._group_actions if parser._subparsers else []:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]
    return parser


COMMANDS = {"grade": cmd_grade, "merge": cmd_merge, "play": cmd_play,
            "answers": cmd_answers, "build": cmd_build, "new-edition": cmd_new_edition, "editions": cmd_editions,
            "release": cmd_release, "gradescope": cmd_gradescope, "winrate": cmd_winrate, "optimal": cmd_optimal,
            "picture": cmd_picture, "contest": cmd_contest, "report": cmd_report, "mutants": cmd_mutants,
            "similar": cmd_similar}
