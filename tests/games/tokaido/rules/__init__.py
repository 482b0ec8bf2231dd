"""The rules as data (``sim/games/tokaido/rules``): bounds, profiles, overrides."""
