"""Game records (``docs/game-record.md``): one game per JSON line, every action and card by name.

``game_record`` writes a simulated game (the kernel's action log, ``docs/log-format.md``) as a
record; ``read_record`` turns a record back into the referee's event stream. A real game's pile
order is known only as far as cards were drawn, so the piles' order is synthesised from the
draws made (:class:`_Piles`): a draw from a part of a pile nobody has seen may be any card of
that name not yet accounted for; a draw of a card put under the pile must be that card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kernels.core.enums import PANORAMA_NAMES, SPACE_NAMES, Deck, Ev
from sim.games.tokaido.referee.state import POINT_COLUMNS
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules

FORMAT = "tokaido-sim game record 1"
DECKS = ("souvenir", "meal", "hot spring", "encounter", "legendary object", "amulet", "calligraphy",
         "cherry tree", "bathhouse")
PILES = 4  # decks 0..3 are face-down piles; 4..8 Crossroads markets
PAN_SOURCES = ("station", "annaibito", "hiroshige", "kitoushi")
OPTIONS = ("itamae", "kitoushi", "takuhatsuso", "hirotada", "start amulet", "jirocho", "annaibito",
           *(f"option {i}" for i in range(7, 18)),  # 7-17: Matsuri's options (issue 14) go here at the merge
           "felicia", "option 19", "option 20", "hanabi order")  # 19-20: rules profiles (issue 11)
CHOICES = ("base", "alternative", "both", "alternative first", "empty alternative")  # 4: online, nothing bought
DIE_SOURCES = ("gaming room", "jirocho", "fortune amulet", "matsuri", "matsuri", "iyasaka's re-roll")
BASE_COMPONENTS = tuple(c[4:] for c in POINT_COLUMNS[:9])
XR_COMPONENTS = tuple(c[4:] for c in POINT_COLUMNS[9:13])
MATSURI_COMPONENTS = ("matsuri",)

# kind -> (key, fields): (json name, event slot 1..5 = t a b c d, codec, optional)
# codecs: trav (traveler label), player, tile (a Traveler tile), card (of the deck in slot a),
# meal, amulet, int, bool, or a tuple of names indexed by the value
F = tuple[str, int, Any, bool]
SCHEMA: dict[int, tuple[str, tuple[F, ...]]] = {
    Ev.DEAL: ("deal", (("player", 1, "player", False), ("traveler", 2, "tile", False),
                       ("other", 3, "tile", True))),
    Ev.KEEP: ("keep", (("player", 1, "player", False), ("traveler", 2, "tile", False))),
    Ev.COINS: ("coins", (("traveler", 1, "trav", False), ("coins", 2, "int", False))),
    Ev.MOVE: ("move", (("traveler", 1, "trav", False), ("space", 2, "int", False), ("by", 3, "player", True))),
    Ev.DRAW: ("draw", (("traveler", 1, "trav", False), ("deck", 2, DECKS, False), ("card", 3, "card", False))),
    Ev.GAIN: ("gain", (("traveler", 1, "trav", False), ("deck", 2, DECKS, False), ("card", 3, "card", True),
                       ("paid", 4, "int", False))),
    Ev.UNDER: ("under", (("deck", 2, DECKS, False), ("card", 3, "card", False))),
    Ev.DONATE: ("donate", (("traveler", 1, "trav", False), ("coins", 2, "int", False), ("bank", 3, "int", False))),
    Ev.PANORAMA: ("panorama", (("traveler", 1, "trav", False), ("type", 2, PANORAMA_NAMES, False),
                               ("source", 3, PAN_SOURCES, False))),
    Ev.OPTION: ("option", (("traveler", 1, "trav", False), ("option", 2, OPTIONS, False),
                           ("yes", 3, "bool", False))),
    Ev.OFFER: ("offer", (("traveler", 1, "trav", False), ("card", 2, "meal", False))),
    Ev.END: ("end", ()),
    Ev.MARKET: ("market", (("deck", 2, DECKS, False), ("card", 3, "card", True), ("count", 4, "int", False))),
    Ev.CHOICE: ("choice", (("traveler", 1, "trav", False), ("space", 2, SPACE_NAMES, False),
                           ("option", 3, CHOICES, False))),
    Ev.DIE: ("die", (("traveler", 1, "trav", False), ("face", 2, "int", False), ("bet", 3, "int", False),
                     ("source", 4, DIE_SOURCES, False))),
    Ev.USE: ("use", (("traveler", 1, "trav", False), ("amulet", 2, "amulet", False), ("arg", 3, "int", True))),
    # promo Travelers (docs/log-format.md "Promo Travelers")
    Ev.DUEL: ("duel", (("traveler", 1, "trav", False), ("opponent", 2, "trav", False), ("deck", 3, DECKS, False),
                       ("card", 4, "int", False), ("rounds", 5, "int", False))),
    Ev.RPS: ("rps", (("traveler", 1, "trav", False), ("round", 2, "int", False), ("won", 3, "bool", False))),
    Ev.LOOK: ("look", (("traveler", 1, "trav", False), ("card", 2, "meal", False), ("at_inn", 3, "bool", False))),
}
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
        return [e.name if e.panorama < 0 else f"{e.name} {PANORAMA_NAMES[e.panorama]}" for e in rules.encounters]
    if deck == Deck.LEGENDARY:
        return [x.name for x in rules.legendary]
    if deck == Deck.AMULET:
        return list(rules.amulets)
    if deck == Deck.CALLIGRAPHY:
        return list(rules.calligraphy)
    return []


def components(config: GameConfig) -> tuple[str, ...]:
    return (BASE_COMPONENTS + (XR_COMPONENTS if "crossroads" in config.expansions else ())
            + (MATSURI_COMPONENTS if "matsuri" in config.expansions else ()))


def config_header(config: GameConfig) -> dict[str, Any]:
    """The configuration as the record writes it (the profile's own patch left to ``rules``)."""
    from sim.games.tokaido.rules.profiles import profile_sets
    from sim.overrides import expand_sets

    skip = len(expand_sets(profile_sets(config.profile)))
    return {"players": config.n_players, "variants": list(config.variants), "expansions": list(config.expansions),
            "travelers": config.travelers, "set": [f"{k}={v}" for k, v in config.overrides[skip:]]}


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


def game_record(config: GameConfig, rules: Rules, events: Any, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A game's log (rows ``(kind, t, a, b, c, d)``) and result rows as a JSON-ready record."""
    names = _Names(config, rules)
    cards = [card_names(rules, d) for d in range(9)]
    actions: list[dict[str, Any]] = []
    lineup: dict[int, int] = {}
    for row in (list(map(int, r)) for r in events):
        kind = row[0]
        if kind == Ev.LINEUP:
            lineup[row[1]] = row[2]
            continue
        if kind not in SCHEMA:
            continue  # DECK: the pile order is not part of a record
        key, fields = SCHEMA[kind]
        out: dict[str, Any] = {}
        for name, slot, codec, optional in fields:
            v = row[slot]
            if optional and (v == -1 or (name == "by" and v == row[1])):
                continue
            if codec == "trav":
                out[name] = names.labels[v]
            elif codec == "tile":
                out[name] = names.tiles[v]
            elif codec == "card":
                out[name] = cards[row[2]][v]
            elif codec == "meal":
                out[name] = cards[Deck.MEAL][v]
            elif codec == "amulet":
                out[name] = cards[Deck.AMULET][v]
            elif codec == "bool":
                out[name] = bool(v)
            elif isinstance(codec, tuple):
                out[name] = codec[v]
            else:
                out[name] = v
        if kind == Ev.KEEP:
            names.labels[row[1]] = names.tiles[row[2]]
        actions.append({key: out})
    comps = components(config)
    scores = [{"traveler": names.labels[int(r["player"])], "score": int(r["score"]),
               **{c: int(r["pts_" + c]) for c in comps}} for r in sorted(rows, key=lambda r: int(r["player"]))]
    return {"format": FORMAT, "config": config_header(config), "rules": config.profile,
            "travelers": names.labels[: config.n_players],
            "lineup": [names.labels[t] for t in sorted(lineup, key=lineup.__getitem__)],
            "actions": actions, "scores": scores}


@dataclass
class _Piles:
    """Which card id a named card is: the piles as far as the record has shown them."""

    names: list[list[str]]
    sizes: list[int]
    slots: list[list[int | None]] = field(default_factory=list)  # the pile, top first; None = unseen
    fresh: list[list[int]] = field(default_factory=list)  # ids nobody has seen yet
    order: list[list[int]] = field(default_factory=list)  # the unseen ids in the order drawn
    table: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.slots = [[None] * self.sizes[d] for d in range(PILES)]
        self.fresh = [list(range(self.sizes[d])) for d in range(PILES)]
        self.order = [[] for _ in range(PILES)]
        self.table = [[] for _ in range(len(self.names))]

    def first(self, deck: int, name: str) -> int:
        return self.names[deck].index(name)

    def draw(self, deck: int, name: str) -> tuple[int, str | None]:
        """The id drawn, and why the draw was impossible (None if possible)."""
        pile = self.slots[deck]
        if not pile:
            return self.first(deck, name), None  # the referee says the pile is empty
        top = pile.pop(0)
        if top is None:
            card = next((c for c in self.fresh[deck] if self.names[deck][c] == name), None)
            if card is None:
                total = self.names[deck].count(name)
                return self.first(deck, name), (f"{name} cannot be in the {DECKS[deck]} pile: all {total} "
                                                f"{name} card(s) are already drawn or known to be elsewhere")
            self.fresh[deck].remove(card)
            self.order[deck].append(card)
        else:
            card = top if self.names[deck][top] == name else self.first(deck, name)  # the referee names the top
        self.table[deck].append(card)
        return card, None

    def on_table(self, deck: int, name: str, remove: bool) -> int:
        # the latest matching card: Itamae's or Satsuki's draw at an Inn is not one of the hand's
        card = next((c for c in reversed(self.table[deck]) if self.names[deck][c] == name), None)
        if card is None:
            return self.first(deck, name)  # the referee says it is not on the table
        self.table[deck].remove(card)
        if not remove:  # an offered card: the next GAIN or UNDER of that name is this one
            self.table[deck].append(card)
        return card

    def deck_events(self) -> list[list[int]]:
        return [[Ev.DECK, -1, d, c, -1, -1] for d in range(PILES) for c in self.order[d] + self.fresh[d]]


@dataclass
class ReadGame:
    config: GameConfig
    events: list[list[int]]
    scores: list[dict[str, Any]]
    impossible: tuple[int, str] | None = None  # (event index, why) of a draw no pile could give
    action_of: dict[int, int] = field(default_factory=dict)  # event index -> action index


def read_config(obj: Any, profile: str | None, sets: list[str] | None) -> GameConfig:
    """The record's configuration; ``profile`` / ``sets`` (from the command line) replace its own."""
    from sim.games.tokaido.rules.profiles import profile_sets
    from sim.overrides import expand_sets

    if not isinstance(obj, dict):
        raise RecordError("config: expected an object {players, variants, expansions, travelers, set}")
    rules = profile if profile is not None else obj.get("rules", "rulebook")
    cfg = obj["config"] if isinstance(obj.get("config"), dict) else None
    if cfg is None:
        raise RecordError("config: missing (an object: players, variants, expansions, travelers, set)")
    items = list(cfg.get("set", [])) + list(sets or [])
    overrides = []
    for item in expand_sets(profile_sets(str(rules)) + [str(x) for x in items]):
        key, eq, value = item.partition("=")
        if not eq:
            raise RecordError(f"config.set: '{item}' is not KEY=VALUE")
        overrides.append((key.strip(), value.strip()))
    try:
        return GameConfig(n_players=int(cfg.get("players", 0)), variants=tuple(cfg.get("variants", [])),
                          expansions=tuple(cfg.get("expansions", [])), travelers=str(cfg.get("travelers", "draft")),
                          overrides=tuple(overrides), profile=str(rules))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"config: {exc}") from None


def read_record(obj: Any, profile: str | None = None, sets: list[str] | None = None) -> ReadGame:
    """A record (parsed JSON) as the referee's events; ``RecordError`` names the bad field."""
    from sim.errors import UserError

    try:
        config = read_config(obj, profile, sets)
    except UserError as exc:
        raise RecordError(f"config: {exc}") from None
    rules = config.rules()
    names = _Names(config, rules)
    cards = [card_names(rules, d) for d in range(9)]
    piles = _Piles(cards, [len(rules.souvenirs), len(rules.meals), len(rules.hot_springs), len(rules.encounters)])
    actions = obj.get("actions")
    if not isinstance(actions, list):
        raise RecordError("actions: missing (a list of actions)")
    body: list[list[int]] = []
    out = ReadGame(config, body, [])
    lineup = obj.get("lineup")
    for i, action in enumerate(actions):
        where = f"actions[{i}]"
        if not isinstance(action, dict) or len(action) != 1 or next(iter(action)) not in KEYS:
            raise RecordError(f"{where}: expected {{KIND: {{...}}}} with KIND one of {', '.join(KEYS)}")
        key, fields_in = next(iter(action.items()))
        kind = KEYS[key]
        if not isinstance(fields_in, dict):
            raise RecordError(f"{where}.{key}: expected an object")
        if kind == Ev.COINS and lineup is not None:
            body += _lineup(lineup, names)
            lineup = None
        row = [kind, -1, -1, -1, -1, -1]
        for name, slot, codec, optional in SCHEMA[kind][1]:
            path = f"{where}.{key}.{name}"
            if name not in fields_in:
                if not optional:
                    raise RecordError(f"{path}: missing")
                row[slot] = row[1] if name == "by" else -1
                continue
            row[slot] = _value(fields_in[name], codec, row, names, cards, path)
        extra = set(fields_in) - {f[0] for f in SCHEMA[kind][1]}
        if extra:
            raise RecordError(f"{where}.{key}.{sorted(extra)[0]}: unknown field")
        deck = row[2]
        if kind == Ev.DRAW and deck < PILES:
            row[3], why = piles.draw(deck, cards[deck][row[3]])
            if why and out.impossible is None:
                out.impossible = (len(body), why)
        elif kind in (Ev.GAIN, Ev.UNDER) and deck < PILES:
            row[3] = piles.on_table(deck, cards[deck][row[3]], remove=True)
            if kind == Ev.UNDER:
                piles.slots[deck].append(row[3])
        elif kind == Ev.OFFER:
            row[2] = piles.on_table(Deck.MEAL, cards[Deck.MEAL][row[2]], remove=False)
        elif kind == Ev.KEEP:
            names.labels[row[1]] = names.tiles[row[2]]
        out.action_of[len(body)] = i
        body.append(row)
    if lineup is not None:
        body += _lineup(lineup, names)
    deck_rows = piles.deck_events()
    out.events = deck_rows + body
    out.action_of = {k + len(deck_rows): v for k, v in out.action_of.items()}
    if out.impossible is not None:
        out.impossible = (out.impossible[0] + len(deck_rows), out.impossible[1])
    out.scores = _scores(obj.get("scores"), config, names)
    return out


def _lineup(lineup: Any, names: _Names) -> list[list[int]]:
    if not isinstance(lineup, list) or not all(isinstance(x, str) for x in lineup):
        raise RecordError("lineup: expected the list of travelers in departure order")
    rows = []
    for order, label in enumerate(lineup):
        t = names.index(label)
        if t < 0:
            raise RecordError(f"lineup[{order}]: no traveler '{label}' (travelers: {', '.join(names.labels)})")
        rows.append([Ev.LINEUP, t, order, -1, -1, -1])
    return rows


def _value(v: Any, codec: Any, row: list[int], names: _Names, cards: list[list[str]], path: str) -> int:
    if codec == "bool":
        if not isinstance(v, bool):
            raise RecordError(f"{path}: expected true or false, got {v!r}")
        return int(v)
    if codec in ("int", "player"):
        if not isinstance(v, int) or isinstance(v, bool):
            raise RecordError(f"{path}: expected an integer, got {v!r}")
        return v
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
    elif codec == "card":
        choices = cards[row[2]] if 0 <= row[2] < len(cards) else []
    elif codec == "meal":
        choices = cards[Deck.MEAL]
    elif codec == "amulet":
        choices = cards[Deck.AMULET]
    else:
        choices = codec
    if v not in choices:
        raise RecordError(f"{path}: unknown name '{v}' (one of: {', '.join(sorted(set(choices)))})")
    return list(choices).index(v)


def _scores(scores: Any, config: GameConfig, names: _Names) -> list[dict[str, Any]]:
    if not isinstance(scores, list) or len(scores) != config.n_players:
        raise RecordError(f"scores: expected a list of {config.n_players} players' scores")
    out = []
    for i, s in enumerate(scores):
        if not isinstance(s, dict) or not isinstance(s.get("traveler"), str) or names.index(s["traveler"]) < 0:
            raise RecordError(f"scores[{i}].traveler: missing or not a player ({', '.join(names.labels)})")
        row: dict[str, Any] = {"player": names.index(s["traveler"])}
        for c in ("score", *components(config)):
            if not isinstance(s.get(c), int):
                raise RecordError(f"scores[{i}].{c}: missing or not an integer")
            row[c] = s[c]
        out.append(row)
    return out
