"""The kernels as plain Python (``NUMBA_DISABLE_JIT=1``) play exactly the games the compiled kernels play.

``NUMBA_DISABLE_JIT`` is read when numba is first imported, so the pure-Python
run happens in a fresh interpreter (a subprocess with the variable in its
environment); the compiled games are played here, in the test process. Records
and action logs must be identical. Pure Python plays a few hundred games per
second (the heuristic bots ~10), so this stays well under a minute.

If they differ, the test compiles the kernels afresh in another subprocess (an
empty ``NUMBA_CACHE_DIR``) to tell a stale on-disk numba cache from a real
compiled/pure-Python discrepancy: numba only checks a cached function's own
source file, so an edited kernel file used to leave every cached caller in
other files stale; ``kernels/__init__.py`` now keys the cache by a hash of all
kernel sources (``test_cache_follows_edits_of_other_kernel_files``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kernels.tokaido.core.enums import PF
from kernels.tokaido.core.weights import W
from sim.games.tokaido.bots import bot_weights
from sim.games.tokaido.engine import play_games
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules
from tests.helpers.paths import ROOT

# (spec, seed, start, count): every player count, variant and expansion, all Traveler modes, every bot
# (the search bot with a small budget, SEARCH_BUDGET: with its own it takes ~1 min a game in pure Python)
SEARCH_BUDGET = {"S_ROLLOUTS": 2, "S_TOPK": 2}
CASES: list[tuple[str, int, int, int]] = [
    ("players=2", 31, 0, 6),
    ("players=3", 32, 10, 6),
    ("players=4", 33, 1000, 6),
    ("players=5", 34, 123456, 6),
    ("players=2,variants=initiation+return-trip,bots=random", 35, 0, 4),
    ("players=3,variants=gastronomy+preparations,expansions=new-encounters", 36, 5, 4),
    ("players=4,variants=return-trip,travelers=random,bots=greedy+random+random+greedy", 37, 0, 4),
    ("players=5,expansions=new-encounters,travelers=mitsukuni+sasayakko+hirotada+umegae+zen-emon", 38, 7, 4),
    ("players=5,travelers=hiroshige+chuubei+kinko+yoshiyasu+satsuki,variants=preparations", 39, 0, 4),
    (
        "players=4,variants=initiation+return-trip+gastronomy+preparations,expansions=new-encounters",
        40,
        99,
        4,
    ),
    ("players=4,expansions=crossroads,bots=greedy+random+greedy+random", 41, 3, 4),
    (
        "players=5,expansions=crossroads+new-encounters,travelers=daigoro+gotozaemon+jirocho+kita+miyataka",
        42,
        0,
        4,
    ),
    ("players=2,variants=gastronomy,expansions=crossroads,travelers=nampo+satsuki", 43, 50, 4),
    ("players=3,bots=heuristic+tuned+greedy", 44, 8, 3),
    ("players=4,bots=tuned,expansions=crossroads", 45, 0, 2),
    ("players=2,bots=search+tuned", 46, 2, 1),
    (
        "players=4,expansions=promos,travelers=antoine+naiade+eriku+felicia,bots=greedy+random+greedy+random",
        47,
        0,
        4,
    ),
    ("players=3,expansions=crossroads+promos,travelers=felicia+eriku+naiade", 48, 11, 4),
]


def weights(config: GameConfig, rules: Rules) -> np.ndarray | None:
    """The players' bot weights, the search bot's budget cut to SEARCH_BUDGET (None: no search bot)."""
    if "search" not in config.bot_names():
        return None
    w = np.array([bot_weights(b, rules) for b in config.bot_names()])
    for p, b in enumerate(config.bot_names()):
        if b == "search":
            for key, value in SEARCH_BUDGET.items():
                w[p, getattr(W, key)] = value
    return w


CHILD = """
import json, sys, types
import numpy as np
import numba
if sys.argv[3] == "python":
    assert numba.config.DISABLE_JIT, "NUMBA_DISABLE_JIT was not honoured"
    from kernels.tokaido.play import play_batch_nb
    assert isinstance(play_batch_nb, types.FunctionType), "the kernels are still compiled"
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.engine import play_games
# this module (the checkout is on PYTHONPATH)
from tests.kernels.tokaido.test_games_without_jit import weights
cases = json.loads(sys.argv[1])
out = {}
for k, (spec, seed, start, count) in enumerate(cases):
    config = GameConfig.parse(spec)
    rules = config.rules()
    b = play_games(config, rules, seed, start, count, log=True, weights=weights(config, rules))
    out[f"records{k}"] = b.records
    out[f"events{k}"] = b.events
    out[f"n_events{k}"] = b.n_events
np.savez(sys.argv[2], **out)
"""


def play_in_subprocess(tmp_path: Path, mode: str) -> dict[str, np.ndarray]:
    """Play CASES in a fresh interpreter: ``python`` (NUMBA_DISABLE_JIT=1) or ``fresh`` (an empty cache)."""
    path = [str(ROOT), os.environ.get("PYTHONPATH")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, path))}
    env.pop("NUMBA_DISABLE_JIT", None)
    if mode == "python":
        env["NUMBA_DISABLE_JIT"] = "1"
    else:
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba-cache")
    out = tmp_path / f"{mode}.npz"
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(CASES), str(out), mode],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, f"{mode} run failed:\n{proc.stderr[-3000:]}"
    with np.load(out) as data:
        return {k: data[k] for k in data.files}


def first_mismatch(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> str | None:
    """Where two runs of CASES first differ (records, then action logs), or None."""
    for k, (spec, seed, start, count) in enumerate(CASES):
        where = f"{spec}, seed {seed}, games {start}..{start + count - 1}"
        ra, rb = a[f"records{k}"], b[f"records{k}"]
        if ra.dtype != rb.dtype:
            return f"{where}: record dtypes differ"
        for name in ra.dtype.names:
            bad = np.flatnonzero(ra[name] != rb[name])
            if bad.size:
                i = bad[0]
                return (
                    f"{where}: field {name} differs at row {i} (game {ra['game'][i]}): "
                    f"{ra[name][i]} vs {rb[name][i]}"
                )
        if not np.array_equal(a[f"n_events{k}"], b[f"n_events{k}"]):
            return f"{where}: log lengths differ"
        for i in range(count):
            ea, eb = a[f"events{k}"][i], b[f"events{k}"][i]
            bad = np.flatnonzero((ea != eb).any(axis=1))
            if bad.size:
                return (
                    f"{where}: game {start + i}: logs differ from event {bad[0]}: "
                    f"{ea[bad[0]]} vs {eb[bad[0]]}"
                )
    return None


def play_here() -> dict[str, np.ndarray]:
    out = {}
    for k, (spec, seed, start, count) in enumerate(CASES):
        config = GameConfig.parse(spec)
        rules = config.rules()
        b = play_games(config, rules, seed, start, count, log=True, weights=weights(config, rules))
        assert b.events is not None and b.n_events is not None
        out.update({f"records{k}": b.records, f"events{k}": b.events, f"n_events{k}": b.n_events})
    return out


def test_pure_python_kernels_play_the_same_games(tmp_path: Path) -> None:
    pure = play_in_subprocess(tmp_path, "python")
    diff = first_mismatch(pure, play_here())
    if diff is None:
        return
    fresh = first_mismatch(pure, play_in_subprocess(tmp_path, "fresh"))  # slow: compiles everything
    if fresh is None:
        pytest.fail(
            f"pure Python vs compiled: {diff}\nA fresh compile agrees with pure Python: numba's on-disk "
            f"cache "
            "is stale (see kernels/__init__.py). Delete kernels/__pycache__/numba-* and rerun.",
            pytrace=False,
        )
    pytest.fail(f"pure Python vs compiled (even freshly compiled): {fresh}", pytrace=False)


CACHE_PROBE = """
import sys
import numpy as np
from kernels.tokaido.core.board import lead_player_nb
from kernels.tokaido.core.enums import PF, G
from kernels.tokaido.core.state import PUB_DTYPE
pubs = np.zeros(1, PUB_DTYPE)
pub = pubs[0]
pub["gs"][G.N_PLAYERS] = 2
pub["ps"][0, PF.POS], pub["ps"][0, PF.SEQ] = 5, 7
pub["ps"][1, PF.POS], pub["ps"][1, PF.SEQ] = 9, 3
print(lead_player_nb(pub))
"""


def test_cache_follows_edits_of_other_kernel_files(tmp_path: Path) -> None:
    """Cache ``board.lead_player_nb``, then swap two field indices in ``enums.py``: the kernel must follow.

    Numba checks only a cached function's own file; ``kernels/__init__.py`` keys
    the whole cache by a hash of every kernel source (without it this failed:
    the cached kernel kept the old indices, and a cached ``kernels.tokaido.play.play_batch_nb``
    kept playing an edited bot's old code).
    """
    src = tmp_path / "src"
    shutil.copytree(ROOT / "kernels", src / "kernels", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(src)}
    env.pop("NUMBA_DISABLE_JIT", None)
    env.pop("NUMBA_CACHE_DIR", None)  # the project's own cache location (inside the copy)

    def lead() -> int:
        proc = subprocess.run(
            [sys.executable, "-c", CACHE_PROBE],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        return int(proc.stdout.strip())

    assert lead() == 1  # player 1 is farther along (space 9 against 5)
    enums = src / "kernels" / "tokaido" / "core" / "enums.py"  # another file than the probed kernel's
    text = enums.read_text()
    pos, seq = f"    POS: int = {PF.POS}", f"    SEQ: int = {PF.SEQ}"
    assert pos in text and seq in text
    enums.write_text(text.replace(pos, f"    POS: int = {PF.SEQ}").replace(seq, f"    SEQ: int = {PF.POS}"))
    assert lead() == 1, "the cached kernel still reads the old field indices"
