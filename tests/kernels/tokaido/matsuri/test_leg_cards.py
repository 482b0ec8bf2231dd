"""Matsuri rules of the leg and next-Inn cards, closed spaces, the data and whole games (seed 002).

Hand-built positions (``tests/helpers/matsuri_positions.py``): the Matsuri of the first intermediate Inn
(space 14) puts a card in play, then a traveler stops on a station of the next leg (15-26: Temples
16 and 21, Farm 17 double and 26, Village 25, ...). Each test cites seed 002 (``002:L...``) or the
default M-choice it checks.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.tokaido.core.board import legal_moves_nb
from kernels.tokaido.core.enums import PF, Bot, Deck, Ev, G, Opt, PanSrc, Space
from sim.games.tokaido.engine import play_games
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from sim.games.tokaido.rules.tables import RulesError
from tests.helpers.matsuri_positions import INN1, INN2, matsuri_at, matsuri_ids, mt_config, mt_position
from tests.helpers.positions import BOTH, begin_turn, encounter_ids, make_rules, xmove

TEMPLES, FARM_D, FARM_S, VILLAGE = (16, 21), 17, 26, 25
HOT, MOUNTAIN, PADDY, ENC = 22, 23, 18, 20  # more spaces of that leg (checked below)


def played(r, kind, n=4, stack_extra=(), **kw):
    """Everyone at Inn 14 and card ``kind`` kept there (both drawn cards are ``kind``)."""
    nt = n + 1 if n == 2 else n
    kw.setdefault("positions", [INN1] * nt)
    kw.setdefault("travelers", ["chuubei", "sasayakko", "kinko", "satsuki", "hirotada"][:n])
    pos = mt_position(r, stack=[kind, *stack_extra], **kw)
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, kind)[0]
    matsuri_at(pos, INN1)
    pos.clear_log()
    return pos


def legal(pos, t):
    n = pos.k(legal_moves_nb)(pos.pub, pos.ru, t)
    return [int(s) for s in pos.pub["cand"][:n]]


def test_board_spaces_of_the_first_leg():
    """game-data.md 1.1 (the board the tests name): Temples 16, 21; Farms 17 (double), 26; Village 25."""
    b = make_rules(mt_config(4)).rules
    assert [b.board_types[s] for s in (16, 21, 17, 26, 25)] == [Space.TEMPLE] * 2 + [Space.FARM] * 2 + [
        Space.VILLAGE
    ]
    assert b.board_double[17] and not b.board_double[26]
    assert [b.board_types[s] for s in (HOT, MOUNTAIN, PADDY, ENC)] == [
        Space.HOT_SPRING,
        Space.MOUNTAIN,
        Space.PADDY,
        Space.ENCOUNTER,
    ]


# ------------------------------------------------------------------ closures
@BOTH
def test_kamiarisai_closes_the_temples_of_the_next_leg_for_everyone(mode):
    """002:L1043-1047, M10, M12: every Temple of the next leg closes (single Temples completely): no legal
    stop for anyone, the Neutral included; Closed Space tokens mark them; passing stays legal."""
    r = make_rules(mt_config(2))
    pos = played(r, "kamiarisai", n=2, mode=mode)
    assert [(e[2], e[3]) for e in pos.events(Ev.CLOSE)] == []  # rows were cleared: check the state
    assert pos.gs[G.M_CLOSED] == (1 << 16) | (1 << 21) and pos.gs[G.M_TOKENS] == 2
    for t in range(3):
        moves = legal(pos, t)
        assert 16 not in moves and 21 not in moves and 22 in moves


def test_closures_are_logged_in_board_order():
    """002:L1043-1047 ("Place the Closed Space tokens"): one CLOSE row per token."""
    r = make_rules(mt_config(4))
    pos = mt_position(
        r, stack=["mura"], positions=[INN1] * 4, travelers=["chuubei", "sasayakko", "kinko", "satsuki"]
    )
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "mura")[0]
    matsuri_at(pos, INN1)
    assert [(e[2], e[3]) for e in pos.events(Ev.CLOSE)] == [(FARM_D, 0), (FARM_S, 1)]


def test_mura_matsuri_a_double_farm_becomes_single_at_four_players():
    """002:L1053-1057, M11: a double Farm loses its second space (one traveler at most) at 4-5 players; at
    2-3 players, where the second space is not in play, the card closes only the single Farms."""
    r = make_rules(mt_config(4))
    pos = played(r, "mura")
    assert (pos.gs[G.M_HALF] >> FARM_D) & 1 and (pos.gs[G.M_CLOSED] >> FARM_S) & 1
    pos.pub["occ"][FARM_D] = 1  # someone stands there: the half-closed double is full
    assert FARM_D not in legal(pos, 0) and FARM_S not in legal(pos, 0)
    r3 = make_rules(mt_config(3))
    pos3 = played(r3, "mura", n=3)
    assert pos3.gs[G.M_HALF] == 0 and pos3.gs[G.M_CLOSED] == 1 << FARM_S


def test_toka_ebisu_closes_villages_and_closures_end_at_the_next_inn():
    """002:L1048-1052 and A.3: the closure holds until the next Inn; the tokens come off when everyone
    has arrived there."""
    r = make_rules(mt_config(4))
    pos = played(r, "toka_ebisu", stack_extra=("setsubun",))
    assert pos.gs[G.M_CLOSED] == 1 << VILLAGE and VILLAGE not in legal(pos, 0)
    pos.ps[:4, PF.POS] = INN2
    pos.pub["occ"][:] = 0
    pos.pub["occ"][INN2] = 4
    matsuri_at(pos, INN2, inn=1)
    assert pos.gs[G.M_CLOSED] == 0 and pos.gs[G.M_TOKENS] == 0


def test_no_more_than_four_closed_space_tokens():
    """002:L269-276 (4 Closed Space tokens) and M10: `matsuri.closed_space_tokens` caps the closures."""
    r = make_rules(mt_config(4), m_closed_tokens=1)
    pos = played(r, "kamiarisai")
    assert pos.gs[G.M_CLOSED] == 1 << 16 and pos.gs[G.M_TOKENS] == 1


def test_friendship_opens_a_half_closed_double_but_not_a_closed_space():
    """M12: Friendship cannot open a fully closed station; a half-closed double is a single space, which
    Friendship may share (`matsuri.choices.friendship_on_half_closed`)."""
    from tests.helpers.positions import give_amulets

    r = make_rules(mt_config(4))
    pos = played(r, "mura")
    pos.ps[1, PF.POS] = FARM_D
    pos.pub["occ"][INN1] -= 1
    pos.pub["occ"][FARM_D] = 1
    give_amulets(pos, 0, "friendship")
    pos.ps[2, PF.POS] = pos.ps[3, PF.POS] = 23
    t, _, moves = begin_turn(pos)
    assert t == 0 and FARM_D in moves and FARM_S not in moves
    pos.ru["params"][__import__("kernels.tokaido.core.enums", fromlist=["P"]).P.M_FRIENDSHIP_HALF] = 0
    _, _, moves = begin_turn(pos)
    assert FARM_D not in moves


# ------------------------------------------------------------------ leg cards at a stop
def test_hadaka_matsuri_an_encounter_before_the_hot_spring():
    """002:L1035-1036, M7: a stopper at a Hot Spring may first draw an Encounter (blind) and resolve it,
    then make the usual Hot Spring choice."""
    r = make_rules(mt_config(4))
    pos = played(r, "hadaka", top={Deck.ENCOUNTER: encounter_ids(r, "samurai")})
    xmove(pos, 0, HOT)
    kinds = [e[0] for e in pos.events()]
    assert pos.events(Ev.OPTION)[0][2:4] == (Opt.HADAKA, 1)
    assert kinds.index(Ev.OPTION) < kinds.index(Ev.CHOICE)
    assert pos.ps[0, PF.ENCOUNTERS] == 1 and pos.ps[0, PF.PTS_ENCOUNTERS] == 3


def test_hadaka_encounter_gives_umegae_her_bonus():
    """002:L1027 (Umegae "earns 1 point and 1 coin for each Encounter"), M7: Hadaka's Encounter at a
    Hot Spring is a real Encounter, so she takes +1 point +1 coin before the card (samurai: 3 points)."""
    r = make_rules(mt_config(4))
    pos = played(
        r,
        "hadaka",
        coins=[3, 3, 3, 3],
        travelers=["umegae", "sasayakko", "kinko", "satsuki"],
        top={Deck.ENCOUNTER: encounter_ids(r, "samurai")},
    )
    xmove(pos, 0, HOT)
    assert pos.events(Ev.OPTION)[0][2:4] == (Opt.HADAKA, 1)
    assert pos.ps[0, PF.ENCOUNTERS] == 1 and pos.ps[0, PF.PTS_ENCOUNTERS] == 3
    assert (
        pos.ps[0, PF.PTS_OTHER] == 1 and pos.ps[0, PF.COINS] + pos.ps[0, PF.BATHHOUSES] == 4
    )  # a Bathhouse costs 1


def test_ohanami_a_coin_at_every_panorama_stop():
    """002:L1037-1039, M8: a stopper at a panorama gets 1 coin more, whichever option it takes."""
    r = make_rules(mt_config(4))
    pos = played(r, "ohanami", coins=[3, 3, 3, 3])
    xmove(pos, 0, PADDY)
    assert pos.ps[0, PF.COINS] - 3 in (1, 2)  # +1 (a section) or +1 +1 (a Cherry Tree)
    assert pos.ps[0, PF.COINS] - 3 == 1 + (pos.ps[0, PF.CHERRY])


@BOTH
def test_gion_matsuri_the_stopper_chooses_its_encounter_and_the_pile_is_reshuffled(mode):
    """002:L1040-1042, M9: at an Encounter the stopper chooses the card from the pile instead of drawing
    blind; the pile is then reshuffled (DECK rows give its new order)."""
    r = make_rules(mt_config(4))
    *low, samurai = encounter_ids(r, ("annaibito", 0), ("annaibito", 1), ("annaibito", 2), "samurai")
    pile = [*low, samurai]  # a first panorama section is worth 1, Samurai 3
    pos = played(r, "gion", piles={Deck.ENCOUNTER: pile}, mode=mode)
    xmove(pos, 0, ENC)
    (pick,) = pos.events(Ev.PICK)
    assert pick[1:4] == (0, Deck.ENCOUNTER, samurai)  # the greedy best card, from the bottom
    order = [e[3] for e in pos.events(Ev.DECK)]
    assert sorted(order) == sorted(pile[:-1]) and pos.pile(Deck.ENCOUNTER) == order
    assert pos.events(Ev.DRAW) == [] or all(e[2] != Deck.ENCOUNTER for e in pos.events(Ev.DRAW))


def test_yama_no_ko_an_extra_mountain_section_first():
    """002:L1546-1553, M25: a stopper at a Mountain may first take an extra section, then the usual choice."""
    r = make_rules(mt_config(4))
    pos = played(r, "yama_no_ko")
    xmove(pos, 0, MOUNTAIN)
    pans = pos.events(Ev.PANORAMA)
    assert pans[0][1:4] == (0, 1, PanSrc.YAMA_NO_KO)
    assert pos.ps[0, PF.PAN1] == 1 + sum(1 for e in pans if e[3] == PanSrc.STATION)


def test_otaue_a_bank_coin_on_the_temple_first():
    """002:L1554-1562, M26: a stopper at a Paddy may first give a bank coin to the Temple in its name
    (1 point, counted for the ranking)."""
    r = make_rules(mt_config(4))
    pos = played(r, "otaue")
    xmove(pos, 0, PADDY)
    assert pos.events(Ev.OPTION)[0][2:4] == (Opt.OTAUE, 1)
    assert pos.ps[0, PF.DONATED] == 1 and pos.ps[0, PF.PTS_TEMPLE] == 1


# ------------------------------------------------------------------ next Inn
def test_choyo_meals_one_coin_less_and_two_more_cards():
    """002:L1537-1545, M24: at the next Inn every meal costs 1 less (cost-1 meals are free) and the first
    to arrive draws 2 more meal cards (4 players: 7)."""
    r = make_rules(mt_config(4))
    pos = played(r, "choyo", coins=[9, 9, 9, 9])
    pos.ps[:4, PF.POS] = INN2 - 1
    pos.pub["occ"][:] = 0
    pos.pub["occ"][INN2 - 1] = 4
    xmove(pos, 0, INN2)
    assert sum(1 for e in pos.events(Ev.DRAW) if e[2] == Deck.MEAL) == 7
    (gain,) = [e for e in pos.events(Ev.GAIN) if e[2] == Deck.MEAL]
    assert gain[4] == r.rules.meals[gain[3]].cost - 1 or (gain[4] == 0 and r.rules.meals[gain[3]].cost == 1)


# ------------------------------------------------------------------ data and whole games
def test_matsuri_needs_crossroads_and_its_rules_are_overridable():
    """002:L284-285 (A1): Matsuri alone is refused in one line; `--set matsuri.*` changes the rule data,
    a wrong timing or kind is refused naming the card."""
    with pytest.raises(ConfigError, match="Matsuri needs Crossroads"):
        GameConfig(n_players=3, expansions=("matsuri",))
    cfg = mt_config(3, overrides=(("matsuri.choyo_discount", 2),))
    assert (
        cfg.rules().tables()["params"][
            __import__("kernels.tokaido.core.enums", fromlist=["P"]).P.M_CHOYO_DISCOUNT
        ]
        == 2
    )
    from sim.games.tokaido.rules.tables import _read_data, build_rules

    raw = _read_data()
    raw["rules"]["_crossroads"] = raw["rules"]["_matsuri"] = True
    raw["matsuri"]["card"][6]["timing"] = "leg"
    with pytest.raises(RulesError, match=r"card 7 \(o-Bon\): a obon card acts with timing 'now'"):
        build_rules(raw)


@pytest.mark.parametrize("n", [2, 4, 5])
def test_whole_matsuri_games_points_sum_and_columns(n):
    """Whole games (A.6, M27): points by source still sum to the score; three Matsuri Inns each keep a
    card; without Matsuri the columns are empty (-1 / 0)."""
    cfg = mt_config(n, travelers="draft", bots=("greedy",))
    b = play_games(cfg, cfg.rules(), 3, 0, 60)
    rec = b.records
    pts = sum(rec[f].astype(int) for f in rec.dtype.names if f.startswith("pts_"))
    assert np.array_equal(pts, rec["score"])
    assert (rec["matsuri_inn3"] >= 0).all() and (rec["matsuri_tokens"] >= 0).all()
    base = GameConfig(n_players=n, expansions=("crossroads",), bots=("greedy",))
    rb = play_games(base, base.rules(), 3, 0, 20).records
    assert (rb["matsuri_inn1"] == -1).all() and (rb["pts_matsuri"] == 0).all()
    assert Bot.GREEDY in set(rec["bot"].tolist())


def test_return_trip_closures_follow_the_reversed_board():
    """A.5 and A.7: with Return Trip the legs flip; Kamiarisai closes the Temples between the reversed
    board's first intermediate Inn and the next (single closed, double half closed at 4 players)."""
    r = make_rules(mt_config(4, variants=("return-trip",)))
    types, double = r.rules.board_types, r.rules.board_double
    inns = [s for s, t in enumerate(types) if t == Space.INN]
    s1, s2 = inns[1], inns[2]
    temples = [s for s in range(s1 + 1, s2) if types[s] == Space.TEMPLE]
    pos = mt_position(
        r, stack=["kamiarisai"], positions=[s1] * 4, travelers=["chuubei", "sasayakko", "kinko", "satsuki"]
    )
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "kamiarisai")[0]
    matsuri_at(pos, s1)
    assert temples and [e[2] for e in pos.events(Ev.CLOSE)] == temples
    for s in temples:
        assert (pos.gs[G.M_HALF if double[s] else G.M_CLOSED] >> s) & 1
