"""The Duo bots' decisions: ``random`` (uniform over legal choices) and ``greedy`` (best immediate value).

Both see only ``pub`` and ``ru``. The greedy value of a play is its change in
score, exactly where the rules make it exact (a track step, a slab, a gift),
plus weighted estimates of progress (``W``, sim/games/duo/data/bots.toml): coins
toward the next slab, wares toward sales, revealed paintings toward gifts, the
Hot Spring token and a wave tile. Mountain draws are valued by the bag's mean,
never by the stream's next numbers. The search tier (``search.py``) uses these
for its rollouts and searches the die choice.
"""

from typing import NamedTuple

from numba import njit

from kernels.core.rng import randint_nb
from kernels.duo.enums import N_COAST, N_SLABS, PF, Bot, Char, G, P, Ring
from kernels.duo.moves import paint_reveals_nb, plays_nb, ware_cap_nb


class WT(NamedTuple):
    """Indices of a bot's weights (``botw``)."""

    COIN: int = 0  # share of the next slab's value credited per coin toward it
    POT: int = 1  # per temple/garden track value gained (the product pays later)
    HS: int = 2  # holding the Hot Spring token
    WAVE: int = 3  # taking a wave tile
    WARE: int = 4  # share of a ware's best sale value credited on drawing it
    REVEAL: int = 5  # per painting revealed
    BACKLOG: int = 6  # discount of reveals per revealed-but-not-gifted tile
    GIFT: int = 7  # bonus on a gift beyond the score change
    SPEND: int = 8  # spend the Hot Spring token when the repeat is worth more than this
    ROLLOUTS: int = 9  # search: determinized rollouts per candidate die
    WIN: int = 10  # search: bonus for a rollout won


W = WT()


@njit(cache=True)
def slab_value_nb(ru, s):
    return 0.0 if s == 0 else float(ru["slabs"][s - 1])


@njit(cache=True)
def money_value_nb(ru, w, coins, slabs):
    """Score of ``slabs`` plus the weighted share of the next slab earned by ``coins``."""
    per = ru["params"][P.SLAB_COINS]
    while coins >= per and slabs < N_SLABS:
        coins -= per
        slabs += 1
    v = slab_value_nb(ru, slabs)
    if slabs < N_SLABS:
        v += w[W.COIN] * coins / per * (slab_value_nb(ru, slabs + 1) - v)
    return v + 0.001 * coins  # coins break ties (D-K18)


@njit(cache=True)
def coin_gain_nb(pub, ru, w, p, dc):
    ps = pub["ps"]
    return money_value_nb(ru, w, ps[p, PF.COINS] + dc, ps[p, PF.SLABS]) - money_value_nb(
        ru, w, ps[p, PF.COINS], ps[p, PF.SLABS]
    )


@njit(cache=True)
def ware_worth_nb(pub, ru, w, p, ware):
    """A held ware: its best boutique price, as coins toward the next slab, times ``W.WARE``."""
    best = 0
    for t in range(N_COAST):
        if pub["btq"][t, 0] == ware:
            best = max(best, int(pub["btq"][t, 1]))
    return w[W.WARE] * coin_gain_nb(pub, ru, w, p, best)


@njit(cache=True)
def pilgrim_value_nb(ru, w, t, g):
    return float(ru["tvals"][t] * ru["gvals"][g]) + w[W.POT] * (ru["tvals"][t] + ru["gvals"][g])


@njit(cache=True)
def play_value_nb(pub, ru, w, p, c, k):
    """Greedy value of play ``k`` in ``pub['cand']``."""
    row = pub["cand"][k]
    target, act = row[0], row[2]
    ps = pub["ps"]
    if act == 0 or target < 0:
        return 0.0
    if c == Char.PILGRIM:
        typ = ru["ring"][0, target]
        t, g = ps[p, PF.TEMPLE], ps[p, PF.GARDEN]
        if typ == Ring.TEMPLE:
            return pilgrim_value_nb(ru, w, t + 1, g) - pilgrim_value_nb(ru, w, t, g)
        if typ == Ring.GARDEN:
            return pilgrim_value_nb(ru, w, t, g + 1) - pilgrim_value_nb(ru, w, t, g)
        if typ == Ring.TOWN:
            return coin_gain_nb(pub, ru, w, p, ru["params"][P.TOWN_COINS])
        if typ == Ring.HOT_SPRING:
            return w[W.HS] * (2.0 if ps[1 - p, PF.HS] == 1 else 1.0)
        return w[W.WAVE] * (1.5 if pub["wown"][act - 1] == 1 - p else 1.0)
    if c == Char.MERCHANT:
        if ru["town"][0, target] == 1:
            room = max(ware_cap_nb(pub, ru, p) - ps[p, PF.NWARES], 0)
            n = min(int(ru["town"][2, target]), room)
            total = pub["bag"].sum()
            mean = 0.0
            for ware in range(ru["params"][P.N_WARE]):
                if pub["bag"][ware] > 0:
                    mean += pub["bag"][ware] * ware_worth_nb(pub, ru, w, p, ware)
            return n * mean / max(total, 1)
        ware = pub["btq"][target, 0]
        price = pub["btq"][target, 1]
        return coin_gain_nb(pub, ru, w, p, act * price) - act * ware_worth_nb(pub, ru, w, p, ware)
    if act == 1:
        n, _ = paint_reveals_nb(pub, ru, p, target)
        backlog = ps[p, PF.REVEALED] - ps[p, PF.GIFTED]
        return w[W.REVEAL] * n / (1.0 + w[W.BACKLOG] * backlog)
    g = ps[p, PF.GIFTED]
    before = 0.0 if g == 0 else float(ru["avals"][g - 1])
    return ru["avals"][g] - before + w[W.GIFT]


@njit(cache=True)
def best_play_nb(pub, ru, p, c, v):
    """(index, value) of the greedy play of character ``c`` with value ``v``; fills ``pub['cand']``."""
    w = ru["botw"][p]
    n = plays_nb(pub, ru, p, c, v)
    bk, bv = 0, -1e300
    for k in range(n):
        val = play_value_nb(pub, ru, w, p, c, k)
        pub["vals"][k] = val
        if val > bv + 1e-12:
            bk, bv = k, val
    return bk, bv


@njit(cache=True)
def choose_play_nb(pub, ru, p, c, v):
    """The play ``p`` makes with character ``c`` and value ``v`` (an index into ``pub['cand']``)."""
    if pub["ps"][p, PF.BOT] == Bot.RANDOM:
        n = plays_nb(pub, ru, p, c, v)
        return randint_nb(pub["rng"], n)
    k, _ = best_play_nb(pub, ru, p, c, v)
    return k


@njit(cache=True)
def greedy_die_nb(pub, ru, p):
    gs = pub["gs"]
    bc, bv = -1, -1e300
    for c in range(3):
        if (gs[G.USED] >> c) & 1:
            continue
        _, val = best_play_nb(pub, ru, p, c, gs[G.DIE0 + c])
        if val > bv + 1e-12:
            bc, bv = c, val
    return bc


@njit(cache=True)
def random_die_nb(pub, p):
    gs = pub["gs"]
    left = 0
    for c in range(3):
        if not (gs[G.USED] >> c) & 1:
            left += 1
    r = randint_nb(pub["rng"], left)
    for c in range(3):
        if not (gs[G.USED] >> c) & 1:
            if r == 0:
                return c
            r -= 1
    return -1


@njit(cache=True)
def choose_return_nb(pub, ru, p):
    """D8: the ware type to put back when over the cap (greedy: the least valuable)."""
    wares = pub["wares"][p]
    if pub["ps"][p, PF.BOT] == Bot.RANDOM:
        r = randint_nb(pub["rng"], wares.sum())
        wt = 0
        while r >= wares[wt]:
            r -= wares[wt]
            wt += 1
        return wt
    w = ru["botw"][p]
    bw, bv = -1, 1e300
    for ware in range(ru["params"][P.N_WARE]):
        if wares[ware] > 0:
            val = ware_worth_nb(pub, ru, w, p, ware)
            if val < bv:
                bw, bv = ware, val
    return bw


@njit(cache=True)
def spend_spring_nb(pub, ru, p, c, v):
    """Spend the Hot Spring token to repeat this pick (D-K8)? Greedy: if the repeat is worth ``W.SPEND``."""
    if pub["ps"][p, PF.BOT] == Bot.RANDOM:
        return randint_nb(pub["rng"], 2) == 1
    _, val = best_play_nb(pub, ru, p, c, v)
    return val > ru["botw"][p][W.SPEND]
