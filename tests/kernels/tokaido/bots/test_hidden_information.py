"""No tier sees a hidden card: every tier's move is the same whatever the piles' order and the unseen
meal hand (guide: "Hidden information stays hidden: no bot reads a pile's order or an opponent's hidden
cards"; a behavioural test for every tier).

Positions come from real games of each tier (base game, Crossroads, Crossroads + Matsuri); at each
move decision the position's hidden part is changed (``tests.helpers.bot_positions.reshuffle_hidden``: every
pile's
order shuffled, the Inn's unseen hand swapped with cards of the meal pile) and the decision, the
values of the candidates (feature tiers) and the game's random stream after it must be the same.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.core.rng import seed_game_nb
from kernels.tokaido.bots.scratch import B_CAND
from kernels.tokaido.core.enums import BOT_NAMES, PF, G
from kernels.tokaido.core.state import HID_DTYPE, PUB_DTYPE
from kernels.tokaido.core.weights import W
from kernels.tokaido.game.turn import begin_turn_nb, move_nb, setup_nb
from kernels.tokaido.play import decide_move_nb
from sim.games.tokaido import bots, engine
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.bot_positions import reshuffle_hidden

TIERS = ["random", "greedy", "heuristic", "tuned", "expert", "search"]
SETS = [(), ("crossroads",), ("crossroads", "matsuri")]


def _positions(xs: tuple[str, ...], games: int = 3):
    """Move decisions with a choice in games of random bots, which jump ahead to the Inns: many of them
    have an Inn's meal hand waiting, unseen by the mover. (pub copy, hid copy, t, ctrl, ncand)."""
    config = GameConfig(n_players=4, bots=("random",), expansions=xs, travelers="random")
    ru = engine.rules_record(config, config.rules())
    out = []
    for g in range(games):
        pubs, hids = np.zeros(1, PUB_DTYPE), np.zeros(1, HID_DTYPE)
        with np.errstate(over="ignore"):
            seed_game_nb(pubs[0]["rng"], 11, g)
            setup_nb(pubs[0], hids[0], ru[0])
            while True:
                t, ctrl, ncand = begin_turn_nb(pubs[0], hids[0], ru[0])
                if t < 0:
                    break
                if ncand > 1:
                    out.append((pubs.copy(), hids.copy(), t, ctrl, ncand))
                k = decide_move_nb(pubs[0], ru[0], t, ctrl, ncand)
                move_nb(pubs[0], hids[0], ru[0], t, ctrl, pubs[0]["cand"][k])
    return out


def _as_tier(tier: str, xs: tuple[str, ...], pubs):
    """The rules and a copy of the position with every player of ``tier``."""
    config = GameConfig(n_players=4, bots=(tier,), expansions=xs, travelers="random")
    rules = config.rules()
    w = bots.bot_weights(tier, rules, config)
    w[W.S_ROLLOUTS], w[W.S_TOPK] = 3, 2  # a cheap search: the rollouts still deal the unseen cards
    ru = engine.rules_record(config, rules, weights=np.repeat(w[None, :], 4, axis=0))
    p = pubs.copy()
    p[0]["ps"][:4, PF.BOT] = BOT_NAMES.index(tier)
    return ru, p


def _decide(pubs, ru, t, ctrl, ncand):
    p = pubs.copy()
    with np.errstate(over="ignore"):
        k = decide_move_nb(p[0], ru[0], t, ctrl, ncand)
    return int(k), p[0]["bscr"][B_CAND : B_CAND + ncand].copy(), int(p[0]["rng"][0])


@pytest.mark.parametrize("xs", SETS, ids=["base", "crossroads", "matsuri"])
def test_every_tier_moves_alike_whatever_it_cannot_see(xs):
    positions = _positions(xs)
    waiting = sum(1 for pubs, *_ in positions if pubs[0]["gs"][G.HAND_N] > 0)
    assert waiting >= 10  # the unseen hand is there to be swapped
    rng = np.random.default_rng(3)
    for tier in TIERS:
        every = 6 if tier == "search" else 1  # the search plays rollouts at each decision: fewer positions
        for pubs0, hids, t, ctrl, ncand in positions[::every]:
            ru, pubs = _as_tier(tier, xs, pubs0)
            base = _decide(pubs, ru, t, ctrl, ncand)
            p, _h = reshuffle_hidden(pubs, hids, rng)
            k, vals, stream = _decide(p, ru, t, ctrl, ncand)
            assert (k, stream) == base[::2] and np.array_equal(vals, base[1]), f"{tier} sees a hidden card"
