"""Fixtures of the balance tests: a rules patch that makes one Traveler deliberately too strong."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.balance import NAMES


@pytest.fixture(scope="module")
def skewed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ten identical Travelers, Kinko with 4 coins more than the others."""
    path = tmp_path_factory.mktemp("rules") / "skewed.toml"
    path.write_text(
        "\n".join(f'[travelers.{n}]\nability = "none"\ncoins = {9 if n == "kinko" else 5}\n' for n in NAMES)
    )
    return path
