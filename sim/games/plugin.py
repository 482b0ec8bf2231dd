"""What a game plug-in offers the shared machinery: ``Plugin`` (``sim.games.plugins()`` finds them).

Each field is the game's own answer to one shared mechanism, built lazily so that finding the
games imports no engine: the golden games (``sim.checks.golden.GoldenSuite``), the playthroughs
(``sim.checks.playthrough.PlaythroughSet``), the commands it adds to the CLI (``mount``) and the Arrow
schema of its part files (``schema``; written with ``sim.dataset.parts.write_table``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa

    from sim.checks.golden import GoldenSuite
    from sim.checks.playthrough import PlaythroughSet


@dataclass(frozen=True)
class Plugin:
    name: str  # "tokaido", "duo": the manifests' and golden files' "game"
    title: str  # for people: "Tokaido", "Tokaido Duo"
    golden: Callable[[], GoldenSuite]
    playthroughs: Callable[[], PlaythroughSet]
    mount: Callable[[Any, Any], None]  # adds the game's commands to the Typer app and its ``check`` group
    schema: Callable[[], pa.Schema]  # its part files' columns (``Game.to_table``'s schema)
