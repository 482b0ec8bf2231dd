"""The state and the rules every kernel layer reads: enums (ids, field indices), the record layouts
(``state``), the per-game random stream (``rng``), piles and the action log (``piles``), result
records (``records``), the board (legal moves, who moves next: ``board``) and scoring (``score``).

May import: numpy, numba, and other ``kernels.core`` modules only.
"""
