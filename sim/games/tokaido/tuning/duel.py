"""Two weight vectors of one tier against each other: is a change of a bot's values an improvement?

The ladder (``sim.games.tokaido.tuning.ladder.play_pair``) pits tiers; a duel pits two weight vectors of the
same
tier (the same code), e.g. the expert with and without a new valuation switched on by its weights.
The design is the ladder's: the players are split between A and B (N/2 each, alternating at odd N),
the split rotates over blocks of deals and every deal is played twice with the seats swapped, so
both hold every seat equally often on the same piles and Travelers.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from sim.games.tokaido import engine
from sim.games.tokaido.game import TokaidoGame
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.tuning.ladder import PairResult, mirrored_blocks, pair_result, score_games
from sim.run import pace


def play_duel(
    config: GameConfig,
    wa: np.ndarray,
    wb: np.ndarray,
    deals: int,
    seed: int,
    threads: int | None,
    names: tuple[str, str] = ("A", "B"),
    advance: Callable[[int], None] = lambda k: None,
) -> tuple[PairResult, float]:
    """Weights ``wa`` against ``wb`` (each ``W_N`` long) in ``config`` (its bots name the tier);
    returns the result and the games per second of the whole duel."""
    n = config.n_players
    rules = config.rules()
    engine.play_games(config, rules, seed, 0, 1, threads=threads)  # compile / load outside the clock
    parts = []
    t0 = time.perf_counter()
    for start, count, is_a in mirrored_blocks(n, deals):
        weights = np.stack([wa if x else wb for x in is_a])
        batch = pace.play(TokaidoGame(config, rules, weights), seed, start, count, threads, advance)
        parts.append(score_games(batch.records, is_a))
    rate = 2 * deals / (time.perf_counter() - t0)
    return pair_result(n, names[0], names[1], parts), rate
