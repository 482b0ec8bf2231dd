"""A run's part files against its manifest: what the manifest lists, what is on disk, what is missing.

The manifest lists each part as ``{"file": "part-S-E.parquet", "rows": N, "sha256": "<hex>"}``
(``analysis.load`` reads the same list); older manifests list only the names.
Before a run resumes, ``verified_parts`` checks every part file: readable,
``(E - S) * n_players`` rows, and the row count and checksum the manifest
recorded, so a truncated, damaged or edited part is named (delete it and resume:
its games are played again) instead of being taken as finished. A part on disk
that the manifest does not list yet (the run was killed between writing the file
and recording it) is kept when its rows are right. Parts may cover uneven game
ranges (an interrupted chunk keeps the games it finished); ``missing_chunks``
fills the gaps.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from sim.errors import UserError
from sim.run.outdir import PART_RE, file_sha256

Entry = dict[str, Any]  # {"file", "rows", "sha256"}


def entry(path: Path, rows: int) -> Entry:
    """The manifest's record of the part file ``path``."""
    return {"file": path.name, "rows": rows, "sha256": file_sha256(path)}


def span(name: str) -> tuple[int, int]:
    """The ``[start, end)`` game range a part file's name encodes."""
    m = PART_RE.match(name)
    assert m, name
    return int(m[1]), int(m[2])


def listed(manifest: dict[str, Any] | None) -> dict[str, Entry]:
    """The manifest's parts by file name (a name only, for older manifests)."""
    out: dict[str, Entry] = {}
    for p in (manifest or {}).get("parts", []) or []:
        e = {"file": p} if isinstance(p, str) else dict(p) if isinstance(p, dict) else {}
        if isinstance(e.get("file"), str):
            out[e["file"]] = e
    return out


def verified_parts(out_dir: Path, n_players: int, manifest: dict[str, Any] | None) -> list[Entry]:
    """The part files of ``out_dir`` that hold what they should, as manifest entries sorted by game.

    Raises ``UserError`` naming the first part that does not (and saying to delete it).
    """
    known = listed(manifest)
    parts: list[Entry] = []
    for p in sorted(out_dir.iterdir()):
        if not PART_RE.match(p.name):
            continue
        start, end = span(p.name)
        fix = "delete it and resume again (its games are played again)"
        try:
            rows = pq.read_metadata(p).num_rows
        except (OSError, pa.ArrowException) as exc:
            raise UserError(f"{p} is not a readable Parquet file ({exc}); {fix}") from None
        want = (end - start) * n_players
        if end <= start or rows != want:
            raise UserError(f"{p} holds {rows} rows, not {want}; {fix}") from None
        e = entry(p, rows)
        old = known.get(p.name, {})
        if "rows" in old and old["rows"] != rows:
            raise UserError(f"{p} holds {rows} rows, manifest.json recorded {old['rows']}; {fix}")
        if "sha256" in old and old["sha256"] != e["sha256"]:
            raise UserError(f"{p} is not the file manifest.json recorded (its checksum differs: damaged or "
                            f"edited); {fix}")
        parts.append(e)
    ranges = [span(e["file"]) for e in parts]
    for (_, e0), (s1, _) in zip(ranges, ranges[1:], strict=False):
        if s1 < e0:
            raise UserError(f"part files in {out_dir} overlap at game {s1}; delete the extra ones")
    return parts


def missing_chunks(parts: list[tuple[int, int]], games: int, chunk_size: int) -> Iterator[tuple[int, int]]:
    """The ``[start, end)`` chunks still to play, lazily: the gaps between finished parts, cut to ``chunk_size``."""
    pos = 0
    for start, end in [*sorted(parts), (games, games)]:
        for s in range(pos, start, chunk_size):
            yield s, min(s + chunk_size, start)
        pos = max(pos, end)


def missing_games(parts: list[tuple[int, int]], games: int) -> int:
    return games - sum(min(e, games) - min(s, games) for s, e in parts)
