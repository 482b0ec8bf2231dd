"""Play games with the kernels: validate, seed, allocate, call (the QuantEcon split).

``play_games`` is the one entry point for the runner, the CLI, the referee
checks and the tests. Game ``i`` of a run depends only on (seed, i), so any
chunking and any thread count give the same games.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from kernels.core import enums as E
from kernels.core.records import RESULT_DTYPE
from kernels.core.state import RULES_DTYPE
from kernels.play import UNFINISHED, play_batch_nb
from sim.bots import bot_rows
from sim.rules.config import ConfigError, GameConfig
from sim.rules.tables import Rules

MAX_SEED = 2**63 - 1
MAX_GAME = 2**63 - 2  # the largest game index (int64, and start + count must fit too)


@dataclass
class GameBatch:
    records: np.ndarray  # RESULT_DTYPE, count * n_players rows, game-major, player-minor
    events: np.ndarray | None  # int16 (count, MAX_EVENTS, 6) when log=True
    n_events: np.ndarray | None  # int32 (count,)

    def game_events(self, i: int) -> np.ndarray:
        """The log of the batch's i-th game, trimmed to its events."""
        assert self.events is not None and self.n_events is not None, "played without log=True"
        return self.events[i, : self.n_events[i]]


def win_share(records: np.ndarray) -> np.ndarray:
    """Each row's share of its game's win: 1 for a sole winner, 1/k in a k-way tie, else 0.

    The one definition of a win that every table, tuner and check counts (``win`` in the dataset).
    """
    return np.where(records["rank"] == 1, 1.0 / np.maximum(records["win_k"], 1), 0.0)


def rules_record(config: GameConfig, rules: Rules, log: bool = False, weights: np.ndarray | None = None) -> np.ndarray:
    """The kernels' one-element ``RULES_DTYPE`` array: rules tables, configuration, bots (``sim.bots.bot_rows``)."""
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
) -> GameBatch:
    """Play games ``start .. start+count-1`` of the run seeded ``seed``.

    ``weights`` (n_players x ``W_N``) replaces the players' bot weights (tuning, tests).
    ``ru`` is the ``rules_record`` to use (built once by callers that play many batches).
    ``stop`` (int64[1]): another thread sets ``stop[0] = 1`` to end the call early; the
    batch then holds only the games before the first unfinished one. ``nlog`` (int32[count],
    optional) receives each game's log length as it ends, ``UNFINISHED`` before: progress.
    """
    if not 0 <= seed <= MAX_SEED:
        raise ConfigError(f"--seed must be between 0 and {MAX_SEED}, got {seed}")
    if start < 0 or count < 0:
        raise ConfigError(f"game indices must be non-negative (start {start}, count {count})")
    if start > MAX_GAME or start + count - 1 > MAX_GAME:
        raise ConfigError(f"game indices go up to {MAX_GAME:,} (a 64-bit index), not {start + count - 1:,}")
    if ru is None:
        ru = rules_record(config, rules, log, weights)
    n = config.n_players
    out = np.zeros(count * n, RESULT_DTYPE)
    logs = np.zeros((max(count, 1) if log else 1, E.MAX_EVENTS, E.EV_FIELDS), np.int16)
    if nlog is None or len(nlog) < max(count, 1):
        nlog = np.empty(max(count, 1), np.int32)
    nlog[:] = UNFINISHED
    flag = np.zeros(1, np.int64) if stop is None else stop
    if threads is not None:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))  # type: ignore[attr-defined]
    with np.errstate(over="ignore"):  # splitmix64 wraps on purpose (pure-Python mode)
        play_batch_nb(np.int64(seed), np.int64(start), np.int64(count), ru, out, logs, nlog, flag)
    if flag[0]:  # stopped: keep the games before the first unfinished one
        count = int(np.argmax(nlog[:count] == UNFINISHED)) if (nlog[:count] == UNFINISHED).any() else count
        out = out[: count * n]
    if log and count and (nlog[:count] < 0).any():
        raise RuntimeError(f"an action log overflowed its {E.MAX_EVENTS} rows; raise enums.MAX_EVENTS")
    return GameBatch(out, logs[:count] if log else None, nlog[:count].copy() if log else None)
