"""The Duo board file (``sim/games/duo/data/board.toml``): read, validate, derive zone borders and adjacency.

The published map is not public (research expansions.md C.4), so the board is
data and every load checks it: 37 ring spaces with C1..C8 once each, mountain
towns M1..M4 valued 2-4, routes between known towns forming a connected graph
that reaches every coastal town, and zones that are the faces of a planar map:
each zone's border (ring arcs plus routes) closes into one cycle, every route
borders exactly two zones, every ring arc exactly one, and Euler's formula
holds (zones = routes - 3 with 12 towns and 8 arcs). Zone adjacency is derived
from shared routes. Any failure is one line naming the file and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.errors import UserError
from sim.files import read_toml

COAST = tuple(f"C{i}" for i in range(1, 9))
MOUNT = tuple(f"M{i}" for i in range(1, 5))
TOWNS = COAST + MOUNT
SPACES = ("T", "G", "S", "H")
RING_LEN = 37
MOUNTAIN_VALUES = (2, 3, 4)
MAX_ROUTES = 16


class BoardError(UserError):
    """A board file that breaks the rules of the map; the message names the file and field."""


@dataclass(frozen=True)
class Zone:
    id: str
    icon: int  # 1..4
    arcs: tuple[str, ...]  # "Ci-Cj"
    routes: tuple[tuple[str, str], ...]  # sorted town pairs
    ring: tuple[int, ...]  # ring spaces on the border (arc spaces and its coastal towns), sorted
    towns: tuple[str, ...]  # towns on the border, in TOWNS order


@dataclass(frozen=True)
class Board:
    path: str
    provenance: str
    verified: bool
    ring: tuple[str, ...]  # 37 codes, clockwise
    mountain_value: dict[str, int]
    routes: tuple[tuple[str, str], ...]  # sorted pairs, file order
    zones: tuple[Zone, ...]
    adjacency: tuple[tuple[str, str], ...]  # zone id pairs sharing a route (derived)
    start_pilgrim: tuple[int, int]
    start_merchant: tuple[str, str]
    start_artist: tuple[str, str]
    raw: dict[str, Any]

    def town_ring(self, town: str) -> int:
        return self.ring.index(town)

    def arcs(self) -> dict[str, tuple[int, ...]]:
        """Each ring arc "Ci-Cj" (Cj the next town clockwise) -> the ring spaces strictly between."""
        return ring_arcs(self.ring)


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if TOWNS.index(a) <= TOWNS.index(b) else (b, a)


def ring_arcs(ring: tuple[str, ...] | list[str]) -> dict[str, tuple[int, ...]]:
    pos = [i for i, s in enumerate(ring) if s in COAST]
    out: dict[str, tuple[int, ...]] = {}
    for k, i in enumerate(pos):
        j = pos[(k + 1) % len(pos)]
        span = tuple((i + d) % len(ring) for d in range(1, (j - i) % len(ring)))
        out[f"{ring[i]}-{ring[j]}"] = span
    return out


def read_board(path: str | Path) -> Board:
    path = Path(path)
    raw = read_toml(
        path, "a Duo board file (TOML, like sim/games/duo/data/board.toml)"
    )  # one line if unreadable
    return validate_board(raw, str(path))


def _get(raw: dict[str, Any], key: str, typ: type | tuple[type, ...], where: str) -> Any:
    if key not in raw:
        raise BoardError(f"{where}: missing field '{key}'")
    if not isinstance(raw[key], typ):
        raise BoardError(f"{where}: field '{key}' has the wrong type ({type(raw[key]).__name__})")
    return raw[key]


def _route_pair(text: Any, f: str, known: set[tuple[str, str]]) -> tuple[str, str]:
    parts = str(text).split("-")
    if len(parts) != 2 or any(p not in TOWNS for p in parts):
        raise BoardError(f"{f}: '{text}' is not a route 'X-Y' between towns C1..C8, M1..M4")
    pr = pair(*parts)
    if pr not in known:
        raise BoardError(f"{f}: '{text}' is not one of the [[route]] entries")
    return pr


def validate_board(raw: dict[str, Any], where: str = "board") -> Board:
    """Check ``raw`` (a parsed board file) and derive what the rules need; raise BoardError on the first
    fault."""
    provenance = _get(raw, "provenance", str, where)
    verified = _get(raw, "verified", bool, where)
    ring = _get(raw, "ring", list, where)
    if len(ring) != RING_LEN:
        raise BoardError(f"{where}: ring has {len(ring)} spaces, the rules need {RING_LEN} (seed 003:L27)")
    for i, s in enumerate(ring):
        if s not in SPACES and s not in COAST:
            raise BoardError(f"{where}: ring[{i}] = {s!r}; use T, G, S, H or C1..C8")
    for c in COAST:
        if ring.count(c) != 1:
            raise BoardError(
                f"{where}: ring holds town {c} {ring.count(c)} times; each of C1..C8 exactly once"
            )
    mvals: dict[str, int] = {}
    for k, m in enumerate(_get(raw, "mountain", list, where)):
        f = f"{where}: mountain[{k}]"
        mid, val = m.get("id"), m.get("value")
        if mid not in MOUNT or mid in mvals:
            raise BoardError(f"{f}.id = {mid!r}; use each of M1..M4 once")
        if val not in MOUNTAIN_VALUES:
            raise BoardError(f"{f}.value = {val!r}; a mountain town's value is 2, 3 or 4 (seed 003:L48)")
        mvals[mid] = val
    if len(mvals) != len(MOUNT):
        raise BoardError(f"{where}: mountain lists {sorted(mvals)}; all of M1..M4 are needed")
    routes: list[tuple[str, str]] = []
    for k, r in enumerate(_get(raw, "route", list, where)):
        a, b = r.get("a"), r.get("b")
        if a not in TOWNS or b not in TOWNS or a == b:
            raise BoardError(f"{where}: route[{k}] = {a!r}-{b!r}; join two different towns of C1..C8, M1..M4")
        if pair(a, b) in routes:
            raise BoardError(f"{where}: route[{k}] {a}-{b} is listed twice")
        routes.append(pair(a, b))
    if len(routes) > MAX_ROUTES:
        raise BoardError(f"{where}: route has {len(routes)} entries; at most {MAX_ROUTES}")
    _check_connected(routes, where)
    zones = _zones(raw, ring, routes, where)
    adjacency = tuple(
        (z1.id, z2.id)
        for i, z1 in enumerate(zones)
        for z2 in zones[i + 1 :]
        if set(z1.routes) & set(z2.routes)
    )
    start = _get(raw, "start", dict, where)
    pil = start.get("pilgrim")
    if not (
        isinstance(pil, list)
        and len(pil) == 2
        and all(isinstance(x, int) and 0 <= x < RING_LEN for x in pil)
        and pil[0] != pil[1]
    ):
        raise BoardError(f"{where}: start.pilgrim = {pil!r}; give two different ring indices 0..36")
    mer = start.get("merchant")
    if not (isinstance(mer, list) and len(mer) == 2 and all(m in TOWNS for m in mer)):
        raise BoardError(f'{where}: start.merchant = {mer!r}; give two towns (e.g. ["M2", "M3"])')
    for m in mer:
        if m in COAST and (mer.count(m) > 1 or ring.index(m) in pil):
            raise BoardError(f"{where}: start.merchant {m} is a coastal town shared with another meeple")
    art = start.get("artist")
    ids = [z.id for z in zones]
    if not (isinstance(art, list) and len(art) == 2 and all(a in ids for a in art)):
        raise BoardError(f"{where}: start.artist = {art!r}; give two zone ids from {', '.join(ids)}")
    return Board(
        where,
        provenance,
        verified,
        tuple(ring),
        mvals,
        tuple(routes),
        zones,
        adjacency,
        (pil[0], pil[1]),
        (mer[0], mer[1]),
        (art[0], art[1]),
        raw,
    )


def _check_connected(routes: list[tuple[str, str]], where: str) -> None:
    seen, todo = {"C1"}, ["C1"]
    while todo:
        t = todo.pop()
        for a, b in routes:
            for x, y in ((a, b), (b, a)):
                if x == t and y not in seen:
                    seen.add(y)
                    todo.append(y)
    missing = [t for t in TOWNS if t not in seen]
    if missing:
        raise BoardError(
            f"{where}: route graph is not connected: {', '.join(missing)} cannot be reached "
            "from C1; add routes"
        )


def _zones(
    raw: dict[str, Any], ring: list[str], routes: list[tuple[str, str]], where: str
) -> tuple[Zone, ...]:
    arcs = ring_arcs(ring)
    known = set(routes)
    zones: list[Zone] = []
    route_use = dict.fromkeys(routes, 0)
    arc_use = dict.fromkeys(arcs, 0)
    for k, z in enumerate(_get(raw, "zone", list, where)):
        f = f"{where}: zone[{k}]"
        zid, icon = z.get("id"), z.get("icon")
        if not isinstance(zid, str) or zid in [x.id for x in zones]:
            raise BoardError(f"{f}.id = {zid!r}; give each zone its own id")
        if icon not in (1, 2, 3, 4):
            raise BoardError(f"{f}.icon = {icon!r}; a zone icon is 1..4 (4 painting icons)")
        zarcs = z.get("arcs", [])
        for a in zarcs:
            if a not in arcs:
                raise BoardError(f"{f}.arcs: '{a}' is not a ring arc; arcs here: {', '.join(arcs)}")
            arc_use[a] += 1
        zroutes = [_route_pair(r, f"{f}.routes", known) for r in z.get("routes", [])]
        for r in zroutes:
            route_use[r] += 1
        edges = [tuple(a.split("-")) for a in zarcs] + zroutes
        cycle = _cycle_towns(edges, f)
        if "towns" in z and sorted(z["towns"]) != sorted(cycle):
            raise BoardError(f"{f}.towns = {z['towns']}; its border passes through {', '.join(cycle)}")
        spaces = sorted({s for a in zarcs for s in arcs[a]} | {ring.index(t) for t in cycle if t in COAST})
        zones.append(Zone(zid, icon, tuple(zarcs), tuple(zroutes), tuple(spaces), tuple(cycle)))
    for r, n in route_use.items():
        if n != 2:
            raise BoardError(
                f"{where}: route {r[0]}-{r[1]} borders {n} zones; a route inside the island "
                "borders exactly 2 (zones must tile the interior)"
            )
    for a, n in arc_use.items():
        if n != 1:
            raise BoardError(f"{where}: ring arc {a} belongs to {n} zones; every arc belongs to exactly 1")
    _check_links(zones, arcs, routes, where)
    if len(zones) != len(routes) - 3:
        raise BoardError(
            f"{where}: {len(zones)} zones with {len(routes)} routes; a planar map has routes - 3 "
            "zones (Euler), so some zone is missing or not a face"
        )
    return tuple(zones)


def _check_links(
    zones: list[Zone], arcs: dict[str, tuple[int, ...]], routes: list[tuple[str, str]], where: str
) -> None:
    """Around every town the zones (and the sea outside the ring) must close into one fan, as on a sphere."""
    for t in TOWNS:
        edges = [f"r:{a}-{b}" for a, b in routes if t in (a, b)] + [
            f"a:{a}" for a in arcs if t in a.split("-")
        ]
        faces = [
            [f"r:{a}-{b}" for a, b in z.routes if t in (a, b)]
            + [f"a:{a}" for a in z.arcs if t in a.split("-")]
            for z in zones
        ]
        faces.append([e for e in edges if e.startswith("a:")])  # the sea
        parent = {e: e for e in edges}
        for fe in faces:
            if len(fe) == 2:
                parent[_root(parent, fe[0])] = _root(parent, fe[1])
        if len({_root(parent, e) for e in edges}) > 1:
            raise BoardError(
                f"{where}: the zones around town {t} do not fit together as a planar map; "
                "check which zones list its routes"
            )


def _root(parent: dict[str, str], e: str) -> str:
    while parent[e] != e:
        e = parent[e]
    return e


def _cycle_towns(edges: list[tuple[str, ...]], f: str) -> list[str]:
    """The towns of a border given as edges; raise unless the edges form exactly one cycle."""
    if not edges:
        raise BoardError(f"{f}: a zone needs arcs or routes on its border")
    deg: dict[str, int] = {}
    for a, b in edges:
        deg[a] = deg.get(a, 0) + 1
        deg[b] = deg.get(b, 0) + 1
    bad = [t for t, d in deg.items() if d != 2]
    if bad:
        raise BoardError(f"{f}: the border does not close into one cycle at {', '.join(sorted(bad))}")
    seen, todo = {edges[0][0]}, [edges[0][0]]
    while todo:
        t = todo.pop()
        for a, b in edges:
            for x, y in ((a, b), (b, a)):
                if x == t and y not in seen:
                    seen.add(y)
                    todo.append(y)
    if len(seen) != len(deg):
        raise BoardError(f"{f}: the border is more than one cycle; a zone is one face of the map")
    return [t for t in TOWNS if t in deg]
