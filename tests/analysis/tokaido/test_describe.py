"""analysis.tokaido.describe: what a report or plot title says about its data."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.load import conditions, load, load_dataset
from analysis.tokaido.describe import About, about_frame
from sim.dataset.manifest import Manifest
from tests.helpers.synthetic_datasets import make_dataset


def test_a_run_manifest_gives_config_intended_games_and_status(tmp_path: Path) -> None:
    lf = load(make_dataset(tmp_path / "d", 120, 3, seed=1))
    a = about_frame(lf, Manifest(spec="players=3,bots=greedy", games=500, status="interrupted"))
    assert a.title() == "players=3,bots=greedy · bots greedy · 120 of 500 intended games · run interrupted"
    assert a.incomplete and "**Incomplete run** (status: interrupted)" in a.warning()
    done = about_frame(
        lf, Manifest.from_json({"config": {"spec": "players=3"}, "games": 120, "status": "complete"})
    )
    assert not done.incomplete and done.warning() == "" and done.title().endswith("· 120 games")


def test_without_a_manifest_the_data_speak(tmp_path: Path) -> None:
    a = about_frame(load(make_dataset(tmp_path / "d", 50, 4, seed=1)))
    assert a == About("4 players", ["greedy"], 50, None, None)


def test_a_run_concatenated_with_a_study_partition(tmp_path: Path) -> None:
    for v in ("none", "gastronomy"):
        make_dataset(tmp_path / "s", 40, 4, seed=2, variants=v, hive=True)
    study = load(tmp_path / "s").filter(pl.col("variants") == "none")
    run = load_dataset(make_dataset(tmp_path / "r", 30, 4, seed=2)).frame.with_columns(
        pl.lit("prep").alias("variants")
    )
    both = pl.concat(
        [study.with_columns(pl.lit("x").alias("bots")), run], how="diagonal_relaxed"
    )  # run: bots null
    assert conditions(both) == ["variants"]  # a missing value is not another configuration
    assert about_frame(both).configuration == "4 players, variants none, prep"
