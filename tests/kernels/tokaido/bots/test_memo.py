"""The per-player memos of the heuristic tiers give the very floats a fresh computation gives.

``context_nb`` keeps each player's souvenir family values and mean meal price in
``bscr[B_MEMO:]`` with everything they read, and recomputes them when one of those changed;
``move_values_nb`` keeps each opponent's space values the same way. These tests compare the whole context,
float for float, with the context of
the same position whose memo was wiped, on the positions of real games (the memo warm from the
game's earlier decisions), and after the changes each key must notice.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.tokaido.bots import heuristic as H
from kernels.tokaido.bots.context import context_nb
from kernels.tokaido.bots.scratch import B_CAND, B_FAM, B_MEMO, MEMO_N
from kernels.tokaido.core.enums import PF, Ability, Deck, G
from kernels.tokaido.core.weights import HF, W
from tests.helpers.bot_positions import EXPERT_SPECS, expert_positions


def fresh_context(pub, ru, t, w):
    """The context of ``pub`` computed with an empty memo (on a copy)."""
    p = pub.copy()
    p["bscr"][B_MEMO:] = 0.0
    context_nb(p, ru, t, w, w[W.EXPERT] > 0.5)
    return p["bscr"][:B_MEMO].copy()


@pytest.mark.parametrize(
    "spec", EXPERT_SPECS + ["players=4,travelers=random,bots=expert,expansions=crossroads+matsuri"]
)
def test_memoised_context_is_the_fresh_context(spec):
    n = 0
    for pubs, ru, t, ctrl, _ in expert_positions(spec, 2):
        pub = pubs[0]
        w = ru["botw"][ctrl]
        ref = fresh_context(pub, ru, t, w)
        context_nb(pub, ru, t, w, w[W.EXPERT] > 0.5)
        assert pub["bscr"][:B_MEMO].tolist() == ref.tolist()
        n += 1
    assert n > 30


def _warm_all(spec="players=4,travelers=draft,bots=expert"):
    """Mid-game positions (the 25th on) whose memo for the mover is filled; the mover one souvenir behind
    the most souvenirs (so its next souvenir would take the achievement: the end-achievement terms are not
    0)."""
    for k, (pubs, ru, t, ctrl, _) in enumerate(expert_positions(spec, 1)):
        if k >= 25:
            pub = pubs[0]
            n = int(pub["gs"][G.N_PLAYERS])
            for u in range(n):
                pub["ps"][u, PF.SOUVENIRS] = 0
            pub["ps"][t, PF.SOUVENIRS] = 6
            pub["ps"][(t + 1) % n, PF.SOUVENIRS] = 7
            w = ru["botw"][ctrl].copy()
            context_nb(pub, ru, t, w, w[W.EXPERT] > 0.5)
            assert pub["bscr"][B_MEMO + MEMO_N * t + 1] != 0.0  # the memo is in use
            yield pub, ru, t, w


def _warm():
    return next(_warm_all())


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


@pytest.mark.parametrize(
    "change", [_change_family, _change_rival, _change_scripts, _change_dishes, _change_meals_gone]
)
def test_the_memo_notices_each_input(change):
    for pub, ru, t, w in _warm_all():  # the first position where the change matters to the context
        before = pub["bscr"][:B_MEMO].copy()
        change(pub, ru, t)
        ref = fresh_context(pub, ru, t, w)
        if ref.tolist() != before.tolist():
            break
    else:
        raise AssertionError("no position where the change matters")
    context_nb(pub, ru, t, w, w[W.EXPERT] > 0.5)
    assert pub["bscr"][:B_MEMO].tolist() == ref.tolist()


@pytest.mark.parametrize("k", [HF.PTS, HF.SET_POT, HF.END_ACH])
def test_the_memo_notices_other_weights(k):
    """A search rollout plays everyone with the searcher's weights on a copy of the real record."""
    pub, ru, t, w = _warm()
    w2 = w.copy()
    w2[W.HF0 + k] += 0.75
    ref = fresh_context(pub, ru, t, w2)
    assert not np.array_equal(ref[B_FAM : B_FAM + 4], pub["bscr"][B_FAM : B_FAM + 4])
    context_nb(pub, ru, t, w2, w2[W.EXPERT] > 0.5)
    assert pub["bscr"][:B_MEMO].tolist() == ref.tolist()


def _move_values(pub, ru, t, w, ncand):
    H.move_values_nb(pub, ru, t, w, ncand, w[W.EXPERT] > 0.5)
    return pub["bscr"][B_CAND : B_CAND + ncand].tolist()


@pytest.mark.parametrize(
    "field,value", [(PF.COINS, 1), (PF.COINS, 0), (PF.FAM0, 3), (PF.PAN0, 0), (PF.ABILITY, -1)]
)
def test_opponent_values_kept_across_moves_notice_a_change(field, value):
    """Each opponent's space values are kept across moves (kernels/tokaido/bots/opponents.py) until one of
    their inputs changes: change one, and the move values are those of a wiped memo."""
    checked = 0
    for pubs, ru, t, ctrl, ncand in expert_positions("players=4,travelers=draft,bots=expert", 2):
        pub = pubs[0]
        w = ru["botw"][ctrl]
        _move_values(pub, ru, t, w, ncand)  # fills the memo for this position
        n = int(pub["gs"][G.N_PLAYERS])
        for u in range(n):
            if u != t:
                pub["ps"][u, field] = value if value >= 0 else Ability.UMEGAE
        wiped = pub.copy()
        wiped["bscr"][B_MEMO:] = 0.0
        ref = _move_values(wiped, ru, t, w, ncand)
        assert _move_values(pub, ru, t, w, ncand) == ref
        checked += 1
    assert checked > 30
