"""The coordinate sweep that polishes the expert's weights (sim/games/tokaido/tuning/sweep.py, ``tune
--method sweep``)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.games.tokaido import bots, engine
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.tuning import sweep as S
from sim.games.tokaido.tuning import tune as T


def test_per_game_fitness_is_the_tuners_fitness_game_by_game():
    config = GameConfig(n_players=3, bots=("expert", "tuned", "greedy"))
    rec = engine.play_games(config, config.rules(), 5, 0, 200).records
    assert S.per_game_fitness(rec, 3).mean() == pytest.approx(T.fitness(rec, 3))


def test_swept_keys_leave_out_what_the_configuration_cannot_use():
    base, xr = S.swept_keys(()), S.swept_keys(("crossroads",))
    assert "type_encounter" in base and "coin_use" in base
    assert not set(S.CROSSROADS_ONLY) & set(base) and not any(k.startswith("amulet_") for k in base)
    assert set(S.CROSSROADS_ONLY) <= set(xr) and "amulet_devotion" in xr
    assert not set(S.MATSURI_ONLY) & (set(base) | set(xr))


def _start(n: int) -> np.ndarray:
    config = GameConfig(n_players=n, bots=("expert",) * n)
    return bots.bot_weights("expert", config.rules(), config)


def test_a_sweep_with_no_move_good_enough_returns_the_start():
    s = S.SweepSettings(players=2, rounds=2, games=100, z_min=float("inf"), threads=1)
    w = S.sweep(s)
    assert np.array_equal(w, _start(2))
    assert len(s.history) == 1 and s.history[0]["moves"] == {} and s.history[0]["vs_start"] == 0.0


def test_each_round_takes_its_best_moves_one_step_from_the_current_weights():
    """With z_min = -inf a round takes ``take`` moves on distinct weights, each one step up or down."""
    s = S.SweepSettings(players=2, rounds=1, games=100, z_min=-float("inf"), take=2, threads=1)
    w = S.sweep(s)
    start = _start(2)
    moves = s.history[0]["moves"]
    assert len(moves) == 2
    changed = {k for k in S.swept_keys(()) if w[T.key_index(k)] != start[T.key_index(k)]}
    assert changed == set(moves)
    for k, v in moves.items():
        i = T.key_index(k)
        assert abs(v - start[i]) == pytest.approx(max(s.step * abs(start[i]), s.min_step))
        assert w[i] == v


def test_the_weight_file_records_the_sweep(tmp_path):
    s = S.SweepSettings(players=2, rounds=1, games=100, seed=4)
    s.history = [{"round": 0, "moves": {"type_encounter": 0.5}, "best_z": 4.0, "vs_start": 0.05}]
    w = _start(2)
    w[T.key_index("type_encounter")] = 0.5
    out = tmp_path / "expert-2p-base.toml"
    S.write_weights(out, w, s, "tokaido-sim tune --method sweep")
    text = out.read_text()
    assert (
        "Made by: tokaido-sim tune --method sweep" in text and "round 0: type_encounter 0.5; +0.050" in text
    )
    assert "type_encounter = 0.5" in text and 'inherit = "expert"' in text
