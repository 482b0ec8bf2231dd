"""The referee's Matsuri rules (sim/referee/matsuri_cards.py, sim/referee/matsuri.py) on hand-built values.

Each test quotes seed 002 ("The Matsuri", "Matsuri effects", L1261-1562) or names
the default of ``../shared/research/expansions.md`` part A (M1-M30). The worked
examples of the rulebook are here: the Doll worth 5, the Carp worth 1, Tanabata's
ties, o-Fune's simultaneous completion.
"""

from __future__ import annotations

import pytest

from kernels.core.enums import Space
from sim.referee.matsuri_cards import (
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

SET_POINTS = [1, 3, 5, 7, 9]  # 1/3/5/7 and the Offerings as a fifth family with Crossroads (C30)
SMALL, FOOD, CLOTHING, ART, OFFERING = range(5)


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


@pytest.mark.parametrize(("held", "points"), [
    ((), 1), ((FOOD, CLOTHING, ART), 7), ((SMALL, SMALL), 1), ((FOOD, FOOD, SMALL), 3),
])
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


@pytest.mark.parametrize(("donated", "points"), [
    ([6, 3, 2, 1], [4, 2, 1, 0]),      # "only the three most generous Travelers are awarded"
    ([3, 3, 2, 0], [4, 4, 2, 0]),      # ties share the rank; the next takes the next (usual rule, M23)
    ([0, 0, 0], [0, 0, 0]),            # non-donors get nothing
    ([5, 4, 4, 3, 2], [4, 2, 2, 1, 0]),
])
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
    from sim.rules.config import GameConfig
    rules = GameConfig(n_players=4).rules()
    return list(rules.board_types), list(rules.board_double)


@pytest.mark.parametrize(("kind", "n_trav", "want"), [
    (Space.TEMPLE, 4, {16: 1, 21: 1}),   # expansions.md A.5: both single Temples close
    (Space.VILLAGE, 4, {25: 1}),
    (Space.FARM, 4, {17: 1, 26: 1}),     # 17 is double: it becomes single
    (Space.FARM, 3, {26: 1}),            # M11: at 2-3 travelers a double already has one space
])
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


@pytest.mark.parametrize(("double", "n_trav", "closed", "slots"), [
    (False, 4, 0, 1), (False, 4, 1, 0), (True, 4, 1, 1), (True, 5, 0, 2), (True, 3, 0, 1),
])
def test_usable_slots(double: bool, n_trav: int, closed: int, slots: int) -> None:
    assert usable_slots(double, n_trav, closed) == slots


# ====================================================================== Cho-yo, timing
def test_cho_yo_one_coin_less() -> None:
    """Seed 002 (Cho-yo): "all the Meal cards cost 1 coin less than normal (as a result, the Meal cards
    worth 1 coin are free)"; after abilities, at least 0 (M24)."""
    assert [cho_yo_price(c, 1) for c in (1, 2, 3, 0)] == [0, 1, 2, 0]


def test_timing_classes() -> None:
    """Issue 14 / seed 002: 11 cards at once, 8 during the next leg, Cho-yo at the next Inn."""
    assert len(CARD_TIMING) == 20
    assert sum(t == NOW for t in CARD_TIMING.values()) == 11
    assert sum(t == LEG for t in CARD_TIMING.values()) == 8
    assert [c for c, t in CARD_TIMING.items() if t == NEXT_INN] == ["choyo"]
