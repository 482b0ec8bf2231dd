"""Movement: who moves next, who leads, which spaces a traveler may stop on.

Positions are board indices (0 = start Inn, ``N_SPACES - 1`` = last Inn).
``ps[t, PF.SEQ]`` stamps each arrival; on one space the later arrival is
"behind" (the off-road slot of a double space, the back of an Inn's queue).
"""

from numba import njit

from kernels.tokaido.core.enums import N_SPACES, PF, G, P, Space
from kernels.tokaido.core.present import MARI, holds_nb
from kernels.tokaido.core.prices import mari_free_stop_nb
from kernels.tokaido.core.score import panorama_open_nb


@njit(cache=True)
def next_mover_nb(pub):
    """The traveler farthest behind: lowest position, latest arrival there."""
    ps = pub["ps"]
    best = 0
    for t in range(1, pub["gs"][G.N_TRAV]):
        if ps[t, PF.POS] < ps[best, PF.POS] or (
            ps[t, PF.POS] == ps[best, PF.POS] and ps[t, PF.SEQ] > ps[best, PF.SEQ]
        ):
            best = t
    return best


@njit(cache=True)
def lead_player_nb(pub):
    """The player whose traveler leads: highest position, earliest arrival."""
    ps = pub["ps"]
    best = 0
    for p in range(1, pub["gs"][G.N_PLAYERS]):
        if ps[p, PF.POS] > ps[best, PF.POS] or (
            ps[p, PF.POS] == ps[best, PF.POS] and ps[p, PF.SEQ] < ps[best, PF.SEQ]
        ):
            best = p
    return best


@njit(cache=True)
def legal_moves_nb(pub, ru, t):
    """Fill ``pub["cand"]`` with the spaces ``t`` may stop on; return how many.

    Forward to any free space up to and including the next Inn; double spaces
    hold two only with 4-5 travelers; a player needs a coin for a Village or a
    Temple and may not stop on a panorama type already complete (rulebook
    "Playing the Game", "Village", "Temple", "Panorama").
    """
    ps = pub["ps"]
    cand = pub["cand"]
    occ = pub["occ"]
    board = ru["board"]
    params = ru["params"]
    nt = pub["gs"][G.N_TRAV]
    neutral = ps[t, PF.NEUTRAL] == 1
    coins = ps[t, PF.COINS]
    gs = pub["gs"]
    closed = gs[G.M_CLOSED] | gs[G.M_HALF]  # Matsuri closures (0 without Matsuri)
    k = 0
    for s in range(ps[t, PF.POS] + 1, N_SPACES):
        typ = board[0, s]
        if typ == Space.INN:
            cand[k] = s
            k += 1
            break
        cap = 2 if (board[1, s] == 1 and nt >= 4) else 1
        if closed != 0 and (closed >> s) & 1 == 1:
            if (gs[G.M_CLOSED] >> s) & 1 == 1:
                continue  # closed for everyone, the Neutral included (M12)
            cap = 1
        if occ[s] >= cap:
            continue
        if not neutral:
            if typ == Space.VILLAGE and coins < params[P.VILLAGE_MIN_COINS]:
                continue
            if (
                typ == Space.TEMPLE
                and coins < params[P.TEMPLE_MIN_COINS]
                and not (holds_nb(pub, MARI) and mari_free_stop_nb(pub, ru, t))
            ):
                continue
            if Space.PADDY <= typ <= Space.SEA and not panorama_open_nb(pub, ru, t, typ - Space.PADDY):
                if params[P.CHERRY_AT_COMPLETE] == 0 or pub["xcnt"][0] == 0:  # online: stop for a Cherry Tree
                    continue
        cand[k] = s
        k += 1
    return k
