"""Reports, comparisons, plots and loading, on hand-made and synthetic datasets (no engine needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq
import pytest

from analysis import stats
from analysis.load import load, load_dataset
from analysis.tokaido.compare import compare
from analysis.tokaido.effects import effects
from analysis.tokaido.plots import PLOT_FILES, plot_all, plot_effects
from analysis.tokaido.report import write_report
from tests.helpers.synthetic_datasets import make_dataset, write_rows


def _row(
    game: int,
    player: int,
    seat: int,
    traveler: str,
    alt: str | None,
    score: int,
    rank: int,
    win: float,
    n: int = 3,
) -> dict[str, Any]:
    return {
        "game": game,
        "n_players": n,
        "player": player,
        "seat": seat,
        "traveler": traveler,
        "alt_traveler": alt,
        "score": score,
        "rank": rank,
        "win": win,
        "pts_meals": 12,
        "meals": 2,
    }


# Three 3-player drafted games; game 1 ends in a shared win between chuubei and kinko.
TINY = [
    _row(0, 0, 0, "kinko", "chuubei", 50, 1, 1.0),
    _row(0, 1, 1, "satsuki", "hiroshige", 40, 2, 0.0),
    _row(0, 2, 2, "umegae", "zen-emon", 30, 3, 0.0),
    _row(1, 0, 2, "chuubei", "hirotada", 45, 1, 0.5),
    _row(1, 1, 0, "kinko", "satsuki", 45, 1, 0.5),
    _row(1, 2, 1, "umegae", "hiroshige", 20, 3, 0.0),
    _row(2, 0, 1, "kinko", "umegae", 35, 2, 0.0),
    _row(2, 1, 2, "satsuki", "chuubei", 60, 1, 1.0),
    _row(2, 2, 0, "zen-emon", "hiroshige", 30, 3, 0.0),
]


def _by(df: pl.DataFrame, **where: Any) -> dict[str, Any]:
    rows = df.filter(*[pl.col(k) == v for k, v in where.items()]).to_dicts()
    assert len(rows) == 1, (where, rows)
    return rows[0]


@pytest.fixture
def tiny_report(tmp_path: Path) -> Path:
    data = write_rows(tmp_path / "tiny", TINY)
    return write_report(data, tmp_path / "out")


def test_report_writes_markdown_and_csvs(tiny_report: Path) -> None:
    out = tiny_report.parent
    assert tiny_report.name == "report.md"
    for name in ("travelers.csv", "seats.csv", "draft.csv", "head_to_head.csv"):
        assert (out / name).is_file()
    text = tiny_report.read_text()
    assert "## Travelers: win rate and score" in text and "### 3 players (fair share 33.3%)" in text
    assert "| kinko | 3 | 50.0% (12.5–87.5) | 1.50 | +16.7 |" in text
    assert "3 games (9 player rows)" in text and "seed 1" in text
    assert "Holm" in text and "win rate when left" in text
    assert "Travelers **stronger** than fair: none." in text  # three games prove nothing


def test_traveler_csv_values_by_hand(tiny_report: Path) -> None:
    df = pl.read_csv(tiny_report.parent / "travelers.csv")
    assert sorted(df["traveler"]) == ["chuubei", "kinko", "satsuki", "umegae", "zen-emon"]
    k = _by(df, traveler="kinko")
    assert (k["n_players"], k["games"], k["wins"], k["win_rate"]) == (3, 3, 1.5, 0.5)
    assert k["fair_share"] == pytest.approx(1 / 3)
    assert k["win_ratio"] == pytest.approx(1.5) and k["win_diff"] == pytest.approx(1 / 6)
    # Wilson 1.5/3: centre 0.5, half 0.859448 * sqrt(0.25/3 + 3.841459/36) = 0.374666
    assert (k["win_lo"], k["win_hi"]) == pytest.approx((0.1253345, 0.8746655), abs=1e-6)
    # scores 50, 45, 35: mean 43.333, sd 7.637626, t(0.975, 2) = 4.302653
    assert k["mean_score"] == pytest.approx(130 / 3) and k["sd_score"] == pytest.approx(7.637626, abs=1e-6)
    assert (k["score_lo"], k["score_hi"]) == pytest.approx((24.36041, 62.30626), abs=1e-4)
    assert k["mean_rank"] == pytest.approx(4 / 3)
    assert k["pts_meals"] == 12 and k["pts_meals"] + k["pts_other"] == pytest.approx(k["mean_score"])
    u = _by(df, traveler="umegae")
    assert (u["games"], u["wins"], u["win_rate"], u["mean_score"], u["mean_rank"]) == (2, 0.0, 0.0, 25.0, 3.0)
    assert u["win_lo"] == 0.0
    c = _by(df, traveler="chuubei")
    assert (c["games"], c["wins"], c["mean_score"]) == (1, 0.5, 45.0)
    assert df["verdict"].fill_null("").to_list() == [""] * 5


def test_seat_csv_values_by_hand(tiny_report: Path) -> None:
    df = pl.read_csv(tiny_report.parent / "seats.csv")
    assert df["seat"].to_list() == [0, 1, 2]
    assert df["wins"].to_list() == [1.5, 0.0, 1.5]
    assert df["games"].to_list() == [3, 3, 3]
    assert df["mean_score"].to_list() == pytest.approx([125 / 3, 95 / 3, 45.0])
    p = stats.fair_share_test(1.5, 3, 1 / 3).p_value
    assert df["p_value"][0] == pytest.approx(float(p))
    assert df["p_holm"][0] == pytest.approx(min(1.0, 2 * float(p)))  # Holm: smallest of 3, ties at equal p


def test_draft_csv_values_by_hand(tiny_report: Path) -> None:
    df = pl.read_csv(tiny_report.parent / "draft.csv")
    c = _by(df, traveler="chuubei")  # kept once (shared win), left twice by players who then won
    assert (c["n_chosen"], c["wins_chosen"], c["n_left"], c["wins_left"], c["dealt"]) == (1, 0.5, 2, 2.0, 3)
    assert (c["pick_rate"], c["win_rate_chosen"], c["win_rate_left"], c["diff"]) == pytest.approx(
        (1 / 3, 0.5, 1.0, -0.5)
    )
    h = _by(df, traveler="hiroshige")  # dealt three times, never kept
    assert (h["n_chosen"], h["n_left"], h["wins_left"], h["pick_rate"]) == (0, 3, 0.0, 0.0)
    assert h["win_rate_chosen"] is None or h["win_rate_chosen"] != h["win_rate_chosen"]  # NaN
    s = _by(df, traveler="satsuki")
    assert (s["n_chosen"], s["wins_chosen"], s["n_left"], s["wins_left"]) == (2, 1.0, 1, 0.5)
    assert s["diff"] == pytest.approx(0.0)
    assert _by(df, traveler="hirotada")["wins_left"] == 0.5
    assert "kinko" in df["traveler"].to_list() and _by(df, traveler="kinko")["n_left"] == 0


def test_head_to_head_csv_values_by_hand(tiny_report: Path) -> None:
    df = pl.read_csv(tiny_report.parent / "head_to_head.csv")
    expect = {
        ("kinko", "satsuki"): (2, 1.0),
        ("kinko", "umegae"): (2, 2.0),
        ("kinko", "chuubei"): (1, 0.5),
        ("chuubei", "kinko"): (1, 0.5),
        ("kinko", "zen-emon"): (1, 1.0),
        ("umegae", "kinko"): (2, 0.0),
        ("satsuki", "umegae"): (1, 1.0),
        ("satsuki", "zen-emon"): (1, 1.0),
        ("chuubei", "umegae"): (1, 1.0),
    }
    for (a, b), (games, ahead) in expect.items():
        r = _by(df, a=a, b=b)
        assert (r["games"], r["ahead"], r["share"]) == (games, ahead, ahead / games)
    assert df.height == 2 * 7  # seven pairs met, each listed both ways


def test_report_flags_a_strong_traveler_with_holm(tmp_path: Path) -> None:
    data = make_dataset(tmp_path / "d", 3000, 4, seed=5, effect={"kinko": 10.0})
    report = write_report(data, tmp_path / "out")
    df = pl.read_csv(report.parent / "travelers.csv")
    assert _by(df, traveler="kinko")["verdict"] == "stronger"
    flagged = df.filter(pl.col("verdict").fill_null("") != "")
    assert (flagged["p_holm"] <= 0.05).all()
    assert (df.filter(pl.col("verdict").fill_null("") == "")["p_holm"] > 0.05).all()
    assert "Travelers **stronger** than fair: **kinko** (4 players:" in report.read_text()


def test_report_splits_study_configurations(tmp_path: Path) -> None:
    for v in ("none", "gastronomy"):
        make_dataset(tmp_path / "study", 200, 3, seed=2, variants=v, hive=True)
    report = write_report(tmp_path / "study", tmp_path / "out")
    text = report.read_text()
    assert "### 3 players · variants=gastronomy" in text and "### 3 players · variants=none" in text
    df = pl.read_csv(report.parent / "travelers.csv")
    assert set(df["variants"]) == {"none", "gastronomy"}
    assert df.group_by("variants").agg(pl.col("games").sum())["games"].to_list() == [600, 600]


def test_initiation_rows_have_no_traveler_tables(tmp_path: Path) -> None:
    data = make_dataset(tmp_path / "d", 50, 2, seed=3, variants="initiation")
    text = write_report(data, tmp_path / "out").read_text()
    assert "No Travelers in this dataset" in text and "No drafted games" in text
    assert "| 2 | 1st | 50 |" in text  # the seat table is still there


# ---------------------------------------------------------------- load
def test_load_errors_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no Parquet files") as err:
        load(tmp_path / "empty")
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="does not exist"):
        load(tmp_path / "missing")


def test_load_reads_hive_partitions_and_manifest(tmp_path: Path) -> None:
    for n in (2, 4):
        make_dataset(tmp_path / "s", 10, n, seed=9, variants="gastronomy", hive=True)
    ds = load_dataset(tmp_path / "s")
    assert ds.seed == 9 and ds.manifest.config["variants"] == ["gastronomy"]
    df = ds.frame.collect()
    assert df.height == 10 * 2 + 10 * 4
    assert df.schema["variants"] == pl.String and df.schema["n_players"] == pl.Int8
    assert set(df["variants"]) == {"gastronomy"}


def test_load_reads_the_engine_layout(tmp_path: Path) -> None:
    """Dictionary-encoded names (as the engine writes them); temp files with a leading dot are skipped."""
    src = make_dataset(tmp_path / "src", 30, 3, seed=1) / "part-00000.parquet"
    table = pq.read_table(src)
    for name in ("traveler", "alt_traveler", "bot"):
        table = table.set_column(
            table.schema.get_field_index(name), name, table.column(name).dictionary_encode()
        )
    cell = tmp_path / "run" / "n_players=3" / "variants=none"
    cell.mkdir(parents=True)
    pq.write_table(table, cell / "part-000000000000-000000000030.parquet")
    (cell / ".part-000000000030-000000000060.parquet").write_bytes(b"half-written")
    df = load(tmp_path / "run").collect()
    assert df.height == 90 and df.schema["traveler"] == pl.String
    assert df["alt_traveler"].null_count() == 0 and set(df["variants"]) == {"none"}


# ---------------------------------------------------------------- compare
def _pair_rows(kinko_scores: list[int]) -> list[dict[str, Any]]:
    rows = []
    for g, (k, s) in enumerate(zip(kinko_scores, [40, 45, 35], strict=True)):
        rows += [
            _row(g, 0, 0, "kinko", None, k, 1 if k > s else 2, float(k > s), n=2),
            _row(g, 1, 1, "satsuki", None, s, 1 if s > k else 2, float(s > k), n=2),
        ]
    return rows


def test_compare_paired_by_hand(tmp_path: Path) -> None:
    base = write_rows(tmp_path / "base", _pair_rows([50, 30, 40]), seed=4)
    other = write_rows(tmp_path / "other", _pair_rows([52, 34, 43]), seed=4)
    paths = compare(base, other, tmp_path / "cmp")
    assert [p.name for p in paths] == ["compare.md", "compare.csv", "effects.png"]
    assert all(p.stat().st_size > 0 for p in paths)
    df = pl.read_csv(paths[1])
    k = _by(df, figure="mean score", kind="traveler", group="kinko")
    ref = stats.paired_diff([52, 34, 43], [50, 30, 40])
    assert (k["base"], k["other"], k["n_paired"]) == (40.0, 43.0, 3)
    # paired: differences 2, 4, 3 -> mean 3, sd 1, t(0.975, 2) = 4.302653 -> 3 +- 2.484138
    assert (k["diff_paired"], k["lo_paired"], k["hi_paired"]) == pytest.approx(
        (3.0, 0.515862, 5.484138), abs=1e-6
    )
    assert (k["lo"], k["hi"]) == pytest.approx((ref.unpaired_lo, ref.unpaired_hi))
    assert k["width_ratio"] == pytest.approx(ref.width_ratio) and k["width_ratio"] < 0.5
    s = _by(df, figure="mean score", kind="traveler", group="satsuki")
    assert s["diff_paired"] == 0.0 and s["p_paired"] == 1.0
    text = paths[0].read_text()
    assert "paired on (game, player): the same deal (Travelers and seats) in 100.0% of the 3 games" in text
    assert "pairing rate 100.0%" in text and "width ratio" in text


def test_compare_unpaired_when_seeds_differ(tmp_path: Path) -> None:
    base = make_dataset(tmp_path / "a", 400, 3, seed=1)
    other = make_dataset(tmp_path / "b", 400, 3, seed=2, variants="preparations")
    paths = compare(base, other, tmp_path / "cmp")
    df = pl.read_csv(paths[1])
    assert "diff_paired" not in df.columns
    assert "unpaired: the seeds differ (1 vs 2)" in paths[0].read_text()
    assert set(df["kind"]) == {"traveler", "seat", "all"}


def test_crn_pairing_narrows_intervals(tmp_path: Path) -> None:
    base = make_dataset(tmp_path / "a", 1500, 4, seed=8)
    other = make_dataset(tmp_path / "b", 1500, 4, seed=8, variants="gastronomy", effect={"umegae": 4.0})
    eff = effects(load(base), load(other), paired=True)
    assert (eff["width_ratio"] < 0.8).all()
    u = _by(eff, figure="mean score", kind="traveler", group="umegae")
    assert u["significant"] and 3.0 < u["diff_paired"] < 5.0


def test_compare_rejects_mixed_configurations(tmp_path: Path) -> None:
    for v in ("none", "gastronomy"):
        make_dataset(tmp_path / "s", 20, 3, seed=1, variants=v, hive=True)
    with pytest.raises(ValueError, match="mixes several variants"):
        compare(tmp_path / "s", tmp_path / "s", tmp_path / "out")


# ---------------------------------------------------------------- plots
def _is_png(path: Path) -> bool:
    return path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_all_on_a_study(tmp_path: Path) -> None:
    for n in (3, 4):
        for v in ("none", "preparations"):
            make_dataset(tmp_path / "s", 300, n, seed=6, variants=v, hive=True)
    paths = plot_all(tmp_path / "s", tmp_path / "plots")
    names = [p.name for p in paths]
    assert names[:4] == ["win_rates.png", "fairness_heatmap.png", "seat_advantage.png", "variant_effects.png"]
    assert {"score_distributions-base-game.png", "points_by_source-preparations.png"} <= set(
        names
    )  # one each
    assert all(_is_png(p) for p in paths)


def test_plot_all_on_one_run_and_forest_plot(tmp_path: Path) -> None:
    data = make_dataset(tmp_path / "d", 200, 5, seed=6)
    paths = plot_all(data, tmp_path / "plots")
    assert [p.name for p in paths] == list(PLOT_FILES[:-1])
    assert all(_is_png(p) for p in paths)
    assert _is_png(plot_effects(pl.DataFrame(), tmp_path / "empty.png"))
