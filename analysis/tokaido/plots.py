"""Balance plots: each function draws one figure and writes one PNG (Agg canvas, no pyplot state).

Plot functions take a dataset as a ``pl.LazyFrame`` (from ``analysis.load``) and the path of
the PNG to write, and return that path. Figures are split by player count; a frame that mixes
configurations (variants, expansions, ...) is drawn as given, pooled, and the subtitle says so:
``plot_all`` never passes one, it sets a study's configurations side by side
(``analysis.tokaido.figures``) or plots each alone.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from analysis.load import CONDITION_COLUMNS, POINT_SOURCES, conditions, load_dataset, reading
from analysis.tokaido import describe, figures, questions, tables
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
ORDINAL = ("1st", "2nd", "3rd", "4th", "5th", "6th")
PLOT_FILES = (
    "win_rates.png",
    "fairness_heatmap.png",
    "score_distributions.png",
    "points_by_source.png",
    "seat_advantage.png",
    "variant_effects.png",
)
EXPANSION_FILE = "expansion_effects.png"


_figure, _save = figures.new_figure, figures.save


def _title(
    fig: Figure, lf: pl.LazyFrame, title: str, split: str | None = None, about: str | None = None
) -> None:
    """The figure's title, then what the data are (configuration, bots, games: ``describe``)."""
    pooled = [c for c in conditions(lf) if c != split]
    about = _wrap(fig, about or describe.about_frame(lf).title())
    fig.suptitle(
        title + (f"\n(pooled over {', '.join(pooled)})" if pooled else "") + f"\n{about}", fontsize=11
    )


def _wrap(fig: Figure, text: str) -> str:
    """``text`` broken into lines that fit the figure's width at the title's font size."""
    return "\n".join(textwrap.wrap(text, width=max(30, int(fig.get_figwidth() * 11))))


def _order(df: pl.DataFrame, value: str = "win_ratio") -> list[str]:
    """Travelers sorted by their mean ``value`` over player counts, the largest last (top of a barh)."""
    agg = df.group_by("traveler").agg(pl.col(value).mean().alias("v")).sort(["v", "traveler"])
    return agg.get_column("traveler").to_list()


def _counts(df: pl.DataFrame) -> list[int]:
    return sorted(set(df.get_column("n_players").to_list()))


def _panels(fig: Figure, n: int) -> list[Axes]:
    axes = fig.subplots(1, n, sharey=True, squeeze=False)[0]
    return list(axes)


def _empty(path: str | Path, message: str) -> Path:
    fig = _figure(6, 2)
    fig.text(0.5, 0.5, message, ha="center", va="center", fontsize=11)
    return _save(fig, path)


def plot_win_rates(lf: pl.LazyFrame, path: str | Path, about: str | None = None) -> Path:
    """Win rate per Traveler with Wilson 95% intervals, one panel per player count, fair share dashed."""
    df = tables.traveler_table(lf, ["n_players"])
    if df.is_empty():
        return _empty(path, "No Travelers in this dataset")
    order, counts = _order(df), _counts(df)
    fig = _figure(max(6.5, 2.0 + 2.6 * len(counts)), 1.6 + 0.32 * len(order))
    for ax, n in zip(_panels(fig, len(counts)), counts, strict=True):
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
    _title(
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
        return _empty(path, "No Travelers in this dataset")
    order = _order(df)[::-1]
    if "config" in df.columns:
        cols = [
            (r["config"], r["n_players"])
            for r in df.select("config", "n_players").unique(maintain_order=True).iter_rows(named=True)
        ]
        names = ["\n".join(textwrap.wrap(f"{n}p · {c}", 16)) for c, n in cols]
    else:
        cols = [(None, n) for n in _counts(df)]
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
        _title(fig, lf, head, about=about)
    else:  # one column per configuration: nothing pooled
        fig.suptitle(head + (f"\n{_wrap(fig, about)}" if about else ""), fontsize=11)
    return _save(fig, path)


def plot_score_distributions(lf: pl.LazyFrame, path: str | Path, about: str | None = None) -> Path:
    """Final-score distribution per Traveler: box = quartiles, whiskers = 5th-95th percentiles, dot = mean."""
    df = tables.score_summary(lf, ["n_players"])
    if df.is_empty():
        return _empty(path, "No Travelers in this dataset")
    order, counts = _order(df, "mean"), _counts(df)
    fig = _figure(max(6.5, 2.0 + 2.6 * len(counts)), 1.5 + 0.32 * len(order))
    for ax, n in zip(_panels(fig, len(counts)), counts, strict=True):
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
    _title(
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
        return _empty(path, "No Travelers in this dataset")
    order, counts = _order(df, "mean_score"), _counts(df)
    # only the sources that score in this data (Crossroads columns are 0 in base games)
    sources = [c for c in POINT_SOURCES if df[c].abs().sum() > 0]
    width = max(6.5, 2.0 + 2.8 * len(counts))
    fig = _figure(width + 1.6, 2.0 + 0.32 * max(len(order), len(sources) * 0.7))
    for ax, n in zip(_panels(fig, len(counts)), counts, strict=True):
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
    _title(fig, lf, "Mean points by source per Traveler", about=about)
    return _save(fig, path)


def _seat_panel(ax: Axes, df: pl.DataFrame, title: str) -> None:
    counts = _counts(df)
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
    _title(fig, lf, "Seat advantage (95% Wilson intervals)", split=by, about=about)
    return _save(fig, path)


KIND_ORDER = {"traveler": 0, "seat": 1, "all": 2}


def _effect_frame(eff: pl.DataFrame) -> tuple[pl.DataFrame, list[str], bool]:
    """Effects with a row ``label`` and the estimate to plot (paired when available), and the row labels."""
    paired = "diff_paired" in eff.columns and bool(eff["diff_paired"].is_not_null().any())
    change = [pl.col("change"), pl.lit(" · ")] if "change" in eff.columns else [pl.lit("")]
    ordinal = (
        pl.col("group")
        .cast(pl.Int32, strict=False)
        .replace_strict(dict(enumerate(ORDINAL)), default=None, return_dtype=pl.String)
    )
    seat = pl.when(pl.col("kind") == "seat").then(ordinal + pl.lit(" seat")).otherwise(pl.col("group"))
    # a study's other varying columns (bot tiers, ...) were held fixed: one row for each of their values
    fixed = [c for c in CONDITION_COLUMNS if c in eff.columns]
    held = [
        pl.lit(" ("),
        pl.concat_str([pl.lit(f"{c}=") + pl.col(c) for c in fixed], separator=", "),
        pl.lit(")"),
    ]
    sfx = "_paired" if paired else ""
    df = eff.with_columns(
        pl.concat_str([*change, seat, *(held if fixed else [])]).alias("label"),
        pl.col("kind").replace_strict(KIND_ORDER, return_dtype=pl.Int8).alias("kind_order"),
        # unpaired rows of a study's effects (other deals) have no paired estimate: their unpaired one
        pl.coalesce(f"diff{sfx}", "diff").alias("est"),
        pl.coalesce(f"lo{sfx}", "lo").alias("est_lo"),
        pl.coalesce(f"hi{sfx}", "hi").alias("est_hi"),
    )
    sort = ["change"] if "change" in df.columns else []
    labels = (
        df.sort([*sort, "kind_order", "group", *fixed])
        .get_column("label")
        .unique(maintain_order=True)
        .to_list()
    )
    return df, labels, paired


def plot_effects(
    eff: pl.DataFrame,
    path: str | Path,
    title: str = "Effect of the rule change",
    kinds: Sequence[str] = ("traveler", "seat", "all"),
    about: str | None = None,
) -> Path:
    """Forest plot of effects (output of ``compare.effects`` / ``compare.study_effects``): win rate (pp)
    and mean score (points) per Traveler, seat and for all players; one colour per player count; filled
    markers are significant (Holm 5%); light bands are the unpaired intervals when the runs were paired."""
    eff = eff.filter(pl.col("kind").is_in(list(kinds))) if not eff.is_empty() else eff
    if eff.is_empty():
        return _empty(path, "No effects to plot")
    if "change" in eff.columns and eff["change"].n_unique() == 1:
        title = f"{title}: {eff['change'][0]}"
        eff = eff.drop("change")
    df, labels, paired = _effect_frame(eff)
    row = {lab: i for i, lab in enumerate(labels)}
    block_cols = ["change", "kind_order"] if "change" in df.columns else ["kind_order"]
    block = dict(
        df.select("label", pl.concat_str([pl.col(c).cast(pl.String) for c in block_cols])).iter_rows()
    )
    groups = [block[lab] for lab in labels]
    counts = sorted(set(df["n_players"].to_list()))
    palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"]
    step = 0.7 / max(len(counts), 1)
    fig = _figure(11, 1.9 + 0.3 * len(labels))
    axes = fig.subplots(1, 2, sharey=True, squeeze=False)[0]
    specs = (
        ("win rate", 100.0, "effect on win rate (percentage points)"),
        ("mean score", 1.0, "effect on mean score (points)"),
    )
    for ax, (figure, scale, xlabel) in zip(axes, specs, strict=True):
        for k, n in enumerate(counts):
            sub = df.filter((pl.col("figure") == figure) & (pl.col("n_players") == n))
            if sub.is_empty():
                continue
            color = palette[k % len(palette)]
            y = np.array([row[lab] for lab in sub["label"]]) + (k - (len(counts) - 1) / 2) * step
            if paired:
                ax.hlines(
                    y,
                    scale * sub["lo"].to_numpy(),
                    scale * sub["hi"].to_numpy(),
                    color=color,
                    alpha=0.22,
                    lw=5,
                )
            est, lo, hi = (scale * sub[c].to_numpy() for c in ("est", "est_lo", "est_hi"))
            ax.hlines(y, lo, hi, color=color, lw=1.3)
            sig = sub["significant"].to_numpy()
            ax.scatter(est[sig], y[sig], color=color, s=22, zorder=3)
            ax.scatter(est[~sig], y[~sig], facecolor="white", edgecolor=color, s=22, zorder=3)
        ax.axvline(0, color="#666", lw=1, zorder=0)
        ax.set_xlabel(xlabel)
        ax.grid(axis="x", alpha=0.3)
        ax.set_title(figure, fontsize=10)
        for i in range(1, len(labels)):
            if groups[i] != groups[i - 1]:
                ax.axhline(i - 0.5, color="#ccc", lw=0.8)
    axes[0].set_yticks(range(len(labels)), labels, fontsize=9)
    axes[0].set_ylim(len(labels) - 0.5, -0.5)
    handles = [
        axes[0].scatter([], [], color=palette[k % len(palette)], s=22, label=f"{n} players")
        for k, n in enumerate(counts)
    ]
    handles.append(axes[0].scatter([], [], color="#444", s=22, label="significant (Holm 5%)"))
    handles.append(
        axes[0].scatter([], [], facecolor="white", edgecolor="#444", s=22, label="not significant")
    )
    if paired:
        handles.append(axes[0].plot([], [], color="#444", alpha=0.22, lw=5, label="unpaired interval")[0])
    fig.legend(
        handles=handles, loc="outside lower center", ncols=min(len(handles), 4), fontsize=9, frameon=False
    )
    how = "paired (common random numbers)" if paired else "unpaired"
    fig.suptitle(
        f"{title}\n(other − base, {how} 95% intervals)" + (f"\n{_wrap(fig, about)}" if about else ""),
        fontsize=11,
    )
    return _save(fig, path)


def plot_all(dataset_dir: str | Path, out_dir: str | Path) -> list[Path]:
    """Write every plot of the dataset at ``dataset_dir`` into ``out_dir``; return the PNG paths.

    One configuration: ``PLOT_FILES[:5]`` (win rates, fairness heatmap, score distributions, points by
    source, seat advantage). A study is never pooled: ``win_rates.png``, ``fairness_heatmap.png`` and
    ``seat_advantage.png`` set its configurations side by side; ``variant_effects.png`` and
    ``expansion_effects.png`` (when it has them) draw each variant against none and each expansion against
    the base game; and ``score_distributions-CONFIG.png`` and ``points_by_source-CONFIG.png`` are drawn per
    configuration.
    """
    ds = load_dataset(dataset_dir)
    lf, out = ds.frame, Path(out_dir)
    with reading(ds.files):
        about = describe.about(ds).title()
        if not conditions(lf):
            funcs = (
                plot_win_rates,
                plot_fairness_heatmap,
                plot_score_distributions,
                plot_points_by_source,
                plot_seat_advantage,
            )
            return [f(lf, out / name, about=about) for f, name in zip(funcs, PLOT_FILES, strict=False)]
        v = questions.views(ds)
        colour = figures.colours(v.travelers.get_column("config").to_list())
        paths = [
            figures.plot_side_by_side(
                v.travelers, out / PLOT_FILES[0], "Win rate per Traveler (95% intervals)", about, colour
            ),
            plot_fairness_heatmap(lf, out / PLOT_FILES[1], about, table=v.travelers),
            figures.plot_seats(v.seats, out / PLOT_FILES[4], "Seat advantage (95% intervals)", about, colour),
        ]
        if v.variants.height:
            paths.append(
                figures.plot_change_effects(
                    v.variants,
                    out / PLOT_FILES[5],
                    "What each variant does: change of win rate against no variant",
                    about,
                )
            )
        if v.expansions.height:
            paths.append(
                figures.plot_change_effects(
                    v.expansions,
                    out / EXPANSION_FILE,
                    "What each expansion does to the base Travelers: change of win rate",
                    about,
                )
            )
        full = questions.with_conditions(ds)
        for values in (
            v.travelers.select(*questions.COLUMNS, "config").unique(maintain_order=True).iter_rows(named=True)
        ):
            part = full.filter(*[pl.col(k) == values[k] for k in questions.COLUMNS])
            slug = re.sub(r"[^a-z0-9]+", "-", values["config"].lower()).strip("-")
            title = f"{values['config']} · {about}"
            paths.append(plot_score_distributions(part, out / f"score_distributions-{slug}.png", about=title))
            paths.append(plot_points_by_source(part, out / f"points_by_source-{slug}.png", about=title))
    return paths
