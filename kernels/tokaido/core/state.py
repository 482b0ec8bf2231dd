"""Record dtypes of one game's state and of the rules handed to the kernels.

Kernels pass these three records (numpy structured scalars) instead of many
arrays: a record travels as one pointer, with no reference counting, which
keeps calls between small kernels cheap.

``PUB``  what every player may see, plus scratch space:
    ps    int32[MAX_TRAV, PF_N]  one row per traveler (fields ``enums.PF``)
    gs    int64[G_N]             game-wide scalars (``enums.G``)
    occ   int8[N_SPACES]         travelers on each space
    dcnt  int32[N_DECKS]         cards left in each pile (public)
    hand  int16[HAND_CAP]        the current Inn's meal hand (``gs[G.HAND_N]`` cards)
    tbl   int16[HAND_CAP]        cards drawn face up onto the table
    cand  int32[N_SPACES]        the mover's legal destinations
    iscr  int32[16], fscr float64[16]  scratch, so hot paths never allocate
    rng   uint64[1]              the game's random stream (``kernels.core.rng``)
    mkt   int8[N_MARKETS, MARKET_CAP]  Crossroads markets (Legendary Objects,
          Amulets, Calligraphy): 1 if the card is in play and available
    xcnt  int32[2]               Cherry Trees and Bathhouses left
    gone  int64[N_DECKS]         bit c of deck d: card c joined a collection (face up, public), so
          a bot can tell which cards the piles (and an Inn's unseen hand) hold, not their order
    bscr  float64[BSCR_N]        the bots' scratch (kernels/tokaido/bots/features.py)
``HID``  what no bot may read:
    deck  int16[N_DECKS, DECK_CAP]  each pile as a ring buffer of card ids
    dtop  int32[N_DECKS]         index of each pile's top card
    log   int16[MAX_EVENTS, EV_FIELDS]  the action log (docs/log-format.md)
    lg    int64[3]               log rows used, logging on (0/1), overflow (0/1)
``RULES``  the rules tables (built by ``sim.games.tokaido.rules.tables.Rules.tables``) and the bots:
    board int8[2, N_SPACES]      row 0 space type (``Space``), row 1 double flag
    card  int16[N_DECKS, 2, DECK_CAP]  two attributes per card id: souvenirs
          (family, cost), meals (dish, cost), hot springs (value, 0),
          encounters (``Enc`` kind, panorama type or -1)
    dsize int16[N_DECKS]         cards of each kind
    params int32[P_N]            the numbers of the rules (``P``)
    trav  int32[MAX_POOL, 3]     Travelers: starting coins, ``Ability``, gender
    cfg   int32[CFG_N]           the run's configuration (``Cfg``)
    botw  float64[MAX_TRAV, W_N] each player's bot weights (``W``)
    seval float64[EV_N]          the search bot's evaluation at the Inns (``weights.EV_*``)
    xcard int16[N_MARKETS, 2, MARKET_CAP]  Crossroads cards: Legendary Objects
          (``Legend`` kind, cost), Amulets (``Amulet`` kind, 0), Calligraphy
          (``Calli`` kind, 0)
"""

import numpy as np

from kernels.tokaido.core.enums import (
    CFG_N,
    DECK_CAP,
    EV_FIELDS,
    G_N,
    HAND_CAP,
    MARKET_CAP,
    MAX_EVENTS,
    MAX_POOL,
    MAX_TRAV,
    N_DECKS,
    N_MARKETS,
    N_SPACES,
    P_N,
    PF_N,
)
from kernels.tokaido.core.weights import EV_N, W_N

BSCR_N = 480  # kernels/tokaido/bots/features.py: its layout (context, memos, game and pile tables)

PUB_DTYPE = np.dtype(
    [
        ("ps", np.int32, (MAX_TRAV, PF_N)),
        ("gs", np.int64, (G_N,)),
        ("occ", np.int8, (N_SPACES,)),
        ("dcnt", np.int32, (N_DECKS,)),
        ("hand", np.int16, (HAND_CAP,)),
        ("tbl", np.int16, (HAND_CAP,)),
        ("cand", np.int32, (N_SPACES,)),
        ("iscr", np.int32, (16,)),
        ("fscr", np.float64, (16,)),
        ("rng", np.uint64, (1,)),
        ("mkt", np.int8, (N_MARKETS, MARKET_CAP)),
        ("xcnt", np.int32, (2,)),
        ("gone", np.int64, (N_DECKS,)),
        ("bscr", np.float64, (BSCR_N,)),
    ],
    align=True,
)

HID_DTYPE = np.dtype(
    [
        ("deck", np.int16, (N_DECKS, DECK_CAP)),
        ("dtop", np.int32, (N_DECKS,)),
        ("log", np.int16, (MAX_EVENTS, EV_FIELDS)),
        ("lg", np.int64, (3,)),
    ],
    align=True,
)

RULES_DTYPE = np.dtype(
    [
        ("board", np.int8, (2, N_SPACES)),
        ("card", np.int16, (N_DECKS, 2, DECK_CAP)),
        ("dsize", np.int16, (N_DECKS,)),
        ("params", np.int32, (P_N,)),
        ("trav", np.int32, (MAX_POOL, 3)),
        ("cfg", np.int32, (CFG_N,)),
        ("botw", np.float64, (MAX_TRAV, W_N)),
        ("seval", np.float64, (EV_N,)),
        ("xcard", np.int16, (N_MARKETS, 2, MARKET_CAP)),
    ],
    align=True,
)
