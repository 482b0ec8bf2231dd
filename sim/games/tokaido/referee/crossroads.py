"""The referee's Crossroads rules, written from the rulebook (seed 002, "The Crossroads expansion").

Each station gains an alternative action (Cherry Tree, Bathhouse, Legendary
Object, Gaming Room, Amulet, Calligraphy), chosen on arrival (``CHOICE``); six
Amulets bend the rules once each (``USE``); the Fortune die (``DIE``) decides the
Gaming Room, Jirocho's bet and the Fortune Amulet; Calligraphy scores at the
end. The log contract is the section "Crossroads" of ``docs/log-format.md``;
rule choices are cited by their number in ``docs/rules-choices.md`` (C23-C39).

``Crossroads`` is built only for a Crossroads game, with ``Amulets`` (``amulets.py``: the Amulets
and the Fortune die); the turn and the stations call it when it is there, so base games replay
exactly as before. Iyasaka's re-roll (the Gaming Room) and Marihito's Calligraphy (the end) are
here, beside the rules they bend.
"""

from __future__ import annotations

from collections.abc import Generator

from kernels.tokaido.core.enums import (
    CALLI_NAMES,
    PANORAMA_NAMES,
    Ability,
    Amulet,
    Deck,
    DieSrc,
    Ev,
    Legend,
    Opt,
    Space,
)
from sim.games.tokaido.referee.amulets import Amulets
from sim.games.tokaido.referee.context import Replay, Step, deck_name
from sim.games.tokaido.referee.prices import ability_discount, amulet_price, legendary_price
from sim.games.tokaido.referee.promos import Promos
from sim.games.tokaido.referee.scoring import (
    calligraphy_points,
    ordinal,
    script_purchase_points,
    souvenir_points,
)
from sim.games.tokaido.referee.state import (
    PANORAMA_SPACES,
    Event,
    Illegal,
    TravelerState,
    amulet_kind,
    calligraphy_kind,
)

MARKET_DECKS = (Deck.LEGENDARY, Deck.AMULET, Deck.CALLIGRAPHY)  # distinct cards, one MARKET event each
COUNTED_DECKS = (Deck.CHERRY, Deck.BATHHOUSE)  # identical cards, one MARKET event with the count
ALTERNATIVES = {
    Space.PADDY: "cherry tree",
    Space.MOUNTAIN: "cherry tree",
    Space.SEA: "cherry tree",
    Space.HOT_SPRING: "bathhouse",
    Space.VILLAGE: "legendary object",
    Space.FARM: "gaming room",
    Space.TEMPLE: "amulet",
    Space.ENCOUNTER: "calligraphy",
}
CHOICE_NAMES = (
    "base action",
    "crossroads alternative",
    "both",
    "both, alternative first",
    "alternative, buying nothing",
)
EMPTY_OK = (Space.HOT_SPRING, Space.VILLAGE, Space.TEMPLE, Space.ENCOUNTER)  # purchases (C27, online)


class Crossroads:
    """Set-up markets, station alternatives, the Crossroads Travelers and the Calligraphy scoring."""

    def __init__(self, ctx: Replay, amulets: Amulets, promos: Promos) -> None:
        self.ctx, self.state, self.rules, self.params = ctx, ctx.state, ctx.rules, ctx.params
        self.amulets = amulets
        self.promos = promos  # Felicia's duels, Eriku's Fasting
        self._paid = 0  # the price of the last market card bought
        self._disc: frozenset[str] = frozenset()  # and its discounts (Devotion, C37)

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

    def market(self, deck: int) -> list[int]:
        st = self.state
        return {
            Deck.LEGENDARY: st.legendary_market,
            Deck.AMULET: st.amulet_market,
            Deck.CALLIGRAPHY: st.calligraphy_market,
        }[deck]

    def markets(self) -> Step:
        """``MARKET`` rows: decks 4, 5, 6 card by card, then the Cherry Tree and Bathhouse counts (C23)."""
        st = self.state
        x = self.rules.raw["crossroads"]
        # C23: all the cards of the box (seed 002's set-up), or the by-count table if so chosen
        per_type = x["cards_by_players"].get(str(st.n_players)) if x["by_player_count"] else 1 << 30
        if per_type is None:
            raise Illegal(None, f"crossroads.cards_by_players has no entry for {st.n_players} players")
        for deck in MARKET_DECKS:
            want, market = min(per_type, self._copies(deck)), self.market(deck)
            while len(market) < want:
                ev = yield from self.ctx.take(Ev.MARKET, None, f"the {deck_name(deck)} cards in play")
                if ev.a != deck:
                    raise Illegal(
                        ev,
                        f"deck {ev.a}: {want} {deck_name(deck)} cards (deck {deck}) come first, "
                        f"{len(market)} given so far",
                    )
                if ev.c != 1 or not 0 <= ev.b < self._copies(deck) or ev.b in market:
                    raise Illegal(
                        ev,
                        f"{deck_name(deck)} card {ev.b} (count {ev.c}): each card in play is a "
                        f"distinct id in 0..{self._copies(deck) - 1}, count 1",
                    )
                market.append(ev.b)
        for deck in COUNTED_DECKS:
            want = min(per_type, self._copies(deck))
            ev = yield from self.ctx.take(Ev.MARKET, None, f"the number of {deck_name(deck)} cards in play")
            if (ev.a, ev.b, ev.c) != (deck, -1, want):
                raise Illegal(
                    ev,
                    f"expected {want} {deck_name(deck)} cards (deck {deck}, card -1, count {want}) "
                    f"with {st.n_players} players, got deck {ev.a} card {ev.b} count {ev.c}",
                )
            if deck == Deck.CHERRY:
                st.cherry_left = want
            else:
                st.bath_left = want
        r = self.rules
        self.ctx.note("legendary " + ", ".join(r.legendary[c].name for c in st.legendary_market))
        self.ctx.note("amulets " + ", ".join(r.amulets[c] for c in st.amulet_market))
        self.ctx.note("calligraphy " + ", ".join(r.calligraphy[c] for c in st.calligraphy_market))
        self.ctx.note(f"{st.cherry_left} cherry trees, {st.bath_left} bathhouses")
        self.ctx.header = "setup: crossroads cards in play"
        self.ctx.flush()

    def start_amulets(self) -> Step:
        """C25: in departure order, each player with a coin may pay for a random available Amulet."""
        st, p = self.state, self.params
        if not p["START_AMULET"]:
            return
        cost = p["START_AMULET_COST"]
        for tr in sorted(st.players(), key=lambda x: x.seat):
            if tr.coins < cost or not st.amulet_market:
                continue
            if (yield from self.ctx.option(tr, Opt.START_AMULET)):
                card = yield from self.market_gain(tr, Deck.AMULET, cost, "a random amulet at set-up")
                if card is not None:
                    tr.amulets.add(card)  # usable from the first turn (C35)
                    tr.amulets_acquired += 1
            self.ctx.header = f"setup: {tr.name}"
            self.ctx.flush()

    # ================================================================ buying from a market
    def _printed(self, deck: int, card: int) -> int:
        """The printed cost of a Crossroads card."""
        p = self.params
        if deck == Deck.LEGENDARY:
            return self.rules.legendary[card].cost
        return {
            Deck.AMULET: p["AMULET_COST"],
            Deck.CALLIGRAPHY: p["CALLI_COST"],
            Deck.BATHHOUSE: p["BATH_COST"],
        }.get(deck, 0)

    def market_gain(
        self, tr: TravelerState, deck: int, price: int | None, what: str
    ) -> Generator[None, Event, int | None]:
        """A ``GAIN(t, deck, card, price)`` of a Crossroads card; returns the card id (-1: identical cards).

        ``price`` None: the card's printed cost (Legendary Objects). None when Felicia comes away with
        nothing: she could not pay the card in full and her duel did not bring it within her coins (P6).
        """
        yield from self.promos.felicia_duel(tr)
        if self.promos.felicia_open():
            got = yield from self.ctx.maybe(lambda e: e.kind == Ev.GAIN and e.t == tr.index, what)
            if got is None:
                self._felicia_miss(tr, deck, price)
                return None
            ev = got
        else:
            ev = yield from self.ctx.take(Ev.GAIN, tr, what)
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
            market = self.market(deck)
            if ev.b not in market:
                avail = ", ".join(self.state.card_name(deck, c) for c in market) or "none"
                raise Illegal(ev, f"{name} card {ev.b} is not available (available: {avail})")
        label = self.state.card_name(deck, ev.b)
        if price is None:
            price = legendary_price(self.rules, tr, ev.b)
        self._disc = ability_discount(tr, price, self._printed(deck, ev.b))
        full, price = price, self.promos.felicia_price(tr, ev, deck, ev.b, price)
        if price < full:
            self._disc |= {"felicia"}
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
            self.market(deck).remove(ev.b)
        self.ctx.coins(tr, -price, f"{label}")
        return ev.b

    def _felicia_miss(self, tr: TravelerState, deck: int, price: int | None) -> None:
        """Felicia bought nothing after her challenge decision: legal only if she cannot pay the card (P6)."""
        duel = self.promos.felicia_clear()
        if duel is not None:
            need = duel.rounds - duel.wins
            want = (
                price
                if price is not None
                else (legendary_price(self.rules, tr, duel.card) if duel.card >= 0 else None)
            )
            if want is not None and duel.rounds != want:
                raise Illegal(
                    self.ctx.pending, f"felicia dueled {duel.rounds} rounds for a card that costs her {want}"
                )
        elif price is not None:
            need = price
        else:
            need = min((legendary_price(self.rules, tr, c) for c in self.state.legendary_market), default=0)
        if need <= tr.coins:
            raise Illegal(
                self.ctx.pending,
                f"felicia can pay the {deck_name(deck)} ({need} coins, she has "
                f"{tr.coins}): a chosen alternative is taken",
            )
        self.ctx.note(f"felicia cannot pay the {deck_name(deck)} ({need} coins): nothing bought")

    # ================================================================ a station stop
    def _reach(self, tr: TravelerState, cost: int) -> bool:
        """``tr`` may try to buy a card of ``cost``: it is affordable, or Felicia may duel for it (P6: seed
        002
        sets no limit on the cards she challenges for; she buys if the rounds won bring it within her
        coins)."""
        return cost <= tr.coins or (tr.ability == Ability.FELICIA and self.params["FELICIA_WIN_PPM"] > 0)

    def why_no_alternative(self, tr: TravelerState, kind: int) -> str | None:
        """Why the Crossroads alternative of a ``kind`` space is impossible for ``tr`` now (coins, cards
        left)."""
        st, p = self.state, self.params
        if kind in PANORAMA_SPACES:
            return None if st.cherry_left > 0 else "no cherry tree is left"
        if kind == Space.HOT_SPRING:
            if st.bath_left <= 0:
                return "no bathhouse is left"
            return (
                None
                if self._reach(tr, p["BATH_COST"])
                else f"a bathhouse costs {p['BATH_COST']}, {tr.name} has {tr.coins}"
            )
        if kind == Space.VILLAGE:
            if any(self._reach(tr, legendary_price(self.rules, tr, c)) for c in st.legendary_market):
                return None
            return f"no legendary object left costs at most {tr.coins} coins"
        if kind == Space.FARM:
            bet = p["GAMING_BET"]
            return (
                None if tr.coins >= bet else f"the gaming room needs a bet of {bet}, {tr.name} has {tr.coins}"
            )
        if kind == Space.TEMPLE:
            if not st.amulet_market:
                return "no amulet is available"
            price = amulet_price(self.rules, tr)
            return None if self._reach(tr, price) else f"an amulet costs {price}"
        if kind == Space.ENCOUNTER:
            if not st.calligraphy_market:
                return "no calligraphy card is left"
            return None if self._reach(tr, p["CALLI_COST"]) else f"a calligraphy card costs {p['CALLI_COST']}"
        return "an Inn has no alternative"

    def station_choice(self, tr: TravelerState, kind: int) -> Generator[None, Event, tuple[int, bool]]:
        """[``USE(health)``] + ``CHOICE(t, type, option)`` right after a player's move to a station (C27);
        returns the option and whether the Health Amulet was used."""
        st = self.state
        health = False
        use = yield from self.ctx.maybe(
            lambda e: e.kind == Ev.USE and e.t == tr.index, "USE(health) or CHOICE"
        )
        if use is not None:
            if amulet_kind(self.rules, use.a) != Amulet.HEALTH:
                raise Illegal(
                    use, "only the Health amulet is used right after a move (then the option is 2 or 3)"
                )
            self.amulets.use(use, tr)
            self.ctx.note("uses the health amulet")
            health = True
        ev = yield from self.ctx.take(Ev.CHOICE, tr, f"the option at the {st.space_name(tr.pos)}")
        if ev.a != kind:
            raise Illegal(ev, f"space {tr.pos} is a {st.space_name(tr.pos)} (type {kind}), not type {ev.a}")
        option = ev.b
        if option not in (0, 1, 2, 3, 4):
            raise Illegal(
                ev,
                f"option {option}: 0 base action, 1 {ALTERNATIVES[kind]}, 2 both, "
                "3 both, the alternative first, 4 the alternative buying nothing",
            )
        if option == 4 and (health or not self.params["ALT_NOTHING"] or kind not in EMPTY_OK):
            raise Illegal(
                ev,
                "option 4 (the alternative, buying nothing) needs crossroads.alternative_buys_nothing "
                "and a hot spring, village, temple or encounter, without the health amulet",
            )
        # seed 002: Kita "can carry out both actions" at an Encounter, Miyataka at a Temple, Health "both
        # options (in the order of his choice)"; no text orders Kita's and Miyataka's either (C27)
        both_ok = (
            health
            or (kind == Space.ENCOUNTER and tr.ability == Ability.KITA)
            or (kind == Space.TEMPLE and tr.ability == Ability.MIYATAKA)
        )
        if option in (2, 3) and not both_ok:
            raise Illegal(
                ev,
                f"{tr.name} may not take both actions here: options 2 and 3 need kita at an "
                "encounter, miyataka at a temple or the health amulet",
            )
        if health and option not in (2, 3):
            raise Illegal(ev, f"the health amulet was used: the option is 2 or 3 (both), not {option}")
        # Yama no Ko may complete it on this stop: with no Cherry Tree left option 0 (nothing) remains
        if (
            option not in (1, 4)
            and (why := st.why_no_base(tr, kind))
            and self.why_no_alternative(tr, kind) is None
        ):
            raise Illegal(ev, f"option {option}: {why}, so only the {ALTERNATIVES[kind]} (option 1)")
        # each action must be possible when it is taken: the first now, the second after the first
        if option in (1, 3):
            why = self.why_no_alternative(tr, kind)
            if why is not None:
                raise Illegal(ev, f"option {option} ({ALTERNATIVES[kind]}) is impossible: {why}")
        name = CHOICE_NAMES[option]
        if (
            health and self.rules.raw["crossroads"]["amulets"]["health_one_option"]
        ):  # Health giving one option
            name = "health, the base action only" if option == 2 else "health, the alternative only"
        self.ctx.note(f"chooses {name}" + (f" ({ALTERNATIVES[kind]})" if option else ""))
        return int(option), health

    def second(self, tr: TravelerState, kind: int, alternative: bool) -> Generator[None, Event, bool]:
        """The second of two actions (C27): it happens if it is possible once the first is done, unless
        declined (``OPTION(t, second, 0)``, asked only when it is possible, with
        ``crossroads.second_action_optional``, C42). True if it happens."""
        what = ALTERNATIVES[kind] if alternative else "the base action"
        why = self.why_no_alternative(tr, kind) if alternative else self.state.why_no_base(tr, kind)
        if why is not None:
            self.ctx.note(f"{what} no longer possible: {why}")
            return False
        if not self.rules.raw["crossroads"]["second_action_optional"]:
            return True
        take = yield from self.ctx.option(tr, Opt.SECOND)
        if not take:
            self.ctx.note(f"declines {what}")
        return take

    def alternative(self, tr: TravelerState, kind: int, after_base: bool) -> Step:
        """The Crossroads alternative of the space ``tr`` stopped on (``after_base``: the second action, C27,
        already judged possible by ``second``). Felicia may come away with nothing: her duel for a card she
        could not pay in full left it too dear (P6)."""
        p = self.params
        if kind in PANORAMA_SPACES:
            yield from self.market_gain(tr, Deck.CHERRY, 0, "a cherry tree")
            tr.cherry_trees += 1
            self.ctx.coins(tr, p["CHERRY_COINS"], "cherry tree")
            self.ctx.score(tr, "pts_cherry_trees", p["CHERRY_POINTS"], "cherry tree")
            yield from self.amulets.devotion(tr, 0, 0)  # free: only to name a misplaced Devotion
        elif kind == Space.HOT_SPRING:
            if (yield from self.market_gain(tr, Deck.BATHHOUSE, p["BATH_COST"], "a bathhouse")) is None:
                return
            tr.bathhouses += 1
            self.ctx.score(tr, "pts_bathhouses", p["BATH_POINTS"], "bathhouse")
            yield from self.amulets.devotion(tr, self._paid, p["BATH_COST"], self._disc)
        elif kind == Space.VILLAGE:
            yield from self.legendary_object(tr)
        elif kind == Space.FARM:
            bet = p["GAMING_BET"]
            face = yield from self.amulets.die(tr, bet, DieSrc.GAMING_ROOM)
            face = yield from self.iyasaka_reroll(tr, bet, face)
            self.ctx.note(f"gaming room: bets {bet}, rolls x{face}, gets {bet * face} back")
            self.ctx.coins(tr, bet * face - bet, "gaming room")
        elif kind == Space.TEMPLE:
            card = yield from self.market_gain(tr, Deck.AMULET, amulet_price(self.rules, tr), "an amulet")
            if card is None:
                return
            tr.amulets.add(card)
            if not self.rules.raw["crossroads"]["amulets"]["usable_where_bought"]:
                tr.amulets_new.add(card)  # C35: "never on the same turn as when it is acquired"
            tr.amulets_acquired += 1
            yield from self.amulets.devotion(tr, self._paid, p["AMULET_COST"], self._disc)
        elif kind == Space.ENCOUNTER:
            card = yield from self.market_gain(tr, Deck.CALLIGRAPHY, p["CALLI_COST"], "a calligraphy card")
            if card is None:
                return
            tr.calligraphy.append(card)
            yield from self.amulets.devotion(tr, self._paid, p["CALLI_COST"], self._disc)

    def legendary_object(self, tr: TravelerState) -> Step:
        """One Legendary Object at its printed cost (seed 002 "Legendary Object cards"; C29, C30)."""
        st, p = self.state, self.params
        card = yield from self.market_gain(tr, Deck.LEGENDARY, None, "a legendary object")
        if card is None:
            return
        lo = self.rules.legendary[card]
        if tr.scripts and self.rules.raw["crossroads"]["legendary"]["script_counts_legendary"]:
            self.script_bonus(tr)  # online: a Script's later point also for a Legendary Object
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
        self.ctx.score(tr, "pts_legendary", pts, why)
        yield from self.amulets.devotion(tr, self._paid, lo.cost, self._disc)

    def script_bonus(self, tr: TravelerState) -> None:
        """C29: each Script object held scores a point per Souvenir acquired after it."""
        if tr.scripts:
            self.ctx.score(
                tr,
                "pts_legendary",
                self.params["SCRIPT_BONUS"] * tr.scripts,
                f"{tr.scripts} script object{'s' if tr.scripts > 1 else ''}",
            )

    # ================================================================ Crossroads Travelers
    def jirocho(self, tr: TravelerState) -> Step:
        """Jirocho at an intermediate Inn, before the meal: may bet 1 coin on the Fortune die (C28)."""
        bet = self.params["JIROCHO_BET"]
        if tr.coins >= bet and (yield from self.ctx.option(tr, Opt.JIROCHO)):
            face = yield from self.amulets.die(tr, bet, DieSrc.JIROCHO)
            self.ctx.note(f"jirocho bets {bet}, rolls x{face}, gets {bet * face} back")
            self.ctx.coins(tr, bet * face - bet, "jirocho")

    def iyasaka_reroll(self, tr: TravelerState, bet: int, face: int) -> Generator[None, Event, int]:
        """002:L602: at the Gaming Room he may roll once more and must keep the second result."""
        if tr.ability != Ability.IYASAKA or not (yield from self.ctx.option(tr, Opt.IYASAKA)):
            return face
        second = yield from self.amulets.die(tr, bet, DieSrc.IYASAKA)
        self.ctx.note(f"iyasaka re-rolls x{face}: x{second}")
        return second

    # ================================================================ end of the game
    def score_calligraphy(self) -> None:
        """C32-C34: Calligraphy cards score last (Perfection counts the achievements just awarded)."""
        st = self.state
        final = st.inns.get(st.last)
        arrived = final.arrived if final is not None else []
        for tr in st.players():
            if not tr.calligraphy:
                continue
            arrival = arrived.index(tr.index) if tr.index in arrived else st.n_trav - 1
            scored = []
            for card in sorted(tr.calligraphy):
                kind = calligraphy_kind(self.rules, card)
                pts = calligraphy_points(
                    kind,
                    self.promos.calli_params(tr),
                    coins=tr.coins,
                    complete_panoramas=st.complete_panoramas(tr),
                    cherry_trees=tr.cherry_trees,
                    legendary=len(tr.legendary),
                    souvenirs=st.nostalgia_souvenirs(tr),
                    arrival=arrival,
                    n_travelers=st.n_trav,
                    achievements=len(tr.achievements),
                    calligraphy=len(tr.calligraphy),
                    inn_meals=tr.inn_meals,
                )
                self.ctx.score(
                    tr,
                    "pts_calligraphy",
                    pts,
                    f"{CALLI_NAMES[kind]} ({self._calli_basis(tr, kind, arrival)})",
                )
                scored.append(pts)
            self.marihito(tr, scored)
            self.ctx.header = f"  calligraphy {tr.name}"
            self.ctx.flush()

    def _calli_basis(self, tr: TravelerState, kind: int, arrival: int) -> str:
        st = self.state
        if kind == CALLI_NAMES.index("foresight"):
            return f"{tr.coins} coins"
        if kind == CALLI_NAMES.index("contemplation"):
            done = [PANORAMA_NAMES[p] for p in range(3) if st.panorama_complete(tr, p)]
            return f"complete: {', '.join(done) or 'none'}; {tr.cherry_trees} cherry trees"
        if kind == CALLI_NAMES.index("nostalgia"):
            return f"{len(tr.legendary)} legendary objects, {len(tr.souvenirs)} souvenirs"
        if kind == CALLI_NAMES.index("patience"):
            return f"arrived {ordinal(arrival + 1)} of {st.n_trav} at the last inn"
        if kind == CALLI_NAMES.index("perfection"):
            return f"{len(tr.achievements)} achievements, {len(tr.calligraphy)} calligraphy"
        return f"{tr.inn_meals} inn meals eaten"

    def marihito(self, tr: TravelerState, points: list[int]) -> None:
        """002:L613-615: one Calligraphy card scores twice (he doubles the best)."""
        if tr.ability == Ability.MARIHITO and points:
            extra = max(points) * (self.params["MARIHITO_TIMES"] - 1)
            self.ctx.score(
                tr, "pts_calligraphy", extra, f"marihito scores his best calligraphy ({max(points)}) again"
            )
