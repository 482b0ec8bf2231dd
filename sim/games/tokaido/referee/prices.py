"""What a Traveler pays and scores where an ability changes the printed numbers (seed 002's Traveler pages).

Pure functions of the rules and the Traveler, shared by the handlers that sell cards (``stations``,
``crossroads``, ``amulets``, ``matsuri_travelers``): Ayumu's and Titia's souvenirs, Titia's Legendary
Objects, Mari's Amulets and Temple points, and the names of these discounts, which Devotion reads (C37).
"""

from __future__ import annotations

from kernels.tokaido.core.enums import Ability
from sim.games.tokaido.referee.state import TravelerState
from sim.games.tokaido.rules.tables import Rules


def souvenir_price(rules: Rules, tr: TravelerState, card: int) -> int:
    """Printed cost; Ayumu: Small objects free; Titia: Art souvenirs 1 less."""
    p, s = rules.params, rules.souvenirs[card]
    if tr.ability == Ability.AYUMU and s.family == p["AYUMU_FREE_FAMILY"]:
        return 0
    if tr.ability == Ability.TITIA and s.family == p["TITIA_FAMILY"]:
        return max(0, s.cost - p["TITIA_DISCOUNT"])
    return s.cost


def legendary_price(rules: Rules, tr: TravelerState, card: int) -> int:
    """Printed cost; Titia: 1 less."""
    cost = rules.legendary[card].cost
    return max(0, cost - rules.params["TITIA_DISCOUNT"]) if tr.ability == Ability.TITIA else cost


def amulet_price(rules: Rules, tr: TravelerState) -> int:
    """Mari's Amulet at a Temple is free (002:L612)."""
    return 0 if tr.ability == Ability.MARI else rules.params["AMULET_COST"]


def temple_points(rules: Rules, tr: TravelerState, coins: int) -> int:
    """Mari scores MARI_TEMPLE_MULT points per coin donated at a Temple stop (002:L611)."""
    return coins * (rules.params["MARI_TEMPLE_MULT"] if tr.ability == Ability.MARI else 1)


def devotion_points(rules: Rules, tr: TravelerState, coins: int) -> int:
    """The Devotion Amulet's points: Mari's Temple multiplier too if ``MARI_DOUBLE_DEVOTION``."""
    double = tr.ability == Ability.MARI and rules.params["MARI_DOUBLE_DEVOTION"]
    return coins * (rules.params["MARI_TEMPLE_MULT"] if double else 1)


def ability_discount(tr: TravelerState, price: int, printed: int) -> frozenset[str]:
    """The Traveler's own discount when ``price`` is below ``printed`` (Devotion's
    ``devotion_printed_after``)."""
    names = {Ability.KINKO: "kinko", Ability.TITIA: "titia", Ability.AYUMU: "ayumu", Ability.MARI: "mari"}
    return frozenset([names[tr.ability]]) if price < printed and tr.ability in names else frozenset()
