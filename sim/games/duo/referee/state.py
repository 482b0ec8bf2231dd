"""The Duo referee's table: the players, the pick in progress, and the rule checks they need.

Plain Python, by name (towns "C3", zones "Z2"), with its own path searches
(D2 merchant paths, D3 artist paths), never the kernels' tables. The event
handlers are in ``referee_moves`` (the three characters) and ``referee``
(setup, the draft, the end, the scores).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sim.games.duo.board import COAST, TOWNS
from sim.games.duo.rules import DuoRules

CHARS = ("pilgrim", "merchant", "artist")
SIDES = ("tranquil", "swift", "porter", "haggler", "proficient", "inspired")
KIND = {
    1: "first",
    2: "boutique",
    3: "wave",
    4: "tile",
    5: "roll",
    6: "pick",
    7: "pmove",
    8: "ptake",
    9: "mmove",
    10: "mdraw",
    11: "draw",
    12: "return",
    13: "sell",
    14: "amove",
    15: "paint",
    16: "reveal",
    17: "gift",
    18: "spring",
    19: "end",
    20: "rank",
}
TRIGGERS = ("temple", "garden", "gold", "gift", "rounds", "rank")


class Foul(Exception):
    """A log entry the rules do not allow."""


@dataclass
class Player:
    pilgrim: int
    merchant: str
    artist: str
    temple: int = 0
    garden: int = 0
    coins: int = 0
    slabs: int = 0
    wares: Counter = field(default_factory=Counter)
    tiles: list[int] = field(default_factory=list)  # icon (0-based) per slot, dealt at setup
    revealed: int = 0
    gifted: int = 0
    spring_since: int | None = None  # the pick on which this player took the token
    springs_taken: int = 0
    springs_spent: int = 0
    waves_taken: int = 0
    wave_uses: list[int] = field(default_factory=lambda: [0, 0, 0])
    first: int = 0


@dataclass
class Pick:
    player: int
    char: str
    value: int
    moved_to: Any = None  # landing space / town / zone; "none" when no path
    effect_done: bool = False
    drawn: int = -1  # wares the draw announced, and how many DRAW rows came
    draws_seen: int = 0
    painted: int = -1
    reveals_seen: int = 0
    entered: frozenset[str] = frozenset()
    rank_seen: bool = False  # solo: the Automa's Rank step of this pick was logged


class Table:
    """The state of the replayed game and the rule checks shared by the event handlers."""

    def __init__(self, rules: DuoRules) -> None:
        self.r = rules
        self.n = rules.numbers
        b = rules.board
        self.ring = list(b.ring)
        self.nbrs: dict[str, list[str]] = {t: [] for t in TOWNS}
        for a, c in b.routes:
            self.nbrs[a].append(c)
            self.nbrs[c].append(a)
        self.zone = {z.id: z for z in b.zones}
        self.zone_ids = [z.id for z in b.zones]
        self.zone_nbrs: dict[str, set[str]] = {z: set() for z in self.zone_ids}
        for z1, z2 in b.adjacency:
            self.zone_nbrs[z1].add(z2)
            self.zone_nbrs[z2].add(z1)
        self.players = [Player(b.start_pilgrim[i], b.start_merchant[i], b.start_artist[i]) for i in range(2)]
        self.wares = list(self.n.bag)
        self.bag = Counter(self.n.bag)
        self.boutique: dict[str, tuple[str, int]] = {}
        self.wave_side: dict[str, str] = {}
        self.wave_holder: dict[str, int | None] = dict.fromkeys(CHARS)
        self.spring_holder: int | None = None
        self.first = -1
        self.round = -1
        self.picks_this_round: list[int] = []
        self.dice: dict[str, int] = {}
        self.pick_no = 0
        self.cur: Pick | None = None
        self.repeat = False
        self.fired: set[str] = set()
        self.fired_round: int | None = None
        self.ended: tuple[int, int] | None = None
        self.ranks = dict.fromkeys(CHARS, 0)  # solo: the Automa's Rank track slots

    # ---------------------------------------------------------------- helpers
    def holds(self, p: int, side: str) -> bool:
        ch = CHARS[SIDES.index(side) // 2]
        return self.wave_holder[ch] == p and self.wave_side.get(ch) == side

    def occupied_ring(self, p: int, s: int) -> bool:
        """Another meeple on ring space s: the other pilgrim, or any merchant in the town there."""
        if self.players[1 - p].pilgrim == s:
            return True
        return self.ring[s] in COAST and any(q.merchant == self.ring[s] for q in self.players)

    def town_taken(self, p: int, town: str) -> bool:
        if town not in COAST:
            return False
        where = self.ring.index(town)
        return self.players[1 - p].merchant == town or any(q.pilgrim == where for q in self.players)

    def merchant_targets(self, p: int, v: int) -> set[str]:
        mode = self.n.merchant_path
        out: set[str] = set()

        def walk(path: list[str], used: list[frozenset[str]]) -> None:
            if len(path) == v + 1:
                out.add(path[-1])
                return
            for nxt in self.nbrs[path[-1]]:
                edge = frozenset((path[-1], nxt))
                if self.town_taken(p, nxt):
                    continue
                if mode == "simple" and nxt in path:
                    continue
                if mode == "trail" and edge in used:
                    continue
                walk(path + [nxt], used + [edge])

        walk([self.players[p].merchant], [])
        return out

    def artist_routes(self, p: int, v: int) -> list[tuple[str, frozenset[str]]]:
        out = []

        def walk(path: list[str]) -> None:
            if len(path) == v + 1:
                out.append((path[-1], frozenset(path[1:])))
                return
            for nxt in sorted(self.zone_nbrs[path[-1]]):
                if nxt not in path:
                    walk(path + [nxt])

        walk([self.players[p].artist])
        return out

    def others_in(self, p: int, zid: str) -> int:
        z = self.zone[zid]
        n = sum(q.pilgrim in z.ring for q in self.players) + sum(q.merchant in z.towns for q in self.players)
        return n + (self.players[1 - p].artist == zid)

    def fire(self, what: str) -> None:
        self.fired.add(what)
        if self.fired_round is None:
            self.fired_round = self.round

    def convert(self, me: Player) -> None:
        while me.coins >= self.n.slab_coins and me.slabs < 6:
            me.coins -= self.n.slab_coins
            me.slabs += 1
            if me.slabs == 6:
                self.fire("gold")

    # ---------------------------------------------------------------- the end of an action
    def close(self) -> None:
        """Checks that need the whole action: mandatory effects (D4), draw and reveal counts, the cap (D8)."""
        c = self.cur
        if c is None:
            return
        me = self.players[c.player]
        if c.moved_to is None:
            raise Foul(f"the {c.char} pick of player {c.player} has no move")
        if c.drawn >= 0 and c.draws_seen != c.drawn:
            raise Foul(f"announced {c.drawn} wares but drew {c.draws_seen}")
        if c.painted >= 0 and c.reveals_seen != c.painted:
            raise Foul(f"painted {c.painted} tiles but revealed {c.reveals_seen}")
        cap = self.n.cap + (self.n.porter_cap if self.holds(c.player, "porter") else 0)
        if c.drawn >= 0 and sum(me.wares.values()) > cap:  # the cap binds on a draw (D-K11)
            raise Foul(f"player {c.player} holds {sum(me.wares.values())} wares, over the cap of {cap}")
        if c.char == "merchant" and c.drawn >= 0 and sum(me.wares.values()) > self.n.cap:
            me.wave_uses[1] += 1
        if not c.effect_done and c.moved_to != "none" and self.must_act(c) and self.effect_available(c):
            raise Foul(
                f"player {c.player} declined the {c.char}'s action although it is mandatory "
                f"({self.why_must(c)})"
            )
        self.cur = None

    def must_act(self, c: Pick) -> bool:
        """D4: every action may be declined, except where the seed says "must" (003:L34, L70), unless read as
        optional.

        The solo Automa (seat 1) follows her own rules instead (``referee_automa``).
        """
        if self.r.automa is not None and c.player == 1:
            return False
        if not self.n.actions_optional:
            return True
        if c.char != "pilgrim":
            return False
        kind = self.ring[c.moved_to][0]
        return (kind == "S" and not self.n.seashore_optional) or (
            kind == "H" and not self.n.hot_spring_optional
        )

    def why_must(self, c: Pick) -> str:
        if not self.n.actions_optional:
            return "D4: actions are mandatory"
        return (
            "003:L70, a wave tile must be taken"
            if self.ring[c.moved_to][0] == "S"
            else "003:L34, the Hot Spring token is taken immediately"
        )

    def effect_available(self, c: Pick) -> bool:
        me = self.players[c.player]
        if c.char == "pilgrim":
            kind = self.ring[c.moved_to][0]
            return {
                "T": me.temple < 9,
                "G": me.garden < 6,
                "C": True,
                "H": self.spring_holder != c.player and (not self.repeat or self.n.hot_spring_retake),
                "S": any(h != c.player for h in self.wave_holder.values()),
            }[kind]
        if c.char == "merchant":
            if c.moved_to in COAST:
                return me.wares[self.boutique[c.moved_to][0]] > 0
            return sum(self.bag.values()) > 0
        painting = min(
            self.others_in(c.player, c.moved_to)
            + (self.n.proficient_reveals if self.holds(c.player, "proficient") else 0),
            10 - me.revealed,
        )
        return painting > 0 or self.can_gift(c)

    def can_gift(self, c: Pick) -> bool:
        me = self.players[c.player]
        if me.revealed <= me.gifted:
            return False
        icon = me.tiles[me.gifted] + 1
        if self.zone[c.moved_to].icon == icon:
            return True
        return self.holds(c.player, "inspired") and any(self.zone[z].icon == icon for z in c.entered)
