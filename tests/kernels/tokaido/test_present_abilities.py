"""``gs[G.ABILS]``: the abilities a game holds, which gate the Matsuri and promo hooks
(kernels.tokaido.core.present).

A gate that left out an ability would skip its rule: the rule tests of each Traveler
(tests/kernels/tokaido/*/)
go through the gated calls from hand-built positions, which set the mask as set-up does.
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import PF, G
from kernels.tokaido.core.present import ARRIVAL, MUTSUMI, holds_nb
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.positions import BOTH, make_position, make_rules, setup_position

CONFIGS = [
    GameConfig(n_players=4, travelers="draft"),
    GameConfig(n_players=2, travelers="random"),
    GameConfig.parse("players=5,travelers=random,expansions=crossroads+matsuri+promos"),
    GameConfig.parse("players=3,travelers=draft,expansions=crossroads+matsuri"),
]


@pytest.mark.parametrize("config", CONFIGS, ids=["4p-draft", "2p-random", "5p-matsuri-promos", "3p-matsuri"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setup_sets_the_players_abilities(config: GameConfig, seed: int) -> None:
    pos = setup_position(make_rules(config), seed=seed)
    n = pos.gs[G.N_PLAYERS]
    want = 0
    for p in range(n):
        want |= 1 << int(pos.ps[p, PF.ABILITY])
    assert pos.gs[G.ABILS] == want
    assert want != 0  # every player has an ability code (NONE is bit 0)


@BOTH
def test_hand_built_positions_hold_their_travelers(mode: str) -> None:
    rs = make_rules(GameConfig.parse("players=3,travelers=random,expansions=crossroads+matsuri"))
    pos = make_position(rs, travelers=["kidzuna", "hiroshige", "mutsumi"], mode=mode)
    assert pos.k(holds_nb)(pos.pub, ARRIVAL) and pos.k(holds_nb)(pos.pub, MUTSUMI)
    pos = make_position(rs, travelers=["kinko", "hiroshige", "chuubei"], mode=mode)
    assert not pos.k(holds_nb)(pos.pub, ARRIVAL) and not pos.k(holds_nb)(pos.pub, MUTSUMI)
