"""The effect of a rule change, written out: ``compare.md``, ``compare.csv`` and ``effects.png``.

The figures come from ``analysis.tokaido.effects`` (paired on common random numbers when the two runs
share seed and games); this module formats them and draws the forest plot.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl

from analysis import fmt
from analysis.load import Dataset, load_dataset, reading
from analysis.tokaido import describe, effect_plots, questions, tables
from analysis.tokaido.effects import (
    FIGURES,
    JOIN,
    common_players,
    effects,
    largest_first,
    pairing,
    single_config,
    study_effects,
)

__all__ = ["FIGURES", "JOIN", "compare", "effects", "pairing", "study_effects"]

EFFECT_FILES = ("compare.md", "compare.csv", "effects.png")
ORDINAL = ("1st", "2nd", "3rd", "4th", "5th")
MAX_LISTED = 15
FIGURE_ORDER = {
    ("win rate", "traveler"): 0,
    ("win rate", "seat"): 1,
    ("mean score", "traveler"): 2,
    ("mean score", "seat"): 3,
    ("mean score", "all"): 4,
}


def _effect_cell(r: dict[str, object], suffix: str, pp: bool) -> str:
    d, lo, hi = (r[f"{k}{suffix}"] for k in ("diff", "lo", "hi"))
    return fmt.pp_ci(d, lo, hi) if pp else fmt.num_ci(d, lo, hi, 2, sign=True)


def _tables_md(eff: pl.DataFrame, paired: bool) -> str:
    out = []
    order = pl.concat_str("figure", "kind", separator="/").replace_strict(
        {f"{f}/{k}": v for (f, k), v in FIGURE_ORDER.items()}, return_dtype=pl.Int8
    )
    eff = eff.with_columns(order.alias("_order"))
    for vals, sub in fmt.groups(eff, ["_order", "figure", "kind", "n_players"]):
        pp = vals["figure"] == "win rate"
        head = [
            vals["kind"].capitalize() if vals["kind"] != "all" else "",
            "base",
            "other",
            "effect, unpaired (95% CI)",
        ]
        head += ["effect, paired (95% CI)", "width ratio"] if paired else []
        head += ["p (Holm)", ""]
        rows = []
        for r in sub.iter_rows(named=True):
            group = f"{ORDINAL[int(r['group'])]}" if r["kind"] == "seat" else str(r["group"])
            row = [
                group,
                fmt.pct(r["base"]) if pp else fmt.num(r["base"], 2),
                fmt.pct(r["other"]) if pp else fmt.num(r["other"], 2),
                _effect_cell(r, "", pp),
            ]
            if paired:
                row += [_effect_cell(r, "_paired", pp), fmt.num(r["width_ratio"], 2)]
            flag = f"only in {r['only']}" if r["only"] else "**significant**" if r["significant"] else ""
            rows.append(row + [fmt.pval(r["p_holm"]), flag])
        per = {"traveler": "Traveler", "seat": "seat", "all": "game"}[vals["kind"]]
        out.append(
            f"### {vals['figure'].capitalize()} per {per}, "
            f"{vals['n_players']} players\n\n" + fmt.table(head, rows)
        )
    return "\n\n".join(out)


def _seat_rows(base: pl.LazyFrame, other: pl.LazyFrame, level: float, alpha: float) -> pl.DataFrame:
    """Both runs' seat tables side by side (one row per player count and seat; ``_o``: the other run)."""
    a = tables.seat_table(base, ["n_players"], level, alpha)
    b = tables.seat_table(other, ["n_players"], level, alpha)
    cols = ["n_players", "seat", "games", "win_rate", "win_lo", "win_hi", "fair_share", "verdict"]
    return a.select(cols).join(
        b.select(cols), on=["n_players", "seat"], how="full", coalesce=True, suffix="_o"
    )


def seats_md(seats: pl.DataFrame) -> list[str]:
    """The headline's seat lines: per player count, each seat's win rate before -> after, the spread, fair
    now?"""
    lines = []
    for (n,), sub in seats.sort(["n_players", "seat"]).group_by(["n_players"], maintain_order=True):
        if sub["games"].null_count() or sub["games_o"].null_count():
            continue
        each = ", ".join(
            f"{ORDINAL[int(r['seat'])]} {fmt.pct(r['win_rate'])} → {fmt.pct(r['win_rate_o'])}"
            for r in sub.iter_rows(named=True)
        )
        b, o = tables.seat_spread(sub), tables.seat_spread(sub, "_o")
        off = [
            f"{ORDINAL[int(r['seat'])]} {r['verdict_o']}" for r in sub.iter_rows(named=True) if r["verdict_o"]
        ]
        fair = (
            "yes: no seat's win rate differs from fair beyond chance (Holm 5%)"
            if not off
            else "no: " + ", ".join(off) + " than fair (Holm 5%)"
        )
        lines.append(
            f"- Seats, {n} players (fair {fmt.pct(1 / n)}; seat = order of leaving Kyoto): {each}. "
            f"Seat spread (best − worst seat) {100 * b[0]:.1f} → {100 * o[0]:.1f} pp (95% after: "
            f"{100 * o[1]:.1f} to {100 * o[2]:.1f}). Fair now? {fair}."
        )
    return lines


def _summary_md(eff: pl.DataFrame, paired: bool, why: str, seats: pl.DataFrame | None = None) -> str:
    lines = [f"- Pairing: {why}."]
    lines += seats_md(seats) if seats is not None else []
    for r in eff.filter(pl.col("kind") == "all").iter_rows(named=True):
        d, lo, hi = (
            (r["diff_paired"], r["lo_paired"], r["hi_paired"]) if paired else (r["diff"], r["lo"], r["hi"])
        )
        lines.append(
            f"- Mean score of all players, {r['n_players']} players: {fmt.num(r['base'], 2)} → "
            f"{fmt.num(r['other'], 2)} ({fmt.num_ci(d, lo, hi, 2, sign=True)})"
        )
    sig = eff.filter(pl.col("significant") & (pl.col("kind") != "all"))
    sfx = "_paired" if paired else ""
    sig = largest_first(sig, f"diff{sfx}")
    lines.append(
        f"- Significant effects (Holm, family-wise error 5%, {eff.height} figures): {sig.height or 'none'}"
        + (", largest first:" if sig.height else ".")
    )
    for r in sig.head(MAX_LISTED).iter_rows(named=True):
        d, lo, hi = (r[f"{k}{sfx}"] for k in ("diff", "lo", "hi"))
        what = (
            fmt.pp_ci(d, lo, hi)
            if r["figure"] == "win rate"
            else fmt.num_ci(d, lo, hi, 2, sign=True) + " points"
        )
        name = f"{ORDINAL[int(r['group'])]} seat" if r["kind"] == "seat" else r["group"]
        lines.append(f"  - {r['figure']} of {name}, {r['n_players']} players: {what}")
    if sig.height > MAX_LISTED:
        lines.append(f"  - … and {sig.height - MAX_LISTED} more (see the tables)")
    lines += _one_side_md(eff)
    if paired and _identical(eff):
        lines.append(
            "- Every paired difference is 0: the two datasets hold the same games with the same results "
            "(one is a copy of the other?), so there is no effect to measure."
        )
    elif paired:
        trav = eff.filter((pl.col("kind") == "traveler") & (pl.col("figure") == "win rate"))
        share = float(np.nansum(trav["n_paired"].to_numpy())) / max(
            1.0, float(np.nansum(trav["n_base"].to_numpy()))
        )
        lines.append(
            f"- Traveler figures pair the rows in which the player had the same Traveler in both runs: "
            f"{100 * share:.1f}% of the base rows."
        )
        ratio = eff["width_ratio"].drop_nulls().drop_nans().to_numpy()
        med = float(np.median(ratio)) if ratio.size else math.nan
        if med < 1e-6:  # no spread left in the paired differences: a ratio of "games saved" means nothing
            lines.append(
                f"- Common random numbers: on most figures the paired rows played out identically in both "
                f"runs (median width ratio {med:.2f} over {ratio.size} figures)."
            )
        elif ratio.size:
            lines.append(
                f"- Common random numbers: the paired intervals are {med:.2f}× as wide as the unpaired ones "
                f"on the same rows (median over {ratio.size} figures; range "
                f"{ratio.min():.2f}–{ratio.max():.2f}), "
                f"the precision of about {1 / max(med, 1e-9) ** 2:.1f}× as many unpaired games."
            )
    return "\n".join(lines)


def _one_side_md(eff: pl.DataFrame) -> list[str]:
    """The figures with rows in one dataset only: said, not tested."""
    one = eff.filter(pl.col("only") != "")
    if one.is_empty():
        return []
    lines = [
        f"- In one dataset only (not tested): {one.height} figures (a Traveler nobody played in the other "
        f"run, "
        "e.g. one the draft never kept):"
    ]
    for r in one.head(MAX_LISTED).iter_rows(named=True):
        name = f"{ORDINAL[int(r['group'])]} seat" if r["kind"] == "seat" else r["group"]
        lines.append(
            f"  - {r['figure']} of {name}, {r['n_players']} players: only in {r['only']} "
            f"({int(r['n_base'] if r['only'] == 'base' else r['n_other']):,} rows)"
        )
    if one.height > MAX_LISTED:
        lines.append(f"  - … and {one.height - MAX_LISTED} more (see the tables)")
    return lines


def _identical(eff: pl.DataFrame) -> bool:
    """Whether both runs hold the same rows with the same results (a dataset against itself, or a copy)."""
    same = (
        (pl.col("n_paired") == pl.col("n_base"))
        & (pl.col("n_paired") == pl.col("n_other"))
        & (pl.col("diff_paired") == 0)
        & ~(pl.col("hi_paired") > pl.col("lo_paired"))
    )
    return bool(eff.height) and bool(eff.select(same.all()).item())


def _name(ds: Dataset) -> str:
    """A dataset in a designer's words ('base game, Gastronomy, dealt at random'), its overrides after it; the
    folder name when the manifest records no configuration (a study's partitions are all named alike)."""
    config = ds.manifest.config
    if not isinstance(config, dict):
        return ds.path.name
    sets = [f"{k}={v}" for k, v in config.get("overrides") or [] if k != "draft.pool"]
    return describe.config_label(questions.manifest_conditions(ds.manifest)) + (
        f" ({', '.join(sets)})" if sets else ""
    )


def _header(base: Dataset, other: Dataset, note: str) -> str:
    lines = ["# Effect of a rule change\n"]
    for label, ds in (("Base", base), ("Other", other)):
        a = describe.about(ds)
        lines.append(
            f"- {label}: `{ds.path}`: `{a.configuration}`, bots {', '.join(a.bots)}, {a.games_text()}"
            + (f" (run {a.status})" if a.incomplete else "")
        )
    lines += [f"- Player counts: {note}"] if note else []
    return "\n".join(lines)


def compare(
    base_dir: str | Path, other_dir: str | Path, out_dir: str | Path, level: float = 0.95, alpha: float = 0.05
) -> list[Path]:
    """Compare the dataset at ``other_dir`` with the base at ``base_dir``; write into ``out_dir``.

    Writes ``compare.md`` (readable tables and a summary), ``compare.csv`` (every figure:
    base, other, unpaired effect other - base with interval and p-value; when the runs can be
    paired, also the paired effect, its interval and p-value, the number of matched rows,
    the correlation of the pair and the width ratio paired / unpaired) and ``effects.png`` (a
    forest plot). Returns the paths written, in that order. Each dataset must hold one
    configuration (one run, or one partition of a study).
    """
    base, other = load_dataset(base_dir), load_dataset(other_dir)
    with reading([*base.files, *other.files]):
        for ds in (base, other):
            single_config(ds)
        base, other, note = common_players(base, other)
        pair = pairing(base, other)
        paired, why = pair.paired, pair.why
        eff = effects(base.frame, other.frame, paired, level, alpha, pair.common)
        seats = _seat_rows(base.frame, other.frame, level, alpha)
        header = _header(base, other, note)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / name for name in EFFECT_FILES]
    text = [
        header,
        "Effects are other − base; intervals are 95%. Win rates in percentage points (pp), scores in points. "
        "*Width ratio* = paired interval width ÷ unpaired interval width on the same rows (below 1: pairing "
        "helped).",
        "## Summary\n\n" + _summary_md(eff, paired, why, seats),
        "## Figures\n\n" + _tables_md(eff, paired),
    ]
    paths[0].write_text("\n\n".join(text) + "\n")
    eff.write_csv(paths[1])
    about = "; ".join(f"{w}: {describe.about(ds).title()}" for w, ds in (("other", other), ("base", base)))
    effect_plots.plot_effects(eff, paths[2], title=f"{_name(other)} vs {_name(base)}", about=about)
    return paths
