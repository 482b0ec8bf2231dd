"""Golden playthroughs (tests/playthroughs/*.txt, Tokaido and Duo): regenerate each in memory and diff with
the file.

A failure shows the first differences as a unified diff. If the change is
intended (kernels, bots, rules data or the referee's narration changed on
purpose), run ``tokaido-sim playthroughs`` and review the diff of the files.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from kernels.duo.enums import BOT_NAMES as DUO_BOT_NAMES
from kernels.tokaido.core.enums import BOT_NAMES
from sim.checks.playthrough import COMMAND, read_header, write_all
from sim.games.duo.checks import golden as duo_golden
from sim.games.duo.checks import playthrough as dpt
from sim.games.tokaido.checks import playthrough as pt
from sim.games.tokaido.rules.config import EXPANSIONS, VARIANTS, GameConfig
from tests.helpers.paths import PLAYTHROUGH_DIR

DIR = PLAYTHROUGH_DIR
MAX_DIFF_LINES = 60


def first_differences(expected: str, actual: str, name: str) -> str:
    diff = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            f"{name} (checked in)",
            f"{name} (regenerated)",
            n=2,
            lineterm="",
        )
    )
    more = len(diff) - MAX_DIFF_LINES
    shown = diff[:MAX_DIFF_LINES] + ([f"... {more} more diff lines"] if more > 0 else [])
    return "\n".join(shown)


def assert_unchanged(name: str, actual: str, what: str = "playthrough") -> None:
    """The committed ``tests/playthroughs/{name}.txt`` is ``actual``, else the first differences."""
    path = DIR / f"{name}.txt"
    assert path.exists(), f"{path} is missing; run `{COMMAND}` to write it"
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        pytest.fail(
            f"{what} {name} changed:\n{first_differences(expected, actual, name)}\n"
            f"if the change is intended, run `{COMMAND}`",
            pytrace=False,
        )


@pytest.mark.parametrize("name", [p.name for p in pt.PLAYTHROUGHS])
def test_playthrough_unchanged(name: str) -> None:
    assert_unchanged(name, pt.write_playthrough(name))


@pytest.mark.parametrize("name", [p.name for p in dpt.DUO_PLAYTHROUGHS])
def test_duo_playthrough_unchanged(name: str) -> None:
    assert_unchanged(name, dpt.write_duo_playthrough(name), "Duo playthrough")


def test_playthrough_files_match_the_list() -> None:
    on_disk = {p.stem for p in DIR.glob("*.txt")}
    listed = {p.name for p in pt.PLAYTHROUGHS} | {p.name for p in dpt.DUO_PLAYTHROUGHS}
    assert on_disk == listed, (
        f"stale files: {sorted(on_disk - listed)}, missing files: {sorted(listed - on_disk)}; run `{COMMAND}`"
    )


def headers() -> list[dict[str, str]]:
    return [read_header((DIR / f"{p.name}.txt").read_text(encoding="utf-8")) for p in pt.PLAYTHROUGHS]


def test_every_playthrough_is_refereed_ok() -> None:
    bad = [
        p.name
        for p, h in zip(pt.PLAYTHROUGHS, headers(), strict=True)
        if h.get("referee") != "ok" and p.name not in pt.AWAITS_REFEREE
    ]
    assert not bad, f"the referee rejects playthroughs {bad}"


def test_playthroughs_cover_every_option() -> None:
    """Every variant, expansion, player count, bot and Traveler appears in some playthrough."""
    configs = [GameConfig.parse(h["config"]) for h in headers()]
    seen_variants = {v for c in configs for v in c.variants}
    seen_expansions = {x for c in configs for x in c.expansions}
    seen_players = {c.n_players for c in configs}
    seen_bots = {b for c in configs for b in c.bot_names()}
    seen_modes = {
        c.travelers if c.travelers in ("draft", "random") else "fixed"
        for c in configs
        if "initiation" not in c.variants
    }
    fixed = {
        n.strip() for c in configs if c.travelers not in ("draft", "random") for n in c.travelers.split(",")
    }
    all_travelers = {t.name for t in GameConfig(expansions=EXPANSIONS).rules().travelers}
    assert seen_variants == set(VARIANTS), f"no playthrough with {set(VARIANTS) - seen_variants}"
    assert seen_expansions == set(EXPANSIONS), f"no playthrough with {set(EXPANSIONS) - seen_expansions}"
    assert seen_players == {2, 3, 4, 5}, f"no playthrough with {({2, 3, 4, 5}) - seen_players} players"
    assert seen_bots == set(BOT_NAMES), f"no playthrough with bots {set(BOT_NAMES) - seen_bots}"
    assert seen_modes == {"draft", "random", "fixed"}, seen_modes
    assert fixed == all_travelers, f"Travelers never played (fixed): {sorted(all_travelers - fixed)}"
    assert any(len(c.variants) == len(VARIANTS) for c in configs), "no playthrough combines all variants"


def test_duo_playthroughs_cover_every_bot_and_are_labelled() -> None:
    """Every Duo bot plays, on the shipped and on a generated board, and each file names the board."""
    heads = [read_header((DIR / f"{p.name}.txt").read_text(encoding="utf-8")) for p in dpt.DUO_PLAYTHROUGHS]
    assert all(h.get("referee") == "ok" for h in heads), [h.get("referee") for h in heads]
    specs = [h["config"].removeprefix("duo ") for h in heads]
    assert specs == [p.spec for p in dpt.DUO_PLAYTHROUGHS]
    assert {b for s in specs for b in duo_golden.parse_spec(s)[0]} == set(DUO_BOT_NAMES)
    assert any(duo_golden.parse_spec(s)[1] for s in specs) and any(
        not duo_golden.parse_spec(s)[1] for s in specs
    )
    assert all("verified=" in h["board"] and h["verified"] in ("true", "false") for h in heads)


def test_header_matches_the_list() -> None:
    for p, h in zip(pt.PLAYTHROUGHS, headers(), strict=True):
        assert (h["seed"], h["game"]) == (str(p.seed), str(p.game)), p.name
        assert h["config"] == p.config().spec(), p.name


def test_regenerate_writes_every_file_and_removes_stale_ones(tmp_path: Path) -> None:
    stale = tmp_path / "old-name.txt"
    stale.write_text(f"{pt.HEADER}: old-name\n", encoding="utf-8")
    keep = tmp_path / "notes.txt"
    keep.write_text("not a playthrough\n", encoding="utf-8")
    written = write_all([pt.SET], tmp_path)
    assert {p.name for p in written} == {f"{p.name}.txt" for p in pt.PLAYTHROUGHS}
    assert not stale.exists() and keep.exists()
    name = pt.PLAYTHROUGHS[0].name
    assert (tmp_path / f"{name}.txt").read_text(encoding="utf-8") == (DIR / f"{name}.txt").read_text(
        encoding="utf-8"
    )


def test_cli_command_regenerates(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from sim.cli.app import app

    result = CliRunner().invoke(app, ["playthroughs", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert len(list(tmp_path.glob("*.txt"))) == len(pt.PLAYTHROUGHS) + len(dpt.DUO_PLAYTHROUGHS)


def test_duo_regenerate_keeps_tokaido_files_and_removes_stale_duo_ones(tmp_path: Path) -> None:
    stale = tmp_path / "duo-old.txt"
    stale.write_text(f"{dpt.DUO_HEADER}: duo-old\n", encoding="utf-8")
    tokaido = tmp_path / "base-2p.txt"
    tokaido.write_text(f"{pt.HEADER}: base-2p\n", encoding="utf-8")
    write_all([dpt.SET], tmp_path)
    assert not stale.exists() and tokaido.exists()
    assert {p.stem for p in tmp_path.glob("duo-*.txt")} == {p.name for p in dpt.DUO_PLAYTHROUGHS}


def test_event_lines_name_kinds_and_fields() -> None:
    assert pt.format_event(7, [6, 0, 12, 0, -1, -1]) == "   7 MOVE     traveler=0 space=12 controller=0"
    assert pt.format_event(0, [1, -1, 1, 5, -1, -1]) == "   0 DECK     deck=meal card=5"
    assert pt.format_event(9, [14, -1, -1, -1, -1, -1]) == "   9 END"
    with pytest.raises(KeyError, match="unknown playthrough"):
        pt.write_playthrough("no-such-game")
