"""Crossroads rules of the markets and the set-up: the cards in play, the face-up markets, the start
Amulet, and the Crossroads data overrides.

Each test quotes seed 002's set-up ("Equipment", the by-count table, the start Amulet) or names its
rule choice (docs/rules-choices.md, C23-C39); the positions are the real set-up (``setup_position``)
or hand-made (``xr_position``).
"""

from __future__ import annotations

import pytest

from kernels.tokaido.bots.policy import choose_legendary_nb
from kernels.tokaido.core.enums import PF, Bot, Deck, DieSrc, Ev, Opt, P
from sim.cli import app as cli
from sim.games.tokaido.engine import play_games
from sim.games.tokaido.referee.game import referee_game, rows_from_records
from tests.helpers.positions import (
    BOTH,
    legendary_ids,
    make_rules,
    setup_position,
    xr_config,
    xr_position,
)

CFG3 = xr_config(3)


def rs3(**kw):
    return make_rules(CFG3, **kw)


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
        rs = make_rules(
            xr_config(
                n,
                overrides=(
                    ("crossroads.start_amulet", "false"),
                    ("crossroads.by_player_count", str(by_count)),
                ),
            )
        )
        for seed in range(3):
            pos = setup_position(rs, seed=seed, mode=mode)
            market = pos.events(Ev.MARKET)
            for m, deck in enumerate((Deck.LEGENDARY, Deck.AMULET, Deck.CALLIGRAPHY)):
                ids = [e[3] for e in market if e[2] == deck]
                assert len(ids) == len(set(ids)) == k and all(0 <= c < 6 for c in ids)
                assert sorted(ids) == [c for c in range(8) if pos.pub["mkt"][m, c] == 1]
            assert [(e[2], e[3], e[4]) for e in market if e[2] >= Deck.CHERRY] == [
                (Deck.CHERRY, -1, k),
                (Deck.BATHHOUSE, -1, k),
            ]
            assert list(pos.pub["xcnt"]) == [k, k]


def test_cards_in_play_are_drawn_at_random() -> None:
    """Seed 002 set-up, with the by-count table (``crossroads.by_player_count=true``): the cards in
    play are chosen "at random": over 30 set-ups at 3 players every Legendary Object, Amulet and
    Calligraphy card is in play sometimes, and out sometimes."""
    rs = make_rules(
        xr_config(3, overrides=(("crossroads.start_amulet", "false"), ("crossroads.by_player_count", "true")))
    )
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
        pos = xr_position(
            rs,
            markets={"legendary": ["shodo", "buppatsu", "murasame"]},
            coins=[2, 5, 5],
            bots=Bot.RANDOM,
            seed=seed,
        )
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
            assert (
                pos.ps[t, PF.AMULETS_BOUGHT] == bought
                and bin(int(pos.ps[t, PF.AMULETS])).count("1") == bought
            )
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


# ------------------------------------------------------------------ data overrides
def test_fortune_die_override_makes_the_gaming_room_always_lose() -> None:
    """Overrides (docs/rules.md): ``--set crossroads.fortune_die=0,0,0,0,0,0``: every roll is X, so
    every Gaming Room bet (and Jirocho's) is lost: in 200 random-bot games each DIE is face 0, and
    the referee, reading the same override, accepts every game."""
    config = xr_config(
        4,
        travelers="jirocho,kita,miyataka,nampo",
        bots=("random",),
        overrides=(("crossroads.fortune_die", "0,0,0,0,0,0"),),
    )
    rules = config.rules()
    assert rules.fortune_die == [0] * 6
    batch = play_games(config, rules, 11, 0, 200, log=True)
    dice = [e for i in range(200) for e in batch.game_events(i).tolist() if e[0] == Ev.DIE]
    assert len(dice) > 100 and {e[2] for e in dice} == {0}
    assert {e[4] for e in dice} >= {DieSrc.GAMING_ROOM, DieSrc.JIROCHO}
    for i in range(200):
        rows = rows_from_records(batch.records[4 * i : 4 * i + 4])
        assert referee_game(config, rules, batch.game_events(i), rows).ok


def test_crossroads_overrides_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Overrides: ``tokaido-sim verify --expansions crossroads --set crossroads.fortune_die=...
    --set crossroads.bathhouse.points=5 ...`` plays and verifies games under the changed rules, and
    a key that names nothing is a one-line error."""
    argv = [
        "verify",
        "--games",
        "40",
        "--seed",
        "3",
        "--players",
        "3",
        "--bots",
        "random",
        "--expansions",
        "crossroads",
        "--set",
        "crossroads.fortune_die=0,0,0,0,0,0",
        "--set",
        "crossroads.bathhouse.points=5",
        "--set",
        "crossroads.calligraphy.patience=9,5,1",
        "--quiet",
    ]
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    out, _ = capsys.readouterr()
    assert int(exc.value.code or 0) == 0 and "verified 40 games, 0 mismatches" in out
    with pytest.raises(SystemExit) as exc:
        cli.main([*argv[:-1], "--set", "crossroads.bathhouse.nothing=1", "--quiet"])
    _, err = capsys.readouterr()
    assert exc.value.code == 2 and err.strip().startswith("error: ") and "nothing" in err


@pytest.mark.parametrize(
    ("key", "value", "param", "want"),
    [
        ("crossroads.bathhouse.points", "5", "BATH_POINTS", 5),
        ("crossroads.cherry_tree.points", "3", "CHERRY_POINTS", 3),
        ("crossroads.gaming_room.bet", "3", "GAMING_BET", 3),
        ("crossroads.legendary.sword_points", "7", "SWORD_POINTS", 7),
        ("crossroads.calligraphy.patience", "9,5,1", "PATIENCE_SECOND", 5),
        ("crossroads.abilities.jirocho_bet", "2", "JIROCHO_BET", 2),
    ],
)
def test_crossroads_numbers_are_data(key: str, value: str, param: str, want: int) -> None:
    """Overrides: every number of the Crossroads rules is data (``sim/games/tokaido/data/crossroads.toml``)
    and
    reaches the kernels' ``params``."""
    rs = make_rules(xr_config(3, overrides=((key, value),)))
    assert rs.ru["params"][getattr(P, param)] == want


def test_cherry_trees_in_play_never_exceed_the_copies() -> None:
    """Seed 002 "Equipment": 6 Cherry Tree and 6 Bathhouse cards; C23: at most that many are in play.
    ``--set crossroads.cherry_tree.copies=3`` at 4 players (5 per type) leaves 3 Cherry Trees in
    play (a bug found by this test: the kernels used to put 5, and the referee rejected the game)."""
    config = xr_config(
        4, overrides=(("crossroads.cherry_tree.copies", "3"), ("crossroads.bathhouse.copies", "2"))
    )
    rules = config.rules()
    batch = play_games(config, rules, 1, 0, 1, log=True)
    counts = [
        (e[2], e[4]) for e in batch.game_events(0).tolist() if e[0] == Ev.MARKET and e[2] >= Deck.CHERRY
    ]
    assert counts == [(Deck.CHERRY, 3), (Deck.BATHHOUSE, 2)]
    assert referee_game(config, rules, batch.game_events(0), rows_from_records(batch.records)).ok
