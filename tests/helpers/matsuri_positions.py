"""Hand-made Matsuri positions (``--expansions crossroads,matsuri``) on top of ``tests/helpers/positions.py``.

rs = make_rules(mt_config(4))
pos = mt_position(rs, stack=["hina", "tango"], positions=[14] * 4)   # everyone at the first Inn
matsuri_at(pos, 14)                   # the Matsuri of that Inn (what the last arrival triggers)
pos.events(Ev.TOKEN)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kernels.tokaido.core.enums import DECK_CAP, Deck, G
from kernels.tokaido.core.events import MATSURI_KINDS
from kernels.tokaido.game.matsuri import matsuri_inn_nb
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.positions import RuleSet, xr_position

MT = ("crossroads", "matsuri")
INN1, INN2, INN3, EDO = 14, 27, 41, 54


def mt_config(n_players: int = 4, travelers: str = "random", **kw: Any) -> GameConfig:
    expansions = tuple(kw.pop("expansions", ())) + MT
    return GameConfig(n_players=n_players, travelers=travelers, expansions=expansions, **kw)


def matsuri_ids(rs: RuleSet, *kinds: str) -> list[int]:
    """Matsuri card ids by kind name (``kernels.tokaido.core.events.MATSURI_KINDS``)."""
    by_kind = {c.kind: c.id for c in rs.rules.matsuri}
    return [by_kind[MATSURI_KINDS.index(k)] for k in kinds]


def set_stack(pos: Any, cards: Sequence[int]) -> None:
    """The Matsuri stack: ``cards`` on top (top first), then every other card in id order."""
    n = len(pos.rs.rules.matsuri)
    order = list(cards) + [c for c in range(n) if c not in cards]
    hid, pub = pos.hid, pos.pub
    hid["deck"][Deck.MATSURI, :] = -1
    hid["deck"][Deck.MATSURI, : len(order)] = order
    hid["dtop"][Deck.MATSURI] = 0
    pub["dcnt"][Deck.MATSURI] = len(order)
    assert len(order) <= DECK_CAP


def mt_position(rs: RuleSet, stack: Sequence[str] = (), **kw: Any) -> Any:
    """``xr_position`` plus the Matsuri stack with the cards of ``stack`` (kind names) on top."""
    pos = xr_position(rs, **kw)
    set_stack(pos, matsuri_ids(rs, *stack))
    return pos


def matsuri_at(pos: Any, s: int = INN1, inn: int = 0) -> None:
    """The Matsuri of the Inn on ``s`` (``inn`` Matsuri Inns already played), as the last arrival triggers
    it."""
    pos.gs[G.M_INN] = inn
    pos.k(matsuri_inn_nb)(pos.pub, pos.hid, pos.ru, s)
