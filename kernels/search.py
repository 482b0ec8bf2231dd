"""The search bot (``Bot.SEARCH``): determinized Monte Carlo rollouts of its best candidate moves.

At each move with a choice, the bot ranks the legal destinations with its
heuristic (its weights are the tuned ones, ``sim/data/bots/search.toml``) and
searches the best ``w[S_TOPK]`` of them. For each of ``w[S_ROLLOUTS]``
determinizations it copies the public record into a scratch record and builds
scratch piles: a random order of the cards it cannot see in each pile (every
card minus those in collections, ``pub['gone']``; an Inn's unseen meal hand is
drawn from the same unknown meal cards). It then plays the candidate move and
the rest of the game with the heuristic for every player (no log), and scores
the rollout as its final score minus the best other score, plus ``w[S_WIN]`` for a
win (half on a tie). All candidates share the same determinizations and random
streams (common random numbers), so their comparison is paired. It takes the
best mean.

It never receives ``hid``: it sees ``pub`` (what its player may see) and ``ru``.
Its random numbers come from one draw of the game's stream per searched
decision, so a game is still a function of (seed, game index). The rollouts call
the game's own ``move_nb`` / ``turn_nb`` on the scratch records, so they follow
the same rules; a rollout never searches (everyone is ``Bot.TUNED`` there, and
its moves go straight to ``bots.choose_move_nb``).
"""

import numpy as np
from numba import njit

import kernels.game.turn as game
from kernels.bots.features import B_CAND, pool_nb
from kernels.bots.heuristic import heuristic_move_nb
from kernels.bots.policy import choose_move_nb
from kernels.core.enums import MAX_TRAV, N_DECKS, PF, Bot, Deck, G
from kernels.core.rng import mix64_nb, next_u64_nb, shuffle_nb
from kernels.core.state import HID_DTYPE, PUB_DTYPE, RULES_DTYPE
from kernels.core.weights import W_N, W

_ONE = np.uint64(1)


@njit(cache=True)
def determinize_nb(p2, h2, ru):
    """Scratch piles for ``p2``: each pile's unseen cards in a random order (``p2['rng']``).

    With a meal hand waiting at an Inn, the hand is dealt first from the same
    unseen meal cards: the searching player has not seen it.
    """
    rng = p2["rng"]
    deck = h2["deck"]
    hand = p2["hand"]
    for d in range(N_DECKS):
        pool = pool_nb(p2, ru, d)
        row = deck[d]
        n = 0
        for c in range(ru["dsize"][d]):
            if (pool >> c) & 1:
                row[n] = c
                n += 1
        shuffle_nb(row, n, rng)
        if d == Deck.MEAL:
            hn = min(p2["gs"][G.HAND_N], n)
            for i in range(hn):
                hand[i] = row[i]
            for i in range(n - hn):
                row[i] = row[i + hn]
            n -= hn
        h2["dtop"][d] = 0
        p2["dcnt"][d] = min(n, p2["dcnt"][d])
    h2["lg"][0] = 0
    h2["lg"][1] = 0  # rollouts never log
    h2["lg"][2] = 0


@njit(cache=True)
def rollout_value_nb(p2, h2, r2, me, win_bonus):
    """Play the scratch game to its end; ``me``'s score minus the best other, plus the win bonus."""
    while True:
        t, ctrl, ncand = game.begin_turn_nb(p2, h2, r2)
        if t < 0:
            break
        game.move_nb(p2, h2, r2, t, ctrl, p2["cand"][choose_move_nb(p2, r2, t, ctrl, ncand)])
    game.end_scoring_nb(p2, r2)
    ps = p2["ps"]
    best = -1e9
    for u in range(p2["gs"][G.N_PLAYERS]):
        if u != me:
            best = max(best, float(ps[u, PF.SCORE]))
    margin = ps[me, PF.SCORE] - best
    if margin > 0:
        return margin + win_bonus
    if margin == 0:
        return margin + 0.5 * win_bonus
    return margin


@njit(cache=True)
def search_move_nb(pub, ru, t, ctrl, ncand):
    """The search bot's move: the heuristic's best candidates compared by determinized rollouts."""
    w = ru["botw"][ctrl]
    best = heuristic_move_nb(pub, ru, t, ctrl, ncand)  # fills bscr[B_CAND:]
    rollouts = int(w[W.S_ROLLOUTS])
    m = int(w[W.S_TOPK])
    if m <= 0 or m > ncand:
        m = ncand
    if rollouts <= 0 or m <= 1:
        return best
    vals = pub["bscr"][B_CAND : B_CAND + ncand]
    sel = np.empty(m, np.int64)
    taken = np.zeros(ncand, np.bool_)
    for j in range(m):
        bj, bv = -1, -1e300
        for k in range(ncand):
            if not taken[k] and (bj < 0 or vals[k] > bv):
                bj, bv = k, vals[k]
        sel[j] = bj
        taken[bj] = True
    seed = next_u64_nb(pub["rng"])  # the only draw from the game's stream
    pubs = np.zeros(1, PUB_DTYPE)
    hids = np.zeros(1, HID_DTYPE)
    rus = np.zeros(1, RULES_DTYPE)
    rus[0] = ru
    r2 = rus[0]
    for p in range(MAX_TRAV):
        for i in range(W_N):
            r2["botw"][p, i] = w[i]
    p2 = pubs[0]
    h2 = hids[0]
    sums = np.zeros(m)
    n = pub["gs"][G.N_PLAYERS]
    for k in range(rollouts):
        kseed = mix64_nb(seed ^ mix64_nb(np.uint64(k) + _ONE))
        for j in range(m):
            pubs[0] = pub
            for u in range(n):
                p2["ps"][u, PF.BOT] = Bot.TUNED
            p2["rng"][0] = kseed
            determinize_nb(p2, h2, r2)
            game.move_nb(p2, h2, r2, t, ctrl, pub["cand"][sel[j]])
            sums[j] += rollout_value_nb(p2, h2, r2, ctrl, w[W.S_WIN])
    bj = 0
    for j in range(m):
        vals[sel[j]] = sums[j] / rollouts  # the searched candidates' mean rollout values (tests read them)
        if sums[j] > sums[bj]:
            bj = j
    # keep the scratch arrays alive while their records are in use (see kernels.play.play_game_nb)
    pubs[0]["gs"][G.TURNS] += 0
    hids[0]["lg"][1] += 0
    rus[0]["botw"][0, 0] += 0.0
    return sel[bj]
