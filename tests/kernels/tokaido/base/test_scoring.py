"""Rules of the end of the game: temple ranking, end achievements, final ranking and ties.

The kernels' end-scoring functions run on hand-made positions (``tests/helpers/positions.py``)
and are compared with the referee's plain-Python scoring (``sim/games/tokaido/referee/scoring.py``).
Docstrings quote the rulebook (seed 000) or name the rule choice.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.tokaido.core.enums import PF, G
from kernels.tokaido.core.score import end_achievements_nb, final_ranks_nb, temple_ranking_nb
from sim.games.tokaido.referee.scoring import achievement_winners, final_ranks, temple_bonus
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.positions import BOTH, kern, make_position, make_rules

CFG = {n: GameConfig(n_players=n, travelers="random") for n in range(2, 6)}
ACH_FIELDS = (
    "MEAL_VALUE",
    "HOT_SPRINGS",
    "ENCOUNTERS",
    "SOUVENIRS",
)  # Gourmet, Bather, Chatterbox, Collector


def bonus_of(pos) -> list[int]:
    return [int(x) for x in pos.ps[: pos.gs[G.N_TRAV], PF.PTS_TEMPLE_BONUS]]


def ranking(n: int, donated: list[int], mode: str = "jit") -> list[int]:
    pos = make_position(make_rules(CFG[n]), donated=donated)
    kern(temple_ranking_nb, mode)(pos.pub, pos.ru)
    return bonus_of(pos)


# ------------------------------------------------------------------ temple
@BOTH
def test_rulebook_example_temple_ranking(mode: str) -> None:
    """Rulebook "End of the Journey", "Example": "the Yellow Traveler in 1st place scores 10 points;
    the Blue and Green Travelers tied for 2nd place each score 7 points; the White and Purple
    Travelers score no points as they did not donate anything"."""
    yellow, blue, green, white, purple = ranking(5, [6, 3, 3, 0, 0], mode)
    assert (yellow, blue, green, white, purple) == (10, 7, 7, 0, 0)


@BOTH
@pytest.mark.parametrize(
    ("donated", "bonus"),
    [
        ([5, 5, 3, 2, 1], [10, 10, 7, 4, 2]),  # two firsts: the next amount is second, not third
        ([3, 2, 1, 1, 1], [10, 7, 4, 4, 4]),
        ([6, 5, 4, 3, 2], [10, 7, 4, 2, 2]),  # every further donor: 2
        ([1, 1, 1, 1, 1], [10, 10, 10, 10, 10]),
        ([0, 4, 0, 0, 9], [0, 7, 0, 0, 10]),
        ([0, 0, 0, 0, 0], [0, 0, 0, 0, 0]),
    ],
)
def test_temple_ranking_ties_share_a_rank(mode: str, donated: list[int], bonus: list[int]) -> None:
    """Rulebook: "The most generous donor scores 10 points. The second scores 7 ... The third
    scores 4 ... All other donors score 2 points. In the event of a tie, all tied players score
    points from that rank"; "Travelers who haven't donated a single coin ... do not score"."""
    assert ranking(5, donated, mode) == bonus


@BOTH
def test_neutral_takes_a_temple_place_but_scores_nothing(mode: str) -> None:
    """Rulebook 2-player rules: "the Neutral Traveler is involved at the end of the game when
    calculating the additional points connected to Temple offerings"."""
    assert ranking(2, [3, 1, 4], mode) == [7, 4, 0]
    assert ranking(2, [4, 1, 4], mode) == [10, 7, 0]


@settings(max_examples=150, deadline=None, database=None)
@given(
    st.integers(2, 5).flatmap(
        lambda n: st.tuples(
            st.just(n), st.lists(st.integers(0, 12), min_size=n + (n == 2), max_size=n + (n == 2))
        )
    )
)
def test_property_temple_ranking_matches_referee(case) -> None:
    """Rulebook temple ranking: ``temple_ranking_nb`` equals the referee's ``temple_bonus`` for
    any donations (the Neutral's own bonus is not scored)."""
    n, donated = case
    want = temple_bonus(donated, [10, 7, 4, 2])
    if n == 2:
        want[2] = 0
    assert ranking(n, donated) == want


# ------------------------------------------------------------------ end achievements
def achievements(n: int, counts: dict[str, list[int]], mode: str = "jit", **kw) -> list[int]:
    fields = {t: {f: counts[f][t] for f in counts} for t in range(len(next(iter(counts.values()))))}
    pos = make_position(make_rules(CFG[n], **kw), fields=fields)
    kern(end_achievements_nb, mode)(pos.pub, pos.ru)
    return [int(x) for x in pos.ps[:n, PF.PTS_ACHIEVEMENTS]]


@BOTH
def test_gourmet_counts_printed_meal_costs(mode: str) -> None:
    """Rulebook "Gourmet": "The Traveler with the highest sum of coins on their Meal cards receives
    this Achievement card and scores 3 points" (C22: printed costs, also for Kinko)."""
    assert achievements(3, {"MEAL_VALUE": [9, 11, 10], "MEALS": [5, 4, 5]}, mode) == [0, 3, 0]


@BOTH
def test_bather_chatterbox_collector(mode: str) -> None:
    """Rulebook "Bather", "Chatterbox", "Collector": the most Hot Spring, Encounter, Souvenir cards
    scores 3; "If two or more Travelers are tied for first for any of the achievements, they each
    score 3 points"."""
    assert achievements(4, {"HOT_SPRINGS": [2, 0, 2, 1]}, mode) == [3, 0, 3, 0]
    assert achievements(4, {"ENCOUNTERS": [1, 4, 2, 3]}, mode) == [0, 3, 0, 0]
    assert achievements(4, {"SOUVENIRS": [6, 6, 6, 6]}, mode) == [3, 3, 3, 3]
    got = achievements(
        4,
        {
            "HOT_SPRINGS": [3, 0, 0, 0],
            "ENCOUNTERS": [3, 0, 0, 0],
            "SOUVENIRS": [3, 3, 0, 0],
            "MEAL_VALUE": [0, 0, 0, 8],
        },
        mode,
    )
    assert got == [9, 3, 0, 3]


@BOTH
def test_end_achievement_not_awarded_at_zero(mode: str) -> None:
    """C11: an end achievement nobody qualifies for (everyone at 0) is not awarded
    (``achievements.min_count`` = 1)."""
    assert achievements(3, {"HOT_SPRINGS": [0, 0, 0], "SOUVENIRS": [0, 0, 0]}, mode) == [0, 0, 0]
    assert achievements(3, {"HOT_SPRINGS": [1, 0, 0]}, mode, ach_min=2) == [0, 0, 0]
    assert achievements(3, {"HOT_SPRINGS": [0, 0, 0]}, mode, ach_min=0) == [12, 12, 12]


@BOTH
def test_neutral_takes_no_end_achievement(mode: str) -> None:
    """Rulebook 2-player rules: "Neutral Traveler movements have no effect on the game, except at
    Temple and Inn spaces": the Neutral never takes an achievement from a player."""
    pos = make_position(make_rules(CFG[2]), fields={0: {"HOT_SPRINGS": 1}, 2: {"HOT_SPRINGS": 5}})
    kern(end_achievements_nb, mode)(pos.pub, pos.ru)
    assert [int(pos.ps[t, PF.PTS_ACHIEVEMENTS]) for t in range(3)] == [3, 0, 0]


@settings(max_examples=100, deadline=None, database=None)
@given(
    st.integers(2, 5).flatmap(
        lambda n: st.tuples(
            st.just(n), st.lists(st.lists(st.integers(0, 4), min_size=n, max_size=n), min_size=4, max_size=4)
        )
    )
)
def test_property_end_achievements_match_referee(case) -> None:
    """Rulebook "Other Achievement Cards" with C11: each of the four awards goes to the referee's
    ``achievement_winners``."""
    n, counts = case
    got = achievements(n, dict(zip(ACH_FIELDS, counts, strict=True)))
    want = [0] * n
    for c in counts:
        for i in achievement_winners(c, 1):
            want[i] += 3
    assert got == want


# ------------------------------------------------------------------ final ranking
def ranks(scores: list[int], achs: list[int], mode: str = "jit") -> tuple[list[int], int]:
    n = len(scores)
    pos = make_position(
        make_rules(CFG[n]), fields={t: {"SCORE": scores[t], "ACHIEVEMENTS": achs[t]} for t in range(n)}
    )
    out = np.zeros(16, np.int32)
    k = kern(final_ranks_nb, mode)(pos.pub, out)
    return [int(x) for x in out[:n]], int(k)


@BOTH
def test_most_points_wins(mode: str) -> None:
    """Rulebook: "The player with the most points wins the game"."""
    assert ranks([40, 62, 55, 30], [0, 0, 0, 0], mode) == ([3, 1, 2, 4], 1)


@BOTH
def test_final_tie_break_on_achievements(mode: str) -> None:
    """Rulebook: "In the event of a tie, the tied player with the most Achievement cards wins"."""
    assert ranks([50, 50, 40], [2, 3, 5], mode) == ([2, 1, 3], 1)


@BOTH
def test_shared_win(mode: str) -> None:
    """C18: still tied on achievements: a shared win (every tied winner has rank 1, ``win_k`` = k)."""
    assert ranks([50, 50, 40, 50], [3, 3, 1, 2], mode) == ([1, 1, 4, 3], 2)
    assert ranks([7, 7], [0, 0], mode) == ([1, 1], 2)


@settings(max_examples=150, deadline=None, database=None)
@given(
    st.integers(2, 5).flatmap(
        lambda n: st.lists(st.tuples(st.integers(30, 34), st.integers(0, 2)), min_size=n, max_size=n)
    )
)
def test_property_final_ranks_winners_have_rank_one(keys) -> None:
    """C18: exactly the winners have rank 1, and ranks equal the referee's ``final_ranks``."""
    got, k = ranks([s for s, _ in keys], [a for _, a in keys])
    assert got == final_ranks(keys)
    best = max(keys)
    assert k == sum(1 for x in keys if x == best) == got.count(1)
