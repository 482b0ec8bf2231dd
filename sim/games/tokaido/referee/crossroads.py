"""The referee's Crossroads rules, written from the rulebook (seed 002, "The Crossroads expansion").

Each station gains an alternative action (Cherry Tree, Bathhouse, Legendary
Object, Gaming Room, Amulet, Calligraphy), chosen on arrival (``CHOICE``); six
Amulets bend the rules once each (``USE``); the Fortune die (``DIE``) decides the
Gaming Room, Jirocho's bet and the Fortune Amulet; Calligraphy scores at the
end. The log contract is the section "Crossroads" of ``docs/log-format.md``;
rule choices are cited by their number in ``docs/rules-choices.md`` (C23-C39).

``Crossroads`` sits between ``ReplayBase`` and ``Stations`` in the referee's
class stack: the base handlers call these primitives only when
``state.xr`` is on, so base games replay exactly as before.
"""

from __future__ import annotations

from collections.abc import Generator

from kernels.core.enums import (
    AMULET_NAMES,
    Ability,
    Amulet,
    Deck,
    DieSrc,
    Ev,
    Legend,
    Opt,
    Space,
)
from sim.games.tokaido.referee.calligraphy import CalligraphyScoring
from sim.games.tokaido.referee.replay import Step, deck_name
from sim.games.tokaido.referee.scoring import ordinal, script_purchase_points, souvenir_points
from sim.games.tokaido.referee.state import PANORAMA_SPACES, Event, Illegal, TravelerState, amulet_kind

MARKET_DECKS = (Deck.LEGENDARY, Deck.AMULET, Deck.CALLIGRAPHY)  # distinct cards, one MARKET event each
COUNTED_DECKS = (Deck.CHERRY, Deck.BATHHOUSE)  # identical cards, one MARKET event with the count
DIE_SOURCES = ("gaming room", "jirocho", "fortune amulet", "o-shogatsu", "setsubun", "iyasaka's re-roll")
ALTERNATIVES = {
    Space.PADDY: "cherry tree", Space.MOUNTAIN: "cherry tree", Space.SEA: "cherry tree",
    Space.HOT_SPRING: "bathhouse", Space.VILLAGE: "legendary object", Space.FARM: "gaming room",
    Space.TEMPLE: "amulet", Space.ENCOUNTER: "calligraphy",
}
CHOICE_NAMES = ("base action", "crossroads alternative", "both", "both, alternative first", "alternative, buying nothing")
EMPTY_OK = (Space.HOT_SPRING, Space.VILLAGE, Space.TEMPLE, Space.ENCOUNTER)  # purchases (C27, online)
Pull = Generator[None, Event, Event]


class Crossroads(CalligraphyScoring):
    """Set-up markets, station alternatives, Amulets, the Fortune die and Calligraphy scoring."""

    # ================================================================ set-up
    def _copies(self, deck: int) -> int:
        """Cards of ``deck`` that exist in the box (C23: at most this many are in play)."""
        r = self.rules
        if deck == Deck.LEGENDARY:
            return len(r.legendary)
        if deck == Deck.AMULET:
            return len(r.amulets)
        if deck == Deck.CALLIGRAPHY:
            return len(r.calligraphy)
        section = "cherry_tree" if deck == Deck.CHERRY else "bathhouse"
        return int(r.raw["crossroads"][section].get("copies", 6))

    def _market(self, deck: int) -> list[int]:
        st = self.state
        return {Deck.LEGENDARY: st.legendary_market, Deck.AMULET: st.amulet_market,
                Deck.CALLIGRAPHY: st.calligraphy_market}[deck]

    def _markets(self) -> Step:
        """``MARKET`` rows: decks 4, 5, 6 card by card, then the Cherry Tree and Bathhouse counts (C23)."""
        st = self.state
        x = self.rules.raw["crossroads"]
        # C23: all the cards of the box (seed 002's set-up), or the by-count table if so chosen
        per_type = x["cards_by_players"].get(str(st.n_players)) if x["by_player_count"] else 1 << 30
        if per_type is None:
            raise Illegal(None, f"crossroads.cards_by_players has no entry for {st.n_players} players")
        for deck in MARKET_DECKS:
            want, market = min(per_type, self._copies(deck)), self._market(deck)
            while len(market) < want:
                ev = yield from self._take(Ev.MARKET, None, f"the {deck_name(deck)} cards in play")
                if ev.a != deck:
                    raise Illegal(ev, f"deck {ev.a}: {want} {deck_name(deck)} cards (deck {deck}) come first, "
                                      f"{len(market)} given so far")
                if ev.c != 1 or not 0 <= ev.b < self._copies(deck) or ev.b in market:
                    raise Illegal(ev, f"{deck_name(deck)} card {ev.b} (count {ev.c}): each card in play is a "
                                      f"distinct id in 0..{self._copies(deck) - 1}, count 1")
                market.append(ev.b)
        for deck in COUNTED_DECKS:
            want = min(per_type, self._copies(deck))
            ev = yield from self._take(Ev.MARKET, None, f"the number of {deck_name(deck)} cards in play")
            if (ev.a, ev.b, ev.c) != (deck, -1, want):
                raise Illegal(ev, f"expected {want} {deck_name(deck)} cards (deck {deck}, card -1, count {want}) "
                                  f"with {st.n_players} players, got deck {ev.a} card {ev.b} count {ev.c}")
            if deck == Deck.CHERRY:
                st.cherry_left = want
            else:
                st.bath_left = want
        r = self.rules
        self._note("legendary " + ", ".join(r.legendary[c].name for c in st.legendary_market))
        self._note("amulets " + ", ".join(r.amulets[c] for c in st.amulet_market))
        self._note("calligraphy " + ", ".join(r.calligraphy[c] for c in st.calligraphy_market))
        self._note(f"{st.cherry_left} cherry trees, {st.bath_left} bathhouses")
        self._header = "setup: crossroads cards in play"
        self._flush()

    def _start_amulets(self) -> Step:
        """C25: in departure order, each player with a coin may pay for a random available Amulet."""
        st, p = self.state, self.params
        if not p["START_AMULET"]:
            return
        cost = p["START_AMULET_COST"]
        for tr in sorted(st.players(), key=lambda x: x.seat):
            if tr.coins < cost or not st.amulet_market:
                continue
            if (yield from self._option(tr, Opt.START_AMULET)):
                card = yield from self._market_gain(tr, Deck.AMULET, cost, "a random amulet at set-up")
                tr.amulets.add(card)  # usable from the first turn (C35)
                tr.amulets_acquired += 1
            self._header = f"setup: {tr.name}"
            self._flush()

    # ================================================================ buying from a market
    def _market_gain(self, tr: TravelerState, deck: int, price: int | None,
                     what: str) -> Generator[None, Event, int]:
        """A ``GAIN(t, deck, card, price)`` of a Crossroads card; returns the card id (-1: identical cards).

        ``price`` None: the card's printed cost (Legendary Objects).
        """
        yield from self._felicia_duel(tr)  # type: ignore[attr-defined]
        ev = yield from self._take(Ev.GAIN, tr, what)
        name = deck_name(deck)
        if ev.a != deck:
            raise Illegal(ev, f"the {deck_name(ev.a)} deck, expected the {name} market (deck {deck})")
        if deck in COUNTED_DECKS:
            left = self.state.cherry_left if deck == Deck.CHERRY else self.state.bath_left
            if ev.b != -1:
                raise Illegal(ev, f"{name} cards are identical (card -1), not card {ev.b}")
            if left <= 0:
                raise Illegal(ev, f"no {name} card is left")
        else:
            market = self._market(deck)
            if ev.b not in market:
                avail = ", ".join(self.state.card_name(deck, c) for c in market) or "none"
                raise Illegal(ev, f"{name} card {ev.b} is not available (available: {avail})")
        label = self.state.card_name(deck, ev.b)
        if price is None:
            price = self._legendary_price(tr, ev.b)
        price = self._felicia_price(tr, ev, deck, ev.b, price)  # type: ignore[attr-defined]
        self._paid = price
        if ev.c != price:
            raise Illegal(ev, f"{tr.name} paid {ev.c} for {label}, price {price}")
        if price > tr.coins:
            raise Illegal(ev, f"{tr.name} has {tr.coins} coins and cannot pay {price}")
        if deck == Deck.CHERRY:
            self.state.cherry_left -= 1
        elif deck == Deck.BATHHOUSE:
            self.state.bath_left -= 1
        else:
            self._market(deck).remove(ev.b)
        self._coins(tr, -price, f"{label}")
        return ev.b

    # ================================================================ a station stop
    def _why_no_alternative(self, tr: TravelerState, kind: int) -> str | None:
        """Why the Crossroads alternative of a ``kind`` space is impossible for ``tr`` now (coins, cards left)."""
        st, p = self.state, self.params
        if kind in PANORAMA_SPACES:
            return None if st.cherry_left > 0 else "no cherry tree is left"
        if kind == Space.HOT_SPRING:
            if st.bath_left <= 0:
                return "no bathhouse is left"
            return None if tr.coins >= p["BATH_COST"] else f"a bathhouse costs {p['BATH_COST']}, {tr.name} has {tr.coins}"
        if kind == Space.VILLAGE:
            if any(self._legendary_price(tr, c) <= tr.coins for c in st.legendary_market):
                return None
            return f"no legendary object left costs at most {tr.coins} coins"
        if kind == Space.FARM:
            bet = p["GAMING_BET"]
            return None if tr.coins >= bet else f"the gaming room needs a bet of {bet}, {tr.name} has {tr.coins}"
        if kind == Space.TEMPLE:
            if not st.amulet_market:
                return "no amulet is available"
            return None if tr.coins >= self._amulet_price(tr) else f"an amulet costs {self._amulet_price(tr)}"
        if kind == Space.ENCOUNTER:
            if not st.calligraphy_market:
                return "no calligraphy card is left"
            return None if tr.coins >= p["CALLI_COST"] else f"a calligraphy card costs {p['CALLI_COST']}"
        return "an Inn has no alternative"

    def _station_choice(self, tr: TravelerState, kind: int) -> Generator[None, Event, int]:
        """[``USE(health)``] + ``CHOICE(t, type, option)`` right after a player's move to a station (C27)."""
        st = self.state
        health = False
        use = yield from self._maybe(lambda e: e.kind == Ev.USE and e.t == tr.index, "USE(health) or CHOICE")
        if use is not None:
            if amulet_kind(self.rules, use.a) != Amulet.HEALTH:
                raise Illegal(use, "only the Health amulet is used right after a move (then the option is 2)")
            self._use(use, tr)
            self._note("uses the health amulet")
            health = True
        ev = yield from self._take(Ev.CHOICE, tr, f"the option at the {st.space_name(tr.pos)}")
        if ev.a != kind:
            raise Illegal(ev, f"space {tr.pos} is a {st.space_name(tr.pos)} (type {kind}), not type {ev.a}")
        option = ev.b
        if option not in (0, 1, 2, 3, 4) or (option == 3 and not health):
            raise Illegal(ev, f"option {option}: 0 base action, 1 {ALTERNATIVES[kind]}, 2 both, "
                              "3 both, the alternative first (the health amulet), 4 the alternative buying nothing")
        if option == 4 and (health or not self.params["ALT_NOTHING"] or kind not in EMPTY_OK):
            raise Illegal(ev, "option 4 (the alternative, buying nothing) needs crossroads.alternative_buys_nothing "
                              "and a hot spring, village, temple or encounter, without the health amulet")
        both_ok = health or (kind == Space.ENCOUNTER and tr.ability == Ability.KITA) or (
            kind == Space.TEMPLE and tr.ability == Ability.MIYATAKA)
        if option == 2 and not both_ok:
            raise Illegal(ev, f"{tr.name} may not take both actions here: option 2 needs kita at an encounter, "
                              "miyataka at a temple or the health amulet")
        if health and option not in (2, 3):
            raise Illegal(ev, f"the health amulet was used: the option is 2 or 3 (both), not {option}")
        # Yama no Ko may complete it on this stop: with no Cherry Tree left option 0 (nothing) remains
        if option not in (1, 4) and (why := st.why_no_base(tr, kind)) and self._why_no_alternative(tr, kind) is None:
            raise Illegal(ev, f"option {option}: {why}, so only the {ALTERNATIVES[kind]} (option 1)")
        # seed 002: with Health both options "in the order of his choice"; the second is judged after the first
        if option == 1 or option == 3 or (option == 2 and not health):
            why = self._why_no_alternative(tr, kind)
            if why is not None:
                raise Illegal(ev, f"option {option} ({ALTERNATIVES[kind]}) is impossible: {why}")
        name = CHOICE_NAMES[option]
        if health and self.params["HEALTH_ONE"]:  # online: Health gives one option (2 the base, 3 the alternative)
            name = "health, the base action only" if option == 2 else "health, the alternative only"
        self._note(f"chooses {name}" + (f" ({ALTERNATIVES[kind]})" if option else ""))
        return int(option)

    def _alternative(self, tr: TravelerState, kind: int, after_base: bool) -> Step:
        """The Crossroads alternative of the space ``tr`` stopped on.

        Chosen alone (option 1) it must happen. Taken after the base action
        (option 2, C27) it happens if it is still possible (coins, cards left).
        """
        if after_base:
            why = self._why_no_alternative(tr, kind)
            if why is not None:
                self._note(f"{ALTERNATIVES[kind]} no longer possible: {why}")
                return
        p = self.params
        if kind in PANORAMA_SPACES:
            yield from self._market_gain(tr, Deck.CHERRY, 0, "a cherry tree")
            tr.cherry_trees += 1
            self._coins(tr, p["CHERRY_COINS"], "cherry tree")
            self._score(tr, "pts_cherry_trees", p["CHERRY_POINTS"], "cherry tree")
            yield from self._devotion(tr, 0, 0)  # free: only to name a misplaced Devotion
        elif kind == Space.HOT_SPRING:
            yield from self._market_gain(tr, Deck.BATHHOUSE, p["BATH_COST"], "a bathhouse")
            tr.bathhouses += 1
            self._score(tr, "pts_bathhouses", p["BATH_POINTS"], "bathhouse")
            yield from self._devotion(tr, self._paid, p["BATH_COST"])
        elif kind == Space.VILLAGE:
            yield from self._legendary_object(tr)
        elif kind == Space.FARM:
            bet = p["GAMING_BET"]
            face = yield from self._die(tr, bet, DieSrc.GAMING_ROOM)
            face = yield from self._iyasaka_reroll(tr, bet, face)
            self._note(f"gaming room: bets {bet}, rolls x{face}, gets {bet * face} back")
            self._coins(tr, bet * face - bet, "gaming room")
        elif kind == Space.TEMPLE:
            card = yield from self._market_gain(tr, Deck.AMULET, self._amulet_price(tr), "an amulet")
            tr.amulets.add(card)
            if not self.rules.raw["crossroads"]["amulets"]["usable_where_bought"]:
                tr.amulets_new.add(card)  # C35: "never on the same turn as when it is acquired"
            tr.amulets_acquired += 1
            yield from self._devotion(tr, self._paid, p["AMULET_COST"])
        elif kind == Space.ENCOUNTER:
            card = yield from self._market_gain(tr, Deck.CALLIGRAPHY, p["CALLI_COST"], "a calligraphy card")
            tr.calligraphy.append(card)
            yield from self._devotion(tr, self._paid, p["CALLI_COST"])

    def _legendary_object(self, tr: TravelerState) -> Step:
        """One Legendary Object at its printed cost (seed 002 "Legendary Object cards"; C29, C30)."""
        st, p = self.state, self.params
        card = yield from self._market_gain(tr, Deck.LEGENDARY, None, "a legendary object")
        lo = self.rules.legendary[card]
        if tr.scripts and self.rules.raw["crossroads"]["legendary"]["script_counts_legendary"]:
            self._script_bonus(tr)  # online: a Script's later point also for a Legendary Object
        if lo.kind == Legend.SCRIPT:  # C29: a point per Souvenir and other Legendary Object held
            pts = script_purchase_points(len(tr.souvenirs), len(tr.legendary))
            why = f"{lo.name} (script): {len(tr.souvenirs)} souvenirs + {len(tr.legendary)} legendary objects"
            tr.scripts += 1
        elif lo.kind == Legend.OFFERING:  # C30: a fifth souvenir family
            fam = st.offering_family
            pts, k, place = souvenir_points(tr.family_counts, fam, st.set_points)
            tr.family_counts[fam] += 1
            why = f"{lo.name} (offering) joins set {k} as {ordinal(place)} family"
        else:
            pts, why = p["SWORD_POINTS"], f"{lo.name} (sword)"
        tr.legendary.append(card)
        self._score(tr, "pts_legendary", pts, why)
        yield from self._devotion(tr, self._paid, lo.cost)

    def _script_bonus(self, tr: TravelerState) -> None:
        """C29: each Script object held scores a point per Souvenir acquired after it."""
        if tr.scripts:
            self._score(tr, "pts_legendary", self.params["SCRIPT_BONUS"] * tr.scripts,
                        f"{tr.scripts} script object{'s' if tr.scripts > 1 else ''}")

    def _die(self, tr: TravelerState, bet: int, source: int) -> Generator[None, Event, int]:
        """A roll of the Fortune die: ``DIE(t, face, bet, source)``; the face must be on the die (C24)."""
        ev = yield from self._take(Ev.DIE, tr, f"a fortune die roll ({DIE_SOURCES[source]})")
        if ev.c != source or ev.b != bet:
            got = DIE_SOURCES[ev.c] if 0 <= ev.c < len(DIE_SOURCES) else f"source {ev.c}"
            raise Illegal(ev, f"a roll for {got} betting {ev.b}, expected {DIE_SOURCES[source]} "
                              f"(source {source}) betting {bet}")
        if ev.a not in self.rules.fortune_die:
            raise Illegal(ev, f"face x{ev.a} is not on the fortune die ({self.rules.fortune_die})")
        return int(ev.a)

    # ================================================================ amulets
    def _use(self, ev: Event, tr: TravelerState) -> int:
        """Check ``USE(t, card)``: ``tr`` holds the card and may use it now; it returns to the market (C35)."""
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
            raise Illegal(ev, f"{tr.name} took the {name} amulet this turn: it is usable from the next turn (C35)")
        tr.amulets.remove(ev.a)
        self.state.amulet_market.append(ev.a)
        return kind

    def _before_move(self, tr: TravelerState, ev: Event) -> Generator[None, Event, tuple[Event, bool]]:
        """Fortune (``USE`` + ``DIE``) and Friendship (``USE``) before a move; returns the next event."""
        friendship = False
        while ev.kind == Ev.USE:
            if ev.t != tr.index:
                raise Illegal(ev, f"traveler {ev.t} uses an amulet, but {tr.label} moves next")
            kind = amulet_kind(self.rules, ev.a)
            if kind not in (Amulet.FORTUNE, Amulet.FRIENDSHIP):
                what = AMULET_NAMES[kind] if kind >= 0 else f"card {ev.a}"
                raise Illegal(ev, f"the {what} amulet is not used before a move (only fortune and friendship)")
            if kind == Amulet.FORTUNE and self.params["FORTUNE_AFTER"]:
                raise Illegal(ev, "crossroads.amulets.fortune_after_move: the fortune amulet is rolled on arrival")
            self._use(ev, tr)
            if kind == Amulet.FORTUNE:
                face = yield from self._die(tr, 0, DieSrc.FORTUNE)
                self._note(f"{tr.name} uses the fortune amulet before moving: rolls x{face}")
                self._coins(tr, face, "fortune amulet")
            else:
                friendship = True
                self._note(f"{tr.name} uses the friendship amulet before moving")
            self.expecting = f"a MOVE of {tr.label}"
            ev = yield from self._next()
        return ev, friendship

    def _fortune_on_arrival(self, tr: TravelerState) -> Step:
        """Online (``crossroads.amulets.fortune_after_move``): ``USE(fortune)`` + ``DIE`` right after the
        ``MOVE``, before the stop's action (at an Inn, before the meal)."""
        use = yield from self._maybe(
            lambda e: e.kind == Ev.USE and e.t == tr.index and amulet_kind(self.rules, e.a) == Amulet.FORTUNE,
            "USE(fortune) or the stop's events")
        if use is not None:
            self._use(use, tr)
            face = yield from self._die(tr, 0, DieSrc.FORTUNE)
            self._note(f"{tr.name} uses the fortune amulet on arrival: rolls x{face}")
            self._coins(tr, face, "fortune amulet")

    def _devotion(self, tr: TravelerState, paid: int, printed: int) -> Step:
        """C37: ``USE(t, devotion, coins)`` right after a purchase puts its coins on the Temple; online
        (``crossroads.amulets.devotion_printed_price``) the card's printed price, whatever was paid."""
        if self.params["DEVOTION_PRINTED"]:
            paid = printed
        use = yield from self._maybe(
            lambda e: e.kind == Ev.USE and e.t == tr.index and amulet_kind(self.rules, e.a) == Amulet.DEVOTION,
            "USE(devotion) or the next event")
        if use is None:
            return
        what = "printed price" if self.params["DEVOTION_PRINTED"] else "coins paid"
        if paid <= 0:
            raise Illegal(use, f"devotion puts the {what} for a card on the temple; this card cost nothing")
        if use.b != paid:
            what = "printed price" if self.params["DEVOTION_PRINTED"] else "coins just paid"
            raise Illegal(use, f"devotion puts the {paid} {what} on the temple, not {use.b}")
        self._use(use, tr)
        tr.donated += paid
        self._score(tr, "pts_temple", self._devotion_points(tr, paid), f"devotion amulet: {paid} coins on the temple")

    def _no_health_at_inn(self, tr: TravelerState) -> Step:
        """"The Amulet cannot be used when the Traveler arrives at an Inn" (Health)."""
        use = yield from self._maybe(
            lambda e: e.kind == Ev.USE and e.t == tr.index and amulet_kind(self.rules, e.a) == Amulet.HEALTH,
            "the Inn's events")
        if use is not None:
            raise Illegal(use, "the health amulet cannot be used on arriving at an Inn")

    def _hospitality(self, tr: TravelerState) -> Generator[None, Event, bool]:
        """``USE(t, hospitality)`` right before the Inn meal's GAIN: the meal is free."""
        use = yield from self._maybe(
            lambda e: e.kind == Ev.USE and e.t == tr.index and amulet_kind(self.rules, e.a) == Amulet.HOSPITALITY,
            "USE(hospitality), a meal or the next event")
        if use is None:
            return False
        self._use(use, tr)
        self._note("uses the hospitality amulet")
        return True

    def _vitality(self, tr: TravelerState) -> Generator[None, Event, bool]:
        """C36: ``USE(t, vitality)`` once the space is resolved; True if ``tr`` moves again at once."""
        use = yield from self._maybe(
            lambda e: e.kind == Ev.USE and e.t == tr.index and amulet_kind(self.rules, e.a) == Amulet.VITALITY,
            "USE(vitality) or the next turn")
        if use is None:
            return False
        st = self.state
        if st.board[tr.pos] == Space.INN:
            raise Illegal(use, "the vitality amulet cannot be used on arriving at an Inn")
        if not st.alone_in_lead(tr):
            level = ", ".join(f"{o.name} at {o.pos}" for o in st.travelers if o is not tr and o.pos >= tr.pos)
            raise Illegal(use, f"vitality needs {tr.name} (at {tr.pos}) strictly ahead of everyone: {level}")
        self._use(use, tr)
        self._note("uses the vitality amulet: moves again")
        return True

    # ================================================================ Crossroads Travelers
    def _jirocho(self, tr: TravelerState) -> Step:
        """Jirocho at an intermediate Inn, before the meal: may bet 1 coin on the Fortune die (C28)."""
        bet = self.params["JIROCHO_BET"]
        if tr.coins >= bet and (yield from self._option(tr, Opt.JIROCHO)):
            face = yield from self._die(tr, bet, DieSrc.JIROCHO)
            self._note(f"jirocho bets {bet}, rolls x{face}, gets {bet * face} back")
            self._coins(tr, bet * face - bet, "jirocho")
