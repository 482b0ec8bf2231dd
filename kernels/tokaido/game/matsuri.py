"""The Matsuri expansion in the engine: the festival stack, its 20 cards, closures and tokens.

Rules: seed 002's Matsuri pages, paraphrased in ../shared/research/expansions.md part A; the log
rows are docs/log-format.md "## Matsuri". Every hook the other modules call is guarded by one
flag check (``P.MATSURI``, or a ``G.M_*`` field that stays 0 without Matsuri), so games without
the expansion pay nothing.

State (all public, in ``pub['gs']``; the stack itself is deck ``Deck.MATSURI`` of ``hid``):

``G.M_INN``       Matsuri Inns played (0..3)
``G.M_LEG``       bit c: Matsuri card c acts on the stations of this leg
``G.M_NEXT``      bit c: card c acts at the next Inn (Cho-yo)
``G.M_CLOSED``    bit s: station s is closed for this leg; ``G.M_HALF``: double s is a single space
``G.M_TOKENS``    Closed Space tokens on the board (at most ``P.M_CLOSED_TOKENS``)
``G.M_TSUKIMI``   o-Tsukimi's shared Calligraphy card + 1 (0 none)
``G.M_KEPT0..2``, ``G.M_REJ0..2``, ``G.M_HANABI0..1``  cards kept / rejected / brought by Hanabi, + 1
Per traveler: ``PF.PTS_MATSURI`` (token points), ``PF.DOLLS``, ``PF.CARPS``, ``PF.M_TOKENS``.
Card table ``ru['card'][Deck.MATSURI]``: row 0 the kind (``Matsuri``), row 1 ``timing * 16 + space + 1``.
"""

import numpy as np
from numba import njit

from kernels.core.log import log_nb
from kernels.core.rng import randint_nb, shuffle_nb
from kernels.tokaido.bots.matsuri import hadaka_value_nb, yama_value_nb
from kernels.tokaido.bots.policy import (
    choose_extra_nb,
    choose_gion_nb,
    choose_matsuri_card_nb,
    choose_obon_nb,
    choose_tsukimi_nb,
)
from kernels.tokaido.core.enums import (
    DECK_CAP,
    MARKET_CAP,
    PF,
    Ability,
    Deck,
    DieSrc,
    Ev,
    G,
    Opt,
    P,
    PanSrc,
    Space,
)
from kernels.tokaido.core.events import Matsuri, Timing, Token
from kernels.tokaido.core.piles import draw_nb, under_nb
from kernels.tokaido.core.score import (
    achievement_count_nb,
    add_pts_nb,
    antoine_nb,
    calli_points_nb,
    mark_gone_nb,
    panorama_open_nb,
    souvenir_gain_pts_nb,
    take_panorama_nb,
    temple_rank_nb,
)
from kernels.tokaido.core.weights import W
from kernels.tokaido.game.crossroads import roll_nb, take_amulet_nb
from kernels.tokaido.game.matsuri_choices import festival_chooser_nb, hanabi_order_nb

ANY_PANORAMA = 9  # sim/games/tokaido/rules/matsuri.py
MATSURI_INNS = 3  # the intermediate Inns (G.M_KEPT0 has room for 3)
_ONE = np.int64(1)


@njit(cache=True)
def card_space_nb(ru, c):
    return ru["card"][Deck.MATSURI, 1, c] % 16 - 1


@njit(cache=True)
def arrival_order_nb(pub, order):
    """The players at the Inn in arrival order (earliest first) into ``order``; returns how many."""
    ps = pub["ps"]
    n = 0
    for t in range(pub["gs"][G.N_TRAV]):
        if ps[t, PF.NEUTRAL] == 1:
            continue
        i = n
        while i > 0 and ps[order[i - 1], PF.SEQ] > ps[t, PF.SEQ]:
            order[i] = order[i - 1]
            i -= 1
        order[i] = t
        n += 1
    return n


@njit(cache=True)
def token_nb(pub, hid, t, kind, pts, c, detail):
    ps = pub["ps"]
    add_pts_nb(pub, t, PF.PTS_MATSURI, pts)
    if kind == Token.JOURNEY:
        ps[t, PF.M_TOKENS] += 1
    log_nb(hid, Ev.TOKEN, t, kind, pts, c, detail)


@njit(cache=True)
def close_nb(pub, hid, ru, s, c):
    """Closed Space tokens on the next leg's stations of the card's type (M10, M11)."""
    gs = pub["gs"]
    board = ru["board"]
    typ = card_space_nb(ru, c)
    for x in range(s + 1, board.shape[1]):
        if board[0, x] == Space.INN:
            break
        if board[0, x] != typ or gs[G.M_TOKENS] >= ru["params"][P.M_CLOSED_TOKENS]:
            continue
        if board[1, x] == 1:
            if gs[G.N_TRAV] < 4:
                continue  # the second space is not in play at 2-3 travelers
            gs[G.M_HALF] |= _ONE << x
            log_nb(hid, Ev.CLOSE, -1, x, 0, c, -1)
        else:
            gs[G.M_CLOSED] |= _ONE << x
            log_nb(hid, Ev.CLOSE, -1, x, 1, c, -1)
        gs[G.M_TOKENS] += 1


@njit(cache=True)
def _ofune_nb(pub, hid, ru, c, order, n):
    ps = pub["ps"]
    gs = pub["gs"]
    params = ru["params"]
    had = (gs[G.PAN_ACH] >> 2) & 1
    lead = -1  # Antoine completing with others wins the tie (P1d): he goes first, takes the card alone
    finishing = 0
    for i in range(n):
        if panorama_open_nb(pub, ru, order[i], 2) and ps[order[i], PF.PAN2] + 1 == params[P.PAN_LEN0 + 2]:
            finishing += 1
            if antoine_nb(pub, order[i]) == 1:
                lead = i
    if had == 1 or finishing < 2:
        lead = -1
    first = True
    for j in range(n):
        i = j if lead < 0 or j > lead else (lead if j == 0 else j - 1)
        t = order[i]
        if not panorama_open_nb(pub, ru, t, 2):
            continue
        take_panorama_nb(pub, ru, t, 2)
        log_nb(hid, Ev.PANORAMA, t, 2, PanSrc.OFUNE, -1, -1)
        if had == 0 and ps[t, PF.PAN2] == params[P.PAN_LEN0 + 2]:
            if not first and lead < 0:  # completed together: a 3-point token each (002:L1484-1493, M19)
                token_nb(pub, hid, t, Token.JOURNEY, params[P.PAN_ACH_POINTS], c, -1)
                if params[P.M_OFUNE_SHARED_CARD] == 1:
                    ps[t, PF.ACHIEVEMENTS] += 1
                    if ps[t, PF.ABILITY] == Ability.MITSUKUNI:
                        add_pts_nb(pub, t, PF.PTS_OTHER, params[P.MITSUKUNI_BONUS])
            first = False


@njit(cache=True)
def _tanabata_nb(pub, hid, ru, c, order, n):
    ps = pub["ps"]
    params = ru["params"]
    for k in range(4):
        best = 0
        for i in range(n):
            best = max(best, achievement_count_nb(ps, order[i], k))
        if best < params[P.ACH_MIN]:
            continue
        ant = -1  # Antoine among the tied leaders takes the token alone (P1d)
        for i in range(n):
            if achievement_count_nb(ps, order[i], k) == best and antoine_nb(pub, order[i]) == 1:
                ant = order[i]
        for i in range(n):
            if achievement_count_nb(ps, order[i], k) == best and (ant < 0 or order[i] == ant):
                token_nb(pub, hid, order[i], Token.JOURNEY, params[P.M_TANABATA_POINTS], c, k)


@njit(cache=True)
def _shishimai_nb(pub, hid, ru, c, order, n):
    """Interim Temple ranking: 4 / 2 / 1 for the first three amounts, ties share (M23); Antoine's
    amount counts as just above an equal one, as in the end ranking (P1a, P1d)."""
    ps = pub["ps"]
    for i in range(n):
        t = order[i]
        if ps[t, PF.DONATED] <= 0:
            continue
        higher = temple_rank_nb(pub, t)
        if higher < 3:
            token_nb(pub, hid, t, Token.JOURNEY, ru["params"][P.M_SHISHIMAI0 + higher], c, higher)


@njit(cache=True)
def resolve_nb(pub, hid, ru, chooser, c, s, order, n):
    """Card ``c`` comes into play at the Inn on space ``s`` (Hanabi is resolved by the caller)."""
    ps = pub["ps"]
    gs = pub["gs"]
    params = ru["params"]
    kind = ru["card"][Deck.MATSURI, 0, c]
    timing = ru["card"][Deck.MATSURI, 1, c] // 16
    if timing == Timing.LEG:
        gs[G.M_LEG] |= _ONE << c
        if Matsuri.KAMIARISAI <= kind <= Matsuri.MURA:
            close_nb(pub, hid, ru, s, c)
        return
    if timing == Timing.NEXT_INN:
        gs[G.M_NEXT] |= _ONE << c
        return
    if kind == Matsuri.OBON:
        for i in range(n):
            t = order[i]
            if ps[t, PF.COINS] == 0:
                continue
            d = choose_obon_nb(pub, ru, t, min(params[P.M_OBON_MAX], ps[t, PF.COINS]))
            log_nb(hid, Ev.OPTION, t, Opt.OBON, d, -1, -1)
            ps[t, PF.COINS] -= d
            ps[t, PF.DONATED] += d
            add_pts_nb(pub, t, PF.PTS_TEMPLE, d)
    elif kind == Matsuri.TORI_NO_ICHI:
        for i in range(n):
            t = order[i]
            m = 0
            for k in range(MARKET_CAP):
                m += pub["mkt"][1, k]
            if m == 0:
                break
            if ps[t, PF.AMULETS] != 0:
                continue
            j = randint_nb(pub["rng"], m)
            for k in range(MARKET_CAP):
                if pub["mkt"][1, k] == 1:
                    if j == 0:
                        take_amulet_nb(pub, hid, t, k, 0)
                        break
                    j -= 1
    elif kind == Matsuri.HINA or kind == Matsuri.TANGO:
        want = 1 if kind == Matsuri.HINA else 0  # trav column 2: 1 female
        for i in range(n):
            t = order[i]
            tr = ps[t, PF.TRAVELER]
            if tr < 0 or ru["trav"][tr, 2] != want:
                continue
            # the next free Small-objects slot: a souvenir for set scoring only (002:L1457-1478, M17)
            fam = params[P.M_DOLL_FAMILY]
            pts = souvenir_gain_pts_nb(pub, ru, t, fam)
            ps[t, PF.FAM0 + fam] += 1
            ps[t, PF.DOLLS if want == 1 else PF.CARPS] += 1
            token_nb(pub, hid, t, Token.DOLL if want == 1 else Token.CARP, pts, c, -1)
    elif kind == Matsuri.OFUNE:
        _ofune_nb(pub, hid, ru, c, order, n)
    elif kind == Matsuri.OSHOGATSU:
        for i in range(n):
            roll_nb(pub, hid, ru, order[i], 0, DieSrc.SHOGATSU)
    elif kind == Matsuri.SETSUBUN:
        for i in range(n):
            t = order[i]
            face = params[P.DIE0 + randint_nb(pub["rng"], 6)]
            log_nb(hid, Ev.DIE, t, face, 0, DieSrc.SETSUBUN, -1)
            if face > 0:
                token_nb(pub, hid, t, Token.JOURNEY, face, c, -1)
    elif kind == Matsuri.TANABATA:
        _tanabata_nb(pub, hid, ru, c, order, n)
    elif kind == Matsuri.OTSUKIMI:
        k = choose_tsukimi_nb(pub, ru, chooser)
        if k >= 0:
            pub["mkt"][2, k] = 0
            gs[G.M_TSUKIMI] = k + 1
            log_nb(hid, Ev.PICK, chooser, Deck.CALLIGRAPHY, k, c, -1)
    elif kind == Matsuri.SHISHIMAI:
        _shishimai_nb(pub, hid, ru, c, order, n)


@njit(cache=True)
def _draw_nb(pub, hid, t):
    c = draw_nb(pub, hid, Deck.MATSURI)
    log_nb(hid, Ev.DRAW, t, Deck.MATSURI, c, -1, -1)
    return c


@njit(cache=True)
def matsuri_inn_nb(pub, hid, ru, s):
    """Everyone has arrived at the Inn on ``s`` and eaten: last leg's effects end; at an intermediate Inn, a
    Matsuri."""
    gs = pub["gs"]
    params = ru["params"]
    gs[G.M_LEG] = 0
    gs[G.M_NEXT] = 0
    gs[G.M_CLOSED] = 0
    gs[G.M_HALF] = 0
    gs[G.M_TOKENS] = 0
    inn = gs[G.M_INN]
    if s == gs[G.LAST] or inn >= MATSURI_INNS or pub["dcnt"][Deck.MATSURI] == 0:
        return
    gs[G.M_INN] = inn + 1
    order = np.empty(8, np.int32)  # at most 3 times a game; the scratch arrays belong to the bots
    n = arrival_order_nb(pub, order)
    chooser = festival_chooser_nb(pub, ru, s, order[0])
    kept = _draw_nb(pub, hid, chooser)
    rej = -1
    if params[P.M_DRAW] >= 2 and pub["dcnt"][Deck.MATSURI] > 0:
        rej = _draw_nb(pub, hid, chooser)
        if choose_matsuri_card_nb(pub, ru, chooser, kept, rej) == 1:
            kept, rej = rej, kept
    log_nb(hid, Ev.MATSURI, chooser, kept, rej, inn + 1, 0)
    if rej >= 0:
        under_nb(pub, hid, Deck.MATSURI, rej)
        gs[G.M_REJ0 + inn] = rej + 1
    gs[G.M_KEPT0 + inn] = kept + 1
    mark_gone_nb(pub, Deck.MATSURI, kept)
    if ru["card"][Deck.MATSURI, 0, kept] != Matsuri.HANABI:
        resolve_nb(pub, hid, ru, chooser, kept, s, order, n)
        return
    extra = np.empty(2, np.int32)
    k = min(params[P.M_HANABI_DRAW], pub["dcnt"][Deck.MATSURI])
    for i in range(k):
        extra[i] = _draw_nb(pub, hid, chooser)
    hanabi_order_nb(pub, hid, ru, chooser, extra, k)
    for i in range(k):
        c = extra[i]
        log_nb(hid, Ev.MATSURI, chooser, c, -1, inn + 1, 1)
        gs[G.M_HANABI0 + i] = c + 1
        mark_gone_nb(pub, Deck.MATSURI, c)
        if ru["card"][Deck.MATSURI, 0, c] != Matsuri.HANABI:  # one Hanabi in the box: no chain
            resolve_nb(pub, hid, ru, chooser, c, s, order, n)


@njit(cache=True)
def matsuri_stop_nb(pub, hid, ru, t, typ):
    """A player's station stop during a leg with LEG cards, before the usual choice.

    Returns 1 if the player takes Hadaka's Encounter (the caller resolves it, blind).
    """
    ps = pub["ps"]
    params = ru["params"]
    leg = pub["gs"][G.M_LEG]
    hadaka = 0
    for c in range(ru["dsize"][Deck.MATSURI]):
        if (leg >> c) & 1 == 0:
            continue
        sp = card_space_nb(ru, c)
        if not (sp == typ or (sp == ANY_PANORAMA and Space.PADDY <= typ <= Space.SEA)):
            continue
        kind = ru["card"][Deck.MATSURI, 0, c]
        if kind == Matsuri.OHANAMI:
            ps[t, PF.COINS] += params[P.M_HANAMI_COINS]
        elif kind == Matsuri.HADAKA:
            if pub["dcnt"][Deck.ENCOUNTER] > 0:
                b = choose_extra_nb(pub, ru, t, hadaka_value_nb(ru, t))
                log_nb(hid, Ev.OPTION, t, Opt.HADAKA, b, -1, -1)
                hadaka = b
        elif kind == Matsuri.YAMA_NO_KO and Space.PADDY <= typ <= Space.SEA:
            pt = typ - Space.PADDY
            if panorama_open_nb(pub, ru, t, pt):
                b = choose_extra_nb(pub, ru, t, yama_value_nb(pub, ru, t, pt))
                log_nb(hid, Ev.OPTION, t, Opt.YAMA_NO_KO, b, -1, -1)
                if b == 1:
                    for _ in range(params[P.M_YAMA_SECTIONS]):
                        if panorama_open_nb(pub, ru, t, pt):
                            take_panorama_nb(pub, ru, t, pt)
                            log_nb(hid, Ev.PANORAMA, t, pt, PanSrc.YAMA_NO_KO, -1, -1)
        elif kind == Matsuri.OTAUE:
            open_ = not (Space.PADDY <= typ <= Space.SEA) or panorama_open_nb(pub, ru, t, typ - Space.PADDY)
            if open_:
                v = params[P.M_OTAUE_COINS] * (1.0 + ru["botw"][t][W.TEMPLE_RANK])
                b = choose_extra_nb(pub, ru, t, v)
                log_nb(hid, Ev.OPTION, t, Opt.OTAUE, b, -1, -1)
                if b == 1:
                    ps[t, PF.DONATED] += params[P.M_OTAUE_COINS]
                    add_pts_nb(pub, t, PF.PTS_TEMPLE, params[P.M_OTAUE_COINS])
    return hadaka


@njit(cache=True)
def gion_card_nb(pub, ru):
    """The Gion card acting on this leg, or -1."""
    leg = pub["gs"][G.M_LEG]
    for c in range(ru["dsize"][Deck.MATSURI]):
        if (leg >> c) & 1 == 1 and ru["card"][Deck.MATSURI, 0, c] == Matsuri.GION:
            return c
    return -1


@njit(cache=True)
def gion_pick_nb(pub, hid, ru, t, g):
    """Gion: ``t`` takes any card of the Encounter pile; the rest is reshuffled (002:L1040-1042)."""
    d = Deck.ENCOUNTER
    n = pub["dcnt"][d]
    deck = hid["deck"][d]
    top = hid["dtop"][d]
    cards = pub["cand"]  # the move is made: the candidates' room is free
    for i in range(n):
        cards[i] = deck[(top + i) % DECK_CAP]
    j = choose_gion_nb(pub, ru, t, cards, n)
    c = cards[j]
    log_nb(hid, Ev.PICK, t, d, c, g, -1)
    k = 0
    for i in range(n):
        if i != j:
            deck[k] = cards[i]
            k += 1
    shuffle_nb(deck, k, pub["rng"])
    hid["dtop"][d] = 0
    pub["dcnt"][d] = k
    for i in range(k):
        log_nb(hid, Ev.DECK, -1, d, deck[i], -1, -1)
    return c


@njit(cache=True)
def tsukimi_scoring_nb(pub, ru):
    """End of the game: every player scores o-Tsukimi's shared Calligraphy card (M22)."""
    k = pub["gs"][G.M_TSUKIMI] - 1
    if k < 0:
        return
    kind = ru["xcard"][2, 0, k]
    for p in range(pub["gs"][G.N_PLAYERS]):
        add_pts_nb(pub, p, PF.PTS_CALLIGRAPHY, calli_points_nb(pub, ru, p, kind, True))
