"""Tokaido's playthroughs (``sim.checks.playthrough`` writes and checks them): ``SET``.

Each entry of :data:`PLAYTHROUGHS` names one configuration, one seed and one game index.
:func:`write_playthrough` plays that game with the action log on, replays it through the referee
and returns the text: a header (config spec, seed, game, rules version, the referee's verdict), the
referee's turn-by-turn narration, the final table and the raw event log (one event a line, named
kinds and fields).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernels.tokaido.core.enums import DECK_NAMES, Ev
from sim.checks.playthrough import COMMAND, SECTION
from sim.games.tokaido.rules.config import GameConfig

HEADER = "# tokaido-sim playthrough"

TRAVELERS_A = "hiroshige,chuubei,kinko,yoshiyasu,satsuki"
TRAVELERS_B = "mitsukuni,sasayakko,hirotada,umegae,zen-emon"
TRAVELERS_C = "daigoro,gotozaemon,jirocho,kita,miyataka"  # Crossroads
MATSURI_GROUPS = (
    "ayumu+chihaya+iyasaka+kamui+kidzuna",
    "kushinada+mari+marihito+misaki+musubi",
    "mutsumi+rakuren+suseri+takeru+titia",
)  # Yashima: promos-3p


@dataclass(frozen=True)
class Playthrough:
    name: str
    spec: str  # GameConfig.spec() form
    seed: int
    game: int

    def config(self) -> GameConfig:
        return GameConfig.parse(self.spec)


PLAYTHROUGHS: tuple[Playthrough, ...] = (
    Playthrough("base-2p", "players=2", 101, 0),
    Playthrough("base-3p", "players=3", 102, 1),
    Playthrough("base-4p", "players=4", 103, 2),
    Playthrough("base-5p", "players=5", 104, 3),
    Playthrough("initiation-4p", "players=4,variants=initiation", 105, 4),
    Playthrough("return-trip-3p", "players=3,variants=return-trip", 106, 5),
    Playthrough("gastronomy-4p", "players=4,variants=gastronomy", 107, 6),
    Playthrough("preparations-5p", "players=5,variants=preparations", 108, 7),
    Playthrough("new-encounters-4p", "players=4,expansions=new-encounters", 109, 8),
    Playthrough(
        "all-variants-2p",
        "players=2,variants=initiation+return-trip+gastronomy+preparations,expansions=new-encounters",
        110,
        9,
    ),
    Playthrough("random-bots-4p", "players=4,travelers=random,bots=random", 111, 10),
    Playthrough("mixed-bots-3p", "players=3,travelers=random,bots=greedy+random+greedy", 112, 11),
    Playthrough("travelers-a-5p", "players=5,travelers=" + TRAVELERS_A.replace(",", "+"), 113, 12),
    Playthrough(
        "travelers-b-5p",
        "players=5,expansions=new-encounters,travelers=" + TRAVELERS_B.replace(",", "+"),
        114,
        13,
    ),
    Playthrough(
        "travelers-gastronomy-preparations-2p",
        "players=2,variants=gastronomy+preparations,travelers=satsuki+hiroshige",
        115,
        14,
    ),
    Playthrough("crossroads-4p", "players=4,expansions=crossroads", 116, 15),
    Playthrough(
        "travelers-c-crossroads-5p",
        "players=5,expansions=crossroads,travelers=" + TRAVELERS_C.replace(",", "+"),
        117,
        16,
    ),
    Playthrough(
        "crossroads-all-3p",
        "players=3,variants=return-trip+gastronomy+preparations,expansions=new-encounters+crossroads,"
        "travelers=nampo+umegae+chuubei,bots=greedy+random+greedy",
        118,
        17,
    ),
    Playthrough("heuristic-bots-3p", "players=3,bots=heuristic", 119, 18),
    Playthrough("tuned-bots-4p", "players=4,bots=tuned,expansions=crossroads", 120, 19),
    Playthrough("search-bots-2p", "players=2,bots=search", 121, 20),
    Playthrough("mixed-bots-5p", "players=5,bots=search+tuned+heuristic+greedy+random", 122, 21),
    Playthrough("expert-bots-4p", "players=4,bots=expert,expansions=crossroads", 123, 22),
    Playthrough("matsuri-2p", "players=2,expansions=crossroads+matsuri", 124, 23),
    Playthrough(
        "matsuri-4p",
        "players=4,variants=return-trip,expansions=crossroads+matsuri+new-encounters,bots=greedy+heuristic+random+greedy",
        125,
        24,
    ),
    *(
        Playthrough(
            f"matsuri-travelers-{k}-5p",
            "players=5,expansions=crossroads+matsuri,travelers=" + group,
            124 + 10 * k,
            23 + k,
        )
        for k, group in enumerate(MATSURI_GROUPS)
    ),
    Playthrough("promos-3p", "players=3,expansions=crossroads+promos,travelers=titia+yashima+kinko", 126, 27),
    Playthrough(
        "promos-4p", "players=4,expansions=crossroads+promos,travelers=antoine+naiade+eriku+felicia", 124, 23
    ),
)
AWAITS_REFEREE: tuple[str, ...] = ()

BY_NAME = {p.name: p for p in PLAYTHROUGHS}

# the meaning of fields (t, a, b, c, d) of each event kind (docs/log-format.md)
FIELDS: dict[int, tuple[str, ...]] = {
    Ev.DECK: ("", "deck", "card"),
    Ev.DEAL: ("player", "traveler", "traveler2"),
    Ev.KEEP: ("player", "traveler"),
    Ev.LINEUP: ("traveler", "order"),
    Ev.COINS: ("player", "coins"),
    Ev.MOVE: ("traveler", "space", "controller"),
    Ev.DRAW: ("traveler", "deck", "card"),
    Ev.GAIN: ("traveler", "deck", "card", "paid"),
    Ev.UNDER: ("", "deck", "card"),
    Ev.DONATE: ("traveler", "coins", "bank"),
    Ev.PANORAMA: ("traveler", "type", "source"),
    Ev.OPTION: ("traveler", "option", "choice"),
    Ev.OFFER: ("traveler", "card"),
    Ev.END: (),
    Ev.MATSURI: ("chooser", "card", "rejected", "inn", "extra"),
    Ev.TOKEN: ("traveler", "kind", "points", "card", "detail"),
    Ev.PICK: ("traveler", "deck", "card", "matsuri"),
    Ev.CLOSE: ("", "space", "full", "card"),
    Ev.DUEL: ("traveler", "opponent", "deck", "card", "rounds"),
    Ev.RPS: ("traveler", "round", "won"),
    Ev.LOOK: ("traveler", "card", "at_inn"),
}
KIND_NAMES = {v: k for k, v in Ev._asdict().items()}


def format_event(index: int, row: list[int]) -> str:
    """``index KIND name=value ...``; decks are named, -1 fields are left out."""
    kind = row[0]
    names = FIELDS.get(kind, ("t", "a", "b", "c", "d"))
    parts = []
    for name, value in zip(names, row[1:], strict=False):
        if not name or value == -1:
            continue
        if name == "deck" and 0 <= value < len(DECK_NAMES):
            parts.append(f"deck={DECK_NAMES[value]}")
        else:
            parts.append(f"{name}={value}")
    return f"{index:4d} {KIND_NAMES.get(kind, f'?{kind}'):<8} {' '.join(parts)}".rstrip()


def format_events(events: np.ndarray) -> list[str]:
    return [format_event(i, row) for i, row in enumerate(events.tolist())]


def play(p: Playthrough) -> tuple[GameConfig, str, np.ndarray, object]:
    """Play the playthrough's game with the log; referee it. Returns (config, rules version, log, result)."""
    from sim.games.tokaido.engine import play_games
    from sim.games.tokaido.referee.game import referee_game, rows_from_records

    config = p.config()
    rules = config.rules()
    batch = play_games(config, rules, p.seed, p.game, 1, log=True)
    events = batch.game_events(0)
    result = referee_game(config, rules, events, rows_from_records(batch.records), narrate=True)
    return config, rules.version, events, result


def write_playthrough(name: str) -> str:
    """The text of playthrough ``name`` (see the module docstring)."""
    if name not in BY_NAME:
        raise KeyError(f"unknown playthrough '{name}'; choose from: {', '.join(BY_NAME)}")
    p = BY_NAME[name]
    config, version, events, result = play(p)
    narration = list(result.narration)  # type: ignore[attr-defined]
    cut = next((i for i, line in enumerate(narration) if line.startswith("final ")), len(narration))
    turns, table = narration[:cut], narration[cut:]
    errors = list(result.errors)  # type: ignore[attr-defined]
    lines = [
        f"{HEADER}: {p.name}",
        f"# generated by sim/games/tokaido/checks/playthrough.py; if a change is intended, run `{COMMAND}`",
        f"config: {config.spec()}",
        f"seed: {p.seed}",
        f"game: {p.game}",
        f"rules version: {version}",
        "referee: " + ("ok" if not errors else f"{len(errors)} problem(s)"),
        *(f"referee error: {e}" for e in errors),
        "",
        f"{SECTION} narration",
        *turns,
        "",
        f"{SECTION} final table",
        *(line.rstrip() for line in table),
        "",
        f"{SECTION} event log ({len(events)} events)",
        *format_events(events),
    ]
    return "\n".join(lines) + "\n"


class TokaidoPlaythroughs:
    """Tokaido's ``sim.checks.playthrough.PlaythroughSet``."""

    header = HEADER

    def names(self) -> list[str]:
        return [p.name for p in PLAYTHROUGHS]

    def write(self, name: str) -> str:
        return write_playthrough(name)


SET = TokaidoPlaythroughs()
