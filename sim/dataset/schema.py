"""Tokaido's dataset schema: one row per player per game, its column groups, and how parts are written.

``traveler``, ``alt_traveler`` and ``bot`` are dictionary-encoded strings. Every per-player
column after ``win`` comes from the kernels' result record (``kernels.tokaido.core.enums.RESULT_FIELDS``):
points by source ``pts_*`` (summing to ``score``), counts, and Matsuri's card columns.
``sim.games.tokaido.dataset.to_table`` builds a table of this schema; ``analysis.load`` reads it.
"""

from __future__ import annotations

import os

import pyarrow as pa
import pyarrow.parquet as pq

from kernels.tokaido.core.enums import RESULT_FIELDS

# every per-player column after the ranking: points by source, then counts
# (kernels.tokaido.core.enums.RESULT_FIELDS)
PTS_COLUMNS = tuple(f for f in RESULT_FIELDS if f.startswith("pts_"))
# Matsuri: per game, the card kept (rejected) at each Inn and Hanabi's extras (Matsuri card ids, -1 none)
CARD_COLUMNS = tuple(
    f for f in RESULT_FIELDS if f.startswith(("matsuri_inn", "matsuri_rej", "matsuri_hanabi"))
)
COUNT_COLUMNS = tuple(
    f
    for f in RESULT_FIELDS[RESULT_FIELDS.index("pts_calligraphy") + 1 :]
    if not f.startswith("pts_") and f not in CARD_COLUMNS
)
NAME_TYPE = pa.dictionary(pa.int8(), pa.string())
SCHEMA = pa.schema(
    [
        ("game", pa.int64()),
        ("n_players", pa.int8()),
        ("player", pa.int8()),
        ("seat", pa.int8()),
        ("traveler", NAME_TYPE),
        ("alt_traveler", NAME_TYPE),
        ("bot", NAME_TYPE),
        ("score", pa.int16()),
        ("rank", pa.int8()),
        ("win", pa.float64()),
    ]
    + [(c, pa.int16()) for c in PTS_COLUMNS + COUNT_COLUMNS]
    + [(c, pa.int8()) for c in CARD_COLUMNS]
)
REQUIRED = ("game", "n_players", "player", "seat", "traveler", "score", "rank", "win")  # what a reader needs
# Columns that describe a run's configuration in a study dataset (hive partitions).
CONDITION_COLUMNS = ("variants", "expansions", "bots", "travelers", "pool")
NONE_TRAVELER = "none"  # the Journey of Initiation: nobody has a Traveler

COMPRESSION = "zstd"
COMPRESSION_LEVEL = 1  # same size as the default level on these small ints, faster
STATS_COLUMNS = ["game", "n_players", "player", "seat", "traveler", "bot", "rank"]  # min/max for filters
ROW_GROUP_ROWS = 1 << 18  # 262,144 rows: ~65k four-player games per row group


def write_table(table: pa.Table, path: str | os.PathLike[str]) -> None:
    """Write one part file (zstd, row groups of ``ROW_GROUP_ROWS``) and fsync it."""
    with open(path, "wb") as fh:
        pq.write_table(
            table,
            fh,
            compression=COMPRESSION,
            compression_level=COMPRESSION_LEVEL,
            row_group_size=ROW_GROUP_ROWS,
            write_statistics=STATS_COLUMNS,
        )
        fh.flush()
        os.fsync(fh.fileno())
