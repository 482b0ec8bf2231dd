"""The per-player memo of ``features.context_nb`` gives the very floats a fresh computation gives.

``context_nb`` keeps each player's souvenir family values and mean meal price in
``bscr[B_MEMO:]`` with everything they read, and recomputes them when one of those changed
(issue 13, speed). These tests compare the whole context, float for float, with the context of
the same position whose memo was wiped, on the positions of real games (the memo warm from the
game's earlier decisions), and after the changes each key must notice.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.bots.features import B_FAM, B_MEMO, MEMO_N, context_nb
from kernels.core.enums import PF, Deck, G
from kernels.core.weights import HF, W
from tests.test_bots_speed import SPECS, expert_positions


def fresh_context(pub, ru, t, w):
    """The context of ``pub`` computed with an empty memo (on a copy)."""
    p = pub.copy()
    p["bscr"][B_MEMO:] = 0.0
    context_nb(p, ru, t, w)
    return p["bscr"][:B_MEMO].copy()


@pytest.mark.parametrize("spec", SPECS + ["players=4,travelers=random,bots=expert,expansions=crossroads+matsuri"])
def test_memoised_context_is_the_fresh_context(spec):
    n = 0
    for pubs, ru, t, ctrl, _ in expert_positions(spec, 2):
        pub = pubs[0]
        w = ru["botw"][ctrl]
        ref = fresh_context(pub, ru, t, w)
        context_nb(pub, ru, t, w)
        assert pub["bscr"][:B_MEMO].tolist() == ref.tolist()
        n += 1
    assert n > 30


def _warm(spec="players=4,travelers=draft,bots=expert"):
    """A mid-game position whose memo for the mover is filled; the mover one souvenir behind the most
    souvenirs (so its next souvenir would take the achievement: the end-achievement terms are not 0)."""
    for k, (pubs, ru, t, ctrl, _) in enumerate(expert_positions(spec, 1)):
        if k == 25:
            pub = pubs[0]
            n = int(pub["gs"][G.N_PLAYERS])
            for u in range(n):
                pub["ps"][u, PF.SOUVENIRS] = 0
            pub["ps"][t, PF.SOUVENIRS] = 6
            pub["ps"][(t + 1) % n, PF.SOUVENIRS] = 7
            w = ru["botw"][ctrl].copy()
            context_nb(pub, ru, t, w)
            assert pub["bscr"][B_MEMO + MEMO_N * t + 1] != 0.0  # the memo is in use
            return pub, ru, t, w
    raise AssertionError("no position")


def _change_family(pub, ru, t):
    pub["ps"][t, PF.FAM0 + 1] += 1
    pub["ps"][t, PF.SOUVENIRS] += 1


def _change_rival(pub, ru, t):  # another player now holds the most souvenirs: the achievement moves
    u = (t + 1) % int(pub["gs"][G.N_PLAYERS])
    pub["ps"][u, PF.SOUVENIRS] += 2


def _change_scripts(pub, ru, t):
    pub["ps"][t, PF.SCRIPTS] += 1


def _change_dishes(pub, ru, t):
    pub["ps"][t, PF.DISHES] |= 0b111


def _change_meals_gone(pub, ru, t):
    pub["gone"][Deck.MEAL] |= 0b1011


@pytest.mark.parametrize("change", [_change_family, _change_rival, _change_scripts, _change_dishes, _change_meals_gone])
def test_the_memo_notices_each_input(change):
    pub, ru, t, w = _warm()
    before = pub["bscr"][:B_MEMO].copy()
    change(pub, ru, t)
    ref = fresh_context(pub, ru, t, w)
    assert ref.tolist() != before.tolist()  # the change matters to the context
    context_nb(pub, ru, t, w)
    assert pub["bscr"][:B_MEMO].tolist() == ref.tolist()


@pytest.mark.parametrize("k", [HF.PTS, HF.SET_POT, HF.END_ACH])
def test_the_memo_notices_other_weights(k):
    """A search rollout plays everyone with the searcher's weights on a copy of the real record."""
    pub, ru, t, w = _warm()
    w2 = w.copy()
    w2[W.HF0 + k] += 0.75
    ref = fresh_context(pub, ru, t, w2)
    assert not np.array_equal(ref[B_FAM : B_FAM + 4], pub["bscr"][B_FAM : B_FAM + 4])
    context_nb(pub, ru, t, w2)
    assert pub["bscr"][:B_MEMO].tolist() == ref.tolist()
