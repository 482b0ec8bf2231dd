"""Play Duo games with the kernels: ``play_duo_games`` (the shared engine call of
``sim.run.game.play_batch``)."""

from __future__ import annotations

import numpy as np

from kernels.duo.enums import EV_FIELDS, MAX_EVENTS
from kernels.duo.play import play_batch_nb
from kernels.duo.state import RESULT_DTYPE
from sim.games.duo.rules import DuoRules
from sim.run.game import Batch, play_batch


def play_duo_games(
    rules: DuoRules,
    seed: int,
    start: int,
    count: int,
    bots: tuple[str, str] = ("greedy", "greedy"),
    log: bool = False,
    threads: int | None = None,
    weights: np.ndarray | None = None,
    ru: np.ndarray | None = None,
    nlog: np.ndarray | None = None,
) -> Batch:
    """Play games ``start .. start+count-1`` of the run seeded ``seed``; game i depends only on (seed, i).

    ``ru``: the ``rules.record`` to use (built once by callers that play many batches).
    ``nlog`` (int32, at least ``count``): each game's log length is written as it ends
    (progress: ``sim.run.pace`` fills it with ``UNFINISHED`` first).
    """
    if ru is None:
        ru = rules.record(bots, log, weights)
    return play_batch(
        play_batch_nb,
        ru,
        seed,
        start,
        count,
        n_players=2,
        record_dtype=RESULT_DTYPE,
        log_shape=(MAX_EVENTS, EV_FIELDS),
        log=log,
        threads=threads,
        nlog=nlog,
    )
