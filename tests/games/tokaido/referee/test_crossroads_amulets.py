"""The referee's Crossroads Amulets (sim/games/tokaido/referee/amulets.py) on hand-built logs: when a bought
Amulet
is usable, each Amulet's effect, Devotion's rulebook example, and the Travelers that change them.
"""

from __future__ import annotations

from kernels.tokaido.core.enums import Deck, DieSrc, Ev, Opt
from tests.helpers.referee_logs import (
    DEVOTION,
    ENCOUNTER3,
    ENCOUNTER10,
    FARM7,
    FORESIGHT,
    FORTUNE,
    FRIENDSHIP,
    HEALTH,
    HOSPITALITY,
    INN14,
    MOUNTAIN6,
    PADDY4,
    PATIENCE,
    TEMPLE2,
    TEMPLE9,
    VILLAGE1,
    VILLAGE8,
    VITALITY,
    assert_illegal,
    ev,
    feed,
    ok,
    stop,
    xcfg,
    xr_setup,
)


# ====================================================================== amulets
def test_amulet_bought_at_a_temple_is_usable_on_the_buyers_next_move() -> None:
    """Seed 002: "he can use it on his next move, but never on the same turn as when it is acquired"
    (C35): p0, still farthest behind after buying the Fortune Amulet, moves again at once and may
    roll it (the rule's kernel test also checks it is never used at the stop where it was bought)."""
    config, rules = xcfg(3, variants=("initiation",))
    rows = xr_setup(config, rules, lineup=[2, 0, 1])  # p1 leaves first, then p2, then p0
    rows += stop(1, FARM7) + stop(2, MOUNTAIN6) + [ev(Ev.PANORAMA, 2, 1, 0)]
    rows += stop(0, TEMPLE2, 1) + [ev(Ev.GAIN, 0, Deck.AMULET, FORTUNE, 1)]
    ref = ok(config, rules, rows)
    p0 = ref.state.travelers[0]
    assert (p0.coins, p0.donated, p0.score, p0.amulets, p0.amulets_acquired) == (6, 0, 0, {FORTUNE}, 1)
    ref = feed(config, rules, [*rows, ev(Ev.USE, 0, FORTUNE), ev(Ev.DIE, 0, 3, 1, DieSrc.FORTUNE)])
    assert_illegal(ref, len(rows) + 1, "DIE", "betting 0")
    ref = feed(config, rules, [*rows, ev(Ev.USE, 1, FORTUNE)])
    assert_illegal(ref, len(rows), "USE", "traveler 1 uses an amulet, but traveler 0 (p0) moves next")
    ref = feed(config, rules, [*rows, ev(Ev.USE, 0, FORTUNE, 2)])
    assert_illegal(ref, len(rows), "USE", "takes no argument")
    ref = feed(config, rules, [*rows, ev(Ev.USE, 0, FORTUNE), ev(Ev.MOVE, 0, INN14, 0)])
    assert_illegal(ref, len(rows) + 1, "MOVE", "DIE")
    rows += [ev(Ev.USE, 0, FORTUNE), ev(Ev.DIE, 0, 3, 0, DieSrc.FORTUNE)]  # his next move: usable
    ref = ok(config, rules, rows)
    p0 = ref.state.travelers[0]
    assert (p0.coins, p0.amulets, p0.amulets_acquired) == (9, set(), 1)  # x3: +3 coins
    assert FORTUNE in ref.state.amulet_market  # back in the market
    ref = feed(config, rules, [*rows, ev(Ev.USE, 0, FORTUNE)])  # used once only
    assert_illegal(ref, len(rows), "USE", "does not hold the fortune amulet")


def test_friendship() -> None:
    config, rules = xcfg(3, variants=("initiation",))
    rows = xr_setup(config, rules, start={0: FRIENDSHIP})
    rows += stop(0, FARM7) + stop(1, TEMPLE2) + [ev(Ev.DONATE, 1, 1, 0)]
    # p2 may not share p0's farm without the amulet (a double space holds one at 3 travelers)
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 2, FARM7, 2)])
    assert_illegal(ref, len(rows), "MOVE", "full")
    rows += stop(2, VILLAGE8) + [ev(Ev.DRAW, 2, Deck.SOUVENIR, c) for c in (0, 1, 2)]
    rows += [ev(Ev.UNDER, -1, Deck.SOUVENIR, c) for c in (0, 1, 2)]
    # p1 (at 2) is behind: p1 holds no amulet
    ref = feed(config, rules, [*rows, ev(Ev.USE, 1, FRIENDSHIP)])
    assert_illegal(ref, len(rows), "USE", "does not hold")
    rows += stop(1, TEMPLE9) + [ev(Ev.DONATE, 1, 1, 0)]
    # p0 (at 7) is behind: friendship onto p2's single village
    ref = feed(config, rules, [*rows, ev(Ev.USE, 0, FRIENDSHIP), ev(Ev.MOVE, 0, ENCOUNTER10, 0)])
    assert_illegal(ref, len(rows) + 1, "MOVE", "friendship amulet needs")  # nobody there
    ref = feed(config, rules, [*rows, ev(Ev.USE, 0, FRIENDSHIP), ev(Ev.MOVE, 0, INN14, 0)])
    assert_illegal(ref, len(rows) + 1, "MOVE", "friendship amulet needs")
    rows += [ev(Ev.USE, 0, FRIENDSHIP), *stop(0, VILLAGE8)]
    rows += [ev(Ev.DRAW, 0, Deck.SOUVENIR, c) for c in (3, 4, 5)] + [
        ev(Ev.UNDER, -1, Deck.SOUVENIR, c) for c in (3, 4, 5)
    ]
    ref = ok(config, rules, rows)
    st = ref.state
    assert [o.index for o in st.occupants(VILLAGE8)] == [0, 2]
    assert st.next_traveler() == 0  # "The Traveler using this Amulet leaves first"


def test_health_takes_both_actions() -> None:
    config, rules = xcfg(3, variants=("initiation",))
    rows = xr_setup(config, rules, start={0: HEALTH})
    ref = feed(
        config, rules, [*rows, ev(Ev.MOVE, 0, PADDY4, 0), ev(Ev.USE, 0, HEALTH), ev(Ev.CHOICE, 0, 3, 1)]
    )
    assert_illegal(ref, len(rows) + 2, "CHOICE", "option is 2")
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 0, INN14, 0), ev(Ev.USE, 0, HEALTH)])
    assert_illegal(ref, len(rows) + 1, "USE", "not be used on arriving at an Inn")
    both = [ev(Ev.MOVE, 0, PADDY4, 0), ev(Ev.USE, 0, HEALTH), ev(Ev.CHOICE, 0, 3, 2)]
    ref = feed(config, rules, [*rows, *both, ev(Ev.GAIN, 0, Deck.CHERRY, -1, 0)])  # base action first (C27)
    assert_illegal(ref, len(rows) + 3, "GAIN", "PANORAMA")
    second = ev(Ev.OPTION, 0, Opt.SECOND, 1)  # the second action, possible, is taken (C42)
    ref = ok(
        config, rules, [*rows, *both, ev(Ev.PANORAMA, 0, 0, 0), second, ev(Ev.GAIN, 0, Deck.CHERRY, -1, 0)]
    )
    p0 = ref.state.travelers[0]
    assert (p0.coins, p0.points["pts_panoramas"], p0.points["pts_cherry_trees"], p0.cherry_trees) == (
        7,
        1,
        2,
        1,
    )
    assert HEALTH in ref.state.amulet_market


def test_kita_and_miyataka_take_both() -> None:
    config, rules = xcfg(3, travelers="kita,miyataka,nampo")
    rows = xr_setup(config, rules, decks={Deck.ENCOUNTER: [6]})  # a samurai on top
    rows += stop(0, ENCOUNTER3, 2) + [ev(Ev.DRAW, 0, Deck.ENCOUNTER, 6), ev(Ev.GAIN, 0, Deck.ENCOUNTER, 6, 0)]
    ref = feed(config, rules, rows)  # the calligraphy is asked while kita can pay (C42), then must follow
    ref.finish()
    assert "before END" in ref.errors[0]
    rows += [ev(Ev.OPTION, 0, Opt.SECOND, 1), ev(Ev.GAIN, 0, Deck.CALLIGRAPHY, FORESIGHT, 1)]
    kita = ok(config, rules, rows).state.travelers[0]
    assert (kita.coins, kita.points["pts_encounters"], kita.calligraphy, kita.encounters) == (
        3,
        3,
        [FORESIGHT],
        [6],
    )
    ref = feed(config, rules, [*rows, *stop(1, ENCOUNTER10, 2)])  # miyataka: both only at Temples
    assert_illegal(ref, len(rows) + 1, "CHOICE", "may not take both")
    rows += stop(1, TEMPLE2, 2) + [
        ev(Ev.DONATE, 1, 2, 0),
        ev(Ev.OPTION, 1, Opt.SECOND, 1),
        ev(Ev.GAIN, 1, Deck.AMULET, VITALITY, 1),
    ]
    ref = ok(config, rules, rows)
    miya = ref.state.travelers[1]
    assert (miya.coins, miya.donated, miya.points["pts_temple"], miya.amulets) == (1, 2, 2, {VITALITY})
    # with option 2 the alternative is skipped once the base action leaves no coin for it
    config2, rules2 = xcfg(3, travelers="kita,miyataka,nampo", overrides=(("travelers.miyataka.coins", "1"),))
    rows2 = xr_setup(config2, rules2) + stop(0, FARM7) + stop(1, TEMPLE2, 2) + [ev(Ev.DONATE, 1, 1, 0)]
    rows2 += stop(2, PADDY4) + [ev(Ev.PANORAMA, 2, 0, 0)]
    ok(config2, rules2, rows2)


def test_vitality_moves_again() -> None:
    config, rules = xcfg(3, variants=("initiation",))
    rows = xr_setup(config, rules, start={0: VITALITY})
    # p0 moves to the farm, every other traveler strictly behind: move again at once
    rows += stop(0, FARM7) + [ev(Ev.USE, 0, VITALITY)]
    ref = feed(config, rules, [*rows, *stop(1, TEMPLE2)])  # p1 is behind, but p0 moves again
    assert_illegal(ref, len(rows), "MOVE", "moves again (vitality)")
    rows += stop(0, VILLAGE8) + [ev(Ev.DRAW, 0, Deck.SOUVENIR, c) for c in (0, 1, 2)]
    rows += [ev(Ev.UNDER, -1, Deck.SOUVENIR, c) for c in (0, 1, 2)]
    ref = ok(config, rules, [*rows, *stop(1, TEMPLE2)])
    assert ref.state.travelers[0].pos == VILLAGE8 and VITALITY in ref.state.amulet_market
    # not alone in the lead: not allowed
    config4, rules4 = xcfg(4, variants=("initiation",))
    rows4 = xr_setup(config4, rules4, start={1: VITALITY}) + stop(0, FARM7) + stop(1, FARM7)
    ref = feed(config4, rules4, [*rows4, ev(Ev.USE, 1, VITALITY)])
    assert_illegal(ref, len(rows4), "USE", "strictly ahead")
    # not on arriving at an Inn
    rows_inn = xr_setup(config, rules, start={0: VITALITY}) + [ev(Ev.MOVE, 0, INN14, 0)]
    rows_inn += [ev(Ev.DRAW, 0, Deck.MEAL, m) for m in range(4)]
    ref = feed(config, rules, [*rows_inn, ev(Ev.USE, 0, VITALITY)])
    assert_illegal(ref, len(rows_inn), "USE", "Inn")


def test_hospitality_and_nampo() -> None:
    config, rules = xcfg(3, travelers="nampo,kita,miyataka")  # meals 19-21: unagi, donburi, udon (3)
    rows = xr_setup(
        config,
        rules,
        markets={Deck.AMULET: [HOSPITALITY, 0, 1, 2]},
        start={0: HOSPITALITY},
        decks={Deck.MEAL: [19, 20, 21, 22]},
    )
    rows += [ev(Ev.MOVE, 0, INN14, 0)] + [ev(Ev.DRAW, 0, Deck.MEAL, m) for m in (19, 20, 21, 22)]
    ref = feed(config, rules, [*rows, ev(Ev.USE, 0, HOSPITALITY), ev(Ev.GAIN, 0, Deck.MEAL, 19, 3)])
    assert_illegal(ref, len(rows) + 1, "GAIN", "free")
    ref = feed(config, rules, [*rows, ev(Ev.USE, 0, HOSPITALITY), ev(Ev.MOVE, 1, INN14, 1)])
    assert_illegal(ref, len(rows) + 1, "MOVE", "took no meal")
    rows += [ev(Ev.USE, 0, HOSPITALITY), ev(Ev.GAIN, 0, Deck.MEAL, 19, 0)]
    ref = ok(config, rules, rows)
    nampo = ref.state.travelers[0]
    # Nampo: + the printed cost (3) in points at each Inn meal, even a free one
    assert (nampo.coins, nampo.points["pts_meals"], nampo.points["pts_other"], nampo.inn_meals) == (
        1,
        6,
        3,
        1,
    )
    assert nampo.meal_value == 3


DEVOTION_MARKET = {Deck.AMULET: [DEVOTION, 0, 1, 2]}


def test_devotion_rulebook_example() -> None:
    # "He buys two Souvenirs, one worth 1 coin and the other 3 coins. He uses the Amulet so that the
    # 3 coins for the second object are placed in the Temple. He scores 3 points for these 3 coins."
    config, rules = xcfg(3, variants=("initiation",))
    rows = xr_setup(
        config, rules, markets=DEVOTION_MARKET, start={0: DEVOTION}, decks={Deck.SOUVENIR: [0, 21, 12]}
    )
    rows += stop(0, VILLAGE1) + [ev(Ev.DRAW, 0, Deck.SOUVENIR, c) for c in (0, 21, 12)]
    rows += [ev(Ev.GAIN, 0, Deck.SOUVENIR, 0, 1), ev(Ev.GAIN, 0, Deck.SOUVENIR, 21, 3)]
    ref = feed(config, rules, [*rows, ev(Ev.USE, 0, DEVOTION, 2)])
    assert_illegal(ref, len(rows), "USE", "3 coins just paid")
    rows += [ev(Ev.USE, 0, DEVOTION, 3), ev(Ev.UNDER, -1, Deck.SOUVENIR, 12)]
    ref = ok(config, rules, rows)
    p0 = ref.state.travelers[0]
    assert (p0.coins, p0.donated, p0.points["pts_temple"], p0.points["pts_souvenirs"]) == (2, 3, 3, 4)
    # after a free card there is nothing to give
    rows_free = xr_setup(config, rules, markets=DEVOTION_MARKET, start={0: DEVOTION}) + stop(0, PADDY4, 1)
    rows_free += [ev(Ev.GAIN, 0, Deck.CHERRY, -1, 0)]
    ref = feed(config, rules, [*rows_free, ev(Ev.USE, 0, DEVOTION, 0)])
    assert_illegal(ref, len(rows_free), "USE", "cost nothing")


def test_calligraphy_purchase_and_umegae() -> None:
    config, rules = xcfg(3, travelers="umegae,kita,nampo", overrides=(("travelers.umegae.coins", "0"),))
    rows = xr_setup(config, rules)
    # Umegae's +1 coin comes first, so she can pay for the calligraphy (seed 002 notes)
    rows += stop(0, ENCOUNTER3, 1) + [ev(Ev.GAIN, 0, Deck.CALLIGRAPHY, PATIENCE, 1)]
    ref = ok(config, rules, rows)
    umegae = ref.state.travelers[0]
    assert (umegae.coins, umegae.points["pts_other"], umegae.calligraphy, umegae.encounters) == (
        0,
        1,
        [PATIENCE],
        [],
    )
    ref = feed(
        config, rules, [*rows, *stop(1, ENCOUNTER10, 1), ev(Ev.GAIN, 1, Deck.CALLIGRAPHY, PATIENCE, 1)]
    )
    assert_illegal(ref, len(rows) + 2, "GAIN", "not available")


def test_jirocho_bets_at_intermediate_inns() -> None:
    config, rules = xcfg(3, travelers="jirocho,kita,nampo")
    rows = xr_setup(config, rules) + [ev(Ev.MOVE, 0, INN14, 0)]
    ref = feed(config, rules, [*rows, ev(Ev.DRAW, 0, Deck.MEAL, 0)])
    assert_illegal(ref, len(rows), "DRAW", "OPTION")
    ref = feed(config, rules, [*rows, ev(Ev.OPTION, 0, Opt.JIROCHO, 1), ev(Ev.DIE, 0, 4, 2, DieSrc.JIROCHO)])
    assert_illegal(ref, len(rows) + 1, "DIE", "betting 1")
    rows += [ev(Ev.OPTION, 0, Opt.JIROCHO, 1), ev(Ev.DIE, 0, 4, 1, DieSrc.JIROCHO)]
    rows += [ev(Ev.DRAW, 0, Deck.MEAL, m) for m in range(4)]
    ref = ok(config, rules, rows)
    assert ref.state.travelers[0].coins == 5 - 1 + 4
