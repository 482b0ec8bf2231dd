"""Plots that set configurations side by side, never pooled: each draws tables already computed.

``plot_side_by_side`` draws each Traveler's win rate in every configuration (one colour each) per
player count; ``plot_change_effects`` draws what each change (a variant, an expansion) does to each
Traveler's and each seat's win rate, one panel per change; ``plot_seats`` draws the seats of every
configuration. Each takes a frame with a ``config`` column (the configuration in words,
``describe.config_label``) and writes one PNG (Agg canvas, no pyplot state).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

PALETTE = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#17becf",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
)
ORDINAL = ("1st", "2nd", "3rd", "4th", "5th")
PLAYER_COLORS = {
    2: "#1f77b4",
    3: "#d62728",
    4: "#2ca02c",
    5: "#9467bd",
}  # one colour per player count, every plot


def new_figure(width: float, height: float) -> Figure:
    """A figure on its own Agg canvas (no pyplot state), laid out by constrained layout."""
    fig = Figure(figsize=(width, height), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def save(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` as a PNG at ``path`` (its folder made if needed); return the path."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(p, dpi=110)
    return p


_figure, _save = new_figure, save


def _title(fig: Figure, title: str, about: str | None) -> None:
    width = max(40, int(fig.get_figwidth() * 11))
    lines = [title] + (textwrap.wrap(about, width) if about else [])
    fig.suptitle("\n".join(lines), fontsize=11)


def _empty(path: str | Path, message: str) -> Path:
    fig = _figure(6, 2)
    fig.text(0.5, 0.5, message, ha="center", va="center", fontsize=11)
    return _save(fig, path)


def _order(df: pl.DataFrame, value: str) -> list[str]:
    """Travelers by their mean ``value`` over the frame, the largest at the top of the panel."""
    agg = (
        df.group_by("traveler")
        .agg(pl.col(value).mean().alias("v"))
        .sort(["v", "traveler"], descending=[True, False])
    )
    return agg.get_column("traveler").to_list()


def colours(configs: Sequence[str]) -> dict[str, str]:
    """One colour per configuration, in the order given: pass the same map to every plot of a report."""
    return {c: PALETTE[k % len(PALETTE)] for k, c in enumerate(dict.fromkeys(configs))}


def plot_side_by_side(
    trav: pl.DataFrame,
    path: str | Path,
    title: str,
    about: str | None = None,
    colour: dict[str, str] | None = None,
) -> Path:
    """Win rate per Traveler with 95% Wilson intervals: one panel per player count, one colour per
    configuration (``config``), the fair share 1/N dashed; filled markers differ from fair (Holm 5%)."""
    if trav.is_empty():
        return _empty(path, "No Travelers in this dataset")
    configs = trav.get_column("config").unique(maintain_order=True).to_list()
    colour = colour or colours(configs)
    counts = sorted(set(trav.get_column("n_players").to_list()))
    order = _order(trav, "win_diff")
    step = min(0.8 / max(len(configs), 1), 0.3)
    fig = _figure(max(7.0, 1.8 + 2.9 * len(counts)), 1.8 + (0.2 + 0.05 * len(configs)) * len(order))
    axes = fig.subplots(1, len(counts), sharey=True, squeeze=False)[0]
    for ax, n in zip(axes, counts, strict=True):
        for k, cfg in enumerate(configs):
            sub = trav.filter((pl.col("n_players") == n) & (pl.col("config") == cfg))
            if sub.is_empty():
                continue
            color = colour.get(cfg, PALETTE[k % len(PALETTE)])
            rows = {r["traveler"]: r for r in sub.iter_rows(named=True)}
            ys = np.array([i for i, t in enumerate(order) if t in rows]) + (k - (len(configs) - 1) / 2) * step
            rs = [rows[t] for t in order if t in rows]
            est = np.array([100 * r["win_rate"] for r in rs])
            lo = np.array([100 * r["win_lo"] for r in rs])
            hi = np.array([100 * r["win_hi"] for r in rs])
            flag = np.array([bool(r["verdict"]) for r in rs])
            ax.hlines(ys, lo, hi, color=color, lw=1.3)
            ax.scatter(est[flag], ys[flag], color=color, s=18, zorder=3)
            ax.scatter(est[~flag], ys[~flag], facecolor="white", edgecolor=color, s=18, zorder=3)
        ax.axvline(100 / n, color="#888", ls="--", lw=1, zorder=0)
        ax.set_title(f"{n} players (fair {100 / n:.1f}%)", fontsize=10)
        ax.set_xlabel("win rate (%)")
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(order)), order, fontsize=9)
    axes[0].set_ylim(len(order) - 0.5, -0.5)
    handles = [
        axes[0].scatter([], [], color=colour.get(c, PALETTE[k % len(PALETTE)]), s=18, label=c)
        for k, c in enumerate(configs)
    ]
    handles.append(
        axes[0].scatter([], [], facecolor="white", edgecolor="#444", s=18, label="within chance of fair")
    )
    fig.legend(
        handles=handles, loc="outside lower center", ncols=min(len(handles), 3), fontsize=9, frameon=False
    )
    _title(fig, title, about)
    return _save(fig, path)


def plot_change_effects(
    eff: pl.DataFrame,
    path: str | Path,
    title: str,
    about: str | None = None,
    kinds: Sequence[str] = ("traveler", "seat"),
) -> Path:
    """Effect of each change on the win rate (percentage points, other − base, 95% intervals): one panel per
    change (``change``, in words), rows the Travelers then the seats, one colour per player count; filled
    markers are significant (Holm 5% within the change)."""
    eff = (
        eff.filter((pl.col("figure") == "win rate") & pl.col("kind").is_in(list(kinds)))
        if eff.height
        else eff
    )
    eff = eff.filter(pl.col("only") == "") if "only" in eff.columns else eff
    if eff.is_empty():
        return _empty(path, "No effects to plot")
    paired = "diff_paired" in eff.columns
    est = pl.coalesce("diff_paired", "diff") if paired else pl.col("diff")
    lo = pl.coalesce("lo_paired", "lo") if paired else pl.col("lo")
    hi = pl.coalesce("hi_paired", "hi") if paired else pl.col("hi")
    df = eff.with_columns(
        est.alias("est"),
        lo.alias("est_lo"),
        hi.alias("est_hi"),
        pl.when(pl.col("kind") == "seat")
        .then(
            pl.col("group").cast(pl.Int32).replace_strict(dict(enumerate(ORDINAL)), return_dtype=pl.String)
            + " seat"
        )
        .otherwise(pl.col("group"))
        .alias("label"),
    )
    changes = df.get_column("change").unique(maintain_order=True).to_list()
    counts = sorted(set(df.get_column("n_players").to_list()))
    trav = _order(
        df.filter(pl.col("kind") == "traveler").with_columns(pl.col("group").alias("traveler")), "est"
    )
    seats = [f"{o} seat" for o in ORDINAL if f"{o} seat" in set(df.get_column("label").to_list())]
    labels = [*trav, *seats]
    row = {lab: i for i, lab in enumerate(labels)}
    step = 0.7 / max(len(counts), 1)
    fig = _figure(max(7.0, 1.8 + 3.0 * len(changes)), 1.9 + 0.27 * len(labels))
    axes = fig.subplots(1, len(changes), sharey=True, sharex=True, squeeze=False)[0]
    for ax, change in zip(axes, changes, strict=True):
        for k, n in enumerate(counts):
            sub = df.filter((pl.col("change") == change) & (pl.col("n_players") == n))
            if sub.is_empty():
                continue
            color = PLAYER_COLORS.get(int(n), PALETTE[k % len(PALETTE)])
            y = np.array([row[lab] for lab in sub["label"]]) + (k - (len(counts) - 1) / 2) * step
            e, a, b = (100 * sub[c].to_numpy() for c in ("est", "est_lo", "est_hi"))
            sig = sub["significant"].to_numpy().astype(bool)
            ax.hlines(y, a, b, color=color, lw=1.3)
            ax.scatter(e[sig], y[sig], color=color, s=20, zorder=3)
            ax.scatter(e[~sig], y[~sig], facecolor="white", edgecolor=color, s=20, zorder=3)
        ax.axvline(0, color="#666", lw=1, zorder=0)
        if trav and seats:
            ax.axhline(len(trav) - 0.5, color="#bbb", lw=0.8)
        ax.set_title("\n".join(textwrap.wrap(str(change), 34)), fontsize=10)
        ax.set_xlabel("effect on win rate (pp)")
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(labels)), labels, fontsize=9)
    axes[0].set_ylim(len(labels) - 0.5, -0.5)
    handles = [
        axes[0].scatter(
            [], [], color=PLAYER_COLORS.get(int(n), PALETTE[k % len(PALETTE)]), s=20, label=f"{n} players"
        )
        for k, n in enumerate(counts)
    ]
    handles.append(
        axes[0].scatter([], [], facecolor="white", edgecolor="#444", s=20, label="not significant")
    )
    fig.legend(
        handles=handles, loc="outside lower center", ncols=min(len(handles), 5), fontsize=9, frameon=False
    )
    _title(fig, title, about)
    return _save(fig, path)


def plot_seats(
    seats: pl.DataFrame,
    path: str | Path,
    title: str,
    about: str | None = None,
    colour: dict[str, str] | None = None,
) -> Path:
    """Win rate ÷ fair share per seat (95% intervals), one panel per player count, one line per configuration;
    the base game's configurations (variants, deals) in one row, the expansions' in another, when both
    exist."""
    if seats.is_empty():
        return _empty(path, "No seats in this dataset")
    configs = seats.get_column("config").unique(maintain_order=True).to_list()
    colour = colour or colours(configs)
    base = (
        pl.col("expansions").is_in(["none"]) & pl.col("pool").is_in(["all"])
        if {"expansions", "pool"} <= set(seats.columns)
        else pl.lit(True)
    )
    rows = [r for r in (seats.filter(base), seats.filter(~base)) if r.height]
    labels = ["base game", "expansions"] if len(rows) == 2 else [""]
    counts = sorted(set(seats.get_column("n_players").to_list()))
    fig = _figure(max(7.0, 1.6 + 3.0 * len(counts)), 0.9 + 3.3 * len(rows))
    grid = fig.subplots(len(rows), len(counts), sharey=True, squeeze=False)
    for axes, part, what in zip(grid, rows, labels, strict=True):
        here = [c for c in configs if c in set(part.get_column("config").to_list())]
        for ax, n in zip(axes, counts, strict=True):
            for k, cfg in enumerate(here):
                sub = part.filter((pl.col("n_players") == n) & (pl.col("config") == cfg)).sort("seat")
                if sub.is_empty():
                    continue
                x = sub["seat"].to_numpy() + (k - (len(here) - 1) / 2) * min(0.06, 0.3 / len(here))
                y, lo, hi = (sub[c].to_numpy() for c in ("win_ratio", "win_ratio_lo", "win_ratio_hi"))
                ax.errorbar(x, y, yerr=[y - lo, hi - y], fmt="o-", capsize=2, ms=4, lw=1.2, color=colour[cfg])
            ax.axhline(1.0, color="#888", ls="--", lw=1, zorder=0)
            ax.set_xticks(range(n), [ORDINAL[i] for i in range(n)])
            ax.set_title(f"{n} players" + (f" · {what}" if what else ""), fontsize=10)
            ax.grid(axis="y", alpha=0.3)
        axes[0].set_ylabel("win rate ÷ fair share")
    for ax in grid[-1]:
        ax.set_xlabel("seat: order of leaving Kyoto")
    handles = [grid[0][0].plot([], [], "o-", color=colour[c], ms=4, label=c)[0] for c in configs]
    fig.legend(
        handles=handles, loc="outside lower center", ncols=min(len(handles), 3), fontsize=9, frameon=False
    )
    _title(fig, title, about)
    return _save(fig, path)
