"""Issue 12's bad inputs: each one line naming what is wrong, exit 2, nothing written or damaged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import assert_user_error, call
from tests.helpers.paths import ROOT

BASELINE = str(ROOT / "results" / "baselines" / "base-4p-greedy.json")

CASES = [
    (["run", "-g", "10", "-s", "1", "--set", "travelers.kinko.coins=40000"],
     "travelers.kinko.coins takes 0 to 100 (coins, points and costs are kept in 16-bit fields"),
    (["run", "-g", "10", "-s", "1", "--set", "travelers.kinko.coins=99999999999"], "takes 0 to 100"),
    (["run", "-g", "10", "-s", "1", "--set", "travelers.kinko.coins=lots"], "wants a whole number"),
    (["run", "-g", "10", "-s", "1", "--set", "meals.hand_extra=-1"], "meals.hand_extra takes 0 to 9"),
    (["run", "-g", "10", "-s", "1", "--set", "encounters.annaibito=2,2"], "takes 3 values"),
    (["run", "-g", "10", "-s", "1", "--expansions", "crossroads,crossroads"], "listed twice in --expansions"),
    (["run", "-g", "10", "-s", "1", "--set", "crossroads.bathhouse.points=5"], "has no effect: it is a Crossroads"),
    (["run", "-g", "10", "-s", "1", "--variants", "initiation", "--travelers", "kinko,chuubei,satsuki,mitsukuni"],
     "has no effect: Journey of Initiation"),
    (["run", "-g", "99999999999999999999", "-s", "1"], "--games takes 1 to 999,999,999,999"),
    (["run", "-g", "10", "-s", "1", "--cluster", "foo"], "--cluster must be a scheduler address"),
    (["verify", "-g", "10", "-s", "1", "--set", "encounters.annaibito=1,2,3,4"],
     "takes 3 values (copies for each panorama type"),
    (["verify", "-g", "10", "-s", "1", "--chunk-size", "1000000"], "--chunk-size takes 1 to 10,000"),
    (["replay", "-s", "1", "--game", "99999999999999999999"], "--game takes 0 to"),
    (["replay", "-s", "1", "--game", "-1"], "--game takes 0 to"),
    (["check", "stats", "--baseline", "DIR"], "is a directory; give a baseline JSON file"),
    (["check", "stats", "--baseline", BASELINE, "--set", "crossroads.fortune_die=1,1,1,1,1,1"], "has no effect"),
    (["check", "stats", "--baseline", BASELINE, "--json", "DIR"], "--json DIR is a directory"),
    (["check", "make-baseline", "--out", "DIR", "-g", "10"], "is a directory; give the path of a file"),
    (["ladder", "--out", "FILE"], "FILE is a file, not a directory"),
    (["playthroughs", "--out", "FILE"], "FILE is a file, not a directory"),
    (["tune", "--start", "nobody"], "--start 'nobody' is not a bot with heuristic weights; choose from: heuristic"),
    (["tune", "--out", "DIR"], "is a directory"),
    (["tune", "--method", "annealing"], "--method must be cma, sweep or imitate, not 'annealing'"),
    (["tune", "--method", "sweep"], "--method sweep polishes the expert: add --tier expert --players N"),
    (["tune", "--method", "sweep", "--tier", "expert", "--players", "4", "--games", "10"], "--games >= 100"),
    (["tune", "--method", "sweep", "--tier", "expert", "--players", "4", "--field", "start,nobody"],
     "--field takes start, current or bot names, comma-separated; not nobody"),
]


@pytest.mark.parametrize(("argv", "message"), CASES, ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_bad_input_is_one_line_exit_2_nothing_written(argv: list[str], message: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "DIR").mkdir()
    (tmp_path / "FILE").write_text("mine")
    monkeypatch.chdir(tmp_path)
    argv = [*argv, "--out", "out"] if argv[0] == "run" else argv
    code, out, err = call(argv, capsys)
    assert_user_error(code, out, err)
    assert message.replace("DIR", str(Path("DIR"))) in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["DIR", "FILE"]
    assert list((tmp_path / "DIR").iterdir()) == [] and (tmp_path / "FILE").read_text() == "mine"


def test_help_lists_every_bot_tier_and_patch_files() -> None:
    from typer.testing import CliRunner

    from kernels.core.enums import BOT_NAMES
    from sim.cli.app import app

    for command in ("run", "verify", "replay"):
        text = " ".join(CliRunner().invoke(app, [command, "--help"], terminal_width=200).output.split())
        assert all(b in text for b in BOT_NAMES), text
        assert "@patch.toml" in text
    text = " ".join(CliRunner().invoke(app, ["tune", "--help"], terminal_width=200).output.split())
    assert "results/bots/tuned.toml" in text


def test_check_stats_says_how_many_games_the_tolerance_needs(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from sim.games.tokaido.checks import power

    data = json.loads(Path(BASELINE).read_text())
    need, label = power.games_needed(data, data["tolerance"])
    assert 20_000 < need < 100_000 and label == "win rate, kinko"  # make check plays 100,000
    assert power.note(data, data["tolerance"], 100_000) is None
    code, out, _ = call(["check", "stats", "--baseline", BASELINE, "-g", "2000"], capsys)
    assert code in (0, 1)
    assert f"warning: 2,000 games are fewer than the {int(-(-need // 1000) * 1000):,} this baseline's" in out
    assert power.note(data, {"rate": 0.0001, "score": 0.5}, 10**9).startswith("warning: the baseline itself")
