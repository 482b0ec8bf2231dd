"""Scoring: points by source, collections, panoramas, end-of-game awards.

Every function updates ``ps`` (int32[MAX_TRAV, PF_N], see ``enums``) in place;
points always go through ``add_pts_nb`` so the sources sum to ``PF.SCORE``.
"""

from numba import njit

from kernels.enums import PF, Ability, Deck, P


@njit(cache=True)
def add_pts_nb(ps, t, field, v):
    ps[t, field] += v
    ps[t, PF.SCORE] += v


@njit(cache=True)
def souvenir_gain_pts_nb(ps, t, fam, params):
    """Points a souvenir of family ``fam`` would score now.

    The k-th card of a family joins set k; a set's i-th family scores
    set_points[i] (1, 3, 5, 7): rulebook "Village".
    """
    k = ps[t, PF.FAM0 + fam]
    size = 0
    for f in range(params[P.N_FAMILIES]):
        if ps[t, PF.FAM0 + f] > k:
            size += 1
    return params[P.SET_PTS0 + size]


@njit(cache=True)
def gain_souvenir_nb(ps, t, c, card, params):
    fam = card[Deck.SOUVENIR, 0, c]
    add_pts_nb(ps, t, PF.PTS_SOUVENIRS, souvenir_gain_pts_nb(ps, t, fam, params))
    ps[t, PF.FAM0 + fam] += 1
    ps[t, PF.SOUVENIRS] += 1


@njit(cache=True)
def gain_meal_nb(ps, t, c, paid, card, params):
    ps[t, PF.COINS] -= paid
    ps[t, PF.MEALS] += 1
    ps[t, PF.MEAL_VALUE] += card[Deck.MEAL, 1, c]
    ps[t, PF.DISHES] |= 1 << card[Deck.MEAL, 0, c]
    add_pts_nb(ps, t, PF.PTS_MEALS, params[P.MEAL_POINTS])


@njit(cache=True)
def meal_price_nb(ps, t, c, card, params):
    cost = card[Deck.MEAL, 1, c]
    if ps[t, PF.ABILITY] == Ability.KINKO:
        cost = max(0, cost - params[P.KINKO_DISCOUNT])
    return cost


@njit(cache=True)
def dish_eaten_nb(ps, t, c, card):
    return (ps[t, PF.DISHES] >> card[Deck.MEAL, 0, c]) & 1


@njit(cache=True)
def gain_hot_spring_nb(ps, t, c, card, params):
    ps[t, PF.HOT_SPRINGS] += 1
    add_pts_nb(ps, t, PF.PTS_HOT_SPRINGS, card[Deck.HOT_SPRING, 0, c])
    if ps[t, PF.ABILITY] == Ability.MITSUKUNI:
        add_pts_nb(ps, t, PF.PTS_OTHER, params[P.MITSUKUNI_BONUS])


@njit(cache=True)
def gain_achievement_nb(ps, t, pts, params):
    ps[t, PF.ACHIEVEMENTS] += 1
    add_pts_nb(ps, t, PF.PTS_ACHIEVEMENTS, pts)
    if ps[t, PF.ABILITY] == Ability.MITSUKUNI:
        add_pts_nb(ps, t, PF.PTS_OTHER, params[P.MITSUKUNI_BONUS])


@njit(cache=True)
def panorama_open_nb(ps, t, typ, params):
    return ps[t, PF.PAN0 + typ] < params[P.PAN_LEN0 + typ]


@njit(cache=True)
def take_panorama_nb(ps, gs_pan_ach, t, typ, params):
    """Take the next card of panorama ``typ``; returns the new PAN_ACH bit mask.

    The first traveler to complete a type takes its 3-point achievement.
    """
    v = ps[t, PF.PAN0 + typ] + 1
    ps[t, PF.PAN0 + typ] = v
    ps[t, PF.PANORAMAS] += 1
    add_pts_nb(ps, t, PF.PTS_PANORAMAS, v)
    if v == params[P.PAN_LEN0 + typ] and (gs_pan_ach >> typ) & 1 == 0:
        gs_pan_ach |= 1 << typ
        gain_achievement_nb(ps, t, params[P.PAN_ACH_POINTS], params)
    return gs_pan_ach


@njit(cache=True)
def temple_ranking_nb(ps, nt, params):
    """Temple bonus: donors ranked by coins, ties share a rank, no rank skipped.

    10/7/4 for the first three distinct amounts, 2 for every further donor,
    nothing without a donation; the Neutral takes a place but scores nothing.
    """
    for t in range(nt):
        d = ps[t, PF.DONATED]
        if d <= 0 or ps[t, PF.NEUTRAL] == 1:
            continue
        higher = 0  # distinct amounts above d
        for u in range(nt):
            du = ps[u, PF.DONATED]
            if du > d:
                seen = False
                for w in range(u):
                    if ps[w, PF.DONATED] == du:
                        seen = True
                        break
                if not seen:
                    higher += 1
        add_pts_nb(ps, t, PF.PTS_TEMPLE_BONUS, params[P.RANK_PTS0 + min(higher, 3)])


@njit(cache=True)
def end_achievements_nb(ps, n, params):
    """Gourmet, Bather, Chatterbox, Collector: every tied leader scores."""
    for k in range(4):
        field = PF.MEAL_VALUE
        if k == 1:
            field = PF.HOT_SPRINGS
        elif k == 2:
            field = PF.ENCOUNTERS
        elif k == 3:
            field = PF.SOUVENIRS
        best = 0
        for p in range(n):
            best = max(best, ps[p, field])
        if best < params[P.ACH_MIN]:
            continue
        for p in range(n):
            if ps[p, field] == best:
                gain_achievement_nb(ps, p, params[P.ACH_POINTS], params)


@njit(cache=True)
def final_ranks_nb(ps, n, ranks):
    """Rank by score, then achievements; returns the number of tied winners."""
    winners = 0
    for p in range(n):
        better = 0
        for q in range(n):
            sq, sp = ps[q, PF.SCORE], ps[p, PF.SCORE]
            if sq > sp or (sq == sp and ps[q, PF.ACHIEVEMENTS] > ps[p, PF.ACHIEVEMENTS]):
                better += 1
        ranks[p] = better + 1
        if better == 0:
            winners += 1
    return winners

