"""Tokaido Duo's orchestration, the second game beside Tokaido (docs/duo.md).

- ``board``, ``rules``, ``automa``: the board file, number tables and the solo Automa -> validated
  ``DuoRules`` -> the kernels' integer record; ``board_gen``: random valid boards (the board family);
  ``unknowns``: what is known and what is not, and sampled worlds.
- ``engine`` (``play_duo_games``), ``dataset`` (Parquet rows with the board provenance), ``game``
  (``DuoGame``: Duo as a ``sim.run.game.Game``, so runs go through ``sim.run.runner.run``, resume
  and clusters included), ``study`` and ``study_report`` (``duo study``: conclusions across sampled worlds).
- ``referee``, ``referee_state``, ``referee_automa``, ``referee_moves``: the independent plain-Python referee.

May import ``kernels.core``, ``kernels.duo`` (``kernels.duo.play`` for the batch), ``sim.rules``,
``sim.run``, ``sim.errors``, ``sim.data``; never ``sim.cli`` (the commands are ``sim/cli/duo.py``).
"""
