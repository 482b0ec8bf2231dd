"""The ``duo`` commands: Parquet with provenance, resume, one-line user errors (exit 2, nothing written)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
from typer.testing import CliRunner

from sim.cli.app import app
from sim.games.tokaido import dataset
from tests.helpers.cli import ENV
from tests.helpers.paths import DATA_DIR

STAR = DATA_DIR / "duo_board_star.toml"
runner = CliRunner()


def test_run_writes_parquet_carrying_the_board_provenance(tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = runner.invoke(app, ["duo", "run", "--out", str(out), "--games", "300", "--chunk-size", "100", "-q"])
    assert res.exit_code == 0, res.output
    table = dataset.read_table(out)
    assert table.num_rows == 600 and set(table.column("verified").to_pylist()) == {False}
    assert "reconstruction-v0" in table.column("duo_board_version")[0].as_py()
    assert {
        "pts_pilgrim",
        "pts_merchant",
        "pts_artist",
        "first",
        "end_triggers",
        "hs_used",
        "wave_use_artist",
    } <= set(table.column_names)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["duo_board"]["verified"] is False and manifest["status"] == "complete"
    res = runner.invoke(
        app, ["duo", "run", "--out", str(out), "--games", "500", "--chunk-size", "100", "-q", "--resume"]
    )
    assert res.exit_code == 0 and len(list(out.glob("part-*.parquet"))) == 5
    assert pq.read_table(out / "part-000000000000-000000000100.parquet").num_rows == 200


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    for args in (
        ["--bots", "greedy,smart"],
        ["--board", str(tmp_path / "none.toml")],
        ["--set", "choices.merchant_path=fly"],
        ["--set", "merchant.nope=1"],
    ):
        out = tmp_path / "x"
        res = runner.invoke(app, ["duo", "run", "--out", str(out), "--games", "5", "-q", *args])
        assert res.exit_code == 2 and res.output.count("\n") == 1 and res.output.startswith("error: ")
        assert not out.exists()


def test_verify_and_replay_on_another_board() -> None:
    res = runner.invoke(
        app, ["duo", "verify", "--games", "200", "--board", str(STAR), "--bots", "random,greedy"]
    )
    assert res.exit_code == 0 and "200 of 200" in res.output and "test-star" in res.output
    res = runner.invoke(app, ["duo", "replay", "--game", "2"])
    assert res.exit_code == 0 and "referee: agrees" in res.output and "verified=false" in res.output


def test_the_duo_group_is_a_command_of_the_main_cli(tmp_path: Path) -> None:
    """``python -m sim.cli duo ...`` is the same command; a usage error is one line, exit 2."""
    res = subprocess.run(
        [sys.executable, "-m", "sim.cli", "duo", "--help"],
        env=ENV,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0 and all(c in res.stdout for c in ("run", "verify", "replay", "study"))
    res = subprocess.run(
        [sys.executable, "-m", "sim.cli", "duo", "run", "--out", "x", "--games", "many"],
        env=ENV,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "tokaido-sim duo run" in res.stderr
    assert not (tmp_path / "x").exists()
