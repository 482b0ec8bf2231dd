"""The repository's folders that tests read, found from this file (never from the working directory)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout: ROOT/tests/helpers/paths.py
TESTS = ROOT / "tests"
GOLDEN_DIR = TESTS / "golden"  # golden games (``tokaido-sim check golden``)
PLAYTHROUGH_DIR = TESTS / "playthroughs"  # narrated games (``tokaido-sim playthroughs``)
DATA_DIR = TESTS / "data"  # hand-written inputs, e.g. a second Duo board
