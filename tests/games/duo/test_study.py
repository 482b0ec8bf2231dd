"""The Duo unknowns (sim/games/duo/data/unknowns.toml), the sampled worlds and the verdicts of `duo study`."""

from __future__ import annotations

import fnmatch
import tomllib
from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from sim.cli.app import app
from sim.games.duo.board_gen import TYPE_COUNTS
from sim.games.duo.rules import default_rules_path, load_duo_rules
from sim.games.duo.study import CONCLUSIONS, StudyResult
from sim.games.duo.study_report import dependence, verdicts
from sim.games.duo.unknowns import apply_numbers, load_unknowns, ring_counts, sample_worlds, world_rules
from tests.helpers.paths import ROOT

runner = CliRunner()


def _leaves(node: object, prefix: str = "") -> list[str]:
    if isinstance(node, dict):
        return [x for k, v in node.items() for x in _leaves(v, f"{prefix}{k}.")]
    if isinstance(node, list) and node and isinstance(node[0], dict):
        return [x for i, v in enumerate(node) for x in _leaves(v, f"{prefix}{i}.")]
    return [prefix[:-1]]


def _covers(pattern: str, leaf: str) -> bool:
    return leaf == pattern or leaf.startswith(pattern + ".") or fnmatch.fnmatch(leaf, pattern)


def test_every_number_of_rules_toml_is_known_or_unknown_exactly_once() -> None:
    """Nothing is silently assumed: each field of rules.toml (outside the D-choices) is a seed value or a
    sampled
    unknown, and the seed values are the shipped ones."""
    u = load_unknowns()
    raw = tomllib.loads(default_rules_path().read_text())
    leaves = [x for x in _leaves(raw) if not x.startswith("choices.") and x not in ("provenance", "verified")]
    for leaf in leaves:
        owners = [k.key for k in u.known if _covers(k.key, leaf)]
        owners += [d.key for d in u.unknown for pat in d.covers if _covers(pat, leaf)]
        assert len(owners) == 1, f"rules.toml field {leaf} is covered by {owners or 'nothing'}"
    for k in u.known:
        sec, field = k.key.split(".")
        assert raw[sec][field] == k.value, f"{k.key} must be the seed's {k.value} ({k.source})"


def test_the_shipped_value_of_every_unknown_is_the_shipped_file() -> None:
    u = load_unknowns()
    raw = tomllib.loads(default_rules_path().read_text())
    for d in u.unknown:
        if d.on_board:
            assert ring_counts({d.key: d.shipped}) == TYPE_COUNTS, d.key
        else:
            assert apply_numbers(raw, {d.key: d.shipped}) == raw, (
                f"{d.key}: shipped {d.shipped} is not rules.toml's"
            )


def test_every_plausible_value_makes_valid_rules() -> None:
    u = load_unknowns()
    base = load_duo_rules()
    for d in u.unknown:
        for v in d.options:
            world_rules(base, {d.key: v}, 3, 0, "numbers" if not d.on_board else "both")


def test_the_latin_hypercube_covers_every_range_evenly_and_is_seeded() -> None:
    """60 worlds: every option of every unknown (2 to 6 of them) in exactly 60 / options worlds."""
    u = load_unknowns()
    worlds = sample_worlds(u, 60, 5)
    for d in u.unknown:
        counts = Counter(str(w[d.key]) for w in worlds)
        assert sorted(counts.values()) == [60 // len(d.options)] * len(d.options), d.key
    assert sample_worlds(u, 60, 5) == worlds and sample_worlds(u, 60, 6) != worlds
    assert set(sample_worlds(u, 10, 5, "numbers")[0]) == {d.key for d in u.unknown if not d.on_board}
    assert set(sample_worlds(u, 10, 5, "maps")[0]) == {d.key for d in u.unknown if d.on_board}


def test_a_world_is_its_sampled_values_on_its_own_map() -> None:
    u = load_unknowns()
    base = load_duo_rules(sets=["choices.merchant_path=trail"])
    v = sample_worlds(u, 10, 1)[4]
    r = world_rules(base, v, 1, 4)
    assert [r.board.ring.count(t) for t in "GSH"] == [
        v["board.gardens"],
        v["board.seashores"],
        v["board.hot_springs"],
    ]
    assert r.numbers.dice[0] == tuple(v["dice.pilgrim"]) and r.numbers.town_coins == v["merchant.town_coins"]
    assert {c for _, c in r.numbers.boutiques} == set(v["boutique.coins"])
    assert len(r.numbers.bag) == v["merchant.ware_types"] and set(r.numbers.bag.values()) == {
        v["merchant.bag"]
    }
    assert r.numbers.merchant_path == "trail" and r.overrides == base.overrides  # the base's choices stay
    assert not r.verified and r.provenance().startswith("reconstruction: board generated-1-4")
    assert world_rules(base, v, 1, 4).board == r.board  # the map depends on (seed, world) only
    fixed = world_rules(base, {k: x for k, x in v.items() if not k.startswith("board.")}, 1, 4, "numbers")
    assert fixed.board.raw == base.board.raw


def _fake(effects: dict[str, np.ndarray], x: np.ndarray) -> StudyResult:
    n = len(x)
    cols: dict[str, object] = {"world": np.arange(n), "u:merchant.town_coins": x}
    for c in CONCLUSIONS:
        e = effects.get(c.effect, np.full(n, c.sign * 0.1))
        cols[c.effect], cols[f"{c.effect}:se"] = e, np.full(n, 0.01)
    settings = {"worlds": n, "games": 100, "vary": "numbers", "seed": 0}
    return StudyResult(
        pl.DataFrame(cols), {c.effect: (0.0, 0.0) for c in CONCLUSIONS}, [], load_unknowns(), settings
    )


def test_verdicts_robust_depends_unsupported_contradicted() -> None:
    """The verdict can fail: a split explained by an unknown names it; an unexplained split is unsupported."""
    rng = np.random.default_rng(0)
    x = np.repeat([1.0, 2.0, 3.0, 4.0], 25)
    res = _fake(
        {
            "first_picker_win_minus_half": -(x - 2.5),  # holds (< 0) where town coins are high
            "gift_share_minus_best_other": rng.choice([-0.1, 0.1], 100),  # a coin toss per world
            "gold_share_minus_5pct": np.full(100, 0.2),  # the opposite everywhere
            "hot_spring_user_win_minus_non_user": np.r_[np.full(96, 0.1), np.full(4, -0.1)],
        },
        x,
    )
    v = {r["conclusion"]: r for r in verdicts(res).iter_rows(named=True)}
    assert v["hot_spring_user_win_minus_non_user"]["verdict"] == "robust"
    assert v["hot_spring_user_win_minus_non_user"]["holds"] == 96
    assert v["first_picker_win_minus_half"]["verdict"] == "depends on"
    assert v["first_picker_win_minus_half"]["depends_on"].startswith("merchant.town_coins (-")
    assert v["gift_share_minus_best_other"]["verdict"] == "unsupported"
    assert v["gold_share_minus_5pct"]["verdict"] == "contradicted"
    d = dependence(res).filter(pl.col("conclusion") == "first_picker_win_minus_half").row(0, named=True)
    assert (d["holds_low"], d["worlds_low"], d["holds_high"], d["worlds_high"]) == (0, 25, 25, 25)


def test_the_study_command_writes_its_files_and_says_reconstruction(tmp_path: Path) -> None:
    out = tmp_path / "s"
    res = runner.invoke(app, ["duo", "study", "--out", str(out), "-k", "10", "-g", "60", "-q"])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["study.md", "worlds.csv", "verdicts.csv", "dependence.csv", "study.json"]
    )
    text = (out / "study.md").read_text()
    assert "**Status: reconstruction.**" in text and "| `merchant.town_coins` | 2 | 1..4 |" in text
    worlds = pl.read_csv(out / "worlds.csv")
    assert (
        worlds.height == 10
        and "u:dice.pilgrim" in worlds.columns
        and "m:board.mountain_values" in worlds.columns
    )
    v = pl.read_csv(out / "verdicts.csv")
    assert v["conclusion"].to_list() == [c.effect for c in CONCLUSIONS]
    assert set(v["verdict"]) <= {"robust", "depends on", "unsupported", "contradicted"}


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["-k", "5"], "at least 10"),
        (["--set", "dice.pilgrim=1,1,1,1,1,1"], "every world samples dice.pilgrim"),
        (["--set", "board.start.pilgrim=1,2"], "every world samples the map"),
        (["--board", "x.toml"], "--board is the fixed map of --vary numbers"),
        (["--vary", "everything"], "--vary 'everything'"),
        (["--set", "verified=true", "--vary", "maps"], "cannot change it"),
    ],
)
def test_study_refuses_what_would_change_nothing(args: list[str], hint: str, tmp_path: Path) -> None:
    out = tmp_path / "s"
    res = runner.invoke(app, ["duo", "study", "--out", str(out), "-g", "20", *args])
    assert res.exit_code == 2 and res.output.count("\n") == 1 and hint in res.output, res.output
    assert not out.exists()


def test_the_worlds_are_valid_rules_for_the_kernels() -> None:
    """A sampled world plays and its games pass the independent referee."""
    from sim.games.duo.engine import play_duo_games
    from sim.games.duo.referee.game import referee_game, rows_from_records

    u = load_unknowns()
    for i, v in enumerate(sample_worlds(u, 10, 9)[:3]):
        r = world_rules(load_duo_rules(), v, 9, i)
        batch = play_duo_games(r, 2, 0, 60, ("greedy", "random"), log=True)
        for g in range(60):
            assert referee_game(r, batch.game_events(g), rows_from_records(batch.game_records(g))).ok


def test_the_docs_table_names_every_unknown() -> None:
    """docs/duo.md says what is from the seed and what is assumed in one table: every sampled unknown is in
    it."""
    docs = (ROOT / "docs" / "duo.md").read_text()
    table = docs.split("## What is from the seed and what is assumed")[1].split("\n## ")[0]
    for d in load_unknowns().unknown:
        assert f"`{d.key}`" in table, d.key
    assert "implements the rules exactly" not in docs
