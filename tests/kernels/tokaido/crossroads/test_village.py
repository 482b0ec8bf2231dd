"""Crossroads rules of the Village: a Legendary Object instead of Souvenirs, its cost, the Scripts, the
Offerings (a fifth souvenir family) and the Swords.

Each test quotes seed 002's "Legendary Object cards" or names its rule choice (C29, C30 of
docs/rules-choices.md) on a hand-made position (``xr_position`` at the first Village).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.tokaido.core.enums import PF, Deck, Ev, Space
from kernels.tokaido.core.score import gain_souvenir_nb
from kernels.tokaido.game.crossroads import alternative_nb, alternative_possible_nb
from sim.games.tokaido.referee.scoring import souvenir_collection_points
from tests.helpers.positions import (
    BOTH,
    choice,
    kern,
    legendary_ids,
    make_rules,
    souvenir_ids,
    xr_config,
    xr_position,
)

CFG3 = xr_config(3)
SMALL, FOOD, CLOTHING, ART, OFFERING = 0, 1, 2, 3, 4
FAMILY_CARDS = {
    SMALL: [0, 1, 2, 3, 4, 5],
    FOOD: [6, 7, 8, 9, 10, 11],
    CLOTHING: [12, 13, 14, 15, 16, 17],
    ART: [18, 19, 20, 21, 22, 23],
}
VILLAGE = 1  # the first Village


def rs3(**kw):
    return make_rules(CFG3, **kw)


# ------------------------------------------------------------------ Village: Legendary Objects
@BOTH
def test_legendary_object_instead_of_souvenirs(mode: str) -> None:
    """Seed 002 "Legendary Object cards": "instead of buying Souvenirs a traveler may now buy one
    and only one Legendary Object of his choice (if the card is available) for the cost marked on
    the card"; C27: the option is chosen on arrival, before any Souvenir is drawn. Murasame costs 3
    and gives 8 points."""
    rs = rs3()
    (murasame,) = legendary_ids(rs, "murasame")
    pos = xr_position(
        rs, markets={"legendary": ["murasame", "masamune"]}, positions=[0, 14, 14], coins=[7, 5, 5], mode=mode
    )
    pos.stop(0, VILLAGE)
    assert choice(pos, 0) == 1
    assert pos.events(Ev.DRAW) == [] and pos.pub["dcnt"][Deck.SOUVENIR] == 24
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.LEGENDARY, murasame, 3, -1)]
    assert pos.ps[0, PF.LEGENDARY] == 1 and pos.ps[0, PF.SOUVENIRS] == 0
    assert pos.ps[0, PF.PTS_LEGENDARY] == 8 == pos.ps[0, PF.SCORE] and pos.ps[0, PF.COINS] == 4
    assert pos.pub["mkt"][0, murasame] == 0 and pos.pub["mkt"][0].sum() == 1


@BOTH
def test_legendary_costs_one_two_three(mode: str) -> None:
    """Seed 002: "for the cost marked on the card (1, 2 or 3 coins)": Shodo and Emaki 1, Buppatsu
    and Ema 2, Murasame and Masamune 3 (game-data.md 8.1); a Village's alternative is possible only
    if some Legendary Object left is affordable."""
    rs = rs3()
    assert [(lo.name, lo.cost) for lo in rs.rules.legendary] == [
        ("shodo", 1),
        ("emaki", 1),
        ("buppatsu", 2),
        ("ema", 2),
        ("murasame", 3),
        ("masamune", 3),
    ]
    for name, cost in (("emaki", 1), ("ema", 2), ("masamune", 3)):
        for coins in (cost - 1, cost):
            pos = xr_position(rs, markets={"legendary": [name]}, coins=[coins, 5, 5], mode=mode)
            assert bool(kern(alternative_possible_nb, mode)(pos.pub, pos.ru, 0, Space.VILLAGE)) == (
                coins >= cost
            )
            if coins >= cost:
                kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
                assert pos.ps[0, PF.COINS] == 0 and pos.events(Ev.GAIN)[0][4] == cost


@BOTH
def test_script_objects(mode: str) -> None:
    """Seed 002 "Shodo and Emaki": "When acquired, these Legendary Objects give 1 point for each
    other Souvenir / Legendary Object in their owner's collection and 1 additional point for each
    Souvenir acquired thereafter" (C29). 3 souvenirs + a Sword: Shodo scores 4; each later souvenir
    +1; then Emaki scores 7 (5 souvenirs, Shodo and the Sword) and each later souvenir +2."""
    rs = rs3()
    pos = xr_position(
        rs,
        markets={"legendary": ["shodo"]},
        coins=[10, 5, 5],
        families={0: [1, 1, 1, 0]},
        fields={0: {"LEGENDARY": 1}},
        mode=mode,
    )
    alt = kern(alternative_nb, mode)
    alt(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
    assert pos.ps[0, PF.PTS_LEGENDARY] == 4 and pos.ps[0, PF.SCRIPTS] == 1 and pos.ps[0, PF.COINS] == 9
    gain = kern(gain_souvenir_nb, mode)
    for c in souvenir_ids(rs, "netsuke", "haori"):  # art (set 1, 4th family: 7), clothing (set 2: 1)
        gain(pos.pub, pos.ru, 0, c)
    assert pos.ps[0, PF.PTS_LEGENDARY] == 4 + 2 and pos.ps[0, PF.PTS_SOUVENIRS] == 7 + 1
    pos.pub["mkt"][0, legendary_ids(rs, "emaki")[0]] = 1
    alt(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)  # 5 souvenirs + Shodo + the Sword
    assert pos.ps[0, PF.PTS_LEGENDARY] == 6 + 7 and pos.ps[0, PF.SCRIPTS] == 2
    gain(pos.pub, pos.ru, 0, souvenir_ids(rs, "koma")[0])
    assert pos.ps[0, PF.PTS_LEGENDARY] == 13 + 2
    assert pos.ps[0, PF.SCORE] == pos.ps[0, PF.PTS_LEGENDARY] + pos.ps[0, PF.PTS_SOUVENIRS]


@BOTH
def test_offering_rulebook_example(mode: str) -> None:
    """Seed 002 "Buppatsu and Ema": "These Legendary Objects count as a new family of Souvenirs";
    "Example: a Traveler who already has 2 Souvenirs (family A and family B) scores 5 points by
    acquiring one of these Legendary Objects. If he later on acquires a Souvenir from family C, he
    scores 7 points and if he acquires a Souvenir from family D, he scores 9 points"; "one object
    from each of the 5 families thus gives 1 + 3 + 5 + 7 + 9 = 25 points" (C30)."""
    rs = rs3()
    pos = xr_position(rs, markets={"legendary": ["buppatsu"]}, coins=[5, 5, 5], mode=mode)
    gain = kern(gain_souvenir_nb, mode)
    got = []
    for c in souvenir_ids(rs, "koma", "manju"):  # families A (small objects) and B (food)
        before = int(pos.ps[0, PF.SCORE])
        gain(pos.pub, pos.ru, 0, c)
        got.append(int(pos.ps[0, PF.SCORE]) - before)
    before = int(pos.ps[0, PF.SCORE])
    kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
    got.append(int(pos.ps[0, PF.SCORE]) - before)
    for c in souvenir_ids(rs, "haori", "netsuke"):  # families C (clothing) and D (art)
        before = int(pos.ps[0, PF.SCORE])
        gain(pos.pub, pos.ru, 0, c)
        got.append(int(pos.ps[0, PF.SCORE]) - before)
    assert got == [1, 3, 5, 7, 9] and sum(got) == 25
    assert pos.ps[0, PF.PTS_LEGENDARY] == 5 and pos.ps[0, PF.PTS_SOUVENIRS] == 20
    assert pos.ps[0, PF.COINS] == 3 and pos.ps[0, PF.LEGENDARY] == 1 and pos.ps[0, PF.SOUVENIRS] == 4


@settings(max_examples=120, deadline=None, database=None)
@given(st.lists(st.integers(0, 3), max_size=10), st.integers(0, 2), st.randoms(use_true_random=False))
def test_property_offering_points_do_not_depend_on_order(families: list[int], offerings: int, rnd) -> None:
    """C30: an Offering is a fifth souvenir family, so a collection of souvenirs and Offerings
    scores the same in any order of acquisition, and equals the referee's
    ``souvenir_collection_points`` with set points 1/3/5/7/9."""
    cards = families + [OFFERING] * offerings
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    totals = []
    for order in (cards, shuffled):
        pos = xr_position(rs3(), markets={"legendary": ["buppatsu", "ema"]}, coins=[10, 5, 5])
        used = {f: iter(ids * 2) for f, ids in FAMILY_CARDS.items()}
        for f in order:
            if f == OFFERING:
                alternative_nb(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
            else:
                gain_souvenir_nb(pos.pub, pos.ru, 0, next(used[f]))
        assert pos.ps[0, PF.LEGENDARY] == offerings and pos.ps[0, PF.SOUVENIRS] == len(families)
        totals.append(int(pos.ps[0, PF.PTS_SOUVENIRS] + pos.ps[0, PF.PTS_LEGENDARY]))
    assert totals[0] == totals[1] == souvenir_collection_points(cards, [1, 3, 5, 7, 9], n_families=5)


@BOTH
def test_swords_give_eight_points_and_both_may_be_bought(mode: str) -> None:
    """Seed 002 "Murasame & Masamune": "These Legendary Objects give 8 points"; "The same traveler
    can acquire both types of a single Legendary Object"."""
    rs = rs3()
    pos = xr_position(rs, markets={"legendary": ["murasame", "masamune"]}, coins=[6, 5, 5], mode=mode)
    for _ in range(2):
        kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
    assert sorted(e[3] for e in pos.events(Ev.GAIN)) == legendary_ids(rs, "murasame", "masamune")
    assert pos.ps[0, PF.PTS_LEGENDARY] == 16 and pos.ps[0, PF.LEGENDARY] == 2 and pos.ps[0, PF.COINS] == 0
