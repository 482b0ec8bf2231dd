"""The report's HTML page is one self-contained file that a real browser shows: opened in headless
Chromium (Debian's ``chromium``, installed by ``make browser``, which ``.ci/run`` calls), a screenshot
taken and the page's text read back from the browser's DOM."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

from analysis.tokaido.caveats import Disputed, TierCheck
from analysis.tokaido.report import write_report
from tests.helpers.study_data import make_study

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CELLS = [
    {"n_players": 3},
    {"n_players": 4},
    {"n_players": 4, "travelers": "draft"},
    {"n_players": 4, "variants": "preparations", "effect": {"seat:0": 4.0}},
    {"n_players": 4, "expansions": "crossroads", "deal_seed": 9, "effect": {"kinko": 6.0}},
]
CHECK = TierCheck(
    "4p-base",
    "expert",
    "search",
    100_000,
    8_000,
    0.93,
    0.85,
    0.97,
    (Disputed("kinko", 0.30, 0.24, -0.09, -0.03),),
    (),
    "a test table",
)


def browser() -> str | None:
    return next((b for b in map(shutil.which, BROWSERS) if b), None)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("html")
    study = make_study(root / "study", CELLS, games=400)
    return write_report(study, root / "report", checks={"4p-base": CHECK}).with_name("report.html")


def test_the_page_holds_everything(page: Path) -> None:
    """Every plot is embedded (a data URI), no file or address is referred to, the tables are HTML tables."""
    text = page.read_text()
    srcs = re.findall(r'<img[^>]*src="([^"]*)"', text)
    assert len(srcs) >= 4 and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert not re.search(r'(href|src)="(?!data:)[^"#]', text)
    assert text.count("<table>") >= 5 and '<ul class="answers">' in text


def _chromium(exe: str, tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [
        exe,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--user-data-dir={tmp}",
        "--no-first-run",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)


def test_a_real_browser_shows_the_page(page: Path, tmp_path: Path) -> None:
    exe = browser()
    if exe is None:
        pytest.skip(
            "no headless browser (chromium) on this machine: `make browser` installs Debian's chromium"
        )
    shot = tmp_path / "page.png"
    run = _chromium(
        exe, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,1800", page.as_uri()
    )
    assert shot.is_file(), run.stderr[-2000:]
    img = imread(shot)
    assert img.shape[:2] == (1800, 1280)
    # not a blank page: text and the answers' frame; some pixels are the frame's blue (#1f77b4)
    ink = (img[..., :3] < 0.6).any(axis=2).mean()
    blue = (np.abs(img[..., :3] - np.array([0x1F, 0x77, 0xB4]) / 255).max(axis=2) < 0.06).sum()
    assert ink > 0.01 and blue > 200
    dom = _chromium(exe, tmp_path / "profile2", "--dump-dom", page.as_uri()).stdout
    text = re.sub(r"<[^>]+>", " ", dom)
    assert "Answers" in text and "strongest vs weakest Traveler" in text and "Seats" in text
    assert "Preparations" in text and "Crossroads" in text and "Tier check" in text
    assert "Travelers side by side" in text and "Seats side by side" in text
    assert dom.count("<img") >= 4 and dom.count("<table") >= 5
