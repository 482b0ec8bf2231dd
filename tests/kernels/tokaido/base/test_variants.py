"""Rules of the variants (rulebook "Variations") and their combinations.

Set-up runs the real ``setup_nb`` (``tests/positions.setup_position``); the
combinations play whole games and have the referee (``sim/games/tokaido/referee/game.py``) check
every move. Docstrings quote the rulebook (seed 000) or name the rule choice.
"""

from __future__ import annotations

import pytest

from kernels.tokaido.core.board import legal_moves_nb
from kernels.tokaido.core.enums import PF, Ability, Ev, P, Space
from sim.games.tokaido.engine import play_games
from sim.games.tokaido.referee.game import explain_mismatch, referee_game, rows_from_records
from sim.games.tokaido.referee.state import GameState
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.positions import BOTH, kern, make_position, make_rules, setup_position


def prep_rule(n: int, seat: int) -> int:
    """Seed 004 "Preparations", counted back from the last to leave: "the last player gains two coins,
    the next gains one coin, the fourth and fifth players each lose a coin" (the third: none)."""
    from_last = n - 1 - seat  # 0 = the last to leave
    if from_last == 0:
        return 2
    if from_last == 1:
        return 1
    return 0 if from_last == 2 else -1


PREP = {n: [prep_rule(n, seat) for seat in range(n)] for n in (2, 3, 4, 5)}
FIXED = ["hirotada", "kinko", "mitsukuni", "umegae", "yoshiyasu"]  # 8, 7, 6, 5, 9 coins


@BOTH
def test_initiation_seven_coins_and_no_travelers(mode: str) -> None:
    """Rulebook "Journey of Initiation": "leave the Traveler tiles in the box and give 7 coins to
    each player"."""
    rs = make_rules(GameConfig(n_players=4, variants=("initiation",)))
    assert rs.ru["params"][P.INITIATION] == 1
    pos = setup_position(rs, seed=2, mode=mode)
    for p in range(4):
        assert pos.ps[p, PF.COINS] == 7 and pos.ps[p, PF.TRAVELER] == -1
        assert pos.ps[p, PF.ABILITY] == Ability.NONE
    assert pos.events(Ev.DEAL) == [] and pos.events(Ev.KEEP) == []


def test_return_trip_reverses_the_board() -> None:
    """Rulebook "Return Trip": "starting at Edo and traveling to Kyoto": the board's spaces (and
    double flags) in reverse order; the first leg ends at the Inn on index 13."""
    base = make_rules(GameConfig(n_players=3, travelers="random")).rules
    rev = make_rules(GameConfig(n_players=3, travelers="random", variants=("return-trip",))).rules
    assert rev.board_types == base.board_types[::-1]
    assert rev.board_double == base.board_double[::-1]
    assert [i for i, t in enumerate(rev.board_types) if t == Space.INN] == [0, 13, 27, 40, 54]
    assert rev.board_types[1:4] == [Space.VILLAGE, Space.SEA, Space.PADDY]


@BOTH
def test_return_trip_first_leg_ends_at_the_reversed_inn(mode: str) -> None:
    """Rulebook "Return Trip" with "Arriving at an Inn": the legal stops of the first leg run up to
    the Inn at index 13 of the reversed board."""
    rs = make_rules(GameConfig(n_players=3, travelers="random", variants=("return-trip",)))
    pos = make_position(rs, positions=[0, 13, 13], coins=[5, 5, 5])
    k = kern(legal_moves_nb, mode)(pos.pub, pos.ru, 0)
    assert list(pos.pub["cand"][:k]) == list(range(1, 14))


def test_gastronomy_sets_the_hand_extra_to_zero() -> None:
    """Rulebook "Gastronomy": the first Traveler draws "a number of Meal cards equal to the number of
    players" (``variants.gastronomy.hand_extra`` = 0; the Inn tests check the draws)."""
    assert make_rules(GameConfig(n_players=3, travelers="random")).ru["params"][P.HAND_EXTRA] == 1
    gas = make_rules(GameConfig(n_players=3, travelers="random", variants=("gastronomy",)))
    assert gas.ru["params"][P.HAND_EXTRA] == 0


@BOTH
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_preparations_by_departure_order(mode: str, n: int) -> None:
    """Rulebook "Preparations": "each Traveler's starting bank is modified" by the order they leave
    Kyoto; 4 players: "The last player to leave Kyoto starts the game with 2 additional coins ...
    The first player to leave removes one coin"; seed 004, counted back from the last to leave: "the
    last player gains two coins, the next gains one coin, the fourth and fifth players each lose a
    coin" (C7): 2p +1/+2, 3p 0/+1/+2. The expected coins come from the rule (``prep_rule``), not from a
    table, and the 4-player case is the rulebook's example."""
    assert [prep_rule(4, s) for s in range(4)] == [-1, 0, 1, 2]  # rulebook 000's example
    names = FIXED[:n]
    rs = make_rules(GameConfig(n_players=n, travelers=",".join(names), variants=("preparations",)))
    base = {p: rs.rules.travelers[rs.rules.traveler_index(x)].coins for p, x in enumerate(names)}
    for seed in range(5):
        pos = setup_position(rs, seed=seed, mode=mode)
        for p in range(n):
            seat = int(pos.ps[p, PF.SEAT])
            assert pos.ps[p, PF.COINS] == base[p] + prep_rule(n, seat) == pos.ps[p, PF.COINS_START]
        lineup = {e[1]: e[2] for e in pos.events(Ev.LINEUP)}
        assert sorted(range(n), key=lambda p: lineup[p]) == sorted(range(n), key=lambda p: pos.ps[p, PF.SEAT])
    state = GameState(rs.config, rs.rules)  # the referee derives the same coins from the same rule
    state.set_lineup({t: t for t in range(state.n_trav)})
    for tr in state.players():
        state.assign_traveler(tr, rs.rules.traveler_index(names[tr.index]), -1)
        assert state.starting_coins(tr) == max(0, base[tr.index] + prep_rule(n, tr.seat))


@BOTH
def test_initiation_with_preparations(mode: str) -> None:
    """Rulebook "You can mix and match these variations": Initiation's 7 coins, then the
    Preparations adjustment by departure order (4 players: -1, 0, +1, +2)."""
    rs = make_rules(GameConfig(n_players=4, variants=("initiation", "preparations")))
    pos = setup_position(rs, seed=4, mode=mode)
    assert sorted(int(pos.ps[p, PF.COINS]) for p in range(4)) == [6, 7, 8, 9]
    for p in range(4):
        assert pos.ps[p, PF.COINS] == 7 + PREP[4][pos.ps[p, PF.SEAT]]


@pytest.mark.parametrize(
    ("n", "variants", "expansions"),
    [
        (2, ("initiation", "gastronomy", "preparations"), ()),
        (3, ("return-trip", "preparations"), ("new-encounters",)),
        (4, ("initiation", "return-trip", "gastronomy", "preparations"), ("new-encounters",)),
        (5, ("gastronomy", "return-trip"), ()),
    ],
)
def test_variant_combinations_play_legal_games(
    n: int, variants: tuple[str, ...], expansions: tuple[str, ...]
) -> None:
    """Rulebook "Variations": "You can mix and match these variations ...; they can also be used in
    the two-player version": whole games under each combination pass the referee."""
    config = GameConfig(n_players=n, variants=variants, expansions=expansions, travelers="random")
    rules = config.rules()
    batch = play_games(config, rules, seed=11, start=0, count=3, log=True)
    for i in range(3):
        rows = rows_from_records(batch.records[i * n : (i + 1) * n])
        res = referee_game(config, rules, batch.game_events(i), rows)
        assert res.ok, explain_mismatch(res)
        if "initiation" in variants:
            prep = PREP[n] if "preparations" in variants else [0] * n
            assert sorted(r["coins_start"] for r in rows) == sorted(7 + x for x in prep)
        moves = [e for e in batch.game_events(i).tolist() if e[0] == Ev.MOVE]
        inns = {e[2] for e in moves if rules.board_types[e[2]] == Space.INN}
        assert inns == ({13, 27, 40, 54} if "return-trip" in variants else {14, 27, 41, 54})
