"""Scoring: points by source, collections, panoramas, end-of-game awards.

Functions take the public record ``pub`` and the rules record ``ru``
(``kernels.tokaido.core.state``) and update ``pub['ps']`` in place; points always go
through ``add_pts_nb`` so the sources sum to ``PF.SCORE``.
"""

from numba import njit

from kernels.tokaido.core.enums import PF, Ability, Calli, Deck, G, P


@njit(cache=True)
def add_pts_nb(pub, t, field, v):
    ps = pub["ps"]
    ps[t, field] += v
    ps[t, PF.SCORE] += v


@njit(cache=True)
def mark_gone_nb(pub, d, c):
    """Card ``c`` of pile ``d`` joined a collection (face up): ``pub['gone']`` tells bots the piles'
    contents."""
    pub["gone"][d] |= 1 << int(c)


@njit(cache=True)
def souvenir_gain_pts_nb(pub, ru, t, fam):
    """Points a souvenir of family ``fam`` would score now.

    The k-th card of a family joins set k; a set's i-th family scores
    set_points[i] (1, 3, 5, 7): rulebook "Village".
    """
    ps = pub["ps"]
    params = ru["params"]
    k = ps[t, PF.FAM0 + fam]
    size = 0
    for f in range(params[P.N_FAMILIES]):
        if ps[t, PF.FAM0 + f] > k:
            size += 1
    return params[P.SET_PTS0 + size]


@njit(cache=True)
def gain_souvenir_nb(pub, ru, t, c):
    fam = ru["card"][Deck.SOUVENIR, 0, c]
    add_pts_nb(pub, t, PF.PTS_SOUVENIRS, souvenir_gain_pts_nb(pub, ru, t, fam))
    ps = pub["ps"]
    ps[t, PF.FAM0 + fam] += 1
    ps[t, PF.SOUVENIRS] += 1
    mark_gone_nb(pub, Deck.SOUVENIR, c)
    if ps[t, PF.SCRIPTS] > 0:  # Crossroads Script objects: +1 per later souvenir each
        add_pts_nb(pub, t, PF.PTS_LEGENDARY, ps[t, PF.SCRIPTS] * ru["params"][P.SCRIPT_BONUS])


@njit(cache=True)
def gain_meal_nb(pub, ru, t, c, paid):
    ps = pub["ps"]
    card = ru["card"]
    ps[t, PF.COINS] -= paid
    ps[t, PF.MEALS] += 1
    ps[t, PF.MEAL_VALUE] += card[Deck.MEAL, 1, c]
    ps[t, PF.DISHES] |= 1 << card[Deck.MEAL, 0, c]
    mark_gone_nb(pub, Deck.MEAL, c)
    add_pts_nb(pub, t, PF.PTS_MEALS, ru["params"][P.MEAL_POINTS])


@njit(cache=True)
def meal_price_nb(pub, ru, t, c):
    cost = ru["card"][Deck.MEAL, 1, c]
    if pub["ps"][t, PF.ABILITY] == Ability.AYUMU:  # Matsuri, 002:L597: every meal costs him exactly 1,
        cost = ru["params"][P.AYUMU_MEAL_COST]  # and Cho-yo's discount still applies: 0 (M24)
    elif pub["ps"][t, PF.ABILITY] == Ability.KINKO:
        cost = max(0, cost - ru["params"][P.KINKO_DISCOUNT])
    if pub["gs"][G.M_NEXT] != 0:  # Matsuri Cho-yo: after abilities, at least 0 (M24)
        cost = max(0, cost - ru["params"][P.M_CHOYO_DISCOUNT])
    return cost


@njit(cache=True)
def dish_eaten_nb(pub, ru, t, c):
    return (pub["ps"][t, PF.DISHES] >> ru["card"][Deck.MEAL, 0, c]) & 1


@njit(cache=True)
def gain_hot_spring_nb(pub, ru, t, c):
    pub["ps"][t, PF.HOT_SPRINGS] += 1
    mark_gone_nb(pub, Deck.HOT_SPRING, c)
    add_pts_nb(pub, t, PF.PTS_HOT_SPRINGS, ru["card"][Deck.HOT_SPRING, 0, c])
    if pub["ps"][t, PF.ABILITY] == Ability.MITSUKUNI:
        add_pts_nb(pub, t, PF.PTS_OTHER, ru["params"][P.MITSUKUNI_BONUS])


@njit(cache=True)
def gain_achievement_nb(pub, ru, t, pts):
    pub["ps"][t, PF.ACHIEVEMENTS] += 1
    add_pts_nb(pub, t, PF.PTS_ACHIEVEMENTS, pts)
    if pub["ps"][t, PF.ABILITY] == Ability.MITSUKUNI:
        add_pts_nb(pub, t, PF.PTS_OTHER, ru["params"][P.MITSUKUNI_BONUS])


@njit(cache=True)
def panorama_open_nb(pub, ru, t, typ):
    return pub["ps"][t, PF.PAN0 + typ] < ru["params"][P.PAN_LEN0 + typ]


@njit(cache=True)
def any_panorama_open_nb(pub, ru, t):
    """Some panorama of ``t`` is still open."""
    for k in range(3):
        if panorama_open_nb(pub, ru, t, k):
            return True
    return False


@njit(cache=True)
def pan_card_pts_nb(pub, ru, t, typ, k):
    """Points of ``t``'s ``k``-th card (1-based) of panorama ``typ``: k, or for Naiade, who takes the
    cards in reverse order (seed 002 L508-511), the length minus k plus 1 (her first Sea card is 5)."""
    if pub["ps"][t, PF.ABILITY] == Ability.NAIADE:
        return ru["params"][P.PAN_LEN0 + typ] - k + 1
    return k


@njit(cache=True)
def antoine_nb(pub, t):
    """1 if ``t`` is Antoine and wins the ties he is part of (seed 002 L503-506, P1; set-up fills
    ``G.ANTOINE`` from the rule ``abilities.antoine_ties``), else 0."""
    return 1 if pub["gs"][G.ANTOINE] == t + 1 else 0


@njit(cache=True)
def take_panorama_nb(pub, ru, t, typ):
    """Take the next card of panorama ``typ``.

    The first traveler to complete a type takes its 3-point achievement.
    """
    ps = pub["ps"]
    gs = pub["gs"]
    params = ru["params"]
    v = ps[t, PF.PAN0 + typ] + 1
    ps[t, PF.PAN0 + typ] = v
    ps[t, PF.PANORAMAS] += 1
    add_pts_nb(pub, t, PF.PTS_PANORAMAS, pan_card_pts_nb(pub, ru, t, typ, v))
    if v == params[P.PAN_LEN0 + typ] and (gs[G.PAN_ACH] >> typ) & 1 == 0:
        gs[G.PAN_ACH] |= 1 << typ
        gain_achievement_nb(pub, ru, t, params[P.PAN_ACH_POINTS])


@njit(cache=True)
def temple_rank_nb(pub, t):
    """How many distinct donated amounts are above ``t``'s (0: first); Antoine's amount counts as
    just above an equal one (P1a), so those tied with him drop a rank."""
    ps = pub["ps"]
    nt = pub["gs"][G.N_TRAV]
    d = 2 * ps[t, PF.DONATED] + antoine_nb(pub, t)
    higher = 0
    for u in range(nt):
        du = 2 * ps[u, PF.DONATED] + antoine_nb(pub, u)
        if du > d:
            seen = False
            for v in range(u):
                if 2 * ps[v, PF.DONATED] + antoine_nb(pub, v) == du:
                    seen = True
                    break
            if not seen:
                higher += 1
    return higher


@njit(cache=True)
def temple_ranking_nb(pub, ru):
    """Temple bonus: donors ranked by coins, ties share a rank, no rank skipped.

    10/7/4 for the first three distinct amounts, 2 for every further donor,
    nothing without a donation; the Neutral takes a place but scores nothing.
    Antoine's amount counts as just above an equal one (P1a): those tied with him drop a rank.
    """
    ps = pub["ps"]
    for t in range(pub["gs"][G.N_TRAV]):
        if ps[t, PF.DONATED] <= 0 or ps[t, PF.NEUTRAL] == 1:
            continue
        add_pts_nb(pub, t, PF.PTS_TEMPLE_BONUS, ru["params"][P.RANK_PTS0 + min(temple_rank_nb(pub, t), 3)])


@njit(cache=True)
def achievement_count_nb(ps, p, k):
    """What achievement ``k`` (Gourmet, Bather, Chatterbox, Collector) counts for ``p``. Crossroads
    cards count too: Bathhouses for Bather, Calligraphy for Chatterbox, Legendary Objects for
    Collector (all 0 in the base game)."""
    if k == 0:
        return ps[p, PF.MEAL_VALUE]
    if k == 1:
        return ps[p, PF.HOT_SPRINGS] + ps[p, PF.BATHHOUSES]
    if k == 2:
        return ps[p, PF.ENCOUNTERS] + ps[p, PF.CALLIGRAPHY]
    return ps[p, PF.SOUVENIRS] + ps[p, PF.LEGENDARY]


@njit(cache=True)
def end_achievements_nb(pub, ru):
    """Gourmet, Bather, Chatterbox, Collector: every tied leader scores, Antoine alone if he is one (P1b)."""
    ps = pub["ps"]
    n = pub["gs"][G.N_PLAYERS]
    params = ru["params"]
    counts = pub["iscr"]
    for k in range(4):
        best = 0
        for p in range(n):
            v = achievement_count_nb(ps, p, k)
            counts[p] = v
            best = max(best, v)
        if best < params[P.ACH_MIN]:
            continue
        antoine = -1
        for p in range(n):
            if counts[p] == best and antoine_nb(pub, p) == 1:
                antoine = p
        for p in range(n):
            if counts[p] == best and (antoine < 0 or p == antoine):
                gain_achievement_nb(pub, ru, p, params[P.ACH_POINTS])


@njit(cache=True)
def final_ranks_nb(pub, ranks):
    """Rank by score, then achievements, into ``ranks``; returns the number of tied winners.

    Antoine wins a tie on score before the achievements compare (P1c)."""
    ps = pub["ps"]
    n = pub["gs"][G.N_PLAYERS]
    winners = 0
    for p in range(n):
        better = 0
        for q in range(n):
            sq, sp = ps[q, PF.SCORE], ps[p, PF.SCORE]
            aq, ap = antoine_nb(pub, q), antoine_nb(pub, p)
            if sq > sp or (
                sq == sp and (aq > ap or (aq == ap and ps[q, PF.ACHIEVEMENTS] > ps[p, PF.ACHIEVEMENTS]))
            ):
                better += 1
        ranks[p] = better + 1
        if better == 0:
            winners += 1
    return winners


@njit(cache=True)
def calli_points_nb(pub, ru, p, kind, shared):
    """End points of a Calligraphy card of ``kind`` for ``p``; ``shared``: o-Tsukimi's card, held by nobody.

    A shared Perfection counts itself, as the printed card does (M22).
    """
    ps = pub["ps"]
    params = ru["params"]
    if kind == Calli.FORESIGHT:
        return params[P.FORESIGHT] * ps[p, PF.COINS]
    if kind == Calli.CONTEMPLATION:
        done = 0
        for k in range(3):
            if ps[p, PF.PAN0 + k] >= params[P.PAN_LEN0 + k]:
                done += 1
        return params[P.CONTEMPLATION_PAN] * done + params[P.CONTEMPLATION_CHERRY] * ps[p, PF.CHERRY]
    if kind == Calli.NOSTALGIA:
        sv = ps[p, PF.SOUVENIRS]
        if params[P.M_DOLL_NOSTALGIA] == 1:
            sv += ps[p, PF.DOLLS] + ps[p, PF.CARPS]
        return params[P.NOSTALGIA_LEGEND] * ps[p, PF.LEGENDARY] + params[P.NOSTALGIA_SOUVENIR] * sv
    if kind == Calli.PATIENCE:
        later = 0  # travelers who reached the final Inn after p
        for u in range(pub["gs"][G.N_TRAV]):
            if ps[u, PF.SEQ] > ps[p, PF.SEQ]:
                later += 1
        return (
            params[P.PATIENCE_LAST]
            if later == 0
            else (params[P.PATIENCE_SECOND] if later == 1 else params[P.PATIENCE_OTHER])
        )
    if kind == Calli.PERFECTION:
        return params[P.PERFECTION_ACH] * ps[p, PF.ACHIEVEMENTS] + params[P.PERFECTION_CALLI] * (
            ps[p, PF.CALLIGRAPHY] + (1 if shared else 0)
        )
    inns = params[
        P.FASTING_INNS_ERIKU if ps[p, PF.ABILITY] == Ability.ERIKU else P.FASTING_INNS
    ]  # P3: his start meal
    return params[P.FASTING_MEAL] * max(0, inns - ps[p, PF.INN_MEALS])
