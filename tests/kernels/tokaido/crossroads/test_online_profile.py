"""What the ``online`` rules profiles (sim/games/tokaido/data/profiles/online.toml, online-2020.toml) say of
online play,
in the kernels (hand-made positions) and in the referee (hand-built logs), beside the rulebook's reading:

* the Health Amulet gives both options, in either order (seed 002 L773-774; the profile leaves
  ``crossroads.amulets.health_one_option`` off);
* the Fortune Amulet is rolled before the move (seed 002 L768-769) or on arrival
  (``fortune_before_move`` and ``fortune_after_move`` both on);
* Devotion puts on the Temple the printed price after Zen-emon's 1-coin souvenir, the coins actually
  paid after Kinko's meal (``devotion_printed_after = ["zen_emon"]``; seed 002 L789-791: "the coins spent");
* no Amulet is offered before the first move (``crossroads.start_amulet = false``; seed 002 L175-178
  offers it);
* a Script object scores for a Legendary Object acquired after it at the 2021 tables (``online``), not
  at the 2020 ones (``online-2020``, the rulebook's "for each Souvenir acquired thereafter").
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import PF, Bot, Deck, DieSrc, Ev, Opt, Space
from sim.games.tokaido.cli.options import make_config
from sim.overrides import format_value
from tests.helpers.positions import BOTH, begin_turn, make_rules, meal_ids, souvenir_ids, xmove, xr_position
from tests.helpers.referee_logs import (
    DEVOTION,
    FORTUNE,
    HEALTH,
    HOT5,
    INN14,
    VILLAGE1,
    assert_illegal,
    ev,
    feed,
    ok,
    stop,
    xcfg,
    xr_setup,
)

HOT, INN = 5, 14


def profile(name: str, n: int = 3, travelers: str = "random", *more: str):
    """The configuration ``--rules name`` gives (``make_config``, as the command line builds it)."""
    return make_config(n, travelers, "greedy", "", "crossroads", list(more) or None, name)


def rs_of(name: str, travelers: str = "random", *more: str):
    return make_rules(profile(name, 3, travelers, *more))


def ref_cfg(name: str, travelers: str = "", *more: tuple[str, str]):
    """The referee's configuration under profile ``name`` (4 Crossroads cards of each type, as ``xcfg``);
    without Travelers: the Journey of Initiation, 7 coins each."""
    own = tuple((k, format_value(v)) for k, v in profile(name, 3, travelers or "random").overrides)
    if not travelers:
        return xcfg(3, variants=("initiation",), overrides=own + more)
    return xcfg(3, travelers, overrides=own + more)


def no_start(rows: list) -> list:
    """``xr_setup`` without the start-Amulet offers (``crossroads.start_amulet = false``)."""
    return [r for r in rows if not (r[0] == Ev.OPTION and r[2] == Opt.START_AMULET)]


# ------------------------------------------------------------------ Health: both options, either order
@BOTH
@pytest.mark.parametrize("name", ["rulebook", "online"])
def test_health_gives_both_options_online_too(mode: str, name: str) -> None:
    """Seed 002 L773-774 ("select both options for the space he lands on (in the order of his choice)"), and
    so online: the greedy player uses Health at a Hot Spring and takes the card and the Bathhouse."""
    rs = rs_of(name)
    pos = xr_position(rs, positions=[0, 14, 14], coins=[3, 5, 5], amulets={0: ["health"]}, mode=mode)
    pos.stop(0, HOT)
    assert pos.events(Ev.USE) == [(Ev.USE, 0, HEALTH, -1, -1, -1)]
    assert (
        pos.events(Ev.CHOICE)[0][3] == 2 and pos.ps[0, PF.HOT_SPRINGS] == 1 and pos.ps[0, PF.BATHHOUSES] == 1
    )


def test_referee_health_both_options_in_either_order_online() -> None:
    """The referee under ``--rules online``: after ``USE(health)`` at a Hot Spring, the Bathhouse first
    (``CHOICE`` 3) then the Hot Spring card, or the card first (2) then the Bathhouse."""
    config, rules = ref_cfg("online")
    rows = no_start(xr_setup(config, rules))  # no start Amulet online: Health is given by hand below
    hot = [ev(Ev.DRAW, 0, Deck.HOT_SPRING, 0), ev(Ev.GAIN, 0, Deck.HOT_SPRING, 0, 0)]
    bath = [ev(Ev.GAIN, 0, Deck.BATHHOUSE, -1, 1)]
    for option, body in (
        (3, [*bath, ev(Ev.OPTION, 0, Opt.SECOND, 1), *hot]),
        (2, [*hot, ev(Ev.OPTION, 0, Opt.SECOND, 1), *bath]),
    ):
        ref = feed(config, rules, rows)
        ref.state.travelers[0].amulets.add(HEALTH)
        ref.state.amulet_market.remove(HEALTH)
        ref.feed_all(
            [
                ev(Ev.MOVE, 0, HOT5, 0),
                ev(Ev.USE, 0, HEALTH),
                ev(Ev.CHOICE, 0, Space.HOT_SPRING, option),
                *body,
            ]
        )
        p0 = ref.state.travelers[0]
        assert ref.errors == [] and (len(p0.hot_springs), p0.bathhouses, p0.coins) == (1, 1, 6)


# ------------------------------------------------------------------ Fortune: before or after the move
@BOTH
def test_fortune_before_or_after_the_move_online(mode: str) -> None:
    """Online the Fortune Amulet is rolled before the move (seed 002 L768: "before moving") or on arrival: a
    random player holding it rolls it at both places over a few games, never twice in one turn."""
    rs = make_rules(profile("online", 3, "random"))
    seen = set()
    for seed in range(1, 40):
        pos = xr_position(
            rs,
            positions=[0, 14, 14],
            coins=[2, 5, 5],
            amulets={0: ["fortune"]},
            bots=Bot.RANDOM,
            seed=seed,
            mode=mode,
        )
        begin_turn(pos)
        before = len(pos.events(Ev.USE))
        xmove(pos, 0, HOT)
        uses = pos.events(Ev.USE)
        assert len(uses) <= 1
        if uses:
            seen.add("before" if before else "after")
    assert seen == {"before", "after"}


def test_referee_fortune_before_and_after_the_move_online() -> None:
    """The referee under ``--rules online`` accepts ``USE(fortune)`` + ``DIE`` before the ``MOVE`` and
    right after it; the rulebook only before."""
    roll = [ev(Ev.USE, 0, FORTUNE), ev(Ev.DIE, 0, 2, 0, DieSrc.FORTUNE)]
    hot = [ev(Ev.DRAW, 0, Deck.HOT_SPRING, 0), ev(Ev.GAIN, 0, Deck.HOT_SPRING, 0, 0)]
    for name in ("online", "rulebook"):
        config, rules = ref_cfg(name)
        # no start Amulet online: given by hand below
        rows = (
            no_start(xr_setup(config, rules))
            if name == "online"
            else xr_setup(config, rules, start={0: FORTUNE})
        )
        before = [*roll, *stop(0, HOT5), *hot]
        after = [ev(Ev.MOVE, 0, HOT5, 0), *roll, ev(Ev.CHOICE, 0, Space.HOT_SPRING, 0), *hot]
        for log in (before, after):
            ref = feed(config, rules, rows)
            if name == "online":
                ref.state.travelers[0].amulets.add(FORTUNE)
                ref.state.amulet_market.remove(FORTUNE)
            ref.feed_all(log)
            legal = name == "online" or log is before
            assert (ref.errors == []) == legal, (name, ref.errors)


# ------------------------------------------------------------------ Devotion after a discount
@BOTH
@pytest.mark.parametrize("name", ["rulebook", "online"])
def test_devotion_after_zen_emons_souvenir(mode: str, name: str) -> None:
    """Zen-emon buys a 3-coin Art souvenir (completing a set: 7 points) for 1 coin. Rulebook (seed 002
    L789-791 "the coins spent"): Devotion would move 1 coin, so the greedy player keeps it; online it moves
    the printed 3 (``devotion_printed_after = ["zen_emon"]``) and is used."""
    rs = rs_of(name, "zen-emon,kinko,satsuki")
    shamisen, sumie, ukiyoe = souvenir_ids(rs, "shamisen", "sumie", "ukiyoe")
    pos = xr_position(
        rs,
        travelers=["zen-emon", "kinko", "satsuki"],
        positions=[0, 14, 14],
        coins=[1, 5, 5],
        families={0: [1, 1, 1, 0]},
        amulets={0: ["devotion"]},
        top={Deck.SOUVENIR: [shamisen, sumie, ukiyoe]},
        mode=mode,
    )
    pos.stop(0, 1)
    (gain,) = pos.events(Ev.GAIN)
    assert gain[4] == 1 and pos.ps[0, PF.COINS] == 0
    if name == "online":
        assert pos.events(Ev.USE) == [(Ev.USE, 0, DEVOTION, 3, -1, -1)]
        assert pos.ps[0, PF.DONATED] == 3 and pos.ps[0, PF.PTS_TEMPLE] == 3
    else:
        assert pos.events(Ev.USE) == [] and pos.ps[0, PF.DONATED] == 0


@BOTH
@pytest.mark.parametrize("name", ["rulebook", "online"])
def test_devotion_after_kinkos_meal_moves_the_coins_paid(mode: str, name: str) -> None:
    """Kinko pays 2 for a 3-coin Unagi (C22); Devotion moves the 2 coins he paid, online too."""
    rs = rs_of(name, "kinko,zen-emon,satsuki")
    (unagi,) = meal_ids(rs, "unagi")
    pos = xr_position(
        rs,
        travelers=["kinko", "zen-emon", "satsuki"],
        positions=[13, 14, 14],
        coins=[5, 5, 5],
        amulets={0: ["devotion"]},
        hand=[unagi],
        mode=mode,
    )
    pos.stop(0, INN)
    assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.MEAL, unagi, 2, -1)]
    assert pos.events(Ev.USE) == [(Ev.USE, 0, DEVOTION, 2, -1, -1)] and pos.ps[0, PF.DONATED] == 2


def test_referee_devotion_printed_after_zen_emon_paid_after_kinko_online() -> None:
    """The referee under ``--rules online``: Zen-emon's Devotion after his 1-coin souvenir moves its printed
    3 (1 is refused); Kinko's after his 2-coin Unagi moves 2 (3 is refused). Under the rulebook Zen-emon's
    moves 1."""
    for name in ("online", "rulebook"):
        config, rules = ref_cfg(name, "zen-emon,kinko,nampo", ("crossroads.start_amulet", "true"))
        rows = xr_setup(
            config,
            rules,
            markets={Deck.AMULET: [DEVOTION, 0, 1, 2]},
            start={0: DEVOTION},
            decks={Deck.SOUVENIR: [21, 22, 23]},
        )
        shop = [*stop(0, VILLAGE1)] + [ev(Ev.DRAW, 0, Deck.SOUVENIR, c) for c in (21, 22, 23)]
        shop += [ev(Ev.GAIN, 0, Deck.SOUVENIR, 21, 1)]
        under = [ev(Ev.UNDER, -1, Deck.SOUVENIR, c) for c in (22, 23)]
        want, other = (3, 1) if name == "online" else (1, 3)
        ref = ok(config, rules, [*rows, *shop, ev(Ev.USE, 0, DEVOTION, want), *under])
        assert ref.state.travelers[0].donated == want
        assert_illegal(
            feed(config, rules, [*rows, *shop, ev(Ev.USE, 0, DEVOTION, other)]), len(rows) + len(shop), "USE"
        )
    config, rules = ref_cfg("online", "kinko,zen-emon,nampo", ("crossroads.start_amulet", "true"))
    rows = xr_setup(
        config,
        rules,
        markets={Deck.AMULET: [DEVOTION, 0, 1, 2]},
        start={0: DEVOTION},
        decks={Deck.MEAL: [19, 20, 21, 22]},
    )
    inn = [ev(Ev.MOVE, 0, INN14, 0)] + [ev(Ev.DRAW, 0, Deck.MEAL, m) for m in (19, 20, 21, 22)]
    inn += [ev(Ev.GAIN, 0, Deck.MEAL, 19, 2)]
    assert ok(config, rules, [*rows, *inn, ev(Ev.USE, 0, DEVOTION, 2)]).state.travelers[0].donated == 2
    assert_illegal(
        feed(config, rules, [*rows, *inn, ev(Ev.USE, 0, DEVOTION, 3)]), len(rows) + len(inn), "USE"
    )


# ------------------------------------------------------------------ no start Amulet online
@pytest.mark.parametrize("name", ["rulebook", "online"])
def test_no_start_amulet_online(name: str) -> None:
    """Seed 002 L175-178 ("Good luck!"): each player in the starting order may buy a random Amulet for a
    coin (C25); online no Amulet is offered before the first move: the set-up asks nobody."""
    from tests.helpers.positions import setup_position

    rs = make_rules(profile(name, 4, "random"))
    pos = setup_position(rs, seed=3)
    offers = [e for e in pos.events(Ev.OPTION) if e[2] == Opt.START_AMULET]
    assert (len(offers) == 4) == (name == "rulebook") and (offers == []) == (name == "online")


def test_referee_refuses_a_start_amulet_online() -> None:
    """The referee under ``--rules online``: a start-Amulet ``OPTION`` is refused; the first move follows the
    coins."""
    config, rules = ref_cfg("online")
    rows = xr_setup(config, rules)
    first = next(i for i, r in enumerate(rows) if r[0] == Ev.OPTION and r[2] == Opt.START_AMULET)
    assert_illegal(feed(config, rules, rows), first, "OPTION")
    ok(
        config,
        rules,
        [
            *no_start(rows),
            *stop(0, HOT5),
            ev(Ev.DRAW, 0, Deck.HOT_SPRING, 0),
            ev(Ev.GAIN, 0, Deck.HOT_SPRING, 0, 0),
        ],
    )


# ------------------------------------------------------------------ the Script bonus: 2020 and 2021 tables
def test_script_bonus_for_a_later_legendary_object_2021_not_2020() -> None:
    """``online`` (2021 tables on) scores a Script's point for a Legendary Object acquired later
    (``crossroads.legendary.script_counts_legendary``, X48); ``online-2020`` does not, as the rulebook
    ("for each Souvenir acquired thereafter"); ``online-2020`` is ``online`` otherwise."""
    params = {name: profile(name).rules().params for name in ("rulebook", "online", "online-2020")}
    assert [params[n]["SCRIPT_LEGENDARY"] for n in params] == [0, 1, 0]
    same = [k for k in params["online"] if k != "SCRIPT_LEGENDARY"]
    assert all(params["online"][k] == params["online-2020"][k] for k in same)


def test_online_profile_sets_what_online_play_shows() -> None:
    """``--rules online``: Health both options (``health_one_option`` off), Fortune before or after the move,
    Devotion's printed price after Zen-emon only, no start Amulet, the second action optional; the
    rulebook: Fortune before, Devotion the coins paid, a start Amulet."""
    names = (
        "HEALTH_ONE",
        "FORTUNE_BEFORE",
        "FORTUNE_AFTER",
        "DEVOTION_PRINTED",
        "START_AMULET",
        "SECOND_OPTIONAL",
    )
    online = profile("online").rules().params
    book = profile("rulebook").rules().params
    assert [online[n] for n in names] == [
        0,
        1,
        1,
        1,
        0,
        1,
    ]  # DEVOTION_PRINTED: the Zen-emon bit (Disc.ZEN_EMON)
    assert [book[n] for n in names] == [0, 1, 0, 0, 1, 1]


def test_both_fortune_switches_off_is_refused() -> None:
    """A Fortune Amulet usable neither before nor after the move is no rule: one line says so."""
    from sim.errors import UserError

    with pytest.raises(
        (UserError, ValueError), match="fortune_before_move and fortune_after_move are both false"
    ):
        profile("rulebook", 3, "random", "crossroads.amulets.fortune_before_move=false").rules()
