"""Numba kernels of tokaido-sim: pure functions over integer records (see ``enums`` and ``state``).

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


def _cache_dir() -> str:
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(here.rglob("*.py")):  # subpackages (kernels/duo) too
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return str(here / "__pycache__" / f"numba-{digest.hexdigest()[:16]}")


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = _cache_dir()  # type: ignore[attr-defined]
