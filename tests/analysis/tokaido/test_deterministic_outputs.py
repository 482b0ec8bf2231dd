"""A report and a comparison are a pure function of their data: the same files to the byte whatever the
threads polars runs on and whatever order the rows are stored in (users diff them in CI)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl

from tests.helpers.cli import ENV
from tests.helpers.study_data import make_study
from tests.helpers.synthetic_datasets import make_dataset

# every file of `report` on a study (the variants' effects held within each bot tier) and on a run, and of
# `compare` on two runs that pair game by game; paths relative to the working directory, so that the
# dataset's folder named in the reports is the same in every copy
COMMANDS = (
    ["report", "study", "--out", "out/study"],
    ["report", "base", "--out", "out/base"],
    ["compare", "base", "other", "--out", "out/compare"],
)
SCRIPT = (
    "import sys\n"
    "from sim.cli.app import main\n"
    f"for argv in {COMMANDS!r}:\n"
    "    try:\n"
    "        main(list(argv))\n"
    "    except SystemExit as e:\n"
    "        if e.code:\n"
    "            raise\n"
)


def _data(root: Path) -> Path:
    cells = [
        {"n_players": n, "variants": v, "bots": b}
        for n in (2, 4)
        for v in ("none", "gastronomy")
        for b in ("greedy", "random")
    ]
    make_study(root / "study", cells, games=300)
    make_dataset(root / "base", 1500, 4, seed=3)
    make_dataset(root / "other", 1500, 4, seed=3, variants="gastronomy", effect={"kinko": 2.0})
    return root


def _rewrite(root: Path, shuffle: int | None) -> None:
    """Every part file of ``root`` in row groups of 256 rows (so the streaming engine splits it), its rows
    shuffled with the seed ``shuffle`` (None: in their order)."""
    for part in sorted(root.rglob("*.parquet")):
        df = pl.read_parquet(part, hive_partitioning=False)
        if shuffle is not None:
            df = df[np.random.default_rng(shuffle).permutation(df.height)]
        df.write_parquet(part, row_group_size=256)


def _outputs(cwd: Path, threads: int) -> dict[str, bytes]:
    env = {**ENV, "POLARS_MAX_THREADS": str(threads), "NUMBA_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = cwd / "out"
    files = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    shutil.rmtree(out)
    return files


def _differing(a: dict[str, bytes], b: dict[str, bytes]) -> list[str]:
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


def test_reports_are_byte_identical_whatever_the_threads_and_the_row_order(tmp_path: Path) -> None:
    ordered, shuffled = tmp_path / "ordered", tmp_path / "shuffled"
    _data(ordered)
    shutil.copytree(ordered, shuffled)
    _rewrite(ordered, None)
    _rewrite(shuffled, 11)
    one = _outputs(ordered, 1)
    assert {"study/report.md", "study/travelers.csv", "base/report.html", "compare/compare.csv"} <= set(one)
    assert not _differing(one, _outputs(ordered, 4)), "1 vs 4 polars threads"
    assert not _differing(one, _outputs(shuffled, 2)), "the same rows in another order"
