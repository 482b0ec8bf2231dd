"""Conformance: the kernels' Duo games replayed by the independent referee (sim/games/duo/referee/game.py), 0
mismatches."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.duo.enums import Ev
from sim.games.duo.engine import play_duo_games
from sim.games.duo.referee.game import referee_game, rows_from_records
from sim.games.duo.rules import load_duo_rules
from tests.helpers.duo_conformance import assert_agrees

CASES = [
    (("greedy", "greedy"), []),
    (
        ("random", "greedy"),
        ["choices.merchant_path=walk", "choices.seashore_optional=true", "choices.hot_spring_optional=true"],
    ),
    (("random", "random"), ["choices.actions_optional=false", "choices.hot_spring_retake=false"]),
    (("greedy", "random"), ["choices.merchant_path=trail", "choices.first_player=0"]),
]


@pytest.mark.parametrize(("bots", "sets"), CASES)
def test_referee_agrees(bots: tuple[str, str], sets: list[str]) -> None:
    assert_agrees(load_duo_rules(sets=sets), bots, 2024, 1000)


def test_referee_agrees_with_the_search_tier() -> None:
    assert_agrees(load_duo_rules(), ("search", "greedy"), 9, 60)


@pytest.mark.slow
@pytest.mark.parametrize(("bots", "sets"), CASES)
def test_referee_agrees_big(bots: tuple[str, str], sets: list[str]) -> None:
    """>= 20,000 games in all (4 x 6,000)."""
    assert_agrees(load_duo_rules(sets=sets), bots, 77, 6000)


def test_the_referee_catches_a_tampered_log() -> None:
    """A referee that cannot fail is no check: a wrong landing space, die or score is caught."""
    rules = load_duo_rules()
    batch = play_duo_games(rules, 4, 0, 1, log=True)
    rows = rows_from_records(batch.game_records(0))
    ev = batch.game_events(0).copy()
    assert referee_game(rules, ev, rows).ok
    k = int(np.flatnonzero(ev[:, 0] == Ev.PMOVE)[0])
    ev[k, 3] = (ev[k, 3] + 1) % 37
    assert not referee_game(rules, ev, rows).ok
    ev = batch.game_events(0).copy()
    k = int(np.flatnonzero(ev[:, 0] == Ev.ROLL)[0])
    ev[k, 3] = 6
    assert not referee_game(rules, ev, rows).ok
    rows[0]["score"] += 1
    assert not referee_game(rules, batch.game_events(0), rows).ok


def test_pure_python_mode_plays_the_same_games(tmp_path) -> None:
    """The kernels run under NUMBA_DISABLE_JIT=1 and give the same games (random streams included), the solo
    Automa's too."""
    import os
    import subprocess
    import sys

    code = (
        "import numpy as np; from sim.games.duo.rules import load_duo_rules; from sim.games.duo.engine "
        "import play_duo_games; "
        "r = play_duo_games(load_duo_rules(), 3, 5, 3, ('greedy', 'random')).records; "
        "s = play_duo_games(load_duo_rules(solo=True), 3, 5, 2, ('greedy', 'automa')).records; "
        f"np.save({str(tmp_path / 'py.npy')!r}, np.concatenate([r, s]))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=600)
    jit = np.concatenate(
        [
            play_duo_games(load_duo_rules(), 3, 5, 3, ("greedy", "random")).records,
            play_duo_games(load_duo_rules(solo=True), 3, 5, 2, ("greedy", "automa")).records,
        ]
    )
    assert np.array_equal(np.load(tmp_path / "py.npy"), jit)


def test_the_referee_catches_a_declined_must() -> None:
    """003:L70 / L34: a wave tile or the Hot Spring token left lying where the seed says "must" is a foul."""
    rules = load_duo_rules()
    batch = play_duo_games(rules, 4, 0, 20, log=True)
    for i in range(20):
        ev = batch.game_events(i)
        takes = [
            k for k in np.flatnonzero(ev[:, 0] == Ev.PTAKE) if ev[k, 2] in (2, 3)
        ]  # seashore, hot spring
        if takes:
            break
    rows = rows_from_records(batch.game_records(i))
    v = referee_game(rules, np.delete(ev, takes[0], axis=0), rows)
    assert not v.ok and "mandatory (003:L" in v.errors[0]
