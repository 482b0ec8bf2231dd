"""Duo action-log rows as readable lines (``duo replay``, golden differences, playthroughs)."""

from __future__ import annotations

from typing import Any

from kernels.duo.enums import CHAR_NAMES, RING_CODES, SIDE_NAMES, TRIGGER_NAMES
from sim.games.duo.board import COAST, TOWNS
from sim.games.duo.referee.game import KIND
from sim.games.duo.rules import DuoRules

SETUP_KINDS = ("boutique", "tile")  # many rows of setup detail, shown only on request


def describe(row: tuple[int, ...], r: DuoRules) -> str:
    """One log row ``(kind, player, a, b, c, d)`` as text, e.g. ``P1 merchant to C3``."""
    kind, p, a, b, c, d = row
    name = KIND.get(kind, str(kind))
    zones = [z.id for z in r.board.zones]
    wares = list(r.numbers.bag)
    space = {"T": "temple", "G": "garden", "S": "seashore", "H": "Hot Spring", "C": "town"}
    who = f"P{p} " if p >= 0 else ""
    text = {
        "first": lambda: "picks first in round 1",
        "boutique": lambda: f"boutique at {COAST[a]}: ware {wares[b]}, {c} coins each",
        "wave": lambda: f"{CHAR_NAMES[a]} wave tile shows {SIDE_NAMES[b]}",
        "tile": lambda: f"painting slot {a} dealt face down: icon {b + 1}",
        "roll": lambda: f"round {a + 1}: dice pilgrim {b}, merchant {c}, artist {d}",
        "pick": lambda: f"takes the {CHAR_NAMES[a]} die ({b})",
        "pmove": lambda: f"pilgrim {a} steps to {b} ({r.board.ring[b]})",
        "ptake": lambda: (
            f"takes the {CHAR_NAMES[b]} wave tile" + (" from the opponent" if c == 1 else "")
            if b >= 0
            else f"takes the {space.get(RING_CODES[a], '?')} space"
        ),
        "mmove": lambda: f"merchant to {TOWNS[a]}" if a >= 0 else "merchant: no path, stays",
        "mdraw": lambda: f"draws {a} ware(s)",
        "draw": lambda: f"draws ware {wares[a]}",
        "return": lambda: f"returns ware {wares[a]} to the bag (over the cap)",
        "sell": lambda: f"sells {b} × ware {wares[a]} for {c} coins",
        "amove": lambda: f"artist to {zones[a]}" if a >= 0 else "artist: no path, stays",
        "paint": lambda: f"paints: {a} tile(s) revealed",
        "reveal": lambda: f"reveals slot {a}: icon {b + 1}",
        "gift": lambda: f"gifts painting {a} (icon {b + 1})",
        "spring": lambda: "spends the Hot Spring token to repeat the pick",
        "rank": lambda: f"Automa's {CHAR_NAMES[a]} Rank track +{c} to slot {b}",
        "end": lambda: (
            "end: " + ", ".join(t for k, t in enumerate(TRIGGER_NAMES) if (a >> k) & 1) + f" ({b} rounds)"
        ),
    }.get(name, lambda: f"{name} {a} {b} {c} {d}")()
    return who + text


def narrate(events: object, r: DuoRules, setup: bool = True) -> list[str]:
    """Every row of a game's log as text (without the boutique and tile rows unless ``setup``)."""
    out = []
    for row in events:  # type: ignore[attr-defined]
        t = tuple(int(x) for x in row)
        if setup or KIND.get(t[0]) not in SETUP_KINDS:
            out.append(describe(t, r))
    return out


def round_of(events: object, i: int) -> int:
    """The round (1-based) event ``i`` belongs to; 0 in the setup."""
    roll = next(k for k, v in KIND.items() if v == "roll")
    rows: list[Any] = list(events)  # type: ignore[call-overload]
    return sum(1 for row in rows[: i + 1] if int(row[0]) == roll)
