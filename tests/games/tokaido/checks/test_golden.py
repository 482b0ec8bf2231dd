"""Golden games: the committed set matches the engine; any change is located by game and turn."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from kernels.tokaido.core import enums as E
from sim.checks import golden as G
from sim.games.tokaido.checks import golden
from tests.helpers.cli import call
from tests.helpers.paths import GOLDEN_DIR

GOLDEN = GOLDEN_DIR / "golden.json"


@pytest.fixture(scope="module")
def data() -> dict:
    return G.load(GOLDEN)


def test_golden_file_is_where_the_cli_looks_and_small(data: dict) -> None:
    assert golden.GOLDEN_PATH == GOLDEN
    assert GOLDEN.stat().st_size < 1_000_000
    specs = [c["spec"] for c in data["configs"]]
    assert {f"players={n}" for n in range(2, 6)} <= {s.split(",")[0] for s in specs}
    for v in ("initiation", "return-trip", "gastronomy", "preparations", "new-encounters"):
        assert any(v in s for s in specs), v
    assert any("bots=random" in s for s in specs) and any("bots=greedy" in s for s in specs)
    assert data["rules_version"] and data["rules_fingerprint"]


def test_golden_passes_on_the_current_engine(data: dict, capsys: pytest.CaptureFixture[str]) -> None:
    rep = G.check(golden.SUITE, data)
    assert rep.ok, "\n".join(rep.lines())
    assert rep.games == sum(len(c["games"]) for c in data["configs"]) >= 100
    code, out, _ = call(["check", "golden"], capsys)
    assert code == 0, out
    assert "unchanged" in out


def tamper(data: dict, config: int, game: int) -> tuple[dict, int, int]:
    """Move one stored MOVE one space further; return the data, the event index and its turn."""
    d = copy.deepcopy(data)
    entry = d["configs"][config]["games"][game]
    ev = G.decode_events(entry["events"], E.EV_FIELDS)
    moves = np.flatnonzero(ev[:, 0] == E.Ev.MOVE)
    i = int(moves[len(moves) // 2])
    ev[i, 2] += 1
    entry["events"] = G.encode_events(ev)  # the stored digest now disagrees too
    return d, i, int((ev[: i + 1, 0] == E.Ev.MOVE).sum())


def test_a_tampered_event_fails_with_the_game_and_turn(
    data: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d, i, turn = tamper(data, 3, 2)
    d.update(golden.header())  # the rules and bots as they are now: only the engine can explain the move
    path = tmp_path / "golden.json"
    G.save(d, path)
    code, out, _ = call(["check", "golden", "--file", str(path)], capsys)
    assert code == 1
    spec = d["configs"][3]["spec"]
    assert f"game 2 of {spec}: first differs at event {i} (turn {turn}, which began MOVE" in out
    assert "expected MOVE" in out and "got MOVE" in out
    assert "1 of" in out and "replay it: tokaido-sim replay --seed" in out
    # the unchanged rules data mean the engine code changed
    assert "engine code changed" in out


def test_a_changed_result_is_reported(data: dict) -> None:
    d = copy.deepcopy(data)
    d["configs"][0]["games"][1]["records"][0][data["record_fields"].index("score")] += 1
    rep = G.check(golden.SUITE, d)
    assert not rep.ok
    assert "same action log, result differs for player 0: score" in rep.diffs[0].summary


def test_an_override_fails_with_the_first_differing_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(["check", "golden", "--set", "travelers.kinko.coins=8"], capsys)
    assert code == 1
    first = out.splitlines()[1]
    assert first.startswith("game ") and ": first differs at event " in first
    assert "(setup)" in first or "(turn " in first
    assert "--set travelers.kinko.coins=8" in out


def test_changed_rules_without_a_version_bump(data: dict) -> None:
    d = copy.deepcopy(data)
    d["rules_fingerprint"] = "0" * 16
    rep = G.check(golden.SUITE, d)  # no game moved, but the file is stale
    assert not rep.ok and not rep.diffs
    assert any("no golden game moved" in n for n in rep.notes)
    d, _, _ = tamper(d, 0, 0)
    rep = G.check(golden.SUITE, d)
    assert any(
        n.startswith("behaviour changed:") and "bump `version` in sim/games/tokaido/data/rules.toml" in n
        for n in rep.notes
    )
    d["rules_version"] = "old-0.9"
    rep = G.check(golden.SUITE, d)
    assert any("rules version changed (old-0.9 ->" in n and "--update" in n for n in rep.notes)


def test_update_refreshes_and_refuses_without_a_version_bump(
    data: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small = {**copy.deepcopy(data), "configs": copy.deepcopy(data["configs"][:3])}
    path = tmp_path / "g.json"
    G.save(tamper(small, 1, 0)[0], path)
    code, out, _ = call(["check", "golden", "--file", str(path), "--update"], capsys)
    assert code == 1 and "bump `version`" in out and "first differs at event" in out
    code, out, _ = call(["check", "golden", "--file", str(path), "--update", "--force"], capsys)
    assert code == 0 and "wrote" in out
    assert len(json.loads(path.read_text())["configs"]) == 3
    code, out, _ = call(["check", "golden", "--file", str(path)], capsys)
    assert code == 0, out


def test_user_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["check", "golden", "--file", str(tmp_path / "none.json")],
        ["check", "golden", "--set", "travelers.nobody.coins=3"],
        ["check", "golden", "--update", "--set", "meals.hand_extra=0"],
    ):
        code, out, err = call(argv, capsys)
        assert code == 2 and err.startswith("error: ") and len(err.strip().splitlines()) == 1, (argv, err)


def test_describe_event() -> None:
    row = [E.Ev.MOVE, 2, 17, 1, -1, -1]
    assert golden.describe_event(row) == "MOVE traveler=2 space=17 controller=1"
    assert golden.describe_event([E.Ev.END, -1, -1, -1, -1, -1]) == "END"
    ev = np.arange(24, dtype=np.int16).reshape(4, 6)
    assert (G.decode_events(G.encode_events(ev), E.EV_FIELDS) == ev).all()


def test_new_record_fields_are_compared_on_the_others_and_recorded(
    data: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = {**copy.deepcopy(data), "configs": copy.deepcopy(data["configs"][:2])}
    old["record_fields"] = old["record_fields"][:-1]  # as if the kernel had just added the last field
    for c in old["configs"]:
        for g in c["games"]:
            g["records"] = [r[:-1] for r in g["records"]]
            g["sha256"] = G.digest(G.decode_events(g["events"], E.EV_FIELDS), g["records"])
    rep = G.check(golden.SUITE, old)
    assert not rep.diffs and rep.stale and not rep.ok
    assert any("changed fields" in n and data["record_fields"][-1] in n for n in rep.notes)
    path = tmp_path / "g.json"
    G.save(old, path)
    code, out, _ = call(["check", "golden", "--file", str(path), "--update"], capsys)
    assert code == 0, out  # no game moved: no version bump needed
    assert json.loads(path.read_text())["record_fields"] == data["record_fields"]
