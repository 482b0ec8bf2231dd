"""Matsuri rule data that both engines read: M29's Neutral at a Temple, Musubi's coins before the festival,
the Doll/Carp family and the Travelers' genders. Kernels: hand-made positions
(``tests/helpers/matsuri_positions.py``);
referee: hand-driven handlers (``tests/games/tokaido/referee/test_matsuri_cards.py``).
"""

from __future__ import annotations

from collections import deque

import pytest

from kernels.tokaido.core.enums import Ability, Deck, Ev, Space
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from sim.games.tokaido.rules.tables import RulesError
from tests.helpers.matsuri_positions import INN1, mt_config, mt_position
from tests.helpers.positions import BOTH, make_rules, xmove
from tests.helpers.referee_matsuri import (
    ART,
    FOOD,
    SMALL,
    add_souvenirs,
    at_inn,
    card,
    drive,
    effect,
    mref,
    r6,
)

WATCHERS = "matsuri.choices.neutral_triggers_watchers"
TEMPLE, ENCOUNTER = 2, 3  # board spaces


# ------------------------------------------------------------------ M29: the Neutral at a Temple
@BOTH
@pytest.mark.parametrize("on", [False, True])
def test_neutral_temple_stop_pays_misaki_only_when_chosen(mode: str, on: bool) -> None:
    """M29: seed 000 (2 players) "Neutral movements have no effect except at Temple and Inn spaces": by
    default the Neutral's stops trigger nothing; ``matsuri.choices.neutral_triggers_watchers`` reads its
    Temple stop (the one with an effect) as a stop for Misaki: his coin, then the Neutral's bank coin.
    Its Encounter stops stay without effect (no coin for Takeru)."""
    for name, space in (("misaki", TEMPLE), ("takeru", ENCOUNTER)):
        rs = make_rules(
            mt_config(
                2,
                f"{name},kinko",
                overrides=((WATCHERS, str(on).lower()), ("crossroads.start_amulet", "false")),
            )
        )
        pos = mt_position(rs, travelers=[name, "kinko"], positions=[0, 10, 0], coins=[2, 5], mode=mode)
        xmove(pos, 2, space)
        coins = pos.events(Ev.MT_COIN)
        if on and name == "misaki":
            assert coins == [(Ev.MT_COIN, 0, 1, -1, Ability.MISAKI, -1)]
            assert [e[0] for e in pos.events()][1:3] == [Ev.MT_COIN, Ev.DONATE]
        else:
            assert coins == []


@pytest.mark.parametrize("on", [False, True])
def test_referee_neutral_temple_stop_pays_misaki_only_when_chosen(on: bool) -> None:
    """The referee reads the same choice (M29): the Neutral (traveler 2) at a Temple pays Misaki only when
    chosen; at an Encounter it never pays Takeru."""
    ref = mref(2, "misaki,kinko", overrides=((WATCHERS, str(on).lower()),))
    neutral = ref.state.travelers[2]
    assert neutral.neutral
    drive(
        ref,
        ref.travelers.watchers(neutral, Space.TEMPLE),
        [r6(Ev.MT_COIN, 0, 1, -1, Ability.MISAKI)] if on else [],
    )
    ref = mref(2, "takeru,kinko", overrides=((WATCHERS, str(on).lower()),))
    drive(ref, ref.travelers.watchers(ref.state.travelers[2], Space.ENCOUNTER), [])


# ------------------------------------------------------------------ Musubi before the festival
@BOTH
def test_musubi_all_arrived_coins_come_before_the_festival(mode: str) -> None:
    """Seed 002 L1264-1265: the Matsuri comes "once ALL the Travelers have arrived at the Inn (after they have
    used their abilities and bought their Meal cards)": with ``abilities.musubi_timing = "all_arrived"``
    Musubi's two coins come before the festival cards are drawn."""
    rs = make_rules(
        mt_config(
            3,
            "musubi,kinko,satsuki",
            overrides=(("abilities.musubi_timing", "all_arrived"), ("crossroads.start_amulet", "false")),
        )
    )
    pos = mt_position(
        rs,
        stack=["choyo", "hanabi"],
        travelers=["musubi", "kinko", "satsuki"],
        positions=[13, 12, 11],
        coins=[0, 5, 5],
        piles={Deck.MEAL: []},
        mode=mode,
    )
    for t in (0, 1, 2):
        pos.stop(t, INN1)
    kinds = [e[0] for e in pos.events()]
    first_draw = next(i for i, e in enumerate(pos.events()) if e[0] == Ev.DRAW and e[2] == Deck.MATSURI)
    assert [i for i, k in enumerate(kinds) if k == Ev.MT_COIN] == [first_draw - 2, first_draw - 1]


def test_referee_musubi_all_arrived_coins_come_before_the_festival() -> None:
    """The referee: the last arrival's meal, then Musubi's coins, then the festival's ``DRAW``s; the festival
    first is refused."""

    def ref_at_inn():
        ref = mref(3, "musubi,kinko,satsuki", overrides=(("abilities.musubi_timing", "all_arrived"),))
        st = ref.state
        for c in (card(ref, "choyo"), card(ref, "hanabi")):
            st.m.stack.put_under(c)
        inn = at_inn(ref, [0, 2, 1])
        inn.arrived = [0, 2]
        st.piles[Deck.MEAL].cards = deque()
        return ref, st.travelers[1]

    choyo, hanabi = card(mref(), "choyo"), card(mref(), "hanabi")
    coins = [r6(Ev.MT_COIN, 0, 1, -1, Ability.MUSUBI), r6(Ev.MT_COIN, 0, 1, 2, Ability.MUSUBI)]
    festival = [
        r6(Ev.DRAW, 0, Deck.MATSURI, choyo),
        r6(Ev.DRAW, 0, Deck.MATSURI, hanabi),
        r6(Ev.MATSURI, 0, choyo, hanabi, 1, 0),
    ]
    ref, kinko = ref_at_inn()
    drive(ref, ref.inns.inn(kinko), [*coins, *festival])
    assert ref.state.travelers[0].coins == 7 and ref.state.m.kept[0] == choyo
    ref, kinko = ref_at_inn()
    with pytest.raises(Exception, match="MT_COIN"):
        drive(ref, ref.inns.inn(kinko), [*festival, *coins])


# ------------------------------------------------------------------ the Doll/Carp family
@pytest.mark.parametrize(("family", "points"), [("small_objects", 1), ("food", 5)])
def test_referee_doll_joins_the_family_of_the_rule_data(family: str, points: int) -> None:
    """Seed 002 (Hina matsuri) and ``matsuri.doll_family`` (default Small objects): Satsuki holding art and
    small
    objects; her Doll as a Small object starts a new set (1 point); as Food (``doll_family = "food"``) it is
    the
    third family of her set (5 points). The referee reads the data, as the kernels do."""
    ref = mref(overrides=(("matsuri.doll_family", family),))
    add_souvenirs(ref, 0, ART, SMALL)
    inn = at_inn(ref, [1, 0, 2])
    drive(ref, effect(ref, "hina", inn), [r6(Ev.TOKEN, 0, 0, points, card(ref, "hina"), -1)])
    p0 = ref.state.travelers[0]
    assert p0.points["pts_matsuri"] == points and p0.family_counts[
        FOOD if family == "food" else SMALL
    ] == 1 + (family != "food")


# ------------------------------------------------------------------ genders
@pytest.mark.parametrize("gender", ["X", "f", ""])
def test_a_travelers_gender_is_f_or_m(gender: str) -> None:
    """Hina matsuri gives a Doll to every female Traveler, Tango a Carp to every male one (seed 002): a
    gender other than F or M would give neither (the referee) or count as male (the kernels), so the rule
    data refuses it in one line naming the key."""
    with pytest.raises(
        (RulesError, ConfigError), match=f"travelers.kinko.gender = '{gender}': choose M or F"
    ):
        GameConfig(
            n_players=3, expansions=("crossroads", "matsuri"), overrides=(("travelers.kinko.gender", gender),)
        ).rules()
    assert (
        GameConfig(n_players=3, overrides=(("travelers.kinko.gender", "F"),)).rules().travelers[2].gender
        == "F"
    )
