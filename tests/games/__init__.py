"""Tests of the games' plug-ins (``sim/games/``)."""
