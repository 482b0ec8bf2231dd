"""The referee's Matsuri Travelers (seed 002 "Travelers Matsuri", expansions.md A.9, docs/rules-choices.md
MT-*).

Written from the rulebook and the research file, not from the kernels. The handler is built for
every game (Titia and Yashima also come as promos), and the turn (``game.py``), the stations and the
end scoring call its hooks at the moments the rules name:

* set-up: Kushinada collects a coin from every other traveler (the bank pays for the Neutral
  and for an empty purse), after Preparations, before the start Amulets (MT-Kushinada);
* any player's station stop: Misaki (Temple) and Takeru (Encounter) take bank coins, before the
  space's action (MT-Misaki/Takeru; the Neutral's stops trigger nothing, M29, unless chosen so);
* arrival at an intermediate Inn, before the meal (A5): Chihaya's Hot Spring card, Yashima's
  free Amulet, Musubi's coins from his arrival neighbours;
* after an Inn meal (all four Inns after the start): Kamui's points when he ate nothing;
* Iyasaka's Farm coin (the prices the abilities change are in ``prices.py``; Iyasaka's Gaming Room
  re-roll and Marihito's Calligraphy in ``crossroads.py``);
* a Shop stop: Rakuren may draw 4 souvenirs and a random Legendary Object instead (MT-Rakuren);
* the end: Suseri's card types.
"""

from __future__ import annotations

from collections.abc import Generator

from kernels.tokaido.core.enums import Ability, Amulet, Deck, Ev, Opt, Space
from sim.games.tokaido.referee.amulets import Amulets
from sim.games.tokaido.referee.context import Replay, StationActions, Step
from sim.games.tokaido.referee.crossroads import Crossroads
from sim.games.tokaido.referee.prices import legendary_price
from sim.games.tokaido.referee.state import Event, Illegal, InnVisit, TravelerState, amulet_kind

MT_ABILITIES = {
    Ability.KUSHINADA: "kushinada",
    Ability.MISAKI: "misaki",
    Ability.TAKERU: "takeru",
    Ability.MUSUBI: "musubi",
}


class MatsuriTravelers:
    """The 16 Matsuri Travelers' abilities (those the engine plays; see docs/rules.md MT1..)."""

    stations: StationActions  # Chihaya's, Rakuren's and Kidzuna's station actions; set by ``Referee``

    def __init__(self, ctx: Replay, crossroads: Crossroads | None) -> None:
        self.ctx, self.state, self.rules, self.params = ctx, ctx.state, ctx.rules, ctx.params
        self.crossroads = crossroads  # Yashima's Amulet, Rakuren's Legendary Object
        self.amulets: Amulets | None = (
            crossroads.amulets if crossroads is not None else None
        )  # Kidzuna's meal

    # ------------------------------------------------------------ departures
    def mutsumi(self, t: int) -> Generator[None, Event, int]:
        """Mutsumi may leave an Inn first (all but the last), asked when the whole group is there."""
        st = self.state
        behind = st.travelers[t]
        pos = behind.pos
        if st.board[pos] != Space.INN or pos == st.last or any(tr.pos != pos for tr in st.travelers):
            return t
        for tr in st.players():
            if (
                tr.ability == Ability.MUTSUMI
                and tr is not behind
                and (yield from self.ctx.option(tr, Opt.MUTSUMI))
            ):
                self.ctx.note("mutsumi leaves first")
                return tr.index
        return t

    # ------------------------------------------------------------ Rakuren's Shop
    def rakuren(self, tr: TravelerState) -> Generator[None, Event, bool]:
        """MT-Rakuren: at a Shop he may, instead of the usual actions, draw RAKUREN_SOUVENIRS souvenirs and
        a random Legendary Object of the market (none left: the souvenirs only), then buy any of them:
        the souvenirs one by one as at any Shop (the rest under the pile), then the Legendary Object at
        its price (left, it stays in the market). True when he used the ability."""
        if tr.neutral or tr.ability != Ability.RAKUREN or not (yield from self.ctx.option(tr, Opt.RAKUREN)):
            return False
        market = self.state.legendary_market
        legend = None
        if market and self.params["RAKUREN_LEGENDARY"]:
            ev = yield from self.ctx.take(Ev.MT_LEGEND, tr, "rakuren's random legendary object")
            if ev.a not in market:
                raise Illegal(ev, f"legendary object {ev.a} is not in the market ({sorted(market)})")
            legend = int(ev.a)
            self.ctx.note(f"rakuren turns up {self.state.card_name(Deck.LEGENDARY, legend)}")
        yield from self.stations.village(tr, self.params["RAKUREN_SOUVENIRS"])
        if (
            legend is not None
            and self.crossroads is not None
            and legendary_price(self.rules, tr, legend) <= tr.coins
        ):
            if (yield from self.ctx.option(tr, Opt.RAKUREN_BUY)):
                yield from self.crossroads.legendary_object(tr)
                if tr.legendary[-1] != legend:
                    raise Illegal(
                        ev, f"rakuren bought legendary object {tr.legendary[-1]}, not {legend}, the one drawn"
                    )
        return True

    # ------------------------------------------------------------ coins moved by an ability
    def _mt_coin(
        self, tr: TravelerState, ability: int, coins: int, source: TravelerState | None, why: str
    ) -> Step:
        """``MT_COIN(t, coins, from, ability)``: ``source`` None is the bank."""
        ev = yield from self.ctx.take(Ev.MT_COIN, tr, f"{MT_ABILITIES[ability]}'s coins ({why})")
        want = -1 if source is None else source.index
        if (ev.a, ev.b, ev.c) != (coins, want, ability):
            raise Illegal(
                ev,
                f"{tr.name} takes {coins} coins from {'the bank' if source is None else source.name}"
                f" ({why}), not ({ev.a}, {ev.b}, {ev.c})",
            )
        if source is not None:
            self.ctx.coins(source, -coins, f"to {tr.name}")
        self.ctx.coins(tr, coins, why)

    def _payer(self, other: TravelerState | None, coins: int) -> TravelerState | None:
        """Who pays a coin an ability takes from ``other``: the bank for the Neutral, an empty purse or
        nobody."""
        if other is None or other.neutral or other.coins < coins:
            return None
        return other

    # ------------------------------------------------------------ set-up
    def kushinada_setup(self, start: dict[int, int]) -> Step:
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
                ev = yield from self.ctx.take(Ev.MT_COIN, tr, "kushinada's coin")
                want = (k, -1 if payer is None else payer.index, Ability.KUSHINADA)
                if (ev.a, ev.b, ev.c) != want:
                    raise Illegal(
                        ev,
                        f"kushinada takes {want[0]} from {payer.name if payer else 'the bank'} "
                        f"for {other.name}, not ({ev.a}, {ev.b}, {ev.c})",
                    )
                if payer is not None:
                    start[payer.index] -= k
                start[tr.index] += k

    # ------------------------------------------------------------ station stops
    def watchers(self, tr: TravelerState, kind: int) -> Step:
        """Misaki / Takeru: a bank coin each time any player's traveler stops at a Temple / an Encounter.
        The Neutral's stops trigger nothing (M29: "Neutral movements have no effect except at Temple and Inn
        spaces", seed 000); ``matsuri.choices.neutral_triggers_watchers``: its Temple stops pay Misaki."""
        watcher = {Space.TEMPLE: Ability.MISAKI, Space.ENCOUNTER: Ability.TAKERU}.get(kind)
        neutral_ok = kind == Space.TEMPLE and bool(
            self.rules.raw["matsuri"]["choices"]["neutral_triggers_watchers"]
        )
        if watcher is None or (tr.neutral and not neutral_ok):
            return
        for w in self.state.players():
            if w.ability == watcher:
                yield from self._mt_coin(w, watcher, self.params["WATCHER_COINS"], None, f"{tr.name} stops")

    def farm_bonus(self, tr: TravelerState) -> None:
        if tr.ability == Ability.IYASAKA:
            self.ctx.coins(tr, self.params["IYASAKA_FARM_BONUS"], "iyasaka")

    # ------------------------------------------------------------ Inns
    def mt_arrival(self, tr: TravelerState, inn: InnVisit) -> Step:
        """Arrival abilities at an intermediate Inn, before the meal (A5)."""
        st = self.state
        if not tr.neutral and tr.ability == Ability.CHIHAYA:
            yield from self.stations.hot_spring(tr, "chihaya")
        elif (
            not tr.neutral
            and tr.ability == Ability.YASHIMA
            and st.amulet_market
            and self.crossroads is not None
        ):
            card = yield from self.crossroads.market_gain(tr, Deck.AMULET, 0, "yashima's free amulet")
            if card is not None:  # a free card: always gained (only Felicia comes away with nothing)
                tr.amulets.add(card)
                tr.amulets_acquired += 1
                if not self.params["YASHIMA_SAME_INN"]:
                    tr.amulets_new.add(card)  # MT-Yashima: not usable at the Inn where she gets it
        elif not tr.neutral and tr.ability == Ability.KIDZUNA and st.piles[Deck.MEAL]:
            yield from self.kidzuna(tr)
        if self.params["MUSUBI_TIMING"] == 0:
            yield from self._musubi_on_arrival(tr, inn)

    def kidzuna(self, tr: TravelerState) -> Step:
        """002:L606-607: the top meal card revealed before her meal; she may buy it "at the indicated cost",
        which Cho-yo lowers by 1 at its Inn like every meal there (M24, MT-Kidzuna: "Cho-yo applies to
        both")."""
        st = self.state
        card = yield from self.ctx.draw(tr, Deck.MEAL, "kidzuna reveals the top meal card")
        cost = st.meal_price(tr, card)
        # MT-Kidzuna: with kidzuna_hospitality = "either" the Hospitality Amulet may make this meal free
        either = bool(self.params.get("KIDZUNA_HOSP_EITHER")) and any(
            amulet_kind(self.rules, a) == Amulet.HOSPITALITY for a in tr.amulets - tr.amulets_new
        )
        if (
            st.can_eat(tr, card)
            and (tr.coins >= cost or either)
            and (yield from self.ctx.option(tr, Opt.KIDZUNA))
        ):
            free = either and self.amulets is not None and (yield from self.amulets.hospitality(tr))
            ev = yield from self.ctx.take(Ev.GAIN, tr, "kidzuna's extra meal")
            paid = 0 if free else cost
            if (ev.a, ev.b, ev.c) != (Deck.MEAL, card, paid) or paid > tr.coins:
                raise Illegal(
                    ev,
                    f"kidzuna buys the revealed meal {card} for {paid} of her {tr.coins} coins"
                    f"{' (hospitality amulet)' if free else ''}, not ({ev.a}, {ev.b}, {ev.c})",
                )
            self.ctx.coins(tr, -paid, "kidzuna's extra meal")
            self.stations.eat(tr, card, "kidzuna's extra meal")
            printed = self.rules.meals[card].cost
            disc = {n for n, on in (("choyo", cost < printed), ("hospitality", free)) if on}
            if self.amulets is not None:  # Kidzuna comes with Matsuri, so with Crossroads
                yield from self.amulets.devotion(tr, paid, printed, frozenset(disc))
            return
        ev = yield from self.ctx.take(Ev.UNDER, None, "kidzuna's meal card left")
        self.ctx.under(ev, Deck.MEAL, [card])

    def _musubi_on_arrival(self, tr: TravelerState, inn: InnVisit) -> Step:
        """MT-Musubi: from the neighbour before him when he arrives, from the one after him when it
        arrives."""
        st = self.state
        order = inn.arrived
        prev = st.travelers[order[-2]] if len(order) >= 2 else None
        if tr.ability == Ability.MUSUBI and not tr.neutral:
            yield from self._mt_coin(tr, Ability.MUSUBI, 1, self._payer(prev, 1), "the neighbour before him")
        elif prev is not None and prev.ability == Ability.MUSUBI and not prev.neutral:
            yield from self._mt_coin(prev, Ability.MUSUBI, 1, self._payer(tr, 1), "the neighbour after him")
        if tr.ability == Ability.MUSUBI and not tr.neutral and len(order) == st.n_trav:
            yield from self._mt_coin(tr, Ability.MUSUBI, 1, None, "nobody after him")

    def musubi_all_arrived(self, inn: InnVisit) -> Step:
        """``musubi_timing = "all_arrived"``: both coins once everyone is at the Inn and has eaten."""
        st = self.state
        order = [st.travelers[i] for i in inn.arrived]
        for k, tr in enumerate(order):
            if tr.ability != Ability.MUSUBI or tr.neutral:
                continue
            for j in (k - 1, k + 1):
                other = order[j] if 0 <= j < len(order) else None
                yield from self._mt_coin(tr, Ability.MUSUBI, 1, self._payer(other, 1), "a neighbour")

    def kamui(self, tr: TravelerState, meals: int, coins: int) -> None:
        """002:L603-605: +3 points at an Inn where he buys no meal (MT-Kamui: a free meal card counts as
        one)."""
        if tr.ability != Ability.KAMUI:
            return
        ate = len(tr.meals) > meals
        bought = tr.coins < coins  # a meal card paid for
        if not ate or (not bought and not self.params["KAMUI_FREE_CANCELS"]):
            self.ctx.score(tr, "pts_other", self.params["KAMUI_POINTS"], "kamui goes without a meal")

    # ------------------------------------------------------------ end
    def suseri(self) -> None:
        """MT-Suseri: a point per card type held at the end, of 12."""
        for tr in self.state.players():
            if tr.ability != Ability.SUSERI:
                continue
            held = (
                tr.hot_springs,
                tr.bathhouses,
                tr.souvenirs,
                tr.legendary,
                tr.encounters,
                tr.calligraphy,
                tr.amulets,
                tr.meals,
                *tr.panorama,
                tr.cherry_trees,
            )
            types = sum(1 for h in held if h)
            self.ctx.score(
                tr, "pts_other", self.params["SUSERI_POINTS"] * types, f"suseri: {types} card types"
            )
