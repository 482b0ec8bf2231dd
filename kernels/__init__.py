"""Numba kernels of tokaido-sim: pure functions over integer records, in layers that import downwards only.

- ``kernels.core``: the state layout (``enums``, ``state``), rng, piles and log, board, scoring.
- ``kernels.tokaido.bots``: the policies behind every decision hook (random, greedy, heuristic tiers).
- ``kernels.tokaido.game``: the engine (stations, Crossroads, the turn structure); asks
``kernels.tokaido.bots``.
- ``kernels.tokaido.search``: the determinized search bot; plays rollouts with ``kernels.tokaido.game``.
- ``kernels.tokaido.play``: the driver (one game, a parallel batch); the only module that knows every tier.
- ``kernels.duo``: Tokaido Duo, a separate game with its own layers (rules <- search <- play).

Numba's on-disk cache (``cache=True``) is invalidated per source file, but a
compiled kernel embeds the kernels it calls from other files: after editing
``score.py`` the cached ``game.py`` would still run the old scoring. So the
cache lives in a folder named after a hash of every kernel source; any edit
starts a fresh cache. ``NUMBA_CACHE_DIR`` set by the user takes precedence.

A checkout the user cannot write to (another user's, or read-only) caches in a
per-user folder instead (``$XDG_CACHE_HOME/tokaido-sim``, by default
``~/.cache/tokaido-sim``), saying so the first time; with no writable folder at
all the kernels compile into a temporary folder removed at exit (uncached: about
3 CPU-minutes every run).
"""

import atexit
import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

import numba


def source_files() -> list[Path]:
    """Every kernel source file, in a fixed order (subpackages included)."""
    here = Path(__file__).parent
    return sorted(p for p in here.rglob("*.py") if "__pycache__" not in p.parts)


def _cache_name() -> str:
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(path.relative_to(here).as_posix().encode())
        digest.update(path.read_bytes())
    return f"numba-{digest.hexdigest()[:16]}"


def writable(folder: Path) -> bool:
    """Can ``folder`` be created (if missing) and written to?"""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".probe-", dir=folder)
        os.close(fd)
        os.unlink(name)
        return True
    except OSError:
        return False


def user_cache() -> Path:
    """The per-user cache root: ``$XDG_CACHE_HOME/tokaido-sim`` (``~/.cache/tokaido-sim``)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tokaido-sim"


def choose_cache(preferred: Path, fallback: Path) -> tuple[Path | None, str | None]:
    """The cache folder to use and a note to print (None: nothing to say; folder None: no writable folder)."""
    if writable(preferred):
        return preferred, None
    new = not fallback.exists()
    if writable(fallback):
        note = (
            f"note: cannot write the kernels' cache in {preferred.parent}; caching them in {fallback} instead"
            if new
            else None
        )  # said once: when the per-user cache is made
        return fallback, note
    return None, (
        f"note: neither {preferred.parent} nor {fallback.parent} can be written; the kernels are compiled "
        "without a cache (about 3 CPU-minutes each run)"
    )


def _configure() -> None:
    name = _cache_name()
    folder, note = choose_cache(Path(__file__).parent / "__pycache__" / name, user_cache() / name)
    if folder is None:
        folder = Path(tempfile.mkdtemp(prefix="tokaido-numba-"))
        atexit.register(shutil.rmtree, folder, True)
    if note:
        print(note, file=sys.stderr)
    numba.config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]


if not os.environ.get("NUMBA_CACHE_DIR"):
    _configure()
