"""The independent referee: a plain-Python, object-based re-implementation of the rules, written
from the rulebooks and not from the kernels, that replays an action log and re-derives every
result (``game``: the entry point ``referee_game`` and the ``Referee``, composed of a shared
``context`` and one handler per area: ``stations``, ``inns``, ``crossroads`` + ``amulets``, ``matsuri`` +
``matsuri_travelers``, ``promos``, ``final_scoring``; ``state``, ``scoring`` and ``prices``: the
game state and the pure arithmetic; ``record`` and ``audit``: game records played elsewhere).

May import: ``kernels.tokaido.core.enums`` (the log's ids), ``sim.games.tokaido.rules``; never the engine's
kernels.
"""
