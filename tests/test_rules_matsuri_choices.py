"""The Matsuri rule alternatives as parameters (issue 14; docs/rules-choices.md M4, M18, MT-Mari, MT-Kidzuna).

Each choice is tested in the kernels (hand-built ``tests/positions.py`` positions, jit and no-jit) and in
the referee (hand-built referee states, ``tests/test_referee_matsuri.py`` helpers), with the research
file's default and with its alternative (``--set``).
"""

from __future__ import annotations

import pytest
from mt_helpers import TEMPLE, mt_rules
from positions import BOTH, amulet_ids, begin_turn, xr_position
from test_referee_matsuri import mref, r6

from kernels.core.enums import PF, Bot, Deck, Ev, Space
from sim.referee.state import Illegal

TRIO = ["kinko", "satsuki"]
NO_FREE_STOP = (("abilities.mari_free_temple", "false"),)


# ------------------------------------------------------------------ MT-Mari: a coinless Temple stop
@BOTH
@pytest.mark.parametrize("free", [True, False])
def test_mari_stops_at_a_temple_without_a_coin(mode: str, free: bool) -> None:
    """002:L612 "If she decides to buy an Amulet, Mari can take it for free" (MT-Mari, INFERRED default):
    with 0 coins the Temple is a legal stop for her while an Amulet is left, and she takes it there
    (option 1, the only one: no coin to donate). ``abilities.mari_free_temple = false``: the base rule."""
    rs = mt_rules(["mari", *TRIO], () if free else NO_FREE_STOP)
    pos = xr_position(rs, travelers=["mari", *TRIO], positions=[0, 10, 12], coins=[0, 0, 5],
                      markets={"amulets": ["devotion"]}, mode=mode)
    t, _, legal = begin_turn(pos)
    assert t == 0 and (TEMPLE in legal) == free
    if not free:
        return
    (dev,) = amulet_ids(rs, "devotion")
    for seed in range(8):  # the random tier too: never the base action (its 50% would show in 8 tries)
        pos = xr_position(rs, travelers=["mari", *TRIO], positions=[0, 10, 12], coins=[0, 0, 5], bots=Bot.RANDOM,
                          markets={"amulets": ["devotion"]}, seed=seed, mode=mode)
        pos.stop(0, TEMPLE)
        assert (Ev.CHOICE, 0, Space.TEMPLE, 1, -1, -1) in pos.events(Ev.CHOICE)
        assert (Ev.GAIN, 0, Deck.AMULET, dev, 0, -1) in pos.events(Ev.GAIN)
        assert pos.ps[0, PF.COINS] == 0 and pos.ps[0, PF.DONATED] == 0


@BOTH
def test_mari_needs_an_amulet_left_for_a_coinless_stop(mode: str) -> None:
    """MT-Mari: without an Amulet in the market the free option is gone, so a coin is needed again;
    other Travelers with no coin never stop at a Temple (rulebook "Temple")."""
    rs = mt_rules(["mari", *TRIO])
    pos = xr_position(rs, travelers=["mari", *TRIO], positions=[0, 10, 12], coins=[0, 0, 5],
                      markets={"amulets": []}, mode=mode)
    assert TEMPLE not in begin_turn(pos)[2]
    rs = mt_rules(["kinko", "mari", "satsuki"])
    pos = xr_position(rs, travelers=["kinko", "mari", "satsuki"], positions=[0, 10, 12], coins=[0, 0, 5],
                      markets={"amulets": ["devotion"]}, mode=mode)
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
        gen = ref._station_choice(st.travelers[0], Space.TEMPLE)
        next(gen)
        gen.send(ref_event(r6(Ev.CHOICE, 0, Space.TEMPLE, 0)))
    gen = ref._station_choice(st.travelers[0], Space.TEMPLE)
    next(gen)
    with pytest.raises(StopIteration) as done:
        gen.send(ref_event(r6(Ev.CHOICE, 0, Space.TEMPLE, 1)))
    assert done.value.value == 1


def ref_event(row: tuple[int, ...]):  # type: ignore[no-untyped-def]
    from sim.referee.state import Event

    return Event(0, *row)
