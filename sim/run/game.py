"""What the runner needs of a game (``Game``), what a game's engine returns (``Batch``), and the
one engine call every game makes (``play_batch``).

``sim.run.runner.run``, the paced engine calls (``sim.run.pace``), the part
files (``sim.dataset.parts.write_part``) and the cluster tasks
(``sim.run.cluster.play_chunk``) know a game only through this interface, so every
game (``sim.games.tokaido``, ``sim.games.duo``) shares every one of them.
``sim.run`` imports no game: the caller builds the game and passes it in, so the
imports keep pointing one way.

A game is immutable and picklable (a cluster ships it to its workers). Game
``i`` of a run depends only on ``(seed, i)``: ``play`` returns the same records
for any ``start``/``count`` split and any thread count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numba
import numpy as np
import pyarrow as pa

from kernels.core.batch import UNFINISHED
from sim.dataset.manifest import MAX_GAME, MAX_SEED, Manifest
from sim.errors import UserError


@dataclass
class Batch:
    """What ``Game.play`` returns: result records (``n_players`` rows a game, game-major) and,
    when played with the action log, each game's log (``events[i, :n_events[i]]``)."""

    records: np.ndarray
    events: np.ndarray | None = None  # int16 (count, max events, fields)
    n_events: np.ndarray | None = None  # int32 (count,)
    n_players: int = 1

    @property
    def games(self) -> int:
        return len(self.records) // self.n_players

    def game_events(self, i: int) -> np.ndarray:
        """The log of the batch's i-th game, trimmed to its events."""
        assert self.events is not None and self.n_events is not None, "played without the action log"
        return self.events[i, : self.n_events[i]]

    def game_records(self, i: int) -> np.ndarray:
        """The result records of the batch's i-th game (one per player)."""
        return self.records[i * self.n_players : (i + 1) * self.n_players]


def concat(batches: Sequence[Batch]) -> Batch:
    """One batch of consecutive batches of one game (their action logs too, if they have them)."""
    if len(batches) == 1:
        return batches[0]
    first = batches[0]
    records = np.concatenate([b.records for b in batches])
    if first.events is None:
        return Batch(records, None, None, first.n_players)
    events = np.concatenate([b.events for b in batches if b.events is not None])
    n_events = np.concatenate([b.n_events for b in batches if b.n_events is not None])
    return Batch(records, events, n_events, first.n_players)


def win_share(records: np.ndarray) -> np.ndarray:
    """Each row's share of its game's win: 1 for a sole winner, 1/k in a k-way tie, else 0.

    The one definition of a win that every table, tuner and check counts (``win`` in the dataset);
    every game's result records carry ``rank`` and ``win_k`` (players sharing first place).
    """
    return np.where(records["rank"] == 1, 1.0 / np.maximum(records["win_k"], 1), 0.0)


def play_batch(
    kernel: Callable[..., None],
    ru: np.ndarray,
    seed: int,
    start: int,
    count: int,
    *,
    n_players: int,
    record_dtype: np.dtype,
    log_shape: tuple[int, int],
    log: bool = False,
    threads: int | None = None,
    stop: np.ndarray | None = None,
    nlog: np.ndarray | None = None,
) -> Batch:
    """One call of a game's batch kernel (``kernels.core.batch``): validate, allocate, call, trim.

    ``kernel(seed, start, count, ru, out, logs, nlog[, stop])`` fills ``out`` (``n_players``
    records a game) and, when ``ru`` asks for it, ``logs`` (``log_shape`` rows a game).
    ``stop`` (int64[1]) is passed only to kernels that take it; when another thread sets it the
    batch holds only the games before the first unfinished one. ``nlog`` (int32, at least
    ``count``) receives each game's log length as it ends, ``UNFINISHED`` before: progress.
    """
    if not 0 <= seed <= MAX_SEED:
        raise UserError(f"--seed must be between 0 and {MAX_SEED}, got {seed}")
    if start < 0 or count < 0:
        raise UserError(f"game indices must be non-negative (start {start}, count {count})")
    if start > MAX_GAME or start + count - 1 > MAX_GAME:
        raise UserError(f"game indices go up to {MAX_GAME:,} (a 64-bit index), not {start + count - 1:,}")
    out = np.zeros(count * n_players, record_dtype)
    logs = np.zeros((max(count, 1) if log else 1, *log_shape), np.int16)
    if nlog is None or len(nlog) < max(count, 1):
        nlog = np.empty(max(count, 1), np.int32)
    nlog[:] = UNFINISHED
    if threads is not None:
        numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))  # type: ignore[attr-defined]
    args = (np.int64(seed), np.int64(start), np.int64(count), ru, out, logs, nlog)
    with np.errstate(over="ignore"):  # splitmix64 wraps on purpose (pure-Python mode)
        kernel(*args) if stop is None else kernel(*args, stop)
    unfinished = nlog[:count] == UNFINISHED
    if (
        stop is not None and stop[0] and unfinished.any()
    ):  # stopped: keep the games before the first unfinished
        count = int(np.argmax(unfinished))
        out = out[: count * n_players]
    if log and count and (nlog[:count] < 0).any():
        raise RuntimeError(f"an action log overflowed its {log_shape[0]} rows; raise the game's MAX_EVENTS")
    return Batch(out, logs[:count] if log else None, nlog[:count].copy() if log else None, n_players)


@runtime_checkable
class Game(Protocol):
    """A game the shared runner can play: its identity for manifests, its engine call, its table."""

    @property
    def name(self) -> str:
        """ "tokaido", "duo": the manifest's "game"."""

    @property
    def kind(self) -> str:
        """The manifest's "kind" ("run", "duo-run"): a run directory holds runs of one kind."""

    @property
    def n_players(self) -> int:
        """Rows per game in the records and the part files."""

    def check(self) -> None:
        """Raise ``UserError`` for what the options alone do not reveal (before anything is written)."""

    def fingerprint(self) -> str:
        """A hash of the rules data that decide the games (compared on resume and on cluster workers)."""

    def manifest_head(self) -> dict[str, Any]:
        """Fields a new run's manifest starts with (after "kind"): the configuration, provenance."""

    def manifest_tail(self) -> dict[str, Any]:
        """Fields rewritten at every invocation (rules version, fingerprint)."""

    def check_same_run(self, manifest: Manifest, seed: int, out: Path) -> None:
        """Refuse (``UserError``) to resume a run started with another configuration, seed or rules."""

    def play(
        self,
        seed: int,
        start: int,
        count: int,
        threads: int | None = None,
        stop: np.ndarray | None = None,
        nlog: np.ndarray | None = None,
    ) -> Batch:
        """Games ``[start, start+count)``; ``nlog[i]`` set as game i ends; ``stop[0] = 1`` may end the call
        early."""

    def to_table(self, records: np.ndarray) -> pa.Table:
        """The records as one Arrow table with the game's schema (one row per player per game)."""

    @property
    def statistics(self) -> tuple[str, ...]:
        """The columns of that schema whose min/max every row group records, for readers' filters (besides
        ``game`` and ``player``, which every part records: ``sim.dataset.parts.STATISTICS``)."""

    def for_worker(self) -> Game:
        """The game as shipped to a cluster worker (what the worker can rebuild itself is left out)."""

    def with_log(self) -> Game:
        """The same game, played with the action log (``Batch.events``) the referee reads."""

    def referee(self, events: np.ndarray, records: np.ndarray) -> Verdict:
        """The independent referee's verdict on one game: its action log against its result records."""

    def replay_command(self, seed: int, game: int) -> str:
        """The command that replays game ``game`` of ``seed`` turn by turn."""


class Verdict(Protocol):
    """A referee's verdict on one game."""

    @property
    def ok(self) -> bool: ...

    @property
    def errors(self) -> list[str]: ...
