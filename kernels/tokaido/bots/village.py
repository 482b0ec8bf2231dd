"""The expected value of a Village stop for the heuristic tiers (heuristic, tuned, expert, search).

The best single purchase among the ``P.VILLAGE_DRAW`` cards drawn from the souvenirs left: the exact
expectation of the maximum of the draws without replacement (``features.expected_max_nb``). A card's
value depends only on its (family, printed cost), so each pair is valued once and the sorted values
are summed as ``expected_max_nb`` sums them: the same float, at a fraction of the cost.
"""

from numba import njit

from kernels.tokaido.bots.features import B_FAM, B_SORT, B_VKEY, coin_value_nb, expected_max_nb, pool_nb
from kernels.tokaido.core.enums import PF, Ability, Deck, P
from kernels.tokaido.core.prices import souvenir_price_nb
from kernels.tokaido.core.weights import HF, W


@njit(cache=True)
def village_value_nb(pub, ru, t, w):
    """Expected value of a Village stop: the best single purchase among the 3 cards drawn.

    A card's value depends only on its (family, printed cost), so each pair is valued once
    (``bscr[B_SORT:B_SORT+16]``, its count of cards in the pile at ``[B_SORT+16:]``) and the
    exact expectation sums the sorted values as ``expected_max_nb`` would (zeros add nothing).
    """
    if pub["dcnt"][Deck.SOUVENIR] == 0:
        return 0.0
    ps = pub["ps"]
    card = ru["card"]
    b = pub["bscr"]
    coins = ps[t, PF.COINS]
    ab = ps[t, PF.ABILITY]
    pool = pool_nb(pub, ru, Deck.SOUVENIR)
    if ru["params"][P.N_FAMILIES] > 4:
        return _village_value_cards_nb(pub, ru, t, w, pool)
    n = 0
    seen = 0
    for c in range(ru["dsize"][Deck.SOUVENIR]):
        if (pool >> c) & 1 == 0:
            continue
        cost = card[Deck.SOUVENIR, 1, c]
        if cost < 0 or cost > 3:
            return _village_value_cards_nb(pub, ru, t, w, pool)
        key = 4 * int(card[Deck.SOUVENIR, 0, c]) + int(cost)
        if (seen >> key) & 1 == 0:
            seen |= 1 << key
            b[B_SORT + key] = _card_value_nb(pub, ru, t, w, c)
            b[B_SORT + 16 + key] = 0.0
        b[B_SORT + 16 + key] += 1.0
        n += 1
    e = _expected_max_counts_nb(b, seen, n, ru["params"][P.VILLAGE_DRAW])
    if ab == Ability.SASAYAKKO and coins >= 2:
        e += w[W.HF0 + HF.ABILITY]
    return e


@njit(cache=True)
def _card_value_nb(pub, ru, t, w, c):
    """What buying souvenir ``c`` is worth to ``t`` now (0 if unaffordable or not worth its price)."""
    price = souvenir_price_nb(pub, ru, t, c)
    if pub["ps"][t, PF.ABILITY] == Ability.ZEN_EMON:
        price = min(price, ru["params"][P.ZEN_EMON_PRICE])
    if price > pub["ps"][t, PF.COINS]:
        return 0.0
    return max(0.0, pub["bscr"][B_FAM + ru["card"][Deck.SOUVENIR, 0, c]] + coin_value_nb(pub, t, w, -price))


@njit(cache=True)
def _expected_max_counts_nb(b, seen, n, r):
    """``expected_max_nb`` of ``n`` values given as distinct values ``b[B_SORT+k]`` x counts
    ``b[B_SORT+16+k]``
    (keys ``k`` in ``seen``): the same sorted sequence and the same sum, so the same float."""
    r = min(r, n)
    if r <= 0:
        return 0.0
    # the positive values' keys in ascending order of value (insertion sort into bscr[B_VKEY:]);
    # zeros sort first and add nothing
    m = 0
    pos_n = 0
    for k in range(16):
        if (seen >> k) & 1 == 0 or b[B_SORT + k] <= 0.0:
            continue
        pos_n += int(b[B_SORT + 16 + k])
        v = b[B_SORT + k]
        j = m
        while j > 0 and b[B_SORT + int(b[B_VKEY + j - 1])] > v:
            b[B_VKEY + j] = b[B_VKEY + j - 1]
            j -= 1
        b[B_VKEY + j] = k
        m += 1
    total = 1.0
    for k in range(r):
        total = total * (n - k) / (k + 1)
    e = 0.0
    i = n - pos_n
    for q in range(m):
        k = int(b[B_VKEY + q])
        v = b[B_SORT + k]
        for _ in range(int(b[B_SORT + 16 + k])):
            if i >= r - 1:
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
