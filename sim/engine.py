"""STUB (replaced by the real engine): play games and return result records."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernels import enums as E
from kernels.records import RESULT_DTYPE
from sim.config import GameConfig
from sim.rules import Rules


@dataclass
class GameBatch:
    records: np.ndarray  # RESULT_DTYPE, count * n_players rows, game-major, player-minor
    events: np.ndarray | None  # int16 (count, MAX_EVENTS, 6) when log=True
    n_events: np.ndarray | None  # int32 (count,)


def play_games(
    config: GameConfig, rules: Rules, seed: int, start: int, count: int, log: bool = False,
    threads: int | None = None,
) -> GameBatch:
    n = config.n_players
    rec = np.zeros(count * n, RESULT_DTYPE)
    rng = np.random.default_rng([seed, start])
    rec["game"] = np.repeat(np.arange(start, start + count), n)
    rec["player"] = np.tile(np.arange(n), count)
    rec["seat"] = np.concatenate([rng.permutation(n) for _ in range(count)]) if count else []
    rec["traveler"] = rng.integers(0, len(rules.travelers), count * n)
    rec["alt_traveler"] = -1
    rec["score"] = rng.integers(30, 90, count * n)
    rec["rank"] = 1
    rec["win_k"] = 1
    ev = np.full((count, E.MAX_EVENTS, E.EV_FIELDS), -1, np.int16) if log else None
    ne = np.zeros(count, np.int32) if log else None
    return GameBatch(rec, ev, ne)
