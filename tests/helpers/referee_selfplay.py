"""A random legal-game generator for the referee tests (``SelfPlay``): it writes a log following
docs/log-format.md, choosing among the moves the referee's own state allows (with Crossroads too:
options, markets, Amulet uses), and the referee checks it event by event."""

from __future__ import annotations

import random

import numpy as np

from kernels.tokaido.core.enums import Ability, Amulet, Deck, DieSrc, Enc, Ev, Opt, Space
from sim.games.tokaido.referee.game import Referee
from sim.games.tokaido.referee.state import PANORAMA_SPACES, TravelerState, amulet_kind
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules
from tests.helpers.referee_logs import Row, ev


class SelfPlay:
    """A random legal game, written as a log and checked by the referee event by event."""

    def __init__(
        self, config: GameConfig, rules: Rules, seed: int, prefer: tuple[int, ...] = (), alt: float = 0.5
    ) -> None:
        self.config, self.rules, self.p = config, rules, rules.params
        self.rng = random.Random(seed)
        self.prefer = prefer  # space types to stop at whenever possible (to empty the piles)
        self.ref = Referee(config, rules)
        self.st = self.ref.state
        self.events: list[Row] = []
        self.xr = rules.crossroads
        self.alt = alt  # Crossroads: chance of taking a station's alternative when it is possible
        self.again: int | None = None  # Vitality: this traveler moves again

    def emit(self, kind: int, t: int = -1, a: int = -1, b: int = -1, c: int = -1) -> None:
        row = ev(kind, t, a, b, c)
        self.events.append(row)
        assert self.ref.feed(row), self.ref.errors

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def play(self) -> np.ndarray:
        self.setup()
        while True:
            t, self.again = (self.again, None) if self.again is not None else (self.st.next_traveler(), None)
            if t is None:
                break
            self.turn(self.st.travelers[t])
        self.emit(Ev.END)
        assert self.ref.finished
        return np.array(self.events, np.int16)

    def setup(self) -> None:
        st, rng = self.st, self.rng
        for d, size in enumerate(st.deck_sizes):
            for c in rng.sample(range(size), size):
                self.emit(Ev.DECK, -1, d, c)
        if self.xr:
            k = self.rules.crossroads_cards[st.n_players]
            sizes = {
                Deck.LEGENDARY: len(self.rules.legendary),
                Deck.AMULET: len(self.rules.amulets),
                Deck.CALLIGRAPHY: len(self.rules.calligraphy),
            }
            for deck, size in sizes.items():
                for c in rng.sample(range(size), min(k, size)):
                    self.emit(Ev.MARKET, -1, deck, c, 1)
            self.emit(Ev.MARKET, -1, Deck.CHERRY, -1, k)
            self.emit(Ev.MARKET, -1, Deck.BATHHOUSE, -1, k)
        n, mode = st.n_players, st.traveler_mode
        pool = rng.sample(range(len(self.rules.travelers)), len(self.rules.travelers))
        if mode == "draft":
            deals = [(pool[2 * p], pool[2 * p + 1]) for p in range(n)]
        elif mode == "random":
            deals = [(pool[p], -1) for p in range(n)]
        elif mode == "fixed":
            deals = [(i, -1) for i in st.fixed_travelers()]
        else:
            deals = []
        for p, (a, b) in enumerate(deals):
            self.emit(Ev.DEAL, p, a, b)
        for p, (a, b) in enumerate(deals):
            self.emit(Ev.KEEP, p, rng.choice([a, b]) if b >= 0 else a)
        orders = rng.sample(range(st.n_trav), st.n_trav)
        for t, order in enumerate(orders):
            self.emit(Ev.LINEUP, t, order)
        seats = sorted(range(n), key=lambda p: orders[p])
        for p in range(n):
            coins = self.p["INITIATION_COINS"] if mode == "none" else self.rules.travelers[deals[p][0]].coins
            if mode == "draft":
                coins = self.rules.travelers[st.travelers[p].traveler_id].coins
            if "preparations" in self.config.variants:
                coins += self.rules.preparations[n][seats.index(p)]
            self.emit(Ev.COINS, p, max(0, coins))
        if self.xr and self.p["START_AMULET"]:
            cost = self.p["START_AMULET_COST"]
            for tr in sorted(st.players(), key=lambda x: x.seat):
                if tr.coins >= cost and st.amulet_market:
                    yes = self.chance(0.5)
                    self.emit(Ev.OPTION, tr.index, Opt.START_AMULET, int(yes))
                    if yes:
                        self.emit(Ev.GAIN, tr.index, Deck.AMULET, rng.choice(st.amulet_market), cost)

    # ------------------------------------------------------------ Crossroads helpers
    def usable(self, tr: TravelerState, kind: int) -> int | None:
        """The card id of an Amulet of ``kind`` that ``tr`` may use now, or None."""
        for c in sorted(tr.amulets - tr.amulets_new):
            if amulet_kind(self.rules, c) == kind:
                return c
        return None

    def use(self, tr: TravelerState, kind: int, p: float, arg: int = -1) -> bool:
        card = self.usable(tr, kind) if self.xr else None
        if card is None or not self.chance(p):
            return False
        self.emit(Ev.USE, tr.index, card, arg)
        return True

    def devotion(self, tr: TravelerState, paid: int) -> None:
        if paid > 0:
            self.use(tr, Amulet.DEVOTION, 0.5, paid)

    def die(self, tr: TravelerState, bet: int, source: int) -> None:
        self.emit(Ev.DIE, tr.index, self.rng.choice(self.rules.fortune_die), bet, source)

    def choose_option(self, tr: TravelerState, kind: int) -> int:
        possible = self.ref.crossroads.why_no_alternative(tr, kind) is None
        both = (kind == Space.ENCOUNTER and tr.ability == Ability.KITA) or (
            kind == Space.TEMPLE and tr.ability == Ability.MIYATAKA
        )
        if possible and self.use(tr, Amulet.HEALTH, 0.6):
            option = 2 + int(self.chance(0.5))  # both options, in either order (C27)
        elif both and self.chance(0.6):  # Kita, Miyataka: the alternative may become possible after the base
            option = 3 if possible and self.chance(0.5) else 2
        else:
            option = int(possible and self.chance(self.alt))
        self.emit(Ev.CHOICE, tr.index, kind, option)
        return option

    def second(self, tr: TravelerState, kind: int, alternative: bool) -> bool:
        """The second of two actions: possible now? then asked (C42) when it may be declined."""
        why = (
            self.ref.crossroads.why_no_alternative(tr, kind) if alternative else self.st.why_no_base(tr, kind)
        )
        if why is not None:
            return False
        if not self.rules.raw["crossroads"]["second_action_optional"]:
            return True
        yes = self.chance(0.8)
        self.emit(Ev.OPTION, tr.index, Opt.SECOND, int(yes))
        return yes

    def alternative(self, tr: TravelerState, kind: int) -> None:
        st, p = self.st, self.p
        if kind in PANORAMA_SPACES:
            self.emit(Ev.GAIN, tr.index, Deck.CHERRY, -1, 0)
        elif kind == Space.HOT_SPRING:
            self.emit(Ev.GAIN, tr.index, Deck.BATHHOUSE, -1, p["BATH_COST"])
            self.devotion(tr, p["BATH_COST"])
        elif kind == Space.VILLAGE:
            lo = self.rng.choice([c for c in st.legendary_market if self.rules.legendary[c].cost <= tr.coins])
            cost = self.rules.legendary[lo].cost
            self.emit(Ev.GAIN, tr.index, Deck.LEGENDARY, lo, cost)
            self.devotion(tr, cost)
        elif kind == Space.FARM:
            self.die(tr, p["GAMING_BET"], DieSrc.GAMING_ROOM)
        elif kind == Space.TEMPLE:
            self.emit(Ev.GAIN, tr.index, Deck.AMULET, self.rng.choice(st.amulet_market), p["AMULET_COST"])
            self.devotion(tr, p["AMULET_COST"])
        elif kind == Space.ENCOUNTER:
            self.emit(
                Ev.GAIN, tr.index, Deck.CALLIGRAPHY, self.rng.choice(st.calligraphy_market), p["CALLI_COST"]
            )
            self.devotion(tr, p["CALLI_COST"])

    def turn(self, tr: TravelerState) -> None:
        st = self.st
        friendship = False
        if self.xr and not tr.neutral:
            if self.use(tr, Amulet.FORTUNE, 0.7):
                self.die(tr, 0, DieSrc.FORTUNE)
            if self.usable(tr, Amulet.FRIENDSHIP) is not None and st.legal_destinations(tr.index, True):
                friendship = self.use(tr, Amulet.FRIENDSHIP, 0.7)
        dests = st.legal_destinations(tr.index, friendship)
        liked = [d for d in dests if st.board[d] in self.prefer]
        if friendship:
            dest = self.rng.choice(dests)
        elif liked and self.chance(0.95):
            dest = liked[0]
        else:
            dest = self.rng.choice(dests[:3] if self.chance(0.8) else dests)
        self.emit(Ev.MOVE, tr.index, dest, st.lead_player() if tr.neutral else tr.index)
        kind = st.board[dest]
        option = 0
        if self.xr and not tr.neutral and kind != Space.INN:
            option = self.choose_option(tr, kind)
        hirotada = kind == Space.TEMPLE and tr.ability == Ability.HIROTADA
        if option == 1 and hirotada:
            self.emit(Ev.DONATE, tr.index, 0, self.p["HIROTADA_COIN"] if self.chance(0.8) else 0)
        if option == 3:  # the alternative first, then the base action if still possible and wanted
            self.alternative(tr, kind)
            if self.second(tr, kind, alternative=False):
                self.base_action(tr, kind)
            elif hirotada:
                self.emit(Ev.DONATE, tr.index, 0, self.p["HIROTADA_COIN"] if self.chance(0.8) else 0)
        if option in (0, 2):
            self.base_action(tr, kind)
        if option == 1 or (option == 2 and self.second(tr, kind, alternative=True)):
            self.alternative(tr, kind)
        if (
            self.xr
            and not tr.neutral
            and kind != Space.INN
            and st.alone_in_lead(tr)
            and self.use(tr, Amulet.VITALITY, 0.8)
        ):
            self.again = tr.index

    def base_action(self, tr: TravelerState, kind: int) -> None:
        if kind == Space.INN:
            self.inn(tr)
        elif tr.neutral:
            if kind == Space.TEMPLE:
                self.emit(Ev.DONATE, tr.index, 0, self.p["NEUTRAL_BANK_COIN"])
        elif kind == Space.VILLAGE:
            self.village(tr)
        elif kind in PANORAMA_SPACES:
            self.emit(Ev.PANORAMA, tr.index, PANORAMA_SPACES[kind], 0)
        elif kind == Space.HOT_SPRING:
            self.hot_spring(tr)
        elif kind == Space.TEMPLE:
            bank = self.p["HIROTADA_COIN"] if tr.ability == Ability.HIROTADA and self.chance(0.8) else 0
            self.emit(Ev.DONATE, tr.index, self.rng.randint(1, min(3, tr.coins)), bank)
        elif kind == Space.ENCOUNTER:
            self.encounter(tr)

    def draw(self, tr: TravelerState, deck: int, n: int) -> list[int]:
        cards = self.st.piles[deck].peek(n)
        for c in cards:
            self.emit(Ev.DRAW, tr.index, deck, c)
        return cards

    def village(self, tr: TravelerState) -> None:
        cards = self.draw(tr, Deck.SOUVENIR, 3)
        buy = [c for c in cards if self.chance(0.5)]
        cost = {c: self.rules.souvenirs[c].cost for c in cards}
        while True:
            price = dict(cost)
            if tr.ability == Ability.SASAYAKKO and len(buy) >= 2:
                price[min(buy, key=lambda c: cost[c])] = 0
            if tr.ability == Ability.ZEN_EMON and buy:
                top = max(buy, key=lambda c: cost[c])
                price[top] = min(cost[top], self.p["ZEN_EMON_PRICE"])
            need = sum(cost[c] if tr.ability == Ability.SASAYAKKO else price[c] for c in buy)
            if need <= tr.coins:
                break
            buy.remove(self.rng.choice(buy))
        self.rng.shuffle(buy)
        for c in buy:
            self.emit(Ev.GAIN, tr.index, Deck.SOUVENIR, c, price[c])
            if self.xr:
                self.devotion(tr, self.events[-1][4])
        for c in cards:
            if c not in buy:
                self.emit(Ev.UNDER, -1, Deck.SOUVENIR, c)

    def hot_spring(self, tr: TravelerState) -> None:
        for h in self.draw(tr, Deck.HOT_SPRING, 1):
            self.emit(Ev.GAIN, tr.index, Deck.HOT_SPRING, h, 0)

    def encounter(self, tr: TravelerState) -> None:
        if not self.st.piles[Deck.ENCOUNTER]:
            return
        drawn = self.draw(tr, Deck.ENCOUNTER, 2 if tr.ability == Ability.YOSHIYASU else 1)
        kept = self.rng.choice(drawn)
        self.emit(Ev.GAIN, tr.index, Deck.ENCOUNTER, kept, 0)
        for e in drawn:
            if e != kept:
                self.emit(Ev.UNDER, -1, Deck.ENCOUNTER, e)
        self.effect(tr, kept)

    def option(self, tr: TravelerState, opt: int) -> bool:
        yes = self.chance(0.7)
        self.emit(Ev.OPTION, tr.index, opt, int(yes))
        return yes

    def effect(self, tr: TravelerState, card: int) -> None:
        st, p, enc = self.st, self.p, self.rules.encounters[card]
        incomplete = st.incomplete_panoramas(tr)
        if enc.kind == Enc.SHOKUNIN:
            for s in self.draw(tr, Deck.SOUVENIR, 1):
                self.emit(Ev.GAIN, tr.index, Deck.SOUVENIR, s, 0)
        elif enc.kind == Enc.ANNAIBITO and enc.panorama in incomplete:
            self.emit(Ev.PANORAMA, tr.index, enc.panorama, 1)
        elif enc.kind == Enc.ANNAIBITO and incomplete and self.option(tr, Opt.ANNAIBITO):  # optional
            self.emit(Ev.PANORAMA, tr.index, self.rng.choice(incomplete), 1)
        elif enc.kind == Enc.ITAMAE:
            if tr.coins >= p["ITAMAE_COST"] and st.piles[Deck.MEAL] and self.option(tr, 0):
                (m,) = self.draw(tr, Deck.MEAL, 1)
                if st.can_eat(tr, m):
                    self.emit(Ev.GAIN, tr.index, Deck.MEAL, m, 0)
                else:
                    self.emit(Ev.UNDER, -1, Deck.MEAL, m)
            else:  # not paid: under the Encounter pile (seed 002)
                self.emit(Ev.UNDER, -1, Deck.ENCOUNTER, card)
        elif enc.kind == Enc.KITOUSHI:
            if tr.coins >= p["KITOUSHI_COST"] and incomplete and self.option(tr, 1):
                self.emit(Ev.PANORAMA, tr.index, self.rng.choice(incomplete), 3)
            else:
                self.emit(Ev.UNDER, -1, Deck.ENCOUNTER, card)
        elif enc.kind == Enc.SARU:
            self.hot_spring(tr)
        elif enc.kind == Enc.TAKUHATSUSO:
            if not (tr.coins >= p["TAKUHATSUSO_COST"] and self.option(tr, 2)):
                self.emit(Ev.UNDER, -1, Deck.ENCOUNTER, card)

    def inn(self, tr: TravelerState) -> None:
        st = self.st
        inn = st.inns[tr.pos]
        ate = False
        if st.is_intermediate_inn(tr.pos) and not tr.neutral:
            incomplete = st.incomplete_panoramas(tr)
            if tr.ability == Ability.HIROSHIGE and incomplete:
                self.emit(Ev.PANORAMA, tr.index, self.rng.choice(incomplete), 2)
            if tr.ability == Ability.CHUUBEI:
                meals = len(tr.meals)
                self.encounter(tr)
                ate = len(tr.meals) > meals  # Itamae's meal is his one meal at this Inn
            if tr.ability == Ability.DAIGORO:
                for s in self.draw(tr, Deck.SOUVENIR, 1):
                    self.emit(Ev.GAIN, tr.index, Deck.SOUVENIR, s, 0)
            if (
                tr.ability == Ability.JIROCHO
                and tr.coins >= self.p["JIROCHO_BET"]
                and self.option(tr, Opt.JIROCHO)
            ):
                self.die(tr, self.p["JIROCHO_BET"], DieSrc.JIROCHO)
        if len(inn.arrived) == 1:
            self.draw(tr, Deck.MEAL, st.n_trav + self.p["HAND_EXTRA"])
        if tr.neutral:
            if inn.hand:
                m = self.rng.choice(inn.hand)
                self.emit(Ev.OFFER, tr.index, m)
                self.emit(Ev.UNDER, -1, Deck.MEAL, m)
        elif not ate:
            offered = None
            if tr.ability == Ability.SATSUKI and inn.hand:
                offered = self.rng.choice(inn.hand)
                self.emit(Ev.OFFER, tr.index, offered)
            edible = [m for m in inn.hand if st.can_eat(tr, m)]
            if offered is not None and st.can_eat(tr, offered) and self.chance(0.7):
                self.emit(Ev.GAIN, tr.index, Deck.MEAL, offered, 0)
            elif edible and self.use(tr, Amulet.HOSPITALITY, 0.8):
                self.emit(Ev.GAIN, tr.index, Deck.MEAL, self.rng.choice(edible), 0)
            else:
                menu = [m for m in inn.hand if st.can_eat(tr, m) and st.meal_price(tr, m) <= tr.coins]
                if menu and self.chance(0.85):
                    m = self.rng.choice(menu)
                    self.emit(Ev.GAIN, tr.index, Deck.MEAL, m, st.meal_price(tr, m))
                    if self.xr:
                        self.devotion(tr, st.meal_price(tr, m))
        if len(inn.arrived) == st.n_trav:
            for m in list(inn.hand):
                self.emit(Ev.UNDER, -1, Deck.MEAL, m)
