"""Matsuri cards meeting the Matsuri and promo Travelers, in the kernels (docs/rules.md MI1..).

Hand-made positions (``tests/helpers/positions.py``, the Matsuri stack of
``tests/helpers/matsuri_positions.py``).
Each test quotes seed 002 or names the choice of ``../shared/research/expansions.md`` (M*, MT-*,
P*) it checks; ``tests/games/tokaido/referee/test_matsuri_interactions.py`` checks the same rules in the
referee.
Most positions keep one Matsuri card in the draw (``m_draw = 1``), so no bot choice hides the rule.
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import PF, Ability, Deck, Ev, G, Opt, P
from kernels.tokaido.game.crossroads import calligraphy_scoring_nb
from kernels.tokaido.game.matsuri import tsukimi_scoring_nb
from kernels.tokaido.game.matsuri_travelers import suseri_nb
from tests.helpers.matsuri_positions import matsuri_at, matsuri_ids, set_stack
from tests.helpers.matsuri_travelers import ENCOUNTER, INN1, NO_START, mt_rules
from tests.helpers.positions import (
    BOTH,
    calligraphy_ids,
    give_calligraphy,
    make_rules,
    meal_ids,
    xr_config,
    xr_position,
)

HOT_SPRING2, PADDY2 = 22, 18  # stations of the second leg (Inn 14 to Inn 27)
CHEAP = ("misoshiru", "nigirimeshi", "dango", "sushi", "udon", "soba", "fugu")  # three 1-coin dishes first


def choyo_on(pos) -> None:
    """Cho-yo was kept at the previous Inn: it acts at this one (``G.M_NEXT``)."""
    pos.gs[G.M_NEXT] = 1 << matsuri_ids(pos.rs, "choyo")[0]


def meal_gains(pos) -> list[tuple[int, ...]]:
    return [e for e in pos.events(Ev.GAIN) if e[2] == Deck.MEAL]


# ------------------------------------------------------------------ MI1 Kamui + Cho-yo
@BOTH
@pytest.mark.parametrize("cancels", [True, False])
def test_kamui_meal_made_free_by_choyo(mode: str, cancels: bool) -> None:
    """002:L603-605 "Kamui scores 3 points if he doesn't buy a Meal card" with Cho-yo (002:L1537-1545: "the
    Meal cards worth 1 coin are free"): MT-Kamui, a free meal is a meal card taken, so with no coin he
    eats the free dish and scores nothing (``abilities.kamui_free_meal_cancels = true``); false: he paid
    nothing, so he scores 3. Without Cho-yo he cannot eat and scores 3."""
    rs = mt_rules(
        ["kamui", "kinko", "satsuki"], (("abilities.kamui_free_meal_cancels", str(cancels).lower()),)
    )
    for choyo in (True, False):
        pos = xr_position(
            rs,
            travelers=["kamui", "kinko", "satsuki"],
            positions=[13, 10, 12],
            coins=[0, 5, 5],
            top={Deck.MEAL: meal_ids(rs, *CHEAP)},
            mode=mode,
        )
        if choyo:
            choyo_on(pos)
        pos.stop(0, INN1)
        if choyo:
            (gain,) = meal_gains(pos)
            assert gain[4] == 0 and pos.ps[0, PF.MEALS] == 1
            assert pos.ps[0, PF.PTS_OTHER] == (0 if cancels else 3)
        else:
            assert pos.ps[0, PF.MEALS] == 0 and pos.ps[0, PF.PTS_OTHER] == 3


# ------------------------------------------------------------------ MI2 Mari + o-Bon
@BOTH
def test_mari_obon_one_point_per_coin(mode: str) -> None:
    """002:L611 "When stopping at a Temple space, Mari scores 2 Journey points": o-Bon's donation is no
    Temple stop (M14, MT-Mari), so she scores 1 point per coin, and the coins count for the ranking."""
    rs = mt_rules(["mari", "kinko", "satsuki"], m_draw=1)
    pos = xr_position(
        rs, travelers=["mari", "kinko", "satsuki"], positions=[INN1] * 3, coins=[3, 0, 0], mode=mode
    )
    set_stack(pos, matsuri_ids(rs, "obon"))
    matsuri_at(pos, INN1)
    (opt,) = pos.events(Ev.OPTION)
    d = opt[3]
    assert opt[:3] == (Ev.OPTION, 0, Opt.OBON) and d >= 1
    assert (pos.ps[0, PF.PTS_TEMPLE], pos.ps[0, PF.DONATED], pos.ps[0, PF.COINS]) == (d, d, 3 - d)


# ------------------------------------------------------------------ MI3 Suseri + Doll
@BOTH
def test_suseri_doll_is_no_souvenir_card_type(mode: str) -> None:
    """MT-Suseri: types "counted on cards held at the end ... Doll/Carp tokens ... are not among the 12
    types" (M17: the token is a Souvenir for set scoring only). Suseri (female) gets Hina matsuri's Doll;
    holding a meal and no Souvenir card she scores 1 type, not 2."""
    rs = mt_rules(["suseri", "kinko", "satsuki"], m_draw=1)
    pos = xr_position(
        rs, travelers=["suseri", "kinko", "satsuki"], positions=[INN1] * 3, dishes={0: ["sushi"]}, mode=mode
    )
    set_stack(pos, matsuri_ids(rs, "hina"))
    matsuri_at(pos, INN1)
    fam = int(rs.ru["params"][P.M_DOLL_FAMILY])
    assert (pos.ps[0, PF.DOLLS], pos.ps[0, PF.FAM0 + fam], pos.ps[0, PF.SOUVENIRS]) == (1, 1, 0)
    pos.k(suseri_nb)(pos.pub, pos.ru)
    assert pos.ps[0, PF.PTS_OTHER] == 1


# ------------------------------------------------------------------ MI4 Marihito + o-Tsukimi
@BOTH
def test_marihito_cannot_double_the_otsukimi_card(mode: str) -> None:
    """002:L613-615 "Marihito ... scores one of his Calligraphy cards twice"; o-Tsukimi's card is nobody's
    (M22: "Marihito cannot double it"). The worked example's cards: his own Contemplation (6) doubles,
    the shared Foresight (8 with 4 coins) scores once: 12 + 8 = 20, not 6 + 16 = 22."""
    rs = mt_rules(["marihito", "kinko", "satsuki"])
    pos = xr_position(
        rs,
        travelers=["marihito", "kinko", "satsuki"],
        positions=[54] * 3,
        coins=[4, 0, 0],
        fields={0: {"PAN0": 3, "CHERRY": 3}},
        mode=mode,
    )
    give_calligraphy(pos, 0, "contemplation")
    (foresight,) = calligraphy_ids(rs, "foresight")
    pos.pub["mkt"][2, foresight] = 0
    pos.gs[G.M_TSUKIMI] = foresight + 1
    pos.k(calligraphy_scoring_nb)(pos.pub, pos.ru)
    pos.k(tsukimi_scoring_nb)(pos.pub, pos.ru)
    assert pos.ps[0, PF.PTS_CALLIGRAPHY] == 2 * 6 + 8
    assert pos.ps[1, PF.PTS_CALLIGRAPHY] == 0  # Kinko: no coin, no own card


# ------------------------------------------------------------------ MI5 Yashima + Tori no Ichi
@BOTH
def test_yashima_arrival_amulet_comes_before_tori_no_ichi(mode: str) -> None:
    """002:L564-568 Yashima's free Amulet on arriving at an intermediate Inn (A5: on arrival) comes before the
    festival, drawn once everyone has arrived (002:L1265); Tori no Ichi gives an Amulet to "each Traveler
    who doesn't have an Amulet" (002:L1280-1285), so she gets none (M15); the others each get one."""
    rs = mt_rules(["yashima", "kinko", "satsuki"], m_draw=1)
    pos = xr_position(
        rs,
        travelers=["yashima", "kinko", "satsuki"],
        positions=[13, INN1, INN1],
        coins=[0, 0, 0],
        arrival=[3, 1, 2],
        piles={Deck.MEAL: []},
        mode=mode,
    )
    set_stack(pos, matsuri_ids(rs, "tori_no_ichi"))
    pos.stop(0, INN1)  # the last to arrive
    gains = [e for e in pos.events(Ev.GAIN) if e[2] == Deck.AMULET]
    assert [e[1] for e in gains] == [0, 1, 2]  # hers on arrival, then the festival's in arrival order
    first_matsuri = next(i for i, e in enumerate(pos.events()) if e[0] == Ev.DRAW and e[2] == Deck.MATSURI)
    assert pos.events().index(gains[0]) < first_matsuri < pos.events().index(gains[1])
    assert bin(int(pos.ps[0, PF.AMULETS])).count("1") == 1


# ------------------------------------------------------------------ MI6 Misaki / Takeru + Hadaka, o-Bon,
# o-Taue
@BOTH
@pytest.mark.parametrize("case", ["hadaka", "obon", "otaue"])
def test_watchers_take_no_coin_for_matsuri_donations_and_encounters(mode: str, case: str) -> None:
    """MT-Misaki/Takeru: "Hadaka Encounters, o-Bon and o-Taue are not stops" (M7, M14, M26): Takeru takes no
    coin for Hadaka's Encounter, Misaki none for o-Bon's or o-Taue's Temple coins; a real Encounter stop
    still pays Takeru (the rule's control)."""
    watcher = "takeru" if case == "hadaka" else "misaki"
    names = [watcher, "kinko", "satsuki"]
    rs = mt_rules(names, m_draw=1)
    if case == "obon":
        pos = xr_position(rs, travelers=names, positions=[INN1] * 3, coins=[3, 3, 3], mode=mode)
        set_stack(pos, matsuri_ids(rs, "obon"))
        matsuri_at(pos, INN1)
        assert sum(e[3] for e in pos.events(Ev.OPTION) if e[2] == Opt.OBON) >= 1
    else:
        pos = xr_position(rs, travelers=names, positions=[INN1] * 3, coins=[3, 3, 3], mode=mode)
        pos.gs[G.M_LEG] = 1 << matsuri_ids(rs, case)[0]
        pos.stop(1, HOT_SPRING2 if case == "hadaka" else PADDY2)
        opt = Opt.HADAKA if case == "hadaka" else Opt.OTAUE
        assert [e[3] for e in pos.events(Ev.OPTION) if e[2] == opt] == [1]
        if case == "hadaka":
            assert pos.ps[1, PF.ENCOUNTERS] == 1
        else:
            assert pos.ps[1, PF.DONATED] == 1
    assert pos.events(Ev.MT_COIN) == [] and pos.ps[0, PF.COINS] == 3 - pos.ps[0, PF.DONATED]
    if case == "hadaka":
        pos.clear_log()
        pos.stop(2, ENCOUNTER)
        assert pos.events(Ev.MT_COIN) == [(Ev.MT_COIN, 0, 1, -1, Ability.TAKERU, -1)]


# ------------------------------------------------------------------ MI7 Kidzuna, Eriku + Cho-yo
@BOTH
def test_kidzuna_extra_meal_costs_one_less_with_choyo(mode: str) -> None:
    """002:L606-607 Kidzuna "reveals the first card of the Meal stack and can buy it at the indicated cost";
    at the Cho-yo Inn "all the Meal cards cost 1 coin less" (002:L1537-1545): M24 and MT-Kidzuna, "Cho-yo
    applies to both meals". With 1 coin she buys a 2-coin Sushi for 1 (without Cho-yo she cannot)."""
    rs = mt_rules(["kidzuna", "kinko", "satsuki"])
    for choyo in (True, False):
        pile = meal_ids(rs, "sushi", "tai_meshi", "fugu", "udon", "soba", "unagi", "donburi")
        pos = xr_position(
            rs,
            travelers=["kidzuna", "kinko", "satsuki"],
            positions=[13, 10, 12],
            coins=[1, 5, 5],
            top={Deck.MEAL: pile},
            mode=mode,
        )
        if choyo:
            choyo_on(pos)
        pos.stop(0, INN1)
        ev = pos.events()
        assert ev[1] == (Ev.DRAW, 0, Deck.MEAL, pile[0], -1, -1)
        if choyo:
            assert ev[2:4] == [
                (Ev.OPTION, 0, Opt.KIDZUNA, 1, -1, -1),
                (Ev.GAIN, 0, Deck.MEAL, pile[0], 1, -1),
            ]
            assert (pos.ps[0, PF.MT_EXTRA_MEALS], pos.ps[0, PF.COINS]) == (1, 0)
        else:
            assert ev[2] == (Ev.UNDER, -1, Deck.MEAL, pile[0], -1, -1) and pos.ps[0, PF.MEALS] == 0


@BOTH
def test_eriku_top_card_costs_one_less_with_choyo(mode: str) -> None:
    """P4 "Cho-yo applies to his card" (M24): Eriku, arriving first at the Cho-yo Inn with 1 coin, looks at
    the card after the 6-card hand (3 players + 1 + Cho-yo's 2) and buys that 2-coin Sushi for 1."""
    rs = make_rules(
        xr_config(3, travelers="eriku,kinko,satsuki", expansions=("matsuri", "promos"), overrides=NO_START)
    )
    pile = meal_ids(rs, "fugu", "tai_meshi", "udon", "unagi", "donburi", "sashimi", "sushi")
    pos = xr_position(
        rs,
        travelers=["eriku", "kinko", "satsuki"],
        positions=[13, 10, 12],
        coins=[1, 5, 5],
        top={Deck.MEAL: pile},
        mode=mode,
    )
    choyo_on(pos)
    pos.stop(0, INN1)
    assert (Ev.LOOK, 0, pile[6], 1, -1, -1) in pos.events()
    assert meal_gains(pos) == [(Ev.GAIN, 0, Deck.MEAL, pile[6], 1, -1)]
    assert (pos.ps[0, PF.ERIKU_TOP], pos.ps[0, PF.COINS]) == (1, 0)


# ------------------------------------------------------------------ MI8 arrivals before the festival
@BOTH
@pytest.mark.parametrize("last", ["chihaya", "kidzuna", "yashima"])
def test_arrival_abilities_come_before_the_festival(mode: str, last: str) -> None:
    """A5 (002:L596: abilities act on arriving at an Inn) and M2 (the festival once every Traveler has
    arrived, used its arrival abilities and eaten): the last to arrive uses hers, eats, and only then is
    the Matsuri drawn; at 2 players the Neutral arrived first, so the first *player* to arrive (the other
    player) draws (M4, ``matsuri.choices.first_arrival_skips_neutral``)."""
    rs = mt_rules([last, "kinko"], m_draw=1)
    pos = xr_position(
        rs,
        travelers=[last, "kinko"],
        positions=[13, INN1, INN1],
        coins=[5, 5],
        arrival=[3, 2, 1],
        hand=meal_ids(rs, "udon", "fugu"),
        mode=mode,
    )
    set_stack(pos, matsuri_ids(rs, "setsubun"))
    pos.stop(0, INN1)
    ev = pos.events()
    deck = {"chihaya": Deck.HOT_SPRING, "kidzuna": Deck.MEAL, "yashima": Deck.AMULET}[last]
    ability = next(i for i, e in enumerate(ev) if e[1] == 0 and e[0] in (Ev.DRAW, Ev.GAIN) and e[2] == deck)
    draw = next(i for i, e in enumerate(ev) if e[0] == Ev.DRAW and e[2] == Deck.MATSURI)
    meal_end = max(i for i, e in enumerate(ev) if e[0] == Ev.UNDER and e[2] == Deck.MEAL)
    assert 1 == ability < meal_end < draw
    assert ev[draw][1] == 1 and pos.events(Ev.MATSURI)[0][1] == 1  # kinko, not the Neutral (traveler 2)
    assert {e[1] for e in pos.events(Ev.DIE)} == {0, 1}  # the Neutral takes part in no card (M28)
