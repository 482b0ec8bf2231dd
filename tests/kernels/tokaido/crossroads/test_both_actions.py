"""Both actions of a station (Kita at an Encounter, Miyataka at a Temple, the Health Amulet anywhere):
in either order, each when it is possible, and the second one may be declined (C27, C42).

Seed 002 L587: "Kita can carry out both actions when stopping at an Encounter space: draw an Encounter
card AND buy a Calligraphy card"; L589: "Miyataka can carry out both actions when stopping at a Temple
space: give coins to the Temple AND buy an Amulet"; L773-774 (Health): "select both options for the
space he lands on (in the order of his choice)". No rulebook orders Kita's or Miyataka's two actions,
so ``CHOICE`` 3 (the alternative first) is theirs as well as Health's, and each action needs to be
possible only when it is taken: a Kuge drawn first pays Kita's Calligraphy card.

Each rule is tested in the kernels (hand-made positions, ``tests/helpers/positions.py``) and in the referee
(hand-built logs, ``tests/helpers/referee_logs.py``).
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import PF, Bot, Deck, Ev, Opt, Space
from tests.helpers.positions import BOTH, encounter_ids, make_rules, xr_config, xr_position
from tests.helpers.referee_logs import (
    ENCOUNTER3,
    FORESIGHT,
    HEALTH,
    HOT5,
    PADDY4,
    TEMPLE2,
    VITALITY,
    assert_illegal,
    ev,
    feed,
    ok,
    stop,
    xcfg,
    xr_setup,
)

ENCOUNTER, TEMPLE, HOT = 3, 2, 5
SECOND = "crossroads.second_action_optional"
HEALTH_ONE = "crossroads.amulets.health_one_option"
KUGE = 2  # an encounter card id of sim/games/tokaido/data/cards.toml: a kuge (3 coins)


def rs_with(travelers: list[str], *overrides: tuple[str, str]):
    return make_rules(xr_config(len(travelers), travelers=",".join(travelers), overrides=overrides))


def kinds(pos) -> list[int]:
    return [e[0] for e in pos.events()]


# ------------------------------------------------------------------ the kernels
@BOTH
def test_kita_calligraphy_affordable_when_bought_not_on_arrival(mode: str) -> None:
    """Seed 002 L587 ("draw an Encounter card AND buy a Calligraphy card"): with no coin on arrival Kita
    still takes both (``CHOICE`` 2): the Kuge she draws gives 3 coins, and the Calligraphy card, bought
    second, costs 1 of them."""
    rs = rs_with(["kita", "kinko", "satsuki"])
    (kuge,) = encounter_ids(rs, "kuge")
    pos = xr_position(
        rs,
        travelers=["kita", "kinko", "satsuki"],
        markets={"calligraphy": ["perfection"]},
        positions=[0, 14, 14],
        coins=[0, 5, 5],
        top={Deck.ENCOUNTER: [kuge]},
        mode=mode,
    )
    pos.stop(0, ENCOUNTER)
    perfection = rs.rules.calligraphy.index("perfection")
    assert pos.events()[1:] == [
        (Ev.CHOICE, 0, Space.ENCOUNTER, 2, -1, -1),
        (Ev.DRAW, 0, Deck.ENCOUNTER, kuge, -1, -1),
        (Ev.GAIN, 0, Deck.ENCOUNTER, kuge, 0, -1),
        (Ev.OPTION, 0, Opt.SECOND, 1, -1, -1),
        (Ev.GAIN, 0, Deck.CALLIGRAPHY, perfection, 1, -1),
    ]
    assert pos.ps[0, PF.COINS] == 2 and pos.ps[0, PF.CALLIGRAPHY] == 1 and pos.ps[0, PF.ENCOUNTERS] == 1


@BOTH
def test_miyataka_buys_the_amulet_first(mode: str) -> None:
    """Seed 002 L589 ("give coins to the Temple AND buy an Amulet"), in either order (C27): with 2 coins
    the greedy Miyataka buys the Amulet first (``CHOICE`` 3), then donates her last coin; donating first
    could have left nothing for the Amulet."""
    rs = rs_with(["miyataka", "kinko", "satsuki"])
    pos = xr_position(
        rs,
        travelers=["miyataka", "kinko", "satsuki"],
        markets={"amulets": ["devotion"]},
        positions=[0, 14, 14],
        coins=[2, 5, 5],
        mode=mode,
    )
    pos.stop(0, TEMPLE)
    devotion = rs.rules.amulets.index("devotion")
    assert pos.events()[1:] == [
        (Ev.CHOICE, 0, Space.TEMPLE, 3, -1, -1),
        (Ev.GAIN, 0, Deck.AMULET, devotion, 1, -1),
        (Ev.OPTION, 0, Opt.SECOND, 1, -1, -1),
        (Ev.DONATE, 0, 1, 0, -1, -1),
    ]
    assert pos.ps[0, PF.COINS] == 0 and pos.ps[0, PF.DONATED] == 1 and pos.ps[0, PF.AMULETS] == 1 << devotion


@BOTH
def test_random_kita_and_miyataka_take_both_in_either_order(mode: str) -> None:
    """C27: a random Kita (Encounter) and Miyataka (Temple) choose among every legal option, both orders
    of their two actions included (``CHOICE`` 2 and 3), and may decline the second (C42)."""
    rs = rs_with(["kita", "miyataka", "satsuki"])
    seen: dict[int, set[int]] = {0: set(), 1: set()}
    declined = set()
    for seed in range(1, 60):
        for t, space in ((0, ENCOUNTER), (1, TEMPLE)):
            pos = xr_position(
                rs,
                travelers=["kita", "miyataka", "satsuki"],
                positions=[0, 0, 14],
                coins=[5, 5, 5],
                bots=Bot.RANDOM,
                seed=seed,
                mode=mode,
            )
            pos.stop(t, space)
            seen[t].add(pos.events(Ev.CHOICE)[0][3])
            declined |= {e[3] for e in pos.events(Ev.OPTION) if e[2] == Opt.SECOND}
    assert seen[0] == seen[1] == {0, 1, 2, 3} and declined == {0, 1}


@BOTH
@pytest.mark.parametrize("one", [False, True])
def test_health_one_option_leaves_kita_both_actions(mode: str, one: bool) -> None:
    """``crossroads.amulets.health_one_option`` reads the Health Amulet (X50) and nothing else: Kita,
    who uses no Amulet, still draws her Encounter AND buys her Calligraphy card (seed 002 L587)."""
    rs = rs_with(["kita", "kinko", "satsuki"], (HEALTH_ONE, str(one).lower()))
    pos = xr_position(
        rs,
        travelers=["kita", "kinko", "satsuki"],
        markets={"calligraphy": ["perfection"]},
        positions=[0, 14, 14],
        coins=[4, 5, 5],
        mode=mode,
    )
    pos.stop(0, ENCOUNTER)
    assert (
        pos.events(Ev.CHOICE)[0][3] == 2 and pos.ps[0, PF.ENCOUNTERS] == 1 and pos.ps[0, PF.CALLIGRAPHY] == 1
    )


@BOTH
@pytest.mark.parametrize("optional", [True, False])
def test_the_second_action_may_be_declined(mode: str, optional: bool) -> None:
    """C42 (seed 002: Kita "can", Health "lets ... select both"): once the first action is done, the second,
    if possible, is asked (``OPTION(t, second, b)``); ``crossroads.second_action_optional=false`` takes it
    whenever possible, with no such row. A random Kita with 5 coins declines it in some games."""
    rs = rs_with(["kita", "kinko", "satsuki"], (SECOND, str(optional).lower()))
    answers = set()
    for seed in range(1, 40):
        pos = xr_position(
            rs,
            travelers=["kita", "kinko", "satsuki"],
            positions=[0, 14, 14],
            coins=[5, 5, 5],
            bots=Bot.RANDOM,
            seed=seed,
            mode=mode,
        )
        pos.stop(0, ENCOUNTER)
        option = pos.events(Ev.CHOICE)[0][3]
        rows = [e[3] for e in pos.events(Ev.OPTION) if e[2] == Opt.SECOND]
        if option in (2, 3) and optional:
            (b,) = rows
            answers.add(b)
            assert (pos.ps[0, PF.ENCOUNTERS], pos.ps[0, PF.CALLIGRAPHY]) == (
                (1, b) if option == 2 else (b, 1)
            )
        elif option in (2, 3):
            assert rows == [] and pos.ps[0, PF.ENCOUNTERS] == pos.ps[0, PF.CALLIGRAPHY] == 1
    assert answers == ({0, 1} if optional else set())


# ------------------------------------------------------------------ the referee
def test_referee_kita_and_miyataka_in_either_order() -> None:
    """The referee (seed 002 L587-589, C27): Kita's Calligraphy first (``CHOICE`` 3), then her Encounter;
    Miyataka's Amulet first, then her donation; option 3 stays refused to anyone else without Health."""
    config, rules = xcfg(3, travelers="kita,miyataka,nampo")
    rows = xr_setup(config, rules, decks={Deck.ENCOUNTER: [6]})  # a samurai on top
    rows += stop(0, ENCOUNTER3, 3) + [
        ev(Ev.GAIN, 0, Deck.CALLIGRAPHY, FORESIGHT, 1),
        ev(Ev.OPTION, 0, Opt.SECOND, 1),
        ev(Ev.DRAW, 0, Deck.ENCOUNTER, 6),
        ev(Ev.GAIN, 0, Deck.ENCOUNTER, 6, 0),
    ]
    rows += stop(1, TEMPLE2, 3) + [
        ev(Ev.GAIN, 1, Deck.AMULET, VITALITY, 1),
        ev(Ev.OPTION, 1, Opt.SECOND, 1),
        ev(Ev.DONATE, 1, 3, 0),
    ]
    ref = ok(config, rules, rows)
    kita, miya = ref.state.travelers[0], ref.state.travelers[1]
    assert (kita.coins, kita.calligraphy, kita.encounters, kita.points["pts_encounters"]) == (
        3,
        [FORESIGHT],
        [6],
        3,
    )
    assert (miya.coins, miya.amulets, miya.donated) == (0, {VITALITY}, 3)
    ref = feed(config, rules, [*rows, *stop(2, HOT5, 3)])
    assert_illegal(ref, len(rows) + 1, "CHOICE", "may not take both")


def test_referee_each_action_judged_when_it_is_taken() -> None:
    """The referee: with no coin Kita may choose both (``CHOICE`` 2): a Kuge's 3 coins then pay her
    Calligraphy card; the Calligraphy first (``CHOICE`` 3) is impossible on arrival."""
    config, rules = xcfg(3, travelers="kita,miyataka,nampo", overrides=(("travelers.kita.coins", "0"),))
    rows = xr_setup(config, rules, decks={Deck.ENCOUNTER: [KUGE]})
    both = stop(0, ENCOUNTER3, 2) + [
        ev(Ev.DRAW, 0, Deck.ENCOUNTER, KUGE),
        ev(Ev.GAIN, 0, Deck.ENCOUNTER, KUGE, 0),
        ev(Ev.OPTION, 0, Opt.SECOND, 1),
        ev(Ev.GAIN, 0, Deck.CALLIGRAPHY, FORESIGHT, 1),
    ]
    kita = ok(config, rules, rows + both).state.travelers[0]
    assert (kita.coins, kita.calligraphy) == (2, [FORESIGHT])
    assert_illegal(feed(config, rules, rows + stop(0, ENCOUNTER3, 3)), len(rows) + 1, "CHOICE", "impossible")


def test_referee_second_action_declined_only_when_optional() -> None:
    """C42: ``OPTION(t, second, 0)`` declines Kita's Calligraphy after her Encounter; without the row the
    Calligraphy must follow; with ``crossroads.second_action_optional=false`` no such row is asked."""
    for optional in (True, False):
        config, rules = xcfg(3, travelers="kita,miyataka,nampo", overrides=((SECOND, str(optional).lower()),))
        rows = xr_setup(config, rules, decks={Deck.ENCOUNTER: [6]})
        rows += stop(0, ENCOUNTER3, 2) + [
            ev(Ev.DRAW, 0, Deck.ENCOUNTER, 6),
            ev(Ev.GAIN, 0, Deck.ENCOUNTER, 6, 0),
        ]
        declined = [*rows, ev(Ev.OPTION, 0, Opt.SECOND, 0), *stop(1, HOT5)]
        if not optional:
            assert_illegal(feed(config, rules, declined), len(rows), "OPTION")
            ok(config, rules, [*rows, ev(Ev.GAIN, 0, Deck.CALLIGRAPHY, FORESIGHT, 1)])
            continue
        ref = feed(config, rules, declined)
        assert ref.state.travelers[0].calligraphy == [] and ref.state.travelers[0].coins == 4
        assert_illegal(feed(config, rules, [*rows, *stop(1, HOT5)]), len(rows), "MOVE", "OPTION")


def test_referee_health_one_option_leaves_kita_both_actions() -> None:
    """The referee reads ``crossroads.amulets.health_one_option`` only after ``USE(health)``: Kita's
    ``CHOICE`` 2 is still her Encounter and her Calligraphy card; after Health it gives one option."""
    config, rules = xcfg(3, travelers="kita,miyataka,nampo", overrides=((HEALTH_ONE, "true"),))
    rows = xr_setup(config, rules, decks={Deck.ENCOUNTER: [6]}, start={1: HEALTH})
    rows += stop(0, ENCOUNTER3, 2) + [
        ev(Ev.DRAW, 0, Deck.ENCOUNTER, 6),
        ev(Ev.GAIN, 0, Deck.ENCOUNTER, 6, 0),
        ev(Ev.OPTION, 0, Opt.SECOND, 1),
        ev(Ev.GAIN, 0, Deck.CALLIGRAPHY, FORESIGHT, 1),
    ]
    rows += [
        ev(Ev.MOVE, 1, PADDY4, 1),
        ev(Ev.USE, 1, HEALTH),
        ev(Ev.CHOICE, 1, Space.PADDY, 2),
        ev(Ev.PANORAMA, 1, 0, 0),
    ]
    ref = ok(config, rules, [*rows, *stop(2, HOT5)])
    assert ref.state.travelers[0].calligraphy == [FORESIGHT] and ref.state.travelers[1].cherry_trees == 0
