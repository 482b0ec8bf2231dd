"""The referee's Matsuri rules (sim/games/tokaido/referee/matsuri_cards.py,
sim/games/tokaido/referee/matsuri.py) on hand-built values.

Each test quotes seed 002 ("The Matsuri", "Matsuri effects", L1261-1562) or names
the default of ``../shared/research/expansions.md`` part A (M1-M30). The worked
examples of the rulebook are here: the Doll worth 5, the Carp worth 1, Tanabata's
ties, o-Fune's simultaneous completion.
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import Ev, Space
from sim.games.tokaido.referee.matsuri_cards import (
    CARD_TIMING,
    LEG,
    NEXT_INN,
    NOW,
    cho_yo_price,
    closures,
    ofune_completers,
    shishimai_points,
    tanabata_winners,
    token_points,
    usable_slots,
)
from sim.games.tokaido.referee.scoring import end_achievement_count
from sim.games.tokaido.referee.state import Illegal
from tests.helpers.referee_matsuri import (
    ART,
    CLOTHING,
    FOOD,
    FOUR,
    SEA_T,
    SMALL,
    add_souvenirs,
    at_inn,
    card,
    drive,
    effect,
    mref,
    r6,
)

SET_POINTS = [1, 3, 5, 7, 9]  # 1/3/5/7 and the Offerings as a fifth family with Crossroads (C30)


def counts(*families: int) -> list[int]:
    out = [0] * 5
    for f in families:
        out[f] += 1
    return out


# ====================================================================== Doll / Carp tokens
def test_doll_worked_example_five_points() -> None:
    """Seed 002 (Hina matsuri): "She has 2 Souvenir cards ... one art ... one food ... The Doll token
    ... becomes the 3rd Souvenir in a set ... The Doll is therefore worth 5 points"."""
    assert token_points(counts(ART, FOOD), SET_POINTS) == (5, 1, 3)


def test_carp_worked_example_one_point() -> None:
    """Seed 002 (Tango): art + food + small objects form a set worth 9; "The Carp token ... starting a
    new set, and is therefore worth 1 Journey point"."""
    assert token_points(counts(ART, FOOD, SMALL), SET_POINTS) == (1, 2, 1)


@pytest.mark.parametrize(
    ("held", "points"),
    [
        ((), 1),
        ((FOOD, CLOTHING, ART), 7),
        ((SMALL, SMALL), 1),
        ((FOOD, FOOD, SMALL), 3),
    ],
)
def test_token_takes_the_next_small_objects_slot(held: tuple[int, ...], points: int) -> None:
    """M17: the token joins set k as the k-th Small-objects card (the project's set model, C30)."""
    assert token_points(counts(*held), SET_POINTS)[0] == points


# ====================================================================== Tanabata, Shishimai
def test_tanabata_ties_all_score() -> None:
    """Seed 002 (Tanabata): "each winner receives a 2 Journey points token (players tied for first each
    get a 2 Journey points token)"; nobody with a count of 0 (C11)."""
    assert tanabata_winners([3, 5, 5, 1], 1) == [1, 2]
    assert tanabata_winners([2, 1], 1) == [0]
    assert tanabata_winners([0, 0, 0], 1) == []


@pytest.mark.parametrize(
    ("donated", "points"),
    [
        ([6, 3, 2, 1], [4, 2, 1, 0]),  # "only the three most generous Travelers are awarded"
        ([3, 3, 2, 0], [4, 4, 2, 0]),  # ties share the rank; the next takes the next (usual rule, M23)
        ([0, 0, 0], [0, 0, 0]),  # non-donors get nothing
        ([5, 4, 4, 3, 2], [4, 2, 2, 1, 0]),
    ],
)
def test_shishimai_four_two_one(donated: list[int], points: list[int]) -> None:
    assert shishimai_points(donated, [4, 2, 1]) == points


# ====================================================================== o-Fune
def test_ofune_simultaneous_completion() -> None:
    """Seed 002 (o-Fune): "If several players simultaneously finish their Sea Panoramas as a result of
    this Matsuri, they each score for the Sea Panorama achievement"; one finished gets nothing."""
    sea = 5
    assert ofune_completers([4, 4, 2, 5], sea) == [0, 1]
    assert ofune_completers([0, 3], sea) == []


# ====================================================================== closures
# the base board (game-data.md 1.1): leg Inn 1 -> Inn 2 is spaces 15-26
def board() -> tuple[list[int], list[int]]:
    from sim.games.tokaido.rules.config import GameConfig

    rules = GameConfig(n_players=4).rules()
    return list(rules.board_types), list(rules.board_double)


@pytest.mark.parametrize(
    ("kind", "n_trav", "want"),
    [
        (Space.TEMPLE, 4, {16: 1, 21: 1}),  # expansions.md A.5: both single Temples close
        (Space.VILLAGE, 4, {25: 1}),
        (Space.FARM, 4, {17: 1, 26: 1}),  # 17 is double: it becomes single
        (Space.FARM, 3, {26: 1}),  # M11: at 2-3 travelers a double already has one space
    ],
)
def test_closures_of_the_second_leg(kind: int, n_trav: int, want: dict[int, int]) -> None:
    """Seed 002 (Kamiarisai, Toka Ebisu, Mura): "The single-space ... are completely closed. The
    double-space ... close their second space - the one off the road"; only the next leg (M10)."""
    types, double = board()
    inns = [i for i, t in enumerate(types) if t == Space.INN]
    assert closures(types, double, inns[1], inns[2], kind, n_trav, 4) == want


def test_closure_tokens_are_limited() -> None:
    """Seed 002 components: 4 Closed Space tokens; no more spaces close than tokens are left."""
    types, double = board()
    inns = [i for i, t in enumerate(types) if t == Space.INN]
    assert len(closures(types, double, inns[1], inns[2], Space.TEMPLE, 4, 1)) == 1


@pytest.mark.parametrize(
    ("double", "n_trav", "closed", "slots"),
    [
        (False, 4, 0, 1),
        (False, 4, 1, 0),
        (True, 4, 1, 1),
        (True, 5, 0, 2),
        (True, 3, 0, 1),
    ],
)
def test_usable_slots(double: bool, n_trav: int, closed: int, slots: int) -> None:
    assert usable_slots(double, n_trav, closed) == slots


# ====================================================================== Cho-yo, timing
def test_cho_yo_one_coin_less() -> None:
    """Seed 002 (Cho-yo): "all the Meal cards cost 1 coin less than normal (as a result, the Meal cards
    worth 1 coin are free)"; after abilities, at least 0 (M24)."""
    assert [cho_yo_price(c, 1) for c in (1, 2, 3, 0)] == [0, 1, 2, 0]


def test_timing_classes() -> None:
    """Seed 002: 11 cards at once, 8 during the next leg, Cho-yo at the next Inn."""
    assert len(CARD_TIMING) == 20
    assert sum(t == NOW for t in CARD_TIMING.values()) == 11
    assert sum(t == LEG for t in CARD_TIMING.values()) == 8
    assert [c for c, t in CARD_TIMING.items() if t == NEXT_INN] == ["choyo"]


def test_hina_doll_worked_example_in_the_referee() -> None:
    """Seed 002 (Hina matsuri): each female Traveler gets a Doll; Satsuki (F) holding art + food scores 5,
    and the Doll is no Souvenir card: Collector counts 2, not 3 (seed 002: "they do not count when
    awarding the Collector Achievement")."""
    ref = mref()
    add_souvenirs(ref, 0, ART, FOOD)
    inn = at_inn(ref, [1, 0, 2])
    doll = card(ref, "hina")
    drive(ref, effect(ref, "hina", inn), [r6(Ev.TOKEN, 0, 0, 5, doll, -1)])
    p0 = ref.state.travelers[0]
    assert (p0.points["pts_matsuri"], p0.dolls, p0.family_counts[SMALL]) == (5, 1, 1)
    assert end_achievement_count(p0, "collector") == 2
    with pytest.raises(Illegal, match="worth 1"):
        drive(ref, effect(ref, "hina", inn), [r6(Ev.TOKEN, 0, 0, 5, doll, -1)])  # a 2nd Doll starts set 2


def test_tango_carp_worked_example_in_the_referee() -> None:
    """Seed 002 (Tango): Chuubei (M) holding art + food + small objects: the Carp starts a new set, 1
    point; Hiroshige (M) with nothing: 1 point; Satsuki (F) gets none."""
    ref = mref()
    add_souvenirs(ref, 1, ART, FOOD, SMALL)
    inn = at_inn(ref, [2, 0, 1])
    carp = card(ref, "tango")
    drive(ref, effect(ref, "tango", inn), [r6(Ev.TOKEN, 2, 1, 1, carp, -1), r6(Ev.TOKEN, 1, 1, 1, carp, -1)])
    assert [tr.carps for tr in ref.state.travelers] == [0, 1, 1]
    with pytest.raises(Illegal, match="chuubei.*got traveler 0"):  # Satsuki is female
        drive(mref(), effect(mref(), "tango", at_inn(mref(), [0, 1, 2])), [r6(Ev.TOKEN, 0, 1, 1, carp, -1)])


def test_doll_does_not_feed_a_script_object() -> None:
    """Seed 002: the tokens "do not count in the effect of the Shodo and Emaki Legendary Objects"."""
    ref = mref()
    ref.state.travelers[0].scripts = 1
    drive(ref, effect(ref, "hina", at_inn(ref, [0, 1, 2])), [r6(Ev.TOKEN, 0, 0, 1, card(ref, "hina"), -1)])
    assert ref.state.travelers[0].points["pts_legendary"] == 0


def test_tanabata_interim_achievements_ties() -> None:
    """Seed 002 (Tanabata): the 4 achievements "are immediately awarded according to the usual endgame
    rules" for a 2-point token each, "players tied for first each get" one; the cards stay out."""
    ref = mref()
    p0, p1, p2 = ref.state.travelers
    p0.meal_value = p1.meal_value = 3  # Gourmet: tied
    p1.meal_value, p2.meal_value = 3, 1
    p2.hot_springs = [0]  # Bather: p2 alone
    add_souvenirs(ref, 1, FOOD)  # Collector: p1; Chatterbox: nobody (C11)
    c = card(ref, "tanabata")
    rows = [
        r6(Ev.TOKEN, 1, 2, 2, c, 0),
        r6(Ev.TOKEN, 0, 2, 2, c, 0),
        r6(Ev.TOKEN, 2, 2, 2, c, 1),
        r6(Ev.TOKEN, 1, 2, 2, c, 3),
    ]
    drive(ref, effect(ref, "tanabata", at_inn(ref, [0, 1, 2])), rows)
    assert [tr.points["pts_matsuri"] for tr in (p0, p1, p2)] == [2, 4, 2]
    assert [tr.m_tokens for tr in (p0, p1, p2)] == [1, 2, 1]
    assert all(tr.achievements == [] for tr in (p0, p1, p2))
    ref = mref()
    ref.state.travelers[0].meal_value = 3
    with pytest.raises(Illegal, match="takes no token"):
        drive(ref, effect(ref, "tanabata", at_inn(ref, [0, 1, 2])), [r6(Ev.TOKEN, 1, 2, 2, c, 0)])


def test_ofune_simultaneous_completion_in_the_referee() -> None:
    """Seed 002 (o-Fune): everyone takes the next Sea section; "If several players simultaneously finish
    their Sea Panoramas as a result of this Matsuri, they each score for the Sea Panorama achievement.
    Use 3 Journey points tokens": the first (arrival order) takes the card, the other a token, and
    counts as holding the achievement (M19)."""
    ref = mref(4, FOUR)
    p0, p1, p2, p3 = ref.state.travelers
    p0.panorama[SEA_T] = p1.panorama[SEA_T] = 4
    p3.panorama[SEA_T] = 2
    c = card(ref, "ofune")
    rows = [
        r6(Ev.PANORAMA, 1, SEA_T, 4),
        r6(Ev.PANORAMA, 0, SEA_T, 4),
        r6(Ev.TOKEN, 0, 2, 3, c, -1),
        r6(Ev.PANORAMA, 2, SEA_T, 4),
        r6(Ev.PANORAMA, 3, SEA_T, 4),
    ]
    drive(ref, effect(ref, "ofune", at_inn(ref, [1, 0, 2, 3])), rows)
    assert (p1.points["pts_achievements"], p1.points["pts_panoramas"]) == (3, 5)
    assert (p0.points["pts_matsuri"], p0.points["pts_achievements"], len(p0.achievements)) == (3, 0, 1)
    assert (p2.panorama[SEA_T], p3.points["pts_panoramas"]) == (1, 3)


def test_ofune_no_award_when_sea_was_already_taken() -> None:
    """M19: someone already holds the Sea achievement: completing Sea with o-Fune scores the section only;
    a completed Sea takes nothing ("he doesn't benefit from this Matsuri")."""
    ref = mref()
    p0, p1, p2 = ref.state.travelers
    p0.panorama[SEA_T], p1.panorama[SEA_T] = 4, 5
    ref.state.pan_achievement[SEA_T] = 1
    rows = [r6(Ev.PANORAMA, 0, SEA_T, 4), r6(Ev.PANORAMA, 2, SEA_T, 4)]
    drive(ref, effect(ref, "ofune", at_inn(ref, [0, 1, 2])), rows)
    assert (p0.points["pts_matsuri"], p0.achievements, p1.panorama[SEA_T]) == (0, [], 5)


def test_shishimai_neutral_takes_a_rank() -> None:
    """Seed 002 (Shishimai): the three most generous donors score 4 / 2 / 1 now; at 2 players the
    Neutral's coins take a rank but score nothing (M23, as at the end, 002:L349)."""
    ref = mref(2, "satsuki,chuubei")
    p0, p1, neutral = ref.state.travelers
    neutral.donated, p0.donated = 4, 3
    c = card(ref, "shishimai")
    drive(ref, effect(ref, "shishimai", at_inn(ref, [2, 0, 1])), [r6(Ev.TOKEN, 0, 2, 2, c, 1)])
    assert (p0.points["pts_matsuri"], p1.points["pts_matsuri"], neutral.score) == (2, 0, 0)
    ref = mref(4, FOUR)
    for tr, d in zip(ref.state.travelers, (3, 3, 2, 1), strict=True):
        tr.donated = d
    rows = [r6(Ev.TOKEN, t, 2, p, c, rank) for t, p, rank in ((0, 4, 0), (1, 4, 0), (2, 2, 1), (3, 1, 2))]
    drive(ref, effect(ref, "shishimai", at_inn(ref, [0, 1, 2, 3])), rows)
    with pytest.raises(Illegal, match="token is"):
        drive(ref, effect(ref, "shishimai", at_inn(ref, [0, 1, 2, 3])), [r6(Ev.TOKEN, 2, 2, 1, c, 1)])


def test_obon_donations() -> None:
    """Seed 002 (o-Bon): in arrival order each may "donate to the Temple according to the usual rules:
    1, 2, or 3 coins", a point each; no Temple ability (M14); a player with no coin is not asked."""
    ref = mref()
    p0, p1, p2 = ref.state.travelers
    p1.coins = 0
    rows = [r6(Ev.OPTION, 2, 7, 3), r6(Ev.OPTION, 0, 7, 0)]
    drive(ref, effect(ref, "obon", at_inn(ref, [2, 1, 0])), rows)
    assert (p2.coins, p2.donated, p2.points["pts_temple"], p0.donated) == (2, 3, 3, 0)
    with pytest.raises(Illegal, match="donates 0..2"):
        ref = mref()
        ref.state.travelers[0].coins = 2
        drive(ref, effect(ref, "obon", at_inn(ref, [0, 1, 2])), [r6(Ev.OPTION, 0, 7, 3)])


def test_tori_no_ichi_only_without_an_amulet() -> None:
    """Seed 002 (Tori no Ichi): "Each Traveler who doesn't have an Amulet ... receives a free Amulet";
    "If a player already has an Amulet, he doesn't benefit"."""
    ref = mref()
    st = ref.state
    st.amulet_market = [0, 1, 2]
    st.travelers[1].amulets = {5}
    rows = [r6(Ev.GAIN, 0, 5, 1, 0), r6(Ev.GAIN, 2, 5, 0, 0)]
    drive(ref, effect(ref, "tori_no_ichi", at_inn(ref, [0, 1, 2])), rows)
    assert (st.amulet_market, st.travelers[0].amulets, st.travelers[2].amulets_acquired) == ([2], {1}, 1)
    with pytest.raises(Illegal, match="expected an event of traveler 2"):
        ref = mref()
        ref.state.amulet_market = [0, 1, 2]
        ref.state.travelers[1].amulets = {5}
        drive(
            ref,
            effect(ref, "tori_no_ichi", at_inn(ref, [0, 1, 2])),
            [r6(Ev.GAIN, 0, 5, 1, 0), r6(Ev.GAIN, 1, 5, 0, 0)],
        )


def test_otsukimi_shared_calligraphy_scored_by_everyone() -> None:
    """Seed 002 (o-Tsukimi): "Doria has chosen the Calligraphy Contemplation. At the end of the game, each
    player will score 3 points for each complete Panorama and 1 point for each Cherry Tree"; nobody holds
    the card (M22): a shared Perfection counts itself, not the holder's own card."""
    ref = mref()
    st = ref.state
    st.calligraphy_market = [0, 1, 2, 3, 4, 5]
    drive(ref, effect(ref, "otsukimi", at_inn(ref, [0, 1, 2])), [r6(Ev.PICK, 0, 6, 1, card(ref, "otsukimi"))])
    assert st.calligraphy_market == [0, 2, 3, 4, 5] and st.travelers[0].calligraphy == []
    p0, p1, _ = st.travelers
    p0.panorama = [3, 0, 0]
    p0.cherry_trees = 2
    p1.cherry_trees = 1
    ref.matsuri.score_shared_calligraphy()
    assert [tr.points["pts_calligraphy"] for tr in st.travelers] == [5, 1, 0]
    ref = mref()
    st = ref.state
    st.m.shared_calligraphy = [4]  # perfection
    st.travelers[0].achievements = ["gourmet", "bather"]
    st.travelers[0].calligraphy = [0]
    ref.matsuri.score_shared_calligraphy()
    p = ref.ctx.params
    assert st.travelers[0].points["pts_calligraphy"] == 2 * p["PERFECTION_ACH"] + 2 * p["PERFECTION_CALLI"]
    assert st.travelers[1].points["pts_calligraphy"] == p["PERFECTION_CALLI"]


@pytest.mark.parametrize(("value", "counted"), [("false", 2), ("true", 3)])
def test_doll_for_nostalgia_is_a_choice(value: str, counted: int) -> None:
    """M17 (DEFAULT): a Doll is no Souvenir card, so Nostalgia does not count it;
    ``matsuri.choices.doll_counts_for_nostalgia = true`` counts it."""
    ref = mref(overrides=(("matsuri.choices.doll_counts_for_nostalgia", value),))
    assert ref.state.m_choice("doll_counts_for_nostalgia") == (value == "true")
    add_souvenirs(ref, 0, ART, FOOD)
    drive(ref, effect(ref, "hina", at_inn(ref, [0, 1, 2])), [r6(Ev.TOKEN, 0, 0, 5, card(ref, "hina"), -1)])
    assert ref.state.nostalgia_souvenirs(ref.state.travelers[0]) == counted
