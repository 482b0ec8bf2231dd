"""compare refuses what cannot be compared and says what it cannot test.

Each case runs ``tokaido-sim compare`` (exit code, message, nothing written) or
``analysis.tokaido.compare.compare`` on synthetic datasets (tests/helpers/synthetic_datasets.py).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from analysis.tokaido.compare import compare
from tests.helpers.cli import call
from tests.helpers.paths import ROOT
from tests.helpers.synthetic_datasets import make_dataset


def test_different_player_counts_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    four = make_dataset(tmp_path / "four", 200, 4, seed=1)
    three = make_dataset(tmp_path / "three", 200, 3, seed=1)
    code, out, err = call(["compare", str(four), str(three), "--out", str(tmp_path / "cmp")], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, (code, out, err)
    assert "no player count in common" in err and "(4 players)" in err and "(3 players)" in err
    assert not (tmp_path / "cmp").exists()


def test_shared_player_counts_are_compared_and_the_rest_named(tmp_path: Path) -> None:
    for n in (3, 4):
        make_dataset(tmp_path / "base" / f"n_players={n}", 200, n, seed=1)
    shutil.copy(tmp_path / "base" / "n_players=3" / "manifest.json", tmp_path / "base" / "manifest.json")
    other = make_dataset(tmp_path / "other", 200, 4, seed=1, variants="gastronomy")
    md, csv, _ = compare(tmp_path / "base", other, tmp_path / "cmp")
    assert set(pl.read_csv(csv)["n_players"]) == {4}
    assert (
        "compared on 4 players, the player counts of both (3 players only in base: left out)"
        in md.read_text()
    )


def _without(src: Path, dst: Path, traveler: str) -> Path:
    """A copy of the dataset in which ``traveler`` never plays (another Traveler takes the seat)."""
    shutil.copytree(src, dst)
    part = dst / "part-00000.parquet"
    df = pl.read_parquet(part)
    df.with_columns(pl.col("traveler").replace(traveler, "hiroshige")).write_parquet(part)
    return dst


def test_a_figure_on_one_side_only_is_said_not_flagged(tmp_path: Path) -> None:
    base = make_dataset(tmp_path / "base", 400, 4, seed=2)
    other = _without(base, tmp_path / "other", "kinko")  # like kinko.coins=6: the draft never keeps Kinko
    md, csv, _ = compare(base, other, tmp_path / "cmp")
    df = pl.read_csv(csv)
    kinko = df.filter(pl.col("group") == "kinko")
    assert kinko.height == 2 and kinko["only"].to_list() == ["base", "base"]
    assert not kinko["significant"].any() and kinko["p_holm"].is_nan().all()
    text = md.read_text()
    assert "In one dataset only (not tested): 2 figures" in text
    assert "win rate of kinko, 4 players: only in base" in text
    assert "| kinko |" in text and "only in base |" in text
    assert "999999" not in text and "as many unpaired games" not in text  # the other rows did not change


def test_a_dataset_against_itself(tmp_path: Path) -> None:
    base = make_dataset(tmp_path / "base", 300, 4, seed=3)
    md, csv, _ = compare(base, base, tmp_path / "cmp")
    text = md.read_text()
    assert "999999" not in text and "as many unpaired games" not in text
    assert "Every paired difference is 0" in text
    assert "Significant effects (Holm, family-wise error 5%, 29 figures): none." in text


def test_compare_names_both_configurations(tmp_path: Path) -> None:
    base = make_dataset(tmp_path / "base", 300, 4, seed=3)
    other = make_dataset(tmp_path / "other", 300, 4, seed=3, variants="preparations")
    head = compare(base, other, tmp_path / "cmp")[0].read_text().split("## Summary")[0]
    assert f"- Base: `{base}`: `4 players`, bots greedy, 300 games" in head
    assert f"- Other: `{other}`: `4 players`, bots greedy, 300 games" in head


def test_plots_and_compare_do_not_import_each_other() -> None:
    code = (
        "import sys, analysis.tokaido.plots, analysis.tokaido.effects\n"
        "assert 'analysis.tokaido.compare' not in sys.modules, 'plots imports compare'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    src = (ROOT / "analysis" / "tokaido" / "effects.py").read_text()
    imports = [line for line in src.splitlines() if line.lstrip().startswith(("import ", "from "))]
    assert not [line for line in imports if "plots" in line or "compare" in line]
