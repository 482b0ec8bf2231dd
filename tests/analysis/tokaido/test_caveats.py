"""The report's caveats: the bot tier that made the figures, and the Travelers the strong tiers dispute
(analysis/tokaido/caveats.py; the measured table: calibrate-agreement,
sim/games/tokaido/data/bots/agreement-expert.toml)."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import polars as pl
import pytest

from analysis.tokaido import caveats
from analysis.tokaido.caveats import Disputed, TierCheck
from analysis.tokaido.report import write_report
from sim.cli.app import main
from sim.dataset.manifest import Manifest
from sim.games.tokaido.bots import config_key
from sim.games.tokaido.checks import golden
from sim.games.tokaido.cli import analysis as cli_analysis
from sim.games.tokaido.tuning import agreement as A
from sim.games.tokaido.tuning.draft import Cell
from tests.helpers.synthetic_datasets import make_dataset

NAMES = (
    "hiroshige",
    "chuubei",
    "kinko",
    "yoshiyasu",
    "satsuki",
    "mitsukuni",
    "sasayakko",
    "hirotada",
    "umegae",
    "zen-emon",
)


def _head(report: Path) -> str:
    """What the report says before its answers: its first lines."""
    return report.read_text().split("## Answers")[0]


def _check(
    key: str = "4p-base", disputed: tuple[Disputed, ...] = (), differ: tuple[str, ...] = ()
) -> TierCheck:
    return TierCheck(
        key, "expert", "search", 100_000, 8_000, 0.93, 0.85, 0.97, disputed, differ, "a test table"
    )


KINKO = Disputed("kinko", 0.30, 0.20, -0.14, -0.06)


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_a_report_of_a_distorting_tier_says_so_in_its_first_lines(tmp_path: Path, bot: str) -> None:
    ds = make_dataset(tmp_path / "d", 300, 4, seed=1, bot=bot)
    head = _head(write_report(ds, tmp_path / "r"))
    assert f"bots {bot}" in head and "a tier known to distort balance" in head and "--bots expert" in head


@pytest.mark.parametrize(
    "bot, said", [("tuned", "weaker than the expert"), ("expert", None), ("search", None)]
)
def test_stronger_tiers_get_a_milder_note_or_none(tmp_path: Path, bot: str, said: str | None) -> None:
    head = _head(write_report(make_dataset(tmp_path / "d", 300, 4, seed=1, bot=bot), tmp_path / "r"))
    assert "distort" not in head
    assert (said in head) if said else ("expert" not in head.split("`report.html`")[1])


def test_the_report_names_the_travelers_the_strong_tiers_dispute(tmp_path: Path) -> None:
    ds = make_dataset(tmp_path / "d", 400, 4, seed=2, bot="expert")
    text = write_report(
        ds, tmp_path / "r", checks={"4p-base": _check(disputed=(KINKO,), differ=("satsuki",))}
    ).read_text()
    summary = text.split("## Bot tier and its check")[1].split("\n## ")[0]
    assert (
        "**dispute**" in summary and "4 players: kinko (30.0% vs 20.0%), satsuki (verdict differs)" in summary
    )
    section = text.split("## Bot tier and its check")[1].split("\n## ")[0]
    assert (
        "| 4 players | expert 100,000 / search 8,000 | 0.93 (0.85 to 0.97) | kinko (30.0% vs 20.0%, -14.0 to "
        "-6.0 pp)" in section
    )
    assert "Source: a test table." in section
    table = text.split("## Travelers: win rate and score")[1].split("\n## ")[0]
    assert (
        "| kinko † |" in table
        and "| satsuki † |" in table
        and "| chuubei |" in table
        and "† disputed" in table
    )


def test_a_check_applies_only_to_its_own_configuration_and_tier(tmp_path: Path) -> None:
    checks = {"4p-base": _check(disputed=(KINKO,))}
    greedy = write_report(
        make_dataset(tmp_path / "g", 300, 4, seed=1), tmp_path / "gr", checks=checks
    ).read_text()
    assert (
        "Bot tier and its check" not in greedy and "†" not in greedy
    )  # the expert's check says nothing of greedy
    three = write_report(
        make_dataset(tmp_path / "e3", 300, 3, seed=1, bot="expert"), tmp_path / "er", checks=checks
    ).read_text()
    assert "Not checked against a stronger tier: 3 players (3p-base)" in three and "kinko †" not in three
    mats = write_report(
        make_dataset(tmp_path / "m", 300, 4, seed=1, bot="expert", expansions="crossroads+matsuri"),
        tmp_path / "mr",
        checks={"4p-crossroads": _check("4p-crossroads", (KINKO,))},
    ).read_text()
    assert "(4p-crossroads+matsuri)" in mats and "kinko †" not in mats  # Matsuri was never measured


def test_changed_rules_and_variants_make_a_check_a_guide(tmp_path: Path) -> None:
    ds = make_dataset(tmp_path / "d", 300, 4, seed=1, bot="expert", variants="gastronomy")
    text = write_report(ds, tmp_path / "r", checks={"4p-base": _check(disputed=(KINKO,))}).read_text()
    assert "4 players (no variants measured: a guide)" in text
    assert caveats.changed_rules(
        Manifest.from_json({"config": {"overrides": [["travelers.kinko.coins", 6]]}})
    )
    assert caveats.changed_rules(Manifest.from_json({"config": {"rules_profile": "online"}}))
    assert caveats.changed_rules(Manifest.from_json({"study": {"overrides": {"meals": {"hand_extra": 0}}}}))
    assert not caveats.changed_rules(
        Manifest.from_json({"config": {"overrides": [], "rules_profile": "rulebook"}})
    )


def test_groups_read_a_studys_expansions_from_its_partitions() -> None:
    lf = pl.LazyFrame(
        {
            "n_players": [4, 4, 3, 3],
            "bot": ["expert"] * 3 + ["search"],
            "expansions": ["crossroads+matsuri"] * 2 + ["none"] * 2,
            "variants": ["none"] * 4,
        }
    )
    got = caveats.groups(lf, Manifest(), ["n_players"])
    assert [(g.key, g.bots) for g in got] == [
        ("3p-base", ("expert", "search")),
        ("4p-crossroads+matsuri", ("expert",)),
    ]
    # a mixed group (expert with search) is no self-play of the checked tier: not checked
    assert caveats.summary_line(got, {"3p-base": _check("3p-base", (KINKO,))}) == ""


def _cells(n: int, shift: float) -> tuple[Cell, Cell]:
    a = {t: 1 / n + 0.01 * (i - 4.5) for i, t in enumerate(NAMES)}
    b = {t: v + (shift if t == "kinko" else 0.0) for t, v in a.items()}
    return (
        Cell("x", 100_000, 3, a, {t: 0.006 for t in NAMES}, {t: 40_000 for t in NAMES}),
        Cell("x", 8_000, 3, b, {t: 0.02 for t in NAMES}, {t: 3_200 for t in NAMES}),
    )


def test_the_agreement_table_round_trips(tmp_path: Path) -> None:
    rows = []
    for n, shift in ((2, -0.1), (4, 0.0)):
        r = A.compare(*_cells(n, shift), n)
        r.tier_a, r.tier_b = "expert", "search"
        rows.append((config_key(n, ()), r))
    path = tmp_path / "agreement-expert.toml"
    path.write_text(A.table_toml(rows, "tokaido-sim calibrate-agreement --seed 3", 3))
    prov, got = A.load_table(path)
    assert prov["tier"] == "expert" and prov["reference"] == "search" and prov["seed"] == 3
    assert set(got) == {"2p-base", "4p-base"}
    for key, r in rows:
        assert (
            got[key].rho == pytest.approx(r.rho)
            and got[key].beyond == r.beyond
            and got[key].differ == r.differ
        )
        assert got[key].a.shares == r.a.shares and got[key].b.appearances == r.b.appearances
    assert got["2p-base"].beyond == ["kinko"] and got["4p-base"].beyond == []
    path.write_text(path.read_text().replace("reference_games", "other"))
    with pytest.raises(ValueError, match="remake it with tokaido-sim calibrate-agreement"):
        A.load_table(path)


def test_the_cli_report_reads_the_measured_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    r = A.compare(*_cells(4, -0.1), 4)
    r.tier_a, r.tier_b = "expert", "search"
    table = tmp_path / "agreement-expert.toml"
    table.write_text(A.table_toml([("4p-base", r)], "tokaido-sim calibrate-agreement", 3))
    monkeypatch.setattr(A, "table_path", lambda tier: table if tier == "expert" else tmp_path / "none.toml")
    checks = cli_analysis.tier_checks()
    assert list(checks) == ["4p-base"] and [d.traveler for d in checks["4p-base"].disputed] == ["kinko"]
    ds = make_dataset(tmp_path / "d", 300, 4, seed=1, bot="expert")
    with pytest.raises(SystemExit) as exc:
        main(["report", str(ds), "--out", str(tmp_path / "r")])
    assert exc.value.code == 0
    assert "| kinko † |" in (tmp_path / "r" / "report.md").read_text()


def test_the_shipped_table_covers_the_measured_configurations() -> None:
    prov, rows = A.load_table(A.table_path("expert"))
    assert (prov["tier"], prov["reference"]) == ("expert", "search") and "calibrate-agreement" in str(
        prov["command"]
    )
    assert set(rows) == {f"{n}p-{x}" for n in (2, 3, 4, 5) for x in ("base", "crossroads")}
    for key, r in rows.items():
        assert r.a.games == 100_000 and r.b.games == 8_000
        assert len(r.a.shares) == (16 if "crossroads" in key else 10) and set(r.a.shares) == set(r.b.shares)
        assert -1.0 <= r.rho <= 1.0 and r.rho_lo <= r.rho_hi


def test_the_agreement_table_is_no_bot_weight(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No bot reads the table, so refreshing it must not say the bot weights changed (golden games,
    statistical baselines)."""
    assert A.TABLE_PREFIX in golden.MEASURED_ONLY
    before = golden.bots_digest()
    table = A.table_path("expert")
    monkeypatch.setattr(golden.resources, "files", lambda pkg: tmp_path)
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots.toml").write_text((table.parents[1] / "bots.toml").read_text())
    for f in table.parent.glob("*.toml"):
        (tmp_path / "bots" / f.name).write_text(f.read_text())
    assert golden.bots_digest() == before
    (tmp_path / "bots" / table.name).write_text("# remade\n")
    assert golden.bots_digest() == before
    (tmp_path / "bots" / "expert.toml").write_text("# changed\n")
    assert golden.bots_digest() != before


def test_calibrate_agreement_writes_both_tiers_shares(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "agreement.toml"
    args = [
        "calibrate-agreement",
        "--tiers",
        "greedy,heuristic",
        "--players",
        "3",
        "--expansions",
        "none",
        "--games",
        "200",
        "--reference-games",
        "150",
        "--seed",
        "4",
        "--out",
        str(out),
        "--quiet",
    ]
    monkeypatch.setattr(sys, "argv", ["tokaido-sim", *args])  # the command line recorded as provenance
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 0
    data = tomllib.loads(out.read_text())
    assert "calibrate-agreement" in data["provenance"]["command"] and data["provenance"]["tier"] == "greedy"
    sec = data["3p-base"]
    assert (sec["games"], sec["reference_games"]) == (200, 150) and set(sec["a_share"]) == set(NAMES)
    assert sum(sec["a_apps"].values()) == 600 and sum(sec["b_apps"].values()) == 450
    assert A.load_table(out)[1]["3p-base"].tier_b == "heuristic"


@pytest.mark.parametrize(
    "args, said",
    [
        (["--tiers", "expert"], "--tiers takes two different tiers"),
        (["--tiers", "expert,wizard"], "--tiers takes two different tiers"),
        (["--games", "10"], "at least 100"),
        (["--players", "7"], "--players must be between 2"),
        (["--expansions", "kaiju"], "unknown expansions 'kaiju'"),
    ],
)
def test_calibrate_agreement_rejects_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    out = tmp_path / "x.toml"
    with pytest.raises(SystemExit) as exc:
        main(["calibrate-agreement", *args, "--out", str(out)])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and said in err and len(err.strip().splitlines()) == 1
    assert not out.exists()
