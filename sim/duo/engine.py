"""Play Duo games with the kernels: validate, allocate, call (the Duo twin of ``sim.run.engine.play_games``)."""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from kernels.duo.enums import EV_FIELDS, MAX_EVENTS
from kernels.duo.play import play_batch_nb
from kernels.duo.state import RESULT_DTYPE
from sim.dataset.manifest import MAX_SEED
from sim.duo.rules import DuoRules
from sim.errors import UserError


@dataclass
class DuoBatch:
    records: np.ndarray  # RESULT_DTYPE, 2 rows per game, game-major
    events: np.ndarray | None  # int16 (count, MAX_EVENTS, 6) when log=True
    n_events: np.ndarray | None

    def game_events(self, i: int) -> np.ndarray:
        assert self.events is not None and self.n_events is not None, "played without log=True"
        return self.events[i, : self.n_events[i]]

    def game_records(self, i: int) -> np.ndarray:
        return self.records[2 * i : 2 * i + 2]


def play_duo_games(rules: DuoRules, seed: int, start: int, count: int, bots: tuple[str, str] = ("greedy", "greedy"),
                   log: bool = False, threads: int | None = None, weights: np.ndarray | None = None,
                   ru: np.ndarray | None = None, nlog: np.ndarray | None = None) -> DuoBatch:
    """Play games ``start .. start+count-1`` of the run seeded ``seed``; game i depends only on (seed, i).

    ``ru``: the ``rules.record`` to use (built once by callers that play many batches).
    ``nlog`` (int32, at least ``count``): each game's log length is written as it ends
    (progress: ``sim.run.pace`` fills it with ``UNFINISHED`` first).
    """
    if not 0 <= seed <= MAX_SEED:
        raise UserError(f"--seed must be between 0 and {MAX_SEED}, got {seed}")
    if start < 0 or count < 0:
        raise UserError(f"game indices must be non-negative (start {start}, count {count})")
    if ru is None:
        ru = rules.record(bots, log, weights)
    out = np.zeros(count * 2, RESULT_DTYPE)
    logs = np.zeros((max(count, 1) if log else 1, MAX_EVENTS, EV_FIELDS), np.int16)
    if nlog is None or len(nlog) < max(count, 1):
        nlog = np.zeros(max(count, 1), np.int32)
    if threads is not None:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))  # type: ignore[attr-defined]
    with np.errstate(over="ignore"):
        play_batch_nb(np.int64(seed), np.int64(start), np.int64(count), ru, out, logs, nlog)
    if log and count and (nlog[:count] < 0).any():
        raise RuntimeError(f"a Duo action log overflowed its {MAX_EVENTS} rows; raise kernels.duo.enums.MAX_EVENTS")
    return DuoBatch(out, logs[:count] if log else None, nlog[:count] if log else None)
