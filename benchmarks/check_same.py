"""Do two source trees play the same games? Result records AND action logs, per configuration.

An optimisation of a bot must not change one decision: every decision is in the action log,
so identical logs (and records) on thousands of games are the proof.

    .venv/bin/python benchmarks/check_same.py /tmp/before . --games 2000 \
        --config players=4,travelers=draft,bots=expert --config players=4,bots=search@20

Each tree runs in its own subprocess (``PYTHONPATH=TREE``); exit code 1 on any difference. A config may end
in ``@N`` to play N games instead of ``--games`` (a slow tier: the search).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import sys
import numpy as np
from sim.games.tokaido.engine import play_games
from sim.games.tokaido.rules.config import GameConfig
spec, games, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
config = GameConfig.parse(spec)
b = play_games(config, config.rules(), seed, 0, games, log=True)
np.savez(out, records=b.records, events=b.events, n_events=b.n_events)
"""

CONFIGS = (
    "players=4,travelers=draft,bots=expert",
    "players=4,travelers=draft,bots=expert,expansions=crossroads",
    "players=4,travelers=draft,bots=expert,expansions=crossroads+matsuri",
)


def run(tree: Path, spec: str, games: int, seed: int, out: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, spec, str(games), str(seed), out],
        env=env,
        capture_output=True,
        text=True,
        cwd=tree,
    )
    if proc.returncode != 0:
        sys.exit(f"error: {tree} failed on {spec}: {proc.stderr.strip().splitlines()[-1:]}")


def main() -> int:
    import numpy as np

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--config", action="append", help="config spec (repeatable; default: expert, 4p, 3 sets)")
    args = ap.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for entry in args.config or CONFIGS:
            spec, _, n = entry.partition("@")
            games = int(n) if n else args.games
            fa, fb = f"{tmp}/a.npz", f"{tmp}/b.npz"
            run(args.a, spec, games, args.seed, fa)
            run(args.b, spec, games, args.seed, fb)
            ra, rb = np.load(fa), np.load(fb)
            rec_a, rec_b = ra["records"], rb["records"]
            common = [n for n in rec_a.dtype.names if n in (rec_b.dtype.names or ())]
            same_rec = all(np.array_equal(rec_a[n], rec_b[n]) for n in common)
            same_log = np.array_equal(ra["n_events"], rb["n_events"]) and np.array_equal(
                ra["events"], rb["events"]
            )
            ok = same_rec and same_log
            bad += not ok
            print(
                f"{spec}: {games} games, records {'identical' if same_rec else 'DIFFER'}, "
                f"action logs {'identical' if same_log else 'DIFFER'}"
            )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
