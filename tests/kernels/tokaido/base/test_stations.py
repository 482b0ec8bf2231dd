"""Rules of the stations: Village, Farm, Panorama, Hot Spring, Temple; the components.

Hand-made positions (``tests/helpers/positions.py``); each test quotes the rulebook
(seed 000) or names the rule choice (docs/rules-choices.md) it checks.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.tokaido.bots.policy import choose_village_nb
from kernels.tokaido.core.enums import PF, Bot, Deck, Ev, G, Space
from kernels.tokaido.core.score import gain_souvenir_nb, souvenir_gain_pts_nb, take_panorama_nb
from sim.games.tokaido.referee.scoring import souvenir_collection_points, souvenir_points
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.positions import BOTH, INNS, kern, make_position, make_rules, souvenir_ids, spaces_of

CFG3 = GameConfig(n_players=3, travelers="random")
SMALL, FOOD, CLOTHING, ART = 0, 1, 2, 3
# one card id per family, several copies: small objects koma.., food manju.., clothing haori.., art netsuke..
FAMILY_CARDS = {
    SMALL: [0, 1, 2, 3, 4, 5],
    FOOD: [6, 7, 8, 9, 10, 11],
    CLOTHING: [12, 13, 14, 15, 16, 17],
    ART: [18, 19, 20, 21, 22, 23],
}


def rs3(**kw):
    return make_rules(CFG3, **kw)


# ------------------------------------------------------------------ components
def test_components_match_the_rulebook() -> None:
    """Rulebook "Equipment" and game-data.md 1-6: 24 Souvenirs (4 families of 6, costs 1/2/3),
    25 Meals (14 dishes, 1/2/3 coins), 12 Hot Springs (2 or 3 points), 14 Encounters, panoramas of
    3/4/5 sections, a 55-space board with Inns at 0/14/27/41/54 and 24 double spaces."""
    r = rs3().rules
    assert [sum(1 for s in r.souvenirs if s.family == f) for f in range(4)] == [6, 6, 6, 6]
    assert [sum(1 for s in r.souvenirs if s.cost == c) for c in (1, 2, 3)] == [9, 12, 3]
    assert len({s.name for s in r.souvenirs}) == 24
    assert len(r.meals) == 25 and len(r.dishes) == 14
    assert [sum(1 for m in r.meals if m.cost == c) for c in (1, 2, 3)] == [9, 10, 6]
    assert sorted(h.value for h in r.hot_springs) == [2] * 6 + [3] * 6
    assert len(r.encounters) == 14
    assert r.panorama_lengths == [3, 4, 5]
    assert len(r.board_types) == 55
    assert [i for i, t in enumerate(r.board_types) if t == Space.INN] == list(INNS)
    assert sum(r.board_double) == 24
    assert [len(spaces_of(rs3(), t)) for t in range(1, 9)] == [7, 6, 5, 6, 7, 6, 6, 7]
    assert r.params["MEAL_POINTS"] == 6


# ------------------------------------------------------------------ Village
@BOTH
@pytest.mark.parametrize(
    ("name", "families", "gains"),
    [
        ("1 souvenir: 1 point", [SMALL], [1]),
        ("2 different: 4 points", [SMALL, FOOD], [1, 3]),
        ("3 different: 9 points", [SMALL, FOOD, ART], [1, 3, 5]),
        ("4 different: 16 points", [SMALL, FOOD, CLOTHING, ART], [1, 3, 5, 7]),
        ("3 of one type: 3 points", [ART, ART, ART], [1, 1, 1]),
        ("two of one type and one other: 5 points", [FOOD, FOOD, CLOTHING], [1, 1, 3]),
        ("two sets of two: 8 points", [FOOD, CLOTHING, FOOD, CLOTHING], [1, 3, 1, 3]),
    ],
)
def test_rulebook_example_souvenir_sets(mode: str, name: str, families: list[int], gains: list[int]) -> None:
    """Rulebook "Examples of souvenir collecting": "1 souvenir: 1 point", "2 souvenirs of different
    types: 4 points (1+3)", "3 ...: 9 points", "4 ...: 16 points (1+3+5+7)", "3 souvenirs, all of
    the same type ...: 3 points", "two of one type and one of another: 5 points (1+1+3)", "two
    sets of two different types each: 8 points (1+3+1+3)"."""
    pos = make_position(rs3())
    used = {f: iter(cards) for f, cards in FAMILY_CARDS.items()}
    got = []
    for f in families:
        before = int(pos.ps[0, PF.SCORE])
        kern(gain_souvenir_nb, mode)(pos.pub, pos.ru, 0, next(used[f]))
        got.append(int(pos.ps[0, PF.SCORE]) - before)
    assert got == gains
    assert pos.ps[0, PF.PTS_SOUVENIRS] == sum(gains) == int(name.split(": ")[1].split()[0])
    assert pos.ps[0, PF.SOUVENIRS] == len(families)


@settings(max_examples=150, deadline=None, database=None)
@given(st.lists(st.integers(0, 3), max_size=12), st.randoms(use_true_random=False))
def test_property_souvenir_points_do_not_depend_on_order(families: list[int], rnd) -> None:
    """Rulebook "group them into sets ...; each set can contain only one Souvenir of each type":
    any order of adding a collection gives the same total, equal to the referee's
    ``souvenir_collection_points``, and each card scores the referee's ``souvenir_points``."""
    shuffled = list(families)
    rnd.shuffle(shuffled)
    totals = []
    for order in (families, shuffled):
        pos = make_position(rs3())
        counts = [0, 0, 0, 0]
        used = {f: iter(cards * 3) for f, cards in FAMILY_CARDS.items()}
        for f in order:
            want = souvenir_points(counts, f, [1, 3, 5, 7])[0]
            assert souvenir_gain_pts_nb(pos.pub, pos.ru, 0, f) == want
            gain_souvenir_nb(pos.pub, pos.ru, 0, next(used[f]))
            counts[f] += 1
        totals.append(int(pos.ps[0, PF.PTS_SOUVENIRS]))
    assert totals[0] == totals[1] == souvenir_collection_points(families, [1, 3, 5, 7])


@BOTH
def test_village_draws_three_and_buys_a_subset(mode: str) -> None:
    """Rulebook "Village": "draws the first 3 Souvenir cards ... They can then purchase one or more
    of these cards by paying the price ... Any unpurchased cards are placed ... on the bottom"."""
    rs = rs3(weights={"reserve": 0})
    koma, manju, shamisen = souvenir_ids(rs, "koma", "manju", "shamisen")  # small 1, food 1, art 3
    pos = make_position(
        rs, positions=[0, 14, 14], coins=[3, 5, 5], top={Deck.SOUVENIR: [koma, manju, shamisen]}, mode=mode
    )
    pos.stop(0, 8)
    assert [e[3] for e in pos.events(Ev.DRAW)] == [koma, manju, shamisen]
    assert [(e[3], e[4]) for e in pos.events(Ev.GAIN)] == [(koma, 1), (manju, 1)]
    assert [e[3] for e in pos.events(Ev.UNDER)] == [shamisen]
    assert pos.ps[0, PF.COINS] == 1
    assert pos.ps[0, PF.PTS_SOUVENIRS] == 4 and pos.ps[0, PF.SOUVENIRS] == 2
    pile = pos.pile(Deck.SOUVENIR)
    assert len(pile) == 22 and pile[-1] == shamisen and pile[0] not in (koma, manju, shamisen)
    assert pos.ps[0, PF.STOPS] == 1


@BOTH
def test_village_unbought_cards_go_under_the_pile(mode: str) -> None:
    """Rulebook "Village": "not required to purchase any souvenirs"; "Any unpurchased cards are
    placed face down on the bottom of the pile" (all three here: 1 coin, prices 2, 2, 3)."""
    rs = rs3()
    top = souvenir_ids(rs, "haori", "furoshiki", "shamisen")
    pos = make_position(rs, positions=[0, 14, 14], coins=[1, 5, 5], top={Deck.SOUVENIR: top}, mode=mode)
    pos.stop(0, 1)
    assert pos.events(Ev.GAIN) == []
    pile = pos.pile(Deck.SOUVENIR)
    assert len(pile) == 24
    assert sorted(pile[-3:]) == sorted(top) and not set(pile[:21]) & set(top)
    assert pos.ps[0, PF.COINS] == 1 and pos.ps[0, PF.SCORE] == 0


def test_village_any_affordable_subset_may_be_bought() -> None:
    """Rulebook "Village": "purchase one or more of these cards": with 3 coins and prices 1, 1, 3
    the random bot picks among exactly the affordable subsets {}, {a}, {b}, {c}, {a,b}."""
    rs = rs3()
    cards = souvenir_ids(rs, "koma", "manju", "shamisen")
    seen = set()
    for seed in range(80):
        pos = make_position(rs, coins=[3, 3, 3], bots=Bot.RANDOM, seed=seed)
        pos.pub["tbl"][:3] = cards
        mask, zen = choose_village_nb(pos.pub, pos.ru, 0, 3)
        assert zen == -1
        seen.add(int(mask))
    assert seen == {0b000, 0b001, 0b010, 0b100, 0b011}


# ------------------------------------------------------------------ Farm
@BOTH
def test_farm_gives_three_coins(mode: str) -> None:
    """Rulebook "Farm": "The player takes 3 coins from the reserve"; "There is no limit to the
    number of coins"."""
    pos = make_position(rs3(), positions=[0, 14, 14], coins=[40, 5, 5], mode=mode)
    pos.stop(0, 7)
    assert pos.ps[0, PF.COINS] == 43 and pos.ps[0, PF.SCORE] == 0 and pos.ps[0, PF.STOPS] == 1


# ------------------------------------------------------------------ Panorama
@BOTH
def test_panorama_cards_score_their_value(mode: str) -> None:
    """Rulebook "Panorama": "they take a Panorama card of value "1". Otherwise, they take the next
    number in ascending order. The player immediately scores ... the value of the card"; paddy
    3, mountain 4, sea 5 sections (achievements already taken here)."""
    pos = make_position(rs3(), pan_ach=0b111)
    for typ, length in enumerate((3, 4, 5)):
        for v in range(1, length + 1):
            before = int(pos.ps[0, PF.SCORE])
            kern(take_panorama_nb, mode)(pos.pub, pos.ru, 0, typ)
            assert pos.ps[0, PF.SCORE] - before == v
            assert pos.ps[0, PF.PAN0 + typ] == v
    assert pos.ps[0, PF.PTS_PANORAMAS] == 6 + 10 + 15 and pos.ps[0, PF.PANORAMAS] == 12
    assert pos.ps[0, PF.ACHIEVEMENTS] == 0


@BOTH
def test_panorama_station_takes_the_next_card(mode: str) -> None:
    """Rulebook "Panorama": a stop on a Mountain space with 2 mountain cards takes card 3 (3 points)."""
    pos = make_position(rs3(), positions=[0, 14, 14], panoramas={0: [0, 2, 0]}, mode=mode)
    pos.stop(0, 6)
    assert pos.ps[0, PF.PAN1] == 3 and pos.ps[0, PF.PTS_PANORAMAS] == 3
    assert pos.events(Ev.PANORAMA) == [(Ev.PANORAMA, 0, 1, 0, -1, -1)]


@BOTH
def test_first_to_complete_a_panorama_takes_its_achievement(mode: str) -> None:
    """Rulebook "Panorama Achievement Cards": "The first Traveler to complete a panorama of a
    particular type receives the Achievement card ... immediately gives 3 points"."""
    pos = make_position(rs3(), panoramas={0: [2, 0, 0], 1: [2, 0, 0]})
    take = kern(take_panorama_nb, mode)
    take(pos.pub, pos.ru, 0, 0)
    assert pos.ps[0, PF.PTS_PANORAMAS] == 3 and pos.ps[0, PF.PTS_ACHIEVEMENTS] == 3
    assert pos.ps[0, PF.ACHIEVEMENTS] == 1 and pos.gs[G.PAN_ACH] == 0b001
    take(pos.pub, pos.ru, 1, 0)  # second to complete the paddy: no achievement
    assert pos.ps[1, PF.PTS_PANORAMAS] == 3 and pos.ps[1, PF.PTS_ACHIEVEMENTS] == 0
    assert pos.ps[1, PF.ACHIEVEMENTS] == 0
    pos.ps[1, PF.PAN2] = 4
    take(pos.pub, pos.ru, 1, 2)  # first to complete the sea
    assert pos.ps[1, PF.SCORE] == 3 + 5 + 3 and pos.gs[G.PAN_ACH] == 0b101


# ------------------------------------------------------------------ Hot Spring
@BOTH
def test_hot_spring_card_scores_its_value(mode: str) -> None:
    """Rulebook "Hot Spring": "takes a Hot Spring card ... These cards are worth 2 or 3 points"."""
    rs = rs3()
    three = next(h.id for h in rs.rules.hot_springs if h.value == 3)
    two = next(h.id for h in rs.rules.hot_springs if h.value == 2)
    pos = make_position(rs, positions=[0, 2, 14], top={Deck.HOT_SPRING: [three, two]}, mode=mode)
    pos.stop(0, 5)
    assert pos.ps[0, PF.PTS_HOT_SPRINGS] == 3 and pos.ps[0, PF.HOT_SPRINGS] == 1
    pos.stop(1, 13)
    assert pos.ps[1, PF.PTS_HOT_SPRINGS] == 2 and pos.ps[1, PF.HOT_SPRINGS] == 1
    assert pos.pub["dcnt"][Deck.HOT_SPRING] == 10


# ------------------------------------------------------------------ Temple
@BOTH
def test_temple_donates_one_to_three_coins_one_point_each(mode: str) -> None:
    """Rulebook "Temple": "donates 1, 2, or 3 coins ... scores 1 point for each donated coin";
    "must donate at least 1 coin ... and cannot donate more than 3 coins"."""
    seen = set()
    for seed in range(30):
        pos = make_position(
            rs3(), positions=[0, 14, 14], coins=[10, 5, 5], bots=Bot.RANDOM, seed=seed, mode=mode
        )
        pos.stop(0, 2)
        (ev,) = pos.events(Ev.DONATE)
        d = ev[2]
        assert 1 <= d <= 3 and ev[3] == 0
        assert pos.ps[0, PF.COINS] == 10 - d and pos.ps[0, PF.DONATED] == d
        assert pos.ps[0, PF.PTS_TEMPLE] == d == pos.ps[0, PF.SCORE]
        seen.add(d)
    assert seen == {1, 2, 3}
    for coins in (1, 2):
        for seed in range(10):
            pos = make_position(rs3(), positions=[0, 14, 14], coins=[coins, 5, 5], bots=Bot.RANDOM, seed=seed)
            pos.stop(0, 2)
            assert 1 <= pos.ps[0, PF.DONATED] <= coins and pos.ps[0, PF.COINS] >= 0
