"""Bot decisions for the Crossroads expansion (the hooks are ``kernels.tokaido.bots.policy``'s, which pass
``pol``).

Every function takes ``pub`` and ``ru`` only: markets are face up, Amulets and
Calligraphy in hand are the player's own. ``Policy.RANDOM`` chooses uniformly
among the legal choices; ``Policy.EXPERT`` uses the expert's own values
(``kernels.tokaido.bots.expert``); every other policy uses the greedy values below (points
now plus ``w[COIN]`` per coin, end-game cards valued from the position so far).
"""

from numba import njit

from kernels.core.rng import randint_nb
from kernels.tokaido.bots import expert
from kernels.tokaido.bots.context import context_nb
from kernels.tokaido.bots.heuristic import base_values_nb
from kernels.tokaido.bots.scratch import B_TYPE
from kernels.tokaido.bots.tier import policy_nb
from kernels.tokaido.core.enums import PF, Ability, Amulet, Calli, Legend, P, Policy, Space
from kernels.tokaido.core.prices import amulet_price_nb, felicia_may_duel_nb, legendary_price_nb
from kernels.tokaido.core.score import souvenir_gain_pts_nb
from kernels.tokaido.core.weights import W


@njit(cache=True)
def mean_die_nb(ru):
    s = 0.0
    for i in range(6):
        s += ru["params"][P.DIE0 + i]
    return s / 6.0


@njit(cache=True)
def legendary_value_nb(pub, ru, t, c):
    """Greedy points of Legendary Object ``c`` for ``t`` (before its price)."""
    ps = pub["ps"]
    kind = ru["xcard"][0, 0, c]
    if kind == Legend.SCRIPT:
        held = ps[t, PF.SOUVENIRS] + ps[t, PF.LEGENDARY]
        return held + 1.5 * ru["params"][P.SCRIPT_BONUS]  # about 1.5 souvenirs still to come
    if kind == Legend.OFFERING:
        return float(souvenir_gain_pts_nb(pub, ru, t, ru["params"][P.N_FAMILIES] - 1))
    return float(ru["params"][P.SWORD_POINTS])


@njit(cache=True)
def calligraphy_value_nb(pub, ru, t, c):
    """Greedy estimate of Calligraphy card ``c``'s end-game points for ``t``."""
    ps = pub["ps"]
    params = ru["params"]
    kind = ru["xcard"][2, 0, c]
    if kind == Calli.FORESIGHT:
        return params[P.FORESIGHT] * 0.5 * ps[t, PF.COINS]
    if kind == Calli.CONTEMPLATION:
        done = 0
        for k in range(3):
            if ps[t, PF.PAN0 + k] >= params[P.PAN_LEN0 + k]:
                done += 1
        return params[P.CONTEMPLATION_PAN] * (done + 0.5) + params[P.CONTEMPLATION_CHERRY] * ps[t, PF.CHERRY]
    if kind == Calli.NOSTALGIA:
        return params[P.NOSTALGIA_LEGEND] * ps[t, PF.LEGENDARY] + params[P.NOSTALGIA_SOUVENIR] * (
            ps[t, PF.SOUVENIRS] + 1.0
        )
    if kind == Calli.PATIENCE:
        return float(params[P.PATIENCE_OTHER]) + 1.0
    if kind == Calli.PERFECTION:
        return params[P.PERFECTION_ACH] * (ps[t, PF.ACHIEVEMENTS] + 1.0) + params[P.PERFECTION_CALLI] * (
            ps[t, PF.CALLIGRAPHY] + 1.0
        )
    # Fasting: the Inns still to come are meals that may be skipped
    return params[P.FASTING_MEAL] * 0.5 * max(0, params[P.FASTING_INNS] - ps[t, PF.INN_MEALS] - 2)


@njit(cache=True)
def amulet_value_nb(pub, ru, t, c):
    kind = ru["xcard"][1, 0, c]
    cw = ru["botw"][t][W.COIN]
    if kind == Amulet.FORTUNE:
        return mean_die_nb(ru) * cw
    if kind == Amulet.HOSPITALITY or kind == Amulet.DEVOTION:
        return 2.0
    if kind == Amulet.HEALTH:  # online it gives one option, which any stop gives: worth nothing
        return 0.0 if ru["params"][P.HEALTH_ONE] == 1 else 2.5
    return 1.5  # Vitality, Friendship


@njit(cache=True)
def _best_nb(pub, ru, t, m, kind, pol):
    """Best available card of market ``m`` for ``t``: (card, value); kind 0/1/2 picks the valuation."""
    mkt = pub["mkt"]
    coins = pub["ps"][t, PF.COINS]
    w = ru["botw"][t]
    cw = w[W.COIN]
    random = pol == Policy.RANDOM
    if pol == Policy.EXPERT:
        context_nb(pub, ru, t, w, True)
        return expert.market_best_nb(pub, ru, t, w, m)
    best, bv, n = -1, -1e9, 0
    stretch = (
        random and m == 0 and felicia_may_duel_nb(pub, ru, t)
    )  # the random Felicia may duel for any (P6)
    for c in range(mkt.shape[1]):
        if mkt[m, c] == 0:
            continue
        cost = legendary_price_nb(pub, ru, t, c) if m == 0 else 0
        if cost > coins and not stretch:
            continue
        n += 1
        if random:
            if randint_nb(pub["rng"], n) == 0:
                best, bv = c, 0.0
            continue
        if kind == 0:
            v = legendary_value_nb(pub, ru, t, c) - cw * cost
        elif kind == 1:
            v = amulet_value_nb(pub, ru, t, c)
        else:
            v = calligraphy_value_nb(pub, ru, t, c)
        if v > bv:
            best, bv = c, v
    return best, bv


@njit(cache=True)
def legendary_choice_nb(pub, ru, t, pol):
    """An affordable available Legendary Object (-1 if none)."""
    return _best_nb(pub, ru, t, 0, 0, pol)[0]


@njit(cache=True)
def amulet_choice_nb(pub, ru, t, pol):
    return _best_nb(pub, ru, t, 1, 1, pol)[0]


@njit(cache=True)
def calligraphy_choice_nb(pub, ru, t, pol):
    return _best_nb(pub, ru, t, 2, 2, pol)[0]


@njit(cache=True)
def alt_value_nb(pub, ru, t, typ):
    """Greedy value of the Crossroads alternative at a station of type ``typ`` (-1e9: impossible)."""
    ps = pub["ps"]
    params = ru["params"]
    w = ru["botw"][t]
    cw = w[W.COIN]
    coins = ps[t, PF.COINS]
    xcnt = pub["xcnt"]
    if Space.PADDY <= typ <= Space.SEA:
        return params[P.CHERRY_POINTS] + params[P.CHERRY_COINS] * cw if xcnt[0] > 0 else -1e9
    if typ == Space.HOT_SPRING:
        if xcnt[1] == 0 or coins < params[P.BATH_COST]:
            return -1e9
        bonus = 1.0 if ps[t, PF.ABILITY] == Ability.MITSUKUNI else 0.0
        return params[P.BATH_POINTS] + bonus - cw * params[P.BATH_COST]
    pol = policy_nb(pub, ru, t)  # the engine asks this of every player (a Health Amulet's greedy gain)
    if typ == Space.VILLAGE:
        return _best_nb(pub, ru, t, 0, 0, pol)[1] if _best_nb(pub, ru, t, 0, 0, pol)[0] >= 0 else -1e9
    if typ == Space.FARM:
        bet = params[P.GAMING_BET]
        return (mean_die_nb(ru) - 1.0) * bet * cw if coins >= bet else -1e9
    if typ == Space.TEMPLE:
        c, v = _best_nb(pub, ru, t, 1, 1, pol)
        cost = amulet_price_nb(pub, ru, t)
        return v - cw * cost if c >= 0 and coins >= cost else -1e9
    if typ == Space.ENCOUNTER:
        c, v = _best_nb(pub, ru, t, 2, 2, pol)
        return v - cw * params[P.CALLI_COST] if c >= 0 and coins >= params[P.CALLI_COST] else -1e9
    return -1e9


@njit(cache=True)
def raise_space_values_nb(pub, ru, t, vals):
    """With Crossroads, a station is worth the better of its two options."""
    for typ in range(1, 9):
        v = alt_value_nb(pub, ru, t, typ)
        if v > vals[typ]:
            vals[typ] = v


@njit(cache=True)
def use_choice_nb(pub, ru, t, pol, value, kind, arg):
    """Use an Amulet of ``kind`` now? ``value`` is the greedy gain of using it; ``arg`` its
    argument for the expert (``expert.use_amulet_nb``)."""
    if pol == Policy.RANDOM:
        return randint_nb(pub["rng"], 2)
    if kind == Amulet.HEALTH and ru["params"][P.HEALTH_ONE] == 1:
        return 0  # online Health gives one option, the better of which is taken anyway
    w = ru["botw"][t]
    if pol == Policy.EXPERT:
        if kind == Amulet.HEALTH:  # both actions at station type ``arg``: the gain is the lesser of the two
            base_values_nb(pub, ru, t, w, True)
            gain = min(pub["bscr"][B_TYPE + arg], expert.alt_value_nb(pub, ru, t, w, arg))
            return 1 if gain > expert.keep_value_nb(w, kind) else 0
        context_nb(pub, ru, t, w, True)
        return expert.use_amulet_nb(pub, ru, t, w, kind, arg)
    return 1 if value > 0.0 else 0


@njit(cache=True)
def empty_ok_nb(ru, typ):
    """Online (``P.ALT_NOTHING``): may the alternative of a ``typ`` station be chosen to buy nothing?
    Only where it is a purchase: Bathhouse, Legendary Object, Amulet, Calligraphy (C27)."""
    market = typ == Space.HOT_SPRING or typ == Space.VILLAGE or typ == Space.TEMPLE or typ == Space.ENCOUNTER
    return ru["params"][P.ALT_NOTHING] == 1 and market


@njit(cache=True)
def station_choice_nb(pub, ru, t, pol, typ, base_ok, alt_ok, both_ok, base_value):
    """0 base action, 1 the alternative, 2 both (Kita, Miyataka: their order is ``health_order_choice_nb``'s),
    4 (online, the random bot only) the alternative buying nothing; ``base_value`` is the greedy value of the
    base.

    Both actions may be chosen while the alternative is not yet affordable: the base action may pay for it
    (a Kuge's coins), and it is judged when its turn comes (C27)."""
    if pol == Policy.RANDOM:
        n = 0
        pick = 0
        for o in range(5):
            ok = (
                base_ok
                if o == 0
                else (alt_ok if o == 1 else (both_ok if o == 2 else o == 4 and empty_ok_nb(ru, typ)))
            )
            if ok:
                n += 1
                if randint_nb(pub["rng"], n) == 0:
                    pick = o
        return pick
    w = ru["botw"][t]
    if pol == Policy.EXPERT:
        base_values_nb(pub, ru, t, w, True)
        base = pub["bscr"][B_TYPE + typ]
        o = expert.station_option_nb(pub, ru, t, w, typ, base_ok, alt_ok, both_ok, base)
        return (
            2 if both_ok and not alt_ok else o
        )  # the alternative may become affordable after the base action
    alt = alt_value_nb(pub, ru, t, typ)
    if both_ok and (alt > 0.0 or not alt_ok):
        return 2
    if alt_ok and (not base_ok or alt > base_value):
        return 1
    return 0


@njit(cache=True)
def health_order_choice_nb(pub, ru, t, pol, typ, alt_ok, base_value):
    """Both actions (the Health Amulet, Kita, Miyataka): 2 the base action first, 3 the alternative first
    (it must be possible now); ``base_value``: the greedy value of the base action.

    The base action first, since it may pay for the alternative (the Farm's coins, a Kuge's), except at a
    Temple: the Amulet first, as a donation may spend the coin it costs; when the coins allow only one of
    the two there, the more valuable one first (the expert by its own values)."""
    if not alt_ok:
        return 2
    if pol == Policy.RANDOM:
        return 2 + randint_nb(pub["rng"], 2)
    if typ != Space.TEMPLE:
        return 2
    params = ru["params"]
    if pub["ps"][t, PF.COINS] - amulet_price_nb(pub, ru, t) >= params[P.TEMPLE_MIN_COINS]:
        return 3
    w = ru["botw"][t]
    if pol == Policy.EXPERT:
        base_values_nb(pub, ru, t, w, True)
        return 3 if expert.alt_value_nb(pub, ru, t, w, typ) > pub["bscr"][B_TYPE + typ] else 2
    return 3 if alt_value_nb(pub, ru, t, typ) > base_value else 2


@njit(cache=True)
def second_choice_nb(pub, ru, t, pol, typ, alt):
    """Take the second of two actions now that it is possible (1) or decline it (0, C42)? ``alt``: the
    second is the station's alternative (else its base action). The greedy player takes the base action
    it stopped for and the alternative when it is worth something; the expert either by its own values."""
    if pol == Policy.RANDOM:
        return randint_nb(pub["rng"], 2)
    if pol == Policy.EXPERT:
        w = ru["botw"][t]
        base_values_nb(pub, ru, t, w, True)
        v = expert.alt_value_nb(pub, ru, t, w, typ) if alt else pub["bscr"][B_TYPE + typ]
        return 1 if v > 0.0 or (not alt and v == 0.0) else 0
    if alt:
        return 1 if alt_value_nb(pub, ru, t, typ) > 0.0 else 0
    return 1
