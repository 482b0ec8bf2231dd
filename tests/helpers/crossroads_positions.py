"""Hand-made Crossroads positions on top of ``tests/helpers/positions.py``, which re-exports every name here
(``from tests.helpers.positions import xr_position`` works too): a Crossroads configuration, card ids by name,
the markets, Amulets and Calligraphy held, a whole Crossroads move and the start of a turn.

    rs = make_rules(xr_config(3))
    pos = xr_position(rs, markets={"amulets": ["health"]}, amulets={0: ["vitality"]}, positions=[1, 2, 3])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from kernels.tokaido.core.board import lead_player_nb
from kernels.tokaido.core.enums import PF, Cfg, Ev
from kernels.tokaido.game.turn import begin_turn_nb, move_nb
from sim.games.tokaido.rules.config import GameConfig

if TYPE_CHECKING:
    from tests.helpers.positions import Position, RuleSet

XR = ("crossroads",)
MARKET_OF = {"legendary": 0, "amulets": 1, "calligraphy": 2}  # row of ``pub['mkt']``


def xr_config(n_players: int = 3, travelers: str = "random", **kw: Any) -> GameConfig:
    """A Crossroads configuration (``GameConfig(n, expansions=("crossroads",))``)."""
    expansions = tuple(kw.pop("expansions", ())) + XR
    return GameConfig(n_players=n_players, travelers=travelers, expansions=expansions, **kw)


def legendary_ids(rs: RuleSet, *names: str) -> list[int]:
    """Legendary Object card ids by name (shodo, emaki, buppatsu, ema, murasame, masamune)."""
    by_name = {lo.name: lo.id for lo in rs.rules.legendary}
    return [by_name[n] for n in names]


def amulet_ids(rs: RuleSet, *names: str) -> list[int]:
    """Amulet card ids by name (vitality, fortune, health, friendship, hospitality, devotion)."""
    return [rs.rules.amulets.index(n) for n in names]


def calligraphy_ids(rs: RuleSet, *names: str) -> list[int]:
    """Calligraphy card ids by name (foresight, contemplation, nostalgia, patience, perfection, fasting)."""
    return [rs.rules.calligraphy.index(n) for n in names]


def set_markets(
    pos: Position,
    legendary: Iterable[str] | None = None,
    amulets: Iterable[str] | None = None,
    calligraphy: Iterable[str] | None = None,
    cherry: int | None = None,
    bathhouses: int | None = None,
) -> None:
    """Put Crossroads cards in play, face up (what ``setup_markets_nb`` does at random).

    Names per market (``None``: every card of the box); ``cherry``/``bathhouses``:
    identical cards left (``None``: the configuration's cards per type, 6 or the by-count table's).
    """
    rs = pos.rs
    mkt = pos.pub["mkt"]
    chosen = (
        legendary_ids(rs, *legendary) if legendary is not None else [lo.id for lo in rs.rules.legendary],
        amulet_ids(rs, *amulets) if amulets is not None else list(range(len(rs.rules.amulets))),
        calligraphy_ids(rs, *calligraphy)
        if calligraphy is not None
        else list(range(len(rs.rules.calligraphy))),
    )
    mkt[:, :] = 0
    for m, ids in enumerate(chosen):
        for c in ids:
            mkt[m, c] = 1
    k = int(rs.ru["cfg"][Cfg.XR_CARDS])
    pos.pub["xcnt"][0] = k if cherry is None else cherry
    pos.pub["xcnt"][1] = k if bathhouses is None else bathhouses


def give_amulets(pos: Position, t: int, *names: str, new: bool = False) -> None:
    """Traveler ``t`` holds these Amulets (``new``: bought this turn, not usable yet); they leave the
    market."""
    for c in amulet_ids(pos.rs, *names):
        pos.ps[t, PF.AMULETS] |= 1 << c
        if new:
            pos.ps[t, PF.AMULETS_NEW] |= 1 << c
        pos.pub["mkt"][1, c] = 0


def give_calligraphy(pos: Position, t: int, *names: str) -> None:
    """Traveler ``t`` holds these Calligraphy cards; they leave the market."""
    for c in calligraphy_ids(pos.rs, *names):
        pos.ps[t, PF.CALLI_MASK] |= 1 << c
        pos.ps[t, PF.CALLIGRAPHY] += 1
        pos.pub["mkt"][2, c] = 0


def xr_position(
    rs: RuleSet,
    markets: dict[str, Any] | None = None,
    amulets: dict[int, Sequence[str]] | None = None,
    calligraphy: dict[int, Sequence[str]] | None = None,
    **kw: Any,
) -> Position:
    """``make_position`` plus the Crossroads markets (``set_markets(**markets)``), Amulets and Calligraphy
    held."""
    from tests.helpers.positions import make_position  # here: positions.py re-exports this module

    pos = make_position(rs, **kw)
    set_markets(pos, **(markets or {}))
    for t, names in (amulets or {}).items():
        give_amulets(pos, t, *names)
    for t, names in (calligraphy or {}).items():
        give_calligraphy(pos, t, *names)
    return pos


def xmove(pos: Position, t: int, s: int) -> None:
    """A whole Crossroads move of ``t`` to ``s`` as ``kernels.tokaido.game.turn`` plays it (``move_nb``): the
    Friendship Amulet if the space is full, the stop, then the Vitality Amulet."""
    ctrl = lead_player_nb(pos.pub) if pos.ps[t, PF.NEUTRAL] == 1 else t
    pos.k(move_nb)(pos.pub, pos.hid, pos.ru, t, ctrl, s)


def begin_turn(pos: Position) -> tuple[int, int, list[int]]:
    """``begin_turn_nb``: (who moves, who decides, the legal destinations), after the Fortune Amulet."""
    t, ctrl, n = pos.k(begin_turn_nb)(pos.pub, pos.hid, pos.ru)
    return int(t), int(ctrl), [int(s) for s in pos.pub["cand"][:n]]


def choice(pos: Position, t: int) -> int:
    """The option traveler ``t`` chose at its stop (the value of its one ``CHOICE`` event)."""
    (ev,) = [e for e in pos.events(Ev.CHOICE) if e[1] == t]
    return ev[3]
