"""The promo Travelers: Antoine, Naiade, Eriku, Felicia (seed 002 "Promo Travelers", L501-568).

Hand-made positions (``tests/helpers/positions.py``); each test quotes the seed line it checks and the
project's default where the seed is silent (docs/rules-choices.md P1-P8). The referee's tie
functions (``sim/games/tokaido/referee/promos.py``) are checked on the same cases as the kernels.
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.enums import PF, Ability, Bot, Deck, Ev, G, Opt, P, PanSrc, Space
from kernels.tokaido.core.score import end_achievements_nb, final_ranks_nb, temple_ranking_nb
from kernels.tokaido.game.crossroads import alternative_nb, calligraphy_scoring_nb
from kernels.tokaido.game.promos import closest_nb, eriku_start_nb, setup_antoine_nb
from sim.games.tokaido.referee.promos import antoine_rank_keys, antoine_temple_bonus, antoine_winners
from sim.games.tokaido.referee.scoring import achievement_winners, final_ranks
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from sim.games.tokaido.rules.tables import RulesError
from tests.helpers.positions import (
    BOTH,
    encounter_ids,
    kern,
    make_position,
    make_rules,
    meal_ids,
    setup_position,
    xr_position,
)

PROMO = ("promos",)
ALL = 1_000_000  # Felicia wins every round (P.FELICIA_WIN_PPM)
INN, SEA, VILLAGE, ENCOUNTER = 14, 11, 1, 3  # base board: a Sea station, a Village, an Encounter


def rs_of(names: list[str], xr: bool = False, weights: dict | None = None, **params: int):
    exp = ("crossroads", "promos") if xr else PROMO
    cfg = GameConfig(n_players=len(names), travelers=",".join(names), expansions=exp)
    return make_rules(cfg, weights=weights, **params)


def position(
    names: list[str], xr: bool = False, params: dict | None = None, weights: dict | None = None, **kw
):
    rs = rs_of(names, xr, weights, **(params or {}))
    pos = (xr_position if xr else make_position)(rs, travelers=names, **kw)
    kern(setup_antoine_nb, pos.mode)(pos.pub, pos.ru)
    return pos


# ------------------------------------------------------------------ the tiles
def test_promo_travelers_coins_genders_and_pool() -> None:
    """Seed 002 L501-557 (expansions.md B.1): Antoine 8 coins, Naiade 5, Eriku 5, Felicia 4; M, M
    (P2: gender.naiade, overridable), M, F. They join the pool only with --expansions promos."""

    def rules(n: int = 2, *over: tuple[str, str], exp: tuple[str, ...] = PROMO):
        return GameConfig(n_players=n, travelers="random", expansions=exp, overrides=over).rules()

    got = {
        t.name: (t.coins, t.gender, t.ability)
        for t in rules().travelers
        if t.name in ("antoine", "naiade", "eriku", "felicia")
    }
    assert got == {
        "antoine": (8, "M", Ability.ANTOINE),
        "naiade": (5, "M", Ability.NAIADE),
        "eriku": (5, "M", Ability.ERIKU),
        "felicia": (4, "F", Ability.FELICIA),
    }
    r = rules(2, ("gender.naiade", "F"))
    assert r.travelers[r.traveler_index("naiade")].gender == "F"
    assert "antoine" not in {t.name for t in rules(exp=()).travelers}
    assert {"antoine", "felicia"} <= {t.name for t in rules(exp=("crossroads", "promos")).travelers}
    with pytest.raises((ConfigError, RulesError)):
        GameConfig(n_players=2, travelers="antoine,kinko").rules()
    with pytest.raises((ConfigError, RulesError), match="felicia_win_p"):
        rules(2, ("abilities.felicia_win_p", "1.5"))
    assert rules(2, ("abilities.felicia_win_p", "1/2")).params["FELICIA_WIN_PPM"] == 500_000


# ------------------------------------------------------------------ Antoine (P1)
@BOTH
def test_antoine_wins_a_temple_tie_for_first(mode: str) -> None:
    """Seed 002 L503-506 "Antoine automatically wins all ties involving him (for example: Donations to
    the Temple...)"; P1a: tied 1st with X, Antoine scores 10, X 7, the next 4, then 2."""
    pos = position(["antoine", "kinko", "satsuki", "umegae"], donated=[3, 3, 2, 1], mode=mode)
    kern(temple_ranking_nb, mode)(pos.pub, pos.ru)
    got = [int(pos.ps[t, PF.PTS_TEMPLE_BONUS]) for t in range(4)]
    assert got == [10, 7, 4, 2] == antoine_temple_bonus([3, 3, 2, 1], 0, [10, 7, 4, 2])


@BOTH
def test_antoine_tie_below_first_and_the_others_stay_tied(mode: str) -> None:
    """P1a: the others tied with him drop one place and stay tied with each other: 3 / Antoine 2,
    X 2, Y 2 / 1 scores 10 / 7 / 4, 4 / 2."""
    pos = position(["kinko", "antoine", "satsuki", "umegae", "chuubei"], donated=[3, 2, 2, 2, 1], mode=mode)
    kern(temple_ranking_nb, mode)(pos.pub, pos.ru)
    got = [int(pos.ps[t, PF.PTS_TEMPLE_BONUS]) for t in range(5)]
    assert got == [10, 7, 4, 4, 2] == antoine_temple_bonus([3, 2, 2, 2, 1], 1, [10, 7, 4, 2])


@BOTH
def test_antoine_ties_off_is_the_base_rule(mode: str) -> None:
    """abilities.antoine_ties = "off": ties share a place (C-rules of the Temple ranking), as without him."""
    pos = position(
        ["antoine", "kinko", "satsuki", "umegae"], params={"antoine_ties": 0}, donated=[3, 3, 2, 1], mode=mode
    )
    kern(temple_ranking_nb, mode)(pos.pub, pos.ru)
    assert pos.gs[G.ANTOINE] == 0
    assert [int(pos.ps[t, PF.PTS_TEMPLE_BONUS]) for t in range(4)] == [10, 10, 7, 4]


@BOTH
def test_antoine_alone_takes_a_tied_end_achievement(mode: str) -> None:
    """Seed 002 L504-505 "...Achievements...": P1b, tied for the most, only Antoine scores the 3
    points; a tie without him is shared as usual."""
    fields = {
        0: {"MEAL_VALUE": 6, "HOT_SPRINGS": 2},
        1: {"MEAL_VALUE": 6, "HOT_SPRINGS": 3},
        2: {"MEAL_VALUE": 6, "HOT_SPRINGS": 3},
    }
    pos = position(["antoine", "kinko", "satsuki"], fields=fields, mode=mode)
    kern(end_achievements_nb, mode)(pos.pub, pos.ru)
    got = [int(pos.ps[t, PF.PTS_ACHIEVEMENTS]) for t in range(3)]
    assert got == [3, 3, 3]  # Gourmet: Antoine alone; Bather: Kinko and Satsuki share it
    assert antoine_winners(achievement_winners([6, 6, 6], 1), 0) == [0]
    assert antoine_winners(achievement_winners([2, 3, 3], 1), 0) == [1, 2]


@BOTH
def test_antoine_wins_a_final_score_tie(mode: str) -> None:
    """Seed 002 L505 "and even the final score of the game": P1c, he ranks 1st alone (no shared win,
    even against more achievements); the others tied with him share 2nd."""
    fields = {
        0: {"SCORE": 60, "ACHIEVEMENTS": 0},
        1: {"SCORE": 60, "ACHIEVEMENTS": 2},
        2: {"SCORE": 60, "ACHIEVEMENTS": 2},
        3: {"SCORE": 70},
    }
    pos = position(["antoine", "kinko", "satsuki", "umegae"], fields=fields, mode=mode)
    ranks = pos.ranks_arr
    winners = kern(final_ranks_nb, mode)(pos.pub, ranks)
    assert [int(r) for r in ranks[:4]] == [2, 3, 3, 1] and winners == 1
    pos.ps[3, PF.SCORE] = 50
    winners = kern(final_ranks_nb, mode)(pos.pub, ranks)
    assert [int(r) for r in ranks[:4]] == [1, 2, 2, 4] and winners == 1
    assert final_ranks(antoine_rank_keys([60, 60, 60, 50], [0, 2, 2, 0], 0)) == [1, 2, 2, 4]


# ------------------------------------------------------------------ Naiade (P2)
@BOTH
def test_naiade_takes_panoramas_in_reverse_order(mode: str) -> None:
    """Seed 002 L508-511 "Naiade must take the Sea, Mountain, and Rice Paddy Panorama sections in
    reverse order (5, 4, 3, 2, 1)": her first Sea card is 5 points, the next 4."""
    pos = position(["naiade", "kinko", "satsuki"], positions=[10, 0, 0], mode=mode)
    assert pos.ru["board"][0, SEA] == Space.SEA
    pos.stop(0, SEA)
    assert pos.ps[0, PF.PTS_PANORAMAS] == 5 and pos.ps[0, PF.PAN2] == 1


@BOTH
def test_naiade_completes_with_the_one_and_takes_the_achievement(mode: str) -> None:
    """P2: she completes a panorama when she takes its "1"; the panorama achievement as usual."""
    pos = position(["naiade", "kinko", "satsuki"], positions=[10, 0, 0], panoramas={0: [0, 0, 4]}, mode=mode)
    pos.stop(0, SEA)
    assert pos.ps[0, PF.PTS_PANORAMAS] == 1 and pos.ps[0, PF.PTS_ACHIEVEMENTS] == 3
    assert pos.ps[0, PF.PAN2] == 5 and pos.gs[G.PAN_ACH] == 4


@BOTH
def test_naiade_reverse_order_from_every_source(mode: str) -> None:
    """P2 "Every panorama source follows her order": an Annaibito (New Encounters' guide) gives her
    Sea card as her next in reverse order, 4 after a first one."""
    rs = rs_of(["naiade", "kinko", "satsuki"])
    cards = encounter_ids(rs, ("annaibito", 2))
    pos = position(
        ["naiade", "kinko", "satsuki"],
        positions=[2, 0, 0],
        panoramas={0: [0, 0, 1]},
        top={Deck.ENCOUNTER: cards},
        mode=mode,
    )
    pos.stop(0, ENCOUNTER)
    assert pos.events(Ev.PANORAMA) == [(Ev.PANORAMA, 0, 2, PanSrc.ANNAIBITO, -1, -1)]
    assert pos.ps[0, PF.PTS_PANORAMAS] == 4


# ------------------------------------------------------------------ Eriku (P3, P4)
@BOTH
def test_eriku_buys_the_top_meal_before_his_first_move(mode: str) -> None:
    """Seed 002 L516-521: "before playing his first move, Eriku can draw the first Meal card from the
    pile and buy it at the given price ... He then gets 6 points" (P3: at set-up, before any move)."""
    rs = rs_of(["eriku", "kinko", "satsuki"])
    pos = setup_position(rs, seed=3, mode=mode)
    (look,) = pos.events(Ev.LOOK)
    card = look[2]
    assert look[1] == 0 and look[3] == 0
    gains = [e for e in pos.events(Ev.GAIN) if e[1] == 0]
    price = int(pos.ru["card"][Deck.MEAL, 1, card])
    assert gains == [(Ev.GAIN, 0, Deck.MEAL, card, price, -1)]
    assert pos.ps[0, PF.PTS_MEALS] == 6 and pos.ps[0, PF.COINS] == 5 - price and pos.ps[0, PF.ERIKU_TOP] == 1


@BOTH
def test_eriku_start_meal_is_optional_and_goes_under(mode: str) -> None:
    """Seed 002 L523 "This action is by no mean mandatory" and L529 "The Meal card that Eriku draws
    and does not buy are placed under the pile": with no coin he leaves it, it goes to the bottom."""
    pos = position(["eriku", "kinko", "satsuki"], coins=[0, 3, 3], mode=mode)
    top = pos.pile(Deck.MEAL)[0]
    kern(eriku_start_nb, mode)(pos.pub, pos.hid, pos.ru)
    assert pos.pile(Deck.MEAL)[-1] == top and pos.ps[0, PF.MEALS] == 0 and pos.gs[G.HAND_N] == 0


@BOTH
def test_eriku_buys_the_top_card_instead_of_the_hand(mode: str) -> None:
    """Seed 002 L525-527 "At the following inns, Eriku can also draw and look at the first Meal card
    ... buy it at the given price instead of buying one of those already available" (P4: after the
    hand is drawn; one meal per Inn, never a dish twice)."""
    rs = rs_of(["eriku", "kinko", "satsuki"])
    hand_cards = meal_ids(rs, "misoshiru", "misoshiru", "nigirimeshi", "nigirimeshi")
    (top,) = meal_ids(rs, "sushi")
    pos = position(
        ["eriku", "kinko", "satsuki"],
        positions=[13, 0, 0],
        dishes={0: ["misoshiru", "nigirimeshi"]},
        top={Deck.MEAL: hand_cards + [top]},
        mode=mode,
    )
    pos.stop(0, INN)
    assert pos.ps[0, PF.MEALS] == 3 and pos.ps[0, PF.ERIKU_TOP] == 1 and pos.ps[0, PF.COINS] == 5 - 2
    assert [e for e in pos.events(Ev.GAIN)] == [(Ev.GAIN, 0, Deck.MEAL, top, 2, -1)]
    assert sorted(pos.hand()) == sorted(hand_cards)


@BOTH
def test_eriku_leaves_the_top_card_under_and_eats_once(mode: str) -> None:
    """Seed 002 L529: the card he looked at and does not buy goes under the pile; he still eats at most
    one meal at the Inn (P4), here from the hand; at Edo, the last Inn, he looks too (P4)."""
    rs = rs_of(["eriku", "kinko", "satsuki"])
    hand_cards = meal_ids(rs, "sushi", "tofu", "dango", "udon")
    (top,) = meal_ids(rs, "misoshiru")
    for inn in (INN, 54):
        pos = position(
            ["eriku", "kinko", "satsuki"],
            positions=[inn - 1, 0, 0],
            dishes={0: ["misoshiru"]},
            top={Deck.MEAL: hand_cards + [top]},
            mode=mode,
        )
        pos.stop(0, inn)
        assert pos.ps[0, PF.MEALS] == 2 and pos.ps[0, PF.ERIKU_TOP] == 0
        assert pos.pile(Deck.MEAL)[-1] == top and len(pos.events(Ev.LOOK)) == 1
        assert (Ev.UNDER, -1, Deck.MEAL, top, -1, -1) in pos.events(Ev.UNDER)


@BOTH
@pytest.mark.parametrize(("name", "inn_meals", "want"), [("eriku", 4, 3), ("eriku", 5, 0), ("kinko", 4, 0)])
def test_eriku_fasting_counts_five_possible_meals(mode: str, name: str, inn_meals: int, want: int) -> None:
    """P3: with his start meal Eriku can eat 5 meals, so Fasting counts 3 per meal out of
    crossroads.calligraphy.fasting_inns_eriku = 5 (C34's 4 for everyone else)."""
    from tests.helpers.positions import give_calligraphy

    pos = position([name, "satsuki", "umegae"], xr=True, fields={0: {"INN_MEALS": inn_meals}}, mode=mode)
    give_calligraphy(pos, 0, "fasting")
    kern(calligraphy_scoring_nb, mode)(pos.pub, pos.ru)
    assert pos.ps[0, PF.PTS_CALLIGRAPHY] == want


# ------------------------------------------------------------------ Felicia (P5-P8)
def duel_rows(pos) -> tuple[list, list, list]:
    opt = [e for e in pos.events(Ev.OPTION) if e[2] == Opt.FELICIA]
    return opt, pos.events(Ev.DUEL), pos.events(Ev.RPS)


@BOTH
@pytest.mark.parametrize(("ppm", "paid"), [(ALL, 0), (0, 2)])
def test_felicia_one_round_per_coin_each_win_a_coin_off(mode: str, ppm: int, paid: int) -> None:
    """Seed 002 L541-546 "The number of rounds is equal to the cost of the card. For each victory,
    Felicia will reduce the cost to play by 1 coin (lost or draw rounds are without any effects)":
    a 2-coin souvenir, 2 rounds; all won: free; none won: 2 coins (P5: abilities.felicia_win_p)."""
    rs = rs_of(["felicia", "kinko", "satsuki"], felicia_win_ppm=ppm)
    cards = [c for c in range(len(rs.rules.souvenirs)) if rs.rules.souvenirs[c].cost == 2][:1]
    pos = position(
        ["felicia", "kinko", "satsuki"],
        params={"felicia_win_ppm": ppm},
        weights={"coin": 0.0, "reserve_pen": 0.0},
        positions=[0, 0, 0],
        coins=[2, 0, 0],
        piles={Deck.SOUVENIR: cards},
        mode=mode,
    )
    pos.stop(0, VILLAGE)
    opt, duel, rps = duel_rows(pos)
    assert opt == [(Ev.OPTION, 0, Opt.FELICIA, 1, -1, -1)] and len(duel) == 1 and duel[0][5] == 2
    assert [r[3] for r in rps] == [int(ppm == ALL)] * 2
    assert [e[4] for e in pos.events(Ev.GAIN)] == [paid] and pos.ps[0, PF.COINS] == 2 - paid


@BOTH
def test_felicia_challenges_who_arrived_just_before_her(mode: str) -> None:
    """Seed 002 L549-551: "Boyan is the closest traveler (he arrived at the Inn right before Felicia)"
    (P7); a meal is a card with a cost (L538-539)."""
    rs = rs_of(["felicia", "kinko", "satsuki", "umegae"])
    pos = position(
        ["felicia", "kinko", "satsuki", "umegae"],
        params={"felicia_win_ppm": ALL},
        positions=[13, 14, 14, 12],
        arrival=[9, 1, 2, 3],
        hand=meal_ids(rs, "sushi", "tofu", "dango"),
        mode=mode,
    )
    pos.stop(0, INN)
    opt, duel, rps = duel_rows(pos)
    assert duel[0][2] == 2 and len(rps) == duel[0][5] > 0  # Satsuki arrived after Kinko, just before her
    assert [e[4] for e in pos.events(Ev.GAIN)] == [0]


@BOTH
@pytest.mark.parametrize(
    ("positions", "arrival", "want"),
    [
        ([20, 18, 22, 16], [1, 2, 3, 4], 2),  # Kinko 2 behind, Satsuki 2 ahead: the one ahead
        ([20, 19, 23, 16], [1, 2, 3, 4], 1),  # Kinko 1 behind is nearer
        ([14, 10, 14, 12], [2, 3, 1, 4], 2),  # at the Inn after Satsuki: Satsuki
        ([14, 10, 11, 13], [1, 2, 3, 4], 3),  # first at the Inn: the nearest one still on the road
    ],
)
def test_felicia_closest_on_the_road_ahead_at_equal_distance(
    mode: str, positions: list[int], arrival: list[int], want: int
) -> None:
    """P7 (the designer's French text, BGG-FELICIA): the nearest other traveler by board position; at
    equal distance the one ahead; at an Inn who arrived just before her; first there, the nearest
    one still on the road."""
    pos = position(["felicia", "kinko", "satsuki", "umegae"], positions=positions, arrival=arrival, mode=mode)
    assert kern(closest_nb, mode)(pos.pub, 0) == want


@BOTH
def test_felicia_duels_only_for_cards_with_a_cost(mode: str) -> None:
    """Seed 002 L537-540 "each time Felicia wants to acquire a card that costs coins (Souvenirs, Meal,
    Amulet, Calligraphy, Legendary Objects, Bath House)" (P6): no duel at a Temple donation or a
    Farm; with Crossroads she duels for a Bathhouse."""
    pos = position(
        ["felicia", "kinko", "satsuki"],
        xr=True,
        params={"felicia_win_ppm": ALL},
        coins=[5, 0, 0],
        markets={"legendary": [], "amulets": [], "calligraphy": []},
        mode=mode,
    )
    kern(alternative_nb, mode)(pos.pub, pos.hid, pos.ru, 0, Space.HOT_SPRING)
    opt, duel, rps = duel_rows(pos)
    cost = int(pos.ru["params"][P.BATH_COST])
    assert len(duel) == 1 and duel[0][3:6] == (Deck.BATHHOUSE, -1, cost) and len(rps) == cost
    assert pos.ps[0, PF.COINS] == 5 and pos.ps[0, PF.BATHHOUSES] == 1
    pos.clear_log()
    from kernels.tokaido.game.stations import temple_nb

    kern(temple_nb, mode)(pos.pub, pos.hid, pos.ru, 0)
    assert duel_rows(pos) == ([], [], [])


@BOTH
def test_random_felicia_may_decline(mode: str) -> None:
    """P6: the challenge is her decision ("she may challenge"): a random bot sometimes declines and
    pays the printed price."""
    seen = set()
    for seed in range(12):
        pos = position(
            ["felicia", "kinko", "satsuki"], positions=[13, 0, 0], bots=Bot.RANDOM, seed=seed, mode=mode
        )
        pos.stop(0, INN)
        seen |= {e[3] for e in pos.events(Ev.OPTION) if e[2] == Opt.FELICIA}
    assert seen == {0, 1}


def test_felicia_win_rate_is_the_rule_parameter() -> None:
    """P5: each round an independent chance event won with abilities.felicia_win_p (1/3: the mixed
    equilibrium of rock-paper-scissors); over whole games the logged rounds match it."""
    from sim.games.tokaido.engine import play_games

    cfg = GameConfig(n_players=3, travelers="felicia,kinko,satsuki", expansions=PROMO)
    batch = play_games(cfg, cfg.rules(), 5, 0, 300, log=True)
    won = [r[3] for i in range(300) for r in batch.game_events(i).tolist() if r[0] == Ev.RPS]
    assert len(won) > 1000 and abs(sum(won) / len(won) - 1 / 3) < 0.04


def test_referee_refuses_a_wrong_duel_or_price() -> None:
    """The independent referee (sim/games/tokaido/referee/promos.py) checks P7's opponent and the price paid:
    the
    same log with another opponent, or with a coin less paid, is refused."""
    from sim.games.tokaido.engine import play_games
    from sim.games.tokaido.referee.game import referee_game

    cfg = GameConfig(n_players=4, travelers="felicia,kinko,satsuki,umegae", expansions=PROMO)
    rules = cfg.rules()
    events = play_games(cfg, rules, 9, 0, 1, log=True).game_events(0).copy()
    assert referee_game(cfg, rules, events).ok
    duel = [i for i, e in enumerate(events.tolist()) if e[0] == Ev.DUEL][0]
    wrong = events.copy()
    wrong[duel, 2] = (wrong[duel, 2] + 1) % 4 or 1
    assert any("closest" in e for e in referee_game(cfg, rules, wrong).errors)
    gain = next(i for i, e in enumerate(events.tolist()) if i > duel and e[0] == Ev.GAIN)
    cheap = events.copy()
    cheap[gain, 4] -= 1
    assert not referee_game(cfg, rules, cheap).ok


# ------------------------------------------------------------------ with the Matsuri cards (P1d, P2)
def matsuri_inn(names: list[str], card: str, **kw):
    """Everyone at the first intermediate Inn (arrived in traveler order), ``card`` kept there."""
    from tests.helpers.matsuri_positions import INN1, matsuri_at, matsuri_ids, mt_config, mt_position

    rs = make_rules(mt_config(len(names), travelers=",".join(names), expansions=("promos",)))
    pos = mt_position(rs, stack=[card], positions=[INN1] * len(names), travelers=names, **kw)
    kern(setup_antoine_nb, pos.mode)(pos.pub, pos.ru)
    pos.hid["deck"][Deck.MATSURI, 1] = matsuri_ids(rs, card)[0]
    matsuri_at(pos, INN1)
    return pos


def test_antoine_alone_takes_a_tied_tanabata_token() -> None:
    """002:L503-506 with L1506-1515, P1d: Tanabata's tie for Bather (2 Hot Springs each) gives the
    2-point token to Antoine alone; an untied leader (Gourmet) keeps hers."""
    pos = matsuri_inn(
        ["chuubei", "antoine", "kinko", "satsuki"],
        "tanabata",
        fields={0: {"HOT_SPRINGS": 2}, 1: {"HOT_SPRINGS": 2}, 2: {"MEAL_VALUE": 3}},
    )
    assert sorted((e[1], e[5]) for e in pos.events(Ev.TOKEN)) == [(1, 1), (2, 0)]
    assert [int(pos.ps[p, PF.PTS_MATSURI]) for p in range(4)] == [0, 2, 2, 0]


def test_antoine_wins_a_shishimai_tie() -> None:
    """002:L1527-1536, P1a/P1d: tied first donors (5 coins each): Antoine 4, the other 2, the next 1."""
    pos = matsuri_inn(["chuubei", "antoine", "kinko", "satsuki"], "shishimai", donated=[5, 5, 3, 0])
    assert [int(pos.ps[p, PF.PTS_MATSURI]) for p in range(4)] == [2, 4, 1, 0]


def test_antoine_alone_scores_an_ofune_shared_completion() -> None:
    """002:L1484-1493, M19, P1d: two complete the Sea together through o-Fune: Antoine takes the
    achievement card, the other completes without a token (and does not count as holding it)."""
    pos = matsuri_inn(
        ["chuubei", "antoine", "kinko", "satsuki"],
        "ofune",
        panoramas={0: [0, 0, 4], 1: [0, 0, 4], 2: [0, 0, 5]},
    )
    assert [e[1] for e in pos.events(Ev.PANORAMA)] == [1, 0, 3]  # his section first: the card is his
    assert pos.ps[1, PF.PTS_ACHIEVEMENTS] == 3 and pos.ps[1, PF.ACHIEVEMENTS] == 1
    assert pos.ps[0, PF.PTS_MATSURI] == 0 and pos.ps[0, PF.ACHIEVEMENTS] == 0 and pos.ps[0, PF.PAN2] == 5


def test_naiade_ofune_section_in_reverse_order() -> None:
    """002:L1484-1493 with P2: o-Fune gives Naiade her next Sea card in reverse order: 5 for a first
    one, 4 after one (the others 1 and 2: a section count, no points held before)."""
    pos = matsuri_inn(["naiade", "kinko", "satsuki"], "ofune", panoramas={1: [0, 0, 1]})
    assert [int(pos.ps[p, PF.PTS_PANORAMAS]) for p in range(3)] == [5, 2, 1]
    pos = matsuri_inn(["naiade", "kinko", "satsuki"], "ofune", panoramas={0: [0, 0, 1]})
    assert pos.ps[0, PF.PTS_PANORAMAS] == 4
