"""Progress off a terminal (a run in the background, output to a file): one line on stderr per interval with
the games, the rate and the ETA, so a log can be followed; nothing on stdout, nothing when quiet."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from sim.run import progress
from tests.helpers.cli import call

LINE = re.compile(r"^(study|games): [\d,]+ / [\d,]+ games \(\d+%\), ([\d,.]+|--) games/s, ETA \d+:\d\d:\d\d$")


def test_one_line_per_interval_off_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "LINE_SECONDS", 0.05)
    with progress.progress_bar(1000, 0, True, "games") as advance:
        for _ in range(4):
            time.sleep(0.06)
            advance(250)
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and 3 <= len(lines) <= 5 and all(LINE.match(x) for x in lines), lines
    assert lines[-1].startswith("games: 1,000 / 1,000 games (100%)") and lines[-1].endswith("ETA 0:00:00")


def test_nothing_before_the_first_interval_nor_when_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    with progress.progress_bar(100, 0, True, "games") as advance:
        advance(100)  # a short run: done before the first line is due
    with progress.progress_bar(100, 0, False, "games") as advance:
        advance(100)
    assert capsys.readouterr() == ("", "")


def test_a_background_run_prints_its_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "LINE_SECONDS", 0.0)
    code, out, err = call(
        ["run", "-p", "3", "-g", "600", "-s", "1", "--chunk-size", "100", "--out", str(tmp_path / "r")],
        capsys,
    )
    assert code == 0, err
    lines = [x for x in err.splitlines() if x]
    assert (
        lines and all(LINE.match(x) for x in lines) and lines[-1].startswith("games: 600 / 600 games (100%)")
    )
    assert "played 600 games" in out
