"""Policies: every decision of the game goes through one of these hooks.

Each ``choose_*_nb`` receives the bot id, the bot's float64 weight vector
``w`` (indices ``enums.W``), the public state (``ps``, ``occ``, pile sizes
``dcnt``), the rules tables and, where the rules show it to this player, the
cards on the table or in the Inn's hand. They never receive the piles
themselves, so no bot can read a deck's order. ``rng`` is the game's stream,
used by the random bot.

Bots: ``Bot.RANDOM`` picks uniformly among the legal choices; ``Bot.GREEDY``
maximises points now plus ``w[COIN]`` per coin, with a coin reserve for meals.
"""

import numpy as np
from numba import njit

from kernels.enums import PF, W, Ability, Bot, Deck, Enc, P, Space
from kernels.rng import randint_nb
from kernels.score import dish_eaten_nb, meal_price_nb, panorama_open_nb, souvenir_gain_pts_nb


@njit(cache=True)
def _reserve_pen_nb(w, coins_after):
    short = w[W.RESERVE] - coins_after
    return w[W.RESERVE_PEN] * short if short > 0 else 0.0


@njit(cache=True)
def panorama_value_nb(ps, t, typ, pan_ach, params):
    """Points of the next card of panorama ``typ`` (with the achievement if it completes)."""
    v = ps[t, PF.PAN0 + typ] + 1.0
    if v == params[P.PAN_LEN0 + typ] and (pan_ach >> typ) & 1 == 0:
        v += params[P.PAN_ACH_POINTS]
        if ps[t, PF.ABILITY] == Ability.MITSUKUNI:
            v += 1.0
    return v


@njit(cache=True)
def _best_souvenir_nb(ps, t, params):
    best = 0.0
    for f in range(params[P.N_FAMILIES]):
        best = max(best, float(souvenir_gain_pts_nb(ps, t, f, params)))
    return best


@njit(cache=True)
def space_values_nb(w, t, ps, dcnt, pan_ach, params, vals):
    """Greedy value of stopping on each space type now, into ``vals[9]``."""
    ab = ps[t, PF.ABILITY]
    coins = ps[t, PF.COINS]
    cw = w[W.COIN]
    vals[Space.INN] = w[W.INN]
    vals[Space.FARM] = params[P.FARM_COINS] * cw
    for k in range(3):
        vals[Space.PADDY + k] = panorama_value_nb(ps, t, k, pan_ach, params)
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
    sv = _best_souvenir_nb(ps, t, params) - cw * w[W.SOUVENIR_COST]
    if ab == Ability.ZEN_EMON or ab == Ability.SASAYAKKO:
        sv += cw
    vals[Space.VILLAGE] = max(0.0, sv) * w[W.VILLAGE] if dcnt[Deck.SOUVENIR] > 0 else 0.0


@njit(cache=True)
def choose_move_nb(bot, w, t, ctrl, ps, dcnt, pan_ach, board, params, n, cand, ncand, rng):
    """Index into ``cand`` of the chosen destination."""
    if bot == Bot.RANDOM or ncand == 1:
        return randint_nb(rng, ncand) if ncand > 1 else 0
    vals = np.zeros(9)
    pos = ps[t, PF.POS]
    if ps[t, PF.NEUTRAL] == 1:
        # the lead player moves the Neutral onto the space the opponent wants most
        opp = 1 - ctrl
        space_values_nb(w, opp, ps, dcnt, pan_ach, params, vals)
        vals[Space.INN] = 0.0
        best, bv = 0, -1e9
        for k in range(ncand):
            s = cand[k]
            v = w[W.BLOCK] * vals[board[0, s]] if s > ps[opp, PF.POS] else 0.0
            v -= 0.01 * (s - pos)
            if v > bv:
                best, bv = k, v
        return best
    space_values_nb(w, t, ps, dcnt, pan_ach, params, vals)
    best, bv = 0, -1e9
    for k in range(ncand):
        s = cand[k]
        v = vals[board[0, s]] - w[W.SKIP] * (s - pos - 1)
        if v > bv:
            best, bv = k, v
    return best


@njit(cache=True)
def _village_prices_nb(ps, t, tbl, ntbl, mask, zen, card, params, prices):
    """Prices of the cards in ``mask``; returns (coins needed, coins paid)."""
    ab = ps[t, PF.ABILITY]
    need = 0
    nb = 0
    cheapest = -1
    for i in range(ntbl):
        prices[i] = 0
        if (mask >> i) & 1:
            c = card[Deck.SOUVENIR, 1, tbl[i]]
            if i == zen:
                c = min(c, params[P.ZEN_EMON_PRICE])
            prices[i] = c
            need += c
            nb += 1
            if cheapest < 0 or c < prices[cheapest]:
                cheapest = i
    paid = need
    if ab == Ability.SASAYAKKO and nb >= 2:
        paid -= prices[cheapest]
        prices[cheapest] = 0
    return need, paid


@njit(cache=True)
def choose_village_nb(bot, w, t, ps, tbl, ntbl, card, params, rng, prices):
    """Returns (mask of bought cards, Zen-emon's 1-coin card or -1); fills ``prices``."""
    coins = ps[t, PF.COINS]
    zen_opts = ntbl if ps[t, PF.ABILITY] == Ability.ZEN_EMON else 0
    nmask = 1 << ntbl
    # every legal (mask, zen) pair is scored; the random bot draws one uniformly
    nlegal = 0
    best_m, best_z, bv = 0, -1, -1e9
    fam = np.zeros(8, np.int32)
    for mask in range(nmask):
        for zen in range(-1, zen_opts):
            if zen >= 0 and (mask >> zen) & 1 == 0:
                continue
            need, paid = _village_prices_nb(ps, t, tbl, ntbl, mask, zen, card, params, prices)
            if need > coins:
                continue
            nlegal += 1
            if bot == Bot.RANDOM:
                # reservoir sampling: uniform over the legal pairs
                if randint_nb(rng, nlegal) == 0:
                    best_m, best_z = mask, zen
                continue
            pts = 0.0
            for f in range(params[P.N_FAMILIES]):
                fam[f] = ps[t, PF.FAM0 + f]
            for i in range(ntbl):
                if (mask >> i) & 1:
                    f = card[Deck.SOUVENIR, 0, tbl[i]]
                    k = fam[f]
                    size = 0
                    for g in range(params[P.N_FAMILIES]):
                        if fam[g] > k:
                            size += 1
                    pts += params[P.SET_PTS0 + size]
                    fam[f] += 1
            v = pts - w[W.COIN] * paid - _reserve_pen_nb(w, coins - paid)
            if v > bv + 1e-9:
                best_m, best_z, bv = mask, zen, v
    _village_prices_nb(ps, t, tbl, ntbl, best_m, best_z, card, params, prices)
    return best_m, best_z


@njit(cache=True)
def choose_donation_nb(bot, w, t, ps, params, rng):
    """Coins (1..3) given to the Temple."""
    hi = min(params[P.TEMPLE_MAX], ps[t, PF.COINS])
    if bot == Bot.RANDOM:
        return 1 + randint_nb(rng, hi)
    coins = ps[t, PF.COINS]
    best, bv = 1, -1e9
    for d in range(1, hi + 1):
        v = d * (1.0 + w[W.TEMPLE_RANK] - w[W.COIN]) - _reserve_pen_nb(w, coins - d)
        if v > bv + 1e-9:
            best, bv = d, v
    return best


@njit(cache=True)
def choose_option_nb(bot, w, t, ps, opt_value, rng):
    """A yes/no choice whose greedy value (points minus coin value) is ``opt_value``."""
    if bot == Bot.RANDOM:
        return randint_nb(rng, 2)
    return 1 if opt_value > 0.0 else 0


@njit(cache=True)
def choose_panorama_nb(bot, w, t, ps, pan_ach, params, rng):
    """A panorama type still open to ``t`` (the caller checks one exists)."""
    nopen = 0
    best, bv = -1, -1e9
    for k in range(3):
        if not panorama_open_nb(ps, t, k, params):
            continue
        nopen += 1
        if bot == Bot.RANDOM:
            if randint_nb(rng, nopen) == 0:
                best = k
            continue
        v = panorama_value_nb(ps, t, k, pan_ach, params)
        if v > bv:
            best, bv = k, v
    return best


@njit(cache=True)
def encounter_value_nb(w, t, ps, c, card, pan_ach, params):
    kind = card[Deck.ENCOUNTER, 0, c]
    cw = w[W.COIN]
    if kind == Enc.SAMURAI:
        return float(params[P.SAMURAI_POINTS])
    if kind == Enc.KUGE:
        return params[P.KUGE_COINS] * cw
    if kind == Enc.MIKO:
        return params[P.MIKO_POINTS] + w[W.TEMPLE_RANK]
    if kind == Enc.SHOKUNIN:
        return _best_souvenir_nb(ps, t, params) * 0.6
    if kind == Enc.ANNAIBITO:
        typ = card[Deck.ENCOUNTER, 1, c]
        if panorama_open_nb(ps, t, typ, params):
            return panorama_value_nb(ps, t, typ, pan_ach, params)
        return 2.0
    if kind == Enc.ITAMAE:
        return params[P.MEAL_POINTS] * 0.7 - cw
    if kind == Enc.SARU:
        return w[W.HOT_SPRING]
    if kind == Enc.TAKUHATSUSO:
        return params[P.TAKUHATSUSO_POINTS] - cw
    return 3.0 - cw  # Kitoushi


@njit(cache=True)
def choose_encounter_nb(bot, w, t, ps, c1, c2, card, pan_ach, params, rng):
    """Yoshiyasu keeps one of two Encounter cards: 0 keeps ``c1``, 1 keeps ``c2``."""
    if bot == Bot.RANDOM:
        return randint_nb(rng, 2)
    v1 = encounter_value_nb(w, t, ps, c1, card, pan_ach, params)
    v2 = encounter_value_nb(w, t, ps, c2, card, pan_ach, params)
    return 1 if v2 > v1 else 0


@njit(cache=True)
def choose_meal_nb(bot, w, t, ps, hand, hand_n, offered, card, params, rng):
    """Returns (index into ``hand`` or -1 for no meal, 1 if taken free as Satsuki's offer)."""
    coins = ps[t, PF.COINS]
    nlegal = 1  # "no meal" is always legal
    best, free, bv = -1, 0, 0.0
    for i in range(hand_n):
        c = hand[i]
        if dish_eaten_nb(ps, t, c, card):
            continue
        for f in range(2):
            if f == 1 and c != offered:
                continue
            price = 0 if f == 1 else meal_price_nb(ps, t, c, card, params)
            if price > coins:
                continue
            nlegal += 1
            if bot == Bot.RANDOM:
                if randint_nb(rng, nlegal) == 0:
                    best, free = i, f
                continue
            v = params[P.MEAL_POINTS] + w[W.GOURMET] * card[Deck.MEAL, 1, c] - w[W.COIN] * price
            if v > bv + 1e-9:
                best, free, bv = i, f, v
    return best, free


@njit(cache=True)
def choose_traveler_nb(bot, w, t1, t2, trav, rng):
    """Draft: 0 keeps ``t1``, 1 keeps ``t2``."""
    if bot == Bot.RANDOM:
        return randint_nb(rng, 2)
    v1 = w[W.DRAFT_COIN] * trav[t1, 0] + w[W.TRAV0 + t1]
    v2 = w[W.DRAFT_COIN] * trav[t2, 0] + w[W.TRAV0 + t2]
    return 1 if v2 > v1 else 0
