"""The effect of a rule change: figures of one dataset against a base dataset.

Unpaired effects compare the two datasets as independent samples (Welch). When both runs used
the same seed, the same game indices and the same player counts, game i of both started from
the same random stream (common random numbers): rows are then joined on (game, player) and
the effect is also estimated from the per-row differences, whose interval is usually much
narrower. ``width_ratio`` = paired width / unpaired width on the same matched rows measures it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from analysis import fmt, stats
from analysis.load import Dataset, conditions, load_dataset

FIGURES = (("win rate", "win"), ("mean score", "score"))
JOIN = ["n_players", "game", "player"]
EFFECT_FILES = ("compare.md", "compare.csv", "effects.png")
MAX_LISTED = 15
FIGURE_ORDER = {("win rate", "traveler"): 0, ("win rate", "seat"): 1, ("mean score", "traveler"): 2,
                ("mean score", "seat"): 3, ("mean score", "all"): 4}


def _single_config(ds: Dataset) -> None:
    varying = conditions(ds.frame)
    if varying:
        raise ValueError(f"'{ds.path}' mixes several {', '.join(varying)}: compare one configuration "
                         f"at a time (pass a partition directory such as '{ds.path}/{varying[0]}=...')")


def pairing(base: Dataset, other: Dataset) -> tuple[bool, str]:
    """Whether the two datasets can be paired game by game, and why (a sentence)."""
    if base.seed is None or other.seed is None:
        return False, "unpaired: a manifest records no seed"
    if base.seed != other.seed:
        return False, f"unpaired: the seeds differ ({base.seed} vs {other.seed})"
    spans = [_span(ds.frame) for ds in (base, other)]
    if spans[0]["n_players"].to_list() != spans[1]["n_players"].to_list():
        return False, "unpaired: the player counts differ"
    if not spans[0].equals(spans[1]):
        return False, "unpaired: the game indices differ"
    return True, f"paired on (game, player): same seed {base.seed} and the same games"


def _summaries(lf: pl.LazyFrame, by: str | None) -> pl.LazyFrame:
    keys = ["n_players"] + ([by] if by else [])
    aggs = [pl.len().alias("n")]
    for _, col in FIGURES:
        aggs += [pl.col(col).cast(pl.Float64).mean().alias(f"mean_{col}"),
                 pl.col(col).cast(pl.Float64).var().alias(f"var_{col}")]
    return lf.group_by(keys).agg(aggs)


def _paired_summaries(joined: pl.LazyFrame, by: str | None) -> pl.LazyFrame:
    keys = ["n_players"] + ([by] if by else [])
    src = joined.filter(pl.col(by) == pl.col(f"{by}_o")) if by else joined
    aggs = [pl.len().alias("n_paired")]
    for _, col in FIGURES:
        a, b = pl.col(col).cast(pl.Float64), pl.col(f"{col}_o").cast(pl.Float64)
        aggs += [(b - a).mean().alias(f"d_{col}"), (b - a).var().alias(f"vd_{col}"),
                 a.var().alias(f"va_{col}"), b.var().alias(f"vb_{col}"), pl.corr(a, b).alias(f"r_{col}")]
    return src.group_by(keys).agg(aggs)


def _group_col(by: str | None) -> pl.Expr:
    return pl.col(by).cast(pl.String).alias("group") if by else pl.lit("all players").alias("group")


def effects(base: pl.LazyFrame, other: pl.LazyFrame, paired: bool, level: float = 0.95,
            alpha: float = 0.05) -> pl.DataFrame:
    """One row per figure: the effect other - base, unpaired and (if ``paired``) paired.

    Figures: win rate and mean score per Traveler and per seat, and the mean score of all
    players, each per player count. Paired rows match on (n_players, game, player) and, for a
    Traveler or seat figure, need the same Traveler or seat in both runs (``n_paired``).
    ``p_holm`` and ``significant`` use the paired p-value when there is one, Holm over all rows.
    """
    parts = []
    cols = ["n_players", "game", "player", "traveler", "seat", "win", "score"]
    joined = base.select(cols).join(other.select(cols), on=JOIN, suffix="_o") if paired else None
    for kind, by in (("traveler", "traveler"), ("seat", "seat"), ("all", None)):
        src_b = base.filter(pl.col("traveler") != "none") if kind == "traveler" else base
        src_o = other.filter(pl.col("traveler") != "none") if kind == "traveler" else other
        sb = _summaries(src_b, by).with_columns(_group_col(by))
        so = _summaries(src_o, by).with_columns(_group_col(by))
        lz = sb.join(so, on=["n_players", "group"], suffix="_other", how="full", coalesce=True)
        if joined is not None:
            jp = joined.filter(pl.col("traveler") != "none") if kind == "traveler" else joined
            lz = lz.join(_paired_summaries(jp, by).with_columns(_group_col(by)), on=["n_players", "group"], how="left")
        lz = lz.drop([c for c in ("traveler", "seat", "traveler_other", "seat_other") if c in lz.collect_schema()])
        parts.append((kind, lz))
    frames = pl.collect_all([lz for _, lz in parts])  # shares the scans and the join between the three
    rows = []
    for (kind, _), df in zip(parts, frames, strict=True):
        for figure, col in FIGURES:
            if kind == "all" and col == "win":
                continue  # the mean win rate of all players is 1/N by construction
            rows.append(_figure_rows(df, kind, figure, col, paired, level))
    out = pl.concat(rows, how="diagonal_relaxed")
    primary = out["p_paired"].to_numpy() if paired else out["p_value"].to_numpy()
    adj, rej = stats.holm(primary, alpha)
    out = out.with_columns(pl.Series("p_holm", adj), pl.Series("significant", rej))
    return out.sort(["figure", "kind", "n_players", "group"])


def _figure_rows(df: pl.DataFrame, kind: str, figure: str, col: str, paired: bool, level: float) -> pl.DataFrame:
    def c(name: str) -> np.ndarray:
        return df.get_column(name).cast(pl.Float64).to_numpy() if name in df.columns else np.full(df.height, np.nan)

    nb, no = c("n"), c("n_other")
    un = stats.diff_means(c(f"mean_{col}_other"), c(f"var_{col}_other"), no, c(f"mean_{col}"), c(f"var_{col}"), nb,
                          level)
    cols: dict[str, object] = {
        "figure": [figure] * df.height, "kind": [kind] * df.height,
        "n_players": df["n_players"], "group": df["group"],
        "n_base": nb, "n_other": no, "base": c(f"mean_{col}"), "other": c(f"mean_{col}_other"),
        "diff": un.diff, "lo": un.lo, "hi": un.hi, "p_value": un.p_value,
    }
    if paired:
        npd = c("n_paired")
        pr = stats.paired_from_summary(npd, c(f"d_{col}"), c(f"vd_{col}"), level)
        same = stats.diff_means(0.0, c(f"vb_{col}"), npd, 0.0, c(f"va_{col}"), npd, level)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = (pr.hi - pr.lo) / (same.hi - same.lo)
        cols.update(n_paired=npd, diff_paired=pr.diff, lo_paired=pr.lo, hi_paired=pr.hi, p_paired=pr.p_value,
                    width_ratio=ratio, correlation=c(f"r_{col}"))
    return pl.DataFrame(cols)


def _effect_cell(r: dict[str, object], suffix: str, pp: bool) -> str:
    d, lo, hi = (r[f"{k}{suffix}"] for k in ("diff", "lo", "hi"))
    return fmt.pp_ci(d, lo, hi) if pp else fmt.num_ci(d, lo, hi, 2, sign=True)


def _tables_md(eff: pl.DataFrame, paired: bool) -> str:
    out = []
    order = pl.concat_str("figure", "kind", separator="/").replace_strict(
        {f"{f}/{k}": v for (f, k), v in FIGURE_ORDER.items()}, return_dtype=pl.Int8)
    eff = eff.with_columns(order.alias("_order"))
    for vals, sub in fmt.groups(eff, ["_order", "figure", "kind", "n_players"]):
        pp = vals["figure"] == "win rate"
        head = [vals["kind"].capitalize() if vals["kind"] != "all" else "", "base", "other",
                "effect, unpaired (95% CI)"]
        head += ["effect, paired (95% CI)", "width ratio"] if paired else []
        head += ["p (Holm)", ""]
        rows = []
        for r in sub.iter_rows(named=True):
            row = [str(r["group"]), fmt.pct(r["base"]) if pp else fmt.num(r["base"], 2),
                   fmt.pct(r["other"]) if pp else fmt.num(r["other"], 2), _effect_cell(r, "", pp)]
            if paired:
                row += [_effect_cell(r, "_paired", pp), fmt.num(r["width_ratio"], 2)]
            rows.append(row + [fmt.pval(r["p_holm"]), "**significant**" if r["significant"] else ""])
        per = {"traveler": "Traveler", "seat": "seat", "all": "game"}[vals["kind"]]
        out.append(f"### {vals['figure'].capitalize()} per {per}, "
                   f"{vals['n_players']} players\n\n" + fmt.table(head, rows))
    return "\n\n".join(out)


def _summary_md(eff: pl.DataFrame, paired: bool, why: str) -> str:
    lines = [f"- Pairing: {why}."]
    for r in eff.filter(pl.col("kind") == "all").iter_rows(named=True):
        d, lo, hi = (r["diff_paired"], r["lo_paired"], r["hi_paired"]) if paired else (r["diff"], r["lo"], r["hi"])
        lines.append(f"- Mean score of all players, {r['n_players']} players: {fmt.num(r['base'], 2)} → "
                     f"{fmt.num(r['other'], 2)} ({fmt.num_ci(d, lo, hi, 2, sign=True)})")
    sig = eff.filter(pl.col("significant") & (pl.col("kind") != "all"))
    sfx = "_paired" if paired else ""
    sig = sig.sort(pl.col(f"diff{sfx}").abs(), descending=True)
    lines.append(f"- Significant effects (Holm, family-wise error 5%, {eff.height} figures): {sig.height or 'none'}"
                 + (", largest first:" if sig.height else "."))
    for r in sig.head(MAX_LISTED).iter_rows(named=True):
        d, lo, hi = (r[f"{k}{sfx}"] for k in ("diff", "lo", "hi"))
        what = fmt.pp_ci(d, lo, hi) if r["figure"] == "win rate" else fmt.num_ci(d, lo, hi, 2, sign=True) + " points"
        name = f"seat {r['group']}" if r["kind"] == "seat" else r["group"]
        lines.append(f"  - {r['figure']} of {name}, {r['n_players']} players: {what}")
    if sig.height > MAX_LISTED:
        lines.append(f"  - … and {sig.height - MAX_LISTED} more (see the tables)")
    if paired:
        trav = eff.filter((pl.col("kind") == "traveler") & (pl.col("figure") == "win rate"))
        share = float(np.nansum(trav["n_paired"].to_numpy())) / max(1.0, float(np.nansum(trav["n_base"].to_numpy())))
        lines.append(f"- Traveler figures pair the rows in which the player had the same Traveler in both runs: "
                     f"{100 * share:.1f}% of the base rows.")
        ratio = eff["width_ratio"].drop_nulls().drop_nans().to_numpy()
        if ratio.size:
            med = float(np.median(ratio))
            lines.append(
                f"- Common random numbers: the paired intervals are {med:.2f}× as wide as the unpaired ones "
                f"on the same rows (median over {ratio.size} figures; range {ratio.min():.2f}–{ratio.max():.2f}), "
                f"the precision of about {1 / max(med, 1e-9) ** 2:.1f}× as many unpaired games.")
    return "\n".join(lines)


def compare(base_dir: str | Path, other_dir: str | Path, out_dir: str | Path, level: float = 0.95,
            alpha: float = 0.05) -> list[Path]:
    """Compare the dataset at ``other_dir`` with the base at ``base_dir``; write into ``out_dir``.

    Writes ``compare.md`` (readable tables and a summary), ``compare.csv`` (every figure:
    base, other, unpaired effect other - base with interval and p-value; when the runs can be
    paired, also the paired effect, its interval and p-value, the number of matched rows,
    the correlation of the pair and the width ratio paired / unpaired) and ``effects.png`` (a
    forest plot). Returns the paths written, in that order. Each dataset must hold one
    configuration (one run, or one partition of a study).
    """
    from analysis import plots  # matplotlib only when needed

    base, other = load_dataset(base_dir), load_dataset(other_dir)
    for ds in (base, other):
        _single_config(ds)
    paired, why = pairing(base, other)
    eff = effects(base.frame, other.frame, paired, level, alpha)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / name for name in EFFECT_FILES]
    text = [f"# Effect of a rule change\n\n- Base: `{base.path}`\n- Other: `{other.path}`",
            "Effects are other − base; intervals are 95%. Win rates in percentage points (pp), scores in points. "
            "*Width ratio* = paired interval width ÷ unpaired interval width on the same rows (below 1: pairing "
            "helped).",
            "## Summary\n\n" + _summary_md(eff, paired, why), "## Figures\n\n" + _tables_md(eff, paired)]
    paths[0].write_text("\n\n".join(text) + "\n")
    eff.write_csv(paths[1])
    plots.plot_effects(eff, paths[2], title=f"{other.path.name} vs {base.path.name}")
    return paths


def _span(lf: pl.LazyFrame) -> pl.DataFrame:
    return lf.group_by("n_players").agg(pl.col("game").n_unique().alias("n"), pl.col("game").min().alias("lo"),
                                        pl.col("game").max().alias("hi")).sort("n_players").collect()


def study_effects(lf: pl.LazyFrame, column: str = "variants", base: str = "none", level: float = 0.95,
                  alpha: float = 0.05) -> pl.DataFrame:
    """Within a study dataset: the effects of every value of ``column`` against ``base``.

    Adds a ``change`` column (the value compared with ``base``). Other configuration columns
    that vary are held fixed: effects are computed within each of their combinations (they
    appear as columns). Pairs on (game, player) when the games have the same indices (a study
    uses one seed). Holm runs within each change. Empty if ``column`` or ``base`` is missing.
    """
    if column not in lf.collect_schema().names():
        return pl.DataFrame()
    values = lf.select(pl.col(column).unique()).collect().get_column(column).to_list()
    if base not in values:
        return pl.DataFrame()
    fixed = [c for c in conditions(lf) if c != column]
    combos = lf.select(fixed).unique().collect().iter_rows(named=True) if fixed else iter([{}])
    out = []
    for combo in combos:
        sub = lf.filter(*[pl.col(k) == v for k, v in combo.items()]) if combo else lf
        ref = sub.filter(pl.col(column) == base)
        ref_span = _span(ref)
        for v in sorted(x for x in values if x != base):
            alt = sub.filter(pl.col(column) == v)
            alt_span = _span(alt)
            if alt_span.is_empty():
                continue
            eff = effects(ref, alt, ref_span.equals(alt_span), level, alpha)
            out.append(eff.with_columns(pl.lit(v).alias("change"), *[pl.lit(x).alias(k) for k, x in combo.items()]))
    return pl.concat(out, how="diagonal_relaxed") if out else pl.DataFrame()
