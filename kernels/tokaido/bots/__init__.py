"""Bot policies: every decision of the game except the searched move, behind one hook per decision.

- ``policy``: the entry points ``choose_*_nb`` the engine calls, with the random and greedy rules;
  they dispatch heuristic tiers to ``heuristic``.
- ``heuristic``: feature x weight valuations (tiers heuristic, tuned, search's fallback).
- ``features``: the features and value helpers the heuristic reads.
- ``crossroads``: the Crossroads choices (Amulets, Legendary Objects, Calligraphy, station options).

No hook receives the hidden record: bots see only ``pub`` and ``ru``.
May import: ``kernels.core`` only (never ``kernels.tokaido.game``, ``kernels.tokaido.search`` or
``kernels.tokaido.play``).
"""
