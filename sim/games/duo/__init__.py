"""Tokaido Duo, a 2-player dice-drafting game beside Tokaido (docs/duo.md).

- ``board``, ``rules``: the board file and number tables (``data/*.toml``) -> validated ``DuoRules``
  -> the kernels' integer record; ``board_gen``: random valid boards (the board family).
- ``engine`` (``play_duo_games``), ``dataset`` (Parquet rows with the board provenance), ``game``
  (``DuoGame``: Duo as a ``sim.run.game.Game``, so runs go through ``sim.run.runner.run``, resume
  and clusters included), ``study`` (conclusions across boards).
- ``referee``: the independent plain-Python referee; ``narrate``: its log in words.
- ``golden``, ``playthrough``: its golden games and playthroughs; ``cli``: ``tokaido-sim duo ...``.

Its kernels are ``kernels/duo/``, its reports ``analysis/duo/``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.games.plugin import Plugin

if TYPE_CHECKING:
    from sim.checks.golden import GoldenSuite
    from sim.checks.playthrough import PlaythroughSet


def _golden() -> GoldenSuite:
    from sim.games.duo.checks.golden import SUITE

    return SUITE


def _playthroughs() -> PlaythroughSet:
    from sim.games.duo.checks.playthrough import SET

    return SET


def _mount(app: Any) -> None:
    from sim.games.duo.cli import app as duo

    app.add_typer(duo, name="duo")


PLUGIN = Plugin("duo", "Tokaido Duo", _golden, _playthroughs, _mount)
