"""Tokaido's plug-in: ``PLUGIN``, what the game offers the shared machinery (found by
``sim.games.plugins``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.games.plugin import Plugin

if TYPE_CHECKING:
    import pyarrow as pa

    from sim.checks.golden import GoldenSuite
    from sim.checks.playthrough import PlaythroughSet


def _golden() -> GoldenSuite:
    from sim.games.tokaido.checks.golden import SUITE

    return SUITE


def _playthroughs() -> PlaythroughSet:
    from sim.games.tokaido.checks.playthrough import SET

    return SET


def _schema() -> pa.Schema:
    from sim.games.tokaido.dataset import SCHEMA

    return SCHEMA


def _mount(app: Any, check: Any) -> None:
    from sim.games.tokaido.cli import mount

    mount(app, check)


PLUGIN = Plugin("tokaido", "Tokaido", _golden, _playthroughs, _mount, _schema)
