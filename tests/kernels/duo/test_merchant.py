"""Duo rules of the Merchant on hand-built positions (seed 003:L38-52; research expansions.md C.2, C.5).

Shipped routes: M1-M2-M3-M4 along the spine; spokes M1-C1, M1-C8, M2-C2, M2-C7, M3-C3, M3-C6, M4-C4,
M4-C5. Towns C1..C8 are 0..7, M1..M4 are 8..11; ring spaces of C1, C2: 0, 5.
"""

from __future__ import annotations

from kernels.duo.enums import PF, Char, Ev, G, Trig
from sim.games.duo.board import TOWNS
from tests.helpers.duo_positions import duo_position

MER = Char.MERCHANT


def dests(pos, p: int, v: int) -> set[str]:
    return {TOWNS[t] for t, *_ in pos.plays(p, MER, v) if t >= 0}


def test_dk10_exactly_the_die_along_routes_d2_simple() -> None:
    """D-K10: "crossing a number of routes equal to the die value" (003:L38); D2: a simple path."""
    pos = duo_position(pilgrims=[1, 20], merchants=["M1", "M4"])
    assert dests(pos, 0, 1) == {"M2", "C1", "C8"}
    assert dests(pos, 0, 2) == {"M3", "C2", "C7"}  # never back to M1 on a simple path


def test_d2_walk_may_turn_back() -> None:
    """D2 as a parameter: `choices.merchant_path=walk` lets a path revisit towns and routes."""
    pos = duo_position(pilgrims=[1, 20], merchants=["M1", "M4"], sets=["choices.merchant_path=walk"])
    assert dests(pos, 0, 2) == {"M3", "C2", "C7", "M1"}


def test_dk10_no_path_of_that_length_no_move() -> None:
    """D-K10: "If no path of exactly that length exists, the Merchant does not move and takes no action"."""
    pos = duo_position(pilgrims=[1, 20], merchants=["C1", "M4"])
    assert pos.plays(0, MER, 6) == [(-1, 0, 0, 0)]  # the longest simple path from C1 crosses 5 routes
    pos.play(0, MER, (-1, 0, 0, 0), v=6)
    assert pos.ps[0, PF.MER] == TOWNS.index("C1") and pos.events(Ev.MMOVE) == [(Ev.MMOVE, 0, -1, -1, -1, -1)]


def test_dk10_occupied_coastal_town_closed_mountain_shared() -> None:
    """D-K10: "You cannot enter a coastal town occupied by another meeple. Both Merchants may share a single
    mountain town" (003:L44-46); D2: nor pass through it, own pilgrim included."""
    pos = duo_position(pilgrims=[5, 20], merchants=["M1", "M2"])  # own pilgrim on C2 (space 5)
    assert dests(pos, 0, 1) == {"M2", "C1", "C8"}  # M2 is shared with the other merchant
    assert "C2" not in dests(pos, 0, 2)
    pos = duo_position(pilgrims=[1, 20], merchants=["M3", "C2"])
    assert "C2" not in dests(pos, 0, 1)


def test_dk11_draw_the_town_value_cap_five_d8() -> None:
    """D-K11: draw wares equal to the town's value (M3: 4); "Storage cap is 5 - ... keep any 5 of your choice
    and return the rest to the bag" (003:L48); D8: the bot keeps the most valuable."""
    pos = duo_position(
        pilgrims=[1, 20], merchants=["M4", "M1"], wares=[{0: 3}, {}], boutiques={"C4": (1, 2), "C5": (1, 2)}
    )
    bag_before = int(pos.pub["bag"].sum())
    pos.pick(0, MER, (1, 1, 1))  # greedy: M3 (draw) rather than C4/C5 (nothing to sell)
    assert pos.ps[0, PF.MER] == TOWNS.index("M3")
    assert pos.events(Ev.MDRAW)[0][2] == 4 and len(pos.events(Ev.DRAW)) == 4
    assert len(pos.events(Ev.RETURN)) == 2 and pos.ps[0, PF.NWARES] == 5 == pos.pub["wares"][0].sum()
    assert pos.pub["bag"].sum() == bag_before - 2


def test_dk12_sell_any_number_of_the_boutique_ware() -> None:
    """D-K12: "sell any wares of the towns boutique token type; gain its coin value per ware sold, and return
    sold wares to the bag" (003:L50); D-K13 the coins turn into a slab."""
    pos = duo_position(
        pilgrims=[1, 20],
        merchants=["M2", "M4"],
        wares=[{0: 3, 1: 1}, {}],
        boutiques={"C2": (0, 3)},
        coins=[5, 0],
    )
    assert {a for t, _, a, _ in pos.plays(0, MER, 1) if t == TOWNS.index("C2")} == {0, 1, 2, 3}
    pos.play(0, MER, (TOWNS.index("C2"), 0, 3, 0), v=1)
    assert pos.ps[0, PF.SLABS] == 1 and pos.ps[0, PF.COINS] == 4 and pos.pub["wares"][0, 0] == 0
    assert pos.events(Ev.SELL) == [(Ev.SELL, 0, 0, 3, 9, -1)]


def test_haggler_adds_a_coin_per_ware() -> None:
    """Wave tile (INVENTED side, rules.toml waves.haggler_coins): +1 coin per ware sold."""
    pos = duo_position(
        pilgrims=[1, 20],
        merchants=["M2", "M4"],
        wares=[{0: 2}, {}],
        boutiques={"C2": (0, 3)},
        waves={"merchant": ("haggler", 0)},
    )
    pos.play(0, MER, (TOWNS.index("C2"), 0, 2, 0), v=1)
    assert pos.ps[0, PF.COINS] == 8 and pos.ps[0, PF.WUSE_M] == 1


def test_dk13_sixth_slab_triggers_the_end_d7_excess_stays() -> None:
    """D-K13: "Gaining your 6th gold slab ends the game" (003:L52); D7: coins above a full board stay."""
    pos = duo_position(
        pilgrims=[1, 20],
        merchants=["M2", "M4"],
        wares=[{0: 4}, {}],
        boutiques={"C2": (0, 3)},
        slabs=[5, 0],
        coins=[9, 0],
    )
    pos.play(0, MER, (TOWNS.index("C2"), 0, 4, 0), v=1)
    assert pos.ps[0, PF.SLABS] == 6 and pos.ps[0, PF.COINS] == 11 and pos.gs[G.TRIG] == Trig.GOLD
