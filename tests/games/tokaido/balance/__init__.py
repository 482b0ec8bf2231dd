"""The balance search (``tokaido-sim balance``, ``sim/games/tokaido/balance``)."""
