"""The Matsuri Travelers' abilities in the engine (seed 002 "Travelers Matsuri"; expansions.md A.9, MT-*).

Small hooks call these from ``turn.py`` (set-up, end), ``stations.py`` (stops, Inns) and
``crossroads.py`` (prices live in ``kernels.tokaido.core.prices``; Iyasaka's re-roll and Marihito's double
are inline there). Coins an ability moves are logged ``MT_COIN(t, coins, from, ability)``.
"""

from numba import njit

from kernels.core.log import log_nb
from kernels.core.rng import randint_nb
from kernels.tokaido.bots.crossroads import legendary_value_nb
from kernels.tokaido.bots.policy import choose_mt_option_nb
from kernels.tokaido.core.enums import MARKET_CAP, PF, Ability, Amulet, Deck, Ev, G, Opt, P, Space
from kernels.tokaido.core.piles import draw_nb, under_nb
from kernels.tokaido.core.prices import Disc, legendary_price_nb
from kernels.tokaido.core.score import (
    add_pts_nb,
    dish_eaten_nb,
    gain_hot_spring_nb,
    gain_meal_nb,
    meal_price_nb,
)
from kernels.tokaido.core.weights import W
from kernels.tokaido.game.crossroads import (
    devotion_nb,
    gain_legendary_nb,
    hospitality_nb,
    usable_amulet_nb,
    use_amulet_nb,
)


@njit(cache=True)
def _coin_nb(pub, hid, t, coins, src, ab):
    """``t`` takes ``coins`` from traveler ``src`` (-1: the bank)."""
    ps = pub["ps"]
    if src >= 0:
        ps[src, PF.COINS] -= coins
    ps[t, PF.COINS] += coins
    log_nb(hid, Ev.MT_COIN, t, coins, src, ab, -1)


@njit(cache=True)
def _payer_nb(pub, u, coins):
    """Who pays for traveler ``u`` (-1 none): the bank for the Neutral or a purse too light (MT-Kushinada,
    Musubi)."""
    if u < 0 or pub["ps"][u, PF.NEUTRAL] == 1 or pub["ps"][u, PF.COINS] < coins:
        return -1
    return u


@njit(cache=True)
def kushinada_setup_nb(pub, hid, ru):
    """002:L608-610: every other traveler gives her a coin; at 2 players the bank pays for the Neutral."""
    ps = pub["ps"]
    nt = pub["gs"][G.N_TRAV]
    k = ru["params"][P.KUSHINADA_COINS]
    for t in range(pub["gs"][G.N_PLAYERS]):
        if ps[t, PF.ABILITY] != Ability.KUSHINADA:
            continue
        for u in range(nt):
            if u != t:
                _coin_nb(pub, hid, t, k, _payer_nb(pub, u, k), Ability.KUSHINADA)


@njit(cache=True)
def watchers_nb(pub, hid, ru, t, typ):
    """Misaki (Temple) and Takeru (Encounter) take bank coins at any player's stop (M29: not the
    Neutral's)."""
    if typ == Space.TEMPLE:
        ab = Ability.MISAKI
    elif typ == Space.ENCOUNTER:
        ab = Ability.TAKERU
    else:
        return
    ps = pub["ps"]
    for u in range(pub["gs"][G.N_PLAYERS]):
        if ps[u, PF.ABILITY] == ab:
            _coin_nb(pub, hid, u, ru["params"][P.WATCHER_COINS], -1, ab)


@njit(cache=True)
def temple_points_nb(pub, ru, t, d):
    """Mari scores MARI_TEMPLE_MULT per coin donated at a Temple stop (002:L611)."""
    return d * (ru["params"][P.MARI_TEMPLE_MULT] if pub["ps"][t, PF.ABILITY] == Ability.MARI else 1)


@njit(cache=True)
def farm_bonus_nb(pub, ru, t):
    if pub["ps"][t, PF.ABILITY] == Ability.IYASAKA:
        pub["ps"][t, PF.COINS] += ru["params"][P.IYASAKA_FARM_BONUS]


@njit(cache=True)
def _before_nb(pub, t, s):
    """The traveler who arrived at Inn ``s`` just before ``t`` (-1: ``t`` is the first)."""
    ps = pub["ps"]
    best = -1
    for u in range(pub["gs"][G.N_TRAV]):
        if u != t and ps[u, PF.POS] == s and ps[u, PF.SEQ] < ps[t, PF.SEQ]:
            if best < 0 or ps[u, PF.SEQ] > ps[best, PF.SEQ]:
                best = u
    return best


@njit(cache=True)
def arrival_nb(pub, hid, ru, t, s):
    """Arrival at an intermediate Inn, before the meal (A5): Chihaya, Yashima, Musubi."""
    ps = pub["ps"]
    ab = ps[t, PF.ABILITY] if ps[t, PF.NEUTRAL] == 0 else Ability.NONE
    if ab == Ability.CHIHAYA and pub["dcnt"][Deck.HOT_SPRING] > 0:  # 002:L599: the top Hot Spring card
        c = draw_nb(pub, hid, Deck.HOT_SPRING)
        log_nb(hid, Ev.DRAW, t, Deck.HOT_SPRING, c, -1, -1)
        gain_hot_spring_nb(pub, ru, t, c)
        log_nb(hid, Ev.GAIN, t, Deck.HOT_SPRING, c, 0, -1)
    elif ab == Ability.YASHIMA:  # 002:L564-568: a random Amulet from those available, free
        n = 0
        for c in range(MARKET_CAP):
            n += pub["mkt"][1, c]
        if n > 0:
            j = randint_nb(pub["rng"], n)
            for c in range(MARKET_CAP):
                if pub["mkt"][1, c] == 1:
                    if j == 0:
                        pub["mkt"][1, c] = 0
                        ps[t, PF.AMULETS] |= 1 << c
                        ps[t, PF.AMULETS_BOUGHT] += 1
                        if ru["params"][P.YASHIMA_SAME_INN] == 0:  # MT-Yashima: usable from her next move
                            ps[t, PF.AMULETS_NEW] |= 1 << c
                        log_nb(hid, Ev.GAIN, t, Deck.AMULET, c, 0, -1)
                        break
                    j -= 1
    elif ab == Ability.KIDZUNA and pub["dcnt"][Deck.MEAL] > 0:
        kidzuna_nb(pub, hid, ru, t)
    if ru["params"][P.MUSUBI_TIMING] == 0:
        musubi_arrival_nb(pub, hid, t, s)


@njit(cache=True)
def kidzuna_nb(pub, hid, ru, t):
    """002:L606-607: before her meal she reveals the top meal card and may buy it at its cost (MT-Kidzuna:
    not a dish she has eaten; left, it goes under the pile; an extra meal, not an Inn meal for Fasting).
    At the Cho-yo Inn that cost is 1 less, as for every meal there (M24, MI7)."""
    ps = pub["ps"]
    c = draw_nb(pub, hid, Deck.MEAL)
    log_nb(hid, Ev.DRAW, t, Deck.MEAL, c, -1, -1)
    cost = meal_price_nb(pub, ru, t, c)  # Cho-yo lowers it at its Inn (M24)
    # MT-Kidzuna (kidzuna_hospitality = "either"): the Hospitality Amulet may pay for this meal instead
    hosp = (
        usable_amulet_nb(pub, ru, t, Amulet.HOSPITALITY) if ru["params"][P.KIDZUNA_HOSP_EITHER] == 1 else -1
    )
    if not dish_eaten_nb(pub, ru, t, c) and (ps[t, PF.COINS] >= cost or hosp >= 0):
        value = ru["params"][P.MEAL_POINTS] - ru["botw"][t][W.COIN] * cost
        b = choose_mt_option_nb(pub, ru, t, value, Opt.KIDZUNA, c)
        log_nb(hid, Ev.OPTION, t, Opt.KIDZUNA, b, -1, -1)
        if b == 1:
            paid = cost
            printed = ru["card"][Deck.MEAL, 1, c]
            disc = 1 << Disc.CHOYO if cost < printed else 0  # Cho-yo's coin (M24)
            if cost > ps[t, PF.COINS]:  # only affordable thanks to Hospitality: the Amulet must be used
                use_amulet_nb(pub, hid, t, hosp, -1)
                paid = 0
            elif hosp >= 0 and hospitality_nb(pub, hid, ru, t, cost):
                paid = 0
            if paid < cost:
                disc |= 1 << Disc.HOSPITALITY
            gain_meal_nb(pub, ru, t, c, paid)
            log_nb(hid, Ev.GAIN, t, Deck.MEAL, c, paid, -1)
            ps[t, PF.MT_EXTRA_MEALS] += 1
            devotion_nb(pub, hid, ru, t, paid, printed, disc)
            return
    under_nb(pub, hid, Deck.MEAL, c)
    log_nb(hid, Ev.UNDER, -1, Deck.MEAL, c, -1, -1)


@njit(cache=True)
def mutsumi_first_nb(pub, ru, hid, t):
    """Mutsumi may leave an Inn first (every Inn but the last), whatever the arrival order: asked once,
    when the whole group is at the Inn and someone else would leave first (MT-Mutsumi)."""
    ps = pub["ps"]
    s = ps[t, PF.POS]
    nt = pub["gs"][G.N_TRAV]
    if ru["board"][0, s] != Space.INN or s == pub["gs"][G.LAST] or pub["occ"][s] != nt:
        return t
    for u in range(pub["gs"][G.N_PLAYERS]):
        if u != t and ps[u, PF.ABILITY] == Ability.MUTSUMI:
            b = choose_mt_option_nb(pub, ru, u, 1.0, Opt.MUTSUMI, -1)
            log_nb(hid, Ev.OPTION, u, Opt.MUTSUMI, b, -1, -1)
            if b == 1:
                return u
    return t


@njit(cache=True)
def musubi_arrival_nb(pub, hid, t, s):
    """MT-Musubi: a coin from the neighbour before him when he arrives, from the one after when it arrives;
    the bank pays for a missing or coinless neighbour."""
    ps = pub["ps"]
    prev = _before_nb(pub, t, s)
    mine = ps[t, PF.NEUTRAL] == 0 and ps[t, PF.ABILITY] == Ability.MUSUBI
    if mine:
        _coin_nb(pub, hid, t, 1, _payer_nb(pub, prev, 1), Ability.MUSUBI)
        ps[t, PF.MT_ROBBED] += 1
    elif prev >= 0 and ps[prev, PF.NEUTRAL] == 0 and ps[prev, PF.ABILITY] == Ability.MUSUBI:
        _coin_nb(pub, hid, prev, 1, _payer_nb(pub, t, 1), Ability.MUSUBI)
        ps[prev, PF.MT_ROBBED] += 1
    if mine and pub["occ"][s] == pub["gs"][G.N_TRAV]:  # the last to arrive: nobody after him
        _coin_nb(pub, hid, t, 1, -1, Ability.MUSUBI)
        ps[t, PF.MT_ROBBED] += 1


@njit(cache=True)
def musubi_all_arrived_nb(pub, hid, s):
    """``musubi_timing = "all_arrived"``: both neighbours' coins once everyone has arrived and eaten."""
    ps = pub["ps"]
    nt = pub["gs"][G.N_TRAV]
    for t in range(nt):
        if ps[t, PF.NEUTRAL] == 1 or ps[t, PF.ABILITY] != Ability.MUSUBI:
            continue
        prev = _before_nb(pub, t, s)
        nxt = -1
        for u in range(nt):
            if u != t and ps[u, PF.SEQ] > ps[t, PF.SEQ] and (nxt < 0 or ps[u, PF.SEQ] < ps[nxt, PF.SEQ]):
                nxt = u
        _coin_nb(pub, hid, t, 1, _payer_nb(pub, prev, 1), Ability.MUSUBI)
        _coin_nb(pub, hid, t, 1, _payer_nb(pub, nxt, 1), Ability.MUSUBI)
        ps[t, PF.MT_ROBBED] += 2


@njit(cache=True)
def kamui_nb(pub, ru, t, meals, coins):
    """002:L603-605: +KAMUI_POINTS at an Inn where he buys no meal (MT-Kamui: a free meal card is one too)."""
    ps = pub["ps"]
    if ps[t, PF.NEUTRAL] == 1 or ps[t, PF.ABILITY] != Ability.KAMUI:
        return
    ate = ps[t, PF.MEALS] > meals
    if not ate or (ps[t, PF.COINS] >= coins and ru["params"][P.KAMUI_FREE_CANCELS] == 0):
        add_pts_nb(pub, t, PF.PTS_OTHER, ru["params"][P.KAMUI_POINTS])


@njit(cache=True)
def suseri_nb(pub, ru):
    """MT-Suseri: a point per card type held at the end, of 12."""
    ps = pub["ps"]
    for p in range(pub["gs"][G.N_PLAYERS]):
        if ps[p, PF.ABILITY] != Ability.SUSERI:
            continue
        n = 0
        for f in (
            PF.HOT_SPRINGS,
            PF.BATHHOUSES,
            PF.SOUVENIRS,
            PF.LEGENDARY,
            PF.ENCOUNTERS,
            PF.CALLIGRAPHY,
            PF.AMULETS,
            PF.MEALS,
            PF.PAN0,
            PF.PAN1,
            PF.PAN2,
            PF.CHERRY,
        ):
            if ps[p, f] != 0:
                n += 1
        add_pts_nb(pub, p, PF.PTS_OTHER, ru["params"][P.SUSERI_POINTS] * n)


@njit(cache=True)
def rakuren_nb(pub, hid, ru, t):
    """MT-Rakuren at a Shop: -2 he keeps the usual actions; else he uses his ability and this is the random
    Legendary Object of the market it turns up (-1: none left, or ``rakuren_legendary`` off). The caller
    then draws his RAKUREN_SOUVENIRS souvenirs and calls ``rakuren_buy_nb``."""
    ps = pub["ps"]
    if ps[t, PF.NEUTRAL] == 1 or ps[t, PF.ABILITY] != Ability.RAKUREN:
        return -2
    # greedy: his draw is the Shop's draw and one more souvenir, plus a Legendary Object he may buy;
    # all he gives up is the choice of which Legendary (the Crossroads alternative)
    b = choose_mt_option_nb(pub, ru, t, 1.0, Opt.RAKUREN, -1)
    log_nb(hid, Ev.OPTION, t, Opt.RAKUREN, b, -1, -1)
    if b == 0:
        return -2
    n = 0
    for c in range(MARKET_CAP):
        n += pub["mkt"][0, c]
    if n == 0 or ru["params"][P.RAKUREN_LEGENDARY] == 0:
        return -1
    j = randint_nb(pub["rng"], n)
    for c in range(MARKET_CAP):
        if pub["mkt"][0, c] == 1:
            if j == 0:
                log_nb(hid, Ev.MT_LEGEND, t, c, -1, -1, -1)
                return c
            j -= 1
    return -1


@njit(cache=True)
def rakuren_buy_nb(pub, hid, ru, t, c):
    """After his souvenirs: the Legendary Object ``c`` at its price, or it stays in the market."""
    if c < 0:
        return
    cost = legendary_price_nb(pub, ru, t, c)
    if cost > pub["ps"][t, PF.COINS]:
        return
    value = legendary_value_nb(pub, ru, t, c) - ru["botw"][t][W.COIN] * cost
    b = choose_mt_option_nb(pub, ru, t, value, Opt.RAKUREN_BUY, c)
    log_nb(hid, Ev.OPTION, t, Opt.RAKUREN_BUY, b, -1, -1)
    if b == 1:
        gain_legendary_nb(pub, hid, ru, t, c)
