"""The bots' order for Hanabi's two extra cards (M18, ``matsuri.choices.hanabi_order = "chooser"``).

Only the order of two cards the chooser holds face up is decided, so no hidden card is read. Every
policy but ``Policy.RANDOM`` (a coin flip) resolves first the card that gives (coins, souvenirs, panoramas,
Amulets, points) and last the one that counts or ranks what the players hold: o-Shogatsu's coins before
o-Bon's donations, o-Bon before Shishimai's Temple ranking, a Doll or o-Fune's Sea before Tanabata's
achievements. Each card then acts on as much as the other brought in, which is why a player keeps Hanabi.
"""

from numba import njit

from kernels.core.rng import randint_nb
from kernels.tokaido.core.enums import Deck, Policy
from kernels.tokaido.core.events import Matsuri


@njit(cache=True)
def order_rank_nb(kind):
    """0 gives coins, 1 gives cards, tokens or acts later, 2 spends coins, 3 counts or ranks holdings."""
    if kind == Matsuri.OSHOGATSU:
        return 0
    if kind == Matsuri.OBON:
        return 2
    if kind == Matsuri.TANABATA or kind == Matsuri.SHISHIMAI:
        return 3
    return 1


@njit(cache=True)
def hanabi_order_choice_nb(pub, ru, t, pol, first, second):
    """1: resolve ``second`` (the later draw) first; 0: draw order."""
    if pol == Policy.RANDOM:
        return randint_nb(pub["rng"], 2)
    a = order_rank_nb(ru["card"][Deck.MATSURI, 0, first])
    b = order_rank_nb(ru["card"][Deck.MATSURI, 0, second])
    return 1 if b < a else 0
