"""The referee (sim/games/tokaido/referee/game.py): scoring examples from the rulebook and hand-built logs.

Hand-built logs use small helpers (``setup_log``, ``ev``: tests/helpers/referee_logs.py); whole random
legal games (``SelfPlay``, tests/helpers/referee_selfplay.py) are in
tests/games/tokaido/referee/test_self_play.py.
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import Deck, Enc, Ev
from sim.games.tokaido.referee.scoring import (
    achievement_winners,
    final_ranks,
    souvenir_collection_points,
    temple_bonus,
)
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules
from tests.helpers.referee_logs import Row, assert_illegal, cfg, ev, feed, setup_log

# ====================================================================== scoring arithmetic
SMALL, FOOD, CLOTHING, ART = 0, 1, 2, 3


@pytest.mark.parametrize(
    ("families", "points"),
    [
        ([SMALL], 1),
        ([SMALL, FOOD], 4),
        ([SMALL, FOOD, ART], 9),
        ([SMALL, FOOD, CLOTHING, ART], 16),  # rulebook: 1+3+5+7
        ([ART, ART, ART], 3),  # rulebook: three separate sets
        ([FOOD, FOOD, CLOTHING], 5),  # rulebook: 1+1+3
        ([FOOD, CLOTHING, FOOD, CLOTHING], 8),  # rulebook: 1+3+1+3
        ([FOOD, FOOD, CLOTHING, CLOTHING], 8),
        ([SMALL, SMALL, FOOD, CLOTHING, ART], 1 + 16),
    ],
)
def test_souvenir_sets_rulebook_examples(families: list[int], points: int) -> None:
    assert souvenir_collection_points(families, [1, 3, 5, 7]) == points


def test_temple_ranking_rulebook_example() -> None:
    # Yellow 1st, Blue and Green tied 2nd, White and Purple gave nothing
    assert temple_bonus([6, 3, 3, 0, 0], [10, 7, 4, 2]) == [10, 7, 7, 0, 0]


@pytest.mark.parametrize(
    ("donated", "bonus"),
    [
        ([5, 5, 3, 2, 1], [10, 10, 7, 4, 2]),  # the next distinct amount takes the next value
        ([3, 2, 1, 1, 1], [10, 7, 4, 4, 4]),
        ([6, 5, 4, 3, 2], [10, 7, 4, 2, 2]),  # every further donor: the last value
        ([0, 0], [0, 0]),
    ],
)
def test_temple_ranking_ties(donated: list[int], bonus: list[int]) -> None:
    assert temple_bonus(donated, [10, 7, 4, 2]) == bonus


def test_achievements_and_ranks() -> None:
    assert achievement_winners([3, 5, 5], 1) == [1, 2]
    assert achievement_winners([0, 0], 1) == []
    assert final_ranks([(50, 2), (50, 3), (40, 9), (50, 3)]) == [3, 1, 4, 1]


# ====================================================================== hand-built logs
def test_legal_short_sequence_is_accepted() -> None:
    config, rules = cfg(3, variants=("initiation",))
    rows = setup_log(config, rules)
    rows += [ev(Ev.MOVE, 0, 7, 0)]  # p0 leaves first: farm
    rows += [ev(Ev.MOVE, 1, 2, 1), ev(Ev.DONATE, 1, 2, 0)]  # p1 (later stamp) temple
    rows += [ev(Ev.MOVE, 2, 4, 2), ev(Ev.PANORAMA, 2, 0, 0)]  # p2 paddy
    rows += [ev(Ev.MOVE, 1, 5, 1), ev(Ev.DRAW, 1, Deck.HOT_SPRING, 0), ev(Ev.GAIN, 1, Deck.HOT_SPRING, 0, 0)]
    rows += [ev(Ev.MOVE, 2, 6, 2), ev(Ev.PANORAMA, 2, 1, 0)]
    ref = feed(config, rules, rows)
    assert ref.errors == []
    p0, p1, p2 = ref.state.travelers
    assert (p0.coins, p1.coins, p2.coins) == (10, 5, 7)
    assert (p1.points["pts_temple"], p1.points["pts_hot_springs"], p1.donated) == (2, 2, 2)
    assert p2.score == 2 and p2.stops == 2
    assert ref.state.next_traveler() == 1  # p1 at 5 is behind p2 at 6 and p0 at 7
    ref.finish()
    assert "before END" in ref.errors[0]


def test_wrong_traveler_moves() -> None:
    config, rules = cfg(3, variants=("initiation",))
    rows = setup_log(config, rules)
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 1, 7, 1)])
    assert_illegal(ref, len(rows), "MOVE", "traveler 1 (p1) moved but traveler 0 (p0) is behind")


def test_same_space_later_arrival_is_behind() -> None:
    config, rules = cfg(4, variants=("initiation",))
    rows = setup_log(config, rules) + [ev(Ev.MOVE, 0, 7, 0), ev(Ev.MOVE, 1, 7, 1)]
    # p1 arrived after p0 on the double farm: the next traveler behind is p2 or p3 at Kyoto
    ref = feed(config, rules, rows + [ev(Ev.MOVE, 2, 8, 2), ev(Ev.DRAW, 2, 0, 0)])
    assert ref.errors == []
    ref.state.travelers[2].pos = ref.state.travelers[3].pos = 9  # everyone else ahead
    assert ref.state.next_traveler() == 1


def test_occupied_space_is_rejected() -> None:
    config, rules = cfg(3, variants=("initiation",))
    rows = setup_log(config, rules) + [ev(Ev.MOVE, 0, 7, 0)]
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 1, 7, 1)])  # a double space holds 1 at 3 travelers
    assert_illegal(ref, len(rows), "MOVE", "full")


def test_double_space_holds_two_at_four_players() -> None:
    config, rules = cfg(4, variants=("initiation",))
    rows = setup_log(config, rules) + [ev(Ev.MOVE, 0, 7, 0), ev(Ev.MOVE, 1, 7, 1)]
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 2, 7, 2)])
    assert_illegal(ref, len(rows), "MOVE", "full")


def test_passing_an_inn_is_rejected() -> None:
    config, rules = cfg(3, variants=("initiation",))
    rows = setup_log(config, rules)
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 0, 15, 0)])
    assert_illegal(ref, len(rows), "MOVE", "beyond the Inn at 14")


def test_village_and_temple_need_a_coin() -> None:
    config, rules = cfg(3, travelers="satsuki,kinko,zen-emon", overrides=(("travelers.satsuki.coins", "0"),))
    rows = setup_log(config, rules)
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 0, 1, 0)])
    assert_illegal(ref, len(rows), "MOVE", "village")
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 0, 2, 0)])
    assert_illegal(ref, len(rows), "MOVE", "temple")


def test_completed_panorama_is_closed() -> None:
    config, rules = cfg(3, variants=("initiation",), overrides=(("panoramas.lengths", "3,1,5"),))
    rows = setup_log(config, rules)
    rows += [ev(Ev.MOVE, 0, 6, 0), ev(Ev.PANORAMA, 0, 1, 0)]  # completes the mountain
    rows += [ev(Ev.MOVE, 1, 7, 1), ev(Ev.MOVE, 2, 9, 2), ev(Ev.DONATE, 2, 1, 0)]
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 0, 12, 0)])
    assert_illegal(ref, len(rows), "MOVE", "completed the mountain panorama")
    p0 = ref.state.travelers[0]
    assert p0.points["pts_panoramas"] == 1 and p0.points["pts_achievements"] == 3


def test_neutral_is_moved_by_the_lead_player() -> None:
    config, rules = cfg(2, variants=("initiation",))
    rows = setup_log(config, rules, lineup=[1, 2, 0])  # the Neutral leaves first; p1 leaves last = leads
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 2, 7, 0)])
    assert_illegal(ref, len(rows), "MOVE", "controller 0, expected 1")
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 2, 2, 1), ev(Ev.DONATE, 2, 0, 1)])
    assert ref.errors == [] and ref.state.travelers[2].donated == 1


def test_wrong_draw_is_caught() -> None:
    config, rules = cfg(3, variants=("initiation",))
    rows = setup_log(config, rules) + [ev(Ev.MOVE, 0, 1, 0)]
    ref = feed(config, rules, [*rows, ev(Ev.DRAW, 0, Deck.SOUVENIR, 5)])
    assert_illegal(ref, len(rows), "DRAW", "top of the souvenir pile is koma")


def test_gain_with_wrong_price_is_caught() -> None:
    config, rules = cfg(3, variants=("initiation",))
    rows = setup_log(config, rules) + [ev(Ev.MOVE, 0, 1, 0)]
    rows += [ev(Ev.DRAW, 0, Deck.SOUVENIR, c) for c in (0, 1, 2)]
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 0, Deck.SOUVENIR, 0, 2)])
    assert_illegal(ref, len(rows), "GAIN", "paid 2", "price 1")
    # unbought cards must go under before the next move
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 0, 0, 0, 1), ev(Ev.MOVE, 1, 2, 1)])
    assert_illegal(ref, len(rows) + 1, "MOVE", "still on the table")


VILLAGE_DECK = {Deck.SOUVENIR: [18, 6, 12]}  # netsuke (art, 2), manju (food, 1), haori (clothing, 2)


def village_rows(config: GameConfig, rules: Rules) -> list[Row]:
    return (
        setup_log(config, rules, decks=VILLAGE_DECK)
        + [ev(Ev.MOVE, 0, 1, 0)]
        + [ev(Ev.DRAW, 0, Deck.SOUVENIR, c) for c in VILLAGE_DECK[Deck.SOUVENIR]]
    )


def test_sasayakko_cheapest_souvenir_is_free() -> None:
    config, rules = cfg(3, travelers="sasayakko,kinko,zen-emon")
    rows = village_rows(config, rules)
    good = [ev(Ev.GAIN, 0, 0, 18, 2), ev(Ev.GAIN, 0, 0, 6, 0), ev(Ev.GAIN, 0, 0, 12, 2)]
    ref = feed(config, rules, rows + good)
    assert ref.errors == []
    sas = ref.state.travelers[0]
    assert (sas.coins, sas.points["pts_souvenirs"]) == (1, 1 + 3 + 5)
    paid_all = [ev(Ev.GAIN, 0, 0, 18, 2), ev(Ev.GAIN, 0, 0, 6, 1), ev(Ev.UNDER, -1, 0, 12)]
    ref = feed(config, rules, rows + paid_all)
    assert_illegal(ref, len(rows) + 1, "sasayakko", "paid for all")
    wrong_free = [ev(Ev.GAIN, 0, 0, 18, 0), ev(Ev.GAIN, 0, 0, 6, 1), ev(Ev.UNDER, -1, 0, 12)]
    ref = feed(config, rules, rows + wrong_free)
    assert_illegal(ref, len(rows), "not the cheapest")


def test_zen_emon_one_cheap_souvenir_per_village() -> None:
    config, rules = cfg(3, travelers="zen-emon,kinko,satsuki")
    rows = village_rows(config, rules)
    ref = feed(
        config, rules, rows + [ev(Ev.GAIN, 0, 0, 18, 1), ev(Ev.GAIN, 0, 0, 6, 1), ev(Ev.UNDER, -1, 0, 12)]
    )
    assert ref.errors == [] and ref.state.travelers[0].coins == 4
    ref = feed(config, rules, rows + [ev(Ev.GAIN, 0, 0, 18, 1), ev(Ev.GAIN, 0, 0, 12, 1)])
    assert_illegal(ref, len(rows) + 1, "GAIN", "price 2")


def test_inn_meals_kinko_satsuki_and_leftovers() -> None:
    config, rules = cfg(3, travelers="kinko,satsuki,zen-emon")
    # meals 0-2 misoshiru (1), 3-5 nigirimeshi (1); first arrival draws 3 + 1 = 4 cards
    rows = setup_log(config, rules) + [ev(Ev.MOVE, 0, 14, 0)]
    rows += [ev(Ev.DRAW, 0, Deck.MEAL, m) for m in range(4)]
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 0, Deck.MEAL, 0, 1)])
    assert_illegal(ref, len(rows), "GAIN", "price 0")
    rows += [ev(Ev.GAIN, 0, Deck.MEAL, 0, 0)]
    rows += [ev(Ev.MOVE, 1, 14, 1), ev(Ev.OFFER, 1, 3), ev(Ev.GAIN, 1, Deck.MEAL, 3, 0)]
    rows += [ev(Ev.MOVE, 2, 14, 2)]
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 2, Deck.MEAL, 1, 1), ev(Ev.MOVE, 2, 15, 2)])
    assert_illegal(ref, len(rows) + 1, "MOVE", "UNDER")
    rows += [ev(Ev.GAIN, 2, Deck.MEAL, 1, 1), ev(Ev.UNDER, -1, Deck.MEAL, 2)]
    ref = feed(config, rules, rows)
    assert ref.errors == []
    kinko, satsuki, zen = ref.state.travelers
    assert (kinko.coins, satsuki.coins, zen.coins) == (7, 2, 5)
    assert [t.points["pts_meals"] for t in (kinko, satsuki, zen)] == [6, 6, 6]
    assert list(ref.state.piles[Deck.MEAL])[-1] == 2


def test_itamae_dish_already_eaten_goes_under() -> None:
    config, rules = cfg(3, travelers="kinko,satsuki,zen-emon", expansions=("new-encounters",))
    itamae = next(e.id for e in rules.encounters if e.kind == Enc.ITAMAE)
    # meals: misoshiru 0, nigirimeshi 3, dango 6, yakitori 9, then misoshiru 1 on top after the Inn
    rows = setup_log(config, rules, decks={Deck.MEAL: [0, 3, 6, 9, 1], Deck.ENCOUNTER: [itamae]})
    rows += [ev(Ev.MOVE, 0, 14, 0)] + [ev(Ev.DRAW, 0, Deck.MEAL, m) for m in (0, 3, 6, 9)]
    rows += [
        ev(Ev.GAIN, 0, Deck.MEAL, 0, 0),
        ev(Ev.MOVE, 1, 14, 1),
        ev(Ev.OFFER, 1, 6),
        ev(Ev.MOVE, 2, 14, 2),
    ]
    rows += [ev(Ev.UNDER, -1, Deck.MEAL, m) for m in (3, 6, 9)]
    rows += [ev(Ev.MOVE, 2, 15, 2), ev(Ev.PANORAMA, 2, 2, 0), ev(Ev.MOVE, 1, 16, 1), ev(Ev.DONATE, 1, 1, 0)]
    rows += [
        ev(Ev.MOVE, 0, 20, 0),
        ev(Ev.DRAW, 0, Deck.ENCOUNTER, itamae),
        ev(Ev.GAIN, 0, Deck.ENCOUNTER, itamae, 0),
    ]
    rows += [ev(Ev.OPTION, 0, 0, 1), ev(Ev.DRAW, 0, Deck.MEAL, 1)]
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 0, Deck.MEAL, 1, 0)])
    assert_illegal(ref, len(rows), "UNDER")
    ref = feed(config, rules, [*rows, ev(Ev.UNDER, -1, Deck.MEAL, 1)])
    assert ref.errors == []
    kinko = ref.state.travelers[0]
    assert (kinko.coins, len(kinko.meals), len(kinko.encounters), kinko.score) == (6, 1, 1, 6)
    assert list(ref.state.piles[Deck.MEAL])[-1] == 1
