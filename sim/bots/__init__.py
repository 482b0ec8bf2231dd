"""Working on the bots from Python: weight tuning by self-play (``tune``) and the Elo ladder of the
tiers (``ladder``). The bots themselves are kernels (``kernels.bots``, ``kernels.search``).

May import: ``kernels``, ``sim.rules``, ``sim.run``, ``sim.errors``.
"""
