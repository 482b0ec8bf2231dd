"""The referee's model of a game in progress: plain Python objects, written from the rulebook.

Nothing here is shared with the Numba kernels except the integer codes of
``kernels/tokaido/core/enums.py``. ``sim/games/tokaido/referee/game.py`` drives these objects from an action
log;
``sim/games/tokaido/referee/scoring.py`` holds the scoring arithmetic.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from kernels.tokaido.core.enums import (
    AMULET_NAMES,
    CALLI_NAMES,
    PANORAMA_NAMES,
    SPACE_NAMES,
    Ability,
    Deck,
    Ev,
    Space,
)
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules

KIND_NAMES = {getattr(Ev, name): name for name in Ev._fields}
DECK_NAMES = ("souvenir", "meal", "hot spring", "encounter")
XR_DECK_NAMES = ("legendary object", "amulet", "calligraphy", "cherry tree", "bathhouse")  # decks 4..8
POINT_COLUMNS = (
    "pts_meals",
    "pts_souvenirs",
    "pts_panoramas",
    "pts_hot_springs",
    "pts_temple",
    "pts_temple_bonus",
    "pts_encounters",
    "pts_achievements",
    "pts_other",
    "pts_cherry_trees",
    "pts_bathhouses",
    "pts_legendary",
    "pts_calligraphy",
    "pts_matsuri",
)
PANORAMA_SPACES = {Space.PADDY: 0, Space.MOUNTAIN: 1, Space.SEA: 2}


def kind_name(kind: int) -> str:
    return KIND_NAMES.get(kind, f"kind {kind}")


def amulet_kind(rules: Rules, card: int) -> int:
    """The ``kernels.tokaido.core.enums.Amulet`` code of Amulet card ``card``, -1 if there is no such card."""
    return AMULET_NAMES.index(rules.amulets[card]) if 0 <= card < len(rules.amulets) else -1


def calligraphy_kind(rules: Rules, card: int) -> int:
    """The ``kernels.tokaido.core.enums.Calli`` code of Calligraphy card ``card``, -1 if there is no such
    card."""
    return CALLI_NAMES.index(rules.calligraphy[card]) if 0 <= card < len(rules.calligraphy) else -1


@dataclass(frozen=True)
class Event:
    """One row of the action log, with its position in the log."""

    index: int
    kind: int
    t: int = -1
    a: int = -1
    b: int = -1
    c: int = -1
    d: int = -1

    def __str__(self) -> str:
        return f"event {self.index} {kind_name(self.kind)}"


class Illegal(Exception):
    """An event breaks the rules (or the log format); the message names the event."""

    def __init__(self, event: Event | None, message: str) -> None:
        self.event = event
        self.message = message
        super().__init__(f"{event}: {message}" if event is not None else message)


class Pile:
    """A face-down pile of cards, top card first."""

    def __init__(self, deck: int) -> None:
        self.deck = deck
        self.cards: deque[int] = deque()

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[int]:
        return iter(self.cards)

    def top(self) -> int | None:
        return self.cards[0] if self.cards else None

    def peek(self, n: int) -> list[int]:
        return list(self.cards)[:n]

    def draw(self) -> int:
        return self.cards.popleft()

    def put_under(self, card: int) -> None:
        self.cards.append(card)


@dataclass
class TravelerState:
    """One traveler on the road: a player's, or the 2-player Neutral Traveler."""

    index: int
    neutral: bool = False
    name: str = ""
    traveler_id: int = -1  # index into Rules.travelers, -1 = none (Initiation, Neutral)
    alt_traveler: int = -1  # the dealt Traveler not kept in the draft
    ability: int = Ability.NONE
    moved_by: int = -1  # the player who made the traveler's last move (the Neutral: the lead player, C10)
    lineup: int = -1  # departure order among all travelers (LINEUP)
    seat: int = -1  # departure order among the players, 0 = first to leave
    pos: int = 0
    stamp: int = 0  # arrival stamp at the current space: a higher stamp arrived later
    coins: int = 0
    coins_start: int = 0
    points: dict[str, int] = field(default_factory=lambda: dict.fromkeys(POINT_COLUMNS, 0))
    family_counts: list[int] = field(default_factory=list)
    souvenirs: list[int] = field(default_factory=list)
    meals: list[int] = field(default_factory=list)
    dishes: set[int] = field(default_factory=set)
    meal_value: int = 0
    hot_springs: list[int] = field(default_factory=list)
    encounters: list[int] = field(default_factory=list)
    panorama: list[int] = field(default_factory=lambda: [0, 0, 0])  # cards held per type
    achievements: list[str] = field(default_factory=list)
    donated: int = 0
    stops: int = 0
    # Crossroads
    cherry_trees: int = 0
    bathhouses: int = 0
    legendary: list[int] = field(default_factory=list)  # Legendary Object card ids
    calligraphy: list[int] = field(default_factory=list)  # Calligraphy card ids
    amulets: set[int] = field(default_factory=set)  # Amulet card ids held
    amulets_new: set[int] = field(default_factory=set)  # bought at this stop: usable from the next move (C35)
    amulets_acquired: int = 0  # Amulet cards ever taken (set-up and Temples)
    scripts: int = 0  # Script objects held (C29)
    inn_meals: int = 0  # meals eaten at Inns (Fasting, C34)
    # Matsuri
    dolls: int = 0
    carps: int = 0
    m_tokens: int = 0  # Journey-point tokens taken

    @property
    def score(self) -> int:
        return sum(self.points.values())

    @property
    def label(self) -> str:
        return f"traveler {self.index} ({self.name})"


@dataclass
class InnVisit:
    """The travelers' stay at one Inn: arrival order and the meal hand on the table."""

    pos: int
    arrived: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)


@dataclass
class MatsuriState:
    """The Matsuri stack and the cards in force (``sim/games/tokaido/referee/matsuri.py``)."""

    stack: Pile = field(default_factory=lambda: Pile(9))
    leg: list[str] = field(default_factory=list)  # kinds of the LEG cards in force until the next Inn
    closed: dict[int, int] = field(default_factory=dict)  # station -> spaces closed for this leg
    cho_yo_at: int = -1  # the Inn whose meals Cho-yo discounts
    shared_calligraphy: list[int] = field(default_factory=list)  # o-Tsukimi: everyone scores these
    kept: list[int] = field(default_factory=lambda: [-1] * 3)  # the card kept at each Matsuri Inn
    rejected: list[int] = field(default_factory=lambda: [-1] * 3)
    hanabi: list[int] = field(default_factory=list)  # Hanabi's extra cards


class GameState:
    """Board, piles, travelers and turn order; no log handling."""

    def __init__(self, config: GameConfig, rules: Rules) -> None:
        self.config = config
        self.rules = rules
        self.params = rules.params
        self.n_players = config.n_players
        self.has_neutral = config.n_players == 2
        self.n_trav = self.n_players + int(self.has_neutral)
        self.initiation = bool(self.params.get("INITIATION", 0))
        self.preparations = "preparations" in config.variants
        self.board = list(rules.board_types)
        self.double = list(rules.board_double)
        self.last = len(self.board) - 1
        self.xr = rules.crossroads
        # C30: with Crossroads the Offerings are a fifth souvenir family, scoring FIFTH_FAMILY_POINTS
        n_fam = max(len(rules.souvenir_families), 1) + int(self.xr)
        self.offering_family = n_fam - 1 if self.xr else -1
        self.set_points = list(rules.set_points)
        if self.xr:
            self.set_points = (self.set_points + [0] * n_fam)[: n_fam - 1] + [
                self.params["FIFTH_FAMILY_POINTS"]
            ]
        self.travelers = [
            TravelerState(i, neutral=(i == self.n_players), family_counts=[0] * n_fam)
            for i in range(self.n_trav)
        ]
        for tr in self.travelers:
            tr.name = "neutral" if tr.neutral else f"p{tr.index}"
        self.piles = [Pile(d) for d in range(4)]
        self.deck_sizes = [
            len(rules.souvenirs),
            len(rules.meals),
            len(rules.hot_springs),
            len(rules.encounters),
        ]
        self.inns: dict[int, InnVisit] = {}
        self.pan_achievement: list[int | None] = [None, None, None]  # who took each
        self.next_stamp = 0
        self.turn = 0
        # Crossroads markets (face up): card ids still available, and the identical cards left
        self.legendary_market: list[int] = []
        self.amulet_market: list[int] = []
        self.calligraphy_market: list[int] = []
        self.cherry_left = 0
        self.bath_left = 0
        self.matsuri = bool(
            rules.matsuri
        )  # the festival cards, as Crossroads, from the rules (empty without Matsuri)
        self.m = MatsuriState()

    # ------------------------------------------------------------ set-up
    @property
    def traveler_mode(self) -> str:
        """'none' (Journey of Initiation), 'draft', 'random' or 'fixed'."""
        if self.initiation:
            return "none"
        if self.config.travelers in ("draft", "random"):
            return self.config.travelers
        return "fixed"

    def fixed_travelers(self) -> list[int]:
        return [self.rules.traveler_index(n.strip()) for n in self.config.travelers.split(",")]

    def assign_traveler(self, tr: TravelerState, traveler_id: int, alt: int) -> None:
        t = self.rules.travelers[traveler_id]
        tr.traveler_id, tr.alt_traveler, tr.ability, tr.name = traveler_id, alt, t.ability, t.name

    def set_lineup(self, orders: dict[int, int]) -> None:
        """Kyoto: order 0 leaves first, so it counts as the last to arrive (farthest behind)."""
        for t, order in orders.items():
            tr = self.travelers[t]
            tr.lineup = order
            tr.stamp = self.n_trav - 1 - order
        players = sorted(self.players(), key=lambda p: p.lineup)
        for seat, tr in enumerate(players):
            tr.seat = seat
        self.next_stamp = self.n_trav

    def starting_coins(self, tr: TravelerState) -> int:
        base = (
            self.params["INITIATION_COINS"] if self.initiation else self.rules.travelers[tr.traveler_id].coins
        )
        if self.preparations:  # counted back from the last to leave Kyoto (seed 004; C7), or a table
            prep = self.rules.raw["rules"]["variants"]["preparations"]
            table = prep.get(str(self.n_players)) or []
            base += int(table[tr.seat]) if table else int(prep["from_last"][self.n_players - 1 - tr.seat])
        return max(0, base)

    def players(self) -> list[TravelerState]:
        return [tr for tr in self.travelers if not tr.neutral]

    # ------------------------------------------------------------ the road
    def space_name(self, pos: int) -> str:
        kind = self.board[pos]
        if kind == Space.INN:
            if pos == 0:
                return "inn (start)"
            return "inn (last)" if pos == self.last else "inn"
        return SPACE_NAMES[kind]

    def is_intermediate_inn(self, pos: int) -> bool:
        return self.board[pos] == Space.INN and 0 < pos < self.last

    def next_inn(self, pos: int) -> int:
        return next(i for i in range(pos + 1, self.last + 1) if self.board[i] == Space.INN)

    def capacity(self, pos: int) -> int:
        if self.board[pos] == Space.INN:
            return self.n_trav
        slots = 2 if self.double[pos] and self.n_trav >= 4 else 1
        return max(0, slots - self.m.closed.get(pos, 0))  # Matsuri: closed spaces, for everyone (M12)

    def occupants(self, pos: int) -> list[TravelerState]:
        return [tr for tr in self.travelers if tr.pos == pos]

    def behind_key(self, tr: TravelerState) -> tuple[int, int]:
        """Smaller = farther behind: lower position, then the later arrival."""
        return (tr.pos, -tr.stamp)

    def next_traveler(self) -> int | None:
        """The traveler farthest behind moves next; None once everyone reached the last Inn."""
        if all(tr.pos == self.last for tr in self.travelers):
            return None
        return min(self.travelers, key=self.behind_key).index

    def lead_player(self) -> int:
        """The player whose traveler is farthest along (same space: the earlier arrival); C10."""
        return max(self.players(), key=self.behind_key).index

    def why_illegal(self, t: int, dest: int, friendship: bool = False) -> str | None:
        """Why ``t`` may not move to ``dest`` now, or None if the move is legal.

        ``friendship``: the Friendship Amulet is used, so ``dest`` must be a space of
        one slot (a single space, or a double one at 2-3 travelers) already holding
        exactly one other traveler, which then takes ``t`` as if it were double.
        """
        tr = self.travelers[t]
        if not 0 <= dest <= self.last:
            return f"space {dest} is not on the board"
        if dest <= tr.pos:
            return f"space {dest} is not ahead of space {tr.pos}"
        inn = self.next_inn(tr.pos)
        if dest > inn:
            return f"space {dest} lies beyond the Inn at {inn}, which every traveler must stop at"
        kind = self.board[dest]
        if kind != Space.INN and self.capacity(dest) == 0:
            return f"space {dest} ({self.space_name(dest)}) is closed by a Matsuri until the next Inn"
        if friendship and dest in self.m.closed and not self.m_choice("friendship_on_half_closed"):
            return f"space {dest} is half closed by a Matsuri: the friendship amulet cannot open it"
        if friendship:
            if kind == Space.INN or self.capacity(dest) != 1 or len(self.occupants(dest)) != 1:
                n_occ = len(self.occupants(dest))
                return (
                    f"the friendship amulet needs a one-slot space held by exactly one other traveler; "
                    f"space {dest} ({self.space_name(dest)}) holds {n_occ}"
                )
        elif kind != Space.INN and len(self.occupants(dest)) >= self.capacity(dest):
            who = ", ".join(o.name for o in self.occupants(dest))
            return f"space {dest} ({self.space_name(dest)}) is full ({who})"
        if tr.neutral:
            return None  # C9: any free space up to the next Inn
        if kind == Space.VILLAGE and tr.coins < self.params["VILLAGE_MIN_COINS"]:
            return f"{tr.name} has {tr.coins} coins and may not stop at a village"
        if (
            kind == Space.TEMPLE
            and tr.coins < self.params["TEMPLE_MIN_COINS"]
            and not self.mari_free_stop(tr)
        ):
            return f"{tr.name} has {tr.coins} coins and may not stop at a temple"
        if (
            kind in PANORAMA_SPACES
            and self.panorama_complete(tr, PANORAMA_SPACES[kind])
            and not (self.cherry_left and self.params["CHERRY_AT_COMPLETE"])
        ):  # online: a stop for a Cherry Tree
            return f"{tr.name} has completed the {PANORAMA_NAMES[PANORAMA_SPACES[kind]]} panorama"
        return None

    def legal_destinations(self, t: int, friendship: bool = False) -> list[int]:
        tr = self.travelers[t]
        if tr.pos >= self.last:
            return []
        return [
            d
            for d in range(tr.pos + 1, self.next_inn(tr.pos) + 1)
            if self.why_illegal(t, d, friendship) is None
        ]

    def move(self, t: int, dest: int) -> None:
        tr = self.travelers[t]
        tr.pos = dest
        tr.stamp = self.next_stamp
        self.next_stamp += 1
        self.turn += 1
        if self.board[dest] != Space.INN:
            tr.stops += 1

    def inn_visit(self, pos: int) -> InnVisit:
        if pos not in self.inns:
            self.inns[pos] = InnVisit(pos)
        return self.inns[pos]

    # ------------------------------------------------------------ collections
    def why_no_base(self, tr: TravelerState, kind: int) -> str | None:
        """At a completed panorama's space (a stop only for a Cherry Tree, online) there is no base action."""
        if kind in PANORAMA_SPACES and self.panorama_complete(tr, PANORAMA_SPACES[kind]):
            return f"{tr.name} has completed the {PANORAMA_NAMES[PANORAMA_SPACES[kind]]} panorama"
        if kind == Space.TEMPLE and tr.coins < self.params["TEMPLE_MIN_COINS"]:
            return f"{tr.name} has no coin to donate"
        return None

    def mari_free_stop(self, tr: TravelerState) -> bool:
        """MT-Mari (rule parameter): "if she decides to buy an Amulet, Mari can take it for free" (002:L612),
        so with no coin she may stop at a Temple for that Amulet while one is left."""
        return (
            bool(self.params.get("MARI_FREE_TEMPLE"))
            and tr.ability == Ability.MARI
            and bool(self.amulet_market)
        )

    def panorama_complete(self, tr: TravelerState, ptype: int) -> bool:
        return tr.panorama[ptype] >= self.rules.panorama_lengths[ptype]

    def incomplete_panoramas(self, tr: TravelerState) -> list[int]:
        return [p for p in range(3) if not self.panorama_complete(tr, p)]

    def meal_price(self, tr: TravelerState, card: int) -> int:
        """What ``tr`` pays for a meal at an Inn (Kinko: printed cost minus the discount, C22)."""
        cost = self.rules.meals[card].cost
        if (
            tr.ability == Ability.AYUMU
        ):  # Matsuri: every meal costs him exactly 1 (002:L597), less Cho-yo's (M24)
            cost = int(self.params["AYUMU_MEAL_COST"])
        elif tr.ability == Ability.KINKO:
            cost = max(0, cost - self.params["KINKO_DISCOUNT"])
        if self.matsuri and self.m.cho_yo_at == tr.pos:  # Cho-yo: after abilities, at least 0 (M24)
            cost = max(0, cost - int(self.rules.raw["matsuri"]["choyo_discount"]))
        return cost

    def nostalgia_souvenirs(self, tr: TravelerState) -> int:
        """Souvenirs Nostalgia counts: the cards, and Doll/Carp tokens only if so chosen (M17)."""
        tokens = tr.dolls + tr.carps if self.matsuri and self.m_choice("doll_counts_for_nostalgia") else 0
        return len(tr.souvenirs) + tokens

    def m_choice(self, name: str) -> bool:
        """A Matsuri rule choice of ``sim/games/tokaido/data/matsuri.toml`` [choices] (M4-M29)."""
        return bool(self.rules.raw["matsuri"]["choices"][name])

    def can_eat(self, tr: TravelerState, card: int) -> bool:
        return self.rules.meals[card].dish not in tr.dishes

    def alone_in_lead(self, tr: TravelerState) -> bool:
        """Every other traveler is strictly behind ``tr`` on the road (Vitality, C36)."""
        return all(o.pos < tr.pos for o in self.travelers if o is not tr)

    def complete_panoramas(self, tr: TravelerState) -> int:
        return sum(1 for p in range(3) if self.panorama_complete(tr, p))

    def card_name(self, deck: int, card: int) -> str:
        r = self.rules
        if deck == Deck.LEGENDARY:
            return r.legendary[card].name
        if deck == Deck.AMULET:
            return f"{r.amulets[card]} amulet"
        if deck == Deck.CALLIGRAPHY:
            return f"{r.calligraphy[card]} calligraphy"
        if deck in (Deck.CHERRY, Deck.BATHHOUSE):
            return XR_DECK_NAMES[deck - Deck.LEGENDARY]
        if deck == Deck.SOUVENIR:
            s = r.souvenirs[card]
            return f"{s.name} ({r.souvenir_families[s.family]})"
        if deck == Deck.MEAL:
            return r.meals[card].name
        if deck == Deck.HOT_SPRING:
            return f"hot spring {r.hot_springs[card].value}"
        e = r.encounters[card]
        return e.name if e.panorama < 0 else f"{e.name} ({PANORAMA_NAMES[e.panorama]})"
