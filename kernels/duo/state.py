"""Record dtypes of one Duo game and of its rules (fixed shapes, integers; fields in ``enums``).

``PUB``  what both players may see (bots read only this and ``RULES``):
    ps     int32[2, PF_N]        one row per player, fields ``PF``
    gs     int64[G_N]            game-wide scalars, fields ``G``
    wares  int8[2, MAX_WARE]     wares held by type
    bag    int8[MAX_WARE]        wares in the bag by type (public: total minus held)
    shown  int8[2, N_SLOTS]      icon 0..3 of each revealed painting slot, -1 face down
    btq    int8[N_COAST, 2]      boutique token on each coastal town: ware type, coins per ware
    wside  int8[3]               side (``Side``) of each character's wave tile
    wown   int8[3]               holder of each wave tile: -1 board, else the player
    cand   int32[MAX_CAND, 4]    candidate plays of the pick being decided (``rules.plays_nb``):
                                 target, extra, action, wave-use flag
    vals   float64[MAX_CAND]     the bots' candidate values (scratch)
    iscr   int32[64]             scratch (path search stacks)
    rng    uint64[1]             the game's random stream (``kernels.core.rng``)
``HID``  what no bot may read:
    tiles  int8[2, N_SLOTS]      each player's painting tiles (icon 0..3) in reading order
    log    int16[MAX_EVENTS, EV_FIELDS]  the action log (``Ev``; docs/duo.md)
    lg     int64[3]              log rows used, logging on (0/1), overflow (0/1)
``RULES``  built by ``sim.games.duo.rules.DuoRules.record``:
    ring   int8[2, N_RING]       row 0 type (``Ring``), row 1 coastal town index or -1
    town   int8[3, N_TOWNS]      row 0 kind (0 coastal, 1 mountain), row 1 ring index or -1,
                                 row 2 wares drawn (mountain value)
    tadj   int8[N_TOWNS, N_TOWNS]  route index joining two towns, -1 none
    zicon  int8[MAX_ZONES]       icon 0..3 of each zone
    zring  int8[MAX_ZONES, N_RING]  1 if the ring space is on the zone's border
    ztown  int8[MAX_ZONES, N_TOWNS] 1 if the town is on the zone's border
    zadj   int8[MAX_ZONES, MAX_ZONES]  1 if two zones share a route (derived)
    dice   int8[3, N_DIE_FACES]  faces by character
    tvals  int16[TEMPLE_FULL+1], gvals int16[GARDEN_FULL+1], slabs int16[N_SLABS],
    avals  int16[N_SLOTS]        printed values
    btq    int8[N_COAST, 2]      the boutique tokens (ware, coins) before shuffling
    bag    int8[MAX_WARE]        wares by type
    pool   int8[N_ICONS]         painting tiles by icon (2 * N_SLOTS in all)
    waves  int8[3, 2]            the two sides of each character's wave tile
    start  int8[3, 2]            start pilgrim ring index, merchant town, artist zone per player
    params int32[P_N]            ``P``
    auto   int32[A_N]            the Automa's choices (``A``; solo games)
    arank  int8[2, 5]            her Rank steps: row 0 by ring type landed on (``Ring``), row 1 coastal,
                                 mountain town reached
    rvals  int16[3, MAX_RANK]    the Rank printed on each slot of her three tracks
    cfg    int32[CFG_N]          ``Cfg``: bots, logging
    botw   float64[2, W_N]       each player's bot weights (``bots.W``)
"""

import numpy as np

from kernels.duo.enums import (
    A_N,
    CFG_N,
    EV_FIELDS,
    G_N,
    GARDEN_FULL,
    MAX_CAND,
    MAX_EVENTS,
    MAX_RANK,
    MAX_WARE,
    MAX_ZONES,
    N_COAST,
    N_DIE_FACES,
    N_ICONS,
    N_PLAYERS,
    N_RING,
    N_SLABS,
    N_SLOTS,
    N_TOWNS,
    P_N,
    PF_N,
    TEMPLE_FULL,
)

W_N = 16

PUB_DTYPE = np.dtype(
    [
        ("ps", np.int32, (N_PLAYERS, PF_N)),
        ("gs", np.int64, (G_N,)),
        ("wares", np.int8, (N_PLAYERS, MAX_WARE)),
        ("bag", np.int8, (MAX_WARE,)),
        ("shown", np.int8, (N_PLAYERS, N_SLOTS)),
        ("btq", np.int8, (N_COAST, 2)),
        ("wside", np.int8, (3,)),
        ("wown", np.int8, (3,)),
        ("cand", np.int32, (MAX_CAND, 4)),
        ("vals", np.float64, (MAX_CAND,)),
        ("iscr", np.int32, (64,)),
        ("rng", np.uint64, (1,)),
    ],
    align=True,
)

HID_DTYPE = np.dtype(
    [
        ("tiles", np.int8, (N_PLAYERS, N_SLOTS)),
        ("log", np.int16, (MAX_EVENTS, EV_FIELDS)),
        ("lg", np.int64, (3,)),
    ],
    align=True,
)

RULES_DTYPE = np.dtype(
    [
        ("ring", np.int8, (2, N_RING)),
        ("town", np.int8, (3, N_TOWNS)),
        ("tadj", np.int8, (N_TOWNS, N_TOWNS)),
        ("zicon", np.int8, (MAX_ZONES,)),
        ("zring", np.int8, (MAX_ZONES, N_RING)),
        ("ztown", np.int8, (MAX_ZONES, N_TOWNS)),
        ("zadj", np.int8, (MAX_ZONES, MAX_ZONES)),
        ("dice", np.int8, (3, N_DIE_FACES)),
        ("tvals", np.int16, (TEMPLE_FULL + 1,)),
        ("gvals", np.int16, (GARDEN_FULL + 1,)),
        ("slabs", np.int16, (N_SLABS,)),
        ("avals", np.int16, (N_SLOTS,)),
        ("btq", np.int8, (N_COAST, 2)),
        ("bag", np.int8, (MAX_WARE,)),
        ("pool", np.int8, (N_ICONS,)),
        ("waves", np.int8, (3, 2)),
        ("start", np.int8, (3, N_PLAYERS)),
        ("params", np.int32, (P_N,)),
        ("auto", np.int32, (A_N,)),
        ("arank", np.int8, (2, 5)),
        ("rvals", np.int16, (3, MAX_RANK)),
        ("cfg", np.int32, (CFG_N,)),
        ("botw", np.float64, (N_PLAYERS, W_N)),
    ],
    align=True,
)

# One row per player per game (``game.write_records_nb``); sim/games/duo/dataset.py names the columns.
RESULT_FIELDS = (
    "game",
    "player",
    "bot",
    "first",
    "score",
    "rank",
    "win_k",
    "pts_pilgrim",
    "pts_merchant",
    "pts_artist",
    "coins",
    "slabs",
    "temple",
    "garden",
    "revealed",
    "gifted",
    "end_triggers",
    "rounds",
    "hs_taken",
    "hs_used",
    "waves_taken",
    "wave_use_pilgrim",
    "wave_use_merchant",
    "wave_use_artist",
    "waves_held",
)
_NARROW = {"player", "bot", "first", "rank", "win_k"}
RESULT_DTYPE = np.dtype(
    [(f, np.int64 if f == "game" else (np.int8 if f in _NARROW else np.int16)) for f in RESULT_FIELDS],
    align=True,
)
