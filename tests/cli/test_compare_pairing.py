"""``compare`` on the engine's own runs: a variant keeps the deal (paired, 100%); an expansion, even with the
Traveler pool held to the base game's (``draft.pool=base``), deals otherwise (unpaired, rate printed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import call

RUN = ["run", "-p", "4", "-g", "400", "-s", "7", "--travelers", "random", "--chunk-size", "400", "-q"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runs")
    from sim.cli.app import main

    for name, extra in (
        ("base", []),
        ("gastronomy", ["--variants", "gastronomy"]),
        ("crossroads", ["--expansions", "crossroads"]),
        ("xr-base", ["--expansions", "crossroads", "--set", "draft.pool=base"]),
    ):
        with pytest.raises(SystemExit) as exc:
            main([*RUN, *extra, "--out", str(root / name)])
        assert exc.value.code in (0, None)
    return root


@pytest.mark.parametrize(
    ("other", "says"),
    [
        (
            "gastronomy",
            "Pairing: paired on (game, player): the same deal (Travelers and seats) in 100.0% of the 400 "
            "games",
        ),
        ("crossroads", "Pairing: unpaired: the same deal in only "),
        ("xr-base", "Pairing: unpaired: the same deal in only "),
    ],
)
def test_compare_pairs_only_the_same_deals(
    runs: Path, other: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = call(
        ["compare", str(runs / "base"), str(runs / other), "--out", str(tmp_path / "c")], capsys
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(says) and "pairing rate" in lines[0]
    assert lines[1].startswith("Seats, 4 players (fair 25.0%; seat = order of leaving Kyoto): 1st ")
    assert "Seat spread (best − worst seat)" in lines[1] and "Fair now?" in lines[1]
