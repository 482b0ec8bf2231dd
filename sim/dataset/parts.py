"""A dataset's part files: names, how each is written, the metadata each carries, atomic writes, and the
checks against the manifest.

``part-S-E.parquet`` holds games ``[S, E)``: ``(E - S) * n_players`` rows, in the game's own schema
(its ``Game.to_table``), written the same way for every game (``write_table``: zstd, row groups,
statistics, fsync). Every part written
carries in its Parquet metadata (keys ``tokaido_sim.*``) the game, the configuration string, the
expansions, the rules version and fingerprint, the seed and the players, so a part read without
its manifest still says what it is, and a manifest edited after the run (say, ``players`` 3 over
4-player parts) no longer agrees with its parts.

The checks, one definition for the writer and the reader:

- ``resume_parts`` (``sim.run.runner``, before a resume): every ``part-S-E.parquet`` in the folder
  must be readable and hold its rows, the row count and SHA-256 its manifest recorded and the
  metadata of the run; a part the manifest does not list yet (the run was killed between writing
  the file and recording it) is kept when its rows are right.
- ``checked_files`` (``analysis``, before a report): the Parquet files under a folder, each against
  the nearest manifest that lists parts: a listed part that is missing, damaged, edited or of
  another run is refused; a file the manifest does not list (a stray copy) is skipped, with a note.

Every refusal is one line naming the file and saying what to do (``fix``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import uuid
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sim.dataset.manifest import MANIFEST, Manifest, Part, fsync_dir, read_manifest
from sim.errors import UserError

PART_RE = re.compile(r"^part-(\d{12})-(\d{12})\.parquet$")
META = "tokaido_sim."  # prefix of the part files' metadata keys
# metadata key -> what a message calls it
META_FIELDS = {
    "game": "game",
    "spec": "configuration",
    "n_players": "players",
    "seed": "seed",
    "expansions": "expansions",
    "rules_version": "rules version",
    "rules_fingerprint": "rules fingerprint",
    "config": "configuration record",
}
COMPRESSION = "zstd"
COMPRESSION_LEVEL = 1  # same size as the default level on these small ints, faster
ROW_GROUP_ROWS = 1 << 18  # 262,144 rows: ~65k four-player games per row group
# min/max in every row group, for readers' filters: the columns every game's rows have (a part spans
# games, one row per player); a game adds its own (``Game.statistics``)
STATISTICS = ("game", "player")
FIX_RESUME = "delete it and resume again (its games are played again)"
FIX_READ = "delete it and rerun the run (or study) with --resume to play its games again"


def part_name(start: int, end: int) -> str:
    return f"part-{start:012d}-{end:012d}.parquet"


def span(name: str) -> tuple[int, int]:
    """The ``[start, end)`` game range a part file's name encodes."""
    m = PART_RE.match(name)
    assert m, name
    return int(m[1]), int(m[2])


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_table(table: pa.Table, path: str | os.PathLike[str], statistics: Sequence[str] = ()) -> None:
    """Write one part file (zstd, row groups of ``ROW_GROUP_ROWS``, min/max of ``STATISTICS`` and of the
    game's ``statistics``) and fsync it."""
    with open(path, "wb") as fh:
        pq.write_table(
            table,
            fh,
            compression=COMPRESSION,
            compression_level=COMPRESSION_LEVEL,
            row_group_size=ROW_GROUP_ROWS,
            write_statistics=[*STATISTICS, *statistics],
        )
        fh.flush()
        os.fsync(fh.fileno())


# ------------------------------------------------------------ metadata
def part_metadata(m: Manifest) -> dict[str, str]:
    """The metadata a part of the run ``m`` carries (``tokaido_sim.*`` keys, text values)."""
    config = json.dumps(m.config, sort_keys=True, separators=(",", ":")) if m.config is not None else None
    values = {
        "game": m.game,
        "spec": m.spec,
        "expansions": "+".join(m.expansions) if m.config else None,
        "seed": m.seed,
        "n_players": m.players,
        "rules_version": m.rules_version,
        "rules_fingerprint": m.rules_fingerprint,
        "config": config,
    }
    return {META + k: str(v) for k, v in values.items() if v is not None}


def read_footer(path: Path, fix: str) -> tuple[int, dict[str, str]]:
    """(rows, ``tokaido_sim.*`` metadata without the prefix) from the part's footer; one line if
    unreadable."""
    try:
        md = pq.read_metadata(path)
    except (OSError, pa.ArrowException) as exc:
        reason = " ".join(str(exc).split())[:120]
        raise UserError(
            f"{path} is not a readable Parquet file ({reason}): truncated or corrupted; {fix}"
        ) from None
    meta = {
        k.decode()[len(META) :]: v.decode(errors="replace")
        for k, v in (md.metadata or {}).items()
        if k.startswith(META.encode())
    }
    return int(md.num_rows), meta


def write_part(
    out_dir: Path,
    start: int,
    end: int,
    table: pa.Table,
    metadata: dict[str, str] | None = None,
    statistics: Sequence[str] = (),
) -> Part:
    """Write games ``[start, end)`` (``table``: ``Game.to_table`` of their records) as their part file.

    Temp file, fsync, rename. ``metadata`` (``part_metadata``) goes into the file's footer;
    ``statistics`` (``Game.statistics``) are the game's columns with min/max per row group. The
    temp name is unique to this call, so two writers of the same chunk (a cluster task retried
    while the first attempt still runs) cannot mix bytes.
    """
    name = part_name(start, end)
    if metadata:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), **metadata})
    tmp = out_dir / f".{name}.{uuid.uuid4().hex[:8]}.tmp"
    write_table(table, tmp, statistics)
    part = Part(name, table.num_rows, file_sha256(tmp))
    os.replace(tmp, out_dir / name)
    fsync_dir(out_dir)
    return part


# -------------------------------------------------------------- checks
def _check(
    path: Path, listed: Part | None, m: Manifest | None, where: Path, fix: str, n_players: int | None = None
) -> Part:
    """The part ``path`` as its manifest should list it; ``UserError`` (one line) if it is not the run's."""
    rows, meta = read_footer(path, fix)
    if m is not None:  # first: a part that says what it is tells an edited manifest from a damaged part
        ours = part_metadata(m)
        for key, label in META_FIELDS.items():
            mine, theirs = meta.get(key), ours.get(META + key)
            if mine is not None and theirs is not None and mine != theirs:
                raise UserError(
                    f"{path} was written with {label} {_short(mine)}, but {where} says "
                    f"{_short(theirs)}: the manifest was edited or the part comes from another run; "
                    f"restore {MANIFEST}, or {fix}"
                )
    n = n_players or (m.players if m is not None else None)
    if PART_RE.match(path.name) and n:
        start, end = span(path.name)
        want = (end - start) * n
        if end <= start or rows != want:
            said = f" ({end - start:,} games of {n} players, as {where} says)" if m is not None else ""
            raise UserError(f"{path} holds {rows} rows, not {want}{said}; {fix}")
    if listed is not None and listed.rows is not None and listed.rows != rows:
        raise UserError(
            f"{path} holds {rows:,} rows but {where} lists {listed.rows:,}: it is not the part the run "
            f"wrote; {fix}"
        )
    sha = file_sha256(path)
    if listed is not None and listed.sha256 is not None and listed.sha256 != sha:
        raise UserError(
            f"{path} is not the file {MANIFEST} recorded (its checksum differs: damaged or edited); {fix}"
        )
    return Part(path.name, rows, sha)


def _short(text: str, width: int = 60) -> str:
    if not text:
        return "(none)"
    return text if len(text) <= width else text[: width - 3] + "..."


def resume_parts(out_dir: Path, n_players: int, manifest: Manifest | None) -> list[Part]:
    """The part files of ``out_dir`` that hold what they should, as manifest entries sorted by game.

    Raises ``UserError`` naming the first part that does not (and saying to delete it).
    """
    known = manifest.listed() if manifest is not None else {}
    where = out_dir / MANIFEST
    parts = [
        _check(p, known.get(p.name), manifest, where, FIX_RESUME, n_players)
        for p in sorted(out_dir.iterdir())
        if PART_RE.match(p.name)
    ]
    ranges = [span(e.file) for e in parts]
    for (_, e0), (s1, _) in zip(ranges, ranges[1:], strict=False):
        if s1 < e0:
            raise UserError(f"part files in {out_dir} overlap at game {s1}; delete the extra ones")
    return parts


def listed_files(folder: Path) -> list[Path]:
    """The part files a run's manifest lists, in game order (the run's own listing, not a glob)."""
    m = read_manifest(folder)
    if m is None or m.parts is None:
        raise UserError(f"{folder} has no {MANIFEST} listing its parts; it is not a finished run")
    return [folder / p.file for p in sorted(m.parts, key=lambda p: p.file)]


def _hidden(path: Path, root: Path) -> bool:
    return any(s.startswith(".") for s in path.relative_to(root).parts)


def manifests_under(root: Path) -> dict[Path, Manifest]:
    """Every manifest under ``root`` (its own included) by folder; hidden folders are a run's temp files."""
    out: dict[Path, Manifest] = {}
    for path in sorted(root.rglob(MANIFEST)):
        if not _hidden(path, root):
            m = read_manifest(path.parent)
            if m is not None:
                out[path.parent] = m
    return out


def _owner(file: Path, root: Path, listing: dict[Path, Manifest]) -> Path | None:
    """The nearest folder from the file's up to ``root`` whose manifest lists parts."""
    for d in [file.parent, *file.parent.parents]:
        if d in listing and listing[d].parts is not None:
            return d
        if d == root:
            break
    return None


def checked_files(
    root: Path, files: Sequence[Path], n_players: int | None = None
) -> tuple[list[Path], list[str]]:
    """The files to read, and one note per file skipped; ``UserError`` for a bad or missing part.

    ``n_players``: rows per game when the game fixes it (Tokaido Duo), else the manifest's.
    """
    listing = manifests_under(root)
    keep, notes = [], []
    for f in files:
        owner = _owner(f, root, listing)
        if owner is None:  # under no manifest that lists parts (an older dataset): readable is all we know
            read_footer(f, FIX_READ)
            keep.append(f)
            continue
        m = listing[owner]
        entry = m.listed().get(f.relative_to(owner).as_posix())
        if entry is None:
            notes.append(f"skipping {f}: not listed in {owner / MANIFEST} (a stray copy?), so not counted")
            continue
        _check(f, entry, m, owner / MANIFEST, FIX_READ, n_players)
        keep.append(f)
    for owner, m in listing.items():
        for name in m.listed():
            if not (owner / name).is_file():
                raise UserError(
                    f"{owner / name} is listed in {owner / MANIFEST} but missing; rerun the run "
                    "(or study) with --resume to play its games again"
                )
    return keep, notes
