"""Synthetic results datasets for the analysis tests (no engine needed).

``make_dataset`` writes random but plausible games with the engine's schema: points by
source sum to the score, ranks follow score then achievements, a full tie shares the win.
Two datasets with the same seed have the same deals (Travelers, seats, base points), so
they can be paired on (game, player); ``effect`` then shifts chosen figures.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

TRAVELERS = (
    "hiroshige",
    "chuubei",
    "kinko",
    "yoshiyasu",
    "satsuki",
    "mitsukuni",
    "sasayakko",
    "hirotada",
    "umegae",
    "zen-emon",
)
POINTS = (
    "pts_meals",
    "pts_souvenirs",
    "pts_panoramas",
    "pts_hot_springs",
    "pts_temple",
    "pts_temple_bonus",
    "pts_encounters",
    "pts_achievements",
    "pts_other",
)
COUNTS = (
    "meals",
    "meal_value",
    "souvenirs",
    "hot_springs",
    "encounters",
    "achievements",
    "donated",
    "coins_left",
    "coins_start",
    "stops",
    "panoramas",
)
INT8 = ("n_players", "player", "seat", "rank")


def _frame(cols: Mapping[str, Any]) -> pl.DataFrame:
    schema: dict[str, Any] = {
        "game": pl.Int64,
        "traveler": pl.String,
        "alt_traveler": pl.String,
        "bot": pl.String,
        "win": pl.Float64,
        "score": pl.Int16,
    }
    schema.update({c: pl.Int8 for c in INT8})
    schema.update({c: pl.Int16 for c in POINTS + COUNTS})
    order = [
        "game",
        "n_players",
        "player",
        "seat",
        "traveler",
        "alt_traveler",
        "bot",
        "score",
        "rank",
        "win",
        *POINTS,
        *COUNTS,
    ]
    return pl.DataFrame({c: cols[c] for c in order}, schema={c: schema[c] for c in order})


def rank_and_win(score: np.ndarray, achievements: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ranks (1 = best; a full tie shares the rank) and wins (1/k for a k-way shared win), per row."""
    key = score.astype(np.int64) * 100 + achievements
    rank = (key[:, :, None] < key[:, None, :]).sum(-1) + 1
    first = rank == 1
    win = first / first.sum(1, keepdims=True)
    return rank, win


def make_dataset(
    path: str | Path,
    n_games: int,
    n_players: int,
    seed: int,
    variants: str = "none",
    effect: Mapping[str, float] | None = None,
    *,
    hive: bool = False,
    travelers: str = "draft",
    bot: str = "greedy",
    expansions: str = "none",
) -> Path:
    """Write a dataset of ``n_games`` games to the directory ``path`` and return it.

    ``effect`` adds points (in ``pts_other``) by key: a Traveler name, or ``"seat:K"`` for
    seat K. With ``hive=True`` rows go to ``n_players=N/variants=V/part-00000.parquet`` (the
    ``variants`` column then lives only in the path), as a ``study`` writes them; calling
    again with other variants adds a partition. The variant string also seeds a small
    extra noise, so paired datasets differ a little even without an effect. ``bot`` and
    ``expansions`` are only recorded (the bot column, the manifest's configuration).
    """
    out = Path(path)
    g, n = n_games, n_players
    rng = np.random.default_rng(seed)
    initiation = "initiation" in variants.split("+")
    deal = np.argsort(rng.random((g, len(TRAVELERS))), axis=1)
    names = np.asarray(TRAVELERS, dtype=object)
    if initiation:
        trav = np.full((g, n), "none", dtype=object)
        alt = np.full((g, n), None, dtype=object)
    elif travelers == "draft":
        keep = rng.random((g, n)) < 0.5
        a, b = names[deal[:, :n]], names[deal[:, n : 2 * n]]
        trav, alt = np.where(keep, a, b), np.where(keep, b, a)
    else:
        trav, alt = names[deal[:, :n]], np.full((g, n), None, dtype=object)
    seat = np.argsort(rng.random((g, n)), axis=1)
    c: dict[str, Any] = {
        "meals": rng.integers(3, 8, (g, n)),
        "souvenirs": rng.integers(1, 11, (g, n)),
        "hot_springs": rng.integers(0, 5, (g, n)),
        "encounters": rng.integers(0, 6, (g, n)),
        "panoramas": rng.integers(3, 13, (g, n)),
        "donated": rng.integers(0, 9, (g, n)),
        "achievements": (rng.random((g, n)) < 0.3).astype(int) + (rng.random((g, n)) < 0.1),
        "stops": rng.integers(10, 17, (g, n)),
        "coins_left": rng.integers(0, 6, (g, n)),
    }
    c["meal_value"] = c["meals"] * 2 + rng.integers(0, 3, (g, n))
    c["coins_start"] = (
        7 + (seat if "preparations" in variants else 0) - (n // 2 if "preparations" in variants else 0)
    )
    c["coins_start"] = np.broadcast_to(c["coins_start"], (g, n))
    c["pts_meals"] = 6 * c["meals"]
    c["pts_souvenirs"] = c["souvenirs"] * 2 + rng.integers(0, 4, (g, n))
    c["pts_panoramas"] = c["panoramas"] * 2 + rng.integers(0, 5, (g, n))
    c["pts_hot_springs"] = c["hot_springs"] * 2 + rng.integers(0, c["hot_springs"] + 1)
    c["pts_temple"] = c["donated"]
    c["pts_temple_bonus"] = np.take_along_axis(
        np.array([10, 7, 4, 2, 0])[None, :n].repeat(g, 0),
        np.argsort(-c["donated"] - rng.random((g, n)), 1).argsort(1),
        1,
    )
    c["pts_encounters"] = rng.integers(0, 2 * c["encounters"] + 1)
    c["pts_achievements"] = 3 * c["achievements"]
    noise = np.random.default_rng([seed, zlib.crc32(variants.encode())])
    other = noise.integers(0, 3, (g, n)).astype(float)
    for key, pts in (effect or {}).items():
        other += pts * (seat == int(key[5:]) if key.startswith("seat:") else trav == key)
    c["pts_other"] = np.round(other).astype(int)
    score = sum(c[p] for p in POINTS)
    rank, win = rank_and_win(score, c["achievements"])
    cols: dict[str, Any] = {k: np.asarray(v).ravel() for k, v in c.items()}
    cols.update(
        game=np.repeat(np.arange(g), n),
        n_players=np.full(g * n, n),
        player=np.tile(np.arange(n), g),
        seat=seat.ravel(),
        traveler=trav.ravel().tolist(),
        alt_traveler=alt.ravel().tolist(),
        bot=[bot] * (g * n),
        score=score.ravel(),
        rank=rank.ravel(),
        win=win.ravel(),
    )
    df = _frame(cols)
    part = out / f"n_players={n}" / f"variants={variants}" if hive else out
    part.mkdir(parents=True, exist_ok=True)
    df.write_parquet(part / "part-00000.parquet")
    config = {
        "n_players": n,
        "variants": [] if variants == "none" else variants.split("+"),
        "expansions": [] if expansions == "none" else expansions.split("+"),
        "travelers": travelers,
        "bots": [bot],
    }
    (out / "manifest.json").write_text(json.dumps({"seed": seed, "games": g, "config": config}, indent=1))
    return out


def write_rows(path: str | Path, rows: Sequence[Mapping[str, Any]], seed: int = 1) -> Path:
    """Write hand-made rows (missing count/point columns are 0; ``pts_other`` makes up the score)."""
    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    cols: dict[str, list[Any]] = {}
    for r in rows:
        full: dict[str, Any] = {c: 0 for c in POINTS + COUNTS}
        full.update(alt_traveler=None, bot="greedy")
        full.update(r)
        full["pts_other"] = full["score"] - sum(full[p] for p in POINTS if p != "pts_other")
        for k, v in full.items():
            cols.setdefault(k, []).append(v)
    _frame(cols).write_parquet(out / "part-00000.parquet")
    (out / "manifest.json").write_text(
        json.dumps({"seed": seed, "config": {"n_players": rows[0]["n_players"]}})
    )
    return out
