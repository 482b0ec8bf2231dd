"""Each Traveler's figures of one dataset, one panel per player count: win rates, win rate against fair
share (a heatmap), final scores, and points by source. Each function draws one figure and writes one PNG.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.colors import TwoSlopeNorm

from analysis.load import POINT_SOURCES
from analysis.tokaido import figures, panels, tables
from analysis.tokaido.report import SOURCE_LABELS

COLORS = {"stronger": "#1a7f37", "weaker": "#c0392b", "": "#34495e"}
# one distinct colour per point source (14 with Crossroads and Matsuri; no two alike, unlike a 10-colour
# cycle)
SOURCE_COLORS = (
    "#4363d8",
    "#f58231",
    "#3cb44b",
    "#e6194b",
    "#911eb4",
    "#ffe119",
    "#42d4f4",
    "#f032e6",
    "#a9a9a9",
    "#fabed4",
    "#469990",
    "#9a6324",
    "#000075",
    "#808000",
)


_figure, _save = figures.new_figure, figures.save


def plot_win_rates(lf: pl.LazyFrame, path: str | Path, about: str | None = None) -> Path:
    """Win rate per Traveler with Wilson 95% intervals, one panel per player count, fair share dashed."""
    df = tables.traveler_table(lf, ["n_players"])
    if df.is_empty():
        return panels.empty(path, "No Travelers in this dataset")
    order, counts = panels.traveler_order(df), panels.player_counts(df)
    fig = _figure(max(6.5, 2.0 + 2.6 * len(counts)), 1.6 + 0.32 * len(order))
    for ax, n in zip(panels.row(fig, len(counts)), counts, strict=True):
        sub = {r["traveler"]: r for r in df.filter(pl.col("n_players") == n).iter_rows(named=True)}
        for y, t in enumerate(order):
            if t not in sub:
                continue
            r = sub[t]
            color = COLORS[r["verdict"]]
            ax.errorbar(
                100 * r["win_rate"],
                y,
                xerr=[[100 * (r["win_rate"] - r["win_lo"])], [100 * (r["win_hi"] - r["win_rate"])]],
                fmt="o",
                color=color,
                ms=5,
                capsize=3,
                lw=1.4,
            )
        ax.axvline(100 / n, color="#888", ls="--", lw=1, zorder=0)
        ax.set_title(f"{n} players (fair {100 / n:.1f}%)", fontsize=10)
        ax.set_xlabel("win rate (%)")
        ax.grid(axis="x", alpha=0.3)
    ax0 = fig.axes[0]
    ax0.set_yticks(range(len(order)), order)
    ax0.set_ylim(-0.6, len(order) - 0.4)
    handles = [
        ax0.plot([], [], "o", color=c, label=lab)[0]
        for lab, c in (
            ("stronger than fair", COLORS["stronger"]),
            ("not significant", COLORS[""]),
            ("weaker than fair", COLORS["weaker"]),
        )
    ]
    fig.legend(handles=handles, loc="outside lower center", ncols=3, fontsize=9, frameon=False)
    panels.title(
        fig,
        lf,
        "Win rate per Traveler\n(95% Wilson intervals; colour flags: Holm-adjusted, 5% family-wise)",
        about=about,
    )
    return _save(fig, path)


def plot_fairness_heatmap(
    lf: pl.LazyFrame, path: str | Path, about: str | None = None, table: pl.DataFrame | None = None
) -> Path:
    """Traveler x player count heatmap of win rate / fair share, annotated (* = Holm-significant); with
    ``table`` (a Traveler table with ``config``: ``questions.views``) one column per configuration and
    count."""
    df = tables.traveler_table(lf, ["n_players"]) if table is None else table
    if df.is_empty():
        return panels.empty(path, "No Travelers in this dataset")
    order = panels.traveler_order(df)[::-1]
    if "config" in df.columns:
        cols = [
            (r["config"], r["n_players"])
            for r in df.select("config", "n_players").unique(maintain_order=True).iter_rows(named=True)
        ]
        names = ["\n".join(textwrap.wrap(f"{n}p · {c}", 16)) for c, n in cols]
    else:
        cols = [(None, n) for n in panels.player_counts(df)]
        names = [f"{n} players" for _, n in cols]
    grid = np.full((len(order), len(cols)), np.nan)
    flag = np.full(grid.shape, "", dtype=object)
    for r in df.iter_rows(named=True):
        i, j = order.index(r["traveler"]), cols.index((r.get("config"), r["n_players"]))
        grid[i, j], flag[i, j] = r["win_ratio"], "*" if r["verdict"] else ""
    span = max(0.05, float(np.nanmax(np.abs(grid - 1))))
    counts = cols
    fig = _figure(2.8 + 1.0 * len(counts), 1.4 + 0.36 * len(order))
    ax = fig.subplots()
    im = ax.imshow(grid, cmap="RdBu_r", norm=TwoSlopeNorm(1.0, 1 - span, 1 + span), aspect="auto")
    for (i, j), v in np.ndenumerate(grid):
        if np.isfinite(v):
            dark = abs(v - 1) > 0.6 * span
            ax.text(
                j,
                i,
                f"{v:.2f}{flag[i, j]}",
                ha="center",
                va="center",
                fontsize=9,
                color="white" if dark else "black",
            )
    ax.set_xticks(range(len(counts)), names, fontsize=8 if table is not None else None)
    ax.set_yticks(range(len(order)), order)
    ax.tick_params(length=0)
    fig.colorbar(im, ax=ax, label="win rate ÷ fair share (1 = fair)", shrink=0.8)
    head = "Win rate relative to fair share\n(* = differs from fair, Holm 5%)"
    if table is None:
        panels.title(fig, lf, head, about=about)
    else:  # one column per configuration: nothing pooled
        fig.suptitle(head + (f"\n{panels.wrap(fig, about)}" if about else ""), fontsize=11)
    return _save(fig, path)


def plot_score_distributions(lf: pl.LazyFrame, path: str | Path, about: str | None = None) -> Path:
    """Final-score distribution per Traveler: box = quartiles, whiskers = 5th-95th percentiles, dot = mean."""
    df = tables.score_summary(lf, ["n_players"])
    if df.is_empty():
        return panels.empty(path, "No Travelers in this dataset")
    order, counts = panels.traveler_order(df, "mean"), panels.player_counts(df)
    fig = _figure(max(6.5, 2.0 + 2.6 * len(counts)), 1.5 + 0.32 * len(order))
    for ax, n in zip(panels.row(fig, len(counts)), counts, strict=True):
        sub = {r["traveler"]: r for r in df.filter(pl.col("n_players") == n).iter_rows(named=True)}
        items = [(y, sub[t]) for y, t in enumerate(order) if t in sub]
        ax.bxp(
            [
                {
                    "med": r["median"],
                    "q1": r["q25"],
                    "q3": r["q75"],
                    "whislo": r["q05"],
                    "whishi": r["q95"],
                    "mean": r["mean"],
                    "fliers": [],
                }
                for _, r in items
            ],
            positions=[y for y, _ in items],
            orientation="horizontal",
            widths=0.6,
            showmeans=True,
            patch_artist=True,
            boxprops={"facecolor": "#d6e4f0", "edgecolor": "#34495e"},
            medianprops={"color": "#c0392b"},
            meanprops={
                "marker": "o",
                "markerfacecolor": "#34495e",
                "markeredgecolor": "none",
                "markersize": 4,
            },
        )
        ax.set_title(f"{n} players", fontsize=10)
        ax.set_xlabel("final score (points)")
        ax.grid(axis="x", alpha=0.3)
    fig.axes[0].set_yticks(range(len(order)), order)
    panels.title(
        fig,
        lf,
        "Final score per Traveler\n(box: quartiles, red line: median, dot: mean, whiskers: 5th–95th "
        "percentile)",
        about=about,
    )
    return _save(fig, path)


def plot_points_by_source(lf: pl.LazyFrame, path: str | Path, about: str | None = None) -> Path:
    """Mean points per game by source, stacked, per Traveler and player count."""
    df = tables.traveler_table(lf, ["n_players"])
    if df.is_empty():
        return panels.empty(path, "No Travelers in this dataset")
    order, counts = panels.traveler_order(df, "mean_score"), panels.player_counts(df)
    # only the sources that score in this data (Crossroads columns are 0 in base games)
    sources = [c for c in POINT_SOURCES if df[c].abs().sum() > 0]
    width = max(6.5, 2.0 + 2.8 * len(counts))
    fig = _figure(width + 1.6, 2.0 + 0.32 * max(len(order), len(sources) * 0.7))
    for ax, n in zip(panels.row(fig, len(counts)), counts, strict=True):
        sub = {r["traveler"]: r for r in df.filter(pl.col("n_players") == n).iter_rows(named=True)}
        ys = [y for y, t in enumerate(order) if t in sub]
        left = np.zeros(len(ys))
        for src, color in zip(sources, SOURCE_COLORS[: len(sources)], strict=True):
            vals = np.array([sub[order[y]][src] for y in ys], dtype=float)
            ax.barh(ys, vals, left=left, color=color, height=0.7, label=SOURCE_LABELS[src])
            left += vals
        ax.set_title(f"{n} players", fontsize=10)
        ax.set_xlabel("mean points per game")
        ax.grid(axis="x", alpha=0.3)
    ax0 = fig.axes[0]
    ax0.set_yticks(range(len(order)), order)
    handles, labels = ax0.get_legend_handles_labels()
    # one column at the right: constrained layout makes room for it whatever the number of sources
    fig.legend(handles, labels, loc="outside right center", fontsize=9, frameon=False)
    panels.title(fig, lf, "Mean points by source per Traveler", about=about)
    return _save(fig, path)
