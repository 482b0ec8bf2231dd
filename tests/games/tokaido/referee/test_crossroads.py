"""The referee's Crossroads rules (sim/games/tokaido/referee/crossroads.py): hand-built logs and rulebook
examples of the
scoring, the set-up and the station choices.

Every rule of seed 002 "The Crossroads expansion" and the project's choices
C23-C39 (docs/rules-choices.md) has a legal log that the referee accepts and an
illegal one it rejects, naming the event. The log format is the section
"Crossroads" of docs/log-format.md. The helpers (``xcfg``, ``xr_setup``, ``ok``, ``stop``, card ids)
are in tests/helpers/referee_logs.py; the Amulets are in
tests/games/tokaido/referee/test_crossroads_amulets.py, whole random legal games (``SelfPlay``, which also
takes
Crossroads options, market cards and Amulet uses) in tests/games/tokaido/referee/test_self_play.py.
"""

from __future__ import annotations

from kernels.tokaido.core.enums import RESULT_FIELDS, Calli, Deck, DieSrc, Ev, Opt, Space
from sim.games.tokaido.referee.scoring import (
    MATSURI_ROW_FIELDS,
    ROW_FIELDS,
    calligraphy_points,
    end_achievement_count,
    patience_points,
    script_purchase_points,
    souvenir_collection_points,
)
from sim.games.tokaido.referee.state import TravelerState
from tests.helpers.referee_logs import (
    BUPPATSU,
    DEVOTION,
    EMA,
    ENCOUNTER3,
    ENCOUNTER10,
    FARM7,
    FASTING,
    FORTUNE,
    HOT5,
    HOT13,
    INN14,
    MASAMUNE,
    MOUNTAIN6,
    MURASAME,
    PADDY4,
    PATIENCE,
    SHODO,
    TEMPLE2,
    TEMPLE9,
    VILLAGE1,
    VILLAGE8,
    assert_illegal,
    ev,
    feed,
    ok,
    stop,
    xcfg,
    xr_setup,
)


# ====================================================================== scoring arithmetic
def test_result_columns_are_every_engine_column_but_game_and_bot() -> None:
    assert ROW_FIELDS + MATSURI_ROW_FIELDS == tuple(f for f in RESULT_FIELDS if f not in ("game", "bot"))


A, B, C, D, OFFERING = 0, 1, 2, 3, 4


def test_offering_is_a_fifth_family_rulebook_example() -> None:
    pts = [1, 3, 5, 7, 9]
    # "a Traveler who already has 2 Souvenirs (family A and family B) scores 5 points by acquiring
    # one of these Legendary Objects. If he later on acquires a Souvenir from family C, he scores 7
    # points and if he acquires a Souvenir from family D, he scores 9 points."
    assert souvenir_collection_points([A, B], pts, 5) == 4
    assert souvenir_collection_points([A, B, OFFERING], pts, 5) == 4 + 5
    assert souvenir_collection_points([A, B, OFFERING, C], pts, 5) == 4 + 5 + 7
    assert souvenir_collection_points([A, B, OFFERING, C, D], pts, 5) == 25  # 1+3+5+7+9
    # a second Offering starts set 2 (C30)
    assert souvenir_collection_points([OFFERING, OFFERING, A], pts, 5) == 1 + 1 + 3


def test_script_and_calligraphy_arithmetic() -> None:
    _, rules = xcfg()
    p = rules.params
    assert script_purchase_points(3, 1) == 4  # a point per Souvenir and other Legendary Object held
    # Marihito's example (seed 002): Foresight with 4 coins left gives 8; Contemplation with one
    # complete panorama and 3 Cherry Trees gives 6 (the doubling itself is Matsuri: not modelled)
    assert calligraphy_points(Calli.FORESIGHT, p, coins=4) == 8
    assert calligraphy_points(Calli.CONTEMPLATION, p, complete_panoramas=1, cherry_trees=3) == 6
    assert calligraphy_points(Calli.CONTEMPLATION, p, complete_panoramas=3) == 9  # every completed one
    assert (
        calligraphy_points(Calli.NOSTALGIA, p, legendary=2, souvenirs=5) == 9
    )  # 2 per object, 1 per souvenir
    assert calligraphy_points(Calli.PERFECTION, p, achievements=3, calligraphy=1) == 7  # it counts itself
    assert calligraphy_points(Calli.PERFECTION, p, achievements=0, calligraphy=4) == 4
    assert calligraphy_points(Calli.FASTING, p, inn_meals=1) == 9  # 3 per meal not eaten, out of 4
    assert calligraphy_points(Calli.FASTING, p, inn_meals=4) == 0
    # Patience: 6 to the last to reach the final Inn, 4 to the second-last, 2 otherwise (C33)
    assert [patience_points(i, 5, p) for i in range(5)] == [2, 2, 2, 4, 6]
    assert [calligraphy_points(Calli.PATIENCE, p, arrival=i, n_travelers=3) for i in range(3)] == [2, 4, 6]


def test_achievements_count_crossroads_cards() -> None:
    tr = TravelerState(
        0,
        souvenirs=[1, 2],
        legendary=[SHODO],
        hot_springs=[0],
        bathhouses=2,
        encounters=[3],
        calligraphy=[FASTING, PATIENCE],
    )
    assert end_achievement_count(tr, "collector") == 3  # C31: Souvenirs + Legendary Objects
    assert end_achievement_count(tr, "bather") == 3  # Hot Springs + Bathhouses (seed 002)
    assert end_achievement_count(tr, "chatterbox") == 3  # Encounters + Calligraphy (seed 002)


# ====================================================================== set-up
def test_markets_are_checked() -> None:
    config, rules = xcfg(3, variants=("initiation",))
    rows = xr_setup(config, rules, markets={Deck.AMULET: [5, 0, 3, 1]})
    ref = ok(config, rules, rows)
    st = ref.state
    assert sorted(st.amulet_market) == [0, 1, 3, 5] and (st.cherry_left, st.bath_left) == (4, 4)
    first = next(i for i, r in enumerate(rows) if r[0] == Ev.MARKET)
    bad = list(rows)
    bad[first + 1] = ev(Ev.MARKET, -1, Deck.LEGENDARY, 0, 1)  # a card twice
    assert_illegal(feed(config, rules, bad), first + 1, "MARKET", "distinct")
    bad = rows[: first + 3] + rows[first + 4 :]  # 3 legendary objects at 3 players
    assert_illegal(feed(config, rules, bad), first + 3, "MARKET", "4 legendary object cards")
    i = next(i for i, r in enumerate(rows) if r[0] == Ev.MARKET and r[2] == Deck.CHERRY)
    bad = list(rows)
    bad[i] = ev(Ev.MARKET, -1, Deck.CHERRY, -1, 5)  # 4 of each type at 2-3 players (C23)
    assert_illegal(feed(config, rules, bad), i, "MARKET", "expected 4 cherry tree")
    config5, rules5 = xcfg(5, variants=("initiation",))
    ref = ok(config5, rules5, xr_setup(config5, rules5))
    assert (len(ref.state.legendary_market), ref.state.bath_left) == (5, 5)


def test_start_amulet() -> None:
    config, rules = xcfg(3, travelers="gotozaemon,kita,nampo")  # gotozaemon starts with 0 coins
    rows = xr_setup(config, rules, start={1: FORTUNE})
    ref = ok(config, rules, rows)
    kita = ref.state.travelers[1]
    assert (kita.coins, kita.amulets, kita.amulets_acquired) == (3, {FORTUNE}, 1)
    assert FORTUNE not in ref.state.amulet_market
    assert not any(r[0] == Ev.OPTION and r[1] == 0 for r in rows)  # no coin, no option
    i = next(i for i, r in enumerate(rows) if r[0] == Ev.GAIN)
    bad = list(rows)
    bad[i] = ev(Ev.GAIN, 1, Deck.AMULET, DEVOTION, 1)  # not in play (cards 0-3)
    assert_illegal(feed(config, rules, bad), i, "GAIN", "not available")
    bad = rows[: i - 1] + [ev(Ev.OPTION, 0, Opt.START_AMULET, 0)] + rows[i - 1 :]
    assert_illegal(feed(config, rules, bad), i - 1, "OPTION", "expected an event of traveler 1")


# ====================================================================== station choices
def test_choice_follows_every_station_stop() -> None:
    config, rules = xcfg(3, variants=("initiation",))
    rows = xr_setup(config, rules)
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 0, FARM7, 0), ev(Ev.MOVE, 1, TEMPLE2, 1)])
    assert_illegal(ref, len(rows) + 1, "MOVE", "CHOICE")
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 0, FARM7, 0), ev(Ev.CHOICE, 0, Space.VILLAGE, 0)])
    assert_illegal(ref, len(rows) + 1, "CHOICE", "type 2")
    ref = feed(config, rules, [*rows, *stop(0, FARM7, 2)])  # both actions: not for a plain traveler
    assert_illegal(ref, len(rows) + 1, "CHOICE", "may not take both")
    ref = ok(config, rules, [*rows, *stop(0, FARM7, 0)])
    assert ref.state.travelers[0].coins == 10


def test_cherry_tree_and_gotozaemon() -> None:
    config, rules = xcfg(
        3, travelers="gotozaemon,kita,nampo", overrides=(("crossroads.cards_by_players.3", "1"),)
    )
    rows = xr_setup(config, rules) + stop(0, PADDY4, 1) + [ev(Ev.GAIN, 0, Deck.CHERRY, -1, 0)]
    ref = ok(config, rules, rows)
    goto = ref.state.travelers[0]
    # "If he decides to take a Cherry Tree, he gains 2 points and 2 coins"
    assert (goto.coins, goto.points["pts_cherry_trees"], goto.cherry_trees, sum(goto.panorama)) == (
        2,
        2,
        1,
        0,
    )
    assert ref.state.cherry_left == 0
    ref = feed(config, rules, [*rows, *stop(1, MOUNTAIN6, 1)])  # the only Cherry Tree is gone
    assert_illegal(ref, len(rows) + 1, "CHOICE", "no cherry tree is left")
    rows2 = rows + stop(1, MOUNTAIN6, 0) + [ev(Ev.PANORAMA, 1, 1, 0)]
    ref = ok(config, rules, rows2)
    assert ref.state.travelers[1].coins == 4  # no Gotozaemon bonus for others


def test_bathhouse() -> None:
    config, rules = xcfg(3, travelers="gotozaemon,kita,nampo")
    rows = xr_setup(config, rules)
    ref = feed(config, rules, [*rows, *stop(0, HOT5, 1)])  # Gotozaemon has no coin
    assert_illegal(ref, len(rows) + 1, "CHOICE", "costs 1")
    rows += stop(0, HOT5, 0) + [ev(Ev.DRAW, 0, Deck.HOT_SPRING, 0), ev(Ev.GAIN, 0, Deck.HOT_SPRING, 0, 0)]
    rows += stop(1, HOT13, 1)
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 1, Deck.BATHHOUSE, -1, 0)])
    assert_illegal(ref, len(rows), "GAIN", "paid 0", "price 1")
    ref = ok(config, rules, [*rows, ev(Ev.GAIN, 1, Deck.BATHHOUSE, -1, 1)])
    kita = ref.state.travelers[1]
    assert (kita.coins, kita.points["pts_bathhouses"], kita.bathhouses, kita.hot_springs) == (3, 4, 1, [])


def test_legendary_objects() -> None:
    config, rules = xcfg(3, variants=("initiation",))
    village = {Deck.SOUVENIR: [0, 6, 12]}  # koma (small, 1), manju (food, 1), haori (clothing, 2)
    rows = xr_setup(
        config, rules, markets={Deck.LEGENDARY: [SHODO, BUPPATSU, MURASAME, MASAMUNE]}, decks=village
    )
    rows += stop(0, VILLAGE1) + [ev(Ev.DRAW, 0, Deck.SOUVENIR, c) for c in (0, 6, 12)]
    rows += [
        ev(Ev.GAIN, 0, Deck.SOUVENIR, 0, 1),
        ev(Ev.GAIN, 0, Deck.SOUVENIR, 6, 1),
        ev(Ev.UNDER, -1, Deck.SOUVENIR, 12),
    ]
    rows += stop(1, TEMPLE2) + [ev(Ev.DONATE, 1, 1, 0)]
    rows += stop(2, ENCOUNTER3) + [ev(Ev.DRAW, 2, Deck.ENCOUNTER, 0), ev(Ev.GAIN, 2, Deck.ENCOUNTER, 0, 0)]
    rows += [ev(Ev.DRAW, 2, Deck.SOUVENIR, 1), ev(Ev.GAIN, 2, Deck.SOUVENIR, 1, 0)]  # shokunin
    rows += stop(0, VILLAGE8, 1)
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 0, Deck.LEGENDARY, EMA, 2)])  # not in play
    assert_illegal(ref, len(rows), "GAIN", "not available")
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 0, Deck.LEGENDARY, BUPPATSU, 1)])
    assert_illegal(ref, len(rows), "GAIN", "paid 1", "price 2")
    # the rulebook example: souvenirs of families A and B, then an Offering scores 5
    ref = ok(config, rules, [*rows, ev(Ev.GAIN, 0, Deck.LEGENDARY, BUPPATSU, 2)])
    p0 = ref.state.travelers[0]
    assert (p0.coins, p0.points["pts_souvenirs"], p0.points["pts_legendary"], p0.legendary) == (
        3,
        4,
        5,
        [BUPPATSU],
    )
    # a Sword: 8 points; a Script: a point per souvenir / object held, then +1 per later souvenir
    swords = ok(config, rules, [*rows, ev(Ev.GAIN, 0, Deck.LEGENDARY, MURASAME, 3)]).state.travelers[0]
    assert (swords.coins, swords.points["pts_legendary"]) == (2, 8)
    rows_s = rows + [ev(Ev.GAIN, 0, Deck.LEGENDARY, SHODO, 1)]
    script = ok(config, rules, rows_s).state.travelers[0]
    assert (script.points["pts_legendary"], script.scripts) == (2, 1)


def test_script_bonus_for_later_souvenirs() -> None:
    config, rules = xcfg(3, travelers="hiroshige,kita,daigoro")
    rows = xr_setup(config, rules, decks={Deck.SOUVENIR: [0, 6, 12, 18]})
    rows += stop(0, VILLAGE1) + [ev(Ev.DRAW, 0, Deck.SOUVENIR, c) for c in (0, 6, 12)]
    rows += [ev(Ev.UNDER, -1, Deck.SOUVENIR, c) for c in (0, 6, 12)]
    rows += stop(1, TEMPLE2) + [ev(Ev.DONATE, 1, 1, 0)]
    rows += stop(2, VILLAGE8, 1) + [ev(Ev.GAIN, 2, Deck.LEGENDARY, SHODO, 1)]  # nothing held: 0 points
    rows += stop(0, PADDY4) + [ev(Ev.PANORAMA, 0, 0, 0)]
    rows += stop(1, HOT5) + [ev(Ev.DRAW, 1, Deck.HOT_SPRING, 0), ev(Ev.GAIN, 1, Deck.HOT_SPRING, 0, 0)]
    rows += stop(0, TEMPLE9) + [ev(Ev.DONATE, 0, 1, 0)]
    rows += stop(1, ENCOUNTER10) + [ev(Ev.DRAW, 1, Deck.ENCOUNTER, 0), ev(Ev.GAIN, 1, Deck.ENCOUNTER, 0, 0)]
    rows += [ev(Ev.DRAW, 1, Deck.SOUVENIR, 18), ev(Ev.GAIN, 1, Deck.SOUVENIR, 18, 0)]  # kita's shokunin
    # daigoro (p2 at 8) is behind: the Inn, where he draws a souvenir before the meal
    rows += [ev(Ev.MOVE, 2, INN14, 2), ev(Ev.DRAW, 2, Deck.SOUVENIR, 1)]  # gofu (small objects)
    rows += [ev(Ev.GAIN, 2, Deck.SOUVENIR, 1, 0)]
    ref = ok(config, rules, rows)
    daigoro = ref.state.travelers[2]
    assert daigoro.points["pts_souvenirs"] == 1 and daigoro.points["pts_legendary"] == 1  # +1: the Script
    rows_bad = list(rows)
    i = next(i for i, r in enumerate(rows_bad) if r[0] == Ev.MOVE and r[1] == 2 and r[2] == INN14)
    ref = feed(config, rules, rows_bad[: i + 1] + [ev(Ev.DRAW, 2, Deck.MEAL, 0)])
    assert_illegal(ref, i + 1, "DRAW", "souvenir deck")


def test_gaming_room_and_the_fortune_die() -> None:
    config, rules = xcfg(3, travelers="satsuki,kita,nampo")  # satsuki 2, kita 4, nampo 2
    rows = xr_setup(config, rules)
    rows += stop(0, FARM7, 1)
    for face in (5, -1):
        ref = feed(config, rules, [*rows, ev(Ev.DIE, 0, face, 2, DieSrc.GAMING_ROOM)])
        assert_illegal(ref, len(rows), "DIE", "not on the fortune die")
    ref = feed(config, rules, [*rows, ev(Ev.DIE, 0, 2, 1, DieSrc.GAMING_ROOM)])
    assert_illegal(ref, len(rows), "DIE", "betting 2")
    for face, coins in ((0, 0), (1, 2), (3, 6), (4, 8)):
        ref = ok(config, rules, [*rows, ev(Ev.DIE, 0, face, 2, DieSrc.GAMING_ROOM)])
        assert ref.state.travelers[0].coins == coins  # the bet comes back x the face
    rows += [ev(Ev.DIE, 0, 0, 2, DieSrc.GAMING_ROOM)]  # satsuki loses her 2 coins
    ref = ok(config, rules, rows)
    assert (ref.state.travelers[0].coins, ref.state.travelers[0].stops) == (0, 1)


def test_gaming_room_needs_the_bet() -> None:
    config, rules = xcfg(3, travelers="satsuki,kita,nampo", overrides=(("travelers.satsuki.coins", "1"),))
    rows = xr_setup(config, rules)
    ref = feed(config, rules, [*rows, *stop(0, FARM7, 1)])
    assert_illegal(ref, len(rows) + 1, "CHOICE", "needs a bet of 2")
