"""Contest: every submission's strategy against every other, exactly, going first and second.

Contract: each entry's strategy (the edition's ``[analysis] report`` strategy, ``final_strategy``)
is tabulated in the sandbox, as the submission's own code; an entry that cannot be read, loaded or
tabulated (a value that is not an int from 0 to 10, answers that change, too slow) is listed with
its reason and takes no part. Every pair of valid entries is solved once, which gives both seats.
An entry earns a match point for each opponent it beats with a win rate above 50.0001% (averaged
over the seats); the ranking is by match points, then average win rate, then id. Outputs:
``leaderboard.csv`` and a self-contained ``contest.html`` with the win-rate matrix as a heat map.
"""

from __future__ import annotations

import csv
import io
import os
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from html import escape
from pathlib import Path

import numpy as np

from graders import analysis, messages
from graders.classroom import Progress, check_class_folder
from graders.edition import Edition
from graders.errors import InputError
from graders.reports import heat_colour
from graders.storage import write_atomically
from graders.submissions import Entry, discover

THRESHOLD = 0.500001
TIE = 1e-9  # average win rates closer than this are equal: the same strategy, solved twice


def tabulate_entry(entry: Entry, edition: Edition, strategy: str) -> np.ndarray | str:
    """The entry's strategy as a table, or why it cannot take part."""
    if entry.source is None:
        return entry.reason
    try:
        return analysis.tabulate_source(entry.source, edition, [strategy])[0][0]
    except analysis.AnalysisError as exc:
        return str(exc)


def run_contest(folder: Path, edition: Edition, out: Path, *, jobs: int | None = None,
                progress: Progress | None = None) -> list[dict]:
    """Play the contest of FOLDER's entries into OUT; return the leaderboard rows, best first."""
    check_class_folder(folder, edition, "contest")
    entries = discover(folder, edition.submission, skip=out)
    if not entries:
        raise InputError(messages.empty_class(str(folder)))
    model = analysis.build_model(edition)
    strategy = analysis.analysis_settings(edition).report_strategy
    workers = max(1, jobs or os.cpu_count() or 1)
    tables: list[np.ndarray | str] = [""] * len(entries)
    started = time.monotonic()
    with ThreadPoolExecutor(workers) as pool:
        entry_of = {pool.submit(tabulate_entry, e, edition, strategy): k for k, e in enumerate(entries)}
        for done, entry_done in enumerate(as_completed(entry_of), start=1):
            tables[entry_of[entry_done]] = entry_done.result()
            if progress:
                progress(done, len(entries), started, messages.COUNT_STRATEGIES)
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
        pair_of = {pool.submit(analysis.pair_rate, model, valid[i][1], valid[j][1]): key
                   for key, (i, j) in unique.items()}
        for done, pair_done in enumerate(as_completed(pair_of), start=1):
            solved[pair_of[pair_done]] = pair_done.result()
            if progress and (done % 200 == 0 or done == len(pair_of)):
                progress(done, len(pair_of), started, messages.COUNT_PAIRS)
    for i in range(n):
        for j in range(i + 1, n):
            rate = solved[(keys[i], keys[j])]
            rates[i, j], rates[j, i] = rate, 1.0 - rate
    board = []
    for i, (student, _table) in enumerate(valid):
        others = [rates[i, j] for j in range(n) if j != i]
        board.append({"student": student, "points": sum(r > THRESHOLD for r in others),
                      "average": float(np.mean(others)) if others else 0.5, "index": i})
    board.sort(key=lambda r: (-r["points"], -r["average"], r["student"]))
    for place, row in enumerate(board, start=1):  # entries that tie share a rank (1, 2, 2, 4)
        before = board[place - 2] if place > 1 else None
        if before is not None and before["points"] == row["points"] and abs(before["average"] - row["average"]) < TIE:
            row["rank"] = before["rank"]
        else:
            row["rank"] = place
    order = [row.pop("index") for row in board]  # the matrix's rows and columns in ranking order
    out.mkdir(parents=True, exist_ok=True)
    write_atomically(out / "leaderboard.csv", render_leaderboard_csv(board, invalid))
    write_atomically(out / "contest.html", render_contest_html(edition.title, board, rates[np.ix_(order, order)],
                                                               invalid))
    return board


def render_leaderboard_csv(board: list[dict], invalid: list[tuple[str, str]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["rank", "student", "match points", "average win rate", "status"])
    for row in board:
        writer.writerow([row["rank"], row["student"], row["points"], f"{row['average']:.6f}", "valid"])
    for student, reason in invalid:
        writer.writerow(["", student, "", "", f"invalid: {reason}"])
    return buffer.getvalue()


def render_contest_html(title: str, board: list[dict], rates: np.ndarray, invalid: list[tuple[str, str]]) -> str:
    """One page, no outside files: the leaderboard, the win-rate matrix as a heat map, invalid entries."""
    names = [escape(row["student"]) for row in board]
    head = "".join(f'<th title="{n}">{k + 1}</th>' for k, n in enumerate(names))
    body = []
    for i, row in enumerate(board):
        cells = "".join(
            f'<td style="background:{heat_colour(rates[i, j])}" title="{names[i]} vs {names[j]}: '
            f'{100 * rates[i, j]:.2f}%"></td>' if i != j else "<td></td>"
            for j in range(len(board))
        )
        body.append(f"<tr><th>{row['rank']}</th><td>{names[i]}</td><td>{row['points']}</td>"
                    f"<td>{100 * row['average']:.2f}%</td>{cells}</tr>")
    bad = "".join(f"<li>{escape(s)}: {escape(r)}</li>" for s, r in invalid) or "<li>none</li>"
    picture = ""
    if board:
        import base64

        from graders import pictures

        png = pictures.win_matrix(messages.matrix_title(title), [row["student"] for row in board], rates.tolist())
        picture = (f'<p><img alt="the win-rate matrix" src="data:image/png;base64,'
                   f'{base64.b64encode(png).decode("ascii")}"></p>')
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}: contest</title>
<style>
body {{ font-family: sans-serif; margin: 1em; }}
table {{ border-collapse: collapse; font-size: 12px; }}
td, th {{ padding: 2px 4px; }}
td[title] {{ width: 12px; height: 12px; padding: 0; }}
</style></head><body>
<h1>{escape(title)}: contest</h1>
<p>Each cell is the row entry's exact chance to beat the column entry, averaged over going first and
second (dark: the row wins). A match point is a win rate above 50.0001%.</p>
{picture}
<table><tr><th>rank</th><th>entry</th><th>points</th><th>average</th>{head}</tr>
{chr(10).join(body)}
</table>
<h2>Entries that could not take part</h2><ul>{bad}</ul>
</body></html>
"""
