"""The forest plot of effects (``analysis.tokaido.effects``): what a rule change does to each Traveler's,
each seat's and all players' win rate and mean score, paired where the deals are the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from analysis.load import CONDITION_COLUMNS
from analysis.tokaido import figures, panels
from analysis.tokaido.panels import ORDINAL

_figure, _save = figures.new_figure, figures.save


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
        return panels.empty(path, "No effects to plot")
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
        f"{title}\n(other − base, {how} 95% intervals)" + (f"\n{panels.wrap(fig, about)}" if about else ""),
        fontsize=11,
    )
    return _save(fig, path)
