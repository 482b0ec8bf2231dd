"""What a space is worth to another player: the heuristic tiers' ``deny`` and ``leave`` features.

``opp_value_nb`` is a rough value in points; the expert adds what the player's ability makes the
space worth to it (``abilities.ability_opp_nb``). A move needs a few of these values (an
opponent behind the candidate, the spaces the next mover may reach); each is computed when first
needed and kept in ``bscr[B_OPP + 9u + typ]``. The values of player ``u`` read only its coins,
panoramas, families and ability, whether the Hot Spring and Encounter piles are empty, and the
panorama achievements taken, so they are kept across moves (``features.B_MEMO``, slots 13-16 of
``u``) until one of those changed: the bit ``9u + typ`` of ``have`` says a value is there.
"""

from numba import njit

from kernels.tokaido.bots.abilities import ability_opp_nb
from kernels.tokaido.bots.context import best_gain_nb
from kernels.tokaido.bots.features import pan_points_nb
from kernels.tokaido.bots.scratch import B_MEMO, B_OPP, MEMO_N
from kernels.tokaido.core.enums import PF, Deck, G, P, Space
from kernels.tokaido.core.score import panorama_open_nb

N_TYPES = 9


@njit(cache=True, inline="always")
def opp_value_nb(pub, ru, u, typ):
    """Rough value (points) of stopping on a space of type ``typ`` now for another player ``u``."""
    coins = pub["ps"][u, PF.COINS]
    if typ == Space.FARM:
        return 3.0 if coins < 2 else 1.5
    if Space.PADDY <= typ <= Space.SEA:
        k = typ - Space.PADDY
        return pan_points_nb(pub, ru, u, k) if panorama_open_nb(pub, ru, u, k) else 0.0
    if typ == Space.HOT_SPRING:
        return 2.5 if pub["dcnt"][Deck.HOT_SPRING] > 0 else 0.0
    if typ == Space.TEMPLE:
        return 1.5 if coins > 0 else 0.0
    if typ == Space.ENCOUNTER:
        return 3.0 if pub["dcnt"][Deck.ENCOUNTER] > 0 else 0.0
    if typ == Space.VILLAGE:
        return max(0.0, best_gain_nb(pub, ru, u, -1) - 1.5) if coins > 0 else 0.0
    return 0.0


@njit(cache=True)
def opp_values_nb(pub, ru, t):
    """Rough values (points) of each space type for every other player, into ``bscr[B_OPP:]``
    (the Neutral's mover; it forgets the values kept across moves, which may include abilities)."""
    b = pub["bscr"]
    for u in range(pub["gs"][G.N_PLAYERS]):
        b[B_MEMO + MEMO_N * u + 16] = 0.0
        if u != t:
            for typ in range(N_TYPES):
                b[B_OPP + N_TYPES * u + typ] = opp_value_nb(pub, ru, u, typ)


@njit(cache=True, inline="always")
def opp_nb(pub, ru, u, typ, have, expert):
    """``opp_value_nb`` (plus, for the expert, ``ability_opp_nb``) kept in ``bscr[B_OPP:]`` (bit
    ``9u + typ`` of ``have``): (value, have)."""
    i = N_TYPES * u + typ
    if (have >> i) & 1 == 0:
        v = opp_value_nb(pub, ru, u, typ)
        if expert:  # what u's ability makes the space worth to u (kernels/tokaido/bots/abilities.py)
            v += ability_opp_nb(pub, ru, u, typ)
        pub["bscr"][B_OPP + i] = v
        have |= 1 << i
    return pub["bscr"][B_OPP + i], have


@njit(cache=True, inline="always")
def opp_begin_nb(pub, ru, t, expert):
    """The ``have`` mask of the values kept for the players other than ``t`` whose inputs did not change."""
    ps = pub["ps"]
    b = pub["bscr"]
    gs = pub["gs"]
    rest = (
        (1 if pub["dcnt"][Deck.HOT_SPRING] > 0 else 0)
        | ((1 if pub["dcnt"][Deck.ENCOUNTER] > 0 else 0) << 1)
        | (int(gs[G.PAN_ACH] & 7) << 2)
        | (int(expert) << 5)
        | (1 << 6)
    )
    have = 0
    for u in range(gs[G.N_PLAYERS]):
        if u == t:
            continue
        m = B_MEMO + MEMO_N * u
        k1 = float(ps[u, PF.COINS])
        k2 = float(
            rest
            | (int(ps[u, PF.ABILITY]) << 7)
            | (int(ps[u, PF.PAN0]) << 14)
            | (int(ps[u, PF.PAN0 + 1]) << 20)
            | (int(ps[u, PF.PAN0 + 2]) << 26)
        )
        k3 = 0
        for f in range(ru["params"][P.N_FAMILIES]):
            k3 |= int(ps[u, PF.FAM0 + f]) << (6 * f)
        if b[m + 13] == k1 and b[m + 14] == k2 and b[m + 15] == float(k3):
            have |= int(b[m + 16]) << (N_TYPES * u)
        else:
            b[m + 13], b[m + 14], b[m + 15], b[m + 16] = k1, k2, float(k3), 0.0
    return have


@njit(cache=True, inline="always")
def opp_end_nb(pub, t, have):
    """Keep the values a move computed for the next (``have`` as ``opp_begin_nb`` returned it, grown)."""
    b = pub["bscr"]
    for u in range(pub["gs"][G.N_PLAYERS]):
        if u != t:
            b[B_MEMO + MEMO_N * u + 16] = float((have >> (N_TYPES * u)) & 511)
