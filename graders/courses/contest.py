"""Contest: every submission's strategy against every other, exactly, going first and second.

Contract: each entry's strategy (the edition's contest strategy, ``final_strategy``: see
:meth:`graders.games.game.Game.contest_strategy`) is tabulated in the sandbox, as the submission's own code,
through the game seam (dice per pair of scores for Hog, an action per turn total for a game of
tactics); an entry that cannot be read, loaded or tabulated (a value the game does not allow,
answers that change, too slow, or the kit failing on it) is listed with its reason and takes no
part. Every pair of valid entries is solved once, which gives both seats.
An entry earns a match point for each opponent it beats with a win rate above 50.0001% (averaged
over the seats); the ranking is by match points, then average win rate, then id. Outputs:
``leaderboard.csv`` and a self-contained ``contest.html`` with the win-rate matrix as a heat map.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import numpy as np

from graders.core.errors import AnalysisError, InputError
from graders.core.records import Standing
from graders.core.storage import write_atomically
from graders.courses import messages as courses_messages
from graders.courses.classroom import Progress, check_class_folder
from graders.editions.edition import Edition
from graders.games import pictures
from graders.games.game import Game, game_of
from graders.scoring import reports
from graders.scoring.grading import describe_failure
from graders.scoring.submissions import Entry, discover

THRESHOLD = 0.500001
TIE = 1e-9  # average win rates closer than this are equal: the same strategy, solved twice


def tabulate_entry(entry: Entry, game: Game, strategy: str) -> np.ndarray | str:
    """The entry's strategy as a table, or why it cannot take part."""
    if entry.source is None:
        return entry.reason
    try:
        return game.tabulate_source(entry.source, [strategy])[0][0]
    except AnalysisError as exc:
        return str(exc)
    except Exception as exc:  # the kit's failure on one entry is that entry's line, never the contest's end
        return courses_messages.contest_kit_failed(describe_failure(exc))


def run_contest(folder: Path, edition: Edition, out: Path, *, jobs: int | None = None,
                progress: Progress | None = None) -> tuple[list[Standing], list[tuple[str, str]]]:
    """Play the contest of FOLDER's entries into OUT; return the standings, best first, and the
    entries that could not play, each with why."""
    check_class_folder(folder, edition, "contest")
    entries = discover(folder, edition.submission, skip=out)
    if not entries:
        raise InputError(courses_messages.empty_class(str(folder)))
    game = game_of(edition)
    game.prepare()
    strategy = game.contest_strategy()
    workers = max(1, jobs or os.cpu_count() or 1)
    tables: list[np.ndarray | str] = [""] * len(entries)
    started = time.monotonic()
    with ThreadPoolExecutor(workers) as pool:
        entry_of = {pool.submit(tabulate_entry, e, game, strategy): k for k, e in enumerate(entries)}
        for done, entry_done in enumerate(as_completed(entry_of), start=1):
            tables[entry_of[entry_done]] = entry_done.result()
            if progress:
                progress(done, len(entries), started, courses_messages.COUNT_STRATEGIES)
    valid = [(e.student, t) for e, t in zip(entries, tables, strict=True) if not isinstance(t, str)]
    invalid = [(e.student, t) for e, t in zip(entries, tables, strict=True) if isinstance(t, str)]
    n = len(valid)
    rates = np.full((n, n), 0.5)
    keys = [table.tobytes() for _student, table in valid]
    unique: dict[tuple[bytes, bytes], tuple[int, int]] = {}  # identical strategies are solved once
    for i in range(n):
        for j in range(i + 1, n):
            unique.setdefault((keys[i], keys[j]), (i, j))
    solved: dict[tuple[bytes, bytes], float] = {}
    started = time.monotonic()
    with ThreadPoolExecutor(workers) as pool:
        kept = list(pool.map(lambda pair: game.contest_entry(pair[1]), valid))  # once per entry
        pair_of = {pool.submit(game.contest_pair, kept[i], kept[j]): key for key, (i, j) in unique.items()}
        for done, pair_done in enumerate(as_completed(pair_of), start=1):
            solved[pair_of[pair_done]] = pair_done.result()
            if progress and (done % 200 == 0 or done == len(pair_of)):
                progress(done, len(pair_of), started, courses_messages.COUNT_PAIRS)
    for i in range(n):
        for j in range(i + 1, n):
            rate = solved[(keys[i], keys[j])]
            rates[i, j], rates[j, i] = rate, 1.0 - rate
    board = _standings([student for student, _table in valid], rates)
    order = [index for index, _standing in board]  # the matrix's rows and columns in ranking order
    standings = [standing for _index, standing in board]
    out.mkdir(parents=True, exist_ok=True)
    write_atomically(out / "leaderboard.csv", reports.render_leaderboard_csv(standings, invalid))
    ranked = rates[np.ix_(order, order)]
    png = pictures.win_matrix(courses_messages.matrix_title(edition.title), [s.student for s in standings],
                              ranked.tolist()) if standings else b""
    write_atomically(out / "contest.html", reports.render_contest_html(edition.title, standings, ranked, invalid, png))
    return standings, invalid


def _standings(students: list[str], rates: np.ndarray) -> list[tuple[int, Standing]]:
    """(the entry's index in RATES, its standing), best first; entries that tie share a rank."""
    n = len(students)
    rows = []
    for i, student in enumerate(students):
        others = [float(rates[i, j]) for j in range(n) if j != i]
        rows.append((i, student, sum(r > THRESHOLD for r in others), float(np.mean(others)) if others else 0.5))
    rows.sort(key=lambda r: (-r[2], -r[3], r[1]))
    board: list[tuple[int, Standing]] = []
    for place, (i, student, points, average) in enumerate(rows, start=1):
        before = board[-1][1] if board else None
        tied = before is not None and before.points == points and abs(before.average - average) < TIE
        board.append((i, Standing(before.rank if tied and before else place, student, points, average)))
    return board
