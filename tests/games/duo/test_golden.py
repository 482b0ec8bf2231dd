"""Duo golden games (tests/golden/duo_golden.json): unchanged on this engine; a change is located by game and
round."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from kernels.duo.enums import BOT_NAMES, PATH_NAMES, Ev
from sim.checks import golden as G
from sim.checks.golden import save
from sim.cli import app as cli
from sim.games.duo.checks import golden as D
from tests.helpers.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "duo_golden.json"


def call(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out + err


@pytest.fixture(scope="module")
def data() -> dict:
    return G.load(GOLDEN)


def test_the_golden_file_covers_every_bot_choice_and_generated_boards(data: dict) -> None:
    assert D.DUO_GOLDEN_PATH == GOLDEN and GOLDEN.stat().st_size < 300_000
    specs = [c["spec"] for c in data["configs"]]
    bots = {b for s in specs for b in D.parse_spec(s)[0]}
    assert bots == set(BOT_NAMES)
    joined = " ".join(specs)
    for name in PATH_NAMES[1:]:
        assert f"merchant_path={name}" in joined
    for key in (
        "actions_optional",
        "seashore_optional",
        "hot_spring_optional",
        "hot_spring_retake",
        "first_player",
    ):
        assert f"choices.{key}=" in joined
    assert sum("board=family" in s for s in specs) >= 2
    assert data["verified"] is False and "reconstruction-v0" in data["provenance"]


def test_the_golden_games_are_unchanged(data: dict, capsys: pytest.CaptureFixture[str]) -> None:
    rep = G.check(D.SUITE, data)
    assert rep.ok and rep.games == len(data["configs"]) * D.GAMES, "\n".join(rep.lines())
    code, out = call(["check", "golden", "--file", str(GOLDEN)], capsys)
    assert code == 0 and "duo golden: all" in out and "unchanged" in out


def test_a_tampered_pick_is_located_by_game_and_round(
    data: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = copy.deepcopy(data)
    entry = d["configs"][3]["games"][1]
    ev = G.decode_events(entry["events"], D.EV_FIELDS)
    picks = np.flatnonzero(ev[:, 0] == Ev.PICK)
    i = int(picks[len(picks) // 2])
    ev[i, 2] = (ev[i, 2] + 1) % 3  # another die
    entry["events"] = G.encode_events(ev)
    path = tmp_path / "duo_golden.json"
    save(d, path)
    code, out = call(["check", "golden", "--file", str(path)], capsys)
    rnd = int((ev[: i + 1, 0] == Ev.ROLL).sum())
    assert code == 1
    assert f"game 1 of duo {d['configs'][3]['spec']}: first differs at event {i} (round {rnd})" in out
    assert "expected P" in out and "takes the" in out and "replay it: tokaido-sim duo replay --seed" in out


def test_a_moved_result_and_changed_weights_are_named(data: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    d = copy.deepcopy(data)
    d["configs"][0]["games"][0]["records"][1][4] += 1  # the score of player 1 (RESULT_FIELDS order)
    rep = G.check(D.SUITE, d)
    assert not rep.ok and "same action log, result differs for player 1: score" in rep.diffs[0].summary
    monkeypatch.setattr(D, "bots_digest", lambda: "0" * 16)
    rep = G.check(D.SUITE, copy.deepcopy(data))
    assert rep.stale and not rep.diffs and "bot weights" in " ".join(rep.notes)


def test_update_rewrites_the_same_games(data: dict, tmp_path: Path) -> None:
    path = tmp_path / "duo_golden.json"
    small = {**copy.deepcopy(data), "configs": data["configs"][:2]}
    save(small, path)
    rep, new, _ = G.update(D.SUITE, path)
    assert rep is not None and not rep.diffs
    assert json.loads(path.read_text())["configs"] == small["configs"] == new["configs"]


def test_set_is_refused_for_a_duo_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = call(["check", "golden", "--file", str(GOLDEN), "--set", "x=1"], capsys)
    assert code == 2 and out.count("\n") == 1 and "--set" in out
