"""Part files checked against the manifest (sim.dataset.parts): refuse damaged parts, skip strays.

Each case feeds the damaged dataset to ``report``/``plot``/``compare`` through the CLI and checks
the exit code, the one-line message naming the file, and that no output was written.
"""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest

from analysis.load import load_dataset
from analysis.tokaido.report import write_report
from sim.dataset.parts import part_name
from sim.games.tokaido import engine
from sim.games.tokaido.game import TokaidoGame
from sim.games.tokaido.rules.config import GameConfig
from sim.run import runner
from tests.helpers.cli import call

GAMES, CHUNK = 250, 100
FIRST = part_name(0, 100)


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("parts") / "run"
    runner.run(TokaidoGame(GameConfig(n_players=3)), GAMES, 11, out, chunk_size=CHUNK, progress=False)
    return out


@pytest.fixture
def run(run_dir: Path, tmp_path: Path) -> Path:
    """A fresh copy of the run to damage."""
    return Path(shutil.copytree(run_dir, tmp_path / "run"))


def refused(run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *words: str) -> None:
    """report, plot and compare all exit 2 with one line holding ``words``, and write nothing."""
    other = part_name(100, 200)
    for argv in (
        ["report", str(run), "--out", str(tmp_path / "rep")],
        ["plot", str(run), "--out", str(tmp_path / "plots")],
        ["compare", str(run), str(run), "--out", str(tmp_path / "cmp")],
    ):
        code, out, err = call(argv, capsys)
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (argv, code, out, err)
        assert "Traceback" not in out + err and all(w in lines[0] for w in words), lines[0]
        assert other not in lines[0]
    assert not any((tmp_path / d).exists() for d in ("rep", "plots", "cmp"))


def test_the_runner_lists_every_part_with_rows_and_checksum(run: Path) -> None:
    parts = json.loads((run / "manifest.json").read_text())["parts"]
    assert [p["file"] for p in parts] == sorted(p.name for p in run.glob("part-*.parquet"))
    assert [p["rows"] for p in parts] == [300, 300, 150]
    assert all(len(p["sha256"]) == 64 for p in parts)


def test_a_stray_copy_is_skipped_not_counted_twice(
    run: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    stray = run / "part-000000000000-000000000100 (copy).parquet"
    shutil.copy(run / FIRST, stray)
    with caplog.at_level(logging.WARNING, "analysis"):
        ds = load_dataset(run)
        text = write_report(run, tmp_path / "rep").read_text()
    assert stray not in ds.files and len(ds.files) == 3
    assert [r.getMessage() for r in caplog.records if "skipping" in r.getMessage()][0].startswith(
        f"skipping {stray}"
    )
    assert "250 games (750 player rows)" in text and f"- Skipped: skipping {stray}" in text


def test_a_corrupted_part_is_refused(run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = bytearray((run / FIRST).read_bytes())
    data[400] ^= 0xFF  # one flipped byte: same size, same footer
    (run / FIRST).write_bytes(bytes(data))
    refused(run, tmp_path, capsys, FIRST, "checksum", "--resume")


def test_a_truncated_part_is_refused(run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open(run / FIRST, "r+b") as fh:
        fh.truncate(3000)
    refused(run, tmp_path, capsys, FIRST, "not a readable Parquet file", "--resume")


def test_a_part_with_other_rows_is_refused(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(run / part_name(200, 250), run / FIRST)  # 150 rows where 300 are listed
    refused(run, tmp_path, capsys, FIRST, "150 rows", "300", "--resume")


def test_a_missing_part_is_refused(run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (run / FIRST).unlink()
    refused(run, tmp_path, capsys, FIRST, "missing", "--resume")


def _drop_parts(run: Path) -> None:
    m = json.loads((run / "manifest.json").read_text())
    del m["parts"]
    (run / "manifest.json").write_text(json.dumps(m))


def test_a_dataset_without_parts_still_loads(run: Path, tmp_path: Path) -> None:
    _drop_parts(run)
    assert len(load_dataset(run).files) == 3
    assert "250 games (750 player rows)" in write_report(run, tmp_path / "rep").read_text()


def test_without_parts_a_truncated_file_is_still_one_line(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _drop_parts(run)
    with open(run / FIRST, "r+b") as fh:
        fh.truncate(3000)
    refused(run, tmp_path, capsys, FIRST, "not a readable Parquet file")


def test_without_parts_a_corrupted_page_is_one_line(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _drop_parts(run)
    data = bytearray((run / FIRST).read_bytes())
    for i in range(200, 2000, 7):  # the first column chunks: the footer still reads, the pages do not
        data[i] ^= 0xFF
    (run / FIRST).write_bytes(bytes(data))
    refused(run, tmp_path, capsys, FIRST, "cannot be read", "corrupted")


def test_an_interrupted_run_says_so(tmp_path: Path) -> None:
    """200 games played, then a resume to 1,000 interrupted before it finishes a game."""
    out = tmp_path / "run"
    runner.run(TokaidoGame(GameConfig(n_players=3)), 200, 11, out, chunk_size=CHUNK, progress=False)

    def interrupting(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine, "play_games", interrupting)
        with pytest.raises(KeyboardInterrupt):
            runner.run(
                TokaidoGame(GameConfig(n_players=3)),
                1000,
                11,
                out,
                chunk_size=CHUNK,
                resume=True,
                progress=False,
            )
    text = write_report(out, tmp_path / "rep").read_text()
    head = text.split("## Answers")[0]
    assert "# Tokaido balance report: players=3,travelers=draft,bots=greedy" in head
    assert "200 of 1,000 intended games" in head and "run interrupted" in head
    assert "· run interrupted ·" in head and "**Incomplete run**" in head and "--resume" in head
