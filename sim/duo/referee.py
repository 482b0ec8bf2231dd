"""An independent referee for Tokaido Duo: replay an action log with plain Python objects.

Written from the rules text (seed 003; research expansions.md C.2 D-K1..D-K20
and the C.5 defaults D1-D10 as parameterised in rules.toml), by name (towns
"C3", zones "Z2"), with its own path searches, and never from the kernels'
tables. It checks that every decision in the log was legal and every chance
outcome possible, recomputes every score and count, and compares them with
the kernel's two result rows. Log rows are ``(kind, player, a, b, c, d)``
(docs/duo.md); the kinds are numbered here, the same numbers as the kernels'.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sim.duo.board import COAST, TOWNS
from sim.duo.rules import DuoRules

CHARS = ("pilgrim", "merchant", "artist")
SIDES = ("tranquil", "swift", "porter", "haggler", "proficient", "inspired")
KIND = {1: "first", 2: "boutique", 3: "wave", 4: "tile", 5: "roll", 6: "pick", 7: "pmove", 8: "ptake",
        9: "mmove", 10: "mdraw", 11: "draw", 12: "return", 13: "sell", 14: "amove", 15: "paint",
        16: "reveal", 17: "gift", 18: "spring", 19: "end"}
TRIGGERS = ("temple", "garden", "gold", "gift", "rounds")


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


class Referee:
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
        if not self.n.actions_optional and not c.effect_done and c.moved_to != "none":
            if self.effect_available(c):
                raise Foul(f"player {c.player} declined the {c.char}'s action although actions are mandatory (D4)")
        self.cur = None

    def effect_available(self, c: Pick) -> bool:
        me = self.players[c.player]
        if c.char == "pilgrim":
            kind = self.ring[c.moved_to][0]
            return {"T": me.temple < 9, "G": me.garden < 6, "C": True,
                    "H": self.spring_holder != c.player and (not self.repeat or self.n.hot_spring_retake),
                    "S": any(h != c.player for h in self.wave_holder.values())}[kind]
        if c.char == "merchant":
            if c.moved_to in COAST:
                return me.wares[self.boutique[c.moved_to][0]] > 0
            return sum(self.bag.values()) > 0
        painting = min(self.others_in(c.player, c.moved_to) + (self.n.proficient_reveals if self.holds(
            c.player, "proficient") else 0), 10 - me.revealed)
        return painting > 0 or self.can_gift(c)

    def can_gift(self, c: Pick) -> bool:
        me = self.players[c.player]
        if me.revealed <= me.gifted:
            return False
        icon = me.tiles[me.gifted] + 1
        if self.zone[c.moved_to].icon == icon:
            return True
        return self.holds(c.player, "inspired") and any(self.zone[z].icon == icon for z in c.entered)

    # ---------------------------------------------------------------- events
    def feed(self, row: tuple[int, ...]) -> None:
        kind = KIND.get(row[0])
        if kind is None:
            raise Foul(f"unknown event kind {row[0]}")
        if self.ended is not None:
            raise Foul("events after the end")
        getattr(self, "on_" + kind)(*row[1:])

    def on_first(self, p: int, *_: int) -> None:
        if self.n.first_player >= 0 and p != self.n.first_player:
            raise Foul(f"player {p} picks first, the rules say player {self.n.first_player} (D10)")
        self.first = p
        self.players[p].first = 1

    def on_boutique(self, _p: int, t: int, w: int, coins: int, _d: int) -> None:
        self.boutique[COAST[t]] = (self.wares[w], coins)
        if len(self.boutique) == 8 and Counter(self.boutique.values()) != Counter(self.n.boutiques):
            raise Foul("the boutique tokens on the towns are not the 8 tokens of the rules")

    def on_wave(self, _p: int, c: int, side: int, *_: int) -> None:
        if SIDES[side] not in self.n.waves[c]:
            raise Foul(f"{CHARS[c]} wave tile shows {SIDES[side]}, not one of its sides")
        self.wave_side[CHARS[c]] = SIDES[side]

    def on_tile(self, p: int, slot: int, icon: int, *_: int) -> None:
        if slot != len(self.players[p].tiles):
            raise Foul("painting tiles dealt out of order")
        self.players[p].tiles.append(icon)
        if p == 1 and slot == 9:
            dealt = Counter(self.players[0].tiles + self.players[1].tiles)
            if any(dealt[i] != self.n.paintings[i] for i in range(4)):
                raise Foul("the dealt paintings are not the rules' tiles")

    def on_roll(self, _p: int, rnd: int, *vals: int) -> None:
        self.close()
        if self.round >= 0 and len(self.picks_this_round) != 3:
            raise Foul(f"round {self.round} ended after {len(self.picks_this_round)} picks")
        if self.fired_round is not None:
            raise Foul(f"round {rnd} played after a trigger in round {self.fired_round} (D-K17)")
        if rnd != self.round + 1:
            raise Foul(f"round {rnd} follows round {self.round}")
        self.round = rnd
        self.picks_this_round = []
        for ch, v in zip(CHARS, vals, strict=True):
            if v not in self.n.dice[CHARS.index(ch)]:
                raise Foul(f"the {ch} die shows {v}, not one of its faces")
            self.dice[ch] = v

    def on_pick(self, p: int, c: int, v: int, *_: int) -> None:
        self.close()
        lead = (self.first + self.round) % 2
        who = (lead, 1 - lead, lead)[len(self.picks_this_round)] if len(self.picks_this_round) < 3 else -1
        if p != who:
            raise Foul(f"player {p} picks, but it is player {who}'s pick (D-K2)")
        if c in self.picks_this_round:
            raise Foul(f"the {CHARS[c]} die was already taken this round")
        if v != self.dice[CHARS[c]]:
            raise Foul(f"picked the {CHARS[c]} die as {v}, it shows {self.dice[CHARS[c]]}")
        self.picks_this_round.append(c)
        self.pick_no += 1
        self.repeat = False
        self.cur = Pick(p, CHARS[c], v)

    def on_spring(self, p: int, *_: int) -> None:
        last = self.cur
        self.close()
        if last is None or last.player != p:
            raise Foul("the Hot Spring token spent outside its holder's pick")
        since = self.players[p].spring_since
        if self.spring_holder != p or since is None or since >= self.pick_no:
            raise Foul(f"player {p} spends a Hot Spring token not taken on an earlier pick (D-K8, D5)")
        self.spring_holder = None
        self.players[p].spring_since = None
        self.players[p].springs_spent += 1
        self.repeat = True
        self.cur = Pick(p, last.char, last.value)

    def _need(self, p: int, char: str) -> Pick:
        c = self.cur
        if c is None or c.player != p or c.char != char:
            raise Foul(f"a {char} event for player {p} outside that pick")
        return c

    def on_pmove(self, p: int, steps: int, dest: int, *_: int) -> None:
        c = self._need(p, "pilgrim")
        allowed = {c.value}
        if self.holds(p, "tranquil") and c.value > 1:
            allowed.add(c.value - 1)
        if self.holds(p, "swift"):
            allowed.add(c.value + 1)
        if steps not in allowed or c.moved_to is not None:
            raise Foul(f"pilgrim moves {steps} with a die of {c.value} (allowed {sorted(allowed)})")
        s = (self.players[p].pilgrim + steps) % 37
        while self.occupied_ring(p, s):  # D-K4, D1
            s = (s + 1) % 37
        if s != dest:
            raise Foul(f"pilgrim lands on {dest}, the rules put it on {s}")
        self.players[p].pilgrim = s
        c.moved_to = s
        if steps != c.value:
            self.players[p].wave_uses[0] += 1

    def on_ptake(self, p: int, _typ: int, tile: int, stolen: int, _d: int) -> None:
        c = self._need(p, "pilgrim")
        if c.moved_to is None or c.effect_done:
            raise Foul("a pilgrim effect without a move, or twice")
        me, kind = self.players[p], self.ring[c.moved_to][0]
        c.effect_done = True
        if kind == "T":
            if me.temple >= 9:
                raise Foul("a step on a full temple track")
            me.temple += 1
            if me.temple == 9:
                self.fire("temple")
        elif kind == "G":
            if me.garden >= 6:
                raise Foul("a step on a full garden track")
            me.garden += 1
            if me.garden == 6:
                self.fire("garden")
        elif kind == "C":
            me.coins += self.n.town_coins
            self.convert(me)
        elif kind == "H":
            if self.spring_holder == p or (self.repeat and not self.n.hot_spring_retake):
                raise Foul("took the Hot Spring token it cannot take")
            self.spring_holder = p
            me.spring_since = self.pick_no
            me.springs_taken += 1
            self.players[1 - p].spring_since = None
        else:
            ch = CHARS[tile]
            free = [x for x in CHARS if self.wave_holder[x] is None]
            ok = free if free else [x for x in CHARS if self.wave_holder[x] == 1 - p]
            if ch not in ok or bool(stolen) != (self.wave_holder[ch] == 1 - p):
                raise Foul(f"took the {ch} wave tile; the board offers {ok} (D-K9, D6)")
            self.wave_holder[ch] = p
            me.waves_taken += 1

    def on_mmove(self, p: int, town: int, *_: int) -> None:
        c = self._need(p, "merchant")
        targets = self.merchant_targets(p, c.value)
        if town < 0:
            if targets:
                raise Foul(f"merchant stays put with paths to {sorted(targets)}")
            c.moved_to = "none"
            return
        if TOWNS[town] not in targets:
            raise Foul(f"merchant goes to {TOWNS[town]}: no {self.n.merchant_path} path of {c.value} (D2)")
        self.players[p].merchant = TOWNS[town]
        c.moved_to = TOWNS[town]

    def on_mdraw(self, p: int, n: int, *_: int) -> None:
        c = self._need(p, "merchant")
        if c.moved_to in (None, "none") or c.moved_to in COAST or c.effect_done:
            raise Foul("wares drawn away from a mountain town")
        want = min(self.r.board.mountain_value[c.moved_to], sum(self.bag.values()))
        if n != want:
            raise Foul(f"drew {n} wares at {c.moved_to}, the rules give {want} (D-K11)")
        c.effect_done, c.drawn = True, n

    def on_draw(self, p: int, w: int, *_: int) -> None:
        c = self._need(p, "merchant")
        ware = self.wares[w]
        if self.bag[ware] <= 0 or c.draws_seen >= c.drawn:
            raise Foul(f"drew a {ware} the bag does not hold")
        self.bag[ware] -= 1
        self.players[p].wares[ware] += 1
        c.draws_seen += 1

    def on_return(self, p: int, w: int, *_: int) -> None:
        c = self._need(p, "merchant")
        me, ware = self.players[p], self.wares[w]
        cap = self.n.cap + (self.n.porter_cap if self.holds(p, "porter") else 0)
        if c.drawn < 0 or me.wares[ware] <= 0 or sum(me.wares.values()) <= cap:
            raise Foul(f"returned a {ware} without being over the cap (D8)")
        me.wares[ware] -= 1
        self.bag[ware] += 1

    def on_sell(self, p: int, w: int, k: int, coins: int, _d: int) -> None:
        c = self._need(p, "merchant")
        me = self.players[p]
        if c.moved_to not in COAST or c.effect_done:
            raise Foul("a sale away from a coastal town")
        ware, price = self.boutique[c.moved_to]
        if self.holds(p, "haggler") and self.n.haggler_coins > 0:
            price += self.n.haggler_coins
            me.wave_uses[1] += 1
        if self.wares[w] != ware or not 0 < k <= me.wares[ware] or coins != k * price:
            raise Foul(f"sold {k} {self.wares[w]} for {coins} at {c.moved_to} (boutique {ware} at {price})")
        if not self.n.actions_optional and k != me.wares[ware]:
            raise Foul("a partial sale although actions are mandatory (D4)")
        me.wares[ware] -= k
        self.bag[ware] += k
        me.coins += coins
        c.effect_done = True
        self.convert(me)

    def on_amove(self, p: int, zone: int, mask: int, *_: int) -> None:
        c = self._need(p, "artist")
        routes = self.artist_routes(p, c.value)
        if zone < 0:
            if routes:
                raise Foul("artist stays put with a path available")
            c.moved_to = "none"
            return
        zid = self.zone_ids[zone]
        entered = frozenset(self.zone_ids[i] for i in range(len(self.zone_ids)) if (mask >> i) & 1)
        if (zid, entered) not in routes:
            raise Foul(f"artist goes to {zid} through {sorted(entered)}: not a path of {c.value} zones (D3)")
        self.players[p].artist = zid
        c.moved_to, c.entered = zid, entered

    def on_paint(self, p: int, n: int, *_: int) -> None:
        c = self._need(p, "artist")
        me = self.players[p]
        if c.moved_to in (None, "none") or c.effect_done:
            raise Foul("painting without a move, or twice")
        others = self.others_in(p, c.moved_to)
        bonus = self.n.proficient_reveals if self.holds(p, "proficient") else 0
        want = min(others + bonus, 10 - me.revealed)
        if n != want or n == 0:
            raise Foul(f"painting reveals {n}; {others} other meeples in {c.moved_to} make it {want} (D-K15)")
        if want > min(others, 10 - me.revealed):
            me.wave_uses[2] += 1
        c.effect_done, c.painted = True, n

    def on_reveal(self, p: int, slot: int, icon: int, *_: int) -> None:
        c = self._need(p, "artist")
        me = self.players[p]
        if c.reveals_seen >= c.painted or slot != me.revealed or me.tiles[slot] != icon:
            raise Foul(f"revealed slot {slot} as icon {icon}; next face-down slot is {me.revealed}")
        me.revealed += 1
        c.reveals_seen += 1

    def on_gift(self, p: int, slot: int, icon: int, *_: int) -> None:
        c = self._need(p, "artist")
        me = self.players[p]
        if c.moved_to in (None, "none") or c.effect_done or slot != me.gifted or me.tiles[slot] != icon:
            raise Foul(f"gift of slot {slot}; only the top-left revealed tile {me.gifted} may go (D-K16)")
        if not self.can_gift(c):
            raise Foul(f"gift of icon {icon + 1} in {c.moved_to} (icon {self.zone[c.moved_to].icon})")
        if self.zone[c.moved_to].icon != icon + 1:
            me.wave_uses[2] += 1
        me.gifted += 1
        c.effect_done = True
        if me.gifted == 10:
            self.fire("gift")

    def on_end(self, _p: int, trig: int, rounds: int, *_: int) -> None:
        self.close()
        if len(self.picks_this_round) != 3:
            raise Foul("the game ends in the middle of a round")
        if not self.fired and self.round + 1 >= self.n.max_rounds:
            self.fire("rounds")
        if not self.fired or self.fired_round != self.round:
            raise Foul(f"the game ends after round {self.round} without a trigger in it")
        want = sum(1 << TRIGGERS.index(t) for t in self.fired)
        if trig != want or rounds != self.round + 1:
            raise Foul(f"END says triggers {trig} after {rounds} rounds; the referee has {want} after {self.round + 1}")
        self.ended = (trig, rounds)

    # ---------------------------------------------------------------- result
    def rows(self) -> list[dict[str, int]]:
        n = self.n
        scores = []
        for q in self.players:
            pil = n.temple[q.temple] * n.garden[q.garden]
            mer = n.slabs[q.slabs - 1] if q.slabs else 0
            art = n.artist_values[q.gifted - 1] if q.gifted else 0
            scores.append((pil, mer, art))
        totals = [sum(s) for s in scores]
        keys = [(totals[i], self.players[i].coins) for i in range(2)]
        out = []
        for i, q in enumerate(self.players):
            held = sum(1 << k for k, ch in enumerate(CHARS) if self.wave_holder[ch] == i)
            out.append({
                "player": i, "first": q.first, "score": totals[i], "rank": 1 if keys[i] >= keys[1 - i] else 2,
                "win_k": 2 if keys[0] == keys[1] else 1, "pts_pilgrim": scores[i][0], "pts_merchant": scores[i][1],
                "pts_artist": scores[i][2], "coins": q.coins, "slabs": q.slabs, "temple": q.temple,
                "garden": q.garden, "revealed": q.revealed, "gifted": q.gifted,
                "end_triggers": self.ended[0] if self.ended else -1, "rounds": self.round + 1,
                "hs_taken": q.springs_taken, "hs_used": q.springs_spent, "waves_taken": q.waves_taken,
                "wave_use_pilgrim": q.wave_uses[0], "wave_use_merchant": q.wave_uses[1],
                "wave_use_artist": q.wave_uses[2], "waves_held": held,
            })
        return out


@dataclass
class Verdict:
    ok: bool
    errors: list[str]
    rows: list[dict[str, int]]


def referee_game(rules: DuoRules, events: Any, kernel_rows: list[dict[str, int]]) -> Verdict:
    """Replay one game's log; compare the re-derived rows with the kernel's (dicts of RESULT fields)."""
    ref = Referee(rules)
    try:
        for i, row in enumerate(events):
            try:
                ref.feed(tuple(int(x) for x in row))
            except Foul as exc:
                raise Foul(f"event {i} {KIND.get(int(row[0]), row[0])}{tuple(int(x) for x in row[1:])}: {exc}") from None
        if ref.ended is None:
            raise Foul("the log has no END")
    except Foul as exc:
        return Verdict(False, [str(exc)], [])
    mine = ref.rows()
    errors = [f"player {k['player']}: {f} kernel {k[f]} referee {m[f]}"
              for m, k in zip(mine, kernel_rows, strict=True) for f in m if f in k and k[f] != m[f]]
    return Verdict(not errors, errors, mine)


def rows_from_records(records: Any) -> list[dict[str, int]]:
    return [{f: int(r[f]) for f in records.dtype.names} for r in records]
