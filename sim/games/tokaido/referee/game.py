"""The referee: replay one game's action log with an independent implementation of the rules.

The Numba kernels write every game as a list of events (``docs/log-format.md``).
This module replays such a log with plain Python objects written from the
rulebooks (seed 000, the New Encounters promo, the Crossroads expansion of
seed 002: ``sim/games/tokaido/referee/crossroads.py``) and ``docs/rules-choices.md``,
never from the kernels: it checks that every decision was legal and every chance
outcome possible (each DRAW is the top card of the referee's own pile),
recomputes every score component and compares it with the kernel's result rows.

    result = referee_game(config, rules, events, kernel_rows)
    if not result.ok:
        print(explain_mismatch(result))

The replay is a coroutine: :class:`Referee` takes one event at a time
(:meth:`Referee.feed`), so a test can drive it move by move and read its state
(``referee.state``) in between.

:class:`Referee` is composed, not stacked: one shared :class:`~.context.Replay` (the state, the
event stream, the narration) and one handler per area of the rules, built from the configuration:

    Stations       every station and the cards it gives (``stations.py``)
    Inns           the arrivals and meals at the Inns (``inns.py``)
    Promos         the promo Travelers (``promos.py``)
    MatsuriTravelers  the Matsuri Travelers, who also come as promos (``matsuri_travelers.py``)
    Amulets, Crossroads  only with Crossroads (``amulets.py``, ``crossroads.py``)
    Matsuri        only with Matsuri: the festival cards (``matsuri.py``)
    FinalScoring   the end of the game (``final_scoring.py``)

Each handler holds the context and the handlers it calls, as typed attributes; the referee here
keeps the set-up, the draft and the turn, which ask each area in the order the rules give.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kernels.tokaido.core.enums import Ability, Deck, Ev, Space
from sim.games.tokaido.referee.amulets import Amulets
from sim.games.tokaido.referee.context import Replay, Step
from sim.games.tokaido.referee.crossroads import Crossroads
from sim.games.tokaido.referee.final_scoring import FinalScoring
from sim.games.tokaido.referee.inns import Inns
from sim.games.tokaido.referee.matsuri import Matsuri
from sim.games.tokaido.referee.matsuri_travelers import MatsuriTravelers
from sim.games.tokaido.referee.promos import Promos
from sim.games.tokaido.referee.scoring import build_rows, compare_rows
from sim.games.tokaido.referee.state import DECK_NAMES, Event, GameState, Illegal, TravelerState
from sim.games.tokaido.referee.stations import Stations
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules

__all__ = ["Referee", "RefereeResult", "explain_mismatch", "referee_game", "rows_from_records"]


@dataclass
class RefereeResult:
    ok: bool
    errors: list[str] = field(default_factory=list)
    rows: list[dict[str, int]] = field(default_factory=list)  # the referee's own values per player
    narration: list[str] = field(default_factory=list)
    finished: bool = False  # the log reached END and end scoring ran
    events_checked: int = 0


def referee_game(
    config: GameConfig,
    rules: Rules,
    events: np.ndarray,
    kernel_rows: list[dict] | None = None,
    narrate: bool = False,
) -> RefereeResult:
    """Replay one game's log; check legality, then (if given) compare ``kernel_rows`` with ours."""
    ref = Referee(config, rules, narrate=narrate)
    ref.feed_all(events)
    ref.finish()
    return ref.result(kernel_rows)


def explain_mismatch(result: RefereeResult, context: int = 6) -> str:
    """A short human-readable report of what the referee found."""
    if result.ok:
        return f"referee: ok ({result.events_checked} events)"
    lines = [f"referee: {len(result.errors)} problem(s) in {result.events_checked} events"]
    lines += [f"  {e}" for e in result.errors[:20]]
    if len(result.errors) > 20:
        lines.append(f"  ... and {len(result.errors) - 20} more")
    if result.narration:
        lines.append("last turns replayed:")
        lines += [f"  {n}" for n in result.narration[-context:]]
    return "\n".join(lines)


class Referee:
    """Replays a log event by event; ``state`` is the referee's own game.

    One :class:`Replay` (the state and the event stream) and a handler per area of the rules, each
    built only when the configuration has that area: ``crossroads`` (with ``amulets``) and
    ``matsuri`` are None in games without them. ``stations`` and ``inns`` pick the classes of the
    station and Inn handlers (subclasses that observe the stops: ``sim/games/tokaido/tuning/sane.py``).
    """

    def __init__(
        self,
        config: GameConfig,
        rules: Rules,
        narrate: bool = False,
        stations: type[Stations] = Stations,
        inns: type[Inns] = Inns,
    ) -> None:
        ctx = self.ctx = Replay(config, rules, narrate)
        self.promos = Promos(ctx)
        self.amulets = Amulets(ctx) if ctx.state.xr else None
        self.crossroads = Crossroads(ctx, self.amulets, self.promos) if self.amulets is not None else None
        self.travelers = MatsuriTravelers(ctx, self.crossroads)  # also promos: in every game
        self.matsuri = (
            Matsuri(ctx, self.amulets, self.promos)  # Matsuri needs Crossroads (its Fortune die)
            if ctx.state.matsuri and self.amulets is not None
            else None
        )
        self.stations = stations(ctx, self.promos, self.travelers, self.crossroads, self.matsuri)
        self.inns = inns(ctx, self.stations)
        # the abilities and festival cards that take a station action call back into the stations
        self.promos.stations = self.travelers.stations = self.stations
        if self.matsuri is not None:
            self.matsuri.stations = self.stations
        self.scoring = FinalScoring(ctx, self.promos, self.travelers, self.crossroads, self.matsuri)
        self._again: int | None = None  # the traveler who moves again at once (Vitality, C36)
        self._game = self._play()
        next(self._game)  # run up to the first event request

    # what the callers read of the replay
    @property
    def state(self) -> GameState:
        return self.ctx.state

    @property
    def rules(self) -> Rules:
        return self.ctx.rules

    @property
    def errors(self) -> list[str]:
        return self.ctx.errors

    @property
    def finished(self) -> bool:
        return self.ctx.finished

    @property
    def ranks(self) -> list[int] | None:
        return self.ctx.ranks

    @property
    def narration(self) -> list[str]:
        return self.ctx.narration

    @property
    def expecting(self) -> str:
        return self.ctx.expecting

    # ================================================================ driving
    def feed(self, row: Sequence[int]) -> bool:
        """Check one log row ``(kind, t, a, b, c, d)``; False once the log is known to be illegal."""
        if self.errors:
            return False
        vals = [int(x) for x in row] + [-1] * (6 - len(row))
        ev = Event(self.ctx.count, *vals[:6])
        self.ctx.count += 1
        if self.finished:
            return self._fail(Illegal(ev, "the log goes on after END"))
        try:
            self._game.send(ev)
        except StopIteration:
            self.ctx.finished = True
        except Illegal as exc:
            return self._fail(exc)
        return True

    def feed_all(self, events: np.ndarray | Iterable[Sequence[int]]) -> bool:
        rows = events.tolist() if isinstance(events, np.ndarray) else events
        for row in rows:
            if self.finished and all(v == -1 for v in row):
                continue  # unused rows of a padded log buffer
            if not self.feed(row):
                return False
        return True

    def finish(self) -> None:
        """The log is over: complain if the game is not."""
        self.ctx.flush()
        if not self.finished and not self.errors:
            self.errors.append(
                f"the log ends after {self.ctx.count} events, before END (expecting {self.ctx.expecting})"
            )

    def result(self, kernel_rows: list[dict] | None = None) -> RefereeResult:
        rows = build_rows(self.state, self.ctx.ranks)
        errors = list(self.errors)
        if kernel_rows is not None and self.finished and not errors:
            errors += compare_rows(rows, kernel_rows, [p.name for p in self.state.players()])
        return RefereeResult(
            not errors, errors, rows, list(self.ctx.narration), self.finished, self.ctx.count
        )

    def _fail(self, exc: Illegal) -> bool:
        self.ctx.flush()
        self.errors.append(str(exc))
        if self.ctx.narrate:
            self.ctx.narration.append(f"ILLEGAL {exc}")
        return False

    # ================================================================ the game
    def _play(self) -> Step:
        yield from self._setup()
        while True:
            again = self._again
            t, self._again = (again, None) if again is not None else (self.state.next_traveler(), None)
            if t is None:
                break
            if again is None:
                t = yield from self.travelers.mutsumi(t)
            yield from self._turn(self.state.travelers[t])
        self.ctx.expecting = "END (everyone has reached the last Inn)"
        ev = yield from self.ctx.next()
        if ev.kind != Ev.END:
            raise Illegal(ev, f"expected {self.ctx.expecting}")
        self.ctx.flush()
        self.scoring.end_scoring()

    def _setup(self) -> Step:
        st = self.state
        self.ctx.expecting = "DECK"
        ev = yield from self.ctx.next()
        deck = 0
        while ev.kind == Ev.DECK:
            if self.matsuri is not None and ev.a == Deck.MATSURI and deck <= ev.a:
                deck = ev.a
                self.matsuri.matsuri_deck(ev)
                ev = yield from self.ctx.next()
                continue
            if not 0 <= ev.a < 4 or ev.a < deck:
                raise Illegal(
                    ev, f"deck {ev.a}: the piles come in order 0..3" + (", then 9" if st.matsuri else "")
                )
            deck = ev.a
            card = self.ctx.card(ev, deck, ev.b)
            if card in st.piles[deck].cards:
                raise Illegal(
                    ev, f"{st.card_name(deck, card)} (card {card}) is twice in the {DECK_NAMES[deck]} pile"
                )
            st.piles[deck].put_under(card)
            ev = yield from self.ctx.next()
        for d, pile in enumerate(st.piles):
            if len(pile) != st.deck_sizes[d]:
                raise Illegal(ev, f"the {DECK_NAMES[d]} pile has {len(pile)} of its {st.deck_sizes[d]} cards")
        if self.matsuri is not None:
            self.matsuri.check_matsuri_stack(ev)
        self.ctx.pending = ev
        if self.crossroads is not None:
            yield from self.crossroads.markets()
        yield from self._draft()
        orders: dict[int, int] = {}
        while len(orders) < st.n_trav:
            ev = yield from self.ctx.take(Ev.LINEUP, None, "the order of departure")
            self.ctx.traveler(ev, ev.t)
            if ev.t in orders or not 0 <= ev.a < st.n_trav or ev.a in orders.values():
                raise Illegal(ev, f"traveler {ev.t} order {ev.a}: the line-up must order each traveler once")
            orders[ev.t] = ev.a
        st.set_lineup(orders)
        given: set[int] = set()
        start = {tr.index: st.starting_coins(tr) for tr in st.players()}
        yield from self.travelers.kushinada_setup(
            start
        )  # after Preparations, before the start Amulets (MT-Kushinada)
        while len(given) < st.n_players:
            ev = yield from self.ctx.take(Ev.COINS, None, "starting coins")
            tr = self.ctx.traveler(ev, ev.t)
            if tr.neutral or ev.t in given:
                raise Illegal(ev, f"starting coins twice or for the Neutral ({tr.label})")
            want = start[tr.index]
            if ev.a != want:
                raise Illegal(ev, f"{tr.label} starts with {want} coins (seat {tr.seat}), not {ev.a}")
            given.add(ev.t)
            tr.coins = tr.coins_start = want
        order = sorted(st.travelers, key=lambda x: x.lineup)
        self.ctx.say("setup: departure order " + ", ".join(f"{x.name} ({x.coins} coins)" for x in order))
        yield from self.promos.eriku_start()  # before the first move and the start Amulet (P3)
        if self.crossroads is not None:
            yield from self.crossroads.start_amulets()

    def _draft(self) -> Step:
        st = self.state
        mode = st.traveler_mode
        if mode == "none":
            return
        dealt: dict[int, tuple[int, ...]] = {}
        kept: set[int] = set()
        used: set[int] = set()
        fixed = st.fixed_travelers() if mode == "fixed" else []
        draft = self.rules.raw["rules"]["draft"]
        if mode == "draft" and draft["mode"] == "free":  # seed 002: "take the Traveler of your choice"
            yield from self._free_draft()
            return
        n_dealt = int(draft["dealt"])
        # draft.pool: drafted or random Travelers come from the pool only (all in play by default)
        pool = set(self.rules.pool_ids()) if mode != "fixed" else set(range(len(self.rules.travelers)))
        while len(kept) < st.n_players:
            self.ctx.expecting = "DEAL or KEEP"
            ev = yield from self.ctx.next()
            if ev.kind not in (Ev.DEAL, Ev.KEEP):
                raise Illegal(
                    ev, f"expected DEAL or KEEP: {st.n_players - len(kept)} players have no Traveler"
                )
            tr = self.ctx.traveler(ev, ev.t)
            if tr.neutral:
                raise Illegal(ev, "the Neutral Traveler has no Traveler tile")
            if ev.kind == Ev.DEAL:
                ids = [ev.a] if mode != "draft" else [ev.a, ev.b, ev.c][:n_dealt]
                extra = [ev.b, ev.c, ev.d][len(ids) - 1 :]  # fields past the dealt Travelers are -1
                bad = ev.t in dealt or any(x != -1 for x in extra) or len(set(ids)) != len(ids)
                if bad or any(not 0 <= i < len(self.rules.travelers) or i in used for i in ids):
                    raise Illegal(ev, f"bad deal to player {ev.t} in {mode} mode: {ev.a}, {ev.b}")
                if any(i not in pool for i in ids):
                    raise Illegal(ev, f"player {ev.t} is dealt a Traveler outside draft.pool: {ev.a}, {ev.b}")
                if mode == "fixed" and ev.a != fixed[ev.t]:
                    raise Illegal(ev, f"player {ev.t} must get {self.rules.travelers[fixed[ev.t]].name}")
                used.update(ids)
                dealt[ev.t] = tuple(ids)
            else:
                if ev.t not in dealt or ev.t in kept or ev.a not in dealt[ev.t] or ev.a < 0:
                    raise Illegal(ev, f"player {ev.t} keeps {ev.a}, which was not dealt to them")
                alt = next((x for x in dealt[ev.t] if x != ev.a), -1)
                st.assign_traveler(tr, ev.a, alt)
                kept.add(ev.t)

    def _free_draft(self) -> Step:
        """In player order each player keeps any Traveler still in the pool (``KEEP`` only)."""
        st = self.state
        taken: set[int] = set()
        for p in range(st.n_players):
            ev = yield from self.ctx.take(Ev.KEEP, st.travelers[p], "a free choice of Traveler")
            if ev.a not in self.rules.pool_ids() or ev.a in taken:
                raise Illegal(ev, f"player {p} keeps Traveler {ev.a}, which is not left in the pool")
            taken.add(ev.a)
            st.assign_traveler(st.travelers[p], ev.a, -1)

    # ================================================================ a turn
    def _turn(self, behind: TravelerState) -> Step:
        st, xr, amulets = self.state, self.crossroads, self.amulets  # xr, amulets: None without Crossroads
        self.ctx.expecting = f"a MOVE of {behind.label}"
        ev = yield from self.ctx.next()
        if ev.kind == Ev.END:
            raise Illegal(ev, f"the game is not over: {behind.label} is at space {behind.pos}")
        friendship = False
        behind.amulets_new.clear()  # seed 002: an Amulet is usable on the buyer's next move (C35)
        if amulets is not None:
            self.ctx.flush()  # the amulets used before the move narrate as the previous turn's tail
            ev, friendship = yield from amulets.before_move(behind, ev)
        if ev.kind != Ev.MOVE:
            raise Illegal(ev, f"expected {self.ctx.expecting}")
        tr = self.ctx.traveler(ev, ev.t)
        if tr is not behind:
            status = (
                "moves again (vitality)" if behind.pos > min(o.pos for o in st.travelers) else "is behind"
            )
            raise Illegal(ev, f"{tr.label} moved but {behind.label} {status}")
        controller = st.lead_player() if tr.neutral else tr.index
        if ev.b != controller:
            who = (
                "the Neutral is moved by the lead player"
                if tr.neutral
                else "a player moves their own traveler"
            )
            raise Illegal(ev, f"controller {ev.b}, expected {controller} ({who})")
        why = st.why_illegal(tr.index, ev.a, friendship)
        if why is not None:
            raise Illegal(ev, f"{tr.label} may not move from {tr.pos} to {ev.a}: {why}")
        self.ctx.flush()
        who = f"moved by p{controller}" if tr.neutral else f"p{tr.index}, {tr.coins} coins"
        st.move(tr.index, ev.a)
        tr.moved_by = controller
        self.ctx.header = f"turn {st.turn}  {tr.name} ({who}) -> {ev.a} {st.space_name(ev.a)}"
        kind = st.board[ev.a]
        option, health = 0, False
        if amulets is not None and not tr.neutral and amulets.amulet_rule("fortune_after_move"):
            yield from amulets.fortune_on_arrival(
                tr
            )  # online (also): after the move, before the stop's action
        if self.matsuri is not None and not tr.neutral and kind != Space.INN and st.m.leg:
            yield from self.matsuri.leg_stop(
                tr, kind
            )  # Hadaka, Yama no Ko, o-Taue, o-Hanami: before the choice
        if kind != Space.INN:
            yield from self.travelers.watchers(tr, kind)  # Misaki / Takeru, on the stop before its action
        if kind == Space.VILLAGE and (yield from self.travelers.rakuren(tr)):
            option = -1  # his draw instead of the usual actions (MT-Rakuren)
        elif xr is not None and not tr.neutral and kind != Space.INN:
            if friendship:
                self.ctx.note("friendship: shares the space")
            if kind == Space.ENCOUNTER and tr.ability == Ability.UMEGAE:
                self.stations.umegae(tr)  # her bonus comes first, whatever the option (seed 002 notes)
            option, health = yield from xr.station_choice(tr, kind)
        # Health giving one option (crossroads.amulets.health_one_option): 2 the base action, 3 the
        # alternative
        one = health and bool(self.rules.raw["crossroads"]["amulets"]["health_one_option"])
        no_base = option in (1, 4) or (option == 3 and one)  # 4 (online): the alternative, nothing bought
        if no_base and kind == Space.TEMPLE and tr.ability == Ability.HIROTADA:
            yield from self.stations.temple(
                tr, donation=False
            )  # his bank coin at every Temple stop (rulebook)
        # options 1-4 come from ``station_choice``: only with Crossroads
        if (
            option == 3 and xr is not None
        ):  # both, the alternative first: then the base action, if still possible (C27)
            yield from xr.alternative(tr, kind, after_base=False)
            if not one:
                base = yield from xr.second(tr, kind, alternative=False)
                if not base and kind == Space.TEMPLE and tr.ability == Ability.HIROTADA:
                    yield from self.stations.temple(tr, donation=False)
                no_base = not base
        if kind == Space.INN:
            yield from self.inns.inn(tr)
        else:
            yield from self.stations.base(tr, kind, option != -1 and not no_base)
        if xr is not None and (
            option == 1 or (option == 2 and not one and (yield from xr.second(tr, kind, alternative=True)))
        ):
            yield from xr.alternative(tr, kind, after_base=option == 2)
        if amulets is not None and not tr.neutral and (yield from amulets.vitality(tr)):
            self._again = tr.index


def rows_from_records(records: Any) -> list[dict]:
    """Kernel result records of one game (a structured array) as the dicts ``referee_game`` takes."""
    return [{name: int(r[name]) for name in records.dtype.names} for r in records]
