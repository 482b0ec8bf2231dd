"""Correctness-aware benchmark of the tokaido-sim engine (see benchmarks/README.md).

    .venv/bin/python benchmarks/bench_engine.py --wait-quiet 1800 --e2e-repeat 2

Correctness checks first (the referee on the benchmarked configuration, compiled
vs pure-Python records; nothing is timed if one fails: exit 1), then the kernel
alone at each thread count, ``tokaido-sim run`` end to end into Parquet, the
kernels in pure Python (``NUMBA_DISABLE_JIT=1``) and the referee. Writes a
Markdown report (--out) and prints it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numba
import numpy as np
import pyarrow
import pyarrow.parquet as pq

from sim.games.tokaido.engine import play_games
from sim.games.tokaido.referee.game import referee_game, rows_from_records
from sim.games.tokaido.rules.config import GameConfig

QUIET = 0.25  # CPUs used by other processes below which a timing counts as undisturbed
TARGET = 60_000  # games/s end to end, 4 players, greedy bots, base game, 2 cores
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}

PURE_CHILD = """
import json, sys, time
import numba
assert numba.config.DISABLE_JIT
import numpy as np
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.engine import play_games
spec, seed, count, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
config = GameConfig.parse(spec)
rules = config.rules()
play_games(config, rules, seed, 0, 2)  # warm-up (imports, first calls)
t = time.perf_counter()
b = play_games(config, rules, seed, 0, count)
dt = time.perf_counter() - t
np.save(out, b.records)
print(json.dumps({"seconds": dt}))
"""


# ---------------------------------------------------------------- machine
def proc_field(path: str, key: str) -> str | None:
    """The first ``key`` line's value in a /proc file (``model name`` of cpuinfo, ``MemTotal`` of meminfo)."""
    try:
        return next(
            (ln.split(":", 1)[1].strip() for ln in Path(path).read_text().splitlines() if ln.startswith(key)),
            None,
        )
    except OSError:
        return None


def cpu_model() -> str:
    return proc_field("/proc/cpuinfo", "model name") or platform.processor() or "unknown"


def git_commit() -> str:
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True)
        if rev.returncode:
            return "unknown (not a git checkout)"
        return rev.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")
    except OSError:
        return "unknown"


def machine() -> dict[str, str]:
    return {
        "CPU": cpu_model(),
        "cores (os.cpu_count)": str(os.cpu_count()),
        "cores available to this process": str(len(os.sched_getaffinity(0)))
        if hasattr(os, "sched_getaffinity")
        else "?",
        "RAM": f"{int((proc_field('/proc/meminfo', 'MemTotal') or '0 kB').split()[0]) / 2**20:.1f} GiB",
        "OS": platform.platform(),
        "python": platform.python_version(),
        "numba": f"{numba.__version__} (threading layer: {layer()}, {numba.config.NUMBA_NUM_THREADS} threads "
        f"max)",
        "numpy": np.__version__,
        "pyarrow": pyarrow.__version__,
        "commit": git_commit(),
    }


def layer() -> str:
    try:
        return numba.threading_layer()  # known once a parallel kernel has run
    except ValueError:
        return numba.config.THREADING_LAYER


def cpu_times() -> tuple[int, int]:
    vals = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return sum(vals), vals[3] + vals[4]  # total, idle + iowait (steal counts as busy)


def own_cpu() -> float:
    """CPU seconds used by this process and its finished children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


class Meter:
    """Wall time of a block, and how many CPUs other processes used meanwhile (/proc/stat minus our CPU)."""

    def __enter__(self) -> Meter:
        self.stat0, self.own0, self.t0 = cpu_times(), own_cpu(), time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self.t0
        total, idle = cpu_times()
        busy = ((total - self.stat0[0]) - (idle - self.stat0[1])) / os.sysconf("SC_CLK_TCK")
        self.others = max(0.0, busy - (own_cpu() - self.own0)) / max(self.seconds, 1e-9)


def others_busy(seconds: float = 1.0) -> float:
    """CPUs kept busy by other processes while this one sleeps."""
    with Meter() as m:
        time.sleep(seconds)
    return m.others


def wait_quiet(max_seconds: float) -> float:
    """Wait (up to ``max_seconds``) until other processes use under ``QUIET`` CPUs; returns their use."""
    deadline = time.monotonic() + max_seconds
    busy = others_busy()
    while busy > QUIET and time.monotonic() < deadline:
        print(f"  the machine is busy ({busy:.2f} CPUs used by others); waiting ...", flush=True)
        time.sleep(20)
        busy = others_busy()
    return busy


def measure(run: Callable[[], int], repeat: int, wait: float) -> list[tuple[float, float]]:
    """``repeat`` timings of ``run`` (returns games played): [(games/s, CPUs used by others)].

    With ``wait`` > 0 a timing disturbed by other processes is taken again (after
    waiting for quiet), up to ``repeat`` extra times.
    """
    out: list[tuple[float, float]] = []
    retries = repeat if wait > 0 else 0
    while len([x for x in out if x[1] <= QUIET]) < repeat and (len(out) < repeat or retries > 0):
        if len(out) >= repeat:
            retries -= 1
            wait_quiet(wait)
        with Meter() as m:
            games = run()
        out.append((games / m.seconds, m.others))
    return out


def best(timings: list[tuple[float, float]]) -> tuple[float, float]:
    """The fastest quiet timing (others below QUIET), else the fastest."""
    quiet = [t for t in timings if t[1] <= QUIET]
    return max(quiet or timings)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f}"


# ---------------------------------------------------------------- checks
def check_referee(config: GameConfig, seed: int, games: int) -> tuple[int, float, float]:
    """Referee ``games`` games; returns (mismatches, referee games/s, CPUs used by others meanwhile)."""
    rules = config.rules()
    n = config.n_players
    batch = play_games(config, rules, seed, 0, games, log=True)
    bad = 0
    with Meter() as m:
        for i in range(games):
            rows = rows_from_records(batch.records[i * n : (i + 1) * n])
            res = referee_game(config, rules, batch.game_events(i), rows)
            if not res.ok:
                bad += 1
                if bad == 1:
                    print(
                        f"referee mismatch: {config.spec()}, seed {seed}, game {i}: {res.errors[:3]}",
                        file=sys.stderr,
                    )
    return bad, games / m.seconds, m.others


def pure_python(config: GameConfig, seed: int, games: int) -> tuple[np.ndarray, float]:
    """Play games 0..games-1 with NUMBA_DISABLE_JIT=1 in a subprocess: (records, seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "records.npy"
        proc = subprocess.run(
            [sys.executable, "-c", PURE_CHILD, config.spec(), str(seed), str(games), str(out)],
            env={**ENV, "NUMBA_DISABLE_JIT": "1"},
            cwd=tmp,
            capture_output=True,
            text=True,
        )
        if proc.returncode:
            raise SystemExit(f"pure-Python run failed:\n{proc.stderr[-2000:]}")
        return np.load(out), json.loads(proc.stdout.strip().splitlines()[-1])["seconds"]


def same_records(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and all(np.array_equal(a[f], b[f]) for f in a.dtype.names)


# ---------------------------------------------------------------- timings
def time_kernel(
    config: GameConfig, seed: int, args: argparse.Namespace, threads: int
) -> list[tuple[float, float]]:
    rules = config.rules()
    before = numba.get_num_threads()
    try:
        for _ in range(args.warmup):
            play_games(config, rules, seed, 0, min(args.kernel_games, 20_000), threads=threads)

        def run() -> int:
            play_games(config, rules, seed, 0, args.kernel_games, threads=threads)
            return args.kernel_games

        return measure(run, args.repeat, args.wait_quiet)
    finally:
        numba.set_num_threads(before)


def cli_command() -> list[str]:
    script = Path(sys.executable).with_name("tokaido-sim")
    if script.exists():
        return [str(script)]
    found = shutil.which("tokaido-sim")
    return [found] if found else [sys.executable, "-c", "from sim.cli.app import main; main()"]


def end_to_end(config: GameConfig, seed: int, games: int, threads: int, info: dict) -> int:
    """``tokaido-sim run`` in a subprocess (start-up included), checked; returns ``games``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        cmd = [
            *cli_command(),
            "run",
            "--games",
            str(games),
            "--seed",
            str(seed),
            "--out",
            str(out),
            "--players",
            str(config.n_players),
            "--bots",
            ",".join(config.bots),
            "--threads",
            str(threads),
            "--quiet",
        ]
        proc = subprocess.run(cmd, env=ENV, capture_output=True, text=True)
        if proc.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
        manifest = json.loads((out / "manifest.json").read_text())
        rows = sum(pq.ParquetFile(p).metadata.num_rows for p in out.glob("part-*.parquet"))
        if manifest.get("status") != "complete" or rows != games * config.n_players:
            raise SystemExit(f"end-to-end run incomplete: status {manifest.get('status')}, {rows} rows")
        info["bytes"] = sum(p.stat().st_size for p in out.iterdir())
        info["cmd"] = " ".join(["tokaido-sim", *cmd[len(cli_command()) :]]).replace(str(out), "OUT")
        return games


# ---------------------------------------------------------------- report
def fmt(timings: list[tuple[float, float]]) -> str:
    return ", ".join(f"{g:,.0f}" + (f" (busy {o:.2f})" if o > QUIET else "") for g, o in timings)


def report(args: argparse.Namespace, facts: dict[str, str], r: dict) -> str:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    kernel = {t: best(v) for t, v in r["kernel"].items()}
    e2e, e2e_others = best(r["e2e"])
    pure, pure_others = best(r["pure"])
    t1, tn = min(kernel), max(kernel)
    rows = [
        (
            f"kernel only, {t} thread{'s' if t > 1 else ''} (best of: {fmt(r['kernel'][t])})",
            args.kernel_games,
            f"{g:,.0f}",
            o,
        )
        for t, (g, o) in kernel.items()
    ]
    rows += [
        (
            f"end to end: `{r['e2e_info']['cmd']}` ({args.games / e2e:.2f} s, "
            f"{r['e2e_info']['bytes'] / 2**20:.1f} MiB "
            f"of Parquet; runs: {fmt(r['e2e'])})",
            args.games,
            f"{e2e:,.0f}",
            e2e_others,
        ),
        (
            "pure Python kernels (`NUMBA_DISABLE_JIT=1`), 1 thread",
            args.pure_games,
            f"{pure:,.1f}",
            pure_others,
        ),
        (
            "referee (pure Python: replay and compare)",
            args.referee_games,
            f"{r['referee_rate']:,.0f}",
            r["ref_others"],
        ),
    ]
    disturbed = [name for name, _, _, o in rows if o > QUIET]
    lines = [
        "# tokaido-sim benchmarks",
        "",
        f"Generated by `benchmarks/bench_engine.py` on {r['when']}; do not edit by hand.",
        "",
        f"Configuration: `{r['spec']}` (base game, greedy bots), seed {args.seed}.",
        "",
        "## Machine",
        "",
        "| | |",
        "|---|---|",
        *(f"| {k} | {v} |" for k, v in facts.items()),
        f"| load average (1/5/15 min) at start | {r['load_start']} |",
        f"| load average (1/5/15 min) at end | {r['load_end']} |",
        "",
        "## Correctness (checked before anything is timed)",
        "",
        f"- referee: {args.referee_games:,} games replayed by `sim/games/tokaido/referee/game.py`, "
        f"**{r['ref_bad']} mismatches**",
        f"- compiled vs pure Python (`NUMBA_DISABLE_JIT=1`): {args.check_games:,} games, records "
        f"**{'identical' if r['nojit_same'] else 'DIFFERENT'}**",
        f"- end-to-end run: manifest complete, {args.games * args.players:,} Parquet rows",
        "",
        "## Throughput",
        "",
        "The last column is the CPUs other processes used during the timing (from `/proc/stat`); "
        f"timings with more than {QUIET} are marked busy and only count if no quiet one exists.",
        "",
        "| measurement | games | games/s | others' CPUs |",
        "|---|---:|---:|---:|",
        *(f"| {name} | {games:,} | **{rate}** | {o:.2f} |" for name, games, rate, o in rows),
        "",
        f"- compiled ({t1} thread) / pure Python: **{kernel[t1][0] / pure:,.0f}x**",
        f"- parallel speed-up of the kernel, {tn} vs {t1} thread: {kernel[tn][0] / kernel[t1][0]:.2f}x",
        f"- end to end / kernel only ({tn} threads): {e2e / kernel[tn][0]:.2f}",
        f"- target: >= {TARGET:,} games/s end to end on 2 cores (4 players, greedy, base game): "
        f"**{'met' if e2e >= TARGET else 'NOT met'}** ({e2e / TARGET:.1f}x the target, {cores} cores "
        f"available)",
    ]
    if disturbed:
        names = "; ".join(re.split(r" \(|:", n)[0] for n in disturbed)
        lines.append(
            f"- WARNING: other processes used the CPUs during: {names}; those figures are low estimates."
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=2_000_000, help="games of the end-to-end run")
    ap.add_argument("--kernel-games", type=int, default=200_000, help="games per kernel timing")
    ap.add_argument("--threads", default="1,2", help="kernel thread counts, comma-separated")
    ap.add_argument("--repeat", type=int, default=5, help="kernel timings per thread count (best is kept)")
    ap.add_argument("--e2e-repeat", type=int, default=1, help="end-to-end runs (best is kept)")
    ap.add_argument("--warmup", type=int, default=2, help="untimed kernel calls first")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--referee-games", type=int, default=1000, help="games refereed (correctness and speed)")
    ap.add_argument("--check-games", type=int, default=200, help="games compared, compiled vs pure Python")
    ap.add_argument("--pure-games", type=int, default=300, help="games timed in pure Python")
    ap.add_argument(
        "--wait-quiet",
        type=float,
        default=0,
        metavar="SECONDS",
        help="wait up to this long for other processes to leave the CPUs idle before each timing, "
        "and time again a timing they disturbed",
    )
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "BENCHMARKS.md")
    args = ap.parse_args(argv)
    threads = sorted({int(x) for x in args.threads.split(",")})
    config = GameConfig(n_players=args.players, bots=("greedy",))
    rules = config.rules()
    r: dict = {
        "spec": config.spec(),
        "load_start": load(),
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; load {r['load_start']}", flush=True)

    # correctness first: nothing is timed unless the engine is right
    print("checking: referee ...", flush=True)
    r["ref_bad"], r["referee_rate"], r["ref_others"] = check_referee(config, args.seed, args.referee_games)
    print("checking: compiled vs pure Python ...", flush=True)
    pure_recs, _ = pure_python(config, args.seed, args.check_games)
    r["nojit_same"] = same_records(
        pure_recs, play_games(config, rules, args.seed, 0, args.check_games).records
    )
    if r["ref_bad"] or not r["nojit_same"]:
        print(
            f"correctness check failed (referee mismatches {r['ref_bad']}, pure Python equal: "
            f"{r['nojit_same']}); nothing timed",
            file=sys.stderr,
        )
        return 1

    wait_quiet(args.wait_quiet)
    r["kernel"] = {}
    for t in threads:
        print(f"timing: kernel, {t} thread(s) ...", flush=True)
        r["kernel"][t] = time_kernel(config, args.seed, args, t)
    print(f"timing: end to end, {args.games:,} games ...", flush=True)
    r["e2e_info"] = {}
    r["e2e"] = measure(
        lambda: end_to_end(config, args.seed, args.games, max(threads), r["e2e_info"]),
        args.e2e_repeat,
        args.wait_quiet,
    )
    print("timing: pure Python ...", flush=True)
    pure: list[tuple[float, float]] = []
    for _ in range(1 + (args.wait_quiet > 0)):
        with Meter() as m:
            _, seconds = pure_python(config, args.seed, args.pure_games)
        pure.append((args.pure_games / seconds, m.others))
        if m.others <= QUIET:
            break
        wait_quiet(args.wait_quiet)
    r["pure"] = pure
    r["load_end"] = load()
    facts = machine()

    text = report(args, facts, r)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print()
    print(text)
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
