"""``manifest.json``: the typed record of a run, a study or a balance search, read and written here only.

A run's manifest (``kind`` "run" for Tokaido, "duo-run" for Tokaido Duo) records the game, its
configuration (``config``, the game's own record of its options, and ``spec``, Tokaido's
configuration string), the seed, the games intended, the status, the rules version and
fingerprint, the package versions, and every part with its row count and SHA-256. A study's
(``kind`` "study") records its grid (``study``, ``study_toml``, ``file``) and its ``cells``. Fields
of other kinds (a Duo run's ``duo_board``, a balance search's request and result) are kept in
``extra`` as they were read.

``Manifest.from_json`` reads every manifest written so far (older runs list their parts by name
only and may lack ``kind``, ``n_players`` or ``game``) and refuses, in one line naming the file and
the field, a value of the wrong type; ``to_json`` writes the same keys back.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from sim.errors import UserError
from sim.files import FileError, read_json

MANIFEST = "manifest.json"
MAX_SEED = 2**63 - 1  # the kernels take the seed as a signed 64-bit integer
MAX_GAME = 2**63 - 2  # the largest game index (int64, and start + count must fit too)
MAX_GAMES = 10**12 - 1  # part files name their games [start, end) with 12 digits
WHAT = "a tokaido-sim manifest (a JSON object)"
FIX = "restore it, or rerun into another folder"


class ManifestError(FileError):
    """A manifest that cannot be read, or holds a field of the wrong type."""


@dataclass(frozen=True)
class Part:
    """One part file as its manifest lists it (``rows`` and ``sha256`` are absent in older manifests)."""

    file: str
    rows: int | None = None
    sha256: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file}
        if self.rows is not None:
            out["rows"] = self.rows
        if self.sha256 is not None:
            out["sha256"] = self.sha256
        return out


@dataclass
class StudyCell:
    """One cell of a study: its folder under the study, its configuration string, games and status."""

    path: str
    spec: str | None = None
    games: int | None = None
    status: str = "pending"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": self.path,
            "spec": self.spec,
            "games": self.games,
            "status": self.status,
        }
        return {k: v for k, v in out.items() if v is not None}


@dataclass
class Manifest:
    kind: str | None = None  # run | duo-run | study | balance (None: a manifest older than kinds, a run)
    config: dict[str, Any] | None = (
        None  # the game's own record of its options (GameConfig.to_dict for Tokaido)
    )
    spec: str | None = None  # Tokaido's configuration string
    seed: int | None = None
    n_players: int | None = None
    started: str | None = None
    versions: dict[str, Any] | None = None
    resumed: list[Any] | None = None
    finished: str | None = None
    game: str | None = None  # tokaido | duo
    games: int | None = None  # games intended
    chunk_size: int | None = None
    rules_version: str | None = None
    rules_fingerprint: str | None = None
    status: str | None = None  # running | complete | interrupted
    parts: list[Part] | None = None  # None: the manifest lists no parts (a study, an older dataset)
    # a study's
    file: str | None = None
    study_toml: str | None = None
    study: dict[str, Any] | None = None
    cells: list[StudyCell] | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # fields of other kinds, as read

    # ------------------------------------------------------------- derived
    @property
    def players(self) -> int | None:
        """Players per game (rows per game in the parts): ``n_players``, else the configuration's."""
        if self.n_players is not None:
            return self.n_players
        n = (self.config or {}).get("n_players")
        return n if isinstance(n, int) and not isinstance(n, bool) else None

    @property
    def expansions(self) -> tuple[str, ...]:
        """The run's expansions, from its configuration (() for a study, Duo or an older run)."""
        xs = (self.config or {}).get("expansions")
        return tuple(str(x) for x in xs) if isinstance(xs, list) else ()

    @property
    def overrides(self) -> list[Any]:
        ov = (self.config or {}).get("overrides")
        return ov if isinstance(ov, list) else []

    @property
    def rules_profile(self) -> str:
        return str((self.config or {}).get("rules_profile") or "rulebook")

    def listed(self) -> dict[str, Part]:
        """The listed parts by file name (empty when the manifest lists none)."""
        return {p.file: p for p in self.parts or []}

    def set_fields(self, values: dict[str, Any]) -> None:
        """Set fields from ``values`` (a ``Game``'s manifest fields): known ones typed, others into
        ``extra``."""
        known = _known()
        for key, value in values.items():
            if key in known:
                setattr(self, key, _typed(key, value, known[key], "manifest fields"))
            else:
                self.extra[key] = value

    # ---------------------------------------------------------------- JSON
    @classmethod
    def from_json(cls, data: Any, where: str | Path = MANIFEST) -> Manifest:
        """A manifest from its parsed JSON; ``ManifestError`` naming ``where`` and the bad field."""
        if not isinstance(data, dict):
            raise ManifestError(f"{where} is not {WHAT}; {FIX}")
        known, m = _known(), cls()
        for key, value in data.items():
            if key in known:
                setattr(m, key, _typed(key, value, known[key], str(where)))
            else:
                m.extra[key] = value
        return m

    def to_json(self) -> dict[str, Any]:
        """The manifest as JSON (fields that are unset are left out)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "extra":
                continue
            value = getattr(self, f.name)
            if value is None:
                continue
            if f.name == "parts":
                value = [p.to_json() for p in value]
            elif f.name == "cells":
                value = [c.to_json() for c in value]
            out[f.name] = value
        out.update(self.extra)
        return out


def _known() -> dict[str, str]:
    return {f.name: str(f.type) for f in fields(Manifest) if f.name != "extra"}


def _typed(key: str, value: Any, hint: str, where: str) -> Any:
    """``value`` checked against the field's type (``hint``); ``ManifestError`` if it does not fit."""
    if value is None:
        return None
    if key == "parts":
        return [_part(p, where) for p in _of(value, list, key, where)]
    if key == "cells":
        return [_cell(c, where) for c in _of(value, list, key, where)]
    for name, typ in (("int", int), ("str", str), ("dict", dict), ("list", list)):
        if hint.startswith(name):
            return _of(value, typ, key, where)
    raise AssertionError(hint)  # pragma: no cover - every field has one of the types above


def _of(value: Any, typ: type, key: str, where: str) -> Any:
    if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
        want = {int: "a whole number", str: "text", dict: "an object", list: "a list"}[typ]
        raise ManifestError(f"{where}: '{key}' must be {want}, not {json.dumps(value)[:40]}; {FIX}")
    return value


def _part(p: Any, where: str) -> Part:
    if isinstance(p, str):
        return Part(p)  # an older manifest: the names only
    if not isinstance(p, dict) or not isinstance(p.get("file"), str):
        raise ManifestError(
            f'{where}: every entry of \'parts\' must be {{"file": NAME, "rows": N, '
            f'"sha256": HEX}}, not {json.dumps(p)[:60]}; {FIX}'
        )
    rows, sha = p.get("rows"), p.get("sha256")
    if rows is not None and (not isinstance(rows, int) or isinstance(rows, bool) or rows < 0):
        raise ManifestError(
            f"{where}: part {p['file']} has rows {json.dumps(rows)[:20]}, not a whole number; {FIX}"
        )
    if sha is not None and not isinstance(sha, str):
        raise ManifestError(f"{where}: part {p['file']} has a sha256 that is not text; {FIX}")
    return Part(p["file"], rows, sha)


def _cell(c: Any, where: str) -> StudyCell:
    if (
        not isinstance(c, dict)
        or not isinstance(c.get("path"), str)
        or not isinstance(c.get("spec"), str | None)
        or not isinstance(c.get("games"), int | None)
    ):
        raise ManifestError(
            f'{where}: every entry of \'cells\' must be {{"path", "spec", "games", '
            f'"status"}}, not {json.dumps(c)[:60]}; {FIX}'
        )
    return StudyCell(c["path"], c.get("spec"), c.get("games"), str(c.get("status", "pending")))


# --------------------------------------------------------------- on disk
def read_manifest(folder: str | Path) -> Manifest | None:
    """The manifest of ``folder`` (None if it has none); ``UserError`` naming the file if it is unreadable."""
    path = Path(folder) / MANIFEST
    if not path.exists():
        return None
    return Manifest.from_json(read_json(path, WHAT, FIX), path)


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


def write_manifest(folder: Path, manifest: Manifest) -> None:
    """Write ``folder/manifest.json`` atomically."""
    write_json_atomic(folder / MANIFEST, manifest.to_json())


def check_seed(seed: int, option: str = "--seed") -> None:
    """``UserError`` unless ``seed`` is one the kernels take (0 to ``MAX_SEED``)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise UserError(f"{option} must be between 0 and {MAX_SEED}, got {seed}")
