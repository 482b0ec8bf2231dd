"""What a choice is worth to the heuristic bots: features of a choice times a weight vector.

Everything here reads only what the deciding player may see: ``pub`` (positions,
coins, collections, pile sizes, ``pub['gone']``: the cards that joined a
collection) and ``ru`` (rules and weights). The cards still in a pile are
``all - gone`` (plus an Inn's unseen hand, for meals); their order is never read.

Feature ``k`` of a choice (``weights.HF``) is weighed by ``w[W.HF0 + k]``. Values are
built from per-decision context kept in ``pub['bscr']`` (layout below):
``context_nb`` must run first for the deciding player ``t``.
"""

from numba import njit

from kernels.tokaido.core.enums import MARKET_CAP, N_SPACES, PF, Ability, Calli, Deck, Enc, G, P, Space
from kernels.tokaido.core.score import (
    dish_eaten_nb,
    meal_price_nb,
    pan_card_pts_nb,
    panorama_open_nb,
    souvenir_gain_pts_nb,
)
from kernels.tokaido.core.weights import HF, XF, W

# pub['bscr'] layout
B_PROG = 0  # progress of t along the road, 0..1
B_NEED1 = 1  # coins t wants for the next meal
B_NEEDALL = 2  # coins t wants for all meals to come
B_HOT = 3  # value of a Hot Spring card (points, Bather race)
B_SHOK = 4  # value of a Shokunin's free souvenir
B_CAP = 5  # expert: coins t can still spend before the end (meals to come + XF.SPEND_RATE per space left)
B_FORE = 6  # expert: points per coin left at the end (Foresight held)
B_FAM = 8  # N_FAMILIES values: one more souvenir of each family
B_TYPE = 16  # 9 values: stopping on each space type now (w-weighted, with the type bias)
B_OPP = 32  # MAX_TRAV x 9 quick values of each space type for each other player
B_SORT = 88  # 32 floats: sort buffer
B_CAND = 120  # N_SPACES floats: the heuristic value of each candidate move
B_VKEY = 176  # 16 floats: a Village's (family, cost) keys sorted by value (heuristic.village_value_nb)
B_MEMO = 192  # MAX_TRAV x MEMO_N: each player's context parts kept while their inputs stay (context_nb)
# per player: [0:2] family key, [2:5] its weights, [5:10] B_FAM values, [10:12] meal key, [12] meal mean,
MEMO_N = 20
# [13:16] the key of its values as an opponent (kernels/tokaido/bots/opponents.py), [16] their have-mask

NEG = -1e18


@njit(cache=True)
def pool_nb(pub, ru, d):
    """Bit mask of the cards of pile ``d`` not in any collection (in the pile or an unseen hand)."""
    return ((1 << int(ru["dsize"][d])) - 1) & ~pub["gone"][d]


@njit(cache=True)
def coin_value_nb(pub, t, w, delta):
    """Value of ``delta`` more coins for ``t`` (``context_nb(t)`` loaded)."""
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
    if w[W.EXPERT] > 0.5:
        # the expert: a coin is worth what it can still buy before the end
        cap = b[B_CAP]
        after = c + delta
        use = min(after, cap) - min(c, cap)
        spare = max(0.0, after - cap) - max(0.0, c - cap)
        v += w[W.XF0 + XF.COIN_USE] * use + w[W.XF0 + XF.COIN_SPARE] * spare + b[B_FORE] * delta
    return v


@njit(cache=True)
def expected_price_nb(pub, ru, t, w, price):
    """The price ``t`` expects to pay: Felicia wins a share of the rounds of her duel (one per coin,
    ``abilities.felicia_win_p``); the expert counts ``XF.FELICIA`` of that discount, the other tiers none."""
    if pub["ps"][t, PF.ABILITY] != Ability.FELICIA or price <= 0:
        return float(price)
    return price * (1.0 - w[W.XF0 + XF.FELICIA] * ru["params"][P.FELICIA_WIN_PPM] / 1e6)


@njit(cache=True)
def pan_points_nb(pub, ru, t, typ):
    """Points of ``t``'s next card of panorama ``typ`` (with its achievement if it completes)."""
    ps = pub["ps"]
    k = ps[t, PF.PAN0 + typ] + 1
    v = float(pan_card_pts_nb(pub, ru, t, typ, k))  # Naiade: in reverse order
    if k == ru["params"][P.PAN_LEN0 + typ] and (pub["gs"][G.PAN_ACH] >> typ) & 1 == 0:
        v += ru["params"][P.PAN_ACH_POINTS]
        if ps[t, PF.ABILITY] == Ability.MITSUKUNI:
            v += 1.0
    return v


@njit(cache=True)
def pan_value_nb(pub, ru, t, w, typ):
    """Weighted value of taking the next card of panorama ``typ`` (points, next card, race)."""
    ps = pub["ps"]
    h = W.HF0
    cur = ps[t, PF.PAN0 + typ] + 1  # cards after the stop
    ln = ru["params"][P.PAN_LEN0 + typ]
    nxt = float(pan_card_pts_nb(pub, ru, t, typ, cur + 1)) if cur < ln else 0.0
    race = 0.0
    if cur < ln and (pub["gs"][G.PAN_ACH] >> typ) & 1 == 0:
        opp = 0
        for u in range(pub["gs"][G.N_PLAYERS]):
            if u != t:
                opp = max(opp, ps[u, PF.PAN0 + typ])
        if cur > opp:
            race = cur / ln
        elif cur == opp:
            race = 0.5 * cur / ln
    return (
        w[h + HF.PTS] * pan_points_nb(pub, ru, t, typ) + w[h + HF.PAN_NEXT] * nxt + w[h + HF.PAN_RACE] * race
    )


@njit(cache=True)
def best_pan_nb(pub, ru, t, w):
    """(best type, its value) among the panoramas still open to ``t``; (-1, 0) if none."""
    best, bv = -1, 0.0
    for k in range(3):
        if panorama_open_nb(pub, ru, t, k):
            v = pan_value_nb(pub, ru, t, w, k)
            if best < 0 or v > bv:
                best, bv = k, v
    return best, bv


@njit(cache=True)
def rank_bonus_nb(pub, ru, t, x):
    """``t``'s Temple bonus if ``t`` had donated ``x`` and the game ended now."""
    if x <= 0:
        return 0.0
    ps = pub["ps"]
    nt = pub["gs"][G.N_TRAV]
    higher = 0
    for u in range(nt):
        du = ps[u, PF.DONATED]
        if u == t or du <= x:
            continue
        seen = False
        for v in range(u):
            if v != t and ps[v, PF.DONATED] == du:
                seen = True
                break
        if not seen:
            higher += 1
    return float(ru["params"][P.RANK_PTS0 + min(higher, 3)])


@njit(cache=True)
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


@njit(cache=True)
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
def souvenir_value_nb(pub, ru, t, w, fam):
    """Weighted value of one more souvenir of family ``fam`` (points, set potential, Collector)."""
    h = W.HF0
    pts = float(souvenir_gain_pts_nb(pub, ru, t, fam))
    pot = best_gain_nb(pub, ru, t, fam) - best_gain_nb(pub, ru, t, -1)
    return (
        w[h + HF.PTS] * pts
        + w[h + HF.SET_POT] * pot
        + w[h + HF.END_ACH] * ach_delta_nb(pub, ru, t, PF.SOUVENIRS, 1)
    )


@njit(cache=True)
def expected_max_nb(buf, n, r):
    """Expected maximum of ``r`` values drawn without replacement from ``buf[:n]`` (sorted here)."""
    for i in range(1, n):
        x = buf[i]
        j = i - 1
        while j >= 0 and buf[j] > x:
            buf[j + 1] = buf[j]
            j -= 1
        buf[j + 1] = x
    r = min(r, n)
    if r <= 0:
        return 0.0
    total = 1.0
    for k in range(r):
        total = total * (n - k) / (k + 1)
    e = 0.0
    for i in range(r - 1, n):
        ways = 1.0
        for k in range(r - 1):
            ways = ways * (i - k) / (k + 1)
        e += buf[i] * ways / total
    return e


@njit(cache=True)
def temple_choice_nb(pub, ru, t, w):
    """(coins to give 1..3, weighted value) of a Temple stop for ``t``."""
    ps = pub["ps"]
    h = W.HF0
    coins = ps[t, PF.COINS]
    x = ps[t, PF.DONATED]
    hiro = ps[t, PF.ABILITY] == Ability.HIROTADA
    extra = ru["params"][P.HIROTADA_COIN] if hiro else 0
    base = rank_bonus_nb(pub, ru, t, x)
    best, bv = 1, NEG
    for d in range(1, min(ru["params"][P.TEMPLE_MAX], coins) + 1):
        v = (
            w[h + HF.PTS] * d
            + w[h + HF.ABILITY] * extra
            + w[h + HF.TEMPLE_RANK] * (rank_bonus_nb(pub, ru, t, x + d + extra) - base)
            + coin_value_nb(pub, t, w, -d)
        )
        if v > bv + 1e-9:
            best, bv = d, v
    return best, bv


@njit(cache=True)
def encounter_card_value_nb(pub, ru, t, w, c):
    """Weighted value for ``t`` of Encounter card ``c`` (context loaded)."""
    card = ru["card"]
    params = ru["params"]
    h = W.HF0
    kind = card[Deck.ENCOUNTER, 0, c]
    wp = w[h + HF.PTS]
    coins = pub["ps"][t, PF.COINS]
    if kind == Enc.SHOKUNIN:
        return pub["bscr"][B_SHOK]
    if kind == Enc.ANNAIBITO:
        typ = card[Deck.ENCOUNTER, 1, c]
        if panorama_open_nb(pub, ru, t, typ):
            return pan_value_nb(pub, ru, t, w, typ)
        return best_pan_nb(pub, ru, t, w)[1]
    if kind == Enc.SAMURAI:
        return wp * params[P.SAMURAI_POINTS]
    if kind == Enc.KUGE:
        return coin_value_nb(pub, t, w, params[P.KUGE_COINS])
    if kind == Enc.MIKO:
        x = pub["ps"][t, PF.DONATED]
        rank = rank_bonus_nb(pub, ru, t, x + 1) - rank_bonus_nb(pub, ru, t, x)
        return wp * params[P.MIKO_POINTS] + w[h + HF.TEMPLE_RANK] * rank
    if kind == Enc.SARU:
        return pub["bscr"][B_HOT]
    cost = params[P.ITAMAE_COST]
    gain = 0.0
    if kind == Enc.ITAMAE:
        gain = 0.7 * wp * params[P.MEAL_POINTS]
    elif kind == Enc.KITOUSHI:
        cost = params[P.KITOUSHI_COST]
        gain = best_pan_nb(pub, ru, t, w)[1]
    elif kind == Enc.TAKUHATSUSO:
        cost = params[P.TAKUHATSUSO_COST]
        gain = wp * params[P.TAKUHATSUSO_POINTS]
    if coins < cost:
        return 0.0
    return max(0.0, gain + coin_value_nb(pub, t, w, -cost))


@njit(cache=True)
def context_nb(pub, ru, t, w):
    """Load ``t``'s per-decision context into ``pub['bscr']`` (progress, meal needs, card values)."""
    ps = pub["ps"]
    b = pub["bscr"]
    card = ru["card"]
    pos = ps[t, PF.POS]
    b[B_PROG] = pos / max(1, pub["gs"][G.LAST])
    inns = 0
    for s in range(pos + 1, N_SPACES):
        if ru["board"][0, s] == Space.INN:
            inns += 1
    mean = _meal_mean_nb(pub, ru, t)
    if ps[t, PF.ABILITY] == Ability.SATSUKI:
        mean *= 0.5
    b[B_NEED1] = mean + 0.5 if inns > 0 else 0.0
    b[B_NEEDALL] = mean * inns
    expert = w[W.EXPERT] > 0.5
    if expert:
        b[B_CAP] = b[B_NEEDALL] + w[W.XF0 + XF.SPEND_RATE] * (pub["gs"][G.LAST] - pos)
        fore = 0.0
        for c in range(MARKET_CAP):
            if (ps[t, PF.CALLI_MASK] >> c) & 1 and ru["xcard"][2, 0, c] == Calli.FORESIGHT:
                fore += ru["params"][P.FORESIGHT]
        b[B_FORE] = w[W.HF0 + HF.PTS] * fore
    # Hot Spring card: mean value of those left, Bather race, Mitsukuni
    h = W.HF0
    pool = pool_nb(pub, ru, Deck.HOT_SPRING)
    n, tot = 0, 0.0
    for c in range(ru["dsize"][Deck.HOT_SPRING]):
        if (pool >> c) & 1:
            n += 1
            tot += card[Deck.HOT_SPRING, 0, c]
    hv = 0.0
    if n > 0:
        hv = w[h + HF.PTS] * tot / n + w[h + HF.END_ACH] * ach_delta_nb(pub, ru, t, PF.HOT_SPRINGS, 1)
        if ps[t, PF.ABILITY] == Ability.MITSUKUNI:
            hv += w[h + HF.ABILITY] * ru["params"][P.MITSUKUNI_BONUS]
    b[B_HOT] = hv
    # one more souvenir of each family; a free one from the top of the pile (Shokunin)
    family_values_nb(pub, ru, t, w, expert)
    pool = pool_nb(pub, ru, Deck.SOUVENIR)
    n, tot = 0, 0.0
    for c in range(ru["dsize"][Deck.SOUVENIR]):
        if (pool >> c) & 1:
            n += 1
            tot += b[B_FAM + card[Deck.SOUVENIR, 0, c]]
    b[B_SHOK] = tot / n if n > 0 else 0.0


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


@njit(cache=True)
def family_values_nb(pub, ru, t, w, expert):
    """``bscr[B_FAM + f]``: ``souvenir_value_nb(f)`` (plus the expert's Script bonus) for each family.

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
        return
    pot0 = best_gain_nb(pub, ru, t, -1)
    ach = ach_delta_nb(pub, ru, t, PF.SOUVENIRS, 1)
    for f in range(nf):  # souvenir_value_nb, its family-independent parts once
        pts = float(souvenir_gain_pts_nb(pub, ru, t, f))
        pot = best_gain_nb(pub, ru, t, f) - pot0
        v = wp * pts + wpot * pot + wach * ach
        if expert:  # each Script held scores a point more per later souvenir
            v += wp * params[P.SCRIPT_BONUS] * ps[t, PF.SCRIPTS]
        b[B_FAM + f] = v
        b[m + 5 + f] = v
    b[m], b[m + 1], b[m + 2], b[m + 3], b[m + 4] = float(k1), float(k2), wp, wpot, wach
