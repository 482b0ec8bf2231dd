"""The seat-advantage figure of one dataset: win rate against fair share per seat, one line per player
count, split by Preparations when the data holds games with and without it.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
from matplotlib.axes import Axes

from analysis.tokaido import figures, panels, tables
from analysis.tokaido.panels import ORDINAL

_figure, _save = figures.new_figure, figures.save


def _seat_panel(ax: Axes, df: pl.DataFrame, title: str) -> None:
    counts = panels.player_counts(df)
    for k, n in enumerate(counts):
        sub = df.filter(pl.col("n_players") == n).sort("seat")
        x = sub["seat"].to_numpy() + (k - (len(counts) - 1) / 2) * 0.08
        y, lo, hi = (sub[c].to_numpy() for c in ("win_ratio", "win_ratio_lo", "win_ratio_hi"))
        ax.errorbar(x, y, yerr=[y - lo, hi - y], fmt="o-", capsize=3, ms=5, lw=1.4, label=f"{n} players")
    ax.axhline(1.0, color="#888", ls="--", lw=1, zorder=0)
    seats = max(df["seat"].to_list()) + 1 if df.height else 1
    ax.set_xticks(range(seats), [ORDINAL[i] for i in range(seats)])
    ax.set_xlabel("seat: order of leaving Kyoto")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)


def plot_seat_advantage(lf: pl.LazyFrame, path: str | Path, about: str | None = None) -> Path:
    """Win rate ÷ fair share per seat (95% intervals), one line per player count; split into
    without / with Preparations when the data has a ``variants`` column with both."""
    split: list[tuple[str, pl.LazyFrame]] = [("all games", lf)]
    by = None
    if "variants" in lf.collect_schema().names():
        prep = pl.col("variants").str.contains("preparations")
        has = lf.select(
            prep.any().alias("a"), (~prep).any().alias("b"), pl.col("variants").n_unique().alias("n")
        )
        with_prep, without_prep, n_values = has.collect().row(0)
        if with_prep and without_prep:
            split = [("without Preparations", lf.filter(~prep)), ("with Preparations", lf.filter(prep))]
            by = "variants" if n_values == 2 else None
    fig = _figure(max(6.5, 1.5 + 4.0 * len(split)), 4.2)
    axes = fig.subplots(1, len(split), sharey=True, squeeze=False)[0]
    for ax, (title, part) in zip(axes, split, strict=True):
        _seat_panel(ax, tables.seat_table(part, ["n_players"]), title)
    axes[0].set_ylabel("win rate ÷ fair share (1 = fair)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=len(labels), fontsize=9, frameon=False)
    panels.title(fig, lf, "Seat advantage (95% Wilson intervals)", split=by, about=about)
    return _save(fig, path)
