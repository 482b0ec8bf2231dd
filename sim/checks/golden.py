"""Golden games: seeded games whose whole outcome is committed, so any change in behaviour shows.

``tests/golden/golden.json`` holds, for every configuration of ``DEFAULT_SPECS``
(every player count with both bots, every variant and expansion alone and in
combinations, Crossroads at every player count, the heuristic and tuned bots), ``GAMES`` games of seed ``SEED``: each game's full action log
(int16 rows, zlib-compressed, base64) and result records, and a SHA-256 of both.
The file also records the rules version, the rules fingerprint and a digest of
the bot weights it was made with.

``check_golden`` replays every stored game and compares it event by event; the
first difference is located by game and turn and printed as readable events.
``make_golden`` (``tokaido-sim check golden --update``) rewrites the file after a
deliberate change.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import re
import zlib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from kernels.core import enums as E
from sim.rules.config import GameConfig
from sim.run import engine

FORMAT = 1
SEED = 20250101
GAMES = 5
GOLDEN_PATH = Path(__file__).resolve().parents[2] / "tests" / "golden" / "golden.json"
RULES_TOML = "sim/data/rules.toml"

DEFAULT_SPECS = (
    *(f"players={n},bots=greedy" for n in range(2, 6)),
    *(f"players={n},bots=random" for n in range(2, 6)),
    "players=4,variants=initiation",
    "players=4,variants=return-trip",
    "players=4,variants=gastronomy",
    "players=4,variants=preparations",
    "players=4,expansions=new-encounters",
    "players=2,variants=preparations",
    "players=3,variants=gastronomy,bots=random",
    "players=5,variants=return-trip",
    "players=3,variants=initiation,expansions=new-encounters",
    "players=4,variants=gastronomy+preparations",
    "players=2,variants=return-trip+gastronomy,expansions=new-encounters",
    "players=5,variants=return-trip+gastronomy+preparations,expansions=new-encounters",
    "players=3,variants=initiation+return-trip+gastronomy+preparations,expansions=new-encounters,bots=random",
    "players=3,travelers=random",
    "players=4,travelers=kinko+hiroshige+satsuki+umegae,bots=greedy+random+greedy+random",
    "players=5,expansions=new-encounters,bots=random+greedy+greedy+random+greedy",
    *(f"players={n},expansions=crossroads" for n in range(2, 6)),
    "players=3,expansions=crossroads,bots=random",
    "players=4,variants=gastronomy+preparations,expansions=crossroads+new-encounters,bots=random+greedy+greedy+random",
    "players=4,expansions=crossroads,bots=heuristic+tuned+greedy+random",
    # Matsuri cards (issue 14)
    "players=2,expansions=crossroads+matsuri",
    "players=4,expansions=crossroads+matsuri",
    "players=4,variants=return-trip+gastronomy,expansions=crossroads+matsuri+new-encounters,"
    "bots=random+greedy+heuristic+greedy",
    # the Matsuri Travelers (with or without the Matsuri cards, these name each ability once)
    "players=5,expansions=crossroads+matsuri,travelers=ayumu+chihaya+iyasaka+kamui+kidzuna",
    "players=5,expansions=crossroads+matsuri,travelers=kushinada+mari+marihito+misaki+musubi,bots=random",
    "players=5,expansions=crossroads+matsuri,travelers=mutsumi+rakuren+suseri+takeru+titia,bots=expert",
    "players=2,expansions=crossroads+matsuri,travelers=yashima+musubi",
    "players=4,expansions=crossroads+matsuri,set:draft.dealt=3,bots=heuristic+tuned+greedy+random",
    "players=3,expansions=crossroads+promos,set:draft.mode=free",
    # promo Travelers (issue 15)
    "players=4,expansions=promos,travelers=antoine+naiade+eriku+felicia",
    "players=3,expansions=crossroads+promos,travelers=felicia+eriku+naiade,bots=random",
    "players=5,expansions=promos,travelers=random,bots=expert",
)

# field names of each event kind (docs/log-format.md), for readable differences
EV_FIELDS: dict[int, tuple[str, ...]] = {
    E.Ev.DECK: ("", "deck", "card"),
    E.Ev.DEAL: ("player", "traveler", "traveler2", "traveler3"),
    E.Ev.KEEP: ("player", "traveler"),
    E.Ev.LINEUP: ("traveler", "order"),
    E.Ev.COINS: ("player", "coins"),
    E.Ev.MOVE: ("traveler", "space", "controller"),
    E.Ev.DRAW: ("traveler", "deck", "card"),
    E.Ev.GAIN: ("traveler", "deck", "card", "paid"),
    E.Ev.UNDER: ("", "deck", "card"),
    E.Ev.DONATE: ("traveler", "coins", "bank"),
    E.Ev.PANORAMA: ("traveler", "type", "source"),
    E.Ev.OPTION: ("traveler", "option", "yes"),
    E.Ev.OFFER: ("traveler", "card"),
    E.Ev.END: (),
    E.Ev.MT_COIN: ("traveler", "coins", "from", "ability"),
    E.Ev.DUEL: ("traveler", "opponent", "deck", "card", "rounds"),
    E.Ev.RPS: ("traveler", "round", "won"),
    E.Ev.LOOK: ("traveler", "card", "at_inn"),
}
EV_NAMES = {v: k for k, v in E.Ev._asdict().items()}


def describe_event(row: Any) -> str:
    """One event as text, e.g. ``MOVE traveler=2 space=17 controller=2``."""
    kind, *vals = (int(x) for x in row)
    names = EV_FIELDS.get(kind, ("t", "a", "b", "c", "d"))
    parts = [EV_NAMES.get(kind, f"kind{kind}")]
    parts += [f"{n}={v}" for n, v in zip(names, vals, strict=False) if n and v != -1]
    return " ".join(parts)


MEASURED_ONLY = ("agreement-",)  # sim.tuning.agreement.TABLE_PREFIX: a measurement of the bots, read by no bot


def bots_digest() -> str:
    """Short hash of the bot weights (``sim/data/bots.toml``, ``sim/data/bots/*.toml`` but the agreement
    tables, which no bot reads; not in the rules fingerprint)."""
    root = resources.files("sim.data")
    h = hashlib.sha256((root / "bots.toml").read_text().encode())
    folder = root / "bots"
    if folder.is_dir():
        for f in sorted(folder.iterdir(), key=lambda f: f.name):
            if f.name.endswith(".toml") and not f.name.startswith(MEASURED_ONLY):
                h.update(f.name.encode() + b"\0" + f.read_text().encode())
    return h.hexdigest()[:16]


def encode_events(events: np.ndarray) -> str:
    return base64.b64encode(zlib.compress(events.astype("<i2").tobytes(), 9)).decode("ascii")


def decode_events(text: str) -> np.ndarray:
    raw = zlib.decompress(base64.b64decode(text))
    return np.frombuffer(raw, "<i2").reshape(-1, E.EV_FIELDS).copy()


def digest(events: np.ndarray, rows: list[list[int]]) -> str:
    h = hashlib.sha256(events.astype("<i2").tobytes())
    h.update(np.asarray(rows, "<i8").tobytes())
    return h.hexdigest()


def with_overrides(config: GameConfig, overrides: tuple[tuple[str, Any], ...]) -> GameConfig:
    return dataclasses.replace(config, overrides=(*config.overrides, *overrides)) if overrides else config


def play(config: GameConfig, seed: int, games: int) -> list[dict[str, Any]]:
    """The golden entries of games ``0..games-1`` of ``config`` with ``seed``."""
    batch = engine.play_games(config, config.rules(), seed, 0, games, log=True)
    fields = list(batch.records.dtype.names or ())
    n = config.n_players
    out = []
    for i in range(games):
        ev = np.array(batch.game_events(i))
        recs = batch.records[i * n : (i + 1) * n]
        rows = [[int(r[f]) for f in fields] for r in recs]
        out.append({"game": i, "sha256": digest(ev, rows), "n_events": len(ev),
                    "events": encode_events(ev), "records": rows})
    return out


def header() -> dict[str, Any]:
    rules = GameConfig().rules()
    from kernels.core.records import RESULT_DTYPE

    return {"format": FORMAT, "rules_version": rules.version, "rules_fingerprint": rules.fingerprint(),
            "bots_digest": bots_digest(), "record_fields": list(RESULT_DTYPE.names or ())}


def make_golden(specs: tuple[str, ...] | list[str] = DEFAULT_SPECS, seed: int = SEED,
                games: int = GAMES) -> dict[str, Any]:
    """A fresh golden set of the current engine and rules."""
    configs = []
    for spec in specs:
        cfg = GameConfig.parse(spec)
        configs.append({"spec": cfg.spec(), "rules_fingerprint": cfg.rules().fingerprint(),
                        "games": play(cfg, seed, games)})
    return {**header(), "seed": seed, "games_per_config": games, "configs": configs}


def load(path: Path) -> dict[str, Any]:
    from sim.errors import UserError

    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise UserError(f"{path} does not exist; make it with: tokaido-sim check golden --update --file {path}") from None
    except (OSError, ValueError) as exc:
        raise UserError(f"{path} is not a readable golden file ({exc}); refresh it with --update") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or "configs" not in data:
        raise UserError(f"{path} is not a golden file of format {FORMAT}; refresh it with --update")
    return data


def save(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    text = json.dumps(data, indent=1)
    text = re.sub(r"\[[-\d,\s]*\]", lambda m: json.dumps(json.loads(m.group(0))), text)  # rows on one line
    tmp.write_text(text + "\n")
    tmp.replace(path)


# ------------------------------------------------------------------ compare
@dataclass
class GameDiff:
    spec: str
    game: int
    summary: str  # one line: where it differs
    detail: list[str] = field(default_factory=list)


@dataclass
class GoldenReport:
    games: int = 0
    configs: int = 0
    diffs: list[GameDiff] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # why, and what to do
    stale: bool = False  # the file's rules or bots differ from the current ones (no game moved)

    @property
    def ok(self) -> bool:
        return not self.diffs and not self.stale

    def lines(self, max_games: int = 10) -> list[str]:
        out = []
        if self.diffs:
            out.append(f"golden: {len(self.diffs)} of {self.games} games differ "
                       f"({len({d.spec for d in self.diffs})} of {self.configs} configurations)")
            first = self.diffs[0]
            out += [first.summary, *("  " + x for x in first.detail)]
            if len(self.diffs) > 1:
                out.append("other differing games:")
                out += ["  " + d.summary for d in self.diffs[1 : max_games + 1]]
                if len(self.diffs) > max_games + 1:
                    out.append(f"  ... and {len(self.diffs) - max_games - 1} more")
        else:
            out.append(f"golden: all {self.games} games of {self.configs} configurations are unchanged")
        return out + self.notes


def turn_of(events: np.ndarray, i: int) -> int:
    """The turn event ``i`` belongs to: 0 in the setup, k from the k-th MOVE on."""
    return int((events[: i + 1, 0] == E.Ev.MOVE).sum())


def replay_command(config: GameConfig, seed: int, game: int) -> str:
    from sim.rules.overrides import format_value

    opts = [f"--players {config.n_players}", f"--travelers {config.travelers}", f"--bots {','.join(config.bots)}"]
    if config.variants:
        opts.append(f"--variants {','.join(config.variants)}")
    if config.expansions:
        opts.append(f"--expansions {','.join(config.expansions)}")
    opts += [f"--set {k}={format_value(v)}" for k, v in config.overrides]
    return f"tokaido-sim replay --seed {seed} --game {game} " + " ".join(opts)


def compare_game(spec: str, config: GameConfig, seed: int, fields: list[str], want: dict[str, Any],
                 got: dict[str, Any], stored_rows: list[list[int]]) -> GameDiff | None:
    """Where game ``want`` (stored) and ``got`` (played now) first differ, or None.

    Both hold the records of ``fields`` only; ``stored_rows`` are the stored records as stored.
    """
    ev_w, ev_g = decode_events(want["events"]), decode_events(got["events"])
    g = int(want["game"])
    where = f"game {g} of {spec}"
    replay = f"replay it: {replay_command(config, seed, g)}"
    n = min(len(ev_w), len(ev_g))
    neq = np.flatnonzero((ev_w[:n] != ev_g[:n]).any(axis=1))
    if len(neq) or len(ev_w) != len(ev_g):
        i = int(neq[0]) if len(neq) else n
        t = turn_of(ev_w if i < len(ev_w) else ev_g, i)
        exp = describe_event(ev_w[i]) if i < len(ev_w) else "(end of log)"
        act = describe_event(ev_g[i]) if i < len(ev_g) else "(end of log)"
        ref = ev_w if i < len(ev_w) else ev_g
        moves = np.flatnonzero(ref[: i + 1, 0] == E.Ev.MOVE)
        turn = "setup" if t == 0 else f"turn {t}, which began {describe_event(ref[moves[-1]])}"
        summary = f"{where}: first differs at event {i} ({turn}): expected {exp}, got {act}"
        ctx = [f"event {j}: {describe_event(ev_w[j])}" for j in range(max(0, i - 3), i)]
        return GameDiff(spec, g, summary, [*(["same events before:"] + ctx if ctx else []), replay])
    rw, rg = want["records"], got["records"]
    for p, (a, b) in enumerate(zip(rw, rg, strict=False)):
        moved = [f"{f} {x} -> {y}" for f, x, y in zip(fields, a, b, strict=False) if x != y]
        if moved:
            summary = f"{where}: same action log, result differs for player {p}: " + ", ".join(moved[:6])
            return GameDiff(spec, g, summary, [replay])
    if want.get("sha256") != digest(ev_w, stored_rows):
        return GameDiff(spec, g, f"{where}: stored digest does not match the stored log (edited by hand?)",
                        ["refresh with: tokaido-sim check golden --update"])
    return None


def _project(rows: list[list[int]], fields: list[str], keep: list[str]) -> list[list[int]]:
    idx = [fields.index(f) for f in keep]
    return [[r[i] for i in idx] for r in rows]


def compare_sets(old: dict[str, Any], played: list[tuple[GameConfig, list[dict[str, Any]]]],
                 rep: GoldenReport) -> None:
    """Compare the stored games with games played now, on the record fields both have."""
    fields, cur = list(old.get("record_fields", [])), list(header()["record_fields"])
    common = [f for f in fields if f in cur]
    seed = int(old["seed"])
    for entry, (config, fresh) in zip(old["configs"], played, strict=True):
        rep.configs += 1
        for want, got in zip(entry["games"], fresh, strict=True):
            rep.games += 1
            if fields == cur and want.get("sha256") == got["sha256"] and want["events"] == got["events"] \
                    and want["records"] == got["records"]:
                continue
            w = {**want, "records": _project(want["records"], fields, common)}
            g = {**got, "records": _project(got["records"], cur, common)}
            d = compare_game(entry["spec"], config, seed, common, w, g, want["records"])
            if d is not None:
                rep.diffs.append(d)
    if fields != cur:
        gone, new = [f for f in fields if f not in cur], [f for f in cur if f not in fields]
        rep.notes.append(f"the result records changed fields (removed {gone}, added {new}); the games were "
                         "compared on the others; record the new fields with: tokaido-sim check golden --update")


def check_golden(data: dict[str, Any], overrides: tuple[tuple[str, Any], ...] = ()) -> GoldenReport:
    """Play every stored game again (with ``overrides`` added to each config) and compare."""
    now = header()
    rep = GoldenReport()
    played = []
    for entry in data["configs"]:
        config = with_overrides(GameConfig.parse(entry["spec"]), overrides)
        played.append((config, play(config, int(data["seed"]), len(entry["games"]))))
    compare_sets(data, played, rep)
    rep.notes += explain(data, now, overrides, bool(rep.diffs))
    rep.stale = not overrides and not rep.diffs and (
        any(data.get(k) != now[k] for k in ("rules_version", "rules_fingerprint", "record_fields")))
    return rep


def explain(data: dict[str, Any], now: dict[str, Any], overrides: tuple[tuple[str, Any], ...],
            moved: bool) -> list[str]:
    """Why the games moved (or why the file is stale), and what to do."""
    v0, v1 = data.get("rules_version"), now["rules_version"]
    f0, f1 = data.get("rules_fingerprint"), now["rules_fingerprint"]
    b0, b1 = data.get("bots_digest"), now["bots_digest"]
    update = "tokaido-sim check golden --update"
    if overrides:
        sets = " ".join(f"--set {k}={v}" for k, v in overrides)
        return [f"(games played with {sets}: differences are what these overrides change)"] if moved else []
    if v0 != v1:
        return [f"rules version changed ({v0} -> {v1}): if the change is deliberate, refresh with: {update}"]
    if f0 != f1:
        if moved:
            return [f"behaviour changed: the rules data changed (fingerprint {f0} -> {f1}) but the rules version "
                    f"is still {v1}: bump `version` in {RULES_TOML}, then run: {update}"]
        return [f"the rules data changed (fingerprint {f0} -> {f1}) but no golden game moved: if behaviour "
                f"is unchanged record it with: {update}; if it changed, bump `version` in {RULES_TOML} first"]
    if b0 != b1:
        what = "and games moved" if moved else "but no golden game moved (not a failure)"
        return [f"the bot weights (sim/data/bots*.toml) changed ({b0} -> {b1}) {what}: "
                f"if deliberate, record it with: {update}"]
    if moved:
        return ["behaviour changed with unchanged rules data, so the engine code changed: if deliberate, bump "
                f"`version` in {RULES_TOML} and refresh with: {update}; otherwise it is a bug"]
    return []


def update_golden(path: Path, force: bool = False) -> tuple[GoldenReport | None, dict[str, Any], bool]:
    """Remake the golden file at ``path`` (same configurations, seed and game count).

    Returns (what changed against the old file or None if there was none, the new
    data, whether it was written). Refuses (written = False) when games moved but
    the rules version did not, unless ``force``.
    """
    old = load(path) if path.exists() else None
    if old is None:
        new = make_golden()
        save(new, path)
        return None, new, True
    specs = [c["spec"] for c in old["configs"]]
    known = set(specs)
    if Path(path).resolve() == GOLDEN_PATH:  # the project's file also takes configurations added to
        # DEFAULT_SPECS since it was made (nothing to compare them with)
        specs += [s for s in (GameConfig.parse(d).spec() for d in DEFAULT_SPECS) if s not in known]
    new = make_golden(specs, int(old["seed"]), int(old["games_per_config"]))
    rep = GoldenReport()
    compare_sets(old, [(GameConfig.parse(c["spec"]), c["games"]) for c in new["configs"] if c["spec"] in known], rep)
    moved = bool(rep.diffs)
    if moved and old.get("rules_version") == new["rules_version"] and not force:
        rep.notes.append(f"behaviour changed but the rules version is still {new['rules_version']}: bump "
                         f"`version` in {RULES_TOML} and run --update again (or --force to keep the version)")
        return rep, new, False
    save(new, path)
    return rep, new, True
