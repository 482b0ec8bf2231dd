"""Play a run in chunks of games and write each chunk as its own Parquet part file.

The directory's layout is ``sim.run.outdir``; the dataset format (manifest, part
files and their checks against it) ``sim.dataset``. Game ``i`` depends only on
``(seed, i)``, so resuming, or any chunk size, gives the same games. Memory holds
at most two chunks: one being played, one being written. A chunk is played in
short engine calls (``sim.run.pace``): progress several times a second, and
Ctrl-C within a fraction of one, keeping every finished game.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from sim.dataset.manifest import MANIFEST, MAX_GAMES, Part, check_seed, write_manifest
from sim.dataset.parts import part_metadata, resume_parts, span, write_part
from sim.errors import UserError
from sim.run import pace
from sim.run.game import Game
from sim.run.outdir import (
    LOCK,
    clean_temp_files,
    lock_dir,
    new_manifest,
    now,
    prepare_out_dir,
    versions,
)
from sim.run.parts import missing_chunks, missing_games
from sim.run.progress import Progress, progress_bar

DEFAULT_CHUNK_SIZE = 100_000
MAX_CHUNK = 1_000_000  # games held in memory at once (80 bytes a player): 400 MB at 5 players


class ChunkPlayer(Protocol):
    """What plays a run's missing chunks elsewhere (``sim.run.cluster.Cluster``); the runner needs no more."""

    def play_chunks(
        self,
        game: Game,
        seed: int,
        out: Path,
        todo: Iterable[tuple[int, int]],
        threads: int | None,
        saved: Callable[[Part, int], None],
    ) -> None: ...


@dataclass
class RunSummary:
    out_dir: Path
    games: int
    played: int  # games played by this call (0 if the run was already complete)
    seconds: float
    status: str


def validate(games: int, seed: int, chunk_size: int, threads: int | None, max_chunk: int = MAX_CHUNK) -> None:
    if not 1 <= games <= MAX_GAMES:
        raise UserError(
            f"--games takes 1 to {MAX_GAMES:,} (part files name their games with 12 digits), got {games:,}"
        )
    check_seed(seed)
    if not 1 <= chunk_size <= max_chunk:
        raise UserError(
            f"--chunk-size takes 1 to {max_chunk:,} games (a chunk is held in memory), got {chunk_size:,}"
        )
    if threads is not None and threads < 1:
        raise UserError(f"--threads must be at least 1, got {threads}")


def run(
    game: Game,
    games: int,
    seed: int,
    out_dir: str | os.PathLike[str],
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    threads: int | None = None,
    resume: bool = False,
    progress: bool = True,
    on_progress: Progress | None = None,
    cluster: ChunkPlayer | None = None,
) -> RunSummary:
    """Play games ``[0, games)`` of ``game`` with ``seed`` into part files under ``out_dir``.

    ``game`` is any ``sim.run.game.Game`` (``sim.games.tokaido``, ``sim.games.duo``).

    With ``resume`` an interrupted run continues: finished parts are checked
    against the manifest (rows, checksum) and kept, and only the missing games
    are played (``games`` may grow). Raises ``UserError`` before writing anything
    if the options or ``out_dir`` are bad; a run that fails before its first part
    leaves nothing behind. ``on_progress(n)`` is called as games finish (several
    times a second). Ctrl-C stops within a fraction of a second and keeps every
    finished game (``sim.run.pace``). With ``cluster`` (``sim.run.cluster.connect``)
    the chunks are played by its workers.
    """
    out = Path(out_dir)
    validate(games, seed, chunk_size, threads)
    game.check()  # what only the rules tables and kernel records reveal, before anything is written
    manifest = prepare_out_dir(out, resume, game.kind)
    if manifest is not None:
        game.check_same_run(manifest, seed, out)
    created, fresh, saved_any = not out.exists(), manifest is None, False
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    try:
        with lock_dir(out):
            clean_temp_files(out)
            parts = resume_parts(out, game.n_players, manifest)
            ranges = [span(e.file) for e in parts]
            if ranges and ranges[-1][1] > games:
                raise UserError(
                    f"{out} already holds games up to {ranges[-1][1]}; --games must be at least that"
                )
            missing = missing_games(ranges, games)
            todo = missing_chunks(ranges, games, chunk_size)
            if manifest is None:
                manifest = new_manifest(game, seed)
                manifest.started, manifest.versions, manifest.resumed = now(), versions(), []
            elif missing:  # keep the versions the run started with; note each resumption's own
                manifest.resumed = [*(manifest.resumed or []), {"at": now(), "versions": versions()}]
                manifest.finished = None
            manifest.games, manifest.chunk_size = games, chunk_size
            manifest.set_fields(game.manifest_tail())
            manifest.status, manifest.parts = "running" if missing else "complete", parts
            write_manifest(out, manifest)
            meta = part_metadata(new_manifest(game, seed))
            with progress_bar(games, games - missing, progress) as advance:

                def played(n: int) -> None:
                    advance(n)
                    if on_progress is not None:
                        on_progress(n)

                def saved(entry: Part, n: int) -> None:
                    nonlocal saved_any
                    manifest.parts = sorted([*(manifest.parts or []), entry], key=lambda e: e.file)
                    write_manifest(out, manifest)
                    saved_any = True
                    if cluster is not None:  # a cluster reports whole parts only
                        played(n)

                try:
                    if cluster is not None:
                        cluster.play_chunks(game, seed, out, todo, threads, saved)
                    else:
                        _play_chunks(game, seed, out, todo, threads, saved, played, meta)
                except BaseException:
                    manifest.status = "interrupted"
                    write_manifest(out, manifest)
                    raise
            if missing:
                manifest.status, manifest.finished = "complete", now()
                write_manifest(out, manifest)
    except Exception as exc:
        resumable = getattr(exc, "resumable", False)  # a cluster failure: --resume continues
        if fresh and not saved_any and not resumable and not any(out.glob("part-*.parquet")):
            # failed before its first part: leave nothing that blocks the folder
            for name in (MANIFEST, LOCK):
                (out / name).unlink(missing_ok=True)
            if created and not any(out.iterdir()):
                out.rmdir()
        raise
    return RunSummary(out, games, missing, time.perf_counter() - t0, "complete")


def _play_chunks(
    game: Game,
    seed: int,
    out: Path,
    todo: Iterable[tuple[int, int]],
    threads: int | None,
    saved: Callable[[Part, int], None],
    played: Callable[[int], None],
    meta: dict[str, str],
) -> None:
    """Play each chunk in paced engine calls while the previous one is written on a writer thread.

    Ctrl-C stops the engine at once; the games of the chunk in flight finished so
    far are written as a shorter part (its name says which games), then
    ``KeyboardInterrupt`` is raised.
    """
    n = game.n_players
    pending: tuple[Future[Part], int] | None = None

    def flush() -> None:
        nonlocal pending
        if pending is not None:
            fut, k = pending
            pending = None
            saved(fut.result(), k)

    with (
        pace.Player(game, seed, threads) as player,
        pace.ctrl_c_stops(player),
        ThreadPoolExecutor(1, thread_name_prefix="tokaido-writer") as pool,
    ):
        try:
            for start, end in todo:
                batches = list(player.stream(start, end, played))
                got = sum(len(b.records) for b in batches) // n
                flush()
                if got:
                    records = pace.concat(batches).records
                    pending = (pool.submit(_write, game, out, start, start + got, records, meta), got)
                del batches
                if got < end - start:  # stopped by Ctrl-C: keep what is finished
                    flush()
                    raise KeyboardInterrupt
            flush()
        finally:
            if pending is not None:  # interrupted while a part was being written: keep it
                try:
                    flush()
                except Exception:
                    pass


def _write(game: Game, out: Path, start: int, end: int, records: Any, meta: dict[str, str]) -> Part:
    """Build the part's table and write it (on the writer thread, while the next chunk plays)."""
    return write_part(out, start, end, game.to_table(records), meta, game.statistics)
