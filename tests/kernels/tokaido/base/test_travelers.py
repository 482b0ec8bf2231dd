"""Rules of the Traveler tiles: the draft, starting coins and every ability of the base game.

Hand-made positions (``tests/helpers/positions.py``). Docstrings quote the rulebook
(seed 000, "Description of the Travelers") or name the rule choice.
"""

from __future__ import annotations

import pytest

from kernels.tokaido.bots.policy import choose_village_nb, table_prices_nb, village_prices_nb
from kernels.tokaido.core.enums import PF, Ability, Bot, Deck, Ev, G, PanSrc
from kernels.tokaido.core.score import end_achievements_nb, meal_price_nb, take_panorama_nb
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from tests.helpers.positions import (
    BOTH,
    encounter_ids,
    hot_spring_ids,
    kern,
    make_position,
    make_rules,
    meal_ids,
    setup_position,
    souvenir_ids,
)

CFG3 = GameConfig(n_players=3, travelers="random")
PROMO3 = GameConfig(n_players=3, travelers="random", expansions=("new-encounters",))
# rulebook tiles / game-data.md 7.1
COINS = {
    "hiroshige": 3,
    "chuubei": 4,
    "kinko": 7,
    "yoshiyasu": 9,
    "satsuki": 2,
    "mitsukuni": 6,
    "sasayakko": 5,
    "hirotada": 8,
    "umegae": 5,
    "zen-emon": 6,
}


def rs3(**kw):
    return make_rules(CFG3, **kw)


# ------------------------------------------------------------------ tiles and coins
@BOTH
@pytest.mark.parametrize("names", [list(COINS)[:5], list(COINS)[5:]])
def test_starting_coins_from_the_traveler_tile(mode: str, names: list[str]) -> None:
    """Rulebook "Set-up": "Each player receives coins equal to the number in the upper right corner
    of their chosen tile" (values: game-data.md 7.1, ``sim/games/tokaido/data/travelers.toml``)."""
    config = GameConfig(n_players=5, travelers=",".join(names))
    rs = make_rules(config)
    pos = setup_position(rs, seed=3, mode=mode)
    for p, name in enumerate(names):
        assert pos.ps[p, PF.COINS] == COINS[name] == pos.ps[p, PF.COINS_START]
        assert pos.ps[p, PF.TRAVELER] == rs.rules.traveler_index(name)
        assert pos.ps[p, PF.ABILITY] == Ability._fields.index(name.upper().replace("-", "_"))
    assert pos.events(Ev.COINS) == [(Ev.COINS, p, COINS[n], -1, -1, -1) for p, n in enumerate(names)]


def test_traveler_coins_can_be_overridden() -> None:
    """Overrides (docs/rules.md): ``--set travelers.kinko.coins=6`` changes Kinko's tile."""
    config = GameConfig(n_players=2, travelers="kinko,satsuki", overrides=(("travelers.kinko.coins", "6"),))
    pos = setup_position(make_rules(config), seed=1)
    assert pos.ps[0, PF.COINS] == 6 and pos.ps[1, PF.COINS] == 2


def test_draft_deals_two_and_keeps_one() -> None:
    """Rulebook "Set-up": "Each player then takes 2 Traveler tiles at random, chooses one"; the
    tiles dealt are all different."""
    rs = make_rules(GameConfig(n_players=5, travelers="draft"))
    firsts = set()
    for seed in range(6):
        pos = setup_position(rs, seed=seed)
        deals = pos.events(Ev.DEAL)
        dealt = [x for e in deals for x in (e[2], e[3])]
        assert len(deals) == 5 and len(set(dealt)) == 10
        for e, k in zip(deals, pos.events(Ev.KEEP), strict=True):
            p = e[1]
            assert k[2] in (e[2], e[3]) and pos.ps[p, PF.TRAVELER] == k[2]
            assert pos.ps[p, PF.ALT_TRAVELER] == ({e[2], e[3]} - {k[2]}).pop()
            assert pos.ps[p, PF.COINS] == rs.rules.travelers[k[2]].coins
        firsts.add(deals[0][2])
    assert len(firsts) > 1


# ------------------------------------------------------------------ the Traveler pool (draft.pool)
@BOTH
@pytest.mark.parametrize(
    ("travelers", "expansions", "pool", "allowed"),
    [
        ("draft", ("crossroads",), "base", set(range(10))),
        ("random", ("crossroads",), "base", set(range(10))),
        ("random", ("crossroads", "matsuri"), "base+crossroads", set(range(16))),
        ("random", (), "kinko+satsuki+umegae+chuubei", {1, 2, 4, 8}),
    ],
)
def test_draft_pool_deals_only_from_the_pool(
    mode: str, travelers: str, expansions: tuple[str, ...], pool: str, allowed: set[int]
) -> None:
    """Seed 002 set-up: "Add the new Travelers to the old" is the default (``draft.pool = "all"``);
    ``draft.pool`` holds the deal, drafted or at random, to the boxes and Travelers it names, so an
    expansion's rules can be played with the base game's Travelers only. Every Traveler of the pool
    is dealt in some game, and none outside it."""
    cfg = GameConfig(
        n_players=4, travelers=travelers, expansions=expansions, overrides=(("draft.pool", pool),)
    )
    rs = make_rules(cfg)
    assert rs.rules.pool_ids() == sorted(allowed)
    dealt: set[int] = set()
    for seed in range(40):
        pos = setup_position(rs, seed=seed, mode=mode)
        dealt |= {x for e in pos.events(Ev.DEAL) for x in (e[2], e[3]) if x >= 0}
        assert {int(pos.ps[p, PF.TRAVELER]) for p in range(4)} <= allowed
    assert dealt == allowed


@pytest.mark.parametrize(
    ("cfg", "message"),
    [
        (
            {"travelers": "random"},
            r"^--set draft.pool=base has no effect: the pool holds every Traveler in play",
        ),
        (
            {"travelers": "kinko,satsuki,umegae,chuubei", "expansions": ("crossroads",)},
            r"^--set draft.pool=base has no effect: the Travelers are named one per player",
        ),
        (
            {"travelers": "draft", "variants": ("initiation",), "expansions": ("crossroads",)},
            r"^--set draft.pool=base has no effect: Journey of Initiation",
        ),
    ],
)
def test_draft_pool_that_changes_nothing_is_refused(cfg: dict, message: str) -> None:
    """A pool of every Traveler in play, or a pool where no Traveler is dealt, changes nothing: refused
    in one line (standard 6), as every option that would have no effect."""
    from sim.errors import UserError
    from sim.games.tokaido.rules.inert import refuse_inert

    with pytest.raises(UserError, match=message):
        refuse_inert(GameConfig(n_players=4, overrides=(("draft.pool", "base"),), **cfg))


@pytest.mark.parametrize(
    ("pool", "message"),
    [
        (
            "crossroads",
            r"^dealing 2 to each of 4 players needs 8 Travelers, the pool has 6; widen draft.pool$",
        ),
        ("promo", r"^draft.pool names the promos box, which is not in play; add --expansions promos"),
        ("base+nobody", r"^draft.pool: 'nobody' is no box and no Traveler in play; give all, boxes"),
    ],
)
def test_draft_pool_that_cannot_deal_is_refused(pool: str, message: str) -> None:
    """A pool too small for the deal, a box not in play or a name that is no Traveler: one line saying how."""
    with pytest.raises(ConfigError, match=message):
        GameConfig(
            n_players=4, travelers="draft", expansions=("crossroads",), overrides=(("draft.pool", pool),)
        )


# ------------------------------------------------------------------ Hiroshige
@BOTH
def test_hiroshige_takes_a_panorama_at_intermediate_inns(mode: str) -> None:
    """Rulebook "Hiroshige": "When Hiroshige arrives at each of the 3 intermediate Inns, before the
    Meal he takes 1 Panorama card of his choice, scoring the points for this card" (C19: before
    the meal hand is drawn)."""
    pos = make_position(
        rs3(), ["hiroshige", None, None], positions=[13, 12, 11], panoramas={0: [0, 0, 4]}, mode=mode
    )
    pos.stop(0, 14)
    assert pos.events(Ev.PANORAMA) == [(Ev.PANORAMA, 0, 2, PanSrc.HIROSHIGE, -1, -1)]
    assert pos.ps[0, PF.PTS_PANORAMAS] == 5 and pos.ps[0, PF.PTS_ACHIEVEMENTS] == 3
    kinds = [e[0] for e in pos.events()]
    assert kinds.index(Ev.PANORAMA) < kinds.index(Ev.DRAW)


@BOTH
def test_hiroshige_nothing_at_the_last_inn_or_with_every_panorama_complete(mode: str) -> None:
    """Rulebook "Hiroshige": only at "the 3 intermediate Inns" (not Edo); C16: with every panorama
    complete he takes nothing."""
    pos = make_position(rs3(), ["hiroshige", None, None], positions=[53, 52, 51], mode=mode)
    pos.stop(0, 54)
    assert pos.events(Ev.PANORAMA) == []
    pos = make_position(
        rs3(),
        ["hiroshige", None, None],
        positions=[13, 12, 11],
        panoramas={0: [3, 4, 5]},
        pan_ach=0b111,
        mode=mode,
    )
    pos.stop(0, 14)
    assert pos.events(Ev.PANORAMA) == [] and pos.ps[0, PF.PANORAMAS] == 12


# ------------------------------------------------------------------ Chuubei
@BOTH
def test_chuubei_draws_an_encounter_at_intermediate_inns(mode: str) -> None:
    """Rulebook "Chuubei": "When Chuubei arrives at each of the 3 intermediate Inns, before the Meal
    he draws 1 Encounter card and applies its effect" (not at Edo)."""
    rs = rs3()
    (samurai,) = encounter_ids(rs, "samurai")
    pos = make_position(
        rs,
        ["chuubei", None, None],
        positions=[13, 12, 11],
        coins=[0, 0, 0],
        top={Deck.ENCOUNTER: [samurai]},
        mode=mode,
    )
    pos.stop(0, 14)
    assert pos.ps[0, PF.ENCOUNTERS] == 1 and pos.ps[0, PF.PTS_ENCOUNTERS] == 3
    draws = [e[2] for e in pos.events(Ev.DRAW)]
    assert draws[0] == Deck.ENCOUNTER and draws[1:] == [Deck.MEAL] * 4
    pos = make_position(rs, ["chuubei", None, None], positions=[53, 52, 51], mode=mode)
    pos.stop(0, 54)
    assert pos.ps[0, PF.ENCOUNTERS] == 0 and pos.pub["dcnt"][Deck.ENCOUNTER] == 14


@BOTH
def test_chuubei_itamae_meal_is_his_one_meal_at_the_inn(mode: str) -> None:
    """Rulebook "Inns": "A Traveler can never purchase more than one Meal card per Inn" (C40): when
    Chuubei's Inn encounter is Itamae and he pays for its meal, he buys no Inn meal there;
    ``--set meals.itamae_is_the_inn_meal=false`` lets him buy one too."""
    for one_meal in (True, False):
        rs = make_rules(
            GameConfig(
                n_players=3,
                travelers="random",
                expansions=("new-encounters",),
                overrides=(("meals.itamae_is_the_inn_meal", str(one_meal)),),
            )
        )
        (itamae,) = encounter_ids(rs, "itamae")
        sushi, dango, unagi, fugu, tofu = meal_ids(rs, "sushi", "dango", "unagi", "fugu", "tofu")
        pos = make_position(
            rs,
            ["chuubei", None, None],
            positions=[13, 12, 11],
            coins=[6, 0, 0],
            top={Deck.ENCOUNTER: [itamae], Deck.MEAL: [sushi, dango, unagi, fugu, tofu]},
            mode=mode,
        )
        pos.stop(0, 14)
        gains = [e for e in pos.events(Ev.GAIN) if e[2] == Deck.MEAL]
        assert gains[0] == (Ev.GAIN, 0, Deck.MEAL, sushi, 0, -1)  # Itamae's meal
        assert len(gains) == (1 if one_meal else 2) and pos.ps[0, PF.MEALS] == len(gains)
        assert len(pos.hand()) == 4 - (len(gains) - 1)


# ------------------------------------------------------------------ Kinko
@BOTH
def test_kinko_meals_cost_one_less(mode: str) -> None:
    """Rulebook "Kinko": "Each Meal card purchased by Kinko costs one coin less. (Meals that cost 1
    are therefore free.)"; C22: Gourmet counts the printed cost."""
    rs = rs3()
    dango, sushi, unagi = meal_ids(rs, "dango", "sushi", "unagi")
    pos = make_position(rs, ["kinko", "satsuki", None])
    price = kern(meal_price_nb, mode)
    assert [price(pos.pub, pos.ru, 0, c) for c in (dango, sushi, unagi)] == [0, 1, 2]
    assert [price(pos.pub, pos.ru, 1, c) for c in (dango, sushi, unagi)] == [1, 2, 3]
    pos = make_position(
        rs,
        ["kinko", None, None],
        positions=[13, 12, 11],
        coins=[0, 0, 0],
        top={Deck.MEAL: [dango, sushi, unagi]},
        mode=mode,
    )
    pos.stop(0, 14)
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.MEAL, dango, 0, -1)]
    assert pos.ps[0, PF.PTS_MEALS] == 6 and pos.ps[0, PF.MEAL_VALUE] == 1 and pos.ps[0, PF.COINS] == 0


# ------------------------------------------------------------------ Yoshiyasu
@BOTH
def test_yoshiyasu_draws_two_keeps_one(mode: str) -> None:
    """Rulebook "Yoshiyasu": "During each Encounter, Yoshiyasu draws 2 Encounter cards, keeps the one
    he wishes, then places the other card at the bottom of the pile"."""
    rs = rs3()
    miko, samurai = encounter_ids(rs, "miko", "samurai")
    pos = make_position(
        rs, ["yoshiyasu", None, None], positions=[0, 14, 14], top={Deck.ENCOUNTER: [miko, samurai]}, mode=mode
    )
    pos.stop(0, 3)
    assert [e[3] for e in pos.events(Ev.DRAW)] == [miko, samurai]
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.ENCOUNTER, samurai, 0, -1)]
    assert pos.events(Ev.UNDER) == [(Ev.UNDER, -1, Deck.ENCOUNTER, miko, -1, -1)]
    assert pos.pile(Deck.ENCOUNTER)[-1] == miko and pos.pub["dcnt"][Deck.ENCOUNTER] == 13
    assert pos.ps[0, PF.ENCOUNTERS] == 1 and pos.ps[0, PF.SCORE] == 3 and pos.ps[0, PF.DONATED] == 0


# ------------------------------------------------------------------ Satsuki
@BOTH
def test_satsuki_gets_a_random_meal_free(mode: str) -> None:
    """Rulebook "Satsuki": "When she arrives at an Inn, Satsuki receives one of the available Meal
    cards at random for free" (C12); one meal only."""
    rs = rs3()
    top = meal_ids(rs, "dango", "sushi", "unagi", "fugu")
    offered = set()
    for seed in range(12):
        pos = make_position(
            rs,
            ["satsuki", None, None],
            positions=[13, 12, 11],
            coins=[0, 0, 0],
            top={Deck.MEAL: top},
            seed=seed,
            mode=mode,
        )
        pos.stop(0, 14)
        (offer,) = pos.events(Ev.OFFER)
        assert offer[1] == 0 and offer[2] in top
        assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.MEAL, offer[2], 0, -1)]
        assert pos.ps[0, PF.MEALS] == 1 and pos.ps[0, PF.PTS_MEALS] == 6 and pos.ps[0, PF.COINS] == 0
        offered.add(offer[2])
    assert len(offered) >= 3


@BOTH
def test_satsuki_may_refuse_and_buy(mode: str) -> None:
    """Rulebook "Satsuki": "After seeing the Meal offered to her, she can instead purchase a Meal as
    normal"; C12: an offered dish she already ate cannot be taken."""
    rs = rs3()
    sushi, dango = meal_ids(rs, "sushi", "dango")
    outcomes = set()
    for seed in range(16):
        pos = make_position(
            rs,
            ["satsuki", None, None],
            positions=[13, 12, 11],
            coins=[2, 0, 0],
            top={Deck.MEAL: [sushi, dango]},
            piles=None,
            dishes={0: ["sushi"]},
            seed=seed,
            mode=mode,
        )
        pos.stop(0, 14)
        (offer,) = pos.events(Ev.OFFER)
        gains = [e for e in pos.events(Ev.GAIN) if e[1] == 0]
        assert len(gains) == 1 and gains[0][3] != sushi
        if offer[2] == sushi:  # cannot take it: buys a meal as normal
            assert gains[0][4] == rs.rules.meals[gains[0][3]].cost and pos.ps[0, PF.COINS] < 2
        outcomes.add((offer[2] == sushi, gains[0][4] == 0))
    assert (True, False) in outcomes and (False, True) in outcomes
    paid = set()
    for seed in range(24):  # a random Satsuki sometimes refuses the offer and pays
        pos = make_position(
            rs,
            ["satsuki", None, None],
            coins=[9, 0, 0],
            bots=Bot.RANDOM,
            seed=seed,
            positions=[13, 12, 11],
            mode=mode,
        )
        pos.stop(0, 14)
        paid |= {e[4] > 0 for e in pos.events(Ev.GAIN)}
    assert paid == {False, True}


@BOTH
def test_satsuki_arriving_later_is_offered_a_card_left(mode: str) -> None:
    """Rulebook "Satsuki": "one of the available Meal cards at random" (C12): arriving second, after
    the first arrival drew the hand and took one, she is offered one of the cards left (never the one
    taken, no new draw); her free meal leaves the others for the third traveler."""
    rs = rs3()
    top = meal_ids(rs, "dango", "sushi", "unagi", "fugu")
    offered = set()
    for seed in range(12):
        pos = make_position(
            rs,
            [None, "satsuki", None],
            positions=[13, 12, 11],
            coins=[9, 0, 0],
            top={Deck.MEAL: top},
            seed=seed,
            mode=mode,
        )
        pos.stop(0, 14)
        (first,) = [e[3] for e in pos.events(Ev.GAIN)]
        left = [c for c in top if c != first]
        pos.clear_log()
        pos.stop(1, 14)
        (offer,) = pos.events(Ev.OFFER)
        assert offer[1] == 1 and offer[2] in left and pos.events(Ev.DRAW) == []
        assert pos.events(Ev.GAIN) == [(Ev.GAIN, 1, Deck.MEAL, offer[2], 0, -1)]
        assert sorted(pos.hand()) == sorted(c for c in left if c != offer[2])
        offered.add(offer[2])
    assert len(offered) >= 2


@BOTH
def test_satsuki_arriving_later_may_refuse_an_eaten_dish_and_buy(mode: str) -> None:
    """Rulebook "Satsuki": "she can instead purchase a Meal as normal"; C12: an offered dish she
    already ate cannot be taken. Arriving second with only sushi (eaten) and dango left, whenever
    sushi is offered she pays for the dango; whenever dango is offered she takes it free."""
    rs = rs3()
    sushi, dango, unagi, fugu = meal_ids(rs, "sushi", "dango", "unagi", "fugu")
    seen = set()
    for seed in range(16):
        pos = make_position(
            rs,
            [None, "satsuki", None],
            positions=[14, 12, 11],
            coins=[9, 5, 0],
            hand=[sushi, dango],
            dishes={1: ["sushi"]},
            seed=seed,
            mode=mode,
        )
        pos.gs[G.INN_ARRIVED] = 1
        pos.pub["occ"][14] = 1
        pos.stop(1, 14)
        (offer,) = pos.events(Ev.OFFER)
        (gain,) = pos.events(Ev.GAIN)
        assert gain[3] == dango and pos.events(Ev.DRAW) == []
        assert gain[4] == (rs.rules.meals[dango].cost if offer[2] == sushi else 0)
        seen.add(offer[2])
    assert seen == {sushi, dango}


@BOTH
def test_satsuki_free_meal_from_the_pile(mode: str) -> None:
    """Seed 002's Traveler page: "Satsuki receives the first Meal card from the Meal cards pile for
    free" (``--set abilities.satsuki_free_meal=pile``; seed 000's random card of the hand stays the
    default, C12). Arriving second, she draws the pile's top card: taken free, the Inn's hand is left
    as it was; a dish she already ate goes under the meal pile and she buys from the hand."""
    rs = make_rules(
        GameConfig(n_players=3, travelers="random", overrides=(("abilities.satsuki_free_meal", "pile"),))
    )
    sushi, dango, unagi, fugu, tofu = meal_ids(rs, "sushi", "dango", "unagi", "fugu", "tofu")
    for eaten in ((), ("tofu",)):
        pos = make_position(
            rs,
            [None, "satsuki", None],
            positions=[14, 12, 11],
            coins=[9, 5, 0],
            hand=[sushi, dango],
            dishes={1: eaten},
            top={Deck.MEAL: [tofu, unagi]},
            mode=mode,
        )
        pos.pub["occ"][14] = 1
        pos.stop(1, 14)
        assert pos.events(Ev.DRAW) == [(Ev.DRAW, 1, Deck.MEAL, tofu, -1, -1)]
        assert pos.events(Ev.OFFER) == [(Ev.OFFER, 1, tofu, -1, -1, -1)]
        (gain,) = pos.events(Ev.GAIN)
        if not eaten:
            assert gain == (Ev.GAIN, 1, Deck.MEAL, tofu, 0, -1) and sorted(pos.hand()) == sorted(
                [sushi, dango]
            )
        else:
            assert (
                pos.events(Ev.UNDER) == [(Ev.UNDER, -1, Deck.MEAL, tofu, -1, -1)]
                and pos.pile(Deck.MEAL)[-1] == tofu
            )
            assert gain[3] in (sushi, dango) and gain[4] == rs.rules.meals[gain[3]].cost
        assert pos.pile(Deck.MEAL)[0] == unagi


# ------------------------------------------------------------------ Mitsukuni
@BOTH
def test_mitsukuni_point_per_hot_spring_and_achievement(mode: str) -> None:
    """Rulebook "Mitsukuni": "earns 1 additional point for each Hot Spring card and each Achievement
    card" (C15: other points)."""
    rs = rs3()
    (two,) = hot_spring_ids(rs, 2)
    pos = make_position(
        rs,
        ["mitsukuni", None, None],
        positions=[0, 14, 14],
        panoramas={0: [2, 0, 0]},
        top={Deck.HOT_SPRING: [two]},
        mode=mode,
    )
    pos.stop(0, 5)
    assert pos.ps[0, PF.PTS_HOT_SPRINGS] == 2 and pos.ps[0, PF.PTS_OTHER] == 1
    kern(take_panorama_nb, mode)(pos.pub, pos.ru, 0, 0)  # completes the paddy: achievement
    assert pos.ps[0, PF.PTS_ACHIEVEMENTS] == 3 and pos.ps[0, PF.PTS_OTHER] == 2
    kern(end_achievements_nb, mode)(pos.pub, pos.ru)  # Bather (1 hot spring) and Collector? no souvenirs
    assert pos.ps[0, PF.ACHIEVEMENTS] == 2 and pos.ps[0, PF.PTS_OTHER] == 3
    assert pos.ps[0, PF.SCORE] == 2 + 3 + 3 + 3 + 3


# ------------------------------------------------------------------ Sasayakko
@BOTH
def test_sasayakko_cheapest_souvenir_is_free(mode: str) -> None:
    """Rulebook "Sasayakko": "if Sasayakko purchases at least two Souvenir cards, the cheapest
    Souvenir is free. Note: She must have the coins on hand to pay for all Souvenirs" (C20)."""
    rs = rs3(weights={"reserve": 0})
    cards = souvenir_ids(rs, "koma", "haori", "shamisen")  # 1, 2, 3
    pos = make_position(rs, ["sasayakko", "kinko", None])
    pos.pub["tbl"][:3] = cards
    prices, base = pos.pub["iscr"][0:4], pos.pub["iscr"][4:8]
    kern(table_prices_nb, mode)(pos.pub, pos.ru, 0, 3, base)
    vp = kern(village_prices_nb, mode)
    assert vp(pos.pub, pos.ru, 0, 3, 0b111, -1, prices, base) == (6, 5) and list(prices[:3]) == [0, 2, 3]
    assert vp(pos.pub, pos.ru, 0, 3, 0b110, -1, prices, base) == (5, 3) and list(prices[:3]) == [0, 0, 3]
    assert vp(pos.pub, pos.ru, 0, 3, 0b100, -1, prices, base) == (3, 3)  # a single card: full price
    assert vp(pos.pub, pos.ru, 1, 3, 0b111, -1, prices, base) == (6, 6)  # not Sasayakko
    pos = make_position(
        rs,
        ["sasayakko", None, None],
        positions=[0, 14, 14],
        coins=[3, 0, 0],
        top={Deck.SOUVENIR: souvenir_ids(rs, "koma", "haori", "netsuke")},
        mode=mode,
    )
    pos.stop(0, 8)
    assert [(e[3], e[4]) for e in pos.events(Ev.GAIN)] == [(cards[0], 0), (cards[1], 2)]
    assert pos.ps[0, PF.COINS] == 1 and pos.ps[0, PF.PTS_SOUVENIRS] == 4
    for seed in range(40):  # she never buys what she cannot pay in full
        pos = make_position(rs, ["sasayakko", None, None], coins=[5, 0, 0], bots=Bot.RANDOM, seed=seed)
        pos.pub["tbl"][:3] = cards
        mask, _ = choose_village_nb(pos.pub, pos.ru, 0, 3)
        assert mask != 0b111


# ------------------------------------------------------------------ Hirotada
@BOTH
def test_hirotada_adds_a_bank_coin_at_the_temple(mode: str) -> None:
    """Rulebook "Hirotada": "Each time he stops at the Temple, Hirotada can take one coin from the
    bank and donate it ..., scoring 1 point for this coin. This is in addition to the 1, 2, or 3
    coins"; C17: optional, the greedy bot always takes it."""
    pos = make_position(rs3(), ["hirotada", None, None], positions=[0, 14, 14], coins=[1, 0, 0], mode=mode)
    pos.stop(0, 2)
    assert pos.events(Ev.DONATE) == [(Ev.DONATE, 0, 1, 1, -1, -1)]
    assert pos.ps[0, PF.DONATED] == 2 and pos.ps[0, PF.PTS_TEMPLE] == 2 and pos.ps[0, PF.COINS] == 0
    taken = set()
    for seed in range(16):
        pos = make_position(
            rs3(),
            ["hirotada", None, None],
            positions=[0, 14, 14],
            coins=[5, 0, 0],
            bots=Bot.RANDOM,
            seed=seed,
            mode=mode,
        )
        pos.stop(0, 2)
        (ev,) = pos.events(Ev.DONATE)
        assert pos.ps[0, PF.DONATED] == ev[2] + ev[3] == pos.ps[0, PF.PTS_TEMPLE]
        assert pos.ps[0, PF.COINS] == 5 - ev[2]
        taken.add(ev[3])
    assert taken == {0, 1}


# ------------------------------------------------------------------ Umegae
@BOTH
def test_umegae_point_and_coin_before_the_encounter(mode: str) -> None:
    """Rulebook "Umegae": "earns 1 point and 1 coin for each Encounter before the effects of the
    drawn Encounter card are applied": with 0 coins the coin pays for Takuhatsuso (4 points)."""
    rs = make_rules(PROMO3)
    pos = make_position(
        rs,
        ["umegae", None, None],
        positions=[0, 14, 14],
        coins=[0, 0, 0],
        top={Deck.ENCOUNTER: encounter_ids(rs, "takuhatsuso")},
        mode=mode,
    )
    pos.stop(0, 3)
    assert pos.ps[0, PF.PTS_OTHER] == 1 and pos.ps[0, PF.PTS_ENCOUNTERS] == 4
    assert pos.ps[0, PF.COINS] == 0 and pos.ps[0, PF.SCORE] == 5
    pos = make_position(
        rs,
        ["umegae", None, None],
        positions=[0, 14, 14],
        coins=[0, 0, 0],
        top={Deck.ENCOUNTER: encounter_ids(rs, "kuge")},
        mode=mode,
    )
    pos.stop(0, 3)
    assert pos.ps[0, PF.COINS] == 4 and pos.ps[0, PF.SCORE] == 1


# ------------------------------------------------------------------ Zen-emon
@BOTH
def test_zen_emon_buys_one_souvenir_for_one_coin(mode: str) -> None:
    """Rulebook "Zen-emon": "Once per Village, Zen-emon can purchase one Souvenir for 1 coin
    instead of the marked price" (C21: combined freely with other purchases)."""
    rs = rs3(weights={"reserve": 0})
    cards = souvenir_ids(rs, "shamisen", "haori", "koma")  # art 3, clothing 2, small 1
    pos = make_position(
        rs,
        ["zen-emon", None, None],
        positions=[0, 14, 14],
        coins=[3, 0, 0],
        top={Deck.SOUVENIR: cards},
        mode=mode,
    )
    pos.stop(0, 8)
    assert [(e[3], e[4]) for e in pos.events(Ev.GAIN)] == [(cards[0], 1), (cards[2], 1)]
    assert pos.ps[0, PF.COINS] == 1 and pos.ps[0, PF.PTS_SOUVENIRS] == 4
    threes = souvenir_ids(rs, "shamisen", "sumie", "ukiyoe")
    bought = set()
    for seed in range(60):  # 4 coins, three 3-coin cards: two at most (1 + 3), never three
        pos = make_position(rs, ["zen-emon", None, None], coins=[4, 0, 0], bots=Bot.RANDOM, seed=seed)
        pos.pub["tbl"][:3] = threes
        mask, zen = kern(choose_village_nb, mode)(pos.pub, pos.ru, 0, 3)
        bought.add(bin(mask).count("1"))
        if bin(mask).count("1") == 2:
            assert zen >= 0 and (mask >> zen) & 1
    assert bought == {0, 1, 2}
