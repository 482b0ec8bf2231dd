"""Rules of the Inns: the meal hand, the order of buying, one meal per Inn, leftovers.

Travelers arrive with ``Position.stop`` (``tests/helpers/positions.py``), the meal pile's
top cards are chosen by the test. Docstrings quote the rulebook (seed 000) or
name the rule choice (docs/rules-choices.md).
"""

from __future__ import annotations

import pytest

from kernels.tokaido.bots.policy import choose_meal_nb
from kernels.tokaido.core.enums import PF, Bot, Deck, Ev, G
from sim.games.tokaido.engine import play_games
from sim.games.tokaido.referee.game import explain_mismatch, referee_game, rows_from_records
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from tests.helpers.positions import BOTH, kern, make_position, make_rules, meal_ids

INN = 14


def cfg(n: int, *variants: str) -> GameConfig:
    return GameConfig(n_players=n, travelers="random", variants=variants)


def near_inn(n: int) -> list[int]:
    nt = n + (n == 2)
    return [13 - t for t in range(nt)]


def meal_draws(pos) -> list[int]:
    return [e[3] for e in pos.events(Ev.DRAW) if e[2] == Deck.MEAL]


@BOTH
@pytest.mark.parametrize("n", [3, 4, 5])
def test_first_arrival_draws_travelers_plus_one(mode: str, n: int) -> None:
    """Rulebook "Arriving at an Inn": "When the first Traveler arrives at an Inn, they draw as many
    Meal cards as there are players, plus 1"; later arrivals draw nothing."""
    pos = make_position(make_rules(cfg(n)), positions=near_inn(n), coins=[0] * n, mode=mode)
    pos.stop(0, INN)
    assert len(meal_draws(pos)) == n + 1 and pos.gs[G.HAND_N] == n + 1
    assert pos.hand() == meal_draws(pos)
    pos.stop(1, INN)
    assert len(meal_draws(pos)) == n + 1 and pos.pub["dcnt"][Deck.MEAL] == 25 - (n + 1)


@BOTH
def test_two_players_draw_four_meals(mode: str) -> None:
    """C8: at 2 players the first arrival draws 4 (the rulebook's 2-player section: "With two
    players, the first player at the Inn draws four Meal cards"); Gastronomy: 3."""
    for variants, k in (((), 4), (("gastronomy",), 3)):
        pos = make_position(make_rules(cfg(2, *variants)), positions=[13, 12, 11], coins=[0, 0], mode=mode)
        pos.stop(0, INN)
        assert len(meal_draws(pos)) == k and pos.gs[G.HAND_N] == k


@BOTH
@pytest.mark.parametrize("n", [3, 4])
def test_gastronomy_first_arrival_draws_one_per_player(mode: str, n: int) -> None:
    """Rulebook "Gastronomy": "the first Traveler draws a number of Meal cards equal to the number
    of players (instead of drawing one card more than the number of players)"."""
    pos = make_position(make_rules(cfg(n, "gastronomy")), positions=near_inn(n), coins=[0] * n, mode=mode)
    pos.stop(0, INN)
    assert len(meal_draws(pos)) == n


@BOTH
def test_one_meal_per_inn_scores_six(mode: str) -> None:
    """Rulebook "Inns": "Meal cards cost 1, 2, or 3 coins and all give 6 victory points"; "A
    Traveler can never purchase more than one Meal card per Inn"."""
    rs = make_rules(cfg(3))
    top = meal_ids(rs, "unagi", "sushi", "tofu", "fugu")
    pos = make_position(rs, positions=near_inn(3), coins=[30, 0, 0], top={Deck.MEAL: top}, mode=mode)
    pos.stop(0, INN)
    (gain,) = pos.events(Ev.GAIN)
    price = rs.rules.meals[gain[3]].cost
    assert gain[3] in top and gain[4] == price
    assert pos.ps[0, PF.COINS] == 30 - price and pos.ps[0, PF.MEALS] == 1
    assert pos.ps[0, PF.PTS_MEALS] == 6 == pos.ps[0, PF.SCORE]
    assert pos.ps[0, PF.MEAL_VALUE] == price and pos.gs[G.HAND_N] == 3


@BOTH
def test_never_the_same_dish_twice(mode: str) -> None:
    """Rulebook "Important": "A Traveler cannot taste the same culinary specialty twice during
    their journey": with only dishes already eaten on offer, no meal."""
    rs = make_rules(cfg(3))
    top = meal_ids(rs, "sushi", "sushi", "dango", "soba")
    pos = make_position(
        rs,
        positions=near_inn(3),
        coins=[9, 0, 0],
        top={Deck.MEAL: top},
        dishes={0: ["sushi", "dango", "soba"]},
        mode=mode,
    )
    pos.stop(0, INN)
    assert pos.events(Ev.GAIN) == [] and pos.ps[0, PF.MEALS] == 3 and pos.ps[0, PF.COINS] == 9
    sushi, _, dango, soba = top
    for seed in range(20):
        pos = make_position(
            rs, coins=[9, 9, 9], bots=Bot.RANDOM, seed=seed, dishes={0: ["sushi"]}, hand=[sushi, dango, soba]
        )
        i, free = kern(choose_meal_nb, mode)(pos.pub, pos.ru, 0, -1, 9)
        assert i != 0 and free == 0


def test_meal_is_optional() -> None:
    """Rulebook "Important": "A Traveler is never obliged to purchase a Meal card": a random player
    with coins sometimes takes no meal, sometimes one."""
    rs = make_rules(cfg(3))
    hand = meal_ids(rs, "sushi", "dango", "soba", "fugu")
    picks = set()
    for seed in range(30):
        pos = make_position(rs, coins=[9, 9, 9], bots=Bot.RANDOM, seed=seed, hand=hand)
        picks.add(int(choose_meal_nb(pos.pub, pos.ru, 0, -1, 9)[0]))
    assert picks == {-1, 0, 1, 2, 3}


@BOTH
def test_later_arrivals_choose_from_what_is_left(mode: str) -> None:
    """Rulebook "Arriving at an Inn": "Upon arrival, each Traveler can (possibly) purchase one of
    the remaining Meal cards. The first Traveler to arrive at the Inn therefore has more choice"."""
    rs = make_rules(cfg(3))
    top = meal_ids(rs, "unagi", "sushi", "dango", "soba")
    pos = make_position(rs, positions=near_inn(3), coins=[9, 9, 9], top={Deck.MEAL: top}, mode=mode)
    bought = []
    for t in range(3):
        before = set(pos.hand())
        pos.stop(t, INN)
        (gain,) = [e for e in pos.events(Ev.GAIN) if e[1] == t]
        bought.append(gain[3])
        assert gain[3] in (before or set(top))
    assert len(set(bought)) == 3 and set(bought) <= set(top)
    assert len(meal_draws(pos)) == 4


@BOTH
def test_leftovers_go_under_the_pile_after_the_last_arrival(mode: str) -> None:
    """Rulebook "Continuing the Journey": "Place unpurchased Meal cards on the bottom of the
    appropriate pile", once "all Travelers have arrived at the Inn"."""
    rs = make_rules(cfg(3))
    top = meal_ids(rs, "unagi", "sushi", "dango", "soba")
    pos = make_position(rs, positions=near_inn(3), coins=[0, 0, 9], top={Deck.MEAL: top}, mode=mode)
    pos.stop(0, INN)
    pos.stop(1, INN)
    assert pos.events(Ev.UNDER) == [] and pos.gs[G.HAND_N] == 4
    pos.stop(2, INN)
    (gain,) = pos.events(Ev.GAIN)
    left = sorted(set(top) - {gain[3]})
    assert sorted(e[3] for e in pos.events(Ev.UNDER)) == left
    assert pos.gs[G.HAND_N] == 0
    pile = pos.pile(Deck.MEAL)
    assert len(pile) == 24 and sorted(pile[-3:]) == left


@BOTH
def test_rulebook_example_four_player_inn(mode: str) -> None:
    """Rulebook "Example, in a game with four players": "they draw 5 Meal cards (4 players + 1)";
    the second chooses "from among the 4 remaining cards"; the third "don't have enough money to
    pay ... go hungry"; the fourth arrives "with 3 Meal cards from which to choose ... then place
    the remaining cards at the bottom of the pile"."""
    rs = make_rules(cfg(4))
    top = meal_ids(rs, "unagi", "sushi", "dango", "soba", "tofu")
    pos = make_position(rs, positions=near_inn(4), coins=[10, 10, 0, 10], top={Deck.MEAL: top}, mode=mode)
    sizes = []
    for t in range(4):
        sizes.append(int(pos.gs[G.HAND_N]))
        pos.stop(t, INN)
    assert len(meal_draws(pos)) == 5
    assert sizes == [0, 4, 3, 3]  # what each later arrival finds on the table
    assert [int(pos.ps[t, PF.MEALS]) for t in range(4)] == [1, 1, 0, 1]
    gained = {e[3] for e in pos.events(Ev.GAIN)}
    under = [e[3] for e in pos.events(Ev.UNDER)]
    assert len(under) == 2 and set(under) == set(top) - gained
    assert sorted(pos.pile(Deck.MEAL)[-2:]) == sorted(under) and pos.gs[G.HAND_N] == 0
    assert pos.ps[2, PF.COINS] == 0 and pos.ps[2, PF.SCORE] == 0


@BOTH
def test_neutral_discards_one_meal_at_random(mode: str) -> None:
    """Rulebook 2-player rules: "When the Neutral Traveler stops on an Inn space, the player who
    moved him takes the Meal cards and discards one at random. Place this card on the bottom of the
    pile" (C8: 4 cards at 2 players)."""
    rs = make_rules(cfg(2))
    top = meal_ids(rs, "unagi", "sushi", "dango", "soba")
    discarded = set()
    for seed in range(16):
        pos = make_position(
            rs, positions=[12, 11, 13], coins=[0, 0], top={Deck.MEAL: top}, seed=seed, mode=mode
        )
        pos.stop(2, INN)  # the Neutral arrives first
        (offer,) = pos.events(Ev.OFFER)
        assert offer[1] == 2 and offer[2] in top
        assert pos.events(Ev.UNDER) == [(Ev.UNDER, -1, Deck.MEAL, offer[2], -1, -1)]
        assert pos.pile(Deck.MEAL)[-1] == offer[2]
        assert sorted(pos.hand()) == sorted(set(top) - {offer[2]})
        assert pos.ps[2, PF.MEALS] == 0 and pos.ps[2, PF.SCORE] == 0
        discarded.add(offer[2])
    assert len(discarded) >= 3


@BOTH
def test_meal_at_the_last_inn(mode: str) -> None:
    """Rulebook "Inns": "all Travelers must stop at each Inn. The Inns are the places where players
    can buy Meal cards" — Edo included."""
    rs = make_rules(cfg(3))
    pos = make_position(rs, positions=[53, 52, 51], coins=[5, 5, 5], mode=mode)
    pos.stop(0, 54)
    assert len(meal_draws(pos)) == 4 and pos.ps[0, PF.MEALS] == 1


def test_meal_hand_override_beyond_hand_capacity() -> None:
    """Overrides with "they draw as many Meal cards as there are players, plus 1": any
    ``meals.hand_extra`` is either rejected (ConfigError) or played correctly (every game passes
    the referee)."""
    try:
        config = GameConfig(n_players=5, travelers="random", overrides=(("meals.hand_extra", "4"),))
    except ConfigError:
        return
    rules = config.rules()
    batch = play_games(config, rules, seed=1, start=0, count=40, log=True)
    for i in range(40):
        res = referee_game(
            config, rules, batch.game_events(i), rows_from_records(batch.records[i * 5 : (i + 1) * 5])
        )
        assert res.ok, explain_mismatch(res)


def test_meals_per_inn_override_is_used_or_rejected() -> None:
    """Overrides: every number in ``sim/games/tokaido/data/rules.toml`` changes the game or is rejected; with
    ``meals.per_inn=2`` a random player with many coins sometimes eats two meals at one Inn."""
    try:
        config = GameConfig(n_players=3, travelers="random", overrides=(("meals.per_inn", "2"),))
    except ConfigError:
        return
    rs = make_rules(config)
    most = 0
    for seed in range(40):
        pos = make_position(rs, positions=near_inn(3), coins=[20, 0, 0], bots=Bot.RANDOM, seed=seed)
        pos.stop(0, INN)
        most = max(most, int(pos.ps[0, PF.MEALS]))
    assert most == 2
