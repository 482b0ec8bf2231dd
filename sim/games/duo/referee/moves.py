"""The Duo referee's character events: pilgrim (D-K3..D-K9), merchant (D-K10..D-K13), artist (D-K14..D-K16).

Each ``on_KIND`` handler checks one log row of a pick against the rules and
applies it to the table (``state.Table``).
"""

from __future__ import annotations

from sim.games.duo.board import COAST, TOWNS
from sim.games.duo.referee.automa import Automa
from sim.games.duo.referee.state import CHARS, Foul, Pick, Table


class Moves:
    """The ``on_KIND`` handlers of the characters' events, applied to ``table``; the Automa's picks are
    checked against her rules (``automa``)."""

    def __init__(self, table: Table, automa: Automa) -> None:
        self.table = table
        self.automa = automa

    def _need(self, p: int, char: str, action: str = "") -> Pick:
        c = self.table.cur
        if c is None or c.player != p or c.char != char:
            raise Foul(f"a {char} event for player {p} outside that pick")
        if action and self.automa.is_automa(p):
            raise Foul(f"the Automa {action}: she has no boards, only Rank tracks (003:L87)")
        return c

    def on_pmove(self, p: int, steps: int, dest: int, *_: int) -> None:
        c = self._need(p, "pilgrim")
        allowed = {c.value}
        if self.table.holds(p, "tranquil") and c.value > 1:
            allowed.add(c.value - 1)
        if self.table.holds(p, "swift"):
            allowed.add(c.value + 1)
        if steps not in allowed or c.moved_to is not None:
            raise Foul(f"pilgrim moves {steps} with a die of {c.value} (allowed {sorted(allowed)})")
        s = (self.table.players[p].pilgrim + steps) % 37
        while self.table.occupied_ring(p, s):  # D-K4, D1
            s = (s + 1) % 37
        if s != dest:
            raise Foul(f"pilgrim lands on {dest}, the rules put it on {s}")
        self.table.players[p].pilgrim = s
        c.moved_to = s
        if steps != c.value:
            self.table.players[p].wave_uses[0] += 1

    def on_ptake(self, p: int, _typ: int, tile: int, stolen: int, _d: int) -> None:
        c = self._need(p, "pilgrim")
        if c.moved_to is None or c.effect_done:
            raise Foul("a pilgrim effect without a move, or twice")
        me, kind = self.table.players[p], self.table.ring[c.moved_to][0]
        if self.automa.is_automa(p) and kind != "H":
            raise Foul(f"the Automa takes the {kind} space; she takes only the Hot Spring token")
        c.effect_done = True
        if kind == "T":
            if me.temple >= 9:
                raise Foul("a step on a full temple track")
            me.temple += 1
            if me.temple == 9:
                self.table.fire("temple")
        elif kind == "G":
            if me.garden >= 6:
                raise Foul("a step on a full garden track")
            me.garden += 1
            if me.garden == 6:
                self.table.fire("garden")
        elif kind == "C":
            me.coins += self.table.n.town_coins
            self.table.convert(me)
        elif kind == "H":
            if self.table.spring_holder == p or (self.table.repeat and not self.table.n.hot_spring_retake):
                raise Foul("took the Hot Spring token it cannot take")
            self.table.spring_holder = p
            me.spring_since = self.table.pick_no
            me.springs_taken += 1
            self.table.players[1 - p].spring_since = None
        else:
            ch = CHARS[tile]
            free = [x for x in CHARS if self.table.wave_holder[x] is None]
            ok = free if free else [x for x in CHARS if self.table.wave_holder[x] == 1 - p]
            if ch not in ok or bool(stolen) != (self.table.wave_holder[ch] == 1 - p):
                raise Foul(f"took the {ch} wave tile; the board offers {ok} (D-K9, D6)")
            self.table.wave_holder[ch] = p
            me.waves_taken += 1

    def on_mmove(self, p: int, town: int, *_: int) -> None:
        c = self._need(p, "merchant")
        targets = self.table.merchant_targets(p, c.value)
        if town < 0:
            if targets:
                raise Foul(f"merchant stays put with paths to {sorted(targets)}")
            c.moved_to = "none"
            return
        if TOWNS[town] not in targets:
            raise Foul(
                f"merchant goes to {TOWNS[town]}: no {self.table.n.merchant_path} path of {c.value} (D2)"
            )
        if self.automa.is_automa(p) and TOWNS[town] != self.automa.automa_town(p, targets):
            raise Foul(
                f"the Automa's merchant goes to {TOWNS[town]}; her rule picks "
                f"{self.automa.automa_town(p, targets)}"
            )
        self.table.players[p].merchant = TOWNS[town]
        c.moved_to = TOWNS[town]

    def on_mdraw(self, p: int, n: int, *_: int) -> None:
        c = self._need(p, "merchant", "draws wares")
        if c.moved_to in (None, "none") or c.moved_to in COAST or c.effect_done:
            raise Foul("wares drawn away from a mountain town")
        want = min(self.table.r.board.mountain_value[c.moved_to], sum(self.table.bag.values()))
        if n != want:
            raise Foul(f"drew {n} wares at {c.moved_to}, the rules give {want} (D-K11)")
        c.effect_done, c.drawn = True, n

    def on_draw(self, p: int, w: int, *_: int) -> None:
        c = self._need(p, "merchant")
        ware = self.table.wares[w]
        if self.table.bag[ware] <= 0 or c.draws_seen >= c.drawn:
            raise Foul(f"drew a {ware} the bag does not hold")
        self.table.bag[ware] -= 1
        self.table.players[p].wares[ware] += 1
        c.draws_seen += 1

    def on_return(self, p: int, w: int, *_: int) -> None:
        c = self._need(p, "merchant", "returns wares")
        me, ware = self.table.players[p], self.table.wares[w]
        cap = self.table.n.cap + (self.table.n.porter_cap if self.table.holds(p, "porter") else 0)
        if c.drawn < 0 or me.wares[ware] <= 0 or sum(me.wares.values()) <= cap:
            raise Foul(f"returned a {ware} without being over the cap (D8)")
        me.wares[ware] -= 1
        self.table.bag[ware] += 1

    def on_sell(self, p: int, w: int, k: int, coins: int, _d: int) -> None:
        c = self._need(p, "merchant", "sells wares")
        me = self.table.players[p]
        if c.moved_to not in COAST or c.effect_done:
            raise Foul("a sale away from a coastal town")
        ware, price = self.table.boutique[c.moved_to]
        if self.table.holds(p, "haggler") and self.table.n.haggler_coins > 0:
            price += self.table.n.haggler_coins
            me.wave_uses[1] += 1
        if self.table.wares[w] != ware or not 0 < k <= me.wares[ware] or coins != k * price:
            raise Foul(
                f"sold {k} {self.table.wares[w]} for {coins} at {c.moved_to} (boutique {ware} at {price})"
            )
        if not self.table.n.actions_optional and k != me.wares[ware]:
            raise Foul("a partial sale although actions are mandatory (D4)")
        me.wares[ware] -= k
        self.table.bag[ware] += k
        me.coins += coins
        c.effect_done = True
        self.table.convert(me)

    def on_amove(self, p: int, zone: int, mask: int, *_: int) -> None:
        c = self._need(p, "artist")
        routes = self.table.artist_routes(p, c.value)
        if zone < 0:
            if routes:
                raise Foul("artist stays put with a path available")
            c.moved_to = "none"
            return
        zid = self.table.zone_ids[zone]
        entered = frozenset(
            self.table.zone_ids[i] for i in range(len(self.table.zone_ids)) if (mask >> i) & 1
        )
        if (zid, entered) not in routes:
            raise Foul(f"artist goes to {zid} through {sorted(entered)}: not a path of {c.value} zones (D3)")
        if self.automa.is_automa(p) and zid != self.automa.automa_zone(p, {z for z, _ in routes}):
            raise Foul(
                f"the Automa's artist goes to {zid}; her rule picks "
                f"{self.automa.automa_zone(p, {z for z, _ in routes})}"
            )
        self.table.players[p].artist = zid
        c.moved_to, c.entered = zid, entered

    def on_paint(self, p: int, n: int, *_: int) -> None:
        c = self._need(p, "artist", "paints")
        me = self.table.players[p]
        if c.moved_to in (None, "none") or c.effect_done:
            raise Foul("painting without a move, or twice")
        others = self.table.others_in(p, c.moved_to)
        bonus = self.table.n.proficient_reveals if self.table.holds(p, "proficient") else 0
        want = min(others + bonus, 10 - me.revealed)
        if n != want or n == 0:
            raise Foul(f"painting reveals {n}; {others} other meeples in {c.moved_to} make it {want} (D-K15)")
        if want > min(others, 10 - me.revealed):
            me.wave_uses[2] += 1
        c.effect_done, c.painted = True, n

    def on_reveal(self, p: int, slot: int, icon: int, *_: int) -> None:
        c = self._need(p, "artist")
        me = self.table.players[p]
        if c.reveals_seen >= c.painted or slot != me.revealed or me.tiles[slot] != icon:
            raise Foul(f"revealed slot {slot} as icon {icon}; next face-down slot is {me.revealed}")
        me.revealed += 1
        c.reveals_seen += 1

    def on_gift(self, p: int, slot: int, icon: int, *_: int) -> None:
        c = self._need(p, "artist", "gifts")
        me = self.table.players[p]
        if c.moved_to in (None, "none") or c.effect_done or slot != me.gifted or me.tiles[slot] != icon:
            raise Foul(f"gift of slot {slot}; only the top-left revealed tile {me.gifted} may go (D-K16)")
        if not self.table.can_gift(c):
            raise Foul(f"gift of icon {icon + 1} in {c.moved_to} (icon {self.table.zone[c.moved_to].icon})")
        if self.table.zone[c.moved_to].icon != icon + 1:
            me.wave_uses[2] += 1
        me.gifted += 1
        c.effect_done = True
        if me.gifted == 10:
            self.table.fire("gift")
