"""Matsuri rules of the trigger and the cards that act at once (seed 002, its Matsuri pages).

Hand-built positions (``tests/helpers/matsuri_positions.py``): everyone at an Inn, the Matsuri stack in a
chosen order, then the Matsuri that the last arrival triggers. Each test cites the seed 002 line(s)
(``002:L...``, as in ../shared/research/expansions.md part A) or the default M-choice it checks.
"""

from __future__ import annotations

from kernels.tokaido.core.enums import PF, Bot, Deck, DieSrc, Ev, G, Opt, PanSrc
from kernels.tokaido.core.events import Token
from kernels.tokaido.game.turn import end_scoring_nb
from tests.helpers.matsuri_positions import EDO, INN1, matsuri_at, matsuri_ids, mt_config, mt_position
from tests.helpers.positions import BOTH, amulet_ids, calligraphy_ids, give_amulets, make_rules

SMALL, FOOD, CLOTHING, ART = 0, 1, 2, 3
RS4 = None


def rs(n: int = 4, **kw):
    return make_rules(mt_config(n), **kw)


def at_inn(r, n=4, **kw):
    """Everyone at the first intermediate Inn, arrived in traveler order (0 first)."""
    nt = n + 1 if n == 2 else n
    kw.setdefault("positions", [INN1] * nt)
    kw.setdefault("travelers", ["chuubei", "sasayakko", "kinko", "satsuki", "hirotada"][:n])
    return mt_position(r, **kw)


def kept(pos):
    return [e for e in pos.events(Ev.MATSURI)]


# ------------------------------------------------------------------ the trigger
@BOTH
def test_first_arrival_draws_two_keeps_one_the_other_goes_under(mode):
    """002:L1264-1271: once all have arrived and eaten, the first to arrive draws 2 Matsuri, keeps 1
    face up and puts the other under the stack unseen (M3, M5)."""
    r = rs()
    pos = at_inn(r, arrival=[3, 1, 2, 4], stack=["hina", "obon"], mode=mode)
    hina, obon = matsuri_ids(r, "hina", "obon")
    matsuri_at(pos, INN1)
    draws = [e for e in pos.events(Ev.DRAW) if e[2] == Deck.MATSURI]
    assert [(e[1], e[3]) for e in draws] == [(1, hina), (1, obon)]  # traveler 1 arrived first
    (m,) = pos.events(Ev.MATSURI)
    assert m[1] == 1 and {m[2], m[3]} == {hina, obon} and m[4] == 1 and m[5] == 0
    assert pos.pile(Deck.MATSURI)[-1] == m[3]  # the rejected card is under the stack
    assert pos.gs[G.M_KEPT0] == m[2] + 1 and pos.gs[G.M_REJ0] == m[3] + 1 and pos.gs[G.M_INN] == 1


def test_matsuri_comes_after_the_last_arrivals_meal():
    """002:L1264-1265 and M2: the Matsuri is drawn once the last Traveler has arrived and bought its meal."""
    r = rs()
    pos = at_inn(
        r,
        positions=[INN1, INN1, INN1, INN1 - 1],
        travelers=["chuubei", "sasayakko", "kinko", "hirotada"],
        stack=["setsubun"],
        hand=[0, 6, 12],
        coins=[5, 5, 5, 5],
    )
    pos.pub["occ"][INN1 - 1] = 1
    pos.stop(3, INN1)
    ev = pos.events()
    kinds = [e[0] for e in ev]
    assert Ev.MATSURI in kinds
    meal = [i for i, e in enumerate(ev) if e[0] in (Ev.GAIN, Ev.UNDER) and e[2] == Deck.MEAL]
    assert meal and kinds.index(Ev.MATSURI) > max(meal)


def test_no_matsuri_at_edo_and_only_three():
    """002:L1262-1263 (A6): a Matsuri happens at each of the 3 intermediate Inns only."""
    r = rs()
    pos = at_inn(r, positions=[EDO] * 4, stack=["setsubun"])
    matsuri_at(pos, EDO, inn=2)
    assert pos.events(Ev.MATSURI) == []
    pos = at_inn(r, stack=["setsubun"])
    matsuri_at(pos, INN1, inn=3)
    assert pos.events(Ev.MATSURI) == []


def test_two_players_the_first_player_chooses_and_the_neutral_takes_nothing():
    """M4 and M28: with 2 players the first *player* to arrive chooses (the Neutral arrived first);
    the Neutral takes part in no card (here Setsubun: two rolls, none for the Neutral)."""
    r = rs(2)
    pos = at_inn(r, n=2, arrival=[2, 3, 1], stack=["setsubun", "oshogatsu"])
    matsuri_at(pos, INN1)
    (m,) = pos.events(Ev.MATSURI)
    assert m[1] == 0
    assert {e[1] for e in pos.events(Ev.DIE)} == {0, 1}
    assert pos.ps[2, PF.SCORE] == 0 and pos.ps[2, PF.COINS] == 0


def test_bot_keeps_the_card_worth_more_to_it_than_to_the_others():
    """M5: the choice of 1 of 2 is a decision; the greedy bot keeps Hina matsuri (only it, female,
    gets a Doll) over Tango (three male opponents get a Carp)."""
    r = rs()
    pos = at_inn(r, travelers=["sasayakko", "chuubei", "kinko", "hirotada"], stack=["tango", "hina"])
    matsuri_at(pos, INN1)
    (m,) = pos.events(Ev.MATSURI)
    assert m[2] == matsuri_ids(r, "hina")[0]


# ------------------------------------------------------------------ cards that act at once
@BOTH
def test_obon_optional_donation_in_arrival_order(mode):
    """002:L1273-1279 and M14: in arrival order each Traveler may give 1-3 coins to the Temple, 1 point
    each, counted for the ranking; no Temple ability (Hirotada takes no bank coin)."""
    r = rs()
    pos = at_inn(
        r,
        travelers=["chuubei", "sasayakko", "kinko", "hirotada"],
        arrival=[4, 3, 2, 1],
        coins=[9, 0, 9, 9],
        stack=["obon"],
        bots=Bot.RANDOM,
        mode=mode,
    )
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "obon")[0]  # both drawn cards are o-Bon
    matsuri_at(pos, INN1)
    opts = pos.events(Ev.OPTION)
    assert [e[1] for e in opts] == [3, 2, 0] and all(e[2] == Opt.OBON for e in opts)  # no coins: no row
    for e in opts:
        t, d = e[1], e[3]
        assert 0 <= d <= 3 and pos.ps[t, PF.DONATED] == d and pos.ps[t, PF.PTS_TEMPLE] == d
    assert pos.events(Ev.DONATE) == []


def test_obon_greedy_gives_what_it_can_spare():
    """002:L1273-1279: a rich greedy bot donates (a point per coin and the ranking), a poor one keeps
    its meal money."""
    r = rs()
    pos = at_inn(r, coins=[12, 1, 12, 12], stack=["obon"])
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "obon")[0]  # both drawn cards are o-Bon's id
    matsuri_at(pos, INN1)
    donated = {e[1]: e[3] for e in pos.events(Ev.OPTION)}
    assert donated[0] > 0 and donated[1] == 0


@BOTH
def test_tori_no_ichi_free_amulet_for_those_without(mode):
    """002:L1280-1285 and M15: each Traveler holding no Amulet gets a random free one from those left;
    a holder gets nothing; when the market runs dry the later ones get nothing."""
    r = rs()
    pos = at_inn(r, stack=["tori_no_ichi"], markets={"amulets": ["vitality", "health"]}, mode=mode)
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "tori_no_ichi")[0]
    give_amulets(pos, 1, "fortune")
    matsuri_at(pos, INN1)
    gains = [e for e in pos.events(Ev.GAIN) if e[2] == Deck.AMULET]
    assert [e[1] for e in gains] == [0, 2]  # 1 holds one; 3 comes after the market ran dry
    assert {e[3] for e in gains} == set(amulet_ids(r, "vitality", "health")) and all(e[4] == 0 for e in gains)
    assert pos.ps[3, PF.AMULETS] == 0


def test_hina_matsuri_doll_is_worth_five_worked_example():
    """002:L1286-1291, L1457-1461: Sasayakko (female) holds an art and a food Souvenir; the Doll is the
    3rd Souvenir of the set: 5 points. Males get nothing."""
    r = rs()
    pos = at_inn(
        r, travelers=["chuubei", "sasayakko", "kinko", "satsuki"], stack=["hina"], families={1: [0, 1, 0, 1]}
    )
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "hina")[0]
    matsuri_at(pos, INN1)
    toks = pos.events(Ev.TOKEN)
    assert [(e[1], e[2]) for e in toks] == [(1, Token.DOLL), (3, Token.DOLL)]
    assert toks[0][3] == 5 and pos.ps[1, PF.PTS_MATSURI] == 5 and pos.ps[1, PF.DOLLS] == 1
    assert pos.ps[0, PF.PTS_MATSURI] == 0


def test_tango_carp_starts_a_new_set_worked_example():
    """002:L1462-1474: Chuubei (male) holds art, food and small objects (1+3+5 = 9): the Carp starts a
    new set: 1 point."""
    r = rs()
    pos = at_inn(
        r, travelers=["chuubei", "sasayakko", "kinko", "satsuki"], stack=["tango"], families={0: [1, 1, 0, 1]}
    )
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "tango")[0]
    matsuri_at(pos, INN1)
    toks = pos.events(Ev.TOKEN)
    assert [(e[1], e[2], e[3]) for e in toks] == [(0, Token.CARP, 1), (2, Token.CARP, 1)]
    assert pos.ps[0, PF.CARPS] == 1 and pos.ps[0, PF.FAM0 + SMALL] == 2


def test_doll_is_no_souvenir_for_collector_shodo_or_emaki():
    """002:L1475-1478 and M17: the token joins the Small-objects slots for set scoring but not the
    Souvenir count (Collector, Nostalgia) and earns no Shodo/Emaki bonus."""
    r = rs()
    pos = at_inn(
        r, travelers=["chuubei", "sasayakko", "kinko", "satsuki"], stack=["hina"], fields={1: {"SCRIPTS": 1}}
    )
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "hina")[0]
    matsuri_at(pos, INN1)
    assert pos.ps[1, PF.SOUVENIRS] == 0 and pos.ps[1, PF.PTS_LEGENDARY] == 0 and pos.ps[1, PF.FAM0] == 1


def test_hanabi_brings_two_more_cards_into_play():
    """002:L1479-1483 and M18: the chooser draws 2 more Matsuri; both come into play and apply."""
    r = rs()
    pos = at_inn(r, stack=["hanabi", "hanabi", "setsubun", "oshogatsu"])
    hanabi, sets, osho = matsuri_ids(r, "hanabi", "setsubun", "oshogatsu")
    pos.hid["deck"][Deck.MATSURI, 1] = hanabi
    pos.hid["deck"][Deck.MATSURI, 2:4] = [sets, osho]
    matsuri_at(pos, INN1)
    ms = pos.events(Ev.MATSURI)
    assert [(e[2], e[5]) for e in ms] == [(hanabi, 0), (sets, 1), (osho, 1)]
    assert {e[4] for e in pos.events(Ev.DIE)} == {DieSrc.SETSUBUN, DieSrc.SHOGATSU}
    assert pos.gs[G.M_HANABI0] == sets + 1 and pos.gs[G.M_HANABI0 + 1] == osho + 1


def test_ofune_sea_for_everyone_shared_completion():
    """002:L1484-1493 and M19: everyone takes the next Sea section; a completed Sea gets nothing;
    several completing together each score the 3-point achievement (the first the card, the others
    a 3-point token, each counting as holding it)."""
    r = rs()
    pos = at_inn(r, stack=["ofune"], panoramas={0: [0, 0, 4], 1: [0, 0, 4], 2: [0, 0, 5], 3: [0, 0, 1]})
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "ofune")[0]
    matsuri_at(pos, INN1)
    pans = pos.events(Ev.PANORAMA)
    assert [(e[1], e[2], e[3]) for e in pans] == [
        (0, 2, PanSrc.OFUNE),
        (1, 2, PanSrc.OFUNE),
        (3, 2, PanSrc.OFUNE),
    ]
    assert pos.ps[0, PF.PTS_ACHIEVEMENTS] == 3 and pos.ps[0, PF.PTS_MATSURI] == 0
    assert pos.ps[1, PF.PTS_MATSURI] == 3 and pos.ps[1, PF.ACHIEVEMENTS] == 1
    assert pos.ps[2, PF.SCORE] == 0 and pos.ps[3, PF.PAN2] == 2


@BOTH
def test_oshogatsu_coins_and_setsubun_points_equal_the_face(mode):
    """002:L1494-1505 and M20: each Traveler rolls the Fortune die: o-Shogatsu gains the face in coins,
    Setsubun scores it in Journey points."""
    r = rs()
    pos = at_inn(r, coins=[0, 0, 0, 0], stack=["oshogatsu"], mode=mode)
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "oshogatsu")[0]
    matsuri_at(pos, INN1)
    for e in pos.events(Ev.DIE):
        assert e[3] == 0 and e[4] == DieSrc.SHOGATSU and pos.ps[e[1], PF.COINS] == e[2]
    pos = at_inn(r, stack=["setsubun"], mode=mode, seed=7)
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "setsubun")[0]
    matsuri_at(pos, INN1)
    dies = pos.events(Ev.DIE)
    assert len(dies) == 4
    for e in dies:
        assert pos.ps[e[1], PF.PTS_MATSURI] == e[2] == pos.ps[e[1], PF.SCORE]


def test_tanabata_ties_each_take_two_points():
    """002:L1506-1515 and M21: the four achievements judged now: every tied leader takes a 2-point
    token; the cards stay out (no achievement counted)."""
    r = rs()
    pos = at_inn(
        r, stack=["tanabata"], fields={0: {"HOT_SPRINGS": 2}, 1: {"HOT_SPRINGS": 2}, 2: {"MEAL_VALUE": 3}}
    )
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "tanabata")[0]
    matsuri_at(pos, INN1)
    toks = [(e[1], e[5]) for e in pos.events(Ev.TOKEN)]
    assert sorted(toks) == [(0, 1), (1, 1), (2, 0)]
    assert all(e[3] == 2 for e in pos.events(Ev.TOKEN))
    assert pos.ps[:4, PF.ACHIEVEMENTS].sum() == 0


def test_otsukimi_shared_calligraphy_scores_for_everyone():
    """002:L1516-1526 and M22: the chooser lays out a Calligraphy card from the market; at the end
    every player scores it on their own collection (Contemplation: 3 per complete panorama)."""
    r = rs()
    pos = at_inn(
        r,
        stack=["otsukimi"],
        markets={"calligraphy": ["contemplation"]},
        panoramas={1: [3, 0, 0], 2: [3, 4, 0]},
    )
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "otsukimi")[0]
    matsuri_at(pos, INN1)
    (pick,) = pos.events(Ev.PICK)
    assert pick[1] == 0 and pick[2] == Deck.CALLIGRAPHY and pick[3] == calligraphy_ids(r, "contemplation")[0]
    assert pos.pub["mkt"][2].sum() == 0
    pos.k(end_scoring_nb)(pos.pub, pos.ru)
    assert [int(pos.ps[p, PF.PTS_CALLIGRAPHY]) for p in range(4)] == [0, 3, 6, 0]


def test_shishimai_interim_temple_ranking():
    """002:L1527-1536 and M23: the top three donors score 4 / 2 / 1 now; ties share, no rank skipped."""
    r = rs()
    pos = at_inn(r, stack=["shishimai"], donated=[5, 5, 3, 0])
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(r, "shishimai")[0]
    matsuri_at(pos, INN1)
    assert [int(pos.ps[p, PF.PTS_MATSURI]) for p in range(4)] == [4, 4, 2, 0]
