"""Golden games of any game: seeded games whose whole outcome is committed, so any change in behaviour shows.

A game's plug-in gives a ``GoldenSuite``: which configurations ("specs") it plays, how it plays one
game with its action log, how it names an event and a point in a game, how to replay a game, and
why games may have moved (rules, bot weights or engine code). This module does the rest for every
game alike: the file (``tests/golden/*.json``: per configuration ``GAMES`` games of seed ``SEED``,
each game's action log as int16 rows, zlib-compressed and base64, its result records and a
SHA-256 of both, under a header of what the file was made with), the event-by-event comparison
that locates the first difference, and the update after a deliberate change
(``tokaido-sim check golden --update``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from sim.errors import UserError

FORMAT = 1
UPDATE = "tokaido-sim check golden --update"
Played = tuple[np.ndarray, list[list[int]]]  # one game: action log rows, result records (one row a player)
Overrides = tuple[tuple[str, Any], ...]


class GoldenSuite(Protocol):
    """What a game's plug-in tells the golden check (``sim.games.tokaido.checks.golden``,
    ``sim.games.duo.checks.golden``)."""

    game: str  # the file's "game"
    path: Path  # the project's golden file of this game
    seed: int
    games: int  # per configuration
    log_fields: int  # columns of an action log row

    def specs(self) -> list[str]:
        """The configurations a new file holds, in their canonical spelling."""

    def header(self) -> dict[str, Any]:
        """What the file is made with: rules version or provenance, fingerprints, bot digest,
        ``record_fields``."""

    def fingerprint(self, spec: str) -> str:
        """The rules fingerprint of one configuration."""

    def play(self, spec: str, seed: int, games: int, overrides: Overrides = ()) -> list[Played]:
        """Games ``0..games-1`` of ``spec`` with ``seed`` (``overrides`` added; refuse them if
        unsupported)."""

    def describe_event(self, spec: str, row: Sequence[int]) -> str:
        """One event as text, e.g. ``MOVE traveler=2 space=17``."""

    def where(self, events: np.ndarray, i: int) -> str:
        """Where event ``i`` lies in its game ("setup", "turn 5, which began MOVE ...")."""

    def replay_command(self, spec: str, seed: int, game: int, overrides: Overrides = ()) -> str:
        """The command that replays one stored game."""

    def explain(
        self, data: dict[str, Any], now: dict[str, Any], fresh: list[str], overrides: Overrides, moved: bool
    ) -> list[str]:
        """Why the games moved, or why the file is stale (``fresh``: each configuration's fingerprint now)."""

    def stale(self, data: dict[str, Any], now: dict[str, Any], fresh: list[str], notes: list[str]) -> bool:
        """Whether a file whose games all replay is out of date (it must then be refreshed)."""

    def refuse_update(self, old: dict[str, Any], new: dict[str, Any]) -> str | None:
        """Why an update that moved games must not be written (a rules version to bump), or None."""


# ------------------------------------------------------------------ storage
def encode_events(events: np.ndarray) -> str:
    return base64.b64encode(zlib.compress(events.astype("<i2").tobytes(), 9)).decode("ascii")


def decode_events(text: str, fields: int) -> np.ndarray:
    return np.frombuffer(zlib.decompress(base64.b64decode(text)), "<i2").reshape(-1, fields).copy()


def digest(events: np.ndarray, rows: list[list[int]]) -> str:
    h = hashlib.sha256(events.astype("<i2").tobytes())
    h.update(np.asarray(rows, "<i8").tobytes())
    return h.hexdigest()


def entries(played: list[Played]) -> list[dict[str, Any]]:
    """The stored form of played games."""
    return [
        {
            "game": i,
            "sha256": digest(ev, rows),
            "n_events": len(ev),
            "events": encode_events(ev),
            "records": rows,
        }
        for i, (ev, rows) in enumerate(played)
    ]


def game_of(data: dict[str, Any]) -> str:
    """The game a golden file holds (files made before games were named hold Tokaido's)."""
    return str(data.get("game", "tokaido"))


def peek_game(path: Path) -> str | None:
    """The game of the golden file at ``path``, or None if it cannot be read as one."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return game_of(data) if isinstance(data, dict) else None


def load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise UserError(f"{path} does not exist; make it with: {UPDATE} --file {path}") from None
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise UserError(f"{path} is not a readable golden file ({exc}); refresh it with: {UPDATE}") from None
    if (
        not isinstance(data, dict)
        or data.get("format") != FORMAT
        or not isinstance(data.get("configs"), list)
    ):
        raise UserError(f"{path} is not a golden file of format {FORMAT}; refresh it with: {UPDATE}")
    return data


def save(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    text = json.dumps(data, indent=1)
    text = re.sub(r"\[[-\d,\s]*\]", lambda m: json.dumps(json.loads(m.group(0))), text)  # rows on one line
    tmp.write_text(text + "\n")
    tmp.replace(path)


def make(
    suite: GoldenSuite, specs: Sequence[str] | None = None, seed: int | None = None, games: int | None = None
) -> dict[str, Any]:
    """A fresh golden file of the current engine and rules."""
    seed = suite.seed if seed is None else seed
    games = suite.games if games is None else games
    configs = [
        {"spec": s, "rules_fingerprint": suite.fingerprint(s), "games": entries(suite.play(s, seed, games))}
        for s in (suite.specs() if specs is None else specs)
    ]
    return {
        "format": FORMAT,
        "game": suite.game,
        **suite.header(),
        "seed": seed,
        "games_per_config": games,
        "configs": configs,
    }


# ------------------------------------------------------------------ compare
@dataclass
class GameDiff:
    spec: str
    game: int
    summary: str  # one line: where it differs
    detail: list[str] = field(default_factory=list)


@dataclass
class GoldenReport:
    game: str = "tokaido"
    games: int = 0
    configs: int = 0
    diffs: list[GameDiff] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # why, and what to do
    stale: bool = False  # the file's rules or bots differ from the current ones (no game moved)

    @property
    def ok(self) -> bool:
        return not self.diffs and not self.stale

    def lines(self, max_games: int = 10) -> list[str]:
        name = "golden" if self.game == "tokaido" else f"{self.game} golden"
        out = []
        if self.diffs:
            out.append(
                f"{name}: {len(self.diffs)} of {self.games} games differ "
                f"({len({d.spec for d in self.diffs})} of {self.configs} configurations)"
            )
            first = self.diffs[0]
            out += [first.summary, *("  " + x for x in first.detail)]
            if len(self.diffs) > 1:
                out.append("other differing games:")
                out += ["  " + d.summary for d in self.diffs[1 : max_games + 1]]
                if len(self.diffs) > max_games + 1:
                    out.append(f"  ... and {len(self.diffs) - max_games - 1} more")
        else:
            out.append(f"{name}: all {self.games} games of {self.configs} configurations are unchanged")
        return out + self.notes


def compare_game(
    suite: GoldenSuite,
    spec: str,
    seed: int,
    fields: list[str],
    want: dict[str, Any],
    got: dict[str, Any],
    stored_rows: list[list[int]],
    overrides: Overrides = (),
) -> GameDiff | None:
    """Where game ``want`` (stored) and ``got`` (played now) first differ, or None.

    Both hold the records of ``fields`` only; ``stored_rows`` are the stored records as stored.
    """
    ev_w, ev_g = (
        decode_events(want["events"], suite.log_fields),
        decode_events(got["events"], suite.log_fields),
    )
    g = int(want["game"])
    where = f"game {g} of {spec}" if suite.game == "tokaido" else f"game {g} of {suite.game} {spec}"
    replay = f"replay it: {suite.replay_command(spec, seed, g, overrides)}"
    n = min(len(ev_w), len(ev_g))
    neq = np.flatnonzero((ev_w[:n] != ev_g[:n]).any(axis=1))
    if len(neq) or len(ev_w) != len(ev_g):
        i = int(neq[0]) if len(neq) else n
        exp = suite.describe_event(spec, ev_w[i]) if i < len(ev_w) else "(end of log)"
        act = suite.describe_event(spec, ev_g[i]) if i < len(ev_g) else "(end of log)"
        at = suite.where(ev_w if i < len(ev_w) else ev_g, i)
        summary = f"{where}: first differs at event {i} ({at}): expected {exp}, got {act}"
        ctx = [f"event {j}: {suite.describe_event(spec, ev_w[j])}" for j in range(max(0, i - 3), i)]
        return GameDiff(spec, g, summary, [*(["same events before:", *ctx] if ctx else []), replay])
    for p, (a, b) in enumerate(zip(want["records"], got["records"], strict=False)):
        moved = [f"{f} {x} -> {y}" for f, x, y in zip(fields, a, b, strict=False) if x != y]
        if moved:
            return GameDiff(
                spec,
                g,
                f"{where}: same action log, result differs for player {p}: " + ", ".join(moved[:6]),
                [replay],
            )
    if want.get("sha256") != digest(ev_w, stored_rows):
        return GameDiff(
            spec,
            g,
            f"{where}: stored digest does not match the stored log (edited by hand?)",
            [f"refresh with: {UPDATE}"],
        )
    return None


def _project(rows: list[list[int]], fields: list[str], keep: list[str]) -> list[list[int]]:
    idx = [fields.index(f) for f in keep]
    return [[r[i] for i in idx] for r in rows]


def compare_sets(
    suite: GoldenSuite,
    old: dict[str, Any],
    played: list[list[dict[str, Any]]],
    rep: GoldenReport,
    overrides: Overrides = (),
) -> None:
    """Compare the stored games with games played now, on the record fields both have."""
    fields, cur = list(old.get("record_fields", [])), list(suite.header()["record_fields"])
    common = [f for f in fields if f in cur]
    seed = int(old["seed"])
    for entry, fresh in zip(old["configs"], played, strict=True):
        rep.configs += 1
        for want, got in zip(entry["games"], fresh, strict=True):
            rep.games += 1
            if (
                fields == cur
                and want.get("sha256") == got["sha256"]
                and want["events"] == got["events"]
                and want["records"] == got["records"]
            ):
                continue
            w = {**want, "records": _project(want["records"], fields, common)}
            g = {**got, "records": _project(got["records"], cur, common)}
            d = compare_game(suite, entry["spec"], seed, common, w, g, want["records"], overrides)
            if d is not None:
                rep.diffs.append(d)
    if fields != cur:
        gone, new = [f for f in fields if f not in cur], [f for f in cur if f not in fields]
        rep.notes.append(
            f"the result records changed fields (removed {gone}, added {new}); the games were "
            f"compared on the others; record the new fields with: {UPDATE}"
        )


def check(suite: GoldenSuite, data: dict[str, Any], overrides: Overrides = ()) -> GoldenReport:
    """Play every stored game again (with ``overrides`` added to each configuration) and compare."""
    now = suite.header()
    rep = GoldenReport(suite.game)
    seed = int(data["seed"])
    played = [entries(suite.play(c["spec"], seed, len(c["games"]), overrides)) for c in data["configs"]]
    compare_sets(suite, data, played, rep, overrides)
    fresh = [suite.fingerprint(c["spec"]) for c in data["configs"]]
    notes = suite.explain(data, now, fresh, overrides, bool(rep.diffs))
    rep.notes += notes
    rep.stale = not overrides and not rep.diffs and suite.stale(data, now, fresh, notes)
    return rep


def update(
    suite: GoldenSuite, path: Path, force: bool = False
) -> tuple[GoldenReport | None, dict[str, Any], bool]:
    """Remake the golden file at ``path`` (same configurations, seed and game count).

    Returns (what changed against the old file or None if there was none, the new data, whether
    it was written). The project's own file also takes configurations added to the suite since.
    Refuses (written = False) where the suite says an update needs more first (a rules version
    to bump), unless ``force``.
    """
    old = load(path) if path.exists() else None
    if old is None:
        new = make(suite)
        save(new, path)
        return None, new, True
    specs = [c["spec"] for c in old["configs"]]
    known = set(specs)
    if Path(path).resolve() == suite.path.resolve():
        specs += [s for s in suite.specs() if s not in known]
    new = make(suite, specs, int(old["seed"]), int(old["games_per_config"]))
    rep = GoldenReport(suite.game)
    compare_sets(suite, old, [c["games"] for c in new["configs"] if c["spec"] in known], rep)
    if rep.diffs and not force and (why := suite.refuse_update(old, new)):
        rep.notes.append(why)
        return rep, new, False
    save(new, path)
    return rep, new, True
