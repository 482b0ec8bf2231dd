"""Game records (``docs/game-record.md``): one game per JSON line, every action and card by name.

``game_record`` writes a simulated game (the kernel's action log, ``docs/log-format.md``) as a
record; ``read_record`` turns a record back into the referee's event stream. A real game's pile
order is known only as far as cards were drawn, so the piles' order is synthesised from the
draws made (``sim/games/tokaido/referee/record_piles.py``): a draw from a part of a pile nobody has seen may
be any card of
that name not yet accounted for; a draw of a card put under the pile must be that card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kernels.tokaido.core.enums import ABILITY_NAMES, N_DECKS, PANORAMA_NAMES, SPACE_NAMES, Deck, Ev, Opt
from sim.games.tokaido.referee.record_piles import Piles
from sim.games.tokaido.referee.state import POINT_COLUMNS
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules

FORMAT = "tokaido-sim game record 2"
FORMATS = ("tokaido-sim game record 1", FORMAT)  # 1: no Matsuri; a duel's card by id
FIELDS = ("format", "id", "config", "rules", "travelers", "lineup", "actions", "scores")
CONFIG_FIELDS = ("players", "variants", "expansions", "travelers", "set")
DECKS = (
    "souvenir",
    "meal",
    "hot spring",
    "encounter",
    "legendary object",
    "amulet",
    "calligraphy",
    "cherry tree",
    "bathhouse",
    "matsuri",
)
PILES = (Deck.SOUVENIR, Deck.MEAL, Deck.HOT_SPRING, Deck.ENCOUNTER, Deck.MATSURI)  # face down; 4..8 markets
PAN_SOURCES = ("station", "annaibito", "hiroshige", "kitoushi", "o-fune", "yama no ko")
OPTIONS = (
    "itamae",
    "kitoushi",
    "takuhatsuso",
    "hirotada",
    "start amulet",
    "jirocho",
    "annaibito",
    "o-bon",
    "hadaka",
    "yama no ko",
    "o-taue",
    "option 11",
    "mutsumi",
    "iyasaka",
    "kidzuna",
    "rakuren",
    "rakuren legendary",
    "option 17",
    "felicia",
    "second action",
    "option 20",
    "hanabi order",
)
CHOICES = (
    "base",
    "alternative",
    "both",
    "alternative first",
    "empty alternative",
)  # 4: online, nothing bought
DIE_SOURCES = ("gaming room", "jirocho", "fortune amulet", "o-shogatsu", "setsubun", "iyasaka's re-roll")
TOKENS = ("doll", "carp", "journey points")
BASE_COMPONENTS = tuple(c[4:] for c in POINT_COLUMNS[:9])
XR_COMPONENTS = tuple(c[4:] for c in POINT_COLUMNS[9:13])
MATSURI_COMPONENTS = ("matsuri",)

# kind -> (key, fields): (json name, event slot 1..5 = t a b c d, codec, optional)
# codecs: trav (traveler label), player, tile (a Traveler tile), card (of the deck in slot a; "card3": of
# the deck in slot b), meal, amulet, legendary, matsuri (a festival card), ability, int, bool, or a tuple
# of names indexed by the value
F = tuple[str, int, Any, bool]
SCHEMA: dict[int, tuple[str, tuple[F, ...]]] = {
    Ev.DEAL: (
        "deal",
        (
            ("player", 1, "player", False),
            ("traveler", 2, "tile", False),
            ("other", 3, "tile", True),
            ("third", 4, "tile", True),
        ),
    ),
    Ev.KEEP: ("keep", (("player", 1, "player", False), ("traveler", 2, "tile", False))),
    Ev.COINS: ("coins", (("traveler", 1, "trav", False), ("coins", 2, "int", False))),
    Ev.MOVE: (
        "move",
        (("traveler", 1, "trav", False), ("space", 2, "int", False), ("by", 3, "player", True)),
    ),
    Ev.DRAW: (
        "draw",
        (("traveler", 1, "trav", False), ("deck", 2, DECKS, False), ("card", 3, "card", False)),
    ),
    Ev.GAIN: (
        "gain",
        (
            ("traveler", 1, "trav", False),
            ("deck", 2, DECKS, False),
            ("card", 3, "card", True),
            ("paid", 4, "int", False),
        ),
    ),
    Ev.UNDER: ("under", (("deck", 2, DECKS, False), ("card", 3, "card", False))),
    Ev.DONATE: (
        "donate",
        (("traveler", 1, "trav", False), ("coins", 2, "int", False), ("bank", 3, "int", False)),
    ),
    Ev.PANORAMA: (
        "panorama",
        (
            ("traveler", 1, "trav", False),
            ("type", 2, PANORAMA_NAMES, False),
            ("source", 3, PAN_SOURCES, False),
        ),
    ),
    # o-Bon's option is a number of coins ("coins"), every other one a yes/no ("yes")
    Ev.OPTION: (
        "option",
        (
            ("traveler", 1, "trav", False),
            ("option", 2, OPTIONS, False),
            ("yes", 3, "bool", True),
            ("coins", 3, "int", True),
        ),
    ),
    Ev.OFFER: ("offer", (("traveler", 1, "trav", False), ("card", 2, "meal", False))),
    Ev.END: ("end", ()),
    Ev.MARKET: ("market", (("deck", 2, DECKS, False), ("card", 3, "card", True), ("count", 4, "int", False))),
    Ev.CHOICE: (
        "choice",
        (("traveler", 1, "trav", False), ("space", 2, SPACE_NAMES, False), ("option", 3, CHOICES, False)),
    ),
    Ev.DIE: (
        "die",
        (
            ("traveler", 1, "trav", False),
            ("face", 2, "int", False),
            ("bet", 3, "int", False),
            ("source", 4, DIE_SOURCES, False),
        ),
    ),
    Ev.USE: (
        "use",
        (("traveler", 1, "trav", False), ("amulet", 2, "amulet", False), ("arg", 3, "int", True)),
    ),
    # Matsuri (docs/log-format.md "Matsuri"); a reshuffled pile (Gion) is the action "reshuffle"
    Ev.MATSURI: (
        "matsuri",
        (
            ("traveler", 1, "trav", False),
            ("card", 2, "matsuri", False),
            ("rejected", 3, "matsuri", True),
            ("inn", 4, "int", False),
            ("hanabi", 5, "bool", False),
        ),
    ),
    Ev.TOKEN: (
        "token",
        (
            ("traveler", 1, "trav", False),
            ("kind", 2, TOKENS, False),
            ("points", 3, "int", False),
            ("matsuri", 4, "matsuri", False),
            ("detail", 5, "int", True),
        ),
    ),
    Ev.PICK: (
        "pick",
        (
            ("traveler", 1, "trav", False),
            ("deck", 2, DECKS, False),
            ("card", 3, "card", False),
            ("matsuri", 4, "matsuri", False),
        ),
    ),
    Ev.CLOSE: (
        "close",
        (("space", 2, "int", False), ("closed", 3, "bool", False), ("matsuri", 4, "matsuri", False)),
    ),
    Ev.MT_COIN: (
        "ability coin",
        (
            ("traveler", 1, "trav", False),
            ("coins", 2, "int", False),
            ("from", 3, "trav", True),
            ("ability", 4, "ability", False),
        ),
    ),
    Ev.MT_LEGEND: ("ability legendary", (("traveler", 1, "trav", False), ("card", 2, "legendary", False))),
    # promo Travelers (docs/log-format.md "Promo Travelers")
    Ev.DUEL: (
        "duel",
        (
            ("traveler", 1, "trav", False),
            ("opponent", 2, "trav", False),
            ("deck", 3, DECKS, False),
            ("card", 4, "card3", True),
            ("rounds", 5, "int", False),
        ),
    ),
    Ev.RPS: ("rps", (("traveler", 1, "trav", False), ("round", 2, "int", False), ("won", 3, "bool", False))),
    Ev.LOOK: (
        "look",
        (("traveler", 1, "trav", False), ("card", 2, "meal", False), ("at_inn", 3, "bool", False)),
    ),
}
RESHUFFLE = (
    "reshuffle"  # {"reshuffle": {"deck": "encounter"}}: the rest of a pile shuffled (Gion's DECK rows)
)
KEYS = {key: kind for kind, (key, _) in SCHEMA.items()}


class RecordError(Exception):
    """A record that cannot be read: names the line and the field."""


def card_names(rules: Rules, deck: int) -> list[str]:
    """The record's name of every card of ``deck`` (identical cards share a name)."""
    if deck == Deck.SOUVENIR:
        return [s.name for s in rules.souvenirs]
    if deck == Deck.MEAL:
        return [m.name for m in rules.meals]
    if deck == Deck.HOT_SPRING:
        return [f"hot spring {h.value}" for h in rules.hot_springs]
    if deck == Deck.ENCOUNTER:
        return [
            e.name if e.panorama < 0 else f"{e.name} {PANORAMA_NAMES[e.panorama]}" for e in rules.encounters
        ]
    if deck == Deck.LEGENDARY:
        return [x.name for x in rules.legendary]
    if deck == Deck.AMULET:
        return list(rules.amulets)
    if deck == Deck.CALLIGRAPHY:
        return list(rules.calligraphy)
    if deck == Deck.MATSURI:
        return [str(c["name"]) for c in rules.raw["matsuri"]["card"]]
    return []


def components(config: GameConfig) -> tuple[str, ...]:
    return (
        BASE_COMPONENTS
        + (XR_COMPONENTS if config.crossroads else ())
        + (MATSURI_COMPONENTS if config.matsuri else ())
    )


def config_header(config: GameConfig) -> dict[str, Any]:
    """The configuration as the record writes it (the profile's own patch left to ``rules``)."""
    from sim.games.tokaido.rules.profiles import profile_sets
    from sim.overrides import expand_sets, format_value

    skip = len(expand_sets(profile_sets(config.profile)))
    return {
        "players": config.n_players,
        "variants": list(config.variants),
        "expansions": list(config.expansions),
        "travelers": config.travelers,
        "set": [f"{k}={format_value(v)}" for k, v in config.overrides[skip:]],
    }


class _Names:
    """Traveler labels: a player's Traveler tile name once kept, else ``p0``..; ``neutral``."""

    def __init__(self, config: GameConfig, rules: Rules) -> None:
        self.tiles = [t.name for t in rules.travelers]
        n = config.n_players
        self.labels = [f"p{i}" for i in range(n)] + (["neutral"] if n == 2 else [])

    def index(self, label: str) -> int:
        if label in self.labels:
            return self.labels.index(label)
        alias = [f"p{i}" for i in range(len(self.labels))]
        return alias.index(label) if label in alias else -2


def _encode(v: int, codec: Any, row: list[int], names: _Names, cards: list[list[str]]) -> Any:
    if codec == "trav":
        return names.labels[v]
    if codec == "tile":
        return names.tiles[v]
    if codec in ("card", "card3"):
        return cards[row[2] if codec == "card" else row[3]][v]
    if codec in ("meal", "amulet", "legendary", "matsuri"):
        return cards[
            {"meal": Deck.MEAL, "amulet": Deck.AMULET, "legendary": Deck.LEGENDARY, "matsuri": Deck.MATSURI}[
                codec
            ]
        ][v]
    if codec == "ability":
        return ABILITY_NAMES[v]
    if codec == "bool":
        return bool(v)
    if isinstance(codec, tuple):
        return codec[v]
    return v


def game_record(config: GameConfig, rules: Rules, events: Any, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A game's log (rows ``(kind, t, a, b, c, d)``) and result rows as a JSON-ready record."""
    names = _Names(config, rules)
    cards = [card_names(rules, d) for d in range(N_DECKS)]
    actions: list[dict[str, Any]] = []
    lineup: dict[int, int] = {}
    started, last = False, -1
    for row in (list(map(int, r)) for r in events):
        kind, last, before = row[0], row[0], last
        if kind == Ev.LINEUP:
            lineup[row[1]] = row[2]
            continue
        if kind == Ev.DECK:  # the set-up's pile order is not part of a record; a pile reshuffled later is
            if started and before != Ev.DECK:
                actions.append({RESHUFFLE: {"deck": DECKS[row[2]]}})
            continue
        started = True
        if kind not in SCHEMA:
            continue
        key, fields = SCHEMA[kind]
        out: dict[str, Any] = {}
        for name, slot, codec, optional in fields:
            v = row[slot]
            if kind == Ev.OPTION and name == ("yes" if row[2] == Opt.OBON else "coins"):
                continue
            if optional and (v == -1 or (name == "by" and v == row[1])) and name not in ("yes", "coins"):
                continue
            out[name] = _encode(v, codec, row, names, cards)
        if kind == Ev.KEEP:
            names.labels[row[1]] = names.tiles[row[2]]
        actions.append({key: out})
    comps = components(config)
    scores = [
        {
            "traveler": names.labels[int(r["player"])],
            "score": int(r["score"]),
            **{c: int(r["pts_" + c]) for c in comps},
        }
        for r in sorted(rows, key=lambda r: int(r["player"]))
    ]
    return {
        "format": FORMAT,
        "config": config_header(config),
        "rules": config.profile,
        "travelers": names.labels[: config.n_players],
        "lineup": [names.labels[t] for t in sorted(lineup, key=lineup.__getitem__)],
        "actions": actions,
        "scores": scores,
    }


@dataclass
class ReadGame:
    config: GameConfig
    events: list[list[int]]
    scores: list[dict[str, Any]]
    impossible: tuple[int, str] | None = None  # (event index, why) of a draw no pile could give
    action_of: dict[int, int] = field(default_factory=dict)  # event index -> action index
    record_id: str | None = None  # the record's own "id", if it has one


def _check_fields(obj: dict[str, Any], known: tuple[str, ...], where: str) -> None:
    extra = [k for k in obj if k not in known]
    if extra:
        raise RecordError(f"{where}{extra[0]}: unknown field (known: {', '.join(known)})")


def read_config(obj: Any, profile: str | None, sets: list[str] | None) -> GameConfig:
    """The record's configuration; ``profile`` / ``sets`` (from the command line) replace its own."""
    from sim.games.tokaido.rules.profiles import profile_sets
    from sim.overrides import expand_sets

    if not isinstance(obj, dict):
        raise RecordError("config: expected an object {players, variants, expansions, travelers, set}")
    rules = profile if profile is not None else obj.get("rules", "rulebook")
    if not isinstance(rules, str):
        raise RecordError(f"rules: expected a profile name, got {rules!r}")
    cfg = obj["config"] if isinstance(obj.get("config"), dict) else None
    if cfg is None:
        raise RecordError("config: missing (an object: players, variants, expansions, travelers, set)")
    _check_fields(cfg, CONFIG_FIELDS, "config.")
    for key in ("variants", "expansions", "set"):
        if not isinstance(cfg.get(key, []), list) or not all(isinstance(x, str) for x in cfg.get(key, [])):
            raise RecordError(f"config.{key}: expected a list of names")
    if not isinstance(cfg.get("players", 0), int) or isinstance(cfg.get("players"), bool):
        raise RecordError(f"config.players: expected an integer, got {cfg.get('players')!r}")
    # format 1 could not record a declined second action (C42): its second actions were always taken
    legacy = ["crossroads.second_action_optional=false"] if obj.get("format") == FORMATS[0] else []
    items = legacy + list(cfg.get("set", [])) + list(sets or [])
    overrides = []
    for item in expand_sets(profile_sets(str(rules)) + [str(x) for x in items]):
        key, eq, value = item.partition("=")
        if not eq:
            raise RecordError(f"config.set: '{item}' is not KEY=VALUE")
        overrides.append((key.strip(), value.strip()))
    try:
        return GameConfig(
            n_players=int(cfg.get("players", 0)),
            variants=tuple(cfg.get("variants", [])),
            expansions=tuple(cfg.get("expansions", [])),
            travelers=str(cfg.get("travelers", "draft")),
            overrides=tuple(overrides),
            profile=str(rules),
        )
    except (TypeError, ValueError) as exc:
        raise RecordError(f"config: {exc}") from None


def read_record(obj: Any, profile: str | None = None, sets: list[str] | None = None) -> ReadGame:
    """A record (parsed JSON) as the referee's events; ``RecordError`` names the bad field."""
    from sim.errors import UserError

    if not isinstance(obj, dict):
        raise RecordError("expected a JSON object (one game)")
    _check_fields(obj, FIELDS, "")
    if "format" in obj and obj["format"] not in FORMATS:
        raise RecordError(
            f"format: {obj['format']!r} is not a record format this version reads "
            f"({', '.join(map(repr, FORMATS))})"
        )
    record_id = obj.get("id")
    if record_id is not None and not isinstance(record_id, str | int):
        raise RecordError(f"id: expected a name or a number, got {record_id!r}")
    try:
        config = read_config(obj, profile, sets)
        rules = config.rules()
    except UserError as exc:
        raise RecordError(f"config: {exc}") from None
    names = _Names(config, rules)
    cards = [card_names(rules, d) for d in range(N_DECKS)]
    sizes = {
        Deck.SOUVENIR: len(rules.souvenirs),
        Deck.MEAL: len(rules.meals),
        Deck.HOT_SPRING: len(rules.hot_springs),
        Deck.ENCOUNTER: len(rules.encounters),
    }
    if config.matsuri:
        sizes[Deck.MATSURI] = len(cards[Deck.MATSURI])
    piles = Piles(cards, sizes, DECKS)
    actions = obj.get("actions")
    if not isinstance(actions, list):
        raise RecordError("actions: missing (a list of actions)")
    body: list[list[int] | tuple[int, Any]] = []  # rows, and reshuffles whose DECK rows come at the end
    action_of: dict[int, int] = {}
    impossible: tuple[int, str] | None = None
    lineup = obj.get("lineup")
    keys = [*KEYS, RESHUFFLE]
    for i, action in enumerate(actions):
        where = f"actions[{i}]"
        if not isinstance(action, dict) or len(action) != 1 or next(iter(action)) not in keys:
            raise RecordError(f"{where}: expected {{KIND: {{...}}}} with KIND one of {', '.join(keys)}")
        key, fields_in = next(iter(action.items()))
        if not isinstance(fields_in, dict):
            raise RecordError(f"{where}.{key}: expected an object")
        if key == RESHUFFLE:
            _check_fields(fields_in, ("deck",), f"{where}.{key}.")
            deck = _value(fields_in.get("deck"), DECKS, [], names, cards, f"{where}.{key}.deck")
            if deck not in piles.sizes:
                raise RecordError(f"{where}.{key}.deck: the {DECKS[deck]} deck is no pile")
            body.append((deck, piles.reshuffle(deck)))
            continue
        kind = KEYS[key]
        if kind not in (Ev.DEAL, Ev.KEEP, Ev.MARKET) and lineup is not None:  # the line-up follows the draft
            body += _lineup(lineup, names)
            lineup = None
        row = [kind, -1, -1, -1, -1, -1]
        for name, slot, codec, optional in SCHEMA[kind][1]:
            path = f"{where}.{key}.{name}"
            if name not in fields_in:
                if not optional:
                    raise RecordError(f"{path}: missing")
                if row[slot] == -1:
                    row[slot] = row[1] if name == "by" else -1
                continue
            row[slot] = _value(fields_in[name], codec, row, names, cards, path)
        _check_fields(fields_in, tuple(f[0] for f in SCHEMA[kind][1]), f"{where}.{key}.")
        if kind == Ev.OPTION:
            want = "coins" if row[2] == Opt.OBON else "yes"
            if want not in fields_in or len({"yes", "coins"} & set(fields_in)) != 1:
                raise RecordError(
                    f"{where}.{key}.{want}: missing ({OPTIONS[row[2]]} takes "
                    f"{'a number of coins' if want == 'coins' else 'yes: true or false'})"
                )
        why = _cards(kind, row, piles, cards)
        if why and impossible is None:
            impossible = (len(body), why)
        if kind == Ev.KEEP:
            names.labels[row[1]] = names.tiles[row[2]]
        action_of[len(body)] = i
        body.append(row)
    if lineup is not None:
        body += _lineup(lineup, names)
    events = piles.deck_events()
    where_is: dict[int, int] = {}
    for k, item in enumerate(body):
        where_is[k] = len(events)
        if isinstance(item, tuple):
            events += item[1].rows(item[0])
        else:
            events.append(item)
    out = ReadGame(config, events, [], record_id=None if record_id is None else str(record_id))
    out.action_of = {where_is[k]: v for k, v in action_of.items()}
    if impossible is not None:
        out.impossible = (where_is[impossible[0]], impossible[1])
    out.scores = _scores(obj.get("scores"), config, names)
    return out


def _cards(kind: int, row: list[int], piles: Piles, cards: list[list[str]]) -> str | None:
    """Resolve a named pile card to the id the synthesised piles give it; why a draw is impossible."""
    deck = row[2]
    if kind == Ev.DRAW and deck in piles.sizes:
        row[3], why = piles.draw(deck, cards[deck][row[3]])
        return why
    if kind == Ev.PICK and deck in piles.sizes:
        row[3], why = piles.pick(deck, cards[deck][row[3]])
        piles.table[deck].append(row[3])  # its GAIN follows the pile's reshuffle
        return why
    if kind in (Ev.GAIN, Ev.UNDER) and deck in piles.sizes:
        row[3] = piles.on_table(deck, cards[deck][row[3]], remove=True)
        if kind == Ev.UNDER:
            piles.slots[deck].append(row[3])
    elif kind == Ev.OFFER:
        row[2] = piles.on_table(Deck.MEAL, cards[Deck.MEAL][row[2]], remove=False)
    elif kind == Ev.MATSURI and Deck.MATSURI in piles.sizes:  # the kept card comes into play, the other under
        row[2] = piles.on_table(Deck.MATSURI, cards[Deck.MATSURI][row[2]], remove=True)
        if row[3] >= 0:
            row[3] = piles.on_table(Deck.MATSURI, cards[Deck.MATSURI][row[3]], remove=True)
            piles.slots[Deck.MATSURI].append(row[3])
    return None


def _lineup(lineup: Any, names: _Names) -> list[list[int]]:
    if not isinstance(lineup, list) or not all(isinstance(x, str) for x in lineup):
        raise RecordError("lineup: expected the list of travelers in departure order")
    rows = []
    for order, label in enumerate(lineup):
        t = names.index(label)
        if t < 0:
            raise RecordError(
                f"lineup[{order}]: no traveler '{label}' (travelers: {', '.join(names.labels)})"
            )
        rows.append([Ev.LINEUP, t, order, -1, -1, -1])
    return rows


def _value(v: Any, codec: Any, row: list[int], names: _Names, cards: list[list[str]], path: str) -> int:
    if codec == "bool":
        if not isinstance(v, bool):
            raise RecordError(f"{path}: expected true or false, got {v!r}")
        return int(v)
    if codec in ("int", "player") or (codec == "card3" and isinstance(v, int) and not isinstance(v, bool)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise RecordError(f"{path}: expected an integer, got {v!r}")
        return v  # a duel's card by id: format 1
    if not isinstance(v, str):
        raise RecordError(f"{path}: expected a name, got {v!r}")
    if codec == "trav":
        t = names.index(v)
        if t < 0:
            raise RecordError(f"{path}: no traveler '{v}' (travelers: {', '.join(names.labels)})")
        return t
    choices: list[str] | tuple[str, ...]
    if codec == "tile":
        choices = names.tiles
    elif codec in ("card", "card3"):
        deck = row[2] if codec == "card" else row[3]
        choices = cards[deck] if 0 <= deck < len(cards) else []
    elif codec in ("meal", "amulet", "legendary", "matsuri"):
        choices = cards[
            {"meal": Deck.MEAL, "amulet": Deck.AMULET, "legendary": Deck.LEGENDARY, "matsuri": Deck.MATSURI}[
                codec
            ]
        ]
    elif codec == "ability":
        choices = ABILITY_NAMES
    else:
        choices = codec
    if v not in choices:
        raise RecordError(f"{path}: unknown name '{v}' (one of: {', '.join(sorted(set(choices)))})")
    return list(choices).index(v)


def _scores(scores: Any, config: GameConfig, names: _Names) -> list[dict[str, Any]]:
    if not isinstance(scores, list) or len(scores) != config.n_players:
        raise RecordError(f"scores: expected a list of {config.n_players} players' scores")
    comps = ("score", *components(config))
    out = []
    for i, s in enumerate(scores):
        if (
            not isinstance(s, dict)
            or not isinstance(s.get("traveler"), str)
            or names.index(s["traveler"]) < 0
        ):
            raise RecordError(f"scores[{i}].traveler: missing or not a player ({', '.join(names.labels)})")
        _check_fields(s, ("traveler", *comps), f"scores[{i}].")
        row: dict[str, Any] = {"player": names.index(s["traveler"])}
        for c in comps:
            if not isinstance(s.get(c), int) or isinstance(s.get(c), bool):
                raise RecordError(f"scores[{i}].{c}: missing or not an integer")
            row[c] = s[c]
        out.append(row)
    return out
