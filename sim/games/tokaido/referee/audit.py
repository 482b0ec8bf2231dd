"""Audit games recorded elsewhere (``tokaido-sim audit``): replay each record with the referee.

Each record (``sim/games/tokaido/referee/record.py``) becomes the referee's event stream; the referee checks
every action and every draw (a draw is possible if that card could still be in that pile),
then recomputes every score component and compares it with the recorded one. A game is
*accepted* when it is legal and every score component is equal; otherwise the first problem
names the action (or the score component) and its class (``Audit.problem_class``) groups games
that fail the same way.
"""

from __future__ import annotations

import json
import re
from collections import Counter
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
    problem_class: str = ""  # e.g. "illegal choice", "impossible draw", "score differs: calligraphy"
    record_id: str | None = None

    @property
    def accepted(self) -> bool:
        return self.legal and self.scores_equal

    @property
    def name(self) -> str:
        """How the output names the game: its line, and its own id if the record has one."""
        return f"line {self.line}" + (f" ({self.record_id})" if self.record_id is not None else "")

    def verdict(self) -> str:
        """One line: accepted, or rejected with the first problem."""
        if self.accepted:
            return f"{self.name}: accepted"
        return f"{self.name}: rejected: {self.problems[0]}"


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


def _actions(message: str, game: ReadGame) -> tuple[str, str]:
    """The referee's ``event N KIND`` as the record's ``action N (kind)``; and the problem's class."""
    found: list[str] = []

    def sub(m: re.Match[str]) -> str:
        n = int(m.group(1))
        if n not in game.action_of:
            found.append("set-up")
            return f"set-up event {n} ({m.group(2).lower()})"
        key = SCHEMA[game.events[n][0]][0] if game.events[n][0] in SCHEMA else m.group(2).lower()
        found.append(key)
        return f"action {game.action_of[n]} ({key})"

    text = re.sub(r"event (\d+) (\w+)", sub, message, count=1)
    if " cannot be in the " in message:
        return text, "impossible draw"
    if "before END" in message:
        return text, "game not finished"
    return text, f"illegal {found[0]}" if found else "illegal game"


def audit_game(
    obj: Any, line: int, profile: str | None = None, sets: list[str] | None = None, context: int = 6
) -> Audit:
    """Audit one parsed record; ``RecordError`` if it cannot be read."""
    game = read_record(obj, profile, sets)
    ref, impossible = _feed(game, narrate=False)
    errors = [impossible] if impossible else list(ref.errors)
    if errors:
        narrated, _ = _feed(game, narrate=True)
        lines = [n for n in narrated.narration if not n.startswith("ILLEGAL")]
        text, cls = _actions(errors[0], game)
        return Audit(line, False, False, [text], lines[-context:], cls, game.record_id)
    rows = {r["player"]: r for r in build_rows(ref.state, ref.ranks)}
    labels = {s["player"]: obj["scores"][i]["traveler"] for i, s in enumerate(game.scores)}
    problems, differ = [], []
    for rec in game.scores:
        mine = rows[rec["player"]]
        for c in ("score", *components(game.config)):
            ours = mine[c if c == "score" else "pts_" + c]
            if ours != rec[c]:
                problems.append(f"{labels[rec['player']]} {c}: recorded {rec[c]}, referee {ours}")
                differ.append(c)
    first = next((c for c in differ if c != "score"), differ[0] if differ else "")
    return Audit(
        line, True, not problems, problems, [], f"score differs: {first}" if problems else "", game.record_id
    )


def read_lines(lines: Iterable[str | bytes]) -> Iterable[tuple[int, Any]]:
    """(line number, parsed JSON) of each non-blank line; ``RecordError`` names a bad line."""
    for n, raw in enumerate(lines, 1):
        if isinstance(raw, bytes):
            if b"\0" in raw:
                raise RecordError(
                    f"line {n}: binary data (a NUL byte): not a JSON-lines file of game records"
                )
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(
                    f"line {n}: not UTF-8 text (byte {exc.start + 1}): a binary file?"
                ) from None
        else:
            text = raw
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            cut = not text.rstrip().endswith("}")  # a record is one object: its line ends with "}"
            raise RecordError(
                f"line {n}: not JSON ({exc.msg} at column {exc.colno})"
                + (": the line is cut short" if cut else "")
            ) from None
        if not isinstance(obj, dict):
            raise RecordError(f"line {n}: expected a JSON object (one game)")
        yield n, obj


def audit_lines(
    lines: Iterable[str | bytes], profile: str | None = None, sets: list[str] | None = None, context: int = 6
) -> list[Audit]:
    """Audit every record of a JSON-lines text; ``RecordError`` (line and field named) on the first
    unreadable one."""
    return audit_records(read_lines(lines), profile, sets, context)


def audit_records(
    records: Iterable[tuple[int, dict[str, Any]]],
    profile: str | None = None,
    sets: list[str] | None = None,
    context: int = 6,
) -> list[Audit]:
    """Audit every ``(line number, record)``; ``RecordError`` (line and field named) on the first unreadable
    one."""
    out = []
    for n, obj in records:
        try:
            out.append(audit_game(obj, n, profile, sets, context))
        except RecordError as exc:
            rid = obj.get("id")
            name = f"line {n}" + (
                f" ({rid})" if isinstance(rid, str | int) and not isinstance(rid, bool) else ""
            )
            raise RecordError(f"{name}: {exc}") from None
    return out


def summary(results: list[Audit]) -> list[str]:
    """The closing lines: the counts, then each problem class with its games (most frequent first)."""
    accepted = sum(r.accepted for r in results)
    legal = sum(r.legal for r in results)
    equal = sum(r.scores_equal for r in results)
    lines = [
        f"audited {len(results)} games: {accepted} accepted, {len(results) - accepted} rejected "
        f"({legal} legal, {equal} with equal scores)"
    ]
    classes = Counter(r.problem_class for r in results if not r.accepted)
    if classes:
        lines.append("rejected by problem class:")
        first = {c: next(r.name for r in results if r.problem_class == c) for c in classes}
        width = max(len(c) for c in classes)
        lines += [
            f"  {c:<{width}}  {k} game{'s' if k > 1 else ''} (first: {first[c]})"
            for c, k in classes.most_common()
        ]
    return lines
