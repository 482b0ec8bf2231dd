"""Load and validate the Duo data (board.toml + rules.toml) and build the kernels' integer tables.

    rules = load_duo_rules()                         # the shipped reconstruction
    rules = load_duo_rules("my_board.toml", sets=["choices.merchant_path=trail"])
    rules.record(bots=("greedy", "search"), log=True)  # one RULES_DTYPE record

Overrides are dotted keys into rules.toml (``merchant.cap=6``, ``boutique.3.coins=4``) or,
with a ``board.`` prefix, into the board file. Every error is one line naming the
file and field. ``provenance()`` is the label every Duo result carries: it starts
with "reconstruction" unless the board and the numbers are files marked
``verified = true`` played without any override, and it names every override.
The ``verified`` and ``provenance`` fields are properties of a data file and can
never be overridden (an invented board cannot be marked as the published one).
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

from kernels.duo import enums as E
from kernels.duo.state import RULES_DTYPE, W_N
from sim.files import read_toml
from sim.games.duo.automa import Automa, read_automa_raw, validate_automa
from sim.games.duo.board import COAST, TOWNS, Board, BoardError, read_board, validate_board
from sim.overrides import format_value, parse_value

DATA = "sim.games.duo.data"
BOT_FILE = "bots.toml"


def default_board_path() -> Path:
    return Path(str(resources.files(DATA) / "board.toml"))


def default_rules_path() -> Path:
    return Path(str(resources.files(DATA) / "rules.toml"))


def _err(where: str, field: str, what: str) -> BoardError:
    return BoardError(f"{where}: {field}: {what}")


def _values(raw: dict[str, Any], sec: str, key: str, n: int, where: str, lo: int = 0) -> list[int]:
    v = raw.get(sec, {}).get(key)
    if not isinstance(v, list) or len(v) != n or not all(isinstance(x, int) and x >= lo for x in v):
        raise _err(where, f"{sec}.{key}", f"need {n} whole numbers >= {lo}, got {v!r}")
    if any(b < a for a, b in zip(v, v[1:], strict=False)):
        raise _err(where, f"{sec}.{key}", f"values must never decrease, got {v}")
    return v


@dataclass(frozen=True)
class Numbers:
    dice: tuple[tuple[int, ...], ...]  # by character
    temple: tuple[int, ...]
    garden: tuple[int, ...]
    slabs: tuple[int, ...]
    slab_coins: int
    cap: int
    town_coins: int
    bag: dict[str, int]  # ware type -> count, file order = type index
    boutiques: tuple[tuple[str, int], ...]
    artist_values: tuple[int, ...]
    paintings: tuple[int, ...]  # count of icon 1..4
    waves: tuple[tuple[str, str], ...]  # sides by character
    porter_cap: int
    haggler_coins: int
    proficient_reveals: int
    merchant_path: str
    actions_optional: bool
    seashore_optional: bool
    hot_spring_optional: bool
    hot_spring_retake: bool
    first_player: int  # -1 random
    max_rounds: int
    provenance: str
    verified: bool


def validate_numbers(raw: dict[str, Any], where: str = "rules") -> Numbers:
    dice = []
    for ch in E.CHAR_NAMES:
        d = raw.get("dice", {}).get(ch)
        if (
            not isinstance(d, list)
            or len(d) != E.N_DIE_FACES
            or not all(isinstance(x, int) and 1 <= x <= 6 for x in d)
        ):
            raise _err(where, f"dice.{ch}", f"need {E.N_DIE_FACES} faces of 1..6, got {d!r}")
        dice.append(tuple(d))
    m = raw.get("merchant", {})
    bag = m.get("bag")
    if (
        not isinstance(bag, dict)
        or not 1 <= len(bag) <= E.MAX_WARE
        or not all(isinstance(v, int) and 0 <= v <= 60 for v in bag.values())
    ):
        raise _err(where, "merchant.bag", f"need 1..{E.MAX_WARE} ware types with counts 0..60, got {bag!r}")
    btq = raw.get("boutique", [])
    if len(btq) != E.N_COAST:
        raise _err(
            where, "boutique", f"need {E.N_COAST} boutique tokens (one per coastal town), got {len(btq)}"
        )
    for k, b in enumerate(btq):
        if b.get("ware") not in bag or not isinstance(b.get("coins"), int) or not 0 <= b["coins"] <= 20:
            raise _err(
                where, f"boutique[{k}]", f"ware must be one of {', '.join(bag)} and coins 0..20, got {b}"
            )
    ints = {}
    for sec, key, lo, hi in (
        ("merchant", "slab_coins", 1, 100),
        ("merchant", "cap", 1, 20),
        ("merchant", "town_coins", 0, 20),
        ("waves", "porter_cap", 0, 10),
        ("waves", "haggler_coins", 0, 10),
        ("waves", "proficient_reveals", 0, 5),
        ("choices", "max_rounds", 1, 1000),
    ):
        v = raw.get(sec, {}).get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise _err(where, f"{sec}.{key}", f"need a whole number {lo}..{hi}, got {v!r}")
        ints[key] = v
    art = raw.get("artist", {})
    pnt = art.get("paintings")
    if not isinstance(pnt, dict) or sorted(pnt) != ["1", "2", "3", "4"] or sum(pnt.values()) != 2 * E.N_SLOTS:
        raise _err(
            where, "artist.paintings", f"need counts for icons 1..4 summing to {2 * E.N_SLOTS}, got {pnt!r}"
        )
    waves = []
    for c, name in enumerate(E.CHAR_NAMES):
        w = raw.get("waves", {}).get(name)
        ok = [s for s, ch in zip(E.SIDE_NAMES, E.SIDE_CHAR, strict=True) if ch == c]
        if not isinstance(w, list) or len(w) != 2 or any(s not in ok for s in w):
            raise _err(where, f"waves.{name}", f"need two sides from {', '.join(ok)}, got {w!r}")
        waves.append((w[0], w[1]))
    choice = raw.get("choices", {})
    if choice.get("jump") != "chain":
        raise _err(where, "choices.jump", "only 'chain' (D1) is implemented")
    if choice.get("merchant_path") not in E.PATH_NAMES:
        raise _err(where, "choices.merchant_path", f"use one of {', '.join(E.PATH_NAMES)} (D2)")
    for key in ("actions_optional", "seashore_optional", "hot_spring_optional", "hot_spring_retake"):
        if not isinstance(choice.get(key), bool):
            raise _err(where, f"choices.{key}", f"need true or false, got {choice.get(key)!r}")
    for key in ("seashore_optional", "hot_spring_optional"):
        if choice[key] and not choice["actions_optional"]:
            raise _err(
                where,
                f"choices.{key}",
                "true changes nothing while choices.actions_optional = false "
                "makes every arrival action mandatory; set one of them only",
            )
    first = choice.get("first_player")
    if first not in ("random", 0, 1):
        raise _err(where, "choices.first_player", f"use random, 0 or 1 (D10), got {first!r}")
    prov, ver = raw.get("provenance"), raw.get("verified")
    if not isinstance(prov, str) or not isinstance(ver, bool):
        raise _err(where, "provenance/verified", "need a provenance string and verified = true|false")
    return Numbers(
        tuple(dice),
        tuple(_values(raw, "tracks", "temple", E.TEMPLE_FULL + 1, where)),
        tuple(_values(raw, "tracks", "garden", E.GARDEN_FULL + 1, where)),
        tuple(_values(raw, "merchant", "slabs", E.N_SLABS, where)),
        ints["slab_coins"],
        ints["cap"],
        ints["town_coins"],
        dict(bag),
        tuple((b["ware"], b["coins"]) for b in btq),
        tuple(_values(raw, "artist", "values", E.N_SLOTS, where)),
        tuple(pnt[str(i)] for i in range(1, 5)),
        tuple(waves),
        ints["porter_cap"],
        ints["haggler_coins"],
        ints["proficient_reveals"],
        choice["merchant_path"],
        choice["actions_optional"],
        choice["seashore_optional"],
        choice["hot_spring_optional"],
        choice["hot_spring_retake"],
        -1 if first == "random" else int(first),
        ints["max_rounds"],
        prov,
        ver,
    )


# Fields of a data file that say what the file is; ``--set`` may never change them.
PROTECTED = ("verified", "provenance")


@dataclass(frozen=True)
class DuoRules:
    board: Board
    numbers: Numbers
    board_raw: dict[str, Any]
    rules_raw: dict[str, Any]
    overrides: tuple[tuple[str, Any], ...] = ()  # every --set, by name and value, in command-line order
    automa: Automa | None = None  # solo: the Automa in seat 1 (sim/games/duo/data/automa.toml)
    automa_raw: dict[str, Any] | None = None

    @property
    def solo(self) -> bool:
        return self.automa is not None

    @property
    def verified(self) -> bool:
        """True only for the published game: every file verified and nothing overridden."""
        files = (
            self.board.verified and self.numbers.verified and (self.automa is None or self.automa.verified)
        )
        return files and not self.overrides

    @property
    def status(self) -> str:
        return "published" if self.verified else "reconstruction"

    def override_text(self) -> str:
        return ", ".join(f"{k}={format_value(v)}" for k, v in self.overrides) or "none"

    def provenance(self) -> str:
        """The label of every Duo result: reconstruction or published, which files, every override."""
        b, n = self.board, self.numbers
        text = (
            f"{self.status}: board {b.provenance} (verified={str(b.verified).lower()}), "
            f"numbers {n.provenance} (verified={str(n.verified).lower()})"
        )
        if self.automa is not None:
            text += f", solo Automa {self.automa.provenance} (verified={str(self.automa.verified).lower()})"
        return text + (f", overrides {self.override_text()}" if self.overrides else "")

    def manifest(self) -> dict[str, Any]:
        out = {
            "status": self.status,
            "board_provenance": self.board.provenance,
            "board_verified": self.board.verified,
            "rules_provenance": self.numbers.provenance,
            "rules_verified": self.numbers.verified,
            "overrides": [[k, v] for k, v in self.overrides],
            "verified": self.verified,
            "provenance": self.provenance(),
            "fingerprint": self.fingerprint(),
            "solo": self.solo,
        }
        if self.automa is not None:
            out.update(automa_provenance=self.automa.provenance, automa_verified=self.automa.verified)
        return out

    def fingerprint(self) -> str:
        parts = [self.board_raw, self.rules_raw] + ([self.automa_raw] if self.solo else [])
        text = json.dumps(parts, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def tables(self) -> dict[str, np.ndarray]:
        """The integer tables of the kernels' RULES record (``kernels.duo.state``)."""
        return build_tables(self)

    def record(
        self,
        bots: tuple[str, str] = ("greedy", "greedy"),
        log: bool = False,
        weights: np.ndarray | None = None,
    ) -> np.ndarray:
        ru = np.zeros(1, RULES_DTYPE)
        for key, arr in self.tables().items():
            ru[0][key] = arr
        ru[0]["cfg"][E.Cfg.LOG] = int(log)
        if self.solo != (tuple(bots).count("automa") == 1 and bots[1] == "automa"):
            raise BoardError(
                f"bots {bots[0]},{bots[1]}: the Automa plays seat 1 of a solo game and only there "
                "(tokaido-sim duo run --solo --bots BOT)"
            )
        for p, name in enumerate(bots):
            if name not in E.BOT_NAMES:
                raise BoardError(f"unknown Duo bot '{name}'; use one of {', '.join(E.BOT_NAMES)}")
            ru[0]["cfg"][E.Cfg.BOT0 + p] = E.BOT_NAMES.index(name)
            ru[0]["botw"][p] = bot_weights(name) if weights is None else weights[p]
        return ru


def bot_weights(name: str) -> np.ndarray:
    """The weights of bot ``name`` from sim/games/duo/data/bots.toml, in ``kernels.duo.bots.W`` order."""
    from kernels.duo.bots import W

    table = tomllib.loads((resources.files(DATA) / BOT_FILE).read_text()).get(name, {})
    w = np.zeros(W_N, np.float64)
    for key, value in table.items():
        w[getattr(W, key.upper())] = float(value)
    return w


def build_tables(r: DuoRules) -> dict[str, np.ndarray]:
    b, n = r.board, r.numbers
    ring = np.full((2, E.N_RING), -1, np.int8)
    for i, s in enumerate(b.ring):
        ring[0, i] = E.RING_CODES.index(s[0])
        if s in COAST:
            ring[1, i] = COAST.index(s)
    town = np.full((3, E.N_TOWNS), -1, np.int8)
    for t, name in enumerate(TOWNS):
        town[0, t] = int(name.startswith("M"))
        town[1, t] = b.ring.index(name) if name in COAST else -1
        town[2, t] = b.mountain_value.get(name, 0)
    tadj = np.full((E.N_TOWNS, E.N_TOWNS), -1, np.int8)
    for k, (a, c) in enumerate(b.routes):
        tadj[TOWNS.index(a), TOWNS.index(c)] = tadj[TOWNS.index(c), TOWNS.index(a)] = k
    zicon = np.zeros(E.MAX_ZONES, np.int8)
    zring = np.zeros((E.MAX_ZONES, E.N_RING), np.int8)
    ztown = np.zeros((E.MAX_ZONES, E.N_TOWNS), np.int8)
    zadj = np.zeros((E.MAX_ZONES, E.MAX_ZONES), np.int8)
    ids = [z.id for z in b.zones]
    for k, z in enumerate(b.zones):
        zicon[k] = z.icon - 1
        zring[k, list(z.ring)] = 1
        ztown[k, [TOWNS.index(t) for t in z.towns]] = 1
    for z1, z2 in b.adjacency:
        zadj[ids.index(z1), ids.index(z2)] = zadj[ids.index(z2), ids.index(z1)] = 1
    wares = list(n.bag)
    params = np.zeros(E.P_N, np.int32)
    P = E.P
    for idx, v in (
        (P.SLAB_COINS, n.slab_coins),
        (P.CAP, n.cap),
        (P.TOWN_COINS, n.town_coins),
        (P.PORTER_CAP, n.porter_cap),
        (P.HAGGLER, n.haggler_coins),
        (P.PROFICIENT, n.proficient_reveals),
        (P.PATH, E.PATH_NAMES.index(n.merchant_path)),
        (P.OPTIONAL, int(n.actions_optional)),
        (P.SEASHORE_OPT, int(n.seashore_optional)),
        (P.SPRING_OPT, int(n.hot_spring_optional)),
        (P.RETAKE, int(n.hot_spring_retake)),
        (P.FIRST, n.first_player),
        (P.MAX_ROUNDS, n.max_rounds),
        (P.N_WARE, len(wares)),
        (P.N_ZONES, len(b.zones)),
        (P.N_ROUTES, len(b.routes)),
    ):
        params[idx] = v
    bag = np.zeros(E.MAX_WARE, np.int8)
    bag[: len(wares)] = [n.bag[w] for w in wares]
    return {
        "ring": ring,
        "town": town,
        "tadj": tadj,
        "zicon": zicon,
        "zring": zring,
        "ztown": ztown,
        "zadj": zadj,
        "dice": np.array(n.dice, np.int8),
        "tvals": np.array(n.temple, np.int16),
        "gvals": np.array(n.garden, np.int16),
        "slabs": np.array(n.slabs, np.int16),
        "avals": np.array(n.artist_values, np.int16),
        "btq": np.array([(wares.index(w), c) for w, c in n.boutiques], np.int8),
        "bag": bag,
        "pool": np.array(n.paintings, np.int8),
        "waves": np.array([[E.SIDE_NAMES.index(s) for s in sides] for sides in n.waves], np.int8),
        "start": np.array(
            [
                list(b.start_pilgrim),
                [TOWNS.index(m) for m in b.start_merchant],
                [ids.index(a) for a in b.start_artist],
            ],
            np.int8,
        ),
        "params": params,
        **(r.automa.tables() if r.automa is not None else {}),
    }


def _step(node: Any, part: str) -> Any:
    """``node[part]``: a table's field or a list's item (``boutique.3``); None if there is none."""
    if isinstance(node, dict):
        return node.get(part)
    if isinstance(node, list) and part.isdigit() and int(part) < len(node):
        return node[int(part)]
    return None


def _override(
    raw: dict[str, Any], key: str, value: Any, where: str, option: str = "--rules", shown: str = ""
) -> None:
    parts = key.split(".")
    shown = shown or key
    if len(parts) == 1 and parts[0] in PROTECTED:
        raise BoardError(
            f"--set {shown}: '{parts[0]}' is a property of the data file, not a rule, so --set cannot "
            f"change it; enter the published data in a file of your own and pass it with {option}"
        )
    node: Any = raw
    for p in parts[:-1]:
        nxt = _step(node, p)
        if not isinstance(nxt, dict | list):
            raise BoardError(f"--set {shown}: '{p}' is not a section of {where}")
        node = nxt
    if _step(node, parts[-1]) is None:
        raise BoardError(f"--set {shown}: {where} has no field '{parts[-1]}'")
    if isinstance(node, list):
        node[int(parts[-1])] = value
    else:
        node[parts[-1]] = value


def load_duo_rules(
    board: str | Path | None = None,
    rules: str | Path | None = None,
    sets: list[str] | None = None,
    solo: bool = False,
    automa: str | Path | None = None,
) -> DuoRules:
    """Read, override (``KEY=VALUE`` items) and validate the board and number files (and the Automa's,
    solo)."""
    if automa is not None and not solo:
        raise BoardError("--automa is the solo opponent's file; add --solo or drop it")
    araw, awhere = read_automa_raw(automa) if solo else (None, "automa")
    bpath = Path(board) if board is not None else default_board_path()
    rpath = Path(rules) if rules is not None else default_rules_path()
    braw = read_board(bpath).raw
    rraw = read_toml(
        rpath, "a Duo number table (TOML, like sim/games/duo/data/rules.toml)"
    )  # one line if unreadable
    braw, rraw, araw = copy.deepcopy(braw), copy.deepcopy(rraw), copy.deepcopy(araw)
    overrides: list[tuple[str, Any]] = []
    for item in sets or []:
        if "=" not in item:
            raise BoardError(f"--set {item!r}: write KEY=VALUE, e.g. --set choices.merchant_path=trail")
        key, text = (x.strip() for x in item.split("=", 1))
        value = parse_value(text)
        if key.startswith("board."):
            _override(braw, key[6:], value, str(bpath), "--board", key)
        elif key.startswith("automa."):
            if araw is None:
                raise BoardError(f"--set {key}: only a solo game has an Automa; add --solo or drop it")
            _override(araw, key[7:], value, awhere, "--automa", key)
        else:
            _override(rraw, key, value, str(rpath))
        overrides = [o for o in overrides if o[0] != key] + [(key, value)]
    return from_raw(braw, rraw, str(bpath), str(rpath), tuple(overrides), araw, awhere)


def from_raw(
    braw: dict[str, Any],
    rraw: dict[str, Any],
    bwhere: str = "board",
    rwhere: str = "rules",
    overrides: tuple[tuple[str, Any], ...] = (),
    automa_raw: dict[str, Any] | None = None,
    awhere: str = "automa",
) -> DuoRules:
    """Validated rules from parsed files; with ``automa_raw`` a solo game (the Automa in seat 1)."""
    automa = validate_automa(automa_raw, awhere) if automa_raw is not None else None
    return DuoRules(
        validate_board(braw, bwhere),
        validate_numbers(rraw, rwhere),
        braw,
        rraw,
        overrides,
        automa,
        automa_raw,
    )
