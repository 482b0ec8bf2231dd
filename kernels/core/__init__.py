"""What every game's kernels share: the per-game random stream (``rng``), the action log (``log``) and
what a batch kernel promises its caller (``batch``). A game's own state and rules live in its package
(``kernels.tokaido.core``, ``kernels.duo``).

May import: numpy, numba, and other ``kernels.core`` modules only.
"""
