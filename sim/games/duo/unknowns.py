"""What is known and what is not of the Duo numbers and map (``sim/games/duo/data/unknowns.toml``), and
sampled worlds.

    u = load_unknowns()
    worlds = sample_worlds(u, 64, seed=0)                 # a Latin hypercube over every unknown
    rules = world_rules(load_duo_rules(), worlds[3], seed=0)   # that world's board and numbers

A *world* is one plausible version of the unpublished game: a value for every
``[[unknown]]`` of the file (dice faces, value tracks, slabs, prices, town coins,
wares, paintings, wave sides, the ring's space counts) and a random map of the
board family (``board_gen``). The values come from a Latin hypercube
(``scipy.stats.qmc.LatinHypercube``) seeded by (seed, "duo-unknowns"), so each
unknown's range is covered evenly whatever the number of worlds; world ``i``'s map
comes from ``numpy.random.default_rng([seed, i])``. Every world is validated like
a hand-written file (``from_raw``), and its provenance says it is sampled.
"""

from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from sim.errors import UserError
from sim.games.duo.board_gen import TYPE_COUNTS, generate_board
from sim.games.duo.rules import DATA, DuoRules, from_raw

UNKNOWNS_FILE = "unknowns.toml"
MEASURES = ("value", "mean", "last", "index")
RING_FREE = sum(TYPE_COUNTS.values())  # ring spaces besides the 8 coastal towns (37 - 8)
BOARD_KEYS = ("board.seashores", "board.hot_springs", "board.gardens")
VARY = ("both", "numbers", "maps")


def default_unknowns_path() -> Path:
    return Path(str(resources.files(DATA) / UNKNOWNS_FILE))


@dataclass(frozen=True)
class Known:
    key: str
    value: Any
    source: str


@dataclass(frozen=True)
class Unknown:
    key: str
    shipped: Any
    options: tuple[Any, ...]  # every candidate value, in order (a range: lo..hi)
    measure: str
    covers: tuple[str, ...]  # the rules.toml fields it sets (patterns; ``boutique.*.coins``)
    why: str
    is_range: bool

    @property
    def on_board(self) -> bool:
        return self.key.startswith("board.")

    def value_at(self, u: float) -> Any:
        """The option a uniform number ``u`` in [0, 1) selects (equal strata: a Latin hypercube covers
        each)."""
        return self.options[min(int(u * len(self.options)), len(self.options) - 1)]

    def scalar(self, value: Any) -> float:
        """One number for the dependence tables (the file's ``measure``)."""
        if self.measure == "index":
            return float(self.options.index(value))
        if self.measure == "mean":
            return float(np.mean(value))
        if self.measure == "last":
            return float(value[-1])
        return float(value)

    def describe(self) -> str:
        if self.is_range:
            return f"{self.options[0]}..{self.options[-1]}"
        return "; ".join(text_of(o) for o in self.options)


def text_of(v: Any) -> str:
    """A value as compact text: ``[1,2,2,3]``."""
    if isinstance(v, list | tuple):
        return "[" + ",".join(text_of(x) for x in v) + "]"
    return str(v)


@dataclass(frozen=True)
class Unknowns:
    path: str
    provenance: str
    known: tuple[Known, ...]
    unknown: tuple[Unknown, ...]
    maps: tuple[tuple[str, str], ...]  # (what, how the board family varies it)
    raw: dict[str, Any]

    def fingerprint(self) -> str:
        return hashlib.sha256(json.dumps(self.raw, sort_keys=True).encode()).hexdigest()[:16]

    def varied(self, vary: str) -> tuple[Unknown, ...]:
        """The unknowns a study with ``--vary`` samples (``maps``: the board's only; ``numbers``: the
        rest)."""
        if vary == "maps":
            return tuple(u for u in self.unknown if u.on_board)
        if vary == "numbers":
            return tuple(u for u in self.unknown if not u.on_board)
        return self.unknown

    def by_key(self, key: str) -> Unknown:
        return next(u for u in self.unknown if u.key == key)


def load_unknowns(path: str | Path | None = None) -> Unknowns:
    """Read and check the unknowns file; a one-line ``UserError`` naming the entry on any fault."""
    p = Path(path) if path is not None else default_unknowns_path()
    try:
        raw = tomllib.loads(p.read_text())
    except OSError as exc:
        raise UserError(f"cannot read unknowns file {p} ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{p}: not valid TOML ({exc}); fix the syntax") from None
    known = tuple(Known(k["key"], k["value"], k.get("source", "")) for k in raw.get("known", []))
    out = []
    for i, e in enumerate(raw.get("unknown", [])):
        where = f"{p}: unknown[{i}] ({e.get('key', '?')})"
        if not isinstance(e.get("key"), str) or "shipped" not in e:
            raise UserError(f"{where}: needs a key and the shipped value")
        if ("options" in e) == ("range" in e):
            raise UserError(f"{where}: give either options = [...] or range = [lo, hi]")
        if "range" in e:
            lo, hi = e["range"]
            if not (isinstance(lo, int) and isinstance(hi, int) and lo <= hi):
                raise UserError(f"{where}: range must be two whole numbers lo <= hi, got {e['range']}")
            options: tuple[Any, ...] = tuple(range(lo, hi + 1))
        else:
            options = tuple(e["options"])
        if len(options) < 2:
            raise UserError(f"{where}: a plausible range needs at least 2 values")
        if e["shipped"] not in options:
            raise UserError(f"{where}: the shipped value {e['shipped']!r} is outside its range")
        if e.get("measure") not in MEASURES:
            raise UserError(f"{where}: measure must be one of {', '.join(MEASURES)}")
        out.append(
            Unknown(
                e["key"],
                e["shipped"],
                options,
                e["measure"],
                tuple(e.get("covers", [e["key"]])),
                e.get("why", ""),
                "range" in e,
            )
        )
    keys = [u.key for u in out]
    if len(set(keys)) != len(keys):
        raise UserError(f"{p}: an unknown is listed twice")
    maps = tuple((m["what"], m["varied"]) for m in raw.get("map", []))
    return Unknowns(str(p), str(raw.get("provenance", "unknowns")), known, tuple(out), maps, raw)


def sampled_key(u: Unknowns, key: str, vary: str) -> str | None:
    """The unknown a study with ``vary`` samples that an override of ``key`` would touch (None: none)."""
    import fnmatch

    if key.startswith("board.") and vary != "numbers":
        return "the map"
    for d in u.varied(vary):
        for pat in d.covers:
            if key == pat or key.startswith(pat + ".") or fnmatch.fnmatch(key, pat):
                return d.key
    return None


def sample_worlds(u: Unknowns, n: int, seed: int, vary: str = "both") -> list[dict[str, Any]]:
    """``n`` worlds: for each, the sampled value of every unknown ``vary`` covers (a Latin hypercube)."""
    from scipy.stats import qmc

    dims = u.varied(vary)
    grid = qmc.LatinHypercube(len(dims), seed=np.random.default_rng([seed, 0x6475_6F])).random(n)
    return [{d.key: d.value_at(float(grid[i, k])) for k, d in enumerate(dims)} for i in range(n)]


def ring_counts(values: dict[str, Any]) -> dict[str, int] | None:
    """The ring's space counts of a world (None: the shipped counts), temples filling the rest."""
    if not any(k in values for k in BOARD_KEYS):
        return None
    s = int(values.get("board.seashores", TYPE_COUNTS["S"]))
    h = int(values.get("board.hot_springs", TYPE_COUNTS["H"]))
    g = int(values.get("board.gardens", TYPE_COUNTS["G"]))
    return {"T": RING_FREE - s - h - g, "G": g, "S": s, "H": h}


def apply_numbers(rules_raw: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """A copy of a rules.toml table with the sampled number unknowns set (board keys are the map's)."""
    raw = copy.deepcopy(rules_raw)
    types = list(raw["merchant"]["bag"])
    if "merchant.ware_types" in values:
        types = [chr(ord("A") + k) for k in range(int(values["merchant.ware_types"]))]
        each = next(iter(raw["merchant"]["bag"].values()))
        raw["merchant"]["bag"] = dict.fromkeys(types, each)
        for k, b in enumerate(raw["boutique"]):
            b["ware"] = types[k * len(types) // len(raw["boutique"])]
    for key, v in values.items():
        if key.startswith("board.") or key == "merchant.ware_types":
            continue
        if key == "merchant.bag":
            raw["merchant"]["bag"] = dict.fromkeys(types, int(v))
        elif key == "boutique.coins":
            for k, b in enumerate(raw["boutique"]):
                b["coins"] = int(v[k % 2])
        elif key == "artist.paintings":
            raw["artist"]["paintings"] = {str(i + 1): int(c) for i, c in enumerate(v)}
        else:
            sec, field = key.split(".", 1)
            raw[sec][field] = copy.deepcopy(v)
    return raw


def world_rules(
    base: DuoRules, values: dict[str, Any], seed: int, index: int, vary: str = "both"
) -> DuoRules:
    """World ``index``'s rules: ``base``'s choices, the sampled numbers, and (unless ``vary="numbers"``) a
    random map of the board family with the world's ring counts."""
    rraw = apply_numbers(base.rules_raw, values)
    rraw["provenance"], rraw["verified"] = f"sampled-{seed}-{index}", False
    if vary == "numbers":
        braw, bwhere = base.board_raw, base.board.path
    else:
        braw = generate_board(
            np.random.default_rng([seed, index]), f"generated-{seed}-{index}", ring_counts(values)
        )
        bwhere = f"world {index} board"
    return from_raw(braw, rraw, bwhere, f"world {index} numbers", base.overrides)
