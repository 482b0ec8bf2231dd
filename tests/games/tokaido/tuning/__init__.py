"""Fitting and measuring the bots (``sim/games/tokaido/tuning``): draft values, agreement, imitation,
sweep, ladder."""
