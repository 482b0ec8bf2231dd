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

from kernels.tokaido.bots.context import coin_value_nb
from kernels.tokaido.bots.scratch import B_CTX, B_DEC, B_HOT, B_SHOK, D_DON, D_DON_N, D_PAN, D_PAN_HAVE
from kernels.tokaido.core.enums import PF, Ability, Deck, Enc, G, P
from kernels.tokaido.core.score import pan_card_pts_nb, panorama_open_nb
from kernels.tokaido.core.weights import HF, XF, W

NEG = -1e18


@njit(cache=True, inline="always")
def expected_price_nb(pub, ru, t, w, price):
    """The price ``t`` expects to pay: Felicia wins a share of the rounds of her duel (one per coin,
    ``abilities.felicia_win_p``); the expert counts ``XF.FELICIA`` of that discount, the other tiers none."""
    if pub["ps"][t, PF.ABILITY] != Ability.FELICIA or price <= 0:
        return float(price)
    return price * (1.0 - w[W.XF0 + XF.FELICIA] * ru["params"][P.FELICIA_WIN_PPM] / 1e6)


@njit(cache=True, inline="always")
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
def _pan_value_nb(pub, ru, t, w, typ):
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


@njit(cache=True, inline="always")
def pan_value_nb(pub, ru, t, w, typ):
    """Weighted value of taking the next card of panorama ``typ`` (points, next card, race), kept for the
    decision when ``t``'s context is loaded (the base values, an Annaibito and Kitoushi ask for it)."""
    b = pub["bscr"]
    if b[B_CTX] != t + 1:
        return _pan_value_nb(pub, ru, t, w, typ)
    have = int(b[B_DEC + D_PAN_HAVE])
    if (have >> typ) & 1 == 0:
        b[B_DEC + D_PAN + typ] = _pan_value_nb(pub, ru, t, w, typ)
        b[B_DEC + D_PAN_HAVE] = float(have | (1 << typ))
    return b[B_DEC + D_PAN + typ]


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
def _rank_bonus_nb(pub, ru, t, x):
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
def _others_donations_nb(pub, t):
    """The distinct amounts the travelers other than ``t`` gave the Temple, into ``B_DEC + D_DON``."""
    ps = pub["ps"]
    b = pub["bscr"]
    n = 0
    for u in range(pub["gs"][G.N_TRAV]):
        du = ps[u, PF.DONATED]
        if u == t:
            continue
        seen = False
        for i in range(n):
            if b[B_DEC + D_DON + i] == du:
                seen = True
        if not seen:
            b[B_DEC + D_DON + n] = du
            n += 1
    b[B_DEC + D_DON_N] = n
    return n


@njit(cache=True, inline="always")
def rank_bonus_nb(pub, ru, t, x):
    """``t``'s Temple bonus if ``t`` had donated ``x`` and the game ended now: the distinct amounts the others
    gave that lie above ``x`` (counted once a decision when ``t``'s context is loaded)."""
    b = pub["bscr"]
    if b[B_CTX] != t + 1:
        return _rank_bonus_nb(pub, ru, t, x)
    if x <= 0:
        return 0.0
    n = int(b[B_DEC + D_DON_N])
    if n < 0:
        n = _others_donations_nb(pub, t)
    higher = 0
    for i in range(n):
        if b[B_DEC + D_DON + i] > x:
            higher += 1
    return float(ru["params"][P.RANK_PTS0 + min(higher, 3)])


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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def encounter_card_value_nb(pub, ru, t, w, c):
    """Weighted value for ``t`` of Encounter card ``c`` (context loaded)."""
    card = ru["card"]
    kind = card[Deck.ENCOUNTER, 0, c]
    if kind == Enc.ANNAIBITO:
        return annaibito_value_nb(pub, ru, t, w, card[Deck.ENCOUNTER, 1, c])
    return encounter_kind_value_nb(pub, ru, t, w, kind)


@njit(cache=True, inline="always")
def annaibito_value_nb(pub, ru, t, w, typ):
    """An Annaibito showing panorama ``typ`` (-1: any): its next card, else the best one open."""
    if typ >= 0 and panorama_open_nb(pub, ru, t, typ):
        return pan_value_nb(pub, ru, t, w, typ)
    return best_pan_nb(pub, ru, t, w)[1]


@njit(cache=True, inline="always")
def encounter_kind_value_nb(pub, ru, t, w, kind):
    """Weighted value for ``t`` of an Encounter of ``kind`` other than the Annaibito (context loaded)."""
    params = ru["params"]
    h = W.HF0
    wp = w[h + HF.PTS]
    coins = pub["ps"][t, PF.COINS]
    if kind == Enc.SHOKUNIN:
        return pub["bscr"][B_SHOK]
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
