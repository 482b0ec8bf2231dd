"""Play games with the kernels: validate, seed, allocate, call (the QuantEcon split).

``play_games`` is the one entry point for the runner, the CLI, the referee
checks and the tests. Game ``i`` of a run depends only on (seed, i), so any
chunking and any thread count give the same games.
"""

from __future__ import annotations

import numpy as np

from kernels.tokaido.core import enums as E
from kernels.tokaido.core.records import RESULT_DTYPE
from kernels.tokaido.core.state import RULES_DTYPE
from kernels.tokaido.play import play_batch_nb
from sim.games.tokaido.bots import bot_rows
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules
from sim.run.game import Batch, play_batch


def rules_record(
    config: GameConfig, rules: Rules, log: bool = False, weights: np.ndarray | None = None
) -> np.ndarray:
    """The kernels' one-element ``RULES_DTYPE`` array: rules tables, configuration, bots
    (``sim.games.tokaido.bots.bot_rows``)."""
    ru = np.zeros(1, RULES_DTYPE)
    for key, arr in rules.tables().items():
        ru[0][key][tuple(slice(0, k) for k in arr.shape)] = arr
    ru[0]["cfg"] = config.cfg_array(rules, log=log)
    bot_rows(ru, config, rules, weights)
    return ru


def play_games(
    config: GameConfig,
    rules: Rules,
    seed: int,
    start: int,
    count: int,
    log: bool = False,
    threads: int | None = None,
    weights: np.ndarray | None = None,
    ru: np.ndarray | None = None,
    stop: np.ndarray | None = None,
    nlog: np.ndarray | None = None,
) -> Batch:
    """Play games ``start .. start+count-1`` of the run seeded ``seed``.

    ``weights`` (n_players x ``W_N``) replaces the players' bot weights (tuning, tests).
    ``ru`` is the ``rules_record`` to use (built once by callers that play many batches).
    ``stop`` (int64[1]): another thread sets ``stop[0] = 1`` to end the call early; the
    batch then holds only the games before the first unfinished one. ``nlog`` (int32[count],
    optional) receives each game's log length as it ends, ``UNFINISHED`` before: progress.
    """
    if ru is None:
        ru = rules_record(config, rules, log, weights)
    return play_batch(
        play_batch_nb,
        ru,
        seed,
        start,
        count,
        n_players=config.n_players,
        record_dtype=RESULT_DTYPE,
        log_shape=(E.MAX_EVENTS, E.EV_FIELDS),
        log=log,
        threads=threads,
        stop=np.zeros(1, np.int64) if stop is None else stop,
        nlog=nlog,
    )
