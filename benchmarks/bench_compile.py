"""The first compile's cost: CPU-seconds to compile the Tokaido kernels from an empty cache, per source tree.

    .venv/bin/python benchmarks/bench_compile.py /tmp/before .

Each tree runs in its own subprocess (``PYTHONPATH=TREE``, one engine thread) with an empty
``NUMBA_CACHE_DIR`` of its own, and plays 4 greedy and 4 expert games at 4 players (one kernel
serves every tier, so this compiles all of it). It prints the CPU-seconds of the import and of the
compile and play: what a fresh clone or a changed kernel costs before the first game. CPU time,
not wall time, so other jobs on a shared machine disturb it little.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import os, time
c0 = time.process_time()
if os.path.exists("sim/games/tokaido/engine.py"):
    from sim.games.tokaido import engine
    from sim.games.tokaido.rules.config import GameConfig
else:  # trees from before the games' plug-in layout
    from sim.run import engine
    from sim.rules.config import GameConfig
assert engine.__file__.startswith(os.getcwd()), f"imported {engine.__file__}, not the tree's"
c1 = time.process_time()
for spec in ("players=4,travelers=draft,bots=greedy", "players=4,travelers=draft,bots=expert"):
    config = GameConfig.parse(spec)
    engine.play_games(config, config.rules(), 1, 0, 4, threads=1)
print(f"{c1 - c0:.1f} {time.process_time() - c1:.1f}")
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", nargs="+", type=Path)
    args = ap.parse_args()
    print("| tree | import (CPU-s) | compile and 8 games (CPU-s) |\n|---|---:|---:|")
    for tree in args.trees:
        tree = tree.resolve()
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": cache, "NUMBA_NUM_THREADS": "1"}
            out = subprocess.run(
                [sys.executable, "-c", CHILD], env=env, cwd=tree, capture_output=True, text=True, check=True
            )
        imp, comp = out.stdout.split()
        print(f"| `{tree}` | {imp} | {comp} |")


if __name__ == "__main__":
    main()
