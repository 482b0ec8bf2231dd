"""An independent referee for Tokaido Duo: replay an action log with plain Python objects.

Written from the rules text (seed 003; research expansions.md C.2 D-K1..D-K20
and the C.5 defaults D1-D10 as parameterised in rules.toml), by name (towns
"C3", zones "Z2"), with its own path searches, and never from the kernels'
tables. It checks that every decision in the log was legal and every chance
outcome possible, recomputes every score and count, and compares them with
the kernel's two result rows. Log rows are ``(kind, player, a, b, c, d)``
(docs/duo.md); the kinds are numbered here, the same numbers as the kernels'.

Four modules by concern, composed by :class:`Referee`: ``state`` (``Table``: the
table and the checks that need a whole action), ``automa`` (``Automa``: the solo
Automa's rules, seat 1 of a solo game), ``moves`` (``Moves``: the characters'
events) and this one (setup, the draft, the end, the scores, ``referee_game``).
Each log row goes to the ``on_KIND`` handler of the one part that owns it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from sim.games.duo.board import COAST
from sim.games.duo.referee.automa import Automa
from sim.games.duo.referee.moves import Moves
from sim.games.duo.referee.state import CHARS, KIND, SIDES, TRIGGERS, Foul, Pick, Table
from sim.games.duo.rules import DuoRules

__all__ = ["KIND", "Foul", "Referee", "Verdict", "referee_game", "rows_from_records"]


class Referee:
    """Feed it the log rows in order (``feed``); then ``rows`` are the re-derived result rows."""

    def __init__(self, rules: DuoRules) -> None:
        self.table = Table(rules)
        self.automa = Automa(self.table)
        self.moves = Moves(self.table, self.automa)
        # each event kind to the handler of the part that owns it: the set-up, the draft and the end
        # here, the Automa's Rank steps, the characters' moves
        parts = (self, self.automa, self.moves)
        self._on = {
            kind: getattr(part, "on_" + kind)
            for kind in KIND.values()
            for part in parts
            if hasattr(part, "on_" + kind)
        }

    @property
    def ended(self) -> tuple[int, int] | None:
        return self.table.ended

    # ---------------------------------------------------------------- events
    def feed(self, row: tuple[int, ...]) -> None:
        kind = KIND.get(row[0])
        if kind is None:
            raise Foul(f"unknown event kind {row[0]}")
        if self.table.ended is not None:
            raise Foul("events after the end")
        self._on[kind](*row[1:])

    def _close(self) -> None:
        """The pick in progress is over: the Automa's end-of-pick checks, then the table's."""
        c = self.table.cur
        if c is not None and c.moved_to is not None and self.automa.is_automa(c.player):
            self.automa.close_automa(c)
        self.table.close()

    def on_first(self, p: int, *_: int) -> None:
        if self.table.n.first_player >= 0 and p != self.table.n.first_player:
            raise Foul(f"player {p} picks first, the rules say player {self.table.n.first_player} (D10)")
        self.table.first = p
        self.table.players[p].first = 1

    def on_boutique(self, _p: int, t: int, w: int, coins: int, _d: int) -> None:
        self.table.boutique[COAST[t]] = (self.table.wares[w], coins)
        if len(self.table.boutique) == 8 and Counter(self.table.boutique.values()) != Counter(
            self.table.n.boutiques
        ):
            raise Foul("the boutique tokens on the towns are not the 8 tokens of the rules")

    def on_wave(self, _p: int, c: int, side: int, *_: int) -> None:
        if SIDES[side] not in self.table.n.waves[c]:
            raise Foul(f"{CHARS[c]} wave tile shows {SIDES[side]}, not one of its sides")
        self.table.wave_side[CHARS[c]] = SIDES[side]

    def on_tile(self, p: int, slot: int, icon: int, *_: int) -> None:
        if slot != len(self.table.players[p].tiles):
            raise Foul("painting tiles dealt out of order")
        self.table.players[p].tiles.append(icon)
        if p == 1 and slot == 9:
            dealt = Counter(self.table.players[0].tiles + self.table.players[1].tiles)
            if any(dealt[i] != self.table.n.paintings[i] for i in range(4)):
                raise Foul("the dealt paintings are not the rules' tiles")

    def on_roll(self, _p: int, rnd: int, *vals: int) -> None:
        self._close()
        if self.table.round >= 0 and len(self.table.picks_this_round) != 3:
            raise Foul(f"round {self.table.round} ended after {len(self.table.picks_this_round)} picks")
        if self.table.fired_round is not None:
            raise Foul(f"round {rnd} played after a trigger in round {self.table.fired_round} (D-K17)")
        if rnd != self.table.round + 1:
            raise Foul(f"round {rnd} follows round {self.table.round}")
        self.table.round = rnd
        self.table.picks_this_round = []
        for ch, v in zip(CHARS, vals, strict=True):
            if v not in self.table.n.dice[CHARS.index(ch)]:
                raise Foul(f"the {ch} die shows {v}, not one of its faces")
            self.table.dice[ch] = v

    def on_pick(self, p: int, c: int, v: int, *_: int) -> None:
        self._close()
        lead = (self.table.first + self.table.round) % 2
        who = (
            (lead, 1 - lead, lead)[len(self.table.picks_this_round)]
            if len(self.table.picks_this_round) < 3
            else -1
        )
        if p != who:
            raise Foul(f"player {p} picks, but it is player {who}'s pick (D-K2)")
        if c in self.table.picks_this_round:
            raise Foul(f"the {CHARS[c]} die was already taken this round")
        if v != self.table.dice[CHARS[c]]:
            raise Foul(f"picked the {CHARS[c]} die as {v}, it shows {self.table.dice[CHARS[c]]}")
        taken = [CHARS[k] for k in self.table.picks_this_round]
        if self.automa.is_automa(p) and CHARS[c] != self.automa.automa_die(taken):
            raise Foul(
                f"the Automa takes the {CHARS[c]} die; her rule "
                f"({self.table.r.automa.die if self.table.r.automa else ''}) takes the "
                f"{self.automa.automa_die(taken)} die"
            )
        self.table.picks_this_round.append(c)
        self.table.pick_no += 1
        self.table.repeat = False
        self.table.cur = Pick(p, CHARS[c], v)

    def on_spring(self, p: int, *_: int) -> None:
        last = self.table.cur
        self._close()
        if last is None or last.player != p:
            raise Foul("the Hot Spring token spent outside its holder's pick")
        if self.automa.is_automa(p):
            raise Foul("the Automa spends the Hot Spring token; she never does")
        since = self.table.players[p].spring_since
        if self.table.spring_holder != p or since is None or since >= self.table.pick_no:
            raise Foul(f"player {p} spends a Hot Spring token not taken on an earlier pick (D-K8, D5)")
        self.table.spring_holder = None
        self.table.players[p].spring_since = None
        self.table.players[p].springs_spent += 1
        self.table.repeat = True
        self.table.cur = Pick(p, last.char, last.value)

    def on_end(self, _p: int, trig: int, rounds: int, *_: int) -> None:
        self._close()
        if len(self.table.picks_this_round) != 3:
            raise Foul("the game ends in the middle of a round")
        if not self.table.fired and self.table.round + 1 >= self.table.n.max_rounds:
            self.table.fire("rounds")
        if not self.table.fired or self.table.fired_round != self.table.round:
            raise Foul(f"the game ends after round {self.table.round} without a trigger in it")
        want = sum(1 << TRIGGERS.index(t) for t in self.table.fired)
        if trig != want or rounds != self.table.round + 1:
            raise Foul(
                f"END says triggers {trig} after {rounds} rounds; the referee has {want} after "
                f"{self.table.round + 1}"
            )
        self.table.ended = (trig, rounds)

    # ---------------------------------------------------------------- result
    def rows(self) -> list[dict[str, int]]:
        n = self.table.n
        scores = []
        for i, q in enumerate(self.table.players):
            if self.automa.is_automa(i):  # her score is the sum of her 3 Ranks (003:L87)
                scores.append(self.automa.automa_points())
                continue
            pil = n.temple[q.temple] * n.garden[q.garden]
            mer = n.slabs[q.slabs - 1] if q.slabs else 0
            art = n.artist_values[q.gifted - 1] if q.gifted else 0
            scores.append((pil, mer, art))
        totals = [sum(s) for s in scores]
        # ties: leftover coins; the Automa has no money, so any tie goes to the human (003:L87)
        keys = [
            (totals[i], -1 if self.automa.is_automa(i) else self.table.players[i].coins) for i in range(2)
        ]
        out = []
        for i, q in enumerate(self.table.players):
            held = sum(1 << k for k, ch in enumerate(CHARS) if self.table.wave_holder[ch] == i)
            out.append(
                {
                    "player": i,
                    "first": q.first,
                    "score": totals[i],
                    "rank": 1 if keys[i] >= keys[1 - i] else 2,
                    "win_k": 2 if keys[0] == keys[1] else 1,
                    "pts_pilgrim": scores[i][0],
                    "pts_merchant": scores[i][1],
                    "pts_artist": scores[i][2],
                    "coins": q.coins,
                    "slabs": q.slabs,
                    "temple": q.temple,
                    "garden": q.garden,
                    "revealed": q.revealed,
                    "gifted": q.gifted,
                    "end_triggers": self.table.ended[0] if self.table.ended else -1,
                    "rounds": self.table.round + 1,
                    "hs_taken": q.springs_taken,
                    "hs_used": q.springs_spent,
                    "waves_taken": q.waves_taken,
                    "wave_use_pilgrim": q.wave_uses[0],
                    "wave_use_merchant": q.wave_uses[1],
                    "wave_use_artist": q.wave_uses[2],
                    "waves_held": held,
                }
            )
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
                raise Foul(
                    f"event {i} {KIND.get(int(row[0]), row[0])}{tuple(int(x) for x in row[1:])}: {exc}"
                ) from None
        if ref.ended is None:
            raise Foul("the log has no END")
    except Foul as exc:
        return Verdict(False, [str(exc)], [])
    mine = ref.rows()
    errors = [
        f"player {k['player']}: {f} kernel {k[f]} referee {m[f]}"
        for m, k in zip(mine, kernel_rows, strict=True)
        for f in m
        if f in k and k[f] != m[f]
    ]
    return Verdict(not errors, errors, mine)


def rows_from_records(records: Any) -> list[dict[str, int]]:
    return [{f: int(r[f]) for f in records.dtype.names} for r in records]
