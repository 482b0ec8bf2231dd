"""The bots' scratch record ``pub['bscr']``: its layout, and what is kept in it across decisions.

A value that depends on slowly changing state is kept here with the inputs it was computed from and
recomputed when one of them changed (the keys are read from ``pub``, so a copied record, a hand-built
position or a wiped scratch is always right). Three lifetimes:

* one decision (``B_DEC``): cleared when a context is loaded (``begin_decision_nb``); a decision asks
  for the same panorama values and Temple bonuses again and again;
* one game (``B_GAME``): what the rules fix (the Inns' spaces, the Village expectation's ways and
  totals), built at the game's first decision;
* a pile's contents (``B_PILE``): the cards not yet seen (``pool_nb``: every card minus those in a
  collection, ``pub['gone']``), counted per value class and recomputed when a card left the pile;
* each player (``B_MEMO``, ``MEMO_N`` slots each): the souvenir family values, the meal mean, the
  Shokunin mean and the values as an opponent (``kernels.tokaido.bots.opponents``), each with its key.

Small helpers are ``inline='always'``: a call that passes the weight vector costs more than they do.
"""

from numba import njit

from kernels.tokaido.core.enums import MAX_TRAV, N_SPACES, Deck, Enc, P, Space
from kernels.tokaido.core.state import BSCR_N

# [0:B_MEMO] is the deciding player's context (``features.context_nb``)
B_PROG = 0  # progress of t along the road, 0..1
B_NEED1 = 1  # coins t wants for the next meal
B_NEEDALL = 2  # coins t wants for all meals to come
B_HOT = 3  # value of a Hot Spring card (points, Bather race)
B_SHOK = 4  # value of a Shokunin's free souvenir
B_CAP = 5  # expert: coins t can still spend before the end (meals to come + XF.SPEND_RATE per space left)
B_FORE = 6  # expert: points per coin left at the end (Foresight held)
B_CTX = 7  # t + 1: whose context is loaded (the decision's memos below belong to it)
B_FAM = 8  # N_FAMILIES values: one more souvenir of each family
B_TYPE = 16  # 9 values: stopping on each space type now (w-weighted, with the type bias)
# 6 weights coin values read: HF.COINS, HF.COINS_LATE, HF.SHORT, HF.SHORT_ALL, XF.COIN_USE, XF.COIN_SPARE
B_WCOIN = 25
B_XP = 31  # 1 with the expert's valuations
B_OPP = 32  # MAX_TRAV x 9 quick values of each space type for each other player
B_SORT = 88  # 32 floats: sort buffer
B_CAND = 120  # N_SPACES floats: the heuristic value of each candidate move
B_VKEY = 176  # 16 floats: a Village's keys sorted by value; an Encounter's value per kind
B_MEMO = 192  # MAX_TRAV x MEMO_N: each player's values kept while their inputs stay
# per player: [0:2] family key, [2:5] its weights, [5:10] B_FAM values, [10:12] meal key, [12] meal mean,
MEMO_N = 20
# [13:16] the key of its values as an opponent (kernels/tokaido/bots/opponents.py), [16] their have-mask,
# [17] Shokunin key (the souvenirs gone), [18] B_SHOK
B_DEC = B_MEMO + MAX_TRAV * MEMO_N  # one decision's memos (``begin_decision_nb``)
D_PAN_HAVE = 0  # bit k: t's value of panorama k's next card is in D_PAN + k
D_PAN = 1  # 3 values
D_DON_N = 4  # how many distinct amounts the others gave the Temple (-1: not counted yet)
D_DON = 5  # those amounts (MAX_TRAV - 1 values)
B_GAME = B_DEC + 16  # what the rules fix for a whole game (``game_tables_nb``)
G_INIT = 0  # 1 once built
G_NINNS = 1  # Inns on the road
G_R = 2  # P.VILLAGE_DRAW, the r of the tables below
G_INN = 3  # the Inns' spaces
MAX_INNS = 24
G_WAYS = G_INN + MAX_INNS  # ways(i) of ``features.expected_max_nb`` for r = P.VILLAGE_DRAW: 32 entries
G_TOTAL = (
    G_WAYS + 32
)  # total(n) of ``features.expected_max_nb`` for n = 0..32 (r = P.VILLAGE_DRAW when n >= r)
B_PILE = B_GAME + G_TOTAL + 33  # the cards not yet seen, per pile
K_HOT = 0  # the Hot Spring cards gone, then the count and total value of those left
K_SOUV = 3  # the souvenirs gone, 1 if every card has a key below, then the count left
K_KEYS = 6  # 16 counts of the souvenirs left by key 4 x family + printed cost (4 families, costs 0-3)
K_ENC = K_KEYS + 16  # the Encounters gone, 1 if every card has a key below, then the count left
K_ENC_KEYS = K_ENC + 3  # 16 slots: the counts of the Encounters left by class (``enc_key_nb``)
# the Encounter value classes: each kind, then an Annaibito by the panorama it shows
N_ENC_KINDS = len(Enc)
N_ENC_CLASSES = N_ENC_KINDS + 3
assert D_DON + MAX_TRAV - 1 <= 16 and N_ENC_CLASSES <= 16 and B_PILE + K_ENC_KEYS + 16 <= BSCR_N


@njit(cache=True, inline="always")
def pool_nb(pub, ru, d):
    """Bit mask of the cards of pile ``d`` not in any collection (in the pile or an unseen hand)."""
    return ((1 << int(ru["dsize"][d])) - 1) & ~pub["gone"][d]


@njit(cache=True, inline="always")
def popcount_nb(x):
    """The set bits of ``0 <= x < 2**62`` (no multiply: the same under ``NUMBA_DISABLE_JIT``)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True, inline="always")
def begin_decision_nb(pub, t):
    """``t``'s context is being loaded: the decision's memos start empty."""
    b = pub["bscr"]
    b[B_CTX] = t + 1
    b[B_DEC + D_PAN_HAVE] = 0.0
    b[B_DEC + D_DON_N] = -1.0


@njit(cache=True)
def _build_game_tables_nb(pub, ru):
    b = pub["bscr"]
    board = ru["board"]
    n = 0
    for s in range(board.shape[1]):
        if board[0, s] == Space.INN and n < MAX_INNS:
            b[B_GAME + G_INN + n] = s
            n += 1
    b[B_GAME + G_NINNS] = n
    r = ru["params"][P.VILLAGE_DRAW]
    b[B_GAME + G_R] = r
    for i in range(32):
        ways = 1.0
        for k in range(r - 1):
            ways = ways * (i - k) / (k + 1)
        b[B_GAME + G_WAYS + i] = ways
    for m in range(33):
        total = 1.0
        for k in range(min(r, m)):
            total = total * (m - k) / (k + 1)
        b[B_GAME + G_TOTAL + m] = total
    b[B_GAME + G_INIT] = 1.0


@njit(cache=True, inline="always")
def game_tables_nb(pub, ru):
    """Build ``bscr[B_GAME:]`` once a game: the Inns' spaces, and the ways and totals of ``expected_max_nb``
    for the Village's draw (the same products in the same order, so the same floats)."""
    if pub["bscr"][B_GAME + G_INIT] != 1.0:
        _build_game_tables_nb(pub, ru)


@njit(cache=True, inline="always")
def next_inn_nb(pub, s):
    """The first Inn after space ``s`` (``game_tables_nb`` built); ``N_SPACES`` if none."""
    b = pub["bscr"]
    for i in range(int(b[B_GAME + G_NINNS])):
        x = int(b[B_GAME + G_INN + i])
        if x > s:
            return x
    return N_SPACES


@njit(cache=True, inline="always")
def inns_after_nb(pub, s):
    """How many Inns lie after space ``s`` (``game_tables_nb`` built)."""
    b = pub["bscr"]
    n = 0
    for i in range(int(b[B_GAME + G_NINNS])):
        if b[B_GAME + G_INN + i] > s:
            n += 1
    return n


@njit(cache=True)
def _count_hot_nb(pub, ru, gone):
    b = pub["bscr"]
    pool = pool_nb(pub, ru, Deck.HOT_SPRING)
    n, tot = 0, 0.0
    for c in range(ru["dsize"][Deck.HOT_SPRING]):
        if (pool >> c) & 1:
            n += 1
            tot += ru["card"][Deck.HOT_SPRING, 0, c]
    b[B_PILE + K_HOT], b[B_PILE + K_HOT + 1], b[B_PILE + K_HOT + 2] = gone, n, tot


@njit(cache=True, inline="always")
def hot_left_nb(pub, ru):
    """(count, total value) of the Hot Spring cards not yet seen (summed in pile order), recomputed when
    one left the pile."""
    b = pub["bscr"]
    gone = float(pub["gone"][Deck.HOT_SPRING] | (1 << 40))
    if b[B_PILE + K_HOT] != gone:
        _count_hot_nb(pub, ru, gone)
    return int(b[B_PILE + K_HOT + 1]), b[B_PILE + K_HOT + 2]


@njit(cache=True, inline="always")
def enc_key_nb(ru, c):
    """Encounter card ``c``'s value class: its kind, an Annaibito by its panorama (``N_ENC_KINDS`` + type)."""
    card = ru["card"]
    key = int(card[Deck.ENCOUNTER, 0, c])
    if key == Enc.ANNAIBITO and card[Deck.ENCOUNTER, 1, c] >= 0:
        key = N_ENC_KINDS + int(card[Deck.ENCOUNTER, 1, c])
    return key


@njit(cache=True)
def _count_encounters_nb(pub, ru, gone):
    b = pub["bscr"]
    for key in range(N_ENC_CLASSES):
        b[B_PILE + K_ENC_KEYS + key] = 0.0
    pool = pool_nb(pub, ru, Deck.ENCOUNTER)
    ok, n = True, 0
    for c in range(ru["dsize"][Deck.ENCOUNTER]):
        if (pool >> c) & 1 == 0:
            continue
        key = enc_key_nb(ru, c)
        if key >= N_ENC_CLASSES:  # a panorama beyond the three: valued card by card
            ok = False
        else:
            b[B_PILE + K_ENC_KEYS + key] += 1.0
        n += 1
    b[B_PILE + K_ENC], b[B_PILE + K_ENC + 1], b[B_PILE + K_ENC + 2] = gone, 1.0 if ok else 0.0, n


@njit(cache=True, inline="always")
def encounter_counts_nb(pub, ru):
    """The Encounter cards not yet seen by value class (``enc_key_nb``) in ``bscr[B_PILE + K_ENC_KEYS:]``:
    (whether every card has a class below ``N_ENC_CLASSES``, their number); recomputed when one left the
    pile."""
    b = pub["bscr"]
    gone = float(pub["gone"][Deck.ENCOUNTER] | (1 << 40))
    if b[B_PILE + K_ENC] != gone:
        _count_encounters_nb(pub, ru, gone)
    return b[B_PILE + K_ENC + 1] == 1.0, int(b[B_PILE + K_ENC + 2])


@njit(cache=True)
def _count_souvenirs_nb(pub, ru, gone):
    b = pub["bscr"]
    card = ru["card"]
    ok = ru["params"][P.N_FAMILIES] <= 4
    for key in range(16):
        b[B_PILE + K_KEYS + key] = 0.0
    pool = pool_nb(pub, ru, Deck.SOUVENIR)
    n = 0
    for c in range(ru["dsize"][Deck.SOUVENIR]):
        if (pool >> c) & 1 == 0:
            continue
        cost = card[Deck.SOUVENIR, 1, c]
        if cost < 0 or cost > 3:
            ok = False
        else:
            b[B_PILE + K_KEYS + 4 * int(card[Deck.SOUVENIR, 0, c]) + int(cost)] += 1.0
        n += 1
    b[B_PILE + K_SOUV], b[B_PILE + K_SOUV + 1], b[B_PILE + K_SOUV + 2] = gone, 1.0 if ok else 0.0, n


@njit(cache=True, inline="always")
def souvenir_counts_nb(pub, ru):
    """The souvenirs not yet seen by (family, cost) key ``4 x family + cost`` in ``bscr[B_PILE + K_KEYS:]``:
    (whether every card has such a key, their number); recomputed when one left the pile."""
    b = pub["bscr"]
    gone = float(pub["gone"][Deck.SOUVENIR] | (1 << 40))
    if b[B_PILE + K_SOUV] != gone:
        _count_souvenirs_nb(pub, ru, gone)
    return b[B_PILE + K_SOUV + 1] == 1.0, int(b[B_PILE + K_SOUV + 2])
