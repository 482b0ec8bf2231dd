"""The games: each one a plug-in package ``sim.games.<name>`` whose ``plugin`` module's ``PLUGIN`` says what
it offers.

A game lives in one place per layer: its kernels in ``kernels/<name>/``, its rules, engine,
referee, checks and commands here in ``sim/games/<name>/``, its reports in ``analysis/<name>/``.
The shared machinery (the runner ``sim.run``, the golden games and playthroughs ``sim.checks``, the
command line ``sim.cli``) finds the games through :func:`plugins`, so adding a game adds its own
rooms and touches no shared module. Tokaido is ``sim.games.tokaido``; Tokaido Duo is ``sim.games.duo``.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.games.plugin import Plugin


def plugins() -> dict[str, Plugin]:
    """Every game's plug-in by name, Tokaido first (its commands are the top level of the CLI)."""
    found = {}
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg and importlib.util.find_spec(f"{__name__}.{info.name}.plugin") is not None:
            plugin = importlib.import_module(f"{__name__}.{info.name}.plugin").PLUGIN
            found[plugin.name] = plugin
    return dict(sorted(found.items(), key=lambda kv: (kv[0] != "tokaido", kv[0])))
