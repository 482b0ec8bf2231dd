"""The game's turn structure: the set-up, one move (who moves, where, what the stop does), the end.

``setup_nb`` deals and lines up; ``begin_turn_nb`` finds the traveler who
moves and its legal moves (in ``pub['cand']``); ``move_nb`` plays the chosen
move; ``end_scoring_nb`` scores the end of the journey; ``write_records_nb``
writes the result records. Who *chooses* the move is not decided here: the
driver (``kernels.tokaido.play``) asks a policy, and the search bot
(``kernels.tokaido.search``) calls these same functions for its rollouts.
"""

import numpy as np
from numba import njit

from kernels.core.log import log_nb
from kernels.core.rng import shuffle_nb
from kernels.tokaido.bots.policy import choose_traveler_nb
from kernels.tokaido.core.board import lead_player_nb, legal_moves_nb, next_mover_nb
from kernels.tokaido.core.enums import (
    MAX_POOL,
    MAX_TRAV,
    N_DECKS,
    N_SPACES,
    PF,
    Ability,
    Amulet,
    Cfg,
    Ev,
    G,
    P,
    Space,
    TravelerMode,
)
from kernels.tokaido.core.present import KUSHINADA, MUTSUMI, SUSERI, WATCHERS, abilities_nb, holds_nb
from kernels.tokaido.core.score import end_achievements_nb, final_ranks_nb, temple_ranking_nb
from kernels.tokaido.game.crossroads import (
    calligraphy_scoring_nb,
    fortune_nb,
    friendship_moves_nb,
    setup_markets_nb,
    start_amulets_nb,
    usable_amulet_nb,
    use_amulet_nb,
    vitality_nb,
)
from kernels.tokaido.game.draft import deal3_draft_nb, free_draft_nb
from kernels.tokaido.game.matsuri import tsukimi_scoring_nb
from kernels.tokaido.game.matsuri_choices import neutral_moved_nb
from kernels.tokaido.game.matsuri_travelers import (
    kushinada_setup_nb,
    mutsumi_first_nb,
    suseri_nb,
    watchers_nb,
)
from kernels.tokaido.game.promos import eriku_start_nb, setup_antoine_nb
from kernels.tokaido.game.stations import inn_nb, station_nb, temple_nb


@njit(cache=True)
def setup_nb(pub, hid, ru):
    """Shuffle the piles, give out Travelers, line up at the start Inn, hand out coins."""
    ps = pub["ps"]
    gs = pub["gs"]
    rng = pub["rng"]
    cfg = ru["cfg"]
    trav = ru["trav"]
    n = cfg[Cfg.N_PLAYERS]
    nt = n + 1 if n == 2 else n  # two players add the Neutral Traveler
    gs[G.N_PLAYERS] = n
    gs[G.N_TRAV] = nt
    gs[G.LAST] = N_SPACES - 1
    hid["lg"][1] = cfg[Cfg.LOG]
    deck = hid["deck"]
    for d in range(N_DECKS):
        m = ru["dsize"][d]
        for i in range(m):
            deck[d, i] = i
        shuffle_nb(deck[d], m, rng)
        hid["dtop"][d] = 0
        pub["dcnt"][d] = m
        for i in range(m):
            log_nb(hid, Ev.DECK, -1, d, deck[d, i], -1, -1)
    if ru["params"][P.XR] == 1:
        setup_markets_nb(pub, hid, ru)
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
    if mode == TravelerMode.DRAFT and cfg[Cfg.DRAFT_FREE] == 1:
        free_draft_nb(pub, hid, ru, pool, npool)
    elif mode == TravelerMode.DRAFT and cfg[Cfg.DRAFT_DEALT] == 3:
        deal3_draft_nb(pub, hid, ru, pool, npool)
    elif mode == TravelerMode.DRAFT:
        shuffle_nb(pool, npool, rng)
        for p in range(n):
            log_nb(hid, Ev.DEAL, p, pool[2 * p], pool[2 * p + 1], -1, -1)
        for p in range(n):
            t1, t2 = pool[2 * p], pool[2 * p + 1]
            if choose_traveler_nb(pub, ru, p, t1, t2) == 1:
                t1, t2 = t2, t1
            ps[p, PF.TRAVELER] = t1
            ps[p, PF.ALT_TRAVELER] = t2
            log_nb(hid, Ev.KEEP, p, t1, -1, -1, -1)
    elif mode == TravelerMode.RANDOM or mode == TravelerMode.FIXED:
        if mode == TravelerMode.RANDOM:
            shuffle_nb(pool, npool, rng)
        for p in range(n):
            ps[p, PF.TRAVELER] = pool[p] if mode == TravelerMode.RANDOM else cfg[Cfg.FIXED0 + p]
            log_nb(hid, Ev.DEAL, p, ps[p, PF.TRAVELER], -1, -1, -1)
            log_nb(hid, Ev.KEEP, p, ps[p, PF.TRAVELER], -1, -1, -1)
    for p in range(n):
        t = ps[p, PF.TRAVELER]
        if t >= 0:
            ps[p, PF.COINS] = trav[t, 0]
            ps[p, PF.ABILITY] = trav[t, 1]
        else:
            ps[p, PF.COINS] = ru["params"][P.INITIATION_COINS]
            ps[p, PF.ABILITY] = Ability.NONE
    abilities_nb(pub)
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
        log_nb(hid, Ev.LINEUP, t, k, -1, -1, -1)
        if ps[t, PF.NEUTRAL] == 0:
            ps[t, PF.SEAT] = seat
            ps[t, PF.COINS] = max(0, ps[t, PF.COINS] + cfg[Cfg.PREP0 + seat])
            seat += 1
    gs[G.SEQ] = nt + 1
    pub["occ"][0] = nt
    if holds_nb(pub, KUSHINADA):
        kushinada_setup_nb(pub, hid, ru)  # after Preparations, before the start Amulets (MT-Kushinada)
    for p in range(n):
        ps[p, PF.COINS_START] = ps[p, PF.COINS]
        log_nb(hid, Ev.COINS, p, ps[p, PF.COINS], -1, -1, -1)
    setup_antoine_nb(pub, ru)
    eriku_start_nb(pub, hid, ru)  # at Kyoto, before the first move (P3); before the start Amulet
    if ru["params"][P.XR] == 1:
        start_amulets_nb(pub, hid, ru, order, nt)
    gs[G.LAST_MOVER] = -1


@njit(cache=True)
def begin_turn_nb(pub, hid, ru):
    """Who moves, who decides, how many legal moves (in ``pub['cand']``); t = -1 once the game is over."""
    ps = pub["ps"]
    gs = pub["gs"]
    if gs[G.FORCE] > 0:  # Vitality: the same traveler moves again
        t = gs[G.FORCE] - 1
        gs[G.FORCE] = 0
    else:
        t = next_mover_nb(pub)
        if holds_nb(pub, MUTSUMI):
            t = mutsumi_first_nb(pub, ru, hid, t)
    if ps[t, PF.POS] == gs[G.LAST]:
        return -1, -1, 0
    xr = ru["params"][P.XR] == 1
    neutral = ps[t, PF.NEUTRAL] == 1
    # seed 002: an Amulet is usable "on his next move": the buyer's own next move, whoever moved between
    ps[t, PF.AMULETS_NEW] = 0
    gs[G.LAST_MOVER] = t
    if xr and not neutral and ru["params"][P.FORTUNE_BEFORE] == 1:  # seed 002: before moving
        fortune_nb(pub, hid, ru, t, 0)
    ctrl = lead_player_nb(pub) if neutral else t
    ncand = legal_moves_nb(pub, ru, t)
    if xr and not neutral:
        ncand = friendship_moves_nb(pub, ru, t, ncand)
    return t, ctrl, ncand


@njit(cache=True)
def move_nb(pub, hid, ru, t, ctrl, s):
    """``t`` (moved by ``ctrl``) goes to space ``s`` and plays it (also the search bot's rollouts)."""
    ps = pub["ps"]
    gs = pub["gs"]
    occ = pub["occ"]
    xr = ru["params"][P.XR] == 1
    neutral = ps[t, PF.NEUTRAL] == 1
    typ = ru["board"][0, s]
    if xr and typ != Space.INN and occ[s] > 0:
        cap = 2 if (ru["board"][1, s] == 1 and gs[G.N_TRAV] >= 4 and (gs[G.M_HALF] >> s) & 1 == 0) else 1
        if occ[s] >= cap:  # only the Friendship Amulet opens a full space
            use_amulet_nb(pub, hid, t, usable_amulet_nb(pub, ru, t, Amulet.FRIENDSHIP), -1)
    occ[ps[t, PF.POS]] -= 1
    occ[s] += 1
    ps[t, PF.POS] = s
    ps[t, PF.SEQ] = gs[G.SEQ]
    gs[G.SEQ] += 1
    gs[G.TURNS] += 1
    log_nb(hid, Ev.MOVE, t, s, ctrl, -1, -1)
    if neutral:
        neutral_moved_nb(pub, ru, ctrl)
    if xr and not neutral and ru["params"][P.FORTUNE_AFTER] == 1:  # online also on arrival, before the stop
        fortune_nb(pub, hid, ru, t, 1)
    if typ == Space.INN:
        inn_nb(pub, hid, ru, t, s)
    elif neutral:
        if typ == Space.TEMPLE:
            if ru["params"][P.M_NEUTRAL_WATCHERS] == 1 and holds_nb(pub, WATCHERS):
                watchers_nb(pub, hid, ru, t, typ)  # M29's alternative: its Temple stop pays Misaki too
            temple_nb(pub, hid, ru, t)
    else:
        station_nb(pub, hid, ru, t, typ)
        if xr:
            vitality_nb(pub, hid, ru, t)


@njit(cache=True)
def write_records_nb(pub, game, out):
    ps = pub["ps"]
    gs = pub["gs"]
    n = gs[G.N_PLAYERS]
    ranks = pub["iscr"]
    winners = final_ranks_nb(pub, ranks)
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
        r["pts_cherry_trees"] = ps[p, PF.PTS_CHERRY]
        r["pts_bathhouses"] = ps[p, PF.PTS_BATHHOUSES]
        r["pts_legendary"] = ps[p, PF.PTS_LEGENDARY]
        r["pts_calligraphy"] = ps[p, PF.PTS_CALLIGRAPHY]
        r["cherry_trees"] = ps[p, PF.CHERRY]
        r["bathhouses"] = ps[p, PF.BATHHOUSES]
        r["legendary"] = ps[p, PF.LEGENDARY]
        r["calligraphy"] = ps[p, PF.CALLIGRAPHY]
        r["amulets"] = ps[p, PF.AMULETS_BOUGHT]
        r["pts_matsuri"] = ps[p, PF.PTS_MATSURI]
        r["dolls"] = ps[p, PF.DOLLS]
        r["carps"] = ps[p, PF.CARPS]
        r["matsuri_tokens"] = ps[p, PF.M_TOKENS]
        r["matsuri_inn1"] = gs[G.M_KEPT0] - 1
        r["matsuri_inn2"] = gs[G.M_KEPT0 + 1] - 1
        r["matsuri_inn3"] = gs[G.M_KEPT0 + 2] - 1
        r["matsuri_rej1"] = gs[G.M_REJ0] - 1
        r["matsuri_rej2"] = gs[G.M_REJ0 + 1] - 1
        r["matsuri_rej3"] = gs[G.M_REJ0 + 2] - 1
        r["matsuri_hanabi1"] = gs[G.M_HANABI0] - 1
        r["matsuri_hanabi2"] = gs[G.M_HANABI0 + 1] - 1


@njit(cache=True)
def end_scoring_nb(pub, ru):
    """The end of the journey: Temple ranking, end achievements (Crossroads: Calligraphy)."""
    temple_ranking_nb(pub, ru)
    end_achievements_nb(pub, ru)
    if ru["params"][P.XR] == 1:
        calligraphy_scoring_nb(pub, ru)
    if ru["params"][P.MATSURI] == 1:
        tsukimi_scoring_nb(pub, ru)
    if holds_nb(pub, SUSERI):
        suseri_nb(pub, ru)
