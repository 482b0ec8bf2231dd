"""The deciding player's context: what every value of a decision reads, loaded once a decision.

``context_nb(pub, ru, t, w, expert)`` runs first for the deciding player ``t`` (the dispatch,
``kernels.tokaido.bots.policy``, says whether the expert's valuations apply). It loads into ``pub['bscr']``
(``kernels.tokaido.bots.scratch``): the progress along the road, the coins wanted for the meals to come, the
expert's spending cap, the value of a Hot Spring card, of one more souvenir of each family and of a
Shokunin's free souvenir, and the weights a coin value reads, so that ``coin_value_nb`` inlines into
a few multiplications wherever a price or a gain is valued. The parts that change slowly (the family
values, the mean meal price, the Shokunin mean) are kept per player with their inputs
(``scratch.B_MEMO``) and recomputed when one changed: the same floats either way.
"""

from numba import njit

from kernels.tokaido.bots.scratch import (
    B_CAP,
    B_CTX,
    B_FAM,
    B_FORE,
    B_HOT,
    B_MEMO,
    B_NEED1,
    B_NEEDALL,
    B_PROG,
    B_SHOK,
    B_WCOIN,
    B_XP,
    MEMO_N,
    begin_decision_nb,
    game_tables_nb,
    hot_left_nb,
    inns_after_nb,
    pool_nb,
)
from kernels.tokaido.core.enums import MARKET_CAP, PF, Ability, Calli, Deck, G, P
from kernels.tokaido.core.score import dish_eaten_nb, meal_price_nb, souvenir_gain_pts_nb
from kernels.tokaido.core.weights import HF, XF, W


@njit(cache=True)
def _coin_value_nb(pub, t, w, delta):
    b = pub["bscr"]
    c = pub["ps"][t, PF.COINS]
    n1, na = b[B_NEED1], b[B_NEEDALL]
    s1 = max(0.0, n1 - c) - max(0.0, n1 - (c + delta))
    sa = max(0.0, na - c) - max(0.0, na - (c + delta))
    h = W.HF0
    v = (
        w[h + HF.COINS] * delta
        + w[h + HF.COINS_LATE] * delta * b[B_PROG]
        + w[h + HF.SHORT] * s1
        + w[h + HF.SHORT_ALL] * sa
    )
    if b[B_XP] == 1.0:
        # the expert: a coin is worth what it can still buy before the end
        cap = b[B_CAP]
        after = c + delta
        use = min(after, cap) - min(c, cap)
        spare = max(0.0, after - cap) - max(0.0, c - cap)
        v += w[W.XF0 + XF.COIN_USE] * use + w[W.XF0 + XF.COIN_SPARE] * spare + b[B_FORE] * delta
    return v


@njit(cache=True, inline="always")
def coin_value_nb(pub, t, w, delta):
    """Value of ``delta`` more coins for ``t`` (``context_nb(t)`` loaded: the weights it reads are there,
    so this inlines into a few multiplications; the same expression, so the same float)."""
    b = pub["bscr"]
    if b[B_CTX] != t + 1:
        return _coin_value_nb(pub, t, w, delta)
    c = pub["ps"][t, PF.COINS]
    n1, na = b[B_NEED1], b[B_NEEDALL]
    s1 = max(0.0, n1 - c) - max(0.0, n1 - (c + delta))
    sa = max(0.0, na - c) - max(0.0, na - (c + delta))
    v = b[B_WCOIN] * delta + b[B_WCOIN + 1] * delta * b[B_PROG] + b[B_WCOIN + 2] * s1 + b[B_WCOIN + 3] * sa
    if b[B_XP] == 1.0:
        # the expert: a coin is worth what it can still buy before the end
        cap = b[B_CAP]
        after = c + delta
        use = min(after, cap) - min(c, cap)
        spare = max(0.0, after - cap) - max(0.0, c - cap)
        v += b[B_WCOIN + 4] * use + b[B_WCOIN + 5] * spare + b[B_FORE] * delta
    return v


@njit(cache=True, inline="always")
def ach_delta_nb(pub, ru, t, field, delta):
    """Change of ``t``'s end achievement points (counted by ``field``) if it grew by ``delta`` now."""
    ps = pub["ps"]
    best = 0
    for u in range(pub["gs"][G.N_PLAYERS]):
        if u != t:
            best = max(best, ps[u, field])
    m = ps[t, field]
    lo = ru["params"][P.ACH_MIN]
    pts = ru["params"][P.ACH_POINTS] + (1.0 if ps[t, PF.ABILITY] == Ability.MITSUKUNI else 0.0)
    before = pts if (m >= best and m >= lo) else 0.0
    after = pts if (m + delta >= best and m + delta >= lo) else 0.0
    return after - before


@njit(cache=True, inline="always")
def best_gain_nb(pub, ru, t, add):
    """The best points a next souvenir would score once family ``add`` (-1: none) joined."""
    ps = pub["ps"]
    nf = ru["params"][P.N_FAMILIES]
    best = 0
    for g in range(nf):
        k = ps[t, PF.FAM0 + g] + (1 if g == add else 0)
        size = 0
        for f in range(nf):
            if ps[t, PF.FAM0 + f] + (1 if f == add else 0) > k:
                size += 1
        best = max(best, ru["params"][P.SET_PTS0 + size])
    return float(best)


@njit(cache=True)
def context_nb(pub, ru, t, w, expert):
    """Load ``t``'s per-decision context into ``pub['bscr']`` (progress, meal needs, card values)."""
    ps = pub["ps"]
    b = pub["bscr"]
    card = ru["card"]
    game_tables_nb(pub, ru)
    begin_decision_nb(pub, t)
    pos = ps[t, PF.POS]
    b[B_PROG] = pos / max(1, pub["gs"][G.LAST])
    inns = inns_after_nb(pub, pos)
    mean = _meal_mean_nb(pub, ru, t)
    if ps[t, PF.ABILITY] == Ability.SATSUKI:
        mean *= 0.5
    b[B_NEED1] = mean + 0.5 if inns > 0 else 0.0
    b[B_NEEDALL] = mean * inns
    h = W.HF0
    b[B_WCOIN], b[B_WCOIN + 1] = w[h + HF.COINS], w[h + HF.COINS_LATE]
    b[B_WCOIN + 2], b[B_WCOIN + 3] = w[h + HF.SHORT], w[h + HF.SHORT_ALL]
    b[B_WCOIN + 4], b[B_WCOIN + 5] = w[W.XF0 + XF.COIN_USE], w[W.XF0 + XF.COIN_SPARE]
    b[B_XP] = 1.0 if expert else 0.0
    if expert:
        b[B_CAP] = b[B_NEEDALL] + w[W.XF0 + XF.SPEND_RATE] * (pub["gs"][G.LAST] - pos)
        fore = 0.0
        if ps[t, PF.CALLI_MASK] != 0:
            for c in range(MARKET_CAP):
                if (ps[t, PF.CALLI_MASK] >> c) & 1 and ru["xcard"][2, 0, c] == Calli.FORESIGHT:
                    fore += ru["params"][P.FORESIGHT]
        b[B_FORE] = w[W.HF0 + HF.PTS] * fore
    # Hot Spring card: mean value of those left, Bather race, Mitsukuni
    n, tot = hot_left_nb(pub, ru)
    hv = 0.0
    if n > 0:
        hv = w[h + HF.PTS] * tot / n + w[h + HF.END_ACH] * ach_delta_nb(pub, ru, t, PF.HOT_SPRINGS, 1)
        if ps[t, PF.ABILITY] == Ability.MITSUKUNI:
            hv += w[h + HF.ABILITY] * ru["params"][P.MITSUKUNI_BONUS]
    b[B_HOT] = hv
    # one more souvenir of each family; a free one from the top of the pile (Shokunin): the mean of the
    # family values over the souvenirs left, kept until a souvenir leaves the pile or the values change
    m = B_MEMO + MEMO_N * t
    gone = float(pub["gone"][Deck.SOUVENIR] | (1 << 40))
    if not family_values_nb(pub, ru, t, w, expert) or b[m + 17] != gone:
        pool = pool_nb(pub, ru, Deck.SOUVENIR)
        n, tot = 0, 0.0
        for c in range(ru["dsize"][Deck.SOUVENIR]):
            if (pool >> c) & 1:
                n += 1
                tot += b[B_FAM + card[Deck.SOUVENIR, 0, c]]
        b[m + 18] = tot / n if n > 0 else 0.0
        b[m + 17] = gone
    b[B_SHOK] = b[m + 18]


@njit(cache=True)
def _meal_mean_nb(pub, ru, t):
    """Mean price for ``t`` of the dishes it has not eaten among the meal cards not in a collection.

    It changes only at an Inn, so it is kept in ``bscr[B_MEMO:]`` with everything it reads (the gone
    meals, ``t``'s dishes and ability, Cho-yo) and recomputed when one of them changed: the same float."""
    ps = pub["ps"]
    b = pub["bscr"]
    m = B_MEMO + MEMO_N * t
    k1 = float(pub["gone"][Deck.MEAL])
    k2 = float(
        int(ps[t, PF.DISHES])
        | (int(ps[t, PF.ABILITY]) << 32)
        | (int(pub["gs"][G.M_NEXT] != 0) << 40)
        | (1 << 41)
    )
    if b[m + 10] == k1 and b[m + 11] == k2:
        return b[m + 12]
    pool = pool_nb(pub, ru, Deck.MEAL)
    n, tot = 0, 0.0
    for c in range(ru["dsize"][Deck.MEAL]):
        if (pool >> c) & 1 and not dish_eaten_nb(pub, ru, t, c):
            n += 1
            tot += meal_price_nb(pub, ru, t, c)
    mean = tot / n if n > 0 else 0.0
    b[m + 10], b[m + 11], b[m + 12] = k1, k2, mean
    return mean


@njit(cache=True, inline="always")
def family_values_nb(pub, ru, t, w, expert):
    """``bscr[B_FAM + f]``: the weighted value of one more souvenir of family ``f`` (points, set potential,
    Collector; plus the expert's Script bonus);
    True if the kept values were used.

    These change only when someone gains a souvenir, so they are kept in ``bscr[B_MEMO:]`` with all
    they read (``t``'s families, souvenirs, Scripts and ability, the most souvenirs of another player,
    the three weights) and recomputed when one of them changed; the same floats either way."""
    ps = pub["ps"]
    b = pub["bscr"]
    params = ru["params"]
    h = W.HF0
    nf = params[P.N_FAMILIES]
    m = B_MEMO + MEMO_N * t
    k1 = 0
    for f in range(nf):
        k1 |= int(ps[t, PF.FAM0 + f]) << (6 * f)
    most = 0
    for u in range(pub["gs"][G.N_PLAYERS]):
        if u != t:
            most = max(most, int(ps[u, PF.SOUVENIRS]))
    k2 = (
        int(ps[t, PF.SOUVENIRS])
        | (most << 8)
        | (int(ps[t, PF.SCRIPTS]) << 16)
        | (int(ps[t, PF.ABILITY]) << 22)
        | (int(nf) << 29)
        | (int(expert) << 33)
    )
    wp, wpot, wach = w[h + HF.PTS], w[h + HF.SET_POT], w[h + HF.END_ACH]
    if (
        b[m] == float(k1)
        and b[m + 1] == float(k2)
        and b[m + 2] == wp
        and b[m + 3] == wpot
        and b[m + 4] == wach
    ):
        for f in range(nf):
            b[B_FAM + f] = b[m + 5 + f]
        return True
    pot0 = best_gain_nb(pub, ru, t, -1)
    ach = ach_delta_nb(pub, ru, t, PF.SOUVENIRS, 1)
    for f in range(nf):  # the family-independent parts once
        pts = float(souvenir_gain_pts_nb(pub, ru, t, f))
        pot = best_gain_nb(pub, ru, t, f) - pot0
        v = wp * pts + wpot * pot + wach * ach
        if expert:  # each Script held scores a point more per later souvenir
            v += wp * params[P.SCRIPT_BONUS] * ps[t, PF.SCRIPTS]
        b[B_FAM + f] = v
        b[m + 5 + f] = v
    b[m], b[m + 1], b[m + 2], b[m + 3], b[m + 4] = float(k1), float(k2), wp, wpot, wach
    return False
