"""The strong tiers' speed-ups decide exactly as the code they replaced.

``heuristic.move_values_nb`` values only the space types among the candidates, the opponents'
values on demand, the free spaces as a bit mask and what the next mover finds as the best and second
best free space; ``heuristic.village_value_nb`` values each (family, cost) pair once. These tests
compare them, float for float, with the straightforward computation (every type, every opponent,
every space, card by card) on the positions of real expert games at 2-5 players, base and
Crossroads. ``heuristic.encounter_value_nb`` values each Encounter class once and weighs it by its
count: the same value as card by card, up to the order of the sum. (``benchmarks/check_same.py`` checks
whole games: identical records and action logs.)
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.tokaido.bots import heuristic as H
from kernels.tokaido.bots import village as V
from kernels.tokaido.bots.abilities import ability_opp_nb
from kernels.tokaido.bots.context import context_nb
from kernels.tokaido.bots.features import expected_max_nb
from kernels.tokaido.bots.scratch import B_CAND, B_OPP, B_PILE, B_SORT, B_TYPE, K_KEYS, pool_nb
from kernels.tokaido.core.enums import N_SPACES, PF, Deck, G, Space
from kernels.tokaido.core.state import BSCR_N
from kernels.tokaido.core.weights import HF, W
from tests.helpers.bot_positions import EXPERT_SPECS, expert_positions

NT = H.N_TYPES


def reference_move_values(pub, ru, t, w, ncand):
    """The move values as computed before the speed-ups: every type, every opponent, space by space."""
    H.type_values_nb(pub, ru, t, w, w[W.EXPERT] > 0.5)
    H.opp_values_nb(pub, ru, t)
    ps, gs, b, board, cand = pub["ps"], pub["gs"], pub["bscr"], ru["board"], pub["cand"]
    if w[W.EXPERT] > 0.5:  # the expert adds what the opponents' abilities make a space worth to them
        for u in range(gs[G.N_PLAYERS]):
            if u != t:
                for typ in range(NT):
                    b[B_OPP + NT * u + typ] += ability_opp_nb(pub, ru, u, typ)
    h = W.HF0
    nt = gs[G.N_TRAV]
    pos = ps[t, PF.POS]
    free = H._free_nb
    out = []
    for k in range(ncand):
        s = cand[k]
        typ = board[0, s]
        skip_open = sum(1 for x in range(pos + 1, s) if free(pub, ru, x, t, -1))
        queue = pub["occ"][s] if typ == Space.INN else 0
        deny, behind_all, nxt = 0.0, True, -1
        for u in range(nt):
            if u == t:
                continue
            pu = ps[u, PF.POS]
            if u < gs[G.N_PLAYERS] and pu < s:
                deny = max(deny, b[B_OPP + NT * u + typ])
            if pu < s:
                behind_all = False
            if nxt < 0 or pu < ps[nxt, PF.POS] or (pu == ps[nxt, PF.POS] and ps[u, PF.SEQ] > ps[nxt, PF.SEQ]):
                nxt = u
        again = 1.0 if (behind_all and s != gs[G.LAST]) else 0.0
        leave = 0.0
        if again == 0.0 and nxt >= 0 and ps[nxt, PF.NEUTRAL] == 0:
            for x in range(ps[nxt, PF.POS] + 1, N_SPACES):
                if board[0, x] == Space.INN:
                    break
                if free(pub, ru, x, t, s):
                    leave = max(leave, b[B_OPP + NT * nxt + board[0, x]])
        room = 0
        if typ != Space.INN:
            for x in range(s + 1, N_SPACES):
                if board[0, x] == Space.INN:
                    break
                room += bool(free(pub, ru, x, t, s))
        out.append(
            b[B_TYPE + typ]
            + w[h + HF.SKIP] * (s - pos - 1)
            + w[h + HF.SKIP_OPEN] * skip_open
            + w[h + HF.INN_QUEUE] * queue
            + w[h + HF.DENY] * deny
            + w[h + HF.AGAIN] * again
            + w[h + HF.LEAVE] * leave
            + w[h + HF.ROOM] * room
        )
    return out


def reference_village_value(pub, ru, t, w):
    context_nb(pub, ru, t, w, w[W.EXPERT] > 0.5)
    return V._village_value_cards_nb(pub, ru, t, w, pool_nb(pub, ru, Deck.SOUVENIR))


@pytest.mark.parametrize("spec", EXPERT_SPECS)
def test_move_values_match_the_full_computation(spec):
    n = 0
    for pubs, ru, t, ctrl, ncand in expert_positions(spec, 3):
        w = ru["botw"][ctrl]
        ref = reference_move_values(pubs.copy()[0], ru, t, w, ncand)
        pub = pubs[0]
        H.move_values_nb(pub, ru, t, w, ncand, w[W.EXPERT] > 0.5)
        assert list(pub["bscr"][B_CAND : B_CAND + ncand]) == ref  # float for float
        n += 1
    assert n > 50


@pytest.mark.parametrize("spec", EXPERT_SPECS)
def test_village_value_by_family_and_cost_matches_card_by_card(spec):
    n = 0
    for pubs, ru, t, ctrl, _ in expert_positions(spec, 3):
        w = ru["botw"][ctrl]
        for coins in (0, 1, 2, 3, 5, 9):
            pub = pubs.copy()[0]
            pub["ps"][t, PF.COINS] = coins
            ref = reference_village_value(pub, ru, t, w)
            context_nb(pub, ru, t, w, w[W.EXPERT] > 0.5)
            assert V.village_value_nb(pub, ru, t, w) == ref
            n += 1
    assert n > 300


@pytest.mark.parametrize("spec", EXPERT_SPECS)
def test_encounter_value_by_class_matches_card_by_card(spec):
    n = 0
    for pubs, ru, t, ctrl, _ in expert_positions(spec, 3):
        w = ru["botw"][ctrl]
        for coins in (0, 1, 3, 7):
            pub = pubs.copy()[0]
            pub["ps"][t, PF.COINS] = coins
            context_nb(pub, ru, t, w, w[W.EXPERT] > 0.5)
            ref = H._encounter_value_cards_nb(pub, ru, t, w)
            assert H.encounter_value_nb(pub, ru, t, w) == pytest.approx(ref, rel=1e-12, abs=1e-12)
            n += 1
    assert n > 200


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 15), st.sampled_from([0.0, 0.25, 1.0 / 3.0, 0.7, 1.7, 2.9, 5.0])),
        min_size=1,
        max_size=30,
    ),
    st.integers(1, 4),
)
def test_expected_max_by_counts_is_expected_max(cards, r):
    """Distinct values x counts give the very float ``expected_max_nb`` gives on the list."""
    b = np.zeros(BSCR_N)
    seen = 0
    vals = {}
    for key, v in cards:
        vals.setdefault(key, v)  # a key has one value, as a (family, cost) pair does
    for key, _ in cards:
        if (seen >> key) & 1 == 0:
            seen |= 1 << key
            b[B_SORT + key] = vals[key]
        b[B_PILE + K_KEYS + key] += 1.0
    buf = np.array([vals[k] for k, _ in cards] + [0.0] * (32 - len(cards)))
    assert V._expected_max_counts_nb(b, seen, len(cards), r) == expected_max_nb(buf, len(cards), r)
