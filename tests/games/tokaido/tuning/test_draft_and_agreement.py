"""The draft as a decision (calibrate-draft), sane-play metrics and tier agreement (docs/bots.md)."""

from __future__ import annotations

import sys
import tomllib

import numpy as np
import pytest

from sim.cli.app import main
from sim.games.tokaido import bots
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.tuning import agreement as A
from sim.games.tokaido.tuning import draft as D
from sim.games.tokaido.tuning import sane


def test_calibrate_draft_writes_win_shares_with_provenance(tmp_path, capsys, monkeypatch):
    out = tmp_path / "draft.toml"
    args = [
        "calibrate-draft",
        "--tier",
        "heuristic",
        "--players",
        "3",
        "--expansions",
        "none,crossroads",
        "--games",
        "300",
        "--seed",
        "5",
        "--out",
        str(out),
        "--quiet",
    ]
    monkeypatch.setattr(sys, "argv", ["tokaido-sim", *args])  # the command line recorded as provenance
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 0
    data = tomllib.loads(out.read_text())
    prov = data["provenance"]
    assert prov["tier"] == "heuristic" and prov["seed"] == 5 and prov["games"] == 600
    assert "calibrate-draft" in prov["command"]
    base, xr = data["3p-base"], data["3p-crossroads"]
    assert len(base) == 10 and len(xr) == 16 and "nampo" in xr and "nampo" not in base
    # shares of the wins: 1/3 each on average at 3 players
    assert np.mean(list(base.values())) == pytest.approx(1 / 3, abs=0.06)


def test_calibrate_draft_rejects_bad_input(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["calibrate-draft", "--tier", "greedy", "--out", str(tmp_path / "x.toml")])
    assert exc.value.code == 2 and "heuristic tier" in capsys.readouterr().err
    assert not (tmp_path / "x.toml").exists()


def test_a_missing_traveler_gets_the_fair_share(tmp_path, monkeypatch):
    monkeypatch.setattr(bots, "data_file", lambda name: tmp_path / f"{name}.toml")
    (tmp_path / "draft-x.toml").write_text('["4p-base"]\nhiroshige = 0.4\n')
    config = GameConfig(n_players=4)
    vals = bots.draft_values("x", config, config.rules())
    assert vals is not None and vals[0] == 0.4 and all(v == 0.25 for k, v in vals.items() if k)
    assert bots.draft_values("missing", config, config.rules()) is None


def test_sane_play_counts_idle_villages_and_keep_rates():
    rep = sane.sane_play("greedy", 4, 60, seed=2)
    assert 0.0 <= rep.idle_villages <= 1.0 and 0.0 <= rep.skipped_meals <= 1.0
    assert rep.coins_left > 0 and set(rep.keep_rate) <= {t.name for t in GameConfig().rules().travelers}
    assert all(0.0 <= v <= 1.0 for v in rep.keep_rate.values())
    md = sane.markdown([rep])
    assert "| greedy | 4 | none | 60 |" in md and "Keep rate" in md


def test_spearman_and_verdicts():
    assert A.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert A.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    a = D.Cell("4p-base", 100, 1, {"x": 0.40, "y": 0.20}, {"x": 0.02, "y": 0.02}, {"x": 50, "y": 50})
    b = D.Cell("4p-base", 100, 1, {"x": 0.20, "y": 0.25}, {"x": 0.02, "y": 0.02}, {"x": 50, "y": 50})
    res = A.compare(a, b, 4)
    assert res.max_diff == pytest.approx(0.2) and res.max_diff_traveler == "x" and res.differ == ["x"]
    assert np.isnan(res.rho)  # two Travelers: no rank correlation
    # 0.2 apart with standard errors 0.02/1.96 each: 0.2 / (0.0102 * sqrt 2) = 13.9 standard errors
    assert res.max_z_traveler == "x" and res.max_z == pytest.approx(0.2 / (0.02 / 1.96 * np.sqrt(2)))
    # x is 20 pp apart (+-2.8): beyond 3 pp; y is 5 pp apart: undecided (2.2 to 7.8 straddles 3)
    assert res.beyond == ["x"] and res.within == [] and not res.meets


def test_three_point_criterion_on_the_intervals():
    """Within 3 pp needs the whole 95% interval of the difference inside +-3 pp."""
    names = [f"t{i}" for i in range(4)]
    a = D.Cell(
        "4p-base",
        100,
        1,
        dict(zip(names, [0.10, 0.20, 0.30, 0.40], strict=True)),
        dict.fromkeys(names, 0.01),
        dict.fromkeys(names, 50),
    )
    b = D.Cell(
        "4p-base",
        100,
        1,
        dict(zip(names, [0.11, 0.21, 0.29, 0.41], strict=True)),
        dict.fromkeys(names, 0.01),
        dict.fromkeys(names, 50),
    )
    res = A.compare(a, b, 4)
    # 1 pp apart, interval +-1.41 pp: every Traveler within; same ranks: rho 1
    assert res.within == names and res.beyond == [] and res.meets
    b.shares["t3"] = 0.44  # 4 pp apart: 2.6 to 5.4, undecided
    res = A.compare(a, b, 4)
    assert "t3" not in res.within and res.beyond == [] and not res.meets
    b.shares["t3"] = 0.46  # 6 pp apart: 4.6 to 7.4, beyond
    assert A.compare(a, b, 4).beyond == ["t3"]
    assert "| 3 of 4 | t3 |" in A.markdown([A.compare(a, b, 4)])


def test_rho_has_an_interval_and_a_noise_ceiling():
    """Rho's interval and ceiling follow the samples' standard errors (docs/bots.md, tier agreement)."""
    x = np.linspace(0.2, 0.5, 10)
    lo, hi, ceiling = A.rho_interval(x, np.full(10, 0.001), x, np.full(10, 0.001))
    assert lo == pytest.approx(1.0) and hi == pytest.approx(1.0) and ceiling == pytest.approx(1.0)
    # errors as large as the steps between the shares: even identical tiers rank them apart
    step = x[1] - x[0]
    lo, hi, ceiling = A.rho_interval(x, np.full(10, step), x, np.full(10, step))
    assert 0.6 < ceiling < 0.95 and lo < ceiling <= hi
    # reversed ranks: the interval sits at -1 whatever the ceiling
    lo, hi, ceiling = A.rho_interval(x[::-1], np.full(10, 0.001), x, np.full(10, 0.001))
    assert hi == pytest.approx(-1.0) and ceiling == pytest.approx(1.0)
    names = [f"t{i}" for i in range(10)]
    cell = D.Cell(
        "4p-base",
        100,
        1,
        dict(zip(names, x, strict=True)),
        dict.fromkeys(names, 1.96 * step),
        dict.fromkeys(names, 50),
    )
    res = A.compare(cell, cell, 4)
    assert res.rho == pytest.approx(1.0) and res.rho_lo < 0.95 and 0.6 < res.rho_ceiling < 0.95
    assert f"| 1.00 ({res.rho_lo:.2f} to {res.rho_hi:.2f}) | {res.rho_ceiling:.2f} |" in A.markdown([res])


def test_the_slope_line_takes_out_a_tier_compressing_the_gaps():
    """B's gaps from the fair share half of A's: slope 0.5, and every Traveler on the line but one."""
    names = [f"t{i}" for i in range(5)]
    xa = [0.10, 0.20, 0.25, 0.30, 0.40]
    xb = [0.25 + 0.5 * (x - 0.25) for x in xa]
    xb[4] += 0.02  # t4: 2 pp off the line
    hw = dict.fromkeys(names, 0.01)
    a = D.Cell("4p-base", 100, 1, dict(zip(names, xa, strict=True)), hw, dict.fromkeys(names, 50))
    b = D.Cell("4p-base", 100, 1, dict(zip(names, xb, strict=True)), hw, dict.fromkeys(names, 50))
    res = A.compare(a, b, 4)
    assert 0.5 < res.slope < 0.6 and max(res.off_line, key=lambda t: abs(res.off_line[t])) == "t4"
    assert abs(res.off_line["t2"]) < 1e-12  # the fair share stays fair whatever the slope
    md = A.markdown([res])
    assert f"slope {res.slope:.2f}" in md and "| t0 | 0.100 | 0.175 | +7.5 pp | +6.1 to +8.9 |" in md


def test_seat_gain_pairs_the_same_deals_and_finds_the_stronger_tier():
    from sim.games.tokaido.tuning import seatgain as G

    # heuristic in one seat among greedy players wins far more than greedy did in that seat
    g = G.seat_gain("greedy", "heuristic", 3, (), 300, seed=5)
    assert g.key == "3p-base" and g.games == 300 and sum(g.apps.values()) == 300
    assert g.mean_gain > 3 * g.mean_half > 0
    # the strong tier against itself gains nothing: every deal is played the same way twice
    same = G.seat_gain("greedy", "greedy", 3, (), 60, seed=5)
    assert same.mean_gain == 0.0 and all(v == 0.0 for v in same.gain.values())
    assert same.mean_logit_gain == 0.0 and all(v == 0.0 for v in same.logit_gain.values())
    md = G.markdown([g])
    assert "| 3p-base | one heuristic among greedy | 300 |" in md and "gain - mean" in md
    assert "log-odds gain - mean" in md and f"{g.mean_logit_gain:+.2f}" in md


def test_seat_gain_on_the_log_odds_scale_has_no_floor():
    from sim.games.tokaido.tuning.seatgain import _logit_gain

    # a weak Traveler (bulk wins 1 of 19 deals -> 3 of 19) and a middling one (5 of 19 -> 10.5 of 19)
    # gain 0.105 and 0.289 of the wins, but about the same in log-odds (0.96 and 1.17; +0.5 win, +1 deal)
    weak_b, weak_s = np.r_[np.ones(1), np.zeros(18)], np.r_[np.ones(3), np.zeros(16)]
    mid_b, mid_s = np.r_[np.ones(5), np.zeros(14)], np.r_[np.ones(10), 0.5, np.zeros(8)]
    gw, hw = _logit_gain(weak_s, weak_b)
    gm, _ = _logit_gain(mid_s, mid_b)
    assert gw == pytest.approx(np.log((3.5 / 16.5) / (1.5 / 18.5)))
    assert gm == pytest.approx(np.log((11 / 9) / (5.5 / 14.5)))
    assert weak_s.mean() - weak_b.mean() < 0.5 * (mid_s.mean() - mid_b.mean()) and gw > 0.8 * gm
    assert hw > 0 and _logit_gain(weak_b, weak_b) == (0.0, 0.0)


def test_seat_gain_reuses_the_agreement_games_as_its_reference():
    from sim.games.tokaido.tuning import draft as D
    from sim.games.tokaido.tuning import seatgain as G

    # the agreement cell's bulk games are the same stream: reusing them changes nothing
    cell = D.measure("greedy", 3, (), (), 400, seed=5)
    assert cell.records is not None and len(cell.records) == 400 * 3
    again = G.seat_gain("greedy", "heuristic", 3, (), 300, seed=5, ref=cell.records)
    assert again == G.seat_gain("greedy", "heuristic", 3, (), 300, seed=5)
    # a reference with too few games is not used (the missing games would be played anyway)
    short = G.seat_gain("greedy", "heuristic", 3, (), 300, seed=5, ref=cell.records[: 100 * 3])
    assert short == again
