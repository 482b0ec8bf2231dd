"""Tokaido Duo's plug-in (``sim/games/duo``): board data, referee conformance, golden games, CLI, runner."""
