"""Hand-made positions for the rule tests: the kernels' three records, filled by hand.

    rs = make_rules(GameConfig(n_players=3, travelers="random"))
    pos = make_position(rs, travelers=["kinko", "satsuki", None], positions=[13, 12, 14],
                        coins=[5, 2, 0], top={Deck.MEAL: meal_ids(rs, "sushi", "dango")})
    pos.stop(1, 14)              # traveler 1 arrives at the Inn on space 14
    pos.ps[1, PF.MEALS], pos.events(Ev.GAIN)

``make_rules`` builds the rules record the way ``sim.games.tokaido.engine.play_games`` does
(``GameConfig(...).rules().tables()``, ``config.cfg_array``, ``bot_weights``) and
can override any number of ``kernels.tokaido.core.enums.P`` by name. ``make_position`` builds a
public record (``pub``) and a hidden one (``hid``: piles and the action log) with
chosen Travelers, positions, arrival order, coins, collections, pile orders and
the current Inn's meal hand. Logging is on, so ``Position.events`` shows what the
kernels did.

Every record is a view into a one-element array that the ``RuleSet`` /
``Position`` object keeps alive; hold on to the object while using its records.

Kernel functions are called either compiled or as plain Python (``.py_func``):
``kern(fn, mode)`` picks one, and ``BOTH`` parametrizes a test over the two modes.
Nested calls inside a ``py_func`` still go to the compiled functions.

The Crossroads helpers (``xr_config``, ``xr_position``, ``set_markets``, ``give_amulets``, ``xmove``,
...) live in ``tests/helpers/crossroads_positions.py``; this module re-exports them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import pytest

from kernels.core.log import log_nb
from kernels.core.rng import seed_game_nb
from kernels.tokaido.core.enums import DECK_CAP, MAX_TRAV, N_FAMILIES, PF, Ability, Bot, Ev, G, P, Space
from kernels.tokaido.core.present import abilities_nb
from kernels.tokaido.core.state import HID_DTYPE, PUB_DTYPE, RULES_DTYPE
from kernels.tokaido.core.weights import W
from kernels.tokaido.game.stations import inn_nb, station_nb, temple_nb
from kernels.tokaido.game.turn import setup_nb
from kernels.tokaido.play import turn_nb
from sim.games.tokaido.bots import bot_weights
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules

# the Crossroads helpers live in tests/helpers/crossroads_positions.py; re-exported for ``from
# tests.helpers.positions import``
from tests.helpers.crossroads_positions import MARKET_OF as MARKET_OF
from tests.helpers.crossroads_positions import XR as XR
from tests.helpers.crossroads_positions import amulet_ids as amulet_ids
from tests.helpers.crossroads_positions import begin_turn as begin_turn
from tests.helpers.crossroads_positions import calligraphy_ids as calligraphy_ids
from tests.helpers.crossroads_positions import choice as choice
from tests.helpers.crossroads_positions import give_amulets as give_amulets
from tests.helpers.crossroads_positions import give_calligraphy as give_calligraphy
from tests.helpers.crossroads_positions import legendary_ids as legendary_ids
from tests.helpers.crossroads_positions import set_markets as set_markets
from tests.helpers.crossroads_positions import xmove as xmove
from tests.helpers.crossroads_positions import xr_config as xr_config
from tests.helpers.crossroads_positions import xr_position as xr_position

MODES = ("jit", "py")
BOTH = pytest.mark.parametrize("mode", MODES)
LAST = 54  # Edo, the last Inn (Kyoto on a Return Trip)
INNS = (0, 14, 27, 41, 54)  # the base board's Inns


def kern(fn: Any, mode: str = "jit") -> Any:
    """The compiled kernel, or its pure-Python body (``mode == "py"``)."""
    return getattr(fn, "py_func", fn) if mode == "py" else fn


# ------------------------------------------------------------------ rules
@dataclass
class RuleSet:
    """The rules record ``ru`` (a view into ``arr``), with the Python ``Rules`` and config."""

    arr: np.ndarray
    rules: Rules
    config: GameConfig

    @property
    def ru(self) -> np.void:
        return self.arr[0]

    def __iter__(self):  # ``ru, keep = make_rules(...)``
        return iter((self.ru, self.arr))


@cache
def _rules_of(config: GameConfig) -> Rules:
    return config.rules()


@cache
def _greedy(config: GameConfig) -> np.ndarray:
    return bot_weights("greedy", _rules_of(config))


def make_rules(
    config: GameConfig | None = None, *, weights: dict[str, float] | None = None, **param_overrides: int
) -> RuleSet:
    """The rules record of ``config`` (default: 4 players, random Travelers, greedy bots).

    ``param_overrides`` set ``params[P.<NAME>]`` (case-insensitive), e.g.
    ``make_rules(cfg, village_draw=2)``; ``weights`` set greedy bot weights
    (``W`` names) for every traveler row.
    """
    config = config or GameConfig(n_players=4, travelers="random")
    rules = _rules_of(config)
    arr = np.zeros(1, RULES_DTYPE)
    ru = arr[0]
    for key, table in rules.tables().items():
        if key in RULES_DTYPE.names:  # as sim.games.tokaido.engine.play_games does
            ru[key][tuple(slice(0, k) for k in table.shape)] = table
    cfg = config.cfg_array(rules, log=True)
    ru["cfg"][: len(cfg)] = cfg
    w = _greedy(config).copy()
    for name, value in (weights or {}).items():
        w[getattr(W, name.upper())] = value
    for t in range(MAX_TRAV):
        ru["botw"][t] = w
    for name, value in param_overrides.items():
        ru["params"][getattr(P, name.upper())] = value
    return RuleSet(arr, rules, config)


# ------------------------------------------------------------------ card ids
def souvenir_ids(rs: RuleSet, *names: str) -> list[int]:
    by_name = {s.name: s.id for s in rs.rules.souvenirs}
    return [by_name[n] for n in names]


def meal_ids(rs: RuleSet, *dishes: str) -> list[int]:
    """One meal card per dish name; a name given twice gives two different copies."""
    out: list[int] = []
    for name in dishes:
        out.append(next(m.id for m in rs.rules.meals if m.name == name and m.id not in out))
    return out


def dish_of(rs: RuleSet, name: str) -> int:
    return rs.rules.dishes.index(name)


def hot_spring_ids(rs: RuleSet, *values: int) -> list[int]:
    out: list[int] = []
    for v in values:
        out.append(next(h.id for h in rs.rules.hot_springs if h.value == v and h.id not in out))
    return out


def encounter_ids(rs: RuleSet, *kinds: str | tuple[str, int]) -> list[int]:
    """Encounter card ids by kind name; ``("annaibito", type)`` picks the depicted panorama."""
    out: list[int] = []
    for k in kinds:
        name, pan = (k, None) if isinstance(k, str) else k
        out.append(
            next(
                e.id
                for e in rs.rules.encounters
                if e.name == name and (pan is None or e.panorama == pan) and e.id not in out
            )
        )
    return out


def spaces_of(rs: RuleSet, typ: int, double: bool | None = None) -> list[int]:
    r = rs.rules
    return [
        i for i, t in enumerate(r.board_types) if t == typ and (double is None or r.board_double[i] == double)
    ]


# ------------------------------------------------------------------ positions
@dataclass
class Position:
    """One game's ``pub`` and ``hid`` records (views into arrays kept here) and its rules."""

    rs: RuleSet
    pub_arr: np.ndarray
    hid_arr: np.ndarray
    mode: str = "jit"
    ranks_arr: np.ndarray = field(default_factory=lambda: np.zeros(16, np.int32))

    @property
    def pub(self) -> np.void:
        return self.pub_arr[0]

    @property
    def hid(self) -> np.void:
        return self.hid_arr[0]

    @property
    def ru(self) -> np.void:
        return self.rs.ru

    @property
    def ps(self) -> np.ndarray:
        return self.pub["ps"]

    @property
    def gs(self) -> np.ndarray:
        return self.pub["gs"]

    def k(self, fn: Any) -> Any:
        return kern(fn, self.mode)

    # -------------------------------------------------------------- reading
    def events(self, kind: int | None = None) -> list[tuple[int, ...]]:
        """Logged events ``(kind, t, a, b, c, d)``, optionally of one kind only."""
        n = int(self.hid["lg"][0])
        rows = [tuple(int(x) for x in r) for r in self.hid["log"][:n]]
        return [r for r in rows if kind is None or r[0] == kind]

    def pile(self, d: int) -> list[int]:
        """Pile ``d``, top card first."""
        top, n = int(self.hid["dtop"][d]), int(self.pub["dcnt"][d])
        return [int(self.hid["deck"][d, (top + i) % DECK_CAP]) for i in range(n)]

    def hand(self) -> list[int]:
        return [int(c) for c in self.pub["hand"][: self.gs[G.HAND_N]]]

    def clear_log(self) -> None:
        self.hid["lg"][0] = 0

    # -------------------------------------------------------------- acting
    def stop(self, t: int, s: int) -> None:
        """Move traveler ``t`` to space ``s`` and resolve the space.

        The bookkeeping mirrors ``kernels.tokaido.play.turn_nb`` after the move is
        chosen, so a test can pick the destination instead of the bot.
        """
        ps, gs, occ = self.ps, self.gs, self.pub["occ"]
        occ[ps[t, PF.POS]] -= 1
        occ[s] += 1
        ps[t, PF.POS] = s
        ps[t, PF.SEQ] = gs[G.SEQ]
        gs[G.SEQ] += 1
        gs[G.TURNS] += 1
        ctrl = t
        log_nb(self.hid, Ev.MOVE, t, s, ctrl, -1, -1)
        typ = self.ru["board"][0, s]
        if typ == Space.INN:
            self.k(inn_nb)(self.pub, self.hid, self.ru, t, s)
        elif ps[t, PF.NEUTRAL] == 1:
            if typ == Space.TEMPLE:
                self.k(temple_nb)(self.pub, self.hid, self.ru, t)
        else:
            self.k(station_nb)(self.pub, self.hid, self.ru, t, typ)

    def turn(self) -> bool:
        """One real kernel turn (``turn_nb``): the bot of the traveler behind chooses."""
        return bool(self.k(turn_nb)(self.pub, self.hid, self.ru))


def _set_pile(pub: np.void, hid: np.void, d: int, cards: Sequence[int]) -> None:
    hid["deck"][d, :] = -1
    hid["deck"][d, : len(cards)] = cards
    hid["dtop"][d] = 0
    pub["dcnt"][d] = len(cards)


def make_position(
    rs: RuleSet,
    travelers: Sequence[str | None] | None = None,
    n_players: int | None = None,
    positions: Sequence[int] | None = None,
    arrival: Sequence[int] | None = None,
    coins: Sequence[int] | None = None,
    bots: Sequence[int] | int = Bot.GREEDY,
    families: dict[int, Sequence[int]] | None = None,
    panoramas: dict[int, Sequence[int]] | None = None,
    dishes: dict[int, Iterable[str]] | None = None,
    donated: Sequence[int] | None = None,
    fields: dict[int, dict[str, int]] | None = None,
    top: dict[int, Sequence[int]] | None = None,
    piles: dict[int, Sequence[int]] | None = None,
    hand: Sequence[int] | None = None,
    pan_ach: int = 0,
    seed: int = 12345,
    mode: str = "jit",
) -> Position:
    """A hand-made position.

    travelers  Traveler name per player (``None``: no Traveler, as in Initiation).
               With 2 players the Neutral Traveler is added as traveler 2.
    positions  board index per traveler (Neutral included); default all at Kyoto.
    arrival    arrival stamps per traveler: on one space the higher stamp arrived
               later (is "behind"); default: list order (traveler 0 first).
    coins      per player; default the Traveler's starting coins (7 without one).
    bots       one ``Bot`` for everyone or one per player.
    families   {t: souvenirs held per family}; panoramas {t: cards per type};
    dishes     {t: dish names eaten}; donated: coins on the Temple per traveler;
    fields     {t: {"PF_NAME": value}} for anything else.
    top        {deck: cards put on top of the pile (top first); the rest follows in id order}.
    piles      {deck: the pile's exact contents, top first} (e.g. ``[]`` for an empty pile).
    hand       the meal cards waiting at the current Inn.
    pan_ach    bit k set: the panorama achievement k is already taken.
    """
    r = rs.rules
    n = n_players if n_players is not None else rs.config.n_players
    nt = n + 1 if n == 2 else n
    travelers = list(travelers) if travelers is not None else [None] * n
    assert len(travelers) == n, f"{len(travelers)} Travelers for {n} players"
    pub_arr = np.zeros(1, PUB_DTYPE)
    hid_arr = np.zeros(1, HID_DTYPE)
    pub, hid = pub_arr[0], hid_arr[0]
    ps, gs = pub["ps"], pub["gs"]
    pub["rng"][0] = np.uint64(seed)
    gs[G.N_PLAYERS] = n
    gs[G.N_TRAV] = nt
    gs[G.LAST] = LAST
    hid["lg"][1] = 1
    gs[G.LOG_ON] = 1
    ps[:, PF.TRAVELER] = -1
    ps[:, PF.ALT_TRAVELER] = -1
    bot_list = [bots] * n if isinstance(bots, int) else list(bots)
    for p, name in enumerate(travelers):
        if name is None:
            ps[p, PF.ABILITY] = Ability.NONE
            ps[p, PF.COINS] = rs.ru["params"][P.INITIATION_COINS]
        else:
            tid = r.traveler_index(name)
            ps[p, PF.TRAVELER] = tid
            ps[p, PF.ABILITY] = r.travelers[tid].ability
            ps[p, PF.COINS] = r.travelers[tid].coins
        ps[p, PF.BOT] = bot_list[p]
        ps[p, PF.SEAT] = p
    if n == 2:
        ps[2, PF.NEUTRAL] = 1
    if coins is not None:
        for p, c in enumerate(coins):
            ps[p, PF.COINS] = c
    for p in range(n):
        ps[p, PF.COINS_START] = ps[p, PF.COINS]
    pos = list(positions) if positions is not None else [0] * nt
    assert len(pos) == nt, f"{len(pos)} positions for {nt} travelers"
    stamps = list(arrival) if arrival is not None else list(range(1, nt + 1))
    for t in range(nt):
        ps[t, PF.POS] = pos[t]
        ps[t, PF.SEQ] = stamps[t]
        pub["occ"][pos[t]] += 1
    gs[G.SEQ] = max(stamps) + 1
    for t, fams in (families or {}).items():
        assert len(fams) <= N_FAMILIES
        for f, c in enumerate(fams):
            ps[t, PF.FAM0 + f] = c
        ps[t, PF.SOUVENIRS] = sum(fams)
    for t, pans in (panoramas or {}).items():
        for k, c in enumerate(pans):
            ps[t, PF.PAN0 + k] = c
        ps[t, PF.PANORAMAS] = sum(pans)
    for t, names in (dishes or {}).items():
        for name in names:
            ps[t, PF.DISHES] |= 1 << r.dishes.index(name)
            ps[t, PF.MEALS] += 1
    for t, d in enumerate(donated or []):
        ps[t, PF.DONATED] = d
    for t, values in (fields or {}).items():
        for name, v in values.items():
            ps[t, getattr(PF, name.upper())] = v
    sizes = (len(r.souvenirs), len(r.meals), len(r.hot_springs), len(r.encounters))
    for d, size in enumerate(sizes):
        if piles is not None and d in piles:
            cards = list(piles[d])
        else:
            first = list((top or {}).get(d, []))
            cards = first + [c for c in range(size) if c not in first]
        assert len(set(cards)) == len(cards) and all(0 <= c < size for c in cards)
        _set_pile(pub, hid, d, cards)
    for i, c in enumerate(hand or []):
        pub["hand"][i] = c
    gs[G.HAND_N] = len(hand or [])
    gs[G.PAN_ACH] = pan_ach
    if hasattr(G, "LAST_MOVER"):  # as setup_nb leaves it: nobody has moved yet
        gs[G.LAST_MOVER] = -1
    kern(abilities_nb, mode)(pub)  # as setup_nb leaves it: which abilities the game holds
    return Position(rs, pub_arr, hid_arr, mode)


def setup_position(rs: RuleSet, seed: int = 1, mode: str = "jit") -> Position:
    """The real set-up (``setup_nb``) of the configuration's game ``seed``: deal, line-up, coins."""
    pub_arr = np.zeros(1, PUB_DTYPE)
    hid_arr = np.zeros(1, HID_DTYPE)
    seed_game_nb(pub_arr[0]["rng"], seed, 0)
    pos = Position(rs, pub_arr, hid_arr, mode)
    kern(setup_nb, mode)(pos.pub, pos.hid, pos.ru)
    return pos
