"""The piles of a game record as far as its actions show them (``sim/games/tokaido/referee/record.py``).

A real game's pile order is known only as far as cards were drawn: a draw from the part of a pile
nobody has seen may be any card of that name not yet accounted for; a card put under the pile comes
back, in its turn, as that card; after a reshuffle (Gion's) the rest of the pile is unseen again.
``Piles`` gives each named card the id the referee will see, and the ``DECK`` rows that make those
draws the top of the pile: each stretch of a pile between shuffles (``Segment``) lists the ids drawn
from its unseen part, in order, then the ones never drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kernels.tokaido.core.enums import Ev


@dataclass
class Segment:
    """A stretch of a pile's life between shuffles: the ids drawn from its unseen part, in order, and the
    ids still unseen. Its ``DECK`` rows (top first) are ``order + pool``."""

    order: list[int] = field(default_factory=list)
    pool: list[int] = field(default_factory=list)

    def rows(self, deck: int) -> list[list[int]]:
        return [[Ev.DECK, -1, deck, c, -1, -1] for c in self.order + self.pool]


@dataclass
class Piles:
    """Which card id a named card is: the piles as far as the record has shown them."""

    names: list[list[str]]
    sizes: dict[int, int]
    deck_names: tuple[str, ...]
    slots: dict[int, list[int | None]] = field(default_factory=dict)  # the pile, top first; None = unseen
    segments: dict[int, list[Segment]] = field(default_factory=dict)  # the set-up's, then each reshuffle's
    table: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.slots = {d: [None] * n for d, n in self.sizes.items()}
        self.segments = {d: [Segment(pool=list(range(n)))] for d, n in self.sizes.items()}
        self.table = [[] for _ in range(len(self.names))]

    def first(self, deck: int, name: str) -> int:
        return self.names[deck].index(name)

    def _unseen(self, deck: int, name: str) -> tuple[int | None, str | None]:
        """An id of that name from the unseen part of the pile (None and why if there is none)."""
        seg = self.segments[deck][-1]
        card = next((c for c in seg.pool if self.names[deck][c] == name), None)
        if card is None:
            total = self.names[deck].count(name)
            return None, (
                f"{name} cannot be in the {self.deck_names[deck]} pile: all {total} {name} card(s) are "
                f"already "
                "drawn or known to be elsewhere"
            )
        seg.pool.remove(card)
        seg.order.append(card)
        return card, None

    def draw(self, deck: int, name: str) -> tuple[int, str | None]:
        """The id drawn, and why the draw was impossible (None if possible)."""
        pile = self.slots[deck]
        if not pile:
            return self.first(deck, name), None  # the referee says the pile is empty
        top = pile.pop(0)
        if top is None:
            card, why = self._unseen(deck, name)
            if card is None:
                return self.first(deck, name), why
        else:
            card = (
                top if self.names[deck][top] == name else self.first(deck, name)
            )  # the referee names the top
        self.table[deck].append(card)
        return card, None

    def pick(self, deck: int, name: str) -> tuple[int, str | None]:
        """Gion: a card of that name taken from anywhere in the pile (the rest is reshuffled next)."""
        pile = self.slots[deck]
        known = next((i for i, c in enumerate(pile) if c is not None and self.names[deck][c] == name), None)
        if known is not None:
            card = pile.pop(known)
            assert card is not None
            return card, None
        if None in pile:
            pile.remove(None)
            unseen, why = self._unseen(deck, name)
            if unseen is not None:
                return unseen, None
            return self.first(deck, name), why
        return self.first(deck, name), f"no {name} is left in the {self.deck_names[deck]} pile"

    def reshuffle(self, deck: int) -> Segment:
        """The rest of the pile shuffled: every card in it is unseen again; returns the new segment."""
        seg = self.segments[deck][-1]
        rest = [c for c in self.slots[deck] if c is not None] + seg.pool
        seg.pool = list(seg.pool)  # the old segment keeps the cards it never showed
        new = Segment(pool=rest)
        self.segments[deck].append(new)
        self.slots[deck] = [None] * len(rest)
        return new

    def on_table(self, deck: int, name: str, remove: bool) -> int:
        # the latest matching card: Itamae's or Satsuki's draw at an Inn is not one of the hand's
        card = next((c for c in reversed(self.table[deck]) if self.names[deck][c] == name), None)
        if card is None:
            return self.first(deck, name)  # the referee says it is not on the table
        self.table[deck].remove(card)
        if not remove:  # an offered card: the next GAIN or UNDER of that name is this one
            self.table[deck].append(card)
        return card

    def deck_events(self) -> list[list[int]]:
        """The set-up's ``DECK`` rows: each pile, decks in order."""
        return [row for d in sorted(self.sizes) for row in self.segments[d][0].rows(d)]
