"""Statistical baselines: an unchanged engine passes, one Traveler's coins +1 is caught."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from sim.cli import app as cli
from sim.games.tokaido import engine
from sim.games.tokaido.checks import statcheck
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.cli import call
from tests.helpers.paths import ROOT

BASELINES = ROOT / "results" / "baselines"
CHECK_GAMES = "20000"


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A baseline of the current engine: 4 players, draft, greedy bots, 50,000 games."""
    path = tmp_path_factory.mktemp("baseline") / "b4.json"
    with pytest.raises(SystemExit) as exc:
        cli.main(
            [
                "check",
                "make-baseline",
                "--out",
                str(path),
                "--players",
                "4",
                "--games",
                "50000",
                "--seed",
                "11",
            ]
        )
    assert exc.value.code in (0, None)
    return path


def test_baseline_file(baseline: Path) -> None:
    b = json.loads(baseline.read_text())
    assert b["kind"] == "tokaido-sim baseline" and b["games"] == 50000 and b["seed"] == 11
    assert b["spec"] == GameConfig(n_players=4).spec()
    assert b["rules_fingerprint"] == GameConfig(n_players=4).rules().fingerprint()
    figs = b["figures"]
    assert {"score/all", "seat/1", "seat/4", "win/kinko", "pick/kinko", "score/kinko"} <= set(figs)
    seats = sum(figs[f"seat/{s}"]["mean"] for s in range(1, 5))
    assert math.isclose(seats, 1.0, abs_tol=1e-9)  # each game has one win, shared when tied
    assert figs["seat/1"]["n"] == 50000 and figs["score/all"]["n"] == 50000


def test_an_unchanged_engine_passes(baseline: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(["check", "stats", "--baseline", str(baseline), "--games", CHECK_GAMES], capsys)
    assert code == 0, out
    assert "no figure moved beyond its tolerance" in out and "seed 7777777" in out


def test_one_more_coin_for_kinko_is_caught(
    baseline: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    coins = GameConfig().rules().travelers[GameConfig().rules().traveler_index("kinko")].coins
    report = tmp_path / "r.json"
    code, out, _ = call(
        [
            "check",
            "stats",
            "--baseline",
            str(baseline),
            "--games",
            CHECK_GAMES,
            "--set",
            f"travelers.kinko.coins={coins + 1}",
            "--json",
            str(report),
        ],
        capsys,
    )
    assert code == 1, out
    assert "MOVED beyond tolerance" in out
    line = next(x for x in out.splitlines() if x.startswith("pick rate, kinko"))
    assert line.rstrip().endswith("MOVED") and "pp [" in line
    assert "played with --set travelers.kinko.coins=" in out
    r = json.loads(report.read_text())
    assert r["ok"] is False and any(
        f["figure"] == "pick/kinko" and f["verdict"] == "MOVED" for f in r["figures"]
    )


def test_committed_baselines_match_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(BASELINES.glob("*.json"))
    assert files
    for f in files:
        code, out, _ = call(["check", "stats", "--baseline", str(f), "--games", CHECK_GAMES], capsys)
        assert code == 0, f"{f.name} moved (refresh: tokaido-sim check make-baseline --from {f}):\n{out}"


def test_refresh_from_a_baseline_is_reproducible(
    baseline: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small = tmp_path / "small.json"
    assert (
        call(
            [
                "check",
                "make-baseline",
                "--out",
                str(small),
                "--players",
                "3",
                "--games",
                "3000",
                "--seed",
                "5",
                "--rate-tolerance",
                "0.02",
            ],
            capsys,
        )[0]
        == 0
    )
    again = tmp_path / "again.json"
    code, out, _ = call(["check", "make-baseline", "--from", str(small), "--out", str(again)], capsys)
    assert code == 0, out
    a, b = json.loads(small.read_text()), json.loads(again.read_text())
    assert a["figures"] == b["figures"] and b["tolerance"]["rate"] == 0.02 and b["seed"] == 5


def test_figures_match_a_direct_computation() -> None:
    config = GameConfig(n_players=3)
    rules = config.rules()
    rec = engine.play_games(config, rules, 3, 0, 2000).records
    figs = statcheck.measure(config, 2000, 3)
    win = np.where(rec["rank"] == 1, 1.0 / np.maximum(rec["win_k"], 1), 0.0)
    k = rules.traveler_index("hiroshige")
    m = rec["traveler"] == k
    assert figs["win/hiroshige"]["n"] == m.sum()
    assert math.isclose(figs["win/hiroshige"]["mean"], win[m].mean())
    assert math.isclose(figs["score/hiroshige"]["sd"], rec["score"][m].std(ddof=1))
    assert math.isclose(figs["pick/hiroshige"]["mean"], m.sum() / 2000)
    assert math.isclose(figs["score/all"]["mean"], rec["score"].mean())
    assert math.isclose(figs["seat/2"]["mean"], win[rec["seat"] == 1].mean())


def test_min_effect_test_and_holm() -> None:
    # tol = 0: the usual two-sided z-test
    assert math.isclose(statcheck.min_effect_p(1.96, 1.0, 0.0), 0.05, rel_tol=1e-3)
    assert statcheck.min_effect_p(0.5, 0.1, 1.0) > 0.99  # well inside the tolerance
    assert statcheck.min_effect_p(2.0, 0.1, 1.0) < 1e-10  # far outside
    # at the boundary |d| = tol the test has exactly alpha: p = P(Z > 0) = 0.5 (+ a negligible tail)
    assert math.isclose(statcheck.min_effect_p(1.0, 0.01, 1.0), 0.5, rel_tol=1e-6)
    assert statcheck.holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])


def test_user_errors(baseline: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    for argv in (
        ["check", "stats", "--baseline", str(tmp_path / "none.json")],
        ["check", "stats", "--baseline", str(bad)],
        ["check", "stats", "--baseline", str(baseline), "--seed", "11"],
        ["check", "stats", "--baseline", str(baseline), "--alpha", "2"],
        ["check", "stats", "--baseline", str(baseline), "--set", "travelers.kinko=3"],
        ["check", "make-baseline", "--players", "4"],
    ):
        code, out, err = call(argv, capsys)
        assert code == 2 and err.startswith("error: ") and len(err.strip().splitlines()) == 1, (
            argv,
            out,
            err,
        )


@pytest.mark.slow
def test_false_alarm_rate_and_power(baseline: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """20 checks of an unchanged engine: no alarm expected; 20 checks of Kinko + 1 coin: all caught."""
    code, out, _ = call(
        ["check", "calibrate", "--baseline", str(baseline), "--runs", "20", "--games", CHECK_GAMES], capsys
    )
    assert code == 0 and int(out.split()[0]) <= 2, out
    code, out, _ = call(
        [
            "check",
            "calibrate",
            "--baseline",
            str(baseline),
            "--runs",
            "20",
            "--games",
            CHECK_GAMES,
            "--set",
            "travelers.kinko.coins=8",
        ],
        capsys,
    )
    assert code == 0 and out.startswith("20 of 20"), out
