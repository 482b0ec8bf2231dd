"""The promo Travelers' rules that act during a game (seed 002 "Promo Travelers", L501-568).

Antoine's ties and Naiade's reverse panoramas are scoring rules (``kernels.tokaido.core.score``:
``antoine_nb``, ``pan_card_pts_nb``); here are the hooks the stations call:

* Eriku looks at the top meal card before his first move and at every later Inn, and may buy
  it instead of one from the hand; a card he leaves goes under the pile (P3, P4).
* Felicia challenges the closest traveler before paying for a card with a cost: one
  rock-paper-scissors round per coin, each won round a coin off (P5-P8); also for a card she
  cannot pay in full, which she buys if the rounds won make it affordable (P6).

Matsuri hooks: o-Fune and Yama no Ko give panorama cards through
``take_panorama_nb`` (Naiade's order comes with it); Tanabata's, Shishimai's and o-Fune's ties
call ``antoine_nb`` the way ``end_achievements_nb`` does; Cho-yo's discount comes before
``felicia_price_nb`` (P8).
"""

from numba import njit

from kernels.core.log import log_nb
from kernels.core.rng import randint_nb
from kernels.tokaido.bots.policy import choose_felicia_try_nb, choose_meal_nb, choose_option_nb
from kernels.tokaido.core.enums import HAND_CAP, PF, Ability, Deck, Ev, G, Opt, P
from kernels.tokaido.core.piles import draw_nb, under_nb
from kernels.tokaido.core.present import FELICIA, holds_nb
from kernels.tokaido.core.score import gain_meal_nb, meal_price_nb

PPM = 1_000_000  # Felicia's win probability is held in millionths (P.FELICIA_WIN_PPM)


@njit(cache=True)
def setup_antoine_nb(pub, ru):
    """``G.ANTOINE``: Antoine's row + 1 when his ties are on (abilities.antoine_ties = "wins")."""
    gs = pub["gs"]
    gs[G.ANTOINE] = 0
    if ru["params"][P.ANTOINE_TIES] == 1:
        for t in range(gs[G.N_PLAYERS]):
            if pub["ps"][t, PF.ABILITY] == Ability.ANTOINE:
                gs[G.ANTOINE] = t + 1


@njit(cache=True)
def hand_drop_nb(pub, hid, c, i):
    """Card ``c`` leaves the Inn's hand for the bottom of the meal pile; returns where the chosen
    hand slot ``i`` is now (the last slot moves into the freed one)."""
    hand = pub["hand"]
    gs = pub["gs"]
    j = 0
    while hand[j] != c:
        j += 1
    n = gs[G.HAND_N] - 1
    hand[j] = hand[n]
    gs[G.HAND_N] = n
    if i == n:
        i = j
    under_nb(pub, hid, Deck.MEAL, c)
    log_nb(hid, Ev.UNDER, -1, Deck.MEAL, c, -1, -1)
    return i


@njit(cache=True)
def eriku_look_nb(pub, hid, t, when):
    """Eriku draws the top meal card and looks at it; it lies next to the hand while he chooses.

    Returns the card, or -1 with an empty pile. ``when``: 0 before his first move, 1 at an Inn."""
    gs = pub["gs"]
    hn = gs[G.HAND_N]
    if pub["dcnt"][Deck.MEAL] == 0 or hn >= HAND_CAP:
        return -1
    c = draw_nb(pub, hid, Deck.MEAL)
    log_nb(hid, Ev.DRAW, t, Deck.MEAL, c, -1, -1)
    log_nb(hid, Ev.LOOK, t, c, when, -1, -1)
    pub["hand"][hn] = c
    gs[G.HAND_N] = hn + 1
    return c


@njit(cache=True)
def eriku_start_nb(pub, hid, ru):
    """Before the first move (P3): Eriku may buy the top meal card at its price, or it goes under.

    It is a meal like any other (6 points, Gourmet, never a dish twice) and one of his Inn meals
    for Fasting; it comes before the Crossroads start Amulet, so no Amulet acts on it."""
    ps = pub["ps"]
    for t in range(pub["gs"][G.N_PLAYERS]):
        if ps[t, PF.ABILITY] != Ability.ERIKU:
            continue
        c = eriku_look_nb(pub, hid, t, 0)
        if c < 0:
            return
        i, _free = choose_meal_nb(pub, ru, t, -1, ps[t, PF.COINS])
        if i < 0:
            hand_drop_nb(pub, hid, c, 0)
        else:
            paid = meal_price_nb(pub, ru, t, c)
            gain_meal_nb(pub, ru, t, c, paid)
            log_nb(hid, Ev.GAIN, t, Deck.MEAL, c, paid, -1)
            ps[t, PF.INN_MEALS] += 1
            ps[t, PF.ERIKU_TOP] += 1
            pub["gs"][G.HAND_N] = 0


@njit(cache=True)
def _before_nb(ps, u, v):
    """True if ``u`` is behind ``v`` on the road: a lower space, or on the same space the later arrival."""
    return ps[u, PF.POS] < ps[v, PF.POS] or (ps[u, PF.POS] == ps[v, PF.POS] and ps[u, PF.SEQ] > ps[v, PF.SEQ])


@njit(cache=True)
def closest_nb(pub, t):
    """Felicia's opponent (P7): of her two neighbours in the order of the road (on one space the
    earlier arrival is ahead), the nearer by board distance; at equal distance the one ahead. At an
    Inn that is who arrived just before her; if she arrived first, the nearest one still on the road."""
    ps = pub["ps"]
    ahead, behind = -1, -1
    for u in range(pub["gs"][G.N_TRAV]):
        if u == t:
            continue
        if _before_nb(ps, t, u):
            if ahead < 0 or _before_nb(ps, u, ahead):
                ahead = u
        elif behind < 0 or _before_nb(ps, behind, u):
            behind = u
    if ahead < 0:
        return behind
    if behind < 0:
        return ahead
    da = ps[ahead, PF.POS] - ps[t, PF.POS]
    db = ps[t, PF.POS] - ps[behind, PF.POS]
    return ahead if da <= db else behind


@njit(cache=True, inline="always")
def felicia_price_nb(pub, hid, ru, t, deck, card, cost):
    """The price ``t`` pays for a card of ``cost`` coins: Felicia may first duel the closest
    traveler, one round per coin, each won round a coin off (chance: P.FELICIA_WIN_PPM).

    Inlined where a card is paid for, so a game without Felicia pays one test, not a call."""
    if not holds_nb(pub, FELICIA) or pub["ps"][t, PF.ABILITY] != Ability.FELICIA or cost <= 0:
        return cost
    return _felicia_duel_nb(pub, hid, ru, t, deck, card, cost)


@njit(cache=True)
def _felicia_duel_nb(pub, hid, ru, t, deck, card, cost):
    # a lost round costs nothing: a duel never hurts; for a card she cannot pay in full (a chosen
    # alternative, P6) it is her only way to buy it
    b = 1 if cost > pub["ps"][t, PF.COINS] else choose_option_nb(pub, ru, t, 1.0, Opt.FELICIA)
    log_nb(hid, Ev.OPTION, t, Opt.FELICIA, b, -1, -1)
    if b == 0:
        return cost
    return _duel_nb(pub, hid, ru, t, deck, card, cost)


@njit(cache=True)
def felicia_try_nb(pub, hid, ru, t, deck, card, cost, value):
    """P6: Felicia may duel for a card she cannot pay in full (seed 002 sets no such limit): the price
    she can pay after the rounds she won, or -1 (no duel, or still too dear: she does not buy it).
    ``value``: the card's greedy worth at its full price, for the bots' decision."""
    if cost <= pub["ps"][t, PF.COINS] or choose_felicia_try_nb(pub, ru, t, value) == 0:
        return -1
    log_nb(hid, Ev.OPTION, t, Opt.FELICIA, 1, -1, -1)
    price = _duel_nb(pub, hid, ru, t, deck, card, cost)
    return price if price <= pub["ps"][t, PF.COINS] else -1


@njit(cache=True)
def _duel_nb(pub, hid, ru, t, deck, card, cost):
    """The duel itself: one round per coin of ``cost``; returns the price less the rounds won."""
    ps = pub["ps"]
    log_nb(hid, Ev.DUEL, t, closest_nb(pub, t), deck, card, cost)
    wins = 0
    for r in range(cost):
        won = 1 if randint_nb(pub["rng"], PPM) < ru["params"][P.FELICIA_WIN_PPM] else 0
        log_nb(hid, Ev.RPS, t, r, won, -1, -1)
        wins += won
    ps[t, PF.DUELS] += 1
    ps[t, PF.DUEL_WINS] += wins
    return cost - wins
