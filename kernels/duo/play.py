"""The Duo driver: the die-choice policy entry point, one whole game, and a parallel batch of games.

This is the top of the Duo kernel layers (enums/state <- moves <- effects, bots <-
game <- search <- play), the only module that knows every bot tier: the search
plays its rollouts with ``kernels.duo.game``, so the game cannot also call it.

``play_batch_nb`` has the signature of ``kernels.tokaido.play.play_batch_nb``: game i's
random stream depends only on (seed, i), so threads and chunks never change a game.
"""

import numpy as np
from numba import njit, prange

from kernels.core.log import log_nb
from kernels.core.rng import seed_game_nb
from kernels.duo.enums import Cfg, Ev, G
from kernels.duo.game import (
    begin_pick_nb,
    end_pick_nb,
    pick_nb,
    plain_die_nb,
    score_nb,
    setup_nb,
    write_records_nb,
)
from kernels.duo.search import search_die_nb
from kernels.duo.state import HID_DTYPE, PUB_DTYPE


@njit(cache=True)
def decide_die_nb(pub, ru, p):
    """The die ``p`` takes: the policy entry point for the draft, the search tier included."""
    c = plain_die_nb(pub, ru, p)
    return search_die_nb(pub, ru, p) if c < 0 else c


@njit(cache=True)
def step_nb(pub, hid, ru):
    """One pick of the real game; False once the game is over."""
    if pub["gs"][G.OVER] == 1:
        return False
    p = begin_pick_nb(pub, hid, ru)
    pick_nb(pub, hid, ru, p, decide_die_nb(pub, ru, p))
    end_pick_nb(pub, ru)
    return pub["gs"][G.OVER] == 0


@njit(cache=True)
def play_game_nb(seed, game, rules, out, log):
    """Play game ``game`` of the run seeded ``seed``; write 2 records; return the log length (-1 overflow)."""
    # a record (``pubs[0]``) does not keep its array alive: Numba frees the array after the last
    # statement naming it, while records taken from it may still be read; the game runs in a
    # callee given the arrays themselves, which live until that call returns
    pubs = np.zeros(1, PUB_DTYPE)
    hids = np.zeros(1, HID_DTYPE)
    return play_in_nb(pubs, hids, seed, game, rules[0], out, log)


@njit(cache=True)
def play_in_nb(pubs, hids, seed, game, ru, out, log):
    """``play_game_nb`` in the caller's zeroed one-record arrays ``pubs`` and ``hids``."""
    pub = pubs[0]
    hid = hids[0]
    seed_game_nb(pub["rng"], seed, game)
    setup_nb(pub, hid, ru)
    while step_nb(pub, hid, ru):
        pass
    log_nb(hid, Ev.END, -1, pub["gs"][G.TRIG], pub["gs"][G.ROUND] + 1, -1, -1)
    score_nb(pub, ru)
    write_records_nb(pub, game, out)
    lg = hid["lg"]
    if lg[1] == 0:
        return 0
    log[: lg[0]] = hid["log"][: lg[0]]
    return -1 if lg[2] else lg[0]


@njit(parallel=True, nogil=True, cache=True)
def play_batch_nb(seed, start, count, rules, out, logs, nlog):
    """Play games ``start .. start+count-1`` in parallel into ``out`` (2 rows each) and ``logs``."""
    logging = rules[0]["cfg"][Cfg.LOG] == 1
    for i in prange(count):
        lg = logs[i] if logging else logs[0]
        nlog[i] = play_game_nb(seed, start + i, rules, out[i * 2 : (i + 1) * 2], lg)
