"""Tokaido's kernels, in layers that import downwards only.

- ``kernels.tokaido.core``: the state layout (``enums``, ``state``), piles, board, scoring, prices.
- ``kernels.tokaido.bots``: the policies behind every decision hook (random, greedy, heuristic tiers).
- ``kernels.tokaido.game``: the engine (stations, Crossroads, Matsuri, promos, the turn); asks
``kernels.tokaido.bots``.
- ``kernels.tokaido.search``: the determinized search bot; plays rollouts with ``kernels.tokaido.game``.
- ``kernels.tokaido.play``: the driver (one game, a parallel batch); the only module that knows every tier.
- ``kernels.tokaido.imitate``: the search's move decisions recorded, and the heuristic's values of them.
"""
