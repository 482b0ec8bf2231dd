"""The search tier (``Bot.SEARCH``): determinized rollouts of each die it may take.

At a die pick with a choice, the bot tries every die left. For each of
``W.ROLLOUTS`` determinizations it copies the public record into a scratch
game and deals a scratch ``hid``: every face-down painting tile (its own and
the opponent's) is drawn again from the tiles not yet seen (the pool minus
every revealed tile), and the scratch game's own random stream stands for the
unseen bag order and the future dice. It then takes the die, plays it and the
rest of the game greedily for both players, and scores the rollout as its
final margin plus ``W.WIN`` for a win (half on a tie). All dice share the same
determinizations (common random numbers), so their comparison is paired.

It never reads ``hid``; its random numbers come from one draw of the game's
stream per decision, so a game stays a function of (seed, game index).
"""

import numpy as np
from numba import njit

import kernels.duo.game as game  # the rules step; the driver (kernels.duo.play) sits above
from kernels.core.rng import mix64_nb, next_u64_nb, shuffle_nb
from kernels.duo.bots import W, greedy_die_nb
from kernels.duo.enums import N_ICONS, N_SLOTS, PF, Bot, G
from kernels.duo.state import HID_DTYPE, PUB_DTYPE, RULES_DTYPE

_ONE = np.uint64(1)


@njit(cache=True)
def determinize_nb(p2, h2, ru):
    """Deal every unseen painting slot from the unseen tiles, in a random order (``p2['rng']``)."""
    left = np.zeros(N_ICONS, np.int64)
    for i in range(N_ICONS):
        left[i] = ru["pool"][i]
    for q in range(2):
        for s in range(p2["ps"][q, PF.REVEALED]):
            left[p2["shown"][q, s]] -= 1
    tiles = np.zeros(2 * N_SLOTS, np.int64)
    n = 0
    for i in range(N_ICONS):
        for _ in range(left[i]):
            tiles[n] = i
            n += 1
    shuffle_nb(tiles, n, p2["rng"])
    k = 0
    for q in range(2):
        for s in range(N_SLOTS):
            if s < p2["ps"][q, PF.REVEALED]:
                h2["tiles"][q, s] = p2["shown"][q, s]
            else:
                h2["tiles"][q, s] = tiles[k]
                k += 1
    h2["lg"][0] = 0
    h2["lg"][1] = 0  # rollouts never log
    h2["lg"][2] = 0


@njit(cache=True)
def rollout_nb(p2, h2, r2, me, c, win):
    game.plain_step_nb(p2, h2, r2, c)
    while game.plain_step_nb(p2, h2, r2, -1):
        pass
    game.score_nb(p2, r2)
    margin = float(p2["ps"][me, PF.SCORE] - p2["ps"][1 - me, PF.SCORE])
    if p2["ps"][me, PF.RANK] == 1:
        margin += win if p2["ps"][1 - me, PF.RANK] == 2 else 0.5 * win
    return margin


@njit(cache=True)
def search_die_nb(pub, ru, p):
    """The die ``p`` takes: the best mean rollout value over the dice left."""
    w = ru["botw"][p]
    rollouts = int(w[W.ROLLOUTS])
    if rollouts <= 0:
        return greedy_die_nb(pub, ru, p)
    seed = next_u64_nb(pub["rng"])  # the only draw from the game's stream
    # the scratch game's records are taken in a callee given the arrays themselves: a record
    # (``pubs[0]``) does not keep its array alive, an argument lives until the call returns
    pubs = np.zeros(1, PUB_DTYPE)
    hids = np.zeros(1, HID_DTYPE)
    rus = np.zeros(1, RULES_DTYPE)
    return best_die_nb(pubs, hids, rus, pub, ru, p, seed)


@njit(cache=True)
def best_die_nb(pubs, hids, rus, pub, ru, p, seed):
    """``search_die_nb``'s rollouts from ``seed``, in the caller's one-record scratch arrays."""
    gs = pub["gs"]
    w = ru["botw"][p]
    rollouts = int(w[W.ROLLOUTS])
    rus[0] = ru
    r2 = rus[0]
    for q in range(2):
        r2["botw"][q, :] = w
    p2 = pubs[0]
    h2 = hids[0]
    sums = np.zeros(3)
    for k in range(rollouts):
        kseed = mix64_nb(seed ^ mix64_nb(np.uint64(k) + _ONE))
        for c in range(3):
            if (gs[G.USED] >> c) & 1:
                continue
            pubs[0] = pub
            for q in range(2):
                if p2["ps"][q, PF.BOT] != Bot.AUTOMA:  # the Automa's rules are public: she plays herself
                    p2["ps"][q, PF.BOT] = Bot.GREEDY
            p2["rng"][0] = kseed
            determinize_nb(p2, h2, r2)
            sums[c] += rollout_nb(p2, h2, r2, p, c, w[W.WIN])
    bc, bv = -1, -1e300
    for c in range(3):
        if not (gs[G.USED] >> c) & 1 and sums[c] > bv:
            bc, bv = c, sums[c]
    return bc
