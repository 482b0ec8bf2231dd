"""Tokaido Duo's rules in the kernels on hand-built positions (seed 003)."""
