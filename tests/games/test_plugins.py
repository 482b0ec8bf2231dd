"""What every game's plug-in offers: its dataset schema holds the columns its parts record statistics of."""

from __future__ import annotations

import importlib

import pyarrow as pa
import pytest

from sim.dataset.parts import STATISTICS
from sim.games import plugins


@pytest.mark.parametrize("name", sorted(plugins()))
def test_a_games_schema_holds_its_statistics_columns(name: str) -> None:
    """pyarrow skips a statistics column the table lacks without a word: a misspelt name would go
    unnoticed."""
    schema = plugins()[name].schema()
    game_stats = importlib.import_module(f"sim.games.{name}.dataset").STATISTICS
    assert isinstance(schema, pa.Schema)
    assert {*STATISTICS, *game_stats} <= set(schema.names)
