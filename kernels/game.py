"""One whole game, from the deal to the final ranking, and a parallel batch of games.

``play_game_nb`` allocates the state of one game (layout in ``enums``), plays
it and writes one ``RESULT_DTYPE`` record per player into ``out``.
``play_batch_nb`` plays games ``start .. start+count-1`` in parallel; game i's
random stream depends only on (seed, i).
"""

import numpy as np
from numba import njit, prange

from kernels.board import lead_player_nb, legal_moves_nb, next_mover_nb
from kernels.bots import choose_move_nb, choose_traveler_nb
from kernels.enums import (
    DECK_CAP,
    G_N,
    HAND_CAP,
    MAX_POOL,
    MAX_TRAV,
    N_DECKS,
    N_SPACES,
    PF,
    PF_N,
    Ability,
    Cfg,
    Ev,
    G,
    P,
    Space,
    TravelerMode,
)
from kernels.piles import log_nb
from kernels.rng import seed_game_nb, shuffle_nb
from kernels.score import end_achievements_nb, final_ranks_nb, temple_ranking_nb
from kernels.stations import inn_nb, station_nb, temple_nb


@njit(cache=True)
def setup_nb(S, R):
    """Shuffle the piles, give out Travelers, line up at the start Inn, hand out coins."""
    ps, gs, occ, deck, dk, hand, tbl, log, rng = S
    board, card, dsize, params, trav, cfg, botw = R
    n = cfg[Cfg.N_PLAYERS]
    nt = n + 1 if n == 2 else n
    gs[G.N_PLAYERS] = n
    gs[G.N_TRAV] = nt
    gs[G.LAST] = N_SPACES - 1
    gs[G.LOG_ON] = cfg[Cfg.LOG]
    for d in range(N_DECKS):
        m = dsize[d]
        for i in range(m):
            deck[d, i] = i
        shuffle_nb(deck[d], m, rng)
        dk[0, d] = 0
        dk[1, d] = m
        for i in range(m):
            log_nb(log, gs, Ev.DECK, -1, d, deck[d, i], -1, -1)
    for t in range(MAX_TRAV):
        ps[t, PF.TRAVELER] = -1
        ps[t, PF.ALT_TRAVELER] = -1
    for p in range(n):
        ps[p, PF.BOT] = cfg[Cfg.BOT0 + p]
    mode = cfg[Cfg.MODE]
    pool = np.zeros(MAX_POOL, np.int32)
    npool = cfg[Cfg.POOL_N]
    for i in range(npool):
        pool[i] = cfg[Cfg.POOL0 + i]
    if mode == TravelerMode.DRAFT:
        shuffle_nb(pool, npool, rng)
        for p in range(n):
            log_nb(log, gs, Ev.DEAL, p, pool[2 * p], pool[2 * p + 1], -1, -1)
        for p in range(n):
            t1, t2 = pool[2 * p], pool[2 * p + 1]
            if choose_traveler_nb(ps[p, PF.BOT], botw[p], t1, t2, trav, rng) == 1:
                t1, t2 = t2, t1
            ps[p, PF.TRAVELER] = t1
            ps[p, PF.ALT_TRAVELER] = t2
            log_nb(log, gs, Ev.KEEP, p, t1, -1, -1, -1)
    elif mode == TravelerMode.RANDOM or mode == TravelerMode.FIXED:
        if mode == TravelerMode.RANDOM:
            shuffle_nb(pool, npool, rng)
        for p in range(n):
            ps[p, PF.TRAVELER] = pool[p] if mode == TravelerMode.RANDOM else cfg[Cfg.FIXED0 + p]
            log_nb(log, gs, Ev.DEAL, p, ps[p, PF.TRAVELER], -1, -1, -1)
            log_nb(log, gs, Ev.KEEP, p, ps[p, PF.TRAVELER], -1, -1, -1)
    for p in range(n):
        t = ps[p, PF.TRAVELER]
        if t >= 0:
            ps[p, PF.COINS] = trav[t, 0]
            ps[p, PF.ABILITY] = trav[t, 1]
        else:
            ps[p, PF.COINS] = params[P.INITIATION_COINS]
            ps[p, PF.ABILITY] = Ability.NONE
    if n == 2:
        ps[2, PF.NEUTRAL] = 1
    # random line-up at the start Inn: order 0 leaves first, so it is "behind"
    order = np.arange(nt)
    shuffle_nb(order, nt, rng)
    seat = 0
    for k in range(nt):
        t = order[k]
        ps[t, PF.POS] = 0
        ps[t, PF.SEQ] = nt - k
        log_nb(log, gs, Ev.LINEUP, t, k, -1, -1, -1)
        if ps[t, PF.NEUTRAL] == 0:
            ps[t, PF.SEAT] = seat
            ps[t, PF.COINS] = max(0, ps[t, PF.COINS] + cfg[Cfg.PREP0 + seat])
            seat += 1
    gs[G.SEQ] = nt + 1
    occ[0] = nt
    for p in range(n):
        ps[p, PF.COINS_START] = ps[p, PF.COINS]
        log_nb(log, gs, Ev.COINS, p, ps[p, PF.COINS], -1, -1, -1)


@njit(cache=True)
def turn_nb(S, R, cand):
    """One move of the traveler farthest behind; False once everyone is at the end."""
    ps, gs, occ, deck, dk, hand, tbl, log, rng = S
    board, card, dsize, params, trav, cfg, botw = R
    n = gs[G.N_PLAYERS]
    nt = gs[G.N_TRAV]
    t = next_mover_nb(ps, nt)
    if ps[t, PF.POS] == gs[G.LAST]:
        return False
    ctrl = lead_player_nb(ps, n) if ps[t, PF.NEUTRAL] == 1 else t
    ncand = legal_moves_nb(t, ps, occ, board, params, nt, cand)
    k = choose_move_nb(ps[ctrl, PF.BOT], botw[ctrl], t, ctrl, ps, dk[1], gs[G.PAN_ACH], board, params, n, cand, ncand, rng)
    s = cand[k]
    occ[ps[t, PF.POS]] -= 1
    occ[s] += 1
    ps[t, PF.POS] = s
    ps[t, PF.SEQ] = gs[G.SEQ]
    gs[G.SEQ] += 1
    gs[G.TURNS] += 1
    log_nb(log, gs, Ev.MOVE, t, s, ctrl, -1, -1)
    typ = board[0, s]
    if typ == Space.INN:
        inn_nb(S, R, t, s)
    elif ps[t, PF.NEUTRAL] == 1:
        if typ == Space.TEMPLE:
            temple_nb(S, R, t)
    else:
        station_nb(S, R, t, typ)
    return True


@njit(cache=True)
def end_game_nb(ps, n, nt, params):
    temple_ranking_nb(ps, nt, params)
    end_achievements_nb(ps, n, params)


@njit(cache=True)
def write_records_nb(ps, n, game, out):
    ranks = np.zeros(n, np.int32)
    winners = final_ranks_nb(ps, n, ranks)
    for p in range(n):
        r = out[p]
        r["game"] = game
        r["player"] = p
        r["seat"] = ps[p, PF.SEAT]
        r["traveler"] = ps[p, PF.TRAVELER]
        r["alt_traveler"] = ps[p, PF.ALT_TRAVELER]
        r["bot"] = ps[p, PF.BOT]
        r["score"] = ps[p, PF.SCORE]
        r["rank"] = ranks[p]
        r["win_k"] = winners
        r["pts_meals"] = ps[p, PF.PTS_MEALS]
        r["pts_souvenirs"] = ps[p, PF.PTS_SOUVENIRS]
        r["pts_panoramas"] = ps[p, PF.PTS_PANORAMAS]
        r["pts_hot_springs"] = ps[p, PF.PTS_HOT_SPRINGS]
        r["pts_temple"] = ps[p, PF.PTS_TEMPLE]
        r["pts_temple_bonus"] = ps[p, PF.PTS_TEMPLE_BONUS]
        r["pts_encounters"] = ps[p, PF.PTS_ENCOUNTERS]
        r["pts_achievements"] = ps[p, PF.PTS_ACHIEVEMENTS]
        r["pts_other"] = ps[p, PF.PTS_OTHER]
        r["meals"] = ps[p, PF.MEALS]
        r["meal_value"] = ps[p, PF.MEAL_VALUE]
        r["souvenirs"] = ps[p, PF.SOUVENIRS]
        r["hot_springs"] = ps[p, PF.HOT_SPRINGS]
        r["encounters"] = ps[p, PF.ENCOUNTERS]
        r["achievements"] = ps[p, PF.ACHIEVEMENTS]
        r["donated"] = ps[p, PF.DONATED]
        r["coins_left"] = ps[p, PF.COINS]
        r["coins_start"] = ps[p, PF.COINS_START]
        r["stops"] = ps[p, PF.STOPS]
        r["panoramas"] = ps[p, PF.PANORAMAS]


@njit(cache=True)
def new_state_nb(log):
    ps = np.zeros((MAX_TRAV, PF_N), np.int32)
    gs = np.zeros(G_N, np.int64)
    occ = np.zeros(N_SPACES, np.int8)
    deck = np.zeros((N_DECKS, DECK_CAP), np.int16)
    dk = np.zeros((2, N_DECKS), np.int32)
    hand = np.zeros(HAND_CAP, np.int16)
    tbl = np.zeros(HAND_CAP, np.int16)
    rng = np.zeros(1, np.uint64)
    return (ps, gs, occ, deck, dk, hand, tbl, log, rng)


@njit(cache=True)
def play_game_nb(seed, game, board, card, dsize, params, trav, cfg, botw, out, log):
    """Play game ``game`` of the run seeded ``seed``; returns the number of log events."""
    S = new_state_nb(log)
    R = (board, card, dsize, params, trav, cfg, botw)
    seed_game_nb(S[8], seed, game)
    setup_nb(S, R)
    cand = np.zeros(N_SPACES, np.int32)
    while turn_nb(S, R, cand):
        pass
    ps, gs = S[0], S[1]
    log_nb(log, gs, Ev.END, -1, -1, -1, -1, -1)
    end_game_nb(ps, gs[G.N_PLAYERS], gs[G.N_TRAV], params)
    write_records_nb(ps, gs[G.N_PLAYERS], game, out)
    return -1 if gs[G.OVERFLOW] else gs[G.LOG_N]


@njit(parallel=True, nogil=True, cache=True)
def play_batch_nb(seed, start, count, board, card, dsize, params, trav, cfg, botw, out, logs, nlog):
    """Play games ``start .. start+count-1`` in parallel into ``out`` (and ``logs``)."""
    n = cfg[Cfg.N_PLAYERS]
    logging = cfg[Cfg.LOG] == 1
    for i in prange(count):
        lg = logs[i] if logging else logs[0]
        nlog[i] = play_game_nb(seed, start + i, board, card, dsize, params, trav, cfg, botw, out[i * n : (i + 1) * n], lg)

