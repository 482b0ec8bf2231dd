"""Duo rules of the round, the end and the score (seed 003:L3-20, L72-83; research expansions.md C.2, C.5)."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.duo.enums import PF, Char, Ev, G, Trig
from kernels.duo.game import end_pick_nb, score_nb
from sim.games.duo.engine import play_duo_games
from sim.games.duo.rules import load_duo_rules
from tests.helpers.duo_positions import duo_position


@pytest.fixture(scope="module")
def logged():
    rules = load_duo_rules()
    return play_duo_games(rules, 11, 0, 40, ("greedy", "random"), log=True)


def test_dk2_one_two_one_draft_and_the_first_picker_alternates(logged) -> None:
    """D-K2: "Player A rolls all 3 dice, chooses one ... Player B chooses one of the 2 remaining ... Player A
    uses the last die"; "the first picker role alternates every round" (003:L14-20)."""
    for i in range(40):
        ev = logged.game_events(i)
        first = int(ev[ev[:, 0] == Ev.FIRST][0, 1])
        picks = ev[ev[:, 0] == Ev.PICK]
        rounds = len(picks) // 3
        assert len(picks) == 3 * rounds
        for r in range(rounds):
            lead = (first + r) % 2
            trio = picks[3 * r : 3 * r + 3]
            assert list(trio[:, 1]) == [lead, 1 - lead, lead]
            assert sorted(trio[:, 2]) == [0, 1, 2]  # one die per character


def test_d10_first_player_random_or_fixed(logged) -> None:
    """D10: the first picker is random (both seats occur), or fixed by `choices.first_player`."""
    firsts = {int(r["player"]) for r in logged.records if r["first"] == 1}
    assert firsts == {0, 1}
    fixed = play_duo_games(load_duo_rules(sets=["choices.first_player=1"]), 11, 0, 20)
    assert all(r["first"] == (r["player"] == 1) for r in fixed.records)


def test_dk17_a_trigger_ends_the_game_at_the_end_of_its_round() -> None:
    """D-K17: "The game ends at the end of a round where one of these conditions is met" (003:L74)."""
    pos = duo_position(temple=[9, 0])
    pos.gs[G.TRIG] = Trig.TEMPLE
    pos.gs[G.STEP] = 1
    end_pick_nb(pos.pub, pos.ru)
    assert pos.gs[G.OVER] == 0  # the round goes on
    end_pick_nb(pos.pub, pos.ru)
    assert pos.gs[G.OVER] == 1


def test_dk17_games_end_on_their_triggers(logged) -> None:
    """D-K17: every game ends on at least one of the four triggers, never the safety stop."""
    trig = logged.records["end_triggers"]
    assert (trig > 0).all() and not (trig & Trig.ROUNDS).any()


def test_dk18_score_is_the_three_characters_and_ties_go_to_coins() -> None:
    """D-K6, D-K13, D-K16, D-K18: temple value x garden value + the rightmost slab + the best gifted value;
    "Ties are broken by leftover coins, and ... then a true tied game occurs" (003:L83)."""
    pos = duo_position(temple=[4, 3], garden=[3, 4], slabs=[3, 0], gifted=[2, 4], coins=[1, 7])
    score_nb(pos.pub, pos.ru)
    ps = pos.ps
    assert (ps[0, PF.PTS_P], ps[0, PF.PTS_M], ps[0, PF.PTS_A]) == (12, 6, 2)  # rules.toml tables
    assert (ps[1, PF.PTS_P], ps[1, PF.PTS_M], ps[1, PF.PTS_A]) == (12, 0, 5)
    assert ps[0, PF.SCORE] == 20 and ps[1, PF.SCORE] == 17 and ps[0, PF.RANK] == 1 and ps[1, PF.RANK] == 2
    pos = duo_position(temple=[4, 4], garden=[3, 3], coins=[1, 7])
    score_nb(pos.pub, pos.ru)
    assert pos.ps[0, PF.RANK] == 2 and pos.ps[1, PF.RANK] == 1  # equal scores: more coins wins
    pos = duo_position(temple=[4, 4], garden=[3, 3], coins=[7, 7])
    score_nb(pos.pub, pos.ru)
    assert pos.ps[0, PF.RANK] == pos.ps[1, PF.RANK] == 1


def test_dk1_coins_are_shared_by_pilgrim_and_merchant() -> None:
    """D-K1: the pilgrim's town coins "go into the same personal supply the Merchant uses for gold slabs"."""
    pos = duo_position(pilgrims=[4, 20], merchants=["M1", "M2"], coins=[8, 0])
    pos.play(0, Char.PILGRIM, (5, 1, 1, 0))
    assert pos.ps[0, PF.SLABS] == 1 and pos.ps[0, PF.COINS] == 0


def test_games_depend_only_on_seed_and_index() -> None:
    """The per-game random stream: a game is the same alone, in a batch, on any thread count."""
    rules = load_duo_rules()
    a = play_duo_games(rules, 5, 0, 30, ("search", "greedy"))
    b = play_duo_games(rules, 5, 17, 3, ("search", "greedy"), threads=1)
    assert np.array_equal(a.records[34:40], b.records)
