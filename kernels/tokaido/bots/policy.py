"""Every decision of the game goes through one hook here: one dispatch per decision kind.

Each ``choose_*_nb`` receives the public record ``pub`` (every traveler's collection, coins and
position, pile sizes, the cards on the table and the Inn's hand, which only the chooser is shown), the
rules record ``ru`` (each player's bot weights ``ru['botw'][p]``, indices ``weights.W``) and the choice
at hand. No hook receives ``hid``: no bot can read a pile's order. A hook reads the deciding player's
policy once (``tier.policy_nb``) and calls that policy's code:

==================  ======================  ===================================================
``Policy``          tiers                   code
==================  ======================  ===================================================
``RANDOM``          random                  uniform over the legal choices (``greedy``'s ``rand``)
``GREEDY``          greedy                  points now + a coin value and reserve (``greedy``)
``FEATURES``        heuristic, tuned        features x weights (``heuristic``)
``EXPERT``          expert, search          the same + the expert's valuations (``heuristic``
                                            with ``expert``, ``expert``, ``abilities``)
==================  ======================  ===================================================

The yes/no options and the draft of the feature tiers use the greedy rules with their own weights. The
expansions' decisions take the policy as an argument (``crossroads``, ``matsuri``, ``matsuri_order``,
``matsuri_travelers``). A search player's move is searched one layer up
(``kernels.tokaido.play.decide_move_nb``
asks ``tier.searches_nb``); its other decisions are the expert's. The greedy values the engine hands a
hook (``space_values_nb``, ``panorama_value_nb``; prices: ``kernels.tokaido.core.prices``) are re-exported
here.
"""

from numba import njit

from kernels.core.rng import randint_nb
from kernels.tokaido.bots import crossroads as xr
from kernels.tokaido.bots import greedy
from kernels.tokaido.bots import matsuri as mt
from kernels.tokaido.bots.context import context_nb
from kernels.tokaido.bots.expert import option_nb as expert_option_nb
from kernels.tokaido.bots.greedy import panorama_value_nb as panorama_value_nb
from kernels.tokaido.bots.greedy import space_values_nb as space_values_nb
from kernels.tokaido.bots.heuristic import (
    heuristic_donation_nb,
    heuristic_encounter_nb,
    heuristic_meal_nb,
    heuristic_move_nb,
    heuristic_panorama_nb,
    heuristic_village_nb,
)
from kernels.tokaido.bots.matsuri_order import hanabi_order_choice_nb
from kernels.tokaido.bots.matsuri_travelers import expert_mt_option_nb
from kernels.tokaido.bots.tier import policy_nb
from kernels.tokaido.core.enums import Policy
from kernels.tokaido.core.prices import table_prices_nb as table_prices_nb
from kernels.tokaido.core.prices import village_prices_nb as village_prices_nb


@njit(cache=True)
def choose_move_nb(pub, ru, t, ctrl, ncand):
    """Index into ``pub['cand']`` of the destination ``ctrl`` chooses for ``t`` (``ctrl`` moves the Neutral
    at 2 players)."""
    pol = policy_nb(pub, ru, ctrl)
    if pol == Policy.RANDOM or ncand == 1:
        return randint_nb(pub["rng"], ncand) if ncand > 1 else 0
    if pol == Policy.GREEDY:
        return greedy.move_nb(pub, ru, t, ctrl, ncand)
    return heuristic_move_nb(pub, ru, t, ctrl, ncand, pol == Policy.EXPERT)


@njit(cache=True)
def choose_village_nb(pub, ru, t, ntbl):
    """Returns (mask of bought table cards, Zen-emon's 1-coin card or -1)."""
    pol = policy_nb(pub, ru, t)
    if pol >= Policy.FEATURES:
        return heuristic_village_nb(pub, ru, t, ntbl, pol == Policy.EXPERT)
    return greedy.village_nb(pub, ru, t, ntbl, pol == Policy.RANDOM)


@njit(cache=True)
def choose_donation_nb(pub, ru, t):
    """Coins (1..3) given to the Temple."""
    pol = policy_nb(pub, ru, t)
    if pol >= Policy.FEATURES:
        return heuristic_donation_nb(pub, ru, t, pol == Policy.EXPERT)
    return greedy.donation_nb(pub, ru, t, pol == Policy.RANDOM)


@njit(cache=True)
def choose_option_nb(pub, ru, t, value, opt):
    """A yes/no choice ``opt`` (``Opt``) whose greedy value (points minus coins' worth) is ``value``."""
    pol = policy_nb(pub, ru, t)
    if pol == Policy.RANDOM:
        return randint_nb(pub["rng"], 2)
    if pol == Policy.EXPERT:
        w = ru["botw"][t]
        context_nb(pub, ru, t, w, True)
        return expert_option_nb(pub, ru, t, w, opt)
    return 1 if value > 0.0 else 0


@njit(cache=True)
def choose_felicia_try_nb(pub, ru, t, value):
    """Felicia: duel for a card she cannot pay in full (P6)? ``value``: its greedy worth at the full price.
    The duel costs nothing, so every tier but the random one tries for a card worth its full price."""
    if policy_nb(pub, ru, t) == Policy.RANDOM:
        return randint_nb(pub["rng"], 2)
    return 1 if value > 0.0 else 0


@njit(cache=True)
def choose_mt_option_nb(pub, ru, t, value, opt, arg):
    """A Matsuri Traveler's yes/no (``Opt.MUTSUMI`` .. ``Opt.KIDZUNA``): greedy ``value``; the expert weighs
    ``arg`` (Iyasaka's first face, Kidzuna's revealed meal) itself."""
    pol = policy_nb(pub, ru, t)
    if pol == Policy.RANDOM:
        return randint_nb(pub["rng"], 2)
    if pol == Policy.EXPERT:
        w = ru["botw"][t]
        context_nb(pub, ru, t, w, True)
        return expert_mt_option_nb(pub, ru, t, w, opt, arg)
    return 1 if value > 0.0 else 0


@njit(cache=True)
def choose_panorama_nb(pub, ru, t):
    """A panorama type still open to ``t`` (the caller checks one exists)."""
    pol = policy_nb(pub, ru, t)
    if pol >= Policy.FEATURES:
        return heuristic_panorama_nb(pub, ru, t, pol == Policy.EXPERT)
    return greedy.panorama_nb(pub, ru, t, pol == Policy.RANDOM)


@njit(cache=True)
def choose_encounter_nb(pub, ru, t, c1, c2):
    """Yoshiyasu keeps one of two Encounter cards: 0 keeps ``c1``, 1 keeps ``c2``."""
    pol = policy_nb(pub, ru, t)
    if pol == Policy.RANDOM:
        return randint_nb(pub["rng"], 2)
    if pol >= Policy.FEATURES:
        return heuristic_encounter_nb(pub, ru, t, c1, c2, pol == Policy.EXPERT)
    return greedy.encounter_nb(pub, ru, t, c1, c2)


@njit(cache=True)
def choose_meal_nb(pub, ru, t, offered, budget):
    """Returns (index into the hand or -1 for no meal, 1 if taken free as Satsuki's offer).

    ``budget`` is the dearest price ``t`` can pay: the coins held, or more with
    a Hospitality Amulet that makes the meal free.
    """
    pol = policy_nb(pub, ru, t)
    if pol >= Policy.FEATURES:
        return heuristic_meal_nb(pub, ru, t, offered, budget, pol == Policy.EXPERT)
    return greedy.meal_nb(pub, ru, t, offered, budget, pol == Policy.RANDOM)


@njit(cache=True)
def choose_traveler_nb(pub, ru, p, t1, t2):
    """Draft: player ``p`` keeps ``t1`` (0) or ``t2`` (1)."""
    if policy_nb(pub, ru, p) == Policy.RANDOM:
        return randint_nb(pub["rng"], 2)
    return greedy.draft_nb(pub, ru, p, t1, t2)


# Crossroads (kernels/tokaido/bots/crossroads.py)


@njit(cache=True)
def choose_legendary_nb(pub, ru, t):
    """An affordable available Legendary Object (-1 if none)."""
    return xr.legendary_choice_nb(pub, ru, t, policy_nb(pub, ru, t))


@njit(cache=True)
def choose_amulet_nb(pub, ru, t):
    """An Amulet of the Temple's market (-1 if none)."""
    return xr.amulet_choice_nb(pub, ru, t, policy_nb(pub, ru, t))


@njit(cache=True)
def choose_calligraphy_nb(pub, ru, t):
    """A Calligraphy card of the market (-1 if none)."""
    return xr.calligraphy_choice_nb(pub, ru, t, policy_nb(pub, ru, t))


@njit(cache=True)
def choose_use_nb(pub, ru, t, value, kind, arg):
    """Use an Amulet of ``kind`` now? ``value`` is the greedy gain of using it; ``arg`` its argument."""
    return xr.use_choice_nb(pub, ru, t, policy_nb(pub, ru, t), value, kind, arg)


@njit(cache=True)
def choose_station_option_nb(pub, ru, t, typ, base_ok, alt_ok, both_ok, base_value):
    """0 base action, 1 the alternative, 2 both (Kita, Miyataka), 4 the alternative buying nothing (online,
    random only)."""
    return xr.station_choice_nb(pub, ru, t, policy_nb(pub, ru, t), typ, base_ok, alt_ok, both_ok, base_value)


@njit(cache=True)
def choose_health_order_nb(pub, ru, t, typ, alt_ok, base_value):
    """Both actions (the Health Amulet, Kita, Miyataka): 2 the base action first, 3 the alternative first;
    ``base_value`` is the greedy value of the base action."""
    return xr.health_order_choice_nb(pub, ru, t, policy_nb(pub, ru, t), typ, alt_ok, base_value)


@njit(cache=True)
def choose_second_nb(pub, ru, t, typ, alt):
    """Take the second of two actions now that it is possible (1) or decline it (0)? ``alt``: the second is
    the station's alternative (else its base action)."""
    return xr.second_choice_nb(pub, ru, t, policy_nb(pub, ru, t), typ, alt)


# Matsuri (kernels/tokaido/bots/matsuri.py, matsuri_order.py)


@njit(cache=True)
def choose_matsuri_card_nb(pub, ru, t, c1, c2):
    """The first to arrive keeps one of two Matsuri cards: 0 keeps ``c1``, 1 keeps ``c2``."""
    return mt.card_choice_nb(pub, ru, t, policy_nb(pub, ru, t), c1, c2)


@njit(cache=True)
def choose_obon_nb(pub, ru, t, hi):
    """Coins (0..``hi``) ``t`` gives to the Temple for o-Bon."""
    return mt.obon_choice_nb(pub, ru, t, policy_nb(pub, ru, t), hi)


@njit(cache=True)
def choose_extra_nb(pub, ru, t, value):
    """A free optional extra (Hadaka's Encounter, Yama no Ko's section, o-Taue's coin) worth ``value``."""
    return mt.extra_choice_nb(pub, ru, t, policy_nb(pub, ru, t), value)


@njit(cache=True)
def choose_gion_nb(pub, ru, t, cards, n):
    """Index into ``cards[:n]`` (the Encounter pile, shown to the stopper by Gion) of the card taken."""
    return mt.gion_choice_nb(pub, ru, t, policy_nb(pub, ru, t), cards, n)


@njit(cache=True)
def choose_tsukimi_nb(pub, ru, t):
    """The Calligraphy card (market id) o-Tsukimi's chooser lays out for everyone; -1 if none is left."""
    return mt.tsukimi_choice_nb(pub, ru, t, policy_nb(pub, ru, t))


@njit(cache=True)
def choose_hanabi_order_nb(pub, ru, t, first, second):
    """1: resolve Hanabi's ``second`` card (the later draw) first; 0: draw order."""
    return hanabi_order_choice_nb(pub, ru, t, policy_nb(pub, ru, t), first, second)
