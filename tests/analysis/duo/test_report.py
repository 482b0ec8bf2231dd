"""``duo report`` / ``duo plot``: figures recomputed from the rows, provenance on every header, CSV and
caption."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import analysis.duo.plots as duo_plots
from analysis import stats
from analysis.duo import report as duo
from kernels.duo.enums import CHAR_NAMES, TRIGGER_NAMES
from sim.cli.app import app
from sim.games.duo.game import DuoGame
from sim.games.duo.rules import load_duo_rules
from sim.run.runner import run
from tests.helpers.paths import DATA_DIR
from tests.helpers.synthetic_datasets import make_dataset

STAR = DATA_DIR / "duo_board_star.toml"
runner = CliRunner()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("duo")
    out = {"greedy": base / "greedy", "mixed": base / "mixed"}
    run(DuoGame(load_duo_rules(), ("greedy", "greedy")), 2000, 7, out["greedy"], progress=False)
    run(DuoGame(load_duo_rules(board=STAR), ("random", "greedy")), 600, 3, out["mixed"], progress=False)
    return out


def test_bit_names_are_the_kernels() -> None:
    """analysis may not import kernels.duo, so it restates the bit order; this holds it to the kernels'."""
    assert duo.TRIGGERS == TRIGGER_NAMES and duo.CHARACTERS == CHAR_NAMES


def test_report_figures_match_the_rows(runs: dict[str, Path], tmp_path: Path) -> None:
    res = runner.invoke(app, ["duo", "report", str(runs["greedy"]), "--out", str(tmp_path / "r")])
    assert res.exit_code == 0, res.output
    text = (tmp_path / "r" / "report.md").read_text()
    head = text.split("## Summary")[0]
    assert "reconstruction-v0" in head and "verified=false" in head and "Not the published board" in head
    rows = pl.read_parquet(runs["greedy"] / "*.parquet")
    first = rows.filter(pl.col("first") == 1)
    fp = pl.read_csv(tmp_path / "r" / "first_picker.csv")
    assert fp["bot"].to_list() == ["all"]  # a mirror match has no per-bot rows
    assert fp["games_first"][0] == 2000 and fp["win_first"][0] == pytest.approx(first["win"].mean())
    lo, hi = stats.wilson_interval(first["win"].sum(), 2000)
    assert (fp["win_first_lo"][0], fp["win_first_hi"][0]) == pytest.approx((float(lo), float(hi)))
    trig = pl.read_csv(tmp_path / "r" / "triggers.csv")
    bits = rows.filter(pl.col("player") == 0)["end_triggers"].to_numpy()
    for k, name in enumerate(TRIGGER_NAMES):
        if name == "rank":  # only a solo game has the Automa's Rank tracks
            assert trig.filter(pl.col("trigger") == name).is_empty()
            continue
        assert trig.filter(pl.col("trigger") == name)["fired"][0] == int(((bits >> k) & 1).sum())
    pts = pl.read_csv(tmp_path / "r" / "points.csv").filter(pl.col("outcome") == "all")
    for c in CHAR_NAMES:
        assert pts[f"mean_pts_{c}"][0] == pytest.approx(rows[f"pts_{c}"].mean())
    tw = pl.read_csv(tmp_path / "r" / "token_waves.csv")
    used = tw.filter(pl.col("item") == "Hot Spring token used")
    assert used["with_n"][0] == int((rows["hs_used"] > 0).sum())
    held = tw.filter(pl.col("item") == "artist wave tile held at the end")
    assert held["with_n"][0] == int(((rows["waves_held"].to_numpy() >> 2) & 1).sum())
    for name in duo.CSV_FILES.values():
        csv = pl.read_csv(tmp_path / "r" / name)
        assert set(csv["board"]) == {duo.load_duo(runs["greedy"]).provenance} and set(csv["verified"]) == {
            False
        }


def test_report_per_bot_on_another_board(runs: dict[str, Path], tmp_path: Path) -> None:
    res = runner.invoke(app, ["duo", "report", str(runs["mixed"]), "--out", str(tmp_path / "r")])
    assert res.exit_code == 0, res.output
    text = (tmp_path / "r" / "report.md").read_text()
    assert "test-star" in text.split("## Summary")[0] and "### random vs greedy" in text
    fp = pl.read_csv(tmp_path / "r" / "first_picker.csv")
    assert fp["bot"].to_list() == ["all", "greedy", "random"]
    assert fp.filter(pl.col("bot") == "all")["diff"][0] == pytest.approx(2 * fp["win_first"][0] - 1)
    pts = pl.read_csv(tmp_path / "r" / "points.csv").filter(pl.col("outcome") == "all").sort("bot")
    assert (
        pts["games"].to_list() == [600, 600] and pts["win_rate"][0] > pts["win_rate"][1]
    )  # greedy beats random


def test_every_plot_is_captioned_with_the_board(
    runs: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    captions: list[str] = []
    save = duo_plots._save

    def spy(fig, path):  # type: ignore[no-untyped-def]
        captions.append(" ".join(t.get_text() for t in fig.texts))
        return save(fig, path)

    monkeypatch.setattr(duo_plots, "_save", spy)
    res = runner.invoke(app, ["duo", "plot", str(runs["mixed"]), "--out", str(tmp_path / "p")])
    assert res.exit_code == 0, res.output
    pngs = sorted(p.name for p in (tmp_path / "p").glob("*.png"))
    assert pngs == sorted(duo_plots.PLOT_FILES) and all(
        (tmp_path / "p" / n).stat().st_size > 10_000 for n in pngs
    )
    assert len(captions) == len(pngs)
    assert all(
        "test-star" in c and "verified=false" in c and "NOT the published board" in c for c in captions
    )


def test_wrong_dataset_is_one_line_and_exit_2(runs: dict[str, Path], tmp_path: Path) -> None:
    tokaido = make_dataset(tmp_path / "tokaido", 50, 3, 1)
    cases = [
        (["duo", "report", str(tokaido)], "tokaido-sim report"),
        (["duo", "plot", str(tmp_path / "nothing")], "not a directory"),
        (["report", str(runs["greedy"]), "--out", str(tmp_path / "x")], "tokaido-sim duo report"),
    ]
    for args, hint in cases:
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and res.output.count("\n") == 1 and hint in res.output, res.output
    assert not (tmp_path / "x").exists() and not (tmp_path / "tokaido-report").exists()


def test_the_association_test_can_flag(runs: dict[str, Path]) -> None:
    """A column that decides the game is flagged; the Holm family is the whole table."""
    ds = duo.load_duo(runs["greedy"])
    frame = ds.frame.with_columns(hs_used=(pl.col("win") == 1).cast(pl.Int16))
    tw = duo.token_waves_table(frame)
    used = tw.filter(pl.col("item") == "Hot Spring token used").row(0, named=True)
    assert used["verdict"] == "goes with winning" and used["diff"] == pytest.approx(1.0, abs=0.02)
    assert np.all(tw["p_holm"].to_numpy() >= tw["p_value"].to_numpy() - 1e-12)
