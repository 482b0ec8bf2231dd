"""Read a results dataset: Parquet part files (optionally hive-partitioned) and ``manifest.json``.

The format (schema, manifest, parts and their checks) is ``sim.dataset``'s, the same the runs are
written with; this module turns it into polars frames.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from sim.dataset import schema as S
from sim.dataset.manifest import Manifest
from sim.dataset.manifest import read_manifest as _read_manifest
from sim.dataset.parts import FIX_READ, checked_files

log = logging.getLogger("analysis")

CONDITION_COLUMNS = S.CONDITION_COLUMNS
POINT_SOURCES = S.PTS_COLUMNS
CARD_COLUMNS = S.CARD_COLUMNS
COUNTS = S.COUNT_COLUMNS
REQUIRED = S.REQUIRED


def _polars_type(t: pa.DataType) -> Any:
    return pl.String if pa.types.is_dictionary(t) else pl.Series(pa.array([], t)).dtype


# The dataset schema as polars types (names as text); partition columns may arrive as other types.
SCHEMA: dict[str, Any] = {
    **{f.name: _polars_type(f.type) for f in S.SCHEMA},
    **{c: pl.String for c in CONDITION_COLUMNS},
}

# A shared win counts 1/k for k <= 5 tied players: every share is a whole number of 60ths.
WIN_UNITS = 60


def win_sum(win: pl.Expr | None = None) -> pl.Expr:
    """The sum of ``win`` shares, exact and independent of row order.

    A float sum depends on the order polars adds the rows in, which varies with threads
    and part files; summing whole 60ths makes a win total identical to the bit wherever
    the games were played (in process, chunked, or on a cluster).
    """
    w = pl.col("win") if win is None else win
    return win_units(w).sum() / WIN_UNITS


def win_units(win: pl.Expr) -> pl.Expr:
    """``win`` shares as whole 60ths (Int64), so that sums of them are exact."""
    return (win * WIN_UNITS).round().cast(pl.Int64)


def exact_sums(x: pl.Expr, name: str) -> list[pl.Expr]:
    """``{name}_s1`` and ``{name}_s2``: the sum and the sum of squares of the whole numbers ``x``, as Int64.

    Integer sums are exact, so they do not depend on the order polars adds the rows in (threads, part
    files, the streaming engine's chunks), where a float variance or standard deviation does in its last
    digits. ``analysis.stats.var_from_sums`` turns them into the sample variance.
    """
    v = x.cast(pl.Int64)
    return [v.sum().alias(f"{name}_s1"), (v * v).sum().alias(f"{name}_s2")]


@dataclass
class Dataset:
    path: Path
    frame: pl.LazyFrame
    manifest: Manifest = field(default_factory=Manifest)
    files: list[Path] = field(default_factory=list)  # the Parquet files read
    notes: list[str] = field(default_factory=list)  # files skipped, and why (one line each)

    @property
    def seed(self) -> Any:
        """The run's seed from the manifest (None if the manifest has none)."""
        return self.manifest.seed


def parquet_files(path: str | Path) -> list[Path]:
    """The Parquet files of a dataset directory (recursively), or the file itself."""
    p = Path(path)
    if p.is_file() and p.suffix == ".parquet":
        return [p]
    if not p.is_dir():
        raise ValueError(
            f"dataset '{p}' does not exist: give a directory written by `tokaido-sim run` or `study`"
        )
    # hidden files (a leading dot) are temp files of a run in progress
    files = sorted(
        f for f in p.rglob("*.parquet") if not any(s.startswith(".") for s in f.relative_to(p).parts)
    )
    if not files:
        raise ValueError(
            f"no Parquet files (*.parquet) in '{p}': is it a dataset written by `tokaido-sim run`?"
        )
    return files


def read_manifest(path: str | Path) -> Manifest:
    """The dataset's ``manifest.json`` (an empty ``Manifest`` if there is none); one-line ``ValueError`` if
    bad."""
    p = Path(path)
    return _read_manifest(p if p.is_dir() else p.parent) or Manifest()


@contextmanager
def reading(files: Sequence[Path]) -> Iterator[None]:
    """Turn a Parquet decoding error while a query runs into one line naming the damaged file."""
    try:
        yield
    except pl.exceptions.ComputeError as exc:
        for f in files:
            try:
                pq.read_table(f)
            except (OSError, pa.ArrowException) as bad:
                reason = " ".join(str(bad).split())[:120]
                raise ValueError(f"{f} cannot be read ({reason}): corrupted; {FIX_READ}") from None
        raise exc


def load_dataset(path: str | Path) -> Dataset:
    """A dataset's rows (lazily, with hive partitions as columns), typed per ``SCHEMA``, and its manifest.

    The part files are checked against the manifests that list them (``sim.dataset.parts``): a
    damaged or missing part raises a one-line ``ValueError``; an unlisted file is skipped, with a
    note logged (and kept in ``Dataset.notes``).
    """
    p = Path(path)
    root = p if p.is_dir() else p.parent
    files, notes = checked_files(root, parquet_files(p))  # parquet_files raises when there is nothing to read
    for note in notes:
        log.warning(note)
    if not files:
        raise ValueError(f"no Parquet file of '{p}' is listed in its manifest: nothing to read")
    lf = pl.scan_parquet(
        files, hive_partitioning=p.is_dir(), hidden_file_prefix=".", try_parse_hive_dates=False
    )
    names = lf.collect_schema().names()
    missing = [c for c in REQUIRED if c not in names]
    if missing and "duo_board_version" in names:
        raise ValueError(f"'{p}' is a Tokaido Duo dataset: use `tokaido-sim duo report` / `duo plot`")
    if missing:
        raise ValueError(
            f"dataset '{p}' lacks the column(s) {', '.join(missing)}: not a tokaido-sim results dataset"
        )
    casts = [pl.col(c).cast(t) for c, t in SCHEMA.items() if c in names]
    # datasets written before the Crossroads columns existed read them as 0
    zeros = [pl.lit(0, pl.Int16).alias(c) for c in POINT_SOURCES + COUNTS if c not in names]
    zeros += [pl.lit(-1, pl.Int8).alias(c) for c in CARD_COLUMNS if c not in names]  # before Matsuri: no card
    return Dataset(p, lf.with_columns(casts + zeros), read_manifest(p), files, notes)


def load(path: str | Path) -> pl.LazyFrame:
    """The dataset at ``path`` as a ``pl.LazyFrame`` (see ``load_dataset`` for the manifest too).

    Raises ``ValueError`` with a one-line message if the directory holds no Parquet file.
    """
    return load_dataset(path).frame


def conditions(lf: pl.LazyFrame) -> list[str]:
    """The configuration columns (variants, expansions, bots, travelers, pool) that vary in the data."""
    present = [c for c in CONDITION_COLUMNS if c in lf.collect_schema().names()]
    if not present:
        return []
    # a missing value (a run concatenated with a study) is not another configuration
    counts = (
        lf.select([pl.col(c).drop_nulls().n_unique().alias(c) for c in present]).collect().row(0, named=True)
    )
    return [c for c in present if counts[c] > 1]
