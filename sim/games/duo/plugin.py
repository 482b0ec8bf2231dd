"""Tokaido Duo's plug-in: ``PLUGIN``, what the game offers the shared machinery (found by
``sim.games.plugins``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.games.plugin import Plugin

if TYPE_CHECKING:
    import pyarrow as pa

    from sim.checks.golden import GoldenSuite
    from sim.checks.playthrough import PlaythroughSet


def _golden() -> GoldenSuite:
    from sim.games.duo.checks.golden import SUITE

    return SUITE


def _playthroughs() -> PlaythroughSet:
    from sim.games.duo.checks.playthrough import SET

    return SET


def _schema() -> pa.Schema:
    from sim.games.duo.dataset import SCHEMA

    return SCHEMA


def _mount(app: Any, check: Any) -> None:
    from sim.games.duo.cli import app as duo

    app.add_typer(duo, name="duo")


PLUGIN = Plugin("duo", "Tokaido Duo", _golden, _playthroughs, _mount, _schema)
