"""Game records of every configuration round-trip through ``audit``; old records still read; ``audit``'s
output.

docs/game-record.md: ``verify --record`` / ``replay --record`` then ``audit`` accepts every game of every
configuration (Matsuri, the promos, every rule option and profile); a record of format 1 (written before
Matsuri could be recorded) still reads; a file that is no record (binary, a line cut short, an unknown
field) is one line naming the record and the field, exit 2; a rejected game is one line with its first
problem, and the summary counts the games of each problem class.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from sim.games.tokaido.cli.options import make_config
from sim.games.tokaido.referee.audit import audit_game
from sim.games.tokaido.referee.record import FORMAT, read_record
from tests.helpers.cli import call
from tests.helpers.game_records import records, round_trip
from tests.helpers.paths import DATA_DIR

DATA = DATA_DIR
MX = "crossroads,matsuri"
# (players, travelers, bots, variants, expansions, profile, *sets)
CONFIGS = [
    (2, "draft", "random", "", MX, "rulebook"),
    (3, "draft", "greedy", "", MX, "rulebook"),
    (4, "random", "random", "gastronomy,preparations", f"{MX},new-encounters", "rulebook"),
    (5, "draft", "random", "return-trip", f"{MX},promos", "online"),
    (
        4,
        "kushinada,misaki,musubi,takeru",
        "random",
        "",
        MX,
        "rulebook",
        "abilities.musubi_timing=all_arrived",
    ),
    (4, "draft", "random", "", MX, "rulebook", "matsuri.doll_family=food"),
    (
        2,
        "misaki,rakuren",
        "random",
        "",
        MX,
        "rulebook",
        "matsuri.choices.neutral_triggers_watchers=true",
        "matsuri.choices.hanabi_order=chooser",
        "matsuri.choices.first_arrival_skips_neutral=false",
    ),
    (
        3,
        "kidzuna,mari,iyasaka",
        "random",
        "",
        MX,
        "online",
        "abilities.kidzuna_hospitality=main",
        "abilities.mari_free_temple=false",
    ),
    (4, "felicia,eriku,antoine,naiade", "random", "", "crossroads,promos", "online-2020"),
    (
        3,
        "felicia,kita,miyataka",
        "random",
        "",
        "crossroads,promos",
        "rulebook",
        "crossroads.second_action_optional=false",
    ),
    (
        4,
        "draft",
        "random",
        "",
        "crossroads",
        "rulebook",
        "crossroads.amulets.health_one_option=true",
        "crossroads.amulets.devotion_printed_price=true",
    ),
    (3, "draft", "random", "", "crossroads", "rulebook", "draft.dealt=3"),
    (
        4,
        "draft",
        "greedy",
        "",
        "crossroads,new-encounters",
        "rulebook",
        "draft.mode=free",
        "abilities.satsuki_free_meal=pile",
    ),
]


def spec_id(spec: tuple[Any, ...]) -> str:
    return "-".join(str(x) for x in spec if x)


@pytest.mark.parametrize("spec", CONFIGS, ids=spec_id)
def test_every_configuration_round_trips_through_audit(spec: tuple[Any, ...]) -> None:
    round_trip(spec, 31, 12)


@pytest.mark.slow
@pytest.mark.parametrize("spec", CONFIGS, ids=spec_id)
def test_every_configuration_round_trips_through_audit_big(spec: tuple[Any, ...]) -> None:
    """13 configurations x 400 games."""
    round_trip(spec, 32, 400)


def test_a_matsuri_record_names_every_festival_event() -> None:
    """A Matsuri record names the festival cards drawn and kept (``matsuri``), the tokens, the closures,
    the picks and the abilities' coins; Gion's reshuffled pile is a ``reshuffle`` action."""
    config = make_config(4, "kushinada,misaki,musubi,takeru", "random", "", MX, None)
    kinds: set[str] = set()
    for rec in records(config, 5, 30):
        assert rec["format"] == FORMAT
        kinds |= {next(iter(a)) for a in rec["actions"]}
    assert {"matsuri", "token", "ability coin"} <= kinds
    assert {"close", "pick", "reshuffle"} & kinds


# ------------------------------------------------------------------ format 1
def test_a_format_1_record_still_reads() -> None:
    """``tests/data/game-records-v1.jsonl``: records written by format 1 (a base game; a Crossroads game with
    Kita and Miyataka where the Health Amulet gives both options; a Crossroads + promos game with Felicia's
    duels). Format 1 could not record a declined second action: its records are read with
    ``crossroads.second_action_optional=false``."""
    lines = (DATA / "game-records-v1.jsonl").read_text().splitlines()
    assert len(lines) == 3
    for n, text in enumerate(lines, 1):
        rec = json.loads(text)
        assert rec["format"] == "tokaido-sim game record 1"
        res = audit_game(rec, n)
        assert res.accepted, (n, res.problems, res.context)
    both = json.loads(lines[1])
    assert any(a.get("choice", {}).get("option") == "both" for a in both["actions"])
    game = read_record(both)
    assert ("crossroads.second_action_optional", "false") in game.config.overrides


# ------------------------------------------------------------------ unreadable files
@pytest.fixture(scope="module")
def one_game() -> dict[str, Any]:
    return records(make_config(3, "draft", "greedy", "", "crossroads", None), 5, 1)[0]


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda r: {**r, "table": 7}, "line 2: table: unknown field"),
        (lambda r: {**r, "config": {**r["config"], "colour": "red"}}, "line 2: config.colour: unknown field"),
        (
            lambda r: {**r, "scores": [{**s, "rank": 1} for s in r["scores"]]},
            "line 2: scores[0].rank: unknown field",
        ),
        (lambda r: {**r, "actions": [*r["actions"][:-1], {"end": {"now": True}}]}, ".end.now: unknown field"),
        (
            lambda r: {**r, "format": "tokaido-sim game record 9"},
            "line 2: format: 'tokaido-sim game record 9'",
        ),
        (lambda r: {**r, "id": "t-8", "table": 1}, "line 2 (t-8): table: unknown field"),
    ],
)
def test_a_bad_record_is_one_line_naming_record_and_field(
    tmp_path: Path, one_game: dict[str, Any], edit: Any, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = edit(copy.deepcopy(one_game))
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(one_game) + "\n" + json.dumps(bad) + "\n")
    code, out, err = call(["audit", str(path)], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and where in err, err


@pytest.mark.parametrize(
    ("content", "where"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "is a binary file"),
        (b"\x00\x00\x00\x18ftypmp42", "is a binary file"),
        (
            b'{"format": "tokaido-sim game record 2", "config": {"play',
            "line 1 ends in the middle of a JSON object",
        ),
        ('{"id": "caf\xe9"}\n'.encode("latin-1"), "not UTF-8 text (byte 0xe9 on line 1)"),
    ],
)
def test_a_file_that_is_no_record_is_one_line(
    tmp_path: Path, content: bytes, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A binary file, a line cut short, text in another encoding: one line, exit 2, nothing on stdout."""
    path = tmp_path / "games.jsonl"
    path.write_bytes(content)
    code, out, err = call(["audit", str(path)], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and where in err, err
    if "JSON object" in where:
        assert "truncated" in err


# ------------------------------------------------------------------ the output a user acts on
def test_audit_says_per_game_accepted_or_rejected_and_sums_up_by_class(
    tmp_path: Path, one_game: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """One line per game: accepted, or rejected with its first problem; then the counts and each problem
    class with its games; exit 1 when any game is rejected."""
    moved = copy.deepcopy(one_game)
    k = [i for i, a in enumerate(moved["actions"]) if "move" in a][5]
    moved["actions"][k]["move"]["space"] = 0
    scored = copy.deepcopy(one_game)
    scored["scores"][1]["meals"] += 6
    scored["id"] = "table 42"
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (one_game, moved, scored, moved)))
    code, out, _ = call(["audit", str(path)], capsys)
    lines = out.strip().splitlines()
    assert code == 1
    assert lines[0] == "line 1: accepted"
    assert lines[1].startswith(f"line 2: rejected: action {k} (move): ") and "may not move" in lines[1]
    assert lines[2].startswith("line 3 (table 42): rejected: ") and "meals: recorded" in lines[2]
    assert lines[4] == "audited 4 games: 1 accepted, 3 rejected (2 legal, 1 with equal scores)"
    assert lines[5] == "rejected by problem class:"
    assert lines[6].split() == ["illegal", "move", "2", "games", "(first:", "line", "2)"]
    assert lines[7].split()[:4] == ["score", "differs:", "meals", "1"]
    code, out, _ = call(["audit", str(path), "--quiet"], capsys)
    assert out.strip().splitlines()[0].startswith("audited 4 games")
    code, out, _ = call(["audit", str(path), "--verbose"], capsys)
    assert "state before it:" in out


def test_audit_takes_rules_and_set_as_run_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--rules`` replaces each record's profile, ``--set`` adds rule overrides, as for ``run``: games played
    with the start Amulet off are rejected under the rulebook (it is offered there) and accepted with
    ``--set crossroads.start_amulet=false``; an unknown ``--rules`` is one line."""
    config = make_config(3, "draft", "greedy", "", "crossroads", ["crossroads.start_amulet=false"])
    recs = records(config, 9, 2)
    for r in recs:
        r["config"]["set"] = []
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    code, out, _ = call(["audit", str(path)], capsys)
    assert code == 1 and "2 rejected" in out
    code, out, _ = call(["audit", str(path), "--set", "crossroads.start_amulet=false"], capsys)
    assert code == 0 and "2 accepted, 0 rejected" in out
    code, out, err = call(["audit", str(path), "--rules", "bogus"], capsys)
    assert code == 2 and "unknown rules profile 'bogus'" in err
