"""The Duo referee's character events: pilgrim (D-K3..D-K9), merchant (D-K10..D-K13), artist (D-K14..D-K16).

Each ``on_KIND`` handler checks one log row of a pick against the rules and
applies it to the table (``referee_state.Table``).
"""

from __future__ import annotations

from sim.games.duo.board import COAST, TOWNS
from sim.games.duo.referee.automa import AutomaRules
from sim.games.duo.referee.state import CHARS, Foul, Pick


class Moves(AutomaRules):
    def _need(self, p: int, char: str, action: str = "") -> Pick:
        c = self.cur
        if c is None or c.player != p or c.char != char:
            raise Foul(f"a {char} event for player {p} outside that pick")
        if action and self.is_automa(p):
            raise Foul(f"the Automa {action}: she has no boards, only Rank tracks (003:L87)")
        return c

    def close(self) -> None:
        c = self.cur
        if c is not None and c.moved_to is not None and self.is_automa(c.player):
            self.close_automa(c)
        super().close()

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
        if self.is_automa(p) and kind != "H":
            raise Foul(f"the Automa takes the {kind} space; she takes only the Hot Spring token")
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
        if self.is_automa(p) and TOWNS[town] != self.automa_town(p, targets):
            raise Foul(f"the Automa's merchant goes to {TOWNS[town]}; her rule picks {self.automa_town(p, targets)}")
        self.players[p].merchant = TOWNS[town]
        c.moved_to = TOWNS[town]

    def on_mdraw(self, p: int, n: int, *_: int) -> None:
        c = self._need(p, "merchant", "draws wares")
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
        c = self._need(p, "merchant", "returns wares")
        me, ware = self.players[p], self.wares[w]
        cap = self.n.cap + (self.n.porter_cap if self.holds(p, "porter") else 0)
        if c.drawn < 0 or me.wares[ware] <= 0 or sum(me.wares.values()) <= cap:
            raise Foul(f"returned a {ware} without being over the cap (D8)")
        me.wares[ware] -= 1
        self.bag[ware] += 1

    def on_sell(self, p: int, w: int, k: int, coins: int, _d: int) -> None:
        c = self._need(p, "merchant", "sells wares")
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
        if self.is_automa(p) and zid != self.automa_zone(p, {z for z, _ in routes}):
            raise Foul(f"the Automa's artist goes to {zid}; her rule picks {self.automa_zone(p, {z for z, _ in routes})}")
        self.players[p].artist = zid
        c.moved_to, c.entered = zid, entered

    def on_paint(self, p: int, n: int, *_: int) -> None:
        c = self._need(p, "artist", "paints")
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
        c = self._need(p, "artist", "gifts")
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
