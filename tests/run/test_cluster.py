"""Runs and studies on a Dask cluster: same games as in-process, resume, retried chunks, CLI."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cloudpickle
import pyarrow as pa
import pytest

from sim.cli import app as cli
from sim.dataset.manifest import MANIFEST
from sim.dataset.parts import part_name
from sim.errors import UserError
from sim.games.tokaido import dataset
from sim.games.tokaido.game import TokaidoGame
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.study import run_study
from sim.run import cluster, outdir, runner
from tests.helpers.parts import part_stats

# the failing tasks below run on the workers, which cannot import this test module
cloudpickle.register_pickle_by_value(sys.modules[__name__])

CONFIG = GameConfig(n_players=4)
GAME = TokaidoGame(CONFIG)
SEED, GAMES, CHUNK = 11, 8000, 2000
STUDY = """
seed = 5
chunk_size = 300
players = [2, 3]
variants = ["none", "gastronomy+preparations"]
[games]
2 = 900
3 = 500
"""


def table(root: Path) -> pa.Table:
    t = dataset.read_table(root)
    keys = [k for k in ("n_players", "variants") if k in t.schema.names]
    return t.sort_by([(k, "ascending") for k in keys] + [("game", "ascending"), ("player", "ascending")])


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> pa.Table:
    """The in-process run (played first, so the kernels' cache is warm before workers start)."""
    out = tmp_path_factory.mktemp("local") / "run"
    runner.run(GAME, GAMES, SEED, out, CHUNK, progress=False)
    return table(out)


@pytest.fixture(scope="module")
def cl(reference: pa.Table) -> Iterator[cluster.Cluster]:
    with cluster.connect("local:2") as c:
        assert c is not None
        yield c


@pytest.fixture
def fresh(cl: cluster.Cluster) -> Iterator[cluster.Cluster]:
    """The shared cluster with its normal task and retries restored after the test."""
    yield cl
    cl.task, cl.retries = cluster.play_chunk, cluster.RETRIES


def die_once(marker_dir: str, victim: int, *args: Any) -> dict[str, Any]:
    """``play_chunk`` that kills its own worker process the first time it gets chunk ``victim``."""
    start = args[3]
    marker = Path(marker_dir) / f"attempt-{start}"
    attempts = len(list(Path(marker_dir).glob(f"attempt-{start}*")))
    Path(f"{marker}-{attempts}").touch()
    if start == victim and attempts == 0:
        os._exit(1)
    return cluster.play_chunk(*args)


def fail_chunk(victim: int, *args: Any) -> dict[str, Any]:
    if args[3] == victim:
        raise RuntimeError("boom")
    return cluster.play_chunk(*args)


def test_parse_spec() -> None:
    assert cluster.parse_spec("local:3") == 3
    assert cluster.parse_spec(" tcp://10.0.0.5:8786 ") == "tcp://10.0.0.5:8786"
    for bad in ("local:0", "local", "local:x", ""):
        with pytest.raises(UserError, match="--cluster"):
            cluster.parse_spec(bad)
    with cluster.connect(None) as none:
        assert none is None


def test_workers_must_match_the_driver_and_see_the_output(tmp_path: Path) -> None:
    c = cluster.Cluster("local:1")  # not started
    good = {"host": "h", "code": cluster.CODE, "versions": outdir.versions()}
    c.workers = {"tcp://a:1": good}
    c._check_workers()
    c.workers["tcp://b:1"] = {**good, "code": "0" * 16}
    with pytest.raises(UserError, match="tcp://b:1 .*has code 0000"):
        c._check_workers()
    c.workers["tcp://b:1"] = {**good, "versions": {**good["versions"], "numba": "0.1"}}
    with pytest.raises(UserError, match="numba 0.1"):
        c._check_workers()
    c.workers["tcp://b:1"] = ImportError("No module named 'sim'")  # type: ignore[assignment]
    with pytest.raises(UserError, match="tcp://b:1 cannot play games .*No module named 'sim'"):
        c._check_workers()
    (tmp_path / outdir.LOCK).touch()
    assert cluster.sees(str(tmp_path / outdir.LOCK)) and not cluster.sees(str(tmp_path / "x" / outdir.LOCK))


def test_cluster_run_is_identical_to_in_process(
    tmp_path: Path, reference: pa.Table, fresh: cluster.Cluster
) -> None:
    out, seen = tmp_path / "run", []
    s = runner.run(GAME, GAMES, SEED, out, CHUNK, progress=False, on_progress=seen.append, cluster=fresh)
    assert (s.played, s.status) == (GAMES, "complete")
    assert table(out).equals(reference)
    assert sorted(seen) == [CHUNK] * 4
    m = json.loads((out / MANIFEST).read_text())
    assert m["status"] == "complete"
    assert [e["file"] for e in m["parts"]] == [part_name(s, s + CHUNK) for s in range(0, GAMES, CHUNK)]
    assert not list(out.glob(".*.tmp"))
    assert len(fresh.workers) == 2 and all(w["code"] == cluster.CODE for w in fresh.workers.values())
    # another chunk size on the cluster: still the same games
    runner.run(GAME, GAMES, SEED, tmp_path / "odd", 3000, progress=False, cluster=fresh)
    assert table(tmp_path / "odd").equals(reference)


def test_resume_on_cluster(tmp_path: Path, reference: pa.Table, fresh: cluster.Cluster) -> None:
    out = tmp_path / "run"
    runner.run(GAME, GAMES - 3000, SEED, out, CHUNK, progress=False, cluster=fresh)
    (out / part_name(2000, 4000)).unlink()
    kept = part_stats(out)
    s = runner.run(GAME, GAMES, SEED, out, CHUNK, resume=True, progress=False, cluster=fresh)
    assert s.played == 2000 + 3000
    after = part_stats(out)
    assert {k: after[k] for k in kept} == kept
    assert table(out).equals(reference)
    assert json.loads((out / MANIFEST).read_text())["status"] == "complete"


def test_killed_worker_loses_only_its_chunk(
    tmp_path: Path, reference: pa.Table, fresh: cluster.Cluster
) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    fresh.task = functools.partial(die_once, str(marks), 4000)
    out = tmp_path / "run"
    runner.run(GAME, GAMES, SEED, out, CHUNK, progress=False, cluster=fresh)
    assert table(out).equals(reference)
    attempts = sorted(p.name for p in marks.iterdir())
    assert "attempt-4000-0" in attempts and "attempt-4000-1" in attempts  # died, then ran again
    assert "attempt-4000-2" not in attempts


class StoppedCell:
    """A cluster that stops the cell before any part of it is saved."""

    def play_chunks(self, game: Any, seed: int, out: Path, *args: Any) -> None:
        raise cluster.Stopped("stopped: another cell of the study failed or was interrupted")


def test_stopped_cell_keeps_its_manifest_for_a_late_part(tmp_path: Path, reference: pa.Table) -> None:
    """CI flake of test_study_on_cluster_matches_in_process: a cell stopped before its first part lost
    its manifest, then a worker still playing a cancelled chunk wrote its part, and --resume refused
    the folder ("holds files but no manifest.json")."""
    donor = tmp_path / "donor"
    runner.run(GAME, CHUNK, SEED, donor, CHUNK, progress=False)
    out = tmp_path / "run"
    with pytest.raises(cluster.Stopped):
        runner.run(GAME, GAMES, SEED, out, CHUNK, progress=False, cluster=StoppedCell())
    assert json.loads((out / MANIFEST).read_text())["status"] == "interrupted"
    late = next(donor.glob("part-*.parquet"))
    late.rename(out / late.name)  # the worker's chunk lands after the cell stopped
    s = runner.run(GAME, GAMES, SEED, out, CHUNK, resume=True, progress=False)
    assert s.played == GAMES - CHUNK
    assert table(out).equals(reference)


def test_failed_chunk_stops_the_run_and_resume_finishes_it(
    tmp_path: Path, reference: pa.Table, fresh: cluster.Cluster
) -> None:
    fresh.task, fresh.retries = functools.partial(fail_chunk, 0), 0
    out = tmp_path / "run"
    with pytest.raises(cluster.ClusterError, match=r"games \[0, 2000\) failed.*boom.*--resume"):
        runner.run(GAME, GAMES, SEED, out, CHUNK, progress=False, cluster=fresh)
    assert json.loads((out / MANIFEST).read_text())["status"] == "interrupted"
    fresh.task, fresh.retries = cluster.play_chunk, cluster.RETRIES
    runner.run(GAME, GAMES, SEED, out, CHUNK, resume=True, progress=False, cluster=fresh)
    assert table(out).equals(reference)


def test_study_on_cluster_matches_in_process(tmp_path: Path, fresh: cluster.Cluster) -> None:
    file = tmp_path / "study.toml"
    file.write_text(STUDY)
    run_study(file, tmp_path / "local", quiet=True)
    m = run_study(file, tmp_path / "dask", quiet=True, cluster=fresh)
    assert m.status == "complete" and m.cells is not None and all(c.status == "complete" for c in m.cells)
    assert table(tmp_path / "dask").equals(table(tmp_path / "local"))
    # a failing cell stops the study; --resume on the cluster completes it
    fresh.task, fresh.retries = functools.partial(fail_chunk, 600), 0
    with pytest.raises(cluster.ClusterError):
        run_study(file, tmp_path / "again", quiet=True, cluster=fresh)
    assert json.loads((tmp_path / "again" / MANIFEST).read_text())["status"] == "interrupted"
    fresh.task, fresh.retries = cluster.play_chunk, cluster.RETRIES
    run_study(file, tmp_path / "again", resume=True, quiet=True, cluster=fresh)
    assert table(tmp_path / "again").equals(table(tmp_path / "local"))


def test_cli_cluster_option(
    tmp_path: Path, reference: pa.Table, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    argv = [
        "run",
        "--games",
        str(GAMES),
        "--seed",
        str(SEED),
        "--out",
        str(out),
        "--chunk-size",
        str(CHUNK),
        "--cluster",
        "local:1",
    ]
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 0, capsys.readouterr()
    assert table(out).equals(reference)
    capsys.readouterr()
    for spec, message in (
        ("local:0", "takes 1 to 256 workers"),
        ("tcp://127.0.0.1:1", "cannot reach"),
        ("foo", "must be a scheduler address (tcp://HOST:8786) or local:N"),
    ):
        monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1.0)
        argv = ["run", "--games", "10", "--seed", "1", "--out", str(tmp_path / spec[-1]), "--cluster", spec]
        with pytest.raises(SystemExit) as exc:
            cli.main(argv)
        err = capsys.readouterr().err.strip().splitlines()
        assert exc.value.code == 2 and err[-1].startswith("error: ") and message in err[-1], err
        assert not (tmp_path / spec[-1]).exists()
