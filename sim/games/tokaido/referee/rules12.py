"""Referee rules added with rules version 1.2, written from the seeds.

Satsuki's free meal from the top of the meal pile (seed 002's Traveler page,
``abilities.satsuki_free_meal = "pile"``): she takes it free, or it goes under
the meal pile and she may buy from the Inn's hand as normal (C12).
"""

from __future__ import annotations

from collections.abc import Generator

from kernels.core.enums import Deck, Ev
from sim.games.tokaido.referee.matsuri_travelers import MatsuriTravelers
from sim.games.tokaido.referee.state import Event, Illegal, TravelerState


class Rules12(MatsuriTravelers):
    """Handlers the base stations call for the choices of rules version 1.2."""

    def _satsuki_pile(self, tr: TravelerState, card: int) -> Generator[None, Event, bool]:
        """``GAIN(t, 1, card, 0)``: she eats the pile's card free (True); ``UNDER(1, card)``: refused (False)."""
        st = self.state
        self.expecting = "satsuki's GAIN of the offered meal (free) or its UNDER"
        ev = yield from self._next()
        if ev.kind == Ev.UNDER:
            self._under(ev, Deck.MEAL, [card])
            self._note("refuses it: under the meal pile")
            return False
        if ev.kind != Ev.GAIN or ev.t != tr.index:
            raise Illegal(ev, f"expected {self.expecting}")
        self._gained(ev, Deck.MEAL, [card])
        if ev.c != 0:
            raise Illegal(ev, f"satsuki's meal from the pile is free, she paid {ev.c}")
        if not st.can_eat(tr, card):
            raise Illegal(ev, f"{tr.name} has already eaten {st.card_name(Deck.MEAL, card)}")
        self._eat(tr, card, "satsuki's free meal from the pile")  # type: ignore[attr-defined]
        if st.xr:
            tr.inn_meals += 1
            yield from self._devotion(tr, 0, self.rules.meals[card].cost, frozenset(["satsuki"]))  # free (C37)
        return True
