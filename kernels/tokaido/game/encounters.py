"""What a card drawn at a stop does: panorama cards, free draws, and the Encounter cards.

Called from the stations and Inns (``stations``: Encounter spaces, Chuubei's Inn draw, Matsuri's
Hadaka) and from the Crossroads and Matsuri rules that hand out these cards.
"""

from numba import njit

from kernels.core.log import log_nb
from kernels.tokaido.bots.policy import (
    choose_encounter_nb,
    choose_option_nb,
    choose_panorama_nb,
    panorama_value_nb,
)
from kernels.tokaido.core.enums import PF, Ability, Deck, Enc, Ev, G, Opt, P, PanSrc
from kernels.tokaido.core.piles import draw_nb, under_nb
from kernels.tokaido.core.score import (
    add_pts_nb,
    any_panorama_open_nb,
    dish_eaten_nb,
    gain_hot_spring_nb,
    gain_meal_nb,
    gain_souvenir_nb,
    mark_gone_nb,
    panorama_open_nb,
    take_panorama_nb,
)
from kernels.tokaido.core.weights import W
from kernels.tokaido.game.matsuri import gion_card_nb, gion_pick_nb
from kernels.tokaido.game.stops import unpaid_nb


@njit(cache=True)
def panorama_nb(pub, hid, ru, t, typ, src):
    take_panorama_nb(pub, ru, t, typ)
    log_nb(hid, Ev.PANORAMA, t, typ, src, -1, -1)


@njit(cache=True)
def chosen_panorama_nb(pub, hid, ru, t, src):
    """A panorama card of the player's choice (Annaibito fallback, Hiroshige, Kitoushi)."""
    if any_panorama_open_nb(pub, ru, t):
        panorama_nb(pub, hid, ru, t, choose_panorama_nb(pub, ru, t), src)


@njit(cache=True)
def draw_gain_nb(pub, hid, ru, t, d):
    """Draw the top card of pile ``d`` straight into ``t``'s collection (free)."""
    if pub["dcnt"][d] == 0:
        return
    c = draw_nb(pub, hid, d)
    log_nb(hid, Ev.DRAW, t, d, c, -1, -1)
    if d == Deck.SOUVENIR:
        gain_souvenir_nb(pub, ru, t, c)
    elif d == Deck.HOT_SPRING:
        gain_hot_spring_nb(pub, ru, t, c)
    log_nb(hid, Ev.GAIN, t, d, c, 0, -1)


@njit(cache=True)
def encounter_nb(pub, hid, ru, t, at_station, gion):
    """Draw an Encounter card (Yoshiyasu at a station: two, keep one) and apply it.

    ``gion``: an Encounter station's own card, which Matsuri's Gion lets the stopper choose.
    """
    ps = pub["ps"]
    dcnt = pub["dcnt"]
    params = ru["params"]
    if dcnt[Deck.ENCOUNTER] == 0:
        return
    g = gion_card_nb(pub, ru) if gion and pub["gs"][G.M_LEG] != 0 else -1
    if g >= 0:
        c = gion_pick_nb(pub, hid, ru, t, g)
    else:
        c = draw_nb(pub, hid, Deck.ENCOUNTER)
        log_nb(hid, Ev.DRAW, t, Deck.ENCOUNTER, c, -1, -1)
    if g < 0 and at_station and ps[t, PF.ABILITY] == Ability.YOSHIYASU and dcnt[Deck.ENCOUNTER] > 0:
        c2 = draw_nb(pub, hid, Deck.ENCOUNTER)
        log_nb(hid, Ev.DRAW, t, Deck.ENCOUNTER, c2, -1, -1)
        if choose_encounter_nb(pub, ru, t, c, c2) == 1:
            c, c2 = c2, c
        log_nb(hid, Ev.GAIN, t, Deck.ENCOUNTER, c, 0, -1)
        under_nb(pub, hid, Deck.ENCOUNTER, c2)
        log_nb(hid, Ev.UNDER, -1, Deck.ENCOUNTER, c2, -1, -1)
    else:
        log_nb(hid, Ev.GAIN, t, Deck.ENCOUNTER, c, 0, -1)
    ps[t, PF.ENCOUNTERS] += 1
    mark_gone_nb(pub, Deck.ENCOUNTER, c)
    kind = ru["card"][Deck.ENCOUNTER, 0, c]
    coins = ps[t, PF.COINS]
    cw = ru["botw"][t][W.COIN]
    if kind == Enc.SHOKUNIN:
        draw_gain_nb(pub, hid, ru, t, Deck.SOUVENIR)
    elif kind == Enc.ANNAIBITO:
        typ = ru["card"][Deck.ENCOUNTER, 1, c]
        if panorama_open_nb(pub, ru, t, typ):
            panorama_nb(pub, hid, ru, t, typ, PanSrc.ANNAIBITO)
        elif any_panorama_open_nb(pub, ru, t):  # rulebook: "they can start or add to another": optional
            b = choose_option_nb(
                pub, ru, t, panorama_value_nb(pub, ru, t, choose_panorama_nb(pub, ru, t)), Opt.ANNAIBITO
            )
            log_nb(hid, Ev.OPTION, t, Opt.ANNAIBITO, b, -1, -1)
            if b == 1:
                chosen_panorama_nb(pub, hid, ru, t, PanSrc.ANNAIBITO)
    elif kind == Enc.SAMURAI:
        add_pts_nb(pub, t, PF.PTS_ENCOUNTERS, params[P.SAMURAI_POINTS])
    elif kind == Enc.KUGE:
        ps[t, PF.COINS] += params[P.KUGE_COINS]
    elif kind == Enc.MIKO:
        ps[t, PF.DONATED] += 1
        add_pts_nb(pub, t, PF.PTS_ENCOUNTERS, params[P.MIKO_POINTS])
    elif kind == Enc.ITAMAE:
        cost = params[P.ITAMAE_COST]
        paid = False
        if coins >= cost and dcnt[Deck.MEAL] > 0:
            b = choose_option_nb(pub, ru, t, params[P.MEAL_POINTS] * 0.7 - cw * cost, Opt.ITAMAE)
            log_nb(hid, Ev.OPTION, t, Opt.ITAMAE, b, -1, -1)
            if b == 1:
                paid = True
                ps[t, PF.COINS] -= cost
                m = draw_nb(pub, hid, Deck.MEAL)
                log_nb(hid, Ev.DRAW, t, Deck.MEAL, m, -1, -1)
                if dish_eaten_nb(pub, ru, t, m):
                    under_nb(pub, hid, Deck.MEAL, m)
                    log_nb(hid, Ev.UNDER, -1, Deck.MEAL, m, -1, -1)
                else:
                    gain_meal_nb(pub, ru, t, m, 0)
                    log_nb(hid, Ev.GAIN, t, Deck.MEAL, m, 0, -1)
        if not paid:
            unpaid_nb(pub, hid, t, c)
    elif kind == Enc.KITOUSHI:
        cost = params[P.KITOUSHI_COST]
        paid = False
        if coins >= cost and any_panorama_open_nb(pub, ru, t):
            best = 0.0
            for k in range(3):
                if panorama_open_nb(pub, ru, t, k):
                    best = max(best, panorama_value_nb(pub, ru, t, k))
            b = choose_option_nb(pub, ru, t, best - cw * cost, Opt.KITOUSHI)
            log_nb(hid, Ev.OPTION, t, Opt.KITOUSHI, b, -1, -1)
            if b == 1:
                paid = True
                ps[t, PF.COINS] -= cost
                chosen_panorama_nb(pub, hid, ru, t, PanSrc.KITOUSHI)
        if not paid:
            unpaid_nb(pub, hid, t, c)
    elif kind == Enc.SARU:
        draw_gain_nb(pub, hid, ru, t, Deck.HOT_SPRING)
    elif kind == Enc.TAKUHATSUSO:
        cost = params[P.TAKUHATSUSO_COST]
        if coins >= cost:
            pts = params[P.TAKUHATSUSO_POINTS]
            b = choose_option_nb(pub, ru, t, pts - cw * cost, Opt.TAKUHATSUSO)
            log_nb(hid, Ev.OPTION, t, Opt.TAKUHATSUSO, b, -1, -1)
            if b == 1:
                ps[t, PF.COINS] -= cost
                add_pts_nb(pub, t, PF.PTS_ENCOUNTERS, pts)
                return
        unpaid_nb(pub, hid, t, c)
