"""Matsuri Travelers' rule alternatives: Mari's coinless Temple stop, Kidzuna's Hospitality.

The research file's defaults (expansions.md A.9, MT-Mari, MT-Kidzuna) as overridable parameters
(``abilities.mari_free_temple``, ``abilities.kidzuna_hospitality``), each tested in the kernels
(hand-built positions, jit and no-jit) and in the referee (hand-built referee states), with the
default and with its alternative.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator

import pytest

from kernels.tokaido.core.enums import PF, Bot, Deck, Ev, Opt, Space
from sim.games.tokaido.referee.state import Event, Illegal
from tests.helpers.matsuri_travelers import INN1, TEMPLE, mt_rules
from tests.helpers.positions import BOTH, amulet_ids, begin_turn, meal_ids, xr_position
from tests.helpers.referee_matsuri import mref, r6

TRIO = ["kinko", "satsuki"]
NO_FREE_STOP = (("abilities.mari_free_temple", "false"),)
KIDZUNA_MAIN = (("abilities.kidzuna_hospitality", "main"),)


# ------------------------------------------------------------------ MT-Mari: a coinless Temple stop
@BOTH
@pytest.mark.parametrize("free", [True, False])
def test_mari_stops_at_a_temple_without_a_coin(mode: str, free: bool) -> None:
    """002:L612 "If she decides to buy an Amulet, Mari can take it for free" (MT-Mari, INFERRED default):
    with 0 coins the Temple is a legal stop for her while an Amulet is left, and she takes it there
    (option 1, the only one: no coin to donate). ``abilities.mari_free_temple = false``: the base rule."""
    rs = mt_rules(["mari", *TRIO], () if free else NO_FREE_STOP)
    pos = xr_position(
        rs,
        travelers=["mari", *TRIO],
        positions=[0, 10, 12],
        coins=[0, 0, 5],
        markets={"amulets": ["devotion"]},
        mode=mode,
    )
    t, _, legal = begin_turn(pos)
    assert t == 0 and (TEMPLE in legal) == free
    if not free:
        return
    (dev,) = amulet_ids(rs, "devotion")
    for seed in range(8):  # the random tier too: never the base action (its 50% would show in 8 tries)
        pos = xr_position(
            rs,
            travelers=["mari", *TRIO],
            positions=[0, 10, 12],
            coins=[0, 0, 5],
            bots=Bot.RANDOM,
            markets={"amulets": ["devotion"]},
            seed=seed,
            mode=mode,
        )
        pos.stop(0, TEMPLE)
        assert (Ev.CHOICE, 0, Space.TEMPLE, 1, -1, -1) in pos.events(Ev.CHOICE)
        assert (Ev.GAIN, 0, Deck.AMULET, dev, 0, -1) in pos.events(Ev.GAIN)
        assert pos.ps[0, PF.COINS] == 0 and pos.ps[0, PF.DONATED] == 0


@BOTH
def test_mari_needs_an_amulet_left_for_a_coinless_stop(mode: str) -> None:
    """MT-Mari: without an Amulet in the market the free option is gone, so a coin is needed again;
    other Travelers with no coin never stop at a Temple (rulebook "Temple")."""
    rs = mt_rules(["mari", *TRIO])
    pos = xr_position(
        rs,
        travelers=["mari", *TRIO],
        positions=[0, 10, 12],
        coins=[0, 0, 5],
        markets={"amulets": []},
        mode=mode,
    )
    assert TEMPLE not in begin_turn(pos)[2]
    rs = mt_rules(["kinko", "mari", "satsuki"])
    pos = xr_position(
        rs,
        travelers=["kinko", "mari", "satsuki"],
        positions=[0, 10, 12],
        coins=[0, 0, 5],
        markets={"amulets": ["devotion"]},
        mode=mode,
    )
    assert TEMPLE not in begin_turn(pos)[2]


@pytest.mark.parametrize("free", [True, False])
def test_referee_mari_coinless_temple_stop(free: bool) -> None:
    """The referee: the same stop is legal for Mari with 0 coins (and only the free Amulet, option 1,
    may follow), illegal with ``abilities.mari_free_temple = false`` or for another Traveler."""
    ref = mref(3, "mari,kinko,satsuki", () if free else NO_FREE_STOP)
    st = ref.state
    st.amulet_market = [0]
    for tr in st.players():
        tr.coins = 0
    temple = next(s for s in range(1, 10) if st.board[s] == Space.TEMPLE)
    assert (st.why_illegal(0, temple) is None) == free
    assert "may not stop at a temple" in (st.why_illegal(1, temple) or "")
    if not free:
        return
    st.move(0, temple)
    with pytest.raises(Illegal, match="no coin to donate"):
        gen = ref.crossroads.station_choice(st.travelers[0], Space.TEMPLE)
        next(gen)
        gen.send(ref_event(r6(Ev.CHOICE, 0, Space.TEMPLE, 0)))
    gen = ref.crossroads.station_choice(st.travelers[0], Space.TEMPLE)
    next(gen)
    with pytest.raises(StopIteration) as done:
        gen.send(ref_event(r6(Ev.CHOICE, 0, Space.TEMPLE, 1)))
    assert done.value.value == (1, False)  # option 1, no Health Amulet


def feed(gen: Generator[None, Event, object], rows: list[tuple[int, ...]]) -> None:
    """Run a referee handler on ``rows`` then one more event of the next turn (a MOVE), where it must end."""
    next(gen)
    for i, r in enumerate([*rows, r6(Ev.MOVE, 1, 20, 1)]):
        try:
            gen.send(Event(i, *r))
        except StopIteration:
            assert i == len(rows), f"the handler ended after {i} of {len(rows)} rows"
            return
    raise AssertionError("the handler wants more rows")


def ref_event(row: tuple[int, ...]) -> Event:
    return Event(0, *row)


# ------------------------------------------------------------------ MT-Kidzuna: Hospitality on either meal
@BOTH
@pytest.mark.parametrize("either", [True, False])
def test_kidzuna_hospitality_pays_her_extra_meal(mode: str, either: bool) -> None:
    """MT-Kidzuna (research default): "The Hospitality Amulet makes one of her two meals free, not both":
    with no coin she may still buy the revealed card, the Amulet paying for it (then it is gone for her
    main meal). ``abilities.kidzuna_hospitality = "main"``: only her main meal, so no extra meal here."""
    rs = mt_rules(["kidzuna", *TRIO], () if either else KIDZUNA_MAIN)
    pile = meal_ids(rs, "tai_meshi", "misoshiru", "dango", "sushi", "udon")
    pos = xr_position(
        rs,
        travelers=["kidzuna", *TRIO],
        positions=[13, 10, 12],
        coins=[0, 5, 5],
        top={Deck.MEAL: pile},
        amulets={0: ["hospitality"]},
        mode=mode,
    )
    (hosp,) = amulet_ids(rs, "hospitality")
    pos.stop(0, INN1)
    ev = pos.events()
    assert ev[1] == (Ev.DRAW, 0, Deck.MEAL, pile[0], -1, -1)
    if either:
        assert ev[2:5] == [
            (Ev.OPTION, 0, Opt.KIDZUNA, 1, -1, -1),
            (Ev.USE, 0, hosp, -1, -1, -1),
            (Ev.GAIN, 0, Deck.MEAL, pile[0], 0, -1),
        ]
        assert pos.ps[0, PF.MT_EXTRA_MEALS] == 1 and pos.ps[0, PF.AMULETS] == 0
    else:
        assert ev[2] == (Ev.UNDER, -1, Deck.MEAL, pile[0], -1, -1) and pos.ps[0, PF.MT_EXTRA_MEALS] == 0


@pytest.mark.parametrize("either", [True, False])
def test_referee_kidzuna_hospitality_on_the_extra_meal(either: bool) -> None:
    """The referee: the same free extra meal (OPTION, USE, GAIN for 0) is legal by default; with
    ``kidzuna_hospitality = "main"`` a coinless Kidzuna is offered no extra meal, so an OPTION is illegal."""
    ref = mref(3, "kidzuna,kinko,satsuki", () if either else KIDZUNA_MAIN)
    st = ref.state
    tr = st.travelers[0]
    tr.coins = 0
    hosp = next(i for i, a in enumerate(ref.rules.amulets) if a == "hospitality")
    tr.amulets.add(hosp)
    st.piles[Deck.MEAL].cards = deque(range(len(ref.rules.meals)))
    card = 0
    rows = [
        r6(Ev.DRAW, 0, Deck.MEAL, card),
        r6(Ev.OPTION, 0, Opt.KIDZUNA, 1),
        r6(Ev.USE, 0, hosp),
        r6(Ev.GAIN, 0, Deck.MEAL, card, 0),
    ]
    if not either:
        with pytest.raises(Illegal, match="expected"):
            feed(ref.travelers.kidzuna(tr), rows)
        return
    feed(ref.travelers.kidzuna(tr), rows)
    assert tr.amulets == set() and tr.coins == 0 and tr.meals == [card]
