"""Duo through the shared runner (``sim.run.runner.run`` with ``DuoGame``): the same rows for any thread
count, chunk size or cluster; Ctrl-C keeps every finished game and ``--resume`` completes the run with
none lost or played twice; the cluster option of ``duo run`` behaves as ``run``'s."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pytest

import sim.games.duo.game as duo_game
from sim.dataset.manifest import MANIFEST
from sim.dataset.parts import part_name
from sim.games.duo import dataset as duo_dataset
from sim.games.duo.engine import play_duo_games
from sim.games.duo.game import DuoGame
from sim.games.duo.rules import DuoRules, load_duo_rules
from sim.games.tokaido import dataset
from sim.games.tokaido.game import TokaidoGame
from sim.games.tokaido.rules.config import GameConfig
from sim.run import cluster, runner
from sim.run.game import Game
from tests.helpers.cli import call

SEED, GAMES, CHUNK = 7, 3000, 1000
BOTS = ("greedy", "random")


def table(root: Path) -> pa.Table:
    return dataset.read_table(root).sort_by([("game", "ascending"), ("player", "ascending")])


@pytest.fixture(scope="module")
def rules() -> DuoRules:
    return load_duo_rules()


@pytest.fixture(scope="module")
def reference(rules: DuoRules, tmp_path_factory: pytest.TempPathFactory) -> pa.Table:
    """One in-process run in one chunk (played first, so the kernels' cache is warm before workers start)."""
    out = tmp_path_factory.mktemp("duo") / "whole"
    s = runner.run(DuoGame(rules, BOTS), GAMES, SEED, out, GAMES, threads=1, progress=False)
    assert (s.played, s.status) == (GAMES, "complete")
    return table(out)


def test_the_rows_are_the_engines_for_any_threads_and_chunks(
    rules: DuoRules, reference: pa.Table, tmp_path: Path
) -> None:
    assert isinstance(DuoGame(rules), Game) and isinstance(TokaidoGame(GameConfig()), Game)
    direct = duo_dataset.to_table(play_duo_games(rules, SEED, 0, GAMES, BOTS).records, rules)
    assert reference.equals(direct)
    runner.run(DuoGame(rules, BOTS), GAMES, SEED, tmp_path / "b", 173, threads=2, progress=False)
    assert table(tmp_path / "b").equals(reference)
    m = json.loads((tmp_path / "b" / MANIFEST).read_text())
    assert (m["kind"], m["game"], m["status"], m["n_players"]) == ("duo-run", "duo", "complete", 2)
    assert m["duo_board"]["verified"] is False and m["config"]["bots"] == list(BOTS)
    assert len(m["parts"]) == len(range(0, GAMES, 173)) and "resumed" in m


def test_ctrl_c_keeps_every_finished_game_and_resume_completes(
    rules: DuoRules, reference: pa.Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real, calls = duo_game.play_duo_games, [0]

    def ctrl_c_on_third_call(*args, **kwargs):
        calls[0] += 1
        if calls[0] == 3:  # Ctrl-C while this engine call plays: the main thread's handler sets the stop flag
            os.kill(os.getpid(), signal.SIGINT)
        return real(*args, **kwargs)

    monkeypatch.setattr(duo_game, "play_duo_games", ctrl_c_on_third_call)
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        runner.run(DuoGame(rules, BOTS), GAMES, SEED, out, CHUNK, threads=1, progress=False)
    m = json.loads((out / MANIFEST).read_text())
    files = sorted(p.name for p in out.glob("part-*.parquet"))
    assert m["status"] == "interrupted" and [e["file"] for e in m["parts"]] == files
    kept = sum(e - s for s, e in (map(int, f[5:-8].split("-")) for f in files))
    assert 0 < kept < GAMES  # the games of the first three calls, in a part shorter than a chunk
    monkeypatch.setattr(duo_game, "play_duo_games", real)
    s = runner.run(DuoGame(rules, BOTS), GAMES, SEED, out, CHUNK, resume=True, progress=False)
    assert s.played == GAMES - kept
    assert table(out).equals(reference)  # no game lost, none twice, the same games
    m = json.loads((out / MANIFEST).read_text())
    assert m["status"] == "complete" and len(m["resumed"]) == 1
    assert runner.run(DuoGame(rules, BOTS), GAMES, SEED, out, CHUNK, resume=True, progress=False).played == 0


def test_resume_refuses_other_bots_or_a_tokaido_run(rules: DuoRules, tmp_path: Path) -> None:
    from sim.errors import UserError

    out = tmp_path / "run"
    runner.run(DuoGame(rules, BOTS), 20, SEED, out, 10, progress=False)
    with pytest.raises(UserError, match="other bots, board, rules or seed"):
        runner.run(DuoGame(rules, ("greedy", "greedy")), 20, SEED, out, 10, resume=True, progress=False)
    with pytest.raises(UserError, match="holds a duo-run, not a run"):
        runner.run(TokaidoGame(GameConfig(n_players=2)), 20, SEED, out, 10, resume=True, progress=False)


@pytest.fixture(scope="module")
def cl(reference: pa.Table) -> Iterator[cluster.Cluster]:
    with cluster.connect("local:2") as c:
        assert c is not None
        yield c


def test_cluster_run_and_resume_are_identical_to_in_process(
    rules: DuoRules, reference: pa.Table, cl: cluster.Cluster, tmp_path: Path
) -> None:
    out, seen = tmp_path / "dask", []
    s = runner.run(
        DuoGame(rules, BOTS), GAMES, SEED, out, CHUNK, progress=False, on_progress=seen.append, cluster=cl
    )
    assert (s.played, sorted(seen)) == (GAMES, [CHUNK] * 3)
    assert table(out).equals(reference)
    assert all("warmup_duo" in w for w in cl.workers.values())
    (out / part_name(1000, 2000)).unlink()
    kept = {p.name: p.stat().st_mtime_ns for p in out.glob("part-*.parquet")}
    assert (
        runner.run(
            DuoGame(rules, BOTS), GAMES, SEED, out, CHUNK, resume=True, progress=False, cluster=cl
        ).played
        == CHUNK
    )
    assert {k: p.stat().st_mtime_ns for k in kept if (p := out / k)} == kept
    assert table(out).equals(reference)


def test_duo_run_cli_takes_the_cluster_option(
    reference: pa.Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cli"
    argv = [
        "duo",
        "run",
        "--out",
        str(out),
        "--games",
        str(GAMES),
        "--seed",
        str(SEED),
        "--bots",
        ",".join(BOTS),
        "--chunk-size",
        str(CHUNK),
        "--cluster",
        "local:1",
    ]
    code, text, err = call(argv, capsys)
    assert code == 0, err
    assert f"holds {GAMES:,} games" in text and "verified=false" in text
    assert table(out).equals(reference)
    code, text, _ = call([*argv, "--resume"], capsys)
    assert code == 0 and "already complete" in text
    for spec, message in (("local:0", "takes 1 to 256 workers"), ("foo", "must be a scheduler address")):
        bad = tmp_path / f"bad{spec[-1]}"
        code, _, err = call(["duo", "run", "--out", str(bad), "--games", "10", "--cluster", spec], capsys)
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], err
        assert not bad.exists()


def test_ctrl_c_on_the_duo_run_command_exits_130_and_resume_completes(
    rules: DuoRules, tmp_path: Path
) -> None:
    """The real signal on the real command: one line on stderr, exit 130, then --resume equals one whole
    run."""
    import subprocess
    import time

    from tests.helpers.cli import ENV

    out, bots = tmp_path / "run", ("search", "greedy")  # about 20 games a second: stopped midway
    args = [
        "duo",
        "run",
        "--out",
        str(out),
        "-g",
        "60",
        "-s",
        "3",
        "--bots",
        ",".join(bots),
        "--chunk-size",
        "5",
        "-q",
    ]
    proc = subprocess.Popen(
        [sys.executable, "-m", "sim.cli", *args],
        env=ENV,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not list(out.glob("part-*.parquet")):  # the first part is written: the kernels are loaded
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.01)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and len(err.strip().splitlines()) == 1 and "--resume" in err
    assert time.monotonic() - t0 < 5  # one paced engine call: typically well under a second
    m = json.loads((out / MANIFEST).read_text())
    assert m["status"] == "interrupted" and m["parts"]
    assert len(m["parts"]) < 12, "the run finished before Ctrl-C: nothing was tested"
    res = subprocess.run(
        [sys.executable, "-m", "sim.cli", *args, "--resume"],
        env=ENV,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    runner.run(DuoGame(rules, bots), 60, 3, tmp_path / "whole", 60, progress=False)
    assert table(out).equals(table(tmp_path / "whole"))
