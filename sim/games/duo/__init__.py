"""Tokaido Duo's orchestration, the second game beside Tokaido (docs/duo.md).

- ``board``, ``rules``: the board file and number tables -> validated ``DuoRules`` -> the kernels'
  integer record; ``board_gen``: random valid boards (the board family).
- ``engine`` (``play_duo_games``), ``dataset`` (Parquet rows with the board provenance), ``game``
  (``DuoGame``: Duo as a ``sim.run.game.Game``, so runs go through ``sim.run.runner.run``, resume
  and clusters included), ``study`` (``--boards K``).
- ``referee``, ``referee_state``, ``referee_moves``: the independent plain-Python referee.

May import ``kernels.core``, ``kernels.duo`` (``kernels.duo.play`` for the batch), ``sim.games.tokaido.rules``,
``sim.run``, ``sim.errors``, ``sim.games.tokaido.data``; never ``sim.cli`` (the commands are ``sim/games/duo/cli.py``).
"""
