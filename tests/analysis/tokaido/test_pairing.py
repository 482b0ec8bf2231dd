"""``compare`` pairs rows only where the deal is the same (analysis/tokaido/effects.py): the pairing rate
is measured on the deals, said in one line, and the seats' spread leads the summary."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analysis.load import load, load_dataset
from analysis.tokaido.compare import compare
from analysis.tokaido.effects import PAIRED_SHARE, frames_pairing, pairing, study_effects
from tests.helpers.synthetic_datasets import TRAVELERS, make_dataset


def _redeal(path: Path, share: float, seed: int = 0) -> Path:
    """Give another Traveler to every player of ``share`` of the games (as another pool would)."""
    part = path / "part-00000.parquet"
    df = pl.read_parquet(part)
    games = df["game"].unique().sort().to_numpy()
    moved = set(
        np.random.default_rng(seed).choice(games, int(round(share * len(games))), replace=False).tolist()
    )
    shift = {t: TRAVELERS[(i + 1) % len(TRAVELERS)] for i, t in enumerate(TRAVELERS)}
    df = df.with_columns(
        pl.when(pl.col("game").is_in(list(moved)))
        .then(pl.col("traveler").replace(shift))
        .otherwise(pl.col("traveler"))
        .alias("traveler")
    )
    df.write_parquet(part)
    return path


def test_the_same_deals_pair_and_say_so(tmp_path: Path) -> None:
    base = make_dataset(tmp_path / "a", 400, 4, seed=3)
    other = make_dataset(tmp_path / "b", 400, 4, seed=3, variants="gastronomy")
    p = pairing(load_dataset(base), load_dataset(other))
    assert p.paired and p.rate == 1.0 and (p.games, p.same) == (400, 400)
    assert p.why.startswith(
        "paired on (game, player): the same deal (Travelers and seats) in 100.0% of the 400 games"
    )


def test_other_deals_are_compared_unpaired_with_the_rate_said(tmp_path: Path) -> None:
    """Another Traveler pool deals other Travelers in game i: no row pairs, whatever the seed says."""
    base = make_dataset(tmp_path / "a", 400, 4, seed=3)
    other = _redeal(make_dataset(tmp_path / "b", 400, 4, seed=3, expansions="crossroads"), 1.0)
    paths = compare(base, other, tmp_path / "cmp")
    text = paths[0].read_text()
    line = next(x for x in text.splitlines() if x.startswith("- Pairing:"))
    assert "unpaired: the same deal in only 0.0% of the 400 games" in line and "pairing rate" in line
    assert "diff_paired" not in pl.read_csv(paths[1]).columns


def test_a_few_other_deals_are_left_out_of_the_paired_figures(tmp_path: Path) -> None:
    base = make_dataset(tmp_path / "a", 1000, 3, seed=5)
    other = _redeal(make_dataset(tmp_path / "b", 1000, 3, seed=5, variants="preparations"), 0.005)
    p = pairing(load_dataset(base), load_dataset(other))
    assert p.paired and p.same == 995 and p.rate >= PAIRED_SHARE
    assert "the other 5 games are left out of the paired figures" in p.why
    eff = compare(base, other, tmp_path / "cmp")[1]
    rows = pl.read_csv(eff).filter((pl.col("kind") == "all") & (pl.col("figure") == "mean score"))
    assert rows["n_paired"].to_list() == [995 * 3]


@pytest.mark.parametrize("share", [0.02, 0.5])
def test_below_the_threshold_nothing_pairs(tmp_path: Path, share: float) -> None:
    base = load(make_dataset(tmp_path / "a", 500, 4, seed=9))
    other = load(_redeal(make_dataset(tmp_path / "b", 500, 4, seed=9), share))
    p = frames_pairing(base, other)
    assert not p.paired and p.rate == pytest.approx(1 - share)


def test_more_games_in_one_run_pair_on_the_games_both_hold(tmp_path: Path) -> None:
    base = make_dataset(tmp_path / "a", 600, 4, seed=2)
    other = make_dataset(tmp_path / "b", 600, 4, seed=2, variants="gastronomy")
    df = pl.read_parquet(other / "part-00000.parquet").filter(pl.col("game") < 400)
    df.write_parquet(other / "part-00000.parquet")
    p = frames_pairing(load(base), load(other))
    assert p.paired and (p.games, p.same) == (400, 400) and "of 600" in p.why


def test_a_studys_effects_pair_only_its_cells_with_the_same_deals(tmp_path: Path) -> None:
    study = tmp_path / "s"
    for v in ("none", "gastronomy", "preparations"):
        make_dataset(study, 300, 4, seed=6, variants=v, hive=True)
    _redeal(study / "n_players=4" / "variants=preparations", 1.0)
    eff = study_effects(load(study), "variants", "none")
    rates = dict(eff.group_by("change").agg(pl.col("pairing_rate").first()).iter_rows())
    assert rates == {"gastronomy": 1.0, "preparations": 0.0}
    prep = eff.filter(pl.col("change") == "preparations")
    assert prep["diff_paired"].is_null().all()
    assert eff.filter(pl.col("change") == "gastronomy")["diff_paired"].is_not_null().all()


def test_the_seat_spread_leads_the_summary(tmp_path: Path) -> None:
    base = make_dataset(tmp_path / "a", 2000, 4, seed=1)
    other = make_dataset(tmp_path / "b", 2000, 4, seed=1, variants="preparations", effect={"seat:0": 6.0})
    text = compare(base, other, tmp_path / "cmp")[0].read_text()
    summary = text.split("## Summary")[1].split("## Figures")[0]
    lines = summary.strip().splitlines()
    assert lines[0].startswith("- Pairing: paired")
    seat = lines[1]
    assert seat.startswith("- Seats, 4 players (fair 25.0%; seat = order of leaving Kyoto): 1st ")
    assert "Seat spread (best − worst seat) " in seat and "Fair now? no: 1st stronger, 2nd weaker" in seat
