"""tokaido-sim orchestration, one concern per package (dependencies point down this list):

- ``sim.cli``: the command line.
- ``sim.checks``: golden games, statistical baselines, playthroughs.  ``sim.tuning``: tuning, ladder.
- ``sim.duo``: Tokaido Duo (board as data, runs, study, its own referee).
- ``sim.run``: the engine wrapper, runs, datasets, studies, clusters.
- ``sim.referee``: the independent referee (reads the rules tables, never the engine).
- ``sim.rules``: rules data -> integer tables, configuration, overrides.  ``sim.data``: the TOML.
- ``sim.errors``: the user-error type and its one-line reporting (imports nothing of the project).

See docs/architecture.md for the picture.
"""

__version__ = "0.1.0"
