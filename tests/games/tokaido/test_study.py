"""Studies: TOML grids played into one hive-partitioned dataset, with per-cell resume."""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from sim.dataset.parts import part_name
from sim.errors import UserError
from sim.games.tokaido import dataset
from sim.games.tokaido.study import load_study, parse_study, run_study
from tests.helpers.cli import ENV, SLOW_CLI
from tests.helpers.paths import ROOT

STUDIES = ROOT / "studies"
TINY = """
name = "tiny"
seed = 3
chunk_size = 25
players = [2, 3]
variants = ["none", "gastronomy+preparations"]
bots = ["greedy"]
travelers = ["draft"]
[games]
2 = 60
3 = 40
"""


def write(tmp_path: Path, text: str, name: str = "study.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def part_stats(root: Path) -> dict[Path, tuple[int, int]]:
    return {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in root.rglob("part-*.parquet")}


@pytest.mark.parametrize("path", sorted(STUDIES.glob("*.toml")), ids=lambda p: p.name)
def test_shipped_studies_are_valid(path: Path) -> None:
    study = load_study(path)
    assert study.cells and all(c.games > 0 for c in study.cells)


def test_default_study_gives_the_intervals_it_states() -> None:
    """studies/default.toml: +-0.5 pp on each base-game Traveler's win rate (random and drafted, the
    variants),
    +-1 pp with an expansion's Travelers (+-1.5 with Matsuri's 32), for Travelers dealt from the cell's
    pool."""
    study = load_study(STUDIES / "default.toml")
    assert sorted({c.n_players for c in study.cells}) == [2, 3, 4, 5]
    assert {c.expansions for c in study.cells} == {"none", "crossroads", "crossroads+matsuri", "promos"}
    assert {c.variants for c in study.cells} == {"none", "gastronomy", "preparations"}
    assert {c.bots for c in study.cells} == {"expert"}
    for cell, config in zip(study.cells, study.configs, strict=True):
        n, pool = cell.n_players, len(config.rules().pool_ids())
        p, appearances = 1 / n, cell.games * n / pool
        h = 0.005 if cell.expansions == "none" else 0.015 if "matsuri" in cell.expansions else 0.01
        assert 1.96 * math.sqrt(p * (1 - p) / appearances) <= h, cell


def test_study_runs_into_a_hive_dataset(tmp_path: Path) -> None:
    file = write(tmp_path, TINY)
    out = tmp_path / "out"
    manifest = run_study(file, out, quiet=True)
    assert manifest.status == "complete" and manifest.cells is not None and len(manifest.cells) == 4
    assert all(c.status == "complete" for c in manifest.cells)
    top = json.loads((out / "manifest.json").read_text())
    assert top["study_toml"] == TINY and top["seed"] == 3
    cell = out / "n_players=3/variants=gastronomy+preparations/expansions=none/bots=greedy/travelers=draft"
    cm = json.loads((cell / "manifest.json").read_text())
    assert (cm["seed"], cm["games"], cm["chunk_size"]) == (3, 40, 25)
    assert sorted(p.name for p in cell.glob("part-*.parquet")) == [part_name(0, 25), part_name(25, 40)]
    t = dataset.read_table(out)
    assert t.num_rows == 2 * (60 * 2 + 40 * 3)
    assert {"variants", "expansions", "bots", "travelers"} <= set(t.schema.names)
    assert t.schema.field("n_players").type == dataset.SCHEMA.field("n_players").type
    counts = t.group_by(["n_players", "variants"]).aggregate([("game", "count_distinct"), ("game", "count")])
    got = {
        (r["n_players"], r["variants"]): (r["game_count_distinct"], r["game_count"])
        for r in counts.to_pylist()
    }
    assert got == {
        (2, "none"): (60, 120),
        (2, "gastronomy+preparations"): (60, 120),
        (3, "none"): (40, 120),
        (3, "gastronomy+preparations"): (40, 120),
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("seed = 1\ngames = 10\nplayers = [2\n", "not valid TOML"),
        ("seed = 1\ngames = 10\ncolour = 'red'\n", "unknown key 'colour'"),
        ("seed = 1\ngames = 10\nvariants = ['nosuch']\n", "unknown variant"),
        ("seed = 1\ngames = 10\nplayers = [2, 6]\n", "--players must be 2 to 5"),
        ("seed = 1\nplayers = [2, 3]\n[games]\n2 = 10\n", "no entry for 3 players"),
        ("seed = 1\ngames = 0\n", "games"),
        ("seed = 1\ngames = 10\nchunk_size = 0\n", "--chunk-size"),
        ("games = 10\n", "'seed' must be a whole number"),
        ("seed = 1\ngames = 10\nplayers = [3]\ntravelers = ['kinko+chuubei']\n", "lists 2 Travelers for 3"),
        ("seed = 1\ngames = 10\nbots = ['greedy', 'greedy']\n", "twice"),
        ("seed = 1\ngames = 10\n[overrides]\n'nosuch.rule' = 1\n", "names no rule"),
    ],
)
def test_bad_study_is_refused_before_writing(tmp_path: Path, text: str, message: str) -> None:
    file = write(tmp_path, text)
    with pytest.raises(UserError, match=message):
        parse_study(text)
    with pytest.raises(UserError, match=message):
        run_study(file, tmp_path / "out", quiet=True)
    assert not (tmp_path / "out").exists()


def test_study_resume_checks_the_study(tmp_path: Path) -> None:
    file = write(tmp_path, TINY)
    out = tmp_path / "out"
    run_study(file, out, quiet=True)
    with pytest.raises(UserError, match="already holds a study"):
        run_study(file, out, quiet=True)
    before = part_stats(out)
    changed = write(tmp_path, TINY.replace("seed = 3", "seed = 4"), "changed.toml")
    with pytest.raises(UserError, match="'seed' differs"):
        run_study(changed, out, resume=True, quiet=True)
    grown = write(tmp_path, TINY.replace("3 = 40", "3 = 55"), "grown.toml")
    run_study(grown, out, resume=True, quiet=True)
    after = part_stats(out)
    assert {k: after[k] for k in before} == before
    assert len(after) == len(before) + 2
    assert dataset.read_table(out).num_rows == 2 * (60 * 2 + 55 * 3)


def test_killed_study_resumes_every_cell(tmp_path: Path) -> None:
    text = TINY.replace("[games]\n2 = 60\n3 = 40", "games = 400").replace(
        "chunk_size = 25", "chunk_size = 50"
    )
    file = write(tmp_path, text)
    out = tmp_path / "out"
    args = ["study", str(file), "--out", str(out), "--quiet"]
    proc = subprocess.Popen(
        [sys.executable, "-c", SLOW_CLI, *args],
        env=ENV,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while len(list(out.rglob("part-*.parquet"))) < 10:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = part_stats(out)
    assert 10 <= len(kept) < 32
    res = subprocess.run(
        [sys.executable, "-m", "sim.cli", *args, "--resume"],
        env=ENV,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    now = part_stats(out)
    assert {k: now[k] for k in kept} == kept and len(now) == 32
    assert not list(out.rglob(".*.tmp"))
    t = dataset.read_table(out)
    for key in {(r["n_players"], r["variants"]) for r in t.select(["n_players", "variants"]).to_pylist()}:
        mask = np.array(
            [
                (a, b) == key
                for a, b in zip(t["n_players"].to_pylist(), t["variants"].to_pylist(), strict=True)
            ]
        )
        games = t["game"].to_numpy()[mask]
        assert np.array_equal(np.sort(games), np.repeat(np.arange(400), key[0]))
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"
