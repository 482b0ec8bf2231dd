"""The Duo board as data: validation on load, a second board file, the random board family."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.games.duo.board import BoardError, validate_board
from sim.games.duo.board_gen import board_family, generate_board
from sim.games.duo.engine import play_duo_games
from sim.games.duo.referee.game import referee_game, rows_from_records
from sim.games.duo.rules import default_board_path, from_raw, load_duo_rules
from tests.helpers.paths import DATA_DIR

STAR = DATA_DIR / "duo_board_star.toml"


def shipped() -> dict:
    return tomllib.loads(default_board_path().read_text())


def test_shipped_board_is_the_c6_reconstruction_and_unverified() -> None:
    """research expansions.md C.6: 8 zones, 11 derived adjacencies, provenance carried, verified = false."""
    rules = load_duo_rules()
    b = rules.board
    assert len(b.zones) == 8 and len(b.routes) == 11 and len(b.adjacency) == 11
    assert not rules.verified and "reconstruction-v0" in rules.provenance()
    assert [b.ring.count(t) for t in "TGSH"] == [10, 8, 6, 5]


def test_a_second_hand_written_board_runs_and_the_referee_agrees() -> None:
    """A user enters another board without touching code: games play and replay cleanly."""
    rules = load_duo_rules(STAR)
    assert rules.board.provenance == "test-star" and len(rules.board.adjacency) == 11
    batch = play_duo_games(rules, 3, 0, 200, ("greedy", "random"), log=True)
    for i in range(200):
        v = referee_game(rules, batch.game_events(i), rows_from_records(batch.game_records(i)))
        assert v.ok, v.errors


def _broken(edit) -> str:
    raw = copy.deepcopy(shipped())
    edit(raw)
    with pytest.raises(BoardError) as exc:
        validate_board(raw, "board.toml")
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith("board.toml")
    return msg


def test_validator_names_the_file_and_field() -> None:
    """Bad boards fail on load with one line: ring length, towns, values, connectivity, tiling, planarity."""
    assert "ring has 36" in _broken(lambda r: r["ring"].pop())
    assert "C3 2 times" in _broken(lambda r: r["ring"].__setitem__(1, "C3"))
    assert "mountain[0].value" in _broken(lambda r: r["mountain"][0].__setitem__("value", 5))
    assert "not connected" in _broken(
        lambda r: r.__setitem__("route", [x for x in r["route"] if "M4" not in (x["a"], x["b"])])
    )
    assert "does not close into one cycle" in _broken(lambda r: r["zone"][0]["routes"].remove("M2-M1"))
    assert "borders 3 zones" in _broken(lambda r: r["zone"].append({**r["zone"][0], "id": "Z9"}))
    assert "towns" in _broken(lambda r: r["zone"][0].__setitem__("towns", ["C1", "C2"]))
    assert "arc" in _broken(lambda r: r["zone"][0].__setitem__("arcs", ["C1-C3"]))
    assert "start.artist" in _broken(lambda r: r["start"].__setitem__("artist", ["Z1", "Z9"]))


def test_number_tables_never_decrease_and_have_their_length() -> None:
    """rules.toml: temple 10 values, garden 7, slabs 6, artist 10, none decreasing; one line naming the
    field."""
    rraw = tomllib.loads((Path(default_board_path()).parent / "rules.toml").read_text())
    bad = copy.deepcopy(rraw)
    bad["merchant"]["slabs"] = [1, 3, 2, 10, 15, 21]
    with pytest.raises(BoardError, match="merchant.slabs: values must never decrease"):
        from_raw(shipped(), bad)
    bad = copy.deepcopy(rraw)
    bad["tracks"]["garden"] = [0, 1, 2]
    with pytest.raises(BoardError, match="tracks.garden: need 7"):
        from_raw(shipped(), bad)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_generated_board_passes_the_validator(seed: int) -> None:
    """Board family (expansions.md C.6): ring permutations, planar spokes, icons, values - always valid."""
    raw = generate_board(np.random.default_rng(seed))
    b = validate_board(raw, "generated")
    assert len(b.zones) == 8 and sorted(z.icon for z in b.zones) == [1, 1, 2, 2, 3, 3, 4, 4]


def test_generated_boards_play_and_replay() -> None:
    rraw = tomllib.loads((Path(default_board_path()).parent / "rules.toml").read_text())
    for b in board_family(7, 3):
        rules = from_raw(b.raw, rraw)
        batch = play_duo_games(rules, 1, 0, 100, ("greedy", "greedy"), log=True)
        for i in range(100):
            assert referee_game(rules, batch.game_events(i), rows_from_records(batch.game_records(i))).ok
