"""Game records and ``tokaido-sim audit`` (docs/game-record.md).

Simulated games of every configuration round-trip through a record and the audit (all legal, all
scores equal); hand-edited records (an illegal move, a wrong score, a card drawn beyond its count)
are caught with exit 1; an unreadable file is exit 2 naming the line and the field.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.cli import call
from tests.helpers.game_records import records, round_trip

# (players, travelers, bots, variants, expansions, profile)
CONFIGS = [
    (2, "draft", "greedy", "", "", "rulebook"),
    (3, "random", "random", "", "", "rulebook"),
    (4, "draft", "greedy", "", "", "rulebook"),
    (5, "draft", "random", "", "", "rulebook"),
    (4, "draft", "greedy", "initiation", "", "rulebook"),
    (3, "draft", "greedy", "return-trip,gastronomy,preparations", "", "rulebook"),
    (4, "draft", "random", "", "new-encounters", "rulebook"),
    (5, "draft", "greedy", "gastronomy", "new-encounters", "online"),
    (2, "draft", "random", "", "crossroads", "rulebook"),
    (4, "draft", "greedy", "", "crossroads", "rulebook"),
    (5, "random", "random", "preparations", "crossroads,new-encounters", "rulebook"),
    (3, "draft", "greedy", "", "crossroads", "online"),
    (4, "antoine,naiade,eriku,felicia", "greedy", "", "promos", "rulebook"),
    (3, "felicia,eriku,kinko", "random", "", "crossroads,promos", "rulebook"),
]


@pytest.mark.parametrize("spec", CONFIGS, ids=lambda s: "-".join(str(x) for x in s if x))
def test_simulated_games_round_trip_through_audit(spec: tuple[str | int, ...]) -> None:
    round_trip(spec, 11, 30)


@pytest.mark.slow
@pytest.mark.parametrize("spec", CONFIGS, ids=lambda s: "-".join(str(x) for x in s if x))
def test_simulated_games_round_trip_through_audit_big(spec: tuple[str | int, ...]) -> None:
    """24,000 games in all (12 configurations x 2,000); the default run plays 30 of each."""
    round_trip(spec, 12, 2000)


@pytest.fixture(scope="module")
def one_game() -> dict[str, Any]:
    return records(GameConfig(n_players=4), 5, 1)[0]


def audit_file(tmp_path: Path, recs: list[Any], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    path = tmp_path / "games.jsonl"
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in recs))
    return call(["audit", str(path)], capsys)


def test_replay_record_writes_a_record_that_audits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.jsonl"
    code, _, _ = call(
        ["replay", "--seed", "3", "--game", "7", "--players", "3", "--record", str(path)], capsys
    )
    assert code == 0
    rec = json.loads(path.read_text())
    assert {
        "move": {"traveler": rec["lineup"][0], "space": rec["actions"][rec_first_move(rec)]["move"]["space"]}
    } == rec["actions"][rec_first_move(rec)]
    code, out, _ = call(["audit", str(path)], capsys)
    assert (code, out.strip().splitlines()) == (
        0,
        ["line 1: accepted", "audited 1 games: 1 accepted, 0 rejected (1 legal, 1 with equal scores)"],
    )


def rec_first_move(rec: dict[str, Any]) -> int:
    return next(i for i, a in enumerate(rec["actions"]) if "move" in a)


def test_an_illegal_move_is_caught(
    tmp_path: Path, one_game: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """Rulebook: a traveler moves forward, to any free space up to the next Inn; space 0 is behind."""
    rec = copy.deepcopy(one_game)
    k = [i for i, a in enumerate(rec["actions"]) if "move" in a][5]
    rec["actions"][k]["move"]["space"] = 0
    code, out, _ = audit_file(tmp_path, [one_game, rec], capsys)
    assert code == 1
    assert f"line 2: rejected: action {k} (move): " in out and "may not move" in out
    assert "audited 2 games: 1 accepted, 1 rejected (1 legal, 1 with equal scores)" in out


def test_a_wrong_score_is_caught(
    tmp_path: Path, one_game: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    rec = copy.deepcopy(one_game)
    s = rec["scores"][2]
    s["meals"] += 1
    code, out, _ = audit_file(tmp_path, [rec], capsys)
    assert code == 1
    assert f"{s['traveler']} meals: recorded {s['meals']}, referee {s['meals'] - 1}" in out
    assert "audited 1 games: 0 accepted, 1 rejected (1 legal, 0 with equal scores)" in out


def test_a_card_drawn_beyond_its_count_is_caught(
    tmp_path: Path, one_game: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """Each souvenir card is in the game once: bought, it cannot be drawn again from the unseen pile."""
    rec = copy.deepcopy(one_game)
    acts = rec["actions"]
    bought = next(i for i, a in enumerate(acts) if a.get("gain", {}).get("deck") == "souvenir")
    draws = [i for i, a in enumerate(acts) if a.get("draw", {}).get("deck") == "souvenir"]
    later = next(i for i in draws if i > bought)
    assert draws.index(later) < 20  # still in the part of the pile nobody has seen
    name = acts[bought]["gain"]["card"]
    acts[later]["draw"]["card"] = name
    code, out, _ = audit_file(tmp_path, [rec], capsys)
    assert code == 1
    assert f"action {later} (draw): {name} cannot be in the souvenir pile: all 1 {name} card(s)" in out


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda r: "{not json", "line 2 is not a whole JSON object"),
        (
            lambda r: {**r, "actions": r["actions"][:12] + [{"move": {"traveler": "p0", "space": "twelve"}}]},
            "line 2: actions[12].move.space: expected an integer",
        ),
        (
            lambda r: {
                **r,
                "actions": r["actions"][:12]
                + [{"draw": {"traveler": "p0", "deck": "meal", "card": "pizza"}}],
            },
            "line 2: actions[12].draw.card: unknown name 'pizza'",
        ),
        (
            lambda r: {**r, "actions": r["actions"][:12] + [{"fly": {}}]},
            "line 2: actions[12]: expected {KIND",
        ),
        (
            lambda r: {**r, "scores": [{k: v for k, v in s.items() if k != "temple"} for s in r["scores"]]},
            "line 2: scores[0].temple: missing",
        ),
        (
            lambda r: {**r, "config": {**r["config"], "players": 7}},
            "line 2: config: --players must be 2 to 5",
        ),
    ],
)
def test_a_malformed_file_is_exit_2_naming_line_and_field(
    tmp_path: Path, one_game: dict[str, Any], edit: Any, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = audit_file(tmp_path, [one_game, edit(copy.deepcopy(one_game))], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and where in err, err
