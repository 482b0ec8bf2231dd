"""Effects of a rule change on every balance figure: one dataset against a base (no output files).

Unpaired effects compare the two datasets as independent samples (Welch). When both runs used
the same seed, the same game indices and the same player counts, game i of both started from
the same random stream (common random numbers): rows are then joined on (game, player) and
the effect is also estimated from the per-row differences, whose interval is usually much
narrower. ``width_ratio`` = paired width / unpaired width on the same matched rows measures it.

``analysis.tokaido.compare`` writes these effects as a report; ``analysis.tokaido.plots`` draws them.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import Dataset, conditions

FIGURES = (("win rate", "win"), ("mean score", "score"))
JOIN = ["n_players", "game", "player"]


def single_config(ds: Dataset) -> None:
    varying = conditions(ds.frame)
    if varying:
        raise ValueError(f"'{ds.path}' mixes several {', '.join(varying)}: compare one configuration "
                         f"at a time (pass a partition directory such as '{ds.path}/{varying[0]}=...')")


def _players(ds: Dataset) -> list[int]:
    counts = ds.frame.select(pl.col("n_players").unique()).collect().get_column("n_players").to_list()
    return sorted(int(n) for n in counts)


def _names(counts: list[int]) -> str:
    return ", ".join(map(str, counts)) + (" player" if counts == [1] else " players")


def common_players(base: Dataset, other: Dataset) -> tuple[Dataset, Dataset, str]:
    """Both datasets cut to the player counts they share, and a sentence if some were left out.

    A figure of one player count says nothing about another, so datasets with no player count
    in common cannot be compared (``ValueError``).
    """
    a, b = _players(base), _players(other)
    both = sorted(set(a) & set(b))
    if not both:
        raise ValueError(f"cannot compare '{base.path}' ({_names(a)}) with '{other.path}' ({_names(b)}): no player "
                         "count in common; compare datasets of the same player count")
    if a == b:
        return base, other, ""
    keep = pl.col("n_players").is_in(both)
    only = [f"{_names(sorted(set(x) - set(both)))} only in {w}" for x, w in ((a, "base"), (b, "other")) if set(x) - set(both)]
    return (replace(base, frame=base.frame.filter(keep)), replace(other, frame=other.frame.filter(keep)),
            f"compared on {_names(both)}, the player counts of both ({'; '.join(only)}: left out)")


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
    ``only`` is "base" or "other" for a figure with rows in that dataset only (not tested).
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
        # a figure with rows on one side only (a Traveler the draft never kept there) has no test
        "only": np.where(~(nb > 0), "other", np.where(~(no > 0), "base", "")),
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
