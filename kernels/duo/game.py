"""The rules of one Duo round, pick by pick: setup, the draft, end of round, scores, result records.

A round (D-K2): the first picker rolls the three dice, takes one and plays
that character; the other player takes one of the two left; the first picker
plays the last. The first picker alternates (D10: random in round 1). After a
pick its player may spend the Hot Spring token, taken on an earlier pick, to
repeat it (D-K8, D5). A trigger (D-K17) ends the game at the end of its round.

This module knows the random and greedy die choices and the solo Automa's only: the search tier
(``kernels.duo.search``) plays its rollouts with ``plain_step_nb``, so the
driver that may ask the search, ``kernels.duo.play``, sits above both.
"""

import numpy as np
from numba import njit

from kernels.core.log import log_nb
from kernels.core.rng import randint_nb, shuffle_nb
from kernels.duo.automa import automa_die_nb, automa_play_nb
from kernels.duo.bots import choose_play_nb, choose_return_nb, greedy_die_nb, random_die_nb, spend_spring_nb
from kernels.duo.effects import apply_play_nb, return_ware_nb
from kernels.duo.enums import N_COAST, N_SLOTS, PF, Bot, Cfg, Char, Ev, G, P, Trig
from kernels.duo.moves import ware_cap_nb


@njit(cache=True)
def setup_nb(pub, hid, ru):
    """Meeples on their start spaces, boutiques and wave sides at random, 10 face-down paintings each."""
    ps = pub["ps"]
    gs = pub["gs"]
    rng = pub["rng"]
    hid["lg"][1] = ru["cfg"][Cfg.LOG]
    for p in range(2):
        ps[p, PF.PIL] = ru["start"][0, p]
        ps[p, PF.MER] = ru["start"][1, p]
        ps[p, PF.ART] = ru["start"][2, p]
        ps[p, PF.BOT] = ru["cfg"][Cfg.BOT0 + p]
        ps[p, PF.HS_PICK] = -1
    first = ru["params"][P.FIRST]
    if first < 0:
        first = randint_nb(rng, 2)
    gs[G.FIRST0] = first
    ps[first, PF.FIRST] = 1
    log_nb(hid, Ev.FIRST, first, -1, -1, -1, -1)
    order = np.arange(N_COAST)
    shuffle_nb(order, N_COAST, rng)
    for t in range(N_COAST):
        pub["btq"][t, 0] = ru["btq"][order[t], 0]
        pub["btq"][t, 1] = ru["btq"][order[t], 1]
        log_nb(hid, Ev.BOUTIQUE, -1, t, pub["btq"][t, 0], pub["btq"][t, 1], -1)
    for c in range(3):
        pub["wside"][c] = ru["waves"][c, randint_nb(rng, 2)]
        pub["wown"][c] = -1
        log_nb(hid, Ev.WAVE, -1, c, pub["wside"][c], -1, -1)
    tiles = np.zeros(2 * N_SLOTS, np.int64)
    n = 0
    for icon in range(ru["pool"].shape[0]):
        for _ in range(ru["pool"][icon]):
            tiles[n] = icon
            n += 1
    shuffle_nb(tiles, n, rng)
    for p in range(2):
        for s in range(N_SLOTS):
            hid["tiles"][p, s] = tiles[p * N_SLOTS + s]
            pub["shown"][p, s] = -1
            log_nb(hid, Ev.TILE, p, s, hid["tiles"][p, s], -1, -1)
    pub["bag"][:] = ru["bag"]
    gs[G.HS_BOARD] = 1


@njit(cache=True)
def picker_nb(pub):
    gs = pub["gs"]
    lead = (gs[G.FIRST0] + gs[G.ROUND]) % 2
    return lead if gs[G.STEP] != 1 else 1 - lead


@njit(cache=True)
def roll_nb(pub, hid, ru):
    gs = pub["gs"]
    for c in range(3):
        gs[G.DIE0 + c] = ru["dice"][c, randint_nb(pub["rng"], ru["dice"].shape[1])]
    gs[G.ROLLED] = 1
    log_nb(hid, Ev.ROLL, -1, gs[G.ROUND], gs[G.DIE0], gs[G.DIE0 + 1], gs[G.DIE0 + 2])


@njit(cache=True)
def play_char_nb(pub, hid, ru, p, c, v):
    """``p`` moves character ``c`` by ``v`` and resolves the arrival (the bot chooses the play)."""
    k = choose_play_nb(pub, ru, p, c, v)
    apply_play_nb(pub, hid, ru, p, c, k)
    row = pub["cand"][k]
    if c == Char.MERCHANT and row[0] >= 0 and ru["town"][0, row[0]] == 1 and row[2] == 1:
        cap = ware_cap_nb(pub, ru, p)  # the cap binds on a draw (D-K11), not when a Porter tile is lost
        while pub["ps"][p, PF.NWARES] > cap:  # D8: the player chooses which to return
            return_ware_nb(pub, hid, p, choose_return_nb(pub, ru, p))
        if pub["ps"][p, PF.NWARES] > ru["params"][P.CAP]:
            pub["ps"][p, PF.WUSE_M] += 1  # only the Porter tile allows this


@njit(cache=True)
def pick_nb(pub, hid, ru, p, c):
    """``p`` takes die ``c``, plays it, and may spend the Hot Spring token to repeat it."""
    gs = pub["gs"]
    ps = pub["ps"]
    v = gs[G.DIE0 + c]
    gs[G.USED] |= 1 << c
    gs[G.PICK] += 1
    log_nb(hid, Ev.PICK, p, c, v, -1, -1)
    if ps[p, PF.BOT] == Bot.AUTOMA:  # solo: her move is automatic and she never spends the token
        automa_play_nb(pub, hid, ru, p, c, v)
        return
    play_char_nb(pub, hid, ru, p, c, v)
    if ps[p, PF.HS] == 1 and ps[p, PF.HS_PICK] < gs[G.PICK] and spend_spring_nb(pub, ru, p, c, v):
        log_nb(hid, Ev.SPRING, p, -1, -1, -1, -1)
        ps[p, PF.HS] = 0
        ps[p, PF.HS_USED] += 1
        gs[G.HS_BOARD] = 1  # D5: back on the board before the repeat resolves
        gs[G.REPEAT] = 1
        play_char_nb(pub, hid, ru, p, c, v)
        gs[G.REPEAT] = 0


@njit(cache=True)
def plain_die_nb(pub, ru, p):
    """The die of a random or greedy player (the last die is forced); -1 for a search player's choice."""
    gs = pub["gs"]
    if gs[G.STEP] == 2:
        for c in range(3):
            if not (gs[G.USED] >> c) & 1:
                return c
    bot = pub["ps"][p, PF.BOT]
    if bot == Bot.RANDOM:
        return random_die_nb(pub, p)
    if bot == Bot.SEARCH:
        return -1
    if bot == Bot.AUTOMA:
        return automa_die_nb(pub, ru, p)
    return greedy_die_nb(pub, ru, p)


@njit(cache=True)
def end_pick_nb(pub, ru):
    gs = pub["gs"]
    gs[G.STEP] += 1
    if gs[G.STEP] < 3:
        return
    if gs[G.TRIG] == 0 and gs[G.ROUND] + 1 >= ru["params"][P.MAX_ROUNDS]:
        gs[G.TRIG] |= Trig.ROUNDS
    if gs[G.TRIG] != 0:
        gs[G.OVER] = 1
        return
    gs[G.ROUND] += 1
    gs[G.STEP] = 0
    gs[G.USED] = 0
    gs[G.ROLLED] = 0


@njit(cache=True)
def begin_pick_nb(pub, hid, ru):
    """Roll at the start of a round; the player to pick."""
    if pub["gs"][G.ROLLED] == 0:
        roll_nb(pub, hid, ru)
    return picker_nb(pub)


@njit(cache=True)
def plain_step_nb(pub, hid, ru, forced):
    """One pick with die ``forced`` if >= 0, else the random/greedy choice (rollouts never search)."""
    if pub["gs"][G.OVER] == 1:
        return False
    p = begin_pick_nb(pub, hid, ru)
    c = forced if forced >= 0 else plain_die_nb(pub, ru, p)
    pick_nb(pub, hid, ru, p, c)
    end_pick_nb(pub, ru)
    return pub["gs"][G.OVER] == 0


@njit(cache=True)
def score_nb(pub, ru):
    """D-K6, D-K13, D-K16, D-K18: character scores, total, ranks (ties on coins, then shared).

    Solo (003:L87): the Automa scores her 3 Ranks; she has no money, so a tie goes to the human.
    """
    ps = pub["ps"]
    key = np.zeros(2, np.int64)
    for p in range(2):
        if ps[p, PF.BOT] == Bot.AUTOMA:
            for c in range(3):
                ps[p, PF.PTS_P + c] = ru["rvals"][c, ps[p, PF.AR_P + c]]
        else:
            ps[p, PF.PTS_P] = ru["tvals"][ps[p, PF.TEMPLE]] * ru["gvals"][ps[p, PF.GARDEN]]
            ps[p, PF.PTS_M] = 0 if ps[p, PF.SLABS] == 0 else ru["slabs"][ps[p, PF.SLABS] - 1]
            ps[p, PF.PTS_A] = 0 if ps[p, PF.GIFTED] == 0 else ru["avals"][ps[p, PF.GIFTED] - 1]
        ps[p, PF.SCORE] = ps[p, PF.PTS_P] + ps[p, PF.PTS_M] + ps[p, PF.PTS_A]
        key[p] = ps[p, PF.SCORE] * 10000 + (-1 if ps[p, PF.BOT] == Bot.AUTOMA else ps[p, PF.COINS])
    a = key[0]
    b = key[1]
    ps[0, PF.RANK] = 1 if a >= b else 2
    ps[1, PF.RANK] = 1 if b >= a else 2


@njit(cache=True)
def write_records_nb(pub, game, out):
    ps = pub["ps"]
    gs = pub["gs"]
    win_k = 2 if ps[0, PF.RANK] == ps[1, PF.RANK] else 1
    for p in range(2):
        r = out[p]
        r["game"] = game
        r["player"] = p
        r["bot"] = ps[p, PF.BOT]
        r["first"] = ps[p, PF.FIRST]
        r["score"] = ps[p, PF.SCORE]
        r["rank"] = ps[p, PF.RANK]
        r["win_k"] = win_k
        r["pts_pilgrim"] = ps[p, PF.PTS_P]
        r["pts_merchant"] = ps[p, PF.PTS_M]
        r["pts_artist"] = ps[p, PF.PTS_A]
        r["coins"] = ps[p, PF.COINS]
        r["slabs"] = ps[p, PF.SLABS]
        r["temple"] = ps[p, PF.TEMPLE]
        r["garden"] = ps[p, PF.GARDEN]
        r["revealed"] = ps[p, PF.REVEALED]
        r["gifted"] = ps[p, PF.GIFTED]
        r["end_triggers"] = gs[G.TRIG]
        r["rounds"] = gs[G.ROUND] + 1
        r["hs_taken"] = ps[p, PF.HS_TAKEN]
        r["hs_used"] = ps[p, PF.HS_USED]
        r["waves_taken"] = ps[p, PF.WAVES_TAKEN]
        r["wave_use_pilgrim"] = ps[p, PF.WUSE_P]
        r["wave_use_merchant"] = ps[p, PF.WUSE_M]
        r["wave_use_artist"] = ps[p, PF.WUSE_A]
        held = 0
        for c in range(3):
            if pub["wown"][c] == p:
                held |= 1 << c
        r["waves_held"] = held
