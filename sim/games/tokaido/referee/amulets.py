"""The referee's Crossroads Amulets and the Fortune die, written from the rulebook (seed 002, "Amulet cards").

Six Amulets bend the rules once each (``USE``): Fortune rolls the die (``DIE``) before the move or, online,
on arrival (C35); Friendship opens an occupied space; Health gives both options (``crossroads.py``
reads its ``CHOICE``); Vitality moves again; Hospitality makes a meal free; Devotion puts a purchase's coins
on the Temple (C37). ``Amulets`` is built with ``Crossroads`` (only in a Crossroads game); the turn, the
stations, the Crossroads alternatives, the Matsuri cards and Travelers call it.
"""

from __future__ import annotations

from collections.abc import Generator

from kernels.tokaido.core.enums import AMULET_NAMES, Amulet, DieSrc, Ev, Space
from sim.games.tokaido.referee.context import Replay, Step
from sim.games.tokaido.referee.prices import devotion_points
from sim.games.tokaido.referee.state import Event, Illegal, TravelerState, amulet_kind

DIE_SOURCES = ("gaming room", "jirocho", "fortune amulet", "o-shogatsu", "setsubun", "iyasaka's re-roll")


class Amulets:
    """``USE`` of each Amulet where the rules allow it, and the Fortune die's ``DIE`` rows."""

    def __init__(self, ctx: Replay) -> None:
        self.ctx, self.state, self.rules, self.params = ctx, ctx.state, ctx.rules, ctx.params

    def die(self, tr: TravelerState, bet: int, source: int) -> Generator[None, Event, int]:
        """A roll of the Fortune die: ``DIE(t, face, bet, source)``; the face must be on the die (C24)."""
        ev = yield from self.ctx.take(Ev.DIE, tr, f"a fortune die roll ({DIE_SOURCES[source]})")
        if ev.c != source or ev.b != bet:
            got = DIE_SOURCES[ev.c] if 0 <= ev.c < len(DIE_SOURCES) else f"source {ev.c}"
            raise Illegal(
                ev,
                f"a roll for {got} betting {ev.b}, expected {DIE_SOURCES[source]} "
                f"(source {source}) betting {bet}",
            )
        if ev.a not in self.rules.fortune_die:
            raise Illegal(ev, f"face x{ev.a} is not on the fortune die ({self.rules.fortune_die})")
        return int(ev.a)

    # ================================================================ amulets
    def use(self, ev: Event, tr: TravelerState) -> int:
        """Check ``USE(t, card)``: ``tr`` holds the card and may use it now; it returns to the market
        (C35)."""
        if ev.t != tr.index:
            raise Illegal(ev, f"traveler {ev.t} uses an amulet, but this is the turn of {tr.label}")
        kind = amulet_kind(self.rules, ev.a)
        if kind < 0:
            raise Illegal(ev, f"there is no amulet card {ev.a}")
        name = AMULET_NAMES[kind]
        if kind != Amulet.DEVOTION and ev.b != -1:
            raise Illegal(ev, f"the {name} amulet takes no argument (b = -1), got {ev.b}")
        if ev.a not in tr.amulets:
            held = ", ".join(self.rules.amulets[c] for c in sorted(tr.amulets)) or "none"
            raise Illegal(ev, f"{tr.name} does not hold the {name} amulet (holds: {held})")
        if ev.a in tr.amulets_new:
            raise Illegal(
                ev, f"{tr.name} took the {name} amulet this turn: it is usable from the next turn (C35)"
            )
        tr.amulets.remove(ev.a)
        self.state.amulet_market.append(ev.a)
        return kind

    def before_move(self, tr: TravelerState, ev: Event) -> Generator[None, Event, tuple[Event, bool]]:
        """Fortune (``USE`` + ``DIE``) and Friendship (``USE``) before a move; returns the next event."""
        friendship = False
        while ev.kind == Ev.USE:
            if ev.t != tr.index:
                raise Illegal(ev, f"traveler {ev.t} uses an amulet, but {tr.label} moves next")
            kind = amulet_kind(self.rules, ev.a)
            if kind not in (Amulet.FORTUNE, Amulet.FRIENDSHIP):
                what = AMULET_NAMES[kind] if kind >= 0 else f"card {ev.a}"
                raise Illegal(
                    ev, f"the {what} amulet is not used before a move (only fortune and friendship)"
                )
            if kind == Amulet.FORTUNE and not self.amulet_rule("fortune_before_move"):
                raise Illegal(
                    ev,
                    "crossroads.amulets.fortune_before_move is false: the fortune amulet is rolled "
                    "on arrival",
                )
            self.use(ev, tr)
            if kind == Amulet.FORTUNE:
                face = yield from self.die(tr, 0, DieSrc.FORTUNE)
                self.ctx.note(f"{tr.name} uses the fortune amulet before moving: rolls x{face}")
                self.ctx.coins(tr, face, "fortune amulet")
            else:
                friendship = True
                self.ctx.note(f"{tr.name} uses the friendship amulet before moving")
            self.ctx.expecting = f"a MOVE of {tr.label}"
            ev = yield from self.ctx.next()
        return ev, friendship

    def amulet_rule(self, name: str) -> bool:
        """A switch of ``crossroads.amulets`` (the rules profiles' differences, C35-C37)."""
        return bool(self.rules.raw["crossroads"]["amulets"][name])

    def fortune_on_arrival(self, tr: TravelerState) -> Step:
        """Online (``crossroads.amulets.fortune_after_move``): ``USE(fortune)`` + ``DIE`` right after the
        ``MOVE``, before the stop's action (at an Inn, before the meal); also before moving unless
        ``fortune_before_move`` is false."""
        use = yield from self.ctx.maybe(
            lambda e: e.kind == Ev.USE and e.t == tr.index and amulet_kind(self.rules, e.a) == Amulet.FORTUNE,
            "USE(fortune) or the stop's events",
        )
        if use is not None:
            self.use(use, tr)
            face = yield from self.die(tr, 0, DieSrc.FORTUNE)
            self.ctx.note(f"{tr.name} uses the fortune amulet on arrival: rolls x{face}")
            self.ctx.coins(tr, face, "fortune amulet")

    def devotion(
        self, tr: TravelerState, paid: int, printed: int, discounts: frozenset[str] = frozenset()
    ) -> Step:
        """C37: ``USE(t, devotion, coins)`` right after a purchase puts the coins spent on it on the Temple;
        after a discount named in ``crossroads.amulets.devotion_printed_after`` (``discounts``: what made the
        card cheaper: zen_emon, kinko, felicia, ...; online: Zen-emon's souvenir) or with
        ``devotion_printed_price`` (any discount) the card's printed price."""
        am = self.rules.raw["crossroads"]["amulets"]
        after = am["devotion_printed_after"]
        listed = {after} if isinstance(after, str) else set(after)
        printed_rule = bool(am["devotion_printed_price"]) or bool(discounts & listed)
        if printed_rule and discounts:
            paid = printed
        use = yield from self.ctx.maybe(
            lambda e: (
                e.kind == Ev.USE and e.t == tr.index and amulet_kind(self.rules, e.a) == Amulet.DEVOTION
            ),
            "USE(devotion) or the next event",
        )
        if use is None:
            return
        what = (
            f"printed price (after {', '.join(sorted(discounts))})"
            if printed_rule and discounts
            else "coins paid"
        )
        if paid <= 0:
            raise Illegal(use, f"devotion puts the {what} for a card on the temple; this card cost nothing")
        if use.b != paid:
            amount = (
                f"{paid} coins of the {what}" if printed_rule and discounts else f"{paid} coins just paid"
            )
            raise Illegal(use, f"devotion puts the {amount} on the temple, not {use.b}")
        self.use(use, tr)
        tr.donated += paid
        pts = devotion_points(self.rules, tr, paid)
        self.ctx.score(tr, "pts_temple", pts, f"devotion amulet: {paid} coins on the temple")

    def no_health_at_inn(self, tr: TravelerState) -> Step:
        """ "The Amulet cannot be used when the Traveler arrives at an Inn" (Health)."""
        use = yield from self.ctx.maybe(
            lambda e: e.kind == Ev.USE and e.t == tr.index and amulet_kind(self.rules, e.a) == Amulet.HEALTH,
            "the Inn's events",
        )
        if use is not None:
            raise Illegal(use, "the health amulet cannot be used on arriving at an Inn")

    def hospitality(self, tr: TravelerState) -> Generator[None, Event, bool]:
        """``USE(t, hospitality)`` right before the Inn meal's GAIN: the meal is free."""
        use = yield from self.ctx.maybe(
            lambda e: (
                e.kind == Ev.USE and e.t == tr.index and amulet_kind(self.rules, e.a) == Amulet.HOSPITALITY
            ),
            "USE(hospitality), a meal or the next event",
        )
        if use is None:
            return False
        self.use(use, tr)
        self.ctx.note("uses the hospitality amulet")
        return True

    def vitality(self, tr: TravelerState) -> Generator[None, Event, bool]:
        """C36: ``USE(t, vitality)`` once the space is resolved; True if ``tr`` moves again at once."""
        use = yield from self.ctx.maybe(
            lambda e: (
                e.kind == Ev.USE and e.t == tr.index and amulet_kind(self.rules, e.a) == Amulet.VITALITY
            ),
            "USE(vitality) or the next turn",
        )
        if use is None:
            return False
        st = self.state
        if st.board[tr.pos] == Space.INN:
            raise Illegal(use, "the vitality amulet cannot be used on arriving at an Inn")
        if not st.alone_in_lead(tr):
            level = ", ".join(f"{o.name} at {o.pos}" for o in st.travelers if o is not tr and o.pos >= tr.pos)
            raise Illegal(use, f"vitality needs {tr.name} (at {tr.pos}) strictly ahead of everyone: {level}")
        self.use(use, tr)
        self.ctx.note("uses the vitality amulet: moves again")
        return True
