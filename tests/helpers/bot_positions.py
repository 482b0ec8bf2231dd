"""Positions of real games for the bot tests: kernel records at a move decision, whole or with what the
player cannot see changed.

    ru, pubs, hids, t, ctrl, ncand = position_with_hand(5)     # a meal hand waits at an Inn
    p, h = reshuffle_hidden(pubs, hids, rng)                    # same public record, other piles
    for pubs, ru, t, ctrl, ncand in expert_positions(EXPERT_SPECS[0], 3): ...
"""

from __future__ import annotations

import numpy as np

from kernels.core.rng import seed_game_nb
from kernels.tokaido import search
from kernels.tokaido.bots.policy import choose_move_nb
from kernels.tokaido.bots.scratch import B_CAND
from kernels.tokaido.core import enums as E
from kernels.tokaido.core.enums import DECK_CAP, PF, G
from kernels.tokaido.core.state import HID_DTYPE, PUB_DTYPE
from kernels.tokaido.core.weights import W
from kernels.tokaido.game.turn import begin_turn_nb, move_nb, setup_nb
from kernels.tokaido.play import turn_nb
from sim.games.tokaido import bots, engine
from sim.games.tokaido.rules.config import GameConfig

# the configurations whose expert decisions the speed-up and memo tests compare
EXPERT_SPECS = [
    "players=2,travelers=draft,bots=expert",
    "players=3,travelers=random,bots=tuned,expansions=crossroads",
    "players=4,travelers=draft,bots=expert",
    "players=5,travelers=random,bots=expert,expansions=crossroads",
]


def position_with_hand(seed: int):
    """Records of a 4-player game at a move decision while an Inn's meal hand waits.

    Random bots (one jumps to the Inn while the others still have a choice)
    reach the position; every row holds the search bot's weights.
    """
    config = GameConfig(n_players=4, bots=("random",))
    rules = config.rules()
    w = bots.bot_weights("search", rules)
    w[W.S_ROLLOUTS], w[W.S_TOPK] = 4, 3
    ru = engine.rules_record(config, rules, weights=np.repeat(w[None, :], 4, axis=0))
    pubs, hids = np.zeros(1, PUB_DTYPE), np.zeros(1, HID_DTYPE)
    with np.errstate(over="ignore"):
        seed_game_nb(pubs[0]["rng"], seed, 0)
        setup_nb(pubs[0], hids[0], ru[0])
        while True:
            p, h = pubs.copy(), hids.copy()
            t, ctrl, ncand = begin_turn_nb(p[0], h[0], ru[0])
            assert t >= 0, "no position with a waiting meal hand"
            if p[0]["gs"][G.HAND_N] > 0 and ncand > 1:
                return ru, p, h, t, ctrl, ncand
            turn_nb(pubs[0], hids[0], ru[0])


def search_values(ru, pubs, t, ctrl, ncand):
    """The search bot's choice and its candidates' values at the position (on a copy)."""
    p = pubs.copy()
    with np.errstate(over="ignore"):
        k = search.search_move_nb(p[0], ru[0], t, ctrl, ncand)
    return int(k), p[0]["bscr"][B_CAND : B_CAND + ncand].copy()


def reshuffle_hidden(pubs, hids, rng):
    """Copies of a position with what its players cannot see changed: every pile's order shuffled,
    and the unseen meal hand swapped with cards of the meal pile."""
    p, h = pubs.copy(), hids.copy()
    pub, hid = p[0], h[0]
    for d in range(E.N_DECKS):
        idx = (hid["dtop"][d] + np.arange(pub["dcnt"][d])) % DECK_CAP
        hid["deck"][d, idx] = rng.permutation(hid["deck"][d, idx])
    m = min(int(pub["gs"][G.HAND_N]), int(pub["dcnt"][E.Deck.MEAL]))
    idx = (hid["dtop"][E.Deck.MEAL] + np.arange(m)) % DECK_CAP
    pile = hid["deck"][E.Deck.MEAL, idx].copy()
    hid["deck"][E.Deck.MEAL, idx] = pub["hand"][:m]
    pub["hand"][:m] = pile
    return p, h


def expert_positions(spec: str, games: int):
    """Every move decision with a choice of ``games`` expert games: (pub copy, ru, t, ctrl, ncand)."""
    config = GameConfig.parse(spec)
    rules = engine.rules_record(config, config.rules())
    ru = rules[0]
    for g in range(games):
        pubs, hids = np.zeros(1, PUB_DTYPE), np.zeros(1, HID_DTYPE)
        pub, hid = pubs[0], hids[0]
        seed_game_nb(pub["rng"], 7, g)
        setup_nb(pub, hid, ru)
        while True:
            t, ctrl, ncand = begin_turn_nb(pub, hid, ru)
            if t < 0:
                break
            if ncand > 1 and pub["ps"][t, PF.NEUTRAL] == 0:
                yield pubs.copy(), ru, t, ctrl, ncand
            move_nb(pub, hid, ru, t, ctrl, pub["cand"][choose_move_nb(pub, ru, t, ctrl, ncand)])
