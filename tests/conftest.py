"""Shared by every test: each one runs in its own scratch working directory (its ``tmp_path``).

The tests sit in folders that mirror the source tree (``tests/kernels/``, ``tests/games/tokaido/...``,
``tests/run/``, ...); what several of them share is in ``tests.helpers`` (``from tests.helpers.positions
import make_position``), never in another test module. A test finds the repository's files through
``tests.helpers.paths``, so it passes from any directory; the scratch directory makes sure of it and
keeps a relative path from writing into the checkout.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _scratch_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
