"""Result records -> Arrow tables (``sim.dataset.schema.SCHEMA``); reading a dataset back with pyarrow.

One row per player per game. ``traveler``, ``alt_traveler`` and ``bot`` are
dictionary-encoded strings built straight from the kernels' id arrays (no
Python loop over rows).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds

from kernels.tokaido.core import enums as E
from sim.dataset.schema import (
    CARD_COLUMNS,
    COUNT_COLUMNS,
    NAME_TYPE,
    NONE_TRAVELER,
    PTS_COLUMNS,
    SCHEMA,
    STATISTICS,
)
from sim.games.tokaido.rules.tables import Rules
from sim.run.game import win_share

__all__ = [
    "CARD_COLUMNS",
    "COUNT_COLUMNS",
    "NAME_TYPE",
    "NONE_TRAVELER",
    "PTS_COLUMNS",
    "SCHEMA",
    "STATISTICS",
    "open_dataset",
    "part_files",
    "read_table",
    "to_table",
    "traveler_names",
]


def traveler_names(rules: Rules) -> list[str]:
    """Dictionary of the ``traveler`` columns: lower-case names by id, then ``none``."""
    return [t.name.lower() for t in rules.travelers] + [NONE_TRAVELER]


def _names(ids: np.ndarray, dictionary: pa.Array, null_if_negative: bool) -> pa.DictionaryArray:
    ids = ids.astype(np.int8, copy=False)
    neg = ids < 0
    if null_if_negative:
        idx = np.where(neg, 0, ids).astype(np.int8)
        return pa.DictionaryArray.from_arrays(pa.array(idx, mask=neg), dictionary)
    idx = np.where(neg, len(dictionary) - 1, ids).astype(np.int8)
    return pa.DictionaryArray.from_arrays(pa.array(idx), dictionary)


def to_table(records: np.ndarray, rules: Rules, n_players: int) -> pa.Table:
    """Turn a ``GameBatch.records`` array (``RESULT_DTYPE``) into a table with ``SCHEMA``."""
    trav = pa.array(traveler_names(rules), pa.string())
    bots = pa.array(list(E.BOT_NAMES), pa.string())
    rank = np.ascontiguousarray(records["rank"])
    cols: dict[str, pa.Array] = {
        "game": pa.array(np.ascontiguousarray(records["game"], np.int64)),
        "n_players": pa.array(np.full(len(records), n_players, np.int8)),
        "player": pa.array(np.ascontiguousarray(records["player"], np.int8)),
        "seat": pa.array(np.ascontiguousarray(records["seat"], np.int8)),
        "traveler": _names(records["traveler"], trav, null_if_negative=False),
        "alt_traveler": _names(records["alt_traveler"], trav, null_if_negative=True),
        "bot": _names(records["bot"], bots, null_if_negative=False),
        "score": pa.array(np.ascontiguousarray(records["score"], np.int16)),
        "rank": pa.array(rank.astype(np.int8, copy=False)),
        "win": pa.array(win_share(records)),
    }
    for c in PTS_COLUMNS + COUNT_COLUMNS:
        cols[c] = pa.array(np.ascontiguousarray(records[c], np.int16))
    for c in CARD_COLUMNS:
        cols[c] = pa.array(np.ascontiguousarray(records[c], np.int8))
    return pa.Table.from_arrays(list(cols.values()), schema=SCHEMA)


def part_files(root: str | os.PathLike[str]) -> list[Path]:
    """Every finished part file under ``root`` (temp files start with a dot and are skipped)."""
    return sorted(p for p in Path(root).rglob("part-*.parquet") if p.is_file())


def open_dataset(root: str | os.PathLike[str], files: Sequence[Path] | None = None) -> ds.Dataset:
    """A pyarrow dataset of a run or study directory (hive partition keys become columns).

    Manifests and temp files are skipped. A partition key that is also a file
    column (``n_players``) keeps the file's type and values.
    """
    root = Path(root)
    files = list(files) if files is not None else part_files(root)
    if not files:
        return ds.dataset(pa.table({f.name: pa.array([], f.type) for f in SCHEMA}))
    keys = _partition_keys(root, files[0])
    part_schema = pa.schema(
        [SCHEMA.field(k) if k in SCHEMA.names else pa.field(k, pa.string()) for k in keys]
    )
    partitioning = ds.partitioning(part_schema, flavor="hive") if keys else None
    return ds.dataset(
        [str(f) for f in files], format="parquet", partitioning=partitioning, partition_base_dir=str(root)
    )


def _partition_keys(root: Path, file: Path) -> list[str]:
    rel = file.relative_to(root).parts[:-1]
    return [p.split("=", 1)[0] for p in rel if "=" in p]


def read_table(root: str | os.PathLike[str]) -> pa.Table:
    """The whole dataset under ``root`` as one table, partition columns included."""
    return open_dataset(root).to_table()
