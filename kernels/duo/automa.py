"""The solo Automa (``Bot.AUTOMA``): her die choice, her moves and her Rank tracks (seed 003:L85-93).

The seed fixes the frame: she replaces the second player, keeps 3 Rank tracks (one
per character) instead of boards, chooses her die and moves automatically, ends the
game as a full track of a player does, and scores the sum of her 3 Ranks with no
money. How she chooses is a reconstruction kept as data (``ru['auto']``,
``ru['arank']``, ``ru['rvals']``; sim/games/duo/data/automa.toml):

* die: ``A.DIE`` (behind: the character whose Rank is lowest, then the higher die;
  highest; lowest; order), remaining ties by the order ``A.ORDER``;
* pilgrim: the exact die with the jumps of a player (no wave tile); the space's
  Rank steps ``arank[0, type]``; on a Hot Spring she takes the token, never spends it;
* merchant: a destination of exactly the die by ``A.MERCHANT`` (block: a coastal
  town whose boutique buys most of the human's wares; coast; mountain), steps
  ``arank[1, 0 coastal | 1 mountain]``; no path: no move;
* artist: a destination of exactly the die by ``A.ARTIST`` (busiest: most other
  meeples; first); one step if at least ``A.MEEPLES`` other meeples are there.

She reads only ``pub`` and ``ru``, like every bot.
"""

import numpy as np
from numba import njit

from kernels.core.log import log_nb
from kernels.duo.enums import N_TOWNS, PF, A, AutoArtist, AutoDie, AutoMerchant, Char, Ev, G, P, Ring, Trig
from kernels.duo.moves import artist_paths_nb, landing_nb, merchant_dests_nb, paint_count_nb


@njit(cache=True)
def automa_die_nb(pub, ru, p):
    """The die she takes among those left (the last one is forced before this is asked)."""
    gs = pub["gs"]
    auto = ru["auto"]
    rule = auto[A.DIE]
    best, best_key = -1, -1 << 30
    for k in range(3):
        c = auto[A.ORDER + k]
        if (gs[G.USED] >> c) & 1:
            continue
        v = gs[G.DIE0 + c]
        if rule == AutoDie.BEHIND:
            key = -16 * pub["ps"][p, PF.AR_P + c] + v
        elif rule == AutoDie.HIGHEST:
            key = v
        elif rule == AutoDie.LOWEST:
            key = -v
        else:
            key = 0
        if best < 0 or key > best_key:
            best, best_key = c, key
    return best


@njit(cache=True)
def advance_nb(pub, hid, ru, p, c, steps):
    """Move her Rank track ``c`` on by ``steps`` (never past its last slot); the last slot fires
    ``Trig.RANK``."""
    if steps <= 0:
        return
    ps = pub["ps"]
    last = ru["auto"][A.LAST + c]
    ps[p, PF.AR_P + c] = min(ps[p, PF.AR_P + c] + steps, last)
    log_nb(hid, Ev.RANK, p, c, ps[p, PF.AR_P + c], steps, -1)
    if ps[p, PF.AR_P + c] == last:
        pub["gs"][G.TRIG] |= Trig.RANK


@njit(cache=True)
def merchant_key_nb(pub, ru, p, t):
    """How much she wants town ``t`` (higher first; ties: the lower town index)."""
    rule = ru["auto"][A.MERCHANT]
    coastal = ru["town"][0, t] == 0
    if rule == AutoMerchant.MOUNTAIN:
        return 0 if coastal else 1
    if not coastal:
        return 0
    if rule == AutoMerchant.COAST:
        return 1
    return 1 + 16 * pub["wares"][1 - p, pub["btq"][t, 0]]  # block the human's best sale


@njit(cache=True)
def automa_play_nb(pub, hid, ru, p, c, v):
    """Her character ``c`` moves ``v`` (the log rows of a player's move), then her Rank track advances."""
    ps = pub["ps"]
    if c == Char.PILGRIM:
        s = landing_nb(pub, ru, p, v)
        log_nb(hid, Ev.PMOVE, p, v, s, -1, -1)
        ps[p, PF.PIL] = s
        typ = ru["ring"][0, s]
        if typ == Ring.HOT_SPRING and ps[p, PF.HS] == 0:
            if pub["gs"][G.REPEAT] == 0 or ru["params"][P.RETAKE] == 1:
                log_nb(hid, Ev.PTAKE, p, typ, -1, -1, -1)
                pub["gs"][G.HS_BOARD] = 0
                ps[1 - p, PF.HS] = 0
                ps[p, PF.HS] = 1
                ps[p, PF.HS_PICK] = pub["gs"][G.PICK]
                ps[p, PF.HS_TAKEN] += 1
        advance_nb(pub, hid, ru, p, c, ru["arank"][0, typ])
    elif c == Char.MERCHANT:
        dests = merchant_dests_nb(pub, ru, p, v)
        best, best_key = -1, -1
        for t in range(N_TOWNS):
            if (dests >> t) & 1:
                key = merchant_key_nb(pub, ru, p, t)
                if key > best_key:
                    best, best_key = t, key
        log_nb(hid, Ev.MMOVE, p, best, -1, -1, -1)
        if best < 0:
            return
        ps[p, PF.MER] = best
        advance_nb(pub, hid, ru, p, c, ru["arank"][1, ru["town"][0, best]])
    else:
        dest = np.zeros(48, np.int64)
        mask = np.zeros(48, np.int64)
        n = artist_paths_nb(pub, ru, p, v, dest, mask)
        best, best_key = -1, -1
        for j in range(n):
            key = paint_count_nb(pub, ru, p, dest[j]) if ru["auto"][A.ARTIST] == AutoArtist.BUSIEST else 0
            if key > best_key or (key == best_key and dest[j] < dest[best]):
                best, best_key = j, key
        if best < 0:
            log_nb(hid, Ev.AMOVE, p, -1, 0, -1, -1)
            return
        z = dest[best]
        log_nb(hid, Ev.AMOVE, p, z, mask[best], -1, -1)
        ps[p, PF.ART] = z
        if paint_count_nb(pub, ru, p, z) >= ru["auto"][A.MEEPLES]:
            advance_nb(pub, hid, ru, p, c, 1)
