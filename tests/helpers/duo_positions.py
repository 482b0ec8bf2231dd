"""Hand-made Duo positions for the rule tests: the kernels' records after setup, then edited by hand.

    pos = duo_position(pilgrims=[3, 10], merchants=["M1", "C4"], artists=["Z1", "Z2"])
    pos.plays(0, Char.PILGRIM, 2)      # the legal plays, as (target, extra, action, wave flag) tuples
    pos.play(0, Char.PILGRIM, (5, 2, 1, 0))
    pos.events(Ev.PTAKE)

Towns and zones are named as in the board file (C1..C8, M1..M4, Z1..Z8).
Logging is on. The records are views into arrays the ``DuoPosition`` keeps alive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from kernels.core.rng import seed_game_nb
from kernels.duo.effects import apply_play_nb
from kernels.duo.enums import CHAR_NAMES, PF, SIDE_NAMES, G
from kernels.duo.game import pick_nb, setup_nb
from kernels.duo.moves import plays_nb
from kernels.duo.state import HID_DTYPE, PUB_DTYPE
from sim.games.duo.board import TOWNS
from sim.games.duo.rules import DuoRules, load_duo_rules


@dataclass
class DuoPosition:
    rules: DuoRules
    ru_arr: np.ndarray
    pub_arr: np.ndarray
    hid_arr: np.ndarray

    @property
    def ru(self) -> Any:
        return self.ru_arr[0]

    @property
    def pub(self) -> Any:
        return self.pub_arr[0]

    @property
    def hid(self) -> Any:
        return self.hid_arr[0]

    @property
    def ps(self) -> np.ndarray:
        return self.pub["ps"]

    @property
    def gs(self) -> np.ndarray:
        return self.pub["gs"]

    def zone(self, zid: str) -> int:
        return [z.id for z in self.rules.board.zones].index(zid)

    def plays(self, p: int, c: int, v: int) -> list[tuple[int, int, int, int]]:
        n = plays_nb(self.pub, self.ru, p, c, v)
        return [tuple(int(x) for x in self.pub["cand"][k]) for k in range(n)]  # type: ignore[misc]

    def play(self, p: int, c: int, play: tuple[int, int, int, int], v: int | None = None) -> None:
        """Apply one of the legal plays (given by value; ``v`` defaults to the play's extra for a pilgrim)."""
        legal = self.plays(p, c, v if v is not None else play[1])
        assert play in legal, f"{play} is not among the legal plays {legal}"
        apply_play_nb(self.pub, self.hid, self.ru, p, c, legal.index(play))

    def pick(self, p: int, c: int, dice: tuple[int, int, int]) -> None:
        """A whole pick through the game kernel: the bots choose the play (and a Hot Spring repeat)."""
        for k in range(3):
            self.gs[G.DIE0 + k] = dice[k]
        pick_nb(self.pub, self.hid, self.ru, p, c)

    def events(self, kind: int | None = None) -> list[tuple[int, ...]]:
        rows = self.hid["log"][: self.hid["lg"][0]]
        return [tuple(int(x) for x in r) for r in rows if kind is None or r[0] == kind]

    def clear_log(self) -> None:
        self.hid["lg"][0] = 0


def duo_position(
    rules: DuoRules | None = None,
    sets: list[str] | None = None,
    bots: tuple[str, str] = ("greedy", "greedy"),
    pilgrims: list[int] | None = None,
    merchants: list[str] | None = None,
    artists: list[str] | None = None,
    waves: dict[str, tuple[str, int | None]] | None = None,  # character -> (side, holder)
    tiles: list[list[int]] | None = None,  # icons 1..4 per slot, per player
    revealed: list[int] | None = None,
    gifted: list[int] | None = None,
    wares: list[dict[int, int]] | None = None,
    boutiques: dict[str, tuple[int, int]] | None = None,  # town -> (ware, coins)
    **fields: list[int],  # any PF field by lower-case name: temple=[3, 0], coins=[9, 0]
) -> DuoPosition:
    rules = rules or load_duo_rules(sets=sets)
    ru = rules.record(bots, log=True)
    pub = np.zeros(1, PUB_DTYPE)
    hid = np.zeros(1, HID_DTYPE)
    seed_game_nb(pub[0]["rng"], 1, 0)
    setup_nb(pub[0], hid[0], ru[0])
    pos = DuoPosition(rules, ru, pub, hid)
    ps = pos.ps
    ids = [z.id for z in rules.board.zones]
    for p in range(2):
        if pilgrims is not None:
            ps[p, PF.PIL] = pilgrims[p]
        if merchants is not None:
            ps[p, PF.MER] = TOWNS.index(merchants[p])
        if artists is not None:
            ps[p, PF.ART] = ids.index(artists[p])
        for name, vals in fields.items():
            ps[p, getattr(PF, name.upper())] = vals[p]
        if tiles is not None:
            pos.hid["tiles"][p, :] = [i - 1 for i in tiles[p]]
        if revealed is not None:
            ps[p, PF.REVEALED] = revealed[p]
            pos.pub["shown"][p, :] = -1
            pos.pub["shown"][p, : revealed[p]] = pos.hid["tiles"][p, : revealed[p]]
        if gifted is not None:
            ps[p, PF.GIFTED] = gifted[p]
        if wares is not None:
            total = 0
            for w, n in wares[p].items():
                pos.pub["wares"][p, w] = n
                pos.pub["bag"][w] -= n
                total += n
            ps[p, PF.NWARES] = total
    for c, name in enumerate(CHAR_NAMES):
        pos.pub["wown"][c] = -1
        if waves and name in waves:
            side, holder = waves[name]
            pos.pub["wside"][c] = SIDE_NAMES.index(side)
            pos.pub["wown"][c] = -1 if holder is None else holder
    for town, (w, coins) in (boutiques or {}).items():
        pos.pub["btq"][TOWNS.index(town)] = (w, coins)
    pos.clear_log()
    return pos
