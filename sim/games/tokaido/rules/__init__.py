"""The rules as data: loading ``sim/games/tokaido/data/*.toml`` into the kernels' integer tables (``tables``),
the game configuration a run plays (``config``), and ``--set`` / ``@patch.toml`` overrides
(``overrides``).

May import: ``kernels.core``, ``sim.errors``, ``sim.games.tokaido.data`` (files).
"""
