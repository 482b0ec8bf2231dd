"""Tokaido's kernels: the rules by area (base game, Crossroads, Matsuri, promos), the bots, plain Python
without JIT."""
