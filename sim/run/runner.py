"""Play a run in chunks of games and write each chunk as its own Parquet part file.

The directory's layout and its atomic writes are ``sim.run.outdir``. Game
``i`` depends only on ``(seed, i)``, so resuming, or any chunk size, gives the
same games. Memory holds at most two chunks: one being played, one being written.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from sim.errors import UserError
from sim.rules.config import GameConfig
from sim.rules.tables import Rules
from sim.run import dataset, engine
from sim.run.outdir import (
    MANIFEST,
    check_same_run,
    clean_temp_files,
    finished_parts,
    lock_dir,
    missing_chunks,
    now,
    part_entries,
    prepare_out_dir,
    versions,
    write_json_atomic,
    write_part,
)
from sim.run.progress import Progress, progress_bar

DEFAULT_CHUNK_SIZE = 100_000
MAX_SEED = 2**63 - 1



class ChunkPlayer(Protocol):
    """What plays a run's missing chunks elsewhere (``sim.run.cluster.Cluster``); the runner needs no more."""

    def play_chunks(self, config: GameConfig, rules: Rules, seed: int, out: Path, todo: list[tuple[int, int]],
                    threads: int | None, saved: Callable[[str, int], None]) -> None: ...


@dataclass
class RunSummary:
    out_dir: Path
    games: int
    played: int  # games played by this call (0 if the run was already complete)
    seconds: float
    status: str


def validate(games: int, seed: int, chunk_size: int, threads: int | None) -> None:
    if games < 1:
        raise UserError(f"--games must be at least 1, got {games}")
    if not 0 <= seed <= MAX_SEED:
        raise UserError(f"--seed must be between 0 and {MAX_SEED}, got {seed}")
    if chunk_size < 1:
        raise UserError(f"--chunk-size must be at least 1, got {chunk_size}")
    if threads is not None and threads < 1:
        raise UserError(f"--threads must be at least 1, got {threads}")


def run(
    config: GameConfig,
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
    """Play games ``[0, games)`` of ``config`` with ``seed`` into part files under ``out_dir``.

    With ``resume`` an interrupted run continues: finished parts are kept as they
    are and only the missing games are played (``games`` may grow). Raises
    ``UserError`` before writing anything if the options or ``out_dir`` are bad.
    ``on_progress(n)`` is called after each part with its number of games.
    With ``cluster`` (``sim.run.cluster.connect``) the chunks are played by its workers.
    """
    out = Path(out_dir)
    validate(games, seed, chunk_size, threads)
    rules = config.rules()
    config.cfg_array(rules)  # raises ConfigError for what only the kernel table reveals
    manifest = prepare_out_dir(out, resume)
    if manifest is not None:
        check_same_run(manifest, config, rules, seed, out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with lock_dir(out):
        clean_temp_files(out)
        parts = finished_parts(out, config.n_players)
        if parts and parts[-1][1] > games:
            raise UserError(f"{out} already holds games up to {parts[-1][1]}; --games must be at least that")
        todo = missing_chunks(parts, games, chunk_size)
        if manifest is None:
            manifest = {
                "kind": "run", "config": config.to_dict(), "spec": config.spec(), "seed": seed,
                "n_players": config.n_players, "started": now(), "versions": versions(), "resumed": [],
                "finished": None,
            }
        elif todo:  # keep the versions the run started with; note each resumption's own
            manifest["resumed"] = [*manifest.get("resumed", []), {"at": now(), "versions": versions()}]
            manifest["finished"] = None
        manifest.update(
            games=games, chunk_size=chunk_size, rules_version=rules.version,
            rules_fingerprint=rules.fingerprint(), status="running" if todo else "complete",
            parts=part_entries(out, manifest.get("parts", []), parts),
        )
        write_json_atomic(out / MANIFEST, manifest)
        done = sum(e - s for s, e in parts)
        with progress_bar(games, done, progress) as advance:
            def saved(name: str, n: int) -> None:
                entry = dataset.part_entry(out / name)
                manifest["parts"] = sorted([*manifest["parts"], entry], key=lambda p: p["file"])
                write_json_atomic(out / MANIFEST, manifest)
                advance(n)
                if on_progress is not None:
                    on_progress(n)

            try:
                if cluster is not None:
                    cluster.play_chunks(config, rules, seed, out, todo, threads, saved)
                else:
                    _play_chunks(config, rules, seed, out, todo, threads, saved)
            except BaseException:
                manifest["status"] = "interrupted"
                write_json_atomic(out / MANIFEST, manifest)
                raise
        if todo:
            manifest.update(status="complete", finished=now())
            write_json_atomic(out / MANIFEST, manifest)
    return RunSummary(out, games, sum(e - s for s, e in todo), time.perf_counter() - t0, "complete")


def _play_chunks(
    config: GameConfig, rules: Rules, seed: int, out: Path, todo: list[tuple[int, int]],
    threads: int | None, saved: Callable[[str, int], None],
) -> None:
    """Play each chunk while the previous one is converted and written on a writer thread."""
    pending: tuple[Future[str], int] | None = None
    with ThreadPoolExecutor(1, thread_name_prefix="tokaido-writer") as pool:
        try:
            for start, end in todo:
                batch = engine.play_games(config, rules, seed, start, end - start, threads=threads)
                if pending is not None:
                    fut, n = pending
                    pending = None
                    saved(fut.result(), n)
                pending = (pool.submit(write_part, out, start, end, batch.records, rules, config.n_players),
                           end - start)
                del batch
            if pending is not None:
                fut, n = pending
                pending = None
                saved(fut.result(), n)
        finally:
            if pending is not None:  # interrupted while a part was being written: keep it
                try:
                    saved(pending[0].result(), pending[1])
                except Exception:
                    pass
