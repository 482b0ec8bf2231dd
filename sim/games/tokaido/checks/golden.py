"""Tokaido's golden games (``sim.checks.golden`` does the storing, comparing and updating): ``SUITE``.

``tests/golden/golden.json`` holds, for every configuration of ``DEFAULT_SPECS`` (every player
count with both bots, every variant and expansion alone and in combinations, Crossroads at every
player count, the heuristic, tuned and expert bots), ``GAMES`` games of seed ``SEED``, under the
rules version, the rules fingerprint and a digest of the bot weights it was made with. A change
of behaviour needs a new rules version (``refuse_update``); ``check golden --set KEY=VALUE``
plays the stored games with an override added, to see what it changes.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from kernels.tokaido.core import enums as E
from kernels.tokaido.core.records import RESULT_DTYPE
from sim.checks.golden import UPDATE, Overrides, Played
from sim.games.tokaido import engine
from sim.games.tokaido.rules.config import GameConfig

SEED = 20250101
GAMES = 5
GOLDEN_PATH = Path(__file__).resolve().parents[4] / "tests" / "golden" / "golden.json"
RULES_TOML = "sim/games/tokaido/data/rules.toml"

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
    # Matsuri cards
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
    # promo Travelers
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


MEASURED_ONLY = (
    "agreement-",
)  # sim.games.tokaido.tuning.agreement.TABLE_PREFIX: a measurement of the bots, read by no bot


def bots_digest() -> str:
    """Short hash of the bot weights (``sim/games/tokaido/data/bots.toml``,
    ``sim/games/tokaido/data/bots/*.toml`` but the agreement
    tables, which no bot reads; not in the rules fingerprint)."""
    root = resources.files("sim.games.tokaido.data")
    h = hashlib.sha256((root / "bots.toml").read_text().encode())
    folder = root / "bots"
    if folder.is_dir():
        for f in sorted(folder.iterdir(), key=lambda f: f.name):
            if f.name.endswith(".toml") and not f.name.startswith(MEASURED_ONLY):
                h.update(f.name.encode() + b"\0" + f.read_text().encode())
    return h.hexdigest()[:16]


def with_overrides(config: GameConfig, overrides: tuple[tuple[str, Any], ...]) -> GameConfig:
    return dataclasses.replace(config, overrides=(*config.overrides, *overrides)) if overrides else config


def turn_of(events: np.ndarray, i: int) -> int:
    """The turn event ``i`` belongs to: 0 in the setup, k from the k-th MOVE on."""
    return int((events[: i + 1, 0] == E.Ev.MOVE).sum())


def explain(data: dict[str, Any], now: dict[str, Any], overrides: Overrides, moved: bool) -> list[str]:
    """Why the games moved (or why the file is stale), and what to do."""
    v0, v1 = data.get("rules_version"), now["rules_version"]
    f0, f1 = data.get("rules_fingerprint"), now["rules_fingerprint"]
    b0, b1 = data.get("bots_digest"), now["bots_digest"]
    update = UPDATE
    if overrides:
        sets = " ".join(f"--set {k}={v}" for k, v in overrides)
        return [f"(games played with {sets}: differences are what these overrides change)"] if moved else []
    if v0 != v1:
        return [f"rules version changed ({v0} -> {v1}): if the change is deliberate, refresh with: {update}"]
    if f0 != f1:
        if moved:
            return [
                f"behaviour changed: the rules data changed (fingerprint {f0} -> {f1}) but the rules version "
                f"is still {v1}: bump `version` in {RULES_TOML}, then run: {update}"
            ]
        return [
            f"the rules data changed (fingerprint {f0} -> {f1}) but no golden game moved: if behaviour "
            f"is unchanged record it with: {update}; if it changed, bump `version` in {RULES_TOML} first"
        ]
    if b0 != b1:
        what = "and games moved" if moved else "but no golden game moved (not a failure)"
        return [
            f"the bot weights (sim/games/tokaido/data/bots*.toml) changed ({b0} -> {b1}) {what}: "
            f"if deliberate, record it with: {update}"
        ]
    if moved:
        return [
            "behaviour changed with unchanged rules data, so the engine code changed: if deliberate, bump "
            f"`version` in {RULES_TOML} and refresh with: {update}; otherwise it is a bug"
        ]
    return []


def header() -> dict[str, Any]:
    rules = GameConfig().rules()
    return {
        "rules_version": rules.version,
        "rules_fingerprint": rules.fingerprint(),
        "bots_digest": bots_digest(),
        "record_fields": list(RESULT_DTYPE.names or ()),
    }


def play(config: GameConfig, seed: int, games: int) -> list[Played]:
    """Games ``0..games-1`` of ``config`` with ``seed``: each one's action log and result records."""
    batch = engine.play_games(config, config.rules(), seed, 0, games, log=True)
    fields = list(batch.records.dtype.names or ())
    return [
        (np.array(batch.game_events(i)), [[int(r[f]) for f in fields] for r in batch.game_records(i)])
        for i in range(games)
    ]


class TokaidoGolden:
    """Tokaido's ``sim.checks.golden.GoldenSuite``."""

    game = "tokaido"
    path = GOLDEN_PATH
    seed = SEED
    games = GAMES
    log_fields = E.EV_FIELDS

    def specs(self) -> list[str]:
        return [GameConfig.parse(s).spec() for s in DEFAULT_SPECS]

    def header(self) -> dict[str, Any]:
        return header()

    def fingerprint(self, spec: str) -> str:
        return GameConfig.parse(spec).rules().fingerprint()

    def play(self, spec: str, seed: int, games: int, overrides: Overrides = ()) -> list[Played]:
        return play(with_overrides(GameConfig.parse(spec), overrides), seed, games)

    def describe_event(self, spec: str, row: Sequence[int]) -> str:
        return describe_event(row)

    def where(self, events: np.ndarray, i: int) -> str:
        t = turn_of(events, i)
        moves = np.flatnonzero(events[: i + 1, 0] == E.Ev.MOVE)
        return "setup" if t == 0 else f"turn {t}, which began {describe_event(events[moves[-1]])}"

    def replay_command(self, spec: str, seed: int, game: int, overrides: Overrides = ()) -> str:
        config = with_overrides(GameConfig.parse(spec), overrides)
        return f"tokaido-sim replay --seed {seed} --game {game} {config.cli_args()}"

    def explain(
        self, data: dict[str, Any], now: dict[str, Any], fresh: list[str], overrides: Overrides, moved: bool
    ) -> list[str]:
        return explain(data, now, overrides, moved)

    def stale(self, data: dict[str, Any], now: dict[str, Any], fresh: list[str], notes: list[str]) -> bool:
        return any(data.get(k) != now[k] for k in ("rules_version", "rules_fingerprint", "record_fields"))

    def refuse_update(self, old: dict[str, Any], new: dict[str, Any]) -> str | None:
        if old.get("rules_version") != new["rules_version"]:
            return None
        return (
            f"behaviour changed but the rules version is still {new['rules_version']}: bump `version` in "
            f"{RULES_TOML} and run --update again (or --force to keep the version)"
        )


SUITE = TokaidoGolden()
