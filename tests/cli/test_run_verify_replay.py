"""The command line: one-line errors with exit 2 and nothing written, run, verify, replay, resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.cli import app as cli
from sim.dataset.manifest import MANIFEST
from sim.games.tokaido import dataset
from sim.games.tokaido.cli import options
from tests.helpers.cli import ENV, SLOW_CLI, assert_user_error, call
from tests.helpers.parts import part_stats

BAD_RUN_OPTIONS = [
    ["--players", "6"],
    ["--players", "1"],
    ["--travelers", "kinko,nobody,hiroshige,chuubei"],
    ["--travelers", "kinko,kinko,hiroshige,chuubei"],
    ["--travelers", "kinko,hiroshige"],
    ["--games", "0"],
    ["--games", "-5"],
    ["--seed", "-1"],
    ["--variants", "nosuch"],
    ["--variants", "gastronomy,gastronomy"],
    ["--expansions", "matsuri"],
    ["--bots", "smart"],
    ["--bots", "greedy,random"],
    ["--set", "travelers.kinko.coins"],
    ["--set", "=4"],
    ["--set", "nosuch.rule=1"],
    ["--set", "travelers.kinko.coins=lots"],
    ["--set", "travelers.kinko.coins=40000"],
    ["--set", "travelers.kinko.coins=99999999999"],
    ["--set", "travelers.kinko.coins=6.5"],
    ["--set", "encounters.annaibito=1,2,3,4"],
    ["--set", "encounters.annaibito=2,2"],
    ["--set", "meals.hand_extra=-1"],
    ["--set", "crossroads.fortune_die=1,1,1,1,1,1"],
    ["--expansions", "crossroads,crossroads"],
    ["--variants", "initiation", "--travelers", "kinko,chuubei,hiroshige,satsuki"],
    ["--games", "99999999999999999999"],
    ["--chunk-size", "99999999999"],
    ["--cluster", "foo"],
    ["--chunk-size", "0"],
    ["--threads", "0"],
    ["--players", "four"],
    ["--frobnicate"],
]


@pytest.mark.parametrize("bad", BAD_RUN_OPTIONS, ids=lambda b: " ".join(b))
def test_bad_run_option_is_one_line_exit_2_and_writes_nothing(
    bad: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    opts = {"--games": "10", "--seed": "1", "--out": str(out)}
    args = ["run"] + [x for k, v in opts.items() if k not in bad for x in (k, v)] + bad
    assert_user_error(*call(args, capsys))
    assert list(tmp_path.iterdir()) == []


def test_missing_option_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_user_error(*call(["run", "--games", "10", "--seed", "1"], capsys))
    assert_user_error(*call(["nosuchcommand"], capsys))


def test_used_or_unwritable_out_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["run", "--games", "20", "--seed", "1", "--quiet", "--chunk-size", "10", "--out"]
    assert call([*base, str(tmp_path / "a")], capsys)[0] == 0
    before = sorted(os.listdir(tmp_path / "a"))
    code, out, err = call([*base, str(tmp_path / "a")], capsys)
    assert_user_error(code, out, err)
    assert err.strip() == (
        f"error: {tmp_path / 'a'} already holds a run; use --resume to continue it or choose another --out"
    )
    assert sorted(os.listdir(tmp_path / "a")) == before
    (tmp_path / "file").write_text("")
    assert_user_error(*call([*base, str(tmp_path / "file" / "sub")], capsys))
    assert_user_error(*call([*base, str(tmp_path / "file")], capsys))
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert_user_error(*call([*base, str(locked / "out")], capsys))
        assert list(locked.iterdir()) == []
    assert sorted(os.listdir(tmp_path)) == ["a", "file"] + (["locked"] if os.geteuid() != 0 else [])


def test_run_writes_dataset_and_manifest(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [
        "run",
        "--players",
        "3",
        "--games",
        "120",
        "--seed",
        "4",
        "--out",
        str(out),
        "--chunk-size",
        "50",
        "--variants",
        "gastronomy",
        "--set",
        "travelers.kinko.coins=6",
    ]
    res = CliRunner().invoke(cli.app, args)
    assert res.exit_code == 0, res.output
    assert "120" in res.stdout
    t = dataset.read_table(out)
    assert t.schema.equals(dataset.SCHEMA) and t.num_rows == 360
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "complete" and m["config"]["variants"] == ["gastronomy"]
    assert m["config"]["overrides"] == [["travelers.kinko.coins", "6"]]


def test_other_commands_reject_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_user_error(*call(["verify", "--games", "0", "--seed", "1"], capsys))
    assert_user_error(*call(["verify", "--games", "5", "--seed", "1", "--players", "7"], capsys))
    assert_user_error(*call(["replay", "--seed", "1", "--game", "-1"], capsys))
    assert_user_error(*call(["study", str(tmp_path / "missing.toml"), "--out", str(tmp_path / "s")], capsys))
    assert_user_error(*call(["report", str(tmp_path / "missing")], capsys))
    assert_user_error(
        *call(["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "c")], capsys)
    )
    assert list(tmp_path.iterdir()) == []


def test_verify_and_replay(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(
        ["verify", "--games", "12", "--seed", "5", "--players", "3", "--quiet", "--chunk-size", "5"], capsys
    )
    first = out.splitlines()[0]
    assert first.startswith("verified 12 games, ") and first.endswith(" mismatches"), out
    mismatches = int(first.split(", ")[1].split()[0])
    assert code == (1 if mismatches else 0), out + err
    code, out, err = call(["replay", "--seed", "5", "--game", "3", "--players", "3"], capsys)
    assert out.strip(), err
    assert code in (0, 1) and "Traceback" not in err


def test_verify_reports_the_first_mismatch(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sim.games.tokaido.referee.game

    seen: list[int] = []

    def fake_referee(config, rules, events, kernel_rows, narrate=False):
        seen.append(len(seen))
        bad = len(seen) in (4, 7)
        assert kernel_rows is not None and len(kernel_rows) == config.n_players
        return SimpleNamespace(ok=not bad, errors=["boom: pts_meals differs"] if bad else [], narration=[])

    monkeypatch.setattr(sim.games.tokaido.referee.game, "referee_game", fake_referee)
    code, out, _ = call(["verify", "--games", "10", "--seed", "5", "--players", "2", "--quiet"], capsys)
    assert code == 1
    assert out.splitlines()[0] == "verified 10 games, 2 mismatches"
    assert "game 3, seed 5, config players=2" in out
    assert "referee: boom: pts_meals differs" in out
    assert "MOVE" in out and "END" in out  # the decoded action log


def test_decode_log() -> None:
    ev = np.array([[6, 0, 5, 0, -1, -1], [14, -1, -1, -1, -1, -1]], np.int16)
    assert options.decode_log(ev).splitlines() == ["   0 MOVE     t=0 a=5 b=0", "   1 END"]


def wait_for_parts(
    root: Path, n: int, proc: subprocess.Popen[bytes], pattern: str = "part-*.parquet"
) -> None:
    deadline = time.monotonic() + 120
    while len(list(root.rglob(pattern))) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run wrote no part files"
        time.sleep(0.01)


def test_killed_run_resumes_without_rewriting_parts(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [
        "run",
        "--players",
        "4",
        "--games",
        "3000",
        "--seed",
        "2",
        "--out",
        str(out),
        "--chunk-size",
        "100",
        "--quiet",
    ]
    proc = subprocess.Popen(
        [sys.executable, "-c", SLOW_CLI, *args],
        env=ENV,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wait_for_parts(out, 3, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = part_stats(out)
    assert 3 <= len(kept) < 30
    (out / ".part-000000099900-000000100000.parquet.tmp").write_bytes(b"half a file")
    res = subprocess.run(
        [sys.executable, "-m", "sim.cli.app", *args, "--resume"],
        env=ENV,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    now = part_stats(out)
    assert {k: now[k] for k in kept} == kept
    assert len(now) == 30 and not list(out.glob(".*.tmp"))
    games = dataset.read_table(out)["game"].to_numpy()
    assert np.array_equal(np.sort(games), np.repeat(np.arange(3000), 4))
    assert json.loads((out / MANIFEST).read_text())["status"] == "complete"


def test_ctrl_c_stops_cleanly(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [
        "run",
        "--players",
        "2",
        "--games",
        "5000",
        "--seed",
        "2",
        "--out",
        str(out),
        "--chunk-size",
        "100",
    ]
    proc = subprocess.Popen(
        [sys.executable, "-c", SLOW_CLI, *args],
        env=ENV,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_parts(out, 2, proc)  # type: ignore[arg-type]
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert len(err.strip().splitlines()) == 1 and "--resume" in err
    m = json.loads((out / MANIFEST).read_text())
    assert m["status"] == "interrupted"
    assert [e["file"] for e in m["parts"]] == sorted(p.name for p in out.glob("part-*.parquet"))
