"""The runner and the dataset writer: schema, manifest, chunking, resume, atomic parts."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kernels.tokaido.core.records import RESULT_DTYPE
from sim.dataset.manifest import MANIFEST
from sim.dataset.parts import STATISTICS, part_name, write_table
from sim.errors import UserError
from sim.games.tokaido import dataset, engine
from sim.games.tokaido.game import TokaidoGame
from sim.games.tokaido.rules.config import GameConfig
from sim.run import parts, runner
from sim.run.game import Batch
from tests.helpers.parts import part_stats

STUB = "STUB" in (engine.__doc__ or "")


def fake_play_games(config, rules, seed, start, count, log=False, threads=None, weights=None, **kw):
    """A per-game deterministic stand-in for the engine (any chunking gives the same games)."""
    n = config.n_players
    rec = np.zeros(count * n, RESULT_DTYPE)
    g = np.repeat(np.arange(start, start + count, dtype=np.int64), n)
    p = np.tile(np.arange(n), count)
    h = (g * 1_000_003 + seed * 7919 + p * 31) % 2_147_483_647
    rec["game"], rec["player"], rec["seat"] = g, p, (p + g) % n
    rec["traveler"] = (h + p) % len(rules.travelers)
    rec["alt_traveler"] = np.where(h % 3 == 0, -1, (h + p + 1) % len(rules.travelers))
    rec["bot"] = 1
    rec["score"] = 30 + h % 60
    rec["rank"] = 1 + p
    rec["win_k"] = 1
    for f in dataset.PTS_COLUMNS + dataset.COUNT_COLUMNS:
        rec[f] = h % 7
    return Batch(rec, None, None, n)


@pytest.fixture
def fake_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "play_games", fake_play_games)


def sorted_table(root: Path) -> pa.Table:
    t = dataset.read_table(root)
    return t.sort_by([("game", "ascending"), ("player", "ascending")])


def test_run_writes_schema_rows_and_manifest(tmp_path: Path) -> None:
    cfg = GameConfig(n_players=3)
    out = tmp_path / "run"
    s = runner.run(TokaidoGame(cfg), 250, 11, out, chunk_size=100, progress=False)
    assert (s.games, s.played, s.status) == (250, 250, "complete")
    names = sorted(p.name for p in out.glob("part-*.parquet"))
    assert names == [part_name(0, 100), part_name(100, 200), part_name(200, 250)]
    t = sorted_table(out)
    assert t.schema.equals(dataset.SCHEMA)
    assert t.num_rows == 250 * 3
    assert t["game"].to_pylist() == list(np.repeat(np.arange(250), 3))
    assert set(t["n_players"].to_pylist()) == {3}
    names_ok = set(dataset.traveler_names(cfg.rules()))
    assert set(t["traveler"].to_pylist()) <= names_ok
    assert set(t["alt_traveler"].drop_null().to_pylist()) <= names_ok
    wins = t.group_by("game").aggregate([("win", "sum")])["win_sum"].to_numpy()
    assert np.allclose(wins, 1.0)
    m = json.loads((out / MANIFEST).read_text())
    assert m["status"] == "complete" and m["finished"]
    assert (m["seed"], m["games"], m["chunk_size"], m["spec"]) == (11, 250, 100, cfg.spec())
    assert m["config"] == json.loads(json.dumps(cfg.to_dict()))
    assert m["rules_fingerprint"] == cfg.rules().fingerprint() and m["rules_version"] == cfg.rules().version
    assert set(m["versions"]) >= {"tokaido_sim", "numba", "numpy", "python"}
    assert [e["file"] for e in m["parts"]] == names
    for e in m["parts"]:
        assert e["rows"] == pq.read_metadata(out / e["file"]).num_rows
        assert e["sha256"] == hashlib.sha256((out / e["file"]).read_bytes()).hexdigest()
    assert not list(out.glob(".*.tmp"))


def test_to_table_names_and_win_shares() -> None:
    cfg = GameConfig(n_players=2)
    rules = cfg.rules()
    rec = np.zeros(4, RESULT_DTYPE)
    rec["game"] = [0, 0, 1, 1]
    rec["traveler"] = [0, len(rules.travelers) - 1, -1, 2]
    rec["alt_traveler"] = [-1, 1, -1, -1]
    rec["bot"] = [1, 0, 1, 1]
    rec["rank"] = [1, 1, 1, 2]
    rec["win_k"] = [2, 2, 1, 1]
    t = dataset.to_table(rec, rules, 2)
    assert t["traveler"].to_pylist() == [
        rules.travelers[0].name,
        rules.travelers[-1].name,
        "none",
        rules.travelers[2].name,
    ]
    assert t["alt_traveler"].to_pylist() == [None, rules.travelers[1].name, None, None]
    assert t["bot"].to_pylist() == ["greedy", "random", "greedy", "greedy"]
    assert t["win"].to_pylist() == [0.5, 0.5, 1.0, 0.0]


@pytest.mark.usefixtures("fake_engine")
def test_chunking_and_threads_do_not_change_the_dataset(tmp_path: Path) -> None:
    cfg = GameConfig(n_players=4)
    runner.run(TokaidoGame(cfg), 500, 5, tmp_path / "a", chunk_size=500, threads=1, progress=False)
    runner.run(TokaidoGame(cfg), 500, 5, tmp_path / "b", chunk_size=37, threads=2, progress=False)
    assert sorted_table(tmp_path / "a").equals(sorted_table(tmp_path / "b"))


@pytest.mark.skipif(STUB, reason="the stub engine's games depend on the chunk start")
def test_real_engine_same_seed_same_dataset_any_chunking(tmp_path: Path) -> None:
    cfg = GameConfig(n_players=3, variants=("gastronomy",))
    runner.run(TokaidoGame(cfg), 300, 9, tmp_path / "a", chunk_size=300, threads=1, progress=False)
    runner.run(TokaidoGame(cfg), 300, 9, tmp_path / "b", chunk_size=41, threads=2, progress=False)
    assert sorted_table(tmp_path / "a").to_pydict() == sorted_table(tmp_path / "b").to_pydict()


def test_missing_chunks() -> None:
    assert list(parts.missing_chunks([], 10, 4)) == [(0, 4), (4, 8), (8, 10)]
    assert list(parts.missing_chunks([(0, 4), (8, 10)], 10, 4)) == [(4, 8)]
    assert list(parts.missing_chunks([(4, 8)], 12, 3)) == [(0, 3), (3, 4), (8, 11), (11, 12)]
    assert list(parts.missing_chunks([(0, 10)], 10, 4)) == []
    assert list(parts.missing_chunks([(0, 37), (37, 100), (150, 151)], 200, 100)) == [(100, 150), (151, 200)]
    assert parts.missing_games([(0, 37), (150, 151)], 200) == 162
    huge = parts.missing_chunks([], 10**12 - 1, 1)  # lazy: no list of 10^12 chunks
    assert next(huge) == (0, 1)


@pytest.mark.usefixtures("fake_engine")
def test_resume_fills_gaps_keeps_parts_and_cleans_temp_files(tmp_path: Path) -> None:
    cfg = GameConfig(n_players=2)
    out = tmp_path / "run"
    runner.run(TokaidoGame(cfg), 400, 3, out, chunk_size=100, progress=False)
    full = sorted_table(out)
    (out / part_name(100, 200)).unlink()
    stale = out / f".{part_name(100, 200)}.tmp"
    stale.write_bytes(b"PAR1 half-written")
    m = json.loads((out / MANIFEST).read_text())
    m["status"] = "running"
    (out / MANIFEST).write_text(json.dumps(m))
    before = part_stats(out)
    s = runner.run(TokaidoGame(cfg), 400, 3, out, chunk_size=100, resume=True, progress=False)
    assert s.played == 100
    after = part_stats(out)
    assert {k: v for k, v in after.items() if k in before} == before
    assert set(after) - set(before) == {part_name(100, 200)}
    assert not stale.exists()
    assert sorted_table(out).equals(full)
    m = json.loads((out / MANIFEST).read_text())
    assert m["status"] == "complete" and len(m["resumed"]) == 1 and len(m["parts"]) == 4
    # a complete run resumes as a no-op and may grow
    assert runner.run(TokaidoGame(cfg), 400, 3, out, chunk_size=100, resume=True, progress=False).played == 0
    assert runner.run(TokaidoGame(cfg), 450, 3, out, chunk_size=100, resume=True, progress=False).played == 50
    assert sorted_table(out).num_rows == 450 * 2


@pytest.mark.usefixtures("fake_engine")
def test_interrupted_run_keeps_every_finished_game_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stopped_midway(*args, stop=None, **kwargs):
        """Ctrl-C (the stop flag) while playing game 257: the kernel returns the games before it."""
        start, count = args[3], args[4]
        batch = fake_play_games(*args, **kwargs)
        if start <= 257 < start + count:
            stop[0] = 1
            return Batch(batch.records[: (257 - start) * 4], None, None, 4)
        return batch

    monkeypatch.setattr(engine, "play_games", stopped_midway)
    cfg = GameConfig(n_players=4)
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        runner.run(TokaidoGame(cfg), 1000, 1, out, chunk_size=100, progress=False)
    m = json.loads((out / MANIFEST).read_text())
    assert m["status"] == "interrupted" and m["games"] == 1000
    kept = [part_name(0, 100), part_name(100, 200), part_name(200, 257)]
    assert [e["file"] for e in m["parts"]] == kept == sorted(p.name for p in out.glob("part-*.parquet"))
    monkeypatch.setattr(engine, "play_games", fake_play_games)
    assert (
        runner.run(TokaidoGame(cfg), 1000, 1, out, chunk_size=100, resume=True, progress=False).played == 743
    )
    runner.run(TokaidoGame(cfg), 1000, 1, tmp_path / "whole", chunk_size=100, progress=False)
    assert sorted_table(out).equals(sorted_table(tmp_path / "whole"))


@pytest.mark.usefixtures("fake_engine")
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seed": 2}, "--seed 1, not 2"),
        ({"config": GameConfig(n_players=3)}, "holds a run whose n_players is 2, not 3 as asked"),
        (
            {"config": GameConfig(n_players=2, overrides=(("travelers.kinko.coins", "9"),))},
            r'holds a run whose overrides is \[\], not \[\["travelers.kinko.coins", "9"\]\] as asked',
        ),
        ({"games": 50}, "--games must be at least"),
    ],
)
def test_resume_refuses_a_different_run(tmp_path: Path, change: dict, message: str) -> None:
    out = tmp_path / "run"
    runner.run(TokaidoGame(GameConfig(n_players=2)), 100, 1, out, chunk_size=100, progress=False)
    before = part_stats(out)
    kw = {"config": GameConfig(n_players=2), "games": 100, "seed": 1} | change
    with pytest.raises(UserError, match=message):
        runner.run(
            TokaidoGame(kw["config"]),
            kw["games"],
            kw["seed"],
            out,
            chunk_size=100,
            resume=True,
            progress=False,
        )
    assert part_stats(out) == before


@pytest.mark.usefixtures("fake_engine")
def test_resume_refuses_changed_rules(tmp_path: Path) -> None:
    out = tmp_path / "run"
    runner.run(TokaidoGame(GameConfig(n_players=2)), 100, 1, out, chunk_size=100, progress=False)
    m = json.loads((out / MANIFEST).read_text())
    m["rules_fingerprint"] = "0" * 16
    (out / MANIFEST).write_text(json.dumps(m))
    with pytest.raises(UserError, match="the rules changed"):
        runner.run(
            TokaidoGame(GameConfig(n_players=2)), 100, 1, out, chunk_size=100, resume=True, progress=False
        )


def test_bad_arguments_and_used_dir_write_nothing(tmp_path: Path) -> None:
    cfg = GameConfig(n_players=2)
    for kw in ({"games": 0}, {"games": -3}, {"seed": -1}, {"chunk_size": 0}, {"threads": 0}):
        args: dict[str, Any] = {"games": 10, "seed": 1, "chunk_size": 10, "threads": None} | kw
        with pytest.raises(UserError):
            runner.run(
                TokaidoGame(cfg),
                args["games"],
                args["seed"],
                tmp_path / "x",
                args["chunk_size"],
                args["threads"],
            )
    assert not (tmp_path / "x").exists()
    used = tmp_path / "used"
    used.mkdir()
    (used / "notes.txt").write_text("hi")
    with pytest.raises(UserError, match="not empty"):
        runner.run(TokaidoGame(cfg), 10, 1, used, progress=False)
    with pytest.raises(UserError, match="no manifest.json"):
        runner.run(TokaidoGame(cfg), 10, 1, used, resume=True, progress=False)
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(UserError, match="not a directory"):
        runner.run(TokaidoGame(cfg), 10, 1, blocker / "sub", progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "used"]


def _damage(kind: str, part: Path, cfg: GameConfig) -> None:
    if kind == "truncated":
        part.write_bytes(part.read_bytes()[:100])
    elif kind == "fewer rows":  # a valid Parquet file of the wrong size
        t = pq.read_table(part)
        write_table(t.slice(0, t.num_rows - 2), part)
    elif kind == "edited":  # same rows, other values: only the checksum tells
        t = pq.read_table(part)
        write_table(
            t.set_column(
                t.schema.get_field_index("score"), "score", pa.array(np.zeros(t.num_rows, np.int16))
            ),
            part,
        )


@pytest.mark.usefixtures("fake_engine")
@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("truncated", "is not a readable Parquet file"),
        ("fewer rows", "holds 198 rows, not 200"),
        ("edited", "is not the file manifest.json recorded \\(its checksum differs"),
    ],
)
def test_damaged_part_is_named_on_resume_not_taken_as_complete(
    tmp_path: Path, kind: str, message: str
) -> None:
    cfg = GameConfig(n_players=2)
    out = tmp_path / "run"
    runner.run(TokaidoGame(cfg), 200, 1, out, chunk_size=100, progress=False)
    part = out / part_name(100, 200)
    _damage(kind, part, cfg)
    before, manifest = part_stats(out), (out / MANIFEST).read_text()
    with pytest.raises(UserError, match=f"^{part}.* {message}.*; delete it and resume again"):
        runner.run(TokaidoGame(cfg), 200, 1, out, chunk_size=100, resume=True, progress=False)
    assert part_stats(out) == before and (out / MANIFEST).read_text() == manifest
    part.unlink()  # as the message says: the games are played again
    assert (
        runner.run(TokaidoGame(cfg), 200, 1, out, chunk_size=100, resume=True, progress=False).played == 100
    )
    runner.run(TokaidoGame(cfg), 200, 1, tmp_path / "whole", chunk_size=100, progress=False)
    assert sorted_table(out).equals(sorted_table(tmp_path / "whole"))


@pytest.mark.usefixtures("fake_engine")
def test_resume_reads_an_older_manifest_listing_part_names(tmp_path: Path) -> None:
    cfg = GameConfig(n_players=2)
    out = tmp_path / "run"
    runner.run(TokaidoGame(cfg), 300, 1, out, chunk_size=100, progress=False)
    (out / part_name(200, 300)).unlink()
    m = json.loads((out / MANIFEST).read_text())
    m["parts"] = [e["file"] for e in m["parts"]][:2]
    (out / MANIFEST).write_text(json.dumps(m))
    assert (
        runner.run(TokaidoGame(cfg), 300, 1, out, chunk_size=100, resume=True, progress=False).played == 100
    )
    m = json.loads((out / MANIFEST).read_text())
    assert [sorted(e) for e in m["parts"]] == [["file", "rows", "sha256"]] * 3


@pytest.mark.usefixtures("fake_engine")
def test_a_run_that_fails_before_its_first_part_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "play_games", broken)
    with pytest.raises(RuntimeError):
        runner.run(
            TokaidoGame(GameConfig(n_players=2)), 100, 1, tmp_path / "run", chunk_size=100, progress=False
        )
    assert list(tmp_path.iterdir()) == []


def test_games_and_chunk_size_are_bounded_before_any_work(tmp_path: Path) -> None:
    cfg = GameConfig(n_players=2)
    for kw, message in (
        ({"games": 10**20}, "--games takes 1 to 999,999,999,999"),
        ({"chunk_size": 10**9}, "--chunk-size takes 1 to 1,000,000"),
    ):
        args: dict[str, Any] = {"games": 10, "chunk_size": 10} | kw
        with pytest.raises(UserError, match=message):
            runner.run(TokaidoGame(cfg), args["games"], 1, tmp_path / "x", args["chunk_size"], progress=False)
    with pytest.raises(UserError, match="game indices go up to"):
        engine.play_games(cfg, cfg.rules(), 1, 10**20, 1)
    assert list(tmp_path.iterdir()) == []


def test_write_table_round_trips(tmp_path: Path) -> None:
    cfg = GameConfig(n_players=4)
    rec = fake_play_games(cfg, cfg.rules(), 1, 0, 50).records
    t = dataset.to_table(rec, cfg.rules(), 4)
    write_table(t, tmp_path / "p.parquet", dataset.STATISTICS)
    back = pq.read_table(tmp_path / "p.parquet")
    assert back.schema.equals(dataset.SCHEMA) and back.equals(t)
    group = pq.read_metadata(tmp_path / "p.parquet").row_group(0)
    with_stats = {
        group.column(i).path_in_schema for i in range(group.num_columns) if group.column(i).is_stats_set
    }
    assert with_stats == {*STATISTICS, *dataset.STATISTICS}  # the writer's columns and the game's, no other


@pytest.mark.usefixtures("fake_engine")
def test_resume_after_a_manifest_edit_says_what_differs(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cfg = GameConfig(n_players=2)
    runner.run(TokaidoGame(cfg), 100, 1, out, chunk_size=100, progress=False)
    m = json.loads((out / MANIFEST).read_text())
    m["config"]["bots"] = ["random"]  # the spec string still says greedy
    (out / MANIFEST).write_text(json.dumps(m))
    before = part_stats(out)
    with pytest.raises(UserError, match=r'holds a run whose bots is \["random"\], not \["greedy"\] as asked'):
        runner.run(TokaidoGame(cfg), 100, 1, out, chunk_size=100, resume=True, progress=False)
    assert part_stats(out) == before
