"""Instructions per game of source trees: a cost that the machine's load and clock cannot move.

    .venv/bin/python benchmarks/icount_ab.py /tmp/before . --games 2000 \
        --config players=4,travelers=draft,bots=greedy

On a shared machine timings drift by tens of percent within one run, so a 10% change cannot be
located by timing. Valgrind's ``callgrind`` counts the instructions the games execute instead:
the same count every run. Each tree plays ``--games`` games in one engine thread under valgrind,
counting starts after a warm-up (so compilation and imports are never counted) and stops when
the games end. Numba compiles for a generic x86-64 CPU (``NUMBA_CPU_NAME=generic``) in both the
warm-up outside valgrind and the counted run inside it, so valgrind loads the cache instead of
compiling under emulation (hours). The rules record is built once, outside the count, as a run
does (``sim.run.game``); the count includes the Python around the kernel (``play_games``) and the
table also gives the compiled code's own share.

Needs ``valgrind`` on the PATH. Each tree's first run compiles (minutes); later runs take a
minute or two.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import os, sys
try:
    from sim.games.tokaido import engine
    from sim.games.tokaido.rules.config import GameConfig
except ImportError:  # trees from before the games' plug-in layout
    try:
        from sim.run import engine
        from sim.games.tokaido.rules.config import GameConfig
    except ImportError:  # trees from before the package layout
        from sim import engine
        from sim.config import GameConfig
spec, games, count = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
config = GameConfig.parse(spec)
rules = config.rules()
ru = engine.rules_record(config, rules)  # built once per run (sim.run.game): not a cost per game
engine.rules_record = lambda *a, **k: ru  # older trees build it in every play_games call
engine.play_games(config, rules, 1, 0, 64, threads=1)  # compile or load the cache: never counted
if count:
    os.system(f"callgrind_control -i on {os.getpid()} > /dev/null")
engine.play_games(config, rules, 1, 0, games, threads=1)
if count:
    os.system(f"callgrind_control -i off {os.getpid()} > /dev/null")
"""


def count(tree: Path, spec: str, games: int, tmp: str) -> tuple[int, int]:
    """(all instructions, those in compiled code) of ``games`` games of ``spec`` in ``tree``."""
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "NUMBA_NUM_THREADS": "1",
        "NUMBA_CPU_NAME": "generic",
        "NUMBA_CPU_FEATURES": "",
    }
    warm = subprocess.run(
        [sys.executable, "-c", CHILD, spec, "8", "0"], env=env, cwd=tree, capture_output=True, text=True
    )
    if warm.returncode != 0:
        sys.exit(f"error: {tree} failed on {spec}: {warm.stderr.strip().splitlines()[-1:]}")
    out = f"{tmp}/cg.out"
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-c",
            CHILD,
            spec,
            str(games),
            "1",
        ],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    ann = subprocess.run(
        ["callgrind_annotate", "--threshold=100", "--inclusive=no", out],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    total = jit = 0
    for line in ann.splitlines():
        m = re.match(r"\s*([\d,]+) \(.*?\)\s+(.*)", line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in m.group(2):
            total = n
        elif m.group(2).startswith("???"):  # no symbol: code Numba compiled
            jit += n
    return total, jit


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trees", type=Path, nargs="+", help="source trees; ratios are to the first")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--config", action="append", help="config spec (repeatable; default: greedy 4p base)")
    args = ap.parse_args()
    configs = args.config or ["players=4,travelers=draft,bots=greedy"]
    print(f"{args.games:,} games per tree and config, 1 engine thread, instructions counted by callgrind\n")
    print("| config | tree | instructions per game | compiled code per game | / first tree (all, compiled) |")
    print("|---|---|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for spec in configs:
            first: tuple[int, int] | None = None
            for tree in args.trees:
                total, jit = count(tree, spec, args.games, tmp)
                first = first or (total, jit)
                print(
                    f"| {spec} | `{tree}` | {total / args.games:,.0f} | {jit / args.games:,.0f} | "
                    f"{total / first[0]:.3f}, {jit / max(first[1], 1):.3f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
