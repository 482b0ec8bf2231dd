"""Tokaido (the base game, its variants, New Encounters, Crossroads, Matsuri, the promo Travelers).

- ``rules``: the rules data (``data/*.toml``) -> integer tables, ``GameConfig``, overrides, profiles.
- ``engine`` (``play_games``, bot weights), ``game`` (``TokaidoGame``: Tokaido as a
  ``sim.run.game.Game``), ``dataset`` (its Parquet rows), ``study`` (grids of configurations).
- ``referee``: the independent plain-Python referee and game records (``audit``).
- ``golden``, ``playthrough``, ``statcheck``: its golden games, playthroughs and statistical baselines.
- ``tuning``: the bots' weights fitted and measured (tune, ladder, agreement, draft tables).
- ``balance``: the smallest rule change that makes every Traveler fair.

Its kernels are ``kernels/`` (``kernels.core``, ``kernels.tokaido.bots``, ``kernels.tokaido.game``,
``kernels.tokaido.play``),
its reports ``analysis/tokaido/``.
"""
