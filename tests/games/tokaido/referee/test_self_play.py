"""The referee on whole random legal games (``SelfPlay``, tests/helpers/referee_selfplay.py), base game and
Crossroads: every game is accepted and its columns recomputed, tampered logs are caught, and the
narration reads.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.tokaido.core.enums import Ability, Ev, Space
from sim.games.tokaido.referee.game import Referee, explain_mismatch, referee_game
from sim.games.tokaido.referee.scoring import souvenir_collection_points
from sim.games.tokaido.referee.state import TravelerState
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules
from tests.helpers.referee_logs import cfg, xcfg
from tests.helpers.referee_selfplay import SelfPlay

CONFIGS = [
    dict(n=2),
    dict(n=3),
    dict(n=4),
    dict(n=5),
    dict(n=3, variants=("initiation",)),
    dict(n=2, travelers="satsuki,chuubei", expansions=("new-encounters",)),
    dict(
        n=4,
        travelers="random",
        variants=("preparations", "gastronomy", "return-trip"),
        expansions=("new-encounters",),
    ),
    dict(n=5, travelers="hiroshige,chuubei,mitsukuni,hirotada,umegae", expansions=("new-encounters",)),
    dict(
        n=5,
        travelers="kinko,satsuki,sasayakko,zen-emon,yoshiyasu",
        expansions=("new-encounters",),
        variants=("preparations",),
    ),
    # these two stop wherever a pile can run dry, or a panorama is closed
    dict(n=5, travelers="yoshiyasu,chuubei,hiroshige,umegae,kinko", expansions=("new-encounters",)),
    dict(
        n=4, travelers="random", expansions=("new-encounters",), overrides=(("panoramas.lengths", "1,2,1"),)
    ),
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


def narration(config: GameConfig, rules: Rules, events: np.ndarray) -> str:
    """The referee's narration of an accepted game."""
    res = referee_game(config, rules, events, narrate=True)
    assert res.ok
    return "\n".join(res.narration)


def test_narration() -> None:
    text = narration(*self_play(1, 3)[:3])
    assert text.startswith("setup: departure order")
    assert "turn 1  " in text and " -> " in text
    assert "end scoring" in text and "final" in text
    assert "joins set 1 as 1st family" in text


# ====================================================================== Crossroads
XR_CONFIGS = [
    dict(n=2),
    dict(n=3, travelers="random"),
    dict(n=4),
    dict(n=5, travelers="daigoro,gotozaemon,jirocho,kita,miyataka"),
    dict(n=5, travelers="nampo,mitsukuni,umegae,hirotada,zen-emon", variants=("preparations",)),
    dict(n=3, travelers="satsuki,sasayakko,kinko", variants=("gastronomy", "return-trip")),
    dict(n=4, travelers="random", overrides=(("crossroads.cards_by_players.4", "2"),)),  # markets run dry
]


def xr_self_play(i: int, seed: int) -> tuple[GameConfig, Rules, np.ndarray, Referee]:
    config, rules = xcfg(**XR_CONFIGS[i])  # type: ignore[arg-type]
    game = SelfPlay(config, rules, seed, alt=0.9 if i == 6 else 0.5)
    return config, rules, game.play(), game.ref


def independent_calligraphy(ref: Referee, tr: TravelerState) -> int:
    """Calligraphy points recomputed from the final state with the rulebook's numbers (seed 002)."""
    st = ref.state
    arrived = st.inns[st.last].arrived
    from_last = len(arrived) - 1 - arrived.index(tr.index)
    complete = sum(1 for p in range(3) if tr.panorama[p] >= ref.rules.panorama_lengths[p])
    total = 0
    for card in tr.calligraphy:
        name = ref.rules.calligraphy[card]
        total += {
            "foresight": 2 * tr.coins,
            "contemplation": 3 * complete + tr.cherry_trees,
            "nostalgia": 2 * len(tr.legendary) + len(tr.souvenirs),
            "patience": {0: 6, 1: 4}.get(from_last, 2),
            "perfection": 2 * len(tr.achievements) + len(tr.calligraphy),
            "fasting": 3 * (4 - tr.inn_meals),
        }[name]
    return total


@pytest.mark.parametrize("i", range(len(XR_CONFIGS)))
def test_xr_self_play_games_are_accepted(i: int) -> None:
    kinds: set[tuple[int, int]] = set()
    for seed in range(12):
        config, rules, events, ref = xr_self_play(i, seed)
        res = referee_game(config, rules, events, kernel_rows=ref.result().rows)
        assert res.ok, explain_mismatch(res)
        assert res.finished and res.events_checked == len(events)
        for row, tr in zip(res.rows, ref.state.players(), strict=True):
            assert row["score"] == sum(v for k, v in row.items() if k.startswith("pts_"))
            assert row["pts_calligraphy"] == independent_calligraphy(ref, tr)
            assert row["pts_cherry_trees"] == 2 * row["cherry_trees"]
            assert row["pts_bathhouses"] == 4 * row["bathhouses"]
            assert row["coins_left"] >= 0
        kinds |= {(int(r[0]), int(r[2])) for r in events if r[0] in (Ev.USE, Ev.DIE)}
        kinds |= {(int(r[0]), int(r[3])) for r in events if r[0] == Ev.CHOICE}
    assert {(Ev.CHOICE, 0), (Ev.CHOICE, 1)} <= kinds
    if i in (3, 4):
        assert len({k for k in kinds if k[0] == Ev.USE}) == 6, kinds  # every Amulet was used


def test_xr_tampered_logs_are_caught() -> None:
    config, rules, events, ref = xr_self_play(3, 4)
    rows = ref.result().rows
    kinds = events[:, 0]

    def first_error(bad: np.ndarray, kernel: list[dict] | None = None) -> str:
        res = referee_game(config, rules, bad, rows if kernel is None else kernel)
        assert not res.ok
        return res.errors[0]

    # a die face that is not on the die, a changed CHOICE, a changed market
    i = next(k for k in range(len(events)) if kinds[k] == Ev.DIE)
    bad = events.copy()
    bad[i, 2] = 5
    assert first_error(bad).startswith(f"event {i} DIE")
    i = next(k for k in range(len(events)) if kinds[k] == Ev.CHOICE and events[k, 3] == 1)
    bad = events.copy()
    bad[i, 3] = 0
    assert first_error(bad).startswith(f"event {i + 1} ")
    i = next(k for k in range(len(events)) if kinds[k] == Ev.MARKET)
    bad = events.copy()
    bad[i, 3] = events[i + 1, 3]
    assert first_error(bad).startswith(f"event {i + 1} MARKET")
    # a dropped USE
    i = next(k for k in range(len(events)) if kinds[k] == Ev.USE)
    assert first_error(np.delete(events, i, axis=0)).startswith("event ")
    # a wrong Crossroads result column
    for field in ("pts_cherry_trees", "pts_calligraphy", "legendary", "amulets", "bathhouses"):
        tampered = [dict(r) for r in rows]
        tampered[2][field] += 1
        assert f" {field}: referee" in first_error(events, tampered)


def test_xr_narration() -> None:
    text = narration(*xr_self_play(3, 2)[:3])
    assert text.startswith("setup: crossroads cards in play: legendary ")
    for words in (
        "start amulet",
        "chooses crossroads alternative",
        "chooses base action",
        "calligraphy",
        "cherry",
    ):
        assert words in text, words


def test_mitsukuni_counts_bathhouses() -> None:
    config, rules, events, ref = xr_self_play(4, 0)
    del config, rules, events
    for tr in ref.state.players():
        if tr.ability == Ability.MITSUKUNI:
            assert tr.points["pts_other"] == len(tr.hot_springs) + tr.bathhouses + len(tr.achievements)
