"""The Crossroads expansion in the engine: markets, each station's alternative,
the Fortune die, Amulets and the end-game Calligraphy.

Markets are face up (``pub['mkt']``, ``pub['xcnt']``): players choose cards,
nobody draws them, so nothing here touches the hidden piles except the log.
Amulets held are bit masks ``PF.AMULETS`` (card ids); ``PF.AMULETS_NEW`` marks
those bought at the current stop, usable from the buyer's next move.
"""

from numba import njit

from kernels.core.log import log_nb
from kernels.core.rng import randint_nb, shuffle_nb
from kernels.tokaido.bots.crossroads import mean_die_nb
from kernels.tokaido.bots.policy import (
    choose_amulet_nb,
    choose_calligraphy_nb,
    choose_legendary_nb,
    choose_mt_option_nb,
    choose_option_nb,
    choose_use_nb,
)
from kernels.tokaido.core.enums import (
    MARKET_CAP,
    PF,
    Ability,
    Amulet,
    Cfg,
    Deck,
    DieSrc,
    Ev,
    G,
    Legend,
    Opt,
    P,
    Space,
)
from kernels.tokaido.core.prices import (
    Disc,
    ability_disc_nb,
    amulet_price_nb,
    legendary_price_nb,
    mari_free_stop_nb,
    reach_nb,
)
from kernels.tokaido.core.score import add_pts_nb, calli_points_nb, souvenir_gain_pts_nb
from kernels.tokaido.core.weights import W
from kernels.tokaido.game.promos import felicia_price_nb


@njit(cache=True)
def setup_markets_nb(pub, hid, ru):
    """Put XR_CARDS random cards of each Crossroads market in play, and as many Cherry Trees and
    Bathhouses as the box holds up to that number."""
    k = ru["cfg"][Cfg.XR_CARDS]
    ids = pub["iscr"]
    for m in range(3):
        n = 0
        for c in range(MARKET_CAP):
            if ru["xcard"][m, 0, c] >= 0:
                ids[n] = c
                n += 1
        shuffle_nb(ids, n, pub["rng"])
        for i in range(min(k, n)):
            pub["mkt"][m, ids[i]] = 1
        for c in range(MARKET_CAP):
            if pub["mkt"][m, c] == 1:
                log_nb(hid, Ev.MARKET, -1, Deck.LEGENDARY + m, c, 1, -1)
    for j in range(2):
        pub["xcnt"][j] = min(k, ru["params"][P.CHERRY_COPIES if j == 0 else P.BATH_COPIES])
        log_nb(hid, Ev.MARKET, -1, Deck.CHERRY + j, -1, pub["xcnt"][j], -1)


@njit(cache=True)
def roll_nb(pub, hid, ru, t, bet, src):
    """Roll the Fortune die for ``t``'s bet (already paid): the bet comes back times the face."""
    face = ru["params"][P.DIE0 + randint_nb(pub["rng"], 6)]
    log_nb(hid, Ev.DIE, t, face, bet, src, -1)
    if src == DieSrc.GAMING_ROOM and pub["ps"][t, PF.ABILITY] == Ability.IYASAKA:
        # Matsuri, 002:L602: he may roll once more at the Gaming Room and must keep the second result
        b = choose_mt_option_nb(
            pub, ru, t, (mean_die_nb(ru) - face) * bet * ru["botw"][t][W.COIN], Opt.IYASAKA, face
        )
        log_nb(hid, Ev.OPTION, t, Opt.IYASAKA, b, -1, -1)
        if b == 1:
            face = ru["params"][P.DIE0 + randint_nb(pub["rng"], 6)]
            log_nb(hid, Ev.DIE, t, face, bet, DieSrc.IYASAKA, -1)
    pub["ps"][t, PF.COINS] += bet * face if bet > 0 else face
    pub["ps"][t, PF.GAMBLES] += 1 if bet > 0 else 0


@njit(cache=True)
def take_amulet_nb(pub, hid, t, c, paid):
    ps = pub["ps"]
    pub["mkt"][1, c] = 0
    ps[t, PF.AMULETS] |= 1 << c
    ps[t, PF.AMULETS_BOUGHT] += 1
    ps[t, PF.COINS] -= paid
    log_nb(hid, Ev.GAIN, t, Deck.AMULET, c, paid, -1)


@njit(cache=True)
def start_amulets_nb(pub, hid, ru, order, nt):
    """The optional start purchase: in departure order, pay for a random available Amulet."""
    params = ru["params"]
    if params[P.START_AMULET] == 0:
        return
    ps = pub["ps"]
    cost = params[P.START_AMULET_COST]
    for k in range(nt):
        t = order[k]
        if ps[t, PF.NEUTRAL] == 1 or ps[t, PF.COINS] < cost:
            continue
        n = 0
        for c in range(MARKET_CAP):
            n += pub["mkt"][1, c]
        if n == 0:
            return
        b = choose_option_nb(pub, ru, t, 2.0 - ru["botw"][t][W.COIN] * cost, Opt.START_AMULET)
        log_nb(hid, Ev.OPTION, t, Opt.START_AMULET, b, -1, -1)
        if b == 1:
            j = randint_nb(pub["rng"], n)
            for c in range(MARKET_CAP):
                if pub["mkt"][1, c] == 1:
                    if j == 0:  # a random Amulet: Felicia duels for it unseen (card -1)
                        take_amulet_nb(
                            pub, hid, t, c, felicia_price_nb(pub, hid, ru, t, Deck.AMULET, -1, cost)
                        )
                        break
                    j -= 1


@njit(cache=True)
def usable_amulet_nb(pub, ru, t, kind):
    """The card id of an Amulet of ``kind`` that ``t`` may use now, or -1."""
    ps = pub["ps"]
    held = ps[t, PF.AMULETS] & ~ps[t, PF.AMULETS_NEW]
    if held == 0:
        return -1
    for c in range(MARKET_CAP):
        if (held >> c) & 1 and ru["xcard"][1, 0, c] == kind:
            return c
    return -1


@njit(cache=True)
def use_amulet_nb(pub, hid, t, c, arg):
    """Spend Amulet ``c``: it goes back to the market."""
    pub["ps"][t, PF.AMULETS] &= ~(1 << c)
    pub["mkt"][1, c] = 1
    log_nb(hid, Ev.USE, t, c, arg, -1, -1)


@njit(cache=True)
def fortune_nb(pub, hid, ru, t, when):
    """The Fortune Amulet rolls the die for that many coins: ``when`` 0 before moving (``P.FORTUNE_BEFORE``,
    seed 002), 1 on arrival, before the stop's action (``P.FORTUNE_AFTER``, online: either)."""
    c = usable_amulet_nb(pub, ru, t, Amulet.FORTUNE)
    if c >= 0 and choose_use_nb(pub, ru, t, mean_die_nb(ru), Amulet.FORTUNE, when) == 1:
        use_amulet_nb(pub, hid, t, c, -1)
        roll_nb(pub, hid, ru, t, 0, DieSrc.FORTUNE)


@njit(cache=True)
def devotion_nb(pub, hid, ru, t, paid, printed, disc):
    """After a purchase: the Devotion Amulet sends the coins paid to the Temple (1 point each, C37); after a
    discount of ``disc`` (bits of ``prices.Disc``) listed in ``P.DEVOTION_PRINTED`` the card's printed price
    (online: after Zen-emon's 1-coin souvenir, not after Kinko's meal)."""
    if disc & ru["params"][P.DEVOTION_PRINTED] != 0:
        paid = printed
    if paid <= 0:
        return
    c = usable_amulet_nb(pub, ru, t, Amulet.DEVOTION)
    if c >= 0 and choose_use_nb(pub, ru, t, paid - 1.5, Amulet.DEVOTION, paid) == 1:
        use_amulet_nb(pub, hid, t, c, paid)
        pub["ps"][t, PF.DONATED] += paid
        mari = pub["ps"][t, PF.ABILITY] == Ability.MARI and ru["params"][P.MARI_DOUBLE_DEVOTION] == 1
        add_pts_nb(pub, t, PF.PTS_TEMPLE, paid * (ru["params"][P.MARI_TEMPLE_MULT] if mari else 1))


@njit(cache=True)
def hospitality_nb(pub, hid, ru, t, price):
    """Before paying for a meal: True if the Hospitality Amulet makes it free."""
    if price <= 0:
        return False
    c = usable_amulet_nb(pub, ru, t, Amulet.HOSPITALITY)
    if c >= 0 and choose_use_nb(pub, ru, t, price * ru["botw"][t][W.COIN], Amulet.HOSPITALITY, price) == 1:
        use_amulet_nb(pub, hid, t, c, -1)
        return True
    return False


@njit(cache=True)
def friendship_moves_nb(pub, ru, t, k):
    """Add to ``pub['cand']`` the occupied single spaces the Friendship Amulet opens; returns the count."""
    if usable_amulet_nb(pub, ru, t, Amulet.FRIENDSHIP) < 0:
        return k
    ps = pub["ps"]
    occ = pub["occ"]
    board = ru["board"]
    params = ru["params"]
    nt = pub["gs"][G.N_TRAV]
    coins = ps[t, PF.COINS]
    for s in range(ps[t, PF.POS] + 1, board.shape[1]):
        typ = board[0, s]
        if typ == Space.INN:
            break
        cap = 2 if (board[1, s] == 1 and nt >= 4) else 1
        if (pub["gs"][G.M_CLOSED] >> s) & 1 == 1:
            continue  # Matsuri: Friendship cannot open a closed station
        if (pub["gs"][G.M_HALF] >> s) & 1 == 1:
            if params[P.M_FRIENDSHIP_HALF] == 0:
                continue
            cap = 1
        if cap != 1 or occ[s] != 1:
            continue
        if typ == Space.VILLAGE and coins < params[P.VILLAGE_MIN_COINS]:
            continue
        if typ == Space.TEMPLE and coins < params[P.TEMPLE_MIN_COINS] and not mari_free_stop_nb(pub, ru, t):
            continue
        if (
            Space.PADDY <= typ <= Space.SEA
            and ps[t, PF.PAN0 + typ - Space.PADDY] >= params[P.PAN_LEN0 + typ - Space.PADDY]
        ):
            continue
        pub["cand"][k] = s
        k += 1
    return k


@njit(cache=True)
def vitality_nb(pub, hid, ru, t):
    """After a move not to an Inn: alone in the lead, the Vitality Amulet moves ``t`` again."""
    c = usable_amulet_nb(pub, ru, t, Amulet.VITALITY)
    if c < 0:
        return
    ps = pub["ps"]
    for u in range(pub["gs"][G.N_TRAV]):
        if u != t and ps[u, PF.POS] >= ps[t, PF.POS]:
            return
    if choose_use_nb(pub, ru, t, 1.0, Amulet.VITALITY, 0) == 1:
        use_amulet_nb(pub, hid, t, c, -1)
        pub["gs"][G.FORCE] = t + 1


@njit(cache=True)
def alternative_possible_nb(pub, ru, t, typ):
    """Can ``t`` take the Crossroads alternative at a station of type ``typ``?"""
    ps = pub["ps"]
    params = ru["params"]
    mkt = pub["mkt"]
    coins = ps[t, PF.COINS]
    if Space.PADDY <= typ <= Space.SEA:
        return pub["xcnt"][0] > 0
    if typ == Space.HOT_SPRING:
        return pub["xcnt"][1] > 0 and (
            coins >= params[P.BATH_COST] or reach_nb(pub, ru, t, params[P.BATH_COST])
        )
    if typ == Space.FARM:
        return coins >= params[P.GAMING_BET]  # a bet, not a card: no duel
    m = 0 if typ == Space.VILLAGE else (1 if typ == Space.TEMPLE else 2)
    for c in range(MARKET_CAP):
        if mkt[m, c] == 1:
            cost = (
                legendary_price_nb(pub, ru, t, c)
                if m == 0
                else (amulet_price_nb(pub, ru, t) if m == 1 else params[P.CALLI_COST])
            )
            if cost <= coins or reach_nb(pub, ru, t, cost):  # Felicia may duel for a dearer card (P6)
                return True
    return False


@njit(cache=True)
def gain_legendary_nb(pub, hid, ru, t, c):
    """``t`` buys Legendary Object ``c`` of the market at its price (the caller checked ``t`` can pay)."""
    ps = pub["ps"]
    params = ru["params"]
    price = legendary_price_nb(pub, ru, t, c)
    cost = felicia_price_nb(pub, hid, ru, t, Deck.LEGENDARY, c, price)
    if cost > ps[t, PF.COINS]:
        return  # Felicia's duel left it too dear (P6)
    disc = ability_disc_nb(pub, t, price, ru["xcard"][0, 1, c]) | (1 << Disc.FELICIA if cost < price else 0)
    kind = ru["xcard"][0, 0, c]
    pub["mkt"][0, c] = 0
    ps[t, PF.COINS] -= cost
    if params[P.SCRIPT_LEGENDARY] != 0:  # online: Scripts held also count a later Legendary Object
        add_pts_nb(pub, t, PF.PTS_LEGENDARY, ps[t, PF.SCRIPTS] * params[P.SCRIPT_BONUS])
    if kind == Legend.SCRIPT:
        add_pts_nb(pub, t, PF.PTS_LEGENDARY, ps[t, PF.SOUVENIRS] + ps[t, PF.LEGENDARY])
        ps[t, PF.SCRIPTS] += 1
    elif kind == Legend.OFFERING:
        fam = params[P.N_FAMILIES] - 1
        add_pts_nb(pub, t, PF.PTS_LEGENDARY, souvenir_gain_pts_nb(pub, ru, t, fam))
        ps[t, PF.FAM0 + fam] += 1
    else:
        add_pts_nb(pub, t, PF.PTS_LEGENDARY, params[P.SWORD_POINTS])
    ps[t, PF.LEGENDARY] += 1
    log_nb(hid, Ev.GAIN, t, Deck.LEGENDARY, c, cost, -1)
    devotion_nb(pub, hid, ru, t, cost, ru["xcard"][0, 1, c], disc)


@njit(cache=True)
def _felicia_disc_nb(paid, price):
    """The ``Disc.FELICIA`` bit when her duel took coins off ``price``."""
    return 1 << Disc.FELICIA if paid < price else 0


@njit(cache=True)
def alternative_nb(pub, hid, ru, t, typ):
    """The Crossroads alternative of a station (the caller checked it is possible)."""
    ps = pub["ps"]
    params = ru["params"]
    if Space.PADDY <= typ <= Space.SEA:
        pub["xcnt"][0] -= 1
        ps[t, PF.CHERRY] += 1
        ps[t, PF.COINS] += params[P.CHERRY_COINS]
        add_pts_nb(pub, t, PF.PTS_CHERRY, params[P.CHERRY_POINTS])
        log_nb(hid, Ev.GAIN, t, Deck.CHERRY, -1, 0, -1)
    elif typ == Space.HOT_SPRING:
        cost = felicia_price_nb(pub, hid, ru, t, Deck.BATHHOUSE, -1, params[P.BATH_COST])
        if cost > ps[t, PF.COINS]:
            return  # Felicia's duel left it too dear (P6)
        pub["xcnt"][1] -= 1
        ps[t, PF.BATHHOUSES] += 1
        ps[t, PF.COINS] -= cost
        add_pts_nb(pub, t, PF.PTS_BATHHOUSES, params[P.BATH_POINTS])
        if ps[t, PF.ABILITY] == Ability.MITSUKUNI:  # a Bathhouse counts as a Hot Spring card
            add_pts_nb(pub, t, PF.PTS_OTHER, params[P.MITSUKUNI_BONUS])
        log_nb(hid, Ev.GAIN, t, Deck.BATHHOUSE, -1, cost, -1)
        devotion_nb(pub, hid, ru, t, cost, params[P.BATH_COST], _felicia_disc_nb(cost, params[P.BATH_COST]))
    elif typ == Space.FARM:
        bet = params[P.GAMING_BET]
        ps[t, PF.COINS] -= bet
        roll_nb(pub, hid, ru, t, bet, DieSrc.GAMING_ROOM)
    elif typ == Space.VILLAGE:
        gain_legendary_nb(pub, hid, ru, t, choose_legendary_nb(pub, ru, t))
    elif typ == Space.TEMPLE:
        c = choose_amulet_nb(pub, ru, t)
        price = amulet_price_nb(pub, ru, t)
        cost = felicia_price_nb(pub, hid, ru, t, Deck.AMULET, c, price)
        if cost > ps[t, PF.COINS]:
            return  # Felicia's duel left it too dear (P6)
        take_amulet_nb(pub, hid, t, c, cost)
        if params[P.AMULET_SAME_STOP] == 0:  # never at the stop where it was bought (C35)
            ps[t, PF.AMULETS_NEW] |= 1 << c
        disc = ability_disc_nb(pub, t, price, params[P.AMULET_COST]) | _felicia_disc_nb(
            cost, price
        )  # Mari's free one
        devotion_nb(pub, hid, ru, t, cost, params[P.AMULET_COST], disc)
    elif typ == Space.ENCOUNTER:
        c = choose_calligraphy_nb(pub, ru, t)
        cost = felicia_price_nb(pub, hid, ru, t, Deck.CALLIGRAPHY, c, params[P.CALLI_COST])
        if cost > ps[t, PF.COINS]:
            return  # Felicia's duel left it too dear (P6)
        pub["mkt"][2, c] = 0
        ps[t, PF.COINS] -= cost
        ps[t, PF.CALLIGRAPHY] += 1
        ps[t, PF.CALLI_MASK] |= 1 << c
        log_nb(hid, Ev.GAIN, t, Deck.CALLIGRAPHY, c, cost, -1)
        devotion_nb(pub, hid, ru, t, cost, params[P.CALLI_COST], _felicia_disc_nb(cost, params[P.CALLI_COST]))


@njit(cache=True)
def calligraphy_scoring_nb(pub, ru):
    """End of the game: every Calligraphy card scores (after the achievements)."""
    ps = pub["ps"]
    for p in range(pub["gs"][G.N_PLAYERS]):
        mask = ps[p, PF.CALLI_MASK]
        if mask == 0:
            continue
        best = 0
        for c in range(MARKET_CAP):
            if (mask >> c) & 1 == 1:
                v = calli_points_nb(pub, ru, p, ru["xcard"][2, 0, c], False)
                add_pts_nb(pub, p, PF.PTS_CALLIGRAPHY, v)
                best = max(best, v)
        if ps[p, PF.ABILITY] == Ability.MARIHITO:  # Matsuri, 002:L613: his best card scores twice
            add_pts_nb(pub, p, PF.PTS_CALLIGRAPHY, best * (ru["params"][P.MARIHITO_TIMES] - 1))
