"""Duo rules of the Artist on hand-built positions (seed 003:L56-64; research expansions.md C.2, C.5).

Shipped zones: Z1 borders ring 0..5 (C1 .. C2) and towns C1, C2, M1, M2, icon 1. Derived adjacency:
Z1-Z2, Z1-Z7, Z1-Z8, Z2-Z3, Z2-Z6, Z3-Z4, Z3-Z5, Z4-Z5, Z5-Z6, Z6-Z7, Z7-Z8. Icons Z1..Z8: 1 2 3 4 1 2 3 4.
"""

from __future__ import annotations

from kernels.duo.enums import PF, Char, Ev, G, Trig
from tests.helpers.duo_positions import duo_position

ART = Char.ARTIST
TILES = [[1, 2, 3, 4, 1, 2, 3, 4, 1, 2], [4, 3, 2, 1, 4, 3, 2, 1, 2, 3]]


def dests(pos, p: int, v: int) -> set[str]:
    ids = [z.id for z in pos.rules.board.zones]
    return {ids[z] for z, *_ in pos.plays(p, ART, v) if z >= 0}


def test_dk14_d3_zones_by_shared_routes_never_revisited() -> None:
    """D-K14: the artist crosses routes, "never through a mountain town", never revisiting a zone passed on
    the move (003:L56); D3: zones sharing only a mountain town are not adjacent; the start counts as
    passed."""
    pos = duo_position(artists=["Z1", "Z5"])
    assert dests(pos, 0, 1) == {"Z2", "Z7", "Z8"}  # not Z6, which meets Z1 only at M2
    pos = duo_position(artists=["Z8", "Z5"])
    assert dests(pos, 0, 2) == {"Z2", "Z7", "Z1", "Z6"}  # Z8 -> Z1 -> Z7 is fine, Z8 again is not


def test_dk15_paint_counts_other_meeples_in_the_zone() -> None:
    """D-K15: reveal as many tiles as other meeples (any player's) in the arrival zone: its area plus every
    ring space and town on its border; the artist itself does not count (003:L60-62)."""
    pos = duo_position(pilgrims=[5, 3], merchants=["M1", "M3"], artists=["Z2", "Z1"], tiles=TILES)
    # Z1: own pilgrim on C2 (5), the other pilgrim on 3, own merchant in M1, the other artist: 4
    pos.play(0, ART, (pos.zone("Z1"), 1 << pos.zone("Z1"), 1, 0), v=1)
    assert pos.ps[0, PF.REVEALED] == 4 and list(pos.pub["shown"][0, :5]) == [0, 1, 2, 3, -1]
    assert [e[2] for e in pos.events(Ev.REVEAL)] == [0, 1, 2, 3]  # left to right, top row first


def test_proficient_reveals_one_more() -> None:
    """D-K15/D-K19: "the maximum ... is 5 (6 with proficient wave tile)"."""
    pos = duo_position(
        pilgrims=[5, 3],
        merchants=["M1", "M3"],
        artists=["Z2", "Z1"],
        tiles=TILES,
        waves={"artist": ("proficient", 0)},
    )
    pos.play(0, ART, (pos.zone("Z1"), 1 << pos.zone("Z1"), 1, 0), v=1)
    assert pos.ps[0, PF.REVEALED] == 5 and pos.ps[0, PF.WUSE_A] == 1


def test_dk16_gift_only_the_top_left_revealed_tile() -> None:
    """D-K16: gift if the zone's icon matches "the topmost, leftmost revealed painting"; "only that specific
    tile is ever eligible" (003:L64)."""
    z1 = 1
    pos = duo_position(
        pilgrims=[20, 21],
        merchants=["M3", "M4"],
        artists=["Z2", "Z5"],
        tiles=TILES,
        revealed=[3, 0],
        gifted=[1, 0],
    )  # next to gift: slot 1, icon 2; slot 0 (icon 1) is gone
    assert 2 not in {a for z, _, a, _ in pos.plays(0, ART, 1) if z == pos.zone("Z1")}  # Z1 is icon 1: no gift
    pos.ps[0, PF.GIFTED] = 0
    assert 2 in {a for z, _, a, _ in pos.plays(0, ART, 1) if z == pos.zone("Z1")} and z1 == 1
    pos.play(0, ART, (pos.zone("Z1"), 1 << pos.zone("Z1"), 2, 0), v=1)
    assert pos.ps[0, PF.GIFTED] == 1 and pos.events(Ev.GIFT) == [(Ev.GIFT, 0, 0, 0, -1, -1)]


def test_dk16_tenth_gift_ends_the_game() -> None:
    """D-K16/D-K17: "Removing your last tile ends the game" (003:L64, L79)."""
    tiles = [[1] * 10, [2] * 10]
    pos = duo_position(
        pilgrims=[20, 21],
        merchants=["M3", "M4"],
        artists=["Z2", "Z5"],
        tiles=tiles,
        revealed=[10, 0],
        gifted=[9, 0],
    )
    pos.play(0, ART, (pos.zone("Z1"), 1 << pos.zone("Z1"), 2, 0), v=1)
    assert pos.ps[0, PF.GIFTED] == 10 and pos.gs[G.TRIG] == Trig.GIFT


def test_inspired_gifts_with_a_zone_passed_through() -> None:
    """D-K19 "Inspired" (INVENTED reading, rules.toml): may gift with the icon of any zone entered on the
    move."""
    pos = duo_position(
        pilgrims=[20, 21],
        merchants=["M3", "M4"],
        artists=["Z8", "Z5"],
        tiles=TILES,
        revealed=[1, 0],
        waves={"artist": ("inspired", 0)},
    )  # slot 0 icon 1 = Z1's icon
    z7, z1 = pos.zone("Z7"), pos.zone("Z1")
    gifts = {(z, m) for z, m, a, _ in pos.plays(0, ART, 2) if a == 2}
    assert (z7, (1 << z1) | (1 << z7)) in gifts  # Z8 -> Z1 -> Z7: Z1's icon counts
    pos.play(0, ART, (z7, (1 << z1) | (1 << z7), 2, 1), v=2)
    assert pos.ps[0, PF.GIFTED] == 1 and pos.ps[0, PF.WUSE_A] == 1
