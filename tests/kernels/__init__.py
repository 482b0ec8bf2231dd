"""Tests of the Numba kernels (``kernels/``), on hand-built positions and whole games."""
