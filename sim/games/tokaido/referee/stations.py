"""The referee's rules for the stations and the cards they give (rulebook 000, New Encounters).

Each method is a generator that consumes the events the space produces
(``docs/log-format.md``, "A turn") and applies their effects to the referee's
own state; rule choices are cited by their number in ``docs/rules-choices.md``.
The Travelers' abilities come from their handlers (``promos``, ``matsuri_travelers``,
``prices``); with Crossroads the stations also take the Devotion Amulet and Script
bonuses (``crossroads``, ``amulets``); with Matsuri, Gion's Encounter (``matsuri``).
The Inns are ``inns.py``; they and the abilities take their cards here (an Encounter,
a panorama card, a meal...).
"""

from __future__ import annotations

from kernels.tokaido.core.enums import PANORAMA_NAMES, Ability, Deck, Enc, Ev, Opt, PanSrc, Space
from sim.games.tokaido.referee.amulets import Amulets
from sim.games.tokaido.referee.context import Replay, Step
from sim.games.tokaido.referee.crossroads import Crossroads
from sim.games.tokaido.referee.matsuri import Matsuri
from sim.games.tokaido.referee.matsuri_travelers import MatsuriTravelers
from sim.games.tokaido.referee.prices import ability_discount, souvenir_price, temple_points
from sim.games.tokaido.referee.promos import Promos
from sim.games.tokaido.referee.scoring import ordinal, souvenir_points
from sim.games.tokaido.referee.state import PANORAMA_SPACES, Event, Illegal, TravelerState

SOURCE_NAMES = ("station", "annaibito", "hiroshige", "kitoushi", "o-fune", "yama no ko")


class Stations:
    """Handlers for the stations and what they give; the Inns are ``Inns`` (``inns.py``)."""

    def __init__(
        self,
        ctx: Replay,
        promos: Promos,
        travelers: MatsuriTravelers,
        crossroads: Crossroads | None,
        matsuri: Matsuri | None,
    ) -> None:
        self.ctx, self.state, self.rules, self.params = ctx, ctx.state, ctx.rules, ctx.params
        self.promos = promos
        self.travelers = travelers
        self.crossroads = crossroads  # None: a game without Crossroads
        self.amulets: Amulets | None = crossroads.amulets if crossroads is not None else None
        self.matsuri = matsuri  # None: a game without Matsuri

    def base(self, tr: TravelerState, kind: int, base: bool) -> Step:
        """The base game's action of a station (``base`` False: only what comes with any option)."""
        st = self.state
        if kind == Space.FARM:
            if not tr.neutral and base:
                self.ctx.coins(tr, self.params["FARM_COINS"], "farm")
                self.travelers.farm_bonus(tr)
        elif kind == Space.VILLAGE:
            if base:
                yield from self.village(tr)
        elif kind in PANORAMA_SPACES:
            if not tr.neutral and base and not st.panorama_complete(tr, PANORAMA_SPACES[kind]):
                yield from self.panorama(
                    tr, PanSrc.STATION, [PANORAMA_SPACES[kind]]
                )  # Yama no Ko may complete it
            if st.xr and not tr.neutral and tr.ability == Ability.GOTOZAEMON:
                self.ctx.coins(tr, self.params["GOTOZAEMON_COINS"], "gotozaemon")
        elif kind == Space.HOT_SPRING:
            if base:
                yield from self.hot_spring(tr, "hot spring")
        elif kind == Space.TEMPLE:
            if base:
                yield from self.temple(tr, donation=tr.neutral or tr.coins >= 1)
        elif kind == Space.ENCOUNTER:
            if not tr.neutral:
                if tr.ability == Ability.UMEGAE and not st.xr:
                    self.umegae(tr)
                if base:
                    yield from self.encounter(tr, station=True)

    def umegae(self, tr: TravelerState) -> None:
        """Umegae: +1 point +1 coin at an Encounter station, before the card (also with Calligraphy, seed
        002)."""
        self.ctx.coins(tr, self.params["UMEGAE_COINS"], "umegae")
        self.ctx.score(tr, "pts_other", self.params["UMEGAE_POINTS"], "umegae's encounter bonus")

    def village(self, tr: TravelerState, draw: int | None = None) -> Step:
        """Draw ``draw`` souvenirs (the Shop's VILLAGE_DRAW; Rakuren's ability more), buy any, the rest go
        under."""
        if tr.neutral:
            return
        st, p = self.state, self.params
        n = min(p["VILLAGE_DRAW"] if draw is None else draw, len(st.piles[Deck.SOUVENIR]))
        table: list[int] = []
        for i in range(n):
            table.append((yield from self.ctx.draw(tr, Deck.SOUVENIR, f"{i + 1} of {n}")))
        if table:
            self.ctx.note("draws " + ", ".join(st.card_name(Deck.SOUVENIR, c) for c in table))
        else:
            self.ctx.note("the souvenir pile is empty")
        coins_before = tr.coins
        bought: list[tuple[Event, int]] = []
        zen_used = free_used = False
        while table:
            yield from self.promos.felicia_duel(tr)
            self.ctx.expecting = "GAIN or UNDER of the souvenirs on the table"
            ev = yield from self.ctx.next()
            if (
                ev.kind == Ev.OPTION
                and ev.t == tr.index
                and ev.a == Opt.FELICIA
                and self.promos.felicia_clear() is not None
            ):
                self.ctx.pending = ev  # P6: her duel left that card too dear; a challenge for another one
                self.ctx.note("felicia's duel leaves it too dear")
                continue
            if ev.kind == Ev.UNDER:
                if self.promos.felicia_clear() is not None:  # P6: a duel for a card she still cannot pay
                    self.ctx.note("felicia's duel leaves it too dear")
                self.ctx.under(ev, Deck.SOUVENIR, table)
                self.ctx.note(f"{st.card_name(Deck.SOUVENIR, ev.b)} goes under")
                continue
            if ev.kind != Ev.GAIN or ev.t != tr.index:
                left = ", ".join(st.card_name(Deck.SOUVENIR, c) for c in table)
                raise Illegal(
                    ev, f"souvenirs still on the table ({left}): each is bought (GAIN) or put under"
                )
            card = self.ctx.gained(ev, Deck.SOUVENIR, table)
            printed, before = self.rules.souvenirs[card].cost, souvenir_price(self.rules, tr, card)
            cost, paid = self.promos.felicia_price(tr, ev, Deck.SOUVENIR, card, before), ev.c
            zen = tr.ability == Ability.ZEN_EMON and not zen_used and paid == p["ZEN_EMON_PRICE"] < cost
            free = tr.ability == Ability.SASAYAKKO and not free_used and paid == 0 < cost
            disc = ability_discount(tr, before, printed) | {
                n for n, on in (("zen_emon", zen), ("sasayakko", free), ("felicia", cost < before)) if on
            }
            if paid != cost and not zen and not free:
                raise Illegal(
                    ev, f"{tr.name} paid {paid} for {st.card_name(Deck.SOUVENIR, card)}, price {cost}"
                )
            if paid > tr.coins:
                raise Illegal(ev, f"{tr.name} has {tr.coins} coins and cannot pay {paid}")
            zen_used, free_used = zen_used or zen, free_used or free
            bought.append((ev, card))
            self.ctx.coins(tr, -paid, f"buys {st.card_name(Deck.SOUVENIR, card)}")
            self.add_souvenir(tr, card)
            if self.amulets is not None:
                yield from self.amulets.devotion(tr, paid, printed, disc)
        if tr.ability == Ability.SASAYAKKO:
            self._check_sasayakko(bought, coins_before)

    def _check_sasayakko(self, bought: list[tuple[Event, int]], coins_before: int) -> None:
        """C20: buying >= 2 souvenirs, the cheapest is free; she must hold coins for all of them."""
        costs = [self.rules.souvenirs[c].cost for _, c in bought]
        free = [(ev, cost) for (ev, _), cost in zip(bought, costs, strict=True) if ev.c != cost]
        if len(bought) < 2:
            if free:
                raise Illegal(free[0][0], "sasayakko gets a free souvenir only when she buys at least 2")
            return
        last = bought[-1][0]
        if not free:
            raise Illegal(
                last, f"sasayakko bought {len(bought)} souvenirs: the cheapest is free, she paid for all"
            )
        if free[0][1] != min(costs):
            raise Illegal(
                free[0][0], f"sasayakko's free souvenir costs {free[0][1]}, not the cheapest ({min(costs)})"
            )
        if sum(costs) > coins_before:
            raise Illegal(
                last, f"sasayakko must hold coins for every souvenir: {sum(costs)} > {coins_before}"
            )

    def add_souvenir(self, tr: TravelerState, card: int) -> None:
        s = self.rules.souvenirs[card]
        pts, k, place = souvenir_points(tr.family_counts, s.family, self.state.set_points)
        tr.family_counts[s.family] += 1
        tr.souvenirs.append(card)
        name = self.state.card_name(Deck.SOUVENIR, card)
        self.ctx.score(tr, "pts_souvenirs", pts, f"{name} joins set {k} as {ordinal(place)} family")
        if self.crossroads is not None:
            self.crossroads.script_bonus(tr)

    def panorama(self, tr: TravelerState, source: int, allowed: list[int]) -> Step:
        what = f"a panorama card from {SOURCE_NAMES[source]}"
        ev = yield from self.ctx.take(Ev.PANORAMA, tr, what)
        if ev.b != source:
            raise Illegal(ev, f"panorama source {ev.b}, expected {source} ({SOURCE_NAMES[source]})")
        if ev.a not in allowed:
            names = "/".join(PANORAMA_NAMES[x] for x in allowed)
            raise Illegal(ev, f"{tr.name} may take a {names} card here, not type {ev.a}")
        st, ptype = self.state, ev.a
        tr.panorama[ptype] += 1
        value = self.promos.pan_points(tr, ptype)  # Naiade: in reverse order (P2)
        self.ctx.score(
            tr, "pts_panoramas", value, f"{PANORAMA_NAMES[ptype]} card {value} ({SOURCE_NAMES[source]})"
        )
        if st.panorama_complete(tr, ptype) and st.pan_achievement[ptype] is None:
            st.pan_achievement[ptype] = tr.index
            tr.achievements.append(f"{PANORAMA_NAMES[ptype]} panorama")
            self.ctx.score(
                tr,
                "pts_achievements",
                self.params["PAN_ACH_POINTS"],
                f"first to complete the {PANORAMA_NAMES[ptype]} panorama",
            )

    def hot_spring(self, tr: TravelerState, why: str) -> Step:
        if tr.neutral:
            return
        if not self.state.piles[Deck.HOT_SPRING]:
            self.ctx.note("the hot spring pile is empty")
            return
        card = yield from self.ctx.draw(tr, Deck.HOT_SPRING, why)
        yield from self.ctx.gain_free(tr, Deck.HOT_SPRING, [card], why)
        tr.hot_springs.append(card)
        self.ctx.score(tr, "pts_hot_springs", self.rules.hot_springs[card].value, f"{why} card")

    def eat(self, tr: TravelerState, card: int, why: str) -> None:
        m = self.rules.meals[card]
        tr.meals.append(card)
        tr.dishes.add(m.dish)
        tr.meal_value += m.cost
        self.ctx.score(tr, "pts_meals", self.params["MEAL_POINTS"], f"{m.name} ({why})")

    def temple(self, tr: TravelerState, donation: bool = True) -> Step:
        """A Temple stop: 1-3 coins (``donation`` False: none, the purse is empty or an Amulet was taken
        instead) and Hirotada's bank coin, which he may add at each Temple stop either way."""
        p = self.params
        if tr.neutral:
            ev = yield from self.ctx.take(Ev.DONATE, tr, "the Neutral's bank coin")
            want = p["NEUTRAL_BANK_COIN"]
            if (ev.a, ev.b) != (0, want):
                raise Illegal(
                    ev, f"the Neutral donates ({ev.a}, {ev.b}), expected (0 coins, {want} bank coin)"
                )
            tr.donated += want
            self.ctx.note(f"{want} bank coin on the temple")
            return
        bank_max = p["HIROTADA_COIN"] if tr.ability == Ability.HIROTADA else 0
        if not donation and not bank_max:
            return
        option = None
        if bank_max:  # Opt.HIROTADA may be logged as a yes/no before the DONATE (tolerated)
            opt = yield from self.ctx.maybe(
                lambda e: e.kind == Ev.OPTION and e.t == tr.index, "OPTION or DONATE"
            )
            if opt is not None:
                if opt.a != Opt.HIROTADA or opt.b not in (0, 1):
                    raise Illegal(opt, f"option {opt.a}={opt.b} at a temple, expected hirotada's yes/no")
                option = opt.b
        ev = yield from self.ctx.take(Ev.DONATE, tr, "a temple offering")
        if not donation and ev.a != 0:
            raise Illegal(
                ev, f"{tr.name} donates no coin here (an amulet instead, or no coin left), not {ev.a}"
            )
        if donation and not 1 <= ev.a <= p["TEMPLE_MAX"]:
            raise Illegal(ev, f"{tr.name} must donate 1 to {p['TEMPLE_MAX']} coins, not {ev.a}")
        if ev.a > tr.coins:
            raise Illegal(ev, f"{tr.name} has {tr.coins} coins and cannot donate {ev.a}")
        if not 0 <= ev.b <= bank_max or (option is not None and ev.b != option * bank_max):
            raise Illegal(ev, f"{ev.b} bank coins: only hirotada may add {p['HIROTADA_COIN']}, if he chooses")
        self.ctx.coins(tr, -ev.a, "temple")
        tr.donated += ev.a + ev.b
        self.ctx.score(tr, "pts_temple", temple_points(self.rules, tr, ev.a), f"donates {ev.a} coins")
        if ev.b:
            self.ctx.score(tr, "pts_temple", ev.b, "hirotada's bank coin")

    # ================================================================ encounters
    def encounter(self, tr: TravelerState, station: bool = False) -> Step:
        """An Encounter (``station``: a stop at an Encounter space, where Gion lets the traveler choose)."""
        st = self.state
        if not st.piles[Deck.ENCOUNTER]:
            self.ctx.note("the encounter pile is empty")
            return
        if station and self.matsuri is not None and "gion" in st.m.leg:
            card = yield from self.matsuri.gion_pick(tr)  # Yoshiyasu too picks one card (M9)
        elif tr.ability == Ability.YOSHIYASU:
            n = min(2, len(st.piles[Deck.ENCOUNTER]))
            table: list[int] = []
            for i in range(n):
                table.append((yield from self.ctx.draw(tr, Deck.ENCOUNTER, f"{i + 1} of {n} (yoshiyasu)")))
            kept = None
            while table:
                self.ctx.expecting = "yoshiyasu's GAIN and UNDER"
                ev = yield from self.ctx.next()
                if ev.kind == Ev.GAIN and ev.t == tr.index and kept is None:
                    kept = self.ctx.gained(ev, Deck.ENCOUNTER, table)
                    if ev.c != 0:
                        raise Illegal(ev, f"paid {ev.c} coins for an encounter card")
                elif ev.kind == Ev.UNDER:
                    self.ctx.under(ev, Deck.ENCOUNTER, table)
                else:
                    raise Illegal(ev, "yoshiyasu keeps one encounter card and puts the other under")
                if not table and kept is None:
                    raise Illegal(ev, "yoshiyasu must keep one of the encounter cards he drew")
            assert kept is not None
            card = kept
        else:
            card = yield from self.ctx.draw(tr, Deck.ENCOUNTER, "encounter")
            yield from self.ctx.gain_free(tr, Deck.ENCOUNTER, [card], "encounter")
        tr.encounters.append(card)
        self.ctx.note(f"meets {st.card_name(Deck.ENCOUNTER, card)}")
        yield from self._encounter_effect(tr, card)

    def _encounter_effect(self, tr: TravelerState, card: int) -> Step:
        st, p = self.state, self.params
        enc = self.rules.encounters[card]
        kind = enc.kind
        if kind == Enc.SHOKUNIN:
            if st.piles[Deck.SOUVENIR]:
                s = yield from self.ctx.draw(tr, Deck.SOUVENIR, "shokunin")
                yield from self.ctx.gain_free(tr, Deck.SOUVENIR, [s], "shokunin")
                self.add_souvenir(tr, s)
        elif kind == Enc.ANNAIBITO:
            incomplete = st.incomplete_panoramas(tr)
            if enc.panorama in incomplete:
                yield from self.panorama(tr, PanSrc.ANNAIBITO, [enc.panorama])
            elif incomplete and (yield from self.ctx.option(tr, Opt.ANNAIBITO)):  # "they can": optional
                yield from self.panorama(tr, PanSrc.ANNAIBITO, incomplete)
            # C2: nothing when every panorama is complete
        elif kind == Enc.SAMURAI:
            self.ctx.score(tr, "pts_encounters", p["SAMURAI_POINTS"], "samurai")
        elif kind == Enc.KUGE:
            self.ctx.coins(tr, p["KUGE_COINS"], "kuge")
        elif kind == Enc.MIKO:
            tr.donated += 1
            self.ctx.score(tr, "pts_encounters", p["MIKO_POINTS"], "miko puts a bank coin on the temple")
        elif kind == Enc.ITAMAE:
            paid = tr.coins >= p["ITAMAE_COST"] and bool(st.piles[Deck.MEAL])
            if paid and (paid := (yield from self.ctx.option(tr, Opt.ITAMAE))):
                self.ctx.coins(tr, -p["ITAMAE_COST"], "itamae")
                m = yield from self.ctx.draw(tr, Deck.MEAL, "itamae")
                if st.can_eat(tr, m):
                    yield from self.ctx.gain_free(tr, Deck.MEAL, [m], "itamae's meal")
                    self.eat(tr, m, "itamae")
                else:  # C14
                    ev = yield from self.ctx.take(
                        Ev.UNDER, None, f"{st.card_name(Deck.MEAL, m)}, a dish already eaten"
                    )
                    self.ctx.under(ev, Deck.MEAL, [m])
                    self.ctx.note(f"{st.card_name(Deck.MEAL, m)} already eaten: goes under")
            if not paid:
                yield from self._unpaid(tr, card)
        elif kind == Enc.KITOUSHI:
            incomplete = st.incomplete_panoramas(tr)
            paid = tr.coins >= p["KITOUSHI_COST"] and bool(incomplete)
            if paid and (paid := (yield from self.ctx.option(tr, Opt.KITOUSHI))):
                self.ctx.coins(tr, -p["KITOUSHI_COST"], "kitoushi")
                yield from self.panorama(tr, PanSrc.KITOUSHI, incomplete)
            if not paid:
                yield from self._unpaid(tr, card)
        elif kind == Enc.SARU:
            yield from self.hot_spring(tr, "saru's hot spring")
        elif kind == Enc.TAKUHATSUSO:
            if tr.coins >= p["TAKUHATSUSO_COST"] and (yield from self.ctx.option(tr, Opt.TAKUHATSUSO)):
                self.ctx.coins(tr, -p["TAKUHATSUSO_COST"], "takuhatsuso")
                self.ctx.score(tr, "pts_encounters", p["TAKUHATSUSO_POINTS"], "takuhatsuso")
            else:
                yield from self._unpaid(tr, card)

    def _unpaid(self, tr: TravelerState, card: int) -> Step:
        """Seed 002: a Kitoushi, Takuhatsuso or Itamae not paid for goes face down under the Encounter
        pile."""
        ev = yield from self.ctx.take(
            Ev.UNDER, None, f"the unpaid {self.state.card_name(Deck.ENCOUNTER, card)}"
        )
        self.ctx.under(ev, Deck.ENCOUNTER, tr.encounters)
        if ev.b != card:
            raise Illegal(ev, f"the unpaid encounter card {card} goes under, not card {ev.b}")
        self.ctx.note("not paid: the card goes under the encounter pile")
