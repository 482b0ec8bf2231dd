"""``tokaido-sim balance``: it undoes a deliberate imbalance, confirms on unseen seeds, resumes, refuses bad
input.

The rule set of the end-to-end tests makes every Traveler the same (no ability, 5 coins) except
that Kinko gets 4 coins more, so the fair answer is known: take Kinko's 4 coins back (or 3,
if that is already within the loose target). Greedy bots and a few thousand games keep it fast.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from sim.cli import app as cli
from sim.games.tokaido.balance import knobs as kn
from sim.games.tokaido.balance import model, search
from sim.games.tokaido.balance.evaluate import Tally
from sim.games.tokaido.rules.config import GameConfig
from sim.overrides import load_patch
from sim.run import runner
from tests.helpers.balance import NAMES
from tests.helpers.cli import call

FAST = [
    "--players",
    "4",
    "--bots",
    "greedy",
    "--target",
    "3",
    "--games",
    "8000",
    "--min-games",
    "1000",
    "--confirm-games",
    "10000",
    "--budget",
    "200000",
    "--chunk-size",
    "4000",
    "--quiet",
]


@pytest.fixture(scope="module")
def balanced(skewed: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("balance") / "out"
    with pytest.raises(SystemExit) as exc:
        cli.main(["balance", *FAST, "--set", f"@{skewed}", "--out", str(out)])
    assert exc.value.code in (0, None)
    return out


def test_balance_undoes_a_deliberate_imbalance(balanced: Path, skewed: Path) -> None:
    manifest = json.loads((balanced / "manifest.json").read_text())
    result = manifest["result"]
    assert result["verdict"] in ("proven", "met") and result["off_after"] == [], result
    sets = dict(load_patch(balanced / "patch.toml"))
    assert sets["travelers.kinko.coins"] in (5, 6), sets  # 4 coins back, or 3 within the loose target
    assert result["moved"] <= 5 and result["spent"] <= 200_000
    before, after = result["spread_pp"]["4"]["before"][0], result["spread_pp"]["4"]["after"][0]
    assert before > 6 and after <= 3, (before, after)
    # the patch is usable as --set @patch.toml on top of the skewed rules
    config = GameConfig(
        n_players=4, travelers="random", overrides=(*load_patch(skewed), *load_patch(balanced / "patch.toml"))
    )
    assert config.rules().travelers[NAMES.index("kinko")].coins == sets["travelers.kinko.coins"]
    text = (balanced / "balance.md").read_text()
    assert "bots: greedy" in text and "kinko" in text and "Confirmation on fresh seeds" in text
    assert (balanced / "forest.png").stat().st_size > 10_000


def test_the_confirmation_plays_seeds_the_search_never_used(balanced: Path) -> None:
    def seeds(root: Path) -> set[int]:
        return {json.loads(p.read_text())["seed"] for p in root.glob("*/players=*/manifest.json")}

    search_seeds, confirm_seeds = seeds(balanced / "search"), seeds(balanced / "confirm")
    assert search_seeds == {1} and confirm_seeds == {2}
    assert not search_seeds & confirm_seeds


def test_an_interrupted_search_resumes_to_the_same_result(
    balanced: Path,
    skewed: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "out"
    argv = ["balance", *FAST, "--set", f"@{skewed}", "--out", str(out)]
    real, calls = runner.run, []

    def interrupted(*a: object, **k: object) -> object:
        calls.append(1)
        if len(calls) == 4:  # after the screening, inside the first race
            raise KeyboardInterrupt
        return real(*a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(runner, "run", interrupted)
    code, _, err = call(argv, capsys)
    assert code == 130 and "interrupted" in err
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"
    assert not (out / "patch.toml").exists()
    parts = {p: p.stat().st_mtime_ns for p in (out / "search").rglob("part-*.parquet")}
    assert parts
    monkeypatch.setattr(runner, "run", real)
    code, _, err = call(argv, capsys)  # the same directory without --resume: refused
    assert code == 2 and "--resume" in err
    code, _, err = call([*argv, "--resume"], capsys)
    assert code == 0, err
    assert all(p.stat().st_mtime_ns == t for p, t in parts.items())  # finished games are not played again
    done = json.loads((balanced / "manifest.json").read_text())
    again = json.loads((out / "manifest.json").read_text())
    for key in ("change", "spent", "verdict", "spread_pp"):
        assert again["result"][key] == done["result"][key], key
    assert [s["status"] for s in again["sessions"]] == ["interrupted", "complete"]
    code, _, err = call([*argv[:-2], "--target", "2.5", "--out", str(out), "--resume"], capsys)
    assert code == 2 and "other options" in err


BAD = [
    (["--players", "6"], "--players"),
    (["--players", "x"], "--players"),
    (["--target", "0"], "--target"),
    (["--target", "60"], "--target"),
    (["--knobs", "travelers.nobody.coins"], "nobody"),
    (["--knobs", "travelers.kinko.ability"], "coins"),
    (["--knobs", "nothing.here"], "names no rule"),
    (["--knobs", "meals.nope"], "nope"),
    (["--knobs", "variants.preparations.4[9]", "--variants", "preparations"], "elements"),
    (["--knobs", "variants.preparations.4"], "no effect without --variants preparations"),
    (["--knobs", "travelers.kinko.coins,travelers.*.coins"], "twice"),
    (["--max-change", "0"], "--max-change"),
    (["--games", "100", "--min-games", "1000"], "--min-games"),
    (["--confirm-seed", "1"], "--confirm-seed"),
    (["--budget", "10"], "--budget"),
    (["--bots", "greedy,random,greedy,random"], "one bot tier"),
    (["--bots", "nobody"], "unknown bot"),
    (["--set", "travelers.kinko.coins=x"], "x"),
]


@pytest.mark.parametrize(("extra", "says"), BAD, ids=[" ".join(b[0]) for b in BAD])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    extra: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code, stdout, err = call(["balance", "--out", str(out), *extra], capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (code, stdout, err)
    assert says in lines[0], lines[0]
    assert not out.exists()


# ------------------------------------------------------------------ the parts
def test_knobs_expand_bound_and_write_a_patch_that_parses_back(tmp_path: Path) -> None:
    configs = [GameConfig(n_players=n, travelers="random", variants=("preparations",)) for n in (3, 4)]
    ks = kn.parse_knobs("travelers.*.coins,variants.preparations.4,meals.hand_extra", configs, 3)
    by = {k.label: k for k in ks}
    assert by["satsuki"].base == 2 and (by["satsuki"].lo, by["satsuki"].hi) == (-2, 3)  # coins stay >= 0
    assert [by[f"variants.preparations.4[{i}]"].base for i in range(4)] == [-1, 0, 1, 2]
    assert by["meals.hand_extra"].lo == -1  # a hand of fewer cards than Travelers is refused by the rules
    change = tuple(
        -1 if k.label == "kinko" else 2 if k.label == "variants.preparations.4[3]" else 0 for k in ks
    )
    assert kn.cost(change) == (3, 2) and kn.describe(ks, change) == "kinko -1, variants.preparations.4[3] +2"
    path = tmp_path / "patch.toml"
    path.write_text(kn.patch_toml(ks, change, ["a header"]))
    assert dict(load_patch(path)) == {"travelers.kinko.coins": 6, "variants.preparations.4": [-1, 0, 1, 4]}
    path.write_text(kn.patch_toml(ks, tuple(0 for _ in ks), []))  # no change: still a usable patch
    assert load_patch(path)


def test_screening_is_an_antithetic_pair_within_the_bounds() -> None:
    ks = kn.parse_knobs("travelers.*.coins", [GameConfig(n_players=4, travelers="random")], 4)
    zero, plus, minus = search.screening(ks, 7)
    assert not any(zero) and search.screening(ks, 7) == [zero, plus, minus]
    for k, p, m in zip(ks, plus, minus, strict=True):
        assert abs(p) == 2 and (m == -p or m == k.lo) and k.lo <= m <= k.hi


def _tally(rates: np.ndarray, n: int, seats: float = 1e6) -> Tally:
    return Tally(n, int(seats), rates * seats, np.full(len(rates), seats))


def test_the_model_recovers_a_known_response_and_the_programme_finds_the_cheapest_change() -> None:
    travelers = ["a", "b", "c", "d", "e"]
    ks = [kn.Knob(f"travelers.{t}.coins", None, 5, -3, 3, traveler=t) for t in travelers]
    slopes = np.array([0.02, 0.03, 0.015, 0.025, 0.02])
    jac = np.diag(slopes) - (np.ones((5, 5)) - np.eye(5)) * slopes / 4
    start = np.array([0.58, 0.50, 0.44, 0.50, 0.48])  # 2 players: fair share 0.5, the mean over the pool
    rng = np.random.default_rng(0)
    designs = [tuple(rng.integers(-2, 3, 5)) for _ in range(6)]
    data = [(d, _tally(start + jac @ np.array(d, float), 2)) for d in [(0,) * 5, *designs]]
    r = model.fit(ks, travelers, data, data[0])
    assert np.allclose(r.jac, jac, atol=1e-6)
    band = 0.02
    best = model.propose(ks, [r], data[0][0], band, travelers)
    assert best is not None and best.feasible and not best.short
    box = list(itertools.product(range(-3, 4), repeat=5))
    ok = [c for c in box if np.all(np.abs(r.predict(c, data[0][0]) - 0.5) <= band + 1e-12)]
    assert ok and kn.cost(best.change) == min(kn.cost(c) for c in ok)
    assert np.all(np.abs(r.predict(best.change, data[0][0]) - 0.5) <= band + 1e-9)
    # a rejected change is never proposed again: the next cheapest is
    again = model.propose(ks, [r], data[0][0], band, travelers, exclude=[best.change])
    assert again is not None and again.feasible and again.change != best.change
    assert kn.cost(again.change) == min(kn.cost(c) for c in ok if c != best.change)
    # too tight for whole coins: the least total excess beyond the band, and who stays outside
    tight = model.propose(ks, [r], data[0][0], 1e-4, travelers)
    assert tight is not None and not tight.feasible and tight.short
    least = min(float(np.clip(np.abs(r.predict(c, data[0][0]) - 0.5) - 1e-4, 0, None).sum()) for c in box)
    assert tight.excess == pytest.approx(least, abs=1e-6)


def test_the_diagnosis_names_what_coins_cannot_fix() -> None:
    travelers = ["flat", "capped", "coarse", "fine"]
    ks = [kn.Knob(f"travelers.{t}.coins", None, 2, -2, 2, traveler=t) for t in travelers]
    jac = np.diag([0.001, 0.02, 0.10, 0.02])  # per coin; "coarse" jumps 10 points a coin
    anchor = (0, 0, 0, 0)
    rates = np.array([0.40, 0.62, 0.55, 0.46])  # 2 players: fair share 0.5
    r = model.Response(2, jac, rates, np.ones(4, bool))
    said = dict(line.split(": ", 1) for line in model.diagnose(ks, [r], anchor, 0.02, travelers))
    assert set(said) == {"flat", "capped", "coarse"}  # "fine" reaches 0.50 at +2 coins
    assert said["flat"].startswith("its win rate hardly moves")
    assert said["capped"].startswith("even at -2 coins (the limit)")
    assert said["coarse"].startswith("one coin moves it 10.0 pp")


def test_balance_on_a_cluster_decides_as_in_process(
    balanced: Path, skewed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "dask"
    code, _, err = call(
        ["balance", *FAST, "--set", f"@{skewed}", "--out", str(out), "--cluster", "local:2"], capsys
    )
    assert code == 0, err
    here = json.loads((balanced / "manifest.json").read_text())
    there = json.loads((out / "manifest.json").read_text())
    assert there["result"] == {**here["result"]} and there["log"] == here["log"]


def test_one_knob_at_two_player_counts(
    skewed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = [
        "balance",
        *FAST,
        "--players",
        "3,5",
        "--knobs",
        "travelers.kinko.coins",
        "--set",
        f"@{skewed}",
        "--out",
        str(out),
    ]
    code, _, err = call(argv, capsys)
    assert code == 0, err
    result = json.loads((out / "manifest.json").read_text())["result"]
    assert result["label"] in ("kinko -4", "kinko -3") and result["off_after"] == [], result
    assert set(result["spread_pp"]) == {"3", "5"}
    assert "3 players" in (out / "balance.md").read_text() and "5 players" in (out / "balance.md").read_text()
