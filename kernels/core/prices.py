"""What a Traveler pays for a card, where a Matsuri Traveler changes the printed cost (expansions.md A.9).

Shared by the engine (``kernels.game``) and the bots (``kernels.bots``), so a bot's idea of what it can
afford is the rule itself: Ayumu's meals and Small objects, Titia's Art souvenirs and Legendary Objects,
Mari's free Amulet.
"""

from numba import njit

from kernels.core.enums import PF, Ability, Deck, P
from kernels.core.present import SOUVENIR_PRICES, holds_nb


@njit(cache=True)
def souvenir_price_nb(pub, ru, t, c):
    """The price of souvenir card ``c`` at a Shop, before Zen-emon's and Sasayakko's deals."""
    cost = ru["card"][Deck.SOUVENIR, 1, c]
    if not holds_nb(pub, SOUVENIR_PRICES):  # priced in every Village decision: the common case first
        return cost
    fam = ru["card"][Deck.SOUVENIR, 0, c]
    ab = pub["ps"][t, PF.ABILITY]
    if ab == Ability.AYUMU and fam == ru["params"][P.AYUMU_FREE_FAMILY]:
        return 0
    if ab == Ability.TITIA and fam == ru["params"][P.TITIA_FAMILY]:
        return max(0, cost - ru["params"][P.TITIA_DISCOUNT])
    return cost


@njit(cache=True)
def legendary_price_nb(pub, ru, t, c):
    cost = ru["xcard"][0, 1, c]
    if pub["ps"][t, PF.ABILITY] == Ability.TITIA:
        return max(0, cost - ru["params"][P.TITIA_DISCOUNT])
    return cost


@njit(cache=True)
def amulet_price_nb(pub, ru, t):
    """A Temple's Amulet: Mari takes it free (002:L612)."""
    return 0 if pub["ps"][t, PF.ABILITY] == Ability.MARI else ru["params"][P.AMULET_COST]


@njit(cache=True)
def kamui_skip_nb(pub, ru, t):
    """Points of going without a meal at this Inn: Kamui's (002:L603), 0 for everyone else."""
    return float(ru["params"][P.KAMUI_POINTS]) if pub["ps"][t, PF.ABILITY] == Ability.KAMUI else 0.0


@njit(cache=True)
def mari_free_stop_nb(pub, ru, t):
    """MT-Mari (INFERRED): with no coin she may still stop at a Temple to take her free Amulet, if one is left."""
    if ru["params"][P.MARI_FREE_TEMPLE] == 0 or pub["ps"][t, PF.ABILITY] != Ability.MARI:
        return False
    for c in range(pub["mkt"].shape[1]):
        if pub["mkt"][1, c] == 1:
            return True
    return False
