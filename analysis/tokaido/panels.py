"""What the balance plots of one dataset share: the title that says what the data are, one panel per
player count, the Travelers' order, and the figure drawn when there is nothing to plot.

A frame that mixes configurations (variants, expansions, ...) is drawn as given, pooled, and the title
says so.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from analysis.load import conditions
from analysis.tokaido import describe, figures

ORDINAL = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def title(
    fig: Figure, lf: pl.LazyFrame, title: str, split: str | None = None, about: str | None = None
) -> None:
    """The figure's title, then what the data are (configuration, bots, games: ``describe``)."""
    pooled = [c for c in conditions(lf) if c != split]
    about = wrap(fig, about or describe.about_frame(lf).title())
    fig.suptitle(
        title + (f"\n(pooled over {', '.join(pooled)})" if pooled else "") + f"\n{about}", fontsize=11
    )


def wrap(fig: Figure, text: str) -> str:
    """``text`` broken into lines that fit the figure's width at the title's font size."""
    return "\n".join(textwrap.wrap(text, width=max(30, int(fig.get_figwidth() * 11))))


def traveler_order(df: pl.DataFrame, value: str = "win_ratio") -> list[str]:
    """Travelers sorted by their mean ``value`` over player counts, the largest last (top of a barh)."""
    agg = df.group_by("traveler").agg(pl.col(value).mean().alias("v")).sort(["v", "traveler"])
    return agg.get_column("traveler").to_list()


def player_counts(df: pl.DataFrame) -> list[int]:
    return sorted(set(df.get_column("n_players").to_list()))


def row(fig: Figure, n: int) -> list[Axes]:
    """``n`` panels side by side, sharing the Travelers' axis."""
    axes = fig.subplots(1, n, sharey=True, squeeze=False)[0]
    return list(axes)


def empty(path: str | Path, message: str) -> Path:
    fig = figures.new_figure(6, 2)
    fig.text(0.5, 0.5, message, ha="center", va="center", fontsize=11)
    return figures.save(fig, path)
