"""What happens on each space: stations, encounters, Inns.

``S`` is the game state tuple ``(ps, gs, occ, deck, dk, hand, tbl, log, rng)``
and ``R`` the rules tuple ``(board, card, dsize, params, trav, cfg, botw)``
(layouts in ``enums``). ``tbl`` int16[HAND_CAP] holds cards drawn onto the
table (a Village's three souvenirs, Yoshiyasu's two encounters). Only these
functions touch the piles; bots get the cards the rules show them.
"""

import numpy as np
from numba import njit

from kernels.bots import (
    choose_donation_nb,
    choose_encounter_nb,
    choose_meal_nb,
    choose_option_nb,
    choose_panorama_nb,
    choose_village_nb,
    panorama_value_nb,
)
from kernels.enums import PF, W, Ability, Deck, Enc, Ev, G, Opt, P, PanSrc, Space
from kernels.piles import draw_nb, log_nb, under_nb
from kernels.rng import randint_nb, shuffle_nb
from kernels.score import (
    add_pts_nb,
    dish_eaten_nb,
    gain_hot_spring_nb,
    gain_meal_nb,
    gain_souvenir_nb,
    meal_price_nb,
    panorama_open_nb,
    take_panorama_nb,
)


@njit(cache=True)
def _any_panorama_open_nb(ps, t, params):
    for k in range(3):
        if panorama_open_nb(ps, t, k, params):
            return True
    return False


@njit(cache=True)
def panorama_nb(S, R, t, typ, src):
    ps, gs, occ, deck, dk, hand, tbl, log, rng = S
    params = R[3]
    gs[G.PAN_ACH] = take_panorama_nb(ps, gs[G.PAN_ACH], t, typ, params)
    log_nb(log, gs, Ev.PANORAMA, t, typ, src, -1, -1)


@njit(cache=True)
def chosen_panorama_nb(S, R, t, src):
    """A panorama card of the player's choice (Annaibito fallback, Hiroshige, Kitoushi)."""
    ps, gs, occ, deck, dk, hand, tbl, log, rng = S
    params = R[3]
    botw = R[6]
    if not _any_panorama_open_nb(ps, t, params):
        return
    typ = choose_panorama_nb(ps[t, PF.BOT], botw[t], t, ps, gs[G.PAN_ACH], params, rng)
    panorama_nb(S, R, t, typ, src)


@njit(cache=True)
def draw_gain_nb(S, R, t, d):
    """Draw the top card of pile ``d`` straight into ``t``'s collection (free)."""
    ps, gs, occ, deck, dk, hand, tbl, log, rng = S
    card, params = R[1], R[3]
    if dk[1, d] == 0:
        return
    c = draw_nb(deck, dk, d)
    log_nb(log, gs, Ev.DRAW, t, d, c, -1, -1)
    if d == Deck.SOUVENIR:
        gain_souvenir_nb(ps, t, c, card, params)
    elif d == Deck.HOT_SPRING:
        gain_hot_spring_nb(ps, t, c, card, params)
    log_nb(log, gs, Ev.GAIN, t, d, c, 0, -1)


@njit(cache=True)
def village_nb(S, R, t):
    """Draw 3 souvenirs, buy any affordable subset, the rest go under the pile."""
    ps, gs, occ, deck, dk, hand, tbl, log, rng = S
    card, params, botw = R[1], R[3], R[6]
    n = min(params[P.VILLAGE_DRAW], dk[1, Deck.SOUVENIR])
    for i in range(n):
        tbl[i] = draw_nb(deck, dk, Deck.SOUVENIR)
        log_nb(log, gs, Ev.DRAW, t, Deck.SOUVENIR, tbl[i], -1, -1)
    prices = np.zeros(4, np.int32)
    mask, zen = choose_village_nb(ps[t, PF.BOT], botw[t], t, ps, tbl, n, card, params, rng, prices)
    k = 0
    for i in range(n):
        if (mask >> i) & 1:
            ps[t, PF.COINS] -= prices[i]
            gain_souvenir_nb(ps, t, tbl[i], card, params)
            log_nb(log, gs, Ev.GAIN, t, Deck.SOUVENIR, tbl[i], prices[i], -1)
        else:
            tbl[k] = tbl[i]
            k += 1
    shuffle_nb(tbl, k, rng)
    for i in range(k):
        under_nb(deck, dk, Deck.SOUVENIR, tbl[i])
        log_nb(log, gs, Ev.UNDER, -1, Deck.SOUVENIR, tbl[i], -1, -1)


@njit(cache=True)
def temple_nb(S, R, t):
    ps, gs, occ, deck, dk, hand, tbl, log, rng = S
    params, botw = R[3], R[6]
    if ps[t, PF.NEUTRAL] == 1:
        ps[t, PF.DONATED] += params[P.NEUTRAL_BANK_COIN]
        log_nb(log, gs, Ev.DONATE, t, 0, params[P.NEUTRAL_BANK_COIN], -1, -1)
        return
    d = choose_donation_nb(ps[t, PF.BOT], botw[t], t, ps, params, rng)
    ps[t, PF.COINS] -= d
    ps[t, PF.DONATED] += d
    add_pts_nb(ps, t, PF.PTS_TEMPLE, d)
    bank = 0
    if ps[t, PF.ABILITY] == Ability.HIROTADA:
        bank = choose_option_nb(ps[t, PF.BOT], botw[t], t, ps, 1.0, rng) * params[P.HIROTADA_COIN]
        ps[t, PF.DONATED] += bank
        add_pts_nb(ps, t, PF.PTS_TEMPLE, bank)
    log_nb(log, gs, Ev.DONATE, t, d, bank, -1, -1)


@njit(cache=True)
def encounter_nb(S, R, t, at_station):
    """Draw an Encounter card (Yoshiyasu: two, keep one) and apply it."""
    ps, gs, occ, deck, dk, hand, tbl, log, rng = S
    card, params, botw = R[1], R[3], R[6]
    bot = ps[t, PF.BOT]
    w = botw[t]
    cw = w[W.COIN]
    if dk[1, Deck.ENCOUNTER] == 0:
        return
    c = draw_nb(deck, dk, Deck.ENCOUNTER)
    log_nb(log, gs, Ev.DRAW, t, Deck.ENCOUNTER, c, -1, -1)
    if at_station and ps[t, PF.ABILITY] == Ability.YOSHIYASU and dk[1, Deck.ENCOUNTER] > 0:
        c2 = draw_nb(deck, dk, Deck.ENCOUNTER)
        log_nb(log, gs, Ev.DRAW, t, Deck.ENCOUNTER, c2, -1, -1)
        if choose_encounter_nb(bot, w, t, ps, c, c2, card, gs[G.PAN_ACH], params, rng) == 1:
            c, c2 = c2, c
        log_nb(log, gs, Ev.GAIN, t, Deck.ENCOUNTER, c, 0, -1)
        under_nb(deck, dk, Deck.ENCOUNTER, c2)
        log_nb(log, gs, Ev.UNDER, -1, Deck.ENCOUNTER, c2, -1, -1)
    else:
        log_nb(log, gs, Ev.GAIN, t, Deck.ENCOUNTER, c, 0, -1)
    ps[t, PF.ENCOUNTERS] += 1
    kind = card[Deck.ENCOUNTER, 0, c]
    coins = ps[t, PF.COINS]
    if kind == Enc.SHOKUNIN:
        draw_gain_nb(S, R, t, Deck.SOUVENIR)
    elif kind == Enc.ANNAIBITO:
        typ = card[Deck.ENCOUNTER, 1, c]
        if panorama_open_nb(ps, t, typ, params):
            panorama_nb(S, R, t, typ, PanSrc.ANNAIBITO)
        else:
            chosen_panorama_nb(S, R, t, PanSrc.ANNAIBITO)
    elif kind == Enc.SAMURAI:
        add_pts_nb(ps, t, PF.PTS_ENCOUNTERS, params[P.SAMURAI_POINTS])
    elif kind == Enc.KUGE:
        ps[t, PF.COINS] += params[P.KUGE_COINS]
    elif kind == Enc.MIKO:
        ps[t, PF.DONATED] += 1
        add_pts_nb(ps, t, PF.PTS_ENCOUNTERS, params[P.MIKO_POINTS])
    elif kind == Enc.ITAMAE:
        cost = params[P.ITAMAE_COST]
        if coins >= cost and dk[1, Deck.MEAL] > 0:
            b = choose_option_nb(bot, w, t, ps, params[P.MEAL_POINTS] * 0.7 - cw * cost, rng)
            log_nb(log, gs, Ev.OPTION, t, Opt.ITAMAE, b, -1, -1)
            if b == 1:
                ps[t, PF.COINS] -= cost
                m = draw_nb(deck, dk, Deck.MEAL)
                log_nb(log, gs, Ev.DRAW, t, Deck.MEAL, m, -1, -1)
                if dish_eaten_nb(ps, t, m, card):
                    under_nb(deck, dk, Deck.MEAL, m)
                    log_nb(log, gs, Ev.UNDER, -1, Deck.MEAL, m, -1, -1)
                else:
                    gain_meal_nb(ps, t, m, 0, card, params)
                    log_nb(log, gs, Ev.GAIN, t, Deck.MEAL, m, 0, -1)
    elif kind == Enc.KITOUSHI:
        cost = params[P.KITOUSHI_COST]
        if coins >= cost and _any_panorama_open_nb(ps, t, params):
            best = 0.0
            for k in range(3):
                if panorama_open_nb(ps, t, k, params):
                    best = max(best, panorama_value_nb(ps, t, k, gs[G.PAN_ACH], params))
            b = choose_option_nb(bot, w, t, ps, best - cw * cost, rng)
            log_nb(log, gs, Ev.OPTION, t, Opt.KITOUSHI, b, -1, -1)
            if b == 1:
                ps[t, PF.COINS] -= cost
                chosen_panorama_nb(S, R, t, PanSrc.KITOUSHI)
    elif kind == Enc.SARU:
        draw_gain_nb(S, R, t, Deck.HOT_SPRING)
    elif kind == Enc.TAKUHATSUSO:
        cost = params[P.TAKUHATSUSO_COST]
        if coins >= cost:
            pts = params[P.TAKUHATSUSO_POINTS]
            b = choose_option_nb(bot, w, t, ps, pts - cw * cost, rng)
            log_nb(log, gs, Ev.OPTION, t, Opt.TAKUHATSUSO, b, -1, -1)
            if b == 1:
                ps[t, PF.COINS] -= cost
                add_pts_nb(ps, t, PF.PTS_ENCOUNTERS, pts)


@njit(cache=True)
def station_nb(S, R, t, typ):
    """A player's stop on a station (not an Inn)."""
    ps = S[0]
    params = R[3]
    ps[t, PF.STOPS] += 1
    if typ == Space.VILLAGE:
        village_nb(S, R, t)
    elif typ == Space.FARM:
        ps[t, PF.COINS] += params[P.FARM_COINS]
    elif typ == Space.HOT_SPRING:
        draw_gain_nb(S, R, t, Deck.HOT_SPRING)
    elif typ == Space.TEMPLE:
        temple_nb(S, R, t)
    elif typ == Space.ENCOUNTER:
        if ps[t, PF.ABILITY] == Ability.UMEGAE:
            ps[t, PF.COINS] += params[P.UMEGAE_COINS]
            add_pts_nb(ps, t, PF.PTS_OTHER, params[P.UMEGAE_POINTS])
        encounter_nb(S, R, t, True)
    else:  # a panorama
        panorama_nb(S, R, t, typ - Space.PADDY, PanSrc.STATION)


@njit(cache=True)
def _remove_from_hand_nb(hand, gs, i):
    n = gs[G.HAND_N] - 1
    hand[i] = hand[n]
    gs[G.HAND_N] = n


@njit(cache=True)
def meal_nb(S, R, t):
    """A player's meal: at most one, never a dish twice, optional; Satsuki's offer first."""
    ps, gs, occ, deck, dk, hand, tbl, log, rng = S
    card, params, botw = R[1], R[3], R[6]
    hn = gs[G.HAND_N]
    offered = -1
    if ps[t, PF.ABILITY] == Ability.SATSUKI and hn > 0:
        offered = hand[randint_nb(rng, hn)]
        log_nb(log, gs, Ev.OFFER, t, offered, -1, -1, -1)
    i, free = choose_meal_nb(ps[t, PF.BOT], botw[t], t, ps, hand, hn, offered, card, params, rng)
    if i < 0:
        return
    c = hand[i]
    paid = 0 if free == 1 else meal_price_nb(ps, t, c, card, params)
    gain_meal_nb(ps, t, c, paid, card, params)
    log_nb(log, gs, Ev.GAIN, t, Deck.MEAL, c, paid, -1)
    _remove_from_hand_nb(hand, gs, i)


@njit(cache=True)
def inn_nb(S, R, t, s):
    """Arrival at the Inn on space ``s`` (never the start Inn)."""
    ps, gs, occ, deck, dk, hand, tbl, log, rng = S
    params = R[3]
    nt = gs[G.N_TRAV]
    neutral = ps[t, PF.NEUTRAL] == 1
    if not neutral and s != gs[G.LAST]:
        ab = ps[t, PF.ABILITY]
        if ab == Ability.HIROSHIGE:
            chosen_panorama_nb(S, R, t, PanSrc.HIROSHIGE)
        elif ab == Ability.CHUUBEI:
            encounter_nb(S, R, t, False)
    if occ[s] == 1:  # first to arrive: draw the meal hand
        k = min(nt + params[P.HAND_EXTRA], dk[1, Deck.MEAL])
        for i in range(k):
            hand[i] = draw_nb(deck, dk, Deck.MEAL)
            log_nb(log, gs, Ev.DRAW, t, Deck.MEAL, hand[i], -1, -1)
        gs[G.HAND_N] = k
    if neutral:
        hn = gs[G.HAND_N]
        if hn > 0:
            i = randint_nb(rng, hn)
            c = hand[i]
            log_nb(log, gs, Ev.OFFER, t, c, -1, -1, -1)
            _remove_from_hand_nb(hand, gs, i)
            under_nb(deck, dk, Deck.MEAL, c)
            log_nb(log, gs, Ev.UNDER, -1, Deck.MEAL, c, -1, -1)
    else:
        meal_nb(S, R, t)
    if occ[s] == nt:  # everyone is here: leftovers go under the pile
        hn = gs[G.HAND_N]
        shuffle_nb(hand, hn, rng)
        for i in range(hn):
            under_nb(deck, dk, Deck.MEAL, hand[i])
            log_nb(log, gs, Ev.UNDER, -1, Deck.MEAL, hand[i], -1, -1)
        gs[G.HAND_N] = 0
