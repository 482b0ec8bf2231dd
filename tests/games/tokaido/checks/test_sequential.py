"""``check stats --sequential``: the SPRT's ratio and bounds by hand, its decisions, and the CLI."""

from __future__ import annotations

import math

import pytest  # noqa: E402

from sim.games.tokaido.checks import sequential as Q  # noqa: E402
from tests.helpers.cli import call
from tests.helpers.paths import ROOT

BASELINE = ROOT / "results" / "baselines" / "base-3p-greedy.json"


def test_llr_and_bounds_by_hand() -> None:
    # d = 1 pp, se = 0.5 pp, H1 = +1 pp: 0.01 * (0.02 - 0.01) / (2 * 0.005^2) = 2
    assert Q.llr(0.01, 0.005, 0.0, 0.01) == pytest.approx(2.0)
    assert Q.llr(0.0, 0.005, 0.0, 0.01) == pytest.approx(-2.0)
    assert Q.llr(0.01, 0.005, 0.0, -0.01) == pytest.approx(-6.0)
    lo, hi = Q.bounds(0.05, 0.05)  # Wald: log(beta / (1 - alpha)), log((1 - beta) / alpha)
    assert (lo, hi) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))


def _row(base_n: int = 100_000) -> Q.SeqRow:
    return Q.SeqRow("win/x", "win rate, x", "rate", {"mean": 0.25, "sd": 0.43, "n": base_n}, tol=0.01)


@pytest.mark.parametrize(
    ("mean", "n", "verdict"),
    [(0.30, 20_000, "MOVED"), (0.25, 100_000, "ok"), (0.26, 2_000, "undecided"), (0.25, 50, "too few")],
)
def test_decisions(mean: float, n: int, verdict: str) -> None:
    lower, upper = Q.bounds(0.05 / 68)
    r = _row()
    Q.decide(r, {"mean": mean, "sd": 0.43, "n": n}, lower, upper, games=n)
    assert r.verdict == verdict


def test_a_small_baseline_can_never_show_no_change() -> None:
    lower, _ = Q.bounds(0.05 / 68)
    assert Q.can_accept(_row(100_000), lower)
    assert not Q.can_accept(_row(3_000), lower)  # its own s.e. 0.8 pp: LLR against 1 pp stays above the bound


def test_a_rule_change_is_caught_early(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(
        [
            "check",
            "stats",
            "--baseline",
            str(BASELINE),
            "--sequential",
            "--games",
            "200000",
            "--set",
            "travelers.kinko.coins=8",
        ],
        capsys,
    )
    assert code == 1, (out, err)
    assert "pick rate, kinko" in out and "MOVED" in out
    assert "sequential check (SPRT): 10,000 of at most 200,000 games" in out


def test_an_unchanged_engine_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(
        ["check", "stats", "--baseline", str(BASELINE), "--sequential", "--games", "20000"], capsys
    )
    assert code == 0, (out, err)
    assert "MOVED" not in out and "no figure moved" in out


def test_zero_tolerance_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(
        ["check", "stats", "--baseline", str(BASELINE), "--sequential", "--rate-tolerance", "0"], capsys
    )
    assert (
        code == 2
        and err.startswith("error: --sequential needs tolerances above 0")
        and len(err.splitlines()) == 1
    )
