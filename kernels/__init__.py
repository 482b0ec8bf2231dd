"""Numba kernels of tokaido-sim: pure functions over integer arrays (see ``enums``)."""
