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
