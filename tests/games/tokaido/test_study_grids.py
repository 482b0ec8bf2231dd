"""Studies of several grids (``[[grid]]``) and a Traveler pool per cell (``pool``, the rule draft.pool)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.load import load
from sim.games.tokaido.study import parse_study, run_study

TEXT = """
name = "grids"
seed = 3
chunk_size = 40
bots = ["greedy"]
travelers = ["random"]

[[grid]]
about = "strength"
players = [3]
travelers = ["random", "draft"]
games = 60

[[grid]]
about = "variants"
players = [3]
variants = ["none", "gastronomy"]
games = 60

[[grid]]
about = "expansions"
players = [3]
expansions = ["crossroads"]
pool = ["all", "base"]
games = { 3 = 50 }
"""


def test_the_cells_are_those_of_every_grid_once() -> None:
    study = parse_study(TEXT)
    paths = [c.path() for c in study.cells]
    assert len(paths) == len(set(paths)) == 5  # 3p random none is in two grids: played once
    assert "n_players=3/variants=none/expansions=none/bots=greedy/travelers=random/pool=all" in paths
    xr = [(c, cfg) for c, cfg in zip(study.cells, study.configs, strict=True) if c.expansions == "crossroads"]
    assert [(c.pool, c.games) for c, _ in xr] == [("all", 50), ("base", 50)]
    assert dict(xr[1][1].overrides) == {"draft.pool": "base"} and not xr[0][1].overrides
    assert xr[1][1].rules().pool_ids() == list(range(10))


def test_a_grid_study_plays_into_one_dataset_with_its_pool_column(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(TEXT)
    manifest = run_study(path, tmp_path / "out", quiet=True)
    assert manifest.cells is not None and len(manifest.cells) == 5 and manifest.status == "complete"
    lf = load(tmp_path / "out")
    df = lf.group_by("expansions", "pool").agg(pl.col("traveler").unique().sort()).collect()
    base_pool = df.filter((pl.col("expansions") == "crossroads") & (pl.col("pool") == "base"))["traveler"][0]
    assert len(base_pool) <= 10 and not {"daigoro", "gotozaemon", "kita"} & set(base_pool.to_list())
