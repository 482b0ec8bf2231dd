"""Matsuri Travelers, Mari to Yashima, and the MT-* choices (seed 002 "Travelers Matsuri"; expansions.md A.9).

Misaki, Musubi, Mutsumi, Suseri and Takeru are on the page seed 002 lost (A.9: NIGHT-JSON,
BLACKCAT-HEAD); Titia and Yashima are printed with the promos (002:L559-568).
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import PF, Ability, Cfg, Deck, Ev, Opt, P, Space
from kernels.tokaido.core.prices import amulet_price_nb, legendary_price_nb, souvenir_price_nb
from kernels.tokaido.core.weights import W
from kernels.tokaido.game.crossroads import alternative_nb, alternative_possible_nb
from kernels.tokaido.game.matsuri_travelers import suseri_nb
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from tests.helpers.matsuri_travelers import ENCOUNTER, INN1, MT, NO_START, TEMPLE, VILLAGE, mt_rules
from tests.helpers.positions import (
    BOTH,
    amulet_ids,
    begin_turn,
    legendary_ids,
    make_rules,
    setup_position,
    souvenir_ids,
    xr_config,
    xr_position,
)

TRIO = ["kinko", "satsuki"]


# ------------------------------------------------------------------ Mari
@BOTH
def test_mari_two_points_per_temple_coin(mode: str) -> None:
    """002:L611: "When stopping at a Temple space, Mari scores 2 Journey points (instead of 1) for each coin
    she donates to the Temple"; the Temple ranking still counts coins."""
    rs = mt_rules(["mari", *TRIO])
    pos = xr_position(
        rs,
        travelers=["mari", *TRIO],
        positions=[0, 10, 12],
        coins=[3, 5, 5],
        markets={"amulets": []},
        mode=mode,
    )
    pos.stop(0, TEMPLE)
    d = pos.ps[0, PF.DONATED]
    assert d >= 1 and pos.ps[0, PF.PTS_TEMPLE] == 2 * d and pos.ps[0, PF.COINS] == 3 - d


@BOTH
def test_mari_free_amulet(mode: str) -> None:
    """002:L612: "If she decides to buy an Amulet, Mari can take it for free": possible with no coin."""
    rs = mt_rules(["mari", *TRIO])
    pos = xr_position(
        rs,
        travelers=["mari", *TRIO],
        positions=[2, 10, 12],
        coins=[0, 0, 5],
        markets={"amulets": ["devotion"]},
        mode=mode,
    )
    assert pos.k(amulet_price_nb)(pos.pub, pos.ru, 0) == 0 and pos.k(amulet_price_nb)(pos.pub, pos.ru, 1) == 1
    assert pos.k(alternative_possible_nb)(pos.pub, pos.ru, 0, Space.TEMPLE)
    assert not pos.k(alternative_possible_nb)(pos.pub, pos.ru, 1, Space.TEMPLE)
    pos.k(alternative_nb)(pos.pub, pos.hid, pos.ru, 0, Space.TEMPLE)
    (dev,) = amulet_ids(rs, "devotion")
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.AMULET, dev, 0, -1)] and pos.ps[0, PF.COINS] == 0


# ------------------------------------------------------------------ Misaki, Takeru
@BOTH
@pytest.mark.parametrize(("name", "space"), [("misaki", TEMPLE), ("takeru", ENCOUNTER)])
def test_watchers_coin_at_anyones_stop(mode: str, name: str, space: int) -> None:
    """A.9 (NIGHT-JSON): "Each time any Traveler (himself included) stops at a Temple (Misaki) / an Encounter
    space (Takeru), he takes 1 coin from the bank", on the stop, before its action; M29: the 2-player
    Neutral's stops trigger nothing."""
    ab = getattr(Ability, name.upper())
    rs = mt_rules([name, *TRIO])
    for mover in (1, 0):
        pos = xr_position(rs, travelers=[name, *TRIO], positions=[0, 0, 12], coins=[2, 5, 5], mode=mode)
        pos.stop(mover, space)
        assert pos.events(Ev.MT_COIN) == [(Ev.MT_COIN, 0, 1, -1, ab, -1)]
        assert pos.events()[1][0] == Ev.MT_COIN  # right after the move, before the space's events
    rs2 = mt_rules([name, "kinko"])
    pos = xr_position(rs2, travelers=[name, "kinko"], positions=[0, 10, 0], coins=[2, 5], mode=mode)
    pos.stop(2, TEMPLE)  # the Neutral
    assert pos.events(Ev.MT_COIN) == []


# ------------------------------------------------------------------ Musubi
@BOTH
@pytest.mark.parametrize("order", ["first", "middle", "last"])
def test_musubi_takes_from_his_arrival_neighbours(mode: str, order: str) -> None:
    """A.9 (NIGHT-JSON): at each intermediate Inn he takes 1 coin from each of his two arrival neighbours; the
    bank pays for the missing neighbour of the first or last to arrive (MT-Musubi: each coin when the
    neighbour arrives, before its meal)."""
    rs = mt_rules(["musubi", "kinko", "satsuki"])
    pos = xr_position(
        rs,
        travelers=["musubi", "kinko", "satsuki"],
        positions=[13, 12, 11],
        coins=[0, 5, 2],
        piles={Deck.MEAL: []},
        mode=mode,
    )
    arrivals = {"first": [0, 1, 2], "middle": [1, 0, 2], "last": [1, 2, 0]}[order]
    for t in arrivals:
        pos.stop(t, INN1)
    got = [(e[3], e[2]) for e in pos.events(Ev.MT_COIN)]
    want = {"first": [(-1, 1), (1, 1)], "middle": [(1, 1), (2, 1)], "last": [(2, 1), (-1, 1)]}[order]
    assert got == want and pos.ps[0, PF.COINS] == 2 and pos.ps[0, PF.MT_ROBBED] == 2
    assert pos.ps[1, PF.COINS] + pos.ps[2, PF.COINS] == 7 - sum(1 for s, _ in got if s >= 0)


@BOTH
def test_musubi_all_arrived_choice(mode: str) -> None:
    """MT-Musubi, ``abilities.musubi_timing = "all_arrived"``: both coins once everyone has arrived and eaten;
    a neighbour with no coin left is paid for by the bank."""
    rs = mt_rules(["musubi", "kinko", "satsuki"], (("abilities.musubi_timing", "all_arrived"),))
    pos = xr_position(
        rs,
        travelers=["musubi", "kinko", "satsuki"],
        positions=[13, 12, 11],
        coins=[0, 5, 0],
        piles={Deck.MEAL: []},
        mode=mode,
    )
    for t in (1, 0):
        pos.stop(t, INN1)
    assert pos.events(Ev.MT_COIN) == []
    pos.stop(2, INN1)
    assert [(e[3], e[2]) for e in pos.events(Ev.MT_COIN)] == [(1, 1), (-1, 1)] and pos.ps[0, PF.COINS] == 2


# ------------------------------------------------------------------ Mutsumi
@BOTH
def test_mutsumi_may_leave_first(mode: str) -> None:
    """A.9 (NIGHT-JSON, tile #1-#4): at the first 4 Inns he may leave first, whatever his arrival order;
    asked once the whole group is at the Inn; never at the last Inn."""
    rs = mt_rules(["mutsumi", "kinko", "satsuki"])
    pos = xr_position(
        rs, travelers=["mutsumi", "kinko", "satsuki"], positions=[14, 14, 14], arrival=[0, 1, 2], mode=mode
    )
    t, _, _ = begin_turn(pos)
    (opt,) = pos.events(Ev.OPTION)
    assert opt[1:4] == (0, Opt.MUTSUMI, 1) and t == 0
    pos = xr_position(rs, travelers=["mutsumi", "kinko", "satsuki"], positions=[14, 14, 12], mode=mode)
    t, _, _ = begin_turn(pos)
    assert t == 2 and pos.events(Ev.OPTION) == []


# ------------------------------------------------------------------ Suseri
@BOTH
def test_suseri_a_point_per_card_type(mode: str) -> None:
    """A.9 (NIGHT-JSON): at the end, +1 point per card type in her collection, of 12 (MT-Suseri: cards held
    at the end; Amulets used are gone)."""
    rs = mt_rules(["suseri", *TRIO])
    fields = {"HOT_SPRINGS": 2, "SOUVENIRS": 3, "MEALS": 4, "PAN1": 2, "CHERRY": 1, "AMULETS": 0}
    pos = xr_position(
        rs, travelers=["suseri", *TRIO], positions=[54, 54, 54], fields={0: fields, 1: fields}, mode=mode
    )
    pos.k(suseri_nb)(pos.pub, pos.ru)
    assert pos.ps[0, PF.PTS_OTHER] == 5 and pos.ps[1, PF.PTS_OTHER] == 0


# ------------------------------------------------------------------ Titia
@BOTH
def test_titia_art_and_legendary_one_coin_less(mode: str) -> None:
    """002:L559-562: "Titia buys Souvenirs of the Art type and Legendary Objects for 1 coin less than normal.
    Some cards will therefore be free for Titia" (MT-Titia: Shodo 1 -> 0)."""
    rs = mt_rules(["titia", *TRIO])
    netsuke, ukiyoe, koma = souvenir_ids(rs, "netsuke", "ukiyoe", "koma")
    shodo, masamune = legendary_ids(rs, "shodo", "masamune")
    pos = xr_position(rs, travelers=["titia", *TRIO], positions=[0, 10, 12], mode=mode)
    price = pos.k(souvenir_price_nb)
    assert [price(pos.pub, pos.ru, 0, c) for c in (netsuke, ukiyoe, koma)] == [1, 2, 1]
    assert [price(pos.pub, pos.ru, 1, c) for c in (netsuke, ukiyoe, koma)] == [2, 3, 1]
    lp = pos.k(legendary_price_nb)
    assert lp(pos.pub, pos.ru, 0, shodo) == rs.rules.legendary[shodo].cost - 1 == 0
    assert lp(pos.pub, pos.ru, 0, masamune) == rs.rules.legendary[masamune].cost - 1


# ------------------------------------------------------------------ Yashima
@BOTH
@pytest.mark.parametrize("same_inn", [False, True])
def test_yashima_free_amulet_at_intermediate_inns(mode: str, same_inn: bool) -> None:
    """002:L564-568: "At the intermediate inns, Yashima receives a free random Amulet card. If there are no
    Amulet cards remaining, Yashima can no longer benefit"; MT-Yashima: not usable at that Inn
    (``abilities.yashima_same_inn = false``; true: usable at once)."""
    rs = mt_rules(["yashima", *TRIO], (("abilities.yashima_same_inn", str(same_inn).lower()),))
    (hosp,) = amulet_ids(rs, "hospitality")
    pos = xr_position(
        rs,
        travelers=["yashima", *TRIO],
        positions=[13, 10, 12],
        coins=[0, 5, 5],
        markets={"amulets": ["hospitality"]},
        mode=mode,
    )
    pos.stop(0, INN1)
    assert pos.events(Ev.GAIN)[0] == (Ev.GAIN, 0, Deck.AMULET, hosp, 0, -1)
    used = pos.events(Ev.USE)
    assert (len(used) == 1) == same_inn  # Hospitality pays the meal only if usable at once
    assert pos.ps[0, PF.MEALS] == (1 if same_inn else 0)
    pos = xr_position(
        rs, travelers=["yashima", *TRIO], positions=[13, 10, 12], markets={"amulets": []}, mode=mode
    )
    pos.stop(0, INN1)
    assert [e for e in pos.events(Ev.GAIN) if e[2] == Deck.AMULET] == []


# ------------------------------------------------------------------ the draft (A4, M1)
@pytest.mark.parametrize("seed", [1, 2])
def test_draft_deal_three_keep_one(seed: int) -> None:
    """002:L281: "you can now choose your Traveler between 3 instead of just 2" (``--set draft.dealt=3``):
    each player is dealt 3 different Travelers (``DEAL(p, t1, t2, t3)``) and keeps one of them."""
    cfg = xr_config(4, travelers="draft", expansions=MT, overrides=(*NO_START, ("draft.dealt", "3")))
    pos = setup_position(make_rules(cfg), seed=seed)
    deals = pos.events(Ev.DEAL)
    dealt = [d[2:5] for d in deals]
    assert len(deals) == 4 and len({t for d in dealt for t in d}) == 12 and all(d[5] == -1 for d in deals)
    for p, d in enumerate(dealt):
        assert pos.ps[p, PF.TRAVELER] in d and pos.ps[p, PF.ALT_TRAVELER] in d
        assert pos.ps[p, PF.ALT_TRAVELER] != pos.ps[p, PF.TRAVELER]


def test_draft_free_choice() -> None:
    """002:L281: "or directly take the Traveler of your choice among all of them" (``--set draft.mode=free``):
    in player order each keeps any Traveler left (``KEEP`` only), by the bots' draft priors: greedy
    bots take the best prior left."""
    cfg = xr_config(3, travelers="draft", expansions=MT, overrides=(*NO_START, ("draft.mode", "free")))
    rs = make_rules(cfg)
    pos = setup_position(rs, seed=1)
    assert pos.events(Ev.DEAL) == [] and len(pos.events(Ev.KEEP)) == 3
    w, trav = rs.ru["botw"][0], rs.ru["trav"]

    def value(i: int) -> float:
        return float(w[W.DRAFT_COIN] * trav[i, 0] + w[W.TRAV0 + i])

    best = sorted((value(i) for i in range(len(rs.rules.travelers))), reverse=True)
    kept = [int(pos.ps[p, PF.TRAVELER]) for p in range(3)]
    assert len(set(kept)) == 3 and [value(i) for i in kept] == best[:3]  # ties: any of the tied


@pytest.mark.parametrize(
    ("sets", "message"),
    [
        ({"draft.dealt": "4"}, r"^draft.dealt = 4: deal 2 or 3 Travelers to each player \(seed 002\)$"),
        ({"draft.mode": "auction"}, r"^draft.mode = 'auction': choose deal or free \(seed 002\)$"),
        ({"draft.dealt": "3"}, r"^dealing 3 to each of 4 players needs 12 Travelers, the pool has 10; "),
    ],
)
def test_draft_impossible_values_are_refused(sets: dict[str, str], message: str) -> None:
    """M1: ``draft.dealt`` is 2 or 3 and ``draft.mode`` deal or free; dealing more than the pool holds is
    refused with one line (here the base game's 10 Travelers at 4 players)."""
    with pytest.raises(ConfigError, match=message):
        GameConfig(n_players=4, overrides=tuple(sets.items()))


def test_draft_rules_recorded_in_the_manifest() -> None:
    """M1: "both recorded in the manifest": the overrides are part of the configuration's record and spec."""
    cfg = GameConfig(n_players=4, expansions=("crossroads", "matsuri"), overrides=(("draft.dealt", "3"),))
    assert cfg.to_dict()["overrides"] == [["draft.dealt", "3"]] and "set:draft.dealt=3" in cfg.spec()
    assert GameConfig.parse(cfg.spec()).cfg_array(cfg.rules())[Cfg.DRAFT_DEALT] == 3


# ------------------------------------------------------------------ Rakuren
RAK = ["rakuren", *TRIO]
FIVE = ("koma", "gofu", "netsuke", "ukiyoe", "yunomi")


def _rakuren_stop(mode: str, coins: int, legendary: list[str], overrides: tuple[tuple[str, str], ...] = ()):
    rs = mt_rules(RAK, overrides)
    pos = xr_position(
        rs,
        travelers=RAK,
        positions=[0, 10, 12],
        coins=[coins, 5, 5],
        piles={Deck.SOUVENIR: souvenir_ids(rs, *FIVE)},
        markets={"legendary": legendary},
        mode=mode,
    )
    pos.stop(0, VILLAGE)
    return rs, pos


@BOTH
def test_rakuren_four_souvenirs_and_a_legendary(mode: str) -> None:
    """A.9 (NIGHT-JSON): "At a Shop he may, instead of the usual actions, draw 4 random Souvenirs and 1 random
    Legendary Object, and buy any number of them at their costs" (MT-Rakuren: the Legendary is random among
    the market's, bought after the souvenirs; no Crossroads choice)."""
    rs, pos = _rakuren_stop(mode, 20, ["masamune"])
    (masamune,) = legendary_ids(rs, "masamune")
    assert pos.events(Ev.OPTION)[0] == (Ev.OPTION, 0, Opt.RAKUREN, 1, -1, -1)
    assert pos.events(Ev.MT_LEGEND) == [(Ev.MT_LEGEND, 0, masamune, -1, -1, -1)]
    assert [e[3] for e in pos.events(Ev.DRAW)] == souvenir_ids(rs, *FIVE[:4])
    assert pos.events(Ev.CHOICE) == []  # instead of the usual actions
    bought = [e[2:4] for e in pos.events(Ev.GAIN)]
    assert (Deck.LEGENDARY, masamune) in bought and pos.pub["mkt"][0, masamune] == 0
    assert pos.ps[0, PF.LEGENDARY] == 1 and pos.ps[0, PF.SOUVENIRS] >= 1  # souvenirs and the Legendary
    assert pos.ps[0, PF.PTS_LEGENDARY] == rs.ru["params"][P.SWORD_POINTS]


@BOTH
def test_rakuren_unbought_cards(mode: str) -> None:
    """MT-Rakuren: unbought souvenirs go under the pile; a Legendary he cannot pay stays in the market
    (1 coin: Masamune costs 3, so he is not even asked)."""
    rs, pos = _rakuren_stop(mode, 1, ["masamune"])
    (masamune,) = legendary_ids(rs, "masamune")
    assert pos.events(Ev.MT_LEGEND) == [(Ev.MT_LEGEND, 0, masamune, -1, -1, -1)]
    assert [e for e in pos.events(Ev.OPTION) if e[2] == Opt.RAKUREN_BUY] == []
    assert pos.pub["mkt"][0, masamune] == 1 and pos.ps[0, PF.LEGENDARY] == 0
    left = pos.pile(Deck.SOUVENIR)
    assert left[0] == souvenir_ids(rs, "yunomi")[0] and len(left) == 5 - pos.ps[0, PF.SOUVENIRS]
    assert sorted(left[1:]) == sorted(e[3] for e in pos.events(Ev.UNDER))


@BOTH
@pytest.mark.parametrize("off", [False, True])
def test_rakuren_no_legendary_left(mode: str, off: bool) -> None:
    """MT-Rakuren: with no Legendary Object left in the market (or ``abilities.rakuren_legendary = false``)
    he draws only the 4 souvenirs."""
    over = (("abilities.rakuren_legendary", "false"),) if off else ()
    rs, pos = _rakuren_stop(mode, 20, ["masamune"] if off else [], over)
    assert pos.events(Ev.MT_LEGEND) == [] and len(pos.events(Ev.DRAW)) == 4 and pos.ps[0, PF.LEGENDARY] == 0


@BOTH
def test_rakuren_only_his(mode: str) -> None:
    """Only Rakuren is asked (``Opt.RAKUREN``): another Traveler's Shop is the usual one (a Crossroads
    choice, 3 souvenirs)."""
    rs = mt_rules(RAK)
    pos = xr_position(
        rs, travelers=RAK, positions=[0, 10, 12], coins=[5, 5, 5], markets={"legendary": []}, mode=mode
    )
    pos.ps[0, PF.ABILITY] = Ability.SATSUKI  # not Rakuren now
    pos.stop(0, VILLAGE)
    assert [e for e in pos.events(Ev.OPTION) if e[2] == Opt.RAKUREN] == []
    assert len(pos.events(Ev.DRAW)) == 3 and len(pos.events(Ev.CHOICE)) == 1


def test_rakuren_draw_bounds_refused() -> None:
    """MT-Rakuren as data: ``abilities.rakuren_souvenirs`` above the kernels' 4-card Shop table is refused in
    one line."""
    with pytest.raises(ConfigError, match=r"^abilities.rakuren_souvenirs is 0 to 4 "):
        mt_rules(RAK, (("abilities.rakuren_souvenirs", "5"),))


# ------------------------------------------------------------------ with the Matsuri cards
def test_ayumu_meal_is_free_with_choyo() -> None:
    """002:L597 with L1537-1545, M24, MT-Ayumu: his meal costs 1, and Cho-yo's 1 off still applies,
    so at the Cho-yo Inn his meals cost 0 (he eats with no coin)."""
    from kernels.tokaido.core.enums import G
    from tests.helpers.matsuri_positions import matsuri_ids
    from tests.helpers.positions import meal_ids

    rs = mt_rules(["ayumu", "kinko", "satsuki"])
    pos = xr_position(
        rs,
        travelers=["ayumu", "kinko", "satsuki"],
        positions=[13, 10, 12],
        coins=[0, 5, 5],
        top={Deck.MEAL: meal_ids(rs, "fugu", "tai_meshi", "sushi", "udon", "soba", "dango")},
    )
    pos.gs[G.M_NEXT] = 1 << matsuri_ids(rs, "choyo")[0]
    pos.stop(0, INN1)
    (gain,) = [e for e in pos.events(Ev.GAIN) if e[2] == Deck.MEAL]
    assert gain[4] == 0 and pos.ps[0, PF.MEALS] == 1 and pos.ps[0, PF.COINS] == 0
