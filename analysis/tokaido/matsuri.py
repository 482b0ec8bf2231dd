"""The report's Matsuri cell: which festival cards came into play and how games with each went.

Per Matsuri card (ids of ``sim/games/tokaido/data/matsuri.toml``, named by the default data's kinds): the
games in
which it was kept at an Inn or brought by Hanabi, and in those games the mean score, the mean
Matsuri-token points and the mean spread (winner minus last). A card whose games have a wider
spread than the others swings games more ("how much does Hanabi swing a game?").
"""

from __future__ import annotations

import polars as pl

from kernels.tokaido.core.events import MATSURI_KINDS

CARD_COLUMNS = ("matsuri_inn1", "matsuri_inn2", "matsuri_inn3", "matsuri_hanabi1", "matsuri_hanabi2")


def matsuri_table(lf: pl.LazyFrame, keys: list[str]) -> pl.DataFrame | None:
    """One row per (configuration keys, card); None when the dataset has no Matsuri games."""
    if not set(CARD_COLUMNS) <= set(lf.collect_schema().names()):
        return None
    group = ["game", *keys]
    games = lf.group_by(group).agg(
        *(pl.col(c).first() for c in CARD_COLUMNS),
        pl.col("score").mean().alias("mean_score"),
        (pl.col("score").max() - pl.col("score").min()).alias("spread"),
        pl.col("pts_matsuri").mean().alias("pts_matsuri"),
    )
    long = games.unpivot(
        index=[*group, "mean_score", "spread", "pts_matsuri"],
        on=list(CARD_COLUMNS),
        variable_name="slot",
        value_name="card",
    ).filter(pl.col("card") >= 0)
    total = games.group_by(keys).agg(pl.len().alias("all_games"))
    df = (
        long.group_by([*keys, "card"])
        .agg(
            pl.len().alias("games"),
            pl.col("mean_score").mean(),
            pl.col("spread").mean(),
            pl.col("pts_matsuri").mean(),
        )
        .join(total, on=keys)
        .with_columns((pl.col("games") / pl.col("all_games")).alias("share"))
        .sort([*keys, "card"])
        .collect(engine="streaming")
    )
    return df if df.height else None


def matsuri_md(lf: pl.LazyFrame, keys: list[str]) -> str | None:
    df = matsuri_table(lf, keys)
    if df is None:
        return None
    head = [*keys, "card", "games", "share", "mean score", "spread", "token pts"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in df.iter_rows(named=True):
        name = MATSURI_KINDS[r["card"]] if r["card"] < len(MATSURI_KINDS) else str(r["card"])
        lines.append(
            "| "
            + " | ".join(
                [
                    *(str(r[k]) for k in keys),
                    name,
                    f"{r['games']:,}",
                    f"{r['share']:.1%}",
                    f"{r['mean_score']:.1f}",
                    f"{r['spread']:.1f}",
                    f"{r['pts_matsuri']:.2f}",
                ]
            )
            + " |"
        )
    return (
        "Cards in play (kept at an Inn or brought by Hanabi) and the games they were in: mean score, "
        "mean spread (winner − last) and mean Matsuri-token points per player.\n\n" + "\n".join(lines)
    )
