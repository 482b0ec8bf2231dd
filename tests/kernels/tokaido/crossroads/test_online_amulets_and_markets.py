"""Four readings of the online game, each its own parameter, off by default (the rulebook): Health gives one
option only (no profile), Fortune is rolled after moving, Devotion moves the printed price after any
discount, a market station's alternative may buy nothing. Each is tested in the kernels (hand-made
positions, ``tests/helpers/positions.py``) and in the referee (hand-built logs), with the rulebook reading
beside
it, so a test fails when its parameter is ignored. What the ``online`` profile sets is tested in
``tests/kernels/tokaido/crossroads/test_online_profile.py``."""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import PF, Ability, Bot, Deck, DieSrc, Ev, Opt, Space
from kernels.tokaido.game.crossroads import alternative_nb
from tests.helpers.game_records import round_trip
from tests.helpers.positions import BOTH, begin_turn, kern, make_rules, xmove, xr_config, xr_position
from tests.helpers.referee_logs import (
    DEVOTION,
    FORTUNE,
    HEALTH,
    HOT5,
    MURASAME,
    PADDY4,
    VILLAGE1,
    assert_illegal,
    ev,
    feed,
    ok,
    stop,
    xcfg,
    xr_setup,
)

HEALTH_ONE = "crossroads.amulets.health_one_option"
FORTUNE_AFTER = "crossroads.amulets.fortune_after_move"
FORTUNE_BEFORE = "crossroads.amulets.fortune_before_move"
DEVOTION_PRINTED = "crossroads.amulets.devotion_printed_price"
ALT_NOTHING = "crossroads.alternative_buys_nothing"
VILLAGE, TEMPLE, HOT, FARM = 1, 2, 5, 7  # spaces of the base board


def rules_with(key: str, online: bool, *more: tuple[str, str]):
    return make_rules(xr_config(3, overrides=((key, str(online).lower()), *more)))


def held(pos, t: int) -> set[int]:
    return {c for c in range(8) if (int(pos.ps[t, PF.AMULETS]) >> c) & 1}


# ------------------------------------------------------------------ Health: one option (X50)
@BOTH
@pytest.mark.parametrize("online", [False, True])
def test_health_gives_one_option_only_online(mode: str, online: bool) -> None:
    """Seed 002 "Gesundheit": both options "in the order of his choice" (X22); the reading "with Health the
    player may take only one option, in either order" (``crossroads.amulets.health_one_option``, X50):
    ``CHOICE`` 2 is then the base action only, 3 the alternative only. That is what any stop gives, so the
    greedy player keeps the Amulet and takes the better single option (the Bathhouse); a random player
    who uses it gets exactly one of the two."""
    rs = rules_with(HEALTH_ONE, online)
    pos = xr_position(rs, positions=[0, 14, 14], coins=[3, 5, 5], amulets={0: ["health"]}, mode=mode)
    pos.stop(0, HOT)
    if not online:
        assert pos.events(Ev.CHOICE) == [(Ev.CHOICE, 0, Space.HOT_SPRING, 2, -1, -1)]
        assert pos.ps[0, PF.HOT_SPRINGS] == 1 and pos.ps[0, PF.BATHHOUSES] == 1 and held(pos, 0) == set()
        return
    assert pos.events(Ev.USE) == [] and held(pos, 0) == {HEALTH}
    assert pos.events(Ev.CHOICE) == [(Ev.CHOICE, 0, Space.HOT_SPRING, 1, -1, -1)]
    assert pos.ps[0, PF.BATHHOUSES] == 1 and pos.ps[0, PF.HOT_SPRINGS] == 0
    used = set()
    for seed in range(1, 40):
        pos = xr_position(
            rs,
            positions=[0, 14, 14],
            coins=[3, 5, 5],
            amulets={0: ["health"]},
            bots=Bot.RANDOM,
            seed=seed,
            mode=mode,
        )
        pos.stop(0, HOT)
        if pos.events(Ev.USE):
            option = pos.events(Ev.CHOICE)[0][3]
            used.add(option)
            assert (pos.ps[0, PF.HOT_SPRINGS], pos.ps[0, PF.BATHHOUSES]) == (
                (1, 0) if option == 2 else (0, 1)
            )
    assert used == {2, 3}


@pytest.mark.parametrize("online", [False, True])
def test_referee_health_gives_one_option_only_online(online: bool) -> None:
    """The referee: after ``USE(health)`` at a paddy, option 2 is the Panorama card and then the Cherry
    Tree (rulebook), the Panorama card only (online); option 3 online is the Cherry Tree only."""
    config, rules = xcfg(3, variants=("initiation",), overrides=((HEALTH_ONE, str(online).lower()),))
    rows = xr_setup(config, rules, start={0: HEALTH})
    health = [ev(Ev.MOVE, 0, PADDY4, 0), ev(Ev.USE, 0, HEALTH)]
    both = [
        *rows,
        *health,
        ev(Ev.CHOICE, 0, Space.PADDY, 2),
        ev(Ev.PANORAMA, 0, 0, 0),
        ev(Ev.GAIN, 0, Deck.CHERRY, -1, 0),
    ]
    base_only = [*rows, *health, ev(Ev.CHOICE, 0, Space.PADDY, 2), ev(Ev.PANORAMA, 0, 0, 0)]
    if not online:  # the second action is asked (C42) and taken
        p0 = ok(config, rules, [*base_only, ev(Ev.OPTION, 0, Opt.SECOND, 1), both[-1]]).state.travelers[0]
        assert (p0.panorama[0], p0.cherry_trees) == (1, 1)
        assert_illegal(
            feed(config, rules, [*base_only, *stop(1, VILLAGE1)]), len(base_only), "MOVE", "OPTION"
        )
        return
    assert_illegal(feed(config, rules, both), len(both) - 1, "GAIN")
    p0 = ok(config, rules, base_only).state.travelers[0]
    assert (p0.panorama[0], p0.cherry_trees, p0.amulets) == (1, 0, set())
    alt_only = [*rows, *health, ev(Ev.CHOICE, 0, Space.PADDY, 3), ev(Ev.GAIN, 0, Deck.CHERRY, -1, 0)]
    p0 = ok(config, rules, alt_only).state.travelers[0]
    assert (p0.panorama[0], p0.cherry_trees, p0.coins) == (0, 1, 7)
    assert_illegal(feed(config, rules, [*alt_only, ev(Ev.PANORAMA, 0, 0, 0)]), len(alt_only), "PANORAMA")


# ------------------------------------------------------------------ Fortune: after moving (X51)
@BOTH
@pytest.mark.parametrize("online", [False, True])
def test_fortune_rolled_after_moving_online(mode: str, online: bool) -> None:
    """Seed 002 "Fortune": "roll the Fortune die before moving" (X18); after moving only
    (``crossroads.amulets.fortune_after_move`` without ``fortune_before_move``, X51): on arrival, before
    the stop's action. With no coin, rolling x3 before the move opens the Village and Temple (rulebook);
    after it they stay closed, and the 3 coins rolled at a Hot Spring pay its Bathhouse."""
    rs = rules_with(
        FORTUNE_AFTER,
        online,
        (FORTUNE_BEFORE, str(not online).lower()),
        ("crossroads.fortune_die", "3,3,3,3,3,3"),
    )
    pos = xr_position(rs, positions=[0, 14, 14], coins=[0, 5, 5], amulets={0: ["fortune"]}, mode=mode)
    _, _, legal = begin_turn(pos)
    assert (VILLAGE in legal and TEMPLE in legal) == (not online)
    assert (pos.events() == []) == online
    xmove(pos, 0, HOT)
    kinds = [e[0] for e in pos.events()]
    if online:
        assert kinds[:4] == [Ev.MOVE, Ev.USE, Ev.DIE, Ev.CHOICE]
        assert pos.events(Ev.DIE) == [(Ev.DIE, 0, 3, 0, DieSrc.FORTUNE, -1)]
    else:
        assert kinds[:3] == [Ev.USE, Ev.DIE, Ev.MOVE] and kinds.count(Ev.USE) == 1
    assert pos.events(Ev.CHOICE)[0][3] == 1 and pos.ps[0, PF.BATHHOUSES] == 1 and pos.ps[0, PF.COINS] == 2


@pytest.mark.parametrize("online", [False, True])
def test_referee_fortune_rolled_after_moving_online(online: bool) -> None:
    """The referee: ``USE(fortune)`` + ``DIE`` before the ``MOVE`` (rulebook) or right after it (after only);
    the other place is refused."""
    config, rules = xcfg(
        3,
        variants=("initiation",),
        overrides=((FORTUNE_AFTER, str(online).lower()), (FORTUNE_BEFORE, str(not online).lower())),
    )
    rows = xr_setup(config, rules, start={0: FORTUNE})
    roll = [ev(Ev.USE, 0, FORTUNE), ev(Ev.DIE, 0, 2, 0, DieSrc.FORTUNE)]
    hot = [ev(Ev.DRAW, 0, Deck.HOT_SPRING, 0), ev(Ev.GAIN, 0, Deck.HOT_SPRING, 0, 0)]
    before = [*rows, *roll, *stop(0, HOT5), *hot]
    after = [*rows, ev(Ev.MOVE, 0, HOT5, 0), *roll, ev(Ev.CHOICE, 0, Space.HOT_SPRING, 0), *hot]
    good, bad = (after, before) if online else (before, after)
    p0 = ok(config, rules, good).state.travelers[0]
    assert (p0.coins, p0.amulets) == (6 + 2, set())
    where = len(rows) if online else len(rows) + 1
    assert_illegal(feed(config, rules, bad), where, "USE")


# ------------------------------------------------------------------ Devotion: the printed price (X52)
@BOTH
@pytest.mark.parametrize("online", [False, True])
def test_devotion_moves_the_printed_price_online(mode: str, online: bool) -> None:
    """Seed 002 "Devotion": "the coins spent on acquiring a purchasable card" go on the Temple (X26);
    "Devotion moves the card's printed price" after any discount
    (``crossroads.amulets.devotion_printed_price``).
    Titia pays 2 for Murasame (printed 3, her discount 1): 2 on the Temple, 3 online."""
    rs = rules_with(DEVOTION_PRINTED, online)
    pos = xr_position(
        rs,
        markets={"legendary": ["murasame"]},
        positions=[0, 14, 14],
        coins=[10, 5, 5],
        amulets={0: ["devotion"]},
        mode=mode,
    )
    pos.ps[0, PF.ABILITY] = Ability.TITIA
    kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.VILLAGE)
    moved = 3 if online else 2
    assert [e for e in pos.events() if e[0] in (Ev.GAIN, Ev.USE)] == [
        (Ev.GAIN, 0, Deck.LEGENDARY, MURASAME, 2, -1),
        (Ev.USE, 0, DEVOTION, moved, -1, -1),
    ]
    assert pos.ps[0, PF.COINS] == 8 and pos.ps[0, PF.DONATED] == moved and pos.ps[0, PF.PTS_TEMPLE] == moved


@pytest.mark.parametrize("online", [False, True])
def test_referee_devotion_moves_the_printed_price_online(online: bool) -> None:
    """The referee: Titia's Devotion after Murasame (paid 2, printed 3) moves 2, online 3; the other
    amount is refused."""
    config, rules = xcfg(3, variants=("initiation",), overrides=((DEVOTION_PRINTED, str(online).lower()),))
    rows = xr_setup(
        config,
        rules,
        markets={Deck.LEGENDARY: [MURASAME, 0, 1, 2], Deck.AMULET: [DEVOTION, 0, 1, 2]},
        start={0: DEVOTION},
    )
    buy = [*stop(0, VILLAGE1, 1), ev(Ev.GAIN, 0, Deck.LEGENDARY, MURASAME, 2)]

    def referee(amount: int):
        ref = feed(config, rules, rows)
        ref.state.travelers[0].ability = Ability.TITIA  # her discount of 1 on a Legendary Object
        ref.feed_all([*buy, ev(Ev.USE, 0, DEVOTION, amount)])
        return ref

    moved, other = (3, 2) if online else (2, 3)
    ref = referee(moved)
    assert ref.errors == [], ref.errors
    p0 = ref.state.travelers[0]
    assert (p0.coins, p0.donated, p0.points["pts_temple"]) == (6 - 2, moved, moved)
    assert_illegal(
        referee(other), len(rows) + len(buy), "USE", "printed price" if online else "coins just paid"
    )


# ------------------------------------------------------------------ an alternative buying nothing (X53)
@BOTH
@pytest.mark.parametrize("online", [False, True])
def test_alternative_chosen_to_buy_nothing_only_online(mode: str, online: bool) -> None:
    """Rulebook: a chosen alternative is taken (X9, X15, X16; a Bathhouse needs its coin, X8); online
    "a player may choose a station's alternative and buy nothing"
    (``crossroads.alternative_buys_nothing``): ``CHOICE`` 4 at a Hot Spring, Village, Temple or
    Encounter, the stop wasted. A random player with no coin at a Hot Spring draws its card or (online
    only) chooses the Bathhouse and buys nothing; at a Farm (a bet, not a purchase) never."""
    rs = rules_with(ALT_NOTHING, online)
    seen: dict[int, set[int]] = {HOT: set(), FARM: set()}
    for seed in range(1, 30):
        for space in (HOT, FARM):
            pos = xr_position(
                rs, positions=[0, 14, 14], coins=[0, 5, 5], bots=Bot.RANDOM, seed=seed, mode=mode
            )
            pos.stop(0, space)
            option = pos.events(Ev.CHOICE)[0][3]
            seen[space].add(option)
            if option == 4:
                assert [e[0] for e in pos.events()] == [Ev.MOVE, Ev.CHOICE] and pos.ps[0, PF.SCORE] == 0
    assert seen[HOT] == ({0, 4} if online else {0}) and seen[FARM] == {0}


@pytest.mark.parametrize("online", [False, True])
def test_referee_alternative_chosen_to_buy_nothing_only_online(online: bool) -> None:
    """The referee: ``CHOICE`` 4 at a Hot Spring with nothing after it is legal only online; never at a
    paddy (the Cherry Tree is not a purchase), nor with the Health Amulet."""
    config, rules = xcfg(3, variants=("initiation",), overrides=((ALT_NOTHING, str(online).lower()),))
    rows = xr_setup(config, rules, start={0: HEALTH})
    empty = [*rows, *stop(0, HOT5, 4), *stop(1, VILLAGE1)]
    ref = feed(config, rules, empty)
    if not online:
        assert_illegal(ref, len(rows) + 1, "CHOICE", "option 4")
        return
    assert ref.errors == [] and ref.state.travelers[0].bathhouses == 0 and ref.state.travelers[0].coins == 6
    assert_illegal(feed(config, rules, [*rows, *stop(0, PADDY4, 4)]), len(rows) + 1, "CHOICE", "option 4")
    health = [*rows, ev(Ev.MOVE, 0, HOT5, 0), ev(Ev.USE, 0, HEALTH), ev(Ev.CHOICE, 0, Space.HOT_SPRING, 4)]
    assert_illegal(feed(config, rules, health), len(health) - 1, "CHOICE", "option 4")


# ------------------------------------------------------------------ recorded games under --rules online
@pytest.mark.parametrize(
    "spec",
    [
        (4, "draft", "random", "", "crossroads", "online"),
        (3, "random", "random", "", "crossroads,promos", "online"),
    ],
    ids=lambda s: "-".join(str(x) for x in s if x),
)
def test_random_online_games_round_trip_through_audit(spec: tuple[str | int, ...]) -> None:
    """docs/game-record.md: games played under ``--rules online`` by random players (who use Health,
    Fortune on arrival, Devotion after free cards and empty alternatives) pass ``tokaido-sim audit``."""
    round_trip(spec, 21, 40)


def test_each_online_reading_is_its_own_parameter() -> None:
    """Each of the four is a ``--set`` of its own: it changes its own parameter and no other."""
    from sim.games.tokaido.cli.options import make_config

    names = ("HEALTH_ONE", "FORTUNE_AFTER", "DEVOTION_PRINTED", "ALT_NOTHING")
    book = make_config(4, "draft", "greedy", "", "crossroads", None).rules().params
    assert [book[n] for n in names] == [0, 0, 0, 0]
    for key, name in zip((HEALTH_ONE, FORTUNE_AFTER, DEVOTION_PRINTED, ALT_NOTHING), names, strict=True):
        alone = make_config(4, "draft", "greedy", "", "crossroads", [f"{key}=true"]).rules().params
        assert [bool(alone[n]) for n in names] == [n == name for n in names]
