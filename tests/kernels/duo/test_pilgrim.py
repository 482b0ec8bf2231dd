"""Duo rules of the Pilgrim on hand-built positions (seed 003; research expansions.md C.2, C.5).

Shipped board (sim/games/duo/data/board.toml): ring 0 C1, 1 T, 2 G, 3 S, 4 T, 5 C2, 6 G,
7 H, 8 T, 9 C3, ... 14 C4, 15 H; C1..C8 are towns 0..7.
"""

from __future__ import annotations

import pytest

from kernels.duo.enums import PF, Char, Ev, G, Ring, Trig
from sim.games.duo.board import BoardError
from tests.helpers.duo_positions import duo_position

PIL = Char.PILGRIM


def test_dk4_moves_clockwise_exactly_the_die() -> None:
    """D-K4: "The Pilgrim travels clockwise around the island's outer ring of 37 spaces" (003:L27); D-K3
    exact."""
    pos = duo_position(pilgrims=[1, 20], merchants=["M1", "M2"])
    assert {p[0] for p in pos.plays(0, PIL, 3)} == {4}
    pos = duo_position(pilgrims=[35, 20], merchants=["M1", "M2"])
    assert {p[0] for p in pos.plays(0, PIL, 3)} == {1}  # wraps past space 36 to C1 (0) and on


def test_dk4_passes_and_jumps_occupied_spaces_d1_chain() -> None:
    """D-K4: "May pass through stations occupied ... If the intended final space is occupied by any other
    meeple, the pilgrim jumps to the next space" (003:L29-30); D1: the jump chains until a free space."""
    pos = duo_position(pilgrims=[1, 3], merchants=["M1", "M2"])
    assert {p[0] for p in pos.plays(0, PIL, 1)} == {2}  # passing is fine
    assert {p[0] for p in pos.plays(0, PIL, 2)} == {4}  # lands on the other pilgrim: jumps on
    pos = duo_position(pilgrims=[3, 4], merchants=["C2", "M2"])  # own merchant in C2 (space 5)
    assert {p[0] for p in pos.plays(0, PIL, 1)} == {6}  # 4 (pilgrim) -> 5 (a merchant's town) -> 6


def test_dk6_temple_and_garden_steps_and_full_tracks() -> None:
    """D-K6: temple and garden tracks +1; full at slot 9 / slot 6, which triggers the end (003:L76-77)."""
    pos = duo_position(pilgrims=[0, 20], merchants=["M1", "M2"], temple=[8, 0], garden=[5, 0])
    pos.play(0, PIL, (1, 1, 1, 0))
    assert pos.ps[0, PF.TEMPLE] == 9 and pos.gs[G.TRIG] == Trig.TEMPLE
    assert pos.plays(0, PIL, 3) == [(4, 3, 0, 0)]  # a temple on a full track: nothing to take
    pos.play(0, PIL, (2, 1, 1, 0))
    assert pos.ps[0, PF.GARDEN] == 6 and pos.gs[G.TRIG] == Trig.TEMPLE | Trig.GARDEN


def test_dk7_town_coins_turn_into_gold_d7() -> None:
    """D-K7: a ring town pays coins into the supply the merchant turns into gold; D-K13/D7: every 10 coins
    become a slab at once, the excess stays."""
    pos = duo_position(pilgrims=[4, 20], merchants=["M1", "M2"], coins=[9, 0])
    pos.play(0, PIL, (5, 1, 1, 0))
    assert pos.ps[0, PF.SLABS] == 1 and pos.ps[0, PF.COINS] == 1


def test_dk8_hot_spring_token_taken_from_board_or_opponent() -> None:
    """D-K8: take the single Hot Spring token from the board, or from the opponent (003:L34)."""
    pos = duo_position(pilgrims=[6, 20], merchants=["M1", "M2"])
    pos.play(0, PIL, (7, 1, 1, 0))
    assert pos.ps[0, PF.HS] == 1 and pos.gs[G.HS_BOARD] == 0
    assert pos.plays(0, PIL, 1) and all(
        p[2] == 0 for p in pos.plays(0, PIL, 8)
    )  # holder lands on 15: nothing
    pos.ps[1, PF.PIL] = 13
    pos.play(1, PIL, (15, 2, 1, 0))
    assert pos.ps[1, PF.HS] == 1 and pos.ps[0, PF.HS] == 0


def test_dk8_d5_token_repeats_a_later_pick_not_the_winning_one() -> None:
    """D-K8: "After any future die pick, you may spend the token to immediately repeat your last chosen
    die value"; D5: not on the pick that won it; the repeat moves the same character again."""
    pos = duo_position(pilgrims=[5, 20], merchants=["M1", "M2"], garden=[5, 0])
    pos.pick(0, PIL, (2, 1, 1))  # 5 -> 7 Hot Spring: taken on this pick, so no repeat now
    assert pos.ps[0, PF.HS] == 1 and not pos.events(Ev.SPRING)
    pos.pick(0, PIL, (3, 1, 1))  # 7 -> 10 temple; the greedy bot spends the token: 10 -> 13, a temple again
    assert pos.events(Ev.SPRING) and pos.ps[0, PF.HS_USED] == 1
    assert pos.ps[0, PF.PIL] == 13 and pos.ps[0, PF.TEMPLE] == 2
    assert pos.gs[G.HS_BOARD] == 1 and pos.ps[0, PF.HS] == 0


def test_dk9_d6_wave_tiles_from_board_then_stolen() -> None:
    """D-K9: a Seashore gives a wave tile from the board; none left: "the player must steal a tile from their
    opponent"; holding all 3: nothing (003:L68-70). D6: the player picks which, but takes one."""
    pos = duo_position(pilgrims=[2, 20], merchants=["M1", "M2"])
    assert {p[2] for p in pos.plays(0, PIL, 1)} == {1, 2, 3}  # any of the 3 tiles, never none
    pos = duo_position(
        pilgrims=[2, 20],
        merchants=["M1", "M2"],
        waves={"pilgrim": ("tranquil", 1), "merchant": ("porter", 1), "artist": ("inspired", 0)},
    )
    assert {p[2] for p in pos.plays(0, PIL, 1)} == {1, 2}  # only the opponent's two, one of them must go
    pos.play(0, PIL, (3, 1, 2, 0))
    assert pos.pub["wown"][Char.MERCHANT] == 0 and pos.events(Ev.PTAKE)[-1][2:5] == (Ring.SEASHORE, 1, 1)
    pos.pub["wown"][:] = 0
    pos.ps[0, PF.PIL] = 2
    assert {p[2] for p in pos.plays(0, PIL, 1)} == {0}  # holds all three: nothing happens


def test_dk19_tranquil_may_move_one_less_never_zero() -> None:
    """D-K19: a pilgrim wave offers two landing spaces; with Tranquil and a 1 "you always must move one"
    (003:L92)."""
    pos = duo_position(pilgrims=[1, 20], merchants=["M1", "M2"], waves={"pilgrim": ("tranquil", 0)})
    assert {(p[0], p[1]) for p in pos.plays(0, PIL, 3)} == {(4, 3), (3, 2)}
    assert {p[0] for p in pos.plays(0, PIL, 1)} == {2}
    pos = duo_position(pilgrims=[1, 20], merchants=["M1", "M2"], waves={"pilgrim": ("swift", 0)})
    assert {(p[0], p[1]) for p in pos.plays(0, PIL, 1)} == {(2, 1), (3, 2)}


def test_d4_declining_is_optional_unless_the_choice_says_mandatory() -> None:
    """D4: arrival actions other than the seed's two musts are optional by default (paperblog; 003:L23);
    `choices.actions_optional=false` makes an available effect mandatory."""
    pos = duo_position(pilgrims=[0, 20], merchants=["M1", "M2"])
    assert {p[2] for p in pos.plays(0, PIL, 1)} == {0, 1}
    pos = duo_position(pilgrims=[0, 20], merchants=["M1", "M2"], sets=["choices.actions_optional=false"])
    assert {p[2] for p in pos.plays(0, PIL, 1)} == {1}


def test_dk9_the_optional_reading_of_the_steal_is_an_override() -> None:
    """`choices.seashore_optional=true` reads 003:L70's "must" as optional: declining is legal again."""
    waves = {"pilgrim": ("tranquil", 1), "merchant": ("porter", 1), "artist": ("inspired", 0)}
    pos = duo_position(
        pilgrims=[2, 20], merchants=["M1", "M2"], waves=waves, sets=["choices.seashore_optional=true"]
    )
    assert {p[2] for p in pos.plays(0, PIL, 1)} == {0, 1, 2}
    pos.play(0, PIL, (3, 1, 0, 0))
    assert pos.pub["wown"][Char.MERCHANT] == 1  # declined: the opponent keeps it


def test_dk8_the_token_is_taken_from_the_holder_immediately() -> None:
    """D-K8: "If your opponent lands on Hot Spring while you're holding it, they take it from you immediately"
    (003:L34): landing there, the token cannot be declined, from the holder or from the board."""
    pos = duo_position(pilgrims=[20, 6], merchants=["M1", "M2"])
    pos.ps[0, PF.HS] = 1
    pos.gs[G.HS_BOARD] = 0
    assert pos.plays(1, PIL, 1) == [(7, 1, 1, 0)]  # only the take
    pos.play(1, PIL, (7, 1, 1, 0))
    assert pos.ps[1, PF.HS] == 1 and pos.ps[0, PF.HS] == 0
    pos = duo_position(pilgrims=[20, 6], merchants=["M1", "M2"])
    assert pos.plays(1, PIL, 1) == [(7, 1, 1, 0)]  # from the board too
    pos = duo_position(pilgrims=[20, 6], merchants=["M1", "M2"], sets=["choices.hot_spring_optional=true"])
    assert {p[2] for p in pos.plays(1, PIL, 1)} == {0, 1}  # the optional reading


def test_the_must_overrides_refuse_a_setting_that_changes_nothing() -> None:
    """With every action mandatory (D4 false), reading a must as optional would change nothing: refused."""
    with pytest.raises(BoardError, match="choices.seashore_optional: true changes nothing"):
        duo_position(sets=["choices.actions_optional=false", "choices.seashore_optional=true"])
