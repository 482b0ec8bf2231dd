"""Tokaido's dataset schema: one row per player per game, and its column groups.

``traveler``, ``alt_traveler`` and ``bot`` are dictionary-encoded strings. Every per-player
column after ``win`` comes from the kernels' result record (``kernels.tokaido.core.enums.RESULT_FIELDS``):
points by source ``pts_*`` (summing to ``score``), counts, and Matsuri's card columns.
``sim.games.tokaido.dataset.to_table`` builds a table of this schema; ``analysis.load`` reads it.
It is Tokaido's, not the format's: it sits here only because ``analysis.load`` reads it and may
import nothing of ``sim.games``. How any game's part is written is ``sim.dataset.parts``'s.
"""

from __future__ import annotations

import pyarrow as pa

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

# min/max in every row group besides the writer's (game, player): what a report groups and filters on
STATISTICS = ("n_players", "seat", "traveler", "bot", "rank")
