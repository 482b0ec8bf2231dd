"""The leg-card values: a tier with them against the same tier without, and both speeds.

"Without" is the tier's weight vector with ``m_leg_stop = m_leg_share = 0``: the same code, the
move choice and the keep decision as they were before (``kernels/tokaido/bots/matsuri_leg.py``). A duel
(``sim.games.tokaido.tuning.duel``: seats split and swapped, the same deals for both) reports A's win share
with its
Wilson interval and the Elo gap; then self-play speeds of both vectors, interleaved.

    .venv/bin/python benchmarks/bench_matsuri_leg.py --tier expert --players 4 --deals 10000 --threads 2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernels.tokaido.core.weights import W
from sim.games.tokaido import bots, engine
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.tuning.duel import play_duel


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tier", default="expert")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--expansions", default="crossroads,matsuri")
    ap.add_argument("--deals", type=int, default=10000, help="deals, each played twice (seats swapped)")
    ap.add_argument("--speed-games", type=int, default=10000, help="self-play games per speed timing")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args(argv)
    config = GameConfig(n_players=a.players, bots=(a.tier,), expansions=tuple(a.expansions.split(",")))
    rules = config.rules()
    new = bots.bot_weights(a.tier, rules, config)
    old = new.copy()
    old[W.M_LEG_STOP] = old[W.M_LEG_SHARE] = 0.0
    res, rate = play_duel(
        config, new, old, a.deals, a.seed, a.threads, names=(f"{a.tier} (leg values)", a.tier)
    )
    print(
        f"{a.players}p {a.expansions} {res.tier_a} vs {res.tier_b}: {res.games} games, win share "
        f"{res.win_a:.4f} "
        f"({res.win_lo:.4f}-{res.win_hi:.4f}), Elo {res.elo:+.1f} ({res.elo_lo:+.1f} to {res.elo_hi:+.1f}), "
        f"pairwise {res.pair_a:.4f}, mean scores {res.score_a:.2f} / {res.score_b:.2f}; {rate:,.0f} games/s"
    )
    best = {"old": 0.0, "new": 0.0}
    for _ in range(a.repeat):
        for name, w in (("old", old), ("new", new)):
            ws = np.stack([w] * a.players)
            t = time.perf_counter()
            engine.play_games(config, rules, a.seed, 0, a.speed_games, threads=a.threads, weights=ws)
            best[name] = max(best[name], a.speed_games / (time.perf_counter() - t))
    print(
        f"self-play speed, best of {a.repeat} x {a.speed_games} games: without {best['old']:,.0f} games/s, "
        f"with {best['new']:,.0f} games/s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
