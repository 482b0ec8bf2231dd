"""The shared checks (``sim/checks``): the playthroughs of both games."""
