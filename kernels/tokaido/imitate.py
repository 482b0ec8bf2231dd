"""The search's move choices recorded, and the heuristic's values of the same positions
(``sim/games/tokaido/tuning/imitate.py``).

``search_states_nb`` plays games with every player's own policy and, at each move
decision of a ``Bot.SEARCH`` player with more than one candidate, copies the public
record (``PUB_DTYPE``: what that player may see, no hidden pile order) into
``states[r]`` before the decision and the decision into ``meta[r]``:

    meta[r, 0]  t       the traveler moving
    meta[r, 1]  ctrl    the player choosing (t, or the lead player for the Neutral)
    meta[r, 2]  ncand   the candidates, ``states[r]['cand'][:ncand]``
    meta[r, 3]  choice  the index the search chose
    meta[r, 4]  game    the game index (``start + g``)

``move_values_nb`` gives, for the weights in ``rules[0]['botw']``, the heuristic's value
of every candidate of every recorded position (``vals[r, k]``; ``-inf`` past ``ncand``).
The scratch part of each copy (``bscr``, the memo included) is cleared first, so the
values are those of a fresh decision with those weights, whatever weights made the record.

The layer above ``kernels.tokaido.play`` (it drives games through ``decide_move_nb``);
``sim/games/tokaido/tuning/imitation.py`` calls it.
"""

import numpy as np
from numba import njit, prange

from kernels.tokaido.bots.heuristic import heuristic_move_nb
from kernels.tokaido.bots.scratch import B_CAND
from kernels.tokaido.bots.tier import policy_nb, searches_nb
from kernels.tokaido.core.enums import Policy
from kernels.tokaido.core.state import HID_DTYPE, PUB_DTYPE
from kernels.tokaido.game.turn import begin_turn_nb, move_nb
from kernels.tokaido.play import decide_move_nb, new_game_nb

META_N = 5


@njit(nogil=True, cache=True)
def search_states_nb(seed, start, count, rules, states, meta):
    """Games ``start .. start+count-1``; returns how many search decisions were recorded (at most
    ``len(states)``)."""
    pubs = np.zeros(1, PUB_DTYPE)
    hids = np.zeros(1, HID_DTYPE)
    zero = np.zeros(1, PUB_DTYPE)
    # a record (``pubs[0]``) does not keep its array alive: the records are taken in a callee given
    # the arrays themselves, which live until the call returns (see ``kernels.tokaido.play.play_game_nb``)
    return search_states_in_nb(pubs, hids, zero, seed, start, count, rules[0], states, meta)


@njit(nogil=True, cache=True)
def search_states_in_nb(pubs, hids, zero, seed, start, count, ru, states, meta):
    """``search_states_nb`` in the caller's one-record arrays (``zero`` zeroed, the others scratch)."""
    cap = len(states)
    r = 0
    for g in range(count):
        if r >= cap:
            break
        pubs[0] = zero[0]
        pub = pubs[0]
        hid = hids[0]
        new_game_nb(pub, hid, ru, seed, start + g)
        while True:
            t, ctrl, ncand = begin_turn_nb(pub, hid, ru)
            if t < 0:
                break
            keep = ncand > 1 and searches_nb(pub, ctrl) and r < cap
            if keep:
                states[r] = pub
            k = decide_move_nb(pub, ru, t, ctrl, ncand)
            if keep:
                meta[r, 0], meta[r, 1], meta[r, 2], meta[r, 3], meta[r, 4] = t, ctrl, ncand, k, start + g
                r += 1
            move_nb(pub, hid, ru, t, ctrl, pub["cand"][k])
    return r


@njit(cache=True)
def _values_nb(states, meta, r, ru, work, c, vals):
    # the record copy lives in its own function: inside a prange loop numba miscompiles it
    work[c] = states[r]
    p = work[c]
    p["bscr"][:] = 0.0
    nc = meta[r, 2]
    heuristic_move_nb(p, ru, meta[r, 0], meta[r, 1], nc, policy_nb(p, ru, meta[r, 1]) == Policy.EXPERT)
    for k in range(vals.shape[1]):
        vals[r, k] = p["bscr"][B_CAND + k] if k < nc else -np.inf


@njit(parallel=True, cache=True)
def move_values_nb(states, meta, n, rules, work, vals):
    """``vals[r, k]``: the heuristic's value of candidate k at recorded position r < n.

    ``rules[0]['botw']`` holds the weights to value with in every player's row (``Positions.values``
    in ``sim/games/tokaido/tuning/imitation.py`` sets them); ``work``: scratch ``PUB_DTYPE`` records, one per
    chunk of
    positions (allocated by the caller: a parallel kernel cannot allocate record arrays).
    """
    nch = len(work)
    for c in prange(nch):
        for r in range(c, n, nch):
            _values_nb(states, meta, r, rules[0], work, c, vals)
