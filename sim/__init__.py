"""tokaido-sim orchestration, one concern per package (dependencies point down this list):

- ``sim.cli``: the command line.
- ``sim.checks``: golden games, statistical baselines, playthroughs.  ``sim.games.tokaido.tuning``: tuning,
ladder.
- ``sim.games.duo``: Tokaido Duo (board as data, runs, study, its own referee).
- ``sim.run``: the engine wrapper, runs, datasets, studies, clusters.
- ``sim.games.tokaido.referee``: the independent referee (reads the rules tables, never the engine).
- ``sim.games.tokaido.rules``: rules data -> integer tables, configuration, overrides.
``sim.games.tokaido.data``: the TOML.
- ``sim.dataset``: the dataset format (schema, typed manifest, parts and their checks), below both
  ``sim.run``, which writes it, and ``analysis``, which reads it.
- ``sim.files``: reading the files users give (one line for any file that is not what was expected).
- ``sim.errors``: the user-error type and its one-line reporting (imports nothing of the project).

See docs/architecture.md for the picture.
"""

__version__ = "0.1.0"
