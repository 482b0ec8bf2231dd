"""Duo provenance that cannot lie: `verified` and `provenance` belong to the data files, every override is
named
in the manifest, the rows and the report header, and anything assumed reads "reconstruction"."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import tomli_w
from typer.testing import CliRunner

from sim.cli.app import app
from sim.games.duo.board import BoardError
from sim.games.duo.rules import default_board_path, default_rules_path, load_duo_rules
from sim.games.tokaido import dataset

runner = CliRunner()


@pytest.mark.parametrize(
    "item", ["verified=true", "board.verified=true", "provenance=published", "board.provenance=published"]
)
def test_the_verified_flag_and_provenance_cannot_be_set(item: str, tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = runner.invoke(app, ["duo", "run", "--out", str(out), "--games", "5", "-q", "--set", item])
    assert res.exit_code == 2 and res.output.count("\n") == 1 and res.output.startswith("error: "), res.output
    assert f"--set {item.split('=')[0]}:" in res.output and "cannot change it" in res.output
    assert not out.exists()


def test_a_patch_file_cannot_set_it_either(tmp_path: Path) -> None:
    patch = tmp_path / "patch.toml"
    patch.write_text("verified = true\n[merchant]\ntown_coins = 3\n")
    res = runner.invoke(app, ["duo", "verify", "--games", "5", "--set", f"@{patch}"])
    assert res.exit_code == 2 and res.output.count("\n") == 1 and "--set verified" in res.output


def test_every_override_is_named_in_the_manifest_rows_and_report(tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = runner.invoke(
        app,
        [
            "duo",
            "run",
            "--out",
            str(out),
            "--games",
            "60",
            "-q",
            "--set",
            "merchant.town_coins=6",
            "--set",
            "boutique.3.coins=5",
        ],
    )
    assert res.exit_code == 0, res.output
    board = json.loads((out / "manifest.json").read_text())["duo_board"]
    assert board["overrides"] == [["merchant.town_coins", 6], ["boutique.3.coins", 5]]
    assert board["status"] == "reconstruction" and board["verified"] is False
    label = dataset.read_table(out).column("duo_board_version")[0].as_py()
    assert (
        label.startswith("reconstruction: ")
        and "overrides merchant.town_coins=6, boutique.3.coins=5" in label
    )
    res = runner.invoke(app, ["duo", "report", str(out), "--out", str(tmp_path / "r")])
    assert res.exit_code == 0, res.output
    head = (tmp_path / "r" / "report.md").read_text().split("## Summary")[0]
    assert "Status: **reconstruction**" in head
    assert "Overrides: `merchant.town_coins=6`, `boutique.3.coins=5`" in head


def _verified_files(tmp_path: Path) -> tuple[Path, Path]:
    """The shipped board and numbers re-labelled as if someone had entered the published ones."""
    paths = []
    for src, name in ((default_board_path(), "board.toml"), (default_rules_path(), "rules.toml")):
        raw = tomllib.loads(src.read_text())
        raw["verified"], raw["provenance"] = True, "published-test"
        (tmp_path / name).write_text(tomli_w.dumps(raw))
        paths.append(tmp_path / name)
    return paths[0], paths[1]


def test_published_only_when_both_files_are_verified_and_nothing_is_overridden(tmp_path: Path) -> None:
    board, rules = _verified_files(tmp_path)
    r = load_duo_rules(board, rules)
    assert r.verified and r.status == "published" and r.provenance().startswith("published: ")
    r = load_duo_rules(board, rules, ["merchant.town_coins=3"])
    assert (
        not r.verified and r.provenance().startswith("reconstruction: ") and "town_coins=3" in r.provenance()
    )
    assert r.manifest()["overrides"] == [["merchant.town_coins", 3]]
    r = load_duo_rules(board)
    assert not r.verified and r.status == "reconstruction"  # the numbers are still the invented ones
    r = load_duo_rules(sets=["merchant.town_coins=3", "merchant.town_coins=4"])
    assert r.overrides == (("merchant.town_coins", 4),)  # the same key twice: the last one counts, once


def test_a_list_item_can_be_overridden_and_a_missing_one_is_one_line() -> None:
    r = load_duo_rules(sets=["boutique.0.coins=4"])
    assert r.numbers.boutiques[0] == ("A", 4)
    with pytest.raises(BoardError, match=r"--set boutique\.8\.coins: '8' is not a section"):
        load_duo_rules(sets=["boutique.8.coins=4"])
