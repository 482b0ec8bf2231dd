"""The expert fitted to the search's move choices (sim/games/tokaido/tuning/imitate.py, ``tune --method
imitate``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib

import numpy as np
import pytest

from kernels.tokaido.core.weights import W
from sim.games.tokaido import bots
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.tuning import imitate as I
from sim.games.tokaido.tuning import imitation as R
from sim.games.tokaido.tuning.tune import key_index
from tests.helpers.cli import call
from tests.helpers.paths import ROOT

CONFIG = GameConfig(n_players=3, bots=("search",) * 3, travelers="random")


def _weights(rollouts: int | None = None, **moves: float) -> np.ndarray:
    """Every seat's search weights (its expert part moved by ``moves``); ``rollouts=0``: it plays its
    heuristic's best."""
    w = bots.bot_weights("search", CONFIG.rules(), CONFIG)
    for k, v in moves.items():
        w[key_index(k)] = v
    if rollouts is not None:
        w[W.S_ROLLOUTS] = rollouts
    return np.repeat(w[None, :], 3, axis=0)


def test_a_recorded_position_gives_the_heuristic_the_choice_it_made_in_the_game():
    """Without rollouts the search plays its heuristic's best move: on every recorded position the values
    of the same weights put the recorded choice first, and a changed weight changes some choice."""
    ws = _weights(rollouts=0)
    pos = R.record(CONFIG, ws, 8, seed=3, threads=1)
    assert len(pos.states) > 8 * 3 * 5
    nc = pos.meta[:, 2]
    assert (nc > 1).all() and (pos.meta[:, 3] < nc).all()
    vals = pos.values(ws[0])
    assert np.isfinite(vals[np.arange(vals.shape[1]) < nc[:, None]]).all()
    assert np.isneginf(vals[np.arange(vals.shape[1]) >= nc[:, None]]).all()
    assert I.agreement_rate(vals, pos.choice) == 1.0
    moved = ws[0].copy()
    moved[key_index("type_temple")] += 2.0
    assert I.agreement_rate(pos.values(moved), pos.choice) < 1.0


def test_the_recorded_positions_do_not_depend_on_the_threads():
    a = R.record(CONFIG, _weights(rollouts=4), 60, seed=5, threads=1)
    b = R.record(CONFIG, _weights(rollouts=4), 60, seed=5, threads=2)
    assert np.array_equal(a.meta, b.meta)
    for name in a.states.dtype.names:  # field by field: the record's padding bytes are not copied
        assert np.array_equal(a.states[name], b.states[name]), name
    assert set(a.meta[:, 4]) == set(range(60)) and (a.held_out == (a.meta[:, 4] % 5 == 0)).all()


def test_the_fit_moves_a_weight_towards_the_one_that_made_the_choices():
    """Choices made with ``type_temple`` 2 points above the expert's: fitted from the expert's weights on
    that one key, the weight rises and the held-out choices are matched more often."""
    w0 = _weights()[0]
    i = key_index("type_temple")
    target = _weights(rollouts=0, type_temple=float(w0[i]) + 2.0)
    pos = R.record(CONFIG, target, 30, seed=7, threads=2)
    s = I.ImitateSettings(players=3, iterations=25, penalty=0.0)
    w, fig = I.fit(pos, w0, ["type_temple"], s, seed=1)
    assert w[i] > w0[i] + 1.0
    assert fig["agree_after"] > fig["agree_before"]
    assert set(fig["moves"]) == {"type_temple"}
    assert np.array_equal(np.delete(w, i), np.delete(w0, i))


def test_only_the_weights_that_change_a_move_value_are_fitted():
    pos = R.record(CONFIG, _weights(rollouts=0), 4, seed=9, threads=1)
    keys = I.fitted_keys(pos, _weights()[0], ["type_temple", "skip", "amulet_use", "gamble"])
    assert keys == ["type_temple", "skip"]  # Crossroads weights do nothing in the base game


def test_the_weight_file_records_the_rounds(tmp_path):
    s = I.ImitateSettings(players=3, rounds=1, games=100, iterations=10, seed=4)
    s.history = [
        {
            "round": 0,
            "decisions": 4000,
            "fitted": 29,
            "agree_before": 0.84,
            "agree_after": 0.85,
            "ll_before": -0.43,
            "ll_after": -0.40,
            "tau": 0.95,
            "moves": {},
        }
    ]
    out = tmp_path / "expert-3p-base.toml"
    w = _weights()[0]
    I.write_weights(out, w, s, "tokaido-sim tune --method imitate")
    text = out.read_text()
    assert "Made by: tokaido-sim tune --method imitate" in text and 'inherit = "expert"' in text
    assert "round 0: 4000 decisions, 29 weights; agree 0.8400 -> 0.8500" in text
    # the start was the shipped 3-player file: its own making is kept, so the chain can be rerun
    assert "The start, expert-3p-base.toml, had this header:" in text
    assert "#   Made by: tokaido-sim tune --tier expert --players 3" in text


def test_the_gate_keeps_a_step_only_where_it_beats_the_rounds_start():
    """The strength gate: a fit that plays worse than the round's start is not kept, a better one is."""
    cfg = GameConfig(n_players=3, bots=("expert",) * 3, travelers="random")
    good = bots.bot_weights("expert", cfg.rules(), cfg)
    bad = good.copy()
    bad[key_index("pts")] = -1.0  # a player who avoids points
    s = I.ImitateSettings(players=3, gate=150, seed=2, threads=2)
    fig: dict = {}
    kept = I.gate(cfg, good, bad, s, 0, fig)
    assert fig["step"] == 0.0 and np.array_equal(kept, good) and max(fig["gate"].values()) <= 0.5
    kept = I.gate(cfg, bad, good, s, 0, fig)
    assert fig["step"] > 0 and kept[key_index("pts")] > -1.0 and fig["gate"][fig["step"]] > 0.5


@pytest.mark.parametrize(
    "args, says",
    [
        (["--tier", "tuned"], "--method imitate fits the expert"),
        (["--tier", "expert", "--players", "3", "--games", "5"], "--games >= 10"),
        (["--tier", "expert", "--players", "3", "--iterations", "0"], "--iterations >= 1"),
        (["--tier", "expert", "--players", "3", "--gate", "-1"], "--gate must be 0 (off)"),
    ],
)
def test_bad_imitate_options_get_one_line_and_write_nothing(tmp_path, capsys, args, says):
    out = tmp_path / "w.toml"
    code, _, err = call(["tune", "--method", "imitate", "-o", str(out), *args], capsys)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1 and not out.exists()


def test_tune_imitate_writes_a_weight_file(tmp_path, capsys):
    out = tmp_path / "expert-3p-base.toml"
    code, _, err = call(
        [
            "tune",
            "--tier",
            "expert",
            "--players",
            "3",
            "--method",
            "imitate",
            "--games",
            "10",
            "--generations",
            "1",
            "--iterations",
            "3",
            "--threads",
            "2",
            "-q",
            "-o",
            str(out),
        ],
        capsys,
    )
    assert code == 0, err
    text = out.read_text()
    assert "round 0:" in text and "Made by: tokaido-sim" in text
    table = tomllib.loads(text)
    assert table["features"]["pts"] == 1 and len(table["expert"]) == len(bots.expert_names())


def test_the_kernels_record_and_value_alike_as_plain_python():
    """``NUMBA_DISABLE_JIT=1`` (a fresh interpreter) records the same decisions and gives the same values."""
    code = (
        "import json, numpy as np\n"
        "from kernels.tokaido.core.weights import W\n"
        "from sim.games.tokaido.tuning import imitation as R\n"
        "from sim.games.tokaido.rules.config import GameConfig\n"
        "from sim.games.tokaido import bots\n"
        "c = GameConfig(n_players=3, bots=('search',) * 3, travelers='random')\n"
        "ws = np.repeat(bots.bot_weights('search', c.rules(), c)[None, :], 3, axis=0)\n"
        "ws[:, W.S_ROLLOUTS], ws[:, W.S_TOPK] = 2, 2\n"
        "pos = R.record(c, ws, 1, seed=11, threads=1)\n"
        "v = pos.values(ws[0])\n"
        "print(json.dumps({'meta': pos.meta.tolist(), 'vals': np.where(np.isfinite(v), v, 0).tolist()}))\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    ws = _weights(rollouts=2)
    ws[:, W.S_TOPK] = 2
    pos = R.record(CONFIG, ws, 1, seed=11, threads=1)
    v = pos.values(ws[0])
    assert got["meta"] == pos.meta.tolist()
    assert np.allclose(got["vals"], np.where(np.isfinite(v), v, 0), rtol=0, atol=1e-9)
