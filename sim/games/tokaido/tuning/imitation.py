"""The search's move decisions, recorded, and the heuristic's values of them
(``sim/games/tokaido/tuning/imitate.py`` fits on them).

``record`` plays search self-play games (``kernels.tokaido.imitate.search_states_nb``) in chunks of
``CHUNK`` games on a thread pool; a game's record depends only on (seed, game index), so the
threads and the chunking never change what is recorded. ``Positions.values`` gives, for one
weight vector, every recorded candidate's value (``kernels.tokaido.imitate.move_values_nb``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from kernels.tokaido.core.state import PUB_DTYPE
from kernels.tokaido.imitate import META_N, move_values_nb, search_states_nb
from sim.games.tokaido.engine import rules_record
from sim.games.tokaido.rules.config import GameConfig

CHUNK = 25  # games per kernel call
DECISIONS_PER_PLAYER = 40  # room per player and game (a player has at most ~25 move decisions)
HOLD_OUT = 5  # games with index % HOLD_OUT == 0 are held out of a fit
WORK = 64  # scratch records of the values kernel (chunks of positions)


@dataclass
class Positions:
    """Recorded search decisions: public records, ``meta`` rows (``kernels.tokaido.imitate``), the rules
    record."""

    states: np.ndarray
    meta: np.ndarray
    rules: np.ndarray

    @property
    def choice(self) -> np.ndarray:
        return self.meta[:, 3]

    @property
    def held_out(self) -> np.ndarray:
        return self.meta[:, 4] % HOLD_OUT == 0

    def values(self, w: np.ndarray, work: np.ndarray | None = None) -> np.ndarray:
        """``vals[r, k]``: the heuristic's value with weights ``w`` (every seat) of candidate k at position
        r."""
        ru = self.rules.copy()
        ru[0]["botw"][:] = w
        vals = np.empty((len(self.states), max(1, int(self.meta[:, 2].max(initial=1)))))
        move_values_nb(
            self.states,
            self.meta,
            len(self.states),
            ru,
            np.zeros(WORK, PUB_DTYPE) if work is None else work,
            vals,
        )
        return vals


def record(
    config: GameConfig,
    weights: np.ndarray,
    games: int,
    seed: int,
    threads: int | None = None,
    advance: Callable[[int], None] = lambda k: None,
) -> Positions:
    """The search's move decisions in games ``0 .. games-1`` of ``config`` (bots: search), ``weights`` per
    seat."""
    ru = rules_record(config, config.rules(), weights=weights)
    n = config.n_players

    def chunk(start: int) -> tuple[np.ndarray, np.ndarray]:
        count = min(CHUNK, games - start)
        cap = count * n * DECISIONS_PER_PLAYER
        states = np.zeros(cap, PUB_DTYPE)
        meta = np.zeros((cap, META_N), np.int64)
        r = search_states_nb(np.int64(seed), np.int64(start), np.int64(count), ru, states, meta)
        advance(count)
        return states[:r], meta[:r]

    with ThreadPoolExecutor(threads or os.cpu_count() or 1) as ex:
        parts = list(ex.map(chunk, range(0, games, CHUNK)))
    return Positions(np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]), ru)
