"""The ``tokaido-sim`` command line, one thin module per command group: parse, call, print.

- ``app``: the Typer app and ``main`` (the console entry point); it only assembles the groups.
- ``options``: the options shared by the commands and ``make_config``.
- ``validate``: the checks every command makes before it writes (options made pointless by the
  others, output files and folders).
- ``games``: run, verify, replay, study.  ``analysis``: report, compare, plot.
- ``checks``: check golden / stats / make-baseline, playthroughs.  ``bots``: tune, ladder.
- ``duo``: duo run / verify / replay / study (Tokaido Duo, ``sim.games.duo``).

May import anything below it (``sim.*``, ``kernels``, ``analysis``); nothing imports ``sim.cli``.
"""
