"""Duo's golden games (``sim.checks.golden`` does the storing, comparing and updating): ``SUITE``.

``tests/golden/duo_golden.json`` is checked with Tokaido's by the same command
(``tokaido-sim check golden``; ``--update`` refreshes both). For every configuration of ``DEFAULT_SPECS``
(every bot, every D-choice
parameter away from its default, generated boards of the board family, the solo Automa) the file
holds ``GAMES`` games of seed ``SEED``: the action log (int16 rows, zlib, base64),
the result records and a SHA-256 of both, and the rules fingerprint and bot
weights digest it was made with. A spec is ``bots=A+B[,board=family-SEED-I][,KEY=VALUE...]``
(``KEY=VALUE`` as ``duo run --set``).

The Duo rules have no version number to bump: ``--update`` always writes, and
prints what moved and why (rules data, bot weights, or engine code). ``--set`` is Tokaido's: the
Duo suite refuses it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from kernels.duo.enums import EV_FIELDS
from kernels.duo.state import RESULT_FIELDS
from sim.checks.golden import UPDATE, Overrides, Played
from sim.errors import UserError
from sim.games.duo.board_gen import board_family
from sim.games.duo.engine import play_duo_games
from sim.games.duo.narrate import describe, round_of
from sim.games.duo.rules import DuoRules, from_raw, load_duo_rules

GAME = "duo"
SEED = 20250117
GAMES = 3
DUO_GOLDEN_PATH = Path(__file__).resolve().parents[4] / "tests" / "golden" / "duo_golden.json"

DEFAULT_SPECS = (
    "bots=greedy+greedy",
    "bots=random+random",
    "bots=random+greedy",
    "bots=search+greedy",
    "bots=greedy+greedy,choices.merchant_path=trail",
    "bots=greedy+greedy,choices.merchant_path=walk",
    "bots=greedy+random,choices.actions_optional=false",
    "bots=greedy+greedy,choices.hot_spring_retake=false,choices.first_player=1",
    "bots=random+greedy,choices.seashore_optional=true,choices.hot_spring_optional=true",
    "bots=greedy+greedy,board=family-7-0",
    "bots=random+greedy,board=family-7-1",
    "bots=greedy+automa",
    "bots=search+automa,automa.die.choice=highest,automa.merchant.target=coast,automa.artist.target=first",
    "bots=random+automa,automa.die.choice=lowest,automa.merchant.target=mountain,board=family-7-0",
)


def parse_spec(spec: str) -> tuple[tuple[str, str], str | None, list[str]]:
    """``(bots, board, sets)`` of a spec (see the module docstring)."""
    bots: tuple[str, str] = ("greedy", "greedy")
    board, sets = None, []
    for item in (x.strip() for x in spec.split(",") if x.strip()):
        key, _, value = item.partition("=")
        if key == "bots":
            a, _, b = value.partition("+")
            bots = (a, b or a)
        elif key == "board":
            board = value
        else:
            sets.append(item)
    return bots, board, sets


def rules_of(spec: str) -> DuoRules:
    bots, board, sets = parse_spec(spec)
    rules = load_duo_rules(sets=sets, solo="automa" in bots)
    if board is None:
        return rules
    family, seed, index = board.split("-")
    if family != "family":
        raise UserError(f"golden spec {spec!r}: board must be family-SEED-INDEX (a generated board)")
    b = board_family(int(seed), int(index) + 1)[int(index)]
    return from_raw(
        b.raw,
        rules.rules_raw,
        f"generated board {board}",
        overrides=rules.overrides,
        automa_raw=rules.automa_raw,
    )


def bots_digest() -> str:
    """Short hash of ``sim/games/duo/data/bots.toml`` (the bot weights are not in the rules fingerprint)."""
    return hashlib.sha256((resources.files("sim.games.duo.data") / "bots.toml").read_bytes()).hexdigest()[:16]


def play(spec: str, seed: int, games: int) -> list[Played]:
    """Games ``0..games-1`` of ``spec`` with ``seed``: each one's action log and result records."""
    bots, _, _ = parse_spec(spec)
    batch = play_duo_games(rules_of(spec), seed, 0, games, bots, log=True)
    return [
        (np.array(batch.game_events(i)), [[int(r[f]) for f in RESULT_FIELDS] for r in batch.game_records(i)])
        for i in range(games)
    ]


def header() -> dict[str, Any]:
    r = load_duo_rules()
    return {
        "provenance": r.provenance(),
        "verified": r.verified,
        "rules_fingerprint": r.fingerprint(),
        "bots_digest": bots_digest(),
        "record_fields": list(RESULT_FIELDS),
    }


def replay_command(spec: str, seed: int, game: int) -> str:
    bots, board, sets = parse_spec(spec)
    solo = "automa" in bots
    cmd = f"tokaido-sim duo replay --seed {seed} --game {game} " + (
        f"--solo --bots {bots[0]}" if solo else f"--bots {','.join(bots)}"
    )
    cmd += "".join(f" --set {s}" for s in sets)
    if board is not None:
        cmd += f" --board FILE (write {board} with sim.games.duo.board_gen.write_board)"
    return cmd


def why(data: dict[str, Any], now: dict[str, Any], fresh: list[str], moved: bool) -> list[str]:
    """Why the games moved, or why the file is stale, and what to do."""
    changed = [
        c["spec"] for c, f in zip(data["configs"], fresh, strict=True) if c.get("rules_fingerprint") != f
    ]
    if changed:
        what = "and games moved" if moved else "but no golden game moved"
        return [
            f"the Duo rules or board data changed for {len(changed)} configuration(s) ({changed[0]}, ...) "
            f"{what}: if deliberate, record it with: {UPDATE}"
        ]
    if data.get("bots_digest") != now["bots_digest"]:
        what = "and games moved" if moved else "but no golden game moved (not a failure)"
        return [
            f"the Duo bot weights (sim/games/duo/data/bots.toml) changed {what}: if deliberate, record it "
            f"with: {UPDATE}"
        ]
    if moved:
        return [
            f"Duo behaviour changed with unchanged rules data, so the engine code changed: if deliberate, "
            f"refresh with: {UPDATE}; otherwise it is a bug"
        ]
    return []


class DuoGolden:
    """Duo's ``sim.checks.golden.GoldenSuite``."""

    game = GAME
    path = DUO_GOLDEN_PATH
    seed = SEED
    games = GAMES
    log_fields = EV_FIELDS

    def specs(self) -> list[str]:
        return list(DEFAULT_SPECS)

    def header(self) -> dict[str, Any]:
        return header()

    def fingerprint(self, spec: str) -> str:
        return rules_of(spec).fingerprint()

    def play(self, spec: str, seed: int, games: int, overrides: Overrides = ()) -> list[Played]:
        if overrides:
            raise UserError("--set changes Tokaido rules; a Duo golden file is checked as it is (drop --set)")
        return play(spec, seed, games)

    def describe_event(self, spec: str, row: Sequence[int]) -> str:
        return describe(tuple(int(x) for x in row), rules_of(spec))

    def where(self, events: np.ndarray, i: int) -> str:
        k = round_of(events, i)
        return f"round {k}" if k else "setup"

    def replay_command(self, spec: str, seed: int, game: int, overrides: Overrides = ()) -> str:
        return replay_command(spec, seed, game)

    def explain(
        self, data: dict[str, Any], now: dict[str, Any], fresh: list[str], overrides: Overrides, moved: bool
    ) -> list[str]:
        return why(data, now, fresh, moved)

    def stale(self, data: dict[str, Any], now: dict[str, Any], fresh: list[str], notes: list[str]) -> bool:
        return bool(notes)

    def refuse_update(self, old: dict[str, Any], new: dict[str, Any]) -> str | None:
        return None  # no rules version to bump: the update says what moved and why


SUITE = DuoGolden()
