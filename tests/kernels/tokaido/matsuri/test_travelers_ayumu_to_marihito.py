"""Matsuri Travelers, Ayumu to Marihito (seed 002 "Travelers Matsuri", 002:L596-615; expansions.md A.9).

Hand-made positions (``tests/helpers/positions.py``). Each test quotes seed 002 or names the MT-* choice
(docs/rules-choices.md); docs/rules.md "Matsuri Travelers" lists them as MT1...
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import PF, Ability, Deck, DieSrc, Ev, Opt, Space
from kernels.tokaido.core.prices import souvenir_price_nb
from kernels.tokaido.game.crossroads import alternative_nb, calligraphy_scoring_nb
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from tests.helpers.matsuri_travelers import FARM, INN1, LAST, MT, mt_rules
from tests.helpers.positions import (
    BOTH,
    calligraphy_ids,
    hot_spring_ids,
    meal_ids,
    setup_position,
    souvenir_ids,
    xr_config,
    xr_position,
)

MT_TILES = {  # 002 tiles (VALEX-TILES): coins, gender
    "ayumu": (5, "M"),
    "chihaya": (3, "F"),
    "iyasaka": (5, "M"),
    "kamui": (3, "M"),
    "kidzuna": (3, "F"),
    "kushinada": (4, "F"),
    "mari": (4, "F"),
    "marihito": (5, "M"),
    "misaki": (4, "M"),
    "musubi": (6, "M"),
    "mutsumi": (7, "M"),
    "rakuren": (5, "M"),
    "suseri": (3, "F"),
    "takeru": (4, "M"),
    "titia": (6, "F"),
    "yashima": (4, "F"),
}


# ------------------------------------------------------------------ tiles and pools
def test_matsuri_travelers_tiles_and_pools() -> None:
    """A.9/A.10: the 16 tiles' coins and genders; seed 002 "Add the new Travelers to the old" (L281): the
    Crossroads + Matsuri pool is 10 + 6 + 16; --expansions promos adds Titia (Yashima needs Crossroads)."""
    rules = xr_config(5, travelers="draft", expansions=MT).rules()
    mt = {t.name: (t.coins, t.gender, t.ability) for t in rules.travelers[16:]}
    assert {n: v[:2] for n, v in mt.items()} == MT_TILES and len(rules.travelers) == 32
    assert all(v[2] == getattr(Ability, n.upper()) for n, v in mt.items())
    promos = GameConfig(n_players=3, expansions=("promos",)).rules()
    promo4 = ["antoine", "naiade", "eriku", "felicia"]  # the promo Travelers
    assert sorted(t.name for t in promos.travelers[10:]) == sorted(["titia", *promo4])
    xr_promos = GameConfig(n_players=3, expansions=("crossroads", "promos")).rules()
    assert sorted(t.name for t in xr_promos.travelers[16:]) == sorted(["titia", "yashima", *promo4])
    assert "ayumu" not in [t.name for t in xr_promos.travelers]


def test_yashima_needs_crossroads() -> None:
    """002:L564-568: Yashima takes Amulet cards, a Crossroads component: naming her without Crossroads is
    a one-line error that says how to fix it; without promos or Matsuri it names the boxes she comes in."""
    with pytest.raises(
        ConfigError, match=r"^Traveler 'yashima' needs --expansions crossroads \(seed 002\): add it$"
    ):
        GameConfig(n_players=2, expansions=("promos",), travelers="yashima,kinko")
    with pytest.raises(
        ConfigError,
        match="yashima is a Matsuri or promo Traveler: add --expansions "
        "crossroads,matsuri or --expansions crossroads,promos",
    ):
        GameConfig(n_players=2, travelers="yashima,kinko")


# ------------------------------------------------------------------ Ayumu
@BOTH
def test_ayumu_meals_cost_one_coin(mode: str) -> None:
    """002:L597: "Meal cards only cost Ayumu 1 coin, regardless of their normal costs"."""
    rs = mt_rules(["ayumu", "kinko", "satsuki"])
    hand = meal_ids(rs, "fugu", "tai_meshi", "sushi", "udon")
    pos = xr_position(
        rs,
        travelers=["ayumu", "kinko", "satsuki"],
        positions=[13, 10, 12],
        coins=[1, 5, 5],
        top={Deck.MEAL: hand},
        mode=mode,
    )
    pos.stop(0, INN1)
    (gain,) = [e for e in pos.events(Ev.GAIN) if e[2] == Deck.MEAL]
    assert gain[4] == 1 and pos.ps[0, PF.COINS] == 0 and pos.ps[0, PF.MEALS] == 1


@BOTH
def test_ayumu_small_objects_free_at_a_shop(mode: str) -> None:
    """002:L598: "when at a Shop space, Souvenirs of the Small object type cost Ayumu nothing"."""
    rs = mt_rules(["ayumu", "kinko", "satsuki"])
    koma, netsuke = souvenir_ids(rs, "koma", "netsuke")
    pos = xr_position(rs, travelers=["ayumu", "kinko", "satsuki"], positions=[0, 10, 12], mode=mode)
    assert pos.k(souvenir_price_nb)(pos.pub, pos.ru, 0, koma) == 0
    assert pos.k(souvenir_price_nb)(pos.pub, pos.ru, 0, netsuke) == 2
    assert pos.k(souvenir_price_nb)(pos.pub, pos.ru, 1, koma) == 1


# ------------------------------------------------------------------ Chihaya
@BOTH
def test_chihaya_hot_spring_at_intermediate_inns(mode: str) -> None:
    """002:L599-600: "When stopping at the intermediate Inns, Chihaya receives a Hot Spring card", applied
    on arrival, before the meal (002:L596, A5); none at the last Inn."""
    rs = mt_rules(["chihaya", "kinko", "satsuki"])
    (h3,) = hot_spring_ids(rs, 3)
    pos = xr_position(
        rs,
        travelers=["chihaya", "kinko", "satsuki"],
        positions=[13, 10, 12],
        top={Deck.HOT_SPRING: [h3]},
        mode=mode,
    )
    pos.stop(0, INN1)
    ev = pos.events()
    assert ev[1:3] == [(Ev.DRAW, 0, Deck.HOT_SPRING, h3, -1, -1), (Ev.GAIN, 0, Deck.HOT_SPRING, h3, 0, -1)]
    assert ev[3][0] == Ev.DRAW and ev[3][2] == Deck.MEAL  # then the meal hand
    assert pos.ps[0, PF.HOT_SPRINGS] == 1 and pos.ps[0, PF.PTS_HOT_SPRINGS] == 3
    pos = xr_position(rs, travelers=["chihaya", "kinko", "satsuki"], positions=[53, 50, 52], mode=mode)
    pos.stop(0, LAST)
    assert pos.ps[0, PF.HOT_SPRINGS] == 0


# ------------------------------------------------------------------ Iyasaka
@BOTH
def test_iyasaka_one_more_coin_at_the_farm(mode: str) -> None:
    """002:L601: "Iyasaka receives 1 additional coin if he chooses to take 3 coins from the bank"."""
    rs = mt_rules(["iyasaka", "kinko", "satsuki"])
    pos = xr_position(
        rs, travelers=["iyasaka", "kinko", "satsuki"], positions=[0, 10, 12], coins=[0, 5, 5], mode=mode
    )
    pos.stop(0, FARM)  # with 0 coins the Gaming Room's bet is impossible: the base action
    assert pos.ps[0, PF.COINS] == 4
    pos = xr_position(
        rs, travelers=["kinko", "iyasaka", "satsuki"], positions=[0, 10, 12], coins=[0, 5, 5], mode=mode
    )
    pos.stop(0, FARM)
    assert pos.ps[0, PF.COINS] == 3


@BOTH
def test_iyasaka_rerolls_the_fortune_die(mode: str) -> None:
    """002:L602: "Iyasaka can re-roll the Fortune die if he chooses to try his luck in the Gaming Room (the
    second result must be used, even if it is worse than the first one)": the bot re-rolls a face below the
    die's mean and keeps one above; the second roll is logged with its own source and is the one paid."""
    rs = mt_rules(["iyasaka", "kinko", "satsuki"], (("crossroads.fortune_die", "0,0,0,4,4,4"),))
    seen = set()
    for seed in range(12):
        pos = xr_position(
            rs,
            travelers=["iyasaka", "kinko", "satsuki"],
            positions=[0, 10, 12],
            coins=[3, 5, 5],
            seed=seed,
            mode=mode,
        )
        pos.k(alternative_nb)(pos.pub, pos.hid, pos.ru, 0, Space.FARM)
        dice = pos.events(Ev.DIE)
        (opt,) = [e for e in pos.events(Ev.OPTION) if e[2] == Opt.IYASAKA]
        assert opt[3] == (1 if dice[0][2] == 0 else 0)
        assert [d[4] for d in dice] == [DieSrc.GAMING_ROOM, DieSrc.IYASAKA][: 1 + opt[3]]
        bet = dice[0][3]
        assert pos.ps[0, PF.COINS] == 3 - bet + bet * dice[-1][2] and pos.ps[0, PF.GAMBLES] == 1
        seen.add((dice[0][2], opt[3]))
    assert seen == {(0, 1), (4, 0)}
    pos = xr_position(
        rs, travelers=["kinko", "iyasaka", "satsuki"], positions=[0, 10, 12], coins=[3, 5, 5], mode=mode
    )
    pos.k(alternative_nb)(pos.pub, pos.hid, pos.ru, 0, Space.FARM)
    assert len(pos.events(Ev.DIE)) == 1 and pos.events(Ev.OPTION) == []


# ------------------------------------------------------------------ Kamui
@BOTH
def test_kamui_three_points_without_a_meal(mode: str) -> None:
    """002:L603-605: "When stopping at the Intermediate Inns and at the last Inn, Kamui scores 3 points if he
    doesn't buy a Meal card"; he scores nothing when he eats."""
    rs = mt_rules(["kamui", "kinko", "satsuki"])
    for s, before in ((INN1, 13), (LAST, 53)):
        pos = xr_position(
            rs,
            travelers=["kamui", "kinko", "satsuki"],
            positions=[before, 10, 12],
            coins=[0, 5, 5],
            mode=mode,
        )
        pos.stop(0, s)
        assert pos.ps[0, PF.MEALS] == 0 and pos.ps[0, PF.PTS_OTHER] == 3 == pos.ps[0, PF.SCORE]
    pos = xr_position(
        rs,
        travelers=["kamui", "kinko", "satsuki"],
        positions=[13, 10, 12],
        coins=[9, 5, 5],
        top={Deck.MEAL: meal_ids(rs, "misoshiru", "dango", "sushi", "udon")},
        mode=mode,
    )
    pos.stop(0, INN1)
    assert pos.ps[0, PF.MEALS] == 1 and pos.ps[0, PF.PTS_OTHER] == 0


@BOTH
@pytest.mark.parametrize("cancels", [True, False])
def test_kamui_free_meal_choice(mode: str, cancels: bool) -> None:
    """MT-Kamui: "does not buy" (002:L604) read as "takes no meal card": a free meal (Hospitality) cancels his
    points (``abilities.kamui_free_meal_cancels = true``); the literal reading (false) scores them."""
    from kernels.tokaido.game.matsuri_travelers import kamui_nb

    rs = mt_rules(
        ["kamui", "kinko", "satsuki"], (("abilities.kamui_free_meal_cancels", str(cancels).lower()),)
    )
    pos = xr_position(
        rs,
        travelers=["kamui", "kinko", "satsuki"],
        positions=[14, 10, 12],
        coins=[2, 5, 5],
        fields={0: {"MEALS": 1}},
        mode=mode,
    )
    pos.k(kamui_nb)(pos.pub, pos.ru, 0, 0, 2)  # one meal card more, no coin paid
    assert pos.ps[0, PF.PTS_OTHER] == (0 if cancels else 3)
    pos.k(kamui_nb)(pos.pub, pos.ru, 0, 1, 2)  # no meal at all
    assert pos.ps[0, PF.PTS_OTHER] == (3 if cancels else 6)


# ------------------------------------------------------------------ Kidzuna
@BOTH
@pytest.mark.parametrize("coins", [0, 9])
def test_kidzuna_extra_meal_before_hers(mode: str, coins: int) -> None:
    """002:L606-607: "Kidzuna can buy another Meal IN ADDITION to her usual Meal. First, she reveals the first
    card of the Meal stack and can buy it at the indicated cost"; arriving first she reveals it before the
    hand is drawn (A5); a card she leaves goes under (MT-Kidzuna); the extra meal is no Inn meal for
    Fasting."""
    rs = mt_rules(["kidzuna", "kinko", "satsuki"])
    pile = meal_ids(rs, "tai_meshi", "misoshiru", "dango", "sushi", "udon")
    pos = xr_position(
        rs,
        travelers=["kidzuna", "kinko", "satsuki"],
        positions=[13, 10, 12],
        coins=[coins, 5, 5],
        top={Deck.MEAL: pile},
        mode=mode,
    )
    pos.stop(0, INN1)
    ev = pos.events()
    assert ev[1] == (Ev.DRAW, 0, Deck.MEAL, pile[0], -1, -1)
    if coins:
        cost = rs.rules.meals[pile[0]].cost
        assert ev[2:4] == [(Ev.OPTION, 0, Opt.KIDZUNA, 1, -1, -1), (Ev.GAIN, 0, Deck.MEAL, pile[0], cost, -1)]
        assert pos.ps[0, PF.MEALS] == 2 and pos.ps[0, PF.INN_MEALS] == 1 and pos.ps[0, PF.MT_EXTRA_MEALS] == 1
    else:
        assert ev[2] == (Ev.UNDER, -1, Deck.MEAL, pile[0], -1, -1) and pos.pile(Deck.MEAL)[-1] == pile[0]
        assert pos.ps[0, PF.MEALS] == 0
    assert ev[4 if coins else 3][2] == Deck.MEAL and pos.hand() != []  # then the Inn's hand


# ------------------------------------------------------------------ Kushinada
@pytest.mark.parametrize(
    ("names", "want"),
    [
        (["kushinada", "kinko", "satsuki", "zen-emon"], [4 + 3, 6, 1, 5]),
        (["kinko", "kushinada"], [6, 4 + 2]),  # 2 players: the opponent and the bank (the Neutral)
    ],
)
def test_kushinada_collects_a_coin_from_everyone(names: list[str], want: list[int]) -> None:
    """002:L608-610: "At the beginning of the game, all the other Travelers give 1 coin each to Kushinada";
    "In a 2-player game, Kushinada's opponent gives her 1 coin, and Kushinada takes 1 coin from the bank"."""
    pos = setup_position(mt_rules(names), seed=3)
    assert [int(pos.ps[p, PF.COINS]) for p in range(len(names))] == want
    assert [int(pos.ps[p, PF.COINS_START]) for p in range(len(names))] == want
    assert len(pos.events(Ev.MT_COIN)) == (3 if len(names) == 4 else 2)


def test_kushinada_bank_pays_for_an_empty_purse() -> None:
    """MT-Kushinada: after Preparations a purse may be empty (Gotozaemon starts with 0): the bank pays."""
    pos = setup_position(mt_rules(["kushinada", "gotozaemon", "kinko"]), seed=1)
    assert [int(pos.ps[p, PF.COINS]) for p in range(3)] == [6, 0, 6]
    assert sorted(e[3] for e in pos.events(Ev.MT_COIN)) == [-1, 2]


# ------------------------------------------------------------------ Marihito
@BOTH
def test_marihito_worked_example(mode: str) -> None:
    """002:L613-615: "Foresight gives him 8 points (he has 4 coins left) and Contemplation gives him 6 points
    (he has one complete Panorama and 3 Cherry Tree cards). He chooses to double his Foresight Calligraphy
    (2 x 8 points) for a total of 22 Calligraphy points"."""
    for name, want in (("marihito", 22), ("kinko", 14)):
        rs = mt_rules([name, "satsuki", "mari"])
        pos = xr_position(
            rs,
            travelers=[name, "satsuki", "mari"],
            positions=[54, 54, 54],
            coins=[4, 5, 5],
            calligraphy={0: ["foresight", "contemplation"]},
            fields={0: {"PAN0": 3, "CHERRY": 3}},
            mode=mode,
        )
        pos.k(calligraphy_scoring_nb)(pos.pub, pos.ru)
        assert pos.ps[0, PF.PTS_CALLIGRAPHY] == want
    assert calligraphy_ids(rs, "foresight", "contemplation") == [0, 1]
