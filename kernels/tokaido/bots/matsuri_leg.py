"""What the Matsuri cards acting on this leg add to a stop, for every tier but random.

The during-the-next-leg cards (expansions.md A.4; the engine is
``kernels.tokaido.game.matsuri.matsuri_stop_nb``)
change what a station is worth to the player who stops there:

* o-Hanami: ``P.M_HANAMI_COINS`` coins at any panorama stop;
* Hadaka: a free Encounter before a Hot Spring (worth the player's own Encounter value);
* Gion: the Encounter is chosen from the whole pile: the best card left instead of a blind one;
* Yama no Ko: one more Mountain section first (the base action then takes the section after it);
* o-Taue: a bank coin donated to the Temple at a Paddy stop (a point and a step up the ranking).

Closures (Kamiarisai, Toka Ebisu, Mura) need nothing here: a closed station is no legal stop.

A bonus is in the tier's own units: ``feat`` (the heuristic tiers, expert included) values coins
with ``features.coin_value_nb`` (the expert's spending cap included), points with ``HF.PTS``, the
Temple with ``HF.TEMPLE_RANK`` and the free Encounter with the tier's own Encounter stop value;
greedy uses its point-per-coin rule. ``W.M_LEG_STOP`` scales the move choice's bonus (0: the bots
before the leg-card values); ``W.M_LEG_SHARE`` turns the same bonuses into a card's worth
at the keep decision (``kernels.tokaido.bots.matsuri.card_value_nb``). Only public state is read: the
Encounters left are ``all - gone`` (Gion shows the stopper the pile, not its order).
"""

from numba import njit

from kernels.tokaido.bots.context import coin_value_nb
from kernels.tokaido.bots.features import encounter_card_value_nb, expected_max_nb, rank_bonus_nb
from kernels.tokaido.bots.scratch import B_SORT, pool_nb
from kernels.tokaido.core.enums import PF, Ability, Deck, G, P, Space
from kernels.tokaido.core.events import Matsuri
from kernels.tokaido.core.score import pan_card_pts_nb, panorama_open_nb
from kernels.tokaido.core.weights import HF, W

ANY_PANORAMA = 9  # a card's space for "any panorama" (sim/games/tokaido/rules/matsuri.py)


@njit(cache=True)
def card_type_nb(ru, c):
    """The space type Matsuri card ``c`` acts on (``ANY_PANORAMA`` for every panorama, -1 none)."""
    return ru["card"][Deck.MATSURI, 1, c] % 16 - 1


@njit(cache=True)
def leg_kinds_nb(pub, ru):
    """Bit mask of the kinds of the Matsuri cards acting on this leg (0 without Matsuri)."""
    leg = pub["gs"][G.M_LEG]
    kinds = 0
    if leg == 0:
        return kinds
    for c in range(ru["dsize"][Deck.MATSURI]):
        if (leg >> c) & 1:
            kinds |= 1 << ru["card"][Deck.MATSURI, 0, c]
    return kinds


@njit(cache=True)
def gion_gain_nb(pub, ru, t, w):
    """Weighted gain for ``t`` (context loaded) of taking the best Encounter left rather than a blind draw
    (Yoshiyasu's better of two, which Gion replaces, counted as the blind draw)."""
    b = pub["bscr"]
    pool = pool_nb(pub, ru, Deck.ENCOUNTER)
    n, tot, best = 0, 0.0, -1e18
    for c in range(ru["dsize"][Deck.ENCOUNTER]):
        if (pool >> c) & 1:
            v = encounter_card_value_nb(pub, ru, t, w, c)
            b[B_SORT + n] = v
            tot += v
            best = max(best, v)
            n += 1
    if n == 0:
        return 0.0
    blind = tot / n
    if pub["ps"][t, PF.ABILITY] == Ability.YOSHIYASU and n >= 2:
        blind += w[W.HF0 + HF.ABILITY] * (expected_max_nb(b[B_SORT : B_SORT + 32], n, 2) - tot / n)
    return max(0.0, best - blind)


@njit(cache=True)
def second_section_pts_nb(pub, ru, t, pt):
    """Points of the panorama ``pt`` card after ``t``'s next one (with its achievement); 0 if there is
    none."""
    params = ru["params"]
    k = pub["ps"][t, PF.PAN0 + pt] + 2
    ln = params[P.PAN_LEN0 + pt]
    if k > ln:
        return 0.0
    v = float(pan_card_pts_nb(pub, ru, t, pt, k))
    if k == ln and (pub["gs"][G.PAN_ACH] >> pt) & 1 == 0:
        v += params[P.PAN_ACH_POINTS]
        if pub["ps"][t, PF.ABILITY] == Ability.MITSUKUNI:
            v += 1.0
    return v


@njit(cache=True)
def card_bonus_nb(pub, ru, t, w, kind, typ, enc, gion, feat):
    """What a card of ``kind`` on this leg adds for ``t`` to a stop on type ``typ`` (``enc``: ``t``'s value
    of a blind Encounter, Hadaka's; ``gion``: ``t``'s Gion gain; ``feat``: the heuristic tiers)."""
    params = ru["params"]
    pan = Space.PADDY <= typ <= Space.SEA
    if kind == Matsuri.OHANAMI and pan:
        coins = params[P.M_HANAMI_COINS]
        return coin_value_nb(pub, t, w, coins) if feat else coins * w[W.COIN]
    if kind == Matsuri.HADAKA and typ == Space.HOT_SPRING and pub["dcnt"][Deck.ENCOUNTER] > 0:
        return max(0.0, enc)
    if kind == Matsuri.GION and typ == Space.ENCOUNTER:
        return gion
    if kind == Matsuri.YAMA_NO_KO and typ == Space.MOUNTAIN and panorama_open_nb(pub, ru, t, 1):
        pts = second_section_pts_nb(pub, ru, t, 1) if params[P.M_YAMA_SECTIONS] > 0 else 0.0
        return w[W.HF0 + HF.PTS] * pts if feat else pts
    if kind == Matsuri.OTAUE and typ == Space.PADDY and panorama_open_nb(pub, ru, t, 0):
        d = params[P.M_OTAUE_COINS]
        if not feat:
            return d * (1.0 + w[W.TEMPLE_RANK])
        x = pub["ps"][t, PF.DONATED]
        rank = rank_bonus_nb(pub, ru, t, x + d) - rank_bonus_nb(pub, ru, t, x)
        return w[W.HF0 + HF.PTS] * d + w[W.HF0 + HF.TEMPLE_RANK] * rank
    return 0.0


@njit(cache=True)
def card_acts_nb(ru, c, typ):
    """Whether Matsuri card ``c`` acts on a station of type ``typ``."""
    sp = card_type_nb(ru, c)
    return sp == typ or (sp == ANY_PANORAMA and Space.PADDY <= typ <= Space.SEA)


@njit(cache=True)
def leg_values_nb(pub, ru, t, w, vals, enc, gion, feat, stage):
    """Add this leg's Matsuri bonuses, times ``W.M_LEG_STOP``, to ``vals[1:9]`` (``t``'s values per type).

    ``stage`` 0 adds Gion's (it acts on the base action only: before the Crossroads alternatives are
    weighed), 1 the others (they come with any option of the station, so after).
    """
    scale = w[W.M_LEG_STOP]
    leg = pub["gs"][G.M_LEG]
    if scale == 0.0 or leg == 0:
        return
    for c in range(ru["dsize"][Deck.MATSURI]):
        if (leg >> c) & 1 == 0:
            continue
        kind = ru["card"][Deck.MATSURI, 0, c]
        if (kind == Matsuri.GION) != (stage == 0):
            continue
        for typ in range(1, 9):
            if card_acts_nb(ru, c, typ):
                vals[typ] += scale * card_bonus_nb(pub, ru, t, w, kind, typ, enc, gion, feat)
