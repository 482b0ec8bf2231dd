"""The referee's rules for the promo Travelers (seed 002 "Promo Travelers", L501-568).

Written from the seed text and the defaults P1-P8 of ``docs/rules-choices.md``:

* Antoine "automatically wins all ties involving him": the tie functions below give him the
  tied place alone; the others tied with him drop one place and stay tied (P1).
* Naiade takes panorama cards in reverse order: her k-th card of a panorama of length n is worth
  n - k + 1 (P2); completion, and so the panorama achievements, are as usual.
* Eriku draws the top meal card before his first move and at each later Inn; he may buy it
  (at an Inn instead of a card of the hand); otherwise it goes under the pile (P3, P4).
* Felicia may duel the closest traveler before paying for a card with a cost: as many
  rock-paper-scissors rounds as coins, each round won a coin off (P5-P7); also for a card she
  cannot pay in full, which she buys only if the rounds won bring it within her coins (P6).

``Promos`` is the handler the stations, the Crossroads markets, the Matsuri cards and the end scoring
consult for these abilities: the Matsuri cards call ``antoine`` for Tanabata, Shishimai and o-Fune,
and ``Stations.panorama`` applies Naiade's order to every panorama card.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass

from kernels.tokaido.core.enums import Ability, Deck, Ev, Opt
from sim.games.tokaido.referee.context import Replay, StationActions
from sim.games.tokaido.referee.state import Event, GameState, Illegal, TravelerState


# ---------------------------------------------------------------- Antoine (P1): pure functions
def antoine_temple_bonus(
    donations: Sequence[int], antoine: int | None, ranking_points: Sequence[int]
) -> list[int]:
    """Temple ranking with Antoine: dense ranks over the distinct amounts, Antoine's amount counting
    as above anyone else's equal amount (P1a: tied 1st with X, Antoine 10, X 7, the next 4)."""
    keys = [(d, i == antoine) for i, d in enumerate(donations)]
    levels = sorted({k for k, d in zip(keys, donations, strict=True) if d > 0}, reverse=True)
    place = {k: min(i, len(ranking_points) - 1) for i, k in enumerate(levels)}
    return [ranking_points[place[k]] if d > 0 else 0 for k, d in zip(keys, donations, strict=True)]


def antoine_winners(winners: list[int], antoine: int | None) -> list[int]:
    """Of the tied winners of an award, Antoine alone if he is one of them (P1b, P1d)."""
    return [antoine] if antoine is not None and antoine in winners else winners


def antoine_rank_keys(
    scores: Sequence[int], achievements: Sequence[int], antoine: int | None
) -> list[tuple[int, ...]]:
    """Final ranking keys: score, then Antoine over anyone with his score (P1c), then achievements."""
    return [(s, int(i == antoine), a) for i, (s, a) in enumerate(zip(scores, achievements, strict=True))]


def naiade_card_points(k: int, length: int) -> int:
    """Naiade's k-th card (1-based) of a panorama of ``length`` cards: 5, 4, 3, 2, 1 for the Sea (P2)."""
    return length - k + 1


def closest_traveler(state: GameState, fel: TravelerState) -> int:
    """P7: the traveler nearest to Felicia. Line everyone up along the road (on one space the earlier
    arrival first); of her neighbours in that line, the one at the smaller board distance, the one
    ahead at equal distance. At an Inn: who arrived just before her, or if she was first, the nearest
    traveler still on the road."""
    line = sorted(state.travelers, key=state.behind_key)  # farthest behind first
    i = line.index(fel)
    behind = line[i - 1] if i > 0 else None
    ahead = line[i + 1] if i + 1 < len(line) else None
    if ahead is None or (behind is not None and fel.pos - behind.pos < ahead.pos - fel.pos):
        assert behind is not None
        return behind.index
    return ahead.index


@dataclass
class Duel:
    deck: int
    card: int  # -1: a card not named (a random Amulet, the identical Bathhouses)
    rounds: int
    wins: int


class Promos:
    """Handlers for the promo Travelers' abilities; the stations and the set-up call them."""

    stations: StationActions  # Eriku's start meal; set by ``Referee`` once the stations are built

    def __init__(self, ctx: Replay) -> None:
        self.ctx, self.state, self.rules, self.params = ctx, ctx.state, ctx.rules, ctx.params
        self._duel: Duel | None = None  # Felicia's duel, until the purchase it was made for
        self._declined = False  # Felicia's decision not to challenge, likewise

    def antoine(self) -> int | None:
        """Antoine's index among the players when his ties are on (abilities.antoine_ties = "wins")."""
        if self.rules.raw["rules"]["abilities"]["antoine_ties"] != "wins":
            return None
        return next((tr.index for tr in self.state.players() if tr.ability == Ability.ANTOINE), None)

    def pan_points(self, tr: TravelerState, ptype: int) -> int:
        k = tr.panorama[ptype]
        if tr.ability == Ability.NAIADE:
            return naiade_card_points(k, self.rules.panorama_lengths[ptype])
        return k

    # ------------------------------------------------------------ Eriku
    def calli_params(self, tr: TravelerState) -> dict[str, int]:
        """Eriku's start meal makes one more possible meal for Fasting (P3: fasting_inns_eriku)."""
        if tr.ability == Ability.ERIKU:
            return {**self.params, "FASTING_INNS": self.params["FASTING_INNS_ERIKU"]}
        return self.params

    def eriku_look(self, tr: TravelerState, when: int) -> Generator[None, Event, int | None]:
        """DRAW + LOOK(t, card, when) of the top meal card; None when the pile is empty."""
        if tr.ability != Ability.ERIKU or not self.state.piles[Deck.MEAL]:
            return None
        card = yield from self.ctx.draw(tr, Deck.MEAL, "eriku's look at the top of the pile")
        ev = yield from self.ctx.take(Ev.LOOK, tr, "eriku looks at the card")
        meals = self.rules.meals  # identical copies are one card to a game record (by name)
        same = 0 <= ev.a < len(meals) and meals[ev.a].name == meals[card].name
        if not same or ev.b != when:
            raise Illegal(ev, f"eriku looks at the card he drew ({card}, when {when}), not ({ev.a}, {ev.b})")
        self.ctx.note(f"eriku looks at {self.state.card_name(Deck.MEAL, card)}")
        return card

    def eriku_start(self) -> Generator[None, Event, None]:
        """Seed 002 L518-523: before his first move he may buy the top meal card at its price (P3)."""
        st = self.state
        for tr in st.players():
            card = yield from self.eriku_look(tr, 0)
            if card is None:
                continue
            self.ctx.expecting = "eriku's GAIN of the start meal, or its UNDER"
            ev = yield from self.ctx.next()
            if ev.kind == Ev.UNDER:
                self.ctx.under(ev, Deck.MEAL, [card])
                self.ctx.note("leaves it: under the meal pile")
            elif ev.kind == Ev.GAIN and ev.t == tr.index:
                self.ctx.gained(ev, Deck.MEAL, [card])
                price = st.meal_price(tr, card)
                if ev.c != price or price > tr.coins:
                    raise Illegal(ev, f"eriku pays the printed price {price} ({tr.coins} coins), not {ev.c}")
                self.ctx.coins(tr, -price, "eriku's start meal")
                self.stations.eat(tr, card, "eriku's start meal")
                if st.xr:
                    tr.inn_meals += 1  # one of his 5 possible meals for Fasting (P3)
            else:
                raise Illegal(ev, f"expected {self.ctx.expecting}")
            self.ctx.header = f"setup: {tr.name}"
            self.ctx.flush()

    def eriku_leaves(
        self, tr: TravelerState, top: int | None, hand: list[int]
    ) -> Generator[None, Event, bool]:
        """The top card he does not buy goes under the pile (an UNDER before the meal); True if it went."""
        if top is None:
            return False
        ev = yield from self.ctx.maybe(
            lambda e: e.kind == Ev.UNDER and e.a == Deck.MEAL and e.b == top,
            "eriku's UNDER of the top card, or his meal",
        )
        if ev is None:
            return False
        self.ctx.under(ev, Deck.MEAL, hand)
        self.ctx.note("the top card goes under the meal pile")
        return True

    # ------------------------------------------------------------ Felicia
    def felicia_duel(self, tr: TravelerState) -> Generator[None, Event, None]:
        """``OPTION(t, felicia, b)``, then if b: ``DUEL(t, opponent, deck, card, rounds)`` and one
        ``RPS(t, round, won)`` per round. Remembered for the GAIN that follows."""
        if tr.ability != Ability.FELICIA:
            return
        opt = yield from self.ctx.maybe(
            lambda e: e.kind == Ev.OPTION and e.t == tr.index and e.a == Opt.FELICIA,
            "felicia's challenge or the purchase",
        )
        if opt is None:
            return
        if opt.b not in (0, 1) or self._duel is not None or self._declined:
            raise Illegal(opt, f"felicia's challenge is a yes/no (got {opt.b}), once per card")
        if opt.b == 0:
            self._declined = True
            self.ctx.note("felicia: no challenge")
            return
        ev = yield from self.ctx.take(Ev.DUEL, tr, "felicia's challenge")
        want = closest_traveler(self.state, tr)
        if ev.a != want:
            raise Illegal(
                ev,
                f"felicia challenges the closest traveler, {self.state.travelers[want].name}, "
                f"not traveler {ev.a}",
            )
        wins = 0
        for r in range(ev.d):
            rps = yield from self.ctx.take(Ev.RPS, tr, f"round {r + 1} of {ev.d}")
            if rps.a != r or rps.b not in (0, 1):
                raise Illegal(rps, f"round {r} won 0 or 1, got round {rps.a} won {rps.b}")
            wins += rps.b
        self._duel = Duel(ev.b, ev.c, ev.d, wins)
        self.ctx.note(f"felicia duels {self.state.travelers[want].name}: {wins} of {ev.d} rounds won")

    def felicia_open(self) -> bool:
        """Felicia's challenge decision (and duel) waits for the purchase it was made for."""
        return self._duel is not None or self._declined

    def felicia_clear(self) -> Duel | None:
        """No purchase followed the challenge decision: forget it; the duel, if there was one."""
        duel, self._duel, self._declined = self._duel, None, False
        return duel

    def _same_card(self, deck: int, named: int, card: int) -> bool:
        """The card Felicia dueled for is the one bought (-1: none named); identical copies (a game
        record names meals by dish) count as one."""
        if named in (-1, card):
            return True
        try:
            return self.state.card_name(deck, named) == self.state.card_name(deck, card)
        except (IndexError, KeyError):
            return False

    def felicia_price(self, tr: TravelerState, ev: Event, deck: int, card: int, cost: int) -> int:
        """The price of the GAIN ``ev`` of a card costing ``cost``: less the rounds Felicia won."""
        duel, declined = self._duel, self._declined
        self._duel, self._declined = None, False
        if tr.ability != Ability.FELICIA or cost <= 0:
            if duel is not None or declined:
                raise Illegal(ev, "felicia duels only for a card that costs coins (seed 002 L537-541)")
            return cost
        if duel is None:
            if not declined:
                raise Illegal(
                    ev, "felicia decides whether to challenge before paying for a card (OPTION felicia)"
                )
            return cost
        if duel.deck != deck or not self._same_card(deck, duel.card, card) or duel.rounds != cost:
            raise Illegal(
                ev,
                f"felicia dueled {duel.rounds} rounds for card {duel.card} of deck {duel.deck}, "
                f"bought card {card} of deck {deck} costing {cost}: one round per coin",
            )
        return cost - duel.wins
