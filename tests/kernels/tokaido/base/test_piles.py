"""Short and empty piles: the rule choices C3-C6 (the rulebook is silent).

Piles are set to exact contents with ``make_position(piles=...)``
(``tests/helpers/positions.py``).
"""

from __future__ import annotations

from kernels.tokaido.core.board import legal_moves_nb
from kernels.tokaido.core.enums import PF, Deck, Ev, G
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.positions import (
    BOTH,
    encounter_ids,
    kern,
    make_position,
    make_rules,
    meal_ids,
    souvenir_ids,
)

CFG3 = GameConfig(n_players=3, travelers="random")
PROMO3 = GameConfig(n_players=3, travelers="random", expansions=("new-encounters",))


def legal(pos, t: int = 0) -> list[int]:
    k = legal_moves_nb(pos.pub, pos.ru, t)
    return [int(x) for x in pos.pub["cand"][:k]]


@BOTH
def test_village_with_a_short_souvenir_pile(mode: str) -> None:
    """C3: a Village with fewer than 3 souvenirs left draws what is left."""
    rs = make_rules(CFG3, weights={"reserve": 0})
    cards = souvenir_ids(rs, "koma", "manju")
    pos = make_position(rs, positions=[0, 14, 14], coins=[5, 0, 0], piles={Deck.SOUVENIR: cards}, mode=mode)
    pos.stop(0, 8)
    assert [e[3] for e in pos.events(Ev.DRAW)] == cards
    assert pos.ps[0, PF.SOUVENIRS] + pos.pub["dcnt"][Deck.SOUVENIR] == 2


@BOTH
def test_village_with_an_empty_souvenir_pile(mode: str) -> None:
    """C3: with no souvenir left the Village is still a legal stop (with a coin); it gives nothing."""
    pos = make_position(
        make_rules(CFG3), positions=[0, 14, 14], coins=[5, 0, 0], piles={Deck.SOUVENIR: []}, mode=mode
    )
    assert 8 in legal(pos)
    pos.stop(0, 8)
    assert pos.events(Ev.DRAW) == [] and pos.ps[0, PF.COINS] == 5 and pos.ps[0, PF.STOPS] == 1


@BOTH
def test_empty_hot_spring_pile(mode: str) -> None:
    """C4: Hot Spring pile empty: the stop is legal and gives nothing (also for Saru)."""
    pos = make_position(make_rules(PROMO3), positions=[0, 14, 14], piles={Deck.HOT_SPRING: []}, mode=mode)
    assert 5 in legal(pos)
    pos.stop(0, 5)
    assert pos.ps[0, PF.SCORE] == 0 and pos.ps[0, PF.HOT_SPRINGS] == 0 and pos.ps[0, PF.STOPS] == 1
    rs = make_rules(PROMO3)
    pos = make_position(
        rs,
        positions=[0, 14, 14],
        piles={Deck.HOT_SPRING: [], Deck.ENCOUNTER: encounter_ids(rs, "saru")},
        mode=mode,
    )
    pos.stop(0, 3)
    assert pos.ps[0, PF.ENCOUNTERS] == 1 and pos.ps[0, PF.HOT_SPRINGS] == 0 and pos.ps[0, PF.SCORE] == 0


@BOTH
def test_empty_encounter_pile(mode: str) -> None:
    """C5: Encounter pile empty: the stop is legal; no card, no effect; Umegae still gets her point
    and coin; Chuubei's Inn encounter gives nothing."""
    rs = make_rules(CFG3)
    pos = make_position(
        rs,
        ["umegae", "chuubei", None],
        positions=[0, 13, 14],
        coins=[0, 0, 0],
        piles={Deck.ENCOUNTER: []},
        mode=mode,
    )
    assert 3 in legal(pos)
    pos.stop(0, 3)
    assert pos.ps[0, PF.ENCOUNTERS] == 0 and pos.ps[0, PF.SCORE] == 1 == pos.ps[0, PF.PTS_OTHER]
    assert pos.ps[0, PF.COINS] == 1
    pos.stop(1, 14)
    assert pos.ps[1, PF.ENCOUNTERS] == 0 and pos.ps[1, PF.SCORE] == 0


@BOTH
def test_yoshiyasu_with_one_encounter_left(mode: str) -> None:
    """C5 with "Yoshiyasu ... draws 2 Encounter cards": with one card left he draws and keeps it."""
    rs = make_rules(CFG3)
    (samurai,) = encounter_ids(rs, "samurai")
    pos = make_position(
        rs, ["yoshiyasu", None, None], positions=[0, 14, 14], piles={Deck.ENCOUNTER: [samurai]}, mode=mode
    )
    pos.stop(0, 3)
    assert [e[3] for e in pos.events(Ev.DRAW)] == [samurai] and pos.events(Ev.UNDER) == []
    assert pos.ps[0, PF.SCORE] == 3 and pos.pub["dcnt"][Deck.ENCOUNTER] == 0


@BOTH
def test_shokunin_with_an_empty_souvenir_pile(mode: str) -> None:
    """C3 with "Shokunin": no souvenir left, so the card is kept and gives nothing."""
    rs = make_rules(CFG3)
    pos = make_position(
        rs,
        positions=[0, 14, 14],
        piles={Deck.SOUVENIR: [], Deck.ENCOUNTER: encounter_ids(rs, "shokunin")},
        mode=mode,
    )
    pos.stop(0, 3)
    assert pos.ps[0, PF.ENCOUNTERS] == 1 and pos.ps[0, PF.SOUVENIRS] == 0 and pos.ps[0, PF.SCORE] == 0


@BOTH
def test_meal_pile_short_at_an_inn(mode: str) -> None:
    """C6: meal pile short at an Inn: the first arrival draws what is left (2 of 5 here)."""
    rs = make_rules(GameConfig(n_players=4, travelers="random"))
    cards = meal_ids(rs, "sushi", "dango")
    pos = make_position(
        rs, positions=[13, 12, 11, 10], coins=[0, 0, 0, 0], piles={Deck.MEAL: cards}, mode=mode
    )
    pos.stop(0, 14)
    assert [e[3] for e in pos.events(Ev.DRAW)] == cards and pos.gs[G.HAND_N] == 2
    pos = make_position(rs, positions=[13, 12, 11, 10], coins=[0, 0, 0, 0], piles={Deck.MEAL: []}, mode=mode)
    pos.stop(0, 14)
    assert pos.events(Ev.DRAW) == [] and pos.gs[G.HAND_N] == 0
    assert kern(legal_moves_nb, mode)(pos.pub, pos.ru, 1) >= 1
