"""Did behaviour or balance move? Golden games (``golden``), statistical baselines
(``statcheck``) and the recorded playthroughs (``playthrough``).

May import: ``kernels``, ``sim.rules``, ``sim.run``, ``sim.referee``, ``sim.errors``, ``analysis``.
"""
