"""The rules of a pick: the legal plays of one character with one die (their effects: ``effects``).

A *play* is a destination plus what to do there, one row of ``pub['cand']``:
(target, extra, action, wave flag).

* pilgrim: target = landing space after the jumps (D-K4, D1), extra = steps
  (the die, or one less/more with the Tranquil/Swift wave, D-K19), action 0 decline
  or 1 take the space's effect; on a Seashore action 1 + c takes wave tile c (D6).
* merchant: target = town or -1 (no path of exactly the die, D-K10, D2), action
  1 draw at a mountain town, or k wares sold at a coastal town (D-K11, D-K12).
* artist: target = zone or -1, extra = bitmask of the zones entered (D-K14, D3),
  action 1 paint (D-K15) or 2 gift (D-K16).

With ``P.OPTIONAL`` (D4) declining (action 0) is legal; without it an available
effect must be taken (a coastal sale sells every ware it can). The Seashore's
wave tile and the Hot Spring token are taken whenever available, as the seed
says (003:L34, L70), unless ``P.SEASHORE_OPT`` / ``P.SPRING_OPT`` read them as
optional too.
"""

import numpy as np
from numba import njit

from kernels.duo.enums import (
    GARDEN_FULL,
    MAX_CAND,
    N_RING,
    N_SLOTS,
    N_TOWNS,
    PF,
    TEMPLE_FULL,
    Char,
    G,
    P,
    Path,
    Ring,
    Side,
)


@njit(cache=True)
def has_side_nb(pub, p, c, side):
    return pub["wown"][c] == p and pub["wside"][c] == side


@njit(cache=True)
def ring_blocked_nb(pub, ru, p, s):
    """Ring space ``s`` holds a meeple other than ``p``'s pilgrim (a pilgrim, or a merchant in its town)."""
    ps = pub["ps"]
    if ps[1 - p, PF.PIL] == s:
        return True
    t = ru["ring"][1, s]
    return t >= 0 and (ps[0, PF.MER] == t or ps[1, PF.MER] == t)


@njit(cache=True)
def landing_nb(pub, ru, p, steps):
    """Clockwise ``steps`` on, then on past occupied spaces (D1: the jump chains)."""
    s = (pub["ps"][p, PF.PIL] + steps) % N_RING
    while ring_blocked_nb(pub, ru, p, s):
        s = (s + 1) % N_RING
    return s


@njit(cache=True)
def town_blocked_nb(pub, ru, p, t):
    """Coastal town ``t`` is held by another meeple (D-K10; own pilgrim included, D2)."""
    if ru["town"][0, t] == 1:
        return False
    ps = pub["ps"]
    r = ru["town"][1, t]
    return ps[1 - p, PF.MER] == t or ps[0, PF.PIL] == r or ps[1, PF.PIL] == r


@njit(cache=True)
def merchant_dests_nb(pub, ru, p, v):
    """Bitmask of the towns ``p``'s merchant can reach crossing exactly ``v`` routes (``P.PATH``)."""
    mode = ru["params"][P.PATH]
    tadj = ru["tadj"]
    path = np.zeros(v + 1, np.int64)
    nxt = np.zeros(v + 1, np.int64)
    rts = np.zeros(v + 1, np.int64)
    path[0] = pub["ps"][p, PF.MER]
    tmask = np.int64(1) << path[0]
    rmask = np.int64(0)
    dests = np.int64(0)
    d = 0
    while d >= 0:
        u = path[d]
        pushed = False
        while nxt[d] < N_TOWNS:
            w = nxt[d]
            nxt[d] += 1
            r = tadj[u, w]
            if r < 0 or town_blocked_nb(pub, ru, p, w):
                continue
            if mode == Path.SIMPLE and (tmask >> w) & 1:
                continue
            if mode == Path.TRAIL and (rmask >> r) & 1:
                continue
            if d + 1 == v:
                dests |= np.int64(1) << w
                continue
            d += 1
            path[d] = w
            nxt[d] = 0
            rts[d] = r
            tmask |= np.int64(1) << w
            rmask |= np.int64(1) << r
            pushed = True
            break
        if not pushed:
            if d > 0:
                tmask &= ~(np.int64(1) << path[d])
                rmask &= ~(np.int64(1) << rts[d])
            d -= 1
    return dests


@njit(cache=True)
def artist_paths_nb(pub, ru, p, v, dest, mask):
    """Simple zone paths of exactly ``v`` steps (D3): fills dest[k], mask[k] (zones entered); returns k.

    Without the Inspired wave only the destination matters, so each destination
    appears once; with it each (destination, icons entered) pair does.
    """
    nz = ru["params"][P.N_ZONES]
    zadj = ru["zadj"]
    inspired = has_side_nb(pub, p, Char.ARTIST, Side.INSPIRED)
    path = np.zeros(v + 1, np.int64)
    nxt = np.zeros(v + 1, np.int64)
    path[0] = pub["ps"][p, PF.ART]
    seen = np.int64(1) << path[0]
    n = 0
    d = 0
    while d >= 0:
        u = path[d]
        pushed = False
        while nxt[d] < nz:
            w = nxt[d]
            nxt[d] += 1
            if zadj[u, w] == 0 or (seen >> w) & 1:
                continue
            if d + 1 == v:
                m = (seen | (np.int64(1) << w)) & ~(np.int64(1) << path[0])
                dup = False
                for k in range(n):
                    if dest[k] == w and (not inspired or icons_nb(ru, mask[k]) == icons_nb(ru, m)):
                        dup = True
                if not dup and n < dest.shape[0]:
                    dest[n] = w
                    mask[n] = m
                    n += 1
                continue
            d += 1
            path[d] = w
            nxt[d] = 0
            seen |= np.int64(1) << w
            pushed = True
            break
        if not pushed:
            if d > 0:
                seen &= ~(np.int64(1) << path[d])
            d -= 1
    return n


@njit(cache=True)
def icons_nb(ru, zmask):
    out = 0
    for z in range(ru["params"][P.N_ZONES]):
        if (zmask >> z) & 1:
            out |= 1 << ru["zicon"][z]
    return out


@njit(cache=True)
def paint_count_nb(pub, ru, p, z):
    """Other meeples in zone ``z``: pilgrims on its border spaces, merchants in its border towns, the other
    artist."""
    ps = pub["ps"]
    n = 0
    for q in range(2):
        n += ru["zring"][z, ps[q, PF.PIL]] + ru["ztown"][z, ps[q, PF.MER]]
    if ps[1 - p, PF.ART] == z:
        n += 1
    return n


@njit(cache=True)
def paint_reveals_nb(pub, ru, p, z):
    """(tiles painting reveals, 1 if the Proficient wave adds to it)."""
    room = N_SLOTS - pub["ps"][p, PF.REVEALED]
    base = min(paint_count_nb(pub, ru, p, z), room)
    if has_side_nb(pub, p, Char.ARTIST, Side.PROFICIENT):
        boosted = min(paint_count_nb(pub, ru, p, z) + ru["params"][P.PROFICIENT], room)
        return boosted, int(boosted > base)
    return base, 0


@njit(cache=True)
def gift_flag_nb(pub, ru, p, z, zmask):
    """0 no gift possible, 1 the arrival zone's icon matches, 2 only Inspired (an entered zone) matches."""
    ps = pub["ps"]
    g = ps[p, PF.GIFTED]
    if ps[p, PF.REVEALED] <= g:
        return 0
    icon = pub["shown"][p, g]
    if ru["zicon"][z] == icon:
        return 1
    if has_side_nb(pub, p, Char.ARTIST, Side.INSPIRED) and (icons_nb(ru, zmask) >> icon) & 1:
        return 2
    return 0


@njit(cache=True)
def _add_nb(pub, n, target, extra, act, flag):
    if n < MAX_CAND:
        row = pub["cand"][n]
        row[0] = target
        row[1] = extra
        row[2] = act
        row[3] = flag
        n += 1
    return n


@njit(cache=True)
def pilgrim_options_nb(pub, ru, p, s):
    """The effects available on space ``s`` as a bitmask of actions (bit 0 = decline, bit a = action a)."""
    ps = pub["ps"]
    typ = ru["ring"][0, s]
    take = 0
    if typ == Ring.TEMPLE and ps[p, PF.TEMPLE] < TEMPLE_FULL:
        take = 2
    elif typ == Ring.GARDEN and ps[p, PF.GARDEN] < GARDEN_FULL:
        take = 2
    elif typ == Ring.TOWN:
        take = 2
    elif typ == Ring.HOT_SPRING and ps[p, PF.HS] == 0:
        if pub["gs"][G.REPEAT] == 0 or ru["params"][P.RETAKE] == 1:
            take = 2
    elif typ == Ring.SEASHORE:
        for c in range(3):  # D-K9, D6: any tile on the board; none left: any of the opponent's
            if pub["wown"][c] == -1:
                take |= 1 << (1 + c)
        if take == 0:
            for c in range(3):
                if pub["wown"][c] == 1 - p:
                    take |= 1 << (1 + c)
    decline = ru["params"][P.OPTIONAL] == 1
    if typ == Ring.SEASHORE and ru["params"][P.SEASHORE_OPT] == 0:
        decline = False  # "the player must steal a tile" (003:L70): a tile is always taken
    elif typ == Ring.HOT_SPRING and ru["params"][P.SPRING_OPT] == 0:
        decline = False  # "they take it from you immediately" (003:L34)
    if take == 0 or decline:
        take |= 1
    return take


@njit(cache=True)
def plays_nb(pub, ru, p, c, v):
    """Fill ``pub['cand']`` with the legal plays of ``p``'s character ``c`` moving ``v``; return their
    number."""
    n = 0
    opt = ru["params"][P.OPTIONAL] == 1
    if c == Char.PILGRIM:
        alt = 0
        if has_side_nb(pub, p, c, Side.TRANQUIL) and v > 1:
            alt = v - 1
        elif has_side_nb(pub, p, c, Side.SWIFT):
            alt = v + 1
        s0 = landing_nb(pub, ru, p, v)
        for k in range(2):
            steps = v if k == 0 else alt
            if steps == 0:
                continue
            s = landing_nb(pub, ru, p, steps)
            if k == 1 and s == s0:
                continue
            acts = pilgrim_options_nb(pub, ru, p, s)
            for a in range(5):
                if (acts >> a) & 1:
                    n = _add_nb(pub, n, s, steps, a, k)
    elif c == Char.MERCHANT:
        dests = merchant_dests_nb(pub, ru, p, v)
        if dests == 0:
            return _add_nb(pub, n, -1, 0, 0, 0)
        bagn = pub["bag"].sum()
        for t in range(N_TOWNS):
            if not (dests >> t) & 1:
                continue
            if ru["town"][0, t] == 1:
                if bagn > 0:
                    n = _add_nb(pub, n, t, 0, 1, 0)
                if opt or bagn == 0:
                    n = _add_nb(pub, n, t, 0, 0, 0)
            else:
                h = pub["wares"][p, pub["btq"][t, 0]]
                for k in range(0 if opt else h, h + 1):
                    n = _add_nb(pub, n, t, 0, k, 0)
    else:
        dest = np.zeros(48, np.int64)
        mask = np.zeros(48, np.int64)
        m = artist_paths_nb(pub, ru, p, v, dest, mask)
        if m == 0:
            return _add_nb(pub, n, -1, 0, 0, 0)
        for j in range(m):
            z = dest[j]
            reveals, _ = paint_reveals_nb(pub, ru, p, z)
            gflag = gift_flag_nb(pub, ru, p, z, mask[j])
            if reveals > 0:
                n = _add_nb(pub, n, z, mask[j], 1, 0)
            if gflag > 0:
                n = _add_nb(pub, n, z, mask[j], 2, int(gflag == 2))
            if opt or (reveals == 0 and gflag == 0):
                n = _add_nb(pub, n, z, mask[j], 0, 0)
    return n


@njit(cache=True)
def ware_cap_nb(pub, ru, p):
    cap = ru["params"][P.CAP]
    if has_side_nb(pub, p, Char.MERCHANT, Side.PORTER):
        cap += ru["params"][P.PORTER_CAP]
    return cap
