"""The expected value of a Village stop for the heuristic tiers (heuristic, tuned, expert, search).

The best single purchase among the ``P.VILLAGE_DRAW`` cards drawn from the souvenirs left: the exact
expectation of the maximum of the draws without replacement (``features.expected_max_nb``). A card's
value depends only on its (family, printed cost), so the souvenirs left are kept as counts per pair
(``souvenir_counts_nb``, recomputed when a souvenir leaves the pile), each pair present is valued once,
and the sorted values are summed as ``expected_max_nb`` sums them, with its ways and totals from the
game's tables (``features.game_tables_nb``): the same float, at a fraction of the cost.
"""

from numba import njit

from kernels.tokaido.bots.context import coin_value_nb
from kernels.tokaido.bots.features import expected_max_nb
from kernels.tokaido.bots.scratch import (
    B_FAM,
    B_GAME,
    B_PILE,
    B_SORT,
    B_VKEY,
    G_INIT,
    G_R,
    G_TOTAL,
    G_WAYS,
    K_KEYS,
    pool_nb,
    souvenir_counts_nb,
)
from kernels.tokaido.core.enums import PF, Ability, Deck, P
from kernels.tokaido.core.present import SOUVENIR_PRICES, holds_nb
from kernels.tokaido.core.prices import family_price_nb
from kernels.tokaido.core.weights import HF, W


@njit(cache=True, inline="always")
def village_value_nb(pub, ru, t, w):
    """Expected value of a Village stop: the best single purchase among the 3 cards drawn.

    Each (family, printed cost) pair of the souvenirs left is valued once (``bscr[B_SORT:B_SORT+16]``)
    and the exact expectation sums the sorted values as ``expected_max_nb`` would (zeros add nothing).
    """
    if pub["dcnt"][Deck.SOUVENIR] == 0:
        return 0.0
    ps = pub["ps"]
    b = pub["bscr"]
    coins = ps[t, PF.COINS]
    ab = ps[t, PF.ABILITY]
    ok, n = souvenir_counts_nb(pub, ru)
    if not ok:
        return _village_value_cards_nb(pub, ru, t, w, pool_nb(pub, ru, Deck.SOUVENIR))
    priced = holds_nb(pub, SOUVENIR_PRICES)  # Ayumu's or Titia's prices: by family too
    zen = ab == Ability.ZEN_EMON
    seen = 0
    paid = 0  # bit p: the value of paying p coins is in bscr[B_SORT + 16 + p] (one per price, not per key)
    for key in range(16):
        if b[B_PILE + K_KEYS + key] > 0.0:
            seen |= 1 << key
            fam, price = key >> 2, key & 3
            if priced:
                price = family_price_nb(pub, ru, t, fam, price)
            if zen:
                price = min(price, ru["params"][P.ZEN_EMON_PRICE])
            if price > coins:
                b[B_SORT + key] = 0.0
                continue
            if price > 3:
                b[B_SORT + key] = _key_value_nb(pub, ru, t, w, fam, key & 3)
                continue
            if (paid >> price) & 1 == 0:
                b[B_SORT + 16 + price] = coin_value_nb(pub, t, w, -price)
                paid |= 1 << price
            b[B_SORT + key] = max(0.0, b[B_FAM + fam] + b[B_SORT + 16 + price])
    e = _expected_max_counts_nb(b, seen, n, ru["params"][P.VILLAGE_DRAW])
    if ab == Ability.SASAYAKKO and coins >= 2:
        e += w[W.HF0 + HF.ABILITY]
    return e


@njit(cache=True, inline="always")
def _key_value_nb(pub, ru, t, w, fam, cost):
    """``_card_value_nb`` of a souvenir of family ``fam`` and printed cost ``cost`` (its value depends on
    nothing else)."""
    price = family_price_nb(pub, ru, t, fam, cost)
    if pub["ps"][t, PF.ABILITY] == Ability.ZEN_EMON:
        price = min(price, ru["params"][P.ZEN_EMON_PRICE])
    if price > pub["ps"][t, PF.COINS]:
        return 0.0
    return max(0.0, pub["bscr"][B_FAM + fam] + coin_value_nb(pub, t, w, -price))


@njit(cache=True)
def _card_value_nb(pub, ru, t, w, c):
    """What buying souvenir ``c`` is worth to ``t`` now (0 if unaffordable or not worth its price)."""
    card = ru["card"]
    return _key_value_nb(pub, ru, t, w, card[Deck.SOUVENIR, 0, c], card[Deck.SOUVENIR, 1, c])


@njit(cache=True)
def _expected_max_counts_nb(b, seen, n, r):
    """``expected_max_nb`` of ``n`` values given as distinct values ``b[B_SORT+k]`` x counts
    ``b[B_PILE+K_KEYS+k]`` (keys ``k`` in ``seen``): the same sorted sequence and the same sum, so the
    same float. Its ways and totals come from the game's tables when ``r`` draws fit in ``n``."""
    if min(r, n) <= 0:
        return 0.0
    # the positive values' keys in ascending order of value (insertion sort into bscr[B_VKEY:]);
    # zeros sort first and add nothing
    m = 0
    pos_n = 0
    for k in range(16):
        if (seen >> k) & 1 == 0 or b[B_SORT + k] <= 0.0:
            continue
        pos_n += int(b[B_PILE + K_KEYS + k])
        v = b[B_SORT + k]
        j = m
        while j > 0 and b[B_SORT + int(b[B_VKEY + j - 1])] > v:
            b[B_VKEY + j] = b[B_VKEY + j - 1]
            j -= 1
        b[B_VKEY + j] = k
        m += 1
    tabled = b[B_GAME + G_INIT] == 1.0 and b[B_GAME + G_R] == r and r <= n <= 32
    r = min(r, n)
    total = 1.0
    if tabled:
        total = b[B_GAME + G_TOTAL + n]
    else:
        for k in range(r):
            total = total * (n - k) / (k + 1)
    e = 0.0
    i = n - pos_n
    for q in range(m):
        k = int(b[B_VKEY + q])
        v = b[B_SORT + k]
        for _ in range(int(b[B_PILE + K_KEYS + k])):
            if i >= r - 1:
                if tabled:
                    ways = b[B_GAME + G_WAYS + i]
                else:
                    ways = 1.0
                    for x in range(r - 1):
                        ways = ways * (i - x) / (x + 1)
                e += v * ways / total
            i += 1
    return e


@njit(cache=True)
def _village_value_cards_nb(pub, ru, t, w, pool):
    """``village_value_nb`` card by card (rules with more than 4 families or costs above 3)."""
    ps = pub["ps"]
    b = pub["bscr"]
    coins = ps[t, PF.COINS]
    ab = ps[t, PF.ABILITY]
    n = 0
    for c in range(ru["dsize"][Deck.SOUVENIR]):
        if (pool >> c) & 1 == 0:
            continue
        b[B_SORT + n] = _card_value_nb(pub, ru, t, w, c)
        n += 1
    e = expected_max_nb(b[B_SORT : B_SORT + 32], n, ru["params"][P.VILLAGE_DRAW])
    if ab == Ability.SASAYAKKO and coins >= 2:
        e += w[W.HF0 + HF.ABILITY]
    return e
