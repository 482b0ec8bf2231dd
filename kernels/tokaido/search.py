"""The search bot (``Bot.SEARCH``): determinized Monte Carlo rollouts of its best candidate moves.

At each move with a choice, the bot ranks the legal destinations with its
heuristic (the expert's weights, ``sim/games/tokaido/data/bots/search.toml``) and
searches the best ``w[S_TOPK]`` of them. For each of ``w[S_ROLLOUTS]``
determinizations it copies the public record into a scratch record and builds
scratch piles: a random order of the cards it cannot see in each pile (every
card minus those in collections, ``pub['gone']``; an Inn's unseen meal hand is
drawn from the same unknown meal cards). It then plays the candidate move and
the game on with the heuristic for every player (no log): ``w[S_HORIZON]`` legs,
to where everyone has gathered at an Inn, valued there by ``margin_nb`` (the score
had the journey ended there plus a fitted worth of each player's public state and of
their Traveler's ability from there on), or
to the end of the road with 0. The rollout's value is its player's value minus the
best other's, plus ``w[S_WIN]`` for a win (half on a tie). All candidates share the
same determinizations and random streams (common random numbers), so their
comparison is paired. It takes the best mean plus ``w[S_PRIOR]`` times the
heuristic value. The rollouts go where the choice is close: a candidate whose prior trails by more
than ``w[S_GATE]`` points is not searched, and racing (``w[S_RACE]``) stops a candidate once its paired
deficit to the leader is beyond that many standard errors (``w[S_HALVE]`` > 0 without racing: successive
halving).

It never receives ``hid``: it sees ``pub`` (what its player may see) and ``ru``.
Its random numbers come from one draw of the game's stream per searched
decision, so a game is still a function of (seed, game index). The rollouts call
the game's own ``move_nb`` / ``turn_nb`` on the scratch records, so they follow
the same rules; a rollout never searches (everyone is ``Bot.TUNED`` there, and
its moves go straight to ``bots.choose_move_nb``).
"""

import numpy as np
from numba import njit

import kernels.tokaido.game.turn as game
from kernels.core.rng import mix64_nb, next_u64_nb, shuffle_nb
from kernels.tokaido.bots.heuristic import heuristic_move_nb
from kernels.tokaido.bots.policy import choose_move_nb
from kernels.tokaido.bots.scratch import B_CAND, pool_nb
from kernels.tokaido.bots.tier import policy_nb
from kernels.tokaido.core.enums import MAX_TRAV, N_DECKS, N_FAMILIES, PF, Bot, Deck, G, Policy, Space
from kernels.tokaido.core.state import HID_DTYPE, PUB_DTYPE, RULES_DTYPE
from kernels.tokaido.core.weights import EV_NF, EV_NT, EV_T0, W_N, W

_ONE = np.uint64(1)
RACE_STEP = 4  # racing: rollouts per candidate between two tests
RACE_MIN = 8  # racing: rollouts per candidate before the first test


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
def inn_reached_nb(p2, r2, s):
    """Which Inn (1, 2, 3 along the road) space ``s`` is once every traveler is there; 0 otherwise.

    The end of the road (``G.LAST``) is no evaluation point: the game's own end scoring counts there.
    """
    gs = p2["gs"]
    if r2["board"][0, s] != Space.INN or s == gs[G.LAST] or s == 0 or p2["occ"][s] != gs[G.N_TRAV]:
        return 0
    k = 0
    for i in range(1, s + 1):
        if r2["board"][0, i] == Space.INN:
            k += 1
    return k


@njit(cache=True)
def ev_features_nb(p2, r2, x):
    """Each player's public features at an Inn into ``x[u]``, running the end scoring on ``p2`` (a
    scratch record: as if the journey ended now): points the end scoring gave (Temple ranking,
    end achievements), coins, panorama cards, souvenirs, Temple coins, meals, Hot Springs,
    Encounters, souvenir families held. Their points so far count 1 each (they are kept)."""
    ps = p2["ps"]
    n = p2["gs"][G.N_PLAYERS]
    for u in range(n):
        x[u, 0] = ps[u, PF.SCORE]
        x[u, 1] = ps[u, PF.COINS]
        x[u, 2] = ps[u, PF.PANORAMAS]
        x[u, 3] = ps[u, PF.SOUVENIRS]
        x[u, 4] = ps[u, PF.DONATED]
        x[u, 5] = ps[u, PF.MEALS]
        x[u, 6] = ps[u, PF.HOT_SPRINGS]
        x[u, 7] = ps[u, PF.ENCOUNTERS]
        fams = 0
        for f in range(N_FAMILIES):
            fams += 1 if ps[u, PF.FAM0 + f] > 0 else 0
        x[u, 8] = fams
    game.end_scoring_nb(p2, r2)
    for u in range(n):
        x[u, 0] = ps[u, PF.SCORE] - x[u, 0]


@njit(cache=True)
def margin_nb(p2, r2, me, w, k):
    """``me``'s value minus the best other's, plus the win bonus ``w[S_WIN]``; runs the end scoring.

    At the end of the road a player's value is their score; at Inn ``k`` (1-3), their score had
    the journey ended there plus the fitted worth of their state (``ev_features_nb`` times
    ``ru['seval']``) and of their Traveler from there on. Reads only ``pub`` (scores, collections and
    Travelers are public).
    """
    ps = p2["ps"]
    n = p2["gs"][G.N_PLAYERS]
    ev = r2["seval"]
    x = np.zeros((n, EV_NF))
    if 1 <= k <= 3:
        ev_features_nb(p2, r2, x)
    else:
        game.end_scoring_nb(p2, r2)
    best = -1e9
    mine = 0.0
    for u in range(n):
        v = float(ps[u, PF.SCORE])
        if 1 <= k <= 3:
            for f in range(EV_NF):
                v += ev[(k - 1) * EV_NF + f] * x[u, f]
            tr = ps[u, PF.TRAVELER]
            if 0 <= tr < EV_NT:
                v += ev[EV_T0 + (k - 1) * EV_NT + tr]
        if u == me:
            mine = v
        else:
            best = max(best, v)
    margin = mine - best
    if margin > 0:
        return margin + w[W.S_WIN]
    if margin == 0:
        return margin + 0.5 * w[W.S_WIN]
    return margin


@njit(cache=True)
def rollout_value_nb(p2, h2, r2, me, w, s0):
    """Play the scratch game (its last move went to ``s0``) with the heuristic for everyone.

    With ``w[S_HORIZON]`` = H > 0 it stops once the travelers have gathered at H Inns (the
    candidate's own arrival counts) and evaluates there (``margin_nb``); else it plays to the end.
    """
    horizon = int(w[W.S_HORIZON])
    k = inn_reached_nb(p2, r2, s0)
    legs = 1 if k > 0 else 0
    while horizon <= 0 or legs < horizon:
        t, ctrl, ncand = game.begin_turn_nb(p2, h2, r2)
        if t < 0:
            k = 0
            break
        s = p2["cand"][choose_move_nb(p2, r2, t, ctrl, ncand)]
        game.move_nb(p2, h2, r2, t, ctrl, s)
        k = inn_reached_nb(p2, r2, s)
        if k > 0:
            legs += 1
    return margin_nb(p2, r2, me, w, k)


@njit(cache=True)
def _rollout_nb(pub, pubs, h2, r2, t, ctrl, w, s, kseed):
    """One determinized rollout of the move to ``s`` (rollout seed ``kseed``) on a copy of ``pub`` in
    ``pubs[0]``: its value for ``ctrl``."""
    pubs[0] = pub
    p2 = pubs[0]
    for u in range(pub["gs"][G.N_PLAYERS]):
        p2["ps"][u, PF.BOT] = Bot.TUNED
    p2["rng"][0] = kseed
    determinize_nb(p2, h2, r2)
    game.move_nb(p2, h2, r2, t, ctrl, s)
    return rollout_value_nb(p2, h2, r2, ctrl, w, s)


@njit(cache=True)
def _halving_nb(pub, pubs, h2, r2, t, ctrl, w, sel, prior, m, rollouts, seed, vals):
    """Every candidate's rollouts, or successive halving (``w[S_HALVE]``): the index into ``sel`` of the
    best mean plus prior."""
    sums = np.zeros(m)
    order = np.arange(m)  # the candidates still searched come first
    active = m
    done = 0
    target = rollouts if w[W.S_HALVE] <= 0 else min(rollouts, int(w[W.S_HALVE]))
    while True:
        for k in range(done, target):
            kseed = mix64_nb(seed ^ mix64_nb(np.uint64(k) + _ONE))
            for a in range(active):
                j = order[a]
                sums[j] += _rollout_nb(pub, pubs, h2, r2, t, ctrl, w, pub["cand"][sel[j]], kseed)
        done = target
        for a in range(active):
            j = order[a]
            vals[sel[j]] = sums[j] / done  # the searched candidates' mean rollout values (tests read them)
        # best first by mean + prior (insertion sort of the active ones)
        for a in range(1, active):
            j = order[a]
            b = a
            while b > 0 and sums[order[b - 1]] / done + prior[order[b - 1]] < sums[j] / done + prior[j]:
                order[b] = order[b - 1]
                b -= 1
            order[b] = j
        if done >= rollouts:
            break
        active = max(2, (active + 1) // 2)  # the better half goes on (the best two to the end)
        target = min(rollouts, 2 * done)
    return order[0]


@njit(cache=True)
def _race_nb(pub, pubs, h2, r2, t, ctrl, w, sel, prior, m, rollouts, seed, vals):
    """Racing: rollouts in rounds of ``RACE_STEP``; from ``RACE_MIN`` rollouts on, a candidate stops once its
    paired deficit to the leader (the mean difference on the same determinizations plus the priors'
    difference) passes ``w[S_RACE]`` standard errors. The index into ``sel`` of the best mean plus prior
    among those still running."""
    z = w[W.S_RACE]
    x = np.zeros((m, rollouts))
    n = np.zeros(m, np.int64)  # each candidate's rollouts
    live = np.ones(m, np.bool_)
    n_live = m
    done = 0
    while done < rollouts and n_live > 1:
        target = min(rollouts, done + RACE_STEP)
        for k in range(done, target):
            kseed = mix64_nb(seed ^ mix64_nb(np.uint64(k) + _ONE))
            for j in range(m):
                if live[j]:
                    x[j, k] = _rollout_nb(pub, pubs, h2, r2, t, ctrl, w, pub["cand"][sel[j]], kseed)
                    n[j] = k + 1
        done = target
        if done < RACE_MIN:
            continue
        lead, lv = -1, -1e300
        for j in range(m):
            if live[j]:
                v = x[j, :done].mean() + prior[j]
                if v > lv:
                    lead, lv = j, v
        for j in range(m):
            if live[j] and j != lead:
                d = x[lead, :done] - x[j, :done]
                gap = d.mean() + prior[lead] - prior[j]
                if gap > z * np.sqrt(d.var() / (done - 1)):  # the standard error of the paired mean
                    live[j] = False
                    n_live -= 1
    best, bv = 0, -1e300
    for j in range(m):
        mean = x[j, : n[j]].mean()
        vals[sel[j]] = mean  # the searched candidates' mean rollout values (tests read them)
        if live[j] and mean + prior[j] > bv:
            best, bv = j, mean + prior[j]
    return best


@njit(cache=True)
def search_move_nb(pub, ru, t, ctrl, ncand):
    """The search bot's move: the heuristic's best candidates compared by determinized rollouts.

    A candidate's value is its mean plus ``w[S_PRIOR]`` times its heuristic value. Those whose prior
    trails the best's by more than ``w[S_GATE]`` points are not searched; the rest race
    (``w[S_RACE]``, ``_race_nb``) or halve (``w[S_HALVE]``, ``_halving_nb``) for ``w[S_ROLLOUTS]``
    rollouts each at most.
    """
    w = ru["botw"][ctrl]
    best = heuristic_move_nb(
        pub, ru, t, ctrl, ncand, policy_nb(pub, ru, ctrl) == Policy.EXPERT
    )  # fills bscr[B_CAND:]
    rollouts = int(w[W.S_ROLLOUTS])
    m = int(w[W.S_TOPK])
    if m <= 0 or m > ncand:
        m = ncand
    if rollouts <= 0 or m <= 1:
        return best
    vals = pub["bscr"][B_CAND : B_CAND + ncand]
    sel = np.empty(m, np.int64)
    prior = np.empty(m)
    taken = np.zeros(ncand, np.bool_)
    for j in range(m):
        bj, bv = -1, -1e300
        for k in range(ncand):
            if not taken[k] and (bj < 0 or vals[k] > bv):
                bj, bv = k, vals[k]
        sel[j] = bj
        prior[j] = w[W.S_PRIOR] * bv
        taken[bj] = True
    if w[W.S_GATE] > 0.0:
        # rollouts that must overturn a prior lead this large almost never do: those candidates are left out,
        # and a decision with one candidate left is the heuristic's (no rollout, no draw from the stream)
        while m > 1 and prior[0] - prior[m - 1] > w[W.S_GATE]:
            m -= 1
        if m <= 1:
            return best
    seed = next_u64_nb(pub["rng"])  # the only draw from the game's stream
    # the scratch game's records are taken in a callee given the arrays themselves: a record
    # (``pubs[0]``) does not keep its array alive, an argument lives until the call returns
    pubs = np.zeros(1, PUB_DTYPE)
    hids = np.zeros(1, HID_DTYPE)
    rus = np.zeros(1, RULES_DTYPE)
    return best_move_nb(pubs, hids, rus, pub, ru, t, ctrl, sel, prior, vals, m, rollouts, seed)


@njit(cache=True)
def best_move_nb(pubs, hids, rus, pub, ru, t, ctrl, sel, prior, vals, m, rollouts, seed):
    """``search_move_nb``'s rollouts of the first ``m`` candidates of ``sel`` from ``seed``, in the caller's
    one-record scratch arrays (racing or successive halving); the mean rollout values go to ``vals``."""
    w = ru["botw"][ctrl]
    rus[0] = ru
    r2 = rus[0]
    for p in range(MAX_TRAV):  # everyone plays with the searcher's weights
        for i in range(W_N):
            r2["botw"][p, i] = w[i]
    h2 = hids[0]
    if w[W.S_RACE] > 0.0:
        j = _race_nb(pub, pubs, h2, r2, t, ctrl, w, sel, prior, m, rollouts, seed, vals)
    else:
        j = _halving_nb(pub, pubs, h2, r2, t, ctrl, w, sel, prior, m, rollouts, seed, vals)
    return sel[j]
