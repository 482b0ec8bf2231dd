"""The effects of a play (a row of ``pub['cand']``, built by ``moves.plays_nb``): move, take, draw, sell,
paint, gift.

Each effect writes its action-log rows (docs/duo.md) as it happens; the
trigger bits of D-K17 are set here, the end of the round is ``game``'s.
"""

from numba import njit

from kernels.core.log import log_nb
from kernels.core.rng import randint_nb
from kernels.duo.enums import (
    GARDEN_FULL,
    N_SLABS,
    N_SLOTS,
    PF,
    TEMPLE_FULL,
    Char,
    Ev,
    G,
    P,
    Ring,
    Side,
    Trig,
)
from kernels.duo.moves import has_side_nb, paint_reveals_nb


@njit(cache=True)
def gold_nb(pub, ru, p):
    """D7: every full ``slab_coins`` becomes a slab in the next slot while slots remain (D-K13)."""
    ps = pub["ps"]
    per = ru["params"][P.SLAB_COINS]
    while ps[p, PF.COINS] >= per and ps[p, PF.SLABS] < N_SLABS:
        ps[p, PF.COINS] -= per
        ps[p, PF.SLABS] += 1
        if ps[p, PF.SLABS] == N_SLABS:
            pub["gs"][G.TRIG] |= Trig.GOLD


@njit(cache=True)
def apply_play_nb(pub, hid, ru, p, c, k):
    """Carry out play ``k`` of ``pub['cand']`` for ``p``'s character ``c`` (over-cap returns: ``game``)."""
    row = pub["cand"][k]
    target, extra, act, flag = row[0], row[1], row[2], row[3]
    ps = pub["ps"]
    gs = pub["gs"]
    if c == Char.PILGRIM:
        log_nb(hid, Ev.PMOVE, p, extra, target, -1, -1)
        ps[p, PF.PIL] = target
        ps[p, PF.WUSE_P] += flag
        if act == 0:
            return
        typ = ru["ring"][0, target]
        if typ == Ring.SEASHORE:
            w = act - 1
            stolen = int(pub["wown"][w] == 1 - p)
            pub["wown"][w] = p
            ps[p, PF.WAVES_TAKEN] += 1
            log_nb(hid, Ev.PTAKE, p, typ, w, stolen, -1)
            return
        log_nb(hid, Ev.PTAKE, p, typ, -1, -1, -1)
        if typ == Ring.TEMPLE:
            ps[p, PF.TEMPLE] += 1
            if ps[p, PF.TEMPLE] == TEMPLE_FULL:
                gs[G.TRIG] |= Trig.TEMPLE
        elif typ == Ring.GARDEN:
            ps[p, PF.GARDEN] += 1
            if ps[p, PF.GARDEN] == GARDEN_FULL:
                gs[G.TRIG] |= Trig.GARDEN
        elif typ == Ring.TOWN:
            ps[p, PF.COINS] += ru["params"][P.TOWN_COINS]
            gold_nb(pub, ru, p)
        elif typ == Ring.HOT_SPRING:
            gs[G.HS_BOARD] = 0
            ps[1 - p, PF.HS] = 0
            ps[p, PF.HS] = 1
            ps[p, PF.HS_PICK] = gs[G.PICK]
            ps[p, PF.HS_TAKEN] += 1
    elif c == Char.MERCHANT:
        log_nb(hid, Ev.MMOVE, p, target, -1, -1, -1)
        if target < 0:
            return
        ps[p, PF.MER] = target
        if ru["town"][0, target] == 1:
            if act == 1:
                draw_wares_nb(pub, hid, ru, p, ru["town"][2, target])
        elif act > 0:
            w = pub["btq"][target, 0]
            price = pub["btq"][target, 1]
            if has_side_nb(pub, p, Char.MERCHANT, Side.HAGGLER) and ru["params"][P.HAGGLER] > 0:
                price += ru["params"][P.HAGGLER]
                ps[p, PF.WUSE_M] += 1
            pub["wares"][p, w] -= act
            pub["bag"][w] += act
            ps[p, PF.NWARES] -= act
            ps[p, PF.COINS] += act * price
            log_nb(hid, Ev.SELL, p, w, act, act * price, -1)
            gold_nb(pub, ru, p)
    else:
        log_nb(hid, Ev.AMOVE, p, target, extra, -1, -1)
        if target < 0:
            return
        ps[p, PF.ART] = target
        if act == 1:
            n, boosted = paint_reveals_nb(pub, ru, p, target)
            ps[p, PF.WUSE_A] += boosted
            log_nb(hid, Ev.PAINT, p, n, -1, -1, -1)
            for _ in range(n):
                slot = ps[p, PF.REVEALED]
                pub["shown"][p, slot] = hid["tiles"][p, slot]
                ps[p, PF.REVEALED] += 1
                log_nb(hid, Ev.REVEAL, p, slot, hid["tiles"][p, slot], -1, -1)
        elif act == 2:
            g = ps[p, PF.GIFTED]
            log_nb(hid, Ev.GIFT, p, g, pub["shown"][p, g], -1, -1)
            ps[p, PF.GIFTED] += 1
            ps[p, PF.WUSE_A] += flag
            if ps[p, PF.GIFTED] == N_SLOTS:
                gs[G.TRIG] |= Trig.GIFT


@njit(cache=True)
def draw_wares_nb(pub, hid, ru, p, value):
    """D-K11: draw ``value`` wares at random from the bag (fewer if it runs out)."""
    bag = pub["bag"]
    n = min(value, bag.sum())
    log_nb(hid, Ev.MDRAW, p, n, -1, -1, -1)
    for _ in range(n):
        r = randint_nb(pub["rng"], bag.sum())
        w = 0
        while r >= bag[w]:
            r -= bag[w]
            w += 1
        bag[w] -= 1
        pub["wares"][p, w] += 1
        pub["ps"][p, PF.NWARES] += 1
        log_nb(hid, Ev.DRAW, p, w, -1, -1, -1)


@njit(cache=True)
def return_ware_nb(pub, hid, p, w):
    """D8: one ware of type ``w`` goes back to the bag (over the cap)."""
    pub["wares"][p, w] -= 1
    pub["bag"][w] += 1
    pub["ps"][p, PF.NWARES] -= 1
    log_nb(hid, Ev.RETURN, p, w, -1, -1, -1)
