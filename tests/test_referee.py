"""The referee (sim/referee/game.py): scoring examples from the rulebook, hand-built logs, self-play.

Hand-built logs use small helpers (``setup_log``, ``ev``); full games come from a
random legal-game generator (``SelfPlay``) that writes a log following
docs/log-format.md, choosing among the moves the referee's own state allows
(with Crossroads too: options, markets, Amulet uses; tests/test_referee_crossroads.py).
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from kernels.core.enums import Ability, Amulet, Deck, DieSrc, Enc, Ev, Opt, Space
from sim.referee.game import Referee, explain_mismatch, referee_game
from sim.referee.scoring import achievement_winners, final_ranks, souvenir_collection_points, temple_bonus
from sim.referee.state import PANORAMA_SPACES, TravelerState, amulet_kind
from sim.rules.config import GameConfig
from sim.rules.tables import Rules

Row = tuple[int, int, int, int, int, int]


def ev(kind: int, t: int = -1, a: int = -1, b: int = -1, c: int = -1) -> Row:
    return (kind, t, a, b, c, -1)


@cache
def cfg(n: int = 3, travelers: str = "draft", variants: tuple[str, ...] = (), expansions: tuple[str, ...] = (),
        overrides: tuple[tuple[str, str], ...] = ()) -> tuple[GameConfig, Rules]:
    config = GameConfig(n_players=n, travelers=travelers, variants=variants, expansions=expansions,
                        overrides=overrides)
    return config, config.rules()


def setup_log(config: GameConfig, rules: Rules, decks: dict[int, list[int]] | None = None,
              lineup: list[int] | None = None) -> list[Row]:
    """DECK (identity order unless given; a given prefix is completed), DEAL/KEEP (fixed), LINEUP, COINS."""
    rows: list[Row] = []
    sizes = [len(rules.souvenirs), len(rules.meals), len(rules.hot_springs), len(rules.encounters)]
    for d, size in enumerate(sizes):
        order = list((decks or {}).get(d, []))
        order += [c for c in range(size) if c not in order]
        rows += [ev(Ev.DECK, -1, d, c) for c in order]
    n = config.n_players
    n_trav = n + (n == 2)
    initiation = "initiation" in config.variants
    ids = [] if initiation else [rules.traveler_index(x) for x in config.travelers.split(",")]
    rows += [ev(Ev.DEAL, p, i, -1) for p, i in enumerate(ids)]
    rows += [ev(Ev.KEEP, p, i) for p, i in enumerate(ids)]
    lineup = lineup or list(range(n_trav))  # lineup[t] = departure order of traveler t
    rows += [ev(Ev.LINEUP, t, lineup[t]) for t in range(n_trav)]
    seats = sorted(range(n), key=lambda p: lineup[p])
    for p in range(n):
        coins = 7 if initiation else rules.travelers[ids[p]].coins
        if "preparations" in config.variants:
            coins += rules.preparations[n][seats.index(p)]
        rows.append(ev(Ev.COINS, p, coins))
    return rows


def feed(config: GameConfig, rules: Rules, rows: list[Row]) -> Referee:
    ref = Referee(config, rules)
    ref.feed_all(rows)
    return ref


def assert_illegal(ref: Referee, index: int, *words: str) -> None:
    assert ref.errors, "the referee accepted an illegal log"
    err = ref.errors[0]
    assert err.startswith(f"event {index} "), err
    for w in words:
        assert w in err, err


# ====================================================================== scoring arithmetic
SMALL, FOOD, CLOTHING, ART = 0, 1, 2, 3


@pytest.mark.parametrize(("families", "points"), [
    ([SMALL], 1),
    ([SMALL, FOOD], 4),
    ([SMALL, FOOD, ART], 9),
    ([SMALL, FOOD, CLOTHING, ART], 16),       # rulebook: 1+3+5+7
    ([ART, ART, ART], 3),                     # rulebook: three separate sets
    ([FOOD, FOOD, CLOTHING], 5),              # rulebook: 1+1+3
    ([FOOD, CLOTHING, FOOD, CLOTHING], 8),    # rulebook: 1+3+1+3
    ([FOOD, FOOD, CLOTHING, CLOTHING], 8),
    ([SMALL, SMALL, FOOD, CLOTHING, ART], 1 + 16),
])
def test_souvenir_sets_rulebook_examples(families: list[int], points: int) -> None:
    assert souvenir_collection_points(families, [1, 3, 5, 7]) == points


def test_temple_ranking_rulebook_example() -> None:
    # Yellow 1st, Blue and Green tied 2nd, White and Purple gave nothing
    assert temple_bonus([6, 3, 3, 0, 0], [10, 7, 4, 2]) == [10, 7, 7, 0, 0]


@pytest.mark.parametrize(("donated", "bonus"), [
    ([5, 5, 3, 2, 1], [10, 10, 7, 4, 2]),   # the next distinct amount takes the next value
    ([3, 2, 1, 1, 1], [10, 7, 4, 4, 4]),
    ([6, 5, 4, 3, 2], [10, 7, 4, 2, 2]),    # every further donor: the last value
    ([0, 0], [0, 0]),
])
def test_temple_ranking_ties(donated: list[int], bonus: list[int]) -> None:
    assert temple_bonus(donated, [10, 7, 4, 2]) == bonus


def test_achievements_and_ranks() -> None:
    assert achievement_winners([3, 5, 5], 1) == [1, 2]
    assert achievement_winners([0, 0], 1) == []
    assert final_ranks([(50, 2), (50, 3), (40, 9), (50, 3)]) == [3, 1, 4, 1]


# ====================================================================== hand-built logs
def test_legal_short_sequence_is_accepted() -> None:
    config, rules = cfg(3, variants=("initiation",))
    rows = setup_log(config, rules)
    rows += [ev(Ev.MOVE, 0, 7, 0)]                                   # p0 leaves first: farm
    rows += [ev(Ev.MOVE, 1, 2, 1), ev(Ev.DONATE, 1, 2, 0)]          # p1 (later stamp) temple
    rows += [ev(Ev.MOVE, 2, 4, 2), ev(Ev.PANORAMA, 2, 0, 0)]        # p2 paddy
    rows += [ev(Ev.MOVE, 1, 5, 1), ev(Ev.DRAW, 1, Deck.HOT_SPRING, 0), ev(Ev.GAIN, 1, Deck.HOT_SPRING, 0, 0)]
    rows += [ev(Ev.MOVE, 2, 6, 2), ev(Ev.PANORAMA, 2, 1, 0)]
    ref = feed(config, rules, rows)
    assert ref.errors == []
    p0, p1, p2 = ref.state.travelers
    assert (p0.coins, p1.coins, p2.coins) == (10, 5, 7)
    assert (p1.points["pts_temple"], p1.points["pts_hot_springs"], p1.donated) == (2, 2, 2)
    assert p2.score == 2 and p2.stops == 2
    assert ref.state.next_traveler() == 1  # p1 at 5 is behind p2 at 6 and p0 at 7
    ref.finish()
    assert "before END" in ref.errors[0]


def test_wrong_traveler_moves() -> None:
    config, rules = cfg(3, variants=("initiation",))
    rows = setup_log(config, rules)
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 1, 7, 1)])
    assert_illegal(ref, len(rows), "MOVE", "traveler 1 (p1) moved but traveler 0 (p0) is behind")


def test_same_space_later_arrival_is_behind() -> None:
    config, rules = cfg(4, variants=("initiation",))
    rows = setup_log(config, rules) + [ev(Ev.MOVE, 0, 7, 0), ev(Ev.MOVE, 1, 7, 1)]
    # p1 arrived after p0 on the double farm: the next traveler behind is p2 or p3 at Kyoto
    ref = feed(config, rules, rows + [ev(Ev.MOVE, 2, 8, 2), ev(Ev.DRAW, 2, 0, 0)])
    assert ref.errors == []
    ref.state.travelers[2].pos = ref.state.travelers[3].pos = 9  # everyone else ahead
    assert ref.state.next_traveler() == 1


def test_occupied_space_is_rejected() -> None:
    config, rules = cfg(3, variants=("initiation",))
    rows = setup_log(config, rules) + [ev(Ev.MOVE, 0, 7, 0)]
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 1, 7, 1)])  # a double space holds 1 at 3 travelers
    assert_illegal(ref, len(rows), "MOVE", "full")


def test_double_space_holds_two_at_four_players() -> None:
    config, rules = cfg(4, variants=("initiation",))
    rows = setup_log(config, rules) + [ev(Ev.MOVE, 0, 7, 0), ev(Ev.MOVE, 1, 7, 1)]
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 2, 7, 2)])
    assert_illegal(ref, len(rows), "MOVE", "full")


def test_passing_an_inn_is_rejected() -> None:
    config, rules = cfg(3, variants=("initiation",))
    rows = setup_log(config, rules)
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 0, 15, 0)])
    assert_illegal(ref, len(rows), "MOVE", "beyond the Inn at 14")


def test_village_and_temple_need_a_coin() -> None:
    config, rules = cfg(3, travelers="satsuki,kinko,zen-emon", overrides=(("travelers.satsuki.coins", "0"),))
    rows = setup_log(config, rules)
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 0, 1, 0)])
    assert_illegal(ref, len(rows), "MOVE", "village")
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 0, 2, 0)])
    assert_illegal(ref, len(rows), "MOVE", "temple")


def test_completed_panorama_is_closed() -> None:
    config, rules = cfg(3, variants=("initiation",), overrides=(("panoramas.lengths", "3,1,5"),))
    rows = setup_log(config, rules)
    rows += [ev(Ev.MOVE, 0, 6, 0), ev(Ev.PANORAMA, 0, 1, 0)]         # completes the mountain
    rows += [ev(Ev.MOVE, 1, 7, 1), ev(Ev.MOVE, 2, 9, 2), ev(Ev.DONATE, 2, 1, 0)]
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 0, 12, 0)])
    assert_illegal(ref, len(rows), "MOVE", "completed the mountain panorama")
    p0 = ref.state.travelers[0]
    assert p0.points["pts_panoramas"] == 1 and p0.points["pts_achievements"] == 3


def test_neutral_is_moved_by_the_lead_player() -> None:
    config, rules = cfg(2, variants=("initiation",))
    rows = setup_log(config, rules, lineup=[1, 2, 0])  # the Neutral leaves first; p1 leaves last = leads
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 2, 7, 0)])
    assert_illegal(ref, len(rows), "MOVE", "controller 0, expected 1")
    ref = feed(config, rules, [*rows, ev(Ev.MOVE, 2, 2, 1), ev(Ev.DONATE, 2, 0, 1)])
    assert ref.errors == [] and ref.state.travelers[2].donated == 1


def test_wrong_draw_is_caught() -> None:
    config, rules = cfg(3, variants=("initiation",))
    rows = setup_log(config, rules) + [ev(Ev.MOVE, 0, 1, 0)]
    ref = feed(config, rules, [*rows, ev(Ev.DRAW, 0, Deck.SOUVENIR, 5)])
    assert_illegal(ref, len(rows), "DRAW", "top of the souvenir pile is koma")


def test_gain_with_wrong_price_is_caught() -> None:
    config, rules = cfg(3, variants=("initiation",))
    rows = setup_log(config, rules) + [ev(Ev.MOVE, 0, 1, 0)]
    rows += [ev(Ev.DRAW, 0, Deck.SOUVENIR, c) for c in (0, 1, 2)]
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 0, Deck.SOUVENIR, 0, 2)])
    assert_illegal(ref, len(rows), "GAIN", "paid 2", "price 1")
    # unbought cards must go under before the next move
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 0, 0, 0, 1), ev(Ev.MOVE, 1, 2, 1)])
    assert_illegal(ref, len(rows) + 1, "MOVE", "still on the table")


VILLAGE_DECK = {Deck.SOUVENIR: [18, 6, 12]}  # netsuke (art, 2), manju (food, 1), haori (clothing, 2)


def village_rows(config: GameConfig, rules: Rules) -> list[Row]:
    return setup_log(config, rules, decks=VILLAGE_DECK) + [ev(Ev.MOVE, 0, 1, 0)] + [
        ev(Ev.DRAW, 0, Deck.SOUVENIR, c) for c in VILLAGE_DECK[Deck.SOUVENIR]
    ]


def test_sasayakko_cheapest_souvenir_is_free() -> None:
    config, rules = cfg(3, travelers="sasayakko,kinko,zen-emon")
    rows = village_rows(config, rules)
    good = [ev(Ev.GAIN, 0, 0, 18, 2), ev(Ev.GAIN, 0, 0, 6, 0), ev(Ev.GAIN, 0, 0, 12, 2)]
    ref = feed(config, rules, rows + good)
    assert ref.errors == []
    sas = ref.state.travelers[0]
    assert (sas.coins, sas.points["pts_souvenirs"]) == (1, 1 + 3 + 5)
    paid_all = [ev(Ev.GAIN, 0, 0, 18, 2), ev(Ev.GAIN, 0, 0, 6, 1), ev(Ev.UNDER, -1, 0, 12)]
    ref = feed(config, rules, rows + paid_all)
    assert_illegal(ref, len(rows) + 1, "sasayakko", "paid for all")
    wrong_free = [ev(Ev.GAIN, 0, 0, 18, 0), ev(Ev.GAIN, 0, 0, 6, 1), ev(Ev.UNDER, -1, 0, 12)]
    ref = feed(config, rules, rows + wrong_free)
    assert_illegal(ref, len(rows), "not the cheapest")


def test_zen_emon_one_cheap_souvenir_per_village() -> None:
    config, rules = cfg(3, travelers="zen-emon,kinko,satsuki")
    rows = village_rows(config, rules)
    ref = feed(config, rules, rows + [ev(Ev.GAIN, 0, 0, 18, 1), ev(Ev.GAIN, 0, 0, 6, 1), ev(Ev.UNDER, -1, 0, 12)])
    assert ref.errors == [] and ref.state.travelers[0].coins == 4
    ref = feed(config, rules, rows + [ev(Ev.GAIN, 0, 0, 18, 1), ev(Ev.GAIN, 0, 0, 12, 1)])
    assert_illegal(ref, len(rows) + 1, "GAIN", "price 2")


def test_inn_meals_kinko_satsuki_and_leftovers() -> None:
    config, rules = cfg(3, travelers="kinko,satsuki,zen-emon")
    # meals 0-2 misoshiru (1), 3-5 nigirimeshi (1); first arrival draws 3 + 1 = 4 cards
    rows = setup_log(config, rules) + [ev(Ev.MOVE, 0, 14, 0)]
    rows += [ev(Ev.DRAW, 0, Deck.MEAL, m) for m in range(4)]
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 0, Deck.MEAL, 0, 1)])
    assert_illegal(ref, len(rows), "GAIN", "price 0")
    rows += [ev(Ev.GAIN, 0, Deck.MEAL, 0, 0)]
    rows += [ev(Ev.MOVE, 1, 14, 1), ev(Ev.OFFER, 1, 3), ev(Ev.GAIN, 1, Deck.MEAL, 3, 0)]
    rows += [ev(Ev.MOVE, 2, 14, 2)]
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 2, Deck.MEAL, 1, 1), ev(Ev.MOVE, 2, 15, 2)])
    assert_illegal(ref, len(rows) + 1, "MOVE", "UNDER")
    rows += [ev(Ev.GAIN, 2, Deck.MEAL, 1, 1), ev(Ev.UNDER, -1, Deck.MEAL, 2)]
    ref = feed(config, rules, rows)
    assert ref.errors == []
    kinko, satsuki, zen = ref.state.travelers
    assert (kinko.coins, satsuki.coins, zen.coins) == (7, 2, 5)
    assert [t.points["pts_meals"] for t in (kinko, satsuki, zen)] == [6, 6, 6]
    assert list(ref.state.piles[Deck.MEAL])[-1] == 2


def test_itamae_dish_already_eaten_goes_under() -> None:
    config, rules = cfg(3, travelers="kinko,satsuki,zen-emon", expansions=("new-encounters",))
    itamae = next(e.id for e in rules.encounters if e.kind == Enc.ITAMAE)
    # meals: misoshiru 0, nigirimeshi 3, dango 6, yakitori 9, then misoshiru 1 on top after the Inn
    rows = setup_log(config, rules, decks={Deck.MEAL: [0, 3, 6, 9, 1], Deck.ENCOUNTER: [itamae]})
    rows += [ev(Ev.MOVE, 0, 14, 0)] + [ev(Ev.DRAW, 0, Deck.MEAL, m) for m in (0, 3, 6, 9)]
    rows += [ev(Ev.GAIN, 0, Deck.MEAL, 0, 0), ev(Ev.MOVE, 1, 14, 1), ev(Ev.OFFER, 1, 6), ev(Ev.MOVE, 2, 14, 2)]
    rows += [ev(Ev.UNDER, -1, Deck.MEAL, m) for m in (3, 6, 9)]
    rows += [ev(Ev.MOVE, 2, 15, 2), ev(Ev.PANORAMA, 2, 2, 0), ev(Ev.MOVE, 1, 16, 1), ev(Ev.DONATE, 1, 1, 0)]
    rows += [ev(Ev.MOVE, 0, 20, 0), ev(Ev.DRAW, 0, Deck.ENCOUNTER, itamae), ev(Ev.GAIN, 0, Deck.ENCOUNTER, itamae, 0)]
    rows += [ev(Ev.OPTION, 0, 0, 1), ev(Ev.DRAW, 0, Deck.MEAL, 1)]
    ref = feed(config, rules, [*rows, ev(Ev.GAIN, 0, Deck.MEAL, 1, 0)])
    assert_illegal(ref, len(rows), "UNDER")
    ref = feed(config, rules, [*rows, ev(Ev.UNDER, -1, Deck.MEAL, 1)])
    assert ref.errors == []
    kinko = ref.state.travelers[0]
    assert (kinko.coins, len(kinko.meals), len(kinko.encounters), kinko.score) == (6, 1, 1, 6)
    assert list(ref.state.piles[Deck.MEAL])[-1] == 1


# ====================================================================== self-play
class SelfPlay:
    """A random legal game, written as a log and checked by the referee event by event."""

    def __init__(self, config: GameConfig, rules: Rules, seed: int, prefer: tuple[int, ...] = (),
                 alt: float = 0.5) -> None:
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
            sizes = {Deck.LEGENDARY: len(self.rules.legendary), Deck.AMULET: len(self.rules.amulets),
                     Deck.CALLIGRAPHY: len(self.rules.calligraphy)}
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
        possible = self.ref._why_no_alternative(tr, kind) is None
        both = (kind == Space.ENCOUNTER and tr.ability == Ability.KITA) or (
            kind == Space.TEMPLE and tr.ability == Ability.MIYATAKA)
        if possible and self.use(tr, Amulet.HEALTH, 0.6):
            option = 2
        elif possible and both and self.chance(0.6):
            option = 2
        else:
            option = int(possible and self.chance(self.alt))
        self.emit(Ev.CHOICE, tr.index, kind, option)
        return option

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
            self.emit(Ev.GAIN, tr.index, Deck.CALLIGRAPHY, self.rng.choice(st.calligraphy_market), p["CALLI_COST"])
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
        if option == 1 and kind == Space.TEMPLE and tr.ability == Ability.HIROTADA:
            self.emit(Ev.DONATE, tr.index, 0, self.p["HIROTADA_COIN"] if self.chance(0.8) else 0)
        if option in (0, 2):
            self.base_action(tr, kind)
        if option in (1, 2) and (option == 1 or self.ref._why_no_alternative(tr, kind) is None):
            self.alternative(tr, kind)
        if (self.xr and not tr.neutral and kind != Space.INN and st.alone_in_lead(tr)
                and self.use(tr, Amulet.VITALITY, 0.8)):
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
            if tr.ability == Ability.JIROCHO and tr.coins >= self.p["JIROCHO_BET"] and self.option(tr, Opt.JIROCHO):
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


CONFIGS = [
    dict(n=2),
    dict(n=3),
    dict(n=4),
    dict(n=5),
    dict(n=3, variants=("initiation",)),
    dict(n=2, travelers="satsuki,chuubei", expansions=("new-encounters",)),
    dict(n=4, travelers="random", variants=("preparations", "gastronomy", "return-trip"),
         expansions=("new-encounters",)),
    dict(n=5, travelers="hiroshige,chuubei,mitsukuni,hirotada,umegae", expansions=("new-encounters",)),
    dict(n=5, travelers="kinko,satsuki,sasayakko,zen-emon,yoshiyasu", expansions=("new-encounters",),
         variants=("preparations",)),
    # these two stop wherever a pile can run dry, or a panorama is closed
    dict(n=5, travelers="yoshiyasu,chuubei,hiroshige,umegae,kinko", expansions=("new-encounters",)),
    dict(n=4, travelers="random", expansions=("new-encounters",), overrides=(("panoramas.lengths", "1,2,1"),)),
]
PREFER = {
    9: (Space.HOT_SPRING, Space.ENCOUNTER, Space.VILLAGE),
    10: (Space.PADDY, Space.MOUNTAIN, Space.SEA, Space.ENCOUNTER),
}


def self_play(i: int, seed: int) -> tuple[GameConfig, Rules, np.ndarray, Referee]:
    config, rules = cfg(**CONFIGS[i])  # type: ignore[arg-type]
    game = SelfPlay(config, rules, seed, PREFER.get(i, ()))
    events = game.play()
    return config, rules, events, game.ref


@pytest.mark.parametrize("i", range(len(CONFIGS)))
def test_self_play_games_are_accepted(i: int) -> None:
    for seed in range(25):
        config, rules, events, ref = self_play(i, seed)
        res = referee_game(config, rules, events, kernel_rows=ref.result().rows)
        assert res.ok, explain_mismatch(res)
        assert res.finished and res.events_checked == len(events)
        assert sorted(r["rank"] for r in res.rows)[0] == 1
        for row, tr in zip(res.rows, ref.state.players(), strict=True):
            assert row["score"] == sum(v for k, v in row.items() if k.startswith("pts_"))
            families = [rules.souvenirs[c].family for c in tr.souvenirs]
            assert row["pts_souvenirs"] == souvenir_collection_points(families, rules.set_points)
            assert row["pts_meals"] == 6 * row["meals"]
            assert tr.pos == ref.state.last
            assert row["coins_left"] >= 0


def test_tampered_logs_are_caught() -> None:
    config, rules, events, ref = self_play(8, 11)
    rows = ref.result().rows
    kinds = events[:, 0]
    first_move = int(np.argmax(kinds == Ev.MOVE))
    # a paid GAIN with a different price
    i = next(k for k in range(len(events)) if kinds[k] == Ev.GAIN and events[k, 4] > 0)
    bad = events.copy()
    bad[i, 4] += 1
    res = referee_game(config, rules, bad, rows)
    assert not res.ok and res.errors[0].startswith(f"event {i} GAIN"), res.errors
    # a DRAW of a card that is not the top of the pile
    i = next(k for k in range(first_move, len(events)) if kinds[k] == Ev.DRAW)
    bad = events.copy()
    bad[i, 3] = (bad[i, 3] + 1) % 12
    res = referee_game(config, rules, bad, rows)
    assert not res.ok and res.errors[0].startswith(f"event {i} DRAW"), res.errors
    # a missing UNDER, a missing END
    i = next(k for k in range(len(events)) if kinds[k] == Ev.UNDER)
    res = referee_game(config, rules, np.delete(events, i, axis=0), rows)
    assert not res.ok and "still on the table" in res.errors[0], res.errors
    res = referee_game(config, rules, events[:-1], rows)
    assert not res.ok and "before END" in res.errors[0]
    padded = np.vstack([events, np.full((5, 6), -1, np.int16)])
    assert referee_game(config, rules, padded, rows).ok
    res = referee_game(config, rules, np.vstack([events, events[-1:]]), rows)
    assert not res.ok and res.errors[0] == f"event {len(events)} END: the log goes on after END"
    # a wrong result row
    for field, delta in (("score", 1), ("pts_meals", -6), ("donated", 1), ("seat", 1)):
        tampered = [dict(r) for r in rows]
        tampered[1][field] += delta
        res = referee_game(config, rules, events, tampered)
        assert not res.ok and any(f" {field}: referee" in e for e in res.errors), res.errors
        assert "player 1" in explain_mismatch(res)


def test_narration() -> None:
    config, rules, events, _ = self_play(1, 3)
    res = referee_game(config, rules, events, narrate=True)
    assert res.ok
    text = "\n".join(res.narration)
    assert text.startswith("setup: departure order")
    assert "turn 1  " in text and " -> " in text
    assert "end scoring" in text and "final" in text
    assert "joins set 1 as 1st family" in text
