"""Tokaido's state and the rules every Tokaido kernel layer reads: enums (ids, field indices), the record
layouts (``state``), piles (``piles``), result records (``records``), the board (legal moves, who moves
next: ``board``), scoring (``score``), prices (``prices``), the abilities a game holds (``present``).

May import: numpy, numba, ``kernels.core`` (rng, log) and other ``kernels.tokaido.core`` modules only.
"""
