"""A run directory on disk: its manifest, lock, part files and their atomic writes.

Layout of a run directory::

    manifest.json                                   config, seed, versions, status, parts
    part-000000000000-000000100000.parquet          games [0, 100000)
    ...

Every file is written under a temp name (a leading dot, ``.tmp`` suffix),
fsync'ed and renamed into place, so a part file that exists is complete. Used by
the in-process runner (``runner``), studies and the cluster driver alike.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pyarrow as pa

import sim
from sim.errors import UserError
from sim.games.tokaido import dataset
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules

MANIFEST = "manifest.json"


LOCK = ".lock"


PART_RE = re.compile(r"^part-(\d{12})-(\d{12})\.parquet$")


def part_name(start: int, end: int) -> str:
    return f"part-{start:012d}-{end:012d}.parquet"


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


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_json_atomic(path: Path, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` through a temp file, fsync and rename."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w") as fh:
        json.dump(obj, fh, indent=1)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def read_manifest(out_dir: Path) -> dict[str, Any] | None:
    path = out_dir / MANIFEST
    if not path.is_file():
        return None
    try:
        m = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise UserError(f"{path} is unreadable ({exc}); choose another --out") from None
    if not isinstance(m, dict):
        raise UserError(f"{path} is not a tokaido-sim manifest; choose another --out")
    return m


def check_writable(out_dir: Path) -> None:
    """Raise UserError unless ``out_dir`` exists as a writable directory or could be created."""
    if out_dir.exists() and not out_dir.is_dir():
        raise UserError(f"{out_dir} is a file, not a directory; choose another --out")
    probe = out_dir
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise UserError(f"cannot create {out_dir}: {probe} is not a directory; choose another --out")
    try:
        fd, name = tempfile.mkstemp(prefix=".tokaido-probe-", dir=probe)
        os.close(fd)
        os.unlink(name)
    except OSError as exc:
        raise UserError(f"cannot write to {probe} ({exc.strerror}); choose another --out") from None


def check_out_file(path: Path, option: str = "--out") -> None:
    """Raise UserError unless ``path`` can be written as a file (not a directory, its folder creatable)."""
    if path.is_dir():
        raise UserError(f"{option} {path} is a directory; give the path of a file to write")
    check_writable(path.parent)


def prepare_out_dir(out_dir: Path, resume: bool, kind: str = "run") -> dict[str, Any] | None:
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
        raise UserError(f"{out_dir} already holds a {kind}; use --resume to continue it or choose another --out")
    if manifest is None:
        raise UserError(f"{out_dir} holds files but no {MANIFEST}, so it is not a tokaido-sim {kind}; "
                        "choose another --out")
    if manifest.get("kind", "run") != kind:
        raise UserError(f"{out_dir} holds a {manifest.get('kind')}, not a {kind}; choose another --out")
    return manifest


def check_same_run(manifest: dict[str, Any], config: GameConfig, rules: Rules, seed: int, out_dir: Path) -> None:
    """Refuse to resume a run whose configuration, seed or rules differ."""
    hint = "resume with the same options or choose another --out"
    new, old = json.loads(json.dumps(config.to_dict())), manifest.get("config")
    if new != old:
        if not isinstance(old, dict):
            raise UserError(f"{out_dir}/{MANIFEST} has no readable 'config'; choose another --out")
        key = next(k for k in [*new, *old] if new.get(k) != old.get(k))
        raise UserError(f"{out_dir} holds a run whose {key} is {_show(old.get(key))}, not {_show(new.get(key))} "
                        f"as asked; {hint}")
    if manifest.get("seed") != seed:
        raise UserError(f"{out_dir} holds a run with --seed {manifest.get('seed')}, not {seed}; {hint}")
    if manifest.get("rules_fingerprint") != rules.fingerprint():
        raise UserError(
            f"the rules changed since {out_dir} was started (fingerprint {manifest.get('rules_fingerprint')}, "
            f"now {rules.fingerprint()}); {hint}"
        )


def _show(value: Any) -> str:
    return "(none)" if value is None else json.dumps(value)


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
            raise UserError(f"{out_dir} is in use by another tokaido-sim process; wait for it to finish") from None
        yield


def clean_temp_files(out_dir: Path) -> None:
    for p in out_dir.glob(".*.tmp"):
        p.unlink(missing_ok=True)


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_part(out_dir: Path, start: int, end: int, table: pa.Table) -> dict[str, Any]:
    """Write games ``[start, end)`` (``table``: ``Game.to_table`` of their records) as their part file.

    Temp file, fsync, rename. Returns the manifest's entry for it: ``{"file": name, "rows": rows, "sha256": hex}``.
    The temp name is unique to this call, so two writers of the same chunk (a
    cluster task retried while the first attempt still runs) cannot mix bytes.
    """
    name = part_name(start, end)
    tmp = out_dir / f".{name}.{uuid.uuid4().hex[:8]}.tmp"
    dataset.write_table(table, tmp)
    entry = {"file": name, "rows": table.num_rows, "sha256": file_sha256(tmp)}
    os.replace(tmp, out_dir / name)
    fsync_dir(out_dir)
    return entry
