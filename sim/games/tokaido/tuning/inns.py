"""Players' states at each Inn where everyone has gathered, and the final scores (the search bot's evaluation
data)."""

from __future__ import annotations

import numpy as np

from kernels.tokaido.core import enums as E
from kernels.tokaido.core.weights import EV_NF
from kernels.tokaido.play import inn_states_nb
from sim.games.tokaido.engine import rules_record
from sim.games.tokaido.rules.config import GameConfig

INNS = 3  # Inns between the start and the end of the road (base board)


def inn_states(
    config: GameConfig, seed: int, start: int, count: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(feats, now, final, trav)``: ``feats[g, k, p]`` player p's evaluation features at Inn k + 1
    (``kernels.tokaido.search.ev_features_nb``), ``now[g, k, p]`` their score had the journey ended there,
    ``final[g, p]`` their final score, ``trav[g, p]`` their Traveler
    (``kernels.tokaido.play.inn_states_nb``)."""
    ru = rules_record(config, config.rules())
    feats = np.zeros((count, INNS, E.MAX_TRAV, EV_NF))
    now = np.zeros((count, INNS, E.MAX_TRAV))
    final = np.zeros((count, E.MAX_TRAV))
    trav = np.full((count, E.MAX_TRAV), -1, np.int64)
    with np.errstate(over="ignore"):
        inn_states_nb(np.int64(seed), np.int64(start), np.int64(count), ru, feats, now, final, trav)
    n = config.n_players
    return feats[:, :, :n], now[:, :, :n], final[:, :n], trav[:, :n]
