"""Balance tables computed lazily with polars: one aggregation per table, statistics on the groups.

Every table is grouped by ``keys`` (default: the configuration columns that vary in the data,
then ``n_players``), so figures from different configurations or player counts never mix.
Win rates count a k-way shared win as 1/k. Rows of the Journey of Initiation variant
(Traveler ``none``) are left out of the Traveler tables.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import POINT_SOURCES, conditions

NO_TRAVELER = "none"
WIN_COLUMNS = ("win_rate", "win_lo", "win_hi", "fair_share", "win_ratio", "win_ratio_lo", "win_ratio_hi",
               "win_diff", "z", "p_value", "p_holm", "verdict")


def default_keys(lf: pl.LazyFrame) -> list[str]:
    """The configuration columns that vary in the data, then ``n_players``."""
    return [*conditions(lf), "n_players"]


def _keys(lf: pl.LazyFrame, keys: Sequence[str] | None) -> list[str]:
    return default_keys(lf) if keys is None else list(keys)


def _col(df: pl.DataFrame, name: str) -> np.ndarray:
    return df.get_column(name).cast(pl.Float64).to_numpy()


def _with(df: pl.DataFrame, **cols: np.ndarray) -> pl.DataFrame:
    return df.with_columns([pl.Series(k, np.asarray(v, dtype=np.float64)) for k, v in cols.items()])


def _collect(lf: pl.LazyFrame) -> pl.DataFrame:
    out = lf.collect(engine="streaming")
    assert isinstance(out, pl.DataFrame)
    return out


def add_win_stats(df: pl.DataFrame, level: float = 0.95, alpha: float = 0.05) -> pl.DataFrame:
    """Add to a frame with ``games``, ``wins``, ``n_players``: win rate, Wilson interval, fair share,
    ratio and difference to fair share, the score test against fair share and its Holm adjustment
    over all rows of the frame (one family), and a ``verdict`` (stronger / weaker / empty)."""
    games, wins, n = _col(df, "games"), _col(df, "wins"), _col(df, "n_players")
    fair = 1.0 / n
    lo, hi = stats.wilson_interval(wins, games, level)
    rate = wins / games
    test = stats.fair_share_test(wins, games, fair)
    adj, reject = stats.holm(test.p_value, alpha)
    verdict = np.where(reject & (rate > fair), "stronger", np.where(reject & (rate < fair), "weaker", ""))
    out = _with(df, win_rate=rate, win_lo=lo, win_hi=hi, fair_share=fair, win_ratio=rate / fair,
                win_ratio_lo=lo / fair, win_ratio_hi=hi / fair, win_diff=rate - fair,
                z=test.statistic, p_value=test.p_value, p_holm=adj)
    return out.with_columns(pl.Series("verdict", verdict.tolist(), dtype=pl.String))


def add_mean_stats(df: pl.DataFrame, prefix: str, level: float = 0.95) -> pl.DataFrame:
    """Add the t interval ``{prefix}_lo``/``{prefix}_hi`` of ``mean_{prefix}`` (needs ``sd_{prefix}``, ``games``)."""
    lo, hi = stats.mean_interval(_col(df, f"mean_{prefix}"), _col(df, f"sd_{prefix}"), _col(df, "games"), level)
    return _with(df, **{f"{prefix}_lo": lo, f"{prefix}_hi": hi})


def traveler_table(
    lf: pl.LazyFrame, keys: Sequence[str] | None = None, level: float = 0.95, alpha: float = 0.05
) -> pl.DataFrame:
    """Per Traveler (and keys): games, win rate vs fair share, Holm verdict, score, rank, points by source."""
    k = _keys(lf, keys)
    agg = (
        lf.filter(pl.col("traveler") != NO_TRAVELER)
        .group_by([*k, "traveler"])
        .agg(
            pl.len().alias("games"), pl.col("win").sum().alias("wins"),
            pl.col("score").mean().alias("mean_score"), pl.col("score").std().alias("sd_score"),
            pl.col("rank").mean().alias("mean_rank"),
            *[pl.col(c).mean().alias(c) for c in POINT_SOURCES],
        )
        .sort([*k, "traveler"])
    )
    df = add_mean_stats(add_win_stats(_collect(agg), level, alpha), "score", level)
    first = [*k, "traveler", "games", "wins", *WIN_COLUMNS, "mean_score", "sd_score", "score_lo", "score_hi",
             "mean_rank"]
    return df.select(first + [c for c in df.columns if c not in first])


def seat_table(
    lf: pl.LazyFrame, keys: Sequence[str] | None = None, level: float = 0.95, alpha: float = 0.05
) -> pl.DataFrame:
    """Per seat (0 = first to leave Kyoto) and keys: win rate vs fair share (Holm over seats), score."""
    k = _keys(lf, keys)
    agg = (
        lf.group_by([*k, "seat"])
        .agg(
            pl.len().alias("games"), pl.col("win").sum().alias("wins"),
            pl.col("score").mean().alias("mean_score"), pl.col("score").std().alias("sd_score"),
            pl.col("coins_start").cast(pl.Float64).mean().alias("mean_coins_start"),
        )
        .sort([*k, "seat"])
    )
    df = add_mean_stats(add_win_stats(_collect(agg), level, alpha), "score", level)
    first = [*k, "seat", "games", "wins", *WIN_COLUMNS, "mean_score", "sd_score", "score_lo", "score_hi"]
    return df.select(first + [c for c in df.columns if c not in first])


def draft_table(lf: pl.LazyFrame, keys: Sequence[str] | None = None, level: float = 0.95) -> pl.DataFrame:
    """The value of the draft, per Traveler, over games where it was dealt in a draft.

    ``chosen``: the player kept it (row's ``traveler``); ``left``: the player was dealt it and
    kept the other card (row's ``alt_traveler``). ``win_rate_chosen`` is the win rate of the
    players who kept it, ``win_rate_left`` that of the players who left it; ``diff`` is
    chosen - left (Newcombe interval, pooled z test). ``pick_rate`` = chosen / dealt.
    """
    k = _keys(lf, keys)
    drafted = lf.filter(pl.col("alt_traveler").is_not_null() & (pl.col("traveler") != NO_TRAVELER))
    chosen = drafted.group_by([*k, "traveler"]).agg(
        pl.len().alias("n_chosen"), pl.col("win").sum().alias("wins_chosen"))
    left = drafted.group_by([*k, pl.col("alt_traveler").alias("traveler")]).agg(
        pl.len().alias("n_left"), pl.col("win").sum().alias("wins_left"))
    joined = chosen.join(left, on=[*k, "traveler"], how="full", coalesce=True, nulls_equal=True)
    df = _collect(joined.with_columns(pl.col("^(n|wins)_.*$").fill_null(0)).sort([*k, "traveler"]))
    nc, wc, nl, wl = (_col(df, c) for c in ("n_chosen", "wins_chosen", "n_left", "wins_left"))
    dealt = nc + nl
    pick_lo, pick_hi = stats.wilson_interval(nc, dealt, level)
    c_lo, c_hi = stats.wilson_interval(wc, nc, level)
    l_lo, l_hi = stats.wilson_interval(wl, nl, level)
    d_lo, d_hi = stats.wilson_interval(wc + wl, dealt, level)
    diff = stats.diff_proportions(wc, nc, wl, nl, level)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _with(
            df, dealt=dealt, pick_rate=nc / dealt, pick_lo=pick_lo, pick_hi=pick_hi,
            win_rate_chosen=wc / nc, chosen_lo=c_lo, chosen_hi=c_hi,
            win_rate_left=wl / nl, left_lo=l_lo, left_hi=l_hi,
            win_rate_dealt=(wc + wl) / dealt, dealt_lo=d_lo, dealt_hi=d_hi,
            diff=diff.diff, diff_lo=diff.lo, diff_hi=diff.hi, p_value=diff.p_value,
        )


def head_to_head(lf: pl.LazyFrame, keys: Sequence[str] | None = None, level: float = 0.95) -> pl.DataFrame:
    """Every ordered Traveler pair (a, b) over games where both played: how often a finished ahead of b.

    ``ahead`` counts games where a's rank beat b's, plus half of the games where they shared a
    rank; ``share`` = ahead / games with its Wilson interval; ``p_value`` tests share = 1/2.
    Both orders are listed (b's share is 1 - a's share).
    """
    k = _keys(lf, keys)
    rows = lf.filter(pl.col("traveler") != NO_TRAVELER).select([*k, "game", "traveler", "rank"])
    pairs = (
        rows.join(rows, on=[*k, "game"], suffix="_b")
        .filter(pl.col("traveler") < pl.col("traveler_b"))
        .group_by([*k, pl.col("traveler").alias("a"), pl.col("traveler_b").alias("b")])
        .agg(
            pl.len().alias("games"),
            ((pl.col("rank") < pl.col("rank_b")).cast(pl.Float64)
             + 0.5 * (pl.col("rank") == pl.col("rank_b")).cast(pl.Float64)).sum().alias("ahead"),
        )
    )
    df = _collect(pairs)
    mirror = df.select([*k, pl.col("b").alias("a"), pl.col("a").alias("b"), "games",
                        (pl.col("games").cast(pl.Float64) - pl.col("ahead")).alias("ahead")])
    both = pl.concat([df, mirror]).sort([*k, "a", "b"])
    games, ahead = _col(both, "games"), _col(both, "ahead")
    lo, hi = stats.wilson_interval(ahead, games, level)
    test = stats.fair_share_test(ahead, games, 0.5)
    return _with(both, share=ahead / games, lo=lo, hi=hi, p_value=test.p_value)


def score_summary(lf: pl.LazyFrame, keys: Sequence[str] | None = None, by: str = "traveler") -> pl.DataFrame:
    """Score distribution per ``by`` and keys: mean, 5/25/50/75/95th percentiles, min and max."""
    k = _keys(lf, keys)
    qs = {"q05": 0.05, "q25": 0.25, "median": 0.5, "q75": 0.75, "q95": 0.95}
    src = lf.filter(pl.col("traveler") != NO_TRAVELER) if by == "traveler" else lf
    agg = src.group_by([*k, by]).agg(
        pl.len().alias("games"), pl.col("score").mean().alias("mean"),
        *[pl.col("score").cast(pl.Float64).quantile(q, interpolation="linear").alias(n) for n, q in qs.items()],
        pl.col("score").min().alias("min"), pl.col("score").max().alias("max"),
    )
    return _collect(agg.sort([*k, by]))
