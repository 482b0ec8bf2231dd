"""The ladder (sim/games/tokaido/tuning/ladder.py, ``tokaido-sim ladder``): design, statistics, and a small
run."""

from __future__ import annotations

import csv
import math

import pytest

from sim.cli.app import main
from sim.games.tokaido.tuning import ladder as L


def test_wilson_interval():
    lo, hi = L.wilson(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(0.192, abs=0.005)
    assert L.wilson(0, 10)[0] == pytest.approx(0.0) and L.wilson(10, 10)[1] == pytest.approx(1.0)
    assert L.wilson(37.5, 80)[0] < 37.5 / 80 < L.wilson(37.5, 80)[1]  # shared wins are fractional


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_luce_elo(n):
    assert L.luce_elo(0.5, n) == pytest.approx(0.0, abs=1e-6)
    for w in (0.3, 0.7, 0.9):
        gap = L.luce_elo(w, n)
        assert L.expected_share(10 ** (gap / 400), n) == pytest.approx(w, abs=1e-9)
        if n % 2 == 0:
            assert gap == pytest.approx(L.elo(w), abs=1e-6)  # even N: 400 log10(w / (1 - w))
    assert L.elo(0.76) == pytest.approx(400 * math.log10(0.76 / 0.24))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_seats_are_split_and_rotated(n):
    pats = L.splits(n)
    assert len(pats) == n
    for p in range(n):  # every seat is tier A in k of the n rotations
        assert sum(pat[p] for pat in pats) == (n + 1) // 2
    assert all(sum(pat) == (n + 1) // 2 for pat in pats)


def test_heuristic_beats_greedy_at_4_players():
    r = L.play_pair(4, "heuristic", "greedy", 600, seed=2, threads=None)
    assert r.games == 1200
    assert r.win_lo > 0.6, r  # measured: ~0.89 (docs/bots.md)
    assert r.elo_lo > 50 and r.score_a > r.score_b


def test_cumulative_elo():
    a = L.PairResult(4, "greedy", "random", 10, 0.9, 0.8, 0.95, 0.9, 300.0, 200.0, 400.0, 60.0, 40.0)
    b = L.PairResult(4, "greedy", "heuristic", 10, 0.2, 0.1, 0.3, 0.2, -200.0, -300.0, -100.0, 60.0, 70.0)
    cum = L.cumulative([a, b], ("random", "greedy", "heuristic"))
    assert cum == {4: {"random": 0.0, "greedy": 300.0, "heuristic": 500.0}}


def test_ladder_command_writes_the_table(tmp_path, capsys):
    out = tmp_path / "ladder"
    with pytest.raises(SystemExit) as exc:
        main(
            [
                "ladder",
                "--out",
                str(out),
                "--tiers",
                "random,greedy,heuristic",
                "--players",
                "2,4",
                "--games",
                "100",
                "--profile-games",
                "20",
                "--quiet",
                "--seed",
                "3",
                "--agreement",
                "greedy,heuristic",
                "--agreement-games",
                "200",
                "--agreement-expansions",
                "none",
                "--agreement-seat-games",
                "200",
            ]
        )
    assert exc.value.code == 0
    rows = list(csv.DictReader((out / "ladder.csv").open()))
    assert [(r["players"], r["tier_a"], r["tier_b"]) for r in rows] == [
        ("2", "greedy", "random"),
        ("2", "heuristic", "greedy"),
        ("4", "greedy", "random"),
        ("4", "heuristic", "greedy"),
    ]
    assert all(int(r["games"]) == 100 for r in rows)
    md = (out / "ladder.md").read_text()
    assert (
        "| 4 | heuristic | greedy | 100 |" in md and "Self-play profiles" in md and "| heuristic | 20 |" in md
    )
    assert "Tier agreement" in md and "| 4p-base | greedy vs heuristic | 200 / 200 |" in md
    assert (
        "| 4p-base | one heuristic among greedy | 200 |" in md and "4p-base: one heuristic among greedy" in md
    )


def test_ladder_rejects_too_few_seat_gain_deals(tmp_path, capsys):
    out = tmp_path / "ladder"
    with pytest.raises(SystemExit) as exc:
        main(["ladder", "--out", str(out), "--players", "2,4", "--agreement-seat-games", "3"])
    assert exc.value.code == 2 and not out.exists()
    assert "--agreement-seat-games needs at least one deal per seat (4)" in capsys.readouterr().err


def test_ladder_rejects_unknown_tiers(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["ladder", "--out", str(tmp_path), "--tiers", "greedy,grandmaster"])
    assert exc.value.code == 2
    assert "unknown tier 'grandmaster'" in capsys.readouterr().err
