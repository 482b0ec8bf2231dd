"""Play many games as a stream of short engine calls: progress several times a second, Ctrl-C within one.

A run's chunk (one part file) may take minutes; played in one engine call, its
progress would move once at the end and Ctrl-C would wait for it. ``Player``
plays it as calls of about ``TARGET_SECONDS`` each, sized from the measured rate
(``Pacer``), on a helper thread, so the main thread stays free to count the
games as they finish (the kernel writes ``nlog[i]`` as game i ends) and to take
Ctrl-C: ``ctrl_c_stops`` makes the first Ctrl-C set the kernel's stop flag, the
games in flight end at their next turn, and the caller keeps every game before
the first unfinished one (a second Ctrl-C interrupts at once).
"""

from __future__ import annotations

import concurrent.futures as cf
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType

import numba
import numpy as np

from kernels.core.batch import UNFINISHED
from sim.run.game import Batch, Game, concat

TARGET_SECONDS = 0.25  # of play per engine call
POLL_SECONDS = 0.1  # between counts of the finished games
MAX_GROWTH = 8  # a call plays at most this many times the games of the previous one


class Pacer:
    """Sizes engine calls to about ``target`` seconds from the rate of the last one."""

    def __init__(self, threads: int | None = None, target: float = TARGET_SECONDS) -> None:
        self.least = max(1, threads or numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]  # a game per thread
        self.target = target
        self.last = 0
        self.rate: float | None = None

    def size(self, remaining: int) -> int:
        if self.rate is None:
            n = self.least
        else:
            n = min(int(self.rate * self.target), MAX_GROWTH * max(self.last, 1))
        self.last = max(1, min(remaining, max(n, self.least)))
        return self.last

    def record(self, games: int, seconds: float) -> None:
        if games > 0 and seconds > 0:
            self.rate = games / seconds


class Player:
    """Plays games of one ``Game`` in paced engine calls on a helper thread (a context manager).

    A game whose kernel has no stop flag (Duo) ends its current call (a fraction of a
    second) when stopped; the stream then plays no more.
    """

    def __init__(self, game: Game, seed: int, threads: int | None = None) -> None:
        self.game, self.seed, self.threads = game, seed, threads
        self.stop = np.zeros(1, np.int64)  # the kernel's stop flag
        self.pacer = Pacer(threads)
        self._pool = cf.ThreadPoolExecutor(1, thread_name_prefix="tokaido-engine")

    def __enter__(self) -> Player:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop[0] = 1  # an exception (a second Ctrl-C) while a call runs: end it now
        self._pool.shutdown(wait=True)

    @property
    def stopped(self) -> bool:
        return bool(self.stop[0])

    def play(self, start: int, count: int, advance: Callable[[int], None] = lambda n: None) -> Batch:
        """One engine call for games ``[start, start+count)``; fewer games if stopped meanwhile."""
        nlog = np.full(max(count, 1), UNFINISHED, np.int32)
        t0 = time.perf_counter()
        fut = self._pool.submit(self.game.play, self.seed, start, count, self.threads, self.stop, nlog)
        told = 0
        while True:
            try:
                batch = fut.result(timeout=POLL_SECONDS)
                break
            except cf.TimeoutError:
                done = int((nlog[:count] != UNFINISHED).sum())
                if done > told:
                    advance(done - told)
                    told = done
        got = len(batch.records) // self.game.n_players
        self.pacer.record(got, time.perf_counter() - t0)
        if got > told:
            advance(got - told)
        return batch

    def stream(
        self, start: int, end: int, advance: Callable[[int], None] = lambda n: None
    ) -> Iterator[Batch]:
        """Batches covering games ``[start, end)`` in order, until done or stopped."""
        pos = start
        while pos < end and not self.stopped:
            batch = self.play(pos, self.pacer.size(end - pos), advance)
            pos += len(batch.records) // self.game.n_players
            yield batch

    def play_all(self, start: int, count: int, advance: Callable[[int], None] = lambda n: None) -> Batch:
        """Games ``[start, start+count)`` as one batch (``KeyboardInterrupt`` if stopped first)."""
        batches = list(self.stream(start, start + count, advance))
        if self.stopped:
            raise KeyboardInterrupt
        return concat(batches)


@contextmanager
def ctrl_c_stops(player: Player) -> Iterator[None]:
    """While active (main thread only), the first Ctrl-C stops ``player``; the second interrupts at once."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        if player.stopped:
            raise KeyboardInterrupt
        player.stop[0] = 1

    old = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def play(
    game: Game,
    seed: int,
    start: int,
    count: int,
    threads: int | None = None,
    advance: Callable[[int], None] = lambda n: None,
) -> Batch:
    """``game.play`` in paced calls: ``advance`` as games finish, Ctrl-C within a fraction of a second."""
    with Player(game, seed, threads) as player, ctrl_c_stops(player):
        return player.play_all(start, count, advance)
