"""The Matsuri Travelers' decisions (expansions.md A.9): Mutsumi's leave-first, Iyasaka's re-roll,
Kidzuna's extra meal.

Every tier gets ``arg``, the public fact the choice turns on (Iyasaka: the first face; Kidzuna: the
revealed meal card). The greedy value comes from the engine; the expert weighs its own features
(``XF.MT_LEAD``, ``XF.MT_REROLL``, ``XF.MT_MEAL``: biases on top of its coin and point values).
The other abilities need no decision: their value reaches the bots through the prices
(``kernels.tokaido.core.prices``: Ayumu, Titia, Mari, Kamui's skipped meal) and the stop values
(``kernels.tokaido.bots.abilities``: Misaki, Takeru, Mari, Iyasaka's Farm coin).
"""

from numba import njit

from kernels.tokaido.bots.context import ach_delta_nb, coin_value_nb
from kernels.tokaido.bots.expert import die_coin_value_nb, legend_value_nb
from kernels.tokaido.core.enums import PF, Deck, Opt, P
from kernels.tokaido.core.weights import HF, XF, W


@njit(cache=True)
def expert_mt_option_nb(pub, ru, t, w, opt, arg):
    """1 takes the Matsuri Traveler's option ``opt`` (``Opt.MUTSUMI`` .. ``Opt.KIDZUNA``)."""
    x = W.XF0
    params = ru["params"]
    if opt == Opt.MUTSUMI:  # the first pick of the next leg's stations
        v = w[x + XF.MT_LEAD]
    elif opt == Opt.IYASAKA:  # a fresh roll against the face already showing
        bet = params[P.GAMING_BET]
        v = (
            die_coin_value_nb(pub, ru, t, w, bet)
            - coin_value_nb(pub, t, w, bet * arg - bet)
            + w[x + XF.MT_REROLL]
        )
    elif opt == Opt.RAKUREN:  # the Shop's draw and a souvenir more, plus a Legendary Object on offer
        v = 1.0
    elif opt == Opt.RAKUREN_BUY:  # the Legendary Object ``arg`` his ability turned up, its price included
        v = legend_value_nb(pub, ru, t, w, arg)
    else:  # Kidzuna's revealed meal
        cost = ru["card"][Deck.MEAL, 1, arg]
        v = (
            w[W.HF0 + HF.PTS] * params[P.MEAL_POINTS]
            + coin_value_nb(pub, t, w, -cost)
            + w[W.HF0 + HF.END_ACH] * ach_delta_nb(pub, ru, t, PF.MEAL_VALUE, cost)
            + w[x + XF.MT_MEAL]
        )
    return 1 if v > 0.0 else 0
