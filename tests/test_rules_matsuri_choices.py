"""The Matsuri rule alternatives as parameters (issue 14; docs/rules-choices.md M4, M18, MT-Mari, MT-Kidzuna).

Each choice is tested in the kernels (hand-built ``tests/positions.py`` positions, jit and no-jit) and in
the referee (hand-built referee states, ``tests/test_referee_matsuri.py`` helpers), with the research
file's default and with its alternative (``--set``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator
from typing import Any

import pytest
from matsuri_positions import INN1 as M_INN1
from matsuri_positions import matsuri_at, matsuri_ids, mt_config, mt_position
from mt_helpers import INN1, TEMPLE, mt_rules
from positions import BOTH, amulet_ids, begin_turn, make_rules, meal_ids, xmove, xr_position
from test_referee_matsuri import at_inn, card, drive, mref, r6
from test_referee_matsuri_leg import stack

from kernels.bots.matsuri_order import choose_hanabi_order_nb
from kernels.core.enums import PF, Bot, Deck, DieSrc, Ev, G, Opt, Space
from kernels.game.matsuri_choices import neutral_moved_nb
from sim.referee.state import Event, Illegal

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
    pos = xr_position(rs, travelers=["kidzuna", *TRIO], positions=[13, 10, 12], coins=[0, 5, 5],
                      top={Deck.MEAL: pile}, amulets={0: ["hospitality"]}, mode=mode)
    (hosp,) = amulet_ids(rs, "hospitality")
    pos.stop(0, INN1)
    ev = pos.events()
    assert ev[1] == (Ev.DRAW, 0, Deck.MEAL, pile[0], -1, -1)
    if either:
        assert ev[2:5] == [(Ev.OPTION, 0, Opt.KIDZUNA, 1, -1, -1), (Ev.USE, 0, hosp, -1, -1, -1),
                           (Ev.GAIN, 0, Deck.MEAL, pile[0], 0, -1)]
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
    rows = [r6(Ev.DRAW, 0, Deck.MEAL, card), r6(Ev.OPTION, 0, Opt.KIDZUNA, 1), r6(Ev.USE, 0, hosp),
            r6(Ev.GAIN, 0, Deck.MEAL, card, 0)]
    if not either:
        with pytest.raises(Illegal, match="expected"):
            feed(ref._kidzuna(tr), rows)
        return
    feed(ref._kidzuna(tr), rows)
    assert tr.amulets == set() and tr.coins == 0 and tr.meals == [card]


# ------------------------------------------------------------------ M4: the Neutral's mover chooses
NEUTRAL_MOVER = (("matsuri.choices.first_arrival_skips_neutral", "false"),)
HANABI_CHOOSER = (("matsuri.choices.hanabi_order", "chooser"),)


def mt_inn(overrides: tuple[tuple[str, str], ...], n: int, stack: list[str], mode: str, **kw: Any) -> Any:
    """Everyone at the first intermediate Inn of a Crossroads + Matsuri game (tests/matsuri_positions.py)."""
    r = make_rules(mt_config(n, overrides=overrides))
    nt = n + 1 if n == 2 else n
    names = ["chuubei", "sasayakko", "kinko", "satsuki"][:n]
    return r, mt_position(r, stack=stack, positions=[M_INN1] * nt, travelers=names, mode=mode, **kw)


@BOTH
@pytest.mark.parametrize("skips", [True, False])
def test_neutral_first_its_mover_chooses(mode: str, skips: bool) -> None:
    """M4: the Neutral arrived first at the Inn. Default: "the first *player* to arrive" (p0) draws and
    keeps; ``first_arrival_skips_neutral = false``: the player who moved the Neutral there (p1, by analogy
    with the Neutral's meal, 002:L350). The mover is recorded by the move itself (``move_nb``)."""
    r, pos = mt_inn(() if skips else NEUTRAL_MOVER, 2, ["setsubun", "oshogatsu"], mode, arrival=[2, 3, 1])
    pos.k(neutral_moved_nb)(pos.pub, pos.ru, 1)
    assert pos.gs[G.M_NEUTRAL_MOVER] == (0 if skips else 2)
    matsuri_at(pos, M_INN1)
    (m,) = pos.events(Ev.MATSURI)
    assert m[1] == (0 if skips else 1)
    assert {e[1] for e in pos.events(Ev.DRAW)} == {m[1]}


@BOTH
def test_a_move_of_the_neutral_records_its_mover(mode: str) -> None:
    """M4's alternative needs who moved the Neutral: ``move_nb`` records its controller (the lead player)."""
    r, pos = mt_inn(NEUTRAL_MOVER, 2, [], mode, arrival=[1, 2, 3])
    for t, s in ((0, 20), (1, 18), (2, 3)):
        pos.ps[t, PF.POS] = s
    xmove(pos, 2, 5)
    assert pos.gs[G.M_NEUTRAL_MOVER] == 1  # p0 leads on 20


@pytest.mark.parametrize("skips", [True, False])
def test_referee_neutral_first_its_mover_chooses(skips: bool) -> None:
    """The referee: the same Inn (Neutral first, moved there by p1): p0 draws by default, p1 with the
    alternative; the other player's draw is illegal."""
    ref = mref(2, "satsuki,chuubei", () if skips else NEUTRAL_MOVER)
    ref.state.m.stack.cards = deque(range(20))
    ref.state.travelers[2].moved_by = 1
    inn = at_inn(ref, [2, 0, 1])
    who, other = (0, 1) if skips else (1, 0)
    with pytest.raises(Illegal, match=f"traveler {who}"):
        drive(ref, ref._inn_matsuri(inn), [r6(Ev.DRAW, other, 9, 0)])


# ------------------------------------------------------------------ M18: Hanabi in the chooser's order
@BOTH
@pytest.mark.parametrize("chooser", [False, True])
def test_hanabi_cards_in_the_choosers_order(mode: str, chooser: bool) -> None:
    """M18: Hanabi's two cards resolve in draw order by default; with ``hanabi_order = "chooser"`` the
    chooser decides (``OPTION(t, hanabi order, 1)`` swaps). The bots resolve a card that gives coins
    (o-Shogatsu) before one that spends or counts them: here Setsubun was drawn first."""
    r, pos = mt_inn(HANABI_CHOOSER if chooser else (), 4, ["hanabi", "hanabi", "setsubun", "oshogatsu"], mode)
    hanabi, sets, osho = matsuri_ids(r, "hanabi", "setsubun", "oshogatsu")
    pos.hid["deck"][Deck.MATSURI, 1] = hanabi
    pos.hid["deck"][Deck.MATSURI, 2:4] = [sets, osho]
    matsuri_at(pos, M_INN1)
    order = [e[2] for e in pos.events(Ev.MATSURI)[1:]]
    opts = [e for e in pos.events(Ev.OPTION) if e[2] == Opt.HANABI_ORDER]
    if chooser:
        assert opts == [(Ev.OPTION, 0, Opt.HANABI_ORDER, 1, -1, -1)] and order == [osho, sets]
        assert [e[4] for e in pos.events(Ev.DIE)][:1] == [DieSrc.SHOGATSU]
    else:
        assert opts == [] and order == [sets, osho]
    assert pos.gs[G.M_HANABI0] == order[0] + 1 and pos.gs[G.M_HANABI0 + 1] == order[1] + 1


@pytest.mark.parametrize(("first", "second", "swap"), [
    ("setsubun", "oshogatsu", 1), ("oshogatsu", "obon", 0), ("shishimai", "obon", 1), ("tanabata", "hina", 1),
    ("hina", "tanabata", 0), ("kamiarisai", "choyo", 0),
])
def test_hanabi_order_bot_gives_before_it_counts(first: str, second: str, swap: int) -> None:
    """M18 (bots): coins before donations, donations before Shishimai's ranking, tokens before Tanabata's
    achievements; two independent cards keep the draw order. The random tier flips a coin."""
    r, pos = mt_inn(HANABI_CHOOSER, 4, [], "py")
    a, b = matsuri_ids(r, first, second)
    assert choose_hanabi_order_nb.py_func(pos.pub, pos.ru, 0, a, b) == swap
    pos.ps[0, PF.BOT] = Bot.RANDOM
    assert {choose_hanabi_order_nb.py_func(pos.pub, pos.ru, 0, a, b) for _ in range(40)} == {0, 1}


@pytest.mark.parametrize("chooser", [False, True])
def test_referee_hanabi_cards_in_the_choosers_order(chooser: bool) -> None:
    """The referee: with ``hanabi_order = "chooser"`` an OPTION(hanabi order) follows Hanabi's two draws
    and the cards come into play in that order; in draw order (the default) no OPTION is expected."""
    ref = mref(3, "satsuki,chuubei,hiroshige", HANABI_CHOOSER if chooser else ())
    st = ref.state
    stack(ref, "hanabi", "obon", "choyo", "ohanami")
    h, o, c, k = (card(ref, x) for x in ("hanabi", "obon", "choyo", "ohanami"))
    head = [r6(Ev.DRAW, 0, 9, h), r6(Ev.DRAW, 0, 9, o), r6(Ev.MATSURI, 0, h, o, 1, 0),
            r6(Ev.DRAW, 0, 9, c), r6(Ev.DRAW, 0, 9, k)]
    swapped = [r6(Ev.OPTION, 0, Opt.HANABI_ORDER, 1), r6(Ev.MATSURI, 0, k, -1, 1, 1), r6(Ev.MATSURI, 0, c, -1, 1, 1)]
    inn = at_inn(ref, [0, 1, 2])
    if not chooser:
        with pytest.raises(Illegal):
            drive(ref, ref._inn_matsuri(inn), head + swapped)
        return
    drive(ref, ref._inn_matsuri(inn), head + swapped)
    assert st.m.hanabi == [k, c]
