"""Which Parquet files of a dataset to read: checked against the manifests that list them.

A run's ``manifest.json`` lists its part files as ``"parts": [{"file": NAME, "rows": N,
"sha256": HEX}, ...]`` (names relative to the manifest's directory; runs written before the
checksums list bare names). Under a directory whose manifest lists its parts:

- a listed part that is missing, holds another row count or another checksum is refused
  (one line naming the file: delete it and ``--resume`` the run to play its games again);
- a Parquet file that is not listed (a stray copy, a file of another run) is skipped, with a
  one-line note, so that no game is counted twice.

Files under no such manifest (older datasets) are all read. Every file read must have a
readable Parquet footer, so a truncated part gives one line naming it, not a traceback.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

MANIFEST = "manifest.json"
RESUME = "delete it and rerun the run (or study) with --resume to play its games again"


def sha256_file(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _rows(path: Path) -> int:
    """The file's row count from its footer; ValueError naming the file if it is unreadable."""
    try:
        return int(pq.read_metadata(path).num_rows)
    except (OSError, pa.ArrowException) as exc:
        reason = " ".join(str(exc).split())[:120]
        raise ValueError(f"{path} is not a readable Parquet file ({reason}): truncated or corrupted; "
                         f"{RESUME}") from None


def _listed(manifest: Path) -> dict[str, dict[str, Any]] | None:
    """The parts a manifest lists, by file name (``None`` if it lists none)."""
    try:
        data = json.loads(manifest.read_text())
    except (OSError, ValueError):
        return None  # load.read_manifest reports a bad root manifest; a cell's is only a listing
    parts = data.get("parts") if isinstance(data, dict) else None
    if not isinstance(parts, list):
        return None
    out: dict[str, dict[str, Any]] = {}
    for p in parts:
        entry = {"file": p} if isinstance(p, str) else p if isinstance(p, dict) else {}
        if isinstance(entry.get("file"), str):
            out[entry["file"]] = entry
    return out


def _owner(file: Path, root: Path, listings: dict[Path, dict[str, dict[str, Any]] | None]) -> Path | None:
    """The nearest directory from the file's up to ``root`` whose manifest lists parts."""
    for d in [file.parent, *file.parent.parents]:
        if listings.get(d) is not None:
            return d
        if d == root:
            break
    return None


def _check(path: Path, entry: dict[str, Any], manifest: Path) -> None:
    rows = _rows(path)
    if "rows" in entry and rows != entry["rows"]:
        raise ValueError(f"{path} holds {rows:,} rows but {manifest} lists {entry['rows']:,}: it is not the part "
                         f"the run wrote; {RESUME}")
    if "sha256" in entry and sha256_file(path) != entry["sha256"]:
        raise ValueError(f"{path} does not match its checksum in {manifest} (corrupted or changed since it was "
                         f"written); {RESUME}")


def checked_files(root: Path, files: Sequence[Path]) -> tuple[list[Path], list[str]]:
    """The files to read, and one note per file skipped; ValueError for a bad or missing part."""
    listings = {m.parent: _listed(m) for m in sorted(root.rglob(MANIFEST))
                if not any(s.startswith(".") for s in m.relative_to(root).parts)}
    keep, notes = [], []
    for f in files:
        owner = _owner(f, root, listings)
        if owner is None:
            _rows(f)
            keep.append(f)
            continue
        entry = (listings[owner] or {}).get(f.relative_to(owner).as_posix())
        if entry is None:
            notes.append(f"skipping {f}: not listed in {owner / MANIFEST} (a stray copy?), so not counted")
            continue
        _check(f, entry, owner / MANIFEST)
        keep.append(f)
    for owner, listed in listings.items():
        for name in listed or {}:
            if not (owner / name).is_file():
                raise ValueError(f"{owner / name} is listed in {owner / MANIFEST} but missing; rerun the run "
                                 "(or study) with --resume to play its games again")
    return keep, notes


@contextmanager
def reading(files: Sequence[Path]) -> Iterator[None]:
    """Turn a Parquet decoding error while a query runs into one line naming the damaged file."""
    try:
        yield
    except pl.exceptions.ComputeError as exc:
        for f in files:
            try:
                pq.read_table(f)
            except (OSError, pa.ArrowException) as bad:
                reason = " ".join(str(bad).split())[:120]
                raise ValueError(f"{f} cannot be read ({reason}): corrupted; {RESUME}") from None
        raise exc
