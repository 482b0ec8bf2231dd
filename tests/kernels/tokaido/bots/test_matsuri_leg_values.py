"""The bots value a stop with the Matsuri cards acting on its leg, and keep a card by the same values.

Hand-built positions (``tests/helpers/matsuri_positions.py``): the card is kept at the first intermediate Inn
(space 14) and traveler 0 weighs the stations of the next leg (Paddy 18, Encounter 20, Hot Spring 22,
Mountain 23; ``tests/kernels/tokaido/matsuri/test_leg_cards.py`` checks the board). Each test compares the
tier's
values with and without ``m_leg_stop`` (the scale of the leg-card bonus: 0 is the bots before it) and
checks the difference is the card's effect (seed 002: o-Hanami L1037-1039, Hadaka L1035-1036, Gion
L1040-1042, Yama no Ko L1546-1553, o-Taue L1554-1562) valued with the tier's own features.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.tokaido.bots.context import coin_value_nb, context_nb
from kernels.tokaido.bots.features import encounter_card_value_nb, rank_bonus_nb
from kernels.tokaido.bots.heuristic import encounter_value_nb, move_values_nb
from kernels.tokaido.bots.matsuri import card_value_nb
from kernels.tokaido.bots.policy import choose_move_nb
from kernels.tokaido.bots.scratch import B_CAND
from kernels.tokaido.bots.tier import policy_nb
from kernels.tokaido.core.enums import Bot, Deck, P, Space
from kernels.tokaido.core.weights import HF, W
from sim.games.tokaido.bots import bot_weights
from sim.games.tokaido.tuning.duel import play_duel
from tests.helpers.matsuri_positions import INN1, matsuri_at, matsuri_ids, mt_config, mt_position
from tests.helpers.positions import encounter_ids, make_rules

PADDY, ENC, HOT, MOUNTAIN, TEMPLE = 18, 20, 22, 23, 16
CANDS = [PADDY, ENC, HOT, MOUNTAIN, TEMPLE]
TRAV = ["chuubei", "sasayakko", "kinko", "satsuki"]


def kept(kind, tier="expert", **kw):
    """Everyone at Inn 14 (traveler 0 about to move), card ``kind`` kept there; everyone plays ``tier``."""
    rs = make_rules(mt_config(4))
    kw.setdefault("coins", [5, 5, 5, 5])
    bot = {"greedy": Bot.GREEDY, "tuned": Bot.TUNED, "expert": Bot.EXPERT}[tier]
    pos = mt_position(rs, stack=[kind], positions=[INN1] * 4, travelers=TRAV, bots=bot, **kw)
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(rs, kind)[0]
    matsuri_at(pos, INN1)
    w = bot_weights(tier, rs.rules, rs.config)
    for t in range(4):
        pos.ru["botw"][t] = w
    return pos


def weights(pos, **changes):
    w = pos.ru["botw"][0].copy()
    for k, v in changes.items():
        w[getattr(W, k.upper())] = v
    return w


def move_values(pos, w):
    """The heuristic tiers' value of each candidate in ``CANDS`` for traveler 0 with weights ``w``."""
    pos.pub["cand"][: len(CANDS)] = CANDS
    move_values_nb(pos.pub, pos.ru, 0, w, len(CANDS), w[W.EXPERT] > 0.5)
    return dict(zip(CANDS, pos.pub["bscr"][B_CAND : B_CAND + len(CANDS)].copy(), strict=True))


def bonus(pos, tier="expert"):
    """What the leg card adds to each candidate: values with it minus values with ``m_leg_stop = 0``."""
    w = pos.ru["botw"][0]
    if tier == "greedy":  # greedy's per-type values land in pub['fscr']
        out = []
        for scale in (1.0, 0.0):
            pos.ru["botw"][0] = weights(pos, m_leg_stop=scale)
            pos.pub["cand"][:2] = [PADDY, ENC]
            choose_move_nb(pos.pub, pos.ru, 0, 0, 2)
            out.append(pos.pub["fscr"][:9].copy())
        pos.ru["botw"][0] = w
        return out[0] - out[1]
    on, off = move_values(pos, weights(pos)), move_values(pos, weights(pos, m_leg_stop=0.0))
    return {s: on[s] - off[s] for s in CANDS}


@pytest.mark.parametrize("tier", ["tuned", "expert"])
def test_ohanami_panorama_stops_gain_the_coin_at_the_tiers_coin_value(tier):
    """o-Hanami (002:L1037-1039): a coin at every panorama stop, worth what the tier's coin model says."""
    pos = kept("ohanami", tier)
    d = bonus(pos)
    w = weights(pos)
    context_nb(pos.pub, pos.ru, 0, w, w[W.EXPERT] > 0.5)
    coin = coin_value_nb(pos.pub, 0, w, pos.ru["params"][P.M_HANAMI_COINS])
    assert coin > 0
    assert d[PADDY] == pytest.approx(coin) and d[MOUNTAIN] == pytest.approx(coin)
    assert d[ENC] == d[HOT] == d[TEMPLE] == 0.0


def test_greedy_values_the_ohanami_coin_at_its_coin_weight():
    """Greedy: the same coin at its point-per-coin weight; other station types unchanged."""
    pos = kept("ohanami", "greedy")
    d = bonus(pos, "greedy")
    cw = pos.ru["botw"][0][W.COIN]
    assert [d[t] for t in (Space.PADDY, Space.MOUNTAIN, Space.SEA)] == pytest.approx([cw] * 3)
    assert d[Space.FARM] == d[Space.ENCOUNTER] == d[Space.TEMPLE] == d[Space.VILLAGE] == 0.0


def test_hadaka_adds_the_tiers_own_encounter_value_to_a_hot_spring():
    """Hadaka (002:L1035-1036): a free Encounter before the Hot Spring, worth the tier's blind Encounter."""
    pos = kept("hadaka")
    d = bonus(pos)
    w = weights(pos)
    context_nb(pos.pub, pos.ru, 0, w, w[W.EXPERT] > 0.5)
    enc = encounter_value_nb(pos.pub, pos.ru, 0, w)
    assert enc > 0 and d[HOT] == pytest.approx(enc)
    assert d[PADDY] == d[ENC] == d[MOUNTAIN] == 0.0


def test_gion_is_worth_the_best_encounter_left_over_a_blind_draw():
    """Gion (002:L1040-1042): the stopper takes any card of the pile: the best one instead of the mean."""
    rs = make_rules(mt_config(4))
    low = encounter_ids(rs, ("annaibito", 0), ("annaibito", 1), ("annaibito", 2))
    (samurai,) = encounter_ids(rs, "samurai")
    pos = kept("gion", piles={Deck.ENCOUNTER: [*low, samurai]})
    gone = [c for c in range(len(rs.rules.encounters)) if c not in (*low, samurai)]
    for c in gone:  # the other Encounters joined collections: the pile is public knowledge
        pos.pub["gone"][Deck.ENCOUNTER] |= 1 << c
    pos.pub["mkt"][2, :] = 0  # no Calligraphy to buy: the base action is the station's value
    d = bonus(pos)
    w = weights(pos)
    context_nb(pos.pub, pos.ru, 0, w, w[W.EXPERT] > 0.5)
    vals = [encounter_card_value_nb(pos.pub, pos.ru, 0, w, c) for c in (*low, samurai)]
    assert d[ENC] == pytest.approx(max(vals) - np.mean(vals)) and d[ENC] > 0
    assert d[HOT] == d[PADDY] == 0.0


@pytest.mark.parametrize("sections,points", [(0, 2), (1, 3), (2, 4), (3, 0)])
def test_yama_no_ko_is_worth_the_section_after_the_next(sections, points):
    """Yama no Ko (002:L1546-1553): an extra Mountain section first, so the stop takes two; the second
    one's points are the bonus (none when the extra section completes the 4-card Mountain; its
    achievement is taken here)."""
    pos = kept("yama_no_ko", panoramas={0: [0, sections, 0]}, pan_ach=0b010)
    d = bonus(pos)
    assert d[MOUNTAIN] == pytest.approx(pos.ru["botw"][0][W.HF0 + HF.PTS] * points)
    assert d[PADDY] == d[ENC] == 0.0


def test_otaue_is_a_point_and_the_ranking_step_at_a_paddy():
    """o-Taue (002:L1554-1562): a bank coin on the Temple in the stopper's name at a Paddy."""
    pos = kept("otaue", donated=[0, 1, 0, 0])
    d = bonus(pos)
    w = weights(pos)
    rank = rank_bonus_nb(pos.pub, pos.ru, 0, 1) - rank_bonus_nb(pos.pub, pos.ru, 0, 0)
    assert rank > 0
    assert d[PADDY] == pytest.approx(w[W.HF0 + HF.PTS] + w[W.HF0 + HF.TEMPLE_RANK] * rank)
    assert d[MOUNTAIN] == d[TEMPLE] == 0.0


def keep_value(pos, kind, **changes):
    pos.ru["botw"][0] = weights(pos, **changes)
    (c,) = matsuri_ids(pos.rs, kind)
    return card_value_nb(pos.pub, pos.ru, 0, c, policy_nb(pos.pub, pos.ru, 0))


@pytest.mark.parametrize("tier", ["greedy", "expert"])
def test_keeping_yama_no_ko_counts_who_can_still_use_it(tier):
    """The keep decision values a leg card by the same stop bonuses: Yama no Ko is worth keeping for a
    chooser whose Mountain is open when the others' are complete, and worth giving away the other way."""
    mine = kept("yama_no_ko", tier, panoramas={0: [0, 0, 0], 1: [0, 4, 0], 2: [0, 4, 0], 3: [0, 4, 0]})
    theirs = kept("yama_no_ko", tier, panoramas={0: [0, 4, 0], 1: [0, 0, 0], 2: [0, 0, 0], 3: [0, 0, 0]})
    for pos, sign in ((mine, 1.0), (theirs, -1.0)):
        gain = keep_value(pos, "yama_no_ko") - keep_value(pos, "yama_no_ko", m_leg_share=0.0)
        assert sign * gain > 0.0


def test_keeping_a_closure_counts_whose_stations_it_closes():
    """Toka Ebisu closes the leg's Village: a chooser with no coin loses nothing there, rich opponents
    lose their best stop, so the closure is worth more to keep than its flat value."""
    pos = kept("toka_ebisu", coins=[0, 9, 9, 9], families={1: [1, 1, 1], 2: [1, 1, 1], 3: [1, 1, 1]})
    gain = keep_value(pos, "toka_ebisu") - keep_value(pos, "toka_ebisu", m_leg_share=0.0)
    assert gain > 0.0


def test_a_duel_of_identical_weights_is_even():
    """``sim.games.tokaido.tuning.duel``: every deal is played twice with the seats swapped, so two equal
    weight vectors
    share the wins exactly (the design, not luck: both plays of a deal are the same game)."""
    config = mt_config(4, travelers="draft", bots=("greedy",))
    w = bot_weights("greedy", config.rules(), config)
    res, _ = play_duel(config, w, w, 8, 3, 1)
    assert res.games == 16 and res.win_a == 0.5 and res.pair_a == 0.5
