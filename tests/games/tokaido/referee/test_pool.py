"""The referee and the Traveler pool (``draft.pool``, docs/rules.md R90): it accepts the engine's games
with a pool, and refuses a deal of a Traveler outside it, drafted or at random."""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import Ev
from sim.checks.verify import verify
from sim.games.tokaido.game import TokaidoGame
from tests.helpers.referee_logs import assert_illegal, cfg, ev, feed, setup_log

POOL = (("draft.pool", "hiroshige+chuubei+kinko+satsuki+umegae+mitsukuni"),)


def _deal(rows: list, deals: list[tuple[int, ...]], keeps: list[int]) -> list:
    """The set-up rows of ``setup_log`` with its DEAL/KEEP rows replaced by these."""
    head = [r for r in rows if r[0] == Ev.DECK]
    tail = [r for r in rows if r[0] in (Ev.LINEUP, Ev.COINS)]
    return [
        *head,
        *(ev(Ev.DEAL, p, *ids) for p, ids in enumerate(deals)),
        *(ev(Ev.KEEP, p, t) for p, t in enumerate(keeps)),
        *tail,
    ]


@pytest.mark.parametrize("travelers", ["random", "draft"])
def test_referee_refuses_a_traveler_outside_the_pool(travelers: str) -> None:
    """A deal of Hirotada when the pool holds six other Travelers is illegal; a deal from the pool is
    accepted."""
    config, rules = cfg(3, travelers=travelers, overrides=POOL)
    fixed, _ = cfg(3, travelers="kinko,satsuki,umegae")
    rows = setup_log(fixed, rules)
    ids = [rules.traveler_index(n) for n in ("kinko", "satsuki", "hirotada")]
    deals = [(i,) if travelers == "random" else (i, j) for i, j in zip(ids, (0, 1, 8), strict=True)]
    bad = _deal(rows, deals, ids)
    index = next(k for k, r in enumerate(bad) if r[0] == Ev.DEAL and r[1] == 2)
    assert_illegal(feed(config, rules, bad), index, "outside draft.pool")
    good_ids = [ids[0], ids[1], rules.traveler_index("umegae")]
    good = [(i,) if travelers == "random" else (i, j) for i, j in zip(good_ids, (0, 1, 5), strict=True)]
    ref = feed(config, rules, _deal(rows, good, good_ids))
    assert not any("draft.pool" in e for e in ref.errors)


@pytest.mark.parametrize(
    "spec",
    [
        ("players=4,expansions=crossroads,travelers=draft,bots=greedy,set:draft.pool=base"),
        ("players=3,travelers=random,bots=greedy,set:draft.pool=hiroshige+chuubei+kinko+satsuki+umegae"),
    ],
)
def test_referee_accepts_the_engines_games_with_a_pool(spec: str) -> None:
    """Games the engine plays with a pool pass the independent referee."""
    from sim.games.tokaido.rules.config import GameConfig

    rep = verify(TokaidoGame(GameConfig.parse(spec)), 60, 5, 30, None)
    assert rep.mismatches == 0
