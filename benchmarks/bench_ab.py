"""A/B speed of two source trees in one run: is a change (a refactor, a new expansion) slower?

    .venv/bin/python benchmarks/bench_ab.py /path/to/before /path/to/after --games 200000 --rounds 5

Each tree is timed in its own subprocess (``PYTHONPATH=TREE``), rounds alternating A, B, A, B so a
change in the machine's load hits both alike. Before any timing, both trees must play the same
games: the result records of the first ``--check-games`` games are compared (a refactor that
changes behaviour is not a refactor; pass ``--no-check`` for a change that means to). Each round
plays the kernel (``play_games``, compilation never timed) on ``--games`` games of each config.
Prints a Markdown table: best and median games/s per tree and config, the ratio B / A of those, and
the median (and range) of each round's own ratio: rounds run A B, then B A, so a drift of the
machine's speed during the run cancels. With
``--cpu`` a rate is games per CPU-second of the child process (all engine threads), which other jobs
on a shared machine disturb much less than wall time.
A config may end in ``@N`` to play N games instead of ``--games`` (a slow tier, e.g. the search bot:
``--config players=4,travelers=draft,bots=search+expert+expert+expert@20``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, sys, time
import numpy as np
try:
    from sim.games.tokaido.engine import play_games
    from sim.games.tokaido.rules.config import GameConfig
except ImportError:  # trees from before the package layout
    from sim.engine import play_games
    from sim.config import GameConfig
spec, games, check, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
config = GameConfig.parse(spec)
rules = config.rules()
play_games(config, rules, 1, 0, min(64, max(games, check, 1)))  # compile or load the cache; never timed
if check:
    np.save(out, play_games(config, rules, 1, 0, check).records)
t, c = time.perf_counter(), time.process_time()
play_games(config, rules, 1, 0, games)
print(json.dumps({"rate": games / (time.perf_counter() - t), "cpu_rate": games / (time.process_time() - c)}))
"""

CONFIGS = (
    "players=4,travelers=draft,bots=greedy",
    "players=4,travelers=draft,bots=greedy,expansions=crossroads",
)


def games_of(spec: str, default: int) -> tuple[str, int]:
    """``SPEC@N``: N games of SPEC; a plain SPEC plays ``default``."""
    head, _, n = spec.rpartition("@")
    return (head, int(n)) if head and n.isdigit() else (spec, default)


def child(tree: Path, spec: str, games: int, check: int, out: str, key: str = "rate") -> float:
    spec, games = games_of(spec, games)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, spec, str(games), str(check), out],
        env=env,
        capture_output=True,
        text=True,
        cwd=tree,
    )
    if proc.returncode != 0:
        sys.exit(f"error: {tree} failed on {spec}: {proc.stderr.strip().splitlines()[-1:]}")
    return float(json.loads(proc.stdout.strip().splitlines()[-1])[key])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path, help="tree A (before)")
    ap.add_argument("b", type=Path, help="tree B (after)")
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--check-games", type=int, default=2000)
    ap.add_argument("--no-check", action="store_true", help="the trees are meant to play different games")
    ap.add_argument(
        "--config", action="append", help="config spec (repeatable; default: base and Crossroads)"
    )
    ap.add_argument(
        "--b-config",
        action="append",
        default=[],
        help="config timed in tree B only, in the same rounds (a feature A lacks, e.g. Matsuri)",
    )
    ap.add_argument(
        "--cpu",
        action="store_true",
        help="games per CPU-second of the process (all its threads) instead of per wall second: "
        "steadier on a machine other jobs share",
    )
    args = ap.parse_args()
    key = "cpu_rate" if args.cpu else "rate"
    configs = tuple(args.config or CONFIGS)
    import numpy as np

    rates: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for spec in configs:
            if not args.no_check:
                fa, fb = f"{tmp}/a.npy", f"{tmp}/b.npy"
                base, n = games_of(spec, args.check_games)
                check = min(args.check_games, n)
                child(args.a, base + "@1", 1, check, fa)
                child(args.b, base + "@1", 1, check, fb)
                ra, rb = np.load(fa), np.load(fb)
                common = [n for n in ra.dtype.names if n in (rb.dtype.names or ())]
                if any(not np.array_equal(ra[n], rb[n]) for n in common):
                    sys.exit(f"error: the trees play different games on {spec}; nothing timed")
            for r in range(args.rounds):
                # A B, then B A: a machine that speeds up or slows down over the run favours neither tree
                pair = (("A", args.a), ("B", args.b)) if r % 2 == 0 else (("B", args.b), ("A", args.a))
                for name, tree in pair:
                    rates.setdefault((spec, name), []).append(child(tree, spec, args.games, 0, "", key))
                for bspec in args.b_config if spec == configs[-1] else []:
                    rates.setdefault((bspec, "B"), []).append(child(args.b, bspec, args.games, 0, "", key))
    load = os.getloadavg()
    print(
        f"A = `{args.a}`, B = `{args.b}`; {args.games:,} games x {args.rounds} alternating rounds; "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {load[0]:.2f}; "
        f"{'games per CPU-second' if args.cpu else 'games per second (wall)'}"
    )
    print(
        "\n| config | A best | A median | B best | B median | B / A (best) | B / A (median) | B / A (paired) "
        "|"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for spec in configs:
        a, b = rates[(spec, "A")], rates[(spec, "B")]
        # each round's B over the same round's A, the two timed back to back: the median and its range
        paired = sorted(y / x for x, y in zip(a, b, strict=True))
        print(
            f"| {spec} | {max(a):,.0f} | {statistics.median(a):,.0f} | {max(b):,.0f} | "
            f"{statistics.median(b):,.0f} | {max(b) / max(a):.3f} | "
            f"{statistics.median(b) / statistics.median(a):.3f} | "
            f"{statistics.median(paired):.3f} ({paired[0]:.2f}-{paired[-1]:.2f}) |"
        )
    for spec in args.b_config:
        b = rates[(spec, "B")]
        print(f"| {spec} | – | – | {max(b):,.0f} | {statistics.median(b):,.0f} | – | – |")


if __name__ == "__main__":
    main()
