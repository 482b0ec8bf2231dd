"""Duo result records -> Arrow tables -> Parquet part files (the Duo twin of
``sim.games.tokaido.dataset.to_table``).

One row per player per game. Every row carries the board's provenance
(``duo_board_version``) and ``verified`` flag, so no Duo figure can be mistaken
for the published board (research expansions.md C.6). The runner writes the parts
the same way as every game's (``sim.dataset.parts.write_part``).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from kernels.duo.enums import BOT_NAMES
from kernels.duo.state import RESULT_FIELDS
from sim.games.duo.rules import DuoRules
from sim.run.game import win_share

NAME_TYPE = pa.dictionary(pa.int8(), pa.string())
INT_COLUMNS = tuple(f for f in RESULT_FIELDS if f not in ("game", "player", "bot", "rank", "win_k"))
SCHEMA = pa.schema(
    [
        ("game", pa.int64()),
        ("player", pa.int8()),
        ("bot", NAME_TYPE),
        ("rank", pa.int8()),
        ("win", pa.float64()),
    ]
    + [(c, pa.int16()) for c in INT_COLUMNS]
    + [("duo_board_version", NAME_TYPE), ("verified", pa.bool_())]
)
STATISTICS = ("bot", "rank")  # min/max in every row group besides the writer's (game, player)


def to_table(records: np.ndarray, rules: DuoRules) -> pa.Table:
    n = len(records)
    rank = np.ascontiguousarray(records["rank"])
    prov = pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int8)), pa.array([rules.provenance()]))
    cols = [
        pa.array(np.ascontiguousarray(records["game"], np.int64)),
        pa.array(np.ascontiguousarray(records["player"], np.int8)),
        pa.DictionaryArray.from_arrays(
            pa.array(np.ascontiguousarray(records["bot"], np.int8)), pa.array(list(BOT_NAMES))
        ),
        pa.array(rank.astype(np.int8)),
        pa.array(win_share(records)),
    ]
    cols += [pa.array(np.ascontiguousarray(records[c], np.int16)) for c in INT_COLUMNS]
    cols += [prov, pa.array(np.full(n, rules.verified))]
    return pa.Table.from_arrays(cols, schema=SCHEMA)
