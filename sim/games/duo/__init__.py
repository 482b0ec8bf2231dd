"""Tokaido Duo, a 2-player dice-drafting game beside Tokaido (docs/duo.md).

- ``board``, ``rules``, ``automa``: the board file, number tables and the solo Automa (``data/*.toml``)
  -> validated ``DuoRules`` -> the kernels' integer record; ``board_gen``: random valid boards (the board
  family); ``unknowns``: what is known and what is not, and sampled worlds.
- ``engine`` (``play_duo_games``), ``dataset`` (Parquet rows with the board provenance), ``game``
  (``DuoGame``: Duo as a ``sim.run.game.Game``, so runs go through ``sim.run.runner.run``, resume
  and clusters included), ``study`` and ``study_report`` (``duo study``: conclusions across sampled worlds).
- ``referee``: the independent plain-Python referee (the Automa's moves too); ``narrate``: its log in words.
- ``golden``, ``playthrough``: its golden games and playthroughs; ``cli``: ``tokaido-sim duo ...``.

Its kernels are ``kernels/duo/``, its reports ``analysis/duo/``.
"""
