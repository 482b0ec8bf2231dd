"""`duo run|verify|replay --solo`: a bot against the Automa, with her provenance on every output."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from sim.cli.app import app
from sim.games.tokaido import dataset

runner = CliRunner()


def test_solo_run_report_and_replay(tmp_path: Path) -> None:
    out = tmp_path / "solo"
    res = runner.invoke(
        app,
        [
            "duo",
            "run",
            "--out",
            str(out),
            "--solo",
            "--bots",
            "greedy",
            "--games",
            "400",
            "-q",
            "--set",
            "automa.die.choice=highest",
        ],
    )
    assert res.exit_code == 0, res.output
    table = dataset.read_table(out)
    assert set(table.column("bot").to_pylist()) == {"greedy", "automa"}
    m = json.loads((out / "manifest.json").read_text())
    assert m["config"]["bots"] == ["greedy", "automa"] and m["duo_board"]["solo"] is True
    assert m["duo_board"]["overrides"] == [["automa.die.choice", "highest"]]
    assert "solo Automa automa-reconstruction-v0 (verified=false)" in m["duo_board"]["provenance"]
    res = runner.invoke(app, ["duo", "report", str(out), "--out", str(tmp_path / "r")])
    assert res.exit_code == 0, res.output
    text = (tmp_path / "r" / "report.md").read_text()
    assert "## Solo: against the Automa" in text and "Status: **reconstruction**" in text
    rows = pl.read_parquet(out / "*.parquet")
    human = rows.filter(pl.col("bot") == "greedy")
    so = pl.read_csv(tmp_path / "r" / "solo.csv")
    assert so["plan"][0] == "all" and so["games"][0] == 400
    assert so["win_rate"][0] == pytest.approx(human["win"].mean())
    assert so["games"][1:].sum() == 400  # every game has one plan
    res = runner.invoke(app, ["duo", "verify", "--solo", "--bots", "random", "--games", "200"])
    assert res.exit_code == 0 and "200 of 200" in res.output and "solo Automa" in res.output
    res = runner.invoke(app, ["duo", "replay", "--solo", "--game", "1"])
    assert res.exit_code == 0 and "Automa's" in res.output and "referee: agrees" in res.output


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["--bots", "greedy,automa"], "play against her with --solo"),
        (["--solo", "--bots", "greedy,search"], "with --solo give the one bot"),
        (["--solo", "--bots", "automa"], "with --solo give the one bot"),
        (["--set", "automa.die.choice=highest"], "only a solo game has an Automa"),
        (["--automa", "a.toml"], "add --solo"),
        (["--solo", "--set", "automa.verified=true"], "cannot change it"),
        (["--solo", "--set", "automa.merchant.target=sea"], "merchant.target = 'sea'"),
    ],
)
def test_solo_bad_input_is_one_line_and_exit_2(args: list[str], hint: str, tmp_path: Path) -> None:
    out = tmp_path / "x"
    res = runner.invoke(app, ["duo", "run", "--out", str(out), "--games", "5", "-q", *args])
    assert res.exit_code == 2 and res.output.count("\n") == 1 and hint in res.output, res.output
    assert not out.exists()
