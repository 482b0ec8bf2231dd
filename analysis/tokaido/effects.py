"""Effects of a rule change on every balance figure: one dataset against a base (no output files).

Unpaired effects compare the two datasets as independent samples (Welch). Rows are paired only
where the deal is the same: the same seed, and in game i of both runs each player had the same
Travelers (kept and, in a draft, the other one dealt) and the same seat. That holds when game i
of both started from the same random stream and the rules consumed it alike up to the deal
(common random numbers), which a variant or a rule number keeps and another Traveler pool or an
expansion's set-up does not: the share of games with the same deal (``Pairing.rate``) is measured,
never assumed. When nearly every game pairs (``PAIRED_SHARE``), rows are joined on (game, player)
over those games and the effect is also estimated from the per-row differences, whose interval is
usually narrower; ``width_ratio`` = paired width / unpaired width on the same matched rows
measures it. Otherwise the figures are independent samples and said to be.

``analysis.tokaido.compare`` writes these effects as a report; ``analysis.tokaido.effect_plots`` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import CONDITION_COLUMNS, WIN_UNITS, Dataset, conditions, exact_sums, win_units

FIGURES = (("win rate", "win"), ("mean score", "score"))
JOIN = ["n_players", "game", "player"]
GAME = ["n_players", "game"]
UNITS = {"win": WIN_UNITS, "score": 1}  # a figure's values are whole multiples of 1 / unit
PAIRED_SHARE = 0.99  # pair when at least this share of the games have the same deal in both runs


@dataclass(frozen=True)
class Pairing:
    """Whether two datasets pair game by game, measured: the games of both and those with the same deal."""

    paired: bool
    why: str  # one line: paired on what, or why not
    games: int = 0  # games both datasets hold (the same indices; per player count, summed)
    same: int = 0  # of those, the games whose deal is the same in both
    common: pl.LazyFrame | None = None  # (n_players, game) of the games with the same deal, when paired

    @property
    def rate(self) -> float:
        """The share of the games whose deal is the same in both (the pairing rate)."""
        return self.same / self.games if self.games else 0.0

    def __iter__(self):  # type: ignore[no-untyped-def]
        """``paired, why = pairing(a, b)`` as before."""
        return iter((self.paired, self.why))


def single_config(ds: Dataset) -> None:
    varying = conditions(ds.frame)
    if varying:
        raise ValueError(
            f"'{ds.path}' mixes several {', '.join(varying)}: compare one configuration "
            f"at a time (pass a partition directory such as '{ds.path}/{varying[0]}=...')"
        )


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
        raise ValueError(
            f"cannot compare '{base.path}' ({_names(a)}) with '{other.path}' ({_names(b)}): no player "
            "count in common; compare datasets of the same player count"
        )
    if a == b:
        return base, other, ""
    keep = pl.col("n_players").is_in(both)
    only = [
        f"{_names(sorted(set(x) - set(both)))} only in {w}"
        for x, w in ((a, "base"), (b, "other"))
        if set(x) - set(both)
    ]
    return (
        replace(base, frame=base.frame.filter(keep)),
        replace(other, frame=other.frame.filter(keep)),
        f"compared on {_names(both)}, the player counts of both ({'; '.join(only)}: left out)",
    )


def deals(lf: pl.LazyFrame) -> pl.LazyFrame:
    """One row per game: ``n_players``, ``game`` and a key of its deal (each player's seat, Traveler and
    the other Traveler dealt, hashed to 64 bits), equal in two runs when the deals are the same."""
    names = lf.collect_schema().names()
    alt = pl.col("alt_traveler").fill_null("-") if "alt_traveler" in names else pl.lit("-")
    row = pl.concat_str(
        [
            pl.col("player").cast(pl.String),
            pl.col("seat").cast(pl.String),
            pl.col("traveler").fill_null("-"),
            alt,
        ],
        separator=":",
    )
    h = row.hash(seed=7)  # a sum over a game's rows does not depend on their order; halves cannot overflow
    return lf.group_by(GAME).agg(
        (h // 2**32).sum().alias("_k1"), (h % 2**32).sum().alias("_k2"), pl.len().alias("_rows")
    )


def deal_match(base: pl.LazyFrame, other: pl.LazyFrame) -> tuple[int, int, int, pl.LazyFrame]:
    """(games of the larger dataset, games both hold, games whose deal is the same in both, those games)."""
    a, b = deals(base), deals(other)
    joined = a.join(b, on=GAME, suffix="_o")
    same = joined.filter(
        (pl.col("_k1") == pl.col("_k1_o"))
        & (pl.col("_k2") == pl.col("_k2_o"))
        & (pl.col("_rows") == pl.col("_rows_o"))
    ).select(GAME)
    counts = pl.collect_all(
        [a.select(pl.len()), b.select(pl.len()), joined.select(pl.len()), same.select(pl.len())]
    )
    larger = max(int(counts[0].item()), int(counts[1].item()))
    return larger, int(counts[2].item()), int(counts[3].item()), same


def frames_pairing(base: pl.LazyFrame, other: pl.LazyFrame, seed: object = None) -> Pairing:
    """Pairing of two frames of one seed (the runs of a study, or two runs whose seeds agree): over the games
    both hold (the same game indices), the share whose deal is the same is the pairing rate."""
    larger, common, same, keys = deal_match(base, other)
    rate = same / common if common else 0.0
    where = f"seed {seed}; " if seed is not None else ""
    held = f" both runs hold (of {larger:,})" if common < larger else ""
    if common and rate >= PAIRED_SHARE:
        left = (
            ""
            if same == common
            else f"; the other {common - same:,} games are left out of the paired figures"
        )
        return Pairing(
            True,
            f"paired on (game, player): the same deal (Travelers and seats) in {100 * rate:.1f}% "
            f"of the {common:,} games{held} ({where}pairing rate {100 * rate:.1f}%){left}",
            common,
            same,
            keys.collect().lazy(),
        )
    return Pairing(
        False,
        f"unpaired: the same deal in only {100 * rate:.1f}% of the {common:,} games{held} "
        f"({where}pairing rate; the Traveler pools, the draft or the set-up before the deal "
        "differ), so the runs are compared as independent samples",
        common,
        same,
    )


def pairing(base: Dataset, other: Dataset) -> Pairing:
    """Whether the two datasets can be paired game by game, and why (a sentence), measured on the deals."""
    if base.seed is None or other.seed is None:
        return Pairing(False, "unpaired: a manifest records no seed")
    if base.seed != other.seed:
        return Pairing(False, f"unpaired: the seeds differ ({base.seed} vs {other.seed})")
    return frames_pairing(base.frame, other.frame, base.seed)


def _units(col: str, suffix: str = "") -> pl.Expr:
    """A figure's column as whole numbers: scores as they are, win shares in 60ths (``UNITS``)."""
    c = pl.col(f"{col}{suffix}")
    return win_units(c) if col == "win" else c.cast(pl.Int64)


def _summaries(lf: pl.LazyFrame, by: str | None) -> pl.LazyFrame:
    # exact integer sums, not polars' float mean and var: those depend in their last digits on the order
    # the rows are added in (threads, streaming chunks, part files); ``_moments`` finishes them
    keys = ["n_players"] + ([by] if by else [])
    aggs = [pl.len().alias("n")]
    for _, col in FIGURES:
        aggs += exact_sums(_units(col), col)
    return lf.group_by(keys).agg(aggs)


def _paired_summaries(joined: pl.LazyFrame, by: str | None) -> pl.LazyFrame:
    keys = ["n_players"] + ([by] if by else [])
    src = joined.filter(pl.col(by) == pl.col(f"{by}_o")) if by else joined
    aggs = [pl.len().alias("n_paired")]
    for _, col in FIGURES:
        a, b = _units(col), _units(col, "_o")
        aggs += [
            *exact_sums(a, f"pa_{col}"),
            *exact_sums(b, f"pb_{col}"),
            *exact_sums(b - a, f"pd_{col}"),
            (a * b).sum().alias(f"pab_{col}"),
        ]
    return src.group_by(keys).agg(aggs)


def _moments(df: pl.DataFrame) -> pl.DataFrame:
    """The means, variances and correlations of ``_summaries`` and ``_paired_summaries`` from their exact
    sums, each rounded once: ``mean_{col}``, ``var_{col}`` (and ``_other``), ``d_{col}``, ``vd_{col}``,
    ``va_{col}``, ``vb_{col}``, ``r_{col}``."""

    def v(name: str) -> list[int | None]:  # Python ints: a numpy view of a column with nulls is float
        return df[name].to_list()

    out = {}
    for _, col in FIGURES:
        unit = UNITS[col]
        for sfx in ("", "_other"):
            if f"n{sfx}" not in df.columns:
                continue
            n, s1, s2 = v(f"n{sfx}"), v(f"{col}_s1{sfx}"), v(f"{col}_s2{sfx}")
            out[f"mean_{col}{sfx}"] = stats.mean_from_sum(n, s1, unit)
            out[f"var_{col}{sfx}"] = stats.var_from_sums(n, s1, s2, unit)
        if "n_paired" in df.columns:
            n = v("n_paired")
            out[f"d_{col}"] = stats.mean_from_sum(n, v(f"pd_{col}_s1"), unit)
            for var, name in (("vd", "pd"), ("va", "pa"), ("vb", "pb")):
                out[f"{var}_{col}"] = stats.var_from_sums(
                    n, v(f"{name}_{col}_s1"), v(f"{name}_{col}_s2"), unit
                )
            a1, a2, b1, b2 = (v(f"{x}_{col}_{k}") for x in ("pa", "pb") for k in ("s1", "s2"))
            out[f"r_{col}"] = stats.corr_from_sums(n, a1, b1, a2, b2, v(f"pab_{col}"))
    return df.with_columns(pl.Series(k, x, dtype=pl.Float64) for k, x in out.items())


def _group_col(by: str | None) -> pl.Expr:
    return pl.col(by).cast(pl.String).alias("group") if by else pl.lit("all players").alias("group")


def effects(
    base: pl.LazyFrame,
    other: pl.LazyFrame,
    paired: bool,
    level: float = 0.95,
    alpha: float = 0.05,
    common: pl.LazyFrame | None = None,
) -> pl.DataFrame:
    """One row per figure: the effect other - base, unpaired and (if ``paired``) paired.

    Figures: win rate and mean score per Traveler and per seat, and the mean score of all
    players, each per player count. Paired rows match on (n_players, game, player) and, for a
    Traveler or seat figure, need the same Traveler or seat in both runs (``n_paired``).
    ``p_holm`` and ``significant`` use the paired p-value when there is one, Holm over all rows.
    ``only`` is "base" or "other" for a figure with rows in that dataset only (not tested).
    ``common``: the (n_players, game) of the games to pair (``Pairing.common``: those with the same
    deal); None pairs every game both hold.
    """
    parts = []
    cols = ["n_players", "game", "player", "traveler", "seat", "win", "score"]
    joined = base.select(cols).join(other.select(cols), on=JOIN, suffix="_o") if paired else None
    if joined is not None and common is not None:
        joined = joined.join(common, on=GAME, how="semi")
    for kind, by in (("traveler", "traveler"), ("seat", "seat"), ("all", None)):
        src_b = base.filter(pl.col("traveler") != "none") if kind == "traveler" else base
        src_o = other.filter(pl.col("traveler") != "none") if kind == "traveler" else other
        sb = _summaries(src_b, by).with_columns(_group_col(by))
        so = _summaries(src_o, by).with_columns(_group_col(by))
        lz = sb.join(so, on=["n_players", "group"], suffix="_other", how="full", coalesce=True)
        if joined is not None:
            jp = joined.filter(pl.col("traveler") != "none") if kind == "traveler" else joined
            lz = lz.join(
                _paired_summaries(jp, by).with_columns(_group_col(by)), on=["n_players", "group"], how="left"
            )
        lz = lz.drop(
            [c for c in ("traveler", "seat", "traveler_other", "seat_other") if c in lz.collect_schema()]
        )
        parts.append((kind, lz))
    frames = pl.collect_all([lz for _, lz in parts])  # shares the scans and the join between the three
    rows = []
    for (kind, _), df in zip(parts, frames, strict=True):
        df = _moments(df)
        for figure, col in FIGURES:
            if kind == "all" and col == "win":
                continue  # the mean win rate of all players is 1/N by construction
            rows.append(_figure_rows(df, kind, figure, col, paired, level))
    out = pl.concat(rows, how="diagonal_relaxed")
    primary = out["p_paired"].to_numpy() if paired else out["p_value"].to_numpy()
    adj, rej = stats.holm(primary, alpha)
    out = out.with_columns(pl.Series("p_holm", adj), pl.Series("significant", rej))
    return out.sort(["figure", "kind", "n_players", "group"])


def _figure_rows(
    df: pl.DataFrame, kind: str, figure: str, col: str, paired: bool, level: float
) -> pl.DataFrame:
    def c(name: str) -> np.ndarray:
        return (
            df.get_column(name).cast(pl.Float64).to_numpy()
            if name in df.columns
            else np.full(df.height, np.nan)
        )

    nb, no = c("n"), c("n_other")
    un = stats.diff_means(
        c(f"mean_{col}_other"), c(f"var_{col}_other"), no, c(f"mean_{col}"), c(f"var_{col}"), nb, level
    )
    cols: dict[str, object] = {
        "figure": [figure] * df.height,
        "kind": [kind] * df.height,
        "n_players": df["n_players"],
        "group": df["group"],
        "n_base": nb,
        "n_other": no,
        "base": c(f"mean_{col}"),
        "other": c(f"mean_{col}_other"),
        "diff": un.diff,
        "lo": un.lo,
        "hi": un.hi,
        "p_value": un.p_value,
        # a figure with rows on one side only (a Traveler the draft never kept there) has no test
        "only": np.where(~(nb > 0), "other", np.where(~(no > 0), "base", "")),
    }
    if paired:
        npd = c("n_paired")
        pr = stats.paired_from_summary(npd, c(f"d_{col}"), c(f"vd_{col}"), level)
        same = stats.diff_means(0.0, c(f"vb_{col}"), npd, 0.0, c(f"va_{col}"), npd, level)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = (pr.hi - pr.lo) / (same.hi - same.lo)
        cols.update(
            n_paired=npd,
            diff_paired=pr.diff,
            lo_paired=pr.lo,
            hi_paired=pr.hi,
            p_paired=pr.p_value,
            width_ratio=ratio,
            correlation=c(f"r_{col}"),
        )
    return pl.DataFrame(cols)


def largest_first(eff: pl.DataFrame, column: str) -> pl.DataFrame:
    """Effect rows by the size of ``column`` (absolute), largest first; equal sizes in the order of the
    rows' keys, so that a listing or a "largest" pick does not depend on the order the rows came in."""
    keys = [
        c for c in ("change", *CONDITION_COLUMNS, "figure", "kind", "n_players", "group") if c in eff.columns
    ]
    return eff.sort([pl.col(column).abs(), *keys], descending=[True] + [False] * len(keys), nulls_last=True)


def _span(lf: pl.LazyFrame) -> pl.DataFrame:
    return (
        lf.group_by("n_players")
        .agg(
            pl.col("game").n_unique().alias("n"),
            pl.col("game").min().alias("lo"),
            pl.col("game").max().alias("hi"),
        )
        .sort("n_players")
        .collect()
    )


def study_effects(
    lf: pl.LazyFrame, column: str = "variants", base: str = "none", level: float = 0.95, alpha: float = 0.05
) -> pl.DataFrame:
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
    # in a fixed order: ``unique`` gives its rows in an order that varies with the threads, and the report
    # reads these rows in order
    combos = (
        lf.select(fixed).unique().sort(fixed, nulls_last=True).collect().iter_rows(named=True)
        if fixed
        else iter([{}])
    )
    out = []
    for combo in combos:
        sub = lf.filter(*[pl.col(k) == v for k, v in combo.items()]) if combo else lf
        ref = sub.filter(pl.col(column) == base)
        if _span(ref).is_empty():
            continue
        for v in sorted(x for x in values if x != base):
            alt = sub.filter(pl.col(column) == v)
            if _span(alt).is_empty():
                continue
            pair = frames_pairing(ref, alt)  # a study has one seed: the deals say whether games pair
            eff = effects(ref, alt, pair.paired, level, alpha, pair.common)
            out.append(
                eff.with_columns(
                    pl.lit(v).alias("change"),
                    *[pl.lit(x).alias(k) for k, x in combo.items()],
                    pl.lit(pair.rate).alias("pairing_rate"),
                )
            )
    return pl.concat(out, how="diagonal_relaxed") if out else pl.DataFrame()
