"""The strong bulk tier's speed against greedy's, in the same run (4 players, base game).

Kernel: ``engine.play_games`` on ``--games`` games per tier (after an untimed warm-up), best of
``--repeat``, tiers interleaved so both see the same machine load. End to end: ``tokaido-sim run``
in a subprocess (interpreter start-up, cached kernels, Parquet parts included), and the same
for 1 game: the fixed start-up, so that the rate after it is what a long run reaches. Besides wall
time it prints games per CPU-second of this process x the cores used, which is what the run
would reach on idle cores when other jobs share the machine.

    .venv/bin/python benchmarks/bench_bots.py --games 20000 --e2e-games 100000 --tiers greedy,expert
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.games.tokaido import engine
from sim.games.tokaido.rules.config import GameConfig


def cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(run) -> tuple[float, float]:
    w0, c0 = time.perf_counter(), cpu()
    run()
    return time.perf_counter() - w0, cpu() - c0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tiers", default="greedy,expert")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--e2e-games", type=int, default=100000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    tiers = a.tiers.split(",")
    best: dict[str, tuple[float, float]] = {}
    for t in tiers:  # warm-up: compile or load the cache
        c = GameConfig(n_players=4, bots=(t,))
        engine.play_games(c, c.rules(), a.seed, 0, 200, threads=a.threads)
    for _ in range(a.repeat):
        for t in tiers:
            c = GameConfig(n_players=4, bots=(t,))
            r = c.rules()
            wall, used = timed(
                lambda c=c, r=r: engine.play_games(c, r, a.seed, 0, a.games, threads=a.threads)
            )
            if t not in best or wall < best[t][0]:
                best[t] = (wall, used)
    print(f"load average {os.getloadavg()[0]:.1f}; {a.threads} threads; 4 players, base game")
    print(
        "| tier | kernel games | games/s (wall) | games/s per CPU-s x threads | end to end games | games/s "
        "(wall) "
        "| start-up (s) | games/s after start-up |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for t in tiers:
        wall, used = best[t]
        e2e = ""
        if a.e2e_games > 0:
            # a 1-game run is the fixed cost (interpreter, imports, cached kernels loaded); the rest is the
            # games
            start = min(run_cli(t, 1, a), run_cli(t, 1, a))
            took = run_cli(t, a.e2e_games, a)
            e2e = (
                f"{a.e2e_games} | {a.e2e_games / took:,.0f} | {start:.1f} | "
                f"{a.e2e_games / max(took - start, 1e-9):,.0f}"
            )
        print(
            f"| {t} | {a.games} | {a.games / wall:,.0f} | {a.games / max(used, 1e-9) * a.threads:,.0f} | "
            f"{e2e} |"
        )
    return 0


def run_cli(tier: str, games: int, a: argparse.Namespace) -> float:
    """Wall seconds of ``tokaido-sim run`` of ``games`` games in a fresh process."""
    with tempfile.TemporaryDirectory() as d:
        cmd = [
            str(ROOT / ".venv/bin/tokaido-sim"),
            "run",
            "--players",
            "4",
            "--bots",
            tier,
            "--games",
            str(games),
            "--seed",
            str(a.seed),
            "--out",
            str(Path(d) / "run"),
            "--threads",
            str(a.threads),
            "-q",
        ]
        w0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        return time.perf_counter() - w0


if __name__ == "__main__":
    raise SystemExit(main())
