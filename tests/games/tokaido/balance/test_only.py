"""``balance --only``: one or several Travelers made fair, where fair lies between whole coin values measured
on fresh seeds, and what the answer rests on (the tier, and the report's check of those Travelers)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.games.tokaido.balance.bracket import Fair, Point, _fair, crossing, fair_md
from sim.games.tokaido.balance.checks import tier_check, tuned_for
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.cli import call


def test_only_kinko_finds_where_fair_lies_between_whole_coins(
    skewed: Path,
    tmp_path: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Fair for Kinko lies near the others' 5 coins."""
    out = tmp_path / "out"
    code, stdout, err = call(
        [
            "balance",
            "--only",
            "kinko",
            "--players",
            "4",
            "--bots",
            "greedy",
            "--set",
            f"@{skewed}",
            "--target",
            "3",
            "--games",
            "8000",
            "--min-games",
            "1000",
            "--confirm-games",
            "12000",
            "--budget",
            "200000",
            "--chunk-size",
            "4000",
            "--out",
            str(out),
        ],
        capsys,
    )
    assert code == 0, err
    result = json.loads((out / "manifest.json").read_text())["result"]
    assert result["only"] == ["kinko"] and result["bots"] == "greedy"
    (fair,) = result["fair"]
    measured = fair["measured"]
    coins = [m[0] for m in measured]
    assert coins == list(range(coins[0], coins[0] + len(coins))) and len(coins) >= 2  # whole neighbours
    below, above = [m for m in measured if m[1] <= 0.25], [m for m in measured if m[1] > 0.25]
    assert below and above and max(m[0] for m in below) + 1 == min(m[0] for m in above)
    assert min(m[0] for m in above) - 1 <= fair["coins"] <= min(m[0] for m in above)
    assert 3.5 <= fair["coins"] <= 6.5 and fair["lo"] != fair["hi"]
    text = (out / "balance.md").read_text()
    assert "# Balance: kinko within ±3 pp" in text and "judged: kinko only" in text
    assert "## Where fair lies" in text and "**kinko at 4 players: fair (25.0%) at " in text
    assert "The greedy tier has no measured check against a stronger tier" in text
    assert "kinko at 4 players: fair at " in stdout
    confirm = text.split("## Confirmation on fresh seeds")[1]
    assert "| chuubei |" in confirm and "not judged" in confirm  # the others are shown, not judged


def test_the_crossing_and_its_interval_by_hand() -> None:
    a, b = Point(4, 0.30, 0.28, 0.32, 1000), Point(5, 0.36, 0.34, 0.38, 1000)
    est, lo, hi = crossing(a, b, 1 / 3)
    assert est == pytest.approx(4 + (1 / 3 - 0.30) / 0.06)  # 4.56: where the rates' line meets 1/3
    assert lo == pytest.approx(4 + (1 / 3 - 0.32) / 0.06)  # the upper bounds meet it first
    assert hi == pytest.approx(4 + (1 / 3 - 0.28) / 0.06)
    assert crossing(b, Point(6, 0.35, 0.33, 0.37, 1000), 1 / 3) == (None, None, None)  # no rise: no crossing


def test_a_fair_value_beyond_the_measured_coins_is_said() -> None:
    pts = (Point(0, 0.40, 0.38, 0.42, 900), Point(1, 0.45, 0.43, 0.47, 900))
    f = _fair("satsuki", 3, pts, 1 / 3)
    assert f.fair is None and "still stronger than fair at 0 coins, the fewest allowed" in f.note
    (line,) = fair_md([f])
    assert line.startswith("**satsuki at 3 players**: satsuki is still stronger") and "0 coins 40.0%" in line


def test_the_reports_check_of_the_travelers_and_the_tier() -> None:
    """The expert's measured agreement with the search tier (the table the report cites), per Traveler."""
    three = GameConfig(n_players=3, travelers="random", bots=("expert",))
    fair = Fair(
        "kinko", 3, (Point(4, 0.30, 0.29, 0.31, 9000), Point(5, 0.39, 0.38, 0.40, 9000)), 4.4, 4.3, 4.5, ""
    )
    (line,) = tier_check("expert", ["kinko"], [three], [fair])
    assert line.startswith("kinko at 3 players: expert ") and ", search " in line
    assert "at the measured 9.0 pp per coin, the search tier would put fair near" in line
    mats = GameConfig(n_players=4, travelers="random", bots=("expert",), expansions=("crossroads", "matsuri"))
    (line,) = tier_check("expert", ["kinko"], [mats], [])
    assert "not checked (4p-crossroads+matsuri was never measured" in line
    assert "no measured check" in tier_check("greedy", ["kinko"], [three], [])[0]
    assert tuned_for("expert", [three]) == "weights tuned for 3p-base"
    assert tuned_for("greedy", [three]) == ""
