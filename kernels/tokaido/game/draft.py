"""Seed 002's optional drafts (002:L281; expansions.md M1): deal 3 and keep 1, or choose freely.

The base draft (deal 2, keep 1) stays in ``turn.setup_nb``. A choice among more than two is a
chain of the bots' pairwise draft decision (``choose_traveler_nb``, the draft priors W.TRAV0 + id):
the better of the first two meets the next, and so on.
"""

import numpy as np
from numba import njit

from kernels.core.log import log_nb
from kernels.core.rng import shuffle_nb
from kernels.tokaido.bots.policy import choose_traveler_nb
from kernels.tokaido.core.enums import PF, Cfg, Ev


@njit(cache=True)
def _pick_nb(pub, ru, p, cands, k):
    """Index in ``cands[:k]`` of the Traveler player ``p`` keeps."""
    best = 0
    for i in range(1, k):
        if choose_traveler_nb(pub, ru, p, cands[best], cands[i]) == 1:
            best = i
    return best


@njit(cache=True)
def deal3_draft_nb(pub, hid, ru, pool, npool):
    """Each player is dealt 3 (``DEAL(p, t1, t2, t3)``) and keeps 1; ALT_TRAVELER is the first not kept."""
    ps = pub["ps"]
    n = ru["cfg"][Cfg.N_PLAYERS]
    shuffle_nb(pool, npool, pub["rng"])
    for p in range(n):
        log_nb(hid, Ev.DEAL, p, pool[3 * p], pool[3 * p + 1], pool[3 * p + 2], -1)
    for p in range(n):
        cands = pool[3 * p : 3 * p + 3]
        i = _pick_nb(pub, ru, p, cands, 3)
        ps[p, PF.TRAVELER] = cands[i]
        ps[p, PF.ALT_TRAVELER] = cands[1] if i == 0 else cands[0]
        log_nb(hid, Ev.KEEP, p, cands[i], -1, -1, -1)


@njit(cache=True)
def free_draft_nb(pub, hid, ru, pool, npool):
    """In player order each picks any Traveler left (``KEEP(p, t)``, no DEAL: nothing is dealt)."""
    ps = pub["ps"]
    n = ru["cfg"][Cfg.N_PLAYERS]
    left = pool[:npool].copy()
    k = npool
    order = np.arange(k)
    for p in range(n):
        shuffle_nb(order, k, pub["rng"])  # no pool order favours a Traveler in a tie or a random bot
        cands = np.empty(k, np.int32)
        for i in range(k):
            cands[i] = left[order[i]]
        i = _pick_nb(pub, ru, p, cands, k)
        t = cands[i]
        ps[p, PF.TRAVELER] = t
        log_nb(hid, Ev.KEEP, p, t, -1, -1, -1)
        for j in range(k):
            if left[j] == t:
                left[j] = left[k - 1]
                break
        k -= 1
        order = np.arange(k)
