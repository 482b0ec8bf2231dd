"""The strong tiers' speed against greedy's, in the same run, per configuration (4 players).

Kernel: ``engine.play_games`` on ``--games`` games per tier and configuration (after an untimed warm-up),
``--repeat`` rounds, the tiers interleaved within each round (greedy first in even rounds, last in odd
ones) so every tier sees the same machine load. A tier's rate is games per CPU-second of this process
(all engine threads; ``time.process_time``), which other jobs on a shared machine disturb much less than
wall time; the ratio to greedy is taken within each round (the two timed back to back) and the median
and range over rounds are printed. Wall time is given beside it. End to end: ``tokaido-sim run`` in a
subprocess, and a 1-game run for the fixed start-up. Before timing it checks that the tier plays legal
games (``--referee-games`` games replayed by the referee).

    .venv/bin/python benchmarks/bench_bots.py --games 4000 --repeat 5 --tiers greedy,expert \\
        --expansions none,crossroads,crossroads+matsuri --e2e-games 100000 --out /tmp/bots.md
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.games.tokaido import engine
from sim.games.tokaido.referee.game import referee_game, rows_from_records  # noqa: E402
from sim.games.tokaido.rules.config import GameConfig


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def timed(run) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of ``run()``."""
    w0, c0 = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - w0, time.process_time() - c0


def games_of(tier: str, a: argparse.Namespace) -> int:
    return a.search_games if tier.startswith("search") else a.games


def bots_of(tier: str, n: int) -> tuple[str, ...]:
    """``search1``: one search player among experts; any other name: that tier in every seat."""
    return ("search",) + ("expert",) * (n - 1) if tier == "search1" else (tier,)


def check_legal(config: GameConfig, games: int) -> None:
    rules = config.rules()
    batch = engine.play_games(config, rules, 99, 0, games, log=True)
    n = config.n_players
    for i in range(games):
        res = referee_game(
            config, rules, batch.game_events(i), rows_from_records(batch.records[i * n : (i + 1) * n])
        )
        if not res.ok:
            sys.exit(f"error: {config.spec()} game {i} disagrees with the referee: {res.errors[:1]}")


def run_cli(config: GameConfig, games: int, a: argparse.Namespace) -> float:
    """Wall seconds of ``tokaido-sim run`` of ``games`` games in a fresh process."""
    with tempfile.TemporaryDirectory() as d:
        cmd = [
            str(ROOT / ".venv/bin/tokaido-sim"),
            "run",
            "--players",
            str(config.n_players),
            "--bots",
            "+".join(config.bots),
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
        if config.expansions:
            cmd += ["--expansions", "+".join(config.expansions)]
        w0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        return time.perf_counter() - w0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--tiers", default="greedy,expert", help="greedy first; search1: one search player among experts"
    )
    ap.add_argument("--expansions", default="none,crossroads,crossroads+matsuri")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--search-games", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--e2e-games", type=int, default=0, help="end to end: games of `tokaido-sim run` (0: skip)"
    )
    ap.add_argument("--referee-games", type=int, default=20)
    ap.add_argument("--out", type=Path, help="also write the Markdown table here")
    a = ap.parse_args(argv)
    tiers = [t for t in a.tiers.split(",") if t]
    xsets = [() if x in ("none", "base", "") else tuple(x.split("+")) for x in a.expansions.split(",")]
    load0 = os.getloadavg()
    configs = {
        (t, x): GameConfig(n_players=a.players, bots=bots_of(t, a.players), expansions=x, travelers="draft")
        for x in xsets
        for t in tiers
    }
    for c in configs.values():  # legal games first, and the compiled kernels loaded: never timed
        if a.referee_games:
            check_legal(c, a.referee_games)
        engine.play_games(c, c.rules(), a.seed, 0, 8, threads=a.threads)
    rounds: dict[tuple[str, tuple[str, ...]], list[tuple[float, float]]] = {k: [] for k in configs}
    for r in range(a.repeat):
        for x in xsets:
            order = tiers if r % 2 == 0 else tiers[::-1]
            for t in order:
                c = configs[(t, x)]
                rules = c.rules()
                n = games_of(t, a)
                ru = engine.rules_record(c, rules)
                wall, used = timed(
                    lambda c=c, rules=rules, n=n, ru=ru: engine.play_games(
                        c, rules, a.seed, 0, n, threads=a.threads, ru=ru
                    )
                )
                rounds[(t, x)].append((n / max(used, 1e-9), n / max(wall, 1e-9)))
    load1 = os.getloadavg()
    lines = [
        f"{cpu_model()}, {os.cpu_count()} cores, {a.threads} engine thread(s); load average "
        f"{load0[0]:.2f} / {load0[1]:.2f} / {load0[2]:.2f} at the start, {load1[0]:.2f} / {load1[1]:.2f} / "
        f"{load1[2]:.2f} at the end; {a.players} players, drafted Travelers; {a.repeat} rounds of "
        f"{a.games:,} games ({a.search_games} for search), tiers interleaved",
        "",
        "| expansions | tier | games per CPU-s (median) | range | wall games/s (median) | / greedy per CPU-s "
        "(median of rounds) | range | end to end games/s |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for x in xsets:
        base = rounds.get((tiers[0], x))
        for t in tiers:
            rs = rounds[(t, x)]
            cpu = [c for c, _ in rs]
            wall = [w for _, w in rs]
            ratio = sorted(c / b[0] for (c, _), b in zip(rs, base or rs, strict=True))
            e2e = ""
            if a.e2e_games and not t.startswith("search"):
                start = run_cli(configs[(t, x)], 1, a)
                took = run_cli(configs[(t, x)], a.e2e_games, a)
                e2e = f"{a.e2e_games / took:,.0f} ({a.e2e_games:,} games, {start:.1f} s start-up)"
            lines.append(
                f"| {'+'.join(x) or 'none'} | {t} | {statistics.median(cpu):,.1f} | {min(cpu):,.1f}-"
                f"{max(cpu):,.1f} | {statistics.median(wall):,.1f} | {statistics.median(ratio):.3f} | "
                f"{ratio[0]:.3f}-{ratio[-1]:.3f} | {e2e} |"
            )
    text = "\n".join(lines)
    print(text)
    if a.out:
        a.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
