"""Pictures: a strategy's dice, its chance to win, a class's scores and a contest's win rates.

Contract: each function takes plain data (lists of numbers, names) and returns the bytes of one
picture, PNG or SVG as asked, drawn with matplotlib on a figure of its own through the object
interface (never pyplot's shared state), so grading threads may draw at once. Every picture has a
title, labelled axes and, for a heat map, a colour bar with its scale; SVG keeps its text as text,
so it stays small and searchable. Text is drawn as written: no label (a student's file name among
them) is ever parsed as mathtext (:func:`_save`, the one place every picture passes). Instructor
side only: the student bundle never imports this.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # matplotlib itself is imported by each function, when a picture is asked for
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FORMATS = ("png", "svg")
DPI = 110


def format_of(path: str) -> str:
    """'png' or 'svg' from PATH's suffix (SVG when it has neither)."""
    return "png" if path.lower().endswith(".png") else "svg"


def _figure(width: float, height: float) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    return figure, figure.add_subplot()


def _save(figure: Figure, fmt: str) -> bytes:
    import matplotlib

    if fmt not in FORMATS:
        raise ValueError(f"pictures are {' or '.join(FORMATS)}, not {fmt}")
    from matplotlib.text import Text

    for text in figure.findobj(Text):  # a label is shown as written, never parsed as mathtext
        text.set_parse_math(False)
    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "hogkit", "text.parse_math": False}):
        figure.savefig(buffer, format=fmt, metadata={"Date": None} if fmt == "svg" else {"Software": None})
    return buffer.getvalue()


def _score_axes(axes: Axes, size: int) -> None:
    axes.set_xlabel("opponent's score")
    axes.set_ylabel("your score")
    ticks = list(range(0, size, 10))
    axes.set_xticks(ticks)
    axes.set_yticks(ticks)


def strategy_dice(title: str, table: Sequence[Sequence[int]], dice: tuple[int, int], fmt: str = "svg") -> bytes:
    """How many dice the strategy rolls for every pair of scores (TABLE[score][opponent]), one colour
    for each number of dice the game allows (DICE: the fewest and the most, from its [game] table)."""
    from matplotlib import colormaps
    from matplotlib.colors import BoundaryNorm

    figure, axes = _figure(6.4, 5.4)
    levels = dice[1] - dice[0] + 1
    norm = BoundaryNorm([k - 0.5 for k in range(dice[0], dice[1] + 2)], levels)
    image = axes.imshow(table, origin="lower", cmap=colormaps["viridis"].resampled(levels), norm=norm,
                        interpolation="nearest")
    _score_axes(axes, len(table))
    axes.set_title(title)
    bar = figure.colorbar(image, ax=axes, ticks=range(dice[0], dice[1] + 1))
    bar.set_label("dice rolled")
    return _save(figure, fmt)


def tactic_map(title: str, panels: Sequence[tuple[int, Sequence[Sequence[int]]]], actions: Sequence[str],
               fmt: str = "svg") -> bytes:
    """What a tactic chooses for every pair of scores, one small map per turn total (PANELS: the
    turn total and TABLE[score][opponent], an index into ACTIONS), in the same colours throughout."""
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    columns = min(4, max(1, len(panels)))
    rows = -(-len(panels) // columns)
    figure = Figure(figsize=(2.6 * columns + 0.4, 2.5 * rows + 0.9), dpi=DPI, layout="constrained")
    grid = figure.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
    colours = ListedColormap(ACTION_COLOURS[:len(actions)])
    norm = BoundaryNorm([k - 0.5 for k in range(len(actions) + 1)], len(actions))
    for axes, (total, table) in zip(grid.flat, panels, strict=False):
        axes.imshow(table, origin="lower", cmap=colours, norm=norm, interpolation="nearest")
        axes.set_title(f"turn total {total}", fontsize=9)
        axes.set_xticks(list(range(0, len(table), 20)))
        axes.set_yticks(list(range(0, len(table), 20)))
    for axes in list(grid.flat)[len(panels):]:
        axes.set_visible(False)
    figure.supxlabel("opponent's score")
    figure.supylabel("your score")
    figure.suptitle(title)
    figure.legend(handles=[Patch(color=ACTION_COLOURS[k], label=name) for k, name in enumerate(actions)],
                  loc="outside right upper", frameon=False)
    return _save(figure, fmt)


ACTION_COLOURS = ("#d9534f", "#4a7ab5", "#e0c23c", "#5cb85c")  # roll, hold, and room for more actions


def win_chances(title: str, win: Sequence[Sequence[float]], fmt: str = "svg") -> bytes:
    """The chance to win from every pair of scores, about to move (WIN[score][opponent], 0 to 1)."""
    from matplotlib.ticker import PercentFormatter

    figure, axes = _figure(6.4, 5.4)
    image = axes.imshow(win, origin="lower", cmap="RdYlBu", vmin=0.0, vmax=1.0, interpolation="nearest")
    _score_axes(axes, len(win))
    axes.set_title(title)
    bar = figure.colorbar(image, ax=axes, format=PercentFormatter(1.0))
    bar.set_label("chance to win")
    return _save(figure, fmt)


def score_histogram(title: str, totals: Sequence[int], most: int, fmt: str = "svg") -> bytes:
    """How many submissions earned each total from 0 to MOST.

    Only the totals someone earned get a bar (and its count), and at most about 20 ticks are
    labelled, so an edition whose points run to thousands draws as fast as one out of 25."""
    from matplotlib.ticker import MaxNLocator

    figure, axes = _figure(7.0, 3.6)
    counts: dict[int, int] = {}
    for total in totals:
        earned = min(max(int(total), 0), most)
        counts[earned] = counts.get(earned, 0) + 1
    bars = axes.bar(list(counts), list(counts.values()), color="#4a7ab5", width=max(0.8, most / 100))
    axes.bar_label(bars, labels=[str(n) for n in counts.values()], fontsize=8)
    axes.set_xlim(-0.6 - most / 50, most + 0.6 + most / 50)
    if most <= 40:
        axes.set_xticks(range(0, most + 1, 2 if most > 12 else 1))
    else:
        axes.xaxis.set_major_locator(MaxNLocator(nbins=20, integer=True))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("total score")
    axes.set_ylabel("submissions")
    axes.set_title(title)
    return _save(figure, fmt)


def win_matrix(title: str, names: Sequence[str], rates: Sequence[Sequence[float]], fmt: str = "png") -> bytes:
    """The contest's win rates: RATES[i][j] is entry i's chance to beat entry j (the diagonal blank)."""
    import numpy as np
    from matplotlib.ticker import PercentFormatter

    size = len(names)
    shown = np.array(rates, dtype=float).reshape(size, size)
    np.fill_diagonal(shown, np.nan)
    side = min(12.0, 3.0 + 0.18 * size)
    figure, axes = _figure(side + 1.2, side)
    image = axes.imshow(shown, cmap="RdYlBu", vmin=0.0, vmax=1.0, interpolation="nearest")
    labels = list(names) if size <= 40 else []
    axes.set_xticks(range(size) if labels else [], labels, rotation=90, fontsize=7)
    axes.set_yticks(range(size) if labels else [], labels, fontsize=7)
    axes.set_xlabel("opponent (in ranking order)")
    axes.set_ylabel("entry (in ranking order)")
    axes.set_title(title)
    bar = figure.colorbar(image, ax=axes, format=PercentFormatter(1.0))
    bar.set_label("chance the entry wins")
    return _save(figure, fmt)


def test_runs(title: str, labels: Sequence[str], per_student: Sequence[float], until_passed: Sequence[float],
              fmt: str = "svg") -> bytes:
    """For each problem (LABELS), the test runs per student who ran it and the median runs until it
    first passed, side by side."""
    from matplotlib.ticker import MaxNLocator

    figure, axes = _figure(max(6.0, 1.0 + 0.55 * len(labels)), 3.8)
    where = list(range(len(labels)))
    width = 0.4
    runs = axes.bar([x - width / 2 for x in where], per_student, width, color="#4a7ab5", label="runs per student")
    until = axes.bar([x + width / 2 for x in where], until_passed, width, color="#e08a3c",
                     label="runs until it passed (median)")
    for bars in (runs, until):
        axes.bar_label(bars, labels=[f"{v:g}" if v else "" for v in (per_student if bars is runs else until_passed)],
                       fontsize=7)
    axes.set_xticks(where, list(labels))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("problem")
    axes.set_ylabel("test runs")
    axes.set_title(title)
    axes.set_ylim(0, max([*per_student, *until_passed, 1.0]) * 1.15)  # room for the bars' labels
    if labels:  # below the plot, where no bar can hide under it
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncols=2, fontsize=8, frameon=False)
    return _save(figure, fmt)


MUTANT_COLOURS = ("#4a7ab5", "#8fb3dc", "#d9534f", "#bbbbbb")  # killed, timed out, survived, equivalent


def mutant_bars(title: str, labels: Sequence[str], counts: Mapping[str, Sequence[int]], axis_names: tuple[str, str],
                marked: str = "", fmt: str = "svg") -> bytes:
    """One stacked bar per problem (LABELS): for each kind of outcome in COUNTS (name: one count per
    problem, in stacking order), a segment; a bar with any of the MARKED kind (the survivors) shows
    their count above it."""
    from matplotlib.ticker import MaxNLocator

    figure, axes = _figure(max(5.0, 1.2 + 0.55 * len(labels)), 3.8)
    bottoms = [0] * len(labels)
    colours = dict(zip(counts, MUTANT_COLOURS, strict=False))  # more kinds than colours: matplotlib's own
    for kind, values in counts.items():
        axes.bar(range(len(labels)), values, bottom=bottoms, color=colours.get(kind), width=0.7, label=kind)
        bottoms = [b + v for b, v in zip(bottoms, values, strict=True)]
    for k, (top, left) in enumerate(zip(bottoms, counts.get(marked, [0] * len(labels)), strict=True)):
        if left:
            axes.annotate(str(left), (k, top), ha="center", va="bottom", fontsize=8, color=colours.get(marked))
    axes.set_ylim(0, max(1.0, 1.12 * max(bottoms, default=0)))  # room for the counts above the bars
    axes.set_xticks(range(len(labels)), labels)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(axis_names[0])
    axes.set_ylabel(axis_names[1])
    axes.set_title(title)
    axes.legend(fontsize=8, frameon=False, ncols=len(counts), loc="upper center", bbox_to_anchor=(0.5, -0.18))
    return _save(figure, fmt)
