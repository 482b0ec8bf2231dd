"""A tier with some weights changed against its shipped weights: what a weight earns, in Elo.

Both sides start from the configuration's shipped weights of ``--tier`` (the expert's:
``sim/games/tokaido/data/bots/expert-*.toml``); side A has each ``KEY=VALUE`` changed, a key named as in a
weight file (``deny``, ``leave``: ``[features]``; ``xf.coin_use``: an ``[expert]`` key). The duel is
``sim.games.tokaido.tuning.duel.play_duel``: the seats split and swapped on the same deals, so the Elo
interval is narrow (about +-5 Elo at 10,000 deals).

    .venv/bin/python benchmarks/duel_weights.py --players 4 --deals 10000 deny=0 leave=0
    .venv/bin/python benchmarks/duel_weights.py --players 3 --expansions crossroads xf.coin_use=0.5
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.games.tokaido.bots import bot_weights, expert_index, feature_index  # noqa: E402
from sim.games.tokaido.rules.config import ConfigError, GameConfig  # noqa: E402
from sim.games.tokaido.tuning.duel import play_duel  # noqa: E402


def weight_index(key: str) -> int:
    """``xf.NAME``: an ``[expert]`` key; otherwise a ``[features]`` key."""
    return expert_index(key[3:]) if key.startswith("xf.") else feature_index(key)


def duel(
    tier: str, n: int, deals: int, seed: int, xp: tuple[str, ...], change: dict[str, float], threads: int
) -> str:
    config = GameConfig(n_players=n, bots=(tier,) * n, expansions=xp)
    wb = bot_weights(tier, config.rules(), config)
    wa = wb.copy()
    for k, v in change.items():
        wa[weight_index(k)] = v
    c0 = time.process_time()
    r, _ = play_duel(config, wa, wb, deals, seed, threads, names=("changed", "shipped"))
    cpu = time.process_time() - c0
    return (
        f"{n}p {'+'.join(xp) or 'base'} {tier} {change}: {r.games} games, win {r.win_a:.4f} "
        f"({r.win_lo:.4f}-{r.win_hi:.4f}), Elo {r.elo:+.1f} ({r.elo_lo:+.1f} to {r.elo_hi:+.1f}), "
        f"score {r.score_a:.2f} / {r.score_b:.2f}, {r.games / cpu:,.0f} games per CPU-second"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tier", default="expert", help="the tier whose shipped weights both sides start from")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=10000, help="deals, each played twice (seats swapped)")
    ap.add_argument("--expansions", default="none", help="none, crossroads, crossroads+matsuri, ...")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("change", nargs="+", help="KEY=VALUE: a weight of side A")
    a = ap.parse_args()
    change = {}
    for kv in a.change:
        k, sep, v = kv.partition("=")
        if not sep:
            ap.error(f"'{kv}' is not KEY=VALUE (e.g. deny=0)")
        try:
            weight_index(k)
            change[k] = float(v)
        except (ConfigError, ValueError) as e:  # an unknown key names the known ones
            ap.error(f"'{kv}': {e}")
    xp = () if a.expansions == "none" else tuple(a.expansions.split("+"))
    print(duel(a.tier, a.players, a.deals, a.seed, xp, change, a.threads), flush=True)


if __name__ == "__main__":
    main()
