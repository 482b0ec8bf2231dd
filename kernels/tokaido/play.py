"""The driver: one whole game, from the deal to the final ranking, and a parallel batch of games.

``play_game_nb`` allocates one game's records (``kernels.tokaido.core.state``), plays it
(``kernels.tokaido.game.turn``; each move chosen by the mover's policy, ``decide_move_nb``)
and writes one ``RESULT_DTYPE`` record per player into ``out``.
``play_batch_nb`` plays games ``start .. start+count-1`` in parallel; game i's
random stream depends only on (seed, i), so threads and chunking never change
a game.

This is the top of the kernel layers (core <- bots <- game <- search <- play):
the only module that knows every bot tier, the search bot included.
"""

import numpy as np
from numba import njit, prange

from kernels.core.batch import UNFINISHED
from kernels.core.log import log_nb
from kernels.core.rng import seed_game_nb
from kernels.tokaido.bots.policy import choose_move_nb
from kernels.tokaido.bots.tier import searches_nb
from kernels.tokaido.core.enums import PF, Cfg, Ev
from kernels.tokaido.core.state import HID_DTYPE, PUB_DTYPE
from kernels.tokaido.game.turn import begin_turn_nb, end_scoring_nb, move_nb, setup_nb, write_records_nb
from kernels.tokaido.search import ev_features_nb, inn_reached_nb, search_move_nb


@njit(cache=True)
def decide_move_nb(pub, ru, t, ctrl, ncand):
    """Index into ``pub['cand']`` of the move ``ctrl`` chooses for ``t``: the policy entry point for moves."""
    if ncand > 1 and searches_nb(pub, ctrl):
        return search_move_nb(pub, ru, t, ctrl, ncand)
    return choose_move_nb(pub, ru, t, ctrl, ncand)


@njit(cache=True)
def turn_nb(pub, hid, ru):
    """One move of the traveler farthest behind; False once everyone is at the end."""
    t, ctrl, ncand = begin_turn_nb(pub, hid, ru)
    if t < 0:
        return False
    s = pub["cand"][decide_move_nb(pub, ru, t, ctrl, ncand)]
    move_nb(pub, hid, ru, t, ctrl, s)
    return True


@njit(cache=True)
def new_game_nb(pub, hid, ru, seed, game):
    """Set up game ``game`` of ``seed`` in a zeroed ``pub`` and a ``hid`` whose action log may hold an
    earlier game: the piles and the log's counters are cleared, the rest of the log is written before
    it is read."""
    hid["deck"][:, :] = 0
    hid["dtop"][:] = 0
    hid["lg"][:] = 0
    seed_game_nb(pub["rng"], seed, game)
    setup_nb(pub, hid, ru)


@njit(cache=True)
def play_game_nb(seed, game, rules, out, log, stop):
    """Play game ``game`` of the run seeded ``seed`` (``rules``: one ``RULES_DTYPE`` record).

    Writes one record per player into ``out``; with ``ru['cfg'][Cfg.LOG]`` set,
    copies the action log into ``log`` and returns its length (-1 on overflow).
    Returns ``UNFINISHED`` without writing if ``stop[0]`` is set before the game ends
    (Ctrl-C: the caller keeps the finished games).
    """
    # a record (``pubs[0]``) does not keep its array alive: Numba frees the array after the last
    # statement naming it, while records taken from it may still be read; the game runs in a
    # callee given the arrays themselves, which live until that call returns
    pubs = np.zeros(1, PUB_DTYPE)
    hids = np.empty(1, HID_DTYPE)  # the action log (most of it) is written before it is read: not zeroed
    return play_in_nb(pubs, hids, seed, game, rules[0], out, log, stop)


@njit(cache=True)
def play_in_nb(pubs, hids, seed, game, ru, out, log, stop):
    """``play_game_nb`` in the caller's one-record arrays ``pubs`` (zeroed) and ``hids``."""
    pub = pubs[0]
    hid = hids[0]
    new_game_nb(pub, hid, ru, seed, game)
    while turn_nb(pub, hid, ru):
        if stop[0] != 0:
            return UNFINISHED
    log_nb(hid, Ev.END, -1, -1, -1, -1, -1)
    end_scoring_nb(pub, ru)
    write_records_nb(pub, game, out)
    lg = hid["lg"]
    if lg[1] == 0:
        return 0
    log[: lg[0]] = hid["log"][: lg[0]]
    return -1 if lg[2] else lg[0]


@njit(parallel=True, nogil=True, cache=True)
def play_batch_nb(seed, start, count, rules, out, logs, nlog, stop):
    """Play games ``start .. start+count-1`` in parallel into ``out`` (and ``logs``).

    ``rules`` is a one-element ``RULES_DTYPE`` array; ``out`` holds
    ``count * n_players`` records; ``logs`` is (count, MAX_EVENTS, 6) when
    logging, else (1, MAX_EVENTS, 6) and untouched. ``nlog[i]`` is set as game i
    ends (another thread may count the finished games: progress); once another
    thread sets ``stop[0]`` the games still running end ``UNFINISHED``.
    """
    n = rules[0]["cfg"][Cfg.N_PLAYERS]
    logging = rules[0]["cfg"][Cfg.LOG] == 1
    for i in prange(count):
        if stop[0] != 0:
            nlog[i] = UNFINISHED
            continue
        lg = logs[i] if logging else logs[0]
        nlog[i] = play_game_nb(seed, start + i, rules, out[i * n : (i + 1) * n], lg, stop)


@njit(cache=True)
def inn_states_nb(seed, start, count, rules, feats, now, final, trav):
    """Games ``start ..`` with everyone's own policy, recorded at each Inn where everyone has gathered.

    ``feats[g, k - 1, p]``: player p's evaluation features (``kernels.tokaido.search.ev_features_nb``, the
    points the end scoring would give there first) at Inn k (1-3) of game g, ``now[g, k - 1, p]``
    the score had the journey ended there, ``final[g, p]`` the final
    score, ``trav[g, p]`` their Traveler. The search bot's evaluation is fitted on them
    (``sim/games/tokaido/tuning/search_fit.py``).
    """
    pubs = np.zeros(1, PUB_DTYPE)
    hids = np.zeros(1, HID_DTYPE)
    tmp = np.zeros(1, PUB_DTYPE)
    zero = np.zeros(1, PUB_DTYPE)
    # the records are taken in a callee given the arrays (see ``play_game_nb``)
    inn_states_in_nb(pubs, hids, tmp, zero, seed, start, count, rules[0], feats, now, final, trav)


@njit(cache=True)
def inn_states_in_nb(pubs, hids, tmp, zero, seed, start, count, ru, feats, now, final, trav):
    """``inn_states_nb`` in the caller's one-record arrays (``zero`` zeroed, the others scratch)."""
    n = ru["cfg"][Cfg.N_PLAYERS]
    for g in range(count):
        pubs[0] = zero[0]
        pub = pubs[0]
        hid = hids[0]
        new_game_nb(pub, hid, ru, seed, start + g)
        while True:
            t, ctrl, ncand = begin_turn_nb(pub, hid, ru)
            if t < 0:
                break
            s = pub["cand"][decide_move_nb(pub, ru, t, ctrl, ncand)]
            move_nb(pub, hid, ru, t, ctrl, s)
            k = inn_reached_nb(pub, ru, s)
            if 1 <= k <= feats.shape[1]:
                tmp[0] = pub
                ev_features_nb(tmp[0], ru, feats[g, k - 1])
                for p in range(n):
                    now[g, k - 1, p] = tmp[0]["ps"][p, PF.SCORE]
        end_scoring_nb(pub, ru)
        for p in range(n):
            final[g, p] = pub["ps"][p, PF.SCORE]
            trav[g, p] = pub["ps"][p, PF.TRAVELER]
