"""The feature policies: heuristic and tuned (``Policy.FEATURES``), and with ``expert`` the expert's
valuations (``Policy.EXPERT``: the expert, and the search bot outside its move search).

Each legal choice gets a value: its features (``weights.HF``, computed in
``kernels.tokaido.bots.features`` from what the player may see) times the player's weight
vector ``ru['botw'][p]``. The bot takes the best value. Weights are data
(``sim/games/tokaido/data/bots/*.toml``): two heuristic bots differ by their weight files only.
``kernels.tokaido.bots.policy`` calls these with ``expert`` as the player's policy says.

A move's value = the value of the space's type now (points, coins, panorama
progress and race, souvenir set potential, Temple ranking, end achievements, the
Traveler's ability, a bias per type) + positional features of that very space
(spaces jumped, free spaces jumped, the Inn queue, what it takes from an opponent
behind, whether the player moves again, the best space it leaves to the next
mover, the room left before the Inn).
"""

from numba import njit

from kernels.tokaido.bots.abilities import ability_meal_nb
from kernels.tokaido.bots.context import ach_delta_nb, best_gain_nb, coin_value_nb, context_nb
from kernels.tokaido.bots.expert import stop_values_nb
from kernels.tokaido.bots.features import (
    NEG,
    annaibito_value_nb,
    best_pan_nb,
    encounter_card_value_nb,
    encounter_kind_value_nb,
    expected_max_nb,
    expected_price_nb,
    pan_value_nb,
    temple_choice_nb,
)
from kernels.tokaido.bots.matsuri_leg import gion_gain_nb, leg_kinds_nb, leg_values_nb
from kernels.tokaido.bots.opponents import N_TYPES, opp_begin_nb, opp_end_nb, opp_nb, opp_values_nb
from kernels.tokaido.bots.scratch import (
    B_CAND,
    B_HOT,
    B_OPP,
    B_PILE,
    B_SORT,
    B_TYPE,
    B_VKEY,
    K_ENC_KEYS,
    N_ENC_CLASSES,
    N_ENC_KINDS,
    enc_key_nb,
    encounter_counts_nb,
    next_inn_nb,
    pool_nb,
    popcount_nb,
)
from kernels.tokaido.bots.village import village_value_nb
from kernels.tokaido.core.enums import N_SPACES, PF, Ability, Deck, Enc, G, P, Space
from kernels.tokaido.core.events import Matsuri
from kernels.tokaido.core.prices import kamui_skip_nb, souvenir_price_nb
from kernels.tokaido.core.score import dish_eaten_nb, meal_price_nb, panorama_open_nb
from kernels.tokaido.core.weights import HF, W


@njit(cache=True, inline="always")
def encounter_value_nb(pub, ru, t, w):
    """Expected value of an Encounter stop (Yoshiyasu keeps the better of two; Umegae's bonus).

    A card's value depends only on its class (its kind, an Annaibito's panorama: ``scratch.enc_key_nb``),
    so the cards left are kept as counts per class (recomputed when one leaves the pile) and each class
    left is valued once. Yoshiyasu's best of two needs the values card by card."""
    b = pub["bscr"]
    ab = pub["ps"][t, PF.ABILITY]
    ok, n = encounter_counts_nb(pub, ru)
    if not ok or ab == Ability.YOSHIYASU:
        return _encounter_value_cards_nb(pub, ru, t, w)
    v = 0.0
    if n > 0:
        tot = 0.0
        for key in range(N_ENC_CLASSES):
            k = b[B_PILE + K_ENC_KEYS + key]
            if k > 0.0:
                tot += k * _enc_class_value_nb(pub, ru, t, w, key)
        v = tot / n + w[W.HF0 + HF.END_ACH] * ach_delta_nb(pub, ru, t, PF.ENCOUNTERS, 1)
    if ab == Ability.UMEGAE:
        params = ru["params"]
        v += w[W.HF0 + HF.ABILITY] * params[P.UMEGAE_POINTS]
        v += coin_value_nb(pub, t, w, params[P.UMEGAE_COINS])
    return v


@njit(cache=True, inline="always")
def _enc_class_value_nb(pub, ru, t, w, key):
    """``encounter_card_value_nb`` of any card of class ``key`` (a kind, or ``N_ENC_KINDS`` + an Annaibito's
    panorama)."""
    if key >= N_ENC_KINDS:
        return annaibito_value_nb(pub, ru, t, w, key - N_ENC_KINDS)
    if key == Enc.ANNAIBITO:  # one that shows no panorama
        return annaibito_value_nb(pub, ru, t, w, -1)
    return encounter_kind_value_nb(pub, ru, t, w, key)


@njit(cache=True)
def _encounter_value_cards_nb(pub, ru, t, w):
    """``encounter_value_nb`` card by card, in pile order (Yoshiyasu, or a card beyond the classes)."""
    ps = pub["ps"]
    b = pub["bscr"]
    h = W.HF0
    params = ru["params"]
    ab = ps[t, PF.ABILITY]
    pool = pool_nb(pub, ru, Deck.ENCOUNTER)
    n, tot = 0, 0.0
    have = 0
    for c in range(ru["dsize"][Deck.ENCOUNTER]):
        if (pool >> c) & 1:
            key = enc_key_nb(ru, c)
            if key >= N_ENC_CLASSES:
                v = encounter_card_value_nb(pub, ru, t, w, c)
            else:
                if (have >> key) & 1 == 0:
                    b[B_VKEY + key] = encounter_card_value_nb(pub, ru, t, w, c)
                    have |= 1 << key
                v = b[B_VKEY + key]
            b[B_SORT + n] = v
            tot += v
            n += 1
    v = 0.0
    if n > 0:
        v = tot / n + w[h + HF.END_ACH] * ach_delta_nb(pub, ru, t, PF.ENCOUNTERS, 1)
        if ab == Ability.YOSHIYASU and n >= 2:
            v += w[h + HF.ABILITY] * (expected_max_nb(b[B_SORT : B_SORT + 32], n, 2) - tot / n)
    if ab == Ability.UMEGAE:
        v += w[h + HF.ABILITY] * params[P.UMEGAE_POINTS] + coin_value_nb(pub, t, w, params[P.UMEGAE_COINS])
    return v


ALL_TYPES = (1 << N_TYPES) - 1


@njit(cache=True)
def base_values_nb(pub, ru, t, w, expert, mask=ALL_TYPES):
    """Load ``t``'s context and the value of each space type's base action into ``bscr[B_TYPE:]``
    (only the types in bit ``mask``: a move values the types among its candidates)."""
    context_nb(pub, ru, t, w, expert)
    ps = pub["ps"]
    b = pub["bscr"]
    b[B_TYPE + Space.INN] = 0.0
    if (mask >> Space.FARM) & 1:
        b[B_TYPE + Space.FARM] = coin_value_nb(pub, t, w, ru["params"][P.FARM_COINS])
    for k in range(3):
        if (mask >> (Space.PADDY + k)) & 1:
            b[B_TYPE + Space.PADDY + k] = (
                pan_value_nb(pub, ru, t, w, k) if panorama_open_nb(pub, ru, t, k) else 0.0
            )
    b[B_TYPE + Space.HOT_SPRING] = b[B_HOT] if pub["dcnt"][Deck.HOT_SPRING] > 0 else 0.0
    if (mask >> Space.TEMPLE) & 1:
        b[B_TYPE + Space.TEMPLE] = temple_choice_nb(pub, ru, t, w)[1] if ps[t, PF.COINS] > 0 else 0.0
    if (mask >> Space.ENCOUNTER) & 1:
        b[B_TYPE + Space.ENCOUNTER] = encounter_value_nb(pub, ru, t, w)
    if (mask >> Space.VILLAGE) & 1:
        b[B_TYPE + Space.VILLAGE] = village_value_nb(pub, ru, t, w)


@njit(cache=True)
def type_values_nb(pub, ru, t, w, expert, mask=ALL_TYPES):
    """Load ``t``'s context and the value of stopping on each space type in ``mask`` into
    ``bscr[B_TYPE:]``."""
    leg = pub["gs"][G.M_LEG] != 0 and w[W.M_LEG_STOP] != 0.0
    if leg:  # the leg cards read other types' values (Hadaka's Encounter at a Hot Spring): all of them
        mask = ALL_TYPES
    base_values_nb(pub, ru, t, w, expert, mask)
    b = pub["bscr"]
    vals = b[B_TYPE : B_TYPE + N_TYPES]
    enc, gion = vals[Space.ENCOUNTER], 0.0
    # Matsuri: the cards acting on this leg (kernels/tokaido/bots/matsuri_leg.py); Gion's before the
    # alternatives
    if leg:
        gion = gion_gain_nb(pub, ru, t, w) if (leg_kinds_nb(pub, ru) >> Matsuri.GION) & 1 else 0.0
        leg_values_nb(pub, ru, t, w, vals, enc, gion, True, 0)
    if expert:
        stop_values_nb(pub, ru, t, w, vals, mask)
    if leg:
        leg_values_nb(pub, ru, t, w, vals, enc, gion, True, 1)
    h = W.HF0
    for k in range(N_TYPES):
        if (mask >> k) & 1:
            b[B_TYPE + k] += w[h + HF.TYPE0 + k]


@njit(cache=True, inline="always")
def _free_nb(pub, ru, s, t, dest):
    """Whether space ``s`` has room once ``t`` moved to ``dest``."""
    occ = pub["occ"][s] + (1 if s == dest else 0) - (1 if s == pub["ps"][t, PF.POS] else 0)
    if ru["board"][0, s] == Space.INN:
        return True
    cap = 2 if (ru["board"][1, s] == 1 and pub["gs"][G.N_TRAV] >= 4) else 1
    return occ < cap


@njit(cache=True)
def move_values_nb(pub, ru, t, w, ncand, expert):
    """Heuristic value of each candidate move of player ``t`` into ``bscr[B_CAND:]``; returns the best.

    What does not depend on the candidate is computed once: the space types valued are those among
    the candidates, the opponents' values are computed when first needed, the free spaces ahead are a
    bit mask (the spaces jumped and the room left are counts of its bits), the farthest-behind other
    traveler says whether the player moves again, and what the next mover finds is the best and second
    best free space.
    """
    ps = pub["ps"]
    gs = pub["gs"]
    b = pub["bscr"]
    board = ru["board"]
    cand = pub["cand"]
    occ = pub["occ"]
    mask = 0
    for k in range(ncand):
        mask |= 1 << int(board[0, cand[k]])  # int(): plain ints under NUMBA_DISABLE_JIT too
    type_values_nb(pub, ru, t, w, expert, mask)
    h = W.HF0
    nt = gs[G.N_TRAV]
    npl = gs[G.N_PLAYERS]
    pos = ps[t, PF.POS]
    last = gs[G.LAST]
    # free spaces between t and the next Inn once t left its space (an Inn always has room)
    inn = next_inn_nb(pub, pos)
    big = nt >= 4
    free = 0
    for x in range(pos + 1, inn):
        if occ[x] < (2 if (board[1, x] == 1 and big) else 1):
            free |= 1 << x
    nfree = popcount_nb(free)
    # the next other mover: the other traveler farthest behind (latest arrival on ties); its space
    nxt = -1
    lo = N_SPACES
    for u in range(nt):
        if u != t:
            pu = ps[u, PF.POS]
            lo = min(lo, pu)
            if nxt < 0 or pu < ps[nxt, PF.POS] or (pu == ps[nxt, PF.POS] and ps[u, PF.SEQ] > ps[nxt, PF.SEQ]):
                nxt = u
    nxt_ok = nxt >= 0 and ps[nxt, PF.NEUTRAL] == 0
    # the opponents' values kept from earlier moves; the expert counts what their abilities make a space worth
    have = opp_begin_nb(pub, ru, t, expert)
    lv1, lv2, lx1 = -1.0, 0.0, -1  # the best and second best value the next mover finds (-1: not yet)
    w_skip, w_open, w_queue = w[h + HF.SKIP], w[h + HF.SKIP_OPEN], w[h + HF.INN_QUEUE]
    w_deny, w_again, w_leave, w_room = w[h + HF.DENY], w[h + HF.AGAIN], w[h + HF.LEAVE], w[h + HF.ROOM]
    best, bv = 0, NEG
    for k in range(ncand):
        s = int(cand[k])
        typ = int(board[0, s])
        skip_open = popcount_nb(free & ((1 << s) - 1))
        queue = occ[s] if typ == Space.INN else 0
        deny = 0.0
        if lo < s:  # an opponent behind s would have had it
            for u in range(npl):
                if u != t and ps[u, PF.POS] < s:
                    ov, have = opp_nb(pub, ru, u, typ, have, expert)
                    deny = max(deny, ov)
        again = 1.0 if (lo >= s and s != last) else 0.0  # t is still the farthest behind after the move
        leave = 0.0
        if again == 0.0 and nxt_ok:
            if lv1 < 0.0:  # the spaces the next mover may reach, t having left its space
                lv1 = 0.0
                for x in range(ps[nxt, PF.POS] + 1, N_SPACES):
                    if board[0, x] == Space.INN:
                        break
                    if _free_nb(pub, ru, x, t, -1):
                        ov, have = opp_nb(pub, ru, nxt, int(board[0, x]), have, expert)
                        if ov > lv1:
                            lv1, lv2, lx1 = ov, lv1, x
                        elif ov > lv2:
                            lv2 = ov
            # t on s takes s from the next mover unless s still has room
            leave = lv2 if (s == lx1 and not _free_nb(pub, ru, s, t, s)) else lv1
        room = 0
        if typ != Space.INN:
            room = nfree - skip_open - ((free >> s) & 1)
        v = (
            b[B_TYPE + typ]
            + w_skip * (s - pos - 1)
            + w_open * skip_open
            + w_queue * queue
            + w_deny * deny
            + w_again * again
            + w_leave * leave
            + w_room * room
        )
        b[B_CAND + k] = v
        if v > bv:
            best, bv = k, v
    opp_end_nb(pub, t, have)
    return best


@njit(cache=True)
def heuristic_move_nb(pub, ru, t, ctrl, ncand, expert):
    """Index into ``pub['cand']`` of the destination ``ctrl`` chooses for ``t``."""
    w = ru["botw"][ctrl]
    ps = pub["ps"]
    if ps[t, PF.NEUTRAL] == 0:
        return move_values_nb(pub, ru, t, w, ncand, expert)
    # 2 players: the lead player sends the Neutral onto the opponent's best space ahead of it
    opp = 1 - ctrl
    opp_values_nb(pub, ru, ctrl)
    b = pub["bscr"]
    cand = pub["cand"]
    pos = ps[t, PF.POS]
    best, bv = 0, NEG
    for k in range(ncand):
        s = cand[k]
        v = -0.01 * (s - pos)
        if s > ps[opp, PF.POS]:
            v += w[W.H_BLOCK] * b[B_OPP + N_TYPES * opp + ru["board"][0, s]]
        b[B_CAND + k] = v
        if v > bv:
            best, bv = k, v
    return best


@njit(cache=True)
def heuristic_village_nb(pub, ru, t, ntbl, expert):
    """Souvenirs bought from the table: (mask, Zen-emon's 1-coin card or -1)."""
    ps = pub["ps"]
    w = ru["botw"][t]
    context_nb(pub, ru, t, w, expert)
    params = ru["params"]
    card = ru["card"]
    tbl = pub["tbl"]
    h = W.HF0
    coins = ps[t, PF.COINS]
    nf = params[P.N_FAMILIES]
    fam = pub["iscr"][8:16]
    zen_opts = ntbl if ps[t, PF.ABILITY] == Ability.ZEN_EMON else 0
    sasa = ps[t, PF.ABILITY] == Ability.SASAYAKKO
    pot0 = best_gain_nb(pub, ru, t, -1)
    base = pub["iscr"][4:8]  # each table card's own price, once (not per subset)
    for i in range(ntbl):
        base[i] = souvenir_price_nb(pub, ru, t, tbl[i])
    ach = pub["fscr"]  # the Collector change of buying 1..ntbl souvenirs, once (not per subset)
    for k in range(1, ntbl + 1):
        ach[k] = ach_delta_nb(pub, ru, t, PF.SOUVENIRS, k)
    best_m, best_z, bv = 0, -1, 0.0
    for mask in range(1, 1 << ntbl):
        for zen in range(-1, zen_opts):
            if zen >= 0 and (mask >> zen) & 1 == 0:
                continue
            need, nb, cheapest = 0, 0, 99
            for i in range(ntbl):
                if (mask >> i) & 1:
                    price = base[i]
                    if i == zen:
                        price = min(price, params[P.ZEN_EMON_PRICE])
                    need += price
                    nb += 1
                    cheapest = min(cheapest, price)
            if need > coins:  # unaffordable: no points to count
                continue
            pts = 0.0
            for f in range(nf):
                fam[f] = ps[t, PF.FAM0 + f]
            for i in range(ntbl):
                if (mask >> i) & 1:
                    f = card[Deck.SOUVENIR, 0, tbl[i]]
                    size = 0
                    for g in range(nf):
                        if fam[g] > fam[f]:
                            size += 1
                    pts += params[P.SET_PTS0 + size]
                    fam[f] += 1
            paid = need - cheapest if (sasa and nb >= 2) else need
            # set potential after the purchase: the best next gain with the new family counts
            pot = 0
            for g in range(nf):
                size = 0
                for f in range(nf):
                    if fam[f] > fam[g]:
                        size += 1
                pot = max(pot, params[P.SET_PTS0 + size])
            v = (
                w[h + HF.PTS] * pts
                + w[h + HF.SET_POT] * (pot - pot0)
                + w[h + HF.END_ACH] * ach[nb]
                + coin_value_nb(pub, t, w, -expected_price_nb(pub, ru, t, w, paid))
            )
            if v > bv + 1e-9:
                best_m, best_z, bv = mask, zen, v
    return best_m, best_z


@njit(cache=True)
def heuristic_donation_nb(pub, ru, t, expert):
    w = ru["botw"][t]
    context_nb(pub, ru, t, w, expert)
    return temple_choice_nb(pub, ru, t, w)[0]


@njit(cache=True)
def heuristic_panorama_nb(pub, ru, t, expert):
    w = ru["botw"][t]
    context_nb(pub, ru, t, w, expert)
    return best_pan_nb(pub, ru, t, w)[0]


@njit(cache=True)
def heuristic_encounter_nb(pub, ru, t, c1, c2, expert):
    """Yoshiyasu keeps one of two Encounter cards: 0 keeps ``c1``, 1 keeps ``c2``."""
    w = ru["botw"][t]
    context_nb(pub, ru, t, w, expert)
    v1 = encounter_card_value_nb(pub, ru, t, w, c1)
    return 1 if encounter_card_value_nb(pub, ru, t, w, c2) > v1 else 0


@njit(cache=True)
def heuristic_meal_nb(pub, ru, t, offered, budget, expert):
    """(index into the hand or -1 for no meal, 1 if taken free as Satsuki's offer)."""
    w = ru["botw"][t]
    context_nb(pub, ru, t, w, expert)
    hand = pub["hand"]
    card = ru["card"]
    h = W.HF0
    mp = ru["params"][P.MEAL_POINTS]
    best, free, bv = -1, 0, w[h + HF.PTS] * kamui_skip_nb(pub, ru, t)
    for i in range(pub["gs"][G.HAND_N]):
        c = hand[i]
        if dish_eaten_nb(pub, ru, t, c):
            continue
        cost = card[Deck.MEAL, 1, c]
        for f in range(2):
            if f == 1 and c != offered:
                continue
            price = 0 if f == 1 else meal_price_nb(pub, ru, t, c)
            if price > budget:
                continue
            v = (
                w[h + HF.PTS] * mp
                + w[h + HF.END_ACH] * ach_delta_nb(pub, ru, t, PF.MEAL_VALUE, cost)
                + coin_value_nb(pub, t, w, -expected_price_nb(pub, ru, t, w, price))
            ) + ability_meal_nb(pub, ru, t, w, c)
            if v > bv + 1e-9:
                best, free, bv = i, f, v
    return best, free
