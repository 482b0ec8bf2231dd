"""Two weight vectors of one tier against each other: is a change of a bot's values an improvement?

The ladder (``sim.bots.ladder.play_pair``) pits tiers; a duel pits two weight vectors of the same
tier (the same code), e.g. the expert with and without a new valuation switched on by its weights.
The design is the ladder's: the players are split between A and B (N/2 each, alternating at odd N),
the split rotates over blocks of deals and every deal is played twice with the seats swapped, so
both hold every seat equally often on the same piles and Travelers.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from sim.bots.ladder import PairResult, luce_elo, score_games, splits, wilson
from sim.rules.config import GameConfig
from sim.run import engine, pace


def play_duel(
    config: GameConfig, wa: np.ndarray, wb: np.ndarray, deals: int, seed: int, threads: int | None,
    names: tuple[str, str] = ("A", "B"), advance: Callable[[int], None] = lambda k: None,
) -> tuple[PairResult, float]:
    """Weights ``wa`` against ``wb`` (each ``W_N`` long) in ``config`` (its bots name the tier);
    returns the result and the games per second of the whole duel."""
    n = config.n_players
    rules = config.rules()
    engine.play_games(config, rules, seed, 0, 1, threads=threads)  # compile / load outside the clock
    share: list[np.ndarray] = []
    pair: list[np.ndarray] = []
    sa: list[np.ndarray] = []
    sb: list[np.ndarray] = []
    pats = splits(n)
    bounds = np.linspace(0, deals, len(pats) + 1).astype(int)
    t0 = time.perf_counter()
    for r, pat in enumerate(pats):
        start, count = int(bounds[r]), int(bounds[r + 1] - bounds[r])
        if count == 0:
            continue
        for flip in (False, True):
            is_a = [x != flip for x in pat]
            weights = np.stack([wa if x else wb for x in is_a])
            batch = pace.play_games(config, rules, seed, start, count, threads, advance, weights=weights)
            for lst, v in zip((share, pair, sa, sb), score_games(batch.records, is_a), strict=True):
                lst.append(v)
    rate = 2 * deals / (time.perf_counter() - t0)
    s, p = np.concatenate(share), np.concatenate(pair)
    lo, hi = wilson(float(s.sum()), len(s))
    res = PairResult(
        players=n, tier_a=names[0], tier_b=names[1], games=len(s), win_a=float(s.mean()), win_lo=lo, win_hi=hi,
        pair_a=float(p.mean()), elo=luce_elo(float(s.mean()), n), elo_lo=luce_elo(lo, n), elo_hi=luce_elo(hi, n),
        score_a=float(np.concatenate(sa).mean()), score_b=float(np.concatenate(sb).mean()),
    )
    return res, rate
