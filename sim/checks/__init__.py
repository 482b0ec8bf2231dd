"""Did behaviour or balance move? Golden games (``golden``), statistical baselines
(``statcheck``) and the recorded playthroughs (``playthrough``); the Tokaido Duo twins
``duo_golden`` and ``duo_playthrough``, checked by the same commands.

May import: ``kernels``, ``sim.games.tokaido.rules``, ``sim.run``, ``sim.games.tokaido.referee``, ``sim.errors``, ``analysis``,
``sim.games.duo`` and ``kernels.duo``.
"""
