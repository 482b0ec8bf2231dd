"""The Duo referee's rules of the solo Automa (seed 003:L85-93; her logic: docs/duo.md "Solo", automa.toml).

Written from the documented rules, by name, with the referee's own path searches,
never from the kernels. In a solo game the Automa sits in seat 1. She takes a die by
her rule, moves by the 2-player rules to the destination her rule names, takes
only the Hot Spring token (always), never draws, sells, paints, gifts or spends,
and her Rank tracks advance by her steps; a track at its last slot ends the game
at the end of the round; her score is the sum of her 3 Ranks and she loses ties.
"""

from __future__ import annotations

from sim.games.duo.automa import SPACES
from sim.games.duo.board import COAST, TOWNS
from sim.games.duo.referee.state import CHARS, Foul, Pick, Table

SPACE_OF = {"T": "temple", "G": "garden", "S": "seashore", "H": "hot_spring", "C": "town"}


class Automa:
    """The Automa's choices and Rank tracks, checked on the referee's ``table``."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def is_automa(self, p: int) -> bool:
        return self.table.r.automa is not None and p == 1

    def automa_die(self, taken: list[str]) -> str:
        """The character whose die she takes, given the characters already taken this round."""
        a = self.table.r.automa
        assert a is not None
        left = [ch for ch in a.order if ch not in taken]

        def key(ch: str) -> tuple[int, int]:
            v = self.table.dice[ch]
            return {
                "behind": (-self.table.ranks[ch], v),
                "highest": (v, 0),
                "lowest": (-v, 0),
                "order": (0, 0),
            }[a.die]

        return max(left, key=key)  # max keeps the first of equals: the order breaks every tie

    def automa_town(self, p: int, targets: set[str]) -> str:
        a = self.table.r.automa
        assert a is not None
        human = self.table.players[1 - p]

        def key(t: str) -> tuple[int, int]:
            if a.merchant == "mountain":
                return (int(t not in COAST), 0)
            if t not in COAST:
                return (0, 0)
            return (1, human.wares[self.table.boutique[t][0]] if a.merchant == "block" else 0)

        return max(sorted(targets, key=TOWNS.index), key=key)

    def automa_zone(self, p: int, zones: set[str]) -> str:
        a = self.table.r.automa
        assert a is not None
        ordered = sorted(zones, key=self.table.zone_ids.index)
        return max(ordered, key=lambda z: self.table.others_in(p, z) if a.artist == "busiest" else 0)

    def automa_steps(self, c: Pick) -> int:
        """Rank steps her move earns (pilgrim: the space; merchant: the town's kind; artist: the meeples
        there)."""
        a = self.table.r.automa
        assert a is not None
        if c.moved_to in (None, "none"):
            return 0
        if c.char == "pilgrim":
            return a.pilgrim_steps[SPACES.index(SPACE_OF[self.table.ring[c.moved_to][0]])]
        if c.char == "merchant":
            return a.coast_steps if c.moved_to in COAST else a.mountain_steps
        return int(self.table.others_in(c.player, c.moved_to) >= a.meeples)

    def on_rank(self, p: int, ch: int, slot: int, steps: int, _d: int) -> None:
        c = self.table.cur
        if c is None or not self.is_automa(p) or c.player != p or CHARS[ch] != c.char or c.rank_seen:
            raise Foul(f"a Rank step for player {p}'s {CHARS[ch]} outside her pick")
        a = self.table.r.automa
        assert a is not None
        want = self.automa_steps(c)
        last = len(a.ranks[ch]) - 1
        new = min(self.table.ranks[c.char] + want, last)
        if steps != want or slot != new or want == 0:
            raise Foul(
                f"the Automa's {c.char} Rank moves {steps} to slot {slot}; her rules give {want} to {new}"
            )
        self.table.ranks[c.char] = new
        c.rank_seen = True
        if new == last:
            self.table.fire("rank")

    def close_automa(self, c: Pick) -> None:
        """Checks at the end of her pick: the token taken when she could, the Rank step logged."""
        if (
            c.char == "pilgrim"
            and self.table.ring[c.moved_to][0] == "H"
            and not c.effect_done
            and self.table.effect_available(c)
        ):
            raise Foul("the Automa left the Hot Spring token (she always takes it)")
        if not c.rank_seen and self.automa_steps(c) > 0:
            raise Foul(
                f"the Automa's {c.char} move earns {self.automa_steps(c)} Rank step(s), none was logged"
            )

    def automa_points(self) -> tuple[int, int, int]:
        a = self.table.r.automa
        assert a is not None
        pts = [a.ranks[k][self.table.ranks[ch]] for k, ch in enumerate(CHARS)]
        return pts[0], pts[1], pts[2]
