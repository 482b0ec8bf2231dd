"""The referee's Matsuri rules for the next leg and the next Inn, and the festival itself, on hand-built
referee states (helpers: tests/helpers/referee_matsuri.py).

Closed spaces (Kamiarisai, Mura matsuri, Friendship on a half-closed double), Cho-yo, the draw of 2
and keep of 1 by the first player to arrive, Hanabi, Gion, Hadaka, Yama no Ko, o-Taue, o-Hanami,
and a log fed event by event up to its first festival. Each test quotes seed 002 or names the
default of ``../shared/research/expansions.md`` part A.
"""

from __future__ import annotations

from collections import deque

import pytest

from kernels.tokaido.core.enums import Ev, Space
from sim.games.tokaido.referee.game import Referee
from sim.games.tokaido.referee.state import Illegal
from tests.helpers.referee_matsuri import FOUR, MOUNTAIN_T, at_inn, card, drive, effect, mcfg, mref, r6, stack


def test_kamiarisai_closes_the_temples_of_the_next_leg() -> None:
    """Seed 002 (Kamiarisai): "Until the next Inn, each Temple closes one of its spaces"; a closed
    space is no legal stop for anyone, the Neutral included (M12); the next Inn reopens it."""
    ref = mref(2, "satsuki,chuubei")
    st = ref.state
    inn = at_inn(ref, [0, 1, 2])
    c = card(ref, "kamiarisai")
    drive(ref, effect(ref, "kamiarisai", inn), [r6(Ev.CLOSE, -1, 16, 1, c), r6(Ev.CLOSE, -1, 21, 1, c)])
    assert "closed by a matsuri" in (st.why_illegal(2, 16) or "").lower()
    assert st.why_illegal(0, 21) is not None and st.why_illegal(0, 15) is None
    drive(
        ref, ref.matsuri.inn_matsuri(st.inn_visit(st.last)), []
    )  # the Travelers reach the next Inn (here Edo)
    assert st.m.closed == {} and st.m.leg == [] and st.why_illegal(2, 16) is None


def test_mura_half_closes_a_double_farm() -> None:
    """Seed 002 (Mura matsuri): a double Farm "close[s] their second space ... They become single-space";
    at 4-5 travelers one traveler may still stop there, a second may not (Friendship may, M12)."""
    ref = mref(4, FOUR)
    st = ref.state
    inn = at_inn(ref, [0, 1, 2, 3])
    c = card(ref, "mura")
    with pytest.raises(Illegal, match="next station to close is 17"):
        drive(ref, effect(ref, "mura", inn), [r6(Ev.CLOSE, -1, 17, 1, c)])
    ref = mref(4, FOUR)
    st = ref.state
    inn = at_inn(ref, [0, 1, 2, 3])
    drive(ref, effect(ref, "mura", inn), [r6(Ev.CLOSE, -1, 17, 0, c), r6(Ev.CLOSE, -1, 26, 1, c)])
    assert st.why_illegal(0, 17) is None
    st.move(0, 17)
    assert "full" in (st.why_illegal(1, 17) or "")
    assert st.why_illegal(1, 17, friendship=True) is None


def test_cho_yo_cheaper_meals_at_the_next_inn() -> None:
    """Seed 002 (Cho-yo): at the next Inn "all the Meal cards cost 1 coin less ... (the Meal cards worth
    1 coin are free)"."""
    ref = mref()
    st = ref.state
    drive(ref, effect(ref, "choyo", at_inn(ref, [0, 1, 2])), [])
    nxt = st.m.cho_yo_at
    assert nxt == st.next_inn(st.travelers[0].pos)
    tr = st.travelers[0]
    costs = {m.cost: i for i, m in enumerate(ref.rules.meals)}
    assert st.meal_price(tr, costs[1]) == 1  # not yet: this Inn
    tr.pos = nxt
    assert [st.meal_price(tr, costs[k]) for k in (1, 2, 3)] == [0, 1, 2]


def test_the_first_player_to_arrive_draws_two_keeps_one() -> None:
    """Seed 002: "Once ALL the Travelers have arrived ... the first player to arrive at the Inn draws 2
    Matsuri ... chooses one and places the other under the stack"; at 2 players the Neutral is no
    player (M4): here it arrived first, so p1 chooses."""
    ref = mref(2, "satsuki,chuubei")
    st = ref.state
    stack(ref, "setsubun", "tango")
    inn = at_inn(ref, [2, 1, 0])
    s, t = card(ref, "setsubun"), card(ref, "tango")
    rows = [
        r6(Ev.DRAW, 1, 9, s),
        r6(Ev.DRAW, 1, 9, t),
        r6(Ev.MATSURI, 1, t, s, 1, 0),
        r6(Ev.TOKEN, 1, 1, 1, t, -1),
    ]
    drive(ref, ref.matsuri.inn_matsuri(inn), rows)
    assert (st.m.kept, st.m.rejected, st.m.stack.cards[-1]) == ([t, -1, -1], [s, -1, -1], s)
    assert st.travelers[1].carps == 1 and st.travelers[0].carps == 0
    ref = mref(2, "satsuki,chuubei")
    stack(ref, "setsubun", "tango")
    with pytest.raises(Illegal, match="traveler 1"):
        drive(ref, ref.matsuri.inn_matsuri(at_inn(ref, [2, 1, 0])), [r6(Ev.DRAW, 2, 9, s)])
    ref = mref(2, "satsuki,chuubei")
    stack(ref, "setsubun", "tango")
    with pytest.raises(Illegal, match="keeps one"):
        drive(
            ref,
            ref.matsuri.inn_matsuri(at_inn(ref, [1, 0, 2])),
            [r6(Ev.DRAW, 1, 9, s), r6(Ev.DRAW, 1, 9, t), r6(Ev.MATSURI, 1, 0, s, 1, 0)],
        )


def test_hanabi_brings_two_more_cards() -> None:
    """Seed 002 (Hanabi): "The Traveler who drew and chose this Matsuri immediately and randomly draws 2
    new Matsuri cards. Both ... are put into play and their effects are applied" (in draw order, M18)."""
    ref = mref()
    st = ref.state
    stack(ref, "hanabi", "obon", "choyo", "ohanami")
    h, o, c, k = (card(ref, x) for x in ("hanabi", "obon", "choyo", "ohanami"))
    rows = [
        r6(Ev.DRAW, 0, 9, h),
        r6(Ev.DRAW, 0, 9, o),
        r6(Ev.MATSURI, 0, h, o, 1, 0),
        r6(Ev.DRAW, 0, 9, c),
        r6(Ev.DRAW, 0, 9, k),
        r6(Ev.MATSURI, 0, c, -1, 1, 1),
        r6(Ev.MATSURI, 0, k, -1, 1, 1),
    ]
    inn = at_inn(ref, [0, 1, 2])
    drive(ref, ref.matsuri.inn_matsuri(inn), rows)
    assert (st.m.hanabi, st.m.leg, st.m.cho_yo_at) == ([c, k], ["ohanami"], st.next_inn(inn.pos))


def test_gion_choose_the_encounter_then_reshuffle() -> None:
    """Seed 002 (Gion matsuri): a stopper at an Encounter "can choose his encounter from those remaining in
    the stack ... Once the Encounter is chosen, shuffle the stack again"."""
    ref = mref()
    st = ref.state
    st.m.leg = ["gion"]
    pile = st.piles[3]
    pile.cards = deque([0, 1, 6, 2])
    g = card(ref, "gion")
    rows = [
        r6(Ev.PICK, 0, 3, 6, g),
        r6(Ev.DECK, -1, 3, 2),
        r6(Ev.DECK, -1, 3, 0),
        r6(Ev.DECK, -1, 3, 1),
        r6(Ev.GAIN, 0, 3, 6, 0),
    ]
    drive(ref, ref.stations.encounter(st.travelers[0], station=True), rows)  # card 6: a samurai, 3 points
    assert (list(pile.cards), st.travelers[0].encounters, st.travelers[0].points["pts_encounters"]) == (
        [2, 0, 1],
        [6],
        3,
    )
    pile.cards = deque([0, 1])
    with pytest.raises(Illegal, match="reshuffled"):
        drive(
            ref,
            ref.stations.encounter(st.travelers[1], station=True),
            [r6(Ev.PICK, 1, 3, 0, g), r6(Ev.DECK, -1, 3, 0)],
        )


def test_hadaka_an_encounter_before_the_hot_spring() -> None:
    """Seed 002 (Hadaka matsuri): a stopper at a Hot Spring "can draw 1 Encounter card and apply the
    effect before making the usual choice"; drawn blind (M7); Umegae earns her point and coin."""
    ref = mref(3, "umegae,chuubei,hiroshige")
    st = ref.state
    st.m.leg = ["hadaka"]
    st.piles[3].cards = deque([2, 6])  # a kuge on top: 3 coins
    tr = st.travelers[0]
    drive(
        ref,
        ref.matsuri.leg_stop(tr, Space.HOT_SPRING),
        [r6(Ev.OPTION, 0, 8, 1), r6(Ev.DRAW, 0, 3, 2), r6(Ev.GAIN, 0, 3, 2, 0)],
    )
    assert (tr.coins, tr.points["pts_other"], tr.encounters) == (5 + 1 + 3, 1, [2])
    drive(ref, ref.matsuri.leg_stop(st.travelers[1], Space.HOT_SPRING), [r6(Ev.OPTION, 1, 8, 0)])
    with pytest.raises(Illegal, match="top of the encounter pile"):
        drive(ref, ref.matsuri.leg_stop(tr, Space.HOT_SPRING), [r6(Ev.OPTION, 0, 8, 1), r6(Ev.DRAW, 0, 3, 0)])


def test_yama_no_ko_otaue_ohanami_at_panorama_stops() -> None:
    """Seed 002: Yama no Ko, "1 additional Mountain Panorama section, before making the usual choice";
    o-Taue, "1 coin from the bank and donate it to the Temple in his name"; o-Hanami, a stopper at a
    Panorama "receives 1 coin from the bank"."""
    ref = mref()
    st = ref.state
    st.m.leg = ["yama_no_ko", "otaue", "ohanami"]
    tr = st.travelers[0]
    tr.panorama[MOUNTAIN_T] = 3
    drive(
        ref,
        ref.matsuri.leg_stop(tr, Space.MOUNTAIN),
        [r6(Ev.OPTION, 0, 9, 1), r6(Ev.PANORAMA, 0, MOUNTAIN_T, 5)],
    )
    assert (tr.panorama[MOUNTAIN_T], tr.points["pts_panoramas"], tr.points["pts_achievements"], tr.coins) == (
        4,
        4,
        3,
        6,
    )
    drive(
        ref, ref.stations.base(tr, Space.MOUNTAIN, True), []
    )  # completed by Yama no Ko: the base action gives nothing
    p1 = st.travelers[1]
    drive(ref, ref.matsuri.leg_stop(p1, Space.PADDY), [r6(Ev.OPTION, 1, 10, 1)])
    assert (p1.donated, p1.points["pts_temple"], p1.coins) == (1, 1, 6)
    drive(ref, ref.matsuri.leg_stop(st.travelers[2], Space.SEA), [])
    assert st.travelers[2].coins == 6


# ====================================================================== a log, fed event by event
def test_a_logged_game_reaches_its_first_matsuri() -> None:
    """The referee reads the Matsuri stack at set-up (deck 9) and runs the festival after the last
    arrival's meal and the leftover meals (expansions.md M2), chosen by the first player to arrive."""
    from tests.helpers.referee_logs import xr_setup

    config, rules = mcfg(2, "kinko,sasayakko")
    ref0 = Referee(config, rules)
    tango, hina = card(ref0, "tango"), card(ref0, "hina")
    order = [tango, hina] + [c for c in range(20) if c not in (tango, hina)]
    rows = xr_setup(config, rules)
    last_deck = max(i for i, r in enumerate(rows) if r[0] == Ev.DECK)
    rows[last_deck + 1 : last_deck + 1] = [r6(Ev.DECK, -1, 9, c) for c in order]
    inn = rules.board_types.index(0, 1)
    rows += [r6(Ev.MOVE, 0, inn, 0)] + [r6(Ev.DRAW, 0, 1, m) for m in range(4)]  # kinko: no meal
    rows += [r6(Ev.MOVE, 1, inn, 1), r6(Ev.MOVE, 2, inn, 0), r6(Ev.OFFER, 2, 0), r6(Ev.UNDER, -1, 1, 0)]
    rows += [r6(Ev.UNDER, -1, 1, m) for m in (1, 2, 3)]
    rows += [
        r6(Ev.DRAW, 0, 9, tango),
        r6(Ev.DRAW, 0, 9, hina),
        r6(Ev.MATSURI, 0, hina, tango, 1, 0),
        r6(Ev.TOKEN, 1, 0, 1, hina, -1),
    ]
    ref = Referee(config, rules)
    ref.feed_all(rows)
    assert ref.errors == [], ref.errors
    st = ref.state
    assert (st.m.kept[0], st.m.rejected[0], st.m.stack.cards[-1]) == (hina, tango, tango)
    assert (st.travelers[1].dolls, st.travelers[1].points["pts_matsuri"], st.travelers[0].dolls) == (1, 1, 0)
    bad = [*rows[:-4], r6(Ev.DRAW, 0, 9, hina)]
    ref = Referee(config, rules)
    ref.feed_all(bad)
    assert "top of the matsuri stack" in ref.errors[0]


def test_friendship_on_a_half_closed_double_is_a_choice() -> None:
    """M12: a half-closed double counts as a single space, so Friendship may open it beside its occupant;
    ``matsuri.choices.friendship_on_half_closed = false`` forbids it. A fully closed space never opens."""
    for value in ("true", "false"):
        ref = mref(4, FOUR, overrides=(("matsuri.choices.friendship_on_half_closed", value),))
        st = ref.state
        at_inn(ref, [0, 1, 2, 3])
        st.m.closed = {17: 1, 26: 1}
        st.move(0, 17)
        assert "closed" in (st.why_illegal(1, 26, friendship=True) or "")
        if value == "true":
            assert st.why_illegal(1, 17, friendship=True) is None
        else:
            assert "half closed" in (st.why_illegal(1, 17, friendship=True) or "")
