"""The referee check of any game: play games with the action log and let the game's independent referee
re-derive every one (``tokaido-sim verify``, ``tokaido-sim duo verify``).

Games are played in chunks (their logs are held in memory) through the paced engine calls of
``sim.run.pace``, so progress moves and Ctrl-C stops within a fraction of a second. Each game's
log and records go to ``game.referee``; the report counts the games the referee rejects and keeps
the first one (its index, the referee's errors, its log and the command that replays it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sim.run import pace
from sim.run.game import Batch, Game

MAX_CHUNK = 10_000  # games whose action logs are held at once (a few KB each)


@dataclass
class Mismatch:
    game: int  # the game's index in the run
    errors: list[str]
    events: np.ndarray
    replay: str  # the command that replays it


@dataclass
class VerifyReport:
    games: int = 0
    mismatches: int = 0
    first: list[Mismatch] = field(default_factory=list)  # the first few rejected games, in order

    @property
    def ok(self) -> bool:
        return self.mismatches == 0


def verify(
    game: Game,
    games: int,
    seed: int,
    chunk_size: int = 1000,
    threads: int | None = None,
    advance: Callable[[int], None] = lambda n: None,
    on_batch: Callable[[int, Batch], None] | None = None,
    keep: int = 5,
) -> VerifyReport:
    """Referee games ``[0, games)`` of ``game`` with ``seed``; ``on_batch(start, batch)`` sees every chunk
    (to write its games as records), ``keep`` rejected games are kept for the report."""
    logged = game.with_log()
    rep = VerifyReport()
    for start in range(0, games, chunk_size):
        count = min(chunk_size, games - start)
        batch = pace.play(logged, seed, start, count, threads, advance)
        if on_batch is not None:
            on_batch(start, batch)
        for i in range(count):
            events = batch.game_events(i)
            verdict = logged.referee(events, batch.game_records(i))
            rep.games += 1
            if not verdict.ok:
                rep.mismatches += 1
                if len(rep.first) < keep:
                    rep.first.append(
                        Mismatch(
                            start + i,
                            list(verdict.errors),
                            events.copy(),
                            game.replay_command(seed, start + i),
                        )
                    )
    return rep
