"""The independent referee: a plain-Python, object-based re-implementation of the rules, written
from the rulebooks and not from the kernels, that replays an action log and re-derives every
result (``game``: the entry point ``referee_game``; ``state``, ``stations``, ``scoring``,
``crossroads``, ``replay``: its parts).

May import: ``kernels.core.enums`` (the log's ids), ``sim.games.tokaido.rules``; never the engine's kernels.
"""
