"""Tokaido (the base game, its variants, New Encounters, Crossroads, Matsuri, the promo Travelers).

- ``rules``: the rules data (``data/*.toml``) -> integer tables, ``GameConfig``, overrides, profiles.
- ``engine`` (``play_games``, bot weights), ``game`` (``TokaidoGame``: Tokaido as a
  ``sim.run.game.Game``), ``dataset`` (its Parquet rows), ``study`` (grids of configurations).
- ``referee``: the independent plain-Python referee and game records (``audit``).
- ``golden``, ``playthrough``, ``statcheck``: its golden games, playthroughs and statistical baselines.
- ``tuning``: the bots' weights fitted and measured (tune, ladder, agreement, draft tables).
- ``balance``: the smallest rule change that makes every Traveler fair.

Its kernels are ``kernels/`` (``kernels.core``, ``kernels.bots``, ``kernels.game``, ``kernels.play``),
its reports ``analysis/tokaido/``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.games.plugin import Plugin

if TYPE_CHECKING:
    from sim.checks.golden import GoldenSuite
    from sim.checks.playthrough import PlaythroughSet


def _golden() -> GoldenSuite:
    from sim.games.tokaido.checks.golden import SUITE

    return SUITE


def _playthroughs() -> PlaythroughSet:
    from sim.games.tokaido.checks.playthrough import SET

    return SET


def _mount(app: Any) -> None:
    from sim.games.tokaido.cli import mount

    mount(app)


PLUGIN = Plugin("tokaido", "Tokaido", _golden, _playthroughs, _mount)
