"""Bad inputs, tried as a new user would: each one line naming what is wrong, exit 2, nothing written or
damaged.

``CASES`` are command lines refused on their own; the tests below them build what a case needs
(a bad file, a dataset to damage). By class: options that would change nothing, files that cannot
be read as what was expected, refusals that must write nothing, silent wrong results, and lines
that must say what to do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sim.games.tokaido.game import TokaidoGame
from tests.helpers.cli import assert_user_error, call
from tests.helpers.paths import ROOT

BASELINE = str(ROOT / "results" / "baselines" / "base-4p-greedy.json")

CASES = [
    (
        ["run", "-g", "10", "-s", "1", "--set", "travelers.kinko.coins=40000"],
        "travelers.kinko.coins takes 0 to 100 (coins, points and costs are kept in 16-bit fields",
    ),
    (["run", "-g", "10", "-s", "1", "--set", "travelers.kinko.coins=99999999999"], "takes 0 to 100"),
    (["run", "-g", "10", "-s", "1", "--set", "travelers.kinko.coins=lots"], "wants a whole number"),
    (["run", "-g", "10", "-s", "1", "--set", "meals.hand_extra=-1"], "meals.hand_extra takes 0 to 9"),
    (["run", "-g", "10", "-s", "1", "--set", "encounters.annaibito=2,2"], "takes 3 values"),
    (["run", "-g", "10", "-s", "1", "--expansions", "crossroads,crossroads"], "listed twice in --expansions"),
    (
        ["run", "-g", "10", "-s", "1", "--set", "crossroads.bathhouse.points=5"],
        "has no effect: it is a Crossroads",
    ),
    (
        [
            "run",
            "-g",
            "10",
            "-s",
            "1",
            "--variants",
            "initiation",
            "--travelers",
            "kinko,chuubei,satsuki,mitsukuni",
        ],
        "has no effect: Journey of Initiation",
    ),
    (["run", "-g", "99999999999999999999", "-s", "1"], "--games takes 1 to 999,999,999,999"),
    (["run", "-g", "10", "-s", "1", "--cluster", "foo"], "--cluster must be a scheduler address"),
    (
        ["verify", "-g", "10", "-s", "1", "--set", "encounters.annaibito=1,2,3,4"],
        "takes 3 values (copies for each panorama type",
    ),
    (["verify", "-g", "10", "-s", "1", "--chunk-size", "1000000"], "--chunk-size takes 1 to 10,000"),
    (["replay", "-s", "1", "--game", "99999999999999999999"], "--game takes 0 to"),
    (["replay", "-s", "1", "--game", "-1"], "--game takes 0 to"),
    (["check", "stats", "--baseline", "DIR"], "DIR is a folder: expected a tokaido-sim baseline"),
    (
        ["check", "stats", "--baseline", BASELINE, "--set", "crossroads.fortune_die=1,1,1,1,1,1"],
        "has no effect",
    ),
    (["check", "stats", "--baseline", BASELINE, "--json", "DIR"], "--json DIR is a directory"),
    (["check", "make-baseline", "--out", "DIR", "-g", "10"], "is a directory; give the path of a file"),
    (["ladder", "--out", "FILE"], "FILE is a file, not a directory"),
    (["playthroughs", "--out", "FILE"], "FILE is a file, not a directory"),
    (
        ["tune", "--start", "nobody"],
        "--start 'nobody' is not a bot with heuristic weights; choose from: heuristic",
    ),
    (["tune", "--out", "DIR"], "is a directory"),
    (["tune", "--method", "annealing"], "--method must be cma, sweep or imitate, not 'annealing'"),
    (["tune", "--method", "sweep"], "--method sweep polishes the expert: add --tier expert --players N"),
    (["tune", "--method", "sweep", "--tier", "expert", "--players", "4", "--games", "10"], "--games >= 100"),
    (
        ["tune", "--method", "sweep", "--tier", "expert", "--players", "4", "--field", "start,nobody"],
        "--field takes start, current or bot names, comma-separated; not nobody",
    ),
    # options that would change nothing
    (["run", "-g", "10", "-s", "1", "--bots", ""], "--bots '' names no bot"),
    (["run", "-g", "10", "-s", "1", "--bots", ",,"], "--bots ',,' names no bot"),
    (["run", "-g", "10", "-s", "1", "--travelers", " , "], "names no Traveler"),
    (
        ["run", "-g", "10", "-s", "1", "--expansions", "crossroads", "--set", "travelers.ayumu.coins=3"],
        "has no effect: ayumu is a Matsuri Traveler: add --expansions crossroads,matsuri",
    ),
    (
        ["run", "-g", "10", "-s", "1", "--expansions", "crossroads", "--set", "travelers.antoine.coins=3"],
        "has no effect: antoine is a promo Traveler: add --expansions crossroads,promos",
    ),
    (["run", "-g", "10", "-s", "1", "--set", "abilities.felicia_win_p=0.5"], "felicia is a promo Traveler"),
    (["run", "-g", "10", "-s", "1", "--set", "gender.naiade=F"], "naiade is a promo Traveler"),
    (
        ["run", "-g", "10", "-s", "1", "--expansions", "crossroads", "--set", "abilities.watcher_coins=2"],
        "misaki is a Matsuri Traveler",
    ),
    (
        ["run", "-g", "10", "-s", "1", "--expansions", "crossroads", "--set", "abilities.titia_discount=2"],
        "titia is a Matsuri or promo Traveler: add --expansions crossroads,matsuri or --expansions "
        "crossroads,promos",
    ),
    (
        [
            "run",
            "-g",
            "10",
            "-s",
            "1",
            "--travelers",
            "kinko,chuubei,satsuki,mitsukuni",
            "--set",
            "travelers.hiroshige.coins=5",
        ],
        "hiroshige is not in --travelers kinko,chuubei,satsuki,mitsukuni",
    ),
    (
        [
            "run",
            "-g",
            "10",
            "-s",
            "1",
            "--expansions",
            "crossroads",
            "--travelers",
            "kinko,chuubei,satsuki,mitsukuni",
            "--set",
            "crossroads.abilities.jirocho_bet=2",
        ],
        "jirocho is not in --travelers",
    ),
    (
        [
            "run",
            "-g",
            "10",
            "-s",
            "1",
            "--travelers",
            "kinko,chuubei,satsuki,mitsukuni",
            "--set",
            "abilities.umegae_points=2",
        ],
        "umegae is not in --travelers",
    ),
    (
        ["run", "-g", "10", "-s", "1", "--expansions", "promos", "--variants", "initiation"],
        "--expansions promos has no effect: the promos add only Travelers and Journey of Initiation",
    ),
    (
        [
            "run",
            "-g",
            "10",
            "-s",
            "1",
            "--expansions",
            "promos",
            "--travelers",
            "kinko,chuubei,satsuki,mitsukuni",
        ],
        "--expansions promos has no effect: the promos add only Travelers and --travelers",
    ),
    (
        ["run", "-g", "10", "-s", "1", "--rules", "online", "--variants", "initiation"],
        "--rules online has no effect: none of the rules it changes is used here",
    ),
    (
        [
            "run",
            "-g",
            "10",
            "-s",
            "1",
            "--rules",
            "online",
            "--travelers",
            "kinko,chuubei,hiroshige,mitsukuni",
        ],
        "--rules online has no effect",
    ),
    (
        ["run", "-g", "10", "-s", "1", "--set", "temple.neutral_bank_coin=2"],
        "it is a rule of the Neutral Traveler, who plays only at 2 players (the game has 4)",
    ),
    (
        [
            "run",
            "-g",
            "10",
            "-s",
            "1",
            "-p",
            "3",
            "--expansions",
            "crossroads,matsuri",
            "--set",
            "matsuri.choices.first_arrival_skips_neutral=false",
        ],
        "Neutral Traveler, who plays only at 2 players",
    ),
    (
        ["run", "-g", "10", "-s", "1", "--set", "travelers.hiroshige.coins=3"],
        "--set travelers.hiroshige.coins=3 has no effect: travelers.hiroshige.coins is already 3",
    ),
    (
        [
            "run",
            "-g",
            "10",
            "-s",
            "1",
            "--set",
            "travelers.kinko.coins=5",
            "--set",
            "travelers.kinko.coins=6",
        ],
        "--set travelers.kinko.coins=5 has no effect: travelers.kinko.coins is set again later (=6)",
    ),
    (
        ["run", "-g", "10", "-s", "1", "--set", "draft.mode=free", "--set", "draft.dealt=3"],
        "--set draft.dealt=3 has no effect: with draft.mode=free each player picks from the whole pool",
    ),
    (
        ["run", "-g", "10", "-s", "1", "--variants", "gastronomy", "--set", "meals.hand_extra=2"],
        "the meal hand is variants.gastronomy.hand_extra: set that instead",
    ),
    (
        [
            "run",
            "-g",
            "10",
            "-s",
            "1",
            "--variants",
            "gastronomy",
            "--set",
            "variants.gastronomy.hand_extra=0",
        ],
        "variants.gastronomy.hand_extra is already 0",
    ),
    (
        ["run", "-g", "10", "-s", "1", "--travelers", "random", "--set", "draft.dealt=3"],
        "the draft rules apply only with --travelers draft",
    ),
    (
        ["verify", "-g", "10", "-s", "1", "--threads", "0"],
        "--threads': Input should be greater than or equal to 1",
    ),
    (
        ["check", "stats", "--baseline", BASELINE, "--threads", "0"],
        "--threads': Input should be greater than or equal to 1",
    ),
    (["check", "golden", "--force"], "--force has no effect: it lets --update write"),
    (
        ["check", "make-baseline", "--from", BASELINE, "--out", "b.json", "--players", "3"],
        "--players has no effect: --from takes the configuration from the baseline it remakes",
    ),
    (
        ["check", "make-baseline", "--from", BASELINE, "--out", "b.json", "--set", "travelers.kinko.coins=6"],
        "--set has no effect: --from takes the configuration",
    ),
    (
        ["ladder", "--out", "lad", "--tiers", "greedy,heuristic", "--search-games", "10"],
        "--search-games has no effect: no pairing has the search tier",
    ),
    (
        ["ladder", "--out", "lad", "--tiers", "greedy,heuristic", "--all-pairs"],
        "--all-pairs has no effect: two tiers make one pair either way",
    ),
    (
        ["ladder", "--out", "lad", "--profile-games", "0", "--profile-players", "3"],
        "--profile-players has no effect: --profile-games 0 plays no profile",
    ),
    (
        ["ladder", "--out", "lad", "--tiers", "greedy,heuristic", "--profile-search-games", "5"],
        "--profile-search-games has no effect",
    ),
    (
        ["ladder", "--out", "lad", "--agreement", "", "--agreement-games", "100"],
        "--agreement-games has no effect: --agreement '' makes no agreement table",
    ),
    (
        ["ladder", "--out", "lad", "--agreement-games", "0", "--agreement-expansions", "none"],
        "--agreement-expansions has no effect: no agreement table is made",
    ),
    (
        ["ladder", "--out", "lad", "--agreement", "expert,tuned", "--agreement-search-games", "50"],
        "--agreement-search-games has no effect: the second tier of --agreement is tuned, not search",
    ),
    (
        ["bot-report", "--tiers", "greedy", "--search-games", "5"],
        "--search-games has no effect: --tiers has no search",
    ),
    (["tune", "--iterations", "5"], "--iterations has no effect: it is for --method imitate"),
    (["tune", "--gate", "5"], "--gate has no effect: it is for --method imitate"),
    (["tune", "--field", "current"], "--field has no effect: it is for --method sweep"),
    (
        ["tune", "--method", "sweep", "--tier", "expert", "--players", "4", "--population", "8"],
        "--population has no effect: it sets the CMA-ES search, and --method is sweep",
    ),
    (["tune", "--tier", "expert", "--players", "4", "--trav-games", "100"], "--trav-games has no effect"),
    (
        ["duo", "verify", "--set", "choices.merchant_path=simple"],
        "--set choices.merchant_path=simple has no effect: the rule already has that value",
    ),
    # tracebacks before: a scheduler address Dask cannot parse, numbers beyond 64 bits
    (
        ["run", "-g", "10", "-s", "1", "--cluster", "udp://localhost:8786"],
        "Dask schedulers speak tcp, tls, ws, wss, ucx, inproc, not udp",
    ),
    (["duo", "replay", "--game", str(2**63)], "--game takes 0 to 9,223,372,036,854,775,806"),
    (["duo", "replay", "--game", "-1"], "--game takes 0 to"),
    (["duo", "replay", "--seed", "-1"], "--seed must be between 0 and"),
    (["duo", "study", "--out", "st", "--seed", "-1"], "--seed must be between 0 and"),
    (["duo", "verify", "--seed", str(2**64)], "--seed must be between 0 and"),
    # refused, and nothing may be left behind
    (["ladder", "--out", "lad", "--players", "7"], "--players must be between 2 and 5"),
    (["ladder", "--out", "lad", "--players", "4,4"], "--players lists a player count twice"),
    (["ladder", "--out", "lad", "--agreement", "expert"], "--agreement needs two tiers like expert,search"),
    (["ladder", "--out", "lad", "--agreement-expansions", "atlantis"], "unknown expansions 'atlantis'"),
    (["ladder", "--out", "lad", "--seed", "-3"], "--seed must be between 0 and"),
    (["calibrate-draft", "--out", "DIR"], "--out DIR is a directory; give the path of a file to write"),
    (["calibrate-agreement", "--out", "DIR"], "--out DIR is a directory; give the path of a file to write"),
    (["calibrate-draft", "--out", "FILE/draft.toml"], "FILE is a file, not a directory"),
    (["calibrate-draft", "--expansions", "none,crossroads,none"], "--expansions lists 'none' twice"),
    # silent wrong results before
    (["duo", "verify", "-g", "-5"], "--games must be at least 1, got -5"),
    (["duo", "verify", "-g", "0"], "--games must be at least 1, got 0"),
    (["check", "make-baseline", "--out", "b.json", "-g", "0"], "--games must be at least 2, got 0"),
    (
        ["check", "make-baseline", "--from", BASELINE, "--out", "b.json", "-g", "-1"],
        "--games must be at least 2",
    ),
    (["check", "calibrate", "--baseline", BASELINE, "-g", "0"], "--games must be at least 2, got 0"),
    # exit 2 and a line that says what to do, not a bare [Errno 20] / [Errno 21]
    (
        ["verify", "-g", "10", "-s", "1", "--record", "DIR"],
        "--record DIR is a directory; give the path of a file",
    ),
    (["replay", "-s", "1", "--game", "0", "--record", "DIR"], "--record DIR is a directory"),
    (
        ["verify", "-g", "10", "-s", "1", "--record", "FILE/games.jsonl"],
        "FILE is a file, not a directory; choose another --record",
    ),
    (["bot-report", "--out", "DIR"], "--out DIR is a directory; give the path of a file to write"),
    (["bot-report", "--out", "FILE/report.md"], "FILE is a file, not a directory"),
    (["fit-search-eval", "--out", "DIR"], "--out DIR is a directory; give the path of a file to write"),
    (["duo", "study", "--out", "FILE"], "FILE is a file, not a directory; choose another --out"),
    (
        ["run", "-g", "10", "-s", "1", "--travelers", "daigoro,kinko,chuubei,satsuki"],
        "daigoro is a Crossroads Traveler: add --expansions crossroads",
    ),
    (
        [
            "run",
            "-g",
            "10",
            "-s",
            "1",
            "--expansions",
            "new-encounters",
            "--travelers",
            "antoine,kinko,chuubei,satsuki",
        ],
        "antoine is a promo Traveler: add --expansions new-encounters,promos",
    ),
    (
        [
            "run",
            "-g",
            "10",
            "-s",
            "1",
            "--expansions",
            "crossroads",
            "--travelers",
            "kamui,kinko,chuubei,satsuki",
        ],
        "kamui is a Matsuri Traveler: add --expansions crossroads,matsuri",
    ),
    (
        [
            "run",
            "-g",
            "10",
            "-s",
            "1",
            "--expansions",
            "promos",
            "--travelers",
            "yashima,kinko,chuubei,satsuki",
        ],
        "Traveler 'yashima' needs --expansions crossroads",
    ),
    (["audit", "DIR"], "DIR is a folder: expected game records, one JSON object a line"),
    (["audit", "missing.jsonl"], "missing.jsonl does not exist: expected game records"),
    (
        ["check", "stats", "--baseline", "missing.json"],
        "missing.json does not exist: expected a tokaido-sim baseline",
    ),
]


@pytest.mark.parametrize(("argv", "message"), CASES, ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_bad_input_is_one_line_exit_2_nothing_written(
    argv: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
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

    from kernels.tokaido.core.enums import BOT_NAMES
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


# ------------------------------------------------------------------ files that cannot be read as expected
BAD_FILES = {
    "binary": b"PK\x03\x04\x00\x00" + bytes(range(256)),
    "latin-1": "players = [4]\n# caf\xe9 au lait\n".encode("latin-1"),
    "empty": b"",
    "truncated": b'{"format": 1, "kind": "tokaido-sim baseline", "figu',
    "folder": None,
}
PROBLEM = {
    "binary": "is a binary file, not UTF-8 text",
    "latin-1": "is not UTF-8 text (byte 0xe9 on line 2)",
    "empty": "empty",
    "truncated": "",
    "folder": "is a folder",
}
READERS = [  # the command line with FILE where the bad file goes, and what the line says was expected
    (["audit", "FILE"], "expected game records, one JSON object a line"),
    (["study", "FILE", "--out", "out"], "expected a study file"),
    (["duo", "run", "--board", "FILE", "--out", "out", "-g", "10"], "expected a Duo board file"),
    (["duo", "verify", "--rules", "FILE", "-g", "10"], "expected a Duo number table"),
    (
        ["run", "-g", "10", "-s", "1", "--out", "out", "--set", "@FILE"],
        "expected a patch file of rule overrides",
    ),
    (["check", "stats", "--baseline", "FILE"], "expected a tokaido-sim baseline"),
    (["check", "make-baseline", "--from", "FILE", "--out", "b.json"], "expected a tokaido-sim baseline"),
    (["check", "golden", "--file", "FILE"], "expected a golden file"),
]


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
@pytest.mark.parametrize(
    ("argv", "expected"), READERS, ids=lambda a: " ".join(a) if isinstance(a, list) else ""
)
def test_a_file_that_cannot_be_read_is_one_line_naming_it(
    argv: list[str],
    expected: str,
    kind: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    bad = tmp_path / "bad.input"
    if BAD_FILES[kind] is None:
        bad.mkdir()
    else:
        bad.write_bytes(BAD_FILES[kind])
    code, out, err = call(
        [str(bad) if a == "FILE" else "@" + str(bad) if a == "@FILE" else a for a in argv], capsys
    )
    assert_user_error(code, out, err)
    assert str(bad) in err and PROBLEM[kind] in err and expected in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.input"]


def test_truncated_records_and_baselines_say_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "games.jsonl"
    code, _, err = call(["verify", "-g", "2", "-s", "1", "-p", "3", "--record", str(records), "-q"], capsys)
    assert code == 0, err
    whole = records.read_text()
    records.write_text(whole[: len(whole) - 40])  # the last record cut short
    code, out, err = call(["audit", str(records)], capsys)
    assert_user_error(code, out, err)
    assert "line 2 ends in the middle of a JSON object (truncated?): expected game records" in err, err
    records.write_text("\n\n  \n")
    code, out, err = call(["audit", str(records)], capsys)
    assert_user_error(code, out, err)
    assert "is empty: expected game records" in err
    base = tmp_path / "b.json"
    base.write_text(Path(BASELINE).read_text()[:300])
    code, out, err = call(["check", "stats", "--baseline", str(base)], capsys)
    assert_user_error(code, out, err)
    assert "ends in the middle of a JSON value (truncated?): expected a tokaido-sim baseline" in err
    assert "make one with tokaido-sim check make-baseline" in err


def test_audit_refuses_options_that_change_no_recorded_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "games.jsonl"
    assert call(["verify", "-g", "3", "-s", "2", "--record", str(records), "-q"], capsys)[0] == 0
    for argv, message in (
        (
            ["--set", "crossroads.fortune_die=1,1,1,1,1,1"],
            "--set crossroads.fortune_die=1,1,1,1,1,1 has no effect "
            f"on any game of {records}: it is a Crossroads rule",
        ),
        (["--set", "travelers.hiroshige.coins=3"], "is already 3"),
        (
            ["--rules", "rulebook"],
            f"--rules rulebook has no effect: every record of {records} is already played",
        ),
    ):
        code, out, err = call(["audit", str(records), *argv], capsys)
        assert_user_error(code, out, err)
        assert message in err, err
    code, out, _ = call(["audit", str(records), "--set", "travelers.kinko.coins=0", "-q"], capsys)
    assert (
        code in (0, 1) and "audited 3 games" in out
    )  # a rule the games use is taken (and may change scores)


# ------------------------------------------------------------------ datasets: edited, damaged, written into
@pytest.fixture(scope="module")
def base_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hardening") / "run"
    from sim.games.tokaido.rules.config import GameConfig
    from sim.run import runner

    runner.run(
        TokaidoGame(GameConfig(n_players=4, expansions=("crossroads",))),
        200,
        11,
        out,
        chunk_size=100,
        progress=False,
    )
    return out


@pytest.fixture
def run_copy(base_run: Path, tmp_path: Path) -> Path:
    import shutil

    return Path(shutil.copytree(base_run, tmp_path / "run"))


def test_parts_carry_the_configuration_in_their_metadata(run_copy: Path) -> None:
    import pyarrow.parquet as pq

    meta = pq.read_metadata(next(run_copy.glob("part-*.parquet"))).metadata
    got = {k.decode(): v.decode() for k, v in meta.items() if k.startswith(b"tokaido_sim.")}
    m = json.loads((run_copy / "manifest.json").read_text())
    assert (
        got["tokaido_sim.spec"] == m["spec"] == "players=4,expansions=crossroads,travelers=draft,bots=greedy"
    )
    assert got["tokaido_sim.expansions"] == "crossroads" and got["tokaido_sim.seed"] == "11"
    assert got["tokaido_sim.rules_version"] == m["rules_version"]
    assert (
        got["tokaido_sim.rules_fingerprint"] == m["rules_fingerprint"] and got["tokaido_sim.n_players"] == "4"
    )
    assert got["tokaido_sim.game"] == "tokaido" and json.loads(got["tokaido_sim.config"]) == m["config"]


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (
            {
                "n_players": 3,
                "config.n_players": 3,
                "spec": "players=3,expansions=crossroads,travelers=draft,bots=greedy",
            },
            "was written with configuration players=4,expansions=crossroads,travelers=draft,bots=greedy, but",
        ),
        ({"config.n_players": 3, "n_players": 3}, "was written with players 4, but"),
        ({"seed": 12}, "was written with seed 11, but"),
        ({"config.expansions": []}, "was written with expansions crossroads, but"),
        ({"config.travelers": "random"}, "was written with configuration record"),
    ],
)
def test_an_edited_manifest_is_noticed(
    run_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: dict, words: str
) -> None:
    path = run_copy / "manifest.json"
    m = json.loads(path.read_text())
    for key, value in edit.items():
        node, _, leaf = key.rpartition(".")
        (m[node] if node else m)[leaf] = value
    path.write_text(json.dumps(m))
    code, out, err = call(["report", str(run_copy), "--out", str(tmp_path / "rep")], capsys)
    assert_user_error(code, out, err)
    assert words in err and "the manifest was edited or the part comes from another run" in err, err
    assert not (tmp_path / "rep").exists()


def test_an_older_dataset_without_metadata_still_notices_a_players_edit(
    run_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pyarrow.parquet as pq

    from sim.dataset.parts import file_sha256, write_table

    m = json.loads((run_copy / "manifest.json").read_text())
    for part in m["parts"]:  # as written before the parts carried metadata
        f = run_copy / part["file"]
        write_table(pq.read_table(f).replace_schema_metadata(None), f)
        part["sha256"] = file_sha256(f)
    (run_copy / "manifest.json").write_text(json.dumps(m))
    assert call(["report", str(run_copy), "--out", str(tmp_path / "ok")], capsys)[0] == 0
    m["n_players"] = m["config"]["n_players"] = 3
    (run_copy / "manifest.json").write_text(json.dumps(m))
    code, out, err = call(["report", str(run_copy), "--out", str(tmp_path / "rep")], capsys)
    assert_user_error(code, out, err)
    assert "holds 400 rows, not 300 (100 games of 3 players" in err, err


@pytest.mark.parametrize(
    "argv",
    [
        ["report", "RUN", "--out", "RUN"],
        ["report", "RUN", "--out", "RUN/rep"],
        ["plot", "RUN", "--out", "RUN/plots"],
        ["compare", "RUN", "RUN", "--out", "RUN"],
        ["run", "-g", "10", "-s", "1", "--out", "RUN/more"],
        ["duo", "run", "-g", "10", "--out", "RUN/duo"],
        ["ladder", "--out", "RUN/ladder"],
        ["balance", "--out", "RUN/balance"],
    ],
    ids=" ".join,
)
def test_nothing_is_written_into_a_dataset(
    argv: list[str], run_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = sorted(p.name for p in run_copy.iterdir())
    code, out, err = call([a.replace("RUN", str(run_copy)) for a in argv], capsys)
    assert_user_error(code, out, err)
    assert "its files would mix with the dataset's: choose a folder outside it" in err, err
    assert sorted(p.name for p in run_copy.iterdir()) == before


def test_a_study_listing_one_cell_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for grid, words in (
        ('variants = ["gastronomy+preparations", "preparations+gastronomy"]', "variants="),
        ('expansions = ["crossroads+new-encounters", "new-encounters+crossroads"]', "expansions="),
        ('bots = ["greedy", "greedy+greedy+greedy+greedy"]', "bots="),
    ):
        study = tmp_path / "s.toml"
        study.write_text(f"seed = 1\ngames = 10\nplayers = [4]\n{grid}\n")
        code, out, err = call(["study", str(study), "--out", str(tmp_path / "out")], capsys)
        assert_user_error(code, out, err)
        assert "are the same games" in err and words in err and "list it once" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]


def test_a_baseline_that_checks_nothing_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(Path(BASELINE).read_text())
    for change, words in (
        ({"figures": {}}, "holds no figures, so it would pass any check"),
        ({"games": 0}, "'games' is 0"),
        ({"figures": {"seat/1": {"kind": "rate"}}}, "figure 'seat/1' must hold"),
    ):
        path = tmp_path / "b.json"
        path.write_text(json.dumps({**data, **change}))
        code, out, err = call(["check", "stats", "--baseline", str(path)], capsys)
        assert_user_error(code, out, err)
        assert words in err, err


def test_a_record_file_in_a_missing_folder_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new" / "games.jsonl"
    code, _, err = call(["replay", "-s", "1", "--game", "3", "-p", "2", "--record", str(path)], capsys)
    assert code == 0, err
    assert len(path.read_text().splitlines()) == 1


def test_resume_with_nothing_to_resume_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(
        ["run", "-g", "20", "-s", "1", "-p", "2", "--out", str(tmp_path / "r"), "--resume"], capsys
    )
    assert (
        code == 0 and f"note: --resume found nothing to resume in {tmp_path / 'r'}, so it started it" in out
    )
    code, out, _ = call(
        ["run", "-g", "20", "-s", "1", "-p", "2", "--out", str(tmp_path / "r"), "--resume"], capsys
    )
    assert code == 0 and "note:" not in out and "already complete" in out


# ------------------------------------------------------------------ Tokaido Duo datasets against their
# manifest
@pytest.fixture(scope="module")
def duo_base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("duo") / "run"
    from sim.cli.app import main

    with pytest.raises(SystemExit) as exc:
        main(["duo", "run", "--out", str(out), "--games", "300", "--chunk-size", "100", "-q"])
    assert exc.value.code in (0, None)
    return out


@pytest.fixture
def duo_run(duo_base: Path, tmp_path: Path) -> Path:
    import shutil

    return Path(shutil.copytree(duo_base, tmp_path / "duo"))


SECOND = "part-000000000100-000000000200.parquet"


def _flip(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[300] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda d: (d / SECOND).unlink(), "is listed in"),
        (lambda d: _flip(d / SECOND), "checksum"),
        (lambda d: (d / SECOND).write_bytes((d / SECOND).read_bytes()[:500]), "not a readable Parquet file"),
        (
            lambda d: (d / "manifest.json").write_text(
                (d / "manifest.json").read_text().replace('"seed": 0', '"seed": 5')
            ),
            "was written with seed 0",
        ),
    ],
    ids=["deleted part", "edited part", "truncated part", "edited manifest"],
)
def test_duo_reports_check_the_parts_against_the_manifest(
    damage: Any, words: str, duo_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    damage(duo_run)
    for command in ("report", "plot"):
        code, out, err = call(["duo", command, str(duo_run), "--out", str(tmp_path / command)], capsys)
        assert_user_error(code, out, err)
        assert words in err and "--resume" in err, err
        assert not (tmp_path / command).exists()


def test_a_duo_stray_copy_is_skipped_not_counted(
    duo_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    shutil.copy(duo_run / SECOND, duo_run / "copy of a part.parquet")
    code, _, err = call(["duo", "report", str(duo_run), "--out", str(tmp_path / "rep")], capsys)
    assert code == 0, err
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "- Games: 300 (600 player rows)" in text and "- Skipped: skipping" in text


# ------------------------------------------------------------------ a kernel cache that cannot be written
def test_an_unwritable_kernel_cache_falls_back_to_a_per_user_one(tmp_path: Path) -> None:
    import kernels

    blocker = tmp_path / "checkout"
    blocker.write_text("a file where the kernels' __pycache__ folder would go")
    preferred, fallback = blocker / "__pycache__" / "numba-x", tmp_path / "user" / "numba-x"
    folder, note = kernels.choose_cache(preferred, fallback)
    assert folder == fallback and fallback.is_dir()
    assert (
        note
        == f"note: cannot write the kernels' cache in {preferred.parent}; caching them in {fallback} instead"
    )
    assert kernels.choose_cache(preferred, fallback) == (fallback, None)  # said once
    folder, note = kernels.choose_cache(preferred, blocker / "numba-x")
    assert folder is None and note is not None and "without a cache" in note
    assert kernels.choose_cache(tmp_path / "ok", fallback) == (tmp_path / "ok", None)
