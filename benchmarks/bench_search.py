"""The search bot against the expert (strength) and its cost (games per CPU-second), one thread.

``duel``: search in half the seats, the expert in the others (with ``--against``: the search with other
weights), the ladder's design (split rotated, every deal played twice with the seats swapped,
``sim.games.tokaido.tuning.ladder.mirrored_blocks``); the search weights may be changed with ``KEY=VALUE``
(``S_KEY``: ``horizon=0 prior=0``...). ``speed``: one
search player and the expert in the other seats (``one``), or search everywhere (``all``).
Figures are per CPU-second of this process (``time.process_time``): two idle cores give twice.

    .venv/bin/python benchmarks/bench_search.py duel --players 4 --deals 500 --seed 11
    .venv/bin/python benchmarks/bench_search.py duel --players 4 --deals 150 --seed 7 horizon=0 prior=0
    .venv/bin/python benchmarks/bench_search.py duel --players 5 --deals 500 --against race=0,gate=0
    .venv/bin/python benchmarks/bench_search.py speed --players 4 --games 100 --seats one
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernels.tokaido.core import weights as Wt  # noqa: E402
from sim.games.tokaido import bots, engine  # noqa: E402
from sim.games.tokaido.rules.config import GameConfig  # noqa: E402
from sim.games.tokaido.tuning.ladder import mirrored_blocks, pair_result, score_games  # noqa: E402


def seat_weights(
    config: GameConfig,
    over: dict[str, float],
    is_a: tuple[bool, ...] = (),
    against: dict[str, float] | None = None,
) -> np.ndarray:
    """Each seat's weights; a search seat's budget changed by ``over`` (by ``against`` in the seats not in
    ``is_a``, when given)."""
    rules = config.rules()
    ws = []
    for i, b in enumerate(config.bot_names()):
        w = bots.bot_weights(b, rules, config)
        if b == "search":
            change = over if against is None or is_a[i] else against
            for k, v in change.items():
                w[getattr(Wt.W, "S_" + k.upper())] = v
        ws.append(w)
    return np.stack(ws)


def duel(
    n: int,
    deals: int,
    seed: int,
    xp: tuple[str, ...],
    over: dict[str, float],
    against: dict[str, float] | None,
) -> str:
    """The search (``over``) against the expert, or against the search with the budget ``against``."""
    parts = []
    c0 = time.process_time()
    for start, count, is_a in mirrored_blocks(n, deals):
        names = tuple("search" if x or against is not None else "expert" for x in is_a)
        config = GameConfig(n_players=n, bots=names, expansions=xp)
        ws = seat_weights(config, over, tuple(is_a), against)
        batch = engine.play_games(config, config.rules(), seed, start, count, threads=1, weights=ws)
        parts.append(score_games(batch.records, is_a))
    r = pair_result(n, "search", "expert" if against is None else f"search {against}", parts)
    cpu = time.process_time() - c0
    vs = "" if against is None else f" against {against}"
    return (
        f"{n}p {'+'.join(xp) or 'base'} {over}{vs}: {r.games} games, win {r.win_a:.3f} "
        f"({r.win_lo:.3f}-{r.win_hi:.3f}), "
        f"Elo {r.elo:+.0f} ({r.elo_lo:+.0f} to {r.elo_hi:+.0f}), score {r.score_a:.1f} / {r.score_b:.1f}, "
        f"{r.games / cpu:.2f} games per CPU-second"
    )


def speed(n: int, games: int, seats: str, over: dict[str, float]) -> str:
    bots = ("search",) * n if seats == "all" else ("search",) + ("expert",) * (n - 1)
    config = GameConfig(n_players=n, bots=bots)
    rules = config.rules()
    ws = seat_weights(config, over)
    engine.play_games(config, rules, 5, 0, 1, threads=1, weights=ws)  # compile / load outside the clock
    c0 = time.process_time()
    engine.play_games(config, rules, 5, 0, games, threads=1, weights=ws)
    cpu = time.process_time() - c0
    return (
        f"{seats} {n}p {over}: {games} games, {games / cpu:.2f} games per CPU-second "
        f"({cpu * 1000 / games:.0f} ms/game)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("duel", "speed"))
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=500, help="duel: deals (each played twice)")
    ap.add_argument("--games", type=int, default=100, help="speed: games")
    ap.add_argument("--seats", choices=("one", "all"), default="one", help="speed: search seats")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--expansions", default="", help="duel: e.g. crossroads")
    ap.add_argument(
        "--against",
        default=None,
        help="duel: the search with these weights (KEY=VALUE,...) instead of the expert",
    )
    ap.add_argument("over", nargs="*", help="search weights KEY=VALUE (S_KEY)")
    a = ap.parse_intermixed_args()
    over = {k: float(v) for k, v in (x.split("=", 1) for x in a.over)}
    against = (
        None
        if a.against is None
        else {k: float(v) for k, v in (x.split("=", 1) for x in a.against.split(","))}
    )
    xp = tuple(x for x in a.expansions.split(",") if x)
    with np.errstate(over="ignore"):
        print(
            duel(a.players, a.deals, a.seed, xp, over, against)
            if a.what == "duel"
            else speed(a.players, a.games, a.seats, over)
        )


if __name__ == "__main__":
    main()
