"""A run directory on disk: the checks of ``--out``, its lock, a new run's manifest, temp files.

Layout of a run directory::

    manifest.json                                   config, seed, versions, status, parts
    part-000000000000-000000100000.parquet          games [0, 100000)
    ...

The format of both (the typed manifest, part names, metadata and checks) is ``sim.dataset``'s, the
one module that the writers and the readers import. Every file is written under a
temp name (a leading dot, ``.tmp`` suffix), fsync'ed and renamed into place, so a part file that
exists is complete. Used by the in-process runner (``runner``), studies and the cluster driver alike.
"""

from __future__ import annotations

import json
import os
import platform
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pyarrow as pa

import sim
from sim.dataset.manifest import (
    MANIFEST,
    Manifest,
    read_manifest,
)
from sim.errors import UserError

LOCK = ".lock"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def versions() -> dict[str, str]:
    return {
        "tokaido_sim": sim.__version__,
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pyarrow": pa.__version__,
        "python": platform.python_version(),
    }


def check_writable(out_dir: Path, option: str = "--out") -> None:
    """Raise UserError unless ``out_dir`` exists as a writable directory or could be created."""
    if out_dir.exists() and not out_dir.is_dir():
        raise UserError(f"{out_dir} is a file, not a directory; choose another {option}")
    probe = out_dir
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise UserError(f"cannot create {out_dir}: {probe} is not a directory; choose another {option}")
    try:
        fd, name = tempfile.mkstemp(prefix=".tokaido-probe-", dir=probe)
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        raise UserError(f"cannot write to {probe} ({exc.strerror}); choose another {option}") from None


def check_out_file(path: Path, option: str = "--out") -> None:
    """Raise UserError unless ``path`` can be written as a file (not a directory, its folder creatable)."""
    if path.is_dir():
        raise UserError(f"{option} {path} is a directory; give the path of a file to write")
    check_writable(path.parent, option)


KINDS = ("run", "duo-run", "study", "balance")


def is_dataset(folder: Path) -> bool:
    """Does ``folder`` hold a tokaido-sim ``manifest.json`` (not another program's file of that name)?"""
    path = folder / MANIFEST
    if not path.is_file():
        return False
    try:
        data = json.loads(path.read_bytes()[: 1 << 24])
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and (data.get("kind") in KINDS or ("parts" in data and "seed" in data))


def dataset_holding(path: Path) -> Path | None:
    """The nearest folder at or above ``path`` that holds a dataset (a run, study or balance search)."""
    p = path.resolve()
    for d in (p, *p.parents):
        if is_dataset(d):
            return d
    return None


def check_out_dir(out_dir: Path, option: str = "--out", *, dataset_ok: bool = False) -> None:
    """Raise UserError unless ``out_dir`` can be written and lies outside every dataset.

    A folder inside a run or study would mix its files with the dataset's (a report's CSVs in
    it, or a second run's parts counted with the first's). ``dataset_ok``: ``out_dir`` may itself
    be a dataset (a run resumed in place); only a folder above it may not.
    """
    check_writable(out_dir, option)
    holder = dataset_holding(out_dir.parent if dataset_ok else out_dir)
    if holder is not None:
        where = "is the dataset" if holder == out_dir.resolve() else f"is inside the dataset {holder}"
        raise UserError(
            f"{option} {out_dir} {where}; its files would mix with the dataset's: choose a folder outside it"
        )


def prepare_out_dir(out_dir: Path, resume: bool, kind: str = "run") -> Manifest | None:
    """Check ``out_dir`` before any work; return its manifest when resuming. Creates nothing."""
    check_writable(out_dir)
    if not out_dir.exists():
        return None
    if not out_dir.is_dir():
        raise UserError(f"{out_dir} is a file; choose another --out")
    entries = [p for p in out_dir.iterdir() if p.name != LOCK]
    if not entries:
        return None
    manifest = read_manifest(out_dir)
    if not resume:
        if manifest is None:
            raise UserError(f"{out_dir} is not empty; choose another --out")
        raise UserError(
            f"{out_dir} already holds a {kind}; use --resume to continue it or choose another --out"
        )
    if manifest is None:
        raise UserError(
            f"{out_dir} holds files but no {MANIFEST}, so it is not a tokaido-sim {kind}; "
            "choose another --out"
        )
    if (manifest.kind or "run") != kind:
        raise UserError(f"{out_dir} holds a {manifest.kind}, not a {kind}; choose another --out")
    return manifest


def new_manifest(game: Any, seed: int) -> Manifest:
    """A new run's manifest of ``game`` (a ``sim.run.game.Game``) with ``seed``: what its parts' metadata
    says."""
    m = Manifest(kind=game.kind, seed=seed, n_players=game.n_players, game=game.name)
    m.set_fields(game.manifest_head())
    m.set_fields(game.manifest_tail())
    return m


@contextmanager
def lock_dir(out_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``out_dir`` (released by the OS if the process dies)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    with open(out_dir / LOCK, "a") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise UserError(
                f"{out_dir} is in use by another tokaido-sim process; wait for it to finish"
            ) from None
        yield


def clean_temp_files(out_dir: Path) -> None:
    for p in out_dir.glob(".*.tmp"):
        p.unlink(missing_ok=True)
