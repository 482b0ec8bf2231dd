"""The structured dtype of the kernels' only output: one record per player per game."""

from __future__ import annotations

import numpy as np

from kernels.tokaido.core.enums import RESULT_FIELDS

_WIDE = {"game": np.int64}
_NARROW = {
    "player",
    "seat",
    "traveler",
    "alt_traveler",
    "bot",
    "rank",
    "win_k",
    "dolls",
    "carps",
    "matsuri_inn1",
    "matsuri_inn2",
    "matsuri_inn3",
    "matsuri_rej1",
    "matsuri_rej2",
    "matsuri_rej3",
    "matsuri_hanabi1",
    "matsuri_hanabi2",
}

RESULT_DTYPE = np.dtype(
    [(f, _WIDE.get(f, np.int8 if f in _NARROW else np.int16)) for f in RESULT_FIELDS], align=True
)
