"""Crossroads rules of the six Amulets: Fortune, Friendship, Health, Vitality, Hospitality,
Devotion; when an Amulet may be used and where it goes afterwards.

Hand-made positions (``tests/helpers/positions.py``: ``xr_position``, ``give_amulets``, ``xmove``,
``begin_turn``). Each test quotes the Crossroads rulebook (seed 002, "Amulet cards"; the German
section "Gesundheit", "Freundschaft", "Gastfreundschaft", "Andacht") or names the rule choice
(docs/rules-choices.md, C23-C39).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.tokaido.core.board import legal_moves_nb, next_mover_nb
from kernels.tokaido.core.enums import PF, Deck, DieSrc, Ev, G, Opt, Space
from kernels.tokaido.core.score import temple_ranking_nb
from kernels.tokaido.game.crossroads import alternative_nb, friendship_moves_nb, vitality_nb
from kernels.tokaido.game.stations import meal_nb
from sim.games.tokaido.referee.state import GameState
from tests.helpers.positions import (
    BOTH,
    INNS,
    LAST,
    amulet_ids,
    begin_turn,
    kern,
    legendary_ids,
    make_rules,
    meal_ids,
    souvenir_ids,
    xmove,
    xr_config,
    xr_position,
)

CFG3 = xr_config(3)
VITALITY, FORTUNE, HEALTH, FRIENDSHIP, HOSPITALITY, DEVOTION = range(6)  # card ids (crossroads.toml)
VILLAGE, TEMPLE, ENCOUNTER, PADDY, HOT, MOUNTAIN, FARM = 1, 2, 3, 4, 5, 6, 7


def rs3(**kw):
    return make_rules(CFG3, **kw)


def rich_die(n: int = 3):
    """Every face x3: the greedy player always uses the Fortune Amulet (3 coins)."""
    return make_rules(xr_config(n, overrides=(("crossroads.fortune_die", "3,3,3,3,3,3"),)))


def held(pos, t: int) -> set[int]:
    return {c for c in range(8) if (int(pos.ps[t, PF.AMULETS]) >> c) & 1}


def test_amulet_card_ids() -> None:
    """game-data.md 8.2: six Amulets, one of each (the ids these tests use)."""
    rs = rs3()
    assert amulet_ids(rs, "vitality", "fortune", "health", "friendship", "hospitality", "devotion") == list(
        range(6)
    )


# ------------------------------------------------------------------ Fortune
@BOTH
def test_fortune_rolls_the_die_before_moving(mode: str) -> None:
    """Seed 002 "Fortune": "This Amulet lets the Traveler roll the Fortune die before moving, and
    perhaps win coins depending on the result (... where X=0 coins and x4=4 coins)". With no coin a
    Village or Temple is closed; after rolling x3 (3 coins) before the move they are legal stops;
    the Amulet returns to the market (C35)."""
    pos = xr_position(rich_die(), positions=[0, 14, 14], coins=[0, 5, 5], amulets={0: ["fortune"]}, mode=mode)
    t, ctrl, legal = begin_turn(pos)
    assert (t, ctrl) == (0, 0)
    assert pos.events() == [(Ev.USE, 0, FORTUNE, -1, -1, -1), (Ev.DIE, 0, 3, 0, DieSrc.FORTUNE, -1)]
    assert pos.ps[0, PF.COINS] == 3 and pos.ps[0, PF.GAMBLES] == 0
    assert legal == list(range(1, 15))  # Village 1, Temple 2 now open
    assert held(pos, 0) == set() and pos.pub["mkt"][1, FORTUNE] == 1
    # without the Amulet: no roll, and no Village or Temple with 0 coins
    pos = xr_position(rich_die(), positions=[0, 14, 14], coins=[0, 5, 5], mode=mode)
    _, _, legal = begin_turn(pos)
    assert pos.events() == [] and VILLAGE not in legal and TEMPLE not in legal


@BOTH
def test_used_amulet_returns_to_the_market(mode: str) -> None:
    """Seed 002: "Used cards are returned to their stock on the Crossroads board, and can be drawn
    again later in the game": another traveler then buys the same Fortune card at a Temple."""
    pos = xr_position(
        rich_die(),
        markets={"amulets": []},
        positions=[0, 1, 14],
        coins=[0, 5, 5],
        amulets={0: ["fortune"]},
        mode=mode,
    )
    begin_turn(pos)
    assert pos.pub["mkt"][1].tolist()[:6] == [0, 1, 0, 0, 0, 0]
    kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 1, Space.TEMPLE)
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 1, Deck.AMULET, FORTUNE, 1, -1)]
    assert held(pos, 1) == {FORTUNE} and pos.pub["mkt"][1].sum() == 0


# ------------------------------------------------------------------ timing (C35)
@BOTH
def test_amulet_usable_from_the_buyers_next_move(mode: str) -> None:
    """Seed 002 "Amulet cards": "he can use it on his next move, but never on the same turn as when it
    is acquired" (German "erst ab der nächsten Runde"); C35: usable from the buyer's own next move,
    whoever moved in between, never at the stop where it was bought. The Fortune Amulet bought at
    the Temple is rolled at once when the buyer, still last, moves again (nobody moved between)."""
    rs = rich_die()
    pos = xr_position(rs, markets={"amulets": ["fortune"]}, positions=[0, 10, 12], coins=[5, 5, 5], mode=mode)
    assert begin_turn(pos)[0] == 0
    xmove(pos, 0, TEMPLE)
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.AMULET, FORTUNE, 1, -1)]
    assert pos.ps[0, PF.AMULETS_NEW] == 1 << FORTUNE  # not at this stop
    pos.clear_log()
    assert begin_turn(pos)[0] == 0  # still last: his next move
    assert pos.events() == [(Ev.USE, 0, FORTUNE, -1, -1, -1), (Ev.DIE, 0, 3, 0, DieSrc.FORTUNE, -1)]
    assert pos.ps[0, PF.AMULETS_NEW] == 0 and pos.ps[0, PF.COINS] == 4 + 3


@BOTH
def test_amulet_never_at_the_stop_where_it_was_bought(mode: str) -> None:
    """Seed 002: "never on the same turn as when it is acquired": a Vitality Amulet bought at a Temple
    that leaves the buyer alone in the lead is not used after that stop (C35); the online rule
    ``crossroads.amulets.usable_where_bought=true`` lets him use it there and move again."""
    for same_stop in (False, True):
        rs = make_rules(xr_config(3, overrides=(("crossroads.amulets.usable_where_bought", str(same_stop)),)))
        pos = xr_position(
            rs, markets={"amulets": ["vitality"]}, positions=[TEMPLE, 1, 1], coins=[5, 5, 5], mode=mode
        )
        kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.TEMPLE)  # the stop's Amulet purchase
        kern(vitality_nb, mode)(pos.pub, pos.hid, pos.ru, 0)  # then, as in move_nb, the Vitality check
        assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.AMULET, VITALITY, 1, -1)]
        assert pos.events(Ev.USE) == ([(Ev.USE, 0, VITALITY, -1, -1, -1)] if same_stop else [])
        assert held(pos, 0) == (set() if same_stop else {VITALITY})


# ------------------------------------------------------------------ Friendship
@BOTH
def test_friendship_opens_an_occupied_single_space(mode: str) -> None:
    """Seed 002 "Friendship": "This Amulet lets the Traveler stop on a single space that is
    occupied by another Traveler as if it were a double space"; "The Traveler using this Amulet
    leaves first". The occupied Encounter (3) becomes a legal stop; the move uses the Amulet; both
    travelers share the space and the user, the later arrival, moves first."""
    pos = xr_position(rs3(), positions=[0, ENCOUNTER, 14], coins=[5, 5, 5], mode=mode)
    assert ENCOUNTER not in begin_turn(pos)[2]
    pos = xr_position(
        rs3(), positions=[0, ENCOUNTER, 14], coins=[5, 5, 5], amulets={0: ["friendship"]}, mode=mode
    )
    t, _, legal = begin_turn(pos)
    assert t == 0 and legal.count(ENCOUNTER) == 1 and sorted(legal) == list(range(1, 15))
    xmove(pos, 0, ENCOUNTER)
    ev = pos.events()
    assert ev[:2] == [(Ev.USE, 0, FRIENDSHIP, -1, -1, -1), (Ev.MOVE, 0, ENCOUNTER, 0, -1, -1)]
    assert ev[2][0] == Ev.CHOICE  # the stop is played as usual
    assert pos.pub["occ"][ENCOUNTER] == 2 and pos.ps[0, PF.POS] == pos.ps[1, PF.POS] == ENCOUNTER
    assert held(pos, 0) == set() and pos.pub["mkt"][1, FRIENDSHIP] == 1
    assert kern(next_mover_nb, mode)(pos.pub) == 0


@BOTH
def test_friendship_only_onto_one_occupied_single_space(mode: str) -> None:
    """Seed 002 "Friendship": "The single space MUST be occupied by another Traveler for this
    Amulet to be usable". At 4 players a double space with one traveler is open anyway (no Amulet
    used) and a full double space stays closed; a Village still needs a coin."""
    rs4 = make_rules(xr_config(4))
    pos = xr_position(
        rs4, positions=[0, HOT, FARM, FARM], coins=[5, 5, 5, 5], amulets={0: ["friendship"]}, mode=mode
    )
    _, _, legal = begin_turn(pos)
    assert HOT in legal and FARM not in legal and legal.count(HOT) == 1
    xmove(pos, 0, HOT)
    assert pos.events(Ev.USE) == [] and held(pos, 0) == {FRIENDSHIP}
    pos = xr_position(
        rs3(), positions=[0, VILLAGE, 14], coins=[0, 5, 5], amulets={0: ["friendship"]}, mode=mode
    )
    assert VILLAGE not in begin_turn(pos)[2]


@BOTH
def test_friendship_on_a_double_space_at_three_players(mode: str) -> None:
    """C23 log contract, rulebook "Single / double spaces": at 2-3 travelers a double space holds
    one traveler, so it counts as a single space and Friendship opens it when occupied."""
    pos = xr_position(rs3(), positions=[0, HOT, 14], coins=[5, 5, 5], amulets={0: ["friendship"]}, mode=mode)
    assert HOT in begin_turn(pos)[2]
    xmove(pos, 0, HOT)
    assert pos.events()[0] == (Ev.USE, 0, FRIENDSHIP, -1, -1, -1) and pos.pub["occ"][HOT] == 2


# ------------------------------------------------------------------ Health
@BOTH
def test_health_takes_both_options(mode: str) -> None:
    """Seed 002 "Gesundheit": "Der Reisende wählt auf dem Feld, auf dem er landet, beide Optionen"
    (Health: both options of the space landed on); C27: the greedy player takes the base action first,
    then (C42: asked, and taken) the alternative: a Hot Spring card, then a Bathhouse."""
    rs = rs3()
    pos = xr_position(rs, positions=[0, 14, 14], coins=[3, 5, 5], amulets={0: ["health"]}, mode=mode)
    pos.stop(0, HOT)
    ev = pos.events()
    assert ev[1:3] == [(Ev.USE, 0, HEALTH, -1, -1, -1), (Ev.CHOICE, 0, Space.HOT_SPRING, 2, -1, -1)]
    assert [e[0] for e in ev[3:]] == [Ev.DRAW, Ev.GAIN, Ev.OPTION, Ev.GAIN]
    assert ev[4][2] == Deck.HOT_SPRING and ev[5] == (Ev.OPTION, 0, Opt.SECOND, 1, -1, -1)
    assert ev[6] == (Ev.GAIN, 0, Deck.BATHHOUSE, -1, 1, -1)
    value = rs.rules.hot_springs[ev[4][3]].value
    assert pos.ps[0, PF.HOT_SPRINGS] == 1 and pos.ps[0, PF.BATHHOUSES] == 1 and pos.ps[0, PF.COINS] == 2
    assert pos.ps[0, PF.SCORE] == value + 4
    assert held(pos, 0) == set() and pos.pub["mkt"][1, HEALTH] == 1


@BOTH
def test_health_at_a_village_souvenirs_then_a_legendary_object(mode: str) -> None:
    """Seed 002 "Gesundheit" with C27: at a Village the Health Amulet buys souvenirs, then one
    Legendary Object if still affordable: with 2 coins, koma (1 coin, 5 points) and then Shodo
    (1 coin, a point per souvenir held: 3)."""
    rs = rs3(weights={"reserve": 0})
    koma, haori, shamisen = souvenir_ids(rs, "koma", "haori", "shamisen")
    pos = xr_position(
        rs,
        markets={"legendary": ["shodo"]},
        positions=[0, 14, 14],
        coins=[2, 5, 5],
        families={0: [0, 1, 1, 0]},
        amulets={0: ["health"]},
        top={Deck.SOUVENIR: [koma, haori, shamisen]},
        mode=mode,
    )
    pos.stop(0, VILLAGE)
    gains = [(e[2], e[3], e[4]) for e in pos.events(Ev.GAIN)]
    (shodo,) = legendary_ids(rs, "shodo")
    assert gains[-1] == (Deck.LEGENDARY, shodo, 1) and all(g[0] == Deck.SOUVENIR for g in gains[:-1])
    assert gains[0] == (Deck.SOUVENIR, koma, 1) and len(gains) == 2 and pos.ps[0, PF.COINS] == 0
    assert pos.events(Ev.USE) == [(Ev.USE, 0, HEALTH, -1, -1, -1)]
    assert pos.ps[0, PF.PTS_SOUVENIRS] == 5 and pos.ps[0, PF.PTS_LEGENDARY] == 3


@BOTH
def test_health_options_in_the_order_of_the_players_choice(mode: str) -> None:
    """Seed 002 "Health": both options "in the order of his choice" ("in einer Reihenfolge seiner
    Wahl"); the second option's legality is judged after the first (C27). At a Farm with 0 coins the
    Farm's 3 coins come first and then pay the Gaming Room's bet of 2 (impossible on arrival); at a
    Temple with 1 coin the greedy player buys the Amulet first (``CHOICE`` option 3), and with no coin
    left the donation is skipped."""
    rs = make_rules(xr_config(3, overrides=(("crossroads.fortune_die", "2,2,2,2,2,2"),)))
    pos = xr_position(rs, positions=[0, 14, 14], coins=[0, 5, 5], amulets={0: ["health"]}, mode=mode)
    pos.stop(0, FARM)
    assert pos.events(Ev.USE) == [(Ev.USE, 0, HEALTH, -1, -1, -1)]
    assert pos.events(Ev.CHOICE) == [(Ev.CHOICE, 0, Space.FARM, 2, -1, -1)]
    assert pos.events(Ev.DIE) == [(Ev.DIE, 0, 2, 2, DieSrc.GAMING_ROOM, -1)]
    assert pos.ps[0, PF.COINS] == 0 + 3 - 2 + 4
    pos = xr_position(
        rs,
        markets={"amulets": ["fortune"]},
        positions=[0, 14, 14],
        coins=[1, 5, 5],
        amulets={0: ["health"]},
        mode=mode,
    )
    pos.stop(0, TEMPLE)
    assert pos.events(Ev.CHOICE) == [(Ev.CHOICE, 0, Space.TEMPLE, 3, -1, -1)]
    assert [e[2] for e in pos.events(Ev.GAIN)] == [Deck.AMULET]  # Fortune, or the Health just used
    assert pos.events(Ev.DONATE) == [] and pos.ps[0, PF.COINS] == 0 and pos.ps[0, PF.DONATED] == 0


@BOTH
def test_health_not_at_an_inn_nor_without_an_alternative(mode: str) -> None:
    """Seed 002 "Gesundheit": "Das Amulett kann nicht verwendet werden, wenn der Reisende an einem
    Gasthaus ankommt" (not at an Inn); nor does it help where the alternative is impossible (no
    Bathhouse left), nor Kita at an Encounter, who takes both options anyway (C27)."""
    rs = rs3()
    pos = xr_position(
        rs,
        positions=[13, 14, 14],
        coins=[3, 5, 5],
        amulets={0: ["health"]},
        hand=meal_ids(rs, "sushi"),
        mode=mode,
    )
    pos.stop(0, 14)
    assert pos.events(Ev.USE) == [] and pos.events(Ev.CHOICE) == [] and held(pos, 0) == {HEALTH}
    pos = xr_position(
        rs,
        markets={"bathhouses": 0},
        positions=[0, 14, 14],
        coins=[3, 5, 5],
        amulets={0: ["health"]},
        mode=mode,
    )
    pos.stop(0, HOT)
    assert pos.events(Ev.USE) == [] and pos.events(Ev.CHOICE) == [(Ev.CHOICE, 0, Space.HOT_SPRING, 0, -1, -1)]
    assert held(pos, 0) == {HEALTH}
    pos = xr_position(
        rs,
        travelers=["kita", "kinko", "satsuki"],
        positions=[0, 14, 14],
        coins=[3, 5, 5],
        amulets={0: ["health"]},
        mode=mode,
    )
    pos.stop(0, ENCOUNTER)
    assert pos.events(Ev.USE) == [] and pos.events(Ev.CHOICE) == [(Ev.CHOICE, 0, Space.ENCOUNTER, 2, -1, -1)]
    assert held(pos, 0) == {HEALTH} and pos.ps[0, PF.ENCOUNTERS] == 1 and pos.ps[0, PF.CALLIGRAPHY] == 1


# ------------------------------------------------------------------ Vitality
@BOTH
def test_vitality_moves_again_when_alone_in_the_lead(mode: str) -> None:
    """Seed 002 "Vitality": "This Amulet lets the Traveler play again right away when his
    Traveler's movement takes him to the lead position on the journey" (C36): after the stop at 10
    (everyone else behind) the Amulet is used and the same traveler moves again, although the
    traveler at 5 is farther behind."""
    pos = xr_position(rs3(), positions=[0, 5, 8], coins=[5, 5, 5], amulets={0: ["vitality"]}, mode=mode)
    assert begin_turn(pos)[0] == 0
    xmove(pos, 0, 10)
    ev = pos.events()
    assert ev[0] == (Ev.MOVE, 0, 10, 0, -1, -1) and ev[1][0] == Ev.CHOICE
    assert ev[-1] == (Ev.USE, 0, VITALITY, -1, -1, -1)  # once the space is resolved
    assert pos.gs[G.FORCE] == 1 and held(pos, 0) == set() and pos.pub["mkt"][1, VITALITY] == 1
    t, _, legal = begin_turn(pos)
    assert t == 0 and legal == list(range(11, 15)) and pos.gs[G.FORCE] == 0
    assert kern(next_mover_nb, mode)(pos.pub) == 1  # without the Amulet, the traveler at 5


@BOTH
def test_vitality_only_alone_in_the_lead_and_not_at_an_inn(mode: str) -> None:
    """Seed 002 "Vitality": "The Amulet cannot be used when the traveler arrives at an Inn"; C36:
    only "strictly ahead of every other traveler": not behind someone, not level with someone on a
    double space (4 players)."""
    for positions, dest, n in (([0, 5, 12], 10, 3), ([0, 5, 12], 14, 3), ([0, 5, FARM, 3], FARM, 4)):
        rs = make_rules(xr_config(n))
        pos = xr_position(rs, positions=positions, coins=[5] * n, amulets={0: ["vitality"]}, mode=mode)
        if dest == 14:
            pos.ps[2, PF.POS] = 13  # everyone else behind the Inn
            pos.pub["occ"][12] -= 1
            pos.pub["occ"][13] += 1
        xmove(pos, 0, dest)
        assert pos.events(Ev.USE) == [] and held(pos, 0) == {VITALITY} and pos.gs[G.FORCE] == 0


# ------------------------------------------------------------------ Hospitality
@BOTH
def test_hospitality_free_meal(mode: str) -> None:
    """Seed 002 "Hospitality": "This Amulet lets the Traveler take his Meal card for free when
    stopping at an Inn": sushi (2 coins) is eaten for nothing: 6 points, a Meal for Gourmet
    (printed cost 2) and for Fasting (an Inn meal, C34); the Amulet returns to the market."""
    rs = rs3()
    (sushi,) = meal_ids(rs, "sushi")
    pos = xr_position(
        rs, positions=[13, 14, 14], coins=[3, 5, 5], amulets={0: ["hospitality"]}, hand=[sushi], mode=mode
    )
    pos.stop(0, 14)
    ev = pos.events()
    i = ev.index((Ev.GAIN, 0, Deck.MEAL, sushi, 0, -1))
    assert ev[i - 1] == (Ev.USE, 0, HOSPITALITY, -1, -1, -1)
    assert pos.ps[0, PF.COINS] == 3 and pos.ps[0, PF.PTS_MEALS] == 6 and pos.ps[0, PF.MEALS] == 1
    assert pos.ps[0, PF.MEAL_VALUE] == 2 and pos.ps[0, PF.INN_MEALS] == 1
    assert held(pos, 0) == set() and pos.pub["mkt"][1, HOSPITALITY] == 1


@BOTH
def test_hospitality_kept_when_the_meal_is_free_anyway(mode: str) -> None:
    """Seed 002 "Hospitality" with Kinko (meals cost 1 less, C22): dango costs him 0, so the
    Amulet is not spent."""
    rs = rs3()
    (dango,) = meal_ids(rs, "dango")
    pos = xr_position(
        rs,
        travelers=["kinko", "satsuki", "mitsukuni"],
        positions=[13, 14, 14],
        coins=[3, 5, 5],
        amulets={0: ["hospitality"]},
        hand=[dango],
        mode=mode,
    )
    pos.stop(0, 14)
    assert pos.events(Ev.USE) == [] and pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.MEAL, dango, 0, -1)]
    assert held(pos, 0) == {HOSPITALITY}


@BOTH
def test_hospitality_free_meal_without_coins(mode: str) -> None:
    """Seed 002 "Hospitality": the Meal card is taken "for free", so a traveler with no coin can
    still eat with the Amulet: 0 coins, sushi (2) in the hand, the greedy player eats it (6 points)."""
    rs = rs3()
    (sushi,) = meal_ids(rs, "sushi")
    pos = xr_position(
        rs, positions=[13, 14, 14], coins=[0, 5, 5], amulets={0: ["hospitality"]}, hand=[sushi], mode=mode
    )
    kern(meal_nb, mode)(pos.pub, pos.hid, pos.ru, 0)
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.MEAL, sushi, 0, -1)]
    assert pos.ps[0, PF.PTS_MEALS] == 6 and pos.ps[0, PF.COINS] == 0 and held(pos, 0) == set()


# ------------------------------------------------------------------ Devotion
@BOTH
def test_devotion_rulebook_example(mode: str) -> None:
    """Seed 002 "Devotion": "Example: The Traveler with the Devotion Amulet stops at a Shop space.
    He buys two Souvenirs, one worth 1 coin and the other 3 coins. He uses the Amulet so that the
    3 coins for the second object are placed in the Temple ... he earns 3 points"; "the coins will
    be counted at the end of the game in the Temple donation points" (C37): 3 on the Temple beat
    another player's 2 in the ranking (10 points against 7)."""
    rs = rs3(weights={"reserve": 0})
    koma, shamisen, haori = souvenir_ids(rs, "koma", "shamisen", "haori")
    pos = xr_position(
        rs,
        markets={"legendary": []},
        positions=[0, 14, 14],
        coins=[10, 5, 5],
        families={0: [0, 1, 1, 0]},
        amulets={0: ["devotion"]},
        donated=[0, 2, 0],
        top={Deck.SOUVENIR: [koma, shamisen, haori]},
        mode=mode,
    )
    pos.stop(0, VILLAGE)
    ev = [e for e in pos.events() if e[0] in (Ev.GAIN, Ev.USE)]
    assert ev == [
        (Ev.GAIN, 0, Deck.SOUVENIR, koma, 1, -1),
        (Ev.GAIN, 0, Deck.SOUVENIR, shamisen, 3, -1),
        (Ev.USE, 0, DEVOTION, 3, -1, -1),
    ]
    assert pos.ps[0, PF.COINS] == 6 and pos.ps[0, PF.DONATED] == 3 and pos.ps[0, PF.PTS_TEMPLE] == 3
    assert pos.ps[0, PF.PTS_SOUVENIRS] == 5 + 7
    assert held(pos, 0) == set() and pos.pub["mkt"][1, DEVOTION] == 1
    kern(temple_ranking_nb, mode)(pos.pub, pos.ru)
    assert pos.ps[0, PF.PTS_TEMPLE_BONUS] == 10 and pos.ps[1, PF.PTS_TEMPLE_BONUS] == 7


@BOTH
@pytest.mark.parametrize("card", ["meal", "legendary", "bathhouse", "calligraphy", "amulet"])
def test_devotion_on_every_purchasable_card(mode: str, card: str) -> None:
    """Seed 002 "Devotion": "the coins spent on acquiring a purchasable card (Souvenir, Meal,
    Legendary Object, Bathhouse, Calligraphy, Amulet)" go to the Temple, 1 point per coin (C37).
    Prices are set to 2 here (``--set``) so the greedy player spends the Amulet on each."""
    rs = rs3(bath_cost=2, calli_cost=2, amulet_cost=2)
    (sushi,) = meal_ids(rs, "sushi")
    pos = xr_position(
        rs,
        markets={"legendary": ["buppatsu"], "amulets": ["fortune"]},
        positions=[13, 14, 14],
        coins=[5, 5, 5],
        amulets={0: ["devotion"]},
        hand=[sushi],
        mode=mode,
    )
    if card == "meal":
        kern(meal_nb, mode)(pos.pub, pos.hid, pos.ru, 0)
    else:
        typ = {
            "legendary": Space.VILLAGE,
            "bathhouse": Space.HOT_SPRING,
            "calligraphy": Space.ENCOUNTER,
            "amulet": Space.TEMPLE,
        }[card]
        kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, typ)
    ev = pos.events()
    assert ev[-2][0] == Ev.GAIN and ev[-2][4] == 2 and ev[-1] == (Ev.USE, 0, DEVOTION, 2, -1, -1)
    assert pos.ps[0, PF.COINS] == 3 and pos.ps[0, PF.DONATED] == 2 and pos.ps[0, PF.PTS_TEMPLE] == 2
    assert pos.pub["mkt"][1, DEVOTION] == 1 and (int(pos.ps[0, PF.AMULETS]) >> DEVOTION) & 1 == 0


# ------------------------------------------------------------------ properties: kernel vs referee
@st.composite
def xr_positions(draw):
    """Travelers in one leg, every space within its capacity, all arrival stamps different."""
    n = draw(st.integers(2, 5))
    nt = n + (n == 2)
    rs = make_rules(xr_config(n))
    leg = draw(st.sampled_from([0, 14, 27, 41]))
    nxt = min(i for i in INNS if i > leg)
    occ: dict[int, int] = {}
    pos = []
    for _ in range(nt):
        free = [
            s
            for s in range(leg, nxt + 1)
            if s in INNS or occ.get(s, 0) < (2 if nt >= 4 and rs.rules.board_double[s] else 1)
        ]
        s = draw(st.sampled_from(free))
        occ[s] = occ.get(s, 0) + 1
        pos.append(s)
    stamps = list(draw(st.permutations(list(range(1, nt + 1)))))
    coins = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    pans = {t: draw(st.tuples(st.integers(0, 3), st.integers(0, 4), st.integers(0, 5))) for t in range(n)}
    return n, rs, pos, stamps, coins, pans


def referee_state(rs, pos, stamps, coins, pans) -> GameState:
    gs = GameState(rs.config, rs.rules)
    for t, tr in enumerate(gs.travelers):
        tr.pos, tr.stamp = pos[t], stamps[t]
        if not tr.neutral:
            tr.coins, tr.panorama = coins[t], list(pans[t])
    return gs


@settings(max_examples=120, deadline=None, database=None)
@given(xr_positions())
def test_property_friendship_stops_match_referee(case) -> None:
    """Seed 002 "Friendship" (C23 log contract): with the Amulet a player's legal stops are the usual
    ones plus every one-slot space held by exactly one other traveler (coins and panoramas still
    apply), exactly the referee's ``legal_destinations`` with and without ``friendship``."""
    n, rs, pos, stamps, coins, pans = case
    ref = referee_state(rs, pos, stamps, coins, pans)
    for t in range(n):
        if pos[t] == LAST:
            continue
        p = xr_position(
            rs, positions=pos, arrival=stamps, coins=coins, panoramas=pans, amulets={t: ["friendship"]}
        )
        k = friendship_moves_nb(p.pub, p.ru, t, legal_moves_nb(p.pub, p.ru, t))
        got = [int(s) for s in p.pub["cand"][:k]]
        want = sorted(set(ref.legal_destinations(t)) | set(ref.legal_destinations(t, friendship=True)))
        assert len(got) == len(set(got)) and sorted(got) == want


@settings(max_examples=120, deadline=None, database=None)
@given(xr_positions())
def test_property_vitality_only_alone_in_the_lead(case) -> None:
    """C36: the Vitality Amulet is used exactly when the traveler is strictly ahead of every other
    traveler, the referee's ``alone_in_lead``."""
    n, rs, pos, stamps, coins, pans = case
    ref = referee_state(rs, pos, stamps, coins, pans)
    for t in range(n):
        p = xr_position(
            rs, positions=pos, arrival=stamps, coins=coins, panoramas=pans, amulets={t: ["vitality"]}
        )
        vitality_nb(p.pub, p.hid, p.ru, t)
        alone = ref.alone_in_lead(ref.travelers[t])
        assert (p.gs[G.FORCE] == t + 1) == alone and (p.events(Ev.USE) != []) == alone
