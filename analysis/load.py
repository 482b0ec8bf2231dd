"""Read a results dataset: Parquet part files (optionally hive-partitioned) and ``manifest.json``."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from analysis.parts import checked_files
from kernels.core.enums import RESULT_FIELDS

log = logging.getLogger("analysis")

# Columns that describe a run's configuration in a study dataset (hive partitions).
CONDITION_COLUMNS = ("variants", "expansions", "bots", "travelers", "pool")

# every per-player column after the ranking: points by source, then counts (kernels.core.enums.RESULT_FIELDS)
POINT_SOURCES = tuple(f for f in RESULT_FIELDS if f.startswith("pts_"))
# Matsuri: the card kept (rejected) at each Inn and Hanabi's extras, per game (ids, -1 none)
CARD_COLUMNS = tuple(f for f in RESULT_FIELDS if f.startswith(("matsuri_inn", "matsuri_rej", "matsuri_hanabi")))
COUNTS = tuple(f for f in RESULT_FIELDS[RESULT_FIELDS.index("pts_calligraphy") + 1 :]
               if not f.startswith("pts_") and f not in CARD_COLUMNS)

# The dataset schema (one row per player per game); partition columns may arrive as other types.
SCHEMA: dict[str, type[pl.DataType] | pl.DataType] = {
    "game": pl.Int64, "n_players": pl.Int8, "player": pl.Int8, "seat": pl.Int8,
    "traveler": pl.String, "alt_traveler": pl.String, "bot": pl.String,
    "score": pl.Int16, "rank": pl.Int8, "win": pl.Float64,
    **{c: pl.Int16 for c in POINT_SOURCES + COUNTS},
    **{c: pl.Int8 for c in CARD_COLUMNS},
    **{c: pl.String for c in CONDITION_COLUMNS},
}
REQUIRED = ("game", "n_players", "player", "seat", "traveler", "score", "rank", "win")

# A shared win counts 1/k for k <= 5 tied players: every share is a whole number of 60ths.
WIN_UNITS = 60


def win_sum(win: pl.Expr | None = None) -> pl.Expr:
    """The sum of ``win`` shares, exact and independent of row order.

    A float sum depends on the order polars adds the rows in, which varies with threads
    and part files; summing whole 60ths makes a win total identical to the bit wherever
    the games were played (in process, chunked, or on a cluster).
    """
    w = pl.col("win") if win is None else win
    return (w * WIN_UNITS).round().cast(pl.Int64).sum() / WIN_UNITS


@dataclass
class Dataset:
    path: Path
    frame: pl.LazyFrame
    manifest: dict[str, Any] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)  # the Parquet files read
    notes: list[str] = field(default_factory=list)  # files skipped, and why (one line each)

    @property
    def seed(self) -> Any:
        """The run's seed from the manifest (None if the manifest has none)."""
        return self.manifest.get("seed")


def parquet_files(path: str | Path) -> list[Path]:
    """The Parquet files of a dataset directory (recursively), or the file itself."""
    p = Path(path)
    if p.is_file() and p.suffix == ".parquet":
        return [p]
    if not p.is_dir():
        raise ValueError(f"dataset '{p}' does not exist: give a directory written by `tokaido-sim run` or `study`")
    # hidden files (a leading dot) are temp files of a run in progress
    files = sorted(f for f in p.rglob("*.parquet") if not any(s.startswith(".") for s in f.relative_to(p).parts))
    if not files:
        raise ValueError(f"no Parquet files (*.parquet) in '{p}': is it a dataset written by `tokaido-sim run`?")
    return files


def read_manifest(path: str | Path) -> dict[str, Any]:
    """The dataset's ``manifest.json`` as a dict (empty if there is none)."""
    p = Path(path)
    m = (p if p.is_dir() else p.parent) / "manifest.json"
    if not m.is_file():
        return {}
    try:
        data = json.loads(m.read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"'{m}' is not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, dict):
        raise ValueError(f"'{m}' must hold a JSON object, got {type(data).__name__}")
    return data


def load_dataset(path: str | Path) -> Dataset:
    """A dataset's rows (lazily, with hive partitions as columns), typed per ``SCHEMA``, and its manifest.

    The part files are checked against the manifests that list them (``analysis.parts``): a
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
    lf = pl.scan_parquet(files, hive_partitioning=p.is_dir(), hidden_file_prefix=".", try_parse_hive_dates=False)
    names = lf.collect_schema().names()
    missing = [c for c in REQUIRED if c not in names]
    if missing and "duo_board_version" in names:
        raise ValueError(f"'{p}' is a Tokaido Duo dataset: use `tokaido-sim duo report` / `duo plot`")
    if missing:
        raise ValueError(f"dataset '{p}' lacks the column(s) {', '.join(missing)}: not a tokaido-sim results dataset")
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
    counts = lf.select([pl.col(c).drop_nulls().n_unique().alias(c) for c in present]).collect().row(0, named=True)
    return [c for c in present if counts[c] > 1]
