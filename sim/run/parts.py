"""Which games a run still has to play: the gaps between its finished parts, cut into chunks.

The parts themselves (their names, metadata and checks against the manifest) are the dataset
format's, ``sim.dataset.parts``. Parts may cover uneven game ranges (an interrupted chunk keeps
the games it finished); ``missing_chunks`` fills the gaps.
"""

from __future__ import annotations

from collections.abc import Iterator


def missing_chunks(parts: list[tuple[int, int]], games: int, chunk_size: int) -> Iterator[tuple[int, int]]:
    """The ``[start, end)`` chunks still to play, lazily: the gaps between finished parts, cut to
    ``chunk_size``."""
    pos = 0
    for start, end in [*sorted(parts), (games, games)]:
        for s in range(pos, start, chunk_size):
            yield s, min(s + chunk_size, start)
        pos = max(pos, end)


def missing_games(parts: list[tuple[int, int]], games: int) -> int:
    return games - sum(min(e, games) - min(s, games) for s, e in parts)
