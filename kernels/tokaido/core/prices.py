"""What a Traveler pays for a card, where a Matsuri Traveler changes the printed cost (expansions.md A.9).

Shared by the engine (``kernels.tokaido.game``) and the bots (``kernels.tokaido.bots``), so a bot's idea of
what it can
afford is the rule itself: Ayumu's meals and Small objects, Titia's Art souvenirs and Legendary Objects,
Mari's free Amulet, and a Village purchase's price with Zen-emon's and Sasayakko's deals.

``Disc`` names what made a card cheaper than its printed price, one bit each: the Devotion Amulet
moves the coins actually paid, or the printed price after the discounts of
``crossroads.amulets.devotion_printed_after`` (``P.DEVOTION_PRINTED``, C37).
"""

from typing import NamedTuple

from numba import njit

from kernels.tokaido.core.enums import PF, Ability, Deck, P
from kernels.tokaido.core.present import FELICIA, SOUVENIR_PRICES, holds_nb


class DiscT(NamedTuple):
    """Bits of a purchase's discounts (what made the price lower than the card's printed cost)."""

    ZEN_EMON: int = 0  # his 1-coin souvenir
    SASAYAKKO: int = 1  # her free cheapest souvenir
    KINKO: int = 2  # his meals 1 less
    TITIA: int = 3  # her Art souvenirs and Legendary Objects 1 less
    AYUMU: int = 4  # his meals at 1, his Small objects free
    MARI: int = 5  # her free Amulet
    SATSUKI: int = 6  # her free meal
    HOSPITALITY: int = 7  # the Hospitality Amulet's free meal
    FELICIA: int = 8  # the rounds she won
    CHOYO: int = 9  # Matsuri Cho-yo's meals 1 less


Disc = DiscT()
DISC_NAMES = (
    "zen_emon",
    "sasayakko",
    "kinko",
    "titia",
    "ayumu",
    "mari",
    "satsuki",
    "hospitality",
    "felicia",
    "choyo",
)


@njit(cache=True, inline="always")
def ability_disc_nb(pub, t, paid, printed):
    """The bit of ``t``'s own discount when a price ``paid`` is below ``printed`` (Kinko, Titia, Ayumu,
    Mari), else 0."""
    if paid >= printed:
        return 0
    ab = pub["ps"][t, PF.ABILITY]
    if ab == Ability.KINKO:
        return 1 << Disc.KINKO
    if ab == Ability.TITIA:
        return 1 << Disc.TITIA
    if ab == Ability.AYUMU:
        return 1 << Disc.AYUMU
    if ab == Ability.MARI:
        return 1 << Disc.MARI
    return 0


@njit(cache=True)
def souvenir_price_nb(pub, ru, t, c):
    """The price of souvenir card ``c`` at a Shop, before Zen-emon's and Sasayakko's deals."""
    card = ru["card"]
    return family_price_nb(pub, ru, t, card[Deck.SOUVENIR, 0, c], card[Deck.SOUVENIR, 1, c])


@njit(cache=True)
def family_price_nb(pub, ru, t, fam, cost):
    """The price of a souvenir of family ``fam`` and printed cost ``cost`` (what a card's price depends
    on)."""
    if not holds_nb(pub, SOUVENIR_PRICES):  # priced in every Village decision: the common case first
        return cost
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
    """MT-Mari (INFERRED): with no coin she may still stop at a Temple to take her free Amulet, if one is
    left."""
    if ru["params"][P.MARI_FREE_TEMPLE] == 0 or pub["ps"][t, PF.ABILITY] != Ability.MARI:
        return False
    for c in range(pub["mkt"].shape[1]):
        if pub["mkt"][1, c] == 1:
            return True
    return False


@njit(cache=True, inline="always")
def reach_nb(pub, ru, t, cost):
    """Can ``t`` try to buy a card of price ``cost``: it is affordable, or Felicia may duel for it and win
    enough rounds (P6: seed 002 sets no limit on the cards she challenges for)."""
    return cost <= pub["ps"][t, PF.COINS] or felicia_may_duel_nb(pub, ru, t)


@njit(cache=True)
def felicia_may_duel_nb(pub, ru, t):
    """``t`` is Felicia and can win a round: any card with a cost is within her reach (P6)."""
    return (
        holds_nb(pub, FELICIA)
        and pub["ps"][t, PF.ABILITY] == Ability.FELICIA
        and ru["params"][P.FELICIA_WIN_PPM] > 0
    )


@njit(cache=True)
def table_prices_nb(pub, ru, t, ntbl, base):
    """``base[i]``: what ``t`` pays for table card ``i`` alone, once per table."""
    for i in range(ntbl):
        base[i] = souvenir_price_nb(pub, ru, t, pub["tbl"][i])


@njit(cache=True, inline="always")
def village_prices_nb(pub, ru, t, ntbl, mask, zen, prices, base):
    """Prices of the table's cards in ``mask`` (``base``: ``table_prices_nb``); returns (coins needed, coins
    paid).

    Zen-emon pays 1 for card ``zen``; Sasayakko buying two or more gets the
    cheapest free but must hold the coins for all of them.
    """
    need = 0
    nb = 0
    cheapest = -1
    for i in range(ntbl):
        prices[i] = 0
        if (mask >> i) & 1:
            c = base[i]
            if i == zen:
                c = min(c, ru["params"][P.ZEN_EMON_PRICE])
            prices[i] = c
            need += c
            nb += 1
            if cheapest < 0 or c < prices[cheapest]:
                cheapest = i
    paid = need
    if pub["ps"][t, PF.ABILITY] == Ability.SASAYAKKO and nb >= 2:
        paid -= prices[cheapest]
        prices[cheapest] = 0
    return need, paid
