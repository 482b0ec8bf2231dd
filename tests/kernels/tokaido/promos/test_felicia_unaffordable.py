"""Felicia may challenge for a card she cannot pay in full (P6), in the kernels and in the referee.

Seed 002 L537-541: "each time Felicia wants to acquire a card that costs coins (Souvenirs, Meal, Amulet,
Calligraphy, Legendary Objects, Bath House), she may challenge the closest traveler in a
rock-paper-scissors duel. The number of rounds is equal to the cost of the card": no limit to cards she
can pay in full. She buys the card if the rounds won bring it within her coins, else she comes away with
nothing (a chosen Crossroads alternative then buys nothing; the souvenir goes under the pile, the meal
stays in the Inn's hand). The bots decide: a random Felicia tries at random, the other tiers for a card
worth its full price (the duel costs nothing).
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import PF, Bot, Deck, Ev, Opt, Space
from kernels.tokaido.game.crossroads import alternative_nb
from sim.games.tokaido.referee.promos import closest_traveler
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.positions import BOTH, kern, make_position, make_rules, meal_ids, xr_position
from tests.helpers.referee_logs import (
    ENCOUNTER3,
    FORESIGHT,
    INN14,
    VILLAGE1,
    assert_illegal,
    cfg,
    ev,
    feed,
    ok,
    stop,
    xr_setup,
)

ALL, NONE = 1_000_000, 1  # Felicia wins every round / (almost) none (P.FELICIA_WIN_PPM; 0 would make no card
# she cannot pay reachable)
VILLAGE, INN = 1, 14
TRIO = ["felicia", "kinko", "satsuki"]


def rs_of(xr: bool = False, **params: int):
    exp = ("crossroads", "promos") if xr else ("promos",)
    return make_rules(GameConfig(n_players=3, travelers=",".join(TRIO), expansions=exp), **params)


def rows_of(pos, kind: int) -> list[tuple[int, ...]]:
    return [e for e in pos.events() if e[0] == kind and (kind != Ev.OPTION or e[2] == Opt.FELICIA)]


# ------------------------------------------------------------------ the kernels
@BOTH
@pytest.mark.parametrize(("ppm", "bought"), [(ALL, True), (NONE, False)])
def test_felicia_duels_for_a_souvenir_she_cannot_pay(mode: str, ppm: int, bought: bool) -> None:
    """Seed 002 L537-541: with 1 coin at a Shop showing three 3-coin Art souvenirs, the greedy Felicia
    challenges for the best one (3 rounds): all won, it is free; none won, it goes under the pile."""
    rs = rs_of(felicia_win_ppm=ppm)
    art = [c for c, s in enumerate(rs.rules.souvenirs) if s.cost == 3][:3]
    pos = make_position(
        rs,
        travelers=TRIO,
        positions=[0, 0, 0],
        coins=[1, 0, 0],
        families={0: [1, 1, 1, 0]},
        piles={Deck.SOUVENIR: art},
        mode=mode,
    )
    pos.stop(0, VILLAGE)
    duels = rows_of(pos, Ev.DUEL)
    assert duels and all(d[3] == Deck.SOUVENIR and d[5] == 3 for d in duels)
    gains = pos.events(Ev.GAIN)
    if bought:
        assert [g[4] for g in gains] == [0] * len(gains) and len(gains) >= 1 and pos.ps[0, PF.COINS] == 1
    else:
        assert gains == [] and pos.ps[0, PF.COINS] == 1 and len(pos.events(Ev.UNDER)) == 3


@BOTH
@pytest.mark.parametrize(("ppm", "eats"), [(ALL, True), (NONE, False)])
def test_felicia_duels_for_a_meal_she_cannot_pay(mode: str, ppm: int, eats: bool) -> None:
    """With no coin at an Inn offering only 2-coin meals, Felicia challenges for one (2 rounds); all won:
    she eats it free; none won: no meal, the card stays in the Inn's hand (she is the last to arrive: the
    hand then goes under the pile)."""
    rs = rs_of(felicia_win_ppm=ppm)
    hand = meal_ids(rs, "sushi", "tofu")
    pos = make_position(rs, travelers=TRIO, positions=[13, 14, 14], coins=[0, 5, 5], hand=hand, mode=mode)
    pos.stop(0, INN)
    assert len(rows_of(pos, Ev.DUEL)) == 1 and rows_of(pos, Ev.DUEL)[0][5] == 2
    assert [g[4] for g in pos.events(Ev.GAIN)] == ([0] if eats else [])
    assert pos.ps[0, PF.MEALS] == int(eats) and len(pos.events(Ev.UNDER)) == 2 - int(
        eats
    )  # the last to arrive


@BOTH
def test_random_felicia_chooses_an_alternative_she_cannot_pay(mode: str) -> None:
    """With no coin at an Encounter the random Felicia may choose the Calligraphy alternative (1 coin) and
    challenge for it (1 round, 1 in 3 won): won, the card is free; lost, the stop buys nothing."""
    rs = rs_of(xr=True)
    outcomes = set()
    for seed in range(1, 80):
        pos = xr_position(
            rs, travelers=TRIO, positions=[0, 14, 14], coins=[0, 5, 5], bots=Bot.RANDOM, seed=seed, mode=mode
        )
        pos.stop(0, 3)
        if pos.events(Ev.CHOICE)[0][3] != 1:
            continue
        (rps,) = pos.events(Ev.RPS)
        calli = [g for g in pos.events(Ev.GAIN) if g[2] == Deck.CALLIGRAPHY]
        assert [g[4] for g in calli] == ([0] if rps[3] else [])
        outcomes.add(rps[3])
    assert outcomes == {0, 1}


@BOTH
def test_a_lost_duel_buys_no_legendary_object(mode: str) -> None:
    """The Village alternative chosen for a Legendary Object Felicia cannot pay: the duel lost, nothing is
    bought and the card stays in the market."""
    rs = rs_of(xr=True, felicia_win_ppm=NONE)
    pos = xr_position(
        rs,
        travelers=TRIO,
        markets={"legendary": ["murasame"]},
        positions=[0, 14, 14],
        coins=[1, 5, 5],
        bots=Bot.RANDOM,
        mode=mode,
    )
    kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
    assert (
        rows_of(pos, Ev.OPTION) == [(Ev.OPTION, 0, Opt.FELICIA, 1, -1, -1)] and len(pos.events(Ev.RPS)) == 3
    )
    assert pos.events(Ev.GAIN) == [] and pos.ps[0, PF.COINS] == 1 and pos.ps[0, PF.LEGENDARY] == 0


# ------------------------------------------------------------------ the referee
def pcfg(coins: int):
    """Felicia, Kinko and Satsuki with Crossroads (4 cards of each type) and the promos; Felicia's coins."""
    return cfg(
        3,
        ",".join(TRIO),
        (),
        ("crossroads", "promos"),
        (("crossroads.by_player_count", "true"), ("travelers.felicia.coins", str(coins))),
    )


def duel(config, rules, ref_rows: list, deck: int, card: int, rounds: int, wins: list[int]) -> list:
    ref = feed(config, rules, ref_rows)
    opponent = closest_traveler(ref.state, ref.state.travelers[0])
    return [
        ev(Ev.OPTION, 0, Opt.FELICIA, 1),
        (Ev.DUEL, 0, opponent, deck, card, rounds),
        *[ev(Ev.RPS, 0, r, w) for r, w in enumerate(wins)],
    ]


def test_referee_duel_for_an_unaffordable_calligraphy() -> None:
    """The referee: with no coin Felicia may choose the Calligraphy alternative and duel (1 round): won, she
    buys it for 0 (and must: a chosen alternative is taken); lost, the stop buys nothing."""
    config, rules = pcfg(0)
    rows = xr_setup(config, rules) + stop(0, ENCOUNTER3, 1)
    won = duel(config, rules, rows, Deck.CALLIGRAPHY, FORESIGHT, 1, [1])
    p0 = ok(config, rules, [*rows, *won, ev(Ev.GAIN, 0, Deck.CALLIGRAPHY, FORESIGHT, 0)]).state.travelers[0]
    assert (p0.coins, p0.calligraphy) == (0, [FORESIGHT])
    lost = duel(config, rules, rows, Deck.CALLIGRAPHY, FORESIGHT, 1, [0])
    p0 = ok(config, rules, [*rows, *lost, *stop(1, VILLAGE1)]).state.travelers[0]
    assert (p0.coins, p0.calligraphy) == (0, [])
    assert_illegal(
        feed(config, rules, [*rows, *won, *stop(1, VILLAGE1)]),
        len(rows) + len(won),
        "MOVE",
        "felicia can pay",
    )


def test_referee_duel_for_an_unaffordable_souvenir_and_meal() -> None:
    """The referee: at a Shop with 1 coin, a duel for a 3-coin souvenir won twice: she pays 1; won once: the
    card goes under. At an Inn with no coin, a duel lost for a 2-coin meal: no meal, legal."""
    config, rules = pcfg(1)
    rows = xr_setup(config, rules, decks={Deck.SOUVENIR: [21, 22, 23]})
    shop = stop(0, VILLAGE1, 0) + [ev(Ev.DRAW, 0, Deck.SOUVENIR, c) for c in (21, 22, 23)]
    two = duel(config, rules, rows + shop, Deck.SOUVENIR, 21, 3, [1, 1, 0])
    under = [ev(Ev.UNDER, -1, Deck.SOUVENIR, c) for c in (22, 23)]
    p0 = ok(
        config, rules, [*rows, *shop, *two, ev(Ev.GAIN, 0, Deck.SOUVENIR, 21, 1), *under]
    ).state.travelers[0]
    assert (p0.coins, p0.souvenirs) == (0, [21])
    one = duel(config, rules, rows + shop, Deck.SOUVENIR, 21, 3, [1, 0, 0])
    again = duel(config, rules, rows + shop, Deck.SOUVENIR, 22, 3, [0, 0, 0])
    unders = [ev(Ev.UNDER, -1, Deck.SOUVENIR, c) for c in (21, 22, 23)]
    p0 = ok(config, rules, [*rows, *shop, *one, *again, *unders]).state.travelers[0]
    assert (p0.coins, p0.souvenirs) == (1, [])
    config, rules = pcfg(0)
    rows = xr_setup(config, rules, decks={Deck.MEAL: [13, 15, 17, 18]})
    inn = [ev(Ev.MOVE, 0, INN14, 0)] + [ev(Ev.DRAW, 0, Deck.MEAL, m) for m in (13, 15, 17, 18)]
    lost = duel(config, rules, rows + inn, Deck.MEAL, 13, 2, [0, 1])
    p0 = ok(config, rules, [*rows, *inn, *lost, *stop(1, VILLAGE1)]).state.travelers[0]
    assert (p0.coins, p0.meals) == (0, [])
