"""Duo golden games: seeded Tokaido Duo games whose whole outcome is committed (``tests/golden/duo_golden.json``).

The Duo twin of ``sim.checks.golden``, checked by the same command
(``tokaido-sim check golden`` checks both files; ``--update`` refreshes both).
For every configuration of ``DEFAULT_SPECS`` (every bot, every D-choice
parameter away from its default, generated boards of the board family, the solo Automa) the file
holds ``GAMES`` games of seed ``SEED``: the action log (int16 rows, zlib, base64),
the result records and a SHA-256 of both, and the rules fingerprint and bot
weights digest it was made with. A spec is ``bots=A+B[,board=family-SEED-I][,KEY=VALUE...]``
(``KEY=VALUE`` as ``duo run --set``).

The Duo rules have no version number to bump: ``--update`` always writes, and
prints what moved and why (rules data, bot weights, or engine code).
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from kernels.duo.enums import EV_FIELDS
from kernels.duo.state import RESULT_FIELDS
from sim.checks.golden import GOLDEN_PATH, GameDiff, GoldenReport, digest, encode_events, save
from sim.duo.board_gen import board_family
from sim.duo.engine import play_duo_games
from sim.duo.narrate import describe, round_of
from sim.duo.rules import DuoRules, from_raw, load_duo_rules
from sim.errors import UserError

FORMAT = 1
GAME = "duo"
SEED = 20250117
GAMES = 3
DUO_GOLDEN_PATH = GOLDEN_PATH.with_name("duo_golden.json")
UPDATE = "tokaido-sim check golden --update"

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
    return from_raw(b.raw, rules.rules_raw, f"generated board {board}", overrides=rules.overrides,
                    automa_raw=rules.automa_raw)


def bots_digest() -> str:
    """Short hash of ``sim/data/duo/bots.toml`` (the bot weights are not in the rules fingerprint)."""
    return hashlib.sha256((resources.files("sim.data.duo") / "bots.toml").read_bytes()).hexdigest()[:16]


def decode_events(text: str) -> np.ndarray:
    import base64
    import zlib

    return np.frombuffer(zlib.decompress(base64.b64decode(text)), "<i2").reshape(-1, EV_FIELDS).copy()


def play(spec: str, seed: int, games: int) -> list[dict[str, Any]]:
    """The golden entries of games ``0..games-1`` of ``spec`` with ``seed``."""
    bots, _, _ = parse_spec(spec)
    batch = play_duo_games(rules_of(spec), seed, 0, games, bots, log=True)
    out = []
    for i in range(games):
        ev = np.array(batch.game_events(i))
        rows = [[int(r[f]) for f in RESULT_FIELDS] for r in batch.game_records(i)]
        out.append({"game": i, "sha256": digest(ev, rows), "n_events": len(ev), "events": encode_events(ev),
                    "records": rows})
    return out


def header() -> dict[str, Any]:
    r = load_duo_rules()
    return {"format": FORMAT, "game": GAME, "provenance": r.provenance(), "verified": r.verified,
            "rules_fingerprint": r.fingerprint(), "bots_digest": bots_digest(), "record_fields": list(RESULT_FIELDS)}


def make_duo_golden(specs: tuple[str, ...] | list[str] = DEFAULT_SPECS, seed: int = SEED,
                    games: int = GAMES) -> dict[str, Any]:
    configs = [{"spec": s, "rules_fingerprint": rules_of(s).fingerprint(), "games": play(s, seed, games)}
               for s in specs]
    return {**header(), "seed": seed, "games_per_config": games, "configs": configs}


def is_duo_golden(path: Path) -> bool:
    try:
        return json.loads(path.read_text()).get("game") == GAME
    except (OSError, ValueError, AttributeError):
        return False


def load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise UserError(f"{path} does not exist; make it with: {UPDATE}") from None
    except (OSError, ValueError) as exc:
        raise UserError(f"{path} is not a readable Duo golden file ({exc}); refresh it with: {UPDATE}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("game") != GAME:
        raise UserError(f"{path} is not a Duo golden file of format {FORMAT}; refresh it with: {UPDATE}")
    return data


def replay_command(spec: str, seed: int, game: int) -> str:
    bots, board, sets = parse_spec(spec)
    solo = "automa" in bots
    cmd = f"tokaido-sim duo replay --seed {seed} --game {game} " + (f"--solo --bots {bots[0]}" if solo else
                                                                      f"--bots {','.join(bots)}")
    cmd += "".join(f" --set {s}" for s in sets)
    if board is not None:
        cmd += f" --board FILE (write {board} with sim.duo.board_gen.write_board)"
    return cmd


def compare_game(spec: str, seed: int, want: dict[str, Any], got: dict[str, Any]) -> GameDiff | None:
    """Where stored game ``want`` and freshly played ``got`` first differ, or None."""
    ev_w, ev_g = decode_events(want["events"]), decode_events(got["events"])
    g = int(want["game"])
    where, replay = f"game {g} of duo {spec}", f"replay it: {replay_command(spec, seed, g)}"
    n = min(len(ev_w), len(ev_g))
    neq = np.flatnonzero((ev_w[:n] != ev_g[:n]).any(axis=1))
    if len(neq) or len(ev_w) != len(ev_g):
        r = rules_of(spec)
        i = int(neq[0]) if len(neq) else n
        exp = describe(tuple(ev_w[i]), r) if i < len(ev_w) else "(end of log)"
        act = describe(tuple(ev_g[i]), r) if i < len(ev_g) else "(end of log)"
        k = round_of(ev_w if i < len(ev_w) else ev_g, i)
        summary = (f"{where}: first differs at event {i} ({f'round {k}' if k else 'setup'}): "
                   f"expected {exp}, got {act}")
        ctx = [f"event {j}: {describe(tuple(ev_w[j]), r)}" for j in range(max(0, i - 3), i)]
        return GameDiff(spec, g, summary, [*(["same events before:", *ctx] if ctx else []), replay])
    for p, (a, b) in enumerate(zip(want["records"], got["records"], strict=False)):
        moved = [f"{f} {x} -> {y}" for f, x, y in zip(RESULT_FIELDS, a, b, strict=False) if x != y]
        if moved:
            return GameDiff(spec, g, f"{where}: same action log, result differs for player {p}: "
                            + ", ".join(moved[:6]), [replay])
    if want.get("sha256") != digest(ev_w, want["records"]):
        return GameDiff(spec, g, f"{where}: stored digest does not match the stored log (edited by hand?)",
                        [f"refresh with: {UPDATE}"])
    return None


def _why(data: dict[str, Any], fresh: list[dict[str, Any]], moved: bool) -> list[str]:
    now = header()
    changed = [c["spec"] for c, f in zip(data["configs"], fresh, strict=True) if c.get("rules_fingerprint")
               != f["rules_fingerprint"]]
    if changed:
        what = "and games moved" if moved else "but no golden game moved"
        return [f"the Duo rules or board data changed for {len(changed)} configuration(s) ({changed[0]}, ...) "
                f"{what}: if deliberate, record it with: {UPDATE}"]
    if data.get("bots_digest") != now["bots_digest"]:
        what = "and games moved" if moved else "but no golden game moved (not a failure)"
        return [f"the Duo bot weights (sim/data/duo/bots.toml) changed {what}: if deliberate, record it with: {UPDATE}"]
    if moved:
        return [f"Duo behaviour changed with unchanged rules data, so the engine code changed: if deliberate, "
                f"refresh with: {UPDATE}; otherwise it is a bug"]
    return []


def compare_sets(data: dict[str, Any], fresh: list[dict[str, Any]], rep: GoldenReport) -> None:
    seed = int(data["seed"])
    for entry, new in zip(data["configs"], fresh, strict=True):
        rep.configs += 1
        for want, got in zip(entry["games"], new["games"], strict=True):
            rep.games += 1
            if want["events"] == got["events"] and want["records"] == got["records"] \
                    and want.get("sha256") == got["sha256"]:
                continue
            d = compare_game(entry["spec"], seed, want, got)
            if d is not None:
                rep.diffs.append(d)


def check_duo_golden(data: dict[str, Any]) -> GoldenReport:
    """Play every stored Duo game again and compare, event by event."""
    if data.get("record_fields") != list(RESULT_FIELDS):
        raise UserError(f"the Duo result records changed fields; record the new ones with: {UPDATE}")
    seed, games = int(data["seed"]), int(data["games_per_config"])
    fresh = [{"rules_fingerprint": rules_of(c["spec"]).fingerprint(), "games": play(c["spec"], seed, games)}
             for c in data["configs"]]
    rep = GoldenReport()
    compare_sets(data, fresh, rep)
    rep.notes += _why(data, fresh, bool(rep.diffs))
    rep.stale = not rep.diffs and bool(rep.notes)
    return rep


def update_duo_golden(path: Path) -> tuple[GoldenReport | None, dict[str, Any]]:
    """Remake the Duo golden file at ``path`` (same specs, seed and game count); what moved, and the new data."""
    old = load(path) if path.exists() else None
    if old is None:
        new = make_duo_golden()
        save(new, path)
        return None, new
    new = make_duo_golden([c["spec"] for c in old["configs"]], int(old["seed"]), int(old["games_per_config"]))
    rep = GoldenReport()
    if old.get("record_fields") == new["record_fields"]:
        compare_sets(old, new["configs"], rep)
    save(new, path)
    return rep, new
