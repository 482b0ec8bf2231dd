"""Crossroads end scoring: the six Calligraphy cards, their place after the achievements, and the
achievements counting Crossroads cards.

Hand-made end positions (``tests/helpers/positions.py``: ``xr_position`` with ``calligraphy=``). Each test
quotes the Crossroads rulebook (seed 002, "Kalligrafie-Karten") or names the rule choice
(docs/rules-choices.md, C23-C39). The property test compares the kernel with the referee's own
``calligraphy_points`` (``sim/games/tokaido/referee/scoring.py``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.tokaido.core.enums import CALLI_NAMES, PF, Calli
from kernels.tokaido.core.score import end_achievements_nb
from kernels.tokaido.game.crossroads import calligraphy_scoring_nb
from kernels.tokaido.game.turn import end_scoring_nb
from sim.games.tokaido.referee.scoring import calligraphy_points
from tests.helpers.positions import BOTH, LAST, kern, make_rules, xr_config, xr_position

CFG3 = xr_config(3)


def rs3(**kw):
    return make_rules(CFG3, **kw)


def end_position(rs, n: int = 3, arrival=None, **kw):
    """Everyone at the last Inn (arrival stamps: list order unless given)."""
    nt = n + (n == 2)
    return xr_position(rs, positions=[LAST] * nt, arrival=arrival, markets={"calligraphy": []}, **kw)


def calli_points(pos, mode: str, t: int = 0) -> int:
    kern(calligraphy_scoring_nb, mode)(pos.pub, pos.ru)
    return int(pos.ps[t, PF.PTS_CALLIGRAPHY])


def test_calligraphy_cards() -> None:
    """game-data.md 8.3: six Calligraphy cards, one of each, 1 coin each (``crossroads.toml``)."""
    rs = rs3()
    assert rs.rules.calligraphy == list(CALLI_NAMES)
    assert rs.rules.params["CALLI_COST"] == 1


# ------------------------------------------------------------------ each card
@BOTH
@pytest.mark.parametrize(("coins", "want"), [(0, 0), (1, 2), (7, 14)])
def test_foresight_two_points_per_coin_left(mode: str, coins: int, want: int) -> None:
    """Seed 002 "Weitblick": "Diese Kalligrafie-Karte bringt 2 Punkte pro Münze ein, die der
    Spieler am Ende der Partie noch besitzt" (2 points per coin left at the end)."""
    pos = end_position(rs3(), coins=[coins, 9, 9], calligraphy={0: ["foresight"]}, mode=mode)
    assert calli_points(pos, mode) == want == pos.ps[0, PF.SCORE]
    assert pos.ps[1, PF.PTS_CALLIGRAPHY] == 0 and pos.ps[0, PF.COINS] == coins  # coins are kept


@BOTH
@pytest.mark.parametrize(
    ("pans", "cherry", "want"), [([0, 0, 0], 0, 0), ([3, 4, 4], 0, 6), ([3, 4, 5], 2, 11), ([2, 3, 4], 3, 3)]
)
def test_contemplation_completed_panoramas_and_cherry_trees(
    mode: str, pans: list[int], cherry: int, want: int
) -> None:
    """Seed 002 "Innere Einkehr": "3 Punkte pro komplettem Panorama ... und 1 Punkt pro Kirschbaum"
    (3 per completed panorama, not only the first to complete; 1 per Cherry Tree)."""
    pos = end_position(
        rs3(),
        panoramas={0: pans},
        fields={0: {"CHERRY": cherry}},
        calligraphy={0: ["contemplation"]},
        mode=mode,
    )
    assert calli_points(pos, mode) == want


@BOTH
@pytest.mark.parametrize(("legendary", "souvenirs", "want"), [(0, 0, 0), (2, 0, 4), (0, 5, 5), (3, 4, 10)])
def test_nostalgia_legendary_objects_and_souvenirs(
    mode: str, legendary: int, souvenirs: int, want: int
) -> None:
    """Seed 002 "Nostalgie": "2 Punkte pro legendärem Gegenstand und 1 Punkt pro Andenken"."""
    pos = end_position(
        rs3(),
        fields={0: {"LEGENDARY": legendary, "SOUVENIRS": souvenirs}},
        calligraphy={0: ["nostalgia"]},
        mode=mode,
    )
    assert calli_points(pos, mode) == want


@BOTH
def test_patience_six_four_two(mode: str) -> None:
    """Seed 002 "Geduld": "6 Punkte ein, wenn der Reisende als Letzter am letzten Gasthaus ankommt,
    4 Punkte, wenn er dort Zweitletzter ist, und 2 Punkte in jedem anderen Fall" (C33). 4 players
    reach Edo in the order 0, 2, 3, 1: Patience is worth 2, 6, 2, 4 to players 0, 1, 2, 3."""
    rs = make_rules(xr_config(4))
    for t, want in enumerate((2, 6, 2, 4)):
        pos = end_position(rs, n=4, arrival=[10, 13, 11, 12], calligraphy={t: ["patience"]}, mode=mode)
        assert calli_points(pos, mode, t) == want


@BOTH
def test_patience_the_neutral_counts(mode: str) -> None:
    """C33: "the Neutral counts as a traveler": at 2 players, with the Neutral last to reach Edo,
    the player arriving just before it is second-last (4), the other 2."""
    rs = make_rules(xr_config(2))
    for t, want in ((0, 2), (1, 4)):
        pos = end_position(rs, n=2, arrival=[10, 11, 12], calligraphy={t: ["patience"]}, mode=mode)
        assert calli_points(pos, mode, t) == want
    pos = end_position(rs, n=2, arrival=[12, 11, 10], calligraphy={0: ["patience"]}, mode=mode)
    assert calli_points(pos, mode) == 6


@BOTH
def test_perfection_counts_itself(mode: str) -> None:
    """Seed 002 "Perfektion": "2 Punkte pro Erfolgskarte ein und 1 Punkt pro Kalligrafie-Karte";
    "Die Kalligrafie-Karte „Perfektion" ist selbst ebenfalls 1 Punkt wert": alone with no
    achievement it scores 1; with 2 achievements and 3 Calligraphy cards 2 x 2 + 3 = 7."""
    pos = end_position(rs3(), calligraphy={0: ["perfection"]}, mode=mode)
    assert calli_points(pos, mode) == 1
    pos = end_position(
        rs3(),
        coins=[0, 0, 0],
        fields={0: {"ACHIEVEMENTS": 2, "INN_MEALS": 4}},
        calligraphy={0: ["perfection", "foresight", "fasting"]},
        mode=mode,
    )
    assert calli_points(pos, mode) == 7  # Foresight (0 coins) and Fasting (4 meals) score 0


@BOTH
@pytest.mark.parametrize(("inn_meals", "meals", "want"), [(0, 0, 12), (1, 1, 9), (4, 4, 0), (2, 3, 6)])
def test_fasting_three_per_uneaten_inn_meal(mode: str, inn_meals: int, meals: int, want: int) -> None:
    """Seed 002 "Fasten": "3 Punkte pro nicht verzehrter Mahlzeit"; "In einer Partie verzehrt ein
    Reisender bis zu 4 Mahlzeiten" (C34: out of 4 Inn meals; a meal from Itamae is no Inn meal,
    so 3 meals of which 2 at Inns leave 2 uneaten: 6)."""
    pos = end_position(
        rs3(), fields={0: {"INN_MEALS": inn_meals, "MEALS": meals}}, calligraphy={0: ["fasting"]}, mode=mode
    )
    assert calli_points(pos, mode) == want


@BOTH
def test_several_calligraphy_cards_add_up(mode: str) -> None:
    """Seed 002: "Ein Reisender kann mehrere Kalligrafie-Karten haben" (several cards per
    traveler): all six, 5 coins, one complete panorama and 2 Cherry Trees, 1 Legendary Object and 3
    souvenirs, first at Edo (of 3), 1 achievement, 2 Inn meals:
    10 + (3 + 2) + (2 + 3) + 2 + (2 + 6) + 6 = 36."""
    pos = end_position(
        rs3(),
        coins=[5, 0, 0],
        panoramas={0: [3, 1, 0]},
        arrival=[1, 2, 3],
        fields={0: {"CHERRY": 2, "LEGENDARY": 1, "SOUVENIRS": 3, "ACHIEVEMENTS": 1, "INN_MEALS": 2}},
        calligraphy={0: list(CALLI_NAMES)},
        mode=mode,
    )
    assert calli_points(pos, mode) == 36 == pos.ps[0, PF.SCORE]


# ------------------------------------------------------------------ order and achievements
@BOTH
def test_calligraphy_scores_after_the_achievements(mode: str) -> None:
    """C32: end scoring is the temple ranking, the end achievements, then Calligraphy, so
    Perfection counts an achievement just awarded: Chatterbox goes to player 0 (2 Encounters + 2
    Calligraphy = 4 against 3) and his Perfection scores 2 x 1 + 2 = 4; Foresight counts the coins
    left (3: 6 points)."""
    pos = end_position(
        rs3(),
        coins=[3, 0, 0],
        fields={0: {"ENCOUNTERS": 2}, 1: {"ENCOUNTERS": 3}},
        donated=[1, 2, 0],
        calligraphy={0: ["perfection", "foresight"]},
        mode=mode,
    )
    kern(end_scoring_nb, mode)(pos.pub, pos.ru)
    assert pos.ps[0, PF.ACHIEVEMENTS] == 1 and pos.ps[0, PF.PTS_ACHIEVEMENTS] == 3
    assert pos.ps[1, PF.ACHIEVEMENTS] == 0
    assert pos.ps[0, PF.PTS_CALLIGRAPHY] == 4 + 6
    assert pos.ps[0, PF.PTS_TEMPLE_BONUS] == 7 and pos.ps[1, PF.PTS_TEMPLE_BONUS] == 10
    assert pos.ps[0, PF.SCORE] == 3 + 10 + 7


@BOTH
def test_achievements_count_crossroads_cards(mode: str) -> None:
    """C31 and seed 002: "Bathhouses are considered to be Hot Springs for the awarding of the
    'Bather' accomplishment"; "Die Kalligrafie-Karten werden bei der Ermittlung, wer die
    Erfolgskarte „Quasselstrippe" erhält, berücksichtigt" (Chatterbox); "the Legendary Objects are
    taken into account, when awarding the „Collector" accomplishment"."""
    pos = end_position(
        rs3(),
        fields={
            0: {"HOT_SPRINGS": 1, "BATHHOUSES": 2, "ENCOUNTERS": 3, "SOUVENIRS": 2, "LEGENDARY": 2},
            1: {"HOT_SPRINGS": 2, "ENCOUNTERS": 2, "SOUVENIRS": 3},
            2: {"HOT_SPRINGS": 2, "BATHHOUSES": 0, "ENCOUNTERS": 0, "SOUVENIRS": 0},
        },
        calligraphy={1: ["nostalgia"]},
        mode=mode,
    )
    kern(end_achievements_nb, mode)(pos.pub, pos.ru)
    # Bather 3/2/2 -> p0; Chatterbox 3/3/0 -> p0 and p1; Collector 4/3/0 -> p0; Gourmet nobody (all 0)
    assert [int(pos.ps[t, PF.ACHIEVEMENTS]) for t in range(3)] == [3, 1, 0]
    assert [int(pos.ps[t, PF.PTS_ACHIEVEMENTS]) for t in range(3)] == [9, 3, 0]


# ------------------------------------------------------------------ property: kernel vs referee
@settings(max_examples=150, deadline=None, database=None)
@given(
    n=st.integers(2, 5),
    mask=st.integers(1, 63),
    coins=st.integers(0, 20),
    pans=st.tuples(st.integers(0, 3), st.integers(0, 4), st.integers(0, 5)),
    cherry=st.integers(0, 5),
    legendary=st.integers(0, 6),
    souvenirs=st.integers(0, 12),
    achievements=st.integers(0, 7),
    inn_meals=st.integers(0, 4),
    order=st.randoms(use_true_random=False),
)
def test_property_calligraphy_matches_referee(
    n, mask, coins, pans, cherry, legendary, souvenirs, achievements, inn_meals, order
) -> None:
    """Seed 002 "Kalligrafie-Karten", C32-C34: for any holding and any order of arrival at Edo the
    kernel's Calligraphy points equal the sum of the referee's ``calligraphy_points`` per card."""
    rs = make_rules(xr_config(n))
    nt = n + (n == 2)
    stamps = list(range(1, nt + 1))
    order.shuffle(stamps)
    names = [CALLI_NAMES[k] for k in range(6) if mask >> k & 1]
    pos = end_position(
        rs,
        n=n,
        arrival=stamps,
        coins=[coins] * n,
        panoramas={0: list(pans)},
        fields={
            0: {
                "CHERRY": cherry,
                "LEGENDARY": legendary,
                "SOUVENIRS": souvenirs,
                "ACHIEVEMENTS": achievements,
                "INN_MEALS": inn_meals,
            }
        },
        calligraphy={0: names},
    )
    got = calli_points(pos, "jit")
    arrival = sorted(stamps).index(stamps[0])
    complete = sum(1 for k, length in enumerate((3, 4, 5)) if pans[k] >= length)
    want = sum(
        calligraphy_points(
            getattr(Calli, name.upper()),
            rs.rules.params,
            coins=coins,
            complete_panoramas=complete,
            cherry_trees=cherry,
            legendary=legendary,
            souvenirs=souvenirs,
            arrival=arrival,
            n_travelers=nt,
            achievements=achievements,
            calligraphy=len(names),
            inn_meals=inn_meals,
        )
        for name in names
    )
    assert got == want
