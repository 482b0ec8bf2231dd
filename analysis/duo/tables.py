"""The Duo report's tables, each computed from a ``duo run`` dataset's rows with its intervals and tests.

Win rates carry Wilson intervals, differences of two win rates Newcombe's interval and a two-proportion
z test; the Hot Spring token and wave tiles table is one Holm family.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import stats
from analysis.duo.dataset import AUTOMA, CHARACTERS, POINTS, TRIGGERS
from analysis.load import win_sum

LEVEL = 0.95
ALPHA = 0.05


def _wilson(df: pl.DataFrame, wins: str, n: str, prefix: str, level: float) -> pl.DataFrame:
    lo, hi = stats.wilson_interval(df[wins].to_numpy(), df[n].to_numpy(), level)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = df[wins].to_numpy() / df[n].to_numpy()
    return df.with_columns(
        pl.Series(f"{prefix}", rate), pl.Series(f"{prefix}_lo", lo), pl.Series(f"{prefix}_hi", hi)
    )


def _diff(df: pl.DataFrame, a: tuple[str, str], b: tuple[str, str], level: float) -> pl.DataFrame:
    d = stats.diff_proportions(
        df[a[0]].to_numpy(), df[a[1]].to_numpy(), df[b[0]].to_numpy(), df[b[1]].to_numpy(), level
    )
    return df.with_columns(
        pl.Series("diff", d.diff),
        pl.Series("diff_lo", d.lo),
        pl.Series("diff_hi", d.hi),
        pl.Series("p_value", d.p_value),
    )


def first_picker_table(df: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """Per bot (and ``all``): win rate when picking first in round 1 vs second, Wilson and Newcombe intervals.

    The ``all`` row is the first picker's win rate over every game, tested against 50%.
    """

    def agg(frame: pl.DataFrame, by: pl.Expr) -> pl.DataFrame:
        first = pl.col("first") == 1
        return frame.group_by(by.alias("bot")).agg(
            games_first=first.sum(),
            wins_first=win_sum(pl.col("win").filter(first)),
            games_second=(~first).sum(),
            wins_second=win_sum(pl.col("win").filter(~first)),
        )

    bots = (
        [agg(df, pl.col("bot")).sort("bot")] if df["bot"].n_unique() > 1 else []
    )  # a mirror: the bot is ``all``
    out = pl.concat([agg(df, pl.lit("all")), *bots], how="vertical_relaxed")
    out = _wilson(
        _wilson(out, "wins_first", "games_first", "win_first", level),
        "wins_second",
        "games_second",
        "win_second",
        level,
    )
    out = _diff(out, ("wins_first", "games_first"), ("wins_second", "games_second"), level)
    # over all games first and second are the same games (second = 1 - first): the difference is 2p - 1
    every = pl.col("bot") == "all"
    out = out.with_columns(
        diff_lo=pl.when(every).then(2 * pl.col("win_first_lo") - 1).otherwise(pl.col("diff_lo")),
        diff_hi=pl.when(every).then(2 * pl.col("win_first_hi") - 1).otherwise(pl.col("diff_hi")),
    )
    test = stats.fair_share_test(out["wins_first"].to_numpy(), out["games_first"].to_numpy(), 0.5)
    out = out.with_columns(
        pl.Series("p_vs_half", test.p_value)
    )  # for ``all``; a bot's rate mixes in its strength
    return out.with_columns(p_value=pl.when(every).then(pl.col("p_vs_half")).otherwise(pl.col("p_value")))


def points_table(df: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """Per bot and outcome (all / won / lost; a tie is in ``all`` only): win rate, mean points by
    character."""
    parts = []
    for label, cond in (("all", pl.lit(True)), ("won", pl.col("win") == 1), ("lost", pl.col("win") == 0)):
        parts.append(
            df.filter(cond)
            .group_by("bot")
            .agg(
                pl.lit(label).alias("outcome"),
                games=pl.len(),
                wins=win_sum(),
                **{f"mean_{c}": pl.col(c).mean() for c in (*POINTS, "score", "coins")},
                sd_score=pl.col("score").std(),
            )
        )
    out = pl.concat(parts).sort("bot", pl.col("outcome").replace_strict({"all": 0, "won": 1, "lost": 2}))
    out = _wilson(out, "wins", "games", "win_rate", level)
    lo, hi = stats.mean_interval(
        out["mean_score"].to_numpy(), out["sd_score"].to_numpy(), out["games"].to_numpy(), level
    )
    return out.with_columns(pl.Series("score_lo", lo), pl.Series("score_hi", hi))


def triggers_table(games: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """Per matchup and trigger: share of games it ended (several may fire in the last round), alone,
    rounds."""
    rows = []
    for (matchup,), sub in games.group_by("matchup", maintain_order=True):
        bits = sub["end_triggers"].to_numpy()
        rounds = sub["rounds"].to_numpy()
        for k, name in enumerate(TRIGGERS):
            fired = (bits >> k) & 1 == 1
            if name == "rank" and AUTOMA not in matchup.split(" vs "):
                continue  # only a solo game has Rank tracks
            rows.append(
                {
                    "matchup": matchup,
                    "trigger": name,
                    "games": len(sub),
                    "fired": int(fired.sum()),
                    "alone": int((bits == (1 << k)).sum()),
                    "mean_rounds": float(rounds[fired].mean()) if fired.any() else None,
                }
            )
    out = pl.DataFrame(rows, schema_overrides={"mean_rounds": pl.Float64})
    return _wilson(out, "fired", "games", "share", level).sort("matchup", maintain_order=True)


def rounds_table(games: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """Per matchup: rounds played, mean with t interval and quantiles."""
    r = pl.col("rounds")
    out = (
        games.group_by("matchup")
        .agg(
            games=pl.len(),
            mean_rounds=r.mean(),
            sd_rounds=r.std(),
            min=r.min(),
            p10=r.quantile(0.1, "nearest").cast(pl.Int64),
            median=r.median(),
            p90=r.quantile(0.9, "nearest").cast(pl.Int64),
            max=r.max(),
        )
        .sort("matchup")
    )
    lo, hi = stats.mean_interval(
        out["mean_rounds"].to_numpy(), out["sd_rounds"].to_numpy(), out["games"].to_numpy(), level
    )
    return out.with_columns(pl.Series("rounds_lo", lo), pl.Series("rounds_hi", hi))


def _items() -> list[tuple[str, pl.Expr, str | None]]:
    items: list[tuple[str, pl.Expr, str | None]] = [
        ("Hot Spring token taken", pl.col("hs_taken") > 0, "hs_taken"),
        ("Hot Spring token used", pl.col("hs_used") > 0, "hs_used"),
    ]
    for k, c in enumerate(CHARACTERS):
        items.append((f"{c} wave tile held at the end", (pl.col("waves_held") // (1 << k)) % 2 == 1, None))
        items.append((f"{c} wave tile used", pl.col(f"wave_use_{c}") > 0, f"wave_use_{c}"))
    return items


def token_waves_table(df: pl.DataFrame, level: float = LEVEL, alpha: float = ALPHA) -> pl.DataFrame:
    """Per bot and item: how often players had it, and the win rate with vs without (an association).

    Holm adjusts the p-values over every row of the table (one family).
    """
    parts = []
    df = df.filter(pl.col("bot") != AUTOMA)  # the Automa takes no wave tile and never spends the token
    for label, cond, count in _items():
        parts.append(
            df.group_by("bot").agg(
                pl.lit(label).alias("item"),
                players=pl.len(),
                with_n=cond.sum(),
                wins_with=win_sum(pl.col("win").filter(cond)),
                without_n=(~cond).sum(),
                wins_without=win_sum(pl.col("win").filter(~cond)),
                mean_uses=pl.col(count).mean() if count else pl.lit(None, pl.Float64),
            )
        )
    out = pl.concat(parts).sort("bot", maintain_order=True)
    out = out.with_columns(share_with=pl.col("with_n") / pl.col("players"))
    out = _wilson(
        _wilson(out, "wins_with", "with_n", "win_with", level),
        "wins_without",
        "without_n",
        "win_without",
        level,
    )
    out = _diff(out, ("wins_with", "with_n"), ("wins_without", "without_n"), level)
    adj, reject = stats.holm(out["p_value"].to_numpy(), alpha)
    verdict = np.where(
        reject & (out["diff"].to_numpy() > 0), "goes with winning", np.where(reject, "goes with losing", "")
    )
    return out.with_columns(pl.Series("p_holm", adj), pl.Series("verdict", verdict.tolist(), dtype=pl.String))


def solo_table(df: pl.DataFrame, level: float = LEVEL) -> pl.DataFrame:
    """Solo: the human bot's win rate against the Automa, overall and by its plan.

    A game's *plan* is the character that earned the human most points (``mixed`` on a tie
    for the most). Rows: ``all`` and each plan; games, share, wins (ties go to the human),
    Wilson interval, mean human score and mean Automa score. Empty without an Automa.
    """
    if AUTOMA not in df["bot"].unique().to_list():
        return pl.DataFrame()
    human = df.filter(pl.col("bot") != AUTOMA)
    automa = df.filter(pl.col("bot") == AUTOMA).select("game", pl.col("score").alias("automa_score"))
    pts = pl.concat_list([pl.col(c) for c in POINTS])
    plan = (
        pl.when((pts.list.eval(pl.element() == pl.element().max()).list.sum()) > 1)
        .then(pl.lit("mixed"))
        .otherwise(pl.lit(list(CHARACTERS)).list.get(pts.list.arg_max()))
    )
    human = human.with_columns(plan=plan).join(automa, on="game")

    def agg(frame: pl.DataFrame, label: pl.Expr) -> pl.DataFrame:
        return frame.group_by(label.alias("plan")).agg(
            games=pl.len(),
            wins=win_sum(),
            mean_score=pl.col("score").mean(),
            mean_automa=pl.col("automa_score").mean(),
        )

    out = pl.concat([agg(human, pl.lit("all")), agg(human, pl.col("plan")).sort("plan")])
    out = out.with_columns(share=pl.col("games") / human.height)
    return _wilson(out, "wins", "games", "win_rate", level)
