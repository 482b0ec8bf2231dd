"""Ctrl-C stops a run within a fraction of a second, keeps every finished game, and --resume completes it.

Also: the progress callback fires several times a second (not once per part: a part can take minutes).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from sim.dataset.manifest import MANIFEST
from sim.dataset.parts import part_name
from sim.games.tokaido import bots, dataset, engine
from sim.games.tokaido.game import TokaidoGame
from sim.games.tokaido.rules.config import GameConfig
from sim.run import pace, progress, runner
from tests.helpers.cli import ENV, MARKED_CLI

STUB = "STUB" in (engine.__doc__ or "")


def _games(root: Path) -> dict[str, list]:
    t = dataset.read_table(root).sort_by([("game", "ascending"), ("player", "ascending")])
    return t.to_pydict()


@pytest.mark.skipif(STUB, reason="needs the real engine")
def test_ctrl_c_with_the_search_bot_exits_at_once_keeping_finished_games(tmp_path: Path) -> None:
    # A 2-player search game takes about 0.06 s: with 12 games the run could finish before the
    # signal was handled (exit 0 in a CI run); 60 leave some 3 s of play after the sixth game.
    games = 60
    out, mark = tmp_path / "run", tmp_path / "mark"
    args = [
        "run",
        "-p",
        "2",
        "-g",
        str(games),
        "-s",
        "3",
        "--bots",
        "search",
        "--chunk-size",
        "5",
        "--out",
        str(out),
        "-q",
    ]
    proc = subprocess.Popen(
        [sys.executable, "-c", MARKED_CLI, *args],
        env={**ENV, "TOKAIDO_MARK": str(mark)},
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    # read the mark once per look: the run truncates it before writing, so a second read may be empty
    while not ((txt := mark.read_text().strip() if mark.exists() else "") and int(txt) >= 6):  # 2nd chunk
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.01)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    seconds = time.monotonic() - t0
    print(f"exit {seconds:.3f} s after Ctrl-C")  # noqa: T201 - the figure for the closing note
    assert proc.returncode == 130
    assert seconds < 5  # typically 0.2 s; generous for a loaded CI machine
    assert len(err.strip().splitlines()) == 1 and "--resume" in err
    m = json.loads((out / MANIFEST).read_text())
    assert m["status"] == "interrupted" and m["games"] == games
    files = sorted(p.name for p in out.glob("part-*.parquet"))
    assert [e["file"] for e in m["parts"]] == files
    kept = sum(e - s for s, e in (map(int, f[5:-8].split("-")) for f in files))
    assert kept >= int(mark.read_text()) - 2  # every finished game but those of the thread still playing
    assert 6 <= kept < games and files[0] == part_name(0, 5)
    res = subprocess.run(
        [sys.executable, "-m", "sim.cli", *args, "--resume"],
        env=ENV,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    assert json.loads((out / MANIFEST).read_text())["status"] == "complete"
    runner.run(
        TokaidoGame(GameConfig(n_players=2, bots=("search",))),
        games,
        3,
        tmp_path / "whole",
        5,
        progress=False,
    )
    assert _games(out) == _games(tmp_path / "whole")  # no game lost, none twice, the same games


@pytest.mark.skipif(STUB, reason="needs the real engine")
def test_progress_moves_several_times_a_second_within_one_part(tmp_path: Path) -> None:
    cfg = GameConfig(n_players=4, bots=("heuristic",))
    engine.play_games(cfg, cfg.rules(), 1, 0, 1)  # load the kernels outside the clock
    seen: list[tuple[float, int]] = []
    runner.run(
        TokaidoGame(cfg),
        4000,
        1,
        tmp_path / "run",
        chunk_size=100_000,
        progress=False,
        on_progress=lambda n: seen.append((time.monotonic(), n)),
    )
    assert sum(n for _, n in seen) == 4000
    gaps = np.diff([t for t, _ in seen])
    print(f"{len(seen)} progress updates, longest gap {gaps.max():.3f} s")  # noqa: T201
    assert len(seen) >= 5 and gaps.max() < 1.0


def test_pacer_sizes_calls_from_the_measured_rate() -> None:
    p = pace.Pacer(threads=2, target=0.25)
    assert p.size(1000) == 2  # first call: a game per thread
    p.record(2, 0.001)  # 2,000 games/s
    assert p.size(10_000) == 16  # at most 8x the last call
    for _ in range(5):
        p.record(p.last, p.last / 2000)
        p.size(10_000)
    assert p.last == 500 and p.size(7) == 7


def test_rate_counts_only_games_played_since_the_bar_started(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    r = progress.Rate(total=1000, done=400)  # a resumed run: 400 games were already there
    assert r.per_second() is None and r.eta() is None
    clock[0] += 2.0
    r.add(100)
    assert r.per_second() == 50.0 and r.eta() == 10.0
    r.total = 10_000
    for _ in range(15):  # then 200 games/s: within the 10 s window the rate is the new one
        clock[0] += 1.0
        r.add(200)
    assert r.per_second() == pytest.approx(200.0)
    clock[0] += 30.0  # a stall: the rate decays instead of freezing
    assert r.per_second() < 60
    assert progress.clock(3725) == "1:02:05" and progress.clock(None) == "-:--:--"


@pytest.mark.skipif(STUB, reason="needs the real engine")
def test_paced_games_are_the_same_games() -> None:
    cfg = GameConfig(n_players=3, bots=("heuristic",))
    rules = cfg.rules()
    a = pace.play(TokaidoGame(cfg, rules), 5, 10, 300)
    b = engine.play_games(cfg, rules, 5, 10, 300)
    assert np.array_equal(a.records, b.records)


@pytest.mark.skipif(STUB, reason="needs the real engine")
def test_the_kernel_stop_flag_keeps_the_finished_prefix() -> None:
    cfg = GameConfig(n_players=2)
    rules = cfg.rules()
    stop = np.ones(1, np.int64)  # set before the call: nothing is played
    assert len(engine.play_games(cfg, rules, 1, 0, 50, stop=stop).records) == 0
    full = engine.play_games(cfg, rules, 1, 0, 50)
    with pace.Player(TokaidoGame(cfg, rules), 1) as player:
        first = player.play(0, 20)
        player.stop[0] = 1
        assert list(player.stream(20, 50)) == []
    assert np.array_equal(first.records, full.records[:40])


@pytest.mark.skipif(STUB, reason="needs the real engine")
def test_the_stop_flag_ends_games_in_flight_at_their_next_turn() -> None:
    """Not only between games: the flag is raised the moment the first game ends, while the other engine
    thread is in the middle of its own game; that game must end unfinished, not run to its end. (No clock:
    how long a game takes depends on the machine.)"""
    import threading

    from kernels.core.batch import UNFINISHED
    from kernels.tokaido.core.weights import W

    cfg = GameConfig(n_players=4, bots=("search",))
    rules = cfg.rules()
    # full rollouts (the search without its one-leg rollouts): long games, many turns to stop at
    w = bots.bot_weights("search", rules, cfg)
    w[W.S_HORIZON], w[W.S_ROLLOUTS] = 0, 32
    ws = np.repeat(w[None, :], 4, axis=0)
    engine.play_games(cfg, rules, 1, 0, 1, weights=ws)  # compile before the watched call
    stop, nlog = np.zeros(1, np.int64), np.full(4, UNFINISHED, np.int32)
    done = threading.Event()

    def raise_when_one_ends() -> None:
        while not done.is_set():
            if (nlog != UNFINISHED).any():
                stop[0] = 1
                return
            time.sleep(0.0005)

    watcher = threading.Thread(target=raise_when_one_ends)
    watcher.start()
    try:
        batch = engine.play_games(cfg, rules, 1, 0, 4, threads=2, stop=stop, nlog=nlog, weights=ws)
    finally:
        done.set()
        watcher.join()
    finished = int((nlog != UNFINISHED).sum())
    assert stop[0] == 1 and finished == 1, f"{finished} games ended (nlog {nlog.tolist()})"
    assert len(batch.records) in (0, cfg.n_players)  # the games before the first unfinished one
