"""What every handler of the referee shares: one game state, the event stream and the narration.

The replay is a coroutine (a generator that ``yield``s whenever it needs the next event). The
handlers of the game's areas (``stations``, ``crossroads``, ``amulets``, ``matsuri``,
``matsuri_travelers``, ``promos``, ``final_scoring``) each hold one :class:`Replay` and read the log
through its primitives: take the next event of a kind, peek for an optional one, draw the top card
of a pile, move a table card into a collection or under its pile. Every violation raises
:class:`Illegal` naming the event.

:class:`StationActions` is what the ability and festival handlers reuse of the stations (an Encounter,
a Hot Spring card, a meal...): ``Stations`` provides it, and calls those handlers in turn, so they
know it by this protocol rather than by its module.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Protocol

from kernels.tokaido.core.enums import Ev
from sim.games.tokaido.referee.state import (
    DECK_NAMES,
    XR_DECK_NAMES,
    Event,
    GameState,
    Illegal,
    TravelerState,
    kind_name,
)
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules

Step = Generator[None, Event, None]  # a handler that consumes events
Pull = Generator[None, Event, Event]  # a handler that returns the event it consumed
SHORT = {
    "pts_meals": "meals",
    "pts_souvenirs": "souvenirs",
    "pts_panoramas": "panoramas",
    "pts_hot_springs": "hot springs",
    "pts_temple": "temple",
    "pts_temple_bonus": "temple ranking",
    "pts_encounters": "encounters",
    "pts_achievements": "achievements",
    "pts_other": "other",
    "pts_cherry_trees": "cherry trees",
    "pts_bathhouses": "bathhouses",
    "pts_legendary": "legendary objects",
    "pts_calligraphy": "calligraphy",
    "pts_matsuri": "matsuri tokens",
}
OPTION_NAMES = (
    "itamae",
    "kitoushi",
    "takuhatsuso",
    "hirotada",
    "start amulet",
    "jirocho",
    "annaibito",
    "o-bon",
    "hadaka",
    "yama no ko",
    "o-taue",
    "matsuri option 11",
    "mutsumi",
    "iyasaka",
    "kidzuna",
    "rakuren",
    "rakuren legendary",
    "option 17",
    "felicia",
    "second action",
    "option 20",
    "hanabi order",
)


def deck_name(deck: int) -> str:
    """Name of a deck code of the log (0-3 piles, 4-8 Crossroads markets)."""
    if 0 <= deck < len(DECK_NAMES):
        return DECK_NAMES[deck]
    if 0 <= deck - len(DECK_NAMES) < len(XR_DECK_NAMES):
        return XR_DECK_NAMES[deck - len(DECK_NAMES)]
    return f"deck {deck}"


class StationActions(Protocol):
    """The station actions that Traveler abilities and festival cards take too (``Stations``)."""

    def eat(self, tr: TravelerState, card: int, why: str) -> None: ...
    def hot_spring(self, tr: TravelerState, why: str) -> Step: ...
    def village(self, tr: TravelerState, draw: int | None = None) -> Step: ...
    def encounter(self, tr: TravelerState, station: bool = False) -> Step: ...
    def panorama(self, tr: TravelerState, source: int, allowed: list[int]) -> Step: ...
    def umegae(self, tr: TravelerState) -> None: ...


class Replay:
    """The referee's game state, narration and event-reading primitives, shared by its handlers."""

    def __init__(self, config: GameConfig, rules: Rules, narrate: bool = False) -> None:
        self.state = GameState(config, rules)
        self.rules = rules
        self.params = rules.params
        self.narrate = narrate
        self.narration: list[str] = []
        self.errors: list[str] = []
        self.finished = False
        self.expecting = "the set-up"
        self.ranks: list[int] | None = None
        self.pending: Event | None = None  # read ahead by ``maybe`` and left for the next handler
        self.count = 0
        self.header: str | None = None
        self.notes: list[str] = []

    # ================================================================ narration
    def note(self, text: str) -> None:
        if self.narrate:
            self.notes.append(text)

    def say(self, line: str) -> None:
        if self.narrate:
            self.flush()
            self.narration.append(line)

    def flush(self) -> None:
        if not self.narrate:
            pass
        elif self.header is not None:
            self.narration.append(self.header + (": " + "; ".join(self.notes) if self.notes else ""))
        elif self.notes:
            self.narration.append("  " + "; ".join(self.notes))
        self.header, self.notes = None, []

    def score(self, tr: TravelerState, column: str, pts: int, why: str) -> None:
        tr.points[column] += pts
        self.note(f"+{pts} {SHORT[column]}: {why}")

    def coins(self, tr: TravelerState, delta: int, why: str = "") -> None:
        tr.coins += delta
        if delta:
            self.note(f"{delta:+d} coins{' (' + why + ')' if why else ''}")

    # ================================================================ reading events
    def next(self) -> Pull:
        if self.pending is not None:
            ev, self.pending = self.pending, None
            return ev
        ev = yield
        return ev

    def take(self, kind: int, who: TravelerState | None, what: str) -> Pull:
        self.expecting = f"{kind_name(kind)} ({what})"
        ev = yield from self.next()
        if ev.kind != kind:
            raise Illegal(ev, f"expected {self.expecting}")
        if who is not None and ev.t != who.index:
            raise Illegal(ev, f"expected an event of {who.label} ({what}), got traveler {ev.t}")
        return ev

    def maybe(self, wanted: Callable[[Event], bool], what: str) -> Generator[None, Event, Event | None]:
        """The next event if ``wanted(event)``, else None (the event is left for the next handler)."""
        self.expecting = what
        ev = yield from self.next()
        if wanted(ev):
            return ev
        self.pending = ev
        return None

    def option(self, tr: TravelerState, opt: int) -> Generator[None, Event, bool]:
        """An ``OPTION(t, opt, 0|1)`` yes/no decision of ``tr``."""
        ev = yield from self.take(Ev.OPTION, tr, f"{OPTION_NAMES[opt]}'s yes/no")
        if ev.a != opt or ev.b not in (0, 1):
            raise Illegal(ev, f"option {ev.a}={ev.b}, expected {OPTION_NAMES[opt]} ({opt}) = 0 or 1")
        self.note(f"{OPTION_NAMES[opt]}: {'yes' if ev.b else 'no'}")
        return ev.b == 1

    def card(self, ev: Event, deck: int, card: int) -> int:
        if deck != ev.a and ev.kind in (Ev.DRAW, Ev.GAIN, Ev.UNDER):
            got = deck_name(ev.a) if 0 <= ev.a < 4 else str(ev.a)
            raise Illegal(ev, f"the {got} deck, expected the {DECK_NAMES[deck]} deck")
        if not 0 <= card < self.state.deck_sizes[deck]:
            raise Illegal(ev, f"no {DECK_NAMES[deck]} card {card}")
        return card

    def draw(self, tr: TravelerState, deck: int, what: str) -> Generator[None, Event, int]:
        ev = yield from self.take(Ev.DRAW, tr, f"{DECK_NAMES[deck]} card {what}")
        card = self.card(ev, deck, ev.b)
        pile = self.state.piles[deck]
        top = pile.top()
        if top is None:
            raise Illegal(ev, f"the {DECK_NAMES[deck]} pile is empty")
        if card != top:
            name = self.state.card_name
            raise Illegal(
                ev,
                f"drew {name(deck, card)} (card {card}) but the top of the {DECK_NAMES[deck]} "
                f"pile is {name(deck, top)} (card {top})",
            )
        return pile.draw()

    def gained(self, ev: Event, deck: int, table: list[int]) -> int:
        """Check a GAIN takes a card that is on the table; remove it from there."""
        card = self.card(ev, deck, ev.b)
        if card not in table:
            raise Illegal(ev, f"{self.state.card_name(deck, card)} (card {card}) is not on the table")
        table.remove(card)
        return card

    def gain_free(
        self, tr: TravelerState, deck: int, table: list[int], what: str
    ) -> Generator[None, Event, int]:
        ev = yield from self.take(Ev.GAIN, tr, what)
        card = self.gained(ev, deck, table)
        if ev.c != 0:
            raise Illegal(ev, f"paid {ev.c} coins for a card that comes free ({what})")
        return card

    def under(self, ev: Event, deck: int, table: list[int]) -> None:
        card = self.gained(ev, deck, table)
        self.state.piles[deck].put_under(card)

    def traveler(self, ev: Event, t: int) -> TravelerState:
        if not 0 <= t < self.state.n_trav:
            raise Illegal(ev, f"there is no traveler {t} ({self.state.n_trav} travelers)")
        return self.state.travelers[t]
