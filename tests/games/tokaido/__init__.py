"""Tokaido's plug-in (``sim/games/tokaido``): rules data, referee, conformance, checks, tuning, balance,
studies."""
