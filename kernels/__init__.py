"""Numba kernels of tokaido-sim: pure functions over integer records, in layers that import downwards only.

- ``kernels.core``: the state layout (``enums``, ``state``), rng, piles and log, board, scoring.
- ``kernels.bots``: the policies behind every decision hook (random, greedy, heuristic tiers).
- ``kernels.game``: the engine (stations, Crossroads, the turn structure); asks ``kernels.bots``.
- ``kernels.search``: the determinized search bot; plays rollouts with ``kernels.game``.
- ``kernels.play``: the driver (one game, a parallel batch); the only module that knows every tier.
- ``kernels.duo``: Tokaido Duo, a separate game with its own layers (rules <- search <- play).

Numba's on-disk cache (``cache=True``) is invalidated per source file, but a
compiled kernel embeds the kernels it calls from other files: after editing
``score.py`` the cached ``game.py`` would still run the old scoring. So the
cache lives in a folder named after a hash of every kernel source; any edit
starts a fresh cache. ``NUMBA_CACHE_DIR`` set by the user takes precedence.
"""

import hashlib
import os
from pathlib import Path

import numba


def source_files() -> list[Path]:
    """Every kernel source file, in a fixed order (subpackages included)."""
    here = Path(__file__).parent
    return sorted(p for p in here.rglob("*.py") if "__pycache__" not in p.parts)


def _cache_dir() -> str:
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(path.relative_to(here).as_posix().encode())
        digest.update(path.read_bytes())
    return str(here / "__pycache__" / f"numba-{digest.hexdigest()[:16]}")


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()  # type: ignore[attr-defined]
