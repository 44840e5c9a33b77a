"""``hogkit winrate``, ``optimal``, ``picture`` and ``play``: a game's exact analysis and the browser game."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from graders.cli import messages as cli_messages
from graders.cli.common import edition_for, print_notes, writable_output
from graders.editions.edition import load_edition
from graders.games import messages as games_messages
from graders.games.game import game_of
from graders.gui import serveroptions
from graders.scoring.submissions import load_submission


def cmd_play(args: argparse.Namespace) -> int:
    from graders.gui import webgui  # the web server loads only for this command

    edition = edition_for(args, Path(args.path) if args.path else None)
    serveroptions.check_options(args.parser, args)
    path = Path(args.path) if args.path else edition.solution_dir / edition.submission
    load_submission(path, edition)  # refused as grading refuses it, before any server starts
    game = webgui.PageGame(path.resolve(), edition, edition, args.seed, args.timeout, best_play=game_of(edition))
    return webgui.serve(game, args)


def cmd_winrate(args: argparse.Namespace) -> int:
    edition = edition_for(args, Path(args.path))
    submission = load_submission(Path(args.path), edition)
    game = game_of(edition)
    game.prepare(args.variant)
    against = args.against or game.baseline()
    (mine, theirs), notes = game.tabulate_source(submission.source, [args.strategy, against])
    print_notes(notes)
    rates = game.win_rates(mine, theirs, args.variant)
    print(json.dumps(rates) if args.json else games_messages.win_rate_lines(args.strategy, against, rates))
    return 0


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
        print_notes(notes)
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
