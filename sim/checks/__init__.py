"""Did behaviour or balance move? Golden games (``golden``), statistical baselines
(``statcheck``) and the recorded playthroughs (``playthrough``); the Tokaido Duo twins
``duo_golden`` and ``duo_playthrough``, checked by the same commands.

May import: ``kernels``, ``sim.rules``, ``sim.run``, ``sim.referee``, ``sim.errors``, ``analysis``,
``sim.duo`` and ``kernels.duo``.
"""
