"""No kernel reads a game's records after Numba has freed the arrays they sit in.

A record taken from an array (``pubs[0]``) does not keep the array alive: Numba frees
the array after the last statement that names it, even if a record taken from it is
still in use. Read after that, a game's log comes from memory that another game on
another thread may already have taken and zeroed. That shows up only when the
allocator hands the block over in that short window (a rare all-zero log row on two
threads).

Numba's NRT debug mode (``NUMBA_DEBUG_NRT=1``) fills every block it frees with 0xDE.
That makes any such read visible every time, on one thread, with no timing involved:
the games played in that mode, in a fresh interpreter with its own empty cache, must
equal the games the normally compiled kernels play here, action logs included.
Compiling Duo's kernels in that mode takes about half a CPU-minute and Tokaido's
several, so Tokaido's case runs with the slow tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.helpers.paths import ROOT

# (game, rules, bots, seed, count): logged games of each kind of driver; the search tier's own scratch
# game is allocated by the search kernel itself
DUO_CASES = [
    ("duo", "", ["random", "greedy"], 2024, 40),
    ("duo", "solo", ["random", "automa"], 2025, 40),
    ("duo", "", ["search", "greedy"], 9, 2),
]
TOKAIDO_CASES = [
    ("tokaido", "players=3,bots=random+greedy+greedy", [], 1, 20),
    ("tokaido", "players=4,bots=heuristic+tuned+greedy+random,expansions=crossroads", [], 2, 4),
    ("tokaido", "players=2,bots=search+expert", [], 3, 2),
]

CHILD = """
import json, sys
import numpy as np
from numba.core import config
assert config.DEBUG_NRT, "NUMBA_DEBUG_NRT was not honoured"
from tests.kernels.test_freed_memory import play
out = {}
for k, case in enumerate(json.loads(sys.argv[1])):
    out[f"records{k}"], out[f"logs{k}"], out[f"nlog{k}"] = play(*case)
np.savez(sys.argv[2], **out)
"""


def play(game: str, rules: str, bots: list[str], seed: int, count: int) -> tuple[np.ndarray, ...]:
    """Records, logs and log lengths of games ``0..count-1``, from the batch kernel itself.

    It calls the kernel directly because a log length read from freed memory has to show up
    here as it is, not as the engine's overflow error."""
    stop = np.zeros(1, np.int64)
    if game == "duo":
        from kernels.duo import enums
        from kernels.duo.play import play_batch_nb
        from kernels.duo.state import RESULT_DTYPE
        from sim.games.duo.rules import load_duo_rules

        ru = load_duo_rules(solo=rules == "solo").record((bots[0], bots[1]), True)
        n_players, args = 2, ()
    else:
        from kernels.tokaido.core import enums
        from kernels.tokaido.core.records import RESULT_DTYPE
        from kernels.tokaido.play import play_batch_nb
        from sim.games.tokaido.engine import rules_record
        from sim.games.tokaido.rules.config import GameConfig

        config = GameConfig.parse(rules)
        ru = rules_record(config, config.rules(), True)
        n_players, args = config.n_players, (stop,)
    out = np.zeros(count * n_players, RESULT_DTYPE)
    logs = np.zeros((count, enums.MAX_EVENTS, enums.EV_FIELDS), np.int16)
    nlog = np.full(count, -2, np.int32)
    play_batch_nb(np.int64(seed), np.int64(0), np.int64(count), ru, out, logs, nlog, *args)
    return out, logs, nlog


def play_with_freed_blocks_filled(tmp_path: Path, cases: list[tuple]) -> dict[str, np.ndarray]:
    env = {**os.environ, "NUMBA_DEBUG_NRT": "1", "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env.pop("NUMBA_DISABLE_JIT", None)
    out = tmp_path / "debug.npz"
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(cases), str(out)],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,  # the debug mode prints every reference count change
        stderr=subprocess.PIPE,
        text=True,
        timeout=1200,
    )
    assert proc.returncode == 0, f"the NRT debug run failed:\n{proc.stderr[-3000:]}"
    with np.load(out) as data:
        return {k: data[k] for k in data.files}


def assert_same_games(tmp_path: Path, cases: list[tuple]) -> None:
    debug = play_with_freed_blocks_filled(tmp_path, cases)
    for k, case in enumerate(cases):
        records, logs, nlog = play(*case)
        where = f"{case[0]} {case[1] or 'default'} {'+'.join(case[2])} seed {case[3]}"
        assert (nlog >= 0).all(), (
            f"{where}: log lengths {nlog.tolist()} (negative: an overflow or unfinished)"
        )
        filled = [i for i in range(len(nlog)) if (debug[f"logs{k}"][i].view(np.uint16) == 0xDEDE).any()]
        assert not filled, f"{where}: games {filled} logged 0xDEDE rows: read after their arrays were freed"
        assert np.array_equal(debug[f"nlog{k}"], nlog), (
            f"{where}: log lengths differ when freed blocks are filled: "
            f"{debug[f'nlog{k}'].tolist()} vs {nlog.tolist()}"
        )
        assert np.array_equal(debug[f"logs{k}"], logs), f"{where}: logs differ when freed blocks are filled"
        assert np.array_equal(debug[f"records{k}"], records), f"{where}: records differ"


def test_duo_games_never_read_freed_arrays(tmp_path: Path) -> None:
    assert_same_games(tmp_path, DUO_CASES)


@pytest.mark.slow
def test_tokaido_games_never_read_freed_arrays(tmp_path: Path) -> None:
    assert_same_games(tmp_path, TOKAIDO_CASES)
