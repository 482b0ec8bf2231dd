"""Matsuri cards meeting the Matsuri and promo Travelers, in the referee (docs/rules.md MI1..).

The same rules as ``tests/kernels/tokaido/matsuri/test_cards_meet_travelers.py`` (the kernels), on hand-built
referee
states driven with the log rows the kernels would write (helpers: ``tests/helpers/referee_matsuri.py``).
A handler that wants a row the test does not give, or refuses one it gives, fails the test.
"""

from __future__ import annotations

from collections import deque

import pytest

from kernels.tokaido.core.enums import Ability, Deck, Ev, Opt, Space
from sim.games.tokaido.referee.game import Referee
from sim.games.tokaido.referee.state import Event, Illegal
from tests.helpers.referee_logs import cfg
from tests.helpers.referee_matsuri import at_inn, card, drive, effect, mref, r6, stack

INN1 = 14
MISOSHIRU, SUSHI, UNAGI, UDON, FUGU = 0, 13, 19, 21, 22  # meal ids (costs 1, 2, 3, 3, 3)
CHOYO = (("matsuri.draw", "1"),)  # one card drawn: the kept card is the stack's top


def arrive(ref: Referee, t: int, before: list[int], pile: list[int], hand: list[int] = ()):
    """Traveler ``t`` reaches the first Inn after ``before``; the meal pile and the Inn's hand as given."""
    st = ref.state
    for u in [*before, t]:
        st.move(u, INN1)
    inn = st.inn_visit(INN1)
    inn.arrived = list(before)
    inn.hand = list(hand)
    st.piles[Deck.MEAL].cards = deque(pile)
    return st.travelers[t], inn


def drive_to(ref: Referee, gen, rows: list) -> None:
    """``drive``, for a handler that ends by looking at the next row (a meal paid for asks whether Devotion
    is used): an ``END`` row follows ``rows``; the handler must take every row and leave that one."""
    events = iter([Event(i, *r) for i, r in enumerate([*rows, r6(Ev.END)])])
    try:
        next(gen)
        for e in events:
            gen.send(e)
    except StopIteration:
        assert list(events) == [] and ref.ctx.pending is not None and ref.ctx.pending.kind == Ev.END, (
            "rows left over"
        )
        ref.ctx.pending = None
        return
    raise AssertionError(f"the handler wants more rows: expecting {ref.expecting}")


# ------------------------------------------------------------------ MI1 Kamui + Cho-yo
@pytest.mark.parametrize("cancels", ["true", "false"])
def test_kamui_meal_made_free_by_choyo_in_the_referee(cancels: str) -> None:
    """002:L603-605 with Cho-yo (002:L1537-1545): Kamui with no coin, first at the Cho-yo Inn, takes a
    1-coin Misoshiru for 0 (the hand is 3 + 1 + Cho-yo's 2 cards); MT-Kamui: it cancels his 3 points
    (``abilities.kamui_free_meal_cancels``; false: he scores). Without Cho-yo that meal costs 1."""
    ref = mref(3, "kamui,kinko,satsuki", overrides=(("abilities.kamui_free_meal_cancels", cancels),))
    ref.state.m.cho_yo_at = INN1
    pile = [MISOSHIRU, SUSHI, UNAGI, UDON, FUGU, 23, 24]
    kamui, _ = arrive(ref, 0, [], pile)
    kamui.coins = 0
    rows = [r6(Ev.DRAW, 0, Deck.MEAL, c) for c in pile[:6]] + [r6(Ev.GAIN, 0, Deck.MEAL, MISOSHIRU, 0)]
    drive_to(ref, ref.inns.inn(kamui), rows)
    assert (len(kamui.meals), kamui.points["pts_other"]) == (1, 0 if cancels == "true" else 3)
    ref = mref(3, "kamui,kinko,satsuki")
    kamui, _ = arrive(ref, 0, [], pile)
    kamui.coins = 0
    with pytest.raises(Illegal, match="price 1"):
        drive_to(
            ref,
            ref.inns.inn(kamui),
            [r6(Ev.DRAW, 0, Deck.MEAL, c) for c in pile[:4]] + [r6(Ev.GAIN, 0, Deck.MEAL, MISOSHIRU, 0)],
        )


# ------------------------------------------------------------------ MI2 Mari + o-Bon
def test_mari_obon_one_point_per_coin_in_the_referee() -> None:
    """M14, MT-Mari: o-Bon's donation is no Temple stop, so Mari scores 1 point per coin, not 2 (002:L611)."""
    ref = mref(3, "mari,kinko,satsuki")
    mari = ref.state.travelers[0]
    rows = [r6(Ev.OPTION, 0, Opt.OBON, 3), r6(Ev.OPTION, 1, Opt.OBON, 0), r6(Ev.OPTION, 2, Opt.OBON, 0)]
    drive(ref, effect(ref, "obon", at_inn(ref, [0, 1, 2])), rows)
    assert (mari.points["pts_temple"], mari.donated, mari.coins) == (3, 3, 2)


# ------------------------------------------------------------------ MI3 Suseri + Doll
def test_suseri_doll_is_no_souvenir_card_type_in_the_referee() -> None:
    """MT-Suseri: Doll/Carp tokens are not among her 12 card types (M17): with Hina matsuri's Doll and a
    meal she counts 1 type."""
    ref = mref(3, "suseri,kinko,satsuki")
    suseri = ref.state.travelers[0]
    suseri.meals.append(SUSHI)
    hina = card(ref, "hina")
    drive(
        ref,
        effect(ref, "hina", at_inn(ref, [0, 1, 2])),
        [r6(Ev.TOKEN, 0, 0, 1, hina, -1), r6(Ev.TOKEN, 2, 0, 1, hina, -1)],
    )  # Suseri, Satsuki: female
    assert (suseri.dolls, suseri.souvenirs) == (1, [])
    ref.travelers.suseri()
    assert suseri.points["pts_other"] == 1


# ------------------------------------------------------------------ MI4 Marihito + o-Tsukimi
def test_marihito_cannot_double_the_otsukimi_card_in_the_referee() -> None:
    """M22, MT-Marihito: o-Tsukimi's shared card is nobody's, so Marihito doubles his own Contemplation
    (6), and the shared Foresight (8 with 4 coins) scores once: 20, not 22 (002:L613-615)."""
    ref = mref(3, "marihito,kinko,satsuki")
    st = ref.state
    marihito = st.travelers[0]
    names = list(ref.rules.calligraphy)
    marihito.coins, marihito.panorama, marihito.cherry_trees = 4, [3, 0, 0], 3
    marihito.calligraphy = [names.index("contemplation")]
    st.m.shared_calligraphy = [names.index("foresight")]
    ref.crossroads.score_calligraphy()
    ref.matsuri.score_shared_calligraphy()
    assert marihito.points["pts_calligraphy"] == 2 * 6 + 8


# ------------------------------------------------------------------ MI5 Yashima + Tori no Ichi
def test_yashima_arrival_amulet_comes_before_tori_no_ichi_in_the_referee() -> None:
    """A5, M2, M15: Yashima, last to arrive, takes her free Amulet on arrival; the festival comes after
    her meal, and Tori no Ichi gives her nothing (002:L1280-1285: "If a player already has an Amulet,
    he doesn't benefit"); Kinko and Satsuki, in arrival order, each get one."""
    ref = mref(3, "yashima,kinko,satsuki", overrides=CHOYO)
    st = ref.state
    st.amulet_market = [0, 1, 2, 3]
    stack(ref, "tori_no_ichi")
    tori = card(ref, "tori_no_ichi")
    yashima, _ = arrive(ref, 0, [1, 2], [])
    rows = [
        r6(Ev.GAIN, 0, Deck.AMULET, 2, 0),
        r6(Ev.DRAW, 1, Deck.MATSURI, tori),
        r6(Ev.MATSURI, 1, tori, -1, 1, 0),
        r6(Ev.GAIN, 1, Deck.AMULET, 0, 0),
        r6(Ev.GAIN, 2, Deck.AMULET, 1, 0),
    ]
    drive(ref, ref.inns.inn(yashima), rows)
    assert (yashima.amulets, st.travelers[1].amulets, st.travelers[2].amulets, st.amulet_market) == (
        {2},
        {0},
        {1},
        [3],
    )
    ref = mref(3, "yashima,kinko,satsuki", overrides=CHOYO)
    ref.state.amulet_market = [0, 1, 2, 3]
    stack(ref, "tori_no_ichi")
    yashima, _ = arrive(ref, 0, [1, 2], [])
    with pytest.raises(Illegal, match="got traveler 0"):  # a second Amulet for her is refused
        drive(ref, ref.inns.inn(yashima), [*rows[:3], r6(Ev.GAIN, 0, Deck.AMULET, 0, 0)])


# ------------------------------------------------------------------ MI6 Misaki / Takeru + Hadaka, o-Bon,
# o-Taue
def test_watchers_take_no_coin_for_matsuri_donations_and_encounters_in_the_referee() -> None:
    """MT-Misaki/Takeru: Hadaka's Encounter (M7), o-Bon's (M14) and o-Taue's (M26) coins are not stops:
    no ``MT_COIN`` for Takeru or Misaki; a stop at an Encounter or a Temple does pay them."""
    ref = mref(3, "takeru,misaki,kinko")
    st = ref.state
    takeru, misaki, kinko = st.travelers
    st.m.leg = ["hadaka", "otaue"]
    st.piles[Deck.ENCOUNTER].cards = deque([2, 6])  # a kuge on top: 3 coins
    drive(
        ref,
        ref.matsuri.leg_stop(kinko, Space.HOT_SPRING),
        [
            r6(Ev.OPTION, 2, Opt.HADAKA, 1),
            r6(Ev.DRAW, 2, Deck.ENCOUNTER, 2),
            r6(Ev.GAIN, 2, Deck.ENCOUNTER, 2, 0),
        ],
    )
    drive(ref, ref.matsuri.leg_stop(kinko, Space.PADDY), [r6(Ev.OPTION, 2, Opt.OTAUE, 1)])
    drive(
        ref,
        effect(ref, "obon", at_inn(ref, [2, 0, 1])),
        [r6(Ev.OPTION, 2, Opt.OBON, 2), r6(Ev.OPTION, 0, Opt.OBON, 0), r6(Ev.OPTION, 1, Opt.OBON, 0)],
    )
    assert (kinko.encounters, kinko.donated, takeru.coins, misaki.coins) == ([2], 3, 5, 5)
    drive(ref, ref.travelers.watchers(kinko, Space.ENCOUNTER), [r6(Ev.MT_COIN, 0, 1, -1, Ability.TAKERU)])
    drive(ref, ref.travelers.watchers(kinko, Space.TEMPLE), [r6(Ev.MT_COIN, 1, 1, -1, Ability.MISAKI)])
    assert (takeru.coins, misaki.coins) == (6, 6)


# ------------------------------------------------------------------ MI7 Kidzuna, Eriku + Cho-yo
@pytest.mark.parametrize("choyo", [True, False])
def test_kidzuna_extra_meal_costs_one_less_with_choyo_in_the_referee(choyo: bool) -> None:
    """002:L606-607 "at the indicated cost", with Cho-yo's 1 coin off at its Inn (M24, MT-Kidzuna): with 1
    coin she buys the 2-coin Sushi for 1; without Cho-yo she cannot, and it goes under the pile."""
    ref = mref(3, "kidzuna,kinko,satsuki")
    if choyo:
        ref.state.m.cho_yo_at = INN1
    kidzuna, inn = arrive(ref, 0, [], [SUSHI, UDON, FUGU])
    kidzuna.coins = 1
    rows = [r6(Ev.DRAW, 0, Deck.MEAL, SUSHI)]
    if choyo:
        rows += [r6(Ev.OPTION, 0, Opt.KIDZUNA, 1), r6(Ev.GAIN, 0, Deck.MEAL, SUSHI, 1)]
    else:
        rows += [r6(Ev.UNDER, -1, Deck.MEAL, SUSHI)]
    (drive_to if choyo else drive)(ref, ref.travelers.mt_arrival(kidzuna, inn), rows)
    assert (len(kidzuna.meals), kidzuna.coins) == ((1, 0) if choyo else (0, 1))


def test_eriku_top_card_costs_one_less_with_choyo_in_the_referee() -> None:
    """P4: "Cho-yo applies to his card" (M24): Eriku with 1 coin buys the top card, a 2-coin Sushi, for 1."""
    config, rules = cfg(3, "eriku,kinko,satsuki", (), ("crossroads", "matsuri", "promos"))
    ref = Referee(config, rules)
    st = ref.state
    for tr, name in zip(st.players(), ("eriku", "kinko", "satsuki"), strict=True):
        st.assign_traveler(tr, rules.traveler_index(name), -1)
    st.m.cho_yo_at = INN1
    eriku, inn = arrive(ref, 0, [], [SUSHI, UNAGI], hand=[UDON, FUGU])
    eriku.coins = 1
    drive_to(
        ref,
        ref.inns.meal(eriku, inn),
        [r6(Ev.DRAW, 0, Deck.MEAL, SUSHI), r6(Ev.LOOK, 0, SUSHI, 1), r6(Ev.GAIN, 0, Deck.MEAL, SUSHI, 1)],
    )
    assert (eriku.meals, eriku.coins, inn.hand) == ([SUSHI], 0, [UDON, FUGU])


# ------------------------------------------------------------------ MI8 arrivals before the festival
@pytest.mark.parametrize("last", ["chihaya", "kidzuna", "yashima"])
def test_arrival_abilities_come_before_the_festival_in_the_referee(last: str) -> None:
    """A5, M2, M4: the last to arrive uses her arrival ability (Chihaya's Hot Spring, Kidzuna's look,
    Yashima's Amulet) and eats; then the leftover meals go under and the first *player* to arrive
    draws the festival (the Neutral came first). Hina matsuri: her Doll; the Neutral takes none (M28)."""
    ref = mref(2, f"{last},kinko", overrides=CHOYO)
    st = ref.state
    st.amulet_market = [0, 1]
    st.piles[Deck.HOT_SPRING].cards = deque([0, 1])
    stack(ref, "hina")
    hina = card(ref, "hina")
    tr, _ = arrive(ref, 0, [2, 1], [SUSHI], hand=[UDON, FUGU])
    tr.coins = 0
    ability = {
        "chihaya": [r6(Ev.DRAW, 0, Deck.HOT_SPRING, 0), r6(Ev.GAIN, 0, Deck.HOT_SPRING, 0, 0)],
        "kidzuna": [r6(Ev.DRAW, 0, Deck.MEAL, SUSHI), r6(Ev.UNDER, -1, Deck.MEAL, SUSHI)],
        "yashima": [r6(Ev.GAIN, 0, Deck.AMULET, 1, 0)],
    }[last]
    festival = [
        r6(Ev.DRAW, 1, Deck.MATSURI, hina),
        r6(Ev.MATSURI, 1, hina, -1, 1, 0),
        r6(Ev.TOKEN, 0, 0, 1, hina, -1),
    ]
    leftovers = [r6(Ev.UNDER, -1, Deck.MEAL, UDON), r6(Ev.UNDER, -1, Deck.MEAL, FUGU)]
    drive(ref, ref.inns.inn(tr), ability + leftovers + festival)
    assert (st.m.kept[0], tr.dolls, st.travelers[2].dolls) == (hina, 1, 0)
    ref = mref(2, f"{last},kinko", overrides=CHOYO)
    ref.state.amulet_market = [0, 1]
    ref.state.piles[Deck.HOT_SPRING].cards = deque([0, 1])
    stack(ref, "hina")
    tr, _ = arrive(ref, 0, [2, 1], [SUSHI], hand=[UDON, FUGU])
    tr.coins = 0
    with pytest.raises(Illegal, match="got traveler 1|expected"):  # no festival before her arrival ability
        drive(ref, ref.inns.inn(tr), festival[:1])
