"""The referee's Matsuri Travelers (seed 002 "Travelers Matsuri", expansions.md A.9, docs/rules-choices.md MT-*).

Written from the rulebook and the research file, not from the kernels. The base handlers
(``stations.py``, ``game.py``, ``crossroads.py``) call these hooks at the moments the rules name:

* set-up: Kushinada collects a coin from every other traveler (the bank pays for the Neutral
  and for an empty purse), after Preparations, before the start Amulets (MT-Kushinada);
* any player's station stop: Misaki (Temple) and Takeru (Encounter) take bank coins, before the
  space's action (MT-Misaki/Takeru; the Neutral's stops trigger nothing, M29, unless chosen so);
* arrival at an intermediate Inn, before the meal (A5): Chihaya's Hot Spring card, Yashima's
  free Amulet, Musubi's coins from his arrival neighbours;
* after an Inn meal (all four Inns after the start): Kamui's points when he ate nothing;
* prices: Ayumu's meals and Small objects, Titia's Art souvenirs and Legendary Objects, Mari's
  free Amulet; Mari's double Temple points; Iyasaka's Farm coin and Gaming Room re-roll;
* a Shop stop: Rakuren may draw 4 souvenirs and a random Legendary Object instead (MT-Rakuren);
* the end: Marihito's best Calligraphy card scores again, Suseri's card types.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from kernels.core.enums import Ability, Amulet, Deck, DieSrc, Ev, Opt, Space
from sim.games.tokaido.referee.crossroads import Crossroads
from sim.games.tokaido.referee.replay import Step
from sim.games.tokaido.referee.state import Event, Illegal, InnVisit, TravelerState, amulet_kind

MT_ABILITIES = {Ability.KUSHINADA: "kushinada", Ability.MISAKI: "misaki", Ability.TAKERU: "takeru",
                Ability.MUSUBI: "musubi"}


class MatsuriTravelers(Crossroads):
    """The 16 Matsuri Travelers' abilities (those the engine plays; see docs/rules.md MT1..)."""

    if TYPE_CHECKING:  # defined by ``Stations``, above this class in the referee's stack
        def _hot_spring(self, tr: TravelerState, why: str) -> Step: ...
        def _eat(self, tr: TravelerState, card: int, why: str) -> None: ...
        def _village(self, tr: TravelerState, draw: int | None = None) -> Step: ...

    # ------------------------------------------------------------ departures
    def _mutsumi(self, t: int) -> Generator[None, Event, int]:
        """Mutsumi may leave an Inn first (all but the last), asked when the whole group is there."""
        st = self.state
        behind = st.travelers[t]
        pos = behind.pos
        if st.board[pos] != Space.INN or pos == st.last or any(tr.pos != pos for tr in st.travelers):
            return t
        for tr in st.players():
            if tr.ability == Ability.MUTSUMI and tr is not behind and (yield from self._option(tr, Opt.MUTSUMI)):
                self._note("mutsumi leaves first")
                return tr.index
        return t

    # ------------------------------------------------------------ Rakuren's Shop
    def _rakuren(self, tr: TravelerState) -> Generator[None, Event, bool]:
        """MT-Rakuren: at a Shop he may, instead of the usual actions, draw RAKUREN_SOUVENIRS souvenirs and
        a random Legendary Object of the market (none left: the souvenirs only), then buy any of them:
        the souvenirs one by one as at any Shop (the rest under the pile), then the Legendary Object at
        its price (left, it stays in the market). True when he used the ability."""
        if tr.neutral or tr.ability != Ability.RAKUREN or not (yield from self._option(tr, Opt.RAKUREN)):
            return False
        market = self._market(Deck.LEGENDARY)
        legend = None
        if market and self.params["RAKUREN_LEGENDARY"]:
            ev = yield from self._take(Ev.MT_LEGEND, tr, "rakuren's random legendary object")
            if ev.a not in market:
                raise Illegal(ev, f"legendary object {ev.a} is not in the market ({sorted(market)})")
            legend = int(ev.a)
            self._note(f"rakuren turns up {self.state.card_name(Deck.LEGENDARY, legend)}")
        yield from self._village(tr, self.params["RAKUREN_SOUVENIRS"])
        if legend is not None and self._legendary_price(tr, legend) <= tr.coins:
            if (yield from self._option(tr, Opt.RAKUREN_BUY)):
                yield from self._legendary_object(tr)
                if tr.legendary[-1] != legend:
                    raise Illegal(ev, f"rakuren bought legendary object {tr.legendary[-1]}, not {legend}, the one drawn")
        return True

    # ------------------------------------------------------------ coins moved by an ability
    def _mt_coin(self, tr: TravelerState, ability: int, coins: int, source: TravelerState | None,
                 why: str) -> Step:
        """``MT_COIN(t, coins, from, ability)``: ``source`` None is the bank."""
        ev = yield from self._take(Ev.MT_COIN, tr, f"{MT_ABILITIES[ability]}'s coins ({why})")
        want = -1 if source is None else source.index
        if (ev.a, ev.b, ev.c) != (coins, want, ability):
            raise Illegal(ev, f"{tr.name} takes {coins} coins from {'the bank' if source is None else source.name}"
                              f" ({why}), not ({ev.a}, {ev.b}, {ev.c})")
        if source is not None:
            self._coins(source, -coins, f"to {tr.name}")
        self._coins(tr, coins, why)

    def _payer(self, other: TravelerState | None, coins: int) -> TravelerState | None:
        """Who pays a coin an ability takes from ``other``: the bank for the Neutral, an empty purse or nobody."""
        if other is None or other.neutral or other.coins < coins:
            return None
        return other

    # ------------------------------------------------------------ set-up
    def _kushinada_setup(self, start: dict[int, int]) -> Step:
        """002:L608-610: every other traveler gives her a coin (2 players: the opponent and the bank)."""
        st = self.state
        k = self.params["KUSHINADA_COINS"]
        for tr in st.players():
            if tr.ability != Ability.KUSHINADA:
                continue
            for other in st.travelers:
                if other is tr:
                    continue
                payer = None if other.neutral or start[other.index] < k else other
                ev = yield from self._take(Ev.MT_COIN, tr, "kushinada's coin")
                want = (k, -1 if payer is None else payer.index, Ability.KUSHINADA)
                if (ev.a, ev.b, ev.c) != want:
                    raise Illegal(ev, f"kushinada takes {want[0]} from {payer.name if payer else 'the bank'} "
                                      f"for {other.name}, not ({ev.a}, {ev.b}, {ev.c})")
                if payer is not None:
                    start[payer.index] -= k
                start[tr.index] += k

    # ------------------------------------------------------------ station stops
    def _watchers(self, tr: TravelerState, kind: int) -> Step:
        """Misaki / Takeru: a bank coin each time any player's traveler stops at a Temple / an Encounter.
        The Neutral's stops trigger nothing (M29: "Neutral movements have no effect except at Temple and Inn
        spaces", seed 000); ``matsuri.choices.neutral_triggers_watchers``: its Temple stops pay Misaki."""
        watcher = {Space.TEMPLE: Ability.MISAKI, Space.ENCOUNTER: Ability.TAKERU}.get(kind)
        neutral_ok = kind == Space.TEMPLE and bool(self.rules.raw["matsuri"]["choices"]["neutral_triggers_watchers"])
        if watcher is None or (tr.neutral and not neutral_ok):
            return
        for w in self.state.players():
            if w.ability == watcher:
                yield from self._mt_coin(w, watcher, self.params["WATCHER_COINS"], None, f"{tr.name} stops")

    def _temple_points(self, tr: TravelerState, coins: int) -> int:
        """Mari scores MARI_TEMPLE_MULT points per coin donated at a Temple stop (002:L611)."""
        return coins * (self.params["MARI_TEMPLE_MULT"] if tr.ability == Ability.MARI else 1)

    def _devotion_points(self, tr: TravelerState, coins: int) -> int:
        double = tr.ability == Ability.MARI and self.params["MARI_DOUBLE_DEVOTION"]
        return coins * (self.params["MARI_TEMPLE_MULT"] if double else 1)

    def _amulet_price(self, tr: TravelerState) -> int:
        """Mari's Amulet at a Temple is free (002:L612)."""
        return 0 if tr.ability == Ability.MARI else self.params["AMULET_COST"]

    def _legendary_price(self, tr: TravelerState, card: int) -> int:
        cost = self.rules.legendary[card].cost
        return max(0, cost - self.params["TITIA_DISCOUNT"]) if tr.ability == Ability.TITIA else cost

    def _souvenir_price(self, tr: TravelerState, card: int) -> int:
        """Printed cost; Ayumu: Small objects free; Titia: Art souvenirs 1 less."""
        s = self.rules.souvenirs[card]
        if tr.ability == Ability.AYUMU and s.family == self.params["AYUMU_FREE_FAMILY"]:
            return 0
        if tr.ability == Ability.TITIA and s.family == self.params["TITIA_FAMILY"]:
            return max(0, s.cost - self.params["TITIA_DISCOUNT"])
        return s.cost

    def _farm_bonus(self, tr: TravelerState) -> None:
        if tr.ability == Ability.IYASAKA:
            self._coins(tr, self.params["IYASAKA_FARM_BONUS"], "iyasaka")

    def _iyasaka_reroll(self, tr: TravelerState, bet: int, face: int) -> Generator[None, Event, int]:
        """002:L602: at the Gaming Room he may roll once more and must keep the second result."""
        if tr.ability != Ability.IYASAKA or not (yield from self._option(tr, Opt.IYASAKA)):
            return face
        second = yield from self._die(tr, bet, DieSrc.IYASAKA)
        self._note(f"iyasaka re-rolls x{face}: x{second}")
        return second

    # ------------------------------------------------------------ Inns
    def _mt_arrival(self, tr: TravelerState, inn: InnVisit) -> Step:
        """Arrival abilities at an intermediate Inn, before the meal (A5)."""
        st = self.state
        if not tr.neutral and tr.ability == Ability.CHIHAYA:
            yield from self._hot_spring(tr, "chihaya")
        elif not tr.neutral and tr.ability == Ability.YASHIMA and st.amulet_market:
            card = yield from self._market_gain(tr, Deck.AMULET, 0, "yashima's free amulet")
            if card is not None:  # a free card: always gained (only Felicia comes away with nothing)
                tr.amulets.add(card)
                tr.amulets_acquired += 1
                if not self.params["YASHIMA_SAME_INN"]:
                    tr.amulets_new.add(card)  # MT-Yashima: not usable at the Inn where she gets it
        elif not tr.neutral and tr.ability == Ability.KIDZUNA and st.piles[Deck.MEAL]:
            yield from self._kidzuna(tr)
        if self.params["MUSUBI_TIMING"] == 0:
            yield from self._musubi_on_arrival(tr, inn)

    def _kidzuna(self, tr: TravelerState) -> Step:
        """002:L606-607: the top meal card revealed before her meal; she may buy it "at the indicated cost",
        which Cho-yo lowers by 1 at its Inn like every meal there (M24, MT-Kidzuna: "Cho-yo applies to both")."""
        st = self.state
        card = yield from self._draw(tr, Deck.MEAL, "kidzuna reveals the top meal card")
        cost = st.meal_price(tr, card)
        # MT-Kidzuna: with kidzuna_hospitality = "either" the Hospitality Amulet may make this meal free
        either = bool(self.params.get("KIDZUNA_HOSP_EITHER")) and any(
            amulet_kind(self.rules, a) == Amulet.HOSPITALITY for a in tr.amulets - tr.amulets_new)
        if st.can_eat(tr, card) and (tr.coins >= cost or either) and (yield from self._option(tr, Opt.KIDZUNA)):
            free = either and (yield from self._hospitality(tr))
            ev = yield from self._take(Ev.GAIN, tr, "kidzuna's extra meal")
            paid = 0 if free else cost
            if (ev.a, ev.b, ev.c) != (Deck.MEAL, card, paid) or paid > tr.coins:
                raise Illegal(ev, f"kidzuna buys the revealed meal {card} for {paid} of her {tr.coins} coins"
                                  f"{' (hospitality amulet)' if free else ''}, not ({ev.a}, {ev.b}, {ev.c})")
            self._coins(tr, -paid, "kidzuna's extra meal")
            self._eat(tr, card, "kidzuna's extra meal")
            printed = self.rules.meals[card].cost
            disc = {n for n, on in (("choyo", cost < printed), ("hospitality", free)) if on}
            yield from self._devotion(tr, paid, printed, frozenset(disc))
            return
        ev = yield from self._take(Ev.UNDER, None, "kidzuna's meal card left")
        self._under(ev, Deck.MEAL, [card])

    def _musubi_on_arrival(self, tr: TravelerState, inn: InnVisit) -> Step:
        """MT-Musubi: from the neighbour before him when he arrives, from the one after him when it arrives."""
        st = self.state
        order = inn.arrived
        prev = st.travelers[order[-2]] if len(order) >= 2 else None
        if tr.ability == Ability.MUSUBI and not tr.neutral:
            yield from self._mt_coin(tr, Ability.MUSUBI, 1, self._payer(prev, 1), "the neighbour before him")
        elif prev is not None and prev.ability == Ability.MUSUBI and not prev.neutral:
            yield from self._mt_coin(prev, Ability.MUSUBI, 1, self._payer(tr, 1), "the neighbour after him")
        if tr.ability == Ability.MUSUBI and not tr.neutral and len(order) == st.n_trav:
            yield from self._mt_coin(tr, Ability.MUSUBI, 1, None, "nobody after him")

    def _musubi_all_arrived(self, inn: InnVisit) -> Step:
        """``musubi_timing = "all_arrived"``: both coins once everyone is at the Inn and has eaten."""
        st = self.state
        order = [st.travelers[i] for i in inn.arrived]
        for k, tr in enumerate(order):
            if tr.ability != Ability.MUSUBI or tr.neutral:
                continue
            for j in (k - 1, k + 1):
                other = order[j] if 0 <= j < len(order) else None
                yield from self._mt_coin(tr, Ability.MUSUBI, 1, self._payer(other, 1), "a neighbour")

    def _kamui(self, tr: TravelerState, meals: int, coins: int) -> None:
        """002:L603-605: +3 points at an Inn where he buys no meal (MT-Kamui: a free meal card counts as one)."""
        if tr.ability != Ability.KAMUI:
            return
        ate = len(tr.meals) > meals
        bought = tr.coins < coins  # a meal card paid for
        if not ate or (not bought and not self.params["KAMUI_FREE_CANCELS"]):
            self._score(tr, "pts_other", self.params["KAMUI_POINTS"], "kamui goes without a meal")

    # ------------------------------------------------------------ end
    def _marihito(self, tr: TravelerState, points: list[int]) -> None:
        """002:L613-615: one Calligraphy card scores twice (he doubles the best)."""
        if tr.ability == Ability.MARIHITO and points:
            extra = max(points) * (self.params["MARIHITO_TIMES"] - 1)
            self._score(tr, "pts_calligraphy", extra, f"marihito scores his best calligraphy ({max(points)}) again")

    def _suseri(self) -> None:
        """MT-Suseri: a point per card type held at the end, of 12."""
        for tr in self.state.players():
            if tr.ability != Ability.SUSERI:
                continue
            held = (tr.hot_springs, tr.bathhouses, tr.souvenirs, tr.legendary, tr.encounters, tr.calligraphy,
                    tr.amulets, tr.meals, *tr.panorama, tr.cherry_trees)
            types = sum(1 for h in held if h)
            self._score(tr, "pts_other", self.params["SUSERI_POINTS"] * types, f"suseri: {types} card types")
