"""Random valid Duo boards: the "board family" of research expansions.md C.6.

A board is built so that it is planar by construction:

1. the ring: a random permutation of the type counts (8 towns and, by default as shipped,
   10 temples, 8 gardens, 6 seashores, 5 hot springs), towns named C1..C8 clockwise;
2. the mountain towns: a random tree (Pruefer code) with a random rotation system
   (the cyclic order of each town's routes), walked round as a plane tree;
3. the spokes: the coastal towns, in ring order, go into the corners of that walk
   in walk order (every leaf corner gets one, so no route borders one zone twice),
   each joined to its corner's mountain town;
4. the zones are then the faces between consecutive coastal towns: the ring arc,
   the two spokes and the tree path between the two corners; icons are a random
   permutation of each icon twice, mountain values random in {2, 3, 4}, start
   spaces random.

The result is a raw board dict in the board.toml layout; every board passes
``sim.games.duo.board.validate_board`` (a hypothesis property test checks it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import tomli_w

from sim.games.duo.board import COAST, MOUNT, Board, validate_board

TYPE_COUNTS = {"T": 10, "G": 8, "S": 6, "H": 5}


def _pruefer_tree(rng: np.random.Generator, n: int) -> list[tuple[int, int]]:
    seq = list(rng.integers(0, n, n - 2))
    degree = [1 + seq.count(i) for i in range(n)]
    edges = []
    for x in seq:
        leaf = min(i for i in range(n) if degree[i] == 1)
        edges.append((leaf, int(x)))
        degree[leaf] -= 1
        degree[x] -= 1
    u, v = (i for i in range(n) if degree[i] == 1)
    edges.append((u, v))
    return edges


def _walk(rng: np.random.Generator, n: int, edges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The plane walk round the tree: traversal k goes (u, v) and ends in corner k at v."""
    rot = {i: [b if a == i else a for a, b in edges if i in (a, b)] for i in range(n)}
    for i in rot:
        rng.shuffle(rot[i])
    u, v = 0, rot[0][0]
    out = []
    for _ in range(2 * len(edges)):
        out.append((u, v))
        k = rot[v].index(u)
        u, v = v, rot[v][(k + 1) % len(rot[v])]
    return out


def generate_board(
    rng: np.random.Generator, provenance: str = "generated", types: dict[str, int] | None = None
) -> dict[str, Any]:
    """One random board (raw, board.toml layout); pass it to ``validate_board``.

    ``types``: how many of each ring space type (T, G, S, H; 29 in all), default ``TYPE_COUNTS``.
    """
    types = TYPE_COUNTS if types is None else types
    if sum(types.values()) != sum(TYPE_COUNTS.values()) or min(types.values()) < 1:
        raise ValueError(
            f"ring counts {types} must be positive and fill the {sum(TYPE_COUNTS.values())} spaces"
        )
    kinds = ["C"] * len(COAST) + [t for t, c in types.items() for _ in range(c)]
    rng.shuffle(kinds)
    ring, k = [], 0
    for s in kinds:
        if s == "C":
            ring.append(COAST[k])
            k += 1
        else:
            ring.append(s)
    nm = len(MOUNT)
    tree = _pruefer_tree(rng, nm)
    walk = _walk(rng, nm, tree)
    corners = len(walk)
    node_of = [v for _, v in walk]
    leaf_corner = [sum(1 for e in tree if node_of[c] in e) == 1 for c in range(corners)]
    counts = [int(x) for x in leaf_corner]
    for c in rng.integers(0, corners, len(COAST) - sum(counts)):
        counts[int(c)] += 1
    start = int(rng.integers(0, corners))
    corner_of: list[int] = []
    for j in range(corners):
        c = (start + j) % corners
        corner_of += [c] * counts[c]
    routes = [(MOUNT[a], MOUNT[b]) for a, b in tree] + [
        (COAST[i], MOUNT[node_of[corner_of[i]]]) for i in range(len(COAST))
    ]
    icons = [i for i in range(1, 5) for _ in range(2)]
    rng.shuffle(icons)
    zones = []
    for i in range(len(COAST)):
        j = (i + 1) % len(COAST)
        a, b = corner_of[i], corner_of[j]
        zr = [f"{COAST[i]}-{MOUNT[node_of[a]]}", f"{COAST[j]}-{MOUNT[node_of[b]]}"]
        t = a
        while t != b:
            t = (t + 1) % corners
            u, v = walk[t]
            zr.append(f"{MOUNT[u]}-{MOUNT[v]}")
        zones.append(
            {"id": f"Z{i + 1}", "icon": int(icons[i]), "arcs": [f"{COAST[i]}-{COAST[j]}"], "routes": zr}
        )
    free = [i for i, s in enumerate(ring) if s not in COAST]
    pil = [int(x) for x in rng.choice(free, 2, replace=False)]
    return {
        "provenance": provenance,
        "verified": False,
        "ring": ring,
        "mountain": [{"id": m, "value": int(rng.integers(2, 5))} for m in MOUNT],
        "route": [{"a": a, "b": b} for a, b in routes],
        "zone": zones,
        "start": {
            "pilgrim": pil,
            "merchant": [str(MOUNT[int(x)]) for x in rng.integers(0, nm, 2)],
            "artist": [f"Z{int(x) + 1}" for x in rng.choice(len(zones), 2, replace=False)],
        },
    }


def board_family(seed: int, k: int) -> list[Board]:
    """``k`` validated random boards; board i depends only on (seed, i)."""
    out = []
    for i in range(k):
        rng = np.random.default_rng([seed, i])
        out.append(
            validate_board(generate_board(rng, f"generated-{seed}-{i}"), f"generated board {seed}/{i}")
        )
    return out


def write_board(raw: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(
        "# INVENTED: a random board of the Duo board family (sim/games/duo/board_gen.py)\n"
        + tomli_w.dumps(raw)
    )
