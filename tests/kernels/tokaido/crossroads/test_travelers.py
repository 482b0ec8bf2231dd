"""Crossroads Travelers (Daigoro, Gotozaemon, Jirocho, Kita, Miyataka, Nampo), the base Travelers'
abilities with Crossroads cards, and Encounter cards that never reach Crossroads cards.

Hand-made positions (``tests/helpers/positions.py``). Each test quotes the Crossroads rulebook (seed 002,
"Travelers Crossroads", "Notes Crossroads") or names the rule choice (docs/rules-choices.md).
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import PF, Ability, Bot, Deck, DieSrc, Ev, Opt, PanSrc, Space
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from tests.helpers.positions import (
    BOTH,
    choice,
    encounter_ids,
    make_rules,
    meal_ids,
    setup_position,
    souvenir_ids,
    xr_config,
    xr_position,
)

XR_COINS = {"daigoro": 3, "gotozaemon": 0, "jirocho": 5, "kita": 4, "miyataka": 4, "nampo": 2}
BASE = [
    "hiroshige",
    "chuubei",
    "kinko",
    "yoshiyasu",
    "satsuki",
    "mitsukuni",
    "sasayakko",
    "hirotada",
    "umegae",
    "zen-emon",
]
NO_START = (("crossroads.start_amulet", "false"),)
ENCOUNTER, PADDY, HOT, INN1, INN3 = 3, 4, 5, 14, 41


def rs_with(travelers: list[str], **kw):
    return make_rules(xr_config(len(travelers), travelers=",".join(travelers), **kw))


# ------------------------------------------------------------------ tiles
@BOTH
@pytest.mark.parametrize(
    "names",
    [["daigoro", "gotozaemon", "jirocho", "kita", "miyataka"], ["nampo", "kinko", "satsuki", "umegae"]],
)
def test_crossroads_travelers_starting_coins(mode: str, names: list[str]) -> None:
    """Seed 002 "Travelers Crossroads" and game-data.md 7.2 (coins agree in four sources):
    Daigoro 3, Gotozaemon 0, Jirocho 5, Kita 4, Miyataka 4, Nampo 2."""
    rs = make_rules(xr_config(len(names), travelers=",".join(names), overrides=NO_START))
    pos = setup_position(rs, seed=2, mode=mode)
    for p, name in enumerate(names):
        want = XR_COINS.get(name, rs.rules.travelers[rs.rules.traveler_index(name)].coins)
        assert pos.ps[p, PF.COINS] == want == pos.ps[p, PF.COINS_START]
        assert pos.ps[p, PF.ABILITY] == getattr(Ability, name.upper().replace("-", "_"))
    assert [rs.rules.travelers[rs.rules.traveler_index(n)].coins for n in XR_COINS] == list(XR_COINS.values())


def test_crossroads_travelers_only_with_the_expansion() -> None:
    """Seed 002 set-up: "Add the new Travelers to the old" (with the expansion only): the base
    game's pool holds the 10 base Travelers, the Crossroads pool 16; naming a Crossroads Traveler
    without the expansion is an error; the Crossroads draft deals them, the base draft never."""
    base = GameConfig(n_players=5).rules()
    xr = xr_config(5, travelers="draft").rules()
    assert [t.name for t in base.travelers] == BASE
    assert [t.name for t in xr.travelers] == BASE + list(XR_COINS)
    with pytest.raises(ConfigError, match="daigoro is a Crossroads Traveler: add --expansions crossroads"):
        GameConfig(n_players=2, travelers="daigoro,kinko")
    dealt_xr, dealt_base = set(), set()
    for seed in range(20):
        for rs, dealt in (
            (make_rules(xr_config(5, travelers="draft")), dealt_xr),
            (make_rules(GameConfig(n_players=5, travelers="draft")), dealt_base),
        ):
            for e in setup_position(rs, seed=seed).events(Ev.DEAL):
                dealt.update((e[2], e[3]))
    assert dealt_base == set(range(10)) and dealt_xr == set(range(16))


# ------------------------------------------------------------------ Daigoro
@BOTH
def test_daigoro_draws_a_souvenir_at_intermediate_inns(mode: str) -> None:
    """Seed 002 "Daigoro the kid": "Daigoro draws a Souvenir card when he arrives at each of the
    three intermediate Inns, before the Meal": the souvenir comes before the meal hand is drawn,
    and scores as a purchase (C29: a Script held adds 1)."""
    rs = rs_with(["daigoro", "kinko", "satsuki"])
    (koma,) = souvenir_ids(rs, "koma")
    pos = xr_position(
        rs,
        travelers=["daigoro", "kinko", "satsuki"],
        positions=[13, 10, 12],
        coins=[3, 5, 5],
        families={0: [0, 1, 0, 0]},
        fields={0: {"SCRIPTS": 1, "LEGENDARY": 1}},
        top={Deck.SOUVENIR: [koma]},
        mode=mode,
    )
    pos.stop(0, INN1)
    ev = pos.events()
    assert ev[1:3] == [(Ev.DRAW, 0, Deck.SOUVENIR, koma, -1, -1), (Ev.GAIN, 0, Deck.SOUVENIR, koma, 0, -1)]
    assert [e[2] for e in ev[3:7]] == [Deck.MEAL] * 4 and ev[3][0] == Ev.DRAW
    assert (
        pos.ps[0, PF.SOUVENIRS] == 2 and pos.ps[0, PF.PTS_SOUVENIRS] == 3 and pos.ps[0, PF.PTS_LEGENDARY] == 1
    )
    # the last Inn is not an intermediate Inn
    pos = xr_position(rs, travelers=["daigoro", "kinko", "satsuki"], positions=[53, 50, 52], mode=mode)
    pos.stop(0, 54)
    assert [e for e in pos.events() if e[2] == Deck.SOUVENIR] == [] and pos.ps[0, PF.SOUVENIRS] == 0


# ------------------------------------------------------------------ Gotozaemon
@BOTH
def test_gotozaemon_coin_at_each_panorama_stop(mode: str) -> None:
    """Seed 002 "Gotozaemon the souvenir seller": "Gotozaemon gains a coin at each stop on a
    Panorama space"; "If he decides to take a Cherry Tree, he gains 2 points and 2 coins"."""
    rs = rs_with(["gotozaemon", "kinko", "satsuki"])
    trav = ["gotozaemon", "kinko", "satsuki"]
    pos = xr_position(rs, travelers=trav, positions=[0, 14, 14], mode=mode)
    assert pos.ps[0, PF.COINS] == 0
    pos.stop(0, PADDY)
    assert choice(pos, 0) == 1
    assert pos.ps[0, PF.COINS] == 2 and pos.ps[0, PF.PTS_CHERRY] == 2 == pos.ps[0, PF.SCORE]
    pos = xr_position(rs, travelers=trav, markets={"cherry": 0}, positions=[0, 14, 14], mode=mode)
    pos.stop(0, PADDY)
    assert choice(pos, 0) == 0
    assert pos.ps[0, PF.COINS] == 1 and pos.ps[0, PF.PTS_PANORAMAS] == 1 == pos.ps[0, PF.SCORE]


@BOTH
def test_gotozaemon_no_coin_through_annaibito(mode: str) -> None:
    """Seed 002 "Gotozaemon": "The Souvenir seller gains an additional coin only when he stops on a
    Panorama space, not when he encounters a Guide (Annaibito)"."""
    rs = rs_with(["gotozaemon", "kinko", "satsuki"])
    (guide,) = encounter_ids(rs, ("annaibito", 0))
    pos = xr_position(
        rs,
        travelers=["gotozaemon", "kinko", "satsuki"],
        positions=[0, 14, 14],
        top={Deck.ENCOUNTER: [guide]},
        mode=mode,
    )
    pos.stop(0, ENCOUNTER)
    assert choice(pos, 0) == 0  # no coin for a Calligraphy card
    assert pos.events(Ev.PANORAMA) == [(Ev.PANORAMA, 0, 0, PanSrc.ANNAIBITO, -1, -1)]
    assert pos.ps[0, PF.COINS] == 0 and pos.ps[0, PF.PAN0] == 1


# ------------------------------------------------------------------ Jirocho
@BOTH
@pytest.mark.parametrize("face", [0, 2, 4])
def test_jirocho_bets_one_coin_at_intermediate_inns(mode: str, face: int) -> None:
    """Seed 002 "Jirocho the yakuza": "When he arrives at one of the three intermediate Inns,
    before the Meal, Jirocho can try his luck in the Gaming Room. He must then bet 1 coin and roll
    the Fortune die. Depending on the result, he may lose his coin, get it back, or get it back and
    win 1, 2 or 3 additional coins" (C28): coins 5 - 1 + face; the roll comes before the meal."""
    rs = rs_with(
        ["jirocho", "kinko", "satsuki"], overrides=(("crossroads.fortune_die", ",".join([str(face)] * 6)),)
    )
    pos = xr_position(
        rs,
        travelers=["jirocho", "kinko", "satsuki"],
        positions=[13, 10, 12],
        coins=[5, 5, 5],
        piles={Deck.MEAL: []},
        mode=mode,
    )
    pos.stop(0, INN1)
    assert pos.events()[1:] == [
        (Ev.OPTION, 0, Opt.JIROCHO, 1, -1, -1),
        (Ev.DIE, 0, face, 1, DieSrc.JIROCHO, -1),
    ]
    assert pos.ps[0, PF.COINS] == 5 - 1 + face and pos.ps[0, PF.GAMBLES] == 1


@BOTH
def test_jirocho_bet_is_optional_and_only_at_intermediate_inns(mode: str) -> None:
    """C28: Jirocho's bet is optional (random bots bet about half the time); without a coin he
    cannot bet; at the last Inn he does not play."""
    rs = rs_with(["jirocho", "kinko", "satsuki"], bots=("random",))
    answers = []
    for seed in range(40):
        pos = xr_position(
            rs,
            travelers=["jirocho", "kinko", "satsuki"],
            positions=[13, 10, 12],
            coins=[5, 5, 5],
            bots=Bot.RANDOM,
            piles={Deck.MEAL: []},
            seed=seed,
            mode=mode,
        )
        pos.stop(0, INN1)
        (opt,) = pos.events(Ev.OPTION)
        answers.append(opt[3])
        assert len(pos.events(Ev.DIE)) == opt[3]
    assert 10 <= sum(answers) <= 30
    for coins, where, start in ((0, INN1, 13), (5, 54, 53)):
        pos = xr_position(
            rs,
            travelers=["jirocho", "kinko", "satsuki"],
            positions=[start, 10, 12],
            coins=[coins, 5, 5],
            piles={Deck.MEAL: []},
            mode=mode,
        )
        pos.stop(0, where)
        assert pos.events(Ev.OPTION) == [] and pos.events(Ev.DIE) == [] and pos.ps[0, PF.COINS] == coins


# ------------------------------------------------------------------ Kita and Miyataka
@BOTH
def test_kita_encounter_and_calligraphy(mode: str) -> None:
    """Seed 002 "Kita the old woman": "Kita can carry out both actions when stopping at an
    Encounter space: draw an Encounter card AND buy a Calligraphy card" (C27: either order; the greedy
    Kita draws the Encounter first, C42: then takes the Calligraphy card); both count for Chatterbox."""
    rs = rs_with(["kita", "kinko", "satsuki"])
    (samurai,) = encounter_ids(rs, "samurai")
    pos = xr_position(
        rs,
        travelers=["kita", "kinko", "satsuki"],
        markets={"calligraphy": ["perfection"]},
        positions=[0, 14, 14],
        top={Deck.ENCOUNTER: [samurai]},
        mode=mode,
    )
    pos.stop(0, ENCOUNTER)
    perfection = rs.rules.calligraphy.index("perfection")
    assert pos.events()[1:] == [
        (Ev.CHOICE, 0, Space.ENCOUNTER, 2, -1, -1),
        (Ev.DRAW, 0, Deck.ENCOUNTER, samurai, -1, -1),
        (Ev.GAIN, 0, Deck.ENCOUNTER, samurai, 0, -1),
        (Ev.OPTION, 0, Opt.SECOND, 1, -1, -1),
        (Ev.GAIN, 0, Deck.CALLIGRAPHY, perfection, 1, -1),
    ]
    assert pos.ps[0, PF.ENCOUNTERS] == 1 and pos.ps[0, PF.CALLIGRAPHY] == 1 and pos.ps[0, PF.COINS] == 3
    assert pos.ps[0, PF.PTS_ENCOUNTERS] == 3


@BOTH
def test_miyataka_donation_and_amulet(mode: str) -> None:
    """Seed 002 "Miyataka the superstitious woman": "Miyataka can carry out both actions when
    stopping at a Temple space: give coins to the Temple AND buy an Amulet" (C27: either order; the greedy
    Miyataka with 4 coins buys the Amulet first, its coin to the bank, then donates)."""
    rs = rs_with(["miyataka", "kinko", "satsuki"])
    pos = xr_position(
        rs,
        travelers=["miyataka", "kinko", "satsuki"],
        markets={"amulets": ["devotion"]},
        positions=[0, 14, 14],
        mode=mode,
    )
    pos.stop(0, 2)
    ev = pos.events()
    assert ev[1:4] == [
        (Ev.CHOICE, 0, Space.TEMPLE, 3, -1, -1),
        (Ev.GAIN, 0, Deck.AMULET, rs.rules.amulets.index("devotion"), 1, -1),
        (Ev.OPTION, 0, Opt.SECOND, 1, -1, -1),
    ]
    assert ev[4][0] == Ev.DONATE and ev[5:] == []
    d = ev[4][2]
    assert pos.ps[0, PF.COINS] == 4 - d - 1 and pos.ps[0, PF.DONATED] == d == pos.ps[0, PF.PTS_TEMPLE] >= 1


# ------------------------------------------------------------------ Nampo
@BOTH
def test_nampo_points_by_the_meal_value(mode: str) -> None:
    """Seed 002 "Nampo the gourmet": "Nampo scores additional points, at each Inn, depending on the
    value of the Meal he eats: One Meal worth 1 coin gives 1 additional point ... 2 ... 2 ... 3 ... 3"
    (C38: ``pts_other``); the last Inn too; no meal, no bonus."""
    rs = rs_with(["nampo", "kinko", "satsuki"])
    for dish, value, inn in (("dango", 1, INN1), ("sushi", 2, INN3), ("unagi", 3, 54)):
        (card,) = meal_ids(rs, dish)
        pos = xr_position(
            rs,
            travelers=["nampo", "kinko", "satsuki"],
            positions=[inn - 1, inn, inn],
            coins=[5, 5, 5],
            hand=[card],
            mode=mode,
        )
        pos.stop(0, inn)
        assert pos.events(Ev.GAIN) == [(Ev.GAIN, 0, Deck.MEAL, card, value, -1)]
        assert pos.ps[0, PF.PTS_OTHER] == value and pos.ps[0, PF.PTS_MEALS] == 6
    (card,) = meal_ids(rs, "unagi")
    pos = xr_position(
        rs,
        travelers=["nampo", "kinko", "satsuki"],
        positions=[13, 14, 14],
        coins=[0, 5, 5],
        hand=[card],
        mode=mode,
    )
    pos.stop(0, INN1)
    assert pos.events(Ev.GAIN) == [] and pos.ps[0, PF.PTS_OTHER] == 0


# ------------------------------------------------------------------ base Travelers with Crossroads cards
@BOTH
def test_mitsukuni_point_for_a_bathhouse(mode: str) -> None:
    """Seed 002 "Notes Crossroads": "Mitsukuni the Old earns 1 point if he takes a Bathhouse card"."""
    rs = rs_with(["mitsukuni", "kinko", "satsuki"])
    pos = xr_position(rs, travelers=["mitsukuni", "kinko", "satsuki"], positions=[0, 14, 14], mode=mode)
    pos.stop(0, HOT)
    assert choice(pos, 0) == 1
    assert pos.ps[0, PF.PTS_BATHHOUSES] == 4 and pos.ps[0, PF.PTS_OTHER] == 1 and pos.ps[0, PF.COINS] == 5


@BOTH
def test_umegae_coin_and_point_buying_calligraphy(mode: str) -> None:
    """Seed 002 "Notes Crossroads": "Umegae the Street Entertainer earns 1 coin and 1 point if she
    buys Calligraphy" (her bonus comes first: with 0 coins she can still pay the Calligraphy;
    Perfection with 5 achievements is worth more to the greedy player than an Encounter)."""
    rs = rs_with(["umegae", "kinko", "satsuki"])
    pos = xr_position(
        rs,
        travelers=["umegae", "kinko", "satsuki"],
        markets={"calligraphy": ["perfection"]},
        positions=[0, 14, 14],
        coins=[0, 5, 5],
        fields={0: {"ACHIEVEMENTS": 5}},
        mode=mode,
    )
    pos.stop(0, ENCOUNTER)
    assert choice(pos, 0) == 1 and pos.events(Ev.DRAW) == []
    assert pos.ps[0, PF.CALLIGRAPHY] == 1 and pos.ps[0, PF.COINS] == 0 and pos.ps[0, PF.PTS_OTHER] == 1


# ------------------------------------------------------------------ Encounters never reach Crossroads cards
# (C39)
@BOTH
def test_encounters_never_give_crossroads_cards(mode: str) -> None:
    """Seed 002 "Notes Crossroads": "The effects of the Encounter cards are limited to the Tokaido
    cards and do not extend to the Crossroads cards. So a Guide (Annaibito) does not let you select
    a Cherry Tree, a Priest (Miko) does not let you purchase an Amulet, a Craftsman (Shokunin) does
    not let you take a Legendary Object" (C39). With no coin (no Calligraphy) each stop draws the
    Encounter: Annaibito with every panorama complete gives nothing, Miko a temple coin, Shokunin
    with an empty Souvenir pile nothing; no Crossroads card moves."""
    rs = make_rules(xr_config(3))
    for kind, extra in (
        ("annaibito", {"panoramas": {0: [3, 4, 5]}}),
        ("miko", {}),
        ("shokunin", {"piles": {Deck.SOUVENIR: []}}),
    ):
        (card,) = encounter_ids(rs, kind)
        pos = xr_position(
            rs, positions=[0, 14, 14], coins=[0, 5, 5], top={Deck.ENCOUNTER: [card]}, mode=mode, **extra
        )
        pos.stop(0, ENCOUNTER)
        assert choice(pos, 0) == 0 and pos.ps[0, PF.ENCOUNTERS] == 1
        assert [e[2] for e in pos.events(Ev.GAIN)] == [Deck.ENCOUNTER]
        assert list(pos.pub["xcnt"]) == [6, 6] and pos.pub["mkt"][:, :6].sum() == 18
        assert pos.ps[0, PF.CHERRY] == pos.ps[0, PF.LEGENDARY] == pos.ps[0, PF.AMULETS] == 0
        assert pos.ps[0, PF.DONATED] == (kind == "miko") and pos.ps[0, PF.SCORE] == (kind == "miko")


@BOTH
def test_hirotada_bank_coin_at_a_temple_with_an_amulet(mode: str) -> None:
    """Rulebook "Hirotada": "Each time he stops at the Temple, Hirotada can take one coin from the bank"
    and seed 002: "The Tokaido Travelers' abilities work with the Crossroads cards": taking the
    Amulet instead of a donation, he may still add his bank coin (``DONATE(t, 0, 0|1)`` after
    ``CHOICE``), 1 temple point, counted for the ranking."""
    rs = rs_with(["hirotada", "kinko", "satsuki"], overrides=NO_START)
    seen = set()
    for seed in range(40):
        pos = xr_position(
            rs,
            travelers=["hirotada", "kinko", "satsuki"],
            positions=[0, 14, 14],
            coins=[3, 5, 5],
            bots=Bot.RANDOM,
            seed=seed,
            mode=mode,
        )
        pos.stop(0, 2)
        ev = pos.events()
        opt = choice(pos, 0)
        donate = pos.events(Ev.DONATE)
        assert len(donate) == 1
        (_, _, coins, bank, _, _) = donate[0]
        assert pos.ps[0, PF.DONATED] == coins + bank == pos.ps[0, PF.PTS_TEMPLE]
        if opt == 1:
            assert coins == 0 and pos.ps[0, PF.AMULETS_BOUGHT] == 1
            kinds = [e[0] for e in ev]
            assert kinds.index(Ev.CHOICE) < kinds.index(Ev.DONATE) < kinds.index(Ev.GAIN)
            seen.add(bank)
    assert seen == {0, 1}
