"""Play a run in chunks of games and write each chunk as its own Parquet part file.

Layout of a run directory::

    manifest.json                                   config, seed, versions, status, parts
    part-000000000000-000000100000.parquet          games [0, 100000)
    ...

Every file is written under a temp name (a leading dot, ``.tmp`` suffix),
fsync'ed and renamed into place, so a part file that exists is complete. Game
``i`` depends only on ``(seed, i)``, so resuming, or any chunk size, gives the
same games. Memory holds at most two chunks: one being played, one being written.
"""

from __future__ import annotations

import json
import os
import platform
import re
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numba
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import sim
from sim import dataset, engine
from sim.config import GameConfig
from sim.errors import UserError
from sim.rules import Rules

if TYPE_CHECKING:
    from sim.cluster import Cluster

DEFAULT_CHUNK_SIZE = 100_000
MANIFEST = "manifest.json"
LOCK = ".lock"
PART_RE = re.compile(r"^part-(\d{12})-(\d{12})\.parquet$")
MAX_SEED = 2**63 - 1

Progress = Callable[[int], None]


@dataclass
class RunSummary:
    out_dir: Path
    games: int
    played: int  # games played by this call (0 if the run was already complete)
    seconds: float
    status: str


def part_name(start: int, end: int) -> str:
    return f"part-{start:012d}-{end:012d}.parquet"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def versions() -> dict[str, str]:
    return {
        "tokaido_sim": sim.__version__,
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pyarrow": pa.__version__,
        "python": platform.python_version(),
    }


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_json_atomic(path: Path, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` through a temp file, fsync and rename."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w") as fh:
        json.dump(obj, fh, indent=1)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def read_manifest(out_dir: Path) -> dict[str, Any] | None:
    path = out_dir / MANIFEST
    if not path.is_file():
        return None
    try:
        m = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise UserError(f"{path} is unreadable ({exc}); choose another --out") from None
    if not isinstance(m, dict):
        raise UserError(f"{path} is not a tokaido-sim manifest; choose another --out")
    return m


def check_writable(out_dir: Path) -> None:
    """Raise UserError unless ``out_dir`` exists as a writable directory or could be created."""
    probe = out_dir
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise UserError(f"cannot create {out_dir}: {probe} is not a directory; choose another --out")
    try:
        fd, name = tempfile.mkstemp(prefix=".tokaido-probe-", dir=probe)
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        raise UserError(f"cannot write to {probe} ({exc.strerror}); choose another --out") from None


def prepare_out_dir(out_dir: Path, resume: bool, kind: str = "run") -> dict[str, Any] | None:
    """Check ``out_dir`` before any work; return its manifest when resuming. Creates nothing."""
    check_writable(out_dir)
    if not out_dir.exists():
        return None
    if not out_dir.is_dir():
        raise UserError(f"{out_dir} is a file; choose another --out")
    entries = [p for p in out_dir.iterdir() if p.name != LOCK]
    if not entries:
        return None
    manifest = read_manifest(out_dir)
    if not resume:
        if manifest is None:
            raise UserError(f"{out_dir} is not empty; choose another --out")
        raise UserError(f"{out_dir} already holds a {kind}; use --resume to continue it or choose another --out")
    if manifest is None:
        raise UserError(f"{out_dir} holds files but no {MANIFEST}, so it is not a tokaido-sim {kind}; "
                        "choose another --out")
    if manifest.get("kind", "run") != kind:
        raise UserError(f"{out_dir} holds a {manifest.get('kind')}, not a {kind}; choose another --out")
    return manifest


def check_same_run(manifest: dict[str, Any], config: GameConfig, rules: Rules, seed: int, out_dir: Path) -> None:
    """Refuse to resume a run whose configuration, seed or rules differ."""
    hint = "resume with the same options or choose another --out"
    old_spec = manifest.get("spec", "?")
    if json.loads(json.dumps(config.to_dict())) != manifest.get("config"):
        raise UserError(f"{out_dir} holds a run of '{old_spec}', not '{config.spec()}'; {hint}")
    if manifest.get("seed") != seed:
        raise UserError(f"{out_dir} holds a run with --seed {manifest.get('seed')}, not {seed}; {hint}")
    if manifest.get("rules_fingerprint") != rules.fingerprint():
        raise UserError(
            f"the rules changed since {out_dir} was started (fingerprint {manifest.get('rules_fingerprint')}, "
            f"now {rules.fingerprint()}); {hint}"
        )


@contextmanager
def lock_dir(out_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``out_dir`` (released by the OS if the process dies)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    with open(out_dir / LOCK, "a") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise UserError(f"{out_dir} is in use by another tokaido-sim process; wait for it to finish") from None
        yield


def clean_temp_files(out_dir: Path) -> None:
    for p in out_dir.glob(".*.tmp"):
        p.unlink(missing_ok=True)


def finished_parts(out_dir: Path, n_players: int) -> list[tuple[int, int]]:
    """The complete part files in ``out_dir`` as sorted ``(start, end)`` game ranges."""
    parts = []
    for p in sorted(out_dir.iterdir()):
        m = PART_RE.match(p.name)
        if not m:
            continue
        start, end = int(m[1]), int(m[2])
        try:
            rows = pq.read_metadata(p).num_rows
        except (OSError, pa.ArrowException) as exc:
            raise UserError(f"{p} is not a readable Parquet file ({exc}); delete it and resume again") from None
        if end <= start or rows != (end - start) * n_players:
            raise UserError(f"{p} holds {rows} rows, not {(end - start) * n_players}; delete it and resume again")
        parts.append((start, end))
    for (_, e0), (s1, _) in zip(parts, parts[1:], strict=False):
        if s1 < e0:
            raise UserError(f"part files in {out_dir} overlap at game {s1}; delete the extra ones")
    return parts


def missing_chunks(parts: list[tuple[int, int]], games: int, chunk_size: int) -> list[tuple[int, int]]:
    """The ``[start, end)`` chunks still to play: the gaps between finished parts, cut to ``chunk_size``."""
    out, pos = [], 0
    for start, end in [*parts, (games, games)]:
        for s in range(pos, start, chunk_size):
            out.append((s, min(s + chunk_size, start)))
        pos = max(pos, end)
    return out


def validate(games: int, seed: int, chunk_size: int, threads: int | None) -> None:
    if games < 1:
        raise UserError(f"--games must be at least 1, got {games}")
    if not 0 <= seed <= MAX_SEED:
        raise UserError(f"--seed must be between 0 and {MAX_SEED}, got {seed}")
    if chunk_size < 1:
        raise UserError(f"--chunk-size must be at least 1, got {chunk_size}")
    if threads is not None and threads < 1:
        raise UserError(f"--threads must be at least 1, got {threads}")


@contextmanager
def progress_bar(total: int, done: int, enabled: bool, label: str = "games") -> Iterator[Progress]:
    """A rich progress bar (games done, games/s, ETA) as an ``advance(n)`` callback.

    Disabled (a no-op) when ``enabled`` is false or stdout is not a terminal.
    """
    if not (enabled and sys.stdout.isatty()):
        yield lambda n: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} games/s" if speed else "-- games/s")

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), Rate(),
               TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns) as bar:
        task = bar.add_task(label, total=total, completed=done)
        yield lambda n: bar.advance(task, n)


def write_part(out_dir: Path, start: int, end: int, records: np.ndarray, rules: Rules, n_players: int) -> str:
    """Write games ``[start, end)`` as their part file: temp file, fsync, rename; return its name.

    The temp name is unique to this call, so two writers of the same chunk (a
    cluster task retried while the first attempt still runs) cannot mix bytes.
    """
    name = part_name(start, end)
    tmp = out_dir / f".{name}.{uuid.uuid4().hex[:8]}.tmp"
    dataset.write_table(dataset.to_table(records, rules, n_players), tmp)
    os.replace(tmp, out_dir / name)
    fsync_dir(out_dir)
    return name


def _part_entries(out: Path, old: list[Any], parts: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """The manifest's ``parts`` for the finished parts: their recorded entries, else read from the files."""
    known = {e["file"]: e for e in old if isinstance(e, dict) and "file" in e}
    names = [part_name(s, e) for s, e in parts]
    return [known.get(n) or dataset.part_entry(out / n) for n in names]


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
    cluster: Cluster | None = None,
) -> RunSummary:
    """Play games ``[0, games)`` of ``config`` with ``seed`` into part files under ``out_dir``.

    With ``resume`` an interrupted run continues: finished parts are kept as they
    are and only the missing games are played (``games`` may grow). Raises
    ``UserError`` before writing anything if the options or ``out_dir`` are bad.
    ``on_progress(n)`` is called after each part with its number of games.
    With ``cluster`` (``sim.cluster.connect``) the chunks are played by its workers.
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
            parts=_part_entries(out, manifest.get("parts", []), parts),
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
