"""The rule-based policies: random (uniform over the legal choices) and greedy (points now + a coin value).

``kernels.tokaido.bots.policy`` calls these for ``Policy.RANDOM`` and ``Policy.GREEDY`` (inlined there: the
engine's cheapest tiers pay no call for the dispatch); a function taking ``rand`` enumerates the legal
choices once for both (random draws among them with the game's stream,
greedy takes the best). The greedy values of a space (``space_values_nb``), of a panorama card and of an
Encounter card are also what the engine hands a hook as the greedy value of a yes/no option.
Greedy maximises points now plus ``w[COIN]`` per coin, keeping a reserve of coins for meals, with a cost
per space jumped over (``sim/games/tokaido/data/bots.toml [greedy]``).
"""

import numpy as np
from numba import njit

from kernels.core.rng import next_u64_nb, randint_nb
from kernels.tokaido.bots.crossroads import raise_space_values_nb
from kernels.tokaido.bots.matsuri_leg import leg_kinds_nb, leg_values_nb
from kernels.tokaido.bots.scratch import pool_nb
from kernels.tokaido.core.enums import PF, Ability, Deck, Enc, G, P, Space
from kernels.tokaido.core.events import Matsuri
from kernels.tokaido.core.prices import kamui_skip_nb, table_prices_nb, village_prices_nb
from kernels.tokaido.core.score import (
    dish_eaten_nb,
    meal_price_nb,
    pan_card_pts_nb,
    panorama_open_nb,
    souvenir_gain_pts_nb,
)
from kernels.tokaido.core.weights import W


@njit(cache=True)
def _reserve_pen_nb(w, coins_after):
    short = w[W.RESERVE] - coins_after
    return w[W.RESERVE_PEN] * short if short > 0 else 0.0


@njit(cache=True)
def panorama_value_nb(pub, ru, t, typ):
    """Points of the next card of panorama ``typ`` (with the achievement if it completes)."""
    ps = pub["ps"]
    params = ru["params"]
    k = ps[t, PF.PAN0 + typ] + 1
    v = float(pan_card_pts_nb(pub, ru, t, typ, k))
    if k == params[P.PAN_LEN0 + typ] and (pub["gs"][G.PAN_ACH] >> typ) & 1 == 0:
        v += params[P.PAN_ACH_POINTS]
        if ps[t, PF.ABILITY] == Ability.MITSUKUNI:
            v += 1.0
    return v


@njit(cache=True)
def _best_souvenir_nb(pub, ru, t):
    best = 0.0
    for f in range(ru["params"][P.N_FAMILIES]):
        best = max(best, float(souvenir_gain_pts_nb(pub, ru, t, f)))
    return best


@njit(cache=True)
def space_values_nb(pub, ru, t, w, vals):
    """Greedy value for ``t`` of stopping on each space type now, into ``vals[9]``."""
    ps = pub["ps"]
    dcnt = pub["dcnt"]
    params = ru["params"]
    ab = ps[t, PF.ABILITY]
    coins = ps[t, PF.COINS]
    cw = w[W.COIN]
    vals[Space.INN] = w[W.INN]
    vals[Space.FARM] = params[P.FARM_COINS] * cw
    for k in range(3):
        vals[Space.PADDY + k] = panorama_value_nb(pub, ru, t, k)
    hv = w[W.HOT_SPRING] + (1.0 if ab == Ability.MITSUKUNI else 0.0)
    vals[Space.HOT_SPRING] = hv if dcnt[Deck.HOT_SPRING] > 0 else 0.0
    tv = 1.0 + w[W.TEMPLE_RANK] - cw - _reserve_pen_nb(w, coins - 1) + _reserve_pen_nb(w, coins)
    if ab == Ability.HIROTADA:
        tv += 1.0 + w[W.TEMPLE_RANK]
    vals[Space.TEMPLE] = tv
    ev = w[W.ENCOUNTER] if dcnt[Deck.ENCOUNTER] > 0 else 0.0
    if ab == Ability.UMEGAE:
        ev += params[P.UMEGAE_POINTS] + params[P.UMEGAE_COINS] * cw
    if ab == Ability.YOSHIYASU:
        ev += 1.0
    vals[Space.ENCOUNTER] = ev
    sv = _best_souvenir_nb(pub, ru, t) - cw * w[W.SOUVENIR_COST]
    if ab == Ability.ZEN_EMON or ab == Ability.SASAYAKKO:
        sv += cw
    vals[Space.VILLAGE] = max(0.0, sv) * w[W.VILLAGE] if dcnt[Deck.SOUVENIR] > 0 else 0.0


@njit(cache=True, inline="always")
def move_nb(pub, ru, t, ctrl, ncand):
    """Index into ``pub['cand']`` of the destination greedy ``ctrl`` chooses for ``t``."""
    ps = pub["ps"]
    w = ru["botw"][ctrl]
    board = ru["board"]
    cand = pub["cand"]
    vals = pub["fscr"]
    pos = ps[t, PF.POS]
    best, bv = 0, -1e9
    if ps[t, PF.NEUTRAL] == 1:
        # the lead player moves the Neutral onto the space the opponent wants most
        opp = 1 - ctrl
        space_values_nb(pub, ru, opp, w, vals)
        vals[Space.INN] = 0.0
        for k in range(ncand):
            s = cand[k]
            v = w[W.BLOCK] * vals[board[0, s]] if s > ps[opp, PF.POS] else 0.0
            v -= 0.01 * (s - pos)
            if v > bv:
                best, bv = k, v
        return best
    space_values_nb(pub, ru, t, w, vals)
    leg = pub["gs"][G.M_LEG] != 0 and w[W.M_LEG_STOP] != 0.0
    enc = vals[Space.ENCOUNTER]
    if leg:  # Matsuri: the cards acting on this leg (kernels/tokaido/bots/matsuri_leg.py)
        gion = greedy_gion_gain_nb(pub, ru, t) if (leg_kinds_nb(pub, ru) >> Matsuri.GION) & 1 else 0.0
        leg_values_nb(pub, ru, t, w, vals, enc, gion, False, 0)
    if ru["params"][P.XR] == 1:
        raise_space_values_nb(pub, ru, t, vals)
    if leg:
        leg_values_nb(pub, ru, t, w, vals, enc, 0.0, False, 1)
    for k in range(ncand):
        s = cand[k]
        v = vals[board[0, s]] - w[W.SKIP] * (s - pos - 1)
        if v > bv:
            best, bv = k, v
    return best


@njit(cache=True, inline="always")
def village_nb(pub, ru, t, ntbl, rand):
    """Random (``rand``) or greedy purchase from the table: (mask of bought table cards, Zen-emon's 1-coin
    card or -1). Uses ``pub['iscr'][0:4]`` for prices, ``[4:8]`` for each card's own price and ``[8:16]``
    for family counts."""
    ps = pub["ps"]
    w = ru["botw"][t]
    params = ru["params"]
    card = ru["card"]
    tbl = pub["tbl"]
    prices = pub["iscr"][0:4]
    base = pub["iscr"][4:8]
    table_prices_nb(pub, ru, t, ntbl, base)
    fam = pub["iscr"][8:16]
    rng = pub["rng"]
    coins = ps[t, PF.COINS]
    nfam = params[P.N_FAMILIES]
    zen_opts = ntbl if ps[t, PF.ABILITY] == Ability.ZEN_EMON else 0
    nlegal = 0
    best_m, best_z, bv = 0, -1, -1e9
    for mask in range(1 << ntbl):
        for zen in range(-1, zen_opts):
            if zen >= 0 and (mask >> zen) & 1 == 0:
                continue
            need, paid = village_prices_nb(pub, ru, t, ntbl, mask, zen, prices, base)
            if need > coins:
                continue
            nlegal += 1
            if rand:
                # reservoir sampling: uniform over the legal (mask, zen) pairs
                if randint_nb(rng, nlegal) == 0:
                    best_m, best_z = mask, zen
                continue
            for f in range(nfam):
                fam[f] = ps[t, PF.FAM0 + f]
            pts = 0.0
            for i in range(ntbl):
                if (mask >> i) & 1:
                    f = card[Deck.SOUVENIR, 0, tbl[i]]
                    size = 0
                    for g in range(nfam):
                        if fam[g] > fam[f]:
                            size += 1
                    pts += params[P.SET_PTS0 + size]
                    fam[f] += 1
            v = pts - w[W.COIN] * paid - _reserve_pen_nb(w, coins - paid)
            if v > bv + 1e-9:
                best_m, best_z, bv = mask, zen, v
    return best_m, best_z


@njit(cache=True, inline="always")
def donation_nb(pub, ru, t, rand):
    """Coins (1..3) a random (``rand``) or greedy ``t`` gives to the Temple."""
    ps = pub["ps"]
    coins = ps[t, PF.COINS]
    hi = min(ru["params"][P.TEMPLE_MAX], coins)
    if rand:
        return 1 + randint_nb(pub["rng"], hi)
    w = ru["botw"][t]
    best, bv = 1, -1e9
    for d in range(1, hi + 1):
        v = d * (1.0 + w[W.TEMPLE_RANK] - w[W.COIN]) - _reserve_pen_nb(w, coins - d)
        if v > bv + 1e-9:
            best, bv = d, v
    return best


@njit(cache=True, inline="always")
def panorama_nb(pub, ru, t, rand):
    """A panorama type still open to a random (``rand``) or greedy ``t`` (the caller checks one exists)."""
    random = rand
    nopen = 0
    best, bv = -1, -1e9
    for k in range(3):
        if not panorama_open_nb(pub, ru, t, k):
            continue
        nopen += 1
        if random:
            if randint_nb(pub["rng"], nopen) == 0:
                best = k
            continue
        v = panorama_value_nb(pub, ru, t, k)
        if v > bv:
            best, bv = k, v
    return best


@njit(cache=True)
def encounter_value_nb(pub, ru, t, c):
    """Greedy value of Encounter card ``c`` for ``t``."""
    card = ru["card"]
    params = ru["params"]
    w = ru["botw"][t]
    kind = card[Deck.ENCOUNTER, 0, c]
    cw = w[W.COIN]
    if kind == Enc.SAMURAI:
        return float(params[P.SAMURAI_POINTS])
    if kind == Enc.KUGE:
        return params[P.KUGE_COINS] * cw
    if kind == Enc.MIKO:
        return params[P.MIKO_POINTS] + w[W.TEMPLE_RANK]
    if kind == Enc.SHOKUNIN:
        return _best_souvenir_nb(pub, ru, t) * 0.6
    if kind == Enc.ANNAIBITO:
        typ = card[Deck.ENCOUNTER, 1, c]
        if panorama_open_nb(pub, ru, t, typ):
            return panorama_value_nb(pub, ru, t, typ)
        return 2.0
    if kind == Enc.ITAMAE:
        return params[P.MEAL_POINTS] * 0.7 - cw
    if kind == Enc.SARU:
        return w[W.HOT_SPRING]
    if kind == Enc.TAKUHATSUSO:
        return params[P.TAKUHATSUSO_POINTS] - cw
    return 3.0 - cw  # Kitoushi


@njit(cache=True)
def greedy_gion_gain_nb(pub, ru, t):
    """Greedy gain for ``t`` of Gion's pick: the best Encounter left (``all - gone``) over their mean."""
    pool = pool_nb(pub, ru, Deck.ENCOUNTER)
    n, tot, best = 0, 0.0, 0.0
    for c in range(ru["dsize"][Deck.ENCOUNTER]):
        if (pool >> c) & 1:
            v = encounter_value_nb(pub, ru, t, c)
            best = v if n == 0 else max(best, v)
            tot += v
            n += 1
    return best - tot / n if n > 0 else 0.0


@njit(cache=True, inline="always")
def encounter_nb(pub, ru, t, c1, c2):
    """Greedy Yoshiyasu keeps one of two Encounter cards: 0 keeps ``c1``, 1 keeps ``c2``."""
    return 1 if encounter_value_nb(pub, ru, t, c2) > encounter_value_nb(pub, ru, t, c1) else 0


@njit(cache=True, inline="always")
def meal_nb(pub, ru, t, offered, budget, rand):
    """A random (``rand``) or greedy meal: (index into the hand or -1 for no meal, 1 if taken free as
    Satsuki's offer); ``budget`` is the dearest price ``t`` can pay."""
    hand = pub["hand"]
    card = ru["card"]
    params = ru["params"]
    w = ru["botw"][t]
    random = rand
    nlegal = 1  # "no meal" is always legal
    best, free, bv = -1, 0, kamui_skip_nb(pub, ru, t)
    for i in range(pub["gs"][G.HAND_N]):
        c = hand[i]
        if dish_eaten_nb(pub, ru, t, c):
            continue
        for f in range(2):
            if f == 1 and c != offered:
                continue
            price = 0 if f == 1 else meal_price_nb(pub, ru, t, c)
            if price > budget:
                continue
            nlegal += 1
            if random:
                if randint_nb(pub["rng"], nlegal) == 0:
                    best, free = i, f
                continue
            v = params[P.MEAL_POINTS] + w[W.GOURMET] * card[Deck.MEAL, 1, c] - w[W.COIN] * price
            if v > bv + 1e-9:
                best, free, bv = i, f, v
    return best, free


@njit(cache=True, inline="always")
def draft_nb(pub, ru, p, t1, t2):
    """Draft, every tier but random: ``p`` keeps ``t1`` (0) or ``t2`` (1) by ``DRAFT_COIN`` x starting coins +
    its prior (a win share from its draft table); with ``DRAFT_TEMP`` > 0 a softmax draw instead."""
    w = ru["botw"][p]
    trav = ru["trav"]
    v1 = w[W.DRAFT_COIN] * trav[t1, 0] + w[W.TRAV0 + t1]
    v2 = w[W.DRAFT_COIN] * trav[t2, 0] + w[W.TRAV0 + t2]
    temp = w[W.DRAFT_TEMP]
    if temp > 0.0:
        # softmax over the two values: human-like variety (one draw; none at temperature 0)
        u = (next_u64_nb(pub["rng"]) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        return 1 if u * (1.0 + np.exp((v1 - v2) / temp)) < 1.0 else 0
    return 1 if v2 > v1 else 0
