"""The bots' Matsuri decisions: which card to keep, o-Bon, the free extras, Gion's and o-Tsukimi's picks.

Every policy but ``Policy.RANDOM`` (uniform among the legal choices) values a choice with the same small
feature set and its own weights (``W.M_*``, ``sim/games/tokaido/data/bots.toml``, inherited by the heuristic
tiers):
a card kept is worth what it brings the chooser now minus ``W.M_OPP`` times what it brings the
average opponent. A card acting on the next leg brings each traveler the stop bonuses the move
choice counts (``kernels.tokaido.bots.matsuri_leg``, the tier's own values) at the leg's stations it acts
on, times ``W.M_LEG_SHARE`` / N; a closure costs the closed stations' value above the leg's mean. Only public
information is read: collections, coins, the Temple, the markets;
Gion's pick reads the Encounter pile because the card lets the stopper look through it.
"""

from numba import njit

from kernels.core.rng import randint_nb
from kernels.tokaido.bots.greedy import (
    encounter_value_nb,
    greedy_gion_gain_nb,
    panorama_value_nb,
    space_values_nb,
)
from kernels.tokaido.bots.heuristic import base_values_nb
from kernels.tokaido.bots.matsuri_leg import card_acts_nb, card_bonus_nb, gion_gain_nb
from kernels.tokaido.bots.scratch import B_TYPE
from kernels.tokaido.core.enums import MARKET_CAP, PF, Deck, G, P, Policy, Space
from kernels.tokaido.core.events import Matsuri, Timing
from kernels.tokaido.core.score import achievement_count_nb, calli_points_nb, souvenir_gain_pts_nb
from kernels.tokaido.core.weights import W


@njit(cache=True)
def _mean_face_nb(ru):
    m = 0.0
    for k in range(6):
        m += ru["params"][P.DIE0 + k] / 6.0
    return m


@njit(cache=True)
def donation_value_nb(ru, w, coins, d):
    """Greedy value of giving ``d`` of ``coins`` to the Temple (o-Bon): points, ranking, coins, reserve."""
    v = d * (1.0 + w[W.TEMPLE_RANK] - w[W.COIN])
    short = w[W.RESERVE] - (coins - d)
    return v - (w[W.RESERVE_PEN] * short if short > 0 else 0.0)


@njit(cache=True)
def tsukimi_value_nb(pub, ru, t, w, c):
    """Value for ``t`` of o-Tsukimi's shared Calligraphy card ``c``: own points minus the others' mean."""
    kind = ru["xcard"][2, 0, c]
    n = pub["gs"][G.N_PLAYERS]
    own = calli_points_nb(pub, ru, t, kind, True)
    opp = 0.0
    for p in range(n):
        if p != t:
            opp += calli_points_nb(pub, ru, p, kind, True) / (n - 1)
    return own - w[W.M_OPP] * opp


@njit(cache=True)
def _gain_nb(pub, ru, p, w, kind, t):
    """Points card ``kind`` brings player ``p`` now (``t`` the chooser, for the chooser-only cards)."""
    ps = pub["ps"]
    params = ru["params"]
    cw = w[W.COIN]
    if kind == Matsuri.OBON:
        best = 0.0
        for d in range(min(params[P.M_OBON_MAX], ps[p, PF.COINS]) + 1):
            best = max(best, donation_value_nb(ru, w, ps[p, PF.COINS], d))
        return best
    if kind == Matsuri.TORI_NO_ICHI:
        n = 0
        for c in range(MARKET_CAP):
            n += pub["mkt"][1, c]
        return w[W.M_AMULET] if ps[p, PF.AMULETS] == 0 and n > 0 else 0.0
    if kind == Matsuri.HINA or kind == Matsuri.TANGO:
        tr = ps[p, PF.TRAVELER]
        female = tr >= 0 and ru["trav"][tr, 2] == 1
        male = tr >= 0 and ru["trav"][tr, 2] == 0
        if (kind == Matsuri.HINA and female) or (kind == Matsuri.TANGO and male):
            return float(souvenir_gain_pts_nb(pub, ru, p, 0))
        return 0.0
    if kind == Matsuri.HANABI:
        return w[W.M_HANABI] if p == t else 0.0
    if kind == Matsuri.OFUNE:
        return panorama_value_nb(pub, ru, p, 2) if ps[p, PF.PAN2] < params[P.PAN_LEN0 + 2] else 0.0
    if kind == Matsuri.OSHOGATSU:
        return _mean_face_nb(ru) * cw
    if kind == Matsuri.SETSUBUN:
        return _mean_face_nb(ru)
    if kind == Matsuri.TANABATA:
        v = 0.0
        for k in range(4):
            best = 0
            for q in range(pub["gs"][G.N_PLAYERS]):
                best = max(best, achievement_count_nb(ps, q, k))
            if best >= params[P.ACH_MIN] and achievement_count_nb(ps, p, k) == best:
                v += params[P.M_TANABATA_POINTS]
        return v
    if kind == Matsuri.OTSUKIMI:
        return 0.0  # valued by the chooser's pick (tsukimi_value_nb)
    if kind == Matsuri.SHISHIMAI:
        d = ps[p, PF.DONATED]
        if d <= 0:
            return 0.0
        higher = 0
        for u in range(pub["gs"][G.N_TRAV]):
            du = ps[u, PF.DONATED]
            if du > d:
                seen = False
                for v in range(u):
                    if ps[v, PF.DONATED] == du:
                        seen = True
                if not seen:
                    higher += 1
        return float(params[P.M_SHISHIMAI0 + higher]) if higher < 3 else 0.0
    if kind == Matsuri.CHOYO:
        return w[W.M_CHOYO]
    if Matsuri.KAMIARISAI <= kind <= Matsuri.MURA:
        return w[W.M_CLOSE]
    return w[W.M_LEG]


@njit(cache=True)
def leg_gain_nb(pub, ru, t, p, w, c, pol):
    """What leg card ``c`` brings ``p`` over the next leg by the chooser ``t``'s values: the stop bonuses
    the move choice counts (``kernels.tokaido.bots.matsuri_leg``) at each station of the leg it acts on, or
    for a
    closure the loss of the stations it closes (their value above the leg's mean), times
    ``W.M_LEG_SHARE`` / N (the stops each traveler makes per station)."""
    share = w[W.M_LEG_SHARE]
    if share == 0.0:
        return 0.0
    kind = ru["card"][Deck.MATSURI, 0, c]
    feat = pol >= Policy.FEATURES
    vals = pub["fscr"]
    if feat:
        base_values_nb(pub, ru, p, w, pol == Policy.EXPERT)
        for k in range(9):
            vals[k] = pub["bscr"][B_TYPE + k]
    else:
        space_values_nb(pub, ru, p, w, vals)
    gion = 0.0
    if kind == Matsuri.GION:
        gion = gion_gain_nb(pub, ru, p, w) if feat else greedy_gion_gain_nb(pub, ru, p)
    board = ru["board"]
    close = Matsuri.KAMIARISAI <= kind <= Matsuri.MURA
    n, mean = 0, 0.0
    for x in range(pub["ps"][t, PF.POS] + 1, board.shape[1]):
        if board[0, x] == Space.INN:
            break
        n += 1
        mean += vals[board[0, x]]
    mean /= max(1, n)
    tot, closed = 0.0, 0
    for x in range(pub["ps"][t, PF.POS] + 1, board.shape[1]):
        typ = board[0, x]
        if typ == Space.INN:
            break
        if not card_acts_nb(ru, c, typ):
            continue
        if close:
            if closed < ru["params"][P.M_CLOSED_TOKENS]:
                tot -= max(0.0, vals[typ] - mean)
                closed += 1
        else:
            tot += card_bonus_nb(pub, ru, p, w, kind, typ, vals[Space.ENCOUNTER], gion, feat)
    return share * tot / pub["gs"][G.N_TRAV]


@njit(cache=True)
def card_value_nb(pub, ru, t, c, pol):
    """Value for chooser ``t`` of keeping Matsuri card ``c``."""
    w = ru["botw"][t]
    kind = ru["card"][Deck.MATSURI, 0, c]
    ps = pub["ps"]
    n = pub["gs"][G.N_PLAYERS]
    leg = ru["card"][Deck.MATSURI, 1, c] // 16 == Timing.LEG
    own = _gain_nb(pub, ru, t, w, kind, t) + (leg_gain_nb(pub, ru, t, t, w, c, pol) if leg else 0.0)
    opp = 0.0
    for p in range(n):
        if p != t and ps[p, PF.NEUTRAL] == 0:
            g = _gain_nb(pub, ru, p, w, kind, t) + (leg_gain_nb(pub, ru, t, p, w, c, pol) if leg else 0.0)
            opp += g / max(1, n - 1)
    v = own - w[W.M_OPP] * opp
    if kind == Matsuri.OTSUKIMI:
        best = 0.0
        for k in range(MARKET_CAP):
            if pub["mkt"][2, k] == 1:
                best = max(best, tsukimi_value_nb(pub, ru, t, w, k))
        v += best
    return v


@njit(cache=True)
def card_choice_nb(pub, ru, t, pol, c1, c2):
    """The first to arrive keeps one of two Matsuri cards: 0 keeps ``c1``, 1 keeps ``c2``."""
    if pol == Policy.RANDOM:
        return randint_nb(pub["rng"], 2)
    return 1 if card_value_nb(pub, ru, t, c2, pol) > card_value_nb(pub, ru, t, c1, pol) + 1e-9 else 0


@njit(cache=True)
def obon_choice_nb(pub, ru, t, pol, hi):
    """Coins (0..``hi``) ``t`` gives to the Temple for o-Bon."""
    if pol == Policy.RANDOM:
        return randint_nb(pub["rng"], hi + 1)
    w = ru["botw"][t]
    coins = pub["ps"][t, PF.COINS]
    best, bv = 0, 0.0
    for d in range(1, hi + 1):
        v = donation_value_nb(ru, w, coins, d)
        if v > bv + 1e-9:
            best, bv = d, v
    return best


@njit(cache=True)
def extra_choice_nb(pub, ru, t, pol, value):
    """A free optional extra (Hadaka's Encounter, Yama no Ko's section, o-Taue's coin) worth ``value``."""
    if pol == Policy.RANDOM:
        return randint_nb(pub["rng"], 2)
    return 1 if value + ru["botw"][t][W.M_EXTRA] > 0.0 else 0


@njit(cache=True)
def gion_choice_nb(pub, ru, t, pol, cards, n):
    """Index into ``cards[:n]`` (the Encounter pile, shown to the stopper by Gion) of the card taken."""
    if pol == Policy.RANDOM:
        return randint_nb(pub["rng"], n)
    best, bv = 0, -1e9
    for i in range(n):
        v = encounter_value_nb(pub, ru, t, cards[i])
        if v > bv + 1e-9:
            best, bv = i, v
    return best


@njit(cache=True)
def tsukimi_choice_nb(pub, ru, t, pol):
    """The Calligraphy card (market id) o-Tsukimi's chooser lays out for everyone; -1 if none is left."""
    mkt = pub["mkt"]
    n = 0
    for c in range(MARKET_CAP):
        n += mkt[2, c]
    if n == 0:
        return -1
    rand = pol == Policy.RANDOM
    j = randint_nb(pub["rng"], n) if rand else -1
    w = ru["botw"][t]
    best, bv = -1, -1e9
    for c in range(MARKET_CAP):
        if mkt[2, c] == 0:
            continue
        if rand:
            if j == 0:
                return c
            j -= 1
            continue
        v = tsukimi_value_nb(pub, ru, t, w, c)
        if v > bv + 1e-9:
            best, bv = c, v
    return best


@njit(cache=True)
def hadaka_value_nb(ru, t):
    return ru["botw"][t][W.ENCOUNTER]


@njit(cache=True)
def yama_value_nb(pub, ru, t, typ):
    return panorama_value_nb(pub, ru, t, typ)
