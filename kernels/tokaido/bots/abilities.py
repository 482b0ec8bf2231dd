"""What a Traveler's ability adds to the expert's values: the extension point for new Travelers.

The heuristic's features already count the base game's abilities where they change a
decision (Umegae's and Yoshiyasu's Encounters, Mitsukuni's Hot Springs, Hirotada's Temple
coin, Sasayakko's free souvenir, Zen-emon's price, Kinko's and Satsuki's meals; Hiroshige's
and Chuubei's Inn gifts come whatever the player does). Here are the Crossroads Travelers'
(seed 002, docs/rules.md), weighed by ``w[W.XF0 + XF.ABILITY_XR]``:

* Gotozaemon: coins at every panorama station, whichever option he takes (``ability_stop_nb``);
* Nampo: an Inn meal's printed cost in points (``ability_meal_nb``);
* Kita (Encounter) and Miyataka (Temple): both actions of the station (``expert.both_allowed_nb``);
* Jirocho: the bet at each Inn (``expert.option_nb``, ``Opt.JIROCHO``);
* Daigoro: a souvenir at each Inn, whatever the player does (no decision to value).

The Matsuri Travelers' stops (Misaki's Temples, Takeru's Encounters, Iyasaka's Farms, Mari's Temples)
are weighed by ``XF.ABILITY_MT``; their yes/no choices are in ``kernels.tokaido.bots.matsuri_travelers``.

What another player's ability makes a space worth to it (``ability_opp_nb``: Umegae's Encounter
bonus) enters the expert's ``deny`` and ``leave``: what it takes from, or leaves to, an opponent.

A new Traveler (promos) adds a branch to these functions (and, for a new kind of
choice, a hook in ``kernels.tokaido.bots.policy``): an ability no branch names is worth 0 here, so the
bot still plays legal games, only without using it well.
"""

from numba import njit

from kernels.tokaido.bots.context import coin_value_nb
from kernels.tokaido.core.enums import PF, Ability, Deck, P, Space
from kernels.tokaido.core.weights import HF, XF, W


@njit(cache=True)
def ability_stop_nb(pub, ru, t, w, typ):
    """Extra weighted value of ``t``'s ability for stopping on a station of type ``typ`` now."""
    ab = pub["ps"][t, PF.ABILITY]
    params = ru["params"]
    if ab == Ability.GOTOZAEMON and Space.PADDY <= typ <= Space.SEA:
        return w[W.XF0 + XF.ABILITY_XR] * coin_value_nb(pub, t, w, params[P.GOTOZAEMON_COINS])
    # Matsuri (weighed by XF.ABILITY_MT): a bank coin at his own stop, a Farm's extra coin,
    # Mari's second point per coin (about 2 coins given at a Temple)
    mt = w[W.XF0 + XF.ABILITY_MT]
    if (ab == Ability.MISAKI and typ == Space.TEMPLE) or (ab == Ability.TAKERU and typ == Space.ENCOUNTER):
        return mt * coin_value_nb(pub, t, w, params[P.WATCHER_COINS])
    if ab == Ability.IYASAKA and typ == Space.FARM:
        return mt * coin_value_nb(pub, t, w, params[P.IYASAKA_FARM_BONUS])
    if ab == Ability.MARI and typ == Space.TEMPLE and pub["ps"][t, PF.COINS] > 0:
        give = min(2, pub["ps"][t, PF.COINS])
        return mt * w[W.HF0 + HF.PTS] * give * (params[P.MARI_TEMPLE_MULT] - 1)
    return 0.0


@njit(cache=True, inline="always")
def ability_opp_nb(pub, ru, u, typ):
    """Rough points another player ``u``'s ability adds to its stop on a space of type ``typ``: what the
    expert's ``deny`` and ``leave`` count it would miss if that space were taken from it (Umegae's
    Encounter bonus; without it the 5-player base expert left her the Encounters, docs/bots.md)."""
    if pub["ps"][u, PF.ABILITY] == Ability.UMEGAE and typ == Space.ENCOUNTER:
        return float(ru["params"][P.UMEGAE_POINTS] + ru["params"][P.UMEGAE_COINS])
    return 0.0


@njit(cache=True)
def ability_meal_nb(pub, ru, t, w, c):
    """Extra weighted value of ``t``'s ability for eating meal card ``c`` at an Inn."""
    if pub["ps"][t, PF.ABILITY] == Ability.NAMPO:
        return w[W.XF0 + XF.ABILITY_XR] * w[W.HF0 + HF.PTS] * ru["card"][Deck.MEAL, 1, c]
    return 0.0
