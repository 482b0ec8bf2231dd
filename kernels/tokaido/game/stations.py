"""What happens on each space: stations and Inns (the cards drawn there: ``encounters``).

Functions take the three records of ``kernels.tokaido.core.state``: ``pub`` (public state),
``hid`` (piles and log) and ``ru`` (rules). Only these functions and
``piles`` touch ``hid``; the bots get what the rules show the player.
"""

from numba import njit

from kernels.core.log import log_nb
from kernels.core.rng import randint_nb, shuffle_nb
from kernels.tokaido.bots.crossroads import alt_value_nb
from kernels.tokaido.bots.policy import (
    choose_donation_nb,
    choose_health_order_nb,
    choose_meal_nb,
    choose_option_nb,
    choose_second_nb,
    choose_station_option_nb,
    choose_use_nb,
    choose_village_nb,
    space_values_nb,
    table_prices_nb,
    village_prices_nb,
)
from kernels.tokaido.core.enums import (
    HAND_CAP,
    PF,
    Ability,
    Amulet,
    Deck,
    DieSrc,
    Ev,
    G,
    Opt,
    P,
    PanSrc,
    Space,
)
from kernels.tokaido.core.piles import draw_nb, under_nb
from kernels.tokaido.core.present import ARRIVAL, FELICIA, IYASAKA, KAMUI, MARI, MUSUBI, WATCHERS, holds_nb
from kernels.tokaido.core.prices import Disc, ability_disc_nb
from kernels.tokaido.core.score import (
    add_pts_nb,
    dish_eaten_nb,
    gain_meal_nb,
    gain_souvenir_nb,
    meal_price_nb,
    panorama_open_nb,
    souvenir_gain_pts_nb,
)
from kernels.tokaido.core.weights import W
from kernels.tokaido.game.crossroads import (
    alternative_nb,
    alternative_possible_nb,
    devotion_nb,
    hospitality_nb,
    roll_nb,
    usable_amulet_nb,
    use_amulet_nb,
)
from kernels.tokaido.game.encounters import chosen_panorama_nb, draw_gain_nb, encounter_nb, panorama_nb
from kernels.tokaido.game.matsuri import matsuri_inn_nb, matsuri_stop_nb
from kernels.tokaido.game.matsuri_travelers import (
    arrival_nb,
    farm_bonus_nb,
    kamui_nb,
    musubi_all_arrived_nb,
    rakuren_buy_nb,
    rakuren_nb,
    temple_points_nb,
    watchers_nb,
)
from kernels.tokaido.game.promos import eriku_look_nb, felicia_price_nb, felicia_try_nb, hand_drop_nb
from kernels.tokaido.game.stops import hirotada_coin_nb, satsuki_offer_nb


@njit(cache=True)
def village_nb(pub, hid, ru, t, draw):
    """Draw ``draw`` souvenirs (3; Rakuren 4), buy any affordable subset, the rest go under the pile."""
    tbl = pub["tbl"]
    rng = pub["rng"]
    ps = pub["ps"]
    n = min(draw, pub["dcnt"][Deck.SOUVENIR])
    for i in range(n):
        tbl[i] = draw_nb(pub, hid, Deck.SOUVENIR)
        log_nb(hid, Ev.DRAW, t, Deck.SOUVENIR, tbl[i], -1, -1)
    mask, zen = choose_village_nb(pub, ru, t, n)
    prices = pub["iscr"][0:4]
    base = pub["iscr"][4:8]
    table_prices_nb(pub, ru, t, n, base)
    village_prices_nb(pub, ru, t, n, mask, zen, prices, base)
    for i in range(n):
        if (mask >> i) & 1:
            printed = ru["card"][Deck.SOUVENIR, 1, tbl[i]]
            disc = ability_disc_nb(pub, t, base[i], printed)  # Titia's Art, Ayumu's Small objects
            if prices[i] < base[i]:
                disc |= 1 << (Disc.ZEN_EMON if i == zen else Disc.SASAYAKKO)
            paid = felicia_price_nb(pub, hid, ru, t, Deck.SOUVENIR, tbl[i], prices[i])
            _buy_souvenir_nb(
                pub, hid, ru, t, tbl[i], paid, disc | (1 << Disc.FELICIA if paid < prices[i] else 0)
            )
    k = 0
    felicia = holds_nb(pub, FELICIA) and ps[t, PF.ABILITY] == Ability.FELICIA
    for i in range(n):
        if (mask >> i) & 1:
            continue
        if felicia:  # a card she cannot pay in full (P6)
            c = tbl[i]
            value = (
                souvenir_gain_pts_nb(pub, ru, t, ru["card"][Deck.SOUVENIR, 0, c])
                - ru["botw"][t][W.COIN] * base[i]
            )
            paid = felicia_try_nb(pub, hid, ru, t, Deck.SOUVENIR, c, base[i], value)
            if paid >= 0:
                _buy_souvenir_nb(pub, hid, ru, t, c, paid, 1 << Disc.FELICIA)
                continue
        tbl[k] = tbl[i]
        k += 1
    shuffle_nb(tbl, k, rng)
    for i in range(k):
        under_nb(pub, hid, Deck.SOUVENIR, tbl[i])
        log_nb(hid, Ev.UNDER, -1, Deck.SOUVENIR, tbl[i], -1, -1)


@njit(cache=True, inline="always")
def _buy_souvenir_nb(pub, hid, ru, t, c, paid, disc):
    pub["ps"][t, PF.COINS] -= paid
    gain_souvenir_nb(pub, ru, t, c)
    log_nb(hid, Ev.GAIN, t, Deck.SOUVENIR, c, paid, -1)
    devotion_nb(pub, hid, ru, t, paid, ru["card"][Deck.SOUVENIR, 1, c], disc)


@njit(cache=True)
def temple_nb(pub, hid, ru, t):
    ps = pub["ps"]
    params = ru["params"]
    if ps[t, PF.NEUTRAL] == 1:
        ps[t, PF.DONATED] += params[P.NEUTRAL_BANK_COIN]
        log_nb(hid, Ev.DONATE, t, 0, params[P.NEUTRAL_BANK_COIN], -1, -1)
        return
    # a donation needs a coin: only after an Amulet bought first (Health) can the purse be empty here
    d = choose_donation_nb(pub, ru, t) if ps[t, PF.COINS] > 0 else 0
    ps[t, PF.COINS] -= d
    ps[t, PF.DONATED] += d
    add_pts_nb(pub, t, PF.PTS_TEMPLE, temple_points_nb(pub, ru, t, d) if holds_nb(pub, MARI) else d)
    if d > 0 or ps[t, PF.ABILITY] == Ability.HIROTADA:
        hirotada_coin_nb(pub, hid, ru, t, d)


@njit(cache=True)
def base_action_nb(pub, hid, ru, t, typ):
    """The base game's action of a station."""
    if typ == Space.VILLAGE:
        village_nb(pub, hid, ru, t, ru["params"][P.VILLAGE_DRAW])
    elif typ == Space.FARM:
        pub["ps"][t, PF.COINS] += ru["params"][P.FARM_COINS]
        if holds_nb(pub, IYASAKA):
            farm_bonus_nb(pub, ru, t)
    elif typ == Space.HOT_SPRING:
        draw_gain_nb(pub, hid, ru, t, Deck.HOT_SPRING)
    elif typ == Space.TEMPLE:
        temple_nb(pub, hid, ru, t)
    elif typ == Space.ENCOUNTER:
        encounter_nb(pub, hid, ru, t, True, True)
    elif panorama_open_nb(pub, ru, t, typ - Space.PADDY):  # Matsuri's Yama no Ko may have completed it
        panorama_nb(pub, hid, ru, t, typ - Space.PADDY, PanSrc.STATION)


@njit(cache=True)
def station_nb(pub, hid, ru, t, typ):
    """A player's stop on a station (not an Inn); with Crossroads, its option first.

    A base game's stop and a Crossroads stop are two functions, each as small as its game needs;
    the Matsuri part is called only in a leg with Matsuri cards (or for Rakuren)."""
    if ru["params"][P.XR] == 0:
        _base_stop_nb(pub, hid, ru, t, typ)
    else:
        _crossroads_stop_nb(pub, hid, ru, t, typ)


@njit(cache=True, inline="always")
def _stop_start_nb(pub, hid, ru, t, typ):
    """What every stop does before its action (the watchers, Umegae, Gotozaemon, the Matsuri leg);
    True if that was the whole stop (Rakuren's Shop)."""
    ps = pub["ps"]
    params = ru["params"]
    ab = ps[t, PF.ABILITY]
    ps[t, PF.STOPS] += 1
    if holds_nb(pub, WATCHERS):
        watchers_nb(pub, hid, ru, t, typ)  # Misaki / Takeru, on the stop before its action
    if typ == Space.ENCOUNTER and ab == Ability.UMEGAE:
        ps[t, PF.COINS] += params[P.UMEGAE_COINS]
        add_pts_nb(pub, t, PF.PTS_OTHER, params[P.UMEGAE_POINTS])
    if Space.PADDY <= typ <= Space.SEA and ab == Ability.GOTOZAEMON:
        ps[t, PF.COINS] += params[P.GOTOZAEMON_COINS]
    if pub["gs"][G.M_LEG] != 0 or (typ == Space.VILLAGE and ab == Ability.RAKUREN):
        return _matsuri_stop_nb(pub, hid, ru, t, typ)
    return False


@njit(cache=True)
def _base_stop_nb(pub, hid, ru, t, typ):
    if not _stop_start_nb(pub, hid, ru, t, typ):
        base_action_nb(pub, hid, ru, t, typ)


@njit(cache=True)
def _matsuri_stop_nb(pub, hid, ru, t, typ):
    """The leg's Matsuri cards, then Rakuren's Shop; True if that was the whole stop."""
    ps = pub["ps"]
    params = ru["params"]
    ab = ps[t, PF.ABILITY]
    if pub["gs"][G.M_LEG] != 0 and matsuri_stop_nb(pub, hid, ru, t, typ) == 1:  # Hadaka: a blind Encounter
        if ab == Ability.UMEGAE:  # "for each Encounter" (seed 002 L1027, M7), not only at an Encounter space
            ps[t, PF.COINS] += params[P.UMEGAE_COINS]
            add_pts_nb(pub, t, PF.PTS_OTHER, params[P.UMEGAE_POINTS])
        encounter_nb(pub, hid, ru, t, True, False)
    if typ == Space.VILLAGE and ab == Ability.RAKUREN:  # MT-Rakuren: his draw instead of the usual actions
        c = rakuren_nb(pub, hid, ru, t)
        if c != -2:
            village_nb(pub, hid, ru, t, params[P.RAKUREN_SOUVENIRS])
            rakuren_buy_nb(pub, hid, ru, t, c)
            return True
    return False


@njit(cache=True)
def _crossroads_stop_nb(pub, hid, ru, t, typ):
    """A station with Crossroads: its option (C27), then the chosen actions.

    Kita (Encounter), Miyataka (Temple) and the Health Amulet take both actions in either order
    (``CHOICE`` 2 base first, 3 alternative first); each action must be possible when it is taken,
    so the first may pay for the second (the Farm's coins the Gaming Room's bet, a Kuge the
    Calligraphy card), and the second may be declined (``OPTION(t, SECOND, b)``, C42)."""
    if _stop_start_nb(pub, hid, ru, t, typ):
        return
    ps = pub["ps"]
    params = ru["params"]
    ab = ps[t, PF.ABILITY]
    alt_ok = alternative_possible_nb(pub, ru, t, typ)
    # a completed panorama's space (online rule): only the Cherry Tree, so no Health there either
    base_ok = not (Space.PADDY <= typ <= Space.SEA) or panorama_open_nb(pub, ru, t, typ - Space.PADDY)
    if typ == Space.TEMPLE and ps[t, PF.COINS] < params[P.TEMPLE_MIN_COINS]:
        base_ok = False  # Mari's coinless stop (MT-Mari): only her free Amulet
    both_ok = base_ok and (
        (typ == Space.ENCOUNTER and ab == Ability.KITA) or (typ == Space.TEMPLE and ab == Ability.MIYATAKA)
    )
    vals = pub["fscr"]
    space_values_nb(pub, ru, t, ru["botw"][t], vals)
    option = 0
    health = False
    # Health: both options in the order of the player's choice (seed 002), so the alternative may
    # also become possible through the base action (the Farm's coins pay the Gaming Room's bet)
    later_ok = typ == Space.FARM and ps[t, PF.COINS] + params[P.FARM_COINS] >= params[P.GAMING_BET]
    if (alt_ok or later_ok) and not both_ok and base_ok:
        c = usable_amulet_nb(pub, ru, t, Amulet.HEALTH)
        if (
            c >= 0
            and choose_use_nb(
                pub, ru, t, alt_value_nb(pub, ru, t, typ) if alt_ok else 1.0, Amulet.HEALTH, typ
            )
            == 1
        ):
            use_amulet_nb(pub, hid, t, c, -1)
            health = True
            option = choose_health_order_nb(pub, ru, t, typ, alt_ok, vals[typ])
    if not health:
        option = choose_station_option_nb(pub, ru, t, typ, base_ok, alt_ok, both_ok, vals[typ])
        if option == 2 and alt_ok:
            option = choose_health_order_nb(pub, ru, t, typ, alt_ok, vals[typ])  # Kita's and Miyataka's order
    log_nb(hid, Ev.CHOICE, t, typ, option, -1, -1)
    one = (
        health and params[P.HEALTH_ONE] == 1
    )  # Health giving one option: 2 the base action, 3 the alternative
    if (
        option == 1 or option == 4 or (option == 3 and one)
    ):  # 4 (online): the alternative chosen, nothing bought
        if typ == Space.TEMPLE and ab == Ability.HIROTADA:
            hirotada_coin_nb(pub, hid, ru, t, 0)  # his bank coin at every Temple stop, Amulet or not
        if option != 4:
            alternative_nb(pub, hid, ru, t, typ)
    elif option == 3:  # the alternative first, then the base action if still possible
        alternative_nb(pub, hid, ru, t, typ)
        ok = typ != Space.TEMPLE or ps[t, PF.COINS] >= params[P.TEMPLE_MIN_COINS]
        if ok and _second_nb(pub, hid, ru, t, typ, False):
            base_action_nb(pub, hid, ru, t, typ)
        elif typ == Space.TEMPLE and ab == Ability.HIROTADA:
            hirotada_coin_nb(pub, hid, ru, t, 0)
    else:
        base_action_nb(pub, hid, ru, t, typ)
        if (
            option == 2
            and not one
            and alternative_possible_nb(pub, ru, t, typ)
            and _second_nb(pub, hid, ru, t, typ, True)
        ):
            alternative_nb(pub, hid, ru, t, typ)


@njit(cache=True)
def _second_nb(pub, hid, ru, t, typ, alt):
    """The second of two actions, possible now: taken, or declined when ``P.SECOND_OPTIONAL`` (C42)."""
    if ru["params"][P.SECOND_OPTIONAL] == 0:
        return True
    b = choose_second_nb(pub, ru, t, typ, alt)
    log_nb(hid, Ev.OPTION, t, Opt.SECOND, b, -1, -1)
    return b == 1


@njit(cache=True)
def _remove_from_hand_nb(pub, i):
    gs = pub["gs"]
    hand = pub["hand"]
    n = gs[G.HAND_N] - 1
    hand[i] = hand[n]
    gs[G.HAND_N] = n


@njit(cache=True)
def meal_nb(pub, hid, ru, t):
    """A player's meal: at most one, never a dish twice, optional; Satsuki's offer and Eriku's look first."""
    hand = pub["hand"]
    offered = -1
    from_pile = False
    if pub["ps"][t, PF.ABILITY] == Ability.SATSUKI:
        offered, from_pile = satsuki_offer_nb(pub, hid, ru, t)
    top = eriku_look_nb(pub, hid, t, 1) if pub["ps"][t, PF.ABILITY] == Ability.ERIKU else -1
    coins = pub["ps"][t, PF.COINS]
    hosp = usable_amulet_nb(pub, ru, t, Amulet.HOSPITALITY) if ru["params"][P.XR] == 1 else -1
    i, free = choose_meal_nb(pub, ru, t, offered, coins if hosp < 0 else 1 << 20)
    if from_pile and i >= 0 and hand[i] == offered:
        free = 1  # the pile's card is not on the Inn's menu: it is only ever taken as her free meal
    if from_pile and (i < 0 or hand[i] != offered):  # refused: under the meal pile
        i = hand_drop_nb(pub, hid, offered, i)
    if top >= 0 and (i < 0 or hand[i] != top):  # Eriku leaves the top card: under the pile
        i = hand_drop_nb(pub, hid, top, i)
    tried = -1
    if i < 0 and hosp < 0 and holds_nb(pub, FELICIA) and pub["ps"][t, PF.ABILITY] == Ability.FELICIA:
        i, tried = _felicia_meal_nb(pub, hid, ru, t, coins)  # a meal she cannot pay in full (P6)
    if i < 0:
        return
    c = hand[i]
    printed = ru["card"][Deck.MEAL, 1, c]
    price = meal_price_nb(pub, ru, t, c)
    disc = ability_disc_nb(pub, t, price, printed)  # Kinko's, Ayumu's
    if pub["gs"][G.M_NEXT] != 0 and price < printed:
        disc |= 1 << Disc.CHOYO
    if tried >= 0:
        paid = tried
        disc |= 1 << Disc.FELICIA
    else:
        paid = 0 if free == 1 else price
        if free == 1:
            disc = 1 << Disc.SATSUKI
        if paid > coins:  # only affordable thanks to Hospitality: the Amulet must be used
            use_amulet_nb(pub, hid, t, hosp, -1)
            paid = 0
            disc |= 1 << Disc.HOSPITALITY
        elif hospitality_nb(pub, hid, ru, t, paid):
            paid = 0
            disc |= 1 << Disc.HOSPITALITY
        before = paid
        paid = felicia_price_nb(pub, hid, ru, t, Deck.MEAL, c, paid)
        if paid < before:
            disc |= 1 << Disc.FELICIA
    gain_meal_nb(pub, ru, t, c, paid)
    log_nb(hid, Ev.GAIN, t, Deck.MEAL, c, paid, -1)
    _remove_from_hand_nb(pub, i)
    ps = pub["ps"]
    ps[t, PF.INN_MEALS] += 1
    if c == top:
        ps[t, PF.ERIKU_TOP] += 1
    if ps[t, PF.ABILITY] == Ability.NAMPO:
        add_pts_nb(pub, t, PF.PTS_OTHER, ru["card"][Deck.MEAL, 1, c])
    devotion_nb(pub, hid, ru, t, paid, printed, disc)


@njit(cache=True)
def _felicia_meal_nb(pub, hid, ru, t, coins):
    """Felicia with no meal she can pay in full: the best one of the hand she cannot, if she duels for it
    and wins enough rounds (P6). Returns (its hand index, the price she pays) or (-1, -1)."""
    hand = pub["hand"]
    w = ru["botw"][t]
    best, bv, price = -1, -1e9, 0
    for j in range(pub["gs"][G.HAND_N]):
        c = hand[j]
        p = meal_price_nb(pub, ru, t, c)
        if p <= coins or dish_eaten_nb(pub, ru, t, c):
            continue
        v = ru["params"][P.MEAL_POINTS] + w[W.GOURMET] * ru["card"][Deck.MEAL, 1, c] - w[W.COIN] * p
        if v > bv:
            best, bv, price = j, v, p
    if best < 0:
        return -1, -1
    paid = felicia_try_nb(pub, hid, ru, t, Deck.MEAL, hand[best], price, bv)
    return (best, paid) if paid >= 0 else (-1, -1)


@njit(cache=True)
def jirocho_nb(pub, hid, ru, t):
    """Jirocho at an intermediate Inn: may bet a coin on the Fortune die."""
    bet = ru["params"][P.JIROCHO_BET]
    if pub["ps"][t, PF.COINS] < bet:
        return
    b = choose_option_nb(pub, ru, t, 1.0, Opt.JIROCHO)
    log_nb(hid, Ev.OPTION, t, Opt.JIROCHO, b, -1, -1)
    if b == 1:
        pub["ps"][t, PF.COINS] -= bet
        roll_nb(pub, hid, ru, t, bet, DieSrc.JIROCHO)


@njit(cache=True)
def inn_nb(pub, hid, ru, t, s):
    """Arrival at the Inn on space ``s`` (never the start Inn)."""
    ps = pub["ps"]
    gs = pub["gs"]
    hand = pub["hand"]
    occ = pub["occ"]
    nt = gs[G.N_TRAV]
    neutral = ps[t, PF.NEUTRAL] == 1
    ate = False
    if not neutral and s != gs[G.LAST]:
        ab = ps[t, PF.ABILITY]
        if ab == Ability.HIROSHIGE:
            chosen_panorama_nb(pub, hid, ru, t, PanSrc.HIROSHIGE)
        elif ab == Ability.CHUUBEI:
            meals = ps[t, PF.MEALS]
            encounter_nb(pub, hid, ru, t, False, False)
            # "never more than one Meal card per Inn": Itamae's meal here is this Inn's meal (C40)
            ate = ps[t, PF.MEALS] > meals and ru["params"][P.ITAMAE_INN_MEAL] == 1
        elif ab == Ability.DAIGORO:
            draw_gain_nb(pub, hid, ru, t, Deck.SOUVENIR)
        elif ab == Ability.JIROCHO:
            jirocho_nb(pub, hid, ru, t)
    if s != gs[G.LAST] and holds_nb(pub, ARRIVAL):
        arrival_nb(pub, hid, ru, t, s)  # Matsuri Travelers: Chihaya, Yashima, Musubi, before the meal (A5)
    if occ[s] == 1:  # first to arrive: draw the meal hand
        k = nt + ru["params"][P.HAND_EXTRA] + (ru["params"][P.M_CHOYO_HAND] if gs[G.M_NEXT] != 0 else 0)
        k = min(k, pub["dcnt"][Deck.MEAL], HAND_CAP)  # config rejects more
        for i in range(k):
            hand[i] = draw_nb(pub, hid, Deck.MEAL)
            log_nb(hid, Ev.DRAW, t, Deck.MEAL, hand[i], -1, -1)
        gs[G.HAND_N] = k
    if neutral:
        hn = gs[G.HAND_N]
        if hn > 0:
            i = randint_nb(pub["rng"], hn)
            c = hand[i]
            log_nb(hid, Ev.OFFER, t, c, -1, -1, -1)
            _remove_from_hand_nb(pub, i)
            under_nb(pub, hid, Deck.MEAL, c)
            log_nb(hid, Ev.UNDER, -1, Deck.MEAL, c, -1, -1)
    elif not ate:
        meals, coins = ps[t, PF.MEALS], ps[t, PF.COINS]
        meal_nb(pub, hid, ru, t)
        if holds_nb(pub, KAMUI):
            kamui_nb(pub, ru, t, meals, coins)
    if occ[s] == nt:  # everyone is here: leftovers go under the pile
        hn = gs[G.HAND_N]
        shuffle_nb(hand, hn, pub["rng"])
        for i in range(hn):
            under_nb(pub, hid, Deck.MEAL, hand[i])
            log_nb(hid, Ev.UNDER, -1, Deck.MEAL, hand[i], -1, -1)
        gs[G.HAND_N] = 0
        # seed 002 L1264: the festival once everyone "used their abilities and bought their Meal cards"
        if s != gs[G.LAST] and ru["params"][P.MUSUBI_TIMING] == 1 and holds_nb(pub, MUSUBI):
            musubi_all_arrived_nb(pub, hid, s)
        if ru["params"][P.MATSURI] == 1:
            matsuri_inn_nb(pub, hid, ru, s)
