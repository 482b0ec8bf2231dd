"""The expert tier's valuations: Crossroads choices, Amulet uses and yes/no options by the tier's own weights.

A weight vector with ``w[W.EXPERT] == 1`` (``sim/games/tokaido/data/bots/expert*.toml``) turns these on;
the extra weights are ``w[W.XF0 + XF.*]`` (0 in every other tier's vector, so the other
tiers play exactly as before). Every value is in points, built from the same per-decision
context as the heuristic (``features.context_nb`` must have run for ``t``), and reads only
``pub`` and ``ru``: the markets are face up, a player's Amulets and Calligraphy are its own.

Coins: ``features.coin_value_nb`` adds, for the expert, the value of the coins the player
can still spend before the end (``XF.COIN_USE`` per coin below the spending cap: the meals
to come plus ``XF.SPEND_RATE`` per space still to travel) and ``XF.COIN_SPARE`` per coin above
it, so coins that will buy nothing are worth nothing (Foresight aside).
"""

from numba import njit

from kernels.tokaido.bots.abilities import ability_stop_nb
from kernels.tokaido.bots.context import ach_delta_nb, coin_value_nb
from kernels.tokaido.bots.features import best_pan_nb, rank_bonus_nb
from kernels.tokaido.bots.scratch import B_FAM, B_PROG
from kernels.tokaido.core.enums import MARKET_CAP, PF, Ability, Amulet, Calli, Legend, Opt, P, Space
from kernels.tokaido.core.prices import amulet_price_nb, legendary_price_nb
from kernels.tokaido.core.weights import HF, XF, W

X = W.XF0
IMPOSSIBLE = -1e9
# the Travelers whose ability adds to a stop's value (``abilities.ability_stop_nb``; 0 for the others)
STOP_ABILITIES = (
    (1 << Ability.GOTOZAEMON)
    | (1 << Ability.MISAKI)
    | (1 << Ability.TAKERU)
    | (1 << Ability.IYASAKA)
    | (1 << Ability.MARI)
)


@njit(cache=True)
def die_coin_value_nb(pub, ru, t, w, bet):
    """Expected value of betting ``bet`` coins on the Fortune die (the bet comes back times the face)."""
    v = 0.0
    for i in range(6):
        v += coin_value_nb(pub, t, w, bet * ru["params"][P.DIE0 + i] - bet)
    return v / 6.0


@njit(cache=True)
def calli_points_nb(pub, ru, t, c):
    """Expected end-game points of Calligraphy card ``c`` for ``t`` (a rough forecast from the road left)."""
    ps = pub["ps"]
    params = ru["params"]
    left = 1.0 - pub["bscr"][B_PROG]
    kind = ru["xcard"][2, 0, c]
    if kind == Calli.FORESIGHT:
        return params[P.FORESIGHT] * (
            0.5 + 1.5 * left
        )  # coins left at the end: few, since the rest buy points
    if kind == Calli.CONTEMPLATION:
        done = 0.0
        for k in range(3):
            ln = params[P.PAN_LEN0 + k]
            done += 1.0 if ps[t, PF.PAN0 + k] >= ln else 0.6 * left * ps[t, PF.PAN0 + k] / ln
        return params[P.CONTEMPLATION_PAN] * done + params[P.CONTEMPLATION_CHERRY] * (
            ps[t, PF.CHERRY] + 1.5 * left
        )
    if kind == Calli.NOSTALGIA:
        return params[P.NOSTALGIA_LEGEND] * ps[t, PF.LEGENDARY] + params[P.NOSTALGIA_SOUVENIR] * (
            ps[t, PF.SOUVENIRS] + 3.0 * left
        )
    if kind == Calli.PATIENCE:
        return (params[P.PATIENCE_LAST] + params[P.PATIENCE_SECOND] + 2.0 * params[P.PATIENCE_OTHER]) / 4.0
    if kind == Calli.PERFECTION:
        return params[P.PERFECTION_ACH] * (ps[t, PF.ACHIEVEMENTS] + 1.0) + params[P.PERFECTION_CALLI] * (
            ps[t, PF.CALLIGRAPHY] + 1.0
        )
    inns_left = max(0.0, params[P.FASTING_INNS] - ps[t, PF.INN_MEALS] - 4.0 * left)
    return params[P.FASTING_MEAL] * inns_left


@njit(cache=True)
def legend_value_nb(pub, ru, t, w, c):
    """Weighted value of Legendary Object ``c`` for ``t``, its price included."""
    ps = pub["ps"]
    params = ru["params"]
    kind = ru["xcard"][0, 0, c]
    wp = w[W.HF0 + HF.PTS]
    if kind == Legend.SCRIPT:
        later = w[X + XF.SCRIPT_LATER] * (1.0 - pub["bscr"][B_PROG])
        v = wp * (ps[t, PF.SOUVENIRS] + ps[t, PF.LEGENDARY] + params[P.SCRIPT_BONUS] * later)
    elif kind == Legend.OFFERING:
        v = pub["bscr"][B_FAM + params[P.N_FAMILIES] - 1]
    else:
        v = wp * params[P.SWORD_POINTS]
    v += w[W.HF0 + HF.END_ACH] * ach_delta_nb(pub, ru, t, PF.SOUVENIRS, 1)
    return v + w[X + XF.LEGEND] + coin_value_nb(pub, t, w, -ru["xcard"][0, 1, c])


@njit(cache=True)
def market_best_nb(pub, ru, t, w, m):
    """(card, weighted value) of the best affordable card of market ``m`` for ``t``; (-1, IMPOSSIBLE) if
    none."""
    mkt = pub["mkt"]
    coins = pub["ps"][t, PF.COINS]
    best, bv = -1, IMPOSSIBLE
    for c in range(MARKET_CAP):
        if mkt[m, c] == 0:
            continue
        if m == 0:
            if legendary_price_nb(pub, ru, t, c) > coins:
                continue
            v = legend_value_nb(pub, ru, t, w, c)
        elif m == 1:
            kind = ru["xcard"][1, 0, c]  # online Health gives one option, which any stop gives: worth nothing
            v = 0.0 if kind == Amulet.HEALTH and ru["params"][P.HEALTH_ONE] == 1 else w[X + XF.AMULET0 + kind]
        else:
            v = w[X + XF.CALLI] * calli_points_nb(pub, ru, t, c)
        if best < 0 or v > bv:
            best, bv = c, v
    return best, bv


@njit(cache=True)
def alt_value_nb(pub, ru, t, w, typ):
    """Weighted value of the Crossroads alternative at a station of type ``typ`` (IMPOSSIBLE if it is not)."""
    ps = pub["ps"]
    params = ru["params"]
    coins = ps[t, PF.COINS]
    wp = w[W.HF0 + HF.PTS]
    ach = w[W.HF0 + HF.END_ACH]
    if Space.PADDY <= typ <= Space.SEA:
        if pub["xcnt"][0] == 0:
            return IMPOSSIBLE
        return (
            wp * params[P.CHERRY_POINTS] + coin_value_nb(pub, t, w, params[P.CHERRY_COINS]) + w[X + XF.CHERRY]
        )
    if typ == Space.HOT_SPRING:
        if pub["xcnt"][1] == 0 or coins < params[P.BATH_COST]:
            return IMPOSSIBLE
        bonus = params[P.MITSUKUNI_BONUS] if ps[t, PF.ABILITY] == Ability.MITSUKUNI else 0
        return (
            wp * (params[P.BATH_POINTS] + bonus)
            + ach * ach_delta_nb(pub, ru, t, PF.HOT_SPRINGS, 1)
            + coin_value_nb(pub, t, w, -params[P.BATH_COST])
            + w[X + XF.BATH]
        )
    if typ == Space.FARM:
        bet = params[P.GAMING_BET]
        return die_coin_value_nb(pub, ru, t, w, bet) + w[X + XF.GAMBLE] if coins >= bet else IMPOSSIBLE
    if typ == Space.VILLAGE:
        return market_best_nb(pub, ru, t, w, 0)[1]
    if typ == Space.TEMPLE:
        c, v = market_best_nb(pub, ru, t, w, 1)
        cost = amulet_price_nb(pub, ru, t)
        return v + coin_value_nb(pub, t, w, -cost) if c >= 0 and coins >= cost else IMPOSSIBLE
    if typ == Space.ENCOUNTER:
        c, v = market_best_nb(pub, ru, t, w, 2)
        if c < 0 or coins < params[P.CALLI_COST]:
            return IMPOSSIBLE
        return (
            v
            + ach * ach_delta_nb(pub, ru, t, PF.ENCOUNTERS, 1)
            + coin_value_nb(pub, t, w, -params[P.CALLI_COST])
        )
    return IMPOSSIBLE


@njit(cache=True)
def holds_amulet_nb(pub, ru, t, kind):
    held = pub["ps"][t, PF.AMULETS]
    for c in range(MARKET_CAP):
        if (held >> c) & 1 and ru["xcard"][1, 0, c] == kind:
            return True
    return False


@njit(cache=True)
def both_allowed_nb(pub, ru, t, typ):
    """Kita (Encounter) and Miyataka (Temple) take both actions of their station."""
    ab = pub["ps"][t, PF.ABILITY]
    return (typ == Space.ENCOUNTER and ab == Ability.KITA) or (typ == Space.TEMPLE and ab == Ability.MIYATAKA)


@njit(cache=True)
def stop_values_nb(pub, ru, t, w, vals, mask=511):
    """Add the abilities and the Crossroads alternatives to the base values of each station type ``vals[1:9]``
    (those in bit ``mask``)."""
    xr = ru["params"][P.XR] == 1
    ab = pub["ps"][t, PF.ABILITY]
    stops = ((1 << ab) & STOP_ABILITIES) != 0
    if not xr and not stops:
        return  # nothing to add: the values stay the very floats
    health = xr and ru["params"][P.HEALTH_ONE] == 0 and holds_amulet_nb(pub, ru, t, Amulet.HEALTH)
    for typ in range(1, 9):
        if (mask >> typ) & 1 == 0:
            continue
        v = vals[typ] + ability_stop_nb(pub, ru, t, w, typ) if stops else vals[typ]
        if xr:
            alt = alt_value_nb(pub, ru, t, w, typ)
            if alt > IMPOSSIBLE:
                if both_allowed_nb(pub, ru, t, typ):
                    v += max(0.0, alt)
                elif health:
                    v = max(max(v, alt), v + alt - w[X + XF.AMULET0 + Amulet.HEALTH])
                else:
                    v = max(v, alt)
        vals[typ] = v


@njit(cache=True)
def station_option_nb(pub, ru, t, w, typ, base_ok, alt_ok, both_ok, base):
    """0 base action, 1 the alternative, 2 both: the best by the expert's values (``base``: the base
    action's)."""
    alt = alt_value_nb(pub, ru, t, w, typ) if alt_ok else IMPOSSIBLE
    best, bv = 0, base if base_ok else IMPOSSIBLE
    if alt_ok and alt > bv:
        best, bv = 1, alt
    if both_ok and base + max(0.0, alt) > bv:
        best = 2
    return best


@njit(cache=True)
def keep_value_nb(w, kind):
    """What keeping an Amulet of ``kind`` for later is worth (its value less the bias to use one now)."""
    return w[X + XF.AMULET0 + kind] - w[X + XF.AMULET_USE]


@njit(cache=True)
def use_amulet_nb(pub, ru, t, w, kind, arg):
    """Use an Amulet of ``kind`` now (1) or keep it (0); ``arg``: the price (Hospitality) or the coins
    paid (Devotion). Health is decided in ``kernels.tokaido.bots.crossroads.choose_use_nb``, which knows the
    base action's value."""
    keep = keep_value_nb(w, kind)
    if kind == Amulet.FORTUNE:
        gain = 0.0
        for i in range(6):
            gain += coin_value_nb(pub, t, w, ru["params"][P.DIE0 + i]) / 6.0
    elif kind == Amulet.HOSPITALITY:
        gain = coin_value_nb(pub, t, w, arg)
    elif kind == Amulet.DEVOTION:
        x = pub["ps"][t, PF.DONATED]
        rank = rank_bonus_nb(pub, ru, t, x + arg) - rank_bonus_nb(pub, ru, t, x)
        gain = w[W.HF0 + HF.PTS] * arg + w[W.HF0 + HF.TEMPLE_RANK] * rank
    else:
        gain = 1.0  # Vitality: a move while alone in the lead
    return 1 if gain > keep else 0


@njit(cache=True)
def option_nb(pub, ru, t, w, opt):
    """A yes/no option (``Opt``) by the expert's values: 1 takes it."""
    params = ru["params"]
    wp = w[W.HF0 + HF.PTS]
    if opt == Opt.HIROTADA or opt == Opt.FELICIA:
        return 1  # a coin from the bank: a free point and a step up the Temple ranking; a duel never costs
    if opt == Opt.JIROCHO:
        v = die_coin_value_nb(pub, ru, t, w, params[P.JIROCHO_BET]) + w[X + XF.GAMBLE]
    elif opt == Opt.START_AMULET:
        m = 0.0
        for k in range(6):
            m += w[X + XF.AMULET0 + k] / 6.0
        v = m + coin_value_nb(pub, t, w, -params[P.START_AMULET_COST])
    elif opt == Opt.ITAMAE:
        v = 0.7 * wp * params[P.MEAL_POINTS] + coin_value_nb(pub, t, w, -params[P.ITAMAE_COST])
    elif opt == Opt.KITOUSHI:
        v = best_pan_nb(pub, ru, t, w)[1] + coin_value_nb(pub, t, w, -params[P.KITOUSHI_COST])
    elif opt == Opt.ANNAIBITO:  # the depicted panorama is complete: another, free (rules 1.2, R37)
        v = best_pan_nb(pub, ru, t, w)[1]
    else:  # Takuhatsuso
        v = wp * params[P.TAKUHATSUSO_POINTS] + coin_value_nb(pub, t, w, -params[P.TAKUHATSUSO_COST])
    return 1 if v > 0.0 else 0
