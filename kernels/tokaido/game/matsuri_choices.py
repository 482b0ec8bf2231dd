"""Matsuri rule alternatives in the engine (docs/rules-choices.md M4, M18): who chooses the festival card
when the 2-player Neutral arrived first, and the order of Hanabi's two extra cards.

Both are guarded by their rule parameter, so the defaults play exactly as before.
"""

from numba import njit

from kernels.core.log import log_nb
from kernels.tokaido.bots.policy import choose_hanabi_order_nb
from kernels.tokaido.core.enums import PF, Ev, G, Opt, P


@njit(cache=True)
def neutral_moved_nb(pub, ru, ctrl):
    """The Neutral has moved, by player ``ctrl``: remembered for M4's alternative only."""
    if ru["params"][P.M_NEUTRAL_MOVER] == 1:
        pub["gs"][G.M_NEUTRAL_MOVER] = ctrl + 1


@njit(cache=True)
def festival_chooser_nb(pub, ru, s, first):
    """The player who draws the festival cards at the Inn on ``s``: ``first``, the first player to arrive
    (M4's default), or with ``first_arrival_skips_neutral = false`` and the Neutral there before every
    player, the player who moved it there (by analogy with the Neutral's meal, seed 002:L350)."""
    gs = pub["gs"]
    if ru["params"][P.M_NEUTRAL_MOVER] == 0 or gs[G.M_NEUTRAL_MOVER] == 0:
        return first
    ps = pub["ps"]
    for u in range(gs[G.N_TRAV]):
        if ps[u, PF.NEUTRAL] == 1 and ps[u, PF.POS] == s and ps[u, PF.SEQ] < ps[first, PF.SEQ]:
            return gs[G.M_NEUTRAL_MOVER] - 1
    return first


@njit(cache=True)
def hanabi_order_nb(pub, hid, ru, t, extra, k):
    """M18: with ``hanabi_order = "chooser"`` Hanabi's chooser ``t`` may resolve the second card first
    (``OPTION(t, HANABI_ORDER, 1)``), swapping ``extra`` in place; draw order otherwise."""
    if ru["params"][P.M_HANABI_CHOOSER] == 0 or k < 2:
        return
    b = choose_hanabi_order_nb(pub, ru, t, extra[0], extra[1])
    log_nb(hid, Ev.OPTION, t, Opt.HANABI_ORDER, b, -1, -1)
    if b == 1:
        extra[0], extra[1] = extra[1], extra[0]
