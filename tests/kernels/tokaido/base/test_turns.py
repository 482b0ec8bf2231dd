"""Rules of movement: turn order, legal stops, the 2-player Neutral's controller.

Hand-made positions (``tests/helpers/positions.py``); each test quotes the rulebook
(seed 000) or names the rule choice (docs/rules-choices.md) it checks.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.tokaido.core.board import lead_player_nb, legal_moves_nb, next_mover_nb
from kernels.tokaido.core.enums import PF, Ev, G
from sim.games.tokaido.referee.state import GameState
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.positions import BOTH, INNS, LAST, kern, make_position, make_rules, setup_position

CFG = {n: GameConfig(n_players=n, travelers="random") for n in range(2, 6)}


def rules(n: int):
    return make_rules(CFG[n])


def legal(pos, t: int, mode: str = "jit") -> list[int]:
    k = kern(legal_moves_nb, mode)(pos.pub, pos.ru, t)
    return [int(x) for x in pos.pub["cand"][:k]]


# ------------------------------------------------------------------ turn order
@BOTH
def test_farthest_behind_moves_next(mode: str) -> None:
    """Rulebook "Playing the Game": "the player whose Traveler is farthest behind on the road
    ... is the player who takes the next turn"."""
    pos = make_position(rules(4), positions=[10, 3, 7, 12])
    assert kern(next_mover_nb, mode)(pos.pub) == 1
    pos = make_position(rules(4), positions=[10, 30, 7, 12])
    assert kern(next_mover_nb, mode)(pos.pub) == 2


@BOTH
def test_traveler_still_last_moves_again(mode: str) -> None:
    """Rulebook: "Sometimes the last Traveler may still be last after moving, in which case that
    player goes again immediately"."""
    pos = make_position(rules(3), positions=[2, 9, 11], mode=mode)
    pos.stop(0, 7)  # a Farm, still behind space 9
    assert kern(next_mover_nb, mode)(pos.pub) == 0
    pos.stop(0, 10)  # now ahead of traveler 1
    assert kern(next_mover_nb, mode)(pos.pub) == 1


def test_last_traveler_moves_again_in_kernel_turns() -> None:
    """Rulebook "goes again immediately", through the real ``turn_nb``: from space 12 with the
    others at the Inn, traveler 0 moves to 13 (still last) or to the Inn (last arrival, so still
    behind); either way the next move is its own again."""
    for seed in range(6):
        pos = make_position(rules(3), positions=[12, 14, 14], arrival=[5, 1, 2], seed=seed)
        assert pos.turn() and pos.turn()
        assert [e[1] for e in pos.events(Ev.MOVE)] == [0, 0]


@BOTH
def test_double_space_later_arrival_moves_first(mode: str) -> None:
    """Rulebook "Single / double spaces": "a Traveler who arrives after them must occupy the
    second space"; the one off the road is farther behind (game-data.md 11) and moves first."""
    pos = make_position(rules(4), positions=[3, 4, 20, 20], mode=mode)
    pos.stop(0, 5)  # Hot Spring, double
    pos.stop(1, 5)
    assert pos.pub["occ"][5] == 2
    assert kern(next_mover_nb, mode)(pos.pub) == 1
    pos.stop(1, 8)
    assert kern(next_mover_nb, mode)(pos.pub) == 0


@BOTH
def test_last_to_arrive_at_inn_leaves_first(mode: str) -> None:
    """Rulebook "Continuing the Journey": "The last Traveler on the route — that is, the one
    farthest from the Inn — takes the next turn"; the queue's last arrival leaves first."""
    pos = make_position(rules(3), positions=[12, 13, 11], mode=mode)
    for t in (2, 0, 1):  # arrival order at the Inn on space 14
        pos.stop(t, 14)
    assert kern(next_mover_nb, mode)(pos.pub) == 1
    pos.stop(1, 20)
    assert kern(next_mover_nb, mode)(pos.pub) == 0
    pos.stop(0, 16)
    assert kern(next_mover_nb, mode)(pos.pub) == 2


@BOTH
def test_start_lineup_first_to_leave_moves_first(mode: str) -> None:
    """Rulebook "Set-up": "randomly place all of the Traveler pieces in a line at the 1st Inn";
    the line-up order 0 leaves first, and a player's seat is their order among the players."""
    for n in (2, 3, 5):
        for seed in range(4):
            pos = setup_position(rules(n), seed=seed, mode=mode)
            order = {e[1]: e[2] for e in pos.events(Ev.LINEUP)}
            nt = n + (n == 2)
            assert sorted(order.values()) == list(range(nt))
            first = min(order, key=order.get)
            assert kern(next_mover_nb, mode)(pos.pub) == first
            players = sorted(range(n), key=lambda p: order[p])
            assert [int(pos.ps[p, PF.SEAT]) for p in players] == list(range(n))
            assert all(pos.ps[t, PF.POS] == 0 for t in range(nt))
            assert pos.pub["occ"][0] == nt


def test_start_lineup_is_random() -> None:
    """Rulebook "Set-up": the line-up at Kyoto is random: over 40 games each of 3 travelers
    leaves first at least 5 times."""
    firsts = [0, 0, 0]
    for seed in range(40):
        pos = setup_position(rules(3), seed=seed)
        firsts[next_mover_nb(pos.pub)] += 1
    assert min(firsts) >= 5, firsts


@BOTH
def test_game_ends_when_everyone_reached_the_last_inn(mode: str) -> None:
    """Rulebook "End of the Journey": "When all of the Travelers have arrived in Edo at the last
    Inn, the game ends"."""
    pos = make_position(rules(3), positions=[LAST, LAST, LAST], mode=mode)
    assert not pos.turn()
    pos = make_position(rules(3), positions=[LAST, 53, LAST], mode=mode)
    assert pos.turn()
    assert pos.events(Ev.MOVE) == [(Ev.MOVE, 1, LAST, 1, -1, -1)]
    assert not pos.turn()


# ------------------------------------------------------------------ legal stops
@BOTH
def test_legal_moves_any_free_space_up_to_next_inn(mode: str) -> None:
    """Rulebook: "move their Traveler forward ... to the open space of their choice, freely
    passing over one or more open spaces"; the Inns "are mandatory stopovers"."""
    pos = make_position(rules(3), positions=[0, 14, 14], coins=[5, 5, 5])
    assert legal(pos, 0, mode) == list(range(1, 15))
    pos = make_position(rules(3), positions=[14, 27, 27], coins=[5, 5, 5])
    assert legal(pos, 0, mode) == list(range(15, 28))


@BOTH
def test_legal_moves_never_pass_an_inn(mode: str) -> None:
    """Rulebook "Arriving at an Inn": "The Inns are mandatory stopovers for all Travelers"; the
    next Inn is always a legal stop, however crowded."""
    pos = make_position(rules(3), positions=[12, 13, 14], coins=[5, 5, 5])
    assert legal(pos, 0, mode) == [14]
    pos = make_position(rules(3), positions=[40, 41, 41], coins=[5, 5, 5])
    assert legal(pos, 0, mode) == [41]
    pos = make_position(rules(3), positions=[53, LAST, LAST], coins=[5, 5, 5])
    assert legal(pos, 0, mode) == [LAST]


@BOTH
def test_occupied_single_space_is_closed(mode: str) -> None:
    """Rulebook: a Traveler moves "to the open space of their choice": an occupied single space
    is not open."""
    pos = make_position(rules(3), positions=[0, 8, 12], coins=[5, 5, 5])
    assert legal(pos, 0, mode) == [s for s in range(1, 15) if s not in (8, 12)]


@BOTH
def test_double_space_holds_two_at_four_and_five_players(mode: str) -> None:
    """Rulebook "Single / double spaces": "Double spaces are used only in games with 4 or 5
    players": the second traveler may join, a third may not."""
    for n in (4, 5):
        positions = [0, 5] + [20] * (n - 2)
        pos = make_position(rules(n), positions=positions, coins=[5] * n)
        assert 5 in legal(pos, 0, mode)
        positions = [0, 5, 5] + [20] * (n - 3)
        pos = make_position(rules(n), positions=positions, coins=[5] * n)
        assert 5 not in legal(pos, 0, mode)
        assert 7 in legal(pos, 0, mode)  # Farm, double and empty


@BOTH
def test_double_space_is_single_with_two_or_three_players(mode: str) -> None:
    """Rulebook: "When playing with 2 or 3 players, the second space — the one off the road —
    cannot be occupied"; at 2 players the Neutral makes 3 travelers, still single."""
    for n in (2, 3):
        pos = make_position(rules(n), positions=[0, 5, 20], coins=[5] * n)
        assert 5 not in legal(pos, 0, mode)
        assert 6 in legal(pos, 0, mode)


@BOTH
def test_village_and_temple_need_a_coin(mode: str) -> None:
    """Rulebook "Village": "A Traveler must have at least 1 coin to stop in a Village";
    "Temple": "must donate at least 1 coin"."""
    pos = make_position(rules(3), positions=[0, 14, 14], coins=[0, 5, 5])
    assert legal(pos, 0, mode) == [s for s in range(1, 15) if s not in (1, 2, 8, 9)]
    pos = make_position(rules(3), positions=[0, 14, 14], coins=[1, 5, 5])
    assert legal(pos, 0, mode) == list(range(1, 15))


@BOTH
def test_completed_panorama_is_closed(mode: str) -> None:
    """Rulebook "Panorama": "a Traveler who completes a panorama can no longer stop on the spaces
    corresponding to that type"."""
    pos = make_position(rules(3), positions=[0, 14, 14], panoramas={0: [3, 4, 0]})
    assert legal(pos, 0, mode) == [s for s in range(1, 15) if s not in (4, 6, 12)]
    pos = make_position(rules(3), positions=[0, 14, 14], panoramas={0: [2, 3, 4]})
    assert legal(pos, 0, mode) == list(range(1, 15))
    pos = make_position(rules(3), positions=[14, 27, 27], panoramas={0: [0, 0, 5]})
    assert legal(pos, 0, mode) == [s for s in range(15, 28) if s not in (15, 24)]


@BOTH
def test_neutral_ignores_coin_and_panorama_limits(mode: str) -> None:
    """C9: the Neutral may stop on any free space up to the next Inn (no coins, no panoramas)."""
    pos = make_position(
        rules(2), positions=[14, 14, 0], coins=[5, 5], panoramas={2: [3, 4, 5]}, fields={2: {"COINS": 0}}
    )
    assert legal(pos, 2, mode) == list(range(1, 15))


@BOTH
def test_lead_player_moves_the_neutral(mode: str) -> None:
    """Rulebook 2-player rules: "The player whose Traveler is in the lead moves the Neutral
    Traveler"; C10: on the same space the earlier arrival leads."""
    pos = make_position(rules(2), positions=[10, 12, 3])
    assert kern(lead_player_nb, mode)(pos.pub) == 1
    pos = make_position(rules(2), positions=[14, 14, 3], arrival=[1, 2, 3])
    assert kern(lead_player_nb, mode)(pos.pub) == 0
    pos = make_position(rules(2), positions=[14, 14, 3], arrival=[2, 1, 3])
    assert kern(lead_player_nb, mode)(pos.pub) == 1
    # the kernel's turn: the Neutral is behind and player 1 leads, so player 1 is the controller
    pos = make_position(rules(2), positions=[10, 12, 3], mode=mode)
    assert pos.turn()
    (move,) = pos.events(Ev.MOVE)
    assert move[1] == 2 and move[3] == 1 and 3 < move[2] <= 14


# ------------------------------------------------------------------ properties
def _positions(draw, n: int) -> tuple[list[int], list[int]]:
    """Positions in one leg that respect every space's capacity; arrival stamps all different."""
    nt = n + (n == 2)
    cap2 = nt >= 4
    rs = rules(n)
    double = rs.rules.board_double
    leg = draw(st.sampled_from([0, 14, 27, 41]))
    nxt = min(i for i in INNS if i > leg)
    occ: dict[int, int] = {}
    out = []
    for _ in range(nt):
        free = [
            s for s in range(leg, nxt + 1) if s in INNS or occ.get(s, 0) < (2 if cap2 and double[s] else 1)
        ]
        s = draw(st.sampled_from(free))
        occ[s] = occ.get(s, 0) + 1
        out.append(s)
    stamps = draw(st.permutations(list(range(1, nt + 1))))
    return out, list(stamps)


@st.composite
def positions_strategy(draw):
    n = draw(st.integers(2, 5))
    pos, stamps = _positions(draw, n)
    coins = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    pans = {t: draw(st.tuples(st.integers(0, 3), st.integers(0, 4), st.integers(0, 5))) for t in range(n)}
    return n, pos, stamps, coins, pans


def _referee_state(n: int, pos, stamps, coins, pans) -> GameState:
    gs = GameState(CFG[n], rules(n).rules)
    for t, tr in enumerate(gs.travelers):
        tr.pos, tr.stamp = pos[t], stamps[t]
        if t < n:
            tr.coins = coins[t]
            tr.panorama = list(pans[t])
    return gs


@settings(max_examples=120, deadline=None, database=None)
@given(positions_strategy())
def test_property_legal_moves_contain_next_inn_and_match_referee(case) -> None:
    """Rulebook "Arriving at an Inn" (the next Inn is always a legal stop) and every movement
    rule: the kernel's legal stops equal the referee's (``GameState.legal_destinations``)."""
    n, pos, stamps, coins, pans = case
    p = make_position(rules(n), positions=pos, arrival=stamps, coins=coins, panoramas=pans)
    ref = _referee_state(n, pos, stamps, coins, pans)
    for t in range(n + (n == 2)):
        if pos[t] == LAST:
            continue
        got = legal(p, t)
        nxt = min(i for i in INNS if i > pos[t])
        assert got[-1] == nxt and all(pos[t] < s <= nxt for s in got)
        assert got == ref.legal_destinations(t)


@settings(max_examples=120, deadline=None, database=None)
@given(positions_strategy())
def test_property_turn_order_matches_referee(case) -> None:
    """Rulebook "farthest behind" and C10 "in the lead": ``next_mover_nb`` and ``lead_player_nb``
    agree with the referee's ``next_traveler`` and ``lead_player``."""
    n, pos, stamps, coins, pans = case
    p = make_position(rules(n), positions=pos, arrival=stamps, coins=coins, panoramas=pans)
    ref = _referee_state(n, pos, stamps, coins, pans)
    assert next_mover_nb(p.pub) == min(ref.travelers, key=ref.behind_key).index
    assert lead_player_nb(p.pub) == ref.lead_player()
    assert p.gs[G.N_TRAV] == n + (n == 2)


# ------------------------------------------------------------------ the Neutral's stops
@BOTH
def test_neutral_temple_gets_a_bank_coin(mode: str) -> None:
    """Rulebook 2-player rules: "When the Neutral Traveler stops on a Temple space, take a coin from
    the bank and place it on the space corresponding to his color"."""
    pos = make_position(rules(2), positions=[14, 14, 0], mode=mode)
    pos.stop(2, 2)
    assert pos.events(Ev.DONATE) == [(Ev.DONATE, 2, 0, 1, -1, -1)]
    assert pos.ps[2, PF.DONATED] == 1 and pos.ps[2, PF.SCORE] == 0 and pos.ps[2, PF.COINS] == 0


@BOTH
def test_neutral_stations_have_no_effect(mode: str) -> None:
    """Rulebook 2-player rules: "Neutral Traveler movements have no effect on the game, except at
    Temple and Inn spaces" (Village, Encounter, Paddy, Hot Spring, Farm here)."""
    pos = make_position(rules(2), positions=[14, 14, 0], mode=mode)
    piles = [pos.pile(d) for d in range(4)]
    for s in (1, 3, 4, 5, 7):
        pos.stop(2, s)
    assert [e[0] for e in pos.events()] == [Ev.MOVE] * 5
    assert [pos.pile(d) for d in range(4)] == piles
    assert pos.ps[2, PF.SCORE] == 0 and pos.ps[2, PF.COINS] == 0 and pos.ps[2, PF.STOPS] == 0
    assert pos.ps[0, PF.SCORE] == pos.ps[1, PF.SCORE] == 0
