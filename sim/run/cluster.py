"""Run a run or a study on a Dask cluster: ``--cluster ADDRESS`` or ``--cluster local:N``.

The driver (``runner.run``) does everything it does in-process (checks, lock,
manifest, resume) except playing: it submits one task per missing chunk of
game indices. A task (``play_chunk``) plays its chunk of the run's game (any
``sim.run.game.Game``: Tokaido, Tokaido Duo) and
writes its own part file with ``sim.dataset.parts.write_part`` (unique temp name, fsync,
rename), and returns a small manifest ``{start, end, rows, path, seconds,
worker}``; only those move through the scheduler. As results come back the
driver records each part in ``manifest.json`` and advances the one progress
bar. Game ``i`` depends only on ``(seed, i)``, so the dataset is identical,
game for game, to an in-process run.

Failures: a worker that dies loses only the chunk it was playing; the scheduler
runs that chunk again on another worker (up to
``distributed.scheduler.allowed-failures`` times) and a task that raises is
retried ``RETRIES`` times. Writing a part twice is harmless: the write is atomic
and a retried chunk whose part is already complete is not played again.

The output directory must be on storage every worker sees at the same path
(checked before each run). Workers import and load the cached kernels once, in a
warm-up; their code and library versions must match the driver's (checked too).
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import logging
import os
import pickle
import queue
import re
import signal
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.dataset.manifest import Part
from sim.dataset.parts import file_sha256, part_metadata, part_name, write_part
from sim.errors import UserError
from sim.run import outdir
from sim.run.game import Game

if TYPE_CHECKING:
    from distributed import Client, Future, LocalCluster

LOCAL_RE = re.compile(r"^local:(\d+)$")
ADDRESS_RE = re.compile(r"^([a-z][a-z0-9+.-]*://)?(\[[0-9a-fA-F:.]+\]|[^\s:/\[\]]+):(\d{1,5})/?$")
PROTOCOLS = ("tcp", "tls", "ws", "wss", "ucx", "inproc")  # distributed.comm.registry's backends
MAX_LOCAL_WORKERS = 256
CONNECT_TIMEOUT = 15.0  # seconds to reach a scheduler
WORKER_TIMEOUT = 60.0  # seconds to wait for workers to join
RETRIES = 2  # extra attempts for a task that raises (a dead worker is handled by the scheduler)
MAX_CELL_THREADS = 32  # study cells in flight at once on the driver
POLL = 0.25  # seconds between checks for a stop request while waiting


class ClusterError(UserError):
    """A chunk failed on the cluster for good (finished parts are kept; --resume continues)."""

    resumable = True  # the runner keeps the run's manifest


class Stopped(Exception):
    """A study on the cluster stopped this cell because another cell failed or was interrupted."""

    # the runner keeps the cell's manifest: a worker may still be writing a chunk it had begun,
    # and a part without a manifest would block --resume
    resumable = True


def parse_spec(spec: str) -> int | str:
    """``local:N`` -> N (worker processes); anything else must be a scheduler address
    ``[PROTOCOL://]HOST:PORT``."""
    spec = spec.strip()
    m = LOCAL_RE.match(spec)
    if m:
        n = int(m[1])
        if not 1 <= n <= MAX_LOCAL_WORKERS:
            raise UserError(f"--cluster local:N takes 1 to {MAX_LOCAL_WORKERS} workers, got {spec}")
        return n
    m = ADDRESS_RE.match(spec)
    if spec.startswith("local") or not m:
        raise UserError(
            f"--cluster must be a scheduler address (tcp://HOST:8786) or local:N (N worker "
            f"processes), got '{spec}'"
        )
    protocol = (m[1] or "tcp://")[:-3]
    if protocol not in PROTOCOLS:
        raise UserError(
            f"--cluster {spec}: Dask schedulers speak {', '.join(PROTOCOLS)}, not {protocol}; "
            "e.g. tcp://HOST:8786"
        )
    return spec


@contextmanager
def connect(spec: str | None) -> Iterator[Cluster | None]:
    """A ``Cluster`` for ``spec`` (``None``: no cluster, play in-process), closed on exit.

    A scheduler address is reached at once, so a wrong one fails before anything
    is written; a ``local:N`` cluster starts on first use, after the run's options
    are checked (and not at all for a run that is already complete).
    """
    if spec is None:
        yield None
        return
    cluster = Cluster(spec)
    try:
        if isinstance(cluster.n_local, str):
            cluster.client  # noqa: B018 - connect now
        yield cluster
    finally:
        cluster.close()


# ------------------------------------------------------------- on the workers
def code_hash() -> str:
    """A hash of the code and data that decide the games: every kernel, every module and data file of ``sim``.

    Read from disk; ``CODE`` holds the value when this module was imported (with the others).
    Driver and workers compare it, so a worker with another version of any game is refused.
    """
    import kernels

    h = hashlib.sha256()
    sim_dir = Path(__file__).resolve().parents[1]
    files = kernels.source_files()
    files += sorted(
        p for p in sim_dir.rglob("*") if p.suffix in (".py", ".toml") and "__pycache__" not in p.parts
    )
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def describe() -> dict[str, Any]:
    """This worker's host, code hash and library versions (checked against the driver's)."""
    import numba

    return {
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "code": CODE,
        "versions": outdir.versions(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,  # type: ignore[attr-defined]
    }


def warmup(game: Game) -> dict[str, Any]:
    """Load ``game``'s cached compiled kernels (one game); describe this worker.

    Run once per game on each worker before its first chunk, so a Duo run never loads
    (or compiles) Tokaido's kernels, nor the reverse.
    """
    t0 = time.perf_counter()
    _cached(game).play(0, 0, 1)
    return {**describe(), "seconds": time.perf_counter() - t0}


def dask_setup(worker: Any) -> None:
    """Preload hook of ``local:N`` workers: Ctrl-C is for the driver, which then stops them."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def sees(lock_file: str) -> bool:
    """True if this worker sees the run directory (its lock file) and may write there."""
    return os.path.exists(lock_file) and os.access(os.path.dirname(lock_file), os.W_OK)


CODE = code_hash()
_GAMES: dict[str, Game] = {}


def _cached(game: Game) -> Game:
    """The worker's copy of ``game``, kept between tasks (its rules and kernel records are built once)."""
    key = hashlib.sha256(pickle.dumps(game)).hexdigest()
    if key not in _GAMES:
        if len(_GAMES) > 64:
            _GAMES.clear()
        _GAMES[key] = game
    return _GAMES[key]


def engine_threads() -> int:
    """Engine threads for one task: this worker's numba threads shared among its task slots."""
    import numba

    try:
        from distributed import get_worker

        slots = int(get_worker().state.nthreads)
    except (ImportError, ValueError, AttributeError):
        slots = 1
    return max(1, numba.config.NUMBA_NUM_THREADS // max(1, slots))  # type: ignore[attr-defined]


def _complete(path: Path, rows: int) -> bool:
    import pyarrow.parquet as pq

    try:
        return path.is_file() and pq.read_metadata(path).num_rows == rows
    except Exception:
        return False


def play_chunk(
    game: Game,
    fingerprint: str,
    seed: int,
    start: int,
    count: int,
    out_dir: str,
    threads: int | None = None,
) -> dict[str, Any]:
    """Play games ``[start, start+count)`` of ``game`` and write their part file into ``out_dir``; a small
    manifest."""
    t0 = time.perf_counter()
    game = _cached(game)
    if game.fingerprint() != fingerprint:
        raise RuntimeError(
            f"worker on {socket.gethostname()} has rules {game.fingerprint()}, the driver "
            f"{fingerprint}; install the same tokaido-sim everywhere"
        )
    end, out = start + count, Path(out_dir)
    name, rows = part_name(start, end), count * game.n_players
    played = not _complete(out / name, rows)  # a retried chunk may have written its part already
    if played:
        batch = game.play(seed, start, count, threads=threads or engine_threads())
        meta = part_metadata(outdir.new_manifest(game, seed))
        table = game.to_table(batch.records)
        sha256 = write_part(out, start, end, table, meta, game.statistics).sha256
        del batch
    else:
        sha256 = file_sha256(out / name)
    return {
        "start": start,
        "end": end,
        "rows": rows,
        "path": name,
        "sha256": sha256,
        "played": played,
        "seconds": time.perf_counter() - t0,
        "worker": f"{socket.gethostname()}:{os.getpid()}",
    }


# ---------------------------------------------------------------- the driver
class Cluster:
    """A connection to a Dask cluster (started lazily), used by ``runner.run`` and ``study.run_study``."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.n_local = parse_spec(spec)
        self.task: Callable[..., dict[str, Any]] = play_chunk  # tests swap in a failing task
        self.retries = RETRIES
        self.workers: dict[str, dict[str, Any]] = {}  # warm-up report by worker address
        self.results: list[dict[str, Any]] = []  # every task manifest received, in order
        self._client: Client | None = None
        self._local: LocalCluster | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._warm: set[str] = set()  # games whose kernels the workers have loaded

    # -------------------------------------------------------------- lifecycle
    @property
    def client(self) -> Client:
        with self._lock:
            if self._client is None:
                self._client = self._start()
            return self._client

    def _start(self) -> Client:
        from distributed import Client, LocalCluster

        if isinstance(self.n_local, int):
            n = self.n_local
            per = max(1, (os.cpu_count() or 1) // n)  # engine threads per worker: the cores, shared
            self._local = LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                preload=[__name__],
                silence_logs=logging.CRITICAL,  # failures reach the driver anyway
                env={"NUMBA_NUM_THREADS": str(per)},
            )
            client = Client(self._local)
            want = n
        else:
            try:
                client = Client(self.n_local, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:  # ValueError: an address Dask cannot parse
                raise UserError(
                    f"cannot reach the Dask scheduler at {self.spec} ({exc}); start one with "
                    "'dask scheduler' or check the address"
                ) from None
            want = 1
        try:
            client.wait_for_workers(want, timeout=WORKER_TIMEOUT)
            self.workers = client.run(describe, on_error="return")
            self._check_workers()
        except BaseException as exc:
            client.close()
            if self._local is not None:
                self._local.close()
                self._local = None
            if isinstance(exc, TimeoutError):
                raise UserError(
                    f"no worker joined the scheduler at {self.spec} within {WORKER_TIMEOUT:.0f} s; "
                    "start workers with 'dask worker ADDRESS'"
                ) from None
            raise
        return client

    def _check_workers(self) -> None:
        mine = {"code": CODE, **outdir.versions()}
        for addr, info in self.workers.items():
            if isinstance(info, BaseException):
                raise UserError(
                    f"worker {addr} cannot play games ({type(info).__name__}: {info}); install "
                    "tokaido-sim on every machine (see docs/cluster.md)"
                )
            theirs = {"code": info["code"], **info["versions"]}
            diff = [k for k in mine if k != "python" and theirs.get(k) != mine[k]]
            if diff:
                k = diff[0]
                raise UserError(
                    f"worker {addr} ({info['host']}) has {k} {theirs.get(k)}, this machine "
                    f"{mine[k]}; install the same tokaido-sim and libraries on every machine"
                )

    def close(self) -> None:
        with self._lock:
            client, local, self._client, self._local = self._client, self._local, None, None
        if client is not None:
            client.close()
        if local is not None:
            local.close()

    def slots(self) -> int:
        """Task slots (worker threads) in the cluster now."""
        info = self.client.scheduler_info(n_workers=-1)
        return sum(int(w.get("nthreads", 1)) for w in info["workers"].values()) or 1

    # ------------------------------------------------------------------- runs
    def play_chunks(
        self,
        game: Game,
        seed: int,
        out: Path,
        todo: Iterable[tuple[int, int]],
        threads: int | None,
        saved: Callable[[Part, int], None],
    ) -> None:
        """Play ``todo`` of ``game`` on the cluster; ``saved(manifest_entry, games)`` for each part as it is
        written."""
        todo = list(todo)
        if not todo:
            return
        self._check_stop()
        client, out = self.client, out.resolve()
        blind = [w for w, ok in client.run(sees, str(out / outdir.LOCK), on_error="ignore").items() if not ok]
        if blind:
            raise UserError(
                f"worker {blind[0]} cannot write to {out}: the output must be on storage that every "
                "worker mounts at the same path (see docs/cluster.md)"
            )
        shipped = game.for_worker()
        self._warm_up(client, shipped)
        done: queue.Queue[Future[dict[str, Any]]] = queue.Queue()
        spans: dict[Any, tuple[int, int]] = {}  # by task key
        futures = []
        tag, fp = uuid.uuid4().hex[:8], game.fingerprint()
        try:
            for start, end in todo:
                fut = client.submit(
                    self.task,
                    shipped,
                    fp,
                    seed,
                    start,
                    end - start,
                    str(out),
                    threads,
                    key=f"play_chunk-{start:012d}-{end:012d}-{tag}",
                    pure=False,
                    retries=self.retries,
                )
                spans[fut.key] = (start, end)
                futures.append(fut)
                fut.add_done_callback(done.put)
            for _ in range(len(futures)):
                fut = self._next(done)
                start, end = spans[fut.key]
                try:
                    res = fut.result()
                except Exception as exc:
                    raise ClusterError(
                        f"games [{start}, {end}) failed on the cluster ({type(exc).__name__}: "
                        f"{exc}); finished parts are kept: rerun with --resume"
                    ) from exc
                if (
                    res.get("path") != part_name(start, end)
                    or res.get("rows") != (end - start) * game.n_players
                ):
                    raise ClusterError(f"games [{start}, {end}) came back as {res!r}; rerun with --resume")
                self.results.append(res)
                saved(Part(res["path"], res["rows"], res["sha256"]), end - start)
        finally:
            pending = [f for f in futures if not f.done()]
            if pending:
                client.cancel(pending)

    def _warm_up(self, client: Client, game: Game) -> None:
        """Load ``game``'s kernels on every worker once (its first chunks are then timed fairly)."""
        with self._lock:
            if game.name in self._warm:
                return
            self._warm.add(game.name)
        for addr, info in client.run(warmup, game, on_error="return").items():
            if isinstance(info, BaseException):
                raise UserError(
                    f"worker {addr} cannot play {game.name} games ({type(info).__name__}: {info}); "
                    "install tokaido-sim on every machine (see docs/cluster.md)"
                )
            self.workers.setdefault(addr, info)["warmup_" + game.name] = info["seconds"]

    def _next(self, done: queue.Queue[Future[dict[str, Any]]]) -> Future[dict[str, Any]]:
        while True:
            self._check_stop()
            try:
                return done.get(timeout=POLL)
            except queue.Empty:
                continue

    def _check_stop(self) -> None:
        if self._stop.is_set():
            raise Stopped("stopped: another cell of the study failed or was interrupted")

    # ---------------------------------------------------------------- studies
    def each(self, fn: Callable[..., None], items: Sequence[tuple[Any, ...]]) -> None:
        """``fn(*item)`` for every item, several at once on driver threads (study cells), in order.

        Enough cells are in flight to keep every worker busy when cells are small.
        The first failure (or Ctrl-C) stops the others, which keep their finished parts.
        """
        width = max(2, min(len(items), self.slots(), MAX_CELL_THREADS))
        self._stop.clear()
        pool = cf.ThreadPoolExecutor(width, thread_name_prefix="tokaido-cell")
        futs = [pool.submit(fn, *item) for item in items]
        try:
            cf.wait(futs, return_when=cf.FIRST_EXCEPTION)
            for f in futs:
                if f.done() and not f.cancelled() and f.exception() is not None:
                    raise f.exception()  # type: ignore[misc]
        except BaseException:
            self._stop.set()
            for f in futs:
                f.cancel()
            raise
        finally:
            pool.shutdown(wait=True)
            self._stop.clear()
