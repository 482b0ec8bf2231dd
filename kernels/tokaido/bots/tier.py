"""Which policy a player decides by: the one place the kernels read a player's tier.

A player's tier is its bot id (``pub['ps'][p, PF.BOT]``, ``Bot``), and the expert's valuations are
switched on by its weight vector (``w[W.EXPERT] = 1``: the expert and the search bot). ``policy_nb``
turns the two into a ``Policy`` once a decision; ``kernels.tokaido.bots.policy`` dispatches every decision
kind on it. ``searches_nb`` says whether a move is searched (``kernels.tokaido.play.decide_move_nb``).
"""

from numba import njit

from kernels.tokaido.core.enums import PF, Bot, Policy
from kernels.tokaido.core.weights import W


@njit(cache=True, inline="always")
def policy_nb(pub, ru, p):
    """The ``Policy`` player ``p`` decides by."""
    bot = pub["ps"][p, PF.BOT]
    if bot == Bot.RANDOM:
        return Policy.RANDOM
    if bot == Bot.GREEDY:
        return Policy.GREEDY
    return Policy.EXPERT if ru["botw"][p, W.EXPERT] > 0.5 else Policy.FEATURES


@njit(cache=True, inline="always")
def searches_nb(pub, p):
    """Whether player ``p``'s moves are searched (``Bot.SEARCH``; a search's rollouts never search)."""
    return pub["ps"][p, PF.BOT] == Bot.SEARCH
