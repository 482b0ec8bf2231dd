"""Crossroads rules of the stations: each station's alternative (Cherry Tree, Bathhouse, Gaming Room,
Amulet, Calligraphy) and taking both options; the Village's Legendary Objects are in
``tests/kernels/tokaido/crossroads/test_village.py``, the markets and the set-up in
``tests/kernels/tokaido/crossroads/test_markets.py``.

Hand-made positions (``tests/helpers/positions.py``: ``xr_position``, ``set_markets``). Each test quotes
the Crossroads rulebook (seed 002, "The Crossroads expansion") or names the rule choice
(docs/rules-choices.md, C23-C39) it checks.
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.board import legal_moves_nb
from kernels.tokaido.core.enums import PF, Bot, Deck, DieSrc, Ev, Space
from kernels.tokaido.game.crossroads import alternative_nb, alternative_possible_nb, roll_nb
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.positions import (
    BOTH,
    choice,
    kern,
    make_rules,
    spaces_of,
    xr_config,
    xr_position,
)

CFG3 = xr_config(3)
TEMPLE, ENCOUNTER, PADDY, HOT, FARM = 2, 3, 4, 5, 7  # spaces of the first leg


def rs3(**kw):
    return make_rules(CFG3, **kw)


def die_config(faces: str, n: int = 3, **kw) -> GameConfig:
    return xr_config(n, overrides=(("crossroads.fortune_die", faces),), **kw)


# ------------------------------------------------------------------ Panorama: Cherry Tree
@BOTH
def test_cherry_tree_two_points_and_a_coin(mode: str) -> None:
    """Seed 002 "Cherry Trees": "instead of taking a Panorama card of the corresponding type a
    traveler may take a Cherry Tree card (if the card is available). The Cherry Tree cards give
    2 points and 1 coin"; it does not advance the panorama. The greedy player, with no paddy card
    yet (1 point), prefers the Cherry Tree (2 points + 1 coin)."""
    pos = xr_position(rs3(), positions=[0, 14, 14], coins=[2, 5, 5], mode=mode)
    pos.stop(0, PADDY)
    assert choice(pos, 0) == 1
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.CHERRY, -1, 0, -1)] and pos.events(Ev.PANORAMA) == []
    assert pos.ps[0, PF.CHERRY] == 1 and pos.ps[0, PF.PTS_CHERRY] == 2 == pos.ps[0, PF.SCORE]
    assert pos.ps[0, PF.COINS] == 3 and pos.ps[0, PF.PAN0] == 0 and pos.ps[0, PF.PANORAMAS] == 0
    assert pos.pub["xcnt"][0] == 5
    # several Cherry Trees: "There is no limit to the number of Cherry Trees a player can accumulate"
    for _ in range(3):
        kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.SEA)
    assert pos.ps[0, PF.CHERRY] == 4 and pos.ps[0, PF.PTS_CHERRY] == 8 and pos.ps[0, PF.COINS] == 6
    assert pos.pub["xcnt"][0] == 2  # all 6 in play (C23): 6 - 4 taken


@BOTH
def test_cherry_tree_only_if_available(mode: str) -> None:
    """Seed 002: a Cherry Tree "(if the card is available)": with none left the panorama stop
    takes its panorama card (option 0)."""
    pos = xr_position(rs3(), markets={"cherry": 0}, positions=[0, 14, 14], coins=[2, 5, 5], mode=mode)
    assert not kern(alternative_possible_nb, mode)(pos.pub, pos.ru, 0, Space.PADDY)
    pos.stop(0, PADDY)
    assert choice(pos, 0) == 0
    assert pos.events(Ev.PANORAMA) == [(Ev.PANORAMA, 0, 0, 0, -1, -1)] and pos.ps[0, PF.CHERRY] == 0


@BOTH
def test_completed_panorama_stays_closed(mode: str) -> None:
    """C26: with Crossroads a completed panorama type is still closed ("a traveler who completes a
    panorama can no longer stop on the spaces corresponding to that type"), even for a Cherry
    Tree: paddy complete, Cherry Trees in play, no paddy space is a legal stop."""
    rs = rs3()
    pos = xr_position(rs, positions=[0, 40, 40], coins=[5, 5, 5], panoramas={0: [3, 0, 0]}, mode=mode)
    n = kern(legal_moves_nb, mode)(pos.pub, pos.ru, 0)
    legal = [int(s) for s in pos.pub["cand"][:n]]
    assert legal == [s for s in range(1, 15) if s != PADDY]
    assert PADDY in spaces_of(rs, Space.PADDY) and pos.pub["xcnt"][0] == 6


# ------------------------------------------------------------------ Hot Spring: Bathhouse
@BOTH
def test_bathhouse_one_coin_four_points(mode: str) -> None:
    """Seed 002 "Bathhouses": "instead of drawing an Hot Spring card a Traveler now may pay 1 coin
    for a Bathhouse card. The Bathhouse cards give 4 points" (greedy: 4 - 1 > 2.5 expected)."""
    pos = xr_position(rs3(), positions=[0, 14, 14], coins=[3, 5, 5], mode=mode)
    pos.stop(0, HOT)
    assert choice(pos, 0) == 1
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.BATHHOUSE, -1, 1, -1)] and pos.events(Ev.DRAW) == []
    assert pos.ps[0, PF.BATHHOUSES] == 1 and pos.ps[0, PF.HOT_SPRINGS] == 0
    assert pos.ps[0, PF.PTS_BATHHOUSES] == 4 == pos.ps[0, PF.SCORE] and pos.ps[0, PF.COINS] == 2
    assert pos.pub["xcnt"][1] == 5 and pos.pub["dcnt"][Deck.HOT_SPRING] == 12


@BOTH
def test_bathhouse_needs_a_coin(mode: str) -> None:
    """Seed 002: the Bathhouse costs "1 coin": without a coin (or with none left) the stop draws a
    Hot Spring card (option 0)."""
    for coins, baths in ((0, 4), (5, 0)):
        pos = xr_position(
            rs3(), markets={"bathhouses": baths}, positions=[0, 14, 14], coins=[coins, 5, 5], mode=mode
        )
        pos.stop(0, HOT)
        assert choice(pos, 0) == 0
        assert [e[2] for e in pos.events(Ev.GAIN)] == [Deck.HOT_SPRING]
        assert (
            pos.ps[0, PF.BATHHOUSES] == 0 and pos.ps[0, PF.HOT_SPRINGS] == 1 and pos.ps[0, PF.COINS] == coins
        )


# ------------------------------------------------------------------ Farm: Gaming Room
@BOTH
@pytest.mark.parametrize("face", [0, 1, 2, 3, 4])
def test_gaming_room_bets_two_and_gets_the_bet_times_the_face(mode: str, face: int) -> None:
    """Seed 002 "The Gaming Room": "The player gambles 2 coins from his reserve and throws the
    Fortune die. X: the player loses the money bet; x1: recovers the money bet; x2: doubles ...;
    x3: triples ...; x4: quadruples the money bet" (C28)."""
    rs = make_rules(die_config(",".join([str(face)] * 6)))
    pos = xr_position(rs, coins=[5, 5, 5], mode=mode)
    kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.FARM)
    assert pos.ps[0, PF.COINS] == 5 - 2 + 2 * face
    assert pos.events(Ev.DIE) == [(Ev.DIE, 0, face, 2, DieSrc.GAMING_ROOM, -1)]
    assert pos.ps[0, PF.GAMBLES] == 1 and pos.ps[0, PF.SCORE] == 0


@BOTH
def test_gaming_room_needs_the_bet(mode: str) -> None:
    """C28: the Gaming Room "gambles 2 coins": with 1 coin the Farm gives its 3 coins (option 0)."""
    pos = xr_position(
        make_rules(die_config("4,4,4,4,4,4")), positions=[0, 14, 14], coins=[1, 5, 5], mode=mode
    )
    assert not kern(alternative_possible_nb, mode)(pos.pub, pos.ru, 0, Space.FARM)
    pos.stop(0, FARM)
    assert choice(pos, 0) == 0 and pos.ps[0, PF.COINS] == 4 and pos.events(Ev.DIE) == []


@BOTH
def test_gaming_room_chosen_on_a_rich_die(mode: str) -> None:
    """C27, C28: at a Farm the player chooses on arrival; with a die of x4 on every face the
    greedy player bets (2 x 4 = 8 coins back, more than the Farm's 3)."""
    pos = xr_position(
        make_rules(die_config("4,4,4,4,4,4")), positions=[0, 14, 14], coins=[2, 5, 5], mode=mode
    )
    pos.stop(0, FARM)
    assert choice(pos, 0) == 1 and pos.ps[0, PF.COINS] == 8
    assert pos.events(Ev.DIE) == [(Ev.DIE, 0, 4, 2, DieSrc.GAMING_ROOM, -1)]


def test_fortune_die_faces_from_data() -> None:
    """C24: the Fortune die is X, x1, x2, x3, x3, x4 (game-data.md 8.4 version A); 6,000 rolls show
    only these faces, each about 1/6 of the time and x3 about 2/6."""
    rs = rs3()
    assert rs.rules.fortune_die == [0, 1, 2, 3, 3, 4]
    pos = xr_position(rs, coins=[0, 5, 5])
    counts = [0] * 5
    for _ in range(6000):
        pos.clear_log()
        roll_nb(pos.pub, pos.hid, pos.ru, 0, 0, DieSrc.FORTUNE)
        counts[pos.events(Ev.DIE)[0][2]] += 1
    for face in (0, 1, 2, 4):
        assert 850 < counts[face] < 1150, counts
    assert 1800 < counts[3] < 2200, counts
    assert pos.ps[0, PF.COINS] == counts[1] + 2 * counts[2] + 3 * counts[3] + 4 * counts[4]


# ------------------------------------------------------------------ Temple: Amulets
@BOTH
def test_amulet_purchase_pays_the_bank_not_the_temple(mode: str) -> None:
    """Seed 002 "Amulet cards": "instead of giving 1, 2, or 3 coins to the Temple ... the traveler
    may pay a coin to the bank to take one of the available Amulet cards": no donation, no temple
    point, no place in the ranking; the Amulet leaves the market."""
    rs = rs3()
    pos = xr_position(rs, markets={"amulets": ["health"]}, positions=[0, 14, 14], coins=[5, 5, 5], mode=mode)
    pos.stop(0, TEMPLE)
    assert choice(pos, 0) == 1
    health = rs.rules.amulets.index("health")
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.AMULET, health, 1, -1)] and pos.events(Ev.DONATE) == []
    assert pos.ps[0, PF.COINS] == 4 and pos.ps[0, PF.DONATED] == 0 and pos.ps[0, PF.SCORE] == 0
    assert pos.ps[0, PF.AMULETS] == 1 << health and pos.ps[0, PF.AMULETS_BOUGHT] == 1
    assert pos.pub["mkt"][1].sum() == 0


@BOTH
def test_several_amulets_may_be_held(mode: str) -> None:
    """Seed 002: "A single traveler can have several Amulet cards at any one time"; "The player
    chooses from among those available"."""
    rs = rs3()
    pos = xr_position(
        rs, markets={"amulets": ["fortune", "devotion", "hospitality"]}, coins=[5, 5, 5], mode=mode
    )
    for _ in range(3):
        assert kern(alternative_possible_nb, mode)(pos.pub, pos.ru, 0, Space.TEMPLE)
        kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.TEMPLE)
    assert not kern(alternative_possible_nb, mode)(pos.pub, pos.ru, 0, Space.TEMPLE)
    ids = rs.rules.amulets
    assert pos.ps[0, PF.AMULETS] == sum(1 << ids.index(n) for n in ("fortune", "devotion", "hospitality"))
    assert pos.ps[0, PF.AMULETS_BOUGHT] == 3 and pos.ps[0, PF.COINS] == 2


# ------------------------------------------------------------------ Encounter: Calligraphy
@BOTH
def test_calligraphy_purchase(mode: str) -> None:
    """Seed 002 "Begegnungen": "1 Münze in den Vorrat zahlen, um eine der verfügbaren
    Kalligrafie-Karten seiner Wahl zu kaufen" (pay 1 coin to the bank for an available Calligraphy
    card of one's choice) instead of drawing an Encounter (C27: no Encounter drawn). With 10
    coins the greedy player takes Foresight (2 points per coin left)."""
    rs = rs3()
    pos = xr_position(
        rs, markets={"calligraphy": ["foresight"]}, positions=[0, 14, 14], coins=[10, 5, 5], mode=mode
    )
    pos.stop(0, ENCOUNTER)
    assert choice(pos, 0) == 1
    foresight = rs.rules.calligraphy.index("foresight")
    assert (
        pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.CALLIGRAPHY, foresight, 1, -1)]
        and pos.events(Ev.DRAW) == []
    )
    assert pos.ps[0, PF.CALLIGRAPHY] == 1 and pos.ps[0, PF.CALLI_MASK] == 1 << foresight
    assert pos.ps[0, PF.ENCOUNTERS] == 0 and pos.ps[0, PF.COINS] == 9 and pos.ps[0, PF.SCORE] == 0
    assert pos.pub["dcnt"][Deck.ENCOUNTER] == 14 and pos.pub["mkt"][2].sum() == 0


# ------------------------------------------------------------------ both options (C27)
@BOTH
def test_only_kita_and_miyataka_take_both_without_an_amulet(mode: str) -> None:
    """Seed 002 "Travelers Crossroads": Kita "can carry out both actions when stopping at an
    Encounter space"; Miyataka "can carry out both actions when stopping at a Temple space"
    (C27): over random choices, options 2 and 3 (both, in either order) appear for them there, never for
    anyone else."""
    rs = make_rules(xr_config(3, travelers="kita,miyataka,kinko", bots=("random",)))
    seen: dict[tuple[int, int], set[int]] = {}
    for seed in range(40):
        for t in range(3):
            for space in (TEMPLE, ENCOUNTER):
                pos = xr_position(
                    rs,
                    travelers=["kita", "miyataka", "kinko"],
                    positions=[0, 0, 0],
                    coins=[5, 5, 5],
                    bots=Bot.RANDOM,
                    seed=seed,
                    mode=mode,
                )
                pos.stop(t, space)
                seen.setdefault((t, space), set()).add(choice(pos, t))
    assert seen[(0, ENCOUNTER)] == {0, 1, 2, 3} and seen[(1, TEMPLE)] == {0, 1, 2, 3}
    assert seen[(0, TEMPLE)] == seen[(1, ENCOUNTER)] == seen[(2, TEMPLE)] == seen[(2, ENCOUNTER)] == {0, 1}


@BOTH
def test_both_options_the_second_if_still_possible(mode: str) -> None:
    """C27: taking both, the second action happens if it is still possible after the first: Miyataka with
    1 coin donates it or buys an Amulet with it, and then can do nothing more (no second action asked,
    C42); with 3 coins she buys the Amulet first (a donation could spend the coin it costs), then donates
    (the Amulet's events before the donation's)."""
    rs = rs3()
    pos = xr_position(
        rs, travelers=["miyataka", "kinko", "satsuki"], positions=[0, 14, 14], coins=[1, 5, 5], mode=mode
    )
    pos.stop(0, TEMPLE)
    assert choice(pos, 0) in (2, 3) and pos.events(Ev.OPTION) == []
    assert len(pos.events(Ev.DONATE)) + len(pos.events(Ev.GAIN)) == 1 and pos.ps[0, PF.COINS] == 0
    pos = xr_position(
        rs, travelers=["miyataka", "kinko", "satsuki"], positions=[0, 14, 14], coins=[3, 5, 5], mode=mode
    )
    pos.stop(0, TEMPLE)
    kinds = [e[0] for e in pos.events() if e[0] in (Ev.CHOICE, Ev.DONATE, Ev.GAIN, Ev.OPTION)]
    assert choice(pos, 0) == 3 and kinds == [Ev.CHOICE, Ev.GAIN, Ev.OPTION, Ev.DONATE]
    (donate,) = pos.events(Ev.DONATE)
    assert pos.ps[0, PF.COINS] == 3 - donate[2] - 1 and pos.ps[0, PF.AMULETS_BOUGHT] == 1
    assert pos.ps[0, PF.DONATED] == donate[2] == pos.ps[0, PF.PTS_TEMPLE]
