"""Crossroads rules of the markets and the stations: cards in play, the start Amulet, each
station's alternative (Cherry Tree, Bathhouse, Legendary Object, Gaming Room, Amulet,
Calligraphy), taking both options, and the Crossroads data overrides.

Hand-made positions (``tests/positions.py``: ``xr_position``, ``set_markets``). Each test quotes
the Crossroads rulebook (seed 002, "The Crossroads expansion") or names the rule choice
(docs/rules-choices.md, C23-C39) it checks.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import (
    BOTH,
    kern,
    legendary_ids,
    make_rules,
    setup_position,
    souvenir_ids,
    spaces_of,
    xr_config,
    xr_position,
)

from kernels.bots.crossroads import choose_legendary_nb
from kernels.core.board import legal_moves_nb
from kernels.core.enums import PF, Bot, Deck, DieSrc, Ev, Opt, P, Space
from kernels.core.score import gain_souvenir_nb
from kernels.game.crossroads import alternative_nb, alternative_possible_nb, roll_nb
from sim.cli import app as cli
from sim.referee.game import referee_game, rows_from_records
from sim.referee.scoring import souvenir_collection_points
from sim.rules.config import GameConfig
from sim.run.engine import play_games

CFG3 = xr_config(3)
SMALL, FOOD, CLOTHING, ART, OFFERING = 0, 1, 2, 3, 4
FAMILY_CARDS = {SMALL: [0, 1, 2, 3, 4, 5], FOOD: [6, 7, 8, 9, 10, 11], CLOTHING: [12, 13, 14, 15, 16, 17],
                ART: [18, 19, 20, 21, 22, 23]}
VILLAGE, TEMPLE, ENCOUNTER, PADDY, HOT, FARM = 1, 2, 3, 4, 5, 7  # spaces of the first leg


def rs3(**kw):
    return make_rules(CFG3, **kw)


def die_config(faces: str, n: int = 3, **kw) -> GameConfig:
    return xr_config(n, overrides=(("crossroads.fortune_die", faces),), **kw)


def choice(pos, t):
    (ev,) = [e for e in pos.events(Ev.CHOICE) if e[1] == t]
    return ev[3]


# ------------------------------------------------------------------ set-up: cards in play
@BOTH
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_cards_in_play_by_player_count(mode: str, n: int) -> None:
    """Seed 002's set-up makes stacks of all the Crossroads cards; seed 004 "There are 6 Cherry Tree
    cards"; recorded 4-player games show all 6 Amulets, Calligraphies and Cherry Trees (C23): every
    card of each type is in play at every player count. The seed's by-count table ("Games with 2 and 3
    players: ... only use 4 of each type"; "4 and 5 players: ... 5") stays an override,
    ``--set crossroads.by_player_count=true``."""
    for by_count, k in ((False, 6), (True, 4 if n <= 3 else 5)):
        rs = make_rules(xr_config(n, overrides=(("crossroads.start_amulet", "false"),
                                                ("crossroads.by_player_count", str(by_count)))))
        for seed in range(3):
            pos = setup_position(rs, seed=seed, mode=mode)
            market = pos.events(Ev.MARKET)
            for m, deck in enumerate((Deck.LEGENDARY, Deck.AMULET, Deck.CALLIGRAPHY)):
                ids = [e[3] for e in market if e[2] == deck]
                assert len(ids) == len(set(ids)) == k and all(0 <= c < 6 for c in ids)
                assert sorted(ids) == [c for c in range(8) if pos.pub["mkt"][m, c] == 1]
            assert [(e[2], e[3], e[4]) for e in market if e[2] >= Deck.CHERRY] == [(Deck.CHERRY, -1, k),
                                                                                  (Deck.BATHHOUSE, -1, k)]
            assert list(pos.pub["xcnt"]) == [k, k]


def test_cards_in_play_are_drawn_at_random() -> None:
    """Seed 002 set-up, with the by-count table (``crossroads.by_player_count=true``): the cards in
    play are chosen "at random": over 30 set-ups at 3 players every Legendary Object, Amulet and
    Calligraphy card is in play sometimes, and out sometimes."""
    rs = make_rules(xr_config(3, overrides=(("crossroads.start_amulet", "false"), ("crossroads.by_player_count", "true"))))
    seen = [[0] * 6 for _ in range(3)]
    for seed in range(30):
        pos = setup_position(rs, seed=seed)
        for m in range(3):
            for c in range(6):
                seen[m][c] += int(pos.pub["mkt"][m, c])
    assert all(0 < s < 30 for row in seen for s in row), seen
    assert all(sum(row) == 4 * 30 for row in seen)


def test_markets_are_face_up_a_buyer_chooses_among_those_left() -> None:
    """C23: the Legendary Objects in play are face up and a buyer chooses among those left and
    affordable: with Shodo (1), Buppatsu (2) and Murasame (3) left and 2 coins, a random buyer
    takes Shodo or Buppatsu, never Murasame nor a card out of play; the greedy buyer with 3 coins
    takes the Sword (8 points)."""
    rs = rs3()
    shodo, buppatsu, murasame = legendary_ids(rs, "shodo", "buppatsu", "murasame")
    seen = set()
    for seed in range(60):
        pos = xr_position(rs, markets={"legendary": ["shodo", "buppatsu", "murasame"]}, coins=[2, 5, 5],
                          bots=Bot.RANDOM, seed=seed)
        seen.add(int(choose_legendary_nb(pos.pub, pos.ru, 0)))
    assert seen == {shodo, buppatsu}
    pos = xr_position(rs, markets={"legendary": ["shodo", "buppatsu", "murasame"]}, coins=[3, 5, 5])
    assert choose_legendary_nb(pos.pub, pos.ru, 0) == murasame


# ------------------------------------------------------------------ set-up: the start Amulet
@BOTH
def test_start_amulet_option(mode: str) -> None:
    """Seed 002: "At the start of the game, each player (in the starting order) can give the bank
    a coin in order to receive an Amulet card at random, with which the will start the game" (C25):
    in departure order, every player with a coin is asked (Gotozaemon, 0 coins, is not); the
    greedy players pay 1 for a random Amulet, usable from their first turn (C35)."""
    rs = make_rules(xr_config(4, travelers="gotozaemon,kita,jirocho,nampo"))
    for seed in range(4):
        pos = setup_position(rs, seed=seed, mode=mode)
        lineup = sorted(range(4), key=lambda t: next(e[2] for e in pos.events(Ev.LINEUP) if e[1] == t))
        options = pos.events(Ev.OPTION)
        assert [e[1] for e in options] == [t for t in lineup if t != 0]  # departure order, not Gotozaemon
        assert all(e[2] == Opt.START_AMULET and e[3] == 1 for e in options)
        gains = pos.events(Ev.GAIN)
        assert [(e[1], e[2], e[4]) for e in gains] == [(t, Deck.AMULET, 1) for t in lineup if t != 0]
        start = {0: 0, 1: 4, 2: 5, 3: 2}
        for t in range(4):
            bought = int(t != 0)
            assert pos.ps[t, PF.COINS] == start[t] - bought and pos.ps[t, PF.COINS_START] == start[t]
            assert pos.ps[t, PF.AMULETS_BOUGHT] == bought and bin(int(pos.ps[t, PF.AMULETS])).count("1") == bought
            assert pos.ps[t, PF.AMULETS_NEW] == 0
            assert pos.ps[t, PF.DONATED] == 0  # the coin goes to the bank
        held = {e[3] for e in gains}
        in_play = {e[3] for e in pos.events(Ev.MARKET) if e[2] == Deck.AMULET}
        assert len(held) == 3 and held <= in_play
        assert {c for c in range(8) if pos.pub["mkt"][1, c]} == in_play - held


def test_start_amulet_is_a_choice_and_can_be_switched_off() -> None:
    """C25: the start Amulet is optional (random bots decline about half the time) and is data:
    ``--set crossroads.start_amulet=false`` removes it (no OPTION, no Amulet)."""
    rs = make_rules(xr_config(4, bots=("random",)))
    answers = [e[3] for seed in range(40) for e in setup_position(rs, seed=seed).events(Ev.OPTION)]
    assert 40 <= len(answers) and 0.25 < sum(answers) / len(answers) < 0.75
    rs = make_rules(xr_config(4, overrides=(("crossroads.start_amulet", "false"),)))
    pos = setup_position(rs, seed=1)
    assert pos.events(Ev.OPTION) == [] and pos.ps[:4, PF.AMULETS].sum() == 0


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
        pos = xr_position(rs3(), markets={"bathhouses": baths}, positions=[0, 14, 14], coins=[coins, 5, 5],
                          mode=mode)
        pos.stop(0, HOT)
        assert choice(pos, 0) == 0
        assert [e[2] for e in pos.events(Ev.GAIN)] == [Deck.HOT_SPRING]
        assert pos.ps[0, PF.BATHHOUSES] == 0 and pos.ps[0, PF.HOT_SPRINGS] == 1 and pos.ps[0, PF.COINS] == coins


# ------------------------------------------------------------------ Village: Legendary Objects
@BOTH
def test_legendary_object_instead_of_souvenirs(mode: str) -> None:
    """Seed 002 "Legendary Object cards": "instead of buying Souvenirs a traveler may now buy one
    and only one Legendary Object of his choice (if the card is available) for the cost marked on
    the card"; C27: the option is chosen on arrival, before any Souvenir is drawn. Murasame costs 3
    and gives 8 points."""
    rs = rs3()
    (murasame,) = legendary_ids(rs, "murasame")
    pos = xr_position(rs, markets={"legendary": ["murasame", "masamune"]}, positions=[0, 14, 14],
                      coins=[7, 5, 5], mode=mode)
    pos.stop(0, VILLAGE)
    assert choice(pos, 0) == 1
    assert pos.events(Ev.DRAW) == [] and pos.pub["dcnt"][Deck.SOUVENIR] == 24
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.LEGENDARY, murasame, 3, -1)]
    assert pos.ps[0, PF.LEGENDARY] == 1 and pos.ps[0, PF.SOUVENIRS] == 0
    assert pos.ps[0, PF.PTS_LEGENDARY] == 8 == pos.ps[0, PF.SCORE] and pos.ps[0, PF.COINS] == 4
    assert pos.pub["mkt"][0, murasame] == 0 and pos.pub["mkt"][0].sum() == 1


@BOTH
def test_legendary_costs_one_two_three(mode: str) -> None:
    """Seed 002: "for the cost marked on the card (1, 2 or 3 coins)": Shodo and Emaki 1, Buppatsu
    and Ema 2, Murasame and Masamune 3 (game-data.md 8.1); a Village's alternative is possible only
    if some Legendary Object left is affordable."""
    rs = rs3()
    assert [(lo.name, lo.cost) for lo in rs.rules.legendary] == [
        ("shodo", 1), ("emaki", 1), ("buppatsu", 2), ("ema", 2), ("murasame", 3), ("masamune", 3)]
    for name, cost in (("emaki", 1), ("ema", 2), ("masamune", 3)):
        for coins in (cost - 1, cost):
            pos = xr_position(rs, markets={"legendary": [name]}, coins=[coins, 5, 5], mode=mode)
            assert bool(kern(alternative_possible_nb, mode)(pos.pub, pos.ru, 0, Space.VILLAGE)) == (coins >= cost)
            if coins >= cost:
                kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
                assert pos.ps[0, PF.COINS] == 0 and pos.events(Ev.GAIN)[0][4] == cost


@BOTH
def test_script_objects(mode: str) -> None:
    """Seed 002 "Shodo and Emaki": "When acquired, these Legendary Objects give 1 point for each
    other Souvenir / Legendary Object in their owner's collection and 1 additional point for each
    Souvenir acquired thereafter" (C29). 3 souvenirs + a Sword: Shodo scores 4; each later souvenir
    +1; then Emaki scores 7 (5 souvenirs, Shodo and the Sword) and each later souvenir +2."""
    rs = rs3()
    pos = xr_position(rs, markets={"legendary": ["shodo"]}, coins=[10, 5, 5], families={0: [1, 1, 1, 0]},
                      fields={0: {"LEGENDARY": 1}}, mode=mode)
    alt = kern(alternative_nb, mode)
    alt(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
    assert pos.ps[0, PF.PTS_LEGENDARY] == 4 and pos.ps[0, PF.SCRIPTS] == 1 and pos.ps[0, PF.COINS] == 9
    gain = kern(gain_souvenir_nb, mode)
    for c in souvenir_ids(rs, "netsuke", "haori"):  # art (set 1, 4th family: 7), clothing (set 2: 1)
        gain(pos.pub, pos.ru, 0, c)
    assert pos.ps[0, PF.PTS_LEGENDARY] == 4 + 2 and pos.ps[0, PF.PTS_SOUVENIRS] == 7 + 1
    pos.pub["mkt"][0, legendary_ids(rs, "emaki")[0]] = 1
    alt(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)  # 5 souvenirs + Shodo + the Sword
    assert pos.ps[0, PF.PTS_LEGENDARY] == 6 + 7 and pos.ps[0, PF.SCRIPTS] == 2
    gain(pos.pub, pos.ru, 0, souvenir_ids(rs, "koma")[0])
    assert pos.ps[0, PF.PTS_LEGENDARY] == 13 + 2
    assert pos.ps[0, PF.SCORE] == pos.ps[0, PF.PTS_LEGENDARY] + pos.ps[0, PF.PTS_SOUVENIRS]


@BOTH
def test_offering_rulebook_example(mode: str) -> None:
    """Seed 002 "Buppatsu and Ema": "These Legendary Objects count as a new family of Souvenirs";
    "Example: a Traveler who already has 2 Souvenirs (family A and family B) scores 5 points by
    acquiring one of these Legendary Objects. If he later on acquires a Souvenir from family C, he
    scores 7 points and if he acquires a Souvenir from family D, he scores 9 points"; "one object
    from each of the 5 families thus gives 1 + 3 + 5 + 7 + 9 = 25 points" (C30)."""
    rs = rs3()
    pos = xr_position(rs, markets={"legendary": ["buppatsu"]}, coins=[5, 5, 5], mode=mode)
    gain = kern(gain_souvenir_nb, mode)
    got = []
    for c in souvenir_ids(rs, "koma", "manju"):  # families A (small objects) and B (food)
        before = int(pos.ps[0, PF.SCORE])
        gain(pos.pub, pos.ru, 0, c)
        got.append(int(pos.ps[0, PF.SCORE]) - before)
    before = int(pos.ps[0, PF.SCORE])
    kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
    got.append(int(pos.ps[0, PF.SCORE]) - before)
    for c in souvenir_ids(rs, "haori", "netsuke"):  # families C (clothing) and D (art)
        before = int(pos.ps[0, PF.SCORE])
        gain(pos.pub, pos.ru, 0, c)
        got.append(int(pos.ps[0, PF.SCORE]) - before)
    assert got == [1, 3, 5, 7, 9] and sum(got) == 25
    assert pos.ps[0, PF.PTS_LEGENDARY] == 5 and pos.ps[0, PF.PTS_SOUVENIRS] == 20
    assert pos.ps[0, PF.COINS] == 3 and pos.ps[0, PF.LEGENDARY] == 1 and pos.ps[0, PF.SOUVENIRS] == 4


@settings(max_examples=120, deadline=None, database=None)
@given(st.lists(st.integers(0, 3), max_size=10), st.integers(0, 2), st.randoms(use_true_random=False))
def test_property_offering_points_do_not_depend_on_order(families: list[int], offerings: int, rnd) -> None:
    """C30: an Offering is a fifth souvenir family, so a collection of souvenirs and Offerings
    scores the same in any order of acquisition, and equals the referee's
    ``souvenir_collection_points`` with set points 1/3/5/7/9."""
    cards = families + [OFFERING] * offerings
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    totals = []
    for order in (cards, shuffled):
        pos = xr_position(rs3(), markets={"legendary": ["buppatsu", "ema"]}, coins=[10, 5, 5])
        used = {f: iter(ids * 2) for f, ids in FAMILY_CARDS.items()}
        for f in order:
            if f == OFFERING:
                alternative_nb(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
            else:
                gain_souvenir_nb(pos.pub, pos.ru, 0, next(used[f]))
        assert pos.ps[0, PF.LEGENDARY] == offerings and pos.ps[0, PF.SOUVENIRS] == len(families)
        totals.append(int(pos.ps[0, PF.PTS_SOUVENIRS] + pos.ps[0, PF.PTS_LEGENDARY]))
    assert totals[0] == totals[1] == souvenir_collection_points(cards, [1, 3, 5, 7, 9], n_families=5)


@BOTH
def test_swords_give_eight_points_and_both_may_be_bought(mode: str) -> None:
    """Seed 002 "Murasame & Masamune": "These Legendary Objects give 8 points"; "The same traveler
    can acquire both types of a single Legendary Object"."""
    rs = rs3()
    pos = xr_position(rs, markets={"legendary": ["murasame", "masamune"]}, coins=[6, 5, 5], mode=mode)
    for _ in range(2):
        kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
    assert sorted(e[3] for e in pos.events(Ev.GAIN)) == legendary_ids(rs, "murasame", "masamune")
    assert pos.ps[0, PF.PTS_LEGENDARY] == 16 and pos.ps[0, PF.LEGENDARY] == 2 and pos.ps[0, PF.COINS] == 0


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
    pos = xr_position(make_rules(die_config("4,4,4,4,4,4")), positions=[0, 14, 14], coins=[1, 5, 5], mode=mode)
    assert not kern(alternative_possible_nb, mode)(pos.pub, pos.ru, 0, Space.FARM)
    pos.stop(0, FARM)
    assert choice(pos, 0) == 0 and pos.ps[0, PF.COINS] == 4 and pos.events(Ev.DIE) == []


@BOTH
def test_gaming_room_chosen_on_a_rich_die(mode: str) -> None:
    """C27, C28: at a Farm the player chooses on arrival; with a die of x4 on every face the
    greedy player bets (2 x 4 = 8 coins back, more than the Farm's 3)."""
    pos = xr_position(make_rules(die_config("4,4,4,4,4,4")), positions=[0, 14, 14], coins=[2, 5, 5], mode=mode)
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
    pos = xr_position(rs, markets={"amulets": ["fortune", "devotion", "hospitality"]}, coins=[5, 5, 5], mode=mode)
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
    pos = xr_position(rs, markets={"calligraphy": ["foresight"]}, positions=[0, 14, 14], coins=[10, 5, 5],
                      mode=mode)
    pos.stop(0, ENCOUNTER)
    assert choice(pos, 0) == 1
    foresight = rs.rules.calligraphy.index("foresight")
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.CALLIGRAPHY, foresight, 1, -1)] and pos.events(Ev.DRAW) == []
    assert pos.ps[0, PF.CALLIGRAPHY] == 1 and pos.ps[0, PF.CALLI_MASK] == 1 << foresight
    assert pos.ps[0, PF.ENCOUNTERS] == 0 and pos.ps[0, PF.COINS] == 9 and pos.ps[0, PF.SCORE] == 0
    assert pos.pub["dcnt"][Deck.ENCOUNTER] == 14 and pos.pub["mkt"][2].sum() == 0


# ------------------------------------------------------------------ both options (C27)
@BOTH
def test_only_kita_and_miyataka_take_both_without_an_amulet(mode: str) -> None:
    """Seed 002 "Travelers Crossroads": Kita "can carry out both actions when stopping at an
    Encounter space"; Miyataka "can carry out both actions when stopping at a Temple space"
    (C27): over random choices, option 2 appears for them there, never for anyone else."""
    rs = make_rules(xr_config(3, travelers="kita,miyataka,kinko", bots=("random",)))
    seen: dict[tuple[int, int], set[int]] = {}
    for seed in range(40):
        for t in range(3):
            for space in (TEMPLE, ENCOUNTER):
                pos = xr_position(rs, travelers=["kita", "miyataka", "kinko"], positions=[0, 0, 0],
                                  coins=[5, 5, 5], bots=Bot.RANDOM, seed=seed, mode=mode)
                pos.stop(t, space)
                seen.setdefault((t, space), set()).add(choice(pos, t))
    assert seen[(0, ENCOUNTER)] == {0, 1, 2} and seen[(1, TEMPLE)] == {0, 1, 2}
    assert seen[(0, TEMPLE)] == seen[(1, ENCOUNTER)] == seen[(2, TEMPLE)] == seen[(2, ENCOUNTER)] == {0, 1}


@BOTH
def test_both_options_base_first_then_alternative_if_still_possible(mode: str) -> None:
    """C27: taking both, the base action comes first, then the alternative if it is still
    possible: Miyataka with 1 coin donates it and can no longer pay for an Amulet; with 3 coins
    she donates, then buys one (the donation's events before the Amulet's)."""
    rs = rs3()
    pos = xr_position(rs, travelers=["miyataka", "kinko", "satsuki"], positions=[0, 14, 14], coins=[1, 5, 5],
                      mode=mode)
    pos.stop(0, TEMPLE)
    assert choice(pos, 0) == 2
    assert pos.events(Ev.DONATE) == [(Ev.DONATE, 0, 1, 0, -1, -1)] and pos.events(Ev.GAIN) == []
    assert pos.ps[0, PF.COINS] == 0 and pos.ps[0, PF.AMULETS] == 0
    pos = xr_position(rs, travelers=["miyataka", "kinko", "satsuki"], positions=[0, 14, 14], coins=[3, 5, 5],
                      mode=mode)
    pos.stop(0, TEMPLE)
    kinds = [e[0] for e in pos.events() if e[0] in (Ev.CHOICE, Ev.DONATE, Ev.GAIN)]
    assert kinds == [Ev.CHOICE, Ev.DONATE, Ev.GAIN]
    (donate,) = pos.events(Ev.DONATE)
    assert pos.ps[0, PF.COINS] == 3 - donate[2] - 1 and pos.ps[0, PF.AMULETS_BOUGHT] == 1
    assert pos.ps[0, PF.DONATED] == donate[2] == pos.ps[0, PF.PTS_TEMPLE]


# ------------------------------------------------------------------ data overrides
def test_fortune_die_override_makes_the_gaming_room_always_lose() -> None:
    """Overrides (docs/rules.md): ``--set crossroads.fortune_die=0,0,0,0,0,0``: every roll is X, so
    every Gaming Room bet (and Jirocho's) is lost: in 200 random-bot games each DIE is face 0, and
    the referee, reading the same override, accepts every game."""
    config = xr_config(4, travelers="jirocho,kita,miyataka,nampo", bots=("random",),
                       overrides=(("crossroads.fortune_die", "0,0,0,0,0,0"),))
    rules = config.rules()
    assert rules.fortune_die == [0] * 6
    batch = play_games(config, rules, 11, 0, 200, log=True)
    dice = [e for i in range(200) for e in batch.game_events(i).tolist() if e[0] == Ev.DIE]
    assert len(dice) > 100 and {e[2] for e in dice} == {0}
    assert {e[4] for e in dice} >= {DieSrc.GAMING_ROOM, DieSrc.JIROCHO}
    for i in range(200):
        rows = rows_from_records(batch.records[4 * i:4 * i + 4])
        assert referee_game(config, rules, batch.game_events(i), rows).ok


def test_crossroads_overrides_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Overrides: ``tokaido-sim verify --expansions crossroads --set crossroads.fortune_die=...
    --set crossroads.bathhouse.points=5 ...`` plays and verifies games under the changed rules, and
    a key that names nothing is a one-line error."""
    argv = ["verify", "--games", "40", "--seed", "3", "--players", "3", "--bots", "random", "--expansions",
            "crossroads", "--set", "crossroads.fortune_die=0,0,0,0,0,0", "--set", "crossroads.bathhouse.points=5",
            "--set", "crossroads.calligraphy.patience=9,5,1", "--quiet"]
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    out, _ = capsys.readouterr()
    assert int(exc.value.code or 0) == 0 and "verified 40 games, 0 mismatches" in out
    with pytest.raises(SystemExit) as exc:
        cli.main([*argv[:-1], "--set", "crossroads.bathhouse.nothing=1", "--quiet"])
    _, err = capsys.readouterr()
    assert exc.value.code == 2 and err.strip().startswith("error: ") and "nothing" in err


@pytest.mark.parametrize(("key", "value", "param", "want"), [
    ("crossroads.bathhouse.points", "5", "BATH_POINTS", 5),
    ("crossroads.cherry_tree.points", "3", "CHERRY_POINTS", 3),
    ("crossroads.gaming_room.bet", "3", "GAMING_BET", 3),
    ("crossroads.legendary.sword_points", "7", "SWORD_POINTS", 7),
    ("crossroads.calligraphy.patience", "9,5,1", "PATIENCE_SECOND", 5),
    ("crossroads.abilities.jirocho_bet", "2", "JIROCHO_BET", 2),
])
def test_crossroads_numbers_are_data(key: str, value: str, param: str, want: int) -> None:
    """Overrides: every number of the Crossroads rules is data (``sim/data/crossroads.toml``) and
    reaches the kernels' ``params``."""
    rs = make_rules(xr_config(3, overrides=((key, value),)))
    assert rs.ru["params"][getattr(P, param)] == want


def test_cherry_trees_in_play_never_exceed_the_copies() -> None:
    """Seed 002 "Equipment": 6 Cherry Tree and 6 Bathhouse cards; C23: at most that many are in play.
    ``--set crossroads.cherry_tree.copies=3`` at 4 players (5 per type) leaves 3 Cherry Trees in
    play (a bug found by this test: the kernels used to put 5, and the referee rejected the game)."""
    config = xr_config(4, overrides=(("crossroads.cherry_tree.copies", "3"), ("crossroads.bathhouse.copies", "2")))
    rules = config.rules()
    batch = play_games(config, rules, 1, 0, 1, log=True)
    counts = [(e[2], e[4]) for e in batch.game_events(0).tolist() if e[0] == Ev.MARKET and e[2] >= Deck.CHERRY]
    assert counts == [(Deck.CHERRY, 3), (Deck.BATHHOUSE, 2)]
    assert referee_game(config, rules, batch.game_events(0), rows_from_records(batch.records)).ok
