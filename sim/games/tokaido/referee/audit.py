"""Audit games recorded elsewhere (``tokaido-sim audit``): replay each record with the referee.

Each record (``sim/games/tokaido/referee/record.py``) becomes the referee's event stream; the referee checks
every action and every draw (a draw is possible if that card could still be in that pile),
then recomputes every score component and compares it with the recorded one.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sim.games.tokaido.referee.game import Referee
from sim.games.tokaido.referee.record import SCHEMA, ReadGame, RecordError, components, read_record
from sim.games.tokaido.referee.scoring import build_rows


@dataclass
class Audit:
    """One game's verdict."""

    line: int
    legal: bool
    scores_equal: bool
    problems: list[str] = field(default_factory=list)
    context: list[str] = field(default_factory=list)  # the referee's narration up to the problem


def _feed(game: ReadGame, narrate: bool) -> tuple[Referee, str | None]:
    ref = Referee(game.config, game.config.rules(), narrate=narrate)
    stop = game.impossible[0] if game.impossible else len(game.events)
    for row in game.events[:stop]:
        if not ref.feed(row):
            return ref, None
    if game.impossible:
        return ref, f"event {game.impossible[0]} DRAW: {game.impossible[1]}"
    ref.finish()
    return ref, None


def _actions(message: str, game: ReadGame) -> str:
    """The referee's ``event N KIND`` as the record's ``action N (kind)``."""
    def sub(m: re.Match[str]) -> str:
        n = int(m.group(1))
        if n not in game.action_of:
            return f"set-up event {n} ({m.group(2).lower()})"
        key = SCHEMA[game.events[n][0]][0]
        return f"action {game.action_of[n]} ({key})"
    return re.sub(r"event (\d+) (\w+)", sub, message, count=1)


def audit_game(obj: Any, line: int, profile: str | None = None, sets: list[str] | None = None,
               context: int = 6) -> Audit:
    """Audit one parsed record; ``RecordError`` if it cannot be read."""
    game = read_record(obj, profile, sets)
    ref, impossible = _feed(game, narrate=False)
    errors = [impossible] if impossible else list(ref.errors)
    if errors:
        narrated, _ = _feed(game, narrate=True)
        lines = [n for n in narrated.narration if not n.startswith("ILLEGAL")]
        return Audit(line, False, False, [_actions(e, game) for e in errors[:1]], lines[-context:])
    rows = {r["player"]: r for r in build_rows(ref.state, ref.ranks)}
    labels = {s["player"]: obj["scores"][i]["traveler"] for i, s in enumerate(game.scores)}
    problems = []
    for rec in game.scores:
        mine = rows[rec["player"]]
        for c in ("score", *components(game.config)):
            ours = mine[c if c == "score" else "pts_" + c]
            if ours != rec[c]:
                problems.append(f"{labels[rec['player']]} {c}: recorded {rec[c]}, referee {ours}")
    return Audit(line, True, not problems, problems)


def read_lines(lines: Iterable[str]) -> Iterable[tuple[int, Any]]:
    """(line number, parsed JSON) of each non-blank line; ``RecordError`` names a bad line."""
    for n, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"line {n}: not JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(obj, dict):
            raise RecordError(f"line {n}: expected a JSON object (one game)")
        yield n, obj


def audit_lines(lines: Iterable[str], profile: str | None = None, sets: list[str] | None = None) -> list[Audit]:
    """Audit every record; ``RecordError`` (line and field named) on the first unreadable one."""
    out = []
    for n, obj in read_lines(lines):
        try:
            out.append(audit_game(obj, n, profile, sets))
        except RecordError as exc:
            raise RecordError(f"line {n}: {exc}") from None
    return out
