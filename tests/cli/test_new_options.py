"""Bad input for the Traveler pool, study grids and ``balance --only``: one line saying what is wrong and
how to fix it, exit 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import call

RUN = ["run", "-g", "10", "-s", "1", "-p", "4"]
BAD_RUNS = [
    (
        [*RUN, "--travelers", "random", "--set", "draft.pool=base"],
        "has no effect: the pool holds every Traveler",
    ),
    (
        [*RUN, "--expansions", "crossroads", "--set", "draft.pool=promo"],
        "names the promos box, which is not in play",
    ),
    (
        [*RUN, "--expansions", "crossroads", "--set", "draft.pool=crossroads"],
        "the pool has 6; widen draft.pool",
    ),
    (
        [*RUN, "--expansions", "crossroads", "--set", "draft.pool=base+nobody"],
        "'nobody' is no box and no Traveler",
    ),
    (
        [
            *RUN,
            "--expansions",
            "crossroads",
            "--travelers",
            "kinko,satsuki,umegae,chuubei",
            "--set",
            "draft.pool=base",
        ],
        "named one per player",
    ),
]
BAD_BALANCE = [
    (["--only", "nobody"], "--only: no Traveler 'nobody'"),
    (["--only", ","], "--only names no Traveler"),
    (["--only", "kinko,kinko"], "--only names a Traveler twice"),
    (["--only", "daigoro"], "--only: no Traveler 'daigoro'"),  # a Crossroads Traveler, without Crossroads
]
GRID = 'name = "s"\nseed = 1\nbots = ["greedy"]\ntravelers = ["random"]\n'
BAD_STUDIES = [
    (GRID + "grid = 3\n", "'grid' must be tables written [[grid]]"),
    (GRID + "[[grid]]\nplayerz = [3]\n", "[[grid]] 1: unknown key 'playerz'"),
    (GRID + 'games = 10\npool = ["base"]\n', "pool base has no effect: the pool holds every Traveler"),
    (
        GRID + "[[grid]]\nplayers = [3]\ngames = 10\n[[grid]]\nplayers = [3]\ngames = 20\n",
        "is in two grids with",
    ),
    (GRID + 'games = 10\nexpansions = ["crossroads"]\npool = ["promo"]\n', "names the promos box"),
]


def _one_line(code: int, err: str, says: str) -> None:
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (code, err)
    assert says in lines[0], lines[0]


@pytest.mark.parametrize(("argv", "says"), BAD_RUNS, ids=[" ".join(a[7:]) for a, _ in BAD_RUNS])
def test_a_bad_pool_is_refused(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code, _, err = call([*argv, "--out", str(out)], capsys)
    _one_line(code, err, says)
    assert not out.exists()


@pytest.mark.parametrize(("extra", "says"), BAD_BALANCE, ids=[" ".join(e) for e, _ in BAD_BALANCE])
def test_a_bad_only_is_refused(
    extra: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code, _, err = call(["balance", "--players", "3", "--bots", "greedy", *extra, "--out", str(out)], capsys)
    _one_line(code, err, says)
    assert not out.exists()


@pytest.mark.parametrize(("text", "says"), BAD_STUDIES, ids=range(len(BAD_STUDIES)))
def test_a_bad_grid_is_refused(
    text: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    study, out = tmp_path / "study.toml", tmp_path / "out"
    study.write_text(text)
    code, _, err = call(["study", str(study), "--out", str(out)], capsys)
    _one_line(code, err, says)
    assert not out.exists()
