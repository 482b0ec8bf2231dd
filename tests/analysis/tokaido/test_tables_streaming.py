"""The tables that stream (flat memory on large datasets) give the figures of the direct computation."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from analysis.load import load
from analysis.tokaido import tables
from tests.helpers.synthetic_datasets import make_dataset


@pytest.fixture
def lf(tmp_path: Path) -> pl.LazyFrame:
    make_dataset(tmp_path / "s", 120, 4, seed=3, hive=True)
    make_dataset(tmp_path / "s", 90, 4, seed=4, variants="gastronomy", hive=True)
    return load(tmp_path / "s")


def test_head_to_head_in_game_batches_equals_one_join(
    lf: pl.LazyFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    k = ["variants", "n_players"]
    rows = lf.filter(pl.col("traveler") != "none")
    whole = tables._pairs(rows, k).collect().sort([*k, "a", "b"])  # one self-join of every row
    for batch_rows in (7, 10**9):  # ranges of one game: over a hundred batches; then one batch
        monkeypatch.setattr(tables, "BATCH_ROWS", batch_rows)
        got = tables.head_to_head(lf).filter(pl.col("a") < pl.col("b")).sort([*k, "a", "b"])
        assert got.select(whole.columns).equals(whole)
    assert 0 < whole["games"].sum() == 6 * 210  # 4 players: 6 pairs a game


def test_score_summary_from_histograms_equals_polars_quantiles(lf: pl.LazyFrame) -> None:
    keys = ["variants", "n_players", "traveler"]
    got = tables.score_summary(lf).sort(keys)
    want = (
        lf.filter(pl.col("traveler") != "none")
        .group_by(keys)
        .agg(
            pl.len().alias("games"),
            pl.col("score").mean().alias("mean"),
            *[
                pl.col("score").cast(pl.Float64).quantile(q, interpolation="linear").alias(n)
                for n, q in tables.QUANTILES.items()
            ],
            pl.col("score").min().alias("min"),
            pl.col("score").max().alias("max"),
        )
        .sort(keys)
        .collect()
    )
    assert got.columns == want.columns
    for c in ["games", "min", "max", *tables.QUANTILES]:
        assert got[c].cast(pl.Float64).to_list() == pytest.approx(want[c].cast(pl.Float64).to_list()), c
    assert got["mean"].to_list() == pytest.approx(want["mean"].to_list())
