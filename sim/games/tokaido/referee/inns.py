"""The referee's Inns (rulebook 000 "Inns", seed 002 for the Travelers' meals and the Matsuri).

A traveler arriving at an Inn: the abilities that come before the meal (Hiroshige, Chuubei,
Daigoro, Jirocho; the Matsuri Travelers' arrivals, A5), the first arrival's hand of meals, the
meal (the Neutral's random discard, Satsuki's free meal, Eriku's look at the top card,
Felicia's duel, the Hospitality and Devotion Amulets), Kamui after it; once everyone is there,
the meals left go under the pile, Musubi's coins and, with Matsuri, the festival. The cards an
Inn gives are taken as at the stations (``Stations``: an Encounter, a panorama card, a meal).
"""

from __future__ import annotations

from collections.abc import Generator

from kernels.tokaido.core.enums import Ability, Deck, Ev, PanSrc
from sim.games.tokaido.referee.context import Replay, Step
from sim.games.tokaido.referee.prices import ability_discount
from sim.games.tokaido.referee.scoring import ordinal
from sim.games.tokaido.referee.state import Event, Illegal, InnVisit, TravelerState
from sim.games.tokaido.referee.stations import Stations


class Inns:
    """Handlers for a traveler's arrival at an Inn and the meal there."""

    def __init__(self, ctx: Replay, stations: Stations) -> None:
        self.ctx, self.state, self.rules, self.params = ctx, ctx.state, ctx.rules, ctx.params
        self.stations = stations  # the cards an Inn gives, taken as at a station
        self.promos = stations.promos
        self.travelers = stations.travelers
        self.crossroads = stations.crossroads  # None: a game without Crossroads
        self.amulets = stations.amulets
        self.matsuri = stations.matsuri  # None: a game without Matsuri

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
                    yield from self.stations.panorama(tr, PanSrc.HIROSHIGE, incomplete)
            elif tr.ability == Ability.CHUUBEI:
                meals = len(tr.meals)
                yield from self.stations.encounter(tr)
                if len(tr.meals) > meals and self.rules.raw["rules"]["meals"]["itamae_is_the_inn_meal"]:
                    self.ctx.note("itamae's meal is his one meal at this inn (rulebook)")
                    ate = True
            elif tr.ability == Ability.DAIGORO:  # a souvenir before the meal (seed 002)
                if st.piles[Deck.SOUVENIR]:
                    s = yield from self.ctx.draw(tr, Deck.SOUVENIR, "daigoro")
                    yield from self.ctx.gain_free(tr, Deck.SOUVENIR, [s], "daigoro's souvenir")
                    self.stations.add_souvenir(tr, s)
            elif tr.ability == Ability.JIROCHO and self.crossroads is not None:
                yield from self.crossroads.jirocho(tr)
        if st.is_intermediate_inn(tr.pos):
            yield from self.travelers.mt_arrival(tr, inn)  # Chihaya, Yashima, Musubi: before the meal (A5)
        if len(inn.arrived) == 1:
            extra = (
                int(self.rules.raw["matsuri"]["choyo_hand"]) if st.matsuri and st.m.cho_yo_at == tr.pos else 0
            )
            n = min(st.n_trav + self.params["HAND_EXTRA"] + extra, len(st.piles[Deck.MEAL]))
            for i in range(n):
                inn.hand.append((yield from self.ctx.draw(tr, Deck.MEAL, f"{i + 1} of {n} for the inn")))
            self.ctx.note(
                f"draws {n} meals (" + ", ".join(st.card_name(Deck.MEAL, c) for c in inn.hand) + ")"
            )
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
            offered = yield from self.ctx.draw(
                tr, Deck.MEAL, "satsuki's free meal, the top of the pile (seed 002)"
            )
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
        gain = yield from self.ctx.maybe(
            lambda e: e.kind == Ev.GAIN and e.t == tr.index, "a meal or the next event"
        )
        if top is not None and not top_left and (gain is None or gain.b != top):
            raise Illegal(
                gain or self.ctx.pending, "the meal card eriku looked at and did not buy goes under the pile"
            )
        if gain is None:
            if (
                self.promos.felicia_clear() is not None
            ):  # P6: a duel for a meal she still cannot pay (or declines)
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
        self.stations.eat(tr, card, why)
        if self.amulets is not None:
            tr.inn_meals += 1
            if tr.ability == Ability.NAMPO:  # the printed cost in points at each Inn meal (C38)
                m = self.rules.meals[card]
                self.ctx.score(tr, "pts_other", m.cost, f"nampo: {m.name} costs {m.cost}")
            yield from self.amulets.devotion(tr, price, printed, disc)

    def satsuki_pile(self, tr: TravelerState, card: int) -> Generator[None, Event, bool]:
        """``GAIN(t, 1, card, 0)``: she eats the pile's card free (True); ``UNDER(1, card)``: refused
        (False)."""
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
        self.stations.eat(tr, card, "satsuki's free meal from the pile")
        if self.amulets is not None:
            tr.inn_meals += 1
            yield from self.amulets.devotion(
                tr, 0, self.rules.meals[card].cost, frozenset(["satsuki"])
            )  # free (C37)
        return True
