"""Balance tables computed lazily with polars: one aggregation per table, statistics on the groups.

Every table is grouped by ``keys`` (default: the configuration columns that vary in the data,
then ``n_players``), so figures from different configurations or player counts never mix.
Win rates count a k-way shared win as 1/k. Rows of the Journey of Initiation variant
(Traveler ``none``) are left out of the Traveler tables.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import POINT_SOURCES, conditions, exact_sums, win_sum

NO_TRAVELER = "none"
BATCH_ROWS = 1_000_000  # rows per self-join of the head-to-head table (~300 MB)
WIN_COLUMNS = (
    "win_rate",
    "win_lo",
    "win_hi",
    "fair_share",
    "win_ratio",
    "win_ratio_lo",
    "win_ratio_hi",
    "win_diff",
    "z",
    "p_value",
    "p_holm",
    "verdict",
)


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


def _with_sd(df: pl.DataFrame, prefix: str) -> pl.DataFrame:
    """``sd_{prefix}`` from the exact sums ``{prefix}_s1``, ``{prefix}_s2`` (``analysis.load.exact_sums``) and
    ``games``, which it replaces: the same to the last bit whatever the threads or the order of the rows,
    where polars' own ``std`` is not (null for a single game, as polars gives)."""
    n, s1, s2 = (df[c].to_list() for c in ("games", f"{prefix}_s1", f"{prefix}_s2"))
    var = stats.var_from_sums(n, s1, s2)
    sd = pl.Series(f"sd_{prefix}", np.sqrt(var)).fill_nan(None)
    return df.with_columns(sd).drop(f"{prefix}_s1", f"{prefix}_s2")


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
    out = _with(
        df,
        win_rate=rate,
        win_lo=lo,
        win_hi=hi,
        fair_share=fair,
        win_ratio=rate / fair,
        win_ratio_lo=lo / fair,
        win_ratio_hi=hi / fair,
        win_diff=rate - fair,
        z=test.statistic,
        p_value=test.p_value,
        p_holm=adj,
    )
    return out.with_columns(pl.Series("verdict", verdict.tolist(), dtype=pl.String))


def add_mean_stats(df: pl.DataFrame, prefix: str, level: float = 0.95) -> pl.DataFrame:
    """Add the t interval ``{prefix}_lo``/``{prefix}_hi`` of ``mean_{prefix}`` (needs ``sd_{prefix}``,
    ``games``)."""
    lo, hi = stats.mean_interval(
        _col(df, f"mean_{prefix}"), _col(df, f"sd_{prefix}"), _col(df, "games"), level
    )
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
            pl.len().alias("games"),
            win_sum().alias("wins"),
            pl.col("score").mean().alias("mean_score"),
            *exact_sums(pl.col("score"), "score"),
            pl.col("rank").mean().alias("mean_rank"),
            *[pl.col(c).mean().alias(c) for c in POINT_SOURCES],
        )
        .sort([*k, "traveler"])
    )
    df = add_mean_stats(add_win_stats(_with_sd(_collect(agg), "score"), level, alpha), "score", level)
    first = [
        *k,
        "traveler",
        "games",
        "wins",
        *WIN_COLUMNS,
        "mean_score",
        "sd_score",
        "score_lo",
        "score_hi",
        "mean_rank",
    ]
    return df.select(first + [c for c in df.columns if c not in first])


def seat_table(
    lf: pl.LazyFrame, keys: Sequence[str] | None = None, level: float = 0.95, alpha: float = 0.05
) -> pl.DataFrame:
    """Per seat (0 = first to leave Kyoto) and keys: win rate vs fair share (Holm over seats), score."""
    k = _keys(lf, keys)
    agg = (
        lf.group_by([*k, "seat"])
        .agg(
            pl.len().alias("games"),
            win_sum().alias("wins"),
            pl.col("score").mean().alias("mean_score"),
            *exact_sums(pl.col("score"), "score"),
            pl.col("coins_start").cast(pl.Float64).mean().alias("mean_coins_start"),
        )
        .sort([*k, "seat"])
    )
    df = add_mean_stats(add_win_stats(_with_sd(_collect(agg), "score"), level, alpha), "score", level)
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
        pl.len().alias("n_chosen"), win_sum().alias("wins_chosen")
    )
    left = drafted.group_by([*k, pl.col("alt_traveler").alias("traveler")]).agg(
        pl.len().alias("n_left"), win_sum().alias("wins_left")
    )
    # two streaming passes joined in memory: collected together, the shared scan is not streamed
    joined = _collect(chosen).join(
        _collect(left), on=[*k, "traveler"], how="full", coalesce=True, nulls_equal=True
    )
    df = joined.with_columns(pl.col("^(n|wins)_.*$").fill_null(0)).sort([*k, "traveler"])
    nc, wc, nl, wl = (_col(df, c) for c in ("n_chosen", "wins_chosen", "n_left", "wins_left"))
    dealt = nc + nl
    pick_lo, pick_hi = stats.wilson_interval(nc, dealt, level)
    c_lo, c_hi = stats.wilson_interval(wc, nc, level)
    l_lo, l_hi = stats.wilson_interval(wl, nl, level)
    d_lo, d_hi = stats.wilson_interval(wc + wl, dealt, level)
    diff = stats.diff_proportions(wc, nc, wl, nl, level)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _with(
            df,
            dealt=dealt,
            pick_rate=nc / dealt,
            pick_lo=pick_lo,
            pick_hi=pick_hi,
            win_rate_chosen=wc / nc,
            chosen_lo=c_lo,
            chosen_hi=c_hi,
            win_rate_left=wl / nl,
            left_lo=l_lo,
            left_hi=l_hi,
            win_rate_dealt=(wc + wl) / dealt,
            dealt_lo=d_lo,
            dealt_hi=d_hi,
            diff=diff.diff,
            diff_lo=diff.lo,
            diff_hi=diff.hi,
            p_value=diff.p_value,
        )


def _game_batches(rows: pl.LazyFrame) -> list[tuple[int, int]]:
    """Game-index ranges ``[lo, hi)`` of about ``BATCH_ROWS`` rows each (none if there are no rows).

    A game's rows share its index, so a self-join within each range sees every pair of a game,
    while memory holds one range (the Parquet statistics let the scan skip the other row groups).
    """
    n, lo, hi = _collect(
        rows.select(pl.len().alias("n"), pl.col("game").min().alias("lo"), pl.col("game").max().alias("hi"))
    ).row(0)
    if not n:
        return []
    step = max(1, BATCH_ROWS * (hi - lo + 1) // n)
    return [(s, min(s + step, hi + 1)) for s in range(lo, hi + 1, step)]


def _pairs(rows: pl.LazyFrame, k: list[str]) -> pl.LazyFrame:
    return (
        rows.join(rows, on=[*k, "game"], suffix="_b")
        .filter(pl.col("traveler") < pl.col("traveler_b"))
        .group_by([*k, pl.col("traveler").alias("a"), pl.col("traveler_b").alias("b")])
        .agg(
            pl.len().alias("games"),
            (
                (pl.col("rank") < pl.col("rank_b")).cast(pl.Float64)
                + 0.5 * (pl.col("rank") == pl.col("rank_b")).cast(pl.Float64)
            )
            .sum()
            .alias("ahead"),
        )
    )


def head_to_head(lf: pl.LazyFrame, keys: Sequence[str] | None = None, level: float = 0.95) -> pl.DataFrame:
    """Every ordered Traveler pair (a, b) over games where both played: how often a finished ahead of b.

    ``ahead`` counts games where a's rank beat b's, plus half of the games where they shared a
    rank; ``share`` = ahead / games with its Wilson interval; ``p_value`` tests share = 1/2.
    Both orders are listed (b's share is 1 - a's share).
    """
    k = _keys(lf, keys)
    rows = lf.filter(pl.col("traveler") != NO_TRAVELER).select([*k, "game", "traveler", "rank"])
    batches = _game_batches(rows) or [(0, 0)]  # an empty frame still gives the table's columns
    parts = [
        _collect(_pairs(rows.filter(pl.col("game").is_between(lo, hi, closed="left")), k))
        for lo, hi in batches
    ]
    df = pl.concat(parts).group_by([*k, "a", "b"]).agg(pl.col("games").sum(), pl.col("ahead").sum())
    mirror = df.select(
        [
            *k,
            pl.col("b").alias("a"),
            pl.col("a").alias("b"),
            "games",
            (pl.col("games").cast(pl.Float64) - pl.col("ahead")).alias("ahead"),
        ]
    )
    both = pl.concat([df, mirror]).sort([*k, "a", "b"])
    games, ahead = _col(both, "games"), _col(both, "ahead")
    lo, hi = stats.wilson_interval(ahead, games, level)
    test = stats.fair_share_test(ahead, games, 0.5)
    return _with(both, share=ahead / games, lo=lo, hi=hi, p_value=test.p_value)


QUANTILES = {"q05": 0.05, "q25": 0.25, "median": 0.5, "q75": 0.75, "q95": 0.95}


def score_summary(lf: pl.LazyFrame, keys: Sequence[str] | None = None, by: str = "traveler") -> pl.DataFrame:
    """Score distribution per ``by`` and keys: mean, 5/25/50/75/95th percentiles, min and max."""
    k = _keys(lf, keys)
    src = lf.filter(pl.col("traveler") != NO_TRAVELER) if by == "traveler" else lf
    # scores are small integers: a histogram per group streams, where a quantile would hold every score
    hist = _collect(src.group_by([*k, by, "score"]).agg(pl.len().alias("count")).sort([*k, by, "score"]))
    rows = []
    for vals, sub in hist.group_by([*k, by], maintain_order=True):
        score, count = _col(sub, "score"), _col(sub, "count")
        row = dict(zip([*k, by], vals, strict=True))
        row.update(
            games=int(count.sum()),
            mean=float(score @ count / count.sum()),
            **{name: _quantile(score, count, q) for name, q in QUANTILES.items()},
            min=int(score[0]),
            max=int(score[-1]),
        )
        rows.append(row)
    schema = {c: hist.schema[c] for c in [*k, by]}
    return pl.DataFrame(
        rows,
        schema={
            **schema,
            "games": pl.UInt32,
            "mean": pl.Float64,
            **dict.fromkeys(QUANTILES, pl.Float64),
            "min": pl.Int16,
            "max": pl.Int16,
        },
    )


def _quantile(values: np.ndarray, counts: np.ndarray, q: float) -> float:
    """The ``q`` quantile of the sample with these sorted ``values`` repeated ``counts`` times,
    interpolated linearly between order statistics (numpy's and polars' default)."""
    cum = np.cumsum(counts)
    h = (cum[-1] - 1) * q
    lo, hi = (values[np.searchsorted(cum, i, side="right")] for i in (np.floor(h), np.ceil(h)))
    return float(lo + (h - np.floor(h)) * (hi - lo))


def seat_spread(df: pl.DataFrame, sfx: str = "", level: float = 0.95) -> tuple[float, float, float, int, int]:
    """The seat spread of one configuration and player count (its ``seat_table`` rows): the highest seat win
    rate less the lowest, with its interval (both seats' wins come from the same games, so their covariance
    is -p_a p_b / m), and the two seats (highest, lowest). ``sfx`` reads columns ``win_rate{sfx}`` etc."""
    rate, games = df[f"win_rate{sfx}"].to_numpy(), df[f"games{sfx}"].to_numpy()
    hi, lo = int(np.nanargmax(rate)), int(np.nanargmin(rate))
    pa, pb, m = float(rate[hi]), float(rate[lo]), float(games[hi])
    se = math.sqrt(max(pa * (1 - pa) + pb * (1 - pb) + 2 * pa * pb, 0.0) / m) if m > 0 else math.nan
    z = float(stats.norm_ppf(0.5 + level / 2))
    d = pa - pb
    return d, d - z * se, d + z * se, int(df["seat"][hi]), int(df["seat"][lo])
