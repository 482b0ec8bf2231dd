"""The solo Automa's data (``sim/games/duo/data/automa.toml``): read, validate, and the kernels' tables.

The seed gives the Automa's frame (003:L85-93); her movement logic is a labelled
reconstruction (``automa-reconstruction-v0``, ``verified = false``), every field
overridable with ``--set automa.KEY=VALUE`` in a ``--solo`` game. Errors are one
line naming the file and the field.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from kernels.duo import enums as E
from sim.games.duo.board import BoardError

AUTOMA_FILE = "automa.toml"
SPACES = ("temple", "garden", "seashore", "hot_spring", "town")  # the order of ``Ring`` (T, G, S, H, town)


def default_automa_path() -> Path:
    return Path(str(resources.files("sim.games.duo.data") / AUTOMA_FILE))


@dataclass(frozen=True)
class Automa:
    provenance: str
    verified: bool
    die: str  # E.AUTO_DIE_NAMES
    order: tuple[str, str, str]  # characters, tie-break order
    pilgrim_steps: tuple[int, ...]  # by SPACES
    merchant: str  # E.AUTO_MERCHANT_NAMES
    coast_steps: int
    mountain_steps: int
    artist: str  # E.AUTO_ARTIST_NAMES
    meeples: int
    ranks: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # by character

    def tables(self) -> dict[str, np.ndarray]:
        auto = np.zeros(E.A_N, np.int32)
        auto[E.A.DIE] = E.AUTO_DIE_NAMES.index(self.die)
        for k, name in enumerate(self.order):
            auto[E.A.ORDER + k] = E.CHAR_NAMES.index(name)
        auto[E.A.MERCHANT] = E.AUTO_MERCHANT_NAMES.index(self.merchant)
        auto[E.A.ARTIST] = E.AUTO_ARTIST_NAMES.index(self.artist)
        auto[E.A.MEEPLES] = self.meeples
        rvals = np.zeros((3, E.MAX_RANK), np.int16)
        for c, track in enumerate(self.ranks):
            auto[E.A.LAST + c] = len(track) - 1
            rvals[c, : len(track)] = track
        arank = np.zeros((2, 5), np.int8)
        arank[0] = self.pilgrim_steps
        arank[1, :2] = (self.coast_steps, self.mountain_steps)
        return {"auto": auto, "arank": arank, "rvals": rvals}


def _choice(raw: dict[str, Any], sec: str, key: str, names: tuple[str, ...], where: str) -> str:
    v = raw.get(sec, {}).get(key)
    if v not in names:
        raise BoardError(f"{where}: {sec}.{key} = {v!r}; use one of {', '.join(names)}")
    return str(v)


def _int(raw: dict[str, Any], sec: str, key: str, lo: int, hi: int, where: str) -> int:
    v = raw.get(sec, {}).get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise BoardError(f"{where}: {sec}.{key} = {v!r}; need a whole number {lo}..{hi}")
    return v


def validate_automa(raw: dict[str, Any], where: str = "automa") -> Automa:
    prov, ver = raw.get("provenance"), raw.get("verified")
    if not isinstance(prov, str) or not isinstance(ver, bool):
        raise BoardError(f"{where}: provenance/verified: need a provenance string and verified = true|false")
    order = raw.get("die", {}).get("order")
    if not isinstance(order, list) or sorted(order) != sorted(E.CHAR_NAMES):
        raise BoardError(f"{where}: die.order = {order!r}; list pilgrim, merchant and artist once each")
    ranks = []
    for c in E.CHAR_NAMES:
        t = raw.get("ranks", {}).get(c)
        if not (
            isinstance(t, list)
            and 2 <= len(t) <= E.MAX_RANK
            and all(isinstance(x, int) and 0 <= x <= 999 for x in t)
        ):
            raise BoardError(f"{where}: ranks.{c} = {t!r}; need 2..{E.MAX_RANK} whole numbers 0..999")
        if any(b < a for a, b in zip(t, t[1:], strict=False)):
            raise BoardError(f"{where}: ranks.{c}: values must never decrease, got {t}")
        ranks.append(tuple(t))
    return Automa(
        prov,
        ver,
        _choice(raw, "die", "choice", E.AUTO_DIE_NAMES, where),
        (order[0], order[1], order[2]),
        tuple(_int(raw, "pilgrim", s, 0, 5, where) for s in SPACES),
        _choice(raw, "merchant", "target", E.AUTO_MERCHANT_NAMES, where),
        _int(raw, "merchant", "coast", 0, 5, where),
        _int(raw, "merchant", "mountain", 0, 5, where),
        _choice(raw, "artist", "target", E.AUTO_ARTIST_NAMES, where),
        _int(raw, "artist", "meeples", 0, 6, where),
        (ranks[0], ranks[1], ranks[2]),
    )


def read_automa_raw(path: str | Path | None) -> tuple[dict[str, Any], str]:
    p = Path(path) if path is not None else default_automa_path()
    try:
        return tomllib.loads(p.read_text()), str(p)
    except OSError as exc:
        raise BoardError(f"cannot read Automa file {p} ({exc.strerror}); pass an existing --automa") from None
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"{p}: not valid TOML ({exc}); fix the syntax") from None
