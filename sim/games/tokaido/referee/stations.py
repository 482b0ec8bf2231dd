"""The referee's rules for every space: stations, encounters and Inns (rulebook 000, New Encounters).

Each method is a generator that consumes the events the space produces
(``docs/log-format.md``, "A turn") and applies their effects to the referee's
own state; rule choices are cited by their number in ``docs/rules-choices.md``.
The Travelers' abilities come from their handlers (``promos``, ``matsuri_travelers``,
``prices``); with Crossroads the stations also take the Devotion and Hospitality
Amulets, Script bonuses and the Crossroads Travelers at Inns (``crossroads``,
``amulets``); with Matsuri, Gion's Encounter and the festival at each Inn (``matsuri``).
"""

from __future__ import annotations

from collections.abc import Generator

from kernels.core.enums import PANORAMA_NAMES, Ability, Deck, Enc, Ev, Opt, PanSrc, Space
from sim.games.tokaido.referee.amulets import Amulets
from sim.games.tokaido.referee.context import Replay, Step
from sim.games.tokaido.referee.crossroads import Crossroads
from sim.games.tokaido.referee.matsuri import Matsuri
from sim.games.tokaido.referee.matsuri_travelers import MatsuriTravelers
from sim.games.tokaido.referee.prices import ability_discount, souvenir_price, temple_points
from sim.games.tokaido.referee.promos import Promos
from sim.games.tokaido.referee.scoring import ordinal, souvenir_points
from sim.games.tokaido.referee.state import PANORAMA_SPACES, Event, Illegal, InnVisit, TravelerState

SOURCE_NAMES = ("station", "annaibito", "hiroshige", "kitoushi", "o-fune", "yama no ko")


class Stations:
    """Handlers for the spaces; ``Referee`` adds set-up, turn order and end scoring."""

    def __init__(self, ctx: Replay, promos: Promos, travelers: MatsuriTravelers, crossroads: Crossroads | None,
                 matsuri: Matsuri | None) -> None:
        self.ctx, self.state, self.rules, self.params = ctx, ctx.state, ctx.rules, ctx.params
        self.promos = promos
        self.travelers = travelers
        self.crossroads = crossroads  # None: a game without Crossroads
        self.amulets: Amulets | None = crossroads.amulets if crossroads is not None else None
        self.matsuri = matsuri  # None: a game without Matsuri

    def base(self, tr: TravelerState, kind: int, base: bool) -> Step:
        """The base game's action of the space (``base`` False: only what comes with any option)."""
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
                yield from self.panorama(tr, PanSrc.STATION, [PANORAMA_SPACES[kind]])  # Yama no Ko may complete it
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
        elif kind == Space.INN:
            yield from self.inn(tr)

    def umegae(self, tr: TravelerState) -> None:
        """Umegae: +1 point +1 coin at an Encounter station, before the card (also with Calligraphy, seed 002)."""
        self.ctx.coins(tr, self.params["UMEGAE_COINS"], "umegae")
        self.ctx.score(tr, "pts_other", self.params["UMEGAE_POINTS"], "umegae's encounter bonus")

    def village(self, tr: TravelerState, draw: int | None = None) -> Step:
        """Draw ``draw`` souvenirs (the Shop's VILLAGE_DRAW; Rakuren's ability more), buy any, the rest go under."""
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
            if ev.kind == Ev.OPTION and ev.t == tr.index and ev.a == Opt.FELICIA and self.promos.felicia_clear() is not None:
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
                raise Illegal(ev, f"souvenirs still on the table ({left}): each is bought (GAIN) or put under")
            card = self.ctx.gained(ev, Deck.SOUVENIR, table)
            printed, before = self.rules.souvenirs[card].cost, souvenir_price(self.rules, tr, card)
            cost, paid = self.promos.felicia_price(tr, ev, Deck.SOUVENIR, card, before), ev.c
            zen = tr.ability == Ability.ZEN_EMON and not zen_used and paid == p["ZEN_EMON_PRICE"] < cost
            free = tr.ability == Ability.SASAYAKKO and not free_used and paid == 0 < cost
            disc = ability_discount(tr, before, printed) | {n for n, on in (
                ("zen_emon", zen), ("sasayakko", free), ("felicia", cost < before)) if on}
            if paid != cost and not zen and not free:
                raise Illegal(ev, f"{tr.name} paid {paid} for {st.card_name(Deck.SOUVENIR, card)}, price {cost}")
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
            raise Illegal(last, f"sasayakko bought {len(bought)} souvenirs: the cheapest is free, she paid for all")
        if free[0][1] != min(costs):
            raise Illegal(free[0][0], f"sasayakko's free souvenir costs {free[0][1]}, not the cheapest ({min(costs)})")
        if sum(costs) > coins_before:
            raise Illegal(last, f"sasayakko must hold coins for every souvenir: {sum(costs)} > {coins_before}")

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
        self.ctx.score(tr, "pts_panoramas", value, f"{PANORAMA_NAMES[ptype]} card {value} ({SOURCE_NAMES[source]})")
        if st.panorama_complete(tr, ptype) and st.pan_achievement[ptype] is None:
            st.pan_achievement[ptype] = tr.index
            tr.achievements.append(f"{PANORAMA_NAMES[ptype]} panorama")
            self.ctx.score(tr, "pts_achievements", self.params["PAN_ACH_POINTS"],
                        f"first to complete the {PANORAMA_NAMES[ptype]} panorama")

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

    def temple(self, tr: TravelerState, donation: bool = True) -> Step:
        """A Temple stop: 1-3 coins (``donation`` False: none, the purse is empty or an Amulet was taken
        instead) and Hirotada's bank coin, which he may add at each Temple stop either way."""
        p = self.params
        if tr.neutral:
            ev = yield from self.ctx.take(Ev.DONATE, tr, "the Neutral's bank coin")
            want = p["NEUTRAL_BANK_COIN"]
            if (ev.a, ev.b) != (0, want):
                raise Illegal(ev, f"the Neutral donates ({ev.a}, {ev.b}), expected (0 coins, {want} bank coin)")
            tr.donated += want
            self.ctx.note(f"{want} bank coin on the temple")
            return
        bank_max = p["HIROTADA_COIN"] if tr.ability == Ability.HIROTADA else 0
        if not donation and not bank_max:
            return
        option = None
        if bank_max:  # Opt.HIROTADA may be logged as a yes/no before the DONATE (tolerated)
            opt = yield from self.ctx.maybe(lambda e: e.kind == Ev.OPTION and e.t == tr.index, "OPTION or DONATE")
            if opt is not None:
                if opt.a != Opt.HIROTADA or opt.b not in (0, 1):
                    raise Illegal(opt, f"option {opt.a}={opt.b} at a temple, expected hirotada's yes/no")
                option = opt.b
        ev = yield from self.ctx.take(Ev.DONATE, tr, "a temple offering")
        if not donation and ev.a != 0:
            raise Illegal(ev, f"{tr.name} donates no coin here (an amulet instead, or no coin left), not {ev.a}")
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
                    ev = yield from self.ctx.take(Ev.UNDER, None, f"{st.card_name(Deck.MEAL, m)}, a dish already eaten")
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
        """Seed 002: a Kitoushi, Takuhatsuso or Itamae not paid for goes face down under the Encounter pile."""
        ev = yield from self.ctx.take(Ev.UNDER, None, f"the unpaid {self.state.card_name(Deck.ENCOUNTER, card)}")
        self.ctx.under(ev, Deck.ENCOUNTER, tr.encounters)
        if ev.b != card:
            raise Illegal(ev, f"the unpaid encounter card {card} goes under, not card {ev.b}")
        self.ctx.note("not paid: the card goes under the encounter pile")

    # ================================================================ inns
    def inn(self, tr: TravelerState) -> Step:
        st = self.state
        inn = st.inn_visit(tr.pos)
        inn.arrived.append(tr.index)
        self.ctx.note(f"arrives {ordinal(len(inn.arrived))}")
        if self.amulets is not None:
            yield from self.amulets.no_health_at_inn(tr)
        ate = False  # "A Traveler can never purchase more than one Meal card per Inn"
        if st.is_intermediate_inn(tr.pos) and not tr.neutral:  # C19: the ability comes first
            if tr.ability == Ability.HIROSHIGE:
                incomplete = st.incomplete_panoramas(tr)
                if incomplete:  # C16
                    yield from self.panorama(tr, PanSrc.HIROSHIGE, incomplete)
            elif tr.ability == Ability.CHUUBEI:
                meals = len(tr.meals)
                yield from self.encounter(tr)
                if len(tr.meals) > meals and self.rules.raw["rules"]["meals"]["itamae_is_the_inn_meal"]:
                    self.ctx.note("itamae's meal is his one meal at this inn (rulebook)")
                    ate = True
            elif tr.ability == Ability.DAIGORO:  # a souvenir before the meal (seed 002)
                if st.piles[Deck.SOUVENIR]:
                    s = yield from self.ctx.draw(tr, Deck.SOUVENIR, "daigoro")
                    yield from self.ctx.gain_free(tr, Deck.SOUVENIR, [s], "daigoro's souvenir")
                    self.add_souvenir(tr, s)
            elif tr.ability == Ability.JIROCHO and self.crossroads is not None:
                yield from self.crossroads.jirocho(tr)
        if st.is_intermediate_inn(tr.pos):
            yield from self.travelers.mt_arrival(tr, inn)  # Chihaya, Yashima, Musubi: before the meal (A5)
        if len(inn.arrived) == 1:
            extra = int(self.rules.raw["matsuri"]["choyo_hand"]) if st.matsuri and st.m.cho_yo_at == tr.pos else 0
            n = min(st.n_trav + self.params["HAND_EXTRA"] + extra, len(st.piles[Deck.MEAL]))
            for i in range(n):
                inn.hand.append((yield from self.ctx.draw(tr, Deck.MEAL, f"{i + 1} of {n} for the inn")))
            self.ctx.note(f"draws {n} meals (" + ", ".join(st.card_name(Deck.MEAL, c) for c in inn.hand) + ")")
        meals, coins = len(tr.meals), tr.coins
        if not ate:
            yield from self.meal(tr, inn)
        self.travelers.kamui(tr, meals, coins)
        if len(inn.arrived) == st.n_trav:
            while inn.hand:
                left = ", ".join(st.card_name(Deck.MEAL, c) for c in inn.hand)
                ev = yield from self.ctx.take(Ev.UNDER, None, f"the meals left at the inn: {left}")
                self.ctx.under(ev, Deck.MEAL, inn.hand)
            # seed 002 L1264: the festival once ALL have arrived, "after they have used their abilities"
            if st.is_intermediate_inn(tr.pos) and self.params["MUSUBI_TIMING"] == 1:
                yield from self.travelers.musubi_all_arrived(inn)
            if self.matsuri is not None:
                yield from self.matsuri.inn_matsuri(inn)

    def meal(self, tr: TravelerState, inn: InnVisit) -> Step:
        st = self.state
        if tr.neutral:
            if inn.hand:
                ev = yield from self.ctx.take(Ev.OFFER, tr, "the Neutral's random discard")
                card = ev.a
                if card not in inn.hand:
                    raise Illegal(ev, f"meal {card} is not in the inn's hand")
                ev = yield from self.ctx.take(Ev.UNDER, None, "the Neutral's discard")
                if (ev.a, ev.b) != (Deck.MEAL, card):
                    raise Illegal(ev, f"the Neutral discarded meal {card}, this puts ({ev.a}, {ev.b}) under")
                self.ctx.under(ev, Deck.MEAL, inn.hand)
                self.ctx.note("discards a meal at random")
            return
        offered = None
        from_pile = self.rules.raw["rules"]["abilities"]["satsuki_free_meal"] == "pile"
        if tr.ability == Ability.SATSUKI and from_pile and st.piles[Deck.MEAL]:
            offered = yield from self.ctx.draw(tr, Deck.MEAL, "satsuki's free meal, the top of the pile (seed 002)")
            ev = yield from self.ctx.take(Ev.OFFER, tr, "satsuki's free meal")
            if ev.a != offered:
                raise Illegal(ev, f"satsuki is offered the card she drew ({offered}), not {ev.a}")
            self.ctx.note(f"offered {st.card_name(Deck.MEAL, offered)} from the pile")
            if (yield from self.satsuki_pile(tr, offered)):
                return
            offered = None  # refused: she may buy from the Inn's hand as normal
        elif tr.ability == Ability.SATSUKI and not from_pile and inn.hand:
            ev = yield from self.ctx.take(Ev.OFFER, tr, "satsuki's random free meal")
            if ev.a not in inn.hand:
                raise Illegal(ev, f"meal {ev.a} is not in the inn's hand")
            offered = ev.a
            self.ctx.note(f"offered {st.card_name(Deck.MEAL, ev.a)}")
        top = yield from self.promos.eriku_look(tr, 1)  # P4: his look comes when his meal choice does
        if top is not None:
            inn.hand.append(top)
        top_left = yield from self.promos.eriku_leaves(tr, top, inn.hand)
        hospitality = self.amulets is not None and (yield from self.amulets.hospitality(tr))
        yield from self.promos.felicia_duel(tr)
        gain = yield from self.ctx.maybe(lambda e: e.kind == Ev.GAIN and e.t == tr.index, "a meal or the next event")
        if top is not None and not top_left and (gain is None or gain.b != top):
            raise Illegal(gain or self.ctx.pending, "the meal card eriku looked at and did not buy goes under the pile")
        if gain is None:
            if self.promos.felicia_clear() is not None:  # P6: a duel for a meal she still cannot pay (or declines)
                self.ctx.note("felicia's duel: no meal")
            if hospitality:
                raise Illegal(self.ctx.pending, f"{tr.name} used the hospitality amulet, then took no meal")
            self.ctx.note("no meal")
            return
        ev = gain
        card = self.ctx.gained(ev, Deck.MEAL, inn.hand)
        if not st.can_eat(tr, card):
            raise Illegal(ev, f"{tr.name} has already eaten {st.card_name(Deck.MEAL, card)}")
        price = 0
        printed = self.rules.meals[card].cost
        full = st.meal_price(tr, card)
        disc = ability_discount(tr, full, printed)  # Kinko's, Ayumu's
        if st.matsuri and st.m.cho_yo_at == tr.pos and full < printed:
            disc |= {"choyo"}
        if hospitality or (card == offered and ev.c == 0):
            self.promos.felicia_price(tr, ev, Deck.MEAL, card, 0)
        if hospitality:
            if ev.c != 0:
                raise Illegal(ev, f"the hospitality amulet makes the meal free, {tr.name} paid {ev.c}")
            why = "hospitality amulet"
            disc |= {"hospitality"}
        elif card == offered and ev.c == 0:
            why = "satsuki's free meal"
            disc = frozenset(["satsuki"])
        else:
            price = self.promos.felicia_price(tr, ev, Deck.MEAL, card, full)
            if price < full:
                disc |= {"felicia"}
            if ev.c != price:
                raise Illegal(ev, f"{tr.name} paid {ev.c} for {st.card_name(Deck.MEAL, card)}, price {price}")
            if price > tr.coins:
                raise Illegal(ev, f"{tr.name} has {tr.coins} coins and cannot pay {price}")
            self.ctx.coins(tr, -price, "meal")
            why = f"{'kinko ' if tr.ability == Ability.KINKO else ''}pays {price}"
        self.eat(tr, card, why)
        if self.amulets is not None:
            tr.inn_meals += 1
            if tr.ability == Ability.NAMPO:  # the printed cost in points at each Inn meal (C38)
                m = self.rules.meals[card]
                self.ctx.score(tr, "pts_other", m.cost, f"nampo: {m.name} costs {m.cost}")
            yield from self.amulets.devotion(tr, price, printed, disc)

    def eat(self, tr: TravelerState, card: int, why: str) -> None:
        m = self.rules.meals[card]
        tr.meals.append(card)
        tr.dishes.add(m.dish)
        tr.meal_value += m.cost
        self.ctx.score(tr, "pts_meals", self.params["MEAL_POINTS"], f"{m.name} ({why})")

    def satsuki_pile(self, tr: TravelerState, card: int) -> Generator[None, Event, bool]:
        """``GAIN(t, 1, card, 0)``: she eats the pile's card free (True); ``UNDER(1, card)``: refused (False)."""
        st = self.state
        self.ctx.expecting = "satsuki's GAIN of the offered meal (free) or its UNDER"
        ev = yield from self.ctx.next()
        if ev.kind == Ev.UNDER:
            self.ctx.under(ev, Deck.MEAL, [card])
            self.ctx.note("refuses it: under the meal pile")
            return False
        if ev.kind != Ev.GAIN or ev.t != tr.index:
            raise Illegal(ev, f"expected {self.ctx.expecting}")
        self.ctx.gained(ev, Deck.MEAL, [card])
        if ev.c != 0:
            raise Illegal(ev, f"satsuki's meal from the pile is free, she paid {ev.c}")
        if not st.can_eat(tr, card):
            raise Illegal(ev, f"{tr.name} has already eaten {st.card_name(Deck.MEAL, card)}")
        self.eat(tr, card, "satsuki's free meal from the pile")
        if self.amulets is not None:
            tr.inn_meals += 1
            yield from self.amulets.devotion(tr, 0, self.rules.meals[card].cost, frozenset(["satsuki"]))  # free (C37)
        return True
